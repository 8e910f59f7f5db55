//! The driver calls of the CUDA backend (through `cudarc::driver::sys`, loaded at run time).
//!
//! Every call goes through [`check`], which turns a failing `CUresult` into
//! [`CudaError::Driver`] naming the function, the result's name and the driver's description.
//! Objects hold an `Rc` of the context so that buffers, modules and kernels keep it alive; once
//! the watchdog has seen a hung kernel the context is marked `hung` and no destructor calls the
//! driver again (destroying a context with a running kernel can block): the process should
//! report and exit.

use super::{
    pack_params, CudaError, DeviceLimits, LaunchConfig, Param, Swizzle, TensorMap, TensorMapDesc,
    TmaDType, DEFAULT_TIMEOUT,
};
use crate::memory::GlobalBuffer;
use cudarc::driver::sys;
use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::rc::Rc;
use std::time::{Duration, Instant};

fn describe(r: sys::CUresult) -> (String, String) {
    let mut p: *const c_char = null();
    // SAFETY: the driver returns a static NUL-terminated string or leaves `p` null.
    let message = unsafe {
        if sys::cuGetErrorString(r, &mut p) == sys::CUresult::CUDA_SUCCESS && !p.is_null() {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        } else {
            "no description from the driver".to_string()
        }
    };
    (format!("{r:?}"), message)
}

/// `Ok` for `CUDA_SUCCESS`, else the error naming `call`, the result and `context()`.
fn check(
    call: &'static str,
    r: sys::CUresult,
    context: impl FnOnce() -> String,
) -> Result<(), CudaError> {
    if r == sys::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let (code, message) = describe(r);
    Err(CudaError::Driver {
        call,
        code,
        message,
        context: context(),
    })
}

fn no_context() -> String {
    String::new()
}

/// The device's primary context, retained while any object of the backend lives.
struct Ctx {
    dev: sys::CUdevice,
    ctx: sys::CUcontext,
    /// Set by the watchdog: a kernel may still be running, so no destructor touches the driver.
    hung: Cell<bool>,
}

impl Ctx {
    fn bind(&self) -> Result<(), CudaError> {
        // SAFETY: a context retained by `cuDevicePrimaryCtxRetain`.
        check(
            "cuCtxSetCurrent",
            unsafe { sys::cuCtxSetCurrent(self.ctx) },
            no_context,
        )
    }

    /// Runs a cleanup call unless the context is hung; errors in destructors are ignored.
    fn cleanup(&self, f: impl FnOnce()) {
        if !self.hung.get() && self.bind().is_ok() {
            f();
        }
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        if !self.hung.get() {
            // SAFETY: releases the retain made in `open_inner`.
            unsafe {
                sys::cuDevicePrimaryCtxRelease_v2(self.dev);
            }
        }
    }
}

/// What the device is, read when the backend opens.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceInfo {
    pub ordinal: i32,
    pub name: String,
    /// (major, minor), e.g. (9, 0) for H100/H200.
    pub compute_capability: (i32, i32),
    pub multiprocessors: i32,
    pub l2_bytes: i64,
    pub memory_bytes: u64,
    /// `cuDriverGetVersion`, e.g. 13000 for CUDA 13.0.
    pub driver_version: i32,
    pub limits: DeviceLimits,
}

impl std::fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "device {}: {} (sm_{}{}), {} SMs, {:.1} GiB, L2 {} MiB, {} KiB shared memory a CTA at most, driver CUDA {}.{}",
            self.ordinal,
            self.name,
            self.compute_capability.0,
            self.compute_capability.1,
            self.multiprocessors,
            self.memory_bytes as f64 / (1u64 << 30) as f64,
            self.l2_bytes >> 20,
            self.limits.max_smem_per_block_optin / 1024,
            self.driver_version / 1000,
            (self.driver_version % 1000) / 10
        )
    }
}

/// Median, minimum and maximum of timed repetitions, in milliseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchStats {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub reps: usize,
}

impl BenchStats {
    fn of(mut times: Vec<f64>) -> BenchStats {
        times.sort_by(f64::total_cmp);
        let n = times.len();
        let median_ms = if n == 0 {
            f64::NAN
        } else if n % 2 == 1 {
            times[n / 2]
        } else {
            (times[n / 2 - 1] + times[n / 2]) / 2.0
        };
        BenchStats {
            median_ms,
            min_ms: times.first().copied().unwrap_or(f64::NAN),
            max_ms: times.last().copied().unwrap_or(f64::NAN),
            reps: n,
        }
    }

    /// `bytes` moved per repetition over the median time, in GB/s (10^9 bytes a second).
    pub fn gb_per_s(&self, bytes: u64) -> f64 {
        bytes as f64 / (self.median_ms * 1e-3) / 1e9
    }

    /// `flops` per repetition over the median time, in TFLOP/s.
    pub fn tflop_per_s(&self, flops: f64) -> f64 {
        flops / (self.median_ms * 1e-3) / 1e12
    }
}

/// An open device: its primary context, one stream all work goes to, and the watchdog limit.
pub struct CudaBackend {
    ctx: Rc<Ctx>,
    stream: sys::CUstream,
    info: DeviceInfo,
    timeout: Duration,
}

impl CudaBackend {
    /// Opens device 0. Fails with [`CudaError::Unavailable`] (never a panic) when there is no
    /// driver library, no device, or the driver cannot start.
    pub fn open() -> Result<CudaBackend, CudaError> {
        CudaBackend::open_device(0)
    }

    /// Opens device `ordinal` (see [`CudaBackend::open`]).
    pub fn open_device(ordinal: i32) -> Result<CudaBackend, CudaError> {
        // SAFETY: only tries to load the library.
        let present =
            std::panic::catch_unwind(|| unsafe { sys::is_culib_present() }).unwrap_or(false);
        if !present {
            return Err(CudaError::Unavailable(
                "no CUDA driver library was found (libcuda.so or libcuda.so.1 is not on the loader's path): this machine has no NVIDIA driver; run on the CPU interpreter instead (--backend interp)".into(),
            ));
        }
        match std::panic::catch_unwind(|| open_inner(ordinal)) {
            Ok(r) => r,
            Err(p) => Err(CudaError::Unavailable(format!(
                "the CUDA driver library could not be used: {}",
                super::panic_message(p)
            ))),
        }
    }

    /// The stream all work goes to (for libraries such as cuBLAS that queue on it).
    pub(super) fn raw_stream(&self) -> sys::CUstream {
        self.stream
    }

    /// Makes the backend's context current on this thread.
    pub(super) fn bind(&self) -> Result<(), CudaError> {
        self.ctx.bind()
    }

    /// Whether the watchdog has seen a hung kernel (no driver call may be made then).
    pub(super) fn is_hung(&self) -> bool {
        self.ctx.hung.get()
    }

    /// The device.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// The watchdog limit for each wait (default [`DEFAULT_TIMEOUT`]).
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    pub fn set_timeout(&mut self, limit: Duration) {
        self.timeout = limit;
    }

    /// Loads a PTX module (JIT-compiled by the driver for this device). A failure carries the
    /// JIT compiler's log.
    pub fn load_module(&self, ptx: &str) -> Result<Module, CudaError> {
        super::check_ptx_ascii(ptx)?;
        self.ctx.bind()?;
        let src = CString::new(ptx)
            .map_err(|_| CudaError::Invalid("the PTX text contains a NUL byte".into()))?;
        let mut err_log = vec![0u8; 16 * 1024];
        let mut info_log = vec![0u8; 16 * 1024];
        let mut opts = [
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut vals = [
            err_log.as_mut_ptr() as *mut c_void,
            err_log.len() as *mut c_void,
            info_log.as_mut_ptr() as *mut c_void,
            info_log.len() as *mut c_void,
        ];
        let mut m: sys::CUmodule = null_mut();
        // SAFETY: NUL-terminated image; option arrays of equal length; logs outlive the call.
        let r = unsafe {
            sys::cuModuleLoadDataEx(
                &mut m,
                src.as_ptr() as *const c_void,
                opts.len() as u32,
                opts.as_mut_ptr(),
                vals.as_mut_ptr(),
            )
        };
        check("cuModuleLoadDataEx", r, || {
            let log = c_log(&err_log);
            if log.is_empty() {
                "loading a PTX module".to_string()
            } else {
                format!("loading a PTX module; the JIT compiler said:\n{log}")
            }
        })?;
        Ok(Module {
            handle: Rc::new(ModHandle {
                ctx: self.ctx.clone(),
                module: m,
            }),
            jit_log: c_log(&info_log),
        })
    }

    /// Loads `ptx` and looks up the kernel `entry` in it.
    pub fn load_ptx(&self, ptx: &str, entry: &str) -> Result<Kernel, CudaError> {
        self.load_module(ptx)?.kernel(entry)
    }

    /// A device buffer of `bytes` bytes (uninitialised).
    pub fn alloc(&self, bytes: usize) -> Result<DeviceBuffer, CudaError> {
        self.ctx.bind()?;
        let mut p: sys::CUdeviceptr = 0;
        // SAFETY: writes one device pointer.
        let r = unsafe { sys::cuMemAlloc_v2(&mut p, bytes.max(1)) };
        check("cuMemAlloc_v2", r, || format!("allocating {bytes} bytes"))?;
        Ok(DeviceBuffer {
            ctx: self.ctx.clone(),
            ptr: p,
            bytes,
        })
    }

    /// A device buffer holding `data`.
    pub fn upload(&self, data: &[u8]) -> Result<DeviceBuffer, CudaError> {
        let b = self.alloc(data.len())?;
        self.write(&b, data)?;
        Ok(b)
    }

    /// A device buffer holding an interpreter buffer's bytes.
    pub fn upload_buffer(&self, g: &GlobalBuffer) -> Result<DeviceBuffer, CudaError> {
        self.upload(&g.bytes)
            .map_err(|e| with_context(e, &format!("uploading buffer '{}'", g.name)))
    }

    /// Copies `data` to the start of `buf` (after the work queued so far).
    pub fn write(&self, buf: &DeviceBuffer, data: &[u8]) -> Result<(), CudaError> {
        if data.len() > buf.bytes {
            return Err(CudaError::Invalid(format!(
                "writing {} bytes into a device buffer of {}",
                data.len(),
                buf.bytes
            )));
        }
        self.wait("(work queued before a copy to the device)")?;
        // SAFETY: `data` is readable; the buffer holds at least `data.len()` bytes.
        let r =
            unsafe { sys::cuMemcpyHtoD_v2(buf.ptr, data.as_ptr() as *const c_void, data.len()) };
        check("cuMemcpyHtoD_v2", r, || {
            format!("copying {} bytes to the device", data.len())
        })
    }

    /// Sets every byte of `buf` to `value` (to poison outputs before a run).
    pub fn fill(&self, buf: &DeviceBuffer, value: u8) -> Result<(), CudaError> {
        self.wait("(work queued before a fill)")?;
        // SAFETY: the range is the buffer.
        let r = unsafe { sys::cuMemsetD8_v2(buf.ptr, value, buf.bytes) };
        check("cuMemsetD8_v2", r, || {
            format!("filling {} bytes", buf.bytes)
        })
    }

    /// Copies the start of `buf` into `out`, after the queued work has finished (watchdog).
    pub fn read(&self, buf: &DeviceBuffer, out: &mut [u8]) -> Result<(), CudaError> {
        if out.len() > buf.bytes {
            return Err(CudaError::Invalid(format!(
                "reading {} bytes from a device buffer of {}",
                out.len(),
                buf.bytes
            )));
        }
        self.wait("(work queued before a copy from the device)")?;
        // SAFETY: `out` is writable; the buffer holds at least `out.len()` bytes.
        let r =
            unsafe { sys::cuMemcpyDtoH_v2(out.as_mut_ptr() as *mut c_void, buf.ptr, out.len()) };
        check("cuMemcpyDtoH_v2", r, || {
            format!("copying {} bytes from the device", out.len())
        })
    }

    /// The whole of `buf`.
    pub fn download(&self, buf: &DeviceBuffer) -> Result<Vec<u8>, CudaError> {
        let mut v = vec![0u8; buf.bytes];
        self.read(buf, &mut v)?;
        Ok(v)
    }

    /// Reads `buf` back into an interpreter buffer (as many bytes as it holds).
    pub fn download_into(&self, buf: &DeviceBuffer, g: &mut GlobalBuffer) -> Result<(), CudaError> {
        let name = g.name.clone();
        self.read(buf, &mut g.bytes)
            .map_err(|e| with_context(e, &format!("reading back buffer '{name}'")))
    }

    /// Queues a device-to-device copy of `bytes` bytes.
    pub fn copy_async(
        &self,
        dst: &DeviceBuffer,
        src: &DeviceBuffer,
        bytes: usize,
    ) -> Result<(), CudaError> {
        if bytes > dst.bytes || bytes > src.bytes {
            return Err(CudaError::Invalid(format!(
                "copying {bytes} bytes between device buffers of {} and {}",
                src.bytes, dst.bytes
            )));
        }
        self.ctx.bind()?;
        // SAFETY: both ranges are inside their buffers.
        let r = unsafe { sys::cuMemcpyDtoDAsync_v2(dst.ptr, src.ptr, bytes, self.stream) };
        check("cuMemcpyDtoDAsync_v2", r, || {
            format!("copying {bytes} bytes on the device")
        })
    }

    /// Encodes a tiled tensor map (`cuTensorMapEncodeTiled`; interleave none, L2 promotion
    /// 128 B, out-of-bound fill none), after checking the driver's rules.
    pub fn tensor_map(&self, d: &TensorMapDesc) -> Result<TensorMap, CudaError> {
        d.validate()?;
        self.ctx.bind()?;
        let mut m = sys::CUtensorMap { opaque: [0; 16] };
        let dtype = match d.dtype {
            TmaDType::U8 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT8,
            TmaDType::U16 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT16,
            TmaDType::U32 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT32,
            TmaDType::I32 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_INT32,
            TmaDType::U64 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT64,
            TmaDType::I64 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_INT64,
            TmaDType::F16 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
            TmaDType::F32 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
            TmaDType::F64 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
            TmaDType::BF16 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
            TmaDType::TF32 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
        };
        let swizzle = match d.swizzle {
            Swizzle::None => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
            Swizzle::B32 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_32B,
            Swizzle::B64 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_64B,
            Swizzle::B128 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
        };
        // SAFETY: arrays of the lengths `validate` checked; the map is written in place.
        let r = unsafe {
            sys::cuTensorMapEncodeTiled(
                &mut m,
                dtype,
                d.rank() as u32,
                d.global_address as *mut c_void,
                d.global_dims.as_ptr(),
                d.global_strides.as_ptr(),
                d.box_dims.as_ptr(),
                d.element_strides.as_ptr(),
                sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
                swizzle,
                sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            )
        };
        check("cuTensorMapEncodeTiled", r, || {
            format!(
                "encoding a tensor map of {:?}, dims {:?}, byte strides {:?}, box {:?} (innermost first), swizzle {:?}",
                d.dtype, d.global_dims, d.global_strides, d.box_dims, d.swizzle
            )
        })?;
        let mut out = [0u8; 128];
        for (c, w) in out.chunks_exact_mut(8).zip(m.opaque) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        Ok(TensorMap(out))
    }

    /// Queues a launch (asynchronous; see [`CudaBackend::run`] and [`CudaBackend::wait`]).
    /// Checks the configuration and the parameters against the kernel's own layout first,
    /// raises the dynamic shared memory limit above 48 KiB, and launches with
    /// `cuLaunchKernelEx` (with the cluster attribute when `cfg.cluster` is set).
    pub fn launch(
        &self,
        k: &Kernel,
        cfg: &LaunchConfig,
        params: &[Param],
    ) -> Result<(), CudaError> {
        let plan = cfg
            .plan(&self.info.limits, k.static_smem)
            .map_err(|e| CudaError::Invalid(format!("cannot launch kernel '{}': {e}", k.name)))?;
        if let Some(layout) = param_layout(k.func, params.len()) {
            if layout.len() != params.len() {
                return Err(CudaError::Invalid(format!(
                    "kernel '{}' takes {} parameters, {} were given",
                    k.name,
                    layout.len(),
                    params.len()
                )));
            }
            for (i, (p, &(_, size))) in params.iter().zip(&layout).enumerate() {
                if p.size() != size {
                    return Err(CudaError::Invalid(format!(
                        "parameter #{i} of kernel '{}' is {size} bytes, but a {} ({} bytes) was given",
                        k.name,
                        p.describe(),
                        p.size()
                    )));
                }
            }
        }
        self.ctx.bind()?;
        if let Some(bytes) = plan.set_max_dynamic_smem {
            if k.dynamic_smem_limit.get() < bytes {
                // SAFETY: a function of a loaded module.
                let r = unsafe {
                    sys::cuFuncSetAttribute(
                        k.func,
                        sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        bytes as i32,
                    )
                };
                check("cuFuncSetAttribute", r, || {
                    format!(
                        "raising kernel '{}''s dynamic shared memory limit to {bytes} bytes",
                        k.name
                    )
                })?;
                k.dynamic_smem_limit.set(bytes);
            }
        }
        if plan.non_portable_cluster && !k.non_portable_cluster.get() {
            // SAFETY: as above.
            let r = unsafe {
                sys::cuFuncSetAttribute(
                    k.func,
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                    1,
                )
            };
            check("cuFuncSetAttribute", r, || {
                format!("allowing kernel '{}' a non-portable cluster size", k.name)
            })?;
            k.non_portable_cluster.set(true);
        }
        let mut packed = pack_params(params);
        let mut ptrs = packed.pointers();
        let mut attrs = Vec::new();
        if let Some(c) = cfg.cluster {
            // SAFETY: a plain C struct; all-zero is a valid (ignored) attribute.
            let mut a: sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
            a.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            a.value.clusterDim = sys::CUlaunchAttributeValue_union__bindgen_ty_1 {
                x: c.x,
                y: c.y,
                z: c.z,
            };
            attrs.push(a);
        }
        let lc = sys::CUlaunchConfig {
            gridDimX: cfg.grid.x,
            gridDimY: cfg.grid.y,
            gridDimZ: cfg.grid.z,
            blockDimX: cfg.block.x,
            blockDimY: cfg.block.y,
            blockDimZ: cfg.block.z,
            sharedMemBytes: cfg.dynamic_smem,
            hStream: self.stream,
            attrs: if attrs.is_empty() {
                null_mut()
            } else {
                attrs.as_mut_ptr()
            },
            numAttrs: attrs.len() as u32,
        };
        // SAFETY: the parameter pointers point into `packed`, alive until the call returns
        // (the driver copies the values at launch).
        let r = unsafe { sys::cuLaunchKernelEx(&lc, k.func, ptrs.as_mut_ptr(), null_mut()) };
        check("cuLaunchKernelEx", r, || {
            format!("launching kernel '{}' ({cfg})", k.name)
        })
    }

    /// Launches and waits for the kernel under the watchdog.
    pub fn run(&self, k: &Kernel, cfg: &LaunchConfig, params: &[Param]) -> Result<(), CudaError> {
        self.launch(k, cfg, params)?;
        self.wait(&k.name)
    }

    /// Waits for all queued work, polling an event; after [`CudaBackend::timeout`] returns
    /// [`CudaError::Timeout`] naming `what` (the kernel) and marks the backend hung. A fault
    /// in the work (an illegal address, a trap) comes back as the driver's error.
    pub fn wait(&self, what: &str) -> Result<(), CudaError> {
        self.ctx.bind()?;
        let ev = Event::new(&self.ctx, false)?;
        ev.record(self.stream)?;
        self.wait_event(&ev, what, self.timeout)
    }

    fn wait_event(&self, ev: &Event, what: &str, limit: Duration) -> Result<(), CudaError> {
        let start = Instant::now();
        let mut polls = 0u32;
        loop {
            // SAFETY: a live event.
            let r = unsafe { sys::cuEventQuery(ev.ev) };
            match r {
                sys::CUresult::CUDA_SUCCESS => return Ok(()),
                sys::CUresult::CUDA_ERROR_NOT_READY => {}
                _ => {
                    return check("cuEventQuery", r, || {
                        format!("waiting for kernel '{what}' (the kernel faulted)")
                    })
                }
            }
            if start.elapsed() >= limit {
                self.ctx.hung.set(true);
                return Err(CudaError::Timeout {
                    kernel: what.to_string(),
                    limit,
                });
            }
            polls += 1;
            if polls < 200 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
    }

    /// Times `reps` repetitions of `f` (which queues work on the backend's stream, e.g. a
    /// launch) with CUDA events, after `warmup` untimed ones: all repetitions are queued back
    /// to back, each between its own pair of events, so launch gaps are not timed.
    pub fn time(
        &self,
        what: &str,
        warmup: usize,
        reps: usize,
        mut f: impl FnMut() -> Result<(), CudaError>,
    ) -> Result<BenchStats, CudaError> {
        for _ in 0..warmup {
            f()?;
        }
        self.wait(what)?;
        let mut events = Vec::with_capacity(reps);
        for _ in 0..reps {
            let a = Event::new(&self.ctx, true)?;
            let b = Event::new(&self.ctx, true)?;
            a.record(self.stream)?;
            f()?;
            b.record(self.stream)?;
            events.push((a, b));
        }
        let mut times = Vec::with_capacity(reps);
        for (a, b) in &events {
            self.wait_event(b, what, self.timeout)?;
            let mut ms = 0f32;
            // SAFETY: two recorded, completed timing events.
            let r = unsafe { sys::cuEventElapsedTime_v2(&mut ms, a.ev, b.ev) };
            check("cuEventElapsedTime_v2", r, || format!("timing '{what}'"))?;
            times.push(ms as f64);
        }
        Ok(BenchStats::of(times))
    }

    /// Times a kernel launch: `warmup` untimed runs, then the median of `reps` (see
    /// [`CudaBackend::time`]).
    pub fn bench(
        &self,
        k: &Kernel,
        cfg: &LaunchConfig,
        params: &[Param],
        warmup: usize,
        reps: usize,
    ) -> Result<BenchStats, CudaError> {
        self.time(&k.name, warmup, reps, || self.launch(k, cfg, params))
    }

    /// Times a device-to-device copy of `bytes` bytes: the copy bandwidth a memory-bound kernel
    /// is compared with (count `2·bytes`, read plus write).
    pub fn bench_copy(
        &self,
        dst: &DeviceBuffer,
        src: &DeviceBuffer,
        bytes: usize,
        warmup: usize,
        reps: usize,
    ) -> Result<BenchStats, CudaError> {
        self.time("device-to-device copy", warmup, reps, || {
            self.copy_async(dst, src, bytes)
        })
    }
}

impl Drop for CudaBackend {
    fn drop(&mut self) {
        let s = self.stream;
        self.ctx.cleanup(|| unsafe {
            // SAFETY: the stream created in `open_inner`.
            sys::cuStreamDestroy_v2(s);
        });
    }
}

fn with_context(e: CudaError, what: &str) -> CudaError {
    match e {
        CudaError::Driver {
            call,
            code,
            message,
            context,
        } => CudaError::Driver {
            call,
            code,
            message,
            context: if context.is_empty() {
                what.to_string()
            } else {
                format!("{what}: {context}")
            },
        },
        CudaError::Invalid(m) => CudaError::Invalid(format!("{what}: {m}")),
        other => other,
    }
}

fn c_log(buf: &[u8]) -> String {
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).trim_end().to_string()
}

fn open_inner(ordinal: i32) -> Result<CudaBackend, CudaError> {
    let unavailable = |e: CudaError| CudaError::Unavailable(e.to_string());
    // SAFETY: plain driver calls with out-pointers to locals.
    unsafe {
        check("cuInit", sys::cuInit(0), || {
            "starting the CUDA driver".into()
        })
        .map_err(unavailable)?;
        let mut version = 0;
        check(
            "cuDriverGetVersion",
            sys::cuDriverGetVersion(&mut version),
            no_context,
        )?;
        let mut count = 0;
        check(
            "cuDeviceGetCount",
            sys::cuDeviceGetCount(&mut count),
            no_context,
        )
        .map_err(unavailable)?;
        if count == 0 {
            return Err(CudaError::Unavailable(
                "the driver sees no CUDA device".into(),
            ));
        }
        if ordinal < 0 || ordinal >= count {
            return Err(CudaError::Unavailable(format!(
                "there is no CUDA device {ordinal} (the driver sees {count})"
            )));
        }
        let mut dev: sys::CUdevice = 0;
        check(
            "cuDeviceGet",
            sys::cuDeviceGet(&mut dev, ordinal),
            no_context,
        )?;
        let mut name = [0 as c_char; 256];
        check(
            "cuDeviceGetName",
            sys::cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, dev),
            no_context,
        )?;
        let name = CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned();
        let attr = |a: sys::CUdevice_attribute| -> Result<i32, CudaError> {
            let mut v = 0;
            check(
                "cuDeviceGetAttribute",
                sys::cuDeviceGetAttribute(&mut v, a, dev),
                || format!("reading {a:?}"),
            )?;
            Ok(v)
        };
        use sys::CUdevice_attribute as A;
        let limits = DeviceLimits {
            max_threads_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)? as u32,
            max_block: [
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)? as u32,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)? as u32,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)? as u32,
            ],
            max_grid: [
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)? as u32,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)? as u32,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)? as u32,
            ],
            max_smem_per_block_optin: attr(
                A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )? as u32,
            ..DeviceLimits::hopper()
        };
        let mut mem = 0usize;
        check(
            "cuDeviceTotalMem_v2",
            sys::cuDeviceTotalMem_v2(&mut mem, dev),
            no_context,
        )?;
        let info = DeviceInfo {
            ordinal,
            name,
            compute_capability: (
                attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            ),
            multiprocessors: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            l2_bytes: attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)? as i64,
            memory_bytes: mem as u64,
            driver_version: version,
            limits,
        };
        let mut ctx: sys::CUcontext = null_mut();
        check(
            "cuDevicePrimaryCtxRetain",
            sys::cuDevicePrimaryCtxRetain(&mut ctx, dev),
            || format!("opening device {ordinal}"),
        )?;
        let ctx = Rc::new(Ctx {
            dev,
            ctx,
            hung: Cell::new(false),
        });
        ctx.bind()?;
        let mut stream: sys::CUstream = null_mut();
        check(
            "cuStreamCreate",
            sys::cuStreamCreate(&mut stream, 0),
            no_context,
        )?;
        Ok(CudaBackend {
            ctx,
            stream,
            info,
            timeout: DEFAULT_TIMEOUT,
        })
    }
}

struct Event {
    ctx: Rc<Ctx>,
    ev: sys::CUevent,
}

impl Event {
    fn new(ctx: &Rc<Ctx>, timing: bool) -> Result<Event, CudaError> {
        let flags = if timing {
            sys::CUevent_flags::CU_EVENT_DEFAULT
        } else {
            sys::CUevent_flags::CU_EVENT_DISABLE_TIMING
        };
        let mut ev: sys::CUevent = null_mut();
        // SAFETY: writes one event handle.
        let r = unsafe { sys::cuEventCreate(&mut ev, flags as u32) };
        check("cuEventCreate", r, no_context)?;
        Ok(Event {
            ctx: ctx.clone(),
            ev,
        })
    }

    fn record(&self, stream: sys::CUstream) -> Result<(), CudaError> {
        // SAFETY: a live event and stream.
        check(
            "cuEventRecord",
            unsafe { sys::cuEventRecord(self.ev, stream) },
            no_context,
        )
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        let ev = self.ev;
        self.ctx.cleanup(|| unsafe {
            // SAFETY: the event created in `Event::new`.
            sys::cuEventDestroy_v2(ev);
        });
    }
}

/// Device memory, freed when dropped.
pub struct DeviceBuffer {
    ctx: Rc<Ctx>,
    ptr: sys::CUdeviceptr,
    bytes: usize,
}

impl DeviceBuffer {
    /// The device address.
    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// The buffer as a pointer kernel argument.
    pub fn param(&self) -> Param {
        Param::Ptr(self.ptr)
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        let p = self.ptr;
        self.ctx.cleanup(|| unsafe {
            // SAFETY: the allocation made in `CudaBackend::alloc`.
            sys::cuMemFree_v2(p);
        });
    }
}

struct ModHandle {
    ctx: Rc<Ctx>,
    module: sys::CUmodule,
}

impl Drop for ModHandle {
    fn drop(&mut self) {
        let m = self.module;
        self.ctx.cleanup(|| unsafe {
            // SAFETY: the module loaded in `CudaBackend::load_module`.
            sys::cuModuleUnload(m);
        });
    }
}

/// A loaded PTX module.
pub struct Module {
    handle: Rc<ModHandle>,
    /// The JIT compiler's info log (register use per kernel, …).
    pub jit_log: String,
}

impl Module {
    /// The kernel `entry` of this module, with its attributes.
    pub fn kernel(&self, entry: &str) -> Result<Kernel, CudaError> {
        self.handle.ctx.bind()?;
        let cname = CString::new(entry).map_err(|_| {
            CudaError::Invalid(format!("kernel name {entry:?} contains a NUL byte"))
        })?;
        let mut f: sys::CUfunction = null_mut();
        // SAFETY: a loaded module and a NUL-terminated name.
        let r = unsafe { sys::cuModuleGetFunction(&mut f, self.handle.module, cname.as_ptr()) };
        check("cuModuleGetFunction", r, || {
            format!("looking up kernel '{entry}' in the module")
        })?;
        let fattr = |a: sys::CUfunction_attribute| -> Result<i32, CudaError> {
            let mut v = 0;
            // SAFETY: a function of a loaded module.
            let r = unsafe { sys::cuFuncGetAttribute(&mut v, a, f) };
            check("cuFuncGetAttribute", r, || {
                format!("reading {a:?} of kernel '{entry}'")
            })?;
            Ok(v)
        };
        use sys::CUfunction_attribute as F;
        let num_regs = fattr(F::CU_FUNC_ATTRIBUTE_NUM_REGS)?;
        let static_smem = fattr(F::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)? as u32;
        let max_threads = fattr(F::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)? as u32;
        Ok(Kernel {
            _module: self.handle.clone(),
            func: f,
            name: entry.to_string(),
            num_regs,
            static_smem,
            max_threads,
            dynamic_smem_limit: Cell::new(super::DEFAULT_DYNAMIC_SMEM_LIMIT),
            non_portable_cluster: Cell::new(false),
        })
    }
}

/// (offset, size) of the first `count` parameters, from `cuFuncGetParamInfo` (CUDA 12.4+): fewer
/// than `count` entries when the kernel takes fewer parameters, `None` when the driver cannot
/// say.
///
/// Only indices below `count` (the parameters the launch passes) are asked for. Asking past the
/// last parameter would find the count, but the driver answers it with
/// CUDA_ERROR_INVALID_VALUE, which compute-sanitizer reports as an API error on every launch of
/// a correct kernel.
fn param_layout(f: sys::CUfunction, count: usize) -> Option<Vec<(usize, usize)>> {
    std::panic::catch_unwind(|| {
        let mut v = Vec::new();
        for i in 0..count {
            let (mut off, mut size) = (0usize, 0usize);
            // SAFETY: a function of a loaded module; out-pointers to locals.
            let r = unsafe { sys::cuFuncGetParamInfo(f, i, &mut off, &mut size) };
            if r != sys::CUresult::CUDA_SUCCESS {
                // Past the last parameter the driver answers CUDA_ERROR_INVALID_VALUE.
                return (r == sys::CUresult::CUDA_ERROR_INVALID_VALUE).then_some(v);
            }
            v.push((off, size));
        }
        Some(v)
    })
    .ok()
    .flatten()
}

/// A kernel of a loaded module (keeps the module loaded).
pub struct Kernel {
    _module: Rc<ModHandle>,
    func: sys::CUfunction,
    /// The entry's name (what the watchdog reports).
    pub name: String,
    pub num_regs: i32,
    /// Static shared memory in bytes.
    pub static_smem: u32,
    /// The most threads a CTA of this kernel may have.
    pub max_threads: u32,
    dynamic_smem_limit: Cell<u32>,
    non_portable_cluster: Cell<bool>,
}
