// Package inventory holds the kernel inventory of the Smalltalk static checker as plain text
// files, embedded so that bin/gscheck carries it. See docs/gscheck.md for the format.
package inventory

import "embed"

// Files is every inventory file; the checker loads all *.txt in it together.
//
//go:embed *.txt
var Files embed.FS
