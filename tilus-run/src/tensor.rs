//! Dense tiles and the element math of the interpreter.
//!
//! The interpreter runs at tile granularity (docs/design/interpreter.md), so a register tensor is
//! one whole logical tile: a [`Tensor`]. Every element is held as an `f64` that is *exactly* a
//! value of the tensor's [`DType`]; each op computes in `f64` and rounds the result into the
//! dtype, so results match what the GPU produces for correctly rounded operations.
//!
//! Numeric rules (what the GPU does, and where we differ):
//!
//! * Floats round to nearest, ties to even ([`round_to`]), through one generic routine for any
//!   `(exponent bits, mantissa bits, special values)` format. Formats with infinities (f16, bf16,
//!   tf32, f32, f8E5M2) overflow to ±inf the IEEE way, except f8E5M2, which saturates like PTX's
//!   `cvt.rn.satfinite` (the only f32 → fp8 conversion PTX has). f8E4M3FN has no infinity: it
//!   saturates to ±448, NaN stays NaN. The sub-byte floats (f6E2M3FN, f6E3M2FN, f4E2M1FN) have
//!   neither infinity nor NaN: they saturate; a NaN stays NaN in the interpreter (a poison value
//!   that makes the error visible) and is encoded as the largest positive value.
//! * tf32 rounds ties to even (the spec's rule); the hardware's `cvt.rna.tf32.f32` rounds ties
//!   away from zero. Decoding a tf32 from memory truncates the low 13 bits, as the tensor cores
//!   read an f32 register.
//! * Integers wrap to their width; signless (`iN`) and `siN` are read as signed two's complement,
//!   `uiN` as unsigned, `i1` as 0/1. Values are held in an `f64`, so 64-bit integers are exact
//!   only within ±2^53 (a documented limitation of the interpreter).
//! * [`cast`] from float to integer truncates toward zero and saturates to the integer range, NaN
//!   giving 0 (PTX `cvt.rzi.sat`); a cast to `i1` is `x != 0` (the C/Tilus `bool` conversion).

pub use tilus_dialects::tilus_types::DType;
use tilus_ir::types::Signedness;

/// A dense row-major tile: the interpreter's register tensor (a whole logical tile, not one
/// thread's fragment), also used for data moving through memory.
///
/// Invariant: every value of `data` is exactly representable in `dtype` (`i1` as 0/1); the
/// constructors and [`Tensor::set`] round to keep it.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    /// The element type.
    pub dtype: DType,
    /// The extents (empty for a scalar).
    pub shape: Vec<i64>,
    /// The values in row-major order, `numel()` of them.
    pub data: Vec<f64>,
}

/// The number of elements of `shape`; panics on a negative extent (a caller bug).
fn shape_numel(shape: &[i64]) -> usize {
    shape
        .iter()
        .map(|&s| {
            assert!(s >= 0, "negative extent in shape {shape:?}");
            s as usize
        })
        .product()
}

/// Row-major element strides of `shape`.
fn row_major_strides(shape: &[i64]) -> Vec<i64> {
    let mut st = vec![1i64; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        st[k] = st[k + 1] * shape[k + 1];
    }
    st
}

/// Calls `f` with every index of `shape` in row-major order (nothing when an extent is 0).
pub(crate) fn for_each_index(shape: &[i64], mut f: impl FnMut(&[i64])) {
    if shape.iter().any(|&s| s <= 0) {
        return;
    }
    let mut idx = vec![0i64; shape.len()];
    loop {
        f(&idx);
        let mut k = shape.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

impl Tensor {
    /// A tile of zeros: the `register_tensor(init=None)` start value and accumulators.
    pub fn zeros(dtype: DType, shape: &[i64]) -> Tensor {
        Tensor {
            dtype,
            shape: shape.to_vec(),
            data: vec![0.0; shape_numel(shape)],
        }
    }

    /// A tile with every element `v` rounded to `dtype` (scalar `init`s, broadcast scalars).
    pub fn full(dtype: DType, shape: &[i64], v: f64) -> Tensor {
        Tensor {
            dtype,
            shape: shape.to_vec(),
            data: vec![round_to(dtype, v); shape_numel(shape)],
        }
    }

    /// A tile from row-major values, each rounded to `dtype` so the invariant holds whatever
    /// the source (random inputs, `.npy` files of another precision).
    ///
    /// # Panics
    /// If `data.len()` is not the number of elements of `shape`.
    pub fn from_vec(dtype: DType, shape: &[i64], mut data: Vec<f64>) -> Tensor {
        let n = shape_numel(shape);
        assert_eq!(
            data.len(),
            n,
            "{} values for a tile of shape {shape:?} ({n} elements)",
            data.len()
        );
        // The dispatch on the dtype once for the loop (inputs of millions of elements, split
        // over the cores).
        match dtype {
            DType::F64 => {}
            DType::F32 => par_chunks_mut(&mut data, 1, |_, c| {
                c.iter_mut().for_each(|v| *v = *v as f32 as f64)
            }),
            DType::F16 => par_chunks_mut(&mut data, 1, |_, c| {
                c.iter_mut().for_each(|v| {
                    *v = round_normal_fast(*v, F16_FAST).unwrap_or_else(|| F16_FORMAT.round(*v))
                })
            }),
            _ => par_chunks_mut(&mut data, 1, |_, c| {
                c.iter_mut().for_each(|v| *v = round_to(dtype, *v))
            }),
        }
        Tensor {
            dtype,
            shape: shape.to_vec(),
            data,
        }
    }

    /// The number of elements (1 for a scalar of shape `[]`).
    pub fn numel(&self) -> usize {
        shape_numel(&self.shape)
    }

    /// The row-major position of `idx`; panics with the index and shape when out of range.
    fn linear(&self, idx: &[i64]) -> usize {
        assert_eq!(
            idx.len(),
            self.shape.len(),
            "index {idx:?} has the wrong rank for shape {:?}",
            self.shape
        );
        let mut p = 0usize;
        for (&i, &s) in idx.iter().zip(&self.shape) {
            assert!(
                (0..s).contains(&i),
                "index {idx:?} out of range for shape {:?}",
                self.shape
            );
            p = p * s as usize + i as usize;
        }
        p
    }

    /// The element at `idx`.
    ///
    /// # Panics
    /// If `idx` has the wrong rank or is out of range.
    pub fn get(&self, idx: &[i64]) -> f64 {
        self.data[self.linear(idx)]
    }

    /// Sets the element at `idx` to `v` rounded to the dtype (keeps the invariant).
    ///
    /// # Panics
    /// If `idx` has the wrong rank or is out of range.
    pub fn set(&mut self, idx: &[i64], v: f64) {
        let p = self.linear(idx);
        self.data[p] = round_to(self.dtype, v);
    }
}

// ---------------------------------------------------------------------------------------------
// Float formats, rounding and encoding
// ---------------------------------------------------------------------------------------------

/// What a float format does with its top exponent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Specials {
    /// IEEE: the top exponent holds ±inf (mantissa 0) and NaNs.
    Ieee,
    /// `FN` with NaN (f8E4M3FN): no infinity; only all-ones exponent and mantissa is NaN.
    FiniteNan,
    /// `FN` without NaN (f6/f4): every encoding is a finite number.
    Finite,
}

/// A binary float format: enough to round into it and to encode it generically.
#[derive(Clone, Copy, Debug)]
struct FloatFormat {
    exp_bits: u32,
    man_bits: u32,
    specials: Specials,
    /// Overflow saturates to the largest finite value instead of giving inf.
    saturate: bool,
}

impl FloatFormat {
    fn of(dtype: DType) -> Option<FloatFormat> {
        let f = |exp_bits, man_bits, specials, saturate| FloatFormat {
            exp_bits,
            man_bits,
            specials,
            saturate,
        };
        Some(match dtype {
            DType::F16 => f(5, 10, Specials::Ieee, false),
            DType::BF16 => f(8, 7, Specials::Ieee, false),
            DType::TF32 => f(8, 10, Specials::Ieee, false),
            DType::F32 => f(8, 23, Specials::Ieee, false),
            DType::F64 => f(11, 52, Specials::Ieee, false),
            DType::F8E4M3 => f(4, 3, Specials::FiniteNan, true),
            DType::F8E5M2 => f(5, 2, Specials::Ieee, true),
            DType::F6E2M3 => f(2, 3, Specials::Finite, true),
            DType::F6E3M2 => f(3, 2, Specials::Finite, true),
            DType::F4E2M1 => f(2, 1, Specials::Finite, true),
            DType::Int { .. } => return None,
        })
    }

    fn bias(&self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    /// The exponent of the smallest normal.
    fn emin(&self) -> i32 {
        1 - self.bias()
    }

    /// The exponent of the largest finite value.
    fn emax(&self) -> i32 {
        let top = (1 << self.exp_bits) - 1;
        match self.specials {
            Specials::Ieee => top - 1 - self.bias(),
            _ => top - self.bias(),
        }
    }

    /// The largest finite value.
    fn max(&self) -> f64 {
        // Largest mantissa field: all ones, or all ones but the last bit where that pattern
        // is the NaN of an FN format.
        let m = self.man_bits as i32;
        let all = (1u64 << self.man_bits) - 1;
        let field = if self.specials == Specials::FiniteNan {
            all - 1
        } else {
            all
        };
        (((1u64 << self.man_bits) + field) as f64) * pow2(self.emax() - m)
    }

    /// Round to nearest even into the format (the value as an f64).
    fn round(&self, x: f64) -> f64 {
        if x.is_nan() {
            return x;
        }
        let max = self.max();
        if x.is_infinite() {
            return if self.has_inf() && !self.saturate {
                x
            } else {
                max.copysign(x)
            };
        }
        let a = x.abs();
        if a == 0.0 {
            return x;
        }
        let e = exponent(a).max(self.emin());
        let q = e - self.man_bits as i32;
        // a / 2^q and n * 2^q are exact: the quotient has at most 54 significant bits and its
        // magnitude is far from f64's limits for every format here.
        let n = scale(a, -q).round_ties_even();
        let r = scale(n, q);
        let r = if r > max {
            if self.has_inf() && !self.saturate {
                f64::INFINITY
            } else {
                max
            }
        } else {
            r
        };
        r.copysign(x)
    }

    fn has_inf(&self) -> bool {
        self.specials == Specials::Ieee
    }

    fn total_bits(&self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }

    /// The bit pattern of a value already in the format.
    fn encode_bits(&self, r: f64) -> u64 {
        let m = self.man_bits;
        let top = (1u64 << self.exp_bits) - 1;
        let sign = if r.is_sign_negative() && !r.is_nan() {
            1u64 << (self.exp_bits + m)
        } else {
            0
        };
        if r.is_nan() {
            return match self.specials {
                Specials::Ieee => (top << m) | (1 << (m - 1)),
                Specials::FiniteNan => (top << m) | ((1 << m) - 1),
                // No NaN: the largest positive value.
                Specials::Finite => (top << m) | ((1 << m) - 1),
            };
        }
        if r.is_infinite() {
            return sign | (top << m);
        }
        let a = r.abs();
        if a == 0.0 {
            return sign;
        }
        let e = exponent(a);
        if e < self.emin() {
            let man = scale(a, -(self.emin() - m as i32)) as u64;
            sign | man
        } else {
            let man = scale(a, -(e - m as i32)) as u64 - (1u64 << m);
            let field = (e + self.bias()) as u64;
            sign | (field << m) | man
        }
    }

    /// The value of a bit pattern.
    fn decode_bits(&self, bits: u64) -> f64 {
        let m = self.man_bits;
        let top = (1u64 << self.exp_bits) - 1;
        let neg = (bits >> (self.exp_bits + m)) & 1 == 1;
        let field = (bits >> m) & top;
        let man = bits & ((1u64 << m) - 1);
        let v = if field == top && self.specials == Specials::Ieee {
            if man == 0 {
                f64::INFINITY
            } else {
                return f64::NAN;
            }
        } else if field == top && self.specials == Specials::FiniteNan && man == (1 << m) - 1 {
            return f64::NAN;
        } else if field == 0 {
            man as f64 * pow2(self.emin() - m as i32)
        } else {
            ((1u64 << m) + man) as f64 * pow2(field as i32 - self.bias() - m as i32)
        };
        if neg {
            -v
        } else {
            v
        }
    }
}

/// `2^e` for any exponent an f64 can hold (normal or subnormal).
fn pow2(e: i32) -> f64 {
    scale(1.0, e)
}

/// `x · 2^e`, exact while the result is a normal f64 (done in steps so that intermediate
/// powers never overflow).
fn scale(mut x: f64, mut e: i32) -> f64 {
    while e > 1000 {
        x *= f64::from_bits(((1000 + 1023) as u64) << 52);
        e -= 1000;
    }
    while e < -1000 {
        x *= f64::from_bits(((-1000i32 + 1023) as u64) << 52);
        e += 1000;
    }
    x * f64::from_bits(((e + 1023) as u64) << 52)
}

/// `floor(log2 a)` for a finite positive `a` (subnormals included).
fn exponent(a: f64) -> i32 {
    let bits = a.to_bits();
    let field = ((bits >> 52) & 0x7ff) as i32;
    if field == 0 {
        // Subnormal: 2^-1074 · mantissa.
        let man = bits & ((1u64 << 52) - 1);
        -1074 + 63 - man.leading_zeros() as i32
    } else {
        field - 1023
    }
}

/// `(signed?, bits)` of an integer dtype; `i1` counts as unsigned so it reads 0/1.
fn int_info(dtype: DType) -> Option<(bool, u32)> {
    match dtype {
        DType::Int { bits, signedness } => {
            let signed = bits > 1 && signedness != Signedness::Unsigned;
            Some((signed, bits))
        }
        _ => None,
    }
}

/// Wraps an integer to `bits` bits (two's complement) and reads it signed or unsigned.
fn wrap_int(v: i128, signed: bool, bits: u32) -> i128 {
    let mask: i128 = if bits >= 127 { -1 } else { (1i128 << bits) - 1 };
    let low = v & mask;
    if signed && bits < 127 && (low >> (bits - 1)) & 1 == 1 {
        low - (1i128 << bits)
    } else {
        low
    }
}

/// An integral f64 as an i128, reduced modulo 2^64 first when too large (exact: fmod by a
/// power of two is exact), so wrapping to 64 bits or fewer gives the right bits.
fn f64_to_i128_mod(t: f64) -> i128 {
    let t = if t.abs() >= 1e30 { t % pow2(64) } else { t };
    t as i128
}

/// Rounds `x` to the nearest value of `dtype`: what storing a computed value into a tile of
/// that dtype does.
///
/// * floats: round to nearest, ties to even, with each format's overflow rule (module docs:
///   IEEE formats give ±inf, except f8E5M2 which saturates like PTX `satfinite`; f8E4M3FN and
///   the sub-byte floats saturate to their largest finite value; NaN stays NaN); f64 is the
///   identity;
/// * integers: the fraction is dropped (toward zero), then the value wraps to the width, read
///   signed for `iN`/`siN` (`i1`: 0/1) and unsigned for `uiN`; NaN and ±inf give 0.
#[inline]
pub fn round_to(dtype: DType, x: f64) -> f64 {
    match dtype {
        DType::F64 => x,
        // Rust's `as f32` is IEEE round-to-nearest-even with overflow to inf.
        DType::F32 => x as f32 as f64,
        DType::Int { .. } => {
            if !x.is_finite() {
                return 0.0;
            }
            let (signed, bits) = int_info(dtype).unwrap_or((true, 64));
            wrap_int(f64_to_i128_mod(x.trunc()), signed, bits) as f64
        }
        DType::F16 => round_normal_fast(x, F16_FAST).unwrap_or_else(|| F16_FORMAT.round(x)),
        DType::BF16 => round_normal_fast(x, BF16_FAST).unwrap_or_else(|| BF16_FORMAT.round(x)),
        _ => match FloatFormat::of(dtype) {
            Some(f) => f.round(x),
            None => x,
        },
    }
}

const F16_FORMAT: FloatFormat = FloatFormat {
    exp_bits: 5,
    man_bits: 10,
    specials: Specials::Ieee,
    saturate: false,
};

const BF16_FORMAT: FloatFormat = FloatFormat {
    exp_bits: 8,
    man_bits: 7,
    specials: Specials::Ieee,
    saturate: false,
};

/// What [`round_normal_fast`] needs of a format: its mantissa bits, its normal exponent range
/// and its largest finite value.
#[derive(Clone, Copy)]
struct FastFormat {
    man_bits: u32,
    emin: i32,
    emax: i32,
    max: f64,
}

const F16_FAST: FastFormat = FastFormat {
    man_bits: 10,
    emin: -14,
    emax: 15,
    max: 65504.0,
};

const BF16_FAST: FastFormat = FastFormat {
    man_bits: 7,
    emin: -126,
    emax: 127,
    // (2^8 - 1) * 2^(127 - 7)
    max: 3.3895313892515355e38,
};

/// Round to nearest even on the f64 bit pattern, for values whose result is a normal finite
/// number of the format (the common case): adding half an ulp minus one, plus the kept last
/// bit, then clearing the dropped bits is RNE, and a carry out of the mantissa moves into the
/// exponent as it should. `None` (the caller takes [`FloatFormat::round`]) for zeros,
/// subnormal results, overflow, inf and NaN, so the two always agree.
#[inline]
fn round_normal_fast(x: f64, f: FastFormat) -> Option<f64> {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32 - 1023;
    if e < f.emin || e > f.emax {
        return None;
    }
    let drop = 52 - f.man_bits;
    let keep_lsb = (bits >> drop) & 1;
    let r = (bits + ((1u64 << (drop - 1)) - 1) + keep_lsb) & !((1u64 << drop) - 1);
    let v = f64::from_bits(r);
    if v.abs() > f.max {
        return None;
    }
    Some(v)
}

/// The value of every 16-bit pattern of `f` (built once by the generic decoder, so it agrees
/// with it by construction): decoding f16/bf16 tiles is then one load per element.
fn decode_table16(f: FloatFormat, cell: &'static std::sync::OnceLock<Vec<f64>>) -> &'static [f64] {
    cell.get_or_init(|| (0..=u16::MAX).map(|b| f.decode_bits(b as u64)).collect())
}

static F16_TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
static BF16_TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();

/// The f16/bf16 bit pattern of `x` when `x` is already a normal value of the format (what
/// tiles of that dtype hold), straight from the f64 bits; `None` otherwise (zeros,
/// subnormals, values needing rounding, inf, NaN), where the generic encoder runs.
#[inline]
fn encode_normal_fast(x: f64, f: FastFormat, exp_bits: u32) -> Option<u64> {
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let drop = 52 - f.man_bits;
    if e < f.emin || e > f.emax || bits & ((1u64 << drop) - 1) != 0 {
        return None;
    }
    let bias = (1i32 << (exp_bits - 1)) - 1;
    let sign = (bits >> 63) << (exp_bits + f.man_bits);
    let man = (bits >> drop) & ((1u64 << f.man_bits) - 1);
    Some(sign | (((e + bias) as u64) << f.man_bits) | man)
}

/// Bytes one element takes in memory: `ceil(bits / 8)`. Byte-sized dtypes take `bits / 8`;
/// `i1` takes one byte (spec §2.1: bool is 8 bits in memory). Sub-byte dtypes are not packed
/// yet (docs/design/interpreter.md, open questions): each takes one byte, in its low bits.
pub fn storage_bytes(dtype: DType) -> usize {
    dtype.bits().div_ceil(8) as usize
}

/// Writes `x` (rounded to `dtype` first) into `out` as the little-endian bytes of its
/// encoding, [`storage_bytes`] of them; this is how tiles become global/shared memory.
///
/// # Panics
/// If `out` is shorter than [`storage_bytes`]`(dtype)`.
pub fn encode(dtype: DType, x: f64, out: &mut [u8]) {
    let n = storage_bytes(dtype);
    assert!(
        out.len() >= n,
        "encoding a {} needs {n} bytes, got {}",
        dtype.name(),
        out.len()
    );
    let bits: u64 = match dtype {
        DType::F64 => x.to_bits(),
        DType::F16 => encode_normal_fast(x, F16_FAST, 5)
            .unwrap_or_else(|| F16_FORMAT.encode_bits(F16_FORMAT.round(x)) & 0xffff),
        DType::BF16 => encode_normal_fast(x, BF16_FAST, 8)
            .unwrap_or_else(|| BF16_FORMAT.encode_bits(BF16_FORMAT.round(x)) & 0xffff),
        DType::F32 | DType::TF32 => (round_to(dtype, x) as f32).to_bits() as u64,
        DType::Int { bits, .. } => {
            let v = round_to(dtype, x);
            let v = f64_to_i128_mod(v);
            let mask: i128 = if bits >= 64 {
                u64::MAX as i128
            } else {
                (1i128 << bits) - 1
            };
            (v & mask) as u64
        }
        _ => {
            let f = FloatFormat::of(dtype).expect("a float dtype");
            let b = f.encode_bits(f.round(x));
            b & ((1u64 << f.total_bits()) - 1)
        }
    };
    out[..n].copy_from_slice(&bits.to_le_bytes()[..n]);
}

/// Decodes the elements at byte addresses `addrs` of `bytes` (`None` reads 0), with the dtype
/// dispatch hoisted out of the loop for the common f16/bf16/f32 dtypes; the same values as
/// [`decode`] element by element.
pub(crate) fn decode_many<'a>(
    dtype: DType,
    bytes: &[u8],
    addrs: impl Iterator<Item = Option<usize>> + 'a,
) -> Vec<f64> {
    let mut out = Vec::with_capacity(addrs.size_hint().0);
    decode_many_into(dtype, bytes, addrs, &mut out);
    out
}

/// [`decode_many`] appending to `out`.
pub(crate) fn decode_many_into<'a>(
    dtype: DType,
    bytes: &[u8],
    addrs: impl Iterator<Item = Option<usize>> + 'a,
    out: &mut Vec<f64>,
) {
    let table = match dtype {
        DType::F16 => Some(decode_table16(F16_FORMAT, &F16_TABLE)),
        DType::BF16 => Some(decode_table16(BF16_FORMAT, &BF16_TABLE)),
        _ => None,
    };
    match (dtype, table) {
        (_, Some(t)) => out.extend(addrs.map(|a| {
            a.map_or(0.0, |p| {
                t[u16::from_le_bytes([bytes[p], bytes[p + 1]]) as usize]
            })
        })),
        (DType::F32, _) => out.extend(addrs.map(|a| {
            a.map_or(0.0, |p| {
                f32::from_le_bytes([bytes[p], bytes[p + 1], bytes[p + 2], bytes[p + 3]]) as f64
            })
        })),
        _ => {
            let n = storage_bytes(dtype);
            out.extend(addrs.map(|a| a.map_or(0.0, |p| decode(dtype, &bytes[p..p + n]))))
        }
    }
}

/// [`decode_many_into`] for consecutive elements: `bytes` holds exactly the elements, in
/// order (a row of a global box). The same values, in a loop over fixed-size chunks.
pub(crate) fn decode_contiguous_into(dtype: DType, bytes: &[u8], out: &mut Vec<f64>) {
    match dtype {
        DType::F32 => out.extend(
            bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64),
        ),
        DType::F16 | DType::BF16 => {
            let t = if dtype == DType::F16 {
                decode_table16(F16_FORMAT, &F16_TABLE)
            } else {
                decode_table16(BF16_FORMAT, &BF16_TABLE)
            };
            out.extend(
                bytes
                    .chunks_exact(2)
                    .map(|c| t[u16::from_le_bytes([c[0], c[1]]) as usize]),
            )
        }
        _ => {
            let n = storage_bytes(dtype);
            out.extend(bytes.chunks_exact(n).map(|c| decode(dtype, c)))
        }
    }
}

/// Runs `f` on `data` in one chunk per core when `data` is large (millions of elements:
/// inputs and outputs of realistic sizes), else on the whole slice. Chunks start at multiples
/// of `unit` elements; `f` gets each chunk's offset. For element-wise passes whose result does
/// not depend on the split.
pub(crate) fn par_chunks_mut<T: Send>(
    data: &mut [T],
    unit: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    const MIN: usize = 1 << 20;
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let unit = unit.max(1);
    if data.len() < 2 * MIN || threads < 2 {
        f(0, data);
        return;
    }
    let per = data.len().div_ceil(threads).next_multiple_of(unit);
    std::thread::scope(|sc| {
        for (j, part) in data.chunks_mut(per).enumerate() {
            let f = &f;
            sc.spawn(move || f(j * per, part));
        }
    });
}

/// [`encode_many`] for consecutive elements: `bytes` receives exactly `values`, in order.
pub(crate) fn encode_contiguous(dtype: DType, bytes: &mut [u8], values: &[f64]) {
    match dtype {
        DType::F32 => {
            for (c, &x) in bytes.chunks_exact_mut(4).zip(values) {
                c.copy_from_slice(&(x as f32).to_le_bytes());
            }
        }
        _ => {
            let n = storage_bytes(dtype);
            encode_many(dtype, bytes, (0..values.len()).map(|i| Some(i * n)), values)
        }
    }
}

/// Encodes `values` at byte addresses `addrs` of `bytes` (`None` is skipped), the dtype
/// dispatch hoisted out of the loop for f32; the same bytes as [`encode`] element by element.
pub(crate) fn encode_many(
    dtype: DType,
    bytes: &mut [u8],
    addrs: impl Iterator<Item = Option<usize>>,
    values: &[f64],
) {
    match dtype {
        DType::F32 => {
            for (a, &x) in addrs.zip(values) {
                if let Some(p) = a {
                    bytes[p..p + 4].copy_from_slice(&(x as f32).to_le_bytes());
                }
            }
        }
        DType::F16 | DType::BF16 => {
            let (fast, exp_bits, f) = if dtype == DType::F16 {
                (F16_FAST, 5, F16_FORMAT)
            } else {
                (BF16_FAST, 8, BF16_FORMAT)
            };
            for (a, &x) in addrs.zip(values) {
                if let Some(p) = a {
                    let b = encode_normal_fast(x, fast, exp_bits)
                        .unwrap_or_else(|| f.encode_bits(f.round(x)) & 0xffff);
                    bytes[p..p + 2].copy_from_slice(&(b as u16).to_le_bytes());
                }
            }
        }
        _ => {
            let n = storage_bytes(dtype);
            for (a, &x) in addrs.zip(values) {
                if let Some(p) = a {
                    encode(dtype, x, &mut bytes[p..p + n]);
                }
            }
        }
    }
}

/// Reads one element of `dtype` from little-endian bytes (the inverse of [`encode`]).
/// A tf32 is read from an f32 pattern by dropping the low 13 mantissa bits (truncation, as the
/// tensor cores do); sub-byte values are read from the low bits of their byte.
///
/// # Panics
/// If `bytes` is shorter than [`storage_bytes`]`(dtype)`.
pub fn decode(dtype: DType, bytes: &[u8]) -> f64 {
    let n = storage_bytes(dtype);
    assert!(
        bytes.len() >= n,
        "decoding a {} needs {n} bytes, got {}",
        dtype.name(),
        bytes.len()
    );
    match dtype {
        DType::F16 => {
            return decode_table16(F16_FORMAT, &F16_TABLE)
                [u16::from_le_bytes([bytes[0], bytes[1]]) as usize]
        }
        DType::BF16 => {
            return decode_table16(BF16_FORMAT, &BF16_TABLE)
                [u16::from_le_bytes([bytes[0], bytes[1]]) as usize]
        }
        DType::F32 => return f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as f64,
        _ => {}
    }
    let mut buf = [0u8; 8];
    buf[..n].copy_from_slice(&bytes[..n]);
    let raw = u64::from_le_bytes(buf);
    match dtype {
        DType::F64 => f64::from_bits(raw),
        DType::F32 => f32::from_bits(raw as u32) as f64,
        DType::TF32 => {
            let f = f32::from_bits(raw as u32);
            if f.is_nan() {
                f64::NAN
            } else {
                f32::from_bits(raw as u32 & !0x1fff) as f64
            }
        }
        DType::Int { bits, .. } => {
            let (signed, bits) = int_info(dtype).unwrap_or((true, bits));
            wrap_int(raw as i128, signed, bits) as f64
        }
        _ => {
            let f = FloatFormat::of(dtype).expect("a float dtype");
            f.decode_bits(raw & ((1u64 << f.total_bits()) - 1))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Elementwise ops
// ---------------------------------------------------------------------------------------------

/// Binary elementwise ops of register tensors (`arith` and Tilus arithmetic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`; integers truncate toward zero (C, `arith.divsi/divui`).
    Div,
    /// Remainder with the sign of the dividend (C `%`, `fmod`, `arith.remsi/remf`).
    Mod,
    /// The larger operand; NaN if either is NaN (`arith.maximumf`).
    Max,
    /// The smaller operand; NaN if either is NaN (`arith.minimumf`).
    Min,
}

/// Elementwise comparisons; the result is an `i1` tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `==` (false with a NaN).
    Eq,
    /// `!=` (true with a NaN: unordered-or-not-equal, like C).
    Ne,
    /// `<` (false with a NaN).
    Lt,
    /// `<=` (false with a NaN).
    Le,
    /// `>` (false with a NaN).
    Gt,
    /// `>=` (false with a NaN).
    Ge,
}

/// Unary elementwise ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `e^x` (floats only).
    Exp,
    /// `2^x` (floats only).
    Exp2,
    /// Natural log (floats only).
    Log,
    /// Square root (floats only).
    Sqrt,
    /// `1 / sqrt(x)` (floats only).
    Rsqrt,
    /// Hyperbolic tangent (floats only).
    Tanh,
    /// `-x` (integers wrap).
    Neg,
    /// `|x|` (integers wrap: `abs(INT_MIN) = INT_MIN`).
    Abs,
}

/// Reductions along one dim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceKind {
    /// Sum (see [`reduce`] for the accumulation order and precision).
    Sum,
    /// Maximum (NaN-propagating for floats).
    Max,
    /// Minimum (NaN-propagating for floats).
    Min,
    /// Whether any element is non-zero (`i1` result).
    Any,
    /// Whether every element is non-zero (`i1` result).
    All,
}

/// The `i1` dtype of comparison and any/all results.
fn i1() -> DType {
    DType::Int {
        bits: 1,
        signedness: Signedness::Signless,
    }
}

/// The NumPy broadcast of two shapes: right-aligned, each dim pair equal or one of them 1.
/// Register tensor arithmetic broadcasts this way (spec §2.4).
pub fn broadcast_shape(a: &[i64], b: &[i64]) -> Result<Vec<i64>, String> {
    let r = a.len().max(b.len());
    let mut out = vec![0i64; r];
    for k in 0..r {
        let da = if k + a.len() >= r {
            a[k + a.len() - r]
        } else {
            1
        };
        let db = if k + b.len() >= r {
            b[k + b.len() - r]
        } else {
            1
        };
        out[k] = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(format!(
                "cannot broadcast shapes {a:?} and {b:?}: extents {da} and {db} in dim {k} of the result differ and neither is 1"
            ));
        };
    }
    Ok(out)
}

/// For each element of `out_shape` (row-major), the row-major position in a tensor of shape
/// `s` broadcast to it. Positions advance by per-dim strides (0 along broadcast dims), an
/// odometer over the outer dims and a plain loop over the last one, so there is no per-element
/// index vector.
fn broadcast_positions(s: &[i64], out_shape: &[i64]) -> Vec<usize> {
    let n = shape_numel(out_shape);
    let r = out_shape.len();
    if r == 0 {
        return vec![0];
    }
    if n == 0 {
        return Vec::new();
    }
    let off = r - s.len();
    let st = row_major_strides(s);
    let bst: Vec<i64> = (0..r)
        .map(|d| {
            if d < off || s[d - off] == 1 {
                0
            } else {
                st[d - off]
            }
        })
        .collect();
    let (inner, inner_stride) = (out_shape[r - 1], bst[r - 1]);
    let mut pos = Vec::with_capacity(n);
    let mut idx = vec![0i64; r - 1];
    let mut base = 0i64;
    loop {
        pos.extend((0..inner).map(|j| (base + j * inner_stride) as usize));
        let mut d = r - 1;
        loop {
            if d == 0 {
                return pos;
            }
            d -= 1;
            idx[d] += 1;
            base += bst[d];
            if idx[d] < out_shape[d] {
                break;
            }
            base -= bst[d] * out_shape[d];
            idx[d] = 0;
        }
    }
}

/// Applies `f` to broadcast operand pairs.
fn zip_broadcast(
    a: &Tensor,
    b: &Tensor,
    mut f: impl FnMut(f64, f64) -> Result<f64, String>,
) -> Result<(Vec<i64>, Vec<f64>), String> {
    if a.shape == b.shape {
        let data = a
            .data
            .iter()
            .zip(&b.data)
            .map(|(&x, &y)| f(x, y))
            .collect::<Result<Vec<f64>, String>>()?;
        return Ok((a.shape.clone(), data));
    }
    let shape = broadcast_shape(&a.shape, &b.shape)?;
    let pa = broadcast_positions(&a.shape, &shape);
    let pb = broadcast_positions(&b.shape, &shape);
    let data = pa
        .iter()
        .zip(&pb)
        .map(|(&i, &j)| f(a.data[i], b.data[j]))
        .collect::<Result<Vec<f64>, String>>()?;
    Ok((shape, data))
}

/// NaN-propagating max/min.
fn fmax(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x >= y {
        x
    } else {
        y
    }
}

fn fmin(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x <= y {
        x
    } else {
        y
    }
}

/// One integer binary op in i128 (exact for any operands of up to 64 bits), before wrapping.
fn int_binary(op: BinOp, x: i128, y: i128) -> Result<i128, String> {
    Ok(match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div | BinOp::Mod if y == 0 => {
            return Err(format!("integer division by zero ({x} {op:?} 0)"))
        }
        BinOp::Div => x / y,
        BinOp::Mod => x % y,
        BinOp::Max => x.max(y),
        BinOp::Min => x.min(y),
    })
}

/// Elementwise `a op b` with NumPy broadcasting; both operands must have the same dtype, which
/// the result has (MLIR `arith` ops take one type; the interpreter casts scalars first).
///
/// Floats compute in f64 and round once into the dtype: for f32 and narrower this is the
/// correctly rounded IEEE result of add/sub/mul/div (f64 has more than twice the bits), as the
/// GPU's `add.rn`/`mul.rn`/`div.rn` give. Integers compute exactly and wrap to the width;
/// division by zero is an error.
pub fn binary(op: BinOp, a: &Tensor, b: &Tensor) -> Result<Tensor, String> {
    if a.dtype != b.dtype {
        return Err(format!(
            "operands of {op:?} have different dtypes: {} and {}",
            a.dtype.name(),
            b.dtype.name()
        ));
    }
    let dtype = a.dtype;
    let (shape, data) = if let Some((signed, bits)) = int_info(dtype) {
        zip_broadcast(a, b, |x, y| {
            let (x, y) = (f64_to_i128_mod(x), f64_to_i128_mod(y));
            // The most negative value divided by -1 has no signed result (arith.divsi's rule;
            // PTX's div.s32 gives no defined value): an error like division by zero.
            if signed && op == BinOp::Div && y == -1 && bits > 0 && x == -(1i128 << (bits - 1)) {
                return Err(format!(
                    "signed integer division overflow ({x} {op:?} -1: the minimum value of a {bits}-bit integer divided by -1)"
                ));
            }
            let r = int_binary(op, x, y)?;
            Ok(wrap_int(r, signed, bits) as f64)
        })?
    } else {
        // Floats cannot fail: one loop per op and rounding, over broadcast rows by strides,
        // each element `round_to(dtype, x op y)` (for f32, Rust's `as f32`, which is what
        // `round_to` computes).
        let shape = broadcast_shape(&a.shape, &b.shape)?;
        let data = if dtype == DType::F32 {
            float_binary(op, a, b, &shape, |r| r as f32 as f64)
        } else {
            float_binary(op, a, b, &shape, |r| round_to(dtype, r))
        };
        (shape, data)
    };
    Ok(Tensor { dtype, shape, data })
}

/// `round(x op y)` over `a` and `b` broadcast to `shape`, the op chosen once for the loop.
fn float_binary(
    op: BinOp,
    a: &Tensor,
    b: &Tensor,
    shape: &[i64],
    round: impl Fn(f64) -> f64 + Copy,
) -> Vec<f64> {
    fn go(
        a: &Tensor,
        b: &Tensor,
        shape: &[i64],
        f: impl Fn(f64, f64) -> f64,
        round: impl Fn(f64) -> f64,
    ) -> Vec<f64> {
        let mut out = Vec::with_capacity(shape_numel(shape));
        let (x, y) = (&a.data[..], &b.data[..]);
        if a.shape == b.shape {
            out.extend(x.iter().zip(y).map(|(&p, &q)| round(f(p, q))));
            return out;
        }
        broadcast_rows(&a.shape, &b.shape, shape, |ia, sa, ib, sb, n| {
            if sa == 1 && sb == 0 {
                let q = y[ib];
                out.extend(x[ia..ia + n].iter().map(|&p| round(f(p, q))));
            } else if sa == 1 && sb == 1 {
                let rows = x[ia..ia + n].iter().zip(&y[ib..ib + n]);
                out.extend(rows.map(|(&p, &q)| round(f(p, q))));
            } else {
                out.extend((0..n).map(|j| round(f(x[ia + j * sa], y[ib + j * sb]))));
            }
        });
        out
    }
    match op {
        BinOp::Add => go(a, b, shape, |x, y| x + y, round),
        BinOp::Sub => go(a, b, shape, |x, y| x - y, round),
        BinOp::Mul => go(a, b, shape, |x, y| x * y, round),
        BinOp::Div => go(a, b, shape, |x, y| x / y, round),
        BinOp::Mod => go(a, b, shape, |x, y| x % y, round),
        BinOp::Max => go(a, b, shape, fmax, round),
        BinOp::Min => go(a, b, shape, fmin, round),
    }
}

/// Walks `out_shape` (the broadcast of `sa` and `sb`) row by row, calling `row(a_start,
/// a_step, b_start, b_step, len)` with each operand's position of the row's first element and
/// its step along the row (0 along a broadcast dim): the row-major order of
/// [`broadcast_positions`] without a position per element.
fn broadcast_rows(
    sa: &[i64],
    sb: &[i64],
    out_shape: &[i64],
    mut row: impl FnMut(usize, usize, usize, usize, usize),
) {
    let r = out_shape.len();
    if r == 0 {
        row(0, 0, 0, 0, 1);
        return;
    }
    if out_shape.iter().any(|&e| e <= 0) {
        return;
    }
    let strides = |s: &[i64]| -> Vec<i64> {
        let off = r - s.len();
        let st = row_major_strides(s);
        (0..r)
            .map(|d| {
                if d < off || s[d - off] == 1 {
                    0
                } else {
                    st[d - off]
                }
            })
            .collect()
    };
    let (ta, tb) = (strides(sa), strides(sb));
    let inner = out_shape[r - 1] as usize;
    let (step_a, step_b) = (ta[r - 1] as usize, tb[r - 1] as usize);
    let mut idx = vec![0i64; r - 1];
    let (mut ba, mut bb) = (0i64, 0i64);
    loop {
        row(ba as usize, step_a, bb as usize, step_b, inner);
        let mut d = r - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            ba += ta[d];
            bb += tb[d];
            if idx[d] < out_shape[d] {
                break;
            }
            ba -= ta[d] * out_shape[d];
            bb -= tb[d] * out_shape[d];
            idx[d] = 0;
        }
    }
}

/// Elementwise comparison with NumPy broadcasting; an `i1` tile of 0/1. The operands must have
/// the same dtype. Ordered comparisons with a NaN are false, `Ne` is true (C semantics).
pub fn compare(op: CmpOp, a: &Tensor, b: &Tensor) -> Result<Tensor, String> {
    if a.dtype != b.dtype {
        return Err(format!(
            "operands of {op:?} have different dtypes: {} and {}",
            a.dtype.name(),
            b.dtype.name()
        ));
    }
    let (shape, data) = zip_broadcast(a, b, |x, y| {
        let r = match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
        };
        Ok(if r { 1.0 } else { 0.0 })
    })?;
    Ok(Tensor {
        dtype: i1(),
        shape,
        data,
    })
}

/// Elementwise unary op, computed in f64 and rounded once into the dtype (the GPU's fast
/// approximations such as `ex2.approx` differ by a few ulps; checks use tolerances).
/// Integers allow only `Neg` and `Abs` (wrapping).
pub fn unary(op: UnOp, a: &Tensor) -> Result<Tensor, String> {
    let dtype = a.dtype;
    let data = if let Some((signed, bits)) = int_info(dtype) {
        let f: fn(i128) -> i128 = match op {
            UnOp::Neg => |x| -x,
            UnOp::Abs => |x| x.abs(),
            _ => return Err(format!("{op:?} needs a float tile, found {}", dtype.name())),
        };
        a.data
            .iter()
            .map(|&x| wrap_int(f(f64_to_i128_mod(x)), signed, bits) as f64)
            .collect()
    } else {
        let f: fn(f64) -> f64 = match op {
            UnOp::Exp => f64::exp,
            UnOp::Exp2 => f64::exp2,
            UnOp::Log => f64::ln,
            UnOp::Sqrt => f64::sqrt,
            UnOp::Rsqrt => |x| 1.0 / x.sqrt(),
            UnOp::Tanh => f64::tanh,
            UnOp::Neg => |x| -x,
            UnOp::Abs => f64::abs,
        };
        if dtype == DType::F32 {
            a.data.iter().map(|&x| f(x) as f32 as f64).collect()
        } else {
            a.data.iter().map(|&x| round_to(dtype, f(x))).collect()
        }
    };
    Ok(Tensor {
        dtype,
        shape: a.shape.clone(),
        data,
    })
}

/// Elementwise `c ? a : b` with NumPy broadcasting of all three; `c` is true where non-zero
/// (any dtype). `a` and `b` must have the same dtype, which the result has.
pub fn select(c: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor, String> {
    if a.dtype != b.dtype {
        return Err(format!(
            "select branches have different dtypes: {} and {}",
            a.dtype.name(),
            b.dtype.name()
        ));
    }
    let shape = broadcast_shape(&broadcast_shape(&c.shape, &a.shape)?, &b.shape)?;
    let pc = broadcast_positions(&c.shape, &shape);
    let pa = broadcast_positions(&a.shape, &shape);
    let pb = broadcast_positions(&b.shape, &shape);
    let data = (0..pc.len())
        .map(|i| {
            if c.data[pc[i]] != 0.0 {
                a.data[pa[i]]
            } else {
                b.data[pb[i]]
            }
        })
        .collect();
    Ok(Tensor {
        dtype: a.dtype,
        shape,
        data,
    })
}

/// Reduces `a` along `dim` (the dim stays with extent 1 when `keepdim`).
///
/// What is computed, exactly:
/// * `Sum` adds the elements in ascending index order to an accumulator starting at 0. For
///   float dtypes of 32 bits or fewer (f32, tf32, f16, bf16, fp8, sub-byte) the accumulator is
///   an f32 and every addition is rounded to f32 (the GPU kernels' f32 accumulation), and the
///   final sum is rounded once into the dtype; f64 accumulates in f64. Integers sum exactly
///   and wrap to the width. The GPU's tree order differs from this sequential order: compare
///   float sums with tolerances.
/// * `Max`/`Min`: the largest/smallest element, NaN if any element is NaN; the result has the
///   input's dtype. An empty dim is an error.
/// * `Any`/`All`: whether any/every element is non-zero, as an `i1` tile (an empty dim gives
///   0/1).
pub fn reduce(kind: ReduceKind, a: &Tensor, dim: usize, keepdim: bool) -> Result<Tensor, String> {
    if dim >= a.shape.len() {
        return Err(format!(
            "reduce dim {dim} is out of range for a tile of rank {} (shape {:?})",
            a.shape.len(),
            a.shape
        ));
    }
    let n = a.shape[dim] as usize;
    if n == 0 && matches!(kind, ReduceKind::Max | ReduceKind::Min) {
        return Err(format!(
            "{kind:?} over dim {dim} of extent 0 (shape {:?}) has no value",
            a.shape
        ));
    }
    let outer: usize = a.shape[..dim].iter().map(|&s| s as usize).product();
    let inner: usize = a.shape[dim + 1..].iter().map(|&s| s as usize).product();
    let dtype = match kind {
        ReduceKind::Any | ReduceKind::All => i1(),
        _ => a.dtype,
    };
    let int = int_info(a.dtype);
    let mut data = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let elems = (0..n).map(|k| a.data[(o * n + k) * inner + i]);
            let v = match kind {
                ReduceKind::Sum => match int {
                    Some((signed, bits)) => {
                        let s: i128 = elems
                            .map(f64_to_i128_mod)
                            .fold(0i128, |s, x| wrap_int(s.wrapping_add(x), signed, bits));
                        s as f64
                    }
                    None if a.dtype == DType::F64 => elems.fold(0.0, |s, x| s + x),
                    None => {
                        let s = elems.fold(0.0f64, |s, x| (s + x) as f32 as f64);
                        round_to(a.dtype, s)
                    }
                },
                ReduceKind::Max => elems.reduce(fmax).unwrap_or(f64::NAN),
                ReduceKind::Min => elems.reduce(fmin).unwrap_or(f64::NAN),
                ReduceKind::Any => {
                    let mut e = elems;
                    f64::from(e.any(|x| x != 0.0) as u8)
                }
                ReduceKind::All => {
                    let mut e = elems;
                    f64::from(e.all(|x| x != 0.0) as u8)
                }
            };
            data.push(v);
        }
    }
    let mut shape = a.shape.clone();
    if keepdim {
        shape[dim] = 1;
    } else {
        shape.remove(dim);
    }
    Ok(Tensor { dtype, shape, data })
}

/// The largest f64 not above `v` for an integer bound `v` (exact up to 2^53; above that the
/// f64 carrier of 64-bit integers cannot hold the bound itself).
fn int_bound_f64(v: i128) -> f64 {
    let f = v as f64;
    // Step toward zero when the nearest f64 lies outside the bound.
    if (v > 0 && (f as i128) > v) || (v < 0 && (f as i128) < v) {
        f64::from_bits(f.to_bits() - 1)
    } else {
        f
    }
}

/// One value converted to `to` (see [`cast`]).
fn cast_value(x: f64, from: DType, to: DType) -> f64 {
    match (from.is_float(), int_info(to)) {
        (_, Some((_, 1))) => f64::from((x != 0.0) as u8),
        (true, Some((signed, bits))) => {
            if x.is_nan() {
                return 0.0;
            }
            let (lo, hi) = if signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            let (lo, hi) = (int_bound_f64(lo), int_bound_f64(hi));
            x.trunc().clamp(lo, hi)
        }
        _ => round_to(to, x),
    }
}

/// The box `[offsets, offsets + shape)` of `a` (`tilus.slice_register`; the verifier checked
/// that the box is inside `a`).
pub fn slice(a: &Tensor, offsets: &[i64], shape: &[i64]) -> Tensor {
    let src_strides = row_major_strides(&a.shape);
    let n = shape_numel(shape);
    let mut data = Vec::with_capacity(n);
    let mut idx = vec![0i64; shape.len()];
    for _ in 0..n {
        let at: i64 = idx
            .iter()
            .zip(offsets)
            .zip(&src_strides)
            .map(|((&i, &o), &s)| (i + o) * s)
            .sum();
        data.push(a.data[at as usize]);
        for k in (0..shape.len()).rev() {
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    Tensor {
        dtype: a.dtype,
        shape: shape.to_vec(),
        data,
    }
}

/// Converts every element to `to` (`x.to(dtype)`, `arith` casts).
///
/// * to a float: round to nearest even ([`round_to`]; f8/f6/f4 saturate);
/// * float to integer: truncate toward zero and saturate to the integer's range, NaN → 0, as
///   PTX `cvt.rzi.sat.s32.f32` (the conversion CUDA's `(int)x` compiles to);
/// * integer to integer: wrap to the width (C conversions, `arith.trunci`; widening keeps the
///   value as read, signed or unsigned);
/// * to `i1`: `x != 0` (Tilus' `boolean` conversion; NaN → 1 as in C).
pub fn cast(a: &Tensor, to: DType) -> Tensor {
    let data = if to.is_float() {
        // To a float is `round_to` whatever the source: the dispatch on `to` once.
        match to {
            DType::F32 => a.data.iter().map(|&x| x as f32 as f64).collect(),
            DType::F16 => a
                .data
                .iter()
                .map(|&x| round_normal_fast(x, F16_FAST).unwrap_or_else(|| F16_FORMAT.round(x)))
                .collect(),
            _ => a.data.iter().map(|&x| round_to(to, x)).collect(),
        }
    } else {
        a.data.iter().map(|&x| cast_value(x, a.dtype, to)).collect()
    };
    Tensor {
        dtype: to,
        shape: a.shape.clone(),
        data,
    }
}

/// `s = acc + p` rounded correctly into `dtype` even when `p` has up to 53 significant bits:
/// the f64 sum is made round-to-odd (exact error from TwoSum), which makes the second rounding
/// into any format of at most 51 bits correct.
fn add_rounded(dtype: DType, acc: f64, p: f64) -> f64 {
    if dtype == DType::F64 {
        return acc + p;
    }
    let s = acc + p;
    if !s.is_finite() {
        return round_to(dtype, s);
    }
    // TwoSum: the exact rounding error of s.
    let bb = s - acc;
    let err = (acc - (s - bb)) + (p - bb);
    let s_odd = if err == 0.0 {
        s
    } else {
        // The truncation of the exact sum toward zero, with its last bit forced to 1.
        let trunc = if (err > 0.0) == (s > 0.0) {
            s
        } else {
            f64::from_bits(s.to_bits() - 1)
        };
        f64::from_bits(trunc.to_bits() | 1)
    };
    round_to(dtype, s_odd)
}

/// `c + a·b` for `a: [M, K]`, `b: [K, N]`, `c: [M, N]`, the result in `c.dtype`: what one MMA
/// (wgmma, tcgen05.mma, mma.sync) computes.
///
/// Each product `a[i,k]·b[k,j]` is exact (f64 holds the product of two values of 24 bits or
/// fewer; f64 operands round here). The products are added to `c[i,j]` one at a time in
/// ascending `k`, each addition rounded into `c.dtype` (correctly rounded even for f32, see
/// the round-to-odd helper); integer accumulators are exact with wrapping. Tensor cores add
/// groups of products with extra internal precision, so results differ in the last bits:
/// compare with tolerances.
pub fn matmul_acc(a: &Tensor, b: &Tensor, c: &Tensor) -> Result<Tensor, String> {
    let (ok, m, k, n) = match (&a.shape[..], &b.shape[..], &c.shape[..]) {
        ([m, k], [k2, n], [m2, n2]) => (k == k2 && m == m2 && n == n2, *m, *k, *n),
        _ => (false, 0, 0, 0),
    };
    if !ok {
        return Err(format!(
            "matmul needs a: [M, K], b: [K, N], c: [M, N]; found a: {:?}, b: {:?}, c: {:?}",
            a.shape, b.shape, c.shape
        ));
    }
    let (m, k, n) = (m as usize, k as usize, n as usize);
    let dtype = c.dtype;
    if let Some(data) = matmul_f32_exact_products(a, b, c, m, k, n) {
        return Ok(Tensor {
            dtype,
            shape: c.shape.clone(),
            data,
        });
    }
    let int = int_info(dtype);
    let mut data = c.data.clone();
    for i in 0..m {
        for j in 0..n {
            let mut acc = data[i * n + j];
            match int {
                Some((signed, bits)) => {
                    let mut s = f64_to_i128_mod(acc);
                    for kk in 0..k {
                        let p = f64_to_i128_mod(a.data[i * k + kk])
                            .wrapping_mul(f64_to_i128_mod(b.data[kk * n + j]));
                        s = wrap_int(s.wrapping_add(p), signed, bits);
                    }
                    acc = s as f64;
                }
                None => {
                    for kk in 0..k {
                        let p = a.data[i * k + kk] * b.data[kk * n + j];
                        acc = add_rounded(dtype, acc, p);
                    }
                }
            }
            data[i * n + j] = acc;
        }
    }
    Ok(Tensor {
        dtype,
        shape: c.shape.clone(),
        data,
    })
}

/// Whether every value of a float `dtype` has at most 12 significant bits, so that the product
/// of two of them has at most 24 and fits an f32 significand.
fn narrow_float(dtype: DType) -> bool {
    dtype.is_float() && !matches!(dtype, DType::F32 | DType::F64)
}

/// (largest magnitude, smallest non-zero magnitude) of finite values; `None` if any value is
/// inf or NaN.
fn magnitude_range(data: &[f64]) -> Option<(f64, f64)> {
    let (mut hi, mut lo) = (0.0f64, f64::INFINITY);
    for &x in data {
        let a = x.abs();
        if !a.is_finite() {
            return None;
        }
        hi = hi.max(a);
        if a != 0.0 {
            lo = lo.min(a);
        }
    }
    Some((hi, lo))
}

/// The f32-accumulator MMA of [`matmul_acc`] computed in f32 arithmetic, where that gives the
/// same bits: for narrow float operands (f16, bf16, tf32, fp8, sub-byte) whose products are
/// exact normal f32 values (at most 24 significant bits, magnitudes checked per call), the
/// f32 addition `acc + p` is the correctly rounded sum, which is what the generic path's
/// round-to-odd f64 addition gives. The loop order is `i, k, j`, so each accumulator still
/// receives its products in ascending `k`, while the `j` loop runs over contiguous f32 lanes
/// (vectorized). `None` when the conditions do not hold; the caller then uses the generic path.
fn matmul_f32_exact_products(
    a: &Tensor,
    b: &Tensor,
    c: &Tensor,
    m: usize,
    k: usize,
    n: usize,
) -> Option<Vec<f64>> {
    if c.dtype != DType::F32 || !narrow_float(a.dtype) || !narrow_float(b.dtype) {
        return None;
    }
    let (ahi, alo) = magnitude_range(&a.data)?;
    let (bhi, blo) = magnitude_range(&b.data)?;
    magnitude_range(&c.data)?;
    let all_zero = ahi == 0.0 || bhi == 0.0;
    // Every non-zero product must be a normal f32 (exact, 24 bits) and no product may overflow.
    if !all_zero && (ahi * bhi > f32::MAX as f64 || alo * blo < f32::MIN_POSITIVE as f64) {
        return None;
    }
    let af: Vec<f32> = a.data.iter().map(|&x| x as f32).collect();
    let bf: Vec<f32> = b.data.iter().map(|&x| x as f32).collect();
    let mut acc: Vec<f32> = c.data.iter().map(|&x| x as f32).collect();
    mma_rows_f32(&af, &bf, &mut acc, m, k, n);
    Some(acc.into_iter().map(f64::from).collect())
}

/// `acc[i, :] += a[i, kk] * b[kk, :]` for kk ascending: one rounded f32 multiply (exact here)
/// and one rounded f32 add per element, never fused.
fn mma_rows_f32(a: &[f32], b: &[f32], acc: &mut [f32], m: usize, k: usize, n: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { mma_rows_f32_avx2(a, b, acc, m, k, n) };
            return;
        }
    }
    mma_rows_f32_body(a, b, acc, m, k, n);
}

/// [`mma_rows_f32_body`] compiled with AVX2 enabled (8 f32 lanes); LLVM never contracts the
/// separate multiply and add into an FMA without fast-math flags, so the rounding is the same.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mma_rows_f32_avx2(a: &[f32], b: &[f32], acc: &mut [f32], m: usize, k: usize, n: usize) {
    mma_rows_f32_body(a, b, acc, m, k, n);
}

#[inline(always)]
fn mma_rows_f32_body(a: &[f32], b: &[f32], acc: &mut [f32], m: usize, k: usize, n: usize) {
    for i in 0..m {
        let row = &mut acc[i * n..(i + 1) * n];
        for kk in 0..k {
            let x = a[i * k + kk];
            let brow = &b[kk * n..(kk + 1) * n];
            for (r, &y) in row.iter_mut().zip(brow) {
                *r += x * y;
            }
        }
    }
}

#[cfg(test)]
mod fast_tests {
    use super::*;

    /// Many f64 values around and inside each format's range, with ties and carries.
    fn samples() -> Vec<f64> {
        let mut out = vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            65504.0,
            65519.99,
            65520.0,
        ];
        let mut s = 0x9e3779b97f4a7c15u64;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // exponents -140..140, mantissas with many trailing zeros now and then (ties)
            let e = (s % 281) as i64 - 140;
            let man = if s & 0x100 == 0 {
                (s >> 12) & !((1u64 << 40) - 1)
            } else {
                s >> 12
            };
            let bits = ((e + 1023) as u64) << 52 | man | (s & (1 << 63));
            out.push(f64::from_bits(bits));
        }
        out
    }

    #[test]
    fn fast_f16_bf16_rounding_and_encoding_match_the_generic_format() {
        for (dtype, f) in [(DType::F16, F16_FORMAT), (DType::BF16, BF16_FORMAT)] {
            for x in samples() {
                let fast = round_to(dtype, x);
                let slow = f.round(x);
                assert!(
                    fast.to_bits() == slow.to_bits() || (fast.is_nan() && slow.is_nan()),
                    "{dtype:?} round {x:e}: {fast:e} vs {slow:e}"
                );
                let mut out = [0u8; 2];
                encode(dtype, x, &mut out);
                let want = f.encode_bits(slow) & 0xffff;
                assert_eq!(
                    u16::from_le_bytes(out) as u64,
                    want,
                    "{dtype:?} encode {x:e}"
                );
                let back = decode(dtype, &out);
                let want = f.decode_bits(want);
                assert!(back.to_bits() == want.to_bits() || (back.is_nan() && want.is_nan()));
            }
        }
    }
}
