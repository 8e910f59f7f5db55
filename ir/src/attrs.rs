//! Builtin attributes, affine maps and sets, and locations.
//!
//! Attributes are uniqued in the [`Context`](crate::Context) like types: an [`Attr`] is a copyable
//! id, and equal payloads share one id. Locations are attributes too, as in MLIR, so an op's
//! location costs one id.

use crate::types::Type;
use num_bigint::BigInt;

/// A uniqued attribute: an index into the context's attribute table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Attr(pub(crate) u32);

impl Attr {
    /// The raw table index, for dense side tables keyed by attribute.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The payload of an attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrKind {
    /// `unit`: presence is the information.
    Unit,
    /// `true` / `false`.
    Bool(bool),
    /// `42 : i32`. The value is kept normalized to the type's width (two's complement, read back as
    /// signed for signless and signed types, unsigned for unsigned types).
    Integer { value: BigInt, ty: Type },
    /// `1.5 : f32`. `bits` is the bit pattern in the type's format, so NaN payloads survive.
    Float { bits: u128, ty: Type },
    /// `"text"` with an optional type (`"text" : i32`); bytes, since MLIR strings may hold any.
    String { value: Vec<u8>, ty: Option<Type> },
    /// `[a, b]`.
    Array(Vec<Attr>),
    /// `{a = 1, b}`: sorted by name, as MLIR's `DictionaryAttr` keeps them.
    Dict(Vec<(String, Attr)>),
    /// A type used as an attribute.
    Type(Type),
    /// `@root::@nested`.
    SymbolRef { root: String, nested: Vec<String> },
    /// `dense<...> : tensor<...>`.
    DenseElements { data: DenseData, ty: Type },
    /// `sparse<indices, values> : tensor<...>`.
    Sparse {
        indices: Option<DenseLit>,
        values: Option<DenseLit>,
        ty: Type,
    },
    /// `dense_resource<handle> : tensor<...>`; a quoted handle keeps its quotes.
    DenseResource { handle: String, ty: Type },
    /// `array<i64: 1, 2>`: elements as values of `elem`, so equal arrays are one attribute
    /// however their elements were spelled (`0x10` and `16`).
    DenseArray {
        elem: Type,
        values: DenseArrayValues,
    },
    /// `affine_map<...>`.
    AffineMap(AffineMap),
    /// `affine_set<...>`.
    IntegerSet(IntegerSet),
    /// `distinct[N]<attr>`: `id` is unique per context; printing renumbers from 0.
    Distinct { id: u64, attr: Attr },
    /// `strided<[s...], offset: o>`; `?` is [`DYNAMIC`](crate::types::DYNAMIC).
    Strided { strides: Vec<i64>, offset: i64 },
    /// A dialect attribute in pretty form `#dialect.name` / `#dialect.name<body>`, body kept as written.
    Dialect {
        dialect: String,
        name: String,
        body: Option<String>,
    },
    /// An opaque dialect attribute `#dialect<"data">`; `data` is the text between the quotes,
    /// escapes as written (MLIR keeps the raw body).
    Opaque { dialect: String, data: String },
    /// A dialect attribute followed by a type, `#dialect.name<body> : type`. MLIR hands the
    /// type to the dialect's attribute parser, and for dialects it does not know keeps it in the
    /// opaque attribute; here `attr` is the attribute as written without the type.
    TypedDialect { attr: Attr, ty: Type },
    /// A source location.
    Loc(Location),
}

/// The elements of a dense array (`array<T: ...>`), typed by the element type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseArrayValues {
    /// Integer elements, normalised to the element type as [`AttrKind::Integer`] values are
    /// (`i1` elements are 0 and 1, printed `false` and `true`).
    Int(Vec<BigInt>),
    /// Float elements as bit patterns of the element type, so NaN payloads survive.
    Float(Vec<u128>),
}

impl DenseArrayValues {
    /// Integer elements from `i64`s (what passes build `operandSegmentSizes` and shapes from).
    pub fn from_i64s(values: &[i64]) -> DenseArrayValues {
        DenseArrayValues::Int(values.iter().map(|&v| BigInt::from(v)).collect())
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            DenseArrayValues::Int(v) => v.len(),
            DenseArrayValues::Float(v) => v.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The integer elements as `i64`s; `None` for float arrays or a value out of range.
    pub fn to_i64s(&self) -> Option<Vec<i64>> {
        match self {
            DenseArrayValues::Int(v) => v.iter().map(|x| i64::try_from(x).ok()).collect(),
            DenseArrayValues::Float(_) => None,
        }
    }
}

/// The literal inside `dense<...>`, kept as written (numbers as their source text) so that every
/// element type, including complex and strings, round-trips without loss.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseData {
    /// A nested literal: a scalar (splat) or lists.
    Literal(DenseLit),
    /// `dense<"0x...">`: the raw little-endian bytes in hex.
    Hex(String),
    /// `dense<>`: no elements written (shapes with a zero dimension).
    Empty,
}

/// One node of a dense literal.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseLit {
    /// `[a, b, ...]`.
    List(Vec<DenseLit>),
    /// A number or `true`/`false`, as written.
    Scalar(String),
    /// `(re, im)`.
    Complex(Box<DenseLit>, Box<DenseLit>),
    /// A string element.
    Str(Vec<u8>),
}

/// An affine expression over dims, symbols and constants, kept in the shape it was written so that
/// MLIR's own simplification applies identically to what we print.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AffineExpr {
    Dim(u32),
    Sym(u32),
    Const(i64),
    Neg(Box<AffineExpr>),
    Bin(AffineOp, Box<AffineExpr>, Box<AffineExpr>),
}

/// Binary affine operators.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AffineOp {
    Add,
    Sub,
    Mul,
    FloorDiv,
    CeilDiv,
    Mod,
}

impl AffineOp {
    /// Binding strength: additive 1, multiplicative 2.
    pub fn precedence(self) -> u8 {
        match self {
            AffineOp::Add | AffineOp::Sub => 1,
            _ => 2,
        }
    }
    /// Source spelling.
    pub fn spelling(self) -> &'static str {
        match self {
            AffineOp::Add => "+",
            AffineOp::Sub => "-",
            AffineOp::Mul => "*",
            AffineOp::FloorDiv => "floordiv",
            AffineOp::CeilDiv => "ceildiv",
            AffineOp::Mod => "mod",
        }
    }
}

/// `(d0, d1)[s0] -> (exprs)`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineMap {
    pub num_dims: u32,
    pub num_syms: u32,
    pub results: Vec<AffineExpr>,
}

/// `(d0)[s0] : (expr >= 0, expr == 0)`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct IntegerSet {
    pub num_dims: u32,
    pub num_syms: u32,
    /// Each constraint as written: `lhs >= rhs`, `lhs <= rhs` or `lhs == rhs`.
    pub constraints: Vec<(AffineExpr, AffineCmp, AffineExpr)>,
}

/// The comparison of an integer-set constraint.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AffineCmp {
    Ge,
    Le,
    Eq,
}

impl AffineCmp {
    /// Source spelling.
    pub fn spelling(self) -> &'static str {
        match self {
            AffineCmp::Ge => ">=",
            AffineCmp::Le => "<=",
            AffineCmp::Eq => "==",
        }
    }
}

/// MLIR's location kinds.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Location {
    /// `loc(unknown)`.
    Unknown,
    /// `loc("file":line:col)`, or a range `loc("file":l:c to l2:c2)` (`end_line` absent for `to :c2`).
    /// `file` is a string attribute (as MLIR's `StringAttr` filename), so the name is stored once
    /// however many ops point into the file.
    File {
        file: Attr,
        line: u32,
        col: u32,
        end: Option<(Option<u32>, u32)>,
    },
    /// `loc("name")` or `loc("name"(child))`.
    Name { name: String, child: Option<Attr> },
    /// `loc(callsite(callee at caller))`.
    CallSite { callee: Attr, caller: Attr },
    /// `loc(fused<metadata>[locs])`.
    Fused {
        metadata: Option<Attr>,
        locs: Vec<Attr>,
    },
}
