//! `cf`: unstructured control flow between blocks of a region.

use tilus_ir::opdef::{many, one, succ, Format, OpDef, Trait, ANY_TYPE, I1};

/// `cf.br`.
pub const BR: OpDef = OpDef {
    name: "cf.br",
    summary: "unconditional branch",
    description: "Jumps to `dest`, passing `destOperands` as its block arguments; their number \
        and types must match the target block's arguments.",
    operands: &[many("destOperands", ANY_TYPE)],
    successors: &[succ("dest", "destOperands")],
    traits: &[Trait::Pure, Trait::Terminator],
    format: Format::Declarative(
        "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
    ),
    ..OpDef::DEFAULT
};
const _: () = BR.check();

/// `cf.cond_br`.
pub const COND_BR: OpDef = OpDef {
    name: "cf.cond_br",
    summary: "conditional branch",
    description: "Jumps to `trueDest` when `condition` is true, else to `falseDest`, each with \
        its own block arguments.",
    operands: &[
        one("condition", I1),
        many("trueDestOperands", ANY_TYPE),
        many("falseDestOperands", ANY_TYPE),
    ],
    successors: &[
        succ("trueDest", "trueDestOperands"),
        succ("falseDest", "falseDestOperands"),
    ],
    traits: &[
        Trait::Pure,
        Trait::Terminator,
        Trait::AttrSizedOperandSegments,
    ],
    format: Format::Declarative(
        "$condition `,` $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` \
         $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
    ),
    ..OpDef::DEFAULT
};
const _: () = COND_BR.check();

/// The cf dialect's ops.
pub static OPS: &[&OpDef] = &[&BR, &COND_BR];
