package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// listenHint is the log message for a failed listen: for a taken port it says which setting
// moves the server and, when this host tells, which process holds the port.
func listenHint(err error, port int) string {
	if !errors.Is(err, syscall.EADDRINUSE) {
		return "cannot listen"
	}
	msg := "cannot listen: port " + strconv.Itoa(port) + " is in use"
	if holder := portHolder(port); holder != "" {
		msg += " by " + holder
	}
	return msg + "; stop what holds it, or choose another port with MCP_PORT (-port)"
}

// portHolder names the process listening on TCP port, as "pid N (name)", or "" when it cannot
// tell (not Linux, or the process belongs to another user and its descriptors are hidden).
func portHolder(port int) string {
	inodes := map[string]bool{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		for _, ino := range listeningInodes(table, port) {
			inodes[ino] = true
		}
	}
	if len(inodes) == 0 {
		return ""
	}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range procs {
		fds, err := os.ReadDir(filepath.Join(dir, "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
			if err != nil || !strings.HasPrefix(link, "socket:[") {
				continue
			}
			if inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] {
				pid := filepath.Base(dir)
				comm, _ := os.ReadFile(filepath.Join(dir, "comm"))
				if name := strings.TrimSpace(string(comm)); name != "" {
					return fmt.Sprintf("pid %s (%s)", pid, name)
				}
				return "pid " + pid
			}
		}
	}
	return ""
}

// listeningInodes reads one of /proc/net/tcp{,6} for sockets listening on port.
func listeningInodes(table string, port int) []string {
	f, err := os.Open(table)
	if err != nil {
		return nil
	}
	defer f.Close()
	want := fmt.Sprintf(":%04X", port)
	var out []string
	sc := bufio.NewScanner(f)
	sc.Scan() // the header line
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != "0A" || !strings.HasSuffix(fields[1], want) {
			continue
		}
		out = append(out, fields[9])
	}
	return out
}
