//! `threadgroup`: partitions of a thread block, and synchronization scoped to them.
//!
//! A kernel body runs in the root group of all `32 * warps` threads. `threadgroup.group
//! threads(b, n)` runs its region on the `n` consecutive threads whose index relative to the
//! enclosing group is in `[b, b + n)`; groups nest, and inside a group threads see indices
//! relative to it. The verifier checks `b >= 0` and `b + n <= parent size` only: `n` need not
//! divide the parent size (warp-specialized matmuls put 128-thread consumer groups and a 32-thread
//! producer warp inside a 160- or 288-thread block). Ops that need a particular group shape (TMA,
//! WGMMA, tcgen05, named barriers, ...) call [`require_group`] with what they need, so the rule
//! lives with the op and the message names the group the op actually sits in.

use crate::tilus_types::prop_i64;
use tilus_ir::diag::DiagLoc;
use tilus_ir::opdef::{
    attr, block_region, enum_attr, opt_attr, AttrConstraint, Format, OpDef, Trait, I64_ATTR,
};
use tilus_ir::{Context, Diagnostic, OpId};

const GROUP_TRAITS: &[Trait] = &[
    Trait::SingleBlock,
    Trait::NoTerminator,
    Trait::RecursiveMemoryEffects,
];

/// `threadgroup.group`.
pub static GROUP: OpDef = OpDef {
    name: "threadgroup.group",
    summary: "run a region on a contiguous range of the enclosing group's threads",
    description:
        "`threadgroup.group threads(b, n) { ... }` runs its body on the `n` threads whose \
        index relative to the enclosing group is in `[b, b + n)`; inside, thread indices are \
        relative to the new group and `threadgroup.sync` synchronizes only it. Requires `b >= 0`, \
        `n >= 1` and `b + n <= ` the enclosing group's size. `n` does not have to divide the \
        parent's size (Tilus's thread-group guide says it must, its code and its \
        warp-specialized kernels do not).",
    attributes: &[attr("begin", I64_ATTR), attr("num", I64_ATTR)],
    regions: &[block_region("body")],
    traits: GROUP_TRAITS,
    verify: Some(verify_group_op),
    format: Format::Declarative("`threads` `(` $begin `,` $num `)` attr-dict-with-keyword $body"),
    ..OpDef::DEFAULT
};
const _: () = GROUP.check();

tilus_ir::op_handle! {
    /// Typed handle of `threadgroup.group`.
    pub struct GroupOp = GROUP;
    operands {}
    results {}
    attrs {
        begin = "begin": i64,
        num = "num": i64
    }
    regions {
        body = "body"
    }
    successors {}
}

/// `threadgroup.single_thread`.
pub static SINGLE_THREAD: OpDef = OpDef {
    name: "threadgroup.single_thread",
    summary: "run a region on one thread of the enclosing group",
    description: "Without `thread(i)` the hardware elects any one thread (`elect.sync`, a \
        warp-uniform predicate); with it, thread `i` of the enclosing group runs the body. Used \
        for barrier arrivals and other work that must happen exactly once.",
    attributes: &[opt_attr("thread", I64_ATTR)],
    regions: &[block_region("body")],
    traits: GROUP_TRAITS,
    verify: Some(verify_group_op),
    format: Format::Declarative("(`thread` `(` $thread^ `)`)? attr-dict-with-keyword $body"),
    ..OpDef::DEFAULT
};
const _: () = SINGLE_THREAD.check();

tilus_ir::op_handle! {
    /// Typed handle of `threadgroup.single_thread`.
    pub struct SingleThreadOp = SINGLE_THREAD;
    operands {}
    results {}
    attrs {
        thread = "thread": Option<i64>
    }
    regions {
        body = "body"
    }
    successors {}
}

/// `threadgroup.single_warp`.
pub static SINGLE_WARP: OpDef = OpDef {
    name: "threadgroup.single_warp",
    summary: "run a region on one warp of the enclosing group",
    description: "`threadgroup.single_warp warp(w) { ... }` is `threadgroup.group threads(32 * w, \
        32)`; `w` defaults to 0.",
    attributes: &[opt_attr("warp", I64_ATTR)],
    regions: &[block_region("body")],
    traits: GROUP_TRAITS,
    verify: Some(verify_group_op),
    format: Format::Declarative("(`warp` `(` $warp^ `)`)? attr-dict-with-keyword $body"),
    ..OpDef::DEFAULT
};
const _: () = SINGLE_WARP.check();

tilus_ir::op_handle! {
    /// Typed handle of `threadgroup.single_warp`.
    pub struct SingleWarpOp = SINGLE_WARP;
    operands {}
    results {}
    attrs {
        warp = "warp": Option<i64>
    }
    regions {
        body = "body"
    }
    successors {}
}

/// `threadgroup.warp_group`.
pub static WARP_GROUP: OpDef = OpDef {
    name: "threadgroup.warp_group",
    summary: "run a region on consecutive warps of the enclosing group",
    description: "`threadgroup.warp_group warps(b, n) { ... }` is `threadgroup.group threads(32 * \
        b, 32 * n)`; with `n = 4` at a multiple of 4 warps it is the 128-thread warpgroup WGMMA \
        needs.",
    attributes: &[attr("warp_begin", I64_ATTR), attr("num_warps", I64_ATTR)],
    regions: &[block_region("body")],
    traits: GROUP_TRAITS,
    verify: Some(verify_group_op),
    format: Format::Declarative(
        "`warps` `(` $warp_begin `,` $num_warps `)` attr-dict-with-keyword $body",
    ),
    ..OpDef::DEFAULT
};
const _: () = WARP_GROUP.check();

tilus_ir::op_handle! {
    /// Typed handle of `threadgroup.warp_group`.
    pub struct WarpGroupOp = WARP_GROUP;
    operands {}
    results {}
    attrs {
        warp_begin = "warp_begin": i64,
        num_warps = "num_warps": i64
    }
    regions {
        body = "body"
    }
    successors {}
}

/// `threadgroup.sync`.
pub static SYNC: OpDef = OpDef {
    name: "threadgroup.sync",
    summary: "barrier over the threads of the enclosing group only",
    description: "Waits until every thread of the enclosing group arrives, and orders their \
        shared-memory accesses. Lowers to `bar.sync 0` for the whole block, `bar.warp.sync` for \
        threads within one warp, a named barrier `bar.sync id, n` for a warp-aligned multiple of \
        32 threads, and nothing for one thread. Other groups (not warp-aligned, or spanning a \
        partial warp) are rejected: a named barrier counts whole warps. (Tilus falls back to an \
        mbarrier there; we ask for that to be written explicitly with `mbarrier` ops, so that a \
        `sync` is always one hardware barrier.)",
    verify: Some(verify_sync),
    format: Format::Declarative("attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = SYNC.check();

tilus_ir::op_handle! {
    /// Typed handle of `threadgroup.sync`.
    pub struct SyncOp = SYNC;
    operands {}
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `action` of `threadgroup.setmaxnreg`: release registers to the block's pool or claim them.
pub const SETMAXNREG_ACTION: AttrConstraint = enum_attr("register action", &["inc", "dec"]);

/// The smallest per-thread register count `setmaxnreg` accepts (PTX ISA).
pub const MIN_REGS: i64 = 24;
/// The largest per-thread register count `setmaxnreg` accepts (PTX ISA).
pub const MAX_REGS: i64 = 256;
/// 32-bit registers in one SM's register file, the pool a block's warps share.
pub const REGISTER_FILE: i64 = 65536;

/// `threadgroup.setmaxnreg`.
pub static SETMAXNREG: OpDef = OpDef {
    name: "threadgroup.setmaxnreg",
    summary: "set the per-thread register budget of the executing warpgroups",
    description: "`threadgroup.setmaxnreg dec 40` / `threadgroup.setmaxnreg inc 232` sets the \
        per-thread register count of every warp of the executing group to `count`: `dec` \
        releases the registers above it to the block's pool, `inc` claims registers from the \
        pool and waits until enough are free. Warp-specialized kernels use it to move registers \
        from a producer that only issues copies to the consumers that hold accumulators. \
        `count` is a multiple of 8 in [24, 256]. The PTX instruction is `.sync.aligned` and must \
        be executed by all warps of a warpgroup, so the group must be whole warpgroups (a \
        multiple of 128 threads starting at a multiple of 128 of the block). `dec` must not \
        raise and `inc` must not lower a warp's count, which the interpreter checks; there `inc` \
        waits until the pool (65536 registers less what every warp holds; a launch gives each \
        thread `65536 / threads` rounded down to a multiple of 8, at most 248) has enough, so a \
        split that overcommits the register file deadlocks as it does on the GPU. PTX: \
        `setmaxnreg.{inc,dec}.sync.aligned.u32 count` (sm_90a); the kernel's entry gets \
        `.maxnreg` with the launch count above, since ptxas ignores the instruction unless it \
        knows the register count at entry.",
    attributes: &[attr("action", SETMAXNREG_ACTION), attr("count", I64_ATTR)],
    traits: &[Trait::Collective],
    verify: Some(verify_setmaxnreg),
    format: Format::Declarative("$action $count attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = SETMAXNREG.check();

tilus_ir::op_enum! {
    /// The cases of a register action attribute.
    pub enum RegisterAction {
        Inc = "inc",
        Dec = "dec"
    }
}

tilus_ir::op_handle! {
    /// Typed handle of `threadgroup.setmaxnreg`.
    pub struct SetMaxNRegOp = SETMAXNREG;
    operands {}
    results {}
    attrs {
        action = "action": RegisterAction,
        count = "count": i64
    }
    regions {}
    successors {}
}

fn verify_setmaxnreg(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let n = prop_i64(ctx, op, "count").unwrap_or(0);
    if !(MIN_REGS..=MAX_REGS).contains(&n) || n % 8 != 0 {
        return Err(at(
            op,
            "count",
            format!(
                "'threadgroup.setmaxnreg' op expects a register count that is a multiple of 8 in \
                 [{MIN_REGS}, {MAX_REGS}], but found {n}"
            ),
        ));
    }
    require_group(ctx, op, Need::Warpgroups)
}

/// The most registers a thread of a block of `threads` threads may have and still launch: the
/// register file is split between the SM's four sub-partitions, whose warps share their
/// quarter, so it is a quarter of the file over the warps of the fullest sub-partition
/// (`ceil(warps / 4)`), rounded down to the allocation unit of 8, and at most PTX's 255. For 9
/// warps that is 168, not 65536 / 288: a launch asking for more fails with "too many
/// resources requested".
pub fn block_register_limit(threads: i64) -> i64 {
    let warps = (threads.max(1) + 31) / 32;
    let per_partition = (warps + 3) / 4;
    let n = (REGISTER_FILE / 4 / (32 * per_partition)) / 8 * 8;
    n.min(255)
}

/// The per-thread register count a block of `threads` threads starts with when its kernel
/// adjusts registers with `setmaxnreg`: [`block_register_limit`], at most 248 (setmaxnreg's
/// counts are multiples of 8).
pub fn launch_registers(threads: i64) -> i64 {
    block_register_limit(threads).min(248)
}

/// The threadgroup dialect's ops.
pub static OPS: &[&OpDef] = &[
    &GROUP,
    &SINGLE_THREAD,
    &SINGLE_WARP,
    &WARP_GROUP,
    &SYNC,
    &SETMAXNREG,
];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `threadgroup` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum ThreadgroupOpKind for OPS {
        Group(GroupOp),
        SingleThread(SingleThreadOp),
        SingleWarp(SingleWarpOp),
        WarpGroup(WarpGroupOp),
        Sync(SyncOp),
        SetMaxNReg(SetMaxNRegOp),
    }
}

/// The thread group an op executes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The group op (`None` for the kernel's root group).
    pub op: Option<OpId>,
    /// First thread, as an index into the whole block; `None` when an elect-any
    /// `single_thread` on the way makes it unknown at compile time.
    pub abs_begin: Option<i64>,
    /// Number of threads.
    pub size: i64,
    /// Threads in the block (`32 * warps` of the kernel).
    pub block_size: i64,
}

impl Group {
    /// The whole block.
    pub fn is_root(&self) -> bool {
        self.op.is_none()
    }

    /// Starts at a warp boundary (known at compile time).
    pub fn warp_aligned(&self) -> bool {
        self.abs_begin.is_some_and(|b| b % 32 == 0)
    }

    /// "threads [32, 64) (32 threads)", for messages.
    pub fn describe(&self) -> String {
        let what = if self.is_root() {
            "the whole block: "
        } else {
            ""
        };
        match self.abs_begin {
            Some(b) => format!(
                "{what}threads [{b}, {}) ({} thread{})",
                b + self.size,
                self.size,
                if self.size == 1 { "" } else { "s" }
            ),
            None => format!(
                "{} elected thread{} at an offset unknown at compile time",
                self.size,
                if self.size == 1 { "" } else { "s" }
            ),
        }
    }
}

/// The `(begin, num)` a group op selects relative to its parent; `begin = None` for elect-any.
pub fn group_range(ctx: &Context, op: OpId) -> Option<(Option<i64>, i64)> {
    match ctx.op_name_str(op) {
        "threadgroup.group" => Some((Some(prop_i64(ctx, op, "begin")?), prop_i64(ctx, op, "num")?)),
        "threadgroup.single_thread" => Some((prop_i64(ctx, op, "thread"), 1)),
        // Saturating: the verifier rejects warp indices this large; until it has, nothing here
        // may wrap into a plausible group.
        "threadgroup.single_warp" => Some((
            Some(prop_i64(ctx, op, "warp").unwrap_or(0).saturating_mul(32)),
            32,
        )),
        "threadgroup.warp_group" => Some((
            Some(prop_i64(ctx, op, "warp_begin")?.saturating_mul(32)),
            prop_i64(ctx, op, "num_warps")?.saturating_mul(32),
        )),
        _ => None,
    }
}

/// Threads in the block of the kernel enclosing `op` (`32 * warps` of `tilus.kernel`).
pub fn block_threads(ctx: &Context, op: OpId) -> Option<i64> {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if ctx.op_name_str(p) == "tilus.kernel" {
            return prop_i64(ctx, p, "warps").map(|w| w.saturating_mul(32));
        }
        cur = ctx.parent_op(p);
    }
    None
}

/// The group `op` executes in (its nearest enclosing group op, or the kernel's root group);
/// `None` outside a `tilus.kernel`, where group shapes are not known.
pub fn group_of(ctx: &Context, op: OpId) -> Option<Group> {
    let block = block_threads(ctx, op)?;
    let mut chain = Vec::new();
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if ctx.op_name_str(p) == "tilus.kernel" {
            break;
        }
        if group_range(ctx, p).is_some() {
            chain.push(p);
        }
        cur = ctx.parent_op(p);
    }
    let mut g = Group {
        op: None,
        abs_begin: Some(0),
        size: block,
        block_size: block,
    };
    for p in chain.into_iter().rev() {
        let (b, n) = group_range(ctx, p)?;
        g = Group {
            op: Some(p),
            abs_begin: match (g.abs_begin, b) {
                (Some(a), Some(b)) => Some(a.saturating_add(b)),
                // Elect-any inside one warp-aligned warp still lands in that warp, but the lane
                // is unknown; callers only need the size then.
                _ => None,
            },
            size: n,
            block_size: block,
        };
    }
    Some(g)
}

fn verify_group_op(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let name = ctx.op_name_str(op).to_string();
    if group_range(ctx, op).is_none() {
        return Ok(());
    }
    // Every bound in i128 from the attributes as written: `begin + num` or `32 * warp` of
    // values near 2^63 must not wrap around into a range that passes.
    let raw = |attr: &str| prop_i64(ctx, op, attr).map(i128::from);
    let parent = group_of(ctx, op);
    let psize = parent.map(|p| i128::from(p.size));
    let pdesc = parent
        .map(|p| p.describe())
        .unwrap_or_else(|| "unknown".into());
    match name.as_str() {
        "threadgroup.group" => {
            let (b, num) = (raw("begin").unwrap_or(0), raw("num").unwrap_or(0));
            if b < 0 {
                return Err(at(
                    op,
                    "begin",
                    format!("'{name}' op expects begin >= 0, but found {b}"),
                ));
            }
            if num < 1 {
                return Err(at(
                    op,
                    "num",
                    format!("'{name}' op expects at least one thread, but found num = {num}"),
                ));
            }
            if let Some(ps) = psize {
                if b + num > ps {
                    return Err(at(op, "num", format!(
                        "'{name}' op expects begin + num <= {ps} (the size of the enclosing group, {pdesc}), but found {b} + {num} = {}",
                        b + num
                    )));
                }
            }
        }
        "threadgroup.single_thread" => {
            if let (Some(t), Some(ps)) = (raw("thread"), psize) {
                if t < 0 || t >= ps {
                    return Err(at(op, "thread", format!(
                        "'{name}' op expects a thread in [0, {ps}) (the enclosing group, {pdesc}), but found {t}"
                    )));
                }
            }
        }
        "threadgroup.single_warp" => {
            let w = raw("warp").unwrap_or(0);
            if w < 0 {
                return Err(at(
                    op,
                    "warp",
                    format!("'{name}' op expects warp >= 0, but found {w}"),
                ));
            }
            if let Some(ps) = psize {
                if 32 * w + 32 > ps {
                    return Err(at(op, "warp", format!(
                        "'{name}' op expects warp {w} (threads [{}, {})) inside the enclosing group of {ps} threads ({pdesc})",
                        32 * w,
                        32 * w + 32
                    )));
                }
            }
        }
        "threadgroup.warp_group" => {
            let (b, n) = (
                raw("warp_begin").unwrap_or(0),
                raw("num_warps").unwrap_or(0),
            );
            if b < 0 || n < 1 {
                return Err(at(
                    op,
                    "num_warps",
                    format!(
                    "'{name}' op expects warp_begin >= 0 and num_warps >= 1, but found {b} and {n}"
                ),
                ));
            }
            if let Some(ps) = psize {
                if 32 * (b + n) > ps {
                    return Err(at(op, "num_warps", format!(
                        "'{name}' op expects 32 * (warp_begin + num_warps) <= {ps} (the size of the enclosing group, {pdesc}), but found 32 * ({b} + {n}) = {}",
                        32 * (b + n)
                    )));
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn at(op: OpId, attr: &'static str, msg: String) -> Diagnostic {
    Diagnostic::error(DiagLoc::OpAttr(op, attr), msg)
}

fn verify_sync(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let Some(g) = group_of(ctx, op) else {
        return Ok(());
    };
    if g.size == 1 || g.is_root() {
        return Ok(());
    }
    let ok = match g.abs_begin {
        Some(b) => {
            (b % 32 == 0 && g.size % 32 == 0) || (g.size < 32 && b / 32 == (b + g.size - 1) / 32)
        }
        None => g.size <= 32,
    };
    if ok {
        return Ok(());
    }
    Err(Diagnostic::op(
        op,
        format!(
            "'threadgroup.sync' op needs a group a barrier can count (a multiple of 32 threads starting at a warp boundary, or threads within one warp), but the enclosing group is {}",
            g.describe()
        ),
    ))
}

/// What an op needs of the group issuing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Exactly one thread.
    OneThread,
    /// One warp starting at a multiple of 32 threads.
    AlignedWarp,
    /// One thread, or one warp starting at a multiple of 32 (TMA issue).
    OneThreadOrAlignedWarp,
    /// 128 threads starting at a multiple of 128 (a WGMMA warpgroup).
    Warpgroup,
    /// At least this many threads.
    AtLeast(i64),
    /// A multiple of 32 threads starting at a warp boundary (whole warps).
    WholeWarps,
    /// A multiple of 128 threads starting at a multiple of 128 (whole warpgroups).
    Warpgroups,
}

impl Need {
    fn words(self) -> String {
        match self {
            Need::OneThread => "exactly one thread".into(),
            Need::AlignedWarp => "one warp (32 threads starting at a multiple of 32)".into(),
            Need::OneThreadOrAlignedWarp => {
                "one thread, or one warp (32 threads starting at a multiple of 32)".into()
            }
            Need::Warpgroup => {
                "a full warpgroup (128 threads starting at a multiple of 128)".into()
            }
            Need::AtLeast(n) => format!("at least {n} threads"),
            Need::WholeWarps => {
                "whole warps (a multiple of 32 threads starting at a multiple of 32)".into()
            }
            Need::Warpgroups => {
                "whole warpgroups (a multiple of 128 threads starting at a multiple of 128)".into()
            }
        }
    }

    /// Whether a group satisfies it.
    pub fn satisfied_by(self, g: &Group) -> bool {
        match self {
            Need::OneThread => g.size == 1,
            Need::AlignedWarp => g.size == 32 && g.warp_aligned(),
            Need::OneThreadOrAlignedWarp => g.size == 1 || (g.size == 32 && g.warp_aligned()),
            Need::Warpgroup => g.size == 128 && g.abs_begin.is_some_and(|b| b % 128 == 0),
            Need::AtLeast(n) => g.size >= n,
            Need::WholeWarps => g.size % 32 == 0 && g.warp_aligned(),
            Need::Warpgroups => g.size % 128 == 0 && g.abs_begin.is_some_and(|b| b % 128 == 0),
        }
    }
}

/// Checks that `op` sits in a group that satisfies `need`; a no-op outside a `tilus.kernel`.
/// The message names the requirement and the group found.
pub fn require_group(ctx: &Context, op: OpId, need: Need) -> Result<(), Diagnostic> {
    let Some(g) = group_of(ctx, op) else {
        return Ok(());
    };
    if need.satisfied_by(&g) {
        return Ok(());
    }
    let mut d = Diagnostic::op(
        op,
        format!(
            "'{}' op must be issued by {}, but its group is {}",
            ctx.op_name_str(op),
            need.words(),
            g.describe()
        ),
    );
    if let Some(gop) = g.op {
        d = d.with_note(DiagLoc::Op(gop), "the enclosing group is opened here");
    }
    Err(d)
}
