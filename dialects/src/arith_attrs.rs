//! The attributes of the `arith` dialect: `#arith.overflow<...>` and `#arith.fastmath<...>`.
//!
//! Both are flag sets. They are parsed once into [`OverflowFlags`] and [`FastMathFlags`] and
//! uniqued in MLIR 22's canonical spelling, so `#arith.overflow<nuw,nsw>` and
//! `#arith.overflow<nsw, nuw>` are one attribute, and folders, lowerings and the interpreter read
//! bits rather than words.

use std::sync::Arc;
use tilus_ir::typedef::{DialectSymbols, DialectValue, SymbolDef};
use tilus_ir::{Attr, Context};

/// `#arith.overflow<...>`: the no-signed-wrap and no-unsigned-wrap promises of an integer op.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OverflowFlags {
    pub nsw: bool,
    pub nuw: bool,
}

impl OverflowFlags {
    /// Reads a body: `none`, or any of `nsw` and `nuw` separated by commas.
    pub fn parse(body: &str) -> Result<OverflowFlags, String> {
        let mut f = OverflowFlags::default();
        for w in body.split(',').map(str::trim) {
            match w {
                "none" => {}
                "nsw" => f.nsw = true,
                "nuw" => f.nuw = true,
                _ => return Err(format!("expected 'none', 'nsw' or 'nuw', found '{w}'")),
            }
        }
        Ok(f)
    }

    /// The flags as bits: bit 0 `nsw`, bit 1 `nuw` (what the folders take).
    pub fn bits(self) -> u8 {
        self.nsw as u8 | (self.nuw as u8) << 1
    }

    /// The flags of bits `nsw = 1`, `nuw = 2`.
    pub fn from_bits(bits: u8) -> OverflowFlags {
        OverflowFlags {
            nsw: bits & 1 != 0,
            nuw: bits & 2 != 0,
        }
    }

    /// The uniqued `#arith.overflow<...>` attribute of these flags.
    pub fn get(self, ctx: &mut Context) -> Attr {
        ctx.dialect_attr("arith", "overflow", self)
    }

    /// The flags of `a`, when it is an `#arith.overflow` attribute.
    pub fn of(ctx: &Context, a: Attr) -> Option<OverflowFlags> {
        ctx.attr_value::<OverflowFlags>(a).copied()
    }
}

impl DialectValue for OverflowFlags {
    /// MLIR's spelling: `none`, `nsw`, `nuw` or `nsw, nuw`.
    fn body(&self) -> Option<String> {
        Some(
            match (self.nsw, self.nuw) {
                (false, false) => "none",
                (true, false) => "nsw",
                (false, true) => "nuw",
                (true, true) => "nsw, nuw",
            }
            .to_string(),
        )
    }
}

/// `#arith.fastmath<...>`: the LLVM fast-math flags a float op allows, as a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FastMathFlags(pub u8);

impl FastMathFlags {
    /// Each flag's keyword, in bit order (bit `i` is `WORDS[i]`), which is also the order MLIR
    /// prints them in.
    pub const WORDS: [&'static str; 7] =
        ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"];
    /// Every flag: what `fast` stands for.
    pub const FAST: FastMathFlags = FastMathFlags(0x7f);

    /// The flag of one keyword (`fast` is all of them, `none` is none).
    pub fn from_word(w: &str) -> Option<FastMathFlags> {
        match w {
            "none" => Some(FastMathFlags(0)),
            "fast" => Some(FastMathFlags::FAST),
            _ => Self::WORDS
                .iter()
                .position(|k| *k == w)
                .map(|i| FastMathFlags(1 << i)),
        }
    }

    /// Reads a body: keywords separated by commas.
    pub fn parse(body: &str) -> Result<FastMathFlags, String> {
        let mut f = 0;
        for w in body.split(',').map(str::trim) {
            f |= FastMathFlags::from_word(w)
                .ok_or_else(|| {
                    format!(
                        "expected a fastmath flag (none, {}, fast), found '{w}'",
                        Self::WORDS.join(", ")
                    )
                })?
                .0;
        }
        Ok(FastMathFlags(f))
    }

    /// Whether every flag of `other` is set.
    pub fn contains(self, other: FastMathFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The uniqued `#arith.fastmath<...>` attribute of these flags.
    pub fn get(self, ctx: &mut Context) -> Attr {
        ctx.dialect_attr("arith", "fastmath", self)
    }

    /// The flags of `a`, when it is an `#arith.fastmath` attribute.
    pub fn of(ctx: &Context, a: Attr) -> Option<FastMathFlags> {
        ctx.attr_value::<FastMathFlags>(a).copied()
    }
}

impl DialectValue for FastMathFlags {
    /// MLIR's spelling: `none`, `fast` for all flags, else the flags in bit order joined by `,`
    /// without spaces.
    fn body(&self) -> Option<String> {
        Some(match self.0 {
            0 => "none".to_string(),
            f if f == FastMathFlags::FAST.0 => "fast".to_string(),
            f => FastMathFlags::WORDS
                .iter()
                .enumerate()
                .filter(|(i, _)| f & (1 << i) != 0)
                .map(|(_, w)| *w)
                .collect::<Vec<_>>()
                .join(","),
        })
    }
}

fn body_of<'a>(b: Option<&'a str>, what: &str) -> Result<&'a str, String> {
    b.ok_or_else(|| format!("expected '<' with {what}"))
}

/// `arith` dialect attributes.
pub static ARITH_ATTRS: &[SymbolDef] = &[
    SymbolDef {
        name: "arith.overflow",
        summary: "integer overflow flags (no signed / unsigned wrap)",
        syntax: "#arith.overflow<none | nsw | nuw | nsw, nuw>",
        description: "A promise that the op's result does not wrap as a signed (`nsw`) or \
            unsigned (`nuw`) integer; the result is poison if it does. Printed `nsw, nuw` \
            whatever the order written.",
        parse: |b| {
            Ok(Arc::new(OverflowFlags::parse(body_of(
                b,
                "overflow flags",
            )?)?))
        },
    },
    SymbolDef {
        name: "arith.fastmath",
        summary: "floating-point fast-math flags",
        syntax: "#arith.fastmath<none | fast | FLAG(,FLAG)*>  (FLAG: reassoc nnan ninf nsz arcp contract afn)",
        description: "The LLVM fast-math flags the op allows. `fast` is all seven; flags print \
            in the order of the syntax line, joined by `,`, as MLIR prints them.",
        parse: |b| {
            Ok(Arc::new(FastMathFlags::parse(body_of(
                b,
                "fastmath flags",
            )?)?))
        },
    },
];

/// The types and attributes of the dialect, for `register_dialect_symbols`.
pub const SYMBOLS: DialectSymbols = DialectSymbols {
    types: &[],
    attrs: ARITH_ATTRS,
};
