//! `arith`: scalar (and elementwise vector/tensor) integer and float arithmetic.
//!
//! Op names, operands and property names match MLIR's arith dialect, so IR moves between tilus
//! and `mlir-opt` unchanged. Enum properties (`predicate`) are integers in generic form and
//! keywords in custom form, as in MLIR.

use tilus_ir::attrs::AttrKind;
use tilus_ir::opdef::{
    attr, default_attr, enum_attr, one, typed_attr_type, AttrConstraint, AttrDef, Format, OpDef,
    Trait, TypeConstraint, BOOL_LIKE, FLOAT_LIKE, I1, SCALAR, SIGNLESS_INT_LIKE, TYPED_ATTR,
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
};
/// `#arith.fastmath<...>` ([`FastMathFlags`](crate::arith_attrs::FastMathFlags)).
const FASTMATH_FLAGS: AttrConstraint = AttrConstraint {
    desc: "arith fastmath flags (#arith.fastmath<...>)",
    check: |c, a| crate::arith_attrs::FastMathFlags::of(c, a).is_some(),
    value_type: None,
    keywords: &[],
    short_form: Some(("arith", "fastmath")),
};

/// The `overflowFlags` property of the integer ops that take it (default `none`).
const OVERFLOW_ATTR: AttrDef =
    default_attr("overflowFlags", OVERFLOW_FLAGS, "#arith.overflow<none>");
/// The `fastmath` property of the float ops (default `none`).
const FASTMATH_ATTR: AttrDef = default_attr("fastmath", FASTMATH_FLAGS, "#arith.fastmath<none>");

macro_rules! binary {
    ($id:ident, $name:literal, $ty:expr, $fmt:expr, [$($extra:expr),*], [$($tr:expr),*], $doc:literal) => {
        binary!($id, $name, $ty, $fmt, [$($extra),*], [$($tr),*], $doc, None, &[]);
    };
    ($id:ident, $name:literal, $ty:expr, $fmt:expr, [$($extra:expr),*], [$($tr:expr),*], $doc:literal, $fold:expr, $canon:expr) => {
        #[doc = $doc]
        pub const $id: OpDef = OpDef {
            name: $name,
            summary: $doc,
            description: $doc,
            operands: &[one("lhs", $ty), one("rhs", $ty)],
            results: &[one("result", $ty)],
            attributes: &[$($extra),*],
            traits: &[Trait::Pure, Trait::SameOperandsAndResultType $(, $tr)*],
            format: Format::Declarative($fmt),
            fold: $fold,
            canonicalize: $canon,
            ..OpDef::DEFAULT
        };
        const _: () = $id.check();
    };
}

binary!(
    ADDI,
    "arith.addi",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [OVERFLOW_ATTR],
    [Trait::Commutative],
    "Integer addition, wrapping modulo 2^N.",
    Some(fold::addi),
    canon::ADDI
);
binary!(
    SUBI,
    "arith.subi",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [OVERFLOW_ATTR],
    [],
    "Integer subtraction, wrapping modulo 2^N.",
    Some(fold::subi),
    canon::SUBI
);
binary!(
    MULI,
    "arith.muli",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [OVERFLOW_ATTR],
    [Trait::Commutative],
    "Integer multiplication, wrapping modulo 2^N.",
    Some(fold::muli),
    canon::MULI
);
binary!(
    DIVSI,
    "arith.divsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward zero.",
    Some(fold::divsi),
    &[]
);
binary!(
    DIVUI,
    "arith.divui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Unsigned integer division.",
    Some(fold::divui),
    &[]
);
binary!(
    REMSI,
    "arith.remsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer remainder (sign of the dividend).",
    Some(fold::remsi),
    &[]
);
binary!(
    REMUI,
    "arith.remui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Unsigned integer remainder.",
    Some(fold::remui),
    &[]
);
binary!(
    ANDI,
    "arith.andi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Bitwise and.",
    Some(fold::andi),
    canon::ANDI
);
binary!(
    ORI,
    "arith.ori",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Bitwise or.",
    Some(fold::ori),
    canon::ORI
);
binary!(
    XORI,
    "arith.xori",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Bitwise exclusive or.",
    Some(fold::xori),
    canon::XORI
);
binary!(
    SHLI,
    "arith.shli",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [OVERFLOW_ATTR],
    [],
    "Shift left; shifting by the bit width or more gives poison.",
    Some(fold::shli),
    &[]
);
binary!(
    SHRSI,
    "arith.shrsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Arithmetic shift right.",
    Some(fold::shrsi),
    &[]
);
binary!(
    SHRUI,
    "arith.shrui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Logical shift right.",
    Some(fold::shrui),
    &[]
);
binary!(
    MAXSI,
    "arith.maxsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Signed integer maximum.",
    Some(fold::maxsi),
    &[]
);
binary!(
    MINSI,
    "arith.minsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Signed integer minimum.",
    Some(fold::minsi),
    &[]
);
binary!(
    MAXUI,
    "arith.maxui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Unsigned integer maximum.",
    Some(fold::maxui),
    &[]
);
binary!(
    MINUI,
    "arith.minui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Unsigned integer minimum.",
    Some(fold::minui),
    &[]
);
binary!(
    CEILDIVSI,
    "arith.ceildivsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward positive infinity."
);
binary!(
    FLOORDIVSI,
    "arith.floordivsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward negative infinity."
);
binary!(
    ADDF,
    "arith.addf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float addition.",
    Some(fold::addf),
    &[]
);
binary!(
    SUBF,
    "arith.subf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [],
    "Float subtraction.",
    Some(fold::subf),
    &[]
);
binary!(
    MULF,
    "arith.mulf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float multiplication.",
    Some(fold::mulf),
    canon::MULF
);
binary!(
    DIVF,
    "arith.divf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [],
    "Float division.",
    Some(fold::divf),
    canon::DIVF
);
binary!(
    MAXIMUMF,
    "arith.maximumf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float maximum; NaN if either operand is NaN.",
    Some(fold::maximumf),
    &[]
);
binary!(
    MINIMUMF,
    "arith.minimumf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float minimum; NaN if either operand is NaN.",
    Some(fold::minimumf),
    &[]
);

/// `arith.negf`.
pub const NEGF: OpDef = OpDef {
    name: "arith.negf",
    summary: "float negation",
    description: "Flips the sign of a float (also of NaN and zero).",
    operands: &[one("operand", FLOAT_LIKE)],
    results: &[one("result", FLOAT_LIKE)],
    attributes: &[FASTMATH_ATTR],
    traits: &[Trait::Pure, Trait::SameOperandsAndResultType],
    format: Format::Declarative("$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"),
    fold: Some(fold::negf),
    ..OpDef::DEFAULT
};
const _: () = NEGF.check();

/// `arith.constant`.
pub const CONSTANT: OpDef = OpDef {
    name: "arith.constant",
    summary: "a constant integer, float or dense value",
    description: "Materializes the typed attribute `value` as an SSA value of the same type, e.g. \
        `%c = arith.constant 42 : i32` or `arith.constant dense<0.0> : vector<4xf32>`.",
    results: &[one("result", tilus_ir::opdef::ANY_TYPE)],
    attributes: &[attr("value", TYPED_ATTR)],
    traits: &[Trait::Pure, Trait::ConstantLike],
    verify: Some(verify_constant),
    format: Format::Declarative("attr-dict $value"),
    result_name: Some(constant_name),
    materialize_constant: Some(materialize_constant),
    ..OpDef::DEFAULT
};
const _: () = CONSTANT.check();

/// MLIR's names for constants: `%c42_i32`, `%c4` (index), `%true`/`%false`, else `%cst`.
fn constant_name(ctx: &Context, op: OpId) -> Option<String> {
    let v = ctx.get_prop(op, "value")?;
    match ctx.attr_kind(v) {
        AttrKind::Integer { value, ty } => match ctx.type_kind(*ty) {
            TypeKind::Index => Some(format!("c{value}")),
            TypeKind::Integer { width: 1, .. } => Some(if value.bits() == 0 {
                "false".into()
            } else {
                "true".into()
            }),
            _ => Some(format!("c{value}_{}", type_to_string(ctx, *ty))),
        },
        _ => Some("cst".into()),
    }
}

fn verify_constant(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let v = ctx.get_prop(op, "value").unwrap();
    let vt = typed_attr_type(ctx, v).unwrap();
    let rt = ctx.value_type(ctx.results(op)[0]);
    if vt != rt {
        return Err(Diagnostic::op(
            op,
            format!(
                "'arith.constant' op value type '{}' must match result type '{}'",
                type_to_string(ctx, vt),
                type_to_string(ctx, rt)
            ),
        ));
    }
    Ok(())
}

const CMPI_PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];
const CMPF_PREDICATES: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

/// `arith.cmpi`.
pub const CMPI: OpDef = OpDef {
    name: "arith.cmpi",
    summary: "integer comparison",
    description:
        "Compares two integers with `predicate` (`eq ne slt sle sgt sge ult ule ugt uge`), \
        giving an `i1`.",
    operands: &[one("lhs", SIGNLESS_INT_LIKE), one("rhs", SIGNLESS_INT_LIKE)],
    results: &[one("result", I1)],
    attributes: &[attr(
        "predicate",
        enum_attr("integer comparison predicate", CMPI_PREDICATES),
    )],
    traits: &[Trait::Pure, Trait::SameTypeOperands],
    format: Format::Declarative("$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"),
    fold: Some(fold::cmpi),
    canonicalize: canon::CMPI,
    ..OpDef::DEFAULT
};
const _: () = CMPI.check();

/// `arith.cmpf`.
pub const CMPF: OpDef = OpDef {
    name: "arith.cmpf",
    summary: "float comparison",
    description: "Compares two floats with `predicate` (ordered `o*`, unordered `u*`, `false`, \
        `true`, `ord`, `uno`), giving an `i1`.",
    operands: &[one("lhs", FLOAT_LIKE), one("rhs", FLOAT_LIKE)],
    results: &[one("result", I1)],
    attributes: &[
        attr(
            "predicate",
            enum_attr("float comparison predicate", CMPF_PREDICATES),
        ),
        FASTMATH_ATTR,
    ],
    traits: &[Trait::Pure, Trait::SameTypeOperands],
    format: Format::Declarative(
        "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)",
    ),
    fold: Some(fold::cmpf),
    ..OpDef::DEFAULT
};
const _: () = CMPF.check();

/// `i1` (or a shaped `i1`); a format without its type means `i1`.
const CONDITION: TypeConstraint = TypeConstraint {
    build: Some(|c| c.int_type(1)),
    ..BOOL_LIKE
};

/// `arith.select`.
pub const SELECT: OpDef = OpDef {
    name: "arith.select",
    summary: "choose between two values",
    description: "Yields `true_value` where `condition` is true, else `false_value`.",
    operands: &[
        one("condition", CONDITION),
        one("true_value", tilus_ir::opdef::ANY_TYPE),
        one("false_value", tilus_ir::opdef::ANY_TYPE),
    ],
    results: &[one("result", tilus_ir::opdef::ANY_TYPE)],
    traits: &[
        Trait::Pure,
        Trait::AllTypesMatch(&["true_value", "false_value", "result"]),
    ],
    verify: Some(verify_select),
    format: Format::Declarative(
        "$condition `,` $true_value `,` $false_value attr-dict `:` type($result)",
    ),
    fold: Some(fold::select),
    canonicalize: canon::SELECT,
    ..OpDef::DEFAULT
};
const _: () = SELECT.check();

fn verify_select(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let o = ctx.operands(op);
    let (t, f, r) = (
        ctx.value_type(o[1]),
        ctx.value_type(o[2]),
        ctx.value_type(ctx.results(op)[0]),
    );
    if t != f || t != r {
        return Err(Diagnostic::op(
            op,
            format!(
                "'arith.select' op failed to verify that all of {{true_value, false_value, result}} have same type: found '{}', '{}' and '{}'",
                type_to_string(ctx, t),
                type_to_string(ctx, f),
                type_to_string(ctx, r)
            ),
        ));
    }
    Ok(())
}

macro_rules! cast {
    ($id:ident, $name:literal, $from:expr, $to:expr, $doc:literal) => {
        cast!($id, $name, $from, $to, $doc, None, &[]);
    };
    ($id:ident, $name:literal, $from:expr, $to:expr, $doc:literal, $fold:expr, $canon:expr) => {
        #[doc = $doc]
        pub const $id: OpDef = OpDef {
            name: $name,
            summary: $doc,
            description: $doc,
            operands: &[one("in", $from)],
            results: &[one("out", $to)],
            traits: &[Trait::Pure],
            format: Format::Declarative(CAST_FORMAT),
            fold: $fold,
            canonicalize: $canon,
            ..OpDef::DEFAULT
        };
        const _: () = $id.check();
    };
}

const INT_OR_INDEX: TypeConstraint = SIGNLESS_INT_LIKE;
cast!(
    INDEX_CAST,
    "arith.index_cast",
    INT_OR_INDEX,
    INT_OR_INDEX,
    "Converts between index and integer types (sign-extending).",
    Some(fold::index_cast),
    canon::INDEX_CAST
);
cast!(
    INDEX_CASTUI,
    "arith.index_castui",
    INT_OR_INDEX,
    INT_OR_INDEX,
    "Converts between index and integer types (zero-extending).",
    Some(fold::index_castui),
    canon::INDEX_CASTUI
);
cast!(
    EXTSI,
    "arith.extsi",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Sign-extends an integer to a wider type.",
    Some(fold::extsi),
    canon::EXTSI
);
cast!(
    EXTUI,
    "arith.extui",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Zero-extends an integer to a wider type.",
    Some(fold::extui),
    &[]
);
cast!(
    TRUNCI,
    "arith.trunci",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Truncates an integer to a narrower type.",
    Some(fold::trunci),
    canon::TRUNCI
);
cast!(
    SITOFP,
    "arith.sitofp",
    SIGNLESS_INT_LIKE,
    FLOAT_LIKE,
    "Converts a signed integer to a float."
);
cast!(
    UITOFP,
    "arith.uitofp",
    SIGNLESS_INT_LIKE,
    FLOAT_LIKE,
    "Converts an unsigned integer to a float."
);
cast!(
    FPTOSI,
    "arith.fptosi",
    FLOAT_LIKE,
    SIGNLESS_INT_LIKE,
    "Converts a float to a signed integer, rounding toward zero."
);
cast!(
    FPTOUI,
    "arith.fptoui",
    FLOAT_LIKE,
    SIGNLESS_INT_LIKE,
    "Converts a float to an unsigned integer, rounding toward zero."
);
cast!(
    EXTF,
    "arith.extf",
    FLOAT_LIKE,
    FLOAT_LIKE,
    "Extends a float to a wider float type."
);
cast!(
    TRUNCF,
    "arith.truncf",
    FLOAT_LIKE,
    FLOAT_LIKE,
    "Rounds a float to a narrower float type."
);
cast!(
    BITCAST,
    "arith.bitcast",
    SCALAR,
    SCALAR,
    "Reinterprets the bits of a value as another type of the same width."
);

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
    &FLOORDIVSI,
    &ADDF,
    &SUBF,
    &MULF,
    &DIVF,
    &MAXIMUMF,
    &MINIMUMF,
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
];

// ----- constants ------------------------------------------------------------------------------

/// Builds `arith.constant` for a folded value, as MLIR's `ArithDialect::materializeConstant`
/// does: the attribute's type must be the requested type, integers must be signless, and the
/// value an integer, float or dense elements attribute.
fn materialize_constant(rw: &mut Rewriter<'_>, value: Attr, ty: Type, loc: Attr) -> Option<OpId> {
    let ctx = rw.ctx();
    if typed_attr_type(ctx, value) != Some(ty) {
        return None;
    }
    let elem = helpers::elem_type(ctx, ty);
    if matches!(ctx.type_kind(elem), TypeKind::Integer { signedness, .. } if *signedness != Signedness::Signless)
    {
        return None;
    }
    if !matches!(
        ctx.attr_kind(value),
        AttrKind::Integer { .. } | AttrKind::Float { .. } | AttrKind::DenseElements { .. }
    ) {
        return None;
    }
    Some(rw.build(
        "arith.constant",
        vec![],
        vec![ty],
        vec![("value".into(), value)],
        loc,
    ))
}

/// Shared matchers and builders of the folders and patterns.
mod helpers {
    use tilus_ir::attrs::{DenseData, DenseLit};
    use tilus_ir::rewrite::{constant_of, int_attr, int_bits, zero_attr, Rewriter};
    use tilus_ir::types::DYNAMIC;
    use tilus_ir::{Attr, AttrKind, Context, OpId, Type, TypeKind, Value};

    /// The element type of a vector or tensor, else the type itself.
    pub fn elem_type(ctx: &Context, t: Type) -> Type {
        match ctx.type_kind(t) {
            TypeKind::Vector { elem, .. }
            | TypeKind::RankedTensor { elem, .. }
            | TypeKind::UnrankedTensor { elem } => *elem,
            _ => t,
        }
    }

    /// Whether `t` is `i1` (or shaped `i1`).
    pub fn is_i1_like(ctx: &Context, t: Type) -> bool {
        matches!(
            ctx.type_kind(elem_type(ctx, t)),
            TypeKind::Integer { width: 1, .. }
        )
    }

    /// Operand `i` of `op`.
    pub fn operand(ctx: &Context, op: OpId, i: usize) -> Value {
        ctx.operands(op)[i]
    }

    /// The type of `op`'s first result.
    pub fn result_type(ctx: &Context, op: OpId) -> Type {
        ctx.value_type(ctx.results(op)[0])
    }

    /// The op named `name` defining `v`.
    pub fn def_named(ctx: &Context, v: Value, name: &str) -> Option<OpId> {
        ctx.defining_op(v).filter(|d| ctx.op_name_str(*d) == name)
    }

    /// An integer constant or a splat of one, as bits and element width: MLIR's
    /// `m_ConstantInt`, which folders use (canonicalization patterns match scalars only).
    pub fn int_or_splat(ctx: &Context, a: Option<Attr>) -> Option<(u128, u32)> {
        let a = a?;
        if let Some(r) = int_bits(ctx, a) {
            return Some(r);
        }
        let AttrKind::DenseElements {
            data: DenseData::Literal(DenseLit::Scalar(text)),
            ty,
        } = ctx.attr_kind(a)
        else {
            return None;
        };
        let w = tilus_ir::rewrite::int_width(ctx, elem_type(ctx, *ty))?;
        if w == 0 || w > 128 {
            return None;
        }
        let t = text.as_str();
        let bits = match t {
            "true" => 1,
            "false" => 0,
            _ if t.starts_with("0x") || t.starts_with("0X") => {
                u128::from_str_radix(&t[2..], 16).ok()?
            }
            _ if t.starts_with('-') => t.parse::<i128>().ok()? as u128,
            _ => t.parse::<u128>().ok()?,
        };
        Some((bits & ones(w), w))
    }

    /// An integer attribute of type `ty`, or a splat of it when `ty` is a statically shaped
    /// vector or tensor (printed as MLIR prints splats: signed decimal, `true`/`false` for i1).
    pub fn int_like_attr(ctx: &mut Context, ty: Type, bits: u128) -> Option<Attr> {
        match ctx.type_kind(ty).clone() {
            TypeKind::Vector { shape, .. } | TypeKind::RankedTensor { shape, .. } => {
                if shape.contains(&DYNAMIC) {
                    return None;
                }
                let w = tilus_ir::rewrite::int_width(ctx, elem_type(ctx, ty))?;
                let bits = bits & ones(w);
                let text = if w == 1 {
                    if bits == 1 {
                        "true".to_string()
                    } else {
                        "false".to_string()
                    }
                } else {
                    sext(bits, w).to_string()
                };
                Some(ctx.attr(AttrKind::DenseElements {
                    data: DenseData::Literal(DenseLit::Scalar(text)),
                    ty,
                }))
            }
            TypeKind::Integer { .. } | TypeKind::Index => Some(int_attr(ctx, ty, bits)),
            _ => None,
        }
    }

    /// The scalar integer constant `v` holds.
    pub fn int_const_of(ctx: &Context, v: Value) -> Option<(u128, u32)> {
        int_bits(ctx, constant_of(ctx, v)?)
    }

    /// All ones at `w` bits.
    pub fn ones(w: u32) -> u128 {
        if w >= 128 {
            u128::MAX
        } else {
            (1u128 << w) - 1
        }
    }

    /// Sign-extends a `w`-bit pattern.
    pub fn sext(bits: u128, w: u32) -> i128 {
        if w >= 128 {
            bits as i128
        } else {
            ((bits << (128 - w)) as i128) >> (128 - w)
        }
    }

    /// A constant zero (or splat zero of a statically shaped vector/tensor), as MLIR's
    /// `Builder::getZeroAttr` builds it; `None` for dynamic shapes.
    pub fn zero_like(ctx: &mut Context, t: Type) -> Option<Attr> {
        splat_like(ctx, t, "0", false)
    }

    /// `true`/`false` of type `t` (`i1`, or a splat for statically shaped `i1`s).
    pub fn bool_like(ctx: &mut Context, t: Type, b: bool) -> Option<Attr> {
        splat_like(ctx, t, if b { "true" } else { "false" }, b)
    }

    fn splat_like(ctx: &mut Context, t: Type, text: &str, b: bool) -> Option<Attr> {
        match ctx.type_kind(t).clone() {
            TypeKind::Vector { shape, .. } | TypeKind::RankedTensor { shape, .. } => {
                if shape.contains(&DYNAMIC) {
                    return None;
                }
                let is_float = matches!(ctx.type_kind(elem_type(ctx, t)), TypeKind::Float(_));
                let text = if is_float { "0.000000e+00" } else { text };
                Some(ctx.attr(AttrKind::DenseElements {
                    data: DenseData::Literal(DenseLit::Scalar(text.to_string())),
                    ty: t,
                }))
            }
            TypeKind::Integer { .. } | TypeKind::Index => Some(int_attr(ctx, t, b as u128)),
            _ => zero_attr(ctx, t),
        }
    }

    /// The `#arith.overflow` flags of an op: bit 0 `nsw`, bit 1 `nuw`.
    pub fn overflow_flags(ctx: &Context, op: OpId) -> u8 {
        ctx.get_inherent_or_attr(op, "overflowFlags")
            .and_then(|a| crate::arith_attrs::OverflowFlags::of(ctx, a))
            .map_or(0, |f| f.bits())
    }

    /// The `overflowFlags` property for flags (none when no flag is set, as the parser leaves
    /// it out).
    pub fn overflow_prop(ctx: &mut Context, flags: u8) -> Vec<(String, Attr)> {
        if flags & 3 == 0 {
            return vec![];
        }
        let a = crate::arith_attrs::OverflowFlags::from_bits(flags).get(ctx);
        vec![("overflowFlags".into(), a)]
    }

    /// The fastmath flags of an op as words (`fast` means all of them).
    pub fn fastmath_has(ctx: &Context, op: OpId, flags: &[&str]) -> bool {
        use crate::arith_attrs::FastMathFlags;
        let Some(set) = ctx
            .get_inherent_or_attr(op, "fastmath")
            .and_then(|a| FastMathFlags::of(ctx, a))
        else {
            return false;
        };
        flags
            .iter()
            .all(|f| FastMathFlags::from_word(f).is_some_and(|w| set.contains(w)))
    }

    /// Creates `arith.constant value` of `value`'s type.
    pub fn constant(rw: &mut Rewriter<'_>, ty: Type, value: Attr, loc: Attr) -> Value {
        let op = rw.build(
            "arith.constant",
            vec![],
            vec![ty],
            vec![("value".into(), value)],
            loc,
        );
        rw.ctx().results(op)[0]
    }

    /// Creates an integer constant of type `ty`.
    pub fn int_constant(rw: &mut Rewriter<'_>, ty: Type, bits: u128, loc: Attr) -> Value {
        let a = int_attr(rw.ctx_mut(), ty, bits);
        constant(rw, ty, a, loc)
    }

    /// Creates a one-result op.
    pub fn op1(
        rw: &mut Rewriter<'_>,
        name: &str,
        operands: Vec<Value>,
        ty: Type,
        props: Vec<(String, Attr)>,
        loc: Attr,
    ) -> Value {
        let op = rw.build(name, operands, vec![ty], props, loc);
        rw.ctx().results(op)[0]
    }
}

// ----- folders ----------------------------------------------------------------------------------

/// The folders, one per op, following MLIR's `fold` methods case by case (scalars; splat and
/// dense operands are left alone).
mod fold {
    use super::helpers::*;
    use super::CMPI_PREDICATES;
    use std::ops::{Add, Div, Mul, Sub};
    use tilus_ir::float::{from_f64, to_f64};
    use tilus_ir::rewrite::{bool_attr, float_attr, float_bits, int_attr, int_bits, Folded};
    use tilus_ir::types::FloatKind;
    use tilus_ir::{Attr, Context, OpId};

    type Consts<'a> = &'a [Option<Attr>];

    /// Folders see splats as constants too (MLIR's `m_ConstantInt`, `m_Zero`, `m_One`).
    fn int_const(ctx: &Context, a: Option<Attr>) -> Option<(u128, u32)> {
        int_or_splat(ctx, a)
    }

    /// A fold to `a`, or none.
    fn attr_or_failed(a: Option<Attr>) -> Folded {
        a.map_or(Folded::Failed, Folded::attr)
    }

    fn rhs_int(ctx: &Context, c: Consts) -> Option<(u128, u32)> {
        int_const(ctx, c[1])
    }

    /// `lhs op rhs` on two integer constants of the result type, `None` when `f` declines
    /// (division by zero, signed overflow, over-wide shifts).
    fn int_binary(
        ctx: &mut Context,
        op: OpId,
        c: Consts,
        f: impl Fn(u128, u128, u32) -> Option<u128>,
    ) -> Folded {
        let (Some((a, w)), Some((b, w2))) = (int_const(ctx, c[0]), int_const(ctx, c[1])) else {
            return Folded::Failed;
        };
        if w != w2 {
            return Folded::Failed;
        }
        let ty = result_type(ctx, op);
        attr_or_failed(f(a, b, w).and_then(|r| int_like_attr(ctx, ty, r & ones(w))))
    }

    fn lhs(ctx: &Context, op: OpId) -> Folded {
        Folded::value(operand(ctx, op, 0))
    }
    fn rhs(ctx: &Context, op: OpId) -> Folded {
        Folded::value(operand(ctx, op, 1))
    }
    fn zero(ctx: &mut Context, op: OpId) -> Folded {
        let ty = result_type(ctx, op);
        attr_or_failed(zero_like(ctx, ty))
    }
    fn is_zero(ctx: &Context, a: Option<Attr>) -> bool {
        int_const(ctx, a).is_some_and(|(v, _)| v == 0)
    }
    fn is_one(ctx: &Context, a: Option<Attr>) -> bool {
        int_const(ctx, a).is_some_and(|(v, _)| v == 1)
    }

    /// `addi(x, 0) → x`, `addi(subi(a, b), b) → a`, `addi(b, subi(a, b)) → a`, constants.
    pub fn addi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        let (l, r) = (operand(ctx, op, 0), operand(ctx, op, 1));
        if is_zero(ctx, c[1]) {
            return lhs(ctx, op);
        }
        for (sub_v, other) in [(l, r), (r, l)] {
            if let Some(sub) = def_named(ctx, sub_v, "arith.subi") {
                if other == operand(ctx, sub, 1) {
                    return Folded::value(operand(ctx, sub, 0));
                }
            }
        }
        int_binary(ctx, op, c, |a, b, _| Some(a.wrapping_add(b)))
    }

    /// `subi(x, x) → 0`, `subi(x, 0) → x`, `subi(addi(a, b), b|a) → a|b`, constants.
    pub fn subi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        let (l, r) = (operand(ctx, op, 0), operand(ctx, op, 1));
        if l == r {
            let f = zero(ctx, op);
            if f != Folded::Failed {
                return f;
            }
        }
        if is_zero(ctx, c[1]) {
            return lhs(ctx, op);
        }
        if let Some(add) = def_named(ctx, l, "arith.addi") {
            if r == operand(ctx, add, 1) {
                return Folded::value(operand(ctx, add, 0));
            }
            if r == operand(ctx, add, 0) {
                return Folded::value(operand(ctx, add, 1));
            }
        }
        int_binary(ctx, op, c, |a, b, _| Some(a.wrapping_sub(b)))
    }

    /// `muli(x, 0) → 0` (the zero operand), `muli(x, 1) → x`, constants.
    pub fn muli(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if is_zero(ctx, c[1]) {
            return rhs(ctx, op);
        }
        if is_one(ctx, c[1]) {
            return lhs(ctx, op);
        }
        int_binary(ctx, op, c, |a, b, _| Some(a.wrapping_mul(b)))
    }

    /// `(a * b) / b → a` when the multiplication carries `flag` (nsw for signed, nuw for
    /// unsigned division).
    fn div_of_mul(ctx: &Context, op: OpId, flag: u8) -> Option<Folded> {
        let (l, r) = (operand(ctx, op, 0), operand(ctx, op, 1));
        let mul = def_named(ctx, l, "arith.muli")?;
        if overflow_flags(ctx, mul) & flag != flag {
            return None;
        }
        if operand(ctx, mul, 0) == r {
            return Some(Folded::value(operand(ctx, mul, 1)));
        }
        if operand(ctx, mul, 1) == r {
            return Some(Folded::value(operand(ctx, mul, 0)));
        }
        None
    }

    /// `divui(x, 1) → x`, `(a*b)/b → a` (nuw), constants (not by zero).
    pub fn divui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if is_one(ctx, c[1]) {
            return lhs(ctx, op);
        }
        if let Some(f) = div_of_mul(ctx, op, 2) {
            return f;
        }
        int_binary(ctx, op, c, |a, b, _| (b != 0).then(|| a / b))
    }

    /// `divsi(x, 1) → x`, `(a*b)/b → a` (nsw), constants (not by zero, not `MIN / -1`).
    pub fn divsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if is_one(ctx, c[1]) {
            return lhs(ctx, op);
        }
        if let Some(f) = div_of_mul(ctx, op, 1) {
            return f;
        }
        int_binary(ctx, op, c, |a, b, w| {
            let (sa, sb) = (sext(a, w), sext(b, w));
            if sb == 0 {
                return None;
            }
            let min = if w >= 128 {
                i128::MIN
            } else {
                -(1i128 << (w - 1))
            };
            if sa == min && sb == -1 {
                return None;
            }
            Some(sa.checked_div(sb)? as u128)
        })
    }

    /// `remui(x, 1) → 0`, constants (not by zero).
    pub fn remui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if is_one(ctx, c[1]) {
            return zero(ctx, op);
        }
        int_binary(ctx, op, c, |a, b, _| (b != 0).then(|| a % b))
    }

    /// `remsi(x, 1) → 0`, constants (not by zero; the result has the dividend's sign).
    pub fn remsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if is_one(ctx, c[1]) {
            return zero(ctx, op);
        }
        int_binary(ctx, op, c, |a, b, w| {
            let (sa, sb) = (sext(a, w), sext(b, w));
            if sb == 0 {
                return None;
            }
            Some(sa.checked_rem(sb).unwrap_or(0) as u128)
        })
    }

    /// Whether `v` is `xori(x, -1)` (bitwise not of `x`), and `x` then.
    fn not_of(ctx: &Context, v: tilus_ir::Value) -> Option<tilus_ir::Value> {
        let x = def_named(ctx, v, "arith.xori")?;
        let (bits, w) = int_const_of(ctx, operand(ctx, x, 1))?;
        (bits == ones(w)).then(|| operand(ctx, x, 0))
    }

    /// `andi(x, 0) → 0`, `andi(x, -1) → x`, `andi(x, not x) → 0`, `andi(a, andi(a, b)) →
    /// andi(a, b)`, constants, and `andi(x, x) → x` (MLIR's `Idempotent` trait).
    pub fn andi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        let (l, r) = (operand(ctx, op, 0), operand(ctx, op, 1));
        if is_zero(ctx, c[1]) {
            return rhs(ctx, op);
        }
        if rhs_int(ctx, c).is_some_and(|(v, w)| v == ones(w)) {
            return lhs(ctx, op);
        }
        if not_of(ctx, r) == Some(l) || not_of(ctx, l) == Some(r) {
            return zero(ctx, op);
        }
        for (prev_v, other) in [(l, r), (r, l)] {
            if let Some(prev) = def_named(ctx, prev_v, "arith.andi") {
                if other == operand(ctx, prev, 0) || other == operand(ctx, prev, 1) {
                    return Folded::value(prev_v);
                }
            }
        }
        let f = int_binary(ctx, op, c, |a, b, _| Some(a & b));
        if f != Folded::Failed {
            return f;
        }
        if l == r {
            return lhs(ctx, op);
        }
        Folded::Failed
    }

    /// `ori(x, 0) → x`, `ori(x, -1) → -1`, `ori(x, not x) → -1`, constants, `ori(x, x) → x`.
    pub fn ori(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        let (l, r) = (operand(ctx, op, 0), operand(ctx, op, 1));
        if let Some((v, w)) = rhs_int(ctx, c) {
            if v == 0 {
                return lhs(ctx, op);
            }
            if v == ones(w) {
                return Folded::attr(c[1].unwrap());
            }
        }
        for (not_v, other) in [(r, l), (l, r)] {
            if not_of(ctx, not_v) == Some(other) {
                let x = def_named(ctx, not_v, "arith.xori").unwrap();
                return Folded::value(operand(ctx, x, 1));
            }
        }
        let f = int_binary(ctx, op, c, |a, b, _| Some(a | b));
        if f != Folded::Failed {
            return f;
        }
        if l == r {
            return lhs(ctx, op);
        }
        Folded::Failed
    }

    /// `xori(x, 0) → x`, `xori(x, x) → 0`, `xori(xori(x, a), a) → x` (any operand order),
    /// constants.
    pub fn xori(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        let (l, r) = (operand(ctx, op, 0), operand(ctx, op, 1));
        if is_zero(ctx, c[1]) {
            return lhs(ctx, op);
        }
        if l == r {
            return zero(ctx, op);
        }
        for (prev_v, other) in [(l, r), (r, l)] {
            if let Some(prev) = def_named(ctx, prev_v, "arith.xori") {
                if operand(ctx, prev, 1) == other {
                    return Folded::value(operand(ctx, prev, 0));
                }
                if operand(ctx, prev, 0) == other {
                    return Folded::value(operand(ctx, prev, 1));
                }
            }
        }
        int_binary(ctx, op, c, |a, b, _| Some(a ^ b))
    }

    fn shift(ctx: &mut Context, op: OpId, c: Consts, f: fn(u128, u32, u32) -> u128) -> Folded {
        if is_zero(ctx, c[1]) {
            return lhs(ctx, op);
        }
        int_binary(ctx, op, c, |a, b, w| {
            (b < w as u128).then(|| f(a, b as u32, w))
        })
    }

    /// `shli(x, 0) → x`, constants (shifts by the width or more are poison: not folded).
    pub fn shli(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        shift(ctx, op, c, |a, b, _| a << b)
    }
    /// `shrui(x, 0) → x`, constants.
    pub fn shrui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        shift(ctx, op, c, |a, b, _| a >> b)
    }
    /// `shrsi(x, 0) → x`, constants.
    pub fn shrsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        shift(ctx, op, c, |a, b, w| (sext(a, w) >> b) as u128)
    }

    /// Min/max: `op(x, x) → x`, the absorbing bound → it, the neutral bound → x, constants.
    fn minmax(
        ctx: &mut Context,
        op: OpId,
        c: Consts,
        absorbing: fn(u32) -> u128,
        neutral: fn(u32) -> u128,
        pick: fn(u128, u128, u32) -> u128,
    ) -> Folded {
        if operand(ctx, op, 0) == operand(ctx, op, 1) {
            return rhs(ctx, op);
        }
        if let Some((v, w)) = rhs_int(ctx, c) {
            if v == absorbing(w) {
                return rhs(ctx, op);
            }
            if v == neutral(w) {
                return lhs(ctx, op);
            }
        }
        int_binary(ctx, op, c, |a, b, w| Some(pick(a, b, w)))
    }
    fn smax_v(w: u32) -> u128 {
        ones(w) >> 1
    }
    fn smin_v(w: u32) -> u128 {
        1u128 << (w - 1)
    }
    /// `maxsi`.
    pub fn maxsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        minmax(ctx, op, c, smax_v, smin_v, |a, b, w| {
            if sext(a, w) >= sext(b, w) {
                a
            } else {
                b
            }
        })
    }
    /// `minsi`.
    pub fn minsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        minmax(ctx, op, c, smin_v, smax_v, |a, b, w| {
            if sext(a, w) <= sext(b, w) {
                a
            } else {
                b
            }
        })
    }
    /// `maxui`.
    pub fn maxui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        minmax(ctx, op, c, ones, |_| 0, |a, b, _| a.max(b))
    }
    /// `minui`.
    pub fn minui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        minmax(ctx, op, c, |_| 0, ones, |a, b, _| a.min(b))
    }

    /// The index of a `cmpi` predicate keyword (`eq` is 0, ..., `uge` is 9).
    fn pred_index(name: &str) -> u128 {
        CMPI_PREDICATES.iter().position(|p| *p == name).unwrap() as u128
    }

    /// The predicate of a `cmpi` as its keyword.
    pub fn cmpi_predicate(ctx: &Context, op: OpId) -> Option<&'static str> {
        let a = ctx.get_inherent_or_attr(op, "predicate")?;
        let (v, _) = int_bits(ctx, a)?;
        CMPI_PREDICATES.get(v as usize).copied()
    }

    /// Sets a `cmpi` predicate by keyword (no notification: callers report the change).
    pub fn set_cmpi_predicate(ctx: &mut Context, op: OpId, pred: &str) {
        let i64t = ctx.int_type(64);
        let a = int_attr(ctx, i64t, pred_index(pred));
        tilus_ir::rewrite::set_property(ctx, op, "predicate", Some(a));
    }

    fn apply_pred(pred: &str, a: u128, b: u128, w: u32) -> bool {
        let (sa, sb) = (sext(a, w), sext(b, w));
        match pred {
            "eq" => a == b,
            "ne" => a != b,
            "slt" => sa < sb,
            "sle" => sa <= sb,
            "sgt" => sa > sb,
            "sge" => sa >= sb,
            "ult" => a < b,
            "ule" => a <= b,
            "ugt" => a > b,
            _ => a >= b,
        }
    }

    /// `cmpi` folds: equal operands, `ext(i1) != 0 → x`, `i1 != 0 → x`, `i1 == 1 → x`, a
    /// constant on the left moves right (predicate mirrored, in place), constants.
    pub fn cmpi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        let Some(pred) = cmpi_predicate(ctx, op) else {
            return Folded::Failed;
        };
        let (l, r) = (operand(ctx, op, 0), operand(ctx, op, 1));
        let ty = result_type(ctx, op);
        if l == r {
            let v = matches!(pred, "eq" | "sle" | "sge" | "ule" | "uge");
            return attr_or_failed(bool_like(ctx, ty, v));
        }
        let lty = ctx.value_type(l);
        if is_zero(ctx, c[1]) {
            for ext in ["arith.extsi", "arith.extui"] {
                if let Some(e) = def_named(ctx, l, ext) {
                    let src = operand(ctx, e, 0);
                    let w1 = is_i1_like(ctx, ctx.value_type(src));
                    if w1 && pred == "ne" {
                        return Folded::value(src);
                    }
                }
            }
            if is_i1_like(ctx, lty) && pred == "ne" {
                return Folded::value(l);
            }
        }
        if is_one(ctx, c[1]) && is_i1_like(ctx, lty) && pred == "eq" {
            return Folded::value(l);
        }
        if c[0].is_some() && c[1].is_none() {
            let mirrored = match pred {
                "slt" => "sgt",
                "sgt" => "slt",
                "sle" => "sge",
                "sge" => "sle",
                "ult" => "ugt",
                "ugt" => "ult",
                "ule" => "uge",
                "uge" => "ule",
                p => p,
            };
            set_cmpi_predicate(ctx, op, mirrored);
            ctx.set_operand(op, 0, r);
            ctx.set_operand(op, 1, l);
            return Folded::InPlace;
        }
        let (Some((a, w)), Some((b, _))) = (int_const(ctx, c[0]), int_const(ctx, c[1])) else {
            return Folded::Failed;
        };
        attr_or_failed(bool_like(ctx, ty, apply_pred(pred, a, b, w)))
    }

    /// `select` folds: equal choices, constant condition, `select(c, true, false) → c`, and
    /// `select(a ==/!= b, a, b)`.
    pub fn select(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        let (cond, t, f) = (
            operand(ctx, op, 0),
            operand(ctx, op, 1),
            operand(ctx, op, 2),
        );
        if t == f {
            return Folded::value(t);
        }
        if is_one(ctx, c[0]) {
            return Folded::value(t);
        }
        if is_zero(ctx, c[0]) {
            return Folded::value(f);
        }
        let ty = result_type(ctx, op);
        let is_i1 = matches!(
            ctx.type_kind(ty),
            tilus_ir::TypeKind::Integer { width: 1, .. }
        );
        if is_i1 && is_one(ctx, c[1]) && is_zero(ctx, c[2]) {
            return Folded::value(cond);
        }
        if let Some(cmp) = def_named(ctx, cond, "arith.cmpi") {
            let pred = cmpi_predicate(ctx, cmp);
            if matches!(pred, Some("eq") | Some("ne")) {
                let (cl, cr) = (operand(ctx, cmp, 0), operand(ctx, cmp, 1));
                if (cl == t && cr == f) || (cr == t && cl == f) {
                    return Folded::value(if pred == Some("ne") { t } else { f });
                }
            }
        }
        Folded::Failed
    }

    fn cast_const(ctx: &mut Context, op: OpId, c: Consts, f: fn(u128, u32, u32) -> u128) -> Folded {
        let Some((a, w)) = int_const(ctx, c[0]) else {
            return Folded::Failed;
        };
        let ty = result_type(ctx, op);
        let Some(to) = tilus_ir::rewrite::int_width(ctx, elem_type(ctx, ty)) else {
            return Folded::Failed;
        };
        attr_or_failed(int_like_attr(ctx, ty, f(a, w, to)))
    }
    fn sext_to(a: u128, w: u32, _to: u32) -> u128 {
        sext(a, w) as u128
    }
    fn zext_to(a: u128, _w: u32, _to: u32) -> u128 {
        a
    }

    /// `index_cast` of a constant: sign-extended or truncated.
    pub fn index_cast(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        cast_const(ctx, op, c, sext_to)
    }
    /// `index_castui` of a constant: zero-extended or truncated.
    pub fn index_castui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        cast_const(ctx, op, c, zext_to)
    }

    /// `ext(ext(x)) → ext(x)` in place, constants.
    fn ext(
        ctx: &mut Context,
        op: OpId,
        c: Consts,
        name: &str,
        f: fn(u128, u32, u32) -> u128,
    ) -> Folded {
        if let Some(inner) = def_named(ctx, operand(ctx, op, 0), name) {
            let src = operand(ctx, inner, 0);
            ctx.set_operand(op, 0, src);
            return Folded::InPlace;
        }
        cast_const(ctx, op, c, f)
    }
    /// `extsi`.
    pub fn extsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        ext(ctx, op, c, "arith.extsi", sext_to)
    }
    /// `extui`.
    pub fn extui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        ext(ctx, op, c, "arith.extui", zext_to)
    }

    /// `trunci(ext(a))` → `trunci(a)` (in place) or `a`; `trunci(trunci(a)) → trunci(a)`;
    /// constants.
    pub fn trunci(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        let input = operand(ctx, op, 0);
        let ext =
            def_named(ctx, input, "arith.extui").or_else(|| def_named(ctx, input, "arith.extsi"));
        if let Some(e) = ext {
            let src = operand(ctx, e, 0);
            let (st, dt) = (
                elem_type(ctx, ctx.value_type(src)),
                elem_type(ctx, result_type(ctx, op)),
            );
            let (sw, dw) = (
                tilus_ir::rewrite::int_width(ctx, st).unwrap_or(0),
                tilus_ir::rewrite::int_width(ctx, dt).unwrap_or(0),
            );
            if sw > dw {
                ctx.set_operand(op, 0, src);
                return Folded::InPlace;
            }
            if st == dt {
                return Folded::value(src);
            }
        }
        if let Some(t) = def_named(ctx, input, "arith.trunci") {
            let src = operand(ctx, t, 0);
            ctx.set_operand(op, 0, src);
            return Folded::InPlace;
        }
        cast_const(ctx, op, c, |a, _, _| a)
    }

    // ----- floats ---------------------------------------------------------------------------

    /// Exponent and mantissa widths of the IEEE formats folded here.
    fn ieee(k: FloatKind) -> Option<(u32, u32)> {
        match k {
            FloatKind::F16 => Some((5, 10)),
            FloatKind::BF16 => Some((8, 7)),
            FloatKind::F32 => Some((8, 23)),
            FloatKind::F64 => Some((11, 52)),
            _ => None,
        }
    }
    fn is_nan(k: FloatKind, bits: u128) -> bool {
        let (e, m) = ieee(k).unwrap();
        (bits >> m) & ((1 << e) - 1) == (1 << e) - 1 && bits & ((1 << m) - 1) != 0
    }
    fn quiet(k: FloatKind, bits: u128) -> u128 {
        bits | (1 << (ieee(k).unwrap().1 - 1))
    }
    fn default_nan(k: FloatKind) -> u128 {
        let (e, m) = ieee(k).unwrap();
        (((1u128 << e) - 1) << m) | (1 << (m - 1))
    }

    #[derive(Clone, Copy)]
    enum FOp {
        Add,
        Sub,
        Mul,
        Div,
    }

    impl FOp {
        fn apply<T>(self, p: T, q: T) -> T
        where
            T: Add<Output = T> + Sub<Output = T> + Mul<Output = T> + Div<Output = T>,
        {
            match self {
                FOp::Add => p + q,
                FOp::Sub => p - q,
                FOp::Mul => p * q,
                FOp::Div => p / q,
            }
        }
    }

    /// IEEE arithmetic on two float constants, as LLVM's `APFloat` does it: round to nearest
    /// even; a NaN operand propagates quieted (the left one first); a new NaN is the positive
    /// quiet NaN. `f32`/`f64` use the host's IEEE arithmetic; `f16`/`bf16` go through `f64`,
    /// whose 53 bits make the double rounding harmless.
    fn float_binary(ctx: &mut Context, op: OpId, c: Consts, o: FOp) -> Folded {
        let (Some(a), Some(b)) = (c[0], c[1]) else {
            return Folded::Failed;
        };
        let (Some((k, x)), Some((k2, y))) = (float_bits(ctx, a), float_bits(ctx, b)) else {
            return Folded::Failed;
        };
        if k != k2 || ieee(k).is_none() {
            return Folded::Failed;
        }
        let bits = if is_nan(k, x) {
            quiet(k, x)
        } else if is_nan(k, y) {
            quiet(k, y)
        } else {
            let r = match k {
                FloatKind::F32 => {
                    let (p, q) = (f32::from_bits(x as u32), f32::from_bits(y as u32));
                    let v = o.apply(p, q);
                    v.to_bits() as u128
                }
                FloatKind::F64 => {
                    let (p, q) = (f64::from_bits(x as u64), f64::from_bits(y as u64));
                    let v = o.apply(p, q);
                    v.to_bits() as u128
                }
                _ => {
                    let (p, q) = (to_f64(k, x), to_f64(k, y));
                    let v = o.apply(p, q);
                    if v.is_nan() {
                        default_nan(k)
                    } else {
                        from_f64(k, v)
                    }
                }
            };
            if is_nan(k, r) {
                default_nan(k)
            } else {
                r
            }
        };
        let ty = result_type(ctx, op);
        Folded::attr(float_attr(ctx, ty, bits))
    }

    /// The float constant `a` as (format, bits), IEEE formats only.
    fn fconst(ctx: &Context, a: Option<Attr>) -> Option<(FloatKind, u128)> {
        float_bits(ctx, a?).filter(|(k, _)| ieee(*k).is_some())
    }
    fn sign_bit(k: FloatKind) -> u128 {
        let (e, m) = ieee(k).unwrap();
        1 << (e + m)
    }
    fn is_pos_zero(ctx: &Context, a: Option<Attr>) -> bool {
        fconst(ctx, a).is_some_and(|(_, b)| b == 0)
    }
    fn is_neg_zero(ctx: &Context, a: Option<Attr>) -> bool {
        fconst(ctx, a).is_some_and(|(k, b)| b == sign_bit(k))
    }
    fn is_float_one(ctx: &Context, a: Option<Attr>) -> bool {
        fconst(ctx, a).is_some_and(|(k, b)| !is_nan(k, b) && to_f64(k, b) == 1.0)
    }

    /// `addf(x, -0) → x`, constants.
    pub fn addf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if is_neg_zero(ctx, c[1]) {
            return lhs(ctx, op);
        }
        float_binary(ctx, op, c, FOp::Add)
    }
    /// `subf(x, +0) → x`, constants.
    pub fn subf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if is_pos_zero(ctx, c[1]) {
            return lhs(ctx, op);
        }
        float_binary(ctx, op, c, FOp::Sub)
    }
    /// `mulf(x, 1) → x`, `mulf(x, ±0) → ±0` with `nnan` and `nsz`, constants.
    pub fn mulf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if is_float_one(ctx, c[1]) {
            return lhs(ctx, op);
        }
        if fastmath_has(ctx, op, &["nnan", "nsz"])
            && (is_pos_zero(ctx, c[1]) || is_neg_zero(ctx, c[1]))
        {
            return rhs(ctx, op);
        }
        float_binary(ctx, op, c, FOp::Mul)
    }
    /// `divf(x, 1) → x`, constants.
    pub fn divf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if is_float_one(ctx, c[1]) {
            return lhs(ctx, op);
        }
        float_binary(ctx, op, c, FOp::Div)
    }

    /// `maximumf`/`minimumf`: `op(x, x) → x`, the neutral infinity → x, constants (`-0 < +0`,
    /// a NaN wins).
    fn min_max_f(ctx: &mut Context, op: OpId, c: Consts, max: bool) -> Folded {
        if operand(ctx, op, 0) == operand(ctx, op, 1) {
            return rhs(ctx, op);
        }
        if let Some((k, b)) = fconst(ctx, c[1]) {
            let v = to_f64(k, b);
            if v.is_infinite() && (v < 0.0) == max {
                return lhs(ctx, op);
            }
        }
        let (Some((k, x)), Some((k2, y))) = (fconst(ctx, c[0]), fconst(ctx, c[1])) else {
            return Folded::Failed;
        };
        if k != k2 {
            return Folded::Failed;
        }
        let ty = result_type(ctx, op);
        // NaN propagates, quieted, the left one first (LLVM's `maximum`/`minimum`).
        if is_nan(k, x) || is_nan(k, y) {
            let n = if is_nan(k, x) { x } else { y };
            return Folded::attr(float_attr(ctx, ty, quiet(k, n)));
        }
        let (p, q) = (to_f64(k, x), to_f64(k, y));
        let pick_x = if p == q {
            // ±0: maximum prefers +0, minimum -0.
            let x_neg = x & sign_bit(k) != 0;
            x_neg != max
        } else {
            (p > q) == max
        };
        Folded::attr(float_attr(ctx, ty, if pick_x { x } else { y }))
    }
    /// `maximumf`.
    pub fn maximumf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        min_max_f(ctx, op, c, true)
    }
    /// `minimumf`.
    pub fn minimumf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        min_max_f(ctx, op, c, false)
    }

    /// `negf(negf(x)) → x`, constants (the sign bit flips, NaN included).
    pub fn negf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        if let Some(inner) = def_named(ctx, operand(ctx, op, 0), "arith.negf") {
            return Folded::value(operand(ctx, inner, 0));
        }
        let Some((k, b)) = fconst(ctx, c[0]) else {
            return Folded::Failed;
        };
        let ty = result_type(ctx, op);
        Folded::attr(float_attr(ctx, ty, b ^ sign_bit(k)))
    }

    /// `cmpf` of two constants (a NaN makes the comparison unordered).
    pub fn cmpf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
        let (Some((k, x)), Some((k2, y))) = (fconst(ctx, c[0]), fconst(ctx, c[1])) else {
            return Folded::Failed;
        };
        if k != k2 {
            return Folded::Failed;
        }
        let Some((pred, _)) = ctx
            .get_inherent_or_attr(op, "predicate")
            .and_then(|a| int_bits(ctx, a))
        else {
            return Folded::Failed;
        };
        let (p, q) = (to_f64(k, x), to_f64(k, y));
        let unordered = p.is_nan() || q.is_nan();
        let (lt, eq, gt) = (
            !unordered && p < q,
            !unordered && p == q,
            !unordered && p > q,
        );
        let v = match pred {
            0 => false,
            1 => eq,
            2 => gt,
            3 => gt || eq,
            4 => lt,
            5 => lt || eq,
            6 => !unordered && !eq,
            7 => !unordered,
            8 => unordered || eq,
            9 => unordered || gt,
            10 => unordered || gt || eq,
            11 => unordered || lt,
            12 => unordered || lt || eq,
            13 => !eq,
            14 => unordered,
            _ => true,
        };
        Folded::attr(bool_attr(ctx, v))
    }
}

// ----- canonicalization patterns ----------------------------------------------------------------

/// The canonicalization patterns of MLIR's arith dialect (`ArithCanonicalization.td` and the
/// hand-written ones), each doc line giving the rewrite. Benefits follow DRR's rule: the number
/// of ops the pattern matches.
mod canon {
    use super::fold::{cmpi_predicate, set_cmpi_predicate};
    use super::helpers::*;
    use tilus_ir::rewrite::{fused_loc, Pattern, Rewriter};
    use tilus_ir::{OpId, TypeKind, Value};

    pub const ADDI: &[Pattern] = &[
        Pattern::new("addi-add-constant", |rw, op| ADD_ADD_CONSTANT.apply(rw, op)).with_benefit(2),
        Pattern::new("addi-sub-constant-rhs", |rw, op| {
            ADD_SUB_CONSTANT_RHS.apply(rw, op)
        })
        .with_benefit(2),
        Pattern::new("addi-sub-constant-lhs", |rw, op| {
            ADD_SUB_CONSTANT_LHS.apply(rw, op)
        })
        .with_benefit(2),
        Pattern::new("addi-mul-negative-one-rhs", |rw, op| {
            add_mul_neg_one(rw, op, 1)
        })
        .with_benefit(2),
        Pattern::new("addi-mul-negative-one-lhs", |rw, op| {
            add_mul_neg_one(rw, op, 0)
        })
        .with_benefit(2),
    ];
    pub const SUBI: &[Pattern] = &[
        Pattern::new("subi-rhs-add-constant", |rw, op| {
            SUB_RHS_ADD_CONSTANT.apply(rw, op)
        })
        .with_benefit(2),
        Pattern::new("subi-lhs-add-constant", |rw, op| {
            SUB_LHS_ADD_CONSTANT.apply(rw, op)
        })
        .with_benefit(2),
        Pattern::new("subi-rhs-sub-constant-rhs", |rw, op| {
            SUB_RHS_SUB_CONSTANT_RHS.apply(rw, op)
        })
        .with_benefit(2),
        Pattern::new("subi-rhs-sub-constant-lhs", |rw, op| {
            SUB_RHS_SUB_CONSTANT_LHS.apply(rw, op)
        })
        .with_benefit(2),
        Pattern::new("subi-lhs-sub-constant-rhs", |rw, op| {
            SUB_LHS_SUB_CONSTANT_RHS.apply(rw, op)
        })
        .with_benefit(2),
        Pattern::new("subi-lhs-sub-constant-lhs", |rw, op| {
            SUB_LHS_SUB_CONSTANT_LHS.apply(rw, op)
        })
        .with_benefit(2),
        Pattern::new("subi-sub-lhs-rhs-lhs", sub_sub_lhs_rhs_lhs).with_benefit(2),
    ];
    pub const MULI: &[Pattern] = &[Pattern::new("muli-muli-constant", |rw, op| {
        MUL_MUL_CONSTANT.apply(rw, op)
    })
    .with_benefit(2)];
    pub const XORI: &[Pattern] = &[
        Pattern::new("xori-not-cmpi", xor_not_cmpi).with_benefit(2),
        Pattern::new("xori-of-extui", |rw, op| {
            logic_of_ext(rw, op, "arith.extui")
        })
        .with_benefit(3),
        Pattern::new("xori-of-extsi", |rw, op| {
            logic_of_ext(rw, op, "arith.extsi")
        })
        .with_benefit(3),
    ];
    pub const ANDI: &[Pattern] = &[
        Pattern::new("andi-of-extui", |rw, op| {
            logic_of_ext(rw, op, "arith.extui")
        })
        .with_benefit(3),
        Pattern::new("andi-of-extsi", |rw, op| {
            logic_of_ext(rw, op, "arith.extsi")
        })
        .with_benefit(3),
    ];
    pub const ORI: &[Pattern] = &[
        Pattern::new("ori-of-extui", |rw, op| logic_of_ext(rw, op, "arith.extui")).with_benefit(3),
        Pattern::new("ori-of-extsi", |rw, op| logic_of_ext(rw, op, "arith.extsi")).with_benefit(3),
    ];
    pub const CMPI: &[Pattern] = &[
        Pattern::new("cmpi-extsi", |rw, op| cmp_of_ext(rw, op, "arith.extsi")).with_benefit(3),
        Pattern::new("cmpi-extui", |rw, op| cmp_of_ext(rw, op, "arith.extui")).with_benefit(3),
    ];
    pub const SELECT: &[Pattern] = &[
        Pattern::new("redundant-select-false", |rw, op| {
            redundant_select(rw, op, 2)
        })
        .with_benefit(2),
        Pattern::new("redundant-select-true", |rw, op| {
            redundant_select(rw, op, 1)
        })
        .with_benefit(2),
        Pattern::new("select-not-cond", select_not_cond).with_benefit(2),
        Pattern::new("select-i1-to-not", select_i1_to_not),
        Pattern::new("select-to-extui", select_to_extui),
    ];
    pub const INDEX_CAST: &[Pattern] = &[
        Pattern::new("index-cast-of-index-cast", |rw, op| {
            cast_of_same_cast(rw, op, "arith.index_cast")
        })
        .with_benefit(2),
        Pattern::new("index-cast-of-extsi", |rw, op| {
            cast_of_ext(rw, op, "arith.extsi", "arith.index_cast")
        })
        .with_benefit(2),
    ];
    pub const INDEX_CASTUI: &[Pattern] = &[
        Pattern::new("index-castui-of-index-castui", |rw, op| {
            cast_of_same_cast(rw, op, "arith.index_castui")
        })
        .with_benefit(2),
        Pattern::new("index-castui-of-extui", |rw, op| {
            cast_of_ext(rw, op, "arith.extui", "arith.index_castui")
        })
        .with_benefit(2),
    ];
    pub const EXTSI: &[Pattern] = &[Pattern::new("extsi-of-extui", |rw, op| {
        cast_of_ext(rw, op, "arith.extui", "arith.extui")
    })
    .with_benefit(2)];
    pub const TRUNCI: &[Pattern] = &[
        Pattern::new("trunci-extsi-to-extsi", |rw, op| {
            trunc_of_ext(rw, op, "arith.extsi")
        })
        .with_benefit(2),
        Pattern::new("trunci-extui-to-extui", |rw, op| {
            trunc_of_ext(rw, op, "arith.extui")
        })
        .with_benefit(2),
    ];
    pub const MULF: &[Pattern] =
        &[
            Pattern::new("mulf-of-negf", |rw, op| float_of_negf(rw, op, "arith.mulf"))
                .with_benefit(3),
        ];
    pub const DIVF: &[Pattern] =
        &[
            Pattern::new("divf-of-negf", |rw, op| float_of_negf(rw, op, "arith.divf"))
                .with_benefit(3),
        ];

    /// A reassociation of constants (`ArithCanonicalization.td`): `root(inner, c1)` or
    /// `root(c1, inner)` where `inner` is `x` and a scalar constant `c0` in either order, rewritten
    /// to `new(x, c)` or `new(c, x)` with `c = fold(c0, c1)`.
    struct ConstChain {
        /// The root's constant operand (0 or 1); `inner` defines the other.
        root_const: usize,
        /// The inner op's name.
        inner: &'static str,
        /// The inner op's constant operand (0 or 1); the other is `x`.
        inner_const: usize,
        /// The new op's name.
        new: &'static str,
        /// The new constant from `c0` and `c1`.
        fold: fn(u128, u128) -> u128,
        /// Whether the new constant is the new op's left operand.
        const_on_left: bool,
        /// Whether the new op keeps the overflow flags both ops carry (else it has none).
        keep_flags: bool,
    }

    impl ConstChain {
        /// Matches and rewrites; the constant is created first, as DRR does.
        fn apply(&self, rw: &mut Rewriter<'_>, op: OpId) -> bool {
            let ctx = rw.ctx();
            let Some((c1, _)) = int_const_of(ctx, operand(ctx, op, self.root_const)) else {
                return false;
            };
            let Some(inner) = def_named(ctx, operand(ctx, op, 1 - self.root_const), self.inner)
            else {
                return false;
            };
            let Some((c0, _)) = int_const_of(ctx, operand(ctx, inner, self.inner_const)) else {
                return false;
            };
            let x = operand(ctx, inner, 1 - self.inner_const);
            let flags = if self.keep_flags {
                overflow_flags(ctx, inner) & overflow_flags(ctx, op)
            } else {
                0
            };
            // The first op DRR matched in operand order: the root's constant when it is on the
            // left, else the inner op's constant.
            let first = if self.root_const == 0 {
                operand_def(rw, op, 0)
            } else {
                operand_def(rw, inner, self.inner_const)
            };
            let ty = result_type(ctx, op);
            let locs = [ctx.op(op).loc, ctx.op(first).loc];
            let loc = fused_loc(rw.ctx_mut(), &locs);
            let cv = int_constant(rw, ty, (self.fold)(c0, c1), loc);
            let (l, r) = if self.const_on_left { (cv, x) } else { (x, cv) };
            let props = overflow_prop(rw.ctx_mut(), flags);
            let new = op1(rw, self.new, vec![l, r], ty, props, loc);
            rw.replace_op(op, &[new]);
            true
        }
    }

    /// `addi(addi(x, c0), c1) → addi(x, c0 + c1)`.
    const ADD_ADD_CONSTANT: ConstChain = ConstChain {
        root_const: 1,
        inner: "arith.addi",
        inner_const: 1,
        new: "arith.addi",
        fold: |c0, c1| c0.wrapping_add(c1),
        const_on_left: false,
        keep_flags: true,
    };
    /// `addi(subi(x, c0), c1) → addi(x, c1 - c0)`.
    const ADD_SUB_CONSTANT_RHS: ConstChain = ConstChain {
        root_const: 1,
        inner: "arith.subi",
        inner_const: 1,
        new: "arith.addi",
        fold: |c0, c1| c1.wrapping_sub(c0),
        const_on_left: false,
        keep_flags: true,
    };
    /// `addi(subi(c0, x), c1) → subi(c0 + c1, x)`.
    const ADD_SUB_CONSTANT_LHS: ConstChain = ConstChain {
        root_const: 1,
        inner: "arith.subi",
        inner_const: 0,
        new: "arith.subi",
        fold: |c0, c1| c0.wrapping_add(c1),
        const_on_left: true,
        keep_flags: true,
    };
    /// `muli(muli(x, c0), c1) → muli(x, c0 * c1)`.
    const MUL_MUL_CONSTANT: ConstChain = ConstChain {
        root_const: 1,
        inner: "arith.muli",
        inner_const: 1,
        new: "arith.muli",
        fold: |c0, c1| c0.wrapping_mul(c1),
        const_on_left: false,
        keep_flags: true,
    };
    /// `subi(addi(x, c0), c1) → addi(x, c0 - c1)` (flags dropped, as MLIR does).
    const SUB_RHS_ADD_CONSTANT: ConstChain = ConstChain {
        root_const: 1,
        inner: "arith.addi",
        inner_const: 1,
        new: "arith.addi",
        fold: |c0, c1| c0.wrapping_sub(c1),
        const_on_left: false,
        keep_flags: false,
    };
    /// `subi(c1, addi(x, c0)) → subi(c1 - c0, x)`.
    const SUB_LHS_ADD_CONSTANT: ConstChain = ConstChain {
        root_const: 0,
        inner: "arith.addi",
        inner_const: 1,
        new: "arith.subi",
        fold: |c0, c1| c1.wrapping_sub(c0),
        const_on_left: true,
        keep_flags: true,
    };
    /// `subi(subi(x, c0), c1) → subi(x, c0 + c1)`.
    const SUB_RHS_SUB_CONSTANT_RHS: ConstChain = ConstChain {
        root_const: 1,
        inner: "arith.subi",
        inner_const: 1,
        new: "arith.subi",
        fold: |c0, c1| c0.wrapping_add(c1),
        const_on_left: false,
        keep_flags: true,
    };
    /// `subi(subi(c0, x), c1) → subi(c0 - c1, x)`.
    const SUB_RHS_SUB_CONSTANT_LHS: ConstChain = ConstChain {
        root_const: 1,
        inner: "arith.subi",
        inner_const: 0,
        new: "arith.subi",
        fold: |c0, c1| c0.wrapping_sub(c1),
        const_on_left: true,
        keep_flags: true,
    };
    /// `subi(c1, subi(x, c0)) → subi(c0 + c1, x)`.
    const SUB_LHS_SUB_CONSTANT_RHS: ConstChain = ConstChain {
        root_const: 0,
        inner: "arith.subi",
        inner_const: 1,
        new: "arith.subi",
        fold: |c0, c1| c0.wrapping_add(c1),
        const_on_left: true,
        keep_flags: true,
    };
    /// `subi(c1, subi(c0, x)) → addi(x, c1 - c0)`.
    const SUB_LHS_SUB_CONSTANT_LHS: ConstChain = ConstChain {
        root_const: 0,
        inner: "arith.subi",
        inner_const: 0,
        new: "arith.addi",
        fold: |c0, c1| c1.wrapping_sub(c0),
        const_on_left: false,
        keep_flags: true,
    };

    /// The op defining operand `i` of `op` (itself when a block argument defines it): DRR fuses
    /// the root's location with the first op it matched in operand order, and a constant
    /// matched by `ConstantLikeMatcher` counts, ahead of the op that uses it.
    fn operand_def(rw: &Rewriter<'_>, op: OpId, i: usize) -> OpId {
        rw.ctx().defining_op(operand(rw.ctx(), op, i)).unwrap_or(op)
    }

    /// Whether `v` is `muli(y, -1)` (scalar), and `y`.
    fn mul_by_neg_one(rw: &Rewriter<'_>, v: Value) -> Option<(OpId, Value)> {
        let ctx = rw.ctx();
        let m = def_named(ctx, v, "arith.muli")?;
        let (c, w) = int_const_of(ctx, operand(ctx, m, 1))?;
        (c == ones(w)).then(|| (m, operand(ctx, m, 0)))
    }
    /// `addi(x, muli(y, -1)) → subi(x, y)` (`mul` = 1) and `addi(muli(y, -1), x) → subi(x, y)`
    /// (`mul` = 0).
    fn add_mul_neg_one(rw: &mut Rewriter<'_>, op: OpId, mul: usize) -> bool {
        let x = operand(rw.ctx(), op, 1 - mul);
        let Some((m, y)) = mul_by_neg_one(rw, operand(rw.ctx(), op, mul)) else {
            return false;
        };
        let c = operand_def(rw, m, 1);
        replace_with_binop(rw, op, &[c], "arith.subi", x, y)
    }
    /// Replaces `root` by `name(a, b)` of its type (no flags).
    fn replace_with_binop(
        rw: &mut Rewriter<'_>,
        root: OpId,
        matched: &[OpId],
        name: &str,
        a: Value,
        b: Value,
    ) -> bool {
        let ctx = rw.ctx();
        let ty = result_type(ctx, root);
        let mut locs = vec![ctx.op(root).loc];
        locs.extend(matched.iter().map(|m| ctx.op(*m).loc));
        let loc = fused_loc(rw.ctx_mut(), &locs);
        let new = op1(rw, name, vec![a, b], ty, vec![], loc);
        rw.replace_op(root, &[new]);
        true
    }
    /// `subi(subi(a, b), a) → subi(0, b)`.
    fn sub_sub_lhs_rhs_lhs(rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let ctx = rw.ctx();
        let (l, r) = (operand(ctx, op, 0), operand(ctx, op, 1));
        let Some(inner) = def_named(ctx, l, "arith.subi") else {
            return false;
        };
        if operand(ctx, inner, 0) != r {
            return false;
        }
        let y = operand(ctx, inner, 1);
        let yty = ctx.value_type(y);
        let f = overflow_flags(ctx, inner) & overflow_flags(ctx, op);
        let locs = [ctx.op(op).loc, ctx.op(inner).loc];
        let loc = fused_loc(rw.ctx_mut(), &locs);
        let Some(z) = zero_like(rw.ctx_mut(), yty) else {
            return false;
        };
        let zv = constant(rw, yty, z, loc);
        let ty = result_type(rw.ctx(), op);
        let props = overflow_prop(rw.ctx_mut(), f);
        let new = op1(rw, "arith.subi", vec![zv, y], ty, props, loc);
        rw.replace_op(op, &[new]);
        true
    }

    /// `xori(cmpi(p, a, b), true) → cmpi(!p, a, b)`.
    fn xor_not_cmpi(rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let ctx = rw.ctx();
        let Some((1, 1)) = int_const_of(ctx, operand(ctx, op, 1)) else {
            return false;
        };
        let Some(cmp) = def_named(ctx, operand(ctx, op, 0), "arith.cmpi") else {
            return false;
        };
        let Some(pred) = cmpi_predicate(ctx, cmp) else {
            return false;
        };
        let inv = match pred {
            "eq" => "ne",
            "ne" => "eq",
            "slt" => "sge",
            "sle" => "sgt",
            "sgt" => "sle",
            "sge" => "slt",
            "ult" => "uge",
            "ule" => "ugt",
            "ugt" => "ule",
            _ => "ult",
        };
        let (a, b) = (operand(ctx, cmp, 0), operand(ctx, cmp, 1));
        let ty = result_type(ctx, op);
        let locs = [ctx.op(op).loc, ctx.op(cmp).loc];
        let loc = fused_loc(rw.ctx_mut(), &locs);
        let new = rw.build("arith.cmpi", vec![a, b], vec![ty], vec![], loc);
        set_cmpi_predicate(rw.ctx_mut(), new, inv);
        let v = rw.ctx().results(new)[0];
        rw.replace_op(op, &[v]);
        true
    }

    /// `logic(ext(x), ext(y)) → ext(logic(x, y))` when `x` and `y` have one type.
    fn logic_of_ext(rw: &mut Rewriter<'_>, op: OpId, ext: &str) -> bool {
        let ctx = rw.ctx();
        let (Some(a), Some(b)) = (
            def_named(ctx, operand(ctx, op, 0), ext),
            def_named(ctx, operand(ctx, op, 1), ext),
        ) else {
            return false;
        };
        let (x, y) = (operand(ctx, a, 0), operand(ctx, b, 0));
        let xty = ctx.value_type(x);
        if xty != ctx.value_type(y) {
            return false;
        }
        let name = ctx.op_name_str(op).to_string();
        let ty = result_type(ctx, op);
        let locs = [ctx.op(op).loc, ctx.op(a).loc, ctx.op(b).loc];
        let loc = fused_loc(rw.ctx_mut(), &locs);
        let inner = op1(rw, &name, vec![x, y], xty, vec![], loc);
        let new = op1(rw, ext, vec![inner], ty, vec![], loc);
        rw.replace_op(op, &[new]);
        true
    }

    /// `cmpi(eq|ne, ext(a), ext(b)) → cmpi(eq|ne, a, b)` when `a` and `b` have one type.
    fn cmp_of_ext(rw: &mut Rewriter<'_>, op: OpId, ext: &str) -> bool {
        let ctx = rw.ctx();
        let Some(pred) = cmpi_predicate(ctx, op) else {
            return false;
        };
        if pred != "eq" && pred != "ne" {
            return false;
        }
        let (Some(ea), Some(eb)) = (
            def_named(ctx, operand(ctx, op, 0), ext),
            def_named(ctx, operand(ctx, op, 1), ext),
        ) else {
            return false;
        };
        let (a, b) = (operand(ctx, ea, 0), operand(ctx, eb, 0));
        if ctx.value_type(a) != ctx.value_type(b) {
            return false;
        }
        let ty = result_type(ctx, op);
        let locs = [ctx.op(op).loc, ctx.op(ea).loc, ctx.op(eb).loc];
        let loc = fused_loc(rw.ctx_mut(), &locs);
        let new = rw.build("arith.cmpi", vec![a, b], vec![ty], vec![], loc);
        set_cmpi_predicate(rw.ctx_mut(), new, pred);
        let v = rw.ctx().results(new)[0];
        rw.replace_op(op, &[v]);
        true
    }

    fn replace_with_select(
        rw: &mut Rewriter<'_>,
        root: OpId,
        matched: OpId,
        c: Value,
        t: Value,
        f: Value,
    ) -> bool {
        let ctx = rw.ctx();
        let ty = result_type(ctx, root);
        let locs = [ctx.op(root).loc, ctx.op(matched).loc];
        let loc = fused_loc(rw.ctx_mut(), &locs);
        let new = op1(rw, "arith.select", vec![c, t, f], ty, vec![], loc);
        rw.replace_op(root, &[new]);
        true
    }
    /// `select(p, a, select(p, b, c)) → select(p, a, c)` (`side` = 2) and
    /// `select(p, select(p, a, b), c) → select(p, a, c)` (`side` = 1).
    fn redundant_select(rw: &mut Rewriter<'_>, op: OpId, side: usize) -> bool {
        let ctx = rw.ctx();
        let mut ops = [
            operand(ctx, op, 0),
            operand(ctx, op, 1),
            operand(ctx, op, 2),
        ];
        let Some(inner) = def_named(ctx, ops[side], "arith.select") else {
            return false;
        };
        if operand(ctx, inner, 0) != ops[0] {
            return false;
        }
        ops[side] = operand(ctx, inner, side);
        replace_with_select(rw, op, inner, ops[0], ops[1], ops[2])
    }
    /// `select(not(p), a, b) → select(p, b, a)`.
    fn select_not_cond(rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let ctx = rw.ctx();
        let (c, a, b) = (
            operand(ctx, op, 0),
            operand(ctx, op, 1),
            operand(ctx, op, 2),
        );
        let Some(x) = def_named(ctx, c, "arith.xori") else {
            return false;
        };
        let Some((bits, w)) = int_const_of(ctx, operand(ctx, x, 1)) else {
            return false;
        };
        if bits != ones(w) {
            return false;
        }
        let p = operand(ctx, x, 0);
        let ones_op = operand_def(rw, x, 1);
        replace_with_select(rw, op, ones_op, p, b, a)
    }
    /// `select(p, false, true) → xori(p, true)`.
    fn select_i1_to_not(rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let ctx = rw.ctx();
        let (p, t, f) = (
            operand(ctx, op, 0),
            operand(ctx, op, 1),
            operand(ctx, op, 2),
        );
        let (Some((0, 1)), Some((1, 1))) = (int_const_of(ctx, t), int_const_of(ctx, f)) else {
            return false;
        };
        let ty = result_type(ctx, op);
        let loc = ctx.op(op).loc;
        let one = int_constant(rw, ty, 1, loc);
        let new = op1(rw, "arith.xori", vec![p, one], ty, vec![], loc);
        rw.replace_op(op, &[new]);
        true
    }
    /// `select(c, 1, 0) → extui(c)`, `select(c, 0, 1) → extui(xori(c, true))` for integer
    /// results wider than `i1`.
    fn select_to_extui(rw: &mut Rewriter<'_>, op: OpId) -> bool {
        let ctx = rw.ctx();
        let ty = result_type(ctx, op);
        if !matches!(ctx.type_kind(ty), TypeKind::Integer { width, .. } if *width > 1) {
            return false;
        }
        let (c, t, f) = (
            operand(ctx, op, 0),
            operand(ctx, op, 1),
            operand(ctx, op, 2),
        );
        let (Some((tv, _)), Some((fv, _))) = (int_const_of(ctx, t), int_const_of(ctx, f)) else {
            return false;
        };
        let loc = ctx.op(op).loc;
        let cty = ctx.value_type(c);
        let input = match (tv, fv) {
            (1, 0) => c,
            (0, 1) => {
                let one = int_constant(rw, cty, 1, loc);
                op1(rw, "arith.xori", vec![c, one], cty, vec![], loc)
            }
            _ => return false,
        };
        let new = op1(rw, "arith.extui", vec![input], ty, vec![], loc);
        rw.replace_op(op, &[new]);
        true
    }

    /// `cast(cast(x)) → x` when the outer result has `x`'s type (MLIR 22 does not check that
    /// the round trip is lossless).
    fn cast_of_same_cast(rw: &mut Rewriter<'_>, op: OpId, name: &str) -> bool {
        let ctx = rw.ctx();
        let Some(inner) = def_named(ctx, operand(ctx, op, 0), name) else {
            return false;
        };
        let x = operand(ctx, inner, 0);
        if ctx.value_type(x) != result_type(ctx, op) {
            return false;
        }
        rw.replace_op(op, &[x]);
        true
    }
    /// `outer(ext(x)) → new(x)` of the root's result type.
    fn cast_of_ext(rw: &mut Rewriter<'_>, op: OpId, ext: &str, new: &str) -> bool {
        let ctx = rw.ctx();
        let Some(e) = def_named(ctx, operand(ctx, op, 0), ext) else {
            return false;
        };
        let x = operand(ctx, e, 0);
        let ty = result_type(ctx, op);
        let locs = [ctx.op(op).loc, ctx.op(e).loc];
        let loc = fused_loc(rw.ctx_mut(), &locs);
        let v = op1(rw, new, vec![x], ty, vec![], loc);
        rw.replace_op(op, &[v]);
        true
    }
    /// `trunci(ext(x)) → ext(x)` when only extension bits are dropped (width(ext) > width(trunc)
    /// > width(x)).
    fn trunc_of_ext(rw: &mut Rewriter<'_>, op: OpId, ext: &str) -> bool {
        let ctx = rw.ctx();
        let Some(e) = def_named(ctx, operand(ctx, op, 0), ext) else {
            return false;
        };
        let x = operand(ctx, e, 0);
        let width = |t| tilus_ir::rewrite::int_width(ctx, elem_type(ctx, t)).unwrap_or(0);
        let (we, wt, wx) = (
            width(result_type(ctx, e)),
            width(result_type(ctx, op)),
            width(ctx.value_type(x)),
        );
        if !(we > wt && wt > wx && wx > 0) {
            return false;
        }
        let ty = result_type(ctx, op);
        let locs = [ctx.op(op).loc, ctx.op(e).loc];
        let loc = fused_loc(rw.ctx_mut(), &locs);
        let v = op1(rw, ext, vec![x], ty, vec![], loc);
        rw.replace_op(op, &[v]);
        true
    }
    /// `op(negf(a), negf(b)) → op(a, b)` keeping the root's fastmath flags.
    fn float_of_negf(rw: &mut Rewriter<'_>, op: OpId, name: &str) -> bool {
        let ctx = rw.ctx();
        let (Some(na), Some(nb)) = (
            def_named(ctx, operand(ctx, op, 0), "arith.negf"),
            def_named(ctx, operand(ctx, op, 1), "arith.negf"),
        ) else {
            return false;
        };
        let (a, b) = (operand(ctx, na, 0), operand(ctx, nb, 0));
        if ctx.value_type(a) != ctx.value_type(b) {
            return false;
        }
        let ty = result_type(ctx, op);
        let props: Vec<_> = ctx
            .get_inherent_or_attr(op, "fastmath")
            .map(|f| ("fastmath".to_string(), f))
            .into_iter()
            .collect();
        let locs = [ctx.op(op).loc, ctx.op(na).loc, ctx.op(nb).loc];
        let loc = fused_loc(rw.ctx_mut(), &locs);
        let v = op1(rw, name, vec![a, b], ty, props, loc);
        rw.replace_op(op, &[v]);
        true
    }
}
