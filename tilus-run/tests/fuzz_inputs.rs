//! Seeded random-input harness (issue 20): what cargo-fuzz would do for `tilus-run` and the
//! verifier, bounded in time so that it runs with the other tests (each target stops after its
//! budget; together well under 30 s on a quiet core). Failures print the seed and the input.
//!
//! * `verifier_survives_mutated_kernels`: every example and dialect test, with integers swapped
//!   for extreme values (0, -1, 2^31, 2^63 - 1, 2^64, a 40-digit number...), lines dropped or
//!   repeated and bytes changed, parsed, verified and rendered: no panic.
//! * `verifier_survives_deep_and_huge_inputs`: nests at the nesting limit and past it, a
//!   kernel of 20,000 ops, an array attribute of 200,000 elements, huge integers in every
//!   size-bearing position.
//! * `npy_reader_survives_mutated_files`: valid `.npy` files of every dtype with their header
//!   (shape, descr, order) and data mutated and truncated.
//! * `arg_binding_survives_random_values`: `--arg NAME=VALUE` for every scalar type with
//!   random and extreme text.
//! * `interpreter_survives_random_arguments`: the kernels of `examples/` and `test/run/` run
//!   by the `tilus-run` binary with random integer arguments and a step bound: exit 0, 1 or 2
//!   (never a panic, an abort or a signal), within the time limit.
//!
//! `TILUS_FUZZ_SECONDS` scales every budget (default 1: about 4 s per target); `TILUS_FUZZ_SEED`
//! picks another seed. docs/fuzzing.md records longer runs.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tilus_ir::source::{render, render_mlir_style, SourceFile};
use tilus_ir::types::Signedness;
use tilus_ir::Context;
use tilus_run::args;
use tilus_run::tensor::DType;

/// xorshift64*: small, seeded, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

fn seed() -> u64 {
    std::env::var("TILUS_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_2026_1126)
}

fn budget(base_secs: f64) -> Duration {
    let scale: f64 = std::env::var("TILUS_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    Duration::from_secs_f64(base_secs * scale)
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn mlir_files(dirs: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(root().join(d)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = rd.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "mlir") {
                out.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
    }
    out
}

/// Extreme integers for size-bearing positions.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1",
    "31",
    "32",
    "33",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551616",
    "288230376151711744",
    "1152921504606846976",
    "1234567890123456789012345678901234567890",
];

/// Parses, verifies and renders every diagnostic (both formats); panics propagate.
fn parse_verify_render(src: &str) -> usize {
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    ctx.allow_unregistered = true;
    let file = SourceFile::new("fuzz.mlir", src);
    match tilus_ir::parse(&mut ctx, src, "fuzz.mlir") {
        Ok(pf) => {
            let diags = tilus_ir::verify(&ctx, pf.module);
            for d in &diags {
                let _ = render(Some(&ctx), Some(&pf.source_map), &file, d);
                let _ = render_mlir_style(Some(&ctx), Some(&pf.source_map), &file, d);
            }
            diags.len()
        }
        Err((diags, map)) => {
            assert!(!diags.is_empty(), "parse failed without a diagnostic");
            for d in &diags {
                let _ = render(Some(&ctx), Some(&map), &file, d);
                let _ = render_mlir_style(Some(&ctx), Some(&map), &file, d);
            }
            diags.len()
        }
    }
}

/// One mutation of `src`: an integer literal replaced by an extreme value, a line dropped or
/// repeated, or a byte replaced by a syntax character.
fn mutate(rng: &mut Rng, src: &str) -> String {
    let b = src.as_bytes();
    if b.is_empty() {
        return String::new();
    }
    match rng.below(4) {
        0 | 1 => {
            // The start of every decimal literal not inside an identifier.
            let starts: Vec<usize> = (0..b.len())
                .filter(|&i| {
                    b[i].is_ascii_digit()
                        && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
                })
                .collect();
            if starts.is_empty() {
                return src.to_string();
            }
            let s = *rng.pick(&starts);
            let mut e = s;
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
            format!("{}{}{}", &src[..s], rng.pick(EXTREMES), &src[e..])
        }
        2 => {
            let lines: Vec<&str> = src.lines().collect();
            let i = rng.below(lines.len());
            let mut out: Vec<&str> = lines.clone();
            if rng.below(2) == 0 {
                out.remove(i);
            } else {
                out.insert(i, lines[i]);
            }
            out.join("\n")
        }
        _ => {
            let mut v = b.to_vec();
            let i = rng.below(v.len());
            v[i] = *rng.pick(b"{}[]()<>,:=%^@#\"x0-");
            String::from_utf8_lossy(&v).into_owned()
        }
    }
}

fn run_guarded(what: &str, seed: u64, input: &str, f: impl FnOnce()) {
    if let Err(e) = catch_unwind(AssertUnwindSafe(f)) {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        panic!("{what} panicked (seed {seed:#x}): {msg}\n--- input ---\n{input}");
    }
}

#[test]
fn verifier_survives_mutated_kernels() {
    let corpus = mlir_files(&["examples", "test/Dialect", "test/run"]);
    assert!(corpus.len() > 20, "corpus not found");
    let seed = seed();
    let mut rng = Rng(seed | 1);
    let start = Instant::now();
    let (mut tried, mut rejected) = (0u64, 0u64);
    while start.elapsed() < budget(4.0) {
        let (_, text) = rng.pick(&corpus);
        // Split files are tried one piece at a time, as tilus-opt --split-input-file does.
        let pieces: Vec<&str> = text.split("\n// -----").collect();
        let mut src = rng.pick(&pieces).to_string();
        for _ in 0..=rng.below(3) {
            src = mutate(&mut rng, &src);
        }
        let mut n = 0;
        run_guarded("parse/verify/render", seed, &src, || {
            n = parse_verify_render(&src)
        });
        tried += 1;
        rejected += (n > 0) as u64;
    }
    eprintln!(
        "verifier: {tried} mutated inputs in {:?}, {rejected} rejected with diagnostics, 0 panics",
        start.elapsed()
    );
    assert!(tried > 50, "only {tried} inputs in the budget");
}

#[test]
fn verifier_survives_deep_and_huge_inputs() {
    let kernel = |body: &str| {
        format!("tilus.kernel @k() warps(4) blocks(affine_map<() -> (1)>) {{\n{body}\n}}\n")
    };
    let mut inputs: Vec<(String, String)> = Vec::new();
    // Nests of groups at and past the nesting limit (10,000 brackets).
    // Groups: the verifier walks each group's parents, so a nest of d groups costs d^2 parent
    // visits (10,000 take about 20 s; docs/fuzzing.md). 2,000 is what this budget allows.
    for depth in [100usize, 2_000, 10_001] {
        let open = "threadgroup.group threads(0, 32) {\n".repeat(depth);
        let close = "}\n".repeat(depth);
        inputs.push((
            format!("{depth} nested groups"),
            kernel(&format!("{open}{close}")),
        ));
    }
    // Regions without groups, near the limit.
    let open = "scf.execute_region {\n".repeat(4_990);
    let close = "scf.yield\n}\n".repeat(4_990);
    inputs.push((
        "4990 nested execute_region".into(),
        format!("func.func @f() {{\n{open}{close}return\n}}\n"),
    ));
    // Deep scf.if nests in a function.
    let open = "scf.if %c {\n".repeat(3_000);
    let close = "}\n".repeat(3_000);
    inputs.push((
        "3000 nested scf.if".into(),
        format!("func.func @f(%c: i1) {{\n{open}{close}return\n}}\n"),
    ));
    // Many ops, a huge attribute, huge integers everywhere a size is written.
    inputs.push((
        "20000 ops".into(),
        kernel(&"%r = tilus.register_tensor : !tilus.reg<32xf32>\n".repeat(20_000)),
    ));
    let big: Vec<String> = (0..200_000).map(|i| i.to_string()).collect();
    inputs.push((
        "array of 200000".into(),
        format!(
            "module attributes {{test.a = array<i64: {}>}} {{}}\n",
            big.join(", ")
        ),
    ));
    for x in EXTREMES {
        for t in [
            format!("tilus.kernel @k() warps({x}) blocks(affine_map<() -> (1)>) {{\n}}\n"),
            format!("tilus.kernel @k() warps(1) blocks(affine_map<() -> ({x})>) cluster({x}) {{\n}}\n"),
            kernel(&format!("threadgroup.group threads({x}, {x}) {{\n}}")),
            kernel(&format!("threadgroup.single_warp warp({x}) {{\n}}")),
            kernel(&format!("threadgroup.warp_group warps({x}, {x}) {{\n}}")),
            kernel(&format!("threadgroup.single_thread thread({x}) {{\n}}")),
            kernel(&format!("%s = tilus.shared_tensor : !tilus.shared<{x}x{x}xf16>")),
            kernel(&format!("%s = tilus.shared_tensor : !tilus.shared<64x64xf16, strides = [{x}, 1]>")),
            kernel(&format!("%r = tilus.register_tensor : !tilus.reg<{x}x{x}xf32>")),
            kernel(&format!("%t = tcgen05.alloc : !tilus.tmem<128x{x}xf32>\ntcgen05.dealloc %t : !tilus.tmem<128x{x}xf32>")),
            kernel(&format!("%b = mbarrier.alloc counts [{x}] : !mbarrier.barriers<1>")),
            kernel(&format!("%b = mbarrier.alloc : !mbarrier.barriers<{x}>")),
            format!("func.func @f() -> tensor<2xi8> {{\n%0 = arith.constant dense<{x}> : tensor<2xi8>\nreturn %0 : tensor<2xi8>\n}}\n"),
            format!("func.func @f(%a: i32) -> i1 {{\n%0 = \"arith.cmpi\"(%a, %a) <{{predicate = {x} : i64}}> : (i32, i32) -> i1\nreturn %0 : i1\n}}\n"),
            format!("func.func @f() -> vector<{x}xi32> {{\n%0 = arith.constant dense<1> : vector<{x}xi32>\nreturn %0 : vector<{x}xi32>\n}}\n"),
        ] {
            inputs.push((format!("extreme {x}"), t));
        }
    }
    let seed = seed();
    let start = Instant::now();
    let mut slowest = (Duration::ZERO, String::new());
    for (what, src) in &inputs {
        let src = src.clone();
        let what = what.clone();
        let t0 = Instant::now();
        let label = what.clone();
        // The tools run on a big stack (tilus_ir::cli::on_big_stack); so does this.
        tilus_ir::cli::on_big_stack(move || {
            let shown = if src.len() > 400 {
                &src[..400]
            } else {
                &src[..]
            };
            run_guarded(&what, seed, shown, || {
                parse_verify_render(&src);
            })
        });
        if t0.elapsed() > slowest.0 {
            slowest = (t0.elapsed(), label);
        }
    }
    eprintln!("deep and huge: slowest {} ({:?})", slowest.1, slowest.0);
    eprintln!(
        "deep and huge: {} inputs in {:?}, 0 panics",
        inputs.len(),
        start.elapsed()
    );
}

fn int(bits: u32, signedness: Signedness) -> DType {
    DType::Int { bits, signedness }
}

fn dtypes() -> Vec<DType> {
    let s = Signedness::Signless;
    vec![
        DType::F16,
        DType::F32,
        DType::F64,
        DType::BF16,
        DType::F8E4M3,
        int(1, s),
        int(8, s),
        int(32, s),
        int(64, s),
        int(8, Signedness::Unsigned),
        int(16, Signedness::Signed),
    ]
}

#[test]
fn npy_reader_survives_mutated_files() {
    let dir = std::env::temp_dir().join(format!("tilus-fuzz-npy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seed = seed();
    let mut rng = Rng(seed.rotate_left(17) | 1);
    let start = Instant::now();
    let (mut tried, mut read) = (0u64, 0u64);
    let path = dir.join("x.npy");
    let dtypes = dtypes();
    while start.elapsed() < budget(3.0) {
        let dt = *rng.pick(&dtypes);
        let shape: Vec<i64> = (0..=rng.below(3)).map(|_| rng.below(5) as i64).collect();
        let n: i64 = shape.iter().product();
        let data: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let mut bytes = args::npy_bytes(dt, &shape, &data).unwrap();
        // Mutate the header's text (shape, descr, order) or the bytes.
        let header_end = bytes
            .iter()
            .position(|&c| c == b'\n')
            .unwrap_or(bytes.len());
        match rng.below(5) {
            0 => {
                let h = String::from_utf8_lossy(&bytes[10..header_end]).into_owned();
                let s = h.find("'shape': (").map(|i| i + 10).unwrap_or(0);
                let e = h[s..].find(')').map(|i| s + i).unwrap_or(s);
                let dims = format!(
                    "{}, {}",
                    rng.pick(EXTREMES).trim_start_matches('-'),
                    rng.pick(EXTREMES).trim_start_matches('-')
                );
                let nh = format!("{}{}{}", &h[..s], dims, &h[e..]);
                let mut v = bytes[..8].to_vec();
                v.extend_from_slice(&(nh.len() as u16 + 1).to_le_bytes());
                v.extend_from_slice(nh.as_bytes());
                v.push(b'\n');
                v.extend_from_slice(&bytes[header_end + 1..]);
                bytes = v;
            }
            1 => {
                let h = String::from_utf8_lossy(&bytes).into_owned();
                let d = rng.pick(&[
                    "<c8", "|O", "<U3", "<f16", "<i16", ">f4", "|V8", "<m8", "zz",
                ]);
                let re = [
                    "<f2", "<f4", "<f8", "<i1", "<i4", "<i8", "|u1", "|b1", "|i1",
                ]
                .iter()
                .fold(h, |acc, from| acc.replace(from, d));
                bytes = re.into_bytes();
            }
            2 => {
                let cut = rng.below(bytes.len());
                bytes.truncate(cut);
            }
            3 => {
                let i = rng.below(bytes.len());
                bytes[i] = rng.next() as u8;
            }
            _ => {
                let h = String::from_utf8_lossy(&bytes).into_owned();
                bytes = h.replace("False", "True").into_bytes();
            }
        }
        std::fs::write(&path, &bytes).unwrap();
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
        run_guarded("read_npy", seed, &shown, || {
            read += args::read_npy(&path).is_ok() as u64;
        });
        tried += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "npy: {tried} files in {:?}, {read} read, the rest rejected, 0 panics",
        start.elapsed()
    );
    assert!(tried > 50);
}

#[test]
fn arg_binding_survives_random_values() {
    let src = "tilus.kernel @k(%a: i1, %b: i8, %c: i32, %d: i64, %e: ui32, %f: index, %g: f16, \
               %h: bf16, %i: f32, %j: f64, %p: !tilus.ptr<f32>) warps(1) \
               blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10) -> (1)>) {\n}\n";
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    let pf = tilus_ir::parse(&mut ctx, src, "k.mlir").unwrap_or_else(|(d, _)| panic!("{d:?}"));
    assert!(tilus_ir::verify(&ctx, pf.module).is_empty());
    let (_, kernel) = args::kernels(&ctx, pf.module)[0].clone();
    let file = SourceFile::new("k.mlir", src);
    let params = args::params(&ctx, kernel, &file);
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let texts: Vec<String> = EXTREMES
        .iter()
        .map(|s| s.to_string())
        .chain(
            [
                "", "-", "+", "1.5", "-0.0", "1e400", "-1e400", "nan", "inf", "-inf", "0x10",
                "1_000", "true", "false", "2.5e-310", "65504", "65520", "3.4e38", "1e39", " 1",
                "1 ", "١", "∞", "=", "==1", "0b1",
            ]
            .iter()
            .map(|s| s.to_string()),
        )
        .collect();
    let seed = seed();
    let mut rng = Rng(seed.rotate_left(31) | 1);
    let start = Instant::now();
    let (mut tried, mut bound) = (0u64, 0u64);
    let defaults = args::KernelDefaults::default();
    while start.elapsed() < budget(1.5) {
        let mut assigned = Vec::new();
        let mut shown = Vec::new();
        for n in &names {
            let v = if rng.below(2) == 0 {
                // Mostly values some type accepts, so that whole lists bind.
                rng.pick(&["0", "1", "-1", "7", "64", "1.5", "true"])
                    .to_string()
            } else if rng.below(4) == 0 {
                // Random bytes of printable ASCII and a few others.
                (0..rng.below(12))
                    .map(|_| *rng.pick(&['1', '9', '.', 'e', '-', '+', 'x', 'a', '0', '_', 'é']))
                    .collect()
            } else {
                rng.pick(&texts).clone()
            };
            let text = format!("{n}={v}");
            shown.push(text.clone());
            let mut parsed = None;
            run_guarded("parse_assignment", seed, &text, || {
                parsed = args::parse_assignment(&text).ok()
            });
            if let Some(a) = parsed {
                assigned.push(a);
            }
        }
        let input = shown.join(" ");
        run_guarded("bind_scalars", seed, &input, || {
            bound += args::bind_scalars(kernel, &params, &assigned, &defaults).is_ok() as u64;
        });
        tried += 1;
    }
    eprintln!(
        "--arg: {tried} argument lists in {:?}, {bound} bound, 0 panics",
        start.elapsed()
    );
}

#[test]
fn interpreter_survives_random_arguments() {
    let files: Vec<(String, String)> = mlir_files(&["examples", "test/run"])
        .into_iter()
        .filter(|(_, t)| t.contains("tilus.kernel"))
        .collect();
    let seed = seed();
    let mut rng = Rng(seed.rotate_left(47) | 1);
    let ints = [
        "0",
        "1",
        "-1",
        "3",
        "17",
        "64",
        "100",
        "128",
        "129",
        "200",
        "255",
        "-128",
        "2147483647",
        "-2147483648",
        "4294967296",
    ];
    let start = Instant::now();
    let mut codes = std::collections::BTreeMap::<i32, u64>::new();
    while start.elapsed() < budget(5.0) {
        let (path, text) = rng.pick(&files);
        // One kernel of the file, and its integer parameters (`%name: i32` in its signature).
        let sigs: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("tilus.kernel @"))
            .collect();
        if sigs.is_empty() {
            continue;
        }
        let sig = *rng.pick(&sigs);
        let kernel_name: String = sig["tilus.kernel @".len()..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let mut names: Vec<String> = Vec::new();
        {
            for part in sig.split('%').skip(1) {
                if let Some((n, ty)) = part.split_once(':') {
                    let ty = ty.trim_start();
                    if ty.starts_with("i32") || ty.starts_with("i64") || ty.starts_with("index") {
                        names.push(n.trim().to_string());
                    }
                }
            }
        }
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tilus-run"));
        cmd.arg(path)
            .args(["--kernel", &kernel_name])
            .args(["--backend", "interp", "--max-steps", "20000"])
            .args(["--seed", &rng.next().to_string()]);
        if rng.below(2) == 0 {
            cmd.args(["--schedule", "random"]);
        }
        let mut shown = format!("tilus-run {path} --kernel {kernel_name}");
        for n in names.iter().take(6) {
            if rng.below(3) > 0 {
                let a = format!("{n}={}", rng.pick(&ints));
                shown.push_str(&format!(" --arg {a}"));
                cmd.args(["--arg", &a]);
            }
        }
        let t0 = Instant::now();
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A run is bounded by --max-steps, but a step of a big tile op is slow: runs past the
        // harness's per-run limit are stopped and counted (-9), not failed.
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break Some(st);
            }
            if t0.elapsed() > Duration::from_secs(2) {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut err);
        }
        let code = match status {
            Some(st) => {
                let code = st.code().unwrap_or(-1);
                assert!(
                    matches!(code, 0..=2),
                    "{shown} (seed {seed:#x}) exited with {st:?}:\n{err}"
                );
                assert!(!err.contains("panicked"), "{shown}: {err}");
                code
            }
            None => -9,
        };
        *codes.entry(code).or_default() += 1;
    }
    eprintln!(
        "interpreter: runs by exit code {codes:?} in {:?}, no panic or abort",
        start.elapsed()
    );
}
