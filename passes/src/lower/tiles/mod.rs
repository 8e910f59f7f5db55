//! `lower-tiles` (tile to thread): every register tensor becomes `local_size` scalar SSA values
//! per thread, and every op on register tensors becomes scalar `arith` and `ptx.inst` code.
//!
//! **Layouts.** A register tensor's layout is its type's (`layout = ...`). Without one:
//! `tilus.register_tensor init(...)` is a splat (any consumer layout reads the scalar), other
//! ops get the default layout: the last dimension is cut into vectors of `16 / bytes` elements
//! (fewer when it is shorter), vectors go to consecutive threads along the last dimension, then
//! along the dimensions before it, threads left over replicate, elements left over stay local
//! outermost — `local(...) * spatial(...) * local(1, .., V)` (Tilus's `auto_local_spatial` with a
//! vector). `scf.for` iter_args expand into one iter_arg per register (a 1:N conversion).
//!
//! **Thread coordinates.** Coordinates are linear in the digits of the thread and register
//! indices (spec §3.1), so each element is `tpart(t) + lpart(l)`: `tpart` is computed once per op
//! from the group-relative `tilus.thread_id` (shifts and masks for power-of-two modes), `lpart`
//! is a compile-time constant per register.
//!
//! **Global loads and stores.** Per element: address = `base + Σ idx_d · stride_d · bytes`,
//! in bounds iff `idx_d <u extent_d` for every d. Each op gets a block-uniform fast path
//! (`scf.if`): when the whole tile box is inside the view and the base, the offset of the last
//! dimension and the other strides are aligned to the vector, accesses are unpredicated
//! `ld/st.global.v4` (16-byte chunks wherever the layout gives contiguous registers whose thread
//! part is a multiple of the vector); otherwise every element is a predicated scalar access, a
//! load reading 0 out of bounds. Stores of replicated layouts are issued by replica 0 only.
//!
//! **Shared memory.** `load_shared`/`store_shared` go through the shared layout incl. swizzle
//! (XOR at run time) with scalar `ld.shared`/`st.shared` at the tensor's address (the
//! `tilus.smem_offset` of `plan-shared-memory`) plus the element offset.
//!
//! **Values.** Element-wise ops are `arith` per register (broadcasting maps each result
//! register to the operand register holding that element in the same thread, checked for every
//! thread at compile time; a mismatch asks for `layout.convert`). `exp` is `ex2.approx.f32(x ·
//! log2 e)`, `exp2` `ex2.approx.f32`, `log` `lg2.approx.f32 · ln 2`, `rsqrt` `rsqrt.approx.f32`,
//! `tanh` `tanh.approx.f32`, `sqrt` `sqrt.rn.f32` (approximations: ~2 ulp, as CUDA's fast math);
//! f16/bf16 math goes through f32.
//!
//! **Reductions.** Registers of one output element are folded inside the thread, then
//! `shfl.sync.bfly.b32` runs over every lane bit of the reduced dimension, then the warps that
//! split the dimension combine their partials through the shared scratch (a thread digit that
//! straddles warps is split into its lane and warp bits). Shuffles are `shfl.sync.up/down.b32` with
//! the lane clamp (`c = 0` / `0x1f`), so a lane without a source keeps its value.
//!
//! `layout.convert` moves no data when every thread already holds what the target layout
//! asks of it (same mapping, or a broadcast-compatible one); otherwise it goes through a
//! shared scratch buffer (store by the source layout, sync, load by the target, sync). The
//! scratch, also used by reductions across warps and dots' staging, is placed after what
//! `plan-shared-memory` allocated and `tilus.smem_bytes` grows to cover it; group ops that may
//! run side by side get disjoint regions of it (`scratch.rs`).
//!
//! **Files.** This file has the pass, the `Lowering` state and the per-op dispatch
//! (`Lowering::op`); each kind of op is lowered in its own file: `global.rs`, `shared.rs`,
//! `vector.rs` (vector accesses shared by both), `layout.rs` (gathers and conversions),
//! `elementwise.rs`, `reduce.rs`, `semaphore.rs`, `tile_inst.rs`, `control.rs` (`scf` with
//! tiles), and `dot.rs`, `mma.rs`, `wgmma_dot.rs` for `tilus.dot`; `scratch.rs` places the
//! shared scratch's users.

// Index loops over dims and registers read more clearly than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use super::build::{before, group_body, group_pos, run_on_kernels, LowerBuilder};
use super::shared_memory::{row_major, shared_addr};
use crate::{declare_pass, Changed, Pass, Statistics};
use rustc_hash::{FxHashMap, FxHashSet};
use tilus_dialects::arith::{
    CmpFPredicate, CmpIPredicate, ExtFOp, ExtSIOp, ExtUIOp, FPToSIOp, FPToUIOp, FloatBinOp,
    IntBinOp, NegFOp, SIToFPOp, TruncFOp, TruncIOp, UIToFPOp,
};
use tilus_dialects::layout::ConvertOp;
use tilus_dialects::layout_algebra::{RegisterLayout, SharedLayout, Swizzle};
use tilus_dialects::ptx::InstOp;
use tilus_dialects::scf::{
    yields_one_region, ConditionOp, ExecuteRegionOp, ForOp, IfOp, WhileOp, YieldOp,
};
use tilus_dialects::threadgroup::SyncOp;
use tilus_dialects::tilus::{
    same_start_view_source, SharedTensorOp, SliceRegisterOp, SliceSharedOp, ThreadIdOp, TilusOpKind,
};
use tilus_dialects::tilus_types::{prop_i64, DType, TensorType, DYN};
use tilus_ir::rewrite::Rewriter;
use tilus_ir::types::FloatKind;
use tilus_ir::{
    BlockId, Context, Diagnostic, OpBuilder, OpId, OperationState, Type, TypeKind, Value,
};

mod control;
mod dot;
mod elementwise;
mod f64_math;
mod global;
mod layout;
mod mma;
mod reduce;
mod scratch;
mod semaphore;
mod shared;
mod tile_inst;
mod vector;
mod wgmma_dot;
use control::*;
use elementwise::*;
use global::*;
use reduce::*;
use scratch::{ScratchPaths, ScratchRegions};
use vector::*;
pub(crate) use wgmma_dot::plan as wgmma_dot_plan;

declare_pass! {
    /// The pass. Its `target` option decides whether `tilus.dot` may use wgmma.
    pub struct LowerTiles {
        name: "lower-tiles",
        class: "LowerTiles",
        summary: "Lower register tensors to per-thread scalars (tile to thread)",
        description: "Tile to thread: each register tensor becomes local_size scalars per \
            thread through its layout (a default layout when the type has none), scf.for \
            iter_args expand; load_global/store_global become per-thread addresses with bounds \
            checks (16-byte vector accesses on a block-uniform fast path when the tile is in \
            bounds and aligned), load_shared/store_shared go through the shared layout and \
            swizzle, element-wise ops become arith per register with broadcasting through the \
            layouts, reductions fold in the thread then shfl.sync.bfly across lanes, shuffles \
            become shfl.sync.up/down. Global views are consumed and pointer parameters become \
            i64.",
        options: {
            target: String = "sm_90a".into(), "target",
                "PTX target: on sm_90a a tilus.dot that whole warpgroups can compute (f16/bf16 \
                 with f32 accumulation) lowers to wgmma, elsewhere to mma.sync",
                check = super::check_ptx_target;
        },
        statistics: {
            NUM_OPS = "num-ops", "Number of tile ops lowered";
        },
    }
}

impl Pass for LowerTiles {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        run_on_kernels(ctx, op, stats, Self::NUM_OPS, |ctx, k| {
            let mut l = Lowering {
                wgmma: self.target == "sm_90a",
                ..Lowering::default()
            };
            l.kernel(ctx, k).map_err(|d| vec![d])?;
            Ok(l.count)
        })
    }
}

/// A lowered register tensor.
#[derive(Clone, Debug)]
struct Tile {
    vals: Vec<Value>,
    layout: RegisterLayout,
    /// A splat of one scalar (`register_tensor init` without layout): any layout reads it.
    splat: Option<Value>,
}

/// Maps each register's input through `f`, building one result per distinct input.
fn map_cached<K: std::hash::Hash + Eq>(
    inputs: impl IntoIterator<Item = K>,
    mut f: impl FnMut(&K) -> R<Value>,
) -> R<Vec<Value>> {
    let mut cache: FxHashMap<K, Value> = FxHashMap::default();
    inputs
        .into_iter()
        .map(|k| match cache.get(&k) {
            Some(v) => Ok(*v),
            None => {
                let v = f(&k)?;
                cache.insert(k, v);
                Ok(v)
            }
        })
        .collect()
}

/// A lowered global view.
#[derive(Clone, Debug)]
struct View {
    base: Value,
    ext: Vec<Value>,
    strides: Vec<Value>,
    static_strides: Vec<Option<i64>>,
}

#[derive(Default)]
struct Lowering {
    tiles: FxHashMap<Value, Tile>,
    views: FxHashMap<Value, View>,
    tids: FxHashMap<BlockId, Value>,
    dead: Vec<OpId>,
    /// Block arguments to erase at the end (block, index).
    dead_args: Vec<(BlockId, Value)>,
    count: u64,
    /// Shared scratch for cross-warp reductions, layout conversions and dots' staging: its
    /// offset in the dynamic buffer (after what plan-shared-memory placed and the wgmma dots'
    /// buffers), and the region of each group op being lowered ([`ScratchRegions`]).
    scratch_off: i64,
    scratch: ScratchRegions,
    /// The kernel's body block: its direct ops run on every thread, so a barrier there ends a
    /// phase of the groups that share the scratch ([`ScratchRegions::barrier`]).
    kernel_body: Option<BlockId>,
    /// Pure scalar ops made here (unpacking loaded words, the element-wise and cast tile ops'
    /// instructions) to move down to their first user once the kernel is lowered; see
    /// [`Lowering::sink`].
    sinkable: Vec<OpId>,
    /// The end (bytes past its group's region start) of a part of the scratch that a
    /// cross-warp reduction read without a barrier after: until a barrier, later users must
    /// stay clear of it ([`Lowering::fence_scratch`]).
    unfenced: Option<i64>,
    /// The previous scratch user of each path to the op being lowered (its group), and what
    /// the loop bodies being lowered need across their back edges ([`ScratchPaths`]).
    paths: ScratchPaths,
    /// The target has wgmma (`sm_90a`): dots that fit it lower to it (`wgmma_dot.rs`).
    wgmma: bool,
    /// The shared buffers of the dots lowered to wgmma.
    dot_buffers: FxHashMap<OpId, wgmma_dot::DotBuffer>,
    /// The loops a sync was put after (for the dots alternating buffers in them).
    synced_after: Vec<OpId>,
    /// 16-bit register pairs unpacked from a 32-bit word (a vector load's, or a loop-carried
    /// one): packing them again reuses the word, which no instruction has to wait for.
    packed: FxHashMap<(Value, Value), Value>,
}

type R<T> = Result<T, String>;

/// The register type of an element: `tf32` lives in an f32 register (the tensor cores read its
/// top 19 bits), a signed or unsigned integer in the signless integer of its width (`arith`
/// takes signless integers only; the ops that depend on the signedness are chosen from the
/// tile's element type: `divui`, `maxui`, `extui`, `uitofp`, ...), every other type in its own.
pub(super) fn elem_type(ctx: &mut Context, d: DType) -> Type {
    match d {
        DType::TF32 => DType::F32.to_type(ctx),
        DType::Int { bits, .. } => DType::Int {
            bits,
            signedness: tilus_ir::types::Signedness::Signless,
        }
        .to_type(ctx),
        _ => d.to_type(ctx),
    }
}

fn ty_of(ctx: &Context, v: Value) -> Option<TensorType> {
    TensorType::of(ctx, ctx.value_type(v))
}

fn is_reg(ctx: &Context, v: Value) -> bool {
    ty_of(ctx, v).is_some_and(|t| t.space == tilus_dialects::tilus_types::Space::Register)
}

/// The default layout of a `shape` tensor over `threads` threads (see the module docs). Public
/// so that the interpreter gives per-thread values the same owners as the lowering does.
pub fn default_layout(shape: &[i64], bits: u32, threads: i64) -> R<RegisterLayout> {
    let rank = shape.len();
    let mut vec = (128 / bits.max(8) as i64).max(1);
    while vec > 1 && shape[rank - 1] % vec != 0 {
        vec /= 2;
    }
    let mut left = threads;
    let mut sp = vec![1i64; rank];
    let mut rest: Vec<i64> = shape.to_vec();
    rest[rank - 1] /= vec;
    for d in (0..rank).rev() {
        let mut t = 1;
        while left % 2 == 0 && rest[d] % 2 == 0 {
            t *= 2;
            left /= 2;
            rest[d] /= 2;
        }
        // Non-power-of-two leftovers: take the whole dim when it divides.
        if rest[d] > 1 && left % rest[d] == 0 {
            left /= rest[d];
            t *= rest[d];
            rest[d] = 1;
        }
        sp[d] = t;
    }
    let mut inner = vec![1i64; rank];
    inner[rank - 1] = vec;
    // `replicate(left) * local(rest) * spatial(sp) * local(inner)`, built from the primitives.
    let overflow = || "default layout: sizes overflow 64 bits".to_string();
    let mut layout = RegisterLayout::local(&rest)
        .try_compose(&RegisterLayout::spatial(&sp))
        .and_then(|l| l.try_compose(&RegisterLayout::local(&inner)))
        .ok_or_else(overflow)?;
    if left > 1 {
        layout = RegisterLayout::replicate(left)
            .try_compose(&layout)
            .ok_or_else(overflow)?;
    }
    Ok(layout)
}

/// Per-layout geometry: thread digits and register coordinates.
struct Geo {
    /// Spatial entries, most significant first: (mode or -r, thread stride, size).
    tdig: Vec<(i64, i64, i64)>,
    /// Dim of each mode and its weight within the dim.
    mode_dim: Vec<usize>,
    mode_weight: Vec<i64>,
}

fn geo(l: &RegisterLayout) -> Geo {
    let mut mode_dim = Vec::new();
    let mut mode_weight = Vec::new();
    let mut m = 0;
    for (k, &c) in l.dim_modes.iter().enumerate() {
        let sizes = &l.mode_shape[m..m + c];
        for i in 0..c {
            mode_dim.push(k);
            mode_weight.push(sizes[i + 1..].iter().product());
        }
        m += c;
    }
    let sizes: Vec<i64> = l.spatial_shape().collect();
    let mut tdig = Vec::new();
    let mut stride = 1;
    for (i, &p) in l.spatial.iter().enumerate().rev() {
        tdig.push((p, stride, sizes[i]));
        stride *= sizes[i];
    }
    tdig.reverse();
    Geo {
        tdig,
        mode_dim,
        mode_weight,
    }
}

/// The register part of the coordinates of local `l`.
fn lpart(l: &RegisterLayout, local: i64) -> Vec<i64> {
    l.coords(0, local)
}

impl Lowering {
    /// Records the lowered tile of `v`; `splat`: every register holds `vals[0]`.
    fn set_tile(&mut self, v: Value, vals: Vec<Value>, layout: RegisterLayout, splat: bool) {
        let splat = splat.then(|| vals[0]);
        self.tiles.insert(
            v,
            Tile {
                vals,
                layout,
                splat,
            },
        );
    }

    fn kernel(&mut self, ctx: &mut Context, k: OpId) -> Result<(), Diagnostic> {
        let body = ctx.region_blocks(ctx.regions(k)[0])[0];
        let planned = prop_i64(ctx, k, tilus_dialects::tilus::attr_names::SMEM_BYTES).unwrap_or(0);
        let dots_end = self.plan_dot_buffers(ctx, k, planned);
        self.scratch_off = (dots_end + 127) / 128 * 128;
        self.kernel_body = Some(body);
        self.block(ctx, body)?;
        let scratch_bytes = self.scratch.total();
        if scratch_bytes > 0 || dots_end > planned {
            let total = self.scratch_off.saturating_add(scratch_bytes);
            if total > super::shared_memory::SMEM_LIMIT {
                return Err(Diagnostic::op(
                    k,
                    format!(
                        "lower-tiles: the kernel needs {total} bytes of shared memory, more than \
                         the {} an sm_90 block may have: {} before the scratch and {scratch_bytes} \
                         of scratch for conversions, cross-warp reductions and dots' staging \
                         (groups that run side by side each have a region of their own)",
                        super::shared_memory::SMEM_LIMIT,
                        self.scratch_off
                    ),
                ));
            }
            let a = super::build::i64_attr(ctx, total);
            ctx.set_attr(k, tilus_dialects::tilus::attr_names::SMEM_BYTES, Some(a));
            super::shared_memory::declare_smem(ctx, k);
        }
        // Erase what was lowered, users first.
        for &o in self.dead.iter().rev() {
            if ctx.is_alive(o) {
                ctx.erase_op(o);
            }
        }
        for &(b, v) in self.dead_args.iter().rev() {
            if let Some(i) = ctx.block_args(b).iter().position(|a| *a == v) {
                ctx.erase_block_arg(b, i);
            }
        }
        self.sink(ctx);
        // Shared tensors, views and frees nobody uses any more.
        loop {
            let mut gone = Vec::new();
            ctx.walk(k, &mut |o| {
                let Some(d) = ctx.op_def(o) else { return };
                if d.has(tilus_ir::Trait::FreesShared)
                    || ((d.has(tilus_ir::Trait::AllocatesShared)
                        || d.has(tilus_ir::Trait::SharedView))
                        && ctx.uses(ctx.results(o)[0]).is_empty())
                {
                    gone.push(o);
                }
            });
            if gone.is_empty() {
                break;
            }
            for o in gone {
                if ctx.is_alive(o) {
                    ctx.erase_op(o);
                }
            }
        }
        // Pointer parameters that only fed views are now i64.
        let args = ctx.block_args(body).to_vec();
        let tys: Vec<Type> = args.iter().map(|a| ctx.value_type(*a)).collect();
        let fty = ctx.function_type(tys, vec![]);
        let a = ctx.type_attr(fty);
        tilus_ir::rewrite::set_property(ctx, k, "function_type", Some(a));
        Ok(())
    }

    /// Moves each [`Lowering::sinkable`] op to just before its first user in its own block.
    ///
    /// Tiles are lowered op by op, so a tile's conversions sit where the tile op was, and every
    /// value they make is live across whatever comes before its use: a loaded f16 tile unpacked
    /// (or widened to f32) before the next tile's load carries all its halves through that
    /// load's fast/slow `scf.if`, where ptxas cannot move them. Sunk to its user, an unpack
    /// keeps one word live instead of two halves, and an element-wise chain (unpack, widen,
    /// scale, narrow, pack) runs element by element instead of tile by tile, so one element
    /// rather than a whole f32 tile is in flight between its steps. Later ops first, so a chain
    /// sinks as a whole; moving a pure op later in its block, still before every user, keeps
    /// every value defined before it is used.
    fn sink(&mut self, ctx: &mut Context) {
        let order: FxHashMap<OpId, usize> = self
            .sinkable
            .iter()
            .enumerate()
            .map(|(i, o)| (*o, i))
            .collect();
        let mut moved: FxHashSet<OpId> = FxHashSet::default();
        for (i, &o) in self.sinkable.iter().enumerate().rev() {
            if !ctx.is_alive(o) {
                continue;
            }
            let Some(block) = ctx.op_parent_block(o) else {
                continue;
            };
            // The users, each seen as its ancestor in `o`'s block.
            let mut users: FxHashSet<OpId> = FxHashSet::default();
            for &r in ctx.results(o) {
                for u in ctx.uses(r) {
                    let mut a = u.op;
                    while ctx.op_parent_block(a) != Some(block) {
                        match ctx.parent_op(a) {
                            Some(p) => a = p,
                            None => break,
                        }
                    }
                    if ctx.op_parent_block(a) == Some(block) {
                        users.insert(a);
                    }
                }
            }
            let mut at = ctx.next_op(o);
            while let Some(a) = at {
                if users.contains(&a) {
                    break;
                }
                at = ctx.next_op(a);
            }
            if let Some(mut a) = at {
                // Ops sunk to the same place keep their order: in front of those made after.
                while let Some(p) = ctx.prev_op(a).filter(|p| *p != o) {
                    if moved.contains(&p) && order.get(&p).is_some_and(|&j| j > i) {
                        a = p;
                    } else {
                        break;
                    }
                }
                if ctx.next_op(o) != Some(a) {
                    ctx.move_op_before(o, a);
                }
                moved.insert(o);
            }
        }
    }

    /// Marks as sinkable the scalar ops just made in front of the element-wise tile op `o`
    /// (those after `prev`, the op that preceded `o` before it was lowered).
    fn sink_made(&mut self, ctx: &Context, o: OpId, prev: Option<OpId>) {
        let block = ctx.op_parent_block(o).expect("in a block");
        let mut at = match prev {
            Some(p) => ctx.next_op(p),
            None => ctx.block_ops(block).next(),
        };
        while let Some(a) = at.filter(|a| *a != o) {
            if ctx.regions(a).is_empty() {
                self.sinkable.push(a);
            }
            at = ctx.next_op(a);
        }
    }

    /// Lowers the ops of `b`; a block of a loop or a branch also starts and ends paths of the
    /// scratch users ([`Lowering::scratch_paths_start`], [`Lowering::scratch_paths_end`]),
    /// and the end of a loop's body may take a barrier for its back edge.
    fn block(&mut self, ctx: &mut Context, b: BlockId) -> Result<(), Diagnostic> {
        cluster_loads(ctx, b);
        self.scratch_paths_start(ctx, b);
        let ops: Vec<OpId> = ctx.block_ops(b).collect();
        self.block_ops(ctx, b, &ops)?;
        // A reduction that expected a later one in this block, which then did not use the
        // scratch: fence before the block ends (a loop body runs again).
        if self.unfenced.is_some() {
            let parent = ctx.block_parent(b).and_then(|r| ctx.region_parent(r));
            let in_kernel_body = parent.is_some_and(|p| {
                TilusOpKind::classify(ctx, p).is_some_and(|k| matches!(k, TilusOpKind::Kernel(_)))
            });
            if !in_kernel_body {
                if let Some(last) = ctx.block_ops(b).last() {
                    self.unfenced = None;
                    SyncOp::build(&mut before(ctx, last));
                }
            }
        }
        self.scratch_paths_end(ctx, b);
        Ok(())
    }

    fn block_ops(&mut self, ctx: &mut Context, b: BlockId, ops: &[OpId]) -> Result<(), Diagnostic> {
        let ops = ops.to_vec();
        for o in ops {
            if !ctx.is_alive(o) {
                continue;
            }
            let name = ctx.op_name_str(o).to_string();
            if ForOp::is(ctx, o) && self.for_has_tiles(ctx, o) {
                self.lower_for(ctx, o)?;
                continue;
            }
            if yields_one_region(ctx, o) && self.for_has_tiles(ctx, o) {
                self.lower_branches(ctx, o)?;
                continue;
            }
            if WhileOp::is(ctx, o)
                && (self.for_has_tiles(ctx, o) || ctx.operands(o).iter().any(|v| is_reg(ctx, *v)))
            {
                self.lower_while(ctx, o)?;
                continue;
            }
            if YieldOp::is(ctx, o) || ConditionOp::is(ctx, o) {
                let carried = ctx.parent_op(o).is_some_and(|p| {
                    ForOp::is(ctx, p) || WhileOp::is(ctx, p) || yields_one_region(ctx, p)
                });
                if !carried && ctx.operands(o).iter().any(|v| self.tiles.contains_key(v)) {
                    return Err(Diagnostic::op(
                        o,
                        "cannot lower register tensors yielded here (only scf.for, scf.if, scf.while, scf.index_switch and scf.execute_region carry them)",
                    ));
                }
                continue;
            }
            if InstOp::is(ctx, o) && ctx.get_attr(o, "tile_block").is_some() {
                match self.tile_inst(ctx, o) {
                    Ok(()) => {
                        self.count += 1;
                        self.dead.push(o);
                    }
                    Err(m) => return Err(Diagnostic::op(o, format!("lower-tiles: {m}"))),
                }
                continue;
            }
            let at_root = self.kernel_body == Some(b);
            if TilusOpKind::classify(ctx, o).is_some() || ConvertOp::is(ctx, o) {
                let claims = self.scratch.claims();
                match self.op(ctx, o, &name) {
                    Ok(true) => {
                        self.count += 1;
                        self.dead.push(o);
                    }
                    Ok(false) => {}
                    Err(m) => return Err(Diagnostic::op(o, format!("lower-tiles: {m}"))),
                }
                // A scratch user of the whole block syncs the whole block (every user has a
                // barrier of its group between its stores and its loads).
                if at_root && self.scratch.claims() != claims && ctx.regions(o).is_empty() {
                    self.scratch.barrier();
                }
                continue;
            }
            if ctx.results(o).iter().any(|v| is_reg(ctx, *v)) {
                return Err(Diagnostic::op(
                    o,
                    format!("lower-tiles: cannot lower '{name}' producing register tensors"),
                ));
            }
            if at_root && SyncOp::is(ctx, o) {
                self.scratch.barrier();
            }
            let group = tilus_dialects::threadgroup::group_range(ctx, o).is_some();
            if group {
                // Reads of a reduction left unfenced (the next scratch user was expected in
                // this block) are fenced here, by every thread of the enclosing group: a
                // barrier inside the group would not wait for the threads outside it.
                if self.unfenced.take().is_some() {
                    SyncOp::build(&mut before(ctx, o));
                }
                self.scratch.enter();
            }
            for r in ctx.regions(o).to_vec() {
                for bb in ctx.region_blocks(r).to_vec() {
                    self.block(ctx, bb)?;
                }
            }
            if group {
                self.scratch.leave();
            }
        }
        Ok(())
    }

    fn for_has_tiles(&self, ctx: &Context, o: OpId) -> bool {
        ctx.results(o).iter().any(|v| is_reg(ctx, *v))
    }

    /// The group-relative thread index, read once per group body.
    fn tid(&mut self, ctx: &mut Context, at: OpId) -> Value {
        let body = group_body(ctx, at).expect("inside a kernel");
        if let Some(v) = self.tids.get(&body) {
            return *v;
        }
        let first = ctx.block_first(body).expect("non-empty");
        let mut b = before(ctx, first);
        let t = b.i32();
        let v = ThreadIdOp::build(&mut b, t).result(b.ctx());
        self.tids.insert(body, v);
        v
    }

    fn group_size(ctx: &Context, o: OpId) -> i64 {
        group_pos(ctx, o).map(|g| g.size).unwrap_or(1)
    }

    /// The layout of a result type, or the default.
    fn result_layout(ctx: &Context, o: OpId, v: Value) -> R<RegisterLayout> {
        let t = ty_of(ctx, v).ok_or("not a register tensor")?;
        match t.register_layout() {
            Some(l) => Ok(l),
            None => default_layout(&t.shape, t.dtype.bits(), Self::group_size(ctx, o)),
        }
    }

    fn tile(&self, v: Value) -> R<&Tile> {
        self.tiles
            .get(&v)
            .ok_or_else(|| "operand register tensor was not lowered".to_string())
    }

    /// Lowers one tilus op; `Ok(true)` when it is to be erased.
    fn op(&mut self, ctx: &mut Context, o: OpId, name: &str) -> R<bool> {
        use TilusOpKind as K;
        let kind = K::classify(ctx, o);
        if let Some(k) = &kind {
            if let Some(bin) = Binary::of(k) {
                self.elementwise(ctx, o, bin)?;
                return Ok(true);
            }
            if let Some(un) = Unary::of(k) {
                self.unary(ctx, o, un)?;
                return Ok(true);
            }
        }
        match kind {
            Some(K::GlobalView(_)) => {
                self.global_view(ctx, o)?;
                Ok(true)
            }
            Some(K::LockSemaphore(_)) | Some(K::ReleaseSemaphore(_)) => {
                self.semaphore(ctx, o, matches!(kind, Some(K::LockSemaphore(_))))?;
                Ok(true)
            }
            Some(K::RegisterTensor(_)) => {
                let r = ctx.results(o)[0];
                let t = ty_of(ctx, r).ok_or("bad type")?;
                let init = ctx.operands(o).first().copied();
                let elem = elem_type(ctx, t.dtype);
                let mut b = before(ctx, o);
                let v = match init {
                    Some(v) => v,
                    None => zero_of(&mut b, elem),
                };
                let (layout, splat) = match t.register_layout() {
                    Some(l) => (l, false),
                    None => (
                        default_layout(&t.shape, t.dtype.bits(), Self::group_size(b.ctx(), o))?,
                        true,
                    ),
                };
                let vals = vec![v; layout.local_size() as usize];
                self.set_tile(r, vals, layout, splat);
                Ok(true)
            }
            Some(K::LoadGlobal(_)) => {
                self.load_global(ctx, o)?;
                Ok(true)
            }
            Some(K::StoreGlobal(_)) => {
                self.store_global(ctx, o)?;
                Ok(true)
            }
            Some(K::LoadShared(_)) | Some(K::StoreShared(_)) => {
                self.shared_access(ctx, o, matches!(kind, Some(K::StoreShared(_))))?;
                Ok(true)
            }
            Some(K::Reduce(_)) => {
                self.reduce(ctx, o)?;
                Ok(true)
            }
            Some(K::SliceRegister(h)) => {
                self.slice_register(ctx, h)?;
                Ok(true)
            }
            Some(K::ShuffleUp(_)) | Some(K::ShuffleDown(_)) => {
                self.shuffle(ctx, o, matches!(kind, Some(K::ShuffleUp(_))))?;
                Ok(true)
            }
            _ if ConvertOp::is(ctx, o) => {
                let r = ctx.results(o)[0];
                let lt = Self::result_layout(ctx, o, r)?;
                let src = ctx.operands(o)[0];
                let vals = match self.gather(ctx, src, &lt) {
                    Ok(v) => v,
                    Err(_) => match self.convert_via_shuffles(ctx, o, src, &lt)? {
                        Some(v) => v,
                        None => self.convert_via_shared(ctx, o, src, &lt)?,
                    },
                };
                self.set_tile(r, vals, lt, false);
                Ok(true)
            }
            Some(K::Dot(_)) => {
                if !self.dot_wgmma(ctx, o)? && !self.dot_mma(ctx, o)? {
                    self.dot(ctx, o)?;
                }
                Ok(true)
            }
            _ => {
                if ctx.results(o).iter().any(|v| is_reg(ctx, *v))
                    || ctx.operands(o).iter().any(|v| is_reg(ctx, *v))
                {
                    return Err(format!("'{name}' on register tensors is not lowered yet"));
                }
                Ok(false)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::default_layout;
    use super::layout::{scratch_layout, scratch_wavefronts};
    use std::collections::HashMap;
    use tilus_dialects::layout_algebra::{RegisterLayout, SharedLayout};

    /// Runs a conversion through the scratch on paper: every thread stores its vectors of `ls`
    /// (replica 0 only) at the scratch's offsets, then loads its vectors of `lt`; each loaded
    /// element must be the one its register names. Also checks each vector's registers really
    /// are consecutive along the last dimension.
    fn simulate(ls: &RegisterLayout, lt: &RegisterLayout, bytes: i64, maxv: i64) -> SharedLayout {
        let (sl, (vs, gs), (vt, gt)) = scratch_layout(ls, lt, bytes, maxv);
        let last = ls.rank() - 1;
        let step = |idx: &[i64], i: i64| {
            let mut v = idx.to_vec();
            v[last] += i;
            v
        };
        let mut mem: HashMap<i64, Vec<i64>> = HashMap::new();
        for t in 0..ls.num_threads() {
            for g in &gs {
                let first = ls.coords(t, g[0] as i64);
                if ls.holders(&first).0.first() != Some(&t) {
                    continue;
                }
                let a = sl.offset(&first);
                assert_eq!(a % vs, 0, "misaligned vector");
                for (i, &r) in g.iter().enumerate() {
                    let idx = ls.coords(t, r as i64);
                    assert_eq!(idx, step(&first, i as i64));
                    assert!(
                        mem.insert(a + i as i64, idx).is_none(),
                        "two elements at one offset"
                    );
                }
            }
        }
        for t in 0..lt.num_threads() {
            for g in &gt {
                let first = lt.coords(t, g[0] as i64);
                let a = sl.offset(&first);
                assert_eq!(a % vt, 0, "misaligned vector");
                for (i, &r) in g.iter().enumerate() {
                    assert_eq!(mem.get(&(a + i as i64)), Some(&lt.coords(t, r as i64)));
                }
            }
        }
        sl
    }

    /// The layout-less transpose's conversion (infer-layouts' load and transposed-store
    /// layouts of a 64×64 f16 tile over 4 warps): rows stored in 16-byte vectors, read back
    /// 4 columns (8 bytes) of a row at a time, through an XOR-swizzled scratch that serves
    /// both sides in the ideal number of wavefronts, where the padded one has 8-way conflicts
    /// on the reads (rows 8 apart share a bank under any 16-byte padding).
    #[test]
    fn transpose_scratch() {
        let ls = RegisterLayout::parse("spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 8)")
            .unwrap();
        let lt = RegisterLayout::parse("spatial(1, 4) * column_spatial(8, 4) * column_local(8, 4)")
            .unwrap();
        let sl = simulate(&ls, &lt, 2, 8);
        assert!(sl.swizzle.is_some(), "{sl}");
        assert_eq!(sl.footprint(), 64 * 64, "no padding");
        let (_, (vs, gs), (vt, gt)) = scratch_layout(&ls, &lt, 2, 8);
        assert_eq!((vs, gs.len(), vt, gt.len()), (8, 4, 4, 8));
        // 4 warps; a store moves 512 bytes a warp (4 wavefronts), a load 256 (2).
        assert_eq!(scratch_wavefronts(&ls, &sl, &gs, vs, 2, true), 4 * 4 * 4);
        assert_eq!(scratch_wavefronts(&lt, &sl, &gt, vt, 2, false), 8 * 4 * 2);
        let padded = SharedLayout::strided(&[64, 64], &[72, 1]);
        assert_eq!(
            scratch_wavefronts(&lt, &padded, &gt, vt, 2, false),
            8 * 4 * 8
        );
    }

    /// Conversions where padding is as good keep the padded scratch, and every kind of
    /// conversion lands each element where the target wants it.
    #[test]
    fn scratch_round_trips() {
        let cases = [
            // A row vector replicated over warps, to one spread over lanes.
            (
                "spatial(4, 1) * local(1, 2) * spatial(1, 32) * local(1, 4)",
                "spatial(4, 32) * local(1, 8)",
                4,
                4,
            ),
            // f16 rows to f16 columns (the transpose's source and the old target).
            (
                "spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 8)",
                "spatial(1, 4) * local(1, 4) * column_spatial(8, 4) * local(8, 1)",
                2,
                8,
            ),
            // f32, 16 × 32 over 2 warps.
            (
                "spatial(2, 1) * local(2, 1) * spatial(4, 8) * local(1, 4)",
                "spatial(1, 2) * column_spatial(8, 4) * local(2, 4)",
                4,
                4,
            ),
        ];
        for (a, b, bytes, maxv) in cases {
            let ls = RegisterLayout::parse(a).unwrap();
            let lt = RegisterLayout::parse(b).unwrap();
            assert_eq!(ls.shape, lt.shape, "{a} vs {b}");
            simulate(&ls, &lt, bytes, maxv);
        }
    }

    fn same(a: &RegisterLayout, b: &str) -> bool {
        a.same_mapping(&RegisterLayout::parse(b).unwrap())
    }

    #[test]
    fn default_layouts() {
        // 4-element vectors along the last dim, threads along it, then the rows.
        let l = default_layout(&[32, 16], 32, 128).unwrap();
        assert!(same(&l, "spatial(32, 4) * local(1, 4)"), "{l}");
        // More elements than threads: the rest stays local, outermost.
        let l = default_layout(&[1024], 32, 128).unwrap();
        assert!(same(&l, "local(2) * spatial(128) * local(4)"), "{l}");
        // f16: 8-element (16-byte) vectors.
        let l = default_layout(&[4, 256], 16, 128).unwrap();
        assert!(same(&l, "spatial(4, 32) * local(1, 8)"), "{l}");
        // Fewer elements than threads: replication.
        let l = default_layout(&[8], 32, 32).unwrap();
        assert!(same(&l, "replicate(16) * spatial(2) * local(4)"), "{l}");
        assert_eq!(l.num_threads(), 32);
    }
}
