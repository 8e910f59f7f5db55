//! Hostile input (issue 20): no input makes `tilus-opt` panic, overflow its stack or take
//! quadratic time. Every huge input is generated here, not committed.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilus-opt"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    // Written from another thread: the tool may fill its output pipes before reading it all.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    o
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs and checks the run took less than `limit` (a quadratic step would take minutes).
fn run_within(limit: Duration, args: &[&str], input: &str) -> Output {
    let start = Instant::now();
    let o = run_stdin(args, input);
    let took = start.elapsed();
    assert!(took < limit, "took {took:?} (limit {limit:?})");
    o
}

#[test]
fn an_error_past_column_65536_is_rendered_with_its_exact_column() {
    // Before: miette's padding panicked ("Formatting argument out of range"), exit 101.
    let input = format!("func.func @f() {{\n{}foo\n}}\n", " ".repeat(70_000));
    let o = run_stdin(&[], &input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("(<stdin>:2:70001)"), "{e}");
    assert!(e.contains("[<stdin>:2:70001]"), "{e}");
    insta::assert_snapshot!("error_past_column_65536", e);
}

#[test]
fn a_deep_nest_on_one_line_reports_its_column() {
    let depth = 40_000;
    let input = format!("{}\n", "[".repeat(depth));
    let o = run_stdin(&[], &input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("nesting deeper than 10000 levels (<stdin>:1:10001)"),
        "{e}"
    );
}

fn top_level_errors(n: usize) -> String {
    "foo\n".repeat(n)
}

#[test]
fn errors_past_the_limit_are_counted_not_printed() {
    let o = run_within(Duration::from_secs(20), &[], &top_level_errors(50_000));
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert_eq!(e.matches("(<stdin>:").count(), 100, "{e}");
    assert!(
        e.ends_with(
            "error: 49900 more errors not shown (--error-limit=100; 0 shows every error)\n"
        ),
        "{}",
        &e[e.len().saturating_sub(300)..]
    );
    let o = run_within(
        Duration::from_secs(20),
        &["--error-limit=3"],
        &top_level_errors(5),
    );
    assert_eq!(stderr(&o).matches("(<stdin>:").count(), 3);
    assert!(stderr(&o)
        .ends_with("error: 2 more errors not shown (--error-limit=3; 0 shows every error)\n"));
}

#[test]
fn rendering_fifty_thousand_syntax_errors_is_linear() {
    // Before: 74 s (each report copied and rescanned the whole file).
    let o = run_within(
        Duration::from_secs(30),
        &["--error-limit=0"],
        &top_level_errors(50_000),
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert_eq!(e.matches("(<stdin>:").count(), 50_000);
    assert!(e.contains("(<stdin>:50000:1)"));
}

#[test]
fn rendering_twenty_thousand_verifier_errors_is_linear() {
    // Before: 78 s.
    let mut input = String::from("func.func @f(%a: i32) {\n");
    for i in 0..20_000 {
        input.push_str(&format!(
            "  %v{i} = \"arith.addi\"(%a, %a) : (i32, i32) -> i64\n"
        ));
    }
    input.push_str("  return\n}\n");
    let o = run_within(Duration::from_secs(30), &["--error-limit=0"], &input);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).matches("(<stdin>:").count(),
        20_000,
        "{}",
        &stderr(&o)[..2000.min(stderr(&o).len())]
    );
}

#[test]
fn verify_diagnostics_sees_every_error_beyond_the_limit() {
    let mut input = String::new();
    for _ in 0..300 {
        input.push_str("foo // expected-error {{custom op 'foo' is unknown}}\n");
    }
    let o = run_stdin(&["--verify-diagnostics"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

fn nested(open: &str, close: &str, n: usize, inner: &str) -> String {
    format!("{}{inner}{}\n", open.repeat(n), close.repeat(n))
}

#[test]
fn what_mlir_opt_accepts_is_accepted() {
    // mlir-opt 22 accepts 3,906 nested modules, 2,050 nested generic regions, 6,786 nested
    // arrays and 6,152 nested dictionaries; before, 2,000 modules were a bogus syntax error.
    let cases = [
        nested("module {", "}", 4_000, ""),
        nested("\"test.op\"() ({", "}) : () -> ()", 2_100, ""),
        format!(
            "\"test.op\"() {{a = {}}} : () -> ()\n",
            nested("[", "]", 6_800, "1").trim_end()
        ),
        format!(
            "\"test.op\"() {{a = {}}} : () -> ()\n",
            nested("{b = ", "}", 6_200, "0").trim_end()
        ),
    ];
    for input in &cases {
        let o = run_within(
            Duration::from_secs(30),
            &["--allow-unregistered-dialect", "--canonicalize", "--cse"],
            input,
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            &stderr(&o)[..stderr(&o).len().min(2000)]
        );
        let again = run_stdin(
            &["--allow-unregistered-dialect"],
            &String::from_utf8_lossy(&o.stdout),
        );
        assert_eq!(
            again.status.code(),
            Some(0),
            "the printed form parses again"
        );
    }
}

#[test]
fn deeper_than_the_limit_is_a_clear_error_not_a_stack_overflow() {
    // Before: exit 134 (stack overflow) for 100,000-deep regions and arrays.
    let cases = [
        (
            nested("\"test.op\"() ({", "}) : () -> ()", 100_000, ""),
            70_010,
        ),
        (
            format!(
                "\"test.op\"() {{a = {}}} : () -> ()\n",
                nested("[", "]", 100_000, "1").trim_end()
            ),
            10_017,
        ),
        (nested("module {", "}", 100_000, ""), 80_008),
        (
            format!(
                "\"test.op\"() : () -> {}\n",
                nested("tensor<", ">", 100_000, "f32").trim_end()
            ),
            70_027,
        ),
    ];
    for (input, col) in &cases {
        let o = run_within(
            Duration::from_secs(20),
            &["--allow-unregistered-dialect"],
            input,
        );
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(&format!(
                "nesting deeper than 10000 levels (<stdin>:1:{col})"
            )),
            "{e}"
        );
    }
}
