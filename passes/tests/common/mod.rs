//! Shared helpers of the pass tests: parse text with every dialect registered, run one pass on
//! the module in-process, verify, and print (custom form, as `tilus-opt` prints).

#![allow(dead_code)]

use tilus_ir::{print_op, Context, OpId, PrintOptions};
use tilus_passes::{Changed, Pass, Statistics};

/// A context with every dialect registered and unregistered ops allowed.
pub fn context() -> Context {
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    ctx.allow_unregistered = true;
    ctx
}

/// Parses `src` into `ctx`; panics with the diagnostics on failure.
pub fn parse(ctx: &mut Context, src: &str) -> OpId {
    tilus_ir::parse(ctx, src, "input.mlir")
        .unwrap_or_else(|(d, _)| panic!("parse failed: {d:?}"))
        .module
}

/// Prints a module in custom form.
pub fn print(ctx: &Context, m: OpId) -> String {
    print_op(ctx, m, PrintOptions::default())
}

/// Runs `pass` on the module of `src`; returns the printed result, the statistics and whether
/// the pass reported a change. Panics when the pass fails or leaves invalid IR.
pub fn run(pass: &mut dyn Pass, src: &str) -> (String, Statistics, Changed) {
    let mut ctx = context();
    let m = parse(&mut ctx, src);
    let mut stats = Statistics::default();
    let changed = pass
        .run(&mut ctx, m, &mut stats)
        .unwrap_or_else(|d| panic!("pass failed: {d:?}"));
    let errs = tilus_ir::verify(&ctx, m);
    assert!(errs.is_empty(), "invalid IR after the pass: {errs:?}");
    (print(&ctx, m), stats, changed)
}

/// The value of a statistic (0 when not reported).
pub fn stat(stats: &Statistics, name: &str) -> u64 {
    stats
        .entries
        .iter()
        .find(|e| e.0 == name)
        .map_or(0, |e| e.2)
}

/// Compares line by line, so a failure shows the first differing line.
pub fn assert_same(actual: &str, expected: &str) {
    for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        assert_eq!(a, e, "line {} differs\n--- actual ---\n{actual}", i + 1);
    }
    assert_eq!(
        actual.lines().count(),
        expected.lines().count(),
        "line counts differ\n--- actual ---\n{actual}"
    );
}
