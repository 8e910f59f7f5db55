//! A bound on how deeply the text nests, checked before parsing.
//!
//! The parser, the verifier, the printer and the passes' walks recurse once per level of
//! nesting (regions in ops, attributes in arrays and dictionaries, types in types), so input
//! nested without bound would overflow the stack, which aborts the process. One linear scan
//! over the brackets bounds all of them at once: nothing built from the text can nest deeper
//! than its brackets do. The tools run their work on a thread whose stack holds
//! [`MAX_NESTING`] levels of the deepest of those recursions.
//!
//! mlir-opt 22 (on an 8 MiB stack) accepts about 3,900 nested `module`s, 2,050 nested generic
//! regions (two brackets each), 6,800 nested arrays and 6,150 nested dictionaries, and crashes
//! beyond; the limit here accepts all of those.

use crate::diag::{Diagnostic, Span};

/// The most brackets (`{`, `[`, `(`, `<`) that may be open at once.
pub const MAX_NESTING: usize = 10_000;

/// Finds the first bracket that opens level `MAX_NESTING + 1`, skipping string literals and
/// `//` comments (`>` of `->` closes nothing). The count is a bound, not a parse: brackets need
/// not match here, the parser reports that.
pub fn check_nesting(src: &str) -> Result<(), Diagnostic> {
    check_nesting_limit(src, MAX_NESTING)
}

/// [`check_nesting`] with another limit (for tests).
pub fn check_nesting_limit(src: &str, limit: usize) -> Result<(), Diagnostic> {
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        check_escape(b, i)?;
                        i += if b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) {
                            3
                        } else {
                            2
                        };
                    } else {
                        i += 1;
                    }
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' | b'[' | b'(' | b'<' => {
                depth += 1;
                if depth > limit {
                    return Err(Diagnostic::at(
                        Span::new(i, i + 1),
                        format!("nesting deeper than {limit} levels"),
                    )
                    .with_label(format!("level {}", limit + 1))
                    .with_help(
                        "regions, attributes and types may nest at most this deep (counting every open '{', '[', '(' and '<')",
                    ));
                }
            }
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'}' | b']' | b')' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// MLIR's string escapes are `\n`, `\t`, `\"`, `\\` and two hex digits; mlir-opt rejects any
/// other (`"\q"`), so a string it cannot read is not accepted here either. Checked in the same
/// scan as the nesting because the scan already finds every string literal, whichever parser
/// path (grammar or fast path) later reads it.
fn check_escape(b: &[u8], i: usize) -> Result<(), Diagnostic> {
    let ok = match b.get(i + 1) {
        Some(b'n' | b't' | b'"' | b'\\') => true,
        Some(c) if c.is_ascii_hexdigit() => b.get(i + 2).is_some_and(u8::is_ascii_hexdigit),
        // A backslash at the end of the input or line: the parser reports the unterminated string.
        None | Some(b'\n') => true,
        Some(_) => false,
    };
    if ok {
        return Ok(());
    }
    let end = (i + 2..=(i + 5).min(b.len()))
        .rev()
        .find(|&e| std::str::from_utf8(&b[i..e]).is_ok())
        .unwrap_or(i + 1);
    Err(Diagnostic::at(Span::new(i, end), "unknown escape in string literal")
        .with_label("this escape")
        .with_help("a string literal may contain \\n, \\t, \\\", \\\\ and \\XX (two hex digits) escapes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_open_brackets_outside_strings_and_comments() {
        assert!(check_nesting_limit("{[(<>)]}", 4).is_ok());
        let e = check_nesting_limit("{[(<<>)]}", 4).unwrap_err();
        assert_eq!(e.message, "nesting deeper than 4 levels");
        assert!(check_nesting_limit("\"{{{{{\" // [[[[[\n () -> i32", 1).is_ok());
    }

    #[test]
    fn string_escapes_are_mlirs() {
        assert!(check_nesting(r#""\n\t\"\\\41\ff""#).is_ok());
        let e = check_nesting(r#"{x = "ab\q"}"#).unwrap_err();
        assert_eq!(e.message, "unknown escape in string literal");
        assert!(check_nesting(r#""\4""#).is_err());
        assert!(check_nesting("// \"\\q\"").is_ok());
    }
}
