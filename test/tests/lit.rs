//! lit-style test runner (`cargo test -p tilus-tests --test lit`).
//!
//! Every `*.mlir` file under `test/` that has a `RUN:` line is one test case, named by its path
//! relative to `test/` (for example `lit-selftest/filecheck_basics.mlir`); `test/compat/` belongs
//! to the `compat` harness and is skipped. As in LLVM's lit:
//!
//! * `RUN:` lines are collected in order; a line ending in `\` continues on the next `RUN:` line.
//! * `%s` is the file's path, `%S` (and `%p`) its folder, `%t` a per-test scratch path, `%T` the
//!   scratch folder, `%%` a literal `%`, `%ptxas` the PTX assembler.
//! * Each command runs with `bash -o pipefail -c` in the file's folder; the first that exits
//!   non-zero fails the test.
//! * `REQUIRES: a, b` skips the test (reported as ignored) unless every feature is available;
//!   `UNSUPPORTED: a` skips it when any is; `XFAIL: *` or `XFAIL: feature` expects a failure.
//!   Features: `mlir-opt`, `tilus-opt`, `tilus-run` (available when the tool can be found),
//!   `ptxas` (`$PTXAS`, one on `PATH`, or the copy `scripts/test.sh` caches; `%ptxas` is replaced
//!   by `ptxas`, linked into the run's folder) and `cuda` (an NVIDIA device and driver). A
//!   skipped test is reported as ignored, with the missing feature, never as passed.
//!
//! Commands see a `PATH` whose first entry is a folder made for this run, holding:
//!
//! * `FileCheck`: `$FILECHECK` when set (e.g. `/usr/lib/llvm-22/bin/FileCheck`, to check the suite
//!   against LLVM's tool), else this harness binary itself acting as FileCheck through the
//!   `tilus_filecheck` library, so the checker is always the current source (no stale binary);
//! * `not`: runs its arguments and inverts the status (0 becomes 1, a failure becomes 0; a crash,
//!   i.e. death by a signal, stays a failure unless `not --crash` is used);
//! * `tilus-opt`, `tilus-run`: the workspace binaries of the same profile, when they have been
//!   built (`cargo build --workspace --bins`); a RUN line using a missing one fails with
//!   "command not found";
//! * `mlir-opt`: `/usr/lib/llvm-22/bin/mlir-opt` or the one on `PATH`, when present.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Failed, Trial};
use tilus_tests::{profile_dir, workspace_root};

/// Where `mlir-opt` is normally installed on the project's machines (LLVM 22 from Debian).
const DEFAULT_MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// Folders under `test/` that are not lit tests.
const SKIPPED_DIRS: &[&str] = &["compat", "src", "tests", "target"];

/// Longest time one RUN line may take before it is killed and reported.
const RUN_TIMEOUT: Duration = Duration::from_secs(300);

/// Most bytes of a command's stdout or stderr shown in a failure report.
const OUTPUT_LIMIT: usize = 6000;

fn main() {
    // The harness binary doubles as `FileCheck` and `not` through the symlinks it creates.
    let argv0 = std::env::args().next().unwrap_or_default();
    let name = Path::new(&argv0)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string();
    match name.as_str() {
        "FileCheck" | "tilus-filecheck" => run_as_filecheck(),
        "not" => run_as_not(),
        _ => {}
    }

    let args = Arguments::from_args();
    let env = match Env::setup() {
        Ok(env) => Arc::new(env),
        Err(e) => panic!("lit harness setup failed: {e}"),
    };
    let mut tests = discover(&env);
    tests.extend(self_checks());
    let bin_dir = env.bin_dir.clone();
    let conclusion = libtest_mimic::run(&args, tests);
    let _ = std::fs::remove_dir_all(bin_dir.parent().unwrap_or(&bin_dir));
    conclusion.exit();
}

fn run_as_filecheck() -> ! {
    let args: Vec<String> = std::env::args().collect();
    let out = tilus_filecheck::main_with_args(&args, &mut std::io::stdin().lock());
    use std::io::Write;
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    std::process::exit(out.exit_code);
}

fn run_as_not() -> ! {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let crash = args.first().is_some_and(|a| a == "--crash");
    if crash {
        args.remove(0);
    }
    if args.is_empty() {
        eprintln!("not: no command given");
        std::process::exit(1);
    }
    let status = match Command::new(&args[0]).args(&args[1..]).status() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("not: cannot run '{}': {e}", args[0]);
            std::process::exit(1);
        }
    };
    use std::os::unix::process::ExitStatusExt;
    let crashed = status.signal().is_some();
    let code = if crash {
        i32::from(!crashed)
    } else if crashed {
        1
    } else {
        i32::from(status.success())
    };
    std::process::exit(code);
}

/// What every test case shares.
struct Env {
    /// `test/`.
    test_root: PathBuf,
    /// The folder put first on `PATH`.
    bin_dir: PathBuf,
    /// Scratch space for `%t`/`%T`.
    tmp_root: PathBuf,
    /// Available features for REQUIRES/UNSUPPORTED/XFAIL.
    features: BTreeSet<String>,
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn link(target: &Path, link: &Path) -> Result<(), String> {
    std::os::unix::fs::symlink(target, link).map_err(|e| {
        format!(
            "cannot link {} -> {}: {e}",
            link.display(),
            target.display()
        )
    })
}

impl Env {
    fn setup() -> Result<Env, String> {
        let profile = profile_dir();
        let test_root = workspace_root().join("test");
        let run_dir = profile.join(format!("lit-run-{}", std::process::id()));
        let bin_dir = run_dir.join("bin");
        let _ = std::fs::remove_dir_all(&run_dir);
        std::fs::create_dir_all(&bin_dir)
            .map_err(|e| format!("cannot create {}: {e}", bin_dir.display()))?;
        let me = std::env::current_exe()
            .map_err(|e| format!("cannot locate the harness binary: {e}"))?;
        let mut features = BTreeSet::new();

        match std::env::var_os("FILECHECK").filter(|v| !v.is_empty()) {
            Some(fc) => {
                let fc = PathBuf::from(fc);
                let fc = if fc.components().count() == 1 {
                    find_on_path(&fc.to_string_lossy()).unwrap_or(fc)
                } else {
                    fc
                };
                if !fc.is_file() {
                    return Err(format!(
                        "$FILECHECK is {}, which does not exist",
                        fc.display()
                    ));
                }
                link(&fc, &bin_dir.join("FileCheck"))?;
            }
            None => link(&me, &bin_dir.join("FileCheck"))?,
        }
        link(&me, &bin_dir.join("tilus-filecheck"))?;
        link(&me, &bin_dir.join("not"))?;
        for tool in ["tilus-opt", "tilus-run"] {
            let p = profile.join(format!("{tool}{}", std::env::consts::EXE_SUFFIX));
            if p.is_file() {
                link(&p, &bin_dir.join(tool))?;
                features.insert(tool.to_string());
            }
        }
        let mlir_opt = Some(PathBuf::from(DEFAULT_MLIR_OPT))
            .filter(|p| p.is_file())
            .or_else(|| find_on_path("mlir-opt"));
        if let Some(m) = mlir_opt {
            link(&m, &bin_dir.join("mlir-opt"))?;
            features.insert("mlir-opt".to_string());
        }
        // `REQUIRES: ptxas` and `%ptxas`: the assembler test.sh provides ($PTXAS), else one on
        // PATH, else the copy test.sh caches.
        let ptxas = std::env::var_os("PTXAS")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| find_on_path("ptxas"))
            .or_else(|| {
                let cache = std::env::var_os("XDG_CACHE_HOME")
                    .map(PathBuf::from)
                    .or_else(|| {
                        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache"))
                    })?;
                Some(cache.join("tilus/ptxas/bin/ptxas")).filter(|p| p.is_file())
            })
            .filter(|p| p.is_file());
        if let Some(p) = &ptxas {
            link(p, &bin_dir.join("ptxas"))?;
            features.insert("ptxas".to_string());
        }
        // `REQUIRES: cuda`: an NVIDIA device node and its driver library are present.
        if Path::new("/dev/nvidiactl").exists() && has_cuda_driver() {
            features.insert("cuda".to_string());
        }
        Ok(Env {
            test_root,
            bin_dir,
            tmp_root: profile.join("lit-tmp"),
            features,
        })
    }
}

/// Whether the CUDA driver library is known to the dynamic loader.
fn has_cuda_driver() -> bool {
    std::process::Command::new("ldconfig")
        .arg("-p")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("libcuda.so"))
        .unwrap_or(false)
}

/// One RUN command (possibly joined from several continued lines).
#[derive(Debug, Clone)]
struct RunLine {
    /// 1-based line of the first `RUN:` of the command.
    line: usize,
    /// The command as written (continuations joined).
    text: String,
}

/// The directives of one test file.
#[derive(Debug, Default)]
struct Script {
    runs: Vec<RunLine>,
    requires: Vec<String>,
    unsupported: Vec<String>,
    xfail: Vec<String>,
    /// A `RUN:` line ended with `\` and nothing continued it.
    dangling: Option<usize>,
}

/// Text after `KEYWORD:` when the line holds the directive, after only comment characters.
fn directive<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let at = line.find(keyword)?;
    let before = &line[..at];
    if !before
        .chars()
        .all(|c| c.is_whitespace() || matches!(c, '/' | '#' | ';' | '*' | '-'))
    {
        return None;
    }
    Some(&line[at + keyword.len()..])
}

fn parse_script(text: &str) -> Script {
    let mut s = Script::default();
    let mut pending: Option<RunLine> = None;
    let list = |rest: &str| {
        rest.split(',')
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty())
            .collect::<Vec<_>>()
    };
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = directive(line, "RUN:") {
            let rest = rest.trim();
            let (body, continued) = match rest.strip_suffix('\\') {
                Some(b) => (b.trim_end(), true),
                None => (rest, false),
            };
            let run = match pending.take() {
                Some(mut p) => {
                    if !p.text.is_empty() && !body.is_empty() {
                        p.text.push(' ');
                    }
                    p.text.push_str(body);
                    p
                }
                None => RunLine {
                    line: i + 1,
                    text: body.to_string(),
                },
            };
            if continued {
                pending = Some(run);
            } else if !run.text.is_empty() {
                s.runs.push(run);
            }
        } else if let Some(rest) = directive(line, "REQUIRES:") {
            s.requires.extend(list(rest));
        } else if let Some(rest) = directive(line, "UNSUPPORTED:") {
            s.unsupported.extend(list(rest));
        } else if let Some(rest) = directive(line, "XFAIL:") {
            s.xfail.extend(list(rest));
        }
    }
    if let Some(p) = pending {
        s.dangling = Some(p.line);
    }
    s
}

/// Replaces lit's `%` substitutions in `cmd`.
fn substitute(cmd: &str, file: &Path, tmp_dir: &Path) -> String {
    let dir = file.parent().unwrap_or(Path::new("."));
    let stem = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = tmp_dir.join(format!("{stem}.tmp"));
    let mut out = String::with_capacity(cmd.len());
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.clone().take(5).collect::<String>() == "ptxas" {
            out.push_str("ptxas");
            for _ in 0..5 {
                chars.next();
            }
            continue;
        }
        match chars.peek() {
            Some('%') => out.push('%'),
            Some('s') => out.push_str(&file.to_string_lossy()),
            Some('S') | Some('p') => out.push_str(&dir.to_string_lossy()),
            Some('t') => out.push_str(&tmp.to_string_lossy()),
            Some('T') => out.push_str(&tmp_dir.to_string_lossy()),
            _ => {
                out.push('%');
                continue;
            }
        }
        chars.next();
    }
    out
}

fn discover(env: &Arc<Env>) -> Vec<Trial> {
    let mut files = Vec::new();
    collect_mlir(&env.test_root, &env.test_root, &mut files);
    // Example kernels carry RUN lines too, so every example is checked where it lives.
    let examples = workspace_root().join("examples");
    collect_mlir(&examples, &examples, &mut files);
    files.sort();
    let mut trials = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let script = parse_script(&text);
        if script.runs.is_empty() && script.dangling.is_none() {
            continue;
        }
        let name = match file.strip_prefix(&env.test_root) {
            Ok(rel) => rel.to_path_buf(),
            Err(_) => file
                .strip_prefix(workspace_root())
                .map(Path::to_path_buf)
                .unwrap_or_else(|_| file.clone()),
        }
        .to_string_lossy()
        .replace('\\', "/");
        let missing: Vec<&String> = script
            .requires
            .iter()
            .filter(|f| !env.features.contains(*f))
            .collect();
        let unsupported: Vec<&String> = script
            .unsupported
            .iter()
            .filter(|f| env.features.contains(*f))
            .collect();
        let skip_reason = if !missing.is_empty() {
            Some(format!(
                "requires {}, which is not available",
                join(&missing)
            ))
        } else if !unsupported.is_empty() {
            Some(format!("unsupported with {}", join(&unsupported)))
        } else {
            None
        };
        let ignored = skip_reason.is_some();
        let env = Arc::clone(env);
        trials.push(
            Trial::test(name.clone(), move || match skip_reason {
                Some(r) => Err(Failed::from(format!("{name}: skipped: {r}"))),
                None => run_test(&env, &name, &file, &script),
            })
            .with_ignored_flag(ignored),
        );
    }
    trials
}

fn join(items: &[&String]) -> String {
    items
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn collect_mlir(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let fname = e.file_name().to_string_lossy().into_owned();
        if fname.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            if dir == root && SKIPPED_DIRS.contains(&fname.as_str()) {
                continue;
            }
            collect_mlir(root, &path, out);
        } else if fname.ends_with(".mlir") {
            out.push(path);
        }
    }
}

fn run_test(env: &Env, name: &str, file: &Path, script: &Script) -> Result<(), Failed> {
    if let Some(line) = script.dangling {
        return Err(
            format!("{name}:{line}: RUN line ends with '\\' but no RUN line continues it").into(),
        );
    }
    let tmp_dir = env.tmp_root.join(name.replace('/', "__"));
    let _ = std::fs::remove_dir_all(&tmp_dir);
    std::fs::create_dir_all(&tmp_dir)
        .map_err(|e| format!("cannot create {}: {e}", tmp_dir.display()))?;
    let expect_fail = script
        .xfail
        .iter()
        .any(|f| f == "*" || env.features.contains(f));
    let path_var = match std::env::var_os("PATH") {
        Some(p) => {
            let mut dirs = vec![env.bin_dir.clone()];
            dirs.extend(std::env::split_paths(&p));
            std::env::join_paths(dirs).map_err(|e| format!("bad PATH: {e}"))?
        }
        None => env.bin_dir.clone().into_os_string(),
    };
    let dir = file.parent().unwrap_or(Path::new("."));
    for run in &script.runs {
        for tool in ["tilus-opt", "tilus-run"] {
            if mentions(&run.text, tool) && !env.features.contains(tool) {
                return Err(format!(
                    "{name}:{}: the RUN line uses {tool}, which is not built in {}; run \
                     `cargo build --workspace --bins` with the same profile as the tests first",
                    run.line,
                    profile_dir().display()
                )
                .into());
            }
        }
        let cmd = substitute(&run.text, file, &tmp_dir);
        let result = run_command(&cmd, dir, &path_var)?;
        if !result.status_ok {
            if expect_fail {
                return Ok(());
            }
            return Err(report(env, name, file, run, &cmd, &result).into());
        }
    }
    if expect_fail {
        return Err(format!(
            "{name}: unexpectedly passed (XPASS): every RUN line succeeded but the test is marked XFAIL ({})",
            script.xfail.join(", ")
        )
        .into());
    }
    Ok(())
}

/// Whether `cmd` uses `word` as a command-like word (not as part of a longer name).
fn mentions(cmd: &str, word: &str) -> bool {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
    cmd.match_indices(word).any(|(i, _)| {
        let before = cmd[..i].chars().next_back();
        let after = cmd[i + word.len()..].chars().next();
        !before.is_some_and(|c| is_name(c) || c == '/') && !after.is_some_and(is_name)
    })
}

/// What a finished command produced.
struct CmdResult {
    status_ok: bool,
    status: String,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

fn describe(status: &ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit status {c}"),
        (None, Some(s)) => format!("killed by signal {s}"),
        _ => "unknown status".to_string(),
    }
}

fn run_command(cmd: &str, dir: &Path, path_var: &std::ffi::OsStr) -> Result<CmdResult, Failed> {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new("bash")
        .arg("-o")
        .arg("pipefail")
        .arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .env("PATH", path_var)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start bash: {e}"))?;
    let mut out_pipe = child.stdout.take().expect("stdout pipe");
    let mut err_pipe = child.stderr.take().expect("stderr pipe");
    let out_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > RUN_TIMEOUT => {
                // Kill the whole process group (bash and everything it started).
                let _ = Command::new("kill")
                    .arg("-KILL")
                    .arg(format!("-{}", child.id()))
                    .status();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for bash failed: {e}").into()),
        }
    };
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    Ok(match status {
        Some(s) => CmdResult {
            status_ok: s.success(),
            status: describe(&s),
            stdout,
            stderr,
        },
        None => CmdResult {
            status_ok: false,
            status: format!("timed out after {} s and was killed", RUN_TIMEOUT.as_secs()),
            stdout,
            stderr,
        },
    })
}

/// Shows at most [`OUTPUT_LIMIT`] bytes: the start and the end of long output.
fn clip(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= OUTPUT_LIMIT {
        return text.into_owned();
    }
    let half = OUTPUT_LIMIT / 2;
    let mut head_end = half;
    while !text.is_char_boundary(head_end) {
        head_end -= 1;
    }
    let mut tail_start = text.len() - half;
    while !text.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    format!(
        "{}\n[... {} bytes omitted ...]\n{}",
        &text[..head_end],
        tail_start - head_end,
        &text[tail_start..]
    )
}

fn report(env: &Env, name: &str, file: &Path, run: &RunLine, cmd: &str, r: &CmdResult) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "{name}: RUN line {} failed ({})\n",
        run.line, r.status
    ));
    s.push_str(&format!("  file:    {}:{}\n", file.display(), run.line));
    s.push_str(&format!("  RUN:     {}\n", run.text));
    s.push_str(&format!("  command: {cmd}\n"));
    if r.status == "exit status 127" {
        let missing: Vec<&str> = ["tilus-opt", "tilus-run"]
            .into_iter()
            .filter(|t| !env.features.contains(*t))
            .collect();
        s.push_str("  (status 127: a command was not found");
        if !missing.is_empty() {
            s.push_str(&format!(
                "; not built in this profile: {}; build them with `cargo build --workspace --bins` \
                 (same profile as the tests)",
                missing.join(", ")
            ));
        }
        s.push_str(")\n");
    }
    s.push_str("--- stdout ---\n");
    s.push_str(&clip(&r.stdout));
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s.push_str("--- stderr ---\n");
    s.push_str(&clip(&r.stderr));
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// Checks of the harness's own parsing, run as ordinary cases named `harness::...`.
fn self_checks() -> Vec<Trial> {
    vec![
        Trial::test("harness::run_line_continuation", || {
            let s = parse_script("// RUN: a \\\n// RUN:   b | c\n// RUN: d\n// CHECK: x RUN: y\n");
            let got: Vec<(usize, &str)> =
                s.runs.iter().map(|r| (r.line, r.text.as_str())).collect();
            if got != vec![(1, "a b | c"), (3, "d")] {
                return Err(format!("unexpected RUN lines: {got:?}").into());
            }
            Ok(())
        }),
        Trial::test("harness::directives", || {
            let s =
                parse_script("// REQUIRES: mlir-opt, tilus-opt\n// XFAIL: *\n// UNSUPPORTED: x\n");
            if s.requires != ["mlir-opt", "tilus-opt"] || s.xfail != ["*"] || s.unsupported != ["x"]
            {
                return Err(format!("unexpected directives: {s:?}").into());
            }
            Ok(())
        }),
        Trial::test("harness::tool_mentions", || {
            let cases = [
                ("tilus-opt %s | FileCheck %s", true),
                ("not tilus-opt x", true),
                ("echo tilus-optimizer", false),
                ("/bin/tilus-opt", false),
                ("FileCheck %s --check-prefix=tilus-opt-x", false),
            ];
            for (cmd, want) in cases {
                if mentions(cmd, "tilus-opt") != want {
                    return Err(format!("mentions({cmd:?}) should be {want}").into());
                }
            }
            Ok(())
        }),
        Trial::test("harness::substitutions", || {
            let got = substitute(
                "x %s %S %p %t %T %% %d %ptxas -arch=sm_90a %",
                Path::new("/a/b/f.mlir"),
                Path::new("/tmp/q"),
            );
            let want = "x /a/b/f.mlir /a/b /a/b /tmp/q/f.mlir.tmp /tmp/q % %d ptxas -arch=sm_90a %";
            if got != want {
                return Err(format!("got {got:?}, want {want:?}").into());
            }
            Ok(())
        }),
    ]
}
