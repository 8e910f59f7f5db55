//! `warp-specialize{producer-warps=1, consumer-warpgroups=K, producer-regs=P, consumer-regs=C}`:
//! splits the ring that `pipeline{stages=N}` produces into a producer and K consumer groups.
//!
//! The input is the shape `pipeline` writes (see its module docs): N barriers of count 1
//! (`full` from now on), a `threadgroup.single_thread` prologue filling stages `0 .. min(T, N)`,
//! and a main `scf.for i = 0 to T` directly in the kernel body whose last two `iter_args` are
//! `stage` and `phase`, which waits on `full[stage]`, computes, and refills the stage with tile
//! `i + N` from one thread (`single_thread { scf.if (i + N < T) { announce; copies } }`).
//!
//! In a persistent kernel (`pipeline`'s ring carried across tiles: the main loop in a tile loop
//! of the kernel body, the refill reading its tile and k step from the decomposition of the
//! walk's step) the producer walks the same tile loop with its own (stage, phase) carried from
//! tile to tile, computing each tile's coordinates once before its k loop, and the consumers
//! keep the tile loop with the k loop and the epilogue: the result has the shape of
//! `examples/hopper_matmul_v4_persistent.mlir`.
//!
//! **`mma-in-flight=1`** (N >= 2) relaxes the consumers' `wgmma.wait_group 0` before the release
//! to `wait_group 1` and releases the previous k step's stage from the second k step on, with
//! `wait_group 0` after the loop (and, in a persistent kernel, the release of the last stage,
//! which the producer needs for the next tile), as v4 does.
//!
//! The output is shaped like `examples/hopper_matmul_v3_warp_specialized.mlir`. With `W` the
//! kernel's warps:
//!
//! - consumer group `g` (of K) is `threadgroup.warp_group warps(g * W, W)`; the producer follows
//!   them at warp `K * W`: with `setmaxnreg` (the default) it is the whole warpgroup
//!   `warp_group warps(K * W, 4)`, which runs `setmaxnreg dec P` and lets its first warp issue
//!   the copies (the instruction must be executed by every warp of a warpgroup), otherwise the
//!   single warp `single_warp warp(K * W)`. The kernel gets `K * W + 4` (or `+ 1`) warps;
//! - an `empty` array of N barriers of count `32 * W * K` (every consumer thread of every group
//!   arrives once per phase) joins `full`;
//! - the producer runs its own `scf.for i = 0 to T` with `(stage, phase)` starting at
//!   `(0, producer_initial_phase)`: it waits on `empty[stage]` (at once on the first round),
//!   one elected thread announces the bytes on `full[stage]`, and the warp issues the copies of
//!   tile `i` (the leader lane issues);
//! - the consumers start with `setmaxnreg inc C` and run the main loop without the prologue,
//!   the refill and the block syncs around the wait and before the refill: each thread waits on
//!   `full[stage]` itself and, after the body (whose async reads have retired: the body ends
//!   with the wait for them), arrives on `empty[stage]` to release the stage. The code after
//!   the loop (the epilogue) and the register tensors only the consumers use move into the
//!   consumer groups, since the producer holds none of the accumulator;
//! - the shared buffers are freed after a block-wide `threadgroup.sync` that both roles reach.
//!
//! **Registers.** A block of `n` threads starts with `65536 / n` registers per thread (rounded
//! down to 8, at most 248; `.maxnreg` pins it in the PTX). The producer keeps P (default 40); C
//! defaults to the most that fits: `(65536 - 128 * P) / (consumer threads)`, rounded down to 8,
//! at most 256 (K = 1: 256, K = 2: 232, K = 3: 152). The pass rejects a split that overcommits
//! the register file (the consumers' `inc` would wait forever), a P above or a C below the
//! launch count, and kernels whose warps are not whole warpgroups; `producer-regs=0
//! consumer-regs=0` leaves `setmaxnreg` out.
//!
//! **K > 1 (cooperative consumers).** The tile's BM rows split into K slices of BM / K, a
//! multiple of 64 (wgmma's M): the consumer's `wgmma.mma` must read A as the stage's slice of
//! one staged buffer `[N, BM, BK]` and accumulate in the wgmma fragment layout. The A buffer
//! becomes `[N, K, BM / K, BK]`; the producer fills it with K TMA boxes of BM / K rows (at row
//! offsets `+ g * BM / K`, the announced bytes unchanged); group `g` reads `a[stage, g]`,
//! accumulates BM / K rows (every register tensor of the accumulator's chain is retyped to the
//! group's wgmma layout) and stores them at row offset `+ g * BM / K`. B is shared. A consumer
//! that reads the accumulator with other ops, or computes with `tilus.dot`, is rejected for
//! K > 1 with a diagnostic.

use crate::lower::build::LowerBuilder;
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::{AddIOp, CmpIPredicate, DivUIOp, IntBinOp, MulIOp, RemUIOp};
use tilus_dialects::layout_algebra::{wgmma_accumulator, RegisterLayout};
use tilus_dialects::mbarrier::{
    AllocOp, ArriveExpectTxOp, ArriveOp, ConsumerInitialPhaseOp, ProducerInitialPhaseOp, WaitOp,
};
use tilus_dialects::scf::{ForOp, IfOp, YieldOp};
use tilus_dialects::threadgroup::{
    self, RegisterAction, SetMaxNRegOp, SingleThreadOp, SingleWarpOp, SyncOp, WarpGroupOp,
};
use tilus_dialects::tilus::{
    CastOp, FreeSharedOp, KernelOp, SharedTensorOp, SliceSharedOp, StoreGlobalOp,
};
use tilus_dialects::tilus_types::{const_int, BarriersType, Space, TensorType};
use tilus_dialects::tma::GlobalToSharedOp;
use tilus_dialects::wgmma::{MmaOp, WaitGroupOp};
use tilus_ir::rewrite::{clone_op, IrMapping};
use tilus_ir::{BlockId, Context, Diagnostic, OpBuilder, OpId, Value};

declare_pass! {
    /// Warp specialization of pipelined TMA rings into a producer and consumer warpgroups.
    pub struct WarpSpecialize {
        name: "warp-specialize",
        summary: "Split a pipelined TMA ring into a producer and consumer warpgroups",
        description: "Rewrites each ring that `pipeline` produced (N full barriers, a prologue, \
            a main loop that waits, computes and refills its stage from one thread) into a \
            producer that waits on N empty barriers, announces the bytes from one elected \
            thread and issues the copies of every tile, and K consumer warpgroups that wait on \
            the full barriers, compute their slice of the tile's rows (K > 1 splits the \
            accumulator and A across the groups, by the rows of its wgmma fragment layout: a \
            kernel written without layouts is laid out first, as infer-layouts would) and \
            arrive on the empty barrier of the stage they have read. With setmaxnreg (the default) the producer is a whole warpgroup \
            that releases registers to the consumers. The result has the shape of \
            examples/hopper_matmul_v3_warp_specialized.mlir; verify-barriers proves it for \
            every trip count. A ring carried across a persistent kernel's tiles gives a \
            producer that walks the same tiles (v4's shape), which verify-barriers accepts \
            but does not prove yet.",
        options: {
            producer_warps: i64 = 1, "producer-warps", "Warps of the producer group (only 1 is supported)";
            consumer_warpgroups: i64 = 1, "consumer-warpgroups", "Consumer groups splitting the tile's rows (K > 1 needs wgmma consumers)";
            producer_regs: i64 = 40, "producer-regs", "Registers per thread the producer warpgroup keeps (setmaxnreg.dec); 0: no setmaxnreg for it";
            consumer_regs: i64 = -1, "consumer-regs", "Registers per thread of each consumer warpgroup (setmaxnreg.inc); 0: no setmaxnreg for them; -1: the most the register file leaves them";
            mma_in_flight: i64 = 0, "mma-in-flight", "wgmma groups a consumer keeps in flight at its release: 0 waits for its MMA and releases its stage, 1 waits for the previous k step's MMA only and releases the previous stage (needs stages >= 2)";
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
        if !(1..=7).contains(&self.consumer_warpgroups) {
            return Err(vec![Diagnostic::op(
                op,
                format!(
                    "warp-specialize: consumer-warpgroups must be in [1, 7] (7 warpgroups and \
                     the producer fill the 32 warps of a block), got {}",
                    self.consumer_warpgroups
                ),
            )]);
        }
        for (name, v, auto) in [
            ("producer-regs", self.producer_regs, false),
            ("consumer-regs", self.consumer_regs, true),
        ] {
            let ok = v == 0
                || (auto && v == -1)
                || ((threadgroup::MIN_REGS..=threadgroup::MAX_REGS).contains(&v) && v % 8 == 0);
            if !ok {
                return Err(vec![Diagnostic::op(
                    op,
                    format!(
                        "warp-specialize: {name} must be 0 (no setmaxnreg){} or a multiple of 8 \
                         in [{}, {}] (setmaxnreg's range), got {v}",
                        if auto {
                            ", -1 (the most that fits)"
                        } else {
                            ""
                        },
                        threadgroup::MIN_REGS,
                        threadgroup::MAX_REGS
                    ),
                )]);
            }
        }
        if !(0..=1).contains(&self.mma_in_flight) {
            return Err(vec![Diagnostic::op(
                op,
                format!(
                    "warp-specialize: mma-in-flight must be 0 or 1, got {}",
                    self.mma_in_flight
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
                .filter_map(|o| {
                    match_ring(ctx, body, o, None).or_else(|| match_persistent(ctx, body, o))
                })
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
            // The row split follows the accumulator's wgmma fragment layout: a kernel written
            // without layouts gets them first, as `infer-layouts` (which `tilus-to-ptx` runs
            // first anyway) would give them.
            if self.consumer_warpgroups > 1 && has_unlaid_tiles(ctx, k) {
                crate::infer_layouts::infer_kernel(ctx, k, true).map_err(|d| vec![d])?;
            }
            let warps = kernel.warps(ctx);
            let groups = self.consumer_warpgroups;
            let with_regs = self.producer_regs != 0 || self.consumer_regs != 0;
            // With setmaxnreg the producer is a whole warpgroup (the instruction is executed by
            // every warp of one), of which one warp issues the copies.
            let producer = if with_regs { 4 } else { self.producer_warps };
            let total = groups * warps + producer;
            if total > 32 {
                return Err(vec![Diagnostic::op(
                    k,
                    format!(
                        "warp-specialize: the kernel has {warps} warps; {groups} consumer group{} \
                         of {warps} and a producer of {producer} warp{} make {total}, more than \
                         the 32 warps of a block",
                        if groups == 1 { "" } else { "s" },
                        if producer == 1 { "" } else { "s" },
                    ),
                )]);
            }
            if (groups > 1 || with_regs) && warps % 4 != 0 {
                return Err(vec![Diagnostic::op(
                    k,
                    format!(
                        "warp-specialize: the kernel's {warps} warps are not whole warpgroups, \
                         which {} needs{}",
                        if groups > 1 {
                            "splitting the tile across consumer warpgroups"
                        } else {
                            "setmaxnreg"
                        },
                        if groups > 1 {
                            ""
                        } else {
                            " (producer-regs=0 consumer-regs=0 leaves it out)"
                        }
                    ),
                )]);
            }
            let regs = if with_regs {
                Some(plan_registers(
                    k,
                    self.producer_regs,
                    self.consumer_regs,
                    32 * warps * groups,
                    32 * total,
                )?)
            } else {
                None
            };
            let split = if groups > 1 {
                Some(plan_split(ctx, &rings[0], groups)?)
            } else {
                None
            };
            if self.mma_in_flight == 1 {
                check_in_flight(ctx, &rings[0])?;
            }
            rewrite(
                ctx,
                kernel,
                body,
                &rings[0],
                groups,
                regs,
                split.as_ref(),
                self.mma_in_flight == 1,
            )?;
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
    /// `i + N`, the tile the refill loads (in a persistent kernel, step `base + i + N` of the
    /// block's linear walk).
    next_tile: Value,
    /// The tile loop of a persistent kernel around the main loop.
    tile: Option<Tile>,
}

/// How a persistent kernel's refill names its tile: `pipeline` decomposes the walk's step `j`
/// into the tile loop's induction value `lb + (j / T) * step` and the k step `j rem T` at the
/// top of the fill block, and recomputes the tile's coordinates from them there.
struct Tile {
    /// The tile loop, directly in the kernel body.
    for_op: ForOp,
    /// The fill block's tile induction value and k step.
    tile_iv: Value,
    k_step: Value,
    /// The four ops computing them (`divui`, `remui`, `muli`, `addi`), which the producer
    /// replaces by its own loops.
    decomposition: Vec<OpId>,
}

/// A ring whose main loop is nested in a tile loop `l` of the kernel body (the shape `pipeline`
/// writes for a persistent kernel): tried on each loop of `l`'s body.
fn match_persistent(ctx: &Context, kbody: BlockId, l: OpId) -> Option<Ring> {
    let tile = ForOp::cast(ctx, l)?;
    let body = single_block(ctx, l, 0)?;
    let mut found = None;
    for o in ctx.block_ops(body) {
        if let Some(r) = match_ring(ctx, kbody, o, Some(tile)) {
            if found.is_some() {
                return None;
            }
            found = Some(r);
        }
    }
    found
}

/// Finds in the fill block `fill` the decomposition of the walk's step `j` (see [`Tile`]).
fn match_tile(ctx: &Context, tile: ForOp, fill: BlockId, j: Value) -> Option<Tile> {
    let ops: Vec<OpId> = ctx.block_ops(fill).collect();
    let [d, r, mu, ad] = ops.get(..4)? else {
        return None;
    };
    let (d, r, mu, ad) = (*d, *r, *mu, *ad);
    let div = DivUIOp::cast(ctx, d)?;
    let rem = RemUIOp::cast(ctx, r)?;
    let mul = MulIOp::cast(ctx, mu)?;
    let add = AddIOp::cast(ctx, ad)?;
    let u = div.result(ctx);
    let ok = div.lhs(ctx) == j
        && rem.lhs(ctx) == j
        && rem.rhs(ctx) == div.rhs(ctx)
        && mul.lhs(ctx) == u
        && mul.rhs(ctx) == tile.step(ctx)
        && add.lhs(ctx) == tile.lower_bound(ctx)
        && add.rhs(ctx) == mul.result(ctx);
    ok.then(|| Tile {
        for_op: tile,
        tile_iv: add.result(ctx),
        k_step: rem.result(ctx),
        decomposition: vec![d, r, mu, ad],
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

fn single_block(ctx: &Context, op: OpId, region: usize) -> Option<BlockId> {
    let r = *ctx.regions(op).get(region)?;
    match ctx.region_blocks(r) {
        [b] => Some(*b),
        _ => None,
    }
}

fn match_ring(ctx: &Context, kbody: BlockId, l: OpId, tile: Option<ForOp>) -> Option<Ring> {
    let main = ForOp::cast(ctx, l)?;
    // The ring's set-up (barriers, prologue) sits in the kernel body before this op.
    let anchor = tile.map_or(l, |t| t.op());
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
    // `i + N`, or `(base + i) + N` in a persistent kernel.
    let counts_steps = ctx.operands(add).contains(&iv)
        || (tile.is_some()
            && ctx.operands(add).iter().any(|&g| {
                ctx.defining_op(g)
                    .is_some_and(|d| AddIOp::is(ctx, d) && ctx.operands(d).contains(&iv))
            }));
    if !counts_steps {
        return None;
    }
    let fill = single_block(ctx, iff.op(), 0)?;
    let tile = match tile {
        Some(t) => Some(match_tile(ctx, t, fill, next_tile)?),
        None => None,
    };
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
    // A persistent kernel's fill reads only its own ops, the stage, the decomposed step and
    // values of the kernel body: the producer rebuilds it in its own tile and k loops.
    let fill_ops: Vec<OpId> = ctx.block_ops(fill).collect();
    for o in fill_ops {
        if let Some(t) = &tile {
            if t.decomposition.contains(&o) {
                continue;
            }
        }
        for v in ctx.operands(o).to_vec() {
            let ok = match &tile {
                Some(t) => {
                    v == stage
                        || ctx.defining_op(v).and_then(|d| ctx.op_parent_block(d)) == Some(fill)
                        || defined_outside(ctx, v, t.for_op.op())
                }
                None => recomputable(ctx, v, body, stage, next_tile, 0),
            };
            if !ok {
                return None;
            }
        }
    }
    // The full barriers are used by the prologue, the wait and the refill only.
    let prologue = ctx
        .block_ops(kbody)
        .take_while(|&o| o != anchor)
        .find(|&o| {
            SingleThreadOp::is(ctx, o) && ctx.uses(full).iter().any(|u| is_inside(ctx, u.op, o))
        })?;
    if ctx
        .uses(full)
        .iter()
        .any(|u| !is_inside(ctx, u.op, prologue) && !is_inside(ctx, u.op, l))
    {
        return None;
    }
    if tile.is_some() && ctx.op_parent_block(anchor) != Some(kbody) {
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
        tile,
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

#[allow(clippy::too_many_arguments)]
fn rewrite(
    ctx: &mut Context,
    kernel: KernelOp,
    kbody: BlockId,
    r: &Ring,
    groups: i64,
    regs: Option<RegPlan>,
    split: Option<&Split>,
    in_flight: bool,
) -> Result<(), Vec<Diagnostic>> {
    let warps = kernel.warps(ctx);
    // Every thread of every consumer group releases the stage.
    let consumers = 32 * warps * groups;
    let l = r.main.op();
    // The producer and the consumers go where the main loop was, or its tile loop.
    let anchor = r.tile.as_ref().map_or(l, |t| t.for_op.op());
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

    // Producer: warp K * W, or with setmaxnreg the warpgroup from warp K * W, which releases
    // registers and lets its first warp issue the copies.
    b.set_insertion_point_before(anchor);
    // `prod` is the producer's group op; `copier` the one-warp group that runs its loop.
    let (prod, copier) = match regs {
        None => {
            let w = SingleWarpOp::build(&mut b, Some(groups * warps)).op();
            (w, w)
        }
        Some(plan) => {
            let wg = WarpGroupOp::build(&mut b, groups * warps, 4);
            let wregion = wg.body(b.ctx());
            let wblock = b.create_block_in(wregion, &[]);
            b.set_insertion_point_to_end(wblock);
            if plan.producer != 0 {
                SetMaxNRegOp::build(&mut b, RegisterAction::Dec, plan.producer);
            }
            let w = SingleWarpOp::build(&mut b, None).op();
            (wg.op(), w)
        }
    };
    let pregion = b.ctx().regions(copier)[0];
    let pouter = b.create_block_in(pregion, &[]);
    b.set_insertion_point_to_end(pouter);
    let pphase0 = ProducerInitialPhaseOp::build(&mut b, iv_ty).phase(b.ctx());
    let c0 = b.cint(iv_ty, 0);
    let c1 = b.cint(iv_ty, 1);
    // In a persistent kernel the producer walks the same tiles, its (stage, phase) carried from
    // one tile's k loop to the next, so it fills the next tile's stages while the consumers
    // finish the current one.
    let mut map = IrMapping::new();
    let (kinit, tile_loop) = match &r.tile {
        Some(t) => {
            let tf = t.for_op;
            let (tlb, tub, tstep) = (
                tf.lower_bound(b.ctx()),
                tf.upper_bound(b.ctx()),
                tf.step(b.ctx()),
            );
            let tfor = ForOp::build(
                &mut b,
                tlb,
                tub,
                tstep,
                &[c0, pphase0],
                &[iv_ty, iv_ty],
                false,
            );
            let tregion = tfor.region(b.ctx());
            let tbody = b.create_block_in(tregion, &[iv_ty, iv_ty, iv_ty]);
            let targs = b.ctx().block_args(tbody).to_vec();
            map.map_value(t.tile_iv, targs[0]);
            b.set_insertion_point_to_end(tbody);
            ([targs[1], targs[2]], Some((tfor, tbody)))
        }
        None => ([c0, pphase0], None),
    };
    let pfor = ForOp::build(&mut b, c0, trip, c1, &kinit, &[iv_ty, iv_ty], false);
    let pfor_region = pfor.region(b.ctx());
    let pbody = b.create_block_in(pfor_region, &[iv_ty, iv_ty, iv_ty]);
    let pargs = b.ctx().block_args(pbody).to_vec();
    let (pi, pstage, pphase) = (pargs[0], pargs[1], pargs[2]);
    if let Some((_, tbody)) = tile_loop {
        b.set_insertion_point_to_end(tbody);
        let res = pfor.results(b.ctx()).to_vec();
        YieldOp::build(&mut b, &res);
    }
    b.set_insertion_point_to_end(pbody);
    WaitOp::build(&mut b, empty, pstage, pphase, None, None);
    match &r.tile {
        Some(t) => map.map_value(t.k_step, pi),
        None => map.map_value(r.next_tile, pi),
    }
    map.map_value(stage, pstage);
    let fill_ops: Vec<OpId> = b.ctx().block_ops(r.fill).collect();
    for o in fill_ops {
        if YieldOp::is(b.ctx(), o)
            || r.tile
                .as_ref()
                .is_some_and(|t| t.decomposition.contains(&o))
        {
            continue;
        }
        clone_operands_of(&mut b, o, main_body, &mut map, pbody);
        let c = clone_op(b.ctx_mut(), o, &mut map);
        let invariant = tile_loop.is_some()
            && b.ctx().regions(c).is_empty()
            && tilus_ir::rewrite::is_effect_free(b.ctx(), o)
            && b.ctx()
                .operands(c)
                .iter()
                .all(|&v| defined_outside(b.ctx(), v, pfor.op()));
        if invariant {
            // The tile's coordinates: once per tile, before its k loop.
            b.ctx_mut().insert_op_before(pfor.op(), c);
        } else if ArriveExpectTxOp::is(b.ctx(), o) {
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

    // Consumers: warps 0 .. W (group 0; the other groups are copies of it, made at the end).
    b.set_insertion_point_before(anchor);
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
    if in_flight {
        keep_mma_in_flight(ctx, r, main_body, empty)?;
    }

    // The prologue is the producer's first round now.
    ctx.erase_op(r.prologue);

    // Everything from the loop's phase init to the end (but the frees) runs in the consumers.
    let kops: Vec<OpId> = ctx.block_ops(kbody).collect();
    let from = kops
        .iter()
        .position(|&o| o == anchor)
        .expect("loop in kernel body");
    let mut moved: Vec<OpId> = kops[from..]
        .iter()
        .copied()
        .filter(|&o| !FreeSharedOp::is(ctx, o))
        .collect();
    // Before the loop: the consumer phase init and register tensors only the consumers read.
    for &o in kops[..from].iter().rev() {
        if o == cons.op() || o == prod {
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
    // The consumers claim the registers the producer released, first thing.
    if let Some(plan) = regs.filter(|p| p.consumer != 0) {
        let mut b = OpBuilder::new(ctx);
        b.set_loc(loc);
        match b.ctx().block_ops(cblock).next() {
            Some(f) => b.set_insertion_point_before(f),
            None => b.set_insertion_point_to_end(cblock),
        }
        SetMaxNRegOp::build(&mut b, RegisterAction::Inc, plan.consumer);
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
    let producer_warps = if regs.is_some() { 4 } else { 1 };
    kernel.set_warps(ctx, groups * warps + producer_warps);
    // The prologue's bound, the refill's guard and the consumers' tile offset are dead now.
    let tile_body = r
        .tile
        .as_ref()
        .and_then(|t| single_block(ctx, t.for_op.op(), 0));
    for blk in [Some(main_body), tile_body, Some(kbody)]
        .into_iter()
        .flatten()
    {
        let ops: Vec<OpId> = ctx.block_ops(blk).collect();
        for &o in ops.iter().rev() {
            if ctx.regions(o).is_empty() && tilus_ir::rewrite::is_trivially_dead(ctx, o) {
                ctx.erase_op(o);
            }
        }
    }
    if let Some(sp) = split {
        split_rows(ctx, cons.op(), prod, sp, groups, warps)?;
    }
    Ok(())
}

/// What each role keeps per thread after `setmaxnreg` (0: that role has no setmaxnreg).
#[derive(Clone, Copy, Debug)]
pub(super) struct RegPlan {
    producer: i64,
    consumer: i64,
}

/// Chooses and checks the register split: the producer warpgroup keeps `producer` registers per
/// thread, the `consumer_threads` consumer threads get `consumer` (-1: the most that fits the
/// register file once the producer has released its registers). Everything starts at
/// [`threadgroup::launch_registers`] of the block's `threads`: `dec` must not raise that and
/// `inc` must not lower it, and the total must fit the 65536-register file, or `inc` waits
/// forever.
fn plan_registers(
    k: OpId,
    producer: i64,
    consumer: i64,
    consumer_threads: i64,
    threads: i64,
) -> Result<RegPlan, Vec<Diagnostic>> {
    let launch = threadgroup::launch_registers(threads);
    let err = |m: String| vec![Diagnostic::op(k, format!("warp-specialize: {m}"))];
    if producer > launch {
        return Err(err(format!(
            "producer-regs={producer} is above the {launch} registers per thread a block of \
             {threads} threads starts with; setmaxnreg.dec cannot raise it"
        )));
    }
    let kept = if producer == 0 { launch } else { producer };
    let consumer = if consumer == -1 {
        ((threadgroup::REGISTER_FILE - 128 * kept) / consumer_threads / 8 * 8)
            .min(threadgroup::MAX_REGS)
    } else {
        consumer
    };
    if consumer != 0 && consumer < launch {
        return Err(err(format!(
            "consumer-regs={consumer} is below the {launch} registers per thread a block of \
             {threads} threads starts with; setmaxnreg.inc cannot lower it"
        )));
    }
    let total = 128 * kept + consumer_threads * consumer.max(launch);
    if total > threadgroup::REGISTER_FILE {
        return Err(err(format!(
            "the register split overcommits the register file: 128 producer threads x {kept} + \
             {consumer_threads} consumer threads x {} = {total} registers, more than the {} of \
             an SM, so setmaxnreg.inc would wait forever",
            consumer.max(launch),
            threadgroup::REGISTER_FILE
        )));
    }
    Ok(RegPlan { producer, consumer })
}

/// How the tile's rows split across K consumer warpgroups (cooperative consumers): group `g`
/// computes rows `[g * rows, (g + 1) * rows)` of the accumulator from the same rows of the A
/// operand, and shares B.
pub(super) struct Split {
    /// The staged A buffer `[N, BM, BK]`, retyped to `[N, K, BM / K, BK]`.
    a_buf: Value,
    /// BM: the accumulator's rows.
    bm: i64,
    /// The accumulator's layout, and a group's.
    acc_layout: RegisterLayout,
    group_layout: RegisterLayout,
}

/// Checks that the ring's consumer can be split by rows across `groups` warpgroups: its MMAs
/// are `wgmma.mma` whose A operand is the stage's slice of one staged buffer and whose
/// accumulator is in the wgmma fragment layout with BM rows, BM a multiple of 64 x groups.
fn plan_split(ctx: &Context, r: &Ring, groups: i64) -> Result<Split, Vec<Diagnostic>> {
    let l = r.main.op();
    let err = |op: OpId, m: String| {
        vec![Diagnostic::op(
            op,
            format!("warp-specialize: consumer-warpgroups={groups}: {m}"),
        )]
    };
    let mut mmas = Vec::new();
    ctx.walk(l, &mut |o| {
        if let Some(m) = MmaOp::cast(ctx, o) {
            mmas.push(m);
        }
    });
    if mmas.is_empty() {
        return Err(err(
            l,
            "the tile's rows are split across consumer warpgroups through the operands of \
             wgmma.mma, and this loop has none (a tilus.dot consumer runs in one group: \
             consumer-warpgroups=1)"
                .into(),
        ));
    }
    let mut a_buf = None;
    let mut acc_ty = None;
    for m in &mmas {
        let a = m.a(ctx);
        let slice = ctx.defining_op(a).and_then(|d| SliceSharedOp::cast(ctx, d));
        let buf = slice.map(|s| s.src(ctx)).filter(|&src| {
            ctx.defining_op(src)
                .is_some_and(|d| SharedTensorOp::is(ctx, d) && !is_inside(ctx, d, l))
        });
        let Some(buf) = buf else {
            return Err(err(
                m.op(),
                "the A operand is not the stage's slice of a shared buffer, so its rows cannot be \
                 split"
                    .into(),
            ));
        };
        if a_buf.is_some_and(|b| b != buf) {
            return Err(err(m.op(), "the MMAs read A from different buffers".into()));
        }
        a_buf = Some(buf);
        let t = TensorType::of(ctx, ctx.value_type(m.acc(ctx))).expect("accumulator");
        if acc_ty.as_ref().is_some_and(|x: &TensorType| x != &t) {
            return Err(err(
                m.op(),
                "the MMAs have different accumulator types".into(),
            ));
        }
        acc_ty = Some(t);
    }
    let (a_buf, acc) = (a_buf.expect("a"), acc_ty.expect("acc"));
    let (bm, bn) = (acc.shape[0], acc.shape[1]);
    if bm % (64 * groups) != 0 {
        return Err(err(
            mmas[0].op(),
            format!(
                "the tile's {bm} rows do not split into {groups} groups of a multiple of 64 rows \
                 (wgmma's M)"
            ),
        ));
    }
    let inst_n = gcd(bn, 256);
    let acc_layout = wgmma_accumulator(bm, bn, inst_n);
    if !acc
        .register_layout()
        .is_some_and(|x| x.same_mapping(&acc_layout))
    {
        return Err(err(
            mmas[0].op(),
            "the accumulator is not in the wgmma fragment layout, so a group's rows have no \
             layout to take"
                .into(),
        ));
    }
    let at = TensorType::of(ctx, ctx.value_type(a_buf)).expect("buffer");
    if at.shape.len() != 3 || at.shape[1] != bm || at.strides.is_some() {
        return Err(err(
            mmas[0].op(),
            format!(
                "the A buffer {} is not a compact [stages, {bm}, K] ring",
                tilus_ir::syntax::printer::type_to_string(ctx, ctx.value_type(a_buf))
            ),
        ));
    }
    Ok(Split {
        a_buf,
        bm,
        acc_layout,
        group_layout: wgmma_accumulator(bm / groups, bn, inst_n),
    })
}

/// Whether a register tensor of kernel `k` (an op's result or a block argument) has no layout.
fn has_unlaid_tiles(ctx: &Context, k: OpId) -> bool {
    let mut vals = Vec::new();
    ctx.walk(k, &mut |o| {
        vals.extend(ctx.results(o).iter().copied());
        for &r in ctx.regions(o) {
            for &b in ctx.region_blocks(r) {
                vals.extend(ctx.block_args(b).iter().copied());
            }
        }
    });
    vals.into_iter().any(|v| {
        TensorType::of(ctx, ctx.value_type(v))
            .is_some_and(|t| t.space == Space::Register && t.register_layout().is_none())
    })
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Splits the tile's rows across `groups` copies of the consumer group `cons` (warps
/// `g * warps ..`): each copy's accumulator chain gets BM / K rows in a group's wgmma layout,
/// reads its rows of A (`a[stage, g]` of the buffer retyped `[N, K, BM / K, BK]`) and stores
/// its rows at `offset + g * BM / K`; the producer copies A in K boxes of BM / K rows.
fn split_rows(
    ctx: &mut Context,
    cons: OpId,
    prod: OpId,
    sp: &Split,
    groups: i64,
    warps: i64,
) -> Result<(), Vec<Diagnostic>> {
    let rows = sp.bm / groups;
    let loc = ctx.op(cons).loc;
    // The copies of group 0, in order after it.
    let mut all = vec![cons];
    let cblock = single_block(ctx, cons, 0).expect("consumer body");
    let body: Vec<OpId> = ctx.block_ops(cblock).collect();
    for g in 1..groups {
        let prev = *all.last().expect("group");
        let mut b = OpBuilder::new(ctx);
        b.set_loc(loc);
        b.set_insertion_point_after(prev);
        let wg = WarpGroupOp::build(&mut b, g * warps, warps);
        let region = wg.body(b.ctx());
        let block = b.create_block_in(region, &[]);
        let mut map = IrMapping::new();
        for &o in &body {
            let c = clone_op(ctx, o, &mut map);
            ctx.append_op(block, c);
        }
        all.push(wg.op());
    }
    // The A buffer, one slice per group.
    let old_a = TensorType::of(ctx, ctx.value_type(sp.a_buf)).expect("buffer");
    let mut new_a = old_a.clone();
    new_a.shape = vec![old_a.shape[0], groups, rows, old_a.shape[2]];
    let new_a_ty = new_a.get(ctx);
    let mut slice_ty = old_a.clone();
    slice_ty.shape = vec![rows, old_a.shape[2]];
    let slice_ty = slice_ty.get(ctx);
    for (g, &c) in all.iter().enumerate() {
        let g = g as i64;
        let mut vals = Vec::new();
        let mut ops = Vec::new();
        ctx.walk(c, &mut |o| {
            ops.push(o);
            vals.extend(ctx.results(o).iter().copied());
            for &r in ctx.regions(o) {
                for &b in ctx.region_blocks(r) {
                    vals.extend(ctx.block_args(b).iter().copied());
                }
            }
        });
        // The accumulator chain.
        let mut split_vals = Vec::new();
        for v in vals {
            let Some(mut t) = TensorType::of(ctx, ctx.value_type(v)) else {
                continue;
            };
            if t.space != Space::Register
                || t.shape.len() != 2
                || t.shape[0] != sp.bm
                || !t
                    .register_layout()
                    .is_some_and(|x| x.same_mapping(&sp.acc_layout))
            {
                continue;
            }
            t.shape[0] = rows;
            t.layout = Some(sp.group_layout.clone());
            let nt = t.get(ctx);
            ctx.set_value_type(v, nt);
            split_vals.push(v);
        }
        let mut b = OpBuilder::new(ctx);
        b.set_loc(loc);
        let gi = |b: &mut OpBuilder, ty| b.cint(ty, g);
        for o in ops {
            let ctx = b.ctx();
            if let Some(s) = SliceSharedOp::cast(ctx, o) {
                if s.src(ctx) == sp.a_buf {
                    let mut idx = s.indices(ctx).to_vec();
                    let ity = ctx.value_type(idx[0]);
                    b.set_insertion_point_before(o);
                    let gv = gi(&mut b, ity);
                    idx.push(gv);
                    let n = SliceSharedOp::build(&mut b, sp.a_buf, &idx, slice_ty);
                    let old = s.result(b.ctx());
                    let new = n.result(b.ctx());
                    b.ctx_mut().replace_all_uses(old, new);
                    b.ctx_mut().erase_op(o);
                }
                continue;
            }
            let reads_split = ctx.operands(o).iter().any(|v| split_vals.contains(v));
            if !reads_split {
                continue;
            }
            if let Some(st) = StoreGlobalOp::cast(ctx, o) {
                let mut offs = st.offsets(ctx).to_vec();
                let (value, dst) = (st.value(ctx), st.dst(ctx));
                b.set_insertion_point_before(o);
                offs[0] = b.add_const(offs[0], g * rows);
                StoreGlobalOp::build(&mut b, value, dst, &offs);
                b.ctx_mut().erase_op(o);
                continue;
            }
            let ok =
                MmaOp::is(ctx, o) || CastOp::is(ctx, o) || ForOp::is(ctx, o) || YieldOp::is(ctx, o);
            if !ok {
                return Err(vec![Diagnostic::op(
                    o,
                    format!(
                        "warp-specialize: consumer-warpgroups={groups} splits the accumulator's \
                         rows across the groups, and '{}' reads it in a way that cannot be \
                         split (only wgmma.mma, tilus.cast, tilus.store_global and loop-carried \
                         values can)",
                        ctx.op_name_str(o)
                    ),
                )]);
            }
        }
    }
    // The producer: one copy of BM / K rows per group into a[stage, g].
    let mut copies = Vec::new();
    ctx.walk(prod, &mut |o| {
        if let Some(c) = GlobalToSharedOp::cast(ctx, o) {
            copies.push(c);
        }
    });
    for c in copies {
        let dst = c.dst(ctx);
        let Some(s) = ctx
            .defining_op(dst)
            .and_then(|d| SliceSharedOp::cast(ctx, d))
        else {
            continue;
        };
        if s.src(ctx) != sp.a_buf {
            continue;
        }
        if c.dims(ctx).is_some() {
            return Err(vec![Diagnostic::op(
                c.op(),
                format!(
                    "warp-specialize: consumer-warpgroups={groups} copies A in row boxes, and \
                     this copy maps its box onto other dimensions (dims)"
                ),
            )]);
        }
        let idx = s.indices(ctx).to_vec();
        let offs = c.offsets(ctx).to_vec();
        let (src, bars, bi, mask, cta) = (
            c.src(ctx),
            c.barriers(ctx),
            c.barrier_index(ctx),
            c.multicast_mask(ctx),
            c.cta_group(ctx),
        );
        let mut b = OpBuilder::new(ctx);
        b.set_loc(loc);
        b.set_insertion_point_before(c.op());
        for g in 0..groups {
            let ity = b.ctx().value_type(idx[0]);
            let gv = b.cint(ity, g);
            let mut gidx = idx.clone();
            gidx.push(gv);
            let slice = SliceSharedOp::build(&mut b, sp.a_buf, &gidx, slice_ty).result(b.ctx());
            let mut goffs = offs.clone();
            goffs[0] = b.add_const(offs[0], g * rows);
            GlobalToSharedOp::build(&mut b, src, &goffs, slice, bars, bi, mask, None, cta);
        }
        ctx.erase_op(c.op());
        if ctx.uses(s.result(ctx)).is_empty() {
            ctx.erase_op(s.op());
        }
    }
    ctx.set_value_type(sp.a_buf, new_a_ty);
    Ok(())
}

/// Scalar code without effects (the refill's guard, left behind when something else reads it).
fn is_pure_int(ctx: &Context, op: OpId) -> bool {
    ctx.regions(op).is_empty()
        && ctx.results(op).len() == 1
        && TensorType::of_ref(ctx, ctx.value_type(ctx.results(op)[0])).is_none()
        && tilus_ir::rewrite::is_effect_free(ctx, op)
}

/// Checks, before anything is rewritten, that `mma-in-flight=1` applies to the ring: at least
/// two stages, a `wgmma.wait_group 0` in the main loop's body before the refill (the one the
/// release will follow), and MMA results read only by the loop's yield.
fn check_in_flight(ctx: &Context, r: &Ring) -> Result<(), Vec<Diagnostic>> {
    let l = r.main.op();
    let err = |op: OpId, m: &str| {
        vec![Diagnostic::op(
            op,
            format!("warp-specialize: mma-in-flight=1: {m}"),
        )]
    };
    if r.stages < 2 {
        return Err(err(
            l,
            "releasing the previous k step's stage while the current one is read needs a ring of \
             at least 2 stages (this one has 1)",
        ));
    }
    let body = single_block(ctx, l, 0).expect("body");
    let ops: Vec<OpId> = ctx.block_ops(body).collect();
    let at = ops.iter().position(|&o| o == r.refill).expect("refill");
    let wait = ops[..at]
        .iter()
        .copied()
        .rev()
        .find(|&o| WaitGroupOp::is(ctx, o))
        .and_then(|w| WaitGroupOp::cast(ctx, w));
    if wait.is_none_or(|w| w.pending(ctx) != 0) {
        return Err(err(
            l,
            "the consumer's loop has no wgmma.wait_group 0 before the release to relax",
        ));
    }
    let yield_op = *ops.last().expect("terminator");
    for &o in &ops {
        if MmaOp::is(ctx, o)
            && ctx
                .results(o)
                .iter()
                .any(|&v| ctx.uses(v).iter().any(|u| u.op != yield_op))
        {
            return Err(err(
                o,
                "this MMA's result is read in the loop, so it cannot stay in flight past its k step",
            ));
        }
    }
    Ok(())
}

/// `mma-in-flight=1`: the consumer keeps its k step's MMA in flight and releases the stage of
/// the previous one, as `examples/hopper_matmul_v4_persistent.mlir` does. The body's
/// `wgmma.wait_group 0` before the release becomes `wait_group 1` (the previous group has
/// retired), the release of `stage` becomes that of the previous stage from the second k step
/// on, and after the loop `wait_group 0` retires the last group before the accumulator is read.
/// The previous stage is `(i + N - 1) rem N` of the k loop's iteration when the ring starts at
/// stage 0, and `(stage + N - 1) rem N` in a persistent kernel, whose k loop starts on the stage
/// the previous tile left: there the last stage is released after the loop too, since the
/// producer goes on filling stages for the next tile. The MMA results may be read only by the
/// loop's yield (the next k step's MMA accumulates into them while they are in flight).
fn keep_mma_in_flight(
    ctx: &mut Context,
    r: &Ring,
    main_body: BlockId,
    empty: Value,
) -> Result<(), Vec<Diagnostic>> {
    let l = r.main.op();
    let ops: Vec<OpId> = ctx.block_ops(main_body).collect();
    let arrive = ops
        .iter()
        .copied()
        .find(|&o| ArriveOp::is(ctx, o))
        .expect("release");
    let at = ops.iter().position(|&o| o == arrive).expect("release");
    // Checked by `check_in_flight` before the rewrite.
    let wait = ops[..at]
        .iter()
        .copied()
        .rev()
        .find(|&o| WaitGroupOp::is(ctx, o))
        .expect("wait_group 0");
    let margs = ctx.block_args(main_body).to_vec();
    let (iv, stage) = (margs[0], margs[margs.len() - 2]);
    let ity = ctx.value_type(stage);
    let loc = ctx.op(l).loc;
    let n = r.stages;
    let persistent = r.tile.is_some();
    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);
    b.set_insertion_point_before(wait);
    WaitGroupOp::build(&mut b, 1);
    b.ctx_mut().erase_op(wait);
    b.set_insertion_point_before(arrive);
    let back = b.cint(ity, n - 1);
    let cn = b.cint(ity, n);
    let prev = if persistent {
        let x = b.int_op(IntBinOp::AddI, stage, back);
        b.int_op(IntBinOp::RemUI, x, cn)
    } else {
        let x = b.int_op(IntBinOp::AddI, iv, back);
        b.int_op(IntBinOp::RemSI, x, cn)
    };
    let c1 = b.cint(ity, 1);
    let has_prev = b.cmpi(CmpIPredicate::Sge, iv, c1);
    let iff = IfOp::build(&mut b, has_prev, &[]);
    let then_r = iff.then_region(b.ctx());
    let tb = b.create_block_in(then_r, &[]);
    b.set_insertion_point_to_end(tb);
    ArriveOp::build(&mut b, empty, prev, None, None, None);
    YieldOp::build(&mut b, &[]);
    b.ctx_mut().erase_op(arrive);
    // After the loop: the last group retires; a persistent kernel releases its stage.
    b.set_insertion_point_after(l);
    WaitGroupOp::build(&mut b, 0);
    if persistent {
        let trip = r.main.upper_bound(b.ctx());
        let res = r.main.results(b.ctx()).to_vec();
        let last_stage = res[res.len() - 2];
        let c0 = b.cint(ity, 0);
        let had = b.cmpi(CmpIPredicate::Sgt, trip, c0);
        let back = b.cint(ity, n - 1);
        let cn = b.cint(ity, n);
        let x = b.int_op(IntBinOp::AddI, last_stage, back);
        let last = b.int_op(IntBinOp::RemUI, x, cn);
        let iff = IfOp::build(&mut b, had, &[]);
        let then_r = iff.then_region(b.ctx());
        let tb = b.create_block_in(then_r, &[]);
        b.set_insertion_point_to_end(tb);
        ArriveOp::build(&mut b, empty, last, None, None, None);
        YieldOp::build(&mut b, &[]);
    }
    Ok(())
}
