//! The register layouts of warp-level `mma.sync` (PTX ISA §9.7.14.5, "Matrix Fragments") and
//! of a `tilus.dot` tiled over a group of warps.
//!
//! `mma.sync` reads A, B and C from fixed registers of fixed lanes: lane `L` of the warp holds
//! the elements the ISA's fragment tables assign to `groupID = L / 4` and
//! `threadID_in_group = L % 4`. Written as [`RegisterLayout`]s those tables become values the
//! rest of the compiler can reason about: the lowering of `tilus.dot` asks whether an operand
//! already sits in its fragment (then no data moves), layout inference anchors a dot's
//! accumulator on [`dot_layouts`] so that the `scf.for` carrying it needs no conversion, and the
//! interpreter and the GPU agree on which thread holds which element because both read the
//! same layout.
//!
//! A dot `[M, K] x [K, N] + [M, N]` over `warps` warps puts the warps on a `wm x wn` grid (warp
//! `w = wi·wn + wj` owns accumulator rows `wi·M/wm ..` and columns `wj·N/wn ..`); each warp
//! repeats the instruction `rm x rn` times over its tile and `rk` times along K. The register
//! order puts the instruction index outermost, so instruction `(i, j)` owns the contiguous
//! register block `i·rn + j` of the accumulator, and `(i, kk)` / `(kk, j)` the blocks
//! `i·rk + kk` / `kk·rn + j` of A and B: a lowering walks the blocks without any index math.

use crate::layout_algebra::RegisterLayout;
use crate::tilus_types::DType;
use tilus_ir::types::Signedness;

/// One `mma.sync` instruction shape and its PTX type names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaInst {
    /// Rows of A and of the accumulator per instruction (always 16 here).
    pub m: i64,
    /// Columns of B and of the accumulator per instruction (always 8 here).
    pub n: i64,
    /// The reduction depth: 16 for f16/bf16, 8 for tf32, 32 for 8-bit integers. It always
    /// covers 32 bytes of a row of A, which is why one `ldmatrix.x4` loads one A fragment.
    pub k: i64,
    /// PTX type of A and B (`f16`, `bf16`, `tf32`, `s8`, `u8`).
    pub ab_type: &'static str,
    /// PTX type of the accumulator (`f32`, `s32`).
    pub acc_type: &'static str,
}

impl MmaInst {
    /// The instruction for A/B of `ab` and an accumulator of `acc`, if the tensor cores have
    /// one (sm_80 and later): f16/bf16 with f32, tf32 with f32, 8-bit integers with 32-bit
    /// integers. A signless `i8` is read as signed, as the rest of the dialect does.
    pub fn for_types(ab: DType, acc: DType) -> Option<MmaInst> {
        let (k, ab_type, acc_type) = match (ab, acc) {
            (DType::F16, DType::F32) => (16, "f16", "f32"),
            (DType::BF16, DType::F32) => (16, "bf16", "f32"),
            (DType::TF32, DType::F32) => (8, "tf32", "f32"),
            (
                DType::Int {
                    bits: 8,
                    signedness,
                },
                DType::Int { bits: 32, .. },
            ) => (
                32,
                if signedness == Signedness::Unsigned {
                    "u8"
                } else {
                    "s8"
                },
                "s32",
            ),
            _ => return None,
        };
        Some(MmaInst {
            m: 16,
            n: 8,
            k,
            ab_type,
            acc_type,
        })
    }

    /// Elements of A or B packed into one 32-bit register (2 for 16-bit types, 1 for tf32, 4
    /// for 8-bit integers).
    pub fn per_word(&self) -> i64 {
        32 / self.elem_bits()
    }

    /// Bits of one A/B element.
    pub fn elem_bits(&self) -> i64 {
        match self.ab_type {
            "f16" | "bf16" => 16,
            "tf32" => 32,
            _ => 8,
        }
    }

    /// The PTX opcode (`mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`).
    pub fn opcode(&self) -> String {
        let (d, ab) = (self.acc_type, self.ab_type);
        let sat = if d == "s32" { ".satfinite" } else { "" };
        format!(
            "mma.sync.aligned.m{}n{}k{}.row.col{sat}.{d}.{ab}.{ab}.{d}",
            self.m, self.n, self.k
        )
    }

    /// One warp's A fragment (`16 x k`, 32 lanes): rows `groupID` and `groupID + 8`, each
    /// 32-bit register holding `per_word` consecutive columns starting at
    /// `threadID_in_group · per_word`, the second half of K in the last two registers.
    pub fn a_fragment(&self) -> RegisterLayout {
        let w = self.per_word();
        RegisterLayout::column_local(&[2, 2])
            .compose(&RegisterLayout::spatial(&[8, 4]))
            .compose(&RegisterLayout::local(&[1, w]))
    }

    /// One warp's B fragment (`k x 8`): column `groupID`, rows
    /// `threadID_in_group · per_word + ..` in the first register and 16 bytes further down K
    /// in the second.
    pub fn b_fragment(&self) -> RegisterLayout {
        let w = self.per_word();
        RegisterLayout::local(&[2, 1])
            .compose(&RegisterLayout::column_spatial(&[4, 8]))
            .compose(&RegisterLayout::local(&[w, 1]))
    }

    /// One warp's accumulator fragment (`16 x 8`): rows `groupID` and `groupID + 8`, columns
    /// `2 · threadID_in_group + {0, 1}`.
    pub fn acc_fragment(&self) -> RegisterLayout {
        RegisterLayout::local(&[2, 1])
            .compose(&RegisterLayout::spatial(&[8, 4]))
            .compose(&RegisterLayout::local(&[1, 2]))
    }
}

/// The layouts of a `tilus.dot` computed with `mma.sync` by a group of warps (module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DotLayouts {
    /// A `[M, K]`: replicated over the `wn` warps of a warp row.
    pub a: RegisterLayout,
    /// B `[K, N]`: replicated over the `wm` warps of a warp column.
    pub b: RegisterLayout,
    /// The accumulator and result `[M, N]`: every element in exactly one thread.
    pub acc: RegisterLayout,
    /// The instruction each warp repeats.
    pub inst: MmaInst,
    /// The warp grid: `wm` warps along M, `wn` along N (`wm · wn` = the group's warps).
    pub wm: i64,
    pub wn: i64,
    /// Instructions per warp along M, N and K.
    pub rm: i64,
    pub rn: i64,
    pub rk: i64,
}

/// The `mma.sync` layouts of an `[M, K] x [K, N] + [M, N]` dot with A/B of `ab` and an
/// accumulator of `acc`, over `warps` warps; `None` when the tensor cores cannot do it (types
/// without an instruction, or shapes that are not whole instruction tiles on some warp grid).
///
/// The warp grid is the one that loads the fewest operand rows per warp (`M/wm + N/wn`, each
/// A row and B column costing the same bytes), preferring warp tiles whose N is a multiple of
/// 16 (one `ldmatrix.x4` then loads two B fragments) and, on ties, more warps along M.
pub fn dot_layouts(
    m: i64,
    n: i64,
    k: i64,
    ab: DType,
    acc: DType,
    warps: i64,
) -> Option<DotLayouts> {
    let inst = MmaInst::for_types(ab, acc)?;
    if warps < 1 || m < 1 || n < 1 || k < 1 || k % inst.k != 0 {
        return None;
    }
    let mut best: Option<(i64, i64, (bool, i64, i64))> = None;
    for wm in 1..=warps {
        if warps % wm != 0 {
            continue;
        }
        let wn = warps / wm;
        if m % (wm * inst.m) != 0 || n % (wn * inst.n) != 0 {
            continue;
        }
        let (tm, tn) = (m / wm, n / wn);
        // Smaller is better: (odd B tile, rows loaded, fewer M warps).
        let key = (tn % 16 != 0, tm + tn, -wm);
        if best.as_ref().is_none_or(|b| key < b.2) {
            best = Some((wm, wn, key));
        }
    }
    let (wm, wn, _) = best?;
    let (rm, rn, rk) = (m / wm / inst.m, n / wn / inst.n, k / inst.k);
    let a = RegisterLayout::spatial(&[wm, 1])
        .compose(&RegisterLayout::replicate(wn))
        .compose(&RegisterLayout::local(&[rm, rk]))
        .compose(&inst.a_fragment());
    let b = RegisterLayout::replicate(wm)
        .compose(&RegisterLayout::spatial(&[1, wn]))
        .compose(&RegisterLayout::local(&[rk, rn]))
        .compose(&inst.b_fragment());
    let acc = RegisterLayout::spatial(&[wm, wn])
        .compose(&RegisterLayout::local(&[rm, rn]))
        .compose(&inst.acc_fragment());
    Some(DotLayouts {
        a,
        b,
        acc,
        inst,
        wm,
        wn,
        rm,
        rn,
        rk,
    })
}

/// A `tilus.dot` computed by whole warpgroups with `wgmma.mma_async` (sm_90a): warpgroup `g`
/// of the group owns accumulator rows `g·M/W ..` (W warpgroups along M, each reading all of B),
/// repeating `m64n{inst_n}k16` over `rm` row blocks of 64, `rn` column blocks and `rk` K steps.
/// Both operands are read from shared memory (K-major, swizzled), so only the accumulator has
/// a fixed register layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WgmmaDot {
    /// The accumulator and result `[M, N]`: `spatial(W, 1)` over the warpgroups, each holding
    /// the wgmma fragment of its `M/W x N` rows.
    pub acc: RegisterLayout,
    /// Warpgroups along M.
    pub warpgroups: i64,
    /// The instruction's N: `gcd(N, 256)`, the largest the tile allows.
    pub inst_n: i64,
    /// Instructions per warpgroup along M (blocks of 64 rows), N and K (steps of 16).
    pub rm: i64,
    pub rn: i64,
    pub rk: i64,
    /// PTX type of A and B (`f16`, `bf16`).
    pub ab_type: &'static str,
}

impl WgmmaDot {
    /// The PTX opcode of one instruction (`wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16`).
    pub fn opcode(&self) -> String {
        let ab = self.ab_type;
        format!(
            "wgmma.mma_async.sync.aligned.m64n{}k16.f32.{ab}.{ab}",
            self.inst_n
        )
    }
}

/// The wgmma plan of an `[M, K] x [K, N] + [M, N]` dot over `threads` threads, or `None` when
/// wgmma cannot compute it as [`WgmmaDot`] describes: A/B f16 or bf16 with an f32 accumulator
/// (the 16-bit inputs every Hopper wgmma takes; tf32 and 8-bit dots keep `mma.sync`), whole
/// warpgroups, `M` a multiple of 64 per warpgroup, `N` a multiple of 8, and `K` a multiple of
/// 16 whose row of `2K` bytes is one 32-, 64- or 128-byte swizzle span or a whole number of
/// 128-byte spans (the K-major canonical layouts wgmma reads).
pub fn wgmma_dot(m: i64, n: i64, k: i64, ab: DType, acc: DType, threads: i64) -> Option<WgmmaDot> {
    let ab_type = match (ab, acc) {
        (DType::F16, DType::F32) => "f16",
        (DType::BF16, DType::F32) => "bf16",
        _ => return None,
    };
    if threads < 128 || threads % 128 != 0 || n < 8 || n % 8 != 0 || k < 16 || k % 16 != 0 {
        return None;
    }
    let w = threads / 128;
    if m % (64 * w) != 0 || m == 0 {
        return None;
    }
    let row_bytes = 2 * k;
    if !matches!(row_bytes, 32 | 64) && row_bytes % 128 != 0 {
        return None;
    }
    let mut inst_n = 256;
    while n % inst_n != 0 {
        inst_n /= 2;
    }
    let acc = RegisterLayout::spatial(&[w, 1]).compose(&crate::layout_algebra::wgmma_accumulator(
        m / w,
        n,
        inst_n,
    ));
    Some(WgmmaDot {
        acc,
        warpgroups: w,
        inst_n,
        rm: m / w / 64,
        rn: n / inst_n,
        rk: k / 16,
        ab_type,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const S8: DType = DType::Int {
        bits: 8,
        signedness: Signedness::Signless,
    };
    const I32: DType = DType::Int {
        bits: 32,
        signedness: Signedness::Signless,
    };

    /// The ISA's tables, written as the ISA states them (element `i` of lane `lane` → row,
    /// col), for the three shapes lowered.
    fn isa_a(k: i64, lane: i64, i: i64) -> (i64, i64) {
        let (g, t) = (lane >> 2, lane % 4);
        match k {
            // m16n8k16 .f16/.bf16: rows g for a0,a1,a4,a5; cols 2t + (i & 1) (+8 for i >= 4).
            16 => (
                if i < 2 || (4..6).contains(&i) {
                    g
                } else {
                    g + 8
                },
                t * 2 + (i & 1) + if i >= 4 { 8 } else { 0 },
            ),
            // m16n8k8 .tf32: rows g for a0,a2; cols t (+4 for a2, a3).
            8 => (
                if i == 0 || i == 2 { g } else { g + 8 },
                t + if i >= 2 { 4 } else { 0 },
            ),
            // m16n8k32 .s8/.u8: rows g for a0..a3 and a8..a11; cols 4t + (i & 3) (+16 for i >= 8).
            32 => (
                if i < 4 || (8..12).contains(&i) {
                    g
                } else {
                    g + 8
                },
                t * 4 + (i & 3) + if i >= 8 { 16 } else { 0 },
            ),
            _ => unreachable!(),
        }
    }

    fn isa_b(k: i64, lane: i64, i: i64) -> (i64, i64) {
        let (g, t) = (lane >> 2, lane % 4);
        let row = match k {
            16 => t * 2 + (i & 1) + if i >= 2 { 8 } else { 0 },
            8 => t + if i >= 1 { 4 } else { 0 },
            32 => t * 4 + (i & 3) + if i >= 4 { 16 } else { 0 },
            _ => unreachable!(),
        };
        (row, g)
    }

    fn isa_c(lane: i64, i: i64) -> (i64, i64) {
        let (g, t) = (lane >> 2, lane % 4);
        (if i < 2 { g } else { g + 8 }, t * 2 + (i & 1))
    }

    fn check(l: &RegisterLayout, regs: i64, f: impl Fn(i64, i64) -> (i64, i64)) {
        assert_eq!(l.num_threads(), 32, "{l}");
        assert_eq!(l.local_size(), regs, "{l}");
        for lane in 0..32 {
            for i in 0..regs {
                let c = l.coords(lane, i);
                assert_eq!((c[0], c[1]), f(lane, i), "{l}: lane {lane}, element {i}");
            }
        }
    }

    #[test]
    fn fragments_match_the_isa_tables() {
        for (ab, acc, k, a_regs, b_regs) in [
            (DType::F16, DType::F32, 16, 8, 4),
            (DType::BF16, DType::F32, 16, 8, 4),
            (DType::TF32, DType::F32, 8, 4, 2),
            (S8, I32, 32, 16, 8),
        ] {
            let inst = MmaInst::for_types(ab, acc).unwrap();
            assert_eq!(inst.k, k);
            assert_eq!(inst.a_fragment().shape, vec![16, k]);
            assert_eq!(inst.b_fragment().shape, vec![k, 8]);
            check(&inst.a_fragment(), a_regs, |l, i| isa_a(k, l, i));
            check(&inst.b_fragment(), b_regs, |l, i| isa_b(k, l, i));
            check(&inst.acc_fragment(), 4, isa_c);
        }
    }

    #[test]
    fn opcodes() {
        let f = MmaInst::for_types(DType::F16, DType::F32).unwrap();
        assert_eq!(
            f.opcode(),
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
        );
        let t = MmaInst::for_types(DType::TF32, DType::F32).unwrap();
        assert_eq!(
            t.opcode(),
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
        );
        let i = MmaInst::for_types(S8, I32).unwrap();
        assert_eq!(
            i.opcode(),
            "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"
        );
        assert!(MmaInst::for_types(DType::F32, DType::F32).is_none());
        assert!(MmaInst::for_types(DType::F16, DType::F16).is_none());
    }

    /// Warp `w = wi·wn + wj`, lane `L`, instruction `(i, j)`, fragment element `e` holds
    /// accumulator `[wi·M/wm + 16i + row(L, e), wj·N/wn + 8j + col(L, e)]` in register
    /// `(i·rn + j)·4 + e`; A and B follow the same rule with their replication.
    #[test]
    fn warp_tiled_layouts_place_every_instruction() {
        for (m, n, k, ab, acc, warps) in [
            (128, 128, 32, DType::F16, DType::F32, 4),
            (128, 128, 32, DType::BF16, DType::F32, 8),
            (64, 32, 16, DType::TF32, DType::F32, 2),
            (32, 64, 64, S8, I32, 4),
        ] {
            let d = dot_layouts(m, n, k, ab, acc, warps).unwrap();
            let inst = &d.inst;
            assert_eq!(d.wm * d.wn, warps);
            assert_eq!(d.acc.shape, vec![m, n]);
            assert_eq!(d.a.shape, vec![m, k]);
            assert_eq!(d.b.shape, vec![k, n]);
            let (tm, tn) = (m / d.wm, n / d.wn);
            let (na, nb) = (
                inst.a_fragment().local_size(),
                inst.b_fragment().local_size(),
            );
            for t in 0..warps * 32 {
                let (w, lane) = (t / 32, t % 32);
                let (wi, wj) = (w / d.wn, w % d.wn);
                for i in 0..d.rm {
                    for j in 0..d.rn {
                        for e in 0..4 {
                            let (r, c) = isa_c(lane, e);
                            let got = d.acc.coords(t, (i * d.rn + j) * 4 + e);
                            assert_eq!(got, vec![wi * tm + 16 * i + r, wj * tn + 8 * j + c]);
                        }
                    }
                    for kk in 0..d.rk {
                        for e in 0..na {
                            let (r, c) = isa_a(inst.k, lane, e);
                            let got = d.a.coords(t, (i * d.rk + kk) * na + e);
                            assert_eq!(got, vec![wi * tm + 16 * i + r, inst.k * kk + c]);
                        }
                    }
                }
                for kk in 0..d.rk {
                    for j in 0..d.rn {
                        for e in 0..nb {
                            let (r, c) = isa_b(inst.k, lane, e);
                            let got = d.b.coords(t, (kk * d.rn + j) * nb + e);
                            assert_eq!(got, vec![inst.k * kk + r, wj * tn + 8 * j + c]);
                        }
                    }
                }
            }
            // Each accumulator element has one holder; A and B are replicated across the
            // other warp dimension.
            assert_eq!(d.acc.replication(), 1);
            assert_eq!(d.a.replication(), d.wn);
            assert_eq!(d.b.replication(), d.wm);
        }
    }

    #[test]
    fn warp_grid_choice() {
        let d = dot_layouts(128, 128, 32, DType::F16, DType::F32, 4).unwrap();
        assert_eq!((d.wm, d.wn, d.rm, d.rn, d.rk), (2, 2, 4, 8, 2));
        let d = dot_layouts(128, 128, 32, DType::F16, DType::F32, 8).unwrap();
        assert_eq!((d.wm, d.wn), (4, 2));
        // A tall tile keeps the warps along M.
        let d = dot_layouts(256, 16, 16, DType::F16, DType::F32, 4).unwrap();
        assert_eq!((d.wm, d.wn), (4, 1));
        // Not whole instruction tiles, or no instruction: the SIMT path's business.
        assert!(dot_layouts(24, 16, 16, DType::F16, DType::F32, 1).is_none());
        assert!(dot_layouts(16, 16, 24, DType::F16, DType::F32, 1).is_none());
        assert!(dot_layouts(16, 8, 16, DType::F16, DType::F32, 4).is_none());
        assert!(dot_layouts(16, 16, 16, DType::F32, DType::F32, 1).is_none());
    }

    #[test]
    fn the_accumulator_prints_and_parses_back() {
        let d = dot_layouts(128, 128, 32, DType::F16, DType::F32, 4).unwrap();
        let text = d.acc.to_string();
        let back = RegisterLayout::parse(&text).unwrap();
        assert!(back.same_mapping(&d.acc), "{text}");
    }
    /// The warpgroup-tiled accumulator puts element `(r, c)` where wgmma leaves it (PTX ISA,
    /// wgmma D fragment: rows `16·warp + L/4` and `+8`, columns `2·(L % 4) + {0, 1}` of every
    /// 8-column chunk) in warpgroup `r / (M/W)`, and every element in exactly one thread.
    #[test]
    fn wgmma_accumulator_over_warpgroups() {
        for (m, n, threads) in [
            (128, 128, 256),
            (128, 256, 256),
            (64, 64, 128),
            (256, 96, 256),
        ] {
            let d = wgmma_dot(m, n, 32, DType::F16, DType::F32, threads).unwrap();
            let mw = m / d.warpgroups;
            let mut seen = std::collections::HashSet::new();
            for t in 0..threads {
                let (g, warp, lane) = (t / 128, (t % 128) / 32, t % 32);
                for l in 0..d.acc.local_size() {
                    let c = d.acc.coords(t, l);
                    let (r, col) = (c[0], c[1]);
                    assert_eq!(r / mw, g, "{m}x{n}: thread {t} reg {l}");
                    let rr = r % 64;
                    assert_eq!(rr / 16, warp);
                    assert_eq!(rr % 8, lane / 4);
                    assert_eq!((col % 8) / 2, lane % 4);
                    assert!(seen.insert((r, col)));
                }
            }
            assert_eq!(seen.len() as i64, m * n);
        }
        assert!(wgmma_dot(128, 128, 32, DType::F16, DType::F32, 96).is_none());
        assert!(wgmma_dot(64, 128, 32, DType::F16, DType::F32, 256).is_none());
        assert!(wgmma_dot(128, 128, 48, DType::F16, DType::F32, 256).is_none());
        assert!(wgmma_dot(128, 128, 32, DType::TF32, DType::F32, 256).is_none());
        assert_eq!(
            wgmma_dot(128, 192, 64, DType::BF16, DType::F32, 256)
                .unwrap()
                .opcode(),
            "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"
        );
    }
}
