//! The known-verdict table: every kernel under `test/litmus/` states its verdict on its
//! `// LITMUS:` line (completes, deadlock, over-arrival, race, oob; a completing kernel may add
//! `warning: TEXT`) and the buffers it must end with on `// EXPECT: NAME = FILE.npy` lines. Each
//! runs through the `tilus-run` binary on the interpreter with the deterministic schedule and
//! four random ones, and must give its verdict on every schedule. `bench/gpu_litmus.sh` runs
//! the same kernels on a GPU and classifies them the same way; the two columns are in
//! `docs/design/interpreter.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn litmus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/litmus")
}

/// What a kernel file says about itself.
struct Litmus {
    path: PathBuf,
    verdict: String,
    warning: Option<String>,
    expects: Vec<(String, String)>,
}

fn read_litmus(path: &Path) -> Litmus {
    let text = std::fs::read_to_string(path).unwrap();
    let mut verdict = None;
    let mut warning = None;
    let mut expects = Vec::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("// LITMUS: ") {
            let mut parts = v.splitn(2, ", warning: ");
            verdict = Some(parts.next().unwrap().trim().to_string());
            warning = parts.next().map(|w| w.trim().to_string());
        }
        if let Some(e) = line.strip_prefix("// EXPECT: ") {
            let (name, file) = e.split_once(" = ").expect("// EXPECT: NAME = FILE.npy");
            expects.push((name.trim().to_string(), file.trim().to_string()));
        }
    }
    Litmus {
        path: path.to_path_buf(),
        verdict: verdict.unwrap_or_else(|| panic!("{}: no // LITMUS: line", path.display())),
        warning,
        expects,
    }
}

/// The verdict of a run from its exit status and output (the classification
/// `bench/gpu_litmus.sh` applies to the interpreter column too).
fn classify(ok: bool, out: &str) -> String {
    if ok {
        return "completes".into();
    }
    let err = out
        .lines()
        .find(|l| l.contains(": error: "))
        .unwrap_or("")
        .to_string();
    let verdict = if err.contains("deadlock") {
        "deadlock"
    } else if err.contains("arrivals beyond the expected count") {
        "over-arrival"
    } else if err.contains("unfinished")
        || err.contains("before the wgmma.wait_group")
        || err.contains("before tcgen05.wait_ld")
    {
        "race"
    } else if err.contains("out-of-bounds") {
        "oob"
    } else if out.contains("MISMATCH") || out.contains("mismatch") {
        "wrong values"
    } else {
        return format!("error ({err})");
    };
    verdict.into()
}

fn run(l: &Litmus, schedule: &[&str]) -> (String, String) {
    let dir = litmus_dir();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tilus-run"));
    cmd.arg(&l.path)
        .args(["--backend", "interp", "--diagnostic-format", "mlir"])
        .args(schedule);
    for (name, file) in &l.expects {
        cmd.arg("--expect")
            .arg(format!("{name}={}", dir.join(file).display()));
    }
    let o = cmd.output().unwrap();
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (classify(o.status.success(), &out), out)
}

#[test]
fn every_litmus_kernel_gives_its_verdict_on_every_schedule() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(litmus_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 12, "only {} litmus kernels", files.len());
    let schedules: Vec<Vec<String>> =
        std::iter::once(vec!["--schedule".into(), "deterministic".into()])
            .chain((1..=4).map(|k| {
                vec![
                    "--schedule".into(),
                    "random".into(),
                    "--seed".into(),
                    k.to_string(),
                ]
            }))
            .collect();
    let mut failures = Vec::new();
    for f in &files {
        let l = read_litmus(f);
        for s in &schedules {
            let args: Vec<&str> = s.iter().map(String::as_str).collect();
            let (got, out) = run(&l, &args);
            let warned = l
                .warning
                .as_ref()
                .is_none_or(|w| out.contains(&format!("warning: {w}")));
            // A kernel that names no warning must not print one.
            let quiet = l.warning.is_some() || !out.contains(": warning: ");
            if got != l.verdict || !warned || !quiet {
                failures.push(format!(
                    "{} ({}): expected {}{}, got {got}{}\n{out}",
                    f.file_name().unwrap().to_string_lossy(),
                    args.join(" "),
                    l.verdict,
                    l.warning
                        .as_ref()
                        .map_or(String::new(), |w| format!(" with warning '{w}'")),
                    if warned && quiet {
                        ""
                    } else {
                        " (the warnings differ)"
                    }
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_classifier_reads_each_verdict() {
    assert_eq!(classify(true, ""), "completes");
    assert_eq!(
        classify(
            false,
            "k.mlir:3:1: error: deadlock: every live unit is blocked"
        ),
        "deadlock"
    );
    assert_eq!(
        classify(
            false,
            "k.mlir:3:1: error: tilus.load_shared reads shared memory [0, 8) that an unfinished TMA copy writes"
        ),
        "race"
    );
    assert!(classify(false, "k.mlir:3:1: error: something else").starts_with("error ("));
}

#[test]
fn per_thread_values_an_element_cannot_hold_are_reported_where_they_enter() {
    // 32 i32 over 128 threads: the default layout replicates each element over 16 threads
    // with different ids, so the tile has no single value; the report is at the
    // register_tensor, not at the store.
    let src = r#"tilus.kernel @replicated(%y: !tilus.ptr<i32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<32xi32>
  %tid = tilus.thread_id
  %t = tilus.register_tensor init(%tid : i32) : !tilus.reg<32xi32>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<32xi32>, !tilus.global<32xi32>
}
"#;
    let path = std::env::temp_dir().join(format!("litmus-replicated-{}.mlir", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_tilus-run"))
        .arg(&path)
        .args(["--backend", "interp", "--diagnostic-format", "mlir"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains(
            ":5:8: error: 'tilus.register_tensor' puts per-thread values in a tile whose layout"
        ),
        "{err}"
    );
    assert!(err.contains("element [0] to several threads"), "{err}");
}

#[test]
fn tiles_that_split_threads_make_differently_are_traced_to_where_they_parted() {
    // As per_thread_branches.mlir, but without a layout: the default layout for 32 f32 over
    // 32 threads replicates each element over 4 lanes (lanes e/4, +8, +16, +24), which fall
    // on both sides of the branch, so the merged tile has no single value. The report is at
    // the first use and points at the scf.if that made it.
    let src = r#"tilus.kernel @branches(%y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %lane = tilus.lane_id
  %lo = arith.cmpi slt, %lane, %c16 : i32
  %t = scf.if %lo -> (!tilus.reg<32xf32>) {
    %a = tilus.register_tensor init(%one : f32) : !tilus.reg<32xf32>
    scf.yield %a : !tilus.reg<32xf32>
  } else {
    %b = tilus.register_tensor init(%two : f32) : !tilus.reg<32xf32>
    scf.yield %b : !tilus.reg<32xf32>
  }
  %u = tilus.add %t, %t : (!tilus.reg<32xf32>, !tilus.reg<32xf32>) -> !tilus.reg<32xf32>
  tilus.store_global %u, %gy[%c0] : !tilus.reg<32xf32>, !tilus.global<32xf32>
}
"#;
    let path = std::env::temp_dir().join(format!("litmus-branches-{}.mlir", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_tilus-run"))
        .arg(&path)
        .args(["--backend", "interp", "--diagnostic-format", "mlir"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains(":16:8: error: expected a register tensor, found a value that differs"),
        "{err}"
    );
    assert!(
        err.contains(":9:8: note: the value comes from here"),
        "{err}"
    );
}

#[test]
fn tiles_that_split_threads_make_differently_merge_by_layout() {
    // Lanes 0..15 make a tile of ones, lanes 16..31 one of twos; with the layout spatial(32)
    // each lane holds only its own element, so after the branches the tile is what each lane
    // made. (Interpreter only: lower-tiles does not lower an scf.if that yields register
    // tensors, so this kernel is not in the GPU table.)
    let l = "!tilus.reg<32xf32, layout = spatial(32)>";
    let src = format!(
        r#"tilus.kernel @branches(%y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>)
    attributes {{tilus.inputs = {{y = "zeros"}}}} {{
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %lane = tilus.lane_id
  %lo = arith.cmpi slt, %lane, %c16 : i32
  %t = scf.if %lo -> ({l}) {{
    %a = tilus.register_tensor init(%one : f32) : {l}
    scf.yield %a : {l}
  }} else {{
    %b = tilus.register_tensor init(%two : f32) : {l}
    scf.yield %b : {l}
  }}
  %u = tilus.add %t, %t : ({l}, {l}) -> {l}
  tilus.store_global %u, %gy[%c0] : {l}, !tilus.global<32xf32>
}}
"#
    );
    let path = std::env::temp_dir().join(format!("litmus-merge-{}.mlir", std::process::id()));
    std::fs::write(&path, src).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_tilus-run"))
        .arg(&path)
        .args([
            "--backend",
            "interp",
            "--diagnostic-format",
            "mlir",
            "--expect",
        ])
        .arg(format!(
            "y={}",
            litmus_dir().join("twos_fours32.npy").display()
        ))
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let out = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("check y vs"), "{out}");
}
