//! `arith`: scalar (and elementwise vector/tensor) integer and float arithmetic.
//!
//! Op names, operands and property names match MLIR's arith dialect, so IR moves between tilus
//! and `mlir-opt` unchanged. Enum properties (`predicate`) are integers in generic form and
//! keywords in custom form, as in MLIR.

use tilus_ir::attrs::AttrKind;
use tilus_ir::opdef::{
    attr, enum_attr, one, opt_attr, typed_attr_type, AttrConstraint, Format, OpDef, Trait,
    TypeConstraint, BOOL_LIKE, FLOAT_LIKE, I1, SCALAR, SIGNLESS_INT_LIKE, TYPED_ATTR,
};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::{Context, Diagnostic, OpId, TypeKind};

const INT_FORMAT: &str = "$lhs `,` $rhs attr-dict `:` type($result)";
const INT_OVF_FORMAT: &str =
    "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)";
const FLOAT_FORMAT: &str = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
const CAST_FORMAT: &str = "$in attr-dict `:` type($in) `to` type($out)";

/// `#arith.overflow<...>` (kept as written).
const OVERFLOW_FLAGS: AttrConstraint = AttrConstraint {
    desc: "arith overflow flags (#arith.overflow<...>)",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::Dialect { dialect, name, .. } if dialect == "arith" && name == "overflow"),
    value_type: None,
    keywords: &[],
    short_form: Some(("arith", "overflow")),
};
/// `#arith.fastmath<...>`.
const FASTMATH_FLAGS: AttrConstraint = AttrConstraint {
    desc: "arith fastmath flags (#arith.fastmath<...>)",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::Dialect { dialect, name, .. } if dialect == "arith" && name == "fastmath"),
    value_type: None,
    keywords: &[],
    short_form: Some(("arith", "fastmath")),
};

macro_rules! binary {
    ($id:ident, $name:literal, $ty:expr, $fmt:expr, [$($extra:expr),*], [$($tr:expr),*], $doc:literal) => {
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
    [opt_attr("overflowFlags", OVERFLOW_FLAGS)],
    [Trait::Commutative],
    "Integer addition, wrapping modulo 2^N."
);
binary!(
    SUBI,
    "arith.subi",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [opt_attr("overflowFlags", OVERFLOW_FLAGS)],
    [],
    "Integer subtraction, wrapping modulo 2^N."
);
binary!(
    MULI,
    "arith.muli",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [opt_attr("overflowFlags", OVERFLOW_FLAGS)],
    [Trait::Commutative],
    "Integer multiplication, wrapping modulo 2^N."
);
binary!(
    DIVSI,
    "arith.divsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer division rounding toward zero."
);
binary!(
    DIVUI,
    "arith.divui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Unsigned integer division."
);
binary!(
    REMSI,
    "arith.remsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Signed integer remainder (sign of the dividend)."
);
binary!(
    REMUI,
    "arith.remui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Unsigned integer remainder."
);
binary!(
    ANDI,
    "arith.andi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Bitwise and."
);
binary!(
    ORI,
    "arith.ori",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Bitwise or."
);
binary!(
    XORI,
    "arith.xori",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Bitwise exclusive or."
);
binary!(
    SHLI,
    "arith.shli",
    SIGNLESS_INT_LIKE,
    INT_OVF_FORMAT,
    [opt_attr("overflowFlags", OVERFLOW_FLAGS)],
    [],
    "Shift left; shifting by the bit width or more gives poison."
);
binary!(
    SHRSI,
    "arith.shrsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Arithmetic shift right."
);
binary!(
    SHRUI,
    "arith.shrui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [],
    "Logical shift right."
);
binary!(
    MAXSI,
    "arith.maxsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Signed integer maximum."
);
binary!(
    MINSI,
    "arith.minsi",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Signed integer minimum."
);
binary!(
    MAXUI,
    "arith.maxui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Unsigned integer maximum."
);
binary!(
    MINUI,
    "arith.minui",
    SIGNLESS_INT_LIKE,
    INT_FORMAT,
    [],
    [Trait::Commutative],
    "Unsigned integer minimum."
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
    [opt_attr("fastmath", FASTMATH_FLAGS)],
    [Trait::Commutative],
    "Float addition."
);
binary!(
    SUBF,
    "arith.subf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [opt_attr("fastmath", FASTMATH_FLAGS)],
    [],
    "Float subtraction."
);
binary!(
    MULF,
    "arith.mulf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [opt_attr("fastmath", FASTMATH_FLAGS)],
    [Trait::Commutative],
    "Float multiplication."
);
binary!(
    DIVF,
    "arith.divf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [opt_attr("fastmath", FASTMATH_FLAGS)],
    [],
    "Float division."
);
binary!(
    MAXIMUMF,
    "arith.maximumf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [opt_attr("fastmath", FASTMATH_FLAGS)],
    [Trait::Commutative],
    "Float maximum; NaN if either operand is NaN."
);
binary!(
    MINIMUMF,
    "arith.minimumf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [opt_attr("fastmath", FASTMATH_FLAGS)],
    [Trait::Commutative],
    "Float minimum; NaN if either operand is NaN."
);

/// `arith.negf`.
pub const NEGF: OpDef = OpDef {
    name: "arith.negf",
    summary: "float negation",
    description: "Flips the sign of a float (also of NaN and zero).",
    operands: &[one("operand", FLOAT_LIKE)],
    results: &[one("result", FLOAT_LIKE)],
    attributes: &[opt_attr("fastmath", FASTMATH_FLAGS)],
    traits: &[Trait::Pure, Trait::SameOperandsAndResultType],
    format: Format::Declarative("$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"),
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
        opt_attr("fastmath", FASTMATH_FLAGS),
    ],
    traits: &[Trait::Pure, Trait::SameTypeOperands],
    format: Format::Declarative(
        "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)",
    ),
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
        #[doc = $doc]
        pub const $id: OpDef = OpDef {
            name: $name,
            summary: $doc,
            description: $doc,
            operands: &[one("in", $from)],
            results: &[one("out", $to)],
            traits: &[Trait::Pure],
            format: Format::Declarative(CAST_FORMAT),
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
    "Converts between index and integer types (sign-extending)."
);
cast!(
    INDEX_CASTUI,
    "arith.index_castui",
    INT_OR_INDEX,
    INT_OR_INDEX,
    "Converts between index and integer types (zero-extending)."
);
cast!(
    EXTSI,
    "arith.extsi",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Sign-extends an integer to a wider type."
);
cast!(
    EXTUI,
    "arith.extui",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Zero-extends an integer to a wider type."
);
cast!(
    TRUNCI,
    "arith.trunci",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Truncates an integer to a narrower type."
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
