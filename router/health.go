package router

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// healthz answers liveness: up until shutdown begins, whatever the stone.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.closing.Err() != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("shutting down\n"))
		return
	}
	_, _ = w.Write([]byte("ok\n"))
}

// readyCheckTimeout bounds one readiness check: a probe must get an answer, not hang on a
// stone that does not answer.
const readyCheckTimeout = 2 * time.Second

// readyz answers whether a new session could be served now: 200 when Ready finds nothing
// missing, else 503 with the reason. /healthz stays liveness: a server waiting for its stone is
// alive and not ready.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	answer := struct {
		Status  string `json:"status"`
		Reason  string `json:"reason,omitempty"`
		Version string `json:"version,omitempty"`
	}{Status: "ready", Version: s.o.Version}
	status := http.StatusOK
	if s.closing.Err() != nil {
		status, answer.Status, answer.Reason = http.StatusServiceUnavailable, "notReady", "shutting down"
	} else if s.o.Ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), readyCheckTimeout)
		err := s.o.Ready(ctx)
		cancel()
		if err != nil {
			status, answer.Status, answer.Reason = http.StatusServiceUnavailable, "notReady", err.Error()
		}
	}
	body, _ := json.Marshal(answer)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
