package gsmodel

import (
	"embed"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gemstone-mcp/mcp-gemstone/internal/gscheck"
)

// Image is the model's stone: the committed objects every session shares, the symbol table,
// and the kernel. A session sees the stone through its view (Session.rd).
type Image struct {
	mu        sync.Mutex // guards the stone's bookkeeping (commits, symbols, ids, sessions)
	gil       sync.Mutex // one session runs Smalltalk at a time (stone mode)
	commit    int
	nextID    uint64
	nextSess  int
	symbols   map[string]*Object
	k         *kernel
	byName    map[string]*Object // kernel classes by name
	globals   *Object            // the SymbolDictionary Globals
	published *Object            // the SymbolDictionary Published, last in every symbol list
	users     map[string]*Object // userId -> UserProfile
	inv       *gscheck.Inventory
	log       func(string)
	sessions  map[int]*Session
	// memoryLimit is the live heap past which an execution is ended (limits.go).
	memoryLimit int64
	hashSeed    uint64 // orders hashed collections' iteration (dict.go)
}

// kernel holds the kernel classes the Go side names.
type kernel struct {
	Object, Behavior, Class, Metaclass, UndefinedObject, Boolean                          *Object
	Magnitude, Number, Integer, SmallInteger, LargeInteger, Float, SmallDouble, Character *Object
	Collection, SequenceableCollection, ArrayedCollection, Array                          *Object
	ByteArray, CharacterCollection, String, Symbol, DoubleByteString                      *Object
	QuadByteString, Unicode7, Unicode16, Unicode32, Utf8                                  *Object
	OrderedCollection, SortedCollection, Interval                                         *Object
	HashedCollection, Set, IdentitySet, Bag                                               *Object
	AbstractDictionary, Dictionary, KeyValueDictionary, IdentityKeyValueDictionary        *Object
	IdentityDictionary, SymbolDictionary, GsMethodDictionary, SymbolSet                   *Object
	Association, SymbolAssociation, Message, ExecBlock, GsNMethod                         *Object
	AbstractException, Exception, Error, Notification, Warning, ExceptionSet              *Object
	UserProfile, System, SessionTemps, ClassOrganizer, GsFile, JsonParser                 *Object
}

//go:embed kernel/*.gs
var kernelSources embed.FS

// classSpec is one kernel class: name, superclass, instance variables, storage.
type classSpec struct {
	name, super string
	ivars       string
	format      format
}

// kernelClasses is the kernel's class tree. Where GemStone's placement of a class is not
// attested, docs/gsmodel.md says so; the shapes code can observe (isKindOf:, instVarNames)
// follow gemstone-smalltalk.md where it speaks.
var kernelClasses = []classSpec{
	{"Object", "", "", fmtPointers},
	{"Behavior", "Object", "", fmtSpecial},
	{"Class", "Behavior", "name classCategory classVars poolDictionaries", fmtSpecial},
	{"Metaclass3", "Behavior", "", fmtSpecial},
	{"UndefinedObject", "Object", "", fmtSpecial},
	{"Boolean", "Object", "", fmtSpecial},
	{"Magnitude", "Object", "", fmtPointers},
	{"Character", "Magnitude", "", fmtSpecial},
	{"Number", "Magnitude", "", fmtPointers},
	{"Integer", "Number", "", fmtPointers},
	{"SmallInteger", "Integer", "", fmtSpecial},
	{"LargeInteger", "Integer", "", fmtSpecial},
	{"Float", "Number", "", fmtSpecial},
	// Every Float value is a SmallDouble (floats.go).
	{"SmallDouble", "Float", "", fmtSpecial},
	{"Collection", "Object", "", fmtPointers},
	{"SequenceableCollection", "Collection", "", fmtPointers},
	{"ArrayedCollection", "SequenceableCollection", "", fmtIndexed},
	{"Array", "ArrayedCollection", "", fmtIndexed},
	{"ByteArray", "ArrayedCollection", "", fmtBytes},
	{"Utf8", "ByteArray", "", fmtBytes},
	{"CharacterCollection", "ArrayedCollection", "", fmtBytes},
	{"String", "CharacterCollection", "", fmtBytes},
	{"Symbol", "String", "", fmtBytes},
	{"Unicode7", "String", "", fmtBytes},
	{"DoubleByteString", "CharacterCollection", "", fmtBytes},
	{"Unicode16", "DoubleByteString", "", fmtBytes},
	{"QuadByteString", "CharacterCollection", "", fmtBytes},
	{"Unicode32", "QuadByteString", "", fmtBytes},
	{"OrderedCollection", "SequenceableCollection", "", fmtIndexed},
	{"SortedCollection", "OrderedCollection", "sortBlock", fmtIndexed},
	{"Interval", "SequenceableCollection", "from to by", fmtPointers},
	{"HashedCollection", "Collection", "", fmtHashed},
	{"Set", "HashedCollection", "", fmtHashed},
	{"IdentitySet", "Set", "", fmtHashed},
	{"Bag", "HashedCollection", "", fmtHashed},
	{"AbstractDictionary", "HashedCollection", "", fmtHashed},
	{"Dictionary", "AbstractDictionary", "", fmtHashed},
	{"KeyValueDictionary", "AbstractDictionary", "", fmtHashed},
	{"IdentityKeyValueDictionary", "KeyValueDictionary", "", fmtHashed},
	{"IdentityDictionary", "IdentityKeyValueDictionary", "", fmtHashed},
	{"SymbolDictionary", "IdentityKeyValueDictionary", "name", fmtHashed},
	{"GsMethodDictionary", "IdentityKeyValueDictionary", "", fmtHashed},
	// A set of Symbols, as its name says and as a compile writes one beside the method
	// dictionary (method_dict.go); its place under IdentitySet is the model's choice.
	{"SymbolSet", "IdentitySet", "", fmtHashed},
	{"Association", "Magnitude", "key value", fmtPointers},
	{"SymbolAssociation", "Association", "", fmtPointers},
	{"Message", "Object", "selector args", fmtPointers},
	{"ExecBlock", "Object", "", fmtSpecial},
	{"GsNMethod", "Object", "", fmtSpecial},
	{"GsProcess", "Object", "", fmtSpecial},
	{"Semaphore", "Object", "", fmtPointers},
	{"Stream", "Object", "", fmtPointers},
	{"PositionableStream", "Stream", "collection position readLimit", fmtPointers},
	{"ReadStream", "PositionableStream", "", fmtPointers},
	{"WriteStream", "PositionableStream", "", fmtPointers},
	{"ReadWriteStream", "WriteStream", "", fmtPointers},
	{"AppendStream", "WriteStream", "", fmtPointers},
	{"AbstractException", "Object", strings.Join(exIvars, " "), fmtPointers},
	{"Exception", "AbstractException", "", fmtPointers},
	{"Error", "Exception", "", fmtPointers},
	{"ZeroDivide", "Error", "", fmtPointers},
	{"MessageNotUnderstood", "Error", "", fmtPointers},
	{"UserDefinedError", "Error", "", fmtPointers},
	{"CompileError", "Error", "", fmtPointers},
	{"ImproperOperation", "Error", "", fmtPointers},
	{"TransactionError", "Error", "", fmtPointers},
	{"OutOfRange", "Error", "", fmtPointers},
	{"ArgumentError", "Error", "", fmtPointers},
	{"ArgumentTypeError", "Error", "", fmtPointers},
	{"SecurityError", "Error", "", fmtPointers},
	{"Notification", "Exception", "", fmtPointers},
	{"Warning", "Exception", "", fmtPointers},
	{"CompileWarning", "Warning", "", fmtPointers},
	{"Admonition", "Exception", "", fmtPointers},
	{"AlmostOutOfStack", "Admonition", "", fmtPointers},
	{"AlmostOutOfMemory", "Admonition", "", fmtPointers},
	{"ControlInterrupt", "Exception", "", fmtPointers},
	// GemTalk/Jasper conditionalBreakpoints.ts names it (on: Breakpoint do:); feenkcom/gt4gemstone
	// catches it as an Exception. Its superclass on a stone is not attested (steps.go).
	{"Breakpoint", "Exception", "", fmtPointers},
	{"ExceptionSet", "Object", "", fmtIndexed},
	{"UserProfile", "Object", "userId symbolList", fmtPointers},
	{"SymbolList", "Array", "", fmtIndexed},
	{"System", "Object", "", fmtPointers},
	{"SessionTemps", "SymbolDictionary", "", fmtHashed},
	{"ClassOrganizer", "Object", "environmentId", fmtPointers},
	{"GsFile", "Object", "", fmtPointers},
	{"JsonParser", "Object", "", fmtPointers},
	{"Point", "Object", "x y", fmtPointers},
	{"GsSocket", "Object", "", fmtPointers},
	{"Delay", "Object", "", fmtPointers},
	// Classes a stone has that the model does not model (refusedClasses): they exist so that
	// code naming them compiles, and any message they or their instances do not understand is
	// refused by name.
	{"GsSecureSocket", "GsSocket", "", fmtPointers},
	{"GsTsExternalSession", "Object", "", fmtPointers},
	{"GsNetworkResourceString", "Object", "", fmtPointers},
	{"GsCurrentSession", "Object", "", fmtPointers},
	{"Time", "Object", "", fmtPointers},
	{"DateTime", "Object", "", fmtPointers},
	{"Date", "Object", "", fmtPointers},
	{"BinaryFloat", "Object", "", fmtPointers},
	{"TestAsserter", "Object", "", fmtPointers},
}

// refusedClasses are the classes public 3.7 code compiles against that the model does not
// model, with the evidence that a stone has them. Where the evidence gives a class's superclass
// the model follows it (GsSecureSocket overrides GsSocket's acceptTimeoutMs:); otherwise the
// class's place in the tree is not modelled and it is a subclass of Object.
var refusedClasses = map[string]string{
	"GsSecureSocket":      "GemTalk/mcp_server docs/GemStone_Notes.md, Sockets and TLS",
	"GsTsExternalSession": "GemTalk/mcp_server McpSession.gs",
	// both name the test gem McpGrailToolset forks: GsNetworkResourceString defaultGemNRSFromCurrent,
	// GsCurrentSession currentSession createOnetimePasswordValidForSeconds:
	"GsNetworkResourceString": "GemTalk/mcp_server src/grail/McpGrailToolset.gs, newGrailTestSession",
	"GsCurrentSession":        "GemTalk/mcp_server src/grail/McpGrailToolset.gs, newGrailTestSession",
	// new, wait and signal are modelled (process.go); the rest of Semaphore is refused.
	"Semaphore": "GemTalk/mcp_server McpServer.gs, Semaphore forMutualExclusion",
	"Time":      "GemTalk/Grail benchmarks/PiTestCase.gs, Time millisecondsElapsedTime:",
	"DateTime":  "GemTalk/Rowan's copy of Class>>_subclass:...options:, DateTime now",
	// a kernel class in MagLev's list of GemStone 3.x classes; no public code shows what
	// Date today answers or how a Date prints, so every message to it is refused.
	"Date":         "MagLev/maglev src/smalltalk/ruby/Module_ruby.gs, Module class>>_wrappedSmalltalkClasses",
	"BinaryFloat":  "GemTalk/Grail smalltalk, definingClass == BinaryFloat",
	"TestAsserter": "GemTalk/mcp_server docs/GemStone_Notes.md, SUnit",
}

// Options say how NewImageWith makes an image; the zero value is the default.
type Options struct {
	Log func(string) // receives gem-log lines (GsFile gciLogServer:)
	// HashSeed orders the iteration of hashed collections (dict.go). 0 takes GSMODEL_HASHSEED
	// from the environment when it is set, else a fresh random seed.
	HashSeed uint64
}

// HashSeedEnv names the environment variable that replays a hash order (Options.HashSeed).
const HashSeedEnv = "GSMODEL_HASHSEED"

// NewImage builds a stone with the kernel and one user, DataCurator, whose symbol list is
// UserGlobals, Globals, Published. inv is the shared kernel inventory; log receives gem-log lines.
func NewImage(inv *gscheck.Inventory, log func(string)) (*Image, error) {
	return NewImageWith(inv, Options{Log: log})
}

// NewImageWith is NewImage with every option.
func NewImageWith(inv *gscheck.Inventory, opts Options) (*Image, error) {
	log := opts.Log
	if log == nil {
		log = func(string) {}
	}
	seed, err := chooseHashSeed(opts.HashSeed)
	if err != nil {
		return nil, err
	}
	img := &Image{symbols: map[string]*Object{}, byName: map[string]*Object{}, users: map[string]*Object{},
		inv: inv, log: log, sessions: map[int]*Session{}, memoryLimit: defaultMemoryLimit, hashSeed: seed}
	boot := img.newSession(nil)
	img.bootClasses(boot)
	boot.user = img.users["SystemUser"]
	boot.temps = boot.newObject(img.k.SessionTemps)
	img.installPrimitives(boot)
	img.refuseSecureSockets(boot)
	img.addingPrims(boot)
	img.definitionWithoutOptionsPrims(boot)
	if err := img.fileInKernel(boot); err != nil {
		return nil, err
	}
	img.applyKernelFacts(boot)
	img.commitBoot(boot)
	return img, nil
}

// chooseHashSeed answers the seed asked for, else the environment's, else a random one.
func chooseHashSeed(asked uint64) (uint64, error) {
	if asked != 0 {
		return asked, nil
	}
	if v := os.Getenv(HashSeedEnv); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return 0, fmt.Errorf("gsmodel: %s=%q is not a positive integer seed", HashSeedEnv, v)
		}
		return n, nil
	}
	for {
		if n := rand.Uint64(); n != 0 {
			return n, nil
		}
	}
}

// HashSeed answers the seed that orders this image's hashed collections, to print and replay.
func (img *Image) HashSeed() uint64 { return img.hashSeed }

func (img *Image) newObjectID() uint64 {
	img.mu.Lock()
	defer img.mu.Unlock()
	img.nextID++
	return img.nextID
}

// newSession logs a session in as user (nil while booting).
func (img *Image) newSession(user *Object) *Session {
	img.mu.Lock()
	img.nextSess++
	s := &Session{img: img, id: img.nextSess, user: user, view: img.commit,
		dirty: map[*Object]*State{}, base: map[*Object]int{}, mcache: map[cacheKey]*Method{}}
	img.sessions[s.id] = s
	img.mu.Unlock()
	return s
}

// Login answers a new session of the named user. A user the model has not seen is created on
// first login, with its own UserGlobals and then DataCurator's other dictionaries: the GCI
// stand-in has authenticated the login already, and in the model every user sees what the
// install filed in.
func (img *Image) Login(userID string) (*Session, error) {
	if userID == "" {
		return nil, fmt.Errorf("no user named in the login")
	}
	up := img.users[userID]
	if up == nil {
		up = img.addUser(userID)
	}
	s := img.newSession(up)
	s.temps = s.newObject(img.k.SessionTemps)
	return s, nil
}

// Logout ends a session; its uncommitted changes are discarded.
func (s *Session) Logout() {
	s.endProcesses()
	s.img.mu.Lock()
	delete(s.img.sessions, s.id)
	s.img.mu.Unlock()
}

func (img *Image) kernelClass(name string) *Object {
	c := img.byName[name]
	if c == nil {
		panic("gsmodel: no kernel class " + name)
	}
	return c
}

func (img *Image) bootClasses(s *Session) {
	img.k = &kernel{}
	for _, spec := range kernelClasses {
		var sup *Object
		if spec.super != "" {
			sup = img.byName[spec.super]
		}
		cls := s.makeClass(spec.name, sup, strings.Fields(spec.ivars), nil, spec.format)
		img.byName[spec.name] = cls
	}
	// Metaclasses: every class's class is its metaclass, whose class is Metaclass3; the root
	// metaclass inherits from Class.
	meta := img.byName["Metaclass3"]
	for _, spec := range kernelClasses {
		cls := img.byName[spec.name]
		m := s.rd(cls).class.thisClass
		m.cls = meta
		if spec.super == "" {
			s.wr(m).class.superclass = img.byName["Class"]
		}
	}
	k := img.k
	set := map[string]**Object{"Object": &k.Object, "Behavior": &k.Behavior, "Class": &k.Class,
		"Metaclass3": &k.Metaclass, "UndefinedObject": &k.UndefinedObject, "Boolean": &k.Boolean,
		"Magnitude": &k.Magnitude, "Number": &k.Number, "Integer": &k.Integer,
		"SmallInteger": &k.SmallInteger, "LargeInteger": &k.LargeInteger,
		"Float": &k.Float, "SmallDouble": &k.SmallDouble, "Character": &k.Character,
		"Collection": &k.Collection, "SequenceableCollection": &k.SequenceableCollection,
		"ArrayedCollection": &k.ArrayedCollection, "Array": &k.Array, "ByteArray": &k.ByteArray,
		"CharacterCollection": &k.CharacterCollection, "String": &k.String, "Symbol": &k.Symbol,
		"DoubleByteString": &k.DoubleByteString, "QuadByteString": &k.QuadByteString,
		"Unicode7": &k.Unicode7, "Unicode16": &k.Unicode16, "Unicode32": &k.Unicode32, "Utf8": &k.Utf8,
		"OrderedCollection": &k.OrderedCollection, "SortedCollection": &k.SortedCollection,
		"Interval": &k.Interval, "HashedCollection": &k.HashedCollection, "Set": &k.Set,
		"IdentitySet": &k.IdentitySet, "Bag": &k.Bag, "AbstractDictionary": &k.AbstractDictionary,
		"Dictionary": &k.Dictionary, "KeyValueDictionary": &k.KeyValueDictionary,
		"IdentityKeyValueDictionary": &k.IdentityKeyValueDictionary,
		"IdentityDictionary":         &k.IdentityDictionary, "SymbolDictionary": &k.SymbolDictionary,
		"GsMethodDictionary": &k.GsMethodDictionary, "SymbolSet": &k.SymbolSet, "Association": &k.Association,
		"SymbolAssociation": &k.SymbolAssociation, "Message": &k.Message, "ExecBlock": &k.ExecBlock,
		"GsNMethod": &k.GsNMethod, "AbstractException": &k.AbstractException, "Exception": &k.Exception,
		"Error": &k.Error, "Notification": &k.Notification, "Warning": &k.Warning,
		"ExceptionSet": &k.ExceptionSet, "UserProfile": &k.UserProfile, "System": &k.System,
		"SessionTemps": &k.SessionTemps, "ClassOrganizer": &k.ClassOrganizer, "GsFile": &k.GsFile,
		"JsonParser": &k.JsonParser}
	for name, p := range set {
		*p = img.byName[name]
	}
	// The kernel's method dictionaries and selector sets, made before their classes existed,
	// get them now.
	for _, spec := range kernelClasses {
		cls := img.byName[spec.name]
		for _, side := range []*Object{cls, s.rd(cls).class.thisClass} {
			cd := s.rd(side).class
			cd.methodDict.cls, cd.selectorSet.cls = k.GsMethodDictionary, k.SymbolSet
		}
	}
	// Symbols made before Symbol existed get their class now.
	for _, sym := range img.symbols {
		sym.cls = k.Symbol
	}
	img.globals = s.newDictionary(k.SymbolDictionary)
	s.ivarPut(img.globals, 0, s.symbol("Globals"))
	for _, spec := range kernelClasses {
		s.dictAtPut(img.globals, s.symbol(spec.name), img.byName[spec.name])
		s.wr(img.byName[spec.name]).class.inDictionary = img.globals
	}
	s.dictAtPut(img.globals, s.symbol("Metaclass"), img.byName["Metaclass3"])
	s.dictAtPut(img.globals, s.symbol("Globals"), img.globals)
	img.bindFloatGlobals(s)
	img.published = s.newDictionary(k.SymbolDictionary)
	s.ivarPut(img.published, 0, s.symbol("Published"))
	s.dictAtPut(img.published, s.symbol("Published"), img.published)
	img.newUser(s, "DataCurator")
	img.newUser(s, "SystemUser")
}

// newUser makes a UserProfile with its own UserGlobals before the shared Globals and Published,
// the symbol list of a stock extent (GemTalk/mcp_server docs/GemStone_Notes.md, Dictionaries;
// its suite files classes in with inDictionary: Published).
func (img *Image) newUser(s *Session, id string) *Object {
	up := s.newObject(img.k.UserProfile)
	ug := s.newDictionary(img.k.SymbolDictionary)
	s.ivarPut(ug, 0, s.symbol("UserGlobals"))
	s.dictAtPut(ug, s.symbol("UserGlobals"), ug)
	s.ivarPut(up, 0, s.newString(id))
	s.ivarPut(up, 1, s.newIndexed(img.byName["SymbolList"], []Value{ug, img.globals, img.published}))
	img.users[id] = up
	return up
}

func (img *Image) fileInKernel(s *Session) error {
	names, err := kernelSources.ReadDir("kernel")
	if err != nil {
		return err
	}
	var files []string
	for _, n := range names {
		files = append(files, n.Name())
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := kernelSources.ReadFile("kernel/" + f)
		if err != nil {
			return err
		}
		var out strings.Builder
		t := &Topaz{s: s, out: &out, kernel: true}
		t.Run("kernel/"+f, string(data))
		if t.Errors > 0 {
			return fmt.Errorf("gsmodel: the kernel source %s does not file in:\n%s", f, out.String())
		}
	}
	return nil
}

// commitBoot makes the kernel persistent as commit 0, so that every later change to a kernel
// object (a method added to Object, a global bound in Globals) is a change of some session.
func (img *Image) commitBoot(s *Session) {
	roots := []*Object{img.globals}
	for _, up := range img.users {
		roots = append(roots, up)
	}
	for _, r := range roots {
		img.persistAt(r, 0)
	}
}

func (img *Image) addUser(userID string) *Object {
	s := img.newSession(img.users["SystemUser"])
	up := img.newUser(s, userID)
	dc := img.users["DataCurator"]
	list := s.wr(s.ivarGet(up, 1).(*Object))
	list.ix = list.ix[:1]
	for _, d := range s.elements(s.ivarGet(dc, 1)) {
		if _, ok := s.dictAt(d.(*Object), s.symbol("UserGlobals")); !ok {
			list.ix = append(list.ix, d)
		}
	}
	img.persistRoot(up)
	s.Logout()
	return up
}

// persistRoot commits a new root object (a UserProfile) and everything it reaches.
func (img *Image) persistRoot(root *Object) {
	img.mu.Lock()
	defer img.mu.Unlock()
	if root.st == nil {
		return
	}
	img.commit++
	img.persistAt(root, img.commit)
}

// persistAt makes a transient object, and every transient object it reaches, persistent as of
// commit n.
func (img *Image) persistAt(root *Object, n int) {
	if root.st == nil {
		return
	}
	st := root.st
	root.vers = []version{{n, st}}
	root.st = nil
	img.persist(st, n)
}

// refuseSecureSockets gives GsSecureSocket a refusal for every GsSocket method: a stone's
// GsSecureSocket overrides them with TLS behaviour (its acceptTimeoutMs: raises where GsSocket's
// answers nil; GemTalk/mcp_server docs/GemStone_Notes.md), which the model does not model, so
// inheriting the plaintext ones would answer what a stone does not.
func (img *Image) refuseSecureSockets(s *Session) {
	for _, sel := range s.selectorsOf(img.byName["GsSocket"]) {
		sel := sel
		img.prim(s, "GsSecureSocket", sel, func(s *Session, a Value, x []Value) Value {
			return s.refuse("GsSecureSocket>>#%s: GsSecureSocket is a class a stone has (%s) that the model does not model",
				sel, refusedClasses["GsSecureSocket"])
		})
	}
}
