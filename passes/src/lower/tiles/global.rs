//! Global views, loads and stores: per-thread addresses and bounds checks, the block-uniform
//! vectorized fast path, and the clustering of loads.

use super::*;

impl Lowering {
    pub(super) fn global_view(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        let r = ctx.results(o)[0];
        let t = ty_of(ctx, r).ok_or("bad view type")?;
        let ptr = ctx.operands(o)[0];
        let ndyn_ext = t.shape.iter().filter(|d| **d == DYN).count();
        let ext_ops: Vec<Value> = ctx.operands(o)[1..1 + ndyn_ext].to_vec();
        let str_ops: Vec<Value> = ctx.operands(o)[1 + ndyn_ext..].to_vec();
        // The pointer parameter becomes an i64.
        let i64t = ctx.int_type(64);
        if ctx.value_type(ptr) != i64t {
            if ctx.defining_op(ptr).is_some() {
                return Err("the view's pointer must be a kernel parameter".into());
            }
            ctx.set_value_type(ptr, i64t);
        }
        let mut b = before(ctx, o);
        let mut ext = Vec::new();
        let mut it = ext_ops.into_iter();
        for &d in &t.shape {
            ext.push(if d == DYN {
                it.next().ok_or("extent operand")?
            } else {
                b.c32(d)
            });
        }
        let rank = t.shape.len();
        let mut strides = vec![None; rank];
        let mut static_strides = vec![None; rank];
        match &t.strides {
            Some(s) => {
                let mut it = str_ops.into_iter();
                for (i, &x) in s.iter().enumerate() {
                    if x == DYN {
                        strides[i] = Some(it.next().ok_or("stride operand")?);
                    } else {
                        strides[i] = Some(b.c32(x));
                        static_strides[i] = Some(x);
                    }
                }
            }
            None => {
                let mut acc: Option<Value> = None;
                let mut acc_static = Some(1i64);
                for i in (0..rank).rev() {
                    static_strides[i] = acc_static;
                    strides[i] = Some(match acc {
                        Some(v) => v,
                        None => b.c32(1),
                    });
                    let cur = strides[i].unwrap();
                    acc = Some(b.mul(cur, ext[i]));
                    acc_static = match (acc_static, t.shape[i]) {
                        (Some(a), d) if d != DYN => Some(a * d),
                        _ => None,
                    };
                }
            }
        }
        self.views.insert(
            r,
            View {
                base: ptr,
                ext,
                strides: strides.into_iter().map(|s| s.unwrap()).collect(),
                static_strides,
            },
        );
        Ok(())
    }

    /// Shared part of global loads and stores.
    #[allow(clippy::type_complexity)]
    fn global_plan(
        &mut self,
        ctx: &mut Context,
        o: OpId,
        view: Value,
        offsets: &[Value],
        layout: &RegisterLayout,
        dtype: DType,
    ) -> R<GPlan> {
        let v = self
            .views
            .get(&view)
            .ok_or("the view was not lowered")?
            .clone();
        let (tp, reps) = self.tparts(ctx, o, layout);
        let bytes = (dtype.bits() / 8).max(1) as i64;
        let rank = layout.rank();
        let n = layout.local_size();
        let lparts: Vec<Vec<i64>> = (0..n).map(|l| lpart(layout, l)).collect();
        // Vector width.
        let mut vw = if dtype.bits() >= 16 { 16 / bytes } else { 1 };
        // Vectors run along the view's contiguous dimension (static stride 1): the last one,
        // or dimension 0 of a transposed view.
        let last = v
            .static_strides
            .iter()
            .rposition(|s| *s == Some(1))
            .unwrap_or(rank - 1);
        if v.static_strides[last] == Some(1) {
            // Other strides only known at run time are checked on the fast path below.
            vw = register_vector_width(layout, &lparts, last, vw, |vw| {
                (0..rank)
                    .filter(|&d| d != last)
                    .all(|d| v.static_strides[d].is_none_or(|s| s % vw == 0))
            });
        } else {
            vw = 1;
        }
        let mut b = before(ctx, o);
        // Element coordinates of the thread's register 0 part.
        let idx: Vec<Value> = (0..rank).map(|d| b.add(offsets[d], tp[d])).collect();
        // Thread base address: base + Σ idx_d · stride_d · bytes (64-bit).
        let i64t = b.i64();
        let mut addr = v.base;
        for d in 0..rank {
            let x = ExtSIOp::build(&mut b, idx[d], i64t).out(b.ctx());
            let s = match v.static_strides[d] {
                Some(s) => b.mul_const(x, s * bytes),
                None => {
                    let s = ExtSIOp::build(&mut b, v.strides[d], i64t).out(b.ctx());
                    let s = b.mul_const(s, bytes);
                    b.mul(x, s)
                }
            };
            addr = b.add(addr, s);
        }
        // Per-register byte deltas: constants when the strides are. A dynamic stride's part is
        // computed where the access is (`GPlan::addr_of`), inside the fast or slow branch:
        // addresses made here would be live across the branch, two registers per row group.
        let mut deltas = Vec::new();
        let mut stride64: Vec<Option<Value>> = vec![None; rank];
        for l in 0..n as usize {
            let mut k = 0i64;
            let mut dynamic = Vec::new();
            for d in 0..rank {
                let c = lparts[l][d];
                if c == 0 {
                    continue;
                }
                match v.static_strides[d] {
                    Some(s) => k += c * s * bytes,
                    None => {
                        if stride64[d].is_none() {
                            let s = ExtSIOp::build(&mut b, v.strides[d], i64t).out(b.ctx());
                            stride64[d] = Some(b.mul_const(s, bytes));
                        }
                        dynamic.push((d, c));
                    }
                }
            }
            deltas.push(if dynamic.is_empty() {
                Delta::Imm(k)
            } else {
                Delta::Dyn(dynamic, k)
            });
        }
        // Fast path: the box is inside the view, everything aligned.
        let mut conds = Vec::new();
        let zero = b.c32(0);
        for d in 0..rank {
            conds.push(b.cmpi(CmpIPredicate::Sge, offsets[d], zero));
            let end = b.add_const(offsets[d], layout.shape[d]);
            conds.push(b.cmpi(CmpIPredicate::Sle, end, v.ext[d]));
        }
        if vw > 1 {
            let m = b.c32(vw - 1);
            let r = b.and(offsets[last], m);
            conds.push(b.cmpi(CmpIPredicate::Eq, r, zero));
            for d in (0..rank).filter(|&d| d != last) {
                if v.static_strides[d].is_none() {
                    let r = b.and(v.strides[d], m);
                    conds.push(b.cmpi(CmpIPredicate::Eq, r, zero));
                }
            }
            let m64 = b.c64(vw * bytes - 1);
            let z64 = b.c64(0);
            let r = b.and(v.base, m64);
            conds.push(b.cmpi(CmpIPredicate::Eq, r, z64));
        }
        let fast = b.all(&conds);
        // Replica 0 issues stores.
        let rep = b.replica0(&reps);
        Ok(GPlan {
            idx,
            ext: v.ext,
            lparts,
            addr,
            deltas,
            stride64,
            vw,
            fast,
            rep,
            bytes,
        })
    }

    pub(super) fn load_global(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        let r = ctx.results(o)[0];
        let t = ty_of(ctx, r).ok_or("bad type")?;
        let layout = Self::result_layout(ctx, o, r)?;
        let view = ctx.operands(o)[0];
        let offsets = ctx.operands(o)[1..].to_vec();
        let mem = memory_dtype(t.dtype);
        let p = self.global_plan(ctx, o, view, &offsets, &layout, mem)?;
        let elem = elem_type(ctx, mem);
        let n = layout.local_size() as usize;
        let mut b = before(ctx, o);
        let sfx = ld_suffix(mem)?;
        // 16-bit elements cross the fast/slow join as the 32-bit words the fast path loads, and
        // are unpacked after it: ptxas gives every 16-bit value live at a join a register of its
        // own, so a tile joined as halves needs twice the registers (the CK-Tile RMSNorm's
        // 256-half x tile spilled for this alone).
        let packed = p.bytes == 2 && p.vw >= 2;
        let i32t = b.i32();
        let tys = if packed {
            vec![i32t; n / 2]
        } else {
            vec![elem; n]
        };
        let joined = build_if(
            &mut b,
            p.fast,
            &tys,
            |b| {
                let mut out = Vec::new();
                for l in (0..n).step_by(p.vw as usize) {
                    let (a, k) = p.addr_of(b, l);
                    if packed {
                        out.extend(vector_load_words(b, "global", a, k, p.vw as usize / 2));
                    } else {
                        out.extend(vector_load(
                            b,
                            "global",
                            a,
                            k,
                            elem,
                            p.vw as usize,
                            p.bytes,
                            sfx,
                        ));
                    }
                }
                out
            },
            |b| {
                let mut out = Vec::new();
                // 16-bit elements go in pairs: one `mov.b32 {lo, hi}, 0` zeroes both defaults
                // (ptxas accepts a braced pair of 16-bit registers as a 32-bit destination),
                // where two `mov.b16`s would; each half is still loaded under its own predicate.
                let step = if p.bytes == 2 && n.is_multiple_of(2) {
                    2
                } else {
                    1
                };
                for l in (0..n).step_by(step) {
                    if step == 2 {
                        let inb0 = p.in_bounds(b, l);
                        let (a0, k0) = p.addr_of(b, l);
                        let inb1 = p.in_bounds(b, l + 1);
                        let (a1, k1) = p.addr_of(b, l + 1);
                        let text = format!(
                            "mov.b32 {{$0, $1}}, 0;\n@$3 ld.global.{sfx} $0, [$2{}];\n\
                             @$5 ld.global.{sfx} $1, [$4{}];",
                            imm(k0),
                            imm(k1)
                        );
                        let h = b.asm(&text, &[a0, inb0, a1, inb1], &[elem, elem]);
                        // Each pair packed as soon as it is loaded: halves are never all live.
                        if packed {
                            out.push(pack_halves(b, h[0], h[1]));
                        } else {
                            out.extend(h);
                        }
                        continue;
                    }
                    let inb = p.in_bounds(b, l);
                    let (a, k) = p.addr_of(b, l);
                    let z = zero_imm(b.ctx(), elem);
                    let text = format!("mov.{z};\n@$2 ld.global.{sfx} $0, [$1{}];", imm(k));
                    out.push(b.asm(&text, &[a, inb], &[elem])[0]);
                }
                out
            },
        );
        let vals: Vec<Value> = if packed {
            // Packing a pair again (a wgmma dot's staging) reuses the loaded word.
            let vals = self.unpack_words(ctx, o, &joined, elem);
            let unpacks = vals.iter().step_by(2).filter_map(|v| ctx.defining_op(*v));
            self.sinkable.extend(unpacks);
            vals
        } else {
            joined
        };
        // i1 is held in memory as a byte (0 or 1).
        let vals = cast_regs(ctx, o, vals, mem, t.dtype)?;
        self.set_tile(r, vals, layout, false);
        Ok(())
    }

    pub(super) fn store_global(&mut self, ctx: &mut Context, o: OpId) -> R<()> {
        let val = ctx.operands(o)[0];
        let view = ctx.operands(o)[1];
        let offsets = ctx.operands(o)[2..].to_vec();
        let t = ty_of(ctx, val).ok_or("bad type")?;
        let tile_layout = &self.tile(val)?.layout;
        let layout = t.register_layout().unwrap_or_else(|| tile_layout.clone());
        let vals = self.gather(ctx, val, &layout)?;
        let mem = memory_dtype(t.dtype);
        let p = self.global_plan(ctx, o, view, &offsets, &layout, mem)?;
        let elem = elem_type(ctx, mem);
        let n = layout.local_size() as usize;
        let sfx = ld_suffix(mem)?;
        // i1 is stored as a byte (0 or 1).
        let vals = cast_regs(ctx, o, vals, t.dtype, mem)?;
        let mut b = before(ctx, o);
        let vw = p.vw as usize;
        // One fast/slow branch per [`STORE_CHUNK_BYTES`] of vectors when the tile is vectorized,
        // so each chunk's values are made (their element-wise producers sink to it, see `sink`)
        // right before they are stored: a branch over the whole tile keeps the whole tile live
        // across it, with the slow path's temporaries on top (the CK-Tile RMSNorm's 128 words
        // spilled there). The condition is block-uniform, so the branches do not diverge.
        let chunk = if vw >= 2 {
            (STORE_CHUNK_BYTES / p.bytes as usize).max(vw).min(n) / vw * vw
        } else {
            n
        };
        for c0 in (0..n).step_by(chunk) {
            let vals = &vals[c0..(c0 + chunk).min(n)];
            let chunk = vals.len();
            // 16-bit values cross the branch packed into the words the fast path stores.
            let packed = p.bytes == 2 && vw >= 2;
            let words: Vec<Value> = if packed {
                let ws: Vec<Value> = vals
                    .chunks(2)
                    .map(|h| pack_halves(&mut b, h[0], h[1]))
                    .collect();
                self.sinkable
                    .extend(ws.iter().filter_map(|w| b.ctx().defining_op(*w)));
                ws
            } else {
                Vec::new()
            };
            build_if(
                &mut b,
                p.fast,
                &[],
                |b| {
                    for l in (0..chunk).step_by(vw) {
                        let (a, k) = p.addr_of(b, c0 + l);
                        if packed {
                            let w = &words[l / 2..(l + vw) / 2];
                            vector_store_words(b, "global", a, k, w, p.rep);
                            continue;
                        }
                        vector_store(
                            b,
                            "global",
                            a,
                            k,
                            &vals[l..l + vw],
                            elem,
                            p.bytes,
                            sfx,
                            p.rep,
                        );
                    }
                    vec![]
                },
                |b| {
                    let mut pair: Vec<Value> = Vec::new();
                    for l in 0..chunk {
                        // Each word unpacked just before its two stores.
                        let v = if packed {
                            if l % 2 == 0 {
                                pair = unpack_word(b, words[l / 2], elem);
                            }
                            pair[l % 2]
                        } else {
                            vals[l]
                        };
                        let inb = p.in_bounds(b, c0 + l);
                        let g = match p.rep {
                            Some(r) => b.and(inb, r),
                            None => inb,
                        };
                        let (a, k) = p.addr_of(b, c0 + l);
                        b.inst(
                            &format!("st.global.{sfx}"),
                            &format!("[$0{}], $1", imm(k)),
                            &[a, v],
                            &[],
                            Some(g),
                        );
                    }
                    vec![]
                },
            );
        }
        Ok(())
    }
}

/// Registers `vals` of element type `from` as `to`, before `at`: a tile's registers to and
/// from its memory type (`memory_dtype`), shared by the global and shared accesses. Nothing is
/// built when the types agree.
pub(super) fn cast_regs(
    ctx: &mut Context,
    at: OpId,
    vals: Vec<Value>,
    from: DType,
    to: DType,
) -> R<Vec<Value>> {
    if from == to {
        return Ok(vals);
    }
    let mut b = before(ctx, at);
    vals.into_iter()
        .map(|v| scalar_cast(&mut b, v, from, to))
        .collect()
}

/// The type a tile's elements have in global and shared memory: i1 is a byte (0 or 1), as the
/// host stores a mask; every other type is itself.
pub(super) fn memory_dtype(d: DType) -> DType {
    if d.bits() == 1 {
        DType::Int {
            bits: 8,
            signedness: tilus_ir::types::Signedness::Signless,
        }
    } else {
        d
    }
}

/// How a register's address is formed.
/// How many bytes of a thread's registers one fast/slow branch of a vectorized global store
/// covers (see `store_global`): enough vectors to amortize the branch and share the slow path's
/// bounds checks, few enough registers to keep live across it.
const STORE_CHUNK_BYTES: usize = 64;

#[derive(Clone, Debug)]
enum Delta {
    /// Thread address plus a constant.
    Imm(i64),
    /// Thread address plus `Σ c · stride_d` over dynamic strides (dimension, coefficient),
    /// plus a constant.
    Dyn(Vec<(usize, i64)>, i64),
}

struct GPlan {
    idx: Vec<Value>,
    ext: Vec<Value>,
    lparts: Vec<Vec<i64>>,
    addr: Value,
    deltas: Vec<Delta>,
    /// Byte strides (i64) of the dynamic dimensions the deltas use.
    stride64: Vec<Option<Value>>,
    vw: i64,
    fast: Value,
    rep: Option<Value>,
    bytes: i64,
}

impl GPlan {
    /// The address of register `l` as (register, constant), computed at `b`'s insertion point.
    fn addr_of(&self, b: &mut OpBuilder<'_>, l: usize) -> (Value, i64) {
        match &self.deltas[l] {
            Delta::Imm(k) => (self.addr, *k),
            Delta::Dyn(parts, k) => {
                let mut a = self.addr;
                for &(d, c) in parts {
                    let s = self.stride64[d].expect("dynamic stride");
                    let t = b.mul_const(s, c);
                    a = b.add(a, t);
                }
                (a, *k)
            }
        }
    }
    fn in_bounds(&self, b: &mut OpBuilder<'_>, l: usize) -> Value {
        let mut ps = Vec::new();
        for d in 0..self.idx.len() {
            let i = b.add_const(self.idx[d], self.lparts[l][d]);
            ps.push(b.cmpi(CmpIPredicate::Ult, i, self.ext[d]));
        }
        b.all(&ps)
    }
}

/// Moves each global tile load of `block` up to just after the previous one, across ops that
/// are pure and hold no regions (register arithmetic: casts, reductions, element-wise) and
/// define none of its operands. A load written after some arithmetic (LayerNorm's weight and
/// bias rows, loaded after both row reductions) then issues beside the first, and its latency
/// hides behind that arithmetic instead of following it; loads keep their order, and nothing
/// moves across a store, a barrier or a loop.
pub(super) fn cluster_loads(ctx: &mut Context, block: BlockId) {
    let is_load = |ctx: &Context, o: OpId| {
        matches!(
            TilusOpKind::classify(ctx, o),
            Some(TilusOpKind::LoadGlobal(_))
        )
    };
    let ops: Vec<OpId> = ctx.block_ops(block).collect();
    let mut prev_load: Option<OpId> = None;
    for o in ops {
        if !is_load(ctx, o) {
            continue;
        }
        if let Some(prev) = prev_load {
            let operands: FxHashSet<Value> = ctx.operands(o).iter().copied().collect();
            let mut to = o;
            let mut at = ctx.prev_op(o);
            while let Some(q) = at.filter(|q| *q != prev) {
                let pure = ctx.op_def(q).is_some_and(|d| d.has(tilus_ir::Trait::Pure))
                    && ctx.regions(q).is_empty();
                if !pure || ctx.results(q).iter().any(|r| operands.contains(r)) {
                    break;
                }
                to = q;
                at = ctx.prev_op(q);
            }
            if to != o {
                ctx.move_op_before(o, to);
            }
        }
        prev_load = Some(o);
    }
}

/// `mov` of zero into `$0`, for a register of type `t`.
fn zero_imm(ctx: &Context, t: Type) -> String {
    match ctx.type_kind(t) {
        TypeKind::Float(FloatKind::F32) => "f32 $0, 0f00000000".into(),
        TypeKind::Float(FloatKind::F64) => "f64 $0, 0d0000000000000000".into(),
        TypeKind::Float(_) => "b16 $0, 0".into(),
        TypeKind::Integer { width: 64, .. } => "b64 $0, 0".into(),
        TypeKind::Integer { width: 8 | 16, .. } => "b16 $0, 0".into(),
        _ => "b32 $0, 0".into(),
    }
}
