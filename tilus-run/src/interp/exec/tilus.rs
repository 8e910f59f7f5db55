//! `tilus`: ids, views, tiles, compute and semaphores.

use super::*;
use tilus_dialects::tilus::{ComparisonPredicate, GridDimension, ReductionKind, TilusOpKind as K};

impl Machine<'_> {
    pub(super) fn mem_err(&self, op: OpId, e: crate::memory::MemError) -> Diagnostic {
        self.err(op, format!("'{}': {e}", self.name(op)))
    }

    pub(super) fn exec_tilus(&mut self, ui: usize, op: OpId, k: K) -> Result<Flow, Diagnostic> {
        let ctx = self.ctx;
        let cta = self.units[ui].cta;
        match k {
            K::BlockId(b) => {
                let d = grid_index(b.dim(ctx));
                self.set(ui, b.result(ctx), Val::S(Sc::I(self.ctas[cta].block[d])));
            }
            K::NumBlocks(n) => {
                let d = grid_index(n.dim(ctx));
                self.set(ui, n.result(ctx), Val::S(Sc::I(self.grid[d])));
            }
            K::ThreadId(h) => {
                let (b, _) = self.units[ui].group();
                let v = self.per_thread(ui, |t| Sc::I(t as i64 - b));
                self.set(ui, h.result(ctx), v);
            }
            K::WarpId(h) => {
                let (b, _) = self.units[ui].group();
                let v = self.per_thread(ui, |t| Sc::I((t as i64 - b) / 32));
                self.set(ui, h.result(ctx), v);
            }
            K::LaneId(h) => {
                let v = self.per_thread(ui, |t| Sc::I(t as i64 % 32));
                self.set(ui, h.result(ctx), v);
            }
            K::GlobalView(gv) => {
                let buf = match self.get(ui, gv.ptr(ctx)) {
                    Val::Ptr(b) => b,
                    other => {
                        return Err(self.err(
                            op,
                            format!(
                                "expected a pointer parameter, found {}",
                                describe_val(&other)
                            ),
                        ))
                    }
                };
                let tt = self.tensor_type(gv.result(ctx), op)?;
                let extents = self.ints(ui, gv.extents(ctx), op)?;
                let strides = self.ints(ui, gv.strides(ctx), op)?;
                let view = build_view(&tt, buf, &extents, &strides).map_err(|e| self.err(op, e))?;
                self.set(ui, gv.result(ctx), Val::Global(Rc::new(view)));
            }
            K::SharedTensor(st) => {
                if let Some(v) = self.group_op_done(ui, op) {
                    self.set(ui, st.result(ctx), v);
                    return Ok(Flow::Next);
                }
                let tt = self.tensor_type(st.result(ctx), op)?;
                let layout = tt.shared_layout().map_err(|e| self.err(op, e))?;
                let bytes = (layout.footprint() * tt.dtype.bits() as i64 + 7) / 8;
                let align = match tt.swizzle {
                    SwizzleMode::None => 128,
                    m => m.repeat_bytes().max(128),
                };
                let base = self.ctas[cta]
                    .smem
                    .alloc(bytes, align)
                    .map_err(|e| self.mem_err(op, e))?;
                self.ctas[cta].shared_allocs.push((base, bytes, op));
                let view = SharedView {
                    base,
                    dtype: tt.dtype,
                    layout,
                };
                let v = Val::Shared(Rc::new(SharedVal {
                    view,
                    alloc_base: base,
                }));
                self.group_op_record(ui, op, v.clone());
                self.set(ui, st.result(ctx), v);
            }
            K::FreeShared(f) => {
                if self.group_op_done(ui, op).is_some() {
                    return Ok(Flow::Next);
                }
                let s = self.shared(ui, f.tensor(ctx), op)?;
                let Some(pos) = self.ctas[cta]
                    .shared_allocs
                    .iter()
                    .position(|a| a.0 == s.alloc_base)
                else {
                    return Err(self.err(
                        op,
                        "tilus.free_shared of a tensor that is not allocated (freed twice?)",
                    ));
                };
                let (base, bytes, _) = self.ctas[cta].shared_allocs[pos];
                let r = base..base + bytes;
                self.check_smem_write(cta, &r, op, (cta, &self.units[ui].threads))?;
                self.ctas[cta].shared_allocs.remove(pos);
                self.ctas[cta].smem.free(base);
                self.group_op_record(ui, op, Val::Undef);
            }
            K::RegisterTensor(rt) => {
                let tt = self.tensor_type(rt.result(ctx), op)?;
                let t = match rt.init(ctx) {
                    Some(v) if matches!(self.get(ui, v), Val::PT(_)) => {
                        let x = self.get(ui, v);
                        self.per_thread_tile(ui, op, rt.result(ctx), |t, _| {
                            x.scalar_at(t).map_or(0.0, |s| s.as_f64())
                        })?
                    }
                    Some(v) => {
                        let x = self.scalar(ui, v, op)?;
                        Tensor::full(tt.dtype, &tt.shape, x.as_f64())
                    }
                    None => Tensor::zeros(tt.dtype, &tt.shape),
                };
                self.set(ui, rt.result(ctx), Val::Tensor(Rc::new(t)));
            }
            K::LoadGlobal(l) => {
                let g = self.global(ui, l.src(ctx), op)?;
                let t = if self.offset_classes(ui, l.offsets(ctx)).len() > 1 {
                    self.load_global_per_thread(ui, op, &g, l.offsets(ctx), l.result(ctx))?
                } else {
                    let offs = self.ints(ui, l.offsets(ctx), op)?;
                    let tt = self.tensor_type(l.result(ctx), op)?;
                    self.mem
                        .load_box(&g, &offs, &tt.shape)
                        .map_err(|e| self.mem_err(op, e))?
                };
                self.set(ui, l.result(ctx), Val::Tensor(Rc::new(t)));
            }
            K::StoreGlobal(st) => {
                let t = self.tensor(ui, st.value(ctx), op)?;
                let g = self.global(ui, st.dst(ctx), op)?;
                if !self.whole_group(ui) || self.offset_classes(ui, st.offsets(ctx)).len() > 1 {
                    self.store_global_per_thread(ui, op, &g, st.offsets(ctx), st.value(ctx), &t)?;
                } else {
                    let offs = self.ints(ui, st.offsets(ctx), op)?;
                    self.mem
                        .store_box(&g, &offs, &t)
                        .map_err(|e| self.mem_err(op, e))?;
                }
            }
            K::LoadShared(l) => {
                let s = self.shared(ui, l.src(ctx), op)?;
                let r = SharedMemory::byte_range(&s.view);
                self.check_smem_read(cta, &r, op, (cta, &self.units[ui].threads))?;
                let mut t = self.ctas[cta]
                    .smem
                    .read(&s.view)
                    .map_err(|e| self.mem_err(op, e))?;
                // A shared view that splits the result's dimensions (the verifier's
                // refinement) holds the same elements in the same row-major order.
                if let Some(rt) = TensorType::of(ctx, ctx.value_type(l.result(ctx))) {
                    if rt.shape != t.shape {
                        t.shape = rt.shape;
                    }
                }
                self.set(ui, l.result(ctx), Val::Tensor(Rc::new(t)));
            }
            K::StoreShared(st) => {
                let t = self.tensor(ui, st.value(ctx), op)?;
                let s = self.shared(ui, st.dst(ctx), op)?;
                let r = SharedMemory::byte_range(&s.view);
                self.check_smem_write(cta, &r, op, (cta, &self.units[ui].threads))?;
                if self.whole_group(ui) {
                    // Into a view that splits the value's dimensions: the same row-major order.
                    self.ctas[cta]
                        .smem
                        .write_row_major(&s.view, &t)
                        .map_err(|e| self.mem_err(op, e))?;
                } else {
                    self.store_shared_partial(ui, op, &s.view, st.value(ctx), &t)?;
                }
            }
            K::SliceShared(sl) => {
                let s = self.shared(ui, sl.src(ctx), op)?;
                let idx = self.ints(ui, sl.indices(ctx), op)?;
                let l = &s.view.layout;
                let k = idx.len();
                if k == 0 || k >= l.rank() {
                    return Err(self.err(op, "slice_shared needs 1 to rank-1 indices"));
                }
                let mut base = l.base;
                for (d, &i) in idx.iter().enumerate() {
                    if i < 0 || i >= l.shape[d] {
                        return Err(self.err(
                            op,
                            format!(
                                "out-of-bounds shared access: index {i} of dimension {d} is outside [0, {}) in tilus.slice_shared",
                                l.shape[d]
                            ),
                        ));
                    }
                    base += i * l.strides[d];
                }
                let layout = SharedLayout {
                    shape: l.shape[k..].to_vec(),
                    strides: l.strides[k..].to_vec(),
                    swizzle: l.swizzle,
                    base,
                };
                let v = SharedVal {
                    view: SharedView {
                        base: s.view.base,
                        dtype: s.view.dtype,
                        layout,
                    },
                    alloc_base: s.alloc_base,
                };
                self.set(ui, sl.result(ctx), Val::Shared(Rc::new(v)));
            }
            K::PermuteShared(ps) => {
                let s = self.shared(ui, ps.src(ctx), op)?;
                let perm: Vec<usize> = attr_i64s(ctx, ps.perm(ctx))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|x| x as usize)
                    .collect();
                let mut v = (*s).clone();
                v.view.layout = s.view.layout.permute(&perm);
                self.set(ui, ps.result(ctx), Val::Shared(Rc::new(v)));
            }
            K::ReshapeShared(rs) => {
                // The verifier checked that source and result are row-major with the same
                // element count: the view keeps the base and swizzle, with row-major strides.
                let s = self.shared(ui, rs.src(ctx), op)?;
                let rt = self.tensor_type(rs.result(ctx), op)?;
                let mut v = (*s).clone();
                let row_major = SharedLayout::row_major(&rt.shape);
                v.view.layout.shape = row_major.shape;
                v.view.layout.strides = row_major.strides;
                self.set(ui, rs.result(ctx), Val::Shared(Rc::new(v)));
            }
            K::SliceRegister(h) => {
                let t = self.tensor(ui, h.src(ctx), op)?;
                let rt = self.tensor_type(h.result(ctx), op)?;
                let r = tensor::slice(&t, &h.offset_values(ctx), &rt.shape);
                self.set(ui, h.result(ctx), Val::Tensor(Rc::new(r)));
            }
            K::Cast(c) => {
                let t = self.tensor(ui, c.x(ctx), op)?;
                let tt = self.tensor_type(c.result(ctx), op)?;
                let r = tensor::cast(&t, tt.dtype);
                self.set(ui, c.result(ctx), Val::Tensor(Rc::new(r)));
            }
            K::Add(_)
            | K::Sub(_)
            | K::Mul(_)
            | K::Div(_)
            | K::Mod(_)
            | K::Maximum(_)
            | K::Minimum(_) => {
                let (kind, lhs, rhs, res) = match k {
                    K::Add(h) => (BinOp::Add, h.lhs(ctx), h.rhs(ctx), h.result(ctx)),
                    K::Sub(h) => (BinOp::Sub, h.lhs(ctx), h.rhs(ctx), h.result(ctx)),
                    K::Mul(h) => (BinOp::Mul, h.lhs(ctx), h.rhs(ctx), h.result(ctx)),
                    K::Div(h) => (BinOp::Div, h.lhs(ctx), h.rhs(ctx), h.result(ctx)),
                    K::Mod(h) => (BinOp::Mod, h.lhs(ctx), h.rhs(ctx), h.result(ctx)),
                    K::Maximum(h) => (BinOp::Max, h.lhs(ctx), h.rhs(ctx), h.result(ctx)),
                    K::Minimum(h) => (BinOp::Min, h.lhs(ctx), h.rhs(ctx), h.result(ctx)),
                    _ => unreachable!("matched above"),
                };
                let a = self.tensor(ui, lhs, op)?;
                let b = self.tensor(ui, rhs, op)?;
                let r = tensor::binary(kind, &a, &b).map_err(|e| self.err(op, e))?;
                self.set(ui, res, Val::Tensor(Rc::new(r)));
            }
            K::Cmp(c) => {
                let a = self.tensor(ui, c.lhs(ctx), op)?;
                let b = self.tensor(ui, c.rhs(ctx), op)?;
                let kind = match c.predicate(ctx) {
                    ComparisonPredicate::Eq => CmpOp::Eq,
                    ComparisonPredicate::Ne => CmpOp::Ne,
                    ComparisonPredicate::Lt => CmpOp::Lt,
                    ComparisonPredicate::Le => CmpOp::Le,
                    ComparisonPredicate::Gt => CmpOp::Gt,
                    ComparisonPredicate::Ge => CmpOp::Ge,
                };
                let r = tensor::compare(kind, &a, &b).map_err(|e| self.err(op, e))?;
                self.set(ui, c.result(ctx), Val::Tensor(Rc::new(r)));
            }
            K::Exp(_)
            | K::Exp2(_)
            | K::Log(_)
            | K::Sqrt(_)
            | K::Rsqrt(_)
            | K::Tanh(_)
            | K::Neg(_)
            | K::Abs(_) => {
                let (kind, x, res) = match k {
                    K::Exp(h) => (UnOp::Exp, h.x(ctx), h.result(ctx)),
                    K::Exp2(h) => (UnOp::Exp2, h.x(ctx), h.result(ctx)),
                    K::Log(h) => (UnOp::Log, h.x(ctx), h.result(ctx)),
                    K::Sqrt(h) => (UnOp::Sqrt, h.x(ctx), h.result(ctx)),
                    K::Rsqrt(h) => (UnOp::Rsqrt, h.x(ctx), h.result(ctx)),
                    K::Tanh(h) => (UnOp::Tanh, h.x(ctx), h.result(ctx)),
                    K::Neg(h) => (UnOp::Neg, h.x(ctx), h.result(ctx)),
                    K::Abs(h) => (UnOp::Abs, h.x(ctx), h.result(ctx)),
                    _ => unreachable!("matched above"),
                };
                let a = self.tensor(ui, x, op)?;
                let r = tensor::unary(kind, &a).map_err(|e| self.err(op, e))?;
                self.set(ui, res, Val::Tensor(Rc::new(r)));
            }
            K::Where(w) => {
                let c = self.tensor(ui, w.cond(ctx), op)?;
                let a = self.tensor(ui, w.x(ctx), op)?;
                let b = self.tensor(ui, w.y(ctx), op)?;
                let r = tensor::select(&c, &a, &b).map_err(|e| self.err(op, e))?;
                self.set(ui, w.result(ctx), Val::Tensor(Rc::new(r)));
            }
            K::Reduce(rd) => {
                let a = self.tensor(ui, rd.x(ctx), op)?;
                let kind = match rd.kind(ctx) {
                    ReductionKind::Sum => ReduceKind::Sum,
                    ReductionKind::Max => ReduceKind::Max,
                    ReductionKind::Min => ReduceKind::Min,
                    ReductionKind::Any => ReduceKind::Any,
                    ReductionKind::All => ReduceKind::All,
                };
                let dim = rd.dim(ctx) as usize;
                let r =
                    tensor::reduce(kind, &a, dim, rd.keepdim(ctx)).map_err(|e| self.err(op, e))?;
                self.set(ui, rd.result(ctx), Val::Tensor(Rc::new(r)));
            }
            K::Dot(d) => {
                let a = self.tensor(ui, d.a(ctx), op)?;
                let b = self.tensor(ui, d.b(ctx), op)?;
                let c = self.tensor(ui, d.c(ctx), op)?;
                let tt = self.tensor_type(d.result(ctx), op)?;
                let r = tensor::matmul_acc(&a, &b, &c).map_err(|e| self.err(op, e))?;
                let r = if r.dtype == tt.dtype {
                    r
                } else {
                    tensor::cast(&r, tt.dtype)
                };
                self.set(ui, d.result(ctx), Val::Tensor(Rc::new(r)));
            }
            K::ShuffleUp(_) | K::ShuffleDown(_) => {
                let (x, delta, res, up) = match k {
                    K::ShuffleUp(h) => (h.x(ctx), h.delta(ctx), h.result(ctx), true),
                    K::ShuffleDown(h) => (h.x(ctx), h.delta(ctx), h.result(ctx), false),
                    _ => unreachable!("matched above"),
                };
                let xt = self.tensor(ui, x, op)?;
                let delta = self.int(ui, delta, op)?;
                // Without a layout in the type, the tile is shuffled in the layout the lowering
                // gives it (`infer-layouts` keeps a shuffled tile in that default layout).
                let layout = self.tile_layout(ui, x, op)?;
                let (gb, _) = self.units[ui].group();
                let r = shuffle(&xt, &layout, gb, delta, up).map_err(|e| self.err(op, e))?;
                self.set(ui, res, Val::Tensor(Rc::new(r)));
            }
            K::FastDivmod(f) => {
                let a = self.int(ui, f.a(ctx), op)?;
                let b = self.int(ui, f.b(ctx), op)?;
                if a < 0 || b <= 0 {
                    return Err(self.err(
                        op,
                        format!("tilus.fast_divmod needs a >= 0 and b > 0, found a = {a}, b = {b}"),
                    ));
                }
                self.set(ui, f.quotient(ctx), Val::S(Sc::I(a / b)));
                self.set(ui, f.remainder(ctx), Val::S(Sc::I(a % b)));
            }
            K::LockSemaphore(_) | K::ReleaseSemaphore(_) => {
                let (sem, offsets, value, release) = match k {
                    K::LockSemaphore(h) => (h.sem(ctx), h.offsets(ctx), h.value(ctx), false),
                    K::ReleaseSemaphore(h) => (h.sem(ctx), h.offsets(ctx), h.value(ctx), true),
                    _ => unreachable!("matched above"),
                };
                let g = self.global(ui, sem, op)?;
                let offs = self.ints(ui, offsets, op)?;
                let value = self.int(ui, value, op)?;
                let shape = vec![1; offs.len()];
                for (d, &o) in offs.iter().enumerate() {
                    if o < 0 || o >= g.shape[d] {
                        return Err(self.err(
                            op,
                            format!("out-of-bounds global access: semaphore index {o} of dimension {d} is outside [0, {})", g.shape[d]),
                        ));
                    }
                }
                if release {
                    let t = Tensor::full(g.dtype, &shape, value as f64);
                    self.mem
                        .store_box(&g, &offs, &t)
                        .map_err(|e| self.mem_err(op, e))?;
                } else {
                    let t = self
                        .mem
                        .load_box(&g, &offs, &shape)
                        .map_err(|e| self.mem_err(op, e))?;
                    if t.data[0] != value as f64 {
                        return Ok(Flow::Wait(Block::Sem {
                            op,
                            view: g,
                            offsets: offs,
                            value,
                        }));
                    }
                }
            }
            // The kernel op is the machine's entry, never executed as an op; a shared address
            // exists only after lowering.
            K::Kernel(_) | K::SharedAddr(_) => return Err(self.unsupported(op)),
        }
        Ok(Flow::Next)
    }
}

/// Builds a global view from its type and the `?` operands.
/// The launch-grid axis a `dim` attribute names.
fn grid_index(d: GridDimension) -> usize {
    match d {
        GridDimension::X => 0,
        GridDimension::Y => 1,
        GridDimension::Z => 2,
    }
}

/// Builds a global view from its type and the `?` operands.
pub(crate) fn build_view(
    tt: &TensorType,
    buffer: usize,
    extents: &[i64],
    strides: &[i64],
) -> Result<GlobalView, String> {
    if tt.space != Space::Global {
        return Err("expected a !tilus.global type".into());
    }
    let mut ei = extents.iter();
    let mut shape = Vec::new();
    for &d in &tt.shape {
        let v = if d == DYN {
            *ei.next().ok_or("missing an extent operand")?
        } else {
            d
        };
        if v < 0 {
            return Err(format!("negative extent {v} in tilus.global_view"));
        }
        shape.push(v);
    }
    let st = match &tt.strides {
        Some(s) => {
            let mut si = strides.iter();
            let mut out = Vec::new();
            for &x in s {
                out.push(if x == DYN {
                    *si.next().ok_or("missing a stride operand")?
                } else {
                    x
                });
            }
            out
        }
        None => {
            let mut out = vec![1i64; shape.len()];
            for k in (0..shape.len().saturating_sub(1)).rev() {
                out[k] = out[k + 1] * shape[k + 1];
            }
            out
        }
    };
    Ok(GlobalView {
        buffer,
        dtype: tt.dtype,
        shape,
        strides: st,
        offset: 0,
    })
}

/// `shuffle_up` / `shuffle_down` of a tile over the threads of its layout.
fn shuffle(
    x: &Tensor,
    layout: &tilus_dialects::layout_algebra::RegisterLayout,
    group_begin: i64,
    delta: i64,
    up: bool,
) -> Result<Tensor, String> {
    if layout.shape != x.shape {
        return Err("the layout's shape differs from the tile's".into());
    }
    let mut out = x.clone();
    let nthreads = layout.num_threads();
    let locals = layout.local_size();
    let flat = |idx: &[i64]| -> usize {
        let mut f = 0i64;
        for (i, s) in idx.iter().zip(&x.shape) {
            f = f * s + i;
        }
        f as usize
    };
    for t in 0..nthreads {
        let lane = (group_begin + t) % 32;
        let src_lane = if up { lane - delta } else { lane + delta };
        let src = if (0..32).contains(&src_lane) {
            t + (src_lane - lane)
        } else {
            t
        };
        if src < 0 || src >= nthreads {
            continue;
        }
        for l in 0..locals {
            let dst_idx = layout.coords(t, l);
            // With replication the replicas of an element may receive different lanes' values
            // (lane 3 of `replicate(8) * spatial(4)` reads lane 4, the first replica of lane
            // 0, while lane 31 keeps its own): the tile holds what replica 0, the lowest of its
            // holders, received, which is what the GPU's stores write.
            if layout.holders(&dst_idx).0.first() != Some(&t) {
                continue;
            }
            let src_idx = layout.coords(src, l);
            out.data[flat(&dst_idx)] = x.data[flat(&src_idx)];
        }
    }
    Ok(out)
}
