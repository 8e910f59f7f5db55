//! `cf`: unstructured control flow between blocks of a region.

use tilus_ir::attrs::AttrKind;
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::{attr, many, one, succ, Format, OpDef, Trait, ANY_TYPE, I1, STR_ATTR};
use tilus_ir::rewrite::{constant_of, successor_operands, Pattern, Rewriter};
use tilus_ir::{OpId, OperationState};

/// `cf.br`.
pub static BR: OpDef = OpDef {
    name: "cf.br",
    summary: "unconditional branch",
    description: "Jumps to `dest`, passing `destOperands` as its block arguments; their number \
        and types must match the target block's arguments.",
    operands: &[many("destOperands", ANY_TYPE)],
    successors: &[succ("dest", "destOperands")],
    traits: &[Trait::Pure, Trait::Terminator],
    canonicalize: &[Pattern::new(
        "br-merge-single-predecessor",
        br_merge_single_predecessor,
    )],
    format: Format::Declarative(
        "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
    ),
    ..OpDef::DEFAULT
};
const _: () = BR.check();

tilus_ir::op_handle! {
    /// Typed handle of `cf.br`.
    pub struct BrOp = BR;
    operands {
        dest_operands = "destOperands": &[Value]
    }
    results {}
    attrs {}
    regions {}
    successors {
        dest = "dest"
    }
}

/// `cf.cond_br`.
pub static COND_BR: OpDef = OpDef {
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
    canonicalize: &[
        Pattern::new("cond-br-constant-condition", cond_br_constant),
        Pattern::new("cond-br-same-successor", cond_br_same_successor),
    ],
    format: Format::Declarative(
        "$condition `,` $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` \
         $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
    ),
    ..OpDef::DEFAULT
};
const _: () = COND_BR.check();

tilus_ir::op_handle! {
    /// Typed handle of `cf.cond_br`.
    pub struct CondBrOp = COND_BR;
    operands {
        condition = "condition": Value,
        true_dest_operands = "trueDestOperands": &[Value],
        false_dest_operands = "falseDestOperands": &[Value]
    }
    results {}
    attrs {}
    regions {}
    successors {
        true_dest = "trueDest",
        false_dest = "falseDest"
    }
}

/// Replaces a conditional branch by an unconditional one to `dest(s)`.
fn to_br(rw: &mut Rewriter<'_>, op: OpId, s: usize) {
    let ctx = rw.ctx();
    let dest = ctx.successors(op)[s];
    let range = successor_operands(ctx, op, s).unwrap_or(0..0);
    let operands = ctx.operands(op)[range].to_vec();
    let loc = ctx.op(op).loc;
    let name = rw.ctx_mut().op_name("cf.br");
    rw.replace_op_with_new(
        op,
        OperationState::new(name, loc)
            .with_operands(operands)
            .with_successors(vec![dest]),
    );
}

/// A `cf.br` to a block it alone reaches: the block's ops move up into the branching block
/// (its arguments become the branch's operands) and the block goes away.
fn br_merge_single_predecessor(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ctx = rw.ctx();
    let dest = ctx.successors(op)[0];
    let Some(here) = ctx.op_parent_block(op) else {
        return false;
    };
    if dest == here || ctx.block_preds(dest).len() != 1 {
        return false;
    }
    let args = ctx.block_args(dest).to_vec();
    let vals = ctx.operands(op).to_vec();
    let ops: Vec<OpId> = ctx.block_ops(dest).collect();
    for (a, v) in args.into_iter().zip(vals) {
        rw.replace_all_uses_with(a, v);
    }
    let mut after = op;
    for o in ops {
        rw.move_op_after(o, after);
        after = o;
    }
    rw.erase_op(op);
    rw.erase_block(dest);
    true
}

/// `cf.cond_br` on a constant takes the branch it would always take.
fn cond_br_constant(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ctx = rw.ctx();
    let Some(a) = constant_of(ctx, ctx.operands(op)[0]) else {
        return false;
    };
    let taken = match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => *value != 0.into(),
        AttrKind::Bool(b) => *b,
        _ => return false,
    };
    to_br(rw, op, if taken { 0 } else { 1 });
    true
}

/// `cf.cond_br` whose two edges go to one block with the same arguments is a `cf.br`.
fn cond_br_same_successor(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ctx = rw.ctx();
    let succ = ctx.successors(op);
    if succ[0] != succ[1] {
        return false;
    }
    let (Some(a), Some(b)) = (
        successor_operands(ctx, op, 0),
        successor_operands(ctx, op, 1),
    ) else {
        return false;
    };
    if ctx.operands(op)[a] != ctx.operands(op)[b] {
        return false;
    }
    to_br(rw, op, 0);
    true
}

/// `cf.assert`.
pub static ASSERT: OpDef = OpDef {
    name: "cf.assert",
    summary: "abort with a message unless a condition holds",
    description: "Checks `arg` at run time; when it is false, execution stops with `msg`. \
        Written `cf.assert %ok, \"message\"`.",
    operands: &[one("arg", I1)],
    attributes: &[attr("msg", STR_ATTR)],
    format: Format::Declarative("$arg `,` $msg attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = ASSERT.check();

tilus_ir::op_handle! {
    /// Typed handle of `cf.assert`.
    pub struct AssertOp = ASSERT;
    operands {
        arg = "arg": Value
    }
    results {}
    attrs {
        msg = "msg": Attr
    }
    regions {}
    successors {}
}

/// The cf dialect's ops.
pub static OPS: &[&OpDef] = &[&BR, &COND_BR, &ASSERT];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `cf` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum CfOpKind for OPS {
        Br(BrOp),
        CondBr(CondBrOp),
        Assert(AssertOp),
    }
}
