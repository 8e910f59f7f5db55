//! Register layouts at work: reading a tile in another layout (`gather`), thread parts of
//! coordinates, and `layout.convert` through shuffles or the shared scratch (whose layout is
//! chosen here).

use super::*;

impl Lowering {
    /// `tilus.slice_register`: the result's registers are the source registers that hold the
    /// box, in every thread the same ones (the verifier checked that the source's layout
    /// restricts to the box; a result layout written otherwise is refused here).
    pub(super) fn slice_register(&mut self, ctx: &Context, h: SliceRegisterOp) -> R<()> {
        let (src, r) = (h.src(ctx), h.result(ctx));
        let offsets = h.offset_values(ctx);
        let rt = ty_of(ctx, r).ok_or("bad type")?;
        let s = self.tile(src)?;
        let ls = s.layout.clone();
        let lt = match rt.register_layout() {
            Some(l) => l,
            None => ls.slice(&offsets, &rt.shape)?,
        };
        if let Some(v) = s.splat {
            let n = lt.local_size() as usize;
            self.set_tile(r, vec![v; n], lt, true);
            return Ok(());
        }
        if lt.num_threads() != ls.num_threads() {
            return Err(format!(
                "slice_register: the result layout spreads over {} threads, the source's over {}",
                lt.num_threads(),
                ls.num_threads()
            ));
        }
        let mut vals = Vec::with_capacity(lt.local_size() as usize);
        for l in 0..lt.local_size() {
            let mut from = None;
            for t in 0..lt.num_threads() {
                let mut c = lt.coords(t, l);
                for (x, o) in c.iter_mut().zip(&offsets) {
                    *x += o;
                }
                let (holders, sl) = ls.holders(&c);
                if !holders.contains(&t) || from.is_some_and(|f| f != sl) {
                    return Err(format!(
                        "slice_register: layout '{lt}' is not '{ls}' restricted to the box at \
                         {offsets:?} (thread {t} would need another thread's element)"
                    ));
                }
                from = Some(sl);
            }
            vals.push(s.vals[from.expect("a layout has threads") as usize]);
        }
        self.set_tile(r, vals, lt, false);
        Ok(())
    }

    /// Values of `src` (broadcast to `shape`) in the registers of layout `lt`.
    pub(super) fn gather(&self, ctx: &Context, src: Value, lt: &RegisterLayout) -> R<Vec<Value>> {
        let s = self.tile(src)?;
        let n = lt.local_size() as usize;
        if let Some(v) = s.splat {
            return Ok(vec![v; n]);
        }
        let ls = &s.layout;
        if ls.shape == lt.shape && ls.same_mapping(lt) {
            return Ok(s.vals.clone());
        }
        let threads = lt.num_threads();
        if ls.num_threads() != threads {
            return Err(format!(
                "layouts spread over different thread counts ({} vs {threads})",
                ls.num_threads()
            ));
        }
        let off = lt.rank() as isize - ls.rank() as isize;
        let mut out = Vec::with_capacity(n);
        for l in 0..n as i64 {
            let mut found: Option<i64> = None;
            for t in 0..threads {
                let c = lt.coords(t, l);
                let sidx: Vec<i64> = (0..ls.rank())
                    .map(|j| {
                        let k = j as isize + off;
                        if ls.shape[j] == 1 || k < 0 {
                            0
                        } else {
                            c[k as usize]
                        }
                    })
                    .collect();
                let (holders, sl) = ls.holders(&sidx);
                if holders.binary_search(&t).is_err() || found.is_some_and(|f| f != sl) {
                    let unwritten = ty_of(ctx, src).is_some_and(|t| t.layout.is_none());
                    if unwritten {
                        return Err("a register tensor without a layout reached lower-tiles \
                             beside one with another layout; run infer-layouts first \
                             (tilus-to-ptx runs it unless infer-layouts=false), which chooses \
                             one layout for both or inserts the layout.convert between them"
                            .to_string());
                    }
                    return Err(format!(
                        "the operand's layout '{ls}' does not give thread {t} the element \
                         {sidx:?} that register {l} of the layout '{lt}' needs; insert a \
                         layout.convert to '{lt}' (infer-layouts does this where the layouts \
                         are its own choice)"
                    ));
                }
                found = Some(sl);
            }
            out.push(s.vals[found.unwrap_or(0) as usize]);
        }
        Ok(out)
    }

    /// `tpart` of a layout: per-dim thread coordinates, and the replica digits.
    pub(super) fn tparts(
        &mut self,
        ctx: &mut Context,
        at: OpId,
        l: &RegisterLayout,
    ) -> (Vec<Value>, Vec<Value>) {
        let t = self.tid(ctx, at);
        let g = geo(l);
        let mut b = before(ctx, at);
        let zero = b.c32(0);
        let mut parts = vec![zero; l.rank()];
        let mut reps = Vec::new();
        let total = l.num_threads();
        for &(p, stride, size) in &g.tdig {
            let q = b.udiv_const(t, stride);
            let d = if stride * size >= total {
                q
            } else {
                b.urem_const(q, size)
            };
            if p < 0 {
                reps.push(d);
            } else {
                let m = p as usize;
                let w = b.mul_const(d, g.mode_weight[m]);
                let k = g.mode_dim[m];
                parts[k] = if parts[k] == zero {
                    w
                } else {
                    b.add(parts[k], w)
                };
            }
        }
        (parts, reps)
    }

    /// `layout.convert` within warps: when every register `l` of the target layout is, in every
    /// thread, register `r(l)` (the same for all threads) of a thread of the same warp, each
    /// target register is one `shfl.sync.idx` of source register `r(l)` from the lane that
    /// holds its element. The lane is computed from the thread's target coordinates through
    /// the source layout's digits (a replica digit keeps the thread's own value), and the
    /// whole mapping is checked at compile time for every thread; `None` when it does not
    /// hold (then the data goes through shared memory).
    pub(super) fn convert_via_shuffles(
        &mut self,
        ctx: &mut Context,
        o: OpId,
        src: Value,
        lt: &RegisterLayout,
    ) -> R<Option<Vec<Value>>> {
        let s = self.tile(src)?.clone();
        let ls = s.layout.clone();
        let threads = lt.num_threads();
        if threads % 32 != 0 || ls.num_threads() != threads || ls.shape != lt.shape {
            return Ok(None);
        }
        let dt = ty_of(ctx, src).ok_or("bad type")?.dtype;
        if dt.bits() != 32 && dt.bits() != 16 {
            return Ok(None);
        }
        let gs = geo(&ls);
        // The source thread of element `c` for thread `t` (its own replica digits).
        let holder = |c: &[i64], t: i64| -> i64 {
            let mut h = 0;
            for &(p, stride, size) in &gs.tdig {
                let d = if p < 0 {
                    (t / stride) % size
                } else {
                    let m = p as usize;
                    (c[gs.mode_dim[m]] / gs.mode_weight[m]) % size
                };
                h += d * stride;
            }
            h
        };
        let mut regs = Vec::new();
        for l in 0..lt.local_size() {
            let mut reg = None;
            for t in 0..threads {
                let c = lt.coords(t, l);
                let h = holder(&c, t);
                let (hs, r) = ls.holders(&c);
                if h / 32 != t / 32 || hs.binary_search(&h).is_err() || reg.is_some_and(|x| x != r)
                {
                    return Ok(None);
                }
                reg = Some(r);
            }
            regs.push(reg.unwrap_or(0) as usize);
        }
        let (tpt, _) = self.tparts(ctx, o, lt);
        let t = self.tid(ctx, o);
        let mut b = before(ctx, o);
        let mut out = Vec::new();
        for l in 0..lt.local_size() {
            let lp = lpart(lt, l);
            let coord: Vec<Value> = (0..lt.rank()).map(|d| b.add_const(tpt[d], lp[d])).collect();
            let mut lane = b.c32(0);
            for &(p, stride, size) in &gs.tdig {
                if stride >= 32 {
                    continue;
                }
                let d = if p < 0 {
                    let q = b.udiv_const(t, stride);
                    b.urem_const(q, size)
                } else {
                    let m = p as usize;
                    let q = b.udiv_const(coord[gs.mode_dim[m]], gs.mode_weight[m]);
                    b.urem_const(q, size)
                };
                let w = b.mul_const(d, stride);
                lane = b.add(lane, w);
            }
            let lane = b.urem_const(lane, 32);
            let v = s.vals[regs[l as usize]];
            out.push(shfl_dyn(&mut b, "idx", v, lane, "0x1f", dt)?);
        }
        Ok(Some(out))
    }

    /// `layout.convert` through the shared scratch: every thread writes its registers at the
    /// elements' row-major positions (replica 0 of each element only), the group syncs, every
    /// thread reads the registers of the target layout, and the group syncs again. Rows are
    /// padded by 16 bytes, so a column read by consecutive lanes (a transpose) falls in
    /// different banks, and runs of registers that are consecutive along the last dimension
    /// (and aligned) move as one 16-byte (or narrower) vector.
    /// A conversion through a shared scratch: each thread stores its registers in the source
    /// layout and, after a barrier, loads them in the target layout.
    ///
    /// Both sides access vectors along the last dimension (up to 16 bytes), each a group of
    /// registers with consecutive coordinates there, in whatever register order the layout
    /// keeps them ([`vector_groups`]): a transpose's target holds columns of rows, and still
    /// reads a few adjacent columns of a row at once. The scratch is a row-major tile, either
    /// padded by 16 bytes a row or XOR-swizzled by 16-byte chunks ([`scratch_layout`] picks
    /// whichever serves both sides' vectors in the fewest bank wavefronts).
    pub(super) fn convert_via_shared(
        &mut self,
        ctx: &mut Context,
        o: OpId,
        src: Value,
        lt: &RegisterLayout,
    ) -> R<Vec<Value>> {
        self.fence_scratch(ctx, o);
        let dt0 = ty_of(ctx, src).ok_or("bad type")?.dtype;
        let mut s = self.tile(src)?.clone();
        // i1 (a mask) has no memory type: it moves as i32 (0 or 1) and is narrowed back.
        let dt = if dt0.bits() == 1 {
            let mut b = before(ctx, o);
            for v in s.vals.iter_mut() {
                *v = scalar_cast(&mut b, *v, dt0, DType::I32)?;
            }
            DType::I32
        } else {
            dt0
        };
        let ls = s.layout.clone();
        let bytes = (dt.bits() / 8).max(1) as i64;
        let sfx = ld_suffix(dt)?;
        let maxv = if dt.bits() >= 16 { 16 / bytes } else { 1 };
        let (sl, (_, gs), (vt, gt)) = scratch_layout(&ls, lt, bytes, maxv);
        let footprint = sl.shape[0] * sl.strides[0] * bytes;
        let scratch = self.claim_scratch(footprint);
        let (tps, reps) = self.tparts(ctx, o, &ls);
        let (tpt, _) = self.tparts(ctx, o, lt);
        let mut b = before(ctx, o);
        let base = crate::lower::shared_memory::smem_base(&mut b);
        let base = b.add_const(base, scratch);
        // The thread's element offset (before the swizzle) from its per-dimension parts.
        let toff = |b: &mut OpBuilder<'_>, tp: &[Value]| -> Value {
            let mut acc = b.c32(0);
            for (d, v) in tp.iter().enumerate() {
                let x = b.mul_const(*v, sl.strides[d]);
                acc = b.add(acc, x);
            }
            acc
        };
        // The address of the element at offset `t + k`: a register and an immediate.
        let addr = |b: &mut OpBuilder<'_>, t: Value, k: i64| -> (Value, i64) {
            match sl.swizzle {
                None => {
                    let tb = b.mul_const(t, bytes);
                    (b.add(base, tb), k * bytes)
                }
                Some(sw) => {
                    let off = b.add_const(t, k);
                    let mask = ((1i64 << sw.bits) - 1) << (sw.base + sw.shift);
                    let m = b.c32(mask);
                    let hi = b.and(off, m);
                    let sh = b.c32(sw.shift as i64);
                    let hi = b.int_op(IntBinOp::ShRUI, hi, sh);
                    let x = b.int_op(IntBinOp::XOrI, off, hi);
                    let x = b.mul_const(x, bytes);
                    (b.add(base, x), 0)
                }
            }
        };
        let offset = |l: &RegisterLayout, i: usize| -> i64 {
            lpart(l, i as i64)
                .iter()
                .zip(&sl.strides)
                .map(|(c, s)| c * s)
                .sum()
        };
        let rep = b.replica0(&reps);
        let ts = toff(&mut b, &tps);
        let elem = b.ctx().value_type(s.vals[0]);
        for g in &gs {
            let (a, k) = addr(&mut b, ts, offset(&ls, g[0]));
            let vals: Vec<Value> = g.iter().map(|&r| s.vals[r]).collect();
            vector_store(&mut b, "shared", a, k, &vals, elem, bytes, sfx, rep);
        }
        SyncOp::build(&mut b);
        let tt = toff(&mut b, &tpt);
        let mut out = vec![None; lt.local_size() as usize];
        for g in &gt {
            let (a, k) = addr(&mut b, tt, offset(lt, g[0]));
            let vals = vector_load(&mut b, "shared", a, k, elem, vt as usize, bytes, sfx);
            for (&r, v) in g.iter().zip(vals) {
                out[r] = Some(v);
            }
        }
        SyncOp::build(&mut b);
        out.into_iter()
            .map(|v| scalar_cast(&mut b, v.expect("every register loaded"), dt, dt0))
            .collect()
    }
}

/// The registers of `l` cut into vectors of `vw` elements along the last dimension: groups
/// (first register first) whose coordinates run `c, c + 1, ..., c + vw - 1` there from an
/// aligned `c`, the rest equal, with every thread part along it a multiple of `vw` so the
/// whole vector is aligned. `None` when the registers do not split so.
fn vector_groups(l: &RegisterLayout, vw: i64) -> Option<Vec<Vec<usize>>> {
    let n = l.local_size();
    let rank = l.rank();
    let last = rank - 1;
    if n % vw != 0 {
        return None;
    }
    let g = geo(l);
    let aligned = g.tdig.iter().all(|&(p, _, _)| {
        p < 0 || g.mode_dim[p as usize] != last || g.mode_weight[p as usize] % vw == 0
    });
    if !aligned {
        return None;
    }
    let parts: Vec<Vec<i64>> = (0..n).map(|r| lpart(l, r)).collect();
    let at: FxHashMap<&[i64], usize> = parts
        .iter()
        .enumerate()
        .map(|(r, p)| (p.as_slice(), r))
        .collect();
    if at.len() != n as usize {
        return None;
    }
    let mut groups = Vec::new();
    for (r, p) in parts.iter().enumerate() {
        if p[last] % vw != 0 {
            continue;
        }
        let mut grp = vec![r];
        let mut q = p.clone();
        for _ in 1..vw {
            q[last] += 1;
            grp.push(*at.get(q.as_slice())?);
        }
        groups.push(grp);
    }
    (groups.len() as i64 * vw == n).then_some(groups)
}

/// The widest vector (up to `maxv` elements) the registers of `l` split into along the last
/// dimension of a scratch with row stride `row`, and the split.
fn widest_groups(l: &RegisterLayout, maxv: i64, row: i64) -> (i64, Vec<Vec<usize>>) {
    let mut vw = maxv;
    while vw > 1 {
        if row % vw == 0 {
            if let Some(g) = vector_groups(l, vw) {
                return (vw, g);
            }
        }
        vw /= 2;
    }
    (1, (0..l.local_size() as usize).map(|r| vec![r]).collect())
}

/// Bank wavefronts of accessing `sl` with the vectors `groups` (of `vw` elements) of register
/// layout `l`, summed over instructions and warps: per instruction, the most distinct 4-byte
/// words any bank serves, at least the bytes over 128. A store counts replica 0 only.
pub(super) fn scratch_wavefronts(
    l: &RegisterLayout,
    sl: &SharedLayout,
    groups: &[Vec<usize>],
    vw: i64,
    bytes: i64,
    store: bool,
) -> i64 {
    let threads = l.num_threads();
    let mut total = 0;
    for g in groups {
        for w in 0..(threads + 31) / 32 {
            let mut banks: FxHashMap<i64, FxHashSet<i64>> = FxHashMap::default();
            let mut lanes = 0;
            for t in w * 32..((w + 1) * 32).min(threads) {
                let idx = l.coords(t, g[0] as i64);
                if store && l.holders(&idx).0.first() != Some(&t) {
                    continue;
                }
                lanes += 1;
                let a = sl.offset(&idx) * bytes;
                for word in a / 4..=(a + vw * bytes - 1) / 4 {
                    banks.entry(word % 32).or_default().insert(word);
                }
            }
            let ideal = (lanes * vw * bytes + 127) / 128;
            let worst = banks.values().map(|s| s.len() as i64).max().unwrap_or(0);
            total += worst.max(ideal);
        }
    }
    total
}

/// The scratch of a conversion from `ls` to `lt` (elements of `bytes` bytes, vectors of up to
/// `maxv`) and each side's vectors: a row-major tile padded by one vector a row (the rows of
/// a column fall in different banks) or, where the rows are a power of two of whole 16-byte
/// chunks, unpadded with the chunks of a row XORed by bits of the row number, whichever costs
/// fewer wavefronts over both sides (the padded one on a tie). A swizzle can serve both sides
/// without conflicts where padding cannot: a transpose whose target reads a few columns of
/// rows 8 apart puts them in one bank under any padding of 16 bytes.
#[allow(clippy::type_complexity)]
pub(super) fn scratch_layout(
    ls: &RegisterLayout,
    lt: &RegisterLayout,
    bytes: i64,
    maxv: i64,
) -> (SharedLayout, (i64, Vec<Vec<usize>>), (i64, Vec<Vec<usize>>)) {
    let shape = lt.shape.clone();
    let rank = shape.len();
    let mut padded = shape.clone();
    if rank >= 2 && maxv > 1 && shape[rank - 1] % maxv == 0 {
        padded[rank - 1] += maxv;
    }
    let strides = row_major(&padded);
    let mut best = SharedLayout::strided(&shape, &strides);
    let cost = |sl: &SharedLayout| {
        let row = if rank >= 2 { sl.strides[rank - 2] } else { 1 };
        let (vs, gs) = widest_groups(ls, maxv, row);
        let (vt, gt) = widest_groups(lt, maxv, row);
        let c = scratch_wavefronts(ls, sl, &gs, vs, bytes, true)
            + scratch_wavefronts(lt, sl, &gt, vt, bytes, false);
        (c, (vs, gs), (vt, gt))
    };
    let (mut best_cost, mut bs, mut bt) = cost(&best);
    let cols = shape[rank - 1];
    let chunk = 16 / bytes;
    let rows: i64 = shape[..rank - 1].iter().product();
    if rank >= 2
        && bytes <= 16
        && cols % chunk == 0
        && (cols / chunk).count_ones() == 1
        && cols / chunk >= 2
    {
        let plain = row_major(&shape);
        let bits = (cols / chunk).min(8).trailing_zeros();
        let base = chunk.trailing_zeros();
        let row_bit = cols.trailing_zeros();
        // XOR the chunk index with bits of row / 2^s.
        let mut s = 0;
        while (1i64 << s) < rows {
            let mut sl = SharedLayout::strided(&shape, &plain);
            sl.swizzle = Some(Swizzle::new(bits, base, row_bit - base + s));
            let (c, gs, gt) = cost(&sl);
            if c < best_cost {
                (best, best_cost, bs, bt) = (sl, c, gs, gt);
            }
            s += 1;
        }
    }
    (best, bs, bt)
}
