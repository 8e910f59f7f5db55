//! TMA, mbarrier and pipeline kernels (test/run/pipeline.mlir), and the reports the
//! interpreter gives for broken variants of them.

mod interp_util;

use interp_util::*;
use tilus_run::interp::{self, ArgValue, Options, Schedule};
use tilus_run::memory::GlobalMemory;
use tilus_run::tensor::{DType, Tensor};

#[test]
fn tma_copy_with_partial_tiles() {
    let (ctx, m) = load("pipeline.mlir");
    let k = kernel(&ctx, m, "tma_copy");
    let (rows, cols) = (100i64, 72i64);
    let x = random(DType::F16, &[rows, cols], 11, -2.0, 2.0);
    let mut mem = GlobalMemory::default();
    let ix = mem.add("x", &x);
    let iy = mem.add("y", &Tensor::full(DType::F16, &[rows, cols], 7.0));
    let args = [
        ArgValue::Buffer(ix),
        ArgValue::Buffer(iy),
        ArgValue::Int(rows),
        ArgValue::Int(cols),
    ];
    let stats = run_ok(&ctx, k, &args, &mut mem, &Options::default());
    assert_eq!(stats.ctas, 4);
    assert!(stats.warnings.is_empty(), "{}", render(&stats.warnings));
    let y = mem.tensor(iy, &[rows, cols]);
    let want: Vec<f64> = x.data.iter().map(|v| 2.0 * v).collect();
    assert_close(&y, &want, 0.0, 0.0);
}

fn pipeline_run(
    edits: &[(&str, &str)],
    iters: i64,
    opts: &Options,
) -> (
    Result<interp::RunStats, Vec<tilus_ir::Diagnostic>>,
    Tensor,
    Vec<f64>,
) {
    let (ctx, m) = load_edited("pipeline.mlir", edits);
    let k = kernel(&ctx, m, "pipeline");
    let x = random(DType::F32, &[iters * 32, 64], 21, -1.0, 1.0);
    let mut mem = GlobalMemory::default();
    let ix = mem.add("x", &x);
    let iy = mem.add("y", &Tensor::zeros(DType::F32, &[32, 64]));
    let args = [
        ArgValue::Buffer(ix),
        ArgValue::Buffer(iy),
        ArgValue::Int(iters),
    ];
    let r = interp::run(&ctx, k, &args, &mut mem, opts);
    // Reference: the tiles summed in order, rounded to f32 after each add.
    let mut want = vec![0.0f32; 32 * 64];
    for i in 0..iters as usize {
        for (j, w) in want.iter_mut().enumerate() {
            *w += x.data[i * 32 * 64 + j] as f32;
        }
    }
    (
        r,
        mem.tensor(iy, &[32, 64]),
        want.into_iter().map(|v| v as f64).collect(),
    )
}

fn pipeline_err(edits: &[(&str, &str)]) -> tilus_ir::Diagnostic {
    let (r, _, _) = pipeline_run(edits, 7, &Options::default());
    match r {
        Ok(s) => panic!("expected a report, the run succeeded ({} steps)", s.steps),
        Err(mut d) => {
            assert_eq!(d.len(), 1);
            d.remove(0)
        }
    }
}

#[test]
fn pipeline_full_empty_barriers() {
    let (r, y, want) = pipeline_run(&[], 7, &Options::default());
    let stats = r.unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(stats.warnings.is_empty(), "{}", render(&stats.warnings));
    assert_close(&y, &want, 0.0, 0.0);
}

#[test]
fn pipeline_random_schedules_agree() {
    for seed in [1, 2, 3, 42, 1234] {
        let opts = Options {
            schedule: Schedule::Random { seed },
            ..Options::default()
        };
        let (r, y, want) = pipeline_run(&[], 8, &opts);
        r.unwrap_or_else(|d| panic!("seed {seed}: {}", render(&d)));
        assert_close(&y, &want, 0.0, 0.0);
    }
}

#[test]
fn missing_expect_tx_arrival_deadlocks() {
    // The producer never announces the bytes: the copy's complete_tx drives the tx-count
    // negative and the missing arrival keeps full[0] from completing.
    let d = pipeline_err(&[(
        "        mbarrier.arrive_expect_tx %full[%stage : i32], %stage_bytes : !mbarrier.barriers<3>\n",
        "",
    )]);
    let text = render1(&d);
    assert!(d.message.starts_with("deadlock"), "{text}");
    assert!(
        text.contains("barrier 0 of the mbarrier.alloc at the note below (phase 0, pending arrivals 1 of 1, tx-count -8192)"),
        "{text}"
    );
    assert!(text.contains("threads [32, 64)"), "{text}");
}

#[test]
fn wrong_initial_phase_deadlocks() {
    // The producer starts on parity 0: it waits for a phase of the fresh empty barrier that
    // nobody will complete, and the consumer waits for a stage that is never filled.
    let d = pipeline_err(&[(
        "%p0 = mbarrier.producer_initial_phase",
        "%p0 = mbarrier.consumer_initial_phase",
    )]);
    let text = render1(&d);
    assert!(d.message.starts_with("deadlock"), "{text}");
    assert!(
        text.contains("thread [0, 1) [1, 32)") || text.contains("threads [0, 32)"),
        "{text}"
    );
    assert!(
        text.contains("for the phase of parity 0 of barrier 0 of the mbarrier.alloc at the note below (phase 0, pending arrivals 32 of 32, tx-count 0)"),
        "{text}"
    );
}

#[test]
fn off_by_one_stage_count() {
    // The consumer's ring wraps after 4 stages instead of 3.
    let d = pipeline_err(&[(
        "%cwrap = arith.cmpi eq, %s1, %cS : i32",
        "%c4 = arith.constant 4 : i32\n      %cwrap = arith.cmpi eq, %s1, %c4 : i32",
    )]);
    assert!(
        d.message
            .contains("barrier index 3 is outside the 3 allocated barriers"),
        "{}",
        render1(&d)
    );
}

#[test]
fn wrong_expect_tx_bytes() {
    // 4 bytes too few announced: after the copy lands the tx-count is -4 and the phase never
    // completes.
    let d = pipeline_err(&[(
        "%stage_bytes = arith.constant 8192",
        "%stage_bytes = arith.constant 8188",
    )]);
    let text = render1(&d);
    assert!(d.message.starts_with("deadlock"), "{text}");
    assert!(
        text.contains("pending arrivals 0 of 1, tx-count -4"),
        "{text}"
    );
    assert!(
        text.contains("the expect_tx byte count is too small"),
        "{text}"
    );
    // 4 bytes too many: every arrival is in, 4 bytes never come.
    let d = pipeline_err(&[(
        "%stage_bytes = arith.constant 8192",
        "%stage_bytes = arith.constant 8196",
    )]);
    let text = render1(&d);
    assert!(
        text.contains("pending arrivals 0 of 1, tx-count 4"),
        "{text}"
    );
    assert!(text.contains("4 announced bytes never arrived"), "{text}");
}

#[test]
fn consumer_never_releases_a_slot() {
    let d = pipeline_err(&[(
        "      mbarrier.arrive %empty[%stage : i32] : !mbarrier.barriers<3>\n",
        "",
    )]);
    let text = render1(&d);
    assert!(d.message.starts_with("deadlock"), "{text}");
    // The producer waits for the first stage to come back; nobody arrives on it.
    assert!(
        text.contains("for the phase of parity 0 of barrier 0 of the mbarrier.alloc at the note below (phase 0, pending arrivals 32 of 32, tx-count 0); 32 more arrivals are needed"),
        "{text}"
    );
}

#[test]
fn reading_a_tma_destination_before_waiting() {
    let d = pipeline_err(&[(
        "      mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<3>\n",
        "",
    )]);
    assert!(
        d.message
            .contains("tilus.load_shared reads shared memory [0, 8192) that an unfinished TMA copy (tma.global_to_shared) writes"),
        "{}",
        render1(&d)
    );
}

#[test]
fn releasing_a_stage_before_reading_it() {
    // The consumer arrives on empty before loading: the producer refills the stage while
    // the consumer still reads it.
    let d = pipeline_err(&[
        (
            "      mbarrier.arrive %empty[%stage : i32] : !mbarrier.barriers<3>\n",
            "",
        ),
        (
            "      %v = tilus.load_shared %slot",
            "      mbarrier.arrive %empty[%stage : i32] : !mbarrier.barriers<3>\n      %v = tilus.load_shared %slot",
        ),
    ]);
    let text = render1(&d);
    assert!(
        text.contains("unfinished TMA copy (tma.global_to_shared)"),
        "{text}"
    );
}

#[test]
fn arrivals_beyond_the_expected_count() {
    let (ctx, m) = load("pipeline.mlir");
    let k = kernel(&ctx, m, "over_arrive");
    let d = run_err(&ctx, k, &[], &mut GlobalMemory::default());
    assert!(
        d.message.contains("arrivals beyond the expected count: threads [0, 128) arrive on barrier 0: 128 arrivals on a barrier that expects only 1 more in this phase"),
        "{}",
        render1(&d)
    );
}

#[test]
fn out_of_bounds_global_access() {
    // The view says 7 tiles of rows, the buffer holds 6.
    let (ctx, m) = load("pipeline.mlir");
    let k = kernel(&ctx, m, "pipeline");
    let mut mem = GlobalMemory::default();
    let ix = mem.add("x", &random(DType::F32, &[6 * 32, 64], 5, -1.0, 1.0));
    let iy = mem.add("y", &Tensor::zeros(DType::F32, &[32, 64]));
    let d = run_err(
        &ctx,
        k,
        &[ArgValue::Buffer(ix), ArgValue::Buffer(iy), ArgValue::Int(7)],
        &mut mem,
    );
    assert!(
        d.message
            .starts_with("'tma.global_to_shared': out-of-bounds access"),
        "{}",
        render1(&d)
    );
}

#[test]
fn consumer_phase_never_flips() {
    // The consumer keeps waiting on parity 0: in its second round it either reads a stage
    // whose refill is still in flight or finds that full[0] completed two phases since it
    // last looked.
    let d = pipeline_err(&[(
        "%np = arith.select %cwrap, %flip, %phase : i32",
        "%np = arith.select %cwrap, %phase, %phase : i32",
    )]);
    let text = render1(&d);
    assert!(
        text.contains("phases since they last observed it") || text.contains("unfinished TMA copy"),
        "{text}"
    );
}

#[test]
fn outstanding_async_work_is_a_warning() {
    let (ctx, m) = load("pipeline.mlir");
    let k = kernel(&ctx, m, "unwaited_prefetch");
    let mut mem = GlobalMemory::default();
    let ix = mem.add("x", &random(DType::F32, &[32, 64], 9, -1.0, 1.0));
    let s = run_ok(
        &ctx,
        k,
        &[ArgValue::Buffer(ix)],
        &mut mem,
        &Options::default(),
    );
    assert_eq!(s.warnings.len(), 1, "{}", render(&s.warnings));
    assert_eq!(s.warnings[0].severity, tilus_ir::Severity::Warning);
    assert!(
        s.warnings[0]
            .message
            .contains("outstanding asynchronous work at exit: 1 TMA copy (tma.global_to_shared)"),
        "{}",
        render(&s.warnings)
    );
}
