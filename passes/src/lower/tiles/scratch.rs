//! The shared scratch: where each user (a `layout.convert` through shared memory, a cross-warp
//! reduction, a dot's staging) puts its data, and the barriers that order users that share
//! bytes.
//!
//! Users that the barriers order share one region, from its offset 0: each user syncs its
//! group between its stores and its loads and (but for a reduction followed by another) after
//! its loads, and [`Lowering::fence_scratch`] adds a barrier where the group changes on some
//! path from the previous user: after a loop that may run no trip, after either branch of an
//! `scf.if`, and across a loop's back edge ([`ScratchPaths`], [`Lowering::fence_back_edge`]).
//! Groups that run side by side are not ordered by any of those barriers (a barrier of one group does
//! not wait for the other, and none can be added between them: a warp-specialized producer and
//! its consumers wait on each other through mbarriers, so a block-wide barrier between their
//! regions would deadlock). So each group op gets a region of its own beside those of the
//! other group ops of its parent ([`ScratchRegions`]).

use super::*;
use tilus_dialects::scf_parallel::{ForallOp, IndexSwitchOp, ParallelOp};

/// The region of one group (the root group, or a group op) being lowered.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// Where the region starts, in bytes past the scratch's start (a multiple of 128).
    base: i64,
    /// The most bytes a user directly in the group needs from `base`.
    own: i64,
    /// The end (from `base`) of the regions of the child group ops of the current phase; the
    /// next child's region starts after it, rounded up to 128 bytes.
    end: i64,
    /// The largest `end` of the phases already over (root only, see
    /// [`ScratchRegions::barrier`]).
    phases: i64,
}

impl Frame {
    /// The bytes the region needs: its users' and its children's.
    fn need(&self) -> i64 {
        self.own.max(self.end).max(self.phases)
    }
}

/// Regions of the scratch for the groups of one kernel, assigned while the kernel is lowered
/// in program order.
///
/// The child group ops of a group (the outermost group ops in its body, also inside `scf`
/// ops) may run side by side: different threads run them, or the same threads run them while
/// other threads still run a group nested in an earlier one. So each child gets its own region,
/// after those of its earlier siblings, and a group's region is as large as its own users need
/// or its children's regions laid end to end need, whichever is more. Its own users are ordered
/// with its children's (a group's barrier waits for every thread in it), so they start at the
/// same offset. At the root, a barrier of the whole block ends a *phase*: every group before it
/// has finished and none after it has started, so the next phase's children start from offset 0
/// again. Inside a group op no such phases are taken: the group may run again (a loop around
/// it), and then the children at the end of one run and those at the start of the next are not
/// separated by the group's barriers. A kernel with at most one child group that uses the
/// scratch in each phase (of each group) has one region from offset 0, as if there were no
/// groups.
#[derive(Debug)]
pub(super) struct ScratchRegions {
    /// The groups being lowered, the root first.
    frames: Vec<Frame>,
    /// How many times [`ScratchRegions::claim`] was called.
    claims: u64,
}

impl Default for ScratchRegions {
    fn default() -> Self {
        ScratchRegions {
            frames: vec![Frame::default()],
            claims: 0,
        }
    }
}

/// `x` rounded up to a multiple of 128 (the scratch's alignment, which keeps the bank
/// patterns the users compute for their addresses).
fn align128(x: i64) -> i64 {
    x.saturating_add(127) / 128 * 128
}

impl ScratchRegions {
    fn top(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        let n = self.frames.len();
        &mut self.frames[n - 1]
    }

    /// A group op starts: its region follows its earlier siblings'.
    pub(super) fn enter(&mut self) {
        let p = *self.top();
        let base = p.base.saturating_add(align128(p.end));
        self.frames.push(Frame {
            base,
            ..Frame::default()
        });
    }

    /// The group op entered last ends: its parent's current phase grows by its region.
    pub(super) fn leave(&mut self) {
        if self.frames.len() < 2 {
            return;
        }
        let f = self.frames.pop().unwrap_or_default();
        let p = self.top();
        if f.need() > 0 {
            p.end = (f.base - p.base).saturating_add(f.need());
        }
    }

    /// A user directly in the current group needs bytes `[0, end)` of the group's region;
    /// returns where the region starts (bytes past the scratch's start).
    pub(super) fn claim(&mut self, end: i64) -> i64 {
        self.claims += 1;
        let f = self.top();
        f.own = f.own.max(end);
        f.base
    }

    /// A barrier of the whole block (an op directly in the kernel's body): the root's current
    /// phase is over. Ignored inside a group op.
    pub(super) fn barrier(&mut self) {
        if self.frames.len() == 1 {
            let f = self.top();
            f.phases = f.phases.max(f.end);
            f.end = 0;
        }
    }

    /// How many users have claimed a region so far.
    pub(super) fn claims(&self) -> u64 {
        self.claims
    }

    /// The bytes the scratch needs: the root's region.
    pub(super) fn total(&self) -> i64 {
        self.frames.first().map_or(0, Frame::need)
    }
}

impl Lowering {
    /// A user directly in `o`'s group needs bytes `[0, end)` of the group's region: returns
    /// the region's offset in the dynamic shared memory.
    pub(super) fn claim_scratch(&mut self, end: i64) -> i64 {
        let base = self.scratch.claim(end);
        self.scratch_off.saturating_add(base)
    }

    /// Records `o` as the last scratch user on every path; whether its group differs from
    /// the previous user's on some path ([`ScratchPaths::user`]).
    fn scratch_group_moved(&mut self, ctx: &Context, o: OpId) -> bool {
        let group = group_pos(ctx, o).and_then(|g| g.op);
        self.paths.user(group)
    }

    /// `b` starts to be lowered: when it is the first block of a region of a loop or a branch,
    /// the paths into it ([`ScratchPaths::region_start`]).
    pub(super) fn scratch_paths_start(&mut self, ctx: &Context, b: BlockId) {
        if let Some(at) = RegionAt::of(ctx, b) {
            self.paths.region_start(&at);
        }
    }

    /// `b` is lowered: when it is the last block of a region of a loop or a branch, the paths
    /// out of it; at the end of a loop's body, the fence across the back edge
    /// ([`Lowering::fence_back_edge`]).
    pub(super) fn scratch_paths_end(&mut self, ctx: &mut Context, b: BlockId) {
        let Some(at) = RegionAt::of(ctx, b) else {
            return;
        };
        if self.paths.region_end(&at) {
            self.fence_back_edge(ctx, b);
        }
    }

    /// The end of a loop's body (`body`, the block whose terminator goes back to the loop's
    /// start), when [`ScratchPaths::region_end`] finds that a user reached from the body's
    /// start may follow, on the next trip, a last user of another group. The fence before a
    /// user compares it with the users that may precede it when the body starts from the
    /// loop's entry, which are the users before the loop on the first trip only; on the next
    /// trips they are the body's last. In
    /// `scf.for { convert (block); single_warp { convert } }` the block's conversion of trip 2
    /// would store while warp 0 may still read its own tile of trip 1 (the warp's group-end
    /// barrier holds that warp only). The barrier is the
    /// loop's group's (every thread of it runs the body): it waits for the threads still in a
    /// group nested in the body, as the fence's barrier would. It sits at the end of the body,
    /// not before its first user, so that the first trip, which the fence already orders, does
    /// not pay for it. A reduction's unfenced reads at the end of a body are fenced by
    /// [`Lowering::block`] itself, with a barrier of the loop's group right before the
    /// terminator: a body that already ends so gets no second one.
    fn fence_back_edge(&mut self, ctx: &mut Context, body: BlockId) {
        let Some(term) = ctx.block_last(body) else {
            return;
        };
        if ctx.prev_op(term).is_some_and(|p| SyncOp::is(ctx, p)) {
            return;
        }
        SyncOp::build(&mut before(ctx, term));
    }

    /// Before a scratch user that writes from its region's offset 0 (a conversion, a dot's
    /// staging): a barrier if a reduction's reads are still unfenced, or if the previous user
    /// of some path to it ran in another group ([`ScratchPaths`]). Each user ends with a barrier of its own group, which orders
    /// nothing for threads outside it: after a `single_warp` dot, the other warps of the block
    /// reach the block's next dot while that warp may still read the scratch. A barrier of the
    /// new user's group (every thread of it reaches the op) makes its threads wait for the ones
    /// still inside a nested group. Groups that run side by side (two warpgroups converting at
    /// once) are not ordered by this barrier, which waits for one of them only: they use
    /// disjoint regions instead ([`ScratchRegions`]).
    pub(super) fn fence_scratch(&mut self, ctx: &mut Context, o: OpId) {
        let moved = self.scratch_group_moved(ctx, o);
        if self.unfenced.take().is_some() || moved {
            SyncOp::build(&mut before(ctx, o));
        }
    }

    /// [`Lowering::fence_scratch`] for a cross-warp reduction, with the barrier built at `b`
    /// (after the reduction's shuffles): the offset past the region's start at which the
    /// reduction writes. After a reduction of the same group whose reads no barrier followed,
    /// that is past its region, with no barrier; after a user of another group, a barrier and
    /// offset 0.
    pub(super) fn fence_scratch_reduce(&mut self, b: &mut OpBuilder<'_>, o: OpId) -> i64 {
        if self.scratch_group_moved(b.ctx(), o) {
            self.unfenced = None;
            SyncOp::build(b);
            return 0;
        }
        self.unfenced.take().unwrap_or(0)
    }
}

/// How an op runs its regions, as far as the paths between scratch users are concerned. Ops
/// not named here (a group op, `scf.execute_region`, the kernel) run each of their regions
/// once, in order, so program order is their only path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RegionKind {
    /// One region runs, once (`scf.if`, `scf.index_switch`): each starts from the paths into
    /// the op, and the paths out of it are all of theirs. A region without blocks (an `scf.if`
    /// without `else`) is a path that runs nothing.
    Branch,
    /// The regions run in order, zero or more times, the end of the last going back to the
    /// start of the first (`scf.for`, `scf.parallel`, `scf.forall`: their body, which may not
    /// run at all; `scf.while`: the condition, which runs at least once and whose end leaves
    /// the loop, then the body).
    Loop,
}

/// Where a block lies among the regions of its parent op, when the op is a loop or a branch.
struct RegionAt {
    op: OpId,
    kind: RegionKind,
    /// The block is the first of its region.
    first: bool,
    /// The block is the last of its region.
    last: bool,
    /// No region after the block's has blocks: the op's paths end with this region.
    rest_empty: bool,
    /// Some region of the op has no blocks.
    some_empty: bool,
}

impl RegionAt {
    fn of(ctx: &Context, b: BlockId) -> Option<RegionAt> {
        let region = ctx.block_parent(b)?;
        let op = ctx.region_parent(region)?;
        let kind = if ForOp::is(ctx, op)
            || WhileOp::is(ctx, op)
            || ParallelOp::is(ctx, op)
            || ForallOp::is(ctx, op)
        {
            RegionKind::Loop
        } else if IfOp::is(ctx, op) || IndexSwitchOp::is(ctx, op) {
            RegionKind::Branch
        } else {
            return None;
        };
        let regions = ctx.regions(op);
        let index = regions.iter().position(|r| *r == region)?;
        let blocks = ctx.region_blocks(region);
        Some(RegionAt {
            op,
            kind,
            first: blocks.first() == Some(&b),
            last: blocks.last() == Some(&b),
            rest_empty: regions[index + 1..]
                .iter()
                .all(|r| ctx.region_blocks(*r).is_empty()),
            some_empty: regions.iter().any(|r| ctx.region_blocks(*r).is_empty()),
        })
    }
}

/// The scratch users on the paths from one point to the op being lowered.
#[derive(Clone, Debug, Default)]
struct Level {
    /// The groups (a group op; `None` for the root) of the last user of each path that has
    /// one, without repeats.
    groups: Vec<Option<OpId>>,
    /// Some path has no user.
    open: bool,
}

impl Level {
    fn merge(&mut self, other: &Level) {
        for g in &other.groups {
            if !self.groups.contains(g) {
                self.groups.push(*g);
            }
        }
        self.open |= other.open;
    }
}

/// Levels of two sets of paths to one op, merged as the paths join.
fn merge_levels(into: &mut [Level], other: &[Level]) {
    for (a, b) in into.iter_mut().zip(other) {
        a.merge(b);
    }
}

/// A loop or a branch whose regions are being lowered.
#[derive(Debug)]
struct PathFrame {
    op: OpId,
    /// The levels on the op's entry.
    entry: Vec<Level>,
    /// A branch: the levels at the ends of its regions lowered so far, merged.
    exits: Option<Vec<Level>>,
    /// An `scf.while`: the levels at the end of its condition (with the loop's own level),
    /// where the loop leaves.
    cond: Option<Vec<Level>>,
}

/// The previous scratch user of each path, for [`Lowering::fence_scratch`] and the back edges
/// of loops ([`Lowering::fence_back_edge`]).
///
/// A barrier goes before a user when the previous user *on some path* ran in another group,
/// so the fence needs the groups of the last users of every path that reaches the op being
/// lowered. Program order is one path among them: after
/// `single_warp { convert }; scf.for { convert (block) }` the path of zero trips still ends
/// with the warp's conversion, and after
/// `scf.if { single_warp { convert } } else { convert (block) }` the then-branch's path ends
/// with it though the else-branch's user comes later in the text. So loops and branches merge
/// their paths: each region of a branch starts from the paths into the branch and the paths
/// out are all of its regions', those out of a loop are the ones into it (its body may not run;
/// an `scf.while` leaves from its condition) and those out of its body. Ops that run their
/// regions once in order (group ops, `scf.execute_region`) leave program order as it is.
///
/// A loop body runs again after its end: the paths into its start on later trips are those
/// out of its end, and the fences in the body only saw the ones into the loop. For each loop
/// being lowered a level of its own follows the paths from the start of the body's trip: the
/// users such a path reaches first (*exposed*), and the last users of the paths that have
/// one. When they are all of one group, every user sees on later trips either what it saw on
/// the first or that group, which is its own when it is exposed; else the body ends with a
/// barrier.
#[derive(Debug)]
pub(super) struct ScratchPaths {
    /// Level 0 follows the paths from the kernel's start; level `k` those from the start of
    /// the current trip of the `k`-th loop being lowered, outermost first.
    levels: Vec<Level>,
    /// For each loop being lowered (the loop of level `k` at `k - 1`), the groups of its
    /// exposed users, without repeats.
    exposed: Vec<Vec<Option<OpId>>>,
    /// The loops and branches being lowered, outermost first.
    frames: Vec<PathFrame>,
}

impl Default for ScratchPaths {
    fn default() -> Self {
        ScratchPaths {
            levels: vec![Level {
                groups: Vec::new(),
                open: true,
            }],
            exposed: Vec::new(),
            frames: Vec::new(),
        }
    }
}

impl ScratchPaths {
    /// A user in `group` is lowered: whether the previous user of some path ran in another
    /// group. It is the last user of every path now, and exposed in the loops whose trip's
    /// start reaches it with no user before it.
    fn user(&mut self, group: Option<OpId>) -> bool {
        let moved = self
            .levels
            .first()
            .is_some_and(|l| l.groups.iter().any(|g| *g != group));
        for (l, e) in self.levels.iter().skip(1).zip(self.exposed.iter_mut()) {
            if l.open && !e.contains(&group) {
                e.push(group);
            }
        }
        for l in &mut self.levels {
            l.groups = vec![group];
            l.open = false;
        }
        moved
    }

    /// A block of a loop or a branch starts. The first block of an op's first lowered region
    /// enters the op (a loop gets its level, with no user yet); each region of a branch
    /// starts from the paths into the branch.
    fn region_start(&mut self, at: &RegionAt) {
        if !at.first {
            return;
        }
        if self.frames.last().map(|f| f.op) != Some(at.op) {
            self.frames.push(PathFrame {
                op: at.op,
                entry: self.levels.clone(),
                exits: None,
                cond: None,
            });
            if at.kind == RegionKind::Loop {
                self.levels.push(Level {
                    groups: Vec::new(),
                    open: true,
                });
                self.exposed.push(Vec::new());
            }
        }
        if at.kind == RegionKind::Branch {
            if let Some(f) = self.frames.last() {
                self.levels = f.entry.clone();
            }
        }
    }

    /// A block of a loop or a branch is lowered. At the end of an op's last region with
    /// blocks, the op's paths merge and it is left; at the end of a loop's body, returns
    /// whether the body must end with a barrier: some exposed user or last user of the trip
    /// ran in another group than another one.
    fn region_end(&mut self, at: &RegionAt) -> bool {
        if !at.last {
            return false;
        }
        let Some(f) = self.frames.last_mut().filter(|f| f.op == at.op) else {
            return false;
        };
        match at.kind {
            RegionKind::Branch => {
                match &mut f.exits {
                    Some(e) => merge_levels(e, &self.levels),
                    None => f.exits = Some(self.levels.clone()),
                }
                if !at.rest_empty {
                    return false;
                }
                let Some(f) = self.frames.pop() else {
                    return false;
                };
                let mut out = f.exits.unwrap_or_else(|| f.entry.clone());
                if at.some_empty {
                    merge_levels(&mut out, &f.entry);
                }
                self.levels = out;
                false
            }
            RegionKind::Loop => {
                if !at.rest_empty {
                    // An scf.while's condition: the loop leaves from here.
                    f.cond = Some(self.levels.clone());
                    return false;
                }
                let Some(f) = self.frames.pop() else {
                    return false;
                };
                let trip = self.levels.pop().unwrap_or_default();
                let exposed = self.exposed.pop().unwrap_or_default();
                let fence = exposed
                    .first()
                    .is_some_and(|g0| exposed.iter().chain(&trip.groups).any(|g| g != g0));
                self.levels = match f.cond {
                    // The condition's end leaves the loop: on the first trip with the paths it
                    // had then, on the next ones with the body's (through the condition's
                    // paths without users).
                    Some(mut c) => {
                        let through = c.pop().is_some_and(|l| l.open);
                        if through {
                            merge_levels(&mut c, &self.levels);
                        }
                        c
                    }
                    // No trip, or the end of the last.
                    None => {
                        let mut e = f.entry;
                        merge_levels(&mut e, &self.levels);
                        e
                    }
                };
                fence
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{RegionAt, RegionKind, ScratchPaths, ScratchRegions};
    use tilus_ir::{Context, OpId};

    /// Four distinct ops, to stand for group ops, loops and branches.
    fn ops() -> Vec<OpId> {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let src = "\"t.a\"() : () -> ()\n\"t.b\"() : () -> ()\n\"t.c\"() : () -> ()\n\"t.d\"() : () -> ()\n";
        let Ok(pf) = tilus_ir::parse(&mut ctx, src, "t.mlir") else {
            return Vec::new();
        };
        let body = ctx.region_blocks(ctx.regions(pf.module)[0])[0];
        ctx.block_ops(body).collect()
    }

    /// A region of `op` that is the whole region (one block) and, unless `rest_empty` is
    /// false, the op's last with blocks.
    fn at(op: OpId, kind: RegionKind, rest_empty: bool, some_empty: bool) -> RegionAt {
        RegionAt {
            op,
            kind,
            first: true,
            last: true,
            rest_empty,
            some_empty,
        }
    }

    /// After a loop the previous users are the one before it and the body's last; after a
    /// branch, each branch's last; each branch starts from the one before the branch.
    #[test]
    fn paths_join() {
        let o = ops();
        assert_eq!(o.len(), 4);
        let (warp, lp, br) = (Some(o[0]), o[1], o[2]);
        // single_warp { user }; for { user (block) }; user (block)
        let mut p = ScratchPaths::default();
        assert!(!p.user(warp));
        let body = at(lp, RegionKind::Loop, true, false);
        p.region_start(&body);
        assert!(p.user(None));
        assert!(!p.region_end(&body));
        assert!(p.user(None), "no trip: the warp's user comes before");
        // The same loop after a user of the block: nothing moves.
        let mut p = ScratchPaths::default();
        assert!(!p.user(None));
        p.region_start(&body);
        assert!(!p.user(None));
        assert!(!p.region_end(&body));
        assert!(!p.user(None));
        // if { single_warp { user } } else { user (block) }; user (block)
        let mut p = ScratchPaths::default();
        let (then, els) = (
            at(br, RegionKind::Branch, false, false),
            at(br, RegionKind::Branch, true, false),
        );
        p.region_start(&then);
        assert!(!p.user(warp));
        assert!(!p.region_end(&then));
        p.region_start(&els);
        assert!(!p.user(None), "the else-branch follows no user");
        assert!(!p.region_end(&els));
        assert!(
            p.user(None),
            "after the then-branch the warp's user comes before"
        );
        // An scf.if without else after a user of the block, its then-branch the warp's.
        let mut p = ScratchPaths::default();
        assert!(!p.user(None));
        let then = at(br, RegionKind::Branch, true, true);
        p.region_start(&then);
        assert!(p.user(warp));
        p.region_end(&then);
        assert!(p.user(None));
        // Both branches of the block: nothing moves after them.
        let mut p = ScratchPaths::default();
        let (then, els) = (
            at(br, RegionKind::Branch, false, false),
            at(br, RegionKind::Branch, true, false),
        );
        p.region_start(&then);
        assert!(!p.user(None));
        p.region_end(&then);
        p.region_start(&els);
        assert!(!p.user(None));
        p.region_end(&els);
        assert!(!p.user(None));
    }

    /// An scf.while leaves from its condition: with the paths into the loop or out of the body
    /// when the condition may have no user, with the condition's last user's alone otherwise.
    #[test]
    fn paths_while() {
        let o = ops();
        assert_eq!(o.len(), 4);
        let (warp, lp) = (Some(o[0]), o[1]);
        let cond = at(lp, RegionKind::Loop, false, false);
        let body = at(lp, RegionKind::Loop, true, false);
        let mut p = ScratchPaths::default();
        assert!(!p.user(warp));
        p.region_start(&cond);
        p.region_end(&cond);
        p.region_start(&body);
        assert!(p.user(None));
        assert!(!p.region_end(&body));
        assert!(p.user(None), "no trip of the body");
        // A user of the block in the condition: the loop leaves after it.
        let mut p = ScratchPaths::default();
        assert!(!p.user(warp));
        p.region_start(&cond);
        assert!(p.user(None));
        p.region_end(&cond);
        p.region_start(&body);
        assert!(!p.user(None));
        assert!(!p.region_end(&body));
        assert!(!p.user(None));
    }

    /// The back edge: a barrier when the users that a trip reaches first and its last users
    /// are not all of one group.
    #[test]
    fn paths_back_edge() {
        let o = ops();
        assert_eq!(o.len(), 4);
        let (warp, lp, br, warp2) = (Some(o[0]), o[1], o[2], Some(o[3]));
        let body = at(lp, RegionKind::Loop, true, false);
        // for { user (block); single_warp { user } }
        let mut p = ScratchPaths::default();
        p.region_start(&body);
        assert!(!p.user(None));
        assert!(p.user(warp));
        assert!(p.region_end(&body));
        // for { user (block); user (block) }, and a body without users.
        let mut p = ScratchPaths::default();
        p.region_start(&body);
        assert!(!p.user(None));
        assert!(!p.user(None));
        assert!(!p.region_end(&body));
        let mut p = ScratchPaths::default();
        assert!(!p.user(warp));
        p.region_start(&body);
        assert!(!p.region_end(&body));
        // for { if { single_warp { user } } else { user (block) }; single_warp { user } }:
        // the trip reaches the block's user first on the else path.
        let mut p = ScratchPaths::default();
        p.region_start(&body);
        let (then, els) = (
            at(br, RegionKind::Branch, false, false),
            at(br, RegionKind::Branch, true, false),
        );
        p.region_start(&then);
        assert!(!p.user(warp));
        p.region_end(&then);
        p.region_start(&els);
        assert!(!p.user(None));
        p.region_end(&els);
        assert!(p.user(warp2));
        assert!(p.region_end(&body));
        // for { if { user (block) }; user (block) } after a warp's user: the trip's users are
        // all the block's (the first trip's fences see the warp's).
        let mut p = ScratchPaths::default();
        assert!(!p.user(warp));
        p.region_start(&body);
        let then = at(br, RegionKind::Branch, true, true);
        p.region_start(&then);
        assert!(p.user(None));
        p.region_end(&then);
        assert!(p.user(None));
        assert!(!p.region_end(&body));
        // Unbalanced calls do not panic.
        let mut p = ScratchPaths::default();
        assert!(!p.region_end(&body));
        p.region_start(&body);
        p.region_start(&then);
        assert!(!p.region_end(&body));
        assert!(!p.user(None));
    }

    /// Nested and successive groups share one region; siblings each get their own.
    #[test]
    fn regions() {
        // One group with a user, then the root: one region from 0.
        let mut s = ScratchRegions::default();
        s.enter();
        assert_eq!(s.claim(1000), 0);
        s.leave();
        assert_eq!(s.claim(600), 0);
        assert_eq!(s.total(), 1000);

        // Two warpgroups side by side: the second starts after the first, rounded to 128.
        let mut s = ScratchRegions::default();
        s.enter();
        assert_eq!(s.claim(1000), 0);
        s.leave();
        s.enter();
        assert_eq!(s.claim(500), 1024);
        s.leave();
        assert_eq!(s.total(), 1524);

        // A group without users takes nothing; a nested one is inside its parent's region.
        let mut s = ScratchRegions::default();
        s.enter();
        s.leave();
        s.enter();
        s.enter();
        assert_eq!(s.claim(64), 0);
        s.leave();
        s.enter();
        assert_eq!(s.claim(64), 128);
        s.leave();
        assert_eq!(s.claim(100), 0);
        s.leave();
        s.enter();
        assert_eq!(s.claim(10), 256);
        s.leave();
        assert_eq!(s.total(), 266);
    }

    /// A barrier of the whole block starts the siblings from 0 again; inside a group it does
    /// nothing.
    #[test]
    fn phases() {
        let mut s = ScratchRegions::default();
        s.enter();
        assert_eq!(s.claim(300), 0);
        s.leave();
        s.enter();
        assert_eq!(s.claim(300), 384);
        s.leave();
        s.barrier();
        s.enter();
        assert_eq!(s.claim(2000), 0);
        s.leave();
        assert_eq!(s.total(), 2000);

        let mut s = ScratchRegions::default();
        s.enter();
        s.enter();
        assert_eq!(s.claim(8), 0);
        s.leave();
        s.barrier();
        s.enter();
        assert_eq!(s.claim(8), 128);
        s.leave();
        s.leave();
        assert_eq!(s.total(), 136);
        // Unbalanced calls do not panic.
        s.leave();
        s.leave();
        assert_eq!(s.claim(8), 0);
    }
}
