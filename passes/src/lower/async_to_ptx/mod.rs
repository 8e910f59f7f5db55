//! `lower-async-to-ptx`: mbarrier, TMA, WGMMA and tcgen05 ops to PTX instructions (spec §4.2,
//! §5.3–5.5, §6.4–6.5, §7).
//!
//! It runs on tile-level IR and rewrites only the asynchronous and synchronizing ops; register
//! tiles, thread groups and shared tensors are left to the other lowerings. Addresses are taken
//! with `tilus.shared_addr` and `mbarrier.addr`, which shared-memory planning turns into the
//! dynamic shared base plus compile-time offsets.
//!
//! | op | PTX |
//! |---|---|
//! | `mbarrier.alloc` | hoisted to kernel entry (with explicit `counts`); thread 0 runs `mbarrier.init.shared::cta.b64 [a], c` per barrier, then every thread `fence.mbarrier_init.release.cluster` and `bar.sync 0` (in a kernel with a cluster of several CTAs, `barrier.cluster.arrive.release` + `wait.acquire`: peers multicast into and arrive on these barriers) |
//! | `mbarrier.arrive` | `mbarrier.arrive.{sem}.{scope}.shared::cta.b64 _, [a], count` |
//! | `mbarrier.arrive_expect_tx` | `mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cta.b64 _, [a], bytes` |
//! | `..._remote` | `mapa.shared::cluster.u32 r, a, rank` + `mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cluster.b64 _, [r], bytes` |
//! | `..._multicast` | thread `i` of the group, if bit `i` of the mask is set: `mapa` to rank `i` + the cluster form |
//! | `mbarrier.wait` | `ptx.asm` loop on `mbarrier.try_wait.parity.{sem}.{scope}.shared::cta.b64` |
//! | `mbarrier.{producer,consumer}_initial_phase` | `arith.constant 1` / `0` |
//! | `tma.global_to_shared` | `cp.async.bulk.tensor.Nd.shared::cta.global.tile.mbarrier::complete_tx::bytes [dst], [map, {c..}], [bar]` (`.multicast::cluster` + 16-bit mask; `.cta_group::N`), a new `!ptx.tensormap` kernel parameter per site |
//! | `tma.shared_to_global` | `cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [map, {c..}], [src]` |
//! | `tma.commit_group` / `wait_group` | `cp.async.bulk.commit_group`, `cp.async.bulk.wait_group(.read) n` |
//! | `tma.fence_proxy_async(_release)` | `fence.proxy.async.shared::cta` / `.global`, `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster` |
//! | `wgmma.fence` / `commit_group` / `wait_group` | `wgmma.fence.sync.aligned`, `wgmma.commit_group.sync.aligned`, `wgmma.wait_group.sync.aligned n` (then `fence.acq_rel.cta` after a `wait_group 0` in a kernel that also waits with `n > 0`: see `lower_op`) |
//! | `wgmma.mma` | per sub-instruction: two 64-bit descriptors and `wgmma.mma_async.sync.aligned.m64nNkK.D.A.B {acc block}, adesc, bdesc, 1, 1, 1, 0, 0` on the accumulator *tile* (see below) |
//! | `tcgen05.*` | `alloc`/`dealloc`/`relinquish_alloc_permit`, `mma` with the instruction descriptor, `commit`, `ld`/`st` (`32x32b`), `wait::ld`/`wait::st`, `cp` (`128x128b`), fences |
//!
//! One-thread issue (TMA copies, `tcgen05.mma`/`commit`/`cp`) in a one-warp group is guarded by
//! the warp's leader lane, `elect.sync` computed once at kernel entry.
//!
//! **Tile operands.** `wgmma.mma`, `tcgen05.ld` and `tcgen05.st` read or write register tiles,
//! which become per-thread scalars only in `lower-tiles`. They are lowered to `ptx.inst` whose
//! operand 0 is the tile (and, for `wgmma.mma` and `tcgen05.ld`, whose one result is the updated
//! tile of the same type), with the discardable attribute `tile_block = array<i64: b, n>`: the
//! tile pass expands the tile into its `local_size` scalars in local-index order, cuts them into
//! `n` equal contiguous blocks and uses block `b` as the instruction's register list (the
//! destination, tied to the same registers as inputs, for `wgmma.mma`/`tcgen05.ld`; the source
//! list for `tcgen05.st`); the other blocks pass through unchanged. Sub-instruction `(i, j)` of a
//! `wgmma.mma` uses block `i·rn + j` (spec §6.5). Because `ptx.inst` only takes register types
//! today, such an op does not verify until `ptx.inst` admits `!tilus.reg` operands (or the tile
//! pass runs in the same pass-manager step).
//!
//! **Tensor maps.** Every TMA site gets a `!ptx.tensormap` kernel parameter appended to the
//! `tilus.kernel` (its `blocks` map gains a dimension) and an entry in the kernel's
//! `tilus.tensor_maps` attribute, which says how the host builds it with
//! `cuTensorMapEncodeTiled` (format in `docs/design/lowering.md`).
//!
//! **Files.** This file has the pass, the kernel walk and the per-op dispatch (`lower_op`, where
//! the one-instruction fences and commit/wait groups are lowered inline); the op families have
//! theirs: `mbarrier.rs`, `tma.rs`, `wgmma.rs`, `tcgen05.rs`, with `descriptor.rs` (encodings
//! shared by wgmma and tcgen05) and `builder.rs` (the IR-building shorthands).

use super::build::{before, run_on_kernels};
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::{
    AddIOp, AndIOp, ArithOpKind, ConstantOp, ExtUIOp, IndexCastOp, IntBinOp, MulIOp, OrIOp, ShLIOp,
    ShRUIOp, TruncIOp,
};
use tilus_dialects::layout_algebra::{RegisterLayout, SwizzleMode};
use tilus_dialects::mbarrier::{AddrOp, AllocOp as BarrierAllocOp, MbarrierOpKind as M};
use tilus_dialects::mbarrier::{ARRIVE_SEM, SCOPE, WAIT_SEM};
use tilus_dialects::ptx::inst_properties;
use tilus_dialects::ptx::{AsmOp, InstOp, SpecialOp};
use tilus_dialects::tcgen05::Tcgen05OpKind as C;
use tilus_dialects::threadgroup::group_of;
use tilus_dialects::threadgroup::SyncOp;
use tilus_dialects::tilus::{
    GlobalViewOp, RegisterTensorOp, SharedAddrOp, SharedTensorOp, ThreadIdOp, WarpIdOp,
};
use tilus_dialects::tilus_types::{
    attr_i64s, barrier_count, prop_i64, DType, Space, TensorType, DYN,
};
use tilus_dialects::tma::TmaOpKind as T;
use tilus_dialects::wgmma::WgmmaOpKind as W;
use tilus_ir::rewrite::{int_attr, Rewriter};
use tilus_ir::{Attr, AttrKind, Context, Diagnostic, OpBuilder, OpId, Type, TypeKind, Value};

mod builder;
mod descriptor;
mod mbarrier;
mod tcgen05;
mod tma;
mod wgmma;
pub(crate) use builder::smem_descriptor;
use builder::*;
use descriptor::*;
pub use descriptor::{
    tcgen05_descriptor, tcgen05_descriptor_hi, tcgen05_swizzle_code, wgmma_descriptor,
    wgmma_descriptor_hi, wgmma_swizzle_code, KMajor,
};
use mbarrier::*;
use tcgen05::*;
pub use tcgen05::{tcgen05_instr_descriptor, MmaKind};
use tma::*;
use wgmma::*;
pub use wgmma::{wgmma_plan, WgmmaInst, WgmmaPlan};

declare_pass! {
    /// The pass. It has no options.
    pub struct AsyncToPtx {
        name: "lower-async-to-ptx",
        class: "LowerAsyncToPtx",
        summary: "Lower mbarrier, TMA, WGMMA and tcgen05 ops to PTX instructions",
        description: "Rewrites the mbarrier, tma, wgmma and tcgen05 ops of each tilus.kernel \
            into ptx.inst / ptx.asm with the PTX spellings of the spec (mbarrier.init hoisted to \
            entry, arrive/expect_tx/mapa, try_wait.parity loops, cp.async.bulk.tensor with one \
            !ptx.tensormap parameter per TMA site recorded in tilus.tensor_maps, bulk groups, \
            proxy fences, wgmma descriptors and mma_async on the accumulator tile, tcgen05 \
            alloc/mma/commit/ld/st/cp). Addresses come from tilus.shared_addr and mbarrier.addr.",
        options: {},
        statistics: {
            NUM_LOWERED = "num-lowered", "Number of async/sync ops lowered";
        },
    }
}

impl Pass for AsyncToPtx {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        run_on_kernels(ctx, op, stats, Self::NUM_LOWERED, lower_kernel)
    }
}

/// The ops this pass lowers: those declared `Trait::Async`.
fn handled(ctx: &Context, op: OpId) -> bool {
    ctx.op_def(op)
        .is_some_and(|d| d.has(tilus_ir::Trait::Async))
}

struct Kernel {
    op: OpId,
    entry: tilus_ir::BlockId,
    /// The first op after the entry prologue (barrier init, leader predicate).
    body_start: Option<OpId>,
    /// `elect.sync` leader-lane predicate, made on first use.
    leader: Option<Value>,
    /// TMEM tensors to their 32-bit addresses.
    tmem: rustc_hash::FxHashMap<Value, Value>,
    /// `tilus.tensor_maps` entries.
    maps: Vec<Attr>,
    uses_tcgen05: bool,
    /// Some `wgmma.wait_group` keeps groups pending (`n > 0`): then every `wait_group 0` is
    /// followed by `fence.acq_rel.cta` (see `lower_op`).
    wgmma_keeps_pending: bool,
    /// Lowered TMEM-producing ops, erased (last first) once their users are lowered.
    dead: Vec<OpId>,
}

/// What became of a lowered op.
enum Lowered {
    /// Erased.
    Erase,
    /// Replaced by a value.
    Replace(Value),
    /// A TMEM tensor now known by its address: erased when its users are gone.
    KeepUntilUnused,
}

fn lower_kernel(ctx: &mut Context, k: OpId) -> Result<u64, Vec<Diagnostic>> {
    let entry = ctx.region_blocks(ctx.regions(k)[0])[0];
    let mut ops = Vec::new();
    ctx.walk(k, &mut |o| {
        if handled(ctx, o) {
            ops.push(o);
        }
    });
    if ops.is_empty() {
        return Ok(0);
    }
    let mut kn = Kernel {
        op: k,
        entry,
        body_start: ctx.block_first(entry),
        leader: None,
        tmem: Default::default(),
        maps: existing_maps(ctx, k),
        uses_tcgen05: false,
        wgmma_keeps_pending: ops.iter().any(|&o| {
            matches!(AsyncKind::of(ctx, o), Some(AsyncKind::W(W::WaitGroup(w))) if w.pending(ctx) > 0)
        }),
        dead: Vec::new(),
    };
    let mut errors = Vec::new();
    // Barriers first: they are hoisted to the entry and initialized there.
    let allocs: Vec<OpId> = ops
        .iter()
        .copied()
        .filter(|o| BarrierAllocOp::is(ctx, *o))
        .collect();
    if !allocs.is_empty() {
        if let Err(e) = init_barriers(ctx, &mut kn, &allocs) {
            errors.push(e);
        }
    }
    let mut n = allocs.len() as u64;
    for o in ops {
        if BarrierAllocOp::is(ctx, o) || !ctx.is_alive(o) {
            continue;
        }
        match lower_op(ctx, &mut kn, o) {
            Ok(()) => n += 1,
            Err(msg) => errors.push(Diagnostic::op(
                o,
                format!("cannot lower '{}' to PTX: {msg}", ctx.op_name_str(o)),
            )),
        }
    }
    for &o in kn.dead.iter().rev() {
        let used = ctx.results(o).iter().any(|v| !ctx.uses(*v).is_empty());
        if used && errors.is_empty() {
            errors.push(Diagnostic::op(
                o,
                format!(
                    "cannot lower '{}' to PTX: its tensor-memory result is still used by an op this pass does not lower",
                    ctx.op_name_str(o)
                ),
            ));
        } else if !used {
            Rewriter::new(ctx).erase_op(o);
        }
    }
    if !kn.maps.is_empty() {
        let a = ctx.attr(AttrKind::Array(kn.maps.clone()));
        ctx.set_attr(k, tilus_dialects::tilus::attr_names::TENSOR_MAPS, Some(a));
    }
    if kn.uses_tcgen05 {
        let a = ctx.str_attr("sm_100a");
        ctx.set_attr(k, tilus_dialects::tilus::attr_names::PTX_TARGET, Some(a));
    }
    if errors.is_empty() {
        Ok(n)
    } else {
        Err(errors)
    }
}

fn existing_maps(ctx: &Context, k: OpId) -> Vec<Attr> {
    match ctx
        .get_attr(k, tilus_dialects::tilus::attr_names::TENSOR_MAPS)
        .map(|a| ctx.attr_kind(a))
    {
        Some(AttrKind::Array(xs)) => xs.clone(),
        _ => Vec::new(),
    }
}

/// The leader-lane predicate (`elect.sync`), computed once at kernel entry after the
/// prologue, when every lane of every warp is active.
fn leader(ctx: &mut Context, kn: &mut Kernel) -> Value {
    if let Some(p) = kn.leader {
        return p;
    }
    let loc = ctx.op(kn.op).loc;
    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);
    match kn.body_start {
        Some(x) if b.ctx().is_alive(x) => b.set_insertion_point_before(x),
        _ => b.set_insertion_point_to_start(kn.entry),
    }
    let i1 = b.int(1);
    let o = b.asm("elect.sync _|$0, 0xffffffff;", &[], vec![i1]);
    let p = b.ctx().results(o)[0];
    kn.leader = Some(p);
    p
}

/// The guard for a one-thread instruction issued by `op`'s group: none for one thread, the
/// leader lane for one warp.
fn issue_guard(
    ctx: &mut Context,
    kn: &mut Kernel,
    op: OpId,
) -> Result<Option<(Value, bool)>, String> {
    let g = group_of(ctx, op).ok_or("the thread group is unknown")?;
    match g.size {
        1 => Ok(None),
        32 => Ok(Some((leader(ctx, kn), false))),
        n => Err(format!(
            "expects to be issued by one thread or one warp, but the group has {n} threads"
        )),
    }
}

fn tensor_of(ctx: &Context, v: Value) -> Result<TensorType, String> {
    TensorType::of(ctx, ctx.value_type(v)).ok_or_else(|| "expects a tensor type".into())
}

/// The op kinds this pass lowers (those declared `Trait::Async`), one exhaustive match.
#[derive(Clone, Copy)]
enum AsyncKind {
    M(M),
    T(T),
    W(W),
    C(C),
}

impl AsyncKind {
    fn of(ctx: &Context, o: OpId) -> Option<AsyncKind> {
        M::classify(ctx, o)
            .map(AsyncKind::M)
            .or_else(|| T::classify(ctx, o).map(AsyncKind::T))
            .or_else(|| W::classify(ctx, o).map(AsyncKind::W))
            .or_else(|| C::classify(ctx, o).map(AsyncKind::C))
    }
}

fn lower_op(ctx: &mut Context, kn: &mut Kernel, o: OpId) -> Result<(), String> {
    let kind =
        AsyncKind::of(ctx, o).ok_or_else(|| format!("'{}' is not handled", ctx.op_name_str(o)))?;
    let operands = ctx.operands(o).to_vec();
    let mut replacement: Vec<Value> = Vec::new();
    match kind {
        AsyncKind::M(M::Arrive(_)) | AsyncKind::M(M::ArriveExpectTx(_)) => {
            let (sem, scope) = sem_scope(ctx, o, false, 0);
            let mut b = before(ctx, o);
            let a = b.bar_addr(operands[0], operands[1]);
            if matches!(kind, AsyncKind::M(M::Arrive(_))) {
                let opc = format!("mbarrier.arrive.{sem}.{scope}.shared::cta.b64");
                match operands.get(2) {
                    Some(&c) => b.inst0(&opc, "_, [$0], $1", &[a, c], None),
                    None => b.inst0(&opc, "_, [$0], 1", &[a], None),
                }
            } else {
                let opc = format!("mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cta.b64");
                b.inst0(&opc, "_, [$0], $1", &[a, operands[2]], None);
            }
        }
        AsyncKind::M(M::ArriveExpectTxRemote(_)) => {
            let (sem, scope) = sem_scope(ctx, o, false, 1);
            let mut b = before(ctx, o);
            let a = b.bar_addr(operands[0], operands[1]);
            let i32t = b.int(32);
            let r = b.inst1(
                "mapa.shared::cluster.u32",
                "$0, $1",
                &[a, operands[3]],
                i32t,
                None,
            );
            let opc = format!("mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cluster.b64");
            b.inst0(&opc, "_, [$0], $1", &[r, operands[2]], None);
        }
        AsyncKind::M(M::ArriveExpectTxMulticast(_)) => {
            let (sem, scope) = sem_scope(ctx, o, false, 1);
            let mut b = before(ctx, o);
            let i32t = b.int(32);
            let i1 = b.int(1);
            let tid = ThreadIdOp::build(&mut b, i32t).result(b.ctx());
            let sh = b.inst1("shr.b32", "$0, $1", &[operands[3], tid], i32t, None);
            let bit = b.inst1("and.b32", "$0, 1", &[sh], i32t, None);
            let p = b.inst1("setp.ne.u32", "$0, 0", &[bit], i1, None);
            let a = b.bar_addr(operands[0], operands[1]);
            let r = b.inst1(
                "mapa.shared::cluster.u32",
                "$0, $1",
                &[a, tid],
                i32t,
                Some((p, false)),
            );
            let opc = format!("mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cluster.b64");
            b.inst0(&opc, "_, [$0], $1", &[r, operands[2]], Some((p, false)));
        }
        AsyncKind::M(M::Wait(_)) => {
            let (sem, scope) = sem_scope(ctx, o, true, 0);
            let mut b = before(ctx, o);
            let a = b.bar_addr(operands[0], operands[1]);
            let text = format!(
                "{{\n.reg .pred P;\nLAB_WAIT:\nmbarrier.try_wait.parity.{sem}.{scope}.shared::cta.b64 P, [$0], $1, 50000;\n@!P bra.uni LAB_WAIT;\n}}"
            );
            b.asm(&text, &[a, operands[2]], vec![]);
        }
        AsyncKind::M(M::ProducerInitialPhase(_)) | AsyncKind::M(M::ConsumerInitialPhase(_)) => {
            let v = i64::from(matches!(kind, AsyncKind::M(M::ProducerInitialPhase(_))));
            let mut b = before(ctx, o);
            replacement.push(b.cint(32, v));
        }
        AsyncKind::T(T::GlobalToShared(_)) => lower_tma(ctx, kn, o, true)?,
        AsyncKind::T(T::SharedToGlobal(_)) => lower_tma(ctx, kn, o, false)?,
        AsyncKind::T(T::CommitGroup(_)) => {
            before(ctx, o).inst0("cp.async.bulk.commit_group", "", &[], None)
        }
        AsyncKind::T(T::WaitGroup(_)) => {
            let n = prop_i64(ctx, o, "n").unwrap_or(0);
            let read = ctx.get_prop(o, "read").is_some();
            let opc = if read {
                "cp.async.bulk.wait_group.read"
            } else {
                "cp.async.bulk.wait_group"
            };
            before(ctx, o).inst0(opc, &n.to_string(), &[], None);
        }
        AsyncKind::T(T::FenceProxyAsync(_)) => {
            let space = prop_i64(ctx, o, "space").unwrap_or(0);
            let opc = if space == 0 {
                "fence.proxy.async.shared::cta"
            } else {
                "fence.proxy.async.global"
            };
            before(ctx, o).inst0(opc, "", &[], None);
        }
        AsyncKind::T(T::FenceProxyAsyncRelease(_)) => before(ctx, o).inst0(
            "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster",
            "",
            &[],
            None,
        ),
        AsyncKind::W(W::Fence(_)) => {
            before(ctx, o).inst0("wgmma.fence.sync.aligned", "", &[], None)
        }
        AsyncKind::W(W::CommitGroup(_)) => {
            before(ctx, o).inst0("wgmma.commit_group.sync.aligned", "", &[], None)
        }
        AsyncKind::W(W::WaitGroup(w)) => {
            let n = w.pending(ctx);
            before(ctx, o).inst0("wgmma.wait_group.sync.aligned", &n.to_string(), &[], None);
            // Where a loop keeps a wgmma in flight (`wait_group 1`), ptxas 13 reports C7514 and
            // serializes every wgmma of the kernel when the accumulator is read under a
            // predicate after the final `wait_group 0` (the bounds-checked epilogue stores).
            // A fence after that wait keeps those reads below it; measured on the H100
            // (docs/perf.md, issue 17): the persistent matmul went from 0.76x to 0.88x of
            // cuBLAS at 4096^3. Kernels that always wait for 0 do not need it.
            if n == 0 && kn.wgmma_keeps_pending {
                before(ctx, o).inst0("fence.acq_rel.cta", "", &[], None);
            }
        }
        AsyncKind::W(W::Mma(_)) => replacement.push(lower_wgmma(ctx, o)?),
        AsyncKind::C(kind) => {
            kn.uses_tcgen05 = true;
            match lower_tcgen05(ctx, kn, o, kind)? {
                Lowered::Erase => {}
                Lowered::Replace(v) => replacement.push(v),
                Lowered::KeepUntilUnused => {
                    kn.dead.push(o);
                    return Ok(());
                }
            }
        }
        AsyncKind::M(M::Alloc(_) | M::Addr(_)) => {
            return Err(format!("'{}' is not handled", ctx.op_name_str(o)))
        }
    }
    let mut rw = Rewriter::new(ctx);
    if replacement.is_empty() {
        rw.erase_op(o);
    } else {
        rw.replace_op(o, &replacement);
    }
    Ok(())
}
