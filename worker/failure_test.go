package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestFailureOfFindsAWrappedFailure(t *testing.T) {
	gone := &Failure{Kind: GemGone, Number: 4137, Fatal: true, Safe: "GemStone error 4137 (session gone)", Err: errors.New("!tcp@host")}
	if f := FailureOf(fmt.Errorf("changing the grant: %w", gone)); f.Kind != GemGone || !f.Fatal || f.Number != 4137 {
		t.Errorf("a wrapped failure reads %+v", f)
	}
}

// Any other error is a Failure of its own: a deadline is TimedOut, everything else Other, and
// its text stays in Err, never in Safe.
func TestFailureOfReadsAnyOtherErrorAsAFailure(t *testing.T) {
	plain := errors.New("the worker's answer at /secret/path is not JSON")
	if f := FailureOf(plain); f.Kind != Other || f.Fatal || f.Number != 0 || f.Safe != unknownSafe || !errors.Is(f.Err, plain) {
		t.Errorf("a plain error reads %+v", f)
	}
	if f := FailureOf(fmt.Errorf("login: %w", context.DeadlineExceeded)); f.Kind != TimedOut || f.Fatal {
		t.Errorf("a deadline reads %+v", f)
	}
	if f := FailureOf(fmt.Errorf("login: %w", context.Canceled)); f.Kind != Other {
		t.Errorf("a cancellation reads %+v", f)
	}
}

func TestAFailuresErrorIsItsCause(t *testing.T) {
	cause := errors.New("login denied for SecretUser")
	t.Run("for the log", func(t *testing.T) {
		if f := (&Failure{Kind: LoginRefused, Safe: "GemStone error 4051 (login denied)", Err: cause}); f.Error() != cause.Error() {
			t.Errorf("Error %q, want %q", f.Error(), cause.Error())
		}
	})
	t.Run("or its safe text without one", func(t *testing.T) {
		if (&Failure{Safe: "only this"}).Error() != "only this" {
			t.Error("a failure without a cause says nothing")
		}
	})
}

func TestAFailureUnwrapsToItsCause(t *testing.T) {
	cause := errors.New("login denied for SecretUser")
	if f := (&Failure{Kind: LoginRefused, Safe: "GemStone error 4051 (login denied)", Err: cause}); !errors.Is(f, cause) {
		t.Errorf("errors.Is(failure, its cause) is false")
	}
}

// An Ending is its step's label, and Words says it for a person.
func TestEndingNamesItsStep(t *testing.T) {
	for e, want := range map[Ending][2]string{
		NotEnded:         {"", ""},
		Ending("other"):  {"", "other"},
		EndedBySoftBreak: {"ended by soft break", "softBreak"},
		EndedByHardBreak: {"ended by hard break", "hardBreak"},
		EndedByStop:      {"ended by stopping the session", "stop"},
	} {
		t.Run(want[1], func(t *testing.T) {
			if e.Words() != want[0] || string(e) != want[1] {
				t.Errorf("%q: %q", e, e.Words())
			}
		})
	}
}

func TestParsePrepareAnswerReadsTheResultOrARefusal(t *testing.T) {
	p, err := ParsePrepareAnswer([]byte(`{"ok":true,"gemSession":7,"workerClass":"McpServer","tools":3}`))
	if err != nil || p.GemSession != 7 || p.WorkerClass != "McpServer" || p.Tools != 3 {
		t.Fatalf("%+v, %v", p, err)
	}
	for answer, refusal := range map[string]string{
		`{"ok":false,"error":{"kind":"toolsetNotFound","message":"no toolset named X"}}`: "toolsetNotFound",
		`{"ok":false}`: "badConfig",
	} {
		_, err := ParsePrepareAnswer([]byte(answer))
		f := FailureOf(err)
		if f.Kind != PrepareRefused || f.Refusal != refusal || !strings.HasPrefix(f.Safe, "the worker refused its configuration: ") {
			t.Errorf("%s: %+v", answer, f)
		}
	}
	if _, err := ParsePrepareAnswer([]byte(`not json`)); err == nil || FailureOf(err).Kind != Other {
		t.Errorf("not json: %v", err)
	}
}

func TestParseGrantAnswerRefusesAnAnswerWithoutAGrant(t *testing.T) {
	for _, answer := range []string{`{"ok":true}`, `{"ok":false}`, `not json`, `{"ok":false,"error":{"kind":"badGrant","message":"m"}}`} {
		if _, err := ParseGrantAnswer([]byte(answer)); err == nil {
			t.Errorf("%s accepted", answer)
		}
	}
	g, err := ParseGrantAnswer([]byte(`{"ok":true,"grant":{"toolsets":["A"]}}`))
	if err != nil || len(g.Toolsets) != 1 || g.Toolsets[0] != "A" {
		t.Errorf("%+v, %v", g, err)
	}
}
