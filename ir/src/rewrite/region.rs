//! Region simplification used by the greedy driver: unreachable-block erasure and region DCE
//! (dead ops and block arguments), plus the CFG helpers they need.

use super::{set_property, would_be_trivially_dead, Rewriter};
use crate::context::{BlockId, Context, OpId, RegionId, Use, Value};
use crate::opdef::Trait;
use rustc_hash::FxHashSet;

/// Erases the blocks no path from their region's entry reaches, in `regions` and every region
/// nested in reachable blocks. Returns whether any was erased.
pub fn erase_unreachable_blocks(
    rw: &mut Rewriter<'_>,
    regions: &[RegionId],
    erased: &mut u64,
) -> bool {
    let mut any = false;
    let mut worklist: Vec<RegionId> = regions.to_vec();
    while let Some(r) = worklist.pop() {
        let blocks = rw.ctx().region_blocks(r).to_vec();
        if blocks.is_empty() {
            continue;
        }
        if blocks.len() == 1 {
            for o in rw.ctx().block_ops(blocks[0]) {
                worklist.extend(rw.ctx().regions(o).iter().copied());
            }
            continue;
        }
        let reachable = reachable_blocks(rw.ctx(), blocks[0]);
        for b in blocks {
            if !reachable.contains(&b) {
                rw.erase_block(b);
                *erased += 1;
                any = true;
                continue;
            }
            for o in rw.ctx().block_ops(b) {
                worklist.extend(rw.ctx().regions(o).iter().copied());
            }
        }
    }
    any
}

/// Blocks reachable from `entry` through terminator successors.
pub fn reachable_blocks(ctx: &Context, entry: BlockId) -> FxHashSet<BlockId> {
    let mut seen = FxHashSet::default();
    let mut stack = vec![entry];
    while let Some(b) = stack.pop() {
        if !seen.insert(b) {
            continue;
        }
        if let Some(t) = ctx.block_last(b) {
            stack.extend(ctx.successors(t).iter().copied());
        }
    }
    seen
}

/// Blocks reachable from `entry` in post-order (successors before the block, each block's
/// successors taken in order), as LLVM's `post_order` visits a region's CFG.
pub fn post_order_blocks(ctx: &Context, entry: BlockId) -> Vec<BlockId> {
    let mut order = Vec::new();
    let mut seen = FxHashSet::default();
    seen.insert(entry);
    let mut stack: Vec<(BlockId, Vec<BlockId>, usize)> =
        vec![(entry, block_successors(ctx, entry), 0)];
    while let Some(top) = stack.last_mut() {
        if top.2 < top.1.len() {
            let s = top.1[top.2];
            top.2 += 1;
            if seen.insert(s) {
                let succ = block_successors(ctx, s);
                stack.push((s, succ, 0));
            }
            continue;
        }
        order.push(top.0);
        stack.pop();
    }
    order
}

/// The operands `op` forwards to the arguments of successor `s`, as a range of operand
/// indices: the operand group its declaration names for that successor (MLIR's
/// `BranchOpInterface::getSuccessorOperands`). `None` for ops that do not say (unregistered
/// ops), whose successor arguments must then be assumed used.
pub fn successor_operands(ctx: &Context, op: OpId, s: usize) -> Option<std::ops::Range<usize>> {
    let def = ctx.op_def(op)?;
    let ns = ctx.successors(op).len();
    let slot = def.successor_slot_for(s, ns)?;
    let sd = &def.successors[slot];
    if sd.operands.is_empty() {
        return Some(0..0);
    }
    let gi = def.operands.iter().position(|o| o.name == sd.operands)?;
    let sizes = crate::format::segment_sizes(ctx, def, op, ctx.operands(op).len());
    let start: usize = sizes.get(..gi)?.iter().sum();
    let group = start..start + *sizes.get(gi)?;
    let Some(prop) = sd.segments else {
        return Some(group);
    };
    // One segment of the group per successor of the variadic slot.
    let k = s - def.successor_range(slot, ns)?.start;
    let segs = ctx.int_array_values(ctx.get_prop(op, prop)?)?;
    if segs.iter().any(|v| *v < 0) || segs.iter().sum::<i64>() as usize != group.len() {
        return None;
    }
    let off: i64 = segs.get(..k)?.iter().sum();
    let len = *segs.get(k)?;
    Some(group.start + off as usize..group.start + (off + len) as usize)
}

/// Removes the operand `op` forwards to argument `arg` of successor `s`, keeping an
/// `operandSegmentSizes` property in step.
fn erase_successor_operand(ctx: &mut Context, op: OpId, s: usize, arg: usize) {
    let Some(range) = successor_operands(ctx, op, s) else {
        return;
    };
    ctx.erase_operand(op, range.start + arg);
    let Some(def) = ctx.op_def(op) else { return };
    if !def.has(Trait::AttrSizedOperandSegments) {
        return;
    }
    let ns = ctx.successors(op).len();
    let Some(slot) = def.successor_slot_for(s, ns) else {
        return;
    };
    let sd = &def.successors[slot];
    if let (Some(prop), Some(r)) = (sd.segments, def.successor_range(slot, ns)) {
        if let Some(mut segs) = ctx.get_prop(op, prop).and_then(|a| ctx.int_array_values(a)) {
            if let Some(v) = segs.get_mut(s - r.start) {
                *v = (*v - 1).max(0);
            }
            let na = ctx.int_array_attr(32, &segs);
            set_property(ctx, op, prop, Some(na));
        }
    }
    let Some(gi) = def.operands.iter().position(|o| o.name == sd.operands) else {
        return;
    };
    let Some(a) = ctx.get_prop(op, "operandSegmentSizes") else {
        return;
    };
    if let Some(mut values) = ctx.int_array_values(a) {
        if let Some(v) = values.get_mut(gi) {
            *v = (*v - 1).max(0);
        }
        let na = ctx.int_array_attr(32, &values);
        set_property(ctx, op, "operandSegmentSizes", Some(na));
    }
}

/// Liveness of ops and block arguments for [`run_region_dce`]: optimistic (dead until proven
/// live), growing to a fixpoint.
#[derive(Default)]
struct LiveMap {
    ops: DenseSet,
    args: DenseSet,
    changed: bool,
}

/// A set of small dense ids (op or value indices) as a bit vector.
#[derive(Default)]
struct DenseSet {
    bits: Vec<u64>,
}

impl DenseSet {
    fn with_capacity(n: usize) -> DenseSet {
        DenseSet {
            bits: vec![0; n.div_ceil(64)],
        }
    }
    /// Adds `i`; returns whether it was new.
    fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        if w >= self.bits.len() {
            self.bits.resize(w + 1, 0);
        }
        let new = self.bits[w] & b == 0;
        self.bits[w] |= b;
        new
    }
    fn contains(&self, i: usize) -> bool {
        self.bits
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }
}

impl LiveMap {
    fn new(ctx: &Context) -> LiveMap {
        LiveMap {
            ops: DenseSet::with_capacity(ctx.num_ops()),
            args: DenseSet::with_capacity(ctx.num_values()),
            changed: false,
        }
    }
    fn set_value_live(&mut self, ctx: &Context, v: Value) {
        match ctx.defining_op(v) {
            Some(o) => self.changed |= self.ops.insert(o.index()),
            None => self.changed |= self.args.insert(v.index()),
        }
    }
    fn set_op_live(&mut self, op: OpId) {
        self.changed |= self.ops.insert(op.index());
    }

    /// A branch operand only keeps its value alive when the successor argument it feeds is.
    fn use_known_dead(&self, ctx: &Context, u: Use) -> bool {
        let owner = u.op;
        if !ctx.op_def(owner).is_some_and(|d| d.has(Trait::Terminator)) {
            return false;
        }
        for (s, &succ) in ctx.successors(owner).iter().enumerate() {
            if let Some(r) = successor_operands(ctx, owner, s) {
                if r.contains(&(u.index as usize)) {
                    let arg = ctx.block_args(succ)[u.index as usize - r.start];
                    return !self.args.contains(arg.index());
                }
            }
        }
        false
    }

    fn process_value(&mut self, ctx: &Context, v: Value) {
        let live = ctx
            .uses(v)
            .iter()
            .any(|u| !self.use_known_dead(ctx, *u) && self.ops.contains(u.op.index()));
        if live {
            self.set_value_live(ctx, v);
        }
    }

    fn propagate_region(&mut self, ctx: &Context, r: RegionId) {
        let Some(&entry) = ctx.region_blocks(r).first() else {
            return;
        };
        for b in post_order_blocks(ctx, entry) {
            // Backwards through the block (nothing changes the IR here).
            let mut cur = ctx.block_last(b);
            while let Some(o) = cur {
                cur = ctx.prev_op(o);
                self.propagate_op(ctx, o);
            }
            if b == entry {
                continue;
            }
            for &a in ctx.block_args(b) {
                if !self.args.contains(a.index()) {
                    self.process_value(ctx, a);
                }
            }
        }
    }

    fn propagate_op(&mut self, ctx: &Context, op: OpId) {
        for &r in ctx.regions(op) {
            self.propagate_region(ctx, r);
        }
        if ctx.op_def(op).is_some_and(|d| d.has(Trait::Terminator)) {
            self.set_op_live(op);
            for (s, &succ) in ctx.successors(op).iter().enumerate() {
                if successor_operands(ctx, op, s).is_none() {
                    for &a in ctx.block_args(succ) {
                        self.set_value_live(ctx, a);
                    }
                }
            }
            return;
        }
        if self.ops.contains(op.index()) {
            return;
        }
        if !would_be_trivially_dead(ctx, op) {
            self.set_op_live(op);
            return;
        }
        for &v in ctx.results(op) {
            self.process_value(ctx, v);
        }
    }
}

/// Dead code elimination over whole regions, as MLIR's `runRegionDCE`: ops that are not proven
/// live (a live op is one that is not trivially dead, or whose results feed a live op) are
/// erased, and so are the unused arguments of non-entry blocks together with the branch
/// operands that fed them. Dead cycles through block arguments go too. Returns whether an op
/// was erased.
pub fn run_region_dce(rw: &mut Rewriter<'_>, regions: &[RegionId]) -> bool {
    let mut live = LiveMap::new(rw.ctx());
    loop {
        live.changed = false;
        for &r in regions {
            live.propagate_region(rw.ctx(), r);
        }
        if !live.changed {
            break;
        }
    }
    delete_deadness(rw, regions, &live)
}

fn delete_deadness(rw: &mut Rewriter<'_>, regions: &[RegionId], live: &LiveMap) -> bool {
    let mut erased = false;
    for &r in regions {
        let blocks = rw.ctx().region_blocks(r).to_vec();
        let Some(&entry) = blocks.first() else {
            continue;
        };
        let single = blocks.len() == 1;
        for b in post_order_blocks(rw.ctx(), entry) {
            if !single {
                if let Some(t) = rw.ctx().block_last(b) {
                    let succs = rw.ctx().successors(t).to_vec();
                    for (s, succ) in succs.iter().enumerate().rev() {
                        let Some(range) = successor_operands(rw.ctx(), t, s) else {
                            continue;
                        };
                        for arg in (0..range.len()).rev() {
                            let a = rw.ctx().block_args(*succ)[arg];
                            if !live.args.contains(a.index()) {
                                erase_successor_operand(rw.ctx_mut(), t, s, arg);
                            }
                        }
                    }
                }
            }
            // Backwards; the previous op is read before `o` is erased (erasing `o` only touches
            // ops nested in it).
            let mut cur = rw.ctx().block_last(b);
            while let Some(o) = cur {
                cur = rw.ctx().prev_op(o);
                if !live.ops.contains(o.index()) {
                    erased = true;
                    rw.erase_op(o);
                } else {
                    let nested = rw.ctx().regions(o).to_vec();
                    erased |= delete_deadness(rw, &nested, live);
                }
            }
        }
        for &b in blocks.iter().skip(1) {
            if rw.ctx().block_parent(b) != Some(r) {
                continue;
            }
            let n = rw.ctx().block_args(b).len();
            for i in (0..n).rev() {
                let a = rw.ctx().block_args(b)[i];
                if !live.args.contains(a.index()) {
                    rw.ctx_mut().erase_block_arg(b, i);
                }
            }
        }
    }
    erased
}

/// The successors of a block (those of its last op).
pub fn block_successors(ctx: &Context, b: BlockId) -> Vec<BlockId> {
    ctx.block_last(b)
        .map(|t| ctx.successors(t).to_vec())
        .unwrap_or_default()
}
