package auth

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func discardLog() zerolog.Logger { return zerolog.Nop() }

func validConfig(t *testing.T) *Config {
	t.Helper()
	c := &Config{Issuer: "https://id.example/realms/gs", Resource: "https://gs.example/mcp", RequiredScopes: []string{"mcp:use"},
		ExtraScopes: []string{"profile", "offline_access"}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestValidateFillsOnlyTheDefaults(t *testing.T) {
	c := validConfig(t)
	want := &Config{Issuer: "https://id.example/realms/gs", Resource: "https://gs.example/mcp", RequiredScopes: []string{"mcp:use"},
		ExtraScopes: []string{"profile", "offline_access"}, UserIDClaim: "sub", ClockSkew: time.Minute}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("%+v", c)
	}
}

func TestSupportedScopesAreTheRequiredThenTheExtra(t *testing.T) {
	if got := validConfig(t).SupportedScopes(); !reflect.DeepEqual(got, []string{"mcp:use", "profile", "offline_access"}) {
		t.Fatalf("SupportedScopes %v", got)
	}
}

func TestValidateNamesEveryBadField(t *testing.T) {
	c := &Config{Issuer: "http://id.example", Resource: "https://gs.example/mcp#frag", RequiredScopes: []string{`mcp:"use`},
		UserIDClaim: "a b", ClockSkew: time.Hour}
	err := c.Validate()
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`Issuer "http://id.example": must be https (http only for a loopback host)`,
		`Resource "https://gs.example/mcp#frag": must not have a fragment`,
		`RequiredScopes ["mcp:\"use"]: "mcp:\"use" is not a scope token`,
		`UserIDClaim "a b": must be a claim name`,
		`ClockSkew "1h0m0s": must be a duration above 0s and at most 5m0s`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	err = (&Config{}).Validate()
	if err == nil || !strings.Contains(err.Error(), `Issuer "": must be set`) || !strings.Contains(err.Error(), `Resource "": must be set`) {
		t.Fatalf("missing fields: %v", err)
	}
}

// The issuer's and the resource's URL checks allow plain HTTP only on loopback and refuse
// queries and user info.
func TestTheURLChecks(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"http://127.0.0.1:8080/realms/gs", ""},
		{"http://localhost:8000/mcp", ""},
		{"http://gs.localhost/mcp", ""},
		{"http://10.0.0.1/mcp", "must be https"},
		{"https://u:p@id.example", "must not carry user info"},
		{"https://id.example/?x=1", "query"},
		{"id.example/realms", "must be an absolute URL"},
	} {
		for _, check := range []struct {
			name string
			f    func(string) error
		}{{"issuer", CheckIssuer}, {"resource", CheckResource}} {
			t.Run(check.name+" "+c.url, func(t *testing.T) {
				err := check.f(c.url)
				if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
					t.Errorf("%s %q: %v, want %q", check.name, c.url, err, c.want)
				}
			})
		}
	}
	t.Run("a resource with a query names RFC 8707", func(t *testing.T) {
		if err := CheckResource("https://gs.example/mcp?x=1"); err == nil || !strings.Contains(err.Error(), "RFC 8707") {
			t.Fatalf("a resource with a query: %v", err)
		}
	})
}

func TestParseScopes(t *testing.T) {
	t.Run("drops repeats", func(t *testing.T) {
		got, err := ParseScopes("mcp:use, mcp:use profile\toffline_access")
		if err != nil || !reflect.DeepEqual(got, []string{"mcp:use", "profile", "offline_access"}) {
			t.Fatalf("%v %v", got, err)
		}
	})
	t.Run("reads nothing as none", func(t *testing.T) {
		if got, err := ParseScopes(""); got != nil || err != nil {
			t.Fatalf("empty: %v %v", got, err)
		}
	})
	t.Run("names every bad scope", func(t *testing.T) {
		_, err := ParseScopes(`good "bad" back\slash`)
		if err == nil || !strings.Contains(err.Error(), `"\"bad\"" is not a scope token`) || !strings.Contains(err.Error(), `"back\\slash" is not`) {
			t.Fatalf("bad scopes: %v", err)
		}
	})
}

func TestCheckClaim(t *testing.T) {
	for name, ok := range map[string]bool{"preferred_username": true, "urn:x-acme:uid": true, "": false, "a b": false} {
		t.Run(name, func(t *testing.T) {
			if (CheckClaim(name) == nil) != ok {
				t.Errorf("claim %q: %v", name, CheckClaim(name))
			}
		})
	}
}

func TestCheckClockSkew(t *testing.T) {
	for d, ok := range map[time.Duration]bool{time.Millisecond: true, MaxClockSkew: true, 0: false, -time.Second: false, MaxClockSkew + 1: false} {
		t.Run(d.String(), func(t *testing.T) {
			if (CheckClockSkew(d) == nil) != ok {
				t.Errorf("skew %v: %v", d, CheckClockSkew(d))
			}
		})
	}
}
