//! Integer arithmetic with a second result: `addui_extended` (carry out), `mulsi_extended` and
//! `mului_extended` (the high half of the double-width product).

use super::*;
use tilus_ir::handle::prelude::*;

/// `arith.addui_extended`.
pub static ADDUI_EXTENDED: OpDef = OpDef {
    name: "arith.addui_extended",
    summary: "Unsigned integer addition with a carry-out bit.",
    description: "Adds two integers modulo 2^N (`sum`) and says whether the unsigned addition \
        overflowed (`overflow`, an `i1`, or `i1` elements of the same shape for vectors and \
        tensors). Written `%s, %o = arith.addui_extended %a, %b : i32, i1`.",
    operands: &[one("lhs", SIGNLESS_INT_LIKE), one("rhs", SIGNLESS_INT_LIKE)],
    results: &[one("sum", SIGNLESS_INT_LIKE), one("overflow", BOOL_LIKE)],
    traits: &[
        Trait::Pure,
        Trait::PerThread,
        Trait::Commutative,
        Trait::AllTypesMatch(&["lhs", "rhs", "sum"]),
    ],
    verify: Some(verify_addui_extended),
    format: Format::Declarative("$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)"),
    ..OpDef::DEFAULT
};
const _: () = ADDUI_EXTENDED.check();

tilus_ir::op_handle! {
    /// Typed handle of `arith.addui_extended`.
    pub struct AddUIExtendedOp = ADDUI_EXTENDED;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        sum = "sum": Value,
        overflow = "overflow": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// The overflow bit has the shape of the sum, with `i1` elements (MLIR's `getI1SameShape`).
fn verify_addui_extended(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let res = ctx.results(op);
    let (sum, overflow) = (ctx.value_type(res[0]), ctx.value_type(res[1]));
    if !helpers::is_i1_same_shape(ctx, overflow, sum) {
        return Err(Diagnostic::op(
            op,
            format!(
                "'arith.addui_extended' op failed to verify that overflow type matches the sum \
                 type: expected an i1 of the shape of '{}', found '{}'",
                type_to_string(ctx, sum),
                type_to_string(ctx, overflow)
            ),
        ));
    }
    Ok(())
}

/// `arith.mulsi_extended`.
pub static MULSI_EXTENDED: OpDef = OpDef {
    name: "arith.mulsi_extended",
    summary: "Signed integer multiplication giving both halves of the double-width product.",
    description: "Signed integer multiplication giving both halves of the double-width product. `low` is the product modulo 2^N, `high` the bits above. Written \
        `%lo, %hi = arith.mulsi_extended %a, %b : i32`.",
    operands: &[one("lhs", SIGNLESS_INT_LIKE), one("rhs", SIGNLESS_INT_LIKE)],
    results: &[one("low", SIGNLESS_INT_LIKE), one("high", SIGNLESS_INT_LIKE)],
    traits: &[
        Trait::Pure,
        Trait::PerThread,
        Trait::Commutative,
        Trait::AllTypesMatch(&["lhs", "rhs", "low", "high"]),
    ],
    format: Format::Declarative("$lhs `,` $rhs attr-dict `:` type($lhs)"),
    ..OpDef::DEFAULT
};
const _: () = MULSI_EXTENDED.check();

tilus_ir::op_handle! {
    /// Typed handle of `arith.mulsi_extended`.
    pub struct MulSIExtendedOp = MULSI_EXTENDED;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        low = "low": Value,
        high = "high": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `arith.mului_extended`.
pub static MULUI_EXTENDED: OpDef = OpDef {
    name: "arith.mului_extended",
    summary: "Unsigned integer multiplication giving both halves of the double-width product.",
    description: "Unsigned integer multiplication giving both halves of the double-width product. `low` is the product modulo 2^N, `high` the bits above. Written \
        `%lo, %hi = arith.mului_extended %a, %b : i32`.",
    operands: &[one("lhs", SIGNLESS_INT_LIKE), one("rhs", SIGNLESS_INT_LIKE)],
    results: &[one("low", SIGNLESS_INT_LIKE), one("high", SIGNLESS_INT_LIKE)],
    traits: &[
        Trait::Pure,
        Trait::PerThread,
        Trait::Commutative,
        Trait::AllTypesMatch(&["lhs", "rhs", "low", "high"]),
    ],
    format: Format::Declarative("$lhs `,` $rhs attr-dict `:` type($lhs)"),
    ..OpDef::DEFAULT
};
const _: () = MULUI_EXTENDED.check();

tilus_ir::op_handle! {
    /// Typed handle of `arith.mului_extended`.
    pub struct MulUIExtendedOp = MULUI_EXTENDED;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        low = "low": Value,
        high = "high": Value
    }
    attrs {}
    regions {}
    successors {}
}
