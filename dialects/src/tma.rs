//! `tma`: the Tensor Memory Accelerator's bulk tensor copies between global and shared memory,
//! their completion groups, and the proxy fences that order them against ordinary accesses
//! (spec §5).
//!
//! A copy moves one *box*: the shared tensor's whole shape, at `offsets` of the global view
//! (one offset per dimension of the view; elements outside it read as zero and are not
//! written). Each copy site becomes one host-side tensor map, so the verifier checks the limits
//! `cuTensorMapEncodeTiled` and the PTX ISA put on boxes: rank 1 to 5, extents of at most 256,
//! an innermost row that is a multiple of 16 bytes (and, with a swizzle, fits its 32/64/128-byte
//! span), a unit innermost global stride and other strides that are multiples of 16 bytes.
//!
//! Copies are issued by one thread, or by one warp starting at a multiple of 32 threads (then
//! only its leader lane issues); bulk groups (`commit_group`/`wait_group`) are tracked per issuing
//! thread.

use crate::common::op_error;
use crate::layout_algebra::SwizzleMode;
use crate::mbarrier::{check_barrier_index, check_const_range};
use crate::threadgroup::{require_group, Need};
use crate::tilus_types::{
    attr_i64, attr_i64s, dim_str, join_dims, type_str, TensorType, BARRIERS, DENSE_I64_ARRAY, DYN,
    GLOBAL_TENSOR, INT_OR_INDEX, SHARED_TENSOR,
};
use tilus_ir::diag::DiagLoc;
use tilus_ir::format::operand_group;
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::{
    attr, enum_attr, many, maybe, one, opt_attr, AttrConstraint, Format, OpDef, Trait, I32,
    I64_ATTR, UNIT_ATTR,
};
use tilus_ir::{Context, Diagnostic, OpId};

/// Largest box extent in any dimension.
pub const MAX_BOX_EXTENT: i64 = 256;
/// Largest box rank.
pub const MAX_BOX_RANK: usize = 5;
/// Largest `n` of `tma.wait_group`.
pub const MAX_WAIT_GROUP: i64 = 6;

/// `tma.fence_proxy_async`'s state space.
pub const FENCE_SPACE: AttrConstraint = enum_attr("state space", &["shared", "global"]);

/// `tma.global_to_shared`.
pub static GLOBAL_TO_SHARED: OpDef = OpDef {
    name: "tma.global_to_shared",
    summary: "asynchronous bulk copy of a box from a global view into a shared tensor",
    description: "`tma.global_to_shared %g[%m, %k : i32, i32], %s, %bars[%i : i32] : \
        !tilus.global<?x4096xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, \
        !mbarrier.barriers<2>` copies the box `%g[%m : %m + 64, %k : %k + 64]` into `%s` (which \
        gives the box shape and the swizzle) and, when the bytes have landed, performs \
        `complete_tx(box bytes)` on barrier `%i` (the full box is counted even where it falls \
        outside the view and is zero-filled). The copy does not announce its bytes: an \
        `mbarrier.arrive_expect_tx` must do so. `dims array<i64: ...>` selects the increasing \
        dimensions of the view the box spans (default: all; the offsets of the others are \
        folded into the tensor map's base). `multicast(%mask)` writes the box to the same \
        shared offset of every CTA in the 16-bit cluster mask and signals the barrier at the \
        same offset in each (a constant mask names CTAs of the kernel's cluster only); \
        `cta_group(2)` (sm_100) lets the barrier sit in the peer CTA of a pair (the kernel's \
        cluster must have an even number of CTAs). A swizzled \
        destination starts at a multiple of the swizzle repeat (1024, 512, 256 bytes for 128B, \
        64B, 32B), checked where its offset in the allocation is static. Issued by one thread \
        or one warp-aligned warp.",
    operands: &[
        one("src", GLOBAL_TENSOR),
        many("offsets", INT_OR_INDEX),
        one("dst", SHARED_TENSOR),
        one("barriers", BARRIERS),
        one("barrier_index", INT_OR_INDEX),
        maybe("multicast_mask", I32),
    ],
    attributes: &[
        opt_attr("dims", DENSE_I64_ARRAY),
        opt_attr("cta_group", I64_ATTR),
    ],
    traits: &[
        Trait::AttrSizedOperandSegments,
        Trait::Async,
        Trait::MemRead,
        Trait::MemWrite,
    ],
    verify: Some(verify_global_to_shared),
    format: Format::Declarative(
        "$src `[` $offsets `:` type($offsets) `]` `,` $dst `,` \
         $barriers `[` $barrier_index `:` type($barrier_index) `]` \
         (`multicast` `(` $multicast_mask^ `)`)? (`cta_group` `(` $cta_group^ `)`)? \
         (`dims` $dims^)? attr-dict `:` type($src) `,` type($dst) `,` type($barriers)",
    ),
    ..OpDef::DEFAULT
};
const _: () = GLOBAL_TO_SHARED.check();

tilus_ir::op_handle! {
    /// Typed handle of `tma.global_to_shared`.
    pub struct GlobalToSharedOp = GLOBAL_TO_SHARED;
    operands {
        src = "src": Value,
        offsets = "offsets": &[Value],
        dst = "dst": Value,
        barriers = "barriers": Value,
        barrier_index = "barrier_index": Value,
        multicast_mask = "multicast_mask": Option<Value>
    }
    results {}
    attrs {
        dims = "dims": Option<Attr>,
        cta_group = "cta_group": Option<i64>
    }
    regions {}
    successors {}
}

/// `tma.shared_to_global`.
pub static SHARED_TO_GLOBAL: OpDef = OpDef {
    name: "tma.shared_to_global",
    summary: "asynchronous bulk copy of a shared tensor into a box of a global view",
    description: "`tma.shared_to_global %s, %g[%m, %n : i32, i32] : !tilus.shared<64x64xf16>, \
        !tilus.global<?x?xf16>` stores `%s` to the box of `%g` at the offsets (elements outside \
        the view are not written). Completion is tracked by bulk groups: `tma.commit_group` \
        closes the issuing thread's pending stores into a group and `tma.wait_group` waits for \
        them. Writes to `%s` by ordinary stores must be made visible to the copy engine first \
        (`tma.fence_proxy_async shared` by the writing threads, then `threadgroup.sync`). \
        `dims` as for `tma.global_to_shared`. Issued by one thread or one warp-aligned warp.",
    operands: &[
        one("src", SHARED_TENSOR),
        one("dst", GLOBAL_TENSOR),
        many("offsets", INT_OR_INDEX),
    ],
    attributes: &[opt_attr("dims", DENSE_I64_ARRAY)],
    verify: Some(verify_shared_to_global),
    format: Format::Declarative(
        "$src `,` $dst `[` $offsets `:` type($offsets) `]` (`dims` $dims^)? attr-dict `:` \
         type($src) `,` type($dst)",
    ),
    traits: &[Trait::Async, Trait::MemRead, Trait::MemWrite],
    ..OpDef::DEFAULT
};
const _: () = SHARED_TO_GLOBAL.check();

tilus_ir::op_handle! {
    /// Typed handle of `tma.shared_to_global`.
    pub struct SharedToGlobalOp = SHARED_TO_GLOBAL;
    operands {
        src = "src": Value,
        dst = "dst": Value,
        offsets = "offsets": &[Value]
    }
    results {}
    attrs {
        dims = "dims": Option<Attr>
    }
    regions {}
    successors {}
}

/// `tma.commit_group`.
pub static COMMIT_GROUP: OpDef = OpDef {
    name: "tma.commit_group",
    summary: "close the issuing thread's pending bulk stores into a group",
    description: "`tma.commit_group` gathers the `tma.shared_to_global` copies the issuing \
        thread has started since its last commit into one bulk group (`cp.async.bulk.commit_group`). \
        Groups are per thread: issue it from the same one thread or warp-aligned warp that \
        issued the copies.",
    verify: Some(verify_issue),
    format: Format::Declarative("attr-dict"),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = COMMIT_GROUP.check();

tilus_ir::op_handle! {
    /// Typed handle of `tma.commit_group`.
    pub struct CommitGroupOp = COMMIT_GROUP;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `tma.wait_group`.
pub static WAIT_GROUP: OpDef = OpDef {
    name: "tma.wait_group",
    summary: "wait until at most n bulk groups of the issuing thread are pending",
    description: "`tma.wait_group 0` blocks until at most `n` (0 to 6) of the issuing thread's \
        committed bulk groups are still in flight; with `read` (`tma.wait_group 0 read`) it \
        only waits until their shared-memory sources have been read, which is enough to reuse \
        the buffers. Only the leader lane tracks groups, so the other threads of a warp return \
        at once: follow it with `threadgroup.sync` before other threads touch the buffers. \
        Issued by one thread or one warp-aligned warp.",
    attributes: &[attr("n", I64_ATTR), opt_attr("read", UNIT_ATTR)],
    verify: Some(verify_wait_group),
    format: Format::Declarative("$n (`read` $read^)? attr-dict"),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = WAIT_GROUP.check();

tilus_ir::op_handle! {
    /// Typed handle of `tma.wait_group`.
    pub struct WaitGroupOp = WAIT_GROUP;
    operands {}
    results {}
    attrs {
        n = "n": i64,
        read = "read": bool
    }
    regions {}
    successors {}
}

/// `tma.fence_proxy_async`.
pub static FENCE_PROXY_ASYNC: OpDef = OpDef {
    name: "tma.fence_proxy_async",
    summary: "order ordinary memory accesses with the async proxy (both directions)",
    description: "`tma.fence_proxy_async shared` (or `global`) orders the executing thread's \
        accesses to that state space through the generic proxy (`tilus.store_shared`, ...) \
        with accesses through the async proxy (TMA, MMA) in both directions \
        (`fence.proxy.async.shared::cta` / `fence.proxy.async.global`). The TMA-store epilogue \
        is: every thread stores to shared memory, every thread fences, `threadgroup.sync`, one \
        warp issues `tma.shared_to_global`. Runs on every thread of the group.",
    attributes: &[attr("space", FENCE_SPACE)],
    verify: Some(verify_fence),
    format: Format::Declarative("$space attr-dict"),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = FENCE_PROXY_ASYNC.check();

tilus_ir::op_enum! {
    /// The cases of a state space attribute.
    pub enum StateSpace {
        Shared = "shared",
        Global = "global"
    }
}

tilus_ir::op_handle! {
    /// Typed handle of `tma.fence_proxy_async`.
    pub struct FenceProxyAsyncOp = FENCE_PROXY_ASYNC;
    operands {}
    results {}
    attrs {
        space = "space": StateSpace
    }
    regions {}
    successors {}
}

/// `tma.fence_proxy_async_release`.
pub static FENCE_PROXY_ASYNC_RELEASE: OpDef = OpDef {
    name: "tma.fence_proxy_async_release",
    summary: "release fence from the generic proxy to the async proxy (cluster scope)",
    description: "`tma.fence_proxy_async_release` is the one-directional (generic to async) \
        fence `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster` (sm_90): \
        cheaper than `tma.fence_proxy_async shared` when only earlier shared-memory writes must \
        be visible to later async-proxy reads. Runs on every thread of the group.",
    format: Format::Declarative("attr-dict"),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = FENCE_PROXY_ASYNC_RELEASE.check();

tilus_ir::op_handle! {
    /// Typed handle of `tma.fence_proxy_async_release`.
    pub struct FenceProxyAsyncReleaseOp = FENCE_PROXY_ASYNC_RELEASE;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

/// The tma dialect's ops.
pub static OPS: &[&OpDef] = &[
    &GLOBAL_TO_SHARED,
    &SHARED_TO_GLOBAL,
    &COMMIT_GROUP,
    &WAIT_GROUP,
    &FENCE_PROXY_ASYNC,
    &FENCE_PROXY_ASYNC_RELEASE,
];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `tma` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum TmaOpKind for OPS {
        GlobalToShared(GlobalToSharedOp),
        SharedToGlobal(SharedToGlobalOp),
        CommitGroup(CommitGroupOp),
        WaitGroup(WaitGroupOp),
        FenceProxyAsync(FenceProxyAsyncOp),
        FenceProxyAsyncRelease(FenceProxyAsyncReleaseOp),
    }
}

// ----- verifiers --------------------------------------------------------------------------------

fn list(v: &[i64]) -> String {
    format!("[{}]", join_dims(v, ", "))
}

fn swizzle_span(m: SwizzleMode) -> Option<(i64, &'static str)> {
    match m {
        SwizzleMode::None => None,
        SwizzleMode::B32 => Some((32, "32B")),
        SwizzleMode::B64 => Some((64, "64B")),
        SwizzleMode::B128 => Some((128, "128B")),
    }
}

/// The box rules shared by both copy directions.
/// The byte offset of a shared view from its allocation when every slice index on the way
/// is a constant (views through `tilus.permute_shared` and `tilus.reshape_shared` keep the
/// offset); `None` otherwise.
fn static_shared_offset(ctx: &Context, mut v: tilus_ir::Value) -> Option<i64> {
    let mut bytes = 0i128;
    loop {
        let d = ctx.defining_op(v)?;
        if crate::tilus::SharedTensorOp::is(ctx, d) {
            return i64::try_from(bytes).ok();
        }
        if let Some(src) = crate::tilus::same_start_view_source(ctx, d) {
            v = src;
            continue;
        }
        if !crate::tilus::SliceSharedOp::is(ctx, d) {
            return None;
        }
        let src = ctx.operands(d)[0];
        let t = TensorType::of(ctx, ctx.value_type(src))?;
        let layout = t.shared_layout().ok()?;
        for (i, &x) in ctx.operands(d)[1..].iter().enumerate() {
            let idx = crate::tilus_types::const_int(ctx, x)?;
            let elems = i128::from(idx) * i128::from(*layout.strides.get(i)?);
            bytes += elems * i128::from(t.dtype.bits()) / 8;
        }
        v = src;
    }
}

/// A swizzled TMA destination must start at a multiple of the swizzle's repeat (1024, 512 and
/// 256 bytes for 128B, 64B and 32B): the hardware swizzles absolute shared-address bits, so a
/// box written elsewhere lands in a pattern no reader expects. Checked where the offset from
/// the (repeat-aligned) allocation is static.
fn check_swizzle_alignment(
    ctx: &Context,
    op: OpId,
    dst: tilus_ir::Value,
) -> Result<(), Diagnostic> {
    let Some(t) = TensorType::of(ctx, ctx.value_type(dst)) else {
        return Ok(());
    };
    let (align, name) = match t.swizzle {
        SwizzleMode::None => return Ok(()),
        SwizzleMode::B32 => (256, "32B"),
        SwizzleMode::B64 => (512, "64B"),
        SwizzleMode::B128 => (1024, "128B"),
    };
    match static_shared_offset(ctx, dst) {
        Some(off) if off % align != 0 => Err(op_error(
            ctx,
            op,
            format!(
                "expects a {name}-swizzled destination aligned to {align} bytes, but it starts {off} bytes into its allocation"
            ),
        )
        .with_help(format!(
            "a {name} swizzle repeats every {align} bytes and the hardware applies it to absolute addresses; slice the tensor at multiples of {align} bytes"
        ))),
        _ => Ok(()),
    }
}

fn check_box(
    ctx: &Context,
    op: OpId,
    global: tilus_ir::Type,
    shared: tilus_ir::Type,
    num_offsets: usize,
) -> Result<(), Diagnostic> {
    let (Some(g), Some(s)) = (TensorType::of(ctx, global), TensorType::of(ctx, shared)) else {
        return Ok(());
    };
    let grank = g.shape.len();
    if num_offsets != grank {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects {grank} offset{} (one per dimension of the global view '{}'), but found {num_offsets}",
                if grank == 1 { "" } else { "s" },
                type_str(ctx, global)
            ),
        ));
    }
    // The dimensions of the view the box spans.
    let dims: Vec<usize> = match ctx.get_inherent_or_attr(op, "dims") {
        Some(a) => {
            let d = attr_i64s(ctx, a).unwrap_or_default();
            let ok = d.iter().all(|x| *x >= 0 && (*x as usize) < grank)
                && d.windows(2).all(|w| w[0] < w[1])
                && !d.is_empty();
            if !ok {
                return Err(Diagnostic::error(
                    DiagLoc::OpAttr(op, "dims"),
                    format!(
                        "'{}' op expects dims to be strictly increasing dimensions of the global view (0 to {}), but found {}",
                        ctx.op_name_str(op),
                        grank as i64 - 1,
                        list(&d)
                    ),
                ));
            }
            if d.len() != s.shape.len() {
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "expects a shared tensor of rank {} (one dimension per entry of dims), but found rank {}",
                        d.len(),
                        s.shape.len()
                    ),
                ));
            }
            d.into_iter().map(|x| x as usize).collect()
        }
        None => {
            if s.shape.len() != grank {
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "expects a shared tensor of rank {grank} (the global view's rank, or one dimension per entry of dims), but found rank {}",
                        s.shape.len()
                    ),
                ));
            }
            (0..grank).collect()
        }
    };
    let rank = s.shape.len();
    if !(1..=MAX_BOX_RANK).contains(&rank) {
        return Err(op_error(
            ctx,
            op,
            format!("expects a box of rank 1 to {MAX_BOX_RANK}, but found rank {rank}"),
        ));
    }
    if s.dtype != g.dtype {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects the shared tensor's element type to be {} (the global view's), but found {}",
                g.dtype.name(),
                s.dtype.name()
            ),
        ));
    }
    if let Some((d, e)) = s
        .shape
        .iter()
        .enumerate()
        .find(|(_, e)| **e > MAX_BOX_EXTENT)
    {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects every box extent to be at most {MAX_BOX_EXTENT}, but found {e} in dimension {d}"
            ),
        ));
    }
    if let Some(st) = &s.strides {
        let rm = row_major(&s.shape);
        if *st != rm {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects a row-major shared tensor (strides {}; TMA writes the box densely), but found strides {}",
                    list(&rm),
                    list(st)
                ),
            ));
        }
    }
    let bits = s.dtype.bits() as i64;
    let inner = s.shape[rank - 1];
    let row_bits = inner * bits;
    let row_desc = |b: i64| {
        if b % 8 == 0 {
            format!("{} bytes ({inner} x {})", b / 8, s.dtype.name())
        } else {
            format!("{b} bits ({inner} x {})", s.dtype.name())
        }
    };
    if row_bits % 128 != 0 {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects the innermost box row to be a multiple of 16 bytes, but found {}",
                row_desc(row_bits)
            ),
        ));
    }
    if let Some((span, name)) = swizzle_span(s.swizzle) {
        if row_bits > span * 8 {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects the innermost box row to fit the {name} swizzle span ({span} bytes), but found {}",
                    row_desc(row_bits)
                ),
            ));
        }
    }
    // Global strides of the spanned dimensions, as written or implied by the row-major layout.
    let (gstrides, implied) = match &g.strides {
        Some(st) => (st.clone(), false),
        None => {
            let mut st = vec![1i64; grank];
            for k in (0..grank.saturating_sub(1)).rev() {
                st[k] = if st[k + 1] == DYN || g.shape[k + 1] == DYN {
                    DYN
                } else {
                    st[k + 1] * g.shape[k + 1]
                };
            }
            (st, true)
        }
    };
    let innermost = dims[rank - 1];
    if gstrides[innermost] != 1 {
        let found = dim_str(gstrides[innermost]);
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects the global view's stride in dimension {innermost} (the box's innermost) to be 1, but found {found}"
            ),
        ));
    }
    for &d in &dims[..rank - 1] {
        let st = gstrides[d];
        if st != DYN && (st * bits) % 128 != 0 {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects the global view's strides to be multiples of 16 bytes, but found {st} x {} = {} bytes in dimension {d}{}",
                    g.dtype.name(),
                    st * bits / 8,
                    if implied { " (implied by the row-major layout)" } else { "" }
                ),
            ));
        }
    }
    Ok(())
}

fn row_major(shape: &[i64]) -> Vec<i64> {
    let mut st = vec![1i64; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        st[k] = st[k + 1] * shape[k + 1];
    }
    st
}

fn verify_global_to_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let def = &GLOBAL_TO_SHARED;
    let src = operand_group(ctx, def, op, "src")[0];
    let offsets = operand_group(ctx, def, op, "offsets");
    let dst = operand_group(ctx, def, op, "dst")[0];
    let bars = operand_group(ctx, def, op, "barriers")[0];
    let idx = operand_group(ctx, def, op, "barrier_index")[0];
    check_box(
        ctx,
        op,
        ctx.value_type(src),
        ctx.value_type(dst),
        offsets.len(),
    )?;
    check_barrier_index(ctx, op, bars, idx)?;
    check_swizzle_alignment(ctx, op, dst)?;
    if let Some(&m) = operand_group(ctx, def, op, "multicast_mask").first() {
        check_const_range(ctx, op, m, "a multicast CTA mask (16 bits)", 1, 0xffff)?;
        crate::mbarrier::check_in_cluster(ctx, op, m, true)?;
    }
    if let Some(g) = ctx
        .get_inherent_or_attr(op, "cta_group")
        .and_then(|a| attr_i64(ctx, a))
    {
        if g != 1 && g != 2 {
            return Err(Diagnostic::error(
                DiagLoc::OpAttr(op, "cta_group"),
                format!("'tma.global_to_shared' op expects cta_group 1 or 2, but found {g}"),
            ));
        }
        let ctas = crate::mbarrier::cluster_ctas(ctx, op).unwrap_or(2);
        if g == 2 && ctas % 2 != 0 {
            return Err(Diagnostic::error(
                DiagLoc::OpAttr(op, "cta_group"),
                format!("'tma.global_to_shared' op expects cta_group 2 in a kernel whose cluster holds CTA pairs (an even number of CTAs), but the cluster has {ctas}"),
            )
            .with_help("cta_group(2) signals a barrier in the peer CTA of a pair (cluster ranks 2i and 2i + 1): give the kernel a `cluster(...)` with an even number of CTAs"));
        }
    }
    require_group(ctx, op, Need::OneThreadOrAlignedWarp)
}

fn verify_shared_to_global(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    check_box(
        ctx,
        op,
        ctx.value_type(ops[1]),
        ctx.value_type(ops[0]),
        ops.len() - 2,
    )?;
    require_group(ctx, op, Need::OneThreadOrAlignedWarp)
}

fn verify_issue(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    require_group(ctx, op, Need::OneThreadOrAlignedWarp)
}

fn verify_wait_group(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    if let Some(n) = ctx
        .get_inherent_or_attr(op, "n")
        .and_then(|a| attr_i64(ctx, a))
    {
        if !(0..=MAX_WAIT_GROUP).contains(&n) {
            return Err(Diagnostic::error(
                DiagLoc::OpAttr(op, "n"),
                format!("'tma.wait_group' op expects n in [0, {MAX_WAIT_GROUP}], but found {n}"),
            ));
        }
    }
    require_group(ctx, op, Need::OneThreadOrAlignedWarp)
}

fn verify_fence(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    crate::mbarrier::check_enum(ctx, op, "space", &FENCE_SPACE)
}

// ----- custom form of tma.wait_group ---------------------------------------------------------
