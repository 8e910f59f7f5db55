//! Folding ([`fold_op`]), the trivially-dead tests, and helpers for the constant values
//! folders compute with (integer and float bits, zero and bool attributes, fused locations).

use super::{Folded, OpFoldResult};
use crate::attrs::{Attr, AttrKind, Location};
use crate::context::{Context, OpId, Value};
use crate::opdef::Trait;
use crate::types::{FloatKind, Signedness, Type, TypeKind};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The value of a `ConstantLike` op (its `value` property), e.g. `42 : i32`.
pub fn constant_value(ctx: &Context, op: OpId) -> Option<Attr> {
    let def = ctx.op_def(op)?;
    if !def.has(Trait::ConstantLike) {
        return None;
    }
    ctx.get_inherent_or_attr(op, "value")
}

/// The constant a value holds, when a `ConstantLike` op defines it (MLIR's `m_Constant`).
pub fn constant_of(ctx: &Context, v: Value) -> Option<Attr> {
    constant_value(ctx, ctx.defining_op(v)?)
}

/// Folds `op` once: its declared folder, then trait folds. For `Commutative` ops, constant
/// operands move to the end, as MLIR's trait folder does, so patterns only need to match
/// constants on the right. A result that is the op's own value counts as an in-place fold.
pub fn fold_op(ctx: &mut Context, op: OpId) -> Folded {
    let Some(def) = ctx.op_def(op) else {
        return Folded::Failed;
    };
    if def.fold.is_none() && !def.has(Trait::Commutative) {
        return Folded::Failed;
    }
    // Constant operands, on the stack for the usual few operands.
    let n = ctx.operands(op).len();
    let mut small = [None; 4];
    let mut big = Vec::new();
    let consts: &mut [Option<Attr>] = if n <= small.len() {
        &mut small[..n]
    } else {
        big.resize(n, None);
        &mut big
    };
    for (c, v) in consts.iter_mut().zip(ctx.operands(op)) {
        *c = constant_of(ctx, *v);
    }
    let consts: &[Option<Attr>] = consts;
    let mut in_place = false;
    if let Some(f) = def.fold {
        match f(ctx, op, consts) {
            Folded::Failed => {}
            Folded::InPlace => in_place = true,
            Folded::Results(rs) => {
                let own = ctx.results(op);
                let is_self =
                    rs.len() == 1 && own.len() == 1 && rs[0] == OpFoldResult::Value(own[0]);
                if !is_self {
                    return Folded::Results(rs);
                }
                in_place = true;
            }
        }
    }
    if def.has(Trait::Commutative) && move_constants_right(ctx, op, consts) {
        return Folded::InPlace;
    }
    if in_place {
        Folded::InPlace
    } else {
        Folded::Failed
    }
}

/// A stable partition of the operands: non-constants first. Returns whether anything moved.
fn move_constants_right(ctx: &mut Context, op: OpId, consts: &[Option<Attr>]) -> bool {
    if consts.len() < 2 {
        return false;
    }
    let Some(first_const) = consts.iter().position(Option::is_some) else {
        return false;
    };
    if consts[first_const..].iter().all(Option::is_some) {
        return false;
    }
    let ops = ctx.operands(op).to_vec();
    let mut order: Vec<Value> = Vec::with_capacity(ops.len());
    order.extend(
        ops.iter()
            .zip(consts)
            .filter(|(_, c)| c.is_none())
            .map(|(v, _)| *v),
    );
    order.extend(
        ops.iter()
            .zip(consts)
            .filter(|(_, c)| c.is_some())
            .map(|(v, _)| *v),
    );
    for (i, v) in order.into_iter().enumerate() {
        if ctx.operands(op)[i] != v {
            ctx.set_operand(op, i, v);
        }
    }
    true
}

/// Whether `op` could be erased if its results were unused: it is registered, has no side
/// effects (see [`is_effect_free`]), and is neither a terminator nor a symbol. Unregistered ops
/// may have side effects, so never.
pub fn would_be_trivially_dead(ctx: &Context, op: OpId) -> bool {
    let Some(def) = ctx.op_def(op) else {
        return false;
    };
    !def.has(Trait::Terminator) && !def.has(Trait::Symbol) && is_effect_free(ctx, op)
}

/// Whether `op` has no side effects: it is `Pure`, or it has `RecursiveMemoryEffects` and
/// everything nested in it is effect-free (MLIR's `isMemoryEffectFree`).
pub fn is_effect_free(ctx: &Context, op: OpId) -> bool {
    let Some(def) = ctx.op_def(op) else {
        return false;
    };
    if def.has(Trait::Pure) {
        return true;
    }
    if !def.has(Trait::RecursiveMemoryEffects) {
        return false;
    }
    ctx.regions(op).iter().all(|&r| {
        ctx.region_blocks(r)
            .iter()
            .all(|&b| ctx.block_ops(b).all(|o| is_effect_free(ctx, o)))
    })
}

/// Whether `op` has no used results and [`would_be_trivially_dead`].
pub fn is_trivially_dead(ctx: &Context, op: OpId) -> bool {
    ctx.results(op).iter().all(|r| ctx.uses(*r).is_empty()) && would_be_trivially_dead(ctx, op)
}

/// The bit width of an integer-like type: `iN` → N, `index` → 64 (MLIR's internal width).
pub fn int_width(ctx: &Context, ty: Type) -> Option<u32> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Index => Some(64),
        _ => None,
    }
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// An integer attribute as its two's-complement bit pattern and width. Widths up to 128 only:
/// folders leave wider types alone rather than get them wrong.
pub fn int_bits(ctx: &Context, a: Attr) -> Option<(u128, u32)> {
    let AttrKind::Integer { value, ty } = ctx.attr_kind(a) else {
        return None;
    };
    let w = int_width(ctx, *ty)?;
    if w == 0 || w > 128 {
        return None;
    }
    let modulus = BigInt::one() << w;
    let r = ((value % &modulus) + &modulus) % &modulus;
    Some((r.to_u128()?, w))
}

/// An integer attribute of type `ty` from a bit pattern (masked to the width). The value is
/// normalized as the parser normalizes literals, so equal constants are the same attribute.
pub fn int_attr(ctx: &mut Context, ty: Type, bits: u128) -> Attr {
    let w = int_width(ctx, ty).expect("int_attr: not an integer type");
    let bits = bits & mask(w);
    let signed = match ctx.type_kind(ty) {
        TypeKind::Integer { signedness, .. } => *signedness != Signedness::Unsigned && w > 1,
        _ => true,
    };
    let mut value = BigInt::from(bits);
    if signed && (bits >> (w - 1)) & 1 == 1 {
        value -= BigInt::one() << w;
    }
    ctx.attr(AttrKind::Integer { value, ty })
}

/// A float attribute as its format and bit pattern.
pub fn float_bits(ctx: &Context, a: Attr) -> Option<(FloatKind, u128)> {
    let AttrKind::Float { bits, ty } = ctx.attr_kind(a) else {
        return None;
    };
    match ctx.type_kind(*ty) {
        TypeKind::Float(k) => Some((*k, *bits)),
        _ => None,
    }
}

/// A float attribute of type `ty` from a bit pattern.
pub fn float_attr(ctx: &mut Context, ty: Type, bits: u128) -> Attr {
    ctx.attr(AttrKind::Float { bits, ty })
}

/// `true`/`false` as an `i1` attribute.
pub fn bool_attr(ctx: &mut Context, b: bool) -> Attr {
    let i1 = ctx.int_type(1);
    int_attr(ctx, i1, b as u128)
}

/// Zero of a scalar integer, index or float type.
pub fn zero_attr(ctx: &mut Context, ty: Type) -> Option<Attr> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { .. } | TypeKind::Index => Some(int_attr(ctx, ty, 0)),
        TypeKind::Float(_) => Some(float_attr(ctx, ty, 0)),
        _ => None,
    }
}

/// Whether an integer attribute is signed-negative (for printing-independent checks).
pub fn int_is_negative(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if value.is_negative())
}

/// Whether an integer attribute is zero.
pub fn int_is_zero(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if value.is_zero())
}

/// `loc(fused[...])` of `locs` as MLIR's `FusedLoc::get` builds it: unknown locations dropped,
/// nested fusions flattened, duplicates removed; one location stays itself, none is unknown.
pub fn fused_loc(ctx: &mut Context, locs: &[Attr]) -> Attr {
    let mut flat: Vec<Attr> = Vec::new();
    for &l in locs {
        match ctx.attr_kind(l) {
            AttrKind::Loc(Location::Unknown) => {}
            AttrKind::Loc(Location::Fused {
                metadata: None,
                locs: inner,
            }) => {
                for x in inner.clone() {
                    if !flat.contains(&x) {
                        flat.push(x);
                    }
                }
            }
            _ => {
                if !flat.contains(&l) {
                    flat.push(l);
                }
            }
        }
    }
    match flat.len() {
        0 => ctx.unknown_loc(),
        1 => flat[0],
        _ => ctx.attr(AttrKind::Loc(Location::Fused {
            metadata: None,
            locs: flat,
        })),
    }
}
