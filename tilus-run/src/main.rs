//! `tilus-run`: will lower a kernel, run it on the GPU (through `cudarc`) or on the CPU
//! interpreter, check it against a reference and time it. Until that lands (see the interpreter
//! and CUDA-backend issues), it says so and exits with status 2 instead of pretending to run.

use clap::Parser;

/// Flags accepted today; the full set arrives with the interpreter.
#[derive(Parser, Debug)]
#[command(
    name = "tilus-run",
    version,
    about = "Run tilus kernels (not yet implemented)"
)]
struct Cli {
    /// Kernel file (`.mlir`).
    input: Option<std::path::PathBuf>,
}

fn main() {
    let cli = Cli::parse();
    let what = cli
        .input
        .map(|p| format!(" '{}'", p.display()))
        .unwrap_or_default();
    eprintln!(
        "tilus-run: running kernels{what} is not implemented yet.\n\
         It will lower the kernel to PTX and launch it through cudarc on a GPU, or run it on the CPU\n\
         interpreter (exact thread-group, mbarrier, TMA and MMA semantics) where no GPU is present.\n\
         Today, use `tilus-opt FILE` to parse and verify a kernel."
    );
    std::process::exit(2);
}
