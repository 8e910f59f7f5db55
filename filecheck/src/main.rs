//! `tilus-filecheck`: command-line front end of the `tilus_filecheck` library, a drop-in
//! replacement for LLVM's `FileCheck` in RUN lines.

use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let out = tilus_filecheck::main_with_args(&args, &mut std::io::stdin().lock());
    let _ = std::io::stdout().write_all(out.stdout.as_bytes());
    let _ = std::io::stderr().write_all(out.stderr.as_bytes());
    std::process::exit(out.exit_code);
}
