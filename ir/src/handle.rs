//! Typed op handles: named, typed access to an op's parts, derived from its [`OpDef`].
//!
//! [`op_handle!`](crate::op_handle) declares, next to an op's declaration, a `Copy` handle
//! wrapping [`OpId`] with:
//!
//! - `cast(ctx, op) -> Option<Self>`: a pointer comparison with the registered declaration
//!   (declarations are `static`s, so their address is their identity; no string compare);
//! - one accessor per operand, result, attribute, region and successor, named after the slot
//!   and typed by its arity (`Value`, `Option<Value>`, `&[Value]`, honouring
//!   `operandSegmentSizes`) or by its constraint (`bool` for unit flags, `i64` for integers, a
//!   keyword enum from [`op_enum!`](crate::op_enum), `&str`, else `Attr`);
//! - `build(&mut OpBuilder, ...)`, taking every slot by name in declaration order and filling
//!   `operandSegmentSizes` and the property dictionary.
//!
//! Every slot named in a handle is looked up in the declaration by a `const fn` while the crate
//! compiles, with its arity or attribute kind, and the handle must list every slot: renaming an
//! operand in a declaration without its handle is a build error, not a wrong index at run time.
//!
//! ```
//! use tilus_ir::opdef::{one, OpDef, ANY_TYPE};
//! pub static NEG: OpDef = OpDef {
//!     name: "t.neg",
//!     operands: &[one("input", ANY_TYPE)],
//!     results: &[one("result", ANY_TYPE)],
//!     ..OpDef::DEFAULT
//! };
//! tilus_ir::op_handle! {
//!     pub struct NegOp = NEG;
//!     operands { input = "input": tilus_ir::Value }
//!     results { result = "result": tilus_ir::Value }
//!     attrs {} regions {} successors {}
//! }
//! ```
//!
//! The same handle after the operand was renamed in the declaration only does not compile:
//!
//! ```compile_fail
//! use tilus_ir::opdef::{one, OpDef, ANY_TYPE};
//! pub static NEG: OpDef = OpDef {
//!     name: "t.neg",
//!     operands: &[one("operand", ANY_TYPE)],
//!     results: &[one("result", ANY_TYPE)],
//!     ..OpDef::DEFAULT
//! };
//! tilus_ir::op_handle! {
//!     pub struct NegOp = NEG;
//!     operands { input = "input": tilus_ir::Value }
//!     results { result = "result": tilus_ir::Value }
//!     attrs {} regions {} successors {}
//! }
//! ```
//!
//! Nor does one that reads a single operand as a variadic group:
//!
//! ```compile_fail
//! use tilus_ir::opdef::{one, OpDef, ANY_TYPE};
//! pub static NEG: OpDef = OpDef {
//!     name: "t.neg",
//!     operands: &[one("input", ANY_TYPE)],
//!     results: &[one("result", ANY_TYPE)],
//!     ..OpDef::DEFAULT
//! };
//! tilus_ir::op_handle! {
//!     pub struct NegOp = NEG;
//!     operands { input = "input": &[tilus_ir::Value] }
//!     results { result = "result": tilus_ir::Value }
//!     attrs {} regions {} successors {}
//! }
//! ```

use crate::attrs::{Attr, AttrKind};
use crate::builder::OpBuilder;
use crate::context::{BlockId, Context, OpId, OperationState, RegionId, Value};
use crate::opdef::{Arity, AttrDef, OpDef, Trait};
use crate::types::Type;
use num_traits::ToPrimitive;

// ----- compile-time lookups -----------------------------------------------------------------

const fn str_eq(a: &str, b: &str) -> bool {
    crate::format_check::bytes_eq(a.as_bytes(), b.as_bytes())
}

/// The position of operand slot `name` in `def`, checked to have arity `arity`. In a `const`
/// this is a build error when the slot is missing or has another arity.
pub const fn operand_slot(def: &OpDef, name: &str, arity: Arity) -> usize {
    let mut i = 0;
    while i < def.operands.len() {
        if str_eq(def.operands[i].name, name) {
            if !arity_eq(def.operands[i].arity, arity) {
                panic!("op handle: operand slot has another arity in the declaration");
            }
            return i;
        }
        i += 1;
    }
    panic!("op handle: no operand slot of this name in the declaration")
}

/// [`operand_slot`] for results.
pub const fn result_slot(def: &OpDef, name: &str, arity: Arity) -> usize {
    let mut i = 0;
    while i < def.results.len() {
        if str_eq(def.results[i].name, name) {
            if !arity_eq(def.results[i].arity, arity) {
                panic!("op handle: result slot has another arity in the declaration");
            }
            return i;
        }
        i += 1;
    }
    panic!("op handle: no result slot of this name in the declaration")
}

/// The position of attribute `name` in `def`, checked against the kind of value the handle
/// reads it as (a build error in a `const` when they disagree).
pub const fn attr_slot(def: &OpDef, name: &str, kind: AttrValueKind, optional: bool) -> usize {
    let mut i = 0;
    while i < def.attributes.len() {
        let a = &def.attributes[i];
        if str_eq(a.name, name) {
            if a.optional != optional && !(a.optional && a.default.is_some()) {
                panic!("op handle: attribute optionality differs from the declaration");
            }
            check_attr_kind(a, kind);
            return i;
        }
        i += 1;
    }
    panic!("op handle: no attribute of this name in the declaration")
}

const fn check_attr_kind(a: &AttrDef, kind: AttrValueKind) {
    let c = &a.constraint;
    match kind {
        AttrValueKind::Any => {}
        AttrValueKind::Flag => {
            if !str_eq(c.desc, crate::opdef::UNIT_ATTR.desc) {
                panic!("op handle: a bool attribute must be a unit attribute");
            }
        }
        AttrValueKind::Int => {
            if c.value_type.is_none() || !c.keywords.is_empty() {
                panic!("op handle: an i64 attribute must be a typed integer without keywords");
            }
        }
        AttrValueKind::Str => {
            if !str_eq(c.desc, crate::opdef::STR_ATTR.desc) {
                panic!("op handle: a &str attribute must be a string attribute");
            }
        }
        AttrValueKind::Keywords(kws) => {
            if kws.len() != c.keywords.len() {
                panic!("op handle: the keyword enum has other cases than the declaration");
            }
            let mut i = 0;
            while i < kws.len() {
                if !str_eq(kws[i], c.keywords[i]) {
                    panic!("op handle: the keyword enum has other cases than the declaration");
                }
                i += 1;
            }
        }
    }
}

/// The position of region `name` in `def` (a build error in a `const` when missing).
pub const fn region_slot(def: &OpDef, name: &str) -> usize {
    let mut i = 0;
    while i < def.regions.len() {
        if str_eq(def.regions[i].name, name) {
            return i;
        }
        i += 1;
    }
    panic!("op handle: no region of this name in the declaration")
}

/// The position of successor `name` in `def` (a build error in a `const` when missing).
pub const fn successor_slot(def: &OpDef, name: &str) -> usize {
    let mut i = 0;
    while i < def.successors.len() {
        if str_eq(def.successors[i].name, name) {
            return i;
        }
        i += 1;
    }
    panic!("op handle: no successor of this name in the declaration")
}

/// Checks that a handle lists every slot of its declaration.
pub const fn check_complete(
    def: &OpDef,
    operands: usize,
    results: usize,
    attrs: usize,
    regions: usize,
    successors: usize,
) {
    if def.operands.len() != operands {
        panic!("op handle: does not list every operand of the declaration");
    }
    if def.results.len() != results {
        panic!("op handle: does not list every result of the declaration");
    }
    if def.attributes.len() != attrs {
        panic!("op handle: does not list every attribute of the declaration");
    }
    if def.regions.len() != regions {
        panic!("op handle: does not list every region of the declaration");
    }
    if def.successors.len() != successors {
        panic!("op handle: does not list every successor of the declaration");
    }
}

/// Checks at compile time that a dialect's op list has `name` at `index`, so that a dialect's
/// `classify` can map the registered position straight to a variant.
pub const fn check_position(ops: &[&OpDef], index: usize, def: &OpDef) {
    if index >= ops.len() || !str_eq(ops[index].name, def.name) {
        panic!("op handle: the dialect enum's order differs from the dialect's op list");
    }
}

const fn arity_eq(a: Arity, b: Arity) -> bool {
    matches!(
        (a, b),
        (Arity::Single, Arity::Single)
            | (Arity::Optional, Arity::Optional)
            | (Arity::Variadic, Arity::Variadic)
    )
}

// ----- run-time access ----------------------------------------------------------------------

/// Whether `op` is the op `def` declares: its registered declaration is `def` itself.
#[inline]
pub fn is(ctx: &Context, op: OpId, def: &'static OpDef) -> bool {
    ctx.op_def(op).is_some_and(|d| std::ptr::eq(d, def))
}

/// The range of `op`'s operands that slot `slot` of `def` takes.
pub fn operand_range(ctx: &Context, def: &OpDef, op: OpId, slot: usize) -> std::ops::Range<usize> {
    let total = ctx.operands(op).len();
    if def.has(Trait::AttrSizedOperandSegments) {
        if let Some(a) = ctx.get_prop(op, "operandSegmentSizes") {
            if let AttrKind::DenseArray { values, .. } = ctx.attr_kind(a) {
                let sizes: Vec<usize> = values
                    .to_i64s()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|v| usize::try_from(v).unwrap_or(0))
                    .collect();
                let start: usize = sizes.iter().take(slot).sum();
                let len = sizes.get(slot).copied().unwrap_or(0);
                return start.min(total)..(start + len).min(total);
            }
        }
    }
    group_range(def.operands.iter().map(|o| o.arity), total, slot)
}

/// The range of `op`'s results that slot `slot` of `def` takes.
pub fn result_range(ctx: &Context, def: &OpDef, op: OpId, slot: usize) -> std::ops::Range<usize> {
    let total = ctx.results(op).len();
    group_range(def.results.iter().map(|o| o.arity), total, slot)
}

/// Without segment sizes, at most one group is not `Single`; it takes what the singles leave.
fn group_range(
    arities: impl Iterator<Item = Arity> + Clone,
    total: usize,
    slot: usize,
) -> std::ops::Range<usize> {
    let singles = arities.clone().filter(|a| *a == Arity::Single).count();
    let extra = total.saturating_sub(singles);
    let mut start = 0;
    for (i, a) in arities.enumerate() {
        let len = if a == Arity::Single { 1 } else { extra };
        if i == slot {
            return start.min(total)..(start + len).min(total);
        }
        start += len;
    }
    total..total
}

/// How a handle reads an operand or result group: one value, zero or one, or a slice.
pub trait ValueSlot<'c>: Sized {
    /// Reads the group from the values in its range.
    fn read(values: &'c [Value]) -> Self;
}

impl<'c> ValueSlot<'c> for Value {
    fn read(values: &'c [Value]) -> Value {
        values[0]
    }
}

impl<'c> ValueSlot<'c> for Option<Value> {
    fn read(values: &'c [Value]) -> Option<Value> {
        values.first().copied()
    }
}

impl<'c> ValueSlot<'c> for &'c [Value] {
    fn read(values: &'c [Value]) -> &'c [Value] {
        values
    }
}

/// What a typed builder takes for an operand or result group read as `Self`, and the arity
/// that reading needs the declaration to have.
pub trait BuildSlot {
    /// The arity this reading needs the declaration to have.
    const ARITY: Arity;
    /// What `build` takes for an operand group of this kind.
    type Operand<'a>;
    /// What `build` takes for a result group of this kind (its type or types).
    type Result<'a>;
    /// Appends a `build` operand argument, returning the group's size.
    fn push_operand(arg: Self::Operand<'_>, out: &mut Vec<Value>) -> usize;
    /// Appends a `build` result argument.
    fn push_result(arg: Self::Result<'_>, out: &mut Vec<Type>);
}

impl BuildSlot for Value {
    const ARITY: Arity = Arity::Single;
    type Operand<'a> = Value;
    type Result<'a> = Type;
    fn push_operand(arg: Value, out: &mut Vec<Value>) -> usize {
        out.push(arg);
        1
    }
    fn push_result(arg: Type, out: &mut Vec<Type>) {
        out.push(arg);
    }
}

impl BuildSlot for Option<Value> {
    const ARITY: Arity = Arity::Optional;
    type Operand<'a> = Option<Value>;
    type Result<'a> = Option<Type>;
    fn push_operand(arg: Option<Value>, out: &mut Vec<Value>) -> usize {
        out.extend(arg);
        arg.is_some() as usize
    }
    fn push_result(arg: Option<Type>, out: &mut Vec<Type>) {
        out.extend(arg);
    }
}

impl BuildSlot for &[Value] {
    const ARITY: Arity = Arity::Variadic;
    type Operand<'a> = &'a [Value];
    type Result<'a> = &'a [Type];
    fn push_operand(arg: &[Value], out: &mut Vec<Value>) -> usize {
        out.extend_from_slice(arg);
        arg.len()
    }
    fn push_result(arg: &[Type], out: &mut Vec<Type>) {
        out.extend_from_slice(arg);
    }
}

/// Reads operand group `slot` of `op` as `T`.
pub fn operand<'c, T: ValueSlot<'c>>(ctx: &'c Context, def: &OpDef, op: OpId, slot: usize) -> T {
    let r = operand_range(ctx, def, op, slot);
    T::read(&ctx.operands(op)[r])
}

/// Reads result group `slot` of `op` as `T`.
pub fn result<'c, T: ValueSlot<'c>>(ctx: &'c Context, def: &OpDef, op: OpId, slot: usize) -> T {
    let r = result_range(ctx, def, op, slot);
    T::read(&ctx.results(op)[r])
}

/// What a handle may read an attribute as, checked against the constraint at compile time.
#[derive(Clone, Copy)]
pub enum AttrValueKind {
    /// Any attribute (`Attr`).
    Any,
    /// A unit attribute, present or not (`bool`).
    Flag,
    /// An integer of a fixed type (`i64`).
    Int,
    /// A string (`&str`).
    Str,
    /// An integer enum with these keywords (an [`op_enum!`](crate::op_enum) type).
    Keywords(&'static [&'static str]),
}

/// A typed attribute value a handle reads and a typed builder takes.
pub trait AttrValue<'c>: Sized {
    /// The kind of attribute this reads.
    const KIND: AttrValueKind;
    /// Whether the slot may be absent (`Option<...>`, or `bool` for unit flags).
    const OPTIONAL: bool;
    /// Reads the (possibly absent) attribute.
    fn read(ctx: &'c Context, a: Option<Attr>) -> Self;
    /// Makes the attribute for `build` (`None`: leave it out).
    fn make(self, ctx: &mut Context, def: &AttrDef) -> Option<Attr>;
}

/// Reads attribute slot `slot` of `op` as `T`, falling back to the declared default.
pub fn attribute<'c, T: AttrValue<'c>>(ctx: &'c Context, def: &OpDef, op: OpId, slot: usize) -> T {
    let d = &def.attributes[slot];
    let a = ctx
        .get_inherent_or_attr(op, d.name)
        .or_else(|| d.default.and_then(|t| ctx.default_value(t)));
    T::read(ctx, a)
}

fn present(a: Option<Attr>) -> Attr {
    a.expect("op handle: a verified op lacks a required attribute")
}

fn int_of(ctx: &Context, a: Attr) -> Option<i64> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => value.to_i64(),
        _ => None,
    }
}

fn make_int(ctx: &mut Context, def: &AttrDef, v: i64) -> Attr {
    let ty = match def.constraint.value_type {
        Some(f) => f(ctx),
        None => ctx.int_type(64),
    };
    ctx.attr(AttrKind::Integer {
        value: v.into(),
        ty,
    })
}

impl<'c> AttrValue<'c> for Attr {
    const KIND: AttrValueKind = AttrValueKind::Any;
    const OPTIONAL: bool = false;
    fn read(_: &'c Context, a: Option<Attr>) -> Attr {
        present(a)
    }
    fn make(self, _: &mut Context, _: &AttrDef) -> Option<Attr> {
        Some(self)
    }
}

impl<'c> AttrValue<'c> for Option<Attr> {
    const KIND: AttrValueKind = AttrValueKind::Any;
    const OPTIONAL: bool = true;
    fn read(_: &'c Context, a: Option<Attr>) -> Option<Attr> {
        a
    }
    fn make(self, _: &mut Context, _: &AttrDef) -> Option<Attr> {
        self
    }
}

impl<'c> AttrValue<'c> for bool {
    const KIND: AttrValueKind = AttrValueKind::Flag;
    const OPTIONAL: bool = true;
    fn read(ctx: &'c Context, a: Option<Attr>) -> bool {
        a.is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Unit))
    }
    fn make(self, ctx: &mut Context, _: &AttrDef) -> Option<Attr> {
        self.then(|| ctx.attr(AttrKind::Unit))
    }
}

impl<'c> AttrValue<'c> for i64 {
    const KIND: AttrValueKind = AttrValueKind::Int;
    const OPTIONAL: bool = false;
    fn read(ctx: &'c Context, a: Option<Attr>) -> i64 {
        int_of(ctx, present(a)).expect("op handle: a verified integer attribute is not an i64")
    }
    fn make(self, ctx: &mut Context, def: &AttrDef) -> Option<Attr> {
        Some(make_int(ctx, def, self))
    }
}

impl<'c> AttrValue<'c> for Option<i64> {
    const KIND: AttrValueKind = AttrValueKind::Int;
    const OPTIONAL: bool = true;
    fn read(ctx: &'c Context, a: Option<Attr>) -> Option<i64> {
        a.and_then(|a| int_of(ctx, a))
    }
    fn make(self, ctx: &mut Context, def: &AttrDef) -> Option<Attr> {
        self.map(|v| make_int(ctx, def, v))
    }
}

fn str_of(ctx: &Context, a: Attr) -> Option<&str> {
    match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => std::str::from_utf8(value).ok(),
        _ => None,
    }
}

impl<'c> AttrValue<'c> for &'c str {
    const KIND: AttrValueKind = AttrValueKind::Str;
    const OPTIONAL: bool = false;
    fn read(ctx: &'c Context, a: Option<Attr>) -> &'c str {
        str_of(ctx, present(a)).expect("op handle: a verified string attribute is not UTF-8")
    }
    fn make(self, ctx: &mut Context, _: &AttrDef) -> Option<Attr> {
        Some(ctx.str_attr(self))
    }
}

impl<'c> AttrValue<'c> for Option<&'c str> {
    const KIND: AttrValueKind = AttrValueKind::Str;
    const OPTIONAL: bool = true;
    fn read(ctx: &'c Context, a: Option<Attr>) -> Option<&'c str> {
        a.and_then(|a| str_of(ctx, a))
    }
    fn make(self, ctx: &mut Context, _: &AttrDef) -> Option<Attr> {
        self.map(|s| ctx.str_attr(s))
    }
}

/// An integer-valued keyword enum (declared with [`op_enum!`](crate::op_enum)): the case index
/// is the stored integer, the keyword is the custom-form spelling.
pub trait KeywordEnum: Copy + Sized + 'static {
    /// The keywords, in the order of the stored integers.
    const KEYWORDS: &'static [&'static str];
    /// The case stored as `i`.
    fn from_index(i: i64) -> Option<Self>;
    /// The stored integer.
    fn index(self) -> i64;
    /// The custom-form keyword.
    fn keyword(self) -> &'static str {
        Self::KEYWORDS[self.index() as usize]
    }
}

impl<'c, E: KeywordEnum> AttrValue<'c> for Option<E> {
    const KIND: AttrValueKind = AttrValueKind::Keywords(E::KEYWORDS);
    const OPTIONAL: bool = true;
    fn read(ctx: &'c Context, a: Option<Attr>) -> Option<E> {
        enum_of(ctx, a)
    }
    fn make(self, ctx: &mut Context, def: &AttrDef) -> Option<Attr> {
        self.map(|e| enum_attr_of(ctx, def, e))
    }
}

/// Reads a keyword enum; a verified op always holds one of its cases.
pub fn enum_of<E: KeywordEnum>(ctx: &Context, a: Option<Attr>) -> Option<E> {
    a.and_then(|a| int_of(ctx, a)).and_then(E::from_index)
}

/// The attribute for a keyword enum case.
pub fn enum_attr_of<E: KeywordEnum>(ctx: &mut Context, def: &AttrDef, e: E) -> Attr {
    make_int(ctx, def, e.index())
}

/// Sizes of the operand groups `build` was given, as `operandSegmentSizes`.
pub fn segment_sizes_attr(ctx: &mut Context, sizes: &[usize]) -> Attr {
    let sizes: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
    ctx.int_array_attr(32, &sizes)
}

/// Assembles and creates an op for a typed builder: properties in declaration order, segment
/// sizes when the op declares `AttrSizedOperandSegments`, fresh empty regions.
pub fn create(
    b: &mut OpBuilder,
    def: &'static OpDef,
    operands: Vec<Value>,
    sizes: &[usize],
    result_types: Vec<Type>,
    props: Vec<(&'static str, Option<Attr>)>,
    successors: Vec<BlockId>,
) -> OpId {
    let ctx = b.ctx_mut();
    let mut entries: Vec<(String, Attr)> = props
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
        .collect();
    if def.has(Trait::AttrSizedOperandSegments) {
        let a = segment_sizes_attr(ctx, sizes);
        entries.push(("operandSegmentSizes".into(), a));
    }
    let regions: Vec<RegionId> = def.regions.iter().map(|_| ctx.create_region()).collect();
    let name = ctx.op_name(def.name);
    let properties = (!entries.is_empty()).then(|| ctx.dict_attr(entries));
    let loc = b.loc();
    let mut st = OperationState::new(name, loc);
    st.operands = operands;
    st.result_types = result_types;
    st.properties = properties;
    st.regions = regions;
    st.successors = successors;
    b.create(st)
}

/// Declares a keyword enum for an integer enum attribute. Its cases are checked against each
/// attribute that a handle reads as this enum, at compile time.
///
/// ```ignore
/// tilus_ir::op_enum! {
///     /// An `arith.cmpi` predicate.
///     pub enum CmpIPredicate { Eq = "eq", Ne = "ne", Slt = "slt", /* ... */ }
/// }
/// ```
#[macro_export]
macro_rules! op_enum {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $case:ident = $kw:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        $vis enum $name { $($(#[$vm])* $case),* }
        impl $crate::handle::KeywordEnum for $name {
            const KEYWORDS: &'static [&'static str] = &[$($kw),*];
            fn from_index(i: i64) -> Option<Self> {
                const ALL: &[$name] = &[$($name::$case),*];
                usize::try_from(i).ok().and_then(|i| ALL.get(i).copied())
            }
            fn index(self) -> i64 {
                self as i64
            }
        }
        impl<'c> $crate::handle::AttrValue<'c> for $name {
            const KIND: $crate::handle::AttrValueKind =
                $crate::handle::AttrValueKind::Keywords(<$name as $crate::handle::KeywordEnum>::KEYWORDS);
            const OPTIONAL: bool = false;
            fn read(ctx: &'c $crate::Context, a: Option<$crate::Attr>) -> Self {
                $crate::handle::enum_of(ctx, a).expect("op handle: a verified enum attribute is out of range")
            }
            fn make(self, ctx: &mut $crate::Context, def: &$crate::opdef::AttrDef) -> Option<$crate::Attr> {
                Some($crate::handle::enum_attr_of(ctx, def, self))
            }
        }
    };
}

/// Declares the typed handle of one op, next to its declaration (a `static OpDef`).
///
/// Each slot is `accessor = "declared name": Type`. Operands and results are read as `Value`
/// (single), `Option<Value>` (optional) or `&[Value]` (variadic); attributes as `Attr`,
/// `Option<Attr>`, `bool` (unit flag), `i64`/`Option<i64>`, `&str`/`Option<&str>` or an
/// [`op_enum!`](crate::op_enum) type. All slots must be listed, in declaration order, and each
/// is checked against the declaration at compile time.
///
/// ```ignore
/// tilus_ir::op_handle! {
///     /// `arith.addi`.
///     pub struct AddIOp = ADDI;
///     operands { lhs = "lhs": Value, rhs = "rhs": Value }
///     results { result = "result": Value }
///     attrs { overflow_flags = "overflowFlags": Option<Attr> }
///     regions {}
///     successors {}
/// }
/// ```
#[macro_export]
macro_rules! op_handle {
    (
        $(#[$m:meta])*
        $vis:vis struct $name:ident = $def:path;
        operands { $($on:ident = $os:literal : $ot:ty),* $(,)? }
        results { $($rn:ident = $rs:literal : $rt:ty),* $(,)? }
        attrs { $($an:ident = $as:literal : $at:ty),* $(,)? }
        regions { $($gn:ident = $gs:literal $(: $gk:ident)?),* $(,)? }
        successors { $($sn:ident = $ss:literal $(: $sk:ident)?),* $(,)? }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        $vis struct $name($crate::OpId);

        const _: () = $crate::handle::check_complete(
            &$def,
            <[&str]>::len(&[$($os),*]),
            <[&str]>::len(&[$($rs),*]),
            <[&str]>::len(&[$($as),*]),
            <[&str]>::len(&[$($gs),*]),
            <[&str]>::len(&[$($ss),*]),
        );

        #[allow(dead_code, clippy::too_many_arguments, clippy::needless_lifetimes)]
        impl $name {
            /// The declaration this handle reads.
            pub const DEF: &'static $crate::OpDef = &$def;

            /// The handle of `op` when it is this op (compares the registered declaration's
            /// address, not its name).
            #[inline]
            pub fn cast(ctx: &$crate::Context, op: $crate::OpId) -> Option<Self> {
                $crate::handle::is(ctx, op, &$def).then_some($name(op))
            }

            /// Whether `op` is this op.
            #[inline]
            pub fn is(ctx: &$crate::Context, op: $crate::OpId) -> bool {
                $crate::handle::is(ctx, op, &$def)
            }

            /// The op.
            #[inline]
            pub fn op(self) -> $crate::OpId {
                self.0
            }

            /// The handle of an op known to be this op (the dialect enum's `classify`).
            #[doc(hidden)]
            #[inline]
            pub fn from_id_unchecked(op: $crate::OpId) -> Self {
                $name(op)
            }

            $(
                #[doc = concat!("Operand group `", $os, "`.")]
                pub fn $on(self, ctx: &$crate::Context) -> $ot {
                    const I: usize = $crate::handle::operand_slot(
                        &$def, $os, <$ot as $crate::handle::BuildSlot>::ARITY);
                    $crate::handle::operand(ctx, &$def, self.0, I)
                }
            )*
            $(
                #[doc = concat!("Result group `", $rs, "`.")]
                pub fn $rn(self, ctx: &$crate::Context) -> $rt {
                    const I: usize = $crate::handle::result_slot(
                        &$def, $rs, <$rt as $crate::handle::BuildSlot>::ARITY);
                    $crate::handle::result(ctx, &$def, self.0, I)
                }
            )*
            $(
                #[doc = concat!("Attribute `", $as, "` (its declared default when absent).")]
                pub fn $an(self, ctx: &$crate::Context) -> $at {
                    const I: usize = $crate::handle::attr_slot(
                        &$def, $as,
                        <$at as $crate::handle::AttrValue>::KIND,
                        <$at as $crate::handle::AttrValue>::OPTIONAL);
                    $crate::handle::attribute(ctx, &$def, self.0, I)
                }
            )*
            $(
                $crate::__handle_region!($def, $gn, $gs $(, $gk)?);
            )*
            $(
                $crate::__handle_successor!($def, $sn, $ss $(, $sk)?);
            )*

            /// Creates the op at the builder's insertion point and location, from its slots in
            /// declaration order: operands, result types, attributes (regions are created
            /// empty), successors.
            pub fn build(
                builder: &mut $crate::builder::OpBuilder,
                $($on: <$ot as $crate::handle::BuildSlot>::Operand<'_>,)*
                $($rn: <$rt as $crate::handle::BuildSlot>::Result<'_>,)*
                $($an: $at,)*
                $($sn: $crate::__handle_successor_arg!($($sk)?),)*
            ) -> Self {
                let mut operands = Vec::new();
                let sizes: &[usize] = &[$(
                    <$ot as $crate::handle::BuildSlot>::push_operand($on, &mut operands)
                ),*];
                let mut results = Vec::new();
                $(<$rt as $crate::handle::BuildSlot>::push_result($rn, &mut results);)*
                let props: Vec<(&'static str, Option<$crate::Attr>)> = vec![$({
                    const I: usize = $crate::handle::attr_slot(
                        &$def, $as,
                        <$at as $crate::handle::AttrValue>::KIND,
                        <$at as $crate::handle::AttrValue>::OPTIONAL);
                    let d = &$def.attributes[I];
                    (d.name, $crate::handle::AttrValue::make($an, builder.ctx_mut(), d))
                }),*];
                let mut successors: Vec<$crate::BlockId> = Vec::new();
                $($crate::handle::SuccessorArg::push_to($sn, &mut successors);)*
                let op = $crate::handle::create(
                    builder, &$def, operands, sizes, results, props, successors);
                $name(op)
            }
        }
    };
}

/// A successor argument of a generated `build`: one block, or the blocks of a variadic slot.
pub trait SuccessorArg {
    /// Appends the block(s) to the op's successor list.
    fn push_to(self, out: &mut Vec<BlockId>);
}
impl SuccessorArg for BlockId {
    fn push_to(self, out: &mut Vec<BlockId>) {
        out.push(self);
    }
}
impl SuccessorArg for Vec<BlockId> {
    fn push_to(self, out: &mut Vec<BlockId>) {
        out.extend(self);
    }
}

/// A region accessor of [`op_handle!`]: one region, or (`: many`) the regions of a variadic slot.
#[doc(hidden)]
#[macro_export]
macro_rules! __handle_region {
    ($def:path, $gn:ident, $gs:literal) => {
        #[doc = concat!("Region `", $gs, "`.")]
        pub fn $gn(self, ctx: &$crate::Context) -> $crate::RegionId {
            const I: usize = $crate::handle::region_slot(&$def, $gs);
            let rs = ctx.regions(self.0);
            rs[$def.region_range(I, rs.len()).map_or(I, |r| r.start)]
        }
    };
    ($def:path, $gn:ident, $gs:literal, many) => {
        #[doc = concat!("Regions `", $gs, "` (a variadic slot).")]
        pub fn $gn(self, ctx: &$crate::Context) -> &[$crate::RegionId] {
            const I: usize = $crate::handle::region_slot(&$def, $gs);
            let rs = ctx.regions(self.0);
            &rs[$def.region_range(I, rs.len()).unwrap_or(0..0)]
        }
    };
}

/// A successor accessor of [`op_handle!`]: one block, or (`: many`) those of a variadic slot.
#[doc(hidden)]
#[macro_export]
macro_rules! __handle_successor {
    ($def:path, $sn:ident, $ss:literal) => {
        #[doc = concat!("Successor `", $ss, "`.")]
        pub fn $sn(self, ctx: &$crate::Context) -> $crate::BlockId {
            const I: usize = $crate::handle::successor_slot(&$def, $ss);
            let ss = ctx.successors(self.0);
            ss[$def.successor_range(I, ss.len()).map_or(I, |r| r.start)]
        }
    };
    ($def:path, $sn:ident, $ss:literal, many) => {
        #[doc = concat!("Successors `", $ss, "` (a variadic slot).")]
        pub fn $sn(self, ctx: &$crate::Context) -> &[$crate::BlockId] {
            const I: usize = $crate::handle::successor_slot(&$def, $ss);
            let ss = ctx.successors(self.0);
            &ss[$def.successor_range(I, ss.len()).unwrap_or(0..0)]
        }
    };
}

/// The builder argument of a successor slot in [`op_handle!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __handle_successor_arg {
    () => { $crate::BlockId };
    (many) => { Vec<$crate::BlockId> };
}

/// Declares a dialect's op enum over its handles, with `classify(ctx, op)`, so that code
/// dispatching on the kind of op gets an exhaustive `match` the compiler checks. The variants
/// must follow the dialect's op list (checked at compile time); classification is one lookup of
/// the op's position in its dialect plus one pointer comparison.
#[macro_export]
macro_rules! op_enum_dispatch {
    ($(#[$m:meta])* $vis:vis enum $name:ident for $ops:path { $($var:ident($h:ty)),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        $vis enum $name { $(#[allow(missing_docs)] $var($h)),* }

        const _: () = {
            let mut i = 0;
            $(
                $crate::handle::check_position($ops, i, <$h>::DEF);
                i += 1;
            )*
            if i != $ops.len() {
                panic!("op handle: the dialect enum does not cover the dialect's op list");
            }
        };

        impl $name {
            /// The kind of `op`, when it is an op of this dialect.
            pub fn classify(ctx: &$crate::Context, op: $crate::OpId) -> Option<Self> {
                let i = ctx.op_position(op)?;
                let def = *$ops.get(i)?;
                if !ctx.op_def(op).is_some_and(|d| std::ptr::eq(d, def)) {
                    return None;
                }
                let mut k = 0usize;
                $(
                    if k == i {
                        return Some($name::$var(<$h>::from_id_unchecked(op)));
                    }
                    k += 1;
                )*
                let _ = k;
                None
            }

            /// The op.
            pub fn op(self) -> $crate::OpId {
                match self { $($name::$var(h) => h.op()),* }
            }
        }
    };
}

/// What handle declarations name: `use tilus_ir::handle::prelude::*;` beside them.
pub mod prelude {
    pub use crate::{Attr, Value};
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opdef::{many, maybe, one, opt_attr, ANY_TYPE, I64_ATTR, UNIT_ATTR};

    static T: OpDef = OpDef {
        name: "t.op",
        operands: &[
            one("a", ANY_TYPE),
            maybe("b", ANY_TYPE),
            many("c", ANY_TYPE),
        ],
        results: &[one("r", ANY_TYPE)],
        attributes: &[opt_attr("flag", UNIT_ATTR), opt_attr("n", I64_ATTR)],
        ..OpDef::DEFAULT
    };

    #[test]
    fn const_lookups_find_slots_by_name_and_kind() {
        const C: usize = operand_slot(&T, "c", Arity::Variadic);
        assert_eq!(C, 2);
        assert_eq!(operand_slot(&T, "a", Arity::Single), 0);
        assert_eq!(result_slot(&T, "r", Arity::Single), 0);
        assert_eq!(attr_slot(&T, "n", AttrValueKind::Int, true), 1);
        assert_eq!(attr_slot(&T, "flag", AttrValueKind::Flag, true), 0);
    }

    #[test]
    #[should_panic(expected = "no operand slot of this name")]
    fn a_missing_slot_is_rejected() {
        operand_slot(&T, "d", Arity::Single);
    }

    #[test]
    #[should_panic(expected = "another arity")]
    fn a_wrong_arity_is_rejected() {
        operand_slot(&T, "b", Arity::Single);
    }

    #[test]
    #[should_panic(expected = "a bool attribute must be a unit attribute")]
    fn a_wrong_attribute_kind_is_rejected() {
        attr_slot(&T, "n", AttrValueKind::Flag, true);
    }

    #[test]
    fn groups_without_segment_sizes_take_what_singles_leave() {
        let arities = [Arity::Single, Arity::Variadic, Arity::Single];
        assert_eq!(group_range(arities.iter().copied(), 5, 0), 0..1);
        assert_eq!(group_range(arities.iter().copied(), 5, 1), 1..4);
        assert_eq!(group_range(arities.iter().copied(), 5, 2), 4..5);
        assert_eq!(group_range(arities.iter().copied(), 2, 1), 1..1);
    }
}
