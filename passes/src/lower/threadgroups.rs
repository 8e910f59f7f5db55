//! `lower-threadgroups`: thread groups become `scf.if` on thread-index predicates, and
//! `threadgroup.sync` becomes a hardware barrier (spec §1.3, §1.4).
//!
//! Every group knows its absolute thread range `[begin, begin + n)` at compile time (groups nest
//! with constant offsets), so the predicate is written on the absolute `%tid.x` directly:
//!
//! | group | predicate |
//! |---|---|
//! | `threads(b, n)` covering the whole parent | none (the body is inlined) |
//! | `threads(b, n)` otherwise | `begin <= tid < begin + n` (unsigned `tid - begin < n`) |
//! | elect-any `single_thread`, parent one warp-aligned warp | `elect.sync` |
//! | elect-any `single_thread`, parent warp-aligned whole warps | `tid / 32 == begin / 32 && elect.sync` (the parent's first warp) |
//! | elect-any `single_thread`, other parents | `tid == begin` (the parent's first thread) |
//!
//! Where the block is whole warps, the tests of warp-aligned ranges (`begin` and `n` multiples
//! of 32, and the elect-any group's first-warp test) compare the *warp* index instead, read once
//! at the kernel's entry through `shfl.sync.idx` from lane 0 (`w = shfl(tid / 32, 0)`, then
//! `w - begin / 32 < n / 32`). The value is the same, but ptxas can tell that a `shfl` from a
//! fixed lane is uniform across the warp, and it cannot tell that of `tid / 32`: with the
//! uniform test, code under a role's branch (a consumer warpgroup's k loop) keeps its
//! warp-uniform arithmetic, such as wgmma descriptors, in uniform registers instead of
//! per-thread registers copied over with `R2UR` before each use. On the persistent matmul this
//! took the SASS from 3,736 to 3,152 instructions and gained 0.8-1 point against cuBLAS on the
//! H100 (docs/perf.md, issue 17, ninth part).
//!
//! The spec's two latent bugs do not arise: the range test needs no divisibility, and an
//! elect-any group always picks one thread. Ids inside groups (`tilus.thread_id`,
//! `tilus.warp_id`) are lowered first, relative to their group, because the groups disappear.
//!
//! `threadgroup.sync` in a group of absolute range `[b, b + n)`:
//!
//! | group | PTX |
//! |---|---|
//! | the whole block | `bar.sync 0` |
//! | one thread | nothing |
//! | within one warp | `bar.warp.sync mask` (`mask` = the group's lanes) |
//! | `b % 32 == 0`, `n % 32 == 0` | `bar.sync id, n`, `id` in 1..15, one per distinct range in first-use order |
//!
//! Anything else is rejected (the verifier already does).
//!
//! `threadgroup.setmaxnreg inc|dec n` becomes `setmaxnreg.{inc,dec}.sync.aligned.u32 n`, and
//! the kernel is marked (`tilus.setmaxnreg`) so that `lower-tilus-kernel` gives its entry
//! `.maxnreg` ([`tilus_dialects::threadgroup::launch_registers`]): ptxas ignores `setmaxnreg`
//! unless it knows the register count at entry.

use super::build::{before, group_pos, ops_where, LowerBuilder};
use super::tilus_kernel::lower_ids;
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::CmpIPredicate;
use tilus_dialects::ptx::EntryOp;
use tilus_dialects::scf::{IfOp, YieldOp};
use tilus_dialects::threadgroup::{
    group_range, RegisterAction, SetMaxNRegOp, SingleThreadOp, SyncOp,
};
use tilus_dialects::tilus::KernelOp;
use tilus_ir::OpBuilder;
use tilus_ir::{BlockId, Context, Diagnostic, OpId, Value};

declare_pass! {
    /// The pass. It has no options.
    pub struct LowerThreadgroups {
        name: "lower-threadgroups",
        class: "LowerThreadgroups",
        summary: "Lower thread groups to predicates and threadgroup.sync to barriers",
        description: "Replaces threadgroup.group/single_thread/single_warp/warp_group by scf.if \
            on the absolute thread index (on the warp index, shuffled from lane 0 at the \
            kernel's entry so that ptxas sees it as warp-uniform, for ranges of whole warps; \
            elect.sync for an elect-any single thread of a \
            warp-aligned parent), lowers the ids inside groups relative to them, and \
            threadgroup.sync to bar.sync 0 (whole block), bar.warp.sync mask (within a warp) or \
            a named barrier bar.sync id, n (ids 1..15 by first use).",
        options: {},
        statistics: {
            NUM_GROUPS = "num-groups", "Number of thread groups lowered";
            NUM_BARRIERS = "num-barriers", "Number of threadgroup.sync lowered";
        },
    }
}

impl Pass for LowerThreadgroups {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let kernels = ops_where(ctx, op, |c, o| KernelOp::is(c, o) || EntryOp::is(c, o));
        let mut errors = Vec::new();
        let (mut ngroups, mut nbars) = (0u64, 0u64);
        for k in kernels {
            // Ids first, while the groups still say what they are relative to.
            let mut in_group = false;
            ctx.walk(k, &mut |o| in_group |= group_range(ctx, o).is_some());
            let setmaxnregs = ops_where(ctx, k, SetMaxNRegOp::is);
            if !in_group && !has_sync(ctx, k) && setmaxnregs.is_empty() {
                continue;
            }
            lower_ids_in_groups(ctx, k);
            // Register budgets, before the groups that say who runs them dissolve (the op is
            // checked against its group by the verifier).
            if !setmaxnregs.is_empty() {
                let unit = ctx.attr(tilus_ir::AttrKind::Unit);
                ctx.set_attr(k, tilus_dialects::tilus::attr_names::SETMAXNREG, Some(unit));
            }
            for o in setmaxnregs {
                let m = SetMaxNRegOp::cast(ctx, o).expect("setmaxnreg");
                let opcode = match m.action(ctx) {
                    RegisterAction::Inc => "setmaxnreg.inc.sync.aligned.u32",
                    RegisterAction::Dec => "setmaxnreg.dec.sync.aligned.u32",
                };
                let n = m.count(ctx);
                before(ctx, o).inst(opcode, &n.to_string(), &[], &[], None);
                ctx.erase_op(o);
            }
            // Barriers, in program order (named barrier ids by first use).
            let syncs = ops_where(ctx, k, SyncOp::is);
            let mut named: Vec<(i64, i64)> = Vec::new();
            for s in syncs {
                match lower_sync(ctx, s, &mut named) {
                    Ok(()) => nbars += 1,
                    Err(d) => errors.push(d),
                }
            }
            // Groups, outermost first (a walk visits parents before children).
            let mut groups = Vec::new();
            ctx.walk(k, &mut |o| {
                if group_range(ctx, o).is_some() {
                    groups.push(o);
                }
            });
            // Where each group's parent sits, before any group is dissolved.
            let parents: Vec<_> = groups.iter().map(|&g| group_pos(ctx, g)).collect();
            let mut warp = UniformWarp::new(ctx, k);
            for (g, parent) in groups.into_iter().zip(parents) {
                match lower_group(ctx, g, parent, &mut warp) {
                    Ok(()) => ngroups += 1,
                    Err(d) => errors.push(d),
                }
            }
        }
        stats.add(Self::NUM_GROUPS, ngroups);
        stats.add(Self::NUM_BARRIERS, nbars);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(if ngroups + nbars > 0 {
            Changed::Yes
        } else {
            Changed::No
        })
    }
}

fn has_sync(ctx: &Context, k: OpId) -> bool {
    let mut s = false;
    ctx.walk(k, &mut |o| s |= SyncOp::is(ctx, o));
    s
}

/// Lowers the ids that sit inside some group (those of the root group can wait for
/// `lower-tilus-kernel`, but lowering them here too is harmless).
fn lower_ids_in_groups(ctx: &mut Context, k: OpId) {
    let mut groups = Vec::new();
    ctx.walk(k, &mut |o| {
        if group_range(ctx, o).is_some() {
            groups.push(o);
        }
    });
    for g in groups {
        if ctx.is_alive(g) {
            lower_ids(ctx, g);
        }
    }
}

fn lower_sync(ctx: &mut Context, s: OpId, named: &mut Vec<(i64, i64)>) -> Result<(), Diagnostic> {
    let g = group_pos(ctx, s).ok_or_else(|| {
        Diagnostic::op(s, "'threadgroup.sync' outside a kernel cannot be lowered")
    })?;
    let mut b = before(ctx, s);
    if g.size == 1 {
        // Nothing to wait for.
    } else if g.op.is_none() || (g.begin == Some(0) && g.size == g.block) {
        b.inst("bar.sync", "0", &[], &[], None);
    } else {
        match g.begin {
            Some(begin) if begin / 32 == (begin + g.size - 1) / 32 && g.size <= 32 => {
                let lanes: u64 = if g.size == 32 {
                    0xffff_ffff
                } else {
                    ((1u64 << g.size) - 1) << (begin % 32)
                };
                b.inst("bar.warp.sync", &format!("{lanes:#x}"), &[], &[], None);
            }
            Some(begin) if begin % 32 == 0 && g.size % 32 == 0 => {
                let key = (begin, g.size);
                let id = match named.iter().position(|r| *r == key) {
                    Some(i) => i + 1,
                    None => {
                        named.push(key);
                        named.len()
                    }
                };
                if id > 15 {
                    return Err(Diagnostic::op(
                        s,
                        "more than 15 distinct named barriers are needed (16 hardware barriers, \
                         0 is the whole block)",
                    ));
                }
                b.inst("bar.sync", &format!("{id}, {}", g.size), &[], &[], None);
            }
            _ => {
                return Err(Diagnostic::op(
                    s,
                    "'threadgroup.sync' needs a group a barrier can count (whole warps from a \
                     warp boundary, or threads within one warp)",
                ))
            }
        }
    }
    ctx.erase_op(s);
    Ok(())
}

/// The warp index of a kernel's thread as a value ptxas knows to be warp-uniform, made on first
/// use at the kernel's entry (where every thread of the block is converged, so the full-mask
/// `shfl.sync` is well defined).
struct UniformWarp {
    kernel: OpId,
    /// The block is whole warps, as far as the kernel can say: a `tilus.kernel`, or a
    /// `ptx.entry` with the tilus thread count (`maxntid` alone is an upper bound, and a block
    /// with a partial warp would have a full-mask `shfl` name lanes that do not exist).
    whole_warps: bool,
    value: Option<Value>,
}

impl UniformWarp {
    fn new(ctx: &Context, kernel: OpId) -> Self {
        let exact = KernelOp::is(ctx, kernel)
            || tilus_dialects::tilus_types::prop_i64(
                ctx,
                kernel,
                tilus_dialects::tilus::attr_names::THREADS,
            )
            .is_some();
        let whole_warps =
            exact && super::build::enclosing_kernel(ctx, kernel).is_some_and(|(_, n)| n % 32 == 0);
        Self {
            kernel,
            whole_warps,
            value: None,
        }
    }

    /// The warp index, or `None` when the block may have a partial warp: callers then test
    /// `%tid.x`.
    fn get(&mut self, ctx: &mut Context) -> Option<Value> {
        if !self.whole_warps {
            return None;
        }
        if let Some(v) = self.value {
            return Some(v);
        }
        let r = *ctx.regions(self.kernel).first()?;
        let body = *ctx.region_blocks(r).first()?;
        let mut b = OpBuilder::new(ctx);
        b.set_loc_from(self.kernel);
        b.set_insertion_point_to_start(body);
        let t = b.special("tid.x");
        let i32t = b.i32();
        let w = b.asm(
            "{\n\t.reg .b32 %tw;\n\tshr.u32 %tw, $1, 5;\n\tshfl.sync.idx.b32 $0, %tw, 0, 31, -1;\n\t}",
            &[t],
            &[i32t],
        )[0];
        self.value = Some(w);
        Some(w)
    }
}

/// The group `g` as an `scf.if` (or inlined when it covers its parent).
fn lower_group(
    ctx: &mut Context,
    g: OpId,
    parent: Option<super::build::GroupPos>,
    warp: &mut UniformWarp,
) -> Result<(), Diagnostic> {
    let parent = parent
        .ok_or_else(|| Diagnostic::op(g, "a thread group outside a kernel cannot be lowered"))?;
    let (rel, n) = group_range(ctx, g).expect("group op");
    if ctx.region_blocks(ctx.regions(g)[0]).is_empty() {
        // An empty group does nothing.
        ctx.erase_op(g);
        return Ok(());
    }
    // The warp index only where a test will read it: whole warps from a warp boundary.
    let whole_warps = match (rel, parent.begin) {
        (Some(r), Some(pb)) => (pb + r) % 32 == 0 && n % 32 == 0 && !(r == 0 && n == parent.size),
        (None, Some(pb)) => pb % 32 == 0 && parent.size % 32 == 0 && parent.size > 32,
        _ => false,
    };
    let w = if whole_warps { warp.get(ctx) } else { None };
    let mut b = before(ctx, g);
    let cond: Option<Value> = match rel {
        Some(r) => {
            if r == 0 && n == parent.size {
                None
            } else {
                let Some(pb) = parent.begin else {
                    // Inside an elect-any thread the parent has one thread, so r == 0, n == 1.
                    return Err(Diagnostic::op(
                        g,
                        "cannot place a group inside an elected thread",
                    ));
                };
                let begin = pb + r;
                // `index - first < count`, in warps where the warp index serves.
                let (index, first, count) = match w {
                    Some(w) => (w, begin / 32, n / 32),
                    None => (b.special("tid.x"), begin, n),
                };
                let d = b.add_const(index, -first);
                let nn = b.c32(count);
                Some(b.cmpi(CmpIPredicate::Ult, d, nn))
            }
        }
        None => {
            // Elect-any single thread.
            debug_assert!(SingleThreadOp::is(b.ctx(), g));
            if parent.size == 1 {
                None
            } else {
                match parent.begin {
                    Some(pb) if pb % 32 == 0 && parent.size % 32 == 0 => {
                        let i32t = b.i32();
                        let e = b.asm(
                            "{\n\t.reg .pred %elect_p;\n\telect.sync _|%elect_p, 0xffffffff;\n\tselp.u32 $0, 1, 0, %elect_p;\n\t}",
                            &[],
                            &[i32t],
                        )[0];
                        let zero = b.c32(0);
                        let p = b.cmpi(CmpIPredicate::Ne, e, zero);
                        if parent.size == 32 {
                            Some(p)
                        } else {
                            let w = match w {
                                Some(w) => w,
                                None => {
                                    let t = b.special("tid.x");
                                    b.udiv_const(t, 32)
                                }
                            };
                            let want = b.c32(pb / 32);
                            let first = b.cmpi(CmpIPredicate::Eq, w, want);
                            Some(b.and(first, p))
                        }
                    }
                    Some(pb) => {
                        let t = b.special("tid.x");
                        let want = b.c32(pb);
                        Some(b.cmpi(CmpIPredicate::Eq, t, want))
                    }
                    None => None,
                }
            }
        }
    };
    let Some(&body) = ctx.region_blocks(ctx.regions(g)[0]).first() else {
        // An empty group does nothing.
        ctx.erase_op(g);
        return Ok(());
    };
    let body: BlockId = body;
    match cond {
        None => {
            let ops: Vec<OpId> = ctx.block_ops(body).collect();
            for o in ops {
                ctx.move_op_before(o, g);
            }
            ctx.erase_op(g);
        }
        Some(c) => {
            let loc = ctx.op(g).loc;
            // then region: the body plus scf.yield; else region: empty.
            let mut b = OpBuilder::new(ctx);
            b.set_loc(loc);
            b.set_insertion_point_to_end(body);
            YieldOp::build(&mut b, &[]);
            b.set_insertion_point_before(g);
            let i = IfOp::build(&mut b, c, &[]);
            let then_r = i.then_region(ctx);
            super::set_region_blocks(ctx, then_r, &[body]);
            ctx.erase_op(g);
        }
    }
    Ok(())
}
