//! `tilus-run`: run a tilus kernel on the CPU interpreter or on the GPU (CUDA backend, through
//! the `tilus-to-ptx` lowering; see `gpu.rs` and `docs/design/cuda-backend.md`), check its
//! outputs, and report.
//!
//! ```text
//! tilus-run FILE [--kernel NAME] [--pass-pipeline PIPELINE] [--arg NAME=VALUE]... [--input NAME=random|zeros|ones|FILE.npy]...
//!           [--output NAME=FILE.npy]... [--expect NAME=FILE.npy]... [--reference NAME]
//!           [--seed N] [--schedule deterministic|random] [--backend auto|interp|cuda] [--max-steps N] [--threads N]
//!           [--dump-ptx] [--compare-backends] [--timeout SECS]
//!           [--bench [--bench-reps N] [--bench-warmup N] [--bench-json PATH] [--bytes N] [--flops N]]
//! ```
//!
//! * The kernels run are `--kernel`'s, else every `tilus.kernel` of the file that is not another
//!   kernel's `tilus.reference`, each with its own report and checks.
//! * `--pass-pipeline` runs passes (tilus-opt's pipeline syntax) on the parsed module first; the
//!   interpreter runs the result, and the CUDA backend lowers a copy of it (the file is parsed
//!   once).
//! * Parameters are bound by the names written in the kernel's signature (see `args`): scalars
//!   from `--arg` or the kernel's `tilus.args`; each `!tilus.ptr<T>` parameter gets a global
//!   buffer shaped by the views the kernel makes of it, filled as `--input` or `tilus.inputs`
//!   say (default `random`, seeded by `--seed`).
//! * Checks: `--expect NAME=FILE.npy`; `--reference NAME` or `tilus.reference` (the other kernel
//!   runs on copies of the same inputs, and the `tilus.outputs` buffers, or every buffer both
//!   kernels have, are compared; tolerances in `check`).
//!
//! Exit codes: 0 success, 1 invalid input (syntax, verifier, a runtime error such as a deadlock,
//! a failed check), 2 bad usage (flags, missing/extra/malformed arguments, unusable `.npy` files,
//! an unavailable backend).

// Errors carry a full diagnostic (message, spans, notes, help); they are the cold path.
#![allow(clippy::result_large_err)]

use clap::{CommandFactory, Parser as ClapParser};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tilus_ir::source::{render, render_mlir_style, SourceFile};
use tilus_ir::{Context, DiagLoc, Diagnostic, OpId, Severity, SourceMap};
use tilus_passes::instrument::{render_timing, TimingEntry};
use tilus_run::args::{self, Assignment, Buffer, KernelDefaults, Param, Requests};
use tilus_run::check::{self, Tolerance};
use tilus_run::cuda::{self, BenchStats, Cublas, CudaBackend, CudaError, GemmDType};
use tilus_run::interp::{self, ArgValue, Options, Schedule};
use tilus_run::memory::GlobalMemory;
use tilus_run::tensor::Tensor;

mod gpu;

/// Steps before a run is stopped as runaway (`--max-steps`).
const DEFAULT_MAX_STEPS: u64 = 100_000_000;

/// Command-line flags.
#[derive(ClapParser, Debug)]
#[command(
    name = "tilus-run",
    version,
    about = "Run tilus kernels on the CPU interpreter or an NVIDIA GPU and check their outputs"
)]
struct Cli {
    /// Kernel file (`.mlir`); `-` reads standard input.
    input: PathBuf,
    /// The kernel to run (default: every kernel that is not another's `tilus.reference`).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    /// Print a wall-time report of each phase (parse, verify, passes, lowering, JIT, launch,
    /// interpreter, checks) to standard error at the end.
    #[arg(long)]
    timing: bool,
    /// Run this pass pipeline on the module before running (tilus-opt's syntax:
    /// `builtin.module(canonicalize,cse)`); the transformed kernels run and are checked.
    #[arg(long, value_name = "PIPELINE")]
    pass_pipeline: Option<String>,
    /// The pipeline that lowers a kernel to PTX for `--backend cuda` and `--dump-ptx`:
    /// `builtin.module(tilus-to-ptx{eqsat=false})` lowers without eqsat, so one binary runs
    /// both variants.
    #[arg(long, value_name = "PIPELINE", default_value = gpu::PIPELINE)]
    lowering: String,
    /// A scalar argument by parameter name (overrides the kernel's `tilus.args`).
    #[arg(long = "arg", value_name = "NAME=VALUE", value_parser = args::parse_assignment)]
    args: Vec<Assignment>,
    /// How a pointer parameter's buffer starts: `random` (default), `zeros`, `ones` or a `.npy` file.
    #[arg(long = "input", value_name = "NAME=random|zeros|ones|FILE.npy", value_parser = args::parse_assignment)]
    inputs: Vec<Assignment>,
    /// Write a buffer after the run to a `.npy` file (atomically).
    #[arg(long = "output", value_name = "NAME=FILE.npy", value_parser = args::parse_assignment)]
    outputs: Vec<Assignment>,
    /// Compare a buffer after the run with a `.npy` file.
    #[arg(long = "expect", value_name = "NAME=FILE.npy", value_parser = args::parse_assignment)]
    expects: Vec<Assignment>,
    /// Compare with another kernel of the file run on the same inputs (overrides `tilus.reference`).
    #[arg(long, value_name = "NAME", conflicts_with = "no_reference")]
    reference: Option<String>,
    /// Do not run the kernel's `tilus.reference`.
    #[arg(long)]
    no_reference: bool,
    /// Seed of the random inputs and of `--schedule random`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// Order in which the interpreter runs ready thread groups.
    #[arg(long, value_enum, default_value_t = ScheduleKind::Deterministic)]
    schedule: ScheduleKind,
    /// Where to run: `auto` (the GPU when usable, else the interpreter), `interp`, `cuda`.
    #[arg(long, value_enum, default_value_t = Backend::Auto)]
    backend: Backend,
    /// Stop a run after this many interpreter steps (a runaway loop).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Interpreter threads running clusters of blocks at once (default: `TILUS_INTERP_THREADS`,
    /// else every core); results and reports are the same for every count, and 1 is the
    /// sequential run.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Run on every backend and compare their outputs (needs the CUDA backend).
    #[arg(long)]
    compare_backends: bool,
    /// Absolute tolerance of every comparison (default: by dtype).
    #[arg(long, value_name = "X")]
    atol: Option<f64>,
    /// Relative tolerance of every comparison (default: by dtype).
    #[arg(long, value_name = "X")]
    rtol: Option<f64>,
    /// Print the kernel's PTX (the `tilus-to-ptx` pipeline) to standard output and exit without
    /// running (needs no GPU).
    #[arg(long)]
    dump_ptx: bool,
    /// Launch this PTX file instead of the lowering's PTX. The lowering still runs and still
    /// decides the launch (entry name, parameters, shared memory, tensor maps), so a hand edit
    /// of `--dump-ptx`'s output can be timed and checked as the kernel itself: the way to try
    /// an instruction sequence on the GPU before teaching the lowering to emit it.
    #[arg(long, value_name = "FILE")]
    ptx_override: Option<std::path::PathBuf>,
    /// Watchdog of the CUDA backend: a launch that has not finished after this many seconds is
    /// reported with the kernel's name and the process exits with status 1.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    timeout: f64,
    /// Time the kernel on the GPU (CUDA events, after warm-up; median) and report time, GB/s
    /// and TFLOP/s beside the device's copy bandwidth.
    #[arg(long)]
    bench: bool,
    /// Timed repetitions of --bench.
    #[arg(long, value_name = "N", default_value_t = 50)]
    bench_reps: usize,
    /// Untimed warm-up launches of --bench.
    #[arg(long, value_name = "N", default_value_t = 5)]
    bench_warmup: usize,
    /// Also write the --bench figures as JSON to this file.
    #[arg(long, value_name = "PATH")]
    bench_json: Option<PathBuf>,
    /// Bytes one launch moves, for GB/s (default: the kernel's `tilus.bytes`, else every
    /// buffer's size).
    #[arg(long, value_name = "N")]
    bytes: Option<f64>,
    /// Floating-point operations of one launch, for TFLOP/s (default: the kernel's `tilus.flops`).
    #[arg(long, value_name = "N")]
    flops: Option<f64>,
    /// With --bench, also time a library on the same device buffers and print the ratio:
    /// `cublas` runs cuBLAS's f16 GEMM (`C = A·Bᵀ`, f32 accumulation) on the kernel's A, B
    /// (`tilus.gemm`, else the parameters a, b, c and the scalars m, n, k), checks its C
    /// against the kernel's and times it the same way.
    #[arg(long, value_enum, value_name = "LIB")]
    compare: Option<CompareWith>,
    /// Record the interpreter run and write it as a self-contained HTML timeline (a lane per
    /// thread group, waits, arrivals, async ops, the report), also when the run fails. Runs on
    /// the interpreter.
    #[arg(long, value_name = "FILE.html")]
    timeline: Option<PathBuf>,
    /// How to report diagnostics: `fancy` (miette, with source) or `mlir` (`file:line:col: error: ...`).
    #[arg(long, value_enum, default_value_t = DiagFormat::Fancy)]
    diagnostic_format: DiagFormat,
    /// Print at most this many errors, then a line counting the rest (0: print every error).
    #[arg(long, value_name = "N", default_value_t = tilus_ir::source::DEFAULT_ERROR_LIMIT)]
    error_limit: usize,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum ScheduleKind {
    Deterministic,
    Random,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum Backend {
    Auto,
    Interp,
    Cuda,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum CompareWith {
    Cublas,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum DiagFormat {
    Fancy,
    Mlir,
}

/// Exit status 1: the input is wrong (or a check failed).
const INVALID: u8 = 1;
/// Exit status 2: the command line is wrong.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let cmd = Cli::command();
    let longs: Vec<String> = cmd
        .get_arguments()
        .flat_map(|a| {
            a.get_long()
                .into_iter()
                .chain(a.get_all_aliases().unwrap_or_default())
                .map(str::to_string)
        })
        .chain(["help".to_string(), "version".to_string()])
        .collect();
    let args = tilus_ir::cli::long_flags_with_one_dash(std::env::args_os(), |n| {
        longs.iter().any(|l| l == n)
    });
    let cli = Cli::parse_from(args);
    match tilus_ir::cli::on_big_stack(|| run(&cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => ExitCode::from(code),
    }
}

/// The interpreter's thread count: `--threads`, else `TILUS_INTERP_THREADS`, else 0 (every
/// core, `interp::Options::threads`). A count that is not a positive integer is a usage error,
/// so a typo in the environment does not silently change how a run is made.
fn interp_threads(cli: &Cli) -> Result<usize, String> {
    match cli.threads {
        Some(0) => Err("--threads 0: expected at least 1 thread".into()),
        Some(n) => Ok(n),
        None => match std::env::var("TILUS_INTERP_THREADS") {
            Err(_) => Ok(0),
            Ok(v) => match v.trim().parse::<usize>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!(
                    "TILUS_INTERP_THREADS={v:?}: expected a positive number of threads"
                )),
            },
        },
    }
}

/// A problem with no source to point into, printed as a miette report.
fn plain_error(msg: &str, help: Option<&str>) {
    let report = match help {
        Some(h) => miette::miette!(help = h.to_string(), "{msg}"),
        None => miette::miette!("{msg}"),
    };
    // As `tilus_ir::source::render` does: no colour, no wrapping (stable for tests and grep).
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(400);
    let mut out = String::new();
    let _ = handler.render_report(&mut out, report.as_ref());
    let _ = std::io::stderr().write_all(out.as_bytes());
}

/// The parsed file and what rendering its diagnostics needs.
struct Loaded {
    ctx: Context,
    file: SourceFile,
    map: SourceMap,
    module: OpId,
    /// `--timing`: what each phase took, in order.
    timing: Timing,
    /// The last note `--backend auto` printed (see `run_one`).
    auto_note: std::cell::RefCell<Option<String>>,
    /// `--timeline`: each checked kernel's recorded run, in run order.
    timelines: std::cell::RefCell<Vec<(String, interp::timeline::Timeline)>>,
    /// `--ptx-override`: the file's text, read once before anything runs.
    ptx_override: Option<String>,
}

/// Wall time per phase for `--timing` (parse, passes, lowering, JIT, run, checks), printed as
/// tilus-opt prints its own report.
#[derive(Default)]
struct Timing(std::cell::RefCell<Vec<TimingEntry>>);

impl Timing {
    /// Runs `f`, recording its wall time under `name`.
    fn time<T>(&self, name: impl Into<String>, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let r = f();
        self.0.borrow_mut().push(TimingEntry {
            name: name.into(),
            depth: 0,
            wall: start.elapsed(),
        });
        r
    }
}

impl Loaded {
    fn emit(&self, cli: &Cli, d: &Diagnostic) {
        let fixed;
        let d = match self.attr_span(d.loc) {
            Some(s) => {
                fixed = Diagnostic {
                    loc: DiagLoc::Span(s),
                    ..d.clone()
                };
                &fixed
            }
            None => d,
        };
        let s = match cli.diagnostic_format {
            DiagFormat::Fancy => render(Some(&self.ctx), Some(&self.map), &self.file, d),
            DiagFormat::Mlir => render_mlir_style(Some(&self.ctx), Some(&self.map), &self.file, d),
        };
        let _ = std::io::stderr().write_all(s.as_bytes());
    }

    /// Where a kernel's discardable attribute (`tilus.args`, ...) is written, when the parse
    /// did not record it: the first `name` after the op's name (it is in the kernel's header).
    fn attr_span(&self, loc: DiagLoc) -> Option<tilus_ir::Span> {
        let DiagLoc::OpAttr(op, name) = loc else {
            return None;
        };
        if self.map.op_attr(op, name).is_some() {
            return None;
        }
        let start = self.map.op_name(op)?.start;
        let end = self.file.text.len().min(start + 8192);
        let window = self.file.text.get(start..end)?;
        let needle = if name == "sym_name" {
            format!("@{}", args::kernel_name(&self.ctx, op))
        } else {
            name.to_string()
        };
        let at = window.find(&needle)?;
        Some(tilus_ir::Span::new(start + at, start + at + needle.len()))
    }

    /// Prints `d` and returns `code`, for `map_err`.
    fn fail(&self, cli: &Cli, code: u8, d: Diagnostic) -> u8 {
        self.emit(cli, &d);
        code
    }
}

fn read_input(path: &Path) -> Result<(String, String), String> {
    if path.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(("<stdin>".into(), tilus_ir::cli::decode_utf8("<stdin>", b)?));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| format!("cannot open input file '{}': {e}", path.display()))?;
    let text = tilus_ir::cli::decode_utf8(&path.display().to_string(), bytes)?;
    Ok((path.display().to_string(), text))
}

/// Reads, parses and verifies the file; diagnostics are printed (exit 1). `ptx_override` is
/// `--ptx-override`'s text, read before.
fn load(cli: &Cli, ptx_override: Option<String>) -> Result<Loaded, u8> {
    // A malformed pipeline is a usage error, found before any input is read.
    let pipeline = match &cli.pass_pipeline {
        None => None,
        Some(text) => match tilus_passes::parse_pipeline(text, tilus_passes::Nesting::Explicit) {
            Ok(root) => Some(root),
            Err(d) => {
                let file = SourceFile::new("<pass-pipeline>", text.clone());
                let s = match cli.diagnostic_format {
                    DiagFormat::Fancy => render(None, None, &file, &d),
                    DiagFormat::Mlir => render_mlir_style(None, None, &file, &d),
                };
                let _ = std::io::stderr().write_all(s.as_bytes());
                return Err(USAGE);
            }
        },
    };
    let (name, text) = read_input(&cli.input).map_err(|m| {
        plain_error(&m, None);
        INVALID
    })?;
    let file = SourceFile::new(name, text);
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    let emit_all = |ctx: &Context, map: &SourceMap, diags: &[Diagnostic]| {
        let mut limit = tilus_ir::source::ErrorLimit::new(cli.error_limit);
        for d in diags.iter().filter(|d| limit.admit(d)) {
            let s = match cli.diagnostic_format {
                DiagFormat::Fancy => render(Some(ctx), Some(map), &file, d),
                DiagFormat::Mlir => render_mlir_style(Some(ctx), Some(map), &file, d),
            };
            let _ = std::io::stderr().write_all(s.as_bytes());
        }
        if let Some(rest) = limit.summary() {
            let _ = std::io::stderr().write_all(rest.as_bytes());
        }
    };
    let timing = Timing::default();
    let parsed = match timing.time("Parser", || {
        tilus_ir::parse(&mut ctx, &file.text, &file.name)
    }) {
        Ok(p) => p,
        Err((diags, map)) => {
            emit_all(&ctx, &map, &diags);
            return Err(INVALID);
        }
    };
    let diags = timing.time("Verifier", || tilus_ir::verify(&ctx, parsed.module));
    if !diags.is_empty() {
        emit_all(&ctx, &parsed.source_map, &diags);
        if diags.iter().any(|d| d.severity == Severity::Error) {
            return Err(INVALID);
        }
    }
    if let Some(root) = pipeline {
        let mut pm = tilus_passes::PassManager::new(root);
        pm.enable_verifier(true);
        let ran = timing.time("Pass pipeline", || pm.run(&mut ctx, parsed.module));
        if let Err(diags) = ran {
            emit_all(&ctx, &parsed.source_map, &diags);
            return Err(INVALID);
        }
    }
    // Parallel loops run as the lowering runs them: as scf.for nests (any order of their
    // iterations is theirs to take), so the interpreter and the GPU see the same loops.
    if let Err(diags) = tilus_passes::lower::scf_parallel::sequentialize(&mut ctx, parsed.module) {
        emit_all(&ctx, &parsed.source_map, &diags);
        return Err(INVALID);
    }
    Ok(Loaded {
        ctx,
        file,
        map: parsed.source_map,
        module: parsed.module,
        timing,
        auto_note: Default::default(),
        timelines: Default::default(),
        ptx_override,
    })
}

/// The reference kernels named by the file's kernels (`tilus.reference`).
fn referenced_names(ctx: &Context, kernels: &[(String, OpId)]) -> Vec<String> {
    let mut out = Vec::new();
    for (_, k) in kernels {
        if let Some(a) = ctx.get_attr(*k, tilus_dialects::tilus::attr_names::REFERENCE) {
            match ctx.attr_kind(a) {
                tilus_ir::AttrKind::String { value, .. } => {
                    out.push(String::from_utf8_lossy(value).into_owned())
                }
                tilus_ir::AttrKind::SymbolRef { root, .. } => out.push(root.clone()),
                _ => {}
            }
        }
    }
    out
}

/// The kernels to run: `--kernel`'s, else every kernel of the file that no other kernel names
/// as its `tilus.reference` (references run as part of checking the kernels that name them).
fn pick_kernels(cli: &Cli, l: &Loaded) -> Result<Vec<(String, OpId)>, u8> {
    let kernels = args::kernels(&l.ctx, l.module);
    let names: Vec<String> = kernels.iter().map(|(n, _)| format!("@{n}")).collect();
    if kernels.is_empty() {
        let mut lowered = false;
        l.ctx.walk(l.module, &mut |o| {
            lowered |= tilus_dialects::ptx::EntryOp::is(&l.ctx, o);
        });
        let help = if lowered {
            "this module was lowered to PTX (it holds ptx.entry ops); tilus-run runs kernels \
             before the lowering: give it the IR before `tilus-to-ptx` (and see the PTX with \
             `tilus-run --dump-ptx`)"
        } else {
            "tilus-run runs `tilus.kernel @name(...) warps(..) blocks(..) { ... }` ops"
        };
        plain_error(
            &format!("'{}' has no tilus.kernel to run", l.file.name),
            Some(help),
        );
        return Err(INVALID);
    }
    if let Some(want) = &cli.kernel {
        let want = want.trim_start_matches('@');
        return match kernels.iter().find(|(n, _)| n == want) {
            Some(k) => Ok(vec![k.clone()]),
            None => {
                plain_error(
                    &format!(
                        "--kernel {want}: '{}' has no kernel named @{want}",
                        l.file.name
                    ),
                    Some(&format!("its kernels are: {}", names.join(", "))),
                );
                Err(USAGE)
            }
        };
    }
    let refs = referenced_names(&l.ctx, &kernels);
    let candidates: Vec<(String, OpId)> = kernels
        .iter()
        .filter(|(n, _)| !refs.contains(n))
        .cloned()
        .collect();
    if candidates.is_empty() {
        // Every kernel is some other kernel's reference (a cycle): run them all.
        return Ok(kernels);
    }
    Ok(candidates)
}

/// One run's outcome.
struct Ran {
    mem: GlobalMemory,
    stats: interp::RunStats,
    wall: std::time::Duration,
}

fn run_kernel(
    cli: &Cli,
    l: &Loaded,
    (kernel, record): (OpId, Option<&str>),
    args: &[ArgValue],
    mut mem: GlobalMemory,
) -> Result<Ran, u8> {
    let timeline = match (record, &cli.timeline) {
        (Some(_), Some(_)) => Some(interp::timeline::Timeline::shared()),
        _ => None,
    };
    let opts = Options {
        schedule: match cli.schedule {
            ScheduleKind::Deterministic => Schedule::Deterministic,
            ScheduleKind::Random => Schedule::Random { seed: cli.seed },
        },
        max_steps: cli.max_steps,
        progress: progress_bar("interpreting"),
        timeline: timeline.clone(),
        threads: interp_threads(cli).unwrap_or(1),
    };
    let start = Instant::now();
    let r = interp::run(&l.ctx, kernel, args, &mut mem, &opts);
    let wall = start.elapsed();
    clear_progress();
    if let (Some(name), Some(t)) = (record, timeline) {
        let t = t.lock().map(|t| t.clone()).unwrap_or_default();
        l.timelines.borrow_mut().push((name.to_string(), t));
    }
    match r {
        Ok(stats) => {
            for w in &stats.warnings {
                l.emit(cli, w);
            }
            Ok(Ran { mem, stats, wall })
        }
        Err(diags) => {
            for d in &diags {
                l.emit(cli, d);
            }
            Err(INVALID)
        }
    }
}

/// Whether progress is drawn: only on a terminal, and not when `TILUS_NO_PROGRESS` is set.
fn progress_wanted() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("TILUS_NO_PROGRESS").is_none()
}

/// A progress bar on standard error for long work (interpreter runs, benches), drawn in place
/// once the work has taken half a second and at most ten times a second; `None` (no callback)
/// when standard error is not a terminal, so logs and pipes get no control characters.
fn progress_bar(what: &'static str) -> Option<interp::Progress> {
    if !progress_wanted() {
        return None;
    }
    let start = Instant::now();
    let last = std::sync::Mutex::new(None::<Instant>);
    Some(std::sync::Arc::new(move |done: u64, total: u64| {
        let now = Instant::now();
        if now.duration_since(start) < Duration::from_millis(500) {
            return;
        }
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| now.duration_since(t) < Duration::from_millis(100)) && done < total
        {
            return;
        }
        *last = Some(now);
        let width = 30usize;
        let filled = if total == 0 {
            width
        } else {
            ((done as f64 / total as f64) * width as f64) as usize
        }
        .min(width);
        eprint!(
            "\r{what} [{}{}] {done}/{total} blocks, {:.1} s\x1b[K",
            "#".repeat(filled),
            "-".repeat(width - filled),
            now.duration_since(start).as_secs_f64()
        );
    }))
}

/// Erases the progress line, if one may have been drawn.
fn clear_progress() {
    if progress_wanted() {
        eprint!("\r\x1b[K");
    }
}

fn fresh_memory(buffers: &[Buffer], initial: &[Tensor]) -> GlobalMemory {
    let mut mem = GlobalMemory::default();
    for (b, t) in buffers.iter().zip(initial) {
        mem.add(&b.name, t);
    }
    mem
}

/// `d` with `--atol`/`--rtol` where given (`d` is `check::tolerance` or, for
/// `--compare-backends`, `check::backend_tolerance` of the buffer's dtype).
fn tolerance(cli: &Cli, d: Tolerance) -> Tolerance {
    Tolerance {
        atol: cli.atol.unwrap_or(d.atol),
        rtol: cli.rtol.unwrap_or(d.rtol),
    }
}

/// Where the kernel runs, once the backends have been tried.
struct Gpu<'b> {
    be: &'b CudaBackend,
    lowered: gpu::Lowered,
}

/// Reports a CUDA failure. A watchdog timeout exits the process at once with status 1 (the
/// context may still be running the kernel: nothing may call the driver again, spec'd in
/// `docs/design/cuda-backend.md`); any other failure is status 1 too, returned.
fn cuda_fail(what: &str, e: CudaError) -> u8 {
    if let CudaError::Timeout { .. } = e {
        plain_error(
            &format!("{what}: {e}"),
            Some("raise the limit with --timeout SECS if the kernel is only slow; run it on the interpreter (--backend interp) for a deadlock report"),
        );
        std::process::exit(INVALID as i32);
    }
    plain_error(&format!("{what}: {e}"), None);
    INVALID
}

fn buffers_shown<'b>(defaults: &KernelDefaults, buffers: &'b [Buffer]) -> Vec<&'b Buffer> {
    match &defaults.outputs {
        Some(names) => buffers.iter().filter(|b| names.contains(&b.name)).collect(),
        None => buffers.iter().collect(),
    }
}

/// The launch of a kernel on the GPU: grid as the interpreter computes it, its warps and
/// cluster, the lowering's shared memory.
#[allow(clippy::too_many_arguments)]
fn gpu_launch(
    l: &Loaded,
    be: &CudaBackend,
    lowered: &gpu::Lowered,
    kernel: OpId,
    params: &[Param],
    args: &[ArgValue],
    mem: &GlobalMemory,
    grid: [i64; 3],
) -> Result<gpu::Launch, CudaError> {
    let k = tilus_dialects::tilus::KernelOp::cast(&l.ctx, kernel);
    let warps = k.map_or(1, |k| k.warps(&l.ctx));
    let cluster = k
        .and_then(|k| k.cluster(&l.ctx))
        .and_then(|a| tilus_dialects::tilus_types::attr_i64s(&l.ctx, a));
    let cfg = gpu::launch_config(grid, warps, cluster.as_deref(), lowered.smem_bytes)?;
    gpu::prepare(be, lowered, params, args, mem, cfg)
}

fn run(cli: &Cli) -> Result<(), u8> {
    if cli.backend == Backend::Interp
        && (cli.compare_backends || cli.bench || cli.ptx_override.is_some())
    {
        let flag = if cli.bench {
            "--bench"
        } else if cli.compare_backends {
            "--compare-backends"
        } else {
            "--ptx-override"
        };
        plain_error(
            &format!(
                "{flag} runs the kernel on the GPU; it cannot be combined with --backend interp"
            ),
            Some("use --backend cuda (or auto)"),
        );
        return Err(USAGE);
    }
    if cli.compare.is_some() && !cli.bench {
        plain_error(
            "--compare cublas times cuBLAS beside the kernel's timing; it needs --bench",
            Some("add --bench (and --backend cuda)"),
        );
        return Err(USAGE);
    }
    if cli.dump_ptx && cli.ptx_override.is_some() {
        plain_error(
            "--ptx-override launches a PTX file; --dump-ptx prints the lowering's PTX without launching",
            Some("drop one of them"),
        );
        return Err(USAGE);
    }
    // Read up front so a bad path is reported before any kernel is loaded or run.
    let ptx_override = match &cli.ptx_override {
        None => None,
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(e) => {
                plain_error(
                    &format!("cannot read --ptx-override file '{}': {e}", path.display()),
                    None,
                );
                return Err(USAGE);
            }
        },
    };
    if cli.bench && cli.bench_reps == 0 {
        plain_error("--bench-reps must be at least 1", None);
        return Err(USAGE);
    }
    if let Err(msg) = interp_threads(cli) {
        plain_error(
            &msg,
            Some("give a thread count of at least 1 (1 runs the blocks one cluster at a time)"),
        );
        return Err(USAGE);
    }
    if !(cli.timeout > 0.0 && cli.timeout.is_finite()) {
        plain_error(
            &format!(
                "--timeout {}: expected a positive number of seconds",
                cli.timeout
            ),
            None,
        );
        return Err(USAGE);
    }
    if cli.timeline.is_some() && (needs_gpu_flags(cli) || cli.dump_ptx) {
        plain_error(
            "--timeline records a run of the CPU interpreter; it cannot be combined with --backend cuda, --bench, --compare-backends or --dump-ptx",
            Some("drop those flags (the timeline run uses the interpreter), or run twice"),
        );
        return Err(USAGE);
    }
    // Backends first: nothing else matters when the one asked for does not exist. `auto` falls
    // back to the interpreter; `cuda`, --compare-backends and --bench need the GPU.
    let needs_gpu = !cli.dump_ptx && needs_gpu_flags(cli);
    let mut backend: Option<CudaBackend> = None;
    let mut no_gpu_reason = String::new();
    if !cli.dump_ptx && cli.backend != Backend::Interp && cli.timeline.is_none() {
        match CudaBackend::open() {
            Ok(mut be) => {
                be.set_timeout(Duration::from_secs_f64(cli.timeout));
                backend = Some(be);
            }
            Err(e) if needs_gpu => {
                let (flag, help) = if cli.compare.is_some() {
                    (
                        "--compare cublas (timing cuBLAS on the GPU)",
                        "run without --bench and --compare on the CPU interpreter",
                    )
                } else if cli.backend == Backend::Cuda {
                    (
                        "--backend cuda",
                        "run on the CPU interpreter with --backend interp (or auto)",
                    )
                } else if cli.compare_backends {
                    ("--compare-backends (the GPU against the interpreter)", "check against a reference kernel (--reference) or a file (--expect) instead")
                } else if cli.ptx_override.is_some() && !cli.bench {
                    (
                        "--ptx-override (launching PTX on the GPU)",
                        "run without --ptx-override on the CPU interpreter",
                    )
                } else {
                    (
                        "--bench (timing on the GPU)",
                        "run without --bench on the CPU interpreter",
                    )
                };
                plain_error(&format!("{flag}: {e}"), Some(help));
                return Err(USAGE);
            }
            Err(e) => no_gpu_reason = e.to_string(),
        }
    }
    if backend.is_some() && cli.compare == Some(CompareWith::Cublas) && !cuda::cublas_present() {
        plain_error(
            "--compare cublas: the CUDA backend is unavailable: no cuBLAS library was found (libcublas.so, libcublas.so.13 or libcublas.so.12 is not on the loader's path)",
            Some("add the CUDA toolkit's lib64 folder (or the nvidia-cublas wheel's lib folder) to LD_LIBRARY_PATH, or run without --compare"),
        );
        return Err(USAGE);
    }

    let started = Instant::now();
    let l = load(cli, ptx_override)?;
    let result = run_loaded(cli, &l, backend.as_ref(), needs_gpu, &no_gpu_reason);
    let result = match (&cli.timeline, write_timeline(cli, &l)) {
        (Some(_), Err(code)) => result.and(Err(code)),
        _ => result,
    };
    if cli.timing {
        eprint!("{}", render_timing(&l.timing.0.borrow(), started.elapsed()));
    }
    result
}

/// Whether the flags ask for the GPU (`--backend cuda`, `--compare-backends`, `--bench`).
fn needs_gpu_flags(cli: &Cli) -> bool {
    cli.backend == Backend::Cuda || cli.compare_backends || cli.bench || cli.ptx_override.is_some()
}

/// Whether PTX `text` defines `.entry NAME` (`NAME(` or `NAME (`).
fn ptx_defines_entry(text: &str, entry: &str) -> bool {
    text.lines().any(|l| {
        let mut w = l.split_whitespace().skip_while(|t| *t != ".entry").skip(1);
        w.next().is_some_and(|n| n.trim_end_matches('(') == entry)
    })
}

/// `--ptx-override FILE`: the file's text must define the entry the lowering named (else the
/// launch would fail later with a driver error that names neither).
fn check_ptx_override(cli: &Cli, text: &str, entry: &str) -> Result<(), u8> {
    if !ptx_defines_entry(text, entry) {
        let path = cli
            .ptx_override
            .as_deref()
            .unwrap_or(std::path::Path::new("-"));
        plain_error(
            &format!(
                "--ptx-override file '{}' has no `.entry {entry}`",
                path.display()
            ),
            Some("the file must define the kernel the lowering names (see --dump-ptx)"),
        );
        return Err(INVALID);
    }
    Ok(())
}

/// `--timeline FILE`: writes the recorded runs (if any kernel ran) as an HTML page.
fn write_timeline(cli: &Cli, l: &Loaded) -> Result<(), u8> {
    let Some(path) = &cli.timeline else {
        return Ok(());
    };
    let runs = l.timelines.borrow();
    let describe = |op: OpId| {
        let name = l.ctx.op_name_str(op);
        match l.map.op_name(op) {
            Some(sp) if sp.start <= l.file.text.len() => {
                let before = &l.file.text[..sp.start];
                let line = before.matches('\n').count() + 1;
                let col = sp.start - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("{name} ({}:{line}:{col})", l.file.name)
            }
            _ => name.to_string(),
        }
    };
    let title = format!("tilus-run timeline: {}", l.file.name);
    let html = tilus_run::timeline_html::render(&title, &runs, &describe);
    tilus_ir::source::write_file_atomically(path, html.as_bytes(), "tilus-run").map_err(|e| {
        plain_error(
            &format!("cannot write the timeline '{}': {e}", path.display()),
            None,
        );
        INVALID
    })
}

/// Runs the chosen kernels of the loaded file.
fn run_loaded(
    cli: &Cli,
    l: &Loaded,
    backend: Option<&CudaBackend>,
    needs_gpu: bool,
    no_gpu_reason: &str,
) -> Result<(), u8> {
    let chosen = pick_kernels(cli, l)?;
    if chosen.len() == 1 {
        let (name, kernel) = &chosen[0];
        return run_one(cli, l, (name, *kernel), backend, needs_gpu, no_gpu_reason);
    }
    // Several kernels: each runs (and is checked against its reference) in turn; flags that
    // name one kernel's parameters cannot apply to all of them.
    let per_kernel = [
        ("--arg", !cli.args.is_empty()),
        ("--input", !cli.inputs.is_empty()),
        ("--output", !cli.outputs.is_empty()),
        ("--expect", !cli.expects.is_empty()),
        ("--reference", cli.reference.is_some()),
        ("--bench", cli.bench),
        ("--dump-ptx", cli.dump_ptx),
    ];
    if let Some((flag, _)) = per_kernel.iter().find(|(_, given)| *given) {
        let names: Vec<String> = chosen.iter().map(|(n, _)| format!("@{n}")).collect();
        plain_error(
            &format!(
                "{flag} applies to one kernel, but '{}' runs {} kernels ({})",
                l.file.name,
                chosen.len(),
                names.join(", ")
            ),
            Some("choose the kernel with --kernel NAME"),
        );
        return Err(USAGE);
    }
    let mut failed: Vec<String> = Vec::new();
    let mut worst = 0u8;
    for (i, (name, kernel)) in chosen.iter().enumerate() {
        if i > 0 {
            print_stdout("\n");
        }
        if let Err(code) = run_one(cli, l, (name, *kernel), backend, needs_gpu, no_gpu_reason) {
            failed.push(format!("@{name}"));
            worst = worst.max(code);
        }
    }
    if failed.is_empty() {
        print_stdout(&format!("\nall {} kernels passed\n", chosen.len()));
        Ok(())
    } else {
        plain_error(
            &format!(
                "{} of {} kernels failed: {}",
                failed.len(),
                chosen.len(),
                failed.join(", ")
            ),
            Some("each kernel's report is above; rerun one with --kernel NAME"),
        );
        Err(worst)
    }
}

/// Runs one kernel of the loaded file (lowering it first on the GPU), checks its outputs and
/// prints its report.
fn run_one(
    cli: &Cli,
    l: &Loaded,
    (name, kernel): (&str, OpId),
    backend: Option<&CudaBackend>,
    needs_gpu: bool,
    no_gpu_reason: &str,
) -> Result<(), u8> {
    let name = name.to_string();
    let mlir_style = cli.diagnostic_format == DiagFormat::Mlir;
    if cli.dump_ptx {
        return match gpu::lower(
            (&l.ctx, l.module, &l.map),
            &l.file,
            &name,
            mlir_style,
            &cli.lowering,
        ) {
            Ok(low) => {
                print_stdout(&low.ptx);
                Ok(())
            }
            Err((rendered, _)) => {
                let _ = std::io::stderr().write_all(rendered.as_bytes());
                plain_error(
                    &format!("--dump-ptx: kernel @{name} cannot be lowered to PTX (see above)"),
                    None,
                );
                Err(INVALID)
            }
        };
    }
    // What `auto` picked, said just before the run (after the arguments are checked).
    let mut auto_note = None;
    let gpu_ctx: Option<Gpu> = match backend {
        None => {
            if cli.backend == Backend::Auto && cli.timeline.is_some() {
                auto_note =
                    Some("tilus-run: --timeline records the CPU interpreter's run".to_string());
            } else if cli.backend == Backend::Auto {
                auto_note = Some(format!(
                    "tilus-run: no usable GPU ({no_gpu_reason}); running on the CPU interpreter"
                ));
            }
            None
        }
        Some(be) => {
            let lowered = l.timing.time(format!("Lowering @{name} to PTX"), || {
                gpu::lower(
                    (&l.ctx, l.module, &l.map),
                    &l.file,
                    &name,
                    mlir_style,
                    &cli.lowering,
                )
            });
            let lowered = match (lowered, &l.ptx_override) {
                (Ok(mut lowered), Some(text)) => {
                    check_ptx_override(cli, text, &lowered.entry)?;
                    lowered.ptx = text.clone();
                    Ok(lowered)
                }
                (other, _) => other,
            };
            match lowered {
                Ok(lowered) => {
                    if cli.backend == Backend::Auto {
                        auto_note = Some(format!(
                            "tilus-run: running on the GPU ({})",
                            be.info().name
                        ));
                    }
                    Some(Gpu { be, lowered })
                }
                Err((_, first)) if !needs_gpu => {
                    auto_note = Some(format!(
                    "tilus-run: kernel @{name} cannot be lowered to PTX ({first}); running on the CPU interpreter"
                ));
                    None
                }
                Err((rendered, _)) => {
                    let _ = std::io::stderr().write_all(rendered.as_bytes());
                    plain_error(
                    &format!("kernel @{name} cannot be lowered to PTX for the CUDA backend (see above)"),
                    Some("run it on the CPU interpreter with --backend interp (or auto)"),
                );
                    return Err(INVALID);
                }
            }
        }
    };

    let bind_start = Instant::now();
    let params = args::params(&l.ctx, kernel, &l.file);
    let base = match cli.input.parent() {
        Some(p) if cli.input.as_os_str() != "-" => p.to_path_buf(),
        _ => PathBuf::new(),
    };
    let defaults = args::kernel_defaults(&l.ctx, kernel, &params, &base)
        .map_err(|d| l.fail(cli, INVALID, d))?;
    let requests = Requests {
        args: cli.args.clone(),
        inputs: cli.inputs.clone(),
        outputs: cli.outputs.clone(),
        expects: cli.expects.clone(),
    };
    args::check_requests(kernel, &name, &params, &requests).map_err(|d| l.fail(cli, USAGE, d))?;
    let reference = resolve_reference(cli, l, kernel, &name, &defaults)?;
    let arg_values = args::bind_scalars(kernel, &params, &cli.args, &defaults)
        .map_err(|d| l.fail(cli, USAGE, d))?;
    let buffers = args::plan_buffers(&l.ctx, kernel, &params, &arg_values, &cli.inputs, &defaults)
        .map_err(|d| l.fail(cli, INVALID, d))?;
    let (mem, initial) = args::init_memory(kernel, &params, &buffers, cli.seed)
        .map_err(|d| l.fail(cli, USAGE, d))?;
    let grid = interp::grid(&l.ctx, kernel, &arg_values).map_err(|d| l.fail(cli, INVALID, d))?;
    let warps =
        tilus_dialects::tilus::KernelOp::cast(&l.ctx, kernel).map_or(0, |k| k.warps(&l.ctx));
    l.timing.0.borrow_mut().push(TimingEntry {
        name: format!("Arguments and inputs @{name}"),
        depth: 0,
        wall: bind_start.elapsed(),
    });

    if let Some(n) = auto_note {
        // Said once per file, not once per kernel, when every kernel gets the same note.
        let mut said = l.auto_note.borrow_mut();
        if said.as_deref() != Some(n.as_str()) {
            eprintln!("{n}");
            *said = Some(n);
        }
    }
    // Run.
    let mut launch: Option<gpu::Launch> = None;
    let (final_mem, wall, steps) = match &gpu_ctx {
        Some(g) => {
            let what = format!("running @{name} on the GPU");
            let lz = l
                .timing
                .time(format!("JIT and upload @{name}"), || {
                    gpu_launch(
                        l,
                        g.be,
                        &g.lowered,
                        kernel,
                        &params,
                        &arg_values,
                        &mem,
                        grid,
                    )
                })
                .map_err(|e| cuda_fail(&what, e))?;
            let wall = l
                .timing
                .time(format!("Launch @{name}"), || lz.run(g.be))
                .map_err(|e| cuda_fail(&what, e))?;
            let mut out = mem;
            l.timing
                .time(format!("Download @{name}"), || lz.download(g.be, &mut out))
                .map_err(|e| cuda_fail(&what, e))?;
            launch = Some(lz);
            (out, wall, None)
        }
        None => {
            let ran = run_kernel(cli, l, (kernel, Some(&name)), &arg_values, mem)?;
            l.timing.0.borrow_mut().push(TimingEntry {
                name: format!(
                    "Interpreter @{name}: {} blocks, {} steps, {} thread{}",
                    ran.stats.ctas,
                    ran.stats.steps,
                    ran.stats.threads,
                    if ran.stats.threads == 1 { "" } else { "s" }
                ),
                depth: 0,
                wall: ran.wall,
            });
            (ran.mem, ran.wall, Some(ran.stats))
        }
    };

    // Report.
    let mut out = String::new();
    out.push_str(&format!("kernel: @{name} ({})\n", l.file.name));
    match &gpu_ctx {
        Some(g) => out.push_str(&format!(
            "backend: cuda ({}, {})\n",
            g.be.info().name,
            g.lowered.target
        )),
        None => out.push_str("backend: interp\n"),
    }
    out.push_str(&format!(
        "grid: {}x{}x{} blocks of {} threads ({warps} warp{})\n",
        grid[0],
        grid[1],
        grid[2],
        32 * warps,
        if warps == 1 { "" } else { "s" }
    ));
    match (&gpu_ctx, &launch) {
        (Some(g), Some(lz)) => {
            let cluster = match lz.cfg.cluster {
                Some(c) => format!(", cluster {}", gpu::dim(c)),
                None => String::new(),
            };
            out.push_str(&format!(
                "launch: {} registers a thread, {} bytes of dynamic shared memory{cluster}, {} tensor map{}\n",
                lz.kernel.num_regs,
                g.lowered.smem_bytes,
                g.lowered.tensor_maps.len(),
                if g.lowered.tensor_maps.len() == 1 { "" } else { "s" }
            ));
        }
        _ => {
            let sched = match cli.schedule {
                ScheduleKind::Deterministic => "deterministic".to_string(),
                ScheduleKind::Random => format!("random (seed {})", cli.seed),
            };
            out.push_str(&format!("schedule: {sched}\n"));
        }
    }
    let scalars: Vec<String> = params
        .iter()
        .zip(&arg_values)
        .filter(|(p, _)| !p.is_pointer())
        .map(|(p, v)| format!("{}={}", p.name, args::arg_text(v)))
        .collect();
    if !scalars.is_empty() {
        out.push_str(&format!("args: {}\n", scalars.join(" ")));
    }
    let inits: Vec<String> = buffers
        .iter()
        .map(|b| format!("{}={}", b.name, init_text(&b.init)))
        .collect();
    if !inits.is_empty() {
        out.push_str(&format!(
            "inputs: {} (seed {})\n",
            inits.join(" "),
            cli.seed
        ));
    }
    if let Some(stats) = &steps {
        let plural = if stats.ctas == 1 { "" } else { "s" };
        out.push_str(&format!(
            "steps: {} ({} block{plural} run)\n",
            stats.steps, stats.ctas
        ));
        out.push_str(&format!("wall time: {:.3} ms\n", wall.as_secs_f64() * 1e3));
    } else {
        out.push_str(&format!(
            "wall time: {:.3} ms (one launch and its wait)\n",
            wall.as_secs_f64() * 1e3
        ));
    }
    let shown = buffers_shown(&defaults, &buffers);
    let final_data = |b: &Buffer| final_mem.tensor(b.index, &b.shape).data;
    for b in &shown {
        let (sum, hash) = check::checksum(&final_data(b));
        out.push_str(&format!(
            "output {}: {} sum={} hash={hash:08x}\n",
            b.name,
            b.describe(),
            check::num(sum)
        ));
    }
    print_stdout(&out);

    // Outputs to files.
    for a in &cli.outputs {
        let b = buffers.iter().find(|b| b.name == a.name).expect("checked");
        let path = PathBuf::from(&a.value);
        args::write_npy(&path, b.dtype, &b.shape, &final_data(b)).map_err(|m| {
            plain_error(&format!("--output {}={}: {m}", a.name, a.value), None);
            INVALID
        })?;
    }

    // Checks.
    let checks_start = Instant::now();
    let mut failures: Vec<String> = Vec::new();
    let mut report = String::new();
    for a in &cli.expects {
        let b = buffers.iter().find(|b| b.name == a.name).expect("checked");
        let p = &params[b.param];
        let arr = args::read_npy(Path::new(&a.value)).map_err(|m| {
            l.fail(
                cli,
                USAGE,
                Diagnostic::error(
                    p.loc(kernel),
                    format!("--expect {}={}: {m}", a.name, a.value),
                ),
            )
        })?;
        if !args::npy_matches(&arr, b.dtype) {
            // An expected file of another dtype usually means the wrong file; compared as
            // numbers it could pass or fail for the wrong reason (as --input, it must match).
            return Err(l.fail(
                cli,
                USAGE,
                Diagnostic::error(
                    p.loc(kernel),
                    format!(
                        "--expect {}={}: buffer '{}' holds {} (stored as '{}'), but the file holds '{}'",
                        a.name,
                        a.value,
                        b.name,
                        b.dtype.name(),
                        args::npy_descr(b.dtype),
                        arr.descr
                    ),
                )
                .with_label(format!("{}: {}", p.name, p.ty))
                .with_help(format!(
                    "write the expected values as '{}', the .npy type tilus-run reads and writes for {}",
                    args::npy_descr(b.dtype),
                    b.dtype.name()
                )),
            ));
        }
        if arr.shape != b.shape {
            return Err(l.fail(
                cli,
                USAGE,
                Diagnostic::error(
                    p.loc(kernel),
                    format!(
                        "--expect {}={}: buffer '{}' has shape {:?} ({}), but the file holds shape {:?}",
                        a.name,
                        a.value,
                        b.name,
                        b.shape,
                        b.describe(),
                        arr.shape
                    ),
                )
                .with_label(format!("{}: {}", p.name, p.ty)),
            ));
        }
        let c = check::compare(
            &b.shape,
            &final_data(b),
            &arr.data,
            tolerance(cli, check::tolerance(b.dtype)),
        );
        report.push_str(&format!("check {} vs {}: {c}\n", b.name, a.value));
        if !c.ok() {
            failures.push(format!("'{}' differs from {}", b.name, a.value));
        }
    }
    if cli.compare_backends {
        eprintln!("tilus-run: running @{name} on the CPU interpreter for --compare-backends");
        let ran = run_kernel(
            cli,
            l,
            (kernel, None),
            &arg_values,
            fresh_memory(&buffers, &initial),
        )?;
        for b in &shown {
            let want = ran.mem.tensor(b.index, &b.shape).data;
            let c = check::compare(
                &b.shape,
                &final_data(b),
                &want,
                tolerance(cli, check::backend_tolerance(b.dtype)),
            );
            report.push_str(&format!("compare {}: cuda vs interp: {c}\n", b.name));
            if !c.ok() {
                failures.push(format!(
                    "'{}' differs between the GPU and the interpreter",
                    b.name
                ));
            }
        }
        report.push_str(&format!(
            "interp wall time: {:.3} ms ({} steps)\n",
            ran.wall.as_secs_f64() * 1e3,
            ran.stats.steps
        ));
    }
    if let Some((ref_name, ref_kernel)) = reference {
        let compared = run_reference(
            cli,
            l,
            gpu_ctx.as_ref().map(|g| g.be),
            (&name, &params, &arg_values),
            (&ref_name, ref_kernel),
            &buffers,
            &initial,
            &defaults,
        )?;
        for (b, ref_data) in compared {
            let c = check::compare(
                &b.shape,
                &final_data(b),
                &ref_data,
                tolerance(cli, check::tolerance(b.dtype)),
            );
            report.push_str(&format!("check {} vs reference @{ref_name}: {c}\n", b.name));
            if !c.ok() {
                failures.push(format!("'{}' differs from reference @{ref_name}", b.name));
            }
        }
    }
    l.timing.0.borrow_mut().push(TimingEntry {
        name: format!("Checks @{name}"),
        depth: 0,
        wall: checks_start.elapsed(),
    });
    print_stdout(&report);
    if !failures.is_empty() {
        plain_error(
            &format!("check failed: {}", failures.join("; ")),
            Some("the report on standard output shows, for each buffer that differs, the first element that differs and the largest errors"),
        );
        return Err(INVALID);
    }
    if let (true, Some(g), Some(lz)) = (cli.bench, &gpu_ctx, &launch) {
        bench(
            cli,
            l,
            g,
            lz,
            (&name, kernel),
            (&params, &arg_values),
            &final_mem,
        )?;
    } else if cli.bench {
        // Only reachable under `auto` when the kernel did not lower (said above).
        plain_error(
            "--bench: the kernel ran on the interpreter, nothing was timed",
            None,
        );
        return Err(INVALID);
    }
    Ok(())
}

/// `--bench`: time the launch, the device's copy of the largest buffer, print and write JSON.
fn bench(
    cli: &Cli,
    l: &Loaded,
    g: &Gpu,
    lz: &gpu::Launch,
    (name, kernel): (&str, OpId),
    (params, args): (&[Param], &[ArgValue]),
    mem: &GlobalMemory,
) -> Result<(), u8> {
    let what = format!("timing @{name}");
    let attr = |n: &str| {
        gpu::metric_attr(&l.ctx, kernel, n, params, args).map_err(|m| {
            plain_error(&format!("--bench: {m}"), None);
            INVALID
        })
    };
    let all_bytes: usize = mem.buffers.iter().map(|b| b.bytes.len()).sum();
    let (bytes, bytes_src) = match (cli.bytes, attr(tilus_dialects::tilus::attr_names::BYTES)?) {
        (Some(b), _) => (b, "--bytes"),
        (None, Some(b)) => (b, tilus_dialects::tilus::attr_names::BYTES),
        (None, None) => (all_bytes as f64, "every buffer once"),
    };
    let (flops, flops_src) = match (cli.flops, attr(tilus_dialects::tilus::attr_names::FLOPS)?) {
        (Some(f), _) => (Some(f), "--flops"),
        (None, Some(f)) => (Some(f), tilus_dialects::tilus::attr_names::FLOPS),
        (None, None) => (None, ""),
    };
    if progress_wanted() {
        // The timed runs happen inside the driver; the line says what the wait is for.
        eprint!(
            "\rbenchmarking: {} warm-up and {} timed runs on the GPU\x1b[K",
            cli.bench_warmup, cli.bench_reps
        );
    }
    let s = lz.bench(g.be, cli.bench_warmup, cli.bench_reps);
    clear_progress();
    let s = s.map_err(|e| cuda_fail(&what, e))?;
    let gbs = bytes / (s.median_ms * 1e-3) / 1e9;
    let tflops = flops.map(|f| f / (s.median_ms * 1e-3) / 1e12);
    // The device's copy bandwidth on the largest buffer (read + write counted).
    let largest = lz
        .buffers
        .iter()
        .enumerate()
        .max_by_key(|(_, b)| b.len())
        .map(|(i, b)| (i, b.len()));
    let mut copy = None;
    if let Some((i, n)) = largest.filter(|(_, n)| *n > 0) {
        let dst = g.be.alloc(n).map_err(|e| cuda_fail(&what, e))?;
        let c =
            g.be.bench_copy(&dst, &lz.buffers[i], n, cli.bench_warmup, cli.bench_reps)
                .map_err(|e| cuda_fail(&what, e))?;
        copy = Some((n, c.gb_per_s(2 * n as u64), c.median_ms));
    }
    let cublas = match cli.compare {
        Some(CompareWith::Cublas) => Some(compare_cublas(
            cli,
            l,
            g,
            lz,
            kernel,
            (params, args),
            mem,
            &s,
        )?),
        None => None,
    };
    let mut o = String::new();
    o.push_str(&format!(
        "bench: median {:.4} ms (min {:.4}, max {:.4}; {} runs after {} warm-up)\n",
        s.median_ms, s.min_ms, s.max_ms, s.reps, cli.bench_warmup
    ));
    o.push_str(&format!(
        "bench: {gbs:.1} GB/s ({} bytes: {bytes_src})\n",
        bytes as u64
    ));
    if let (Some(t), Some(f)) = (tflops, flops) {
        o.push_str(&format!("bench: {t:.2} TFLOP/s ({f} FLOP: {flops_src})\n"));
    }
    if let Some((n, cbw, _)) = copy {
        o.push_str(&format!(
            "bench: device copy {cbw:.1} GB/s ({n} bytes read + written); kernel at {:.1}% of copy\n",
            100.0 * gbs / cbw
        ));
    }
    if let Some(cb) = &cublas {
        o.push_str(&format!(
            "cublas: check {} vs cuBLAS (M={} N={} K={}): {}\n",
            cb.c_name, cb.shape.m, cb.shape.n, cb.shape.k, cb.check
        ));
        o.push_str(&format!(
            "cublas: median {:.4} ms, {:.2} TFLOP/s; ours/cublas = {:.1}%\n",
            cb.stats.median_ms,
            cb.stats.tflop_per_s(cb.shape.flops()),
            cb.ratio_pct
        ));
    }
    print_stdout(&o);
    if let Some(path) = &cli.bench_json {
        let scalars: Vec<String> = params
            .iter()
            .zip(args)
            .filter(|(p, _)| !p.is_pointer())
            .map(|(p, v)| {
                format!(
                    "{}: {}",
                    gpu::json_str(&p.name),
                    gpu::json_str(&args::arg_text(v))
                )
            })
            .collect();
        let mut j = String::from("{\n");
        let mut field = |k: &str, v: String| j.push_str(&format!("  {}: {v},\n", gpu::json_str(k)));
        field("kernel", gpu::json_str(name));
        field("file", gpu::json_str(&l.file.name));
        field("device", gpu::json_str(&g.be.info().name));
        field("args", format!("{{{}}}", scalars.join(", ")));
        field("grid", gpu::json_str(&gpu::dim(lz.cfg.grid)));
        field("block", gpu::json_str(&gpu::dim(lz.cfg.block)));
        field("dynamic_smem", lz.cfg.dynamic_smem.to_string());
        field("registers", lz.kernel.num_regs.to_string());
        field("reps", s.reps.to_string());
        field("warmup", cli.bench_warmup.to_string());
        field("median_ms", gpu::json_num(s.median_ms));
        field("min_ms", gpu::json_num(s.min_ms));
        field("max_ms", gpu::json_num(s.max_ms));
        field("bytes", gpu::json_num(bytes));
        field("bytes_source", gpu::json_str(bytes_src));
        field("gb_per_s", gpu::json_num(gbs));
        field(
            "flops",
            flops.map(gpu::json_num).unwrap_or_else(|| "null".into()),
        );
        field(
            "tflop_per_s",
            tflops.map(gpu::json_num).unwrap_or_else(|| "null".into()),
        );
        field(
            "copy_gb_per_s",
            copy.map(|c| gpu::json_num(c.1))
                .unwrap_or_else(|| "null".into()),
        );
        if let Some(cb) = &cublas {
            field("cublas_median_ms", gpu::json_num(cb.stats.median_ms));
            field(
                "cublas_tflop_per_s",
                gpu::json_num(cb.stats.tflop_per_s(cb.shape.flops())),
            );
            field("ours_over_cublas_pct", gpu::json_num(cb.ratio_pct));
            field("cublas_check_ok", cb.check.ok().to_string());
            field("cublas_max_abs_err", gpu::json_num(cb.check.max_abs));
            field("cublas_max_rel_err", gpu::json_num(cb.check.max_rel));
        }
        j.push_str(&format!(
            "  \"copy_bytes\": {}\n}}\n",
            copy.map(|c| c.0.to_string())
                .unwrap_or_else(|| "null".into())
        ));
        args::write_atomically(path, j.as_bytes()).map_err(|m| {
            plain_error(&format!("--bench-json: {m}"), None);
            INVALID
        })?;
    }
    if let Some(cb) = &cublas {
        if !cb.check.ok() {
            plain_error(
                &format!(
                    "--compare cublas: the kernel's '{}' differs from cuBLAS's C",
                    cb.c_name
                ),
                Some("the report on standard output shows the first mismatching element"),
            );
            return Err(INVALID);
        }
    }
    Ok(())
}

/// What `--compare cublas` measured.
struct CublasRun {
    shape: cuda::GemmShape,
    c_name: String,
    check: check::Comparison,
    stats: BenchStats,
    /// Our TFLOP/s over cuBLAS's (= cuBLAS's median time over ours), in percent.
    ratio_pct: f64,
}

/// `--compare cublas`: cuBLAS's f16 GEMM on the kernel's A and B device buffers, into a buffer
/// of its own; its C checked against the kernel's (`mem`, read back after the first launch)
/// and timed like the kernel.
#[allow(clippy::too_many_arguments)]
fn compare_cublas(
    cli: &Cli,
    l: &Loaded,
    g: &Gpu,
    lz: &gpu::Launch,
    kernel: OpId,
    (params, args): (&[Param], &[ArgValue]),
    mem: &GlobalMemory,
    ours: &BenchStats,
) -> Result<CublasRun, u8> {
    let what = "--compare cublas";
    let ops = gpu::gemm_operands(&l.ctx, kernel, params, args).map_err(|m| {
        plain_error(
            &format!("{what}: cannot tell the kernel's GEMM operands: {m}"),
            Some("declare them on the kernel: tilus.gemm = {a = \"A\", b = \"B\", c = \"C\", m = \"M\", n = \"N\", k = \"K\"} (parameter names; extents as expressions over the scalars)"),
        );
        INVALID
    })?;
    let shape = ops.shape;
    let (ab, bb, cb) = shape.bytes();
    let mut bufs = [0usize; 3];
    let mut dtype = None;
    for (j, (param, need)) in [(ops.a, ab), (ops.b, bb), (ops.c, cb)]
        .into_iter()
        .enumerate()
    {
        let Some(ArgValue::Buffer(i)) = args.get(param) else {
            unreachable!("gemm_operands returns pointer parameters")
        };
        let gb = &mem.buffers[*i];
        let role = ["A", "B", "C"][j];
        let dt = match gb.dtype {
            tilus_run::tensor::DType::F16 => GemmDType::F16,
            tilus_run::tensor::DType::BF16 => GemmDType::BF16,
            other => {
                plain_error(
                    &format!(
                        "{what}: operand {role} ('{}') holds {other:?} elements; cuBLAS is compared on f16 and bf16 GEMMs only",
                        gb.name
                    ),
                    None,
                );
                return Err(INVALID);
            }
        };
        if dtype.is_some_and(|d| d != dt) {
            plain_error(
                &format!(
                    "{what}: operand {role} ('{}') holds {} elements but A holds {}; A, B and C must have one element type",
                    gb.name,
                    dt.name(),
                    dtype.map_or("?", GemmDType::name)
                ),
                None,
            );
            return Err(INVALID);
        }
        dtype = Some(dt);
        if gb.bytes.len() < need {
            plain_error(
                &format!(
                    "{what}: operand {role} ('{}') holds {} bytes, but M={} N={} K={} needs {need}",
                    gb.name,
                    gb.bytes.len(),
                    shape.m,
                    shape.n,
                    shape.k
                ),
                None,
            );
            return Err(INVALID);
        }
        bufs[j] = *i;
    }
    let fail = |e: CudaError| cuda_fail(what, e);
    let lib = Cublas::open(g.be).map_err(fail)?;
    let c_ref = g.be.alloc(cb).map_err(fail)?;
    // NaN everywhere (0xffff is an f16 NaN), so a GEMM that writes nothing cannot pass.
    g.be.fill(&c_ref, 0xff).map_err(fail)?;
    let (a, b) = (&lz.buffers[bufs[0]], &lz.buffers[bufs[1]]);
    let dt = dtype.unwrap_or(GemmDType::F16);
    lib.gemm_nt(dt, shape, a, b, &c_ref).map_err(fail)?;
    let mut theirs = vec![0u8; cb];
    g.be.read(&c_ref, &mut theirs).map_err(fail)?;
    let halves = |bytes: &[u8]| -> Vec<f64> {
        bytes
            .chunks_exact(2)
            .map(|p| match dt {
                GemmDType::F16 => half::f16::from_le_bytes([p[0], p[1]]).to_f64(),
                GemmDType::BF16 => half::bf16::from_le_bytes([p[0], p[1]]).to_f64(),
            })
            .collect()
    };
    let ours_c = halves(&mem.buffers[bufs[2]].bytes[..cb]);
    let run_dt = match dt {
        GemmDType::F16 => tilus_run::tensor::DType::F16,
        GemmDType::BF16 => tilus_run::tensor::DType::BF16,
    };
    let tol = tolerance(cli, check::tolerance(run_dt));
    let cmp = check::compare(
        &[shape.m as i64, shape.n as i64],
        &ours_c,
        &halves(&theirs),
        tol,
    );
    let stats = lib
        .bench(dt, shape, (a, b, &c_ref), cli.bench_warmup, cli.bench_reps)
        .map_err(fail)?;
    Ok(CublasRun {
        shape,
        c_name: ops.names[2].clone(),
        check: cmp,
        ratio_pct: 100.0 * stats.median_ms / ours.median_ms,
        stats,
    })
}

fn print_stdout(s: &str) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(s.as_bytes()).and_then(|_| o.flush());
}

fn init_text(i: &args::InputInit) -> String {
    match i {
        args::InputInit::Random => "random".into(),
        args::InputInit::Zeros => "zeros".into(),
        args::InputInit::Ones => "ones".into(),
        args::InputInit::Npy(p) => p.display().to_string(),
    }
}

/// The reference kernel to compare with: `--reference`, else `tilus.reference` (unless
/// `--no-reference`). The flag is usage (exit 2), the attribute is input (exit 1).
fn resolve_reference(
    cli: &Cli,
    l: &Loaded,
    kernel: OpId,
    name: &str,
    defaults: &KernelDefaults,
) -> Result<Option<(String, OpId)>, u8> {
    if cli.no_reference {
        return Ok(None);
    }
    let (want, explicit) = match (&cli.reference, &defaults.reference) {
        (Some(r), _) => (r.trim_start_matches('@').to_string(), true),
        (None, Some(r)) => (r.trim_start_matches('@').to_string(), false),
        (None, None) => return Ok(None),
    };
    let kernels = args::kernels(&l.ctx, l.module);
    let names: Vec<String> = kernels.iter().map(|(n, _)| format!("@{n}")).collect();
    let found = kernels.iter().find(|(n, _)| *n == want);
    let problem = match found {
        Some((_, k)) if *k == kernel => format!("kernel @{name} cannot be its own reference"),
        Some((n, k)) => return Ok(Some((n.clone(), *k))),
        None => format!("no kernel named @{want} to use as the reference"),
    };
    if explicit {
        plain_error(
            &format!("--reference {want}: {problem}"),
            Some(&format!("the kernels are: {}", names.join(", "))),
        );
        Err(USAGE)
    } else {
        Err(l.fail(
            cli,
            INVALID,
            Diagnostic::error(
                DiagLoc::OpAttr(kernel, tilus_dialects::tilus::attr_names::REFERENCE),
                format!("tilus.reference: {problem}"),
            )
            .with_help(format!("the kernels are: {}", names.join(", "))),
        ))
    }
}

/// Runs the reference kernel with the main kernel's arguments (matched by parameter name) on
/// copies of the initial buffers; returns, per compared buffer, the reference's final contents
/// (where it ran is said on standard error).
#[allow(clippy::too_many_arguments)]
fn run_reference<'b>(
    cli: &Cli,
    l: &Loaded,
    be: Option<&CudaBackend>,
    main: (&str, &[Param], &[ArgValue]),
    reference: (&str, OpId),
    buffers: &'b [Buffer],
    initial: &[Tensor],
    defaults: &KernelDefaults,
) -> Result<Vec<(&'b Buffer, Vec<f64>)>, u8> {
    let (main_name, main_params, main_args) = main;
    let (ref_name, ref_kernel) = reference;
    let ref_params = args::params(&l.ctx, ref_kernel, &l.file);
    let mut ref_args = Vec::with_capacity(ref_params.len());
    for p in &ref_params {
        let Some(i) = main_params.iter().position(|q| q.name == p.name) else {
            return Err(l.fail(
                cli,
                INVALID,
                Diagnostic::error(
                    p.loc(ref_kernel),
                    format!(
                        "reference kernel @{ref_name} has a parameter '{}' that @{main_name} does not have",
                        p.name
                    ),
                )
                .with_help("a reference kernel takes the same parameters (by name) as the kernel it checks"),
            ));
        };
        if main_params[i].ty != p.ty {
            return Err(l.fail(
                cli,
                INVALID,
                Diagnostic::error(
                    p.loc(ref_kernel),
                    format!(
                        "reference kernel @{ref_name}: parameter '{}' is {} here but {} in @{main_name}",
                        p.name, p.ty, main_params[i].ty
                    ),
                ),
            ));
        }
        ref_args.push(args::copy_arg(&main_args[i]));
    }
    // The reference must not need more of a buffer than the kernel's views cover.
    let need = interp::buffer_shapes(&l.ctx, ref_kernel, &ref_args)
        .map_err(|d| l.fail(cli, INVALID, d))?;
    for (p, n) in ref_params.iter().zip(&need) {
        let (Some((_, shape)), Some(b)) = (n, buffers.iter().find(|b| b.name == p.name)) else {
            continue;
        };
        let numel: i64 = shape.iter().product();
        if numel > b.numel() as i64 {
            return Err(l.fail(
                cli,
                INVALID,
                Diagnostic::error(
                    p.loc(ref_kernel),
                    format!(
                        "reference kernel @{ref_name} views '{}' as {shape:?}, more than the {} that @{main_name} uses",
                        p.name,
                        b.describe()
                    ),
                )
                .with_label(format!("{}: {}", p.name, p.ty)),
            ));
        }
    }
    let mem = fresh_memory(buffers, initial);
    // On the GPU when the kernel ran there and the reference lowers, else on the interpreter.
    let mlir_style = cli.diagnostic_format == DiagFormat::Mlir;
    let on_gpu = be.and_then(|be| match gpu::lower((&l.ctx, l.module, &l.map), &l.file, ref_name, mlir_style, &cli.lowering) {
        Ok(lowered) => Some((be, lowered)),
        Err((_, why)) => {
            eprintln!(
                "tilus-run: reference kernel @{ref_name} cannot be lowered to PTX ({why}); running it on the CPU interpreter"
            );
            None
        }
    });
    let ref_mem = match on_gpu {
        Some((be, lowered)) => {
            eprintln!("tilus-run: running reference kernel @{ref_name} on the GPU");
            let what = format!("running reference kernel @{ref_name} on the GPU");
            let grid =
                interp::grid(&l.ctx, ref_kernel, &ref_args).map_err(|d| l.fail(cli, INVALID, d))?;
            let lz = gpu_launch(
                l,
                be,
                &lowered,
                ref_kernel,
                &ref_params,
                &ref_args,
                &mem,
                grid,
            )
            .map_err(|e| cuda_fail(&what, e))?;
            lz.run(be).map_err(|e| cuda_fail(&what, e))?;
            let mut out = mem;
            lz.download(be, &mut out).map_err(|e| cuda_fail(&what, e))?;
            out
        }
        None => {
            eprintln!("tilus-run: running reference kernel @{ref_name}");
            run_kernel(cli, l, (ref_kernel, None), &ref_args, mem)
                .inspect_err(|_| {
                    plain_error(
                        &format!("the reference kernel @{ref_name} failed (see above)"),
                        None,
                    );
                })?
                .mem
        }
    };
    let mut out = Vec::new();
    for b in buffers {
        let named = defaults.outputs.as_ref().map(|o| o.contains(&b.name));
        let in_ref = ref_params.iter().any(|p| p.name == b.name);
        match (named, in_ref) {
            (Some(false), _) | (None, false) => continue,
            (Some(true), false) => {
                plain_error(
                    &format!(
                        "output '{}' of @{main_name} is not a parameter of the reference kernel @{ref_name}",
                        b.name
                    ),
                    None,
                );
                return Err(INVALID);
            }
            _ => {}
        }
        out.push((b, ref_mem.tensor(b.index, &b.shape).data));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::ptx_defines_entry;

    #[test]
    fn ptx_override_must_define_the_lowered_entry() {
        let ptx =
            ".version 8.4\n.target sm_90a\n.visible .entry matmul(\n\t.param .u64 a\n)\n{\n}\n";
        assert!(ptx_defines_entry(ptx, "matmul"));
        assert!(ptx_defines_entry(".entry matmul (", "matmul"));
        // Another kernel, a prefix of the name, a mention outside `.entry`: not defined.
        assert!(!ptx_defines_entry(ptx, "matmul_ref"));
        assert!(!ptx_defines_entry(ptx, "mat"));
        assert!(!ptx_defines_entry(
            "// calls matmul\n.func matmul()\n",
            "matmul"
        ));
    }
}
