//! `tcgen05`: tensor memory and Blackwell MMA.

use super::*;
use tilus_dialects::tcgen05::Tcgen05OpKind as K;

impl Machine<'_> {
    pub(super) fn exec_tcgen05(&mut self, ui: usize, op: OpId, k: K) -> Result<Flow, Diagnostic> {
        let ctx = self.ctx;
        let cta = self.units[ui].cta;
        if tilus_dialects::tcgen05::cta_group(self.ctx, op) == 2 {
            return Err(self.err(
                op,
                format!(
                    "the interpreter does not support '{}' with cta_group(2) yet",
                    self.name(op)
                ),
            ));
        }
        match k {
            K::RelinquishAllocPermit(_)
            | K::FenceBeforeThreadSync(_)
            | K::FenceAfterThreadSync(_)
            | K::WaitSt(_) => {}
            K::Alloc(al) => {
                let tt = self.tensor_type(al.tensor(ctx), op)?;
                let ncols = tilus_dialects::tcgen05::alloc_columns(&tt);
                let layout = TmemLayout::row_major(&tt.shape).map_err(|e| self.err(op, e))?;
                let free = self.ctas[cta].tmem.free_columns();
                let col = self.ctas[cta].tmem.alloc(ncols, op).ok_or_else(|| {
                    self.err(
                        op,
                        format!("tcgen05.alloc of {ncols} columns: only {free} of 512 columns are free (a real GPU would wait forever)"),
                    )
                })?;
                let v = TmemVal {
                    alloc_col: col,
                    base_col: col,
                    layout,
                    dtype: tt.dtype,
                };
                self.set(ui, al.tensor(ctx), Val::Tmem(Rc::new(v)));
            }
            K::Dealloc(d) => {
                let t = self.tmem_val(ui, d.tensor(ctx), op)?;
                self.check_tmem_read(cta, &t, op, (cta, &self.units[ui].threads))?;
                if t.base_col != t.alloc_col || !self.ctas[cta].tmem.free(t.alloc_col) {
                    return Err(self.err(
                        op,
                        "tcgen05.dealloc of a tensor that is not a live allocation (a slice, or freed twice)",
                    ));
                }
            }
            K::Mma(_) | K::Cp(_) | K::Commit(_) => {
                let Some(leader) = self.leader(ui) else {
                    return Ok(Flow::Next);
                };
                let queue = Some(QueueKey::Tc05(cta, leader));
                let a = match k {
                    K::Mma(m) => {
                        let av = self.get(ui, m.a(ctx));
                        let a = match &av {
                            Val::Shared(s) => MmaOperand::Shared(s.view.clone()),
                            Val::Tmem(t) => MmaOperand::Tmem((**t).clone()),
                            other => {
                                return Err(self.err(
                                    op,
                                    format!(
                                        "expected a shared or tensor-memory operand, found {}",
                                        describe_val(other)
                                    ),
                                ))
                            }
                        };
                        let b = self.shared(ui, m.b(ctx), op)?;
                        let d = self.tmem_val(ui, m.d(ctx), op)?;
                        let enable = self.int(ui, m.enable_input_d(ctx), op)? & 1 == 1;
                        let mut reads = Vec::new();
                        if let MmaOperand::Shared(v) = &a {
                            reads.push((cta, SharedMemory::byte_range(v)));
                        }
                        reads.push((cta, SharedMemory::byte_range(&b.view)));
                        for (_, r) in &reads {
                            self.check_smem_read(cta, r, op, (cta, &[leader]))?;
                        }
                        let (l, c) = Tmem::footprint(&d);
                        AsyncOp {
                            id: 0,
                            op,
                            cta,
                            due: 0,
                            queue,
                            smem_reads: reads,
                            smem_writes: Vec::new(),
                            tmem_writes: vec![(cta, l, c)],
                            kind: AsyncKind::TcMma {
                                a,
                                b: b.view.clone(),
                                d: (*d).clone(),
                                enable,
                            },
                        }
                    }
                    K::Cp(c) => {
                        let s = self.shared(ui, c.source(ctx), op)?;
                        let d = self.tmem_val(ui, c.tensor(ctx), op)?;
                        let r = SharedMemory::byte_range(&s.view);
                        self.check_smem_read(cta, &r, op, (cta, &[leader]))?;
                        let (l, c) = Tmem::footprint(&d);
                        AsyncOp {
                            id: 0,
                            op,
                            cta,
                            due: 0,
                            queue,
                            smem_reads: vec![(cta, r)],
                            smem_writes: Vec::new(),
                            tmem_writes: vec![(cta, l, c)],
                            kind: AsyncKind::TcCp {
                                src: s.view.clone(),
                                dst: (*d).clone(),
                            },
                        }
                    }
                    K::Commit(c) => {
                        let (first, n, _) = self.bars(ui, c.barriers(ctx), op)?;
                        let idx = self.int(ui, c.index(ctx), op)?;
                        let bar = self.bar_index(first, n, idx, op)?;
                        let bars = match c.multicast_mask(ctx) {
                            Some(m) => {
                                let m = self.int(ui, m, op)?;
                                let mut v = Vec::new();
                                for r in 0..16 {
                                    if m >> r & 1 == 1 {
                                        v.push((self.cta_of_rank(r, op)?, bar));
                                    }
                                }
                                v
                            }
                            None => vec![(cta, bar)],
                        };
                        AsyncOp {
                            id: 0,
                            op,
                            cta,
                            due: 0,
                            queue,
                            smem_reads: Vec::new(),
                            smem_writes: Vec::new(),
                            tmem_writes: Vec::new(),
                            kind: AsyncKind::TcCommit {
                                bars,
                                carries: self.known_by(cta, &[leader]),
                            },
                        }
                    }
                    _ => unreachable!("matched above"),
                };
                self.issue(a);
            }
            K::Ld(ld) => {
                let t = self.tmem_val(ui, ld.tensor(ctx), op)?;
                self.check_tmem_read(cta, &t, op, (cta, &self.units[ui].threads))?;
                let x = self.ctas[cta]
                    .tmem
                    .read(&t)
                    .map_err(|e| self.err(op, format!("tcgen05.ld: {e}")))?;
                let threads = self.units[ui].threads.clone();
                self.ctas[cta].tokens.push(Token {
                    value: Some(Rc::new(x)),
                    retired: false,
                    op,
                    kind: TokenKind::TmemLd,
                    threads,
                });
                let k = self.ctas[cta].tokens.len() - 1;
                self.set(ui, ld.result(ctx), Val::Token(k));
            }
            K::St(st) => {
                let x = self.tensor(ui, st.value(ctx), op)?;
                let t = self.tmem_val(ui, st.tensor(ctx), op)?;
                self.check_tmem_read(cta, &t, op, (cta, &self.units[ui].threads))?;
                self.ctas[cta]
                    .tmem
                    .write(&t, &x)
                    .map_err(|e| self.err(op, format!("tcgen05.st: {e}")))?;
            }
            K::WaitLd(_) => {
                let threads = self.units[ui].threads.clone();
                for t in self.ctas[cta].tokens.iter_mut() {
                    if t.kind == TokenKind::TmemLd
                        && !t.retired
                        && t.threads.iter().any(|x| threads.binary_search(x).is_ok())
                    {
                        t.retired = true;
                    }
                }
            }
            K::Slice(sl) => {
                let t = self.tmem_val(ui, sl.tensor(ctx), op)?;
                let offs = self.ints(ui, sl.offsets(ctx), op)?;
                let lane = sl.lane_offset(ctx).unwrap_or(0);
                let rt = self.tensor_type(sl.result(ctx), op)?;
                let v = tmem_slice(&t, &offs, lane, &rt.shape).map_err(|e| self.err(op, e))?;
                self.set(ui, sl.result(ctx), Val::Tmem(Rc::new(v)));
            }
            K::View(vw) => {
                let t = self.tmem_val(ui, vw.tensor(ctx), op)?;
                let rt = self.tensor_type(vw.result(ctx), op)?;
                let mut layout = TmemLayout::row_major(&rt.shape).map_err(|e| self.err(op, e))?;
                layout.lane_offset = t.layout.lane_offset;
                let v = TmemVal {
                    alloc_col: t.alloc_col,
                    base_col: t.base_col,
                    layout,
                    dtype: rt.dtype,
                };
                self.set(ui, vw.result(ctx), Val::Tmem(Rc::new(v)));
            }
        }
        Ok(Flow::Next)
    }
}

/// `tcgen05.slice`: the box at `offs` (one per column dim of `t`) with the result's shape.
fn tmem_slice(t: &TmemVal, offs: &[i64], lane: i64, rshape: &[i64]) -> Result<TmemVal, String> {
    let src = &t.layout.shape;
    let n = src.len() - 1;
    if offs.len() != n || rshape.len() < 2 || rshape.len() - 1 > n {
        return Err(format!(
            "tcgen05.slice: {} offsets for {n} column dims, result rank {}",
            offs.len(),
            rshape.len()
        ));
    }
    let m = rshape.len() - 1;
    let mut full_shape = vec![rshape[0]];
    full_shape.extend(std::iter::repeat_n(1, n - m));
    full_shape.extend_from_slice(&rshape[1..]);
    let mut full_off = vec![lane];
    full_off.extend_from_slice(offs);
    for k in 0..src.len() {
        if full_off[k] < 0 || full_off[k] + full_shape[k] > src[k] {
            return Err(format!(
                "out-of-bounds tensor-memory access: the slice [{}, {}) of dimension {k} is outside [0, {})",
                full_off[k],
                full_off[k] + full_shape[k],
                src[k]
            ));
        }
    }
    let elems: i64 = full_off
        .iter()
        .zip(&t.layout.column_strides)
        .skip(1)
        .map(|(&o, &s)| o * s)
        .sum();
    if (elems * t.dtype.bits() as i64) % 32 != 0 {
        return Err("tcgen05.slice origin is not on a 32-bit column".into());
    }
    let (mut lay, dcol) = t.layout.slice(&full_off, &full_shape, t.dtype.bits());
    let mut shape = vec![lay.shape[0]];
    shape.extend_from_slice(&lay.shape[1 + n - m..]);
    let mut strides = vec![lay.column_strides[0]];
    strides.extend_from_slice(&lay.column_strides[1 + n - m..]);
    lay.shape = shape;
    lay.column_strides = strides;
    Ok(TmemVal {
        alloc_col: t.alloc_col,
        base_col: t.base_col + dcol,
        layout: lay,
        dtype: t.dtype,
    })
}
