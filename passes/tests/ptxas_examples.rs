//! The example kernels of `examples/` lowered by the `tilus-to-ptx` pipeline and assembled by
//! NVIDIA's `ptxas` for `sm_90a`: vector_add, reduction (row_sum, block_sum), softmax,
//! rmsnorm, stencil (add_bias, stencil3) and thread_groups. The PTX of vector_add is an insta
//! snapshot (`tests/snapshots/`).
//!
//! ptxas is `$PTXAS`, else `ptxas` on `PATH`, else the cache `scripts/test.sh` fills
//! (`${XDG_CACHE_HOME:-$HOME/.cache}/tilus/ptxas/bin/ptxas`). Without one the assembly step is
//! skipped with a message on stderr, unless `TILUS_REQUIRE_PTXAS=1`.

use std::path::Path;
use tilus_ir::Context;
use tilus_passes::{parse_pipeline, Nesting, PassManager};

mod ptxas_common;
use ptxas_common::assemble;

const PIPELINE: &str = "builtin.module(tilus-to-ptx)";

/// The PTX of `examples/<name>.mlir`, without the kernels named in `drop`.
fn lower(name: &str, drop: &[&str]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
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
    if !drop.is_empty() {
        let body = ctx.region_blocks(ctx.regions(module)[0])[0];
        let ops: Vec<_> = ctx.block_ops(body).collect();
        for o in ops {
            let sym = tilus_dialects::ptx::str_prop(&ctx, o, "sym_name");
            if sym.is_some_and(|s| drop.contains(&s.as_str())) {
                ctx.erase_op(o);
            }
        }
    }
    let root = parse_pipeline(PIPELINE, Nesting::Explicit).expect("pipeline");
    let mut pm = PassManager::new(root);
    pm.enable_verifier(true);
    pm.run(&mut ctx, module)
        .unwrap_or_else(|d| panic!("{name}: lowering failed: {d:?}"));
    tilus_passes::ptx_emit::emit_ptx(&ctx, module)
        .unwrap_or_else(|d| panic!("{name}: emit failed: {}", d.message))
}

/// The end-to-end milestone: loads with a vectorised fast path and a predicated slow path.
#[test]
fn vector_add() {
    let ptx = lower("vector_add", &[]);
    assert!(ptx.contains("ld.global.v4.f32"), "no 16-byte loads:\n{ptx}");
    assert!(
        ptx.contains("st.global.v4.f32"),
        "no 16-byte stores:\n{ptx}"
    );
    insta::assert_snapshot!("example_vector_add", ptx);
    assemble("vector_add", &ptx);
}

/// row_sum (scf.for carrying a tile, in-warp shuffles) and block_sum (shared partials, a
/// barrier, a single-warp stage).
#[test]
fn reduction() {
    let ptx = lower("reduction", &[]);
    assert!(ptx.contains("shfl.sync.bfly.b32"));
    assert!(ptx.contains("bar.sync"));
    assert!(ptx.contains("st.shared.f32"));
    assemble("reduction", &ptx);
}

/// Three sweeps, max and sum reductions, ex2.approx, a cast to f16.
#[test]
fn softmax() {
    let ptx = lower("softmax", &[]);
    assert!(ptx.contains("ex2.approx"));
    assemble("softmax", &ptx);
}

/// f16 in and out, a reduction across warps through shared memory, rsqrt.approx.
#[test]
fn rmsnorm() {
    let ptx = lower("rmsnorm", &[]);
    assert!(ptx.contains("rsqrt.approx"));
    assert!(ptx.contains("ld.shared.f32"));
    assemble("rmsnorm", &ptx);
}

/// Broadcasting a row vector and scalars; shfl.sync.up/down.
#[test]
fn stencil() {
    let ptx = lower("stencil", &[]);
    assert!(ptx.contains("shfl.sync.up.b32"));
    assert!(ptx.contains("shfl.sync.down.b32"));
    assemble("stencil", &ptx);
}

/// Groups as predicates, elect.sync, bar.warp.sync and named barriers. `@shortcuts` also uses
/// mbarriers; it is lowered only when `lower-async-to-ptx` is registered and handles them.
#[test]
fn thread_groups() {
    let ptx = lower("thread_groups", &[]);
    assert!(ptx.contains("mbarrier.arrive"));
    assert!(ptx.contains("elect.sync"));
    assert!(ptx.contains("bar.warp.sync"));
    assert!(ptx.contains("bar.sync \t1, 64") || ptx.contains("bar.sync 1, 64"));
    assemble("thread_groups", &ptx);
}

/// The register list of every `wgmma.mma_async` line, in order.
fn wgmma_lists(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter(|l| l.contains("wgmma.mma_async"))
        .map(|l| {
            let s = l.find('{').expect("a register list");
            let e = l.find('}').expect("a register list");
            l[s..=e].to_string()
        })
        .collect()
}

/// No instruction touches an accumulator register between `wgmma.fence` and the commit: the
/// tied accumulators are the wgmma's own registers, without copies in between.
fn no_copies_in_mma(ptx: &str) {
    let mut inside = false;
    for l in ptx.lines() {
        if l.contains("wgmma.fence") {
            inside = true;
        }
        if l.contains("wgmma.commit_group") {
            inside = false;
        }
        assert!(
            !(inside && l.trim_start().starts_with("mov.f32")),
            "a copy inside the MMA: {l}"
        );
    }
}

/// Hopper v0: TMA into swizzled shared tiles, `tilus.dot` (on sm_90a wgmma: its operands, read
/// from the shared tiles into registers, staged into the dot's own swizzled buffers; one
/// warpgroup, 2 (m64) x 4 (k16) m64n128k16 per K step), the cast and store of the f16 tile;
/// and the `matmul_ref` kernel (global loads and `tilus.dot`, also on wgmma).
#[test]
fn hopper_matmul_v0_tma() {
    let ptx = lower("hopper_matmul_v0_tma", &[]);
    assert!(ptx.contains("cp.async.bulk.tensor.2d"));
    assert!(ptx.contains(".param .align 64 .b8 hopper_matmul_v0_param_6[128]"));
    assert!(ptx.contains(".param .align 64 .b8 hopper_matmul_v0_param_7[128]"));
    let main = lower("hopper_matmul_v0_tma", &["matmul_ref"]);
    assert_eq!(wgmma_lists(&main).len(), 8, "8 wgmma per K step");
    assert!(main.contains("m64n128k16.f32.f16.f16"));
    assert!(main.contains("fence.proxy.async.shared::cta"));
    assert!(!main.contains("mma.sync"), "the dot stays on mma.sync");
    assert!(!ptx.contains("fma.rn.f32"), "a SIMT dot is left");
    assert!(ptx.contains("cvt.rn.f16.f32"));
    assemble("hopper_matmul_v0_tma", &ptx);
}

/// Hopper v1: one warpgroup, 2 (m64) x 4 (k16) m64n128k16 instructions per K step. The
/// accumulator is 128 f32 registers per thread in two blocks of 64 (`local(2, 1)` outermost):
/// instruction (i, kk) uses block i, and every instruction on block i names the same registers
/// (read-write: the loop-carried accumulators, tied, no copies).
#[test]
fn hopper_matmul_v1_wgmma() {
    // The naive reference's `tilus.dot` lowers to wgmma too: left out here.
    let ptx = lower("hopper_matmul_v1_wgmma", &["matmul_ref"]);
    let lists = wgmma_lists(&ptx);
    assert_eq!(lists.len(), 8, "8 wgmma per K step");
    assert!(lists.iter().all(|l| l.matches('%').count() == 64));
    assert_ne!(lists[0], lists[1], "two m64 blocks");
    for (i, l) in lists.iter().enumerate() {
        assert_eq!(l, &lists[i % 2], "instruction {i} on block {}", i % 2);
    }
    assert!(ptx.contains("m64n128k16.f32.f16.f16"));
    no_copies_in_mma(&ptx);
    assemble("hopper_matmul_v1_wgmma", &ptx);
}

/// Hopper v2: a multi-stage TMA ring, (stage, phase) and the accumulator carried by the loop.
#[test]
fn hopper_matmul_v2_pipeline() {
    let ptx = lower("hopper_matmul_v2_pipeline", &[]);
    let lists = wgmma_lists(&ptx);
    assert!(!lists.is_empty());
    no_copies_in_mma(&ptx);
    assert!(ptx.contains("mbarrier.try_wait.parity"));
    assemble("hopper_matmul_v2_pipeline", &ptx);
}

/// Hopper warp-specialized: a producer warp and two consumer warpgroups, each with a
/// [64, 256] accumulator (one m64n256k16 block of 128 registers).
#[test]
fn hopper_matmul_v3_warp_specialized() {
    let ptx = lower("hopper_matmul_v3_warp_specialized", &["matmul_ref"]);
    let lists = wgmma_lists(&ptx);
    assert!(!lists.is_empty());
    assert!(lists.iter().all(|l| l.matches('%').count() == 128));
    assert!(ptx.contains("m64n256k16.f32.f16.f16"));
    no_copies_in_mma(&ptx);
    assemble("hopper_matmul_v3_warp_specialized", &ptx);
}

/// The Blackwell example's tcgen05 kernel lowers to sm_100a PTX (its naive reference, sm_90a,
/// is a separate PTX file) and assembles for that target.
#[test]
fn blackwell_matmul_tcgen05() {
    let ptx = lower("blackwell_matmul_tcgen05", &["matmul_ref"]);
    assert!(
        ptx.contains(".target sm_100a"),
        "expected an sm_100a target"
    );
    assert!(ptx.contains("tcgen05.mma.cta_group::1.kind::f16"));
    assert!(ptx.contains("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32"));
    assemble("blackwell_matmul_tcgen05", &ptx);
}

/// Every kernel of every example lowers on its own (the other kernels of its file dropped, as
/// `tilus-run --dump-ptx` does) and its PTX assembles for its target: a new example or op that
/// the lowering cannot handle fails here.
#[test]
fn every_example_kernel_lowers_and_assembles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    let mut count = 0;
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(&path).unwrap();
        let kernels: Vec<String> = src
            .lines()
            .filter(|l| l.trim_start().starts_with("tilus.kernel @"))
            .filter_map(|l| {
                let rest = l.trim_start().strip_prefix("tilus.kernel @")?;
                Some(rest.split('(').next()?.to_string())
            })
            .collect();
        for k in &kernels {
            let others: Vec<&str> = kernels
                .iter()
                .filter(|o| *o != k)
                .map(String::as_str)
                .collect();
            let ptx = lower(&name, &others);
            assemble(&format!("{name}-{k}"), &ptx);
            count += 1;
        }
    }
    assert!(count >= 20, "expected the examples' kernels, found {count}");
}
