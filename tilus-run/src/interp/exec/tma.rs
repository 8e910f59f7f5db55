//! `tma`: bulk tensor copies and their fences.

use super::*;
use crate::interp::asyncops::GroupOwner;
use tilus_dialects::tma::TmaOpKind as K;

impl Machine<'_> {
    /// The box a TMA copy moves: the view's rank, with the shared tile's extents on `dims`.
    pub(super) fn tma_box(
        &self,
        op: OpId,
        dims: Option<tilus_ir::Attr>,
        view: &GlobalView,
        tile: &[i64],
        offsets: &[i64],
    ) -> Result<Vec<i64>, Diagnostic> {
        let dims: Vec<usize> = match dims.and_then(|a| attr_i64s(self.ctx, a)) {
            Some(d) => d.into_iter().map(|x| x as usize).collect(),
            None => (0..view.shape.len()).collect(),
        };
        if offsets.len() != view.shape.len() || dims.len() != tile.len() {
            return Err(self.err(
                op,
                format!(
                    "TMA box: {} offsets for a view of rank {}, and {} box dims for a tile of rank {}",
                    offsets.len(),
                    view.shape.len(),
                    dims.len(),
                    tile.len()
                ),
            ));
        }
        let mut full = vec![1i64; view.shape.len()];
        for (i, &d) in dims.iter().enumerate() {
            if d >= full.len() {
                return Err(self.err(op, format!("TMA dims entry {d} is outside the view's rank")));
            }
            full[d] = tile[i];
        }
        Ok(full)
    }

    pub(super) fn exec_tma(&mut self, ui: usize, op: OpId, k: K) -> Result<Flow, Diagnostic> {
        let ctx = self.ctx;
        let cta = self.units[ui].cta;
        if let K::FenceProxyAsync(_) | K::FenceProxyAsyncRelease(_) = k {
            // Proxy fences order nothing the interpreter's single memory model can reorder.
            return Ok(Flow::Next);
        }
        let Some(leader) = self.leader(ui) else {
            // Only the leader lane issues and tracks groups.
            return Ok(Flow::Next);
        };
        let owner = GroupOwner::Thread(leader);
        match k {
            K::GlobalToShared(c) => {
                let src = self.global(ui, c.src(ctx), op)?;
                let offs = self.ints(ui, c.offsets(ctx), op)?;
                let dst = self.shared(ui, c.dst(ctx), op)?;
                let (first, n, _) = self.bars(ui, c.barriers(ctx), op)?;
                let idx = self.int(ui, c.barrier_index(ctx), op)?;
                let mask = match c.multicast_mask(ctx) {
                    Some(m) => Some(self.int(ui, m, op)?),
                    None => None,
                };
                let bar = self.bar_index(first, n, idx, op)?;
                let tile = dst.view.layout.shape.clone();
                let full = self.tma_box(op, c.dims(ctx), &src, &tile, &offs)?;
                let t = self
                    .mem
                    .load_box(&src, &offs, &full)
                    .map_err(|e| self.mem_err(op, e))?;
                let data = Tensor {
                    dtype: t.dtype,
                    shape: tile.clone(),
                    data: t.data,
                };
                let bytes = (tile.iter().product::<i64>() * dst.view.dtype.bits() as i64 + 7) / 8;
                let ctas: Vec<usize> = match mask {
                    Some(m) => {
                        let mut v = Vec::new();
                        for r in 0..16 {
                            if m >> r & 1 == 1 {
                                v.push(self.cta_of_rank(r, op)?);
                            }
                        }
                        v
                    }
                    None => vec![cta],
                };
                let cta_group = c.cta_group(ctx).unwrap_or(1);
                let bars: Vec<(usize, usize)> = ctas
                    .iter()
                    .map(|&c| {
                        (
                            if cta_group == 2 && mask.is_none() {
                                c & !1
                            } else {
                                c
                            },
                            bar,
                        )
                    })
                    .collect();
                let r = SharedMemory::byte_range(&dst.view);
                for &c in &ctas {
                    self.check_smem_write(c, &r, op, (cta, &[leader]))?;
                }
                let a = AsyncOp {
                    id: 0,
                    op,
                    cta,
                    due: 0,
                    queue: None,
                    smem_reads: Vec::new(),
                    smem_writes: ctas.iter().map(|&c| (c, r.clone())).collect(),
                    tmem_writes: Vec::new(),
                    kind: AsyncKind::TmaLoad {
                        data: Rc::new(data),
                        dst: dst.view.clone(),
                        ctas,
                        bars,
                        bytes,
                    },
                };
                self.issue(a);
            }
            K::SharedToGlobal(c) => {
                let src = self.shared(ui, c.src(ctx), op)?;
                let dst = self.global(ui, c.dst(ctx), op)?;
                let offs = self.ints(ui, c.offsets(ctx), op)?;
                let tile = src.view.layout.shape.clone();
                let full = self.tma_box(op, c.dims(ctx), &dst, &tile, &offs)?;
                let r = SharedMemory::byte_range(&src.view);
                self.check_smem_read(cta, &r, op, (cta, &[leader]))?;
                let a = AsyncOp {
                    id: 0,
                    op,
                    cta,
                    due: 0,
                    queue: Some(QueueKey::Bulk(cta, leader)),
                    smem_reads: vec![(cta, r)],
                    smem_writes: Vec::new(),
                    tmem_writes: Vec::new(),
                    kind: AsyncKind::TmaStore {
                        src: src.view.clone(),
                        dst: (*dst).clone(),
                        offsets: offs,
                        shape: full,
                    },
                };
                let id = self.issue(a);
                self.join_group(cta, owner, id, None);
            }
            K::CommitGroup(_) => self.commit_group(cta, owner),
            K::WaitGroup(w) => {
                let n = w.n(ctx).max(0) as usize;
                return Ok(self.wait_group(op, cta, owner, n, &[leader]));
            }
            K::FenceProxyAsync(_) | K::FenceProxyAsyncRelease(_) => {}
        }
        Ok(Flow::Next)
    }
}
