//! `tcgen05`: Blackwell (sm_100a) tensor memory and its MMA.
//!
//! Tensor memory (TMEM) is 128 lanes × 512 columns of 32-bit cells per CTA. `tcgen05.alloc`
//! reserves columns and returns a `!tilus.tmem` tensor (dim 0 = lanes); `tcgen05.mma` computes
//! into it from shared (or TMEM) operands, issued by one warp and completed asynchronously —
//! `tcgen05.commit` arrives on an mbarrier when it is done. `tcgen05.ld`/`tcgen05.st` move data
//! between TMEM and registers (warp `w` of the group may only touch lane quarter `w mod 4`);
//! `tcgen05.cp` copies shared memory into TMEM. `tcgen05.slice` and `tcgen05.view` are views.
//!
//! Every tcgen05 op of a kernel that names a CTA group (`cta_group(2)`; 1 when left out) must
//! name the same one: the pair of CTAs a `cta_group::2` MMA spans is fixed per kernel.

use crate::common::op_error;
use crate::layout_algebra::SwizzleMode;
use crate::threadgroup::{group_of, require_group, Need};
use crate::tilus_types::{
    barrier_count, const_int, prop_i64, type_str, DType, Space, TensorType, BARRIERS, INT_OR_INDEX,
    REG_TENSOR, SHARED_TENSOR, TMEM_TENSOR,
};
use tilus_ir::diag::DiagLoc;
use tilus_ir::opdef::{
    many, maybe, one, opt_attr, Format, OpDef, Trait, TypeConstraint, I1, I32, I64_ATTR, INDEX,
};
use tilus_ir::types::Signedness;
use tilus_ir::{Context, Diagnostic, OpId, Value};

/// `!tilus.shared<...>` or `!tilus.tmem<...>`.
const SHARED_OR_TMEM_TENSOR: TypeConstraint = TypeConstraint {
    desc: "shared or tensor-memory tensor",
    check: |c, t| {
        TensorType::of(c, t).is_some_and(|x| matches!(x.space, Space::Shared | Space::TensorMemory))
    },
    build: None,
};

/// `tcgen05.alloc`.
pub static ALLOC: OpDef = OpDef {
    name: "tcgen05.alloc",
    summary: "allocate tensor-memory columns",
    description: "`%t = tcgen05.alloc (cta_group(2))? : !tilus.tmem<128x256xf32>` reserves \
        `Π shape[1:] · bits / 32` 32-bit columns of tensor memory, rounded up to a power of two \
        of at least 32 (at most 512), and returns the tensor at the allocated base. The first \
        warp of the group executes `tcgen05.alloc.cta_group::N.sync.aligned`; the group must \
        be whole warps (at least 32 threads, starting at a multiple of 32). Every allocation is \
        freed with `tcgen05.dealloc` of its result before the kernel exits (the verifier \
        rejects an allocation that is never freed). `cta_group(2)` needs a kernel whose \
        cluster has an even number of CTAs (a CTA and its peer).",
    results: &[one("tensor", TMEM_TENSOR)],
    attributes: &[opt_attr("cta_group", I64_ATTR)],
    verify: Some(verify_alloc),
    format: Format::Declarative("(`cta_group` `(` $cta_group^ `)`)? attr-dict `:` type($tensor)"),
    traits: &[Trait::Collective, Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = ALLOC.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.alloc`.
    pub struct AllocOp = ALLOC;
    operands {}
    results {
        tensor = "tensor": Value
    }
    attrs {
        cta_group = "cta_group": Option<i64>
    }
    regions {}
    successors {}
}

/// `tcgen05.dealloc`.
pub static DEALLOC: OpDef = OpDef {
    name: "tcgen05.dealloc",
    summary: "free a tensor-memory allocation",
    description: "`tcgen05.dealloc %t (cta_group(2))? : !tilus.tmem<...>` frees the columns of a \
        tensor returned by `tcgen05.alloc` (not of a slice or view of it). Same group rule as \
        `tcgen05.alloc`; all reads and MMAs of the tensor must be complete.",
    operands: &[one("tensor", TMEM_TENSOR)],
    attributes: &[opt_attr("cta_group", I64_ATTR)],
    verify: Some(verify_dealloc),
    format: Format::Declarative(
        "$tensor (`cta_group` `(` $cta_group^ `)`)? attr-dict `:` type($tensor)",
    ),
    traits: &[Trait::Collective, Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = DEALLOC.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.dealloc`.
    pub struct DeallocOp = DEALLOC;
    operands {
        tensor = "tensor": Value
    }
    results {}
    attrs {
        cta_group = "cta_group": Option<i64>
    }
    regions {}
    successors {}
}

/// `tcgen05.relinquish_alloc_permit`.
pub static RELINQUISH_ALLOC_PERMIT: OpDef = OpDef {
    name: "tcgen05.relinquish_alloc_permit",
    summary: "give up the right to allocate tensor memory",
    description: "`tcgen05.relinquish_alloc_permit (cta_group(2))?` tells the hardware this CTA \
        will not allocate tensor memory again, so CTAs waiting for an allocation can proceed. \
        Any group may issue it.",
    attributes: &[opt_attr("cta_group", I64_ATTR)],
    verify: Some(verify_cta_group_only),
    format: Format::Declarative("(`cta_group` `(` $cta_group^ `)`)? attr-dict"),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = RELINQUISH_ALLOC_PERMIT.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.relinquish_alloc_permit`.
    pub struct RelinquishAllocPermitOp = RELINQUISH_ALLOC_PERMIT;
    operands {}
    results {}
    attrs {
        cta_group = "cta_group": Option<i64>
    }
    regions {}
    successors {}
}

/// `tcgen05.mma`.
pub static MMA: OpDef = OpDef {
    name: "tcgen05.mma",
    summary: "asynchronous MMA into tensor memory, d = a * b + (enable_input_d ? d : 0)",
    description: "`tcgen05.mma %a, %b, %d, enable_input_d(%p) (cta_group(2))? : A, B, D` \
        computes `d = a·b + (p ? d : 0)` with `a: [M, K]` in shared or tensor memory, \
        `b: [K, N]` in shared memory and `d: [M, N]` in tensor memory; `p` applies to the first \
        K step only. The kind follows the input types: f16 × f16 or bf16 × bf16 → \
        `kind::f16` (K step 16, d f32, or f16 for f16 inputs), tf32 × tf32 → `kind::tf32` \
        (K step 8, d f32), fp8/fp6/fp4 × fp8/fp6/fp4 → `kind::f8f6f4` (K step 32, d f16 or \
        f32), 8-bit integers → `kind::i8` (K step 32, d i32). With `cta_group` 1, M (rows of \
        `a`) is 64 or 128 and N a multiple of 8 (M = 64) or 16 (M = 128), cut into \
        instructions of N = gcd(N, 256). With `cta_group(2)` the operands are this CTA's \
        halves — `a: [M/2, K]`, `b: [K, N/2]`, `d: [M/2, N]` — of one instruction of M = 256 \
        (N a multiple of 16 in [16, 256]) or M = 128 (N a multiple of 32 in [32, 256]). Shared \
        `a` and `b` share a swizzle mode. Issued by exactly one warp (32 threads starting at a \
        multiple of 32), predicated on its leader lane; completion is tracked by \
        `tcgen05.commit`.",
    operands: &[
        one("a", SHARED_OR_TMEM_TENSOR),
        one("b", SHARED_TENSOR),
        one("d", TMEM_TENSOR),
        one("enable_input_d", I1),
    ],
    attributes: &[opt_attr("cta_group", I64_ATTR)],
    verify: Some(verify_mma),
    format: Format::Declarative(
        "$a `,` $b `,` $d `,` `enable_input_d` `(` $enable_input_d `)` \
         (`cta_group` `(` $cta_group^ `)`)? attr-dict `:` type($a) `,` type($b) `,` type($d)",
    ),
    traits: &[Trait::Async, Trait::MemRead, Trait::MemWrite],
    ..OpDef::DEFAULT
};
const _: () = MMA.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.mma`.
    pub struct MmaOp = MMA;
    operands {
        a = "a": Value,
        b = "b": Value,
        d = "d": Value,
        enable_input_d = "enable_input_d": Value
    }
    results {}
    attrs {
        cta_group = "cta_group": Option<i64>
    }
    regions {}
    successors {}
}

/// `tcgen05.commit`.
pub static COMMIT: OpDef = OpDef {
    name: "tcgen05.commit",
    summary: "arrive on an mbarrier when the issued tcgen05 work completes",
    description: "`tcgen05.commit %bars[%i : i32] (multicast(%mask))? (cta_group(2))? : \
        !mbarrier.barriers<N>` makes the mbarrier receive one arrival once every \
        `tcgen05.mma` and `tcgen05.cp` issued so far by this warp's leader lane has completed; \
        with `multicast` (a 16-bit CTA mask in an `i32`) the arrival happens on the barrier at the same \
        offset in every CTA of the mask. Issued by exactly one warp.",
    operands: &[
        one("barriers", BARRIERS),
        one("index", INT_OR_INDEX),
        maybe("multicast_mask", I32),
    ],
    attributes: &[opt_attr("cta_group", I64_ATTR)],
    verify: Some(verify_commit),
    format: Format::Declarative(
        "$barriers `[` $index `:` type($index) `]` (`multicast` `(` $multicast_mask^ `)`)? \
         (`cta_group` `(` $cta_group^ `)`)? attr-dict `:` type($barriers)",
    ),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = COMMIT.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.commit`.
    pub struct CommitOp = COMMIT;
    operands {
        barriers = "barriers": Value,
        index = "index": Value,
        multicast_mask = "multicast_mask": Option<Value>
    }
    results {}
    attrs {
        cta_group = "cta_group": Option<i64>
    }
    regions {}
    successors {}
}

/// `tcgen05.ld`.
pub static LD: OpDef = OpDef {
    name: "tcgen05.ld",
    summary: "load a tensor-memory tile into registers",
    description: "`%r = tcgen05.ld %t : !tilus.tmem<LxCxT> -> !tilus.reg<LxCxT, ...>` copies a \
        2-D TMEM tile into a register tensor of the same shape and element type (at most 32 \
        bits). The group has one thread per lane (`L` threads) and starts at the tile's lane \
        offset modulo 128, because warp `w` may only access lanes `[32·(w mod 4), +32)`; a \
        register layout, when given, spreads over `L` threads and keeps each row in the warp of \
        its lane quarter. Asynchronous: the registers are valid after `tcgen05.wait_ld`.",
    operands: &[one("tensor", TMEM_TENSOR)],
    results: &[one("result", REG_TENSOR)],
    verify: Some(verify_ld),
    format: Format::Declarative("$tensor attr-dict `:` type($tensor) `->` type($result)"),
    traits: &[Trait::Collective, Trait::Async, Trait::MemRead],
    ..OpDef::DEFAULT
};
const _: () = LD.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.ld`.
    pub struct LdOp = LD;
    operands {
        tensor = "tensor": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tcgen05.st`.
pub static ST: OpDef = OpDef {
    name: "tcgen05.st",
    summary: "store a register tile into tensor memory",
    description: "`tcgen05.st %r, %t : !tilus.reg<...>, !tilus.tmem<...>` writes a register \
        tensor into a 2-D TMEM tile of the same shape and element type. Same group and layout \
        rules as `tcgen05.ld`; the write is complete after `tcgen05.wait_st`.",
    operands: &[one("value", REG_TENSOR), one("tensor", TMEM_TENSOR)],
    verify: Some(verify_st),
    format: Format::Declarative("$value `,` $tensor attr-dict `:` type($value) `,` type($tensor)"),
    traits: &[Trait::Collective, Trait::Async, Trait::MemWrite],
    ..OpDef::DEFAULT
};
const _: () = ST.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.st`.
    pub struct StOp = ST;
    operands {
        value = "value": Value,
        tensor = "tensor": Value
    }
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `tcgen05.wait_ld`.
pub static WAIT_LD: OpDef = OpDef {
    name: "tcgen05.wait_ld",
    summary: "wait for this thread's tcgen05.ld to complete",
    description: "`tcgen05.wait_ld` (PTX `tcgen05.wait::ld.sync.aligned`) blocks until every \
        `tcgen05.ld` issued by the thread has written its registers. Any group.",
    format: Format::Declarative("attr-dict"),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = WAIT_LD.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.wait_ld`.
    pub struct WaitLdOp = WAIT_LD;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `tcgen05.wait_st`.
pub static WAIT_ST: OpDef = OpDef {
    name: "tcgen05.wait_st",
    summary: "wait for this thread's tcgen05.st to complete",
    description: "`tcgen05.wait_st` (PTX `tcgen05.wait::st.sync.aligned`) blocks until every \
        `tcgen05.st` issued by the thread has been written to tensor memory. Any group.",
    format: Format::Declarative("attr-dict"),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = WAIT_ST.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.wait_st`.
    pub struct WaitStOp = WAIT_ST;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `tcgen05.cp`.
pub static CP: OpDef = OpDef {
    name: "tcgen05.cp",
    summary: "asynchronous copy from shared memory into tensor memory",
    description: "`tcgen05.cp %s, %t (cta_group(2))? : !tilus.shared<128x...>, \
        !tilus.tmem<128x...>` copies a 128-row shared tile into a TMEM tensor of the same shape \
        and element type (so lanes 0 to 127), in 128-row × 128-bit pieces (a row must be a \
        multiple of 128 bits). Issued by exactly one warp; completion is tracked by \
        `tcgen05.commit` like an MMA.",
    operands: &[one("source", SHARED_TENSOR), one("tensor", TMEM_TENSOR)],
    attributes: &[opt_attr("cta_group", I64_ATTR)],
    verify: Some(verify_cp),
    format: Format::Declarative(
        "$source `,` $tensor (`cta_group` `(` $cta_group^ `)`)? attr-dict `:` type($source) `,` \
         type($tensor)",
    ),
    traits: &[Trait::Async, Trait::MemRead, Trait::MemWrite],
    ..OpDef::DEFAULT
};
const _: () = CP.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.cp`.
    pub struct CpOp = CP;
    operands {
        source = "source": Value,
        tensor = "tensor": Value
    }
    results {}
    attrs {
        cta_group = "cta_group": Option<i64>
    }
    regions {}
    successors {}
}

/// `tcgen05.slice`.
pub static SLICE: OpDef = OpDef {
    name: "tcgen05.slice",
    summary: "a view of a box of a tensor-memory tensor",
    description: "`%s = tcgen05.slice %t[%o1, ..., %on] (lane_offset(32))? : !tilus.tmem<...> -> \
        !tilus.tmem<...>` takes one `index` offset per column dimension (dims 1.. of the \
        source) and a constant lane offset (a multiple of 32, default 0). The result's column \
        dimensions are the source's trailing ones; the leading source column dimensions it \
        leaves out are taken at extent 1 (so `[128, S, N]` at `[%s, %c0]` gives the stage \
        `[128, N]`). The box must stay row-major contiguous: after the first column dimension \
        of the result, every extent equals the source's. Offsets that are constants are \
        checked against the bounds. No data moves.",
    operands: &[one("tensor", TMEM_TENSOR), many("offsets", INDEX)],
    results: &[one("result", TMEM_TENSOR)],
    attributes: &[opt_attr("lane_offset", I64_ATTR)],
    traits: &[Trait::Pure, Trait::Async],
    verify: Some(verify_slice),
    format: Format::Declarative(
        "$tensor `[` $offsets `]` (`lane_offset` `(` $lane_offset^ `)`)? attr-dict `:` \
         type($tensor) `->` type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = SLICE.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.slice`.
    pub struct SliceOp = SLICE;
    operands {
        tensor = "tensor": Value,
        offsets = "offsets": &[Value]
    }
    results {
        result = "result": Value
    }
    attrs {
        lane_offset = "lane_offset": Option<i64>
    }
    regions {}
    successors {}
}

/// `tcgen05.view`.
pub static VIEW: OpDef = OpDef {
    name: "tcgen05.view",
    summary: "reinterpret a tensor-memory tensor with another element type or shape",
    description: "`%v = tcgen05.view %t : !tilus.tmem<128x64xf32> -> !tilus.tmem<128x128xf16>` \
        keeps the lanes (dim 0) and the 32-bit columns: the result has the same number of \
        lanes and the same number of bits per lane (`Π shape[1:] · bits`). No data moves.",
    operands: &[one("tensor", TMEM_TENSOR)],
    results: &[one("result", TMEM_TENSOR)],
    traits: &[Trait::Pure, Trait::Async],
    verify: Some(verify_view),
    format: Format::Declarative("$tensor attr-dict `:` type($tensor) `->` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = VIEW.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.view`.
    pub struct ViewOp = VIEW;
    operands {
        tensor = "tensor": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tcgen05.fence_before_thread_sync`.
pub static FENCE_BEFORE_THREAD_SYNC: OpDef = OpDef {
    name: "tcgen05.fence_before_thread_sync",
    summary: "order earlier tcgen05 ops before the next thread synchronization",
    description: "`tcgen05.fence_before_thread_sync` (PTX `tcgen05.fence::before_thread_sync`) \
        makes the thread's earlier asynchronous tcgen05 ops ordered before a following barrier \
        or mbarrier synchronization — e.g. after the last `tcgen05.wait_ld` and before the \
        `threadgroup.sync` that precedes `tcgen05.dealloc`. Any group.",
    format: Format::Declarative("attr-dict"),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = FENCE_BEFORE_THREAD_SYNC.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.fence_before_thread_sync`.
    pub struct FenceBeforeThreadSyncOp = FENCE_BEFORE_THREAD_SYNC;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `tcgen05.fence_after_thread_sync`.
pub static FENCE_AFTER_THREAD_SYNC: OpDef = OpDef {
    name: "tcgen05.fence_after_thread_sync",
    summary: "order later tcgen05 ops after the previous thread synchronization",
    description: "`tcgen05.fence_after_thread_sync` (PTX `tcgen05.fence::after_thread_sync`) \
        makes the thread's later tcgen05 ops ordered after a preceding barrier or mbarrier \
        synchronization — e.g. after the `threadgroup.sync` that follows `tcgen05.alloc` and \
        before the first `tcgen05.mma`, or after waiting on an MMA's commit barrier and before \
        `tcgen05.ld`. Any group.",
    format: Format::Declarative("attr-dict"),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = FENCE_AFTER_THREAD_SYNC.check();

tilus_ir::op_handle! {
    /// Typed handle of `tcgen05.fence_after_thread_sync`.
    pub struct FenceAfterThreadSyncOp = FENCE_AFTER_THREAD_SYNC;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

/// The tcgen05 dialect's ops.
pub static OPS: &[&OpDef] = &[
    &ALLOC,
    &DEALLOC,
    &RELINQUISH_ALLOC_PERMIT,
    &MMA,
    &COMMIT,
    &LD,
    &ST,
    &WAIT_LD,
    &WAIT_ST,
    &CP,
    &SLICE,
    &VIEW,
    &FENCE_BEFORE_THREAD_SYNC,
    &FENCE_AFTER_THREAD_SYNC,
];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `tcgen05` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum Tcgen05OpKind for OPS {
        Alloc(AllocOp),
        Dealloc(DeallocOp),
        RelinquishAllocPermit(RelinquishAllocPermitOp),
        Mma(MmaOp),
        Commit(CommitOp),
        Ld(LdOp),
        St(StOp),
        WaitLd(WaitLdOp),
        WaitSt(WaitStOp),
        Cp(CpOp),
        Slice(SliceOp),
        View(ViewOp),
        FenceBeforeThreadSync(FenceBeforeThreadSyncOp),
        FenceAfterThreadSync(FenceAfterThreadSyncOp),
    }
}

// ----- helpers -------------------------------------------------------------------------------

fn tensor(ctx: &Context, v: Value) -> Option<TensorType> {
    TensorType::of(ctx, ctx.value_type(v))
}

/// Ops whose PTX names a CTA group.
const CTA_GROUP_OPS: &[&str] = &[
    "tcgen05.alloc",
    "tcgen05.dealloc",
    "tcgen05.relinquish_alloc_permit",
    "tcgen05.mma",
    "tcgen05.commit",
    "tcgen05.cp",
];

/// The CTA group an op names (1 when it leaves `cta_group` out).
pub fn cta_group(ctx: &Context, op: OpId) -> i64 {
    prop_i64(ctx, op, "cta_group").unwrap_or(1)
}

/// Columns `tcgen05.alloc` reserves for a tensor: `Π shape[1:] · bits / 32` rounded up to a
/// power of two, at least 32.
/// Saturates at `i64::MAX` (in i128 arithmetic) instead of wrapping, so a huge tensor is
/// reported as too many columns rather than as a small allocation.
pub fn alloc_columns(t: &TensorType) -> i64 {
    let bits = t.shape[1..]
        .iter()
        .try_fold(i128::from(t.dtype.bits()), |acc, &d| {
            acc.checked_mul(i128::from(d))
        })
        .unwrap_or(i128::MAX);
    let cols = bits.saturating_add(31) / 32;
    let cols = u128::try_from(cols.max(1))
        .unwrap_or(1)
        .checked_next_power_of_two()
        .unwrap_or(u128::MAX)
        .max(32);
    i64::try_from(cols).unwrap_or(i64::MAX)
}

/// The lane a TMEM value starts at relative to its allocation (slices add their lane offset).
pub fn lane_offset(ctx: &Context, mut v: Value) -> i64 {
    let mut off = 0;
    while let Some(d) = ctx.defining_op(v) {
        match ctx.op_name_str(d) {
            "tcgen05.slice" => off += prop_i64(ctx, d, "lane_offset").unwrap_or(0),
            "tcgen05.view" => {}
            _ => break,
        }
        v = ctx.operands(d)[0];
    }
    off
}

/// `cta_group` is 1 or 2, and the same as the first tcgen05 op of the enclosing kernel that
/// names one.
fn check_cta_group(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let g = cta_group(ctx, op);
    if g != 1 && g != 2 {
        return Err(Diagnostic::error(
            DiagLoc::OpAttr(op, "cta_group"),
            format!(
                "'{}' op expects cta_group 1 or 2, but found {g}",
                ctx.op_name_str(op)
            ),
        ));
    }
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if ctx.op_name_str(p) == "tilus.kernel" {
            break;
        }
        cur = ctx.parent_op(p);
    }
    let Some(kernel) = cur else {
        return Ok(());
    };
    if g == 2 {
        let ctas = crate::mbarrier::cluster_ctas(ctx, op).unwrap_or(1);
        if ctas % 2 != 0 {
            return Err(Diagnostic::error(
                DiagLoc::OpAttr(op, "cta_group"),
                format!(
                    "'{}' op expects cta_group 2 in a kernel whose cluster holds CTA pairs (an even number of CTAs), but the cluster has {ctas}",
                    ctx.op_name_str(op)
                ),
            )
            .with_note(DiagLoc::Op(kernel), "the kernel")
            .with_help("cta_group(2) runs on a CTA and its peer (cluster ranks 2i and 2i + 1): give the kernel a `cluster(...)` with an even number of CTAs, such as cluster(2, 1, 1)"));
        }
    }
    let mut first = None;
    ctx.walk(kernel, &mut |o| {
        if first.is_none() && CTA_GROUP_OPS.contains(&ctx.op_name_str(o)) {
            first = Some(o);
        }
    });
    match first {
        Some(f) if f != op && cta_group(ctx, f) != g => Err(op_error(
            ctx,
            op,
            format!(
                "expects cta_group {} like every tcgen05 op of the kernel (the first one, '{}', uses it), but found {g}",
                cta_group(ctx, f),
                ctx.op_name_str(f)
            ),
        )
        .with_note(DiagLoc::Op(f), "the kernel's first tcgen05 op with a CTA group")),
        _ => Ok(()),
    }
}

fn verify_cta_group_only(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    check_cta_group(ctx, op)
}

fn require_alloc_group(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    require_group(ctx, op, Need::AtLeast(32))?;
    require_group(ctx, op, Need::WholeWarps)
}

fn verify_alloc(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    check_cta_group(ctx, op)?;
    let Some(t) = tensor(ctx, ctx.results(op)[0]) else {
        return Ok(());
    };
    let cols = alloc_columns(&t);
    if cols > 512 {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects at most 512 tensor-memory columns, but found {cols} for {}",
                t.shape_str()
            ),
        ));
    }
    // Tensor memory outlives the CTA unless freed: a kernel that exits with columns still
    // allocated leaves the SM's allocator in an undefined state (PTX: "all the tensor memory
    // allocated ... must be deallocated before the kernel exits").
    let r = ctx.results(op)[0];
    let freed = ctx.uses(r).iter().any(|u| DeallocOp::is(ctx, u.op));
    require_alloc_group(ctx, op)?;
    if !freed && group_of(ctx, op).is_some() {
        return Err(op_error(
            ctx,
            op,
            format!("expects the tensor memory it allocates ({cols} columns) to be freed by a 'tcgen05.dealloc' before the kernel exits, but it is never freed"),
        )
        .with_help("end the kernel with fence_before_thread_sync, threadgroup.sync and `tcgen05.dealloc` of this value, issued by the warp that allocated it"));
    }
    Ok(())
}

fn verify_dealloc(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    check_cta_group(ctx, op)?;
    let v = ctx.operands(op)[0];
    if let Some(d) = ctx.defining_op(v) {
        let name = ctx.op_name_str(d);
        if name != "tcgen05.alloc" && name.starts_with("tcgen05.") {
            return Err(op_error(
                ctx,
                op,
                format!("expects a tensor returned by 'tcgen05.alloc', but found the result of '{name}'"),
            ));
        }
    }
    require_alloc_group(ctx, op)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    F16,
    Tf32,
    F8f6f4,
    I8,
}

fn kind_of(d: DType) -> Option<Kind> {
    Some(match d {
        DType::F16 | DType::BF16 => Kind::F16,
        DType::TF32 => Kind::Tf32,
        DType::F8E4M3 | DType::F8E5M2 | DType::F6E2M3 | DType::F6E3M2 | DType::F4E2M1 => {
            Kind::F8f6f4
        }
        DType::Int { bits: 8, .. } => Kind::I8,
        _ => return None,
    })
}

fn swizzle_name(s: SwizzleMode) -> &'static str {
    match s {
        SwizzleMode::None => "none",
        SwizzleMode::B32 => "32B",
        SwizzleMode::B64 => "64B",
        SwizzleMode::B128 => "128B",
    }
}

fn verify_mma(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    require_group(ctx, op, Need::AlignedWarp)?;
    check_cta_group(ctx, op)?;
    let ops = ctx.operands(op);
    let (Some(a), Some(b), Some(d)) = (
        tensor(ctx, ops[0]),
        tensor(ctx, ops[1]),
        tensor(ctx, ops[2]),
    ) else {
        return Ok(());
    };
    for (what, t) in [("a", &a), ("b", &b), ("d", &d)] {
        if t.shape.len() != 2 {
            return Err(op_error(
                ctx,
                op,
                format!("expects {what} of rank 2, but found rank {}", t.shape.len()),
            ));
        }
    }
    let cg = cta_group(ctx, op);
    let (m, k, nb) = (a.shape[0], a.shape[1], b.shape[1]);
    if b.shape[0] != k {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects b of {k} rows (the K of a), but found {}",
                b.shape[0]
            ),
        ));
    }
    let n = nb * cg;
    if d.shape != [m, n] {
        let why = if cg == 1 {
            "M of a, N of b".to_string()
        } else {
            "M of a, twice the N of b: each CTA holds half of b".to_string()
        };
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects d of shape {m}x{n} ({why}), but found {}x{}",
                d.shape[0], d.shape[1]
            ),
        ));
    }
    // Kind and types.
    let (ka, kb) = (kind_of(a.dtype), kind_of(b.dtype));
    // kind::f16 and kind::tf32 take one input type; f8f6f4 and i8 may mix theirs.
    let same_kind = match (ka, kb) {
        (Some(Kind::F16 | Kind::Tf32), _) => ka == kb && a.dtype == b.dtype,
        (Some(x), Some(y)) => x == y,
        _ => false,
    };
    if !same_kind {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a and b of one MMA kind (f16 x f16, bf16 x bf16, tf32 x tf32, fp8/fp6/fp4 x fp8/fp6/fp4, or 8-bit integers), but found {} and {}",
                a.dtype.name(),
                b.dtype.name()
            ),
        ));
    }
    let kind = ka.unwrap_or(Kind::F16);
    let (inst_k, d_ok, d_words, kind_name) = match kind {
        Kind::F16 if a.dtype == DType::F16 => (
            16,
            matches!(d.dtype, DType::F16 | DType::F32),
            "f16 or f32",
            "f16",
        ),
        Kind::F16 => (16, d.dtype == DType::F32, "f32", "f16"),
        Kind::Tf32 => (8, d.dtype == DType::F32, "f32", "tf32"),
        Kind::F8f6f4 => (
            32,
            matches!(d.dtype, DType::F16 | DType::F32),
            "f16 or f32",
            "f8f6f4",
        ),
        Kind::I8 => (
            32,
            matches!(
                d.dtype,
                DType::Int {
                    bits: 32,
                    signedness: Signedness::Signless | Signedness::Signed
                }
            ),
            "i32",
            "i8",
        ),
    };
    if !d_ok {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects d of {d_words} for {} inputs (kind::{kind_name}), but found {}",
                a.dtype.name(),
                d.dtype.name()
            ),
        ));
    }
    if k % inst_k != 0 {
        return Err(op_error(
            ctx,
            op,
            format!("expects K to be a multiple of {inst_k} (kind::{kind_name}), but found {k}"),
        ));
    }
    // Shapes.
    if m != 64 && m != 128 {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a of 64 or 128 rows (instruction M {} or {} with cta_group {cg}), but found {m}",
                64 * cg,
                128 * cg
            ),
        ));
    }
    let inst_m = m * cg;
    let (step, lo, hi) = match (cg, inst_m) {
        (1, 64) => (8, 8, i64::MAX),
        (1, _) => (16, 16, i64::MAX),
        (_, 128) => (32, 32, 256),
        _ => (16, 16, 256),
    };
    if n % step != 0 || n < lo || n > hi {
        let range = if hi == i64::MAX {
            String::new()
        } else {
            format!(" in [{lo}, {hi}]")
        };
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects N to be a multiple of {step}{range} for instruction M {inst_m} with cta_group {cg}, but found {n}"
            ),
        ));
    }
    if a.space == Space::Shared && a.swizzle != b.swizzle {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a and b with one swizzle mode, but found {} and {}",
                swizzle_name(a.swizzle),
                swizzle_name(b.swizzle)
            ),
        ));
    }
    Ok(())
}

fn verify_commit(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    require_group(ctx, op, Need::AlignedWarp)?;
    check_cta_group(ctx, op)?;
    let ops = ctx.operands(op);
    if let (Some(n), Some(i)) = (
        barrier_count(ctx, ctx.value_type(ops[0])),
        const_int(ctx, ops[1]),
    ) {
        if i < 0 || i >= n {
            return Err(op_error(
                ctx,
                op,
                format!("expects a barrier index in [0, {n}), but found {i}"),
            ));
        }
    }
    if let Some(&m) = ops.get(2) {
        if let Some(x) = const_int(ctx, m) {
            if !(1..=0xffff).contains(&x) {
                return Err(op_error(
                    ctx,
                    op,
                    format!("expects a 16-bit multicast CTA mask with a bit set, but found {x}"),
                ));
            }
        }
    }
    Ok(())
}

/// The group rule of `tcgen05.ld`/`tcgen05.st`: one thread per lane, starting at the tile's
/// lane offset modulo 128.
fn require_lane_group(ctx: &Context, op: OpId, t: Value, lanes: i64) -> Result<(), Diagnostic> {
    let Some(g) = group_of(ctx, op) else {
        return Ok(());
    };
    let off = lane_offset(ctx, t) % 128;
    if g.size == lanes && g.abs_begin.is_some_and(|b| b % 128 == off) {
        return Ok(());
    }
    let mut d = Diagnostic::op(
        op,
        format!(
            "'{}' op must be issued by {lanes} threads (one per lane) starting at a multiple of 128 plus {off} (the tile's first lane), but its group is {}",
            ctx.op_name_str(op),
            g.describe()
        ),
    );
    if let Some(gop) = g.op {
        d = d.with_note(DiagLoc::Op(gop), "the enclosing group is opened here");
    }
    Err(d)
}

/// Shared rules of `tcgen05.ld` and `tcgen05.st`.
fn verify_ld_st(ctx: &Context, op: OpId, reg: Value, tm: Value) -> Result<(), Diagnostic> {
    let (Some(r), Some(t)) = (tensor(ctx, reg), tensor(ctx, tm)) else {
        return Ok(());
    };
    if t.shape.len() != 2 {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a 2-D tensor-memory tile, but found rank {}",
                t.shape.len()
            ),
        ));
    }
    if r.shape != t.shape || r.dtype != t.dtype {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a register tensor of the tile's shape and element type {}, but found {}",
                t.shape_str(),
                r.shape_str()
            ),
        ));
    }
    let lanes = t.shape[0];
    if let Some(l) = r.register_layout() {
        if l.num_threads() != lanes {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects a register layout over {lanes} threads (one per lane), but found {} threads",
                    l.num_threads()
                ),
            ));
        }
        for th in 0..l.num_threads() {
            for loc in 0..l.local_size() {
                let row = l.coords(th, loc)[0];
                if row / 32 != th / 32 {
                    return Err(op_error(
                        ctx,
                        op,
                        format!(
                            "expects a register layout in which warp w holds only rows [32w, 32w + 32) (its lane quarter), but found row {row} in thread {th}"
                        ),
                    ));
                }
            }
        }
    }
    require_lane_group(ctx, op, tm, lanes)
}

fn verify_ld(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    verify_ld_st(ctx, op, ctx.results(op)[0], ctx.operands(op)[0])
}

fn verify_st(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    verify_ld_st(ctx, op, ops[0], ops[1])
}

fn verify_cp(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    require_group(ctx, op, Need::AlignedWarp)?;
    check_cta_group(ctx, op)?;
    let ops = ctx.operands(op);
    let (Some(s), Some(t)) = (tensor(ctx, ops[0]), tensor(ctx, ops[1])) else {
        return Ok(());
    };
    if s.shape.first() != Some(&128) {
        return Err(op_error(
            ctx,
            op,
            format!("expects a source of 128 rows, but found {}", s.shape_str()),
        ));
    }
    if s.shape != t.shape || s.dtype != t.dtype {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a destination of the source's shape and element type {}, but found {}",
                s.shape_str(),
                t.shape_str()
            ),
        ));
    }
    let row_bits = s.shape[1..].iter().product::<i64>() * s.dtype.bits() as i64;
    if row_bits % 128 != 0 {
        return Err(op_error(
            ctx,
            op,
            format!("expects rows of a multiple of 128 bits, but found {row_bits} bits"),
        ));
    }
    Ok(())
}

fn verify_slice(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let (Some(s), Some(r)) = (tensor(ctx, ops[0]), tensor(ctx, ctx.results(op)[0])) else {
        return Ok(());
    };
    let offsets = &ops[1..];
    let n = s.shape.len();
    if offsets.len() != n - 1 {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects {} offsets (one per column dimension of {}), but found {}",
                n - 1,
                s.shape_str(),
                offsets.len()
            ),
        ));
    }
    if r.dtype != s.dtype {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a result of element type {}, but found {}",
                s.dtype.name(),
                r.dtype.name()
            ),
        ));
    }
    let lane_off = prop_i64(ctx, op, "lane_offset").unwrap_or(0);
    if lane_off < 0 || lane_off % 32 != 0 || lane_off + r.shape[0] > s.shape[0] {
        return Err(Diagnostic::error(
            DiagLoc::OpAttr(op, "lane_offset"),
            format!(
                "'tcgen05.slice' op expects a lane offset that is a multiple of 32 with lane_offset + {} <= {} lanes, but found {lane_off}",
                r.shape[0], s.shape[0]
            ),
        ));
    }
    let m = r.shape.len();
    if m > n {
        return Err(op_error(
            ctx,
            op,
            format!("expects a result of rank at most {n}, but found rank {m}"),
        ));
    }
    // Box extents over the source's column dims: leading dropped dims are 1.
    let drop = n - m;
    let mut ext = vec![1i64; n];
    ext[0] = r.shape[0];
    ext[drop + 1..].copy_from_slice(&r.shape[1..]);
    for i in 1..n {
        if ext[i] > s.shape[i] {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects at most {} elements in dimension {i} of the source, but found {} ({} -> {})",
                    s.shape[i],
                    ext[i],
                    s.shape_str(),
                    r.shape_str()
                ),
            ));
        }
        if i > drop + 1 && ext[i] != s.shape[i] {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects a row-major contiguous box (every column dimension after the result's first one whole), but found {} of {} in dimension {i}",
                    ext[i],
                    s.shape[i]
                ),
            ));
        }
        if let Some(o) = const_int(ctx, offsets[i - 1]) {
            if o < 0 || o + ext[i] > s.shape[i] {
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "expects offset + extent <= {} in dimension {i}, but found {o} + {}",
                        s.shape[i], ext[i]
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn verify_view(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let (Some(s), Some(r)) = (
        tensor(ctx, ctx.operands(op)[0]),
        tensor(ctx, ctx.results(op)[0]),
    ) else {
        return Ok(());
    };
    let bits = |t: &TensorType| t.shape[1..].iter().product::<i64>() * t.dtype.bits() as i64;
    if s.shape[0] != r.shape[0] || bits(&s) != bits(&r) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a result of {} lanes and {} bits per lane (like {}), but found {} lanes and {} bits per lane ({})",
                s.shape[0],
                bits(&s),
                type_str(ctx, ctx.value_type(ctx.operands(op)[0])),
                r.shape[0],
                bits(&r),
                type_str(ctx, ctx.value_type(ctx.results(op)[0]))
            ),
        ));
    }
    Ok(())
}
