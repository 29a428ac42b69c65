package fixtureworker

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCapabilitiesDeclareEveryMethodFamilyTheWorkerAnswers(t *testing.T) {
	r := handle(t, newWorker(t, testConfig), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`)
	var res struct {
		Capabilities map[string]map[string]any `json:"capabilities"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"tools", "logging", "completions", "prompts", "resources"} {
		if res.Capabilities[c] == nil {
			t.Errorf("capability %s missing: %s", c, r.Result)
		}
	}
	if res.Capabilities["resources"]["subscribe"] != true {
		t.Errorf("resources.subscribe not declared: %s", r.Result)
	}
}

func TestResourcesRead(t *testing.T) {
	w := newWorker(t, testConfig)
	read := func(t *testing.T, uri string) (reply, map[string]string) {
		r := handle(t, w, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"`+uri+`"}}`)
		var res struct {
			Contents []map[string]string `json:"contents"`
		}
		_ = json.Unmarshal(r.Result, &res)
		if r.Error == nil && len(res.Contents) != 1 {
			t.Fatalf("%s: %d contents, want 1: %s", uri, len(res.Contents), r.Result)
		}
		if len(res.Contents) == 0 {
			return r, nil
		}
		return r, res.Contents[0]
	}
	t.Run("serves a text", func(t *testing.T) {
		if _, c := read(t, "test://static-text"); c["text"] == "" || c["mimeType"] != "text/plain" {
			t.Errorf("static-text: %+v", c)
		}
	})
	t.Run("serves a blob", func(t *testing.T) {
		if _, c := read(t, "test://static-binary"); c["blob"] == "" || c["mimeType"] != "image/png" {
			t.Errorf("static-binary: %+v", c)
		}
	})
	t.Run("serves a template's instance", func(t *testing.T) {
		if _, c := read(t, "test://template/123/data"); !strings.Contains(c["text"], "123") || c["uri"] != "test://template/123/data" {
			t.Errorf("template: %+v", c)
		}
	})
	t.Run("refuses an unknown URI", func(t *testing.T) {
		r, _ := read(t, "test://nope")
		wantCode(t, r, -32002)
	})
}

func TestPromptsGetCarriesTheArgumentsGiven(t *testing.T) {
	w := newWorker(t, testConfig)
	r := handle(t, w, `{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"test_prompt_with_arguments","arguments":{"arg1":"testValue1","arg2":"testValue2"}}}`)
	if !strings.Contains(string(r.Result), "testValue1") || !strings.Contains(string(r.Result), "testValue2") {
		t.Fatalf("prompt: %s", r.Result)
	}
	wantCode(t, handle(t, w, `{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"nope"}}`), CodeInvalidParams)
}

func TestLoggingSetLevelAcceptsOnlyMCPLevels(t *testing.T) {
	w := newWorker(t, testConfig)
	if r := handle(t, w, `{"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":{"level":"debug"}}`); string(r.Result) != "{}" {
		t.Fatalf("setLevel debug: %s", r.Result)
	}
	wantCode(t, handle(t, w, `{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"loud"}}`), CodeInvalidParams)
}

func TestJSONSchema202012ToolIsListedVerbatim(t *testing.T) {
	r := handle(t, newWorker(t, testConfig), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if !strings.Contains(string(r.Result), `"$schema":"https://json-schema.org/draft/2020-12/schema"`) ||
		!strings.Contains(string(r.Result), `"$defs"`) {
		t.Fatalf("tools/list lost the 2020-12 keywords: %s", r.Result)
	}
}

func TestChannelToolsWithoutAChannelFailAsToolErrors(t *testing.T) {
	tr := callTool(t, newWorker(t, testConfig), "test_sampling", `{"prompt":"hi"}`)
	if !tr.IsError || tr.Kind() != "channelUnavailable" {
		t.Fatalf("sampling without a channel: %+v", tr)
	}
}
