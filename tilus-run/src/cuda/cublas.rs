//! cuBLAS on the backend's stream, for `--compare cublas`: one GEMM shape, `C = A·Bᵀ` with
//! `A [M, K]`, `B [N, K]` and `C [M, N]` row-major, f16 or bf16 (all three alike), f32
//! accumulation.
//!
//! cuBLAS is column-major. A row-major `[R, C]` matrix is the column-major `[C, R]` one, so
//! row-major `C = A·Bᵀ` is column-major `Cᵀ = B·Aᵀ` (`[N, M]`, leading dimension `N`): the
//! first operand is the buffer `b` read as column-major `[K, N]` (ld `K`) and transposed, the
//! second is `a` read as column-major `[K, M]` (ld `K`) as it is. One `cublasGemmEx` call with
//! `transa = T`, `transb = N`, `m = N`, `n = M`, `k = K`.
//!
//! The library is loaded at run time (`cudarc`'s dynamic loading, `libcublas.so*` on the
//! loader's path); [`Cublas::open`] turns its absence into [`CudaError::Unavailable`].

use super::device::{BenchStats, CudaBackend, DeviceBuffer};
use super::CudaError;
use cudarc::cublas::sys;
use std::ffi::{c_void, CStr};
use std::ptr::null_mut;

/// `C [m, n] = A [m, k] · B [n, k]ᵀ`, every matrix row-major and dense.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmShape {
    pub m: usize,
    pub n: usize,
    pub k: usize,
}

impl GemmShape {
    /// `2·M·N·K`.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// Bytes of A, B and C (2-byte elements: f16 or bf16).
    pub fn bytes(&self) -> (usize, usize, usize) {
        (
            2 * self.m * self.k,
            2 * self.n * self.k,
            2 * self.m * self.n,
        )
    }

    /// cuBLAS takes `int` extents.
    fn dims(&self) -> Result<(i32, i32, i32), CudaError> {
        let c = |v: usize, what: &str| {
            i32::try_from(v).map_err(|_| {
                CudaError::Invalid(format!("cuBLAS: {what} = {v} does not fit in an int"))
            })
        };
        Ok((c(self.m, "M")?, c(self.n, "N")?, c(self.k, "K")?))
    }
}

/// The 16-bit element type of A, B and C: the two the Hopper matmuls are compared on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemmDType {
    F16,
    BF16,
}

impl GemmDType {
    fn cuda(self) -> sys::cudaDataType {
        match self {
            GemmDType::F16 => sys::cudaDataType::CUDA_R_16F,
            GemmDType::BF16 => sys::cudaDataType::CUDA_R_16BF,
        }
    }

    /// The spelling in messages.
    pub fn name(self) -> &'static str {
        match self {
            GemmDType::F16 => "f16",
            GemmDType::BF16 => "bf16",
        }
    }
}

/// A cuBLAS handle bound to the backend's context and stream.
pub struct Cublas<'a> {
    be: &'a CudaBackend,
    handle: sys::cublasHandle_t,
}

fn status_text(s: sys::cublasStatus_t) -> String {
    // SAFETY: cuBLAS returns a static NUL-terminated string (or null).
    let p = unsafe { sys::cublasGetStatusString(s) };
    if p.is_null() {
        "no description from cuBLAS".to_string()
    } else {
        // SAFETY: non-null, NUL-terminated, static.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

fn check(
    call: &'static str,
    s: sys::cublasStatus_t,
    context: impl FnOnce() -> String,
) -> Result<(), CudaError> {
    if s == sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
        return Ok(());
    }
    Err(CudaError::Driver {
        call,
        code: format!("{s:?}"),
        message: status_text(s),
        context: context(),
    })
}

/// Runs `f`, turning a panic of the loader (a missing library or symbol) into an error.
fn guarded<T>(f: impl FnOnce() -> Result<T, CudaError>) -> Result<T, CudaError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(CudaError::Unavailable(format!(
            "the cuBLAS library could not be used: {}",
            super::panic_message(p)
        ))),
    }
}

/// Whether a cuBLAS library can be loaded (no panic when it cannot).
pub fn library_present() -> bool {
    // SAFETY: only tries to load the library.
    std::panic::catch_unwind(|| unsafe { sys::is_culib_present() }).unwrap_or(false)
}

impl<'a> Cublas<'a> {
    /// Loads cuBLAS and creates a handle that queues on `be`'s stream.
    pub fn open(be: &'a CudaBackend) -> Result<Cublas<'a>, CudaError> {
        if !library_present() {
            return Err(CudaError::Unavailable(
                "no cuBLAS library was found (libcublas.so, libcublas.so.13 or libcublas.so.12 is not on the loader's path; add the CUDA toolkit's lib64 folder, or the nvidia-cublas wheel's lib folder, to LD_LIBRARY_PATH)".into(),
            ));
        }
        be.bind()?;
        guarded(|| {
            let mut handle: sys::cublasHandle_t = null_mut();
            // SAFETY: writes one handle.
            check(
                "cublasCreate_v2",
                unsafe { sys::cublasCreate_v2(&mut handle) },
                || "creating a cuBLAS handle".into(),
            )?;
            let c = Cublas { be, handle };
            // SAFETY: a live handle; the stream lives as long as the backend, which outlives `c`.
            check(
                "cublasSetStream_v2",
                unsafe { sys::cublasSetStream_v2(handle, be.raw_stream() as sys::cudaStream_t) },
                || "binding cuBLAS to the backend's stream".into(),
            )?;
            Ok(c)
        })
    }

    /// Queues `c = a·bᵀ` (`dt` in and out, f32 accumulation) on the backend's stream.
    pub fn gemm_nt(
        &self,
        dt: GemmDType,
        shape: GemmShape,
        a: &DeviceBuffer,
        b: &DeviceBuffer,
        c: &DeviceBuffer,
    ) -> Result<(), CudaError> {
        let (m, n, k) = shape.dims()?;
        let (ab, bb, cb) = shape.bytes();
        for (name, need, buf) in [("A", ab, a), ("B", bb, b), ("C", cb, c)] {
            if buf.len() < need {
                return Err(CudaError::Invalid(format!(
                    "cuBLAS GEMM {}x{}x{}: {name} needs {need} bytes, its buffer holds {}",
                    shape.m,
                    shape.n,
                    shape.k,
                    buf.len()
                )));
            }
        }
        let alpha = 1.0f32;
        let beta = 0.0f32;
        self.be.bind()?;
        guarded(|| {
            // SAFETY: the buffers hold the extents checked above; alpha/beta are host f32
            // (the default pointer mode, f32 compute).
            let s = unsafe {
                sys::cublasGemmEx(
                    self.handle,
                    sys::cublasOperation_t::CUBLAS_OP_T,
                    sys::cublasOperation_t::CUBLAS_OP_N,
                    n,
                    m,
                    k,
                    &alpha as *const f32 as *const c_void,
                    b.ptr() as *const c_void,
                    dt.cuda(),
                    k,
                    a.ptr() as *const c_void,
                    dt.cuda(),
                    k,
                    &beta as *const f32 as *const c_void,
                    c.ptr() as *mut c_void,
                    dt.cuda(),
                    n,
                    sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                    sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
                )
            };
            check("cublasGemmEx", s, || {
                format!(
                    "queueing a {} GEMM of M={} N={} K={}",
                    dt.name(),
                    shape.m,
                    shape.n,
                    shape.k
                )
            })
        })
    }

    /// Times the GEMM like a kernel ([`CudaBackend::time`]: CUDA events, `warmup` untimed
    /// runs, the median of `reps`).
    pub fn bench(
        &self,
        dt: GemmDType,
        shape: GemmShape,
        (a, b, c): (&DeviceBuffer, &DeviceBuffer, &DeviceBuffer),
        warmup: usize,
        reps: usize,
    ) -> Result<BenchStats, CudaError> {
        self.be.time("cublasGemmEx", warmup, reps, || {
            self.gemm_nt(dt, shape, a, b, c)
        })
    }
}

impl Drop for Cublas<'_> {
    fn drop(&mut self) {
        if self.be.is_hung() || self.be.bind().is_err() {
            return;
        }
        let h = self.handle;
        let _ = std::panic::catch_unwind(|| {
            // SAFETY: the handle made in `open`; errors are ignored in a destructor.
            unsafe {
                sys::cublasDestroy_v2(h);
            }
        });
    }
}
