//! Float arithmetic: `addf` … `minimumf`, `negf`.

use super::*;
use tilus_ir::float::{from_f64, to_f64};
use tilus_ir::handle::prelude::*;
use tilus_ir::types::FloatKind;

binary!(
    ADDF,
    "arith.addf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float addition.",
    Some(fold::addf),
    &[],
    handle AddFOp { fastmath = "fastmath": Option<Attr> }
);
binary!(
    SUBF,
    "arith.subf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [],
    "Float subtraction.",
    Some(fold::subf),
    &[],
    handle SubFOp { fastmath = "fastmath": Option<Attr> }
);
binary!(
    MULF,
    "arith.mulf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float multiplication.",
    Some(fold::mulf),
    canon::MULF,
    handle MulFOp { fastmath = "fastmath": Option<Attr> }
);
binary!(
    DIVF,
    "arith.divf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [],
    "Float division.",
    Some(fold::divf),
    canon::DIVF,
    handle DivFOp { fastmath = "fastmath": Option<Attr> }
);
binary!(
    MAXIMUMF,
    "arith.maximumf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float maximum; NaN if either operand is NaN.",
    Some(fold::maximumf),
    &[],
    handle MaximumFOp { fastmath = "fastmath": Option<Attr> }
);
binary!(
    MINIMUMF,
    "arith.minimumf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float minimum; NaN if either operand is NaN.",
    Some(fold::minimumf),
    &[],
    handle MinimumFOp { fastmath = "fastmath": Option<Attr> }
);

/// `arith.negf`.
pub static NEGF: OpDef = OpDef {
    name: "arith.negf",
    summary: "float negation",
    description: "Flips the sign of a float (also of NaN and zero).",
    operands: &[one("operand", FLOAT_LIKE)],
    results: &[one("result", FLOAT_LIKE)],
    attributes: &[FASTMATH_ATTR],
    traits: &[
        Trait::Pure,
        Trait::SameOperandsAndResultType,
        Trait::PerThread,
    ],
    format: Format::Declarative("$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"),
    fold: Some(fold::negf),
    ..OpDef::DEFAULT
};
const _: () = NEGF.check();

tilus_ir::op_handle! {
    /// Typed handle of `arith.negf`.
    pub struct NegFOp = NEGF;
    operands {
        operand = "operand": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}

// ----- semantics ----------------------------------------------------------------------------

/// The float binary ops of arith, for evaluation: one semantics shared by the folders, the
/// interpreter and analyses. Operands and result are bit patterns of one IEEE format
/// (`f16`, `bf16`, `f32`, `f64`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatBinOp {
    AddF,
    SubF,
    MulF,
    DivF,
    /// NaN if either is NaN; `-0 < +0`.
    MaximumF,
    /// NaN if either is NaN; `-0 < +0`.
    MinimumF,
}

/// Exponent and mantissa widths of the IEEE formats evaluated here (`None` for the others:
/// f8/f6/f4 variants, `tf32`, `f80`, `f128`).
pub fn ieee_format(k: FloatKind) -> Option<(u32, u32)> {
    match k {
        FloatKind::F16 => Some((5, 10)),
        FloatKind::BF16 => Some((8, 7)),
        FloatKind::F32 => Some((8, 23)),
        FloatKind::F64 => Some((11, 52)),
        _ => None,
    }
}

/// Whether `bits` is a NaN of format `k` (an IEEE format).
pub fn is_nan_bits(k: FloatKind, bits: u128) -> bool {
    let Some((e, m)) = ieee_format(k) else {
        return false;
    };
    (bits >> m) & ((1 << e) - 1) == (1 << e) - 1 && bits & ((1 << m) - 1) != 0
}

/// `bits` (a NaN) with its quiet bit set.
pub fn quiet_nan_bits(k: FloatKind, bits: u128) -> u128 {
    bits | ieee_format(k).map_or(0, |(_, m)| 1 << (m - 1))
}

/// The positive quiet NaN a new NaN is (LLVM's default NaN).
pub fn default_nan_bits(k: FloatKind) -> u128 {
    let (e, m) = ieee_format(k).expect("an IEEE format");
    (((1u128 << e) - 1) << m) | (1 << (m - 1))
}

/// The sign bit of format `k`.
pub fn sign_bit(k: FloatKind) -> u128 {
    let (e, m) = ieee_format(k).expect("an IEEE format");
    1 << (e + m)
}

/// `negf`: the sign bit flips (NaN and zero included).
pub fn negf_bits(k: FloatKind, bits: u128) -> Option<u128> {
    ieee_format(k).map(|_| bits ^ sign_bit(k))
}

impl FloatBinOp {
    /// The op `op` is, when it is a float binary op of arith.
    pub fn of(ctx: &Context, op: OpId) -> Option<FloatBinOp> {
        use super::ArithOpKind as K;
        Some(match K::classify(ctx, op)? {
            K::AddF(_) => FloatBinOp::AddF,
            K::SubF(_) => FloatBinOp::SubF,
            K::MulF(_) => FloatBinOp::MulF,
            K::DivF(_) => FloatBinOp::DivF,
            K::MaximumF(_) => FloatBinOp::MaximumF,
            K::MinimumF(_) => FloatBinOp::MinimumF,
            _ => return None,
        })
    }

    /// `x op y` on two values of IEEE format `k`, as LLVM's `APFloat` computes it: round to
    /// nearest even; a NaN operand propagates quieted (the left one first); a new NaN is the
    /// positive quiet NaN. `f32`/`f64` use the host's IEEE arithmetic; `f16`/`bf16` go through
    /// `f64`, whose 53 bits make the double rounding harmless for `+ - * /`. `None` for formats
    /// this does not evaluate.
    pub fn eval(self, k: FloatKind, x: u128, y: u128) -> Option<u128> {
        ieee_format(k)?;
        if is_nan_bits(k, x) {
            return Some(quiet_nan_bits(k, x));
        }
        if is_nan_bits(k, y) {
            return Some(quiet_nan_bits(k, y));
        }
        if matches!(self, FloatBinOp::MaximumF | FloatBinOp::MinimumF) {
            let max = self == FloatBinOp::MaximumF;
            let (p, q) = (to_f64(k, x), to_f64(k, y));
            let pick_x = if p == q {
                // ±0: maximum prefers +0, minimum -0.
                (x & sign_bit(k) != 0) != max
            } else {
                (p > q) == max
            };
            return Some(if pick_x { x } else { y });
        }
        fn apply<T>(o: FloatBinOp, p: T, q: T) -> T
        where
            T: std::ops::Add<Output = T>
                + std::ops::Sub<Output = T>
                + std::ops::Mul<Output = T>
                + std::ops::Div<Output = T>,
        {
            match o {
                FloatBinOp::AddF => p + q,
                FloatBinOp::SubF => p - q,
                FloatBinOp::MulF => p * q,
                _ => p / q,
            }
        }
        let r =
            match k {
                FloatKind::F32 => apply(self, f32::from_bits(x as u32), f32::from_bits(y as u32))
                    .to_bits() as u128,
                FloatKind::F64 => apply(self, f64::from_bits(x as u64), f64::from_bits(y as u64))
                    .to_bits() as u128,
                _ => {
                    let v = apply(self, to_f64(k, x), to_f64(k, y));
                    if v.is_nan() {
                        default_nan_bits(k)
                    } else {
                        from_f64(k, v)
                    }
                }
            };
        Some(if is_nan_bits(k, r) {
            default_nan_bits(k)
        } else {
            r
        })
    }
}

#[cfg(test)]
mod semantics_tests {
    use super::*;

    fn f32b(v: f32) -> u128 {
        v.to_bits() as u128
    }

    #[test]
    fn ieee_arithmetic_per_format() {
        let k = FloatKind::F32;
        assert_eq!(
            FloatBinOp::AddF.eval(k, f32b(0.1), f32b(0.2)),
            Some(f32b(0.1 + 0.2))
        );
        assert_eq!(
            FloatBinOp::DivF.eval(k, f32b(1.0), f32b(0.0)),
            Some(f32b(f32::INFINITY))
        );
        // 0/0 is the positive quiet NaN.
        assert_eq!(
            FloatBinOp::DivF.eval(k, f32b(0.0), f32b(0.0)),
            Some(0x7fc0_0000)
        );
        // f16: 1 + 2^-11 rounds to even (1.0).
        let h = FloatKind::F16;
        let one = from_f64(h, 1.0);
        let tiny = from_f64(h, 2f64.powi(-11));
        assert_eq!(FloatBinOp::AddF.eval(h, one, tiny), Some(one));
    }

    #[test]
    fn min_max_nan_and_signed_zero() {
        let k = FloatKind::F32;
        let snan = 0x7f80_0001;
        assert_eq!(
            FloatBinOp::MaximumF.eval(k, snan, f32b(1.0)),
            Some(0x7fc0_0001)
        );
        assert_eq!(
            FloatBinOp::MaximumF.eval(k, f32b(-0.0), f32b(0.0)),
            Some(f32b(0.0))
        );
        assert_eq!(
            FloatBinOp::MinimumF.eval(k, f32b(0.0), f32b(-0.0)),
            Some(f32b(-0.0))
        );
        assert_eq!(negf_bits(k, f32b(0.0)), Some(f32b(-0.0)));
        assert_eq!(FloatBinOp::AddF.eval(FloatKind::F8E4M3FN, 0, 0), None);
    }
}
binary!(
    REMF,
    "arith.remf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [],
    "Float remainder, with the sign of the dividend (C's `fmod`).",
    None,
    &[],
    handle RemFOp { fastmath = "fastmath": Option<Attr> }
);
binary!(
    MAXNUMF,
    "arith.maxnumf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float maximum; a NaN operand gives the other operand (IEEE 754 maxNum).",
    None,
    &[],
    handle MaxNumFOp { fastmath = "fastmath": Option<Attr> }
);
binary!(
    MINNUMF,
    "arith.minnumf",
    FLOAT_LIKE,
    FLOAT_FORMAT,
    [FASTMATH_ATTR],
    [Trait::Commutative],
    "Float minimum; a NaN operand gives the other operand (IEEE 754 minNum).",
    None,
    &[],
    handle MinNumFOp { fastmath = "fastmath": Option<Attr> }
);
