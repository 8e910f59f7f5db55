//! Per-thread values in register tiles, given the meaning the lowering gives them.
//!
//! The interpreter holds a register tile as one logical tensor per unit. On the GPU the tile is
//! spread over the threads of its group by a register layout (the type's, else the lowering's
//! default layout, `tilus_passes::lower::tiles::default_layout`), and each thread computes only
//! the elements it holds. So a per-thread scalar that enters a tile (`register_tensor
//! init(%thread_id)`, a lane-dependent offset of `load_global`) gives each element the value
//! its holder thread computes, and a store writes each element at the holder's offset, from
//! replica 0 of a replicated layout only (as the lowering predicates it). An element held by
//! several threads that compute different values for it has no single meaning at tile
//! granularity: that is reported at the op where the value entered the tile.
//!
//! The same ownership lets a unit that holds only part of its group (the others still blocked
//! behind a wait that only they perform) store its own elements now, as its threads do on the
//! GPU, instead of waiting for the rest of the group.

use super::*;
use tilus_dialects::layout_algebra::RegisterLayout;

/// Values of per-thread offsets and the threads that have them.
type OffsetClass = (Vec<i64>, Vec<u32>);

/// Row-major multi-index of flat element `i` of `shape`.
fn unflatten(mut i: i64, shape: &[i64]) -> Vec<i64> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        let s = shape[d].max(1);
        idx[d] = i % s;
        i /= s;
    }
    idx
}

impl Machine<'_> {
    /// The register layout `v` has on the GPU in unit `ui`'s group.
    pub(super) fn tile_layout(
        &self,
        ui: usize,
        v: Value,
        op: OpId,
    ) -> Result<RegisterLayout, Diagnostic> {
        let tt = self.tensor_type(v, op)?;
        if let Some(l) = tt.register_layout() {
            return Ok(l);
        }
        let (_, size) = self.units[ui].group();
        tilus_passes::lower::tiles::default_layout(&tt.shape, tt.dtype.bits(), size)
            .map_err(|e| self.err(op, e))
    }

    /// For each element of a tile of `layout` (row-major), the block indices of the unit's
    /// threads that hold it (the first is replica 0 when the unit holds it).
    fn holders_in_unit(&self, ui: usize, layout: &RegisterLayout) -> Vec<Vec<u32>> {
        let u = &self.units[ui];
        let (gb, _) = u.group();
        let n = layout.num_elements();
        (0..n)
            .map(|i| {
                let idx = unflatten(i, &layout.shape);
                let (ts, _) = layout.holders(&idx);
                ts.into_iter()
                    .map(|t| (gb + t) as u32)
                    .filter(|t| u.threads.binary_search(t).is_ok())
                    .collect()
            })
            .collect()
    }

    /// Whether the unit holds every thread of its group (the tile-granular fast path).
    pub(super) fn whole_group(&self, ui: usize) -> bool {
        let u = &self.units[ui];
        u.threads.len() as i64 == u.group().1
    }

    /// A tile whose element `i` is `value(t, i)` of its holder thread `t`, for a layout that
    /// spreads per-thread values; an element whose holders disagree is reported at `op`.
    pub(super) fn per_thread_tile(
        &self,
        ui: usize,
        op: OpId,
        result: Value,
        value: impl Fn(u32, usize) -> f64,
    ) -> Result<Tensor, Diagnostic> {
        let tt = self.tensor_type(result, op)?;
        let layout = self.tile_layout(ui, result, op)?;
        if layout.shape != tt.shape {
            return Err(self.err(op, "the register layout's shape differs from the tile's"));
        }
        let mut t = Tensor::zeros(tt.dtype, &tt.shape);
        for (i, hs) in self.holders_in_unit(ui, &layout).into_iter().enumerate() {
            let Some(&h0) = hs.first() else { continue };
            let v = value(h0, i);
            if let Some(&h) = hs.iter().find(|&&h| value(h, i).to_bits() != v.to_bits()) {
                let idx = unflatten(i as i64, &tt.shape);
                return Err(self
                    .err(
                        op,
                        format!(
                            "'{}' puts per-thread values in a tile whose layout ({layout}) gives element {idx:?} to several threads, and they compute different values for it (thread {h0}: {v}, thread {h}: {}); the element has no single value",
                            self.name(op),
                            value(h, i)
                        ),
                    )
                    .with_help("give the tile a layout that holds each element in one thread (layout = spatial(...) * local(...)), or keep the value uniform across the threads"));
            }
            t.data[i] = crate::tensor::round_to(tt.dtype, v);
        }
        Ok(t)
    }

    /// The distinct values per thread of the `offsets` operands, with the threads of the unit
    /// that have each.
    pub(super) fn offset_classes(&self, ui: usize, offsets: &[Value]) -> Vec<OffsetClass> {
        let vals: Vec<Val> = offsets.iter().map(|&v| self.get(ui, v)).collect();
        let threads = &self.units[ui].threads;
        if !vals.iter().any(|v| matches!(v, Val::PT(_))) {
            // Uniform offsets (the common case): one class, without a pass over the threads.
            let k = vals
                .iter()
                .map(|v| v.scalar_at(0).map_or(0, |s| s.as_i64()))
                .collect();
            return if threads.is_empty() {
                Vec::new()
            } else {
                vec![(k, threads.clone())]
            };
        }
        let mut classes: Vec<OffsetClass> = Vec::new();
        for &t in &self.units[ui].threads {
            let k: Vec<i64> = vals
                .iter()
                .map(|v| v.scalar_at(t).map_or(0, |s| s.as_i64()))
                .collect();
            match classes.iter_mut().find(|(c, _)| *c == k) {
                Some((_, ts)) => ts.push(t),
                None => classes.push((k, vec![t])),
            }
        }
        classes
    }

    /// `load_global` where the offsets differ between threads: each thread reads its own
    /// elements at its own offsets.
    pub(super) fn load_global_per_thread(
        &self,
        ui: usize,
        op: OpId,
        view: &GlobalView,
        offsets: &[Value],
        result: Value,
    ) -> Result<Tensor, Diagnostic> {
        let shape = self.tensor_type(result, op)?.shape;
        let classes = self.offset_classes(ui, offsets);
        let mut boxes: Vec<(Vec<u32>, Tensor)> = Vec::new();
        for (offs, ts) in classes {
            let t = self
                .mem
                .load_box(view, &offs, &shape)
                .map_err(|e| self.mem_err(op, e))?;
            boxes.push((ts, t));
        }
        self.per_thread_tile(ui, op, result, |t, i| {
            boxes
                .iter()
                .find(|(ts, _)| ts.contains(&t))
                .map_or(0.0, |(_, b)| b.data[i])
        })
    }

    /// `store_global` by a unit that holds only part of its group, or with offsets that differ
    /// between threads: each element is written by replica 0 of its holders, at that thread's
    /// offsets, when the unit holds that thread (a read-modify-write of the box per offset
    /// class, which the sequential interpreter makes exact).
    pub(super) fn store_global_per_thread(
        &mut self,
        ui: usize,
        op: OpId,
        view: &GlobalView,
        offsets: &[Value],
        value: Value,
        t: &Tensor,
    ) -> Result<(), Diagnostic> {
        let layout = self.tile_layout(ui, value, op)?;
        if layout.shape != t.shape {
            return Err(self.err(op, "the register layout's shape differs from the tile's"));
        }
        let writer: Vec<Option<u32>> = (0..layout.num_elements())
            .map(|i| {
                let (ts, _) = layout.holders(&unflatten(i, &layout.shape));
                let gb = self.units[ui].group().0;
                let h0 = (gb + ts[0]) as u32;
                self.units[ui].threads.binary_search(&h0).ok().map(|_| h0)
            })
            .collect();
        for (offs, ts) in self.offset_classes(ui, offsets) {
            let mine: Vec<usize> = (0..writer.len())
                .filter(|&i| writer[i].is_some_and(|w| ts.contains(&w)))
                .collect();
            if mine.is_empty() {
                continue;
            }
            let mut cur = self
                .mem
                .load_box(view, &offs, &t.shape)
                .map_err(|e| self.mem_err(op, e))?;
            for i in mine {
                cur.data[i] = t.data[i];
            }
            self.mem
                .store_box(view, &offs, &cur)
                .map_err(|e| self.mem_err(op, e))?;
        }
        Ok(())
    }

    /// `store_shared` by a unit that holds only part of its group: its threads write the
    /// elements they hold (replica 0), the rest of the tensor keeps its bytes.
    pub(super) fn store_shared_partial(
        &mut self,
        ui: usize,
        op: OpId,
        view: &SharedView,
        value: Value,
        t: &Tensor,
    ) -> Result<(), Diagnostic> {
        let layout = self.tile_layout(ui, value, op)?;
        if layout.shape != t.shape {
            return Err(self.err(op, "the register layout's shape differs from the tile's"));
        }
        let cta = self.units[ui].cta;
        let gb = self.units[ui].group().0;
        let mut cur = self.ctas[cta]
            .smem
            .read(view)
            .map_err(|e| self.mem_err(op, e))?;
        for i in 0..layout.num_elements() {
            let (ts, _) = layout.holders(&unflatten(i, &layout.shape));
            let h0 = (gb + ts[0]) as u32;
            if self.units[ui].threads.binary_search(&h0).is_ok() {
                cur.data[i as usize] = t.data[i as usize];
            }
        }
        self.ctas[cta]
            .smem
            .write(view, &cur)
            .map_err(|e| self.mem_err(op, e))
    }

    /// For a group-wide op that a unit holding part of its group reaches (shared allocation
    /// and free: the GPU resolves them when compiling, so no thread waits at them): the result
    /// a sibling unit already produced at this op and position, if any. Records that the
    /// unit's threads have passed; the entry goes once the whole group has.
    pub(super) fn group_op_done(&mut self, ui: usize, op: OpId) -> Option<Val> {
        let u = &self.units[ui];
        let key = (op, super::super::machine::pos_key(&u.frames));
        let (n, size, cta) = (u.threads.len(), u.group().1 as usize, u.cta);
        let map = &mut self.ctas[cta].group_ops;
        let e = map.get_mut(&key)?;
        e.1 += n;
        let v = e.0.clone();
        if e.1 >= size {
            map.remove(&key);
        }
        Some(v)
    }

    /// Records that unit `ui` performed a group-wide op for its whole group (see
    /// [`Machine::group_op_done`]), with its result.
    pub(super) fn group_op_record(&mut self, ui: usize, op: OpId, v: Val) {
        if self.whole_group(ui) {
            return;
        }
        let u = &self.units[ui];
        let key = (op, super::super::machine::pos_key(&u.frames));
        let (n, cta) = (u.threads.len(), u.cta);
        self.ctas[cta].group_ops.insert(key, (v, n));
    }
}
