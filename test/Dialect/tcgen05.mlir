// tcgen05: allocation, MMA, commit, TMEM loads/stores/copies, views and fences in custom and
// generic form; the generic form is read back by tilus-opt and by mlir-opt.
// REQUIRES: mlir-opt
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-opt %s | tilus-opt | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | tilus-opt | FileCheck %s

// Blackwell v3/v5-style: a two-stage 128x256 f32 accumulator (512 columns), one MMA warp,
// and an epilogue of all four warps that reads a 32-column slab of a stage.
// CHECK-LABEL: tilus.kernel @matmul
// CHECK:         %[[T:.*]] = tcgen05.alloc : !tilus.tmem<128x2x256xf32>
// CHECK-NEXT:    tcgen05.fence_after_thread_sync
// CHECK-NEXT:    threadgroup.single_warp warp(1) {
// CHECK-NEXT:      %[[ACC:.*]] = tcgen05.slice %[[T]][%{{.*}}, %{{.*}}] : !tilus.tmem<128x2x256xf32> -> !tilus.tmem<128x256xf32>
// CHECK-NEXT:      tcgen05.mma %{{.*}}, %{{.*}}, %[[ACC]], enable_input_d(%{{.*}}) : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.tmem<128x256xf32>
// CHECK-NEXT:      tcgen05.commit %{{.*}}[%{{.*}} : i32] : !mbarrier.barriers<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    tcgen05.fence_after_thread_sync
// CHECK-NEXT:    %[[S:.*]] = tcgen05.slice %[[T]][%{{.*}}, %{{.*}}] : !tilus.tmem<128x2x256xf32> -> !tilus.tmem<128x256xf32>
// CHECK-NEXT:    %[[E:.*]] = tcgen05.slice %[[S]][%{{.*}}] : !tilus.tmem<128x256xf32> -> !tilus.tmem<128x32xf32>
// CHECK-NEXT:    %[[R:.*]] = tcgen05.ld %[[E]] : !tilus.tmem<128x32xf32> -> !tilus.reg<128x32xf32, layout = local(1, 32) * spatial(128, 1)>
// CHECK-NEXT:    tcgen05.wait_ld
// CHECK-NEXT:    tcgen05.st %[[R]], %[[E]] : !tilus.reg<128x32xf32, layout = local(1, 32) * spatial(128, 1)>, !tilus.tmem<128x32xf32>
// CHECK-NEXT:    tcgen05.wait_st
// CHECK-NEXT:    %[[V:.*]] = tcgen05.view %[[E]] : !tilus.tmem<128x32xf32> -> !tilus.tmem<128x64xf16>
// CHECK:         threadgroup.single_warp {
// CHECK-NEXT:      tcgen05.cp %{{.*}}, %[[V]] : !tilus.shared<128x64xf16>, !tilus.tmem<128x64xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.single_warp warp(1) {
// CHECK-NEXT:      %[[Q:.*]] = tcgen05.slice %[[E]][%{{.*}}] lane_offset(32) : !tilus.tmem<128x32xf32> -> !tilus.tmem<32x32xf32>
// CHECK-NEXT:      %{{.*}} = tcgen05.ld %[[Q]] : !tilus.tmem<32x32xf32> -> !tilus.reg<32x32xf32, layout = local(1, 32) * spatial(32, 1)>
// CHECK-NEXT:    }
// CHECK-NEXT:    tcgen05.fence_before_thread_sync
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:    tcgen05.dealloc %[[T]] : !tilus.tmem<128x2x256xf32>
// CHECK-NEXT:    tcgen05.relinquish_alloc_permit
// GENERIC-LABEL: "tilus.kernel"
// GENERIC:         %{{.*}} = "tcgen05.alloc"() : () -> !tilus.tmem<128x2x256xf32>
// GENERIC-NEXT:    "tcgen05.fence_after_thread_sync"() : () -> ()
// GENERIC:         "tcgen05.slice"(%{{.*}}, %{{.*}}, %{{.*}}) : (!tilus.tmem<128x2x256xf32>, index, index) -> !tilus.tmem<128x256xf32>
// GENERIC-NEXT:    "tcgen05.mma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.tmem<128x256xf32>, i1) -> ()
// GENERIC-NEXT:    "tcgen05.commit"(%{{.*}}, %{{.*}}) : (!mbarrier.barriers<1>, i32) -> ()
// GENERIC:         "tcgen05.ld"(%{{.*}}) : (!tilus.tmem<128x32xf32>) -> !tilus.reg<128x32xf32, layout = local(1, 32) * spatial(128, 1)>
// GENERIC-NEXT:    "tcgen05.wait_ld"() : () -> ()
// GENERIC-NEXT:    "tcgen05.st"(%{{.*}}, %{{.*}}) : (!tilus.reg<128x32xf32, layout = local(1, 32) * spatial(128, 1)>, !tilus.tmem<128x32xf32>) -> ()
// GENERIC-NEXT:    "tcgen05.wait_st"() : () -> ()
// GENERIC-NEXT:    "tcgen05.view"(%{{.*}}) : (!tilus.tmem<128x32xf32>) -> !tilus.tmem<128x64xf16>
// GENERIC:         "tcgen05.cp"(%{{.*}}, %{{.*}}) : (!tilus.shared<128x64xf16>, !tilus.tmem<128x64xf16>) -> ()
// GENERIC:         "tcgen05.slice"(%{{.*}}, %{{.*}}) <{lane_offset = 32 : i64}> : (!tilus.tmem<128x32xf32>, index) -> !tilus.tmem<32x32xf32>
// GENERIC:         "tcgen05.fence_before_thread_sync"() : () -> ()
// GENERIC:         "tcgen05.dealloc"(%{{.*}}) : (!tilus.tmem<128x2x256xf32>) -> ()
// GENERIC-NEXT:    "tcgen05.relinquish_alloc_permit"() : () -> ()
tilus.kernel @matmul() warps(4) blocks(affine_map<() -> (1)>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %i0 = arith.constant 0 : i32
  %true = arith.constant true
  %sa = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sbt = tilus.shared_tensor : !tilus.shared<256x64xf16, swizzle = 128B>
  %sb = tilus.permute_shared %sbt [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
  %bars = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %t = tcgen05.alloc : !tilus.tmem<128x2x256xf32>
  tcgen05.fence_after_thread_sync
  threadgroup.single_warp warp(1) {
    %acc = tcgen05.slice %t[%c0, %c0] : !tilus.tmem<128x2x256xf32> -> !tilus.tmem<128x256xf32>
    tcgen05.mma %sa, %sb, %acc, enable_input_d(%true) : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.tmem<128x256xf32>
    tcgen05.commit %bars[%i0 : i32] : !mbarrier.barriers<1>
  }
  tcgen05.fence_after_thread_sync
  %s = tcgen05.slice %t[%c1, %c0] : !tilus.tmem<128x2x256xf32> -> !tilus.tmem<128x256xf32>
  %e = tcgen05.slice %s[%c32] : !tilus.tmem<128x256xf32> -> !tilus.tmem<128x32xf32>
  %r = tcgen05.ld %e : !tilus.tmem<128x32xf32> -> !tilus.reg<128x32xf32, layout = spatial(128, 1) * local(1, 32)>
  tcgen05.wait_ld
  tcgen05.st %r, %e : !tilus.reg<128x32xf32, layout = spatial(128, 1) * local(1, 32)>, !tilus.tmem<128x32xf32>
  tcgen05.wait_st
  %v = tcgen05.view %e : !tilus.tmem<128x32xf32> -> !tilus.tmem<128x64xf16>
  %sc = tilus.shared_tensor : !tilus.shared<128x64xf16>
  threadgroup.single_warp {
    tcgen05.cp %sc, %v : !tilus.shared<128x64xf16>, !tilus.tmem<128x64xf16>
  }
  threadgroup.single_warp warp(1) {
    %q = tcgen05.slice %e[%c0] lane_offset(32) : !tilus.tmem<128x32xf32> -> !tilus.tmem<32x32xf32>
    %rq = tcgen05.ld %q : !tilus.tmem<32x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
  }
  tcgen05.fence_before_thread_sync
  threadgroup.sync
  tcgen05.dealloc %t : !tilus.tmem<128x2x256xf32>
  tcgen05.relinquish_alloc_permit
}

// Blackwell v6-style CTA pair: each CTA holds half of A (128 rows) and half of B (128
// columns) of one M = 256, N = 256 instruction; every tcgen05 op names cta_group 2.
// CHECK-LABEL: tilus.kernel @pair
// CHECK:         %[[T:.*]] = tcgen05.alloc cta_group(2) : !tilus.tmem<128x256xf32>
// CHECK:           tcgen05.mma %{{.*}}, %{{.*}}, %[[T]], enable_input_d(%{{.*}}) cta_group(2) : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.tmem<128x256xf32>
// CHECK-NEXT:      tcgen05.commit %{{.*}}[%{{.*}} : i32] multicast(%{{.*}}) cta_group(2) : !mbarrier.barriers<2>
// CHECK:         tcgen05.dealloc %[[T]] cta_group(2) : !tilus.tmem<128x256xf32>
// CHECK-NEXT:    tcgen05.relinquish_alloc_permit cta_group(2)
// GENERIC-LABEL: "tilus.kernel"
// GENERIC:         "tcgen05.alloc"() <{cta_group = 2 : i64}> : () -> !tilus.tmem<128x256xf32>
// GENERIC:         "tcgen05.mma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{cta_group = 2 : i64}>
// GENERIC:         "tcgen05.commit"(%{{.*}}, %{{.*}}, %{{.*}}) <{cta_group = 2 : i64}> : (!mbarrier.barriers<2>, i32, i32) -> ()
// GENERIC:         "tcgen05.dealloc"(%{{.*}}) <{cta_group = 2 : i64}>
// GENERIC:         "tcgen05.relinquish_alloc_permit"() <{cta_group = 2 : i64}>
tilus.kernel @pair() warps(8) blocks(affine_map<() -> (2)>) cluster(2, 1, 1) {
  %i1 = arith.constant 1 : i32
  %mask = arith.constant 3 : i32
  %false = arith.constant false
  %sa = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sbt = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sb = tilus.permute_shared %sbt [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
  %bars = mbarrier.alloc counts [1, 1] : !mbarrier.barriers<2>
  %t = tcgen05.alloc cta_group(2) : !tilus.tmem<128x256xf32>
  threadgroup.single_warp warp(1) {
    tcgen05.mma %sa, %sb, %t, enable_input_d(%false) cta_group(2) : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.tmem<128x256xf32>
    tcgen05.commit %bars[%i1 : i32] multicast(%mask) cta_group(2) : !mbarrier.barriers<2>
  }
  tcgen05.dealloc %t cta_group(2) : !tilus.tmem<128x256xf32>
  tcgen05.relinquish_alloc_permit cta_group(2)
}

// The other MMA kinds (tf32, f8f6f4 with mixed fp8 x fp4, i8 with mixed signedness), an A
// operand in tensor memory and M = 64; outside a kernel no group rule applies.
// CHECK-LABEL: func.func @kinds
// CHECK-NEXT:    tcgen05.mma %arg0, %arg1, %arg6, enable_input_d(%arg9) : !tilus.shared<128x8xtf32>, !tilus.shared<8x64xtf32>, !tilus.tmem<128x64xf32>
// CHECK-NEXT:    tcgen05.mma %arg2, %arg3, %arg7, enable_input_d(%arg9) : !tilus.shared<128x32xf8E4M3FN>, !tilus.shared<32x16xf4E2M1FN>, !tilus.tmem<128x16xf16>
// CHECK-NEXT:    tcgen05.mma %arg4, %arg5, %arg8, enable_input_d(%arg9) : !tilus.tmem<64x32xi8>, !tilus.shared<32x8xui8>, !tilus.tmem<64x8xi32>
func.func @kinds(%a0: !tilus.shared<128x8xtf32>, %b0: !tilus.shared<8x64xtf32>,
                 %a1: !tilus.shared<128x32xf8E4M3FN>, %b1: !tilus.shared<32x16xf4E2M1FN>,
                 %a2: !tilus.tmem<64x32xi8>, %b2: !tilus.shared<32x8xui8>,
                 %d0: !tilus.tmem<128x64xf32>, %d1: !tilus.tmem<128x16xf16>, %d2: !tilus.tmem<64x8xi32>,
                 %p: i1) {
  tcgen05.mma %a0, %b0, %d0, enable_input_d(%p) : !tilus.shared<128x8xtf32>, !tilus.shared<8x64xtf32>, !tilus.tmem<128x64xf32>
  tcgen05.mma %a1, %b1, %d1, enable_input_d(%p) : !tilus.shared<128x32xf8E4M3FN>, !tilus.shared<32x16xf4E2M1FN>, !tilus.tmem<128x16xf16>
  tcgen05.mma %a2, %b2, %d2, enable_input_d(%p) : !tilus.tmem<64x32xi8>, !tilus.shared<32x8xui8>, !tilus.tmem<64x8xi32>
  return
}
