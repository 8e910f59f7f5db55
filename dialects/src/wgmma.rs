//! `wgmma`: Hopper (sm_90a) warpgroup matrix multiply-accumulate.
//!
//! A warpgroup (128 threads starting at a multiple of 128) issues `wgmma.mma` asynchronously:
//! `wgmma.fence` orders earlier register accesses before it, `wgmma.commit_group` closes a group
//! of issued MMAs and `wgmma.wait_group N` waits until at most `N` groups are still in flight.
//! The accumulator is a register tensor in the wgmma fragment layout; `wgmma.mma` takes it and
//! returns the updated value (SSA form), which may only be read after the `wait_group` that
//! retires the MMA.

use crate::layout_algebra::wgmma_accumulator;
use crate::threadgroup::{require_group, Need};
use crate::tilus_types::{
    prop_i64, type_str, DType, Space, TensorType, REG_TENSOR, SHARED_OR_REG_TENSOR, SHARED_TENSOR,
};
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::{attr, one, Format, OpDef, Trait, I64_ATTR};
use tilus_ir::types::Signedness;
use tilus_ir::{Context, Diagnostic, OpId};

/// `wgmma.fence`.
pub static FENCE: OpDef = OpDef {
    name: "wgmma.fence",
    summary: "order register accesses before the following wgmma.mma",
    description: "`wgmma.fence` (PTX `wgmma.fence.sync.aligned`) must come before the first \
        `wgmma.mma` of a warpgroup and whenever the accumulator or a register A operand was \
        touched by other instructions since. Shared operands written by ordinary stores also \
        need a proxy fence; TMA-filled tiles are ordered by the mbarrier wait. Issued by a full \
        warpgroup: 128 threads starting at a multiple of 128.",
    verify: Some(verify_warpgroup),
    format: Format::Declarative("attr-dict"),
    traits: &[Trait::Collective, Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = FENCE.check();

tilus_ir::op_handle! {
    /// Typed handle of `wgmma.fence`.
    pub struct FenceOp = FENCE;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `wgmma.mma`.
pub static MMA: OpDef = OpDef {
    name: "wgmma.mma",
    summary: "asynchronous warpgroup matrix multiply-accumulate, d = a * b + acc",
    description: "`%d = wgmma.mma %a, %b, %acc : A, B, ACC` computes `d = a·b + acc` for \
        `a: [M, K]` (shared, or registers), `b: [K, N]` (shared) and an accumulator \
        `acc: [M, N]` in registers; the result has the accumulator's type. The tile is cut into \
        `(K / inst_k) × (M / 64) × (N / inst_n)` PTX `wgmma.mma_async` instructions with \
        `inst_n = gcd(N, 256)` and `inst_k` = 16 (f16, bf16), 8 (tf32) or 32 (f8E4M3FN, \
        f8E5M2, 8-bit integers); `inst_n` is then a power of two in [8, 256], which every \
        type allows. Legal types: f16 × f16 → f16 or f32; bf16 × bf16 → f32; \
        tf32 × tf32 → f32; fp8 × the same fp8 → f16 or f32; s8/u8 × the same → i32 (tf32, fp8 \
        and 8-bit operands in shared memory must be K-major: only 16-bit inputs may be \
        transposed). When the \
        accumulator type gives a layout it must map elements to threads exactly as the wgmma \
        accumulator fragment does (`local(M/64, N/inst_n) * column_spatial(4, 1) * \
        column_local(2, inst_n/8) * spatial(8, 4) * local(1, 2)`, compared by mapping, not by \
        spelling). Issued by a full warpgroup; the result may only be read after the \
        `wgmma.wait_group` that retires it.",
    operands: &[
        one("a", SHARED_OR_REG_TENSOR),
        one("b", SHARED_TENSOR),
        one("acc", REG_TENSOR),
    ],
    results: &[one("d", REG_TENSOR)],
    traits: &[
        Trait::AllTypesMatch(&["acc", "d"]),
        Trait::Collective,
        Trait::Async,
        Trait::MemRead,
    ],
    verify: Some(verify_mma),
    format: Format::Declarative(
        "$a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)",
    ),
    ..OpDef::DEFAULT
};
const _: () = MMA.check();

tilus_ir::op_handle! {
    /// Typed handle of `wgmma.mma`.
    pub struct MmaOp = MMA;
    operands {
        a = "a": Value,
        b = "b": Value,
        acc = "acc": Value
    }
    results {
        d = "d": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `wgmma.commit_group`.
pub static COMMIT_GROUP: OpDef = OpDef {
    name: "wgmma.commit_group",
    summary: "close the group of wgmma.mma issued since the last commit",
    description: "`wgmma.commit_group` (PTX `wgmma.commit_group.sync.aligned`) makes the \
        `wgmma.mma` ops issued since the previous commit one group, which `wgmma.wait_group` \
        counts. Issued by a full warpgroup.",
    verify: Some(verify_warpgroup),
    format: Format::Declarative("attr-dict"),
    traits: &[Trait::Collective, Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = COMMIT_GROUP.check();

tilus_ir::op_handle! {
    /// Typed handle of `wgmma.commit_group`.
    pub struct CommitGroupOp = COMMIT_GROUP;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `wgmma.wait_group`.
pub static WAIT_GROUP: OpDef = OpDef {
    name: "wgmma.wait_group",
    summary: "wait until at most N committed wgmma groups are pending",
    description: "`wgmma.wait_group N` (PTX `wgmma.wait_group.sync.aligned N`, `0 <= N <= 7`) \
        blocks until at most `N` of the groups committed by this warpgroup are still running; \
        the accumulators of the retired groups may then be read. `N = 0` waits for all. Issued \
        by a full warpgroup.",
    attributes: &[attr("pending", I64_ATTR)],
    verify: Some(verify_wait_group),
    format: Format::Declarative("$pending attr-dict"),
    traits: &[Trait::Collective, Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = WAIT_GROUP.check();

tilus_ir::op_handle! {
    /// Typed handle of `wgmma.wait_group`.
    pub struct WaitGroupOp = WAIT_GROUP;
    operands {}
    results {}
    attrs {
        pending = "pending": i64
    }
    regions {}
    successors {}
}

/// The wgmma dialect's ops.
pub static OPS: &[&OpDef] = &[&FENCE, &MMA, &COMMIT_GROUP, &WAIT_GROUP];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `wgmma` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum WgmmaOpKind for OPS {
        Fence(FenceOp),
        Mma(MmaOp),
        CommitGroup(CommitGroupOp),
        WaitGroup(WaitGroupOp),
    }
}

fn verify_warpgroup(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    require_group(ctx, op, Need::Warpgroup)
}

fn verify_wait_group(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    if let Some(n) = prop_i64(ctx, op, "pending") {
        if !(0..=7).contains(&n) {
            return Err(Diagnostic::error(
                tilus_ir::diag::DiagLoc::OpAttr(op, "pending"),
                format!(
                    "'wgmma.wait_group' op expects a pending group count in [0, 7], but found {n}"
                ),
            ));
        }
    }
    require_group(ctx, op, Need::Warpgroup)
}

/// The instruction K of a wgmma over this input type (`None` for types wgmma does not take).
pub fn inst_k(a: DType) -> Option<i64> {
    match a {
        DType::F16 | DType::BF16 => Some(16),
        DType::TF32 => Some(8),
        DType::F8E4M3 | DType::F8E5M2 => Some(32),
        DType::Int { bits: 8, .. } => Some(32),
        _ => None,
    }
}

/// The accumulator types wgmma allows for input type `a` (already known to be legal).
fn legal_acc(a: DType, d: DType) -> bool {
    let i32_acc = matches!(
        d,
        DType::Int {
            bits: 32,
            signedness: Signedness::Signless | Signedness::Signed
        }
    );
    match a {
        DType::F16 | DType::F8E4M3 | DType::F8E5M2 => matches!(d, DType::F16 | DType::F32),
        DType::BF16 | DType::TF32 => d == DType::F32,
        DType::Int { bits: 8, .. } => i32_acc,
        _ => false,
    }
}

/// Words for the accumulator types of input type `a`, for messages.
fn acc_words(a: DType) -> &'static str {
    match a {
        DType::F16 | DType::F8E4M3 | DType::F8E5M2 => "f16 or f32",
        DType::Int { .. } => "i32",
        _ => "f32",
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn err(op: OpId, msg: String) -> Diagnostic {
    Diagnostic::op(op, format!("'wgmma.mma' op {msg}"))
}

fn verify_mma(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    require_group(ctx, op, Need::Warpgroup)?;
    let ops = ctx.operands(op);
    let d = ctx.results(op)[0];
    let (Some(a), Some(b), Some(acc)) = (
        TensorType::of(ctx, ctx.value_type(ops[0])),
        TensorType::of(ctx, ctx.value_type(ops[1])),
        TensorType::of(ctx, ctx.value_type(ops[2])),
    ) else {
        return Ok(());
    };
    if ctx.value_type(d) != ctx.value_type(ops[2]) {
        return Err(err(
            op,
            format!(
                "expects a result of the accumulator's type '{}', but found '{}'",
                type_str(ctx, ctx.value_type(ops[2])),
                type_str(ctx, ctx.value_type(d))
            ),
        ));
    }
    for (what, t) in [("a", &a), ("b", &b), ("the accumulator", &acc)] {
        if t.shape.len() != 2 {
            return Err(err(
                op,
                format!("expects {what} of rank 2, but found rank {}", t.shape.len()),
            ));
        }
    }
    let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
    if b.shape[0] != k {
        return Err(err(
            op,
            format!(
                "expects b of {k} rows (the K of a: {}), but found {}",
                a.shape_str(),
                b.shape[0]
            ),
        ));
    }
    if acc.shape != [m, n] {
        return Err(err(
            op,
            format!(
                "expects an accumulator of shape {m}x{n} (M of a, N of b), but found {}x{}",
                acc.shape[0], acc.shape[1]
            ),
        ));
    }
    if a.dtype != b.dtype {
        return Err(err(
            op,
            format!(
                "expects a and b of one element type, but found {} and {}",
                a.dtype.name(),
                b.dtype.name()
            ),
        ));
    }
    let Some(ik) = inst_k(a.dtype) else {
        return Err(err(
            op,
            format!(
                "expects inputs of f16, bf16, tf32, f8E4M3FN, f8E5M2 or 8-bit integers, but found {}",
                a.dtype.name()
            ),
        ));
    };
    if !legal_acc(a.dtype, acc.dtype) {
        return Err(err(
            op,
            format!(
                "expects an accumulator of {} for {} inputs, but found {}",
                acc_words(a.dtype),
                a.dtype.name(),
                acc.dtype.name()
            ),
        ));
    }
    if m % 64 != 0 {
        return Err(err(
            op,
            format!("expects M to be a multiple of 64, but found {m}"),
        ));
    }
    if n % 8 != 0 {
        return Err(err(
            op,
            format!("expects N to be a multiple of 8, but found {n}"),
        ));
    }
    // A power of two in [8, 256]: also inside the integer N set (8, 16, 24, 32, then steps of
    // 16), so no instruction-N rule can fail once N is a multiple of 8.
    let inst_n = gcd(n, 256);
    if k % ik != 0 {
        return Err(err(
            op,
            format!(
                "expects K to be a multiple of {ik} (the instruction K for {}), but found {k}",
                a.dtype.name()
            ),
        ));
    }
    if let Some(text) = &acc.layout {
        let want = wgmma_accumulator(m, n, inst_n);
        let ok = acc.register_layout().is_some_and(|l| l.same_mapping(&want));
        if !ok {
            return Err(err(
                op,
                format!(
                    "expects the accumulator in the wgmma accumulator layout {want}, but found {text}"
                ),
            ));
        }
    }
    // Only 16-bit inputs have the transpose bits; tf32, fp8 and 8-bit integer operands in
    // shared memory must have K contiguous (PTX ISA, wgmma.mma_async: "imm-trans-a/b ... only
    // for .f16/.bf16").
    if ik != 16 {
        for (what, t, k_dim) in [("a", &a, 1usize), ("b", &b, 0usize)] {
            if t.space != Space::Shared {
                continue;
            }
            let Ok(layout) = t.shared_layout() else {
                continue;
            };
            if layout.strides.get(k_dim) != Some(&1) {
                return Err(err(
                    op,
                    format!(
                        "expects {what} K-major (stride 1 along K, dimension {k_dim}) for {} inputs, but found strides [{}]",
                        a.dtype.name(),
                        layout.strides.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
                    ),
                )
                .with_help("only f16 and bf16 operands may be transposed (MN-major); store the tile with K contiguous, or view it with tilus.permute_shared so that K has stride 1"));
            }
        }
    }
    Ok(())
}
