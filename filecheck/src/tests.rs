//! Unit tests of the checker through its public entry points. Expected outputs were taken from
//! LLVM FileCheck 22 on the same inputs.

use super::*;

fn opts(args: &[&str]) -> Options {
    let mut o = Options {
        dump_input: DumpInput::Never,
        ..Options::default()
    };
    for a in args {
        match *a {
            "--strict-whitespace" => o.strict_whitespace = true,
            "--match-full-lines" => o.match_full_lines = true,
            "--allow-empty" => o.allow_empty = true,
            "--ignore-case" => o.ignore_case = true,
            "--enable-var-scope" => o.enable_var_scope = true,
            "--allow-unused-prefixes" => o.allow_unused_prefixes = true,
            "-v" => o.verbose = true,
            a if a.starts_with("--check-prefixes=") => o
                .check_prefixes
                .extend(a["--check-prefixes=".len()..].split(',').map(String::from)),
            a if a.starts_with("--implicit-check-not=") => o
                .implicit_check_not
                .push(a["--implicit-check-not=".len()..].to_string()),
            a if a.starts_with("-D") => o.defines.push(a[2..].to_string()),
            other => panic!("unknown test option {other}"),
        }
    }
    o
}

fn check(check: &str, input: &str, args: &[&str]) -> Outcome {
    execute(check.as_bytes(), "t.txt", input.as_bytes(), &opts(args))
}

fn code(c: &str, i: &str, args: &[&str]) -> i32 {
    check(c, i, args).exit_code
}

#[test]
fn plain_checks_in_order() {
    assert_eq!(code("CHECK: a\nCHECK: b\n", "a\nb\n", &[]), 0);
    assert_eq!(code("CHECK: b\nCHECK: a\n", "a\nb\n", &[]), 1);
}

#[test]
fn next_same_empty() {
    assert_eq!(code("CHECK: a\nCHECK-NEXT: b\n", "a\nb\n", &[]), 0);
    assert_eq!(code("CHECK: a\nCHECK-NEXT: b\n", "a\nx\nb\n", &[]), 1);
    assert_eq!(code("CHECK: a\nCHECK-NEXT: b\n", "a b\n", &[]), 1);
    assert_eq!(code("CHECK: a\nCHECK-SAME: b\n", "a b\n", &[]), 0);
    assert_eq!(code("CHECK: a\nCHECK-SAME: b\n", "a\nb\n", &[]), 1);
    assert_eq!(
        code("CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n", "a\n\nb\n", &[]),
        0
    );
    assert_eq!(code("CHECK: a\nCHECK-EMPTY:\n", "a\nb\n\n", &[]), 1);
}

#[test]
fn not_dag_label_count() {
    assert_eq!(
        code("CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\nx\nb\n", &[]),
        1
    );
    assert_eq!(
        code("CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\nb\nx\n", &[]),
        0
    );
    assert_eq!(
        code("CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n", "a\nb\nc\n", &[]),
        0
    );
    assert_eq!(code("CHECK-DAG: a\nCHECK-DAG: a\n", "a\n", &[]), 1);
    assert_eq!(
        code(
            "CHECK-DAG: x\nCHECK-DAG: y\nCHECK-NOT: z\n",
            "y\nx\nz\n",
            &[]
        ),
        1
    );
    assert_eq!(code("CHECK-COUNT-3: a\n", "a\na\na\n", &[]), 0);
    assert_eq!(code("CHECK-COUNT-3: a\n", "a\na\n", &[]), 1);
    // A failure inside one CHECK-LABEL block does not stop the next block from being checked.
    let out = check(
        "CHECK-LABEL: f1\nCHECK: zz\nCHECK-LABEL: f2\nCHECK: yy\n",
        "f1\naa\nf2\nbb\n",
        &[],
    );
    assert_eq!(out.exit_code, 1);
    assert_eq!(out.stderr.matches("expected string not found").count(), 2);
}

#[test]
fn regex_and_variables() {
    assert_eq!(
        code(
            "CHECK: %[[V:[0-9]+]] = add\nCHECK: use %[[V]]\n",
            "%12 = add\nuse %12\n",
            &[]
        ),
        0
    );
    assert_eq!(
        code(
            "CHECK: %[[V:[0-9]+]] = add\nCHECK: use %[[V]]\n",
            "%12 = add\nuse %13\n",
            &[]
        ),
        1
    );
    // Same-line definition and use become a back-reference.
    assert_eq!(code("CHECK: [[X:[a-z]]] [[X]]\n", "a b\nc c\n", &[]), 0);
    // Leftmost-longest like LLVM's POSIX regex engine.
    assert_eq!(code("CHECK: [[X:a|ab]]\nCHECK-SAME: b\n", "ab\n", &[]), 1);
    // `\d` is a literal `d` in POSIX ERE.
    assert_eq!(code("CHECK: a{{\\d}}b\n", "a1b\n", &[]), 1);
    assert_eq!(code("CHECK: [[V]]\n", "foo\n", &["-DV=foo"]), 0);
}

#[test]
fn numeric_variables() {
    assert_eq!(
        code("CHECK: [[#N:]]\nCHECK: [[#N+1]]\n", "41\n42\n", &[]),
        0
    );
    assert_eq!(
        code("CHECK: [[#%x,N:]]\nCHECK: [[#N+1]]\n", "ff\n100\n", &[]),
        0
    );
    assert_eq!(code("\nCHECK: [[#@LINE]] [[@LINE-1]]\n", "2 1\n", &[]), 0);
}

#[test]
fn whitespace_and_full_lines() {
    assert_eq!(code("CHECK: a  b\n", "a\t\tb\n", &[]), 0);
    assert_eq!(code("CHECK: a b\n", "a  b\n", &["--strict-whitespace"]), 1);
    assert_eq!(code("CHECK: foo\n", " foo \n", &["--match-full-lines"]), 0);
    assert_eq!(
        code("CHECK: foo\n", "foo bar\n", &["--match-full-lines"]),
        1
    );
    assert_eq!(code("CHECK: FOO\n", "foo\n", &["--ignore-case"]), 0);
}

#[test]
fn prefixes_and_comments() {
    assert_eq!(code("XCHECK: nope\nCHECK: a\n", "a\n", &[]), 0);
    assert_eq!(
        code(
            "RUN: x | FileCheck %s CHECK: nope\nCOM: CHECK: nope\nCHECK: a\n",
            "a\n",
            &[]
        ),
        0
    );
    let out = check("A: x\n", "x\n", &["--check-prefixes=A,C,B"]);
    assert_eq!(out.exit_code, 2);
    assert_eq!(
        out.stderr,
        "error: no check strings found with prefixes 'B:', 'C:'\n"
    );
    assert_eq!(
        code(
            "A: x\n",
            "x\n",
            &["--check-prefixes=A,B", "--allow-unused-prefixes"]
        ),
        0
    );
    assert_eq!(code("", "x\n", &["--implicit-check-not=y"]), 0);
    assert_eq!(code("", "y\n", &["--implicit-check-not=y"]), 1);
}

#[test]
fn check_file_errors_exit_2() {
    assert_eq!(code("CHECK:\n", "a\n", &[]), 2);
    assert_eq!(code("CHECK-NEXT: a\n", "a\n", &[]), 2);
    assert_eq!(code("CHECK_NEXT: a\n", "a\n", &[]), 2);
    assert_eq!(code("CHECK: {{(}}\n", "a\n", &[]), 2);
    assert_eq!(code("CHECK: a\n", "", &[]), 2);
    assert_eq!(code("CHECK-NOT: a\n", "", &["--allow-empty"]), 0);
}

#[test]
fn diagnostics_match_llvm_format() {
    let out = check(
        "// CHECK: foo\n// CHECK-NEXT: baz\n",
        "foo\nbar\n  baz\n",
        &[],
    );
    assert_eq!(
        out.stderr,
        "t.txt:2:16: error: CHECK-NEXT: is not on the line after the previous match
// CHECK-NEXT: baz
               ^
<stdin>:3:2: note: 'next' match was here
 baz
 ^
<stdin>:1:4: note: previous match ended here
foo
   ^
<stdin>:2:1: note: non-matching line after previous match is here
bar
^
"
    );
    let out = check("CHECK: foobar\n", "xx\nfoobaz\n", &[]);
    assert_eq!(
        out.stderr,
        "t.txt:1:8: error: CHECK: expected string not found in input
CHECK: foobar
       ^
<stdin>:1:1: note: scanning from here
xx
^
<stdin>:2:1: note: possible intended match here
foobaz
^
"
    );
    let out = check("CHECK: a\nCHECK-NOT: bar\nCHECK: c\n", "a\n  bar\nc\n", &[]);
    assert_eq!(
        out.stderr,
        "t.txt:2:12: error: CHECK-NOT: excluded string found in input
CHECK-NOT: bar
           ^
<stdin>:2:2: note: found here
 bar
 ^~~
"
    );
}

#[test]
fn input_dump_on_failure() {
    let o = Options {
        dump_input: DumpInput::Fail,
        ..Options::default()
    };
    let out = execute(
        b"CHECK: foo\nCHECK-NEXT: qux\n",
        "t.txt",
        b"foo\nbar\nbaz\n",
        &o,
    );
    assert_eq!(out.exit_code, 1);
    assert!(
        out.stderr.ends_with(
            "
Input file: <stdin>
Check file: t.txt

-dump-input=help explains the following input dump.

Input was:
<<<<<<
        1: foo 
next:2        X error: no match found
        2: bar 
next:2     ~~~~
        3: baz 
next:2     ~~~~
>>>>>>
"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn run_api_reports_failure() {
    assert!(run("CHECK: a\n", "t", "a\n", &Options::default()).is_ok());
    let err = run("CHECK: b\n", "t", "a\n", &Options::default()).unwrap_err();
    assert_eq!(err.exit_code, 1);
    assert!(err
        .to_string()
        .contains("error: CHECK: expected string not found in input"));
}

#[test]
fn command_line_parsing() {
    let args = |v: &[&str]| -> Vec<String> { v.iter().map(|s| s.to_string()).collect() };
    let dir = std::env::temp_dir().join(format!("tilus-fc-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cf = dir.join("c.txt");
    std::fs::write(&cf, "ALT: hello\n").unwrap();
    let cfs = cf.to_string_lossy().to_string();
    let out = main_with_args(
        &args(&["FileCheck", &cfs, "--check-prefix", "ALT"]),
        &mut &b"hello\n"[..],
    );
    assert_eq!(out.exit_code, 0, "{}", out.stderr);
    let out = main_with_args(
        &args(&["FileCheck", "-check-prefix=ALT", &cfs, "--dump-input=never"]),
        &mut &b"bye\n"[..],
    );
    assert_eq!(out.exit_code, 1);
    let out = main_with_args(&args(&["FileCheck", &cfs, "--bogus"]), &mut &b""[..]);
    assert_eq!(out.exit_code, 1);
    let out = main_with_args(&args(&["FileCheck"]), &mut &b""[..]);
    assert_eq!(
        (out.exit_code, out.stderr.as_str()),
        (2, "<check-file> not specified\n")
    );
    let out = main_with_args(&args(&["FileCheck", "/nonexistent/c.txt"]), &mut &b""[..]);
    assert_eq!(out.exit_code, 2);
    assert_eq!(
        out.stderr,
        "Could not open check file '/nonexistent/c.txt': No such file or directory\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn padded_definition_beyond_regex_repetition_limit_is_an_error() {
    // LLVM FileCheck 22 crashes on these; a clean error at the block is the useful answer.
    for text in ["CHECK: [[#%.256x,A:]]\n", "CHECK: [[#%.4294967295,A:]]\n"] {
        let out = check(text, "5\n", &[]);
        assert_eq!(out.exit_code, 2, "{text}");
        assert!(
            out.stderr
                .contains("error: precision in format specifier is above 255"),
            "{}",
            out.stderr
        );
    }
    assert_eq!(code("CHECK: [[#%.3x,A:]]\n", "00f\n", &[]), 0);
}
