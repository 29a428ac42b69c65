// Package gsmodel is an executable model of GemStone/S 64: an interpreter that runs the
// project's Smalltalk against a kernel modelled on public code that ran on real stones. It is
// not GemStone; a green run is evidence about the project's code, not about GemStone. Where
// GemStone's behaviour is not attested the model refuses by name instead of guessing
// (docs/gsmodel.md says what is modelled, what is refused and every choice where the sources
// are silent).
//
// Its parts:
//
//	syntax        internal/gscheck's parser: the model runs its syntax tree, so the project
//	              has one Smalltalk grammar
//	compiler      compile.go: syntax tree to Go closures; names resolve at compile time as
//	              GemStone resolves them
//	interpreter   interp.go, exception.go: sends, blocks, non-local return, ANSI exceptions
//	              run on top of the signalling frame
//	processes     process.go, frames.go: GsProcess and Semaphore, frames of a suspended process
//	objects       object_types.go (what a value and an object are, the per-commit states),
//	              object_access.go (making and reading objects through the session),
//	              session.go (views, commits, conflicts)
//	kernel        prims.go (how a primitive is registered, argument checks), prims_*.go (the
//	              native primitives, a file per kind of receiver: object, block, number,
//	              string, collection, behavior, system, file, socket, adding), print.go
//	              (printString), kernel_reflection.go (the categories and references the
//	              evidence gives kernel methods), and kernel/*.gs (file-ins for the rest:
//	              collections, streams, exceptions, SUnit, the symbol list)
//	topaz         topaz.go: the file-in commands
//	suites        suite.go: file in a tree and run every TestCase subclass, as run-unit-tests.sh
//	stone server  stone.go, serve.go: the image as a stone the GCI stand-in's gems log in to
package gsmodel
