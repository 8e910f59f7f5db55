//! The interpreter on the kernels issue 19 names: the warp-specialized matmul, softmax and
//! RMSNorm, each at a size that runs in tens of milliseconds so a sample set stays short
//! (`cargo bench -p tilus-run --bench interp`). Parsing, argument binding and random inputs
//! happen once, outside the timed loop; each iteration runs the whole grid on a fresh copy of
//! the inputs, as `tilus-run` does. `bench/interp_speed.sh` times the full sizes.

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;
use tilus_ir::source::SourceFile;
use tilus_ir::Context;
use tilus_run::args;
use tilus_run::interp::{self, Options};

/// (example file, kernel, `--arg` overrides) of each benchmark.
const CASES: &[(&str, &str, &[&str])] = &[
    (
        "hopper_matmul_v3_warp_specialized.mlir",
        "hopper_matmul_ws",
        &["m=256", "n=256", "k=256", "num_tiles=2"],
    ),
    ("softmax.mlir", "softmax", &["m=256", "n=1024"]),
    ("rmsnorm.mlir", "rmsnorm", &["m=256", "n=1024"]),
];

fn bench(c: &mut Criterion) {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    for (file, name, overrides) in CASES {
        let path = examples.join(file);
        let text = std::fs::read_to_string(&path).expect("read the example");
        let src = SourceFile::new(path.display().to_string(), text);
        let mut ctx = Context::new();
        tilus_dialects::register_all(&mut ctx);
        let module = match tilus_ir::parse(&mut ctx, &src.text, &src.name) {
            Ok(pf) => pf.module,
            Err(_) => panic!("{file} does not parse"),
        };
        let kernel = args::kernels(&ctx, module)
            .into_iter()
            .find(|(n, _)| n == name)
            .expect("the kernel")
            .1;
        let params = args::params(&ctx, kernel, &src);
        let defaults = args::kernel_defaults(&ctx, kernel, &params, &examples).expect("defaults");
        let cli: Vec<args::Assignment> = overrides
            .iter()
            .map(|s| args::parse_assignment(s).expect("name=value"))
            .collect();
        let argv = args::bind_scalars(kernel, &params, &cli, &defaults).expect("arguments");
        let buffers =
            args::plan_buffers(&ctx, kernel, &params, &argv, &[], &defaults).expect("buffers");
        let (mem, _) = args::init_memory(kernel, &params, &buffers, 0).expect("inputs");
        let opts = Options::default();
        c.bench_function(&format!("interp {name} {}", overrides.join(" ")), |b| {
            b.iter(|| {
                let mut m = mem.clone();
                interp::run(&ctx, kernel, &argv, &mut m, &opts).expect("the run succeeds")
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
