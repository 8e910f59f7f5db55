//! Differential test against LLVM FileCheck 22: both binaries run on the same table of check
//! files, inputs and options, and must exit with the same status (and, for almost every case,
//! print the very same diagnostics and input dump).
//!
//! Runs only where `/usr/lib/llvm-22/bin/FileCheck` (or `$LLVM_FILECHECK`) exists; elsewhere it
//! prints a note and passes, since the reference tool is not a build requirement.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod llvm_cases;

const DEFAULT_LLVM_FILECHECK: &str = "/usr/lib/llvm-22/bin/FileCheck";

fn llvm_filecheck() -> Option<PathBuf> {
    let p = std::env::var_os("LLVM_FILECHECK")
        .map(PathBuf::from)
        .unwrap_or_else(|| DEFAULT_LLVM_FILECHECK.into());
    p.is_file().then_some(p)
}

/// Runs `binary c.txt ARGS < input` in `dir`; returns the exit status and stderr with the
/// binary's path replaced by `FileCheck` (LLVM echoes its argv in some messages).
fn run(binary: &Path, dir: &Path, input: &str, args: &[&str]) -> (i32, String) {
    let mut child = Command::new(binary)
        .arg("c.txt")
        .args(args)
        .current_dir(dir)
        .env_remove("FILECHECK_OPTS")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", binary.display()));
    // Ignore write errors: the tool may exit before reading its input.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().expect("wait");
    let stderr =
        String::from_utf8_lossy(&out.stderr).replace(&*binary.to_string_lossy(), "FileCheck");
    (out.status.code().unwrap_or(-1), stderr)
}

#[test]
fn same_results_as_llvm_filecheck() {
    let Some(llvm) = llvm_filecheck() else {
        eprintln!(
            "note: {DEFAULT_LLVM_FILECHECK} not found; skipping the comparison with LLVM FileCheck"
        );
        return;
    };
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_tilus-filecheck"));
    let dir = std::env::temp_dir().join(format!("tilus-filecheck-compat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut status_mismatches = Vec::new();
    let mut stderr_mismatches = Vec::new();
    for (i, (check, input, args, exact)) in llvm_cases::CASES.iter().enumerate() {
        std::fs::write(dir.join("c.txt"), check).unwrap();
        let (lc, le) = run(&llvm, &dir, input, args);
        let (oc, oe) = run(&ours, &dir, input, args);
        let describe =
            || format!("case {i}: args {args:?}\n--- check ---\n{check}\n--- input ---\n{input}\n");
        if lc != oc {
            status_mismatches.push(format!("{}exit status: LLVM {lc}, ours {oc}\n--- LLVM stderr ---\n{le}\n--- our stderr ---\n{oe}", describe()));
        } else if *exact && le != oe {
            stderr_mismatches.push(format!(
                "{}--- LLVM stderr ---\n{le}\n--- our stderr ---\n{oe}",
                describe()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let total = llvm_cases::CASES.len();
    assert!(
        status_mismatches.is_empty(),
        "{} of {total} cases exit differently from LLVM FileCheck:\n{}",
        status_mismatches.len(),
        status_mismatches.join("\n")
    );
    assert!(
        stderr_mismatches.is_empty(),
        "{} of {total} cases print different diagnostics from LLVM FileCheck:\n{}",
        stderr_mismatches.len(),
        stderr_mismatches.join("\n")
    );
}
