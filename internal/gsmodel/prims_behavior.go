package gsmodel

import (
	"sort"
	"strings"
)

// Classes: definition (new class versions on a shape change), compiling, and reflection
// (gemstone-smalltalk.md s2, s3).

func (s *Session) symbolNames(v Value) []string {
	if v == nil {
		return nil
	}
	var out []string
	for _, e := range s.elements(v) {
		out = append(out, s.argString(e))
	}
	return out
}

// defineClass is the subclass:instVarNames:classVars:classInstVars:poolDictionaries:
// inDictionary:options: family. An identical redefinition answers the class unchanged; a shape
// change makes a new version with no methods, in the same class history.
func (s *Session) defineClass(super Value, name Value, ivars, cvars, civars, pools, dict, opts Value, f format) Value {
	var sup *Object
	if super != nil {
		sup = s.argClass(super)
	}
	n := s.argString(name)
	d := s.argObj(dict)
	iv, cv, civ := s.symbolNames(ivars), s.symbolNames(cvars), s.symbolNames(civars)
	s.checkDefinition(n, sup, iv, civ, s.symbolNames(opts))
	if sup != nil && f == fmtPointers {
		f = s.rd(sup).class.format
		if f == fmtSpecial {
			f = fmtPointers
		}
	}
	var old *Object
	if v, ok := s.dictAt(d, s.symbol(n)); ok {
		if o, ok := v.(*Object); ok && s.rd(o).class != nil && !s.rd(o).class.isMeta {
			old = o
		}
	}
	if old != nil {
		ocd := s.rd(old).class
		if ocd.superclass == sup && equalNames(ocd.instVarNames, iv) &&
			equalNames(s.rd(ocd.thisClass).class.instVarNames, civ) && ocd.format == f {
			s.addClassVars(old, cv)
			return old
		}
	}
	cls := s.makeClass(n, sup, iv, civ, f)
	s.addClassVars(cls, cv)
	cd := s.wr(cls).class
	cd.inDictionary = d
	for _, p := range s.elementsOrNil(pools) {
		cd.pools = append(cd.pools, s.argObj(p))
	}
	cd.options = s.symbolNames(opts)
	if old != nil {
		hist := append([]*Object(nil), s.rd(old).class.classHistory...)
		hist = append(hist, cls)
		for _, h := range hist {
			s.wr(h).class.classHistory = hist
		}
		ocd := s.rd(old).class
		cd.comment, cd.category = ocd.comment, ocd.category
	}
	s.dictAtPut(d, s.symbol(n), cls)
	return cls
}

func (s *Session) elementsOrNil(v Value) []Value {
	if v == nil {
		return nil
	}
	return s.elements(v)
}

func equalNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (s *Session) addClassVars(cls *Object, names []string) {
	for _, n := range names {
		if _, ok := s.rd(cls).class.classVars[n]; ok {
			continue
		}
		a := s.newObject(s.img.k.SymbolAssociation)
		a.st.iv[0] = s.symbol(n)
		cd := s.wr(cls).class
		cd.classVars[n] = a
		s.wr(cd.thisClass).class.classVars = cd.classVars
	}
}

// methodObject answers the GsNMethod object of a compiled method.
func (s *Session) methodObject(m *Method) *Object {
	if m.obj == nil {
		m.obj = &Object{cls: s.img.k.GsNMethod, st: &State{}, id: s.img.newObjectID(), ext: m}
	}
	return m.obj
}

func (s *Session) methodOf(v Value) *Method {
	o, ok := v.(*Object)
	if ok {
		if m, ok := o.ext.(*Method); ok {
			return m
		}
	}
	s.signalNew("ArgumentTypeError", 2094, "a GsNMethod expected, got "+s.printString(v), nil)
	return nil
}

// compileInto compiles and installs a method; on errors it answers them instead.
func (s *Session) compileInto(cls *Object, src string, dicts []Value, category string, install bool) (*Method, []compileErr, []compileErr) {
	var ds []*Object
	for _, d := range dicts {
		ds = append(ds, s.argObj(d))
	}
	m, errs, warns := s.compileMethod(cls, src, ds)
	if errs != nil {
		return nil, errs, warns
	}
	m.category = category
	if install {
		s.installMethod(cls, m, category)
	}
	return m, nil, warns
}

func (s *Session) errorDetails(errs []compileErr) Value {
	var rows []Value
	for _, e := range errs {
		row := []Value{int64(e.number), int64(e.chars + 1), s.newString(e.text)}
		if e.name != "" {
			row = append(row, nil, s.newString(e.name))
		}
		rows = append(rows, s.newArray(row))
	}
	return s.newArray(rows)
}

func (s *Session) compileErrorText(errs []compileErr) string {
	var parts []string
	for _, e := range errs {
		parts = append(parts, e.text)
	}
	return strings.Join(parts, "; ")
}

// signalCompileError signals CompileError with GemStone's errorDetails.
func (s *Session) signalCompileError(errs []compileErr) Value {
	ex := s.makeException("CompileError", 1001, "", s.errorDetails(errs))
	s.setExField(s.wr(ex), "messageText", s.newString("a CompileError occurred (error 1001), "+s.compileErrorText(errs)))
	return s.signal(ex)
}

func (s *Session) signalWarnings(warns []compileErr) {
	for _, w := range warns {
		ex := s.makeException("CompileWarning", 0, "", s.errorDetails([]compileErr{w}))
		s.setExField(s.wr(ex), "messageText", s.newString("a CompileWarning occurred, "+w.text))
		s.signal(ex)
	}
}

func (img *Image) behaviorPrims(s *Session) {
	img.classShapePrims(s)
	img.methodLookupPrims(s)
	img.methodCategoryPrims(s)
	img.methodCompilePrims(s)
	img.classDescriptionPrims(s)
	img.methodObjectPrims(s)
}

// classShapePrims: defining classes and reading their shape (name, superclass, subclasses,
// instance variables).
func (img *Image) classShapePrims(s *Session) {
	img.prim(s, "Class", "subclass:instVarNames:classVars:classInstVars:poolDictionaries:inDictionary:options:",
		func(s *Session, a Value, x []Value) Value {
			return s.defineClass(a, x[0], x[1], x[2], x[3], x[4], x[5], x[6], fmtPointers)
		})
	img.prim(s, "Class", "subclass:instVarNames:inDictionary:", func(s *Session, a Value, x []Value) Value {
		return s.defineClass(a, x[0], x[1], nil, nil, nil, x[2], nil, fmtPointers)
	})
	img.prim(s, "Behavior", "name", func(s *Session, a Value, x []Value) Value {
		cd := s.rd(s.argClass(a)).class
		if cd.isMeta {
			return s.newString(s.className(a.(*Object)))
		}
		return s.symbol(cd.name)
	})
	img.prim(s, "Behavior", "printString", func(s *Session, a Value, x []Value) Value { return s.newString(s.className(a.(*Object))) })
	img.prim(s, "Behavior", "superclass", func(s *Session, a Value, x []Value) Value {
		if sup := s.rd(a.(*Object)).class.superclass; sup != nil {
			return sup
		}
		return nil
	})
	img.prim(s, "Behavior", "subclasses", func(s *Session, a Value, x []Value) Value {
		var out []Value
		for _, c := range s.subclassesOf(a.(*Object)) {
			out = append(out, c)
		}
		return s.newArray(out)
	})
	img.prim(s, "Behavior", "isMeta", func(s *Session, a Value, x []Value) Value { return s.rd(a.(*Object)).class.isMeta })
	img.prim(s, "Behavior", "theNonMetaClass", func(s *Session, a Value, x []Value) Value {
		cd := s.rd(a.(*Object)).class
		if cd.isMeta {
			return cd.thisClass
		}
		return a
	})
	img.prim(s, "Behavior", "isBehavior", func(s *Session, a Value, x []Value) Value { return true })
	img.prim(s, "Behavior", "inheritsFrom:", func(s *Session, a Value, x []Value) Value {
		return s.inheritsFrom(a.(*Object), s.argClass(x[0]))
	})
	img.prim(s, "Behavior", "instVarNames", func(s *Session, a Value, x []Value) Value {
		return s.symbolArray(s.rd(a.(*Object)).class.instVarNames)
	})
	// The class's own class variables as Symbols (GemTalk/Jasper
	// client/src/refactoring/queries/getDefiningClassOfClassVar.ts walks up asking each class).
	img.prim(s, "Behavior", "classVarNames", func(s *Session, a Value, x []Value) Value {
		cd := s.rd(a.(*Object)).class
		if cd.isMeta {
			cd = s.rd(cd.thisClass).class
		}
		names := make([]string, 0, len(cd.classVars))
		for n := range cd.classVars {
			names = append(names, n)
		}
		sort.Strings(names)
		return s.symbolArray(names)
	})
	img.prim(s, "Behavior", "allInstVarNames", func(s *Session, a Value, x []Value) Value {
		return s.symbolArray(s.allInstVarNames(a.(*Object)))
	})
}

// methodLookupPrims: what a class holds (its selectors, its methods and their source).
func (img *Image) methodLookupPrims(s *Session) {
	img.prim(s, "Behavior", "selectors", func(s *Session, a Value, x []Value) Value {
		var out []Value
		for _, sel := range s.selectorsOf(a.(*Object)) {
			out = append(out, s.symbol(sel))
		}
		return s.newArray(out)
	})
	img.prim(s, "Behavior", "includesSelector:", func(s *Session, a Value, x []Value) Value {
		return s.methodAt(a.(*Object), s.argString(x[0])) != nil
	})
	// A side's environment-0 methods are a GsMethodDictionary of its own, the object a method
	// compiled in two sessions conflicts on (method_dict.go, with the evidence). Other
	// environments (Ruby, Python) hold no methods the model could answer; they are refused.
	img.prim(s, "Behavior", "persistentMethodDictForEnv:", func(s *Session, a Value, x []Value) Value {
		if env := s.argInt(x[0]); env != 0 {
			return s.refuse("persistentMethodDictForEnv: %d (the model has methods in environment 0 only)", env)
		}
		return s.rd(a.(*Object)).class.methodDict
	})
	img.prim(s, "Behavior", "canUnderstand:", func(s *Session, a Value, x []Value) Value {
		return s.lookup(a.(*Object), s.argString(x[0])) != nil
	})
	img.prim(s, "Behavior", "compiledMethodAt:environmentId:otherwise:", func(s *Session, a Value, x []Value) Value {
		if m := s.methodAt(a.(*Object), s.argString(x[0])); m != nil {
			return s.methodObject(m)
		}
		return x[2]
	})
	img.prim(s, "Behavior", "compiledMethodAt:", func(s *Session, a Value, x []Value) Value {
		if m := s.methodAt(a.(*Object), s.argString(x[0])); m != nil {
			return s.methodObject(m)
		}
		return s.selectorNotFound(a, x[0])
	})
	img.prim(s, "Behavior", "sourceCodeAt:", func(s *Session, a Value, x []Value) Value {
		m := s.methodAt(a.(*Object), s.argString(x[0]))
		if m == nil {
			return s.selectorNotFound(a, x[0])
		}
		if m.kernel && m.source == "" {
			return s.refuse("the source of the native kernel method %s>>%s", s.className(a.(*Object)), m.selector)
		}
		return s.newString(m.source)
	})
}

// methodCategoryPrims: method categories, read, moved and renamed.
func (img *Image) methodCategoryPrims(s *Session) {
	img.prim(s, "Behavior", "categoryOfSelector:", func(s *Session, a Value, x []Value) Value {
		c, ok := s.categoriesOf(a.(*Object))[s.argString(x[0])]
		if !ok {
			return nil
		}
		return s.symbol(c)
	})
	img.prim(s, "Behavior", "categoryNames", func(s *Session, a Value, x []Value) Value {
		seen := map[string]bool{}
		var out []string
		for _, c := range s.categoriesOf(a.(*Object)) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
		sort.Strings(out)
		return s.symbolArray(out)
	})
	img.prim(s, "Behavior", "sortedSelectorsIn:", func(s *Session, a Value, x []Value) Value {
		cat := s.argString(x[0])
		var out []string
		for sel, c := range s.categoriesOf(a.(*Object)) {
			if c == cat {
				out = append(out, sel)
			}
		}
		sort.Strings(out)
		return s.symbolArray(out)
	})
	img.prim(s, "Behavior", "moveMethod:toCategory:", func(s *Session, a Value, x []Value) Value {
		sel := s.argString(x[0])
		if s.methodAt(a.(*Object), sel) == nil {
			return s.signalNew("Error", 2020, "the selector #"+sel+" was not found", nil)
		}
		s.setCategory(a.(*Object), sel, s.argString(x[1]))
		return a
	})
	img.prim(s, "Behavior", "renameCategory:to:", func(s *Session, a Value, x []Value) Value {
		from, to := s.argString(x[0]), s.argString(x[1])
		var moved []string
		for sel, c := range s.categoriesOf(a.(*Object)) {
			if c == from {
				moved = append(moved, sel)
			}
		}
		for _, sel := range moved {
			s.setCategory(a.(*Object), sel, to)
		}
		return a
	})
}

// methodCompilePrims: installing and removing methods (the compileMethod: family,
// removeSelector:).
func (img *Image) methodCompilePrims(s *Session) {
	img.prim(s, "Behavior", "removeSelector:", func(s *Session, a Value, x []Value) Value {
		if !s.removeMethod(a.(*Object), s.argString(x[0])) {
			return s.selectorNotFound(a, x[0])
		}
		return a
	})
	img.prim(s, "Behavior", "removeAllMethods", func(s *Session, a Value, x []Value) Value {
		s.removeAllMethods(a.(*Object))
		return a
	})
	// The environmentId: forms answer the GsNMethod or signal the CompileError;
	// ...intoMethodDict:intoCategories:environmentId: compiles without installing.
	compileMethod := func(install bool) primFn {
		return func(s *Session, a Value, x []Value) Value {
			m, errs, warns := s.compileInto(a.(*Object), s.argString(x[0]), s.elements(x[1]), s.argString(x[2]), install)
			if errs != nil {
				return s.signalCompileError(errs)
			}
			s.signalWarnings(warns)
			return s.methodObject(m)
		}
	}
	img.prim(s, "Behavior", "compileMethod:dictionaries:category:environmentId:", compileMethod(true))
	img.prim(s, "Behavior", "compileMethod:dictionaries:category:", func(s *Session, a Value, x []Value) Value {
		_, errs, _ := s.compileInto(a.(*Object), s.argString(x[0]), s.elements(x[1]), s.argString(x[2]), true)
		if errs != nil {
			return s.errorDetails(errs)
		}
		return nil
	})
	img.prim(s, "Behavior", "compileMethod:dictionaries:category:intoMethodDict:intoCategories:environmentId:", compileMethod(false))
}

// classDescriptionPrims: a class described (its history, comment, category, definition).
func (img *Image) classDescriptionPrims(s *Session) {
	img.prim(s, "Behavior", "classHistory", func(s *Session, a Value, x []Value) Value {
		var out []Value
		for _, c := range s.rd(a.(*Object)).class.classHistory {
			out = append(out, c)
		}
		return s.newArray(out)
	})
	img.prim(s, "Behavior", "comment", func(s *Session, a Value, x []Value) Value { return s.rd(s.nonMeta(a)).class.comment })
	img.prim(s, "Behavior", "comment:", func(s *Session, a Value, x []Value) Value {
		s.wr(s.nonMeta(a)).class.comment = x[0]
		return a
	})
	img.prim(s, "Behavior", "category", func(s *Session, a Value, x []Value) Value { return s.rd(s.nonMeta(a)).class.category })
	img.prim(s, "Behavior", "category:", func(s *Session, a Value, x []Value) Value {
		s.wr(s.nonMeta(a)).class.category = x[0]
		return a
	})
	img.prim(s, "Behavior", "definition", func(s *Session, a Value, x []Value) Value { return s.newString(s.definition(s.nonMeta(a))) })
}

// methodObjectPrims: GsNMethod, a compiled method as an object.
func (img *Image) methodObjectPrims(s *Session) {
	img.prim(s, "GsNMethod", "selector", func(s *Session, a Value, x []Value) Value {
		if m := s.homeMethodOnly(a, "selector"); !m.doit {
			return s.symbol(m.selector)
		}
		return nil
	})
	img.prim(s, "GsNMethod", "inClass", func(s *Session, a Value, x []Value) Value {
		if m := s.homeMethodOnly(a, "inClass"); !m.doit {
			return m.class
		}
		return nil
	})
	img.prim(s, "GsNMethod", "sourceString", func(s *Session, a Value, x []Value) Value {
		m := s.methodOf(a)
		if m.kernel && m.source == "" {
			return s.refuse("the source of the native kernel method %s>>%s", s.className(m.class), m.selector)
		}
		return s.newString(m.source)
	})
	img.prim(s, "GsNMethod", "environmentId", func(s *Session, a Value, x []Value) Value { return int64(s.methodOf(a).envID) })
	img.prim(s, "GsNMethod", "instVarsRead", func(s *Session, a Value, x []Value) Value { return s.symbolArray(s.methodOf(a).ivRead) })
	img.prim(s, "GsNMethod", "instVarsWritten", func(s *Session, a Value, x []Value) Value {
		return s.symbolArray(s.methodOf(a).ivWrite)
	})
	img.prim(s, "GsNMethod", "printString", func(s *Session, a Value, x []Value) Value {
		m := s.methodOf(a)
		return s.newString(s.className(m.class) + ">>" + m.selector)
	})
}

func (s *Session) nonMeta(v Value) *Object {
	o := s.argClass(v)
	if cd := s.rd(o).class; cd.isMeta {
		return cd.thisClass
	}
	return o
}

func (s *Session) symbolArray(names []string) Value {
	out := make([]Value, len(names))
	for i, n := range names {
		out[i] = s.symbol(n)
	}
	return s.newArray(out)
}

// definition answers the class-definition message as source, in the file-out form.
func (s *Session) definition(cls *Object) string {
	cd := s.rd(cls).class
	sup := "nil"
	if cd.superclass != nil {
		sup = s.className(cd.superclass)
	}
	names := func(l []string) string {
		if len(l) == 0 {
			return "#()"
		}
		return "#( " + strings.Join(l, " ") + ")"
	}
	var cvs []string
	for n := range cd.classVars {
		cvs = append(cvs, n)
	}
	sort.Strings(cvs)
	dict, ok := s.dictionaryName(cd.inDictionary)
	if !ok {
		s.refuse("the definition of %s, whose dictionary has no name (what a stone prints after inDictionary: is not attested)", cd.name)
	}
	return sup + " subclass: '" + cd.name + "'\n  instVarNames: " + names(cd.instVarNames) +
		"\n  classVars: " + names(cvs) + "\n  classInstVars: " + names(s.rd(cd.thisClass).class.instVarNames) +
		"\n  poolDictionaries: #()\n  inDictionary: " + dict + "\n  options: " + names(cd.options)
}

// selectorNotFound signals the error of a reflective lookup of a selector the class lacks.
func (s *Session) selectorNotFound(cls, sel Value) Value {
	return s.signalNew("Error", 2020, "the selector #"+s.argString(sel)+" was not found in "+s.className(cls.(*Object)), nil)
}

// subclassesOf answers the classes of the session's symbol list whose superclass is cls (for a
// metaclass, their metaclasses). A stone derives them the same way: an unbound class is gone
// from TestCase subclasses (GemTalk/mcp_server docs/GemStone_Notes.md, Dictionaries), and
// creating a subclass writes the superclass only when it keeps a subclasses set (the #modifiable
// option; GemTalk/Rowan's copy of Class>>_subclass:...options:, subclasses ifNotNil: [...]), so
// two sessions creating unrelated subclasses of one class do not conflict.
func (s *Session) subclassesOf(cls *Object) []*Object {
	cd := s.rd(cls).class
	target := cls
	if cd.isMeta {
		target = cd.thisClass
	}
	var out []*Object
	for _, c := range s.allClasses() {
		if s.rd(c).class.superclass == target {
			if cd.isMeta {
				c = s.rd(c).class.thisClass
			}
			out = append(out, c)
		}
	}
	return out
}

// dictionaryName answers a SymbolDictionary's name: the key under which it holds itself, as
// SymbolDictionary>>name is keyAtValue: self (GemTalk/mcp_server docs/GemStone_Notes.md).
func (s *Session) dictionaryName(d *Object) (string, bool) {
	if d == nil || s.rd(d).dict == nil {
		return "", false
	}
	name, found := "", false
	s.rd(d).dict.each(func(k, v Value) {
		if !found && identical(s.assocValue(v.(*Object)), d) {
			name, found = s.str(k)
		}
	})
	return name, found
}

// classOptions are the options GemStone's subclass creation documents (GemTalk/Rowan, the 3.6x
// kernel-extension copy of Class>>_subclass:...options:), with logCreation
// (feenkcom/gt4gemstone src-gs/gt4gemstone.gs).
var classOptions = map[string]bool{"noInheritOptions": true, "subclassesDisallowed": true,
	"disallowGciStore": true, "modifiable": true, "traverseByCallback": true, "dbTransient": true,
	"instancesNonPersistent": true, "instancesInvariant": true, "logCreation": true}

// checkDefinition refuses, before anything changes, a definition a stone refuses. An instance
// variable declared twice or already declared by a superclass is GemStone's rtErrAddDupInstvar
// (GemTalk/Grail smalltalk/ClassDefAst.gs; its error number is not attested, so the model's
// Error carries none); a class-instance variable declared twice is ImproperOperation (GemTalk/
// Rowan's copy of Class>>_subclass:...options:). A stone also validates the class name
// (_validateNewClassName:) and the options (_validateOptions:...), with errors that are not
// attested, and what it does with a pseudo-variable as a variable is not attested either: the
// model refuses those by name.
func (s *Session) checkDefinition(name string, sup *Object, iv, civ, opts []string) {
	if !isIdentifier(name) {
		s.refuse("the class name %q, which a stone's _validateNewClassName: checks (its error is not attested)", name)
	}
	for _, o := range opts {
		if !classOptions[o] {
			s.refuse("the class option #%s, which a stone's _validateOptions: checks (its error is not attested)", o)
		}
	}
	var inherited, inheritedCiv []string
	if sup != nil {
		inherited = s.allInstVarNames(sup)
		inheritedCiv = s.allInstVarNames(s.rd(sup).class.thisClass)
	}
	s.checkVariables(iv, inherited, "instance variable")
	seen := map[string]bool{}
	for _, v := range civ {
		if seen[v] {
			s.signalNew("ImproperOperation", 2717, "array of new class instanceVariables contains a duplicate #"+v, nil)
		}
		seen[v] = true
	}
	s.checkVariables(civ, inheritedCiv, "class-instance variable")
}

func (s *Session) checkVariables(names, inherited []string, kind string) {
	seen := map[string]bool{}
	for _, v := range inherited {
		seen[v] = true
	}
	for _, v := range names {
		if !isIdentifier(v) || pseudoVariables[v] {
			s.refuse("the %s name %q (what a stone answers is not attested)", kind, v)
		}
		if seen[v] {
			s.signalNew("Error", 0, "rtErrAddDupInstvar: the "+kind+" "+v+" is already declared", nil)
		}
		seen[v] = true
	}
}

var pseudoVariables = map[string]bool{"self": true, "super": true, "true": true, "false": true,
	"nil": true, "thisContext": true}

func isIdentifier(name string) bool {
	for i, c := range name {
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return name != ""
}

// refusedClassOf answers the name of the refused class rcv is, or is an instance of.
func (s *Session) refusedClassOf(rcv Value) (string, bool) {
	cls := s.classOf(rcv)
	if o, ok := rcv.(*Object); ok && s.rd(o).class != nil {
		cls = s.nonMeta(o)
	}
	name := s.rd(cls).class.name
	if _, ok := refusedClasses[name]; ok && s.img.byName[name] == cls {
		return name, true
	}
	return "", false
}
