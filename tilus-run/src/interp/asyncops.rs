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
    /// tcgen05.commit: one arrival on each `(cta, barrier)`.
    TcCommit { bars: Vec<(usize, usize)> },
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
        self.asyncs.push(a);
        id
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
            AsyncKind::TcCommit { bars } => {
                for (c, b) in bars {
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

    /// Reports a generic shared-memory read of bytes an in-flight op writes.
    pub(crate) fn check_smem_read(
        &self,
        cta: usize,
        r: &Range<i64>,
        op: OpId,
    ) -> Result<(), Diagnostic> {
        // The message names the op that makes the access.
        let what = self.ctx.op_name_str(op);
        for a in &self.asyncs {
            if a.smem_writes
                .iter()
                .any(|(c, w)| *c == cta && overlaps(w, r))
            {
                return Err(Diagnostic::op(
                    op,
                    format!(
                        "{what} reads shared memory [{}, {}) that an unfinished {} writes",
                        r.start,
                        r.end,
                        a.what()
                    ),
                )
                .with_note(DiagLoc::Op(a.op), "the asynchronous write was issued here")
                .with_help("wait on the barrier that the copy signals (mbarrier.wait) before reading its destination"));
            }
        }
        Ok(())
    }

    /// Reports a write of shared bytes that an in-flight op reads or writes.
    pub(crate) fn check_smem_write(
        &self,
        cta: usize,
        r: &Range<i64>,
        op: OpId,
    ) -> Result<(), Diagnostic> {
        // The message names the op that makes the access.
        let what = self.ctx.op_name_str(op);
        for a in &self.asyncs {
            let reads = a
                .smem_reads
                .iter()
                .any(|(c, w)| *c == cta && overlaps(w, r));
            let writes = a
                .smem_writes
                .iter()
                .any(|(c, w)| *c == cta && overlaps(w, r));
            if reads || writes {
                return Err(Diagnostic::op(
                    op,
                    format!(
                        "{what} writes shared memory [{}, {}) that an unfinished {} still {}",
                        r.start,
                        r.end,
                        a.what(),
                        if reads { "reads" } else { "writes" }
                    ),
                )
                .with_note(DiagLoc::Op(a.op), "the asynchronous access was issued here")
                .with_help("the buffer was not released: wait until the async op has finished with it (its empty barrier, wgmma.wait_group / tcgen05.commit, or `tma.wait_group N read` after a bulk store from it) before writing it"));
            }
        }
        Ok(())
    }

    /// Reports a read of tensor memory that an in-flight tcgen05 op writes.
    pub(crate) fn check_tmem_read(
        &self,
        cta: usize,
        t: &TmemVal,
        op: OpId,
    ) -> Result<(), Diagnostic> {
        // The message names the op that makes the access.
        let what = self.ctx.op_name_str(op);
        let (lanes, cols) = super::tmem::Tmem::footprint(t);
        for a in &self.asyncs {
            if a.tmem_writes
                .iter()
                .any(|(c, l, k)| *c == cta && overlaps(l, &lanes) && overlaps(k, &cols))
            {
                return Err(Diagnostic::op(
                    op,
                    format!("{what} reads tensor memory that an unfinished {} writes", a.what()),
                )
                .with_note(DiagLoc::Op(a.op), "the asynchronous write was issued here")
                .with_help("wait on the barrier that tcgen05.commit signals before reading the accumulator"));
            }
        }
        Ok(())
    }

    /// Number of committed groups of `g` that still have work in flight.
    pub(crate) fn pending_groups(&self, g: &Groups) -> usize {
        g.groups
            .iter()
            .filter(|grp| grp.iter().any(|(id, _)| self.in_flight(*id)))
            .count()
    }
}
