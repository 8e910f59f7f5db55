//! Helpers shared by the interpreter tests (`mod interp_util;` in each `interp_*.rs`).
#![allow(dead_code)]

use tilus_ir::{Context, Diagnostic, OpId};
use tilus_run::interp::{self, ArgValue, Options, RunStats};
use tilus_run::memory::GlobalMemory;
use tilus_run::tensor::{DType, Tensor};

/// Parses and verifies `test/run/<file>`.
pub fn load(file: &str) -> (Context, OpId) {
    load_edited(file, &[])
}

/// Parses and verifies `test/run/<file>` after replacing (the first occurrence of) each
/// `from` with `to`: how the tests derive broken kernels from working ones.
pub fn load_edited(file: &str, edits: &[(&str, &str)]) -> (Context, OpId) {
    let path = format!("{}/../test/run/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    for (from, to) in edits {
        assert!(src.contains(from), "{path} has no '{from}' to edit");
        src = src.replacen(from, to, 1);
    }
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    let pf = match tilus_ir::parse(&mut ctx, &src, &path) {
        Ok(pf) => pf,
        Err((d, _)) => panic!("{path} does not parse: {d:?}"),
    };
    let errs = tilus_ir::verify(&ctx, pf.module);
    assert!(errs.is_empty(), "{path} does not verify: {errs:#?}");
    (ctx, pf.module)
}

/// The kernel named `name`.
pub fn kernel(ctx: &Context, module: OpId, name: &str) -> OpId {
    let mut found = None;
    ctx.walk(module, &mut |o| {
        if ctx.op_name_str(o) == "tilus.kernel" {
            if let Some(a) = ctx.get_inherent_or_attr(o, "sym_name") {
                if let tilus_ir::AttrKind::String { value, .. } = ctx.attr_kind(a) {
                    if value == name.as_bytes() {
                        found = Some(o);
                    }
                }
            }
        }
    });
    found.unwrap_or_else(|| panic!("no kernel @{name}"))
}

/// A small deterministic generator for test data.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next_f64(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64) / ((1u64 << 53) as f64)
    }
}

/// A tile of uniform random values in [lo, hi), rounded to `dtype`.
pub fn random(dtype: DType, shape: &[i64], seed: u64, lo: f64, hi: f64) -> Tensor {
    let mut g = Lcg(seed.wrapping_mul(7919).wrapping_add(17));
    let n: i64 = shape.iter().product();
    let data = (0..n).map(|_| lo + (hi - lo) * g.next_f64()).collect();
    Tensor::from_vec(dtype, shape, data)
}

/// Runs a kernel, panicking with the rendered reports on failure.
pub fn run_ok(
    ctx: &Context,
    k: OpId,
    args: &[ArgValue],
    mem: &mut GlobalMemory,
    opts: &Options,
) -> RunStats {
    match interp::run(ctx, k, args, mem, opts) {
        Ok(s) => s,
        Err(d) => panic!("run failed: {}", render(&d)),
    }
}

/// Runs a kernel that must fail; returns its reports.
pub fn run_err(ctx: &Context, k: OpId, args: &[ArgValue], mem: &mut GlobalMemory) -> Diagnostic {
    match interp::run(ctx, k, args, mem, &Options::default()) {
        Ok(s) => panic!(
            "expected a report, but the run succeeded ({} steps)",
            s.steps
        ),
        Err(mut d) => {
            assert_eq!(d.len(), 1, "{}", render(&d));
            d.remove(0)
        }
    }
}

/// A report as text: message and notes.
pub fn render(ds: &[Diagnostic]) -> String {
    let mut s = String::new();
    for d in ds {
        s.push_str(&format!("{}: {}\n", d.severity.word(), d.message));
        for n in &d.notes {
            s.push_str(&format!("  note: {}\n", n.message));
        }
        if let Some(h) = &d.help {
            s.push_str(&format!("  help: {h}\n"));
        }
    }
    s
}

/// One report as text.
pub fn render1(d: &Diagnostic) -> String {
    render(std::slice::from_ref(d))
}

/// Asserts `|a - b| <= atol + rtol * |b|` elementwise.
pub fn assert_close(got: &Tensor, want: &[f64], atol: f64, rtol: f64) {
    assert_eq!(got.data.len(), want.len(), "sizes differ");
    for (i, (&g, &w)) in got.data.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= atol + rtol * w.abs(),
            "element {i}: got {g}, want {w}"
        );
    }
}

/// Plain row-major matmul: `a [m, k] · b^T` where `b` is `[n, k]`, accumulated in f64.
pub fn matmul_nt(a: &Tensor, b: &Tensor) -> Vec<f64> {
    let (m, k) = (a.shape[0] as usize, a.shape[1] as usize);
    let n = b.shape[0] as usize;
    let mut out = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0;
            for p in 0..k {
                s += a.data[i * k + p] * b.data[j * k + p];
            }
            out[i * n + j] = s;
        }
    }
    out
}
