//! Reductions (in the thread, across lanes with `shfl.sync.bfly`, across warps through the
//! scratch) and the `shuffle_up`/`shuffle_down` ops.

use super::*;

impl Lowering {
    pub(super) fn reduce(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        let x = ctx.operands(o)[0];
        let r = ctx.results(o)[0];
        let dim = prop_i64(ctx, o, "dim").ok_or("dim")? as usize;
        let keepdim = ctx.get_inherent_or_attr(o, "keepdim").is_some();
        let mut kind = ["sum", "max", "min", "any", "all"]
            [prop_i64(ctx, o, "kind").unwrap_or(0).clamp(0, 4) as usize];
        let mut dt = ty_of(ctx, x).ok_or("bad type")?.dtype;
        let mut src = self.tile(x)?.clone();
        // `any` / `all` of i1 are the max / min of the values widened to i32 (0 or 1), which
        // shuffle and go through the scratch like any 32-bit value; narrowed back at the end.
        let boolean = matches!(kind, "any" | "all");
        if boolean {
            let mut b = before(ctx, o);
            for v in src.vals.iter_mut() {
                *v = scalar_cast(&mut b, *v, dt, DType::I32)?;
            }
            kind = if kind == "any" { "max" } else { "min" };
            dt = DType::I32;
        }
        let li = src.layout.clone();
        let lo = match ty_of(ctx, r).and_then(|t| t.register_layout()) {
            Some(l) => l,
            None => li.reduce(&[dim], keepdim),
        };
        if lo.num_threads() != li.num_threads() {
            return Err("the result layout spreads over a different number of threads".into());
        }
        let g = geo(&li);
        // Lane digits of the reduced dim: (stride, size).
        let mut lanes = Vec::new();
        let mut warps = Vec::new();
        for &(p, stride, size) in &g.tdig {
            if p >= 0 && g.mode_dim[p as usize] == dim {
                if stride >= 32 {
                    warps.push((stride, size));
                    continue;
                }
                if stride.count_ones() != 1 || size.count_ones() != 1 {
                    return Err(format!("the reduced dimension {dim} of '{li}' is spread over a thread digit of size {size} that is not a power of two (lanes combine by butterfly shuffles)"));
                }
                if stride * size > 32 {
                    // A digit straddling warps: its lane bits shuffle, its warp bits go
                    // through the shared scratch.
                    lanes.push((stride, 32 / stride));
                    warps.push((32, stride * size / 32));
                    continue;
                }
                lanes.push((stride, size));
            }
        }
        let tid = if warps.is_empty() {
            None
        } else {
            Some(self.tid(ctx, o))
        };
        let gp = group_pos(ctx, o).ok_or("outside a kernel")?;
        let member: u64 = if gp.size >= 32 {
            0xffff_ffff
        } else {
            match gp.begin {
                Some(bg) => ((1u64 << gp.size) - 1) << (bg % 32),
                None => 1,
            }
        };
        let n = li.local_size();
        // Group registers by their coordinates outside the reduced dim.
        let mut keys: Vec<(Vec<i64>, Vec<usize>)> = Vec::new();
        for l in 0..n {
            let mut c = lpart(&li, l);
            c[dim] = 0;
            match keys.iter_mut().find(|(k, _)| *k == c) {
                Some((_, ls)) => ls.push(l as usize),
                None => keys.push((c, vec![l as usize])),
            }
        }
        let mut b = before(ctx, o);
        let mut partial: Vec<Value> = Vec::new();
        for (_, ls) in &keys {
            let mut acc = src.vals[ls[0]];
            for &l in &ls[1..] {
                acc = combine(&mut b, kind, acc, src.vals[l], dt)?;
            }
            for &(stride, size) in &lanes {
                let mut m = stride;
                while m < stride * size {
                    let other = shfl(&mut b, "bfly", acc, &m.to_string(), "0x1f", member, dt)?;
                    acc = combine(&mut b, kind, acc, other, dt)?;
                    m *= 2;
                }
            }
            partial.push(acc);
        }
        if let Some(t) = tid {
            partial =
                self.cross_warp(&mut b, o, t, &partial, &warps, li.num_threads(), kind, dt)?;
        }
        // Output registers: match each to a partial by coordinates, for every thread.
        let proj = |c: &[i64]| -> Vec<i64> {
            let mut c = c.to_vec();
            if keepdim {
                c[dim] = 0;
            } else {
                c.remove(dim);
            }
            c
        };
        let threads = li.num_threads();
        let mut vals = Vec::new();
        for lo_i in 0..lo.local_size() {
            let pick = keys.iter().position(|(_, ls)| {
                (0..threads).all(|t| proj(&li.coords(t, ls[0] as i64)) == lo.coords(t, lo_i))
            });
            match pick {
                Some(i) => vals.push(partial[i]),
                None => {
                    return Err(format!(
                        "the result layout '{lo}' does not match the reduction of '{li}'"
                    ))
                }
            }
        }
        if boolean {
            let i1 = ty_of(b.ctx(), r).ok_or("bad type")?.dtype;
            for v in vals.iter_mut() {
                *v = scalar_cast(&mut b, *v, DType::I32, i1)?;
            }
        }
        self.set_tile(r, vals, lo, false);
        Ok(())
    }

    /// Combines per-thread partials across the warp digits `warps` (stride, size) of the
    /// thread index through shared scratch: every thread writes its partials at
    /// `[k][t]`, the group syncs, every thread folds the partials of the threads that differ
    /// from it only in those digits (in digit order, so every replica gets the same value),
    /// and the group syncs again before the scratch is reused.
    #[allow(clippy::too_many_arguments)]
    fn cross_warp(
        &mut self,
        b: &mut OpBuilder<'_>,
        o: OpId,
        t: Value,
        partial: &[Value],
        warps: &[(i64, i64)],
        threads: i64,
        kind: &str,
        dt: DType,
    ) -> R<Vec<Value>> {
        let bytes = (dt.bits() / 8).max(1) as i64;
        let sfx = ld_suffix(dt)?;
        let k = partial.len() as i64;
        // After a reduction of this group whose reads no barrier followed, this one writes
        // past its region; after a user of another group, a barrier comes first.
        let off = self.fence_scratch_reduce(b, o);
        let end = (off + k * threads * bytes + 15) / 16 * 16;
        let region = self.claim_scratch(end);
        let base = crate::lower::shared_memory::smem_base(b);
        let base = b.add_const(base, region + off);
        let tb = b.mul_const(t, bytes);
        let mine = b.add(base, tb);
        for (i, v) in partial.iter().enumerate() {
            b.inst(
                &format!("st.shared.{sfx}"),
                &format!("[$0{}], $1", imm(i as i64 * threads * bytes)),
                &[mine, *v],
                &[],
                None,
            );
        }
        SyncOp::build(b);
        // t with the reduced warp digits cleared.
        let mut t0 = t;
        for &(stride, size) in warps {
            let q = b.udiv_const(t, stride);
            let d = b.urem_const(q, size);
            let x = b.mul_const(d, stride);
            t0 = b.int_op(IntBinOp::SubI, t0, x);
        }
        let t0b = b.mul_const(t0, bytes);
        let first = b.add(base, t0b);
        let mut offs = vec![0i64];
        for &(stride, size) in warps {
            offs = offs
                .iter()
                .flat_map(|o| (0..size).map(move |j| o + j * stride))
                .collect();
        }
        offs.sort_unstable();
        let elem = b.ctx().value_type(partial[0]);
        let mut out = Vec::new();
        for i in 0..k {
            let mut acc: Option<Value> = None;
            for &off in &offs {
                let v = b.inst(
                    &format!("ld.shared.{sfx}"),
                    &format!("[$0{}]", imm((i * threads + off) * bytes)),
                    &[first],
                    &[elem],
                    None,
                )[0];
                acc = Some(match acc {
                    None => v,
                    Some(a) => combine(b, kind, a, v, dt)?,
                });
            }
            out.push(acc.expect("a warp digit"));
        }
        if self.next_scratch_is_reduce(b.ctx(), o) {
            // The next user of the scratch is another reduction (writing past this region,
            // then a barrier before its reads) or nothing: no barrier here.
            self.unfenced = Some(end);
        } else {
            SyncOp::build(b);
        }
        Ok(out)
    }

    /// Whether, after `o`, the next op of its block that may use the shared scratch is a
    /// `tilus.reduce`, or there is none and the block is the kernel's body. Only pure
    /// region-free ops (element-wise, casts, register tensors) and global loads and stores are
    /// passed over; a conversion, a dot, a loop, a branch or anything else stops the search.
    fn next_scratch_is_reduce(&self, ctx: &Context, o: OpId) -> bool {
        let mut at = ctx.next_op(o);
        while let Some(q) = at {
            match TilusOpKind::classify(ctx, q) {
                Some(TilusOpKind::Reduce(_)) => return true,
                Some(TilusOpKind::LoadGlobal(_) | TilusOpKind::StoreGlobal(_)) => {}
                Some(TilusOpKind::Dot(_)) => return false,
                _ => {
                    let pure = ctx.op_def(q).is_some_and(|d| d.has(tilus_ir::Trait::Pure))
                        && ctx.regions(q).is_empty();
                    if ConvertOp::is(ctx, q) || !pure {
                        // The kernel body's end is not an op of the block.
                        return false;
                    }
                }
            }
            at = ctx.next_op(q);
        }
        ctx.parent_op(o).is_some_and(|p| {
            TilusOpKind::classify(ctx, p).is_some_and(|k| matches!(k, TilusOpKind::Kernel(_)))
        })
    }

    pub(super) fn shuffle(&mut self, ctx: &mut Context, o: OpId, up: bool) -> R<()> {
        let x = ctx.operands(o)[0];
        let delta = ctx.operands(o)[1];
        let r = ctx.results(o)[0];
        let dt = ty_of(ctx, x).ok_or("bad type")?.dtype;
        let src = self.tile(x)?.clone();
        let mut b = before(ctx, o);
        let mut vals = Vec::new();
        for v in &src.vals {
            let (mode, c) = if up { ("up", "0") } else { ("down", "0x1f") };
            vals.push(shfl_dyn(&mut b, mode, *v, delta, c, dt)?);
        }
        self.set_tile(r, vals, src.layout, false);
        Ok(())
    }
}

pub(super) fn combine(
    b: &mut OpBuilder<'_>,
    kind: &str,
    x: Value,
    y: Value,
    dt: DType,
) -> R<Value> {
    let k = match kind {
        "sum" => Binary::Add,
        "max" => Binary::Maximum,
        "min" => Binary::Minimum,
        _ => return Err(format!("reduce '{kind}' is not lowered yet")),
    };
    scalar_binary(b, k, &[x, y], dt, 0)
}

/// `shfl.sync.MODE.b32` of a value by an immediate lane operand.
pub(super) fn shfl(
    b: &mut OpBuilder<'_>,
    mode: &str,
    v: Value,
    lane: &str,
    c: &str,
    member: u64,
    dt: DType,
) -> R<Value> {
    shfl_any(b, mode, v, None, lane, c, member, dt)
}

pub(super) fn shfl_dyn(
    b: &mut OpBuilder<'_>,
    mode: &str,
    v: Value,
    delta: Value,
    c: &str,
    dt: DType,
) -> R<Value> {
    shfl_any(b, mode, v, Some(delta), "", c, 0xffff_ffff, dt)
}

#[allow(clippy::too_many_arguments)]
fn shfl_any(
    b: &mut OpBuilder<'_>,
    mode: &str,
    v: Value,
    delta: Option<Value>,
    lane: &str,
    c: &str,
    member: u64,
    dt: DType,
) -> R<Value> {
    let ty = b.ctx().value_type(v);
    let bits = dt.bits();
    if bits == 1 {
        // A predicate moves as an i32 (0 or 1).
        let w = scalar_cast(b, v, dt, DType::I32)?;
        let r = shfl_any(b, mode, w, delta, lane, c, member, DType::I32)?;
        return scalar_cast(b, r, DType::I32, dt);
    }
    if bits == 64 {
        // A 64-bit value (f64, i64) moves as its two 32-bit halves.
        let i32t = b.i32();
        let h = b.inst("mov.b64", "$0", &[v], &[i32t, i32t], None);
        let lo = shfl_any(b, mode, h[0], delta, lane, c, member, DType::I32)?;
        let hi = shfl_any(b, mode, h[1], delta, lane, c, member, DType::I32)?;
        return Ok(b.inst("mov.b64", "{$0, $1}", &[lo, hi], &[ty], None)[0]);
    }
    let (x, packed) = match bits {
        32 => (v, false),
        // 8-bit values live in 16-bit registers.
        8 | 16 => {
            let i32t = b.i32();
            (b.inst("mov.b32", "{$0, $0}", &[v], &[i32t], None)[0], true)
        }
        _ => return Err(format!("shuffles of {} are not lowered", dt.name())),
    };
    let xt = b.ctx().value_type(x);
    let r = match delta {
        Some(d) => b.inst(
            &format!("shfl.sync.{mode}.b32"),
            &format!("$0, $1, {c}, {member:#x}"),
            &[x, d],
            &[xt],
            None,
        )[0],
        None => b.inst(
            &format!("shfl.sync.{mode}.b32"),
            &format!("$0, {lane}, {c}, {member:#x}"),
            &[x],
            &[xt],
            None,
        )[0],
    };
    if packed {
        Ok(b.inst("mov.b32", "$0", &[r], &[ty, ty], None)[0])
    } else {
        Ok(r)
    }
}
