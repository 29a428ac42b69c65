package fixtureworker

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"
)

// The 2026-07-28 conformance fixtures. On that revision every request carries its client's
// capabilities in params._meta (the router forwards it untouched), and a tool that needs input
// asks through the worker-to-router channel as on a session, naming each question with
// _meta["io.github.gemstone-mcp/inputKey"]: the router hands the questions to the client as an
// input_required result under those keys and answers them from the client's retry.

const (
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaInputKey           = "io.github.gemstone-mcp/inputKey"
	statelessRevision      = "2026-07-28"
	mrtrPromptName         = "test_input_required_result_prompt"
	codeMissingCapability  = -32021
)

// toolParams are the members of a tools/call's params the worker reads; ok is false when params
// could not be read as an object of that shape.
type toolParams struct {
	Name      *string         `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	ok        bool
}

// requestMeta is what the worker reads of a request's params._meta, each member as sent (nil
// when absent).
type requestMeta struct {
	protocolVersion, clientCapabilities, progressToken, traceparent, paramHeaders json.RawMessage
}

// readParams reads a request's params in one walk: the members a tools/call reads, and the ones
// of its _meta. Every key is matched exactly, as the Smalltalk worker's Dictionary lookups match
// them (a decode into struct fields would match them in any case, and nothing upstream refuses a
// key that differs from one of these only in case). params is part of the message parseRequest
// checked, so it is well formed: walked, not decoded; on the 2026-07-28 wire, whose every
// request carries a _meta, the decodes were a third of the fixture's echo (docs/performance.md).
func readParams(params json.RawMessage) (requestMeta, toolParams) {
	var meta requestMeta
	tool := toolParams{ok: true}
	switch trimmedFirst(params) {
	case 0, 'n': // absent, or null: read as {}
		return meta, tool
	case '{':
	default:
		tool.ok = false
		return meta, tool
	}
	var rawMeta json.RawMessage
	eachMember(params, func(key []byte, value json.RawMessage) {
		switch string(key) {
		case "name":
			tool.Name = nil
			if name, isString := decodeString(value); isString {
				tool.Name = &name
			} else if string(value) != "null" {
				tool.ok = false // not a string
			}
		case "arguments":
			tool.Arguments = value
		case "_meta":
			rawMeta = value
		}
	})
	switch trimmedFirst(rawMeta) {
	case 0, 'n': // absent, or null
	case '{':
		eachMember(rawMeta, func(key []byte, value json.RawMessage) {
			switch string(key) {
			case metaProtocolVersion:
				meta.protocolVersion = value
			case metaClientCapabilities:
				meta.clientCapabilities = value
			case "progressToken":
				meta.progressToken = value
			case "traceparent":
				meta.traceparent = value
			case metaParamHeaders:
				meta.paramHeaders = value
			}
		})
	default:
		tool.ok = false // as a decode into a map fails on a _meta that is no object
	}
	return meta, tool
}

// eachMember calls f with each member of obj, a JSON object already known to be well formed (it
// is part of a message parseRequest checked), in order, so a repeated key's last value wins as
// in a map's decode. A key is compared unescaped: one written with escapes is decoded first.
func eachMember(obj []byte, f func(key []byte, value json.RawMessage)) {
	i := skipSpace(obj, 1) // past '{'
	for i < len(obj) && obj[i] == '"' {
		end := skipValue(obj, i)
		key := obj[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var unescaped string
			_ = json.Unmarshal(obj[i:end], &unescaped)
			key = []byte(unescaped)
		}
		i = skipSpace(obj, skipSpace(obj, end)+1) // past ':'
		end = skipValue(obj, i)
		f(key, obj[i:end:end])
		i = skipSpace(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipValue answers the end of the well-formed JSON value that starts at b[i].
func skipValue(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i // the end of the enclosing container: a scalar ended there
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// stringOf is raw as a string, "" when it is absent or no string.
func stringOf(raw json.RawMessage) string {
	s, _ := decodeString(raw)
	return s
}

// stateless says the request is of the 2026-07-28 revision.
func (c *call) stateless() bool { return c.isStateless }

// pooled says the request is of the 2026-07-28 revision and is no tools/call naming a GemStone
// session in its session argument: the router runs it on a pooled gem.
func (c *call) pooled() bool { return c.stateless() && !c.namesSession }

// sessionArg is the one tool argument the router reads (docs/worker-contract.md): it names the
// GemStone session a call runs in, and is no argument of the tool itself. A tools/call's
// arguments are read once, by validate, which says whether they named one.
const sessionArg = "session"

// abortForPool is the worker contract's abort at the start of a pooled request: the view moves
// to the current commit and whatever an earlier request left uncommitted is gone.
func (c *call) abortForPool() {
	c.w.setView(func(v *viewState) {
		v.Uncommitted = false
		v.CommitsBehind = 0
	})
}

// declares says the request's client declared capability name (only the stateless revision
// carries capabilities per request; on a session the fixtures assume them).
func (c *call) declares(name string) bool {
	if !c.stateless() {
		return true
	}
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(c.meta.clientCapabilities, &caps)
	_, ok := caps[name]
	return ok
}

// askKeyed asks the client through the channel under an input key.
func (c *call) askKeyed(key, method string, params map[string]any) (json.RawMessage, error) {
	params["_meta"] = map[string]any{metaInputKey: key}
	return c.ask(method, params)
}

func elicitParams(message, property, kind string) map[string]any {
	return map[string]any{"message": message, "requestedSchema": map[string]any{
		"type": "object", "properties": map[string]any{property: map[string]any{"type": kind}}, "required": []string{property}}}
}

func samplingParams(text string, maxTokens int) map[string]any {
	return map[string]any{"messages": []any{map[string]any{"role": "user", "content": textItem(text)}}, "maxTokens": maxTokens}
}

// elicitedString is content[field] of an accepted elicitation answer.
func elicitedString(res json.RawMessage, field string) string {
	var a struct {
		Content map[string]any `json:"content"`
	}
	_ = json.Unmarshal(res, &a)
	s, _ := a.Content[field].(string)
	return s
}

func init() {
	fixtureTools = append(fixtureTools, statelessTools...)
}

var statelessTools = []*tool{
	{name: "test_missing_capability", doc: "Conformance fixture: needs the client's sampling capability; without it the request is refused -32021.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			if !c.declares("sampling") {
				return nil, &replyError{code: codeMissingCapability, message: "Missing required client capability: sampling",
					data: map[string]any{"requiredCapabilities": map[string]any{"sampling": map[string]any{}}}}
			}
			return c.sample(map[string]any{"prompt": "ping"})
		}},
	{name: "test_logging_tool", doc: "Conformance fixture: three notifications/message at info (the router drops them unless the request names a logLevel).",
		schema: json.RawMessage(emptySchema), run: (*call).logThrice},
	{name: "test_streaming_elicitation", doc: "Conformance fixture: asks the client one elicitation through the channel.",
		schema: json.RawMessage(emptySchema),
		run:    greetByName},
	{name: "test_trigger_tool_change", doc: "Conformance fixture: announces notifications/tools/list_changed.",
		schema: json.RawMessage(emptySchema),
		run:    announce("notifications/tools/list_changed", "tool list change announced")},
	{name: "test_trigger_prompt_change", doc: "Conformance fixture: announces notifications/prompts/list_changed.",
		schema: json.RawMessage(emptySchema),
		run:    announce("notifications/prompts/list_changed", "prompt list change announced")},
	{name: "test_input_required_result_elicitation", doc: "Conformance fixture: asks user_name (elicitation) and greets.",
		schema: json.RawMessage(emptySchema),
		run:    greetByName},
	{name: "test_input_required_result_sampling", doc: "Conformance fixture: asks capital_question (sampling) and answers its text.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			res, err := c.askKeyed("capital_question", "sampling/createMessage", samplingParams("What is the capital of France?", 100))
			if err != nil {
				return askFailure(err)
			}
			return content(textItem("Sampling said: " + string(res))), nil
		}},
	{name: "test_input_required_result_list_roots", doc: "Conformance fixture: asks client_roots (roots/list) and names them.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			res, err := c.askKeyed("client_roots", "roots/list", map[string]any{})
			if err != nil {
				return askFailure(err)
			}
			return content(textItem("Roots: " + string(res))), nil
		}},
	{name: "test_input_required_result_request_state", doc: "Conformance fixture: asks confirm (elicitation); the router's requestState carries the round.",
		schema: json.RawMessage(emptySchema), run: (*call).confirm},
	{name: "test_input_required_result_tampered_state", doc: "Conformance fixture: asks confirm (elicitation); a tampered requestState is refused by the router.",
		schema: json.RawMessage(emptySchema), run: (*call).confirm},
	{name: "test_input_required_result_multiple_inputs", doc: "Conformance fixture: asks user_name, greeting and client_roots at once.",
		schema: json.RawMessage(emptySchema), run: (*call).askThree},
	{name: "test_input_required_result_multi_round", doc: "Conformance fixture: asks step1, then step2.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			name, err := c.askKeyed("step1", "elicitation/create", elicitParams("Step 1: What is your name?", "name", "string"))
			if err != nil {
				return askFailure(err)
			}
			color, err := c.askKeyed("step2", "elicitation/create", elicitParams("Step 2: What is your favorite color?", "color", "string"))
			if err != nil {
				return askFailure(err)
			}
			return content(textItem(elicitedString(name, "name") + " likes " + elicitedString(color, "color"))), nil
		}},
	{name: "test_input_required_result_capabilities", doc: "Conformance fixture: asks only through the capabilities the request's client declared.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			var got []string
			if c.declares("sampling") {
				if _, err := c.askKeyed("capital_question", "sampling/createMessage", samplingParams("What is the capital of France?", 100)); err != nil {
					return askFailure(err)
				}
				got = append(got, "sampling")
			}
			if c.declares("elicitation") {
				if _, err := c.askKeyed("user_name", "elicitation/create", elicitParams("What is your name?", "name", "string")); err != nil {
					return askFailure(err)
				}
				got = append(got, "elicitation")
			}
			return content(textItem("asked through: " + string(marshal(got)))), nil
		}},
}

func (c *call) confirm(map[string]any) (any, error) {
	if _, err := c.askKeyed("confirm", "elicitation/create", elicitParams("Please confirm", "ok", "boolean")); err != nil {
		return askFailure(err)
	}
	return content(textItem("state-ok: confirmed")), nil
}

// askThree asks its three questions at once, as a tool that needs them all would.
func (c *call) askThree(map[string]any) (any, error) {
	type q struct {
		key, method string
		params      map[string]any
	}
	qs := []q{
		{"user_name", "elicitation/create", elicitParams("What is your name?", "name", "string")},
		{"greeting", "sampling/createMessage", samplingParams("Generate a greeting", 50)},
		{"client_roots", "roots/list", map[string]any{}},
	}
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i, x := range qs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.askKeyed(x.key, x.method, x.params)
		}()
		time.Sleep(time.Millisecond) // in order on the channel, so the keys come in this order
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return askFailure(err)
		}
	}
	return content(textItem("all three answered")), nil
}

// mrtrPrompt is prompts/get of test_input_required_result_prompt: it asks user_context first.
func (c *call) mrtrPrompt(id json.RawMessage) []byte {
	c.id = id
	res, err := c.askKeyed("user_context", "elicitation/create", elicitParams("What context should the prompt use?", "context", "string"))
	if c.w.channel != nil {
		c.w.channel.flush(c.id)
	}
	if err != nil {
		return errorReply(id, CodeInvalidParams, "the prompt's question was not answered: "+err.Error(), nil)
	}
	return resultReply(id, map[string]any{"messages": []any{map[string]any{"role": "user",
		"content": textItem("Use this context: " + elicitedString(res, "context"))}}})
}

// replyError is a tool's JSON-RPC error answer (rather than an isError result).
type replyError struct {
	code    int
	message string
	data    any
}

func (e *replyError) Error() string { return e.message }

// greetByName asks the client for user_name (an elicitation) and greets it: what both the
// streaming and the input_required fixtures answer, each through its own path.
func greetByName(c *call, _ map[string]any) (any, error) {
	res, err := c.askKeyed("user_name", "elicitation/create", elicitParams("What is your name?", "name", "string"))
	if err != nil {
		return askFailure(err)
	}
	return content(textItem("Hello, " + elicitedString(res, "name") + "!")), nil
}

// announce is a fixture that sends one list_changed notification and says so.
func announce(method, text string) func(*call, map[string]any) (any, error) {
	return func(c *call, _ map[string]any) (any, error) {
		c.w.notify(c.id, method, map[string]any{})
		return content(textItem(text)), nil
	}
}
