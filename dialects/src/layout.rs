//! `layout`: changing which thread holds which element of a register tensor.
//!
//! Register layouts (`!tilus.reg<..., layout = ...>`, spec §3.1) are part of the type, so a
//! value never changes layout in place; `layout.convert` makes a copy in another layout (a
//! register shuffle, or a round trip through shared memory when data crosses warps).

use crate::threadgroup::group_of;
use crate::tilus_types::{type_str, TensorType, REG_TENSOR};
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::{one, Format, OpDef, Trait};
use tilus_ir::rewrite::Folded;
use tilus_ir::{Attr, Context, Diagnostic, OpId};

/// `layout.convert`.
pub static CONVERT: OpDef = OpDef {
    name: "layout.convert",
    summary: "copy a register tensor into another register layout",
    description: "`%y = layout.convert %x : !tilus.reg<64x16xf32, layout = A> to \
        !tilus.reg<64x16xf32, layout = B>` returns the same logical tensor distributed as `B` \
        says. Both types give a layout, have one shape and element type, and their layouts \
        spread over the same number of threads (inside a kernel, the size of the enclosing \
        group). Folds to its operand when the two types are equal, and a convert of a convert \
        converts the original value directly. Two layouts written differently but with the \
        same mapping (`layout_algebra::RegisterLayout::same_mapping`) move no data; lowering \
        emits nothing for them.",
    operands: &[one("source", REG_TENSOR)],
    results: &[one("result", REG_TENSOR)],
    traits: &[Trait::Pure],
    verify: Some(verify_convert),
    fold: Some(fold_convert),
    format: Format::Declarative("$source attr-dict `:` type($source) `to` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = CONVERT.check();

tilus_ir::op_handle! {
    /// Typed handle of `layout.convert`.
    pub struct ConvertOp = CONVERT;
    operands {
        source = "source": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// The layout dialect's ops.
pub static OPS: &[&OpDef] = &[&CONVERT];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `layout` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum LayoutOpKind for OPS {
        Convert(ConvertOp),
    }
}

fn err(op: OpId, msg: String) -> Diagnostic {
    Diagnostic::op(op, format!("'layout.convert' op {msg}"))
}

fn verify_convert(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let src_ty = ctx.value_type(ctx.operands(op)[0]);
    let res_ty = ctx.value_type(ctx.results(op)[0]);
    let (Some(s), Some(r)) = (TensorType::of(ctx, src_ty), TensorType::of(ctx, res_ty)) else {
        return Ok(());
    };
    if s.shape != r.shape || s.dtype != r.dtype {
        return Err(err(
            op,
            format!(
                "expects a result of the source's shape and element type {}, but found {}",
                s.shape_str(),
                r.shape_str()
            ),
        ));
    }
    for (what, t, ty) in [("source", &s, src_ty), ("result", &r, res_ty)] {
        if t.layout.is_none() {
            return Err(err(
                op,
                format!(
                    "expects a {what} type with a layout, but found '{}'",
                    type_str(ctx, ty)
                ),
            ));
        }
    }
    let (Some(ls), Some(lr)) = (s.register_layout(), r.register_layout()) else {
        return Ok(());
    };
    if ls.num_threads() != lr.num_threads() {
        return Err(err(
            op,
            format!(
                "expects layouts over one number of threads, but found {} (source) and {} (result)",
                ls.num_threads(),
                lr.num_threads()
            ),
        ));
    }
    if let Some(g) = group_of(ctx, op) {
        if lr.num_threads() != g.size {
            return Err(err(
                op,
                format!(
                    "expects layouts over the {} threads of its group ({}), but found {}",
                    g.size,
                    g.describe(),
                    lr.num_threads()
                ),
            ));
        }
    }
    Ok(())
}

/// Whether a `layout.convert` moves no data: its two layouts have the same mapping.
pub fn is_noop(ctx: &Context, op: OpId) -> bool {
    let layout = |v| TensorType::of(ctx, ctx.value_type(v)).and_then(|t| t.register_layout());
    match (layout(ctx.operands(op)[0]), layout(ctx.results(op)[0])) {
        (Some(a), Some(b)) => a.same_mapping(&b),
        _ => false,
    }
}

fn fold_convert(ctx: &mut Context, op: OpId, _: &[Option<Attr>]) -> Folded {
    let src = ctx.operands(op)[0];
    let res_ty = ctx.value_type(ctx.results(op)[0]);
    if ctx.value_type(src) == res_ty {
        return Folded::value(src);
    }
    // convert(convert(x)) -> convert(x), or x when it already has the result type.
    if let Some(d) = ctx.defining_op(src) {
        if ctx.op_name_str(d) == "layout.convert" {
            let inner = ctx.operands(d)[0];
            if ctx.value_type(inner) == res_ty {
                return Folded::value(inner);
            }
            ctx.set_operand(op, 0, inner);
            return Folded::InPlace;
        }
    }
    Folded::Failed
}
