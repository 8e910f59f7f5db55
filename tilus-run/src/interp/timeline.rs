//! Recording a run for `tilus-run --timeline`: what each thread group of each block did, step
//! by step (the interpreter's logical clock), as spans and markers a renderer can draw.
//!
//! The interpreter stays ignorant of pictures: it calls a handful of hooks on an optional
//! [`Recorder`] it owns for the cluster it is running (a group ran a step, blocked, arrived on
//! a barrier; an async op was issued or completed; a report fired), and the recorder hands each
//! finished cluster's [`ClusterTrace`] to a shared [`Timeline`]. Traces carry their cluster's
//! index, so clusters recorded in any order (or by several interpreters at once) are shown in
//! grid order.
//!
//! Lanes are keyed by (block, thread set): a unit that splits at a group op becomes lanes for
//! its parts, and a unit that merges back continues as the lane of the merged set. A lane's
//! open span ends as soon as any overlapping thread set runs, since a thread is in one unit at
//! a time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tilus_ir::OpId;

/// Events kept per cluster; further ones are counted, not kept (reports are always kept).
pub const MAX_EVENTS_PER_CLUSTER: usize = 5_000;
/// Clusters kept whole; later ones that finish normally are counted, not kept, so a big grid
/// gives a file of bounded size. A cluster whose run fails is always kept.
pub const MAX_CLUSTERS: usize = 4;

/// What an event shows.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// The group was running (or ready to run) over the span.
    Compute,
    /// The group was blocked; `what` says on what (barrier, phase, group, sync).
    Wait { what: String },
    /// An arrival on a barrier (a marker): which barrier, how many arrivals, tx bytes.
    Arrive { what: String },
    /// An asynchronous op (TMA copy or store, wgmma, tcgen05) from issue to completion.
    Async { what: String, engine: Engine },
    /// A report (deadlock, race, over-arrival, out of bounds, ...) fired here.
    Report { text: String },
}

/// Which engine an async op ran on: the renderer gives each its own lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Engine {
    Tma,
    Wgmma,
    Tcgen05,
}

impl Engine {
    /// The lane title.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Tma => "TMA",
            Engine::Wgmma => "WGMMA",
            Engine::Tcgen05 => "tcgen05",
        }
    }
}

/// One span or marker.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Index of the block in its cluster.
    pub cta: usize,
    /// The threads of the group (sorted); empty for async ops and reports.
    pub threads: Vec<u32>,
    pub kind: EventKind,
    /// First step of the span (the step of a marker).
    pub start: u64,
    /// Last step of the span; `None` when it had not ended when the run stopped (a group
    /// still waiting at a deadlock, an op still in flight).
    pub end: Option<u64>,
    /// The op that started it, for its name and source line.
    pub op: Option<OpId>,
}

/// Everything recorded of one cluster.
#[derive(Clone, Debug, Default)]
pub struct ClusterTrace {
    /// The cluster's index in grid order.
    pub index: u64,
    /// Block coordinates of each CTA of the cluster.
    pub blocks: Vec<[i64; 3]>,
    pub events: Vec<Event>,
    /// Events not kept (over [`MAX_EVENTS_PER_CLUSTER`]).
    pub dropped_events: u64,
    /// First and last step of the cluster.
    pub start: u64,
    pub end: u64,
    /// Whether the run stopped with a report in this cluster.
    pub failed: bool,
}

/// The recording of a whole run, shared between the caller and the interpreter.
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    /// Kept clusters, in grid order.
    pub clusters: Vec<ClusterTrace>,
    /// Clusters run but not kept (over [`MAX_CLUSTERS`]).
    pub dropped_clusters: u64,
    /// Events of kept clusters that were not kept.
    pub dropped_events: u64,
}

impl Timeline {
    /// A timeline to pass in [`Options::timeline`](super::Options) and read after the run.
    pub fn shared() -> Arc<Mutex<Timeline>> {
        Arc::new(Mutex::new(Timeline::default()))
    }

    fn accept(&mut self, trace: ClusterTrace) {
        if !trace.failed && self.clusters.len() >= MAX_CLUSTERS {
            self.dropped_clusters += 1;
            return;
        }
        self.dropped_events += trace.dropped_events;
        let at = self.clusters.partition_point(|c| c.index < trace.index);
        self.clusters.insert(at, trace);
    }
}

/// An open lane: the index of its current event.
struct Open {
    cta: usize,
    threads: Vec<u32>,
    event: usize,
}

/// The per-cluster recorder the interpreter owns while a timeline is wanted.
pub(crate) struct Recorder {
    sink: Arc<Mutex<Timeline>>,
    cur: Option<ClusterTrace>,
    open: Vec<Open>,
    /// Async op id → its event.
    asyncs: HashMap<u64, usize>,
}

fn overlaps(a: &[u32], b: &[u32]) -> bool {
    // Both sorted.
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

impl Recorder {
    pub(crate) fn new(sink: Arc<Mutex<Timeline>>) -> Recorder {
        Recorder {
            sink,
            cur: None,
            open: Vec::new(),
            asyncs: HashMap::new(),
        }
    }

    /// Starts the trace of cluster `index` (its position in the grid).
    pub(crate) fn begin_cluster(&mut self, index: u64, blocks: &[[i64; 3]], now: u64) {
        self.open.clear();
        self.asyncs.clear();
        self.cur = Some(ClusterTrace {
            index,
            blocks: blocks.to_vec(),
            start: now,
            end: now,
            ..ClusterTrace::default()
        });
    }

    fn push(&mut self, e: Event) -> Option<usize> {
        let cur = self.cur.as_mut()?;
        cur.end = cur.end.max(e.end.unwrap_or(e.start));
        if cur.events.len() >= MAX_EVENTS_PER_CLUSTER && !matches!(e.kind, EventKind::Report { .. })
        {
            cur.dropped_events += 1;
            return None;
        }
        cur.events.push(e);
        Some(cur.events.len() - 1)
    }

    fn event_mut(&mut self, i: usize) -> Option<&mut Event> {
        self.cur.as_mut().and_then(|c| c.events.get_mut(i))
    }

    /// Ends every open lane of `cta` whose threads overlap `threads` (except the lane of
    /// exactly `threads`) at `now`: those threads are elsewhere now.
    fn close_overlapping(&mut self, cta: usize, threads: &[u32], now: u64) {
        let mut keep = Vec::with_capacity(self.open.len());
        for o in std::mem::take(&mut self.open) {
            if o.cta == cta && o.threads != threads && overlaps(&o.threads, threads) {
                if let Some(e) = self.event_mut(o.event) {
                    e.end = Some(now.max(e.start));
                }
            } else {
                keep.push(o);
            }
        }
        self.open = keep;
    }

    fn lane(&self, cta: usize, threads: &[u32]) -> Option<usize> {
        self.open
            .iter()
            .position(|o| o.cta == cta && o.threads == threads)
    }

    fn open_event(&mut self, cta: usize, threads: &[u32], kind: EventKind, now: u64, op: OpId) {
        let e = Event {
            cta,
            threads: threads.to_vec(),
            kind,
            start: now,
            end: Some(now),
            op: Some(op),
        };
        if let Some(i) = self.push(e) {
            self.open.push(Open {
                cta,
                threads: threads.to_vec(),
                event: i,
            });
        }
    }

    /// The group `threads` of block `cta` executed `op` at step `now`.
    pub(crate) fn step(&mut self, cta: usize, threads: &[u32], now: u64, op: Option<OpId>) {
        self.close_overlapping(cta, threads, now);
        if let Some(l) = self.lane(cta, threads) {
            let i = self.open[l].event;
            let waiting = match self.event_mut(i) {
                Some(e) if e.kind == EventKind::Compute => {
                    e.end = Some(now);
                    false
                }
                Some(e) => {
                    e.end = Some(now);
                    true
                }
                None => true,
            };
            if !waiting {
                return;
            }
            self.open.remove(l);
        }
        if let Some(op) = op {
            self.open_event(cta, threads, EventKind::Compute, now, op);
        }
    }

    /// The group blocked at `op` (`what`: on which barrier, phase or group).
    pub(crate) fn block(&mut self, cta: usize, threads: &[u32], now: u64, op: OpId, what: String) {
        if let Some(l) = self.lane(cta, threads) {
            let o = self.open.remove(l);
            if let Some(e) = self.event_mut(o.event) {
                e.end = Some(now);
            }
        }
        self.open_event(cta, threads, EventKind::Wait { what }, now, op);
    }

    /// The group finished the kernel.
    pub(crate) fn done(&mut self, cta: usize, threads: &[u32], now: u64) {
        if let Some(l) = self.lane(cta, threads) {
            let o = self.open.remove(l);
            if let Some(e) = self.event_mut(o.event) {
                e.end = Some(now);
            }
        }
    }

    /// An arrival of `threads` (of block `cta`) on a barrier.
    pub(crate) fn arrive(&mut self, cta: usize, threads: &[u32], now: u64, op: OpId, what: String) {
        self.push(Event {
            cta,
            threads: threads.to_vec(),
            kind: EventKind::Arrive { what },
            start: now,
            end: Some(now),
            op: Some(op),
        });
    }

    /// Async op `id` was issued by block `cta` at `now`.
    pub(crate) fn issue(&mut self, id: u64, cta: usize, now: u64, op: OpId, what: &str) {
        let engine = if what.starts_with("TMA") {
            Engine::Tma
        } else if what.starts_with("wgmma") {
            Engine::Wgmma
        } else {
            Engine::Tcgen05
        };
        let e = Event {
            cta,
            threads: Vec::new(),
            kind: EventKind::Async {
                what: what.to_string(),
                engine,
            },
            start: now,
            end: None,
            op: Some(op),
        };
        if let Some(i) = self.push(e) {
            self.asyncs.insert(id, i);
        }
    }

    /// Async op `id` completed at `now`.
    pub(crate) fn complete(&mut self, id: u64, now: u64) {
        if let Some(i) = self.asyncs.remove(&id) {
            if let Some(e) = self.event_mut(i) {
                e.end = Some(now.max(e.start));
            }
            if let Some(c) = self.cur.as_mut() {
                c.end = c.end.max(now);
            }
        }
    }

    /// A report fired at `now` (located at `op` when known).
    pub(crate) fn report(&mut self, now: u64, op: Option<OpId>, text: String) {
        if let Some(c) = self.cur.as_mut() {
            c.failed = true;
        }
        self.push(Event {
            cta: 0,
            threads: Vec::new(),
            kind: EventKind::Report { text },
            start: now,
            end: Some(now),
            op,
        });
    }

    /// Ends the cluster's trace at `now` and hands it to the timeline. After a failure, waits
    /// that never ended stay open (`end: None`): that is where each group stopped.
    pub(crate) fn end_cluster(&mut self, now: u64) {
        let Some(mut cur) = self.cur.take() else {
            return;
        };
        for o in std::mem::take(&mut self.open) {
            if let Some(e) = cur.events.get_mut(o.event) {
                let waiting = matches!(e.kind, EventKind::Wait { .. });
                e.end = if cur.failed && waiting {
                    None
                } else {
                    Some(now.max(e.start))
                };
            }
        }
        cur.end = cur.end.max(now);
        self.asyncs.clear();
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        sink.accept(cur);
    }
}
