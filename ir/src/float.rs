//! Float bit patterns for every MLIR float type: encoding from `f64`, decoding to `f64`, and
//! printing the way MLIR does (`1.000000e+00` when that reads back exactly, hex otherwise).
//!
//! Float attributes store the bit pattern in the attribute's own format, so NaN payloads and
//! values of narrow formats survive a round trip untouched.

use crate::types::FloatKind;

#[derive(Clone, Copy, PartialEq)]
enum Special {
    /// IEEE: all-ones exponent means inf/NaN.
    Ieee,
    /// Finite-only; all-ones exponent and mantissa is NaN.
    FnNan,
    /// Finite-only and no NaN at all (the 4- and 6-bit formats).
    FnNoNan,
    /// Finite-only, unsigned zero; the negative-zero pattern is NaN.
    Fnuz,
}

struct Fmt {
    ebits: u32,
    mbits: u32,
    bias: i32,
    special: Special,
}

fn fmt(k: FloatKind) -> Option<Fmt> {
    use FloatKind::*;
    let f = |ebits, mbits, bias, special| {
        Some(Fmt {
            ebits,
            mbits,
            bias,
            special,
        })
    };
    match k {
        F16 => f(5, 10, 15, Special::Ieee),
        BF16 => f(8, 7, 127, Special::Ieee),
        TF32 => f(8, 10, 127, Special::Ieee),
        F8E5M2 => f(5, 2, 15, Special::Ieee),
        F8E4M3 => f(4, 3, 7, Special::Ieee),
        F8E3M4 => f(3, 4, 3, Special::Ieee),
        F8E4M3FN => f(4, 3, 7, Special::FnNan),
        F6E2M3FN => f(2, 3, 1, Special::FnNoNan),
        F6E3M2FN => f(3, 2, 3, Special::FnNoNan),
        F4E2M1FN => f(2, 1, 1, Special::FnNoNan),
        F8E5M2FNUZ => f(5, 2, 16, Special::Fnuz),
        F8E4M3FNUZ => f(4, 3, 8, Special::Fnuz),
        F8E4M3B11FNUZ => f(4, 3, 11, Special::Fnuz),
        F32 | F64 | F80 | F128 | F8E8M0FNU => None,
    }
}

fn pow2(e: i32) -> f64 {
    2f64.powi(e)
}

/// Decodes a bit pattern of format `k` to the nearest `f64` (exact for every format up to f64).
pub fn to_f64(k: FloatKind, bits: u128) -> f64 {
    match k {
        FloatKind::F32 => f32::from_bits(bits as u32) as f64,
        FloatKind::F64 => f64::from_bits(bits as u64),
        FloatKind::F8E8M0FNU => {
            if bits & 0xff == 0xff {
                f64::NAN
            } else {
                pow2(bits as i32 - 127)
            }
        }
        FloatKind::F128 => {
            let sign = (bits >> 127) & 1;
            let exp = ((bits >> 112) & 0x7fff) as i32;
            let man = bits & ((1u128 << 112) - 1);
            let v = if exp == 0x7fff {
                if man == 0 {
                    f64::INFINITY
                } else {
                    f64::NAN
                }
            } else if exp == 0 {
                (man as f64) * pow2(-16382 - 112)
            } else {
                (1.0 + man as f64 / pow2(112)) * pow2(exp - 16383)
            };
            if sign == 1 {
                -v
            } else {
                v
            }
        }
        FloatKind::F80 => {
            let sign = (bits >> 79) & 1;
            let exp = ((bits >> 64) & 0x7fff) as i32;
            let man = (bits & u64::MAX as u128) as u64;
            let v = if exp == 0x7fff {
                if man << 1 == 0 {
                    f64::INFINITY
                } else {
                    f64::NAN
                }
            } else {
                (man as f64) * pow2(exp.max(1) - 16383 - 63)
            };
            if sign == 1 {
                -v
            } else {
                v
            }
        }
        _ => {
            let f = fmt(k).unwrap();
            let total = f.ebits + f.mbits;
            let sign = (bits >> total) & 1 == 1;
            let emax = (1u128 << f.ebits) - 1;
            let exp = (bits >> f.mbits) & emax;
            let man = bits & ((1u128 << f.mbits) - 1);
            match f.special {
                Special::Ieee if exp == emax => {
                    let v = if man == 0 { f64::INFINITY } else { f64::NAN };
                    return if sign { -v } else { v };
                }
                Special::FnNan if exp == emax && man == (1u128 << f.mbits) - 1 => return f64::NAN,
                Special::Fnuz if sign && exp == 0 && man == 0 => return f64::NAN,
                _ => {}
            }
            let v = if exp == 0 {
                man as f64 * pow2(1 - f.bias - f.mbits as i32)
            } else {
                (1.0 + man as f64 / pow2(f.mbits as i32)) * pow2(exp as i32 - f.bias)
            };
            if sign {
                -v
            } else {
                v
            }
        }
    }
}

/// Rounds an `f64` to format `k` (nearest, ties to even) and returns the bit pattern.
pub fn from_f64(k: FloatKind, v: f64) -> u128 {
    match k {
        FloatKind::F32 => (v as f32).to_bits() as u128,
        FloatKind::F64 => v.to_bits() as u128,
        FloatKind::F8E8M0FNU => {
            // Powers of two only, 2^-127 to 2^127 (MLIR's APFloat: zero becomes the smallest,
            // rounding is to the nearest power in value, ties up, and past 2^127 is the NaN).
            if v.is_nan() || v < 0.0 || v.is_infinite() {
                return 0xff;
            }
            if v == 0.0 {
                return 0;
            }
            let mut e = v.log2().floor() as i32;
            if pow2(e) > v {
                e -= 1;
            }
            if v >= 1.5 * pow2(e) {
                e += 1;
            }
            match e + 127 {
                f if f > 254 => 0xff,
                f => f.max(0) as u128,
            }
        }
        FloatKind::F128 => {
            let b = v.to_bits();
            let sign = (b >> 63) as u128;
            let exp = ((b >> 52) & 0x7ff) as i32;
            let man = (b & ((1u64 << 52) - 1)) as u128;
            let (e, m) = if exp == 0x7ff {
                (0x7fff, man << 60)
            } else if exp == 0 && man == 0 {
                (0, 0)
            } else if exp == 0 {
                // f64 subnormal: normalize.
                let lz = man.leading_zeros() as i32 - (128 - 52);
                let m = (man << (lz + 1)) & ((1u128 << 52) - 1);
                ((-1022 - lz - 1 + 16383) as u128, m << 60)
            } else {
                ((exp - 1023 + 16383) as u128, man << 60)
            };
            (sign << 127) | (e << 112) | m
        }
        FloatKind::F80 => {
            let b = v.to_bits();
            let sign = (b >> 63) as u128;
            if v == 0.0 {
                return sign << 79;
            }
            if v.is_infinite() {
                return (sign << 79) | (0x7fffu128 << 64) | (1u128 << 63);
            }
            if v.is_nan() {
                return (sign << 79) | (0x7fffu128 << 64) | (3u128 << 62);
            }
            // Exact: the f64's significand with its integer bit made explicit (an f64
            // subnormal is normal in f80), shifted to bit 63.
            let exp = ((b >> 52) & 0x7ff) as i32;
            let man = b & ((1u64 << 52) - 1);
            let (sig, e) = if exp == 0 {
                let lz = man.leading_zeros() as i32;
                (man << lz, -1074 + (63 - lz))
            } else {
                ((man | (1u64 << 52)) << 11, exp - 1023)
            };
            (sign << 79) | (((e + 16383) as u128) << 64) | sig as u128
        }
        _ => {
            let f = fmt(k).unwrap();
            let total = f.ebits + f.mbits;
            let sign_bit = if v.is_sign_negative() {
                1u128 << total
            } else {
                0
            };
            let emax_field = (1i32 << f.ebits) - 1;
            let nan = match f.special {
                Special::Ieee => ((emax_field as u128) << f.mbits) | (1u128 << (f.mbits - 1)),
                Special::FnNan => ((emax_field as u128) << f.mbits) | ((1u128 << f.mbits) - 1),
                Special::Fnuz => 1u128 << total,
                // No NaN: MLIR saturates to the largest finite value.
                Special::FnNoNan => ((emax_field as u128) << f.mbits) | ((1u128 << f.mbits) - 1),
            };
            if v.is_nan() {
                return nan;
            }
            if v.is_infinite() {
                return match f.special {
                    Special::Ieee => sign_bit | ((emax_field as u128) << f.mbits),
                    Special::FnNoNan => sign_bit | nan,
                    _ => nan,
                };
            }
            let a = v.abs();
            if a == 0.0 {
                return if f.special == Special::Fnuz {
                    0
                } else {
                    sign_bit
                };
            }
            let min_exp = 1 - f.bias;
            let mut e = a.log2().floor() as i32;
            if pow2(e) > a {
                e -= 1;
            }
            let bits = if e < min_exp {
                // Subnormal range: count units of the smallest subnormal.
                let q = (a * pow2(f.mbits as i32 - min_exp)).round_ties_even();
                q as u128
            } else {
                let mut r = (a * pow2(f.mbits as i32 - e)).round_ties_even() as u128;
                if r == 1u128 << (f.mbits + 1) {
                    r = 1u128 << f.mbits;
                    e += 1;
                }
                let ef = e + f.bias;
                ((ef as u128) << f.mbits) | (r - (1u128 << f.mbits))
            };
            // Overflow past the largest finite value.
            let max_finite = match f.special {
                Special::Ieee => ((emax_field as u128 - 1) << f.mbits) | ((1u128 << f.mbits) - 1),
                Special::FnNan => ((emax_field as u128) << f.mbits) | ((1u128 << f.mbits) - 2),
                Special::FnNoNan | Special::Fnuz => {
                    ((emax_field as u128) << f.mbits) | ((1u128 << f.mbits) - 1)
                }
            };
            if bits > max_finite {
                return match f.special {
                    Special::Ieee => sign_bit | ((emax_field as u128) << f.mbits),
                    Special::FnNoNan => sign_bit | max_finite,
                    _ => nan,
                };
            }
            if bits == 0 && f.special == Special::Fnuz {
                return 0;
            }
            sign_bit | bits
        }
    }
}

/// `1.5` → `1.500000e+00`, MLIR's preferred spelling.
fn sci6(v: f64) -> String {
    let s = format!("{v:.6e}");
    let (mant, exp) = s.split_once('e').unwrap();
    let e: i32 = exp.parse().unwrap();
    format!("{mant}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

/// Prints a float value of format `k` as MLIR would: `%.6e` when that reads back to the same
/// bits, else the shortest decimal that does, else the hex bit pattern (NaN, inf, payloads).
pub fn format_float(k: FloatKind, bits: u128) -> String {
    let v = to_f64(k, bits);
    if v.is_finite() {
        let s = sci6(v);
        if let Ok(back) = s.parse::<f64>() {
            if from_f64(k, back) == bits {
                return s;
            }
        }
        let mut s = format!("{v:?}");
        if !s.contains('.') {
            s = match s.split_once('e') {
                Some((m, e)) => format!("{m}.0e{e}"),
                None => format!("{s}.0"),
            };
        }
        if let Ok(back) = s.parse::<f64>() {
            if from_f64(k, back) == bits {
                return s;
            }
        }
    }
    let digits = (k.width() as usize).div_ceil(4);
    format!("0x{:0width$X}", bits, width = digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_formats_round_trip_every_pattern() {
        for k in [
            FloatKind::F8E5M2,
            FloatKind::F8E4M3,
            FloatKind::F8E4M3FN,
            FloatKind::F8E5M2FNUZ,
            FloatKind::F8E4M3FNUZ,
            FloatKind::F8E4M3B11FNUZ,
            FloatKind::F8E3M4,
            FloatKind::F6E2M3FN,
            FloatKind::F6E3M2FN,
            FloatKind::F4E2M1FN,
        ] {
            for bits in 0..(1u128 << k.width()) {
                let v = to_f64(k, bits);
                if v.is_nan() {
                    continue;
                }
                if v == 0.0 && k == FloatKind::F8E4M3FNUZ {
                    continue;
                }
                assert_eq!(from_f64(k, v), bits, "{k:?} {bits:#x} = {v}");
            }
        }
    }

    #[test]
    fn half_precision_values() {
        assert_eq!(from_f64(FloatKind::F16, 1.0), 0x3C00);
        assert_eq!(from_f64(FloatKind::F16, 65504.0), 0x7BFF);
        assert_eq!(from_f64(FloatKind::F16, 1e6), 0x7C00);
        assert_eq!(from_f64(FloatKind::BF16, 1.0), 0x3F80);
        assert_eq!(from_f64(FloatKind::F16, 5.960464477539063e-8), 1);
        assert_eq!(format_float(FloatKind::F16, 0x3C00), "1.000000e+00");
        assert_eq!(format_float(FloatKind::F32, 0x7FC00000), "0x7FC00000");
        assert_eq!(
            format_float(FloatKind::F64, 0.1f64.to_bits() as u128),
            "1.000000e-01"
        );
        assert_eq!(
            format_float(FloatKind::F64, std::f64::consts::PI.to_bits() as u128),
            "3.141592653589793"
        );
    }
}
