//! `canonicalize`: folds ops and applies every registered op's canonicalization patterns with
//! the greedy driver, until nothing changes.
//!
//! It is MLIR's `--canonicalize`, down to the worklist order and constant placement, so the two
//! print the same IR (see `test/transforms/canonicalize.mlir`). Canonicalization is best effort:
//! running out of iterations is not a failure, only a statistic (`num-non-converged`), unless
//! `test-convergence` asks for one.

use crate::options::{parse_bool, parse_enum, parse_int, parse_list, print_list};
use crate::{Changed, Pass, PassInfo, PassOption, Statistics};
use tilus_ir::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet, RegionSimplify};
use tilus_ir::{Context, Diagnostic, OpId};

/// Registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "canonicalize",
    summary: "Canonicalize operations (fold, apply canonicalization patterns, hoist constants)",
    create: || Box::new(Canonicalize::default()),
};

/// The canonicalizer. The fields are its options, with MLIR's names and defaults.
#[derive(Clone, Debug)]
pub struct Canonicalize {
    /// `max-iterations`: rounds before giving up (-1: no limit).
    pub max_iterations: i64,
    /// `max-num-rewrites`: pattern applications per round (-1: no limit).
    pub max_num_rewrites: i64,
    /// `region-simplify`: `disabled`, `normal` or `aggressive`. `normal` erases unreachable
    /// blocks and dead ops and block arguments after each round, as MLIR does; `aggressive`
    /// would also merge identical blocks in MLIR, which is not implemented (it behaves as
    /// `normal`).
    pub region_simplify: RegionSimplify,
    /// `top-down`: seed the worklist in pre-order.
    pub top_down: bool,
    /// `test-convergence`: fail when the rewrite does not converge (to catch pattern cycles).
    pub test_convergence: bool,
    /// `disable-patterns`: names of patterns to leave out.
    pub disable_patterns: Vec<String>,
    /// `enable-patterns`: when not empty, the only patterns used.
    pub enable_patterns: Vec<String>,
}

impl Default for Canonicalize {
    fn default() -> Canonicalize {
        Canonicalize {
            max_iterations: 10,
            max_num_rewrites: -1,
            region_simplify: RegionSimplify::Normal,
            top_down: true,
            test_convergence: false,
            disable_patterns: Vec::new(),
            enable_patterns: Vec::new(),
        }
    }
}

fn simplify_name(r: RegionSimplify) -> &'static str {
    match r {
        RegionSimplify::Disabled => "disabled",
        RegionSimplify::Normal => "normal",
        RegionSimplify::Aggressive => "aggressive",
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
    fn name(&self) -> &'static str {
        "canonicalize"
    }
    fn class_name(&self) -> String {
        "Canonicalizer".into()
    }
    fn description(&self) -> &'static str {
        "Rewrites ops into canonical form, as MLIR's canonicalizer does. It folds ops (constant \
         folding, identities like x+0), applies each registered op's canonicalization patterns, \
         erases dead pure ops, and deduplicates constants into the entry block of the enclosing \
         isolated region. It repeats until nothing changes or max-iterations rounds have run. \
         Run it to simplify IR before or after other transformations. Statistics: \
         num-iterations, num-folded, num-rewrites, num-dce'd, num-constants-cse'd, \
         num-blocks-erased, num-non-converged."
    }
    fn options(&self) -> Vec<PassOption> {
        vec![
            PassOption {
                name: "max-iterations",
                value: self.max_iterations.to_string(),
                doc: "Max. iterations between applying patterns / simplifying regions",
            },
            PassOption {
                name: "max-num-rewrites",
                value: self.max_num_rewrites.to_string(),
                doc: "Max. number of pattern rewrites within an iteration",
            },
            PassOption {
                name: "region-simplify",
                value: simplify_name(self.region_simplify).into(),
                doc: "Perform control flow optimizations to the region tree: disabled, normal \
                      (unreachable blocks, dead block arguments) or aggressive (as normal; block \
                      merging is not implemented)",
            },
            PassOption {
                name: "test-convergence",
                value: self.test_convergence.to_string(),
                doc: "Test only: fail the pass on non-convergence to detect cyclic patterns",
            },
            PassOption {
                name: "top-down",
                value: self.top_down.to_string(),
                doc: "Seed the worklist in general top-down order",
            },
            PassOption {
                name: "disable-patterns",
                value: print_list(&self.disable_patterns),
                doc: "Labels of patterns that should be filtered out during application",
            },
            PassOption {
                name: "enable-patterns",
                value: print_list(&self.enable_patterns),
                doc: "Labels of patterns that should be used during application, all other \
                      patterns are filtered out",
            },
        ]
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "max-iterations" => self.max_iterations = parse_int(value)?,
            "max-num-rewrites" => self.max_num_rewrites = parse_int(value)?,
            "region-simplify" => {
                self.region_simplify =
                    match parse_enum(value, &["disabled", "normal", "aggressive"])? {
                        "disabled" => RegionSimplify::Disabled,
                        "normal" => RegionSimplify::Normal,
                        _ => RegionSimplify::Aggressive,
                    }
            }
            "test-convergence" => self.test_convergence = parse_bool(value)?,
            "top-down" => self.top_down = parse_bool(value)?,
            "disable-patterns" => self.disable_patterns = parse_list(value),
            "enable-patterns" => self.enable_patterns = parse_list(value),
            _ => return Err(format!("pass 'canonicalize' has no option '{name}'")),
        }
        Ok(())
    }
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let patterns = self.patterns(ctx);
        let r = apply_patterns_greedily(ctx, op, &patterns, &self.config());
        stats.add(
            "num-iterations",
            "Rounds of the greedy driver",
            r.iterations,
        );
        stats.add("num-folded", "Ops folded", r.num_folded);
        stats.add("num-rewrites", "Patterns applied", r.num_rewrites);
        stats.add("num-dce'd", "Dead ops erased", r.num_erased);
        stats.add(
            "num-constants-cse'd",
            "Duplicate constants replaced",
            r.num_constants_deduplicated,
        );
        stats.add(
            "num-blocks-erased",
            "Unreachable blocks erased",
            r.num_blocks_erased,
        );
        stats.add(
            "num-non-converged",
            "Runs stopped by max-iterations while still changing the IR",
            u64::from(!r.converged),
        );
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
