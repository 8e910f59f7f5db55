//! Conversions between integer, index and float types.

use super::*;
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::opt_attr;

macro_rules! cast {
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
            ..OpDef::DEFAULT
        };
        const _: () = $id.check();
    };
}

const INT_OR_INDEX: TypeConstraint = SIGNLESS_INT_LIKE;
cast!(
    INDEX_CAST,
    "arith.index_cast",
    INT_OR_INDEX,
    INT_OR_INDEX,
    "Converts between index and integer types (sign-extending).",
    Some(fold::index_cast),
    canon::INDEX_CAST
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.index_cast`.
    pub struct IndexCastOp = INDEX_CAST;
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
cast!(
    INDEX_CASTUI,
    "arith.index_castui",
    INT_OR_INDEX,
    INT_OR_INDEX,
    "Converts between index and integer types (zero-extending).",
    Some(fold::index_castui),
    canon::INDEX_CASTUI
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.index_castui`.
    pub struct IndexCastUIOp = INDEX_CASTUI;
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
cast!(
    EXTSI,
    "arith.extsi",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Sign-extends an integer to a wider type.",
    Some(fold::extsi),
    canon::EXTSI
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.extsi`.
    pub struct ExtSIOp = EXTSI;
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
cast!(
    EXTUI,
    "arith.extui",
    SIGNLESS_INT_LIKE,
    SIGNLESS_INT_LIKE,
    "Zero-extends an integer to a wider type.",
    Some(fold::extui),
    &[]
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.extui`.
    pub struct ExtUIOp = EXTUI;
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
    SITOFP,
    "arith.sitofp",
    SIGNLESS_INT_LIKE,
    FLOAT_LIKE,
    "Converts a signed integer to a float."
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.sitofp`.
    pub struct SIToFPOp = SITOFP;
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
cast!(
    UITOFP,
    "arith.uitofp",
    SIGNLESS_INT_LIKE,
    FLOAT_LIKE,
    "Converts an unsigned integer to a float."
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.uitofp`.
    pub struct UIToFPOp = UITOFP;
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
cast!(
    FPTOSI,
    "arith.fptosi",
    FLOAT_LIKE,
    SIGNLESS_INT_LIKE,
    "Converts a float to a signed integer, rounding toward zero."
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.fptosi`.
    pub struct FPToSIOp = FPTOSI;
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
cast!(
    FPTOUI,
    "arith.fptoui",
    FLOAT_LIKE,
    SIGNLESS_INT_LIKE,
    "Converts a float to an unsigned integer, rounding toward zero."
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.fptoui`.
    pub struct FPToUIOp = FPTOUI;
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
    BITCAST,
    "arith.bitcast",
    SCALAR,
    SCALAR,
    "Reinterprets the bits of a value as another type of the same width."
);

tilus_ir::op_handle! {
    /// Typed handle of `arith.bitcast`.
    pub struct BitcastOp = BITCAST;
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
