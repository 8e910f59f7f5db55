//! WGMMA and tcgen05 matmuls (test/run/mma.mlir) against a Rust matmul, and misuse reports.

mod interp_util;

use interp_util::*;
use tilus_run::interp::{self, ArgValue, Options, Schedule};
use tilus_run::memory::GlobalMemory;
use tilus_run::tensor::{DType, Tensor};

fn matmul(
    name: &str,
    edits: &[(&str, &str)],
    (m, n, k): (i64, i64, i64),
    opts: &Options,
) -> (
    Result<interp::RunStats, Vec<tilus_ir::Diagnostic>>,
    Tensor,
    Vec<f64>,
) {
    let (ctx, module) = load_edited("mma.mlir", edits);
    let kern = kernel(&ctx, module, name);
    let a = random(DType::F16, &[m, k], 31, -1.0, 1.0);
    let b = random(DType::F16, &[n, k], 32, -1.0, 1.0);
    let mut mem = GlobalMemory::default();
    let ia = mem.add("a", &a);
    let ib = mem.add("b", &b);
    let ic = mem.add("c", &Tensor::full(DType::F32, &[m, n], -99.0));
    let args = [
        ArgValue::Buffer(ia),
        ArgValue::Buffer(ib),
        ArgValue::Buffer(ic),
        ArgValue::Int(m),
        ArgValue::Int(n),
        ArgValue::Int(k),
    ];
    let r = interp::run(&ctx, kern, &args, &mut mem, opts);
    (r, mem.tensor(ic, &[m, n]), matmul_nt(&a, &b))
}

#[test]
fn wgmma_matmul_128x128x64() {
    let (r, c, want) = matmul("wgmma_matmul", &[], (128, 128, 64), &Options::default());
    let s = r.unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(s.warnings.is_empty(), "{}", render(&s.warnings));
    assert_close(&c, &want, 1e-4, 1e-5);
}

#[test]
fn wgmma_matmul_several_tiles_and_k_steps() {
    // 2 x 2 blocks, 3 K steps, ragged edges (zero-filled TMA boxes, skipped stores).
    let (r, c, want) = matmul("wgmma_matmul", &[], (200, 160, 192), &Options::default());
    r.unwrap_or_else(|d| panic!("{}", render(&d)));
    assert_close(&c, &want, 1e-4, 1e-5);
    let opts = Options {
        schedule: Schedule::Random { seed: 7 },
        ..Options::default()
    };
    let (r, c2, _) = matmul("wgmma_matmul", &[], (200, 160, 192), &opts);
    r.unwrap_or_else(|d| panic!("{}", render(&d)));
    assert_eq!(c.data, c2.data);
}

#[test]
fn tcgen05_matmul() {
    let (r, c, want) = matmul("tcgen05_matmul", &[], (128, 256, 192), &Options::default());
    let s = r.unwrap_or_else(|d| panic!("{}", render(&d)));
    assert!(s.warnings.is_empty(), "{}", render(&s.warnings));
    assert_eq!(s.ctas, 2);
    assert_close(&c, &want, 1e-4, 1e-5);
    for seed in [3, 9] {
        let opts = Options {
            schedule: Schedule::Random { seed },
            ..Options::default()
        };
        let (r, c2, _) = matmul("tcgen05_matmul", &[], (128, 256, 192), &opts);
        r.unwrap_or_else(|d| panic!("seed {seed}: {}", render(&d)));
        assert_eq!(c.data, c2.data);
    }
}

#[test]
fn reading_the_wgmma_accumulator_before_wait_group() {
    let (r, _, _) = matmul(
        "wgmma_matmul",
        &[("    wgmma.wait_group 0\n", "")],
        (128, 128, 64),
        &Options::default(),
    );
    let d = r.expect_err("a report");
    let text = render(&d);
    assert!(
        text.contains(
            "reads the accumulator of a wgmma.mma before the wgmma.wait_group that retires it"
        ),
        "{text}"
    );
}

#[test]
fn wgmma_without_waiting_for_the_tma() {
    let (r, _, _) = matmul(
        "wgmma_matmul",
        &[(
            "    mbarrier.wait %bar[%c0 : i32], phase(%phase) : !mbarrier.barriers<1>\n",
            "",
        )],
        (128, 128, 64),
        &Options::default(),
    );
    let text = render(&r.expect_err("a report"));
    assert!(
        text.contains("wgmma.mma reads shared memory [0, 16384) that an unfinished TMA copy (tma.global_to_shared) writes"),
        "{text}"
    );
}

#[test]
fn tcgen05_accumulator_read_before_the_commit_barrier() {
    // The epilogue reads TMEM without waiting for the last MMA's commit.
    let (r, _, _) = matmul(
        "tcgen05_matmul",
        &[(
            "    mbarrier.wait %bars[%c1 : i32], phase(%phase) : !mbarrier.barriers<2>\n",
            "",
        )],
        (128, 128, 64),
        &Options::default(),
    );
    let text = render(&r.expect_err("a report"));
    assert!(
        text.contains("tcgen05.ld reads tensor memory that an unfinished tcgen05.mma writes"),
        "{text}"
    );
}

#[test]
fn tcgen05_allocation_not_freed() {
    // The verifier rejects an allocation without any dealloc; one that is never reached at run
    // time is the interpreter's to report.
    let (r, _, _) = matmul(
        "tcgen05_matmul",
        &[(
            "  tcgen05.dealloc %t : !tilus.tmem<128x128xf32>\n",
            "  %never = arith.constant false\n  scf.if %never {\n    tcgen05.dealloc %t : !tilus.tmem<128x128xf32>\n  }\n",
        )],
        (128, 128, 64),
        &Options::default(),
    );
    let text = render(&r.expect_err("a report"));
    assert!(
        text.contains(
            "tensor memory not freed at exit: block (0, 0, 0) still holds 128 columns at column 0"
        ),
        "{text}"
    );
}

#[test]
fn tcgen05_ld_used_before_wait_ld() {
    let (r, _, _) = matmul(
        "tcgen05_matmul",
        &[("    tcgen05.wait_ld\n", "")],
        (128, 128, 64),
        &Options::default(),
    );
    let text = render(&r.expect_err("a report"));
    assert!(
        text.contains("reads the registers of a tcgen05.ld before tcgen05.wait_ld"),
        "{text}"
    );
}
