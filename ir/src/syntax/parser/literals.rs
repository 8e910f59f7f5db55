//! Literal text to values: string escapes, integers in range for a width, float bit patterns,
//! shapes.

use super::*;

pub(super) fn parse_shape(s: &str, sp: Span) -> PResult<Vec<i64>> {
    let mut shape = Vec::new();
    let s: String = s.split_whitespace().collect();
    for d in s.split('x').filter(|d| !d.is_empty()) {
        if d == "?" {
            shape.push(DYNAMIC);
        } else {
            shape.push(
                d.parse()
                    .map_err(|_| Diagnostic::at(sp, format!("invalid dimension '{d}'")))?,
            );
        }
    }
    Ok(shape)
}

/// Decodes an MLIR string literal (with quotes) into bytes: `\n \t \" \\` and `\XX` hex escapes.
pub fn unescape(lit: &str) -> Vec<u8> {
    let b = lit.as_bytes();
    let body = &b[1..b.len() - 1];
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'\\' && i + 1 < body.len() {
            let c = body[i + 1];
            match c {
                b'n' => {
                    out.push(b'\n');
                    i += 2;
                }
                b't' => {
                    out.push(b'\t');
                    i += 2;
                }
                b'"' | b'\\' => {
                    out.push(c);
                    i += 2;
                }
                _ if i + 2 < body.len()
                    && c.is_ascii_hexdigit()
                    && body[i + 2].is_ascii_hexdigit() =>
                {
                    let h = std::str::from_utf8(&body[i + 1..i + 3]).unwrap();
                    out.push(u8::from_str_radix(h, 16).unwrap());
                    i += 3;
                }
                _ => {
                    out.push(c);
                    i += 2;
                }
            }
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

/// The bits of float literal `text` (decimal, or the hex bit pattern) in format `k`.
pub(super) fn float_bits(text: &str, k: FloatKind, sp: Span) -> PResult<u128> {
    if let Some(h) = text.strip_prefix("0x") {
        let bits = u128::from_str_radix(h, 16)
            .map_err(|_| Diagnostic::at(sp, "hexadecimal float literal too large"))?;
        if k.width() < 128 && bits >> k.width() != 0 {
            return Err(Diagnostic::at(
                sp,
                format!(
                    "hexadecimal float constant out of range for type '{}'",
                    k.keyword()
                ),
            ));
        }
        Ok(bits)
    } else if text.starts_with("-0x") || text.starts_with("+0x") {
        Err(Diagnostic::at(
            sp,
            "hexadecimal float literal should not have a leading minus",
        ))
    } else {
        let v: f64 = text
            .parse()
            .map_err(|_| Diagnostic::at(sp, format!("invalid float literal '{text}'")))?;
        Ok(float::from_f64(k, v))
    }
}

/// Integer literal `text` as a value of an integer type, normalised as MLIR stores it.
pub(super) fn int_value(
    text: &str,
    width: u32,
    signedness: Signedness,
    sp: Span,
) -> PResult<BigInt> {
    // The common case first: a decimal that fits (a float literal never parses as an `i64`).
    if let Some(v) = small_int_in_range(text, width, signedness) {
        return Ok(v);
    }
    if text.contains('.') {
        return Err(Diagnostic::at(
            sp,
            "floating point value not valid for specified type",
        ));
    }
    let v = parse_bigint(text).ok_or_else(|| Diagnostic::at(sp, "invalid integer literal"))?;
    check_int_range(v, width, signedness)
        .ok_or_else(|| Diagnostic::at(sp, "integer constant out of range for attribute"))
}

/// The value of an integer literal as MLIR writes it (`42`, `-7`, `0x2A`).
pub fn parse_int_literal(text: &str) -> Option<BigInt> {
    parse_bigint(text)
}

/// `[-128, 255]`, for messages about the range of an `iN`/`siN`/`uiN` literal.
pub(super) fn int_range_text(width: u32, sig: Signedness) -> String {
    let one = BigInt::one();
    let (lo, hi) = match sig {
        Signedness::Unsigned => (BigInt::zero(), (&one << width) - 1),
        Signedness::Signed => (
            -(&one << width.saturating_sub(1)),
            (&one << width.saturating_sub(1)) - 1,
        ),
        Signedness::Signless => (-(&one << width.saturating_sub(1)), (&one << width) - 1),
    };
    format!("[{lo}, {hi}]")
}

pub(super) fn parse_bigint(text: &str) -> Option<BigInt> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let v = if let Some(h) = t.strip_prefix("0x") {
        BigInt::parse_bytes(h.as_bytes(), 16)?
    } else {
        BigInt::parse_bytes(t.as_bytes(), 10)?
    };
    Some(if neg { -v } else { v })
}

/// [`check_int_range`] for a decimal literal that fits an `i64` and a type of at most 64 bits,
/// without big-integer arithmetic (the common case). `None`: take the general path.
fn small_int_in_range(text: &str, width: u32, sig: Signedness) -> Option<BigInt> {
    if width == 0 || width > 64 || text.starts_with('+') {
        return None;
    }
    let v = text.parse::<i64>().ok()? as i128;
    let modulus = 1i128 << width;
    let half = 1i128 << (width - 1);
    let r = match sig {
        Signedness::Unsigned => (0..modulus).contains(&v).then_some(v)?,
        Signedness::Signed => (-half..half).contains(&v).then_some(v)?,
        Signedness::Signless => {
            if v < -half || v >= modulus {
                return None;
            }
            let r = v.rem_euclid(modulus);
            if width > 1 && r >= half {
                r - modulus
            } else {
                r
            }
        }
    };
    Some(BigInt::from(r))
}

/// Checks an integer literal against a type and normalizes it: MLIR accepts for `iN` any value in
/// `[-2^(N-1), 2^N)` and stores the N-bit pattern; we keep the signed reading (unsigned for `uiN`).
pub fn check_int_range(v: BigInt, width: u32, sig: Signedness) -> Option<BigInt> {
    let one = BigInt::one();
    let modulus = &one << width;
    match sig {
        Signedness::Unsigned => {
            if v.is_negative() || v >= modulus {
                return None;
            }
            Some(v)
        }
        Signedness::Signed => {
            let half = &one << (width.max(1) - 1);
            if width == 0 {
                return v.is_zero().then_some(v);
            }
            if v < -&half || v >= half {
                return None;
            }
            Some(v)
        }
        Signedness::Signless => {
            if width == 0 {
                return v.is_zero().then_some(v);
            }
            let half = &one << (width - 1);
            if v < -&half || v >= modulus {
                return None;
            }
            // Normalize to the signed reading of the N-bit pattern.
            let mut r = ((v % &modulus) + &modulus) % &modulus;
            if width > 1 && r >= half {
                r -= &modulus;
            } else if width == 1 && r == one {
                // i1: keep 1 (printed as `true`).
            }
            Some(r)
        }
    }
}
