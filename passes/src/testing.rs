//! Test passes: registered so lit tests and unit tests can drive the pass manager (nesting,
//! options, statistics, failures, verification, IR dumps) without depending on the real
//! transformations. They are not meant for real pipelines; their names start with `test-`.
//!
//! - `test-print-op-count` counts ops (a statistic) and can record the count on the op;
//! - `test-fail` reports an error at each op carrying a `test.fail` attribute, or breaks the IR
//!   there so the verifier after the pass catches it.

use crate::{declare_pass, option_enum, Changed, Pass, Statistics};
use tilus_ir::{AttrKind, Context, Diagnostic, OpId};

option_enum! {
    /// The ops `test-print-op-count{anchor=...}` can be restricted to.
    pub enum TestAnchor {
        Any = "any",
        Module = "builtin.module",
        Func = "func.func",
    }
}

declare_pass! {
    /// Counts the ops nested in its anchor (the anchor included) and reports the count as the
    /// `num-ops` statistic; `num-runs` counts the ops it ran on. Leaves the IR alone unless
    /// `annotate` is set.
    pub struct PrintOpCount {
        name: "test-print-op-count",
        summary: "Test pass: count the ops under the anchor (statistics num-ops, num-runs)",
        description: "Test pass. Counts the ops nested in the op it runs on (that op included) \
            and reports the total as the `num-ops` statistic and the number of ops it ran on as \
            `num-runs`. With `annotate=true` it records the count as a `test.op_count` \
            attribute, which makes it a pass that changes the IR; with `limit=N` it fails when \
            the count exceeds N; with `anchor=func.func` it is restricted to that op, like a \
            function pass.",
        options: {
            anchor: TestAnchor = TestAnchor::Any, "anchor",
                "The op the pass is restricted to: any, builtin.module or func.func";
            annotate: bool = false, "annotate",
                "Record the count as a `test.op_count` attribute on the op";
            only: Vec<String> = Vec::new(), "only",
                "Count only ops of these names, e.g. {arith.addi,func.return}";
            limit: i64 = -1, "limit", "Fail when more ops than this are counted (-1: no limit)";
        },
        statistics: {
            NUM_OPS = "num-ops", "Number of ops counted";
            NUM_RUNS = "num-runs", "Number of ops the pass ran on";
        },
    }
}

option_enum! {
    /// What `test-fail` does at a marked op.
    pub enum FailMode {
        /// Fail with a diagnostic.
        Error = "error",
        /// Break the IR and report success.
        Corrupt = "corrupt",
    }
}

declare_pass! {
    /// Reports an error at every op nested in its anchor that carries a `test.fail` attribute
    /// (the attribute's string value is the message), so the pipeline fails there. With
    /// `mode=corrupt` it instead retypes those ops' results to `none` and succeeds, leaving IR
    /// the verifier rejects: the case `--verify-each` exists for.
    pub struct Fail {
        name: "test-fail",
        summary: "Test pass: report an error at (or break) each op carrying a `test.fail` attribute",
        description: "Test pass. Reports an error at every op carrying a `test.fail` attribute \
            (its string value, when it has one, is the message), so the pass fails. With \
            `mode=corrupt` it instead retypes those ops' results to `none` and reports success, \
            producing IR that the verifier after the pass rejects.",
        options: {
            mode: FailMode = FailMode::Error, "mode",
                "'error': fail with a diagnostic at each marked op; 'corrupt': break the IR there";
        },
        statistics: {
            NUM_MARKED = "num-marked", "Number of ops carrying test.fail";
        },
    }
}

impl Pass for PrintOpCount {
    fn anchor(&self) -> Option<&'static str> {
        match self.anchor {
            TestAnchor::Any => None,
            TestAnchor::Module => Some("builtin.module"),
            TestAnchor::Func => Some("func.func"),
        }
    }
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let mut n = 0u64;
        ctx.walk(op, &mut |o| {
            if self.only.is_empty() || self.only.iter().any(|x| x == ctx.op_name_str(o)) {
                n += 1;
            }
        });
        stats.add(Self::NUM_OPS, n);
        stats.add(Self::NUM_RUNS, 1);
        if self.limit >= 0 && n > self.limit as u64 {
            return Err(vec![Diagnostic::op(
                op,
                format!("counted {n} ops, more than limit={}", self.limit),
            )]);
        }
        if !self.annotate {
            return Ok(Changed::No);
        }
        let i64t = ctx.int_type(64);
        let value = ctx.attr(AttrKind::Integer {
            value: n.into(),
            ty: i64t,
        });
        if ctx.get_attr(op, "test.op_count") == Some(value) {
            return Ok(Changed::No);
        }
        ctx.set_attr(op, "test.op_count", Some(value));
        Ok(Changed::Yes)
    }
}

impl Pass for Fail {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let mut marked = Vec::new();
        ctx.walk(op, &mut |o| {
            if let Some(a) = ctx.get_attr(o, "test.fail") {
                marked.push((o, a));
            }
        });
        stats.add(Self::NUM_MARKED, marked.len() as u64);
        if marked.is_empty() {
            return Ok(Changed::No);
        }
        if self.mode == FailMode::Corrupt {
            let none = ctx.none_type();
            for (o, _) in marked {
                for r in ctx.results(o).to_vec() {
                    ctx.set_value_type(r, none);
                }
            }
            return Ok(Changed::Yes);
        }
        Err(marked
            .into_iter()
            .map(|(o, a)| {
                let msg = match ctx.attr_kind(a) {
                    AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
                    _ => format!("'{}' op carries 'test.fail'", ctx.op_name_str(o)),
                };
                Diagnostic::op(o, msg)
            })
            .collect())
    }
}

#[cfg(test)]
declare_pass! {
    /// A pass restricted to `func.func`, for tests of anchor checks (not registered).
    pub(crate) struct FuncOnly {
        name: "test-func-only",
        anchor: "func.func",
        summary: "runs on func.func",
        description: "runs on func.func",
        options: {},
        statistics: {},
    }
}

/// The registry entry of [`FuncOnly`].
#[cfg(test)]
pub(crate) const ANCHORED_FOR_TESTS: crate::PassInfo = FuncOnly::INFO;

#[cfg(test)]
impl Pass for FuncOnly {
    fn run(
        &mut self,
        _: &mut Context,
        _: OpId,
        _: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        Ok(Changed::No)
    }
}
