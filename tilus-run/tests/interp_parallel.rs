//! Clusters in parallel give the sequential run's results (issue 19): the same memory, steps,
//! warnings and reports for every thread count, on kernels whose clusters are independent and on
//! kernels where they are not (a semaphore chain, the step limit across the grid, errors in
//! several blocks, a once-per-run warning repeated in every block).

mod interp_util;

use interp_util::*;
use tilus_ir::{Context, OpId};
use tilus_run::interp::{self, ArgValue, Options, Schedule};
use tilus_run::memory::GlobalMemory;
use tilus_run::tensor::{DType, Tensor};

/// What a run shows: its report or (blocks, steps, warnings), and every buffer's bytes after it.
fn observe(
    ctx: &Context,
    k: OpId,
    args: &[ArgValue],
    mem: &GlobalMemory,
    opts: &Options,
) -> (String, Vec<Vec<u8>>) {
    let mut mem = mem.clone();
    let shown = match interp::run(ctx, k, args, &mut mem, opts) {
        Ok(s) => format!(
            "ok: {} blocks, {} steps\n{}",
            s.ctas,
            s.steps,
            render(&s.warnings)
        ),
        Err(d) => format!("error:\n{}", render(&d)),
    };
    (shown, mem.buffers.into_iter().map(|b| b.bytes).collect())
}

/// Runs with 1 (sequential), 2, 3 and 5 threads and requires identical observations; returns
/// the sequential one.
fn same_for_every_thread_count(
    ctx: &Context,
    k: OpId,
    args: &[ArgValue],
    mem: &GlobalMemory,
    opts: &Options,
) -> (String, Vec<Vec<u8>>) {
    let with = |threads| {
        observe(
            ctx,
            k,
            args,
            mem,
            &Options {
                threads,
                ..opts.clone()
            },
        )
    };
    let seq = with(1);
    for t in [2, 3, 5] {
        let par = with(t);
        assert_eq!(seq.0, par.0, "the report differs with {t} threads");
        assert!(seq.1 == par.1, "the memory differs with {t} threads");
    }
    seq
}

fn i32t() -> DType {
    DType::Int {
        bits: 32,
        signedness: tilus_ir::types::Signedness::Signless,
    }
}

#[test]
fn independent_blocks() {
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "vector_add");
    let n = 20_000i64;
    let mut mem = GlobalMemory::default();
    let a = mem.add("a", &random(DType::F32, &[n], 1, -4.0, 4.0));
    let b = mem.add("b", &random(DType::F32, &[n], 2, -4.0, 4.0));
    let c = mem.add("c", &Tensor::zeros(DType::F32, &[n]));
    let args = [
        ArgValue::Buffer(a),
        ArgValue::Buffer(b),
        ArgValue::Buffer(c),
        ArgValue::Int(n),
    ];
    for schedule in [Schedule::Deterministic, Schedule::Random { seed: 9 }] {
        let opts = Options {
            schedule,
            ..Options::default()
        };
        let (shown, bytes) = same_for_every_thread_count(&ctx, k, &args, &mem, &opts);
        assert!(shown.starts_with("ok: 20 blocks"), "{shown}");
        assert_ne!(bytes[c], mem.buffers[c].bytes, "the kernel wrote c");
    }
}

#[test]
fn a_semaphore_chain_runs_as_in_order() {
    // Block b waits for the value b and then sets b + 1: every block but the first reads what
    // the one before it wrote, so each is run again in order after the speculative runs. 1030
    // blocks cross the merge's batch of 1024 clusters: the second batch's workers must see the
    // value the first batch left.
    let (ctx, m) = load_edited(
        "basic.mlir",
        &[(
            "@semaphore_chain(%s: !tilus.ptr<i32>) warps(1) blocks(affine_map<(d0) -> (2)>)",
            "@semaphore_chain(%s: !tilus.ptr<i32>) warps(1) blocks(affine_map<(d0) -> (1030)>)",
        )],
    );
    let k = kernel(&ctx, m, "semaphore_chain");
    let mut mem = GlobalMemory::default();
    let s = mem.add("s", &Tensor::zeros(i32t(), &[1]));
    let (shown, bytes) =
        same_for_every_thread_count(&ctx, k, &[ArgValue::Buffer(s)], &mem, &Options::default());
    assert!(shown.starts_with("ok: 1030 blocks"), "{shown}");
    assert_eq!(bytes[s], 1030i32.to_le_bytes());
    // Starting at 1: block 0 spins on a value only a later block could set; the deadlock is
    // block 0's, as in the sequential run, even though workers ran later blocks first.
    let mut mem = GlobalMemory::default();
    let s = mem.add("s", &Tensor::full(i32t(), &[1], 1.0));
    let (shown, _) =
        same_for_every_thread_count(&ctx, k, &[ArgValue::Buffer(s)], &mem, &Options::default());
    assert!(
        shown.starts_with("error:\n") && shown.contains("deadlock"),
        "{shown}"
    );
    assert!(shown.contains("block (0, 0, 0)"), "{shown}");
}

#[test]
fn the_step_limit_counts_over_the_whole_grid() {
    // 20 blocks of vector_add; the limit falls inside a middle block, whose report (its live
    // units, its op) must be the sequential run's.
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "vector_add");
    let n = 20_000i64;
    let mut mem = GlobalMemory::default();
    let a = mem.add("a", &random(DType::F32, &[n], 1, -4.0, 4.0));
    let c = mem.add("c", &Tensor::zeros(DType::F32, &[n]));
    let args = [
        ArgValue::Buffer(a),
        ArgValue::Buffer(a),
        ArgValue::Buffer(c),
        ArgValue::Int(n),
    ];
    let full = observe(&ctx, k, &args, &mem, &Options::default()).0;
    let steps: u64 = full
        .split(", ")
        .nth(1)
        .and_then(|s| s.strip_suffix(" steps\n"))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{full}"));
    let opts = Options {
        max_steps: steps / 2 + 3,
        ..Options::default()
    };
    let (shown, _) = same_for_every_thread_count(&ctx, k, &args, &mem, &opts);
    assert!(shown.contains("exceeded the step limit"), "{shown}");
}

#[test]
fn the_first_error_in_cluster_order_wins() {
    // c holds 4,000 elements but the view claims n = 20,000: blocks 3 to 19 all store out of
    // bounds (block 3 first, at element 4000). Workers meet those errors in any order; the
    // report is block 3's, and the memory holds what blocks 0 to 2 wrote before it.
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "vector_add");
    let n = 20_000i64;
    let mut mem = GlobalMemory::default();
    let a = mem.add("a", &random(DType::F32, &[n], 1, -4.0, 4.0));
    let c = mem.add("c", &Tensor::zeros(DType::F32, &[4_000]));
    let args = [
        ArgValue::Buffer(a),
        ArgValue::Buffer(a),
        ArgValue::Buffer(c),
        ArgValue::Int(n),
    ];
    let (shown, bytes) = same_for_every_thread_count(&ctx, k, &args, &mem, &Options::default());
    assert!(shown.contains("outside the buffer"), "{shown}");
    assert!(shown.contains("element [4000]"), "{shown}");
    assert_ne!(bytes[c], mem.buffers[c].bytes, "blocks 0 to 2 wrote c");
}

#[test]
fn a_once_per_run_warning_stays_once() {
    // The missed-phase warning is given once per wait and barrier in the whole run; with the
    // grid at 6 blocks every cluster meets it, and the merge keeps the first.
    let (ctx, m) = load_edited(
        "../litmus/parity_missed_phase.mlir",
        &[(
            "blocks(affine_map<(d0) -> (1)>)",
            "blocks(affine_map<(d0) -> (6)>)",
        )],
    );
    let k = kernel(&ctx, m, "parity_missed_phase");
    let mut mem = GlobalMemory::default();
    let y = mem.add("y", &Tensor::zeros(DType::F32, &[32]));
    let (shown, _) =
        same_for_every_thread_count(&ctx, k, &[ArgValue::Buffer(y)], &mem, &Options::default());
    assert!(shown.starts_with("ok: 6 blocks"), "{shown}");
    assert_eq!(shown.matches("possible missed phase").count(), 1, "{shown}");
}
