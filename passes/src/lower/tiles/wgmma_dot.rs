//! `tilus.dot` on Hopper's warpgroup MMA (`wgmma.mma_async`, sm_90a).
//!
//! Chosen over `mma.sync` (`mma.rs`) when the target is `sm_90a` and [`wgmma_dot`] has a plan
//! for the dot (f16/bf16 with an f32 accumulator, whole warpgroups, `M` a multiple of 64 per
//! warpgroup, a K whose rows are whole swizzle spans), unless the result's type names a layout
//! other than the wgmma accumulator (a layout the user wrote for `mma.sync` keeps it). Per dot:
//!
//! 1. **Accumulator.** `c` is read in the wgmma fragment of [`wgmma_dot`] (warpgroup `g` owns
//!    rows `g·M/W ..`); a `c` in another layout goes through the scratch first, like a
//!    `layout.convert`.
//! 2. **Operands.** Every thread stores its registers of A (`[M][K]`) and of B (as `[N][K]`)
//!    into the dot's own shared buffer in the K-major canonical layout wgmma reads with a
//!    swizzled descriptor ([`Staged::wgmma`]: rows of one 32/64/128-byte swizzle span, 16-byte
//!    vectors where the operand's layout gives them), then `fence.proxy.async.shared::cta`
//!    (the stores are generic-proxy writes, wgmma reads through the async proxy) and a group
//!    sync.
//! 3. **MMA.** `wgmma.fence`, then per K step of 16, M block of 64 and N block of `inst_n` one
//!    `wgmma.mma_async` on accumulator register block `i·rn + j` (its registers tied: read and
//!    written in place) with descriptors built as `lower-async-to-ptx` builds them for
//!    `wgmma.mma` ([`wgmma_descriptor_hi`], [`smem_descriptor`]), `commit_group`, and
//!    `wait_group 0` (`1` in the three-buffer mode below).
//!
//! **Buffers.** Each such dot has buffers of its own in the dynamic shared memory, before the
//! general scratch (so no other op's use of the scratch can overwrite one while a warpgroup's
//! MMA still reads it). A dot directly in the body of an `scf.for` with a constant step and an
//! `i32` induction variable uses buffer `((iv - lb) / step) % S`:
//!
//! * `S = 2`: iteration `i` writes the buffer the MMAs of `i - 2` read, and every warpgroup
//!   waited for those (`wait_group 0`) before the sync of iteration `i - 1` that the writer has
//!   passed; one sync per K step suffices.
//! * `S = 3` when the accumulator is only carried ([`in_flight_loop`]): `wait_group 1` leaves
//!   this iteration's MMAs in flight while the next iteration stores and syncs (the next MMAs
//!   chain on the same registers). Iteration `i` writes the buffer of `i - 3`, whose MMAs every
//!   warpgroup retired (`wait_group 1` at the end of `i - 2`) before the sync of `i - 1`. After
//!   the loop `wait_group 0` and `fence.acq_rel.cta` (see `lower-async-to-ptx`'s wait_group)
//!   come before anything reads the accumulator.
//!
//! Either way a sync after the loop keeps a later run of the loop from writing a buffer the
//! last iteration still reads. Any other dot has one buffer and a sync after its MMAs, and so
//! has a loop's dot whose buffers would not fit in shared memory (`S` shrinks to what fits;
//! with none the dot stays on `mma.sync`).

use super::mma::{Staged, Store};
use super::*;
use crate::lower::async_to_ptx::{smem_descriptor, wgmma_descriptor_hi, KMajor};
use tilus_dialects::layout_mma::{wgmma_dot, WgmmaDot};
use tilus_dialects::tilus::DotOp;
use tilus_dialects::tilus_types::const_int;

/// Where a wgmma dot's operands are staged: its buffer(s) in the dynamic shared memory.
#[derive(Clone, Copy, Debug)]
pub(super) struct DotBuffer {
    /// Byte offset of the first buffer in the dynamic shared memory (a multiple of 1024).
    off: i64,
    /// Bytes of one buffer (A's region, then B's, each a multiple of 1024).
    bytes: i64,
    /// 3 when the dot's MMAs stay in flight into the next iteration of its `scf.for`
    /// ([`in_flight_loop`]), 2 when it alternates buffers over the iterations, else 1.
    stages: i64,
}

/// A's and B's regions of a dot's buffer and the buffer's size.
fn regions(m: i64, n: i64, k: i64) -> (Staged, Staged, i64) {
    let up = |x: i64| (x + 1023) / 1024 * 1024;
    let (sa, a_bytes) = Staged::wgmma(0, m, 2 * k);
    let (sb, b_bytes) = Staged::wgmma(up(a_bytes), n, 2 * k);
    (sa, sb, up(a_bytes) + up(b_bytes))
}

/// The wgmma plan of dot `o` if it lowers that way (module docs), else `None`.
pub(crate) fn plan(ctx: &Context, o: OpId, target_wgmma: bool) -> Option<WgmmaDot> {
    if !target_wgmma || !DotOp::is(ctx, o) {
        return None;
    }
    let ops = ctx.operands(o);
    let (ta, tb, tc) = (
        ty_of(ctx, ops[0])?,
        ty_of(ctx, ops[1])?,
        ty_of(ctx, ops[2])?,
    );
    let tr = ty_of(ctx, ctx.results(o)[0])?;
    if ta.shape.len() != 2 || tb.shape.len() != 2 || ta.dtype != tb.dtype || tc.dtype != tr.dtype {
        return None;
    }
    let g = group_pos(ctx, o)?;
    if g.begin.is_none_or(|b| b % 128 != 0) {
        return None;
    }
    let d = wgmma_dot(
        ta.shape[0],
        tb.shape[1],
        ta.shape[1],
        ta.dtype,
        tc.dtype,
        g.size,
    )?;
    match tr.register_layout() {
        Some(l) if !l.same_mapping(&d.acc) => None,
        _ => Some(d),
    }
}

/// The `scf.for` whose iterations alternate dot `o`'s two buffers: its direct parent, when the
/// step is a positive constant and the induction variable an `i32`.
fn alternating_loop(ctx: &Context, o: OpId) -> Option<(OpId, i64)> {
    let f = ctx.parent_op(o)?;
    if !ForOp::is(ctx, f) {
        return None;
    }
    let step = const_int(ctx, ctx.operands(f)[2]).filter(|s| *s > 0)?;
    let body = ctx.region_blocks(ctx.regions(f)[0])[0];
    let iv = *ctx.block_args(body).first()?;
    matches!(
        ctx.type_kind(ctx.value_type(iv)),
        TypeKind::Integer { width: 32, .. }
    )
    .then_some((f, step))
}

/// Whether dot `o` may leave its MMAs in flight (`wait_group 1`) at the end of each iteration
/// of its alternating loop: the accumulator is only carried, the loop's iter_arg `c` feeds
/// this dot alone and its result only the `scf.yield`, so nothing but the next iteration's
/// MMAs (which chain on the same registers) touches it before the loop ends.
fn in_flight_loop(ctx: &Context, o: OpId) -> bool {
    let Some((f, _)) = alternating_loop(ctx, o) else {
        return false;
    };
    let body = ctx.region_blocks(ctx.regions(f)[0])[0];
    let (c, r) = (ctx.operands(o)[2], ctx.results(o)[0]);
    let (cu, ru) = (ctx.uses(c), ctx.uses(r));
    let Some(p) = ctx.block_args(body).iter().position(|a| *a == c) else {
        return false;
    };
    cu.len() == 1
        && ru.len() == 1
        && YieldOp::is(ctx, ru[0].op)
        && ctx.parent_op(ru[0].op) == Some(f)
        && ru[0].index as usize + 1 == p
}

impl Lowering {
    /// Gives every dot of kernel `k` that lowers to wgmma its buffer(s), from the 1024-aligned
    /// `start` of the dynamic shared memory on; returns the end of the last.
    pub(super) fn plan_dot_buffers(&mut self, ctx: &Context, k: OpId, start: i64) -> i64 {
        let mut off = (start + 1023) / 1024 * 1024;
        let first = off;
        let mut dots = Vec::new();
        let wgmma = self.wgmma;
        ctx.walk(k, &mut |o| {
            if let Some(d) = plan(ctx, o, wgmma) {
                dots.push((o, d));
            }
        });
        for (o, d) in dots {
            let (m, n, k) = (d.rm * 64 * d.warpgroups, d.rn * d.inst_n, d.rk * 16);
            let (_, _, bytes) = regions(m, n, k);
            let mut stages = if in_flight_loop(ctx, o) {
                3
            } else if alternating_loop(ctx, o).is_some() {
                2
            } else {
                1
            };
            // Fewer buffers where they would not fit (a loop keeps `wait_group 0` and a trailing
            // sync with one); none leaves the dot to mma.sync.
            let limit = crate::lower::shared_memory::SMEM_LIMIT;
            while stages > 0 && off + stages * bytes > limit {
                stages -= 1;
            }
            if stages == 0 {
                continue;
            }
            self.dot_buffers.insert(o, DotBuffer { off, bytes, stages });
            off += stages * bytes;
        }
        if off == first {
            start
        } else {
            off
        }
    }

    /// Lowers `tilus.dot` to wgmma when [`plan`] has a plan and a buffer was planned for it
    /// (module docs); `Ok(false)` leaves it to `mma.sync` or the SIMT lowering.
    pub(super) fn dot_wgmma(&mut self, ctx: &mut Context, o: OpId) -> R<bool> {
        let Some(buf) = self.dot_buffers.get(&o).copied() else {
            return Ok(false);
        };
        let Some(d) = plan(ctx, o, self.wgmma) else {
            return Ok(false);
        };
        let ops = ctx.operands(o).to_vec();
        let (a, bm, c) = (ops[0], ops[1], ops[2]);
        let r = ctx.results(o)[0];
        let (ta, tb) = (
            ty_of(ctx, a).ok_or("bad type")?,
            ty_of(ctx, bm).ok_or("bad type")?,
        );
        let (m, k, n) = (ta.shape[0], ta.shape[1], tb.shape[1]);
        let acc = match self.gather(ctx, c, &d.acc) {
            Ok(v) => v,
            Err(_) => self.convert_via_shared(ctx, o, c, &d.acc)?,
        };
        let tid = self.tid(ctx, o);
        let (sa, sb, _) = regions(m, n, k);
        let mut b = before(ctx, o);
        let smem = crate::lower::shared_memory::smem_base(&mut b);
        let mut base = b.add_const(smem, buf.off);
        if buf.stages > 1 {
            let (f, step) = alternating_loop(b.ctx(), o).ok_or("the dot's loop changed")?;
            let lb = b.ctx().operands(f)[0];
            let body = b.ctx().region_blocks(b.ctx().regions(f)[0])[0];
            let iv = b.ctx().block_args(body)[0];
            let rel = b.int_op(IntBinOp::SubI, iv, lb);
            let it = b.udiv_const(rel, step);
            let stage = b.urem_const(it, buf.stages);
            let shift = b.mul_const(stage, buf.bytes);
            base = b.add(base, shift);
        }
        self.stage(ctx, o, a, ta.dtype, Store { st: sa, row_dim: 0 }, base)?;
        self.stage(ctx, o, bm, tb.dtype, Store { st: sb, row_dim: 1 }, base)?;
        let mut b = before(ctx, o);
        b.inst("fence.proxy.async.shared::cta", "", &[], &[], None);
        SyncOp::build(&mut b);
        // Tied registers must be distinct: a splat gives every register one value, which each
        // gets a copy of here, before the wgmma.fence that orders register writes.
        let mut acc = acc;
        let mut seen: FxHashMap<Value, ()> = FxHashMap::default();
        for v in acc.iter_mut() {
            if seen.insert(*v, ()).is_some() {
                let t = b.ctx().value_type(*v);
                *v = b.inst("mov.f32", "$0", &[*v], &[t], None)[0];
            }
        }
        b.inst("wgmma.fence.sync.aligned", "", &[], &[], None);
        // Warpgroup g reads A from row g·M/W on.
        let mw = m / d.warpgroups;
        let wg = b.udiv_const(tid, 128);
        let a_rows = b.mul_const(wg, sa.linear(mw, 0));
        let a_base = b.add(base, a_rows);
        let b_base = b.add_const(base, sb.offset());
        let hi = |s: &Staged| {
            let km = KMajor {
                row_bytes: s.linear(1, 0),
                elem_bytes: 2,
                swizzle: s.swizzle(),
            };
            wgmma_descriptor_hi(km.lbo() as u64, km.sbo() as u64, km.swizzle)
        };
        let (ahi, bhi) = (hi(&sa), hi(&sb));
        let bs = (d.inst_n / 2) as usize;
        let f32t = b.f32();
        let i64t = b.i64();
        let opcode = d.opcode();
        let form = format!(
            "{{{}}}, ${bs}, ${}, 1, 1, 1, 0, 0",
            (0..bs)
                .map(|i| format!("${i}"))
                .collect::<Vec<_>>()
                .join(", "),
            bs + 1
        );
        for kk in 0..d.rk {
            for i in 0..d.rm {
                for j in 0..d.rn {
                    let ad = smem_descriptor(&mut b, a_base, sa.linear(i * 64, kk * 32), ahi);
                    let bd = smem_descriptor(&mut b, b_base, sb.linear(j * d.inst_n, kk * 32), bhi);
                    let blk = ((i * d.rn + j) as usize) * bs;
                    let mut args = acc[blk..blk + bs].to_vec();
                    args.extend([ad, bd]);
                    let out = b.inst(&opcode, &form, &args, &vec![f32t; bs], None);
                    let op = b.ctx().defining_op(out[0]).expect("an instruction result");
                    let tied = tilus_ir::rewrite::int_attr(b.ctx_mut(), i64t, bs as u128);
                    b.ctx_mut().set_attr(op, "tied", Some(tied));
                    acc[blk..blk + bs].copy_from_slice(&out);
                }
            }
        }
        b.inst("wgmma.commit_group.sync.aligned", "", &[], &[], None);
        let pending = if buf.stages == 3 { "1" } else { "0" };
        b.inst("wgmma.wait_group.sync.aligned", pending, &[], &[], None);
        if buf.stages == 1 {
            SyncOp::build(&mut b);
        } else {
            let (f, _) = alternating_loop(b.ctx(), o).ok_or("the dot's loop changed")?;
            if !self.synced_after.contains(&f) {
                self.synced_after.push(f);
                let mut after = OpBuilder::new(ctx);
                after.set_insertion_point_after(f);
                if buf.stages == 3 {
                    // The last MMAs retire before the accumulator is read; the fence keeps
                    // ptxas from serializing the wgmma (see lower-async-to-ptx's wait_group).
                    after.inst("wgmma.wait_group.sync.aligned", "0", &[], &[], None);
                    after.inst("fence.acq_rel.cta", "", &[], &[], None);
                }
                SyncOp::build(&mut after);
            }
        }
        let lr = Self::result_layout(ctx, o, r)?;
        self.set_tile(r, acc, d.acc.clone(), false);
        if !lr.same_mapping(&d.acc) {
            let vals = match self.gather(ctx, r, &lr) {
                Ok(v) => v,
                Err(_) => self.convert_via_shared(ctx, o, r, &lr)?,
            };
            self.set_tile(r, vals, lr, false);
        }
        Ok(true)
    }
}
