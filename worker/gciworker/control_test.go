package gciworker

import (
	"reflect"
	"testing"

	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

func TestStoneReadingsParseWithMissingFieldsAsMinusOne(t *testing.T) {
	cases := map[string]worker.StoneStatus{
		"12 20000 5 9": {CommitRecordBacklog: 12, SignalAbortBacklog: 20000, OldestCRSessions: []int{5, 9}},
		"0 -1":         {CommitRecordBacklog: 0, SignalAbortBacklog: -1},
		" 3 ":          {CommitRecordBacklog: 3, SignalAbortBacklog: -1},
		"":             {CommitRecordBacklog: -1, SignalAbortBacklog: -1},
		"-1 -1 4\n":    {CommitRecordBacklog: -1, SignalAbortBacklog: -1, OldestCRSessions: []int{4}},
	}
	for text, want := range cases {
		got, err := parseStoneReadings(text)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("parseStoneReadings(%q) = %+v, %v; want %+v", text, got, err, want)
		}
	}
	if _, err := parseStoneReadings("12 lots"); err == nil {
		t.Error("a non-integer reading was accepted")
	}
}
