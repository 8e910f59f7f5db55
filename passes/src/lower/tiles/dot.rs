//! `tilus.dot` without tensor cores (the SIMT fallback); `mma.rs` and `wgmma_dot.rs` have the
//! tensor-core lowerings.

use super::*;

impl Lowering {
    /// `tilus.dot a, b, c` (`[M, K] x [K, N] + [M, N]`, f32 accumulation; an f16 or bf16
    /// accumulator rounded to its type after every step), the simple correct
    /// way (a SIMT dot, no tensor cores): every thread stores its registers of A and B, as
    /// f32, into the shared scratch (A row-major `[M][K+1]`, B `[K][N+1]`, the `+1` spreads a
    /// column over the banks), the group syncs, then one `scf.for` over `k` carries the
    /// accumulator registers: per step each thread loads `a[row, k]` for each distinct row of
    /// its output registers and `b[k, col]` for each distinct column, and does one
    /// `fma.rn.f32` per register, `k` ascending (the interpreter's order; an f16·f16 product is
    /// exact in f32, so `fma` and `mul`+`add` agree). A sync after the loop frees the scratch.
    pub(super) fn dot(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        self.fence_scratch(ctx, o);
        let ops = ctx.operands(o).to_vec();
        let (a, bm, c) = (ops[0], ops[1], ops[2]);
        let r = ctx.results(o)[0];
        let (ta, tb, tc, tr) = (
            ty_of(ctx, a).ok_or("bad type")?,
            ty_of(ctx, bm).ok_or("bad type")?,
            ty_of(ctx, c).ok_or("bad type")?,
            ty_of(ctx, r).ok_or("bad type")?,
        );
        if ta.shape.len() != 2 || tb.shape.len() != 2 || tc.shape.len() != 2 {
            return Err("tilus.dot: only 2-D operands are lowered".into());
        }
        // f16 and bf16 accumulators are carried in f32 and rounded to their type after every
        // step, as the interpreter adds into the accumulator's type.
        // An i32 accumulator (integer operands of at most 32 bits) accumulates with `mad.lo`,
        // wrapping as the interpreter's i32 sums do.
        let int32 = |d: DType| matches!(d, DType::Int { bits, .. } if bits > 1 && bits <= 32);
        let int = matches!(tc.dtype, DType::Int { bits: 32, .. });
        if !(int || matches!(tc.dtype, DType::F32 | DType::F16 | DType::BF16))
            || tr.dtype != tc.dtype
        {
            return Err(
                "tilus.dot: only f32, f16, bf16 and i32 accumulators and results are lowered"
                    .into(),
            );
        }
        for (t, n) in [(&ta, "A"), (&tb, "B")] {
            let ok = if int {
                int32(t.dtype)
            } else {
                matches!(t.dtype, DType::F16 | DType::BF16 | DType::F32)
            };
            if !ok {
                return Err(format!(
                    "tilus.dot: {n} of type {} is not lowered (f16, bf16, f32; integers of up to 32 bits with an i32 accumulator)",
                    t.dtype.name()
                ));
            }
        }
        // The type A, B and the accumulator are carried in.
        let work = if int { tc.dtype } else { DType::F32 };
        let (sfx, mac) = if int {
            ("b32", "mad.lo.s32")
        } else {
            ("f32", "fma.rn.f32")
        };
        let (m, k, n) = (ta.shape[0], ta.shape[1], tb.shape[1]);
        let lc = Self::result_layout(ctx, o, r)?;
        let mut acc = self.gather(ctx, c, &lc)?;
        if tc.dtype != work {
            let mut b = before(ctx, o);
            for v in acc.iter_mut() {
                *v = scalar_cast(&mut b, *v, tc.dtype, work)?;
            }
        }
        let sa = k + 1; // A row stride (elements)
        let sb = n + 1; // B row stride
        let a_bytes = m * sa * 4;
        let total = a_bytes + k * sb * 4;
        let scratch = self.claim_scratch(total);
        // Store A and B as f32.
        for (src, t, stride, off) in [(a, &ta, sa, 0i64), (bm, &tb, sb, a_bytes)] {
            let tile = self.tile(src)?.clone();
            let (vals, ls) = if tile.splat.is_some() {
                let l = default_layout(&t.shape, t.dtype.bits(), Self::group_size(ctx, o))?;
                (self.gather(ctx, src, &l)?, l)
            } else {
                (tile.vals.clone(), tile.layout.clone())
            };
            let (tp, reps) = self.tparts(ctx, o, &ls);
            let mut b = before(ctx, o);
            let base = crate::lower::shared_memory::smem_base(&mut b);
            let base = b.add_const(base, scratch + off);
            let rep = b.replica0(&reps);
            let row = b.mul_const(tp[0], stride * 4);
            let col = b.mul_const(tp[1], 4);
            let x = b.add(row, col);
            let addr = b.add(base, x);
            let mut cache: FxHashMap<Value, Value> = FxHashMap::default();
            for (l, v) in vals.iter().enumerate() {
                let lp = lpart(&ls, l as i64);
                let f = match cache.get(v) {
                    Some(f) => *f,
                    None => {
                        let f = scalar_cast(&mut b, *v, t.dtype, work)?;
                        cache.insert(*v, f);
                        f
                    }
                };
                b.inst(
                    &format!("st.shared.{sfx}"),
                    &format!("[$0{}], $1", imm((lp[0] * stride + lp[1]) * 4)),
                    &[addr, f],
                    &[],
                    rep,
                );
            }
        }
        // Thread parts of the output layout.
        let (tp, _) = self.tparts(ctx, o, &lc);
        let nl = lc.local_size();
        let lps: Vec<Vec<i64>> = (0..nl).map(|l| lpart(&lc, l)).collect();
        let mut rows: Vec<i64> = lps.iter().map(|p| p[0]).collect();
        rows.sort_unstable();
        rows.dedup();
        let mut cols: Vec<i64> = lps.iter().map(|p| p[1]).collect();
        cols.sort_unstable();
        cols.dedup();
        let mut b = before(ctx, o);
        SyncOp::build(&mut b);
        let base = crate::lower::shared_memory::smem_base(&mut b);
        let abase = b.add_const(base, scratch);
        let arow = b.mul_const(tp[0], sa * 4);
        let a0 = b.add(abase, arow);
        let bbase = b.add_const(base, scratch + a_bytes);
        let bcol = b.mul_const(tp[1], 4);
        let b0 = b.add(bbase, bcol);
        let half = tc.dtype;
        let lo = b.c32(0);
        let hi = b.c32(k);
        let one = b.c32(1);
        let f32t = elem_type(b.ctx_mut(), work);
        let out = build_for(&mut b, lo, hi, one, &acc, |b, kv, accs| {
            let ka = b.mul_const(kv, 4);
            let pa = b.add(a0, ka);
            let kb = b.mul_const(kv, sb * 4);
            let pb = b.add(b0, kb);
            let av: FxHashMap<i64, Value> = rows
                .iter()
                .map(|&rr| {
                    let v = b.inst(
                        &format!("ld.shared.{sfx}"),
                        &format!("[$0{}]", imm(rr * sa * 4)),
                        &[pa],
                        &[f32t],
                        None,
                    )[0];
                    (rr, v)
                })
                .collect();
            let bv: FxHashMap<i64, Value> = cols
                .iter()
                .map(|&cc| {
                    let v = b.inst(
                        &format!("ld.shared.{sfx}"),
                        &format!("[$0{}]", imm(cc * 4)),
                        &[pb],
                        &[f32t],
                        None,
                    )[0];
                    (cc, v)
                })
                .collect();
            accs.iter()
                .enumerate()
                .map(|(l, &acc)| {
                    let p = &lps[l];
                    let s = b.inst(
                        mac,
                        "$0, $1, $2",
                        &[av[&p[0]], bv[&p[1]], acc],
                        &[f32t],
                        None,
                    )[0];
                    if half == work {
                        return s;
                    }
                    let h = scalar_cast(b, s, DType::F32, half).expect("a float narrowing");
                    scalar_cast(b, h, half, DType::F32).expect("a float widening")
                })
                .collect()
        });
        SyncOp::build(&mut b);
        let out = out
            .into_iter()
            .map(|v| scalar_cast(&mut b, v, work, tr.dtype))
            .collect::<R<Vec<Value>>>()?;
        self.set_tile(r, out, lc, false);
        Ok(())
    }
}
