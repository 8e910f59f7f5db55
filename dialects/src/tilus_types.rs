//! The tensor and handle types of the Tilus dialects, and the constraints ops declare with them.
//!
//! Types are written in MLIR's pretty dialect form, so generic output reads the same in `mlir-opt
//! --allow-unregistered-dialect`. Each is a structured value ([`TensorType`], [`PtrType`],
//! [`BarriersType`]) that the [`SymbolDef`]s registered here parse once; the context uniques it
//! in canonical spelling, so two spellings of one type are one [`Type`]. Ops read the value back
//! with [`TensorType::of`] and friends, and passes make new types with constructors
//! (`TensorType { .. }.get(ctx)`, [`BarriersType::get`]), never with text.
//!
//! | type | body | meaning |
//! |---|---|---|
//! | `!tilus.ptr<f16>` | element type | a global-memory pointer kernel parameter |
//! | `!tilus.global<?x4096xf16, strides = [?, 1]>` | shape (`?` = runtime), dtype, optional strides | a view of global memory |
//! | `!tilus.shared<3x128x64xf16, swizzle = 128B>` | static shape, dtype, optional `strides`, optional swizzle | a shared-memory tensor |
//! | `!tilus.reg<64x16xf32, layout = spatial(8, 4) * local(1, 2)>` | static shape, dtype, optional register layout | a register tensor distributed over the threads of its group |
//! | `!tilus.tmem<128x256xf32>` | static shape (dim 0 = lanes: 32, 64 or 128), dtype | a Blackwell tensor-memory tensor |
//! | `!mbarrier.barriers<4>` | count | `N` mbarriers allocated together in shared memory |

use crate::layout_algebra::{RegisterLayout, SharedLayout, SwizzleMode};
use std::sync::Arc;
use tilus_ir::attrs::AttrKind;
use tilus_ir::opdef::{AttrConstraint, TypeConstraint};
use tilus_ir::typedef::{DialectValue, SymbolDef};
use tilus_ir::types::{FloatKind, Signedness};
use tilus_ir::{Attr, Context, Type, TypeKind};

/// An element type of a tile: the data types of the Tilus spec, spelled as MLIR builtin types.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DType {
    F16,
    BF16,
    F32,
    F64,
    TF32,
    F8E4M3,
    F8E5M2,
    F6E2M3,
    F6E3M2,
    F4E2M1,
    /// `iN` (signless, read as signed), `siN`, `uiN`; N in 1..=64.
    Int {
        bits: u32,
        signedness: Signedness,
    },
}

impl DType {
    /// `i32`: what the lowering widens narrower integers and predicates to (PTX has no 8-bit
    /// arithmetic, shuffles or memory accesses of predicates).
    pub const I32: DType = DType::Int {
        bits: 32,
        signedness: Signedness::Signless,
    };

    /// Reads `f16`, `bf16`, `f32`, `f64`, `tf32`, `f8E4M3FN`, `f8E5M2`, `f6E2M3FN`, `f6E3M2FN`,
    /// `f4E2M1FN`, `iN`, `siN`, `uiN`.
    pub fn parse(s: &str) -> Result<DType, String> {
        let d = match s {
            "f16" => DType::F16,
            "bf16" => DType::BF16,
            "f32" => DType::F32,
            "f64" => DType::F64,
            "tf32" => DType::TF32,
            "f8E4M3FN" => DType::F8E4M3,
            "f8E5M2" => DType::F8E5M2,
            "f6E2M3FN" => DType::F6E2M3,
            "f6E3M2FN" => DType::F6E3M2,
            "f4E2M1FN" => DType::F4E2M1,
            _ => {
                let (signedness, digits) = if let Some(r) = s.strip_prefix("si") {
                    (Signedness::Signed, r)
                } else if let Some(r) = s.strip_prefix("ui") {
                    (Signedness::Unsigned, r)
                } else if let Some(r) = s.strip_prefix('i') {
                    (Signedness::Signless, r)
                } else {
                    return Err(format!("expected an element type (f16, bf16, f32, f64, tf32, f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN, iN, siN, uiN), found '{s}'"));
                };
                match digits.parse::<u32>() {
                    Ok(bits) if (1..=64).contains(&bits) && !digits.starts_with('0') => {
                        DType::Int { bits, signedness }
                    }
                    _ => {
                        return Err(format!(
                            "expected an integer element type of 1 to 64 bits, found '{s}'"
                        ))
                    }
                }
            }
        };
        Ok(d)
    }

    /// The element type of a builtin MLIR type, when it is one of ours.
    pub fn from_type(ctx: &Context, t: Type) -> Option<DType> {
        Some(match ctx.type_kind(t) {
            TypeKind::Float(k) => match k {
                FloatKind::F16 => DType::F16,
                FloatKind::BF16 => DType::BF16,
                FloatKind::F32 => DType::F32,
                FloatKind::F64 => DType::F64,
                FloatKind::TF32 => DType::TF32,
                FloatKind::F8E4M3FN => DType::F8E4M3,
                FloatKind::F8E5M2 => DType::F8E5M2,
                FloatKind::F6E2M3FN => DType::F6E2M3,
                FloatKind::F6E3M2FN => DType::F6E3M2,
                FloatKind::F4E2M1FN => DType::F4E2M1,
                _ => return None,
            },
            TypeKind::Integer { width, signedness } if *width <= 64 => DType::Int {
                bits: *width,
                signedness: *signedness,
            },
            _ => return None,
        })
    }

    /// Storage bits of one element.
    pub fn bits(self) -> u32 {
        match self {
            DType::F16 | DType::BF16 => 16,
            DType::F32 | DType::TF32 => 32,
            DType::F64 => 64,
            DType::F8E4M3 | DType::F8E5M2 => 8,
            DType::F6E2M3 | DType::F6E3M2 => 6,
            DType::F4E2M1 => 4,
            DType::Int { bits, .. } => bits,
        }
    }

    /// Bits one element takes in shared or global memory: an i1 is a byte (0 or 1), as the
    /// host stores a mask and as loads and stores move it, since PTX addresses no bit; every
    /// other type takes its `bits`.
    pub fn memory_bits(self) -> u32 {
        match self {
            DType::Int { bits: 1, .. } => 8,
            d => d.bits(),
        }
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        !matches!(self, DType::Int { .. })
    }

    /// The MLIR spelling.
    pub fn name(self) -> String {
        match self {
            DType::F16 => "f16".into(),
            DType::BF16 => "bf16".into(),
            DType::F32 => "f32".into(),
            DType::F64 => "f64".into(),
            DType::TF32 => "tf32".into(),
            DType::F8E4M3 => "f8E4M3FN".into(),
            DType::F8E5M2 => "f8E5M2".into(),
            DType::F6E2M3 => "f6E2M3FN".into(),
            DType::F6E3M2 => "f6E3M2FN".into(),
            DType::F4E2M1 => "f4E2M1FN".into(),
            DType::Int { bits, signedness } => match signedness {
                Signedness::Signless => format!("i{bits}"),
                Signedness::Signed => format!("si{bits}"),
                Signedness::Unsigned => format!("ui{bits}"),
            },
        }
    }

    /// The builtin MLIR type of this element type.
    pub fn to_type(self, ctx: &mut Context) -> Type {
        match self {
            DType::Int { bits, signedness } => ctx.ty(TypeKind::Integer {
                width: bits,
                signedness,
            }),
            d => {
                let k = match d {
                    DType::F16 => FloatKind::F16,
                    DType::BF16 => FloatKind::BF16,
                    DType::F32 => FloatKind::F32,
                    DType::F64 => FloatKind::F64,
                    DType::TF32 => FloatKind::TF32,
                    DType::F8E4M3 => FloatKind::F8E4M3FN,
                    DType::F8E5M2 => FloatKind::F8E5M2,
                    DType::F6E2M3 => FloatKind::F6E2M3FN,
                    DType::F6E3M2 => FloatKind::F6E3M2FN,
                    _ => FloatKind::F4E2M1FN,
                };
                ctx.float_type(k)
            }
        }
    }
}

/// `?` in a shape or stride list.
pub const DYN: i64 = i64::MIN;

/// Which memory a tensor type lives in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Space {
    Global,
    Shared,
    Register,
    TensorMemory,
}

impl Space {
    /// The type's name in the `tilus` dialect.
    pub fn type_name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Register => "reg",
            Space::TensorMemory => "tmem",
        }
    }
}

/// A parsed `!tilus.global`, `!tilus.shared`, `!tilus.reg` or `!tilus.tmem` type.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorType {
    pub space: Space,
    /// Extents; [`DYN`] for `?` (global views only).
    pub shape: Vec<i64>,
    pub dtype: DType,
    /// Element strides (`strides = [...]`), [`DYN`] for `?`; absent means compact row-major.
    pub strides: Option<Vec<i64>>,
    /// Shared tensors: the swizzle mode.
    pub swizzle: SwizzleMode,
    /// Register tensors: the layout after `layout =` (printed canonically).
    pub layout: Option<RegisterLayout>,
}

impl DialectValue for TensorType {
    fn body(&self) -> Option<String> {
        Some(TensorType::body(self))
    }
}

/// The largest static tensor type, in bits: far beyond any memory, and small enough that sizes
/// computed from it in `i64` (elements times bits, strided footprints) cannot overflow.
pub const MAX_TENSOR_BITS: i128 = 1 << 62;

impl TensorType {
    /// The tensor type behind `t`, if `t` is one (a copy of the value the context keeps).
    pub fn of(ctx: &Context, t: Type) -> Option<TensorType> {
        TensorType::of_ref(ctx, t).cloned()
    }

    /// The tensor type behind `t`, borrowed from the context (no copy, no parse).
    pub fn of_ref(ctx: &Context, t: Type) -> Option<&TensorType> {
        ctx.type_value::<TensorType>(t)
    }

    /// The uniqued type of this value: the constructor passes use instead of type text.
    pub fn get(&self, ctx: &mut Context) -> Type {
        ctx.dialect_type("tilus", self.space.type_name(), self.clone())
    }

    /// Parses the body of a tensor type of the given space.
    pub fn parse(space: Space, body: &str) -> Result<TensorType, String> {
        let mut parts = split_top(body).into_iter();
        let head = parts.next().unwrap_or_default();
        let head = head.trim();
        let pieces: Vec<&str> = head.split('x').map(str::trim).collect();
        if pieces.len() < 2 && space != Space::Global {
            return Err(format!(
                "expected a shape and an element type such as '128x64xf16', found '{head}'"
            ));
        }
        let dtype = DType::parse(pieces[pieces.len() - 1])?;
        let mut shape = Vec::new();
        for p in &pieces[..pieces.len() - 1] {
            if *p == "?" {
                if space != Space::Global {
                    return Err(format!(
                        "expected static extents in a {} tensor type, found '?'",
                        space.type_name()
                    ));
                }
                shape.push(DYN);
            } else {
                match p.parse::<i64>() {
                    Ok(v) if v > 0 => shape.push(v),
                    _ => {
                        return Err(format!(
                            "expected a positive extent{}, found '{p}'",
                            if space == Space::Global {
                                " or '?'"
                            } else {
                                ""
                            }
                        ))
                    }
                }
            }
        }
        let mut ty = TensorType {
            space,
            shape,
            dtype,
            strides: None,
            swizzle: SwizzleMode::None,
            layout: None,
        };
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| {
                    format!(
                        "expected 'key = value' after the shape, found '{}'",
                        part.trim()
                    )
                })?;
            match (key, space) {
                ("strides", Space::Global | Space::Shared) => {
                    let list = value
                        .strip_prefix('[')
                        .and_then(|v| v.strip_suffix(']'))
                        .ok_or_else(|| {
                            format!("expected a list '[s0, s1, ...]' for strides, found '{value}'")
                        })?;
                    let mut strides = Vec::new();
                    for s in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                        if s == "?" && space == Space::Global {
                            strides.push(DYN);
                        } else {
                            strides.push(s.parse::<i64>().ok().filter(|v| *v >= 0).ok_or_else(
                                || {
                                    format!(
                                        "expected a non-negative stride{}, found '{s}'",
                                        if space == Space::Global {
                                            " or '?'"
                                        } else {
                                            ""
                                        }
                                    )
                                },
                            )?);
                        }
                    }
                    if strides.len() != ty.shape.len() {
                        return Err(format!(
                            "expected {} strides (one per dimension), found {}",
                            ty.shape.len(),
                            strides.len()
                        ));
                    }
                    ty.strides = Some(strides);
                }
                ("swizzle", Space::Shared) => {
                    ty.swizzle = match value {
                        "none" => SwizzleMode::None,
                        "32B" => SwizzleMode::B32,
                        "64B" => SwizzleMode::B64,
                        "128B" => SwizzleMode::B128,
                        _ => {
                            return Err(format!(
                                "expected a swizzle mode (none, 32B, 64B, 128B), found '{value}'"
                            ))
                        }
                    };
                }
                ("layout", Space::Register) => {
                    let l = RegisterLayout::parse(value).map_err(|e| {
                        format!("in the layout at byte {}: {}", e.offset, e.message)
                    })?;
                    if l.shape != ty.shape {
                        return Err(format!(
                            "expected a layout of shape {:?} (the tensor's), found one of shape {:?}",
                            ty.shape, l.shape
                        ));
                    }
                    ty.layout = Some(l);
                }
                _ => {
                    let allowed = match space {
                        Space::Global => "'strides'",
                        Space::Shared => "'strides' or 'swizzle'",
                        Space::Register => "'layout'",
                        Space::TensorMemory => "nothing",
                    };
                    return Err(format!(
                        "expected {allowed} after the shape of a {} tensor type, found '{key}'",
                        space.type_name()
                    ));
                }
            }
        }
        if space == Space::TensorMemory {
            if ty.shape.len() < 2 {
                return Err(format!(
                    "expected at least 2 dimensions (lanes, columns...), found {}",
                    ty.shape.len()
                ));
            }
            if ![32, 64, 128].contains(&ty.shape[0]) {
                return Err(format!(
                    "expected 32, 64 or 128 lanes in dimension 0, found {}",
                    ty.shape[0]
                ));
            }
            if ty.dtype.bits() > 32 {
                return Err(format!(
                    "expected an element type of at most 32 bits in tensor memory, found '{}'",
                    ty.dtype.name()
                ));
            }
        }
        if space != Space::Global {
            ty.check_size()?;
        }
        if space == Space::Shared {
            ty.shared_layout()?;
        }
        Ok(ty)
    }

    /// Bounds a static tensor's size, in wide arithmetic, so that every later size computation
    /// (`elements * bits`, a strided footprint, bytes) fits an `i64`: extents near 2^63 would
    /// otherwise wrap into a small, plausible size and pass the verifier's limits.
    fn check_size(&self) -> Result<(), String> {
        let bits = i128::from(self.dtype.bits());
        let elems = self
            .shape
            .iter()
            .try_fold(1i128, |acc, &d| acc.checked_mul(i128::from(d)));
        let span = self.strides.as_ref().map(|st| {
            1 + self
                .shape
                .iter()
                .zip(st)
                .map(|(&d, &s)| i128::from(d - 1) * i128::from(s).abs())
                .sum::<i128>()
        });
        let most = elems.map(|e| e.max(span.unwrap_or(0)));
        match most.and_then(|e| e.checked_mul(bits)) {
            Some(b) if b <= MAX_TENSOR_BITS => Ok(()),
            _ => Err(format!(
                "expected a tensor of at most 2^59 bytes, found {} elements of {} bits",
                elems.map_or_else(|| "more than 2^127".to_string(), |e| e.to_string()),
                bits
            )),
        }
    }

    /// Number of elements (static shapes).
    pub fn num_elements(&self) -> i64 {
        self.shape.iter().product()
    }

    /// Bytes of the elements (static shapes; sub-byte types rounded up).
    pub fn nbytes(&self) -> i64 {
        (self.num_elements() * self.dtype.bits() as i64 + 7) / 8
    }

    /// The register layout, when the type gives one.
    pub fn register_layout(&self) -> Option<RegisterLayout> {
        self.layout.clone()
    }

    /// The shared layout: strides (row-major by default) plus the swizzle.
    pub fn shared_layout(&self) -> Result<SharedLayout, String> {
        let base = match &self.strides {
            Some(s) => SharedLayout::strided(&self.shape, s),
            None => SharedLayout::row_major(&self.shape),
        };
        base.with_swizzle_mode(self.swizzle, self.dtype.memory_bits())
    }

    /// `128x64xf16` (`?` for dynamic extents).
    pub fn shape_str(&self) -> String {
        let mut s = String::new();
        for d in &self.shape {
            s.push_str(&dim_str(*d));
            s.push('x');
        }
        s.push_str(&self.dtype.name());
        s
    }

    /// The text inside the type's `<...>`, in canonical form.
    pub fn body(&self) -> String {
        let mut body = self.shape_str();
        if let Some(s) = &self.strides {
            body.push_str(&format!(", strides = [{}]", join_dims(s, ", ")));
        }
        let sw = match self.swizzle {
            SwizzleMode::None => None,
            SwizzleMode::B32 => Some("32B"),
            SwizzleMode::B64 => Some("64B"),
            SwizzleMode::B128 => Some("128B"),
        };
        if let Some(sw) = sw {
            body.push_str(&format!(", swizzle = {sw}"));
        }
        if let Some(l) = &self.layout {
            body.push_str(&format!(", layout = {l}"));
        }
        body
    }

    /// The text of the type (`!tilus.shared<...>`) in canonical form, for messages.
    pub fn text(&self) -> String {
        format!("!tilus.{}<{}>", self.space.type_name(), self.body())
    }
}

/// An extent or stride as written in types: `?` for [`DYN`].
pub fn dim_str(d: i64) -> String {
    if d == DYN {
        "?".to_string()
    } else {
        d.to_string()
    }
}

/// Extents or strides joined by `sep` (`?` for [`DYN`]).
pub fn join_dims(v: &[i64], sep: &str) -> String {
    v.iter().map(|d| dim_str(*d)).collect::<Vec<_>>().join(sep)
}

/// `!tilus.ptr<DTYPE>`: a global-memory pointer kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtrType {
    pub elem: DType,
}

impl DialectValue for PtrType {
    fn body(&self) -> Option<String> {
        Some(self.elem.name())
    }
}

impl PtrType {
    /// `!tilus.ptr<elem>`.
    pub fn get(ctx: &mut Context, elem: DType) -> Type {
        ctx.dialect_type("tilus", "ptr", PtrType { elem })
    }

    /// The pointer type behind `t`, if `t` is one.
    pub fn of(ctx: &Context, t: Type) -> Option<PtrType> {
        ctx.type_value::<PtrType>(t).copied()
    }
}

/// `!mbarrier.barriers<N>`: `count` mbarriers allocated together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarriersType {
    pub count: i64,
}

impl DialectValue for BarriersType {
    fn body(&self) -> Option<String> {
        Some(self.count.to_string())
    }
}

impl BarriersType {
    /// `!mbarrier.barriers<count>`.
    pub fn get(ctx: &mut Context, count: i64) -> Type {
        ctx.dialect_type("mbarrier", "barriers", BarriersType { count })
    }

    /// The barrier-array type behind `t`, if `t` is one.
    pub fn of(ctx: &Context, t: Type) -> Option<BarriersType> {
        ctx.type_value::<BarriersType>(t).copied()
    }
}

/// The element type of a `!tilus.ptr<T>`.
pub fn ptr_elem(ctx: &Context, t: Type) -> Option<DType> {
    PtrType::of(ctx, t).map(|p| p.elem)
}

/// The number of barriers in a `!mbarrier.barriers<N>`.
pub fn barrier_count(ctx: &Context, t: Type) -> Option<i64> {
    BarriersType::of(ctx, t).map(|b| b.count)
}

/// Splits at top-level commas (outside brackets and parentheses).
fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '[' | '<' | '{' => depth += 1,
            ')' | ']' | '>' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

fn parse_tensor(space: Space, body: Option<&str>) -> Result<Arc<dyn DialectValue>, String> {
    match body {
        None => Err("expected '<' with a shape and an element type".into()),
        Some(b) => Ok(Arc::new(TensorType::parse(space, b)?)),
    }
}

/// `tilus` dialect types.
pub static TILUS_TYPES: &[SymbolDef] = &[
    SymbolDef {
        name: "tilus.ptr",
        summary: "a pointer to global memory, passed as a kernel parameter",
        syntax: "!tilus.ptr<DTYPE>",
        description: "What a kernel receives for each tensor argument; `tilus.global_view` turns it \
            into a shaped view.",
        parse: |b| match b {
            Some(b) => Ok(Arc::new(PtrType {
                elem: DType::parse(b.trim())?,
            })),
            None => Err("expected '<' with an element type".into()),
        },
    },
    SymbolDef {
        name: "tilus.global",
        summary: "a view of global memory",
        syntax: "!tilus.global<(EXTENT|?)x...xDTYPE (, strides = [(STRIDE|?), ...])?>",
        description: "Extents and strides may be `?`: they are then operands of the \
            `tilus.global_view` that makes the view (kernel parameters or values computed from \
            them, so every block sees the same view). Without `strides` the view is compact \
            row-major. Elements outside the extents read as zero and are not written.",
        parse: |b| parse_tensor(Space::Global, b),
    },
    SymbolDef {
        name: "tilus.shared",
        summary: "a tensor in shared memory",
        syntax: "!tilus.shared<EXTENTxDTYPE (, strides = [STRIDE, ...])? (, swizzle = none|32B|64B|128B)?>",
        description: "Static extents. The layout is row-major unless `strides` (in elements) say \
            otherwise; `swizzle` XORs the 16-byte chunk index inside each 32/64/128-byte row with \
            the row index, exactly as TMA's `SWIZZLE_32B/64B/128B` do, so one tile can be a TMA \
            destination and an MMA operand. Swizzled tiles are allocated at 256/512/1024-byte \
            alignment.",
        parse: |b| parse_tensor(Space::Shared, b),
    },
    SymbolDef {
        name: "tilus.reg",
        summary: "a tensor in registers, distributed over the threads of the enclosing group",
        syntax: "!tilus.reg<EXTENTxDTYPE (, layout = LAYOUT)?>",
        description: "`LAYOUT` is a register layout (see `layout`): which thread holds which \
            element at which local index. Without it, a layout pass chooses one. Inside a thread \
            group the layout's thread count must equal the group's size.",
        parse: |b| parse_tensor(Space::Register, b),
    },
    SymbolDef {
        name: "tilus.tmem",
        summary: "a Blackwell tensor-memory tensor",
        syntax: "!tilus.tmem<LANESxCOLUMNS...xDTYPE>",
        description: "Dimension 0 is the TMEM lane dimension (32, 64 or 128 lanes); the other \
            dimensions are laid out row-major over 32-bit columns. Elements are at most 32 bits.",
        parse: |b| parse_tensor(Space::TensorMemory, b),
    },
];

/// `mbarrier` dialect types.
pub static MBARRIER_TYPES: &[SymbolDef] = &[SymbolDef {
    name: "mbarrier.barriers",
    summary: "N mbarriers allocated together in shared memory",
    syntax: "!mbarrier.barriers<N>",
    description: "Each barrier is a 64-bit shared-memory object with a phase bit, pending and \
        expected arrival counts and a transaction byte count. Ops address one barrier as \
        `%bars[%i]`.",
    parse: |b| match b.map(str::trim).map(str::parse::<i64>) {
        Some(Ok(count)) if count > 0 => Ok(Arc::new(BarriersType { count })),
        _ => Err(format!(
            "expected a positive barrier count, found '{}'",
            b.unwrap_or("")
        )),
    },
}];

// ----- constraints ops use ---------------------------------------------------------------

fn is_tensor(c: &Context, t: Type, space: Space) -> bool {
    TensorType::of_ref(c, t).is_some_and(|x| x.space == space)
}

/// `!tilus.global<...>`.
pub const GLOBAL_TENSOR: TypeConstraint = TypeConstraint {
    desc: "global view (!tilus.global)",
    check: |c, t| is_tensor(c, t, Space::Global),
    build: None,
};
/// `!tilus.shared<...>`.
pub const SHARED_TENSOR: TypeConstraint = TypeConstraint {
    desc: "shared tensor (!tilus.shared)",
    check: |c, t| is_tensor(c, t, Space::Shared),
    build: None,
};
/// `!tilus.reg<...>`.
pub const REG_TENSOR: TypeConstraint = TypeConstraint {
    desc: "register tensor (!tilus.reg)",
    check: |c, t| is_tensor(c, t, Space::Register),
    build: None,
};
/// `!tilus.tmem<...>`.
pub const TMEM_TENSOR: TypeConstraint = TypeConstraint {
    desc: "tensor-memory tensor (!tilus.tmem)",
    check: |c, t| is_tensor(c, t, Space::TensorMemory),
    build: None,
};
/// `!tilus.shared<...>` or `!tilus.reg<...>`.
pub const SHARED_OR_REG_TENSOR: TypeConstraint = TypeConstraint {
    desc: "shared or register tensor",
    check: |c, t| is_tensor(c, t, Space::Shared) || is_tensor(c, t, Space::Register),
    build: None,
};
/// `!tilus.ptr<...>`.
pub const PTR: TypeConstraint = TypeConstraint {
    desc: "global pointer (!tilus.ptr)",
    check: |c, t| ptr_elem(c, t).is_some(),
    build: None,
};
/// `!mbarrier.barriers<N>`.
pub const BARRIERS: TypeConstraint = TypeConstraint {
    desc: "mbarrier array (!mbarrier.barriers)",
    check: |c, t| barrier_count(c, t).is_some(),
    build: None,
};
/// `i32` or `index`: scalar offsets, counts and ids.
pub const INT_OR_INDEX: TypeConstraint = TypeConstraint {
    desc: "i32 or index",
    check: |c, t| {
        matches!(
            c.type_kind(t),
            TypeKind::Index
                | TypeKind::Integer {
                    width: 32,
                    signedness: Signedness::Signless
                }
        )
    },
    build: None,
};

/// `array<i64: ...>`, written `array<i64: 1, 2>` in both forms.
pub const DENSE_I64_ARRAY: AttrConstraint = AttrConstraint {
    desc: "i64 dense array attribute",
    check: |c, a| {
        matches!(c.attr_kind(a), AttrKind::DenseArray { elem, .. }
            if matches!(c.type_kind(*elem), TypeKind::Integer { width: 64, .. }))
    },
    value_type: None,
    keywords: &[],
    short_form: None,
    form: tilus_ir::opdef::AttrForm::Plain,
};

/// An `array<i64: ...>` that formats write as the bare list `[1, 0]` (`tilus.permute_shared`'s
/// `perm`, `mbarrier.alloc`'s `counts`), as MLIR writes a `DenseI64ArrayAttr`. The values are
/// those of [`DENSE_I64_ARRAY`], whose users (the TMA ops' `dims`) keep the `array<i64: ...>`
/// spelling their IR already has.
pub const I64_LIST: AttrConstraint = AttrConstraint {
    form: tilus_ir::opdef::AttrForm::IntList(64),
    ..DENSE_I64_ARRAY
};

/// A `true`/`false` attribute.
pub const BOOL_ATTR: AttrConstraint = AttrConstraint {
    desc: "bool attribute",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::Bool(_)),
    value_type: None,
    keywords: &[],
    short_form: None,
    form: tilus_ir::opdef::AttrForm::Plain,
};

/// The value of an integer attribute.
pub fn attr_i64(ctx: &Context, a: Attr) -> Option<i64> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// The integer a value holds when a constant op (e.g. `arith.constant`) defines it.
pub fn const_int(ctx: &Context, v: tilus_ir::Value) -> Option<i64> {
    tilus_ir::rewrite::constant_of(ctx, v).and_then(|a| attr_i64(ctx, a))
}

/// The values of an `array<i64: ...>` attribute.
pub fn attr_i64s(ctx: &Context, a: Attr) -> Option<Vec<i64>> {
    match ctx.attr_kind(a) {
        AttrKind::DenseArray { values, .. } => values.to_i64s(),
        _ => None,
    }
}

/// An integer property (or attribute) of an op.
pub fn prop_i64(ctx: &Context, op: tilus_ir::OpId, name: &str) -> Option<i64> {
    ctx.get_inherent_or_attr(op, name)
        .and_then(|a| attr_i64(ctx, a))
}

/// A string-ish rendering of a type for messages.
pub fn type_str(ctx: &Context, t: Type) -> String {
    tilus_ir::syntax::printer::type_to_string(ctx, t)
}
