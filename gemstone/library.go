package gemstone

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Environment variables the binding's callers read (through LibraryConfigFromEnv).
const (
	// EnvLibrary names the libgcits file to load, e.g. /opt/gemstone/lib/libgcits-3.7.5-64.so.
	EnvLibrary = "GCI_LIBRARY"
	// EnvHome names a GemStone product directory; the library is found in its lib/.
	EnvHome = "GEMSTONE"
)

// baseVersion is the oldest GemStone the binding supports; symbols newer than it are bound
// on first use so an older library still loads.
var baseVersion = Version{Major: 3, Minor: 7, Patch: 0}

// LibraryConfig says where the GCI library is. Path wins over Home.
type LibraryConfig struct {
	// Path is the libgcits file itself (GCI_LIBRARY).
	Path string
	// Home is a GemStone product directory (GEMSTONE): the binding loads
	// Home/lib/libgcits-<version>-64.so, the highest version present.
	Home string
}

// LibraryConfigFromEnv reads GCI_LIBRARY and GEMSTONE through getenv (os.Getenv when nil).
func LibraryConfigFromEnv(getenv func(string) string) LibraryConfig {
	if getenv == nil {
		getenv = os.Getenv
	}
	return LibraryConfig{Path: getenv(EnvLibrary), Home: getenv(EnvHome)}
}

// LoadError says why the GCI library could not be loaded, which files were tried, and
// what to set. It names paths, so it is for the operator's log, never for a client.
type LoadError struct {
	Tried  []string
	Reason string
}

func (e *LoadError) Error() string {
	tried := "nothing"
	if len(e.Tried) > 0 {
		tried = strings.Join(e.Tried, ", ")
	}
	return fmt.Sprintf("gemstone: cannot load the GCI library (tried %s): %s; set %s to the libgcits file, or %s to the GemStone product directory",
		tried, e.Reason, EnvLibrary, EnvHome)
}

// SymbolError says a symbol the binding needs is missing from the loaded library.
type SymbolError struct {
	Symbol  string
	Library string
	// Needs is the GemStone release that introduced the symbol, when it is newer than the
	// binding's base version (3.7.0).
	Needs *Version
	Have  Version
}

func (e *SymbolError) Error() string {
	if e.Needs != nil {
		return fmt.Sprintf("gemstone: %s is missing from %s (version %s): needs GemStone %s", e.Symbol, e.Library, e.Have, e.Needs)
	}
	return fmt.Sprintf("gemstone: %s is missing from %s: the library is not a GemStone 3.7 libgcits", e.Symbol, e.Library)
}

// locateLibrary answers the library file to load and every path it looked at.
func locateLibrary(cfg LibraryConfig) (string, []string, error) {
	if cfg.Path != "" {
		return cfg.Path, []string{cfg.Path}, nil
	}
	if cfg.Home == "" {
		return "", nil, &LoadError{Reason: fmt.Sprintf("neither %s nor %s is set", EnvLibrary, EnvHome)}
	}
	pattern := filepath.Join(cfg.Home, "lib", "libgcits-*-64"+sharedLibSuffix())
	matches, _ := filepath.Glob(pattern)
	best, bestVersion := "", Version{}
	for _, m := range matches {
		v, ok := libraryFileVersion(m)
		if !ok {
			continue
		}
		if best == "" || v.Compare(bestVersion) > 0 {
			best, bestVersion = m, v
		}
	}
	if best == "" {
		return "", []string{pattern}, &LoadError{Tried: []string{pattern}, Reason: "no library file matches"}
	}
	return best, []string{best}, nil
}

// libraryFileVersion reads <version> from libgcits-<version>-64.so.
func libraryFileVersion(path string) (Version, bool) {
	name := filepath.Base(path)
	rest, ok := strings.CutPrefix(name, "libgcits-")
	if !ok {
		return Version{}, false
	}
	text, ok := strings.CutSuffix(rest, "-64"+sharedLibSuffix())
	if !ok {
		return Version{}, false
	}
	v, err := ParseVersion(text)
	if err != nil || v.String() != text {
		return Version{}, false
	}
	return v, true
}

// companionNetldi answers libnetldi-<version>-64.so beside the libgcits file, which Linux
// needs loaded first (libgcits refers to its HostCreateThread), or "" if there is none.
func companionNetldi(gcitsPath string) string {
	if runtime.GOOS != "linux" {
		return ""
	}
	name := filepath.Base(gcitsPath)
	rest, ok := strings.CutPrefix(name, "libgcits-")
	if !ok {
		return ""
	}
	candidate := filepath.Join(filepath.Dir(gcitsPath), "libnetldi-"+rest)
	if _, err := os.Stat(candidate); err != nil {
		return ""
	}
	return candidate
}

func sharedLibSuffix() string {
	if runtime.GOOS == "darwin" {
		return ".dylib"
	}
	return ".so"
}

// Library is a loaded libgcits. It is never unloaded (the library starts threads of its
// own). A Library whose load failed still exists: Err answers the failure and every Login
// returns it, so a server can start without GemStone and refuse logins plainly.
type Library struct {
	path        string
	loadErr     error
	versionText string
	version     Version
	api         *gciAPI
}

// Open loads the library cfg names. On failure it answers both the error and a Library
// that refuses every login with that error.
func Open(cfg LibraryConfig) (*Library, error) {
	lib := &Library{}
	path, tried, err := locateLibrary(cfg)
	if err != nil {
		lib.loadErr = err
		return lib, err
	}
	lib.path = path
	api, err := loadAPI(path, companionNetldi(path), tried)
	if err != nil {
		lib.loadErr = err
		return lib, err
	}
	lib.api = api
	lib.versionText = api.versionText()
	if v, err := ParseVersion(lib.versionText); err == nil {
		lib.version = v
	} else if v, ok := libraryFileVersion(path); ok {
		lib.version = v
	}
	return lib, nil
}

// Err answers why the library could not be loaded, or nil.
func (l *Library) Err() error { return l.loadErr }

// Path answers the library file that was (or would have been) loaded.
func (l *Library) Path() string { return l.path }

// Version answers the client library's release, parsed from GciTsVersion (not the stone's).
func (l *Library) Version() Version { return l.version }

// VersionText answers GciTsVersion's text as the library wrote it.
func (l *Library) VersionText() string { return l.versionText }

// Login logs a session in; see LoginParams. It fails with the load error when the library
// could not be loaded.
func (l *Library) Login(ctx context.Context, p LoginParams) (*Session, error) {
	if l.loadErr != nil {
		return nil, l.loadErr
	}
	return login(ctx, l, p)
}
