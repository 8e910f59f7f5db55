//! `tilus-filecheck`: a FileCheck compatible with LLVM FileCheck 22, written in Rust.
//!
//! The tilus test suite is written in the LLVM/MLIR style (`// RUN: tilus-opt %s | FileCheck %s`
//! with `// CHECK:` lines). Shipping our own FileCheck keeps the suite runnable on machines
//! without an LLVM installation, while staying compatible with the real tool: the same check
//! files pass and fail under both, and failures are reported in the same format (including the
//! annotated input dump), so people can switch between them freely.
//!
//! Supported: `CHECK`, `-NEXT`, `-SAME`, `-NOT`, `-DAG`, `-LABEL`, `-EMPTY`, `-COUNT-n`, the
//! `{LITERAL}` modifier, `{{regex}}` (POSIX extended, leftmost-longest like LLVM), `[[VAR:regex]]`,
//! `[[VAR]]`, numeric blocks `[[#...]]` (formats, `+`/`-`, `add`..`min`, `@LINE`), custom check
//! and comment prefixes, `--strict-whitespace`, `--match-full-lines`, `--implicit-check-not`,
//! `--allow-empty`, `--ignore-case`, `--enable-var-scope`, `-D` (with LLVM's "Global defines"
//! report), `--dump-input*`, `-v`, `-vv`, `-color`; the command line follows LLVM's option
//! rules, down to its "Did you mean" suggestions.
//!
//! Entry points: [`run`] for a library caller that has both texts in memory, [`execute`] when the
//! caller also wants the exit status and diagnostics of a failure, and [`main_with_args`] for a
//! full command-line invocation (used by the `tilus-filecheck` binary).

#![warn(missing_docs)]

mod checker;
mod cli;
mod dump;
mod pattern;
mod posix_regex;
mod source;

use std::fmt;
use std::io::Read;

use checker::Checker;
use pattern::{Context, ParseContext};
use source::SourceMgr;

/// When to print the annotated input dump (`--dump-input`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpInput {
    /// Print the explanation of the dump format and stop.
    Help,
    /// Always print the dump.
    Always,
    /// Print the dump when a check fails (the default, as in LLVM).
    Fail,
    /// Never print the dump.
    Never,
}

/// Which input lines the dump shows (`--dump-input-filter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DumpInputFilter {
    /// All input lines.
    All,
    /// Lines with any annotation.
    AnnotationFull,
    /// Lines where an annotation starts.
    Annotation,
    /// Lines where an error annotation starts.
    Error,
}

/// FileCheck settings; the fields mirror the command-line options of the same names so that a
/// RUN line's flags translate one-to-one.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--check-prefix`/`--check-prefixes`; empty means the default `CHECK`.
    pub check_prefixes: Vec<String>,
    /// `--comment-prefixes`; None means the default `COM,RUN`.
    pub comment_prefixes: Option<Vec<String>>,
    /// `--implicit-check-not` patterns.
    pub implicit_check_not: Vec<String>,
    /// `-D` definitions (`NAME=VALUE` or `#[FMT,]NAME=EXPR`).
    pub defines: Vec<String>,
    /// `--strict-whitespace`: do not treat runs of spaces and tabs as equivalent.
    pub strict_whitespace: bool,
    /// `--match-full-lines`: positive matches must cover whole input lines.
    pub match_full_lines: bool,
    /// `--allow-empty`: accept an empty input.
    pub allow_empty: bool,
    /// `--ignore-case`.
    pub ignore_case: bool,
    /// `--enable-var-scope`: forget non-`$` variables at each CHECK-LABEL.
    pub enable_var_scope: bool,
    /// `--allow-unused-prefixes`.
    pub allow_unused_prefixes: bool,
    /// `--allow-deprecated-dag-overlap`.
    pub allow_deprecated_dag_overlap: bool,
    /// `--dump-input`.
    pub dump_input: DumpInput,
    /// `--dump-input-filter`; None picks LLVM's default for the dump mode.
    pub dump_input_filter: Option<DumpInputFilter>,
    /// `--dump-input-context`.
    pub dump_input_context: usize,
    /// `--color`: write diagnostics and the input dump with ANSI colours, as LLVM does when
    /// asked to or when standard error is a terminal.
    pub color: bool,
    /// `-v`: also report successful matches.
    pub verbose: bool,
    /// `-vv`.
    pub very_verbose: bool,
    /// Name of the input in messages (`<stdin>` when read from standard input).
    pub input_name: String,
    /// The command line echoed by the "input is empty" error (LLVM prints its argv there).
    pub command_line: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            check_prefixes: Vec::new(),
            comment_prefixes: None,
            implicit_check_not: Vec::new(),
            defines: Vec::new(),
            strict_whitespace: false,
            match_full_lines: false,
            allow_empty: false,
            ignore_case: false,
            enable_var_scope: false,
            allow_unused_prefixes: false,
            allow_deprecated_dag_overlap: false,
            dump_input: DumpInput::Fail,
            dump_input_filter: None,
            dump_input_context: 5,
            color: false,
            verbose: false,
            very_verbose: false,
            input_name: "<stdin>".to_string(),
            command_line: vec!["FileCheck".to_string()],
        }
    }
}

/// Result of a FileCheck invocation: the exit status LLVM FileCheck would return (0 pass,
/// 1 check failure, 2 invalid usage or check file) and what it prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Process exit status.
    pub exit_code: i32,
    /// Text for standard output (only `--help`-style requests write there).
    pub stdout: String,
    /// Diagnostics for standard error.
    pub stderr: String,
}

/// A failed check: the exit status and the rendered diagnostics, for callers of [`run`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// 1 when a check did not hold, 2 when the check file or options are invalid.
    pub exit_code: i32,
    /// Diagnostics in LLVM FileCheck's format.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// Checks `input` against the directives in `check_text` (named `check_name` in messages).
///
/// This is the convenient form for Rust callers; the error carries the diagnostics (with the
/// input dump unless `opts.dump_input` is [`DumpInput::Never`]).
pub fn run(check_text: &str, check_name: &str, input: &str, opts: &Options) -> Result<(), Failure> {
    let out = execute(check_text.as_bytes(), check_name, input.as_bytes(), opts);
    if out.exit_code == 0 {
        Ok(())
    } else {
        Err(Failure {
            exit_code: out.exit_code,
            message: out.stderr,
        })
    }
}

/// Collapses runs of spaces/tabs into one space (unless `strict`) and drops the `\r` of
/// `\r\n`, as LLVM does to both the check file and the input before anything else.
fn canonicalize(text: &[u8], strict: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if c == b'\r' && text.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        if strict || (c != b' ' && c != b'\t') {
            out.push(c);
            i += 1;
            continue;
        }
        out.push(b' ');
        while i + 1 < text.len() && (text[i + 1] == b' ' || text[i + 1] == b'\t') {
            i += 1;
        }
        i += 1;
    }
    out
}

fn validate_prefixes(
    kind: &str,
    prefixes: &[String],
    seen: &mut Vec<String>,
) -> Result<(), String> {
    for p in prefixes {
        if p.is_empty() {
            return Err(format!(
                "error: supplied {kind} prefix must not be the empty string"
            ));
        }
        if !p
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(format!(
                "error: supplied {kind} prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '{p}'"
            ));
        }
        if seen.contains(p) {
            return Err(format!("error: supplied {kind} prefix must be unique among check and comment prefixes: '{p}'"));
        }
        seen.push(p.clone());
    }
    Ok(())
}

/// The checks LLVM's driver makes before it opens the check file: the shape of each `-D`
/// (all reported), then the prefixes. User prefixes are checked against the defaults they
/// would clash with, but the defaults themselves are not reported.
fn precheck(opts: &Options) -> Result<(), Outcome> {
    let fail = |stderr: String| Outcome {
        exit_code: 2,
        stdout: String::new(),
        stderr,
    };
    let define_errors = pattern::check_define_syntax(&opts.defines);
    if !define_errors.is_empty() {
        return Err(fail(define_errors.join("\n") + "\n"));
    }
    let mut seen: Vec<String> = Vec::new();
    if opts.check_prefixes.is_empty() {
        seen.push("CHECK".to_string());
    }
    if opts.comment_prefixes.is_none() {
        seen.extend(["COM".to_string(), "RUN".to_string()]);
    }
    let no_comments = Vec::new();
    validate_prefixes("check", &opts.check_prefixes, &mut seen)
        .and_then(|_| {
            validate_prefixes(
                "comment",
                opts.comment_prefixes.as_ref().unwrap_or(&no_comments),
                &mut seen,
            )
        })
        .map_err(|e| fail(e + "\n"))
}

/// The parsed check file, ready to be run against an input.
struct Prepared {
    sm: SourceMgr,
    check_buf: usize,
    implicit_bufs: Vec<usize>,
    checks: Vec<checker::CheckString>,
    ctx: Context,
}

/// Validates the options and parses the check file (everything LLVM does before it opens the
/// input); Err carries the outcome of a failure.
fn prepare(check_text: &[u8], check_name: &str, opts: &Options) -> Result<Prepared, Outcome> {
    let fail = |code: i32, stderr: String| Outcome {
        exit_code: code,
        stdout: String::new(),
        stderr,
    };
    precheck(opts)?;
    let prefixes: Vec<String> = if opts.check_prefixes.is_empty() {
        vec!["CHECK".to_string()]
    } else {
        opts.check_prefixes.clone()
    };
    let comment_prefixes: Vec<String> = opts
        .comment_prefixes
        .clone()
        .unwrap_or_else(|| vec!["COM".to_string(), "RUN".to_string()]);
    let mut sm = SourceMgr {
        color: opts.color,
        ..SourceMgr::default()
    };
    let mut ctx = Context::default();
    let mut pctx = ParseContext::default();
    if !pattern::define_globals(&opts.defines, &mut sm, &mut ctx, &mut pctx) {
        return Err(fail(2, sm.out));
    }
    let check_buf = sm.add(check_name, canonicalize(check_text, opts.strict_whitespace));
    let first_implicit = sm.buffers.len();
    match checker::read_check_file(
        &mut sm,
        check_buf,
        opts,
        &prefixes,
        &comment_prefixes,
        &mut pctx,
    ) {
        Ok(file) => Ok(Prepared {
            sm,
            check_buf,
            implicit_bufs: (first_implicit..first_implicit + opts.implicit_check_not.len())
                .collect(),
            checks: file.checks,
            ctx,
        }),
        Err(code) => Err(fail(code, sm.out)),
    }
}

/// Runs FileCheck on in-memory texts and reports the exit status and output LLVM FileCheck
/// would produce for the same files and options.
pub fn execute(check_text: &[u8], check_name: &str, input: &[u8], opts: &Options) -> Outcome {
    if opts.dump_input == DumpInput::Help {
        return Outcome {
            exit_code: 0,
            stdout: DUMP_INPUT_HELP.to_string(),
            stderr: String::new(),
        };
    }
    match prepare(check_text, check_name, opts) {
        Ok(p) => finish(p, check_name, input, opts),
        Err(o) => o,
    }
}

fn finish(prepared: Prepared, check_name: &str, input: &[u8], opts: &Options) -> Outcome {
    let Prepared {
        mut sm,
        check_buf,
        implicit_bufs,
        checks,
        ctx,
    } = prepared;
    let mut outcome = Outcome {
        exit_code: 0,
        stdout: String::new(),
        stderr: String::new(),
    };
    if input.is_empty() && !opts.allow_empty {
        let mut msg = format!(
            "FileCheck error: '{}' is empty.\nFileCheck command line: ",
            opts.input_name
        );
        for a in &opts.command_line {
            msg.push(' ');
            msg.push_str(a);
        }
        msg.push('\n');
        outcome.exit_code = 2;
        outcome.stderr = msg;
        return outcome;
    }
    let input_text = canonicalize(input, opts.strict_whitespace);
    let input_buf = sm.add(&opts.input_name, input_text.clone());
    let want_dump = opts.dump_input != DumpInput::Never;
    let (ok, diags) = {
        let mut c = Checker {
            sm: &mut sm,
            input: input_buf,
            opts,
            ctx,
            diags: if want_dump { Some(Vec::new()) } else { None },
        };
        let ok = c.check_input(&checks);
        (ok, c.diags.take())
    };
    outcome.exit_code = if ok { 0 } else { 1 };
    let mut stderr = std::mem::take(&mut sm.out);
    if opts.dump_input == DumpInput::Always
        || (outcome.exit_code == 1 && opts.dump_input == DumpInput::Fail)
    {
        let filter = opts
            .dump_input_filter
            .unwrap_or(if opts.dump_input == DumpInput::Always {
                DumpInputFilter::All
            } else {
                DumpInputFilter::Error
            });
        stderr.push_str(&format!(
            "\nInput file: {}\nCheck file: {}\n\n-dump-input=help explains the following input dump.\n\n",
            opts.input_name, check_name
        ));
        let style = dump::Style {
            filter,
            context: opts.dump_input_context,
            color: opts.color,
            verbose: opts.verbose,
        };
        stderr.push_str(&dump::render(
            &sm,
            check_buf,
            &implicit_bufs,
            &input_text,
            diags.as_deref().unwrap_or(&[]),
            &style,
        ));
    }
    outcome.stderr = stderr;
    outcome
}

const DUMP_INPUT_HELP: &str = "\
The following description was requested by -dump-input=help to
explain the input dump printed by FileCheck.

Related command-line options:

  - -dump-input=<value> enables or disables the input dump
  - -dump-input-filter=<value> filters the input lines
  - -dump-input-context=<N> adjusts the context of filtered lines
  - -v and -vv add more annotations
  - -color forces colors to be enabled both in the dump and below
  - -help documents the above options in more detail

These options can also be set via FILECHECK_OPTS.  For example, for
maximum debugging output on failures:

  $ FILECHECK_OPTS='-dump-input-filter=all -vv -color' ninja check

Input dump annotation format:

  - L:     labels line number L of the input file
           An extra space is added after each input line to represent the
           newline character
  - T:L    labels the only match result for either (1) a pattern of type T from
           line L of the check file if L is an integer or (2) the I-th implicit
           pattern if L is \"imp\" followed by an integer I (index origin one)
  - T:L'N  labels the Nth match result for such a pattern
  - ^~~    marks good match (reported if -v)
  - !~~    marks bad match, such as:
           - CHECK-NEXT on same line as previous match (error)
           - CHECK-NOT found (error)
           - CHECK-DAG overlapping match (discarded, reported if -vv)
  - X~~    marks search range when no match is found, such as:
           - CHECK-NEXT not found (error)
           - CHECK-NOT not found (success, reported if -vv)
           - CHECK-DAG not found after discarded matches (error)
  - ?      marks fuzzy match when no match is found
  - ...    indicates elided input lines and annotations, as specified by
           -dump-input-filter and -dump-input-context
  - colors success, error, fuzzy match, discarded match, unmatched input
";

fn read_file(path: &str, stdin: &mut dyn Read) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut v = Vec::new();
        stdin.read_to_end(&mut v)?;
        Ok(v)
    } else {
        std::fs::read(path)
    }
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".to_string(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(k) => s[..k].to_string(),
                None => s,
            }
        }
    }
}

/// Runs a whole FileCheck command line (`args[0]` is the program name), reading the check file
/// and the input (from `stdin` unless `--input-file` is given), exactly as the binary does.
pub fn main_with_args(args: &[String], stdin: &mut dyn Read) -> Outcome {
    let cli = match cli::parse(args) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let mut opts = cli.opts;
    if opts.dump_input == DumpInput::Help {
        return execute(b"", "", b"", &opts);
    }
    let Some(check_file) = cli.check_file else {
        return Outcome {
            exit_code: 2,
            stdout: String::new(),
            stderr: "<check-file> not specified\n".to_string(),
        };
    };
    if let Err(o) = precheck(&opts) {
        return o;
    }
    let check_text = match read_file(&check_file, stdin) {
        Ok(t) => t,
        Err(e) => {
            return Outcome {
                exit_code: 2,
                stdout: String::new(),
                stderr: format!(
                    "Could not open check file '{check_file}': {}\n",
                    io_message(&e)
                ),
            }
        }
    };
    let check_name = if check_file == "-" {
        "<stdin>".to_string()
    } else {
        check_file.clone()
    };
    // Parse the check file first: its errors take precedence over input errors, as in LLVM.
    let prepared = match prepare(&check_text, &check_name, &opts) {
        Ok(p) => p,
        Err(o) => return o,
    };
    let input_path = cli.input_file.unwrap_or_else(|| "-".to_string());
    opts.input_name = if input_path == "-" {
        "<stdin>".to_string()
    } else {
        input_path.clone()
    };
    let input = match read_file(&input_path, stdin) {
        Ok(t) => t,
        Err(e) => {
            return Outcome {
                exit_code: 2,
                stdout: String::new(),
                stderr: format!(
                    "Could not open input file '{}': {}\n",
                    opts.input_name,
                    io_message(&e)
                ),
            }
        }
    };
    finish(prepared, &check_name, &input, &opts)
}

#[cfg(test)]
mod tests;
