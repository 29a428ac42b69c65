package router

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gemstone-mcp/mcp-gemstone/internal/errkind"
	"github.com/gemstone-mcp/mcp-gemstone/router/internal/jsonrpc"
)

// The per-request _meta keys of the stateless revision.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaFrontEnd           = "io.github.gemstone-mcp/frontEnd"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
	// metaInputKey names a worker's question in inputRequests (worker contract).
	metaInputKey = "io.github.gemstone-mcp/inputKey"
)

// Error codes the stateless revision defines.
const (
	codeHeaderMismatch             = -32020
	codeMissingClientCapability    = -32021
	codeUnsupportedProtocolVersion = -32022
)

// removedMethods are the session era's methods that the stateless revision dropped; they are
// answered 404 -32601 as any unknown method, never forwarded.
var removedMethods = map[string]bool{
	"initialize": true, "ping": true, "logging/setLevel": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
	"notifications/initialized": true,
}

// cacheableMethods carry the revision's caching hints (ttlMs, cacheScope) on their results.
var cacheableMethods = map[string]bool{
	"server/discover": true, "tools/list": true, "prompts/list": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
}

// mrtrMethods are the requests whose answer may be an input_required result.
var mrtrMethods = map[string]bool{"tools/call": true, "prompts/get": true, "resources/read": true}

// statelessServer is the 2026-07-28 revision's half of the front end, and the state only that
// revision has: the pool of gems that serve requests carrying no state, the pool's session ids
// (never reachable by MCP-Session-Id), the calls in flight, the key that makes requestState
// tamper-proof, the subscription streams and the tasks. handles are the GemStone sessions
// opened with open_session (a subset of hidden: sessions named only by a tool argument). It
// embeds the Server it is part of: the gates, the session table, the worker calls and the
// answers are shared with the session era (docs/architecture.md says why it is not a package
// of its own).
type statelessServer struct {
	*Server

	pool      *statelessPool
	hidden    statelessIDs
	handles   statelessIDs
	flightsMu sync.Mutex
	flights   map[string]*flight
	flightSeq atomic.Uint64
	stateKey  [32]byte
	listeners listenerSet
	tasks     taskTable
	// heldCalls counts the calls running on their own HTTP/1 request's goroutine (runFlight);
	// sweepArmed says a departure sweep is due while there are any (departures.go).
	heldCalls  atomic.Int64
	sweepArmed atomic.Bool
}

// newStatelessServer makes the revision's half of s; pool is how many gems serve requests
// carrying no state.
func newStatelessServer(s *Server, pool int) *statelessServer {
	st := &statelessServer{
		Server:    s,
		flights:   map[string]*flight{},
		listeners: listenerSet{set: map[*listener]struct{}{}},
		tasks:     taskTable{tasks: map[string]*task{}},
	}
	st.pool = newStatelessPool(st, pool)
	if _, err := rand.Read(st.stateKey[:]); err != nil {
		// Without a key no requestState could be trusted; the system's CSPRNG failing is not
		// something to serve through.
		panic("router: cannot draw the requestState key: " + err.Error())
	}
	return st
}

// serve is the revision's /mcp once byVersion has chosen it: POST only, since the revision has
// no GET stream and no session to DELETE.
func (s *statelessServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.methodNotAllowed(w, r)
		return
	}
	s.postStateless(w, r)
}

// statelessIDs are the table's sessions that no client may name with MCP-Session-Id: the
// stateless pool's gems.
type statelessIDs struct{ m sync.Map }

func (s *statelessIDs) add(id string)                   { s.m.Store(id, true) }
func (s *statelessIDs) remove(id string)                { s.m.Delete(id) }
func (s *statelessIDs) has(id string) bool              { _, ok := s.m.Load(id); return ok }
func (s *statelessServer) hiddenSession(id string) bool { return s.hidden.has(id) }

// statelessRequest is one parsed 2026-07-28 request.
type statelessRequest struct {
	m        jsonrpc.Message
	params   jsonrpc.Object
	caps     json.RawMessage // _meta's client capabilities, as sent
	name     string          // the params member Mcp-Name carries (namedBy)
	named    bool            // that member is a string
	tasks    bool            // the client declared the tasks extension for this request
	logLevel string
}

// postStateless serves a POST of the stateless revision: validated here, answered by the
// front end (server/discover, subscriptions/listen, refusals) or run on a pool gem.
func (s *statelessServer) postStateless(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	msgs, batch, err := jsonrpc.Parse(body)
	if err != nil {
		e, _ := err.(*jsonrpc.Error)
		if e == nil {
			e = &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error"}
		}
		writeJSON(w, http.StatusBadRequest, jsonrpc.ErrorResponse(nil, e))
		return
	}
	if batch {
		writeJSON(w, http.StatusBadRequest, errorBody(nil, jsonrpc.CodeInvalidRequest,
			"Invalid Request: JSON-RPC batches are not part of MCP "+StatelessVersion+"; send one message per POST", errkind.BatchRefused))
		return
	}
	m := msgs[0]
	if m.Kind != jsonrpc.Request {
		// Notifications and responses have no place on the stateless wire: a client answers a
		// question through inputResponses and cancels by leaving. Accepted and dropped, but
		// for a cancellation that names one call of its sender (cancelStateless).
		if m.Kind == jsonrpc.Notification && m.Method == "notifications/cancelled" {
			s.cancelStateless(r, m)
		}
		writeJSON(w, http.StatusAccepted, nil)
		return
	}
	if isPrivateMethod(m.Method) {
		writeJSON(w, http.StatusNotFound, privateMethodBody(m))
		return
	}
	if removedMethods[m.Method] {
		// Before the envelope's checks: a client that sends ping without _meta (the Go SDK's
		// Ping) must learn that the method is gone, not that its _meta is incomplete.
		writeJSON(w, http.StatusNotFound, errorBody(m.ID, jsonrpc.CodeMethodNotFound,
			"Method not found: "+jsonrpc.Clip(m.Method)+" is not part of MCP "+StatelessVersion, errkind.MethodNotFound))
		return
	}
	req, status, refusal := s.parseStateless(r, m)
	if refusal != nil {
		writeJSON(w, status, refusal)
		return
	}
	if status, refusal := checkNameHeader(r, req); refusal != nil {
		writeJSON(w, status, refusal)
		return
	}
	switch m.Method {
	case "server/discover":
		s.discover(w, r, req)
		return
	case "subscriptions/listen":
		s.listen(w, r, req)
		return
	case "tasks/get", "tasks/update", "tasks/cancel":
		s.serveTask(w, r, req)
		return
	}
	s.runStateless(w, r, req)
}

// parseStateless checks the envelope of the revision: _meta with the protocol version (equal
// to the header) and the client capabilities; clientInfo is optional.
func (s *statelessServer) parseStateless(r *http.Request, m jsonrpc.Message) (statelessRequest, int, []byte) {
	req := statelessRequest{m: m}
	if len(m.Params) > 0 && string(m.Params) != "null" {
		p, err := jsonrpc.ObjectOfValid(m.Params)
		if err != nil {
			return req, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidParams, "Invalid params: params must be an object", errkind.InvalidParams)
		}
		req.params = p
	}
	// The three members read here are taken in one walk of _meta, kept nowhere else.
	var rawVersion, caps, rawLogLevel json.RawMessage
	if raw := req.params.Get("_meta"); len(raw) > 0 {
		err := jsonrpc.EachMemberOfValid(raw, func(name, value []byte) {
			switch string(name) {
			case metaProtocolVersion:
				rawVersion = value
			case metaClientCapabilities:
				caps = value
			case metaLogLevel:
				rawLogLevel = value
			}
		})
		if err != nil {
			return req, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidParams, "Invalid params: params._meta must be an object", errkind.InvalidMeta)
		}
	}
	var missing []string
	if len(rawVersion) == 0 {
		missing = append(missing, metaProtocolVersion)
	}
	if len(caps) == 0 {
		missing = append(missing, metaClientCapabilities)
	}
	if len(missing) > 0 {
		return req, http.StatusBadRequest, errorBodyWith(m.ID, jsonrpc.CodeInvalidParams,
			"Invalid params: MCP "+StatelessVersion+" requests carry params._meta with "+strings.Join(missing, " and "),
			missingData{Kind: errkind.InvalidMeta, Missing: missing})
	}
	if header := r.Header.Get(VersionHeader); !isStringOf(rawVersion, header) {
		// A null version reads as "" (as encoding/json reads it), which the header then refuses.
		version, ok := jsonrpc.StringOf(rawVersion)
		if !ok && string(rawVersion) != "null" {
			return req, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidParams,
				"Invalid params: _meta."+metaProtocolVersion+" must be a string", errkind.InvalidMeta)
		}
		if version != header {
			return req, http.StatusBadRequest, errorBody(m.ID, codeHeaderMismatch,
				"Header mismatch: MCP-Protocol-Version "+quote(header)+" differs from _meta."+metaProtocolVersion+" "+quote(version), errkind.HeaderMismatch)
		}
	}
	if caps[0] != '{' {
		return req, http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidParams,
			"Invalid params: _meta."+metaClientCapabilities+" must be an object", errkind.InvalidMeta)
	}
	req.caps = caps
	req.tasks = declaresTasks(caps)
	req.logLevel, _ = jsonrpc.StringOf(rawLogLevel)
	if key := namedBy[m.Method]; key != "" {
		req.name, req.named = jsonrpc.StringOf(req.params.Get(key))
	}
	return req, 0, nil
}

// isStringOf says raw is the JSON string s written without escapes: the common request's
// version, compared with its header without decoding it. false says nothing: the caller
// decodes raw and compares again.
func isStringOf(raw []byte, s string) bool {
	return len(raw) == len(s)+2 && raw[0] == '"' && raw[len(raw)-1] == '"' &&
		!strings.ContainsAny(s, `"\`) && string(raw[1:len(raw)-1]) == s
}

// namedBy is the params member each named method carries in its Mcp-Name header.
var namedBy = map[string]string{
	"tools/call": "name", "prompts/get": "name", "resources/read": "uri",
	"tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId",
}

// checkNameHeader holds Mcp-Method (every request) and Mcp-Name (the named methods) to the
// body they describe: the revision requires both, so a proxy can route on them, and a request
// whose headers are missing or say otherwise than its body is refused.
func checkNameHeader(r *http.Request, req statelessRequest) (int, []byte) {
	m := req.m
	mismatch := func(why string) (int, []byte) {
		return http.StatusBadRequest, errorBody(m.ID, codeHeaderMismatch, "Header mismatch: "+why, errkind.HeaderMismatch)
	}
	switch vs := r.Header.Values("Mcp-Method"); {
	case len(vs) == 0:
		return mismatch("the Mcp-Method header is required and must name the body's method " + quote(jsonrpc.Clip(m.Method)))
	case len(vs) > 1:
		return mismatch("Mcp-Method sent more than once")
	case strings.TrimSpace(vs[0]) != m.Method:
		return mismatch("Mcp-Method " + quote(jsonrpc.Clip(vs[0])) + " does not name the body's method " + quote(jsonrpc.Clip(m.Method)))
	}
	key := namedBy[m.Method]
	if key == "" {
		return 0, nil
	}
	switch vs := r.Header.Values("Mcp-Name"); {
	case len(vs) == 0:
		return mismatch("the Mcp-Name header is required on " + m.Method + " and must carry params." + key)
	case len(vs) > 1:
		return mismatch("Mcp-Name sent more than once")
	}
	if !req.named {
		return http.StatusBadRequest, errorBody(m.ID, jsonrpc.CodeInvalidParams,
			"Invalid params: "+m.Method+" needs params."+key+", a string", errkind.InvalidParams)
	}
	value, err := headerValue(strings.TrimSpace(r.Header.Get("Mcp-Name")))
	switch {
	case err != nil:
		return mismatch("Mcp-Name " + err.Error())
	case value != req.name:
		return mismatch("Mcp-Name " + quote(jsonrpc.Clip(value)) + " does not match params." + key + " " + quote(jsonrpc.Clip(req.name)))
	}
	return 0, nil
}

// discover answers server/discover from the worker's own initialize answer (taken once by the
// pool's first gem), so what is advertised is what the worker declares.
func (s *statelessServer) discover(w http.ResponseWriter, r *http.Request, req statelessRequest) {
	init, err := s.pool.workerInfo(r.Context())
	if err != nil {
		status, body := s.poolFailure(req.m, err)
		writeJSON(w, status, body)
		return
	}
	result := map[string]any{
		"supportedVersions": s.ProtocolVersions(),
		"capabilities":      withTasksExtension(init.Capabilities),
		"_meta": map[string]any{metaServerInfo: init.ServerInfo,
			// The front end's own build, beside the worker's serverInfo (which is the
			// worker's to write): the one place a client can read which router it reached.
			metaFrontEnd: map[string]any{"name": "mcp-gemstone", "version": s.o.Version}},
	}
	if len(init.Instructions) > 0 {
		result["instructions"] = init.Instructions
	}
	writeJSON(w, http.StatusOK, stampResult("server/discover", jsonrpc.ResultResponse(req.m.ID, result)))
}

// stampResult adds the revision's result members the session era's worker does not write:
// resultType on every result, and caching hints on the cacheable ones (private and not to be
// reused: a tool surface can differ per token). An error answer is returned as it is.
func stampResult(method string, reply []byte) []byte {
	stamped, _ := stampReply(method, reply)
	return stamped
}

// stampReply is stampResult that also answers the reply's error code (0 when it has none), read
// in the same walk.
func stampReply(method string, reply []byte) (stamped []byte, errCode int) {
	at, code := replyShape(reply)
	if at < 0 {
		return reply, code
	}
	var room [64]byte // what is added fits: the stamps cost no allocation of their own
	add := room[:0]
	if !hasMember(reply, at, "resultType") {
		add = append(add, `"resultType":"complete",`...)
	}
	if cacheableMethods[method] {
		if !hasMember(reply, at, "ttlMs") {
			add = append(add, `"ttlMs":0,`...)
		}
		if !hasMember(reply, at, "cacheScope") {
			add = append(add, `"cacheScope":"private",`...)
		}
	}
	if len(add) == 0 {
		return reply, code
	}
	rest := bytes.TrimLeft(reply[at:], " \t\r\n")
	if len(rest) > 0 && rest[0] == '}' {
		add = add[:len(add)-1] // an empty result takes no trailing comma
	}
	out := make([]byte, 0, len(reply)+len(add))
	out = append(out, reply[:at]...)
	out = append(out, add...)
	return append(out, reply[at:]...), code
}

// statelessStatus is the HTTP status of a worker's answer with that error code (0: none) on the
// stateless wire: the revision puts method-not-found at 404 and the client-side errors it
// defines at 400.
func statelessStatus(code int) int {
	switch code {
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case codeMissingClientCapability, codeHeaderMismatch, codeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
