package session

import (
	"context"
	"strconv"
	"testing"
	"time"
)

func TestAnEndedSessionIsRememberedWithItsReason(t *testing.T) {
	s, tbl := newSession(&recorderGem{}, Options{})
	if _, _, ok := tbl.Ended("sid"); ok {
		t.Fatal("a live session is reported as ended")
	}
	s.End(context.Background(), Reason{Kind: "streamlessIdle", Detail: "no stream"})
	r, _, ok := tbl.Ended("sid")
	if !ok || r.Kind != "streamlessIdle" {
		t.Fatalf("Ended after End: %+v %v, want streamlessIdle", r, ok)
	}
	if _, _, ok := tbl.Ended("never-issued"); ok {
		t.Error("an id never issued is reported as ended")
	}
}

func TestTheMemoryOfEndedSessionsIsBounded(t *testing.T) {
	var e endedSessions
	now := time.Unix(1_000_000, 0)
	e.now = func() time.Time { return now }
	for i := range endedMemory + 10 {
		e.remember(strconv.Itoa(i), Reason{Kind: "idle"}, Owner{})
	}
	t.Run("in count", func(t *testing.T) {
		if len(e.byID) != endedMemory || len(e.order) != endedMemory {
			t.Fatalf("%d remembered (%d in order), want at most %d", len(e.byID), len(e.order), endedMemory)
		}
		if _, ok := e.recall("0"); ok {
			t.Error("the oldest id is still remembered past the bound")
		}
		if _, ok := e.recall(strconv.Itoa(endedMemory + 9)); !ok {
			t.Error("the newest id is forgotten")
		}
	})
	t.Run("in time", func(t *testing.T) {
		now = now.Add(endedRemembers + time.Second)
		if _, ok := e.recall(strconv.Itoa(endedMemory + 9)); ok || len(e.byID) != 0 {
			t.Errorf("past %v the memory still holds %d ids", endedRemembers, len(e.byID))
		}
	})
}
