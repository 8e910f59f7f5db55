//! `mbarrier`: shared-memory barriers that count thread arrivals and asynchronous transaction
//! bytes (spec §4).
//!
//! `mbarrier.alloc` makes `N` barriers at once (`!mbarrier.barriers<N>`); every other op names
//! one of them as `%bars[%i : i32]` (the index is `i32` or `index`; a constant index is checked
//! against `N`). A barrier's phase completes when its pending arrivals and its transaction byte
//! count both reach zero; `mbarrier.wait` blocks until the phase of a given parity has completed.
//!
//! **Arrival multiplicity.** Like every Tilus instruction, the arrive ops run on every thread of
//! the group that executes them: an `mbarrier.arrive` in a 128-thread group is 128 arrivals (and
//! an `arrive_expect_tx` adds its bytes 128 times). Size the counts of `mbarrier.alloc`
//! accordingly, or wrap the op in `threadgroup.single_thread` for one arrival. The multicast
//! variant is the exception: one elected thread per destination CTA arrives.
//!
//! Memory-ordering and scope qualifiers are keywords stored as small integer properties (the
//! generic form reads `sem = 1 : i64`): `sem(release|relaxed)` on arrivals, `sem(acquire|relaxed)`
//! on waits, `scope(cta|cluster)` on both. When left out, arrivals are `release` at `cta` scope
//! (`cluster` for the remote and multicast variants) and waits are `acquire` at `cta` scope.

use crate::threadgroup::{require_group, Need};
use crate::tilus_types::{
    attr_i64, attr_i64s, barrier_count, const_int, type_str, BARRIERS, I64_LIST, INT_OR_INDEX,
};
use tilus_ir::diag::DiagLoc;
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::{enum_attr, maybe, one, opt_attr, AttrConstraint, Format, OpDef, I32};
use tilus_ir::{Context, Diagnostic, OpId, Trait, Value};

/// Largest arrival count and transaction byte count an mbarrier holds (20 bits, PTX).
pub const MAX_COUNT: i64 = (1 << 20) - 1;

/// `sem` of arrivals: index 0 is the default.
pub const ARRIVE_SEM: AttrConstraint =
    enum_attr("arrive memory semantics", &["release", "relaxed"]);
/// `sem` of waits: index 0 is the default.
pub const WAIT_SEM: AttrConstraint = enum_attr("wait memory semantics", &["acquire", "relaxed"]);
/// `scope`: which threads the ordering covers.
pub const SCOPE: AttrConstraint = enum_attr("memory scope", &["cta", "cluster"]);

/// `mbarrier.alloc`.
pub static ALLOC: OpDef = OpDef {
    name: "mbarrier.alloc",
    summary: "allocate and initialize N mbarriers in shared memory",
    description: "`%bars = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>` allocates \
        `N` contiguous 8-byte barriers and initializes barrier `i` to expect `counts[i]` arrivals \
        per phase (phase 0, no pending transaction bytes). `counts` has one entry in \
        `[1, 2^20 - 1]` per barrier; without it every barrier expects as many arrivals as the \
        allocating group has threads (the whole block at kernel level), which is what a plain \
        `mbarrier.arrive` by that group produces. Initialization is hoisted to kernel entry: one \
        thread runs `mbarrier.init`, then the block fences (`fence.mbarrier_init`) and \
        synchronizes, so barriers are ready before any op of the body runs; peer CTAs of a \
        cluster must still synchronize (cluster barrier) before touching each other's barriers.",
    attributes: &[opt_attr("counts", I64_LIST)],
    results: &[one("barriers", BARRIERS)],
    verify: Some(verify_alloc),
    format: Format::Declarative("(`counts` $counts^)? attr-dict `:` type($barriers)"),
    traits: &[Trait::Async, Trait::AllocatesShared],
    ..OpDef::DEFAULT
};
const _: () = ALLOC.check();

tilus_ir::op_handle! {
    /// Typed handle of `mbarrier.alloc`.
    pub struct AllocOp = ALLOC;
    operands {}
    results {
        barriers = "barriers": Value
    }
    attrs {
        counts = "counts": Option<Attr>
    }
    regions {}
    successors {}
}

/// `mbarrier.arrive`.
pub static ARRIVE: OpDef = OpDef {
    name: "mbarrier.arrive",
    summary: "arrive on a barrier",
    description: "`mbarrier.arrive %bars[%i : i32] count(%c) sem(relaxed) scope(cluster) : \
        !mbarrier.barriers<2>` lowers the pending arrival count of barrier `%i` by `count` \
        (default 1; a constant must be in `[1, 2^20 - 1]`) **on every thread of the executing \
        group**: in a group of 128 threads it is 128 arrivals of `count` each. Wrap it in \
        `threadgroup.single_thread` for a single arrival. `sem` is `release` (default: the \
        group's earlier memory accesses are visible to threads that observe the phase \
        completion) or `relaxed`; `scope` is `cta` (default) or `cluster`. PTX: \
        `mbarrier.arrive.{sem}.{scope}.shared::cta.b64 _, [bar], count;`.",
    operands: &[
        one("barriers", BARRIERS),
        one("index", INT_OR_INDEX),
        maybe("count", I32),
    ],
    attributes: &[opt_attr("sem", ARRIVE_SEM), opt_attr("scope", SCOPE)],
    verify: Some(verify_arrive),
    format: Format::Declarative(
        "$barriers `[` $index `:` type($index) `]` (`count` `(` $count^ `)`)? \
         (`sem` `(` $sem^ `)`)? (`scope` `(` $scope^ `)`)? attr-dict `:` type($barriers)",
    ),
    traits: &[Trait::PerThread, Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = ARRIVE.check();

tilus_ir::op_enum! {
    /// The cases of a arrive memory semantics attribute.
    pub enum ArriveMemorySemantics {
        Release = "release",
        Relaxed = "relaxed"
    }
}

tilus_ir::op_enum! {
    /// The cases of a memory scope attribute.
    pub enum MemoryScope {
        Cta = "cta",
        Cluster = "cluster"
    }
}

tilus_ir::op_handle! {
    /// Typed handle of `mbarrier.arrive`.
    pub struct ArriveOp = ARRIVE;
    operands {
        barriers = "barriers": Value,
        index = "index": Value,
        count = "count": Option<Value>
    }
    results {}
    attrs {
        sem = "sem": Option<ArriveMemorySemantics>,
        scope = "scope": Option<MemoryScope>
    }
    regions {}
    successors {}
}

/// `mbarrier.arrive_expect_tx`.
pub static ARRIVE_EXPECT_TX: OpDef = OpDef {
    name: "mbarrier.arrive_expect_tx",
    summary: "expect transaction bytes on a barrier, then arrive once",
    description: "`mbarrier.arrive_expect_tx %bars[%i : i32], %bytes : !mbarrier.barriers<2>` \
        atomically raises the transaction byte count of barrier `%i` by `bytes` (a constant \
        must be in `[0, 2^20 - 1]`) and arrives once, **on every thread of the executing group** \
        (a 32-thread group adds `32 * bytes` and arrives 32 times): put it in \
        `threadgroup.single_thread` to announce one TMA box. The phase then completes only when \
        the announced bytes have landed (TMA copies signal the barrier with `complete_tx`). TMA \
        never raises the byte count itself, so every copy needs such an announcement. Optional \
        `sem(release|relaxed)` (default `release`) and `scope(cta|cluster)` (default `cta`).",
    operands: &[
        one("barriers", BARRIERS),
        one("index", INT_OR_INDEX),
        one("bytes", I32),
    ],
    attributes: &[opt_attr("sem", ARRIVE_SEM), opt_attr("scope", SCOPE)],
    verify: Some(verify_arrive),
    format: Format::Declarative(
        "$barriers `[` $index `:` type($index) `]` `,` $bytes \
         (`sem` `(` $sem^ `)`)? (`scope` `(` $scope^ `)`)? attr-dict `:` type($barriers)",
    ),
    traits: &[Trait::PerThread, Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = ARRIVE_EXPECT_TX.check();

tilus_ir::op_handle! {
    /// Typed handle of `mbarrier.arrive_expect_tx`.
    pub struct ArriveExpectTxOp = ARRIVE_EXPECT_TX;
    operands {
        barriers = "barriers": Value,
        index = "index": Value,
        bytes = "bytes": Value
    }
    results {}
    attrs {
        sem = "sem": Option<ArriveMemorySemantics>,
        scope = "scope": Option<MemoryScope>
    }
    regions {}
    successors {}
}

/// `mbarrier.arrive_expect_tx_multicast`.
pub static ARRIVE_EXPECT_TX_MULTICAST: OpDef = OpDef {
    name: "mbarrier.arrive_expect_tx_multicast",
    summary: "expect bytes and arrive once on the same barrier of several CTAs of the cluster",
    description: "`mbarrier.arrive_expect_tx_multicast %bars[%i : i32], %bytes, mask(%m) : \
        !mbarrier.barriers<2>`: for every set bit `r` of the 16-bit CTA mask, the barrier at the \
        same shared-memory offset in CTA `r` of the cluster gets one `expect_tx(bytes)` plus one \
        arrival. Unlike the other arrive ops this is not per thread: thread `r` of the executing \
        group (which must have at least 16 threads) acts for CTA `r`, so each target barrier \
        sees exactly one arrival. Used with multicast TMA copies. A constant mask must have at \
        least one bit set, fit in 16 bits and name CTAs of the kernel's cluster. Optional `sem(release|relaxed)` (default \
        `release`) and `scope(cta|cluster)` (default `cluster`).",
    operands: &[
        one("barriers", BARRIERS),
        one("index", INT_OR_INDEX),
        one("bytes", I32),
        one("mask", I32),
    ],
    attributes: &[opt_attr("sem", ARRIVE_SEM), opt_attr("scope", SCOPE)],
    verify: Some(verify_arrive),
    format: Format::Declarative(
        "$barriers `[` $index `:` type($index) `]` `,` $bytes `,` `mask` `(` $mask `)` \
         (`sem` `(` $sem^ `)`)? (`scope` `(` $scope^ `)`)? attr-dict `:` type($barriers)",
    ),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = ARRIVE_EXPECT_TX_MULTICAST.check();

tilus_ir::op_handle! {
    /// Typed handle of `mbarrier.arrive_expect_tx_multicast`.
    pub struct ArriveExpectTxMulticastOp = ARRIVE_EXPECT_TX_MULTICAST;
    operands {
        barriers = "barriers": Value,
        index = "index": Value,
        bytes = "bytes": Value,
        mask = "mask": Value
    }
    results {}
    attrs {
        sem = "sem": Option<ArriveMemorySemantics>,
        scope = "scope": Option<MemoryScope>
    }
    regions {}
    successors {}
}

/// `mbarrier.arrive_expect_tx_remote`.
pub static ARRIVE_EXPECT_TX_REMOTE: OpDef = OpDef {
    name: "mbarrier.arrive_expect_tx_remote",
    summary: "expect bytes and arrive on the barrier of another CTA of the cluster",
    description: "`mbarrier.arrive_expect_tx_remote %bars[%i : i32], %bytes, rank(%r) : \
        !mbarrier.barriers<2>` is `arrive_expect_tx` on the barrier at the same shared-memory \
        offset in CTA `rank` of the cluster (`mapa` then the `shared::cluster` form). Like \
        `arrive_expect_tx` it runs **on every thread of the executing group**; wrap it in \
        `threadgroup.single_thread` for one arrival. A constant rank must be in `[0, 16)` and \
        below the size of the kernel's cluster. \
        Optional `sem(release|relaxed)` (default `release`) and `scope(cta|cluster)` (default \
        `cluster`).",
    operands: &[
        one("barriers", BARRIERS),
        one("index", INT_OR_INDEX),
        one("bytes", I32),
        one("rank", I32),
    ],
    attributes: &[opt_attr("sem", ARRIVE_SEM), opt_attr("scope", SCOPE)],
    verify: Some(verify_arrive),
    format: Format::Declarative(
        "$barriers `[` $index `:` type($index) `]` `,` $bytes `,` `rank` `(` $rank `)` \
         (`sem` `(` $sem^ `)`)? (`scope` `(` $scope^ `)`)? attr-dict `:` type($barriers)",
    ),
    traits: &[Trait::PerThread, Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = ARRIVE_EXPECT_TX_REMOTE.check();

tilus_ir::op_handle! {
    /// Typed handle of `mbarrier.arrive_expect_tx_remote`.
    pub struct ArriveExpectTxRemoteOp = ARRIVE_EXPECT_TX_REMOTE;
    operands {
        barriers = "barriers": Value,
        index = "index": Value,
        bytes = "bytes": Value,
        rank = "rank": Value
    }
    results {}
    attrs {
        sem = "sem": Option<ArriveMemorySemantics>,
        scope = "scope": Option<MemoryScope>
    }
    regions {}
    successors {}
}

/// `mbarrier.wait`.
pub static WAIT: OpDef = OpDef {
    name: "mbarrier.wait",
    summary: "wait until the phase of a given parity has completed",
    description: "`mbarrier.wait %bars[%i : i32], phase(%p) : !mbarrier.barriers<2>` blocks \
        every thread of the executing group until barrier `%i` has completed the phase with \
        parity `%p` (0 or 1), i.e. until its current phase bit differs from `%p`. A fresh \
        barrier is in phase 0, so waiting on parity 1 returns at once: producers start from \
        `mbarrier.producer_initial_phase` (1), consumers from \
        `mbarrier.consumer_initial_phase` (0), and both flip their parity each time their ring \
        of stages wraps. `sem` is `acquire` (default: the completed phase's writes are visible \
        afterwards) or `relaxed`; `scope` is `cta` (default) or `cluster`. PTX: a loop on \
        `mbarrier.try_wait.parity.{sem}.{scope}.shared::cta.b64`.",
    operands: &[
        one("barriers", BARRIERS),
        one("index", INT_OR_INDEX),
        one("phase", I32),
    ],
    attributes: &[opt_attr("sem", WAIT_SEM), opt_attr("scope", SCOPE)],
    verify: Some(verify_wait),
    format: Format::Declarative(
        "$barriers `[` $index `:` type($index) `]` `,` `phase` `(` $phase `)` \
         (`sem` `(` $sem^ `)`)? (`scope` `(` $scope^ `)`)? attr-dict `:` type($barriers)",
    ),
    traits: &[Trait::Async],
    ..OpDef::DEFAULT
};
const _: () = WAIT.check();

tilus_ir::op_enum! {
    /// The cases of a wait memory semantics attribute.
    pub enum WaitMemorySemantics {
        Acquire = "acquire",
        Relaxed = "relaxed"
    }
}

tilus_ir::op_handle! {
    /// Typed handle of `mbarrier.wait`.
    pub struct WaitOp = WAIT;
    operands {
        barriers = "barriers": Value,
        index = "index": Value,
        phase = "phase": Value
    }
    results {}
    attrs {
        sem = "sem": Option<WaitMemorySemantics>,
        scope = "scope": Option<MemoryScope>
    }
    regions {}
    successors {}
}

/// `mbarrier.producer_initial_phase`.
pub static PRODUCER_INITIAL_PHASE: OpDef = OpDef {
    name: "mbarrier.producer_initial_phase",
    summary: "the parity a producer first waits on (1)",
    description: "`%p = mbarrier.producer_initial_phase` is the constant `1 : i32`: a producer \
        waiting for a free slot on a fresh barrier waits on parity 1, which counts as the \
        already completed previous phase and returns at once.",
    results: &[one("phase", I32)],
    traits: &[Trait::Pure, Trait::Async],
    format: Format::Declarative("attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = PRODUCER_INITIAL_PHASE.check();

tilus_ir::op_handle! {
    /// Typed handle of `mbarrier.producer_initial_phase`.
    pub struct ProducerInitialPhaseOp = PRODUCER_INITIAL_PHASE;
    operands {}
    results {
        phase = "phase": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `mbarrier.consumer_initial_phase`.
pub static CONSUMER_INITIAL_PHASE: OpDef = OpDef {
    name: "mbarrier.consumer_initial_phase",
    summary: "the parity a consumer first waits on (0)",
    description: "`%p = mbarrier.consumer_initial_phase` is the constant `0 : i32`: a consumer \
        waits on parity 0, which blocks until the barrier's first phase completes.",
    results: &[one("phase", I32)],
    traits: &[Trait::Pure, Trait::Async],
    format: Format::Declarative("attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = CONSUMER_INITIAL_PHASE.check();

tilus_ir::op_handle! {
    /// Typed handle of `mbarrier.consumer_initial_phase`.
    pub struct ConsumerInitialPhaseOp = CONSUMER_INITIAL_PHASE;
    operands {}
    results {
        phase = "phase": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `mbarrier.addr`.
pub static ADDR: OpDef = OpDef {
    name: "mbarrier.addr",
    summary: "the 32-bit shared-window address of one barrier",
    description: "`%a = mbarrier.addr %bars[%i : i32] : !mbarrier.barriers<2> -> i32` is the \
        address, in the CTA's shared window, of the 8-byte barrier `%i` of the barriers made by \
        `mbarrier.alloc` (barrier `i` sits at `8 * i` bytes after barrier 0). A constant index \
        is checked against `N`. `lower-async-to-ptx` uses it for the `[addr]` operands of the \
        `mbarrier.*` PTX instructions; shared-memory planning replaces it by the dynamic shared \
        base plus the barriers' compile-time offset.",
    operands: &[one("barriers", BARRIERS), one("index", INT_OR_INDEX)],
    results: &[one("result", I32)],
    traits: &[Trait::Pure],
    verify: Some(verify_addr),
    format: Format::Declarative(
        "$barriers `[` $index `:` type($index) `]` attr-dict `:` type($barriers) `->` type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = ADDR.check();

tilus_ir::op_handle! {
    /// Typed handle of `mbarrier.addr`.
    pub struct AddrOp = ADDR;
    operands {
        barriers = "barriers": Value,
        index = "index": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// The mbarrier dialect's ops.
pub static OPS: &[&OpDef] = &[
    &ALLOC,
    &ARRIVE,
    &ARRIVE_EXPECT_TX,
    &ARRIVE_EXPECT_TX_MULTICAST,
    &ARRIVE_EXPECT_TX_REMOTE,
    &WAIT,
    &PRODUCER_INITIAL_PHASE,
    &CONSUMER_INITIAL_PHASE,
    &ADDR,
];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `mbarrier` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum MbarrierOpKind for OPS {
        Alloc(AllocOp),
        Arrive(ArriveOp),
        ArriveExpectTx(ArriveExpectTxOp),
        ArriveExpectTxMulticast(ArriveExpectTxMulticastOp),
        ArriveExpectTxRemote(ArriveExpectTxRemoteOp),
        Wait(WaitOp),
        ProducerInitialPhase(ProducerInitialPhaseOp),
        ConsumerInitialPhase(ConsumerInitialPhaseOp),
        Addr(AddrOp),
    }
}

// ----- helpers shared with other dialects ------------------------------------------------------

/// Checks `%bars[%i]`: a constant index must be in `[0, N)`.
pub fn check_barrier_index(
    ctx: &Context,
    op: OpId,
    barriers: Value,
    index: Value,
) -> Result<(), Diagnostic> {
    let ty = ctx.value_type(barriers);
    let (Some(n), Some(i)) = (barrier_count(ctx, ty), const_int(ctx, index)) else {
        return Ok(());
    };
    if i < 0 || i >= n {
        return Err(Diagnostic::op(
            op,
            format!(
                "'{}' op expects a barrier index in [0, {n}) (the barriers of '{}'), but found {i}",
                ctx.op_name_str(op),
                type_str(ctx, ty)
            ),
        ));
    }
    Ok(())
}

/// Checks that an enum property, when present, is one of its keywords.
pub fn check_enum(
    ctx: &Context,
    op: OpId,
    name: &'static str,
    c: &AttrConstraint,
) -> Result<(), Diagnostic> {
    let Some(v) = ctx
        .get_inherent_or_attr(op, name)
        .and_then(|a| attr_i64(ctx, a))
    else {
        return Ok(());
    };
    if v < 0 || v as usize >= c.keywords.len() {
        let cases: Vec<String> = c
            .keywords
            .iter()
            .enumerate()
            .map(|(i, k)| format!("{i} ({k})"))
            .collect();
        return Err(Diagnostic::error(
            DiagLoc::OpAttr(op, name),
            format!(
                "'{}' op expects {name} to be one of {}, but found {v}",
                ctx.op_name_str(op),
                cases.join(", ")
            ),
        ));
    }
    Ok(())
}

/// Checks that a constant operand lies in `[lo, hi]`.
pub fn check_const_range(
    ctx: &Context,
    op: OpId,
    v: Value,
    what: &str,
    lo: i64,
    hi: i64,
) -> Result<(), Diagnostic> {
    match const_int(ctx, v) {
        Some(x) if x < lo || x > hi => Err(Diagnostic::op(
            op,
            format!(
                "'{}' op expects {what} in [{lo}, {hi}], but found {x}",
                ctx.op_name_str(op)
            ),
        )),
        _ => Ok(()),
    }
}

/// CTAs in the cluster of the kernel enclosing `op` (1 without `cluster`); `None` outside a
/// kernel.
pub fn cluster_ctas(ctx: &Context, op: OpId) -> Option<i64> {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if crate::tilus::KernelOp::is(ctx, p) {
            let dims = ctx
                .get_prop(p, "cluster")
                .and_then(|a| attr_i64s(ctx, a))
                .unwrap_or_default();
            return Some(dims.iter().fold(1i64, |a, &d| a.saturating_mul(d)));
        }
        cur = ctx.parent_op(p);
    }
    None
}

/// A constant multicast mask (`mask`) or remote rank names CTAs of the enclosing kernel's
/// cluster only: a CTA rank past the cluster does not exist, and the hardware's behaviour on
/// one is undefined.
pub fn check_in_cluster(ctx: &Context, op: OpId, v: Value, mask: bool) -> Result<(), Diagnostic> {
    let (Some(x), Some(n)) = (const_int(ctx, v), cluster_ctas(ctx, op)) else {
        return Ok(());
    };
    let bad = if mask {
        n < 63 && (x >> n) != 0
    } else {
        x >= n
    };
    if !bad {
        return Ok(());
    }
    let what = if mask {
        format!("a multicast mask of CTA ranks below {n}, but found {x:#x}")
    } else {
        format!("a CTA rank below {n}, but found {x}")
    };
    Err(Diagnostic::op(
        op,
        format!(
            "'{}' op expects {what} (the kernel's cluster has {n} CTA{})",
            ctx.op_name_str(op),
            if n == 1 { "" } else { "s" }
        ),
    )
    .with_help("CTA ranks in a cluster are 0 to (cluster size - 1); give the kernel a larger `cluster(...)` or name CTAs inside it"))
}

// ----- verifiers --------------------------------------------------------------------------------

fn verify_alloc(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ty = ctx.value_type(ctx.results(op)[0]);
    let Some(n) = barrier_count(ctx, ty) else {
        return Ok(());
    };
    let Some(counts) = ctx
        .get_inherent_or_attr(op, "counts")
        .and_then(|a| attr_i64s(ctx, a))
    else {
        return Ok(());
    };
    if counts.len() as i64 != n {
        return Err(Diagnostic::error(
            DiagLoc::OpAttr(op, "counts"),
            format!(
                "'mbarrier.alloc' op expects {n} counts (one per barrier of '{}'), but found {}",
                type_str(ctx, ty),
                counts.len()
            ),
        ));
    }
    if let Some((i, c)) = counts
        .iter()
        .enumerate()
        .find(|(_, c)| **c < 1 || **c > MAX_COUNT)
    {
        return Err(Diagnostic::error(
            DiagLoc::OpAttr(op, "counts"),
            format!(
                "'mbarrier.alloc' op expects every count in [1, {MAX_COUNT}], but found {c} for barrier {i}"
            ),
        ));
    }
    Ok(())
}

fn verify_arrive(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let def = ctx.op_def(op).expect("registered");
    let ops = ctx.operands(op);
    check_barrier_index(ctx, op, ops[0], ops[1])?;
    check_enum(ctx, op, "sem", &ARRIVE_SEM)?;
    check_enum(ctx, op, "scope", &SCOPE)?;
    match def.name {
        "mbarrier.arrive" => {
            if let Some(&c) = ops.get(2) {
                check_const_range(ctx, op, c, "an arrival count", 1, MAX_COUNT)?;
            }
        }
        _ => {
            check_const_range(ctx, op, ops[2], "a transaction byte count", 0, MAX_COUNT)?;
        }
    }
    match def.name {
        "mbarrier.arrive_expect_tx_multicast" => {
            check_const_range(ctx, op, ops[3], "a multicast CTA mask (16 bits)", 1, 0xffff)?;
            check_in_cluster(ctx, op, ops[3], true)?;
            require_group(ctx, op, Need::AtLeast(16))?;
        }
        "mbarrier.arrive_expect_tx_remote" => {
            check_const_range(ctx, op, ops[3], "a CTA rank", 0, 15)?;
            check_in_cluster(ctx, op, ops[3], false)?;
        }
        _ => {}
    }
    Ok(())
}

fn verify_addr(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    check_barrier_index(ctx, op, ops[0], ops[1])
}

fn verify_wait(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    check_barrier_index(ctx, op, ops[0], ops[1])?;
    check_enum(ctx, op, "sem", &WAIT_SEM)?;
    check_enum(ctx, op, "scope", &SCOPE)?;
    check_const_range(ctx, op, ops[2], "a phase parity", 0, 1)
}

// ----- custom form of mbarrier.alloc ---------------------------------------------------------
