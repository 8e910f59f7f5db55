//! The [`Context`]: owner of every operation, block, region and value, and of the uniqued types
//! and attributes.
//!
//! IR nodes are addressed by small copyable ids ([`OpId`], [`BlockId`], [`RegionId`], [`Value`]).
//! Ops in a block form an intrusive doubly linked list, so insertion, erasure and moves are O(1);
//! each value keeps its use list, so replace-all-uses touches only the users.

use crate::attrs::{Attr, AttrKind, Location};
use crate::opdef::OpDef;
use crate::typedef::{AsAny, DialectValue, SymbolDef, SymbolError};
use crate::types::{FloatKind, Signedness, Type, TypeKind};
use indexmap::IndexMap;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Interning tables hash with FxHash: keys are small and trusted, and SipHash's cost showed up
/// as the top item when parsing large files.
type IndexSet<T> = indexmap::IndexSet<T, rustc_hash::FxBuildHasher>;

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub struct $name(pub(crate) u32);
        impl $name {
            /// The raw arena index, for dense side tables.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// An operation in the context's arena.
    OpId
);
id_type!(
    /// A block in the context's arena.
    BlockId
);
id_type!(
    /// A region in the context's arena.
    RegionId
);
id_type!(
    /// An SSA value: an op result or a block argument.
    Value
);
id_type!(
    /// An interned operation name such as `arith.addi`.
    OpName
);

/// Where a value comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueDef {
    /// Result `index` of `op`.
    Result(OpId, u32),
    /// Argument `index` of `block`.
    BlockArg(BlockId, u32),
}

/// One use of a value: operand `index` of `op`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Use {
    pub op: OpId,
    pub index: u32,
}

/// Value payload.
#[derive(Clone, Debug)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
    /// Block arguments carry their own location (`^bb0(%a: i32 loc(...))`).
    pub loc: Option<Attr>,
    pub(crate) uses: UseList,
}

/// A value's uses: most values have one or two, kept in place; more spill to the heap.
pub(crate) type UseList = SmallList<Use>;

/// An op's operands: most ops have one or two, kept in place; more spill to the heap.
pub(crate) type OperandList = SmallList<Value>;

/// An element of a [`SmallList`]: `EMPTY` marks an unused inline slot and is never stored.
pub(crate) trait Slot: Copy + PartialEq {
    const EMPTY: Self;
}

impl Slot for Use {
    const EMPTY: Use = Use {
        op: OpId(u32::MAX),
        index: u32::MAX,
    };
}

impl Slot for Value {
    const EMPTY: Value = Value(u32::MAX);
}

/// A list of small ids with room for two in place (no allocation for the common short lists).
#[derive(Clone, Debug)]
pub(crate) enum SmallList<T: Slot> {
    /// Up to two elements; unused slots (always the last ones) hold `T::EMPTY`.
    Inline([T; 2]),
    Heap(Vec<T>),
}

impl<T: Slot> Default for SmallList<T> {
    fn default() -> Self {
        SmallList::Inline([T::EMPTY; 2])
    }
}

impl<T: Slot> SmallList<T> {
    fn from_vec(v: Vec<T>) -> Self {
        match v.len() {
            0 => Self::default(),
            1 => SmallList::Inline([v[0], T::EMPTY]),
            2 => SmallList::Inline([v[0], v[1]]),
            _ => SmallList::Heap(v),
        }
    }
    fn inline_len(a: &[T; 2]) -> usize {
        if a[0] == T::EMPTY {
            0
        } else if a[1] == T::EMPTY {
            1
        } else {
            2
        }
    }
    pub(crate) fn as_slice(&self) -> &[T] {
        match self {
            SmallList::Inline(a) => &a[..Self::inline_len(a)],
            SmallList::Heap(v) => v,
        }
    }
    fn as_mut_slice(&mut self) -> &mut [T] {
        match self {
            SmallList::Inline(a) => {
                let n = Self::inline_len(a);
                &mut a[..n]
            }
            SmallList::Heap(v) => v,
        }
    }
    fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }
    fn push(&mut self, u: T) {
        match self {
            SmallList::Inline(a) => match Self::inline_len(a) {
                0 => a[0] = u,
                1 => a[1] = u,
                _ => {
                    let mut v = Vec::with_capacity(4);
                    v.extend_from_slice(a);
                    v.push(u);
                    *self = SmallList::Heap(v);
                }
            },
            SmallList::Heap(v) => v.push(u),
        }
    }
    /// Removes the element at `i`, keeping the others in order; returns it.
    fn remove(&mut self, i: usize) -> T {
        match self {
            SmallList::Inline(a) => {
                let x = a[i];
                if i == 0 {
                    a[0] = a[1];
                }
                a[1] = T::EMPTY;
                x
            }
            SmallList::Heap(v) => v.remove(i),
        }
    }
    /// Keeps the elements for which `keep` holds, in order.
    fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        match self {
            SmallList::Inline(a) => {
                let mut kept = [T::EMPTY; 2];
                let mut n = 0;
                for x in &a[..Self::inline_len(a)] {
                    if keep(x) {
                        kept[n] = *x;
                        n += 1;
                    }
                }
                *a = kept;
            }
            SmallList::Heap(v) => v.retain(|x| keep(x)),
        }
    }
    fn extend(&mut self, other: SmallList<T>) {
        match (&mut *self, other) {
            (SmallList::Heap(v), other) => v.extend_from_slice(other.as_slice()),
            (_, other) => {
                for &u in other.as_slice() {
                    self.push(u);
                }
            }
        }
    }
}

impl<T: Slot> std::ops::Index<usize> for SmallList<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

impl<T: Slot> std::ops::IndexMut<usize> for SmallList<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.as_mut_slice()[i]
    }
}

/// Regions and successors, which most ops do not have: kept out of line, so an op without
/// them pays one pointer.
#[derive(Clone, Debug, Default)]
pub(crate) struct OpExtra {
    pub(crate) regions: Vec<RegionId>,
    pub(crate) successors: Vec<BlockId>,
}

/// Operation payload.
#[derive(Clone, Debug)]
pub struct OpData {
    pub name: OpName,
    pub(crate) operands: OperandList,
    /// Results are created together, so they are consecutive values: the first and the count.
    pub(crate) first_result: u32,
    pub(crate) num_results: u32,
    /// Inherent attributes, `<{...}>` in generic form (a dictionary, or any attribute for
    /// unregistered ops).
    pub properties: Option<Attr>,
    /// Discardable attributes, `{...}`, kept sorted by name.
    pub(crate) attrs: Vec<(String, Attr)>,
    pub(crate) extra: Option<Box<OpExtra>>,
    pub loc: Attr,
    pub(crate) parent: Option<BlockId>,
    pub(crate) prev: Option<OpId>,
    pub(crate) next: Option<OpId>,
    pub(crate) alive: bool,
}

/// Block payload.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    pub(crate) args: Vec<Value>,
    pub(crate) first: Option<OpId>,
    pub(crate) last: Option<OpId>,
    pub(crate) parent: Option<RegionId>,
    /// Ops naming this block as a successor (one entry per successor slot).
    pub(crate) preds: Vec<OpId>,
}

/// Region payload.
#[derive(Clone, Debug, Default)]
pub struct RegionData {
    pub(crate) blocks: Vec<BlockId>,
    pub(crate) parent: Option<OpId>,
}

/// What an op is built from; the one way to create an op.
#[derive(Clone, Debug)]
pub struct OperationState {
    pub name: OpName,
    pub operands: Vec<Value>,
    pub result_types: Vec<Type>,
    pub properties: Option<Attr>,
    pub attrs: Vec<(String, Attr)>,
    pub regions: Vec<RegionId>,
    pub successors: Vec<BlockId>,
    pub loc: Attr,
}

/// The file-level `{-# dialect_resources: {...} #-}` blobs, dialect → key → value text.
pub type Resources = IndexMap<String, IndexMap<String, String>>;

/// Owns all IR and the registry of known ops.
///
/// Cloning copies the whole IR with the same ids, so a destructive pipeline (the lowering to PTX)
/// can run on a copy while the original stays usable, and ids and source spans taken from the
/// original still name the same ops in the copy.
#[derive(Clone)]
pub struct Context {
    types: IndexSet<TypeKind>,
    attrs: IndexSet<AttrKind>,
    names: IndexSet<String>,
    defs: Vec<Option<&'static OpDef>>,
    /// Per op name: the position of its declaration in its dialect's op list (`u32::MAX` when
    /// unregistered), so a dialect's op enum classifies an op with one lookup.
    positions: Vec<u32>,
    ops: Vec<OpData>,
    blocks: Vec<BlockData>,
    regions: Vec<RegionData>,
    values: Vec<ValueData>,
    /// `value_ids[i] == Value(i)`: lets [`Context::results`] hand out a slice of an op's
    /// consecutive result values without storing them per op.
    value_ids: Vec<Value>,
    dialects: IndexMap<&'static str, &'static [&'static OpDef]>,
    symbols: IndexMap<&'static str, crate::typedef::DialectSymbols>,
    /// The structured value of each registered dialect type, by type index (`None` for every
    /// other type); filled when the type is first uniqued.
    type_values: Vec<Option<Arc<dyn DialectValue>>>,
    /// The same for registered dialect attributes, by attribute index.
    attr_values: Vec<Option<Arc<dyn DialectValue>>>,
    /// Non-canonical spellings of registered dialect types already parsed, so a repeated
    /// spelling costs one lookup rather than a parse.
    type_spellings: FxHashMap<TypeKind, Type>,
    /// The same for attributes.
    attr_spellings: FxHashMap<AttrKind, Attr>,
    /// The value of each declared default (`AttrDef::default` text), parsed once at registration.
    defaults: FxHashMap<&'static str, Attr>,
    next_distinct: u64,
    /// Whether an affine map or integer set was ever interned (the printer's aliases for them
    /// go before the op, so it can only stream its output when there are none).
    has_affine_attrs: bool,
    /// When false, ops of unknown dialects are verifier errors (`--allow-unregistered-dialect`).
    pub allow_unregistered: bool,
    /// File-level resource blobs read from or printed to `{-# ... #-}`.
    pub resources: Resources,
    /// `{-# external_resources: ... #-}` kept as raw text.
    pub external_resources: Option<String>,
}

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

impl Context {
    /// An empty context with no dialects registered.
    pub fn new() -> Context {
        let mut c = Context {
            types: IndexSet::default(),
            attrs: IndexSet::default(),
            names: IndexSet::default(),
            defs: Vec::new(),
            positions: Vec::new(),
            ops: Vec::new(),
            blocks: Vec::new(),
            regions: Vec::new(),
            values: Vec::new(),
            value_ids: Vec::new(),
            dialects: IndexMap::new(),
            symbols: IndexMap::new(),
            type_values: Vec::new(),
            attr_values: Vec::new(),
            type_spellings: FxHashMap::default(),
            attr_spellings: FxHashMap::default(),
            defaults: FxHashMap::default(),
            next_distinct: 0,
            has_affine_attrs: false,
            allow_unregistered: false,
            resources: IndexMap::new(),
            external_resources: None,
        };
        c.attr(AttrKind::Loc(Location::Unknown));
        c
    }

    // ----- registry -------------------------------------------------------------------------

    /// Records a dialect's op declarations (the first declaration of a name wins). Used by
    /// [`Context::register_dialect`], which lives with the parser (`crate::registry`) because it
    /// also parses the declared defaults: the context itself does not call the parser.
    pub(crate) fn insert_dialect_ops(
        &mut self,
        namespace: &'static str,
        ops: &'static [&'static OpDef],
    ) {
        self.dialects.insert(namespace, ops);
        for (i, def) in ops.iter().enumerate() {
            let n = self.op_name(def.name);
            if self.defs[n.index()].is_none() {
                self.defs[n.index()] = Some(def);
                self.positions[n.index()] = i as u32;
            }
        }
    }

    /// Whether the default spelled `text` already has its value.
    pub(crate) fn has_default_value(&self, text: &str) -> bool {
        self.defaults.contains_key(text)
    }

    /// Records the value of the default spelled `text` (see [`Context::default_value`]).
    pub(crate) fn set_default_value(&mut self, text: &'static str, value: Attr) {
        self.defaults.insert(text, value);
    }

    /// The attribute a declared default (`AttrDef::default`) stands for: what the parser fills
    /// in when the attribute is absent and what custom forms leave out.
    pub fn default_value(&self, text: &str) -> Option<Attr> {
        self.defaults.get(text).copied()
    }

    /// Registers the types and attributes a dialect declares; from then on every
    /// `!ns.name<...>` / `#ns.name<...>` of that dialect is parsed into its structured value
    /// and uniqued in canonical spelling. Register them before the dialect's ops, so that
    /// declared defaults that name them are structured too.
    pub fn register_dialect_symbols(
        &mut self,
        namespace: &'static str,
        symbols: crate::typedef::DialectSymbols,
    ) {
        self.symbols.insert(namespace, symbols);
    }

    /// The types and attributes a dialect declared, if it declared any.
    pub fn dialect_symbols(&self, namespace: &str) -> Option<&crate::typedef::DialectSymbols> {
        self.symbols.get(namespace)
    }

    /// Registered dialects and their ops, in registration order.
    pub fn dialects(&self) -> impl Iterator<Item = (&'static str, &'static [&'static OpDef])> + '_ {
        self.dialects.iter().map(|(k, v)| (*k, *v))
    }

    /// Whether a dialect namespace is registered.
    pub fn is_dialect_registered(&self, ns: &str) -> bool {
        self.dialects.contains_key(ns)
    }

    /// Interns an op name.
    pub fn op_name(&mut self, name: &str) -> OpName {
        if let Some(i) = self.names.get_index_of(name) {
            return OpName(i as u32);
        }
        let (i, _) = self.names.insert_full(name.to_string());
        self.defs.push(None);
        self.positions.push(u32::MAX);
        OpName(i as u32)
    }

    /// Looks an op name up without interning it.
    pub fn lookup_op_name(&self, name: &str) -> Option<OpName> {
        self.names.get_index_of(name).map(|i| OpName(i as u32))
    }

    /// The text of an op name.
    pub fn name_str(&self, n: OpName) -> &str {
        &self.names[n.index()]
    }

    /// The registered definition for an op name, if any.
    pub fn def_of(&self, n: OpName) -> Option<&'static OpDef> {
        self.defs[n.index()]
    }

    /// The registered definition of an op.
    pub fn op_def(&self, op: OpId) -> Option<&'static OpDef> {
        self.defs[self.ops[op.index()].name.index()]
    }

    /// The position of an op's declaration in its dialect's op list, when registered: what a
    /// dialect's op enum (`op_enum_dispatch!`) classifies by.
    pub fn op_position(&self, op: OpId) -> Option<usize> {
        let p = self.positions[self.ops[op.index()].name.index()];
        (p != u32::MAX).then_some(p as usize)
    }

    // ----- types and attributes -------------------------------------------------------------

    /// Uniques a type. A type of a registered dialect is parsed into its structured value and
    /// stored in canonical spelling; one whose body the dialect rejects stays as written (the
    /// parser reports it through [`Context::registered_type`]).
    pub fn ty(&mut self, kind: TypeKind) -> Type {
        if matches!(kind, TypeKind::Dialect { .. }) {
            return self.dialect_kind_type(kind);
        }
        // One lookup: `insert_full` keeps the existing entry and returns its index.
        Type(self.types.insert_full(kind).0 as u32)
    }

    /// [`Context::ty`] for `TypeKind::Dialect`, out of line so that the common path stays small.
    #[inline(never)]
    fn dialect_kind_type(&mut self, kind: TypeKind) -> Type {
        if let TypeKind::Dialect { dialect, .. } = &kind {
            if self.symbols.contains_key(dialect.as_str()) {
                if let Ok(t) = self.registered_type(&kind) {
                    return t;
                }
            }
        }
        Type(self.types.insert_full(kind).0 as u32)
    }

    /// Uniques `!dialect.name<body>` (a [`TypeKind::Dialect`]) through its dialect's
    /// declaration: the body is parsed once, and every spelling of one value is one type.
    /// Types of dialects that declared no symbols are uniqued as written.
    pub fn registered_type(&mut self, kind: &TypeKind) -> Result<Type, SymbolError> {
        let TypeKind::Dialect {
            dialect,
            name,
            body,
        } = kind
        else {
            return Ok(Type(self.types.insert_full(kind.clone()).0 as u32));
        };
        if let Some(i) = self.types.get_index_of(kind) {
            if matches!(self.type_values.get(i), Some(Some(_))) {
                return Ok(Type(i as u32));
            }
        }
        if let Some(&t) = self.type_spellings.get(kind) {
            return Ok(t);
        }
        let Some(def) = self.symbol_def(dialect, name, false)? else {
            return Ok(Type(self.types.insert_full(kind.clone()).0 as u32));
        };
        let value = (def.parse)(body.as_deref()).map_err(|message| SymbolError::Invalid {
            name: def.name.to_string(),
            message,
            syntax: def.syntax,
        })?;
        let t = self.intern_type_value(dialect, name, value);
        if self.type_kind(t) != kind {
            self.type_spellings.insert(kind.clone(), t);
        }
        Ok(t)
    }

    /// The type `!dialect.name<...>` whose structured value is `value`: what a dialect's type
    /// constructors (`TensorType { .. }.get(ctx)`) call, so no pass ever formats type text.
    pub fn dialect_type<T: DialectValue>(&mut self, dialect: &str, name: &str, value: T) -> Type {
        self.intern_type_value(dialect, name, Arc::new(value))
    }

    fn intern_type_value(
        &mut self,
        dialect: &str,
        name: &str,
        value: Arc<dyn DialectValue>,
    ) -> Type {
        let kind = TypeKind::Dialect {
            dialect: dialect.to_string(),
            name: name.to_string(),
            body: value.body(),
        };
        let t = Type(self.types.insert_full(kind).0 as u32);
        let slot = slot_at(&mut self.type_values, t.index());
        if slot.is_none() {
            *slot = Some(value);
        }
        t
    }

    /// The structured value of a registered dialect type, when `t` is one of type `T`.
    pub fn type_value<T: DialectValue>(&self, t: Type) -> Option<&T> {
        let v: &dyn DialectValue = self.type_values.get(t.index())?.as_deref()?;
        AsAny::as_any(v).downcast_ref::<T>()
    }

    /// The declaration of `!dialect.name` (or `#dialect.name` when `attr`): `Ok(None)` when the
    /// dialect declared no symbols (its types stay raw text).
    fn symbol_def(
        &self,
        dialect: &str,
        name: &str,
        attr: bool,
    ) -> Result<Option<&'static SymbolDef>, SymbolError> {
        let Some(syms) = self.symbols.get(dialect) else {
            return Ok(None);
        };
        match syms.find(name, attr) {
            Some(d) => Ok(Some(d)),
            None => {
                let sigil = if attr { '#' } else { '!' };
                let list = if attr { syms.attrs } else { syms.types };
                Err(SymbolError::Unknown {
                    name: format!("{dialect}.{name}"),
                    known: list.iter().map(|s| format!("{sigil}{}", s.name)).collect(),
                })
            }
        }
    }

    /// The payload of a type.
    pub fn type_kind(&self, t: Type) -> &TypeKind {
        &self.types[t.index()]
    }

    /// `iN`.
    pub fn int_type(&mut self, width: u32) -> Type {
        self.ty(TypeKind::Integer {
            width,
            signedness: Signedness::Signless,
        })
    }
    /// `index`.
    pub fn index_type(&mut self) -> Type {
        self.ty(TypeKind::Index)
    }
    /// A float type.
    pub fn float_type(&mut self, k: FloatKind) -> Type {
        self.ty(TypeKind::Float(k))
    }
    /// `none`.
    pub fn none_type(&mut self) -> Type {
        self.ty(TypeKind::None)
    }
    /// `(inputs) -> results`.
    pub fn function_type(&mut self, inputs: Vec<Type>, results: Vec<Type>) -> Type {
        self.ty(TypeKind::Function { inputs, results })
    }

    /// Uniques an attribute. As with [`Context::ty`], an attribute of a registered dialect is
    /// stored in canonical spelling with its structured value.
    pub fn attr(&mut self, kind: AttrKind) -> Attr {
        if matches!(kind, AttrKind::Dialect { .. }) {
            return self.dialect_kind_attr(kind);
        }
        self.has_affine_attrs |= matches!(kind, AttrKind::AffineMap(_) | AttrKind::IntegerSet(_));
        // One lookup: `insert_full` keeps the existing entry and returns its index.
        Attr(self.attrs.insert_full(kind).0 as u32)
    }

    /// [`Context::attr`] for `AttrKind::Dialect`, out of line so that the common path (one
    /// location per op) stays small.
    #[inline(never)]
    fn dialect_kind_attr(&mut self, kind: AttrKind) -> Attr {
        if let AttrKind::Dialect { dialect, .. } = &kind {
            if self.symbols.contains_key(dialect.as_str()) {
                if let Ok(a) = self.registered_attr(&kind) {
                    return a;
                }
            }
        }
        Attr(self.attrs.insert_full(kind).0 as u32)
    }

    /// Uniques `#dialect.name<body>` (an [`AttrKind::Dialect`]) through its dialect's
    /// declaration, as [`Context::registered_type`] does for types.
    pub fn registered_attr(&mut self, kind: &AttrKind) -> Result<Attr, SymbolError> {
        let AttrKind::Dialect {
            dialect,
            name,
            body,
        } = kind
        else {
            return Ok(Attr(self.attrs.insert_full(kind.clone()).0 as u32));
        };
        if let Some(i) = self.attrs.get_index_of(kind) {
            if matches!(self.attr_values.get(i), Some(Some(_))) {
                return Ok(Attr(i as u32));
            }
        }
        if let Some(&a) = self.attr_spellings.get(kind) {
            return Ok(a);
        }
        let Some(def) = self.symbol_def(dialect, name, true)? else {
            return Ok(Attr(self.attrs.insert_full(kind.clone()).0 as u32));
        };
        let value = (def.parse)(body.as_deref()).map_err(|message| SymbolError::Invalid {
            name: def.name.to_string(),
            message,
            syntax: def.syntax,
        })?;
        let a = self.intern_attr_value(dialect, name, value);
        if self.attr_kind(a) != kind {
            self.attr_spellings.insert(kind.clone(), a);
        }
        Ok(a)
    }

    /// The attribute `#dialect.name<...>` whose structured value is `value` (what a dialect's
    /// attribute constructors call).
    pub fn dialect_attr<T: DialectValue>(&mut self, dialect: &str, name: &str, value: T) -> Attr {
        self.intern_attr_value(dialect, name, Arc::new(value))
    }

    fn intern_attr_value(
        &mut self,
        dialect: &str,
        name: &str,
        value: Arc<dyn DialectValue>,
    ) -> Attr {
        let kind = AttrKind::Dialect {
            dialect: dialect.to_string(),
            name: name.to_string(),
            body: value.body(),
        };
        let a = Attr(self.attrs.insert_full(kind).0 as u32);
        let slot = slot_at(&mut self.attr_values, a.index());
        if slot.is_none() {
            *slot = Some(value);
        }
        a
    }

    /// The structured value of a registered dialect attribute, when `a` is one of type `T`.
    pub fn attr_value<T: DialectValue>(&self, a: Attr) -> Option<&T> {
        let v: &dyn DialectValue = self.attr_values.get(a.index())?.as_deref()?;
        AsAny::as_any(v).downcast_ref::<T>()
    }

    /// Whether any affine map or integer set attribute exists in this context.
    pub fn has_affine_attrs(&self) -> bool {
        self.has_affine_attrs
    }

    /// Makes room for about `n` more attributes (the parser sizes the table from its input).
    pub fn reserve_attrs(&mut self, n: usize) {
        self.attrs.reserve(n);
    }

    /// The payload of an attribute.
    pub fn attr_kind(&self, a: Attr) -> &AttrKind {
        &self.attrs[a.index()]
    }

    /// `loc(unknown)`, the default location.
    pub fn unknown_loc(&self) -> Attr {
        Attr(0)
    }

    /// A string attribute.
    pub fn str_attr(&mut self, s: &str) -> Attr {
        self.attr(AttrKind::String {
            value: s.as_bytes().to_vec(),
            ty: None,
        })
    }

    /// A type attribute.
    pub fn type_attr(&mut self, t: Type) -> Attr {
        self.attr(AttrKind::Type(t))
    }

    /// A dictionary attribute; entries are sorted by name as MLIR does.
    pub fn dict_attr(&mut self, mut entries: Vec<(String, Attr)>) -> Attr {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        self.attr(AttrKind::Dict(entries))
    }

    /// `array<iN: values...>` for a signless integer width `width` (`operandSegmentSizes` is
    /// `i32`, shapes and counts `i64`).
    pub fn int_array_attr(&mut self, width: u32, values: &[i64]) -> Attr {
        let elem = self.int_type(width);
        self.attr(AttrKind::DenseArray {
            elem,
            values: crate::attrs::DenseArrayValues::from_i64s(values),
        })
    }

    /// The integer elements of an `array<iN: ...>` attribute, as `i64`s.
    pub fn int_array_values(&self, a: Attr) -> Option<Vec<i64>> {
        match self.attr_kind(a) {
            AttrKind::DenseArray { values, .. } => values.to_i64s(),
            _ => None,
        }
    }

    /// A fresh id for `distinct[..]<..>`.
    pub fn fresh_distinct_id(&mut self) -> u64 {
        self.next_distinct += 1;
        self.next_distinct - 1
    }

    // ----- creation ---------------------------------------------------------------------------

    /// Creates a detached op; results get fresh values. Regions passed in are adopted.
    pub fn create_op(&mut self, mut st: OperationState) -> OpId {
        let types = std::mem::take(&mut st.result_types);
        self.create_op_with_types(st, &types)
    }

    /// [`Context::create_op`] with the result types given apart (`st.result_types` is ignored),
    /// for callers that keep them in a reused buffer.
    pub(crate) fn create_op_with_types(&mut self, st: OperationState, types: &[Type]) -> OpId {
        let id = OpId(self.ops.len() as u32);
        let first_result = self.values.len() as u32;
        for (i, t) in types.iter().enumerate() {
            self.new_value(*t, ValueDef::Result(id, i as u32), None);
        }
        for (i, v) in st.operands.iter().enumerate() {
            self.values[v.index()].uses.push(Use {
                op: id,
                index: i as u32,
            });
        }
        for r in &st.regions {
            self.regions[r.index()].parent = Some(id);
        }
        for b in &st.successors {
            self.blocks[b.index()].preds.push(id);
        }
        let mut attrs = st.attrs;
        if attrs.len() > 1 {
            attrs.sort_by(|a, b| a.0.cmp(&b.0));
        }
        let extra = if st.regions.is_empty() && st.successors.is_empty() {
            None
        } else {
            Some(Box::new(OpExtra {
                regions: st.regions,
                successors: st.successors,
            }))
        };
        self.ops.push(OpData {
            name: st.name,
            operands: OperandList::from_vec(st.operands),
            first_result,
            num_results: types.len() as u32,
            properties: st.properties,
            attrs,
            extra,
            loc: st.loc,
            parent: None,
            prev: None,
            next: None,
            alive: true,
        });
        id
    }

    fn new_value(&mut self, ty: Type, def: ValueDef, loc: Option<Attr>) -> Value {
        let v = Value(self.values.len() as u32);
        self.values.push(ValueData {
            ty,
            def,
            loc,
            uses: UseList::default(),
        });
        self.value_ids.push(v);
        v
    }

    /// Creates a detached empty region.
    pub fn create_region(&mut self) -> RegionId {
        let r = RegionId(self.regions.len() as u32);
        self.regions.push(RegionData::default());
        r
    }

    /// Creates a detached block with arguments of the given types.
    pub fn create_block(&mut self, arg_types: &[Type]) -> BlockId {
        let b = BlockId(self.blocks.len() as u32);
        self.blocks.push(BlockData::default());
        for t in arg_types {
            self.add_block_arg(b, *t, None);
        }
        b
    }

    /// Appends an argument to a block.
    pub fn add_block_arg(&mut self, b: BlockId, ty: Type, loc: Option<Attr>) -> Value {
        let idx = self.blocks[b.index()].args.len() as u32;
        let v = self.new_value(ty, ValueDef::BlockArg(b, idx), loc);
        self.blocks[b.index()].args.push(v);
        v
    }

    /// Appends a block to a region.
    pub fn push_block(&mut self, r: RegionId, b: BlockId) {
        self.blocks[b.index()].parent = Some(r);
        self.regions[r.index()].blocks.push(b);
    }

    /// Appends a detached op at the end of a block.
    pub fn append_op(&mut self, b: BlockId, op: OpId) {
        debug_assert!(
            self.ops[op.index()].parent.is_none(),
            "op is already in a block"
        );
        let last = self.blocks[b.index()].last;
        {
            let o = &mut self.ops[op.index()];
            o.parent = Some(b);
            o.prev = last;
            o.next = None;
        }
        match last {
            Some(l) => self.ops[l.index()].next = Some(op),
            None => self.blocks[b.index()].first = Some(op),
        }
        self.blocks[b.index()].last = Some(op);
    }

    /// Inserts a detached op right before `before`.
    pub fn insert_op_before(&mut self, before: OpId, op: OpId) {
        let b = self.ops[before.index()]
            .parent
            .expect("anchor op is not in a block");
        let prev = self.ops[before.index()].prev;
        {
            let o = &mut self.ops[op.index()];
            o.parent = Some(b);
            o.prev = prev;
            o.next = Some(before);
        }
        self.ops[before.index()].prev = Some(op);
        match prev {
            Some(p) => self.ops[p.index()].next = Some(op),
            None => self.blocks[b.index()].first = Some(op),
        }
    }

    /// Unlinks an op from its block, keeping it alive (for moves).
    pub fn detach_op(&mut self, op: OpId) {
        let Some(b) = self.ops[op.index()].parent else {
            return;
        };
        let (prev, next) = (self.ops[op.index()].prev, self.ops[op.index()].next);
        match prev {
            Some(p) => self.ops[p.index()].next = next,
            None => self.blocks[b.index()].first = next,
        }
        match next {
            Some(n) => self.ops[n.index()].prev = prev,
            None => self.blocks[b.index()].last = prev,
        }
        let o = &mut self.ops[op.index()];
        o.parent = None;
        o.prev = None;
        o.next = None;
    }

    /// Moves an op (with its regions) to just before `before`.
    pub fn move_op_before(&mut self, op: OpId, before: OpId) {
        self.detach_op(op);
        self.insert_op_before(before, op);
    }

    /// Erases an op and everything nested in it. Its results must have no uses left.
    pub fn erase_op(&mut self, op: OpId) {
        self.detach_op(op);
        self.drop_op_refs(op);
    }

    /// Erases several ops at once; the results of each must have no uses left outside `ops`
    /// (an op used only by others in `ops` goes too). Removing one use from a value's use list
    /// costs a scan of the list, which for a constant read by thousands of ops (a large block
    /// rewritten by `eqsat`) makes erasing op by op quadratic; here each value's list is
    /// filtered once, keeping the remaining uses in their order.
    pub fn erase_ops(&mut self, ops: &[OpId]) {
        // The erased ops as a bit set over op ids (a use list is filtered with one test per use).
        let span = ops.iter().map(|o| o.index() + 1).max().unwrap_or(0);
        let mut dead = vec![0u64; span.div_ceil(64)];
        for o in ops {
            dead[o.index() / 64] |= 1 << (o.index() % 64);
        }
        let is_dead = |o: OpId| {
            dead.get(o.index() / 64)
                .is_some_and(|w| w & (1 << (o.index() % 64)) != 0)
        };
        let mut touched: Vec<Value> = Vec::new();
        for &op in ops {
            if !self.regions(op).is_empty()
                || self.ops[op.index()]
                    .extra
                    .as_ref()
                    .is_some_and(|e| !e.successors.is_empty())
            {
                // Nested ops and block predecessors: the general path.
                self.detach_op(op);
                self.drop_op_refs(op);
                continue;
            }
            self.detach_op(op);
            let operands = std::mem::take(&mut self.ops[op.index()].operands);
            touched.extend_from_slice(operands.as_slice());
            self.ops[op.index()].alive = false;
        }
        touched.sort_unstable_by_key(|v| v.index());
        touched.dedup();
        for v in touched {
            self.values[v.index()].uses.retain(|u| !is_dead(u.op));
        }
    }

    fn drop_op_refs(&mut self, op: OpId) {
        let operands = std::mem::take(&mut self.ops[op.index()].operands);
        for (i, v) in operands.as_slice().iter().enumerate() {
            // Order-preserving: use lists stay in creation order (see [`Context::uses`]).
            remove_use(&mut self.values[v.index()].uses, op, i as u32);
        }
        let succs = match &mut self.ops[op.index()].extra {
            Some(e) => std::mem::take(&mut e.successors),
            None => Vec::new(),
        };
        for s in succs {
            let preds = &mut self.blocks[s.index()].preds;
            if let Some(p) = preds.iter().position(|x| *x == op) {
                preds.remove(p);
            }
        }
        let regions = self.regions(op).to_vec();
        for r in regions {
            for b in self.regions[r.index()].blocks.clone() {
                let ops: Vec<OpId> = self.block_ops(b).collect();
                for o in ops {
                    self.drop_op_refs(o);
                }
            }
        }
        self.ops[op.index()].alive = false;
    }

    /// Replaces every use of `from` with `to`.
    pub fn replace_all_uses(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        let uses = std::mem::take(&mut self.values[from.index()].uses);
        for u in uses.as_slice() {
            self.ops[u.op.index()].operands[u.index as usize] = to;
        }
        self.values[to.index()].uses.extend(uses);
    }

    /// Sets operand `i` of `op`.
    pub fn set_operand(&mut self, op: OpId, i: usize, v: Value) {
        let old = self.ops[op.index()].operands[i];
        remove_use(&mut self.values[old.index()].uses, op, i as u32);
        self.ops[op.index()].operands[i] = v;
        self.values[v.index()].uses.push(Use {
            op,
            index: i as u32,
        });
    }

    /// Removes operand `i` of `op`; later operands move down one slot (their uses follow).
    /// For dead-argument elimination, which drops the operands a branch forwards.
    pub fn erase_operand(&mut self, op: OpId, i: usize) {
        let v = self.ops[op.index()].operands.remove(i);
        remove_use(&mut self.values[v.index()].uses, op, i as u32);
        let later: Vec<Value> = self.ops[op.index()].operands.as_slice()[i..].to_vec();
        for (k, w) in later.into_iter().enumerate() {
            let j = (i + k) as u32;
            if let Some(u) = self.values[w.index()]
                .uses
                .as_mut_slice()
                .iter_mut()
                .find(|u| u.op == op && u.index == j + 1)
            {
                u.index = j;
            }
        }
    }

    /// Removes argument `i` of block `b`, which must have no uses; later arguments are
    /// renumbered.
    pub fn erase_block_arg(&mut self, b: BlockId, i: usize) {
        let v = self.blocks[b.index()].args.remove(i);
        debug_assert!(
            self.values[v.index()].uses.is_empty(),
            "erased block argument has uses"
        );
        let later: Vec<Value> = self.blocks[b.index()].args[i..].to_vec();
        for (k, a) in later.into_iter().enumerate() {
            self.values[a.index()].def = ValueDef::BlockArg(b, (i + k) as u32);
        }
    }

    /// Sets (or with `None`, removes) a discardable attribute.
    pub fn set_attr(&mut self, op: OpId, name: &str, value: Option<Attr>) {
        let attrs = &mut self.ops[op.index()].attrs;
        match attrs.binary_search_by(|(k, _)| k.as_str().cmp(name)) {
            Ok(i) => match value {
                Some(v) => attrs[i].1 = v,
                None => {
                    attrs.remove(i);
                }
            },
            Err(i) => {
                if let Some(v) = value {
                    attrs.insert(i, (name.to_string(), v));
                }
            }
        }
    }

    // ----- access -----------------------------------------------------------------------------

    /// An op's payload.
    pub fn op(&self, op: OpId) -> &OpData {
        &self.ops[op.index()]
    }
    /// Mutable payload (name, properties, location); structure changes go through the methods.
    pub fn op_mut(&mut self, op: OpId) -> &mut OpData {
        &mut self.ops[op.index()]
    }
    /// Number of op slots ever created (for dense side tables).
    pub fn num_ops(&self) -> usize {
        self.ops.len()
    }
    /// Number of value slots ever created.
    pub fn num_values(&self) -> usize {
        self.values.len()
    }
    /// Number of block slots ever created.
    pub fn num_blocks(&self) -> usize {
        self.blocks.len()
    }
    /// Number of attributes uniqued so far (for dense side tables keyed by [`Attr::index`]).
    pub fn num_attrs(&self) -> usize {
        self.attrs.len()
    }
    /// The op's name text.
    pub fn op_name_str(&self, op: OpId) -> &str {
        self.name_str(self.ops[op.index()].name)
    }
    /// Operands.
    pub fn operands(&self, op: OpId) -> &[Value] {
        self.ops[op.index()].operands.as_slice()
    }
    /// Results.
    pub fn results(&self, op: OpId) -> &[Value] {
        let o = &self.ops[op.index()];
        let first = o.first_result as usize;
        &self.value_ids[first..first + o.num_results as usize]
    }
    /// Regions.
    pub fn regions(&self, op: OpId) -> &[RegionId] {
        match &self.ops[op.index()].extra {
            Some(e) => &e.regions,
            None => &[],
        }
    }
    /// Successor blocks.
    pub fn successors(&self, op: OpId) -> &[BlockId] {
        match &self.ops[op.index()].extra {
            Some(e) => &e.successors,
            None => &[],
        }
    }
    /// Discardable attributes, sorted by name.
    pub fn attrs(&self, op: OpId) -> &[(String, Attr)] {
        &self.ops[op.index()].attrs
    }
    /// A discardable attribute by name.
    pub fn get_attr(&self, op: OpId, name: &str) -> Option<Attr> {
        let attrs = &self.ops[op.index()].attrs;
        attrs
            .binary_search_by(|(k, _)| k.as_str().cmp(name))
            .ok()
            .map(|i| attrs[i].1)
    }
    /// An inherent attribute (property) by name, when the properties are a dictionary.
    pub fn get_prop(&self, op: OpId, name: &str) -> Option<Attr> {
        let p = self.ops[op.index()].properties?;
        match self.attr_kind(p) {
            AttrKind::Dict(entries) => entries.iter().find(|(k, _)| k == name).map(|(_, v)| *v),
            _ => None,
        }
    }
    /// A property or, failing that, a discardable attribute of that name.
    pub fn get_inherent_or_attr(&self, op: OpId, name: &str) -> Option<Attr> {
        self.get_prop(op, name).or_else(|| self.get_attr(op, name))
    }
    /// The block holding an op.
    pub fn op_parent_block(&self, op: OpId) -> Option<BlockId> {
        self.ops[op.index()].parent
    }
    /// The op whose region holds this op.
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let b = self.ops[op.index()].parent?;
        let r = self.blocks[b.index()].parent?;
        self.regions[r.index()].parent
    }
    /// Whether the op has been erased.
    pub fn is_alive(&self, op: OpId) -> bool {
        self.ops[op.index()].alive
    }
    /// The next op in the block.
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op.index()].next
    }
    /// The previous op in the block.
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        self.ops[op.index()].prev
    }

    /// A value's type.
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v.index()].ty
    }
    /// Changes a value's type (for type conversion passes).
    pub fn set_value_type(&mut self, v: Value, t: Type) {
        self.values[v.index()].ty = t;
    }
    /// Sets a block argument's location.
    pub fn set_value_loc(&mut self, v: Value, loc: Option<Attr>) {
        self.values[v.index()].loc = loc;
    }
    /// Where a value is defined.
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v.index()].def
    }
    /// The op producing a value; `None` for block arguments. Folders and patterns match on it.
    pub fn defining_op(&self, v: Value) -> Option<OpId> {
        match self.value_def(v) {
            ValueDef::Result(op, _) => Some(op),
            ValueDef::BlockArg(..) => None,
        }
    }
    /// The value's payload.
    pub fn value(&self, v: Value) -> &ValueData {
        &self.values[v.index()]
    }
    /// Current uses, oldest first: a use is appended when an operand starts referring to the
    /// value and removed in place when it stops, so the order is creation order (MLIR's use
    /// lists hold the same uses newest first; rewrite drivers that must visit users in MLIR's
    /// order iterate this slice backwards).
    pub fn uses(&self, v: Value) -> &[Use] {
        self.values[v.index()].uses.as_slice()
    }
    /// The block in which a value is defined (the op's block for results).
    pub fn value_block(&self, v: Value) -> Option<BlockId> {
        match self.value_def(v) {
            ValueDef::Result(op, _) => self.ops[op.index()].parent,
            ValueDef::BlockArg(b, _) => Some(b),
        }
    }

    /// Block arguments.
    pub fn block_args(&self, b: BlockId) -> &[Value] {
        &self.blocks[b.index()].args
    }
    /// The ops of a block in order.
    pub fn block_ops(&self, b: BlockId) -> BlockOps<'_> {
        BlockOps {
            ctx: self,
            cur: self.blocks[b.index()].first,
        }
    }
    /// The first op.
    pub fn block_first(&self, b: BlockId) -> Option<OpId> {
        self.blocks[b.index()].first
    }
    /// The last op (the terminator, when the block is well formed).
    pub fn block_last(&self, b: BlockId) -> Option<OpId> {
        self.blocks[b.index()].last
    }
    /// The region holding the block.
    pub fn block_parent(&self, b: BlockId) -> Option<RegionId> {
        self.blocks[b.index()].parent
    }
    /// Ops that branch to this block, one entry per successor slot.
    pub fn block_preds(&self, b: BlockId) -> &[OpId] {
        &self.blocks[b.index()].preds
    }
    /// Blocks of a region.
    pub fn region_blocks(&self, r: RegionId) -> &[BlockId] {
        &self.regions[r.index()].blocks
    }
    /// The op owning a region.
    pub fn region_parent(&self, r: RegionId) -> Option<OpId> {
        self.regions[r.index()].parent
    }
    /// The region holding an op (through its block); `None` for a detached or top-level op.
    pub fn op_parent_region(&self, op: OpId) -> Option<RegionId> {
        self.block_parent(self.op_parent_block(op)?)
    }

    /// Inserts a detached op right after `after` (at the end of its block when it is last).
    pub fn insert_op_after(&mut self, after: OpId, op: OpId) {
        match self.next_op(after) {
            Some(n) => self.insert_op_before(n, op),
            None => {
                let b = self.ops[after.index()]
                    .parent
                    .expect("anchor op is not in a block");
                self.append_op(b, op);
            }
        }
    }

    /// Moves an op (with its regions) to the front of `block`, as constant hoisting does.
    pub fn move_op_to_block_start(&mut self, op: OpId, block: BlockId) {
        self.detach_op(op);
        match self.block_first(block) {
            Some(f) => self.insert_op_before(f, op),
            None => self.append_op(block, op),
        }
    }

    /// Unlinks a block from its region and erases its ops (with everything nested in them).
    /// Values defined in the block must have no uses left outside the erased ops; branches to
    /// the block from ops that stay must be gone (unreachable-block removal erases a whole
    /// unreachable set, which satisfies both).
    pub fn erase_block(&mut self, b: BlockId) {
        let ops: Vec<OpId> = self.block_ops(b).collect();
        for o in ops.into_iter().rev() {
            self.erase_op(o);
        }
        if let Some(r) = self.blocks[b.index()].parent.take() {
            self.regions[r.index()].blocks.retain(|x| *x != b);
        }
    }

    /// Visits `op` and every op nested in it, parents before children.
    pub fn walk(&self, op: OpId, f: &mut dyn FnMut(OpId)) {
        f(op);
        for &r in self.regions(op) {
            for &b in self.region_blocks(r) {
                let mut cur = self.block_first(b);
                while let Some(o) = cur {
                    cur = self.next_op(o);
                    self.walk(o, f);
                }
            }
        }
    }
}

/// Removes the use `(op, index)` from a use list, keeping the others in order. The newest use
/// is checked first and the search then runs from the oldest, so erasing users in either
/// program order or reverse program order stays cheap.
/// The slot `i` of a side table indexed by type or attribute, growing the table to reach it.
fn slot_at<T>(table: &mut Vec<Option<T>>, i: usize) -> &mut Option<T> {
    if table.len() <= i {
        table.resize_with(i + 1, || None);
    }
    &mut table[i]
}

fn remove_use(uses: &mut UseList, op: OpId, index: u32) {
    let hit = |u: &Use| u.op == op && u.index == index;
    let s = uses.as_slice();
    // From both ends at once: erasing ops in block order finds their uses near the front,
    // erasing in reverse (as rewrites do after building replacements, whose uses come last)
    // finds them near the back; either way the scan is short.
    let n = s.len();
    let p = (0..n.div_ceil(2)).find_map(|i| {
        if hit(&s[n - 1 - i]) {
            Some(n - 1 - i)
        } else if hit(&s[i]) {
            Some(i)
        } else {
            None
        }
    });
    if let Some(p) = p {
        uses.remove(p);
    }
}

/// Iterator over a block's ops.
pub struct BlockOps<'a> {
    ctx: &'a Context,
    cur: Option<OpId>,
}

impl Iterator for BlockOps<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        let c = self.cur?;
        self.cur = self.ctx.ops[c.index()].next;
        Some(c)
    }
}
