//! The walk driver ([`walk_and_apply_patterns`]) and the erasure-tolerant walks the drivers
//! share.

use super::{Listener, NoListener, PatternSet, Rewriter};
use crate::context::{Context, OpId, RegionId};

/// Applies `patterns` once to each op nested in `op`'s regions, in post-order (nested ops
/// first, then program order), for one-shot rewrites that need no fixpoint (lowerings,
/// cleanups). Ops created during the walk are not visited; erased ones are skipped. No folding.
/// Returns the number of successful applications.
pub fn walk_and_apply_patterns(
    ctx: &mut Context,
    op: OpId,
    patterns: &PatternSet,
    listener: Option<&mut dyn Listener>,
) -> u64 {
    let mut ops = Vec::new();
    for r in ctx.regions(op).to_vec() {
        walk_post(ctx, r, &mut |_, o| ops.push(o));
    }
    let mut n = 0;
    let mut none = NoListener;
    let listener: &mut dyn Listener = match listener {
        Some(l) => l,
        None => &mut none,
    };
    for o in ops {
        if !ctx.is_alive(o) || ctx.op_parent_block(o).is_none() {
            continue;
        }
        let mut rw = Rewriter::with_listener(ctx, &mut *listener);
        if patterns.apply(&mut rw, o).is_some() {
            n += 1;
        }
    }
    n
}

/// Walks the ops of `r` in pre-order; `f` returns whether to descend into the op's regions.
/// The next op is read before `f` runs, so `f` may erase or move the op it is given.
pub(super) fn walk_pre(
    ctx: &mut Context,
    r: RegionId,
    f: &mut dyn FnMut(&mut Context, OpId) -> bool,
) {
    for b in ctx.region_blocks(r).to_vec() {
        let mut cur = ctx.block_first(b);
        while let Some(o) = cur {
            cur = ctx.next_op(o);
            if f(ctx, o) && ctx.is_alive(o) {
                for nr in ctx.regions(o).to_vec() {
                    walk_pre(ctx, nr, f);
                }
            }
        }
    }
}

/// Walks the ops of `r` in post-order (nested ops first), tolerating erasure and moves as
/// [`walk_pre`] does.
pub(super) fn walk_post(ctx: &mut Context, r: RegionId, f: &mut dyn FnMut(&mut Context, OpId)) {
    for b in ctx.region_blocks(r).to_vec() {
        let mut cur = ctx.block_first(b);
        while let Some(o) = cur {
            cur = ctx.next_op(o);
            for nr in ctx.regions(o).to_vec() {
                walk_post(ctx, nr, f);
            }
            f(ctx, o);
        }
    }
}
