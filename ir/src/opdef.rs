//! Op definitions: one declaration per op is the source of truth for its parser, printer,
//! verifier and reference docs.
//!
//! An [`OpDef`] lists operands, results, attributes (inherent ones are MLIR properties), regions,
//! successors, traits, an optional extra verifier, the assembly format and the docs. Declarations
//! are `const` items; `const _: () = MY_OP.check();` validates the assembly format against the
//! declared names while the crate compiles, so a typo in a format is a build error, not a runtime
//! surprise.

use crate::attrs::{Attr, AttrKind};
use crate::context::{Context, OpId};
use crate::diag::Diagnostic;
use crate::mutation::{FoldFn, MaterializeFn, Pattern};
use crate::types::{FloatKind, Signedness, Type, TypeKind};
use std::any::Any;

/// How many values an operand or result slot takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arity {
    /// Exactly one.
    Single,
    /// Zero or one.
    Optional,
    /// Any number.
    Variadic,
}

/// A predicate on types with the words a verifier error uses for it.
#[derive(Clone, Copy)]
pub struct TypeConstraint {
    /// E.g. "signless-integer-like"; appears in "must be <desc>, but got 'f32'".
    pub desc: &'static str,
    /// The check.
    pub check: fn(&Context, Type) -> bool,
    /// The one type that satisfies it, when there is one (lets formats omit the type).
    pub build: Option<fn(&mut Context) -> Type>,
}

/// An operand or result slot.
#[derive(Clone, Copy)]
pub struct ValueDef {
    pub name: &'static str,
    pub ty: TypeConstraint,
    pub arity: Arity,
}

/// A predicate on attributes.
#[derive(Clone, Copy)]
pub struct AttrConstraint {
    /// E.g. "64-bit signless integer attribute".
    pub desc: &'static str,
    /// The check.
    pub check: fn(&Context, Attr) -> bool,
    /// When the attribute's type is fixed (e.g. `i64`), formats print it without `: type` and
    /// parse untyped literals with this type.
    pub value_type: Option<fn(&mut Context) -> Type>,
    /// For enum attributes stored as integers (e.g. `arith.cmpi` predicates): the keyword of each
    /// value, so custom forms read and write `slt` while the generic form keeps `2 : i64`.
    pub keywords: &'static [&'static str],
    /// For dialect attributes printed by formats without their `#dialect.name` prefix (MLIR's
    /// enum attributes: `overflow<nsw>` stands for `#arith.overflow<nsw>`): the dialect and name.
    pub short_form: Option<(&'static str, &'static str)>,
    /// How a declarative format spells the attribute when it is not the generic spelling.
    pub form: AttrForm,
}

/// A declarative format's spelling of an attribute, beyond keywords and short forms: MLIR gets
/// these from the attribute's C++ class, here the constraint says it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AttrForm {
    /// The attribute's own spelling (`array<i64: 1, 2>`, `"text"`, `4 : i32`).
    Plain,
    /// A dense integer array written as the bare list `[1, 2]` (MLIR's `DenseI64ArrayAttr` in a
    /// format), with this element width.
    IntList(u32),
    /// A string written as a symbol name, `@name` (MLIR's `SymbolNameAttr`).
    SymbolName,
}

/// An attribute slot.
#[derive(Clone, Copy)]
pub struct AttrDef {
    pub name: &'static str,
    pub constraint: AttrConstraint,
    /// May be absent.
    pub optional: bool,
    /// MLIR's `DefaultValuedAttr`: the value (as attribute text) an absent attribute stands for.
    /// The parser materializes it, as MLIR does, so generic output carries it; custom forms leave
    /// it out when the attribute has this value.
    pub default: Option<&'static str>,
}

/// A region slot.
#[derive(Clone, Copy)]
pub struct RegionDef {
    pub name: &'static str,
    /// `SizedRegion<1>`: at most one block.
    pub single_block: bool,
    /// MLIR's `VariadicRegion`: any number of regions (`scf.index_switch`'s cases). An op has
    /// at most one such slot; the regions before and after it are matched by position.
    pub variadic: bool,
    /// MLIR's `SingleBlockImplicitTerminator`, per region: the terminator the format's parser
    /// appends to a body written without it, and when its printer leaves it out again. Per region
    /// rather than per op because `scf.while` and `scf.index_switch` give it to one region only.
    pub implicit_terminator: Option<ImplicitTerminator>,
}

/// A terminator that a region's custom form may leave out (see
/// [`RegionDef::implicit_terminator`]).
#[derive(Clone, Copy)]
pub struct ImplicitTerminator {
    /// The terminator's declaration; the parser builds it without operands, each of its
    /// non-variadic regions with one empty block.
    pub op: &'static OpDef,
    /// When the printer leaves it out.
    pub elide: Elide,
}

/// When a region's printer leaves its implicit terminator out. The ops differ, as in MLIR, where
/// their printers pass their own `printBlockTerminators`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Elide {
    /// Always printed (`scf.parallel`'s `scf.reduce`, `scf.while`'s `after` yield): the parser
    /// only fills it in.
    Never,
    /// Left out when it carries nothing: no operands, results or attributes (MLIR's rule for a
    /// declarative format; `scf.if`, `scf.index_switch`).
    WhenEmpty,
    /// Left out when the op has no results (`scf.forall`, whose terminator writes the results).
    WhenOpHasNoResults,
}

impl RegionDef {
    /// This region with an implicit terminator.
    pub const fn implicit(self, op: &'static OpDef, elide: Elide) -> RegionDef {
        RegionDef {
            implicit_terminator: Some(ImplicitTerminator { op, elide }),
            ..self
        }
    }
}

/// A successor slot and the operand group it forwards to the target block's arguments.
#[derive(Clone, Copy)]
pub struct SuccessorDef {
    pub name: &'static str,
    /// Name of the operand group passed to the successor (`""` when none).
    pub operands: &'static str,
    /// MLIR's `VariadicSuccessor`: any number of successors (`cf.switch`'s cases). An op has
    /// at most one such slot.
    pub variadic: bool,
    /// For a variadic slot: the dense `i32` array property (MLIR's `VariadicOfVariadic`
    /// segments, `case_operand_segments`) that splits `operands` between its successors, one
    /// size per successor. Without it every successor of the slot would forward the whole group.
    pub segments: Option<&'static str>,
}

/// A successor forwarding the operand group `operands` (`""` for none).
pub const fn succ(name: &'static str, operands: &'static str) -> SuccessorDef {
    SuccessorDef {
        name,
        operands,
        variadic: false,
        segments: None,
    }
}

/// Any number of successors, successor `i` of them forwarding segment `i` of the operand group
/// `operands`, the segments' sizes being the `segments` property.
pub const fn many_succ(
    name: &'static str,
    operands: &'static str,
    segments: &'static str,
) -> SuccessorDef {
    SuccessorDef {
        name,
        operands,
        variadic: true,
        segments: Some(segments),
    }
}

/// Which declared slot the `index`-th of `count` actual regions or successors fills, for
/// `n` slots of which at most one (`var`) is variadic; `None` when `count` cannot fill them.
fn slot_of(n: usize, var: Option<usize>, index: usize, count: usize) -> Option<usize> {
    let fixed = n - var.is_some() as usize;
    match var {
        None => (count == n && index < count).then_some(index),
        Some(_) if count < fixed || index >= count => None,
        Some(vi) => {
            let extra = count - fixed;
            Some(if index < vi {
                index
            } else if index < vi + extra {
                vi
            } else {
                index + 1 - extra
            })
        }
    }
}

/// The actual positions slot `slot` covers among `count` regions or successors (one position
/// for a non-variadic slot), or `None` when `count` cannot fill the `n` slots.
fn slot_range(
    n: usize,
    var: Option<usize>,
    slot: usize,
    count: usize,
) -> Option<std::ops::Range<usize>> {
    let fixed = n - var.is_some() as usize;
    if count < fixed || slot >= n || (var.is_none() && count != fixed) {
        return None;
    }
    let extra = count - fixed;
    let start = match var {
        Some(v) if slot > v => slot - 1 + extra,
        _ => slot,
    };
    let len = if var == Some(slot) { extra } else { 1 };
    Some(start..start + len)
}

/// Structural properties the generic verifier and passes rely on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Trait {
    /// No side effects: CSE and DCE may remove or merge it.
    Pure,
    /// Must be the last op of its block.
    Terminator,
    /// Its regions cannot use values defined outside.
    IsolatedFromAbove,
    /// Its regions hold one block each and need no terminator.
    NoTerminator,
    /// Each region has exactly one block.
    SingleBlock,
    /// All operands and results have one type.
    SameOperandsAndResultType,
    /// All operands have one type.
    SameTypeOperands,
    /// Operand order does not matter.
    Commutative,
    /// Its region is a symbol table: `sym_name`s are unique in it.
    SymbolTable,
    /// It defines a symbol (`sym_name`).
    Symbol,
    /// Returns control to the parent op.
    ReturnLike,
    /// Produces a constant (its `value` attribute); folding hooks materialize through it.
    ConstantLike,
    /// Has exactly the side effects of the ops in its regions (MLIR's
    /// `RecursiveMemoryEffects`): an `scf.if` whose branches are pure is pure, so it is dead
    /// when its results are unused.
    RecursiveMemoryEffects,
    /// Must be directly nested in one of these ops.
    HasParent(&'static [&'static str]),
    /// Several variadic operand groups, sized by the `operandSegmentSizes` property.
    AttrSizedOperandSegments,
    /// The named operands/results all have one type (lets a format give it once).
    AllTypesMatch(&'static [&'static str]),
    /// Runs in each thread on that thread's own operand values, which may differ between the
    /// threads of a group (scalar arithmetic, `scf.if`, barrier arrivals). The interpreter
    /// hands such ops per-thread scalars as they are instead of requiring uniform ones.
    PerThread,
    /// Runs once for its whole thread group: every thread of the group reaches it and it acts
    /// for all of them (tile stores, shared allocations, WGMMA, tcgen05 data movement). The
    /// interpreter waits for the group there and merges it.
    Collective,
    /// Part of the asynchronous machinery (mbarriers, TMA, WGMMA, tcgen05) whose completion is
    /// observed through a barrier, a group wait or a fence rather than at the op; lowered to
    /// PTX by `async-to-ptx`.
    Async,
    /// Allocates shared memory that shared-memory planning places statically: once planned,
    /// an allocation nobody uses is dead.
    AllocatesShared,
    /// Releases shared memory; after planning it has no effect left and is erased.
    FreesShared,
    /// A view of existing shared memory (slice, permutation) that allocates nothing.
    SharedView,
    /// Reads memory (global, shared or tensor memory) besides its operands.
    MemRead,
    /// Writes memory (global, shared or tensor memory).
    MemWrite,
}

/// How an op is written in custom form.
#[derive(Clone, Copy)]
pub enum Format {
    /// Only the generic form.
    Generic,
    /// An MLIR-style declarative assembly format (see [`crate::format`]).
    Declarative(&'static str),
    /// Hand-written hooks, for syntax a declarative format cannot say even with a
    /// `custom<Name>(...)` directive (`func.func`, `scf.for`, kernels, `ptx.inst`). Written
    /// `format::custom_form(&CustomForm { parse, print })`; see [`AsmHooks`] for why the hooks
    /// are held type-erased.
    Custom(AsmHooks),
}

/// Parse/print hooks held by a declaration without naming their types.
///
/// The hooks take the parser and printer, which belong to the syntax layer above this one; if
/// [`OpDef`] named them, the declarations (and the context that stores them) would depend on
/// the parser, which depends on the context. So the declaration holds the hooks as `Any`, and
/// only the syntax layer makes and reads them: `format::custom_form` and `format::directive`
/// are the only constructors (the field is private to the crate), and the format engine
/// downcasts to the type that they put in, so the hooks keep their full static types at
/// both ends. This plays the role of the virtual functions of MLIR's `OperationName::Impl`.
#[derive(Clone, Copy)]
pub struct AsmHooks(pub(crate) &'static (dyn Any + Send + Sync));

/// A `custom<Name>(...)` directive as the declaration sees it: the name, which the compile-time
/// format check looks up, and the parse/print pair (`format::CustomDirective`), type-erased as
/// in [`AsmHooks`]. Written `format::directive(&CustomDirective { name, parse, print })`.
#[derive(Clone, Copy)]
pub struct CustomDirectiveDef {
    /// The `Name` in `custom<Name>`.
    pub name: &'static str,
    /// The hooks (a `format::CustomDirective`).
    pub hooks: AsmHooks,
}

/// An extra verifier for rules the declaration cannot state.
pub type VerifyFn = fn(&Context, OpId) -> Result<(), Diagnostic>;

/// The declaration of one op.
#[derive(Clone, Copy)]
pub struct OpDef {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    /// One line.
    pub summary: &'static str,
    /// One paragraph (Markdown) for the reference docs.
    pub description: &'static str,
    pub operands: &'static [ValueDef],
    pub results: &'static [ValueDef],
    /// Inherent attributes, stored as properties (`<{...}>` in generic form).
    pub attributes: &'static [AttrDef],
    pub regions: &'static [RegionDef],
    /// Successor names (each exactly one block).
    pub successors: &'static [SuccessorDef],
    pub traits: &'static [Trait],
    pub verify: Option<VerifyFn>,
    /// MLIR's `TypesMatchWith` from the first operand to the results: the result type as a
    /// function of the first operand's type (`arith.cmpi` on `vector<4xi32>` gives
    /// `vector<4xi1>`), so a format that writes only the operand type can build the results.
    pub infer_result: Option<fn(&mut Context, Type) -> Type>,
    pub format: Format,
    /// The parse/print pairs that the format's `custom<Name>(...)` directives call, by name
    /// (MLIR's `parseName`/`printName` functions beside the op). The format check rejects a
    /// directive whose name is not here.
    pub custom_directives: &'static [CustomDirectiveDef],
    /// Dialect whose ops may be written without prefix inside this op's regions.
    pub default_dialect: Option<&'static str>,
    /// Suggests a name for the op's result in custom form (`%c42_i32`, `%cst`), as MLIR's
    /// `OpAsmOpInterface` does; clashes get `_N` suffixes.
    pub result_name: Option<fn(&Context, OpId) -> Option<String>>,
    /// Suggests names for the arguments of the entry block of the op's first region in custom
    /// form (MLIR's `getAsmBlockArgumentNames`): a kernel prints its parameters under the names
    /// it was written with instead of `%argN`. `None` entries, names that are not identifiers
    /// and names already taken keep the default.
    #[allow(clippy::type_complexity)]
    pub block_arg_names: Option<fn(&Context, OpId) -> Vec<Option<String>>>,
    /// Folds the op given the constant values of its operands: to attributes (materialized as
    /// constants by the rewrite driver), to existing values, or in place. Never creates ops, so
    /// any driver (greedy, walk, a builder) can call it; see [`crate::mutation::FoldFn`].
    pub fold: Option<FoldFn>,
    /// Canonicalization patterns rooted at this op, collected by the `canonicalize` pass from
    /// every registered op (MLIR's `getCanonicalizationPatterns`).
    pub canonicalize: &'static [Pattern],
    /// Set on a dialect's constant op: builds that op for a folded attribute. Folding an op of
    /// dialect D materializes through the op of D that declares this (MLIR's
    /// `Dialect::materializeConstant`), so declarations stay the single source of truth.
    pub materialize_constant: Option<MaterializeFn>,
}

impl OpDef {
    /// A base to spread into declarations: `OpDef { name: ..., ..OpDef::DEFAULT }`.
    pub const DEFAULT: OpDef = OpDef {
        name: "",
        summary: "",
        description: "",
        operands: &[],
        results: &[],
        attributes: &[],
        regions: &[],
        successors: &[],
        traits: &[],
        verify: None,
        infer_result: None,
        format: Format::Generic,
        custom_directives: &[],
        default_dialect: None,
        result_name: None,
        block_arg_names: None,
        fold: None,
        canonicalize: &[],
        materialize_constant: None,
    };

    /// The region slot the `index`-th of an op's `count` regions fills (differs from `index`
    /// only after a variadic slot).
    pub fn region_slot_for(&self, index: usize, count: usize) -> Option<usize> {
        let var = self.regions.iter().position(|r| r.variadic);
        slot_of(self.regions.len(), var, index, count)
    }

    /// The positions among an op's `count` regions that region slot `slot` covers.
    pub fn region_range(&self, slot: usize, count: usize) -> Option<std::ops::Range<usize>> {
        let var = self.regions.iter().position(|r| r.variadic);
        slot_range(self.regions.len(), var, slot, count)
    }

    /// The successor slot the `index`-th of an op's `count` successors fills.
    pub fn successor_slot_for(&self, index: usize, count: usize) -> Option<usize> {
        let var = self.successors.iter().position(|r| r.variadic);
        slot_of(self.successors.len(), var, index, count)
    }

    /// The positions among an op's `count` successors that successor slot `slot` covers.
    pub fn successor_range(&self, slot: usize, count: usize) -> Option<std::ops::Range<usize>> {
        let var = self.successors.iter().position(|r| r.variadic);
        slot_range(self.successors.len(), var, slot, count)
    }

    /// Whether the op has a trait.
    pub fn has(&self, t: Trait) -> bool {
        let mut i = 0;
        while i < self.traits.len() {
            if trait_eq(self.traits[i], t) {
                return true;
            }
            i += 1;
        }
        false
    }

    /// `IsolatedFromAbove`.
    pub fn is_isolated(&self) -> bool {
        self.has(Trait::IsolatedFromAbove)
    }

    /// The dialect namespace (text before the first dot).
    pub fn dialect(&self) -> &'static str {
        match self.name.split_once('.') {
            Some((d, _)) => d,
            None => self.name,
        }
    }

    /// The attribute slot of that name.
    pub fn attr(&self, name: &str) -> Option<&AttrDef> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// Compile-time validation of the declaration; use as `const _: () = OP.check();`.
    ///
    /// Panics (a compile error in const context) when the name lacks a dialect prefix, when two
    /// slots share a name, or when the assembly format names something undeclared, leaves an
    /// operand, region or successor out, or lacks `attr-dict`.
    pub const fn check(&self) {
        if !contains_byte(self.name.as_bytes(), b'.') {
            panic!("op name must be `dialect.op`");
        }
        crate::format_check::check_unique_names_const(self);
        let (mut i, mut vr) = (0, 0);
        while i < self.regions.len() {
            vr += self.regions[i].variadic as usize;
            i += 1;
        }
        let (mut i, mut vs) = (0, 0);
        while i < self.successors.len() {
            vs += self.successors[i].variadic as usize;
            i += 1;
        }
        if vr > 1 || vs > 1 {
            panic!(
                "an op may have at most one variadic region slot and one variadic successor slot"
            );
        }
        if let Format::Declarative(f) = self.format {
            crate::format_check::check_format_const(self, f.as_bytes());
        }
    }
}

const fn trait_eq(a: Trait, b: Trait) -> bool {
    // HasParent compares by kind only; the list is looked at by the verifier.
    matches!(
        (a, b),
        (Trait::Pure, Trait::Pure)
            | (Trait::Terminator, Trait::Terminator)
            | (Trait::IsolatedFromAbove, Trait::IsolatedFromAbove)
            | (Trait::NoTerminator, Trait::NoTerminator)
            | (Trait::SingleBlock, Trait::SingleBlock)
            | (
                Trait::SameOperandsAndResultType,
                Trait::SameOperandsAndResultType
            )
            | (Trait::SameTypeOperands, Trait::SameTypeOperands)
            | (Trait::Commutative, Trait::Commutative)
            | (Trait::SymbolTable, Trait::SymbolTable)
            | (Trait::Symbol, Trait::Symbol)
            | (Trait::ReturnLike, Trait::ReturnLike)
            | (Trait::ConstantLike, Trait::ConstantLike)
            | (Trait::RecursiveMemoryEffects, Trait::RecursiveMemoryEffects)
            | (Trait::HasParent(_), Trait::HasParent(_))
            | (
                Trait::AttrSizedOperandSegments,
                Trait::AttrSizedOperandSegments
            )
            | (Trait::AllTypesMatch(_), Trait::AllTypesMatch(_))
            | (Trait::PerThread, Trait::PerThread)
            | (Trait::Collective, Trait::Collective)
            | (Trait::Async, Trait::Async)
            | (Trait::AllocatesShared, Trait::AllocatesShared)
            | (Trait::FreesShared, Trait::FreesShared)
            | (Trait::SharedView, Trait::SharedView)
            | (Trait::MemRead, Trait::MemRead)
            | (Trait::MemWrite, Trait::MemWrite)
    )
}

const fn contains_byte(s: &[u8], c: u8) -> bool {
    let mut i = 0;
    while i < s.len() {
        if s[i] == c {
            return true;
        }
        i += 1;
    }
    false
}

// ----- declaration helpers ------------------------------------------------------------------

/// One operand/result of a constrained type.
pub const fn one(name: &'static str, ty: TypeConstraint) -> ValueDef {
    ValueDef {
        name,
        ty,
        arity: Arity::Single,
    }
}
/// A variadic operand/result group.
pub const fn many(name: &'static str, ty: TypeConstraint) -> ValueDef {
    ValueDef {
        name,
        ty,
        arity: Arity::Variadic,
    }
}
/// An optional operand/result.
pub const fn maybe(name: &'static str, ty: TypeConstraint) -> ValueDef {
    ValueDef {
        name,
        ty,
        arity: Arity::Optional,
    }
}
/// A required attribute.
pub const fn attr(name: &'static str, constraint: AttrConstraint) -> AttrDef {
    AttrDef {
        name,
        constraint,
        optional: false,
        default: None,
    }
}
/// An optional attribute.
pub const fn opt_attr(name: &'static str, constraint: AttrConstraint) -> AttrDef {
    AttrDef {
        name,
        constraint,
        optional: true,
        default: None,
    }
}
/// A region.
/// An optional attribute with a default value (MLIR's `DefaultValuedAttr`), given as attribute
/// text such as `#arith.overflow<none>`.
pub const fn default_attr(
    name: &'static str,
    constraint: AttrConstraint,
    default: &'static str,
) -> AttrDef {
    AttrDef {
        name,
        constraint,
        optional: true,
        default: Some(default),
    }
}

pub const fn region(name: &'static str) -> RegionDef {
    RegionDef {
        name,
        single_block: false,
        variadic: false,
        implicit_terminator: None,
    }
}
/// A single-block region.
pub const fn block_region(name: &'static str) -> RegionDef {
    RegionDef {
        name,
        single_block: true,
        variadic: false,
        implicit_terminator: None,
    }
}
/// Any number of single-block regions (MLIR's `VariadicRegion<SizedRegion<1>>`).
pub const fn many_block_regions(name: &'static str) -> RegionDef {
    RegionDef {
        name,
        single_block: true,
        variadic: true,
        implicit_terminator: None,
    }
}

// ----- type constraints ---------------------------------------------------------------------

fn elem_of(ctx: &Context, t: Type) -> Type {
    match ctx.type_kind(t) {
        TypeKind::Vector { elem, .. }
        | TypeKind::RankedTensor { elem, .. }
        | TypeKind::UnrankedTensor { elem } => *elem,
        _ => t,
    }
}

fn is_signless_int_or_index(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.type_kind(t),
        TypeKind::Integer {
            signedness: Signedness::Signless,
            ..
        } | TypeKind::Index
    )
}

/// Any type.
pub const ANY_TYPE: TypeConstraint = TypeConstraint {
    desc: "any type",
    check: |_, _| true,
    build: None,
};
/// `index`.
pub const INDEX: TypeConstraint = TypeConstraint {
    desc: "index",
    check: |c, t| matches!(c.type_kind(t), TypeKind::Index),
    build: Some(|c| c.index_type()),
};
/// `i1`.
pub const I1: TypeConstraint = TypeConstraint {
    desc: "1-bit signless integer",
    check: |c, t| {
        matches!(
            c.type_kind(t),
            TypeKind::Integer {
                width: 1,
                signedness: Signedness::Signless
            }
        )
    },
    build: Some(|c| c.int_type(1)),
};
/// `i32`.
pub const I32: TypeConstraint = TypeConstraint {
    desc: "32-bit signless integer",
    check: |c, t| {
        matches!(
            c.type_kind(t),
            TypeKind::Integer {
                width: 32,
                signedness: Signedness::Signless
            }
        )
    },
    build: Some(|c| c.int_type(32)),
};
/// `i64`.
pub const I64: TypeConstraint = TypeConstraint {
    desc: "64-bit signless integer",
    check: |c, t| {
        matches!(
            c.type_kind(t),
            TypeKind::Integer {
                width: 64,
                signedness: Signedness::Signless
            }
        )
    },
    build: Some(|c| c.int_type(64)),
};
/// Any signless integer or index, or a vector/tensor of them.
pub const SIGNLESS_INT_LIKE: TypeConstraint = TypeConstraint {
    desc: "signless-integer-like",
    check: |c, t| is_signless_int_or_index(c, elem_of(c, t)),
    build: None,
};
/// `i1` or a vector/tensor of `i1`.
pub const BOOL_LIKE: TypeConstraint = TypeConstraint {
    desc: "bool-like",
    check: |c, t| {
        matches!(
            c.type_kind(elem_of(c, t)),
            TypeKind::Integer {
                width: 1,
                signedness: Signedness::Signless
            }
        )
    },
    build: None,
};
/// `i1` in the shape of `t` (MLIR's `getI1SameShape`): `i1` for a scalar, `vector<4xi1>` for
/// `vector<4xf32>`, `tensor<?xi1>` for `tensor<?xi32>`.
pub fn i1_same_shape(c: &mut Context, t: Type) -> Type {
    let i1 = c.int_type(1);
    match c.type_kind(t).clone() {
        TypeKind::Vector {
            shape, scalable, ..
        } => c.ty(TypeKind::Vector {
            shape,
            scalable,
            elem: i1,
        }),
        TypeKind::RankedTensor { shape, .. } => c.ty(TypeKind::RankedTensor {
            shape,
            elem: i1,
            encoding: None,
        }),
        TypeKind::UnrankedTensor { .. } => c.ty(TypeKind::UnrankedTensor { elem: i1 }),
        _ => i1,
    }
}

/// Any float, or a vector/tensor of floats.
pub const FLOAT_LIKE: TypeConstraint = TypeConstraint {
    desc: "floating-point-like",
    check: |c, t| matches!(c.type_kind(elem_of(c, t)), TypeKind::Float(_)),
    build: None,
};
/// Any integer (any signedness).
pub const ANY_INTEGER: TypeConstraint = TypeConstraint {
    desc: "integer",
    check: |c, t| matches!(c.type_kind(t), TypeKind::Integer { .. }),
    build: None,
};
/// A scalar integer, index or float.
pub const SCALAR: TypeConstraint = TypeConstraint {
    desc: "integer, index or floating-point",
    check: |c, t| {
        matches!(
            c.type_kind(t),
            TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_)
        )
    },
    build: None,
};
/// `f32`.
pub const F32: TypeConstraint = TypeConstraint {
    desc: "32-bit float",
    check: |c, t| matches!(c.type_kind(t), TypeKind::Float(FloatKind::F32)),
    build: Some(|c| c.float_type(FloatKind::F32)),
};

// ----- attribute constraints ----------------------------------------------------------------

/// Any attribute.
pub const ANY_ATTR: AttrConstraint = AttrConstraint {
    desc: "any attribute",
    check: |_, _| true,
    value_type: None,
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// A string.
pub const STR_ATTR: AttrConstraint = AttrConstraint {
    desc: "string attribute",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::String { ty: None, .. }),
    value_type: None,
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// A unit attribute.
pub const UNIT_ATTR: AttrConstraint = AttrConstraint {
    desc: "unit attribute",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::Unit),
    value_type: None,
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// A symbol's own name (`sym_name`): a string that formats write as `@name`.
pub const SYMBOL_NAME: AttrConstraint = AttrConstraint {
    form: AttrForm::SymbolName,
    ..STR_ATTR
};

/// A flat symbol reference (`@name`).
pub const FLAT_SYMBOL_REF: AttrConstraint = AttrConstraint {
    desc: "flat symbol reference attribute",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::SymbolRef { nested, .. } if nested.is_empty()),
    value_type: None,
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// A function type as a type attribute.
pub const FUNCTION_TYPE_ATTR: AttrConstraint = AttrConstraint {
    desc: "type attribute of function type",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::Type(t) if matches!(c.type_kind(*t), TypeKind::Function { .. })),
    value_type: None,
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// Any typed attribute (integer, float, dense, ...): what constants hold.
pub const TYPED_ATTR: AttrConstraint = AttrConstraint {
    desc: "typed attribute",
    check: |c, a| typed_attr_type(c, a).is_some(),
    value_type: None,
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// A 64-bit signless integer.
pub const I64_ATTR: AttrConstraint = AttrConstraint {
    desc: "64-bit signless integer attribute",
    check: |c, a| {
        matches!(c.attr_kind(a), AttrKind::Integer { ty, .. }
            if matches!(c.type_kind(*ty), TypeKind::Integer { width: 64, signedness: Signedness::Signless }))
    },
    value_type: Some(|c| c.int_type(64)),
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// A 32-bit signless integer.
pub const I32_ATTR: AttrConstraint = AttrConstraint {
    desc: "32-bit signless integer attribute",
    check: |c, a| {
        matches!(c.attr_kind(a), AttrKind::Integer { ty, .. }
            if matches!(c.type_kind(*ty), TypeKind::Integer { width: 32, signedness: Signedness::Signless }))
    },
    value_type: Some(|c| c.int_type(32)),
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// An array of strings (names).
pub const STR_ARRAY_ATTR: AttrConstraint = AttrConstraint {
    desc: "array of string attributes",
    check: |c, a| match c.attr_kind(a) {
        AttrKind::Array(xs) => xs
            .iter()
            .all(|x| matches!(c.attr_kind(*x), AttrKind::String { ty: None, .. })),
        _ => false,
    },
    value_type: None,
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// An array of dictionaries (argument / result attributes).
pub const DICT_ARRAY_ATTR: AttrConstraint = AttrConstraint {
    desc: "array of dictionary attributes",
    check: |c, a| match c.attr_kind(a) {
        AttrKind::Array(xs) => xs
            .iter()
            .all(|x| matches!(c.attr_kind(*x), AttrKind::Dict(_))),
        _ => false,
    },
    value_type: None,
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};
/// `array<i32: ...>`.
pub const DENSE_I32_ARRAY: AttrConstraint = AttrConstraint {
    desc: "i32 dense array attribute",
    check: |c, a| {
        matches!(c.attr_kind(a), AttrKind::DenseArray { elem, .. }
        if matches!(c.type_kind(*elem), TypeKind::Integer { width: 32, .. }))
    },
    value_type: None,
    keywords: &[],
    short_form: None,
    form: AttrForm::Plain,
};

/// The type an attribute carries (`1 : i32` → `i32`), for constants.
pub fn typed_attr_type(c: &Context, a: Attr) -> Option<Type> {
    match c.attr_kind(a) {
        AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } => Some(*ty),
        AttrKind::DenseElements { ty, .. }
        | AttrKind::DenseResource { ty, .. }
        | AttrKind::Sparse { ty, .. } => Some(*ty),
        AttrKind::String { ty: Some(t), .. } => Some(*t),
        _ => None,
    }
}

/// An integer-valued enum attribute whose cases are spelled as keywords in custom forms.
pub const fn enum_attr(desc: &'static str, keywords: &'static [&'static str]) -> AttrConstraint {
    AttrConstraint {
        desc,
        check: |c, a| {
            matches!(c.attr_kind(a), AttrKind::Integer { ty, .. }
                if matches!(c.type_kind(*ty), TypeKind::Integer { width: 64, signedness: Signedness::Signless }))
        },
        value_type: Some(|c| c.int_type(64)),
        keywords,
        short_form: None,
        form: AttrForm::Plain,
    }
}

/// Renders a dialect's reference page (Markdown) from its op declarations, so the docs cannot
/// drift from what the parser, printer and verifier do.
pub fn dialect_markdown(namespace: &str, ops: &[&OpDef]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "# `{namespace}` dialect\n");
    let _ = writeln!(
        s,
        "<!-- Generated from the op declarations by `tilus-opt --dump-op-docs`; do not edit. -->\n"
    );
    for op in ops {
        let _ = writeln!(s, "## `{}`\n", op.name);
        let _ = writeln!(s, "{}\n", op.summary);
        if op.description != op.summary {
            let _ = writeln!(s, "{}\n", op.description);
        }
        match op.format {
            Format::Declarative(f) => {
                let _ = writeln!(s, "Assembly format:\n\n```text\n{f}\n```\n");
            }
            Format::Custom(_) => {
                let _ = writeln!(
                    s,
                    "Assembly format: hand-written (see the examples in the description).\n"
                );
            }
            Format::Generic => {
                let _ = writeln!(s, "Assembly format: generic form only.\n");
            }
        }
        let arity = |a: Arity| match a {
            Arity::Single => "",
            Arity::Optional => " (optional)",
            Arity::Variadic => " (variadic)",
        };
        if !op.operands.is_empty() {
            let _ = writeln!(s, "| operand | type |\n|---|---|");
            for o in op.operands {
                let _ = writeln!(s, "| `{}` | {}{} |", o.name, o.ty.desc, arity(o.arity));
            }
            s.push('\n');
        }
        if !op.results.is_empty() {
            let _ = writeln!(s, "| result | type |\n|---|---|");
            for o in op.results {
                let _ = writeln!(s, "| `{}` | {}{} |", o.name, o.ty.desc, arity(o.arity));
            }
            s.push('\n');
        }
        if !op.attributes.is_empty() {
            let _ = writeln!(s, "| attribute (property) | constraint |\n|---|---|");
            for a in op.attributes {
                let opt = if a.optional { " (optional)" } else { "" };
                let kws = if a.constraint.keywords.is_empty() {
                    String::new()
                } else {
                    format!(": `{}`", a.constraint.keywords.join("`, `"))
                };
                let _ = writeln!(s, "| `{}` | {}{}{} |", a.name, a.constraint.desc, kws, opt);
            }
            s.push('\n');
        }
        if !op.regions.is_empty() {
            let names: Vec<String> = op
                .regions
                .iter()
                .map(|r| {
                    format!(
                        "`{}`{}",
                        r.name,
                        if r.single_block {
                            " (single block)"
                        } else {
                            ""
                        }
                    )
                })
                .collect();
            let _ = writeln!(s, "Regions: {}\n", names.join(", "));
        }
        if !op.successors.is_empty() {
            let names: Vec<String> = op
                .successors
                .iter()
                .map(|d| {
                    if d.operands.is_empty() {
                        format!("`{}`", d.name)
                    } else {
                        format!("`{}` (with `{}`)", d.name, d.operands)
                    }
                })
                .collect();
            let _ = writeln!(s, "Successors: {}\n", names.join(", "));
        }
        if !op.traits.is_empty() {
            let names: Vec<String> = op
                .traits
                .iter()
                .map(|t| match t {
                    Trait::HasParent(p) => format!("HasParent({})", p.join(", ")),
                    Trait::AllTypesMatch(p) => format!("AllTypesMatch({})", p.join(", ")),
                    other => format!("{other:?}"),
                })
                .collect();
            let _ = writeln!(s, "Traits: {}\n", names.join(", "));
        }
        if op.fold.is_some() || !op.canonicalize.is_empty() || op.materialize_constant.is_some() {
            let mut parts = Vec::new();
            if op.fold.is_some() {
                parts.push("has a folder".to_string());
            }
            if !op.canonicalize.is_empty() {
                let names: Vec<String> = op
                    .canonicalize
                    .iter()
                    .map(|p| format!("`{}`", p.name))
                    .collect();
                parts.push(format!("patterns {}", names.join(", ")));
            }
            if op.materialize_constant.is_some() {
                parts.push("materializes the dialect's folded constants".to_string());
            }
            let _ = writeln!(s, "Canonicalization: {}.\n", parts.join("; "));
        }
    }
    s
}

#[cfg(test)]
mod slot_tests {
    use super::{slot_of, slot_range};

    #[test]
    fn variadic_slot_in_the_middle_takes_the_extra_positions() {
        // Slots: fixed, variadic, fixed; five actual regions.
        let var = Some(1);
        let slots: Vec<_> = (0..5).map(|i| slot_of(3, var, i, 5).unwrap()).collect();
        assert_eq!(slots, [0, 1, 1, 1, 2]);
        assert_eq!(slot_range(3, var, 1, 5), Some(1..4));
        assert_eq!(slot_range(3, var, 2, 5), Some(4..5));
        // An empty variadic slot.
        assert_eq!(slot_range(3, var, 1, 2), Some(1..1));
        assert_eq!(slot_of(3, var, 1, 2), Some(2));
        // Too few for the fixed slots.
        assert_eq!(slot_of(3, var, 0, 1), None);
    }

    #[test]
    fn without_a_variadic_slot_the_count_must_match() {
        assert_eq!(slot_of(2, None, 1, 2), Some(1));
        assert_eq!(slot_of(2, None, 1, 3), None);
        assert_eq!(slot_range(2, None, 0, 3), None);
    }
}
