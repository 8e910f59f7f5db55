//! Test passes: registered so lit tests and unit tests can drive the pass manager (nesting,
//! options, statistics, failures, verification, IR dumps) without depending on the real
//! transformations. They are not meant for real pipelines; their names start with `test-`.
//!
//! - `test-print-op-count` counts ops (a statistic) and can record the count on the op;
//! - `test-fail` reports an error at each op carrying a `test.fail` attribute, or breaks the IR
//!   there so the verifier after the pass catches it.

use crate::options::{parse_bool, parse_enum, parse_int, parse_list, print_list};
use crate::{Changed, Pass, PassInfo, PassOption, Statistics};
use tilus_ir::{AttrKind, Context, Diagnostic, OpId};

/// Registry entry of [`PrintOpCount`].
pub const PRINT_OP_COUNT: PassInfo = PassInfo {
    name: "test-print-op-count",
    summary: "Test pass: count the ops under the anchor (statistics num-ops, num-runs)",
    create: || Box::new(PrintOpCount::default()),
};

/// Registry entry of [`Fail`].
pub const FAIL: PassInfo = PassInfo {
    name: "test-fail",
    summary: "Test pass: report an error at (or break) each op carrying a `test.fail` attribute",
    create: || Box::new(Fail::default()),
};

/// Counts the ops nested in its anchor (the anchor included) and reports the count as the
/// `num-ops` statistic; `num-runs` counts the ops it ran on. Leaves the IR alone unless
/// `annotate` is set.
#[derive(Clone, Debug)]
pub struct PrintOpCount {
    /// Record the count as a `test.op_count` attribute (an `i64`) on the anchor op.
    pub annotate: bool,
    /// Count only ops of these names (all when empty).
    pub only: Vec<String>,
    /// Fail when the count exceeds this (no limit when negative).
    pub limit: i64,
    /// The op it is restricted to (`None`: any op), to test anchor checks and implicit nesting.
    pub anchor: Option<&'static str>,
}

/// The anchors `test-print-op-count{anchor=...}` accepts.
const ANCHORS: &[&str] = &["any", "builtin.module", "func.func"];

impl Default for PrintOpCount {
    fn default() -> Self {
        PrintOpCount {
            annotate: false,
            only: Vec::new(),
            limit: -1,
            anchor: None,
        }
    }
}

impl Pass for PrintOpCount {
    fn name(&self) -> &'static str {
        "test-print-op-count"
    }
    fn description(&self) -> &'static str {
        "Test pass. Counts the ops nested in the op it runs on (that op included) and reports \
         the total as the `num-ops` statistic and the number of ops it ran on as `num-runs`. \
         With `annotate=true` it records the count as a `test.op_count` attribute, which makes \
         it a pass that changes the IR; with `limit=N` it fails when the count exceeds N; with \
         `anchor=func.func` it is restricted to that op, like a function pass."
    }
    fn anchor(&self) -> Option<&'static str> {
        self.anchor
    }
    fn options(&self) -> Vec<PassOption> {
        vec![
            PassOption {
                name: "anchor",
                value: self.anchor.unwrap_or("any").to_string(),
                doc: "The op the pass is restricted to: any, builtin.module or func.func",
            },
            PassOption {
                name: "annotate",
                value: self.annotate.to_string(),
                doc: "Record the count as a `test.op_count` attribute on the op",
            },
            PassOption {
                name: "only",
                value: print_list(&self.only),
                doc: "Count only ops of these names, e.g. {arith.addi,func.return}",
            },
            PassOption {
                name: "limit",
                value: self.limit.to_string(),
                doc: "Fail when more ops than this are counted (-1: no limit)",
            },
        ]
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "annotate" => self.annotate = parse_bool(value)?,
            "only" => self.only = parse_list(value),
            "limit" => self.limit = parse_int(value)?,
            "anchor" => self.anchor = Some(parse_enum(value, ANCHORS)?).filter(|a| *a != "any"),
            _ => return Err(format!("pass '{}' has no option '{name}'", self.name())),
        }
        Ok(())
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
        stats.add("num-ops", "Number of ops counted", n);
        stats.add("num-runs", "Number of ops the pass ran on", 1);
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

/// Reports an error at every op nested in its anchor that carries a `test.fail` attribute
/// (the attribute's string value is the message), so the pipeline fails there. With
/// `mode=corrupt` it instead retypes those ops' results to `none` and succeeds, leaving IR the
/// verifier rejects: the case `--verify-each` exists for.
#[derive(Clone, Debug, Default)]
pub struct Fail {
    /// `true` when `mode=corrupt`.
    pub corrupt: bool,
}

impl Pass for Fail {
    fn name(&self) -> &'static str {
        "test-fail"
    }
    fn description(&self) -> &'static str {
        "Test pass. Reports an error at every op carrying a `test.fail` attribute (its string \
         value, when it has one, is the message), so the pass fails. With `mode=corrupt` it \
         instead retypes those ops' results to `none` and reports success, producing IR that \
         the verifier after the pass rejects."
    }
    fn options(&self) -> Vec<PassOption> {
        vec![PassOption {
            name: "mode",
            value: if self.corrupt { "corrupt" } else { "error" }.to_string(),
            doc: "'error': fail with a diagnostic at each marked op; 'corrupt': break the IR there",
        }]
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "mode" => self.corrupt = parse_enum(value, &["error", "corrupt"])? == "corrupt",
            _ => return Err(format!("pass '{}' has no option '{name}'", self.name())),
        }
        Ok(())
    }
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
        stats.add(
            "num-marked",
            "Number of ops carrying test.fail",
            marked.len() as u64,
        );
        if marked.is_empty() {
            return Ok(Changed::No);
        }
        if self.corrupt {
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

/// A pass restricted to `func.func`, for tests of anchor checks (not registered).
#[cfg(test)]
pub(crate) const ANCHORED_FOR_TESTS: PassInfo = PassInfo {
    name: "test-func-only",
    summary: "runs on func.func",
    create: || Box::new(FuncOnly),
};

#[cfg(test)]
struct FuncOnly;

#[cfg(test)]
impl Pass for FuncOnly {
    fn name(&self) -> &'static str {
        "test-func-only"
    }
    fn description(&self) -> &'static str {
        "runs on func.func"
    }
    fn anchor(&self) -> Option<&'static str> {
        Some("func.func")
    }
    fn run(
        &mut self,
        _: &mut Context,
        _: OpId,
        _: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        Ok(Changed::No)
    }
}
