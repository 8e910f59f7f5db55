//! Names of the discardable attributes the Tilus tools read and write on kernels, declared once
//! so that the lowering, the interpreter and the CUDA backend cannot drift apart on a spelling.

/// `tilus.args = {n = 64 : i32}`: default scalar arguments for `tilus-run`.
pub const ARGS: &str = "tilus.args";
/// `tilus.inputs = {x = "random"}`: how `tilus-run` fills pointer parameters.
pub const INPUTS: &str = "tilus.inputs";
/// `tilus.outputs = ["y"]`: the buffers `tilus-run` reports and checks.
pub const OUTPUTS: &str = "tilus.outputs";
/// `tilus.reference = "name"`: the kernel whose outputs are the expected ones.
pub const REFERENCE: &str = "tilus.reference";
/// `tilus.bytes = "..."`: bytes moved, for `--bench` bandwidth.
pub const BYTES: &str = "tilus.bytes";
/// `tilus.flops = "..."`: operations, for `--bench` TFLOP/s.
pub const FLOPS: &str = "tilus.flops";
/// `tilus.gemm = {...}`: the GEMM shape `--compare cublas` times.
pub const GEMM: &str = "tilus.gemm";
/// Set by the lowering: the TMA sites' tensor-map descriptors.
pub const TENSOR_MAPS: &str = "tilus.tensor_maps";
/// Set by the lowering: the launch's dynamic shared memory in bytes.
pub const SMEM_BYTES: &str = "tilus.smem_bytes";
/// Set by the lowering: a shared tensor's byte offset in the kernel's shared memory.
pub const SMEM_OFFSET: &str = "tilus.smem_offset";
/// Set by the lowering: the PTX target a kernel needs (`sm_100a` for tcgen05).
pub const PTX_TARGET: &str = "tilus.ptx_target";
/// Set by the lowering: the kernel adjusts its register budget with `setmaxnreg`, so its entry
/// needs its register count at entry fixed (`.maxnreg`).
pub const SETMAXNREG: &str = "tilus.setmaxnreg";
/// Kept on the lowered entry: the tile-level kernel's warps, threads, grid and cluster.
pub const WARPS: &str = "tilus.warps";
/// See [`WARPS`].
pub const THREADS: &str = "tilus.threads";
/// See [`WARPS`].
pub const BLOCKS: &str = "tilus.blocks";
/// See [`WARPS`].
pub const CLUSTER: &str = "tilus.cluster";
/// A parameter attribute, `%n: i32 {tilus.divisibility = 64 : i64}`: the argument is a
/// multiple of 64. `eqsat`'s range analysis uses it (a remainder by 64 folds to 0), and
/// `tilus-run` rejects an argument that breaks it rather than run a kernel compiled on a lie.
pub const DIVISIBILITY: &str = "tilus.divisibility";
/// A parameter attribute, `%n: i32 {tilus.range = array<i64: 1, 65536>}`: the argument lies in
/// `[1, 65536]` (both ends included), used and checked as `tilus.divisibility` is.
pub const RANGE: &str = "tilus.range";
