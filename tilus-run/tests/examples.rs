//! Every kernel of every example in `examples/` under the interpreter, at the kernel's default
//! (small) arguments, against a plain Rust reference computed here from the same inputs.
//!
//! Arguments are bound the way `tilus-run` binds them: scalars from the kernel's `tilus.args`
//! ([`args::bind_scalars`]), buffers sized by the views the kernel makes
//! ([`args::plan_buffers`]) and filled as `tilus.inputs` says, else with seeded uniform values in
//! `[-1, 1)` ([`args::init_memory`] with [`INPUT_SEED`]; never all zero). A kernel named by
//! another's `tilus.reference` has no defaults of its own: it runs with the referring kernel's
//! arguments on the same inputs and is checked against the same Rust reference.
//!
//! Every run must succeed without warnings (outstanding async work, barriers left mid-phase),
//! must leave the buffers that are not outputs untouched, and must produce every output the
//! kernel declares (`tilus.outputs`) within these tolerances, an element passing when
//! `|got - want| <= atol + rtol * |want|` (`want` in f64 unless said otherwise):
//!
//! | outputs | atol | rtol |
//! |---|---|---|
//! | f32 element-wise (`vector_add`, `add_bias`, `stencil3`, `split_work`, `copy_ref`, `producer_consumer[_ref]`): the reference rounds every op to f32 in the kernel's order | 0 | 0 (bit-exact) |
//! | f32 reductions (`row_sum`, `block_sum`): the summation order is the interpreter's | 1e-6 · max Σ\|x\| of a sum | 1e-4 |
//! | f16 matmul outputs (`C = A · Bᵀ`, f32 accumulation over K) | 1e-3 | 1e-2 |
//! | f16 `softmax` and `rmsnorm` outputs (f32 math, then a cast) | 1e-5 | 1e-2 |
//!
//! Kernels with async engines, barriers or split thread groups also run under
//! `Schedule::Random` with [`SCHEDULE_SEEDS`]; every buffer must end bit-identical to the
//! deterministic run. [`every_example_kernel_is_covered`] fails when an example gains or loses a
//! kernel, so a new kernel cannot go unchecked.

use std::path::{Path, PathBuf};
use tilus_ir::source::SourceFile;
use tilus_ir::{Context, Diagnostic, OpId, Severity, SourceMap};
use tilus_run::args::{self, Buffer, Param};
use tilus_run::check::{self, Tolerance};
use tilus_run::interp::{self, ArgValue, Options, RunStats, Schedule};
use tilus_run::memory::GlobalMemory;
use tilus_run::tensor::{DType, Tensor};

/// Seed of the random inputs (as `tilus-run --seed`).
const INPUT_SEED: u64 = 20_240_611;
/// Seeds of the random schedules a kernel with async work or split groups also runs under.
const SCHEDULE_SEEDS: [u64; 3] = [1, 2, 3];

const EXACT: Tolerance = Tolerance {
    atol: 0.0,
    rtol: 0.0,
};
const F16_MATMUL: Tolerance = Tolerance {
    atol: 1e-3,
    rtol: 1e-2,
};
const F16_NORMALIZED: Tolerance = Tolerance {
    atol: 1e-5,
    rtol: 1e-2,
};
/// f32 sums: `rtol` 1e-4 and `atol` 1e-6 times the largest `Σ|x|` of one sum.
fn f32_sums(abs_sums: impl Iterator<Item = f64>) -> Tolerance {
    Tolerance {
        atol: 1e-6 * abs_sums.fold(0.0, f64::max),
        rtol: 1e-4,
    }
}

// ----- loading and binding ---------------------------------------------------------------------

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

/// A parsed and verified example file.
struct Example {
    /// The file's name in `examples/`.
    name: String,
    ctx: Context,
    module: OpId,
    file: SourceFile,
    map: SourceMap,
}

fn load(name: &str) -> Example {
    let path = examples_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let file = SourceFile::new(path.display().to_string(), text);
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    let pf = match tilus_ir::parse(&mut ctx, &file.text, &file.name) {
        Ok(pf) => pf,
        Err((ds, map)) => {
            let text: String = ds
                .iter()
                .map(|d| tilus_ir::source::render(Some(&ctx), Some(&map), &file, d))
                .collect();
            panic!("{name} does not parse:\n{text}");
        }
    };
    let ex = Example {
        name: name.to_string(),
        ctx,
        module: pf.module,
        file,
        map: pf.source_map,
    };
    let errs: Vec<Diagnostic> = tilus_ir::verify(&ex.ctx, ex.module)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(
        errs.is_empty(),
        "{name} does not verify:\n{}",
        ex.render(&errs)
    );
    ex
}

/// A kernel with its arguments bound and its inputs made.
struct Setup {
    name: String,
    kernel: OpId,
    params: Vec<Param>,
    args: Vec<ArgValue>,
    buffers: Vec<Buffer>,
    initial: Vec<Tensor>,
    outputs: Vec<String>,
    reference: Option<String>,
}

impl Example {
    fn kernels(&self) -> Vec<(String, OpId)> {
        args::kernels(&self.ctx, self.module)
    }

    fn kernel(&self, name: &str) -> OpId {
        self.kernels()
            .into_iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{}: no kernel @{name}", self.file.name))
            .1
    }

    fn render(&self, ds: &[Diagnostic]) -> String {
        ds.iter()
            .map(|d| tilus_ir::source::render(Some(&self.ctx), Some(&self.map), &self.file, d))
            .collect()
    }

    /// `name` at its defaults, as `tilus-run FILE --kernel NAME --seed INPUT_SEED` binds it.
    fn setup(&self, name: &str) -> Setup {
        let kernel = self.kernel(name);
        let params = args::params(&self.ctx, kernel, &self.file);
        let fail =
            |what: &str, d: Diagnostic| -> ! { panic!("@{name}: {what}:\n{}", self.render(&[d])) };
        let defaults = args::kernel_defaults(&self.ctx, kernel, &params, &examples_dir())
            .unwrap_or_else(|d| fail("bad defaults", d));
        let args = args::bind_scalars(kernel, &params, &[], &defaults)
            .unwrap_or_else(|d| fail("cannot bind the default arguments", d));
        let buffers = args::plan_buffers(&self.ctx, kernel, &params, &args, &[], &defaults)
            .unwrap_or_else(|d| fail("cannot size the buffers", d));
        let (_, initial) = args::init_memory(kernel, &params, &buffers, INPUT_SEED)
            .unwrap_or_else(|d| fail("cannot make the inputs", d));
        Setup {
            name: name.to_string(),
            kernel,
            params,
            args,
            buffers,
            initial,
            outputs: defaults.outputs.unwrap_or_default(),
            reference: defaults.reference,
        }
    }

    /// The kernel `main` names as its `tilus.reference`, run as `tilus-run` runs it: with
    /// `main`'s arguments matched by parameter name, on `main`'s inputs.
    fn setup_reference(&self, main: &Setup) -> Option<Setup> {
        let name = main.reference.clone()?;
        let kernel = self.kernel(&name);
        let params = args::params(&self.ctx, kernel, &self.file);
        let args = params
            .iter()
            .map(|p| {
                let i = main
                    .params
                    .iter()
                    .position(|q| q.name == p.name && q.ty == p.ty)
                    .unwrap_or_else(|| {
                        panic!(
                            "@{name} (the reference of @{}) takes '{}: {}', which @{} does not",
                            main.name, p.name, p.ty, main.name
                        )
                    });
                main.args[i].clone()
            })
            .collect();
        for o in &main.outputs {
            assert!(
                params.iter().any(|p| &p.name == o),
                "@{name} does not write output '{o}' of @{}",
                main.name
            );
        }
        Some(Setup {
            name,
            kernel,
            params,
            args,
            buffers: main.buffers.clone(),
            initial: main.initial.clone(),
            outputs: main.outputs.clone(),
            reference: None,
        })
    }
}

impl Setup {
    fn param(&self, name: &str) -> &ArgValue {
        let i = self
            .params
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("@{} has no parameter '{name}'", self.name));
        &self.args[i]
    }

    fn int(&self, name: &str) -> i64 {
        match self.param(name) {
            ArgValue::Int(v) => *v,
            v => panic!("@{}: '{name}' is {v:?}, not an integer", self.name),
        }
    }

    fn float(&self, name: &str) -> f64 {
        match self.param(name) {
            ArgValue::Float(v) => *v,
            v => panic!("@{}: '{name}' is {v:?}, not a float", self.name),
        }
    }

    fn buffer(&self, name: &str) -> &Buffer {
        self.buffers
            .iter()
            .find(|b| b.name == name)
            .unwrap_or_else(|| panic!("@{} has no buffer '{name}'", self.name))
    }

    /// The starting contents of buffer `name`, checked to be of `dtype` and `shape`.
    fn input(&self, name: &str, dtype: DType, shape: &[i64]) -> &[f64] {
        let b = self.buffer(name);
        assert_eq!(
            (b.dtype, b.shape.as_slice()),
            (dtype, shape),
            "@{}: buffer '{name}' is {}",
            self.name,
            b.describe()
        );
        let t = &self.initial[b.index];
        assert!(
            t.data.iter().any(|&x| x != 0.0),
            "@{}: input '{name}' is all zero",
            self.name
        );
        &t.data
    }
}

/// A finished run.
struct Run {
    mem: GlobalMemory,
    stats: RunStats,
}

fn run(ex: &Example, s: &Setup, schedule: Schedule) -> Run {
    let mut mem = GlobalMemory::default();
    for (b, t) in s.buffers.iter().zip(&s.initial) {
        assert_eq!(mem.add(&b.name, t), b.index);
    }
    let opts = Options {
        schedule,
        ..Options::default()
    };
    let stats = interp::run(&ex.ctx, s.kernel, &s.args, &mut mem, &opts).unwrap_or_else(|ds| {
        panic!(
            "{} @{} ({schedule:?}) failed:\n{}",
            ex.name,
            s.name,
            ex.render(&ds)
        )
    });
    assert!(
        stats.warnings.is_empty(),
        "{} @{} ({schedule:?}) warns:\n{}",
        ex.name,
        s.name,
        ex.render(&stats.warnings)
    );
    let grid = interp::grid(&ex.ctx, s.kernel, &s.args).expect("grid");
    assert_eq!(
        stats.ctas as i64,
        grid.iter().product::<i64>(),
        "@{}: blocks run",
        s.name
    );
    for (b, t) in s.buffers.iter().zip(&s.initial) {
        let scratch = SCRATCH.contains(&(s.name.as_str(), b.name.as_str()));
        if !s.outputs.contains(&b.name) && !scratch {
            assert!(
                mem.tensor(b.index, &b.shape).data == t.data,
                "{} @{} ({schedule:?}) changed its input '{}'",
                ex.name,
                s.name,
                b.name
            );
        }
    }
    Run { mem, stats }
}

/// What an output must hold.
struct Expect {
    output: &'static str,
    dtype: DType,
    shape: Vec<i64>,
    want: Vec<f64>,
    tol: Tolerance,
}

fn expect(
    output: &'static str,
    dtype: DType,
    shape: &[i64],
    want: Vec<f64>,
    tol: Tolerance,
) -> Expect {
    assert_eq!(want.len() as i64, shape.iter().product::<i64>());
    Expect {
        output,
        dtype,
        shape: shape.to_vec(),
        want,
        tol,
    }
}

fn check_outputs(file: &str, s: &Setup, r: &Run, expects: &[Expect], schedule: Schedule) {
    for e in expects {
        let b = s.buffer(e.output);
        assert_eq!(
            (b.dtype, &b.shape),
            (e.dtype, &e.shape),
            "{file} @{}: output '{}' is {}",
            s.name,
            e.output,
            b.describe()
        );
        let got = r.mem.tensor(b.index, &b.shape);
        let c = check::compare(&b.shape, &got.data, &e.want, e.tol);
        assert!(
            c.ok(),
            "{file} @{} ({schedule:?}, {} steps): output {} {} vs the Rust reference: {c}",
            s.name,
            r.stats.steps,
            e.output,
            b.describe()
        );
    }
}

/// Every buffer of `r` is bit-identical to the deterministic run `det`.
fn assert_same_buffers(s: &Setup, det: &Run, r: &Run, schedule: Schedule) {
    for b in &s.buffers {
        let (x, y) = (
            &det.mem.buffers[b.index].bytes,
            &r.mem.buffers[b.index].bytes,
        );
        if x != y {
            let a = det.mem.tensor(b.index, &b.shape);
            let c = r.mem.tensor(b.index, &b.shape);
            let c = check::compare(&b.shape, &c.data, &a.data, EXACT);
            panic!(
                "@{}: buffer '{}' differs between the deterministic schedule and {schedule:?}: {c}",
                s.name, b.name
            );
        }
    }
}

/// Runs kernel `name` of `file` at its defaults and its `tilus.reference` kernel (if any) on the
/// same inputs, checks both against `reference` (which must cover every declared output), and
/// with `schedules` runs `name` under the random schedules too.
fn check_kernel(file: &str, name: &str, schedules: bool, reference: fn(&Setup) -> Vec<Expect>) {
    let ex = load(file);
    let main = ex.setup(name);
    let expects = reference(&main);
    let mut covered: Vec<&str> = expects.iter().map(|e| e.output).collect();
    let mut declared: Vec<&str> = main.outputs.iter().map(String::as_str).collect();
    covered.sort_unstable();
    declared.sort_unstable();
    assert_eq!(
        covered, declared,
        "{file} @{name}: the outputs checked are not the outputs declared"
    );
    let det = run(&ex, &main, Schedule::Deterministic);
    check_outputs(file, &main, &det, &expects, Schedule::Deterministic);
    if schedules {
        for seed in SCHEDULE_SEEDS {
            let sched = Schedule::Random { seed };
            let r = run(&ex, &main, sched);
            check_outputs(file, &main, &r, &expects, sched);
            assert_same_buffers(&main, &det, &r, sched);
        }
    }
    if let Some(rs) = ex.setup_reference(&main) {
        let r = run(&ex, &rs, Schedule::Deterministic);
        check_outputs(file, &rs, &r, &expects, Schedule::Deterministic);
    }
}

// ----- coverage ----------------------------------------------------------------------------------

/// Every kernel of every example, in source order, and the test that checks it.
const COVERED: &[(&str, &[(&str, &str)])] = &[
    ("arith_basics.mlir", &[]),
    (
        "blackwell_matmul_tcgen05.mlir",
        &[
            ("blackwell_matmul", "blackwell_matmul"),
            ("matmul_ref", "blackwell_matmul"),
        ],
    ),
    (
        "hopper_matmul_persistent_passes.mlir",
        &[
            (
                "hopper_matmul_v1_persistent",
                "hopper_matmul_persistent_passes",
            ),
            ("matmul_ref", "hopper_matmul_persistent_passes"),
        ],
    ),
    (
        "hopper_matmul_v0_tma.mlir",
        &[
            ("hopper_matmul_v0", "hopper_matmul_v0"),
            ("matmul_ref", "hopper_matmul_v0"),
        ],
    ),
    (
        "hopper_matmul_v1_persistent.mlir",
        &[
            ("hopper_matmul_v1_persistent", "hopper_matmul_v1_persistent"),
            ("matmul_ref", "hopper_matmul_v1_persistent"),
        ],
    ),
    (
        "hopper_matmul_v1_wgmma.mlir",
        &[
            ("hopper_matmul_v1", "hopper_matmul_v1"),
            ("matmul_ref", "hopper_matmul_v1"),
        ],
    ),
    (
        "hopper_matmul_v2_pipeline.mlir",
        &[
            ("hopper_matmul_v2", "hopper_matmul_v2"),
            ("matmul_ref", "hopper_matmul_v2"),
        ],
    ),
    (
        "hopper_matmul_v3_warp_specialized.mlir",
        &[
            ("hopper_matmul_ws", "hopper_matmul_v3_ws"),
            ("matmul_ref", "hopper_matmul_v3_ws"),
        ],
    ),
    (
        "hopper_matmul_v4_persistent.mlir",
        &[
            ("hopper_matmul_persistent", "hopper_matmul_v4_persistent"),
            ("matmul_ref", "hopper_matmul_v4_persistent"),
        ],
    ),
    (
        "hopper_matmul_v5_cluster.mlir",
        &[
            ("hopper_matmul_cluster", "hopper_matmul_v5_cluster"),
            ("matmul_ref", "hopper_matmul_v5_cluster"),
        ],
    ),
    (
        "hopper_matmul_v6_tma_epilogue.mlir",
        &[
            (
                "hopper_matmul_tma_epilogue",
                "hopper_matmul_v6_tma_epilogue",
            ),
            ("matmul_ref", "hopper_matmul_v6_tma_epilogue"),
        ],
    ),
    (
        "hopper_matmul_v7_split_k.mlir",
        &[
            ("hopper_matmul_split_k", "hopper_matmul_v7_split_k"),
            ("matmul_ref", "hopper_matmul_v7_split_k"),
        ],
    ),
    (
        "matmul_dot.mlir",
        &[("matmul_dot", "matmul_dot"), ("matmul_ref", "matmul_dot")],
    ),
    (
        "mbarrier_loop.mlir",
        &[
            ("same_thread_loop", "mbarrier_same_thread_loop"),
            ("producer_consumer", "mbarrier_producer_consumer"),
            ("producer_consumer_ref", "mbarrier_producer_consumer"),
        ],
    ),
    (
        "reduction.mlir",
        &[
            ("row_sum", "reduction_row_sum"),
            ("block_sum", "reduction_block_sum"),
        ],
    ),
    ("rmsnorm.mlir", &[("rmsnorm", "rmsnorm")]),
    (
        "rmsnorm_rowwise.mlir",
        &[
            ("rmsnorm_4096", "rmsnorm_rowwise"),
            ("rmsnorm_8192", "rmsnorm_rowwise"),
            ("rmsnorm_4096_r1g8", "rmsnorm_rowwise"),
            ("rmsnorm_4096_r4g2", "rmsnorm_rowwise"),
            ("rmsnorm_8192_r1g16", "rmsnorm_rowwise"),
            ("rmsnorm_8192_r2g4", "rmsnorm_rowwise"),
        ],
    ),
    ("softmax.mlir", &[("softmax", "softmax")]),
    (
        "softmax_rowwise.mlir",
        &[
            ("softmax_4096", "softmax_rowwise"),
            ("softmax_8192", "softmax_rowwise"),
            ("softmax_4096_r1g4", "softmax_rowwise"),
            ("softmax_4096_r4g1", "softmax_rowwise"),
            ("softmax_8192_r1g8", "softmax_rowwise"),
            ("softmax_8192_r2g2", "softmax_rowwise"),
        ],
    ),
    (
        "stencil.mlir",
        &[
            ("add_bias", "stencil_add_bias"),
            ("stencil3", "stencil_stencil3"),
        ],
    ),
    (
        "thread_groups.mlir",
        &[
            ("split_work", "thread_groups_split_work"),
            ("nested", "thread_groups_without_outputs"),
            ("shortcuts", "thread_groups_without_outputs"),
            ("hopper_v3_roles", "thread_groups_without_outputs"),
            ("hopper_v5_roles", "thread_groups_without_outputs"),
            ("copy_ref", "thread_groups_split_work"),
        ],
    ),
    ("vector_add.mlir", &[("vector_add", "vector_add")]),
];

#[test]
fn every_example_kernel_is_covered() {
    let mut files: Vec<String> = std::fs::read_dir(examples_dir())
        .expect("examples/")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".mlir"))
        .collect();
    files.sort();
    let listed: Vec<&str> = COVERED.iter().map(|(f, _)| *f).collect();
    assert_eq!(
        files, listed,
        "examples/*.mlir changed: cover the new files here"
    );
    for (file, kernels) in COVERED {
        let ex = load(file);
        let found: Vec<String> = ex.kernels().into_iter().map(|(n, _)| n).collect();
        let listed: Vec<&str> = kernels.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            found, listed,
            "{file}: its kernels changed: cover them here"
        );
    }
}

// ----- references --------------------------------------------------------------------------------

fn f32r(x: f64) -> f32 {
    x as f32
}

/// `C[i, j] = Σ_p A[i, p] · B[j, p]` with A `[M, K]` and B `[N, K]` (both K-major), in f64.
fn matmul_nt(a: &[f64], b: &[f64], m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        let ar = &a[i * k..(i + 1) * k];
        for j in 0..n {
            let br = &b[j * k..(j + 1) * k];
            c[i * n + j] = ar.iter().zip(br).map(|(x, y)| x * y).sum();
        }
    }
    c
}

/// The matmul examples: f16 `a [m, k]`, f16 `b [n, k]`, f16 `c = a · bᵀ [m, n]`.
/// Buffers a kernel may write that are neither inputs whose values matter nor outputs: the
/// split-K matmul's workspace of partial sums.
const SCRATCH: &[(&str, &str)] = &[("hopper_matmul_split_k", "ws")];

fn matmul_reference(s: &Setup) -> Vec<Expect> {
    let (m, n, k) = (s.int("m"), s.int("n"), s.int("k"));
    let a = s.input("a", DType::F16, &[m, k]);
    let b = s.input("b", DType::F16, &[n, k]);
    let want = matmul_nt(a, b, m as usize, n as usize, k as usize);
    vec![expect("c", DType::F16, &[m, n], want, F16_MATMUL)]
}

#[test]
fn hopper_matmul_v0() {
    check_kernel(
        "hopper_matmul_v0_tma.mlir",
        "hopper_matmul_v0",
        true,
        matmul_reference,
    );
}

/// B is bound through a transposed strided view, so its buffer is the flat `n·k` elements.
#[test]
fn matmul_dot() {
    check_kernel("matmul_dot.mlir", "matmul_dot", true, |s| {
        let (m, n, k) = (s.int("m"), s.int("n"), s.int("k"));
        let a = s.input("a", DType::F16, &[m, k]);
        let b = s.input("b", DType::F16, &[n * k]);
        let want = matmul_nt(a, b, m as usize, n as usize, k as usize);
        vec![expect("c", DType::F16, &[m, n], want, F16_MATMUL)]
    });
}

#[test]
fn hopper_matmul_v1() {
    check_kernel(
        "hopper_matmul_v1_wgmma.mlir",
        "hopper_matmul_v1",
        true,
        matmul_reference,
    );
}

/// The unpipelined persistent input of `pipeline` and `warp-specialize`: one barrier whose phase
/// both the tile loop and the k loop carry, walked over more tiles than blocks.
#[test]
fn hopper_matmul_v1_persistent() {
    check_kernel(
        "hopper_matmul_v1_persistent.mlir",
        "hopper_matmul_v1_persistent",
        true,
        |s| {
            let tiles = ((s.int("m") + 127) / 128) * ((s.int("n") + 255) / 256);
            assert!(
                s.int("num_sms") < tiles,
                "the defaults should make blocks walk tiles"
            );
            matmul_reference(s)
        },
    );
}

/// Issue 17's kernel: the persistent input through `pipeline`, `warp-specialize` and
/// `tma-store-epilogue` (a producer warp, two consumer warpgroups, deferred TMA stores of C).
#[test]
fn hopper_matmul_persistent_passes() {
    check_kernel(
        "hopper_matmul_persistent_passes.mlir",
        "hopper_matmul_v1_persistent",
        true,
        matmul_reference,
    );
}

#[test]
fn hopper_matmul_v2() {
    check_kernel(
        "hopper_matmul_v2_pipeline.mlir",
        "hopper_matmul_v2",
        true,
        matmul_reference,
    );
}

#[test]
fn hopper_matmul_v3_ws() {
    check_kernel(
        "hopper_matmul_v3_warp_specialized.mlir",
        "hopper_matmul_ws",
        true,
        |s| {
            // The host passes the tile count (one block per 128 x 256 tile).
            let (m, n) = (s.int("m"), s.int("n"));
            assert_eq!(
                s.int("num_tiles"),
                ((m + 127) / 128) * ((n + 255) / 256),
                "default num_tiles does not match m and n"
            );
            matmul_reference(s)
        },
    );
}

/// The persistent kernel at its default arguments: fewer blocks than tiles, so a block walks
/// several tiles and carries its barrier ring from one to the next.
#[test]
fn hopper_matmul_v4_persistent() {
    check_kernel(
        "hopper_matmul_v4_persistent.mlir",
        "hopper_matmul_persistent",
        true,
        |s| {
            let tiles = ((s.int("m") + 127) / 128) * ((s.int("n") + 255) / 256);
            assert!(
                s.int("num_sms") < tiles,
                "the defaults should make blocks walk tiles"
            );
            matmul_reference(s)
        },
    );
}

/// The clustered kernel (B multicast across two CTAs, releases in both CTAs).
#[test]
fn hopper_matmul_v5_cluster() {
    check_kernel(
        "hopper_matmul_v5_cluster.mlir",
        "hopper_matmul_cluster",
        true,
        matmul_reference,
    );
}

/// v5 with the epilogue through shared memory and TMA stores (a reshaped view of the buffer
/// against a [M, N / 64, 64] view of C).
#[test]
fn hopper_matmul_v6_tma_epilogue() {
    check_kernel(
        "hopper_matmul_v6_tma_epilogue.mlir",
        "hopper_matmul_tma_epilogue",
        true,
        matmul_reference,
    );
}

/// Split-K: the default arguments give 4 tiles and 8 blocks, so two splits per tile meet
/// through the workspace and the semaphores.
#[test]
fn hopper_matmul_v7_split_k() {
    check_kernel(
        "hopper_matmul_v7_split_k.mlir",
        "hopper_matmul_split_k",
        true,
        matmul_reference,
    );
}

#[test]
fn blackwell_matmul() {
    check_kernel(
        "blackwell_matmul_tcgen05.mlir",
        "blackwell_matmul",
        true,
        matmul_reference,
    );
}

#[test]
fn vector_add() {
    check_kernel("vector_add.mlir", "vector_add", false, |s| {
        let n = s.int("n");
        let a = s.input("a", DType::F32, &[n]);
        let b = s.input("b", DType::F32, &[n]);
        let want = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| (f32r(x) + f32r(y)) as f64)
            .collect();
        vec![expect("c", DType::F32, &[n], want, EXACT)]
    });
}

#[test]
fn reduction_row_sum() {
    check_kernel("reduction.mlir", "row_sum", false, |s| {
        let (m, n) = (s.int("m"), s.int("n"));
        let x = s.input("x", DType::F32, &[m, n]);
        let rows = x.chunks(n as usize);
        let want = rows.clone().map(|r| r.iter().sum()).collect();
        let tol = f32_sums(rows.map(|r| r.iter().map(|v| v.abs()).sum()));
        vec![expect("y", DType::F32, &[m], want, tol)]
    });
}

#[test]
fn reduction_block_sum() {
    // Stage 1 of the two-stage sum: out[b] = x[4096 b .. 4096 (b + 1)], the kernel viewing x as
    // rows of 1024 (n a multiple of 1024), 4 rows per block.
    check_kernel("reduction.mlir", "block_sum", true, |s| {
        let n = s.int("n");
        assert_eq!(n % 1024, 0, "block_sum needs n to be a multiple of 1024");
        let x = s.input("x", DType::F32, &[n / 1024, 1024]);
        let blocks = (n + 4095) / 4096;
        let parts = x.chunks(4096);
        assert_eq!(parts.len() as i64, blocks);
        let want = parts.clone().map(|p| p.iter().sum()).collect();
        let tol = f32_sums(parts.map(|p| p.iter().map(|v| v.abs()).sum()));
        vec![expect("out", DType::F32, &[blocks], want, tol)]
    });
}

#[test]
fn softmax() {
    check_kernel("softmax.mlir", "softmax", false, |s| {
        let (m, n) = (s.int("m"), s.int("n"));
        assert_eq!(n % 256, 0, "softmax needs n to be a multiple of 256");
        let x = s.input("x", DType::F32, &[m, n]);
        let mut want = Vec::with_capacity(x.len());
        for row in x.chunks(n as usize) {
            let mx = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = row.iter().map(|v| (v - mx).exp()).collect();
            let sum: f64 = e.iter().sum();
            want.extend(e.iter().map(|v| v / sum));
        }
        vec![expect("y", DType::F16, &[m, n], want, F16_NORMALIZED)]
    });
}

#[test]
fn rmsnorm() {
    check_kernel("rmsnorm.mlir", "rmsnorm", false, |s| {
        let (m, n, eps) = (s.int("m"), s.int("n"), s.float("eps"));
        assert_eq!(n % 256, 0, "rmsnorm needs n to be a multiple of 256");
        let x = s.input("x", DType::F16, &[m, n]);
        let w = s.input("w", DType::F16, &[n]);
        let mut want = Vec::with_capacity(x.len());
        for row in x.chunks(n as usize) {
            let ms = row.iter().map(|v| v * v).sum::<f64>() / n as f64;
            let rstd = 1.0 / (ms + eps).sqrt();
            want.extend(row.iter().zip(w).map(|(v, g)| v * rstd * g));
        }
        vec![expect("y", DType::F16, &[m, n], want, F16_NORMALIZED)]
    });
}

/// RMSNorm of rows of `N` (the row-wise kernels' tile width, in their names).
fn rmsnorm_rows<const N: i64>(s: &Setup) -> Vec<Expect> {
    let (m, eps) = (s.int("m"), s.float("eps"));
    let x = s.input("x", DType::F16, &[m, N]);
    let w = s.input("w", DType::F16, &[N]);
    let mut want = Vec::with_capacity(x.len());
    for row in x.chunks(N as usize) {
        let ms = row.iter().map(|v| v * v).sum::<f64>() / N as f64;
        let rstd = 1.0 / (ms + eps).sqrt();
        want.extend(row.iter().zip(w).map(|(v, g)| v * rstd * g));
    }
    vec![expect("y", DType::F16, &[m, N], want, F16_NORMALIZED)]
}

/// Softmax of rows of `N`.
fn softmax_rows<const N: i64>(s: &Setup) -> Vec<Expect> {
    let m = s.int("m");
    let x = s.input("x", DType::F16, &[m, N]);
    let mut want = Vec::with_capacity(x.len());
    for row in x.chunks(N as usize) {
        let mx = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = row.iter().map(|v| (v - mx).exp()).collect();
        let sum: f64 = e.iter().sum();
        want.extend(e.iter().map(|v| v / sum));
    }
    vec![expect("y", DType::F16, &[m, N], want, F16_NORMALIZED)]
}

/// The kernels of a row-wise example file, each with the reference for its row length.
fn rowwise_kernels(file: &str) -> Vec<&'static str> {
    COVERED
        .iter()
        .find(|(f, _)| *f == file)
        .map(|(_, ks)| ks.iter().map(|(k, _)| *k).collect())
        .unwrap_or_default()
}

#[test]
fn rmsnorm_rowwise() {
    for k in rowwise_kernels("rmsnorm_rowwise.mlir") {
        let reference = if k.contains("8192") {
            rmsnorm_rows::<8192>
        } else {
            rmsnorm_rows::<4096>
        };
        check_kernel("rmsnorm_rowwise.mlir", k, false, reference);
    }
}

#[test]
fn softmax_rowwise() {
    for k in rowwise_kernels("softmax_rowwise.mlir") {
        let reference = if k.contains("8192") {
            softmax_rows::<8192>
        } else {
            softmax_rows::<4096>
        };
        check_kernel("softmax_rowwise.mlir", k, false, reference);
    }
}

#[test]
fn stencil_add_bias() {
    // y = x + scale * bias (one f32 rounding per op, as written).
    check_kernel("stencil.mlir", "add_bias", false, |s| {
        let (m, n, scale) = (s.int("m"), s.int("n"), f32r(s.float("scale")));
        let x = s.input("x", DType::F32, &[m, n]);
        let bias = s.input("bias", DType::F32, &[n]);
        let want = x
            .chunks(n as usize)
            .flat_map(|row| {
                row.iter()
                    .zip(bias)
                    .map(|(&v, &b)| (f32r(v) + f32r(b) * scale) as f64)
            })
            .collect();
        vec![expect("y", DType::F32, &[m, n], want, EXACT)]
    });
}

#[test]
fn stencil_stencil3() {
    // y[i] = 0.25 (left + right) + 0.5 x[i] in f32, op by op. Edges as documented: each
    // 32-element warp segment is clamped (lane 0 takes itself as its left neighbour, lane 31
    // itself as its right one), and a neighbour past n reads as 0 (the view's extent).
    check_kernel("stencil.mlir", "stencil3", false, |s| {
        let n = s.int("n");
        let x = s.input("x", DType::F32, &[n]);
        let at = |i: usize| if i < x.len() { f32r(x[i]) } else { 0.0 };
        let want = (0..x.len())
            .map(|i| {
                let v = at(i);
                let left = if i % 32 == 0 { v } else { at(i - 1) };
                let right = if i % 32 == 31 { v } else { at(i + 1) };
                ((left + right) * 0.25 + v * 0.5) as f64
            })
            .collect();
        vec![expect("y", DType::F32, &[n], want, EXACT)]
    });
}

#[test]
fn mbarrier_same_thread_loop() {
    // No buffers: the run must end with every barrier phase complete (no warnings), under any
    // schedule.
    check_kernel("mbarrier_loop.mlir", "same_thread_loop", true, |_| {
        Vec::new()
    });
}

#[test]
fn mbarrier_producer_consumer() {
    // y[j] = Σ_i x[32 i + j], accumulated in f32 in ascending i (the consumer's loop order).
    check_kernel("mbarrier_loop.mlir", "producer_consumer", true, |s| {
        let iters = s.int("iters");
        let x = s.input("x", DType::F32, &[iters * 32]);
        let mut acc = [0.0f32; 32];
        for chunk in x.chunks(32) {
            for (a, &v) in acc.iter_mut().zip(chunk) {
                *a += f32r(v);
            }
        }
        let want = acc.iter().map(|&v| v as f64).collect();
        vec![expect("y", DType::F32, &[32], want, EXACT)]
    });
}

#[test]
fn thread_groups_split_work() {
    // Two warps copy one half of the 32 x 16 tile each: dst = src.
    check_kernel("thread_groups.mlir", "split_work", true, |s| {
        let src = s.input("src", DType::F32, &[32, 16]);
        vec![expect("dst", DType::F32, &[32, 16], src.to_vec(), EXACT)]
    });
}

#[test]
fn thread_groups_without_outputs() {
    // Group partitions, group-scoped syncs and an elected arrival: they compute nothing; each
    // must run to the end without a deadlock or warning, under any schedule.
    for k in ["nested", "shortcuts", "hopper_v3_roles", "hopper_v5_roles"] {
        check_kernel("thread_groups.mlir", k, true, |_| Vec::new());
    }
}
