//! `tilus.load_shared` and `tilus.store_shared` through the shared layout and its swizzle.

use super::*;

impl Lowering {
    pub(super) fn shared_access(&mut self, ctx: &mut Context, o: OpId, store: bool) -> R<()> {
        let (smem, val) = if store {
            (ctx.operands(o)[1], Some(ctx.operands(o)[0]))
        } else {
            (ctx.operands(o)[0], None)
        };
        let st = ty_of(ctx, smem).ok_or("bad shared type")?;
        let mem = memory_dtype(st.dtype);
        let (rv, layout) = match val {
            Some(v) => {
                let t = ty_of(ctx, v).ok_or("bad type")?;
                let l = match t.register_layout() {
                    Some(l) => l,
                    None => self.tile(v)?.layout.clone(),
                };
                (v, l)
            }
            None => {
                let r = ctx.results(o)[0];
                (r, Self::result_layout(ctx, o, r)?)
            }
        };
        let vals = match val {
            Some(v) => {
                // i1 is stored as a byte (0 or 1), as in global memory.
                let vals = self.gather(ctx, v, &layout)?;
                Some(cast_regs(ctx, o, vals, st.dtype, mem)?)
            }
            None => None,
        };
        let (tp, reps) = self.tparts(ctx, o, &layout);
        let sh_strides = st.strides.clone().unwrap_or_else(|| row_major(&st.shape));
        let split = Split::new(&layout, &st.shape, &sh_strides)
            .ok_or("shared shape does not refine the register tile's")?;
        // The thread part of an index goes through the innermost shared dimension of its
        // group (all of it when the group is one dimension); see `Split`.
        let strides = split.inner_strides();
        let swz = Swizzle::from_mode(st.swizzle, mem.bits())?;
        let bytes = (mem.bits() / 8).max(1) as i64;
        let elem = elem_type(ctx, mem);
        let sfx = ld_suffix(mem)?;
        let n = layout.local_size();
        let mut b = before(ctx, o);
        let base = shared_addr(&mut b, smem)?;
        // Thread part of the (unswizzled) element offset; with a split that cuts the thread
        // part, each element's whole offset is computed instead (`toff` unused).
        let mut toff = b.c32(0);
        if split.separable {
            for (d, s) in strides.iter().enumerate() {
                let x = b.mul_const(tp[d], *s);
                toff = b.add(toff, x);
            }
        }
        let rep = if store { b.replica0(&reps) } else { None };
        let vw = if split.separable {
            split.limit_width(shared_vector_width(
                b.ctx(),
                smem,
                &layout,
                &strides,
                swz,
                bytes,
            ))
        } else {
            1
        };
        let mut out = Vec::new();
        for l in (0..n).step_by(vw as usize) {
            let lp = lpart(&layout, l);
            let (toff, k) = if split.separable {
                (toff, split.local_offset(&lp))
            } else {
                (split.element_offset(&mut b, &tp, &lp), 0)
            };
            let (a, imm_b) = match swz {
                None => (base, 0),
                Some(sw) => {
                    let off = b.add_const(toff, k);
                    let mask = ((1i64 << sw.bits) - 1) << (sw.base + sw.shift);
                    let m = b.c32(mask);
                    let hi = b.and(off, m);
                    let sh = b.c32(sw.shift as i64);
                    let hi = b.int_op(IntBinOp::ShRUI, hi, sh);
                    let s = b.int_op(IntBinOp::XOrI, off, hi);
                    let s = b.mul_const(s, bytes);
                    (b.add(base, s), 0)
                }
            };
            let (a, kk) = if swz.is_none() {
                let tb = b.mul_const(toff, bytes);
                (b.add(a, tb), k * bytes)
            } else {
                (a, imm_b)
            };
            let l = l as usize;
            match &vals {
                Some(vs) => {
                    let part = &vs[l..l + vw as usize];
                    vector_store(&mut b, "shared", a, kk, part, elem, bytes, sfx, rep);
                }
                None => {
                    let v = vector_load(&mut b, "shared", a, kk, elem, vw as usize, bytes, sfx);
                    out.extend(v);
                }
            }
        }
        if !store {
            let out = cast_regs(ctx, o, out, mem, st.dtype)?;
            self.set_tile(rv, out, layout, false);
        }
        Ok(())
    }
}

/// How many registers of a `load_shared`/`store_shared` one instruction moves (up to 16
/// bytes): a run of registers that are consecutive elements along the shared tensor's
/// stride-1 dimension, starting at a multiple of the width in every thread, inside one
/// swizzle chunk (the swizzle moves whole chunks, so a chunk stays contiguous), with every
/// other stride and the view's offset in its allocation multiples of the width. The
/// wgmma accumulator's two adjacent columns then go as one 32-bit word, a row-major tile's
/// eight f16 as one 16-byte vector.
fn shared_vector_width(
    ctx: &Context,
    smem: Value,
    layout: &RegisterLayout,
    strides: &[i64],
    swz: Option<Swizzle>,
    bytes: i64,
) -> i64 {
    let Some(last) = strides.iter().rposition(|&s| s == 1) else {
        return 1;
    };
    let lparts: Vec<Vec<i64>> = (0..layout.local_size()).map(|l| lpart(layout, l)).collect();
    let mut vw = if bytes >= 2 { 16 / bytes } else { 1 };
    if let Some(sw) = swz {
        vw = vw.min(1i64 << sw.base);
    }
    register_vector_width(layout, &lparts, last, vw, |vw| {
        (0..strides.len()).all(|d| d == last || strides[d] % vw == 0)
            && view_offset_aligned(ctx, smem, vw)
    })
}

/// Whether a shared view starts at a multiple of `vw` elements from its allocation (which is
/// at least 128-byte aligned): every slice on the way indexes dimensions whose strides are
/// multiples of `vw`; permutations and reshapes keep the start.
fn view_offset_aligned(ctx: &Context, mut v: Value, vw: i64) -> bool {
    loop {
        let Some(d) = ctx.defining_op(v) else {
            return false;
        };
        if SharedTensorOp::is(ctx, d) {
            return true;
        }
        if let Some(sl) = SliceSharedOp::cast(ctx, d) {
            let src = sl.src(ctx);
            let Some(t) = ty_of(ctx, src) else {
                return false;
            };
            let st = t.strides.clone().unwrap_or_else(|| row_major(&t.shape));
            if st[..sl.indices(ctx).len()].iter().any(|s| s % vw != 0) {
                return false;
            }
            v = src;
        } else if let Some(src) = same_start_view_source(ctx, d) {
            v = src;
        } else {
            return false;
        }
    }
}

/// How a `load_shared`/`store_shared` maps a register tile's index to a shared element offset
/// when the shared tensor splits the tile's dimensions (`tilus::shape_refinement`): register
/// dimension `d` goes to shared dimensions `groups[d]`, its index `x` split into row-major
/// digits of their extents, each digit times its stride. Without a split it is one stride a
/// dimension, as before.
///
/// The offset is linear in the thread's part of the index (so one `toff` for all of a
/// thread's registers, and a constant per register) when adding the thread part never
/// carries out of the innermost digit: the thread part of every dimension stays below the
/// inner extent minus every register's inner digit. That holds for the accumulator stored
/// as boxes of 64 columns (threads own columns 0..7 of each 8, registers step by 8); when
/// it does not, each element's offset is computed from its whole index.
struct Split {
    groups: Vec<std::ops::Range<usize>>,
    shape: Vec<i64>,
    strides: Vec<i64>,
    separable: bool,
}

impl Split {
    fn new(layout: &RegisterLayout, shape: &[i64], strides: &[i64]) -> Option<Split> {
        let groups = tilus_dialects::tilus::shape_refinement(&layout.shape, shape)?;
        let mut separable = true;
        for (d, g) in groups.iter().enumerate() {
            if g.len() == 1 {
                continue;
            }
            let inner = shape[g.end - 1];
            let tmax = (0..layout.num_threads())
                .map(|t| layout.coords(t, 0)[d])
                .max()
                .unwrap_or(0);
            let lmax = (0..layout.local_size())
                .map(|l| layout.coords(0, l)[d].rem_euclid(inner.max(1)))
                .max()
                .unwrap_or(0);
            if lmax + tmax >= inner {
                separable = false;
            }
        }
        Some(Split {
            groups,
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            separable,
        })
    }

    /// Per register dimension, the stride of the innermost shared dimension of its group.
    fn inner_strides(&self) -> Vec<i64> {
        self.groups
            .iter()
            .map(|g| self.strides[g.end - 1])
            .collect()
    }

    /// The offset of register dimension `d`'s index `x` (a constant).
    fn dim_offset(&self, d: usize, mut x: i64) -> i64 {
        let mut off = 0;
        for e in self.groups[d].clone().rev() {
            let n = self.shape[e].max(1);
            off += x.rem_euclid(n) * self.strides[e];
            x = x.div_euclid(n);
        }
        off
    }

    /// The register's constant part of the offset (the separable case).
    fn local_offset(&self, lp: &[i64]) -> i64 {
        lp.iter()
            .enumerate()
            .map(|(d, &x)| self.dim_offset(d, x))
            .sum()
    }

    /// An element's whole offset from its thread part `tp` and local part `lp` (any split).
    fn element_offset(&self, b: &mut OpBuilder<'_>, tp: &[Value], lp: &[i64]) -> Value {
        let mut off = b.c32(0);
        for (d, g) in self.groups.iter().enumerate() {
            let mut x = b.add_const(tp[d], lp[d]);
            for e in g.clone().rev() {
                let n = self.shape[e].max(1);
                let digit = if e == g.start { x } else { b.urem_const(x, n) };
                let t = b.mul_const(digit, self.strides[e]);
                off = b.add(off, t);
                if e != g.start {
                    x = b.udiv_const(x, n);
                }
            }
        }
        off
    }

    /// Caps a vector width so that no vector crosses a split boundary and every outer digit's
    /// stride keeps vectors aligned.
    fn limit_width(&self, mut vw: i64) -> i64 {
        while vw > 1
            && self.groups.iter().any(|g| {
                g.len() > 1
                    && (self.shape[g.end - 1] % vw != 0
                        || g.clone()
                            .any(|e| e != g.end - 1 && self.strides[e] % vw != 0))
            })
        {
            vw /= 2;
        }
        vw
    }
}
