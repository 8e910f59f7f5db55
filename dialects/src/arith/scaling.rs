//! Scaled float conversions: `scaling_extf`, `scaling_truncf` (OCP microscaling formats).

use super::*;
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::opt_attr;

/// The rounding modes of `roundingmode`, by value (MLIR's `Arith_RoundingModeAttr`).
pub(super) const ROUNDING_MODES: &[&str] = &[
    "to_nearest_even",
    "downward",
    "upward",
    "toward_zero",
    "to_nearest_away",
];

/// `roundingmode`: an `i32` in generic form, a keyword in custom form.
pub(super) const ROUNDING_MODE: AttrConstraint = AttrConstraint {
    desc: "floating point rounding mode",
    check: |c, a| {
        matches!(c.attr_kind(a), AttrKind::Integer { ty, .. }
            if matches!(c.type_kind(*ty), TypeKind::Integer { width: 32, signedness: Signedness::Signless }))
    },
    value_type: Some(|c| c.int_type(32)),
    keywords: ROUNDING_MODES,
    short_form: None,
    form: tilus_ir::opdef::AttrForm::Plain,
};

/// The element type of a scalar, vector or tensor type.
fn elem(ctx: &Context, t: Type) -> Type {
    match ctx.type_kind(t) {
        TypeKind::Vector { elem, .. }
        | TypeKind::RankedTensor { elem, .. }
        | TypeKind::UnrankedTensor { elem } => *elem,
        _ => t,
    }
}

/// Bit width of a float type (0 for anything else).
fn float_width(ctx: &Context, t: Type) -> u32 {
    match ctx.type_kind(elem(ctx, t)) {
        TypeKind::Float(k) => k.width(),
        _ => 0,
    }
}

/// MLIR's `areCastCompatible` for the scaling casts: the value widens (`extf`) or narrows
/// (`truncf`), and all three operands have one shape.
fn verify_scaling(ctx: &Context, op: OpId, widen: bool) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let (a, s, r) = (
        ctx.value_type(ops[0]),
        ctx.value_type(ops[1]),
        ctx.value_type(ctx.results(op)[0]),
    );
    let (wa, wr) = (float_width(ctx, a), float_width(ctx, r));
    let shape = |t: Type| match ctx.type_kind(t) {
        TypeKind::Vector { shape, .. } | TypeKind::RankedTensor { shape, .. } => {
            Some(shape.clone())
        }
        _ => None,
    };
    let ok =
        (if widen { wa < wr } else { wa > wr }) && shape(a) == shape(r) && shape(s) == shape(a);
    if !ok {
        return Err(Diagnostic::op(
            op,
            format!(
                "'{}' op operand types '{}', '{}' and result type '{}' are cast incompatible",
                ctx.op_name_str(op),
                type_to_string(ctx, a),
                type_to_string(ctx, s),
                type_to_string(ctx, r)
            ),
        ));
    }
    Ok(())
}

/// `arith.scaling_extf`.
pub static SCALING_EXTF: OpDef = OpDef {
    name: "arith.scaling_extf",
    summary: "Extends a float to a wider type and multiplies it by a scale.",
    description: "Extends `in` to the wider float type of `out` and multiplies it by `scale` \
        (itself extended), as the OCP microscaling formats decode (`f4E2M1FN` with an \
        `f8E8M0FNU` scale). Written `%r = arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32`.",
    operands: &[one("in", FLOAT_LIKE), one("scale", FLOAT_LIKE)],
    results: &[one("out", FLOAT_LIKE)],
    attributes: &[opt_attr("fastmath", FASTMATH_FLAGS)],
    traits: &[Trait::Pure, Trait::PerThread],
    verify: Some(|c, o| verify_scaling(c, o, true)),
    format: Format::Declarative(
        "$in `,` $scale (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `,` type($scale) `to` type($out)",
    ),
    ..OpDef::DEFAULT
};
const _: () = SCALING_EXTF.check();

tilus_ir::op_handle! {
    /// Typed handle of `arith.scaling_extf`.
    pub struct ScalingExtFOp = SCALING_EXTF;
    operands {
        in_ = "in": Value,
        scale = "scale": Value
    }
    results {
        out = "out": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}

/// `arith.scaling_truncf`.
pub static SCALING_TRUNCF: OpDef = OpDef {
    name: "arith.scaling_truncf",
    summary: "Divides a float by a scale and rounds it to a narrower type.",
    description: "Divides `in` by `scale` and rounds the quotient to the narrower float type \
        of `out` (`roundingmode` when given), as the OCP microscaling formats encode. Written \
        `%r = arith.scaling_truncf %x, %s : f32, f8E8M0FNU to f4E2M1FN`.",
    operands: &[one("in", FLOAT_LIKE), one("scale", FLOAT_LIKE)],
    results: &[one("out", FLOAT_LIKE)],
    attributes: &[
        opt_attr("roundingmode", ROUNDING_MODE),
        opt_attr("fastmath", FASTMATH_FLAGS),
    ],
    traits: &[Trait::Pure, Trait::PerThread],
    verify: Some(|c, o| verify_scaling(c, o, false)),
    format: Format::Declarative(
        "$in `,` $scale ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `,` type($scale) `to` type($out)",
    ),
    ..OpDef::DEFAULT
};
const _: () = SCALING_TRUNCF.check();

tilus_ir::op_handle! {
    /// Typed handle of `arith.scaling_truncf`.
    pub struct ScalingTruncFOp = SCALING_TRUNCF;
    operands {
        in_ = "in": Value,
        scale = "scale": Value
    }
    results {
        out = "out": Value
    }
    attrs {
        roundingmode = "roundingmode": Option<Attr>,
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}
