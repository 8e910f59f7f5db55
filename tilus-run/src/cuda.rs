//! The CUDA backend's core: load PTX, move buffers, build tensor maps, launch with a watchdog,
//! time with events. See `docs/design/cuda-backend.md` for the API and how `main.rs` uses it.
//!
//! The driver is reached through `cudarc`'s raw bindings with dynamic loading: the crate builds
//! and runs on machines without CUDA, and [`CudaBackend::open`] is where the absence of a
//! driver or a GPU turns into an [`CudaError::Unavailable`] with a message (never a panic).
//!
//! This file holds what needs no driver (errors, launch configurations and their checks,
//! parameter packing, tensor-map descriptions and their checks), so that it can be tested
//! anywhere; `device.rs` makes the driver calls; `selftest.rs` is the device check that runs
//! hand-written PTX from `bench/gpu/`; `cublas.rs` runs cuBLAS's GEMM on the backend's stream
//! (`--compare cublas`).

mod cublas;
mod device;
pub mod selftest;

pub use cublas::{library_present as cublas_present, Cublas, GemmDType, GemmShape};
pub use device::{BenchStats, CudaBackend, DeviceBuffer, DeviceInfo, Kernel, Module};

use crate::tensor::{storage_bytes, DType};
use std::fmt;
use std::time::Duration;
use tilus_ir::types::Signedness;

/// Dynamic shared memory a launch may use without raising the function's limit
/// (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`).
pub const DEFAULT_DYNAMIC_SMEM_LIMIT: u32 = 48 * 1024;

/// The watchdog's default: a launch that has not finished after this long is reported as hung.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a CUDA operation failed. Every variant's `Display` is a complete, user-facing sentence.
#[derive(Clone, Debug, PartialEq)]
pub enum CudaError {
    /// No usable driver or device: the library is missing, `cuInit` failed, there is no GPU.
    Unavailable(String),
    /// A driver call returned an error: the function, the `CUresult` name and the driver's
    /// description, and what we were doing.
    Driver {
        call: &'static str,
        code: String,
        message: String,
        context: String,
    },
    /// The watchdog: `kernel` had not finished after `limit`.
    Timeout { kernel: String, limit: Duration },
    /// Arguments rejected before the driver was called (bad launch shape, tensor map, …).
    Invalid(String),
}

impl fmt::Display for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CudaError::Unavailable(m) => write!(f, "the CUDA backend is unavailable: {m}"),
            CudaError::Driver {
                call,
                code,
                message,
                context,
            } => {
                write!(f, "{call} failed with {code} ({message})")?;
                if !context.is_empty() {
                    write!(f, " while {context}")?;
                }
                Ok(())
            }
            CudaError::Timeout { kernel, limit } => write!(
                f,
                "watchdog: kernel '{kernel}' did not finish within {:.1} s; it is probably hung (a wait on an mbarrier or barrier that never completes?)",
                limit.as_secs_f64()
            ),
            CudaError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CudaError {}

impl From<CudaError> for String {
    fn from(e: CudaError) -> String {
        e.to_string()
    }
}

/// Three launch dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub const fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }

    /// `x·y·z`, in 64 bits.
    pub fn count(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    /// From 1 to 3 extents (missing ones are 1).
    pub fn from_slice(v: &[u32]) -> Result<Dim3, CudaError> {
        if v.is_empty() || v.len() > 3 {
            return Err(CudaError::Invalid(format!(
                "a launch dimension needs 1 to 3 extents, got {v:?}"
            )));
        }
        Ok(Dim3 {
            x: v[0],
            y: *v.get(1).unwrap_or(&1),
            z: *v.get(2).unwrap_or(&1),
        })
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}x{}", self.x, self.y, self.z)
    }
}

/// How a kernel is launched: grid of CTAs, threads per CTA, dynamic shared memory in bytes and
/// an optional thread-block cluster shape (in CTAs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub dynamic_smem: u32,
    pub cluster: Option<Dim3>,
}

impl LaunchConfig {
    /// A 1-D launch covering `n` items with `threads` threads a CTA, one item a thread.
    pub fn linear(n: u64, threads: u32) -> LaunchConfig {
        let threads = threads.max(1);
        let blocks = n.div_ceil(threads as u64).max(1);
        LaunchConfig {
            grid: Dim3::new(blocks.min(u32::MAX as u64) as u32, 1, 1),
            block: Dim3::new(threads, 1, 1),
            dynamic_smem: 0,
            cluster: None,
        }
    }

    /// The launch of a tilus kernel: `blocks` (1 to 3 extents, the kernel's `blocks`), `warps`
    /// warps a CTA (a 1-D block of `32·warps` threads), an optional cluster shape and the
    /// dynamic shared memory the lowering computed.
    pub fn for_kernel(
        blocks: &[u32],
        warps: u32,
        cluster: Option<&[u32]>,
        dynamic_smem: u32,
    ) -> Result<LaunchConfig, CudaError> {
        if warps == 0 {
            return Err(CudaError::Invalid(
                "a kernel needs at least one warp".into(),
            ));
        }
        let threads = warps.checked_mul(32).ok_or_else(|| {
            CudaError::Invalid(format!("{warps} warps is too many threads for a CTA"))
        })?;
        Ok(LaunchConfig {
            grid: Dim3::from_slice(blocks)?,
            block: Dim3::new(threads, 1, 1),
            dynamic_smem,
            cluster: cluster.map(Dim3::from_slice).transpose()?,
        })
    }

    /// Checks the configuration against `limits` and says which function attributes the
    /// launch must set first. `static_smem` is the kernel's static shared memory (it counts
    /// against the same per-CTA limit as the dynamic part).
    pub fn plan(&self, limits: &DeviceLimits, static_smem: u32) -> Result<LaunchPlan, CudaError> {
        let bad = |m: String| Err(CudaError::Invalid(m));
        let (g, b) = (self.grid, self.block);
        if g.count() == 0 {
            return bad(format!("the grid {g} has no CTA"));
        }
        if g.x > limits.max_grid[0] || g.y > limits.max_grid[1] || g.z > limits.max_grid[2] {
            return bad(format!(
                "the grid {g} exceeds the device's limits {}x{}x{}",
                limits.max_grid[0], limits.max_grid[1], limits.max_grid[2]
            ));
        }
        let threads = b.count();
        if threads == 0 || threads > limits.max_threads_per_block as u64 {
            return bad(format!(
                "a CTA of {b} = {threads} threads is outside 1..={}",
                limits.max_threads_per_block
            ));
        }
        if b.x > limits.max_block[0] || b.y > limits.max_block[1] || b.z > limits.max_block[2] {
            return bad(format!(
                "the block {b} exceeds the device's limits {}x{}x{}",
                limits.max_block[0], limits.max_block[1], limits.max_block[2]
            ));
        }
        let smem = self.dynamic_smem as u64 + static_smem as u64;
        if smem > limits.max_smem_per_block_optin as u64 {
            return bad(format!(
                "{} bytes of dynamic shared memory (+ {static_smem} static) exceed the {} bytes a CTA can have",
                self.dynamic_smem, limits.max_smem_per_block_optin
            ));
        }
        let set_max_dynamic_smem =
            (self.dynamic_smem > DEFAULT_DYNAMIC_SMEM_LIMIT).then_some(self.dynamic_smem);
        let mut non_portable_cluster = false;
        let mut clusters = None;
        if let Some(c) = self.cluster {
            let size = c.count();
            if size == 0 {
                return bad(format!("the cluster {c} has no CTA"));
            }
            if g.x % c.x != 0 || g.y % c.y != 0 || g.z % c.z != 0 {
                return bad(format!(
                    "the grid {g} is not a whole number of clusters of {c}"
                ));
            }
            if size > limits.max_cluster_size_non_portable as u64 {
                return bad(format!(
                    "a cluster of {c} = {size} CTAs exceeds the most the device allows ({})",
                    limits.max_cluster_size_non_portable
                ));
            }
            non_portable_cluster = size > limits.max_cluster_size_portable as u64;
            clusters = Some(g.count() / size);
        }
        Ok(LaunchPlan {
            config: *self,
            threads_per_block: threads as u32,
            ctas: g.count(),
            clusters,
            set_max_dynamic_smem,
            non_portable_cluster,
        })
    }
}

impl fmt::Display for LaunchConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "grid {}, block {}, {} B dynamic shared memory",
            self.grid, self.block, self.dynamic_smem
        )?;
        if let Some(c) = self.cluster {
            write!(f, ", cluster {c}")?;
        }
        Ok(())
    }
}

/// What [`LaunchConfig::plan`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchPlan {
    pub config: LaunchConfig,
    pub threads_per_block: u32,
    pub ctas: u64,
    /// Number of clusters when the launch has a cluster shape.
    pub clusters: Option<u64>,
    /// `Some(bytes)`: set `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` to `bytes` first.
    pub set_max_dynamic_smem: Option<u32>,
    /// Set `CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED` first (cluster of 9 to 16).
    pub non_portable_cluster: bool,
}

/// The device limits a launch is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    pub max_threads_per_block: u32,
    pub max_block: [u32; 3],
    pub max_grid: [u32; 3],
    /// Shared memory a CTA may have once the function's limit is raised (227 KiB on Hopper).
    pub max_smem_per_block_optin: u32,
    pub max_cluster_size_portable: u32,
    pub max_cluster_size_non_portable: u32,
}

impl DeviceLimits {
    /// The limits of an H100/H200 (compute capability 9.0); the device's own values replace
    /// these when a backend is open.
    pub const fn hopper() -> DeviceLimits {
        DeviceLimits {
            max_threads_per_block: 1024,
            max_block: [1024, 1024, 64],
            max_grid: [i32::MAX as u32, 65535, 65535],
            max_smem_per_block_optin: 232_448,
            max_cluster_size_portable: 8,
            max_cluster_size_non_portable: 16,
        }
    }
}

/// A 128-byte `CUtensorMap`, as `cuTensorMapEncodeTiled` writes it and as a kernel takes it by
/// value (`.param .align 64 .b8 p[128]`, spec §5.3).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct TensorMap(pub [u8; 128]);

impl fmt::Debug for TensorMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TensorMap(")?;
        for b in &self.0[..16] {
            write!(f, "{b:02x}")?;
        }
        write!(f, "…)")
    }
}

/// One kernel argument, passed by value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Param {
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
    F64(f64),
    /// A device address (`.param .u64`), e.g. [`DeviceBuffer::ptr`].
    Ptr(u64),
    /// A tensor map, 128 bytes by value.
    TensorMap(TensorMap),
}

impl Param {
    /// Size in bytes of the value the kernel receives.
    pub fn size(&self) -> usize {
        match self {
            Param::U32(_) | Param::I32(_) | Param::F32(_) => 4,
            Param::U64(_) | Param::I64(_) | Param::F64(_) | Param::Ptr(_) => 8,
            Param::TensorMap(_) => 128,
        }
    }

    /// Alignment of the value in the packed parameter storage.
    pub fn align(&self) -> usize {
        match self {
            Param::TensorMap(_) => 64,
            _ => self.size(),
        }
    }

    fn write(&self, out: &mut [u8]) {
        match self {
            Param::U32(v) => out.copy_from_slice(&v.to_le_bytes()),
            Param::I32(v) => out.copy_from_slice(&v.to_le_bytes()),
            Param::F32(v) => out.copy_from_slice(&v.to_le_bytes()),
            Param::U64(v) | Param::Ptr(v) => out.copy_from_slice(&v.to_le_bytes()),
            Param::I64(v) => out.copy_from_slice(&v.to_le_bytes()),
            Param::F64(v) => out.copy_from_slice(&v.to_le_bytes()),
            Param::TensorMap(m) => out.copy_from_slice(&m.0),
        }
    }

    /// What the value is, for error messages.
    pub fn describe(&self) -> String {
        match self {
            Param::U32(v) => format!("u32 {v}"),
            Param::I32(v) => format!("i32 {v}"),
            Param::U64(v) => format!("u64 {v}"),
            Param::I64(v) => format!("i64 {v}"),
            Param::F32(v) => format!("f32 {v}"),
            Param::F64(v) => format!("f64 {v}"),
            Param::Ptr(v) => format!("pointer {v:#x}"),
            Param::TensorMap(_) => "tensor map (128 bytes)".into(),
        }
    }
}

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Chunk([u8; 64]);

/// Kernel arguments laid out for `cuLaunchKernelEx`'s `kernelParams`: each value at an offset
/// aligned to [`Param::align`] inside storage that is itself 64-byte aligned, so a tensor map
/// sits at a 64-byte aligned host address.
pub struct PackedParams {
    storage: Vec<Chunk>,
    offsets: Vec<usize>,
    sizes: Vec<usize>,
}

/// Packs `params` (see [`PackedParams`]).
pub fn pack_params(params: &[Param]) -> PackedParams {
    let mut offsets = Vec::with_capacity(params.len());
    let mut end = 0usize;
    for p in params {
        let off = end.next_multiple_of(p.align());
        offsets.push(off);
        end = off + p.size();
    }
    let mut storage = vec![Chunk([0; 64]); end.div_ceil(64).max(1)];
    {
        let bytes = chunk_bytes_mut(&mut storage);
        for (p, &off) in params.iter().zip(&offsets) {
            p.write(&mut bytes[off..off + p.size()]);
        }
    }
    PackedParams {
        storage,
        offsets,
        sizes: params.iter().map(Param::size).collect(),
    }
}

fn chunk_bytes_mut(v: &mut [Chunk]) -> &mut [u8] {
    // SAFETY: `Chunk` is 64 plain bytes with no padding.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, v.len() * 64) }
}

impl PackedParams {
    /// Byte offset of each parameter in [`PackedParams::bytes`].
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// Size of each parameter.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The whole storage.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: as in `chunk_bytes_mut`.
        unsafe {
            std::slice::from_raw_parts(self.storage.as_ptr() as *const u8, self.storage.len() * 64)
        }
    }

    /// The bytes of parameter `i`.
    pub fn param(&self, i: usize) -> &[u8] {
        &self.bytes()[self.offsets[i]..self.offsets[i] + self.sizes[i]]
    }

    /// One pointer a parameter, into this storage, as `kernelParams` wants them. They stay
    /// valid while `self` lives and is not moved out of.
    pub fn pointers(&mut self) -> Vec<*mut std::ffi::c_void> {
        let base = self.storage.as_mut_ptr() as *mut u8;
        self.offsets
            .iter()
            // SAFETY: every offset is inside the storage.
            .map(|&o| unsafe { base.add(o) } as *mut std::ffi::c_void)
            .collect()
    }
}

/// The element types a tensor map can describe (`CUtensorMapDataType`; spec §5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmaDType {
    U8,
    U16,
    U32,
    I32,
    U64,
    I64,
    F16,
    F32,
    F64,
    BF16,
    TF32,
}

impl TmaDType {
    /// The tensor-map type of a tilus dtype: every 8-bit type is `UINT8` (spec §5.2); sub-byte
    /// types (f6, f4, packed ints) are not supported yet.
    pub fn from_dtype(d: DType) -> Result<TmaDType, CudaError> {
        Ok(match d {
            DType::F16 => TmaDType::F16,
            DType::BF16 => TmaDType::BF16,
            DType::F32 => TmaDType::F32,
            DType::F64 => TmaDType::F64,
            DType::TF32 => TmaDType::TF32,
            DType::F8E4M3 | DType::F8E5M2 => TmaDType::U8,
            DType::Int { bits: 8, .. } => TmaDType::U8,
            DType::Int { bits: 16, .. } => TmaDType::U16,
            DType::Int {
                bits: 32,
                signedness: Signedness::Unsigned,
            } => TmaDType::U32,
            DType::Int { bits: 32, .. } => TmaDType::I32,
            DType::Int {
                bits: 64,
                signedness: Signedness::Unsigned,
            } => TmaDType::U64,
            DType::Int { bits: 64, .. } => TmaDType::I64,
            other => {
                return Err(CudaError::Invalid(format!(
                    "a tensor map cannot describe {} elements (sub-byte types are not supported by the CUDA backend yet)",
                    other.name()
                )))
            }
        })
    }

    /// Bytes an element.
    pub fn size(&self) -> u64 {
        match self {
            TmaDType::U8 => 1,
            TmaDType::U16 | TmaDType::F16 | TmaDType::BF16 => 2,
            TmaDType::U32 | TmaDType::I32 | TmaDType::F32 | TmaDType::TF32 => 4,
            TmaDType::U64 | TmaDType::I64 | TmaDType::F64 => 8,
        }
    }
}

/// The shared-memory swizzle of a tensor map (spec §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swizzle {
    None,
    B32,
    B64,
    B128,
}

impl Swizzle {
    /// The swizzle span in bytes (the most the inner box dimension may cover), none for
    /// [`Swizzle::None`].
    pub fn span(&self) -> Option<u64> {
        match self {
            Swizzle::None => None,
            Swizzle::B32 => Some(32),
            Swizzle::B64 => Some(64),
            Swizzle::B128 => Some(128),
        }
    }
}

/// Everything `cuTensorMapEncodeTiled` takes (spec §5.2), in the driver's order: dims
/// innermost first, strides in bytes for dims 1.. (the innermost is contiguous). Interleave is
/// always none, L2 promotion 128 B, out-of-bound fill none (zeros).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMapDesc {
    pub dtype: TmaDType,
    /// Device address of element 0 (16-byte aligned).
    pub global_address: u64,
    /// `globalDim`, innermost first.
    pub global_dims: Vec<u64>,
    /// `globalStrides`: rank − 1 byte strides, for dims 1.. in innermost-first order.
    pub global_strides: Vec<u64>,
    /// `boxDim`, innermost first.
    pub box_dims: Vec<u32>,
    /// `elementStrides` (all 1 for tilus).
    pub element_strides: Vec<u32>,
    pub swizzle: Swizzle,
}

impl TensorMapDesc {
    /// A tiled tensor map from a row-major description, the way tilus writes views: `shape`
    /// and `strides` (in elements) outermost first, the box (the shared tile's shape)
    /// outermost first. The innermost stride must be 1.
    pub fn tiled(
        dtype: DType,
        global_address: u64,
        shape: &[i64],
        strides: &[i64],
        box_shape: &[i64],
        swizzle: Swizzle,
    ) -> Result<TensorMapDesc, CudaError> {
        let bad = |m: String| Err(CudaError::Invalid(format!("tensor map: {m}")));
        let t = TmaDType::from_dtype(dtype)?;
        let rank = shape.len();
        if strides.len() != rank || box_shape.len() != rank {
            return bad(format!(
                "shape {shape:?}, strides {strides:?} and box {box_shape:?} must have one entry a dim"
            ));
        }
        if rank == 0 {
            return bad("a tensor map needs rank 1 to 5, got 0".into());
        }
        if strides[rank - 1] != 1 {
            return bad(format!(
                "the innermost stride must be 1 element, got {} (strides {strides:?})",
                strides[rank - 1]
            ));
        }
        if let Some(d) = shape.iter().position(|&s| s <= 0) {
            return bad(format!("dim {d} of shape {shape:?} is not positive"));
        }
        if let Some(d) = strides.iter().position(|&s| s <= 0) {
            return bad(format!("stride {d} of {strides:?} is not positive"));
        }
        if let Some(d) = box_shape
            .iter()
            .position(|&s| s <= 0 || s > u32::MAX as i64)
        {
            return bad(format!("dim {d} of box {box_shape:?} is out of range"));
        }
        let elem = storage_bytes(dtype) as u64;
        debug_assert_eq!(elem, t.size());
        let desc = TensorMapDesc {
            dtype: t,
            global_address,
            global_dims: shape.iter().rev().map(|&s| s as u64).collect(),
            global_strides: strides[..rank - 1]
                .iter()
                .rev()
                .map(|&s| s as u64 * elem)
                .collect(),
            box_dims: box_shape.iter().rev().map(|&s| s as u32).collect(),
            element_strides: vec![1; rank],
            swizzle,
        };
        desc.validate()?;
        Ok(desc)
    }

    /// Rank (1 to 5).
    pub fn rank(&self) -> usize {
        self.global_dims.len()
    }

    /// Bytes one box moves: what an `expect_tx` for one copy must announce (the full box, even
    /// where it lies outside the tensor, spec §5.1).
    pub fn box_bytes(&self) -> u64 {
        self.box_dims.iter().map(|&b| b as u64).product::<u64>() * self.dtype.size()
    }

    /// The driver's rules (spec §5.2), checked here so that the message can say which one.
    pub fn validate(&self) -> Result<(), CudaError> {
        let bad = |m: String| Err(CudaError::Invalid(format!("tensor map: {m}")));
        let rank = self.rank();
        if !(1..=5).contains(&rank) {
            return bad(format!("rank must be 1 to 5, got {rank}"));
        }
        if self.global_strides.len() != rank - 1
            || self.box_dims.len() != rank
            || self.element_strides.len() != rank
        {
            return bad(format!(
                "rank {rank} needs {} strides and {rank} box dims and element strides, got {}, {} and {}",
                rank - 1,
                self.global_strides.len(),
                self.box_dims.len(),
                self.element_strides.len()
            ));
        }
        if self.global_address & 15 != 0 {
            return bad(format!(
                "the global address {:#x} is not 16-byte aligned",
                self.global_address
            ));
        }
        for (d, &g) in self.global_dims.iter().enumerate() {
            if g == 0 || g > 1 << 32 {
                return bad(format!(
                    "global dim {d} (innermost first) = {g} is outside 1..=2^32"
                ));
            }
        }
        for (d, &s) in self.global_strides.iter().enumerate() {
            if s & 15 != 0 || s >= 1 << 40 {
                return bad(format!(
                    "the byte stride of dim {} (innermost first) = {s} is not a multiple of 16 below 2^40",
                    d + 1
                ));
            }
        }
        for (d, &b) in self.box_dims.iter().enumerate() {
            if b == 0 || b > 256 {
                return bad(format!(
                    "box dim {d} (innermost first) = {b} is outside 1..=256"
                ));
            }
        }
        for (d, &e) in self.element_strides.iter().enumerate() {
            if e == 0 || e > 8 {
                return bad(format!("element stride {d} = {e} is outside 1..=8"));
            }
        }
        let inner = self.box_dims[0] as u64 * self.dtype.size();
        if inner & 15 != 0 {
            return bad(format!(
                "the inner box dim covers {inner} bytes, not a multiple of 16"
            ));
        }
        if let Some(span) = self.swizzle.span() {
            if inner > span {
                return bad(format!(
                    "the inner box dim covers {inner} bytes, more than the {span}-byte swizzle span"
                ));
            }
        }
        Ok(())
    }
}

/// The message of a caught panic (a loader's missing library or symbol), for an error.
fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown reason".into())
}

/// Rejects PTX with a byte outside ASCII, naming its line: the CUDA 13.0 driver's JIT refuses
/// such text even inside comments ("Unexpected non-ASCII character"), while newer `ptxas`
/// accept it, so the mistake would only show on the GPU.
pub fn check_ptx_ascii(ptx: &str) -> Result<(), CudaError> {
    match ptx.lines().enumerate().find(|(_, l)| !l.is_ascii()) {
        None => Ok(()),
        Some((i, l)) => Err(CudaError::Invalid(format!(
            "PTX line {} has a non-ASCII character, which the driver's JIT compiler rejects: {}",
            i + 1,
            l.trim()
        ))),
    }
}

/// A small deterministic generator (splitmix64) for test data: no dependency, same numbers on
/// every machine.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1), with 24 random bits.
    pub fn next_f32(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32) / (1u64 << 23) as f32 - 1.0
    }
}
