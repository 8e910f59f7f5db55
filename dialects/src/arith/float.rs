//! Float arithmetic: `addf` … `minimumf`, `negf`.

use super::*;
use tilus_ir::handle::prelude::*;

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

tilus_ir::op_handle! {
    /// Typed handle of `arith.addf`.
    pub struct AddFOp = ADDF;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.subf`.
    pub struct SubFOp = SUBF;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.mulf`.
    pub struct MulFOp = MULF;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.divf`.
    pub struct DivFOp = DIVF;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.maximumf`.
    pub struct MaximumFOp = MAXIMUMF;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}
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

tilus_ir::op_handle! {
    /// Typed handle of `arith.minimumf`.
    pub struct MinimumFOp = MINIMUMF;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}

/// `arith.negf`.
pub static NEGF: OpDef = OpDef {
    name: "arith.negf",
    summary: "float negation",
    description: "Flips the sign of a float (also of NaN and zero).",
    operands: &[one("operand", FLOAT_LIKE)],
    results: &[one("result", FLOAT_LIKE)],
    attributes: &[FASTMATH_ATTR],
    traits: &[
        Trait::Pure,
        Trait::SameOperandsAndResultType,
        Trait::PerThread,
    ],
    format: Format::Declarative("$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"),
    fold: Some(fold::negf),
    ..OpDef::DEFAULT
};
const _: () = NEGF.check();

tilus_ir::op_handle! {
    /// Typed handle of `arith.negf`.
    pub struct NegFOp = NEGF;
    operands {
        operand = "operand": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}
