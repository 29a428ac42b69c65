// Command hostile measures what a hostile client can make bin/mcp-gemstone hold: it starts the
// binary on the GCI test stand-in, runs one attack, and reports the server's peak RSS
// (VmHWM), its goroutines at the attack's height (a SIGQUIT stack dump, which ends the
// process) and its open descriptors. It is a measuring tool, not a test: the figures go into
// docs/transport.md; nothing here asserts a number.
//
//	go run ./test/e2e/hostile -binary bin/mcp-gemstone -standin build/standin -attack batch
//
// Attacks (scaled to a shared two-core machine):
//
//	batch   one 2025-03-26 batch of -members tools/call of big (51200 bytes each), read whole
//	notify  -notes notifications of 1 MiB each behind a running 60 s sleep
//	unread  -clients pings without a session, each with a 4 MiB string id, never read
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gemstone-mcp/mcp-gemstone/test/internal/binserver"
)

func main() {
	binary := flag.String("binary", "bin/mcp-gemstone", "the server binary")
	standin := flag.String("standin", "build/standin", "the stand-in's GEMSTONE directory")
	attack := flag.String("attack", "batch", "batch, notify or unread")
	members := flag.Int("members", 10000, "batch: members")
	notes := flag.Int("notes", 400, "notify: notifications")
	clients := flag.Int("clients", 100, "unread: clients")
	flag.Parse()
	if err := run(*binary, *standin, *attack, *members, *notes, *clients); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}

func run(binary, standin, attack string, members, notes, clients int) error {
	gemDir, err := os.MkdirTemp("", "hostile-gems-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(gemDir)
	home, _ := filepath.Abs(standin)
	p, err := binserver.Start(binary, "GEMSTONE="+home, "GCI_LIBRARY=", "GCI_STANDIN_DIR="+gemDir, "GS_PASS=swordfish",
		"MCP_PORT=0", "MCP_HOST=127.0.0.1", "MCP_LOG_FORMAT=json", "MCP_LOG_LEVEL=info", "MCP_RESULT_CAP=0",
		"MCP_MAX_BODY=8MiB", "GOTRACEBACK=all")
	if err != nil {
		return err
	}
	defer func() {
		_ = p.Cmd.Process.Kill()
		<-p.Exited
		for _, pid := range binserver.StandinGems(gemDir) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}()
	url, _ := p.WaitURL(15 * time.Second)
	if url == "" {
		return fmt.Errorf("the server did not start:\n%s", p.Log)
	}
	pid := p.Cmd.Process.Pid
	fmt.Printf("attack %s on %s (pid %d); before: %s\n", attack, binary, pid, figures(pid))
	c := client{url: url}
	var hold func() // the attack's height: what is measured happens while it holds
	switch attack {
	case "batch":
		hold, err = c.batch(members)
	case "notify":
		hold, err = c.notify(notes)
	case "unread":
		hold, err = c.unread(clients)
	default:
		err = fmt.Errorf("unknown attack %q", attack)
	}
	if err != nil {
		return err
	}
	fmt.Printf("at its height: %s\n", figures(pid))
	_ = p.Cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-p.Exited:
	case <-time.After(10 * time.Second):
	}
	time.Sleep(time.Second) // the log is read line by line on a goroutine of binserver's, after the exit
	n := len(regexp.MustCompile(`(?m)^goroutine \d+ `).FindAllString(p.Log.String(), -1))
	fmt.Printf("goroutines at its height (SIGQUIT dump): %d\n", n)
	if n == 0 {
		tail := p.Log.String()
		fmt.Printf("no stack dump in the server's output; its last bytes:\n%s\n", tail[max(0, len(tail)-800):])
	}
	if hold != nil {
		hold()
	}
	return nil
}

// figures reads the process's peak and current RSS and its open descriptors.
func figures(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	field := func(name string) string {
		m := regexp.MustCompile(`(?m)^` + name + `:\s+(\d+) kB`).FindSubmatch(b)
		if m == nil {
			return "?"
		}
		kb, _ := strconv.Atoi(string(m[1]))
		return fmt.Sprintf("%.0f MiB", float64(kb)/1024)
	}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return fmt.Sprintf("peak RSS %s, RSS %s, fds %d", field("VmHWM"), field("VmRSS"), len(fds))
}

type client struct{ url string }

func (c client) post(sid, version, body string) (*http.Response, []byte, error) {
	req, _ := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func (c client) open(version string) (string, error) {
	resp, b, err := c.post("", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+
		`","capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}}`)
	if err != nil {
		return "", err
	}
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		return "", fmt.Errorf("initialize: %d %s", resp.StatusCode, b)
	}
	_, _, err = c.post(sid, version, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return sid, err
}

func (c client) batch(members int) (func(), error) {
	sid, err := c.open("2025-03-26")
	if err != nil {
		return nil, err
	}
	var body bytes.Buffer
	body.WriteByte('[')
	for i := range members {
		if i > 0 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big","arguments":{"n":51200}}}`, i+1)
	}
	body.WriteByte(']')
	start := time.Now()
	resp, b, err := c.post(sid, "2025-03-26", body.String())
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	jerr := json.Unmarshal(b, &out)
	fmt.Printf("batch of %d members (%d bytes): %d, %d answers, %d bytes in %v (%v)\n",
		members, body.Len(), resp.StatusCode, len(out), len(b), time.Since(start).Round(time.Millisecond), jerr)
	return nil, nil
}

func (c client) notify(notes int) (func(), error) {
	sid, err := c.open("2025-11-25")
	if err != nil {
		return nil, err
	}
	go func() {
		_, _, _ = c.post(sid, "2025-11-25", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":60000}}}`)
	}()
	time.Sleep(500 * time.Millisecond)
	note := `{"jsonrpc":"2.0","method":"notifications/x","params":{"pad":"` + strings.Repeat("p", 1<<20) + `"}}`
	codes := map[int]int{}
	for range notes {
		resp, _, err := c.post(sid, "2025-11-25", note)
		if err != nil {
			return nil, err
		}
		codes[resp.StatusCode]++
	}
	fmt.Printf("%d notifications of 1 MiB: statuses %v\n", notes, codes)
	time.Sleep(time.Second)
	return nil, nil
}

func (c client) unread(clients int) (func(), error) {
	addr := strings.TrimSuffix(strings.TrimPrefix(c.url, "http://"), "/mcp")
	body := `{"jsonrpc":"2.0","id":"` + strings.Repeat("x", 4<<20) + `","method":"ping"}`
	req := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
	conns := make([]net.Conn, 0, clients)
	for range clients {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			return nil, err
		}
		if _, err := io.WriteString(nc, req); err != nil {
			return nil, err
		}
		conns = append(conns, nc)
	}
	time.Sleep(10 * time.Second) // longer than any write deadline: what is held now stays held
	first, _ := bufio.NewReader(conns[0]).ReadString('\n')
	fmt.Printf("%d clients sent a ping with a 4 MiB id and read nothing for 10 s; the first then read %q\n", clients, strings.TrimSpace(first))
	return func() {
		for _, nc := range conns {
			nc.Close()
		}
	}, nil
}
