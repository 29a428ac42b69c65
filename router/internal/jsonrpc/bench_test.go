package jsonrpc

import "testing"

// BenchmarkParseToolsCall: the parse every POST pays, on a typical tools/call.
func BenchmarkParseToolsCall(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"get_method_source","arguments":{"className":"SampleSavingsAccount","selector":"addInterest"},"_meta":{"progressToken":"p-42"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMetaValue: reading one _meta key of a 2026-07-28 tools/call's params, as the
// version check and the trace context do, beside reading it through Members twice.
func BenchmarkMetaValue(b *testing.B) {
	params := []byte(`{"name":"get_method_source","arguments":{"className":"SampleSavingsAccount","selector":"addInterest"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p-42"}}`)
	b.Run("MetaValue", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if MetaValue(params, "progressToken") == nil {
				b.Fatal("no progressToken")
			}
		}
	})
	b.Run("Members", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := Members(params)
			if err != nil {
				b.Fatal(err)
			}
			meta, err := Members(p["_meta"])
			if err != nil || meta["progressToken"] == nil {
				b.Fatal("no progressToken")
			}
		}
	})
}
