//! Float arithmetic: `addf` … `minimumf`, `negf`.

use super::*;

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
pub static NEGF: OpDef = OpDef {
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
