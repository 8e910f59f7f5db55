//! `verify-barriers`: a static check that every `mbarrier.wait` of a kernel can complete and
//! that no barrier over-arrives, for every trip count of the kernel's loops.
//!
//! Pipelined kernels carry their protocol in a few integers: the counts of `mbarrier.alloc`,
//! the size of the group that executes each arrive, the bytes `arrive_expect_tx` announces, and
//! the `(stage, phase)` pair a loop carries in its `iter_args`. A mistake in any of them hangs
//! the GPU or corrupts data only on some trip counts, so the check reasons about the loop
//! symbolically instead of running it:
//!
//! 1. **Forms.** Every barrier index, buffer-slot index and wait phase is read as a function of
//!    the iteration number `k` of its enclosing `scf.for`: a constant, `k` itself, a ring stage
//!    `((k + off) mod S) + add` (an iter_arg advanced by `select(s + 1 == S, 0, s + 1)`), or a
//!    ring phase `p0 xor (floor(k / S) mod 2)` (an iter_arg flipped when the stage wraps, or on
//!    every iteration for `S = 1`). `scf.if` guards of the form `k + c < ub` are kept with the
//!    op. Anything else makes the barrier unanalyzable, and it is skipped (counted in a
//!    statistic) rather than guessed at; so does a use inside an `scf.while`,
//!    `scf.index_switch`, `scf.parallel`, `scf.forall` or an `scf.execute_region` of several
//!    blocks (at any depth), whose trips or choices the check does not count.
//! 2. **Arrivals per phase.** Arrive sites that execute together (same trip, same stage form,
//!    same guard) form one *cluster*, which completes one phase of the slot it targets. Its
//!    arrivals are the sum over its sites of the executing group's size (every thread of the
//!    group arrives) times the arrive count, and must equal the barrier's count: more is an
//!    over-arrival (a whole warp on a count-1 barrier), fewer a phase that never completes.
//! 3. **Transaction bytes.** Within a cluster, the bytes announced by `arrive_expect_tx` must
//!    equal the bytes of the TMA copies that signal the same barrier slot.
//! 4. **Stages.** Every ring form on a barrier array has the array's size as its period and the
//!    same offset, and a TMA copy lands in the buffer slot of the barrier slot it signals.
//! 5. **Phases for every trip count.** For each wait, each iteration's awaited phase number
//!    (its round on the slot, minus one when it starts at parity 1) is compared with the phases
//!    the clusters complete on that slot. Both sides are counts of iterations whose forms are
//!    quasi-affine in `k`, so they are linear in the trip count `T` plus a term periodic in
//!    `T` with period `P` (the lcm of the ring sizes) once `T` passes the largest guard or cap
//!    `T0`; two such functions agree for every `T` exactly when they agree for `T` in
//!    `[0, T0 + 2P]`, which is what is evaluated. A wait whose phase is never completed (a
//!    missing arrive, a slot never released) is reported with the smallest such trip count. A
//!    wait at parity 1 on a fresh barrier (already complete) followed by a read of shared
//!    memory reads data that was never waited for, and a wait whose parity does not follow its
//!    rounds on the slot waits on a phase already past.
//! 6. **Ordering.** Each wait depends on the arrivals that complete its phase, at an iteration
//!    distance (`-S` for a producer waiting on the consumer's release of the previous round,
//!    `0` for a consumer waiting on this round's fill); each arrival depends on the waits
//!    before it in its threads' program order (distance 0, or -1 for the previous iteration).
//!    A cycle of total distance >= 0 is a deadlock (the wait needs its own iteration's or a
//!    later iteration's progress) and is reported at the wait.
//! 7. **Async readers.** An arrive or a TMA copy (which releases or overwrites a stage) while a
//!    `wgmma.mma` of the same threads that reads that stage is not yet retired by
//!    `wgmma.wait_group` lets the producer overwrite a stage the MMA may still be reading. The
//!    stages are compared as forms of the iteration (the MMA's shifted by the iterations since
//!    it was issued), so `wgmma.wait_group 1` followed by the release of the *previous* stage
//!    (the one the retired MMA read) is accepted and the release of the current one is not.
//!
//! The pass changes nothing; its errors carry the barrier, slot, phase and the missing
//! arrivals or bytes. It runs first in `tilus-to-ptx`, and by itself as `--verify-barriers`.

use crate::{declare_pass, Changed, Pass, Statistics};
use std::collections::HashMap;
use tilus_dialects::arith::{
    AddIOp, CmpIOp, CmpIPredicate, MinSIOp, RemSIOp, RemUIOp, SelectOp, XOrIOp,
};
use tilus_dialects::mbarrier::{
    AllocOp, ArriveExpectTxOp, ArriveOp, ConsumerInitialPhaseOp, ProducerInitialPhaseOp, WaitOp,
};
use tilus_dialects::scf::{ForOp, IfOp, ScfOpKind, YieldOp};
use tilus_dialects::tcgen05::{CommitOp as TcCommitOp, MmaOp as TcMmaOp};
use tilus_dialects::threadgroup::{group_of, group_range};
use tilus_dialects::tilus::{same_start_view_source, KernelOp, LoadSharedOp, SliceSharedOp};
use tilus_dialects::tilus_types::{attr_i64s, const_int, TensorType};
use tilus_dialects::tma::GlobalToSharedOp;
use tilus_dialects::wgmma::{CommitGroupOp, MmaOp as WgmmaOp, WaitGroupOp};
use tilus_ir::{Context, DiagLoc, Diagnostic, OpId, Value};

declare_pass! {
    /// The barrier protocol checker. It has no options.
    pub struct VerifyBarriers {
        name: "verify-barriers",
        summary: "Prove statically that every mbarrier wait completes and no barrier over-arrives",
        description: "Checks each tilus.kernel's mbarrier protocol symbolically over its \
            scf.for loops (stage and phase as functions of the iteration): arrivals per phase \
            against the alloc counts times the size of the arriving group, bytes announced by \
            arrive_expect_tx against the TMA copies signalling the barrier, ring stages and \
            phases, waits on a phase that is never completed or already past for some trip \
            count, wait/arrive dependency cycles, and stages released while a wgmma may still \
            read them. Each violation is an error at its op with the barrier, slot, phase and \
            the missing arrivals or bytes. The IR is not changed.",
        options: {},
        statistics: {
            NUM_BARRIERS = "num-barriers", "Barrier arrays whose protocol was proved";
            NUM_SKIPPED = "num-skipped", "Barrier arrays with index or phase forms the check does not model";
        },
    }
}

impl Pass for VerifyBarriers {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut kernels = Vec::new();
        ctx.walk(op, &mut |o| {
            if KernelOp::is(ctx, o) {
                kernels.push(o);
            }
        });
        for k in kernels {
            let r = check_kernel(ctx, k);
            stats.add(Self::NUM_BARRIERS, r.proved);
            stats.add(Self::NUM_SKIPPED, r.skipped);
            errors.extend(r.errors);
        }
        if errors.is_empty() {
            Ok(Changed::No)
        } else {
            Err(errors)
        }
    }
}

// ----- forms ---------------------------------------------------------------------------------

/// A barrier or buffer-slot index as a function of the iteration `k` of its loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Slot {
    Const(i64),
    /// `k` (the induction variable of a loop from 0 by 1).
    Iv,
    /// `((k + off) mod s) + add`.
    Ring {
        s: i64,
        off: i64,
        add: i64,
    },
}

impl Slot {
    fn at(self, k: i64) -> i64 {
        match self {
            Slot::Const(c) => c,
            Slot::Iv => k,
            Slot::Ring { s, off, add } => k.saturating_add(off).rem_euclid(s).saturating_add(add),
        }
    }
    fn describe(self) -> String {
        match self {
            Slot::Const(c) => c.to_string(),
            Slot::Iv => "k".into(),
            Slot::Ring { s, off, add } => {
                let inner = if off == 0 {
                    format!("k mod {s}")
                } else {
                    format!("(k + {off}) mod {s}")
                };
                if add == 0 {
                    inner
                } else {
                    format!("({inner}) + {add}")
                }
            }
        }
    }
}

/// A wait's phase parity as a function of `k`: `p0 xor (floor(k / s) mod 2)`; `s = 0` is a
/// parity that never changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Phase {
    p0: i64,
    s: i64,
}

impl Phase {
    fn at(self, k: i64) -> i64 {
        if self.s == 0 {
            self.p0
        } else {
            self.p0 ^ ((k / self.s) & 1)
        }
    }
}

/// The scf.if conditions an op runs under: `k + c < ub` of its loop (a refill of a later
/// tile), or `k >= c` (a release of an earlier iteration's stage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Guard {
    Always,
    Lt(i64),
    Ge(i64),
}

impl Guard {
    fn holds(self, k: i64, t: i64) -> bool {
        match self {
            Guard::Always => true,
            Guard::Lt(c) => k + c < t,
            Guard::Ge(c) => k >= c,
        }
    }
}

/// A loop's bounds, as identities: loops with equal keys run in lock step (one iteration
/// number `k` and one trip count `T` for all of them); `cap` is a constant the upper bound is
/// clamped to (`arith.minsi ub, c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Trip {
    lb: Bound,
    ub: Bound,
    step: Bound,
    cap: Option<i64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Bound {
    Const(i64),
    Val(Value),
}

impl Trip {
    /// Same iteration numbering (ignoring the cap).
    fn same_base(&self, o: &Trip) -> bool {
        self.lb == o.lb && self.ub == o.ub && self.step == o.step
    }
    /// The iterations run when the uncapped loop runs `t` (or the constant trip count).
    fn count(&self, t: i64) -> i64 {
        let base = match (self.lb, self.ub, self.step) {
            (Bound::Const(l), Bound::Const(u), Bound::Const(s)) if s > 0 => {
                ((u - l).max(0) + s - 1) / s
            }
            _ => t,
        };
        match self.cap {
            Some(c) => base.min(c),
            None => base,
        }
    }
    fn is_const(&self) -> bool {
        matches!(
            (self.lb, self.ub, self.step),
            (Bound::Const(_), Bound::Const(_), Bound::Const(_))
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// `m` arrivals per execution.
    Arrive {
        m: i64,
    },
    /// `m` arrivals announcing `bytes` each.
    ExpectTx {
        m: i64,
        bytes: Option<i64>,
    },
    /// A TMA copy completing `bytes` on the barrier, landing in buffer slot `dst` (when the
    /// destination is a slice of a staged buffer).
    Tx {
        bytes: i64,
        dst: Option<Slot>,
    },
    Wait {
        phase: Phase,
    },
}

#[derive(Clone, Copy, Debug)]
struct Event {
    op: OpId,
    bar: Value,
    kind: Kind,
    slot: Slot,
    /// `None`: straight-line code, runs once.
    trip: Option<Trip>,
    loop_op: Option<OpId>,
    guard: Guard,
    /// Threads `[begin, begin + size)` that execute the op (widened to the nearest enclosing
    /// group with a known position).
    threads: (i64, i64),
    order: usize,
    /// For straight-line arrivals and copies: how many straight-line waits on the same barrier
    /// slot the executing threads passed before it. A wait separates phases, so arrivals in
    /// different epochs complete different phases instead of adding up in one.
    epoch: usize,
    /// An arrival read as made `delay` iterations before the one that runs it (see
    /// [`Guard::Ge`]): it comes after the waits of iteration `k + delay`.
    delay: i64,
}

impl Event {
    fn is_arrival(&self) -> bool {
        matches!(self.kind, Kind::Arrive { .. } | Kind::ExpectTx { .. })
    }
    fn cluster(&self) -> (Option<Trip>, Slot, Guard, usize) {
        (self.trip, self.slot, self.guard, self.epoch)
    }
    fn count(&self, t: i64) -> i64 {
        self.trip.map_or(1, |tr| tr.count(t))
    }
}

/// Why a form could not be read; the barrier is then skipped.
struct Unmodeled;

struct Analysis<'c> {
    ctx: &'c Context,
    order: HashMap<OpId, usize>,
}

impl<'c> Analysis<'c> {
    /// The `scf.for` ops enclosing `op` inside the kernel, innermost first.
    fn loops(&self, op: OpId) -> Vec<OpId> {
        let mut out = Vec::new();
        let mut cur = self.ctx.parent_op(op);
        while let Some(p) = cur {
            if KernelOp::is(self.ctx, p) {
                break;
            }
            if ForOp::is(self.ctx, p) {
                out.push(p);
            }
            cur = self.ctx.parent_op(p);
        }
        out
    }

    fn bound(&self, v: Value) -> Bound {
        match const_int(self.ctx, v) {
            Some(c) => Bound::Const(c),
            None => Bound::Val(v),
        }
    }

    fn trip(&self, f: ForOp) -> Trip {
        let ctx = self.ctx;
        let ub = f.upper_bound(ctx);
        let (ub, cap) = match ctx.defining_op(ub).and_then(|d| MinSIOp::cast(ctx, d)) {
            Some(m) => match (const_int(ctx, m.lhs(ctx)), const_int(ctx, m.rhs(ctx))) {
                (None, Some(c)) => (m.lhs(ctx), Some(c)),
                (Some(c), None) => (m.rhs(ctx), Some(c)),
                _ => (ub, None),
            },
            None => (ub, None),
        };
        Trip {
            lb: self.bound(f.lower_bound(ctx)),
            ub: self.bound(ub),
            step: self.bound(f.step(ctx)),
            cap,
        }
    }

    fn unit_loop(&self, f: ForOp) -> bool {
        const_int(self.ctx, f.lower_bound(self.ctx)) == Some(0)
            && const_int(self.ctx, f.step(self.ctx)) == Some(1)
    }

    /// The loop body's entry block arguments: `[iv, iter_args...]`.
    fn body_args(&self, f: ForOp) -> &'c [Value] {
        let r = self.ctx.regions(f.op())[0];
        let b = self.ctx.region_blocks(r)[0];
        self.ctx.block_args(b)
    }

    fn yielded(&self, f: ForOp, i: usize) -> Option<Value> {
        let r = self.ctx.regions(f.op())[0];
        let b = self.ctx.region_blocks(r)[0];
        let term = self.ctx.block_last(b)?;
        YieldOp::cast(self.ctx, term)?
            .results(self.ctx)
            .get(i)
            .copied()
    }

    /// The iter_arg `v` of loop `f` is: `(init, yielded)`.
    fn iter_arg(&self, f: ForOp, v: Value) -> Option<(usize, Value, Value)> {
        let args = self.body_args(f);
        let i = args.iter().position(|&a| a == v)?;
        if i == 0 {
            return None;
        }
        let init = *f.init_args(self.ctx).get(i - 1)?;
        let next = self.yielded(f, i - 1)?;
        Some((i - 1, init, next))
    }

    fn const_phase(&self, v: Value) -> Option<i64> {
        let ctx = self.ctx;
        if let Some(c) = const_int(ctx, v) {
            return Some(c & 1);
        }
        let d = ctx.defining_op(v)?;
        if ProducerInitialPhaseOp::is(ctx, d) {
            Some(1)
        } else if ConsumerInitialPhaseOp::is(ctx, d) {
            Some(0)
        } else {
            None
        }
    }

    /// `x + c` with `c` constant: `(x, c)`.
    fn plus_const(&self, v: Value) -> Option<(Value, i64)> {
        let a = AddIOp::cast(self.ctx, self.ctx.defining_op(v)?)?;
        let (l, r) = (a.lhs(self.ctx), a.rhs(self.ctx));
        match (const_int(self.ctx, l), const_int(self.ctx, r)) {
            (None, Some(c)) => Some((l, c)),
            (Some(c), None) => Some((r, c)),
            _ => None,
        }
    }

    /// The ring period `S` of `select(s + 1 == S, 0, s + 1)` advancing `s`.
    fn ring_advance(&self, s: Value, next: Value) -> Option<i64> {
        let ctx = self.ctx;
        let sel = SelectOp::cast(ctx, ctx.defining_op(next)?)?;
        let (period, inc) = self.wrap_test(s, sel.condition(ctx))?;
        (const_int(ctx, sel.true_value(ctx)) == Some(0) && sel.false_value(ctx) == inc)
            .then_some(period)
    }

    /// `cmpi eq, s + 1, S`: `(S, s + 1)`.
    fn wrap_test(&self, s: Value, cond: Value) -> Option<(i64, Value)> {
        let ctx = self.ctx;
        let cmp = CmpIOp::cast(ctx, ctx.defining_op(cond)?)?;
        if cmp.predicate(ctx) != CmpIPredicate::Eq {
            return None;
        }
        let inc = cmp.lhs(ctx);
        let (base, one) = self.plus_const(inc)?;
        let period = const_int(ctx, cmp.rhs(ctx))?;
        (base == s && one == 1 && period > 0).then_some((period, inc))
    }

    /// The slot form of an index value used in loop `lp` (innermost loop) or outside loops.
    fn slot(&self, v: Value, lp: Option<ForOp>) -> Result<Slot, Unmodeled> {
        if let Some(c) = const_int(self.ctx, v) {
            return Ok(Slot::Const(c));
        }
        if let Some((x, c)) = self.plus_const(v) {
            return match self.slot(x, lp)? {
                Slot::Const(a) => Ok(Slot::Const(a.saturating_add(c))),
                Slot::Ring { s, off, add } => Ok(Slot::Ring {
                    s,
                    off,
                    add: add.saturating_add(c),
                }),
                Slot::Iv => Err(Unmodeled),
            };
        }
        let Some(f) = lp else { return Err(Unmodeled) };
        // `(k + c) rem S` of a loop from 0 by 1.
        let rem = self.ctx.defining_op(v).and_then(|d| {
            RemSIOp::cast(self.ctx, d)
                .map(|r| (r.lhs(self.ctx), r.rhs(self.ctx)))
                .or_else(|| RemUIOp::cast(self.ctx, d).map(|r| (r.lhs(self.ctx), r.rhs(self.ctx))))
        });
        if let Some((x, m)) = rem {
            let iv = self.body_args(f)[0];
            let off = if x == iv {
                Some(0)
            } else {
                self.plus_const(x).and_then(|(y, c)| (y == iv).then_some(c))
            };
            return match (off, const_int(self.ctx, m)) {
                (Some(off), Some(s)) if s > 0 && off >= 0 && self.unit_loop(f) => Ok(Slot::Ring {
                    s,
                    off: off % s,
                    add: 0,
                }),
                _ => Err(Unmodeled),
            };
        }
        if self.body_args(f).first() == Some(&v) {
            return if self.unit_loop(f) {
                Ok(Slot::Iv)
            } else {
                Err(Unmodeled)
            };
        }
        let Some((_, init, next)) = self.iter_arg(f, v) else {
            return Err(Unmodeled);
        };
        let Some(off) = const_int(self.ctx, init) else {
            return Err(Unmodeled);
        };
        if next == v {
            return Ok(Slot::Const(off));
        }
        match self.ring_advance(v, next) {
            Some(s) if (0..s).contains(&off) => Ok(Slot::Ring { s, off, add: 0 }),
            _ => Err(Unmodeled),
        }
    }

    /// The phase form of a wait's phase operand.
    fn phase(&self, v: Value, lp: Option<ForOp>) -> Result<Phase, Unmodeled> {
        if let Some(p) = self.const_phase(v) {
            return Ok(Phase { p0: p, s: 0 });
        }
        let Some(f) = lp else { return Err(Unmodeled) };
        let Some((_, init, next)) = self.iter_arg(f, v) else {
            return Err(Unmodeled);
        };
        let Some(p0) = self.const_phase(init) else {
            return Err(Unmodeled);
        };
        let ctx = self.ctx;
        let is_flip = |x: Value| {
            ctx.defining_op(x)
                .and_then(|d| XOrIOp::cast(ctx, d))
                .is_some_and(|x| {
                    (x.lhs(ctx) == v && const_int(ctx, x.rhs(ctx)) == Some(1))
                        || (x.rhs(ctx) == v && const_int(ctx, x.lhs(ctx)) == Some(1))
                })
        };
        if next == v {
            return Ok(Phase { p0, s: 0 });
        }
        if is_flip(next) {
            return Ok(Phase { p0, s: 1 });
        }
        // select(wrap, phase ^ 1, phase), wrap = (stage + 1 == S) for a ring stage from 0.
        let sel = ctx
            .defining_op(next)
            .and_then(|d| SelectOp::cast(ctx, d))
            .ok_or(Unmodeled)?;
        if !is_flip(sel.true_value(ctx)) || sel.false_value(ctx) != v {
            return Err(Unmodeled);
        }
        let cmp = ctx
            .defining_op(sel.condition(ctx))
            .and_then(|d| CmpIOp::cast(ctx, d))
            .ok_or(Unmodeled)?;
        let (stage, _) = self.plus_const(cmp.lhs(ctx)).ok_or(Unmodeled)?;
        let (period, _) = self.wrap_test(stage, sel.condition(ctx)).ok_or(Unmodeled)?;
        // The stage must start at 0 for the wrap to happen every `period` iterations from 0.
        match self.slot(stage, lp)? {
            Slot::Ring { s, off: 0, add: 0 } if s == period => Ok(Phase { p0, s: period }),
            _ => Err(Unmodeled),
        }
    }

    /// The guard of `op` inside loop `f`: every scf.if between them must be `k + c < ub`
    /// (then branch).
    fn guard(&self, op: OpId, f: Option<ForOp>) -> Result<Guard, Unmodeled> {
        let ctx = self.ctx;
        // Region ops that run their regions a number of times the check does not count
        // (`scf.while`, `scf.parallel`, `scf.forall`, an `scf.execute_region` of several
        // blocks, whose `cf` branches may loop) or choose one of them at run time
        // (`scf.index_switch`), anywhere around the op: it may run any number of times, so its
        // barrier is skipped rather than counted as run once. (An `scf.execute_region` of one
        // block runs it once.)
        let mut up = ctx.parent_op(op);
        while let Some(p) = up {
            if KernelOp::is(ctx, p) {
                break;
            }
            let uncounted = match ScfOpKind::classify(ctx, p) {
                Some(
                    ScfOpKind::While(_)
                    | ScfOpKind::IndexSwitch(_)
                    | ScfOpKind::Parallel(_)
                    | ScfOpKind::Forall(_),
                ) => true,
                Some(ScfOpKind::ExecuteRegion(e)) => ctx.region_blocks(e.region(ctx)).len() > 1,
                _ => false,
            };
            if uncounted {
                return Err(Unmodeled);
            }
            up = ctx.parent_op(p);
        }
        let mut guard = Guard::Always;
        let mut child = op;
        let mut cur = ctx.parent_op(op);
        while let Some(p) = cur {
            if Some(p) == f.map(|f| f.op()) || KernelOp::is(ctx, p) {
                break;
            }
            if let Some(i) = IfOp::cast(ctx, p) {
                let Some(f) = f else { return Err(Unmodeled) };
                let in_then = ctx.op_parent_block(child).and_then(|b| ctx.block_parent(b))
                    == Some(i.then_region(ctx));
                if !in_then || !self.unit_loop(f) || guard != Guard::Always {
                    return Err(Unmodeled);
                }
                let cmp = ctx
                    .defining_op(i.condition(ctx))
                    .and_then(|d| CmpIOp::cast(ctx, d))
                    .ok_or(Unmodeled)?;
                let iv = self.body_args(f)[0];
                // `k >= c` / `k > c - 1`: from iteration c on.
                let pred = cmp.predicate(ctx);
                if matches!(pred, CmpIPredicate::Sge | CmpIPredicate::Sgt) && cmp.lhs(ctx) == iv {
                    let c = const_int(ctx, cmp.rhs(ctx)).ok_or(Unmodeled)?;
                    let c = if pred == CmpIPredicate::Sgt { c + 1 } else { c };
                    if !(0..=BUDGET).contains(&c) {
                        return Err(Unmodeled);
                    }
                    guard = Guard::Ge(c);
                    child = p;
                    cur = ctx.parent_op(p);
                    continue;
                }
                if pred != CmpIPredicate::Slt || cmp.rhs(ctx) != f.upper_bound(ctx) {
                    return Err(Unmodeled);
                }
                let c = if cmp.lhs(ctx) == iv {
                    0
                } else {
                    match self.plus_const(cmp.lhs(ctx)) {
                        Some((x, c)) if x == iv => c,
                        _ => return Err(Unmodeled),
                    }
                };
                guard = Guard::Lt(c);
            }
            child = p;
            cur = ctx.parent_op(p);
        }
        Ok(guard)
    }

    /// Threads executing `op`, widened to a group with a known position.
    fn threads(&self, op: OpId) -> (i64, i64) {
        let mut at = op;
        loop {
            match group_of(self.ctx, at) {
                Some(g) => match (g.abs_begin, g.op) {
                    (Some(b), _) => return (b, g.size),
                    (None, Some(gop)) => at = gop,
                    (None, None) => return (0, g.block_size),
                },
                None => return (0, i64::MAX / 4),
            }
        }
    }

    fn group_size(&self, op: OpId) -> i64 {
        group_of(self.ctx, op).map_or(1, |g| g.size)
    }

    /// The event of a barrier op, `Ok(None)` for ops that are not barrier ops.
    fn event(&self, op: OpId) -> Result<Option<Event>, (Value, Unmodeled)> {
        let ctx = self.ctx;
        let (bar, index, kind, phase_v) = if let Some(a) = ArriveOp::cast(ctx, op) {
            let count = match a.count(ctx) {
                Some(c) => const_int(ctx, c),
                None => Some(1),
            };
            let Some(count) = count else {
                return Err((a.barriers(ctx), Unmodeled));
            };
            let m = self.group_size(op) * count;
            (a.barriers(ctx), a.index(ctx), Kind::Arrive { m }, None)
        } else if let Some(a) = ArriveExpectTxOp::cast(ctx, op) {
            let m = self.group_size(op);
            let bytes = const_int(ctx, a.bytes(ctx));
            (
                a.barriers(ctx),
                a.index(ctx),
                Kind::ExpectTx { m, bytes },
                None,
            )
        } else if let Some(c) = TcCommitOp::cast(ctx, op) {
            // The hardware arrives once when the issued MMAs complete.
            (c.barriers(ctx), c.index(ctx), Kind::Arrive { m: 1 }, None)
        } else if let Some(t) = GlobalToSharedOp::cast(ctx, op) {
            let dst = t.dst(ctx);
            let bytes = TensorType::of_ref(ctx, ctx.value_type(dst)).map(|t| t.nbytes());
            let Some(bytes) = bytes else {
                return Err((t.barriers(ctx), Unmodeled));
            };
            (
                t.barriers(ctx),
                t.barrier_index(ctx),
                Kind::Tx { bytes, dst: None },
                Some(dst),
            )
        } else if let Some(w) = WaitOp::cast(ctx, op) {
            (
                w.barriers(ctx),
                w.index(ctx),
                Kind::Wait {
                    phase: Phase { p0: 0, s: 0 },
                },
                Some(w.phase(ctx)),
            )
        } else {
            return Ok(None);
        };
        let loops = self.loops(op);
        if loops.len() > 1 {
            return Err((bar, Unmodeled));
        }
        let lp = loops.first().and_then(|&l| ForOp::cast(ctx, l));
        let slot = self.slot(index, lp).map_err(|e| (bar, e))?;
        let kind = match (kind, phase_v) {
            (Kind::Wait { .. }, Some(p)) => Kind::Wait {
                phase: self.phase(p, lp).map_err(|e| (bar, e))?,
            },
            (Kind::Tx { bytes, .. }, Some(dst)) => {
                let d = stage_index(ctx, dst).and_then(|i| self.slot(i, lp).ok());
                Kind::Tx { bytes, dst: d }
            }
            (k, _) => k,
        };
        let mut guard = self.guard(op, lp).map_err(|e| (bar, e))?;
        let mut slot = slot;
        let mut delay = 0;
        if let Guard::Ge(d) = guard {
            // A release of the stage of iteration k - d, from iteration d on (a consumer that
            // keeps d wgmma groups in flight): the same arrival as one made in iteration
            // j = k - d, while j + d < T, that comes after the waits of iteration j + d.
            if !matches!(kind, Kind::Arrive { .. } | Kind::ExpectTx { .. }) {
                return Err((bar, Unmodeled));
            }
            slot = match slot {
                Slot::Const(c) => Slot::Const(c),
                Slot::Ring { s, off, add } => Slot::Ring {
                    s,
                    off: (off + d).rem_euclid(s),
                    add,
                },
                Slot::Iv => return Err((bar, Unmodeled)),
            };
            guard = Guard::Lt(d);
            delay = d;
        }
        Ok(Some(Event {
            op,
            bar,
            kind,
            slot,
            trip: lp.map(|f| self.trip(f)),
            loop_op: lp.map(|f| f.op()),
            guard,
            threads: self.threads(op),
            order: self.order[&op],
            epoch: 0,
            delay,
        }))
    }
}

struct KernelReport {
    proved: u64,
    skipped: u64,
    errors: Vec<Diagnostic>,
}

/// A barrier array: its alloc op and per-slot counts.
struct Barrier {
    alloc: OpId,
    counts: Vec<i64>,
}

fn check_kernel(ctx: &Context, kernel: OpId) -> KernelReport {
    let mut order = HashMap::new();
    let mut all = Vec::new();
    ctx.walk(kernel, &mut |o| {
        order.insert(o, all.len());
        all.push(o);
    });
    let an = Analysis { ctx, order };
    let mut report = KernelReport {
        proved: 0,
        skipped: 0,
        errors: Vec::new(),
    };

    // Barrier arrays allocated in this kernel.
    let mut barriers: Vec<(Value, Barrier)> = Vec::new();
    for &o in &all {
        if let Some(a) = AllocOp::cast(ctx, o) {
            let v = a.barriers(ctx);
            let n = tilus_dialects::tilus_types::barrier_count(ctx, ctx.value_type(v)).unwrap_or(1);
            let counts = match a.counts(ctx).and_then(|c| attr_i64s(ctx, c)) {
                Some(c) => c,
                None => vec![an.group_size(o); n as usize],
            };
            barriers.push((v, Barrier { alloc: o, counts }));
        }
    }

    let mut events = Vec::new();
    let mut skipped: Vec<Value> = Vec::new();
    for &o in &all {
        match an.event(o) {
            Ok(Some(e)) => events.push(e),
            Ok(None) => {}
            Err((bar, Unmodeled)) => skipped.push(bar),
        }
    }

    let mut analyzed = Vec::new();
    for (v, b) in &barriers {
        if skipped.contains(v) {
            report.skipped += 1;
            continue;
        }
        let mut evs: Vec<Event> = events.iter().filter(|e| e.bar == *v).copied().collect();
        assign_epochs(&mut evs, &b.counts);
        let before = report.errors.len();
        check_barrier(ctx, &an, *v, b, &evs, &mut report.errors);
        if report.errors.len() == before {
            report.proved += 1;
            analyzed.extend(evs);
        }
    }
    // Events on barriers that are not allocated here (kernel arguments): nothing to check.
    check_cycles(ctx, &barriers, &analyzed, &mut report.errors);
    check_async_readers(&an, kernel, &mut report.errors);
    check_unwaited_reads(ctx, &an, &all, &mut report.errors);
    report
}

/// Numbers the straight-line arrivals and copies of one barrier by the straight-line waits on
/// the same slot that their threads passed first (see [`Event::epoch`]): `arrive; wait phase 0;
/// arrive; wait phase 1` completes two phases of a count-1 barrier, it does not over-arrive.
fn assign_epochs(evs: &mut [Event], counts: &[i64]) {
    // What ends an epoch for the threads after it: a straight-line wait on the slot, or a plain
    // arrive whose arrivals alone complete a phase (`arrive; arrive` by one thread on a
    // count-1 barrier completes two phases, one after the other).
    let full = |e: &Event| match (e.kind, e.slot) {
        (Kind::Arrive { m }, Slot::Const(j)) => counts.get(j as usize).is_some_and(|c| *c == m),
        _ => false,
    };
    let ends: Vec<(Slot, usize, (i64, i64))> = evs
        .iter()
        .filter(|w| w.trip.is_none() && (matches!(w.kind, Kind::Wait { .. }) || full(w)))
        .map(|w| (w.slot, w.order, w.threads))
        .collect();
    for e in evs.iter_mut() {
        if e.trip.is_some() || matches!(e.kind, Kind::Wait { .. }) {
            continue;
        }
        e.epoch = ends
            .iter()
            .filter(|&&(slot, order, wt)| {
                slot == e.slot && order < e.order && contains(wt, e.threads)
            })
            .count();
    }
}

/// Whether the threads `outer` (`[begin, begin + size)`) include all of `inner`.
fn contains((ob, on): (i64, i64), (ib, inn): (i64, i64)) -> bool {
    ob <= ib && ib.saturating_add(inn) <= ob.saturating_add(on)
}

/// For a straight-line wait: how many straight-line waits on the same slot its threads passed
/// before it (its round: `wait parity 0; ...; wait parity 1` are the first and second).
fn prior_waits(evs: &[Event], w: &Event) -> i64 {
    if w.trip.is_some() {
        return 0;
    }
    evs.iter()
        .filter(|o| {
            o.trip.is_none()
                && matches!(o.kind, Kind::Wait { .. })
                && o.slot == w.slot
                && o.order < w.order
                && contains(o.threads, w.threads)
        })
        .count() as i64
}

/// A wait for the read-before-wait check: barrier, program position, innermost loop and
/// threads.
type WaitSite = (Value, usize, Option<OpId>, (i64, i64));

/// The shared tensor a view (`slice_shared`, `permute_shared`) is taken of.
fn buffer_root(ctx: &Context, mut v: Value) -> Value {
    while let Some(d) = ctx.defining_op(v) {
        if let Some(s) = SliceSharedOp::cast(ctx, d) {
            v = s.src(ctx);
        } else if let Some(src) = same_start_view_source(ctx, d) {
            v = src;
        } else {
            break;
        }
    }
    v
}

/// A read of a buffer that a TMA copy fills must come after a wait on the barrier the copy
/// signals, in the reader's loop iteration and by threads that include the reader's.
fn check_unwaited_reads(ctx: &Context, an: &Analysis, all: &[OpId], errors: &mut Vec<Diagnostic>) {
    // Every copy and wait, modelled or not: a wait whose phase form is not modelled still
    // orders the read.
    let fills: Vec<(Value, Value, OpId)> = all
        .iter()
        .filter_map(|&o| {
            let t = GlobalToSharedOp::cast(ctx, o)?;
            Some((buffer_root(ctx, t.dst(ctx)), t.barriers(ctx), o))
        })
        .collect();
    let waits: Vec<WaitSite> = all
        .iter()
        .filter_map(|&o| {
            let w = WaitOp::cast(ctx, o)?;
            Some((
                w.barriers(ctx),
                an.order[&o],
                an.loops(o).first().copied(),
                an.threads(o),
            ))
        })
        .collect();
    if fills.is_empty() {
        return;
    }
    // Arrivals by threads (not by the copy engine): barrier, position, loop, threads.
    let arrives: Vec<WaitSite> = all
        .iter()
        .filter_map(|&o| {
            let bar = if let Some(a) = ArriveOp::cast(ctx, o) {
                a.barriers(ctx)
            } else {
                ArriveExpectTxOp::cast(ctx, o)?.barriers(ctx)
            };
            Some((
                bar,
                an.order[&o],
                an.loops(o).first().copied(),
                an.threads(o),
            ))
        })
        .collect();
    for &o in all {
        let reads: Vec<Value> = if let Some(l) = LoadSharedOp::cast(ctx, o) {
            vec![l.src(ctx)]
        } else if let Some(m) = WgmmaOp::cast(ctx, o) {
            vec![m.a(ctx), m.b(ctx)]
        } else if let Some(m) = TcMmaOp::cast(ctx, o) {
            vec![m.a(ctx), m.b(ctx)]
        } else {
            continue;
        };
        let lp = an.loops(o).first().copied();
        let threads = an.threads(o);
        for r in reads {
            let root = buffer_root(ctx, r);
            let Some(&(_, fill_bar, fill_op)) = fills.iter().find(|(b, _, _)| *b == root) else {
                continue;
            };
            let before_read = |&(_, order, wl, wt): &WaitSite| {
                order < an.order[&o] && wl == lp && overlap(wt, threads)
            };
            let waited = waits.iter().any(|w| w.0 == fill_bar && before_read(w));
            // Or ordered through a hand-off: the reader waited on another barrier every
            // arrival on which comes after a wait on the fill's barrier by the arriving threads
            // (wait(full); arrive(handoff) by a producer, wait(handoff) by the reader).
            let handed_off = || {
                waits
                    .iter()
                    .filter(|w| w.0 != fill_bar && before_read(w))
                    .any(|w| {
                        let arrivals: Vec<&WaitSite> =
                            arrives.iter().filter(|a| a.0 == w.0).collect();
                        !arrivals.is_empty()
                            && arrivals.iter().all(|&&(_, ao, al, at)| {
                                waits.iter().any(|&(fb, fo, fl, ft)| {
                                    fb == fill_bar && fo < ao && fl == al && contains(ft, at)
                                })
                            })
                    })
            };
            let waited = waited || handed_off();
            if !waited {
                errors.push(
                    Diagnostic::op(
                        o,
                        format!(
                            "this reads shared memory that a TMA copy fills without waiting on {} first: it races with the copy",
                            bar_name(ctx, fill_bar)
                        ),
                    )
                    .with_note(DiagLoc::Op(fill_op), "the copy is issued here")
                    .with_help("wait on the barrier the copy signals (mbarrier.wait) before reading its destination"),
                );
                break;
            }
        }
    }
}

/// How messages name a barrier array: by the position of its `mbarrier.alloc` in the kernel
/// (`barriers#1` is the second array), since SSA names are not kept; the note at the alloc
/// shows which one.
fn bar_name(ctx: &Context, v: Value) -> String {
    let Some(alloc) = ctx.defining_op(v) else {
        return "barriers".into();
    };
    let mut kernel = ctx.parent_op(alloc);
    while let Some(k) = kernel {
        if KernelOp::is(ctx, k) {
            break;
        }
        kernel = ctx.parent_op(k);
    }
    let mut i = 0;
    let mut found = None;
    if let Some(k) = kernel {
        ctx.walk(k, &mut |o| {
            if AllocOp::is(ctx, o) {
                if o == alloc {
                    found = Some(i);
                }
                i += 1;
            }
        });
    }
    format!("barriers#{}", found.unwrap_or(0))
}

fn group_words(ctx: &Context, op: OpId) -> String {
    group_of(ctx, op).map_or_else(|| "the group".into(), |g| g.describe())
}

fn check_barrier(
    ctx: &Context,
    an: &Analysis,
    v: Value,
    b: &Barrier,
    evs: &[Event],
    errors: &mut Vec<Diagnostic>,
) {
    let name = bar_name(ctx, v);
    let n = b.counts.len() as i64;
    let alloc_note = |d: Diagnostic| {
        d.with_note(
            DiagLoc::Op(b.alloc),
            format!("{name} is allocated here with counts {:?}", b.counts),
        )
    };
    let before = errors.len();

    // 4. Stages: ring period = array size, one offset, TMA slot = barrier slot.
    let mut first_ring: Option<&Event> = None;
    for e in evs {
        if let Slot::Const(c) = e.slot {
            if !(0..n).contains(&c) {
                errors.push(alloc_note(Diagnostic::op(
                    e.op,
                    format!("{name}[{c}] is outside the {n} barriers of the array"),
                )));
            }
        }
        if let Slot::Ring { s, add, .. } = e.slot {
            if s.saturating_add(add) > n || add < 0 {
                errors.push(alloc_note(Diagnostic::op(
                    e.op,
                    format!(
                        "stage {} of {name} reaches barrier {} of an array of {n}",
                        e.slot.describe(),
                        (s - 1).saturating_add(add)
                    ),
                )));
                continue;
            }
            match first_ring {
                None => first_ring = Some(e),
                Some(f) => {
                    if f.slot != e.slot {
                        errors.push(
                            Diagnostic::op(
                                e.op,
                                format!(
                                    "off-by-one stage: this op uses {name}[{}] in iteration k, but \
                                     the stage of the other side is {}",
                                    e.slot.describe(),
                                    f.slot.describe()
                                ),
                            )
                            .with_note(DiagLoc::Op(f.op), "the other side's stage is used here"),
                        );
                    }
                }
            }
        }
        if let Kind::Tx { dst: Some(d), .. } = e.kind {
            if d != e.slot {
                errors.push(Diagnostic::op(
                    e.op,
                    format!(
                        "off-by-one stage: the copy lands in buffer slot {} but signals {name}[{}]",
                        d.describe(),
                        e.slot.describe()
                    ),
                ).with_help("the consumer waiting on this barrier slot reads the buffer slot of the same index"));
            }
        }
        if let Kind::Wait { phase } = e.kind {
            if let Slot::Ring { s, .. } = e.slot {
                if phase.s != s {
                    errors.push(Diagnostic::op(
                        e.op,
                        format!(
                            "the phase of this wait on {name}[{}] flips {} but the stage wraps every {s} iterations: its parities stop matching the slot's phases (some waits return before the fill, others never)",
                            e.slot.describe(),
                            match phase.s { 0 => "never".to_string(), 1 => "every iteration".to_string(), p => format!("every {p} iterations") }
                        ),
                    ));
                }
            } else if e.trip.is_some() && phase.s == 0 && !matches!(e.slot, Slot::Iv) {
                errors.push(Diagnostic::op(
                    e.op,
                    format!(
                        "the phase of this wait on {name}[{}] never changes inside the loop: from the second iteration on it waits on parity {} again, a phase that is already past",
                        e.slot.describe(), phase.p0
                    ),
                ));
            } else if let (Slot::Const(_), Some(_)) = (e.slot, e.trip) {
                if phase.s > 1 {
                    errors.push(Diagnostic::op(
                        e.op,
                        format!("the phase of this wait on {name}[{}] flips every {} iterations but the barrier is the same in every iteration", e.slot.describe(), phase.s),
                    ));
                }
            }
        }
    }
    if errors.len() > before {
        return;
    }

    // 2./3. Clusters: arrivals per phase and transaction bytes.
    let mut clusters: Vec<(Option<Trip>, Slot, Guard, usize)> = Vec::new();
    for e in evs
        .iter()
        .filter(|e| e.is_arrival() || matches!(e.kind, Kind::Tx { .. }))
    {
        if !clusters.contains(&e.cluster()) {
            clusters.push(e.cluster());
        }
    }
    for key in &clusters {
        let members: Vec<&Event> = evs.iter().filter(|e| e.cluster() == *key).collect();
        let arrivals: i64 = members
            .iter()
            .map(|e| match e.kind {
                Kind::Arrive { m } | Kind::ExpectTx { m, .. } => m,
                _ => 0,
            })
            .sum();
        let slots: Vec<i64> = match key.1 {
            Slot::Const(c) => vec![c],
            _ => (0..n).collect(),
        };
        let first_arrival = members.iter().find(|e| e.is_arrival());
        let Some(first) = first_arrival else {
            let t = members[0];
            errors.push(alloc_note(Diagnostic::op(
                t.op,
                format!(
                    "this copy signals {name}[{}], but nothing arrives on that barrier slot in the same iteration: the transaction bytes complete a phase nobody announced",
                    t.slot.describe()
                ),
            ).with_help("announce the bytes with mbarrier.arrive_expect_tx on the same barrier slot before the copy")));
            continue;
        };
        let mut count_ok = true;
        for &j in &slots {
            let c = b.counts.get(j as usize).copied().unwrap_or(0);
            if arrivals > c {
                let culprit = members
                    .iter()
                    .filter(|e| e.is_arrival())
                    .max_by_key(|e| match e.kind {
                        Kind::Arrive { m } | Kind::ExpectTx { m, .. } => m,
                        _ => 0,
                    })
                    .unwrap();
                errors.push(alloc_note(
                    Diagnostic::op(
                        culprit.op,
                        format!(
                            "{name}[{j}] over-arrives: {arrivals} arrivals per phase on a barrier of count {c}: every thread of the group executing this arrive arrives, and that group is {}",
                            group_words(ctx, culprit.op)
                        ),
                    )
                    .with_help("wrap the arrive in threadgroup.single_thread for one arrival, or raise the barrier's count"),
                ));
                count_ok = false;
                break;
            } else if arrivals < c {
                errors.push(alloc_note(Diagnostic::op(
                    first.op,
                    format!(
                        "the phases of {name}[{j}] never complete: {arrivals} arrivals per phase of the {c} the barrier counts ({} missing)",
                        c - arrivals
                    ),
                )));
                count_ok = false;
                break;
            }
        }
        if !count_ok {
            continue;
        }
        let announced: Option<i64> = members
            .iter()
            .map(|e| match e.kind {
                Kind::ExpectTx { m, bytes } => bytes.map(|b| b * m),
                _ => Some(0),
            })
            .sum();
        let copied: i64 = members
            .iter()
            .map(|e| match e.kind {
                Kind::Tx { bytes, .. } => bytes,
                _ => 0,
            })
            .sum();
        let has_expect = members
            .iter()
            .any(|e| matches!(e.kind, Kind::ExpectTx { .. }));
        let tx_ops: Vec<&&Event> = members
            .iter()
            .filter(|e| matches!(e.kind, Kind::Tx { .. }))
            .collect();
        match announced {
            Some(a) if a != copied && (has_expect || copied > 0) => {
                let at = members
                    .iter()
                    .find(|e| matches!(e.kind, Kind::ExpectTx { .. }))
                    .unwrap_or(&members[0]);
                let how = if a < copied { "too few" } else { "too many" };
                let mut d = Diagnostic::op(
                    at.op,
                    format!(
                        "{how} transaction bytes: {a} announced per phase of {name}[{}], but the TMA copies signalling it bring {copied} ({} {})",
                        at.slot.describe(),
                        (a - copied).abs(),
                        if a < copied { "missing from the announcement: the tx-count goes negative and the phase never completes" } else { "never arrive: the phase never completes" }
                    ),
                );
                for t in tx_ops.iter().take(4) {
                    if let Kind::Tx { bytes, .. } = t.kind {
                        d = d.with_note(
                            DiagLoc::Op(t.op),
                            format!("this copy brings {bytes} bytes"),
                        );
                    }
                }
                errors.push(d);
            }
            _ => {}
        }
    }
    if errors.len() > before {
        return;
    }

    // 5. Phases for every trip count.
    check_phases(ctx, an, &name, v, b, evs, errors);
}

/// The most iterations the counting evaluates for one barrier: rings, caps or constant trip
/// counts beyond it make the barrier's phase check skipped rather than slow.
const BUDGET: i64 = 1 << 12;

/// The trip counts to evaluate: `[0, T0 + 2P]` (see the module docs), or the one constant trip
/// count when every loop's is constant; `None` beyond [`BUDGET`].
fn trip_samples(evs: &[Event], n: i64) -> Option<Vec<i64>> {
    let mut period = 1i64;
    let mut t0 = n;
    let mut symbolic = false;
    for e in evs {
        if let Slot::Ring { s, off, add } = e.slot {
            period = lcm(period, s);
            t0 = t0.max(off.saturating_add(add).saturating_add(s));
        }
        if let Kind::Wait { phase } = e.kind {
            if phase.s > 0 {
                period = lcm(period, 2 * phase.s);
            }
        }
        if let Guard::Lt(c) | Guard::Ge(c) = e.guard {
            t0 = t0.max(c.saturating_abs());
        }
        if let Some(tr) = e.trip {
            if let Some(c) = tr.cap {
                t0 = t0.max(c);
            }
            if tr.is_const() {
                if tr.count(0) > BUDGET {
                    return None;
                }
            } else {
                symbolic = true;
            }
        }
        if period > BUDGET || t0 > BUDGET {
            return None;
        }
    }
    if !symbolic {
        return Some(vec![0]);
    }
    let last = t0 + 2 * period + 1;
    (last <= BUDGET).then(|| (0..=last).collect())
}

fn lcm(a: i64, b: i64) -> i64 {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    (a / gcd(a, b)).saturating_mul(b)
}

/// The completions of each slot in order: `(cluster representative, iteration)`.
fn completions(evs: &[Event], t: i64, n: i64) -> Vec<Vec<(usize, i64)>> {
    let mut per_slot = vec![Vec::new(); n.max(0) as usize];
    // One representative per cluster, clusters in program order of their first arrival.
    let mut reps: Vec<usize> = Vec::new();
    for (i, e) in evs.iter().enumerate() {
        if e.is_arrival() && !reps.iter().any(|&r| evs[r].cluster() == e.cluster()) {
            reps.push(i);
        }
    }
    reps.sort_by_key(|&r| evs[r].order);
    for r in reps {
        let e = &evs[r];
        for k in 0..e.count(t) {
            if e.guard.holds(k, t) {
                let j = e.slot.at(k);
                if (0..n).contains(&j) {
                    per_slot[j as usize].push((r, k));
                }
            }
        }
    }
    per_slot
}

fn check_phases(
    ctx: &Context,
    an: &Analysis,
    name: &str,
    _v: Value,
    b: &Barrier,
    evs: &[Event],
    errors: &mut Vec<Diagnostic>,
) {
    let n = b.counts.len() as i64;
    for w in evs {
        let Kind::Wait { phase } = w.kind else {
            continue;
        };
        // Arrival clusters must run in lock step with the wait (same loop numbering) or once.
        let related = evs
            .iter()
            .filter(|e| e.is_arrival())
            .all(|e| match (e.trip, w.trip) {
                (None, _) => true,
                (Some(a), Some(b)) => a.same_base(&b),
                (Some(a), None) => a.is_const(),
            });
        if !related {
            continue;
        }
        let reads_after = reads_shared_after(ctx, an, w);
        let prior = prior_waits(evs, w);
        let Some(samples) = trip_samples(evs, n) else {
            continue;
        };
        for t in samples {
            let comp = completions(evs, t, n);
            let mut rounds = vec![0i64; n.max(0) as usize];
            let mut reported = false;
            for k in 0..w.count(t) {
                if !w.guard.holds(k, t) {
                    continue;
                }
                let j = w.slot.at(k);
                if !(0..n).contains(&j) {
                    continue;
                }
                let round = rounds[j as usize] + prior;
                rounds[j as usize] += 1;
                let parity = phase.at(k);
                // The phase this wait observes: its round, one behind when it starts at 1.
                if let (0, 1, Some(r)) = (round, parity, reads_after) {
                    errors.push(
                        Diagnostic::op(
                            w.op,
                            format!(
                                "wrong initial phase: this wait on {name}[{j}] is for parity 1, which a fresh barrier has already completed, so it returns at once and the read below sees {name}[{j}]'s stage before it was filled"
                            ),
                        )
                        .with_note(DiagLoc::Op(r), "this read of shared memory is not ordered after any fill")
                        .with_help("a consumer starts from mbarrier.consumer_initial_phase (0); only a producer waiting for free slots starts from producer_initial_phase (1)"),
                    );
                    reported = true;
                    break;
                }
                // Phase number awaited: parity tells which; consistent waiters alternate.
                let start = first_parity(w, j, t);
                let needed = round - start;
                if needed < 0 {
                    continue;
                }
                let have = comp[j as usize].len() as i64;
                if needed >= have {
                    let trip_words = if w.trip.is_some_and(|tr| !tr.is_const()) {
                        format!(
                            " when the loop runs {t} iteration{}",
                            if t == 1 { "" } else { "s" }
                        )
                    } else {
                        String::new()
                    };
                    errors.push(Diagnostic::op(
                        w.op,
                        format!(
                            "this wait never returns{trip_words}: iteration {k} waits for phase {needed} (parity {parity}) of {name}[{j}], but the arrivals complete only {have} phase{} of it",
                            if have == 1 { "" } else { "s" }
                        ),
                    ).with_note(DiagLoc::Op(b.alloc), format!("{name} is allocated here with counts {:?}; an arrive on it is missing from a round", b.counts)));
                    reported = true;
                    break;
                }
            }
            if reported {
                break;
            }
        }
    }
}

/// The parity of a wait's first execution on slot `j` (its phase number offset).
fn first_parity(w: &Event, j: i64, t: i64) -> i64 {
    let Kind::Wait { phase } = w.kind else {
        return 0;
    };
    for k in 0..w.count(t.max(64)).min(BUDGET) {
        if w.slot.at(k) == j {
            return phase.at(k);
        }
    }
    phase.p0
}

/// The first op after wait `w` in its loop body (same threads, same iteration) that reads
/// shared memory: a load or an MMA.
fn reads_shared_after(ctx: &Context, an: &Analysis, w: &Event) -> Option<OpId> {
    let scope = w.loop_op.or_else(|| ctx.parent_op(w.op))?;
    let mut found = None;
    ctx.walk(scope, &mut |o| {
        if found.is_none()
            && an.order[&o] > w.order
            && (LoadSharedOp::is(ctx, o) || WgmmaOp::is(ctx, o) || TcMmaOp::is(ctx, o))
        {
            found = Some(o);
        }
    });
    found
}

// ----- 6. ordering -------------------------------------------------------------------------

fn overlap(a: (i64, i64), b: (i64, i64)) -> bool {
    a.0 < b.0 + b.1 && b.0 < a.0 + a.1
}

fn check_cycles(
    ctx: &Context,
    barriers: &[(Value, Barrier)],
    evs: &[Event],
    errors: &mut Vec<Diagnostic>,
) {
    const NEG: i64 = i64::MIN / 4;
    let n = evs.len();
    if n == 0 || n > 256 {
        return;
    }
    let mut dist = vec![vec![NEG; n]; n];
    let mut why: Vec<Vec<String>> = vec![vec![String::new(); n]; n];
    // Wait -> arrivals completing its phase, at an iteration distance.
    for (wi, w) in evs.iter().enumerate() {
        let Kind::Wait { .. } = w.kind else { continue };
        let Some(wt) = w.trip else { continue };
        let Some((_, b)) = barriers.iter().find(|(v, _)| *v == w.bar) else {
            continue;
        };
        let nb = b.counts.len() as i64;
        let on_bar: Vec<Event> = evs.iter().filter(|e| e.bar == w.bar).copied().collect();
        let t = 4 * nb
            + 8
            + on_bar
                .iter()
                .filter_map(|e| e.trip.and_then(|t| t.cap))
                .max()
                .unwrap_or(0);
        let t = if wt.is_const() { wt.count(0) } else { t };
        if t > BUDGET || on_bar.iter().any(|e| e.count(t) > BUDGET) {
            continue;
        }
        let comp = completions(&on_bar, t, nb);
        let mut rounds = vec![0i64; nb.max(0) as usize];
        for k in 0..w.count(t) {
            if !w.guard.holds(k, t) {
                continue;
            }
            let j = w.slot.at(k);
            if !(0..nb).contains(&j) {
                continue;
            }
            let round = rounds[j as usize];
            rounds[j as usize] += 1;
            let needed = round - first_parity(w, j, t);
            let Some(&(rep, ka)) = (needed >= 0)
                .then(|| comp[j as usize].get(needed as usize))
                .flatten()
            else {
                continue;
            };
            let rep_e = on_bar[rep];
            let Some(rt) = rep_e.trip else { continue };
            if !rt.same_base(&wt)
                || rep_e.loop_op.is_some() && rt.cap.is_some() && rep_e.loop_op != w.loop_op
            {
                continue;
            }
            let d = ka - k;
            for (ai, a) in evs.iter().enumerate() {
                if a.bar == w.bar
                    && a.cluster() == rep_e.cluster()
                    && !matches!(a.kind, Kind::Wait { .. })
                    && d > dist[wi][ai]
                {
                    dist[wi][ai] = d;
                    why[wi][ai] = format!(
                        "iteration k waits for the arrival of iteration k{}",
                        if d == 0 {
                            String::new()
                        } else if d > 0 {
                            format!(" + {d}")
                        } else {
                            format!(" - {}", -d)
                        }
                    );
                }
            }
        }
    }
    // Arrival -> earlier waits of overlapping threads in the same loop.
    for (ai, a) in evs.iter().enumerate() {
        if matches!(a.kind, Kind::Wait { .. }) {
            continue;
        }
        for (wi, w) in evs.iter().enumerate() {
            let Kind::Wait { .. } = w.kind else { continue };
            if a.loop_op.is_none() || a.loop_op != w.loop_op || !overlap(a.threads, w.threads) {
                continue;
            }
            let d = if w.order < a.order { 0 } else { -1 } + a.delay;
            if d > dist[ai][wi] {
                dist[ai][wi] = d;
            }
        }
    }
    for m in 0..n {
        for i in 0..n {
            if dist[i][m] == NEG {
                continue;
            }
            for j in 0..n {
                if dist[m][j] == NEG {
                    continue;
                }
                let s = (dist[i][m] + dist[m][j]).clamp(NEG, 1 << 20);
                if s > dist[i][j] {
                    dist[i][j] = s;
                }
            }
        }
    }
    let mut reported: Vec<OpId> = Vec::new();
    // The earliest wait of a cycle in program order is the one reported.
    let mut by_order: Vec<usize> = (0..n).collect();
    by_order.sort_by_key(|&i| evs[i].order);
    for wi in by_order {
        let w = &evs[wi];
        if !matches!(w.kind, Kind::Wait { .. }) || dist[wi][wi] < 0 || reported.contains(&w.op) {
            continue;
        }
        // One report per cycle: the other waits on it are the same deadlock.
        for (oi, o) in evs.iter().enumerate() {
            if dist[wi][oi] != NEG && dist[oi][wi] != NEG {
                reported.push(o.op);
            }
        }
        let name = bar_name(ctx, w.bar);
        let mut d = Diagnostic::op(
            w.op,
            format!(
                "deadlock: this wait on {name}[{}] (parity {} in iteration 0) can only return after arrivals that depend on this very iteration having passed it (a wait/arrive cycle of iteration distance {})",
                w.slot.describe(),
                match w.kind { Kind::Wait { phase } => phase.p0, _ => 0 },
                dist[wi][wi]
            ),
        )
        .with_help("a producer waiting for free slots starts from mbarrier.producer_initial_phase (1), a consumer from consumer_initial_phase (0)");
        if let Some((ai, a)) = evs
            .iter()
            .enumerate()
            .find(|(ai, _)| dist[wi][*ai] != NEG && !why[wi][*ai].is_empty())
        {
            d = d.with_note(
                DiagLoc::Op(a.op),
                format!(
                    "{}; this arrival comes after a wait that needs this one",
                    why[wi][ai]
                ),
            );
        }
        errors.push(d);
    }
}

// ----- 7. async readers --------------------------------------------------------------------

fn check_async_readers(an: &Analysis, kernel: OpId, errors: &mut Vec<Diagnostic>) {
    /// A committed MMA group in flight: the MMA, and how many iterations of its loop ago it
    /// was issued (the loop body is walked twice; the second walk is the next iteration).
    #[derive(Clone, Copy)]
    struct InFlight {
        mma: OpId,
        lag: i64,
    }
    #[derive(Clone, Default)]
    struct State {
        uncommitted: Option<OpId>,
        groups: Vec<InFlight>,
    }
    fn walk_block(
        an: &Analysis,
        b: tilus_ir::BlockId,
        st: &mut State,
        errors: &mut Vec<Diagnostic>,
        top: bool,
    ) {
        let ctx = an.ctx;
        for o in ctx.block_ops(b) {
            if top && group_range(ctx, o).is_some() {
                // A new role: its own wgmma state.
                let mut inner = State::default();
                walk_regions(an, o, &mut inner, errors);
                continue;
            }
            if WgmmaOp::is(ctx, o) {
                st.uncommitted = Some(o);
            } else if CommitGroupOp::is(ctx, o) {
                if let Some(m) = st.uncommitted.take() {
                    st.groups.push(InFlight { mma: m, lag: 0 });
                }
            } else if let Some(wg) = WaitGroupOp::cast(ctx, o) {
                let keep = wg.pending(ctx).max(0) as usize;
                let len = st.groups.len();
                if len > keep {
                    st.groups.drain(..len - keep);
                }
            } else if ArriveOp::is(ctx, o)
                || ArriveExpectTxOp::is(ctx, o)
                || GlobalToSharedOp::is(ctx, o)
            {
                let mut pending: Vec<InFlight> = st.groups.clone();
                if let Some(m) = st.uncommitted {
                    pending.push(InFlight { mma: m, lag: 0 });
                }
                // Only an MMA that may read the stage this op releases or overwrites matters:
                // with `wgmma.wait_group 1` a consumer may release the previous stage while the
                // MMA of the current one is in flight.
                let conflict = pending
                    .iter()
                    .rev()
                    .find(|g| may_read_stage(an, g.mma, g.lag, o))
                    .map(|g| g.mma);
                if let Some(m) = conflict {
                    if !errors
                        .iter()
                        .any(|d| matches!(d.loc, DiagLoc::Op(x) if x == o))
                    {
                        let what = if GlobalToSharedOp::is(ctx, o) {
                            "overwrites a stage"
                        } else {
                            "releases a stage"
                        };
                        let n = pending.len();
                        errors.push(Diagnostic::op(
                            o,
                            format!("this {what} while a wgmma.mma may still be reading it: {n} MMA group{} not retired by wgmma.wait_group",
                                if n == 1 { " is" } else { "s are" }),
                        )
                        .with_note(DiagLoc::Op(m), "this MMA reads shared memory asynchronously, from the stage released here")
                        .with_help("retire the MMA that reads the stage (wgmma.wait_group 0, or wait_group 1 and release the previous stage) before releasing or refilling it"));
                    }
                }
            } else if let Some(f) = ForOp::cast(ctx, o) {
                // Twice: the second pass sees what the first left in flight at the back edge,
                // one iteration older.
                walk_regions(an, o, st, errors);
                for g in &mut st.groups {
                    if an.loops(g.mma).first() == Some(&f.op()) {
                        g.lag += 1;
                    }
                }
                walk_regions(an, o, st, errors);
                for g in &mut st.groups {
                    if an.loops(g.mma).first() == Some(&f.op()) {
                        g.lag = g.lag.max(1);
                    }
                }
            } else {
                walk_regions(an, o, st, errors);
            }
        }
    }
    fn walk_regions(an: &Analysis, o: OpId, st: &mut State, errors: &mut Vec<Diagnostic>) {
        for &r in an.ctx.regions(o) {
            for &b in an.ctx.region_blocks(r) {
                walk_block(an, b, st, errors, false);
            }
        }
    }
    for &r in an.ctx.regions(kernel) {
        for &b in an.ctx.region_blocks(r) {
            let mut st = State::default();
            walk_block(an, b, &mut st, errors, true);
        }
    }
}

/// The stage indices of the shared-memory operands of `m` (the first index of each operand's
/// `tilus.slice_shared`); `None` when a shared operand is not a slice of a staged buffer.
fn shared_stage_indices(ctx: &Context, m: WgmmaOp) -> Option<Vec<Value>> {
    let mut out = Vec::new();
    for operand in [m.a(ctx), m.b(ctx)] {
        if TensorType::of_ref(ctx, ctx.value_type(operand))
            .is_some_and(|t| t.space != tilus_dialects::tilus_types::Space::Shared)
        {
            continue;
        }
        out.push(stage_index(ctx, operand)?);
    }
    Some(out)
}

/// The stage index a shared operand reads: the first index of the `tilus.slice_shared` it is a
/// view of (through permutations and reshapes); `None` for a whole buffer.
fn stage_index(ctx: &Context, mut v: Value) -> Option<Value> {
    for _ in 0..8 {
        let d = ctx.defining_op(v)?;
        if let Some(s) = SliceSharedOp::cast(ctx, d) {
            return s.indices(ctx).first().copied();
        }
        v = same_start_view_source(ctx, d)?;
    }
    None
}

/// [`may_read_stage`] for stages whose ring starts where an enclosing loop left it (a
/// persistent kernel's tile loop carries (stage, phase) from one tile's k-loop to the next):
/// the released stage and the MMA's both as `(B + c) mod S` of the same ring iter_arg `B` of
/// the k-loop, whose start is unknown but inside `[0, S)`. The MMA issued `lag` iterations
/// before read `(B_k - lag) mod S`, so they differ when `c + lag` is not a multiple of `S`.
fn may_read_relative(
    an: &Analysis,
    m: WgmmaOp,
    lag: i64,
    released: Value,
    lp: Option<ForOp>,
) -> bool {
    let ctx = an.ctx;
    let Some(f) = lp else { return true };
    let Some((base, s, c)) = relative_ring(an, f, released) else {
        return true;
    };
    let Some(indices) = shared_stage_indices(ctx, m) else {
        return true;
    };
    for idx in indices {
        match relative_ring(an, f, idx) {
            Some((b, s2, c2)) if b == base && s2 == s => {
                if (c - c2 + lag).rem_euclid(s) == 0 {
                    return true;
                }
            }
            _ => return true,
        }
    }
    false
}

/// `v` as `(B + c) mod S` (or `B` itself, `c = 0`) of an iter_arg `B` of `f` that advances as a
/// ring of period `S` and starts inside `[0, S)`: `(B, S, c mod S)`.
fn relative_ring(an: &Analysis, f: ForOp, v: Value) -> Option<(Value, i64, i64)> {
    let ctx = an.ctx;
    let ring = |b: Value| -> Option<i64> {
        let (_, init, next) = an.iter_arg(f, b)?;
        let s = an.ring_advance(b, next)?;
        in_ring(an, init, s, &mut vec![b]).then_some(s)
    };
    if let Some(s) = ring(v) {
        return Some((v, s, 0));
    }
    let d = ctx.defining_op(v)?;
    let (x, m) = RemUIOp::cast(ctx, d)
        .map(|r| (r.lhs(ctx), r.rhs(ctx)))
        .or_else(|| RemSIOp::cast(ctx, d).map(|r| (r.lhs(ctx), r.rhs(ctx))))?;
    let (b, c) = an.plus_const(x)?;
    let s = ring(b)?;
    (const_int(ctx, m) == Some(s) && c >= 0).then_some((b, s, c % s))
}

/// Whether `v` is known to lie in `[0, s)`: a constant, or a ring value of period `s` (an
/// iter_arg advancing as one, or a loop result whose iter_arg does) starting in range. Loop-
/// carried values are proved by induction: a value met again while its own proof is under way
/// is assumed in range (its start is checked, and each step keeps it in range).
fn in_ring(an: &Analysis, v: Value, s: i64, visiting: &mut Vec<Value>) -> bool {
    let ctx = an.ctx;
    if let Some(c) = const_int(ctx, v) {
        return (0..s).contains(&c);
    }
    if visiting.contains(&v) {
        return true;
    }
    if visiting.len() >= 8 {
        return false;
    }
    // An iter_arg of an enclosing loop, or the result of a loop.
    let owner = match ctx.defining_op(v) {
        Some(d) => ForOp::cast(ctx, d).and_then(|f| {
            let i = ctx.results(d).iter().position(|&r| r == v)?;
            Some((f, an.body_args(f).get(i + 1).copied()?))
        }),
        None => ctx
            .value_block(v)
            .and_then(|b| ctx.block_parent(b))
            .and_then(|r| ctx.region_parent(r))
            .and_then(|p| ForOp::cast(ctx, p))
            .map(|f| (f, v)),
    };
    let Some((f, arg)) = owner else { return false };
    let Some((_, init, next)) = an.iter_arg(f, arg) else {
        return false;
    };
    visiting.push(v);
    let ok = in_ring(an, init, s, visiting)
        && (an.ring_advance(arg, next) == Some(s)
            // The outer loop passes the value through an inner loop's ring result.
            || (next != arg && in_ring(an, next, s, visiting)));
    visiting.pop();
    ok
}

/// Whether `mma`, issued `lag` iterations of its loop before, may read the stage that `op` (an
/// arrive releasing a barrier slot, or a copy refilling one) frees. Both stages are read as
/// forms of the same loop's iteration `k`; the MMA's is shifted by `lag`. Anything the forms do
/// not model may conflict.
fn may_read_stage(an: &Analysis, mma: OpId, lag: i64, op: OpId) -> bool {
    let ctx = an.ctx;
    let released = if let Some(a) = ArriveOp::cast(ctx, op) {
        a.index(ctx)
    } else if let Some(a) = ArriveExpectTxOp::cast(ctx, op) {
        a.index(ctx)
    } else if let Some(c) = GlobalToSharedOp::cast(ctx, op) {
        c.barrier_index(ctx)
    } else {
        return true;
    };
    let lp = an.loops(op).first().copied();
    if an.loops(mma).first().copied() != lp {
        return true;
    }
    let lp = lp.and_then(|l| ForOp::cast(ctx, l));
    let Some(m) = WgmmaOp::cast(ctx, mma) else {
        return true;
    };
    let Ok(rel) = an.slot(released, lp) else {
        return may_read_relative(an, m, lag, released, lp);
    };
    let Some(indices) = shared_stage_indices(ctx, m) else {
        return true;
    };
    for idx in indices {
        let Ok(read) = an.slot(idx, lp) else {
            return true;
        };
        // Equal for some iteration k >= lag: over one common period of both forms.
        let period = match (read, rel) {
            (Slot::Ring { s: a, .. }, Slot::Ring { s: b, .. }) => lcm(a, b),
            (Slot::Ring { s, .. }, _) | (_, Slot::Ring { s, .. }) => s,
            (Slot::Iv, _) | (_, Slot::Iv) => return true,
            _ => 1,
        };
        if (lag..lag + period.min(BUDGET)).any(|k| read.at(k - lag) == rel.at(k)) {
            return true;
        }
    }
    false
}
