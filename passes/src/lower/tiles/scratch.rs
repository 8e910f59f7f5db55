//! The shared scratch: where each user (a `layout.convert` through shared memory, a cross-warp
//! reduction, a dot's staging) puts its data, and the barriers that order users that share
//! bytes.
//!
//! Users that the barriers order share one region, from its offset 0: each user syncs its
//! group between its stores and its loads and (but for a reduction followed by another) after
//! its loads, and [`Lowering::fence_scratch`] adds a barrier where the group changes (also
//! across a loop's back edge, [`Lowering::fence_back_edge`]). Groups
//! that run side by side are not ordered by any of those barriers (a barrier of one group does
//! not wait for the other, and none can be added between them: a warp-specialized producer and
//! its consumers wait on each other through mbarriers, so a block-wide barrier between their
//! regions would deadlock). So each group op gets a region of its own beside those of the
//! other group ops of its parent ([`ScratchRegions`]).

use super::*;

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

    /// Records `o` as the last scratch user (and as the first in the bodies of the loops
    /// being lowered that had none yet); whether its group differs from the previous user's.
    fn scratch_group_moved(&mut self, ctx: &Context, o: OpId) -> bool {
        let group = group_pos(ctx, o).and_then(|g| g.op);
        let moved = self.scratch_group.is_some_and(|prev| prev != group);
        self.scratch_group = Some(group);
        for first in self.loop_first_groups.iter_mut().filter(|f| f.is_none()) {
            *first = Some(group);
        }
        moved
    }

    /// The end of a loop's body (`body`, the block whose terminator goes back to the loop's
    /// start), whose first scratch user ran in group `first`: a barrier before the terminator
    /// when [`Lowering::fence_scratch`] would put one before that user on the next trip, i.e.
    /// when the body's last user ran in another group. The fence compares a user with the one
    /// before it in program order, which is the user before the loop on the first trip only;
    /// on the next trips it is the body's last. In `scf.for { convert (block);
    /// single_warp { convert } }` the block's conversion of trip 2 would store while warp 0
    /// may still read its own tile of trip 1 (the warp's group-end barrier holds that warp
    /// only). The barrier is the loop's group's (every thread of it runs the body): it waits
    /// for the threads still in a group nested in the body, as the fence's barrier would. It
    /// sits at the end of the body, not before its first user, so that the first trip, which
    /// the fence already orders, does not pay for it. A reduction's unfenced reads at the end
    /// of a body are fenced by [`Lowering::block`] itself, with a barrier of the loop's group
    /// right before the terminator: a body that already ends so gets no second one.
    pub(super) fn fence_back_edge(
        &mut self,
        ctx: &mut Context,
        body: BlockId,
        first: Option<OpId>,
    ) {
        if self.scratch_group == Some(first) {
            return;
        }
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
    /// ran in another group. Each user ends with a barrier of its own group, which orders
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

/// Whether `b` starts and whether it ends the body of a loop (`scf.for`, `scf.while`) as it
/// runs again: the first block of the loop's first region (an `scf.while`'s condition, an
/// `scf.for`'s body) and the last block of its last region (the block whose terminator goes
/// back to the start).
pub(super) fn loop_body_edges(ctx: &Context, b: BlockId) -> (bool, bool) {
    let Some(region) = ctx.block_parent(b) else {
        return (false, false);
    };
    let Some(op) = ctx.region_parent(region) else {
        return (false, false);
    };
    if !(ForOp::is(ctx, op) || WhileOp::is(ctx, op)) {
        return (false, false);
    }
    let regions = ctx.regions(op);
    let starts = regions
        .first()
        .is_some_and(|r| ctx.region_blocks(*r).first() == Some(&b));
    let ends = regions
        .last()
        .is_some_and(|r| ctx.region_blocks(*r).last() == Some(&b));
    (starts, ends)
}

#[cfg(test)]
mod tests {
    use super::ScratchRegions;

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
