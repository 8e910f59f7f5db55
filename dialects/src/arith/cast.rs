//! Conversions between integer, index and float types.

use super::*;
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::opt_attr;

macro_rules! cast {
    // `Handle = ID, ...`: the op and its typed handle (for casts without attributes).
    ($h:ident = $id:ident, $name:literal, $($rest:tt)*) => {
        cast!($id, $name, $($rest)*);
        tilus_ir::op_handle! {
            #[doc = concat!("Typed handle of `", $name, "`.")]
            pub struct $h = $id;
            operands {
                in_ = "in": Value
            }
            results {
                out = "out": Value
            }
            attrs {}
            regions {}
            successors {}
        }
    };
    ($id:ident, $name:literal, $from:expr, $to:expr, $doc:literal) => {
        cast!($id, $name, $from, $to, $doc, None, &[]);
    };
    ($id:ident, $name:literal, $from:expr, $to:expr, $doc:literal, $fold:expr, $canon:expr) => {
        cast!($id, $name, $from, $to, $doc, $fold, $canon, [], CAST_FORMAT);
    };
    ($id:ident, $name:literal, $from:expr, $to:expr, $doc:literal, $fold:expr, $canon:expr, [$($attr:expr),*], $fmt:expr) => {
        #[doc = $doc]
        pub static $id: OpDef = OpDef {
            name: $name,
            summary: $doc,
            description: $doc,
            operands: &[one("in", $from)],
            results: &[one("out", $to)],
            attributes: &[$($attr),*],
            traits: &[Trait::Pure, Trait::PerThread],
            format: Format::Declarative($fmt),
            fold: $fold,
            canonicalize: $canon,
            verify: Some(verify_cast),
            ..OpDef::DEFAULT
        };
        const _: () = $id.check();
    };
}

/// The element type of a ranked memref, if `t` is one.
fn ranked_memref_elem(c: &Context, t: Type) -> Option<Type> {
    match c.type_kind(t) {
        TypeKind::MemRef { elem, .. } => Some(*elem),
        _ => None,
    }
}

/// `arith.index_cast`'s operand and result: MLIR's `SignlessIntegerOrIndexLikeOfAnyRank` or a
/// ranked memref of them.
const INT_OR_INDEX: TypeConstraint = TypeConstraint {
    desc: "signless-integer-like or memref of signless-integer",
    check: |c, t| match ranked_memref_elem(c, t) {
        Some(e) => (SIGNLESS_INT_LIKE.check)(c, e),
        None => (SIGNLESS_INT_LIKE.check)(c, t),
    },
    build: None,
};

/// `arith.bitcast`'s operand and result: a signless integer or float, a vector or tensor of
/// them, or a ranked memref of them (never `index`).
const BITCAST_TYPE: TypeConstraint = TypeConstraint {
    desc: "signless-integer-or-float-like or memref of signless-integer or float",
    check: |c, t| {
        let e = ranked_memref_elem(c, t).unwrap_or_else(|| helpers::elem_type(c, t));
        matches!(
            c.type_kind(e),
            TypeKind::Integer {
                signedness: Signedness::Signless,
                ..
            } | TypeKind::Float(_)
        )
    },
    build: None,
};
cast!(
    IndexCastOp = INDEX_CAST,
    "arith.index_cast",
    INT_OR_INDEX,
    INT_OR_INDEX,
    "Converts between index and integer types (sign-extending).",
    Some(fold::index_cast),
    canon::INDEX_CAST
);
cast!(
    IndexCastUIOp = INDEX_CASTUI,
    "arith.index_castui",
    INT_OR_INDEX,
    INT_OR_INDEX,
    "Converts between index and integer types (zero-extending).",
    Some(fold::index_castui),
    canon::INDEX_CASTUI
);
cast!(
    ExtSIOp = EXTSI,
    "arith.extsi",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Sign-extends an integer to a wider type.",
    Some(fold::extsi),
    canon::EXTSI
);
cast!(
    ExtUIOp = EXTUI,
    "arith.extui",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Zero-extends an integer to a wider type.",
    Some(fold::extui),
    &[]
);
cast!(
    TRUNCI,
    "arith.trunci",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Truncates an integer to a narrower type.",
    Some(fold::trunci),
    canon::TRUNCI,
    [OVERFLOW_ATTR],
    "$in (`overflow` `` $overflowFlags^)? attr-dict `:` type($in) `to` type($out)"
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.trunci`.
    pub struct TruncIOp = TRUNCI;
    operands {
        in_ = "in": Value
    }
    results {
        out = "out": Value
    }
    attrs {
        overflow_flags = "overflowFlags": Option<Attr>
    }
    regions {}
    successors {}
}
cast!(
    SIToFPOp = SITOFP,
    "arith.sitofp",
    SIGNLESS_INT_LIKE,
    FLOAT_LIKE,
    "Converts a signed integer to a float."
);
cast!(
    UIToFPOp = UITOFP,
    "arith.uitofp",
    SIGNLESS_INT_LIKE,
    FLOAT_LIKE,
    "Converts an unsigned integer to a float."
);
cast!(
    FPToSIOp = FPTOSI,
    "arith.fptosi",
    FLOAT_LIKE,
    SIGNLESS_INT_LIKE,
    "Converts a float to a signed integer, rounding toward zero."
);
cast!(
    FPToUIOp = FPTOUI,
    "arith.fptoui",
    FLOAT_LIKE,
    SIGNLESS_INT_LIKE,
    "Converts a float to an unsigned integer, rounding toward zero."
);
cast!(
    EXTF,
    "arith.extf",
    FLOAT_LIKE,
    FLOAT_LIKE,
    "Extends a float to a wider float type.",
    None,
    &[],
    [opt_attr("fastmath", FASTMATH_FLAGS)],
    "$in (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)"
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.extf`.
    pub struct ExtFOp = EXTF;
    operands {
        in_ = "in": Value
    }
    results {
        out = "out": Value
    }
    attrs {
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}
cast!(
    TRUNCF,
    "arith.truncf",
    FLOAT_LIKE,
    FLOAT_LIKE,
    "Rounds a float to a narrower float type (`roundingmode` when given).",
    None,
    &[],
    [
        opt_attr("roundingmode", ROUNDING_MODE),
        opt_attr("fastmath", FASTMATH_FLAGS)
    ],
    "$in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)"
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.truncf`.
    pub struct TruncFOp = TRUNCF;
    operands {
        in_ = "in": Value
    }
    results {
        out = "out": Value
    }
    attrs {
        roundingmode = "roundingmode": Option<Attr>,
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}
cast!(
    BitcastOp = BITCAST,
    "arith.bitcast",
    BITCAST_TYPE,
    BITCAST_TYPE,
    "Reinterprets the bits of a value as another type of the same width.",
    Some(fold::bitcast),
    &[]
);

// ----- verification -------------------------------------------------------------------------

/// What a conversion may do to its element type, as MLIR's `areCastCompatible` of each op says.
#[derive(Clone, Copy)]
enum CastRule {
    /// One side `index`, the other a (fixed-width) integer.
    IndexInt,
    /// Integer to a strictly wider (`Some(true)`) or narrower (`Some(false)`) integer.
    IntWidth(bool),
    /// Float to a strictly wider or narrower float.
    FloatWidth(bool),
    /// Fixed-width integer to float.
    IntToFloat,
    /// Float to fixed-width integer.
    FloatToInt,
    /// Same bit width, neither side `index`.
    SameWidth,
}

/// `(is an integer, is index, bit width, is a float)` of an element type.
fn elem_info(ctx: &Context, t: Type) -> (bool, bool, u32, bool) {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => (true, false, *width, false),
        TypeKind::Index => (false, true, 64, false),
        TypeKind::Float(k) => (false, false, k.width(), true),
        _ => (false, false, 0, false),
    }
}

/// The width and kind rules of the arith conversions, at the op (MLIR's `areCastCompatible`
/// and `SameOperandsAndResultShape`): an extension that narrows, a truncation that widens or a
/// bitcast between widths has no meaning, and mlir-opt rejects it.
fn verify_cast(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    use super::ArithOpKind as K;
    let rule = match K::classify(ctx, op) {
        Some(K::IndexCast(_) | K::IndexCastUI(_)) => CastRule::IndexInt,
        Some(K::ExtSI(_) | K::ExtUI(_)) => CastRule::IntWidth(true),
        Some(K::TruncI(_)) => CastRule::IntWidth(false),
        Some(K::ExtF(_)) => CastRule::FloatWidth(true),
        Some(K::TruncF(_)) => CastRule::FloatWidth(false),
        Some(K::SIToFP(_) | K::UIToFP(_)) => CastRule::IntToFloat,
        Some(K::FPToSI(_) | K::FPToUI(_)) => CastRule::FloatToInt,
        Some(K::Bitcast(_)) => CastRule::SameWidth,
        _ => return Ok(()),
    };
    let name = ctx.op_name_str(op);
    let (a, r) = (
        ctx.value_type(ctx.operands(op)[0]),
        ctx.value_type(ctx.results(op)[0]),
    );
    // Ranked memrefs (index_cast, index_castui and bitcast take them) convert elementwise too.
    let shaped = |t: Type| match ctx.type_kind(t) {
        TypeKind::MemRef { shape, elem, .. } => (3, Some(shape.clone()), *elem),
        _ => helpers::container(ctx, t),
    };
    let (ca, sa, ea) = shaped(a);
    let (cr, sr, er) = shaped(r);
    let scalable = |t: Type| match ctx.type_kind(t) {
        TypeKind::Vector { scalable, .. } => scalable.clone(),
        _ => Vec::new(),
    };
    // MLIR's `SameInputOutputTensorDims` holds only between ranked tensors of one shape.
    let unranked_tensor = (ca == 2 && sa.is_none()) || (cr == 2 && sr.is_none());
    if (ca != cr && ca != 0 && cr != 0) || unranked_tensor {
        return Err(Diagnostic::op(
            op,
            format!("'{name}' op failed to verify that input and output have the same tensor dimensions"),
        ));
    }
    if ca != cr || sa != sr || scalable(a) != scalable(r) {
        return Err(Diagnostic::op(
            op,
            format!("'{name}' op requires the same shape for all operands and results"),
        )
        .with_help("a conversion changes each element; the operand and result are both scalars, or both vectors (or tensors) of one shape"));
    }
    // MLIR's `areCastCompatible`: a tensor conversion keeps the encoding.
    let encoding = |t: Type| match ctx.type_kind(t) {
        TypeKind::RankedTensor { encoding, .. } => *encoding,
        _ => None,
    };
    let same_encoding = encoding(a) == encoding(r);
    let (ia, xa, wa, fa) = elem_info(ctx, ea);
    let (ir, xr, wr, fr) = elem_info(ctx, er);
    // `index` where MLIR asks for a fixed-width integer.
    let no_index = |which: &str, i: usize, t: Type| {
        Diagnostic::op(
            op,
            format!(
                "'{name}' op {which} #{i} must be signless-fixed-width-integer-like, but got '{}'",
                type_to_string(ctx, t)
            ),
        )
        .with_help("convert to or from `index` with `arith.index_cast`")
    };
    match rule {
        CastRule::IntWidth(_) | CastRule::IntToFloat | CastRule::SameWidth if xa => {
            return Err(no_index("operand", 0, a))
        }
        CastRule::IntWidth(_) | CastRule::FloatToInt | CastRule::SameWidth if xr => {
            return Err(no_index("result", 0, r))
        }
        _ => {}
    }
    let ok = match rule {
        CastRule::IndexInt => (xa && ir) || (ia && xr),
        CastRule::IntWidth(wider) => ia && ir && if wider { wr > wa } else { wr < wa },
        CastRule::FloatWidth(wider) => fa && fr && if wider { wr > wa } else { wr < wa },
        CastRule::IntToFloat => ia && fr,
        CastRule::FloatToInt => fa && ir,
        CastRule::SameWidth => (ia || fa) && (ir || fr) && wa == wr,
    };
    if ok && same_encoding {
        return Ok(());
    }
    let help = match rule {
        _ if !same_encoding => "the result keeps the operand's tensor encoding".to_string(),
        CastRule::IndexInt => "one side is `index` and the other an integer type".to_string(),
        CastRule::IntWidth(true) | CastRule::FloatWidth(true) => format!(
            "'{name}' converts to a strictly wider type ({wa} bits here, the result has {wr})"
        ),
        CastRule::IntWidth(false) | CastRule::FloatWidth(false) => format!(
            "'{name}' converts to a strictly narrower type ({wa} bits here, the result has {wr})"
        ),
        CastRule::IntToFloat | CastRule::FloatToInt => {
            "an integer converts to a float, or a float to an integer".to_string()
        }
        CastRule::SameWidth => format!(
            "'{name}' keeps the bits, so both types have one width ({wa} and {wr} bits here)"
        ),
    };
    Err(Diagnostic::op(
        op,
        format!(
            "'{name}' op operand type '{}' and result type '{}' are cast incompatible",
            type_to_string(ctx, a),
            type_to_string(ctx, r)
        ),
    )
    .with_help(help))
}

// ----- semantics ----------------------------------------------------------------------------

/// The integer conversions of arith, for evaluation (one semantics for folders and
/// interpreters). Values are bit patterns with upper bits zero; `index` is 64 bits wide.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum IntCast {
    /// `extsi`, and `index_cast`: sign-extends (or truncates, for `index_cast` to a narrower
    /// type).
    Signed,
    /// `extui`, `index_castui`, `trunci`: zero-extends or truncates.
    Unsigned,
}

impl IntCast {
    /// The conversion `op` is, when it is an integer conversion of arith.
    pub fn of(ctx: &Context, op: OpId) -> Option<IntCast> {
        use super::ArithOpKind as K;
        Some(match K::classify(ctx, op)? {
            K::ExtSI(_) | K::IndexCast(_) => IntCast::Signed,
            K::ExtUI(_) | K::IndexCastUI(_) | K::TruncI(_) => IntCast::Unsigned,
            _ => return None,
        })
    }

    /// Converts a `from`-bit pattern to `to` bits.
    pub fn eval(self, bits: u128, from: u32, to: u32) -> u128 {
        use super::int::{mask, sext};
        let bits = bits & mask(from);
        let wide = match self {
            IntCast::Signed => sext(bits, from) as u128,
            IntCast::Unsigned => bits,
        };
        wide & mask(to)
    }
}

#[cfg(test)]
mod semantics_tests {
    use super::*;

    #[test]
    fn extension_and_truncation() {
        assert_eq!(IntCast::Signed.eval(0x80, 8, 16), 0xff80);
        assert_eq!(IntCast::Unsigned.eval(0x80, 8, 16), 0x80);
        assert_eq!(IntCast::Signed.eval(0x1ff, 16, 8), 0xff);
        assert_eq!(IntCast::Unsigned.eval(0x1ff, 16, 8), 0xff);
        assert_eq!(IntCast::Signed.eval(1, 1, 64), u64::MAX as u128);
    }
}
