package pending

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func TestIDsAreSrvN(t *testing.T) {
	tb := New(time.Minute)
	a, b := tb.Start("ping"), tb.Start("ping")
	if string(a.ID) != `"srv-1"` || string(b.ID) != `"srv-2"` {
		t.Fatalf("ids %s %s", a.ID, b.ID)
	}
}

func TestAnAnswerResolvesItsCallOnce(t *testing.T) {
	tb := New(time.Minute)
	_, b := tb.Start("ping"), tb.Start("ping")
	if !tb.Resolve(b.ID, json.RawMessage(`{"result":{}}`)) {
		t.Fatal("the answer did not resolve its call")
	}
	if ans, err := b.Result(); err != nil || string(ans) != `{"result":{}}` {
		t.Fatalf("result %s %v", ans, err)
	}
	if tb.Resolve(b.ID, nil) {
		t.Fatal("a second answer resolved again")
	}
	if tb.Len() != 1 {
		t.Fatalf("%d outstanding, want 1", tb.Len())
	}
}

func TestAnIDOutsideTheSrvNamespaceResolvesNothing(t *testing.T) {
	tb := New(time.Minute)
	tb.Start("ping")
	if tb.Resolve(json.RawMessage(`7`), nil) || tb.Resolve(json.RawMessage(`"client-1"`), nil) {
		t.Fatal("an id outside the srv- namespace resolved a call")
	}
	if tb.Len() != 1 {
		t.Fatalf("%d outstanding, want 1", tb.Len())
	}
}

func TestAnUnansweredCallTimesOut(t *testing.T) {
	tb := New(30 * time.Millisecond)
	c := tb.Start("ping")
	select {
	case <-c.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("no timeout")
	}
	if _, err := c.Result(); !errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v, want ErrTimeout", err)
	}
	if tb.Len() != 0 {
		t.Fatal("a timed-out call stayed in the table")
	}
}

func TestCloseAbandonsEveryCall(t *testing.T) {
	tb := New(time.Minute)
	c := tb.Start("ping")
	tb.Close()
	t.Run("outstanding", func(t *testing.T) {
		if _, err := c.Result(); !errors.Is(err, ErrAbandoned) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("started later", func(t *testing.T) {
		if _, err := tb.Start("ping").Result(); !errors.Is(err, ErrAbandoned) {
			t.Fatalf("a call after Close: %v", err)
		}
	})
}

func TestDefaultTimeoutIsThirtySeconds(t *testing.T) {
	if New(0).timeout != 30*time.Second {
		t.Fatal("default timeout is not 30 s")
	}
}

func TestAnAnswerOverTheBoundEndsItsCallWithoutDeliveringIt(t *testing.T) {
	tb := New(time.Minute)
	tb.SetMaxAnswer(10)
	c := tb.Start("elicitation/create")
	if err := tb.Deliver(c.ID, []byte(`{"result":"far too long"}`)); !errors.Is(err, ErrAnswerTooLarge) {
		t.Fatalf("an answer over the bound: %v", err)
	}
	if ans, err := c.Result(); ans != nil || !errors.Is(err, ErrAnswerTooLarge) {
		t.Fatalf("the waiter got %s %v, want ErrAnswerTooLarge", ans, err)
	}
	if err := tb.Deliver(c.ID, []byte(`{}`)); !errors.Is(err, ErrNotPending) {
		t.Fatalf("the call is over: %v", err)
	}
	d := tb.Start("x")
	if err := tb.Deliver(d.ID, []byte(`{}`)); err != nil {
		t.Fatalf("an answer under the bound: %v", err)
	}
}

func TestAMethodCanWaitLongerThanTheDefault(t *testing.T) {
	tb := New(20 * time.Millisecond)
	tb.SetTimeout("elicitation/create", time.Minute)
	form, quick := tb.Start("elicitation/create"), tb.Start("sampling/createMessage")
	if _, err := quick.Result(); !errors.Is(err, ErrTimeout) {
		t.Fatalf("the default wait: %v", err)
	}
	select {
	case <-form.Done():
		t.Fatal("the elicitation was given up on at the default wait")
	case <-time.After(50 * time.Millisecond):
	}
	if err := tb.Deliver(form.ID, []byte(`{}`)); err != nil {
		t.Fatalf("the elicitation's answer in time: %v", err)
	}
}

func TestALateAnswerIsToldFromAStray(t *testing.T) {
	tb := New(20 * time.Millisecond)
	quick := tb.Start("sampling/createMessage")
	if _, err := quick.Result(); !errors.Is(err, ErrTimeout) {
		t.Fatalf("the default wait: %v", err)
	}
	t.Run("late", func(t *testing.T) {
		// The expiry is recorded before the waiter wakes: the answer right after it is late.
		err := tb.Deliver(quick.ID, []byte(`{}`))
		var late *LateError
		if !errors.As(err, &late) || late.Method != "sampling/createMessage" || late.Waited != 20*time.Millisecond {
			t.Fatalf("an answer after the timeout: %v, want a LateError naming the method and the wait", err)
		}
	})
	t.Run("stray", func(t *testing.T) {
		if err := tb.Deliver(json.RawMessage(`"srv-99"`), []byte(`{}`)); !errors.Is(err, ErrNotPending) {
			t.Fatalf("an id never handed out: %v", err)
		}
	})
}
