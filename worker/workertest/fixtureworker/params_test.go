package fixtureworker

import "testing"

// readParams walks _meta instead of decoding it; these are the cases a map's decode settled by
// itself: exact keys, escaped keys, the last of repeated keys, values holding the characters the
// walk turns on, and a _meta that is no object.
func TestReadParamsFindsMetaMembersAsAMapDecodeWould(t *testing.T) {
	for _, c := range []struct {
		name, params            string
		ok                      bool
		version, caps, progress string
	}{
		{"plain", `{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
			true, `"2026-07-28"`, `{}`, ""},
		{"a key in another case is another key", `{"_meta":{"ProgressToken":"x","progresstoken":"y"}}`, true, "", "", ""},
		{"an escaped key is read unescaped", `{"_meta":{"progress\u0054oken":7}}`, true, "", "", "7"},
		{"the last of a repeated key wins", `{"_meta":{"progressToken":1,"progressToken":2}}`, true, "", "", "2"},
		{"values with braces, commas, quotes and escapes", `{"_meta":{"a":"},\"{[","io.modelcontextprotocol/clientCapabilities":{"x":[1,{"y":"]}"}],"z":null},"b":[{},[]],"progressToken":-1.5e3 , "c":true}}`,
			true, "", `{"x":[1,{"y":"]}"}],"z":null}`, "-1.5e3"},
		{"white space around the members", "{\"_meta\": {\n \"progressToken\" : \"t\" ,\n \"io.modelcontextprotocol/protocolVersion\":\"v\"\n}}", true, `"v"`, "", `"t"`},
		{"an empty _meta", `{"_meta":{}}`, true, "", "", ""},
		{"a null _meta", `{"_meta":null}`, true, "", "", ""},
		{"no _meta", `{"name":"echo"}`, true, "", "", ""},
		{"a _meta that is no object", `{"name":"echo","_meta":"x"}`, false, "", "", ""},
		{"params that are no object", `[1]`, false, "", "", ""},
		{"null params", `null`, true, "", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			meta, tool := readParams([]byte(c.params))
			if tool.ok != c.ok || string(meta.protocolVersion) != c.version || string(meta.clientCapabilities) != c.caps || string(meta.progressToken) != c.progress {
				t.Errorf("readParams(%s) = ok %v, version %q, capabilities %q, progress token %q; want %v, %q, %q, %q", c.params,
					tool.ok, meta.protocolVersion, meta.clientCapabilities, meta.progressToken, c.ok, c.version, c.caps, c.progress)
			}
		})
	}
}

// A tools/call's name and arguments are read as the Smalltalk worker reads them: by their exact
// keys, the name only when it is a string.
func TestReadParamsReadsToolNameAndArgumentsByExactKey(t *testing.T) {
	for _, c := range []struct {
		name, params, tool, args string
		ok                       bool
	}{
		{"plain", `{"name":"echo","arguments":{"text":"a,}"}}`, "echo", `{"text":"a,}"}`, true},
		{"escaped", `{"n\u0061me":"ec\"ho","arguments":null}`, `ec"ho`, "null", true},
		{"another case is another key", `{"Name":"echo","ARGUMENTS":{}}`, "", "", true},
		{"a name that is no string", `{"name":7,"arguments":{}}`, "", "{}", false},
		{"a null name", `{"name":null}`, "", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, tool := readParams([]byte(c.params))
			name := ""
			if tool.Name != nil {
				name = *tool.Name
			}
			if name != c.tool || string(tool.Arguments) != c.args || tool.ok != c.ok {
				t.Errorf("readParams(%s) = name %q, arguments %q, ok %v; want %q, %q, %v", c.params, name, tool.Arguments, tool.ok, c.tool, c.args, c.ok)
			}
		})
	}
}
