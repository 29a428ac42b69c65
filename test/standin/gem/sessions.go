package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// sessionDir is the registry of live stand-in gems: one file per session number holding
// the gem's pid, so that another gem's System stopSession: can find it. The directory holds
// nothing else; its lock file is <dir>.lock.
type sessionDir struct {
	dir string
}

const maxSessions = 10000

// register takes the lowest free session number, reclaiming entries whose gem is gone. A
// lock file serialises gems registering at once, so two never reclaim the same entry.
func (d sessionDir) register(pid int) (int, error) {
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return 0, fmt.Errorf("creating the session directory: %w", err)
	}
	// The lock lives beside the directory, which holds nothing but session entries.
	lock, err := os.OpenFile(filepath.Clean(d.dir)+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return 0, fmt.Errorf("opening the session directory lock: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return 0, fmt.Errorf("locking the session directory: %w", err)
	}
	for n := 1; n < maxSessions; n++ {
		f, err := os.OpenFile(d.path(n), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			if _, alive := d.gemPid(n); !alive {
				_ = os.Remove(d.path(n))
				n-- // try the same number again
			}
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("registering session %d: %w", n, err)
		}
		_, werr := fmt.Fprintf(f, "%d\n", pid)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(d.path(n))
			return 0, fmt.Errorf("registering session %d: %w", n, werr)
		}
		return n, nil
	}
	return 0, errors.New("no free stand-in session number")
}

// unregister removes session n's entry if it still names pid.
func (d sessionDir) unregister(n, pid int) {
	if got, _ := d.readPid(n); got == pid {
		_ = os.Remove(d.path(n))
	}
}

// stop kills session n's gem with SIGKILL, answering whether there was one to kill.
func (d sessionDir) stop(n int) bool {
	pid, alive := d.gemPid(n)
	if !alive {
		return false
	}
	return syscall.Kill(pid, syscall.SIGKILL) == nil
}

func (d sessionDir) path(n int) string { return filepath.Join(d.dir, strconv.Itoa(n)) }

func (d sessionDir) readPid(n int) (int, error) {
	data, err := os.ReadFile(d.path(n))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(data)))
}

// gemPid answers session n's pid and whether that process is alive and is a stand-in gem;
// the check keeps a stale entry whose pid was reused from killing a stranger.
func (d sessionDir) gemPid(n int) (int, bool) {
	pid, err := d.readPid(n)
	if err != nil || pid <= 0 {
		return 0, false
	}
	cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return pid, false
	}
	argv0, _, _ := bytes.Cut(cmdline, []byte{0})
	if !strings.HasSuffix(string(argv0), "standin-gem") {
		return pid, false
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err == nil {
		// A zombie (state Z) has exited already; it only waits to be reaped.
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			return pid, false
		}
	}
	return pid, true
}
