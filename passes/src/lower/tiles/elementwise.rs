//! Element-wise and unary tile ops: one scalar `arith` or `ptx.inst` per register, casts, and
//! the approximate math functions.

use super::*;

/// The element-wise binary tile ops (`tilus.add` ... `tilus.where`), as `lower-tiles` builds
/// them per register; reductions combine partials with `Add`, `Maximum` and `Minimum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Maximum,
    Minimum,
    Cmp,
    Where,
}

/// The unary tile ops (`tilus.exp` ... `tilus.cast`): the math functions, negation, absolute
/// value and the element-type conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unary {
    Exp,
    Exp2,
    Log,
    Sqrt,
    Rsqrt,
    Tanh,
    Neg,
    Abs,
    Cast,
}

impl Binary {
    /// The binary op a tilus op kind is, if it is one.
    pub(super) fn of(k: &TilusOpKind) -> Option<Binary> {
        use TilusOpKind as K;
        Some(match k {
            K::Add(_) => Binary::Add,
            K::Sub(_) => Binary::Sub,
            K::Mul(_) => Binary::Mul,
            K::Div(_) => Binary::Div,
            K::Mod(_) => Binary::Mod,
            K::Maximum(_) => Binary::Maximum,
            K::Minimum(_) => Binary::Minimum,
            K::Cmp(_) => Binary::Cmp,
            K::Where(_) => Binary::Where,
            _ => return None,
        })
    }
}

impl Unary {
    /// The unary op a tilus op kind is, if it is one.
    pub(super) fn of(k: &TilusOpKind) -> Option<Unary> {
        use TilusOpKind as K;
        Some(match k {
            K::Exp(_) => Unary::Exp,
            K::Exp2(_) => Unary::Exp2,
            K::Log(_) => Unary::Log,
            K::Sqrt(_) => Unary::Sqrt,
            K::Rsqrt(_) => Unary::Rsqrt,
            K::Tanh(_) => Unary::Tanh,
            K::Neg(_) => Unary::Neg,
            K::Abs(_) => Unary::Abs,
            K::Cast(_) => Unary::Cast,
            _ => return None,
        })
    }
}

/// Messages name the op as it is written without its `tilus.` prefix (`maximum`, `exp2`).
impl std::fmt::Display for Binary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", format!("{self:?}").to_lowercase())
    }
}

impl std::fmt::Display for Unary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", format!("{self:?}").to_lowercase())
    }
}

impl Lowering {
    pub(super) fn elementwise(&mut self, ctx: &mut Context, o: OpId, kind: Binary) -> R<()> {
        let r = ctx.results(o)[0];
        let lt = Self::result_layout(ctx, o, r)?;
        let args = ctx.operands(o).to_vec();
        let ins: Vec<Vec<Value>> = args
            .iter()
            .map(|a| self.gather(ctx, *a, &lt))
            .collect::<R<_>>()?;
        let dt = ty_of(ctx, args[args.len() - 1]).ok_or("bad type")?.dtype;
        let pred = prop_i64(ctx, o, "predicate").unwrap_or(0);
        let n = lt.local_size() as usize;
        let all_splat = args.iter().all(|a| self.tiles[a].splat.is_some());
        let before_o = ctx.prev_op(o);
        let mut b = before(ctx, o);
        let vals = map_cached(
            (0..n).map(|l| ins.iter().map(|v| v[l]).collect::<Vec<_>>()),
            |k| scalar_binary(&mut b, kind, k, dt, pred),
        )?;
        self.sink_made(ctx, o, before_o);
        self.set_tile(r, vals, lt, all_splat);
        Ok(())
    }

    pub(super) fn unary(&mut self, ctx: &mut Context, o: OpId, kind: Unary) -> R<()> {
        let r = ctx.results(o)[0];
        let x = ctx.operands(o)[0];
        let src = ty_of(ctx, x).ok_or("bad type")?.dtype;
        let dst = ty_of(ctx, r).ok_or("bad type")?.dtype;
        let lt = match ty_of(ctx, r).and_then(|t| t.register_layout()) {
            Some(l) => l,
            None => self.tile(x)?.layout.clone(),
        };
        let ins = self.gather(ctx, x, &lt)?;
        let splat = self.tile(x)?.splat.is_some();
        let before_o = ctx.prev_op(o);
        let mut b = before(ctx, o);
        let vals = map_cached(ins, |&v| {
            if kind == Unary::Cast {
                scalar_cast(&mut b, v, src, dst)
            } else {
                scalar_unary(&mut b, kind, v, src)
            }
        })?;
        self.sink_made(ctx, o, before_o);
        self.set_tile(r, vals, lt, splat);
        Ok(())
    }
}

pub(super) fn zero_of(b: &mut OpBuilder<'_>, t: Type) -> Value {
    match b.ctx().type_kind(t).clone() {
        TypeKind::Float(_) => b.cfloat_bits(t, 0),
        _ => b.cint(t, 0),
    }
}

fn float_kind(d: DType) -> Option<FloatKind> {
    Some(match d {
        DType::F16 => FloatKind::F16,
        DType::BF16 => FloatKind::BF16,
        DType::F32 => FloatKind::F32,
        DType::F64 => FloatKind::F64,
        _ => return None,
    })
}

/// One element of a binary op.
pub(super) fn scalar_binary(
    b: &mut OpBuilder<'_>,
    kind: Binary,
    a: &[Value],
    dt: DType,
    pred: i64,
) -> R<Value> {
    if let DType::Int {
        bits: 8,
        signedness,
    } = dt
    {
        if !matches!(kind, Binary::Where) {
            // PTX has no 8-bit arithmetic: in 32 bits (extended by the type's signedness),
            // narrowed back (a comparison's i1 as it is).
            let wide = DType::Int {
                bits: 32,
                signedness,
            };
            let xs = a
                .iter()
                .map(|&v| scalar_cast(b, v, dt, wide))
                .collect::<R<Vec<Value>>>()?;
            let r = scalar_binary(b, kind, &xs, wide, pred)?;
            return if matches!(kind, Binary::Cmp) {
                Ok(r)
            } else {
                scalar_cast(b, r, wide, dt)
            };
        }
    }
    let float = float_kind(dt).is_some();
    let unsigned = matches!(
        dt,
        DType::Int {
            signedness: tilus_ir::types::Signedness::Unsigned,
            ..
        }
    );
    enum Bin {
        I(IntBinOp),
        F(FloatBinOp),
    }
    let op = match (kind, float) {
        (Binary::Add, true) => Bin::F(FloatBinOp::AddF),
        (Binary::Add, false) => Bin::I(IntBinOp::AddI),
        (Binary::Sub, true) => Bin::F(FloatBinOp::SubF),
        (Binary::Sub, false) => Bin::I(IntBinOp::SubI),
        (Binary::Mul, true) => Bin::F(FloatBinOp::MulF),
        (Binary::Mul, false) => Bin::I(IntBinOp::MulI),
        (Binary::Div, true) => Bin::F(FloatBinOp::DivF),
        (Binary::Div, false) => {
            if unsigned {
                Bin::I(IntBinOp::DivUI)
            } else {
                Bin::I(IntBinOp::DivSI)
            }
        }
        (Binary::Mod, false) => {
            if unsigned {
                Bin::I(IntBinOp::RemUI)
            } else {
                Bin::I(IntBinOp::RemSI)
            }
        }
        (Binary::Maximum, true) => Bin::F(FloatBinOp::MaximumF),
        (Binary::Maximum, false) => {
            if unsigned {
                Bin::I(IntBinOp::MaxUI)
            } else {
                Bin::I(IntBinOp::MaxSI)
            }
        }
        (Binary::Minimum, true) => Bin::F(FloatBinOp::MinimumF),
        (Binary::Minimum, false) => {
            if unsigned {
                Bin::I(IntBinOp::MinUI)
            } else {
                Bin::I(IntBinOp::MinSI)
            }
        }
        (Binary::Where, _) => return Ok(b.select(a[0], a[1], a[2])),
        (Binary::Cmp, true) => {
            use CmpFPredicate as P;
            let p = [P::Oeq, P::Une, P::Olt, P::Ole, P::Ogt, P::Oge][pred.clamp(0, 5) as usize];
            return Ok(b.cmpf(p, a[0], a[1]));
        }
        (Binary::Cmp, false) => {
            use CmpIPredicate as P;
            let s = [P::Eq, P::Ne, P::Slt, P::Sle, P::Sgt, P::Sge];
            let u = [P::Eq, P::Ne, P::Ult, P::Ule, P::Ugt, P::Uge];
            let p = if unsigned { u } else { s }[pred.clamp(0, 5) as usize];
            return Ok(b.cmpi(p, a[0], a[1]));
        }
        (Binary::Mod, true) => return fmod(b, a[0], a[1], dt),
    };
    Ok(match op {
        Bin::I(o) => b.int_op(o, a[0], a[1]),
        Bin::F(o) => b.float_op(o, a[0], a[1]),
    })
}

/// C's `fmod(x, y)` (the sign of `x`), which PTX has no instruction for: the remainder
/// `r = x - trunc(x / y) y`, with one rounding (`fma`), in f32 for the half types and in f64
/// for f64. Where the rounded quotient reached the next integer although the true one is
/// below it (`1 / 0.1` in f32 is 10), `r` has the sign opposite to `x`'s and is off by `|y|`;
/// adding `|y|` with `x`'s sign gives the remainder exactly (`r` is then within a factor of two
/// of `-y`). Exact for quotients below 2^24 (f32) or 2^53 (f64); beyond, the truncated
/// quotient is itself rounded.
fn fmod(b: &mut OpBuilder<'_>, x: Value, y: Value, dt: DType) -> R<Value> {
    let sfx = match dt {
        DType::F64 => "f64",
        DType::F32 | DType::F16 | DType::BF16 => "f32",
        _ => {
            return Err(format!(
                "element-wise 'mod' on {} is not lowered",
                dt.name()
            ))
        }
    };
    let t = b.ctx().value_type(x);
    let (xw, yw) = if matches!(dt, DType::F16 | DType::BF16) {
        let f = b.f32();
        (
            ExtFOp::build(b, x, f, None).out(b.ctx()),
            ExtFOp::build(b, y, f, None).out(b.ctx()),
        )
    } else {
        (x, y)
    };
    let w = b.ctx().value_type(xw);
    let q = b.float_op(FloatBinOp::DivF, xw, yw);
    let q = b.inst1(&format!("cvt.rzi.{sfx}.{sfx}"), &[q], w);
    let nq = b.inst1(&format!("neg.{sfx}"), &[q], w);
    let r = b.inst1(&format!("fma.rn.{sfx}"), &[nq, yw, xw], w);
    let zero = zero_of(b, w);
    let r_neg = b.cmpf(CmpFPredicate::Olt, r, zero);
    let x_pos = b.cmpf(CmpFPredicate::Ogt, xw, zero);
    let r_pos = b.cmpf(CmpFPredicate::Ogt, r, zero);
    let x_neg = b.cmpf(CmpFPredicate::Olt, xw, zero);
    let under = b.and(r_neg, x_pos);
    let over = b.and(r_pos, x_neg);
    let fix = b.int_op(IntBinOp::OrI, under, over);
    let ay = b.inst1(&format!("abs.{sfx}"), &[yw], w);
    let sy = b.inst1(&format!("copysign.{sfx}"), &[xw, ay], w);
    let fixed = b.float_op(FloatBinOp::AddF, r, sy);
    let r = b.select(fix, fixed, r);
    Ok(if w == t {
        r
    } else {
        TruncFOp::build(b, r, t, None, None).out(b.ctx())
    })
}

/// Runs `f` in f32 for half types.
fn via_f32(
    b: &mut OpBuilder<'_>,
    v: Value,
    dt: DType,
    f: impl FnOnce(&mut OpBuilder<'_>, Value) -> Value,
) -> Value {
    match dt {
        DType::F32 => f(b, v),
        _ => {
            let f32t = b.f32();
            let t = b.ctx().value_type(v);
            let x = ExtFOp::build(b, v, f32t, None).out(b.ctx());
            let y = f(b, x);
            TruncFOp::build(b, y, t, None, None).out(b.ctx())
        }
    }
}

fn cf32(b: &mut OpBuilder<'_>, x: f32) -> Value {
    let t = b.f32();
    b.cfloat_bits(t, x.to_bits() as u128)
}

fn scalar_unary(b: &mut OpBuilder<'_>, kind: Unary, v: Value, dt: DType) -> R<Value> {
    let float = float_kind(dt).is_some();
    if let DType::Int { bits, signedness } = dt {
        if matches!(kind, Unary::Abs) && signedness == tilus_ir::types::Signedness::Unsigned {
            return Ok(v);
        }
        if bits == 8 && matches!(kind, Unary::Neg | Unary::Abs) {
            // PTX has no 8-bit arithmetic: in 32 bits, narrowed back.
            let wide = DType::Int {
                bits: 32,
                signedness,
            };
            let x = scalar_cast(b, v, dt, wide)?;
            let r = scalar_unary(b, kind, x, wide)?;
            return scalar_cast(b, r, wide, dt);
        }
    }
    if matches!(kind, Unary::Neg | Unary::Abs) {
        let ty = b.ctx().value_type(v);
        return Ok(match (kind, float) {
            (Unary::Neg, true) => NegFOp::build(b, v, ty, None).result(b.ctx()),
            (Unary::Neg, false) => {
                let z = b.cint(ty, 0);
                b.int_op(IntBinOp::SubI, z, v)
            }
            (Unary::Abs, true) => {
                let s = match dt {
                    DType::F64 => "abs.f64",
                    DType::F32 => "abs.f32",
                    DType::BF16 => "abs.bf16",
                    _ => "abs.f16",
                };
                b.inst1(s, &[v], ty)
            }
            _ => {
                let bits = dt.bits();
                b.inst1(&format!("abs.s{bits}"), &[v], ty)
            }
        });
    }
    if dt == DType::F64 && matches!(kind, Unary::Sqrt | Unary::Rsqrt) {
        // Correctly rounded, as the interpreter's `sqrt` and `1 / sqrt` (the other f64
        // functions are sequences of f64 arithmetic: `f64_math`).
        let ty = b.ctx().value_type(v);
        let r = b.inst1("sqrt.rn.f64", &[v], ty);
        return Ok(match kind {
            Unary::Sqrt => r,
            _ => b.inst1("rcp.rn.f64", &[r], ty),
        });
    }
    if dt == DType::F64 {
        let text = match kind {
            Unary::Exp => f64_math::exp(),
            Unary::Exp2 => f64_math::exp2(),
            Unary::Log => f64_math::log(),
            Unary::Tanh => f64_math::tanh(),
            _ => return Err(format!("'{kind}' on {} is not lowered", dt.name())),
        };
        let ty = b.ctx().value_type(v);
        return Ok(b.asm(&text, &[v], &[ty])[0]);
    }
    if !matches!(dt, DType::F32 | DType::F16 | DType::BF16) {
        return Err(format!("'{kind}' on {} is not lowered", dt.name()));
    }
    Ok(via_f32(b, v, dt, |b, x| {
        let f = b.f32();
        match kind {
            Unary::Exp => {
                let c = cf32(b, std::f32::consts::LOG2_E);
                let y = b.float_op(FloatBinOp::MulF, x, c);
                b.inst1("ex2.approx.ftz.f32", &[y], f)
            }
            Unary::Exp2 => b.inst1("ex2.approx.ftz.f32", &[x], f),
            Unary::Log => {
                let y = b.inst1("lg2.approx.ftz.f32", &[x], f);
                let c = cf32(b, std::f32::consts::LN_2);
                b.float_op(FloatBinOp::MulF, y, c)
            }
            Unary::Sqrt => b.inst1("sqrt.rn.f32", &[x], f),
            Unary::Rsqrt => b.inst1("rsqrt.approx.ftz.f32", &[x], f),
            _ => b.inst1("tanh.approx.f32", &[x], f),
        }
    }))
}

pub(super) fn scalar_cast(b: &mut OpBuilder<'_>, v: Value, src: DType, dst: DType) -> R<Value> {
    if src == dst {
        return Ok(v);
    }
    if dst.bits() == 1 && float_kind(dst).is_none() {
        // To i1 is `x != 0`, as the interpreter casts (a truncation would keep the low bit
        // only); integers narrower than 32 bits compare widened (PTX compares no 8-bit values).
        let (x, xd) = if float_kind(src).is_none() && src.bits() < 32 {
            (scalar_cast(b, v, src, DType::I32)?, DType::I32)
        } else {
            (v, src)
        };
        let t = b.ctx().value_type(x);
        let z = zero_of(b, t);
        return scalar_binary(b, Binary::Cmp, &[x, z], xd, 1);
    }
    if (src == DType::BF16 && dst.bits() == 8 && float_kind(dst).is_none())
        || (dst == DType::BF16 && src.bits() == 8 && float_kind(src).is_none())
    {
        // PTX converts no bf16 to or from 8-bit integers: through f32 (exact on both sides).
        let w = scalar_cast(b, v, src, DType::F32)?;
        return scalar_cast(b, w, DType::F32, dst);
    }
    if src.bits() == 1 && float_kind(dst).is_some() {
        // From i1 to a float is 0.0 or 1.0 (unsigned), through i32: PTX converts no
        // predicate to a float.
        let w = scalar_cast(b, v, src, DType::I32)?;
        return scalar_cast(b, w, DType::I32, dst);
    }
    let t = elem_type(b.ctx_mut(), dst);
    type Build = fn(&mut OpBuilder<'_>, Value, Type) -> Value;
    macro_rules! cast {
        ($h:ident $(, $extra:expr)*) => {
            (|b: &mut OpBuilder<'_>, v: Value, t: Type| -> Value {
                $h::build(b, v, t $(, $extra)*).out(b.ctx())
            }) as Build
        };
    }
    let build = match (float_kind(src), float_kind(dst)) {
        (Some(_), Some(_)) => {
            if dst.bits() > src.bits() {
                cast!(ExtFOp, None)
            } else if dst.bits() < src.bits() {
                cast!(TruncFOp, None, None)
            } else {
                // f16 <-> bf16 through f32.
                let f = b.f32();
                let x = ExtFOp::build(b, v, f, None).out(b.ctx());
                return Ok(TruncFOp::build(b, x, t, None, None).out(b.ctx()));
            }
        }
        (None, Some(_)) => {
            if matches!(
                src,
                DType::Int {
                    signedness: tilus_ir::types::Signedness::Unsigned,
                    ..
                }
            ) {
                cast!(UIToFPOp)
            } else {
                cast!(SIToFPOp)
            }
        }
        (Some(_), None) => {
            if matches!(
                dst,
                DType::Int {
                    signedness: tilus_ir::types::Signedness::Unsigned,
                    ..
                }
            ) {
                cast!(FPToUIOp)
            } else {
                cast!(FPToSIOp)
            }
        }
        (None, None) => {
            if dst.bits() > src.bits() {
                if matches!(
                    src,
                    DType::Int {
                        signedness: tilus_ir::types::Signedness::Unsigned,
                        ..
                    }
                ) || src.bits() == 1
                {
                    cast!(ExtUIOp)
                } else {
                    cast!(ExtSIOp)
                }
            } else if dst.bits() < src.bits() {
                cast!(TruncIOp, None)
            } else {
                return Ok(v);
            }
        }
    };
    Ok(build(b, v, t))
}
