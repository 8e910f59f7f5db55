//! The interpreter's results do not change when it gets faster (issue 19).
//!
//! `tests/golden/interp_outputs.txt` holds, for every example kernel file under several input
//! seeds and both schedules (and a few at larger, many-block sizes), what `tilus-run --backend
//! interp` printed before the speed work: the report lines (grid, args, steps, blocks, every
//! output buffer's sum and bit hash, every check's verdict) and the exit status. Only the wall
//! time is left out. The same commands must print exactly that now, so every output stays bit
//! for bit what the previous implementation produced on random inputs.
//!
//! One deliberate rewrite since: when clusters got their own schedulers (parallel blocks),
//! `--schedule random` runs of grids with several clusters took a different (equally random)
//! schedule, which moved three `steps:` lines of the warp-specialized matmul by one or two;
//! every output, hash and check stayed as it was. And when `examples/rmsnorm.mlir` was changed
//! to carry its `[256, 1]` sum of squares across the column loop instead of a `[256, 256]`
//! accumulator reduced after it (issue 16: the accumulator alone was 256 f32 registers a
//! thread), its lines were rewritten: the sum is now added tile by tile, a different f32
//! summation order, so its outputs moved in the last bits (and its step counts by one per tile);
//! `tests/examples.rs` still checks them against the reference.
//!
//! To rewrite the file from a given binary (only to add cases, with the binary of the commit
//! the file was made with): `TILUS_GOLDEN_WRITE=1 TILUS_GOLDEN_BIN=/path/to/tilus-run cargo test
//! --release -p tilus-run --test interp_golden`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// (file under `examples/`, extra arguments) of every case; each also runs with each of
/// [`SEEDS`] and each schedule.
const CASES: &[(&str, &str)] = &[
    ("blackwell_matmul_tcgen05.mlir", ""),
    ("hopper_matmul_v0_tma.mlir", ""),
    ("hopper_matmul_v1_wgmma.mlir", ""),
    ("hopper_matmul_v2_pipeline.mlir", ""),
    ("hopper_matmul_v3_warp_specialized.mlir", ""),
    (
        "hopper_matmul_v3_warp_specialized.mlir",
        "--arg m=384 --arg n=512 --arg k=200 --arg num_tiles=6",
    ),
    ("mbarrier_loop.mlir", ""),
    ("reduction.mlir", ""),
    ("rmsnorm.mlir", ""),
    ("rmsnorm.mlir", "--arg m=512 --arg n=1000"),
    ("rmsnorm_rowwise.mlir", ""),
    ("softmax.mlir", ""),
    ("softmax.mlir", "--arg m=300 --arg n=1024"),
    ("softmax_rowwise.mlir", ""),
    ("stencil.mlir", ""),
    ("thread_groups.mlir", ""),
    ("vector_add.mlir", ""),
    ("vector_add.mlir", "--arg n=100003"),
];

const SEEDS: [u64; 2] = [0, 5];
const SCHEDULES: [&str; 2] = ["deterministic", "random"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// The header line of one run and what it printed (wall time left out) with its status.
fn run_case(bin: &str, file: &str, extra: &str, seed: u64, schedule: &str) -> String {
    let header = format!("== {file} {extra} --seed {seed} --schedule {schedule}");
    let out = Command::new(bin)
        .current_dir(root())
        .arg(format!("examples/{file}"))
        .args(extra.split_whitespace())
        .args(["--backend", "interp", "--seed", &seed.to_string()])
        .args(["--schedule", schedule])
        .env("TILUS_NO_PROGRESS", "1")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {bin}: {e}"));
    let mut s = header + "\n";
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if !line.starts_with("wall time:") {
            s += line;
            s += "\n";
        }
    }
    s += &format!("exit {:?}\n", out.status.code());
    s
}

fn all_cases(bin: &str) -> String {
    let mut s = String::new();
    for (file, extra) in CASES {
        for seed in SEEDS {
            for schedule in SCHEDULES {
                s += &run_case(bin, file, extra, seed, schedule);
            }
        }
    }
    s
}

#[test]
fn every_example_prints_what_the_previous_interpreter_printed() {
    let golden = root().join("tilus-run/tests/golden/interp_outputs.txt");
    let bin = std::env::var("TILUS_GOLDEN_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_tilus-run").to_string());
    let got = all_cases(&bin);
    if std::env::var_os("TILUS_GOLDEN_WRITE").is_some() {
        std::fs::write(&golden, &got).expect("write the golden file");
        return;
    }
    let want = std::fs::read_to_string(&golden).expect("read the golden file");
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let mut case = "";
    for (a, b) in w.iter().zip(&g) {
        if a.starts_with("== ") {
            case = a;
        }
        assert_eq!(a, b, "in case `{case}`");
    }
    assert_eq!(w.len(), g.len(), "the number of report lines differs");
}
