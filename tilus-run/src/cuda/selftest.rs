//! The device check of the CUDA backend: runs the hand-written PTX of `bench/gpu/` on random
//! data, compares with the CPU, exercises tensor maps, clusters, dynamic shared memory above
//! 48 KiB and the error paths, and times a vector add beside a device-to-device copy.
//!
//! [`run`] prints one line a check and a summary, and returns whether all passed.
//! [`watchdog_child`] launches a kernel that never finishes, for a parent process to check that
//! the watchdog reports it by name and exits non-zero (see `tests/cuda.rs`).

use super::{
    CudaBackend, CudaError, Dim3, LaunchConfig, Param, SplitMix64, Swizzle, TensorMapDesc,
};
use crate::memory::GlobalBuffer;
use crate::tensor::DType;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What the device check does.
#[derive(Clone, Debug)]
pub struct Options {
    /// The folder with `vector_add.ptx`, `tma.ptx` and `misc.ptx` (`bench/gpu`).
    pub dir: PathBuf,
    /// f32 elements of each vector of the timed vector add (a multiple of 4).
    pub bench_elems: usize,
    pub warmup: usize,
    pub reps: usize,
    pub seed: u64,
}

impl Options {
    pub fn new(dir: &Path) -> Options {
        Options {
            dir: dir.to_path_buf(),
            bench_elems: 1 << 28,
            warmup: 5,
            reps: 30,
            seed: 0x7115,
        }
    }
}

/// The figures of one run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub passed: usize,
    pub failed: usize,
    pub device: String,
    /// (median ms, GB/s) of the vector add, counting 3 × 4 bytes an element.
    pub vadd: Option<(f64, f64)>,
    /// (median ms, GB/s) of the device-to-device copy of one vector, counting read + write.
    pub copy: Option<(f64, f64)>,
}

struct Checker {
    report: Report,
}

impl Checker {
    fn check(&mut self, name: &str, r: Result<String, String>) {
        match r {
            Ok(detail) => {
                self.report.passed += 1;
                println!("ok    {name:<28} {detail}");
            }
            Err(why) => {
                self.report.failed += 1;
                println!("FAIL  {name:<28} {why}");
            }
        }
    }
}

fn read_ptx(dir: &Path, file: &str) -> Result<String, String> {
    let p = dir.join(file);
    std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))
}

fn random_f32_bytes(rng: &mut SplitMix64, n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n * 4);
    for _ in 0..n {
        v.extend_from_slice(&rng.next_f32().to_le_bytes());
    }
    v
}

fn random_bytes(rng: &mut SplitMix64, n: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(n + 8);
    while v.len() < n {
        v.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    v.truncate(n);
    v
}

fn f32s(b: &[u8]) -> impl Iterator<Item = f32> + '_ {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// `c = a + b` on the CPU, compared bit for bit with the device's `c` (f32 addition rounds the
/// same everywhere).
fn compare_add(a: &[u8], b: &[u8], c: &[u8]) -> Result<(), String> {
    for (i, ((x, y), z)) in f32s(a).zip(f32s(b)).zip(f32s(c)).enumerate() {
        let want = x + y;
        if want.to_bits() != z.to_bits() {
            return Err(format!(
                "element {i}: {x} + {y} should be {want}, the device gave {z}"
            ));
        }
    }
    Ok(())
}

/// Runs every check, printing as it goes; `Ok` iff all passed (the report either way).
pub fn run(opts: &Options) -> Result<Report, Report> {
    let mut ck = Checker {
        report: Report::default(),
    };
    let mut be = match CudaBackend::open() {
        Ok(b) => b,
        Err(e) => {
            ck.check("open", Err(e.to_string()));
            return Err(ck.report);
        }
    };
    ck.report.device = be.info().to_string();
    ck.check("open", Ok(be.info().to_string()));
    be.set_timeout(Duration::from_secs(10));
    let mut rng = SplitMix64(opts.seed);

    // Error paths: a clear message, no panic.
    ck.check(
        "error: bad PTX",
        match be.load_ptx(
            ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k() { bogus; }\n",
            "k",
        ) {
            Ok(_) => Err("the driver accepted invalid PTX".into()),
            Err(
                e @ CudaError::Driver {
                    call: "cuModuleLoadDataEx",
                    ..
                },
            ) => Ok(e
                .to_string()
                .lines()
                .take(2)
                .collect::<Vec<_>>()
                .join(" | ")),
            Err(e) => Err(format!("unexpected error: {e}")),
        },
    );
    let vadd_src = read_ptx(&opts.dir, "vector_add.ptx");
    let tma_src = read_ptx(&opts.dir, "tma.ptx");
    let misc_src = read_ptx(&opts.dir, "misc.ptx");
    ck.check(
        "error: missing entry",
        match vadd_src
            .as_deref()
            .map(|s| be.load_ptx(s, "no_such_kernel"))
        {
            Err(e) => Err(e.clone()),
            Ok(Ok(_)) => Err("found a kernel that does not exist".into()),
            Ok(Err(e)) if e.to_string().contains("no_such_kernel") => Ok(e.to_string()),
            Ok(Err(e)) => Err(format!("the message does not name the kernel: {e}")),
        },
    );

    // Vector add, one element a thread, an odd size; buffers through the interpreter's type.
    ck.check(
        "vadd_f32 (n = 1000003)",
        (|| -> Result<String, String> {
            let src = vadd_src.clone()?;
            let k = be.load_ptx(&src, "vadd_f32")?;
            let n = 1_000_003usize;
            let a = GlobalBuffer {
                name: "a".into(),
                dtype: DType::F32,
                bytes: random_f32_bytes(&mut rng, n),
            };
            let b = GlobalBuffer {
                name: "b".into(),
                dtype: DType::F32,
                bytes: random_f32_bytes(&mut rng, n),
            };
            let mut c = GlobalBuffer {
                name: "c".into(),
                dtype: DType::F32,
                bytes: vec![0; n * 4],
            };
            let (da, db) = (be.upload_buffer(&a)?, be.upload_buffer(&b)?);
            let dc = be.alloc(n * 4)?;
            be.fill(&dc, 0xff)?;
            let params = [da.param(), db.param(), dc.param(), Param::U32(n as u32)];
            be.run(&k, &LaunchConfig::linear(n as u64, 256), &params)?;
            be.download_into(&dc, &mut c)?;
            compare_add(&a.bytes, &b.bytes, &c.bytes)?;
            // The parameter check: one missing, one of the wrong size.
            let e1 = be
                .launch(&k, &LaunchConfig::linear(n as u64, 256), &params[..3])
                .err();
            let e2 = be
                .launch(
                    &k,
                    &LaunchConfig::linear(n as u64, 256),
                    &[da.param(), db.param(), dc.param(), Param::U64(n as u64)],
                )
                .err();
            match (e1, e2) {
                (Some(CudaError::Invalid(m1)), Some(CudaError::Invalid(m2))) => Ok(format!(
                    "{} regs; bit-exact; wrong parameters refused: \"{m1}\" / \"{m2}\"",
                    k.num_regs
                )),
                (a, b) => Err(format!("wrong parameters were not refused: {a:?} / {b:?}")),
            }
        })(),
    );

    // The timed vector add and the copy bandwidth.
    let (mut vadd_fig, mut copy_fig) = (None, None);
    ck.check(&format!("vadd_f32x4 (n = {})", opts.bench_elems), (|| -> Result<String, String> {
        let src = vadd_src.clone()?;
        let k = be.load_ptx(&src, "vadd_f32x4")?;
        let n = opts.bench_elems / 4 * 4;
        let t0 = Instant::now();
        let a = random_f32_bytes(&mut rng, n);
        let b = random_f32_bytes(&mut rng, n);
        let gen_s = t0.elapsed().as_secs_f64();
        let (da, db) = (be.upload(&a)?, be.upload(&b)?);
        let dc = be.alloc(n * 4)?;
        be.fill(&dc, 0xff)?;
        let cfg = LaunchConfig::linear((n / 4) as u64, 256);
        let params = [da.param(), db.param(), dc.param(), Param::U32((n / 4) as u32)];
        be.run(&k, &cfg, &params)?;
        let c = be.download(&dc)?;
        compare_add(&a, &b, &c)?;
        let bytes = 3 * 4 * n as u64;
        let s = be.bench(&k, &cfg, &params, opts.warmup, opts.reps)?;
        let gbs = s.gb_per_s(bytes);
        let copy = be.bench_copy(&dc, &da, n * 4, opts.warmup, opts.reps)?;
        let copy_gbs = copy.gb_per_s(2 * 4 * n as u64);
        vadd_fig = Some((s.median_ms, gbs));
        copy_fig = Some((copy.median_ms, copy_gbs));
        Ok(format!(
            "bit-exact ({gen_s:.1} s to make the data); {bytes} B in {:.4} ms median (min {:.4}, max {:.4}, {} reps) = {gbs:.0} GB/s; copy of {} B: {:.4} ms = {copy_gbs:.0} GB/s (read + write); ratio {:.1} %",
            s.median_ms, s.min_ms, s.max_ms, s.reps, n * 4, copy.median_ms, 100.0 * gbs / copy_gbs
        ))
    })());
    ck.report.vadd = vadd_fig;
    ck.report.copy = copy_fig;

    // TMA load into static shared memory, 300 x 200 f32, boxes of 64 x 32, no swizzle: the
    // partial boxes at the edges must show the zero fill.
    ck.check(
        "tma_load_2d f32 (edges)",
        (|| -> Result<String, String> {
            let src = tma_src.clone()?;
            let k = be.load_ptx(&src, "tma_load_2d")?;
            let (rows, cols, br, bc) = (300usize, 200usize, 64usize, 32usize);
            let (gy, gx) = (rows.div_ceil(br), cols.div_ceil(bc));
            let (prow, pcol) = (gy * br, gx * bc);
            let input = random_f32_bytes(&mut rng, rows * cols);
            let din = be.upload(&input)?;
            let dout = be.alloc(prow * pcol * 4)?;
            be.fill(&dout, 0xff)?;
            let desc = TensorMapDesc::tiled(
                DType::F32,
                din.ptr(),
                &[rows as i64, cols as i64],
                &[cols as i64, 1],
                &[br as i64, bc as i64],
                Swizzle::None,
            )?;
            let map = be.tensor_map(&desc)?;
            let cfg = LaunchConfig {
                grid: Dim3::new(gx as u32, gy as u32, 1),
                block: Dim3::new(128, 1, 1),
                dynamic_smem: 0,
                cluster: None,
            };
            be.run(
                &k,
                &cfg,
                &[Param::TensorMap(map), dout.param(), Param::U32(pcol as u32)],
            )?;
            let out = be.download(&dout)?;
            let got: Vec<f32> = f32s(&out).collect();
            let inp: Vec<f32> = f32s(&input).collect();
            for r in 0..prow {
                for c in 0..pcol {
                    let want = if r < rows && c < cols {
                        inp[r * cols + c]
                    } else {
                        0.0
                    };
                    let g = got[r * pcol + c];
                    if g.to_bits() != want.to_bits() {
                        return Err(format!("element ({r}, {c}): want {want}, got {g}"));
                    }
                }
            }
            Ok(format!(
                "{gx}x{gy} boxes, {} static smem B, zero fill outside",
                k.static_smem
            ))
        })(),
    );

    // TMA load + store round trips through dynamic shared memory (72 KiB requested, so the
    // limit is raised), with each swizzle mode and three dtypes.
    let cases: [(&str, DType, usize, usize, Swizzle); 4] = [
        ("f32 swizzle 128B", DType::F32, 64, 32, Swizzle::B128),
        ("f16 swizzle 64B", DType::F16, 64, 32, Swizzle::B64),
        ("bf16 swizzle 32B", DType::BF16, 64, 16, Swizzle::B32),
        (
            "i8 no swizzle",
            DType::parse("i8").expect("i8 is a dtype"),
            32,
            64,
            Swizzle::None,
        ),
    ];
    for (label, dtype, br, bc, swizzle) in cases {
        ck.check(
            &format!("tma_copy_2d {label}"),
            (|| -> Result<String, String> {
                let src = tma_src.clone()?;
                let k = be.load_ptx(&src, "tma_copy_2d")?;
                let (rows, cols) = (300usize, 208usize);
                let es = crate::tensor::storage_bytes(dtype);
                let input = random_bytes(&mut rng, rows * cols * es);
                let din = be.upload(&input)?;
                let dout = be.alloc(input.len())?;
                be.fill(&dout, 0xab)?;
                let shape = [rows as i64, cols as i64];
                let strides = [cols as i64, 1];
                let bx = [br as i64, bc as i64];
                let mi = be.tensor_map(&TensorMapDesc::tiled(
                    dtype,
                    din.ptr(),
                    &shape,
                    &strides,
                    &bx,
                    swizzle,
                )?)?;
                let mo_desc =
                    TensorMapDesc::tiled(dtype, dout.ptr(), &shape, &strides, &bx, swizzle)?;
                let mo = be.tensor_map(&mo_desc)?;
                let box_bytes = mo_desc.box_bytes() as u32;
                let cfg = LaunchConfig {
                    grid: Dim3::new(cols.div_ceil(bc) as u32, rows.div_ceil(br) as u32, 1),
                    block: Dim3::new(128, 1, 1),
                    dynamic_smem: 72 * 1024,
                    cluster: None,
                };
                be.run(
                    &k,
                    &cfg,
                    &[
                        Param::TensorMap(mi),
                        Param::TensorMap(mo),
                        Param::U32(bc as u32),
                        Param::U32(br as u32),
                        Param::U32(box_bytes),
                    ],
                )?;
                let out = be.download(&dout)?;
                if let Some(i) = (0..out.len()).find(|&i| out[i] != input[i]) {
                    return Err(format!(
                        "byte {i} (element {}): want {:#04x}, got {:#04x}",
                        i / es,
                        input[i],
                        out[i]
                    ));
                }
                Ok(format!(
                    "grid {}, {box_bytes} B boxes, 72 KiB dynamic smem: bytes equal",
                    cfg.grid
                ))
            })(),
        );
    }

    // Clusters: every CTA must see its cluster's size and its rank in it.
    for (grid, cluster) in [
        (Dim3::new(8, 2, 1), Some(Dim3::new(4, 1, 1))),
        (Dim3::new(4, 4, 1), Some(Dim3::new(2, 2, 1))),
        (Dim3::new(4, 1, 1), None),
    ] {
        let label = match cluster {
            Some(c) => format!("cluster_probe {c}"),
            None => "cluster_probe (no cluster)".to_string(),
        };
        ck.check(&label, (|| -> Result<String, String> {
            let src = misc_src.clone()?;
            let k = be.load_ptx(&src, "cluster_probe")?;
            let ctas = grid.count() as usize;
            let out = be.alloc(ctas * 8)?;
            be.fill(&out, 0xff)?;
            let cfg = LaunchConfig { grid, block: Dim3::new(32, 1, 1), dynamic_smem: 0, cluster };
            be.run(&k, &cfg, &[out.param()])?;
            let v = be.download(&out)?;
            let c = cluster.unwrap_or(Dim3::new(1, 1, 1));
            for b in 0..ctas {
                let (x, y) = ((b as u32) % grid.x, (b as u32) / grid.x);
                let want_n = c.count() as u32;
                let want_rank = (x % c.x) + (y % c.y) * c.x;
                let n = u32::from_le_bytes(v[b * 8..b * 8 + 4].try_into().unwrap());
                let rank = u32::from_le_bytes(v[b * 8 + 4..b * 8 + 8].try_into().unwrap());
                if n != want_n || rank != want_rank {
                    return Err(format!("CTA ({x}, {y}): cluster of {n} with rank {rank}, want {want_n} and {want_rank}"));
                }
            }
            Ok(format!("grid {grid}: every CTA saw its cluster size and rank"))
        })());
    }

    // Launch checks that need no kernel run.
    ck.check(
        "launch: shared memory limit",
        (|| -> Result<String, String> {
            let src = misc_src.clone()?;
            let k = be.load_ptx(&src, "spin_wait")?;
            let cfg = LaunchConfig {
                grid: Dim3::new(1, 1, 1),
                block: Dim3::new(32, 1, 1),
                dynamic_smem: 300 * 1024,
                cluster: None,
            };
            match be.launch(&k, &cfg, &[Param::Ptr(0)]) {
                Err(CudaError::Invalid(m)) => Ok(m),
                other => Err(format!("not refused: {other:?}")),
            }
        })(),
    );

    // The watchdog lets a kernel that finishes go.
    ck.check(
        "watchdog: finishing kernel",
        (|| -> Result<String, String> {
            let src = misc_src.clone()?;
            let k = be.load_ptx(&src, "spin_wait")?;
            let flag = be.upload(&1u32.to_le_bytes())?;
            let t = Instant::now();
            be.set_timeout(Duration::from_secs(2));
            be.run(&k, &LaunchConfig::linear(128, 128), &[flag.param()])?;
            be.set_timeout(Duration::from_secs(10));
            Ok(format!(
                "spin_wait with the flag set finished in {:.1} ms",
                t.elapsed().as_secs_f64() * 1e3
            ))
        })(),
    );

    println!(
        "== cuda selftest: {} passed, {} failed ==",
        ck.report.passed, ck.report.failed
    );
    if let (Some(v), Some(c)) = (ck.report.vadd, ck.report.copy) {
        println!(
            "vadd_f32x4 {:.0} GB/s ({:.4} ms), device copy {:.0} GB/s ({:.4} ms), vadd/copy {:.1} %",
            v.1,
            v.0,
            c.1,
            c.0,
            100.0 * v.1 / c.1
        );
    }
    if ck.report.failed == 0 {
        Ok(ck.report)
    } else {
        Err(ck.report)
    }
}

/// Launches `spin_wait` with its flag clear (a kernel that does not finish for 20 s) under a
/// watchdog of `limit`; on the expected timeout prints the error to stderr and exits with
/// status 3, the way `tilus-run` should. Exits 0 if the kernel finished (the watchdog failed)
/// and 2 on any other error.
pub fn watchdog_child(dir: &Path, limit: Duration) -> ! {
    let r = (|| -> Result<(), CudaError> {
        let mut be = CudaBackend::open()?;
        be.set_timeout(limit);
        let src = read_ptx(dir, "misc.ptx").map_err(CudaError::Invalid)?;
        let k = be.load_ptx(&src, "spin_wait")?;
        let flag = be.upload(&0u32.to_le_bytes())?;
        be.run(&k, &LaunchConfig::linear(128, 128), &[flag.param()])
    })();
    match r {
        Ok(()) => {
            println!("spin_wait finished: the watchdog did not fire");
            std::process::exit(0)
        }
        Err(e @ CudaError::Timeout { .. }) => {
            eprintln!("tilus-run: error: {e}");
            std::process::exit(3)
        }
        Err(e) => {
            eprintln!("tilus-run: error: {e}");
            std::process::exit(2)
        }
    }
}
