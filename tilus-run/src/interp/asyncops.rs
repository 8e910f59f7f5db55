//! Asynchronous engines: TMA copies, WGMMA and tcgen05 work complete at a later scheduler
//! step, apply their effects then, and signal barriers or retire result tokens.

use super::machine::Machine;
use super::value::TmemVal;
use crate::memory::{GlobalView, SharedView};
use crate::tensor::{cast, matmul_acc, Tensor};
use std::collections::VecDeque;
use std::ops::Range;
use std::rc::Rc;
use tilus_ir::{DiagLoc, Diagnostic, OpId};

/// Async work that must complete in issue order shares a queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum QueueKey {
    /// One warpgroup's wgmma ops (by CTA and first thread).
    Wgmma(usize, i64),
    /// One thread's tcgen05 mma/cp/commit.
    Tc05(usize, u32),
    /// One thread's bulk stores.
    Bulk(usize, u32),
}

/// A shared operand of an MMA: shared memory or registers / tensor memory.
#[derive(Clone, Debug)]
pub(crate) enum MmaOperand {
    Shared(SharedView),
    Reg(Rc<Tensor>),
    Tmem(TmemVal),
}

/// The accumulator input of a wgmma: a tile or the token of an earlier wgmma.
#[derive(Clone, Debug)]
pub(crate) enum AccIn {
    Tile(Rc<Tensor>),
    Token(usize),
}

/// What the async op does when it completes.
#[derive(Clone, Debug)]
pub(crate) enum AsyncKind {
    /// TMA load: write `data` at `dst` in each destination CTA, then `complete_tx(bytes)` on
    /// each `(cta, barrier)`.
    TmaLoad {
        data: Rc<Tensor>,
        dst: SharedView,
        ctas: Vec<usize>,
        bars: Vec<(usize, usize)>,
        bytes: i64,
    },
    /// TMA store: read `src` from the issuing CTA and store the box.
    TmaStore {
        src: SharedView,
        dst: GlobalView,
        offsets: Vec<i64>,
        shape: Vec<i64>,
    },
    /// wgmma: `token = acc + a·b`.
    Wgmma {
        a: MmaOperand,
        b: SharedView,
        acc: AccIn,
        token: usize,
        out: crate::tensor::DType,
    },
    /// tcgen05.mma: `d = a·b + (enable ? d : 0)`.
    TcMma {
        a: MmaOperand,
        b: SharedView,
        d: TmemVal,
        enable: bool,
    },
    /// tcgen05.cp: shared → tensor memory.
    TcCp { src: SharedView, dst: TmemVal },
    /// tcgen05.commit: one arrival on each `(cta, barrier)`, carrying what the issuing thread
    /// knew when it committed (tracked op ids) on top of the ops it waits for.
    TcCommit {
        bars: Vec<(usize, usize)>,
        carries: Vec<u64>,
    },
}

/// One in-flight async op.
#[derive(Clone, Debug)]
pub(crate) struct AsyncOp {
    pub id: u64,
    /// The op that issued it.
    pub op: OpId,
    /// The issuing CTA (cluster-local index).
    pub cta: usize,
    /// The scheduler step at which it completes.
    pub due: u64,
    pub queue: Option<QueueKey>,
    pub kind: AsyncKind,
    /// Shared bytes it reads / writes, per CTA.
    pub smem_reads: Vec<(usize, Range<i64>)>,
    pub smem_writes: Vec<(usize, Range<i64>)>,
    /// Tensor memory it writes: (cta, lanes, columns).
    pub tmem_writes: Vec<(usize, Range<i64>, Range<i64>)>,
}

impl AsyncOp {
    /// A short description for messages.
    pub(crate) fn what(&self) -> &'static str {
        match self.kind {
            AsyncKind::TmaLoad { .. } => "TMA copy (tma.global_to_shared)",
            AsyncKind::TmaStore { .. } => "TMA store (tma.shared_to_global)",
            // The op's own declared name.
            AsyncKind::Wgmma { .. } => tilus_dialects::wgmma::MMA.name,
            AsyncKind::TcMma { .. } => tilus_dialects::tcgen05::MMA.name,
            AsyncKind::TcCp { .. } => tilus_dialects::tcgen05::CP.name,
            AsyncKind::TcCommit { .. } => tilus_dialects::tcgen05::COMMIT.name,
        }
    }
}

/// The memory footprint of an async op, kept after it completes until every thread that could
/// touch that memory is ordered after its completion. Races are judged against these from the
/// happens-before order, not from whether the op is still running on this schedule: an access
/// races with the op unless the accessing threads are in `known`.
#[derive(Clone, Debug)]
pub(crate) struct Tracked {
    pub id: u64,
    pub op: OpId,
    pub what: &'static str,
    pub queue: Option<QueueKey>,
    pub done: bool,
    pub smem_reads: Vec<(usize, Range<i64>)>,
    pub smem_writes: Vec<(usize, Range<i64>)>,
    pub tmem_writes: Vec<(usize, Range<i64>, Range<i64>)>,
    /// Threads (cluster-wide index `cta * block_threads + thread`) ordered after the op's
    /// completion: by a wait on a barrier phase it (or a thread that knew it) signalled, by the
    /// `wait_group` that retired it, or by a `threadgroup.sync` with such a thread.
    pub known: ThreadSet,
}

/// A set of threads of the cluster as a bitset.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ThreadSet(Vec<u64>);

impl ThreadSet {
    pub(crate) fn contains(&self, t: usize) -> bool {
        self.0.get(t / 64).is_some_and(|w| w >> (t % 64) & 1 == 1)
    }
    pub(crate) fn insert(&mut self, t: usize) {
        if self.0.len() <= t / 64 {
            self.0.resize(t / 64 + 1, 0);
        }
        self.0[t / 64] |= 1 << (t % 64);
    }
    /// Whether every thread in `[0, n)` is in the set.
    pub(crate) fn covers(&self, n: usize) -> bool {
        (0..n).all(|t| self.contains(t))
    }
}

/// Who owns a queue of commit groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum GroupOwner {
    /// The WGMMAs of the warpgroup whose first thread is this.
    Warpgroup(i64),
    /// The bulk (TMA) stores issued by this thread.
    Thread(u32),
}

/// Committed groups of one warpgroup (wgmma) or one thread (bulk stores).
#[derive(Clone, Debug, Default)]
pub(crate) struct Groups {
    /// Ops issued since the last commit (async id, token).
    pub open: Vec<(u64, Option<usize>)>,
    /// Committed groups, oldest first.
    pub groups: VecDeque<Vec<(u64, Option<usize>)>>,
}

pub(crate) fn overlaps(a: &Range<i64>, b: &Range<i64>) -> bool {
    a.start < b.end && b.start < a.end
}

impl Machine<'_> {
    /// Whether async op `id` is still in flight.
    pub(crate) fn in_flight(&self, id: u64) -> bool {
        self.asyncs.iter().any(|a| a.id == id)
    }

    /// Queues an async op; returns its id.
    pub(crate) fn issue(&mut self, mut a: AsyncOp) -> u64 {
        self.next_async += 1;
        a.id = self.next_async;
        let lat = match self.opts.schedule {
            super::Schedule::Deterministic => self.latency,
            super::Schedule::Random { .. } => 1 + self.rng.below(4 * self.latency),
        };
        let mut due = self.now + lat;
        if let Some(q) = a.queue {
            if let Some(last) = self
                .asyncs
                .iter()
                .filter(|x| x.queue == Some(q))
                .map(|x| x.due)
                .max()
            {
                due = due.max(last);
            }
        }
        a.due = due;
        let id = a.id;
        if let Some(r) = &mut self.rec {
            r.issue(id, a.cta, self.now, a.op, a.what());
        }
        if !(a.smem_reads.is_empty() && a.smem_writes.is_empty() && a.tmem_writes.is_empty()) {
            self.prune_tracked();
            self.tracked.push(Tracked {
                id,
                op: a.op,
                what: a.what(),
                queue: a.queue,
                done: false,
                smem_reads: a.smem_reads.clone(),
                smem_writes: a.smem_writes.clone(),
                tmem_writes: a.tmem_writes.clone(),
                known: ThreadSet::default(),
            });
        }
        self.asyncs.push(a);
        id
    }

    /// The cluster-wide index of thread `t` of CTA `cta` (for [`ThreadSet`]s).
    pub(crate) fn gthread(&self, cta: usize, t: u32) -> usize {
        cta * self.block_threads as usize + t as usize
    }

    /// Threads `who` of CTA `cta` are now ordered after the completion of every tracked op in
    /// `ids` (a barrier phase's knowledge, the groups a wait_group retired).
    pub(crate) fn learn(&mut self, ids: &[u64], cta: usize, who: &[u32]) {
        let g: Vec<usize> = who.iter().map(|&t| self.gthread(cta, t)).collect();
        for tr in self.tracked.iter_mut().filter(|tr| ids.contains(&tr.id)) {
            for &x in &g {
                tr.known.insert(x);
            }
        }
    }

    /// The tracked ops some thread of `who` (in CTA `cta`) is ordered after: what an arrival
    /// by them passes on to the barrier's waiters.
    pub(crate) fn known_by(&self, cta: usize, who: &[u32]) -> Vec<u64> {
        let g: Vec<usize> = who.iter().map(|&t| self.gthread(cta, t)).collect();
        self.tracked
            .iter()
            .filter(|tr| g.iter().any(|&x| tr.known.contains(x)))
            .map(|tr| tr.id)
            .collect()
    }

    /// A `threadgroup.sync` of `[begin, begin + size)` in CTA `cta`: what one member knows,
    /// all know afterwards.
    pub(crate) fn sync_knowledge(&mut self, cta: usize, begin: i64, size: i64) {
        let lo = self.gthread(cta, begin as u32);
        let hi = lo + size as usize;
        for tr in self.tracked.iter_mut() {
            if (lo..hi).any(|x| tr.known.contains(x)) {
                for x in lo..hi {
                    tr.known.insert(x);
                }
            }
        }
    }

    /// Drops tracked ops no access can race with any more: finished ops every thread of the
    /// cluster is ordered after, and finished ops a newer finished op with the same footprint
    /// shadows (a stage refilled: accesses are judged against the newest fill). Keeps the
    /// list short in long pipelines.
    fn prune_tracked(&mut self) {
        if self.tracked.len() < 32 {
            return;
        }
        let n = self.ctas.len() * self.block_threads as usize;
        let keep: Vec<bool> = self
            .tracked
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let shadowed = || {
                    self.tracked[i + 1..].iter().any(|b| {
                        b.done
                            && b.smem_reads == a.smem_reads
                            && b.smem_writes == a.smem_writes
                            && b.tmem_writes == a.tmem_writes
                            && b.queue == a.queue
                    })
                };
                !a.done || !(a.known.covers(n) || shadowed())
            })
            .collect();
        let mut i = 0;
        self.tracked.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        let live: Vec<u64> = self.tracked.iter().map(|t| t.id).collect();
        for c in &mut self.ctas {
            for b in &mut c.bars {
                b.know.retain(|x| live.contains(x));
                b.known_at_completion.retain(|x| live.contains(x));
            }
        }
    }

    /// The in-flight op that completes first (by due step, then issue order).
    fn earliest(&self) -> Option<usize> {
        (0..self.asyncs.len()).min_by_key(|&i| (self.asyncs[i].due, self.asyncs[i].id))
    }

    /// Completes every op that is due.
    pub(crate) fn complete_due(&mut self) -> Result<(), Diagnostic> {
        while let Some(i) = self.earliest() {
            if self.asyncs[i].due > self.now {
                break;
            }
            let a = self.asyncs.remove(i);
            self.complete(a)?;
        }
        Ok(())
    }

    /// Completes the earliest op at once (no unit can run); false when none is in flight.
    pub(crate) fn complete_next(&mut self) -> Result<bool, Diagnostic> {
        let Some(i) = self.earliest() else {
            return Ok(false);
        };
        let a = self.asyncs.remove(i);
        self.now = self.now.max(a.due);
        self.complete(a)?;
        Ok(true)
    }

    fn read_operand(&self, cta: usize, x: &MmaOperand, op: OpId) -> Result<Rc<Tensor>, Diagnostic> {
        match x {
            MmaOperand::Reg(t) => Ok(t.clone()),
            MmaOperand::Shared(v) => self.ctas[cta]
                .smem
                .read(v)
                .map(Rc::new)
                .map_err(|e| Diagnostic::op(op, format!("shared-memory operand: {e}"))),
            MmaOperand::Tmem(t) => self.ctas[cta]
                .tmem
                .read(t)
                .map(Rc::new)
                .map_err(|e| Diagnostic::op(op, format!("tensor-memory operand: {e}"))),
        }
    }

    /// Applies the effects of a completed async op.
    pub(crate) fn complete(&mut self, a: AsyncOp) -> Result<(), Diagnostic> {
        let op = a.op;
        if let Some(r) = &mut self.rec {
            r.complete(a.id, self.now);
        }
        if let Some(t) = self.tracked.iter_mut().find(|t| t.id == a.id) {
            t.done = true;
        }
        match a.kind {
            AsyncKind::TmaLoad {
                data,
                dst,
                ctas,
                bars,
                bytes,
            } => {
                for c in ctas {
                    self.ctas[c].smem.write(&dst, &data).map_err(|e| {
                        Diagnostic::op(op, format!("TMA copy into shared memory: {e}"))
                    })?;
                }
                for (c, b) in bars {
                    let bar = &mut self.ctas[c].bars[b];
                    // The copy's completion is part of the phase it completes in.
                    bar.learn(&[a.id]);
                    let c0 = bar.completed;
                    bar.complete_tx(bytes);
                    if bar.completed != c0 {
                        self.flips += 1;
                    }
                }
            }
            AsyncKind::TmaStore {
                src,
                dst,
                offsets,
                shape,
            } => {
                let t = self.ctas[a.cta]
                    .smem
                    .read(&src)
                    .map_err(|e| Diagnostic::op(op, format!("TMA store source: {e}")))?;
                let t = Tensor {
                    dtype: t.dtype,
                    shape,
                    data: t.data,
                };
                self.mem
                    .store_box(&dst, &offsets, &t)
                    .map_err(|e| Diagnostic::op(op, format!("TMA store: {e}")))?;
            }
            AsyncKind::Wgmma {
                a: x,
                b,
                acc,
                token,
                out,
            } => {
                let at = self.read_operand(a.cta, &x, op)?;
                let bt = self.read_operand(a.cta, &MmaOperand::Shared(b), op)?;
                let c = match acc {
                    AccIn::Tile(t) => t,
                    AccIn::Token(k) => {
                        self.ctas[a.cta].tokens[k].value.clone().ok_or_else(|| {
                            Diagnostic::op(
                                op,
                                "wgmma.mma accumulates into a result that was never computed",
                            )
                        })?
                    }
                };
                let d = matmul_acc(&at, &bt, &c).map_err(|e| Diagnostic::op(op, e))?;
                let d = if d.dtype == out { d } else { cast(&d, out) };
                self.ctas[a.cta].tokens[token].value = Some(Rc::new(d));
            }
            AsyncKind::TcMma { a: x, b, d, enable } => {
                let at = self.read_operand(a.cta, &x, op)?;
                let bt = self.read_operand(a.cta, &MmaOperand::Shared(b), op)?;
                let c = if enable {
                    self.ctas[a.cta]
                        .tmem
                        .read(&d)
                        .map_err(|e| Diagnostic::op(op, format!("accumulator: {e}")))?
                } else {
                    Tensor::zeros(d.dtype, &d.layout.shape)
                };
                let r = matmul_acc(&at, &bt, &c).map_err(|e| Diagnostic::op(op, e))?;
                let r = if r.dtype == d.dtype {
                    r
                } else {
                    cast(&r, d.dtype)
                };
                self.ctas[a.cta]
                    .tmem
                    .write(&d, &r)
                    .map_err(|e| Diagnostic::op(op, format!("accumulator: {e}")))?;
            }
            AsyncKind::TcCp { src, dst } => {
                let t = self.ctas[a.cta]
                    .smem
                    .read(&src)
                    .map_err(|e| Diagnostic::op(op, format!("tcgen05.cp source: {e}")))?;
                self.ctas[a.cta]
                    .tmem
                    .write(&dst, &t)
                    .map_err(|e| Diagnostic::op(op, format!("tcgen05.cp destination: {e}")))?;
            }
            AsyncKind::TcCommit { bars, carries } => {
                // The commit arrives once every earlier tcgen05 op of its thread has
                // completed: their completions travel with the arrival.
                let mut before: Vec<u64> = self
                    .tracked
                    .iter()
                    .filter(|t| t.queue == a.queue && t.id < a.id)
                    .map(|t| t.id)
                    .collect();
                before.extend(carries);
                for (c, b) in bars {
                    self.ctas[c].bars[b].learn(&before);
                    let c0 = self.ctas[c].bars[b].completed;
                    let r = self.ctas[c].bars[b].arrive(1);
                    if self.ctas[c].bars[b].completed != c0 {
                        self.flips += 1;
                    }
                    if let Err(m) = r {
                        let bar = &self.ctas[c].bars[b];
                        return Err(Diagnostic::op(
                            op,
                            format!("arrivals beyond the expected count: the tcgen05.commit arrival is {m}"),
                        )
                        .with_note(
                            DiagLoc::Op(bar.alloc),
                            format!("barrier {} allocated here ({})", bar.index, bar.describe()),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The first tracked op `hit` selects that some thread of `by` (threads of CTA `by.0`) is
    /// not ordered after: the async access an access by `by` races with.
    fn racing(&self, by: (usize, &[u32]), hit: impl Fn(&Tracked) -> bool) -> Option<&Tracked> {
        let who: Vec<usize> = by.1.iter().map(|&t| self.gthread(by.0, t)).collect();
        self.tracked
            .iter()
            .find(|a| hit(a) && who.iter().any(|&x| !a.known.contains(x)))
    }

    /// The note that says why a finished op still races: nothing orders the access after it.
    fn race_note(a: &Tracked, d: Diagnostic, issued: &str) -> Diagnostic {
        if a.done {
            d.with_note(
                DiagLoc::Op(a.op),
                "issued here; on this schedule it had already finished, but nothing orders the access after its completion (no wait on the barrier phase it signals, no wait_group that retires it), so on another schedule it would not have",
            )
        } else {
            d.with_note(DiagLoc::Op(a.op), issued)
        }
    }

    /// Reports a generic shared-memory read, by threads `by`, of bytes an async op writes that
    /// the threads are not ordered after.
    pub(crate) fn check_smem_read(
        &self,
        cta: usize,
        r: &Range<i64>,
        op: OpId,
        by: (usize, &[u32]),
    ) -> Result<(), Diagnostic> {
        // The message names the op that makes the access.
        let what = self.ctx.op_name_str(op);
        if let Some(a) = self.racing(by, |a| {
            a.smem_writes
                .iter()
                .any(|(c, w)| *c == cta && overlaps(w, r))
        }) {
            let d = Diagnostic::op(
                op,
                format!(
                    "{what} reads shared memory [{}, {}) that an unfinished {} writes",
                    r.start, r.end, a.what
                ),
            );
            return Err(Self::race_note(a, d, "the asynchronous write was issued here").with_help(
                "wait on the barrier that the copy signals (mbarrier.wait) before reading its destination",
            ));
        }
        Ok(())
    }

    /// Reports a write, by threads `by`, of shared bytes that an async op reads or writes and
    /// the threads are not ordered after.
    pub(crate) fn check_smem_write(
        &self,
        cta: usize,
        r: &Range<i64>,
        op: OpId,
        by: (usize, &[u32]),
    ) -> Result<(), Diagnostic> {
        // The message names the op that makes the access.
        let what = self.ctx.op_name_str(op);
        let hit = |v: &Vec<(usize, Range<i64>)>| v.iter().any(|(c, w)| *c == cta && overlaps(w, r));
        if let Some(a) = self.racing(by, |a| hit(&a.smem_reads) || hit(&a.smem_writes)) {
            let reads = hit(&a.smem_reads);
            let d = Diagnostic::op(
                op,
                format!(
                    "{what} writes shared memory [{}, {}) that an unfinished {} still {}",
                    r.start,
                    r.end,
                    a.what,
                    if reads { "reads" } else { "writes" }
                ),
            );
            return Err(Self::race_note(a, d, "the asynchronous access was issued here").with_help("the buffer was not released: wait until the async op has finished with it (its empty barrier, wgmma.wait_group / tcgen05.commit, or `tma.wait_group N read` after a bulk store from it) before writing it"));
        }
        Ok(())
    }

    /// Reports a read of tensor memory, by threads `by`, that a tcgen05 op writes and the
    /// threads are not ordered after.
    pub(crate) fn check_tmem_read(
        &self,
        cta: usize,
        t: &TmemVal,
        op: OpId,
        by: (usize, &[u32]),
    ) -> Result<(), Diagnostic> {
        // The message names the op that makes the access.
        let what = self.ctx.op_name_str(op);
        let (lanes, cols) = super::tmem::Tmem::footprint(t);
        if let Some(a) = self.racing(by, |a| {
            a.tmem_writes
                .iter()
                .any(|(c, l, k)| *c == cta && overlaps(l, &lanes) && overlaps(k, &cols))
        }) {
            let d = Diagnostic::op(
                op,
                format!(
                    "{what} reads tensor memory that an unfinished {} writes",
                    a.what
                ),
            );
            return Err(Self::race_note(a, d, "the asynchronous write was issued here").with_help(
                "wait on the barrier that tcgen05.commit signals before reading the accumulator",
            ));
        }
        Ok(())
    }

    /// Whether `wait_group n` must still block: some committed group older than the newest
    /// `n` has work in flight.
    pub(crate) fn older_groups_in_flight(&self, g: &Groups, n: usize) -> bool {
        let older = g.groups.len().saturating_sub(n);
        g.groups
            .iter()
            .take(older)
            .any(|grp| grp.iter().any(|(id, _)| self.in_flight(*id)))
    }
}
