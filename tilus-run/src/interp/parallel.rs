//! Clusters of a grid in parallel, with the sequential run's results (issue 19).
//!
//! The sequential run takes the clusters one after another on one machine. With more than one
//! thread, the grid is taken in batches of [`BATCH`] clusters. Workers first run a batch's
//! clusters speculatively: each against the launch's memory as it was when the batch started
//! (`Global::shadow`), recording the bytes it read and the bytes it wrote (with their values).
//! The merge then walks the batch in the sequential order on one machine writing the launch's
//! memory, and takes a worker's outcome only when the sequential run would provably have
//! produced the same one:
//!
//! * no byte the cluster read was written by an earlier cluster of the batch (so it read the
//!   same values:
//!   a semaphore another cluster releases, a split-K partial sum, a read-back of an earlier
//!   cluster's output all fail this);
//! * its steps fit under `--max-steps` after the earlier clusters' (the limit counts over the
//!   whole grid).
//!
//! A taken outcome contributes its write log, steps and warnings (repeats of a once-per-run
//! warning dropped), and its error if it has one: the first error in cluster order ends the
//! run as it would sequentially. Any other cluster (refused, or never run because a worker
//! stopped at an earlier error) runs again on the merge's machine, which is exactly the
//! sequential run of that cluster. Schedules do not depend on the thread: every cluster starts
//! a fresh scheduler whose random generator is seeded from the run's seed and the cluster's
//! index (`machine::cluster_seed`), on every path, `--threads 1` included.

use super::global::{sync_private, Footprint, Global, Written};
use super::machine::{cluster_blocks, cluster_count, Machine};
use super::{bind_params, threads_for, ArgValue, Options, RunStats};
use crate::memory::{GlobalBuffer, GlobalMemory};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use tilus_ir::{Context, Diagnostic, OpId};

/// One launch: what every machine (the merge's and each worker's) is built from.
pub(crate) struct Launch<'a> {
    pub ctx: &'a Context,
    pub kernel: OpId,
    pub opts: &'a Options,
    pub args: &'a [ArgValue],
    pub grid: [i64; 3],
    pub cluster: [i64; 3],
    pub block_threads: i64,
}

impl Launch<'_> {
    fn machine<'m>(&'m self, mem: Global<'m>) -> Result<Machine<'m>, Diagnostic> {
        let params = bind_params(self.ctx, self.kernel, self.args)?;
        Ok(Machine::new(
            self.ctx,
            self.kernel,
            self.opts,
            mem,
            params,
            self.grid,
            self.block_threads,
        ))
    }
}

/// A worker's run of one cluster. Per-cluster state that a later tool wants to carry from the
/// worker to the merge (a timeline of the cluster's events, say) belongs here too, and is taken
/// or dropped with the outcome.
struct Outcome {
    result: Result<(), Diagnostic>,
    steps: u64,
    warnings: Vec<Diagnostic>,
    /// Once-per-run warnings among `warnings`: (key, index in `warnings`).
    missed: Vec<((OpId, OpId, usize), usize)>,
    foot: Footprint,
}

/// Clusters speculated at once: the outcomes held before a merge are bounded, and a grid of
/// billions of blocks is taken a batch at a time. Each batch starts from the memory the
/// earlier batches left, as the sequential run reaches it.
const BATCH: u64 = 1024;

/// Runs the grid of `l` on `mem` with up to [`threads_for`] threads; see the module comment.
pub(crate) fn run(l: &Launch, mem: &mut GlobalMemory) -> Result<RunStats, Diagnostic> {
    let n = cluster_count(l.grid, l.cluster);
    let threads = (threads_for(l.opts) as u64).min(n).max(1) as usize;
    let per_cluster = (l.cluster.iter().product::<i64>()) as u64;
    let total = n.saturating_mul(per_cluster);
    let parallel = threads > 1;
    // Each worker's private copies of the buffers it writes, kept from batch to batch.
    let mut privates: Vec<Vec<Option<GlobalBuffer>>> = vec![Vec::new(); threads];
    // What the merge machine carries from batch to batch.
    let mut steps = 0u64;
    let mut warnings = Vec::new();
    let mut warned_missed = Vec::new();
    let mut ctas = 0u64;
    let mut start = 0u64;
    while start < n {
        let end = if parallel { n.min(start + BATCH) } else { n };
        let mut outcomes = if parallel {
            speculate(l, mem, start..end, &mut privates, steps)
        } else {
            Vec::new()
        };
        outcomes.resize_with((end - start) as usize, || None);
        let mut m = l.machine(Global::direct(mem, parallel))?;
        m.steps = steps;
        m.warnings = std::mem::take(&mut warnings);
        m.warned_missed = std::mem::take(&mut warned_missed);
        let mut written = Written::default();
        for i in start..end {
            let blocks = cluster_blocks(l.grid, l.cluster, i);
            ctas += blocks.len() as u64;
            let taken = outcomes[(i - start) as usize].take().filter(|o| {
                m.steps.saturating_add(o.steps) <= l.opts.max_steps
                    && !o.foot.reads.iter().any(|r| written.overlaps(r))
            });
            match taken {
                Some(o) => {
                    m.steps += o.steps;
                    for (j, w) in o.warnings.into_iter().enumerate() {
                        if let Some((key, _)) = o.missed.iter().find(|(_, at)| *at == j) {
                            if m.warned_missed.iter().any(|(k, _)| k == key) {
                                continue;
                            }
                            m.warned_missed.push((*key, m.warnings.len()));
                        }
                        m.warnings.push(w);
                    }
                    m.mem.apply(&o.foot.writes);
                    for (sp, _) in &o.foot.writes {
                        written.insert(*sp);
                    }
                    o.result?;
                }
                None => {
                    let r = m.run_cluster(i, &blocks);
                    for sp in m.mem.take_writes() {
                        written.insert(sp);
                    }
                    r?;
                    if !parallel {
                        if let Some(p) = &l.opts.progress {
                            p(ctas, total);
                        }
                    }
                }
            }
        }
        steps = m.steps;
        warnings = std::mem::take(&mut m.warnings);
        warned_missed = std::mem::take(&mut m.warned_missed);
        drop(m);
        for p in &mut privates {
            sync_private(p, mem, &written);
        }
        start = end;
    }
    Ok(RunStats {
        ctas,
        threads,
        steps,
        warnings,
    })
}

/// Runs the clusters `range` on one worker per entry of `privates` against `base`, taking the
/// next cluster index from a shared counter. A worker stops taking clusters past the first one
/// that ended in an error (the merge stops there unless that outcome is refused, and then runs
/// the rest itself), and once the batch's clusters have used the steps left under the limit
/// after `steps_before` (the merge would stop inside them).
fn speculate(
    l: &Launch,
    base: &GlobalMemory,
    range: std::ops::Range<u64>,
    privates: &mut [Vec<Option<GlobalBuffer>>],
    steps_before: u64,
) -> Vec<Option<Outcome>> {
    let slots: Vec<Mutex<Option<Outcome>>> = range.clone().map(|_| Mutex::new(None)).collect();
    let next = AtomicU64::new(range.start);
    let stop = AtomicU64::new(u64::MAX);
    let used = AtomicU64::new(0);
    let budget = l.opts.max_steps.saturating_sub(steps_before);
    let total =
        cluster_count(l.grid, l.cluster).saturating_mul(l.cluster.iter().product::<i64>() as u64);
    let done = AtomicU64::new(range.start * l.cluster.iter().product::<i64>() as u64);
    std::thread::scope(|s| {
        for private in privates.iter_mut() {
            let (slots, next, stop, used, done, range) =
                (&slots, &next, &stop, &used, &done, &range);
            s.spawn(move || {
                let Ok(mut m) = l.machine(Global::shadow(base, std::mem::take(private))) else {
                    return;
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= range.end
                        || i > stop.load(Ordering::Relaxed)
                        || used.load(Ordering::Relaxed) > budget
                    {
                        break;
                    }
                    m.steps = 0;
                    m.warnings.clear();
                    m.warned_missed.clear();
                    let blocks = cluster_blocks(l.grid, l.cluster, i);
                    let result = m.run_cluster(i, &blocks);
                    if result.is_err() {
                        stop.fetch_min(i, Ordering::Relaxed);
                    }
                    used.fetch_add(m.steps, Ordering::Relaxed);
                    let o = Outcome {
                        result,
                        steps: m.steps,
                        warnings: std::mem::take(&mut m.warnings),
                        missed: std::mem::take(&mut m.warned_missed),
                        foot: m.mem.end_cluster(),
                    };
                    let n = blocks.len() as u64;
                    let d = done.fetch_add(n, Ordering::Relaxed) + n;
                    if let Some(p) = &l.opts.progress {
                        p(d, total);
                    }
                    *slots[(i - range.start) as usize]
                        .lock()
                        .unwrap_or_else(|e| e.into_inner()) = Some(o);
                }
                *private = m.mem.into_private();
            });
        }
    });
    slots
        .into_iter()
        .map(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}
