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
/// The position of the first special byte at or after `i` (`b.len()` if none), for the
/// byte-wise part of the scan (the tail, and blocks that [`wide_block`] leaves).
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
    // Whether `i` is inside a string literal (past its opening quote).
    let mut in_str = false;
    // Bytes before this go one special byte at a time (a 64-byte block the wide step left).
    #[allow(unused_mut, unused_variables)]
    let mut bytewise_until = 0;
    while i < b.len() {
        #[cfg(target_arch = "x86_64")]
        if i >= bytewise_until && i + 64 <= b.len() {
            match wide_block(b, i, in_str, &mut depth, limit)? {
                Some(s) => {
                    in_str = s;
                    i += 64;
                }
                None => bytewise_until = i + 64,
            }
            continue;
        }
        if in_str {
            // To the closing quote, stepping over escapes (strings are a good part of a file
            // with locations: every op name and every file name).
            match memchr::memchr2(b'"', b'\\', &b[i..]) {
                None => return Ok(()),
                Some(k) if b[i + k] == b'"' => {
                    i += k + 1;
                    in_str = false;
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
            continue;
        }
        i = next_special(b, i);
        if i >= b.len() {
            break;
        }
        match CLASS[b[i] as usize] {
            QUOTE => in_str = true,
            SLASH if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            }
            OPEN => {
                depth += 1;
                if depth > limit {
                    return Err(too_deep(i, limit));
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

fn too_deep(at: usize, limit: usize) -> Diagnostic {
    Diagnostic::at(
        Span::new(at, at + 1),
        format!("nesting deeper than {limit} levels"),
    )
    .with_label(format!("level {}", limit + 1))
    .with_help(
        "regions, attributes and types may nest at most this deep (counting every open '{', '[', '(' and '<')",
    )
}

/// Bit k set: the byte at `i + k` is `c` (for 64 bytes).
#[cfg(target_arch = "x86_64")]
struct Masks {
    open: u64,
    close: u64,
    gt: u64,
    quote: u64,
    backslash: u64,
    slash: u64,
    minus: u64,
}

#[cfg(target_arch = "x86_64")]
fn masks64(b: &[u8], i: usize) -> Masks {
    use std::arch::x86_64::*;
    assert!(i + 64 <= b.len());
    let mut m = Masks {
        open: 0,
        close: 0,
        gt: 0,
        quote: 0,
        backslash: 0,
        slash: 0,
        minus: 0,
    };
    for lane in 0..4 {
        // SAFETY: checked above, the 16-byte load at `i + 16 * lane` stays inside `b`; SSE2
        // is always available on x86-64.
        unsafe {
            let v = _mm_loadu_si128(b.as_ptr().add(i + 16 * lane) as *const __m128i);
            let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
            let bits = |x: __m128i| (_mm_movemask_epi8(x) as u32 as u64) << (16 * lane);
            // `[`/`{` and `]`/`}` differ only in bit 5.
            let folded = _mm_and_si128(v, _mm_set1_epi8(0xDFu8 as i8));
            let fold_eq = |c: u8| _mm_cmpeq_epi8(folded, _mm_set1_epi8(c as i8));
            m.open |= bits(_mm_or_si128(
                _mm_or_si128(eq(b'('), eq(b'<')),
                fold_eq(b'['),
            ));
            m.close |= bits(_mm_or_si128(eq(b')'), fold_eq(b']')));
            m.gt |= bits(eq(b'>'));
            m.quote |= bits(eq(b'"'));
            m.backslash |= bits(eq(b'\\'));
            m.slash |= bits(eq(b'/'));
            m.minus |= bits(eq(b'-'));
        }
    }
    m
}

/// Bit k: the parity of the set bits of `x` at k and below.
#[cfg(target_arch = "x86_64")]
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// The 64 bytes at `i` at once, when they hold no escape and no `/` outside a string (a
/// comment may start there): which bytes are inside strings follows from the quotes alone
/// (the parity of the quotes before each byte, and whether the block starts inside one), and
/// the brackets outside strings move `depth` in order. Returns whether the block ends inside
/// a string, or `None` (nothing changed) for the byte-wise path.
#[cfg(target_arch = "x86_64")]
fn wide_block(
    b: &[u8],
    i: usize,
    in_str: bool,
    depth: &mut usize,
    limit: usize,
) -> Result<Option<bool>, Diagnostic> {
    let m = masks64(b, i);
    if m.backslash != 0 {
        return Ok(None);
    }
    let inside = prefix_xor(m.quote) ^ if in_str { !0 } else { 0 };
    if m.slash & !inside != 0 {
        return Ok(None);
    }
    // `>` of `->` closes nothing (the `-` may be the last byte of the block before).
    let after_minus = (m.minus << 1) | u64::from(i > 0 && b[i - 1] == b'-');
    let open = m.open & !inside;
    let close = (m.close | (m.gt & !after_minus)) & !inside;
    let mut d = *depth;
    let (n_open, n_close) = (open.count_ones() as usize, close.count_ones() as usize);
    if n_close <= d && d + n_open <= limit {
        // Depth neither reaches the limit nor bottoms out within the block: only the
        // counts matter.
        d = d + n_open - n_close;
    } else {
        let mut all = open | close;
        while all != 0 {
            let k = all.trailing_zeros();
            if open >> k & 1 == 1 {
                d += 1;
                if d > limit {
                    return Err(too_deep(i + k as usize, limit));
                }
            } else {
                d = d.saturating_sub(1);
            }
            all &= all - 1;
        }
    }
    *depth = d;
    Ok(Some(inside >> 63 == 1))
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

    /// The scan one byte at a time, as the rules say (the reference for the 64-byte step).
    fn reference(src: &str, limit: usize) -> Result<(), (usize, String)> {
        let b = src.as_bytes();
        let (mut depth, mut i) = (0usize, 0);
        while i < b.len() {
            match b[i] {
                b'"' => {
                    i += 1;
                    loop {
                        match b.get(i) {
                            None => return Ok(()),
                            Some(b'"') => break,
                            Some(b'\\') => {
                                check_escape(b, i).map_err(|d| (i, d.message))?;
                                i += if b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) {
                                    3
                                } else {
                                    2
                                };
                            }
                            Some(_) => i += 1,
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
                        return Err((i, format!("nesting deeper than {limit} levels")));
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

    #[test]
    fn the_64_byte_step_agrees_with_the_byte_wise_rules() {
        // Pieces that matter at any offset of a block: strings crossing blocks, escapes,
        // comments (and `/` in strings, as file names have), `->` split over two blocks,
        // closers below depth 0, and limits reached inside a block.
        let pieces = [
            "\"a/b{[(\"",
            "{",
            "}",
            "[",
            "]",
            "(",
            ")",
            "<",
            ">",
            "->",
            "-",
            "// c{{{\n",
            "/",
            "\"x\\\"{\"",
            "\"\\41(\"",
            "x",
            "   ",
            "\n",
            "\"",
            "\\",
            "\"\\q\"",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..3000 {
            let n = (next() % 120) as usize;
            let text: String = (0..n)
                .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                .collect();
            for limit in [1, 3, 8, 40, MAX_NESTING] {
                let want = reference(&text, limit);
                let got = check_nesting_limit(&text, limit).map_err(|d| match d.loc {
                    crate::diag::DiagLoc::Span(s) => (s.start, d.message),
                    _ => (usize::MAX, d.message),
                });
                assert_eq!(got, want, "limit {limit} on {text:?}");
            }
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
