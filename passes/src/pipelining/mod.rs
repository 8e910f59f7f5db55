//! `pipeline{stages=N}`: software pipelining of a TMA loop into an N-stage ring.
//!
//! The input is the one-stage loop of `examples/hopper_matmul_v0_tma.mlir` and `..._v1_wgmma.mlir`:
//! an `scf.for` whose body starts with one `threadgroup.single_thread` that announces the bytes
//! on a one-barrier array (`arrive_expect_tx`), issues TMA copies into shared buffers allocated
//! outside the loop, and waits on the barrier with a phase carried in the loop's `iter_args`
//! and flipped every iteration; the rest of the body reads the buffers and ends with
//! `threadgroup.sync` (every thread is done with the tiles before the next copy).
//!
//! The output is shaped like `examples/hopper_matmul_v2_pipeline.mlir`:
//!
//! - each buffer gets a leading stage dimension (`[N, ...]`), and the barrier array becomes N
//!   barriers of count 1;
//! - the loop is renumbered `i = 0 .. T` with `T = ceildiv(ub - lb, step)` and the original
//!   induction value recomputed as `lb + i * step`, so the prologue and the main loop share one
//!   trip count (which the barrier check relates);
//! - prologue: one thread fills stages `0 .. min(T, N)` (announce, copies into the stage's
//!   slice of each buffer);
//! - main loop, with `stage` and `phase` appended to the `iter_args`: every thread waits on
//!   `bars[stage]` for `phase`, the block syncs, the original body runs on the stage's slices,
//!   and one thread refills the stage with tile `i + N` when `i + N < T` (the drain is the
//!   last N iterations, which refill nothing); `stage = (stage + 1) % N` and the phase flips
//!   when the stage wraps.
//!
//! Trip counts below N, not a multiple of N, or known only at run time need nothing special:
//! the prologue's bound is `min(T, N)` and the refill's guard `i + N < T`.
//!
//! **Persistent kernels.** When the loop sits directly in the body of a tile loop (an `scf.for`
//! in the kernel body, as in `examples/hopper_matmul_v1_persistent.mlir`) that carries the
//! barrier's phase from one tile's loop to the next, the ring is carried across tiles instead
//! of drained and refilled per tile: the block's k steps form one walk of `G = tiles * T`
//! steps (step `j` is k step `j rem T` of the block's tile `j / T`, both counts clamped at 0),
//! the prologue before the tile loop fills steps `0 .. min(G, N)`, the tile loop carries the
//! stage and the walk's step at the tile's start (`base`) beside the phase, and the refill
//! loads step `base + i + N` while it is `< G`, recomputing that tile's coordinates (the tile
//! loop's effect-free code the copies read, cloned for tile `lb + (j / T) * step`). The
//! decomposition of `j` is written first and in a fixed form (`divui`, `remui`, `muli`,
//! `addi`), which `warp-specialize` reads back to give the producer its own tile and k loops.
//! The k loop's bounds, the barrier and the buffers must be defined outside the tile loop. A loop that does
//! not have this shape is left alone (the pass reports how many it pipelined), except a loop
//! that stages tiles with plain loads (`tilus.load_global` then `tilus.store_shared` into a
//! buffer allocated outside it), which is rejected with a diagnostic at the store: those loads
//! block their threads, so pipelining them would take a register prefetch (load tile
//! `i + N - 1` before computing tile `i`), which this pass does not build.

mod tma_store_epilogue;
mod warp_specialize;
pub use tma_store_epilogue::TmaStoreEpilogue;
pub use warp_specialize::WarpSpecialize;

use crate::lower::build::LowerBuilder;
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::{CmpIPredicate, IntBinOp, XOrIOp};
use tilus_dialects::layout_algebra::SwizzleMode;
use tilus_dialects::mbarrier::{AllocOp, ArriveExpectTxOp, ConsumerInitialPhaseOp, WaitOp};
use tilus_dialects::scf::{ForOp, IfOp, YieldOp};
use tilus_dialects::threadgroup::{SingleThreadOp, SyncOp};
use tilus_dialects::tilus::{KernelOp, LoadGlobalOp, SharedTensorOp, SliceSharedOp, StoreSharedOp};
use tilus_dialects::tilus_types::{const_int, BarriersType, TensorType};
use tilus_dialects::tma::GlobalToSharedOp;
use tilus_ir::rewrite::{clone_op, IrMapping};
use tilus_ir::{Context, DiagLoc, Diagnostic, OpBuilder, OpId, Type, Value};

declare_pass! {
    /// Software pipelining of one-stage TMA loops. Options: the number of stages.
    pub struct Pipeline {
        name: "pipeline",
        summary: "Pipeline one-stage TMA loops into an N-stage mbarrier ring",
        description: "Rewrites each scf.for that loads its tiles with TMA under one barrier \
            (announce, copy, wait in one threadgroup.single_thread at the top of the body) into \
            an N-stage ring: stage-dimensioned shared buffers, N barriers, a prologue filling \
            min(T, N) stages, and a main loop that waits on its stage, computes and refills the \
            stage with tile i + N, stage and phase carried in iter_args. The result is what \
            examples/hopper_matmul_v2_pipeline.mlir writes by hand, and verify-barriers proves \
            it for every trip count. A loop nested in a persistent kernel's tile loop gets one \
            ring carried across tiles: the block's k steps are one walk, which the prologue \
            and the refills follow into the next tiles (verify-barriers accepts that ring but \
            does not prove it yet).",
        options: {
            stages: i64 = 3, "stages", "Number of stages (shared buffers and barriers) of the ring";
        },
        statistics: {
            NUM_PIPELINED = "num-pipelined", "Loops turned into N-stage rings";
        },
    }
}

impl Pass for Pipeline {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        if !(1..=64).contains(&self.stages) {
            return Err(vec![Diagnostic::op(
                op,
                format!("pipeline: stages must be in [1, 64], got {}", self.stages),
            )]);
        }
        let mut loops = Vec::new();
        ctx.walk(op, &mut |o| {
            if ForOp::is(ctx, o) && in_kernel(ctx, o) {
                loops.push(o);
            }
        });
        let mut n = 0;
        let mut errors = Vec::new();
        for l in loops {
            if !ctx.is_alive(l) {
                continue;
            }
            if let Some(m) = match_loop(ctx, l) {
                rewrite(ctx, &m, self.stages);
                n += 1;
            } else if let Some(d) = plain_load_loop(ctx, l) {
                errors.push(d);
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        stats.add(Self::NUM_PIPELINED, n);
        Ok(if n > 0 { Changed::Yes } else { Changed::No })
    }
}

/// A loop that stages its tiles in shared memory with plain loads (`tilus.load_global` whose
/// result `tilus.store_shared` writes into a buffer allocated outside the loop) is rejected at
/// the store: `pipeline` builds its ring on TMA copies, which complete asynchronously on an
/// mbarrier, and does not rewrite synchronous loads into a register prefetch. Leaving such a
/// loop alone silently would look like a pipelined kernel that is not one.
fn plain_load_loop(ctx: &Context, l: OpId) -> Option<Diagnostic> {
    let f = ForOp::cast(ctx, l)?;
    let body = body_block(ctx, f);
    let store = ctx.block_ops(body).find(|&o| {
        StoreSharedOp::cast(ctx, o).is_some_and(|st| {
            let from_load = ctx
                .defining_op(st.value(ctx))
                .is_some_and(|d| LoadGlobalOp::is(ctx, d) && ctx.op_parent_block(d) == Some(body));
            let outside = ctx
                .defining_op(st.dst(ctx))
                .is_some_and(|d| !is_inside(ctx, d, l));
            from_load && outside
        })
    })?;
    Some(
        Diagnostic::op(
            store,
            "pipeline: this loop brings its tiles to shared memory with plain loads \
             (tilus.load_global, then tilus.store_shared); pipeline{stages=N} pipelines TMA \
             loops only, whose copies complete asynchronously on an mbarrier, and does not turn \
             synchronous loads into a register prefetch",
        )
        .with_note(DiagLoc::Op(l), "the loop")
        .with_help(
            "copy the tile with tma.global_to_shared, announced by mbarrier.arrive_expect_tx \
             and awaited with mbarrier.wait in one threadgroup.single_thread at the top of the \
             body (examples/hopper_matmul_v0_tma.mlir), or leave this loop out of the pipeline",
        ),
    )
}

fn in_kernel(ctx: &Context, op: OpId) -> bool {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if KernelOp::is(ctx, p) {
            return true;
        }
        cur = ctx.parent_op(p);
    }
    false
}

/// A loop of the supported shape.
struct Match {
    for_op: ForOp,
    /// The single_thread that loads.
    load: OpId,
    /// A `threadgroup.sync` right after it (dropped: the pipelined loop syncs after its wait).
    sync_after_load: Option<OpId>,
    bars_alloc: OpId,
    bytes: Value,
    copies: Vec<GlobalToSharedOp>,
    /// The distinct buffers the copies fill (shared_tensor results outside the loop).
    buffers: Vec<Value>,
    /// Position of the phase among the iter_args.
    phase_arg: usize,
    /// The `xori phase, 1` the body yields.
    flip: OpId,
    /// The tile loop around the k loop of a persistent kernel, when the k loop is nested in one.
    outer: Option<Outer>,
}

/// The tile loop of a persistent kernel: an `scf.for` directly in the kernel body whose body
/// holds the k loop and carries the barrier's phase from one tile's k loop to the next (the
/// k loop's phase starts at the tile loop's iter_arg, and the tile loop yields the k loop's
/// final phase). The ring built from the k loop is carried the same way, so a tile starts on the
/// stage the previous one left and the copies run on into the next tile.
struct Outer {
    for_op: ForOp,
    /// Ops of the tile loop's body that the copies read (the tile's coordinates, computed from
    /// the tile loop's induction value), in program order: a fill for another tile recomputes
    /// them.
    coords: Vec<OpId>,
}

pub(super) fn body_block(ctx: &Context, f: ForOp) -> tilus_ir::BlockId {
    ctx.region_blocks(f.region(ctx))[0]
}

fn match_loop(ctx: &Context, l: OpId) -> Option<Match> {
    let f = ForOp::cast(ctx, l)?;
    // i32 loops: the stage and phase share the loop's integer type.
    if !matches!(
        ctx.type_kind(ctx.value_type(f.lower_bound(ctx))),
        tilus_ir::types::TypeKind::Integer { width: 32, .. }
    ) {
        return None;
    }
    let body = body_block(ctx, f);
    let args = ctx.block_args(body).to_vec();
    let ops: Vec<OpId> = ctx.block_ops(body).collect();
    let load = *ops.first()?;
    SingleThreadOp::cast(ctx, load)?;
    let inner_block = *ctx.region_blocks(ctx.regions(load)[0]).first()?;
    let inner: Vec<OpId> = ctx.block_ops(inner_block).collect();
    let expect = ArriveExpectTxOp::cast(ctx, *inner.first()?)?;
    let wait = WaitOp::cast(ctx, *inner.last()?)?;
    let copies: Vec<GlobalToSharedOp> = inner[1..inner.len() - 1]
        .iter()
        .map(|&o| GlobalToSharedOp::cast(ctx, o))
        .collect::<Option<_>>()?;
    if copies.is_empty() {
        return None;
    }
    let bars = expect.barriers(ctx);
    let bars_alloc = ctx.defining_op(bars)?;
    let alloc = AllocOp::cast(ctx, bars_alloc)?;
    let counts = alloc
        .counts(ctx)
        .and_then(|c| ctx.int_array_values(c))
        .unwrap_or_default();
    if counts != [1] || wait.barriers(ctx) != bars {
        return None;
    }
    // The barrier is used by this loop's load only.
    let load_ops: Vec<OpId> = inner.clone();
    if ctx.uses(bars).iter().any(|u| !load_ops.contains(&u.op)) {
        return None;
    }
    let mut buffers = Vec::new();
    for c in &copies {
        if c.barriers(ctx) != bars || c.barrier_index(ctx) != expect.index(ctx) {
            return None;
        }
        let dst = c.dst(ctx);
        let d = ctx.defining_op(dst)?;
        SharedTensorOp::cast(ctx, d)?;
        if ctx.op_parent_block(d) == Some(body) || is_inside(ctx, d, l) {
            return None;
        }
        let t = TensorType::of_ref(ctx, ctx.value_type(dst))?;
        // Compact buffers only, and stages that start on a swizzle period (1024 bytes covers
        // every swizzle mode), so each stage is swizzled as the whole buffer was.
        if t.strides.is_some() || (t.swizzle != SwizzleMode::None && t.nbytes() % 1024 != 0) {
            return None;
        }
        if !buffers.contains(&dst) {
            buffers.push(dst);
        }
    }
    // The phase: an iter_arg flipped by `xori 1` every iteration.
    let phase = wait.phase(ctx);
    let pos = args.iter().position(|&a| a == phase)?;
    if pos == 0 {
        return None;
    }
    let phase_arg = pos - 1;
    let yield_op = YieldOp::cast(ctx, *ops.last()?)?;
    let next = *yield_op.results(ctx).get(phase_arg)?;
    let flip = ctx.defining_op(next)?;
    let x = XOrIOp::cast(ctx, flip)?;
    let one = |v: Value| const_int(ctx, v) == Some(1);
    if !((x.lhs(ctx) == phase && one(x.rhs(ctx))) || (x.rhs(ctx) == phase && one(x.lhs(ctx)))) {
        return None;
    }
    // The phase is used only by the wait and the flip; the flip only by the yield.
    if ctx.uses(phase).len() != 2 || ctx.uses(next).len() != 1 {
        return None;
    }
    // The body's last op before the yield (and the flip) is a block-wide sync: every thread is
    // done with the stage before it is refilled.
    let last = ops.iter().rev().skip(1).find(|&&o| o != flip).copied()?;
    SyncOp::cast(ctx, last)?;
    let sync_after_load = ops.get(1).copied().filter(|&o| SyncOp::is(ctx, o));
    // A k loop inside a tile loop gets a ring carried across tiles; one in the kernel body (or
    // under another op) a ring of its own.
    let parent = ctx.parent_op(l)?;
    let outer = if ForOp::is(ctx, parent) {
        let mut reads: Vec<Value> = vec![expect.bytes(ctx)];
        for c in &copies {
            reads.push(c.src(ctx));
            reads.extend(c.offsets(ctx).iter().copied());
        }
        let old_phase = f.results(ctx).get(phase_arg).copied()?;
        Some(match_outer(
            ctx,
            f,
            parent,
            &reads,
            bars_alloc,
            &buffers,
            f.init_args(ctx).get(phase_arg).copied()?,
            old_phase,
        )?)
    } else {
        None
    };
    Some(Match {
        for_op: f,
        load,
        sync_after_load,
        bars_alloc,
        bytes: expect.bytes(ctx),
        copies,
        buffers,
        phase_arg,
        flip,
        outer,
    })
}

/// Whether `v` is defined outside `op` (not by it, nor inside its regions).
fn defined_outside(ctx: &Context, v: Value, op: OpId) -> bool {
    let owner = match ctx.defining_op(v) {
        Some(d) => Some(d),
        None => ctx
            .value_block(v)
            .and_then(|b| ctx.block_parent(b))
            .and_then(|r| ctx.region_parent(r)),
    };
    owner.is_some_and(|d| d != op && !is_inside(ctx, d, op))
}

/// Matches the tile loop `o` around the k loop `f` (see [`Outer`]): directly in the kernel
/// body, an i32 loop; the k loop's bounds, the barrier and the buffers defined outside it; the
/// k loop's phase init `phase_init` an iter_arg of `o` used only there, which `o` yields as
/// the k loop's final phase `phase_out`; and every value the fill reads (`reads`) either the k
/// loop's induction value, defined outside `o`, or computed from `o`'s induction value by
/// effect-free ops of `o`'s body.
#[allow(clippy::too_many_arguments)]
fn match_outer(
    ctx: &Context,
    f: ForOp,
    o: OpId,
    reads: &[Value],
    bars_alloc: OpId,
    buffers: &[Value],
    phase_init: Value,
    phase_out: Value,
) -> Option<Outer> {
    let of = ForOp::cast(ctx, o)?;
    if !ctx.parent_op(o).is_some_and(|k| KernelOp::is(ctx, k)) {
        return None;
    }
    let obody = body_block(ctx, of);
    if ctx.op_parent_block(f.op()) != Some(obody) {
        return None;
    }
    let oargs = ctx.block_args(obody).to_vec();
    let same_ty = ctx.value_type(oargs[0]) == ctx.value_type(f.lower_bound(ctx));
    let invariant = [f.lower_bound(ctx), f.upper_bound(ctx), f.step(ctx)]
        .iter()
        .all(|&v| defined_outside(ctx, v, o));
    if !same_ty || !invariant || is_inside(ctx, bars_alloc, o) {
        return None;
    }
    if buffers
        .iter()
        .any(|&b| ctx.defining_op(b).is_none_or(|d| is_inside(ctx, d, o)))
    {
        return None;
    }
    // The phase goes around the tile loop: in through an iter_arg, out through the yield.
    let pos = oargs.iter().position(|&a| a == phase_init)?;
    if pos == 0 || ctx.uses(phase_init).len() != 1 || ctx.uses(phase_out).len() != 1 {
        return None;
    }
    let oyield = YieldOp::cast(ctx, ctx.block_last(obody)?)?;
    if oyield.results(ctx).get(pos - 1) != Some(&phase_out) {
        return None;
    }
    // The tile coordinates the fill reads.
    let k_loop = f.op();
    let kiv = ctx.block_args(body_block(ctx, f))[0];
    let mut coords: Vec<OpId> = Vec::new();
    let mut stack: Vec<Value> = reads.to_vec();
    while let Some(v) = stack.pop() {
        if v == kiv || v == oargs[0] || defined_outside(ctx, v, o) {
            continue;
        }
        let d = ctx.defining_op(v)?;
        if ctx.op_parent_block(d) != Some(obody)
            || d == k_loop
            || !ctx.regions(d).is_empty()
            || !tilus_ir::rewrite::is_effect_free(ctx, d)
        {
            return None;
        }
        if !coords.contains(&d) {
            coords.push(d);
            stack.extend(ctx.operands(d).iter().copied());
        }
        if coords.len() > 256 {
            return None;
        }
    }
    let coords = ctx
        .block_ops(obody)
        .filter(|o| coords.contains(o))
        .collect();
    Some(Outer { for_op: of, coords })
}

fn is_inside(ctx: &Context, op: OpId, ancestor: OpId) -> bool {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if p == ancestor {
            return true;
        }
        cur = ctx.parent_op(p);
    }
    false
}

/// Emits the announcement and the copies into stage `stage` on `bars[stage]`, their operands
/// read through `map` (the k loop's induction value mapped to the filled tile's, and in a
/// persistent kernel the tile coordinates to those recomputed for the filled tile).
fn emit_fill(
    b: &mut OpBuilder,
    m: &Match,
    map: &IrMapping,
    slices: &[(Value, Value)],
    bars: Value,
    stage: Value,
) {
    ArriveExpectTxOp::build(b, bars, stage, map.lookup_value(m.bytes), None, None);
    for c in &m.copies {
        let ctx = b.ctx();
        let src = map.lookup_value(c.src(ctx));
        let offsets: Vec<Value> = c
            .offsets(ctx)
            .iter()
            .map(|&o| map.lookup_value(o))
            .collect();
        let dst = c.dst(ctx);
        let dims = c.dims(ctx);
        let cta = c.cta_group(ctx);
        let mask = c.multicast_mask(ctx);
        let slice = slices
            .iter()
            .find(|(buf, _)| *buf == dst)
            .map(|(_, s)| *s)
            .unwrap_or(dst);
        GlobalToSharedOp::build(b, src, &offsets, slice, bars, stage, mask, dims, cta);
    }
}

/// The slices `buffer[stage]` of the staged buffers, for each original buffer.
fn emit_slices(
    b: &mut OpBuilder,
    m: &Match,
    staged: &[Value],
    stage: Value,
) -> Vec<(Value, Value)> {
    let mut out = Vec::new();
    for (orig, new) in m.buffers.iter().zip(staged) {
        let ty = b.ctx().value_type(*orig);
        let s = SliceSharedOp::build(b, *new, &[stage], ty).result(b.ctx());
        out.push((*orig, s));
    }
    out
}

/// The k loop's bounds and the values the fills share.
struct Ring {
    lb: Value,
    step: Value,
    /// The k loop's trip count T (clamped at 0 in a persistent kernel).
    trip: Value,
    staged: Vec<Value>,
    bars: Value,
}

impl Ring {
    /// The k loop's induction value of iteration `i`: `lb + i * step`.
    fn tile_of(&self, b: &mut OpBuilder, i: Value) -> Value {
        let off = if const_int(b.ctx(), self.step) == Some(1) {
            i
        } else {
            b.int_op(IntBinOp::MulI, i, self.step)
        };
        if const_int(b.ctx(), self.lb) == Some(0) {
            off
        } else {
            b.int_op(IntBinOp::AddI, self.lb, off)
        }
    }
}

/// Emits, at the end of `block`, the fill of step `j` of a persistent kernel's linear walk
/// (k step `j rem T` of the block's tile `j / T`, that tile's induction value
/// `lb' + (j / T) * step'` of the tile loop) into `stage`: the tile coordinates are recomputed
/// for that tile, then announced and copied. The four ops that decompose `j` come first and
/// always in this form (`divui`, `remui`, `muli`, `addi`): `warp-specialize` reads the tile and
/// the k step back from them.
#[allow(clippy::too_many_arguments)]
fn emit_linear_fill(
    b: &mut OpBuilder,
    m: &Match,
    o: &Outer,
    of: ForOp,
    ring: &Ring,
    block: tilus_ir::BlockId,
    j: Value,
    stage: Value,
) {
    let (olb, ostep) = (of.lower_bound(b.ctx()), of.step(b.ctx()));
    let oiv = b.ctx().block_args(body_block(b.ctx(), of))[0];
    let kiv = b.ctx().block_args(body_block(b.ctx(), m.for_op))[0];
    let u = b.int_op(IntBinOp::DivUI, j, ring.trip);
    let r = b.int_op(IntBinOp::RemUI, j, ring.trip);
    let tu = b.int_op(IntBinOp::MulI, u, ostep);
    let t = b.int_op(IntBinOp::AddI, olb, tu);
    let mut map = IrMapping::new();
    map.map_value(oiv, t);
    for &c in &o.coords {
        let n = clone_op(b.ctx_mut(), c, &mut map);
        b.ctx_mut().append_op(block, n);
    }
    b.set_insertion_point_to_end(block);
    let kk = ring.tile_of(b, r);
    map.map_value(kiv, kk);
    let slices = emit_slices(b, m, &ring.staged, stage);
    emit_fill(b, m, &map, &slices, ring.bars, stage);
}

/// Rebuilds the loop `f` with `extra` appended to its iter_args (initial values), the body moved
/// over; returns the new loop. The caller extends its yield.
pub(super) fn add_iter_args(ctx: &mut Context, f: ForOp, extra: &[Value]) -> ForOp {
    let l = f.op();
    let loc = ctx.op(l).loc;
    let mut inits = f.init_args(ctx).to_vec();
    inits.extend_from_slice(extra);
    let types: Vec<Type> = inits.iter().map(|&v| ctx.value_type(v)).collect();
    let (lb, ub, step) = (f.lower_bound(ctx), f.upper_bound(ctx), f.step(ctx));
    let unsigned = f.unsigned_cmp(ctx);
    let old_block = body_block(ctx, f);
    let old_args = ctx.block_args(old_block).to_vec();
    let old_results = f.results(ctx).to_vec();
    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);
    b.set_insertion_point_before(l);
    let nf = ForOp::build(&mut b, lb, ub, step, &inits, &types, unsigned);
    let region = nf.region(b.ctx());
    let mut arg_types = vec![b.ctx().value_type(old_args[0])];
    arg_types.extend(types.iter().copied());
    let block = b.create_block_in(region, &arg_types);
    let new_args = ctx.block_args(block).to_vec();
    for (&o, &n) in old_args.iter().zip(&new_args) {
        ctx.replace_all_uses(o, n);
    }
    let ops: Vec<OpId> = ctx.block_ops(old_block).collect();
    for op in ops {
        ctx.detach_op(op);
        ctx.append_op(block, op);
    }
    let new_results = nf.results(ctx).to_vec();
    for (&o, &n) in old_results.iter().zip(&new_results) {
        ctx.replace_all_uses(o, n);
    }
    ctx.erase_op(l);
    nf
}

fn rewrite(ctx: &mut Context, m: &Match, stages: i64) {
    let f = m.for_op;
    let l = f.op();
    let loc = ctx.op(l).loc;
    let lb = f.lower_bound(ctx);
    let ub = f.upper_bound(ctx);
    let step = f.step(ctx);
    let iv_ty = ctx.value_type(lb);
    let body = body_block(ctx, f);
    let old_args = ctx.block_args(body).to_vec();
    let old_iv = old_args[0];
    let old_results = f.results(ctx).to_vec();
    // The ring's set-up goes before the tile loop of a persistent kernel, else before the loop.
    let anchor = m.outer.as_ref().map_or(l, |o| o.for_op.op());

    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);
    b.set_insertion_point_before(anchor);

    // Staged buffers and barriers.
    let mut staged = Vec::new();
    for &buf in &m.buffers {
        let mut t = TensorType::of(b.ctx(), b.ctx().value_type(buf)).expect("shared tensor");
        t.shape.insert(0, stages);
        let ty = t.get(b.ctx_mut());
        staged.push(SharedTensorOp::build(&mut b, ty).result(b.ctx()));
    }
    let bars_ty = BarriersType::get(b.ctx_mut(), stages);
    let counts = b.ctx_mut().int_array_attr(64, &vec![1; stages as usize]);
    let bars = AllocOp::build(&mut b, bars_ty, Some(counts)).barriers(b.ctx());

    // Trip count T and the prologue's min(T, N).
    let c0 = b.cint(iv_ty, 0);
    let c1 = b.cint(iv_ty, 1);
    let cn = b.cint(iv_ty, stages);
    let lb0 = const_int(b.ctx(), lb) == Some(0);
    let step1 = const_int(b.ctx(), step) == Some(1);
    let span = if lb0 {
        ub
    } else {
        b.int_op(IntBinOp::SubI, ub, lb)
    };
    let mut trip = if step1 {
        span
    } else {
        b.int_op(IntBinOp::CeilDivSI, span, step)
    };
    // A persistent kernel's ring walks all the block's k steps in one sequence: `G = tiles * T`
    // steps, step `j` being k step `j rem T` of the block's tile `j / T`. Both counts are
    // clamped at zero (a block with no tile, an empty K).
    let mut total = trip;
    if let Some(o) = &m.outer {
        let of = o.for_op;
        let (olb, oub, ostep) = (
            of.lower_bound(b.ctx()),
            of.upper_bound(b.ctx()),
            of.step(b.ctx()),
        );
        trip = b.int_op(IntBinOp::MaxSI, trip, c0);
        let ospan = b.int_op(IntBinOp::SubI, oub, olb);
        let otrip = b.int_op(IntBinOp::CeilDivSI, ospan, ostep);
        let otrip = b.int_op(IntBinOp::MaxSI, otrip, c0);
        total = b.int_op(IntBinOp::MulI, otrip, trip);
    }
    let npre = b.int_op(IntBinOp::MinSI, total, cn);
    let ring = Ring {
        lb,
        step,
        trip,
        staged: staged.clone(),
        bars,
    };

    // Prologue: one thread fills stages 0 .. min(T, N) (0 .. min(G, N) across tiles).
    let pro = SingleThreadOp::build(&mut b, None);
    let pro_region = pro.body(b.ctx());
    let pro_block = b.create_block_in(pro_region, &[]);
    b.set_insertion_point_to_end(pro_block);
    let pfor = ForOp::build(&mut b, c0, npre, c1, &[], &[], false);
    let pfor_region = pfor.region(b.ctx());
    let pbody = b.create_block_in(pfor_region, &[iv_ty]);
    let s = b.ctx().block_args(pbody)[0];
    b.set_insertion_point_to_end(pbody);
    match &m.outer {
        Some(o) => emit_linear_fill(&mut b, m, o, o.for_op, &ring, pbody, s, s),
        None => {
            let kk = ring.tile_of(&mut b, s);
            let mut map = IrMapping::new();
            map.map_value(old_iv, kk);
            let slices = emit_slices(&mut b, m, &staged, s);
            emit_fill(&mut b, m, &map, &slices, bars, s);
        }
    }
    YieldOp::build(&mut b, &[]);

    // A persistent kernel's tile loop carries the ring: the stage, and the first step `base` of
    // the tile in the linear walk (the phase it carries already).
    let outer = m.outer.as_ref().map(|o| {
        let nf = add_iter_args(b.ctx_mut(), o.for_op, &[c0, c0]);
        let args = b.ctx().block_args(body_block(b.ctx(), nf)).to_vec();
        (nf, args[args.len() - 2], args[args.len() - 1])
    });
    // Re-read: an init that was the tile loop's iter_arg is the rebuilt loop's now.
    let inits = f.init_args(b.ctx()).to_vec();
    b.set_insertion_point_before(l);

    // Main loop: the old iter_args without the phase, then stage and phase.
    let (stage0, phase0) = match outer {
        Some((_, stage_o, _)) => (stage_o, inits[m.phase_arg]),
        None => (
            c0,
            ConsumerInitialPhaseOp::build(&mut b, iv_ty).phase(b.ctx()),
        ),
    };
    let mut new_inits: Vec<Value> = inits
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != m.phase_arg)
        .map(|(_, v)| *v)
        .collect();
    new_inits.push(stage0);
    new_inits.push(phase0);
    let types: Vec<Type> = new_inits.iter().map(|&v| b.ctx().value_type(v)).collect();
    let main = ForOp::build(&mut b, c0, trip, c1, &new_inits, &types, false);
    let main_region = main.region(b.ctx());
    let mut arg_types = vec![iv_ty];
    arg_types.extend(types.iter().copied());
    let mbody = b.create_block_in(main_region, &arg_types);
    let margs = b.ctx().block_args(mbody).to_vec();
    let i = margs[0];
    let stage = margs[margs.len() - 2];
    let phase = margs[margs.len() - 1];
    b.set_insertion_point_to_end(mbody);

    let mut map = IrMapping::new();
    let kk = ring.tile_of(&mut b, i);
    map.map_value(old_iv, kk);
    let mut k = 1;
    for (j, &a) in old_args[1..].iter().enumerate() {
        if j == m.phase_arg {
            continue;
        }
        map.map_value(a, margs[k]);
        k += 1;
    }
    WaitOp::build(&mut b, bars, stage, phase, None, None);
    SyncOp::build(&mut b);
    let slices = emit_slices(&mut b, m, &staged, stage);
    for &(orig, s) in &slices {
        map.map_value(orig, s);
    }
    // Views of the buffers made outside the loop (a transpose) are remade on the slice.
    let ops: Vec<OpId> = b.ctx().block_ops(body).collect();
    let mut outside_views = Vec::new();
    for &o in &ops {
        for &v in b.ctx().operands(o).to_vec().iter() {
            if let Some(d) = b.ctx().defining_op(v) {
                if !is_inside(b.ctx(), d, l)
                    && !outside_views.contains(&d)
                    && derives_from(b.ctx(), v, &m.buffers)
                    && SharedTensorOp::cast(b.ctx(), d).is_none()
                {
                    outside_views.push(d);
                }
            }
        }
    }
    for &vop in &outside_views {
        let c = clone_op(b.ctx_mut(), vop, &mut map);
        b.ctx_mut().append_op(mbody, c);
    }
    let yield_op = *ops.last().expect("terminator");
    for &o in &ops {
        if o == m.load || Some(o) == m.sync_after_load || o == m.flip || o == yield_op {
            continue;
        }
        let c = clone_op(b.ctx_mut(), o, &mut map);
        b.ctx_mut().append_op(mbody, c);
    }
    // Refill the stage with step i + N of the walk while there is one: tile i + N of this k
    // loop, or in a persistent kernel step base + i + N of the block's linear walk, which runs
    // on into the next tiles.
    let j = match outer {
        Some((_, _, base)) => {
            let g = b.int_op(IntBinOp::AddI, base, i);
            b.add_const(g, stages)
        }
        None => b.add_const(i, stages),
    };
    let more = b.cmpi(CmpIPredicate::Slt, j, total);
    let refill = SingleThreadOp::build(&mut b, None);
    let rregion = refill.body(b.ctx());
    let rblock = b.create_block_in(rregion, &[]);
    b.set_insertion_point_to_end(rblock);
    let iff = IfOp::build(&mut b, more, &[]);
    let then_r = iff.then_region(b.ctx());
    let tblock = b.create_block_in(then_r, &[]);
    b.set_insertion_point_to_end(tblock);
    match &m.outer {
        Some(o) => {
            let (nf, _, _) = outer.expect("tile loop");
            emit_linear_fill(&mut b, m, o, nf, &ring, tblock, j, stage)
        }
        None => {
            let kkj = ring.tile_of(&mut b, j);
            let mut fmap = IrMapping::new();
            fmap.map_value(old_iv, kkj);
            emit_fill(&mut b, m, &fmap, &slices, bars, stage);
        }
    }
    YieldOp::build(&mut b, &[]);
    b.set_insertion_point_to_end(mbody);
    // Advance the ring.
    let s1 = b.add_const(stage, 1);
    let wrap = b.cmpi(CmpIPredicate::Eq, s1, cn);
    let ns = b.select(wrap, c0, s1);
    let flip = b.int_op(IntBinOp::XOrI, phase, c1);
    let np = b.select(wrap, flip, phase);
    let old_yield = YieldOp::cast(b.ctx(), yield_op).expect("yield");
    let mut yielded: Vec<Value> = old_yield
        .results(b.ctx())
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != m.phase_arg)
        .map(|(_, &v)| map.lookup_value(v))
        .collect();
    yielded.push(ns);
    yielded.push(np);
    YieldOp::build(&mut b, &yielded);

    // Replace the old loop's results, then the old loop, barriers and buffers.
    let new_results = main.results(ctx).to_vec();
    let mut k = 0;
    for (j, &r) in old_results.iter().enumerate() {
        if j == m.phase_arg {
            // The tile loop yields the ring's phase where it yielded the barrier's.
            ctx.replace_all_uses(r, new_results[new_results.len() - 1]);
            continue;
        }
        ctx.replace_all_uses(r, new_results[k]);
        k += 1;
    }
    // The tile loop yields the ring's stage and the next tile's first step.
    if let Some((nf, _, base)) = outer {
        let ob = body_block(ctx, nf);
        let oy = ctx.block_last(ob).expect("terminator");
        let mut vals = YieldOp::cast(ctx, oy).expect("yield").results(ctx).to_vec();
        let mut b = OpBuilder::new(ctx);
        b.set_loc(loc);
        b.set_insertion_point_before(oy);
        let next_base = b.int_op(IntBinOp::AddI, base, trip);
        vals.push(new_results[new_results.len() - 2]);
        vals.push(next_base);
        YieldOp::build(&mut b, &vals);
        ctx.erase_op(oy);
    }
    ctx.erase_op(l);
    ctx.erase_op(m.bars_alloc);
    // The old phase's initial value, when nothing else uses it.
    let old_phase0 = inits[m.phase_arg];
    if let Some(d) = ctx.defining_op(old_phase0) {
        if tilus_ir::rewrite::is_trivially_dead(ctx, d) {
            ctx.erase_op(d);
        }
    }
    for (&orig, &new) in m.buffers.iter().zip(&staged) {
        // Views made outside the loop for it are dead now.
        for u in ctx.uses(orig).to_vec() {
            if ctx.is_alive(u.op)
                && ctx.results(u.op).len() == 1
                && ctx.uses(ctx.results(u.op)[0]).is_empty()
            {
                ctx.erase_op(u.op);
            }
        }
        ctx.replace_all_uses(orig, new);
        if let Some(d) = ctx.defining_op(orig) {
            ctx.erase_op(d);
        }
    }
}

/// Whether `v` is one of `buffers` or a view chain of one.
fn derives_from(ctx: &Context, v: Value, buffers: &[Value]) -> bool {
    let mut cur = v;
    for _ in 0..16 {
        if buffers.contains(&cur) {
            return true;
        }
        let Some(d) = ctx.defining_op(cur) else {
            return false;
        };
        let ops = ctx.operands(d);
        if ops.len() != 1 {
            return false;
        }
        cur = ops[0];
    }
    false
}
