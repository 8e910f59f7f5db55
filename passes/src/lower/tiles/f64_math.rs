//! `exp`, `exp2`, `log` and `tanh` on f64 tiles, as PTX sequences of correctly rounded f64
//! arithmetic: PTX's transcendental instructions (`ex2.approx`, `lg2.approx`, `tanh.approx`)
//! exist for f32 only, and an f32 detour would keep 24 of the 53 bits that the interpreter's
//! (Rust's) f64 functions give. Each function is one `ptx.asm` block per register, `$1` the
//! argument and `$0` the result, with its own scoped registers.
//!
//! The methods are the textbook ones, accurate to a few units in the last place:
//! * `exp(x)`: `k = rint(x / ln 2)`, `r = x - k ln 2` with ln 2 split in two (Cody and Waite),
//!   so `|r| <= ln 2 / 2`; `e^r` by its Taylor polynomial to degree 13 (the next term is below
//!   2^-58 of the result); times `2^k` as two factors `2^(k/2)` and `2^(k - k/2)`, so that
//!   results that overflow or fall into the subnormals round once, as a single multiply would.
//! * `exp2(x)`: `k = rint(x)`, `r = (x - k) ln 2` (the subtraction is exact), then as `exp`.
//! * `log(x)`: `x = m 2^e` with `m` in `[sqrt(1/2), sqrt(2))` (subnormals scaled by 2^54
//!   first), `s = (m - 1) / (m + 1)` (`m - 1` is exact), `log m = 2 atanh s = 2s + 2s (s^2/3 +
//!   s^4/5 + ...)` to `s^24/25` (`s^2 <= 0.0295`), plus `e ln 2` in two parts.
//! * `tanh(x)`: `t = expm1(2|x|)` (its Taylor polynomial to degree 20 below 2|x| = 1.25, where
//!   `exp(2|x|) - 1` would cancel; `exp` above), `tanh |x| = t / (t + 2)`, the sign copied
//!   from `x`; `|x|` is clamped at 22, where the result rounds to 1.
//!
//! Infinities, NaN, zeros of either sign and negative `log` arguments give what IEEE 754 and
//! Rust's functions give (tested on the GPU against the interpreter, docs/perf.md).

use std::fmt::Write;

/// A PTX f64 immediate, written as its bit pattern (exact, unlike a decimal literal).
fn d(x: f64) -> String {
    format!("0d{:016X}", x.to_bits())
}

/// `ln 2` split so that `k * LN2_HI` is exact for `|k| < 2^21` (fdlibm's split).
const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
const LN2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);

/// Horner's rule for `sum c[i] * v^i` into register `acc`, highest degree first.
fn horner(s: &mut String, acc: &str, v: &str, coeffs: &[f64]) {
    let n = coeffs.len();
    let _ = writeln!(s, "mov.f64 {acc}, {};", d(coeffs[n - 1]));
    for c in coeffs[..n - 1].iter().rev() {
        let _ = writeln!(s, "fma.rn.f64 {acc}, {acc}, {v}, {};", d(*c));
    }
}

/// `1 / i!` for `i` in `0..=n`.
fn taylor_exp(n: usize) -> Vec<f64> {
    let mut c = vec![1.0f64];
    let mut f = 1.0f64;
    for i in 1..=n {
        f *= i as f64;
        c.push(1.0 / f);
    }
    c
}

/// `e^r * 2^k` into `out`, from `r` (reduced, `|r| <= 0.35`) and `kd` (an integral f64 with
/// `|k| <= 1200`). Uses registers `%fm_p`, `%fm_s1`, `%fm_s2`, `%fm_k*`, `%fm_b*`.
fn exp_tail(s: &mut String, r: &str, kd: &str, out: &str) {
    horner(s, "%fm_p", r, &taylor_exp(13));
    s.push_str(
        "cvt.rzi.s32.f64 %fm_k, KD;\n\
         shr.s32 %fm_k1, %fm_k, 1;\n\
         sub.s32 %fm_k2, %fm_k, %fm_k1;\n\
         add.s32 %fm_k1, %fm_k1, 1023;\n\
         add.s32 %fm_k2, %fm_k2, 1023;\n\
         cvt.u64.u32 %fm_b1, %fm_k1;\n\
         cvt.u64.u32 %fm_b2, %fm_k2;\n\
         shl.b64 %fm_b1, %fm_b1, 52;\n\
         shl.b64 %fm_b2, %fm_b2, 52;\n\
         mov.b64 %fm_s1, %fm_b1;\n\
         mov.b64 %fm_s2, %fm_b2;\n\
         mul.rn.f64 %fm_p, %fm_p, %fm_s1;\n"
            .replace("KD", kd)
            .as_str(),
    );
    let _ = writeln!(s, "mul.rn.f64 {out}, %fm_p, %fm_s2;");
}

const EXP_REGS: &str = ".reg .f64 %fm_x, %fm_t, %fm_kd, %fm_r, %fm_p, %fm_s1, %fm_s2;\n\
                        .reg .s32 %fm_k, %fm_k1, %fm_k2;\n\
                        .reg .u64 %fm_b1, %fm_b2;\n\
                        .reg .pred %fm_nan;\n";

/// `e^x` of register `x` into register `out` (the `EXP_REGS` registers must be declared).
fn exp_body(s: &mut String, x: &str, out: &str) {
    let _ = writeln!(s, "max.f64 %fm_x, {x}, {};", d(-800.0));
    let _ = writeln!(s, "min.f64 %fm_x, %fm_x, {};", d(800.0));
    let _ = writeln!(
        s,
        "mul.rn.f64 %fm_t, %fm_x, {};",
        d(std::f64::consts::LOG2_E)
    );
    s.push_str("cvt.rni.f64.f64 %fm_kd, %fm_t;\n");
    let _ = writeln!(s, "fma.rn.f64 %fm_r, %fm_kd, {}, %fm_x;", d(-LN2_HI));
    let _ = writeln!(s, "fma.rn.f64 %fm_r, %fm_kd, {}, %fm_r;", d(-LN2_LO));
    exp_tail(s, "%fm_r", "%fm_kd", out);
}

/// The `ptx.asm` text of `exp` on an f64 register.
pub(super) fn exp() -> String {
    let mut s = String::from("{\n");
    s.push_str(EXP_REGS);
    exp_body(&mut s, "$1", "%fm_t");
    s.push_str("setp.nan.f64 %fm_nan, $1, $1;\nselp.f64 $0, $1, %fm_t, %fm_nan;\n}");
    s
}

/// The `ptx.asm` text of `exp2` on an f64 register.
pub(super) fn exp2() -> String {
    let mut s = String::from("{\n");
    s.push_str(EXP_REGS);
    let _ = writeln!(s, "max.f64 %fm_x, $1, {};", d(-1100.0));
    let _ = writeln!(s, "min.f64 %fm_x, %fm_x, {};", d(1100.0));
    s.push_str("cvt.rni.f64.f64 %fm_kd, %fm_x;\nsub.rn.f64 %fm_r, %fm_x, %fm_kd;\n");
    let _ = writeln!(s, "mul.rn.f64 %fm_r, %fm_r, {};", d(std::f64::consts::LN_2));
    exp_tail(&mut s, "%fm_r", "%fm_kd", "%fm_t");
    s.push_str("setp.nan.f64 %fm_nan, $1, $1;\nselp.f64 $0, $1, %fm_t, %fm_nan;\n}");
    s
}

/// The `ptx.asm` text of `log` on an f64 register.
pub(super) fn log() -> String {
    let mut s = String::from(
        "{\n\
         .reg .f64 %fm_x, %fm_m, %fm_f, %fm_s, %fm_z, %fm_p, %fm_ed, %fm_r;\n\
         .reg .u64 %fm_b;\n\
         .reg .u32 %fm_eu;\n\
         .reg .s32 %fm_e;\n\
         .reg .pred %fm_sub, %fm_big, %fm_q;\n\
         mov.f64 %fm_x, $1;\n",
    );
    let _ = writeln!(s, "setp.lt.f64 %fm_sub, %fm_x, {};", d(f64::MIN_POSITIVE));
    let _ = writeln!(s, "@%fm_sub mul.rn.f64 %fm_x, %fm_x, {};", d(2f64.powi(54)));
    s.push_str(
        "mov.b64 %fm_b, %fm_x;\n\
         shr.u64 %fm_b, %fm_b, 52;\n\
         cvt.u32.u64 %fm_eu, %fm_b;\n\
         and.b32 %fm_eu, %fm_eu, 2047;\n\
         cvt.s32.u32 %fm_e, %fm_eu;\n\
         sub.s32 %fm_e, %fm_e, 1023;\n\
         @%fm_sub sub.s32 %fm_e, %fm_e, 54;\n\
         mov.b64 %fm_b, %fm_x;\n\
         and.b64 %fm_b, %fm_b, 0x000FFFFFFFFFFFFF;\n\
         or.b64 %fm_b, %fm_b, 0x3FF0000000000000;\n\
         mov.b64 %fm_m, %fm_b;\n",
    );
    let _ = writeln!(
        s,
        "setp.gt.f64 %fm_big, %fm_m, {};",
        d(std::f64::consts::SQRT_2)
    );
    let _ = writeln!(s, "@%fm_big mul.rn.f64 %fm_m, %fm_m, {};", d(0.5));
    s.push_str("@%fm_big add.s32 %fm_e, %fm_e, 1;\n");
    let _ = writeln!(s, "sub.rn.f64 %fm_f, %fm_m, {};", d(1.0));
    let _ = writeln!(s, "add.rn.f64 %fm_s, %fm_m, {};", d(1.0));
    s.push_str("div.rn.f64 %fm_s, %fm_f, %fm_s;\nmul.rn.f64 %fm_z, %fm_s, %fm_s;\n");
    // s^2/3 + s^4/5 + ... + s^24/25 = z (1/3 + z/5 + ...).
    let coeffs: Vec<f64> = (1..=12).map(|n| 1.0 / (2 * n + 1) as f64).collect();
    horner(&mut s, "%fm_p", "%fm_z", &coeffs);
    s.push_str(
        "mul.rn.f64 %fm_p, %fm_p, %fm_z;\n\
         add.rn.f64 %fm_s, %fm_s, %fm_s;\n\
         fma.rn.f64 %fm_r, %fm_s, %fm_p, %fm_s;\n\
         cvt.rn.f64.s32 %fm_ed, %fm_e;\n",
    );
    let _ = writeln!(s, "fma.rn.f64 %fm_r, %fm_ed, {}, %fm_r;", d(LN2_LO));
    let _ = writeln!(s, "fma.rn.f64 %fm_r, %fm_ed, {}, %fm_r;", d(LN2_HI));
    // log(+inf) = +inf, log(+-0) = -inf, log(x < 0) = NaN, log(NaN) = NaN.
    let _ = writeln!(s, "setp.eq.f64 %fm_q, $1, {};", d(f64::INFINITY));
    s.push_str("selp.f64 %fm_r, $1, %fm_r, %fm_q;\n");
    let _ = writeln!(s, "setp.eq.f64 %fm_q, $1, {};", d(0.0));
    let _ = writeln!(s, "selp.f64 %fm_r, {}, %fm_r, %fm_q;", d(f64::NEG_INFINITY));
    let _ = writeln!(s, "setp.lt.f64 %fm_q, $1, {};", d(0.0));
    let _ = writeln!(s, "selp.f64 %fm_r, {}, %fm_r, %fm_q;", d(f64::NAN));
    s.push_str("setp.nan.f64 %fm_q, $1, $1;\nselp.f64 $0, $1, %fm_r, %fm_q;\n}");
    s
}

/// The `ptx.asm` text of `tanh` on an f64 register.
pub(super) fn tanh() -> String {
    let mut s = String::from("{\n");
    s.push_str(EXP_REGS);
    s.push_str(
        ".reg .f64 %fm_a, %fm_y, %fm_e1, %fm_e2, %fm_q;\n\
         .reg .pred %fm_small;\n\
         abs.f64 %fm_a, $1;\n",
    );
    let _ = writeln!(s, "min.f64 %fm_a, %fm_a, {};", d(22.0));
    s.push_str("add.rn.f64 %fm_y, %fm_a, %fm_a;\n");
    exp_body(&mut s, "%fm_y", "%fm_e1");
    let _ = writeln!(s, "sub.rn.f64 %fm_e1, %fm_e1, {};", d(1.0));
    // expm1(y) = y (1 + y/2! + ... + y^19/20!) below 1.25.
    let c: Vec<f64> = taylor_exp(20)[1..].to_vec();
    horner(&mut s, "%fm_e2", "%fm_y", &c);
    s.push_str("mul.rn.f64 %fm_e2, %fm_e2, %fm_y;\n");
    let _ = writeln!(s, "setp.lt.f64 %fm_small, %fm_y, {};", d(1.25));
    s.push_str("selp.f64 %fm_e1, %fm_e2, %fm_e1, %fm_small;\n");
    let _ = writeln!(s, "add.rn.f64 %fm_q, %fm_e1, {};", d(2.0));
    s.push_str(
        "div.rn.f64 %fm_q, %fm_e1, %fm_q;\n\
         copysign.f64 %fm_q, $1, %fm_q;\n\
         setp.nan.f64 %fm_nan, $1, $1;\n\
         selp.f64 $0, $1, %fm_q, %fm_nan;\n}",
    );
    s
}

#[cfg(test)]
mod tests {
    /// Each block declares every register it names, so ptxas sees no undeclared name (the
    /// assembly itself is checked by the ptxas tests of `test/lower/f64-math.mlir`).
    #[test]
    fn every_register_is_declared() {
        for (name, text) in [
            ("exp", super::exp()),
            ("exp2", super::exp2()),
            ("log", super::log()),
            ("tanh", super::tanh()),
        ] {
            let declared: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with(".reg"))
                .flat_map(|l| {
                    let l = l.trim_end_matches(';');
                    let names = l.split_once(' ').unwrap().1;
                    let names = names.split_once(' ').unwrap().1;
                    names.split(", ").collect::<Vec<_>>()
                })
                .collect();
            for w in text.split(|c: char| !(c.is_alphanumeric() || c == '%' || c == '_')) {
                if w.starts_with("%fm_") {
                    assert!(declared.contains(&w), "{name}: {w} not declared");
                }
            }
        }
    }
}
