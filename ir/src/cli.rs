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
