//! The canonicalization patterns of MLIR's arith dialect (`ArithCanonicalization.td` and the
//! hand-written ones), each doc line giving the rewrite. Benefits follow DRR's rule: the number
//! of ops the pattern matches.

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
    &[Pattern::new("mulf-of-negf", |rw, op| float_of_negf(rw, op, "arith.mulf")).with_benefit(3)];
pub const DIVF: &[Pattern] =
    &[Pattern::new("divf-of-negf", |rw, op| float_of_negf(rw, op, "arith.divf")).with_benefit(3)];

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
        let Some(inner) = def_named(ctx, operand(ctx, op, 1 - self.root_const), self.inner) else {
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
