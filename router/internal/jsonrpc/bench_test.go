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
