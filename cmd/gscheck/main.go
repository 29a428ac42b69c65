// Command gscheck statically checks GemStone topaz file-outs (.gs) for what a blind file-in would
// not tell you: syntax errors, the silent quote traps, lost % lines, undefined globals, selectors
// implemented nowhere, non-ASCII source, and toolsets whose tool declarations (registerOn:)
// disagree with their handlers.
//
// Usage: gscheck [-strict] [-inventory DIR]... PATH...
//
// Every finding is an error (the file-in breaks or the code is certain to fail) or style (this
// project's layout conventions). Exit status: 0 no errors (and, with -strict, no style findings
// either), 1 otherwise (one "file:line: severity: finding" per line on stdout), 2 usage error.
// See docs/gscheck.md.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gscheck"
)

type dirList []string

func (d *dirList) String() string     { return strings.Join(*d, ",") }
func (d *dirList) Set(s string) error { *d = append(*d, s); return nil }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gscheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var extra dirList
	fs.Var(&extra, "inventory", "an extra inventory directory of *.txt files (repeatable)")
	strict := fs.Bool("strict", false, "fail on style findings (this project's layout rules) as well as on errors")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gscheck [-strict] [-inventory DIR]... PATH...  (files or directories of .gs files)")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	files, err := gscheck.CollectFiles(fs.Args())
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	inv, err := gscheck.LoadInventory(extra...)
	if err != nil {
		fmt.Fprintln(stderr, "gscheck:", err)
		return 2
	}
	res, err := gscheck.Check(files, inv)
	if errors.Is(err, gscheck.ErrNoFiles) {
		fmt.Fprintf(stdout, "gscheck: no .gs files under %s\n", strings.Join(fs.Args(), " "))
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if len(res.Findings) == 0 {
		fmt.Fprintf(stdout, "gscheck: %d files, %d methods, clean\n", res.Files, res.Methods)
		return 0
	}
	for _, f := range res.Findings {
		fmt.Fprintln(stdout, f.Tagged())
	}
	errs, style := gscheck.Counts(res.Findings)
	fmt.Fprintf(stderr, "gscheck: %d errors, %d style findings in %d files (%d methods)\n", errs, style, res.Files, res.Methods)
	if errs > 0 || *strict {
		return 1
	}
	fmt.Fprintln(stderr, "gscheck: no errors; style findings fail only with -strict")
	return 0
}
