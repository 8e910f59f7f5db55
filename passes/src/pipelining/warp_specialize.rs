//! `warp-specialize{producer-warps=1, consumer-warpgroups=K}`: splits the ring that
//! `pipeline{stages=N}` produces into a producer warp and consumer warps.
//!
//! The input is the shape `pipeline` writes (see its module docs): N barriers of count 1
//! (`full` from now on), a `threadgroup.single_thread` prologue filling stages `0 .. min(T, N)`,
//! and a main `scf.for i = 0 to T` directly in the kernel body whose last two `iter_args` are
//! `stage` and `phase`, which waits on `full[stage]`, computes, and refills the stage with tile
//! `i + N` from one thread (`single_thread { scf.if (i + N < T) { announce; copies } }`).
//!
//! The output is shaped like `examples/hopper_matmul_v3_warp_specialized.mlir` with one
//! consumer group:
//!
//! - the kernel gets one more warp (`warps(W + 1)`); warp `W` is the producer
//!   (`threadgroup.single_warp warp(W)`), warps `0 .. W` the consumers
//!   (`threadgroup.warp_group warps(0, W)`);
//! - an `empty` array of N barriers of count `32 * W` (every consumer thread arrives once per
//!   phase) joins `full`;
//! - the producer runs its own `scf.for i = 0 to T` with `(stage, phase)` starting at
//!   `(0, producer_initial_phase)`: it waits on `empty[stage]` (at once on the first round),
//!   one elected thread announces the bytes on `full[stage]`, and the warp issues the copies of
//!   tile `i` (the leader lane issues);
//! - the consumers run the main loop without the prologue, the refill and the block syncs
//!   around the wait and before the refill: each thread waits on `full[stage]` itself and,
//!   after the body (whose async reads have retired: the body ends with the wait for them),
//!   arrives on `empty[stage]` to release the stage. The code after the loop (the epilogue)
//!   and the register tensors only the consumers use move into the consumer group, since the
//!   producer warp holds none of the accumulator;
//! - the shared buffers are freed after a block-wide `threadgroup.sync` that both roles reach.
//!
//! `setmaxnreg` (the register split between roles) has no op yet, so the roles keep the
//! kernel's register budget. More than one consumer warpgroup needs the tile's rows split across
//! groups (a per-group accumulator and A slice); that is not done, and K > 1 is rejected.

use crate::lower::build::LowerBuilder;
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::{CmpIPredicate, IntBinOp};
use tilus_dialects::mbarrier::{
    AllocOp, ArriveExpectTxOp, ArriveOp, ConsumerInitialPhaseOp, ProducerInitialPhaseOp, WaitOp,
};
use tilus_dialects::scf::{ForOp, IfOp, YieldOp};
use tilus_dialects::threadgroup::{SingleThreadOp, SingleWarpOp, SyncOp, WarpGroupOp};
use tilus_dialects::tilus::{FreeSharedOp, KernelOp};
use tilus_dialects::tilus_types::{const_int, BarriersType, Space, TensorType};
use tilus_dialects::tma::GlobalToSharedOp;
use tilus_ir::rewrite::{clone_op, IrMapping};
use tilus_ir::{BlockId, Context, Diagnostic, OpBuilder, OpId, Value};

declare_pass! {
    /// Warp specialization of pipelined TMA rings into a producer warp and consumer warps.
    pub struct WarpSpecialize {
        name: "warp-specialize",
        summary: "Split a pipelined TMA ring into a producer warp and consumer warps",
        description: "Rewrites each ring that `pipeline` produced (N full barriers, a prologue, \
            a main loop that waits, computes and refills its stage from one thread) into a \
            producer warp that waits on N empty barriers, announces the bytes from one elected \
            thread and issues the copies of every tile, and a consumer group of the kernel's \
            original warps that waits on the full barriers, computes and arrives on the empty \
            barrier of the stage it has read. The kernel gains the producer warps. The result \
            has the shape of examples/hopper_matmul_v3_warp_specialized.mlir with one consumer \
            group; verify-barriers proves it for every trip count.",
        options: {
            producer_warps: i64 = 1, "producer-warps", "Warps of the producer group (only 1 is supported)";
            consumer_warpgroups: i64 = 1, "consumer-warpgroups", "Consumer groups splitting the tile's rows (only 1 is supported)";
        },
        statistics: {
            NUM_SPECIALIZED = "num-specialized", "Rings split into producer and consumers";
        },
    }
}

impl Pass for WarpSpecialize {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        if self.producer_warps != 1 {
            return Err(vec![Diagnostic::op(
                op,
                format!(
                    "warp-specialize: producer-warps must be 1 (one warp issues the copies), got {}",
                    self.producer_warps
                ),
            )]);
        }
        if self.consumer_warpgroups != 1 {
            return Err(vec![Diagnostic::op(
                op,
                format!(
                    "warp-specialize: consumer-warpgroups={} is not supported yet: more than one \
                     consumer group needs the tile's rows split across groups (a per-group \
                     accumulator and A slice); only consumer-warpgroups=1 is implemented",
                    self.consumer_warpgroups
                ),
            )]);
        }
        let mut kernels = Vec::new();
        ctx.walk(op, &mut |o| {
            if KernelOp::is(ctx, o) {
                kernels.push(o);
            }
        });
        let mut n = 0;
        for k in kernels {
            let kernel = KernelOp::cast(ctx, k).expect("kernel");
            let Some(&body) = ctx.region_blocks(kernel.body(ctx)).first() else {
                continue;
            };
            let rings: Vec<Ring> = ctx
                .block_ops(body)
                .filter_map(|o| match_ring(ctx, body, o))
                .collect();
            // One ring per kernel: the kernel's other code moves into the consumer group, which
            // can hold one producer/consumer split only.
            if rings.len() != 1 {
                continue;
            }
            if ctx
                .block_ops(body)
                .any(|o| SingleWarpOp::is(ctx, o) || WarpGroupOp::is(ctx, o))
            {
                continue;
            }
            let warps = kernel.warps(ctx);
            if warps + self.producer_warps > 32 {
                return Err(vec![Diagnostic::op(
                    k,
                    format!(
                        "warp-specialize: the kernel has {warps} warps; adding {} producer warp \
                         would exceed the 32 warps of a block",
                        self.producer_warps
                    ),
                )]);
            }
            rewrite(ctx, kernel, body, &rings[0]);
            n += 1;
        }
        stats.add(Self::NUM_SPECIALIZED, n);
        Ok(if n > 0 { Changed::Yes } else { Changed::No })
    }
}

/// A ring of the shape `pipeline` writes.
struct Ring {
    main: ForOp,
    prologue: OpId,
    full: Value,
    stages: i64,
    wait: OpId,
    /// The `single_thread` that refills the stage.
    refill: OpId,
    /// The refill's `scf.if` then-block (announce, copies).
    fill: BlockId,
    /// `i + N`, the tile the refill loads.
    next_tile: Value,
}

fn single_block(ctx: &Context, op: OpId, region: usize) -> Option<BlockId> {
    let r = *ctx.regions(op).get(region)?;
    match ctx.region_blocks(r) {
        [b] => Some(*b),
        _ => None,
    }
}

fn match_ring(ctx: &Context, kbody: BlockId, l: OpId) -> Option<Ring> {
    let main = ForOp::cast(ctx, l)?;
    if const_int(ctx, main.lower_bound(ctx)) != Some(0) || const_int(ctx, main.step(ctx)) != Some(1)
    {
        return None;
    }
    let body = single_block(ctx, l, 0)?;
    let args = ctx.block_args(body).to_vec();
    if args.len() < 3 {
        return None;
    }
    let (iv, stage, phase) = (args[0], args[args.len() - 2], args[args.len() - 1]);
    let ops: Vec<OpId> = ctx.block_ops(body).collect();
    let wait_op = ops
        .iter()
        .copied()
        .find(|&o| WaitOp::cast(ctx, o).is_some_and(|w| w.index(ctx) == stage))?;
    let wait = WaitOp::cast(ctx, wait_op)?;
    if wait.phase(ctx) != phase {
        return None;
    }
    let full = wait.barriers(ctx);
    let alloc = AllocOp::cast(ctx, ctx.defining_op(full)?)?;
    if ctx.op_parent_block(alloc.op()) != Some(kbody) {
        return None;
    }
    let counts = alloc
        .counts(ctx)
        .and_then(|c| ctx.int_array_values(c))
        .unwrap_or_default();
    let stages = BarriersType::of(ctx, ctx.value_type(full))?.count;
    if counts.len() as i64 != stages || counts.iter().any(|&c| c != 1) {
        return None;
    }
    // The refill: single_thread { scf.if (i + N < T) { announce on full[stage]; copies } }.
    let refill = ops.iter().copied().find(|&o| SingleThreadOp::is(ctx, o))?;
    let rblock = single_block(ctx, refill, 0)?;
    let rops: Vec<OpId> = ctx.block_ops(rblock).collect();
    let [iff] = rops[..] else { return None };
    let iff = IfOp::cast(ctx, iff)?;
    let cond = ctx.defining_op(iff.condition(ctx))?;
    let next_tile = *ctx.operands(cond).first()?;
    let add = ctx.defining_op(next_tile)?;
    if !ctx.operands(add).contains(&iv) {
        return None;
    }
    let fill = single_block(ctx, iff.op(), 0)?;
    let mut announced = false;
    let mut copies = 0;
    for o in ctx.block_ops(fill) {
        if let Some(e) = ArriveExpectTxOp::cast(ctx, o) {
            announced |= e.barriers(ctx) == full && e.index(ctx) == stage;
        } else if let Some(c) = GlobalToSharedOp::cast(ctx, o) {
            if c.barriers(ctx) != full || c.barrier_index(ctx) != stage {
                return None;
            }
            copies += 1;
        }
    }
    if !announced || copies == 0 {
        return None;
    }
    // The producer recomputes what the fill reads from the main body: that must be effect-free
    // scalar code and views of `stage` and of `i + N` only.
    let fill_ops: Vec<OpId> = ctx.block_ops(fill).collect();
    for o in fill_ops {
        for v in ctx.operands(o).to_vec() {
            if !recomputable(ctx, v, body, stage, next_tile, 0) {
                return None;
            }
        }
    }
    // The full barriers are used by the prologue, the wait and the refill only.
    let prologue = ctx.block_ops(kbody).take_while(|&o| o != l).find(|&o| {
        SingleThreadOp::is(ctx, o) && ctx.uses(full).iter().any(|u| is_inside(ctx, u.op, o))
    })?;
    if ctx
        .uses(full)
        .iter()
        .any(|u| !is_inside(ctx, u.op, prologue) && !is_inside(ctx, u.op, l))
    {
        return None;
    }
    Some(Ring {
        main,
        prologue,
        full,
        stages,
        wait: wait_op,
        refill,
        fill,
        next_tile,
    })
}

/// Whether the producer can rebuild `v` (read by the fill) outside the main body: `v` is defined
/// outside the body, is the stage or the refilled tile `i + N`, or comes from effect-free ops of
/// the body over such values.
fn recomputable(
    ctx: &Context,
    v: Value,
    body: BlockId,
    stage: Value,
    next_tile: Value,
    depth: usize,
) -> bool {
    if v == stage || v == next_tile {
        return true;
    }
    if ctx.block_args(body).contains(&v) {
        return false;
    }
    let Some(d) = ctx.defining_op(v) else {
        return true;
    };
    if ctx.op_parent_block(d) != Some(body) {
        return true;
    }
    depth < 16
        && ctx.regions(d).is_empty()
        && tilus_ir::rewrite::is_effect_free(ctx, d)
        && ctx
            .operands(d)
            .iter()
            .all(|&o| recomputable(ctx, o, body, stage, next_tile, depth + 1))
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

/// Emits `stage = (stage + 1) % N` and the phase flip on wrap-around; returns both.
fn advance(b: &mut OpBuilder, stage: Value, phase: Value, stages: i64) -> (Value, Value) {
    let ty = b.ctx().value_type(stage);
    let c0 = b.cint(ty, 0);
    let c1 = b.cint(ty, 1);
    let cn = b.cint(ty, stages);
    let s1 = b.int_op(IntBinOp::AddI, stage, c1);
    let wrap = b.cmpi(CmpIPredicate::Eq, s1, cn);
    let ns = b.select(wrap, c0, s1);
    let flip = b.int_op(IntBinOp::XOrI, phase, c1);
    let np = b.select(wrap, flip, phase);
    (ns, np)
}

/// Maps the values of the main loop's body that the fill block reads onto the producer's loop:
/// `i + N` becomes the producer's tile `i`, the stage its stage, and views of the stage (slices)
/// are remade there. Everything else the fill reads is defined outside the main loop.
fn clone_operands_of(
    b: &mut OpBuilder,
    op: OpId,
    main_body: BlockId,
    map: &mut IrMapping,
    pblock: BlockId,
) {
    for v in b.ctx().operands(op).to_vec() {
        if map.lookup_value(v) != v {
            continue;
        }
        let Some(d) = b.ctx().defining_op(v) else {
            continue;
        };
        if b.ctx().op_parent_block(d) != Some(main_body) {
            continue;
        }
        clone_operands_of(b, d, main_body, map, pblock);
        let c = clone_op(b.ctx_mut(), d, map);
        b.ctx_mut().append_op(pblock, c);
    }
}

fn rewrite(ctx: &mut Context, kernel: KernelOp, kbody: BlockId, r: &Ring) {
    let warps = kernel.warps(ctx);
    let consumers = 32 * warps;
    let l = r.main.op();
    let loc = ctx.op(l).loc;
    let trip = r.main.upper_bound(ctx);
    let main_body = single_block(ctx, l, 0).expect("body");
    let margs = ctx.block_args(main_body).to_vec();
    let stage = margs[margs.len() - 2];
    let iv_ty = ctx.value_type(stage);

    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);

    // The empty barriers, next to the full ones.
    let full_alloc = b.ctx().defining_op(r.full).expect("alloc");
    b.set_insertion_point_after(full_alloc);
    let bars_ty = BarriersType::get(b.ctx_mut(), r.stages);
    let counts = b
        .ctx_mut()
        .int_array_attr(64, &vec![consumers; r.stages as usize]);
    let empty = AllocOp::build(&mut b, bars_ty, Some(counts)).barriers(b.ctx());

    // Producer: warp W.
    b.set_insertion_point_before(l);
    let prod = SingleWarpOp::build(&mut b, Some(warps));
    let pregion = prod.body(b.ctx());
    let pouter = b.create_block_in(pregion, &[]);
    b.set_insertion_point_to_end(pouter);
    let pphase0 = ProducerInitialPhaseOp::build(&mut b, iv_ty).phase(b.ctx());
    let c0 = b.cint(iv_ty, 0);
    let c1 = b.cint(iv_ty, 1);
    let pfor = ForOp::build(&mut b, c0, trip, c1, &[c0, pphase0], &[iv_ty, iv_ty], false);
    let pfor_region = pfor.region(b.ctx());
    let pbody = b.create_block_in(pfor_region, &[iv_ty, iv_ty, iv_ty]);
    let pargs = b.ctx().block_args(pbody).to_vec();
    let (pi, pstage, pphase) = (pargs[0], pargs[1], pargs[2]);
    b.set_insertion_point_to_end(pbody);
    WaitOp::build(&mut b, empty, pstage, pphase, None, None);
    let mut map = IrMapping::new();
    map.map_value(r.next_tile, pi);
    map.map_value(stage, pstage);
    let fill_ops: Vec<OpId> = b.ctx().block_ops(r.fill).collect();
    for o in fill_ops {
        if YieldOp::is(b.ctx(), o) {
            continue;
        }
        clone_operands_of(&mut b, o, main_body, &mut map, pbody);
        let c = clone_op(b.ctx_mut(), o, &mut map);
        if ArriveExpectTxOp::is(b.ctx(), o) {
            // One elected thread announces; the warp issues the copies.
            b.set_insertion_point_to_end(pbody);
            let st = SingleThreadOp::build(&mut b, None);
            let sregion = st.body(b.ctx());
            let sblock = b.create_block_in(sregion, &[]);
            b.ctx_mut().append_op(sblock, c);
        } else {
            b.ctx_mut().append_op(pbody, c);
        }
    }
    b.set_insertion_point_to_end(pbody);
    let (ns, np) = advance(&mut b, pstage, pphase, r.stages);
    YieldOp::build(&mut b, &[ns, np]);

    // Consumers: warps 0 .. W.
    b.set_insertion_point_before(l);
    let cons = WarpGroupOp::build(&mut b, 0, warps);
    let cregion = cons.body(b.ctx());
    let cblock = b.create_block_in(cregion, &[]);
    let ctx = b.ctx_mut();

    // The refill becomes the release of the stage.
    let refill_if = ctx
        .block_ops(single_block(ctx, r.refill, 0).expect("refill"))
        .next()
        .expect("if");
    let cond = ctx.operands(refill_if)[0];
    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);
    b.set_insertion_point_before(r.refill);
    ArriveOp::build(&mut b, empty, stage, None, None, None);
    let ctx = b.ctx_mut();
    ctx.erase_op(r.refill);
    for v in [cond, r.next_tile] {
        if let Some(d) = ctx.defining_op(v) {
            if ctx.is_alive(d) && tilus_ir::rewrite::is_trivially_dead(ctx, d) {
                ctx.erase_op(d);
            }
        }
    }
    // The block syncs around the wait and before the release: each consumer waits itself, and
    // the empty barrier counts every consumer thread.
    let ops: Vec<OpId> = ctx.block_ops(main_body).collect();
    if let Some(&after) = ops.iter().skip_while(|&&o| o != r.wait).nth(1) {
        if SyncOp::is(ctx, after) {
            ctx.erase_op(after);
        }
    }
    let ops: Vec<OpId> = ctx.block_ops(main_body).collect();
    let arrive = ops
        .iter()
        .position(|&o| ArriveOp::is(ctx, o))
        .expect("arrive");
    if let Some(&s) = ops[..arrive].iter().rev().find(|&&o| !is_pure_int(ctx, o)) {
        if SyncOp::is(ctx, s) {
            ctx.erase_op(s);
        }
    }

    // The prologue is the producer's first round now.
    ctx.erase_op(r.prologue);

    // Everything from the loop's phase init to the end (but the frees) runs in the consumers.
    let kops: Vec<OpId> = ctx.block_ops(kbody).collect();
    let from = kops
        .iter()
        .position(|&o| o == l)
        .expect("loop in kernel body");
    let mut moved: Vec<OpId> = kops[from..]
        .iter()
        .copied()
        .filter(|&o| !FreeSharedOp::is(ctx, o))
        .collect();
    // Before the loop: the consumer phase init and register tensors only the consumers read.
    for &o in kops[..from].iter().rev() {
        if o == cons.op() || o == prod.op() {
            continue;
        }
        let res = ctx.results(o).to_vec();
        let consumer_only = ConsumerInitialPhaseOp::is(ctx, o)
            || (!res.is_empty()
                && res.iter().all(|&v| {
                    TensorType::of_ref(ctx, ctx.value_type(v))
                        .is_some_and(|t| t.space == Space::Register)
                }));
        let used_by_moved = res.iter().all(|&v| {
            ctx.uses(v)
                .iter()
                .all(|u| moved.iter().any(|&m| m == u.op || is_inside(ctx, u.op, m)))
        });
        if consumer_only && used_by_moved {
            moved.insert(0, o);
        }
    }
    for o in moved {
        ctx.detach_op(o);
        ctx.append_op(cblock, o);
    }
    // Both roles reach one block-wide sync before the buffers are freed.
    let first_free = ctx
        .block_ops(kbody)
        .skip_while(|&o| o != cons.op())
        .find(|&o| FreeSharedOp::is(ctx, o));
    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);
    match first_free {
        Some(f) => b.set_insertion_point_before(f),
        None => b.set_insertion_point_after(cons.op()),
    }
    SyncOp::build(&mut b);
    kernel.set_warps(ctx, warps + 1);
    // The prologue's bound, the refill's guard and the consumers' tile offset are dead now.
    for blk in [main_body, kbody] {
        let ops: Vec<OpId> = ctx.block_ops(blk).collect();
        for &o in ops.iter().rev() {
            if ctx.regions(o).is_empty() && tilus_ir::rewrite::is_trivially_dead(ctx, o) {
                ctx.erase_op(o);
            }
        }
    }
}

/// Scalar code without effects (the refill's guard, left behind when something else reads it).
fn is_pure_int(ctx: &Context, op: OpId) -> bool {
    ctx.regions(op).is_empty()
        && ctx.results(op).len() == 1
        && TensorType::of_ref(ctx, ctx.value_type(ctx.results(op)[0])).is_none()
        && tilus_ir::rewrite::is_effect_free(ctx, op)
}
