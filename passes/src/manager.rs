//! Pass managers: a pipeline of passes anchored on one kind of op, and the runner.
//!
//! An [`OpPassManager`] is MLIR's `OpPassManager`: an anchor (an op name, or `any`) and a list
//! of elements, each a pass or a nested pass manager. Running it on an op runs each element in
//! order; a nested pass manager runs on every op *directly* inside the regions of the current
//! op whose name is its anchor (for `any`: every registered op that is isolated from above),
//! which is what MLIR's op-to-op adaptor does. [`PassManager`] is the root: it adds the
//! verifier after each pass, instrumentation (IR dumps), and the timing and statistics tables.

use crate::instrument::{render_statistics, PassInstrumentation, StatisticsDisplay, TimingEntry};
use crate::{Changed, Pass, Statistics};
use std::time::{Duration, Instant};
use tilus_ir::{Context, Diagnostic, OpId, Trait};

/// Which ops a pass manager runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Ops of this name (`func.func`).
    Op(String),
    /// Any op that is registered and isolated from above (`any(...)`).
    Any,
}

/// A pass in a pipeline, with what its runs have accumulated.
pub struct PassSlot {
    pass: Box<dyn Pass>,
    stats: Statistics,
    time: Duration,
}

impl PassSlot {
    /// The pass.
    pub fn pass(&self) -> &dyn Pass {
        &*self.pass
    }
    /// Counters reported by every run of this pass so far.
    pub fn statistics(&self) -> &Statistics {
        &self.stats
    }
    /// Wall time spent in the pass's `run` so far.
    pub fn time(&self) -> Duration {
        self.time
    }
}

/// A nested pass manager in a pipeline, with the time spent in it.
pub struct NestedSlot {
    pm: OpPassManager,
    time: Duration,
}

impl NestedSlot {
    /// The nested pipeline.
    pub fn pm(&self) -> &OpPassManager {
        &self.pm
    }
    /// Wall time spent running it (passes, verification and the walk to its ops).
    pub fn time(&self) -> Duration {
        self.time
    }
}

/// One entry of a pipeline.
pub enum Element {
    /// A pass run on the pipeline's op.
    Pass(PassSlot),
    /// A pipeline run on ops nested in the pipeline's op.
    Nested(NestedSlot),
}

impl Element {
    /// Wraps a pass.
    pub fn pass(pass: Box<dyn Pass>) -> Element {
        Element::Pass(PassSlot {
            pass,
            stats: Statistics::default(),
            time: Duration::ZERO,
        })
    }
}

/// A pipeline anchored on one kind of op.
pub struct OpPassManager {
    anchor: Anchor,
    elements: Vec<Element>,
}

impl OpPassManager {
    /// An empty pipeline on `anchor` (`"any"` means [`Anchor::Any`]).
    pub fn new(anchor: &str) -> OpPassManager {
        OpPassManager {
            anchor: if anchor == "any" {
                Anchor::Any
            } else {
                Anchor::Op(anchor.to_string())
            },
            elements: Vec::new(),
        }
    }
    /// Where it runs.
    pub fn anchor(&self) -> &Anchor {
        &self.anchor
    }
    /// The anchor as pipeline text writes it (`func.func`, `any`).
    pub fn anchor_name(&self) -> &str {
        match &self.anchor {
            Anchor::Op(n) => n,
            Anchor::Any => "any",
        }
    }
    /// The elements in order.
    pub fn elements(&self) -> &[Element] {
        &self.elements
    }
    /// Number of elements (passes and nested pipelines) at this level.
    pub fn len(&self) -> usize {
        self.elements.len()
    }
    /// Whether nothing is scheduled at this level.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }
    /// Appends an element as is (no anchor check: see [`crate::pipeline::build_pipeline`]).
    pub fn add_element(&mut self, e: Element) {
        self.elements.push(e);
    }
    /// Appends a nested pipeline.
    pub fn add_nested(&mut self, pm: OpPassManager) {
        self.elements.push(Element::Nested(NestedSlot {
            pm,
            time: Duration::ZERO,
        }));
    }
    /// The nested pipeline on `anchor` to append to: the last element when it is one on that
    /// anchor (so adjacent passes share one walk, as MLIR merges adjacent adaptors), else a new
    /// one.
    pub fn nest(&mut self, anchor: &str) -> &mut OpPassManager {
        let reuse = matches!(self.elements.last(), Some(Element::Nested(n)) if n.pm.anchor_name() == anchor);
        if !reuse {
            self.add_nested(OpPassManager::new(anchor));
        }
        match self.elements.last_mut() {
            Some(Element::Nested(n)) => &mut n.pm,
            _ => unreachable!("a nested pipeline was just ensured"),
        }
    }
    /// Appends a pass, nesting it under its anchor when that differs from this pipeline's op
    /// (MLIR's implicit nesting, used for `tilus-opt --some-pass`).
    pub fn add_pass_nesting(&mut self, pass: Box<dyn Pass>) {
        match (&self.anchor, pass.anchor()) {
            (Anchor::Op(mine), Some(theirs)) if mine != theirs => {
                self.nest(theirs).add_element(Element::pass(pass))
            }
            _ => self.add_element(Element::pass(pass)),
        }
    }
    /// Visits every pass, depth first, in pipeline order.
    pub fn for_each_pass(&self, f: &mut dyn FnMut(&PassSlot)) {
        for e in &self.elements {
            match e {
                Element::Pass(p) => f(p),
                Element::Nested(n) => n.pm.for_each_pass(f),
            }
        }
    }
    /// Whether this pipeline runs on `op`.
    fn matches(&self, ctx: &Context, op: OpId) -> bool {
        match &self.anchor {
            Anchor::Op(n) => ctx.op_name_str(op) == n,
            Anchor::Any => ctx
                .op_def(op)
                .is_some_and(|d| d.has(Trait::IsolatedFromAbove)),
        }
    }
}

impl std::fmt::Debug for OpPassManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OpPassManager({})", self.to_pipeline_string())
    }
}

/// The root pass manager: a pipeline plus what the run does around each pass.
pub struct PassManager {
    root: OpPassManager,
    verify_each: bool,
    instrumentations: Vec<Box<dyn PassInstrumentation>>,
}

/// What every level of a run shares.
struct RunEnv<'a> {
    verify_each: bool,
    instr: &'a mut [Box<dyn PassInstrumentation>],
}

impl PassManager {
    /// Runs `root`, verifying after each pass.
    pub fn new(root: OpPassManager) -> PassManager {
        PassManager {
            root,
            verify_each: true,
            instrumentations: Vec::new(),
        }
    }
    /// Turns the verifier after each pass on or off (`--verify-each`). Off is for debugging a
    /// pass that breaks the IR: the broken IR can then be printed.
    pub fn enable_verifier(&mut self, on: bool) {
        self.verify_each = on;
    }
    /// Adds an observer of every pass run (IR printing, custom tooling).
    pub fn add_instrumentation(&mut self, i: Box<dyn PassInstrumentation>) {
        self.instrumentations.push(i);
    }
    /// The pipeline.
    pub fn root(&self) -> &OpPassManager {
        &self.root
    }

    /// Runs the pipeline on `op`, which must match the root anchor. On failure the IR is left as
    /// the failing pass left it, and the errors say what went wrong.
    pub fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Vec<Diagnostic>> {
        let mut env = RunEnv {
            verify_each: self.verify_each,
            instr: &mut self.instrumentations,
        };
        if !self.root.matches(ctx, op) {
            let msg = match &self.root.anchor {
                Anchor::Op(n) => format!(
                    "can't run '{n}' pass manager on '{}' op",
                    ctx.op_name_str(op)
                ),
                Anchor::Any => format!(
                    "can't run 'any' pass manager on '{}' op: it is not a registered op isolated from above",
                    ctx.op_name_str(op)
                ),
            };
            let help = format!(
                "anchor the pipeline on the op it is given: '{}(...)'",
                ctx.op_name_str(op)
            );
            return Err(vec![Diagnostic::op(op, msg).with_help(help)]);
        }
        run_pipeline(&mut self.root, ctx, op, &mut env).map(|_| ())
    }

    /// `--dump-pass-pipeline`: MLIR's `Pass Manager with N passes:` and the pipeline, one element
    /// per line, every option at its value.
    pub fn dump(&self) -> String {
        format!(
            "Pass Manager with {} passes:\n{}\n\n",
            self.root.len(),
            self.root.to_pretty_string()
        )
    }

    /// Per-element wall times for the timing report, in pipeline order, nested pipelines as
    /// `'func.func' Pipeline` with their passes one level deeper.
    pub fn timing_entries(&self) -> Vec<TimingEntry> {
        let mut out = Vec::new();
        collect_timing(&self.root, 0, &mut out);
        out
    }

    /// `--pass-statistics`: MLIR's pass statistics report.
    pub fn statistics_report(&self, display: StatisticsDisplay) -> String {
        render_statistics(&self.root, display)
    }
}

fn collect_timing(pm: &OpPassManager, depth: usize, out: &mut Vec<TimingEntry>) {
    for e in &pm.elements {
        match e {
            Element::Pass(p) => out.push(TimingEntry {
                name: p.pass.class_name(),
                depth,
                wall: p.time,
            }),
            Element::Nested(n) => {
                out.push(TimingEntry {
                    name: format!("'{}' Pipeline", n.pm.anchor_name()),
                    depth,
                    wall: n.time,
                });
                collect_timing(&n.pm, depth + 1, out);
            }
        }
    }
}

/// Runs every element of `pm` on `op` (already known to match). Returns whether anything
/// reported a change.
fn run_pipeline(
    pm: &mut OpPassManager,
    ctx: &mut Context,
    op: OpId,
    env: &mut RunEnv,
) -> Result<bool, Vec<Diagnostic>> {
    let mut changed = false;
    for e in &mut pm.elements {
        match e {
            Element::Pass(slot) => changed |= run_pass(slot, ctx, op, env)?,
            Element::Nested(n) => {
                let start = Instant::now();
                let r = run_nested(&mut n.pm, ctx, op, env);
                n.time += start.elapsed();
                let nested_changed = r?;
                if nested_changed && env.verify_each {
                    // What nested passes did can break rules of the parent (symbol names).
                    let diags = tilus_ir::verify(ctx, op);
                    if !diags.is_empty() {
                        let help = format!(
                            "the IR was valid before the nested '{}' pipeline ran; \
                             --verify-each=false skips this check",
                            n.pm.anchor_name()
                        );
                        return Err(diags
                            .into_iter()
                            .map(|d| d.with_help(help.clone()))
                            .collect());
                    }
                }
                changed |= nested_changed;
            }
        }
    }
    Ok(changed)
}

/// Runs `pm` on each op directly inside `parent`'s regions that it anchors on. Siblings still
/// run after one fails, so every failing op is reported, as MLIR does.
fn run_nested(
    pm: &mut OpPassManager,
    ctx: &mut Context,
    parent: OpId,
    env: &mut RunEnv,
) -> Result<bool, Vec<Diagnostic>> {
    let mut targets = Vec::new();
    for &r in ctx.regions(parent) {
        for &b in ctx.region_blocks(r) {
            targets.extend(ctx.block_ops(b).filter(|&o| pm.matches(ctx, o)));
        }
    }
    let mut errors = Vec::new();
    let mut changed = false;
    for op in targets {
        if !ctx.is_alive(op) {
            continue;
        }
        match run_pipeline(pm, ctx, op, env) {
            Ok(c) => changed |= c,
            Err(d) => errors.extend(d),
        }
    }
    if errors.is_empty() {
        Ok(changed)
    } else {
        Err(errors)
    }
}

fn run_pass(
    slot: &mut PassSlot,
    ctx: &mut Context,
    op: OpId,
    env: &mut RunEnv,
) -> Result<bool, Vec<Diagnostic>> {
    if let Some(anchor) = slot.pass.anchor() {
        if anchor != ctx.op_name_str(op) {
            let msg = format!(
                "'{}' op trying to schedule pass '{}' on an unsupported operation: it runs on '{anchor}' ops",
                ctx.op_name_str(op),
                slot.pass.name()
            );
            return Err(vec![Diagnostic::op(op, msg)]);
        }
    }
    for i in env.instr.iter_mut() {
        i.before_pass(&*slot.pass, ctx, op);
    }
    let start = Instant::now();
    let result = slot.pass.run(ctx, op, &mut slot.stats);
    slot.time += start.elapsed();
    let result = match result {
        Ok(changed) if env.verify_each => {
            let diags = tilus_ir::verify(ctx, op);
            if diags.is_empty() {
                Ok(changed)
            } else {
                let help = format!(
                    "the IR was valid before pass '{}' ran on this '{}' op; \
                     --verify-each=false skips this check",
                    slot.pass.name(),
                    ctx.op_name_str(op)
                );
                Err(diags
                    .into_iter()
                    .map(|d| d.with_help(help.clone()))
                    .collect())
            }
        }
        Ok(changed) => Ok(changed),
        Err(d) if d.is_empty() => Err(vec![Diagnostic::op(
            op,
            format!("pass '{}' failed", slot.pass.name()),
        )]),
        Err(d) => Err(d),
    };
    match result {
        Ok(changed) => {
            for i in env.instr.iter_mut() {
                i.after_pass(&*slot.pass, ctx, op, changed);
            }
            Ok(changed == Changed::Yes)
        }
        Err(d) => {
            for i in env.instr.iter_mut() {
                i.after_pass_failed(&*slot.pass, ctx, op);
            }
            Err(d)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{parse_pipeline, Nesting};
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Records `(before|after|failed, pass, op name)` for each hook.
    struct Log(Rc<RefCell<Vec<String>>>);

    impl PassInstrumentation for Log {
        fn before_pass(&mut self, pass: &dyn Pass, ctx: &Context, op: OpId) {
            let sym = sym(ctx, op);
            self.0
                .borrow_mut()
                .push(format!("before {} {sym}", pass.name()));
        }
        fn after_pass(&mut self, pass: &dyn Pass, ctx: &Context, op: OpId, changed: Changed) {
            let sym = sym(ctx, op);
            self.0
                .borrow_mut()
                .push(format!("after {} {sym} {changed:?}", pass.name()));
        }
        fn after_pass_failed(&mut self, pass: &dyn Pass, ctx: &Context, op: OpId) {
            let sym = sym(ctx, op);
            self.0
                .borrow_mut()
                .push(format!("failed {} {sym}", pass.name()));
        }
    }

    fn sym(ctx: &Context, op: OpId) -> String {
        match ctx.get_attr(op, "sym") {
            Some(a) => tilus_ir::syntax::printer::attr_to_string(ctx, a),
            None => ctx.op_name_str(op).to_string(),
        }
    }

    const SRC: &str = r#""t.outer"() ({
  "t.inner"() ({
    "t.leaf"() {test.fail} : () -> ()
  }) {sym = "a"} : () -> ()
  "t.other"() : () -> ()
  "t.inner"() ({
    "t.inner"() {sym = "deep"} : () -> ()
  }) {sym = "b"} : () -> ()
}) : () -> ()
"#;

    fn setup() -> (Context, OpId) {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let pf = tilus_ir::parse(&mut ctx, SRC, "t.mlir").unwrap_or_else(|_| panic!("bad test IR"));
        let module = pf.module;
        let outer = ctx
            .block_ops(ctx.region_blocks(ctx.regions(module)[0])[0])
            .next()
            .unwrap();
        (ctx, outer)
    }

    fn run(text: &str, verify: bool) -> (Result<(), Vec<Diagnostic>>, Vec<String>, PassManager) {
        let (mut ctx, outer) = setup();
        let log = Rc::new(RefCell::new(Vec::new()));
        let mut pm = PassManager::new(parse_pipeline(text, Nesting::Explicit).unwrap());
        pm.enable_verifier(verify);
        pm.add_instrumentation(Box::new(Log(log.clone())));
        let r = pm.run(&mut ctx, outer);
        let l = log.borrow().clone();
        (r, l, pm)
    }

    #[test]
    fn nested_pipelines_run_on_direct_children_of_their_anchor() {
        let (r, log, pm) = run(
            "t.outer(t.inner(test-print-op-count),test-print-op-count)",
            true,
        );
        assert!(r.is_ok(), "{r:?}");
        // Only the two direct `t.inner` children; the one nested in "b" is not visited.
        assert_eq!(
            log,
            [
                "before test-print-op-count \"a\"",
                "after test-print-op-count \"a\" No",
                "before test-print-op-count \"b\"",
                "after test-print-op-count \"b\" No",
                "before test-print-op-count t.outer",
                "after test-print-op-count t.outer No",
            ]
        );
        let mut runs = Vec::new();
        pm.root().for_each_pass(&mut |p| {
            runs.push(p.statistics().entries.clone());
        });
        assert_eq!(runs[0][0], ("num-ops", "Number of ops counted", 4));
        assert_eq!(runs[0][1], ("num-runs", "Number of ops the pass ran on", 2));
        assert_eq!(runs[1][0].2, 6);
        let t = pm.timing_entries();
        let names: Vec<(usize, &str)> = t.iter().map(|e| (e.depth, e.name.as_str())).collect();
        assert_eq!(
            names,
            [
                (0, "'t.inner' Pipeline"),
                (1, "TestPrintOpCount"),
                (0, "TestPrintOpCount")
            ]
        );
    }

    #[test]
    fn a_failure_stops_the_pipeline_after_every_sibling_ran() {
        let (r, log, _) = run(
            "t.outer(t.inner(test-fail,test-print-op-count),test-print-op-count)",
            true,
        );
        let d = r.unwrap_err();
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("test.fail"), "{}", d[0].message);
        assert_eq!(
            log,
            [
                "before test-fail \"a\"",
                "failed test-fail \"a\"",
                "before test-fail \"b\"",
                "after test-fail \"b\" No",
                "before test-print-op-count \"b\"",
                "after test-print-op-count \"b\" No",
            ]
        );
    }

    #[test]
    fn changes_reach_the_instrumentation() {
        // (The verifier after each pass is tested end to end in test/passes/verify-each.mlir,
        // with registered ops it can reject.)
        let (r, log, _) = run("t.outer(test-print-op-count{annotate=true})", true);
        assert!(r.is_ok(), "{r:?}");
        assert_eq!(log[1], "after test-print-op-count t.outer Yes");
    }

    #[test]
    fn root_anchor_mismatch_is_an_error_on_the_op() {
        let (r, log, _) = run("func.func(test-fail)", true);
        let d = r.unwrap_err();
        assert_eq!(
            d[0].message,
            "can't run 'func.func' pass manager on 't.outer' op"
        );
        assert!(log.is_empty());
    }

    #[test]
    fn any_runs_only_on_registered_isolated_ops() {
        // Every op here is unregistered, so `any` finds nothing to run on below the root.
        let (r, log, _) = run("t.outer(any(test-fail))", true);
        assert!(r.is_ok(), "{r:?}");
        assert!(log.is_empty());
    }

    #[test]
    fn anchored_pass_in_any_pipeline_is_checked_at_run_time() {
        let (mut ctx, outer) = setup();
        let reg = [crate::testing::ANCHORED_FOR_TESTS];
        let ast = crate::pipeline::parse_pipeline_ast("t.outer(test-func-only)").unwrap();
        // Explicit nesting refuses it at parse time...
        assert!(crate::pipeline::build_pipeline(&ast, Nesting::Explicit, &reg).is_err());
        // ...while a root `any` pipeline accepts it and the run reports the mismatch.
        let ast = crate::pipeline::parse_pipeline_ast("any(test-func-only)").unwrap();
        let mut root = crate::pipeline::build_pipeline(&ast, Nesting::Explicit, &reg).unwrap();
        root.anchor = Anchor::Op("t.outer".into());
        let mut pm = PassManager::new(root);
        let d = pm.run(&mut ctx, outer).unwrap_err();
        assert!(
            d[0].message.contains(
                "'t.outer' op trying to schedule pass 'test-func-only' on an unsupported operation"
            ),
            "{}",
            d[0].message
        );
    }

    #[test]
    fn dump_matches_mlir() {
        let pm = PassManager::new(
            parse_pipeline("builtin.module(func.func(test-fail))", Nesting::Explicit).unwrap(),
        );
        assert_eq!(
            pm.dump(),
            "Pass Manager with 1 passes:\nbuiltin.module(\n  func.func(\n    test-fail{mode=error}\n  )\n)\n\n"
        );
    }
}
