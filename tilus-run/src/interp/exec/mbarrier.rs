//! `mbarrier`: allocation, arrivals and waits.

use super::*;
use tilus_dialects::mbarrier::MbarrierOpKind as K;

impl Machine<'_> {
    pub(super) fn bar_index(
        &self,
        first: usize,
        n: usize,
        idx: i64,
        op: OpId,
    ) -> Result<usize, Diagnostic> {
        if idx < 0 || idx as usize >= n {
            return Err(self.err(
                op,
                format!("barrier index {idx} is outside the {n} allocated barriers"),
            ));
        }
        Ok(first + idx as usize)
    }

    pub(super) fn cta_of_rank(&self, rank: i64, op: OpId) -> Result<usize, Diagnostic> {
        let n = self.ctas.len() as i64;
        if rank < 0 || rank >= n {
            return Err(self.err(
                op,
                format!(
                    "CTA rank {rank} is outside the cluster of {n} block{}",
                    if n == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(rank as usize)
    }

    /// The bytes one thread's `arrive_expect_tx` announces must fit the barrier's
    /// transaction count, which PTX bounds by 2^20 - 1; the verifier checks constant counts,
    /// this the ones known only at run time.
    fn check_tx_bytes(&self, op: OpId, bytes: i64) -> Result<(), Diagnostic> {
        use tilus_dialects::mbarrier::MAX_COUNT as MAX_TX;
        if (0..=MAX_TX).contains(&bytes) {
            return Ok(());
        }
        Err(self
            .err(
                op,
                format!("this arrive_expect_tx announces {bytes} bytes, outside the range of a barrier's transaction count [0, {MAX_TX}]"),
            )
            .with_help("split the copy over several phases, or announce the bytes of each copy as it is issued"))
    }

    /// `arrive(k)` (after `expect_tx(tx)`) on barrier `bar` of CTA `cta`, reporting over-arrival.
    pub(super) fn do_arrive(
        &mut self,
        op: OpId,
        cta: usize,
        bar: usize,
        k: i64,
        tx: i64,
        who: (usize, &[u32]),
    ) -> Result<(), Diagnostic> {
        // The arrival releases what the arriving threads know to the phase's waiters.
        let known = self.known_by(who.0, who.1);
        let (who_cta, who) = (who.0, who.1);
        let b = &mut self.ctas[cta].bars[bar];
        b.learn(&known);
        if tx != 0 {
            b.expect_tx(tx);
        }
        let before = b.describe();
        let c0 = b.completed;
        let r = b.arrive(k);
        if b.completed != c0 {
            self.flips += 1;
        }
        if let Some(rec) = &mut self.rec {
            let b = &self.ctas[cta].bars[bar];
            let tx = if tx != 0 {
                format!(", expect_tx {tx} bytes")
            } else {
                String::new()
            };
            let flip = if b.completed != c0 {
                ", completing the phase"
            } else {
                ""
            };
            rec.arrive(
                who_cta,
                who,
                self.now,
                op,
                format!(
                    "{k} arrival{} on barrier {}{tx}{flip} (now: {})",
                    if k == 1 { "" } else { "s" },
                    b.index,
                    b.describe()
                ),
            );
        }
        if let Err(m) = r {
            let b = &self.ctas[cta].bars[bar];
            return Err(self
                .err(
                    op,
                    format!(
                        "arrivals beyond the expected count: {} arrive{} on barrier {}: {m}",
                        describe_threads(who),
                        if who.len() == 1 { "s" } else { "" },
                        b.index
                    ),
                )
                .with_note(
                    DiagLoc::Op(b.alloc),
                    format!("barrier {} was allocated here; before the arrival: {before}", b.index),
                )
                .with_help("every thread of the executing group arrives; wrap the arrive in threadgroup.single_thread for one arrival, or raise the barrier's count"));
        }
        Ok(())
    }

    pub(super) fn exec_mbarrier(&mut self, ui: usize, op: OpId, k: K) -> Result<Flow, Diagnostic> {
        let ctx = self.ctx;
        let cta = self.units[ui].cta;
        match k {
            K::Alloc(a) => {
                let (first, counts) = self
                    .bar_plan
                    .get(&op)
                    .cloned()
                    .ok_or_else(|| self.err(op, "mbarrier.alloc outside the kernel"))?;
                self.set(
                    ui,
                    a.barriers(ctx),
                    Val::Bars {
                        first,
                        n: counts.len(),
                        alloc: op,
                    },
                );
            }
            K::ProducerInitialPhase(p) => self.set(ui, p.phase(ctx), Val::S(Sc::I(1))),
            K::ConsumerInitialPhase(p) => self.set(ui, p.phase(ctx), Val::S(Sc::I(0))),
            K::Arrive(_) | K::ArriveExpectTx(_) | K::ArriveExpectTxRemote(_) => {
                // The per-thread operands after the barriers: (index, count/bytes, rank).
                let (barriers, per_thread) = match k {
                    K::Arrive(a) => (a.barriers(ctx), vec![Some(a.index(ctx)), a.count(ctx)]),
                    K::ArriveExpectTx(a) => (
                        a.barriers(ctx),
                        vec![Some(a.index(ctx)), Some(a.bytes(ctx))],
                    ),
                    K::ArriveExpectTxRemote(a) => (
                        a.barriers(ctx),
                        vec![Some(a.index(ctx)), Some(a.bytes(ctx)), Some(a.rank(ctx))],
                    ),
                    _ => unreachable!("matched above"),
                };
                let (first, n, _) = self.bars(ui, barriers, op)?;
                // Group threads by their values of those operands.
                let vals: Vec<Val> = per_thread
                    .into_iter()
                    .flatten()
                    .map(|v| self.get(ui, v))
                    .collect();
                let threads = self.units[ui].threads.clone();
                let mut classes: Vec<(Vec<i64>, Vec<u32>)> = Vec::new();
                for &t in &threads {
                    let k: Vec<i64> = vals
                        .iter()
                        .map(|v| v.scalar_at(t).map(|s| s.as_i64()).unwrap_or(0))
                        .collect();
                    match classes.iter_mut().find(|(c, _)| *c == k) {
                        Some((_, ts)) => ts.push(t),
                        None => classes.push((k, vec![t])),
                    }
                }
                for (key, ts) in classes {
                    let bar = self.bar_index(first, n, key[0], op)?;
                    let cnt = ts.len() as i64;
                    if !matches!(k, K::Arrive(_)) {
                        self.check_tx_bytes(op, key[1])?;
                    }
                    match k {
                        K::Arrive(_) => {
                            let per = key.get(1).copied().unwrap_or(1);
                            if per < 1 {
                                return Err(
                                    self.err(op, format!("arrive count {per} must be at least 1"))
                                );
                            }
                            self.do_arrive(op, cta, bar, cnt * per, 0, (cta, &ts))?;
                        }
                        K::ArriveExpectTx(_) => {
                            self.do_arrive(op, cta, bar, cnt, cnt * key[1], (cta, &ts))?;
                        }
                        _ => {
                            let target = self.cta_of_rank(key[2], op)?;
                            self.do_arrive(op, target, bar, cnt, cnt * key[1], (cta, &ts))?;
                        }
                    }
                }
            }
            K::ArriveExpectTxMulticast(a) => {
                let (first, n, _) = self.bars(ui, a.barriers(ctx), op)?;
                let idx = self.int(ui, a.index(ctx), op)?;
                let bytes = self.int(ui, a.bytes(ctx), op)?;
                let mask = self.int(ui, a.mask(ctx), op)?;
                self.check_tx_bytes(op, bytes)?;
                let bar = self.bar_index(first, n, idx, op)?;
                let (gb, _) = self.units[ui].group();
                for r in 0..16i64 {
                    if mask >> r & 1 == 0 {
                        continue;
                    }
                    let t = (gb + r) as u32;
                    if self.units[ui].threads.binary_search(&t).is_err() {
                        continue;
                    }
                    let target = self.cta_of_rank(r, op)?;
                    self.do_arrive(op, target, bar, 1, bytes, (cta, &[t]))?;
                }
            }
            K::Wait(w) => {
                let (first, n, _) = self.bars(ui, w.barriers(ctx), op)?;
                let idx = self.int(ui, w.index(ctx), op)?;
                let parity = self.int(ui, w.phase(ctx), op)?;
                if parity != 0 && parity != 1 {
                    return Err(self.err(
                        op,
                        format!("mbarrier.wait on phase {parity}: the parity must be 0 or 1"),
                    ));
                }
                let bar = self.bar_index(first, n, idx, op)?;
                let b = &self.ctas[cta].bars[bar];
                if b.phase == parity as u8 {
                    return Ok(Flow::Wait(Block::Bar {
                        op,
                        cta,
                        bar,
                        parity: parity as u8,
                    }));
                }
                // PTX `try_wait.parity P` succeeds when the phase of parity P has completed,
                // i.e. it tests the current or the immediately preceding phase: the wait above
                // returns here as the hardware does. A thread that observed this barrier
                // before and now finds it two or more phases further may have skipped a phase
                // (the parity cannot tell them apart); that is a warning, because a kernel
                // may legitimately wait only on some phases. Threads that never waited here
                // have nothing to miss.
                let seen = self.units[ui]
                    .threads
                    .iter()
                    .filter_map(|t| b.seen.get(t).copied())
                    .min();
                if let Some(seen) = seen.filter(|&s| b.completed >= s + 2) {
                    let key = (op, b.alloc, b.index);
                    if !self.warned_missed.iter().any(|(k, _)| *k == key) {
                        self.warned_missed.push((key, self.warnings.len()));
                        let d = self
                            .err(
                                op,
                                format!(
                                    "possible missed phase: {} waited on barrier {} for the phase of parity {parity}, but the barrier completed {} phases since they last observed it; try_wait.parity tests only the current and the immediately preceding phase, so the wait returned for the latest phase of that parity and the phases between went unobserved",
                                    self.units[ui].describe_threads(),
                                    b.index,
                                    b.completed - seen
                                ),
                            )
                            .with_severity(tilus_ir::Severity::Warning)
                            .with_note(DiagLoc::Op(b.alloc), format!("barrier {} was allocated here ({})", b.index, b.describe()))
                            .with_help("if each phase carries data this waiter needs, check the stage count and the phase flips: the waiter must observe every phase of the barriers it waits on");
                        self.warnings.push(d);
                    }
                }
                let b = &mut self.ctas[cta].bars[bar];
                let c = b.completed;
                for &t in &self.units[ui].threads {
                    b.seen.insert(t, c);
                }
                // Passing the wait orders these threads after what the completed phases carried.
                let ids = self.ctas[cta].bars[bar].known_at_completion.clone();
                let threads = self.units[ui].threads.clone();
                self.learn(&ids, cta, &threads);
            }
            // A barrier's shared address exists only after lowering.
            K::Addr(_) => return Err(self.unsupported(op)),
        }
        Ok(Flow::Next)
    }
}
