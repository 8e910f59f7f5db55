//! Criterion benchmarks of the textual format and the verifier on a generated generic-form file:
//! `cargo bench -p tilus-ir --bench textual`. (Whole-tool timings beside mlir-opt are in
//! `bench/compiler.sh` and docs/perf.md.)

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::fmt::Write;
use tilus_ir::{parse, print_op, verify, Context, PrintOptions};

/// `n` ops: chains of arith-like ops, 30% unregistered ops with attributes, a nested region every
/// 50 ops; the same shape as `bench/gen_ir.py`.
fn generate(n: usize) -> String {
    let mut s = String::from("\"builtin.module\"() ({\n  %a = \"t.arg\"() : () -> i32\n");
    let mut last = "%a".to_string();
    for i in 0..n {
        if i % 50 == 49 {
            let _ = writeln!(
                s,
                "  \"t.loop\"() ({{\n  ^bb0(%iv{i}: index):\n    %l{i} = \"t.add\"({last}, {last}) : (i32, i32) -> i32\n    \"t.yield\"() : () -> ()\n  }}) : () -> ()"
            );
        } else if i % 10 == 3 || i % 10 == 6 || i % 10 == 9 {
            let _ = writeln!(s, "  %v{i} = \"u.op\"({last}) {{a = {i} : i64, s = \"x{i}\", l = [1, 2, 3]}} : (i32) -> i32");
            last = format!("%v{i}");
        } else {
            let _ = writeln!(s, "  %v{i} = \"t.add\"({last}, %a) : (i32, i32) -> i32");
            last = format!("%v{i}");
        }
    }
    s.push_str("}) : () -> ()\n");
    s
}

fn bench(c: &mut Criterion) {
    let n = 10_000;
    let src = generate(n);
    let mut g = c.benchmark_group("textual");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("parse_10k_ops", |b| {
        b.iter(|| {
            let mut ctx = Context::new();
            ctx.allow_unregistered = true;
            parse(&mut ctx, &src, "bench.mlir").ok().unwrap();
        })
    });
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let module = parse(&mut ctx, &src, "bench.mlir").ok().unwrap().module;
    g.bench_function("verify_10k_ops", |b| {
        b.iter(|| assert!(verify(&ctx, module).is_empty()))
    });
    let generic = PrintOptions {
        generic: true,
        ..Default::default()
    };
    g.bench_function("print_generic_10k_ops", |b| {
        b.iter(|| print_op(&ctx, module, generic))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
