//! Clusters of a grid in parallel, with the sequential run's results (issue 19).
//!
//! The sequential run takes the clusters one after another on one machine. With more than one
//! thread, workers first run clusters speculatively: each against the launch's memory as it was
//! before the grid started (`Global::shadow`), recording the bytes it read and the bytes it
//! wrote (with their values). The merge then walks the clusters in the sequential order on one
//! machine writing the launch's memory, and takes a worker's outcome only when the sequential
//! run would provably have produced the same one:
//!
//! * no byte the cluster read was written by an earlier cluster (so it read the same values:
//!   the launch's memory; a semaphore another cluster releases, a split-K partial sum, a
//!   read-back of an earlier cluster's output all fail this);
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

use super::global::{Footprint, Global, Written};
use super::machine::{clusters_of, Machine};
use super::{bind_params, threads_for, ArgValue, Options, RunStats};
use crate::memory::GlobalMemory;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
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

/// Runs the grid of `l` on `mem` with up to [`threads_for`] threads; see the module comment.
pub(crate) fn run(l: &Launch, mem: &mut GlobalMemory) -> Result<RunStats, Diagnostic> {
    let clusters = clusters_of(l.grid, l.cluster);
    let threads = threads_for(l.opts).min(clusters.len()).max(1);
    let total: u64 = clusters.iter().map(|c| c.len() as u64).sum();
    let mut outcomes = if threads > 1 {
        speculate(l, mem, &clusters, threads, total)
    } else {
        Vec::new()
    };
    outcomes.resize_with(clusters.len(), || None);
    let parallel = threads > 1;
    let mut m = l.machine(Global::direct(mem, parallel))?;
    let mut written = Written::default();
    let mut ctas = 0u64;
    for (i, blocks) in clusters.iter().enumerate() {
        ctas += blocks.len() as u64;
        let taken = outcomes[i].take().filter(|o| {
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
                let r = m.run_cluster(i, blocks);
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
    Ok(RunStats {
        ctas,
        threads,
        steps: m.steps,
        warnings: std::mem::take(&mut m.warnings),
    })
}

/// Runs clusters on `threads` workers against `base`, taking the next cluster index from a
/// shared counter; a worker stops taking clusters past the first one that ended in an error
/// (the merge stops there unless that outcome is refused, and then runs the rest itself).
fn speculate(
    l: &Launch,
    base: &GlobalMemory,
    clusters: &[Vec<[i64; 3]>],
    threads: usize,
    total: u64,
) -> Vec<Option<Outcome>> {
    let slots: Vec<Mutex<Option<Outcome>>> = clusters.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicUsize::new(usize::MAX);
    let done = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let Ok(mut m) = l.machine(Global::shadow(base)) else {
                    return;
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= clusters.len() || i > stop.load(Ordering::Relaxed) {
                        return;
                    }
                    m.steps = 0;
                    m.warnings.clear();
                    m.warned_missed.clear();
                    let result = m.run_cluster(i, &clusters[i]);
                    if result.is_err() {
                        stop.fetch_min(i, Ordering::Relaxed);
                    }
                    let o = Outcome {
                        result,
                        steps: m.steps,
                        warnings: std::mem::take(&mut m.warnings),
                        missed: std::mem::take(&mut m.warned_missed),
                        foot: m.mem.end_cluster(),
                    };
                    let n = clusters[i].len() as u64;
                    let d = done.fetch_add(n, Ordering::Relaxed) + n;
                    if let Some(p) = &l.opts.progress {
                        p(d, total);
                    }
                    *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(o);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}
