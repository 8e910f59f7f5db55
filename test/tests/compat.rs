//! MLIR compatibility corpus runner (`cargo test -p tilus-tests --test compat`).
//!
//! For every `test/compat/*.mlir` file this harness checks that `tilus-opt` reads and prints the
//! generic op form the way MLIR 22 does, using MLIR's own `mlir-opt` as the judge:
//!
//! * `compat/<file>::forward`: `mlir-opt` on the file gives `expected`; `tilus-opt` on the file
//!   gives `ours`; `mlir-opt` on `ours` must give exactly `expected`.
//! * `compat/<file>::backward`: `tilus-opt` reads `expected` (what MLIR prints); `mlir-opt` on
//!   what `tilus-opt` prints from it must again give exactly `expected`.
//! * `compat/<file>::custom`: `mlir-opt` on what `tilus-opt` prints in custom form (its
//!   default) must give exactly what `mlir-opt` gives on its own custom form of the file
//!   (plain mode only).
//! * `compat/<file>::stable`: `tilus-opt` on its own output prints the same text again.
//!
//! Every file gets the same three cases once more with debug info printed
//! (`--mlir-print-debuginfo` for `mlir-opt`, `--print-debuginfo` for `tilus-opt`), suffixed
//! `_debuginfo`.
//!
//! Both tools run in the workspace root and are given the file as the same relative path
//! (`test/compat/<file>`), so file locations that MLIR derives from source positions are the same
//! on both sides. Text is passed on standard input by giving no file argument, as `mlir-opt` does.
//!
//! `mlir-opt` is `$MLIR_OPT` when set, else `/usr/lib/llvm-22/bin/mlir-opt`, else `mlir-opt` on
//! `PATH`. Without it the `forward` and `backward` cases are reported as ignored (the `stable`
//! cases still run). When `tilus-opt` has not been built, every case that needs it fails with the
//! message saying how to build it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use tilus_tests::{tool_path, workspace_root};

/// Where `mlir-opt` is normally installed on the project's machines (LLVM 22 from Debian).
const DEFAULT_MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// The folder of the corpus, relative to the workspace root.
const CORPUS_DIR: &str = "test/compat";

/// Flags that make `mlir-opt` print what the corpus is compared on.
const MLIR_FLAGS: &[&str] = &["--allow-unregistered-dialect", "--mlir-print-op-generic"];

/// The matching `tilus-opt` flags.
const TILUS_FLAGS: &[&str] = &["--allow-unregistered-dialect", "--print-op-generic"];

/// Everything a test case needs, shared by all of them.
struct Env {
    /// Working directory of every tool run (the workspace root).
    root: PathBuf,
    /// `mlir-opt`, or why it could not be found.
    mlir_opt: Result<PathBuf, String>,
    /// `tilus-opt`, or the message of the failed lookup.
    tilus_opt: Result<PathBuf, String>,
}

/// Which flavour of output a case compares.
#[derive(Clone, Copy)]
enum Mode {
    /// Plain generic output (locations are not printed).
    Plain,
    /// Generic output with locations.
    DebugInfo,
}

impl Mode {
    /// The `mlir-opt` flags for this mode.
    fn mlir_flags(self) -> Vec<&'static str> {
        let mut flags = MLIR_FLAGS.to_vec();
        if let Mode::DebugInfo = self {
            flags.push("--mlir-print-debuginfo");
        }
        flags
    }

    /// The `tilus-opt` flags for this mode.
    fn tilus_flags(self) -> Vec<&'static str> {
        let mut flags = TILUS_FLAGS.to_vec();
        if let Mode::DebugInfo = self {
            flags.push("--print-debuginfo");
        }
        flags
    }

    /// What the case names of this mode end with.
    fn suffix(self) -> &'static str {
        match self {
            Mode::Plain => "",
            Mode::DebugInfo => "_debuginfo",
        }
    }
}

fn main() {
    let args = Arguments::from_args();
    let root = workspace_root();
    let mlir_opt = find_mlir_opt();
    if let Err(why) = &mlir_opt {
        println!("compat: forward/backward cases ignored: {why}");
    }
    let env = Arc::new(Env {
        root: root.clone(),
        mlir_opt,
        tilus_opt: find_tilus_opt(),
    });

    let files = match corpus_files(&root) {
        Ok(files) => files,
        Err(e) => {
            eprintln!(
                "compat: cannot list {}: {e}",
                root.join(CORPUS_DIR).display()
            );
            std::process::exit(1);
        }
    };

    let mut trials = Vec::new();
    for file in files {
        // Every file also runs with locations printed: each op's location must survive too.
        let modes = vec![Mode::Plain, Mode::DebugInfo];
        for mode in modes {
            let rel = format!("{CORPUS_DIR}/{file}");
            let no_mlir_opt = env.mlir_opt.is_err();
            let name = |case: &str| format!("compat/{file}::{case}{}", mode.suffix());

            let (e, r) = (env.clone(), rel.clone());
            trials.push(
                Trial::test(name("forward"), move || forward(&e, &r, mode))
                    .with_ignored_flag(no_mlir_opt),
            );
            let (e, r) = (env.clone(), rel.clone());
            trials.push(
                Trial::test(name("backward"), move || backward(&e, &r, mode))
                    .with_ignored_flag(no_mlir_opt),
            );
            if let Mode::Plain = mode {
                let (e, r) = (env.clone(), rel.clone());
                trials.push(
                    Trial::test(name("custom"), move || custom(&e, &r))
                        .with_ignored_flag(no_mlir_opt),
                );
            }
            let (e, r) = (env.clone(), rel);
            trials.push(Trial::test(name("stable"), move || stable(&e, &r, mode)));
        }
    }

    libtest_mimic::run(&args, trials).exit();
}

/// The corpus file names (`*.mlir` directly in [`CORPUS_DIR`]), sorted.
fn corpus_files(root: &Path) -> std::io::Result<Vec<String>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join(CORPUS_DIR))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".mlir") && entry.file_type()?.is_file() {
            files.push(name);
        }
    }
    files.sort();
    Ok(files)
}

/// Locates `mlir-opt`: `$MLIR_OPT`, then the LLVM 22 install, then `PATH`.
fn find_mlir_opt() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("MLIR_OPT").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!("MLIR_OPT={} is not a file", path.display()))
        };
    }
    let default = PathBuf::from(DEFAULT_MLIR_OPT);
    if default.is_file() {
        return Ok(default);
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join(format!("mlir-opt{}", std::env::consts::EXE_SUFFIX));
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(format!(
        "mlir-opt not found (set MLIR_OPT, install it at {DEFAULT_MLIR_OPT}, or put it on PATH)"
    ))
}

/// Looks up `tilus-opt` once; [`tool_path`] panics when it is not built, and that message becomes
/// the failure of every case that needs the tool.
fn find_tilus_opt() -> Result<PathBuf, String> {
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let found = std::panic::catch_unwind(|| tool_path("tilus-opt"));
    std::panic::set_hook(previous_hook);
    found.map_err(|payload| {
        if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else {
            "tilus-opt lookup panicked".to_string()
        }
    })
}

/// What to feed a tool: a file path (relative to the root) or text on standard input.
enum Input<'a> {
    /// A path relative to the workspace root, passed as the last argument.
    File(&'a str),
    /// Text written to the tool's standard input (no file argument).
    Stdin(&'a str),
}

/// Runs `tool flags... [file]` in `root`; returns its standard output, or a failure that quotes
/// the command, its exit status and its standard error (and the input when it came on stdin).
fn run_tool(root: &Path, tool: &Path, flags: &[&str], input: Input<'_>) -> Result<String, Failed> {
    let mut cmd = Command::new(tool);
    cmd.current_dir(root).args(flags);
    let stdin_text = match input {
        Input::File(path) => {
            cmd.arg(path).stdin(Stdio::null());
            None
        }
        Input::Stdin(text) => {
            cmd.stdin(Stdio::piped());
            Some(text)
        }
    };
    let shown = format!(
        "{} {}{}",
        tool.display(),
        flags.join(" "),
        match input {
            Input::File(path) => format!(" {path}"),
            Input::Stdin(_) => " < (text)".to_string(),
        }
    );
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    // Write stdin from another thread so a tool that prints before reading everything cannot
    // deadlock against a full pipe.
    let writer = stdin_text.map(|text| {
        let mut pipe = child.stdin.take().expect("piped stdin");
        let text = text.to_string();
        std::thread::spawn(move || {
            let _ = pipe.write_all(text.as_bytes());
        })
    });
    let output = child
        .wait_with_output()
        .map_err(|e| format!("`{shown}` did not finish: {e}"))?;
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    if !output.status.success() {
        let mut msg = format!(
            "`{shown}` failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        if let Some(text) = stdin_text {
            msg.push_str("\n--- its input ---\n");
            msg.push_str(text);
        }
        return Err(msg.into());
    }
    String::from_utf8(output.stdout)
        .map_err(|e| format!("`{shown}` printed invalid UTF-8: {e}").into())
}

impl Env {
    /// Runs `mlir-opt` in `mode`.
    fn mlir(&self, mode: Mode, input: Input<'_>) -> Result<String, Failed> {
        let tool = self.mlir_opt.as_ref().map_err(|why| why.clone())?;
        run_tool(&self.root, tool, &mode.mlir_flags(), input)
    }

    /// Runs `tilus-opt` in `mode`.
    fn tilus(&self, mode: Mode, input: Input<'_>) -> Result<String, Failed> {
        let tool = self.tilus_opt.as_ref().map_err(|why| why.clone())?;
        run_tool(&self.root, tool, &mode.tilus_flags(), input)
    }
}

/// `mlir-opt(tilus-opt(file)) == mlir-opt(file)`.
fn forward(env: &Env, rel: &str, mode: Mode) -> Result<(), Failed> {
    let expected = env.mlir(mode, Input::File(rel))?;
    let ours = env.tilus(mode, Input::File(rel))?;
    let actual = env.mlir(mode, Input::Stdin(&ours))?;
    compare(
        "mlir-opt(file)",
        &expected,
        "mlir-opt(tilus-opt(file))",
        &actual,
        Some(("tilus-opt(file)", &ours)),
    )
}

/// `mlir-opt(tilus-opt(mlir-opt(file))) == mlir-opt(file)`.
fn backward(env: &Env, rel: &str, mode: Mode) -> Result<(), Failed> {
    let expected = env.mlir(mode, Input::File(rel))?;
    let ours = env.tilus(mode, Input::Stdin(&expected))?;
    let actual = env.mlir(mode, Input::Stdin(&ours))?;
    compare(
        "mlir-opt(file)",
        &expected,
        "mlir-opt(tilus-opt(mlir-opt(file)))",
        &actual,
        Some(("tilus-opt(mlir-opt(file))", &ours)),
    )
}

/// `mlir-opt(tilus-opt custom(file)) == mlir-opt(mlir-opt custom(file))`: what `tilus-opt`
/// prints in custom form (its default) means to `mlir-opt` what `mlir-opt`'s own custom form of
/// the file means (a custom form may drop what the generic form keeps, e.g. empty `res_attrs`).
fn custom(env: &Env, rel: &str) -> Result<(), Failed> {
    let mlir = env.mlir_opt.as_ref().map_err(|e| e.clone())?;
    let theirs = run_tool(
        &env.root,
        mlir,
        &["--allow-unregistered-dialect"],
        Input::File(rel),
    )?;
    let expected = env.mlir(Mode::Plain, Input::Stdin(&theirs))?;
    let tilus = env.tilus_opt.as_ref().map_err(|e| e.clone())?;
    let ours = run_tool(
        &env.root,
        tilus,
        &["--allow-unregistered-dialect"],
        Input::File(rel),
    )?;
    let actual = env.mlir(Mode::Plain, Input::Stdin(&ours))?;
    compare(
        "mlir-opt(mlir-opt custom form(file))",
        &expected,
        "mlir-opt(tilus-opt custom form(file))",
        &actual,
        Some(("tilus-opt custom form(file)", &ours)),
    )
}

/// `tilus-opt(tilus-opt(file)) == tilus-opt(file)`.
fn stable(env: &Env, rel: &str, mode: Mode) -> Result<(), Failed> {
    let first = env.tilus(mode, Input::File(rel))?;
    let second = env.tilus(mode, Input::Stdin(&first))?;
    compare(
        "tilus-opt(file)",
        &first,
        "tilus-opt(tilus-opt(file))",
        &second,
        None,
    )
}

/// Succeeds when the texts are equal; otherwise fails with a line diff, followed by the
/// intermediate text (`extra`) that explains where the difference came from.
fn compare(
    left_name: &str,
    left: &str,
    right_name: &str,
    right: &str,
    extra: Option<(&str, &str)>,
) -> Result<(), Failed> {
    if left == right {
        return Ok(());
    }
    let mut msg = format!("outputs differ\n--- {left_name}\n+++ {right_name}\n");
    msg.push_str(&line_diff(left, right));
    if let Some((name, text)) = extra {
        msg.push_str(&format!("\n=== {name} ===\n{text}"));
        if !text.ends_with('\n') {
            msg.push('\n');
        }
    }
    Err(msg.into())
}

/// Lines of context shown around each change.
const CONTEXT: usize = 3;

/// One line of an edit script.
#[derive(Clone, Copy)]
enum Edit<'a> {
    /// In both texts.
    Same(&'a str),
    /// Only in the old text.
    Removed(&'a str),
    /// Only in the new text.
    Added(&'a str),
}

/// A small unified-style line diff (`-` lines only in `old`, `+` lines only in `new`), with
/// [`CONTEXT`] lines of context and `@@ line N @@` headers giving the line in `old`. Line-ending
/// differences that are otherwise invisible (a missing final newline) are reported explicitly.
fn line_diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let edits = edit_script(&a, &b);
    let mut out = String::new();

    // Which edit positions to show: every change plus CONTEXT lines either side.
    let mut show = vec![false; edits.len()];
    for (i, e) in edits.iter().enumerate() {
        if !matches!(e, Edit::Same(_)) {
            let lo = i.saturating_sub(CONTEXT);
            let hi = (i + CONTEXT + 1).min(edits.len());
            show[lo..hi].iter_mut().for_each(|s| *s = true);
        }
    }

    let mut old_line = 1;
    let mut in_hunk = false;
    for (i, e) in edits.iter().enumerate() {
        if show[i] {
            if !in_hunk {
                out.push_str(&format!("@@ line {old_line} @@\n"));
                in_hunk = true;
            }
            match e {
                Edit::Same(l) => out.push_str(&format!(" {l}\n")),
                Edit::Removed(l) => out.push_str(&format!("-{l}\n")),
                Edit::Added(l) => out.push_str(&format!("+{l}\n")),
            }
        } else {
            in_hunk = false;
        }
        if !matches!(e, Edit::Added(_)) {
            old_line += 1;
        }
    }
    if out.is_empty() {
        // Same lines; the difference is in line endings.
        out.push_str(&format!(
            "(equal lines; the line endings differ: old ends with {:?}, new ends with {:?})\n",
            tail(old),
            tail(new)
        ));
    }
    out
}

/// The last two characters of `s`, to show how it ends.
fn tail(s: &str) -> String {
    let start = s.char_indices().rev().nth(1).map_or(0, |(i, _)| i);
    s[start..].to_string()
}

/// A shortest edit script between two line lists (longest common subsequence; common prefix and
/// suffix are stripped first so the table stays small for the usual few-line differences).
fn edit_script<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Edit<'a>> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);

    let mut edits: Vec<Edit<'a>> = a[..prefix].iter().map(|l| Edit::Same(l)).collect();
    if ma.len().saturating_mul(mb.len()) > 4_000_000 {
        // Too large for the table: show the middle as fully replaced.
        edits.extend(ma.iter().map(|l| Edit::Removed(l)));
        edits.extend(mb.iter().map(|l| Edit::Added(l)));
    } else {
        // lcs[i][j] = LCS length of ma[i..] and mb[j..].
        let w = mb.len() + 1;
        let mut lcs = vec![0u32; (ma.len() + 1) * w];
        for i in (0..ma.len()).rev() {
            for j in (0..mb.len()).rev() {
                lcs[i * w + j] = if ma[i] == mb[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < ma.len() || j < mb.len() {
            if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
                edits.push(Edit::Same(ma[i]));
                i += 1;
                j += 1;
            } else if i < ma.len() && (j == mb.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])
            {
                edits.push(Edit::Removed(ma[i]));
                i += 1;
            } else {
                edits.push(Edit::Added(mb[j]));
                j += 1;
            }
        }
    }
    edits.extend(a[a.len() - suffix..].iter().map(|l| Edit::Same(l)));
    edits
}
