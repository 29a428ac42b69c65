package auth

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func discardLog() zerolog.Logger { return zerolog.Nop() }

func TestValidateFillsTheDefaultsAndKeepsTheRest(t *testing.T) {
	c := &Config{Issuer: "https://id.example/realms/gs", Resource: "https://gs.example/mcp", RequiredScopes: []string{"mcp:use"},
		ExtraScopes: []string{"profile", "offline_access"}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	want := &Config{Issuer: "https://id.example/realms/gs", Resource: "https://gs.example/mcp", RequiredScopes: []string{"mcp:use"},
		ExtraScopes: []string{"profile", "offline_access"}, UserIDClaim: "sub", ClockSkew: time.Minute}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("%+v", c)
	}
	if got := c.SupportedScopes(); !reflect.DeepEqual(got, []string{"mcp:use", "profile", "offline_access"}) {
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

func TestTheURLChecksAllowPlainHTTPOnlyOnLoopbackAndRefuseQueriesAndUserInfo(t *testing.T) {
	for v, want := range map[string]string{
		"http://127.0.0.1:8080/realms/gs": "",
		"http://localhost:8000/mcp":       "",
		"http://gs.localhost/mcp":         "",
		"http://10.0.0.1/mcp":             "must be https",
		"https://u:p@id.example":          "must not carry user info",
		"https://id.example/?x=1":         "query",
		"id.example/realms":               "must be an absolute URL",
	} {
		for name, check := range map[string]func(string) error{"issuer": CheckIssuer, "resource": CheckResource} {
			err := check(v)
			if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
				t.Errorf("%s %q: %v, want %q", name, v, err, want)
			}
		}
	}
	if err := CheckResource("https://gs.example/mcp?x=1"); err == nil || !strings.Contains(err.Error(), "RFC 8707") {
		t.Fatalf("a resource with a query: %v", err)
	}
}

func TestParseScopesDropsRepeatsAndNamesEveryBadScope(t *testing.T) {
	got, err := ParseScopes("mcp:use, mcp:use profile\toffline_access")
	if err != nil || !reflect.DeepEqual(got, []string{"mcp:use", "profile", "offline_access"}) {
		t.Fatalf("%v %v", got, err)
	}
	if got, err := ParseScopes(""); got != nil || err != nil {
		t.Fatalf("empty: %v %v", got, err)
	}
	_, err = ParseScopes(`good "bad" back\slash`)
	if err == nil || !strings.Contains(err.Error(), `"\"bad\"" is not a scope token`) || !strings.Contains(err.Error(), `"back\\slash" is not`) {
		t.Fatalf("bad scopes: %v", err)
	}
}

func TestClaimAndClockSkewChecks(t *testing.T) {
	if CheckClaim("preferred_username") != nil || CheckClaim("urn:x-acme:uid") != nil || CheckClaim("") == nil || CheckClaim("a b") == nil {
		t.Fatal("claim names")
	}
	for d, ok := range map[time.Duration]bool{time.Millisecond: true, MaxClockSkew: true, 0: false, -time.Second: false, MaxClockSkew + 1: false} {
		if (CheckClockSkew(d) == nil) != ok {
			t.Errorf("skew %v: %v", d, CheckClockSkew(d))
		}
	}
}
