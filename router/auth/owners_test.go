package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/router/internal/session"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
)

func principal(sub, user string, audArray bool) *Principal {
	return &Principal{Issuer: "https://id.example", Subject: sub, UserID: user, Expiry: time.Unix(2e9, 0),
		AudienceIsArray: audArray, token: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.SECRET-SIGNATURE"}
}

func TestWorkerLoginIsTheTokensUserWithTheTokenAsJWTPassword(t *testing.T) {
	base := worker.LoginSpec{StoneNRS: "!tcp@h#server!gs64stone", GemNRS: "!tcp@h#netldi:gs64ldi#task!gemnetobject", User: "DataCurator", Password: "swordfish"}
	p := principal("alice-sub", "alice", false)
	got, err := WorkerLogin(WithPrincipal(context.Background(), p), base)
	if err != nil {
		t.Fatal(err)
	}
	want := worker.LoginSpec{StoneNRS: base.StoneNRS, GemNRS: base.GemNRS, User: "alice", Password: p.BearerToken(), PasswordKind: worker.PasswordJWT}
	if got != want {
		t.Fatalf("%+v", got)
	}
	if _, err := WorkerLogin(context.Background(), base); err != ErrNoPrincipal {
		t.Fatalf("no principal: %v, want ErrNoPrincipal (never the base user's password)", err)
	}
}

func TestOwner(t *testing.T) {
	t.Run("needs a principal", func(t *testing.T) {
		if _, err := Owner(context.Background()); err != ErrNoPrincipal {
			t.Fatalf("no principal: %v, want ErrNoPrincipal", err)
		}
	})
	t.Run("is the subject of its issuer", func(t *testing.T) {
		alice, err := Owner(WithPrincipal(context.Background(), principal("alice", "alice", false)))
		if err != nil || alice != (session.Owner{Issuer: "https://id.example", Subject: "alice"}) {
			t.Fatalf("%+v %v", alice, err)
		}
		otherIssuer := principal("alice", "alice", false)
		otherIssuer.Issuer = "https://other.example"
		if other, _ := Owner(WithPrincipal(context.Background(), otherIssuer)); other == alice {
			t.Fatal("the same subject of another issuer is the same owner")
		}
	})
}

func TestPrincipalNeverPrintsItsToken(t *testing.T) {
	p := principal("alice", "alice", false)
	var buf bytes.Buffer
	log := zerolog.New(&buf)
	log.Info().Object("p", p).Interface("same", p).Msg("x")
	j, _ := json.Marshal(p)
	for _, s := range []string{fmt.Sprint(p), fmt.Sprintf("%v %+v %#v %s", p, p, p, p), buf.String(), string(j)} {
		if strings.Contains(s, "SECRET-SIGNATURE") || strings.Contains(s, "eyJ") {
			t.Fatalf("token printed: %s", s)
		}
		if !strings.Contains(s, "alice") {
			t.Fatalf("principal not identified: %s", s)
		}
	}
}

func TestLoginRefusedHint(t *testing.T) {
	var logs bytes.Buffer
	id := NewIdentity("preferred_username", zerolog.New(&logs))
	h := id.LoginRefusedHint(WithPrincipal(context.Background(), principal("s", "analyst", false)))
	t.Run("says what to provision without naming the user", func(t *testing.T) {
		if !strings.Contains(h, "its preferred_username claim") || !strings.Contains(h, "setup-oidc-users.sh") ||
			strings.Contains(h, "analyst") || strings.Contains(h, "array") {
			t.Fatal(h)
		}
	})
	t.Run("names the user in the operator's log, never the token", func(t *testing.T) {
		if !strings.Contains(logs.String(), `"user":"analyst"`) || strings.Contains(logs.String(), "SECRET") {
			t.Fatalf("the operator's log does not name the refused user, or names the token: %s", logs.String())
		}
	})
	t.Run("names an array audience GemStone refuses", func(t *testing.T) {
		h := id.LoginRefusedHint(WithPrincipal(context.Background(), principal("s", "analyst", true)))
		if !strings.Contains(h, "aud is a JSON array, which GemStone 3.7.5 refuses") {
			t.Fatal(h)
		}
	})
}
