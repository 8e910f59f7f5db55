//! What `tilus-opt` prints, `tilus-run` runs (`cargo test -p tilus-tests --test opt_then_run`).
//!
//! For every example with a kernel, the run of the file as written is the baseline: its exit
//! status and, for each kernel, the `output`/`check` lines of its report (sums and hashes of
//! every output buffer, the verdict of each check). The same kernels must give exactly that
//! after printing and reading back, in each of these ways:
//!
//! * `tilus-opt FILE | tilus-run -` (custom form);
//! * `tilus-opt FILE --print-op-generic | tilus-run -` (generic form);
//! * `tilus-opt FILE --print-op-generic | mlir-opt --allow-unregistered-dialect
//!   --mlir-print-op-generic | tilus-run -` (MLIR 22 in between, when installed);
//! * `tilus-opt FILE --canonicalize --cse | tilus-run -` (after passes);
//! * `tilus-run FILE --pass-pipeline='builtin.module(canonicalize,cse)'` (passes inside tilus-run);
//! * `tilus-run FILE --pass-pipeline='builtin.module(eqsat,canonicalize,cse)'` (the integer
//!   arithmetic rewritten by equality saturation).
//!
//! Step counts and wall times may differ (passes remove ops); outputs and verdicts may not.

use libtest_mimic::{Arguments, Failed, Trial};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tilus_tests::{tool_path, workspace_root};

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// Exit status and the lines that carry results: which kernel, its outputs and its checks.
fn verdict(status: Option<i32>, stdout: &str) -> (Option<i32>, Vec<String>) {
    let lines = stdout
        .lines()
        .filter(|l| {
            l.starts_with("output ")
                || l.starts_with("check ")
                || l.starts_with("args:")
                || l.starts_with("grid:")
                || l.starts_with("all ")
        })
        .map(str::to_string)
        .collect();
    (status, lines)
}

fn run(cmd: &mut Command, stdin: Option<&[u8]>) -> Result<(Option<i32>, String, String), Failed> {
    let mut child = cmd
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("TILUS_NO_PROGRESS", "1")
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().expect("piped");
        let input = input.to_vec();
        // Written from a thread so a child that fills its stdout first cannot deadlock us.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{cmd:?}: {e}"))?;
    Ok((
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// `tilus-opt FILE FLAGS...`, optionally through mlir-opt, as bytes for tilus-run's stdin.
fn printed(file: &Path, flags: &[&str], through_mlir_opt: bool) -> Result<Vec<u8>, Failed> {
    let (code, text, err) = run(
        Command::new(tool_path("tilus-opt")).arg(file).args(flags),
        None,
    )?;
    if code != Some(0) {
        return Err(format!("tilus-opt {} {flags:?} failed:\n{err}", file.display()).into());
    }
    if !through_mlir_opt {
        return Ok(text.into_bytes());
    }
    let (code, text, err) = run(
        Command::new(MLIR_OPT).args(["--allow-unregistered-dialect", "--mlir-print-op-generic"]),
        Some(text.as_bytes()),
    )?;
    if code != Some(0) {
        return Err(format!("mlir-opt rejected tilus-opt's generic output:\n{err}").into());
    }
    Ok(text.into_bytes())
}

fn check(file: &Path, mode: &str) -> Result<(), Failed> {
    let run_tool = || {
        let mut c = Command::new(tool_path("tilus-run"));
        c.args(["--backend", "interp"]);
        c
    };
    let (code, out, err) = run(run_tool().arg(file), None)?;
    let want = verdict(code, &out);
    if want.1.is_empty() {
        return Err(format!("the baseline run printed no outputs:\n{out}\n{err}").into());
    }
    let (code, out, err) = match mode {
        "pass-pipeline" => run(
            run_tool()
                .arg(file)
                .arg("--pass-pipeline=builtin.module(canonicalize,cse)"),
            None,
        )?,
        "eqsat" => run(
            run_tool()
                .arg(file)
                .arg("--pass-pipeline=builtin.module(eqsat,canonicalize,cse)"),
            None,
        )?,
        _ => {
            let text = match mode {
                "custom" => printed(file, &[], false)?,
                "generic" => printed(file, &["--print-op-generic"], false)?,
                "mlir-opt" => printed(file, &["--print-op-generic"], true)?,
                "canonicalize-cse" => printed(file, &["--canonicalize", "--cse"], false)?,
                other => return Err(format!("unknown mode {other}").into()),
            };
            run(run_tool().arg("-"), Some(&text))?
        }
    };
    let got = verdict(code, &out);
    if got != want {
        return Err(format!(
            "{mode}: the run differs from the original's\n--- original (exit {:?})\n{}\n--- {mode} (exit {:?})\n{}\n--- stderr\n{err}",
            want.0,
            want.1.join("\n"),
            got.0,
            got.1.join("\n")
        )
        .into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let dir = workspace_root().join("examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("tilus.kernel @")))
        .collect();
    files.sort();
    let have_mlir_opt = Path::new(MLIR_OPT).is_file();
    let mut trials = Vec::new();
    for f in files {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        for mode in [
            "custom",
            "generic",
            "mlir-opt",
            "canonicalize-cse",
            "pass-pipeline",
            "eqsat",
        ] {
            let f = f.clone();
            let ignored = mode == "mlir-opt" && !have_mlir_opt;
            trials.push(
                Trial::test(format!("{stem}::{mode}"), move || check(&f, mode))
                    .with_ignored_flag(ignored),
            );
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
