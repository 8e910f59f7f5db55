//! Global views, shared and register tensors, loads, stores and shared views.

use super::*;

/// `tilus.global_view`.
pub static GLOBAL_VIEW: OpDef = OpDef {
    name: "tilus.global_view",
    summary: "a shaped view of global memory at a pointer parameter",
    description: "`%g = tilus.global_view %p[%m, %k] strides[%ld] : !tilus.ptr<f16> -> \
        !tilus.global<?x?xf16, strides = [?, 1]>` gives the memory at `%p` a shape and strides \
        (compact row-major when the type has no `strides`). There is one `extents` operand per \
        `?` in the shape and one `strides` operand per `?` in the strides, in order; they must \
        be the same in every block (kernel parameters, constants and pure arithmetic on them; \
        the verifier rejects a block or thread index, a loop variable or a loaded value). The \
        element type is the pointer's. Element `x` is at `p + Σ x_d · stride_d`.",
    operands: &[
        one("ptr", PTR),
        many("extents", I32),
        many("strides", I32),
    ],
    results: &[one("result", GLOBAL_TENSOR)],
    traits: &[Trait::Pure, Trait::AttrSizedOperandSegments],
    verify: Some(verify_global_view),
    format: Format::Declarative(
        "$ptr (`[` $extents^ `]`)? (`strides` `[` $strides^ `]`)? attr-dict `:` type($ptr) `->` type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = GLOBAL_VIEW.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.global_view`.
    pub struct GlobalViewOp = GLOBAL_VIEW;
    operands {
        ptr = "ptr": Value,
        extents = "extents": &[Value],
        strides = "strides": &[Value]
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.shared_tensor`.
pub static SHARED_TENSOR_OP: OpDef = OpDef {
    name: "tilus.shared_tensor",
    summary: "allocate a shared-memory tensor",
    description: "`%s = tilus.shared_tensor : !tilus.shared<3x128x64xf16, swizzle = 128B>` \
        reserves the tensor's footprint in the block's dynamic shared memory (first fit, \
        aligned to 128 bytes, or to the swizzle's repeat of 256/512/1024 bytes) until \
        `tilus.free_shared`. The contents start undefined. At most 227 KiB (232448 bytes) per \
        tensor, the sm_90/sm_100 limit.",
    results: &[one("result", SHARED_TENSOR)],
    verify: Some(verify_shared_tensor),
    format: Format::Declarative("attr-dict `:` type($result)"),
    traits: &[Trait::Collective, Trait::AllocatesShared],
    ..OpDef::DEFAULT
};
const _: () = SHARED_TENSOR_OP.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.shared_tensor`.
    pub struct SharedTensorOp = SHARED_TENSOR_OP;
    operands {}
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.free_shared`.
pub static FREE_SHARED: OpDef = OpDef {
    name: "tilus.free_shared",
    summary: "release a shared-memory tensor",
    description: "`tilus.free_shared %s : !tilus.shared<...>` ends the allocation made by the \
        `tilus.shared_tensor` that defines `%s` (not a view of it), so later allocations may \
        reuse the space. No asynchronous copy may still target it.",
    operands: &[one("tensor", SHARED_TENSOR)],
    verify: Some(verify_free_shared),
    format: Format::Declarative("$tensor attr-dict `:` type($tensor)"),
    traits: &[Trait::Collective, Trait::FreesShared],
    ..OpDef::DEFAULT
};
const _: () = FREE_SHARED.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.free_shared`.
    pub struct FreeSharedOp = FREE_SHARED;
    operands {
        tensor = "tensor": Value
    }
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `tilus.register_tensor`.
pub static REGISTER_TENSOR: OpDef = OpDef {
    name: "tilus.register_tensor",
    summary: "a register tensor filled with a scalar, or undefined",
    description: "`%r = tilus.register_tensor init(%c : f32) : !tilus.reg<64x64xf32>` makes a \
        register tensor whose elements all equal `%c` (whose type must be the element type); \
        without `init` the contents are undefined. This is also how a scalar joins tile \
        arithmetic: splat it into a `1x1` tensor and let broadcasting do the rest. Inside a \
        group, a layout given in the type must span exactly the group's threads.",
    operands: &[maybe("init", SCALAR)],
    results: &[one("result", REG_TENSOR)],
    traits: &[Trait::Pure],
    verify: Some(verify_register_tensor),
    format: Format::Declarative(
        "(`init` `(` $init^ `:` type($init) `)`)? attr-dict `:` type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = REGISTER_TENSOR.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.register_tensor`.
    pub struct RegisterTensorOp = REGISTER_TENSOR;
    operands {
        init = "init": Option<Value>
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

// ----- loads and stores ---------------------------------------------------------------------

/// `tilus.load_global`.
pub static LOAD_GLOBAL: OpDef = OpDef {
    name: "tilus.load_global",
    summary: "load a box of a global view into a register tensor",
    description: "`%r = tilus.load_global %g[%i, %j] : !tilus.global<?x?xf16> -> \
        !tilus.reg<64x64xf16>` reads the box `[offsets, offsets + shape(result))` of the view, \
        one offset per dimension; elements outside the view's extents read as 0. The element \
        types and ranks of view and result agree.",
    operands: &[one("src", GLOBAL_TENSOR), many("offsets", I32)],
    results: &[one("result", REG_TENSOR)],
    verify: Some(verify_load_global),
    format: Format::Declarative(
        "$src `[` $offsets `]` attr-dict `:` type($src) `->` type($result)",
    ),
    traits: &[Trait::MemRead],
    ..OpDef::DEFAULT
};
const _: () = LOAD_GLOBAL.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.load_global`.
    pub struct LoadGlobalOp = LOAD_GLOBAL;
    operands {
        src = "src": Value,
        offsets = "offsets": &[Value]
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.store_global`.
pub static STORE_GLOBAL: OpDef = OpDef {
    name: "tilus.store_global",
    summary: "store a register tensor into a box of a global view",
    description: "`tilus.store_global %r, %g[%i, %j] : !tilus.reg<64x64xf16>, \
        !tilus.global<?x?xf16>` writes `%r` to the box `[offsets, offsets + shape(%r))`; \
        elements outside the view's extents are skipped. Element types and ranks agree.",
    operands: &[
        one("value", REG_TENSOR),
        one("dst", GLOBAL_TENSOR),
        many("offsets", I32),
    ],
    verify: Some(verify_store_global),
    format: Format::Declarative(
        "$value `,` $dst `[` $offsets `]` attr-dict `:` type($value) `,` type($dst)",
    ),
    traits: &[Trait::Collective, Trait::MemWrite],
    ..OpDef::DEFAULT
};
const _: () = STORE_GLOBAL.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.store_global`.
    pub struct StoreGlobalOp = STORE_GLOBAL;
    operands {
        value = "value": Value,
        dst = "dst": Value,
        offsets = "offsets": &[Value]
    }
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `tilus.load_shared`.
pub static LOAD_SHARED: OpDef = OpDef {
    name: "tilus.load_shared",
    summary: "load a whole shared tensor into a register tensor",
    description: "`%r = tilus.load_shared %s : !tilus.shared<64x32xf16> -> \
        !tilus.reg<64x32xf16>` copies every element (element types are equal); slice the \
        shared tensor first to load part of it. The shared tensor has the result's shape, or \
        refines it as `tilus.store_shared` describes.",
    operands: &[one("src", SHARED_TENSOR)],
    results: &[one("result", REG_TENSOR)],
    verify: Some(verify_load_shared),
    format: Format::Declarative("$src attr-dict `:` type($src) `->` type($result)"),
    traits: &[Trait::MemRead],
    ..OpDef::DEFAULT
};
const _: () = LOAD_SHARED.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.load_shared`.
    pub struct LoadSharedOp = LOAD_SHARED;
    operands {
        src = "src": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.store_shared`.
pub static STORE_SHARED: OpDef = OpDef {
    name: "tilus.store_shared",
    summary: "store a register tensor into a whole shared tensor",
    description: "`tilus.store_shared %r, %s : !tilus.reg<64x32xf16>, \
        !tilus.shared<64x32xf16>` writes every element; element types are equal. The shared \
        tensor has the value's shape, or refines it: each value dimension is split into \
        consecutive shared dimensions whose extents multiply to it, read in row-major order \
        (`!tilus.reg<64x256xf16>` into `!tilus.shared<64x4x64xf16, strides = [64, 4096, 1]>`: \
        column `c` goes to `[c / 64, c % 64]`). With a permuted view that stores a tile as \
        boxes of 64 columns, one after another, which is how a 128-byte-swizzled TMA box \
        wants a tile wider than 64 halves, and what keeps the stores free of bank conflicts \
        (`tma-store-epilogue`).",
    operands: &[one("value", REG_TENSOR), one("dst", SHARED_TENSOR)],
    verify: Some(verify_store_shared),
    format: Format::Declarative("$value `,` $dst attr-dict `:` type($value) `,` type($dst)"),
    traits: &[Trait::Collective, Trait::MemWrite],
    ..OpDef::DEFAULT
};
const _: () = STORE_SHARED.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.store_shared`.
    pub struct StoreSharedOp = STORE_SHARED;
    operands {
        value = "value": Value,
        dst = "dst": Value
    }
    results {}
    attrs {}
    regions {}
    successors {}
}

// ----- shared views -------------------------------------------------------------------------

/// `tilus.slice_shared`.
pub static SLICE_SHARED: OpDef = OpDef {
    name: "tilus.slice_shared",
    summary: "index the leading dimensions of a shared tensor (a view)",
    description: "`%t = tilus.slice_shared %s[%stage] : !tilus.shared<3x128x64xf16, swizzle = \
        128B> -> !tilus.shared<128x64xf16, swizzle = 128B>` fixes the first `k` indices \
        (`1 <= k < rank`) and views the rest: the result has the trailing extents, the trailing \
        strides and the same swizzle. No data moves.",
    operands: &[one("src", SHARED_TENSOR), many("indices", I32)],
    results: &[one("result", SHARED_TENSOR)],
    traits: &[Trait::Pure, Trait::SharedView],
    verify: Some(verify_slice_shared),
    format: Format::Declarative(
        "$src `[` $indices `]` attr-dict `:` type($src) `->` type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = SLICE_SHARED.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.slice_shared`.
    pub struct SliceSharedOp = SLICE_SHARED;
    operands {
        src = "src": Value,
        indices = "indices": &[Value]
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.permute_shared`.
pub static PERMUTE_SHARED: OpDef = OpDef {
    name: "tilus.permute_shared",
    summary: "reorder the dimensions of a shared tensor (a view)",
    description: "`%t = tilus.permute_shared %s [1, 0] : !tilus.shared<64x128xf16> -> \
        !tilus.shared<128x64xf16, strides = [1, 128]>`: result dimension `i` is source \
        dimension `perm[i]`, with its extent and stride; the swizzle is kept. The result type \
        must say exactly that (a transpose is not row-major, so it carries `strides`).",
    operands: &[one("src", SHARED_TENSOR)],
    results: &[one("result", SHARED_TENSOR)],
    attributes: &[attr("perm", I64_LIST)],
    traits: &[Trait::Pure, Trait::SharedView],
    verify: Some(verify_permute_shared),
    format: Format::Declarative("$src $perm attr-dict `:` type($src) `->` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = PERMUTE_SHARED.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.permute_shared`.
    pub struct PermuteSharedOp = PERMUTE_SHARED;
    operands {
        src = "src": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        perm = "perm": Attr
    }
    regions {}
    successors {}
}

/// `tilus.reshape_shared`.
pub static RESHAPE_SHARED: OpDef = OpDef {
    name: "tilus.reshape_shared",
    summary: "view a row-major shared tensor with another shape of the same size",
    description: "`%t = tilus.reshape_shared %s : !tilus.shared<2x128x64xf16, swizzle = 128B> -> \
        !tilus.shared<256x64xf16, swizzle = 128B>` reads the same bytes in row-major order \
        under the new shape: both the source and the result are row-major (no `strides`), \
        hold the same number of elements, and keep the swizzle, which applies to the address \
        and so does not depend on the shape. It joins halves filled by separate copies into one \
        operand (two multicast halves of B read by one m64n256 wgmma) and splits a tile into \
        the boxes a TMA copy takes (a [64, 128] tile as [64, 2, 64], whose inner box fits the \
        128-byte swizzle span). No data moves.",
    operands: &[one("src", SHARED_TENSOR)],
    results: &[one("result", SHARED_TENSOR)],
    traits: &[Trait::Pure, Trait::SharedView],
    verify: Some(verify_reshape_shared),
    format: Format::Declarative("$src attr-dict `:` type($src) `->` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = RESHAPE_SHARED.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.reshape_shared`.
    pub struct ReshapeSharedOp = RESHAPE_SHARED;
    operands {
        src = "src": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// The tensor `view` is a view of when the view starts where that tensor does (a
/// `tilus.permute_shared` or `tilus.reshape_shared`): analyses that follow a view to its
/// buffer or its address look through these, and only a `tilus.slice_shared` moves the start.
pub fn same_start_view_source(ctx: &Context, view: OpId) -> Option<Value> {
    if let Some(p) = PermuteSharedOp::cast(ctx, view) {
        Some(p.src(ctx))
    } else {
        ReshapeSharedOp::cast(ctx, view).map(|r| r.src(ctx))
    }
}

/// `tilus.shared_addr`.
pub static SHARED_ADDR: OpDef = OpDef {
    name: "tilus.shared_addr",
    summary: "the 32-bit shared-window address of a shared tensor's first element",
    description: "`%a = tilus.shared_addr %s : !tilus.shared<128x64xf16, swizzle = 128B> -> i32` \
        is the address, in the CTA's shared window (what `.shared::cta` instructions take), of \
        element `[0, ..., 0]` of a shared tensor or of a view of one (`tilus.slice_shared`, \
        `tilus.permute_shared`). The lowering of async copies and tensor-core operands \
        (`lower-async-to-ptx`) uses it to build TMA destinations and matrix descriptors; \
        shared-memory planning replaces it by the dynamic shared base plus the tensor's \
        compile-time offset.",
    operands: &[one("tensor", SHARED_TENSOR)],
    results: &[one("result", I32)],
    traits: &[Trait::Pure],
    format: Format::Declarative("$tensor attr-dict `:` type($tensor) `->` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = SHARED_ADDR.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.shared_addr`.
    pub struct SharedAddrOp = SHARED_ADDR;
    operands {
        tensor = "tensor": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

fn verify_global_view(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let elem = ptr_elem(ctx, ctx.value_type(ops[0])).expect("checked by PTR");
    let res = tensor(ctx, ctx.results(op)[0]);
    if elem != res.dtype {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a view of the pointer's element type '{}', but found '{}'",
                elem.name(),
                res.dtype.name()
            ),
        ));
    }
    let def = ctx.op_def(op).unwrap();
    let extents = tilus_ir::format::operand_group(ctx, def, op, "extents").len();
    let strides = tilus_ir::format::operand_group(ctx, def, op, "strides").len();
    let dyn_shape = res.shape.iter().filter(|d| **d == DYN).count();
    let dyn_strides = res
        .strides
        .as_ref()
        .map(|s| s.iter().filter(|d| **d == DYN).count())
        .unwrap_or(0);
    if extents != dyn_shape {
        return Err(op_error(
            ctx,
            op,
            format!("expects {dyn_shape} extent operand{} (one per '?' in the shape), but found {extents}", if dyn_shape == 1 { "" } else { "s" }),
        ));
    }
    if strides != dyn_strides {
        return Err(op_error(
            ctx,
            op,
            format!("expects {dyn_strides} stride operand{} (one per '?' in the strides), but found {strides}", if dyn_strides == 1 { "" } else { "s" }),
        ));
    }
    for (i, &v) in ops[1..].iter().enumerate() {
        if let Some((at, why)) = grid_variant_source(ctx, v) {
            let what = if i < extents {
                format!("extent {i}")
            } else {
                format!("stride {}", i - extents)
            };
            return Err(op_error(
                ctx,
                op,
                format!("expects extents and strides that are the same in every block (kernel parameters, constants and pure arithmetic on them), but {what} {why}"),
            )
            .with_note(at, "the value comes from here")
            .with_help("a view's shape and strides are fixed for the launch (a TMA tensor map is made from them on the host); put block- or thread-dependent positions in the offsets of the loads and stores instead"));
        }
    }
    Ok(())
}

/// Where a value stops being the same in every block and thread, if it does: a block or thread
/// index, a block argument other than a kernel or function parameter (a loop's induction
/// variable or carried value), or an op that is not a pure function of its operands (a load,
/// an op with regions). `None` when the value is built from parameters and constants only.
fn grid_variant_source(ctx: &Context, v: Value) -> Option<(DiagLoc, &'static str)> {
    let mut stack = vec![v];
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        match ctx.value_def(v) {
            tilus_ir::ValueDef::BlockArg(b, _) => {
                // A detached block has no owner: nothing to report at.
                let Some(owner) = ctx.block_parent(b).and_then(|r| ctx.region_parent(r)) else {
                    continue;
                };
                let is_param = ctx
                    .op_def(owner)
                    .is_some_and(|d| d.has(Trait::IsolatedFromAbove))
                    && ctx.region_blocks(ctx.regions(owner)[0]).first() == Some(&b);
                if !is_param {
                    return Some((DiagLoc::Op(owner), "depends on a block argument that is not a kernel parameter (a loop variable or carried value)"));
                }
            }
            tilus_ir::ValueDef::Result(d, _) => {
                if BlockIdOp::is(ctx, d) {
                    return Some((DiagLoc::Op(d), "depends on 'tilus.block_id'"));
                }
                if ThreadIdOp::is(ctx, d) || WarpIdOp::is(ctx, d) || LaneIdOp::is(ctx, d) {
                    return Some((DiagLoc::Op(d), "depends on a thread, warp or lane index"));
                }
                let pure = ctx
                    .op_def(d)
                    .is_some_and(|def| def.has(Trait::Pure) && def.regions.is_empty());
                if !pure {
                    return Some((
                        DiagLoc::Op(d),
                        "depends on an op that is not a pure function of its operands",
                    ));
                }
                stack.extend(ctx.operands(d).iter().copied());
            }
        }
    }
    None
}

fn verify_shared_tensor(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let t = tensor(ctx, ctx.results(op)[0]);
    let footprint = t.shared_layout().map(|l| l.footprint()).unwrap_or(0);
    let bytes = (footprint * t.dtype.memory_bits() as i64 + 7) / 8;
    if bytes > MAX_SHARED_TOTAL {
        return Err(op_error(
            ctx,
            op,
            format!("expects a shared tensor of at most {MAX_SHARED_TOTAL} bytes, but found {bytes} bytes"),
        ));
    }
    Ok(())
}

fn verify_free_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let v = ctx.operands(op)[0];
    match ctx.defining_op(v) {
        Some(d) if ctx.op_name_str(d) == "tilus.shared_tensor" => Ok(()),
        Some(d) => Err(op_error(
            ctx,
            op,
            format!(
                "expects a tensor made by 'tilus.shared_tensor', but found one made by '{}'",
                ctx.op_name_str(d)
            ),
        )),
        None => Err(op_error(
            ctx,
            op,
            "expects a tensor made by 'tilus.shared_tensor', but found a block argument",
        )),
    }
}

fn verify_register_tensor(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let t = tensor(ctx, ctx.results(op)[0]);
    if let Some(&init) = ctx.operands(op).first() {
        let it = ctx.value_type(init);
        if DType::from_type(ctx, it) != Some(t.dtype) {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects an init value of the element type '{}', but found '{}'",
                    t.dtype.name(),
                    type_str(ctx, it)
                ),
            ));
        }
    }
    check_result_layouts(ctx, op)
}

fn verify_load_global(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let g = tensor(ctx, ops[0]);
    let r = tensor(ctx, ctx.results(op)[0]);
    check_offsets(ctx, op, ops.len() - 1, g.shape.len())?;
    if r.shape.len() != g.shape.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a result of the view's rank {}, but found rank {}",
                g.shape.len(),
                r.shape.len()
            ),
        ));
    }
    check_dtypes(ctx, op, "view and result", &g, &r)?;
    check_result_layouts(ctx, op)
}

fn verify_store_global(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let r = tensor(ctx, ops[0]);
    let g = tensor(ctx, ops[1]);
    check_offsets(ctx, op, ops.len() - 2, g.shape.len())?;
    if r.shape.len() != g.shape.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a value of the view's rank {}, but found rank {}",
                g.shape.len(),
                r.shape.len()
            ),
        ));
    }
    check_dtypes(ctx, op, "value and view", &r, &g)
}

/// How a shared tensor's shape refines a register tensor's: for each register dimension, the
/// range of shared dimensions it is split into (row-major: the first is the outermost), or
/// `None` when the shapes are not a refinement. Equal shapes give one dimension each; a
/// dimension takes as few shared dimensions as reach its extent (so an extent-1 shared
/// dimension after a complete group is not absorbed, and such a pair is refused).
/// `tilus.load_shared`/`store_shared` accept exactly these pairs; the lowering and the
/// interpreter read the grouping from here.
pub fn shape_refinement(reg: &[i64], shared: &[i64]) -> Option<Vec<std::ops::Range<usize>>> {
    let mut groups = Vec::with_capacity(reg.len());
    let mut at = 0;
    for &extent in reg {
        let start = at;
        let mut prod: i64 = 1;
        // Greedy: at least one shared dimension, then more while the product is short.
        while at < shared.len() && (at == start || prod < extent) {
            prod = prod.checked_mul(shared[at])?;
            at += 1;
        }
        if prod != extent {
            return None;
        }
        groups.push(start..at);
    }
    (at == shared.len()).then_some(groups)
}

/// The refinement check of `load_shared`/`store_shared`, with the shapes in the message.
fn check_refines(
    ctx: &Context,
    op: OpId,
    reg: &TensorType,
    shared: &TensorType,
) -> Result<(), Diagnostic> {
    if shape_refinement(&reg.shape, &shared.shape).is_none() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects the shared tensor's shape to be the register tensor's {} or to split \
                 its dimensions into consecutive ones of the same product, but found {}",
                dims(&reg.shape),
                dims(&shared.shape)
            ),
        ));
    }
    Ok(())
}

fn verify_load_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let s = tensor(ctx, ctx.operands(op)[0]);
    let r = tensor(ctx, ctx.results(op)[0]);
    check_refines(ctx, op, &r, &s)?;
    check_dtypes(ctx, op, "shared tensor and result", &s, &r)?;
    check_result_layouts(ctx, op)
}

fn verify_store_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let r = tensor(ctx, ctx.operands(op)[0]);
    let s = tensor(ctx, ctx.operands(op)[1]);
    check_refines(ctx, op, &r, &s)?;
    check_dtypes(ctx, op, "value and shared tensor", &r, &s)
}

/// Compares a shared view's result type with the one the op computes.
fn check_view_result(
    ctx: &Context,
    op: OpId,
    expected: &TensorType,
    expected_strides: &[i64],
) -> Result<(), Diagnostic> {
    let res = tensor(ctx, ctx.results(op)[0]);
    let strides = res.shared_layout().map(|l| l.strides).unwrap_or_default();
    if res.shape != expected.shape
        || res.dtype != expected.dtype
        || res.swizzle != expected.swizzle
        || strides != expected_strides
    {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects result type '{}', but found '{}'",
                expected.text(),
                tstr(ctx, ctx.results(op)[0])
            ),
        ));
    }
    Ok(())
}

fn verify_slice_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let s = tensor(ctx, ctx.operands(op)[0]);
    let k = ctx.operands(op).len() - 1;
    let rank = s.shape.len();
    if k < 1 || k >= rank {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects 1 to {} indices (fewer than the rank {rank}), but found {k}",
                rank.saturating_sub(1)
            ),
        ));
    }
    let src_strides = s.shared_layout().map(|l| l.strides).unwrap_or_default();
    let exp_strides = src_strides[k..].to_vec();
    let expected = TensorType {
        space: Space::Shared,
        shape: s.shape[k..].to_vec(),
        dtype: s.dtype,
        strides: s.strides.as_ref().map(|v| v[k..].to_vec()),
        swizzle: s.swizzle,
        layout: None,
    };
    check_view_result(ctx, op, &expected, &exp_strides)
}

fn verify_reshape_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let s = tensor(ctx, ctx.operands(op)[0]);
    let r = tensor(ctx, ctx.results(op)[0]);
    let src_strides = s.shared_layout().map(|l| l.strides).unwrap_or_default();
    let src_row_major = crate::layout_algebra::SharedLayout::row_major(&s.shape).strides;
    if src_strides != src_row_major {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a row-major source (strides [{}]), but found strides [{}]: only a dense \
                 row-major tensor reads the same bytes under another shape",
                join_i64(&src_row_major),
                join_i64(&src_strides)
            ),
        ));
    }
    let count = |shape: &[i64]| shape.iter().try_fold(1i64, |a, &d| a.checked_mul(d));
    if count(&s.shape) != count(&r.shape) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a result with as many elements as the source ({} = {}), but found {} = {}",
                s.shape
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("x"),
                count(&s.shape).map_or("overflow".to_string(), |c| c.to_string()),
                r.shape
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("x"),
                count(&r.shape).map_or("overflow".to_string(), |c| c.to_string())
            ),
        ));
    }
    let expected = TensorType {
        space: Space::Shared,
        shape: r.shape.clone(),
        dtype: s.dtype,
        strides: None,
        swizzle: s.swizzle,
        layout: None,
    };
    let row_major = crate::layout_algebra::SharedLayout::row_major(&r.shape).strides;
    check_view_result(ctx, op, &expected, &row_major)
}

fn join_i64(v: &[i64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn verify_permute_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let s = tensor(ctx, ctx.operands(op)[0]);
    let perm = ctx
        .get_prop(op, "perm")
        .and_then(|a| attr_i64s(ctx, a))
        .unwrap_or_default();
    let rank = s.shape.len();
    let mut seen = vec![false; rank];
    let ok = perm.len() == rank
        && perm.iter().all(|&p| {
            p >= 0 && (p as usize) < rank && !std::mem::replace(&mut seen[p as usize], true)
        });
    if !ok {
        return Err(fail_at(
            op,
            ctx,
            "perm",
            format!(
                "expects a permutation of [0, {rank}), but found [{}]",
                perm.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let src_strides = s.shared_layout().map(|l| l.strides).unwrap_or_default();
    let strides: Vec<i64> = perm.iter().map(|&p| src_strides[p as usize]).collect();
    let shape: Vec<i64> = perm.iter().map(|&p| s.shape[p as usize]).collect();
    let row_major = crate::layout_algebra::SharedLayout::row_major(&shape).strides;
    let expected = TensorType {
        space: Space::Shared,
        shape,
        dtype: s.dtype,
        strides: (strides != row_major).then(|| strides.clone()),
        swizzle: s.swizzle,
        layout: None,
    };
    check_view_result(ctx, op, &expected, &strides)
}
