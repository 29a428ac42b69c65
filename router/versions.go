package router

// The protocol version is decided here and nowhere else: byVersion reads MCP-Protocol-Version
// once per request and hands the request to the era that speaks it, or refuses it; a refusal
// the header alone cannot word (a POST without a session, which may be a newer client's
// probe) is worded by postUnsupportedVersion from the body. The stateless revision then holds
// each request's _meta version to the header (parseStateless), and initialize negotiates among
// sessionVersions (the worker answers from the same list).

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
)

// SupportedProtocolVersions is the one list of MCP revisions this server speaks, newest
// first. The worker negotiates initialize from the same list (it travels in the prepare
// config), so the header check and the negotiation cannot drift apart.
var SupportedProtocolVersions = []string{StatelessVersion, "2025-11-25", "2025-06-18", "2025-03-26"}

// batchVersion is the last revision with JSON-RPC batches.
const batchVersion = "2025-03-26"

// StatelessVersion is the first revision without sessions: each request carries its protocol
// version, client capabilities and client info in params._meta (docs/transport.md, "2026-07-28:
// state without sessions").
const StatelessVersion = "2026-07-28"

// byVersion is the last gate of /mcp and the one place the era is decided. A present
// MCP-Protocol-Version this server does not speak is refused; an absent one is the session era
// (initialize carries none, and the transport spec says to assume 2025-03-26 for a client that
// never sends one).
//
// One exception: a POST without a session goes to unsupported rather than being refused here,
// because it may be the 2026-07-28 draft's server/discover probe, which carries that draft's
// version and must get its own prompt answer (methodNotFound, "send initialize"), or a
// stateless request naming a revision this server does not speak, which gets that revision's
// own refusal.
func (s *Server) byVersion(sessions, stateless, unsupported http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.single(w, r, VersionHeader, http.StatusBadRequest, errkind.UnsupportedProtocolVersion) {
			return
		}
		switch v := r.Header.Get(VersionHeader); {
		case v == "":
			sessions.ServeHTTP(w, r)
		case !slices.Contains(s.versions, v):
			if r.Method == http.MethodPost && r.Header.Get(SessionHeader) == "" {
				unsupported.ServeHTTP(w, r)
				return
			}
			s.refuseVersion(w, r, v)
		case v == StatelessVersion:
			stateless.ServeHTTP(w, r)
		default:
			sessions.ServeHTTP(w, r)
		}
	})
}

// postUnsupportedVersion answers a POST without a session whose MCP-Protocol-Version this
// server does not speak: a request whose _meta names a version gets the stateless revision's
// refusal, the discovery probe gets the session era's prompt answer, and anything else (a parse
// error included) the header's refusal, as byVersion would have given it.
func (s *Server) postUnsupportedVersion(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	v := r.Header.Get(VersionHeader)
	msgs, batch, err := jsonrpc.Parse(body)
	if err == nil && !batch && msgs[0].Kind == jsonrpc.Request {
		if metaVersion(msgs[0]) != "" {
			s.refuseStatelessVersion(w, msgs[0], v)
			return
		}
		if msgs[0].Method == "server/discover" {
			s.noSession(w, msgs[0])
			return
		}
	}
	s.refuseVersion(w, r, v)
}

// refuseVersion names the supported revisions twice: in the message for people, and as
// data.supported for a client that picks one and retries.
func (s *Server) refuseVersion(w http.ResponseWriter, r *http.Request, v string) {
	data := versionData{Kind: errkind.UnsupportedProtocolVersion, Supported: s.ProtocolVersions()}
	s.refuseWith(w, r, http.StatusBadRequest, jsonrpc.CodeInvalidRequest,
		"Bad Request: unsupported MCP-Protocol-Version "+quote(v)+"; this server supports "+strings.Join(s.versions, ", "),
		data)
}

// refuseStatelessVersion answers a request whose _meta names a revision this server does not
// speak: the revision's UnsupportedProtocolVersionError, listing what it does speak.
func (s *Server) refuseStatelessVersion(w http.ResponseWriter, m jsonrpc.Message, requested string) {
	writeJSON(w, http.StatusBadRequest, errorBodyWith(m.ID, codeUnsupportedProtocolVersion,
		"Unsupported protocol version "+quote(jsonrpc.Clip(requested))+"; this server speaks "+strings.Join(s.versions, ", "),
		versionData{Kind: errkind.UnsupportedProtocolVersion, Requested: requested, Supported: s.ProtocolVersions()}))
}

// metaVersion reads params._meta's protocol version of a request, "" when it has none.
func metaVersion(m jsonrpc.Message) string {
	var v string
	if json.Unmarshal(jsonrpc.MetaValue(m.Params, metaProtocolVersion), &v) != nil {
		return ""
	}
	return v
}

// sessionVersions are the revisions initialize may negotiate: every spoken one but the
// stateless revision, which has no initialize.
func (s *Server) sessionVersions() []string {
	out := make([]string, 0, len(s.versions))
	for _, v := range s.versions {
		if v != StatelessVersion {
			out = append(out, v)
		}
	}
	return out
}
