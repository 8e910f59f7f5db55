//! Bit encodings shared by the wgmma and tcgen05 lowerings: swizzle codes, shared-memory
//! matrix descriptors, and K-major operand geometry (spec §6.4, §7.2).

use super::*;

/// The wgmma swizzle field (bits 62–63): 0 none, 1 = 128B, 2 = 64B, 3 = 32B.
pub fn wgmma_swizzle_code(m: SwizzleMode) -> u64 {
    match m {
        SwizzleMode::None => 0,
        SwizzleMode::B128 => 1,
        SwizzleMode::B64 => 2,
        SwizzleMode::B32 => 3,
    }
}

/// The tcgen05 swizzle field (bits 61–63): 0 none, 2 = 128B, 4 = 64B, 6 = 32B.
pub fn tcgen05_swizzle_code(m: SwizzleMode) -> u64 {
    match m {
        SwizzleMode::None => 0,
        SwizzleMode::B128 => 2,
        SwizzleMode::B64 => 4,
        SwizzleMode::B32 => 6,
    }
}

/// The wgmma shared-memory matrix descriptor (spec §6.4): start address, LBO and SBO in bytes
/// (each stored `>> 4` in 14 bits), base offset 0, and the swizzle mode.
pub fn wgmma_descriptor(start: u64, lbo: u64, sbo: u64, swizzle: SwizzleMode) -> u64 {
    wgmma_descriptor_hi(lbo, sbo, swizzle) | ((start >> 4) & 0x3fff)
}

/// The part of a wgmma descriptor that does not depend on the start address.
pub fn wgmma_descriptor_hi(lbo: u64, sbo: u64, swizzle: SwizzleMode) -> u64 {
    (((lbo >> 4) & 0x3fff) << 16)
        | (((sbo >> 4) & 0x3fff) << 32)
        | (wgmma_swizzle_code(swizzle) << 62)
}

/// The tcgen05 shared-memory descriptor (spec §7.2): as wgmma's but with the constant `0b001`
/// at bits 46–48 and the 3-bit swizzle field at bit 61.
pub fn tcgen05_descriptor(start: u64, lbo: u64, sbo: u64, swizzle: SwizzleMode) -> u64 {
    tcgen05_descriptor_hi(lbo, sbo, swizzle) | ((start >> 4) & 0x3fff)
}

/// The part of a tcgen05 descriptor that does not depend on the start address.
pub fn tcgen05_descriptor_hi(lbo: u64, sbo: u64, swizzle: SwizzleMode) -> u64 {
    (((lbo >> 4) & 0x3fff) << 16)
        | (((sbo >> 4) & 0x3fff) << 32)
        | (1 << 46)
        | (tcgen05_swizzle_code(swizzle) << 61)
}

/// The PTX type name of a wgmma / tcgen05 input type.
pub(super) fn mma_type_name(d: DType) -> Option<&'static str> {
    Some(match d {
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        DType::TF32 => "tf32",
        DType::F32 => "f32",
        DType::F8E4M3 => "e4m3",
        DType::F8E5M2 => "e5m2",
        DType::Int {
            bits: 8,
            signedness: tilus_ir::types::Signedness::Unsigned,
        } => "u8",
        DType::Int { bits: 8, .. } => "s8",
        DType::Int { bits: 32, .. } => "s32",
        _ => return None,
    })
}

pub(super) fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A K-major shared operand viewed as `[rows, K]` with `K` contiguous: its row stride in bytes,
/// swizzle, and the element size. The canonical swizzled atom is 8 rows of one swizzle span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KMajor {
    /// Bytes between consecutive rows.
    pub row_bytes: i64,
    /// Bytes per element.
    pub elem_bytes: i64,
    pub swizzle: SwizzleMode,
}

impl KMajor {
    /// Reads operand `t` (rank 2) whose K dimension is `k_dim` (1 for A `[M, K]`, 0 for B
    /// `[K, N]`). Requires K contiguous, a swizzle, and rows exactly one swizzle span apart.
    pub fn of(t: &TensorType, k_dim: usize) -> Result<KMajor, String> {
        let l = t.shared_layout()?;
        if l.rank() != 2 {
            return Err(format!("expects a rank-2 operand, found rank {}", l.rank()));
        }
        let other = 1 - k_dim;
        if l.strides[k_dim] != 1 {
            return Err(format!(
                "expects a K-major operand (stride 1 along K, dimension {k_dim}), found strides {:?}; MN-major operands are not lowered yet",
                l.strides
            ));
        }
        let eb = (t.dtype.bits() / 8) as i64;
        if t.swizzle == SwizzleMode::None {
            return Err(
                "expects a swizzled (32B, 64B or 128B) operand: the unswizzled canonical layout \
                 (8x16-byte core matrices stored contiguously) is not a strided 2-D layout"
                    .into(),
            );
        }
        let span = t.swizzle.span_bytes();
        let row_bytes = l.strides[other] * eb;
        if row_bytes != span || t.shape[k_dim] * eb > span {
            return Err(format!(
                "expects rows of exactly one {span}-byte swizzle span (the canonical K-major atom), found rows {row_bytes} bytes apart and K = {} x {} bytes",
                t.shape[k_dim], eb
            ));
        }
        Ok(KMajor {
            row_bytes,
            elem_bytes: eb,
            swizzle: t.swizzle,
        })
    }
    /// Stride-dimension byte offset: between 8-row groups.
    pub fn sbo(&self) -> i64 {
        8 * self.row_bytes
    }
    /// Leading-dimension byte offset: 0, a single K atom (spec §6.4 example).
    pub fn lbo(&self) -> i64 {
        0
    }
    /// Byte offset of element `(row, k)` in the unswizzled canonical layout.
    pub fn offset(&self, row: i64, k: i64) -> i64 {
        row * self.row_bytes + k * self.elem_bytes
    }
}
