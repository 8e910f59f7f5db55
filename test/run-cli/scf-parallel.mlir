// scf.parallel and scf.forall in kernels: tilus-run and tilus-to-ptx first rewrite them as
// scf.for nests (scf-forall-to-for, scf-parallel-for-to-nested-fors{reductions=true}), so the
// interpreter, infer-layouts and lower-tiles see ordinary loops, register tensors carried as
// reduction accumulators included. Before, the interpreter reported "does not support
// 'scf.parallel'" and the lowering left the loops in place.
//
// A 2-D parallel loop reducing register tiles (y = x + sum over n x 2 iterations of x / 2),
// against the same sum in nested scf.for loops:
// RUN: tilus-run %s --kernel parallel_tiles | FileCheck %s --check-prefix=PAR
// RUN: tilus-run %s --kernel parallel_tiles --arg n=0 | FileCheck %s --check-prefix=PAR
// RUN: tilus-run %s --kernel parallel_tiles --schedule random --seed 3 | FileCheck %s --check-prefix=PAR
// PAR: check y vs reference @parallel_tiles_ref: ok
//
// A forall over row blocks (static and dynamic bounds), each iteration scaling its rows, and
// a per-thread parallel loop whose trip count differs between threads:
// RUN: tilus-run %s --kernel forall_rows | FileCheck %s --check-prefix=ROWS
// ROWS: check y vs reference @forall_rows_ref: ok
// RUN: tilus-run %s --kernel parallel_divergent | FileCheck %s --check-prefix=DIV
// DIV: check y vs reference @parallel_divergent_ref: ok
//
// The lowering starts with the rewrite, and the PTX assembles:
// RUN: tilus-opt %s --tilus-to-ptx --mlir-print-ir-after=scf-parallel-for-to-nested-fors 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
// IR-LABEL: tilus.kernel @parallel_tiles(
// IR-NOT:   scf.parallel
// IR:       scf.for
// IR:       scf.for
// IR:       tilus.add
// RUN: tilus-run %s --kernel parallel_tiles --dump-ptx > %t.ptx
// RUN: tilus-run %s --kernel forall_rows --dump-ptx > %t.rows.ptx
// RUN: tilus-run %s --kernel parallel_divergent --dump-ptx > %t.div.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: %ptxas -arch=sm_90a %t.rows.ptx -o %t.rows.cubin
// RUN: %ptxas -arch=sm_90a %t.div.ptx -o %t.div.cubin
// REQUIRES: ptxas

tilus.kernel @parallel_tiles(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {n = 3 : i32}, tilus.outputs = ["y"], tilus.reference = "parallel_tiles_ref"} {
  %c0 = arith.constant 0 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %half = arith.constant 0.5 : f32
  %nn = arith.index_cast %n : i32 to index
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<1x1xf32>
  %r = scf.parallel (%i, %j) = (%i0, %i0) to (%nn, %i2) step (%i1, %i1) init (%t) -> !tilus.reg<64x32xf32> {
    %s = tilus.mul %t, %h : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
    scf.reduce(%s : !tilus.reg<64x32xf32>) {
    ^bb0(%a: !tilus.reg<64x32xf32>, %b: !tilus.reg<64x32xf32>):
      %ab = tilus.add %a, %b : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
      scf.reduce.return %ab : !tilus.reg<64x32xf32>
    }
  }
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

tilus.kernel @parallel_tiles_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %half = arith.constant 0.5 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<1x1xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (!tilus.reg<64x32xf32>) : i32 {
    %r2 = scf.for %j = %c0 to %c2 step %c1 iter_args(%b = %a) -> (!tilus.reg<64x32xf32>) : i32 {
      %s = tilus.mul %t, %h : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
      %b2 = tilus.add %b, %s : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
      scf.yield %b2 : !tilus.reg<64x32xf32>
    }
    scf.yield %r2 : !tilus.reg<64x32xf32>
  }
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

// y[16 b + r, c] = (b + 1) x[16 b + r, c] for the row blocks b = 0 .. 3, one forall iteration
// each (the upper bound from an argument, the step static).
tilus.kernel @forall_rows(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %blocks: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {blocks = 4 : i32}, tilus.outputs = ["y"], tilus.reference = "forall_rows_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %nb = arith.index_cast %blocks : i32 to index
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  scf.forall (%b) = (0) to (%nb) step (1) {
    %bi = arith.index_cast %b : index to i32
    %row = arith.muli %bi, %c16 : i32
    %k = arith.addi %bi, %c1 : i32
    %kf = arith.sitofp %k : i32 to f32
    %s = tilus.register_tensor init(%kf : f32) : !tilus.reg<1x1xf32>
    %t = tilus.load_global %gx[%row, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<16x32xf32>
    %u = tilus.mul %t, %s : (!tilus.reg<16x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<16x32xf32>
    tilus.store_global %u, %gy[%row, %c0] : !tilus.reg<16x32xf32>, !tilus.global<64x32xf32>
  }
}

tilus.kernel @forall_rows_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %blocks: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c48 = arith.constant 48 : i32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %four = arith.constant 4.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %s1 = tilus.register_tensor init(%one : f32) : !tilus.reg<1x1xf32>
  %s2 = tilus.register_tensor init(%two : f32) : !tilus.reg<1x1xf32>
  %s3 = tilus.register_tensor init(%three : f32) : !tilus.reg<1x1xf32>
  %s4 = tilus.register_tensor init(%four : f32) : !tilus.reg<1x1xf32>
  %t1 = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<16x32xf32>
  %u1 = tilus.mul %t1, %s1 : (!tilus.reg<16x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<16x32xf32>
  tilus.store_global %u1, %gy[%c0, %c0] : !tilus.reg<16x32xf32>, !tilus.global<64x32xf32>
  %t2 = tilus.load_global %gx[%c16, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<16x32xf32>
  %u2 = tilus.mul %t2, %s2 : (!tilus.reg<16x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<16x32xf32>
  tilus.store_global %u2, %gy[%c16, %c0] : !tilus.reg<16x32xf32>, !tilus.global<64x32xf32>
  %t3 = tilus.load_global %gx[%c32, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<16x32xf32>
  %u3 = tilus.mul %t3, %s3 : (!tilus.reg<16x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<16x32xf32>
  tilus.store_global %u3, %gy[%c32, %c0] : !tilus.reg<16x32xf32>, !tilus.global<64x32xf32>
  %t4 = tilus.load_global %gx[%c48, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<16x32xf32>
  %u4 = tilus.mul %t4, %s4 : (!tilus.reg<16x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<16x32xf32>
  tilus.store_global %u4, %gy[%c48, %c0] : !tilus.reg<16x32xf32>, !tilus.global<64x32xf32>
}

// y[t] = 0 * 1 + 1 * 1 + ... summed by a parallel loop of t % 5 iterations per thread: the
// triangle number (t % 5 - 1) (t % 5) / 2, with a product reduction alongside (always 1).
tilus.kernel @parallel_divergent(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "parallel_divergent_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %trips = arith.remui %tid, %c5 : i32
  %n = arith.index_cast %trips : i32 to index
  %r:2 = scf.parallel (%i) = (%i0) to (%n) step (%i1) init (%c0, %c1) -> (i32, i32) {
    %v = arith.index_cast %i : index to i32
    scf.reduce(%v, %c1 : i32, i32) {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }, {
    ^bb0(%a: i32, %b: i32):
      %p = arith.muli %a, %b : i32
      scf.reduce.return %p : i32
    }
  }
  %out = arith.muli %r#0, %r#1 : i32
  %t = tilus.register_tensor init(%out : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

tilus.kernel @parallel_divergent_ref(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %k = arith.remui %tid, %c5 : i32
  %k1 = arith.subi %k, %c1 : i32
  %p = arith.muli %k, %k1 : i32
  %s = arith.divsi %p, %c2 : i32
  %t = tilus.register_tensor init(%s : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}
