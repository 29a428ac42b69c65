//go:build proof

package harness

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// Scrape reads the server's /metrics (Prometheus text format) and answers each sample line's
// value by its name and labels exactly as printed, e.g. `mcp_calls_total{method="tools/call",outcome="ok"}`,
// and the whole text.
func (s *Server) Scrape(ctx context.Context) (map[string]float64, string, error) {
	url := strings.TrimSuffix(s.URL, "/mcp") + "/metrics"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, "", err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, string(body), fmt.Errorf("GET /metrics: status %d", resp.StatusCode)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			out[line[:i]] = v
		}
	}
	return out, string(body), nil
}

// SessionIDShape matches what a session id looks like (32 hex digits), to prove none leaks.
var SessionIDShape = regexp.MustCompile(`[0-9a-f]{32}`)
