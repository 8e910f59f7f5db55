// tilus: every op in custom form inside a tilus.kernel; RUN lines check the custom print, the
// generic print, generic -> reparse -> custom, custom -> reparse -> custom, and generic ->
// mlir-opt (MLIR 22, as unregistered ops) -> reparse -> custom.
// REQUIRES: mlir-opt
// RUN: tilus-opt %s --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --split-input-file --print-op-generic | tilus-opt --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file | tilus-opt --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file --print-op-generic \
// RUN:   | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --split-input-file \
// RUN:   | tilus-opt --split-input-file | FileCheck %s

// Fused softmax over rows (spec §9): one block per 4 rows, 4 warps, a 4x128 f32 tile per step.
// CHECK-LABEL: tilus.kernel @softmax(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f16>, %m: i32, %n: i32) warps(4) blocks(#map) {
// CHECK-NEXT:    %0 = tilus.block_id x
// CHECK:         %2 = tilus.global_view %x[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
// CHECK-NEXT:    %3 = tilus.global_view %y[%m] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x128xf16, strides = [?, 1]>
// CHECK-NEXT:    %4 = tilus.load_global %2[%1, %c0_i32] : !tilus.global<?x?xf32> -> !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
// CHECK-NEXT:    %5 = tilus.reduce max %4 dim(1) keepdim : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
// CHECK-NEXT:    %6 = tilus.sub %4, %5 : (!tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
// CHECK-NEXT:    %7 = tilus.exp %6 : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
// CHECK-NEXT:    %8 = tilus.reduce sum %7 dim(1) keepdim :
// CHECK-NEXT:    %9 = tilus.div %7, %8 :
// CHECK-NEXT:    %10 = tilus.cast %9 : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)> to !tilus.reg<4x128xf16, layout = spatial(4, 32) * local(1, 4)>
// CHECK-NEXT:    tilus.store_global %10, %3[%1, %c0_i32] : !tilus.reg<4x128xf16, layout = spatial(4, 32) * local(1, 4)>, !tilus.global<?x128xf16, strides = [?, 1]>
// CHECK-NEXT:  }
// GENERIC-LABEL: "tilus.kernel"() <{arg_names = ["x", "y", "m", "n"], blocks = #map, function_type = (!tilus.ptr<f32>, !tilus.ptr<f16>, i32, i32) -> (), sym_name = "softmax", warps = 4 : i64}> ({
// GENERIC-NEXT:  ^bb0(%arg0: !tilus.ptr<f32>, %arg1: !tilus.ptr<f16>, %arg2: i32, %arg3: i32):
// GENERIC-NEXT:    %0 = "tilus.block_id"() <{dim = 0 : i64}> : () -> i32
// GENERIC:         "tilus.global_view"(%arg0, %arg2, %arg3) <{operandSegmentSizes = array<i32: 1, 2, 0>}> : (!tilus.ptr<f32>, i32, i32) -> !tilus.global<?x?xf32>
// GENERIC-NEXT:    "tilus.global_view"(%arg1, %arg2, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!tilus.ptr<f16>, i32, i32) -> !tilus.global<?x128xf16, strides = [?, 1]>
// GENERIC-NEXT:    "tilus.load_global"(%{{.*}}, %{{.*}}, %{{.*}}) : (!tilus.global<?x?xf32>, i32, i32) -> !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
// GENERIC-NEXT:    "tilus.reduce"(%{{.*}}) <{dim = 1 : i64, keepdim, kind = 1 : i64}> : (!tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>) -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
// GENERIC-NEXT:    "tilus.sub"(%{{.*}}, %{{.*}}) : (!tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
// GENERIC:         "tilus.store_global"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!tilus.reg<4x128xf16, layout = spatial(4, 32) * local(1, 4)>, !tilus.global<?x128xf16, strides = [?, 1]>, i32, i32) -> ()
// GENERIC-NEXT:  }) : () -> ()
tilus.kernel @softmax(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f16>, %m: i32, %n: i32) warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d2 ceildiv 4)>) {
  %bx = tilus.block_id x
  %c4 = arith.constant 4 : i32
  %row = arith.muli %bx, %c4 : i32
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %gy = tilus.global_view %y[%m] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x128xf16, strides = [?, 1]>
  %t = tilus.load_global %gx[%row, %c0] : !tilus.global<?x?xf32> -> !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
  %mx = tilus.reduce max %t dim(1) keepdim : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
  %d = tilus.sub %t, %mx : (!tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
  %e = tilus.exp %d : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
  %s = tilus.reduce sum %e dim(1) keepdim : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)> -> !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>
  %p = tilus.div %e, %s : (!tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>, !tilus.reg<4x1xf32, layout = spatial(4, 1) * replicate(32)>) -> !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)>
  %h = tilus.cast %p : !tilus.reg<4x128xf32, layout = spatial(4, 32) * local(1, 4)> to !tilus.reg<4x128xf16, layout = spatial(4, 32) * local(1, 4)>
  tilus.store_global %h, %gy[%row, %c0] : !tilus.reg<4x128xf16, layout = spatial(4, 32) * local(1, 4)>, !tilus.global<?x128xf16, strides = [?, 1]>
}

// -----

// Every elementwise op, broadcasting a row vector and a splatted scalar over a tile.
// CHECK-LABEL: tilus.kernel @elementwise(
// CHECK-NEXT:    %0 = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
// CHECK-NEXT:    %1 = tilus.register_tensor : !tilus.reg<64x128xf32>
// CHECK-NEXT:    %2 = tilus.add %a, %b : (!tilus.reg<64x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<64x128xf32>
// CHECK-NEXT:    %3 = tilus.sub %2, %0 : (!tilus.reg<64x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x128xf32>
// CHECK-NEXT:    %4 = tilus.mul %3, %1 : (!tilus.reg<64x128xf32>, !tilus.reg<64x128xf32>) -> !tilus.reg<64x128xf32>
// CHECK-NEXT:    %5 = tilus.div %4, %a :
// CHECK-NEXT:    %6 = tilus.mod %i, %i : (!tilus.reg<64x128xi32>, !tilus.reg<64x128xi32>) -> !tilus.reg<64x128xi32>
// CHECK-NEXT:    %7 = tilus.maximum %5, %b :
// CHECK-NEXT:    %8 = tilus.minimum %7, %0 :
// CHECK-NEXT:    %9 = tilus.exp %8 : !tilus.reg<64x128xf32>
// CHECK-NEXT:    %10 = tilus.exp2 %9 : !tilus.reg<64x128xf32>
// CHECK-NEXT:    %11 = tilus.log %10 : !tilus.reg<64x128xf32>
// CHECK-NEXT:    %12 = tilus.sqrt %11 : !tilus.reg<64x128xf32>
// CHECK-NEXT:    %13 = tilus.rsqrt %12 : !tilus.reg<64x128xf32>
// CHECK-NEXT:    %14 = tilus.tanh %13 : !tilus.reg<64x128xf32>
// CHECK-NEXT:    %15 = tilus.neg %14 : !tilus.reg<64x128xf32>
// CHECK-NEXT:    %16 = tilus.abs %6 : !tilus.reg<64x128xi32>
// CHECK-NEXT:    %17 = tilus.cmp lt %15, %b : (!tilus.reg<64x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<64x128xi1>
// CHECK-NEXT:    %18 = tilus.where %17, %15, %0 : (!tilus.reg<64x128xi1>, !tilus.reg<64x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x128xf32>
// CHECK-NEXT:    %19 = tilus.reduce any %17 dim(0) : !tilus.reg<64x128xi1> -> !tilus.reg<128xi1>
// CHECK-NEXT:    %20 = tilus.reduce all %17 dim(1) : !tilus.reg<64x128xi1> -> !tilus.reg<64xi1>
// CHECK-NEXT:    %21 = tilus.reduce min %18 dim(0) keepdim : !tilus.reg<64x128xf32> -> !tilus.reg<1x128xf32>
// CHECK-NEXT:  }
// GENERIC-LABEL: sym_name = "elementwise"
// GENERIC:         "tilus.register_tensor"(%arg2) : (f32) -> !tilus.reg<1x1xf32>
// GENERIC-NEXT:    "tilus.register_tensor"() : () -> !tilus.reg<64x128xf32>
// GENERIC-NEXT:    "tilus.add"(%arg0, %arg1) : (!tilus.reg<64x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<64x128xf32>
// GENERIC:         "tilus.exp"(%{{.*}}) : (!tilus.reg<64x128xf32>) -> !tilus.reg<64x128xf32>
// GENERIC:         "tilus.cmp"(%{{.*}}, %arg1) <{predicate = 2 : i64}> : (!tilus.reg<64x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<64x128xi1>
// GENERIC-NEXT:    "tilus.where"(%{{.*}}, %{{.*}}, %{{.*}}) : (!tilus.reg<64x128xi1>, !tilus.reg<64x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x128xf32>
// GENERIC-NEXT:    "tilus.reduce"(%{{.*}}) <{dim = 0 : i64, kind = 3 : i64}> : (!tilus.reg<64x128xi1>) -> !tilus.reg<128xi1>
tilus.kernel @elementwise(%a: !tilus.reg<64x128xf32>, %b: !tilus.reg<128xf32>, %eps: f32, %i: !tilus.reg<64x128xi32>) warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>) {
  %e = tilus.register_tensor init(%eps : f32) : !tilus.reg<1x1xf32>
  %u = tilus.register_tensor : !tilus.reg<64x128xf32>
  %0 = tilus.add %a, %b : (!tilus.reg<64x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<64x128xf32>
  %1 = tilus.sub %0, %e : (!tilus.reg<64x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x128xf32>
  %2 = tilus.mul %1, %u : (!tilus.reg<64x128xf32>, !tilus.reg<64x128xf32>) -> !tilus.reg<64x128xf32>
  %3 = tilus.div %2, %a : (!tilus.reg<64x128xf32>, !tilus.reg<64x128xf32>) -> !tilus.reg<64x128xf32>
  %4 = tilus.mod %i, %i : (!tilus.reg<64x128xi32>, !tilus.reg<64x128xi32>) -> !tilus.reg<64x128xi32>
  %5 = tilus.maximum %3, %b : (!tilus.reg<64x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<64x128xf32>
  %6 = tilus.minimum %5, %e : (!tilus.reg<64x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x128xf32>
  %7 = tilus.exp %6 : !tilus.reg<64x128xf32>
  %8 = tilus.exp2 %7 : !tilus.reg<64x128xf32>
  %9 = tilus.log %8 : !tilus.reg<64x128xf32>
  %10 = tilus.sqrt %9 : !tilus.reg<64x128xf32>
  %11 = tilus.rsqrt %10 : !tilus.reg<64x128xf32>
  %12 = tilus.tanh %11 : !tilus.reg<64x128xf32>
  %13 = tilus.neg %12 : !tilus.reg<64x128xf32>
  %14 = tilus.abs %4 : !tilus.reg<64x128xi32>
  %m = tilus.cmp lt %13, %b : (!tilus.reg<64x128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<64x128xi1>
  %w = tilus.where %m, %13, %e : (!tilus.reg<64x128xi1>, !tilus.reg<64x128xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<64x128xf32>
  %any = tilus.reduce any %m dim(0) : !tilus.reg<64x128xi1> -> !tilus.reg<128xi1>
  %all = tilus.reduce all %m dim(1) : !tilus.reg<64x128xi1> -> !tilus.reg<64xi1>
  %min = tilus.reduce min %w dim(0) keepdim : !tilus.reg<64x128xf32> -> !tilus.reg<1x128xf32>
}

// -----

// Shared tensors, views and dot: a two-stage K loop of a 64x32 tile, B stored [N, K].
// CHECK-LABEL: tilus.kernel @matmul(
// CHECK:         %1 = tilus.global_view %b[%k] : !tilus.ptr<f16> -> !tilus.global<32x?xf16>
// CHECK-NEXT:    %2 = tilus.shared_tensor : !tilus.shared<2x64x32xf16, swizzle = 64B>
// CHECK-NEXT:    %3 = tilus.shared_tensor : !tilus.shared<32x32xf16>
// CHECK:         %4 = tilus.register_tensor init(%cst : f32) : !tilus.reg<64x32xf32>
// CHECK:         %5 = scf.for %arg0 = %c0_i32 to %k step %c32_i32 iter_args(%arg1 = %4) -> (!tilus.reg<64x32xf32>)  : i32 {
// CHECK-NEXT:      %6 = arith.remsi %arg0, %c1_i32 : i32
// CHECK-NEXT:      %7 = tilus.slice_shared %2[%6] : !tilus.shared<2x64x32xf16, swizzle = 64B> -> !tilus.shared<64x32xf16, swizzle = 64B>
// CHECK-NEXT:      %8 = tilus.load_global %0[%c0_i32, %arg0] : !tilus.global<?x?xf16> -> !tilus.reg<64x32xf16>
// CHECK-NEXT:      tilus.store_shared %8, %7 : !tilus.reg<64x32xf16>, !tilus.shared<64x32xf16, swizzle = 64B>
// CHECK:           threadgroup.sync
// CHECK-NEXT:      %10 = tilus.permute_shared %3 [1, 0] : !tilus.shared<32x32xf16> -> !tilus.shared<32x32xf16, strides = [1, 32]>
// CHECK-NEXT:      %11 = tilus.load_shared %7 : !tilus.shared<64x32xf16, swizzle = 64B> -> !tilus.reg<64x32xf16>
// CHECK-NEXT:      %12 = tilus.load_shared %10 : !tilus.shared<32x32xf16, strides = [1, 32]> -> !tilus.reg<32x32xf16>
// CHECK-NEXT:      %13 = tilus.dot %11, %12, %arg1 : (!tilus.reg<64x32xf16>, !tilus.reg<32x32xf16>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
// CHECK:         }
// CHECK-NEXT:    tilus.free_shared %2 : !tilus.shared<2x64x32xf16, swizzle = 64B>
// CHECK-NEXT:    tilus.free_shared %3 : !tilus.shared<32x32xf16>
// GENERIC-LABEL: sym_name = "matmul"
// GENERIC:         "tilus.shared_tensor"() : () -> !tilus.shared<2x64x32xf16, swizzle = 64B>
// GENERIC:         "tilus.slice_shared"(%{{.*}}, %{{.*}}) : (!tilus.shared<2x64x32xf16, swizzle = 64B>, i32) -> !tilus.shared<64x32xf16, swizzle = 64B>
// GENERIC:         "tilus.permute_shared"(%{{.*}}) <{perm = array<i64: 1, 0>}> : (!tilus.shared<32x32xf16>) -> !tilus.shared<32x32xf16, strides = [1, 32]>
// GENERIC:         "tilus.dot"(%{{.*}}, %{{.*}}, %{{.*}}) : (!tilus.reg<64x32xf16>, !tilus.reg<32x32xf16>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
// GENERIC:         "tilus.free_shared"(%{{.*}}) : (!tilus.shared<2x64x32xf16, swizzle = 64B>) -> ()
tilus.kernel @matmul(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %m: i32, %k: i32) warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d2 ceildiv 64)>) {
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%k] : !tilus.ptr<f16> -> !tilus.global<32x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<2x64x32xf16, swizzle = 64B>
  %sb = tilus.shared_tensor : !tilus.shared<32x32xf16>
  %zero = arith.constant 0.0 : f32
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x32xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %acc = scf.for %kk = %c0 to %k step %c32 iter_args(%c = %acc0) -> (!tilus.reg<64x32xf32>) : i32 {
    %stage = arith.remsi %kk, %c1 : i32
    %sa_s = tilus.slice_shared %sa[%stage] : !tilus.shared<2x64x32xf16, swizzle = 64B> -> !tilus.shared<64x32xf16, swizzle = 64B>
    %ra = tilus.load_global %ga[%c0, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<64x32xf16>
    tilus.store_shared %ra, %sa_s : !tilus.reg<64x32xf16>, !tilus.shared<64x32xf16, swizzle = 64B>
    %rb = tilus.load_global %gb[%c0, %kk] : !tilus.global<32x?xf16> -> !tilus.reg<32x32xf16>
    tilus.store_shared %rb, %sb : !tilus.reg<32x32xf16>, !tilus.shared<32x32xf16>
    threadgroup.sync
    %sbt = tilus.permute_shared %sb [1, 0] : !tilus.shared<32x32xf16> -> !tilus.shared<32x32xf16, strides = [1, 32]>
    %xa = tilus.load_shared %sa_s : !tilus.shared<64x32xf16, swizzle = 64B> -> !tilus.reg<64x32xf16>
    %xb = tilus.load_shared %sbt : !tilus.shared<32x32xf16, strides = [1, 32]> -> !tilus.reg<32x32xf16>
    %d = tilus.dot %xa, %xb, %c : (!tilus.reg<64x32xf16>, !tilus.reg<32x32xf16>, !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>
    threadgroup.sync
    scf.yield %d : !tilus.reg<64x32xf32>
  }
  tilus.free_shared %sa : !tilus.shared<2x64x32xf16, swizzle = 64B>
  tilus.free_shared %sb : !tilus.shared<32x32xf16>
}

// -----

// Grouped rasterisation with fast_divmod, ids, a per-warp stencil with shuffles, and a
// semaphore taken and released by one thread; a 2-CTA cluster.
// CHECK-LABEL: tilus.kernel @schedule(%sems: !tilus.global<?xi32>, %tiles_n: i32, %x: !tilus.reg<128xf32, layout = spatial(128)>) warps(4) blocks(#map) cluster(2, 1, 1) {
// CHECK-NEXT:    %0 = tilus.block_id x
// CHECK-NEXT:    %1 = tilus.block_id y
// CHECK-NEXT:    %2 = tilus.block_id z
// CHECK-NEXT:    %3 = tilus.num_blocks x
// CHECK-NEXT:    %4 = tilus.num_blocks y
// CHECK-NEXT:    %5 = tilus.num_blocks z
// CHECK:         %7:2 = tilus.fast_divmod %0, %6
// CHECK-NEXT:    %8:2 = tilus.fast_divmod %7#1, %3
// CHECK-NEXT:    %9 = tilus.thread_id
// CHECK-NEXT:    %10 = tilus.warp_id
// CHECK-NEXT:    %11 = tilus.lane_id
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %12 = tilus.shuffle_up %x, %c1_i32 : !tilus.reg<128xf32, layout = spatial(128)>
// CHECK-NEXT:    %13 = tilus.shuffle_down %x, %c1_i32 : !tilus.reg<128xf32, layout = spatial(128)>
// CHECK-NEXT:    threadgroup.single_warp warp(1) {
// CHECK-NEXT:      %14 = tilus.register_tensor : !tilus.reg<32x4xf32, layout = spatial(32, 1) * local(1, 4)>
// CHECK-NEXT:      %15 = tilus.thread_id
// CHECK-NEXT:      threadgroup.single_thread {
// CHECK-NEXT:        tilus.lock_semaphore %sems[%7#0], %c1_i32 : !tilus.global<?xi32>
// CHECK-NEXT:        tilus.release_semaphore %sems[%7#0], %c8_i32 : !tilus.global<?xi32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// GENERIC-LABEL: "tilus.kernel"() <{arg_names = ["sems", "tiles_n", "x"], blocks = #map, cluster = array<i64: 2, 1, 1>, function_type = (!tilus.global<?xi32>, i32, !tilus.reg<128xf32, layout = spatial(128)>) -> (), sym_name = "schedule", warps = 4 : i64}> ({
// GENERIC:         "tilus.num_blocks"() <{dim = 2 : i64}> : () -> i32
// GENERIC:         "tilus.fast_divmod"(%{{.*}}, %{{.*}}) : (i32, i32) -> (i32, i32)
// GENERIC:         "tilus.thread_id"() : () -> i32
// GENERIC-NEXT:    "tilus.warp_id"() : () -> i32
// GENERIC-NEXT:    "tilus.lane_id"() : () -> i32
// GENERIC:         "tilus.shuffle_up"(%arg2, %{{.*}}) : (!tilus.reg<128xf32, layout = spatial(128)>, i32) -> !tilus.reg<128xf32, layout = spatial(128)>
// GENERIC:         "tilus.lock_semaphore"(%arg0, %{{.*}}, %{{.*}}) : (!tilus.global<?xi32>, i32, i32) -> ()
tilus.kernel @schedule(%sems: !tilus.global<?xi32>, %tiles_n: i32, %x: !tilus.reg<128xf32, layout = spatial(128)>) warps(4) blocks(affine_map<(d0, d1, d2) -> (d1 * 8, 1, 1)>) cluster(2, 1, 1) {
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %bz = tilus.block_id z
  %nx = tilus.num_blocks x
  %ny = tilus.num_blocks y
  %nz = tilus.num_blocks z
  %c8 = arith.constant 8 : i32
  %group = arith.muli %tiles_n, %c8 : i32
  %q, %r = tilus.fast_divmod %bx, %group
  %q2, %r2 = tilus.fast_divmod %r, %nx
  %tid = tilus.thread_id
  %wid = tilus.warp_id
  %lane = tilus.lane_id
  %c1 = arith.constant 1 : i32
  %left = tilus.shuffle_up %x, %c1 : !tilus.reg<128xf32, layout = spatial(128)>
  %right = tilus.shuffle_down %x, %c1 : !tilus.reg<128xf32, layout = spatial(128)>
  threadgroup.single_warp warp(1) {
    %own = tilus.register_tensor : !tilus.reg<32x4xf32, layout = spatial(32, 1) * local(1, 4)>
    %wt = tilus.thread_id
    threadgroup.single_thread {
      tilus.lock_semaphore %sems[%q], %c1 : !tilus.global<?xi32>
      tilus.release_semaphore %sems[%q], %c8 : !tilus.global<?xi32>
    }
  }
}
