//! `canonicalize`: folds ops and applies every registered op's canonicalization patterns with
//! the greedy driver, until nothing changes.
//!
//! It is MLIR's `--canonicalize`, down to the worklist order and constant placement, so the two
//! print the same IR (see `test/transforms/canonicalize.mlir`). Canonicalization is best effort:
//! running out of iterations is not a failure, only a statistic (`num-non-converged`), unless
//! `test-convergence` asks for one.

use crate::{declare_pass, option_enum, Changed, Pass, Statistics};
use tilus_ir::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet, RegionSimplify};
use tilus_ir::{Context, Diagnostic, OpId};

option_enum!(impl RegionSimplify {
    Disabled = "disabled",
    Normal = "normal",
    Aggressive = "aggressive",
});

declare_pass! {
    /// The canonicalizer. The fields are its options, with MLIR's names and defaults.
    pub struct Canonicalize {
        name: "canonicalize",
        class: "Canonicalizer",
        summary: "Canonicalize operations (fold, apply canonicalization patterns, hoist constants)",
        description: "Rewrites ops into canonical form, as MLIR's canonicalizer does. It folds \
            ops (constant folding, identities like x+0), applies each registered op's \
            canonicalization patterns, erases dead pure ops, and deduplicates constants into \
            the entry block of the enclosing isolated region. It repeats until nothing changes \
            or max-iterations rounds have run. Run it to simplify IR before or after other \
            transformations.",
        options: {
            max_iterations: i64 = 10, "max-iterations",
                "Max. iterations between applying patterns / simplifying regions (-1: no limit)";
            max_num_rewrites: i64 = -1, "max-num-rewrites",
                "Max. number of pattern rewrites within an iteration (-1: no limit)";
            region_simplify: RegionSimplify = RegionSimplify::Normal, "region-simplify",
                "Perform control flow optimizations to the region tree: disabled, normal \
                 (unreachable blocks, dead block arguments) or aggressive (as normal; block \
                 merging is not implemented)";
            test_convergence: bool = false, "test-convergence",
                "Test only: fail the pass on non-convergence to detect cyclic patterns";
            top_down: bool = true, "top-down", "Seed the worklist in general top-down order";
            disable_patterns: Vec<String> = Vec::new(), "disable-patterns",
                "Labels of patterns that should be filtered out during application";
            enable_patterns: Vec<String> = Vec::new(), "enable-patterns",
                "Labels of patterns that should be used during application, all other \
                 patterns are filtered out";
        },
        statistics: {
            NUM_ITERATIONS = "num-iterations", "Rounds of the greedy driver";
            NUM_FOLDED = "num-folded", "Ops folded";
            NUM_REWRITES = "num-rewrites", "Patterns applied";
            NUM_DCED = "num-dce'd", "Dead ops erased";
            NUM_CONSTANTS_CSED = "num-constants-cse'd", "Duplicate constants replaced";
            NUM_BLOCKS_ERASED = "num-blocks-erased", "Unreachable blocks erased";
            NUM_NON_CONVERGED = "num-non-converged",
                "Runs stopped by max-iterations while still changing the IR";
        },
    }
}

impl Canonicalize {
    /// The greedy driver settings these options stand for.
    pub fn config(&self) -> GreedyConfig {
        GreedyConfig {
            max_iterations: self.max_iterations,
            max_num_rewrites: self.max_num_rewrites,
            top_down: self.top_down,
            fold: true,
            cse_constants: true,
            region_simplify: self.region_simplify,
        }
    }

    /// The patterns it applies: every registered op's, filtered by the options.
    pub fn patterns(&self, ctx: &mut Context) -> PatternSet {
        let mut set = PatternSet::canonicalization(ctx);
        if !self.disable_patterns.is_empty() {
            set.retain(|p| !self.disable_patterns.iter().any(|d| d == p.name));
        }
        if !self.enable_patterns.is_empty() {
            set.retain(|p| self.enable_patterns.iter().any(|e| e == p.name));
        }
        set
    }
}

impl Pass for Canonicalize {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let patterns = self.patterns(ctx);
        let r = apply_patterns_greedily(ctx, op, &patterns, &self.config());
        stats.add(Self::NUM_ITERATIONS, r.iterations);
        stats.add(Self::NUM_FOLDED, r.num_folded);
        stats.add(Self::NUM_REWRITES, r.num_rewrites);
        stats.add(Self::NUM_DCED, r.num_erased);
        stats.add(Self::NUM_CONSTANTS_CSED, r.num_constants_deduplicated);
        stats.add(Self::NUM_BLOCKS_ERASED, r.num_blocks_erased);
        stats.add(Self::NUM_NON_CONVERGED, u64::from(!r.converged));
        if self.test_convergence && !r.converged {
            return Err(vec![Diagnostic::op(
                op,
                format!(
                    "canonicalizer failed to converge within {} iterations",
                    self.max_iterations
                ),
            )]);
        }
        Ok(if r.changed { Changed::Yes } else { Changed::No })
    }
}
