//! Constants as PTX immediates: which constant `mov`s of the `ptx` dialect a PTX instruction can
//! read as a literal instead of a register, decided once for the emitter ([`crate::ptx_emit`])
//! and for `convert-arith-to-ptx`.
//!
//! `convert-arith-to-ptx` turns every `arith.constant` into `mov.b32 %r, 42` (`mov.f32 %f,
//! 0f3F800000`, ...) so that the IR keeps one value per constant; PTX, though, reads an immediate
//! in almost every source operand (`add.s32 %r2, %r1, 42`, `setp.lt.u32 %p1, %r1, 128`,
//! `selp.b32 %r3, 1, 0, %p1`, `shfl.sync.bfly.b32 %r4, %r3, 16, 31, -1`, `mov.b32 %r5, 7` on a
//! branch edge). The emitter prints the literal where [`accepts`] says the instruction's types
//! take it and the operand stands alone in the form ([`standalone_operands`]: not an address
//! `[...]`, not a vector `{...}`), and drops the `mov` when no user needs the register.
//!
//! The rule comes from the instruction's type suffixes, not from a list of opcodes: an integer
//! literal goes where every type of the instruction is an integer or bit type, `0f...` where every
//! type is `.f32`, `0d...` where every type is `.f64`. Half-precision types never take a literal
//! (ptxas rejects `add.f16 %h1, %h1, 0x3C00`), so an `f16` constant stays in its `.b16` register
//! except when it is copied (`mov.b16`). A negative or large integer goes only into instructions
//! whose integer types all have the constant's width, so that no conversion (`cvt.s64.s32`,
//! `cvt.u64.u32`) has to guess how ptxas extends a literal of another width; a small
//! non-negative one (below 2^31, e.g. a shift amount) reads the same at every width.

use tilus_dialects::ptx::{inst_form, split_form, FormPiece, InstOp};
use tilus_ir::{Context, OpId};

/// What a literal is, for [`accepts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiteralKind {
    /// Decimal (`-7`, `42`) or hexadecimal (`0x3C00`): integers, bits and `f16` bit patterns.
    Int,
    /// `0f3F800000`.
    F32,
    /// `0d3FF0000000000000`.
    F64,
}

/// The immediate a constant `mov` writes, as the emitter prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    /// The text, as PTX writes it.
    pub text: String,
    pub kind: LiteralKind,
    /// The width in bits of the register the `mov` writes.
    pub width: u32,
    /// Whether the value is an integer in `0 .. 2^31`, which reads the same at every width.
    pub small: bool,
}

/// The literal of a constant move: a `ptx.inst "mov.T"` with no operands, no guard and one
/// result, whose operand text is one immediate (as `convert-arith-to-ptx` makes for
/// `arith.constant`). `None` for every other op.
pub fn constant_move(ctx: &Context, op: OpId) -> Option<Literal> {
    if !InstOp::is(ctx, op)
        || !ctx.operands(op).is_empty()
        || ctx.results(op).len() != 1
        || ctx.get_attr(op, "tied").is_some()
    {
        return None;
    }
    let opcode = tilus_dialects::ptx::str_prop(ctx, op, "opcode")?;
    let ty = opcode.strip_prefix("mov.")?;
    let width = match ty {
        "b16" | "s16" | "u16" => 16,
        "b32" | "s32" | "u32" | "f32" => 32,
        "b64" | "s64" | "u64" | "f64" => 64,
        _ => return None,
    };
    let form = inst_form(ctx, op, 0);
    let lit = parse_literal(form.trim(), width)?;
    // `mov.f32` takes only `0f`, `mov.f64` only `0d`, the integer moves only integers.
    let fits = match lit.kind {
        LiteralKind::F32 => ty == "f32",
        LiteralKind::F64 => ty == "f64",
        LiteralKind::Int => !ty.starts_with('f'),
    };
    fits.then_some(lit)
}

fn parse_literal(s: &str, width: u32) -> Option<Literal> {
    let hex = |t: &str, n: usize| t.len() == n && t.bytes().all(|c| c.is_ascii_hexdigit());
    let (kind, small) = if let Some(h) = s.strip_prefix("0f") {
        (hex(h, 8).then_some(LiteralKind::F32)?, false)
    } else if let Some(h) = s.strip_prefix("0d") {
        (hex(h, 16).then_some(LiteralKind::F64)?, false)
    } else if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if h.is_empty() || h.len() > 16 || !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let v = u64::from_str_radix(h, 16).ok()?;
        (LiteralKind::Int, v < 1 << 31)
    } else {
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let small = !s.starts_with('-') && digits.parse::<u64>().is_ok_and(|v| v < 1 << 31);
        (LiteralKind::Int, small)
    };
    Some(Literal {
        text: s.to_string(),
        kind,
        width,
        small,
    })
}

/// One type suffix of an opcode.
enum TypeSuffix {
    Int(u32),
    F32,
    F64,
    /// Half and narrower floats, vectors of them, predicates: never take a literal.
    Other,
}

fn type_suffixes(opcode: &str) -> Vec<TypeSuffix> {
    let mut out = Vec::new();
    for part in opcode.split('.').skip(1) {
        let int = part
            .strip_prefix(['s', 'u', 'b'])
            .and_then(|w| w.parse::<u32>().ok())
            .filter(|w| matches!(w, 8 | 16 | 32 | 64));
        if let Some(w) = int {
            out.push(TypeSuffix::Int(w));
        } else if part == "f32" {
            out.push(TypeSuffix::F32);
        } else if part == "f64" {
            out.push(TypeSuffix::F64);
        } else if part == "pred"
            || part == "tf32"
            || part.starts_with("f16")
            || part.starts_with("bf16")
            || part.starts_with("e4m3")
            || part.starts_with("e5m2")
            || part.starts_with("e2m")
            || part.starts_with("e3m")
            || part.starts_with('f') && part[1..].starts_with(|c: char| c.is_ascii_digit())
        {
            out.push(TypeSuffix::Other);
        }
    }
    out
}

/// Whether an instruction named `opcode` reads `lit` in a source operand that stands alone (see
/// [`standalone_operands`]): decided by its type suffixes, as the module docs say.
pub fn accepts(opcode: &str, lit: &Literal) -> bool {
    let types = type_suffixes(opcode);
    if types.is_empty() {
        return false;
    }
    types.iter().all(|t| match (t, lit.kind) {
        (TypeSuffix::Int(w), LiteralKind::Int) => lit.small || *w == lit.width,
        (TypeSuffix::F32, LiteralKind::F32) => true,
        (TypeSuffix::F64, LiteralKind::F64) => true,
        _ => false,
    })
}

/// For each piece of a form, whether it is an operand `$N` that stands alone: outside `[...]`
/// and `{...}`, with nothing but a comma (or the start or end of the form) on either side.
/// Addresses keep their registers (PTX allows an immediate address only in `.local`), and so do
/// vector operands.
pub fn standalone_operands(pieces: &[FormPiece]) -> Vec<bool> {
    let mut out = vec![false; pieces.len()];
    let mut depth = 0i32;
    for (i, p) in pieces.iter().enumerate() {
        match p {
            FormPiece::Text(t) => {
                for c in t.chars() {
                    match c {
                        '[' | '{' => depth += 1,
                        ']' | '}' => depth -= 1,
                        _ => {}
                    }
                }
            }
            FormPiece::Operand(_) => {
                let before = match i.checked_sub(1).map(|j| &pieces[j]) {
                    None => true,
                    Some(FormPiece::Text(t)) => {
                        let t = t.trim_end();
                        t.is_empty() || t.ends_with(',')
                    }
                    Some(FormPiece::Operand(_)) => false,
                };
                let after = match pieces.get(i + 1) {
                    None => true,
                    Some(FormPiece::Text(t)) => {
                        let t = t.trim_start();
                        t.is_empty() || t.starts_with(',')
                    }
                    Some(FormPiece::Operand(_)) => false,
                };
                out[i] = depth == 0 && before && after;
            }
        }
    }
    out
}

/// The pieces of a `ptx.inst`'s form with, for each, whether it may print a literal.
pub fn form_pieces(
    ctx: &Context,
    op: OpId,
    nargs: usize,
) -> Result<Vec<(FormPiece, bool)>, String> {
    let pieces = split_form(&inst_form(ctx, op, nargs))?;
    let alone = standalone_operands(&pieces);
    Ok(pieces.into_iter().zip(alone).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str, width: u32) -> Literal {
        parse_literal(s, width).unwrap()
    }

    #[test]
    fn literal_kinds_and_sizes() {
        assert_eq!(lit("42", 32).kind, LiteralKind::Int);
        assert!(lit("42", 64).small);
        assert!(!lit("-1", 32).small);
        assert!(!lit("2147483648", 64).small);
        assert!(lit("0x3C00", 16).small);
        assert_eq!(lit("0f3F800000", 32).kind, LiteralKind::F32);
        assert_eq!(lit("0d3FF0000000000000", 64).kind, LiteralKind::F64);
        assert!(parse_literal("%r1", 32).is_none());
        assert!(parse_literal("0f3F80", 32).is_none());
        assert!(parse_literal("-", 32).is_none());
        assert!(parse_literal("{0, 0}", 32).is_none());
    }

    #[test]
    fn types_decide() {
        assert!(accepts("add.s32", &lit("-7", 32)));
        assert!(accepts("setp.lt.u64", &lit("-1", 64)));
        assert!(accepts("mul.wide.s32", &lit("4", 32)));
        // A negative literal of another width than the instruction's types.
        assert!(!accepts("cvt.s64.s32", &lit("-5", 32)));
        // `.wide` widens the result; its sources are the literal's width.
        assert!(accepts("mul.wide.s32", &lit("-4", 32)));
        // Shift amounts are 32-bit in a 64-bit shift: small values only.
        assert!(accepts("shl.b64", &lit("3", 32)));
        assert!(accepts("add.f32", &lit("0f3F800000", 32)));
        assert!(accepts("max.NaN.f32", &lit("0f00000000", 32)));
        assert!(!accepts("add.f32", &lit("1", 32)));
        assert!(!accepts("add.s32", &lit("0f3F800000", 32)));
        assert!(!accepts("add.f16", &lit("0x3C00", 16)));
        assert!(!accepts("cvt.rn.f32.s32", &lit("1", 32)));
        assert!(!accepts("fma.rn.f16x2", &lit("0", 32)));
        assert!(!accepts(
            "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16",
            &lit("1", 32)
        ));
        assert!(!accepts("bar.sync", &lit("0", 32)));
        assert!(accepts("mov.b16", &lit("0x3C00", 16)));
    }

    #[test]
    fn standalone() {
        let p = split_form("$0, $1").unwrap();
        assert_eq!(standalone_operands(&p), vec![true, false, true]);
        let p = split_form("[$0+16], $1").unwrap();
        assert_eq!(standalone_operands(&p), vec![false, false, false, true]);
        let p = split_form("{$0, $1}, [$2]").unwrap();
        assert!(standalone_operands(&p).iter().all(|b| !b));
        let p = split_form("$0").unwrap();
        assert_eq!(standalone_operands(&p), vec![true]);
    }
}
