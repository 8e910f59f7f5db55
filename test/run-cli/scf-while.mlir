// scf.while in kernels: the interpreter runs it (a `before` region ending in scf.condition,
// then `after`, whose yield starts the next trip; threads whose condition is false leave the
// loop and wait after it for the others), lower-tiles carries register tensors through it (one
// value per register, as scf.for), and convert-scf-to-cf lowers it as MLIR does
// (test/lower/scf-to-cf-mlir.mlir compares with mlir-opt). Before, "the interpreter does not
// support 'scf.while'", "lower-tiles: cannot lower 'scf.while' producing register tensors", and
// a while loop with a guarded access in it failed to verify after convert-scf-to-cf.
//
// A tile carried through the loop, against the same recurrence in an scf.for:
// RUN: tilus-run %s --kernel while_tiles | FileCheck %s --check-prefix=TILES
// RUN: tilus-run %s --kernel while_tiles --arg n=0 | FileCheck %s --check-prefix=TILES
// RUN: tilus-run %s --kernel while_tiles --schedule random --seed 4 | FileCheck %s --check-prefix=TILES
// TILES: check y vs reference @while_tiles_ref: ok
//
// A condition that differs between threads (thread t runs t % 5 trips), and the tile result
// of threads that left at different trips:
// RUN: tilus-run %s --kernel while_divergent | FileCheck %s --check-prefix=DIV
// RUN: tilus-run %s --kernel while_divergent --schedule random --seed 9 | FileCheck %s --check-prefix=DIV
// DIV: check y vs reference @while_divergent_ref: ok
//
// The PTX (the loop's blocks, its tile as registers) assembles:
// RUN: tilus-run %s --kernel while_tiles --dump-ptx > %t.ptx
// RUN: tilus-run %s --kernel while_divergent --dump-ptx > %t.div.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
// PTX: .entry while_tiles(
// PTX: setp.lt.s32
// PTX: mul.rn.f32
// PTX: bra
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: %ptxas -arch=sm_90a %t.div.ptx -o %t.div.cubin
//
// infer-layouts gives a while's init, `before` argument and yield one layout, and its result,
// `after` argument and forwarded value another class: a tile loaded row-major and added to a
// column-major load in the loop gets one layout.convert (before, the `after` argument and the
// forwarded value got different layouts and the kernel failed to verify):
// RUN: tilus-opt %s --infer-layouts | FileCheck %s --check-prefix=INFER
// INFER-LABEL: tilus.kernel @while_anchors(
// INFER:       scf.while
// INFER:       layout.convert
// INFER-LABEL: tilus.kernel @while_anchors_ref(
// RUN: tilus-run %s --kernel while_anchors | FileCheck %s --check-prefix=ANCHORS
// ANCHORS: check y vs reference @while_anchors_ref: ok
// RUN: tilus-run %s --kernel while_anchors --dump-ptx > %t.anchors.ptx
// RUN: %ptxas -arch=sm_90a %t.anchors.ptx -o %t.anchors.cubin
// REQUIRES: ptxas

tilus.kernel @while_tiles(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {n = 5 : i32}, tilus.outputs = ["y"], tilus.reference = "while_tiles_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %half = arith.constant 0.5 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<1x1xf32>
  %r:2 = scf.while (%i = %c0, %acc = %t) : (i32, !tilus.reg<64x32xf32>) -> (i32, !tilus.reg<64x32xf32>) {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i, %acc : i32, !tilus.reg<64x32xf32>
  } do {
  ^bb0(%j: i32, %a: !tilus.reg<64x32xf32>):
    %s = tilus.mul %a, %h : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
    %a2 = tilus.add %s, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %j1, %a2 : i32, !tilus.reg<64x32xf32>
  }
  tilus.store_global %r#1, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

tilus.kernel @while_tiles_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %half = arith.constant 0.5 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x32xf32> -> !tilus.reg<64x32xf32>
  %h = tilus.register_tensor init(%half : f32) : !tilus.reg<1x1xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (!tilus.reg<64x32xf32>) : i32 {
    %s = tilus.mul %a, %h : (!tilus.reg<64x32xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x32xf32>
    %a2 = tilus.add %s, %t : (!tilus.reg<64x32xf32>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
    scf.yield %a2 : !tilus.reg<64x32xf32>
  }
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<64x32xf32>, !tilus.global<64x32xf32>
}

// y[t] = 1 + 2 + ... + (t % 5), summed in a loop of t % 5 trips.
tilus.kernel @while_divergent(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "while_divergent_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %trips = arith.remui %tid, %c5 : i32
  %r:2 = scf.while (%i = %c0, %s = %c0) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi slt, %i, %trips : i32
    scf.condition(%more) %i, %s : i32, i32
  } do {
  ^bb0(%j: i32, %acc: i32):
    %j1 = arith.addi %j, %c1 : i32
    %acc1 = arith.addi %acc, %j1 : i32
    scf.yield %j1, %acc1 : i32, i32
  }
  %t = tilus.register_tensor init(%r#1 : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

// The same sums in closed form, k (k + 1) / 2 with k = t % 5.
tilus.kernel @while_divergent_ref(%y: !tilus.ptr<i32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<64xi32>
  %tid = tilus.thread_id
  %k = arith.remui %tid, %c5 : i32
  %k1 = arith.addi %k, %c1 : i32
  %p = arith.muli %k, %k1 : i32
  %s = arith.divui %p, %c2 : i32
  %t = tilus.register_tensor init(%s : i32) : !tilus.reg<64xi32, layout = spatial(64)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<64xi32, layout = spatial(64)>, !tilus.global<64xi32>
}

// y = x + n w^T (w read column-major inside the loop).
tilus.kernel @while_anchors(%x: !tilus.ptr<f32>, %w: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(2) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.args = {n = 3 : i32}, tilus.outputs = ["y"], tilus.reference = "while_anchors_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %gw = tilus.global_view %w : !tilus.ptr<f32> -> !tilus.global<64x64xf32, strides = [1, 64]>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %r:2 = scf.while (%i = %c0, %acc = %t) : (i32, !tilus.reg<64x64xf32>) -> (i32, !tilus.reg<64x64xf32>) {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i, %acc : i32, !tilus.reg<64x64xf32>
  } do {
  ^bb0(%j: i32, %a: !tilus.reg<64x64xf32>):
    %l = tilus.load_global %gw[%c0, %c0] : !tilus.global<64x64xf32, strides = [1, 64]> -> !tilus.reg<64x64xf32>
    %a2 = tilus.add %a, %l : (!tilus.reg<64x64xf32>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %j1, %a2 : i32, !tilus.reg<64x64xf32>
  }
  tilus.store_global %r#1, %gy[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}

tilus.kernel @while_anchors_ref(%x: !tilus.ptr<f32>, %w: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(2) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %gw = tilus.global_view %w : !tilus.ptr<f32> -> !tilus.global<64x64xf32, strides = [1, 64]>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<64x64xf32> -> !tilus.reg<64x64xf32>
  %l = tilus.load_global %gw[%c0, %c0] : !tilus.global<64x64xf32, strides = [1, 64]> -> !tilus.reg<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (!tilus.reg<64x64xf32>) : i32 {
    %a2 = tilus.add %a, %l : (!tilus.reg<64x64xf32>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    scf.yield %a2 : !tilus.reg<64x64xf32>
  }
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<64x64xf32>
}
