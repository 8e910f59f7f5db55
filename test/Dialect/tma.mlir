// tma: every op in custom form, its generic form, and round trips through the generic form,
// by tilus-opt and by MLIR's mlir-opt (which reads it as ops of an unregistered dialect).
// REQUIRES: mlir-opt
// RUN: tilus-opt %s --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --split-input-file --print-op-generic | tilus-opt --split-input-file | FileCheck %s
// RUN: tilus-opt %s --split-input-file --print-op-generic \
// RUN:   | mlir-opt --split-input-file --allow-unregistered-dialect --mlir-print-op-generic \
// RUN:   | tilus-opt --split-input-file | FileCheck %s

// Loads: one warp issues, after one thread announced the bytes. The kernel has a cluster of 2:
// cta_group(2) needs a CTA pair, and mask %mask names CTAs of the cluster.
// CHECK-LABEL: tilus.kernel @loads(
// CHECK:         %[[G:.*]] = tilus.global_view {{.*}} -> !tilus.global<?x4096xf16>
// CHECK-NEXT:    %[[G3:.*]] = tilus.global_view {{.*}} -> !tilus.global<8x?x64xf16, strides = [?, 64, 1]>
// CHECK-NEXT:    %[[S:.*]] = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[BARS:.*]] = mbarrier.alloc counts [1, 1] : !mbarrier.barriers<2>
// CHECK:         threadgroup.single_warp warp(1) {
// CHECK-NEXT:      tma.global_to_shared %[[G]][%[[M:.*]], %[[K:.*]] : i32, index], %[[S]], %[[BARS]][%[[C0:.*]] : i32] : !tilus.global<?x4096xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<2>
// CHECK-NEXT:      tma.global_to_shared %[[G]][%[[M]], %[[M]] : i32, i32], %[[S]], %[[BARS]][%[[K]] : index] multicast(%[[MASK:.*]]) cta_group(2) : !tilus.global<?x4096xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<2>
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.single_thread {
// CHECK-NEXT:      tma.global_to_shared %[[G3]][%[[M]], %[[M]], %[[M]] : i32, i32, i32], %[[S]], %[[BARS]][%[[C0]] : i32] dims array<i64: 1, 2> : !tilus.global<8x?x64xf16, strides = [?, 64, 1]>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<2>
// CHECK-NEXT:    }

// GENERIC-LABEL: "tilus.kernel"
// GENERIC:       "tma.global_to_shared"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 2, 1, 1, 1, 0>}> : (!tilus.global<?x4096xf16>, i32, index, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<2>, i32) -> ()
// GENERIC-NEXT:  "tma.global_to_shared"(%{{.*}}) <{cta_group = 2 : i64, operandSegmentSizes = array<i32: 1, 2, 1, 1, 1, 1>}> : (!tilus.global<?x4096xf16>, i32, i32, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<2>, index, i32) -> ()
// GENERIC:       "tma.global_to_shared"(%{{.*}}) <{dims = array<i64: 1, 2>, operandSegmentSizes = array<i32: 1, 3, 1, 1, 1, 0>}>
tilus.kernel @loads(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %m: i32, %ld: i32, %mask: i32) warps(4)
    blocks(affine_map<(d0, d1, d2, d3, d4) -> (d2 ceildiv 64)>) cluster(2) {
  %g = tilus.global_view %a[%m] : !tilus.ptr<f16> -> !tilus.global<?x4096xf16>
  %g3 = tilus.global_view %b[%m] strides[%ld] : !tilus.ptr<f16> -> !tilus.global<8x?x64xf16, strides = [?, 64, 1]>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  %bars = mbarrier.alloc counts [1, 1] : !mbarrier.barriers<2>
  %c0 = arith.constant 0 : i32
  %k = arith.constant 1 : index
  threadgroup.single_warp warp(1) {
    tma.global_to_shared %g[%m, %k : i32, index], %s, %bars[%c0 : i32]
        : !tilus.global<?x4096xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<2>
    tma.global_to_shared %g[%m, %m : i32, i32], %s, %bars[%k : index] multicast(%mask) cta_group(2)
        : !tilus.global<?x4096xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<2>
  }
  threadgroup.single_thread {
    tma.global_to_shared %g3[%m, %m, %m : i32, i32, i32], %s, %bars[%c0 : i32] dims array<i64: 1, 2>
        : !tilus.global<8x?x64xf16, strides = [?, 64, 1]>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<2>
  }
}

// -----

// The TMA-store epilogue: every thread fences its generic-proxy writes, the block syncs, one
// warp stores, commits, and waits until the source has been read.
// CHECK-LABEL: tilus.kernel @stores(
// CHECK:         %[[G:.*]] = tilus.global_view {{.*}} -> !tilus.global<?x?xf32, strides = [?, 1]>
// CHECK-NEXT:    %[[S:.*]] = tilus.shared_tensor : !tilus.shared<64x32xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    tma.fence_proxy_async shared
// CHECK-NEXT:    tma.fence_proxy_async global
// CHECK-NEXT:    tma.fence_proxy_async_release
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:    threadgroup.single_warp {
// CHECK-NEXT:      tma.shared_to_global %[[S]], %[[G]][%[[C0]], %[[C0]] : index, index] : !tilus.shared<64x32xf32>, !tilus.global<?x?xf32, strides = [?, 1]>
// CHECK-NEXT:      tma.shared_to_global %[[S]], %[[G]][%[[C0]], %[[C0]] : index, index] {note = "kept"} : !tilus.shared<64x32xf32>, !tilus.global<?x?xf32, strides = [?, 1]>
// CHECK-NEXT:      tma.commit_group
// CHECK-NEXT:      tma.wait_group 0 read
// CHECK-NEXT:      tma.wait_group 6 {note = "kept"}
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:  }

// GENERIC-LABEL: "tilus.kernel"
// GENERIC:       "tma.fence_proxy_async"() <{space = 0 : i64}> : () -> ()
// GENERIC-NEXT:  "tma.fence_proxy_async"() <{space = 1 : i64}> : () -> ()
// GENERIC-NEXT:  "tma.fence_proxy_async_release"() : () -> ()
// GENERIC:       "tma.shared_to_global"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!tilus.shared<64x32xf32>, !tilus.global<?x?xf32, strides = [?, 1]>, index, index) -> ()
// GENERIC-NEXT:  "tma.shared_to_global"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {note = "kept"} : (!tilus.shared<64x32xf32>, !tilus.global<?x?xf32, strides = [?, 1]>, index, index) -> ()
// GENERIC-NEXT:  "tma.commit_group"() : () -> ()
// GENERIC-NEXT:  "tma.wait_group"() <{n = 0 : i64, read}> : () -> ()
// GENERIC-NEXT:  "tma.wait_group"() <{n = 6 : i64}> {note = "kept"} : () -> ()
tilus.kernel @stores(%c: !tilus.ptr<f32>, %m: i32, %n: i32, %ld: i32) warps(4)
    blocks(affine_map<(d0, d1, d2, d3) -> (d1 ceildiv 64, d2 ceildiv 32)>) {
  %g = tilus.global_view %c[%m, %n] strides[%ld] : !tilus.ptr<f32> -> !tilus.global<?x?xf32, strides = [?, 1]>
  %s = tilus.shared_tensor : !tilus.shared<64x32xf32>
  %c0 = arith.constant 0 : index
  tma.fence_proxy_async shared
  tma.fence_proxy_async global
  tma.fence_proxy_async_release
  threadgroup.sync
  threadgroup.single_warp {
    tma.shared_to_global %s, %g[%c0, %c0 : index, index] : !tilus.shared<64x32xf32>, !tilus.global<?x?xf32, strides = [?, 1]>
    tma.shared_to_global %s, %g[%c0, %c0 : index, index] {note = "kept"} : !tilus.shared<64x32xf32>, !tilus.global<?x?xf32, strides = [?, 1]>
    tma.commit_group
    tma.wait_group 0 read
    tma.wait_group 6 {note = "kept"}
  }
  threadgroup.sync
}

// -----

// Outside a kernel (a unit-test function) group shapes are unknown and not checked.
// CHECK-LABEL: func.func @outside_kernel(
// CHECK:         tma.global_to_shared
// CHECK-NEXT:    tma.commit_group
func.func @outside_kernel(%g: !tilus.global<128x64xf16>, %s: !tilus.shared<64x64xf16>, %bars: !mbarrier.barriers<1>, %i: i32) {
  tma.global_to_shared %g[%i, %i : i32, i32], %s, %bars[%i : i32] : !tilus.global<128x64xf16>, !tilus.shared<64x64xf16>, !mbarrier.barriers<1>
  tma.commit_group
  return
}
