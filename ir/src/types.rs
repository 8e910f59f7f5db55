//! Builtin and dialect types.
//!
//! Types are uniqued in the [`Context`](crate::Context): a [`Type`] is a small copyable id, and two
//! types are equal exactly when their ids are equal. The payload lives in [`TypeKind`].

use crate::attrs::Attr;

/// A uniqued type: an index into the context's type table. Comparing ids compares types.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Type(pub(crate) u32);

impl Type {
    /// The raw table index, for dense side tables keyed by type.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Signedness semantics of an integer type, as in MLIR (`i8`, `si8`, `ui8`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Signedness {
    /// `iN`: no sign semantics; arithmetic ops decide.
    Signless,
    /// `siN`.
    Signed,
    /// `uiN`.
    Unsigned,
}

/// The floating-point formats MLIR 22 knows, each with its textual keyword.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
    F8E5M2,
    F8E4M3,
    F8E4M3FN,
    F8E5M2FNUZ,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E3M4,
    F8E8M0FNU,
    BF16,
    F16,
    TF32,
    F32,
    F64,
    F80,
    F128,
}

impl FloatKind {
    /// Every float kind, in the order the parser tries their keywords (longest first where one is a
    /// prefix of another).
    pub const ALL: [FloatKind; 18] = [
        FloatKind::F4E2M1FN,
        FloatKind::F6E2M3FN,
        FloatKind::F6E3M2FN,
        FloatKind::F8E5M2FNUZ,
        FloatKind::F8E4M3FNUZ,
        FloatKind::F8E4M3B11FNUZ,
        FloatKind::F8E4M3FN,
        FloatKind::F8E5M2,
        FloatKind::F8E4M3,
        FloatKind::F8E3M4,
        FloatKind::F8E8M0FNU,
        FloatKind::BF16,
        FloatKind::F16,
        FloatKind::TF32,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::F80,
        FloatKind::F128,
    ];

    /// The keyword MLIR uses for this type.
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::F4E2M1FN => "f4E2M1FN",
            FloatKind::F6E2M3FN => "f6E2M3FN",
            FloatKind::F6E3M2FN => "f6E3M2FN",
            FloatKind::F8E5M2 => "f8E5M2",
            FloatKind::F8E4M3 => "f8E4M3",
            FloatKind::F8E4M3FN => "f8E4M3FN",
            FloatKind::F8E5M2FNUZ => "f8E5M2FNUZ",
            FloatKind::F8E4M3FNUZ => "f8E4M3FNUZ",
            FloatKind::F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            FloatKind::F8E3M4 => "f8E3M4",
            FloatKind::F8E8M0FNU => "f8E8M0FNU",
            FloatKind::BF16 => "bf16",
            FloatKind::F16 => "f16",
            FloatKind::TF32 => "tf32",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
            FloatKind::F80 => "f80",
            FloatKind::F128 => "f128",
        }
    }

    /// Looks a keyword up.
    pub fn from_keyword(s: &str) -> Option<FloatKind> {
        FloatKind::ALL.into_iter().find(|k| k.keyword() == s)
    }

    /// Storage width in bits (what a dense hex blob uses per element).
    pub fn width(self) -> u32 {
        match self {
            FloatKind::F4E2M1FN => 4,
            FloatKind::F6E2M3FN | FloatKind::F6E3M2FN => 6,
            FloatKind::F8E5M2
            | FloatKind::F8E4M3
            | FloatKind::F8E4M3FN
            | FloatKind::F8E5M2FNUZ
            | FloatKind::F8E4M3FNUZ
            | FloatKind::F8E4M3B11FNUZ
            | FloatKind::F8E3M4
            | FloatKind::F8E8M0FNU => 8,
            FloatKind::BF16 | FloatKind::F16 => 16,
            FloatKind::TF32 => 19,
            FloatKind::F32 => 32,
            FloatKind::F64 => 64,
            FloatKind::F80 => 80,
            FloatKind::F128 => 128,
        }
    }
}

/// One dimension of a shaped type: a static size or `?`.
pub const DYNAMIC: i64 = i64::MIN;

/// The payload of a type. Kept in the context; addressed through [`Type`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeKind {
    /// `iN`, `siN`, `uiN`.
    Integer { width: u32, signedness: Signedness },
    /// `index`.
    Index,
    /// A floating-point type.
    Float(FloatKind),
    /// `none`.
    None,
    /// `(inputs) -> results`.
    Function {
        inputs: Vec<Type>,
        results: Vec<Type>,
    },
    /// `complex<T>`.
    Complex(Type),
    /// `tuple<T...>`.
    Tuple(Vec<Type>),
    /// `vector<[4]x8xf32>`: `scalable[i]` says whether dimension `i` is written `[n]`.
    Vector {
        shape: Vec<i64>,
        scalable: Vec<bool>,
        elem: Type,
    },
    /// `tensor<4x?xf32, #enc>`; `?` is [`DYNAMIC`].
    RankedTensor {
        shape: Vec<i64>,
        elem: Type,
        encoding: Option<Attr>,
    },
    /// `tensor<*xf32>`.
    UnrankedTensor { elem: Type },
    /// `memref<4x?xf32, layout, memspace>`.
    MemRef {
        shape: Vec<i64>,
        elem: Type,
        layout: Option<Attr>,
        memspace: Option<Attr>,
    },
    /// `memref<*xf32, memspace>`.
    UnrankedMemRef { elem: Type, memspace: Option<Attr> },
    /// A dialect type in pretty form, `!dialect.name` or `!dialect.name<body>`; `body` is the text
    /// between the angle brackets, kept as written so unregistered dialects round-trip.
    Dialect {
        dialect: String,
        name: String,
        body: Option<String>,
    },
    /// An opaque dialect type, `!dialect<"data">`; `data` is the text between the quotes,
    /// escapes as written (MLIR keeps the raw body).
    Opaque { dialect: String, data: String },
}

impl TypeKind {
    /// Convenience constructor for a signless integer type.
    pub fn int(width: u32) -> TypeKind {
        TypeKind::Integer {
            width,
            signedness: Signedness::Signless,
        }
    }
}
