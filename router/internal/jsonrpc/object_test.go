package jsonrpc

import (
	"errors"
	"testing"
)

func TestObjectOfValidReadsMembersAsMembersOfValidDoes(t *testing.T) {
	cases := []string{
		`{}`,
		` {"name":"echo","arguments":{"session":"h","text":"hi"},"_meta":{"k":[1,{"a":2}]}} `,
		`{"\u006eame":"escaped name","other":null}`,
	}
	for _, raw := range cases {
		t.Run(raw, func(t *testing.T) {
			want, err := MembersOfValid([]byte(raw))
			if err != nil {
				t.Fatalf("MembersOfValid: %v", err)
			}
			got, err := ObjectOfValid([]byte(raw))
			if err != nil {
				t.Fatalf("ObjectOfValid: %v", err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d members, want %d", len(got), len(want))
			}
			for name, value := range want {
				v, ok := got.Lookup(name)
				if !ok || string(v) != string(value) {
					t.Errorf("member %q: got %q (found %v), want %q", name, v, ok, value)
				}
			}
		})
	}
}

func TestObjectOfValidRefusesANameGivenTwice(t *testing.T) {
	_, err := ObjectOfValid([]byte(`{"session":"a","text":"x","session":"b"}`))
	if !errors.Is(err, ErrDuplicateMember) {
		t.Fatalf("got %v, want ErrDuplicateMember", err)
	}
}

func TestObjectOfValidRefusesWhatIsNoObject(t *testing.T) {
	for _, raw := range []string{`[]`, `"text"`, `7`, ``} {
		if _, err := ObjectOfValid([]byte(raw)); err == nil {
			t.Errorf("%q: read as an object", raw)
		}
	}
}

func TestObjectLookupTellsAnAbsentMemberFromANullOne(t *testing.T) {
	o, err := ObjectOfValid([]byte(`{"present":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := o.Lookup("present"); !ok || string(v) != "null" {
		t.Errorf("present: %q %v", v, ok)
	}
	if v, ok := o.Lookup("absent"); ok || v != nil {
		t.Errorf("absent: %q %v", v, ok)
	}
	if o.Get("absent") != nil {
		t.Error("Get of an absent member is not nil")
	}
}
