//! `tilus-opt`: read tilus IR, verify it, (run passes,) print it. Flags follow `mlir-opt`.
//!
//! Exit codes: 0 success, 1 invalid input (syntax, verifier, unmatched expected diagnostics,
//! unreadable file), 2 bad usage (unknown flag, bad flag value).

// Errors carry a full diagnostic (message, spans, notes, help); they are the cold path, so
// their size is not worth a box at every `Err`.
#![allow(clippy::result_large_err)]

mod verify_diags;

use clap::Parser as ClapParser;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tilus_ir::source::{render, render_mlir_style, SourceFile};
use tilus_ir::{Context, Diagnostic, PrintOptions, Severity, SourceMap};

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
    /// Split the input at `// -----` lines and process each part on its own.
    #[arg(long)]
    split_input_file: bool,
    /// How to report diagnostics: `fancy` (miette, with source) or `mlir` (`file:line:col: error: ...`).
    #[arg(long, value_enum, default_value_t = DiagFormat::Fancy)]
    diagnostic_format: DiagFormat,
    /// Parse and verify only; print nothing.
    #[arg(long)]
    no_output: bool,
    /// Skip the verifier (debugging malformed IR).
    #[arg(long)]
    no_verify: bool,
    /// List the registered dialects and their ops, then exit.
    #[arg(long)]
    list_dialects: bool,
    /// Write one Markdown reference page per dialect (generated from the op declarations) into DIR.
    #[arg(long, value_name = "DIR")]
    dump_op_docs: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
enum DiagFormat {
    Fancy,
    Mlir,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
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
            let text = String::from_utf8(bytes).map_err(|e| {
                format!(
                    "input file '{}' is not valid UTF-8 (first bad byte at offset {})",
                    p.display(),
                    e.utf8_error().valid_up_to()
                )
            })?;
            Ok((p.display().to_string(), text))
        }
    }
}

fn read_stdin() -> Result<(String, String), String> {
    let mut s = String::new();
    std::io::stdin()
        .read_to_string(&mut s)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    Ok(("<stdin>".into(), s))
}

/// One piece of the input (the whole file, or a `// -----` chunk padded to its original lines).
struct Chunk {
    text: String,
}

fn split_chunks(text: &str, split: bool) -> Vec<Chunk> {
    if !split {
        return vec![Chunk {
            text: text.to_string(),
        }];
    }
    let mut chunks = Vec::new();
    let mut cur = String::new();
    let mut start_line = 0usize;
    for (line_no, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_end() == "// -----" {
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

fn run(cli: &Cli) -> Result<ExitCode, String> {
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
            }
            write_output(cli.output.as_deref(), &out)?;
        }
        if let Some(dir) = &cli.dump_op_docs {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
            for (ns, ops) in ctx.dialects() {
                let text = tilus_ir::opdef::dialect_markdown(ns, ops);
                write_output(Some(&dir.join(format!("{ns}.md"))), &text)?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (name, text) = read_input(cli)?;
    let opts = PrintOptions {
        generic: cli.print_op_generic,
        debuginfo: cli.print_debuginfo,
        local_scope: cli.print_local_scope,
    };
    let mut outputs = Vec::new();
    let mut failed = false;
    for chunk in split_chunks(&text, cli.split_input_file) {
        let file = SourceFile::new(name.clone(), chunk.text);
        let mut ctx = Context::new();
        tilus_dialects::register_all(&mut ctx);
        ctx.allow_unregistered = cli.allow_unregistered_dialect;
        let (diags, map, printed) = process(&mut ctx, &file, opts, cli);
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
            for d in &diags {
                emit(cli, Some(&ctx), Some(&map), &file, d);
            }
            if diags.iter().any(|d| d.severity == Severity::Error) {
                failed = true;
            } else if let Some(p) = printed {
                outputs.push(p);
            }
        }
    }
    if failed {
        return Ok(ExitCode::from(1));
    }
    if cli.no_output {
        return Ok(ExitCode::SUCCESS);
    }
    let out = outputs.join("// -----\n");
    write_output(cli.output.as_deref(), &out)?;
    Ok(ExitCode::SUCCESS)
}

/// Parses, verifies and prints one buffer; returns the diagnostics and, on success, the text.
fn process(
    ctx: &mut Context,
    file: &SourceFile,
    opts: PrintOptions,
    cli: &Cli,
) -> (Vec<Diagnostic>, SourceMap, Option<String>) {
    let parsed = match tilus_ir::parse(ctx, &file.text, &file.name) {
        Ok(p) => p,
        Err((diags, map)) => return (diags, map, None),
    };
    if !cli.no_verify {
        let diags = tilus_ir::verify(ctx, parsed.module);
        if !diags.is_empty() {
            return (diags, parsed.source_map, None);
        }
    }
    let text = tilus_ir::print_op(ctx, parsed.module, opts);
    (Vec::new(), parsed.source_map, Some(text))
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
        Some(p) => {
            let dir = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let fname = p.file_name().ok_or_else(|| {
                format!(
                    "cannot write output file '{}': not a file name",
                    p.display()
                )
            })?;
            let tmp = dir.join(format!(
                ".{}.tilus-opt-{}.tmp",
                fname.to_string_lossy(),
                std::process::id()
            ));
            let r = std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, p));
            if let Err(e) = r {
                let _ = std::fs::remove_file(&tmp);
                return Err(format!("cannot write output file '{}': {e}", p.display()));
            }
            Ok(())
        }
    }
}
