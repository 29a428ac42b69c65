package gemstone

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Without a client library the binding still opens, so the server can start and answer
// readiness; a login then names the variables to set.
func TestWithoutALibrary(t *testing.T) {
	lib, err := Open(LibraryConfig{})
	t.Run("Open answers a library and the error", func(t *testing.T) {
		if err == nil || lib == nil {
			t.Fatalf("Open without configuration = %v, %v", lib, err)
		}
	})
	if lib == nil {
		return
	}
	t.Run("a login names what to set", func(t *testing.T) {
		_, lerr := lib.Login(context.Background(), LoginParams{})
		if lerr == nil {
			t.Fatal("Login without a library succeeded")
		}
		for _, want := range []string{EnvLibrary, EnvHome} {
			if !strings.Contains(lerr.Error(), want) {
				t.Errorf("login error %q does not name %s", lerr, want)
			}
		}
	})
}

func TestWrongLibraryPathIsNamedInTheLoginError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "libgcits-3.7.5-64.so")
	lib, err := Open(LibraryConfig{Path: path})
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("Open(%s) error = %v, want a *LoadError", path, err)
	}
	_, lerr := lib.Login(context.Background(), LoginParams{})
	if lerr == nil || !strings.Contains(lerr.Error(), path) || !strings.Contains(lerr.Error(), EnvLibrary) {
		t.Fatalf("login error %q does not name the path %s and %s", lerr, path, EnvLibrary)
	}
}

func TestHomeWithoutALibraryNamesThePatternTried(t *testing.T) {
	home := t.TempDir()
	_, err := Open(LibraryConfig{Home: home})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(home, "lib", "libgcits-*-64.so")) {
		t.Fatalf("error %v does not name the pattern under %s", err, home)
	}
}

func TestLocateLibraryPicksTheHighestVersionPresent(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "lib")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"libgcits-3.7.4.3-64.so", "libgcits-3.7.5-64.so", "libgcits-3.7.10-64.so.bak", "libgcits-3.6.2-64.so", "libgcits-junk-64.so"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := locateLibrary(LibraryConfig{Home: home})
	if err != nil || filepath.Base(got) != "libgcits-3.7.5-64.so" {
		t.Fatalf("locateLibrary = %q, %v; want libgcits-3.7.5-64.so", got, err)
	}
	explicit, _, _ := locateLibrary(LibraryConfig{Path: "/x/libgcits-3.7.0-64.so", Home: home})
	if explicit != "/x/libgcits-3.7.0-64.so" {
		t.Fatalf("GCI_LIBRARY does not win over GEMSTONE: %q", explicit)
	}
}

func TestLibraryConfigFromEnvReadsBothVariables(t *testing.T) {
	env := map[string]string{EnvLibrary: "/a/libgcits-3.7.5-64.so", EnvHome: "/opt/gs"}
	cfg := LibraryConfigFromEnv(func(k string) string { return env[k] })
	if cfg.Path != env[EnvLibrary] || cfg.Home != env[EnvHome] {
		t.Fatalf("LibraryConfigFromEnv = %+v", cfg)
	}
}
