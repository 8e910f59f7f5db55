//! Input that is not text (issue 20): tilus-opt says where the first byte that is not UTF-8 is,
//! by line and column as its other diagnostics do, for a file and for standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilus-opt"))
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

/// The message on one line: the renderer wraps long messages at the terminal width.
fn unwrapped(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

const BAD: &[u8] = b"func.func private @f()\n// \xc3\xa9t\xc3\xa9 \xfe\n";

#[test]
fn invalid_utf8_on_stdin_is_located_by_line_and_column() {
    let o = run(&[], BAD);
    let e = unwrapped(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains(
            "input file '<stdin>' is not valid UTF-8: line 2, column 8 (byte offset 32, byte 0xfe)"
        ),
        "{e}"
    );
}

#[test]
fn invalid_utf8_in_a_file_is_located_by_line_and_column() {
    let p = std::env::temp_dir().join(format!("tilus-opt-bad-utf8-{}.mlir", std::process::id()));
    std::fs::write(&p, BAD).unwrap();
    let o = run(&[p.to_str().unwrap()], b"");
    let e = unwrapped(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("is not valid UTF-8: line 2, column 8 (byte offset 32, byte 0xfe)"),
        "{e}"
    );
    let _ = std::fs::remove_file(&p);
}
