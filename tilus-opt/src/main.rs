//! `tilus-opt`: read tilus IR, verify it, run passes, print it. Flags follow `mlir-opt`.
//!
//! Passes are chosen with `--pass-pipeline='builtin.module(func.func(cse))'` or with one flag per
//! pass (`--cse --canonicalize=max-iterations=3`), which are made at startup from the pass
//! registry. A pipeline is checked before any input is read.
//!
//! Exit codes: 0 success, 1 invalid input (syntax, verifier, a failing pass, unmatched expected
//! diagnostics, unreadable file), 2 bad usage (unknown flag, bad flag value, malformed
//! pipeline).

// Errors carry a full diagnostic (message, spans, notes, help); they are the cold path, so
// their size is not worth a box at every `Err`.
#![allow(clippy::result_large_err)]

mod draw;
mod verify_diags;

/// mimalloc instead of the system allocator: the passes build and drop many small vectors
/// (egg's e-matching allocates its registers and matches per e-class searched), and glibc's
/// `malloc`/`free` were a fifth of `eqsat`'s instructions on large blocks (docs/perf.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Arg, ArgAction, ArgMatches, CommandFactory, FromArgMatches, Parser as ClapParser};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tilus_ir::source::{render, render_mlir_style, write_file_atomically, SourceFile};
use tilus_ir::{Context, DiagLoc, Diagnostic, PrintOptions, Severity, SourceMap};
use tilus_passes::instrument::{render_timing, DumpCount, StatisticsDisplay, TimingEntry};
use tilus_passes::pipeline::pipeline_text_from_flags;
use tilus_passes::{parse_pipeline, IrPrintConfig, IrPrinter, Nesting, PassManager};

/// Command-line flags.
#[derive(ClapParser, Debug)]
#[command(
    name = "tilus-opt",
    version,
    about = "Parse, verify, transform and print tilus IR (mlir-opt for tilus)"
)]
struct Cli {
    /// Input file; `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// Output file, written atomically (nothing is written when the run fails).
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Accept ops of dialects tilus does not know (kept and printed as written).
    #[arg(long, alias = "allow-unregistered-dialects")]
    allow_unregistered_dialect: bool,
    /// Print every op in MLIR's generic form.
    #[arg(long, alias = "mlir-print-op-generic")]
    print_op_generic: bool,
    /// Print op and block-argument locations.
    #[arg(long, alias = "mlir-print-debuginfo")]
    print_debuginfo: bool,
    /// Print attributes, types and locations in full where used (no aliases).
    #[arg(long, alias = "mlir-print-local-scope")]
    print_local_scope: bool,
    /// Check diagnostics against `expected-error {{...}}` comments in the input instead of printing them.
    #[arg(long)]
    verify_diagnostics: bool,
    /// Split the input at `// -----` lines (or at lines of the marker given, as
    /// `--split-input-file=MARKER`) and process each part on its own.
    #[arg(
        long,
        value_name = "MARKER",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "// -----"
    )]
    split_input_file: Option<String>,
    /// Accepted for mlir-opt's command lines; tilus-opt runs passes on one thread.
    #[arg(long, hide = true)]
    mlir_disable_threading: bool,
    /// How to report diagnostics: `fancy` (miette, with source) or `mlir` (`file:line:col: error: ...`).
    #[arg(long, value_enum, default_value_t = DiagFormat::Fancy)]
    diagnostic_format: DiagFormat,
    /// Print at most this many errors, then a line counting the rest (0: print every error).
    #[arg(long, value_name = "N", default_value_t = tilus_ir::source::DEFAULT_ERROR_LIMIT)]
    error_limit: usize,
    /// Parse and verify only; print nothing.
    #[arg(long)]
    no_output: bool,
    /// Skip the verifier (debugging malformed IR).
    #[arg(long)]
    no_verify: bool,
    /// List the registered dialects and their ops, then exit.
    #[arg(long)]
    list_dialects: bool,
    /// Print the module as PTX text (after the pipeline ran) instead of IR; the module must hold
    /// only `ptx.entry` and `ptx.shared_decl` ops.
    #[arg(long)]
    emit_ptx: bool,
    /// Write one Markdown reference page per dialect (generated from the op declarations) into DIR.
    #[arg(long, value_name = "DIR")]
    dump_op_docs: Option<PathBuf>,
    /// Write the Markdown reference of every pass and named pipeline (generated from their
    /// declarations) to FILE.
    #[arg(long, value_name = "FILE")]
    dump_pass_docs: Option<PathBuf>,

    /// Draw one layout instead of reading input: a tile type (`!tilus.reg<...>`,
    /// `!tilus.shared<...>`), a register layout (`spatial(8, 4) * local(2, 2)`), or an access
    /// `REG -> SHARED` (a store) / `SHARED -> REG` (a load) with its bank conflicts.
    #[arg(long, value_name = "TYPE", help_heading = "Layout pictures")]
    draw_layout: Option<String>,
    /// Draw every register and shared tile (and every shared load/store's bank conflicts) of
    /// every kernel of the input, after the pass pipeline, one file each into DIR.
    #[arg(long, value_name = "DIR", help_heading = "Layout pictures")]
    draw_layouts: Option<PathBuf>,
    /// Form of the pictures: `text` (ANSI colours on a terminal) or `svg` (default: text for
    /// --draw-layout, svg for --draw-layouts).
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        help_heading = "Layout pictures"
    )]
    draw_format: Option<draw::Format>,
    /// Threads a register tile without a layout is spread over (for --draw-layout; kernels use
    /// the tile's thread group).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 128,
        help_heading = "Layout pictures"
    )]
    draw_threads: i64,

    /// Run this pass pipeline, written as MLIR writes it: `builtin.module(func.func(cse))`.
    #[arg(long, value_name = "PIPELINE", help_heading = "Pass pipeline")]
    pass_pipeline: Option<String>,
    /// List the registered passes and their options, then exit.
    #[arg(long, help_heading = "Pass pipeline")]
    list_passes: bool,
    /// Print the pipeline about to run, every option at its value, to stderr.
    #[arg(long, help_heading = "Pass pipeline")]
    dump_pass_pipeline: bool,
    /// Verify the IR after each pass (on by default; `--verify-each=false` turns it off).
    #[arg(
        long,
        num_args = 0..=1,
        require_equals = true,
        default_value_t = true,
        default_missing_value = "true",
        action = ArgAction::Set,
        value_name = "BOOL",
        help_heading = "Pass pipeline"
    )]
    verify_each: bool,
    /// Print the IR to stderr before every pass.
    #[arg(
        long,
        alias = "mlir-print-ir-before-all",
        help_heading = "Pass instrumentation"
    )]
    print_ir_before_all: bool,
    /// Print the IR to stderr before each run of these passes (comma-separated, repeatable).
    #[arg(long, alias = "mlir-print-ir-before", value_name = "PASS", value_delimiter = ',', action = ArgAction::Append, help_heading = "Pass instrumentation")]
    print_ir_before: Vec<String>,
    /// Print the IR to stderr after every pass.
    #[arg(
        long,
        alias = "mlir-print-ir-after-all",
        help_heading = "Pass instrumentation"
    )]
    print_ir_after_all: bool,
    /// Print the IR to stderr after each run of these passes (comma-separated, repeatable).
    #[arg(long, alias = "mlir-print-ir-after", value_name = "PASS", value_delimiter = ',', action = ArgAction::Append, help_heading = "Pass instrumentation")]
    print_ir_after: Vec<String>,
    /// With --print-ir-after(-all): print only when the pass changed the IR.
    #[arg(
        long,
        alias = "mlir-print-ir-after-change",
        help_heading = "Pass instrumentation"
    )]
    print_ir_after_change: bool,
    /// Print the IR after a pass only when it fails (and after any pass that fails).
    #[arg(
        long,
        alias = "mlir-print-ir-after-failure",
        help_heading = "Pass instrumentation"
    )]
    print_ir_after_failure: bool,
    /// In IR dumps, print the top-level op instead of the op the pass ran on.
    #[arg(
        long,
        alias = "mlir-print-ir-module-scope",
        help_heading = "Pass instrumentation"
    )]
    print_ir_module_scope: bool,
    /// Print a wall-time table of parsing, each pass and printing to stderr.
    #[arg(long, alias = "mlir-timing", help_heading = "Pass instrumentation")]
    timing: bool,
    /// Print each pass's statistics (counters) to stderr.
    #[arg(
        long,
        alias = "mlir-pass-statistics",
        help_heading = "Pass instrumentation"
    )]
    pass_statistics: bool,
    /// How to group statistics: `pipeline` (the pipeline's shape) or `list` (one entry per pass).
    #[arg(long, alias = "mlir-pass-statistics-display", value_enum, default_value_t = StatsDisplay::Pipeline, help_heading = "Pass instrumentation")]
    pass_statistics_display: StatsDisplay,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum StatsDisplay {
    Pipeline,
    List,
}

/// Adds one `--NAME[=OPTIONS]` flag per registered pass and named pipeline (clap cannot know
/// them at build time), and returns the names added. One whose name is already a flag keeps
/// only its `--pass-pipeline` spelling.
fn with_pass_flags(mut cmd: clap::Command) -> (clap::Command, Vec<&'static str>) {
    let mut taken: Vec<String> = vec!["help".into(), "version".into()];
    let mut added = Vec::new();
    for a in cmd.get_arguments() {
        taken.push(a.get_id().as_str().to_string());
        taken.extend(a.get_long().map(str::to_string));
        taken.extend(
            a.get_all_aliases()
                .unwrap_or_default()
                .into_iter()
                .map(str::to_string),
        );
    }
    let mut flags: Vec<(&'static str, &'static str)> = tilus_passes::registry()
        .iter()
        .map(|p| (p.decl.name, p.decl.summary))
        .collect();
    flags.extend(
        tilus_passes::pipelines::pipeline_registry()
            .iter()
            .map(|p| (p.name, p.summary)),
    );
    flags.sort();
    for (name, summary) in flags {
        if taken.iter().any(|t| t == name) {
            continue;
        }
        taken.push(name.to_string());
        added.push(name);
        cmd = cmd.arg(
            Arg::new(name)
                .long(name)
                .help(summary)
                .value_name("OPTIONS")
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("")
                .action(ArgAction::Append)
                .help_heading(
                    "Passes and pipelines (each runs in order given; options as `--NAME=\"k=v k2=v2\"`)",
                ),
        );
    }
    (cmd, added)
}

/// Every long option and alias of `cmd` (with the pass flags), so that `-name` can be read as
/// `--name`, as MLIR's tools do.
fn long_option_names(cmd: &clap::Command) -> Vec<String> {
    let mut names = vec!["help".to_string(), "version".to_string()];
    for a in cmd.get_arguments() {
        names.extend(a.get_long().map(str::to_string));
        names.extend(
            a.get_all_aliases()
                .unwrap_or_default()
                .into_iter()
                .map(str::to_string),
        );
    }
    names
}

/// The pass flags given, in command-line order: `(name, options text)`.
fn pass_flags(m: &ArgMatches, names: &[&'static str]) -> Vec<(&'static str, String)> {
    let mut found: Vec<(usize, &'static str, String)> = Vec::new();
    for &name in names {
        let Ok(Some(values)) = m.try_get_many::<String>(name) else {
            continue;
        };
        let Some(indices) = m.indices_of(name) else {
            continue;
        };
        for (i, v) in indices.zip(values) {
            found.push((i, name, v.clone()));
        }
    }
    found.sort_by_key(|f| f.0);
    found.into_iter().map(|(_, n, v)| (n, v)).collect()
}

/// The pipeline to run on each input chunk, already checked.
struct PipelineSpec {
    text: String,
    nesting: Nesting,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum DiagFormat {
    Fancy,
    Mlir,
}

fn main() -> ExitCode {
    let (cmd, pass_names) = with_pass_flags(Cli::command());
    let longs = long_option_names(&cmd);
    let args = tilus_ir::cli::long_flags_with_one_dash(std::env::args_os(), |n| {
        longs.iter().any(|l| l == n)
    });
    let matches = cmd.get_matches_from(args);
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let flags = pass_flags(&matches, &pass_names);
    match tilus_ir::cli::on_big_stack(|| run(&cli, &flags)) {
        Ok(code) => code,
        Err(msg) => {
            let report = miette::miette!("{msg}");
            eprintln!("{report:?}");
            ExitCode::from(1)
        }
    }
}

fn read_input(cli: &Cli) -> Result<(String, String), String> {
    match &cli.input {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => {
            let bytes = std::fs::read(p)
                .map_err(|e| format!("cannot open input file '{}': {e}", p.display()))?;
            let text = tilus_ir::cli::decode_utf8(&p.display().to_string(), bytes)?;
            Ok((p.display().to_string(), text))
        }
    }
}

fn read_stdin() -> Result<(String, String), String> {
    let mut b = Vec::new();
    std::io::stdin()
        .read_to_end(&mut b)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    Ok(("<stdin>".into(), tilus_ir::cli::decode_utf8("<stdin>", b)?))
}

/// One piece of the input (the whole file, or a `// -----` chunk padded to its original lines).
struct Chunk {
    text: String,
}

fn split_chunks(text: String, marker: Option<&str>) -> Vec<Chunk> {
    let Some(marker) = marker else {
        // The whole file is one chunk: move it rather than copy it (large inputs).
        return vec![Chunk { text }];
    };
    let mut chunks = Vec::new();
    let mut cur = String::new();
    let mut start_line = 0usize;
    for (line_no, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_end() == marker {
            chunks.push(Chunk {
                text: "\n".repeat(start_line) + &cur,
            });
            cur.clear();
            start_line = line_no + 1;
        } else {
            cur.push_str(line);
        }
    }
    chunks.push(Chunk {
        text: "\n".repeat(start_line) + &cur,
    });
    chunks
}

fn run(cli: &Cli, flags: &[(&'static str, String)]) -> Result<ExitCode, String> {
    if cli.list_passes {
        write_output(cli.output.as_deref(), &list_passes())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(file) = &cli.dump_pass_docs {
        write_output(Some(file), &tilus_passes::decl::markdown_reference())?;
        return Ok(ExitCode::SUCCESS);
    }
    if cli.list_dialects || cli.dump_op_docs.is_some() {
        let mut ctx = Context::new();
        tilus_dialects::register_all(&mut ctx);
        if cli.list_dialects {
            let mut out = String::new();
            for (ns, ops) in ctx.dialects() {
                out.push_str(&format!("{ns}\n"));
                for op in ops {
                    out.push_str(&format!("  {:<24} {}\n", op.name, op.summary));
                }
                if let Some(syms) = ctx.dialect_symbols(ns) {
                    for t in syms.types {
                        out.push_str(&format!("  !{:<23} {}\n", t.name, t.summary));
                    }
                    for a in syms.attrs {
                        out.push_str(&format!("  #{:<23} {}\n", a.name, a.summary));
                    }
                }
            }
            write_output(cli.output.as_deref(), &out)?;
        }
        if let Some(dir) = &cli.dump_op_docs {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
            for (ns, _) in ctx.dialects() {
                let text = tilus_ir::typedef::dialect_reference(&ctx, ns);
                write_output(Some(&dir.join(format!("{ns}.md"))), &text)?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(text) = &cli.draw_layout {
        if cli.input.is_some() || cli.draw_layouts.is_some() {
            return Ok(usage_error(
                "--draw-layout draws the layout written on the command line and reads no input"
                    .to_string(),
                "use --draw-layouts=DIR to draw the tiles of an input file".to_string(),
            ));
        }
        return Ok(draw_one(cli, text));
    }
    let pipeline = match pipeline_spec(cli, flags) {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    let ir_print = match ir_print_config(cli) {
        Ok(c) => c,
        Err(code) => return Ok(code),
    };
    let (name, text) = read_input(cli)?;
    let opts = PrintOptions {
        generic: cli.print_op_generic,
        debuginfo: cli.print_debuginfo,
        local_scope: cli.print_local_scope,
    };
    let dumps = DumpCount::default();
    let mut outputs = Vec::new();
    let mut failed = false;
    let mut limit = tilus_ir::source::ErrorLimit::new(cli.error_limit);
    let chunks = split_chunks(text, cli.split_input_file.as_deref());
    let num_chunks = chunks.len();
    for (chunk_no, chunk) in chunks.into_iter().enumerate() {
        let file = SourceFile::new(name.clone(), chunk.text);
        let mut ctx = Context::new();
        tilus_dialects::register_all(&mut ctx);
        ctx.allow_unregistered = cli.allow_unregistered_dialect;
        let job = Job {
            cli,
            opts,
            pipeline: pipeline.as_ref(),
            ir_print: &ir_print,
            dumps: &dumps,
            stream: num_chunks == 1
                && !cli.emit_ptx
                && cli.draw_layouts.is_none()
                && !cli.verify_diagnostics
                && !cli.no_output
                && cli.output.as_deref().is_none_or(|p| p.as_os_str() == "-"),
        };
        let (diags, map, printed) = job.process(&mut ctx, &file);
        if cli.verify_diagnostics {
            let problems = verify_diags::check(&file, &ctx, &map, &diags);
            for p in &problems {
                emit(cli, Some(&ctx), Some(&map), &file, p);
            }
            failed |= !problems.is_empty();
            if let Some(p) = printed {
                outputs.push(p);
            }
        } else {
            for d in diags.iter().filter(|d| limit.admit(d)) {
                emit(cli, Some(&ctx), Some(&map), &file, d);
            }
            if diags.iter().any(|d| d.severity == Severity::Error) {
                failed = true;
            } else if let Some(p) = printed {
                outputs.push(p);
            }
        }
        if chunk_no + 1 == num_chunks {
            // The process ends after this: the OS reclaims the IR at once, where freeing its
            // millions of small allocations one by one costs a noticeable share of the run on
            // large inputs (clang's `-disable-free` does the same).
            std::mem::forget(ctx);
            std::mem::forget(file);
        }
    }
    if let Some(rest) = limit.summary() {
        let _ = std::io::stderr().write_all(rest.as_bytes());
    }
    if failed {
        return Ok(ExitCode::from(1));
    }
    if cli.no_output {
        return Ok(ExitCode::SUCCESS);
    }
    let out = if outputs.len() == 1 {
        outputs.pop().unwrap_or_default()
    } else {
        outputs.join("// -----\n")
    };
    write_output(cli.output.as_deref(), &out)?;
    Ok(ExitCode::SUCCESS)
}

/// `--draw-layout=TEXT`: one picture to the output; a bad type, layout or size is a
/// diagnostic pointing into TEXT (exit status 1).
fn draw_one(cli: &Cli, text: &str) -> ExitCode {
    let file = SourceFile::new("<draw-layout>", text.to_string());
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    if !(1..=1024 * 32).contains(&cli.draw_threads) {
        return usage_error(
            format!(
                "--draw-threads {}: expected 1 to 32768 threads",
                cli.draw_threads
            ),
            "a thread block has at most 1024 threads".to_string(),
        );
    }
    let subject = match draw::parse_subject(&mut ctx, text, cli.draw_threads) {
        Ok(s) => s,
        Err(d) => {
            emit(cli, Some(&ctx), None, &file, &d);
            return ExitCode::from(1);
        }
    };
    if let Err(msg) = subject.check_size() {
        let d = Diagnostic::error(
            DiagLoc::Span(tilus_ir::Span::new(0, text.len())),
            format!("picture too large: {msg}"),
        )
        .with_help("draw a smaller tile (a slice of this one shows the same pattern)");
        emit(cli, Some(&ctx), None, &file, &d);
        return ExitCode::from(1);
    }
    let format = cli.draw_format.unwrap_or(draw::Format::Text);
    // Colours only on a terminal, and never when NO_COLOR is set (no-color.org).
    let color = format == draw::Format::Text
        && std::env::var_os("NO_COLOR").is_none()
        && cli.output.as_deref().is_none_or(|p| p.as_os_str() == "-")
        && std::io::IsTerminal::is_terminal(&std::io::stdout());
    let out = draw::draw(&subject, draw::Style { format, color });
    match write_output(cli.output.as_deref(), &out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("{:?}", miette::miette!("{msg}"));
            ExitCode::from(1)
        }
    }
}

/// `--draw-layouts=DIR`: every picture of the module (after the pipeline) into DIR; returns
/// the listing printed instead of the IR.
fn draw_module(
    cli: &Cli,
    ctx: &Context,
    module: tilus_ir::OpId,
    map: &SourceMap,
    file: &SourceFile,
    dir: &Path,
) -> Result<String, Diagnostic> {
    let format = cli.draw_format.unwrap_or(draw::Format::Svg);
    std::fs::create_dir_all(dir).map_err(|e| {
        Diagnostic::error(
            DiagLoc::Unknown,
            format!("cannot create '{}': {e}", dir.display()),
        )
    })?;
    let where_ = |op: tilus_ir::OpId| match map.op_name(op) {
        Some(sp) if sp.start <= file.text.len() => {
            let before = &file.text[..sp.start];
            let line = before.matches('\n').count() + 1;
            let col = sp.start - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("{line}_{col}")
        }
        _ => "new".to_string(),
    };
    let mut listing = String::new();
    for p in draw::module_pictures(ctx, module, &where_) {
        let name = format!("{}.{}", p.stem, format.ext());
        if let Err(msg) = p.subject.check_size() {
            listing.push_str(&format!("skipped {name}: {msg}\n"));
            continue;
        }
        let text = draw::draw(
            &p.subject,
            draw::Style {
                format,
                color: false,
            },
        );
        let path = dir.join(&name);
        write_file_atomically(&path, text.as_bytes(), "tilus-opt").map_err(|e| {
            Diagnostic::error(
                DiagLoc::Unknown,
                format!("cannot write '{}': {e}", path.display()),
            )
        })?;
        listing.push_str(&format!("wrote {}\n", path.display()));
    }
    if listing.is_empty() {
        listing.push_str("no register or shared tiles in any kernel: nothing drawn\n");
    }
    Ok(listing)
}

/// Prints a usage error the way other errors are printed; exit status 2.
fn usage_error(msg: String, help: String) -> ExitCode {
    let report = miette::miette!(help = help, "{msg}");
    eprintln!("{report:?}");
    ExitCode::from(2)
}

/// The pipeline from `--pass-pipeline` or the pass flags, checked by building it once, so a
/// malformed one is reported (pointing into its text) before any input is read.
fn pipeline_spec(
    cli: &Cli,
    flags: &[(&'static str, String)],
) -> Result<Option<PipelineSpec>, ExitCode> {
    let spec = match (&cli.pass_pipeline, flags.is_empty()) {
        (Some(_), false) => {
            return Err(usage_error(
                format!(
                    "'--pass-pipeline' can't be used with individual pass flags (--{})",
                    flags[0].0
                ),
                "put every pass in the pipeline".to_string(),
            ))
        }
        (Some(text), true) => PipelineSpec {
            text: text.clone(),
            nesting: Nesting::Explicit,
        },
        (None, false) => {
            let items: Vec<(&str, &str)> = flags.iter().map(|(n, o)| (*n, o.as_str())).collect();
            PipelineSpec {
                text: pipeline_text_from_flags("builtin.module", &items),
                nesting: Nesting::Implicit,
            }
        }
        (None, true) => return Ok(None),
    };
    if let Err(d) = parse_pipeline(&spec.text, spec.nesting) {
        let file = SourceFile::new("<pass-pipeline>", spec.text.clone());
        emit(cli, None, None, &file, &d);
        return Err(ExitCode::from(2));
    }
    Ok(Some(spec))
}

/// The `--print-ir-*` flags, with pass names checked against the registry.
fn ir_print_config(cli: &Cli) -> Result<IrPrintConfig, ExitCode> {
    let known: Vec<&'static str> = tilus_passes::registry().iter().map(|p| p.name()).collect();
    for (flag, names) in [
        ("--print-ir-before", &cli.print_ir_before),
        ("--print-ir-after", &cli.print_ir_after),
    ] {
        for n in names {
            if known.contains(&n.as_str()) {
                continue;
            }
            if let Some(p) = tilus_passes::pipelines::find_pipeline(n) {
                return Err(usage_error(
                    format!("{flag}: '{n}' is a pipeline, not a pass"),
                    format!(
                        "name one of its steps, which run as passes: {}",
                        p.expand(&[])
                    ),
                ));
            }
            let near = tilus_passes::similar_pass_names(n);
            let help = match near.first() {
                Some(s) => format!("did you mean '{s}'?"),
                None => "`--list-passes` shows the registered passes".to_string(),
            };
            return Err(usage_error(
                format!("{flag}: '{n}' is not a registered pass"),
                help,
            ));
        }
    }
    Ok(IrPrintConfig {
        before_all: cli.print_ir_before_all,
        before: cli.print_ir_before.clone(),
        after_all: cli.print_ir_after_all,
        after: cli.print_ir_after.clone(),
        after_change: cli.print_ir_after_change,
        after_failure: cli.print_ir_after_failure,
        module_scope: cli.print_ir_module_scope,
        print: PrintOptions {
            generic: cli.print_op_generic,
            debuginfo: cli.print_debuginfo,
            local_scope: cli.print_local_scope,
        },
    })
}

/// `--list-passes`: every registered pass by name, its summary and options (with defaults),
/// then the named pipelines, as mlir-opt lists them; all read from the declarations.
fn list_passes() -> String {
    let mut passes = tilus_passes::registry();
    passes.sort_by_key(|p| p.name());
    let mut rows: Vec<(String, String)> = Vec::new();
    let option_rows = |rows: &mut Vec<(String, String)>, opts: &[tilus_passes::OptionDecl]| {
        let mut opts = opts.to_vec();
        opts.sort_by_key(|o| o.name);
        for o in opts {
            rows.push((
                format!("    --{}=<{}>", o.name, (o.value_kind)()),
                format!("- {} (default: {})", o.doc, (o.default)()),
            ));
        }
    };
    for info in &passes {
        let d = info.decl;
        let mut summary = d.summary.to_string();
        if let Some(a) = d.anchor {
            summary.push_str(&format!(" (runs on '{a}')"));
        }
        rows.push((format!("  --{}", d.name), format!("-   {summary}")));
        option_rows(&mut rows, d.options);
    }
    let mut pipelines = tilus_passes::pipelines::pipeline_registry();
    pipelines.sort_by_key(|p| p.name);
    let first_pipeline = rows.len();
    for p in &pipelines {
        rows.push((
            format!("  --{}", p.name),
            format!("-   {} (runs on '{}')", p.summary, p.anchor),
        ));
        option_rows(&mut rows, p.options);
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0) + 2;
    let mut out = String::from("Passes:\n");
    for (i, (l, r)) in rows.into_iter().enumerate() {
        if i == first_pipeline {
            out.push_str("Pass Pipelines:\n");
        }
        out.push_str(&format!("{l:<width$}{r}\n"));
    }
    out
}

/// What processing one input chunk needs besides the chunk itself.
struct Job<'a> {
    cli: &'a Cli,
    opts: PrintOptions,
    pipeline: Option<&'a PipelineSpec>,
    ir_print: &'a IrPrintConfig,
    dumps: &'a DumpCount,
    /// Write the printed IR to stdout while printing it, rather than returning it (one chunk,
    /// to stdout): large outputs are then never held in memory whole.
    stream: bool,
}

impl Job<'_> {
    /// Parses, verifies, runs the pipeline and prints one buffer; returns the diagnostics and,
    /// on success, the text. Reports (`--dump-pass-pipeline`, statistics, timing) go to stderr.
    fn process(
        &self,
        ctx: &mut Context,
        file: &SourceFile,
    ) -> (Vec<Diagnostic>, SourceMap, Option<String>) {
        let cli = self.cli;
        let start = Instant::now();
        let mut pm = match self.pipeline.map(|p| parse_pipeline(&p.text, p.nesting)) {
            None => None,
            Some(Ok(root)) => Some(PassManager::new(root)),
            // Checked in `pipeline_spec`; kept as a diagnostic rather than a panic.
            Some(Err(d)) => {
                let d = Diagnostic::error(
                    DiagLoc::Unknown,
                    format!("invalid pass pipeline: {}", d.message),
                );
                return (vec![d], SourceMap::default(), None);
            }
        };
        if let Some(pm) = &mut pm {
            pm.enable_verifier(cli.verify_each && !cli.no_verify);
            if self.ir_print.is_active() {
                pm.add_instrumentation(Box::new(IrPrinter::new(
                    self.ir_print.clone(),
                    Box::new(std::io::stderr()),
                    self.dumps.clone(),
                )));
            }
            if cli.dump_pass_pipeline {
                eprint!("{}", pm.dump());
            }
        }
        let mut timing = vec![TimingEntry {
            name: "Parser".into(),
            depth: 0,
            wall: Duration::ZERO,
        }];
        let result = self.run_chunk(ctx, file, pm.as_mut(), &mut timing);
        if let Some(pm) = &pm {
            if cli.pass_statistics {
                let display = match cli.pass_statistics_display {
                    StatsDisplay::Pipeline => StatisticsDisplay::Pipeline,
                    StatsDisplay::List => StatisticsDisplay::List,
                };
                eprint!("{}", pm.statistics_report(display));
            }
        }
        if cli.timing {
            if let Some(pm) = &pm {
                // Parser, the pipeline's entries, then Output (when the chunk got that far).
                let output = timing.split_off(1);
                timing.extend(pm.timing_entries());
                timing.extend(output);
            }
            eprint!("{}", render_timing(&timing, start.elapsed()));
        }
        result
    }

    fn run_chunk(
        &self,
        ctx: &mut Context,
        file: &SourceFile,
        pm: Option<&mut PassManager>,
        timing: &mut Vec<TimingEntry>,
    ) -> (Vec<Diagnostic>, SourceMap, Option<String>) {
        let parse_start = Instant::now();
        let parsed = tilus_ir::parse(ctx, &file.text, &file.name);
        let parsed = match parsed {
            Ok(p) => p,
            Err((diags, map)) => {
                timing[0].wall = parse_start.elapsed();
                return (diags, map, None);
            }
        };
        if !self.cli.no_verify {
            let diags = tilus_ir::verify(ctx, parsed.module);
            if !diags.is_empty() {
                timing[0].wall = parse_start.elapsed();
                return (diags, parsed.source_map, None);
            }
        }
        timing[0].wall = parse_start.elapsed();
        if let Some(pm) = pm {
            if let Err(diags) = pm.run(ctx, parsed.module) {
                return (diags, parsed.source_map, None);
            }
        }
        if let Some(dir) = &self.cli.draw_layouts {
            return match draw_module(self.cli, ctx, parsed.module, &parsed.source_map, file, dir) {
                Ok(listing) => (Vec::new(), parsed.source_map, Some(listing)),
                Err(d) => (vec![d], parsed.source_map, None),
            };
        }
        let print_start = Instant::now();
        let text = if self.cli.emit_ptx {
            match tilus_passes::ptx_emit::emit_ptx(ctx, parsed.module) {
                Ok(t) => t,
                Err(d) => return (vec![d], parsed.source_map, None),
            }
        } else if self.stream {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            let r = tilus_ir::syntax::printer::print_op_to(ctx, parsed.module, self.opts, &mut out)
                .and_then(|_| out.flush());
            if let Err(e) = r {
                let d = Diagnostic::error(DiagLoc::Unknown, format!("cannot write output: {e}"));
                return (vec![d], parsed.source_map, None);
            }
            String::new()
        } else {
            tilus_ir::print_op(ctx, parsed.module, self.opts)
        };
        timing.push(TimingEntry {
            name: "Output".into(),
            depth: 0,
            wall: print_start.elapsed(),
        });
        (Vec::new(), parsed.source_map, Some(text))
    }
}

fn emit(
    cli: &Cli,
    ctx: Option<&Context>,
    map: Option<&SourceMap>,
    file: &SourceFile,
    d: &Diagnostic,
) {
    let s = match cli.diagnostic_format {
        DiagFormat::Fancy => render(ctx, map, file, d),
        DiagFormat::Mlir => render_mlir_style(ctx, map, file, d),
    };
    let _ = std::io::stderr().write_all(s.as_bytes());
}

/// Writes to stdout, or to `path` through a temporary file renamed into place, so a failure never
/// leaves a partial file and an input named as output is replaced only on success.
fn write_output(path: Option<&Path>, text: &str) -> Result<(), String> {
    match path {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .map_err(|e| format!("cannot write output: {e}"))
        }
        Some(p) if p.as_os_str() == "-" => write_output(None, text),
        Some(p) => write_file_atomically(p, text.as_bytes(), "tilus-opt")
            .map_err(|e| format!("cannot write output file '{}': {e}", p.display())),
    }
}
