package harness

import (
	"encoding/json"
	"strconv"
)

// echoBodies writes one load worker's echo calls. Everything in a call's body but its id and
// its call number is the same for the whole run, so it is laid out once, and each call costs
// one allocation instead of a marshal and a few concatenations: the load generator shares the
// machine with the server it measures, and a 2026-07-28 call, whose body is twice as large,
// would otherwise take more of it than a session's call for the generator's sake alone.
type echoBodies struct {
	head    string // up to the id
	mid     string // from the id to the call number in the text
	tail    string // after the payload
	payload string // the payload as it is written inside a JSON string
	text    string // the text's fixed start ("w<worker>-c")
	suffix  string // the payload as the text holds it
}

// newEchoBodies lays out worker's calls as RunLoadOn sends them with o: CallBody's bytes, with
// the session argument naming handle when it is not "", and with the 2026-07-28 _meta naming
// version when version is not "" (StatelessCallBody, sessionCallBodyWithMeta).
func newEchoBodies(worker int, handle, version, payload string) echoBodies {
	quoted, _ := json.Marshal(payload) // as EchoArgs escapes it: HTML characters included
	e := echoBodies{
		head:    `{"jsonrpc":"2.0","id":`,
		mid:     `,"method":"tools/call","params":{"name":"echo","arguments":{`,
		tail:    `"}`,
		payload: string(quoted[1 : len(quoted)-1]),
		text:    "w" + strconv.Itoa(worker) + "-c",
		suffix:  payload,
	}
	if handle != "" {
		e.mid += `"session":"` + handle + `",`
	}
	e.mid += `"text":"` + e.text
	if version != "" {
		e.tail += `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	e.tail += `}}`
	return e
}

// call answers the body of call number n with JSON-RPC id, and the text it asks to be echoed.
func (e *echoBodies) call(id int64, n int) (body []byte, text string) {
	body = make([]byte, 0, len(e.head)+len(e.mid)+len(e.payload)+len(e.tail)+40)
	body = append(body, e.head...)
	body = strconv.AppendInt(body, id, 10)
	body = append(body, e.mid...)
	numberAt := len(body)
	body = strconv.AppendInt(body, int64(n), 10)
	text = e.text + string(body[numberAt:]) + e.suffix
	body = append(body, e.payload...)
	return append(body, e.tail...), text
}
