package auth

import (
	"net/http"
	"net/url"
	"strings"
)

// WellKnownPath is where RFC 9728 puts protected resource metadata.
const WellKnownPath = "/.well-known/oauth-protected-resource"

// ProtectedResourceMetadata is the RFC 9728 section 2 document this server publishes.
type ProtectedResourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
}

// MetadataPaths are the paths the metadata is served at: the root form, the path-based
// form for the resource's own path, and the one for /mcp (what a client that knows only
// the endpoint URL derives, should the resource be named differently behind a proxy).
func (a *Authenticator) MetadataPaths() []string {
	paths := []string{WellKnownPath}
	add := func(p string) {
		for _, have := range paths {
			if have == p {
				return
			}
		}
		paths = append(paths, p)
	}
	if u, err := url.Parse(a.cfg.Resource); err == nil {
		if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
			add(WellKnownPath + p)
		}
	}
	add(WellKnownPath + "/mcp")
	return paths
}

// MetadataHandler serves the metadata document on GET and HEAD. It is public (no token:
// it is what a client reads to learn where to get one) and readable cross-origin, so a
// browser-based client can discover the authorization server.
func (a *Authenticator) MetadataHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodOptions:
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "MCP-Protocol-Version")
			w.WriteHeader(http.StatusNoContent)
			return
		default:
			h.Set("Allow", "GET, HEAD, OPTIONS")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "public, max-age=300")
		if r.Method == http.MethodHead {
			return
		}
		_, _ = w.Write(a.metadata)
	})
}

// PublicRoutes maps each of MetadataPaths to the metadata handler, for the router to serve
// outside its gates (Host, Origin, token): the document is public.
func (a *Authenticator) PublicRoutes() map[string]http.Handler {
	meta := a.MetadataHandler()
	routes := map[string]http.Handler{}
	for _, p := range a.MetadataPaths() {
		routes[p] = meta
	}
	return routes
}
