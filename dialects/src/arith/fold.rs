//! The folders, one per op, following MLIR's `fold` methods case by case (scalars; splat and
//! dense operands are left alone).

use super::cast::IntCast;
use super::cmp::CMPI_PREDICATES;
use super::cmp::{CmpFPredicate, CmpIPredicate};
use super::float::{ieee_format, is_nan_bits, negf_bits, sign_bit, FloatBinOp};
use super::helpers::*;
use super::int::IntBinOp;
use tilus_ir::float::to_f64;
use tilus_ir::handle::KeywordEnum;
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
    int_binary(ctx, op, c, |a, b, w| IntBinOp::AddI.eval(a, b, w).ok())
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
    int_binary(ctx, op, c, |a, b, w| IntBinOp::SubI.eval(a, b, w).ok())
}

/// `muli(x, 0) → 0` (the zero operand), `muli(x, 1) → x`, constants.
pub fn muli(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    if is_zero(ctx, c[1]) {
        return rhs(ctx, op);
    }
    if is_one(ctx, c[1]) {
        return lhs(ctx, op);
    }
    int_binary(ctx, op, c, |a, b, w| IntBinOp::MulI.eval(a, b, w).ok())
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
    int_binary(ctx, op, c, |a, b, w| IntBinOp::DivUI.eval(a, b, w).ok())
}

/// `divsi(x, 1) → x`, `(a*b)/b → a` (nsw), constants (not by zero, not `MIN / -1`).
pub fn divsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    if is_one(ctx, c[1]) {
        return lhs(ctx, op);
    }
    if let Some(f) = div_of_mul(ctx, op, 1) {
        return f;
    }
    int_binary(ctx, op, c, |a, b, w| IntBinOp::DivSI.eval(a, b, w).ok())
}

/// `remui(x, 1) → 0`, constants (not by zero).
pub fn remui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    if is_one(ctx, c[1]) {
        return zero(ctx, op);
    }
    int_binary(ctx, op, c, |a, b, w| IntBinOp::RemUI.eval(a, b, w).ok())
}

/// `remsi(x, 1) → 0`, constants (not by zero; the result has the dividend's sign).
pub fn remsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    if is_one(ctx, c[1]) {
        return zero(ctx, op);
    }
    int_binary(ctx, op, c, |a, b, w| IntBinOp::RemSI.eval(a, b, w).ok())
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
    let f = int_binary(ctx, op, c, |a, b, w| IntBinOp::AndI.eval(a, b, w).ok());
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
    let f = int_binary(ctx, op, c, |a, b, w| IntBinOp::OrI.eval(a, b, w).ok());
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
    int_binary(ctx, op, c, |a, b, w| IntBinOp::XOrI.eval(a, b, w).ok())
}

fn shift(ctx: &mut Context, op: OpId, c: Consts, kind: IntBinOp) -> Folded {
    if is_zero(ctx, c[1]) {
        return lhs(ctx, op);
    }
    int_binary(ctx, op, c, |a, b, w| kind.eval(a, b, w).ok())
}

/// `shli(x, 0) → x`, constants (shifts by the width or more are poison: not folded).
pub fn shli(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    shift(ctx, op, c, IntBinOp::ShLI)
}
/// `shrui(x, 0) → x`, constants.
pub fn shrui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    shift(ctx, op, c, IntBinOp::ShRUI)
}
/// `shrsi(x, 0) → x`, constants.
pub fn shrsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    shift(ctx, op, c, IntBinOp::ShRSI)
}

/// Min/max: `op(x, x) → x`, the absorbing bound → it, the neutral bound → x, constants.
fn minmax(
    ctx: &mut Context,
    op: OpId,
    c: Consts,
    absorbing: fn(u32) -> u128,
    neutral: fn(u32) -> u128,
    kind: IntBinOp,
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
    int_binary(ctx, op, c, |a, b, w| kind.eval(a, b, w).ok())
}
fn smax_v(w: u32) -> u128 {
    ones(w) >> 1
}
fn smin_v(w: u32) -> u128 {
    1u128 << (w - 1)
}
/// `maxsi`.
pub fn maxsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    minmax(ctx, op, c, smax_v, smin_v, IntBinOp::MaxSI)
}
/// `minsi`.
pub fn minsi(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    minmax(ctx, op, c, smin_v, smax_v, IntBinOp::MinSI)
}
/// `maxui`.
pub fn maxui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    minmax(ctx, op, c, ones, |_| 0, IntBinOp::MaxUI)
}
/// `minui`.
pub fn minui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    minmax(ctx, op, c, |_| 0, ones, IntBinOp::MinUI)
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
    CmpIPredicate::from_index(pred_index(pred) as i64).is_some_and(|p| p.eval(a, b, w))
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
fn sext_to(a: u128, w: u32, to: u32) -> u128 {
    IntCast::Signed.eval(a, w, to)
}
fn zext_to(a: u128, w: u32, to: u32) -> u128 {
    IntCast::Unsigned.eval(a, w, to)
}

/// `index_cast` of a constant: sign-extended or truncated.
pub fn index_cast(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    cast_const(ctx, op, c, sext_to)
}
/// `index_castui` of a constant: zero-extended or truncated.
pub fn index_castui(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    cast_const(ctx, op, c, zext_to)
}

/// `bitcast(bitcast(x))` reads `x` directly (and is `x` when the types match), and a scalar
/// constant is reinterpreted: MLIR's `BitcastOp::fold` and its bitcast-of-bitcast pattern.
/// (Shaped constants are left to the lowering: a float splat is kept as text.)
pub fn bitcast(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    let rty = result_type(ctx, op);
    if let Some(inner) = def_named(ctx, operand(ctx, op, 0), "arith.bitcast") {
        let src = operand(ctx, inner, 0);
        if ctx.value_type(src) == rty {
            return Folded::value(src);
        }
        ctx.set_operand(op, 0, src);
        return Folded::InPlace;
    }
    let Some(a) = c[0] else {
        return Folded::Failed;
    };
    let bits = int_bits(ctx, a)
        .map(|(b, _)| b)
        .or_else(|| float_bits(ctx, a).map(|(_, b)| b));
    let Some(bits) = bits else {
        return Folded::Failed;
    };
    match ctx.type_kind(rty) {
        tilus_ir::TypeKind::Integer { .. } => Folded::attr(int_attr(ctx, rty, bits)),
        tilus_ir::TypeKind::Float(_) => Folded::attr(float_attr(ctx, rty, bits)),
        _ => Folded::Failed,
    }
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
    let ext = def_named(ctx, input, "arith.extui").or_else(|| def_named(ctx, input, "arith.extsi"));
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
    cast_const(ctx, op, c, zext_to)
}

// ----- floats ---------------------------------------------------------------------------

fn ieee(k: FloatKind) -> Option<(u32, u32)> {
    ieee_format(k)
}
fn is_nan(k: FloatKind, bits: u128) -> bool {
    is_nan_bits(k, bits)
}

/// Two float constants of one IEEE format, evaluated by the one semantics ([`FloatBinOp`]).
fn float_binary(ctx: &mut Context, op: OpId, c: Consts, o: FloatBinOp) -> Folded {
    let (Some(a), Some(b)) = (c[0], c[1]) else {
        return Folded::Failed;
    };
    let (Some((k, x)), Some((k2, y))) = (float_bits(ctx, a), float_bits(ctx, b)) else {
        return Folded::Failed;
    };
    if k != k2 {
        return Folded::Failed;
    }
    let Some(bits) = o.eval(k, x, y) else {
        return Folded::Failed;
    };
    let ty = result_type(ctx, op);
    Folded::attr(float_attr(ctx, ty, bits))
}

/// The float constant `a` as (format, bits), IEEE formats only.
fn fconst(ctx: &Context, a: Option<Attr>) -> Option<(FloatKind, u128)> {
    float_bits(ctx, a?).filter(|(k, _)| ieee(*k).is_some())
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
    float_binary(ctx, op, c, FloatBinOp::AddF)
}
/// `subf(x, +0) → x`, constants.
pub fn subf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    if is_pos_zero(ctx, c[1]) {
        return lhs(ctx, op);
    }
    float_binary(ctx, op, c, FloatBinOp::SubF)
}
/// `mulf(x, 1) → x`, `mulf(x, ±0) → ±0` with `nnan` and `nsz`, constants.
pub fn mulf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    if is_float_one(ctx, c[1]) {
        return lhs(ctx, op);
    }
    if fastmath_has(ctx, op, &["nnan", "nsz"]) && (is_pos_zero(ctx, c[1]) || is_neg_zero(ctx, c[1]))
    {
        return rhs(ctx, op);
    }
    float_binary(ctx, op, c, FloatBinOp::MulF)
}
/// `divf(x, 1) → x`, constants.
pub fn divf(ctx: &mut Context, op: OpId, c: Consts) -> Folded {
    if is_float_one(ctx, c[1]) {
        return lhs(ctx, op);
    }
    float_binary(ctx, op, c, FloatBinOp::DivF)
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
    let o = if max {
        FloatBinOp::MaximumF
    } else {
        FloatBinOp::MinimumF
    };
    let Some(bits) = o.eval(k, x, y) else {
        return Folded::Failed;
    };
    let ty = result_type(ctx, op);
    Folded::attr(float_attr(ctx, ty, bits))
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
    attr_or_failed(negf_bits(k, b).map(|r| float_attr(ctx, ty, r)))
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
    let Some(pred) = CmpFPredicate::from_index(pred as i64) else {
        return Folded::Failed;
    };
    let v = pred.eval(to_f64(k, x), to_f64(k, y));
    Folded::attr(bool_attr(ctx, v))
}
