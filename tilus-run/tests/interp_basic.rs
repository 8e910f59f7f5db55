//! The interpreter on core tile kernels (test/run/basic.mlir) against plain Rust references.

mod interp_util;

use interp_util::*;
use tilus_run::interp::{ArgValue, Options};
use tilus_run::memory::GlobalMemory;
use tilus_run::tensor::{DType, Tensor};

#[test]
fn vector_add() {
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "vector_add");
    let n = 3000i64;
    let a = random(DType::F32, &[n], 1, -4.0, 4.0);
    let b = random(DType::F32, &[n], 2, -4.0, 4.0);
    let mut mem = GlobalMemory::default();
    let ia = mem.add("a", &a);
    let ib = mem.add("b", &b);
    let ic = mem.add("c", &Tensor::zeros(DType::F32, &[n]));
    let args = [
        ArgValue::Buffer(ia),
        ArgValue::Buffer(ib),
        ArgValue::Buffer(ic),
        ArgValue::Int(n),
    ];
    assert_eq!(tilus_run::interp::grid(&ctx, k, &args).unwrap(), [3, 1, 1]);
    let shapes = tilus_run::interp::buffer_shapes(&ctx, k, &args).unwrap();
    assert_eq!(shapes[0], Some((DType::F32, vec![n])));
    assert_eq!(shapes[3], None);
    let stats = run_ok(&ctx, k, &args, &mut mem, &Options::default());
    assert_eq!(stats.ctas, 3);
    assert!(stats.warnings.is_empty());
    let c = mem.tensor(ic, &[n]);
    let want: Vec<f64> = a
        .data
        .iter()
        .zip(&b.data)
        .map(|(x, y)| (x + y) as f32 as f64)
        .collect();
    assert_close(&c, &want, 0.0, 0.0);
}

#[test]
fn row_sum() {
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "row_sum");
    let (rows, cols) = (10i64, 300i64);
    let x = random(DType::F32, &[rows, cols], 3, -1.0, 1.0);
    let mut mem = GlobalMemory::default();
    let ix = mem.add("x", &x);
    let iy = mem.add("y", &Tensor::zeros(DType::F32, &[rows]));
    let args = [
        ArgValue::Buffer(ix),
        ArgValue::Buffer(iy),
        ArgValue::Int(rows),
        ArgValue::Int(cols),
    ];
    run_ok(&ctx, k, &args, &mut mem, &Options::default());
    let y = mem.tensor(iy, &[rows]);
    let want: Vec<f64> = (0..rows as usize)
        .map(|r| {
            x.data[r * cols as usize..(r + 1) * cols as usize]
                .iter()
                .sum()
        })
        .collect();
    assert_close(&y, &want, 1e-4, 1e-5);
}

#[test]
fn two_stage_sum() {
    let (ctx, m) = load("basic.mlir");
    let k1 = kernel(&ctx, m, "block_sum");
    let k2 = kernel(&ctx, m, "final_sum");
    // 39 rows of 128: the last block's tile hangs over the end of the view (reads zeros).
    let n = 39 * 128i64;
    let x = random(DType::F32, &[n], 4, -1.0, 1.0);
    let blocks = (n + 1023) / 1024;
    let mut mem = GlobalMemory::default();
    let ix = mem.add("x", &x);
    let ip = mem.add("part", &Tensor::zeros(DType::F32, &[blocks]));
    let io = mem.add("out", &Tensor::zeros(DType::F32, &[1]));
    let args1 = [ArgValue::Buffer(ix), ArgValue::Buffer(ip), ArgValue::Int(n)];
    let stats = run_ok(&ctx, k1, &args1, &mut mem, &Options::default());
    assert_eq!(stats.ctas as i64, blocks);
    let part = mem.tensor(ip, &[blocks]);
    for b in 0..blocks as usize {
        let lo = b * 1024;
        let hi = ((b + 1) * 1024).min(n as usize);
        let want: f64 = x.data[lo..hi].iter().sum();
        assert!(
            (part.data[b] - want).abs() < 1e-3,
            "partial {b}: {} vs {want}",
            part.data[b]
        );
    }
    let args2 = [
        ArgValue::Buffer(ip),
        ArgValue::Buffer(io),
        ArgValue::Int(blocks),
    ];
    run_ok(&ctx, k2, &args2, &mut mem, &Options::default());
    let total: f64 = x.data.iter().sum();
    let out = mem.tensor(io, &[1]);
    assert!(
        (out.data[0] - total).abs() < 1e-3,
        "{} vs {total}",
        out.data[0]
    );
}

#[test]
fn softmax() {
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "softmax");
    let (rows, cols) = (8i64, 512i64);
    let x = random(DType::F32, &[rows, cols], 5, -3.0, 3.0);
    let mut mem = GlobalMemory::default();
    let ix = mem.add("x", &x);
    let iy = mem.add("y", &Tensor::zeros(DType::F16, &[rows, cols]));
    let args = [
        ArgValue::Buffer(ix),
        ArgValue::Buffer(iy),
        ArgValue::Int(rows),
        ArgValue::Int(cols),
    ];
    run_ok(&ctx, k, &args, &mut mem, &Options::default());
    let y = mem.tensor(iy, &[rows, cols]);
    let c = cols as usize;
    let mut want = Vec::new();
    for r in 0..rows as usize {
        let row = &x.data[r * c..(r + 1) * c];
        let mx = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let s: f64 = row.iter().map(|v| (v - mx).exp()).sum();
        want.extend(row.iter().map(|v| (v - mx).exp() / s));
    }
    assert_close(&y, &want, 1e-4, 2e-3);
}

#[test]
fn per_thread_scalars_and_divergence() {
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "divergence");
    let mut mem = GlobalMemory::default();
    let io = mem.add(
        "out",
        &Tensor::zeros(
            DType::Int {
                bits: 32,
                signedness: tilus_ir::types::Signedness::Signless,
            },
            &[128],
        ),
    );
    run_ok(
        &ctx,
        k,
        &[ArgValue::Buffer(io)],
        &mut mem,
        &Options::default(),
    );
    let out = mem.tensor(io, &[128]);
    assert_eq!(out.data[0], 55.0);
    assert_eq!(out.data[1], 67.0);
}

#[test]
fn stencil_with_warp_shuffles() {
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "stencil3");
    let n = 300i64;
    let x = random(DType::F32, &[n], 6, -1.0, 1.0);
    let mut mem = GlobalMemory::default();
    let ix = mem.add("x", &x);
    let iy = mem.add("y", &Tensor::zeros(DType::F32, &[n]));
    run_ok(
        &ctx,
        k,
        &[ArgValue::Buffer(ix), ArgValue::Buffer(iy), ArgValue::Int(n)],
        &mut mem,
        &Options::default(),
    );
    let y = mem.tensor(iy, &[n]);
    // Tiles of 128 read zeros past n; lanes at a warp edge keep their own value.
    let xv = |i: usize| {
        if (i as i64) < n {
            x.data[i] as f32
        } else {
            0.0
        }
    };
    let want: Vec<f64> = (0..n as usize)
        .map(|i| {
            let l = if i % 32 == 0 { xv(i) } else { xv(i - 1) };
            let r = if i % 32 == 31 { xv(i) } else { xv(i + 1) };
            ((l + r) * 0.25 + xv(i) * 0.5) as f64
        })
        .collect();
    assert_close(&y, &want, 1e-6, 0.0);
}

#[test]
fn step_limit_is_a_report() {
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "spin");
    let opts = Options {
        max_steps: 1000,
        ..Options::default()
    };
    let mut mem = GlobalMemory::default();
    let d = tilus_run::interp::run(&ctx, k, &[ArgValue::Int(1 << 30)], &mut mem, &opts)
        .expect_err("a report");
    assert!(
        d[0].message
            .contains("exceeded the step limit (1000 steps)"),
        "{}",
        render(&d)
    );
    // A short loop is fine.
    run_ok(&ctx, k, &[ArgValue::Int(10)], &mut mem, &opts);
}

#[test]
fn semaphores_between_blocks() {
    let (ctx, m) = load("basic.mlir");
    let k = kernel(&ctx, m, "semaphore_chain");
    let i32t = DType::Int {
        bits: 32,
        signedness: tilus_ir::types::Signedness::Signless,
    };
    let mut mem = GlobalMemory::default();
    let is = mem.add("s", &Tensor::zeros(i32t, &[1]));
    run_ok(
        &ctx,
        k,
        &[ArgValue::Buffer(is)],
        &mut mem,
        &Options::default(),
    );
    assert_eq!(mem.tensor(is, &[1]).data, vec![2.0]);
    // Starting at 1, block 0 waits for a value only a later block could set.
    let is = mem.add("s1", &Tensor::full(i32t, &[1], 1.0));
    let d = run_err(&ctx, k, &[ArgValue::Buffer(is)], &mut mem);
    let text = render1(&d);
    assert!(d.message.starts_with("deadlock"), "{text}");
    assert!(
        text.contains("block (0, 0, 0): thread [0, 1) spin at tilus.lock_semaphore until the semaphore equals 0"),
        "{text}"
    );
}
