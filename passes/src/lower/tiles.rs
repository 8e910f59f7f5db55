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
//! scratch, also used by reductions across warps, is placed after what `plan-shared-memory`
//! allocated and `tilus.smem_bytes` grows to cover it.

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
use tilus_dialects::scf::{ForOp, IfOp, YieldOp};
use tilus_dialects::threadgroup::SyncOp;
use tilus_dialects::tilus::{
    same_start_view_source, SharedTensorOp, SliceSharedOp, ThreadIdOp, TilusOpKind,
};
use tilus_dialects::tilus_types::{prop_i64, DType, TensorType, DYN};
use tilus_ir::rewrite::Rewriter;
use tilus_ir::types::FloatKind;
use tilus_ir::{
    BlockId, Context, Diagnostic, OpBuilder, OpId, OperationState, Type, TypeKind, Value,
};

#[path = "mma.rs"]
mod mma;
#[path = "wgmma_dot.rs"]
mod wgmma_dot;
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
    /// Shared scratch for cross-warp reductions and layout conversions: its offset in the
    /// dynamic buffer (after what plan-shared-memory placed) and the most bytes one use needs.
    scratch_off: i64,
    scratch_bytes: i64,
    /// Pure scalar ops made here (unpacking loaded words, the element-wise and cast tile ops'
    /// instructions) to move down to their first user once the kernel is lowered; see
    /// [`Lowering::sink`].
    sinkable: Vec<OpId>,
    /// The end (bytes past `scratch_off`) of a region of the scratch that a cross-warp
    /// reduction read without a barrier after: until a barrier, later users must stay clear
    /// of it ([`Lowering::fence_scratch`]).
    unfenced: Option<i64>,
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
/// top 19 bits), every other type in its own.
fn elem_type(ctx: &mut Context, d: DType) -> Type {
    match d {
        DType::TF32 => DType::F32.to_type(ctx),
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
        self.block(ctx, body)?;
        if self.scratch_bytes > 0 || dots_end > planned {
            let total = self.scratch_off + self.scratch_bytes;
            if total > super::shared_memory::SMEM_LIMIT {
                return Err(Diagnostic::op(k, format!("lower-tiles: the kernel needs {total} bytes of shared memory with the reduction scratch")));
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

    fn block(&mut self, ctx: &mut Context, b: BlockId) -> Result<(), Diagnostic> {
        cluster_loads(ctx, b);
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
        Ok(())
    }

    fn block_ops(
        &mut self,
        ctx: &mut Context,
        _b: BlockId,
        ops: &[OpId],
    ) -> Result<(), Diagnostic> {
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
            if IfOp::is(ctx, o) && self.for_has_tiles(ctx, o) {
                self.lower_if(ctx, o)?;
                continue;
            }
            if YieldOp::is(ctx, o) {
                let carried = ctx
                    .parent_op(o)
                    .is_some_and(|p| ForOp::is(ctx, p) || IfOp::is(ctx, p));
                if !carried && ctx.operands(o).iter().any(|v| self.tiles.contains_key(v)) {
                    return Err(Diagnostic::op(
                        o,
                        "cannot lower register tensors yielded here (only scf.for and scf.if carry them)",
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
            if TilusOpKind::classify(ctx, o).is_some() || ConvertOp::is(ctx, o) {
                match self.op(ctx, o, &name) {
                    Ok(true) => {
                        self.count += 1;
                        self.dead.push(o);
                    }
                    Ok(false) => {}
                    Err(m) => return Err(Diagnostic::op(o, format!("lower-tiles: {m}"))),
                }
                continue;
            }
            if ctx.results(o).iter().any(|v| is_reg(ctx, *v)) {
                return Err(Diagnostic::op(
                    o,
                    format!("lower-tiles: cannot lower '{name}' producing register tensors"),
                ));
            }
            for r in ctx.regions(o).to_vec() {
                for bb in ctx.region_blocks(r).to_vec() {
                    self.block(ctx, bb)?;
                }
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

    /// Values of `src` (broadcast to `shape`) in the registers of layout `lt`.
    fn gather(&self, ctx: &Context, src: Value, lt: &RegisterLayout) -> R<Vec<Value>> {
        let s = self.tile(src)?;
        let n = lt.local_size() as usize;
        if let Some(v) = s.splat {
            return Ok(vec![v; n]);
        }
        let ls = &s.layout;
        if ls.shape == lt.shape && ls.same_mapping(lt) {
            return Ok(s.vals.clone());
        }
        let threads = lt.num_threads();
        if ls.num_threads() != threads {
            return Err(format!(
                "layouts spread over different thread counts ({} vs {threads})",
                ls.num_threads()
            ));
        }
        let off = lt.rank() as isize - ls.rank() as isize;
        let mut out = Vec::with_capacity(n);
        for l in 0..n as i64 {
            let mut found: Option<i64> = None;
            for t in 0..threads {
                let c = lt.coords(t, l);
                let sidx: Vec<i64> = (0..ls.rank())
                    .map(|j| {
                        let k = j as isize + off;
                        if ls.shape[j] == 1 || k < 0 {
                            0
                        } else {
                            c[k as usize]
                        }
                    })
                    .collect();
                let (holders, sl) = ls.holders(&sidx);
                if holders.binary_search(&t).is_err() || found.is_some_and(|f| f != sl) {
                    let unwritten = ty_of(ctx, src).is_some_and(|t| t.layout.is_none());
                    if unwritten {
                        return Err("a register tensor without a layout reached lower-tiles \
                             beside one with another layout; run infer-layouts first \
                             (tilus-to-ptx runs it unless infer-layouts=false), which chooses \
                             one layout for both or inserts the layout.convert between them"
                            .to_string());
                    }
                    return Err(format!(
                        "the operand's layout '{ls}' does not give thread {t} the element \
                         {sidx:?} that register {l} of the layout '{lt}' needs; insert a \
                         layout.convert to '{lt}' (infer-layouts does this where the layouts \
                         are its own choice)"
                    ));
                }
                found = Some(sl);
            }
            out.push(s.vals[found.unwrap_or(0) as usize]);
        }
        Ok(out)
    }

    /// `tpart` of a layout: per-dim thread coordinates, and the replica digits.
    fn tparts(
        &mut self,
        ctx: &mut Context,
        at: OpId,
        l: &RegisterLayout,
    ) -> (Vec<Value>, Vec<Value>) {
        let t = self.tid(ctx, at);
        let g = geo(l);
        let mut b = before(ctx, at);
        let zero = b.c32(0);
        let mut parts = vec![zero; l.rank()];
        let mut reps = Vec::new();
        let total = l.num_threads();
        for &(p, stride, size) in &g.tdig {
            let q = b.udiv_const(t, stride);
            let d = if stride * size >= total {
                q
            } else {
                b.urem_const(q, size)
            };
            if p < 0 {
                reps.push(d);
            } else {
                let m = p as usize;
                let w = b.mul_const(d, g.mode_weight[m]);
                let k = g.mode_dim[m];
                parts[k] = if parts[k] == zero {
                    w
                } else {
                    b.add(parts[k], w)
                };
            }
        }
        (parts, reps)
    }

    /// Lowers one tilus op; `Ok(true)` when it is to be erased.
    fn op(&mut self, ctx: &mut Context, o: OpId, name: &str) -> R<bool> {
        let short = &name[name.find('.').map(|i| i + 1).unwrap_or(0)..];
        use TilusOpKind as K;
        let kind = K::classify(ctx, o);
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
            Some(K::Add(_)) | Some(K::Sub(_)) | Some(K::Mul(_)) | Some(K::Div(_))
            | Some(K::Mod(_)) | Some(K::Maximum(_)) | Some(K::Minimum(_)) | Some(K::Cmp(_))
            | Some(K::Where(_)) => {
                self.elementwise(ctx, o, short)?;
                Ok(true)
            }
            Some(K::Exp(_)) | Some(K::Exp2(_)) | Some(K::Log(_)) | Some(K::Sqrt(_))
            | Some(K::Rsqrt(_)) | Some(K::Tanh(_)) | Some(K::Neg(_)) | Some(K::Abs(_))
            | Some(K::Cast(_)) => {
                self.unary(ctx, o, short)?;
                Ok(true)
            }
            Some(K::Reduce(_)) => {
                self.reduce(ctx, o)?;
                Ok(true)
            }
            Some(K::ShuffleUp(_)) | Some(K::ShuffleDown(_)) => {
                self.shuffle(ctx, o, short == "shuffle_up")?;
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

    fn global_view(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        let r = ctx.results(o)[0];
        let t = ty_of(ctx, r).ok_or("bad view type")?;
        let ptr = ctx.operands(o)[0];
        let ndyn_ext = t.shape.iter().filter(|d| **d == DYN).count();
        let ext_ops: Vec<Value> = ctx.operands(o)[1..1 + ndyn_ext].to_vec();
        let str_ops: Vec<Value> = ctx.operands(o)[1 + ndyn_ext..].to_vec();
        // The pointer parameter becomes an i64.
        let i64t = ctx.int_type(64);
        if ctx.value_type(ptr) != i64t {
            if ctx.defining_op(ptr).is_some() {
                return Err("the view's pointer must be a kernel parameter".into());
            }
            ctx.set_value_type(ptr, i64t);
        }
        let mut b = before(ctx, o);
        let mut ext = Vec::new();
        let mut it = ext_ops.into_iter();
        for &d in &t.shape {
            ext.push(if d == DYN {
                it.next().ok_or("extent operand")?
            } else {
                b.c32(d)
            });
        }
        let rank = t.shape.len();
        let mut strides = vec![None; rank];
        let mut static_strides = vec![None; rank];
        match &t.strides {
            Some(s) => {
                let mut it = str_ops.into_iter();
                for (i, &x) in s.iter().enumerate() {
                    if x == DYN {
                        strides[i] = Some(it.next().ok_or("stride operand")?);
                    } else {
                        strides[i] = Some(b.c32(x));
                        static_strides[i] = Some(x);
                    }
                }
            }
            None => {
                let mut acc: Option<Value> = None;
                let mut acc_static = Some(1i64);
                for i in (0..rank).rev() {
                    static_strides[i] = acc_static;
                    strides[i] = Some(match acc {
                        Some(v) => v,
                        None => b.c32(1),
                    });
                    let cur = strides[i].unwrap();
                    acc = Some(b.mul(cur, ext[i]));
                    acc_static = match (acc_static, t.shape[i]) {
                        (Some(a), d) if d != DYN => Some(a * d),
                        _ => None,
                    };
                }
            }
        }
        self.views.insert(
            r,
            View {
                base: ptr,
                ext,
                strides: strides.into_iter().map(|s| s.unwrap()).collect(),
                static_strides,
            },
        );
        Ok(())
    }

    /// Shared part of global loads and stores.
    #[allow(clippy::type_complexity)]
    fn global_plan(
        &mut self,
        ctx: &mut Context,
        o: OpId,
        view: Value,
        offsets: &[Value],
        layout: &RegisterLayout,
        dtype: DType,
    ) -> R<GPlan> {
        let v = self
            .views
            .get(&view)
            .ok_or("the view was not lowered")?
            .clone();
        let (tp, reps) = self.tparts(ctx, o, layout);
        let bytes = (dtype.bits() / 8).max(1) as i64;
        let rank = layout.rank();
        let n = layout.local_size();
        let lparts: Vec<Vec<i64>> = (0..n).map(|l| lpart(layout, l)).collect();
        // Vector width.
        let mut vw = if dtype.bits() >= 16 { 16 / bytes } else { 1 };
        // Vectors run along the view's contiguous dimension (static stride 1): the last one,
        // or dimension 0 of a transposed view.
        let last = v
            .static_strides
            .iter()
            .rposition(|s| *s == Some(1))
            .unwrap_or(rank - 1);
        if v.static_strides[last] == Some(1) {
            // Other strides only known at run time are checked on the fast path below.
            vw = register_vector_width(layout, &lparts, last, vw, |vw| {
                (0..rank)
                    .filter(|&d| d != last)
                    .all(|d| v.static_strides[d].is_none_or(|s| s % vw == 0))
            });
        } else {
            vw = 1;
        }
        let mut b = before(ctx, o);
        // Element coordinates of the thread's register 0 part.
        let idx: Vec<Value> = (0..rank).map(|d| b.add(offsets[d], tp[d])).collect();
        // Thread base address: base + Σ idx_d · stride_d · bytes (64-bit).
        let i64t = b.i64();
        let mut addr = v.base;
        for d in 0..rank {
            let x = ExtSIOp::build(&mut b, idx[d], i64t).out(b.ctx());
            let s = match v.static_strides[d] {
                Some(s) => b.mul_const(x, s * bytes),
                None => {
                    let s = ExtSIOp::build(&mut b, v.strides[d], i64t).out(b.ctx());
                    let s = b.mul_const(s, bytes);
                    b.mul(x, s)
                }
            };
            addr = b.add(addr, s);
        }
        // Per-register byte deltas: constants when the strides are. A dynamic stride's part is
        // computed where the access is (`GPlan::addr_of`), inside the fast or slow branch:
        // addresses made here would be live across the branch, two registers per row group.
        let mut deltas = Vec::new();
        let mut stride64: Vec<Option<Value>> = vec![None; rank];
        for l in 0..n as usize {
            let mut k = 0i64;
            let mut dynamic = Vec::new();
            for d in 0..rank {
                let c = lparts[l][d];
                if c == 0 {
                    continue;
                }
                match v.static_strides[d] {
                    Some(s) => k += c * s * bytes,
                    None => {
                        if stride64[d].is_none() {
                            let s = ExtSIOp::build(&mut b, v.strides[d], i64t).out(b.ctx());
                            stride64[d] = Some(b.mul_const(s, bytes));
                        }
                        dynamic.push((d, c));
                    }
                }
            }
            deltas.push(if dynamic.is_empty() {
                Delta::Imm(k)
            } else {
                Delta::Dyn(dynamic, k)
            });
        }
        // Fast path: the box is inside the view, everything aligned.
        let mut conds = Vec::new();
        let zero = b.c32(0);
        for d in 0..rank {
            conds.push(b.cmpi(CmpIPredicate::Sge, offsets[d], zero));
            let end = b.add_const(offsets[d], layout.shape[d]);
            conds.push(b.cmpi(CmpIPredicate::Sle, end, v.ext[d]));
        }
        if vw > 1 {
            let m = b.c32(vw - 1);
            let r = b.and(offsets[last], m);
            conds.push(b.cmpi(CmpIPredicate::Eq, r, zero));
            for d in (0..rank).filter(|&d| d != last) {
                if v.static_strides[d].is_none() {
                    let r = b.and(v.strides[d], m);
                    conds.push(b.cmpi(CmpIPredicate::Eq, r, zero));
                }
            }
            let m64 = b.c64(vw * bytes - 1);
            let z64 = b.c64(0);
            let r = b.and(v.base, m64);
            conds.push(b.cmpi(CmpIPredicate::Eq, r, z64));
        }
        let fast = b.all(&conds);
        // Replica 0 issues stores.
        let rep = b.replica0(&reps);
        Ok(GPlan {
            idx,
            ext: v.ext,
            lparts,
            addr,
            deltas,
            stride64,
            vw,
            fast,
            rep,
            bytes,
        })
    }

    fn load_global(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        let r = ctx.results(o)[0];
        let t = ty_of(ctx, r).ok_or("bad type")?;
        let layout = Self::result_layout(ctx, o, r)?;
        let view = ctx.operands(o)[0];
        let offsets = ctx.operands(o)[1..].to_vec();
        let p = self.global_plan(ctx, o, view, &offsets, &layout, t.dtype)?;
        let elem = elem_type(ctx, t.dtype);
        let n = layout.local_size() as usize;
        let mut b = before(ctx, o);
        let sfx = ld_suffix(t.dtype)?;
        // 16-bit elements cross the fast/slow join as the 32-bit words the fast path loads, and
        // are unpacked after it: ptxas gives every 16-bit value live at a join a register of its
        // own, so a tile joined as halves needs twice the registers (the CK-Tile RMSNorm's
        // 256-half x tile spilled for this alone).
        let packed = p.bytes == 2 && p.vw >= 2;
        let i32t = b.i32();
        let tys = if packed {
            vec![i32t; n / 2]
        } else {
            vec![elem; n]
        };
        let joined = build_if(
            &mut b,
            p.fast,
            &tys,
            |b| {
                let mut out = Vec::new();
                for l in (0..n).step_by(p.vw as usize) {
                    let (a, k) = p.addr_of(b, l);
                    if packed {
                        out.extend(vector_load_words(b, "global", a, k, p.vw as usize / 2));
                    } else {
                        out.extend(vector_load(
                            b,
                            "global",
                            a,
                            k,
                            elem,
                            p.vw as usize,
                            p.bytes,
                            sfx,
                        ));
                    }
                }
                out
            },
            |b| {
                let mut out = Vec::new();
                for l in 0..n {
                    let inb = p.in_bounds(b, l);
                    let (a, k) = p.addr_of(b, l);
                    let z = zero_imm(b.ctx(), elem);
                    let text = format!("mov.{z};\n@$2 ld.global.{sfx} $0, [$1{}];", imm(k));
                    out.push(b.asm(&text, &[a, inb], &[elem])[0]);
                    // Each pair packed as soon as it is loaded: halves are never all live.
                    if packed && l % 2 == 1 {
                        let hi = out.pop().expect("pushed");
                        let lo = out.pop().expect("pushed");
                        out.push(pack_halves(b, lo, hi));
                    }
                }
                out
            },
        );
        let vals: Vec<Value> = if packed {
            // Packing a pair again (a wgmma dot's staging) reuses the loaded word.
            let vals = self.unpack_words(ctx, o, &joined, elem);
            let unpacks = vals.iter().step_by(2).filter_map(|v| ctx.defining_op(*v));
            self.sinkable.extend(unpacks);
            vals
        } else {
            joined
        };
        self.set_tile(r, vals, layout, false);
        Ok(())
    }

    fn store_global(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        let val = ctx.operands(o)[0];
        let view = ctx.operands(o)[1];
        let offsets = ctx.operands(o)[2..].to_vec();
        let t = ty_of(ctx, val).ok_or("bad type")?;
        let tile_layout = &self.tile(val)?.layout;
        let layout = t.register_layout().unwrap_or_else(|| tile_layout.clone());
        let vals = self.gather(ctx, val, &layout)?;
        let p = self.global_plan(ctx, o, view, &offsets, &layout, t.dtype)?;
        let elem = elem_type(ctx, t.dtype);
        let n = layout.local_size() as usize;
        let sfx = ld_suffix(t.dtype)?;
        let mut b = before(ctx, o);
        let vw = p.vw as usize;
        // One fast/slow branch per [`STORE_CHUNK_BYTES`] of vectors when the tile is vectorized,
        // so each chunk's values are made (their element-wise producers sink to it, see `sink`)
        // right before they are stored: a branch over the whole tile keeps the whole tile live
        // across it, with the slow path's temporaries on top (the CK-Tile RMSNorm's 128 words
        // spilled there). The condition is block-uniform, so the branches do not diverge.
        let chunk = if vw >= 2 {
            (STORE_CHUNK_BYTES / p.bytes as usize).max(vw).min(n) / vw * vw
        } else {
            n
        };
        for c0 in (0..n).step_by(chunk) {
            let vals = &vals[c0..(c0 + chunk).min(n)];
            let chunk = vals.len();
            // 16-bit values cross the branch packed into the words the fast path stores.
            let packed = p.bytes == 2 && vw >= 2;
            let words: Vec<Value> = if packed {
                let ws: Vec<Value> = vals
                    .chunks(2)
                    .map(|h| pack_halves(&mut b, h[0], h[1]))
                    .collect();
                self.sinkable
                    .extend(ws.iter().filter_map(|w| b.ctx().defining_op(*w)));
                ws
            } else {
                Vec::new()
            };
            build_if(
                &mut b,
                p.fast,
                &[],
                |b| {
                    for l in (0..chunk).step_by(vw) {
                        let (a, k) = p.addr_of(b, c0 + l);
                        if packed {
                            let w = &words[l / 2..(l + vw) / 2];
                            vector_store_words(b, "global", a, k, w, p.rep);
                            continue;
                        }
                        vector_store(
                            b,
                            "global",
                            a,
                            k,
                            &vals[l..l + vw],
                            elem,
                            p.bytes,
                            sfx,
                            p.rep,
                        );
                    }
                    vec![]
                },
                |b| {
                    let mut pair: Vec<Value> = Vec::new();
                    for l in 0..chunk {
                        // Each word unpacked just before its two stores.
                        let v = if packed {
                            if l % 2 == 0 {
                                pair = unpack_word(b, words[l / 2], elem);
                            }
                            pair[l % 2]
                        } else {
                            vals[l]
                        };
                        let inb = p.in_bounds(b, c0 + l);
                        let g = match p.rep {
                            Some(r) => b.and(inb, r),
                            None => inb,
                        };
                        let (a, k) = p.addr_of(b, c0 + l);
                        b.inst(
                            &format!("st.global.{sfx}"),
                            &format!("[$0{}], $1", imm(k)),
                            &[a, v],
                            &[],
                            Some(g),
                        );
                    }
                    vec![]
                },
            );
        }
        Ok(())
    }

    /// `tilus.lock_semaphore` spins on `ld.acquire.gpu` until the element equals the value;
    /// `tilus.release_semaphore` is one `st.release.gpu`. The element's address is the view's
    /// base plus the offsets times the strides (4-byte elements).
    fn semaphore(&mut self, ctx: &mut Context, o: OpId, lock: bool) -> R<()> {
        let ops = ctx.operands(o).to_vec();
        let (view, rest) = ops.split_first().ok_or("semaphore without operands")?;
        let (value, offsets) = rest.split_last().ok_or("semaphore without a value")?;
        let v = self
            .views
            .get(view)
            .ok_or("the view was not lowered")?
            .clone();
        let mut b = before(ctx, o);
        let i64t = b.i64();
        let mut addr = v.base;
        for (d, &x) in offsets.iter().enumerate() {
            let x = ExtSIOp::build(&mut b, x, i64t).out(b.ctx());
            let off = match v.static_strides.get(d).copied().flatten() {
                Some(st) => b.mul_const(x, st * 4),
                None => {
                    let st = ExtSIOp::build(&mut b, v.strides[d], i64t).out(b.ctx());
                    let st = b.mul_const(st, 4);
                    b.mul(x, st)
                }
            };
            addr = b.add(addr, off);
        }
        if lock {
            b.asm(
                "{\n.reg .pred P;\n.reg .b32 V;\nLAB_SEM:\nld.acquire.gpu.global.b32 V, [$0];\nsetp.ne.s32 P, V, $1;\n@P bra LAB_SEM;\n}",
                &[addr, *value],
                &[],
            );
        } else {
            b.inst(
                "st.release.gpu.global.b32",
                "[$0], $1",
                &[addr, *value],
                &[],
                None,
            );
        }
        Ok(())
    }

    fn shared_access(&mut self, ctx: &mut Context, o: OpId, store: bool) -> R<()> {
        let (smem, val) = if store {
            (ctx.operands(o)[1], Some(ctx.operands(o)[0]))
        } else {
            (ctx.operands(o)[0], None)
        };
        let st = ty_of(ctx, smem).ok_or("bad shared type")?;
        let (rv, layout) = match val {
            Some(v) => {
                let t = ty_of(ctx, v).ok_or("bad type")?;
                let l = match t.register_layout() {
                    Some(l) => l,
                    None => self.tile(v)?.layout.clone(),
                };
                (v, l)
            }
            None => {
                let r = ctx.results(o)[0];
                (r, Self::result_layout(ctx, o, r)?)
            }
        };
        let vals = match val {
            Some(v) => Some(self.gather(ctx, v, &layout)?),
            None => None,
        };
        let (tp, reps) = self.tparts(ctx, o, &layout);
        let strides = st.strides.clone().unwrap_or_else(|| row_major(&st.shape));
        let swz = Swizzle::from_mode(st.swizzle, st.dtype.bits())?;
        let bytes = (st.dtype.bits() / 8).max(1) as i64;
        let elem = elem_type(ctx, st.dtype);
        let sfx = ld_suffix(st.dtype)?;
        let n = layout.local_size();
        let mut b = before(ctx, o);
        let base = shared_addr(&mut b, smem)?;
        // Thread part of the (unswizzled) element offset.
        let mut toff = b.c32(0);
        for (d, s) in strides.iter().enumerate() {
            let x = b.mul_const(tp[d], *s);
            toff = b.add(toff, x);
        }
        let rep = if store { b.replica0(&reps) } else { None };
        let vw = shared_vector_width(b.ctx(), smem, &layout, &strides, swz, bytes);
        let mut out = Vec::new();
        for l in (0..n).step_by(vw as usize) {
            let lp = lpart(&layout, l);
            let k: i64 = lp.iter().zip(&strides).map(|(c, s)| c * s).sum();
            let (a, imm_b) = match swz {
                None => (base, 0),
                Some(sw) => {
                    let off = b.add_const(toff, k);
                    let mask = ((1i64 << sw.bits) - 1) << (sw.base + sw.shift);
                    let m = b.c32(mask);
                    let hi = b.and(off, m);
                    let sh = b.c32(sw.shift as i64);
                    let hi = b.int_op(IntBinOp::ShRUI, hi, sh);
                    let s = b.int_op(IntBinOp::XOrI, off, hi);
                    let s = b.mul_const(s, bytes);
                    (b.add(base, s), 0)
                }
            };
            let (a, kk) = if swz.is_none() {
                let tb = b.mul_const(toff, bytes);
                (b.add(a, tb), k * bytes)
            } else {
                (a, imm_b)
            };
            let l = l as usize;
            match &vals {
                Some(vs) => {
                    let part = &vs[l..l + vw as usize];
                    vector_store(&mut b, "shared", a, kk, part, elem, bytes, sfx, rep);
                }
                None => {
                    let v = vector_load(&mut b, "shared", a, kk, elem, vw as usize, bytes, sfx);
                    out.extend(v);
                }
            }
        }
        if !store {
            self.set_tile(rv, out, layout, false);
        }
        Ok(())
    }

    fn elementwise(&mut self, ctx: &mut Context, o: OpId, kind: &str) -> R<()> {
        let r = ctx.results(o)[0];
        let lt = Self::result_layout(ctx, o, r)?;
        let args = ctx.operands(o).to_vec();
        let ins: Vec<Vec<Value>> = args
            .iter()
            .map(|a| self.gather(ctx, *a, &lt))
            .collect::<R<_>>()?;
        let dt = ty_of(ctx, args[args.len() - 1]).ok_or("bad type")?.dtype;
        let pred = prop_i64(ctx, o, "predicate").unwrap_or(0);
        let n = lt.local_size() as usize;
        let all_splat = args.iter().all(|a| self.tiles[a].splat.is_some());
        let before_o = ctx.prev_op(o);
        let mut b = before(ctx, o);
        let vals = map_cached(
            (0..n).map(|l| ins.iter().map(|v| v[l]).collect::<Vec<_>>()),
            |k| scalar_binary(&mut b, kind, k, dt, pred),
        )?;
        self.sink_made(ctx, o, before_o);
        self.set_tile(r, vals, lt, all_splat);
        Ok(())
    }

    fn unary(&mut self, ctx: &mut Context, o: OpId, kind: &str) -> R<()> {
        let r = ctx.results(o)[0];
        let x = ctx.operands(o)[0];
        let src = ty_of(ctx, x).ok_or("bad type")?.dtype;
        let dst = ty_of(ctx, r).ok_or("bad type")?.dtype;
        let lt = match ty_of(ctx, r).and_then(|t| t.register_layout()) {
            Some(l) => l,
            None => self.tile(x)?.layout.clone(),
        };
        let ins = self.gather(ctx, x, &lt)?;
        let splat = self.tile(x)?.splat.is_some();
        let before_o = ctx.prev_op(o);
        let mut b = before(ctx, o);
        let vals = map_cached(ins, |&v| {
            if kind == "cast" {
                scalar_cast(&mut b, v, src, dst)
            } else {
                scalar_unary(&mut b, kind, v, src)
            }
        })?;
        self.sink_made(ctx, o, before_o);
        self.set_tile(r, vals, lt, splat);
        Ok(())
    }

    fn reduce(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        let x = ctx.operands(o)[0];
        let r = ctx.results(o)[0];
        let dim = prop_i64(ctx, o, "dim").ok_or("dim")? as usize;
        let keepdim = ctx.get_inherent_or_attr(o, "keepdim").is_some();
        let kind = ["sum", "max", "min", "any", "all"]
            [prop_i64(ctx, o, "kind").unwrap_or(0).clamp(0, 4) as usize];
        let dt = ty_of(ctx, x).ok_or("bad type")?.dtype;
        let src = self.tile(x)?.clone();
        let li = src.layout.clone();
        let lo = match ty_of(ctx, r).and_then(|t| t.register_layout()) {
            Some(l) => l,
            None => li.reduce(&[dim], keepdim),
        };
        if lo.num_threads() != li.num_threads() {
            return Err("the result layout spreads over a different number of threads".into());
        }
        let g = geo(&li);
        // Lane digits of the reduced dim: (stride, size).
        let mut lanes = Vec::new();
        let mut warps = Vec::new();
        for &(p, stride, size) in &g.tdig {
            if p >= 0 && g.mode_dim[p as usize] == dim {
                if stride >= 32 {
                    warps.push((stride, size));
                    continue;
                }
                if stride.count_ones() != 1 || size.count_ones() != 1 {
                    return Err(format!("the reduced dimension {dim} of '{li}' is spread over a thread digit of size {size} that is not a power of two (lanes combine by butterfly shuffles)"));
                }
                if stride * size > 32 {
                    // A digit straddling warps: its lane bits shuffle, its warp bits go
                    // through the shared scratch.
                    lanes.push((stride, 32 / stride));
                    warps.push((32, stride * size / 32));
                    continue;
                }
                lanes.push((stride, size));
            }
        }
        let tid = if warps.is_empty() {
            None
        } else {
            Some(self.tid(ctx, o))
        };
        let gp = group_pos(ctx, o).ok_or("outside a kernel")?;
        let member: u64 = if gp.size >= 32 {
            0xffff_ffff
        } else {
            match gp.begin {
                Some(bg) => ((1u64 << gp.size) - 1) << (bg % 32),
                None => 1,
            }
        };
        let n = li.local_size();
        // Group registers by their coordinates outside the reduced dim.
        let mut keys: Vec<(Vec<i64>, Vec<usize>)> = Vec::new();
        for l in 0..n {
            let mut c = lpart(&li, l);
            c[dim] = 0;
            match keys.iter_mut().find(|(k, _)| *k == c) {
                Some((_, ls)) => ls.push(l as usize),
                None => keys.push((c, vec![l as usize])),
            }
        }
        let mut b = before(ctx, o);
        let mut partial: Vec<Value> = Vec::new();
        for (_, ls) in &keys {
            let mut acc = src.vals[ls[0]];
            for &l in &ls[1..] {
                acc = combine(&mut b, kind, acc, src.vals[l], dt)?;
            }
            for &(stride, size) in &lanes {
                let mut m = stride;
                while m < stride * size {
                    let other = shfl(&mut b, "bfly", acc, &m.to_string(), "0x1f", member, dt)?;
                    acc = combine(&mut b, kind, acc, other, dt)?;
                    m *= 2;
                }
            }
            partial.push(acc);
        }
        if let Some(t) = tid {
            partial =
                self.cross_warp(&mut b, o, t, &partial, &warps, li.num_threads(), kind, dt)?;
        }
        // Output registers: match each to a partial by coordinates, for every thread.
        let proj = |c: &[i64]| -> Vec<i64> {
            let mut c = c.to_vec();
            if keepdim {
                c[dim] = 0;
            } else {
                c.remove(dim);
            }
            c
        };
        let threads = li.num_threads();
        let mut vals = Vec::new();
        for lo_i in 0..lo.local_size() {
            let pick = keys.iter().position(|(_, ls)| {
                (0..threads).all(|t| proj(&li.coords(t, ls[0] as i64)) == lo.coords(t, lo_i))
            });
            match pick {
                Some(i) => vals.push(partial[i]),
                None => {
                    return Err(format!(
                        "the result layout '{lo}' does not match the reduction of '{li}'"
                    ))
                }
            }
        }
        self.set_tile(r, vals, lo, false);
        Ok(())
    }

    /// Combines per-thread partials across the warp digits `warps` (stride, size) of the
    /// thread index through shared scratch: every thread writes its partials at
    /// `[k][t]`, the group syncs, every thread folds the partials of the threads that differ
    /// from it only in those digits (in digit order, so every replica gets the same value),
    /// and the group syncs again before the scratch is reused.
    #[allow(clippy::too_many_arguments)]
    fn cross_warp(
        &mut self,
        b: &mut OpBuilder<'_>,
        o: OpId,
        t: Value,
        partial: &[Value],
        warps: &[(i64, i64)],
        threads: i64,
        kind: &str,
        dt: DType,
    ) -> R<Vec<Value>> {
        let bytes = (dt.bits() / 8).max(1) as i64;
        let sfx = ld_suffix(dt)?;
        let k = partial.len() as i64;
        // After a reduction whose reads no barrier followed, this one writes past its region.
        let off = self.unfenced.take().unwrap_or(0);
        let end = (off + k * threads * bytes + 15) / 16 * 16;
        self.scratch_bytes = self.scratch_bytes.max(end);
        let base = super::shared_memory::smem_base(b);
        let base = b.add_const(base, self.scratch_off + off);
        let tb = b.mul_const(t, bytes);
        let mine = b.add(base, tb);
        for (i, v) in partial.iter().enumerate() {
            b.inst(
                &format!("st.shared.{sfx}"),
                &format!("[$0{}], $1", imm(i as i64 * threads * bytes)),
                &[mine, *v],
                &[],
                None,
            );
        }
        SyncOp::build(b);
        // t with the reduced warp digits cleared.
        let mut t0 = t;
        for &(stride, size) in warps {
            let q = b.udiv_const(t, stride);
            let d = b.urem_const(q, size);
            let x = b.mul_const(d, stride);
            t0 = b.int_op(IntBinOp::SubI, t0, x);
        }
        let t0b = b.mul_const(t0, bytes);
        let first = b.add(base, t0b);
        let mut offs = vec![0i64];
        for &(stride, size) in warps {
            offs = offs
                .iter()
                .flat_map(|o| (0..size).map(move |j| o + j * stride))
                .collect();
        }
        offs.sort_unstable();
        let elem = b.ctx().value_type(partial[0]);
        let mut out = Vec::new();
        for i in 0..k {
            let mut acc: Option<Value> = None;
            for &off in &offs {
                let v = b.inst(
                    &format!("ld.shared.{sfx}"),
                    &format!("[$0{}]", imm((i * threads + off) * bytes)),
                    &[first],
                    &[elem],
                    None,
                )[0];
                acc = Some(match acc {
                    None => v,
                    Some(a) => combine(b, kind, a, v, dt)?,
                });
            }
            out.push(acc.expect("a warp digit"));
        }
        if self.next_scratch_is_reduce(b.ctx(), o) {
            // The next user of the scratch is another reduction (writing past this region,
            // then a barrier before its reads) or nothing: no barrier here.
            self.unfenced = Some(end);
        } else {
            SyncOp::build(b);
        }
        Ok(out)
    }

    /// Whether, after `o`, the next op of its block that may use the shared scratch is a
    /// `tilus.reduce`, or there is none and the block is the kernel's body. Only pure
    /// region-free ops (element-wise, casts, register tensors) and global loads and stores are
    /// passed over; a conversion, a dot, a loop, a branch or anything else stops the search.
    fn next_scratch_is_reduce(&self, ctx: &Context, o: OpId) -> bool {
        let mut at = ctx.next_op(o);
        while let Some(q) = at {
            match TilusOpKind::classify(ctx, q) {
                Some(TilusOpKind::Reduce(_)) => return true,
                Some(TilusOpKind::LoadGlobal(_) | TilusOpKind::StoreGlobal(_)) => {}
                Some(TilusOpKind::Dot(_)) => return false,
                _ => {
                    let pure = ctx.op_def(q).is_some_and(|d| d.has(tilus_ir::Trait::Pure))
                        && ctx.regions(q).is_empty();
                    if ConvertOp::is(ctx, q) || !pure {
                        // The kernel body's end is not an op of the block.
                        return false;
                    }
                }
            }
            at = ctx.next_op(q);
        }
        ctx.parent_op(o).is_some_and(|p| {
            TilusOpKind::classify(ctx, p).is_some_and(|k| matches!(k, TilusOpKind::Kernel(_)))
        })
    }

    /// Before a scratch user that writes from offset 0 (a conversion, a dot's staging): a
    /// barrier if a reduction's reads are still unfenced.
    fn fence_scratch(&mut self, ctx: &mut Context, o: OpId) {
        if self.unfenced.take().is_some() {
            SyncOp::build(&mut before(ctx, o));
        }
    }

    /// `layout.convert` within warps: when every register `l` of the target layout is, in every
    /// thread, register `r(l)` (the same for all threads) of a thread of the same warp, each
    /// target register is one `shfl.sync.idx` of source register `r(l)` from the lane that
    /// holds its element. The lane is computed from the thread's target coordinates through
    /// the source layout's digits (a replica digit keeps the thread's own value), and the
    /// whole mapping is checked at compile time for every thread; `None` when it does not
    /// hold (then the data goes through shared memory).
    fn convert_via_shuffles(
        &mut self,
        ctx: &mut Context,
        o: OpId,
        src: Value,
        lt: &RegisterLayout,
    ) -> R<Option<Vec<Value>>> {
        let s = self.tile(src)?.clone();
        let ls = s.layout.clone();
        let threads = lt.num_threads();
        if threads % 32 != 0 || ls.num_threads() != threads || ls.shape != lt.shape {
            return Ok(None);
        }
        let dt = ty_of(ctx, src).ok_or("bad type")?.dtype;
        if dt.bits() != 32 && dt.bits() != 16 {
            return Ok(None);
        }
        let gs = geo(&ls);
        // The source thread of element `c` for thread `t` (its own replica digits).
        let holder = |c: &[i64], t: i64| -> i64 {
            let mut h = 0;
            for &(p, stride, size) in &gs.tdig {
                let d = if p < 0 {
                    (t / stride) % size
                } else {
                    let m = p as usize;
                    (c[gs.mode_dim[m]] / gs.mode_weight[m]) % size
                };
                h += d * stride;
            }
            h
        };
        let mut regs = Vec::new();
        for l in 0..lt.local_size() {
            let mut reg = None;
            for t in 0..threads {
                let c = lt.coords(t, l);
                let h = holder(&c, t);
                let (hs, r) = ls.holders(&c);
                if h / 32 != t / 32 || hs.binary_search(&h).is_err() || reg.is_some_and(|x| x != r)
                {
                    return Ok(None);
                }
                reg = Some(r);
            }
            regs.push(reg.unwrap_or(0) as usize);
        }
        let (tpt, _) = self.tparts(ctx, o, lt);
        let t = self.tid(ctx, o);
        let mut b = before(ctx, o);
        let mut out = Vec::new();
        for l in 0..lt.local_size() {
            let lp = lpart(lt, l);
            let coord: Vec<Value> = (0..lt.rank()).map(|d| b.add_const(tpt[d], lp[d])).collect();
            let mut lane = b.c32(0);
            for &(p, stride, size) in &gs.tdig {
                if stride >= 32 {
                    continue;
                }
                let d = if p < 0 {
                    let q = b.udiv_const(t, stride);
                    b.urem_const(q, size)
                } else {
                    let m = p as usize;
                    let q = b.udiv_const(coord[gs.mode_dim[m]], gs.mode_weight[m]);
                    b.urem_const(q, size)
                };
                let w = b.mul_const(d, stride);
                lane = b.add(lane, w);
            }
            let lane = b.urem_const(lane, 32);
            let v = s.vals[regs[l as usize]];
            out.push(shfl_dyn(&mut b, "idx", v, lane, "0x1f", dt)?);
        }
        Ok(Some(out))
    }

    /// `layout.convert` through the shared scratch: every thread writes its registers at the
    /// elements' row-major positions (replica 0 of each element only), the group syncs, every
    /// thread reads the registers of the target layout, and the group syncs again. Rows are
    /// padded by 16 bytes, so a column read by consecutive lanes (a transpose) falls in
    /// different banks, and runs of registers that are consecutive along the last dimension
    /// (and aligned) move as one 16-byte (or narrower) vector.
    /// A conversion through a shared scratch: each thread stores its registers in the source
    /// layout and, after a barrier, loads them in the target layout.
    ///
    /// Both sides access vectors along the last dimension (up to 16 bytes), each a group of
    /// registers with consecutive coordinates there, in whatever register order the layout
    /// keeps them ([`vector_groups`]): a transpose's target holds columns of rows, and still
    /// reads a few adjacent columns of a row at once. The scratch is a row-major tile, either
    /// padded by 16 bytes a row or XOR-swizzled by 16-byte chunks ([`scratch_layout`] picks
    /// whichever serves both sides' vectors in the fewest bank wavefronts).
    fn convert_via_shared(
        &mut self,
        ctx: &mut Context,
        o: OpId,
        src: Value,
        lt: &RegisterLayout,
    ) -> R<Vec<Value>> {
        self.fence_scratch(ctx, o);
        let dt = ty_of(ctx, src).ok_or("bad type")?.dtype;
        let s = self.tile(src)?.clone();
        let ls = s.layout.clone();
        let bytes = (dt.bits() / 8).max(1) as i64;
        let sfx = ld_suffix(dt)?;
        let maxv = if dt.bits() >= 16 { 16 / bytes } else { 1 };
        let (sl, (_, gs), (vt, gt)) = scratch_layout(&ls, lt, bytes, maxv);
        let footprint = sl.shape[0] * sl.strides[0] * bytes;
        self.scratch_bytes = self.scratch_bytes.max(footprint);
        let (tps, reps) = self.tparts(ctx, o, &ls);
        let (tpt, _) = self.tparts(ctx, o, lt);
        let scratch = self.scratch_off;
        let mut b = before(ctx, o);
        let base = super::shared_memory::smem_base(&mut b);
        let base = b.add_const(base, scratch);
        // The thread's element offset (before the swizzle) from its per-dimension parts.
        let toff = |b: &mut OpBuilder<'_>, tp: &[Value]| -> Value {
            let mut acc = b.c32(0);
            for (d, v) in tp.iter().enumerate() {
                let x = b.mul_const(*v, sl.strides[d]);
                acc = b.add(acc, x);
            }
            acc
        };
        // The address of the element at offset `t + k`: a register and an immediate.
        let addr = |b: &mut OpBuilder<'_>, t: Value, k: i64| -> (Value, i64) {
            match sl.swizzle {
                None => {
                    let tb = b.mul_const(t, bytes);
                    (b.add(base, tb), k * bytes)
                }
                Some(sw) => {
                    let off = b.add_const(t, k);
                    let mask = ((1i64 << sw.bits) - 1) << (sw.base + sw.shift);
                    let m = b.c32(mask);
                    let hi = b.and(off, m);
                    let sh = b.c32(sw.shift as i64);
                    let hi = b.int_op(IntBinOp::ShRUI, hi, sh);
                    let x = b.int_op(IntBinOp::XOrI, off, hi);
                    let x = b.mul_const(x, bytes);
                    (b.add(base, x), 0)
                }
            }
        };
        let offset = |l: &RegisterLayout, i: usize| -> i64 {
            lpart(l, i as i64)
                .iter()
                .zip(&sl.strides)
                .map(|(c, s)| c * s)
                .sum()
        };
        let rep = b.replica0(&reps);
        let ts = toff(&mut b, &tps);
        let elem = b.ctx().value_type(s.vals[0]);
        for g in &gs {
            let (a, k) = addr(&mut b, ts, offset(&ls, g[0]));
            let vals: Vec<Value> = g.iter().map(|&r| s.vals[r]).collect();
            vector_store(&mut b, "shared", a, k, &vals, elem, bytes, sfx, rep);
        }
        SyncOp::build(&mut b);
        let tt = toff(&mut b, &tpt);
        let mut out = vec![None; lt.local_size() as usize];
        for g in &gt {
            let (a, k) = addr(&mut b, tt, offset(lt, g[0]));
            let vals = vector_load(&mut b, "shared", a, k, elem, vt as usize, bytes, sfx);
            for (&r, v) in g.iter().zip(vals) {
                out[r] = Some(v);
            }
        }
        SyncOp::build(&mut b);
        Ok(out
            .into_iter()
            .map(|v| v.expect("every register loaded"))
            .collect())
    }

    fn shuffle(&mut self, ctx: &mut Context, o: OpId, up: bool) -> R<()> {
        let x = ctx.operands(o)[0];
        let delta = ctx.operands(o)[1];
        let r = ctx.results(o)[0];
        let dt = ty_of(ctx, x).ok_or("bad type")?.dtype;
        let src = self.tile(x)?.clone();
        let mut b = before(ctx, o);
        let mut vals = Vec::new();
        for v in &src.vals {
            let (mode, c) = if up { ("up", "0") } else { ("down", "0x1f") };
            vals.push(shfl_dyn(&mut b, mode, *v, delta, c, dt)?);
        }
        self.set_tile(r, vals, src.layout, false);
        Ok(())
    }

    /// A `ptx.inst` with a register-tile operand (`tile_block = array<i64: b, n>`, made by
    /// `lower-async-to-ptx` for `wgmma.mma`, `tcgen05.ld`, `tcgen05.st`): the tile's registers
    /// in local-index order are cut into `n` equal blocks and block `b` becomes the
    /// instruction's register list.
    ///
    /// * With a result (the updated tile), the results are `bs = local_size / n` new scalars.
    ///   For `wgmma.*` the destination is read-write: the block's scalars become the leading
    ///   operands, written `{$0, ..., $bs-1}` where `{$0}` was, and the attribute `tied = bs`
    ///   says result `i` is operand `i` updated in place (the emitter gives both one register).
    ///   For `tcgen05.ld` it is write-only: `{$0}, ` leaves the form and `tied = 0` makes the
    ///   emitter print the results as the `{...}` destination. The result tile is the operand
    ///   tile with block `b` replaced by the new scalars.
    /// * Without a result (`tcgen05.st`): `{$0}` in the form becomes the brace list of the
    ///   block's scalars, appended after the other operands.
    fn tile_inst(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        use tilus_dialects::ptx::{
            inst_args_and_guard, inst_form, split_form, str_prop, FormPiece,
        };
        let (b, n) = match ctx
            .get_attr(o, "tile_block")
            .and_then(|a| ctx.int_array_values(a))
            .as_deref()
        {
            Some(&[b, n]) => (b, n),
            _ => return Err("tile_block must be array<i64: b, n>".into()),
        };
        let opcode = str_prop(ctx, o, "opcode").unwrap_or_default();
        let (args, guard) = inst_args_and_guard(ctx, o);
        let tile_v = *args
            .first()
            .ok_or("a tile_block instruction without operands")?;
        let tt = ty_of(ctx, tile_v)
            .ok_or("operand 0 of a tile_block instruction is not a register tile")?;
        let layout = match tt.register_layout() {
            Some(l) => l,
            None => self.tile(tile_v)?.layout.clone(),
        };
        let vals = self.gather(ctx, tile_v, &layout)?;
        let ls = vals.len() as i64;
        if n <= 0 || b < 0 || b >= n || ls % n != 0 {
            return Err(format!(
                "tile_block [{b}, {n}] does not cut the {ls} registers per thread into equal blocks"
            ));
        }
        if tt.dtype.bits() != 32 {
            return Err(format!(
                "'{opcode}' on a {} tile: only 32-bit registers (f32, i32) are expanded (packed 16-bit accumulators are not lowered yet)",
                tt.dtype.name()
            ));
        }
        let bs = ls / n;
        if opcode.starts_with("wgmma.mma_async") {
            check_wgmma_fragment(&layout, &opcode, &tt.shape, b, n)?;
        }
        let mut blk: Vec<Value> = vals[(b * bs) as usize..((b + 1) * bs) as usize].to_vec();
        let has_result = !ctx.results(o).is_empty();
        let tied = has_result && opcode.starts_with("wgmma.");
        if tied {
            // A value in several registers of the tile (a splat `register_tensor init`) cannot
            // be updated in place: give each such register its own copy, made right after the
            // value's definition (so before the `wgmma.fence` that orders register writes).
            let elem_ty = ctx.value_type(blk[0]);
            let mov = if tt.dtype.is_float() {
                "mov.f32"
            } else {
                "mov.b32"
            };
            let mut last: FxHashMap<Value, OpId> = FxHashMap::default();
            for j in 0..blk.len() {
                let v = blk[j];
                if vals.iter().filter(|x| **x == v).count() > 1 {
                    let mut rw = Rewriter::new(ctx);
                    match last.get(&v).copied().or_else(|| rw.ctx().defining_op(v)) {
                        Some(d) => rw.set_insertion_point_after(d),
                        None => {
                            let bb = rw
                                .ctx()
                                .value_block(v)
                                .ok_or("a tile register without a block")?;
                            rw.set_insertion_point_to_start(bb)
                        }
                    }
                    let props = tilus_dialects::ptx::inst_properties(
                        rw.ctx_mut(),
                        mov,
                        Some("$0"),
                        1,
                        None,
                    );
                    let loc = ctx_loc_of(rw.ctx(), v, o);
                    let c = rw.build(InstOp::DEF.name, vec![v], vec![elem_ty], props, loc);
                    blk[j] = rw.ctx().results(c)[0];
                    last.insert(v, c);
                }
            }
        }
        let others: Vec<Value> = args[1..].to_vec();
        let form = inst_form(ctx, o, args.len());
        let pieces = split_form(&form)?;
        let ntied = if tied { bs as usize } else { 0 };
        let mut new_form = String::new();
        let mut operands: Vec<Value> = Vec::new();
        if has_result {
            // The destination `{$0}` comes first: for a tied (read-write) destination it becomes
            // the block's registers `{$0, ..., $bs-1}` (the leading operands); for a write-only
            // one it goes, with the separator after it (the results print as `{...}`).
            let mut it = pieces.into_iter();
            match (it.next(), it.next()) {
                (Some(FormPiece::Text(t0)), Some(FormPiece::Operand(0))) if t0.trim() == "{" => {}
                _ => {
                    return Err(format!(
                        "the form '{form}' does not start with the destination {{$0}}"
                    ))
                }
            }
            match it.next() {
                Some(FormPiece::Text(t)) => {
                    let t = t.trim_start();
                    let t = t.strip_prefix('}').ok_or("expected '}' after {$0}")?;
                    if tied {
                        new_form.push('{');
                        new_form.push_str(
                            &(0..ntied)
                                .map(|i| format!("${i}"))
                                .collect::<Vec<_>>()
                                .join(", "),
                        );
                        new_form.push('}');
                        new_form.push_str(&t.replace('$', "$$"));
                    } else {
                        let t = t.trim_start();
                        let t = t.strip_prefix(',').unwrap_or(t);
                        new_form.push_str(&t.trim_start().replace('$', "$$"));
                    }
                }
                None => {}
                Some(_) => return Err(format!("unexpected form '{form}'")),
            }
            for p in it {
                match p {
                    FormPiece::Text(t) => new_form.push_str(&t.replace('$', "$$")),
                    FormPiece::Operand(0) => {
                        return Err("the tile appears twice in the form".into())
                    }
                    FormPiece::Operand(k) => new_form.push_str(&format!("${}", k - 1 + ntied)),
                }
            }
            if tied {
                operands.extend(&blk);
            }
            operands.extend(&others);
        } else {
            let m = others.len();
            for p in pieces {
                match p {
                    FormPiece::Text(t) => new_form.push_str(&t.replace('$', "$$")),
                    FormPiece::Operand(0) => new_form.push_str(
                        &(0..bs as usize)
                            .map(|i| format!("${}", m + i))
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                    FormPiece::Operand(k) => new_form.push_str(&format!("${}", k - 1)),
                }
            }
            operands.extend(&others);
            operands.extend(&blk);
        }
        let neg = ctx.get_prop(o, "guard_negated").is_some();
        let mut props = tilus_dialects::ptx::inst_properties(
            ctx,
            &opcode,
            Some(&new_form),
            operands.len(),
            guard.map(|_| neg),
        );
        let elem = elem_type(ctx, tt.dtype);
        let rtys: Vec<Type> = if has_result {
            vec![elem; bs as usize]
        } else {
            vec![]
        };
        let mut all = operands;
        all.extend(guard);
        let loc = ctx.op(o).loc;
        let mut rw = Rewriter::new(ctx);
        rw.set_insertion_point_before(o);
        let no = rw.build(InstOp::DEF.name, all, rtys, std::mem::take(&mut props), loc);
        if has_result {
            let i64t = ctx.int_type(64);
            let a = tilus_ir::rewrite::int_attr(ctx, i64t, ntied as u128);
            ctx.set_attr(no, "tied", Some(a));
            let res = ctx.results(no).to_vec();
            let mut nv = vals;
            nv[(b * bs) as usize..((b + 1) * bs) as usize].copy_from_slice(&res);
            let r = ctx.results(o)[0];
            self.set_tile(r, nv, layout, false);
        }
        Ok(())
    }

    /// `tilus.dot a, b, c` (`[M, K] x [K, N] + [M, N]`, f32 accumulation), the simple correct
    /// way (a SIMT dot, no tensor cores): every thread stores its registers of A and B, as
    /// f32, into the shared scratch (A row-major `[M][K+1]`, B `[K][N+1]`, the `+1` spreads a
    /// column over the banks), the group syncs, then one `scf.for` over `k` carries the
    /// accumulator registers: per step each thread loads `a[row, k]` for each distinct row of
    /// its output registers and `b[k, col]` for each distinct column, and does one
    /// `fma.rn.f32` per register, `k` ascending (the interpreter's order; an f16·f16 product is
    /// exact in f32, so `fma` and `mul`+`add` agree). A sync after the loop frees the scratch.
    fn dot(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        self.fence_scratch(ctx, o);
        let ops = ctx.operands(o).to_vec();
        let (a, bm, c) = (ops[0], ops[1], ops[2]);
        let r = ctx.results(o)[0];
        let (ta, tb, tc, tr) = (
            ty_of(ctx, a).ok_or("bad type")?,
            ty_of(ctx, bm).ok_or("bad type")?,
            ty_of(ctx, c).ok_or("bad type")?,
            ty_of(ctx, r).ok_or("bad type")?,
        );
        if ta.shape.len() != 2 || tb.shape.len() != 2 || tc.shape.len() != 2 {
            return Err("tilus.dot: only 2-D operands are lowered".into());
        }
        if tc.dtype != DType::F32 || tr.dtype != DType::F32 {
            return Err("tilus.dot: only an f32 accumulator and result are lowered".into());
        }
        for (t, n) in [(&ta, "A"), (&tb, "B")] {
            if !matches!(t.dtype, DType::F16 | DType::BF16 | DType::F32) {
                return Err(format!(
                    "tilus.dot: {n} of type {} is not lowered (f16, bf16, f32)",
                    t.dtype.name()
                ));
            }
        }
        let (m, k, n) = (ta.shape[0], ta.shape[1], tb.shape[1]);
        let lc = Self::result_layout(ctx, o, r)?;
        let acc = self.gather(ctx, c, &lc)?;
        let sa = k + 1; // A row stride (elements)
        let sb = n + 1; // B row stride
        let a_bytes = m * sa * 4;
        let total = a_bytes + k * sb * 4;
        self.scratch_bytes = self.scratch_bytes.max(total);
        let scratch = self.scratch_off;
        // Store A and B as f32.
        for (src, t, stride, off) in [(a, &ta, sa, 0i64), (bm, &tb, sb, a_bytes)] {
            let tile = self.tile(src)?.clone();
            let (vals, ls) = if tile.splat.is_some() {
                let l = default_layout(&t.shape, t.dtype.bits(), Self::group_size(ctx, o))?;
                (self.gather(ctx, src, &l)?, l)
            } else {
                (tile.vals.clone(), tile.layout.clone())
            };
            let (tp, reps) = self.tparts(ctx, o, &ls);
            let mut b = before(ctx, o);
            let base = super::shared_memory::smem_base(&mut b);
            let base = b.add_const(base, scratch + off);
            let rep = b.replica0(&reps);
            let row = b.mul_const(tp[0], stride * 4);
            let col = b.mul_const(tp[1], 4);
            let x = b.add(row, col);
            let addr = b.add(base, x);
            let mut cache: FxHashMap<Value, Value> = FxHashMap::default();
            for (l, v) in vals.iter().enumerate() {
                let lp = lpart(&ls, l as i64);
                let f = match cache.get(v) {
                    Some(f) => *f,
                    None => {
                        let f = scalar_cast(&mut b, *v, t.dtype, DType::F32)?;
                        cache.insert(*v, f);
                        f
                    }
                };
                b.inst(
                    "st.shared.f32",
                    &format!("[$0{}], $1", imm((lp[0] * stride + lp[1]) * 4)),
                    &[addr, f],
                    &[],
                    rep,
                );
            }
        }
        // Thread parts of the output layout.
        let (tp, _) = self.tparts(ctx, o, &lc);
        let nl = lc.local_size();
        let lps: Vec<Vec<i64>> = (0..nl).map(|l| lpart(&lc, l)).collect();
        let mut rows: Vec<i64> = lps.iter().map(|p| p[0]).collect();
        rows.sort_unstable();
        rows.dedup();
        let mut cols: Vec<i64> = lps.iter().map(|p| p[1]).collect();
        cols.sort_unstable();
        cols.dedup();
        let mut b = before(ctx, o);
        SyncOp::build(&mut b);
        let base = super::shared_memory::smem_base(&mut b);
        let abase = b.add_const(base, scratch);
        let arow = b.mul_const(tp[0], sa * 4);
        let a0 = b.add(abase, arow);
        let bbase = b.add_const(base, scratch + a_bytes);
        let bcol = b.mul_const(tp[1], 4);
        let b0 = b.add(bbase, bcol);
        let lo = b.c32(0);
        let hi = b.c32(k);
        let one = b.c32(1);
        let f32t = b.f32();
        let out = build_for(&mut b, lo, hi, one, &acc, |b, kv, accs| {
            let ka = b.mul_const(kv, 4);
            let pa = b.add(a0, ka);
            let kb = b.mul_const(kv, sb * 4);
            let pb = b.add(b0, kb);
            let av: FxHashMap<i64, Value> = rows
                .iter()
                .map(|&rr| {
                    let v = b.inst(
                        "ld.shared.f32",
                        &format!("[$0{}]", imm(rr * sa * 4)),
                        &[pa],
                        &[f32t],
                        None,
                    )[0];
                    (rr, v)
                })
                .collect();
            let bv: FxHashMap<i64, Value> = cols
                .iter()
                .map(|&cc| {
                    let v = b.inst(
                        "ld.shared.f32",
                        &format!("[$0{}]", imm(cc * 4)),
                        &[pb],
                        &[f32t],
                        None,
                    )[0];
                    (cc, v)
                })
                .collect();
            accs.iter()
                .enumerate()
                .map(|(l, &acc)| {
                    let p = &lps[l];
                    b.inst(
                        "fma.rn.f32",
                        "$0, $1, $2",
                        &[av[&p[0]], bv[&p[1]], acc],
                        &[f32t],
                        None,
                    )[0]
                })
                .collect()
        });
        SyncOp::build(&mut b);
        self.set_tile(r, out, lc, false);
        Ok(())
    }

    /// An `scf.if` whose results include register tensors: each becomes one result per
    /// register, in the layout its type names (else the layout the then-branch yields it in,
    /// which the else-branch is gathered into).
    fn lower_if(&mut self, ctx: &mut Context, i: OpId) -> Result<(), Diagnostic> {
        let loc = ctx.op(i).loc;
        let cond = ctx.operands(i)[0];
        let regions = ctx.regions(i).to_vec();
        let results = ctx.results(i).to_vec();
        let blocks: Vec<BlockId> = regions
            .iter()
            .map(|r| ctx.region_blocks(*r).first().copied())
            .collect::<Option<_>>()
            .filter(|b: &Vec<BlockId>| b.len() == 2)
            .ok_or_else(|| {
                Diagnostic::op(
                    i,
                    "lower-tiles: an scf.if with register tensor results needs both branches",
                )
            })?;
        for &bb in &blocks {
            self.block(ctx, bb)?;
        }
        let yields: Vec<OpId> = blocks
            .iter()
            .map(|&bb| {
                ctx.block_last(bb)
                    .expect("an scf.if branch ends with its yield")
            })
            .collect();
        let mut layouts: Vec<Option<RegisterLayout>> = Vec::new();
        for (k, r) in results.iter().enumerate() {
            if !is_reg(ctx, *r) {
                layouts.push(None);
                continue;
            }
            let l = match ty_of(ctx, *r).and_then(|t| t.register_layout()) {
                Some(l) => l,
                None => {
                    let v = ctx.operands(yields[0])[k];
                    self.tile(v)
                        .map_err(|m| Diagnostic::op(i, m))?
                        .layout
                        .clone()
                }
            };
            layouts.push(Some(l));
        }
        let mut rtys: Vec<Type> = Vec::new();
        for y in &yields {
            let yops = ctx.operands(*y).to_vec();
            let mut ny = Vec::new();
            let mut tail = Vec::new();
            for (k, v) in yops.iter().enumerate() {
                match &layouts[k] {
                    Some(l) => {
                        tail.extend(self.gather(ctx, *v, l).map_err(|m| Diagnostic::op(*y, m))?)
                    }
                    None => ny.push(*v),
                }
            }
            ny.extend(tail);
            rtys = ny.iter().map(|v| ctx.value_type(*v)).collect();
            let mut b = before(ctx, *y);
            YieldOp::build(&mut b, &ny);
            ctx.erase_op(*y);
        }
        let mut st = OperationState::of(ctx, IfOp::DEF)
            .with_operands(vec![cond])
            .with_results(rtys);
        st.loc = loc;
        st.properties = ctx.op(i).properties;
        let mut new_regions = Vec::new();
        for &bb in &blocks {
            let r = ctx.create_region();
            super::set_region_blocks(ctx, r, &[bb]);
            new_regions.push(r);
        }
        st.regions = new_regions;
        let ni = ctx.create_op(st);
        ctx.insert_op_before(i, ni);
        let nres = ctx.results(ni).to_vec();
        let mut scalar_i = 0;
        let mut tail_i = results.iter().filter(|r| !is_reg(ctx, **r)).count();
        for (k, r) in results.iter().enumerate() {
            match &layouts[k] {
                None => {
                    let mut rw = Rewriter::new(ctx);
                    rw.replace_all_uses_with(*r, nres[scalar_i]);
                    scalar_i += 1;
                }
                Some(l) => {
                    let n = l.local_size() as usize;
                    self.set_tile(*r, nres[tail_i..tail_i + n].to_vec(), l.clone(), false);
                    tail_i += n;
                }
            }
        }
        self.dead.push(i);
        self.count += 1;
        Ok(())
    }

    /// Unpacks 32-bit `words` into pairs of 16-bit `elem` registers before `at`, remembering
    /// each pair's word (see `packed`).
    fn unpack_words(
        &mut self,
        ctx: &mut Context,
        at: OpId,
        words: &[Value],
        elem: Type,
    ) -> Vec<Value> {
        let mut b = before(ctx, at);
        let mut vals = Vec::new();
        for &w in words {
            let h = unpack_word(&mut b, w, elem);
            self.packed.insert((h[0], h[1]), w);
            vals.extend(h);
        }
        vals
    }

    /// The 32-bit words of 16-bit registers `vals` (pairs in order): the word a pair was
    /// unpacked from, else a `mov.b32` packing it before `at`.
    fn pack_words(&mut self, ctx: &mut Context, at: OpId, vals: &[Value]) -> Vec<Value> {
        let mut b = before(ctx, at);
        let i32t = b.i32();
        vals.chunks(2)
            .map(|p| match self.packed.get(&(p[0], p[1])) {
                Some(w) => *w,
                None => b.inst("mov.b32", "{$0, $1}", &[p[0], p[1]], &[i32t], None)[0],
            })
            .collect()
    }

    fn lower_for(&mut self, ctx: &mut Context, f: OpId) -> Result<(), Diagnostic> {
        let loc = ctx.op(f).loc;
        let ops = ctx.operands(f).to_vec();
        let (bounds, inits) = ops.split_at(3);
        let body = ctx.region_blocks(ctx.regions(f)[0])[0];
        let old_args: Vec<Value> = ctx.block_args(body)[1..].to_vec();
        let results = ctx.results(f).to_vec();
        let mut new_inits = Vec::new();
        let mut tail_inits = Vec::new();
        let mut layouts = Vec::new();
        for (i, &init) in inits.iter().enumerate() {
            if is_reg(ctx, init) {
                let l = match ty_of(ctx, init).and_then(|t| t.register_layout()) {
                    Some(l) => l,
                    None => self
                        .tile(init)
                        .map_err(|m| Diagnostic::op(f, m))?
                        .layout
                        .clone(),
                };
                let vals = self
                    .gather(ctx, init, &l)
                    .map_err(|m| Diagnostic::op(f, m))?;
                // 16-bit tiles are carried as 32-bit words (two registers each), unpacked
                // right before their first use in the body: a word loaded in the previous
                // iteration is then not waited for before that use, and a store of the tile
                // (a dot's staging) takes the words as they are.
                let packed = ty_of(ctx, init).is_some_and(|t| t.dtype.bits() == 16)
                    && vals.len() % 2 == 0
                    && ctx.next_op(f).is_some();
                let vals = if packed {
                    self.pack_words(ctx, f, &vals)
                } else {
                    vals
                };
                // New block args for its registers.
                let mut args = Vec::new();
                for v in &vals {
                    let t = ctx.value_type(*v);
                    args.push(ctx.add_block_arg(body, t, None));
                }
                tail_inits.extend(vals);
                if packed {
                    let elem = elem_type(ctx, ty_of(ctx, init).expect("a tensor").dtype);
                    let at = first_user_in_block(ctx, ctx.block_first(body), old_args[i]);
                    let halves = self.unpack_words(ctx, at, &args, elem);
                    self.set_tile(old_args[i], halves, l.clone(), false);
                } else {
                    self.set_tile(old_args[i], args, l.clone(), false);
                }
                self.dead_args.push((body, old_args[i]));
                layouts.push(Some((l, packed)));
            } else {
                new_inits.push(init);
                layouts.push(None);
            }
        }
        new_inits.extend(tail_inits);
        self.block(ctx, body)?;
        // The yield.
        let y = ctx
            .block_last(body)
            .expect("an scf.for body ends with its yield");
        let yops = ctx.operands(y).to_vec();
        let mut ny = Vec::new();
        let mut tail = Vec::new();
        for (i, v) in yops.iter().enumerate() {
            match &layouts[i] {
                Some((l, packed)) => {
                    let vals = self.gather(ctx, *v, l).map_err(|m| Diagnostic::op(y, m))?;
                    if *packed {
                        tail.extend(self.pack_words(ctx, y, &vals));
                    } else {
                        tail.extend(vals);
                    }
                }
                None => ny.push(*v),
            }
        }
        ny.extend(tail);
        let mut b = before(ctx, y);
        YieldOp::build(&mut b, &ny);
        ctx.erase_op(y);
        // The new loop.
        let mut operands = bounds.to_vec();
        operands.extend(new_inits.iter().copied());
        let rtys: Vec<Type> = new_inits.iter().map(|v| ctx.value_type(*v)).collect();
        let mut st = OperationState::of(ctx, ForOp::DEF)
            .with_operands(operands)
            .with_results(rtys);
        st.loc = loc;
        st.properties = ctx.op(f).properties;
        let region = ctx.create_region();
        super::set_region_blocks(ctx, region, &[body]);
        st.regions = vec![region];
        let nf = ctx.create_op(st);
        ctx.insert_op_before(f, nf);
        let nres = ctx.results(nf).to_vec();
        let mut scalar_i = 0;
        let mut tail_i = results.iter().filter(|r| !is_reg(ctx, **r)).count();
        for (i, r) in results.iter().enumerate() {
            match &layouts[i] {
                None => {
                    let mut rw = Rewriter::new(ctx);
                    rw.replace_all_uses_with(*r, nres[scalar_i]);
                    scalar_i += 1;
                }
                Some((l, packed)) => {
                    let k = l.local_size() as usize;
                    if *packed {
                        let words = nres[tail_i..tail_i + k / 2].to_vec();
                        let elem = elem_type(ctx, ty_of(ctx, *r).expect("a tensor").dtype);
                        let at = first_user_in_block(ctx, ctx.next_op(f), *r);
                        let halves = self.unpack_words(ctx, at, &words, elem);
                        self.set_tile(*r, halves, l.clone(), false);
                        tail_i += k / 2;
                    } else {
                        self.set_tile(*r, nres[tail_i..tail_i + k].to_vec(), l.clone(), false);
                        tail_i += k;
                    }
                }
            }
        }
        self.dead.push(f);
        self.count += 1;
        Ok(())
    }
}

/// The location for a copy of `v`: its definition's, else `fallback`'s.
fn ctx_loc_of(ctx: &Context, v: Value, fallback: OpId) -> tilus_ir::Attr {
    ctx.defining_op(v)
        .map(|d| ctx.op(d).loc)
        .unwrap_or_else(|| ctx.op(fallback).loc)
}

/// Checks that register block `b` of `n` of an accumulator tile with layout `l` is the PTX
/// wgmma D fragment of a `wgmma.mma_async...m64n{N}k..` instruction (`opcode`): for thread `t`
/// of the warpgroup and register `j` of the block, the element is row `64·i + 16·(t/32) +
/// (t%32)/4 + 8·((j/2)%2)`, column `N·jn + 8·(j/4) + 2·(t%4) + j%2`, with `(i, jn) =
/// (b / rn, b % rn)` and `rn = cols / N` (spec §3.1, §6.5).
fn check_wgmma_fragment(l: &RegisterLayout, opcode: &str, shape: &[i64], b: i64, n: i64) -> R<()> {
    let inst_n: i64 = opcode
        .split('.')
        .find_map(|p| p.strip_prefix("m64n").and_then(|r| r.split('k').next()))
        .and_then(|x| x.parse().ok())
        .ok_or_else(|| format!("cannot read the instruction shape of '{opcode}'"))?;
    if shape.len() != 2 || shape[0] % 64 != 0 || shape[1] % inst_n != 0 {
        return Err(format!(
            "accumulator shape {shape:?} is not a multiple of m64n{inst_n}"
        ));
    }
    let (rm, rn) = (shape[0] / 64, shape[1] / inst_n);
    if rm * rn != n || l.num_threads() != 128 || l.local_size() != n * inst_n / 2 {
        return Err(format!(
            "the accumulator layout '{l}' is not the wgmma fragment of {rm}x{rn} m64n{inst_n} instructions (128 threads, {} registers each)",
            inst_n / 2
        ));
    }
    let bs = inst_n / 2;
    let (i, jn) = (b / rn, b % rn);
    for t in 0..128 {
        for j in 0..bs {
            let want = [
                64 * i + 16 * (t / 32) + (t % 32) / 4 + 8 * ((j / 2) % 2),
                inst_n * jn + 8 * (j / 4) + 2 * (t % 4) + j % 2,
            ];
            let got = l.coords(t, b * bs + j);
            if got != want {
                return Err(format!(
                    "the accumulator layout '{l}' puts thread {t}, register {} at {got:?}, but register {j} of wgmma block {b} holds {want:?} (use the wgmma accumulator layout, spec §3.1)",
                    b * bs + j
                ));
            }
        }
    }
    Ok(())
}

/// How a register's address is formed.
/// How many bytes of a thread's registers one fast/slow branch of a vectorized global store
/// covers (see `store_global`): enough vectors to amortize the branch and share the slow path's
/// bounds checks, few enough registers to keep live across it.
const STORE_CHUNK_BYTES: usize = 64;

#[derive(Clone, Debug)]
enum Delta {
    /// Thread address plus a constant.
    Imm(i64),
    /// Thread address plus `Σ c · stride_d` over dynamic strides (dimension, coefficient),
    /// plus a constant.
    Dyn(Vec<(usize, i64)>, i64),
}

struct GPlan {
    idx: Vec<Value>,
    ext: Vec<Value>,
    lparts: Vec<Vec<i64>>,
    addr: Value,
    deltas: Vec<Delta>,
    /// Byte strides (i64) of the dynamic dimensions the deltas use.
    stride64: Vec<Option<Value>>,
    vw: i64,
    fast: Value,
    rep: Option<Value>,
    bytes: i64,
}

impl GPlan {
    /// The address of register `l` as (register, constant), computed at `b`'s insertion point.
    fn addr_of(&self, b: &mut OpBuilder<'_>, l: usize) -> (Value, i64) {
        match &self.deltas[l] {
            Delta::Imm(k) => (self.addr, *k),
            Delta::Dyn(parts, k) => {
                let mut a = self.addr;
                for &(d, c) in parts {
                    let s = self.stride64[d].expect("dynamic stride");
                    let t = b.mul_const(s, c);
                    a = b.add(a, t);
                }
                (a, *k)
            }
        }
    }
    fn in_bounds(&self, b: &mut OpBuilder<'_>, l: usize) -> Value {
        let mut ps = Vec::new();
        for d in 0..self.idx.len() {
            let i = b.add_const(self.idx[d], self.lparts[l][d]);
            ps.push(b.cmpi(CmpIPredicate::Ult, i, self.ext[d]));
        }
        b.all(&ps)
    }
}

/// Moves each global tile load of `block` up to just after the previous one, across ops that
/// are pure and hold no regions (register arithmetic: casts, reductions, element-wise) and
/// define none of its operands. A load written after some arithmetic (LayerNorm's weight and
/// bias rows, loaded after both row reductions) then issues beside the first, and its latency
/// hides behind that arithmetic instead of following it; loads keep their order, and nothing
/// moves across a store, a barrier or a loop.
fn cluster_loads(ctx: &mut Context, block: BlockId) {
    let is_load = |ctx: &Context, o: OpId| {
        matches!(
            TilusOpKind::classify(ctx, o),
            Some(TilusOpKind::LoadGlobal(_))
        )
    };
    let ops: Vec<OpId> = ctx.block_ops(block).collect();
    let mut prev_load: Option<OpId> = None;
    for o in ops {
        if !is_load(ctx, o) {
            continue;
        }
        if let Some(prev) = prev_load {
            let operands: FxHashSet<Value> = ctx.operands(o).iter().copied().collect();
            let mut to = o;
            let mut at = ctx.prev_op(o);
            while let Some(q) = at.filter(|q| *q != prev) {
                let pure = ctx.op_def(q).is_some_and(|d| d.has(tilus_ir::Trait::Pure))
                    && ctx.regions(q).is_empty();
                if !pure || ctx.results(q).iter().any(|r| operands.contains(r)) {
                    break;
                }
                to = q;
                at = ctx.prev_op(q);
            }
            if to != o {
                ctx.move_op_before(o, to);
            }
        }
        prev_load = Some(o);
    }
}

/// The registers of `l` cut into vectors of `vw` elements along the last dimension: groups
/// (first register first) whose coordinates run `c, c + 1, ..., c + vw - 1` there from an
/// aligned `c`, the rest equal, with every thread part along it a multiple of `vw` so the
/// whole vector is aligned. `None` when the registers do not split so.
fn vector_groups(l: &RegisterLayout, vw: i64) -> Option<Vec<Vec<usize>>> {
    let n = l.local_size();
    let rank = l.rank();
    let last = rank - 1;
    if n % vw != 0 {
        return None;
    }
    let g = geo(l);
    let aligned = g.tdig.iter().all(|&(p, _, _)| {
        p < 0 || g.mode_dim[p as usize] != last || g.mode_weight[p as usize] % vw == 0
    });
    if !aligned {
        return None;
    }
    let parts: Vec<Vec<i64>> = (0..n).map(|r| lpart(l, r)).collect();
    let at: FxHashMap<&[i64], usize> = parts
        .iter()
        .enumerate()
        .map(|(r, p)| (p.as_slice(), r))
        .collect();
    if at.len() != n as usize {
        return None;
    }
    let mut groups = Vec::new();
    for (r, p) in parts.iter().enumerate() {
        if p[last] % vw != 0 {
            continue;
        }
        let mut grp = vec![r];
        let mut q = p.clone();
        for _ in 1..vw {
            q[last] += 1;
            grp.push(*at.get(q.as_slice())?);
        }
        groups.push(grp);
    }
    (groups.len() as i64 * vw == n).then_some(groups)
}

/// The widest vector (up to `maxv` elements) the registers of `l` split into along the last
/// dimension of a scratch with row stride `row`, and the split.
fn widest_groups(l: &RegisterLayout, maxv: i64, row: i64) -> (i64, Vec<Vec<usize>>) {
    let mut vw = maxv;
    while vw > 1 {
        if row % vw == 0 {
            if let Some(g) = vector_groups(l, vw) {
                return (vw, g);
            }
        }
        vw /= 2;
    }
    (1, (0..l.local_size() as usize).map(|r| vec![r]).collect())
}

/// Bank wavefronts of accessing `sl` with the vectors `groups` (of `vw` elements) of register
/// layout `l`, summed over instructions and warps: per instruction, the most distinct 4-byte
/// words any bank serves, at least the bytes over 128. A store counts replica 0 only.
fn scratch_wavefronts(
    l: &RegisterLayout,
    sl: &SharedLayout,
    groups: &[Vec<usize>],
    vw: i64,
    bytes: i64,
    store: bool,
) -> i64 {
    let threads = l.num_threads();
    let mut total = 0;
    for g in groups {
        for w in 0..(threads + 31) / 32 {
            let mut banks: FxHashMap<i64, FxHashSet<i64>> = FxHashMap::default();
            let mut lanes = 0;
            for t in w * 32..((w + 1) * 32).min(threads) {
                let idx = l.coords(t, g[0] as i64);
                if store && l.holders(&idx).0.first() != Some(&t) {
                    continue;
                }
                lanes += 1;
                let a = sl.offset(&idx) * bytes;
                for word in a / 4..=(a + vw * bytes - 1) / 4 {
                    banks.entry(word % 32).or_default().insert(word);
                }
            }
            let ideal = (lanes * vw * bytes + 127) / 128;
            let worst = banks.values().map(|s| s.len() as i64).max().unwrap_or(0);
            total += worst.max(ideal);
        }
    }
    total
}

/// The scratch of a conversion from `ls` to `lt` (elements of `bytes` bytes, vectors of up to
/// `maxv`) and each side's vectors: a row-major tile padded by one vector a row (the rows of
/// a column fall in different banks) or, where the rows are a power of two of whole 16-byte
/// chunks, unpadded with the chunks of a row XORed by bits of the row number, whichever costs
/// fewer wavefronts over both sides (the padded one on a tie). A swizzle can serve both sides
/// without conflicts where padding cannot: a transpose whose target reads a few columns of
/// rows 8 apart puts them in one bank under any padding of 16 bytes.
#[allow(clippy::type_complexity)]
fn scratch_layout(
    ls: &RegisterLayout,
    lt: &RegisterLayout,
    bytes: i64,
    maxv: i64,
) -> (SharedLayout, (i64, Vec<Vec<usize>>), (i64, Vec<Vec<usize>>)) {
    let shape = lt.shape.clone();
    let rank = shape.len();
    let mut padded = shape.clone();
    if rank >= 2 && maxv > 1 && shape[rank - 1] % maxv == 0 {
        padded[rank - 1] += maxv;
    }
    let strides = row_major(&padded);
    let mut best = SharedLayout::strided(&shape, &strides);
    let cost = |sl: &SharedLayout| {
        let row = if rank >= 2 { sl.strides[rank - 2] } else { 1 };
        let (vs, gs) = widest_groups(ls, maxv, row);
        let (vt, gt) = widest_groups(lt, maxv, row);
        let c = scratch_wavefronts(ls, sl, &gs, vs, bytes, true)
            + scratch_wavefronts(lt, sl, &gt, vt, bytes, false);
        (c, (vs, gs), (vt, gt))
    };
    let (mut best_cost, mut bs, mut bt) = cost(&best);
    let cols = shape[rank - 1];
    let chunk = 16 / bytes;
    let rows: i64 = shape[..rank - 1].iter().product();
    if rank >= 2
        && bytes <= 16
        && cols % chunk == 0
        && (cols / chunk).count_ones() == 1
        && cols / chunk >= 2
    {
        let plain = row_major(&shape);
        let bits = (cols / chunk).min(8).trailing_zeros();
        let base = chunk.trailing_zeros();
        let row_bit = cols.trailing_zeros();
        // XOR the chunk index with bits of row / 2^s.
        let mut s = 0;
        while (1i64 << s) < rows {
            let mut sl = SharedLayout::strided(&shape, &plain);
            sl.swizzle = Some(Swizzle::new(bits, base, row_bit - base + s));
            let (c, gs, gt) = cost(&sl);
            if c < best_cost {
                (best, best_cost, bs, bt) = (sl, c, gs, gt);
            }
            s += 1;
        }
    }
    (best, bs, bt)
}

fn imm(k: i64) -> String {
    match k.cmp(&0) {
        std::cmp::Ordering::Equal => String::new(),
        std::cmp::Ordering::Greater => format!("+{k}"),
        std::cmp::Ordering::Less => format!("+{k}"),
    }
}

/// The `ld`/`st` type suffix of an element type.
fn ld_suffix(d: DType) -> R<&'static str> {
    Ok(match d {
        DType::F32 | DType::TF32 => "f32",
        DType::F64 => "f64",
        DType::F16 | DType::BF16 => "b16",
        DType::Int { bits: 32, .. } => "b32",
        DType::Int { bits: 64, .. } => "b64",
        DType::Int { bits: 16, .. } => "b16",
        DType::Int { bits: 8, .. } => "s8",
        other => {
            return Err(format!(
                "memory accesses of '{}' are not lowered",
                other.name()
            ))
        }
    })
}

/// `mov` of zero into `$0`, for a register of type `t`.
fn zero_imm(ctx: &Context, t: Type) -> String {
    match ctx.type_kind(t) {
        TypeKind::Float(FloatKind::F32) => "f32 $0, 0f00000000".into(),
        TypeKind::Float(FloatKind::F64) => "f64 $0, 0d0000000000000000".into(),
        TypeKind::Float(_) => "b16 $0, 0".into(),
        TypeKind::Integer { width: 64, .. } => "b64 $0, 0".into(),
        TypeKind::Integer { width: 8 | 16, .. } => "b16 $0, 0".into(),
        _ => "b32 $0, 0".into(),
    }
}

fn zero_of(b: &mut OpBuilder<'_>, t: Type) -> Value {
    match b.ctx().type_kind(t).clone() {
        TypeKind::Float(_) => b.cfloat_bits(t, 0),
        _ => b.cint(t, 0),
    }
}

/// `scf.if cond -> (tys) { then } else { else }`, returning the results.
/// `scf.for %i = lo to hi step st iter_args(inits)` (i32 bounds) with the body from `body_f`
/// (given the induction variable and the carried values, returning the yielded ones).
fn build_for(
    b: &mut OpBuilder<'_>,
    lo: Value,
    hi: Value,
    st: Value,
    inits: &[Value],
    body_f: impl FnOnce(&mut OpBuilder<'_>, Value, &[Value]) -> Vec<Value>,
) -> Vec<Value> {
    let i32t = b.i32();
    let mut arg_tys = vec![i32t];
    arg_tys.extend(inits.iter().map(|v| b.ctx().value_type(*v)));
    let ctx = b.ctx_mut();
    let body = ctx.create_block(&arg_tys);
    let region = ctx.create_region();
    ctx.push_block(region, body);
    let loc = b.loc();
    let mut operands = vec![lo, hi, st];
    operands.extend(inits);
    let mut state = OperationState::of(b.ctx_mut(), ForOp::DEF)
        .with_operands(operands)
        .with_results(arg_tys[1..].to_vec())
        .with_regions(vec![region]);
    state.loc = loc;
    let f = b.create(state);
    let saved = b.insertion_point();
    b.set_insertion_point_to_end(body);
    let args = b.ctx().block_args(body).to_vec();
    let ys = body_f(b, args[0], &args[1..]);
    YieldOp::build(b, &ys);
    b.set_insertion_point(saved);
    b.ctx().results(f).to_vec()
}

fn build_if(
    b: &mut OpBuilder<'_>,
    cond: Value,
    tys: &[Type],
    then_f: impl FnOnce(&mut OpBuilder<'_>) -> Vec<Value>,
    else_f: impl FnOnce(&mut OpBuilder<'_>) -> Vec<Value>,
) -> Vec<Value> {
    let ctx = b.ctx_mut();
    let tb = ctx.create_block(&[]);
    let eb = ctx.create_block(&[]);
    let tr = ctx.create_region();
    ctx.push_block(tr, tb);
    let er = ctx.create_region();
    ctx.push_block(er, eb);
    let loc = b.loc();
    let mut st = OperationState::of(b.ctx_mut(), IfOp::DEF)
        .with_operands(vec![cond])
        .with_results(tys.to_vec())
        .with_regions(vec![tr, er]);
    st.loc = loc;
    let i = b.create(st);
    let saved = b.insertion_point();
    b.set_insertion_point_to_end(tb);
    let tv = then_f(b);
    YieldOp::build(b, &tv);
    b.set_insertion_point_to_end(eb);
    let ev = else_f(b);
    YieldOp::build(b, &ev);
    b.set_insertion_point(saved);
    b.ctx().results(i).to_vec()
}

/// How many registers of a `load_shared`/`store_shared` one instruction moves (up to 16
/// bytes): a run of registers that are consecutive elements along the shared tensor's
/// stride-1 dimension, starting at a multiple of the width in every thread, inside one
/// swizzle chunk (the swizzle moves whole chunks, so a chunk stays contiguous), with every
/// other stride and the view's offset in its allocation multiples of the width. The
/// wgmma accumulator's two adjacent columns then go as one 32-bit word, a row-major tile's
/// eight f16 as one 16-byte vector.
fn shared_vector_width(
    ctx: &Context,
    smem: Value,
    layout: &RegisterLayout,
    strides: &[i64],
    swz: Option<Swizzle>,
    bytes: i64,
) -> i64 {
    let Some(last) = strides.iter().rposition(|&s| s == 1) else {
        return 1;
    };
    let lparts: Vec<Vec<i64>> = (0..layout.local_size()).map(|l| lpart(layout, l)).collect();
    let mut vw = if bytes >= 2 { 16 / bytes } else { 1 };
    if let Some(sw) = swz {
        vw = vw.min(1i64 << sw.base);
    }
    register_vector_width(layout, &lparts, last, vw, |vw| {
        (0..strides.len()).all(|d| d == last || strides[d] % vw == 0)
            && view_offset_aligned(ctx, smem, vw)
    })
}

/// The widest width (a power of two, at most `max`) at which every run of `width` registers
/// is `width` consecutive elements along dimension `last` starting at a multiple of
/// `width` in every thread (the layout's thread digits along `last` step by multiples of it),
/// and `memory_ok(width)` holds for the memory side (its other strides, its alignment): the
/// one rule for vector accesses to global and shared memory.
fn register_vector_width(
    layout: &RegisterLayout,
    lparts: &[Vec<i64>],
    last: usize,
    max: i64,
    memory_ok: impl Fn(i64) -> bool,
) -> i64 {
    let n = layout.local_size();
    let rank = layout.rank();
    let g = geo(layout);
    let ok = |vw: i64| -> bool {
        n % vw == 0
            && g.tdig.iter().all(|&(p, _, _)| {
                p < 0 || g.mode_dim[p as usize] != last || g.mode_weight[p as usize] % vw == 0
            })
            && memory_ok(vw)
            && (0..n).step_by(vw as usize).all(|l| {
                let a = &lparts[l as usize];
                a[last] % vw == 0
                    && (1..vw).all(|i| {
                        let c = &lparts[(l + i) as usize];
                        (0..rank).all(|d| c[d] == a[d] + if d == last { i } else { 0 })
                    })
            })
    };
    let mut vw = max.max(1);
    while vw > 1 && !ok(vw) {
        vw /= 2;
    }
    vw
}

/// Whether a shared view starts at a multiple of `vw` elements from its allocation (which is
/// at least 128-byte aligned): every slice on the way indexes dimensions whose strides are
/// multiples of `vw`; permutations and reshapes keep the start.
fn view_offset_aligned(ctx: &Context, mut v: Value, vw: i64) -> bool {
    loop {
        let Some(d) = ctx.defining_op(v) else {
            return false;
        };
        if SharedTensorOp::is(ctx, d) {
            return true;
        }
        if let Some(sl) = SliceSharedOp::cast(ctx, d) {
            let src = sl.src(ctx);
            let Some(t) = ty_of(ctx, src) else {
                return false;
            };
            let st = t.strides.clone().unwrap_or_else(|| row_major(&t.shape));
            if st[..sl.indices(ctx).len()].iter().any(|s| s % vw != 0) {
                return false;
            }
            v = src;
        } else if let Some(src) = same_start_view_source(ctx, d) {
            v = src;
        } else {
            return false;
        }
    }
}

/// `vw` contiguous elements from `[a+k]`.
#[allow(clippy::too_many_arguments)]
fn vector_load(
    b: &mut OpBuilder<'_>,
    space: &str,
    a: Value,
    k: i64,
    elem: Type,
    vw: usize,
    bytes: i64,
    sfx: &str,
) -> Vec<Value> {
    let addr = format!("[$0{}]", imm(k));
    if vw == 1 {
        return b.inst(&format!("ld.{space}.{sfx}"), &addr, &[a], &[elem], None);
    }
    if bytes >= 4 {
        return b.inst(
            &format!("ld.{space}.v{vw}.{sfx}"),
            &addr,
            &[a],
            &vec![elem; vw],
            None,
        );
    }
    // 16-bit elements: 32-bit words, then unpacked.
    vector_load_words(b, space, a, k, vw / 2)
        .into_iter()
        .flat_map(|w| unpack_word(b, w, elem))
        .collect()
}

/// `words` contiguous 32-bit words from `[a+k]` (one `ld`, vectorized when `words > 1`).
fn vector_load_words(
    b: &mut OpBuilder<'_>,
    space: &str,
    a: Value,
    k: i64,
    words: usize,
) -> Vec<Value> {
    let addr = format!("[$0{}]", imm(k));
    let i32t = b.i32();
    if words == 1 {
        b.inst(&format!("ld.{space}.b32"), &addr, &[a], &[i32t], None)
    } else {
        b.inst(
            &format!("ld.{space}.v{words}.b32"),
            &addr,
            &[a],
            &vec![i32t; words],
            None,
        )
    }
}

/// Stores the 32-bit `words` (contiguous) at `[a+k]`, under `guard` when given.
fn vector_store_words(
    b: &mut OpBuilder<'_>,
    space: &str,
    a: Value,
    k: i64,
    words: &[Value],
    guard: Option<Value>,
) {
    let mut all = vec![a];
    all.extend(words.iter().copied());
    let (op, form) = if words.len() == 1 {
        (format!("st.{space}.b32"), format!("[$0{}], $1", imm(k)))
    } else {
        let list: Vec<String> = (1..all.len()).map(|i| format!("${i}")).collect();
        (
            format!("st.{space}.v{}.b32", words.len()),
            format!("[$0{}], {{{}}}", imm(k), list.join(", ")),
        )
    };
    b.inst(&op, &form, &all, &[], guard);
}

/// The 32-bit word holding the 16-bit values `lo` (low half) and `hi`.
fn pack_halves(b: &mut OpBuilder<'_>, lo: Value, hi: Value) -> Value {
    let i32t = b.i32();
    b.inst("mov.b32", "{$0, $1}", &[lo, hi], &[i32t], None)[0]
}

/// The two 16-bit values (low half first) of the word `w`, as `elem`.
fn unpack_word(b: &mut OpBuilder<'_>, w: Value, elem: Type) -> Vec<Value> {
    b.inst("mov.b32", "$0", &[w], &[elem, elem], None)
}

/// The first op from `start` on in its block that uses `v` (itself or inside its regions),
/// else the block's last op: where a value available before `start` is needed at the latest.
fn first_user_in_block(ctx: &Context, start: Option<OpId>, v: Value) -> OpId {
    let mut cur = start;
    let mut last = start.expect("a block with ops after the value's definition");
    while let Some(op) = cur {
        let mut uses = false;
        ctx.walk(op, &mut |x| uses |= ctx.operands(x).contains(&v));
        if uses {
            return op;
        }
        last = op;
        cur = ctx.next_op(op);
    }
    last
}

/// Stores `vals` (contiguous) at `[a+k]`.
#[allow(clippy::too_many_arguments)]
fn vector_store(
    b: &mut OpBuilder<'_>,
    space: &str,
    a: Value,
    k: i64,
    vals: &[Value],
    elem: Type,
    bytes: i64,
    sfx: &str,
    guard: Option<Value>,
) {
    let _ = elem;
    let vw = vals.len();
    if vw == 1 {
        b.inst(
            &format!("st.{space}.{sfx}"),
            &format!("[$0{}], $1", imm(k)),
            &[a, vals[0]],
            &[],
            guard,
        );
        return;
    }
    let (op, args): (String, Vec<Value>) = if bytes >= 4 {
        (format!("st.{space}.v{vw}.{sfx}"), vals.to_vec())
    } else {
        let i32t = b.i32();
        let words: Vec<Value> = vals
            .chunks(2)
            .map(|p| b.inst("mov.b32", "{$0, $1}", &[p[0], p[1]], &[i32t], None)[0])
            .collect();
        let op = if words.len() == 1 {
            format!("st.{space}.b32")
        } else {
            format!("st.{space}.v{}.b32", words.len())
        };
        (op, words)
    };
    let mut all = vec![a];
    all.extend(args.iter().copied());
    let list: Vec<String> = (1..all.len()).map(|i| format!("${i}")).collect();
    let form = if args.len() == 1 {
        format!("[$0{}], $1", imm(k))
    } else {
        format!("[$0{}], {{{}}}", imm(k), list.join(", "))
    };
    b.inst(&op, &form, &all, &[], guard);
}

fn float_kind(d: DType) -> Option<FloatKind> {
    Some(match d {
        DType::F16 => FloatKind::F16,
        DType::BF16 => FloatKind::BF16,
        DType::F32 => FloatKind::F32,
        DType::F64 => FloatKind::F64,
        _ => return None,
    })
}

/// One element of a binary op (`kind` is the tilus op name without `tilus.`).
fn scalar_binary(b: &mut OpBuilder<'_>, kind: &str, a: &[Value], dt: DType, pred: i64) -> R<Value> {
    let float = float_kind(dt).is_some();
    let unsigned = matches!(
        dt,
        DType::Int {
            signedness: tilus_ir::types::Signedness::Unsigned,
            ..
        }
    );
    enum Bin {
        I(IntBinOp),
        F(FloatBinOp),
    }
    let op = match (kind, float) {
        ("add", true) => Bin::F(FloatBinOp::AddF),
        ("add", false) => Bin::I(IntBinOp::AddI),
        ("sub", true) => Bin::F(FloatBinOp::SubF),
        ("sub", false) => Bin::I(IntBinOp::SubI),
        ("mul", true) => Bin::F(FloatBinOp::MulF),
        ("mul", false) => Bin::I(IntBinOp::MulI),
        ("div", true) => Bin::F(FloatBinOp::DivF),
        ("div", false) => {
            if unsigned {
                Bin::I(IntBinOp::DivUI)
            } else {
                Bin::I(IntBinOp::DivSI)
            }
        }
        ("mod", false) => {
            if unsigned {
                Bin::I(IntBinOp::RemUI)
            } else {
                Bin::I(IntBinOp::RemSI)
            }
        }
        ("maximum", true) => Bin::F(FloatBinOp::MaximumF),
        ("maximum", false) => {
            if unsigned {
                Bin::I(IntBinOp::MaxUI)
            } else {
                Bin::I(IntBinOp::MaxSI)
            }
        }
        ("minimum", true) => Bin::F(FloatBinOp::MinimumF),
        ("minimum", false) => {
            if unsigned {
                Bin::I(IntBinOp::MinUI)
            } else {
                Bin::I(IntBinOp::MinSI)
            }
        }
        ("where", _) => return Ok(b.select(a[0], a[1], a[2])),
        ("cmp", true) => {
            use CmpFPredicate as P;
            let p = [P::Oeq, P::Une, P::Olt, P::Ole, P::Ogt, P::Oge][pred.clamp(0, 5) as usize];
            return Ok(b.cmpf(p, a[0], a[1]));
        }
        ("cmp", false) => {
            use CmpIPredicate as P;
            let s = [P::Eq, P::Ne, P::Slt, P::Sle, P::Sgt, P::Sge];
            let u = [P::Eq, P::Ne, P::Ult, P::Ule, P::Ugt, P::Uge];
            let p = if unsigned { u } else { s }[pred.clamp(0, 5) as usize];
            return Ok(b.cmpi(p, a[0], a[1]));
        }
        _ => {
            return Err(format!(
                "element-wise '{kind}' on {} is not lowered",
                dt.name()
            ))
        }
    };
    Ok(match op {
        Bin::I(o) => b.int_op(o, a[0], a[1]),
        Bin::F(o) => b.float_op(o, a[0], a[1]),
    })
}

/// Runs `f` in f32 for half types.
fn via_f32(
    b: &mut OpBuilder<'_>,
    v: Value,
    dt: DType,
    f: impl FnOnce(&mut OpBuilder<'_>, Value) -> Value,
) -> Value {
    match dt {
        DType::F32 => f(b, v),
        _ => {
            let f32t = b.f32();
            let t = b.ctx().value_type(v);
            let x = ExtFOp::build(b, v, f32t, None).out(b.ctx());
            let y = f(b, x);
            TruncFOp::build(b, y, t, None, None).out(b.ctx())
        }
    }
}

fn cf32(b: &mut OpBuilder<'_>, x: f32) -> Value {
    let t = b.f32();
    b.cfloat_bits(t, x.to_bits() as u128)
}

fn scalar_unary(b: &mut OpBuilder<'_>, kind: &str, v: Value, dt: DType) -> R<Value> {
    let float = float_kind(dt).is_some();
    if matches!(kind, "neg" | "abs") {
        let ty = b.ctx().value_type(v);
        return Ok(match (kind, float) {
            ("neg", true) => NegFOp::build(b, v, ty, None).result(b.ctx()),
            ("neg", false) => {
                let z = b.cint(ty, 0);
                b.int_op(IntBinOp::SubI, z, v)
            }
            ("abs", true) => {
                let s = match dt {
                    DType::F64 => "abs.f64",
                    DType::F32 => "abs.f32",
                    DType::BF16 => "abs.bf16",
                    _ => "abs.f16",
                };
                b.inst1(s, &[v], ty)
            }
            _ => {
                let bits = dt.bits();
                b.inst1(&format!("abs.s{bits}"), &[v], ty)
            }
        });
    }
    if !matches!(dt, DType::F32 | DType::F16 | DType::BF16) {
        return Err(format!("'{kind}' on {} is not lowered", dt.name()));
    }
    let kind = kind.to_string();
    Ok(via_f32(b, v, dt, |b, x| {
        let f = b.f32();
        match kind.as_str() {
            "exp" => {
                let c = cf32(b, std::f32::consts::LOG2_E);
                let y = b.float_op(FloatBinOp::MulF, x, c);
                b.inst1("ex2.approx.ftz.f32", &[y], f)
            }
            "exp2" => b.inst1("ex2.approx.ftz.f32", &[x], f),
            "log" => {
                let y = b.inst1("lg2.approx.ftz.f32", &[x], f);
                let c = cf32(b, std::f32::consts::LN_2);
                b.float_op(FloatBinOp::MulF, y, c)
            }
            "sqrt" => b.inst1("sqrt.rn.f32", &[x], f),
            "rsqrt" => b.inst1("rsqrt.approx.ftz.f32", &[x], f),
            _ => b.inst1("tanh.approx.f32", &[x], f),
        }
    }))
}

fn scalar_cast(b: &mut OpBuilder<'_>, v: Value, src: DType, dst: DType) -> R<Value> {
    if src == dst {
        return Ok(v);
    }
    let t = dst.to_type(b.ctx_mut());
    type Build = fn(&mut OpBuilder<'_>, Value, Type) -> Value;
    macro_rules! cast {
        ($h:ident $(, $extra:expr)*) => {
            (|b: &mut OpBuilder<'_>, v: Value, t: Type| -> Value {
                $h::build(b, v, t $(, $extra)*).out(b.ctx())
            }) as Build
        };
    }
    let build = match (float_kind(src), float_kind(dst)) {
        (Some(_), Some(_)) => {
            if dst.bits() > src.bits() {
                cast!(ExtFOp, None)
            } else if dst.bits() < src.bits() {
                cast!(TruncFOp, None, None)
            } else {
                // f16 <-> bf16 through f32.
                let f = b.f32();
                let x = ExtFOp::build(b, v, f, None).out(b.ctx());
                return Ok(TruncFOp::build(b, x, t, None, None).out(b.ctx()));
            }
        }
        (None, Some(_)) => {
            if matches!(
                src,
                DType::Int {
                    signedness: tilus_ir::types::Signedness::Unsigned,
                    ..
                }
            ) {
                cast!(UIToFPOp)
            } else {
                cast!(SIToFPOp)
            }
        }
        (Some(_), None) => {
            if matches!(
                dst,
                DType::Int {
                    signedness: tilus_ir::types::Signedness::Unsigned,
                    ..
                }
            ) {
                cast!(FPToUIOp)
            } else {
                cast!(FPToSIOp)
            }
        }
        (None, None) => {
            if dst.bits() > src.bits() {
                if matches!(
                    src,
                    DType::Int {
                        signedness: tilus_ir::types::Signedness::Unsigned,
                        ..
                    }
                ) || src.bits() == 1
                {
                    cast!(ExtUIOp)
                } else {
                    cast!(ExtSIOp)
                }
            } else if dst.bits() < src.bits() {
                cast!(TruncIOp, None)
            } else {
                return Ok(v);
            }
        }
    };
    Ok(build(b, v, t))
}

fn combine(b: &mut OpBuilder<'_>, kind: &str, x: Value, y: Value, dt: DType) -> R<Value> {
    let k = match kind {
        "sum" => "add",
        "max" => "maximum",
        "min" => "minimum",
        _ => return Err(format!("reduce '{kind}' is not lowered yet")),
    };
    scalar_binary(b, k, &[x, y], dt, 0)
}

/// `shfl.sync.MODE.b32` of a value by an immediate lane operand.
fn shfl(
    b: &mut OpBuilder<'_>,
    mode: &str,
    v: Value,
    lane: &str,
    c: &str,
    member: u64,
    dt: DType,
) -> R<Value> {
    shfl_any(b, mode, v, None, lane, c, member, dt)
}

fn shfl_dyn(
    b: &mut OpBuilder<'_>,
    mode: &str,
    v: Value,
    delta: Value,
    c: &str,
    dt: DType,
) -> R<Value> {
    shfl_any(b, mode, v, Some(delta), "", c, 0xffff_ffff, dt)
}

#[allow(clippy::too_many_arguments)]
fn shfl_any(
    b: &mut OpBuilder<'_>,
    mode: &str,
    v: Value,
    delta: Option<Value>,
    lane: &str,
    c: &str,
    member: u64,
    dt: DType,
) -> R<Value> {
    let ty = b.ctx().value_type(v);
    let bits = dt.bits();
    let (x, packed) = match bits {
        32 => (v, false),
        16 => {
            let i32t = b.i32();
            (b.inst("mov.b32", "{$0, $0}", &[v], &[i32t], None)[0], true)
        }
        _ => return Err(format!("shuffles of {} are not lowered", dt.name())),
    };
    let xt = b.ctx().value_type(x);
    let r = match delta {
        Some(d) => b.inst(
            &format!("shfl.sync.{mode}.b32"),
            &format!("$0, $1, {c}, {member:#x}"),
            &[x, d],
            &[xt],
            None,
        )[0],
        None => b.inst(
            &format!("shfl.sync.{mode}.b32"),
            &format!("$0, {lane}, {c}, {member:#x}"),
            &[x],
            &[xt],
            None,
        )[0],
    };
    if packed {
        Ok(b.inst("mov.b32", "$0", &[r], &[ty, ty], None)[0])
    } else {
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::{default_layout, scratch_layout, scratch_wavefronts};
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
