//! `convert-arith-to-ptx`: scalar `arith` ops to `ptx.inst`, one PTX instruction each where PTX
//! has one.
//!
//! | arith | PTX |
//! |---|---|
//! | `constant` | `mov.b32 %r, 42` (`mov.f32 %f, 0f3F800000`, `mov.b16 %h, 0x3C00`, `setp` for `i1`); the emitter prints the literal in the users that take one and drops the `mov` (`crate::ptx_imm`) |
//! | `addi subi muli` | `add.s32`, `sub.s32`, `mul.lo.s32` (`.s16`, `.s64`; `xor.pred`/`and.pred` on `i1`) |
//! | `muli` + `addi` | `mad.lo.s32` (`.s16`) when the product has no other use and is in the add's block; 64-bit keeps `mul.lo.s64` + `add.s64` |
//! | `divsi divui remsi remui` | `div.s32`, `div.u32`, `rem.s32`, `rem.u32` |
//! | `andi ori xori` | `and.b32`, `or.b32`, `xor.b32` (`.pred` on `i1`) |
//! | `shli shrsi shrui` | `shl.b32`, `shr.s32`, `shr.u32` (the amount is a `u32`: `cvt` first for `i64`, a 32-bit constant when it is constant) |
//! | `maxsi minsi maxui minui` | `max.s32`, `min.s32`, `max.u32`, `min.u32` |
//! | `addf subf mulf` | `add.rn.f32`, ... (`.f16`, `.bf16`, `.f64`); without `.rn` when the op's fastmath has `contract` or `fast`, so ptxas may fuse into `fma` |
//! | `divf` | `div.rn.f32`, `div.rn.f64`; f16/bf16 through f32 (PTX has no half division) |
//! | `maximumf minimumf` | `max.NaN.f32`, `min.NaN.f16`, ... (`max.f64` for f64, which has no `.NaN` form) |
//! | `negf` | `neg.f32` |
//! | `cmpi` | `setp.lt.s32`, `setp.ge.u64`, ... |
//! | `cmpf` | `setp.lt.f32` (ordered), `setp.ltu.f32` (unordered), `setp.num`/`setp.nan` for `ord`/`uno` |
//! | `select` | `selp.b32`/`selp.f32` (predicate logic for `i1`) |
//! | `extsi extui trunci index_cast index_castui` | `cvt.s64.s32`, `cvt.u64.u32`, `cvt.u32.u64`; `selp` from `i1`, `and`+`setp` to `i1` |
//! | `sitofp uitofp` | `cvt.rn.f32.s32`, `cvt.rn.f16.u32`, ... |
//! | `fptosi fptoui` | `cvt.rzi.s32.f32`, ... |
//! | `extf truncf` | `cvt.f32.f16`, `cvt.rn.f16.f32`, `cvt.rn.bf16.f32`, `cvt.rn.f32.f64`, ... |
//! | `bitcast` | `mov.b32` |
//!
//! `index` is a 64-bit integer. `ceildivsi`/`floordivsi` are `div.s` + `rem.s` and a fix-up
//! (`selp` of ±1 when the remainder is non-zero and its sign agrees / differs with the divisor's).
//! Vectors, tensors and 8-bit arithmetic are reported as not supported.

use super::build::{before, replace_op, LowerBuilder};
use crate::{declare_pass, Changed, Pass, Statistics};
use rustc_hash::{FxHashMap, FxHashSet};
use tilus_dialects::arith::ArithOpKind;
use tilus_ir::rewrite::{float_bits, int_bits};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::types::FloatKind;
use tilus_ir::{Attr, AttrKind, Context, Diagnostic, OpBuilder, OpId, Type, TypeKind, Value};

declare_pass! {
    /// The pass. It has no options.
    pub struct ArithToPtx {
        name: "convert-arith-to-ptx",
        class: "ConvertArithToPtx",
        summary: "Convert scalar arith ops to ptx.inst",
        description: "Replaces each scalar arith op by the ptx.inst (or the few) computing it: \
            add.s32, mul.lo.s64, mad.lo.s32 (an add of a multiply used only there), div.rn.f32, \
            setp.lt.u32, selp.b32, cvt.rn.f16.f32, cvt.rzi.s32.f32, mov for constants, and so on (the module docs have the table). \
            Float add/sub/mul round to nearest (.rn, no fma contraction) unless the op's \
            fastmath allows contraction. index is 64-bit; ceildivsi/floordivsi are div + rem + \
            a fix-up. Vector and tensor operands and 8-bit arithmetic are reported as \
            unsupported.",
        options: {},
        statistics: {
            NUM_LOWERED = "num-lowered", "Number of arith ops converted";
        },
    }
}

impl Pass for ArithToPtx {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let mut ops = Vec::new();
        ctx.walk(op, &mut |o| {
            if let Some(kind) = ArithOpKind::classify(ctx, o) {
                ops.push((o, kind));
            }
        });
        // add -> the multiply it takes in, as one `mad.lo`.
        let mads = mads(ctx, &ops);
        let muls: FxHashSet<OpId> = mads.values().copied().collect();
        let mut errors = Vec::new();
        let mut n = 0u64;
        for (o, kind) in ops {
            if muls.contains(&o) {
                // Converted with its add, below.
                continue;
            }
            let mut b = before(ctx, o);
            let mul = mads.get(&o).copied();
            let done = match mul {
                Some(mul) => lower_mad(&mut b, o, mul),
                None => lower(&mut b, o, kind),
            };
            match done {
                Ok(v) => {
                    replace_op(&mut b, o, &[v]);
                    if let Some(mul) = mul {
                        ctx.erase_op(mul);
                        n += 1;
                    }
                    n += 1;
                }
                Err(msg) => errors.push(Diagnostic::op(
                    o,
                    format!("cannot convert '{}' to PTX: {msg}", ctx.op_name_str(o)),
                )),
            }
        }
        stats.add(Self::NUM_LOWERED, n);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(if n > 0 { Changed::Yes } else { Changed::No })
    }
}

/// The adds that take in a multiply as one `mad.lo` (add -> multiply): an integer `addi` of
/// 16 or 32 bits, one of whose operands is a `muli` of the same block used by nothing else.
/// `mad.lo` is one PTX instruction where `mul.lo` + `add` are two (ptxas makes one IMAD of
/// either), and `eqsat` leaves more multiplies by constants than the input had (a `shl` and a
/// `mul` cost the same there), so the fusion is what makes that choice count. 64-bit adds are
/// left alone: eqsat's cost model cannot see a `mad`, and fusing them made kernels worse with
/// eqsat than without (docs/perf.md, imm14b).
fn mads(ctx: &Context, ops: &[(OpId, ArithOpKind)]) -> FxHashMap<OpId, OpId> {
    let mut out = FxHashMap::default();
    let mut taken = FxHashSet::default();
    for &(o, kind) in ops {
        if !matches!(kind, ArithOpKind::AddI(_)) {
            continue;
        }
        let rt = ctx.value_type(ctx.results(o)[0]);
        if !matches!(scalar(ctx, rt), Ok(Scalar::Int(16 | 32))) {
            continue;
        }
        let block = ctx.op_parent_block(o);
        let mul = ctx.operands(o).iter().find_map(|&v| {
            let d = ctx.defining_op(v)?;
            let is_mul = matches!(ArithOpKind::classify(ctx, d), Some(ArithOpKind::MulI(_)));
            (is_mul
                && ctx.uses(v).len() == 1
                && ctx.op_parent_block(d) == block
                && !taken.contains(&d))
            .then_some(d)
        });
        if let Some(m) = mul {
            taken.insert(m);
            out.insert(o, m);
        }
    }
    out
}

/// `mad.lo.sN` for the add `o` of the multiply `mul` (see [`mads`]).
fn lower_mad(b: &mut OpBuilder<'_>, o: OpId, mul: OpId) -> Result<Value, String> {
    let ctx = b.ctx();
    let r = ctx.results(mul)[0];
    let ops = ctx.operands(o);
    let other = if ops[0] == r { ops[1] } else { ops[0] };
    let (x, y) = (ctx.operands(mul)[0], ctx.operands(mul)[1]);
    let rt = ctx.value_type(ctx.results(o)[0]);
    let Scalar::Int(w) = scalar(ctx, rt)? else {
        return Err("expected integers".into());
    };
    Ok(b.inst1(&format!("mad.lo.s{w}"), &[x, y, other], rt))
}

/// `ptx.inst opcode` with a form (`$N` for `args[N]`) and one result of type `ty` (every
/// instruction this pass makes has one destination register).
fn inst_form(b: &mut OpBuilder<'_>, opcode: &str, form: &str, args: &[Value], ty: Type) -> Value {
    b.inst(opcode, form, args, &[ty], None)[0]
}

/// A scalar type as PTX sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scalar {
    /// An integer of this many bits (`index` is 64).
    Int(u32),
    Float(FloatKind),
}

fn scalar(ctx: &Context, t: Type) -> Result<Scalar, String> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } if matches!(width, 1 | 8 | 16 | 32 | 64) => {
            Ok(Scalar::Int(*width))
        }
        TypeKind::Index => Ok(Scalar::Int(64)),
        TypeKind::Float(
            k @ (FloatKind::F16 | FloatKind::BF16 | FloatKind::F32 | FloatKind::F64),
        ) => Ok(Scalar::Float(*k)),
        _ => Err(format!(
            "type '{}' is not a PTX scalar (i1, i8..i64, index, f16, bf16, f32, f64)",
            type_to_string(ctx, t)
        )),
    }
}

fn fsuffix(k: FloatKind) -> &'static str {
    match k {
        FloatKind::F16 => "f16",
        FloatKind::BF16 => "bf16",
        FloatKind::F64 => "f64",
        _ => "f32",
    }
}

/// Bits of a float kind.
fn fbits(k: FloatKind) -> u32 {
    match k {
        FloatKind::F16 | FloatKind::BF16 => 16,
        FloatKind::F64 => 64,
        _ => 32,
    }
}

/// Whether the op's fastmath flags allow contraction into fma.
fn contracts(ctx: &Context, o: OpId) -> bool {
    use tilus_dialects::arith_attrs::FastMathFlags;
    ctx.get_inherent_or_attr(o, "fastmath")
        .and_then(|a| FastMathFlags::of(ctx, a))
        .is_some_and(|f| f.contains(FastMathFlags::from_word("contract").unwrap()))
}

/// An integer width arithmetic supports (16, 32, 64), else an error.
fn arith_width(w: u32) -> Result<u32, String> {
    match w {
        16 | 32 | 64 => Ok(w),
        8 => Err("PTX has no 8-bit arithmetic (extend to i16 or i32 first)".into()),
        _ => Err(format!("i{w} is not supported here")),
    }
}

const CMPI: &[(&str, &str)] = &[
    ("eq", "s"),
    ("ne", "s"),
    ("lt", "s"),
    ("le", "s"),
    ("gt", "s"),
    ("ge", "s"),
    ("lt", "u"),
    ("le", "u"),
    ("gt", "u"),
    ("ge", "u"),
];

/// `arith.cmpf` predicates (by their integer value) to PTX `setp` comparisons; `None` for
/// `false`/`true`.
const CMPF: &[Option<&str>] = &[
    None,
    Some("eq"),
    Some("gt"),
    Some("ge"),
    Some("lt"),
    Some("le"),
    Some("ne"),
    Some("num"),
    Some("equ"),
    Some("gtu"),
    Some("geu"),
    Some("ltu"),
    Some("leu"),
    Some("neu"),
    Some("nan"),
    None,
];

fn pred_index(ctx: &Context, o: OpId) -> Result<usize, String> {
    match ctx.get_prop(o, "predicate").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => {
            usize::try_from(value).map_err(|_| "bad predicate".to_string())
        }
        _ => Err("missing predicate".into()),
    }
}

/// The PTX immediate of a constant attribute.
fn immediate(ctx: &Context, a: Attr, s: Scalar) -> Result<String, String> {
    match s {
        Scalar::Int(w) => {
            let (bits, _) = int_bits(ctx, a).ok_or("expected an integer value")?;
            // Signed decimal, as the value reads in the IR (`-7`, not `4294967289`).
            let mask = if w >= 128 {
                u128::MAX
            } else {
                (1u128 << w) - 1
            };
            let v = bits & mask;
            if w > 1 && w < 128 && (v >> (w - 1)) & 1 == 1 {
                Ok(format!("-{}", (1u128 << w) - v))
            } else {
                Ok(format!("{v}"))
            }
        }
        Scalar::Float(k) => {
            let (_, bits) = float_bits(ctx, a).ok_or("expected a float value")?;
            Ok(match k {
                FloatKind::F64 => format!("0d{:016X}", bits as u64),
                FloatKind::F32 => format!("0f{:08X}", bits as u32),
                _ => format!("0x{:04X}", bits as u16),
            })
        }
    }
}

/// The bits of an integer constant: an `arith.constant` not yet converted, or the constant `mov`
/// it became (ops convert in walk order, so a constant is usually converted before its users).
fn constant_bits(ctx: &Context, v: Value) -> Option<u128> {
    let def = ctx.defining_op(v)?;
    if let Some(ArithOpKind::Constant(_)) = ArithOpKind::classify(ctx, def) {
        return int_bits(ctx, ctx.get_prop(def, "value")?).map(|(bits, _)| bits);
    }
    let lit = crate::ptx_imm::constant_move(ctx, def)?;
    if lit.kind != crate::ptx_imm::LiteralKind::Int {
        return None;
    }
    let t = lit.text.as_str();
    match t.strip_prefix("0x") {
        Some(h) => u128::from_str_radix(h, 16).ok(),
        None => t.parse::<i128>().ok().map(|v| v as u128),
    }
}

/// The converted value of `o` (its one result), an op of kind `kind`.
fn lower(b: &mut OpBuilder<'_>, o: OpId, kind: ArithOpKind) -> Result<Value, String> {
    use ArithOpKind as K;
    let ctx = b.ctx();
    let ops = ctx.operands(o).to_vec();
    let rt = ctx.value_type(ctx.results(o)[0]);
    let rs = scalar(ctx, rt)?;
    match kind {
        K::Constant(_) => {
            let a = ctx.get_prop(o, "value").ok_or("no value")?;
            if let (Scalar::Int(1), Some((bits, _))) = (rs, int_bits(ctx, a)) {
                // A predicate constant: compare two immediates.
                let v = if bits & 1 == 1 { "1" } else { "0" };
                return Ok(inst_form(b, "setp.ne.u32", &format!("{v}, 0"), &[], rt));
            }
            let imm = immediate(ctx, a, rs)?;
            let opcode = match rs {
                Scalar::Int(8 | 16) => "mov.b16",
                Scalar::Int(32) => "mov.b32",
                Scalar::Int(_) => "mov.b64",
                Scalar::Float(FloatKind::F32) => "mov.f32",
                Scalar::Float(FloatKind::F64) => "mov.f64",
                Scalar::Float(_) => "mov.b16",
            };
            Ok(inst_form(b, opcode, &imm, &[], rt))
        }
        K::AddI(_)
        | K::SubI(_)
        | K::MulI(_)
        | K::DivSI(_)
        | K::DivUI(_)
        | K::RemSI(_)
        | K::RemUI(_)
        | K::AndI(_)
        | K::OrI(_)
        | K::XOrI(_)
        | K::MaxSI(_)
        | K::MinSI(_)
        | K::MaxUI(_)
        | K::MinUI(_) => {
            let Scalar::Int(w) = rs else {
                return Err("expected integers".into());
            };
            if w == 1 {
                let op = match kind {
                    K::AddI(_) | K::SubI(_) | K::XOrI(_) => "xor.pred",
                    K::MulI(_) | K::AndI(_) | K::MinUI(_) | K::MaxSI(_) => "and.pred",
                    K::OrI(_) | K::MaxUI(_) | K::MinSI(_) => "or.pred",
                    _ => return Err("i1 division is not supported".into()),
                };
                return Ok(b.inst1(op, &ops, rt));
            }
            // Bitwise ops on i8 run on the 16-bit register that holds it.
            let bitwise = match kind {
                K::AndI(_) => Some("and"),
                K::OrI(_) => Some("or"),
                K::XOrI(_) => Some("xor"),
                _ => None,
            };
            if let (8, Some(op)) = (w, bitwise) {
                return Ok(b.inst1(&format!("{op}.b16"), &ops, rt));
            }
            let w = arith_width(w)?;
            let opcode = match kind {
                K::AddI(_) => format!("add.s{w}"),
                K::SubI(_) => format!("sub.s{w}"),
                K::MulI(_) => format!("mul.lo.s{w}"),
                K::DivSI(_) => format!("div.s{w}"),
                K::DivUI(_) => format!("div.u{w}"),
                K::RemSI(_) => format!("rem.s{w}"),
                K::RemUI(_) => format!("rem.u{w}"),
                K::AndI(_) => format!("and.b{w}"),
                K::OrI(_) => format!("or.b{w}"),
                K::XOrI(_) => format!("xor.b{w}"),
                K::MaxSI(_) => format!("max.s{w}"),
                K::MinSI(_) => format!("min.s{w}"),
                K::MaxUI(_) => format!("max.u{w}"),
                _ => format!("min.u{w}"),
            };
            Ok(b.inst1(&opcode, &ops, rt))
        }
        K::ShLI(_) | K::ShRSI(_) | K::ShRUI(_) => {
            let Scalar::Int(w) = rs else {
                return Err("expected integers".into());
            };
            let w = arith_width(w)?;
            let amount = if w == 32 {
                ops[1]
            } else if let Some(bits) = constant_bits(ctx, ops[1]) {
                // A constant amount is a 32-bit constant, which the emitter prints as an
                // immediate: no `cvt` of a constant register.
                let u32t = b.i32();
                inst_form(b, "mov.b32", &format!("{}", bits as u32 as i32), &[], u32t)
            } else {
                let u32t = b.i32();
                b.inst1(&format!("cvt.u32.u{w}"), &[ops[1]], u32t)
            };
            let opcode = match kind {
                K::ShLI(_) => format!("shl.b{w}"),
                K::ShRSI(_) => format!("shr.s{w}"),
                _ => format!("shr.u{w}"),
            };
            Ok(b.inst1(&opcode, &[ops[0], amount], rt))
        }
        K::CeilDivSI(_) | K::FloorDivSI(_) => {
            // q = a / b (truncating), r = a % b; ceil adds 1 when r != 0 and r, b have the same
            // sign, floor subtracts 1 when they differ.
            let Scalar::Int(w) = rs else {
                return Err("expected integers".into());
            };
            if w == 1 {
                return Err("i1 division is not supported".into());
            }
            let w = arith_width(w)?;
            let q = b.inst1(&format!("div.s{w}"), &ops, rt);
            let r = b.inst1(&format!("rem.s{w}"), &ops, rt);
            let x = b.inst1(&format!("xor.b{w}"), &[r, ops[1]], rt);
            let i1 = b.i1();
            let nz = inst_form(b, &format!("setp.ne.s{w}"), "$0, 0", &[r], i1);
            let ceil = matches!(kind, K::CeilDivSI(_));
            let cmp = if ceil { "ge" } else { "lt" };
            let sg = inst_form(b, &format!("setp.{cmp}.s{w}"), "$0, 0", &[x], i1);
            let p = b.inst1("and.pred", &[nz, sg], i1);
            let adj = if ceil { "1" } else { "-1" };
            let d = inst_form(b, &format!("selp.s{w}"), &format!("{adj}, 0, $0"), &[p], rt);
            Ok(b.inst1(&format!("add.s{w}"), &[q, d], rt))
        }
        K::AddF(_) | K::SubF(_) | K::MulF(_) => {
            let Scalar::Float(k) = rs else {
                return Err("expected floats".into());
            };
            let rnd = if contracts(ctx, o) { "" } else { ".rn" };
            let base = match kind {
                K::AddF(_) => "add",
                K::SubF(_) => "sub",
                _ => "mul",
            };
            Ok(b.inst1(&format!("{base}{rnd}.{}", fsuffix(k)), &ops, rt))
        }
        K::DivF(_) => {
            let Scalar::Float(k) = rs else {
                return Err("expected floats".into());
            };
            match k {
                FloatKind::F32 | FloatKind::F64 => {
                    Ok(b.inst1(&format!("div.rn.{}", fsuffix(k)), &ops, rt))
                }
                _ => {
                    let f32t = b.f32();
                    let s = fsuffix(k);
                    let x = b.inst1(&format!("cvt.f32.{s}"), &[ops[0]], f32t);
                    let y = b.inst1(&format!("cvt.f32.{s}"), &[ops[1]], f32t);
                    let q = b.inst1("div.rn.f32", &[x, y], f32t);
                    Ok(b.inst1(&format!("cvt.rn.{s}.f32"), &[q], rt))
                }
            }
        }
        K::MaximumF(_) | K::MinimumF(_) => {
            let Scalar::Float(k) = rs else {
                return Err("expected floats".into());
            };
            let m = if matches!(kind, K::MaximumF(_)) {
                "max"
            } else {
                "min"
            };
            let opcode = if k == FloatKind::F64 {
                format!("{m}.f64")
            } else {
                format!("{m}.NaN.{}", fsuffix(k))
            };
            Ok(b.inst1(&opcode, &ops, rt))
        }
        K::NegF(_) => {
            let Scalar::Float(k) = rs else {
                return Err("expected floats".into());
            };
            Ok(b.inst1(&format!("neg.{}", fsuffix(k)), &ops, rt))
        }
        K::CmpI(_) => {
            let ot = scalar(ctx, ctx.value_type(ops[0]))?;
            let Scalar::Int(w) = ot else {
                return Err("expected integers".into());
            };
            let p = pred_index(ctx, o)?;
            let (cmp, sign) = *CMPI.get(p).ok_or("bad predicate")?;
            if w == 1 {
                return match cmp {
                    "ne" => Ok(b.inst1("xor.pred", &ops, rt)),
                    "eq" => {
                        let x = b.inst1("xor.pred", &ops, rt);
                        Ok(b.inst1("not.pred", &[x], rt))
                    }
                    _ => Err("ordered comparison of i1 is not supported".into()),
                };
            }
            let w = arith_width(w)?;
            Ok(b.inst1(&format!("setp.{cmp}.{sign}{w}"), &ops, rt))
        }
        K::CmpF(_) => {
            let ot = scalar(ctx, ctx.value_type(ops[0]))?;
            let Scalar::Float(k) = ot else {
                return Err("expected floats".into());
            };
            let p = pred_index(ctx, o)?;
            match CMPF.get(p).ok_or("bad predicate")? {
                Some(cmp) => Ok(b.inst1(&format!("setp.{cmp}.{}", fsuffix(k)), &ops, rt)),
                None => {
                    let v = if p == 15 { "1" } else { "0" };
                    Ok(inst_form(b, "setp.ne.u32", &format!("{v}, 0"), &[], rt))
                }
            }
        }
        K::Select(_) => {
            let (c, t, f) = (ops[0], ops[1], ops[2]);
            if matches!(ctx.type_kind(ctx.value_type(c)), TypeKind::Vector { .. }) {
                return Err("vector conditions are not supported".into());
            }
            let opcode = match rs {
                Scalar::Int(1) => {
                    let i1 = b.i1();
                    let x = b.inst1("and.pred", &[c, t], i1);
                    let nc = b.inst1("not.pred", &[c], i1);
                    let y = b.inst1("and.pred", &[nc, f], i1);
                    return Ok(b.inst1("or.pred", &[x, y], rt));
                }
                Scalar::Int(8 | 16) => "selp.b16".to_string(),
                Scalar::Int(w) => format!("selp.b{w}"),
                Scalar::Float(FloatKind::F32) => "selp.f32".into(),
                Scalar::Float(FloatKind::F64) => "selp.f64".into(),
                Scalar::Float(_) => "selp.b16".into(),
            };
            Ok(inst_form(b, &opcode, "$0, $1, $2", &[t, f, c], rt))
        }
        K::ExtSI(_) | K::ExtUI(_) | K::TruncI(_) | K::IndexCast(_) | K::IndexCastUI(_) => {
            let Scalar::Int(ws) = scalar(ctx, ctx.value_type(ops[0]))? else {
                return Err("expected integers".into());
            };
            let Scalar::Int(wd) = rs else {
                return Err("expected integers".into());
            };
            let signed = matches!(kind, K::ExtSI(_) | K::IndexCast(_));
            int_cast(b, ops[0], ws, wd, signed, rt)
        }
        K::SIToFP(_) | K::UIToFP(_) => {
            let Scalar::Int(ws) = scalar(ctx, ctx.value_type(ops[0]))? else {
                return Err("expected integers".into());
            };
            let Scalar::Float(k) = rs else {
                return Err("expected a float result".into());
            };
            if ws == 1 {
                return Err("conversion from i1 is not supported (extend it first)".into());
            }
            let s = if matches!(kind, K::SIToFP(_)) {
                "s"
            } else {
                "u"
            };
            Ok(b.inst1(&format!("cvt.rn.{}.{s}{ws}", fsuffix(k)), &ops, rt))
        }
        K::FPToSI(_) | K::FPToUI(_) => {
            let Scalar::Float(k) = scalar(ctx, ctx.value_type(ops[0]))? else {
                return Err("expected floats".into());
            };
            let Scalar::Int(wd) = rs else {
                return Err("expected an integer result".into());
            };
            if wd == 1 {
                return Err("conversion to i1 is not supported".into());
            }
            let s = if matches!(kind, K::FPToSI(_)) {
                "s"
            } else {
                "u"
            };
            Ok(b.inst1(&format!("cvt.rzi.{s}{wd}.{}", fsuffix(k)), &ops, rt))
        }
        K::ExtF(_) | K::TruncF(_) => {
            let Scalar::Float(ks) = scalar(ctx, ctx.value_type(ops[0]))? else {
                return Err("expected floats".into());
            };
            let Scalar::Float(kd) = rs else {
                return Err("expected floats".into());
            };
            let rnd = if fbits(kd) < fbits(ks) || (fbits(kd) == fbits(ks) && ks != kd) {
                ".rn"
            } else {
                ""
            };
            if ks == kd {
                return Ok(b.inst1(
                    &format!(
                        "mov.{}",
                        if fbits(ks) == 16 {
                            "b16".to_string()
                        } else {
                            fsuffix(ks).to_string()
                        }
                    ),
                    &ops,
                    rt,
                ));
            }
            if fbits(kd) == 16 && fbits(ks) == 16 {
                // f16 <-> bf16: through f32.
                let f32t = b.f32();
                let x = b.inst1(&format!("cvt.f32.{}", fsuffix(ks)), &ops, f32t);
                return Ok(b.inst1(&format!("cvt.rn.{}.f32", fsuffix(kd)), &[x], rt));
            }
            Ok(b.inst1(
                &format!("cvt{rnd}.{}.{}", fsuffix(kd), fsuffix(ks)),
                &ops,
                rt,
            ))
        }
        K::Bitcast(_) => {
            let bits = match rs {
                Scalar::Int(w) => w,
                Scalar::Float(k) => fbits(k),
            };
            if bits == 1 {
                return Ok(b.inst1("mov.pred", &ops, rt));
            }
            Ok(b.inst1(&format!("mov.b{}", bits.max(16)), &ops, rt))
        }
        K::CeilDivUI(_)
        | K::AddUIExtended(_)
        | K::MulSIExtended(_)
        | K::MulUIExtended(_)
        | K::MaxNumF(_)
        | K::MinNumF(_)
        | K::RemF(_)
        | K::ScalingExtF(_)
        | K::ScalingTruncF(_) => Err("no PTX lowering for this op".into()),
    }
}

/// An integer width change (or a move), `signed` choosing sign extension.
fn int_cast(
    b: &mut OpBuilder<'_>,
    x: Value,
    ws: u32,
    wd: u32,
    signed: bool,
    rt: Type,
) -> Result<Value, String> {
    if ws == 1 && wd == 1 {
        return Ok(b.inst1("mov.pred", &[x], rt));
    }
    if ws == 1 {
        let wd2 = wd.max(16);
        let (t, f) = if signed { ("-1", "0") } else { ("1", "0") };
        let s = if signed { "s" } else { "u" };
        return Ok(inst_form(
            b,
            &format!("selp.{s}{wd2}"),
            &format!("{t}, {f}, $0"),
            &[x],
            rt,
        ));
    }
    if wd == 1 {
        let ws2 = ws.max(16);
        let xt = b.ctx().value_type(x);
        let bit = inst_form(b, &format!("and.b{ws2}"), "$0, 1", &[x], xt);
        return Ok(inst_form(
            b,
            &format!("setp.ne.b{ws2}"),
            "$0, 0",
            &[bit],
            rt,
        ));
    }
    let (rs, rd) = (ws.max(16), wd.max(16));
    if rs == rd {
        // Same register width (i8 <-> i16, index <-> i64, i64 <-> i64): sign- or zero-extend
        // the low bits when narrowing from a wider logical type is not involved.
        if ws < wd && ws == 8 {
            let s = if signed { "s" } else { "u" };
            return Ok(b.inst1(&format!("cvt.{s}16.{s}8"), &[x], rt));
        }
        return Ok(b.inst1(&format!("mov.b{rd}"), &[x], rt));
    }
    let opcode = if wd > ws {
        let s = if signed { "s" } else { "u" };
        format!("cvt.{s}{rd}.{s}{ws}")
    } else {
        format!("cvt.u{rd}.u{rs}")
    };
    Ok(b.inst1(&opcode, &[x], rt))
}
