//! Bad input that tilus-run used to accept or report poorly (issue 20, second part): an
//! `--expect` file of another dtype, the most negative integer divided by -1 in a tile, an empty
//! grid from the arguments, and an input that is not UTF-8. Each is an error with exit 1.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilus-run"))
        .arg("-")
        .args(["--backend", "interp"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// Standard error on one line: the renderer wraps long messages at the terminal width.
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn expect_error(o: &Output, needle: &str) {
    expect_exit(o, 1, needle)
}

/// Exit 1 for bad input, 2 for a usage error (a wrong file or flag).
fn expect_exit(o: &Output, code: i32, needle: &str) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{e}");
    assert!(e.contains(needle), "expected {needle:?} in:\n{e}");
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tilus-run-bad-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A version-1 `.npy` file of `descr` (e.g. `<f8`) with the given raw little-endian data.
fn write_npy(path: &Path, descr: &str, shape: &[usize], data: &[u8]) {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    bytes.extend_from_slice(data);
    std::fs::write(path, bytes).unwrap();
}

/// y = 2 * x over 32 f32 elements.
const DOUBLE: &str = "\
tilus.kernel @double(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>) attributes {tilus.outputs = [\"y\"]} {
  %c0 = arith.constant 0 : i32
  %two = arith.constant 2.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %k = tilus.register_tensor init(%two : f32) : !tilus.reg<1xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<32xf32> -> !tilus.reg<32xf32>
  %r = tilus.mul %v, %k : (!tilus.reg<32xf32>, !tilus.reg<1xf32>) -> !tilus.reg<32xf32>
  tilus.store_global %r, %gy[%c0] : !tilus.reg<32xf32>, !tilus.global<32xf32>
}
";

#[test]
fn expect_checks_the_dtype_as_input_does() {
    let d = tmpdir("expect-dtype");
    // y is f32 ('<f4'); a float64 file of the right shape used to be compared as numbers.
    let f8 = d.join("y64.npy");
    write_npy(&f8, "<f8", &[32], &[0u8; 32 * 8]);
    let o = run_stdin(
        &["--expect", &format!("y={}", f8.display())],
        DOUBLE.as_bytes(),
    );
    // A usage error (exit 2), as a wrong --input file is.
    expect_exit(
        &o,
        2,
        "buffer 'y' holds f32 (stored as '<f4'), but the file holds '<f8'",
    );
    // The same values as '<f4' are read and compared (zeros in, zeros out).
    let f4 = d.join("y32.npy");
    write_npy(&f4, "<f4", &[32], &[0u8; 32 * 4]);
    let o = run_stdin(
        &[
            "--input",
            "x=zeros",
            "--expect",
            &format!("y={}", f4.display()),
        ],
        DOUBLE.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn most_negative_divided_by_minus_one_in_a_tile_is_an_error() {
    let k = "\
tilus.kernel @div() warps(1) blocks(affine_map<() -> (1)>) {
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %a = tilus.register_tensor init(%min : i32) : !tilus.reg<32xi32>
  %b = tilus.register_tensor init(%m1 : i32) : !tilus.reg<32xi32>
  %q = tilus.div %a, %b : (!tilus.reg<32xi32>, !tilus.reg<32xi32>) -> !tilus.reg<32xi32>
}
";
    let o = run_stdin(&[], k.as_bytes());
    expect_error(&o, "signed integer division overflow (-2147483648 Div -1");
    // Unsigned: 2^31 / (2^32 - 1) is an ordinary division.
    let ku = k.replace("xi32>", "xui32>").replace(": i32", ": ui32");
    let ku = ku
        .replace("-2147483648 : ui32", "2147483648 : ui32")
        .replace("-1 : ui32", "4294967295 : ui32");
    let o = run_stdin(&[], ku.as_bytes());
    let e = stderr(&o);
    assert!(!e.contains("overflow"), "{e}");
}

#[test]
fn an_empty_grid_from_the_arguments_is_refused() {
    let k = "\
tilus.kernel @k(%n: i32) warps(1) blocks(affine_map<(d0) -> (d0 ceildiv 128)>) {
}
";
    let o = run_stdin(&["--arg", "n=0"], k.as_bytes());
    expect_error(
        &o,
        "the grid extent x evaluates to 0: a launch needs at least one block along each axis",
    );
    let o = run_stdin(&["--arg", "n=1"], k.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_grid_from_the_arguments_must_be_whole_clusters() {
    let k = "\
tilus.kernel @k(%n: i32) warps(1) blocks(affine_map<(d0) -> (d0)>) cluster(2) {
}
";
    let o = run_stdin(&["--arg", "n=3"], k.as_bytes());
    expect_error(
        &o,
        "the grid (3, 1, 1) is not a multiple of the cluster (2, 1, 1)",
    );
}

#[test]
fn input_that_is_not_utf8_is_located_by_line_and_column() {
    let o = run_stdin(&[], b"// ok\n// caf\xc3\xa9 \xff\n");
    expect_error(
        &o,
        "input file '<stdin>' is not valid UTF-8: line 2, column 9 (byte offset 15, byte 0xff)",
    );
}

#[test]
fn an_npy_header_larger_than_its_data_is_refused_before_allocating() {
    let d = tmpdir("npy-huge");
    // 2^40 f32 elements claimed, none present: reading it used to size 4 TiB from the header.
    let f = d.join("x.npy");
    write_npy(&f, "<f4", &[1 << 40], &[]);
    let o = run_stdin(
        &["--input", &format!("x={}", f.display())],
        DOUBLE.as_bytes(),
    );
    expect_exit(
        &o,
        2,
        "has shape [1099511627776] of '<f4', but holds only 128 bytes in all",
    );
    let _ = std::fs::remove_dir_all(&d);
}
