// Command gsmodel runs topaz input against the project's executable model of GemStone
// (internal/gsmodel). It is a model for trying and testing the project's Smalltalk, not GemStone:
// see docs/gsmodel.md for what it models and what it refuses to guess.
//
//	gsmodel FILE...      read topaz input from the files, then from stdin
//	gsmodel -test DIR    file in DIR/core and DIR/tests, run every TestCase subclass
//	gsmodel -stone SOCK FILE...   file in the files, commit, and serve the GCI stand-in's gems
//	                              on the Unix socket SOCK (GSMODEL_STONE=SOCK for the gems)
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gscheck"
	"github.com/gemstone-mcp/mcp-gemstone/internal/gsmodel"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gsmodel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	testDir := fs.String("test", "", "file in `DIR`/core and DIR/tests through their load.gs and run every TestCase subclass")
	stone := fs.String("stone", "", "file in the FILE arguments, commit, then serve gems on the Unix socket `SOCK` until SIGTERM")
	gemLog := fs.Bool("gemlog", false, "print the gem log (GsFile gciLogServer: lines) on stderr")
	root := fs.String("root", ".", "the `directory` relative input paths resolve against (the repository root for smalltalk/)")
	hashSeed := fs.Uint64("hashseed", 0, "iterate hashed collections in the order of `SEED` (printed by -test and -stone; 0: "+gsmodel.HashSeedEnv+" when set, else a fresh seed)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gsmodel [-root DIR] FILE...   run topaz input (then stdin) in a model of GemStone")
		fmt.Fprintln(stderr, "       gsmodel [-root DIR] -test DIR  run the SUnit suites of DIR in the model")
		fmt.Fprintln(stderr, "gsmodel is a model of GemStone for trying and testing Smalltalk, not GemStone (docs/gsmodel.md).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	inv, err := gscheck.LoadInventory()
	if err != nil {
		fmt.Fprintln(stderr, "gsmodel:", err)
		return 2
	}
	logLine := func(string) {}
	if *gemLog {
		logLine = func(line string) { fmt.Fprintln(stderr, "[gem log] "+line) }
	}
	opts := gsmodel.Options{Log: logLine, HashSeed: *hashSeed}
	if *stone != "" {
		return serveStone(*stone, *root, fs.Args(), opts, stdout, stderr)
	}
	img, err := gsmodel.NewImageWith(inv, opts)
	if err != nil {
		fmt.Fprintln(stderr, "gsmodel:", err)
		return 1
	}
	if *testDir != "" {
		fmt.Fprintln(stdout, seedLine(img))
		dir, _ := filepath.Abs(*testDir)
		rootAbs, _ := filepath.Abs(*root)
		res, err := gsmodel.RunTests(img, rootAbs, dir, stdout)
		if err != nil {
			fmt.Fprintln(stderr, "gsmodel:", err)
			return 1
		}
		if res.Failed > 0 || res.FileInErrors > 0 {
			return 1
		}
		return 0
	}
	s, err := img.Login("DataCurator")
	if err != nil {
		fmt.Fprintln(stderr, "gsmodel:", err)
		return 1
	}
	t := gsmodel.NewTopaz(s, stdout)
	t.Dir = *root
	for _, f := range fs.Args() {
		if err := t.RunFile(f); err != nil {
			fmt.Fprintln(stderr, "gsmodel:", err)
			return 1
		}
	}
	if stdin != nil {
		data, _ := io.ReadAll(stdin)
		t.Run("stdin", string(data))
	}
	if t.Errors > 0 {
		return 1
	}
	return 0
}

// serveStone files in the given topaz files as DataCurator, commits, and serves gems until a
// SIGTERM or SIGINT. A file-in error refuses to serve: a half-loaded image would answer the
// tools in ways no real install would.
func serveStone(sock, root string, files []string, opts gsmodel.Options, stdout, stderr io.Writer) int {
	st, err := gsmodel.StartStone(root, files, sock, stdout, opts)
	if err != nil {
		fmt.Fprintln(stderr, "gsmodel:", err)
		return 1
	}
	fmt.Fprintf(stdout, "gsmodel stone: serving gems on %s (a model of GemStone, not GemStone)\n", sock)
	fmt.Fprintln(stdout, seedLine(st.Image))
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	if err := st.Stop(); err != nil {
		fmt.Fprintln(stderr, "gsmodel:", err)
		return 1
	}
	return 0
}

// seedLine says which order the image's hashed collections iterate in and how to replay it: the
// order changes from run to run (docs/gsmodel.md), so a failure that depends on it names its seed.
func seedLine(img *gsmodel.Image) string {
	return fmt.Sprintf("gsmodel: hashed collections iterate in the order of seed %d (replay: -hashseed %d)", img.HashSeed(), img.HashSeed())
}
