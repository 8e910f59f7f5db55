//! Hand-written scalar kernels (`tests/ptx_kernels/*.mlir`) lowered to PTX, snapshotted, and
//! assembled by NVIDIA's `ptxas` for their target.
//!
//! Each kernel goes through `convert-scf-to-cf`, `convert-arith-to-ptx` and
//! `convert-func-to-ptx{maxntid=128}`, then `ptx_emit::emit_ptx`. The PTX text is an insta
//! snapshot (`tests/snapshots/`), and `ptxas -arch=<target>` must accept it: a rejection fails
//! the test with ptxas's message.
//!
//! ptxas is found as `$PTXAS`, else `ptxas` on `PATH`, else in the cache `scripts/test.sh`
//! fills (`${XDG_CACHE_HOME:-$HOME/.cache}/tilus/ptxas/bin/ptxas`, from the
//! `nvidia-cuda-nvcc` wheel). Without one the assembly step is skipped with a message on
//! stderr, unless `TILUS_REQUIRE_PTXAS=1`, which makes a missing ptxas a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use tilus_ir::Context;
use tilus_passes::{parse_pipeline, Nesting, PassManager};

const PIPELINE: &str = "builtin.module(convert-scf-to-cf,convert-arith-to-ptx,\
                        convert-func-to-ptx{maxntid=128})";

/// The PTX of `tests/ptx_kernels/<name>.mlir`.
fn lower(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/ptx_kernels")
        .join(format!("{name}.mlir"));
    let src = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    let module = tilus_ir::parse(&mut ctx, &src, &path.display().to_string())
        .unwrap_or_else(|(d, _)| panic!("{name}: parse failed: {d:?}"))
        .module;
    let errs = tilus_ir::verify(&ctx, module);
    assert!(errs.is_empty(), "{name}: invalid input: {errs:?}");
    let root = parse_pipeline(PIPELINE, Nesting::Explicit).expect("pipeline");
    let mut pm = PassManager::new(root);
    pm.enable_verifier(true);
    pm.run(&mut ctx, module)
        .unwrap_or_else(|d| panic!("{name}: lowering failed: {d:?}"));
    tilus_passes::ptx_emit::emit_ptx(&ctx, module)
        .unwrap_or_else(|d| panic!("{name}: emit failed: {}", d.message))
}

/// The ptxas to use, if any.
fn find_ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXAS").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    if let Some(path) = std::env::var_os("PATH") {
        if let Some(p) = std::env::split_paths(&path)
            .map(|d| d.join("ptxas"))
            .find(|p| p.is_file())
        {
            return Some(p);
        }
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    let p = cache.join("tilus/ptxas/bin/ptxas");
    p.is_file().then_some(p)
}

/// Assembles `ptx` with ptxas for the file's `.target`; panics with ptxas's output on rejection.
fn assemble(name: &str, ptx: &str) {
    let Some(ptxas) = find_ptxas() else {
        if std::env::var("TILUS_REQUIRE_PTXAS").is_ok_and(|v| v == "1") {
            panic!("{name}: no ptxas found and TILUS_REQUIRE_PTXAS=1 (set PTXAS or run scripts/test.sh)");
        }
        eprintln!("ptxas: skipped for '{name}': no ptxas found (set PTXAS, or run scripts/test.sh to fetch one)");
        return;
    };
    let target = ptx
        .lines()
        .find_map(|l| l.strip_prefix(".target "))
        .map(|t| t.trim().to_string())
        .expect("a .target line");
    let dir = std::env::temp_dir().join(format!("tilus-ptxas-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join(format!("{name}.ptx"));
    let output = dir.join(format!("{name}.cubin"));
    std::fs::write(&input, ptx).expect("write ptx");
    let out = Command::new(&ptxas)
        .arg(format!("-arch={target}"))
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", ptxas.display()));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{name}: ptxas -arch={target} rejected the PTX:\n{}{}\n--- PTX ---\n{ptx}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check(name: &str) {
    let ptx = lower(name);
    insta::assert_snapshot!(name, ptx);
    assemble(name, &ptx);
}

/// Per-thread index arithmetic, a bounds check (`scf.if`), global loads and a store.
#[test]
fn vadd() {
    check("vadd");
}

/// An `scf.for` over an `i32` range carrying an f32 accumulator, inside an `scf.if`.
#[test]
fn rowsum() {
    check("rowsum");
}

/// Guarded (`@%p`) loads and stores instead of branches; select, f32 -> f16 and f32 -> s32.
#[test]
fn relu_f16() {
    check("relu_f16");
}

/// Every arith op convert-arith-to-ptx handles, in one kernel.
#[test]
fn allops() {
    check("allops");
}

/// A hand-written `ptx.entry`: block-argument swaps, a tensor-map parameter, TMA, inline asm.
#[test]
fn tma_swap() {
    check("tma_swap");
}

/// A kernel ptxas must reject: the test harness itself must notice a bad PTX file.
#[test]
fn ptxas_rejects_bad_ptx() {
    if find_ptxas().is_none() {
        eprintln!("ptxas: skipped 'ptxas_rejects_bad_ptx': no ptxas found");
        return;
    }
    let bad = ".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n\tadd.s33 %r1, %r1, 1;\n\tret;\n}\n";
    let r = std::panic::catch_unwind(|| assemble("bad", bad));
    assert!(r.is_err(), "ptxas accepted invalid PTX");
}
