// lower-async-to-ptx on TMA ops: one !ptx.tensormap parameter per site, recorded in
// tilus.tensor_maps; coordinates innermost first; leader-lane guard in a warp; groups and fences.
// The sizes of each map are affine maps over the kernel parameters (symbol sN is parameter N):
// extents innermost first, byte strides, and the element offset of the box origin.
// RUN: tilus-opt %s --split-input-file --lower-async-to-ptx | FileCheck %s
// async-tma-mlir-opt.mlir checks that the maps survive the generic form and mlir-opt.

// CHECK:      #[[ZERO:map[0-9]*]] = affine_map<()[s0, s1, s2, s3, s4, s5] -> (0)>
// CHECK-NEXT: #[[DIMS:map[0-9]*]] = affine_map<()[s0, s1, s2, s3, s4, s5] -> (s2, s1)>
// CHECK-NEXT: #[[STRIDES:map[0-9]*]] = affine_map<()[s0, s1, s2, s3, s4, s5] -> (s2 * 2)>
// CHECK:      #[[ZERO8:map[0-9]*]] = affine_map<()[s0, s1, s2, s3, s4, s5, s6, s7] -> (0)>
// CHECK-NEXT: #[[DIMS8:map[0-9]*]] = affine_map<()[s0, s1, s2, s3, s4, s5, s6, s7] -> (s4, s1)>
// CHECK-NEXT: #[[STRIDES8:map[0-9]*]] = affine_map<()[s0, s1, s2, s3, s4, s5, s6, s7] -> (s4 * 2)>
// CHECK-LABEL: tilus.kernel @tma(
// CHECK-SAME:    %[[PA:[^:]*]]: !tilus.ptr<f16>, %{{[^:]*}}: i32, %{{[^:]*}}: i32, %{{[^:]*}}: !tilus.ptr<f16>, %{{[^:]*}}: i32, %[[M0:[^:]*]]: !ptx.tensormap, %[[M1:[^:]*]]: !ptx.tensormap, %[[M2:[^:]*]]: !ptx.tensormap)
// CHECK-SAME:    attributes {tilus.tensor_maps = [
// CHECK-SAME:    {base_offset = #[[ZERO]], box_dims = array<i64: 64, 128>, direction = "load", dtype = "f16", global_dims = #[[DIMS]], global_strides = #[[STRIDES]], param = 5 : i64, pointer = 0 : i64, swizzle = "128B"},
// CHECK-SAME:    {{{.*}}param = 6 : i64, pointer = 0 : i64, swizzle = "128B"},
// CHECK-SAME:    {base_offset = #[[ZERO8]], box_dims = array<i64: 64, 64>, direction = "store", dtype = "f16", global_dims = #[[DIMS8]], global_strides = #[[STRIDES8]], param = 7 : i64, pointer = 3 : i64, swizzle = "none"}]}
// The kernel runs in clusters of 2 and multicasts: every CTA's barriers are initialized before
// any CTA goes on (a cluster barrier instead of bar.sync).
// CHECK:         ptx.inst "fence.mbarrier_init.release.cluster"
// CHECK-NEXT:    ptx.inst "barrier.cluster.arrive.release.aligned"
// CHECK-NEXT:    ptx.inst "barrier.cluster.wait.acquire.aligned"
// CHECK-NEXT:    %[[E:.*]] = ptx.asm "elect.sync _|$0, 0xffffffff;" : () -> i1
// CHECK:         %[[X:.*]] = tilus.block_id x
// CHECK:         threadgroup.single_thread {
// CHECK-NEXT:      %[[D:.*]] = tilus.shared_addr
// CHECK-NEXT:      %[[B:.*]] = mbarrier.addr
// CHECK-NEXT:      ptx.inst "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" [%[[D]]], [%[[M0]], {%{{.*}}, %[[X]]}], [%[[B]]] : (i32, !ptx.tensormap, i32, i32, i32) -> ()
// CHECK:         threadgroup.single_warp {
// CHECK:           %[[MASK:.*]] = ptx.inst "cvt.u16.u32" %{{.*}} : (i32) -> i16
// CHECK-NEXT:      ptx.inst "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" [%{{.*}}], [%[[M1]], {%{{.*}}, %[[X]]}], [%{{.*}}], %[[MASK]] if %[[E]] : (i32, !ptx.tensormap, i32, i32, i32, i16) -> ()
// CHECK:         ptx.inst "fence.proxy.async.shared::cta"
// CHECK-NEXT:    ptx.inst "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster"
// CHECK-NEXT:    ptx.inst "fence.proxy.async.global"
// CHECK:           ptx.inst "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" [%[[M2]], {%{{.*}}, %[[X]]}], [%{{.*}}] if %[[E]] : (!ptx.tensormap, i32, i32, i32) -> ()
// CHECK-NEXT:      ptx.inst "cp.async.bulk.commit_group"
// CHECK-NEXT:      ptx.inst "cp.async.bulk.wait_group.read" 0
// CHECK-NEXT:      ptx.inst "cp.async.bulk.wait_group" 1
tilus.kernel @tma(%pa: !tilus.ptr<f16>, %m: i32, %k: i32, %pc: !tilus.ptr<f16>, %n: i32) warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d1 ceildiv 128)>) cluster(2, 1, 1) {
  %ga = tilus.global_view %pa[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %pc[%m, %n] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [?, 1]>
  %sa = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sc = tilus.shared_tensor : !tilus.shared<64x64xf16>
  %bars = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  %i0 = arith.constant 0 : index
  %x = tilus.block_id x
  threadgroup.single_thread {
    tma.global_to_shared %ga[%x, %c0 : i32, i32], %sa, %bars[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
  threadgroup.single_warp {
    %mask = arith.constant 3 : i32
    tma.global_to_shared %ga[%x, %c0 : i32, i32], %sa, %bars[%i0 : index] multicast(%mask) : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
  tma.fence_proxy_async shared
  tma.fence_proxy_async_release
  tma.fence_proxy_async global
  threadgroup.single_warp {
    tma.shared_to_global %sc, %gc[%x, %c0 : i32, i32] : !tilus.shared<64x64xf16>, !tilus.global<?x?xf16, strides = [?, 1]>
    tma.commit_group
    tma.wait_group 0 read
    tma.wait_group 1
  }
}

// -----

// A box over dims 1 and 2 of a 3-D view: dim 0's offset (parameter 1) folds into the map's base.
// CHECK:      #[[BASE:map[0-9]*]] = affine_map<()[s0, s1, s2] -> (s1 * 8192)>
// CHECK-NEXT: #[[FDIMS:map[0-9]*]] = affine_map<()[s0, s1, s2] -> (128, 64)>
// CHECK-NEXT: #[[FSTRIDES:map[0-9]*]] = affine_map<()[s0, s1, s2] -> (256)>
// CHECK-LABEL: tilus.kernel @folded(
// CHECK-SAME:    {base_offset = #[[BASE]], box_dims = array<i64: 64, 64>, direction = "load", dtype = "f16", global_dims = #[[FDIMS]], global_strides = #[[FSTRIDES]], param = 2 : i64, pointer = 0 : i64, swizzle = "128B"}
// CHECK:         ptx.inst "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
tilus.kernel @folded(%p: !tilus.ptr<f16>, %b: i32) warps(1) blocks(affine_map<(d0, d1) -> (1)>) {
  %g = tilus.global_view %p : !tilus.ptr<f16> -> !tilus.global<4x64x128xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  %bars = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %c0 = arith.constant 0 : i32
  threadgroup.single_thread {
    tma.global_to_shared %g[%b, %c0, %c0 : i32, i32, i32], %s, %bars[%c0 : i32] dims array<i64: 1, 2> : !tilus.global<4x64x128xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
}
