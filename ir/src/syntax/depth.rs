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

/// What [`check_nesting_limit`] does at each byte: most bytes (names, numbers, spaces) are
/// none of these and are skipped by one table lookup each.
const SKIP: u8 = 0;
const OPEN: u8 = 1;
const CLOSE: u8 = 2;
const QUOTE: u8 = 3;
const SLASH: u8 = 4;
const GT: u8 = 5;

static CLASS: [u8; 256] = {
    let mut t = [SKIP; 256];
    t[b'{' as usize] = OPEN;
    t[b'[' as usize] = OPEN;
    t[b'(' as usize] = OPEN;
    t[b'<' as usize] = OPEN;
    t[b'}' as usize] = CLOSE;
    t[b']' as usize] = CLOSE;
    t[b')' as usize] = CLOSE;
    t[b'>' as usize] = GT;
    t[b'"' as usize] = QUOTE;
    t[b'/' as usize] = SLASH;
    t
};

/// Finds the bytes that are not [`SKIP`]. Most of a file is names, numbers and spaces, so this
/// is where the scan spends its time: on x86-64 it classifies 16 bytes at once with SSE2 (part of
/// the x86-64 baseline, so no detection is needed); elsewhere it looks each byte up in a table.
/// (Keeping a block's mask for the next call measured slower: special bytes are dense.)
/// The position of the first special byte at or after `i` (`b.len()` if none).
fn next_special(b: &[u8], #[allow(unused_mut)] mut i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    while i + 16 <= b.len() {
        let m = block_mask(b, i);
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
        i += 16;
    }
    b.get(i..)
        .and_then(|r| r.iter().position(|c| CLASS[*c as usize] != SKIP))
        .map_or(b.len(), |k| i + k)
}

/// Bit k set: byte `i + k` is one of the bytes the scan looks at.
#[cfg(target_arch = "x86_64")]
fn block_mask(b: &[u8], i: usize) -> u32 {
    use std::arch::x86_64::*;
    const SPECIAL: [u8; 10] = [b'{', b'}', b'[', b']', b'(', b')', b'<', b'>', b'"', b'/'];
    assert!(i + 16 <= b.len());
    // SAFETY: checked just above, the unaligned 16-byte load stays inside `b`; SSE2 is always
    // available on x86-64.
    unsafe {
        let v = _mm_loadu_si128(b.as_ptr().add(i) as *const __m128i);
        let mut m = _mm_setzero_si128();
        for c in SPECIAL {
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)));
        }
        _mm_movemask_epi8(m) as u32
    }
}

/// [`check_nesting`] with another limit (for tests).
pub fn check_nesting_limit(src: &str, limit: usize) -> Result<(), Diagnostic> {
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        i = next_special(b, i);
        if i >= b.len() {
            break;
        }
        match CLASS[b[i] as usize] {
            SKIP => {}
            QUOTE => {
                // To the closing quote, stepping over escapes (strings are a good part of a
                // file with locations: every op name and every file name).
                i += 1;
                loop {
                    match b.get(i..).and_then(|r| memchr::memchr2(b'"', b'\\', r)) {
                        None => return Ok(()),
                        Some(k) if b[i + k] == b'"' => {
                            i += k;
                            break;
                        }
                        Some(k) => {
                            i += k;
                            check_escape(b, i)?;
                            i += if b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) {
                                3
                            } else {
                                2
                            };
                        }
                    }
                }
            }
            SLASH if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            }
            OPEN => {
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
            // `>` of `->` closes nothing.
            GT if i > 0 && b[i - 1] == b'-' => {}
            CLOSE | GT => depth = depth.saturating_sub(1),
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
    fn the_wide_scan_finds_what_the_table_finds() {
        // Every position of every special byte, in texts longer than one 16-byte block.
        let text = "%arg0 = \"x.y\"(%a, %b) <{k = [1, 2]}> : (i32) -> i32 // c\n".repeat(5);
        let b = text.as_bytes();
        for start in 0..b.len() {
            let want = b[start..]
                .iter()
                .position(|c| CLASS[*c as usize] != SKIP)
                .map_or(b.len(), |k| start + k);
            assert_eq!(next_special(b, start), want, "from {start}");
        }
    }

    #[test]
    fn depth_counts_open_brackets_outside_strings_and_comments() {
        assert!(check_nesting_limit("{[(<>)]}", 4).is_ok());
        let e = check_nesting_limit("{[(<<>)]}", 4).unwrap_err();
        assert_eq!(e.message, "nesting deeper than 4 levels");
        assert!(check_nesting_limit("\"{{{{{\" // [[[[[\n () -> i32", 1).is_ok());
        // Escaped quotes stay inside the string; an unterminated string or an escape at the
        // very end hides the rest.
        assert!(check_nesting_limit(r#""a\"{{" ()"#, 1).is_ok());
        assert!(check_nesting_limit(r#"(( "x\"#, 2).is_ok());
        assert!(check_nesting_limit(r#"(("x"("#, 2).is_err());
        assert!(check_nesting_limit("(\"{{{{", 1).is_ok());
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
