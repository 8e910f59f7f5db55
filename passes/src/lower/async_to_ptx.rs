//! `lower-async-to-ptx`: mbarrier, TMA, WGMMA and tcgen05 ops to PTX instructions (spec §4.2,
//! §5.3–5.5, §6.4–6.5, §7).
//!
//! It runs on tile-level IR and rewrites only the asynchronous and synchronizing ops; register
//! tiles, thread groups and shared tensors are left to the other lowerings. Addresses are taken
//! with `tilus.shared_addr` and `mbarrier.addr`, which shared-memory planning turns into the
//! dynamic shared base plus compile-time offsets.
//!
//! | op | PTX |
//! |---|---|
//! | `mbarrier.alloc` | hoisted to kernel entry (with explicit `counts`); thread 0 runs `mbarrier.init.shared::cta.b64 [a], c` per barrier, then every thread `fence.mbarrier_init.release.cluster` and `bar.sync 0` (in a kernel with a cluster of several CTAs, `barrier.cluster.arrive.release` + `wait.acquire`: peers multicast into and arrive on these barriers) |
//! | `mbarrier.arrive` | `mbarrier.arrive.{sem}.{scope}.shared::cta.b64 _, [a], count` |
//! | `mbarrier.arrive_expect_tx` | `mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cta.b64 _, [a], bytes` |
//! | `..._remote` | `mapa.shared::cluster.u32 r, a, rank` + `mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cluster.b64 _, [r], bytes` |
//! | `..._multicast` | thread `i` of the group, if bit `i` of the mask is set: `mapa` to rank `i` + the cluster form |
//! | `mbarrier.wait` | `ptx.asm` loop on `mbarrier.try_wait.parity.{sem}.{scope}.shared::cta.b64` |
//! | `mbarrier.{producer,consumer}_initial_phase` | `arith.constant 1` / `0` |
//! | `tma.global_to_shared` | `cp.async.bulk.tensor.Nd.shared::cta.global.tile.mbarrier::complete_tx::bytes [dst], [map, {c..}], [bar]` (`.multicast::cluster` + 16-bit mask; `.cta_group::N`), a new `!ptx.tensormap` kernel parameter per site |
//! | `tma.shared_to_global` | `cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [map, {c..}], [src]` |
//! | `tma.commit_group` / `wait_group` | `cp.async.bulk.commit_group`, `cp.async.bulk.wait_group(.read) n` |
//! | `tma.fence_proxy_async(_release)` | `fence.proxy.async.shared::cta` / `.global`, `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster` |
//! | `wgmma.fence` / `commit_group` / `wait_group` | `wgmma.fence.sync.aligned`, `wgmma.commit_group.sync.aligned`, `wgmma.wait_group.sync.aligned n` (then `fence.acq_rel.cta` after a `wait_group 0` in a kernel that also waits with `n > 0`: see `lower_op`) |
//! | `wgmma.mma` | per sub-instruction: two 64-bit descriptors and `wgmma.mma_async.sync.aligned.m64nNkK.D.A.B {acc block}, adesc, bdesc, 1, 1, 1, 0, 0` on the accumulator *tile* (see below) |
//! | `tcgen05.*` | `alloc`/`dealloc`/`relinquish_alloc_permit`, `mma` with the instruction descriptor, `commit`, `ld`/`st` (`32x32b`), `wait::ld`/`wait::st`, `cp` (`128x128b`), fences |
//!
//! One-thread issue (TMA copies, `tcgen05.mma`/`commit`/`cp`) in a one-warp group is guarded by
//! the warp's leader lane, `elect.sync` computed once at kernel entry.
//!
//! **Tile operands.** `wgmma.mma`, `tcgen05.ld` and `tcgen05.st` read or write register tiles,
//! which become per-thread scalars only in `lower-tiles`. They are lowered to `ptx.inst` whose
//! operand 0 is the tile (and, for `wgmma.mma` and `tcgen05.ld`, whose one result is the updated
//! tile of the same type), with the discardable attribute `tile_block = array<i64: b, n>`: the
//! tile pass expands the tile into its `local_size` scalars in local-index order, cuts them into
//! `n` equal contiguous blocks and uses block `b` as the instruction's register list (the
//! destination, tied to the same registers as inputs, for `wgmma.mma`/`tcgen05.ld`; the source
//! list for `tcgen05.st`); the other blocks pass through unchanged. Sub-instruction `(i, j)` of a
//! `wgmma.mma` uses block `i·rn + j` (spec §6.5). Because `ptx.inst` only takes register types
//! today, such an op does not verify until `ptx.inst` admits `!tilus.reg` operands (or the tile
//! pass runs in the same pass-manager step).
//!
//! **Tensor maps.** Every TMA site gets a `!ptx.tensormap` kernel parameter appended to the
//! `tilus.kernel` (its `blocks` map gains a dimension) and an entry in the kernel's
//! `tilus.tensor_maps` attribute, which says how the host builds it with
//! `cuTensorMapEncodeTiled` (format in `docs/design/lowering.md`).

use super::build::{before, run_on_kernels};
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::{
    AddIOp, AndIOp, ArithOpKind, ConstantOp, ExtUIOp, IndexCastOp, IntBinOp, MulIOp, OrIOp, ShLIOp,
    ShRUIOp, TruncIOp,
};
use tilus_dialects::layout_algebra::{RegisterLayout, SwizzleMode};
use tilus_dialects::mbarrier::{AddrOp, AllocOp as BarrierAllocOp, MbarrierOpKind as M};
use tilus_dialects::mbarrier::{ARRIVE_SEM, SCOPE, WAIT_SEM};
use tilus_dialects::ptx::inst_properties;
use tilus_dialects::ptx::{AsmOp, InstOp, SpecialOp};
use tilus_dialects::tcgen05::Tcgen05OpKind as C;
use tilus_dialects::threadgroup::group_of;
use tilus_dialects::threadgroup::SyncOp;
use tilus_dialects::tilus::{
    GlobalViewOp, RegisterTensorOp, SharedAddrOp, SharedTensorOp, ThreadIdOp, WarpIdOp,
};
use tilus_dialects::tilus_types::{
    attr_i64s, barrier_count, prop_i64, DType, Space, TensorType, DYN,
};
use tilus_dialects::tma::TmaOpKind as T;
use tilus_dialects::wgmma::WgmmaOpKind as W;
use tilus_ir::rewrite::{int_attr, Rewriter};
use tilus_ir::{Attr, AttrKind, Context, Diagnostic, OpBuilder, OpId, Type, TypeKind, Value};

declare_pass! {
    /// The pass. It has no options.
    pub struct AsyncToPtx {
        name: "lower-async-to-ptx",
        class: "LowerAsyncToPtx",
        summary: "Lower mbarrier, TMA, WGMMA and tcgen05 ops to PTX instructions",
        description: "Rewrites the mbarrier, tma, wgmma and tcgen05 ops of each tilus.kernel \
            into ptx.inst / ptx.asm with the PTX spellings of the spec (mbarrier.init hoisted to \
            entry, arrive/expect_tx/mapa, try_wait.parity loops, cp.async.bulk.tensor with one \
            !ptx.tensormap parameter per TMA site recorded in tilus.tensor_maps, bulk groups, \
            proxy fences, wgmma descriptors and mma_async on the accumulator tile, tcgen05 \
            alloc/mma/commit/ld/st/cp). Addresses come from tilus.shared_addr and mbarrier.addr.",
        options: {},
        statistics: {
            NUM_LOWERED = "num-lowered", "Number of async/sync ops lowered";
        },
    }
}

impl Pass for AsyncToPtx {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        run_on_kernels(ctx, op, stats, Self::NUM_LOWERED, lower_kernel)
    }
}

// ----- encoders ---------------------------------------------------------------------------------

/// The wgmma swizzle field (bits 62–63): 0 none, 1 = 128B, 2 = 64B, 3 = 32B.
pub fn wgmma_swizzle_code(m: SwizzleMode) -> u64 {
    match m {
        SwizzleMode::None => 0,
        SwizzleMode::B128 => 1,
        SwizzleMode::B64 => 2,
        SwizzleMode::B32 => 3,
    }
}

/// The tcgen05 swizzle field (bits 61–63): 0 none, 2 = 128B, 4 = 64B, 6 = 32B.
pub fn tcgen05_swizzle_code(m: SwizzleMode) -> u64 {
    match m {
        SwizzleMode::None => 0,
        SwizzleMode::B128 => 2,
        SwizzleMode::B64 => 4,
        SwizzleMode::B32 => 6,
    }
}

/// The wgmma shared-memory matrix descriptor (spec §6.4): start address, LBO and SBO in bytes
/// (each stored `>> 4` in 14 bits), base offset 0, and the swizzle mode.
pub fn wgmma_descriptor(start: u64, lbo: u64, sbo: u64, swizzle: SwizzleMode) -> u64 {
    wgmma_descriptor_hi(lbo, sbo, swizzle) | ((start >> 4) & 0x3fff)
}

/// The part of a wgmma descriptor that does not depend on the start address.
pub fn wgmma_descriptor_hi(lbo: u64, sbo: u64, swizzle: SwizzleMode) -> u64 {
    (((lbo >> 4) & 0x3fff) << 16)
        | (((sbo >> 4) & 0x3fff) << 32)
        | (wgmma_swizzle_code(swizzle) << 62)
}

/// The tcgen05 shared-memory descriptor (spec §7.2): as wgmma's but with the constant `0b001`
/// at bits 46–48 and the 3-bit swizzle field at bit 61.
pub fn tcgen05_descriptor(start: u64, lbo: u64, sbo: u64, swizzle: SwizzleMode) -> u64 {
    tcgen05_descriptor_hi(lbo, sbo, swizzle) | ((start >> 4) & 0x3fff)
}

/// The part of a tcgen05 descriptor that does not depend on the start address.
pub fn tcgen05_descriptor_hi(lbo: u64, sbo: u64, swizzle: SwizzleMode) -> u64 {
    (((lbo >> 4) & 0x3fff) << 16)
        | (((sbo >> 4) & 0x3fff) << 32)
        | (1 << 46)
        | (tcgen05_swizzle_code(swizzle) << 61)
}

/// `tcgen05.mma` kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmaKind {
    F16,
    Tf32,
    F8f6f4,
    I8,
}

impl MmaKind {
    /// The kind of an input type.
    pub fn of(d: DType) -> Option<MmaKind> {
        Some(match d {
            DType::F16 | DType::BF16 => MmaKind::F16,
            DType::TF32 => MmaKind::Tf32,
            DType::F8E4M3 | DType::F8E5M2 | DType::F6E2M3 | DType::F6E3M2 | DType::F4E2M1 => {
                MmaKind::F8f6f4
            }
            DType::Int { bits: 8, .. } => MmaKind::I8,
            _ => return None,
        })
    }
    /// `f16`, `tf32`, `f8f6f4`, `i8`.
    pub fn name(self) -> &'static str {
        match self {
            MmaKind::F16 => "f16",
            MmaKind::Tf32 => "tf32",
            MmaKind::F8f6f4 => "f8f6f4",
            MmaKind::I8 => "i8",
        }
    }
    /// The K of one instruction.
    pub fn inst_k(self) -> i64 {
        match self {
            MmaKind::F16 => 16,
            MmaKind::Tf32 => 8,
            MmaKind::F8f6f4 | MmaKind::I8 => 32,
        }
    }
}

fn idesc_input_code(kind: MmaKind, d: DType) -> Option<u32> {
    Some(match (kind, d) {
        (MmaKind::F16, DType::F16) => 0,
        (MmaKind::F16, DType::BF16) => 1,
        (MmaKind::Tf32, DType::TF32) => 0,
        (MmaKind::F8f6f4, DType::F8E4M3) => 0,
        (MmaKind::F8f6f4, DType::F8E5M2) => 1,
        (MmaKind::F8f6f4, DType::F6E2M3) => 3,
        (MmaKind::F8f6f4, DType::F6E3M2) => 4,
        (MmaKind::F8f6f4, DType::F4E2M1) => 5,
        (MmaKind::I8, DType::Int { signedness, .. }) => {
            u32::from(signedness != tilus_ir::types::Signedness::Unsigned)
        }
        _ => return None,
    })
}

/// The 32-bit `tcgen05.mma` instruction descriptor (spec §7.2) for dense, K-major (or, with
/// `trans_*`, MN-major) operands; `None` for type combinations the kinds do not have.
pub fn tcgen05_instr_descriptor(
    a: DType,
    b: DType,
    d: DType,
    m: i64,
    n: i64,
    trans_a: bool,
    trans_b: bool,
) -> Option<u32> {
    let kind = MmaKind::of(a)?;
    if MmaKind::of(b)? != kind || (matches!(kind, MmaKind::F16 | MmaKind::Tf32) && a != b) {
        return None;
    }
    let dcode: u32 = match (kind, d) {
        (MmaKind::I8, DType::Int { bits: 32, .. }) => 0,
        (MmaKind::I8, _) => return None,
        (_, DType::F16) => 0,
        (_, DType::F32) => 1,
        _ => return None,
    };
    let (ac, bc) = (idesc_input_code(kind, a)?, idesc_input_code(kind, b)?);
    Some(
        (dcode << 4)
            | (ac << 7)
            | (bc << 10)
            | (u32::from(trans_a) << 15)
            | (u32::from(trans_b) << 16)
            | ((((n >> 3) as u32) & 0x3f) << 17)
            | ((((m >> 4) as u32) & 0x1f) << 24),
    )
}

/// The PTX type name of a wgmma / tcgen05 input type.
fn mma_type_name(d: DType) -> Option<&'static str> {
    Some(match d {
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        DType::TF32 => "tf32",
        DType::F32 => "f32",
        DType::F8E4M3 => "e4m3",
        DType::F8E5M2 => "e5m2",
        DType::Int {
            bits: 8,
            signedness: tilus_ir::types::Signedness::Unsigned,
        } => "u8",
        DType::Int { bits: 8, .. } => "s8",
        DType::Int { bits: 32, .. } => "s32",
        _ => return None,
    })
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A K-major shared operand viewed as `[rows, K]` with `K` contiguous: its row stride in bytes,
/// swizzle, and the element size. The canonical swizzled atom is 8 rows of one swizzle span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KMajor {
    /// Bytes between consecutive rows.
    pub row_bytes: i64,
    /// Bytes per element.
    pub elem_bytes: i64,
    pub swizzle: SwizzleMode,
}

impl KMajor {
    /// Reads operand `t` (rank 2) whose K dimension is `k_dim` (1 for A `[M, K]`, 0 for B
    /// `[K, N]`). Requires K contiguous, a swizzle, and rows exactly one swizzle span apart.
    pub fn of(t: &TensorType, k_dim: usize) -> Result<KMajor, String> {
        let l = t.shared_layout()?;
        if l.rank() != 2 {
            return Err(format!("expects a rank-2 operand, found rank {}", l.rank()));
        }
        let other = 1 - k_dim;
        if l.strides[k_dim] != 1 {
            return Err(format!(
                "expects a K-major operand (stride 1 along K, dimension {k_dim}), found strides {:?}; MN-major operands are not lowered yet",
                l.strides
            ));
        }
        let eb = (t.dtype.bits() / 8) as i64;
        if t.swizzle == SwizzleMode::None {
            return Err(
                "expects a swizzled (32B, 64B or 128B) operand: the unswizzled canonical layout \
                 (8x16-byte core matrices stored contiguously) is not a strided 2-D layout"
                    .into(),
            );
        }
        let span = t.swizzle.span_bytes();
        let row_bytes = l.strides[other] * eb;
        if row_bytes != span || t.shape[k_dim] * eb > span {
            return Err(format!(
                "expects rows of exactly one {span}-byte swizzle span (the canonical K-major atom), found rows {row_bytes} bytes apart and K = {} x {} bytes",
                t.shape[k_dim], eb
            ));
        }
        Ok(KMajor {
            row_bytes,
            elem_bytes: eb,
            swizzle: t.swizzle,
        })
    }
    /// Stride-dimension byte offset: between 8-row groups.
    pub fn sbo(&self) -> i64 {
        8 * self.row_bytes
    }
    /// Leading-dimension byte offset: 0, a single K atom (spec §6.4 example).
    pub fn lbo(&self) -> i64 {
        0
    }
    /// Byte offset of element `(row, k)` in the unswizzled canonical layout.
    pub fn offset(&self, row: i64, k: i64) -> i64 {
        row * self.row_bytes + k * self.elem_bytes
    }
}

/// One `wgmma.mma_async` of a `wgmma.mma`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WgmmaInst {
    /// M block, N block, K step.
    pub i: i64,
    pub j: i64,
    pub kk: i64,
    /// Byte offsets of the A and B start addresses from the operands' first elements.
    pub a_offset: i64,
    pub b_offset: i64,
    /// Accumulator register block `i·rn + j` of `blocks`.
    pub block: i64,
}

/// The decomposition of a `wgmma.mma` (spec §6.2–6.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WgmmaPlan {
    pub opcode: String,
    pub a: KMajor,
    pub b: KMajor,
    /// Register blocks of the accumulator: `rm · rn`.
    pub blocks: i64,
    /// k-outer, then m, then n.
    pub insts: Vec<WgmmaInst>,
    /// Integer kinds take no scale/transpose immediates.
    pub integer: bool,
}

/// Plans a `wgmma.mma` with shared A `[M, K]`, shared B `[K, N]` and accumulator type `d`.
pub fn wgmma_plan(a: &TensorType, b: &TensorType, d: DType) -> Result<WgmmaPlan, String> {
    if a.space != Space::Shared {
        return Err("expects A in shared memory (register A is not lowered yet)".into());
    }
    let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
    let inst_k = tilus_dialects::wgmma::inst_k(a.dtype)
        .ok_or_else(|| format!("no wgmma for {} inputs", a.dtype.name()))?;
    let inst_n = gcd(n, 256);
    let ka = KMajor::of(a, 1).map_err(|e| format!("A: {e}"))?;
    let kb = KMajor::of(b, 0).map_err(|e| format!("B: {e}"))?;
    let (dn, an, bn) = (
        mma_type_name(d).ok_or("unsupported accumulator type")?,
        mma_type_name(a.dtype).ok_or("unsupported A type")?,
        mma_type_name(b.dtype).ok_or("unsupported B type")?,
    );
    let (rm, rn) = (m / 64, n / inst_n);
    let mut insts = Vec::new();
    for kk in 0..k / inst_k {
        for i in 0..rm {
            for j in 0..rn {
                insts.push(WgmmaInst {
                    i,
                    j,
                    kk,
                    a_offset: ka.offset(i * 64, kk * inst_k),
                    b_offset: kb.offset(j * inst_n, kk * inst_k),
                    block: i * rn + j,
                });
            }
        }
    }
    Ok(WgmmaPlan {
        opcode: format!("wgmma.mma_async.sync.aligned.m64n{inst_n}k{inst_k}.{dn}.{an}.{bn}"),
        a: ka,
        b: kb,
        blocks: rm * rn,
        insts,
        integer: matches!(a.dtype, DType::Int { .. }),
    })
}

// ----- tensor-map records -----------------------------------------------------------------------

/// A grid-constant integer expression over the kernel's parameters, for the host: `42`, `p3`
/// (parameter 3's value), `a + b`, `a * b`, `(a)`, and `a floordiv c`, `a ceildiv c` by a
/// positive constant (the affine forms of `arith.floordivsi` and `arith.ceildivsi`, exact for
/// every sign).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Const(i64),
    Param(usize),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    FloorDiv(Box<Expr>, i64),
    CeilDiv(Box<Expr>, i64),
}

impl Expr {
    fn add(a: Expr, b: Expr) -> Expr {
        match (a, b) {
            (Expr::Const(x), Expr::Const(y)) => Expr::Const(x + y),
            (Expr::Const(0), e) | (e, Expr::Const(0)) => e,
            (a, b) => Expr::Add(Box::new(a), Box::new(b)),
        }
    }
    fn mul(a: Expr, b: Expr) -> Expr {
        match (a, b) {
            (Expr::Const(x), Expr::Const(y)) => Expr::Const(x * y),
            (Expr::Const(0), _) | (_, Expr::Const(0)) => Expr::Const(0),
            (Expr::Const(1), e) | (e, Expr::Const(1)) => e,
            (a, b) => Expr::Mul(Box::new(a), Box::new(b)),
        }
    }
    /// The expression as an affine expression whose symbol `sN` is kernel parameter N. A
    /// product of two parameters is semi-affine (a product of symbols), which MLIR's affine
    /// maps allow.
    fn affine(&self) -> tilus_ir::attrs::AffineExpr {
        use tilus_ir::attrs::{AffineExpr as A, AffineOp};
        match self {
            Expr::Const(c) => A::Const(*c),
            Expr::Param(p) => A::Sym(*p as u32),
            Expr::Add(a, b) => A::Bin(AffineOp::Add, Box::new(a.affine()), Box::new(b.affine())),
            Expr::FloorDiv(a, c) => A::Bin(
                AffineOp::FloorDiv,
                Box::new(a.affine()),
                Box::new(A::Const(*c)),
            ),
            Expr::CeilDiv(a, c) => A::Bin(
                AffineOp::CeilDiv,
                Box::new(a.affine()),
                Box::new(A::Const(*c)),
            ),
            Expr::Mul(a, b) => {
                let (mut l, mut r) = (a.affine(), b.affine());
                // MLIR orders a product of two symbols by position; doing the same here
                // keeps the map's text unchanged through mlir-opt.
                if let (A::Sym(x), A::Sym(y)) = (&l, &r) {
                    if x > y {
                        std::mem::swap(&mut l, &mut r);
                    }
                }
                A::Bin(AffineOp::Mul, Box::new(l), Box::new(r))
            }
        }
    }
}

/// The host expression of a grid-constant value: constants, kernel parameters, and `arith`
/// add/mul/casts of them and their floor/ceil divisions by positive constants.
fn expr_of(ctx: &Context, kernel_entry: tilus_ir::BlockId, v: Value) -> Result<Expr, String> {
    if let Some(i) = ctx.block_args(kernel_entry).iter().position(|a| *a == v) {
        return Ok(Expr::Param(i));
    }
    let Some(d) = ctx.defining_op(v) else {
        return Err("a block argument that is not a kernel parameter".into());
    };
    use ArithOpKind as A;
    match A::classify(ctx, d) {
        Some(A::Constant(_)) => ctx
            .get_prop(d, "value")
            .and_then(|a| match ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                _ => None,
            })
            .map(Expr::Const)
            .ok_or_else(|| "a non-integer constant".into()),
        Some(k @ (A::AddI(_) | A::MulI(_))) => {
            let ops = ctx.operands(d);
            let (a, b) = (
                expr_of(ctx, kernel_entry, ops[0])?,
                expr_of(ctx, kernel_entry, ops[1])?,
            );
            Ok(if matches!(k, A::AddI(_)) {
                Expr::add(a, b)
            } else {
                Expr::mul(a, b)
            })
        }
        Some(k @ (A::FloorDivSI(_) | A::CeilDivSI(_))) => {
            let ops = ctx.operands(d);
            let a = expr_of(ctx, kernel_entry, ops[0])?;
            let c = match expr_of(ctx, kernel_entry, ops[1])? {
                Expr::Const(c) if c > 0 => c,
                _ => {
                    return Err(format!(
                        "a division by something other than a positive constant ('{}')",
                        ctx.op_name_str(d)
                    ))
                }
            };
            Ok(match (k, a) {
                (A::FloorDivSI(_), Expr::Const(x)) => Expr::Const(x.div_euclid(c)),
                (_, Expr::Const(x)) => Expr::Const(-((-x).div_euclid(c))),
                (_, a) if c == 1 => a,
                (A::FloorDivSI(_), a) => Expr::FloorDiv(Box::new(a), c),
                (_, a) => Expr::CeilDiv(Box::new(a), c),
            })
        }
        Some(A::IndexCast(_) | A::IndexCastUI(_) | A::ExtSI(_) | A::ExtUI(_) | A::TruncI(_)) => {
            expr_of(ctx, kernel_entry, ctx.operands(d)[0])
        }
        _ => Err(format!(
            "a value computed by '{}' (the host can evaluate only constants, kernel parameters, and arith add/mul/casts and floordivsi/ceildivsi by positive constants of them)",
            ctx.op_name_str(d)
        )),
    }
}

// ----- IR building ------------------------------------------------------------------------------

/// The async lowering's shorthands on [`OpBuilder`], each through the op's typed builder.
trait AsyncBuilder {
    fn int(&mut self, w: u32) -> Type;
    /// An integer arith op whose result has the type of `a`.
    fn bin(&mut self, op: IntBinOp, a: Value, b: Value) -> Value;
    fn cint(&mut self, w: u32, v: i64) -> Value;
    fn ctrue(&mut self) -> Value;
    /// The value as an `i32` (`index` and other widths are cast).
    fn as_i32(&mut self, v: Value) -> Value;
    /// `ptx.inst opcode form` with `args`, results of `tys` and an optional guard.
    fn inst(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        tys: Vec<Type>,
        guard: Option<(Value, bool)>,
    ) -> OpId;
    fn inst0(&mut self, opcode: &str, form: &str, args: &[Value], guard: Option<(Value, bool)>);
    fn inst1(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        ty: Type,
        guard: Option<(Value, bool)>,
    ) -> Value;
    fn asm(&mut self, text: &str, args: &[Value], tys: Vec<Type>) -> OpId;
    fn shared_addr(&mut self, t: Value) -> Value;
    fn bar_addr(&mut self, bars: Value, idx: Value) -> Value;
    fn special(&mut self, reg: &str) -> Value;
    /// A 64-bit descriptor `((base + off) >> 4) & 0x3fff | hi`, built as `arith`.
    fn descriptor(&mut self, base: Value, off: i64, hi: u64) -> Value;
}

impl AsyncBuilder for OpBuilder<'_> {
    fn int(&mut self, w: u32) -> Type {
        self.ctx_mut().int_type(w)
    }
    fn bin(&mut self, op: IntBinOp, a: Value, b: Value) -> Value {
        let ty = self.ctx().value_type(a);
        let o = match op {
            IntBinOp::AddI => AddIOp::build(self, a, b, ty, None).op(),
            IntBinOp::MulI => MulIOp::build(self, a, b, ty, None).op(),
            IntBinOp::ShLI => ShLIOp::build(self, a, b, ty, None).op(),
            IntBinOp::ShRUI => ShRUIOp::build(self, a, b, ty).op(),
            IntBinOp::AndI => AndIOp::build(self, a, b, ty).op(),
            IntBinOp::OrI => OrIOp::build(self, a, b, ty).op(),
            other => unreachable!("async-to-ptx builds no {other:?}"),
        };
        self.ctx().results(o)[0]
    }
    fn cint(&mut self, w: u32, v: i64) -> Value {
        let ty = self.int(w);
        let a = int_attr(self.ctx_mut(), ty, v as u128);
        ConstantOp::build(self, ty, a).result(self.ctx())
    }
    fn ctrue(&mut self) -> Value {
        let ty = self.int(1);
        let a = int_attr(self.ctx_mut(), ty, 1);
        ConstantOp::build(self, ty, a).result(self.ctx())
    }
    fn as_i32(&mut self, v: Value) -> Value {
        let t = self.ctx().value_type(v);
        let i32t = self.int(32);
        match self.ctx().type_kind(t) {
            TypeKind::Index => IndexCastOp::build(self, v, i32t).out(self.ctx()),
            TypeKind::Integer { width: 32, .. } => v,
            TypeKind::Integer { width, .. } if *width > 32 => {
                TruncIOp::build(self, v, i32t, None).out(self.ctx())
            }
            _ => ExtUIOp::build(self, v, i32t).out(self.ctx()),
        }
    }
    fn inst(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        tys: Vec<Type>,
        guard: Option<(Value, bool)>,
    ) -> OpId {
        let props = inst_properties(
            self.ctx_mut(),
            opcode,
            Some(form),
            args.len(),
            guard.map(|g| g.1),
        );
        let mut all = args.to_vec();
        if let Some((g, _)) = guard {
            all.push(g);
        }
        self.create_named(InstOp::DEF.name, all, tys, props)
    }
    fn inst0(&mut self, opcode: &str, form: &str, args: &[Value], guard: Option<(Value, bool)>) {
        self.inst(opcode, form, args, vec![], guard);
    }
    fn inst1(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        ty: Type,
        guard: Option<(Value, bool)>,
    ) -> Value {
        let o = self.inst(opcode, form, args, vec![ty], guard);
        self.ctx().results(o)[0]
    }
    fn asm(&mut self, text: &str, args: &[Value], tys: Vec<Type>) -> OpId {
        AsmOp::build(self, args, &tys, text).op()
    }
    fn shared_addr(&mut self, t: Value) -> Value {
        let i32t = self.int(32);
        SharedAddrOp::build(self, t, i32t).result(self.ctx())
    }
    fn bar_addr(&mut self, bars: Value, idx: Value) -> Value {
        let i32t = self.int(32);
        AddrOp::build(self, bars, idx, i32t).result(self.ctx())
    }
    fn special(&mut self, reg: &str) -> Value {
        let i32t = self.int(32);
        SpecialOp::build(self, i32t, reg).result(self.ctx())
    }
    fn descriptor(&mut self, base: Value, off: i64, hi: u64) -> Value {
        let i64t = self.int(64);
        let a = if off == 0 {
            base
        } else {
            let c = self.cint(32, off);
            self.bin(IntBinOp::AddI, base, c)
        };
        let c4 = self.cint(32, 4);
        let s = self.bin(IntBinOp::ShRUI, a, c4);
        let m = self.cint(32, 0x3fff);
        let s = self.bin(IntBinOp::AndI, s, m);
        let w = ExtUIOp::build(self, s, i64t).out(self.ctx());
        let h = self.cint(64, hi as i64);
        self.bin(IntBinOp::OrI, w, h)
    }
}

/// A 64-bit wgmma/tcgen05 shared-memory descriptor `((base + off) >> 4) & 0x3fff | hi` (`hi`
/// from [`wgmma_descriptor_hi`] or [`tcgen05_descriptor_hi`]), built as `arith` before the
/// builder's insertion point; also used by `lower-tiles` for a `tilus.dot` on wgmma.
pub(crate) fn smem_descriptor(b: &mut OpBuilder<'_>, base: Value, off: i64, hi: u64) -> Value {
    b.descriptor(base, off, hi)
}

// ----- the kernel ---------------------------------------------------------------------------------

/// The ops this pass lowers: those declared `Trait::Async`.
fn handled(ctx: &Context, op: OpId) -> bool {
    ctx.op_def(op)
        .is_some_and(|d| d.has(tilus_ir::Trait::Async))
}

struct Kernel {
    op: OpId,
    entry: tilus_ir::BlockId,
    /// The first op after the entry prologue (barrier init, leader predicate).
    body_start: Option<OpId>,
    /// `elect.sync` leader-lane predicate, made on first use.
    leader: Option<Value>,
    /// TMEM tensors to their 32-bit addresses.
    tmem: rustc_hash::FxHashMap<Value, Value>,
    /// `tilus.tensor_maps` entries.
    maps: Vec<Attr>,
    uses_tcgen05: bool,
    /// Some `wgmma.wait_group` keeps groups pending (`n > 0`): then every `wait_group 0` is
    /// followed by `fence.acq_rel.cta` (see `lower_op`).
    wgmma_keeps_pending: bool,
    /// Lowered TMEM-producing ops, erased (last first) once their users are lowered.
    dead: Vec<OpId>,
}

/// What became of a lowered op.
enum Lowered {
    /// Erased.
    Erase,
    /// Replaced by a value.
    Replace(Value),
    /// A TMEM tensor now known by its address: erased when its users are gone.
    KeepUntilUnused,
}

fn lower_kernel(ctx: &mut Context, k: OpId) -> Result<u64, Vec<Diagnostic>> {
    let entry = ctx.region_blocks(ctx.regions(k)[0])[0];
    let mut ops = Vec::new();
    ctx.walk(k, &mut |o| {
        if handled(ctx, o) {
            ops.push(o);
        }
    });
    if ops.is_empty() {
        return Ok(0);
    }
    let mut kn = Kernel {
        op: k,
        entry,
        body_start: ctx.block_first(entry),
        leader: None,
        tmem: Default::default(),
        maps: existing_maps(ctx, k),
        uses_tcgen05: false,
        wgmma_keeps_pending: ops.iter().any(|&o| {
            matches!(AsyncKind::of(ctx, o), Some(AsyncKind::W(W::WaitGroup(w))) if w.pending(ctx) > 0)
        }),
        dead: Vec::new(),
    };
    let mut errors = Vec::new();
    // Barriers first: they are hoisted to the entry and initialized there.
    let allocs: Vec<OpId> = ops
        .iter()
        .copied()
        .filter(|o| BarrierAllocOp::is(ctx, *o))
        .collect();
    if !allocs.is_empty() {
        if let Err(e) = init_barriers(ctx, &mut kn, &allocs) {
            errors.push(e);
        }
    }
    let mut n = allocs.len() as u64;
    for o in ops {
        if BarrierAllocOp::is(ctx, o) || !ctx.is_alive(o) {
            continue;
        }
        match lower_op(ctx, &mut kn, o) {
            Ok(()) => n += 1,
            Err(msg) => errors.push(Diagnostic::op(
                o,
                format!("cannot lower '{}' to PTX: {msg}", ctx.op_name_str(o)),
            )),
        }
    }
    for &o in kn.dead.iter().rev() {
        let used = ctx.results(o).iter().any(|v| !ctx.uses(*v).is_empty());
        if used && errors.is_empty() {
            errors.push(Diagnostic::op(
                o,
                format!(
                    "cannot lower '{}' to PTX: its tensor-memory result is still used by an op this pass does not lower",
                    ctx.op_name_str(o)
                ),
            ));
        } else if !used {
            Rewriter::new(ctx).erase_op(o);
        }
    }
    if !kn.maps.is_empty() {
        let a = ctx.attr(AttrKind::Array(kn.maps.clone()));
        ctx.set_attr(k, tilus_dialects::tilus::attr_names::TENSOR_MAPS, Some(a));
    }
    if kn.uses_tcgen05 {
        let a = ctx.str_attr("sm_100a");
        ctx.set_attr(k, tilus_dialects::tilus::attr_names::PTX_TARGET, Some(a));
    }
    if errors.is_empty() {
        Ok(n)
    } else {
        Err(errors)
    }
}

fn existing_maps(ctx: &Context, k: OpId) -> Vec<Attr> {
    match ctx
        .get_attr(k, tilus_dialects::tilus::attr_names::TENSOR_MAPS)
        .map(|a| ctx.attr_kind(a))
    {
        Some(AttrKind::Array(xs)) => xs.clone(),
        _ => Vec::new(),
    }
}

/// Moves the allocations to the kernel entry (with explicit counts) and initializes them:
/// thread 0 runs `mbarrier.init` for each barrier, then everyone fences and synchronizes.
fn init_barriers(ctx: &mut Context, kn: &mut Kernel, allocs: &[OpId]) -> Result<(), Diagnostic> {
    let mut inits = Vec::new();
    for &a in allocs {
        let ty = ctx.value_type(ctx.results(a)[0]);
        let n = barrier_count(ctx, ty).unwrap_or(1);
        let counts = match ctx.get_prop(a, "counts").and_then(|c| attr_i64s(ctx, c)) {
            Some(c) => c,
            None => {
                let g = group_of(ctx, a).ok_or_else(|| {
                    Diagnostic::op(
                        a,
                        "cannot lower 'mbarrier.alloc': its thread group is unknown",
                    )
                })?;
                vec![g.size; n as usize]
            }
        };
        let arr = ctx.int_array_attr(64, &counts);
        tilus_ir::rewrite::set_property(ctx, a, "counts", Some(arr));
        inits.push((a, counts));
    }
    // Hoist, keeping their order, before the first other op of the entry block.
    let anchor = ctx.block_ops(kn.entry).find(|o| !allocs.contains(o));
    for (a, _) in &inits {
        match anchor {
            Some(x) => ctx.move_op_before(*a, x),
            None => {
                ctx.detach_op(*a);
                ctx.append_op(kn.entry, *a);
            }
        }
    }
    let loc = ctx.op(inits[0].0).loc;
    let clustered = tilus_dialects::mbarrier::cluster_ctas(ctx, inits[0].0).unwrap_or(1) > 1;
    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);
    match anchor {
        Some(x) => b.set_insertion_point_before(x),
        None => b.set_insertion_point_to_end(kn.entry),
    }
    let tid = b.special("tid.x");
    let i1 = b.int(1);
    let p = b.inst1("setp.eq.u32", "$0, 0", &[tid], i1, None);
    for (a, counts) in &inits {
        let bars = b.ctx().results(*a)[0];
        for (i, c) in counts.iter().enumerate() {
            let idx = b.cint(32, i as i64);
            let addr = b.bar_addr(bars, idx);
            b.inst0(
                "mbarrier.init.shared::cta.b64",
                &format!("[$0], {c}"),
                &[addr],
                Some((p, false)),
            );
        }
    }
    b.inst0("fence.mbarrier_init.release.cluster", "", &[], None);
    if clustered {
        // Peers multicast into these barriers and arrive on them remotely: no CTA of the
        // cluster may start before every CTA's barriers are initialized.
        b.inst0("barrier.cluster.arrive.release.aligned", "", &[], None);
        b.inst0("barrier.cluster.wait.acquire.aligned", "", &[], None);
    } else {
        b.inst0("bar.sync", "0", &[], None);
    }
    // The prologue ends here: later entry code (the leader predicate) goes after it.
    kn.body_start = anchor;
    Ok(())
}

/// The leader-lane predicate (`elect.sync`), computed once at kernel entry after the
/// prologue, when every lane of every warp is active.
fn leader(ctx: &mut Context, kn: &mut Kernel) -> Value {
    if let Some(p) = kn.leader {
        return p;
    }
    let loc = ctx.op(kn.op).loc;
    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);
    match kn.body_start {
        Some(x) if b.ctx().is_alive(x) => b.set_insertion_point_before(x),
        _ => b.set_insertion_point_to_start(kn.entry),
    }
    let i1 = b.int(1);
    let o = b.asm("elect.sync _|$0, 0xffffffff;", &[], vec![i1]);
    let p = b.ctx().results(o)[0];
    kn.leader = Some(p);
    p
}

/// The guard for a one-thread instruction issued by `op`'s group: none for one thread, the
/// leader lane for one warp.
fn issue_guard(
    ctx: &mut Context,
    kn: &mut Kernel,
    op: OpId,
) -> Result<Option<(Value, bool)>, String> {
    let g = group_of(ctx, op).ok_or("the thread group is unknown")?;
    match g.size {
        1 => Ok(None),
        32 => Ok(Some((leader(ctx, kn), false))),
        n => Err(format!(
            "expects to be issued by one thread or one warp, but the group has {n} threads"
        )),
    }
}

fn sem_scope(ctx: &Context, op: OpId, wait: bool, default_scope: i64) -> (String, String) {
    let sem = prop_i64(ctx, op, "sem").unwrap_or(0) as usize;
    let scope = prop_i64(ctx, op, "scope").unwrap_or(default_scope) as usize;
    let sems = if wait { WAIT_SEM } else { ARRIVE_SEM };
    (
        sems.keywords
            .get(sem)
            .copied()
            .unwrap_or("release")
            .to_string(),
        SCOPE
            .keywords
            .get(scope)
            .copied()
            .unwrap_or("cta")
            .to_string(),
    )
}

fn tensor_of(ctx: &Context, v: Value) -> Result<TensorType, String> {
    TensorType::of(ctx, ctx.value_type(v)).ok_or_else(|| "expects a tensor type".into())
}

/// The op kinds this pass lowers (those declared `Trait::Async`), one exhaustive match.
#[derive(Clone, Copy)]
enum AsyncKind {
    M(M),
    T(T),
    W(W),
    C(C),
}

impl AsyncKind {
    fn of(ctx: &Context, o: OpId) -> Option<AsyncKind> {
        M::classify(ctx, o)
            .map(AsyncKind::M)
            .or_else(|| T::classify(ctx, o).map(AsyncKind::T))
            .or_else(|| W::classify(ctx, o).map(AsyncKind::W))
            .or_else(|| C::classify(ctx, o).map(AsyncKind::C))
    }
}

fn lower_op(ctx: &mut Context, kn: &mut Kernel, o: OpId) -> Result<(), String> {
    let kind =
        AsyncKind::of(ctx, o).ok_or_else(|| format!("'{}' is not handled", ctx.op_name_str(o)))?;
    let operands = ctx.operands(o).to_vec();
    let mut replacement: Vec<Value> = Vec::new();
    match kind {
        AsyncKind::M(M::Arrive(_)) | AsyncKind::M(M::ArriveExpectTx(_)) => {
            let (sem, scope) = sem_scope(ctx, o, false, 0);
            let mut b = before(ctx, o);
            let a = b.bar_addr(operands[0], operands[1]);
            if matches!(kind, AsyncKind::M(M::Arrive(_))) {
                let opc = format!("mbarrier.arrive.{sem}.{scope}.shared::cta.b64");
                match operands.get(2) {
                    Some(&c) => b.inst0(&opc, "_, [$0], $1", &[a, c], None),
                    None => b.inst0(&opc, "_, [$0], 1", &[a], None),
                }
            } else {
                let opc = format!("mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cta.b64");
                b.inst0(&opc, "_, [$0], $1", &[a, operands[2]], None);
            }
        }
        AsyncKind::M(M::ArriveExpectTxRemote(_)) => {
            let (sem, scope) = sem_scope(ctx, o, false, 1);
            let mut b = before(ctx, o);
            let a = b.bar_addr(operands[0], operands[1]);
            let i32t = b.int(32);
            let r = b.inst1(
                "mapa.shared::cluster.u32",
                "$0, $1",
                &[a, operands[3]],
                i32t,
                None,
            );
            let opc = format!("mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cluster.b64");
            b.inst0(&opc, "_, [$0], $1", &[r, operands[2]], None);
        }
        AsyncKind::M(M::ArriveExpectTxMulticast(_)) => {
            let (sem, scope) = sem_scope(ctx, o, false, 1);
            let mut b = before(ctx, o);
            let i32t = b.int(32);
            let i1 = b.int(1);
            let tid = ThreadIdOp::build(&mut b, i32t).result(b.ctx());
            let sh = b.inst1("shr.b32", "$0, $1", &[operands[3], tid], i32t, None);
            let bit = b.inst1("and.b32", "$0, 1", &[sh], i32t, None);
            let p = b.inst1("setp.ne.u32", "$0, 0", &[bit], i1, None);
            let a = b.bar_addr(operands[0], operands[1]);
            let r = b.inst1(
                "mapa.shared::cluster.u32",
                "$0, $1",
                &[a, tid],
                i32t,
                Some((p, false)),
            );
            let opc = format!("mbarrier.arrive.expect_tx.{sem}.{scope}.shared::cluster.b64");
            b.inst0(&opc, "_, [$0], $1", &[r, operands[2]], Some((p, false)));
        }
        AsyncKind::M(M::Wait(_)) => {
            let (sem, scope) = sem_scope(ctx, o, true, 0);
            let mut b = before(ctx, o);
            let a = b.bar_addr(operands[0], operands[1]);
            let text = format!(
                "{{\n.reg .pred P;\nLAB_WAIT:\nmbarrier.try_wait.parity.{sem}.{scope}.shared::cta.b64 P, [$0], $1, 50000;\n@!P bra.uni LAB_WAIT;\n}}"
            );
            b.asm(&text, &[a, operands[2]], vec![]);
        }
        AsyncKind::M(M::ProducerInitialPhase(_)) | AsyncKind::M(M::ConsumerInitialPhase(_)) => {
            let v = i64::from(matches!(kind, AsyncKind::M(M::ProducerInitialPhase(_))));
            let mut b = before(ctx, o);
            replacement.push(b.cint(32, v));
        }
        AsyncKind::T(T::GlobalToShared(_)) => lower_tma(ctx, kn, o, true)?,
        AsyncKind::T(T::SharedToGlobal(_)) => lower_tma(ctx, kn, o, false)?,
        AsyncKind::T(T::CommitGroup(_)) => {
            before(ctx, o).inst0("cp.async.bulk.commit_group", "", &[], None)
        }
        AsyncKind::T(T::WaitGroup(_)) => {
            let n = prop_i64(ctx, o, "n").unwrap_or(0);
            let read = ctx.get_prop(o, "read").is_some();
            let opc = if read {
                "cp.async.bulk.wait_group.read"
            } else {
                "cp.async.bulk.wait_group"
            };
            before(ctx, o).inst0(opc, &n.to_string(), &[], None);
        }
        AsyncKind::T(T::FenceProxyAsync(_)) => {
            let space = prop_i64(ctx, o, "space").unwrap_or(0);
            let opc = if space == 0 {
                "fence.proxy.async.shared::cta"
            } else {
                "fence.proxy.async.global"
            };
            before(ctx, o).inst0(opc, "", &[], None);
        }
        AsyncKind::T(T::FenceProxyAsyncRelease(_)) => before(ctx, o).inst0(
            "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster",
            "",
            &[],
            None,
        ),
        AsyncKind::W(W::Fence(_)) => {
            before(ctx, o).inst0("wgmma.fence.sync.aligned", "", &[], None)
        }
        AsyncKind::W(W::CommitGroup(_)) => {
            before(ctx, o).inst0("wgmma.commit_group.sync.aligned", "", &[], None)
        }
        AsyncKind::W(W::WaitGroup(w)) => {
            let n = w.pending(ctx);
            before(ctx, o).inst0("wgmma.wait_group.sync.aligned", &n.to_string(), &[], None);
            // Where a loop keeps a wgmma in flight (`wait_group 1`), ptxas 13 reports C7514 and
            // serializes every wgmma of the kernel when the accumulator is read under a
            // predicate after the final `wait_group 0` (the bounds-checked epilogue stores).
            // A fence after that wait keeps those reads below it; measured on the H100
            // (docs/perf.md, issue 17): the persistent matmul went from 0.76x to 0.88x of
            // cuBLAS at 4096^3. Kernels that always wait for 0 do not need it.
            if n == 0 && kn.wgmma_keeps_pending {
                before(ctx, o).inst0("fence.acq_rel.cta", "", &[], None);
            }
        }
        AsyncKind::W(W::Mma(_)) => replacement.push(lower_wgmma(ctx, o)?),
        AsyncKind::C(kind) => {
            kn.uses_tcgen05 = true;
            match lower_tcgen05(ctx, kn, o, kind)? {
                Lowered::Erase => {}
                Lowered::Replace(v) => replacement.push(v),
                Lowered::KeepUntilUnused => {
                    kn.dead.push(o);
                    return Ok(());
                }
            }
        }
        AsyncKind::M(M::Alloc(_) | M::Addr(_)) => {
            return Err(format!("'{}' is not handled", ctx.op_name_str(o)))
        }
    }
    let mut rw = Rewriter::new(ctx);
    if replacement.is_empty() {
        rw.erase_op(o);
    } else {
        rw.replace_op(o, &replacement);
    }
    Ok(())
}

// ----- TMA ----------------------------------------------------------------------------------------

fn swizzle_name(m: SwizzleMode) -> &'static str {
    match m {
        SwizzleMode::None => "none",
        SwizzleMode::B32 => "32B",
        SwizzleMode::B64 => "64B",
        SwizzleMode::B128 => "128B",
    }
}

/// Appends a `!ptx.tensormap` parameter to the kernel and returns it.
fn add_tensormap_param(ctx: &mut Context, kn: &Kernel) -> (Value, usize) {
    let tm = tilus_dialects::ptx::TensorMapType::get(ctx);
    let index = ctx.block_args(kn.entry).len();
    let v = tilus_dialects::tilus::append_param(ctx, kn.op, tm, &format!("tensor_map{index}"));
    (v, index)
}

fn lower_tma(ctx: &mut Context, kn: &mut Kernel, o: OpId, load: bool) -> Result<(), String> {
    let def = ctx.op_def(o).expect("registered");
    let group = |name: &str| tilus_ir::format::operand_group(ctx, def, o, name).to_vec();
    let (global, shared, offsets, bars, bar_idx, mask) = if load {
        (
            group("src")[0],
            group("dst")[0],
            group("offsets"),
            Some(group("barriers")[0]),
            Some(group("barrier_index")[0]),
            group("multicast_mask").first().copied(),
        )
    } else {
        let ops = ctx.operands(o).to_vec();
        (ops[1], ops[0], ops[2..].to_vec(), None, None, None)
    };
    let guard = issue_guard(ctx, kn, o)?;
    let g = tensor_of(ctx, global)?;
    let s = tensor_of(ctx, shared)?;
    let grank = g.shape.len();
    let dims: Vec<usize> = match ctx
        .get_inherent_or_attr(o, "dims")
        .and_then(|a| attr_i64s(ctx, a))
    {
        Some(d) => d.into_iter().map(|x| x as usize).collect(),
        None => (0..grank).collect(),
    };
    // The view: pointer parameter, extents and strides as host expressions.
    let view = ctx
        .defining_op(global)
        .filter(|d| GlobalViewOp::is(ctx, *d))
        .ok_or("expects the global tensor to come from 'tilus.global_view'")?;
    let vops = ctx.operands(view).to_vec();
    let ptr = vops[0];
    let pointer = ctx
        .block_args(kn.entry)
        .iter()
        .position(|a| *a == ptr)
        .ok_or("expects the global view of a pointer parameter of the kernel")?;
    let vdef = ctx.op_def(view).expect("registered");
    let ext_vals = tilus_ir::format::operand_group(ctx, vdef, view, "extents").to_vec();
    let str_vals = tilus_ir::format::operand_group(ctx, vdef, view, "strides").to_vec();
    let mut ext_it = ext_vals.iter();
    let mut extents = Vec::new();
    for &e in &g.shape {
        extents.push(if e == DYN {
            let v = *ext_it.next().ok_or("missing extent operand")?;
            expr_of(ctx, kn.entry, v).map_err(|e| format!("the view's extent is {e}"))?
        } else {
            Expr::Const(e)
        });
    }
    let strides: Vec<Expr> = match &g.strides {
        Some(st) => {
            let mut it = str_vals.iter();
            let mut out = Vec::new();
            for &x in st {
                out.push(if x == DYN {
                    let v = *it.next().ok_or("missing stride operand")?;
                    expr_of(ctx, kn.entry, v).map_err(|e| format!("the view's stride is {e}"))?
                } else {
                    Expr::Const(x)
                });
            }
            out
        }
        None => {
            let mut out = vec![Expr::Const(1); grank];
            for d in (0..grank.saturating_sub(1)).rev() {
                out[d] = Expr::mul(out[d + 1].clone(), extents[d + 1].clone());
            }
            out
        }
    };
    let eb = i64::from(g.dtype.bits()).max(8) / 8;
    // Offsets of dims outside the box fold into the map's base address.
    let mut base = Expr::Const(0);
    for d in 0..grank {
        if !dims.contains(&d) {
            let off = expr_of(ctx, kn.entry, offsets[d])
                .map_err(|e| format!("the offset of dimension {d} (outside dims, so folded into the tensor map) is {e}"))?;
            base = Expr::add(base, Expr::mul(off, strides[d].clone()));
        }
    }
    let r = dims.len();
    let (tmap, param) = add_tensormap_param(ctx, kn);
    // The host record: sizes as affine maps over the kernel parameters (symbol sN is
    // parameter N), which the host evaluates with the launch's arguments.
    let num_syms = ctx.block_args(kn.entry).len() as u32;
    let map = |ctx: &mut Context, xs: Vec<&Expr>| {
        ctx.attr(AttrKind::AffineMap(tilus_ir::attrs::AffineMap {
            num_dims: 0,
            num_syms,
            results: xs.into_iter().map(Expr::affine).collect(),
        }))
    };
    let gdims: Vec<&Expr> = dims.iter().rev().map(|&d| &extents[d]).collect();
    let byte_strides: Vec<Expr> = dims[..r - 1]
        .iter()
        .rev()
        .map(|&d| Expr::mul(strides[d].clone(), Expr::Const(eb)))
        .collect();
    let gstrides: Vec<&Expr> = byte_strides.iter().collect();
    let base_map = map(ctx, vec![&base]);
    let i64t = ctx.int_type(64);
    let rev_shape: Vec<i64> = s.shape.iter().rev().copied().collect();
    let box_dims = ctx.int_array_attr(64, &rev_shape);
    let mut entries = vec![
        ("param".to_string(), int_attr(ctx, i64t, param as u128)),
        ("pointer".to_string(), int_attr(ctx, i64t, pointer as u128)),
        ("dtype".to_string(), ctx.str_attr(&g.dtype.name())),
        (
            "direction".to_string(),
            ctx.str_attr(if load { "load" } else { "store" }),
        ),
        ("base_offset".to_string(), base_map),
    ];
    let gd = map(ctx, gdims);
    let gs = map(ctx, gstrides);
    entries.push(("global_dims".to_string(), gd));
    entries.push(("global_strides".to_string(), gs));
    entries.push(("box_dims".to_string(), box_dims));
    entries.push(("swizzle".to_string(), ctx.str_attr(swizzle_name(s.swizzle))));
    let rec = ctx.dict_attr(entries);
    kn.maps.push(rec);
    // The instruction.
    let mut b = before(ctx, o);
    let sa = b.shared_addr(shared);
    let mut coords = Vec::new();
    for &d in dims.iter().rev() {
        coords.push(b.as_i32(offsets[d]));
    }
    let cform = |first: usize| {
        (0..r)
            .map(|i| format!("${}", first + i))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if load {
        let bar = b.bar_addr(bars.unwrap(), bar_idx.unwrap());
        let cg = prop_i64(b.ctx(), o, "cta_group")
            .map(|g| format!(".cta_group::{g}"))
            .unwrap_or_default();
        let mut args = vec![sa, tmap];
        args.extend(&coords);
        args.push(bar);
        let form = format!("[$0], [$1, {{{}}}], [${}]", cform(2), 2 + r);
        match mask {
            None => {
                let opc = format!(
                    "cp.async.bulk.tensor.{r}d.shared::cta.global.tile.mbarrier::complete_tx::bytes{cg}"
                );
                b.inst0(&opc, &form, &args, guard);
            }
            Some(m) => {
                let i16t = b.int(16);
                let m16 = b.inst1("cvt.u16.u32", "$0", &[m], i16t, None);
                args.push(m16);
                let opc = format!(
                    "cp.async.bulk.tensor.{r}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster{cg}"
                );
                b.inst0(&opc, &format!("{form}, ${}", 3 + r), &args, guard);
            }
        }
    } else {
        let mut args = vec![tmap];
        args.extend(&coords);
        args.push(sa);
        let form = format!("[$0, {{{}}}], [${}]", cform(1), 1 + r);
        let opc = format!("cp.async.bulk.tensor.{r}d.global.shared::cta.tile.bulk_group");
        b.inst0(&opc, &form, &args, guard);
    }
    Ok(())
}

// ----- WGMMA --------------------------------------------------------------------------------------

fn block_attr(ctx: &mut Context, b: i64, n: i64) -> Attr {
    ctx.int_array_attr(64, &[b, n])
}

fn lower_wgmma(ctx: &mut Context, o: OpId) -> Result<Value, String> {
    let ops = ctx.operands(o).to_vec();
    let a = tensor_of(ctx, ops[0])?;
    let bt = tensor_of(ctx, ops[1])?;
    let acc = tensor_of(ctx, ops[2])?;
    let plan = wgmma_plan(&a, &bt, acc.dtype)?;
    let acc_ty = ctx.value_type(ops[2]);
    let ahi = wgmma_descriptor_hi(plan.a.lbo() as u64, plan.a.sbo() as u64, plan.a.swizzle);
    let bhi = wgmma_descriptor_hi(plan.b.lbo() as u64, plan.b.sbo() as u64, plan.b.swizzle);
    let mut b = before(ctx, o);
    let abase = b.shared_addr(ops[0]);
    let bbase = b.shared_addr(ops[1]);
    let mut cur = ops[2];
    let form = if plan.integer {
        "{$0}, $1, $2, 1"
    } else {
        "{$0}, $1, $2, 1, 1, 1, 0, 0"
    };
    for inst in &plan.insts {
        let ad = b.descriptor(abase, inst.a_offset, ahi);
        let bd = b.descriptor(bbase, inst.b_offset, bhi);
        let op = b.inst(&plan.opcode, form, &[cur, ad, bd], vec![acc_ty], None);
        let blk = block_attr(b.ctx_mut(), inst.block, plan.blocks);
        b.ctx_mut().set_attr(op, "tile_block", Some(blk));
        cur = b.ctx().results(op)[0];
    }
    Ok(cur)
}

// ----- tcgen05 ------------------------------------------------------------------------------------

fn tmem_addr(kn: &Kernel, v: Value) -> Result<Value, String> {
    kn.tmem
        .get(&v)
        .copied()
        .ok_or_else(|| "expects a tensor-memory tensor made by a lowered 'tcgen05.alloc', 'tcgen05.slice' or 'tcgen05.view' of this kernel".into())
}

fn cta_group_of(ctx: &Context, o: OpId) -> i64 {
    prop_i64(ctx, o, "cta_group").unwrap_or(1)
}

/// The predicate "first warp of the group" (`tilus.warp_id == 0`).
fn first_warp(b: &mut OpBuilder<'_>) -> Value {
    let i32t = b.int(32);
    let i1 = b.int(1);
    let w = WarpIdOp::build(b, i32t).result(b.ctx());
    b.inst1("setp.eq.u32", "$0, 0", &[w], i1, None)
}

fn lower_tcgen05(ctx: &mut Context, kn: &mut Kernel, o: OpId, kind: C) -> Result<Lowered, String> {
    let ops = ctx.operands(o).to_vec();
    let cg = cta_group_of(ctx, o);
    match kind {
        C::Alloc(_) => {
            let t = tensor_of(ctx, ctx.results(o)[0])?;
            let cols = tilus_dialects::tcgen05::alloc_columns(&t);
            let mut b = before(ctx, o);
            let slot_ty = TensorType {
                space: Space::Shared,
                shape: vec![1],
                dtype: DType::Int {
                    bits: 32,
                    signedness: tilus_ir::types::Signedness::Signless,
                },
                strides: None,
                swizzle: SwizzleMode::None,
                layout: None,
            }
            .get(b.ctx_mut());
            let slot = SharedTensorOp::build(&mut b, slot_ty).result(b.ctx());
            let sa = b.shared_addr(slot);
            let p = first_warp(&mut b);
            b.inst0(
                &format!("tcgen05.alloc.cta_group::{cg}.sync.aligned.shared::cta.b32"),
                &format!("[$0], {cols}"),
                &[sa],
                Some((p, false)),
            );
            b.inst0("tcgen05.fence::before_thread_sync", "", &[], None);
            SyncOp::build(&mut b);
            b.inst0("tcgen05.fence::after_thread_sync", "", &[], None);
            let i32t = b.int(32);
            let addr = b.inst1("ld.shared.b32", "[$0]", &[sa], i32t, None);
            let res = b.ctx().results(o)[0];
            kn.tmem.insert(res, addr);
            return Ok(Lowered::KeepUntilUnused);
        }
        C::Dealloc(_) => {
            let t = tensor_of(ctx, ops[0])?;
            let cols = tilus_dialects::tcgen05::alloc_columns(&t);
            let a = tmem_addr(kn, ops[0])?;
            let mut b = before(ctx, o);
            let p = first_warp(&mut b);
            b.inst0(
                &format!("tcgen05.dealloc.cta_group::{cg}.sync.aligned.b32"),
                &format!("$0, {cols}"),
                &[a],
                Some((p, false)),
            );
        }
        C::RelinquishAllocPermit(_) => before(ctx, o).inst0(
            &format!("tcgen05.relinquish_alloc_permit.cta_group::{cg}.sync.aligned"),
            "",
            &[],
            None,
        ),
        C::Slice(_) | C::View(_) => {
            let base = tmem_addr(kn, ops[0])?;
            let addr = if matches!(kind, C::Slice(_)) {
                let src = tensor_of(ctx, ops[0])?;
                let lane = prop_i64(ctx, o, "lane_offset").unwrap_or(0);
                // Row-major column strides over dims 1.. of the source, in elements.
                let rank = src.shape.len();
                let mut st = vec![1i64; rank];
                for d in (1..rank.saturating_sub(1)).rev() {
                    st[d] = st[d + 1] * src.shape[d + 1];
                }
                let bits = i64::from(src.dtype.bits());
                let mut b = before(ctx, o);
                let mut acc = base;
                for (k, &off) in ops[1..].iter().enumerate() {
                    // Column offset of this index: off * stride * bits / 32.
                    let off = b.as_i32(off);
                    let scaled = st[k + 1] * bits;
                    let v = if scaled % 32 == 0 {
                        let c = b.cint(32, scaled / 32);
                        b.bin(IntBinOp::MulI, off, c)
                    } else {
                        let c = b.cint(32, scaled);
                        let m = b.bin(IntBinOp::MulI, off, c);
                        let c5 = b.cint(32, 5);
                        b.bin(IntBinOp::ShRUI, m, c5)
                    };
                    acc = b.bin(IntBinOp::AddI, acc, v);
                }
                if lane != 0 {
                    let c = b.cint(32, lane << 16);
                    acc = b.bin(IntBinOp::AddI, acc, c);
                }
                acc
            } else {
                base
            };
            let res = ctx.results(o)[0];
            kn.tmem.insert(res, addr);
            return Ok(Lowered::KeepUntilUnused);
        }
        C::Mma(_) => {
            let a = tensor_of(ctx, ops[0])?;
            let bt = tensor_of(ctx, ops[1])?;
            let d = tensor_of(ctx, ops[2])?;
            if a.space != Space::Shared {
                return Err("expects A in shared memory (TMEM A is not lowered yet)".into());
            }
            let kind = MmaKind::of(a.dtype).ok_or("unsupported input type")?;
            let ka = KMajor::of(&a, 1).map_err(|e| format!("A: {e}"))?;
            let kb = KMajor::of(&bt, 0).map_err(|e| format!("B: {e}"))?;
            let (m, k) = (a.shape[0], a.shape[1]);
            let n_local = bt.shape[1];
            let inst_k = kind.inst_k();
            // cta_group 2: one instruction of M = 2·m over N = 2·n_local per K step.
            let (inst_m, inst_n, rn) = if cg == 2 {
                (2 * m, 2 * n_local, 1)
            } else {
                let inst_n = gcd(d.shape[1], 256);
                (m, inst_n, d.shape[1] / inst_n)
            };
            let idesc =
                tcgen05_instr_descriptor(a.dtype, bt.dtype, d.dtype, inst_m, inst_n, false, false)
                    .ok_or("unsupported type combination")?;
            let guard = issue_guard(ctx, kn, o)?;
            let dbase = tmem_addr(kn, ops[2])?;
            let ahi = tcgen05_descriptor_hi(ka.lbo() as u64, ka.sbo() as u64, ka.swizzle);
            let bhi = tcgen05_descriptor_hi(kb.lbo() as u64, kb.sbo() as u64, kb.swizzle);
            let dbits = i64::from(d.dtype.bits());
            let mut b = before(ctx, o);
            let abase = b.shared_addr(ops[0]);
            let bbase = b.shared_addr(ops[1]);
            let opc = format!("tcgen05.mma.cta_group::{cg}.kind::{}", kind.name());
            let per_cta_n = if cg == 2 { n_local } else { inst_n };
            let mut on = None;
            for j in 0..rn {
                let dcol = j * inst_n * dbits / 32;
                let daddr = if dcol == 0 {
                    dbase
                } else {
                    let c = b.cint(32, dcol);
                    b.bin(IntBinOp::AddI, dbase, c)
                };
                for kk in 0..k / inst_k {
                    let ad = b.descriptor(abase, ka.offset(0, kk * inst_k), ahi);
                    let bd = b.descriptor(bbase, kb.offset(j * per_cta_n, kk * inst_k), bhi);
                    let en = if kk == 0 {
                        ops[3]
                    } else {
                        *on.get_or_insert_with(|| b.ctrue())
                    };
                    b.inst0(
                        &opc,
                        &format!("[$0], $1, $2, {idesc:#010x}, $3"),
                        &[daddr, ad, bd, en],
                        guard,
                    );
                }
            }
        }
        C::Commit(_) => {
            let guard = issue_guard(ctx, kn, o)?;
            let mut b = before(ctx, o);
            let a = b.bar_addr(ops[0], ops[1]);
            match ops.get(2) {
                None => b.inst0(
                    &format!(
                        "tcgen05.commit.cta_group::{cg}.mbarrier::arrive::one.shared::cluster.b64"
                    ),
                    "[$0]",
                    &[a],
                    guard,
                ),
                Some(&m) => {
                    let i16t = b.int(16);
                    let m16 = b.inst1("cvt.u16.u32", "$0", &[m], i16t, None);
                    b.inst0(
                        &format!("tcgen05.commit.cta_group::{cg}.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64"),
                        "[$0], $1",
                        &[a, m16],
                        guard,
                    )
                }
            }
        }
        C::Ld(_) | C::St(_) => {
            let ld = matches!(kind, C::Ld(_));
            let (tile, tm) = if ld {
                (ctx.results(o)[0], ops[0])
            } else {
                (ops[0], ops[1])
            };
            let tt = tensor_of(ctx, tile)?;
            let (lanes, cols) = (tt.shape[0], tt.shape[1..].iter().product::<i64>());
            let want =
                RegisterLayout::spatial(&[lanes, 1]).compose(&RegisterLayout::local(&[1, cols]));
            if let Some(l) = tt.register_layout() {
                if tt.shape.len() != 2 || !l.same_mapping(&want) {
                    return Err(format!(
                        "only the 32x32b shape is lowered: expects the layout {want} (one lane per thread, its columns in order)"
                    ));
                }
            }
            let regs = cols * i64::from(tt.dtype.bits()) / 32;
            if regs * 32 != cols * i64::from(tt.dtype.bits()) {
                return Err("expects whole 32-bit columns per thread".into());
            }
            let chunk = (1..=regs.min(128))
                .rev()
                .find(|c| regs % c == 0 && (*c as u64).is_power_of_two())
                .unwrap_or(1);
            let nblocks = regs / chunk;
            let base = tmem_addr(kn, tm)?;
            let tile_ty = ctx.value_type(tile);
            let mut b = before(ctx, o);
            let i32t = b.int(32);
            // Warp w of the group reads lanes [32w, 32w + 32): lane offset (32w) << 16.
            let w = WarpIdOp::build(&mut b, i32t).result(b.ctx());
            let c21 = b.cint(32, 21);
            let lane = b.bin(IntBinOp::ShLI, w, c21);
            let wbase = b.bin(IntBinOp::AddI, base, lane);
            let mut cur = if ld {
                RegisterTensorOp::build(&mut b, None, tile_ty).result(b.ctx())
            } else {
                tile
            };
            for blk in 0..nblocks {
                let addr = if blk == 0 {
                    wbase
                } else {
                    let c = b.cint(32, blk * chunk);
                    b.bin(IntBinOp::AddI, wbase, c)
                };
                let attr = block_attr(b.ctx_mut(), blk, nblocks);
                let op = if ld {
                    let op = b.inst(
                        &format!("tcgen05.ld.sync.aligned.32x32b.x{chunk}.b32"),
                        "{$0}, [$1]",
                        &[cur, addr],
                        vec![tile_ty],
                        None,
                    );
                    cur = b.ctx().results(op)[0];
                    op
                } else {
                    b.inst(
                        &format!("tcgen05.st.sync.aligned.32x32b.x{chunk}.b32"),
                        "[$1], {$0}",
                        &[cur, addr],
                        vec![],
                        None,
                    )
                };
                b.ctx_mut().set_attr(op, "tile_block", Some(attr));
            }
            if ld {
                return Ok(Lowered::Replace(cur));
            }
        }
        C::WaitLd(_) => before(ctx, o).inst0("tcgen05.wait::ld.sync.aligned", "", &[], None),
        C::WaitSt(_) => before(ctx, o).inst0("tcgen05.wait::st.sync.aligned", "", &[], None),
        C::FenceBeforeThreadSync(_) => {
            before(ctx, o).inst0("tcgen05.fence::before_thread_sync", "", &[], None)
        }
        C::FenceAfterThreadSync(_) => {
            before(ctx, o).inst0("tcgen05.fence::after_thread_sync", "", &[], None)
        }
        C::Cp(_) => {
            let s = tensor_of(ctx, ops[0])?;
            let km = KMajor::of(&s, 1).map_err(|e| format!("the source: {e}"))?;
            let guard = issue_guard(ctx, kn, o)?;
            let base = tmem_addr(kn, ops[1])?;
            let hi = tcgen05_descriptor_hi(km.lbo() as u64, km.sbo() as u64, km.swizzle);
            let row_bytes = s.shape[1] * km.elem_bytes;
            let mut b = before(ctx, o);
            let sbase = b.shared_addr(ops[0]);
            // One 128-row × 16-byte piece per 16 bytes of a row: 4 TMEM columns each.
            for c in 0..row_bytes / 16 {
                let sd = b.descriptor(sbase, c * 16, hi);
                let t = if c == 0 {
                    base
                } else {
                    let k = b.cint(32, c * 4);
                    b.bin(IntBinOp::AddI, base, k)
                };
                b.inst0(
                    &format!("tcgen05.cp.cta_group::{cg}.128x128b"),
                    "[$0], $1",
                    &[t, sd],
                    guard,
                );
            }
        }
    }
    Ok(Lowered::Erase)
}
