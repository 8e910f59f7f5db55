//! Comparing buffers with tolerances by dtype, and the numbers `tilus-run` reports about them.
//!
//! An element passes when `|actual - expected| <= atol + rtol * |expected|` (NumPy's
//! `isclose`); NaN equals NaN, infinities must match exactly. Default tolerances:
//!
//! | dtype | atol | rtol |
//! |---|---|---|
//! | `f64` | 1e-10 | 1e-10 |
//! | `f32` | 1e-5 | 1e-5 |
//! | `tf32` | 5e-3 | 5e-3 |
//! | `f16` | 1e-2 | 1e-2 |
//! | `bf16` | 2e-2 | 2e-2 |
//! | `f8E4M3FN`, `f8E5M2` | 1e-1 | 1e-1 |
//! | `f6*`, `f4E2M1FN` | 2.5e-1 | 2.5e-1 |
//! | integers, `i1` | 0 (exact) | 0 |
//!
//! The f32 tolerance suits element-wise kernels and short reductions; long reductions in a
//! different order than the reference (a matmul with large K) may need `--atol`/`--rtol`.
//!
//! `--compare-backends` (GPU vs interpreter) uses [`backend_tolerance`]: the same, except that
//! `f32` and `f64` are widened to 1e-4 / 1e-4 and 1e-6 / 1e-6. The lowering computes `exp`,
//! `exp2`, `log`, `rsqrt` and `tanh` with PTX's `.approx.ftz` instructions (`ex2.approx.ftz.f32`
//! of `x·log2 e` is off by a few ulp plus the rounding of the product, about 2^-21 relative for
//! |x| up to 8; subnormals flush to zero), where the interpreter uses libm; and the GPU's
//! reductions add in a different order (per thread, then `shfl.sync.bfly`, then across warps)
//! than the interpreter's. f64 math goes through f32 approximations too. f16/bf16 outputs keep
//! their tolerance: one rounding step of the output type is far above those errors.

use crate::tensor::DType;
use std::fmt;

/// Absolute and relative tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub atol: f64,
    pub rtol: f64,
}

/// The default tolerance of a dtype (see the module docs).
pub fn tolerance(dtype: DType) -> Tolerance {
    let (atol, rtol) = match dtype {
        DType::F64 => (1e-10, 1e-10),
        DType::F32 => (1e-5, 1e-5),
        DType::TF32 => (5e-3, 5e-3),
        DType::F16 => (1e-2, 1e-2),
        DType::BF16 => (2e-2, 2e-2),
        DType::F8E4M3 | DType::F8E5M2 => (1e-1, 1e-1),
        DType::F6E2M3 | DType::F6E3M2 | DType::F4E2M1 => (2.5e-1, 2.5e-1),
        DType::Int { .. } => (0.0, 0.0),
    };
    Tolerance { atol, rtol }
}

/// The tolerance of a GPU-vs-interpreter comparison (see the module docs).
pub fn backend_tolerance(dtype: DType) -> Tolerance {
    match dtype {
        DType::F32 => Tolerance {
            atol: 1e-4,
            rtol: 1e-4,
        },
        DType::F64 => Tolerance {
            atol: 1e-6,
            rtol: 1e-6,
        },
        d => tolerance(d),
    }
}

/// The first element outside the tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Row-major multi-index.
    pub index: Vec<i64>,
    pub actual: f64,
    pub expected: f64,
}

/// The result of comparing two buffers.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub numel: usize,
    /// Largest `|actual - expected|` (NaN/inf disagreements count as infinite).
    pub max_abs: f64,
    /// Largest `|actual - expected| / |expected|` over elements with `expected != 0`.
    pub max_rel: f64,
    /// Elements outside the tolerance.
    pub mismatches: usize,
    pub first: Option<Mismatch>,
    pub tol: Tolerance,
}

impl Comparison {
    /// Whether every element is within the tolerance.
    pub fn ok(&self) -> bool {
        self.mismatches == 0
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ok() {
            write!(f, "ok")?;
        } else {
            write!(
                f,
                "MISMATCH: {} of {} elements differ",
                self.mismatches, self.numel
            )?;
            if let Some(m) = &self.first {
                write!(
                    f,
                    "; first at {:?}: got {}, expected {}",
                    m.index,
                    num(m.actual),
                    num(m.expected)
                )?;
            }
        }
        // Relative errors are taken over nonzero expected values only; when every element
        // that differs was expected to be 0, "max rel err 0" would read as a match.
        let rel = if !self.ok() && self.max_rel == 0.0 {
            "inf (the differing elements were expected to be 0)".to_string()
        } else {
            num(self.max_rel)
        };
        write!(
            f,
            " (max abs err {}, max rel err {rel}; atol {:e}, rtol {:e})",
            num(self.max_abs),
            self.tol.atol,
            self.tol.rtol
        )
    }
}

/// A short, exact-enough rendering of a number: `0`, `1.5`, `-3.0517578e-5`.
pub fn num(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let a = x.abs();
    if (1e-4..1e7).contains(&a) {
        // Up to 8 significant digits, trailing zeros dropped.
        let digits = (7 - a.log10().floor() as i32).clamp(0, 12) as usize;
        let s = format!("{x:.digits$}");
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        };
        return s;
    }
    format!("{x:.7e}")
}

fn unravel(mut i: usize, shape: &[i64]) -> Vec<i64> {
    let mut idx = vec![0i64; shape.len()];
    for d in (0..shape.len()).rev() {
        let n = shape[d].max(1) as usize;
        idx[d] = (i % n) as i64;
        i /= n;
    }
    idx
}

/// Compares `actual` with `expected` (row-major, `shape`).
pub fn compare(shape: &[i64], actual: &[f64], expected: &[f64], tol: Tolerance) -> Comparison {
    let mut c = Comparison {
        numel: actual.len(),
        max_abs: 0.0,
        max_rel: 0.0,
        mismatches: 0,
        first: None,
        tol,
    };
    for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
        let (abs, bad) = if a.is_nan() || e.is_nan() {
            if a.is_nan() && e.is_nan() {
                (0.0, false)
            } else {
                (f64::INFINITY, true)
            }
        } else if a.is_infinite() || e.is_infinite() {
            if a == e {
                (0.0, false)
            } else {
                (f64::INFINITY, true)
            }
        } else {
            let d = (a - e).abs();
            (d, d > tol.atol + tol.rtol * e.abs())
        };
        c.max_abs = c.max_abs.max(abs);
        if e != 0.0 && e.is_finite() {
            c.max_rel = c.max_rel.max(abs / e.abs());
        }
        if bad {
            c.mismatches += 1;
            if c.first.is_none() {
                c.first = Some(Mismatch {
                    index: unravel(i, shape),
                    actual: a,
                    expected: e,
                });
            }
        }
    }
    c
}

/// A checksum for the report: the sum of the elements and an FNV-1a hash of their bit patterns
/// (the hash changes with any bit of any element).
pub fn checksum(data: &[f64]) -> (f64, u32) {
    let mut sum = 0.0f64;
    let mut h: u32 = 0x811c_9dc5;
    for &x in data {
        sum += x;
        // Normalize -0.0 and NaN payloads so the hash depends on values only.
        let bits = if x == 0.0 {
            0
        } else if x.is_nan() {
            f64::NAN.to_bits()
        } else {
            x.to_bits()
        };
        for b in bits.to_le_bytes() {
            h ^= b as u32;
            h = h.wrapping_mul(0x0100_0193);
        }
    }
    (sum, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_tolerance() {
        let t = tolerance(DType::F32);
        let c = compare(&[3], &[1.0, 2.0, 3.0], &[1.0, 2.000001, 3.0], t);
        assert!(c.ok(), "{c}");
        assert!(c.max_abs > 0.0 && c.max_rel > 0.0);
    }

    #[test]
    fn first_mismatch_is_reported_with_its_index() {
        let t = tolerance(DType::F16);
        let c = compare(&[2, 2], &[1.0, 2.0, 3.0, 5.0], &[1.0, 2.0, 3.5, 4.0], t);
        assert_eq!(c.mismatches, 2);
        let m = c.first.clone().unwrap();
        assert_eq!(m.index, vec![1, 0]);
        assert_eq!((m.actual, m.expected), (3.0, 3.5));
        assert_eq!(c.max_abs, 1.0);
        assert_eq!(c.max_rel, 0.25);
        assert_eq!(
            c.to_string(),
            "MISMATCH: 2 of 4 elements differ; first at [1, 0]: got 3, expected 3.5 (max abs err 1, max rel err 0.25; atol 1e-2, rtol 1e-2)"
        );
    }

    #[test]
    fn a_mismatch_against_expected_zeros_has_no_zero_relative_error() {
        let c = compare(&[2], &[0.5, -2.0], &[0.0, 0.0], tolerance(DType::F32));
        assert!(!c.ok());
        assert_eq!(
            c.to_string(),
            "MISMATCH: 2 of 2 elements differ; first at [0]: got 0.5, expected 0 (max abs err 2, max rel err inf (the differing elements were expected to be 0); atol 1e-5, rtol 1e-5)"
        );
    }

    #[test]
    fn integers_are_exact_and_nan_matches_nan() {
        let i32t = DType::Int {
            bits: 32,
            signedness: tilus_ir::types::Signedness::Signless,
        };
        assert!(!compare(&[1], &[1.0], &[2.0], tolerance(i32t)).ok());
        let t = tolerance(DType::F32);
        assert!(compare(
            &[2],
            &[f64::NAN, f64::INFINITY],
            &[f64::NAN, f64::INFINITY],
            t
        )
        .ok());
        assert!(!compare(&[1], &[f64::NAN], &[0.0], t).ok());
        assert!(!compare(&[1], &[f64::INFINITY], &[f64::NEG_INFINITY], t).ok());
    }

    #[test]
    fn numbers_print_short() {
        assert_eq!(num(0.0), "0");
        assert_eq!(num(1.5), "1.5");
        assert_eq!(num(-2.0), "-2");
        assert_eq!(num(1e-9), "1.0000000e-9");
        assert_eq!(num(0.1f32 as f64), "0.1");
    }

    #[test]
    fn checksum_ignores_signed_zero() {
        assert_eq!(checksum(&[0.0, 1.0]), checksum(&[-0.0, 1.0]));
        assert_ne!(checksum(&[1.0, 2.0]).1, checksum(&[2.0, 1.0]).1);
    }
}
