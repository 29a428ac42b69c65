package auth

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

func TestProtectedResourceMetadata(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.ExtraScopes = []string{"profile", "mcp:use", "offline_access"} })
	want := map[string]any{
		"resource":                 f.cfg.Resource,
		"authorization_servers":    []any{f.is.URL()},
		"scopes_supported":         []any{"mcp:use", "profile", "offline_access"},
		"bearer_methods_supported": []any{"header"},
	}
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		t.Run("names the resource, issuer and scopes at "+path, func(t *testing.T) {
			resp, err := http.Get(f.srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var got map[string]any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("%s: %v: %s", path, err, b)
			}
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %d %s\n%v\nwant %v", path, resp.StatusCode, resp.Header.Get("Content-Type"), got, want)
			}
			if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("%s: not readable cross-origin", path)
			}
		})
	}
	t.Run("its URL is the path form", func(t *testing.T) {
		if got := f.a.MetadataURL(); got != f.srv.URL+"/.well-known/oauth-protected-resource/mcp" {
			t.Fatalf("resource_metadata URL %q", got)
		}
	})
	t.Run("refuses POST", func(t *testing.T) {
		resp, err := http.Post(f.srv.URL+"/.well-known/oauth-protected-resource", "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 405 {
			t.Fatalf("POST to the metadata: %d", resp.StatusCode)
		}
	})
}

func TestMetadataPathFollowsTheResourcePath(t *testing.T) {
	a, err := New(Config{Issuer: "https://id.example/realms/r", Resource: "https://gs.example/tenant/mcp"}, discardLog(), VerifierOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.MetadataURL(); got != "https://gs.example/.well-known/oauth-protected-resource/tenant/mcp" {
		t.Fatalf("MetadataURL %q", got)
	}
	want := []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/tenant/mcp", "/.well-known/oauth-protected-resource/mcp"}
	if got := a.MetadataPaths(); !reflect.DeepEqual(got, want) {
		t.Fatalf("MetadataPaths %v", got)
	}
}

func TestOAuth2ClientCredentialsClientCompletesARequestThroughTheMiddleware(t *testing.T) {
	f := newFixture(t, nil)
	f.is.AddClient("reporting-bot", "s3cret")
	cc := clientcredentials.Config{
		ClientID: "reporting-bot", ClientSecret: "s3cret",
		TokenURL: f.is.URL() + "/token", Scopes: []string{"mcp:use", "profile"},
	}
	client := cc.Client(context.Background())
	resp, err := client.Post(f.srv.URL+"/mcp", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&p)
	resp.Body.Close()
	if resp.StatusCode != 200 || p["sub"] != "reporting-bot" || resp.Header.Get(sessionHeader) == "" {
		t.Fatalf("%d %v", resp.StatusCode, p)
	}
	// The same client goes on with its session; the token source reuses its token.
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/mcp", nil)
	req.Header.Set(sessionHeader, resp.Header.Get(sessionHeader))
	resp2, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != 200 {
		t.Fatalf("second request on the session: %d", resp2.StatusCode)
	}
}

func TestOAuth2PasswordGrantWithoutTheRequiredScopeGetsStepUp403(t *testing.T) {
	f := newFixture(t, nil)
	f.is.AddClient("cli", "x")
	f.is.AddUser("analyst", "pw")
	conf := oauth2.Config{ClientID: "cli", ClientSecret: "x", Endpoint: oauth2.Endpoint{TokenURL: f.is.URL() + "/token"}, Scopes: []string{"profile"}}
	tok, err := conf.PasswordCredentialsToken(context.Background(), "analyst", "pw")
	if err != nil {
		t.Fatal(err)
	}
	got := f.do(http.MethodPost, tok.AccessToken, "")
	if got.status != 403 || got.challenge != f.challenge("insufficient_scope", "the token lacks a required scope") {
		t.Fatalf("%d %q", got.status, got.challenge)
	}
	conf.Scopes = []string{"mcp:use", "profile"}
	tok, err = conf.PasswordCredentialsToken(context.Background(), "analyst", "pw")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.do(http.MethodPost, tok.AccessToken, ""); got.status != 200 || got.body["user"] != "analyst" {
		t.Fatalf("after step-up: %+v", got)
	}
	f.assertNoTokenLogged()
}
