//! Shared matchers and builders of the folders and patterns.

use tilus_ir::attrs::{DenseData, DenseLit};
use tilus_ir::rewrite::{constant_of, int_attr, int_bits, zero_attr, Rewriter};
use tilus_ir::types::{Signedness, DYNAMIC};
use tilus_ir::{Attr, AttrKind, Context, OpId, Type, TypeKind, Value};

/// The element type of a vector or tensor, else the type itself.
pub fn elem_type(ctx: &Context, t: Type) -> Type {
    match ctx.type_kind(t) {
        TypeKind::Vector { elem, .. }
        | TypeKind::RankedTensor { elem, .. }
        | TypeKind::UnrankedTensor { elem } => *elem,
        _ => t,
    }
}

/// The container of a value of type `t`: 0 scalar, 1 vector, 2 tensor; the shape (`None` for
/// a scalar or an unranked tensor); and the element type. Conversions and comparisons keep
/// the container and shape and change only the element.
pub fn container(ctx: &Context, t: Type) -> (u8, Option<Vec<i64>>, Type) {
    match ctx.type_kind(t) {
        TypeKind::Vector { shape, elem, .. } => (1, Some(shape.clone()), *elem),
        TypeKind::RankedTensor { shape, elem, .. } => (2, Some(shape.clone()), *elem),
        TypeKind::UnrankedTensor { elem } => (2, None, *elem),
        _ => (0, None, t),
    }
}

/// Whether `t` is `i1` (or shaped `i1`).
pub fn is_i1_like(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.type_kind(elem_type(ctx, t)),
        TypeKind::Integer { width: 1, .. }
    )
}

/// Whether `t` is the scalar signless `i1`.
pub fn is_signless_i1(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.type_kind(t),
        TypeKind::Integer {
            width: 1,
            signedness: Signedness::Signless
        }
    )
}

/// Whether `b` is `i1`, or `i1` elements in the shape (and encoding) of `like` (MLIR's
/// `getI1SameShape`: same kind, dims, scalable dims and tensor encoding).
pub fn is_i1_same_shape(ctx: &Context, b: Type, like: Type) -> bool {
    let is_i1 = |t: Type| is_signless_i1(ctx, t);
    match (ctx.type_kind(like), ctx.type_kind(b)) {
        (
            TypeKind::Vector {
                shape, scalable, ..
            },
            TypeKind::Vector {
                shape: s2,
                scalable: c2,
                elem,
            },
        ) => shape == s2 && scalable == c2 && is_i1(*elem),
        (
            TypeKind::RankedTensor {
                shape, encoding, ..
            },
            TypeKind::RankedTensor {
                shape: s2,
                encoding: e2,
                elem,
            },
        ) => shape == s2 && encoding == e2 && is_i1(*elem),
        (TypeKind::UnrankedTensor { .. }, TypeKind::UnrankedTensor { elem }) => is_i1(*elem),
        (
            TypeKind::Vector { .. }
            | TypeKind::RankedTensor { .. }
            | TypeKind::UnrankedTensor { .. },
            _,
        ) => false,
        _ => is_i1(b),
    }
}

/// Operand `i` of `op`.
pub fn operand(ctx: &Context, op: OpId, i: usize) -> Value {
    ctx.operands(op)[i]
}

/// The type of `op`'s first result.
pub fn result_type(ctx: &Context, op: OpId) -> Type {
    ctx.value_type(ctx.results(op)[0])
}

/// The op named `name` defining `v`.
pub fn def_named(ctx: &Context, v: Value, name: &str) -> Option<OpId> {
    ctx.defining_op(v).filter(|d| ctx.op_name_str(*d) == name)
}

/// An integer constant or a splat of one, as bits and element width: MLIR's
/// `m_ConstantInt`, which folders use (canonicalization patterns match scalars only).
pub fn int_or_splat(ctx: &Context, a: Option<Attr>) -> Option<(u128, u32)> {
    let a = a?;
    if let Some(r) = int_bits(ctx, a) {
        return Some(r);
    }
    let AttrKind::DenseElements {
        data: DenseData::Literal(DenseLit::Scalar(text)),
        ty,
    } = ctx.attr_kind(a)
    else {
        return None;
    };
    let w = tilus_ir::rewrite::int_width(ctx, elem_type(ctx, *ty))?;
    if w == 0 || w > 128 {
        return None;
    }
    let t = text.as_str();
    let bits = match t {
        "true" => 1,
        "false" => 0,
        _ if t.starts_with("0x") || t.starts_with("0X") => {
            u128::from_str_radix(&t[2..], 16).ok()?
        }
        _ if t.starts_with('-') => t.parse::<i128>().ok()? as u128,
        _ => t.parse::<u128>().ok()?,
    };
    Some((bits & ones(w), w))
}

/// An integer attribute of type `ty`, or a splat of it when `ty` is a statically shaped
/// vector or tensor (printed as MLIR prints splats: signed decimal, `true`/`false` for i1).
pub fn int_like_attr(ctx: &mut Context, ty: Type, bits: u128) -> Option<Attr> {
    match ctx.type_kind(ty).clone() {
        TypeKind::Vector { shape, .. } | TypeKind::RankedTensor { shape, .. } => {
            if shape.contains(&DYNAMIC) {
                return None;
            }
            let w = tilus_ir::rewrite::int_width(ctx, elem_type(ctx, ty))?;
            let bits = bits & ones(w);
            let text = if w == 1 {
                if bits == 1 {
                    "true".to_string()
                } else {
                    "false".to_string()
                }
            } else {
                sext(bits, w).to_string()
            };
            Some(ctx.attr(AttrKind::DenseElements {
                data: DenseData::Literal(DenseLit::Scalar(text)),
                ty,
            }))
        }
        TypeKind::Integer { .. } | TypeKind::Index => Some(int_attr(ctx, ty, bits)),
        _ => None,
    }
}

/// The scalar integer constant `v` holds.
pub fn int_const_of(ctx: &Context, v: Value) -> Option<(u128, u32)> {
    int_bits(ctx, constant_of(ctx, v)?)
}

/// The integer semantics' bit helpers (one definition, in `int.rs`).
pub use super::int::{mask as ones, sext};

/// A constant zero (or splat zero of a statically shaped vector/tensor), as MLIR's
/// `Builder::getZeroAttr` builds it; `None` for dynamic shapes.
pub fn zero_like(ctx: &mut Context, t: Type) -> Option<Attr> {
    splat_like(ctx, t, "0", false)
}

/// `true`/`false` of type `t` (`i1`, or a splat for statically shaped `i1`s).
pub fn bool_like(ctx: &mut Context, t: Type, b: bool) -> Option<Attr> {
    splat_like(ctx, t, if b { "true" } else { "false" }, b)
}

fn splat_like(ctx: &mut Context, t: Type, text: &str, b: bool) -> Option<Attr> {
    match ctx.type_kind(t).clone() {
        TypeKind::Vector { shape, .. } | TypeKind::RankedTensor { shape, .. } => {
            if shape.contains(&DYNAMIC) {
                return None;
            }
            let is_float = matches!(ctx.type_kind(elem_type(ctx, t)), TypeKind::Float(_));
            let text = if is_float { "0.000000e+00" } else { text };
            Some(ctx.attr(AttrKind::DenseElements {
                data: DenseData::Literal(DenseLit::Scalar(text.to_string())),
                ty: t,
            }))
        }
        TypeKind::Integer { .. } | TypeKind::Index => Some(int_attr(ctx, t, b as u128)),
        _ => zero_attr(ctx, t),
    }
}

/// The `#arith.overflow` flags of an op: bit 0 `nsw`, bit 1 `nuw`.
pub fn overflow_flags(ctx: &Context, op: OpId) -> u8 {
    ctx.get_inherent_or_attr(op, "overflowFlags")
        .and_then(|a| crate::arith_attrs::OverflowFlags::of(ctx, a))
        .map_or(0, |f| f.bits())
}

/// The `overflowFlags` property for flags (none when no flag is set, as the parser leaves
/// it out).
pub fn overflow_prop(ctx: &mut Context, flags: u8) -> Vec<(String, Attr)> {
    if flags & 3 == 0 {
        return vec![];
    }
    let a = crate::arith_attrs::OverflowFlags::from_bits(flags).get(ctx);
    vec![("overflowFlags".into(), a)]
}

/// The fastmath flags of an op as words (`fast` means all of them).
pub fn fastmath_has(ctx: &Context, op: OpId, flags: &[&str]) -> bool {
    use crate::arith_attrs::FastMathFlags;
    let Some(set) = ctx
        .get_inherent_or_attr(op, "fastmath")
        .and_then(|a| FastMathFlags::of(ctx, a))
    else {
        return false;
    };
    flags
        .iter()
        .all(|f| FastMathFlags::from_word(f).is_some_and(|w| set.contains(w)))
}

/// Creates `arith.constant value` of `value`'s type.
pub fn constant(rw: &mut Rewriter<'_>, ty: Type, value: Attr, loc: Attr) -> Value {
    let op = rw.build(
        "arith.constant",
        vec![],
        vec![ty],
        vec![("value".into(), value)],
        loc,
    );
    rw.ctx().results(op)[0]
}

/// Creates an integer constant of type `ty`.
pub fn int_constant(rw: &mut Rewriter<'_>, ty: Type, bits: u128, loc: Attr) -> Value {
    let a = int_attr(rw.ctx_mut(), ty, bits);
    constant(rw, ty, a, loc)
}

/// Creates a one-result op.
pub fn op1(
    rw: &mut Rewriter<'_>,
    name: &str,
    operands: Vec<Value>,
    ty: Type,
    props: Vec<(String, Attr)>,
    loc: Attr,
) -> Value {
    let op = rw.build(name, operands, vec![ty], props, loc);
    rw.ctx().results(op)[0]
}
