package router_test

import (
	"net/http"
	"strings"
	"testing"
)

// The endpoint is reached without chi's routing only where chi would route to it: a path
// spelled with an escape that chi reads as written is still chi's, which knows no such route.
func TestAnEscapedEndpointPathIsNotTheEndpoint(t *testing.T) {
	f := newFixture(t)
	for _, path := range []string{"/m%63p", "/%6Dcp/"} {
		resp, err := http.Post(f.ts.URL+path, "application/json", strings.NewReader(initBody))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || f.l.Launches() != 0 {
			t.Errorf("POST %s answered %d after %d logins; chi answers 404 and logs nobody in", path, resp.StatusCode, f.l.Launches())
		}
	}
}
