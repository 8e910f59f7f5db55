//! `dce`: erases pure ops whose results are unused, repeatedly, so chains of dead computations
//! disappear in one run.
//!
//! An op is dead when it is registered and `Pure`, not a terminator or a symbol, and none of
//! its results has a use (the same rule the greedy driver and CSE use). Ops are visited last
//! first, so users go before the values they use, and the walk repeats until a pass over the IR
//! erases nothing (values used across regions may need a second round). MLIR has no pass of
//! this name; `canonicalize` and `cse` erase dead ops as a side effect, and this is the pass for
//! doing only that.

use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_ir::rewrite::{is_trivially_dead, Rewriter};
use tilus_ir::{Context, Diagnostic, OpId};

declare_pass! {
    /// The dead code elimination pass. It has no options.
    pub struct Dce {
        name: "dce",
        class: "DCE",
        summary: "Erase unused pure ops until none is left",
        description: "Erases pure ops (not terminators, not symbols) whose results have no \
            uses, and repeats until none is left, so whole dead chains go. Run it after \
            transformations that leave unused values behind when canonicalization would change \
            more than wanted.",
        options: {},
        statistics: {
            NUM_DCED = "num-dce'd", "Number of operations DCE'd";
        },
    }
}

impl Pass for Dce {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let n = erase_dead_ops(ctx, op);
        stats.add(Self::NUM_DCED, n);
        Ok(if n > 0 { Changed::Yes } else { Changed::No })
    }
}

/// Erases every trivially dead op nested in `op` (not `op` itself); returns how many.
pub fn erase_dead_ops(ctx: &mut Context, op: OpId) -> u64 {
    let mut total = 0;
    loop {
        let mut ops = Vec::new();
        for r in ctx.regions(op).to_vec() {
            for &b in ctx.region_blocks(r) {
                for o in ctx.block_ops(b) {
                    ctx.walk(o, &mut |x| ops.push(x));
                }
            }
        }
        let mut erased = 0;
        let mut rw = Rewriter::new(ctx);
        for o in ops.into_iter().rev() {
            let c = rw.ctx();
            if c.is_alive(o) && c.op_parent_block(o).is_some() && is_trivially_dead(c, o) {
                rw.erase_op(o);
                erased += 1;
            }
        }
        if erased == 0 {
            return total;
        }
        total += erased;
    }
}
