//! `tilus.dot` on the tensor cores: `mma.sync` with operands loaded by `ldmatrix`.
//!
//! The warp tiling and the fragment layouts are [`dot_layouts`]' (the dialects crate): warps on
//! a `wm x wn` grid, each repeating `mma.sync.m16n8kK` `rm x rn x rk` times. Per dot:
//!
//! 1. **Accumulator.** `c` is read in the accumulator fragment layout (no data moves when it
//!    already is in it, e.g. carried by an `scf.for` whose type names that layout, or a splat);
//!    otherwise it goes through the shared scratch like a `layout.convert`.
//! 2. **Operands.** An operand whose registers already hold its fragment (every thread has the
//!    elements the fragment asks of it) is used directly, 16-bit pairs packed with `mov.b32`.
//!    Otherwise every thread stores its registers into the shared scratch (replica 0 of each
//!    element; 16-byte vectors where the layout gives 16 contiguous bytes), the group syncs, and
//!    each warp loads its fragments with `ldmatrix.x4` (`.x2` for a lone B fragment): A row-major
//!    `[M][K]`; B 16-bit `[K][N]` with `.trans`; B tf32/8-bit transposed to `[N][K]` (ldmatrix
//!    transposes only 16-bit elements). Rows of the scratch are XOR-swizzled in 16-byte chunks
//!    (the chunk index within each 8-chunk group XOR the row's position among 8 consecutive
//!    rows, for rows of a power-of-two number of chunks; other rows are padded by 16 bytes), so
//!    that the 8 row addresses of each ldmatrix phase and the 16-byte stores of a quarter warp
//!    fall into distinct banks.
//! 3. **MMA.** Per K step `kk`: the A fragments of the warp's `rm` rows of instructions, its B
//!    fragments, then the `rm x rn` `mma.sync`. A sync after the last ldmatrix frees the scratch.
//!
//! ldmatrix and swizzle addresses are computed once per distinct pattern: two (instruction,
//! K step) pairs whose addresses differ by the same byte count in every thread of the group
//! (checked at compile time over all threads) share a register and an immediate offset.
//! The result has the type's layout if it names one, else the default layout, as every other
//! layout-less tile: a layout-less accumulator thus goes through the scratch twice per dot
//! (in and out of the fragment) until `infer-layouts` writes the fragment layout into the types.

use super::*;
use tilus_dialects::layout_algebra::SwizzleMode;
use tilus_dialects::layout_mma::{dot_layouts, DotLayouts};

/// One operand staged in the shared scratch: `rows` rows of `row_bytes` bytes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Staged {
    /// Byte offset of the region in the scratch.
    off: i64,
    row_bytes: i64,
    /// `Some(s)`: chunks are swizzled with the row bits above `2^s` chunks; `None`: rows are
    /// padded instead, to an odd number of 16-byte chunks.
    shift: Option<u32>,
    /// `Some((span, rows))`: wgmma's K-major canonical layout instead ([`Staged::wgmma`]).
    atom: Option<(i64, i64)>,
}

impl Staged {
    fn new(off: i64, rows: i64, row_bytes: i64) -> (Staged, i64) {
        let chunks = row_bytes / 16;
        let shift =
            (chunks > 0 && chunks.count_ones() == 1).then(|| chunks.trailing_zeros().max(3));
        let s = Staged {
            off,
            row_bytes,
            shift,
            atom: None,
        };
        (s, rows * s.stride())
    }

    /// The K-major layout wgmma reads with a swizzled descriptor: rows of `row_bytes` (the K
    /// of the tile) cut into atoms of one swizzle span (`min(row_bytes, 128)` bytes: 32, 64 or
    /// 128), atom `a` holding bytes `a·span ..` of every row, `span` bytes per row, one atom
    /// after the other; within the region the 16-byte chunk bits `4..` of each byte offset
    /// are XORed with bits `7..` (the hardware's 32B/64B/128B swizzle, which reads the
    /// address, hence `off` and the region's base are multiples of 1024). Returns the
    /// region's size.
    pub(super) fn wgmma(off: i64, rows: i64, row_bytes: i64) -> (Staged, i64) {
        let span = row_bytes.min(128);
        debug_assert!(off % 1024 == 0 && row_bytes % span == 0);
        let s = Staged {
            off,
            row_bytes,
            shift: None,
            atom: Some((span, rows)),
        };
        (s, rows * row_bytes)
    }

    /// The swizzle mode of a [`Staged::wgmma`] region.
    pub(super) fn swizzle(&self) -> SwizzleMode {
        match self.atom.map(|(span, _)| span) {
            Some(32) => SwizzleMode::B32,
            Some(64) => SwizzleMode::B64,
            Some(_) => SwizzleMode::B128,
            None => SwizzleMode::None,
        }
    }

    /// The region's offset in the scratch.
    pub(super) fn offset(&self) -> i64 {
        self.off
    }

    /// Bytes from one row to the next.
    fn stride(&self) -> i64 {
        match (self.atom, self.shift) {
            (Some((span, _)), _) => span,
            (None, Some(_)) => self.row_bytes,
            (None, None) => ((self.row_bytes / 16) | 1) * 16,
        }
    }

    /// For a [`Staged::wgmma`] region: the unswizzled offset (from the region's start) of byte
    /// `colb` of row `row`, the address a descriptor starts from.
    pub(super) fn linear(&self, row: i64, colb: i64) -> i64 {
        let (span, rows) = self.atom.expect("a wgmma region");
        (colb / span) * rows * span + row * span + colb % span
    }

    /// The byte offset (in the scratch) of byte `colb` of row `row`, at compile time.
    fn at(&self, row: i64, colb: i64) -> i64 {
        self.off
            + match (self.atom, self.shift) {
                (Some((span, _)), _) => {
                    let lin = self.linear(row, colb);
                    lin ^ ((lin >> 3) & (span - 16))
                }
                (None, Some(s)) => {
                    let lin = row * self.row_bytes + colb;
                    lin ^ (((lin >> (4 + s)) & 7) << 4)
                }
                (None, None) => row * self.stride() + colb,
            }
    }

    /// [`Staged::at`] at run time, added to `base` (the scratch's shared address).
    fn emit(&self, b: &mut OpBuilder<'_>, base: Value, row: Value, colb: Value) -> Value {
        let phys = match (self.atom, self.shift) {
            (Some((span, rows)), _) => {
                let r = b.mul_const(row, span);
                let within = b.urem_const(colb, span);
                let mut lin = b.add(r, within);
                if self.row_bytes > span {
                    let atom = b.udiv_const(colb, span);
                    let a = b.mul_const(atom, rows * span);
                    lin = b.add(lin, a);
                }
                let k = b.udiv_const(lin, 8);
                let m = b.c32(span - 16);
                let k = b.and(k, m);
                b.int_op(IntBinOp::XOrI, lin, k)
            }
            (None, Some(s)) => {
                let r = b.mul_const(row, self.row_bytes);
                let lin = b.add(r, colb);
                let k = b.udiv_const(lin, 1 << (4 + s));
                let k = b.urem_const(k, 8);
                let k = b.mul_const(k, 16);
                b.int_op(IntBinOp::XOrI, lin, k)
            }
            (None, None) => {
                let r = b.mul_const(row, self.stride());
                b.add(r, colb)
            }
        };
        let a = b.add(base, phys);
        b.add_const(a, self.off)
    }
}

/// Registers holding addresses that differ from each other by compile-time constants: a new
/// address reuses a register when its offset from that register's address is the same in
/// every thread.
struct AddrCache {
    /// Per register: its compile-time address in every thread, and the value.
    regs: Vec<(Vec<i64>, Value)>,
}

impl AddrCache {
    fn get(&mut self, want: Vec<i64>, emit: impl FnOnce() -> Value) -> (Value, i64) {
        for (have, v) in &self.regs {
            let d = want[0] - have[0];
            if want.iter().zip(have).all(|(w, h)| w - h == d) {
                return (*v, d);
            }
        }
        let v = emit();
        self.regs.push((want, v));
        (v, 0)
    }
}

/// How an operand is stored into the scratch: tile dim `row_dim` becomes the scratch row.
#[derive(Clone, Copy)]
pub(super) struct Store {
    pub(super) st: Staged,
    pub(super) row_dim: usize,
}

/// The thread coordinates an ldmatrix address is built from: warp row/column, the matrix
/// `q = lane / 8` split in its low and high bit, the row `lane % 8` within the matrix, and the
/// scratch's shared address.
struct LaneVals {
    wi: Value,
    wj: Value,
    qlo: Value,
    qhi: Value,
    r8: Value,
    base: Value,
}

/// `wi·c[0] + wj·c[1] + qlo·c[2] + qhi·c[3] + r8·c[4] + c[5]`.
#[derive(Clone, Copy, Debug)]
struct Affine([i64; 6]);

impl Affine {
    fn eval(&self, x: [i64; 5]) -> i64 {
        (0..5).map(|i| self.0[i] * x[i]).sum::<i64>() + self.0[5]
    }

    fn emit(&self, b: &mut OpBuilder<'_>, l: &LaneVals) -> Value {
        let mut acc = b.c32(self.0[5]);
        for (v, c) in [l.wi, l.wj, l.qlo, l.qhi, l.r8].into_iter().zip(self.0) {
            if c != 0 {
                let t = b.mul_const(v, c);
                acc = b.add(acc, t);
            }
        }
        acc
    }
}

/// The address lane `L` of a warp gives one ldmatrix: scratch row and byte column, both affine
/// in the thread coordinates ([`LaneVals`]); one description serves the compile-time table of
/// every thread's address and the emitted code, so the two cannot disagree.
#[derive(Clone, Copy, Debug)]
struct LaneAddr {
    row: Affine,
    colb: Affine,
}

impl LaneAddr {
    /// The coordinates of thread `t` of the group.
    fn coords(d: &DotLayouts, t: i64) -> [i64; 5] {
        let (w, l) = (t / 32, t % 32);
        let q = l / 8;
        [w / d.wn, w % d.wn, q % 2, q / 2, l % 8]
    }

    /// Every thread's address (scratch byte offset).
    fn table(&self, s: &Staged, d: &DotLayouts, threads: i64) -> Vec<i64> {
        (0..threads)
            .map(|t| {
                let x = Self::coords(d, t);
                s.at(self.row.eval(x), self.colb.eval(x))
            })
            .collect()
    }

    fn emit(&self, b: &mut OpBuilder<'_>, s: &Staged, l: &LaneVals) -> Value {
        let row = self.row.emit(b, l);
        let colb = self.colb.emit(b, l);
        s.emit(b, l.base, row, colb)
    }
}

/// A's ldmatrix.x4 of instruction row `i`, K step `kk` from the `[M][K]` scratch: matrix `q`
/// covers rows `(q % 2)·8 ..` and bytes `(q / 2)·16 ..` of the 16-row, 32-byte block, which
/// makes the four words `a0..a3` of the fragment.
fn a_lane_addr(d: &DotLayouts, bytes: i64, i: i64, kk: i64) -> LaneAddr {
    let tm = d.a.shape[0] / d.wm;
    LaneAddr {
        row: Affine([tm, 0, 8, 0, 1, 16 * i]),
        colb: Affine([0, 0, 0, 16, 0, kk * d.inst.k * bytes]),
    }
}

/// B's ldmatrix of fragments `j` (and `j + 1` when `pair`, `.x4`; else `.x2`) at K step `kk`.
/// Matrix `q` is word `q % 2` of fragment `j + q / 2`. From the `[K][N]` scratch (`trans`) its
/// rows are K `(q % 2)·8 ..` at columns `8·(j + q / 2) ..`; from the `[N][K]` scratch its rows
/// are N `8·(j + q / 2) ..` at bytes `(q % 2)·16 ..` of the K step.
fn b_lane_addr(d: &DotLayouts, bytes: i64, trans: bool, j: i64, kk: i64, pair: bool) -> LaneAddr {
    let tn = d.b.shape[1] / d.wn;
    let hi = if pair { 8 } else { 0 };
    if trans {
        LaneAddr {
            row: Affine([0, 0, 8, 0, 1, d.inst.k * kk]),
            colb: Affine([0, tn * bytes, 0, hi * bytes, 0, 8 * j * bytes]),
        }
    } else {
        LaneAddr {
            row: Affine([0, tn, 0, hi, 1, 8 * j]),
            colb: Affine([0, 0, 16, 0, 0, kk * d.inst.k * bytes]),
        }
    }
}

impl Lowering {
    /// Lowers `tilus.dot` to `mma.sync` when the types and shapes allow (module docs);
    /// `Ok(false)` leaves it to the SIMT lowering.
    pub(super) fn dot_mma(&mut self, ctx: &mut Context, o: OpId) -> R<bool> {
        let ops = ctx.operands(o).to_vec();
        let (a, bm, c) = (ops[0], ops[1], ops[2]);
        let r = ctx.results(o)[0];
        let (ta, tb, tc, tr) = (
            ty_of(ctx, a).ok_or("bad type")?,
            ty_of(ctx, bm).ok_or("bad type")?,
            ty_of(ctx, c).ok_or("bad type")?,
            ty_of(ctx, r).ok_or("bad type")?,
        );
        if ta.shape.len() != 2 || tb.shape.len() != 2 || tc.dtype != tr.dtype {
            return Ok(false);
        }
        let threads = Self::group_size(ctx, o);
        if threads % 32 != 0 {
            return Ok(false);
        }
        let (m, k, n) = (ta.shape[0], ta.shape[1], tb.shape[1]);
        let Some(d) = dot_layouts(m, n, k, ta.dtype, tc.dtype, threads / 32) else {
            return Ok(false);
        };
        let acc = match self.gather(ctx, c, &d.acc) {
            Ok(v) => v,
            Err(_) => self.convert_via_shared(ctx, o, c, &d.acc)?,
        };
        let bytes = d.inst.elem_bits() / 8;
        // Direct operands, else staged ones.
        let a_direct = self.direct_words(ctx, o, a, &d.a, &d)?;
        let b_direct = self.direct_words(ctx, o, bm, &d.b, &d)?;
        let mut used = 0i64;
        let mut region = |rows: i64, row_bytes: i64| {
            let (s, sz) = Staged::new(used, rows, row_bytes);
            used += (sz + 127) / 128 * 128;
            s
        };
        let a_store = a_direct.is_none().then(|| Store {
            st: region(m, k * bytes),
            row_dim: 0,
        });
        // 16-bit B is stored [K][N] and loaded with ldmatrix.trans unless its registers run
        // along K (a K-major B), which stores [N][K] in wider vectors.
        let b_trans = bytes == 2 && b_direct.is_none() && {
            let lb = self.operand_layout(ctx, o, bm)?;
            store_width(&lb, 0, bytes) >= store_width(&lb, 1, bytes)
        };
        let b_store = b_direct.is_none().then(|| {
            if b_trans {
                Store {
                    st: region(k, n * bytes),
                    row_dim: 0,
                }
            } else {
                Store {
                    st: region(n, k * bytes),
                    row_dim: 1,
                }
            }
        });
        let staged = a_store.is_some() || b_store.is_some();
        // The group's region of the scratch (only read when staged).
        let mut scratch = self.scratch_off;
        if staged {
            self.fence_scratch(ctx, o);
            scratch = self.claim_scratch(used);
            let mut b = before(ctx, o);
            let base = crate::lower::shared_memory::smem_base(&mut b);
            let base = b.add_const(base, scratch);
            for (src, t, s) in [(a, &ta, a_store), (bm, &tb, b_store)] {
                if let Some(s) = s {
                    self.stage(ctx, o, src, t.dtype, s, base)?;
                }
            }
            SyncOp::build(&mut before(ctx, o));
        }
        // Thread coordinates used by the ldmatrix addresses.
        let tid = self.tid(ctx, o);
        let mut b = before(ctx, o);
        let i32t = b.i32();
        let acc_t = b.ctx().value_type(acc[0]);
        let lanes = if staged {
            let lane = b.urem_const(tid, 32);
            let w = b.udiv_const(tid, 32);
            let q = b.udiv_const(lane, 8);
            let base = crate::lower::shared_memory::smem_base(&mut b);
            Some(LaneVals {
                wi: b.udiv_const(w, d.wn),
                wj: b.urem_const(w, d.wn),
                qlo: b.urem_const(q, 2),
                qhi: b.udiv_const(q, 2),
                r8: b.urem_const(lane, 8),
                base: b.add_const(base, scratch),
            })
        } else {
            None
        };
        let mut acc = acc;
        let mut a_cache = AddrCache { regs: Vec::new() };
        let mut b_cache = AddrCache { regs: Vec::new() };
        let ldm = |b: &mut OpBuilder<'_>, x: usize, trans: bool, addr: Value, off: i64| {
            let t = if trans { ".trans" } else { "" };
            b.inst(
                &format!("ldmatrix.sync.aligned.m8n8.x{x}{t}.shared.b16"),
                &format!("[$0{}]", imm(off)),
                &[addr],
                &vec![i32t; x],
                None,
            )
        };
        for kk in 0..d.rk {
            // A fragments of this K step: 4 words each.
            let mut af: Vec<Vec<Value>> = Vec::new();
            for i in 0..d.rm {
                if let Some(w) = &a_direct {
                    let blk = (i * d.rk + kk) as usize;
                    af.push(w[blk * 4..blk * 4 + 4].to_vec());
                    continue;
                }
                let s = a_store.expect("staged").st;
                let la = a_lane_addr(&d, bytes, i, kk);
                let lv = lanes.as_ref().expect("staged");
                let (addr, off) =
                    a_cache.get(la.table(&s, &d, threads), || la.emit(&mut b, &s, lv));
                af.push(ldm(&mut b, 4, false, addr, off));
            }
            // B fragments: 2 words each.
            let mut bf: Vec<Vec<Value>> = Vec::new();
            let mut j = 0;
            while j < d.rn {
                if let Some(w) = &b_direct {
                    let blk = (kk * d.rn + j) as usize;
                    bf.push(w[blk * 2..blk * 2 + 2].to_vec());
                    j += 1;
                    continue;
                }
                let s = b_store.expect("staged").st;
                let pair = j + 1 < d.rn;
                let la = b_lane_addr(&d, bytes, b_trans, j, kk, pair);
                let lv = lanes.as_ref().expect("staged");
                let (addr, off) =
                    b_cache.get(la.table(&s, &d, threads), || la.emit(&mut b, &s, lv));
                let words = ldm(&mut b, if pair { 4 } else { 2 }, b_trans, addr, off);
                bf.push(words[0..2].to_vec());
                if pair {
                    bf.push(words[2..4].to_vec());
                }
                j += if pair { 2 } else { 1 };
            }
            for i in 0..d.rm {
                for j in 0..d.rn {
                    let blk = ((i * d.rn + j) * 4) as usize;
                    let mut args = af[i as usize].clone();
                    args.extend(&bf[j as usize]);
                    args.extend(&acc[blk..blk + 4]);
                    let out = b.inst(
                        &d.inst.opcode(),
                        "{$0, $1, $2, $3}, {$4, $5}, {$6, $7, $8, $9}",
                        &args,
                        &[acc_t; 4],
                        None,
                    );
                    acc[blk..blk + 4].copy_from_slice(&out);
                }
            }
        }
        if staged {
            SyncOp::build(&mut b);
        }
        // The result in its type's layout, else the default one: what an scf.for carrying it
        // from a layout-less init expects (infer-layouts writes the fragment layout into the
        // types, and then nothing moves here).
        let lr = Self::result_layout(ctx, o, r)?;
        self.set_tile(r, acc, d.acc.clone(), false);
        if !lr.same_mapping(&d.acc) {
            let vals = match self.gather(ctx, r, &lr) {
                Ok(v) => v,
                Err(_) => self.convert_via_shared(ctx, o, r, &lr)?,
            };
            self.set_tile(r, vals, lr, false);
        }
        Ok(true)
    }

    /// The layout an operand's registers are in (a splat is read in the default layout).
    fn operand_layout(&self, ctx: &Context, o: OpId, v: Value) -> R<RegisterLayout> {
        let tile = self.tile(v)?;
        if tile.splat.is_some() {
            let t = ty_of(ctx, v).ok_or("bad type")?;
            default_layout(&t.shape, t.dtype.bits(), Self::group_size(ctx, o))
        } else {
            Ok(tile.layout.clone())
        }
    }

    /// The 32-bit words of an operand that already is in its fragment layout `l` (block after
    /// block, as `mma.sync` takes them), or `None` when it must go through shared memory.
    fn direct_words(
        &mut self,
        ctx: &mut Context,
        o: OpId,
        v: Value,
        l: &RegisterLayout,
        d: &DotLayouts,
    ) -> R<Option<Vec<Value>>> {
        let per = d.inst.per_word();
        if per > 2 {
            // 8-bit operands would need byte packing; ldmatrix packs them for free.
            return Ok(None);
        }
        let Ok(vals) = self.gather(ctx, v, l) else {
            return Ok(None);
        };
        if per == 1 {
            return Ok(Some(vals));
        }
        let mut b = before(ctx, o);
        let i32t = b.i32();
        let mut cache: FxHashMap<(Value, Value), Value> = FxHashMap::default();
        let words = vals
            .chunks(2)
            .map(|p| {
                *cache.entry((p[0], p[1])).or_insert_with(|| {
                    b.inst("mov.b32", "{$0, $1}", &[p[0], p[1]], &[i32t], None)[0]
                })
            })
            .collect();
        Ok(Some(words))
    }

    /// Stores operand `src` (`[R, C]` in its own layout) into its scratch region (`base` is
    /// the shared address the region's offset counts from): tile dim `row_dim` is the scratch
    /// row, the other the byte column. Replica 0 of each element
    /// stores; 16-byte vectors where the layout gives every thread 16 contiguous bytes.
    pub(super) fn stage(
        &mut self,
        ctx: &mut Context,
        o: OpId,
        src: Value,
        dt: DType,
        s: Store,
        base: Value,
    ) -> R<()> {
        let tile = self.tile(src)?.clone();
        let threads = Self::group_size(ctx, o);
        let ls = self.operand_layout(ctx, o, src)?;
        let vals = if tile.splat.is_some() {
            self.gather(ctx, src, &ls)?
        } else {
            tile.vals.clone()
        };
        if ls.num_threads() != threads {
            return Err(format!(
                "tilus.dot: the operand layout '{ls}' spreads over {} threads, the group has {threads}",
                ls.num_threads()
            ));
        }
        let bytes = (dt.bits() / 8).max(1) as i64;
        let sfx = ld_suffix(dt)?;
        let col_dim = 1 - s.row_dim;
        let nl = ls.local_size();
        let vw = store_width(&ls, s.row_dim, bytes);
        let (tp, reps) = self.tparts(ctx, o, &ls);
        let mut b = before(ctx, o);
        let guard = b.replica0(&reps);
        let elem = b.ctx().value_type(vals[0]);
        let mut cache = AddrCache { regs: Vec::new() };
        for l in (0..nl).step_by(vw as usize) {
            let lp = lpart(&ls, l);
            let want: Vec<i64> = (0..threads)
                .map(|t| {
                    let c = ls.coords(t, l);
                    s.st.at(c[s.row_dim], c[col_dim] * bytes)
                })
                .collect();
            let (addr, off) = cache.get(want, || {
                let row = b.add_const(tp[s.row_dim], lp[s.row_dim]);
                let col = b.add_const(tp[col_dim], lp[col_dim]);
                let colb = b.mul_const(col, bytes);
                s.st.emit(&mut b, base, row, colb)
            });
            let run = &vals[l as usize..(l + vw) as usize];
            // 16-bit pairs unpacked from a word (a load's, a loop's) are stored as that word.
            let words: Option<Vec<Value>> = (bytes == 2 && vw >= 2)
                .then(|| {
                    run.chunks(2)
                        .map(|p| self.packed.get(&(p[0], p[1])).copied())
                        .collect()
                })
                .flatten();
            match words {
                Some(w) => {
                    let i32t = b.i32();
                    vector_store(&mut b, "shared", addr, off, &w, i32t, 4, "b32", guard)
                }
                None => vector_store(&mut b, "shared", addr, off, run, elem, bytes, sfx, guard),
            }
        }
        Ok(())
    }
}

/// The widest vector (elements, at most 16 bytes) in which a thread can store its registers of
/// `ls` into a scratch whose rows are tile dim `row_dim`: runs of registers contiguous along
/// the other dim, aligned in every thread. 8-bit elements are stored one by one.
fn store_width(ls: &RegisterLayout, row_dim: usize, bytes: i64) -> i64 {
    let col_dim = 1 - row_dim;
    let nl = ls.local_size();
    let threads = ls.num_threads();
    let mut vw = if bytes >= 2 { 16 / bytes } else { 1 };
    while vw > 1 {
        let ok = nl % vw == 0
            && (0..threads).all(|t| ls.coords(t, 0)[col_dim] % vw == 0)
            && (0..nl).step_by(vw as usize).all(|l| {
                let c0 = lpart(ls, l);
                c0[col_dim] % vw == 0
                    && (1..vw).all(|j| {
                        let c = lpart(ls, l + j);
                        c[row_dim] == c0[row_dim] && c[col_dim] == c0[col_dim] + j
                    })
            });
        if ok {
            break;
        }
        vw /= 2;
    }
    vw
}

#[cfg(test)]
mod tests {
    use super::{a_lane_addr, b_lane_addr, LaneAddr, Staged};
    use rustc_hash::FxHashMap;
    use tilus_dialects::layout_mma::{dot_layouts, DotLayouts};
    use tilus_dialects::tilus_types::DType;
    use tilus_ir::types::Signedness;

    /// A byte of the scratch: which element (row, col of the operand) and which of its bytes.
    type Mem = FxHashMap<i64, (i64, i64, i64)>;

    /// ldmatrix as the ISA defines it, on the bytes of `mem`: in matrix `q` lane `L` of the warp
    /// gets the 32-bit word at bytes `4·(L % 4)` of row `L / 4` (`.trans`: the 16-bit elements
    /// of column `L / 4` in rows `2·(L % 4)` and `+1`), each row at the address that lane
    /// `8q + row` gives.
    fn ldmatrix(mem: &Mem, addrs: &[i64], t: i64, q: i64, trans: bool) -> Vec<(i64, i64, i64)> {
        let warp0 = t / 32 * 32;
        let l = t % 32;
        let row_addr = |r: i64| addrs[(warp0 + q * 8 + r) as usize];
        let at = |a: i64| {
            *mem.get(&a)
                .unwrap_or_else(|| panic!("address {a} not staged"))
        };
        if trans {
            let (r, c) = (2 * (l % 4), l / 4);
            (0..2)
                .flat_map(|e| (0..2).map(move |bb| (e, bb)))
                .map(|(e, bb)| at(row_addr(r + e) + 2 * c + bb))
                .collect()
        } else {
            (0..4)
                .map(|bb| at(row_addr(l / 4) + 4 * (l % 4) + bb))
                .collect()
        }
    }

    /// The bytes register word `w` of fragment block `blk` must hold, by the fragment layout.
    fn expected(
        l: &tilus_dialects::layout_algebra::RegisterLayout,
        t: i64,
        blk: i64,
        words: i64,
        w: i64,
        bytes: i64,
    ) -> Vec<(i64, i64, i64)> {
        let per = 4 / bytes;
        (0..per)
            .flat_map(|e| {
                let c = l.coords(t, (blk * words + w) * per + e);
                (0..bytes).map(move |bb| (c[0], c[1], bb))
            })
            .collect()
    }

    fn stage(
        s: &Staged,
        rows: i64,
        cols: i64,
        bytes: i64,
        f: impl Fn(i64, i64) -> (i64, i64),
    ) -> Mem {
        let mut mem = Mem::default();
        for r in 0..rows {
            for c in 0..cols {
                for bb in 0..bytes {
                    let (x, y) = f(r, c);
                    assert!(mem.insert(s.at(r, c * bytes + bb), (x, y, bb)).is_none());
                }
            }
        }
        mem
    }

    /// Every word every ldmatrix of the lowering delivers is the word of the fragment layout
    /// `dot_layouts` promises, for A and for B in both scratch orientations, for each type.
    #[test]
    fn ldmatrix_delivers_the_fragments() {
        let s8 = DType::Int {
            bits: 8,
            signedness: Signedness::Signless,
        };
        let i32t = DType::Int {
            bits: 32,
            signedness: Signedness::Signless,
        };
        for (m, n, k, ab, acc, warps) in [
            (128, 128, 32, DType::F16, DType::F32, 8),
            (64, 40, 64, DType::BF16, DType::F32, 2),
            (32, 32, 16, DType::TF32, DType::F32, 4),
            (32, 64, 64, s8, i32t, 2),
        ] {
            let d: DotLayouts = dot_layouts(m, n, k, ab, acc, warps).unwrap();
            let bytes = d.inst.elem_bits() / 8;
            let threads = warps * 32;
            let (sa, _) = Staged::new(0, m, k * bytes);
            let mem_a = stage(&sa, m, k, bytes, |r, c| (r, c));
            for i in 0..d.rm {
                for kk in 0..d.rk {
                    let la: LaneAddr = a_lane_addr(&d, bytes, i, kk);
                    let addrs = la.table(&sa, &d, threads);
                    for t in 0..threads {
                        for q in 0..4 {
                            assert_eq!(
                                ldmatrix(&mem_a, &addrs, t, q, false),
                                expected(&d.a, t, i * d.rk + kk, 4, q, bytes),
                                "A {ab:?}: thread {t}, instruction ({i}, {kk}), word {q}"
                            );
                        }
                    }
                }
            }
            let orientations: &[bool] = if bytes == 2 { &[true, false] } else { &[false] };
            for &trans in orientations {
                let (sb, mem_b) = if trans {
                    let (sb, _) = Staged::new(0, k, n * bytes);
                    (sb, stage(&sb, k, n, bytes, |r, c| (r, c)))
                } else {
                    let (sb, _) = Staged::new(0, n, k * bytes);
                    (sb, stage(&sb, n, k, bytes, |r, c| (c, r)))
                };
                for kk in 0..d.rk {
                    let mut j = 0;
                    while j < d.rn {
                        let pair = j + 1 < d.rn;
                        let la = b_lane_addr(&d, bytes, trans, j, kk, pair);
                        let addrs = la.table(&sb, &d, threads);
                        for t in 0..threads {
                            for q in 0..if pair { 4 } else { 2 } {
                                let blk = kk * d.rn + j + q / 2;
                                assert_eq!(
                                    ldmatrix(&mem_b, &addrs, t, q, trans),
                                    expected(&d.b, t, blk, 2, q % 2, bytes),
                                    "B {ab:?} trans={trans}: thread {t}, fragment ({kk}, {}), word {}",
                                    j + q / 2,
                                    q % 2
                                );
                            }
                        }
                        j += if pair { 2 } else { 1 };
                    }
                }
            }
        }
    }

    /// The 8 row addresses of one ldmatrix phase (8 consecutive rows, one 16-byte chunk
    /// column) hit 8 distinct 16-byte bank groups, for every row size the lowering swizzles;
    /// and the swizzle is a bijection on the region.
    #[test]
    fn swizzled_rows_are_conflict_free() {
        for row_bytes in [16i64, 32, 64, 128, 256, 512] {
            let (s, size) = Staged::new(0, 64, row_bytes);
            assert!(s.shift.is_some());
            let mut seen = vec![false; size as usize / 16];
            for row in 0..64 {
                for chunk in 0..row_bytes / 16 {
                    let a = s.at(row, chunk * 16);
                    assert_eq!(a % 16, 0);
                    assert!(!seen[(a / 16) as usize], "{row_bytes}: {row}, {chunk}");
                    seen[(a / 16) as usize] = true;
                }
            }
            for r0 in (0..64).step_by(8) {
                for chunk in 0..row_bytes / 16 {
                    let mut banks: Vec<i64> = (r0..r0 + 8)
                        .map(|r| (s.at(r, chunk * 16) / 16) % 8)
                        .collect();
                    banks.sort_unstable();
                    banks.dedup();
                    assert_eq!(
                        banks.len(),
                        8,
                        "{row_bytes} bytes, rows {r0}.., chunk {chunk}"
                    );
                }
            }
        }
        // Rows of 3 chunks stay 3 chunks apart, rows of 6 are padded to 7: an odd stride
        // puts 8 consecutive rows in 8 distinct bank groups.
        for (row_bytes, stride) in [(48, 48), (96, 112)] {
            let (s, size) = Staged::new(0, 8, row_bytes);
            assert!(s.shift.is_none());
            assert_eq!(size, 8 * stride);
            let mut banks: Vec<i64> = (0..8).map(|r| (s.at(r, 16) / 16) % 8).collect();
            banks.sort_unstable();
            banks.dedup();
            assert_eq!(banks.len(), 8);
        }
    }
    /// The wgmma staging layout is the hardware's: each byte lands where the 32B/64B/128B
    /// swizzle (the dialect's TMA definition, `Swizzle::from_mode` on bytes) puts the byte of
    /// the canonical K-major layout (atoms of one span, `span` bytes per row), every 16-byte
    /// chunk stays whole, and no two bytes share an address.
    #[test]
    fn wgmma_staging_is_the_hardware_swizzle() {
        use tilus_dialects::layout_algebra::Swizzle;
        for (rows, row_bytes) in [(64i64, 32i64), (128, 64), (64, 128), (128, 256)] {
            let (s, size) = Staged::wgmma(0, rows, row_bytes);
            assert_eq!(size, rows * row_bytes);
            let span = row_bytes.min(128);
            let swz = Swizzle::from_mode(s.swizzle(), 8).unwrap().unwrap();
            let mut seen = vec![false; size as usize];
            for r in 0..rows {
                for cb in 0..row_bytes {
                    let lin = (cb / span) * rows * span + r * span + cb % span;
                    assert_eq!(s.linear(r, cb), lin);
                    let a = s.at(r, cb);
                    assert_eq!(a, swz.apply(lin), "{row_bytes}: ({r}, {cb})");
                    assert_eq!(a % 16, cb % 16);
                    assert!(!seen[a as usize]);
                    seen[a as usize] = true;
                }
            }
        }
    }
}
