package gsmodel

import "sort"

// Where a class keeps its methods. On a stone each side of a class holds its environment-0
// methods in a GsMethodDictionary of its own, selector to GsNMethod, which
// Behavior>>persistentMethodDictForEnv: answers (GsDevKit/GsDevKit_upgrade
// filetree/GsDevKit_upgrade-Core.package/GsuAbstractGsDevKitUpgrade.class/instance/
// _prepareGsDevKitImage_validate_user_methods.st walks `(aClass persistentMethodDictForEnv: 0)
// values` for the methods to recompile, on both sides; MagLev/maglev
// src/smalltalk/ruby/Behavior_ruby.gs, persistentMethodDictForEnv:put:, keeps one per
// environment, nil until set).
// Compiling a method writes that dictionary and a per-class SymbolSet, not the class: two
// sessions compiling different selectors of one class conflict on exactly those two objects,
// two sessions compiling into different classes never conflict (GemTalk/mcp_server
// docs/blind-write-guardrail.md, measurements E, I and J on 3.7.5; docs/GemStone_Notes.md,
// "Compiling a method conflicts at CLASS granularity"). Whether the set is one per class side
// or one per method category (a stone's categories per environment are a GsMethodDictionary
// of their own, MagLev's Behavior>>_categoriesForEnv:put:) is not attested; the model keeps
// one per side, holding the side's selectors, with each selector's category beside them.
//
// The model makes both objects with the class, so persistentMethodDictForEnv: 0 answers a
// dictionary for a side with no methods where a stone may answer nil; no project code depends
// on that difference (it tests identity only).

// newMethodDictionary makes a side's method dictionary. During the boot the class
// GsMethodDictionary does not exist yet; bootClasses gives the kernel's dictionaries their class.
func (s *Session) newMethodDictionary() *Object {
	var cls *Object
	if k := s.img.k; k != nil {
		cls = k.GsMethodDictionary
	}
	return &Object{cls: cls, st: &State{dict: newDictData(true, s.img.hashSeed)}, id: s.img.newObjectID()}
}

// newSelectorSet makes a side's selector set, the SymbolSet a compile writes beside the method
// dictionary.
func (s *Session) newSelectorSet() *Object {
	var cls *Object
	if k := s.img.k; k != nil {
		cls = k.SymbolSet
	}
	st := &State{dict: newDictData(true, s.img.hashSeed), cats: map[string]string{}}
	return &Object{cls: cls, st: st, id: s.img.newObjectID()}
}

// methodAt answers the method a side of a class defines for sel in this session's view, or nil.
// A value that is not a GsNMethod (code may store anything with at:put:) defines nothing.
func (s *Session) methodAt(cls *Object, sel string) *Method {
	sym := s.existingSymbol(sel)
	if sym == nil {
		return nil
	}
	return s.methodIn(s.rd(cls).class, sym)
}

func (s *Session) methodIn(cd *classData, sym *Object) *Method {
	d := s.rd(cd.methodDict).dict
	i := s.dictFind(d, sym)
	if i < 0 {
		return nil
	}
	if o, ok := d.vals[i].(*Object); ok {
		if m, ok := o.ext.(*Method); ok {
			return m
		}
	}
	return nil
}

// existingSymbol answers the Symbol for text if there is one: a selector without a Symbol is
// defined nowhere, and looking one up makes none.
func (s *Session) existingSymbol(text string) *Object {
	s.img.mu.Lock()
	defer s.img.mu.Unlock()
	return s.img.symbols[text]
}

// selectorsOf answers a side's own selectors, sorted.
func (s *Session) selectorsOf(cls *Object) []string {
	var out []string
	s.rd(s.rd(cls).class.methodDict).dict.each(func(k, v Value) {
		if name, ok := s.str(k); ok {
			if o, ok := v.(*Object); ok {
				if _, ok := o.ext.(*Method); ok {
					out = append(out, name)
				}
			}
		}
	})
	sort.Strings(out)
	return out
}

// categoriesOf answers a side's selector -> category map as this session sees it; the caller
// only reads it.
func (s *Session) categoriesOf(cls *Object) map[string]string {
	return s.rd(s.rd(cls).class.selectorSet).cats
}

// installMethod puts m into a side under its selector and category: the method dictionary and
// the selector set change, the class does not.
func (s *Session) installMethod(cls *Object, m *Method, category string) {
	cd := s.rd(cls).class
	sym := s.symbol(m.selector)
	s.dictPut(s.wr(cd.methodDict).dict, sym, s.methodObject(m))
	set := s.wr(cd.selectorSet)
	s.dictPut(set.dict, sym, nil)
	set.cats[m.selector] = category
	s.flushMethodCache()
}

// removeMethod takes sel out of a side; it answers false when the side does not define it.
func (s *Session) removeMethod(cls *Object, sel string) bool {
	if s.methodAt(cls, sel) == nil {
		return false
	}
	cd := s.rd(cls).class
	sym := s.symbol(sel)
	s.dictRemove(s.wr(cd.methodDict).dict, sym)
	set := s.wr(cd.selectorSet)
	s.dictRemove(set.dict, sym)
	delete(set.cats, sel)
	s.flushMethodCache()
	return true
}

// removeAllMethods empties a side's method dictionary and selector set.
func (s *Session) removeAllMethods(cls *Object) {
	for _, sel := range s.selectorsOf(cls) {
		s.removeMethod(cls, sel)
	}
}

// setCategory files sel under category; only the selector set changes.
func (s *Session) setCategory(cls *Object, sel, category string) {
	s.wr(s.rd(cls).class.selectorSet).cats[sel] = category
}
