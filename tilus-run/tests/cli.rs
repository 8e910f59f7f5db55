//! `tilus-run` as a user runs it: exit codes, the report, `.npy` files, and snapshots of the
//! rendered errors (argument problems, kernel choice, backends, a deadlock).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn tilus_run() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tilus-run"))
}

/// Runs with the kernel text on standard input (so diagnostics name `<stdin>`).
fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = tilus_run()
        .arg("-")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The tool may exit before reading its input (e.g. on a bad flag): a broken pipe is fine.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tilus-run-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `s` with the folder `d` written as `[TMP]`, for snapshots.
fn redact(s: &str, d: &Path) -> String {
    s.replace(&d.display().to_string(), "[TMP]")
}

/// y = x + 1 over n elements, 128 per block; n has no default.
const ADD_ONE: &str = "\
tilus.kernel @add_one(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 128)>)
    attributes {tilus.outputs = [\"y\"]} {
  %bx = tilus.block_id x
  %c128 = arith.constant 128 : i32
  %one = arith.constant 1.0 : f32
  %off = arith.muli %bx, %c128 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %o = tilus.register_tensor init(%one : f32) : !tilus.reg<1xf32>
  %v = tilus.load_global %gx[%off] : !tilus.global<?xf32> -> !tilus.reg<128xf32>
  %r = tilus.add %v, %o : (!tilus.reg<128xf32>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32>
  tilus.store_global %r, %gy[%off] : !tilus.reg<128xf32>, !tilus.global<?xf32>
}
";

const DEADLOCK: &str = "\
tilus.kernel @stuck() warps(2) blocks(affine_map<() -> (1)>) {
  %c0 = arith.constant 0 : i32
  %bar = mbarrier.alloc counts [64] : !mbarrier.barriers<1>
  %phase = mbarrier.consumer_initial_phase
  threadgroup.single_warp {
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
    mbarrier.wait %bar[%c0 : i32], phase(%phase) : !mbarrier.barriers<1>
  }
}
";

#[test]
fn runs_and_reports() {
    let o = run_stdin(&["--arg", "n=300", "--backend", "interp"], ADD_ONE);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "kernel: @add_one (<stdin>)\n",
        "backend: interp\n",
        "grid: 3x1x1 blocks of 128 threads (4 warps)\n",
        "schedule: deterministic\n",
        "args: n=300\n",
        "inputs: x=random y=random (seed 0)\n",
        "output y: f32[300] sum=",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    // Only the named output is reported.
    assert!(!out.contains("output x"), "{out}");
}

/// Whether this machine has a usable GPU (the no-GPU tests below are skipped there).
fn has_gpu() -> bool {
    tilus_run::cuda::CudaBackend::open().is_ok()
}

#[test]
fn auto_backend_falls_back_with_a_note() {
    if has_gpu() {
        return;
    }
    let o = run_stdin(&["--arg", "n=8"], ADD_ONE);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.starts_with("tilus-run: no usable GPU (the CUDA backend is unavailable: ")
            && e.ends_with("); running on the CPU interpreter\n")
            && e.lines().count() == 1,
        "{e}"
    );
    assert!(stdout(&o).contains("backend: interp\n"));
}

#[test]
fn dump_ptx_needs_no_gpu() {
    let o = run_stdin(&["--dump-ptx", "--backend", "cuda"], ADD_ONE);
    assert!(o.status.success(), "{}", stderr(&o));
    let ptx = stdout(&o);
    assert!(ptx.contains(".target sm_90a\n"), "{ptx}");
    assert!(ptx.contains(".visible .entry add_one("), "{ptx}");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn missing_argument() {
    let o = run_stdin(&[], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    insta::assert_snapshot!("missing_arg", stderr(&o));
}

#[test]
fn extra_argument() {
    let o = run_stdin(&["--arg", "n=4", "--arg", "nope=1"], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    insta::assert_snapshot!("extra_arg", stderr(&o));
}

#[test]
fn malformed_argument() {
    let o = run_stdin(&["--arg", "n=abc"], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("bad_value", stderr(&o));
    // Out of range for i32, a flag value without '=': also usage errors, never a panic.
    let o = run_stdin(&["--arg", "n=99999999999"], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not fit i32"), "{}", stderr(&o));
    let o = run_stdin(&["--arg", "n"], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("expected NAME=VALUE"), "{}", stderr(&o));
}

#[test]
fn npy_of_the_wrong_shape() {
    let d = tmpdir("shape");
    let x = d.join("x.npy");
    let o = run_stdin(
        &["--arg", "n=5", "--output", &format!("x={}", x.display())],
        ADD_ONE,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run_stdin(
        &["--arg", "n=6", "--input", &format!("x={}", x.display())],
        ADD_ONE,
    );
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("bad_npy_shape", redact(&stderr(&o), &d));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn unknown_kernel() {
    let o = run_stdin(&["--kernel", "nope", "--arg", "n=1"], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("unknown_kernel", stderr(&o));
}

#[test]
fn cuda_backend_is_not_available() {
    if has_gpu() {
        return;
    }
    let o = run_stdin(&["--backend", "cuda"], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    insta::assert_snapshot!("cuda_unavailable", stderr(&o));
    let o = run_stdin(&["--compare-backends"], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    insta::assert_snapshot!("compare_backends_unavailable", stderr(&o));
    let o = run_stdin(&["--bench", "--arg", "n=8"], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--bench (timing on the GPU): the CUDA backend is unavailable"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn compare_cublas_needs_bench_and_a_gpu() {
    // Usage first, on any machine: --compare times beside --bench.
    let o = run_stdin(&["--compare", "cublas", "--arg", "n=8"], ADD_ONE);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    insta::assert_snapshot!("compare_cublas_needs_bench", stderr(&o));
    if has_gpu() {
        return;
    }
    let o = run_stdin(
        &[
            "--backend",
            "cuda",
            "--bench",
            "--compare",
            "cublas",
            "--arg",
            "n=8",
        ],
        ADD_ONE,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    insta::assert_snapshot!("compare_cublas_unavailable", stderr(&o));
}

#[test]
fn deadlock_is_reported_with_spans() {
    let o = run_stdin(&["--backend", "interp"], DEADLOCK);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    insta::assert_snapshot!("deadlock", stderr(&o));
}

#[test]
fn npy_round_trip_and_expect() {
    let d = tmpdir("roundtrip");
    let x = d.join("x.npy");
    let y = d.join("y.npy");
    let o = run_stdin(
        &[
            "--arg",
            "n=200",
            "--seed",
            "11",
            "--output",
            &format!("x={}", x.display()),
            "--output",
            &format!("y={}", y.display()),
        ],
        ADD_ONE,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Same inputs from the file: y matches exactly.
    let o = run_stdin(
        &[
            "--arg",
            "n=200",
            "--input",
            &format!("x={}", x.display()),
            "--expect",
            &format!("y={}", y.display()),
        ],
        ADD_ONE,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(" ok (max abs err 0, max rel err 0; atol 1e-5, rtol 1e-5)"),
        "{}",
        stdout(&o)
    );
    // Other random inputs: a mismatch, status 1, with the first bad index and both values.
    let o = run_stdin(
        &["--arg", "n=200", "--expect", &format!("y={}", y.display())],
        ADD_ONE,
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("MISMATCH: "), "{out}");
    assert!(
        out.contains("of 200 elements differ; first at [0]: got "),
        "{out}"
    );
    assert!(stderr(&o).contains("check failed: 'y' differs from"));
    // No temporary files are left next to the outputs.
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn failed_run_writes_no_output() {
    let d = tmpdir("nowrite");
    let out = d.join("out.npy");
    let src = DEADLOCK.replace(
        "tilus.kernel @stuck()",
        "tilus.kernel @stuck(%p: !tilus.ptr<f32>)",
    );
    let src = src.replace("affine_map<() -> (1)>", "affine_map<(d0) -> (1)>");
    let o = run_stdin(&["--output", &format!("p={}", out.display())], &src);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn invalid_ir_is_error_1() {
    let o = run_stdin(
        &[],
        "tilus.kernel @k() warps(0) blocks(affine_map<() -> (1)>) {}\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("expects warps in [1, 32], but found 0"),
        "{}",
        stderr(&o)
    );
    let o = tilus_run().arg("/nonexistent/dir/x.mlir").output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot open input file '/nonexistent/dir/x.mlir'"));
}

#[test]
fn bad_defaults_point_at_the_attribute() {
    let src = ADD_ONE.replace(
        "attributes {tilus.outputs = [\"y\"]}",
        "attributes {tilus.args = {nn = 4 : i32}, tilus.outputs = [\"y\"]}",
    );
    let o = run_stdin(&[], &src);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("'tilus.args' names 'nn', which is not a parameter"),
        "{err}"
    );
    assert!(err.contains("<stdin>:3:17"), "{err}");
}

#[cfg(unix)]
#[test]
fn output_to_a_device_is_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    // `--output y=/dev/null` writes the device, never renames a temporary file over it.
    let o = run_stdin(
        &[
            "--backend",
            "interp",
            "--arg",
            "n=128",
            "--output",
            "y=/dev/null",
        ],
        ADD_ONE,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let t = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(t.is_char_device(), "/dev/null was replaced: {t:?}");
}

#[test]
fn unwritable_output_is_error_1() {
    let d = tmpdir("unwritable");
    let out = d.join("no-such-dir").join("y.npy");
    let o = run_stdin(
        &[
            "--backend",
            "interp",
            "--arg",
            "n=128",
            "--output",
            &format!("y={}", out.display()),
        ],
        ADD_ONE,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        redact(&stderr(&o), &d).contains("--output y=[TMP]/no-such-dir/y.npy: cannot write"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// `--threads N` and `TILUS_INTERP_THREADS` choose the interpreter's threads (the report is the
/// same for every count, the `--timing` row says how many ran); a count that is not a positive
/// integer is a usage error naming where it came from.
#[test]
fn interpreter_threads() {
    let base = ["--arg", "n=300", "--backend", "interp"];
    let strip_wall = |s: String| -> String {
        s.lines()
            .filter(|l| !l.starts_with("wall time:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let one = run_stdin(
        &[&base[..], &["--threads", "1", "--timing"]].concat(),
        ADD_ONE,
    );
    let three = run_stdin(
        &[&base[..], &["--threads", "3", "--timing"]].concat(),
        ADD_ONE,
    );
    assert!(one.status.success() && three.status.success());
    assert_eq!(strip_wall(stdout(&one)), strip_wall(stdout(&three)));
    assert!(stderr(&one).contains("3 blocks, "), "{}", stderr(&one));
    assert!(
        stderr(&one).contains(" steps, 1 thread\n"),
        "{}",
        stderr(&one)
    );
    assert!(
        stderr(&three).contains(" steps, 3 threads\n"),
        "{}",
        stderr(&three)
    );

    let zero = run_stdin(&[&base[..], &["--threads", "0"]].concat(), ADD_ONE);
    assert_eq!(zero.status.code(), Some(2), "{}", stderr(&zero));
    assert!(stderr(&zero).contains("--threads 0: expected at least 1 thread"));

    let mut child = tilus_run()
        .arg("-")
        .args(base)
        .env("TILUS_INTERP_THREADS", "many")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn tilus-run");
    use std::io::Write as _;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(ADD_ONE.as_bytes())
        .expect("write the kernel");
    let bad = child.wait_with_output().expect("tilus-run runs");
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(
        stderr(&bad)
            .contains("TILUS_INTERP_THREADS=\"many\": expected a positive number of threads"),
        "{}",
        stderr(&bad)
    );
}
