package e2e

import (
	"os"
	"os/exec"
	"time"
)

// exec_ runs the binary with extra environment, bounded in time, and answers its output.
func exec_(bin string, env ...string) (string, error) {
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	done := make(chan struct{})
	var out []byte
	var err error
	go func() {
		out, err = cmd.CombinedOutput()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	return string(out), err
}
