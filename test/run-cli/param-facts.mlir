// Parameter facts on a kernel: `%n: i32 {tilus.divisibility = 64 : i64}` promises that every
// `n` is a multiple of 64 (and `tilus.range = array<i64: lo, hi>` that it lies in [lo, hi]).
// The kernel prints them as written, keeps them in the generic form (`arg_attrs`, one
// dictionary a parameter), and the lowering carries them to the `ptx.entry`, where eqsat folds
// on them (test/passes/eqsat/param-facts.mlir).
// RUN: tilus-opt %s | FileCheck %s --check-prefix=PRETTY
// PRETTY: tilus.kernel @fill(%y: !tilus.ptr<f32>, %n: i32 {tilus.divisibility = 64 : i64, tilus.range = array<i64: 64, 4096>})
// RUN: tilus-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// GENERIC: "tilus.kernel"() <{arg_attrs = [{}, {tilus.divisibility = 64 : i64, tilus.range = array<i64: 64, 4096>}]
// RUN: tilus-opt %s --mlir-print-op-generic | tilus-opt | FileCheck %s --check-prefix=PRETTY
// RUN: tilus-opt %s --pass-pipeline='builtin.module(tilus-to-ptx)' | FileCheck %s --check-prefix=LOWERED
// LOWERED: ptx.entry @fill(%arg0: i64, %arg1: i32 {tilus.divisibility = 64 : i64, tilus.range = array<i64: 64, 4096>})
//
// tilus-run refuses an argument that breaks the promise (the kernel may have been compiled on
// it), on either backend, as a usage error at the parameter:
// RUN: tilus-run %s | FileCheck %s --check-prefix=OK
// OK: output y: f32[128]
// RUN: not tilus-run %s --arg n=100 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: tilus-run %s --arg n=100 2>/dev/null; test $? -eq 2
// DIV: × argument n = 100 is not a multiple of 64 (its tilus.divisibility)
// DIV: n: i32 declares it
// RUN: not tilus-run %s --arg n=8192 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: × argument n = 8192 is outside its tilus.range [64, 4096]
//
// The verifier checks the attributes' shapes and that they sit on integer parameters, pointing
// at the parameter:
// RUN: not tilus-opt %S/Inputs/param-facts-bad.mlir.txt --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: parameter 1: tilus.range expects lo <= hi, but found [8, 4] ({{.*}}param-facts-bad.mlir.txt:2:38)
// BAD: parameter 1: tilus.divisibility expects a positive integer, but found 0
// BAD: parameter 0: tilus.divisibility applies to integer parameters, but the parameter is !tilus.ptr<f32>
// BAD: parameter 1: tilus.range expects array<i64: lo, hi>
// BAD: parameter 1: tilus.divisibility expects an integer
// BAD: expects one dictionary per parameter (2), but found 1
tilus.kernel @fill(%y: !tilus.ptr<f32>, %n: i32 {tilus.divisibility = 64 : i64, tilus.range = array<i64: 64, 4096>})
    warps(1) blocks(affine_map<(d0, d1) -> (d1 ceildiv 32)>)
    attributes {tilus.args = {n = 128 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %bx = tilus.block_id x
  %c32 = arith.constant 32 : i32
  %off = arith.muli %bx, %c32 : i32
  %g = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %one = arith.constant 1.0 : f32
  %t = tilus.register_tensor init(%one : f32) : !tilus.reg<32xf32>
  tilus.store_global %t, %g[%off] : !tilus.reg<32xf32>, !tilus.global<?xf32>
}
