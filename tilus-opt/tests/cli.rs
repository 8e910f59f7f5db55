//! `tilus-opt` as a user runs it: exit codes, output files, standard input, and snapshots of
//! printed IR and rendered diagnostics.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn tilus_opt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tilus-opt"))
}

fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = tilus_opt()
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
    let d = std::env::temp_dir().join(format!("tilus-opt-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const GOOD: &str = "func.func @add(%a: i32, %b: i32) -> i32 {\n  %0 = arith.addi %a, %b : i32\n  return %0 : i32\n}\n";
const BAD: &str = "func.func @add(%a: i32, %b: i64) -> i32 {\n  %0 = arith.addi %a, %b : i32\n  return %0 : i32\n}\n";

#[test]
fn prints_custom_and_generic_forms() {
    let o = run_stdin(&[], GOOD);
    assert!(o.status.success(), "{}", stderr(&o));
    insta::assert_snapshot!("custom_form", stdout(&o));
    let o = run_stdin(&["--print-op-generic"], GOOD);
    assert!(o.status.success());
    insta::assert_snapshot!("generic_form", stdout(&o));
}

#[test]
fn debuginfo_prints_location_aliases() {
    let o = run_stdin(&["--print-debuginfo"], GOOD);
    assert!(o.status.success());
    insta::assert_snapshot!("debuginfo", stdout(&o));
}

#[test]
fn type_mismatch_is_a_rendered_diagnostic_with_exit_1() {
    let o = run_stdin(&[], BAD);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty(), "nothing is printed on failure");
    insta::assert_snapshot!("type_mismatch", stderr(&o));
}

#[test]
fn mlir_style_diagnostics() {
    let o = run_stdin(&["--diagnostic-format=mlir"], BAD);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "<stdin>:2:23: error: use of value '%b' expects different type than prior uses: 'i32' vs 'i64'\n\
         <stdin>:1:25: note: '%b' is defined here with type 'i64'\n"
    );
}

#[test]
fn several_syntax_errors_in_one_run() {
    // The parser recovers at the next top-level op, so each broken function is reported.
    let src = "func.func @f() {\n  %0 = arith.constant : i32\n  return\n}\nfunc.func @g() -> i32 {\n  return %nope : i32\n}\nfunc.func @h( {\n}\n";
    let o = run_stdin(&["--diagnostic-format=mlir"], src);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("several_syntax_errors", stderr(&o));
}

#[test]
fn several_verifier_errors_in_one_run() {
    let src = "\"foo.a\"() : () -> ()\nfunc.func @f() {\n  return\n}\nfunc.func @f() -> i32 {\n  %c = arith.constant 1 : i64\n  return %c : i64\n}\n";
    let o = run_stdin(&["--diagnostic-format=mlir"], src);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("several_verifier_errors", stderr(&o));
}

#[test]
fn syntax_error_points_at_the_token() {
    let o = run_stdin(&[], "func.func @f() {\n  %0 = arith.constant 1 : i32\n  %1 = arith.addi %0 %0 : i32\n  return\n}\n");
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("syntax_error", stderr(&o));
}

#[test]
fn unknown_flag_is_usage_error_2() {
    let o = tilus_opt().arg("--no-such-flag").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--no-such-flag"));
}

#[test]
fn missing_input_file_is_error_1() {
    let o = tilus_opt().arg("/nonexistent/dir/x.mlir").output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot open input file '/nonexistent/dir/x.mlir'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn non_utf8_input_is_error_1() {
    let d = tmpdir("utf8");
    let f = d.join("bin.mlir");
    std::fs::write(&f, b"\"foo.a\"() : () -> ()\n\xff\xfe").unwrap();
    let o = tilus_opt().arg(&f).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not valid UTF-8"), "{}", stderr(&o));
}

#[test]
fn output_file_is_written_on_success_only() {
    let d = tmpdir("out");
    let input = d.join("in.mlir");
    let out = d.join("out.mlir");
    std::fs::write(&input, GOOD).unwrap();
    let o = tilus_opt()
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let printed = std::fs::read_to_string(&out).unwrap();
    assert!(printed.contains("arith.addi %arg0, %arg1 : i32"));

    // A failing run leaves the previous output untouched and no temporary files behind.
    std::fs::write(&input, BAD).unwrap();
    let o = tilus_opt()
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), printed);
    let names: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "only in.mlir and out.mlir: {names:?}");
}

#[test]
fn output_over_input_never_truncates_it_on_failure() {
    let d = tmpdir("inplace");
    let f = d.join("x.mlir");
    std::fs::write(&f, BAD).unwrap();
    let o = tilus_opt().arg(&f).arg("-o").arg(&f).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), BAD);
    std::fs::write(&f, GOOD).unwrap();
    let o = tilus_opt().arg(&f).arg("-o").arg(&f).output().unwrap();
    assert!(o.status.success());
    assert!(std::fs::read_to_string(&f).unwrap().starts_with("module {"));
}

#[test]
fn unwritable_output_is_error_1() {
    let o = run_stdin(&["-o", "/nonexistent/dir/out.mlir"], GOOD);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot write output file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn unregistered_ops_need_the_flag() {
    let src = "\"foo.bar\"() : () -> ()\n";
    let o = run_stdin(&["--diagnostic-format=mlir"], src);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("'foo.bar' op created with unregistered dialect"),
        "{}",
        stderr(&o)
    );
    let o = run_stdin(&["--allow-unregistered-dialect"], src);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "module {\n  \"foo.bar\"() : () -> ()\n}\n\n");
}

#[test]
fn split_input_file_keeps_line_numbers() {
    let src = "func.func @a() {\n  return\n}\n// -----\nfunc.func @b() -> i32 {\n  return\n}\n";
    let o = run_stdin(&["--split-input-file", "--diagnostic-format=mlir"], src);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("<stdin>:6:3: error: 'func.return' op has 0 operands"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn pass_flags_run_in_command_line_order() {
    // The first instance annotates the module, the second only counts; their order shows in
    // the dump of the pipeline.
    let o = run_stdin(
        &[
            "--dump-pass-pipeline",
            "--test-print-op-count=annotate=true",
            "--test-fail",
            "--test-print-op-count",
        ],
        GOOD,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with(
            "Pass Manager with 3 passes:\nbuiltin.module(\n  test-print-op-count{anchor=any annotate=true limit=-1 },\n  test-fail{mode=error},\n  test-print-op-count{anchor=any annotate=false limit=-1 }\n)\n\n"
        ),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).starts_with("module attributes {test.op_count = 4 : i64} {"));
}

#[test]
fn pipeline_errors_are_usage_errors_and_print_nothing() {
    let o = run_stdin(&["--pass-pipeline=builtin.module(nope)"], GOOD);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(
        stderr(&o).contains("'nope' does not refer to a registered pass (<pass-pipeline>:1:16)")
    );
}

#[test]
fn failing_pass_exits_1_and_leaves_the_output_file_alone() {
    let d = tmpdir("passfail");
    let out = d.join("out.mlir");
    std::fs::write(&out, "previous").unwrap();
    let src = "func.func @f() {\n  \"test.x\"() {test.fail = \"boom\"} : () -> ()\n  return\n}\n";
    let o = run_stdin(
        &[
            "--allow-unregistered-dialect",
            "--diagnostic-format=mlir",
            "--pass-pipeline=builtin.module(func.func(test-fail))",
            "-o",
            out.to_str().unwrap(),
        ],
        src,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "<stdin>:2:3: error: boom\n");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "previous");
}

#[test]
fn no_verify_also_turns_off_verify_each() {
    let src = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a {test.fail} : i32\n  return %0 : i32\n}\n";
    let args = ["--pass-pipeline=builtin.module(func.func(test-fail{mode=corrupt}))"];
    assert_eq!(run_stdin(&args, src).status.code(), Some(1));
    let o = run_stdin(&[args[0], "--no-verify"], src);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(": none"));
}

/// `-o /dev/null` (or any device or pipe) is written in place; the atomic temp-file-and-rename
/// used for regular files would replace the device node with a regular file.
#[cfg(unix)]
#[test]
fn output_to_a_device_keeps_the_device() {
    use std::os::unix::fs::FileTypeExt;
    let o = run_stdin(&["-o", "/dev/null"], "func.func @f() {\n  return\n}\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let ft = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(
        ft.is_char_device(),
        "/dev/null is no longer a character device"
    );
}

#[test]
fn eqsat_rule_file_errors_point_into_the_rule_file() {
    // Each bad rule file's report shows its own line with the offending token underlined
    // (not a line of the IR), and the pass fails with exit 1.
    let d = tmpdir("eqsat-rules");
    let cases = [
        (
            "malformed",
            "; an unclosed rule\n(rule \"open\" (arith.addi ?x (const 0)) ?x\n",
        ),
        (
            "unknown_op",
            "(rule \"typo\" (arith.mull ?x (const 2)) (arith.shli ?x (const 1)))\n",
        ),
        ("arity", "(rule \"one\"\n  (arith.addi ?x)\n  ?x)\n"),
        (
            "condition_arity",
            "(rule \"cond\" (arith.divui ?x ?c) (const 0)\n  (if (ult ?x)))\n",
        ),
        (
            "ill_typed_condition",
            "(rule \"cond\" (arith.select ?c ?x (const i32 0)) ?x\n  (if (ult ?c ?x)))\n",
        ),
    ];
    let src = "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n";
    for (name, text) in cases {
        let file = format!("{name}.eqs");
        std::fs::write(d.join(&file), text).unwrap();
        let mut child = tilus_opt()
            .current_dir(&d)
            .arg(format!(
                "--pass-pipeline=builtin.module(eqsat{{rules={file}}})"
            ))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(src.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        insta::assert_snapshot!(format!("eqsat_rules_{name}"), stderr(&o));
    }
}
