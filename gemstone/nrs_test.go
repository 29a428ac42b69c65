package gemstone

import (
	"strings"
	"testing"
)

func TestGemNRSCarriesTheGemConfiguration(t *testing.T) {
	got, err := GemNRS("db1", "50377", "GEM_TEMPOBJ_CACHE_SIZE=900000;GEM_TEMPOBJ_CODE_SIZE=300000;")
	if err != nil {
		t.Fatal(err)
	}
	want := "!tcp@db1#netldi:50377#task!gemnetobject -C GEM_TEMPOBJ_CACHE_SIZE=900000;GEM_TEMPOBJ_CODE_SIZE=300000;"
	if got != want {
		t.Fatalf("GemNRS = %q, want %q", got, want)
	}
	if err := checkGemNRS(got); err != nil {
		t.Fatalf("checkGemNRS refuses what GemNRS built: %v", err)
	}
	plain, err := GemNRS("", "gs64ldi", "")
	if err != nil || plain != "!tcp@localhost#netldi:gs64ldi#task!gemnetobject" {
		t.Fatalf("GemNRS without config = %q, %v", plain, err)
	}
}

func TestGemConfigurationWithASpaceIsRefusedNamingThePosition(t *testing.T) {
	_, err := GemNRS("db1", "gs64ldi", "GEM_TEMPOBJ_CACHE_SIZE=900000; GEM_X=1;")
	if err == nil {
		t.Fatal("a gem configuration with a space was accepted")
	}
	if !strings.Contains(err.Error(), "space at position 31") {
		t.Fatalf("error %q does not name the space and its position 31", err)
	}
}

func TestGemConfigurationRefusesNRSCharacters(t *testing.T) {
	for _, c := range []string{"!", "#", "@", "^"} {
		cfg := "GEM_A=1;GEM_B=x" + c + "y;"
		err := CheckGemConfig(cfg)
		if err == nil {
			t.Errorf("%q accepted", cfg)
			continue
		}
		want := "character '" + c + "' at position 16"
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	for _, bad := range []string{"NOEQUALS;", "=value;", "A-B=1;"} {
		if err := CheckGemConfig(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if err := CheckGemConfig("GEM_NATIVE_CODE_ENABLED=0;;"); err != nil {
		t.Errorf("a valid configuration was refused: %v", err)
	}
}

func TestWholeGemNRSIsCheckedAtLogin(t *testing.T) {
	if err := checkGemNRS("!tcp@h#netldi:1#task!gemnetobject -C A=1; B=2;"); err == nil {
		t.Error("a space inside the -C body was accepted")
	}
	if err := checkGemNRS("!tcp@h #netldi:1#task!gemnetobject"); err == nil {
		t.Error("a space outside -C was accepted")
	}
}

func TestStoneNRSRefusesSpecialCharactersInTheHost(t *testing.T) {
	got, err := StoneNRS("db1.example.com", "gs64stone")
	if err != nil || got != "!tcp@db1.example.com#server!gs64stone" {
		t.Fatalf("StoneNRS = %q, %v", got, err)
	}
	if _, err := StoneNRS("evil#netldi", "s"); err == nil {
		t.Error("a host with # was accepted")
	}
	if _, err := StoneNRS("h", ""); err == nil {
		t.Error("an empty stone name was accepted")
	}
}
