//! The e-graph language of `eqsat`: scalar integer arith ops over typed operands, the pure
//! tile ops ([`TILE_OPS`], typed by a [`Kind::TileTy`] leaf holding the IR type), and the
//! e-class analysis that folds constants and tracks value ranges.
//!
//! Types, predicates and literals are leaf e-nodes (children of the op nodes) rather than
//! fields of the ops, so one rule pattern covers every width: `(arith.addi ?t ?x (const ?t 0))`
//! binds `?t` to whatever type the match has. Op names come from the ops' declarations
//! (`ADDI.name`), so the language cannot drift from the dialect.
//!
//! The analysis evaluates with the dialect's own semantics ([`IntBinOp::eval`],
//! [`IntCast::eval`], [`CmpIPredicate::eval`]), so a folded constant wraps at the type's width
//! exactly as the folders and the interpreter do. Ranges are intervals of the value read as an
//! unsigned number of its width, plus a count of known trailing zero bits (divisibility by a
//! power of two); a signed fact is derived only when the whole interval lies below the sign
//! bit, so a negative value is never treated as a small positive one.

use egg::{Analysis, DidMerge, EGraph, FromOp, Id, Language};
use std::fmt;
use tilus_dialects::arith::{
    mask, sext, CmpIPredicate, IntBinOp, IntCast, ADDI, ANDI, CEILDIVSI, CMPI, CONSTANT, DIVSI,
    DIVUI, EXTSI, EXTUI, FLOORDIVSI, INDEX_CAST, INDEX_CASTUI, MAXSI, MAXUI, MINSI, MINUI, MULI,
    ORI, REMSI, REMUI, SELECT, SHLI, SHRSI, SHRUI, SUBI, TRUNCI, XORI,
};
use tilus_dialects::layout::CONVERT;
use tilus_dialects::tilus::{
    ABS, ADD, CAST, DIV, EXP, EXP2, LOG, MAXIMUM, MINIMUM, MOD, MUL, NEG, PERMUTE_SHARED, RSQRT,
    SQRT, SUB, TANH,
};
use tilus_dialects::tilus_types::DType;
use tilus_ir::handle::KeywordEnum;
use tilus_ir::opdef::OpDef;
use tilus_ir::Type;

/// Every integer binary op of arith the language has, with its declaration.
pub const BIN_OPS: &[(IntBinOp, &OpDef)] = &[
    (IntBinOp::AddI, &ADDI),
    (IntBinOp::SubI, &SUBI),
    (IntBinOp::MulI, &MULI),
    (IntBinOp::DivSI, &DIVSI),
    (IntBinOp::DivUI, &DIVUI),
    (IntBinOp::RemSI, &REMSI),
    (IntBinOp::RemUI, &REMUI),
    (IntBinOp::AndI, &ANDI),
    (IntBinOp::OrI, &ORI),
    (IntBinOp::XOrI, &XORI),
    (IntBinOp::ShLI, &SHLI),
    (IntBinOp::ShRSI, &SHRSI),
    (IntBinOp::ShRUI, &SHRUI),
    (IntBinOp::MaxSI, &MAXSI),
    (IntBinOp::MinSI, &MINSI),
    (IntBinOp::MaxUI, &MAXUI),
    (IntBinOp::MinUI, &MINUI),
    (IntBinOp::CeilDivSI, &CEILDIVSI),
    (IntBinOp::FloorDivSI, &FLOORDIVSI),
];

/// The declaration of a binary op.
pub fn bin_def(op: IntBinOp) -> &'static OpDef {
    BIN_OPS
        .iter()
        .find(|(o, _)| *o == op)
        .map(|(_, d)| *d)
        .expect("every IntBinOp is in BIN_OPS")
}

/// How a pure tile op's operands sit among its node's children.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TileShape {
    /// `[result-type, x]`.
    Unary,
    /// `[result-type, lhs, rhs]`.
    Binary,
    /// `[result-type, perm, x]`: `tilus.permute_shared`, whose permutation is a
    /// [`Kind::Perm`] leaf.
    Permute,
}

/// The pure tile ops the language has, with their declarations: the value-to-value ops of
/// the tilus and layout dialects that have no attribute but the result type (and the
/// permutation of `tilus.permute_shared`), so a node and its result type say all there is.
/// [`Kind::Tile`] indexes this table.
pub const TILE_OPS: &[(&OpDef, TileShape)] = &[
    (&CAST, TileShape::Unary),
    (&CONVERT, TileShape::Unary),
    (&PERMUTE_SHARED, TileShape::Permute),
    (&ADD, TileShape::Binary),
    (&SUB, TileShape::Binary),
    (&MUL, TileShape::Binary),
    (&DIV, TileShape::Binary),
    (&MOD, TileShape::Binary),
    (&MAXIMUM, TileShape::Binary),
    (&MINIMUM, TileShape::Binary),
    (&EXP, TileShape::Unary),
    (&EXP2, TileShape::Unary),
    (&LOG, TileShape::Unary),
    (&SQRT, TileShape::Unary),
    (&RSQRT, TileShape::Unary),
    (&TANH, TileShape::Unary),
    (&NEG, TileShape::Unary),
    (&ABS, TileShape::Unary),
];

/// The index in [`TILE_OPS`] of the op declared by `def`.
pub fn tile_index(def: &OpDef) -> Option<u8> {
    TILE_OPS
        .iter()
        .position(|(d, _)| std::ptr::eq(*d, def))
        .map(|i| i as u8)
}

impl TileShape {
    /// Children of a node of this shape, the result type included.
    pub fn arity(self) -> usize {
        match self {
            TileShape::Unary => 2,
            TileShape::Binary | TileShape::Permute => 3,
        }
    }
}

/// A permutation of at most 15 dimensions packed in a word: the rank in the top four bits,
/// dimension `i` in bits `4i..4i+4`, so a permutation can be a leaf's payload.
pub fn pack_perm(perm: &[usize]) -> Option<u64> {
    if perm.len() > 15 || perm.iter().any(|p| *p > 15) {
        return None;
    }
    let mut w = (perm.len() as u64) << 60;
    for (i, p) in perm.iter().enumerate() {
        w |= (*p as u64) << (4 * i);
    }
    Some(w)
}

/// The permutation [`pack_perm`] packed.
pub fn unpack_perm(w: u64) -> Vec<usize> {
    let n = (w >> 60) as usize;
    (0..n).map(|i| ((w >> (4 * i)) & 15) as usize).collect()
}

/// What the rules and the cost model need of a tile type, computed by the pass from the IR
/// type (the analysis has no `Context`).
#[derive(Clone, Debug, PartialEq)]
pub struct TileInfo {
    /// The element type.
    pub dtype: DType,
    /// Elements each thread holds (the whole tile when the type has no register layout).
    pub per_thread: f64,
}

/// Whether converting every value of `from` to `to` keeps it exactly (as `tilus.cast`
/// converts: integers keep their value when it fits, floats round to nearest), so a cast
/// through `to` is the same as no cast. Integers read signless as signed; one-bit
/// integers are left out (a cast to `i1` is `x != 0`, not a wrap).
pub fn exact_conversion(from: DType, to: DType) -> bool {
    use tilus_ir::types::Signedness::Unsigned;
    // (exponent bits, mantissa bits) of the IEEE-like formats whose value sets nest.
    let float = |d: DType| match d {
        DType::F16 => Some((5, 10)),
        DType::BF16 => Some((8, 7)),
        DType::F32 => Some((8, 23)),
        DType::F64 => Some((11, 52)),
        DType::F8E4M3 => Some((4, 3)),
        DType::F8E5M2 => Some((5, 2)),
        DType::F6E2M3 => Some((2, 3)),
        DType::F6E3M2 => Some((3, 2)),
        DType::F4E2M1 => Some((2, 1)),
        DType::TF32 | DType::Int { .. } => None,
    };
    match (from, to) {
        (
            DType::Int {
                bits: a,
                signedness: sa,
            },
            DType::Int {
                bits: b,
                signedness: sb,
            },
        ) if a > 1 && b > 1 => match (sa == Unsigned, sb == Unsigned) {
            (false, false) | (true, true) => b >= a,
            (true, false) => b > a,
            (false, true) => false,
        },
        (DType::Int { bits, signedness }, t) if bits > 1 => {
            // Every integer of `bits` bits has a mantissa of at most `bits` (unsigned) or
            // `bits - 1` (signed) significant bits.
            let sig = if signedness == Unsigned {
                bits
            } else {
                bits - 1
            };
            float(t).is_some_and(|(e, m)| sig <= m + 1 && sig < (1 << (e - 1)))
        }
        (f, t) => match (float(f), float(t)) {
            // The f8/f6/f4 formats have no infinities and use the top exponent for values,
            // so they fit a format with more exponent bits, not one with as many.
            (Some((ef, mf)), Some((et, mt))) if f != t => {
                let small = matches!(
                    f,
                    DType::F8E4M3 | DType::F6E2M3 | DType::F6E3M2 | DType::F4E2M1
                );
                let e_ok = if small { et > ef } else { et >= ef };
                e_ok && mt >= mf
            }
            _ => false,
        },
    }
}

/// The integer conversions, each with its declaration and its semantics.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Cast {
    ExtSI,
    ExtUI,
    TruncI,
    IndexCast,
    IndexCastUI,
}

impl Cast {
    /// Every conversion.
    pub const ALL: [Cast; 5] = [
        Cast::ExtSI,
        Cast::ExtUI,
        Cast::TruncI,
        Cast::IndexCast,
        Cast::IndexCastUI,
    ];
    /// Its declaration.
    pub fn def(self) -> &'static OpDef {
        match self {
            Cast::ExtSI => &EXTSI,
            Cast::ExtUI => &EXTUI,
            Cast::TruncI => &TRUNCI,
            Cast::IndexCast => &INDEX_CAST,
            Cast::IndexCastUI => &INDEX_CASTUI,
        }
    }
    /// Its semantics.
    pub fn semantics(self) -> IntCast {
        match self {
            Cast::ExtSI | Cast::IndexCast => IntCast::Signed,
            Cast::ExtUI | Cast::TruncI | Cast::IndexCastUI => IntCast::Unsigned,
        }
    }
}

/// A signless integer type or `index` (64 bits), the only types the language holds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Ty {
    /// Bit width (64 for `index`).
    pub width: u32,
    /// Whether it is `index`.
    pub index: bool,
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.index {
            f.write_str("index")
        } else {
            write!(f, "i{}", self.width)
        }
    }
}

impl std::str::FromStr for Ty {
    type Err = ();
    fn from_str(s: &str) -> Result<Ty, ()> {
        if s == "index" {
            return Ok(Ty {
                width: 64,
                index: true,
            });
        }
        let w: u32 = s.strip_prefix('i').ok_or(())?.parse().map_err(|_| ())?;
        if (1..=64).contains(&w) {
            Ok(Ty {
                width: w,
                index: false,
            })
        } else {
            Err(())
        }
    }
}

/// What an e-node is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// `[ty, lhs, rhs]`; the op is `BIN_OPS[i]`.
    Bin(u8),
    /// `[pred, lhs, rhs]`, an `i1`.
    Cmp,
    /// `[ty, cond, true, false]`.
    Select,
    /// `[to-ty, x]`.
    Cast(Cast),
    /// `[ty, num]`: the constant `num` of type `ty` (bits masked to the width).
    Const,
    /// A type (leaf).
    Ty(Ty),
    /// A comparison predicate, as its index in `CmpIPredicate` (leaf).
    Pred(u8),
    /// A value from outside the rewritten ops: a block argument, a result of a skeleton op or
    /// of an op in another block (leaf). The number indexes [`EqAnalysis::vars`].
    Var(u32),
    /// An integer literal (leaf).
    Num(i128),
    /// `TILE_OPS[i]`, children as its [`TileShape`] says.
    Tile(u8),
    /// A tile type (leaf): the IR type itself, so shape, element type and layout are all part
    /// of the node and nothing merges across types.
    TileTy(Type),
    /// A permutation, packed by [`pack_perm`] (leaf).
    Perm(u64),
}

/// An e-node: its kind and up to four children.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Node {
    pub kind: Kind,
    pub n: u8,
    pub args: [Id; 4],
}

fn unused_child() -> Id {
    Id::from(0usize)
}

impl Node {
    /// A leaf.
    pub fn leaf(kind: Kind) -> Node {
        Node {
            kind,
            n: 0,
            args: [unused_child(); 4],
        }
    }
    /// An op with children.
    pub fn op(kind: Kind, children: &[Id]) -> Node {
        let mut args = [unused_child(); 4];
        args[..children.len()].copy_from_slice(children);
        Node {
            kind,
            n: children.len() as u8,
            args,
        }
    }
    /// The binary op, when it is one.
    pub fn bin(&self) -> Option<IntBinOp> {
        match self.kind {
            Kind::Bin(i) => Some(BIN_OPS[i as usize].0),
            _ => None,
        }
    }
}

/// The index of a binary op in [`BIN_OPS`].
pub fn bin_index(op: IntBinOp) -> u8 {
    BIN_OPS
        .iter()
        .position(|(o, _)| *o == op)
        .expect("in BIN_OPS") as u8
}

/// The predicate at index `i`.
pub fn pred_of(i: u8) -> CmpIPredicate {
    CmpIPredicate::from_index(i as i64).expect("a predicate index")
}

impl Language for Node {
    type Discriminant = Kind;
    fn discriminant(&self) -> Kind {
        self.kind
    }
    fn matches(&self, other: &Self) -> bool {
        self.kind == other.kind && self.n == other.n
    }
    fn children(&self) -> &[Id] {
        &self.args[..self.n as usize]
    }
    fn children_mut(&mut self) -> &mut [Id] {
        &mut self.args[..self.n as usize]
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Bin(i) => f.write_str(BIN_OPS[i as usize].1.name),
            Kind::Cmp => f.write_str(CMPI.name),
            Kind::Select => f.write_str(SELECT.name),
            Kind::Cast(c) => f.write_str(c.def().name),
            Kind::Const => f.write_str("const"),
            Kind::Ty(t) => write!(f, "{t}"),
            Kind::Pred(p) => f.write_str(CmpIPredicate::KEYWORDS[p as usize]),
            Kind::Var(v) => write!(f, "%{v}"),
            Kind::Num(n) => write!(f, "{n}"),
            Kind::Tile(i) => f.write_str(TILE_OPS[i as usize].0.name),
            Kind::TileTy(t) => write!(f, "!tile{t:?}"),
            Kind::Perm(p) => write!(f, "{:?}", unpack_perm(p)),
        }
    }
}

/// Why an operator does not name an e-node (for rule-file diagnostics).
#[derive(Debug, Clone, PartialEq)]
pub struct OpError(pub String);

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How many children each operator takes, by its spelling; `None` for an unknown one.
pub fn parse_kind(op: &str) -> Option<(Kind, usize)> {
    if let Some((b, _)) = BIN_OPS.iter().find(|(_, d)| d.name == op) {
        return Some((Kind::Bin(bin_index(*b)), 3));
    }
    if let Some(c) = Cast::ALL.iter().find(|c| c.def().name == op) {
        return Some((Kind::Cast(*c), 2));
    }
    if op == CMPI.name {
        return Some((Kind::Cmp, 3));
    }
    if let Some(i) = TILE_OPS.iter().position(|(d, _)| d.name == op) {
        return Some((Kind::Tile(i as u8), TILE_OPS[i].1.arity()));
    }
    if op == SELECT.name {
        return Some((Kind::Select, 4));
    }
    if op == "const" || op == CONSTANT.name {
        return Some((Kind::Const, 2));
    }
    if let Ok(t) = op.parse::<Ty>() {
        return Some((Kind::Ty(t), 0));
    }
    if let Some(p) = CmpIPredicate::KEYWORDS.iter().position(|k| *k == op) {
        return Some((Kind::Pred(p as u8), 0));
    }
    if let Some(v) = op.strip_prefix('%') {
        return v.parse().ok().map(|v| (Kind::Var(v), 0));
    }
    op.parse::<i128>().ok().map(|n| (Kind::Num(n), 0))
}

impl FromOp for Node {
    type Error = OpError;
    fn from_op(op: &str, children: Vec<Id>) -> Result<Self, OpError> {
        let (kind, n) =
            parse_kind(op).ok_or_else(|| OpError(format!("unknown operator '{op}'")))?;
        if n != children.len() {
            return Err(OpError(format!(
                "'{op}' takes {n} operands here, not {}",
                children.len()
            )));
        }
        Ok(Node::op(kind, &children))
    }
}

/// What is known of one e-class's value.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// The value's type; `None` for the leaves that are not values (types, predicates,
    /// literals).
    pub ty: Option<Ty>,
    /// The literal, type or predicate of a non-value leaf.
    pub meta: Option<Kind>,
    /// Smallest value, read as unsigned.
    pub lo: u128,
    /// Largest value, read as unsigned.
    pub hi: u128,
    /// Known trailing zero bits (the value is a multiple of `2^tz`).
    pub tz: u32,
    /// The bits that may be set (every other bit is known zero). The interval and the
    /// trailing zeros bound it from outside; the bitwise ops make it finer: a thread index
    /// built as `(w << 11) + (r << 6) + (c << 3)` has holes at bits 8..10 that no interval
    /// shows, and the disjoint-bit rules need exactly those.
    pub may: u128,
    /// The type of a tile value (`ty` is then `None`).
    pub tile: Option<Type>,
}

impl Facts {
    /// Nothing known of a value of type `ty`.
    pub fn top(ty: Ty) -> Facts {
        Facts {
            ty: Some(ty),
            meta: None,
            lo: 0,
            hi: mask(ty.width),
            tz: 0,
            may: mask(ty.width),
            tile: None,
        }
    }
    /// The constant `bits` of type `ty`.
    pub fn constant(ty: Ty, bits: u128) -> Facts {
        let bits = bits & mask(ty.width);
        Facts {
            ty: Some(ty),
            meta: None,
            lo: bits,
            hi: bits,
            tz: if bits == 0 {
                ty.width
            } else {
                bits.trailing_zeros().min(ty.width)
            },
            may: bits,
            tile: None,
        }
    }
    /// A value of type `ty` in `[lo, hi]` (unsigned), a multiple of `2^tz`.
    pub fn range(ty: Ty, lo: u128, hi: u128, tz: u32) -> Facts {
        let m = mask(ty.width);
        if lo > hi || hi > m {
            return Facts::top(ty);
        }
        if lo == hi {
            return Facts::constant(ty, lo);
        }
        Facts {
            ty: Some(ty),
            meta: None,
            lo,
            hi,
            tz: tz.min(ty.width),
            may: range_bits(hi, tz),
            tile: None,
        }
    }
    fn meta(k: Kind) -> Facts {
        Facts {
            ty: None,
            meta: Some(k),
            lo: 0,
            hi: 0,
            tz: 0,
            may: 0,
            tile: None,
        }
    }
    /// A tile value of type `t`.
    pub fn tile(t: Type) -> Facts {
        Facts {
            ty: None,
            meta: None,
            lo: 0,
            hi: 0,
            tz: 0,
            may: 0,
            tile: Some(t),
        }
    }
    /// These facts and the value's bits lying within `may`: the interval's top, the trailing
    /// zeros and the mask are tightened against each other. A value whose bits are all known
    /// zero is the constant 0.
    pub fn with_may(mut self, may: u128) -> Facts {
        let Some(ty) = self.ty else {
            return self;
        };
        let w = ty.width;
        let may = self.may & may & mask(w) & !mask(self.tz.min(w));
        if may == 0 {
            return Facts::constant(ty, 0);
        }
        if self.lo > may {
            // Contradictory facts can only come from undefined behaviour; keep the interval.
            return self;
        }
        self.may = may;
        self.hi = self.hi.min(may);
        self.tz = self.tz.max(may.trailing_zeros()).min(w);
        if self.lo == self.hi {
            return Facts::constant(ty, self.lo);
        }
        self
    }
    /// The value, when only one is possible.
    pub fn konst(&self) -> Option<u128> {
        (self.ty.is_some() && self.lo == self.hi).then_some(self.lo)
    }
    /// The width of the value (0 for non-values).
    pub fn width(&self) -> u32 {
        self.ty.map_or(0, |t| t.width)
    }
    /// Whether the value, read as signed, is never negative.
    pub fn nonneg(&self) -> bool {
        let w = self.width();
        w > 0 && self.hi < (1u128 << (w - 1))
    }
}

/// The bits a value at most `hi` and a multiple of `2^tz` may have set.
fn range_bits(hi: u128, tz: u32) -> u128 {
    let top = 128 - hi.leading_zeros();
    mask(top) & !mask(tz.min(top))
}

/// Facts about the leaves ([`Kind::Var`]): their types and what range analysis found.
#[derive(Default, Clone, Debug)]
pub struct EqAnalysis {
    /// Facts of `Var(i)`.
    pub vars: Vec<Facts>,
    /// The class of each constant the graph has, by type and bits: folding a class then
    /// costs one union instead of three hash-consed adds (most classes of a large block fold).
    pub consts: rustc_hash::FxHashMap<(Ty, u128), Id>,
    /// What the pass read off each tile type the graph has.
    pub tiles: rustc_hash::FxHashMap<Type, TileInfo>,
}

/// The egg e-graph of this language.
pub type EG = EGraph<Node, EqAnalysis>;

/// What an op node yields, from the facts of its children: the transfer function of the range
/// analysis and the constant folder in one. Also used to seed leaves from ops outside the
/// block, so the facts of a value do not depend on where it is seen from.
pub fn transfer(kind: Kind, args: &[&Facts]) -> Option<Facts> {
    let meta_ty = |f: &Facts| match f.meta {
        Some(Kind::Ty(t)) => Some(t),
        _ => None,
    };
    Some(match kind {
        Kind::Const => {
            let ty = meta_ty(args[0])?;
            let Some(Kind::Num(n)) = args[1].meta else {
                return None;
            };
            Facts::constant(ty, n as u128)
        }
        Kind::Bin(i) => {
            let ty = meta_ty(args[0])?;
            let (a, b) = (args[1], args[2]);
            if a.ty != Some(ty) || b.ty != Some(ty) {
                return None;
            }
            bin_facts(BIN_OPS[i as usize].0, ty, a, b)
        }
        Kind::Cmp => {
            let Some(Kind::Pred(p)) = args[0].meta else {
                return None;
            };
            let (a, b) = (args[1], args[2]);
            let (ta, tb) = (a.ty?, b.ty?);
            if ta != tb {
                return None;
            }
            let i1 = Ty {
                width: 1,
                index: false,
            };
            match cmp_decided(pred_of(p), ta.width, a, b) {
                Some(r) => Facts::constant(i1, r as u128),
                None => Facts::top(i1),
            }
        }
        Kind::Select => {
            let ty = meta_ty(args[0])?;
            let (c, a, b) = (args[1], args[2], args[3]);
            if c.width() != 1 || a.ty != Some(ty) || b.ty != Some(ty) {
                return None;
            }
            match c.konst() {
                Some(1) => a.clone(),
                Some(_) => b.clone(),
                None => Facts::range(ty, a.lo.min(b.lo), a.hi.max(b.hi), a.tz.min(b.tz))
                    .with_may(a.may | b.may),
            }
        }
        Kind::Cast(c) => {
            let to = meta_ty(args[0])?;
            let x = args[1];
            let from = x.ty?;
            let legal = match c {
                Cast::ExtSI | Cast::ExtUI => to.width > from.width,
                Cast::TruncI => to.width < from.width,
                Cast::IndexCast | Cast::IndexCastUI => from.index != to.index,
            };
            if !legal {
                return None;
            }
            if let Some(k) = x.konst() {
                return Some(Facts::constant(
                    to,
                    c.semantics().eval(k, from.width, to.width),
                ));
            }
            let keeps = match c.semantics() {
                IntCast::Unsigned => x.hi <= mask(to.width),
                IntCast::Signed => {
                    (to.width >= from.width && x.nonneg())
                        || (to.width < from.width && x.hi < (1u128 << (to.width - 1)))
                }
            };
            let facts = if keeps {
                Facts::range(to, x.lo, x.hi, x.tz)
            } else {
                Facts::top(to)
            };
            // Truncation keeps the low bits; zero extension adds zeros; sign extension of a
            // non-negative value too.
            let may = if to.width <= from.width || c.semantics() == IntCast::Unsigned || x.nonneg()
            {
                x.may & mask(to.width)
            } else {
                mask(to.width)
            };
            facts.with_may(may)
        }
        Kind::Tile(i) => {
            let Some(Kind::TileTy(t)) = args[0].meta else {
                return None;
            };
            let operands = match TILE_OPS[i as usize].1 {
                TileShape::Permute => {
                    if !matches!(args[1].meta, Some(Kind::Perm(_))) {
                        return None;
                    }
                    &args[2..]
                }
                _ => &args[1..],
            };
            if operands.iter().any(|a| a.tile.is_none()) {
                return None;
            }
            Facts::tile(t)
        }
        Kind::Ty(_) | Kind::Pred(_) | Kind::Num(_) | Kind::TileTy(_) | Kind::Perm(_) => {
            Facts::meta(kind)
        }
        Kind::Var(_) => return None,
    })
}

/// What a binary op yields: its interval and trailing zeros ([`bin_range`]), tightened by the
/// bits it may set ([`bin_may`]).
fn bin_facts(op: IntBinOp, ty: Ty, a: &Facts, b: &Facts) -> Facts {
    bin_range(op, ty, a, b).with_may(bin_may(op, ty, a, b))
}

/// The bits a binary op's result may have set, from its operands' (all bits when the op mixes
/// them in ways a mask cannot follow).
fn bin_may(op: IntBinOp, ty: Ty, a: &Facts, b: &Facts) -> u128 {
    let w = ty.width;
    let m = mask(w);
    // The shift amount `k` of a constant operand inside the width, and `log2` of a power of
    // two, for the ops that move bits.
    let shift = |f: &Facts| f.konst().filter(|k| *k < w as u128).map(|k| k as u32);
    let log2 = |f: &Facts| {
        f.konst()
            .filter(|c| c.is_power_of_two())
            .map(|c| c.trailing_zeros())
    };
    match op {
        IntBinOp::AndI => a.may & b.may,
        IntBinOp::OrI | IntBinOp::XOrI => a.may | b.may,
        IntBinOp::MaxUI | IntBinOp::MinUI | IntBinOp::MaxSI | IntBinOp::MinSI => a.may | b.may,
        IntBinOp::AddI => {
            if a.may & b.may == 0 {
                // No carry: the sum is the `or`.
                a.may | b.may
            } else {
                let tz = (a.may | b.may).trailing_zeros();
                match a.may.checked_add(b.may) {
                    Some(s) if s <= m => range_bits(s, tz),
                    _ => m & !mask(tz.min(w)),
                }
            }
        }
        IntBinOp::ShLI => shift(b).map_or(m, |k| (a.may << k) & m),
        IntBinOp::MulI => match (log2(a), log2(b)) {
            (_, Some(k)) => (a.may << k) & m,
            (Some(k), _) => (b.may << k) & m,
            _ => m,
        },
        IntBinOp::ShRUI => shift(b).map_or(m, |k| a.may >> k),
        IntBinOp::ShRSI if a.nonneg() => shift(b).map_or(m, |k| a.may >> k),
        IntBinOp::DivUI => log2(b).map_or(m, |k| a.may >> k),
        IntBinOp::RemUI => log2(b).map_or(m, |k| a.may & mask(k)),
        _ => m,
    }
}

/// The interval and trailing zeros of a binary op's result.
fn bin_range(op: IntBinOp, ty: Ty, a: &Facts, b: &Facts) -> Facts {
    let w = ty.width;
    let m = mask(w);
    if let (Some(x), Some(y)) = (a.konst(), b.konst()) {
        return match op.eval(x, y, w) {
            Ok(r) => Facts::constant(ty, r),
            Err(_) => Facts::top(ty),
        };
    }
    let top = Facts::top(ty);
    match op {
        IntBinOp::AddI => match a.hi.checked_add(b.hi) {
            Some(h) if h <= m => Facts::range(ty, a.lo + b.lo, h, a.tz.min(b.tz)),
            _ => Facts {
                tz: a.tz.min(b.tz),
                ..top
            },
        },
        IntBinOp::SubI if a.lo >= b.hi => {
            Facts::range(ty, a.lo - b.hi, a.hi - b.lo, a.tz.min(b.tz))
        }
        IntBinOp::MulI => match a.hi.checked_mul(b.hi) {
            Some(h) if h <= m => Facts::range(ty, a.lo * b.lo, h, (a.tz + b.tz).min(w)),
            _ => Facts {
                tz: (a.tz + b.tz).min(w),
                ..top
            },
        },
        IntBinOp::ShLI => match b.konst() {
            Some(k) if k < w as u128 => {
                let k = k as u32;
                if a.hi <= (m >> k) {
                    Facts::range(ty, a.lo << k, a.hi << k, (a.tz + k).min(w))
                } else {
                    Facts {
                        tz: (a.tz + k).min(w),
                        ..top
                    }
                }
            }
            _ => top,
        },
        IntBinOp::ShRUI => match b.konst() {
            Some(k) if k < w as u128 => {
                Facts::range(ty, a.lo >> k, a.hi >> k, a.tz.saturating_sub(k as u32))
            }
            _ => Facts::range(ty, 0, a.hi, 0),
        },
        IntBinOp::ShRSI if a.nonneg() => match b.konst() {
            Some(k) if k < w as u128 => {
                Facts::range(ty, a.lo >> k, a.hi >> k, a.tz.saturating_sub(k as u32))
            }
            _ => Facts::range(ty, 0, a.hi, 0),
        },
        IntBinOp::DivUI => match b.konst() {
            Some(c) if c > 0 => Facts::range(ty, a.lo / c, a.hi / c, 0),
            _ => Facts::range(ty, 0, a.hi, 0),
        },
        IntBinOp::DivSI | IntBinOp::FloorDivSI if a.nonneg() && b.nonneg() && b.lo > 0 => {
            Facts::range(ty, a.lo / b.hi, a.hi / b.lo, 0)
        }
        IntBinOp::RemUI => {
            if b.lo > 0 && a.hi < b.lo {
                a.clone()
            } else if b.hi > 0 {
                Facts::range(ty, 0, a.hi.min(b.hi - 1), a.tz.min(b.tz))
            } else {
                top
            }
        }
        IntBinOp::RemSI if a.nonneg() && b.nonneg() && b.hi > 0 => {
            Facts::range(ty, 0, a.hi.min(b.hi - 1), a.tz.min(b.tz))
        }
        IntBinOp::AndI => Facts::range(ty, 0, a.hi.min(b.hi), a.tz.max(b.tz)),
        IntBinOp::OrI | IntBinOp::XOrI => {
            let bits = 128 - (a.hi | b.hi).leading_zeros();
            Facts::range(ty, 0, mask(bits), a.tz.min(b.tz))
        }
        IntBinOp::MaxUI => Facts::range(ty, a.lo.max(b.lo), a.hi.max(b.hi), a.tz.min(b.tz)),
        IntBinOp::MinUI => Facts::range(ty, a.lo.min(b.lo), a.hi.min(b.hi), a.tz.min(b.tz)),
        IntBinOp::MaxSI | IntBinOp::MinSI if a.nonneg() && b.nonneg() => {
            let u = if op == IntBinOp::MaxSI {
                IntBinOp::MaxUI
            } else {
                IntBinOp::MinUI
            };
            bin_range(u, ty, a, b)
        }
        _ => top,
    }
}

/// The comparison's result when the ranges decide it.
pub fn cmp_decided(p: CmpIPredicate, w: u32, a: &Facts, b: &Facts) -> Option<bool> {
    use CmpIPredicate as P;
    if let (Some(x), Some(y)) = (a.konst(), b.konst()) {
        return Some(p.eval(x, y, w));
    }
    // Signed predicates read ranges only when both sides are non-negative, where the signed
    // and unsigned orders agree.
    let unsigned = match p {
        P::Slt | P::Sle | P::Sgt | P::Sge if !(a.nonneg() && b.nonneg()) => return None,
        P::Slt | P::Ult => P::Ult,
        P::Sle | P::Ule => P::Ule,
        P::Sgt | P::Ugt => P::Ugt,
        P::Sge | P::Uge => P::Uge,
        P::Eq | P::Ne => p,
    };
    let lt = |x: &Facts, y: &Facts| -> Option<bool> {
        if x.hi < y.lo {
            Some(true)
        } else if x.lo >= y.hi {
            Some(false)
        } else {
            None
        }
    };
    match unsigned {
        P::Ult => lt(a, b),
        P::Uge => lt(a, b).map(|r| !r),
        P::Ugt => lt(b, a),
        P::Ule => lt(b, a).map(|r| !r),
        P::Eq | P::Ne => {
            let disjoint = a.hi < b.lo || b.hi < a.lo;
            disjoint.then_some(p == P::Ne)
        }
        _ => None,
    }
}

impl Analysis<Node> for EqAnalysis {
    type Data = Facts;

    fn make(egraph: &mut EG, enode: &Node) -> Facts {
        if let Kind::Var(v) = enode.kind {
            return egraph.analysis.vars[v as usize].clone();
        }
        let args: Vec<&Facts> = enode.children().iter().map(|c| &egraph[*c].data).collect();
        transfer(enode.kind, &args).unwrap_or_else(|| {
            // An ill-typed node (a user rule's right side): a value of unknown type that
            // matches nothing typed.
            Facts::meta(Kind::Num(0))
        })
    }

    fn merge(&mut self, a: &mut Facts, b: Facts) -> DidMerge {
        if a.ty.is_none() || a.ty != b.ty {
            return DidMerge(false, a != &b);
        }
        let (lo, hi) = (a.lo.max(b.lo), a.hi.min(b.hi));
        if lo > hi {
            // Contradictory facts can only come from undefined behaviour; keep ours.
            return DidMerge(false, true);
        }
        let merged = Facts {
            lo,
            hi,
            tz: a.tz.max(b.tz),
            ..a.clone()
        }
        .with_may(b.may);
        let changed_b = merged != b;
        let changed_a = merged != *a;
        *a = merged;
        DidMerge(changed_a, changed_b)
    }

    fn modify(egraph: &mut EG, id: Id) {
        let data = &egraph[id].data;
        let (Some(ty), Some(k)) = (data.ty, data.konst()) else {
            return;
        };
        // Already folded (a constant's own class, or one modified before): nothing to add.
        // Most classes of a folding block come here, so this check keeps `add` cheap.
        let nodes = &egraph[id].nodes;
        if nodes.len() == 1 && nodes[0].kind == Kind::Const {
            return;
        }
        let c = match egraph.analysis.consts.get(&(ty, k)) {
            Some(c) => *c,
            None => {
                let t = egraph.add(Node::leaf(Kind::Ty(ty)));
                let num = egraph.add(Node::leaf(Kind::Num(sext(k, ty.width))));
                let c = egraph.add(Node::op(Kind::Const, &[t, num]));
                egraph.analysis.consts.insert((ty, k), c);
                c
            }
        };
        egraph.union(id, c);
        // A constant needs no other spelling: drop the ops, so rules stop matching them.
        let id = egraph.find(id);
        egraph[id]
            .nodes
            .retain(|n| matches!(n.kind, Kind::Const | Kind::Var(_)));
    }
}
