// Package gscheck statically checks GemStone topaz file-outs (.gs files) for what a blind
// file-in would get wrong, since no GemStone image runs where this project is built.
//
// A run has three layers, one pass each:
//
//	.gs bytes --> topaz layer (topaz.go) --> bodies: doit/run/printit and method:/classmethod:
//	                 | unknown commands, lost %, unclosed bodies, input paths
//	                 v
//	              Smalltalk (lexer.go, parser.go) --> AST per body
//	                 | syntax errors, the quote traps (traps.go)
//	                 v
//	              tree model (tree.go): classes and their variables, bound names, implemented
//	              selectors, from every file of the run together
//	                 |
//	                 v
//	              checks: names and selectors against tree + inventory (names.go), tool
//	              declarations against their handlers (tools.go), layout (layout.go)
//
// The kernel inventory (inventory.go, inventory/*.txt) is what the checker trusts about the
// image: every entry cites where it was seen. docs/gscheck.md is the user's page.
package gscheck
