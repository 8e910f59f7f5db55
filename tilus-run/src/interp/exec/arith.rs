//! `arith`: scalar evaluation through the dialect's own semantics.
//!
//! Integer, comparison, integer-cast and float binary ops call `IntBinOp`, `CmpIPredicate`,
//! `CmpFPredicate`, `IntCast`, `FloatBinOp` and `negf_bits` from `tilus_dialects::arith`: the
//! code the folders run, so the interpreter and canonicalization cannot disagree. The
//! interpreter holds integers as `i64` normalized to their type (`wrap`) and floats as `f64`
//! rounded to theirs; the bridges below turn them into the bit patterns those take.

use super::*;
use tilus_dialects::arith::{mask, negf_bits, ArithOpKind as K, FloatBinOp, IntBinOp, IntCast};
use tilus_ir::float::{from_f64, to_f64};
use tilus_ir::types::FloatKind;

/// The `width`-bit pattern of an interpreter integer.
fn bits_of(v: i64, width: u32) -> u128 {
    (v as u64 as u128) & mask(width.min(64))
}

/// The `(lhs, rhs, result)` of the binary ops named, `None` for the others.
macro_rules! binary_slots {
    ($ctx:expr, $k:expr; $($v:ident),*) => {
        match $k {
            $(K::$v(h) => Some((h.lhs($ctx), h.rhs($ctx), h.result($ctx))),)*
            _ => None,
        }
    };
}

/// The `(in, out)` of the conversions named, `None` for the others.
macro_rules! cast_slots {
    ($ctx:expr, $k:expr; $($v:ident),*) => {
        match $k {
            $(K::$v(h) => Some((h.in_($ctx), h.out($ctx))),)*
            _ => None,
        }
    };
}

/// The kind and `(lhs, rhs)` of an integer binary op of arith; `None` for other ops.
pub(crate) fn int_binary(ctx: &tilus_ir::Context, op: OpId) -> Option<(IntBinOp, Value, Value)> {
    let k = K::classify(ctx, op)?;
    let (lhs, rhs, _) = binary_slots!(ctx, k;
        AddI, SubI, MulI, DivSI, DivUI, RemSI, RemUI, AndI, OrI, XOrI, ShLI, ShRSI, ShRUI,
        MaxSI, MinSI, MaxUI, MinUI, CeilDivSI, FloorDivSI)?;
    Some((IntBinOp::of(ctx, op)?, lhs, rhs))
}

/// The kind and operand of an integer conversion of arith; `None` for other ops.
pub(crate) fn int_cast(ctx: &tilus_ir::Context, op: OpId) -> Option<(IntCast, Value)> {
    let k = K::classify(ctx, op)?;
    let (src, _) = cast_slots!(ctx, k; IndexCast, IndexCastUI, ExtSI, ExtUI, TruncI)?;
    Some((IntCast::of(ctx, op)?, src))
}

/// The `width`-bit pattern of an interpreter integer (for the arith semantics).
pub(crate) fn int_bits(v: i64, width: u32) -> u128 {
    bits_of(v, width)
}

impl Machine<'_> {
    /// The scalar kind of `v`, or the report that `op` is not on scalars.
    pub(super) fn scalar_kind_of(&self, v: Value, op: OpId) -> Result<ScalarKind, Diagnostic> {
        scalar_kind(self.ctx, self.ctx.value_type(v)).ok_or_else(|| {
            self.err(
                op,
                format!(
                    "'{}' on non-scalar types is not supported by the interpreter",
                    self.name(op)
                ),
            )
        })
    }

    /// The report for a float op on a format the arith semantics do not evaluate.
    pub(super) fn no_float_semantics(&self, op: OpId, k: FloatKind) -> Diagnostic {
        self.err(
            op,
            format!(
                "the interpreter does not evaluate '{}' on {k:?} (only f16, bf16, f32 and f64)",
                self.name(op)
            ),
        )
    }

    pub(super) fn exec_arith(&mut self, ui: usize, op: OpId, k: K) -> Result<Flow, Diagnostic> {
        let ctx = self.ctx;
        if let K::Constant(c) = k {
            let res = c.result(ctx);
            let rk = self.scalar_kind_of(res, op)?;
            let v = match ctx.attr_kind(c.value(ctx)) {
                AttrKind::Integer { value, .. } => {
                    let x: i128 = i128::try_from(value).unwrap_or(0);
                    normalize(rk, Sc::I(x as i64))
                }
                AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
                    tilus_ir::TypeKind::Float(k) => Sc::F(to_f64(*k, *bits)),
                    _ => return Err(self.err(op, "malformed float constant")),
                },
                AttrKind::Bool(b) => Sc::I(*b as i64),
                _ => return Err(self.err(op, "unsupported constant")),
            };
            self.set(ui, res, Val::S(v));
            return Ok(Flow::Next);
        }
        if let K::Select(s) = k {
            let (c, t, f, res) = (
                s.condition(ctx),
                s.true_value(ctx),
                s.false_value(ctx),
                s.result(ctx),
            );
            let vals = [self.get(ui, c), self.get(ui, t), self.get(ui, f)];
            if !vals[1].is_scalar() || !vals[2].is_scalar() {
                // A select of non-scalars needs a uniform condition.
                let c = self.scalar(ui, c, op)?.as_i64();
                let pick = if c & 1 == 1 { &vals[1] } else { &vals[2] };
                let pick = pick.clone();
                self.set(ui, res, pick);
                return Ok(Flow::Next);
            }
            let out = self.map_scalars(ui, op, &vals, |x| {
                Ok(if x[0].as_i64() & 1 == 1 { x[1] } else { x[2] })
            })?;
            self.set(ui, res, out);
            return Ok(Flow::Next);
        }
        let (res, out) = if let K::CmpI(c) = k {
            let (lhs, rhs) = (c.lhs(ctx), c.rhs(ctx));
            let bits = match self.scalar_kind_of(lhs, op)? {
                ScalarKind::Int { bits, .. } => bits,
                ScalarKind::Float(_) => 64,
            };
            let pred = c.predicate(ctx);
            let vals = [self.get(ui, lhs), self.get(ui, rhs)];
            let out = self.map_scalars(ui, op, &vals, |x| {
                let (a, b) = (bits_of(x[0].as_i64(), bits), bits_of(x[1].as_i64(), bits));
                Ok(Sc::I(pred.eval(a, b, bits) as i64))
            })?;
            (c.result(ctx), out)
        } else if let K::CmpF(c) = k {
            let pred = c.predicate(ctx);
            let vals = [self.get(ui, c.lhs(ctx)), self.get(ui, c.rhs(ctx))];
            let out = self.map_scalars(ui, op, &vals, |x| {
                Ok(Sc::I(pred.eval(x[0].as_f64(), x[1].as_f64()) as i64))
            })?;
            (c.result(ctx), out)
        } else if let K::NegF(n) = k {
            let res = n.result(ctx);
            let ScalarKind::Float(fk) = self.scalar_kind_of(res, op)? else {
                return Err(self.unsupported(op));
            };
            if negf_bits(fk, 0).is_none() {
                return Err(self.no_float_semantics(op, fk));
            }
            let vals = [self.get(ui, n.operand(ctx))];
            let out = self.map_scalars(ui, op, &vals, |x| {
                let r = negf_bits(fk, from_f64(fk, x[0].as_f64())).unwrap_or(0);
                Ok(Sc::F(to_f64(fk, r)))
            })?;
            (res, out)
        } else if let Some((lhs, rhs, res)) = binary_slots!(ctx, k;
            AddI, SubI, MulI, DivSI, DivUI, RemSI, RemUI, AndI, OrI, XOrI, ShLI, ShRSI, ShRUI,
            MaxSI, MinSI, MaxUI, MinUI, CeilDivSI, FloorDivSI)
        {
            let f = IntBinOp::of(ctx, op).ok_or_else(|| self.unsupported(op))?;
            let ScalarKind::Int { bits, unsigned } = self.scalar_kind_of(res, op)? else {
                return Err(self.unsupported(op));
            };
            let vals = [self.get(ui, lhs), self.get(ui, rhs)];
            let name = self.name(op);
            let ty = tilus_dialects::tilus_types::type_str(ctx, ctx.value_type(res));
            let out = self.map_scalars(ui, op, &vals, |x| {
                let (a, b) = (bits_of(x[0].as_i64(), bits), bits_of(x[1].as_i64(), bits));
                // The cases LLVM leaves undefined are reported, as the semantics say.
                let r = f.eval(a, b, bits).map_err(|ub| {
                    format!(
                        "'{name}' of {} and {} ({ty}) is undefined: {ub}",
                        x[0].as_i64(),
                        x[1].as_i64()
                    )
                })?;
                Ok(Sc::I(wrap(r as i128, bits, unsigned)))
            })?;
            (res, out)
        } else if let Some((lhs, rhs, res)) =
            binary_slots!(ctx, k; AddF, SubF, MulF, DivF, MaximumF, MinimumF)
        {
            let f = FloatBinOp::of(ctx, op).ok_or_else(|| self.unsupported(op))?;
            let ScalarKind::Float(fk) = self.scalar_kind_of(res, op)? else {
                return Err(self.unsupported(op));
            };
            if f.eval(fk, 0, 0).is_none() {
                return Err(self.no_float_semantics(op, fk));
            }
            let vals = [self.get(ui, lhs), self.get(ui, rhs)];
            let out = self.map_scalars(ui, op, &vals, |x| {
                let (a, b) = (from_f64(fk, x[0].as_f64()), from_f64(fk, x[1].as_f64()));
                Ok(Sc::F(to_f64(fk, f.eval(fk, a, b).unwrap_or(0))))
            })?;
            (res, out)
        } else if let Some((src, res)) =
            cast_slots!(ctx, k; IndexCast, IndexCastUI, ExtSI, ExtUI, TruncI)
        {
            let f = IntCast::of(ctx, op).ok_or_else(|| self.unsupported(op))?;
            let (ScalarKind::Int { bits: from, .. }, ScalarKind::Int { bits: to, unsigned }) =
                (self.scalar_kind_of(src, op)?, self.scalar_kind_of(res, op)?)
            else {
                return Err(self.unsupported(op));
            };
            let vals = [self.get(ui, src)];
            let out = self.map_scalars(ui, op, &vals, |x| {
                let r = f.eval(bits_of(x[0].as_i64(), from), from, to);
                Ok(Sc::I(wrap(r as i128, to, unsigned)))
            })?;
            (res, out)
        } else if let Some((src, res)) =
            cast_slots!(ctx, k; SIToFP, UIToFP, FPToSI, FPToUI, ExtF, TruncF, Bitcast)
        {
            // Conversions between integers and floats have no arith semantics module yet:
            // they convert through `f64` and round to the result type.
            let sk = self.scalar_kind_of(src, op)?;
            let rk = self.scalar_kind_of(res, op)?;
            let sbits = match sk {
                ScalarKind::Int { bits, .. } => bits,
                ScalarKind::Float(k) => k.width(),
            };
            let vals = [self.get(ui, src)];
            let out = self.map_scalars(ui, op, &vals, |x| {
                let v = x[0];
                let r = match k {
                    K::SIToFP(_) => Sc::F(as_signed(v.as_i64(), sbits) as f64),
                    K::UIToFP(_) => Sc::F(as_unsigned(v.as_i64(), sbits) as f64),
                    K::FPToSI(_) | K::FPToUI(_) => Sc::I(v.as_f64().trunc() as i64),
                    K::ExtF(_) | K::TruncF(_) => Sc::F(v.as_f64()),
                    _ => bitcast(sk, rk, v)?,
                };
                Ok(normalize(rk, r))
            })?;
            (res, out)
        } else {
            return Err(self.unsupported(op));
        };
        self.set(ui, res, out);
        Ok(Flow::Next)
    }
}

fn bitcast(from: ScalarKind, to: ScalarKind, v: Sc) -> Result<Sc, String> {
    let bits: u64 = match (from, v) {
        (ScalarKind::Float(k), Sc::F(f)) => from_f64(k, f) as u64,
        (ScalarKind::Int { bits, .. }, Sc::I(i)) => as_unsigned(i, bits),
        _ => return Err("bad bitcast operand".into()),
    };
    Ok(match to {
        ScalarKind::Float(k) => Sc::F(to_f64(k, bits as u128)),
        ScalarKind::Int { .. } => Sc::I(bits as i64),
    })
}
