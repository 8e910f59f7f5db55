//! `tilus-run`: run a tilus kernel on the CPU interpreter (a GPU backend comes later), check its
//! outputs, and report.
//!
//! ```text
//! tilus-run FILE [--kernel NAME] [--arg NAME=VALUE]... [--input NAME=random|zeros|ones|FILE.npy]...
//!           [--output NAME=FILE.npy]... [--expect NAME=FILE.npy]... [--reference NAME]
//!           [--seed N] [--schedule deterministic|random] [--backend auto|interp|cuda] [--max-steps N]
//! ```
//!
//! * The kernel is `--kernel`, else the only `tilus.kernel` of the file that is not another
//!   kernel's `tilus.reference`.
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

use clap::Parser as ClapParser;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tilus_ir::source::{render, render_mlir_style, SourceFile};
use tilus_ir::{Context, DiagLoc, Diagnostic, OpId, Severity, SourceMap};
use tilus_run::args::{self, Assignment, Buffer, KernelDefaults, Param, Requests};
use tilus_run::check::{self, Tolerance};
use tilus_run::interp::{self, ArgValue, Options, Schedule};
use tilus_run::memory::GlobalMemory;
use tilus_run::tensor::Tensor;

/// Steps before a run is stopped as runaway (`--max-steps`).
const DEFAULT_MAX_STEPS: u64 = 100_000_000;

/// Command-line flags.
#[derive(ClapParser, Debug)]
#[command(
    name = "tilus-run",
    version,
    about = "Run a tilus kernel on the CPU interpreter and check its outputs"
)]
struct Cli {
    /// Kernel file (`.mlir`); `-` reads standard input.
    input: PathBuf,
    /// The kernel to run (default: the only kernel that is not another's `tilus.reference`).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
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
    /// Run on every backend and compare their outputs (needs the CUDA backend).
    #[arg(long)]
    compare_backends: bool,
    /// Absolute tolerance of every comparison (default: by dtype).
    #[arg(long, value_name = "X")]
    atol: Option<f64>,
    /// Relative tolerance of every comparison (default: by dtype).
    #[arg(long, value_name = "X")]
    rtol: Option<f64>,
    /// How to report diagnostics: `fancy` (miette, with source) or `mlir` (`file:line:col: error: ...`).
    #[arg(long, value_enum, default_value_t = DiagFormat::Fancy)]
    diagnostic_format: DiagFormat,
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
enum DiagFormat {
    Fancy,
    Mlir,
}

/// Exit status 1: the input is wrong (or a check failed).
const INVALID: u8 = 1;
/// Exit status 2: the command line is wrong.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => ExitCode::from(code),
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
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(("<stdin>".into(), s));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| format!("cannot open input file '{}': {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "input file '{}' is not valid UTF-8 (first bad byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((path.display().to_string(), text))
}

/// Reads, parses and verifies the file; diagnostics are printed (exit 1).
fn load(cli: &Cli) -> Result<Loaded, u8> {
    let (name, text) = read_input(&cli.input).map_err(|m| {
        plain_error(&m, None);
        INVALID
    })?;
    let file = SourceFile::new(name, text);
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    let emit_all = |ctx: &Context, map: &SourceMap, diags: &[Diagnostic]| {
        for d in diags {
            let s = match cli.diagnostic_format {
                DiagFormat::Fancy => render(Some(ctx), Some(map), &file, d),
                DiagFormat::Mlir => render_mlir_style(Some(ctx), Some(map), &file, d),
            };
            let _ = std::io::stderr().write_all(s.as_bytes());
        }
    };
    let parsed = match tilus_ir::parse(&mut ctx, &file.text, &file.name) {
        Ok(p) => p,
        Err((diags, map)) => {
            emit_all(&ctx, &map, &diags);
            return Err(INVALID);
        }
    };
    let diags = tilus_ir::verify(&ctx, parsed.module);
    if !diags.is_empty() {
        emit_all(&ctx, &parsed.source_map, &diags);
        if diags.iter().any(|d| d.severity == Severity::Error) {
            return Err(INVALID);
        }
    }
    Ok(Loaded {
        ctx,
        file,
        map: parsed.source_map,
        module: parsed.module,
    })
}

/// The reference kernels named by the file's kernels (`tilus.reference`).
fn referenced_names(ctx: &Context, kernels: &[(String, OpId)]) -> Vec<String> {
    let mut out = Vec::new();
    for (_, k) in kernels {
        if let Some(a) = ctx.get_attr(*k, "tilus.reference") {
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

fn pick_kernel(cli: &Cli, l: &Loaded) -> Result<(String, OpId), u8> {
    let kernels = args::kernels(&l.ctx, l.module);
    let names: Vec<String> = kernels.iter().map(|(n, _)| format!("@{n}")).collect();
    if kernels.is_empty() {
        plain_error(
            &format!("'{}' has no tilus.kernel to run", l.file.name),
            Some("tilus-run runs `tilus.kernel @name(...) warps(..) blocks(..) { ... }` ops"),
        );
        return Err(INVALID);
    }
    if let Some(want) = &cli.kernel {
        let want = want.trim_start_matches('@');
        return match kernels.iter().find(|(n, _)| n == want) {
            Some(k) => Ok(k.clone()),
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
    let candidates: Vec<&(String, OpId)> =
        kernels.iter().filter(|(n, _)| !refs.contains(n)).collect();
    match candidates.as_slice() {
        [one] => Ok((*one).clone()),
        _ => {
            let cands: Vec<String> = candidates.iter().map(|(n, _)| format!("@{n}")).collect();
            plain_error(
                &format!(
                    "'{}' has several kernels ({}); choose one with --kernel NAME",
                    l.file.name,
                    cands.join(", ")
                ),
                Some("kernels named by another kernel's `tilus.reference` are not candidates"),
            );
            Err(USAGE)
        }
    }
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
    kernel: OpId,
    args: &[ArgValue],
    mut mem: GlobalMemory,
) -> Result<Ran, u8> {
    let opts = Options {
        schedule: match cli.schedule {
            ScheduleKind::Deterministic => Schedule::Deterministic,
            ScheduleKind::Random => Schedule::Random { seed: cli.seed },
        },
        max_steps: cli.max_steps,
    };
    let start = Instant::now();
    let r = interp::run(&l.ctx, kernel, args, &mut mem, &opts);
    let wall = start.elapsed();
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

fn fresh_memory(buffers: &[Buffer], initial: &[Tensor]) -> GlobalMemory {
    let mut mem = GlobalMemory::default();
    for (b, t) in buffers.iter().zip(initial) {
        mem.add(&b.name, t);
    }
    mem
}

fn tolerance_for(cli: &Cli, b: &Buffer) -> Tolerance {
    let d = check::tolerance(b.dtype);
    Tolerance {
        atol: cli.atol.unwrap_or(d.atol),
        rtol: cli.rtol.unwrap_or(d.rtol),
    }
}

fn run(cli: &Cli) -> Result<(), u8> {
    // Backends first: nothing else matters when the one asked for does not exist.
    match cli.backend {
        Backend::Cuda => {
            plain_error(
                "--backend cuda: the CUDA backend is not available yet in this build",
                Some("run on the CPU interpreter with --backend interp (or auto)"),
            );
            return Err(USAGE);
        }
        Backend::Auto | Backend::Interp => {}
    }
    if cli.compare_backends {
        plain_error(
            "--compare-backends: comparing the interpreter with the GPU needs the CUDA backend, which is not available yet",
            Some("check against a reference kernel (--reference) or a file (--expect) instead"),
        );
        return Err(USAGE);
    }

    let l = load(cli)?;
    let (name, kernel) = pick_kernel(cli, &l)?;
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
    let reference = resolve_reference(cli, &l, kernel, &name, &defaults)?;
    let arg_values = args::bind_scalars(kernel, &params, &cli.args, &defaults)
        .map_err(|d| l.fail(cli, USAGE, d))?;
    let buffers = args::plan_buffers(&l.ctx, kernel, &params, &arg_values, &cli.inputs, &defaults)
        .map_err(|d| l.fail(cli, INVALID, d))?;
    let (mem, initial) = args::init_memory(kernel, &params, &buffers, cli.seed)
        .map_err(|d| l.fail(cli, USAGE, d))?;
    let grid = interp::grid(&l.ctx, kernel, &arg_values).map_err(|d| l.fail(cli, INVALID, d))?;

    if cli.backend == Backend::Auto {
        eprintln!("tilus-run: no usable GPU backend in this build; running on the CPU interpreter");
    }
    let ran = run_kernel(cli, &l, kernel, &arg_values, mem)?;

    // Report.
    let mut out = String::new();
    let warps = tilus_dialects::tilus_types::prop_i64(&l.ctx, kernel, "warps").unwrap_or(0);
    out.push_str(&format!("kernel: @{name} ({})\n", l.file.name));
    out.push_str("backend: interp\n");
    out.push_str(&format!(
        "grid: {}x{}x{} blocks of {} threads ({warps} warps)\n",
        grid[0],
        grid[1],
        grid[2],
        32 * warps
    ));
    let sched = match cli.schedule {
        ScheduleKind::Deterministic => "deterministic".to_string(),
        ScheduleKind::Random => format!("random (seed {})", cli.seed),
    };
    out.push_str(&format!("schedule: {sched}\n"));
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
    let plural = if ran.stats.ctas == 1 { "" } else { "s" };
    out.push_str(&format!(
        "steps: {} ({} block{plural} run)\n",
        ran.stats.steps, ran.stats.ctas
    ));
    out.push_str(&format!(
        "wall time: {:.3} ms\n",
        ran.wall.as_secs_f64() * 1e3
    ));
    let shown: Vec<&Buffer> = match &defaults.outputs {
        Some(names) => buffers.iter().filter(|b| names.contains(&b.name)).collect(),
        None => buffers.iter().collect(),
    };
    let final_data = |b: &Buffer| ran.mem.tensor(b.index, &b.shape).data;
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
        let c = check::compare(&b.shape, &final_data(b), &arr.data, tolerance_for(cli, b));
        report.push_str(&format!("check {} vs {}: {c}\n", b.name, a.value));
        if !c.ok() {
            failures.push(format!("'{}' differs from {}", b.name, a.value));
        }
    }
    if let Some((ref_name, ref_kernel)) = reference {
        let compared = run_reference(
            cli,
            &l,
            (&name, &params, &arg_values),
            (&ref_name, ref_kernel),
            &buffers,
            &initial,
            &defaults,
        )?;
        for (b, ref_data) in compared {
            let c = check::compare(&b.shape, &final_data(b), &ref_data, tolerance_for(cli, b));
            report.push_str(&format!("check {} vs reference @{ref_name}: {c}\n", b.name));
            if !c.ok() {
                failures.push(format!("'{}' differs from reference @{ref_name}", b.name));
            }
        }
    }
    print_stdout(&report);
    if !failures.is_empty() {
        plain_error(
            &format!("check failed: {}", failures.join("; ")),
            Some("the report on standard output shows the first mismatching element of each"),
        );
        return Err(INVALID);
    }
    Ok(())
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
                DiagLoc::OpAttr(kernel, "tilus.reference"),
                format!("tilus.reference: {problem}"),
            )
            .with_help(format!("the kernels are: {}", names.join(", "))),
        ))
    }
}

/// Runs the reference kernel with the main kernel's arguments (matched by parameter name) on
/// copies of the initial buffers; returns, per compared buffer, the reference's final contents.
fn run_reference<'b>(
    cli: &Cli,
    l: &Loaded,
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
    eprintln!("tilus-run: running reference kernel @{ref_name}");
    let ran = run_kernel(cli, l, ref_kernel, &ref_args, mem).inspect_err(|_| {
        plain_error(
            &format!("the reference kernel @{ref_name} failed (see above)"),
            None,
        );
    })?;
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
        out.push((b, ran.mem.tensor(b.index, &b.shape).data));
    }
    Ok(out)
}
