//! The folders, one per op, following MLIR's `fold` methods case by case (scalars; splat and
//! dense operands are left alone).

use super::cmp::CMPI_PREDICATES;
use super::helpers::*;
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
    if fastmath_has(ctx, op, &["nnan", "nsz"]) && (is_pos_zero(ctx, c[1]) || is_neg_zero(ctx, c[1]))
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
