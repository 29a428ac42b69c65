package fixtureworker

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strings"
	"time"
)

// The official MCP conformance suite calls tools, resources and prompts of fixed names. These
// are the stand-in's versions of them: the ones that need nothing but an answer are served
// here directly, and the ones that must speak during the call (logging, progress, sampling,
// elicitation, reconnection) do it through the worker-to-router channel (channel.go), exactly
// as a Smalltalk worker would.

// capabilities is what the fixture worker declares at initialize; the router forwards the
// methods of each without interpreting them.
func capabilities() map[string]any {
	return map[string]any{
		"tools":       map[string]any{},
		"logging":     map[string]any{},
		"completions": map[string]any{},
		"prompts":     map[string]any{},
		"resources":   map[string]any{"subscribe": true},
	}
}

const (
	staticTextURI   = "test://static-text"
	staticBinaryURI = "test://static-binary"
	watchedURI      = "test://watched-resource"
	templateURI     = "test://template/{id}/data"
)

var templatePattern = regexp.MustCompile(`^test://template/([^/]+)/data$`)

// pngBase64 is a 2x2 PNG, made here rather than stored as an opaque literal.
var pngBase64 = func() string {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	img.Set(1, 1, color.RGBA{B: 255, A: 255})
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}()

// wavBase64 is 10 ms of 8 kHz 8-bit mono silence in a RIFF/WAVE container.
var wavBase64 = func() string {
	samples := bytes.Repeat([]byte{128}, 80)
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + len(samples)))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1))    // PCM
	le(uint16(1))    // mono
	le(uint32(8000)) // sample rate
	le(uint32(8000)) // byte rate
	le(uint16(1))    // block align
	le(uint16(8))    // bits per sample
	b.WriteString("data")
	le(uint32(len(samples)))
	b.Write(samples)
	return base64.StdEncoding.EncodeToString(b.Bytes())
}()

func imageItem() map[string]any {
	return map[string]any{"type": "image", "data": pngBase64, "mimeType": "image/png"}
}

func resourceItem(uri, text string) map[string]any {
	return map[string]any{"type": "resource", "resource": map[string]any{"uri": uri, "mimeType": "text/plain", "text": text}}
}

func content(items ...any) map[string]any { return map[string]any{"content": items} }

// emptySchema is a closed schema with no arguments.
const emptySchema = `{"type":"object","properties":{},"additionalProperties":false}`

func stringArgSchema(name, doc string) json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"` + name + `":{"type":"string","description":"` + doc +
		`"}},"required":["` + name + `"],"additionalProperties":false}`)
}

// jsonSchema202012 keeps the keywords the suite looks for in tools/list: $schema, $defs with
// an $anchor, additionalProperties (SEP-1613), and composition and conditionals (SEP-2106).
const jsonSchema202012 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
	`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
	`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},` +
	`"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},` +
	`"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],` +
	`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},` +
	`"then":{"required":["phone"]},"else":{"required":["email"]},` +
	`"additionalProperties":false}`

func init() {
	fixtureTools = append(fixtureTools, conformanceTools...)
}

var conformanceTools = []*tool{
	{name: "test_simple_text", doc: "Conformance fixture: one text item.", schema: json.RawMessage(emptySchema),
		run: func(*call, map[string]any) (any, error) {
			return content(textItem("This is a simple text response for testing.")), nil
		}},
	{name: "test_image_content", doc: "Conformance fixture: one PNG image item.", schema: json.RawMessage(emptySchema),
		run: func(*call, map[string]any) (any, error) { return content(imageItem()), nil }},
	{name: "test_audio_content", doc: "Conformance fixture: one WAV audio item.", schema: json.RawMessage(emptySchema),
		run: func(*call, map[string]any) (any, error) {
			return content(map[string]any{"type": "audio", "data": wavBase64, "mimeType": "audio/wav"}), nil
		}},
	{name: "test_embedded_resource", doc: "Conformance fixture: one embedded text resource.", schema: json.RawMessage(emptySchema),
		run: func(*call, map[string]any) (any, error) {
			return content(resourceItem("test://embedded-resource", "This is an embedded resource")), nil
		}},
	{name: "test_multiple_content_types", doc: "Conformance fixture: text, image and resource items.", schema: json.RawMessage(emptySchema),
		run: func(*call, map[string]any) (any, error) {
			return content(textItem("This is text content"), imageItem(),
				resourceItem("test://embedded-in-multiple", "This is an embedded resource")), nil
		}},
	{name: "test_error_handling", doc: "Conformance fixture: a tool error (isError result).", schema: json.RawMessage(emptySchema),
		run: func(*call, map[string]any) (any, error) {
			return toolError("fixtureError", "this tool intentionally returns an error for testing"), nil
		}},
	{name: "json_schema_2020_12_tool", doc: "Conformance fixture: an input schema in JSON Schema 2020-12, listed verbatim.",
		schema: json.RawMessage(jsonSchema202012),
		run: func(c *call, a map[string]any) (any, error) {
			return c.text("JSON Schema 2020-12 tool called with: " + string(marshal(a))), nil
		}},
	{name: "test_tool_with_logging", doc: "Conformance fixture: three notifications/message at info, 50 ms apart, through the channel.",
		schema: json.RawMessage(emptySchema), run: (*call).logThrice},
	{name: "test_tool_with_progress", doc: "Conformance fixture: progress 0, 50, 100 of 100 for the call's progressToken, through the channel.",
		schema: json.RawMessage(emptySchema), run: (*call).progressThrice},
	{name: "test_sampling", doc: "Conformance fixture: asks the client for sampling/createMessage through the channel.",
		schema: stringArgSchema("prompt", "The prompt to send to the LLM"), run: (*call).sample},
	{name: "test_elicitation", doc: "Conformance fixture: asks the client for elicitation/create through the channel.",
		schema: stringArgSchema("message", "The message to show the user"),
		run: func(c *call, a map[string]any) (any, error) {
			msg, _ := a["message"].(string)
			return c.elicit(msg, elicitBasicSchema)
		}},
	{name: "test_elicitation_sep1034_defaults", doc: "Conformance fixture: elicitation whose schema carries SEP-1034 defaults.",
		schema: json.RawMessage(emptySchema),
		run: func(c *call, _ map[string]any) (any, error) {
			return c.elicit("Please review and update the form fields with defaults", elicitDefaultsSchema)
		}},
	{name: "test_elicitation_sep1330_enums", doc: "Conformance fixture: elicitation whose schema uses the SEP-1330 enum forms.",
		schema: json.RawMessage(emptySchema),
		run:    func(c *call, _ map[string]any) (any, error) { return c.elicit("Test enum schemas", elicitEnumsSchema) }},
	{name: "test_reconnection", doc: "Conformance fixture: asks the router to close the call's response stream, then answers; the client resumes with GET and Last-Event-ID.",
		schema: json.RawMessage(emptySchema), run: (*call).reconnection},
}

const elicitBasicSchema = `{"type":"object","properties":{"username":{"type":"string","description":"Your preferred username"},` +
	`"email":{"type":"string","description":"Your email address"}},"required":["username"]}`

const elicitDefaultsSchema = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"User name","default":"John Doe"},` +
	`"age":{"type":"integer","description":"User age","default":30},` +
	`"score":{"type":"number","description":"User score","default":95.5},` +
	`"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},` +
	`"verified":{"type":"boolean","description":"Verification status","default":true}}}`

const elicitEnumsSchema = `{"type":"object","properties":{` +
	`"untitledSingle":{"type":"string","enum":["option1","option2","option3"]},` +
	`"titledSingle":{"type":"string","oneOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},` +
	`"legacyEnum":{"type":"string","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},` +
	`"untitledMulti":{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string","enum":["option1","option2","option3"]}},` +
	`"titledMulti":{"type":"array","minItems":1,"maxItems":3,"items":{"anyOf":[{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]}}}}`

// pause waits d unless the call is broken or stopped first.
func (c *call) pause(d time.Duration) error {
	_, err := c.sleep(d.Milliseconds(), func(Break) bool { return true })
	return err
}

func (c *call) logThrice(map[string]any) (any, error) {
	for i, text := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		c.w.log(c.id, "info", "test_tool_with_logging", text)
		if i < 2 {
			if err := c.pause(50 * time.Millisecond); err != nil {
				return nil, err
			}
		}
	}
	return content(textItem("Tool with logging executed successfully")), nil
}

func (c *call) progressThrice(map[string]any) (any, error) {
	for i, done := range []int{0, 50, 100} {
		if c.progressToken != nil {
			c.w.notify(c.id, "notifications/progress", map[string]any{
				"progressToken": c.progressToken, "progress": done, "total": 100,
				"message": fmt.Sprintf("Completed step %d of 100", done)})
		}
		if i < 2 {
			if err := c.pause(50 * time.Millisecond); err != nil {
				return nil, err
			}
		}
	}
	token := "none"
	if c.progressToken != nil {
		token = string(c.progressToken)
	}
	return content(textItem(token)), nil
}

func (c *call) sample(a map[string]any) (any, error) {
	prompt, _ := a["prompt"].(string)
	res, err := c.ask("sampling/createMessage", map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": textItem(prompt)}},
		"maxTokens": 100,
	})
	if err != nil {
		return askFailure(err)
	}
	var answer struct {
		Content struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	_ = json.Unmarshal(res, &answer)
	text := answer.Content.Text
	if answer.Content.Type != "text" {
		text = "(non-text response)"
	}
	return content(textItem("LLM response: " + text)), nil
}

func (c *call) elicit(message, schema string) (any, error) {
	res, err := c.ask("elicitation/create", map[string]any{"message": message, "requestedSchema": json.RawMessage(schema)})
	if err != nil {
		return askFailure(err)
	}
	var answer struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(res, &answer)
	return content(textItem("Elicitation result: action=" + answer.Action + ", content=" + string(answer.Content))), nil
}

func (c *call) reconnection(map[string]any) (any, error) {
	if err := c.w.closeStream(c.id); err != nil {
		return askFailure(err)
	}
	// Give the client time to see the end of its stream and come back with GET.
	if err := c.pause(200 * time.Millisecond); err != nil {
		return nil, err
	}
	return content(textItem("Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.")), nil
}

// askFailure turns a failed channel request into the tool's error result; a break or stop
// stays an error of the call.
func askFailure(err error) (any, error) {
	if isCallEnding(err) {
		return nil, err
	}
	return toolError("channelUnavailable", "the request to the client did not complete: "+err.Error()), nil
}

// conformanceMethod answers the methods of the capabilities the fixture worker declares
// besides tools. ok is false for a method it does not know.
func (c *call) conformanceMethod(req request) (reply []byte, ok bool) {
	var p struct {
		URI       string            `json:"uri"`
		Name      string            `json:"name"`
		Level     string            `json:"level"`
		Arguments map[string]string `json:"arguments"`
		Ref       struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"ref"`
		Argument struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"argument"`
	}
	params := orEmpty(req.params)
	switch req.method {
	case "logging/setLevel":
		if json.Unmarshal(params, &p) != nil || levelRank(p.Level) < 0 {
			return errorReply(req.id, CodeInvalidParams, "logging/setLevel needs params.level, one of "+strings.Join(logLevels, ", "), nil), true
		}
		c.w.setLogLevel(p.Level)
		return resultReply(req.id, struct{}{}), true
	case "completion/complete":
		_ = json.Unmarshal(params, &p)
		values := []string{}
		for _, v := range []string{"paris", "park", "party", "test"} {
			if strings.HasPrefix(v, p.Argument.Value) {
				values = append(values, v)
			}
		}
		return resultReply(req.id, map[string]any{"completion": map[string]any{"values": values, "total": len(values), "hasMore": false}}), true
	case "resources/list":
		return resultReply(req.id, map[string]any{"resources": []any{
			resourceListing(staticTextURI, "static-text", "A static text resource for testing", "text/plain"),
			resourceListing(staticBinaryURI, "static-binary", "A static binary resource (image) for testing", "image/png"),
			resourceListing(watchedURI, "watched-resource", "A resource that announces updates to its subscribers", "text/plain"),
		}}), true
	case "resources/templates/list":
		return resultReply(req.id, map[string]any{"resourceTemplates": []any{map[string]any{
			"uriTemplate": templateURI, "name": "template", "description": "A resource template for testing",
			"mimeType": "application/json"}}}), true
	case "resources/read":
		_ = json.Unmarshal(params, &p)
		return c.readResource(req.id, p.URI), true
	case "resources/subscribe", "resources/unsubscribe":
		if json.Unmarshal(params, &p) != nil || p.URI == "" {
			return errorReply(req.id, CodeInvalidParams, req.method+" needs params.uri", nil), true
		}
		if req.method == "resources/subscribe" && p.URI == watchedURI {
			// Not bound to any call: the router puts it on the session's standalone stream.
			c.w.notify(nil, "notifications/resources/updated", map[string]any{"uri": watchedURI})
		}
		return resultReply(req.id, struct{}{}), true
	case "prompts/list":
		return resultReply(req.id, map[string]any{"prompts": promptListing()}), true
	case "prompts/get":
		_ = json.Unmarshal(params, &p)
		if p.Name == mrtrPromptName {
			return c.mrtrPrompt(req.id), true
		}
		return c.getPrompt(req.id, p.Name, p.Arguments), true
	}
	return nil, false
}

func resourceListing(uri, name, doc, mime string) map[string]any {
	return map[string]any{"uri": uri, "name": name, "description": doc, "mimeType": mime}
}

func (c *call) readResource(id json.RawMessage, uri string) []byte {
	item := func(mime string, field, value string) []byte {
		return resultReply(id, map[string]any{"contents": []any{map[string]any{"uri": uri, "mimeType": mime, field: value}}})
	}
	switch uri {
	case staticTextURI:
		return item("text/plain", "text", "This is the content of the static text resource.")
	case staticBinaryURI:
		return item("image/png", "blob", pngBase64)
	case watchedURI:
		return item("text/plain", "text", "Watched resource content")
	}
	if m := templatePattern.FindStringSubmatch(uri); m != nil {
		return item("application/json", "text", string(marshal(map[string]any{"id": m[1], "templateTest": true, "data": "Data for ID: " + m[1]})))
	}
	code := -32002
	if c.stateless() {
		code = CodeInvalidParams // the 2026-07-28 revision's resource-not-found
	}
	return errorReply(id, code, "Resource not found: "+uri, map[string]any{"uri": uri})
}

func promptListing() []any {
	arg := func(name, doc string) map[string]any {
		return map[string]any{"name": name, "description": doc, "required": true}
	}
	return []any{
		map[string]any{"name": "test_simple_prompt", "description": "A simple prompt without arguments"},
		map[string]any{"name": "test_prompt_with_arguments", "description": "A prompt with required arguments",
			"arguments": []any{arg("arg1", "First test argument"), arg("arg2", "Second test argument")}},
		map[string]any{"name": "test_prompt_with_embedded_resource", "description": "A prompt that embeds a resource",
			"arguments": []any{arg("resourceUri", "URI of the resource to embed")}},
		map[string]any{"name": "test_prompt_with_image", "description": "A prompt that includes an image"},
		map[string]any{"name": mrtrPromptName, "description": "A prompt that asks its client for context first"},
	}
}

func (c *call) getPrompt(id json.RawMessage, name string, args map[string]string) []byte {
	msg := func(role string, item any) map[string]any { return map[string]any{"role": role, "content": item} }
	var messages []any
	switch name {
	case "test_simple_prompt":
		messages = []any{msg("user", textItem("This is a simple prompt for testing."))}
	case "test_prompt_with_arguments":
		messages = []any{msg("user", textItem(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args["arg1"], args["arg2"])))}
	case "test_prompt_with_embedded_resource":
		uri := args["resourceUri"]
		if uri == "" {
			return errorReply(id, CodeInvalidParams, "test_prompt_with_embedded_resource needs the argument resourceUri", nil)
		}
		messages = []any{msg("user", resourceItem(uri, "Embedded resource content for testing.")),
			msg("user", textItem("Please process the embedded resource above."))}
	case "test_prompt_with_image":
		messages = []any{msg("user", imageItem()), msg("user", textItem("Please analyze the image above."))}
	default:
		return errorReply(id, CodeInvalidParams, "unknown prompt: "+name, nil)
	}
	return resultReply(id, map[string]any{"messages": messages})
}
