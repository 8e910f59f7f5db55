//! `arith.constant`, its result names, verifier and the dialect's constant materializer.

use super::*;
use tilus_ir::attrs::{DenseData, DenseLit};
use tilus_ir::handle::prelude::*;

/// `arith.constant`.
pub static CONSTANT: OpDef = OpDef {
    name: "arith.constant",
    summary: "a constant integer, float or dense value",
    description: "Materializes the typed attribute `value` as an SSA value of the same type, e.g. \
        `%c = arith.constant 42 : i32` or `arith.constant dense<0.0> : vector<4xf32>`.",
    results: &[one("result", tilus_ir::opdef::ANY_TYPE)],
    attributes: &[attr("value", TYPED_ATTR)],
    traits: &[Trait::Pure, Trait::ConstantLike, Trait::PerThread],
    verify: Some(verify_constant),
    format: Format::Declarative("attr-dict $value"),
    result_name: Some(constant_name),
    materialize_constant: Some(materialize_constant),
    ..OpDef::DEFAULT
};
const _: () = CONSTANT.check();

tilus_ir::op_handle! {
    /// Typed handle of `arith.constant`.
    pub struct ConstantOp = CONSTANT;
    operands {}
    results {
        result = "result": Value
    }
    attrs {
        value = "value": Attr
    }
    regions {}
    successors {}
}

/// MLIR's names for constants: `%c42_i32`, `%c4` (index), `%true`/`%false`, else `%cst`.
fn constant_name(ctx: &Context, op: OpId) -> Option<String> {
    let v = ctx.get_prop(op, "value")?;
    match ctx.attr_kind(v) {
        AttrKind::Integer { value, ty } => match ctx.type_kind(*ty) {
            TypeKind::Index => Some(format!("c{value}")),
            TypeKind::Integer { width: 1, .. } => Some(if value.bits() == 0 {
                "false".into()
            } else {
                "true".into()
            }),
            _ => Some(format!("c{value}_{}", type_to_string(ctx, *ty))),
        },
        _ => Some("cst".into()),
    }
}

fn verify_constant(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let v = ctx.get_prop(op, "value").unwrap();
    let vt = typed_attr_type(ctx, v).unwrap();
    let rt = ctx.value_type(ctx.results(op)[0]);
    if matches!(ctx.type_kind(rt), TypeKind::Integer { signedness, .. } if *signedness != Signedness::Signless)
    {
        return Err(Diagnostic::op(
            op,
            "'arith.constant' op integer return type must be signless",
        )
        .with_help(
            "use a signless type (`i32`); `arith` ops read the sign from the op, not the type",
        ));
    }
    if !matches!(
        ctx.attr_kind(v),
        AttrKind::Bool(_)
            | AttrKind::Integer { .. }
            | AttrKind::Float { .. }
            | AttrKind::DenseElements { .. }
            | AttrKind::Sparse { .. }
            | AttrKind::DenseResource { .. }
    ) {
        return Err(Diagnostic::op(
            op,
            "'arith.constant' op value must be an integer, float, or elements attribute",
        ));
    }
    if let (TypeKind::Vector { scalable, .. }, AttrKind::DenseElements { data, .. }) =
        (ctx.type_kind(rt), ctx.attr_kind(v))
    {
        if scalable.iter().any(|s| *s) && !dense_is_splat(data) {
            return Err(Diagnostic::op(
                op,
                "'arith.constant' op intializing scalable vectors with elements attribute is not supported unless it's a vector splat",
            ));
        }
    }
    if vt != rt {
        return Err(Diagnostic::op(
            op,
            format!(
                "'arith.constant' op value type '{}' must match result type '{}'",
                type_to_string(ctx, vt),
                type_to_string(ctx, rt)
            ),
        ));
    }
    Ok(())
}

/// Whether a dense literal holds one value for every element (MLIR's `SplatElementsAttr`, which
/// `DenseElementsAttr::get` also detects in a list of equal elements).
fn dense_is_splat(data: &DenseData) -> bool {
    fn leaves<'a>(l: &'a DenseLit, out: &mut Vec<&'a DenseLit>) {
        match l {
            DenseLit::List(xs) => xs.iter().for_each(|x| leaves(x, out)),
            _ => out.push(l),
        }
    }
    let same = |a: &DenseLit, b: &DenseLit| match (a, b) {
        (DenseLit::Scalar(x), DenseLit::Scalar(y)) => {
            x == y || matches!((x.parse::<f64>(), y.parse::<f64>()), (Ok(p), Ok(q)) if p == q)
        }
        _ => a == b,
    };
    match data {
        DenseData::Literal(l) => {
            let mut xs = Vec::new();
            leaves(l, &mut xs);
            xs.windows(2).all(|w| same(w[0], w[1]))
        }
        DenseData::Hex(_) | DenseData::Empty => true,
    }
}

/// Builds `arith.constant` for a folded value, as MLIR's `ArithDialect::materializeConstant`
/// does: the attribute's type must be the requested type, integers must be signless, and the
/// value an integer, float or dense elements attribute.
fn materialize_constant(rw: &mut Rewriter<'_>, value: Attr, ty: Type, loc: Attr) -> Option<OpId> {
    let ctx = rw.ctx();
    if typed_attr_type(ctx, value) != Some(ty) {
        return None;
    }
    let elem = helpers::elem_type(ctx, ty);
    if matches!(ctx.type_kind(elem), TypeKind::Integer { signedness, .. } if *signedness != Signedness::Signless)
    {
        return None;
    }
    if !matches!(
        ctx.attr_kind(value),
        AttrKind::Integer { .. } | AttrKind::Float { .. } | AttrKind::DenseElements { .. }
    ) {
        return None;
    }
    Some(rw.build(
        "arith.constant",
        vec![],
        vec![ty],
        vec![("value".into(), value)],
        loc,
    ))
}
