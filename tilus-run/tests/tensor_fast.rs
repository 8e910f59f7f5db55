//! The fast paths of the tile math give the same bits as the generic f64 paths they replace
//! (issue 19). Each test runs an op twice on the same values: once with dtypes that take the
//! fast path and once with operands relabelled as f32 (the same values, so the same exact
//! result), which takes the generic path.

use tilus_run::tensor::{matmul_acc, DType, Tensor};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value spread over many binades, with exact zeros of both signs now and then.
    fn value(&mut self, span: i32) -> f64 {
        let r = self.next();
        match r % 17 {
            0 => 0.0,
            1 => -0.0,
            _ => {
                let mant = 1.0 + (r >> 11) as f64 / (1u64 << 53) as f64;
                let e = ((r >> 3) % (2 * span as u64 + 1)) as i32 - span;
                let sign = if r & 4 == 0 { 1.0 } else { -1.0 };
                sign * mant * 2f64.powi(e)
            }
        }
    }

    fn tensor(&mut self, dtype: DType, shape: &[i64], span: i32) -> Tensor {
        let n = shape.iter().product::<i64>() as usize;
        Tensor::from_vec(dtype, shape, (0..n).map(|_| self.value(span)).collect())
    }
}

fn relabel(t: &Tensor, dtype: DType) -> Tensor {
    Tensor {
        dtype,
        shape: t.shape.clone(),
        data: t.data.clone(),
    }
}

fn same_bits(x: &Tensor, y: &Tensor) {
    assert_eq!(x.shape, y.shape);
    assert_eq!(x.dtype, y.dtype);
    for (i, (a, b)) in x.data.iter().zip(&y.data).enumerate() {
        assert_eq!(a.to_bits(), b.to_bits(), "element {i}: {a:e} vs {b:e}");
    }
}

fn check_mma(dtype: DType, span: i32, acc_span: i32, seed: u64) {
    let mut g = Gen(seed);
    let (m, k, n) = (7, 37, 19);
    let a = g.tensor(dtype, &[m, k], span);
    let b = g.tensor(dtype, &[k, n], span);
    let c = g.tensor(DType::F32, &[m, n], acc_span);
    let fast = matmul_acc(&a, &b, &c).unwrap();
    let generic = matmul_acc(&relabel(&a, DType::F32), &relabel(&b, DType::F32), &c).unwrap();
    same_bits(&fast, &generic);
}

#[test]
fn f16_mma_into_f32_matches_the_generic_path() {
    for seed in 1..40 {
        check_mma(DType::F16, 14, 20, seed);
        check_mma(DType::F16, 3, 3, seed);
    }
}

#[test]
fn bf16_and_fp8_mma_into_f32_match_the_generic_path() {
    for seed in 1..40 {
        // Small exponents: the f32 path; large ones overflow or underflow f32 products, so the
        // same call falls back to the generic path and must still agree.
        check_mma(DType::BF16, 10, 10, seed);
        check_mma(DType::BF16, 120, 100, seed);
        check_mma(DType::F8E4M3, 6, 6, seed);
        check_mma(DType::TF32, 60, 60, seed);
    }
}

#[test]
fn f32_accumulation_that_overflows_matches_the_generic_path() {
    let big = Tensor::from_vec(DType::F16, &[1, 4], vec![65504.0; 4]);
    let b = Tensor::from_vec(DType::F16, &[4, 2], vec![65504.0; 8]);
    let c = Tensor::from_vec(DType::F32, &[1, 2], vec![3.0e38, -3.0e38]);
    let fast = matmul_acc(&big, &b, &c).unwrap();
    let generic = matmul_acc(&relabel(&big, DType::F32), &relabel(&b, DType::F32), &c).unwrap();
    same_bits(&fast, &generic);
}

/// Elementwise binary ops on broadcast operands (the row walk of `tensor::binary`), unary ops
/// and float casts give element for element what the definition says: `round_to(dtype, x op
/// y)` of the broadcast elements, `round_to(dtype, f(x))`, `round_to(to, x)`.
#[test]
fn broadcast_binary_unary_and_casts_match_the_definition() {
    use tilus_run::tensor::{binary, cast, round_to, unary, BinOp, UnOp};
    let mut g = Gen(0x5eed_0019);
    let shapes: [(&[i64], &[i64]); 5] = [
        (&[4, 16], &[4, 1]),
        (&[4, 16], &[1, 16]),
        (&[3, 1, 5], &[4, 1]),
        (&[16], &[2, 3, 1]),
        (&[2, 8], &[2, 8]),
    ];
    let ops = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Mod,
        BinOp::Max,
        BinOp::Min,
    ];
    for dtype in [DType::F32, DType::F16, DType::BF16, DType::F64] {
        for (sa, sb) in shapes {
            let a = g.tensor(dtype, sa, 20);
            let b = g.tensor(dtype, sb, 20);
            for op in ops {
                let got = binary(op, &a, &b).expect("same dtypes");
                let r = got.shape.len();
                let pad = |s: &[i64]| {
                    let mut v = vec![1i64; r - s.len()];
                    v.extend_from_slice(s);
                    v
                };
                let (pa, pb) = (pad(sa), pad(sb));
                let pick = |t: &Tensor, p: &[i64], idx: &[i64]| {
                    let i: Vec<i64> = idx
                        .iter()
                        .zip(p)
                        .map(|(&x, &e)| if e == 1 { 0 } else { x })
                        .collect();
                    t.get(&i[r - t.shape.len()..])
                };
                for e in 0..got.numel() {
                    let mut idx = vec![0i64; r];
                    let mut rest = e as i64;
                    for d in (0..r).rev() {
                        idx[d] = rest % got.shape[d];
                        rest /= got.shape[d];
                    }
                    let (x, y) = (pick(&a, &pa, &idx), pick(&b, &pb, &idx));
                    let exact = match op {
                        BinOp::Add => x + y,
                        BinOp::Sub => x - y,
                        BinOp::Mul => x * y,
                        BinOp::Div => x / y,
                        BinOp::Mod => x % y,
                        BinOp::Max if x.is_nan() || y.is_nan() => f64::NAN,
                        BinOp::Max => x.max(y),
                        BinOp::Min if x.is_nan() || y.is_nan() => f64::NAN,
                        BinOp::Min => x.min(y),
                    };
                    let want = round_to(dtype, exact);
                    let have = got.data[e];
                    assert!(
                        have.to_bits() == want.to_bits() || (have.is_nan() && want.is_nan()),
                        "{op:?} {} {sa:?} {sb:?} at {idx:?}: {have} vs {want}",
                        dtype.name()
                    );
                }
            }
            for op in [UnOp::Exp, UnOp::Sqrt, UnOp::Tanh, UnOp::Neg] {
                let got = unary(op, &a).expect("a float tile");
                for (i, &x) in a.data.iter().enumerate() {
                    let f = match op {
                        UnOp::Exp => x.exp(),
                        UnOp::Sqrt => x.sqrt(),
                        UnOp::Tanh => x.tanh(),
                        _ => -x,
                    };
                    let want = round_to(dtype, f);
                    let have = got.data[i];
                    assert!(have.to_bits() == want.to_bits() || (have.is_nan() && want.is_nan()));
                }
            }
            for to in [DType::F32, DType::F16, DType::BF16] {
                let got = cast(&a, to);
                for (i, &x) in a.data.iter().enumerate() {
                    assert_eq!(got.data[i].to_bits(), round_to(to, x).to_bits());
                }
            }
        }
    }
}
