//! Command-line conventions shared by `tilus-opt` and `tilus-run`.
//!
//! MLIR's tools parse flags with LLVM's `cl`, which accepts a long option with one dash as well
//! as two (`-split-input-file`, `-pass-pipeline=...`, `-cse`), and existing RUN lines and
//! scripts use the one-dash spelling. clap reads `-cse` as the short flags `-c -s -e`, so the
//! tools rewrite such arguments to the two-dash spelling before clap sees them.

use std::ffi::OsString;

/// Rewrites `-name` and `-name=value` to `--name...` when `name` is a long option
/// (`is_long(name)`), leaving everything else alone: short flags (`-o`), a lone `-` (standard
/// input), values that follow an option, and every argument after `--`.
///
/// Only names the tool knows are rewritten, so a file called `-x.mlir` given after `--` or an
/// unknown `-foo` still reaches clap as written and gets clap's own error.
pub fn long_flags_with_one_dash(
    args: impl IntoIterator<Item = OsString>,
    is_long: impl Fn(&str) -> bool,
) -> Vec<OsString> {
    let mut out = Vec::new();
    let mut rest_are_operands = false;
    for (i, arg) in args.into_iter().enumerate() {
        if i == 0 || rest_are_operands {
            out.push(arg);
            continue;
        }
        if arg == "--" {
            rest_are_operands = true;
            out.push(arg);
            continue;
        }
        let rewritten = arg.to_str().and_then(|s| {
            let body = s.strip_prefix('-')?;
            if body.starts_with('-') || body.chars().count() < 2 {
                return None;
            }
            let name = body.split_once('=').map_or(body, |(n, _)| n);
            is_long(name).then(|| OsString::from(format!("-{s}")))
        });
        out.push(rewritten.unwrap_or(arg));
    }
    out
}

/// Stack of the thread the tools do their work on: the parser, verifier, printer and passes
/// recurse once per nesting level, and input may nest up to
/// [`MAX_NESTING`](crate::syntax::depth::MAX_NESTING) levels (the main thread's 8 MiB holds a
/// few thousand). It is address space reserved, not memory used: pages are touched only as
/// deep as the input goes.
pub const WORK_STACK_BYTES: usize = 4 << 30;

/// Runs `f` on a thread with a [`WORK_STACK_BYTES`] stack and returns its result (a panic in
/// `f` is passed on as a panic here).
pub fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        let h = std::thread::Builder::new()
            .name("main-work".into())
            .stack_size(WORK_STACK_BYTES)
            .spawn_scoped(s, f)
            .expect("cannot start the work thread");
        match h.join() {
            Ok(v) => v,
            Err(p) => std::panic::resume_unwind(p),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Vec<String> {
        let known = ["split-input-file", "pass-pipeline", "cse", "o"];
        long_flags_with_one_dash(args.iter().map(OsString::from), |n| known.contains(&n))
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn one_dash_long_flags_gain_a_dash() {
        assert_eq!(
            run(&[
                "tool",
                "-split-input-file",
                "-pass-pipeline=any(cse)",
                "-cse",
                "f.mlir"
            ]),
            [
                "tool",
                "--split-input-file",
                "--pass-pipeline=any(cse)",
                "--cse",
                "f.mlir"
            ]
        );
    }

    #[test]
    fn short_flags_stdin_unknown_names_and_operands_stay() {
        assert_eq!(
            run(&["tool", "-o", "out", "-", "-frob", "--cse", "--", "-cse"]),
            ["tool", "-o", "out", "-", "-frob", "--cse", "--", "-cse"]
        );
    }
}

/// Decodes an input file's bytes, or says where the first byte that is not UTF-8 is, by line
/// and column (counted in characters, from 1) as every other diagnostic does, and by byte
/// offset for tools like `xxd`. Both tools read their input through this.
pub fn decode_utf8(name: &str, bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // The prefix up to `at` is valid UTF-8.
        let before = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!(
            "input file '{name}' is not valid UTF-8: line {line}, column {col} (byte offset {at}, byte 0x{:02x})",
            bytes[at]
        )
    })
}

#[cfg(test)]
mod utf8_tests {
    #[test]
    fn invalid_utf8_is_located_by_line_and_column() {
        let e = super::decode_utf8("f.mlir", b"ab\n\xc3\xa9x\xff".to_vec()).unwrap_err();
        assert_eq!(
            e,
            "input file 'f.mlir' is not valid UTF-8: line 2, column 3 (byte offset 6, byte 0xff)"
        );
        assert_eq!(super::decode_utf8("f", b"ok".to_vec()).unwrap(), "ok");
    }
}
