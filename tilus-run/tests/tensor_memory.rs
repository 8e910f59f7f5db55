//! Tests of `tilus-run`'s tensors (rounding, encoding, elementwise/reduce/matmul math) and
//! memory (global boxes with bounds, shared memory with swizzled layouts, the allocator).

use tilus_dialects::layout_algebra::{SharedLayout, SwizzleMode};
use tilus_ir::types::Signedness;
use tilus_run::memory::{GlobalMemory, GlobalView, MemError, SharedMemory, SharedView};
use tilus_run::tensor::*;

/// A tiny deterministic RNG (xorshift64*), so tests need no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Non-zero, either sign, magnitude in [0.1, 2).
    fn val(&mut self) -> f64 {
        let m = 0.1 + 1.9 * self.unit();
        if self.next() & 1 == 1 {
            -m
        } else {
            m
        }
    }
    fn tensor(&mut self, dtype: DType, shape: &[i64]) -> Tensor {
        let n: i64 = shape.iter().product();
        let data = (0..n)
            .map(|_| {
                let v = round_to(dtype, self.val());
                if v == 0.0 {
                    round_to(dtype, 1.0)
                } else {
                    v
                }
            })
            .collect();
        Tensor::from_vec(dtype, shape, data)
    }
}

fn int(bits: u32, signedness: Signedness) -> DType {
    DType::Int { bits, signedness }
}
fn i(bits: u32) -> DType {
    int(bits, Signedness::Signless)
}
fn si(bits: u32) -> DType {
    int(bits, Signedness::Signed)
}
fn ui(bits: u32) -> DType {
    int(bits, Signedness::Unsigned)
}

fn p2(e: i32) -> f64 {
    2f64.powi(e)
}

// ---------------------------------------------------------------------------------------------
// Rounding
// ---------------------------------------------------------------------------------------------

#[test]
fn f16_rounds_to_nearest_even() {
    let f = DType::F16;
    assert_eq!(round_to(f, 1.0 + p2(-11)), 1.0, "tie goes to even (down)");
    assert_eq!(
        round_to(f, 1.0 + 3.0 * p2(-11)),
        1.0 + p2(-9),
        "tie goes to even (up)"
    );
    assert_eq!(round_to(f, 1.0 + p2(-11) + p2(-30)), 1.0 + p2(-10));
    assert_eq!(round_to(f, 65504.0), 65504.0);
    assert_eq!(round_to(f, 65519.99), 65504.0);
    assert_eq!(round_to(f, 65520.0), f64::INFINITY, "overflow ties to inf");
    assert_eq!(round_to(f, -1e9), f64::NEG_INFINITY);
    assert_eq!(round_to(f, p2(-24)), p2(-24), "smallest subnormal");
    assert_eq!(
        round_to(f, p2(-25)),
        0.0,
        "half the smallest subnormal ties to 0"
    );
    assert_eq!(round_to(f, 3.0 * p2(-26)), p2(-24));
    assert!(
        round_to(f, -p2(-30)).is_sign_negative(),
        "-0 keeps its sign"
    );
    assert!(round_to(f, f64::NAN).is_nan());
}

#[test]
fn f16_bf16_match_the_half_crate() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..200_000 {
        let x = f32::from_bits(rng.next() as u32);
        if x.is_nan() {
            continue;
        }
        let h = half::f16::from_f32(x);
        assert_eq!(round_to(DType::F16, x as f64), h.to_f64(), "f16 of {x:e}");
        let mut b = [0u8; 2];
        encode(DType::F16, x as f64, &mut b);
        assert_eq!(u16::from_le_bytes(b), h.to_bits(), "f16 bits of {x:e}");
        let h = half::bf16::from_f32(x);
        assert_eq!(round_to(DType::BF16, x as f64), h.to_f64(), "bf16 of {x:e}");
        encode(DType::BF16, x as f64, &mut b);
        assert_eq!(u16::from_le_bytes(b), h.to_bits(), "bf16 bits of {x:e}");
    }
}

#[test]
fn bf16_tf32_f32_rounding() {
    assert_eq!(round_to(DType::BF16, 1.0 + p2(-8)), 1.0);
    assert_eq!(round_to(DType::BF16, 1.0 + 3.0 * p2(-8)), 1.0 + p2(-6));
    assert_eq!(
        round_to(DType::BF16, 3.0e38),
        half::bf16::from_f32(3.0e38).to_f64()
    );
    assert_eq!(round_to(DType::BF16, 3.4e38), f64::INFINITY);
    assert_eq!(round_to(DType::TF32, 1.0 + p2(-11)), 1.0);
    assert_eq!(round_to(DType::TF32, 1.0 + 3.0 * p2(-11)), 1.0 + p2(-9));
    assert_eq!(round_to(DType::F32, 1.0 + p2(-24)), 1.0);
    assert_eq!(round_to(DType::F32, 1.0 + 3.0 * p2(-24)), 1.0 + p2(-22));
    assert_eq!(round_to(DType::F32, 1e39), f64::INFINITY);
    assert_eq!(round_to(DType::F64, 0.1), 0.1);
    // tf32 from memory: the low 13 bits of the f32 pattern are ignored (truncation).
    let x = 1.0f32 + 2f32.powi(-11) + 2f32.powi(-20);
    let y = decode(DType::TF32, &x.to_bits().to_le_bytes());
    assert_eq!(y, 1.0, "2^-11 and 2^-20 are below tf32's 10 mantissa bits");
}

#[test]
fn f8_e4m3_saturates_and_keeps_nan() {
    let f = DType::F8E4M3;
    assert_eq!(round_to(f, 448.0), 448.0);
    assert_eq!(
        round_to(f, 464.0),
        448.0,
        "tie between 448 and 480 goes to even"
    );
    assert_eq!(
        round_to(f, 470.0),
        448.0,
        "above the largest finite value saturates"
    );
    assert_eq!(round_to(f, 1e6), 448.0);
    assert_eq!(round_to(f, f64::INFINITY), 448.0);
    assert_eq!(round_to(f, f64::NEG_INFINITY), -448.0);
    assert!(round_to(f, f64::NAN).is_nan());
    assert_eq!(round_to(f, 1.0 + p2(-4)), 1.0);
    assert_eq!(round_to(f, 1.0 + 3.0 * p2(-4)), 1.25);
    assert_eq!(round_to(f, p2(-9)), p2(-9), "smallest subnormal");
    assert_eq!(round_to(f, p2(-10)), 0.0);
    assert_eq!(round_to(f, 3.0 * p2(-11)), p2(-9));
    let mut b = [0u8];
    for (x, code) in [
        (448.0, 0x7e),
        (-448.0, 0xfe),
        (f64::NAN, 0x7f),
        (1.0, 0x38),
        (p2(-9), 0x01),
        (-0.0, 0x80),
    ] {
        encode(f, x, &mut b);
        assert_eq!(b[0], code, "e4m3 code of {x}");
    }
    assert!(decode(f, &[0xff]).is_nan());
    // Every code decodes to a value that encodes back to it (NaNs to the canonical one).
    for c in 0..=255u8 {
        let v = decode(f, &[c]);
        encode(f, v, &mut b);
        if v.is_nan() {
            assert_eq!(c & 0x7f, 0x7f);
            assert_eq!(b[0], 0x7f);
        } else {
            assert_eq!(b[0], c, "code {c:#x} = {v}");
            assert_eq!(round_to(f, v), v);
        }
    }
}

#[test]
fn f8_e5m2_and_sub_byte_floats() {
    let f = DType::F8E5M2;
    assert_eq!(round_to(f, 57344.0), 57344.0);
    assert_eq!(
        round_to(f, 1e9),
        57344.0,
        "satfinite, as PTX's only f32 -> e5m2 cvt"
    );
    assert_eq!(round_to(f, 1.0 + p2(-3)), 1.0);
    assert_eq!(round_to(f, 1.0 + 3.0 * p2(-3)), 1.5);
    assert_eq!(decode(f, &[0x7c]), f64::INFINITY);
    assert!(decode(f, &[0x7e]).is_nan());
    let mut b = [0u8];
    for c in 0..=255u8 {
        let v = decode(f, &[c]);
        if v.is_finite() {
            encode(f, v, &mut b);
            assert_eq!(b[0], c, "e5m2 code {c:#x}");
        }
    }
    // f4E2M1FN: 0, 0.5, 1, 1.5, 2, 3, 4, 6.
    let f4 = DType::F4E2M1;
    let vals: Vec<f64> = (0..8u8).map(|c| decode(f4, &[c])).collect();
    assert_eq!(vals, [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]);
    assert_eq!(decode(f4, &[0xf]), -6.0);
    assert_eq!(round_to(f4, 5.0), 4.0);
    assert_eq!(round_to(f4, 5.5), 6.0);
    assert_eq!(round_to(f4, 100.0), 6.0);
    assert_eq!(round_to(f4, 0.25), 0.0);
    assert_eq!(round_to(f4, 0.75), 1.0);
    assert_eq!(round_to(DType::F6E2M3, 1e3), 7.5);
    assert_eq!(round_to(DType::F6E3M2, -1e3), -28.0);
    for (d, bits) in [(f4, 4), (DType::F6E2M3, 6), (DType::F6E3M2, 6)] {
        for c in 0..(1u8 << bits) {
            let v = decode(d, &[c]);
            encode(d, v, &mut b);
            // -0 and +0 are distinct codes; both round trip.
            assert_eq!(b[0], c, "{} code {c:#x} = {v}", d.name());
        }
    }
}

#[test]
fn integers_wrap() {
    assert_eq!(round_to(i(8), 128.0), -128.0);
    assert_eq!(round_to(i(8), 255.0), -1.0);
    assert_eq!(round_to(si(16), 40000.0), -25536.0);
    assert_eq!(round_to(ui(8), -1.0), 255.0);
    assert_eq!(round_to(ui(8), 256.0), 0.0);
    assert_eq!(round_to(i(32), p2(31)), -p2(31));
    assert_eq!(round_to(ui(32), -1.0), 4294967295.0);
    assert_eq!(round_to(i(1), 3.0), 1.0);
    assert_eq!(round_to(i(1), 2.0), 0.0);
    assert_eq!(round_to(i(1), -1.0), 1.0);
    assert_eq!(round_to(i(4), 9.0), -7.0);
    assert_eq!(round_to(i(32), 2.7), 2.0);
    assert_eq!(round_to(i(32), -2.7), -2.0);
    assert_eq!(round_to(i(64), -1.0), -1.0);
    assert_eq!(round_to(ui(64), -1.0), p2(64) - 1.0); // 2^64 - 1 rounds to 2^64 in f64
    assert_eq!(round_to(i(32), 1e30), 0.0, "1e30 = 2^32·k");
    assert_eq!(round_to(i(32), f64::NAN), 0.0);
    let mut b = [0u8; 8];
    encode(i(64), -1.0, &mut b);
    assert_eq!(b, [0xff; 8]);
    assert_eq!(decode(i(64), &b), -1.0);
    assert_eq!(decode(ui(16), &b), 65535.0);
    assert_eq!(decode(i(16), &b), -1.0);
    encode(i(1), 1.0, &mut b[..1]);
    assert_eq!(b[0], 1);
    assert_eq!(storage_bytes(i(1)), 1);
    encode(si(32), -2.0, &mut b[..4]);
    assert_eq!(b[..4], (-2i32).to_le_bytes());
}

#[test]
fn casts() {
    let t = Tensor::from_vec(
        DType::F32,
        &[8],
        vec![3e9, -3e9, f64::NAN, -1.9, 1.9, 300.0, -5.0, 0.5],
    );
    assert_eq!(
        cast(&t, i(32)).data[..6],
        [2147483647.0, -2147483648.0, 0.0, -1.0, 1.0, 300.0]
    );
    let u8s = cast(&t, ui(8));
    assert_eq!(u8s.data, [255.0, 0.0, 0.0, 0.0, 1.0, 255.0, 0.0, 0.0]);
    let b = cast(&t, i(1));
    assert_eq!(b.data, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    let ints = Tensor::from_vec(i(32), &[3], vec![300.0, -1.0, 0.0]);
    assert_eq!(cast(&ints, i(8)).data, [44.0, -1.0, 0.0]);
    assert_eq!(cast(&ints, ui(8)).data, [44.0, 255.0, 0.0]);
    assert_eq!(cast(&ints, i(1)).data, [1.0, 1.0, 0.0]);
    assert_eq!(cast(&ints, DType::F16).data, [300.0, -1.0, 0.0]);
    let big = Tensor::from_vec(i(32), &[1], vec![16777217.0]);
    assert_eq!(cast(&big, DType::F32).data, [16777216.0]);
    let i64s = cast(
        &Tensor::from_vec(DType::F64, &[2], vec![1e30, -1e30]),
        i(64),
    );
    assert!(i64s.data[0] < p2(63) && i64s.data[0] > p2(62));
    assert_eq!(i64s.data[1], -p2(63));
    // The saturated value survives a trip through memory.
    let mut b = [0u8; 8];
    encode(i(64), i64s.data[0], &mut b);
    assert!(i64::from_le_bytes(b) > 0);
}

#[test]
fn encode_decode_round_trips() {
    let mut rng = Rng(77);
    let dtypes = [
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
        DType::TF32,
        DType::F8E4M3,
        DType::F8E5M2,
        DType::F6E2M3,
        DType::F6E3M2,
        DType::F4E2M1,
        i(8),
        i(16),
        i(32),
        i(64),
        ui(8),
        ui(32),
        si(16),
        i(1),
        i(4),
    ];
    for d in dtypes {
        let n = storage_bytes(d);
        assert_eq!(n, (d.bits() as usize).div_ceil(8));
        for _ in 0..2000 {
            let x = if d.is_float() {
                rng.val() * p2((rng.next() % 20) as i32 - 10)
            } else {
                (rng.next() as i64 >> (rng.next() % 60)) as f64
            };
            let r = round_to(d, x);
            let mut b = [0u8; 8];
            encode(d, x, &mut b[..n]);
            assert_eq!(decode(d, &b[..n]), r, "{} {x}", d.name());
            assert_eq!(round_to(d, r), r, "rounding is idempotent");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Elementwise ops
// ---------------------------------------------------------------------------------------------

#[test]
fn broadcasting() {
    assert_eq!(broadcast_shape(&[4, 1, 3], &[5, 1]).unwrap(), [4, 5, 3]);
    assert_eq!(broadcast_shape(&[], &[2, 2]).unwrap(), [2, 2]);
    assert_eq!(broadcast_shape(&[1], &[7, 1]).unwrap(), [7, 1]);
    let e = broadcast_shape(&[2, 3], &[3, 2]).unwrap_err();
    assert!(e.contains("[2, 3]") && e.contains("[3, 2]"), "{e}");

    let mut rng = Rng(5);
    let a = rng.tensor(DType::F32, &[4, 1, 3]);
    let b = rng.tensor(DType::F32, &[5, 1]);
    let s = binary(BinOp::Add, &a, &b).unwrap();
    assert_eq!(s.shape, [4, 5, 3]);
    for x in 0..4 {
        for y in 0..5 {
            for z in 0..3 {
                let want = round_to(DType::F32, a.get(&[x, 0, z]) + b.get(&[y, 0]));
                assert_eq!(s.get(&[x, y, z]), want);
            }
        }
    }
    assert!(binary(BinOp::Mul, &a, &rng.tensor(DType::F32, &[2, 4])).is_err());
    let h = rng.tensor(DType::F16, &[5, 1]);
    assert!(binary(BinOp::Add, &b, &h)
        .unwrap_err()
        .contains("different dtypes"));

    let c = compare(CmpOp::Lt, &a, &b).unwrap();
    assert_eq!(c.shape, [4, 5, 3]);
    assert_eq!(c.dtype, i(1));
    let sel = select(&c, &a, &b).unwrap();
    for x in 0..4 {
        for y in 0..5 {
            for z in 0..3 {
                let (va, vb) = (a.get(&[x, 0, z]), b.get(&[y, 0]));
                assert_eq!(c.get(&[x, y, z]), f64::from(va < vb));
                assert_eq!(sel.get(&[x, y, z]), if va < vb { va } else { vb });
            }
        }
    }
    // The scalar case.
    let one = Tensor::full(DType::F32, &[], 1.0);
    assert_eq!(binary(BinOp::Sub, &one, &a).unwrap().shape, [4, 1, 3]);
}

#[test]
fn elementwise_values() {
    let h = DType::F16;
    let a = Tensor::from_vec(h, &[4], vec![1.0, -7.5, 2049.0, 65504.0]);
    let b = Tensor::from_vec(h, &[4], vec![3.0, 2.0, 1.0, 65504.0]);
    assert_eq!(a.data[2], 2048.0, "from_vec rounds");
    let s = binary(BinOp::Add, &a, &b).unwrap();
    assert_eq!(s.data, [4.0, -5.5, 2048.0, f64::INFINITY]);
    let d = binary(BinOp::Div, &a, &b).unwrap();
    assert_eq!(d.data[0], round_to(h, 1.0 / 3.0));
    let m = binary(BinOp::Mod, &a, &b).unwrap();
    assert_eq!(m.data[1], -1.5, "fmod has the dividend's sign");
    let nan = Tensor::from_vec(DType::F32, &[2], vec![f64::NAN, 1.0]);
    let one = Tensor::full(DType::F32, &[2], 1.0);
    assert!(binary(BinOp::Max, &nan, &one).unwrap().data[0].is_nan());
    let ne = compare(CmpOp::Ne, &nan, &one).unwrap();
    assert_eq!(ne.data, [1.0, 0.0]);
    let eq = compare(CmpOp::Ge, &nan, &one).unwrap();
    assert_eq!(eq.data, [0.0, 1.0]);

    let x = Tensor::from_vec(i(8), &[3], vec![100.0, -7.0, -128.0]);
    let y = Tensor::from_vec(i(8), &[3], vec![100.0, 2.0, 3.0]);
    assert_eq!(
        binary(BinOp::Add, &x, &y).unwrap().data,
        [-56.0, -5.0, -125.0]
    );
    assert_eq!(binary(BinOp::Div, &x, &y).unwrap().data, [1.0, -3.0, -42.0]);
    assert_eq!(binary(BinOp::Mod, &x, &y).unwrap().data, [0.0, -1.0, -2.0]);
    assert_eq!(
        binary(BinOp::Mul, &x, &y).unwrap().data,
        [16.0, -14.0, -128.0]
    );
    let z = Tensor::zeros(i(8), &[3]);
    assert!(binary(BinOp::Div, &x, &z).unwrap_err().contains("zero"));
    assert_eq!(unary(UnOp::Neg, &x).unwrap().data, [-100.0, 7.0, -128.0]);
    assert_eq!(unary(UnOp::Abs, &x).unwrap().data, [100.0, 7.0, -128.0]);
    assert!(unary(UnOp::Exp, &x).is_err());
    let u = Tensor::from_vec(ui(8), &[2], vec![200.0, 100.0]);
    assert_eq!(binary(BinOp::Add, &u, &u).unwrap().data, [144.0, 200.0]);
    assert_eq!(binary(BinOp::Max, &u, &u).unwrap().data, [200.0, 100.0]);

    let f = Tensor::from_vec(DType::F32, &[3], vec![1.0, 4.0, 0.5]);
    type Reference = fn(f64) -> f64;
    let cases: [(UnOp, Reference); 8] = [
        (UnOp::Exp, f64::exp),
        (UnOp::Exp2, f64::exp2),
        (UnOp::Log, f64::ln),
        (UnOp::Sqrt, f64::sqrt),
        (UnOp::Rsqrt, |x| 1.0 / x.sqrt()),
        (UnOp::Tanh, f64::tanh),
        (UnOp::Neg, |x| -x),
        (UnOp::Abs, f64::abs),
    ];
    for (op, g) in cases {
        let r = unary(op, &f).unwrap();
        for (k, &x) in f.data.iter().enumerate() {
            assert_eq!(r.data[k], (g(x) as f32) as f64, "{op:?}({x})");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reductions and matmul
// ---------------------------------------------------------------------------------------------

#[test]
fn reduce_matches_loops() {
    let mut rng = Rng(99);
    let shape = [5i64, 7, 9];
    for dtype in [DType::F32, DType::F16, DType::BF16, DType::F64] {
        let a = rng.tensor(dtype, &shape);
        for dim in 0..3 {
            let sum = reduce(ReduceKind::Sum, &a, dim, false).unwrap();
            let max = reduce(ReduceKind::Max, &a, dim, true).unwrap();
            let min = reduce(ReduceKind::Min, &a, dim, false).unwrap();
            let mut out_shape = shape.to_vec();
            out_shape.remove(dim);
            assert_eq!(sum.shape, out_shape);
            assert_eq!(sum.dtype, dtype);
            let mut keep = shape.to_vec();
            keep[dim] = 1;
            assert_eq!(max.shape, keep);
            let others: Vec<usize> = (0..3).filter(|&d| d != dim).collect();
            for p in 0..shape[others[0]] {
                for q in 0..shape[others[1]] {
                    let at = |k: i64| {
                        let mut idx = [0i64; 3];
                        idx[dim] = k;
                        idx[others[0]] = p;
                        idx[others[1]] = q;
                        a.get(&idx)
                    };
                    let mut s = 0.0f64;
                    let (mut hi, mut lo) = (f64::NEG_INFINITY, f64::INFINITY);
                    for k in 0..shape[dim] {
                        let x = at(k);
                        s = if dtype == DType::F64 {
                            s + x
                        } else {
                            ((s as f32) + (x as f32)) as f64
                        };
                        hi = hi.max(x);
                        lo = lo.min(x);
                    }
                    assert_eq!(sum.get(&[p, q]), round_to(dtype, s), "{dtype:?} dim {dim}");
                    let mut kidx = [0i64; 3];
                    kidx[others[0]] = p;
                    kidx[others[1]] = q;
                    assert_eq!(max.get(&kidx), hi);
                    assert_eq!(min.get(&[p, q]), lo);
                }
            }
        }
    }
    let ints = Tensor::from_vec(i(8), &[2, 3], vec![100.0, 100.0, -100.0, 1.0, 2.0, 3.0]);
    assert_eq!(
        reduce(ReduceKind::Sum, &ints, 1, false).unwrap().data,
        [100.0, 6.0]
    );
    assert_eq!(
        reduce(ReduceKind::Sum, &ints, 0, true).unwrap().data,
        [101.0, 102.0, -97.0]
    );
    let b = Tensor::from_vec(i(1), &[2, 3], vec![0.0, 1.0, 0.0, 1.0, 1.0, 1.0]);
    assert_eq!(
        reduce(ReduceKind::Any, &b, 1, false).unwrap().data,
        [1.0, 1.0]
    );
    let all = reduce(ReduceKind::All, &b, 1, false).unwrap();
    assert_eq!(all.data, [0.0, 1.0]);
    assert_eq!(all.dtype, i(1));
    assert!(reduce(ReduceKind::Sum, &b, 2, false).is_err());
    let nan = Tensor::from_vec(DType::F32, &[3], vec![1.0, f64::NAN, 2.0]);
    assert!(reduce(ReduceKind::Max, &nan, 0, false).unwrap().data[0].is_nan());
    assert_eq!(
        reduce(ReduceKind::Sum, &nan, 0, false).unwrap().shape,
        Vec::<i64>::new()
    );
}

#[test]
fn matmul_acc_matches_loops() {
    let mut rng = Rng(2024);
    let (m, k, n) = (16i64, 40, 24);
    for in_dtype in [DType::F16, DType::BF16, DType::F8E4M3] {
        let a = rng.tensor(in_dtype, &[m, k]);
        let b = rng.tensor(in_dtype, &[k, n]);
        let c = rng.tensor(DType::F32, &[m, n]);
        let d = matmul_acc(&a, &b, &c).unwrap();
        assert_eq!(d.dtype, DType::F32);
        for r in 0..m {
            for q in 0..n {
                let mut acc = c.get(&[r, q]) as f32;
                for kk in 0..k {
                    let p = a.get(&[r, kk]) * b.get(&[kk, q]);
                    acc = (acc as f64 + p) as f32;
                }
                assert_eq!(d.get(&[r, q]), acc as f64, "{in_dtype:?} [{r}, {q}]");
            }
        }
    }
    // f16 accumulator: every addition rounds to f16.
    let a = rng.tensor(DType::F16, &[4, 8]);
    let b = rng.tensor(DType::F16, &[8, 4]);
    let c = Tensor::zeros(DType::F16, &[4, 4]);
    let d = matmul_acc(&a, &b, &c).unwrap();
    for r in 0..4 {
        for q in 0..4 {
            let mut acc = 0.0;
            for kk in 0..8 {
                acc = half::f16::from_f64(acc + a.get(&[r, kk]) * b.get(&[kk, q])).to_f64();
            }
            assert_eq!(d.get(&[r, q]), acc);
        }
    }
    // Integer MMA: i8 x i8 -> i32, exact.
    let a = Tensor::from_vec(i(8), &[1, 3], vec![-128.0, 127.0, 5.0]);
    let b = Tensor::from_vec(i(8), &[3, 1], vec![-128.0, 127.0, -3.0]);
    let c = Tensor::full(i(32), &[1, 1], 10.0);
    assert_eq!(
        matmul_acc(&a, &b, &c).unwrap().data,
        [16384.0 + 16129.0 - 15.0 + 10.0]
    );
    // A sum whose f64 rounding lands on an f32 tie: 2^30 + 128 + (64 - 2^-40) must stay at
    // 2^30 + 128 (the naive double rounding gives 2^30 + 256).
    let a = Tensor::from_vec(DType::F32, &[1, 1], vec![8.0 - p2(-20)]);
    let b = Tensor::from_vec(DType::F32, &[1, 1], vec![8.0 + p2(-20)]);
    let c = Tensor::from_vec(DType::F32, &[1, 1], vec![p2(30) + 128.0]);
    assert_eq!(matmul_acc(&a, &b, &c).unwrap().data, [p2(30) + 128.0]);
    let e = matmul_acc(&a, &Tensor::zeros(DType::F32, &[2, 1]), &c).unwrap_err();
    assert!(e.contains("[M, K]"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Global memory
// ---------------------------------------------------------------------------------------------

fn iota(dtype: DType, shape: &[i64]) -> Tensor {
    let n: i64 = shape.iter().product();
    Tensor::from_vec(dtype, shape, (1..=n).map(|v| v as f64).collect())
}

#[test]
fn global_box_loads() {
    let mut mem = GlobalMemory::default();
    let t = iota(DType::F32, &[6, 10]);
    let buf = mem.add("x", &t);
    assert_eq!(mem.buffers[buf].bytes.len(), 240);
    assert_eq!(mem.tensor(buf, &[6, 10]), t);
    let v = GlobalView {
        buffer: buf,
        dtype: DType::F32,
        shape: vec![6, 10],
        strides: vec![10, 1],
        offset: 0,
    };
    let inner = mem.load_box(&v, &[1, 2], &[2, 3]).unwrap();
    assert_eq!(inner.data, [13.0, 14.0, 15.0, 23.0, 24.0, 25.0]);
    // Partly outside the view: zeros there.
    let edge = mem.load_box(&v, &[4, 8], &[4, 4]).unwrap();
    assert_eq!(edge.shape, [4, 4]);
    for r in 0..4 {
        for c in 0..4 {
            let (gr, gc) = (4 + r, 8 + c);
            let want = if gr < 6 && gc < 10 {
                (gr * 10 + gc + 1) as f64
            } else {
                0.0
            };
            assert_eq!(edge.get(&[r, c]), want);
        }
    }
    let neg = mem.load_box(&v, &[-1, -1], &[2, 2]).unwrap();
    assert_eq!(neg.data, [0.0, 0.0, 0.0, 1.0]);
    // A transposed view with an offset: element [c, r] at 10 r + c + 1.
    let vt = GlobalView {
        buffer: buf,
        dtype: DType::F32,
        shape: vec![9, 6],
        strides: vec![1, 10],
        offset: 1,
    };
    let tt = mem.load_box(&vt, &[0, 0], &[2, 2]).unwrap();
    assert_eq!(tt.data, [2.0, 12.0, 3.0, 13.0]);
}

#[test]
fn global_out_of_buffer() {
    let mut mem = GlobalMemory::default();
    let buf = mem.add("a_ptr", &iota(DType::F16, &[6, 10]));
    // The kernel believes the tensor has 8 rows.
    let v = GlobalView {
        buffer: buf,
        dtype: DType::F16,
        shape: vec![8, 10],
        strides: vec![10, 1],
        offset: 0,
    };
    assert!(mem.load_box(&v, &[0, 0], &[6, 10]).is_ok());
    let e = mem.load_box(&v, &[4, 0], &[4, 10]).unwrap_err();
    let MemError::OutOfBounds { what } = &e else {
        panic!("{e:?}")
    };
    assert!(what.contains("'a_ptr'"), "{what}");
    assert!(what.contains("[6, 0]"), "names the index: {what}");
    assert!(what.contains("120 bytes"), "names the size: {what}");
    assert!(e.to_string().contains("out-of-bounds"));
    // Stores: outside the view skipped, outside the buffer an error with nothing written.
    let before = mem.buffers[buf].bytes.clone();
    let ones = Tensor::full(DType::F16, &[4, 4], 1.0);
    assert!(mem.store_box(&v, &[4, 0], &ones).is_err());
    assert_eq!(mem.buffers[buf].bytes, before);
    let v6 = GlobalView {
        shape: vec![6, 10],
        ..v.clone()
    };
    mem.store_box(&v6, &[4, 8], &ones).unwrap();
    let after = mem.tensor(buf, &[6, 10]);
    for r in 0..6 {
        for c in 0..10 {
            let want = if r >= 4 && c >= 8 {
                1.0
            } else {
                (r * 10 + c + 1) as f64
            };
            assert_eq!(after.get(&[r, c]), want);
        }
    }
    // A negative address and a missing buffer.
    let vn = GlobalView {
        offset: -1,
        ..v6.clone()
    };
    assert!(mem.load_box(&vn, &[0, 0], &[1, 1]).is_err());
    let vm = GlobalView {
        buffer: 7,
        ..v6.clone()
    };
    assert!(mem.load_box(&vm, &[0, 0], &[1, 1]).is_err());
    assert!(mem.load_box(&v6, &[0], &[1]).is_err(), "rank mismatch");
    // A store rounds into the view's dtype.
    let f = Tensor::full(DType::F32, &[1, 1], 1.0 + p2(-11));
    mem.store_box(&v6, &[0, 0], &f).unwrap();
    assert_eq!(mem.load_box(&v6, &[0, 0], &[1, 1]).unwrap().data, [1.0]);
}

// ---------------------------------------------------------------------------------------------
// Shared memory
// ---------------------------------------------------------------------------------------------

#[test]
fn shared_swizzled_tile() {
    let mut smem = SharedMemory::new(232448);
    let _pad = smem.alloc(100, 128).unwrap();
    let layout = SharedLayout::row_major(&[128, 64])
        .with_swizzle_mode(SwizzleMode::B128, 16)
        .unwrap();
    let base = smem.alloc(128 * 64 * 2, 1024).unwrap();
    assert_eq!(base, 1024);
    let v = SharedView {
        base,
        dtype: DType::F16,
        layout: layout.clone(),
    };
    let mut rng = Rng(31337);
    let t = rng.tensor(DType::F16, &[128, 64]);
    smem.write(&v, &t).unwrap();
    assert_eq!(smem.read(&v).unwrap(), t);
    for r in 0..128i64 {
        for c in 0..64i64 {
            // Spec §3.2: off(r, c) = 64 r + 8 ((c >> 3) ^ (r & 7)) + (c & 7) elements.
            let off = 64 * r + 8 * ((c >> 3) ^ (r & 7)) + (c & 7);
            let p = (base + 2 * off) as usize;
            assert_eq!(decode(DType::F16, &smem.bytes[p..p + 2]), t.get(&[r, c]));
            // TMA's byte form: bits [4, 7) ^= bits [7, 10) of the row-major byte offset.
            let o = 128 * r + 2 * c;
            let sw = o ^ (((o >> 7) & 7) << 4);
            assert_eq!(base + sw, p as i64);
        }
    }
    assert_eq!(SharedMemory::byte_range(&v), base..base + 16384);
    // A slice (the lower half) reads the same elements.
    let half = SharedView {
        layout: layout.slice(&[64, 8], &[64, 56]),
        ..v.clone()
    };
    let h = smem.read(&half).unwrap();
    for r in 0..64 {
        for c in 0..56 {
            assert_eq!(h.get(&[r, c]), t.get(&[64 + r, 8 + c]));
        }
    }
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for r in 64..128i64 {
        for c in 8..64i64 {
            let off = 64 * r + 8 * ((c >> 3) ^ (r & 7)) + (c & 7);
            lo = lo.min(off);
            hi = hi.max(off);
        }
    }
    assert_eq!(
        SharedMemory::byte_range(&half),
        base + 2 * lo..base + 2 * (hi + 1)
    );
    // A transposed view of the same bytes.
    let tv = SharedView {
        layout: layout.permute(&[1, 0]),
        ..v.clone()
    };
    let tt = smem.read(&tv).unwrap();
    assert_eq!(tt.get(&[5, 100]), t.get(&[100, 5]));
    // A stage dim in front: [2, 128, 64] with stride 8192 elements.
    let staged = SharedLayout::strided(&[2, 128, 64], &[8192, 64, 1])
        .with_swizzle_mode(SwizzleMode::B128, 16)
        .unwrap();
    let sv = SharedView {
        base,
        dtype: DType::F16,
        layout: staged,
    };
    assert_eq!(SharedMemory::byte_range(&sv), base..base + 2 * 16384);
}

#[test]
fn shared_bounds_and_alignment() {
    let mut smem = SharedMemory::new(4096);
    let v = SharedView {
        base: 2048,
        dtype: DType::F32,
        layout: SharedLayout::row_major(&[16, 64]),
    };
    let e = smem.read(&v).unwrap_err();
    let MemError::OutOfBounds { what } = &e else {
        panic!("{e:?}")
    };
    assert!(
        what.contains("4096 bytes") && what.contains("[8, 0]"),
        "{what}"
    );
    let ok = SharedView {
        layout: SharedLayout::row_major(&[8, 64]),
        ..v.clone()
    };
    smem.write(&ok, &Tensor::full(DType::F32, &[8, 64], 2.5))
        .unwrap();
    assert!(smem
        .write(&ok, &Tensor::zeros(DType::F32, &[8, 8]))
        .is_err());
    let before = smem.bytes.clone();
    assert!(smem
        .write(&v, &Tensor::zeros(DType::F32, &[16, 64]))
        .is_err());
    assert_eq!(smem.bytes, before, "a failed write writes nothing");
    let odd = SharedView {
        base: 2,
        ..ok.clone()
    };
    assert!(matches!(smem.read(&odd), Err(MemError::Misaligned { .. })));
    assert_eq!(SharedMemory::byte_range(&ok), 2048..4096);
    let col = SharedView {
        base: 0,
        dtype: DType::F16,
        layout: SharedLayout::strided(&[4, 4], &[1, 16]),
    };
    assert_eq!(SharedMemory::byte_range(&col), 0..2 * 52);
}

#[test]
fn shared_alloc_first_fit() {
    let mut smem = SharedMemory::new(4096);
    let a = smem.alloc(100, 128).unwrap();
    let b = smem.alloc(100, 128).unwrap();
    let c = smem.alloc(1000, 1024).unwrap();
    assert_eq!((a, b, c), (0, 128, 1024));
    smem.free(a);
    assert_eq!(smem.alloc(64, 16).unwrap(), 0, "first fit reuses the hole");
    assert_eq!(smem.alloc(64, 16).unwrap(), 64);
    assert_eq!(smem.alloc(200, 128).unwrap(), 256, "the hole after b");
    assert_eq!(smem.alloc(2048, 1024).unwrap(), 2048);
    let e = smem.alloc(1000, 1).unwrap_err();
    assert_eq!(
        e,
        MemError::OutOfSharedMemory {
            need: 1000,
            have: 568
        }
    );
    assert!(e.to_string().contains("1000 bytes"));
    assert!(matches!(smem.alloc(8, 3), Err(MemError::Misaligned { .. })));
    smem.free(2048);
    smem.free(12345); // not allocated: ignored
    assert_eq!(smem.allocations().len(), 5);
    assert_eq!(
        smem.alloc(3000, 1).unwrap_err(),
        MemError::OutOfSharedMemory {
            need: 3000,
            have: 2072
        }
    );
    assert_eq!(smem.alloc(2048, 1024).unwrap(), 2048);
}
