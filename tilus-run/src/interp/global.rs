//! Global memory as one interpreter machine sees it.
//!
//! The sequential run reads and writes the launch's buffers directly. A parallel worker
//! (`parallel.rs`) runs clusters against a read-only launch memory instead: its writes go to a
//! private copy of the buffers it writes, and it records which bytes each cluster read and
//! wrote. At the end of a cluster the written bytes are taken out as a write log and the
//! private copy is restored, so every cluster of a worker starts from the launch's memory, as
//! if it were the first cluster of the grid. The merge then decides, from the footprints, which
//! clusters saw exactly what the sequential run would have shown them.

use crate::memory::{GlobalBuffer, GlobalMemory, GlobalView, MemError, Run};
use crate::tensor::{
    decode_contiguous_into, decode_many_into, encode_contiguous, encode_many, storage_bytes, Tensor,
};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Bytes `start .. end` of global buffer `buffer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Span {
    pub buffer: usize,
    pub start: usize,
    pub end: usize,
}

/// What one cluster did to global memory: the bytes it read (merged, sorted) and the bytes it
/// wrote with their final values (merged, sorted, in the order they are to be applied).
#[derive(Debug, Default)]
pub(crate) struct Footprint {
    pub reads: Vec<Span>,
    pub writes: Vec<(Span, Vec<u8>)>,
}

/// A worker's view: the launch's memory, read-only, with private copies of written buffers.
pub(crate) struct Shadow<'a> {
    base: &'a GlobalMemory,
    private: Vec<Option<GlobalBuffer>>,
    /// Bytes read since the cluster started (interior mutability: `block_ready` polls a
    /// semaphore through `&self`).
    reads: RefCell<Vec<Span>>,
    writes: Vec<Span>,
}

/// Global memory for a [`Machine`](super::machine::Machine).
pub(crate) enum Global<'a> {
    /// Reads and writes go to the launch's memory; `writes` records what was written when
    /// `Some` (the merge's sequential reruns, whose writes later clusters are checked against).
    Direct {
        mem: &'a mut GlobalMemory,
        writes: Option<Vec<Span>>,
    },
    /// A parallel worker's private view.
    Shadow(Box<Shadow<'a>>),
}

/// Appends the bytes of `runs` (elements of `size` bytes) to `out`, joining consecutive
/// elements into one span. With `coarse`, a strided run (a transposed view) counts as the one
/// span from its first to its last element: a superset, which only makes the merge rerun a
/// cluster more often, and keeps a read footprint at a span per run instead of one per
/// element. Write footprints stay exact (they select the bytes of the write log).
fn spans_of(buffer: usize, size: usize, runs: &[Run], coarse: bool, out: &mut Vec<Span>) {
    let mut cur: Option<(usize, usize)> = None;
    let mut add = |a: usize, len: usize| match &mut cur {
        Some((_, end)) if *end == a => *end += len,
        _ => {
            if let Some((s, e)) = cur {
                out.push(Span {
                    buffer,
                    start: s,
                    end: e,
                });
            }
            cur = Some((a, a + len));
        }
    };
    for r in runs {
        match r.byte {
            None => {}
            Some(b) if r.step == size => add(b, r.len * size),
            Some(b) if coarse && r.len > 0 => add(b, (r.len - 1) * r.step + size),
            Some(_) => r.addrs().flatten().for_each(|a| add(a, size)),
        }
    }
    if let Some((s, e)) = cur {
        out.push(Span {
            buffer,
            start: s,
            end: e,
        });
    }
}

/// Sorts spans and merges overlapping or touching ones.
fn normalize(mut v: Vec<Span>) -> Vec<Span> {
    v.sort_unstable();
    let mut out: Vec<Span> = Vec::with_capacity(v.len());
    for s in v {
        match out.last_mut() {
            Some(l) if l.buffer == s.buffer && s.start <= l.end => l.end = l.end.max(s.end),
            _ => out.push(s),
        }
    }
    out
}

impl<'a> Global<'a> {
    /// The launch's memory, read and written in place.
    pub(crate) fn direct(mem: &'a mut GlobalMemory, record: bool) -> Global<'a> {
        Global::Direct {
            mem,
            writes: record.then(Vec::new),
        }
    }

    /// A worker's view of `base` (which nobody writes while the view lives), with the private
    /// copies a previous view left (equal to `base` where they exist; empty: none yet).
    pub(crate) fn shadow(
        base: &'a GlobalMemory,
        mut private: Vec<Option<GlobalBuffer>>,
    ) -> Global<'a> {
        private.resize(base.buffers.len(), None);
        Global::Shadow(Box::new(Shadow {
            base,
            private,
            reads: RefCell::new(Vec::new()),
            writes: Vec::new(),
        }))
    }

    /// A worker's private copies, to reuse in the next view (after [`sync_private`]).
    pub(crate) fn into_private(self) -> Vec<Option<GlobalBuffer>> {
        match self {
            Global::Shadow(s) => s.private,
            Global::Direct { .. } => Vec::new(),
        }
    }

    /// The buffer reads of `v` see, or the missing-buffer error.
    fn buffer(&self, v: &GlobalView) -> Result<&GlobalBuffer, MemError> {
        match self {
            Global::Direct { mem, .. } => mem.buffer(v),
            Global::Shadow(s) => match s.private.get(v.buffer) {
                Some(Some(b)) => Ok(b),
                _ => s.base.buffer(v),
            },
        }
    }

    /// [`GlobalMemory::load_box`], recording the bytes read in a worker.
    pub(crate) fn load_box(
        &self,
        v: &GlobalView,
        offsets: &[i64],
        shape: &[i64],
    ) -> Result<Tensor, MemError> {
        let b = self.buffer(v)?;
        let runs = b.box_runs(v, offsets, shape)?;
        if let Global::Shadow(s) = self {
            spans_of(
                v.buffer,
                storage_bytes(v.dtype),
                &runs,
                true,
                &mut s.reads.borrow_mut(),
            );
        }
        let size = storage_bytes(v.dtype);
        let mut data = Vec::with_capacity(shape.iter().product::<i64>().max(0) as usize);
        for r in &runs {
            match r.byte {
                None => data.resize(data.len() + r.len, 0.0),
                Some(p) if r.step == size => {
                    decode_contiguous_into(v.dtype, &b.bytes[p..p + r.len * size], &mut data)
                }
                Some(_) => decode_many_into(v.dtype, &b.bytes, r.addrs(), &mut data),
            }
        }
        Ok(Tensor {
            dtype: v.dtype,
            shape: shape.to_vec(),
            data,
        })
    }

    /// [`GlobalMemory::store_box`], recording the bytes written (and, in a worker, writing to
    /// the private copy).
    pub(crate) fn store_box(
        &mut self,
        v: &GlobalView,
        offsets: &[i64],
        t: &Tensor,
    ) -> Result<(), MemError> {
        let runs = self.buffer(v)?.box_runs(v, offsets, &t.shape)?;
        let size = storage_bytes(v.dtype);
        let bytes = match self {
            Global::Direct { mem, writes } => {
                if let Some(w) = writes {
                    spans_of(v.buffer, size, &runs, false, w);
                }
                &mut mem.buffers[v.buffer].bytes
            }
            Global::Shadow(s) => {
                spans_of(v.buffer, size, &runs, false, &mut s.writes);
                let base = s.base;
                &mut s.private[v.buffer]
                    .get_or_insert_with(|| base.buffers[v.buffer].clone())
                    .bytes
            }
        };
        for r in &runs {
            let vals = &t.data[r.at..r.at + r.len];
            match r.byte {
                None => {}
                Some(p) if r.step == size => {
                    encode_contiguous(v.dtype, &mut bytes[p..p + r.len * size], vals)
                }
                Some(_) => encode_many(v.dtype, bytes, r.addrs(), vals),
            }
        }
        Ok(())
    }

    /// Ends a worker's cluster: its footprint, with the written bytes taken out of the private
    /// copy, which is restored to the launch's memory for the next cluster.
    pub(crate) fn end_cluster(&mut self) -> Footprint {
        let Global::Shadow(s) = self else {
            return Footprint::default();
        };
        let reads = normalize(std::mem::take(&mut *s.reads.borrow_mut()));
        let spans = normalize(std::mem::take(&mut s.writes));
        let mut writes = Vec::with_capacity(spans.len());
        for sp in spans {
            let private = s.private[sp.buffer]
                .as_mut()
                .expect("a written buffer has a private copy");
            let r = sp.start..sp.end;
            writes.push((sp, private.bytes[r.clone()].to_vec()));
            private.bytes[r.clone()].copy_from_slice(&s.base.buffers[sp.buffer].bytes[r]);
        }
        Footprint { reads, writes }
    }

    /// Writes a worker's write log into the launch's memory (direct mode only).
    pub(crate) fn apply(&mut self, writes: &[(Span, Vec<u8>)]) {
        if let Global::Direct { mem, .. } = self {
            for (sp, bytes) in writes {
                mem.buffers[sp.buffer].bytes[sp.start..sp.end].copy_from_slice(bytes);
            }
        }
    }

    /// The bytes written (direct mode, recording) since the last call.
    pub(crate) fn take_writes(&mut self) -> Vec<Span> {
        match self {
            Global::Direct {
                writes: Some(w), ..
            } => normalize(std::mem::take(w)),
            _ => Vec::new(),
        }
    }
}

/// Brings private copies up to date with `mem` on the spans of `written` (the launch's memory
/// changed there since the copies were equal to it).
pub(crate) fn sync_private(
    private: &mut [Option<GlobalBuffer>],
    mem: &GlobalMemory,
    written: &Written,
) {
    for (b, spans) in written.0.iter().enumerate() {
        let Some(Some(p)) = private.get_mut(b) else {
            continue;
        };
        for (&start, &end) in spans {
            p.bytes[start..end].copy_from_slice(&mem.buffers[b].bytes[start..end]);
        }
    }
}

/// Bytes written by the clusters merged so far: disjoint spans per buffer, by start.
#[derive(Default)]
pub(crate) struct Written(Vec<BTreeMap<usize, usize>>);

impl Written {
    /// Whether any byte of `s` has been written.
    pub(crate) fn overlaps(&self, s: &Span) -> bool {
        let Some(m) = self.0.get(s.buffer) else {
            return false;
        };
        // The last written span starting before `s` ends is the only one that can overlap.
        m.range(..s.end)
            .next_back()
            .is_some_and(|(_, &end)| end > s.start)
    }

    /// Adds `s`.
    pub(crate) fn insert(&mut self, s: Span) {
        if self.0.len() <= s.buffer {
            self.0.resize_with(s.buffer + 1, BTreeMap::new);
        }
        let m = &mut self.0[s.buffer];
        let (mut start, mut end) = (s.start, s.end);
        // Absorb every span that overlaps or touches [start, end).
        let touching: Vec<(usize, usize)> = m
            .range(..=end)
            .rev()
            .take_while(|(_, &e)| e >= start)
            .map(|(&a, &b)| (a, b))
            .collect();
        for (a, b) in touching {
            m.remove(&a);
            start = start.min(a);
            end = end.max(b);
        }
        m.insert(start, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(buffer: usize, start: usize, end: usize) -> Span {
        Span { buffer, start, end }
    }

    #[test]
    fn spans_join_consecutive_elements() {
        let run = |at, len, byte, step| Run {
            at,
            len,
            byte,
            step,
        };
        let mut out = Vec::new();
        let runs = [
            run(0, 2, Some(0), 4),
            run(2, 1, None, 4),
            run(3, 1, Some(8), 4),
            run(4, 2, Some(16), 8),
        ];
        spans_of(3, 4, &runs, false, &mut out);
        assert_eq!(out, vec![sp(3, 0, 12), sp(3, 16, 20), sp(3, 24, 28)]);
        let mut out = Vec::new();
        spans_of(3, 4, &runs, true, &mut out);
        assert_eq!(out, vec![sp(3, 0, 12), sp(3, 16, 28)]);
    }

    #[test]
    fn written_set_merges_and_answers_overlap() {
        let mut w = Written::default();
        w.insert(sp(1, 10, 20));
        w.insert(sp(1, 30, 40));
        assert!(!w.overlaps(&sp(1, 20, 30)));
        assert!(!w.overlaps(&sp(0, 10, 20)));
        assert!(w.overlaps(&sp(1, 19, 21)));
        assert!(w.overlaps(&sp(1, 0, 11)));
        assert!(w.overlaps(&sp(1, 35, 36)));
        w.insert(sp(1, 20, 30));
        assert_eq!(w.0[1].iter().collect::<Vec<_>>(), vec![(&10, &40)]);
        w.insert(sp(1, 5, 50));
        assert_eq!(w.0[1].iter().collect::<Vec<_>>(), vec![(&5, &50)]);
    }
}
