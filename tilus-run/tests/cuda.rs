//! The CUDA backend: what runs anywhere (no GPU, no driver: a clean error from `open`, tensor-map
//! descriptions, parameter packing, launch plans) and, `#[ignore]`d, the device check that
//! `bench/gpu/selftest.sh` runs on a GPU machine:
//!
//! ```text
//! cargo test --release -p tilus-run --test cuda -- --ignored --nocapture --test-threads 1
//! ```
//!
//! `TILUS_GPU_DIR` names the folder of the hand-written PTX (default `bench/gpu`, from the
//! current directory or the workspace), `TILUS_GPU_BENCH_ELEMS` the size of the timed vector add.

use std::path::PathBuf;
use std::time::{Duration, Instant};
use tilus_run::cuda::{
    check_ptx_ascii, pack_params, selftest, CudaBackend, CudaError, DeviceLimits, Dim3,
    LaunchConfig, Param, Swizzle, TensorMap, TensorMapDesc, TmaDType,
};
use tilus_run::tensor::DType;

fn dtype(s: &str) -> DType {
    DType::parse(s).unwrap()
}

#[test]
fn open_fails_cleanly_without_a_gpu() {
    match CudaBackend::open() {
        Ok(be) => eprintln!("a GPU is present ({}); nothing to check here", be.info()),
        Err(e) => {
            assert!(
                matches!(e, CudaError::Unavailable(_)),
                "not an Unavailable error: {e:?}"
            );
            let m = e.to_string();
            assert!(m.starts_with("the CUDA backend is unavailable: "), "{m}");
            assert!(m.contains("CUDA") || m.contains("cuInit"), "{m}");
            // Twice: the second attempt must answer the same way, without a panic.
            assert_eq!(CudaBackend::open().err().map(|e| e.to_string()), Some(m));
        }
    }
}

#[test]
fn tensor_map_2d_is_innermost_first_in_bytes() {
    let d = TensorMapDesc::tiled(
        DType::F16,
        0x7f00_0000_1000,
        &[300, 208],
        &[208, 1],
        &[64, 32],
        Swizzle::B64,
    )
    .unwrap();
    assert_eq!(d.dtype, TmaDType::F16);
    assert_eq!(d.rank(), 2);
    assert_eq!(d.global_dims, vec![208, 300]);
    assert_eq!(d.global_strides, vec![416]);
    assert_eq!(d.box_dims, vec![32, 64]);
    assert_eq!(d.element_strides, vec![1, 1]);
    assert_eq!(d.swizzle, Swizzle::B64);
    assert_eq!(d.box_bytes(), 64 * 32 * 2);
}

#[test]
fn tensor_map_3d_strided_view() {
    // A [4, 300, 200] f32 view of rows padded to 256 elements and planes of 300 rows.
    let d = TensorMapDesc::tiled(
        DType::F32,
        0x1000,
        &[4, 300, 200],
        &[300 * 256, 256, 1],
        &[1, 64, 32],
        Swizzle::B128,
    )
    .unwrap();
    assert_eq!(d.global_dims, vec![200, 300, 4]);
    assert_eq!(d.global_strides, vec![1024, 300 * 1024]);
    assert_eq!(d.box_dims, vec![32, 64, 1]);
    assert_eq!(d.box_bytes(), 8192);
}

#[test]
fn tensor_map_dtypes() {
    for (s, t) in [
        ("f16", TmaDType::F16),
        ("bf16", TmaDType::BF16),
        ("f32", TmaDType::F32),
        ("f64", TmaDType::F64),
        ("tf32", TmaDType::TF32),
        ("f8E4M3FN", TmaDType::U8),
        ("f8E5M2", TmaDType::U8),
        ("i8", TmaDType::U8),
        ("ui16", TmaDType::U16),
        ("i32", TmaDType::I32),
        ("si32", TmaDType::I32),
        ("ui32", TmaDType::U32),
        ("i64", TmaDType::I64),
        ("ui64", TmaDType::U64),
    ] {
        assert_eq!(TmaDType::from_dtype(dtype(s)).unwrap(), t, "{s}");
    }
    let e = TmaDType::from_dtype(dtype("f4E2M1FN"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("f4E2M1FN") && e.contains("sub-byte"), "{e}");
}

#[test]
fn tensor_map_rules() {
    let t = |dt: &str, addr: u64, shape: &[i64], strides: &[i64], bx: &[i64], sw: Swizzle| {
        TensorMapDesc::tiled(dtype(dt), addr, shape, strides, bx, sw)
            .unwrap_err()
            .to_string()
    };
    let cases = [
        (
            t("f32", 0x1000, &[64, 64], &[1, 64], &[8, 8], Swizzle::None),
            "innermost stride must be 1",
        ),
        (
            t("f16", 0x1000, &[64, 201], &[201, 1], &[8, 8], Swizzle::None),
            "not a multiple of 16",
        ),
        (
            t("f32", 0x1008, &[64, 64], &[64, 1], &[8, 8], Swizzle::None),
            "not 16-byte aligned",
        ),
        (
            t(
                "f16",
                0x1000,
                &[512, 512],
                &[512, 1],
                &[257, 8],
                Swizzle::None,
            ),
            "outside 1..=256",
        ),
        (
            t("f32", 0x1000, &[64, 64], &[64, 1], &[8, 3], Swizzle::None),
            "covers 12 bytes, not a multiple of 16",
        ),
        (
            t("f32", 0x1000, &[64, 64], &[64, 1], &[8, 64], Swizzle::B128),
            "more than the 128-byte swizzle span",
        ),
        (
            t("f16", 0x1000, &[64, 64], &[64, 1], &[8, 64], Swizzle::B32),
            "more than the 32-byte swizzle span",
        ),
        (
            t(
                "f32",
                0x1000,
                &[1, 1, 1, 1, 1, 4],
                &[4, 4, 4, 4, 4, 1],
                &[1, 1, 1, 1, 1, 4],
                Swizzle::None,
            ),
            "rank must be 1 to 5",
        ),
        (
            t("f32", 0x1000, &[64, 0], &[64, 1], &[8, 8], Swizzle::None),
            "not positive",
        ),
        (
            t("f32", 0x1000, &[64, 64], &[64, 1], &[8], Swizzle::None),
            "one entry a dim",
        ),
    ];
    for (msg, want) in cases {
        assert!(msg.starts_with("tensor map: "), "{msg}");
        assert!(msg.contains(want), "{msg:?} should contain {want:?}");
    }
    // The largest legal inner box of each swizzle passes.
    for (sw, cols) in [(Swizzle::B32, 16), (Swizzle::B64, 32), (Swizzle::B128, 64)] {
        TensorMapDesc::tiled(DType::F16, 0x1000, &[64, 256], &[256, 1], &[64, cols], sw).unwrap();
    }
}

#[test]
fn params_are_packed_at_their_alignment() {
    let mut map = [0u8; 128];
    for (i, b) in map.iter_mut().enumerate() {
        *b = i as u8;
    }
    let params = [
        Param::U32(7),
        Param::Ptr(0x1122_3344_5566_7788),
        Param::TensorMap(TensorMap(map)),
        Param::F32(1.5),
        Param::I64(-2),
        Param::TensorMap(TensorMap([0xee; 128])),
    ];
    let mut p = pack_params(&params);
    assert_eq!(p.offsets(), &[0, 8, 64, 192, 200, 256]);
    assert_eq!(p.sizes(), &[4, 8, 128, 4, 8, 128]);
    assert_eq!(p.param(0), &7u32.to_le_bytes());
    assert_eq!(p.param(1), &0x1122_3344_5566_7788u64.to_le_bytes());
    assert_eq!(p.param(2), &map[..]);
    assert_eq!(p.param(3), &1.5f32.to_le_bytes());
    assert_eq!(p.param(4), &(-2i64).to_le_bytes());
    assert_eq!(p.param(5), &[0xee; 128][..]);
    assert!(p.bytes().len() >= 384);
    let ptrs = p.pointers();
    assert_eq!(ptrs.len(), 6);
    assert_eq!(
        ptrs[2] as usize % 64,
        0,
        "tensor maps sit at 64-byte aligned addresses"
    );
    assert_eq!(ptrs[5] as usize % 64, 0);
    assert_eq!(ptrs[1] as usize % 8, 0);
    assert_eq!(ptrs[4] as usize - ptrs[0] as usize, 200);
    // No parameters: still a valid (empty) pack.
    let mut e = pack_params(&[]);
    assert!(e.offsets().is_empty() && e.pointers().is_empty());
}

#[test]
fn launch_configs() {
    let l = LaunchConfig::linear(1_000_003, 256);
    assert_eq!(l.grid, Dim3::new(3907, 1, 1));
    assert_eq!(l.block, Dim3::new(256, 1, 1));
    assert_eq!(LaunchConfig::linear(0, 128).grid.x, 1);

    let lim = DeviceLimits::hopper();
    let c = LaunchConfig::for_kernel(&[8, 4], 4, Some(&[2, 1]), 100 * 1024).unwrap();
    assert_eq!(c.block, Dim3::new(128, 1, 1));
    assert_eq!(c.grid, Dim3::new(8, 4, 1));
    assert_eq!(c.cluster, Some(Dim3::new(2, 1, 1)));
    let p = c.plan(&lim, 0).unwrap();
    assert_eq!(p.threads_per_block, 128);
    assert_eq!(p.ctas, 32);
    assert_eq!(p.clusters, Some(16));
    assert_eq!(p.set_max_dynamic_smem, Some(100 * 1024));
    assert!(!p.non_portable_cluster);

    // 48 KiB exactly needs no attribute; one byte more does.
    let at = |smem| {
        LaunchConfig::for_kernel(&[1], 1, None, smem)
            .unwrap()
            .plan(&lim, 0)
            .unwrap()
    };
    assert_eq!(at(48 * 1024).set_max_dynamic_smem, None);
    assert_eq!(at(48 * 1024 + 1).set_max_dynamic_smem, Some(48 * 1024 + 1));
    assert_eq!(at(0).clusters, None);

    // A cluster of 16 is legal but not portable.
    let p16 = LaunchConfig::for_kernel(&[32], 4, Some(&[16]), 0)
        .unwrap()
        .plan(&lim, 0)
        .unwrap();
    assert!(p16.non_portable_cluster);

    let err = |c: LaunchConfig, st: u32| c.plan(&lim, st).unwrap_err().to_string();
    assert!(err(LaunchConfig::for_kernel(&[1], 33, None, 0).unwrap(), 0).contains("1056 threads"));
    assert!(err(
        LaunchConfig::for_kernel(&[7, 4], 4, Some(&[2, 1]), 0).unwrap(),
        0
    )
    .contains("not a whole number of clusters"));
    assert!(err(
        LaunchConfig::for_kernel(&[64], 4, Some(&[32]), 0).unwrap(),
        0
    )
    .contains("exceeds the most the device allows"));
    assert!(err(
        LaunchConfig::for_kernel(&[1], 4, None, 232_448).unwrap(),
        1024
    )
    .contains("exceed the 232448 bytes"));
    assert!(err(LaunchConfig::for_kernel(&[0, 1], 4, None, 0).unwrap(), 0).contains("no CTA"));
    assert!(err(
        LaunchConfig::for_kernel(&[1, 70000], 4, None, 0).unwrap(),
        0
    )
    .contains("exceeds the device's limits"));
    assert!(LaunchConfig::for_kernel(&[1], 0, None, 0).is_err());
    assert!(LaunchConfig::for_kernel(&[1, 1, 1, 1], 1, None, 0).is_err());
}

#[test]
fn error_messages() {
    let t = CudaError::Timeout {
        kernel: "matmul".into(),
        limit: Duration::from_secs(10),
    };
    assert_eq!(
        t.to_string(),
        "watchdog: kernel 'matmul' did not finish within 10.0 s; it is probably hung (a wait on an mbarrier or barrier that never completes?)"
    );
    let d = CudaError::Driver {
        call: "cuLaunchKernelEx",
        code: "CUDA_ERROR_INVALID_VALUE".into(),
        message: "invalid argument".into(),
        context: "launching kernel 'k'".into(),
    };
    assert_eq!(
        d.to_string(),
        "cuLaunchKernelEx failed with CUDA_ERROR_INVALID_VALUE (invalid argument) while launching kernel 'k'"
    );
    let s: String = d.into();
    assert!(s.starts_with("cuLaunchKernelEx"));
}

#[test]
fn ptx_must_be_ascii() {
    assert!(check_ptx_ascii(".version 8.0\n// plain\n").is_ok());
    let e = check_ptx_ascii(".version 8.0\n// spec \u{a7}5.2\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("PTX line 2 has a non-ASCII character"), "{e}");
    // The hand-written device-check PTX obeys the rule.
    for f in ["vector_add.ptx", "tma.ptx", "misc.ptx"] {
        let text = std::fs::read_to_string(gpu_dir().join(f)).unwrap();
        check_ptx_ascii(&text).unwrap();
        assert!(
            text.contains(".target sm_90a") && text.contains(".version 8."),
            "{f}"
        );
    }
}

fn gpu_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TILUS_GPU_DIR") {
        return PathBuf::from(d);
    }
    let here = PathBuf::from("bench/gpu");
    if here.is_dir() {
        return here;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/gpu"))
}

/// The device check (needs a Hopper GPU): `bench/gpu/selftest.sh`.
#[test]
#[ignore = "needs an sm_90 GPU; run by bench/gpu/selftest.sh"]
fn device_selftest() {
    let mut opts = selftest::Options::new(&gpu_dir());
    if let Some(n) = std::env::var("TILUS_GPU_BENCH_ELEMS")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        opts.bench_elems = n;
    }
    if let Err(r) = selftest::run(&opts) {
        panic!("{} device checks failed", r.failed);
    }
}

/// The watchdog on the device: a child process launches a kernel that does not finish; it
/// must report the kernel by name and exit with status 3 well before the kernel would end
/// (20 s).
#[test]
#[ignore = "needs an sm_90 GPU; run by bench/gpu/selftest.sh"]
fn device_watchdog() {
    let t = Instant::now();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "device_watchdog_child",
            "--nocapture",
        ])
        .env("TILUS_WATCHDOG_CHILD", "1")
        .output()
        .unwrap();
    let secs = t.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!(
        "watchdog child: exit status {:?} after {secs:.2} s; stderr: {}",
        out.status.code(),
        stderr.trim()
    );
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("watchdog: kernel 'spin_wait' did not finish within 1.0 s"),
        "{stderr}"
    );
    assert!(secs < 15.0, "the child took {secs} s to exit");
}

#[test]
#[ignore = "the child process of device_watchdog"]
fn device_watchdog_child() {
    if std::env::var_os("TILUS_WATCHDOG_CHILD").is_some() {
        selftest::watchdog_child(&gpu_dir(), Duration::from_secs(1));
    }
}
