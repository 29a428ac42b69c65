package mcptest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// procStat reads /proc/<pid>/stat: "pid (comm) state ppid ...", where comm may itself hold
// spaces and parentheses, so it is cut at the last ')'.
func procStat(pid string) (comm, state string, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return "", "", 0, false
	}
	s := string(b)
	lp, rp := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if lp < 0 || rp < lp {
		return "", "", 0, false
	}
	fields := strings.Fields(s[rp+1:])
	if len(fields) < 2 {
		return "", "", 0, false
	}
	ppid, _ = strconv.Atoi(fields[1])
	return s[lp+1 : rp], fields[0], ppid, true
}

// Alive says whether process pid exists and is not a zombie (dead, not yet reaped).
func Alive(pid int) bool {
	_, state, _, ok := procStat(strconv.Itoa(pid))
	return ok && state != "Z"
}

// Children lists this process's live (not zombie) children whose command name contains name
// ("" for every child).
func Children(name string) ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("listing processes: %w", err)
	}
	me := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, state, ppid, ok := procStat(e.Name())
		if ok && state != "Z" && ppid == me && strings.Contains(comm, name) {
			out = append(out, pid)
		}
	}
	return out, nil
}
