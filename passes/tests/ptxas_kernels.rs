//! The layout-less test kernels of `test/kernels/` (LayerNorm, RMSNorm, softmax, GEMV, column
//! sums, a transpose), lowered by `tilus-to-ptx` (so `infer-layouts` chooses every layout) and
//! assembled by `ptxas -v` for `sm_90a`: each must assemble, use 16-byte global accesses, and
//! spill nothing. ptxas is found as in `ptxas_examples.rs`; without one the assembly step is
//! skipped with a message on stderr, unless `TILUS_REQUIRE_PTXAS=1`.

use std::path::Path;
use tilus_ir::Context;
use tilus_passes::{parse_pipeline, Nesting, PassManager};

mod ptxas_common;
use ptxas_common::assemble_verbose;

/// The PTX of kernel `kernel` of `test/kernels/<file>.mlir` (its reference is dropped).
fn lower(file: &str, kernel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../test/kernels")
        .join(format!("{file}.mlir"));
    let src = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    let module = tilus_ir::parse(&mut ctx, &src, &path.display().to_string())
        .unwrap_or_else(|(d, _)| panic!("{file}: parse failed: {d:?}"))
        .module;
    let body = ctx.region_blocks(ctx.regions(module)[0])[0];
    let ops: Vec<_> = ctx.block_ops(body).collect();
    for o in ops {
        let sym = tilus_dialects::ptx::str_prop(&ctx, o, "sym_name");
        if sym.is_some_and(|s| s != kernel) {
            ctx.erase_op(o);
        }
    }
    let root = parse_pipeline("builtin.module(tilus-to-ptx)", Nesting::Explicit).expect("pipeline");
    let mut pm = PassManager::new(root);
    pm.enable_verifier(true);
    pm.run(&mut ctx, module)
        .unwrap_or_else(|d| panic!("{file}: lowering failed: {d:?}"));
    tilus_passes::ptx_emit::emit_ptx(&ctx, module)
        .unwrap_or_else(|d| panic!("{file}: emit failed: {}", d.message))
}

/// Lowers, checks the 16-byte accesses, assembles and checks that nothing spills.
fn check(file: &str, kernel: &str, wants: &[&str]) {
    let ptx = lower(file, kernel);
    for w in wants {
        assert!(ptx.contains(w), "{kernel}: no '{w}' in the PTX:\n{ptx}");
    }
    let Some(info) = assemble_verbose(kernel, &ptx) else {
        return;
    };
    assert!(
        info.contains("0 bytes spill stores"),
        "{kernel} spills registers:\n{info}"
    );
}

#[test]
fn layernorm() {
    check(
        "layernorm",
        "layernorm",
        &["ld.global.v4.b32", "st.global.v4.b32"],
    );
}

#[test]
fn rmsnorm() {
    check(
        "rmsnorm",
        "rmsnorm",
        &["ld.global.v4.b32", "st.global.v4.b32"],
    );
}

#[test]
fn softmax() {
    check(
        "softmax",
        "softmax",
        &["ld.global.v4.b32", "st.global.v4.b32"],
    );
}

#[test]
fn gemv() {
    check("gemv", "gemv", &["ld.global.v4.b32", "shfl.sync.bfly"]);
}

#[test]
fn column_sum() {
    check(
        "column_sum",
        "column_sum",
        &["ld.global.v4.b32", "st.global.v4.f32"],
    );
}

/// The convert between the load's and the store's layouts goes through padded shared memory
/// with 16-byte stores; the global store is vectorized along the transposed view's dimension 0.
#[test]
fn transpose() {
    check(
        "transpose",
        "transpose",
        &["ld.global.v4.b32", "st.shared.v4.b32", "st.global.v4.b32"],
    );
}
