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

use std::path::Path;
use tilus_ir::Context;
use tilus_passes::{parse_pipeline, Nesting, PassManager};

mod ptxas_common;
use ptxas_common::{assemble, find_ptxas};

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
