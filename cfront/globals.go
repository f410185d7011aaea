package cfront

import (
	"sort"
	"strings"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file declares the file-scope variables as shared variables.

// isInteger reports whether t is an integer type of the contract (enums
// and _Bool included).
func isInteger(t cc.Type) bool {
	if t == nil {
		return false
	}
	return cc.IsIntegerType(t) || t.Kind() == cc.Enum || t.Kind() == cc.Bool
}

// typedefIs reports whether t was declared through a typedef named one of
// names (through typedefs of typedefs too).
func typedefIs(t cc.Type, names ...string) bool {
	for d := t.Typedef(); d != nil; {
		for _, n := range names {
			if d.Name() == n {
				return true
			}
		}
		next := d.Type().Typedef()
		if next == d {
			break
		}
		d = next
	}
	return false
}

// isAtomicType reports whether t is _Atomic: through a typedef such as
// atomic_int (whose declarator is _Atomic), or the declarator itself.
func isAtomicType(t cc.Type, d *cc.Declarator) bool {
	if d != nil && d.IsAtomic() && (t == nil || t.Kind() != cc.Ptr) {
		return true
	}
	for td := t.Typedef(); td != nil; {
		if td.IsAtomic() {
			return true
		}
		next := td.Type().Typedef()
		if next == td {
			break
		}
		td = next
	}
	return false
}

// specifiersAtomic reports whether a declaration's specifiers say _Atomic.
func specifiersAtomic(ds *cc.DeclarationSpecifiers) bool {
	for ; ds != nil; ds = ds.DeclarationSpecifiers {
		if ds.Case == cc.DeclarationSpecifiersTypeQual && ds.TypeQualifier != nil && ds.TypeQualifier.Case == cc.TypeQualifierAtomic {
			return true
		}
		if ds.Case == cc.DeclarationSpecifiersTypeSpec && ds.TypeSpecifier != nil && ds.TypeSpecifier.Case == cc.TypeSpecifierAtomic {
			return true
		}
	}
	return false
}

func specifiersVolatile(ds *cc.DeclarationSpecifiers) bool {
	for ; ds != nil; ds = ds.DeclarationSpecifiers {
		if ds.Case == cc.DeclarationSpecifiersTypeQual && ds.TypeQualifier != nil && ds.TypeQualifier.Case == cc.TypeQualifierVolatile {
			return true
		}
	}
	return false
}

func specifiersThreadLocal(ds *cc.DeclarationSpecifiers) bool {
	for ; ds != nil; ds = ds.DeclarationSpecifiers {
		if ds.Case == cc.DeclarationSpecifiersStorage && ds.StorageClassSpecifier != nil {
			switch ds.StorageClassSpecifier.Case {
			case cc.StorageClassSpecifierThreadLocal, cc.StorageClassSpecifierDeclspec:
				return true
			}
		}
	}
	return false
}

// fileDecl declares the variables of a file-scope declaration.
func (t *translator) fileDecl(d *cc.Declaration) {
	if d.Case != cc.DeclarationDecl {
		return // _Static_assert, checked by cc
	}
	for l := d.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		id := l.InitDeclarator
		dcl := id.Declarator
		if dcl == nil || dcl.IsTypename() {
			continue
		}
		typ := dcl.Type()
		if typ.Kind() == cc.Function {
			continue // a declaration of a function
		}
		name := dcl.Name()
		t.fileScope[dcl] = name
		if id.Initializer != nil {
			t.inits[name] = id.Initializer
		}
		if dcl.IsExtern() && id.Initializer == nil {
			continue // a declaration of an object defined elsewhere (or later)
		}
		if g := t.globalNames[name]; g != nil {
			// A tentative definition and the definition ("int x; int x =
			// 1;"): one object.
			t.globals[dcl] = g
			if id.Initializer != nil {
				t.globalInit(g, typ, id.Initializer, t.pos(dcl))
			}
			continue
		}
		if _, ok := t.unmodelled[name]; ok {
			continue
		}
		if u := t.tryDeclare(d, dcl, id.Initializer); u != nil {
			// Not modelled: ignored while nothing uses it (lookup refuses
			// a use with this message, at the declaration).
			t.unmodelled[name] = *u
		}
	}
}

// tryDeclare declares the file-scope variable dcl, or returns why it is
// not modelled (and declares nothing).
func (t *translator) tryDeclare(d *cc.Declaration, dcl *cc.Declarator, init *cc.Initializer) (u *unsupported) {
	n := len(t.order)
	defer func() {
		if r := recover(); r != nil {
			x, ok := r.(unsupported)
			if !ok {
				panic(r)
			}
			for _, v := range t.order[n:] {
				delete(t.sharedNames, v.name)
				for k := 0; k < v.size; k++ {
					delete(t.sharedNames, v.elemName(k))
				}
			}
			t.order = t.order[:n]
			u = &x
		}
	}()
	if specifiersThreadLocal(d.DeclarationSpecifiers) {
		refuse(t.pos(dcl), "thread-local variable %s", dcl.Name())
	}
	t.declareGlobal(d, dcl, init)
	return nil
}

// globalOf returns the global that the file-scope declarator d declares
// (by any of its declarations), or nil; for a file-scope variable that is
// not modelled, nil and why.
func (t *translator) globalOf(d *cc.Declarator) (*global, *unsupported) {
	if g, ok := t.globals[d]; ok {
		return g, nil
	}
	name, ok := t.fileScope[d]
	if !ok {
		return nil, nil
	}
	if g := t.globalNames[name]; g != nil {
		t.globals[d] = g
		return g, nil
	}
	if u, ok := t.unmodelled[name]; ok {
		return nil, &u
	}
	return nil, nil
}

func (t *translator) declareGlobal(d *cc.Declaration, dcl *cc.Declarator, init *cc.Initializer) {
	name, pos, typ := dcl.Name(), t.pos(dcl), dcl.Type()
	if pos == cs.NoPos {
		pos = t.pos(d)
	}
	atomic := isAtomicType(typ, dcl) || specifiersAtomic(d.DeclarationSpecifiers)
	volatile := dcl.IsVolatile() || specifiersVolatile(d.DeclarationSpecifiers) || typ.Attributes().IsVolatile()
	g := &global{size: -1}
	newVar := func(cname, want string, size int, et cc.Type, fieldAtomic, fieldVolatile bool) *shvar {
		v := &shvar{
			name: uniqueName(want, t.taken), cname: cname, size: size, typ: et, pos: pos,
			atomic: atomic || fieldAtomic, volatile: volatile || fieldVolatile,
			readers: map[string]bool{}, writers: map[string]bool{}, accessors: map[string]bool{}, decl: dcl,
		}
		t.sharedNames[v.name] = true
		n := size
		if n < 0 {
			n = 1
		}
		v.init = make([]int64, n)
		for k := 0; size >= 0 && k < n; k++ {
			t.taken[v.elemName(k)] = 1
			t.sharedNames[v.elemName(k)] = true
		}
		t.order = append(t.order, v)
		return v
	}
	elem, size := typ, -1
	if at, ok := typ.(*cc.ArrayType); ok {
		if at.IsVLA() || at.Len() <= 0 {
			refuse(pos, "array %s without a constant size", name)
		}
		if at.Len() > 4096 {
			refuse(pos, "array %s of %d elements (at most 4096)", name, at.Len())
		}
		elem, size = at.Elem(), int(at.Len())
		if _, ok := elem.(*cc.ArrayType); ok {
			refuse(pos, "multi-dimensional array %s", name)
		}
		atomic = atomic || isAtomicType(elem, nil)
		volatile = volatile || elem.Attributes().IsVolatile()
	}
	switch {
	case typedefIs(elem, "pthread_mutex_t", "mtx_t"):
		g.v = newVar(name, name, size, elem, false, false)
		g.v.mutex = true
	case typedefIs(elem, "pthread_t", "thrd_t", "pthread_attr_t"):
		return // thread handles: main's bookkeeping, not shared memory
	case typedefIs(elem, "atomic_flag"):
		g.v = newVar(name, name, size, elem, true, false)
	case isInteger(elem):
		g.v = newVar(name, name, size, elem, false, false)
	case elem.Kind() == cc.Struct:
		st := elem.(*cc.StructType)
		g.fields, g.size = map[string]*shvar{}, size
		for i := 0; i < st.NumFields(); i++ {
			f := st.FieldByIndex(i)
			ft := f.Type()
			if !isInteger(ft) || f.IsBitfield() {
				refuse(pos, "field %s of %s: only integer fields are supported", f.Name(), name)
			}
			fa, fv := false, ft.Attributes().IsVolatile()
			if fd := f.Declarator(); fd != nil {
				fa = isAtomicType(ft, fd)
			}
			fa = fa || isAtomicType(ft, nil)
			g.fields[f.Name()] = newVar(name+"."+f.Name(), name+"_"+f.Name(), size, ft, fa, fv)
		}
	case elem.Kind() == cc.Ptr:
		refuse(pos, "pointer variable %s", name)
	case elem.Kind() == cc.Union:
		refuse(pos, "union %s", name)
	default:
		refuse(pos, "variable %s of type %s", name, elem)
	}
	t.globals[dcl] = g
	t.globalNames[name] = g
	if init != nil {
		t.globalInit(g, typ, init, pos)
	}
	if g.v != nil && !g.v.atomic && !g.v.volatile && (dcl.IsConst() || isConstType(typ)) {
		g.v.isConst = true
	}
}

// globalInit sets the initial values of g from its initializer: every leaf
// of the initializer is a constant at a byte offset of the object.
func (t *translator) globalInit(g *global, typ cc.Type, init *cc.Initializer, pos cs.Pos) {
	if g.v != nil && g.v.mutex {
		return // PTHREAD_MUTEX_INITIALIZER: unlocked
	}
	var leaves []*cc.Initializer
	var walk func(in *cc.Initializer)
	walk = func(in *cc.Initializer) {
		if in.Case == cc.InitializerExpr {
			leaves = append(leaves, in)
			return
		}
		for l := in.InitializerList; l != nil; l = l.InitializerList {
			if l.Initializer != nil {
				walk(l.Initializer)
			}
		}
	}
	walk(init)
	elemSize := typ.Size()
	if at, ok := typ.(*cc.ArrayType); ok {
		elemSize = at.Elem().Size()
	}
	for _, in := range leaves {
		v, ok := constValue(in.AssignmentExpression)
		if !ok {
			refuse(t.pos(in), "initial value that is not a constant")
		}
		off := in.Offset()
		k := 0
		if elemSize > 0 {
			k = int(off / elemSize)
		}
		var sv *shvar
		if g.v != nil {
			sv = g.v
		} else {
			within := off - int64(k)*elemSize
			if f := in.Field(); f != nil {
				sv = g.fields[f.Name()]
			}
			if sv == nil {
				sv = t.fieldAt(g, typ, within)
			}
		}
		if sv == nil || k < 0 || k >= len(sv.init) {
			refuse(t.pos(in), "initializer of this shape")
		}
		if sv.typ != nil && sv.typ.Kind() == cc.Bool {
			v = b2i(v != 0)
		}
		sv.init[k] = v
	}
}

// fieldAt returns the field of a struct (or array of structs) g at the
// byte offset off within one struct.
func (t *translator) fieldAt(g *global, typ cc.Type, off int64) *shvar {
	st, ok := typ.(*cc.StructType)
	if at, isArr := typ.(*cc.ArrayType); isArr {
		st, ok = at.Elem().(*cc.StructType)
	}
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.FieldByIndex(i)
		if f.Offset() == off {
			return g.fields[f.Name()]
		}
	}
	return nil
}

// constValue is the value cc computed for a constant expression.
func constValue(e cc.ExpressionNode) (int64, bool) {
	if e == nil {
		return 0, false
	}
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	}
	return 0, false
}

// isConstType reports whether t (or, for an array, its element type) is
// const-qualified.
func isConstType(t cc.Type) bool {
	if at, ok := t.(*cc.ArrayType); ok {
		t = at.Elem()
	}
	return t.Attributes().IsConst()
}

// noteUnmodelled notes the file-scope variables left unmodelled (the
// translation refuses any use of one, so those it ends with are unused),
// in the order of the file.
func (t *translator) noteUnmodelled() {
	names := make([]string, 0, len(t.unmodelled))
	for name := range t.unmodelled {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return t.unmodelled[names[i]].pos < t.unmodelled[names[j]].pos })
	for _, name := range names {
		u := t.unmodelled[name]
		t.note(u.pos, "%s is not used: ignored (%s)", name, strings.TrimPrefix(u.msg, "unsupported: "))
	}
}
