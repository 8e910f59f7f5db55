//! `arith`: scalar (and elementwise vector/tensor) integer and float arithmetic.
//!
//! Op names, operands and property names match MLIR's arith dialect, so IR moves between tilus
//! and `mlir-opt` unchanged. Enum properties (`predicate`) are integers in generic form and
//! keywords in custom form, as in MLIR.

use tilus_ir::attrs::AttrKind;
use tilus_ir::opdef::{
    attr, default_attr, enum_attr, one, typed_attr_type, AttrConstraint, AttrDef, Format, OpDef,
    Trait, TypeConstraint, BOOL_LIKE, FLOAT_LIKE, SIGNLESS_INT_LIKE, TYPED_ATTR,
};
use tilus_ir::rewrite::Rewriter;
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::types::Signedness;
use tilus_ir::{Attr, Context, Diagnostic, OpId, Type, TypeKind};

const INT_FORMAT: &str = "$lhs `,` $rhs attr-dict `:` type($result)";
const INT_OVF_FORMAT: &str =
    "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)";
const FLOAT_FORMAT: &str = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
const CAST_FORMAT: &str = "$in attr-dict `:` type($in) `to` type($out)";

/// `#arith.overflow<...>` ([`OverflowFlags`](crate::arith_attrs::OverflowFlags)).
const OVERFLOW_FLAGS: AttrConstraint = AttrConstraint {
    desc: "arith overflow flags (#arith.overflow<...>)",
    check: |c, a| crate::arith_attrs::OverflowFlags::of(c, a).is_some(),
    value_type: None,
    keywords: &[],
    short_form: Some(("arith", "overflow")),
    form: tilus_ir::opdef::AttrForm::Plain,
};
/// `#arith.fastmath<...>` ([`FastMathFlags`](crate::arith_attrs::FastMathFlags)).
const FASTMATH_FLAGS: AttrConstraint = AttrConstraint {
    desc: "arith fastmath flags (#arith.fastmath<...>)",
    check: |c, a| crate::arith_attrs::FastMathFlags::of(c, a).is_some(),
    value_type: None,
    keywords: &[],
    short_form: Some(("arith", "fastmath")),
    form: tilus_ir::opdef::AttrForm::Plain,
};

/// The `overflowFlags` property of the integer ops that take it (default `none`).
const OVERFLOW_ATTR: AttrDef =
    default_attr("overflowFlags", OVERFLOW_FLAGS, "#arith.overflow<none>");
/// The `fastmath` property of the float ops (default `none`).
const FASTMATH_ATTR: AttrDef = default_attr("fastmath", FASTMATH_FLAGS, "#arith.fastmath<none>");

macro_rules! binary {
    // The declaration and its typed handle (operands `lhs`, `rhs`, result `result`, and the
    // attributes listed), so the two cannot drift apart.
    ($id:ident, $name:literal, $ty:expr, $fmt:expr, [$($extra:expr),*], [$($tr:expr),*], $doc:literal,
     $fold:expr, $canon:expr, handle $h:ident { $($attrs:tt)* }) => {
        binary!($id, $name, $ty, $fmt, [$($extra),*], [$($tr),*], $doc, $fold, $canon);
        tilus_ir::op_handle! {
            #[doc = concat!("Typed handle of `", $name, "`.")]
            pub struct $h = $id;
            operands {
                lhs = "lhs": Value,
                rhs = "rhs": Value
            }
            results {
                result = "result": Value
            }
            attrs { $($attrs)* }
            regions {}
            successors {}
        }
    };
    ($id:ident, $name:literal, $ty:expr, $fmt:expr, [$($extra:expr),*], [$($tr:expr),*], $doc:literal) => {
        binary!($id, $name, $ty, $fmt, [$($extra),*], [$($tr),*], $doc, None, &[]);
    };
    ($id:ident, $name:literal, $ty:expr, $fmt:expr, [$($extra:expr),*], [$($tr:expr),*], $doc:literal, $fold:expr, $canon:expr) => {
        #[doc = $doc]
        pub static $id: OpDef = OpDef {
            name: $name,
            summary: $doc,
            description: $doc,
            operands: &[one("lhs", $ty), one("rhs", $ty)],
            results: &[one("result", $ty)],
            attributes: &[$($extra),*],
            traits: &[Trait::Pure, Trait::PerThread, Trait::SameOperandsAndResultType $(, $tr)*],
            format: Format::Declarative($fmt),
            fold: $fold,
            canonicalize: $canon,
            ..OpDef::DEFAULT
        };
        const _: () = $id.check();
    };
}

mod cast;
mod cmp;
mod constant;
mod extended;
mod float;
mod int;
mod scaling;

mod canon;
mod fold;
mod helpers;

pub use cast::*;
pub use cmp::*;
pub use constant::*;
pub use extended::*;
pub use float::*;
pub use int::*;
pub use scaling::*;

/// The arith dialect's ops.
pub static OPS: &[&OpDef] = &[
    &CONSTANT,
    &ADDI,
    &SUBI,
    &MULI,
    &DIVSI,
    &DIVUI,
    &REMSI,
    &REMUI,
    &ANDI,
    &ORI,
    &XORI,
    &SHLI,
    &SHRSI,
    &SHRUI,
    &MAXSI,
    &MINSI,
    &MAXUI,
    &MINUI,
    &CEILDIVSI,
    &CEILDIVUI,
    &FLOORDIVSI,
    &ADDUI_EXTENDED,
    &MULSI_EXTENDED,
    &MULUI_EXTENDED,
    &ADDF,
    &SUBF,
    &MULF,
    &DIVF,
    &MAXIMUMF,
    &MINIMUMF,
    &MAXNUMF,
    &MINNUMF,
    &REMF,
    &NEGF,
    &CMPI,
    &CMPF,
    &SELECT,
    &INDEX_CAST,
    &INDEX_CASTUI,
    &EXTSI,
    &EXTUI,
    &TRUNCI,
    &SITOFP,
    &UITOFP,
    &FPTOSI,
    &FPTOUI,
    &EXTF,
    &TRUNCF,
    &BITCAST,
    &SCALING_EXTF,
    &SCALING_TRUNCF,
];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `arith` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum ArithOpKind for OPS {
        Constant(ConstantOp),
        AddI(AddIOp),
        SubI(SubIOp),
        MulI(MulIOp),
        DivSI(DivSIOp),
        DivUI(DivUIOp),
        RemSI(RemSIOp),
        RemUI(RemUIOp),
        AndI(AndIOp),
        OrI(OrIOp),
        XOrI(XOrIOp),
        ShLI(ShLIOp),
        ShRSI(ShRSIOp),
        ShRUI(ShRUIOp),
        MaxSI(MaxSIOp),
        MinSI(MinSIOp),
        MaxUI(MaxUIOp),
        MinUI(MinUIOp),
        CeilDivSI(CeilDivSIOp),
        CeilDivUI(CeilDivUIOp),
        FloorDivSI(FloorDivSIOp),
        AddUIExtended(AddUIExtendedOp),
        MulSIExtended(MulSIExtendedOp),
        MulUIExtended(MulUIExtendedOp),
        AddF(AddFOp),
        SubF(SubFOp),
        MulF(MulFOp),
        DivF(DivFOp),
        MaximumF(MaximumFOp),
        MinimumF(MinimumFOp),
        MaxNumF(MaxNumFOp),
        MinNumF(MinNumFOp),
        RemF(RemFOp),
        NegF(NegFOp),
        CmpI(CmpIOp),
        CmpF(CmpFOp),
        Select(SelectOp),
        IndexCast(IndexCastOp),
        IndexCastUI(IndexCastUIOp),
        ExtSI(ExtSIOp),
        ExtUI(ExtUIOp),
        TruncI(TruncIOp),
        SIToFP(SIToFPOp),
        UIToFP(UIToFPOp),
        FPToSI(FPToSIOp),
        FPToUI(FPToUIOp),
        ExtF(ExtFOp),
        TruncF(TruncFOp),
        Bitcast(BitcastOp),
        ScalingExtF(ScalingExtFOp),
        ScalingTruncF(ScalingTruncFOp),
    }
}
