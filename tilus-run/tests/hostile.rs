//! Hostile input (issue 20): sizes that would abort an allocation, grids no GPU runs and grids
//! too large to interpret are reported before anything runs, at the op or argument; deep nesting
//! is a clear error. Exit 1, never an abort or a hang.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn run_stdin(args: &[&str], input: &str) -> Output {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilus-run"))
        .arg("-")
        .args(["--backend", "interp"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(20), "took {took:?}");
    o
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn expect_error(o: &Output, needle: &str) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains(needle), "expected {needle:?} in:\n{e}");
}

#[test]
fn a_huge_register_tile_is_an_error_at_its_op() {
    let k = "tilus.kernel @k() warps(1) blocks(affine_map<() -> (1)>) {\n\
             \x20 %t = tilus.register_tensor : !tilus.reg<65536x65536xf32>\n}\n";
    let o = run_stdin(&[], k);
    expect_error(
        &o,
        "a tile of 4294967296 elements is too large for the interpreter (at most 67108864) (<stdin>:2:8)",
    );
}

#[test]
fn a_huge_barrier_array_is_an_error_at_its_op() {
    let k = "tilus.kernel @k() warps(1) blocks(affine_map<() -> (1)>) {\n\
             \x20 %b = mbarrier.alloc : !mbarrier.barriers<100000000>\n}\n";
    let o = run_stdin(&[], k);
    expect_error(
        &o,
        "100000000 mbarriers do not fit in shared memory (at most 29056",
    );
}

const COPY: &str = "tilus.kernel @copy(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)\n\
    \x20   warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>) {\n\
    \x20 %c0 = arith.constant 0 : i32\n\
    \x20 %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>\n\
    \x20 %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>\n\
    \x20 %t = tilus.load_global %gx[%c0] : !tilus.global<?xf32> -> !tilus.reg<32xf32>\n\
    \x20 tilus.store_global %t, %gy[%c0] : !tilus.reg<32xf32>, !tilus.global<?xf32>\n}\n";

#[test]
fn a_buffer_too_large_to_allocate_is_an_error_at_its_parameter() {
    let o = run_stdin(&["--arg", "n=2147483647"], COPY);
    expect_error(
        &o,
        "the buffer for 'x' would be f32[2147483647] (2147483647 elements), more than a run may allocate",
    );
    let o = run_stdin(&["--arg", "n=64"], COPY);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

fn grid_kernel(map: &str) -> String {
    format!(
        "tilus.kernel @g(%n: i32) warps(1) blocks(affine_map<{map}>) {{\n  %b = tilus.block_id x\n}}\n"
    )
}

#[test]
fn a_grid_beyond_cuda_limits_is_refused_before_running() {
    // Before: 2^32 blocks were interpreted one by one and never finished.
    let o = run_stdin(&["--arg", "n=65536"], &grid_kernel("(d0) -> (d0 * 65536)"));
    expect_error(
        &o,
        "the grid (4294967296, 1, 1) exceeds CUDA's limit: 4294967296 blocks along x, at most 2147483647",
    );
    let o = run_stdin(&["--arg", "n=65536"], &grid_kernel("(d0) -> (1, d0)"));
    expect_error(&o, "65536 blocks along y, at most 65535");
}

#[test]
fn max_steps_bounds_the_work_across_blocks() {
    let o = run_stdin(
        &["--arg", "n=2147483647", "--max-steps", "100000"],
        &grid_kernel("(d0) -> (d0)"),
    );
    expect_error(&o, "the run exceeded the step limit (100000 steps)");
}

#[test]
fn nesting_past_the_limit_is_a_clear_error() {
    let k = format!(
        "tilus.kernel @k() warps(1) blocks(affine_map<() -> (1)>) attributes {{a = {}1{}}} {{\n}}\n",
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    let o = run_stdin(&[], &k);
    expect_error(&o, "nesting deeper than 10000 levels");
}

#[test]
fn errors_past_the_limit_are_counted_not_printed() {
    let o = run_stdin(&["--error-limit=5"], &"foo\n".repeat(150));
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert_eq!(e.matches("custom op 'foo' is unknown").count(), 5, "{e}");
    assert!(
        e.ends_with("error: 145 more errors not shown (--error-limit=5; 0 shows every error)\n"),
        "{e}"
    );
}
