// lower-async-to-ptx on tcgen05 ops (sm_100a): TMEM tensors become 32-bit addresses; alloc
// through a shared slot, mma with the instruction descriptor, commit, ld/st on register tiles
// (expanded by lower-tiles, hence --verify-each=false), cp, waits, fences, dealloc.
// RUN: tilus-opt %s --lower-async-to-ptx --verify-each=false | FileCheck %s

// CHECK-LABEL: tilus.kernel @matmul(
// CHECK-SAME:    attributes {tilus.ptx_target = "sm_100a"}
// CHECK:         %[[E:.*]] = ptx.asm "elect.sync _|$0, 0xffffffff;" : () -> i1
// CHECK:         %[[SLOT:.*]] = tilus.shared_tensor : !tilus.shared<1xi32>
// CHECK-NEXT:    %[[SA:.*]] = tilus.shared_addr %[[SLOT]]
// CHECK-NEXT:    %[[W:.*]] = tilus.warp_id
// CHECK-NEXT:    %[[P:.*]] = ptx.inst "setp.eq.u32" %[[W]], 0
// CHECK-NEXT:    ptx.inst "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32" [%[[SA]]], 512 if %[[P]] : (i32) -> ()
// CHECK-NEXT:    ptx.inst "tcgen05.fence::before_thread_sync"
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:    ptx.inst "tcgen05.fence::after_thread_sync"
// CHECK-NEXT:    %[[T:.*]] = ptx.inst "ld.shared.b32" [%[[SA]]] : (i32) -> i32
// CHECK:         threadgroup.single_warp warp(1) {
// CHECK:           ptx.inst "tcgen05.mma.cta_group::1.kind::f16" [%{{.*}}], %{{.*}}, %{{.*}}, 0x08400010, %{{.*}} if %[[E]] : (i32, i64, i64, i1) -> ()
// CHECK-COUNT-3:   ptx.inst "tcgen05.mma.cta_group::1.kind::f16"
// CHECK:           ptx.inst "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64" [%{{.*}}] if %[[E]] : (i32) -> ()
// CHECK:         ptx.inst "tcgen05.ld.sync.aligned.32x32b.x32.b32" {%{{.*}}}, [%{{.*}}] {tile_block = array<i64: 0, 1>}
// CHECK-NEXT:    ptx.inst "tcgen05.wait::ld.sync.aligned"
// CHECK:         ptx.inst "tcgen05.st.sync.aligned.32x32b.x32.b32" [%{{.*}}], {%{{.*}}} {tile_block = array<i64: 0, 1>}
// CHECK-NEXT:    ptx.inst "tcgen05.wait::st.sync.aligned"
// CHECK-COUNT-8:   ptx.inst "tcgen05.cp.cta_group::1.128x128b" [%{{.*}}], %{{.*}} if %[[E]] : (i32, i64) -> ()
// CHECK:         ptx.inst "tcgen05.fence::before_thread_sync"
// CHECK-NEXT:    threadgroup.sync
// CHECK:         ptx.inst "tcgen05.dealloc.cta_group::1.sync.aligned.b32" %[[T]], 512 if %{{.*}} : (i32) -> ()
// CHECK-NEXT:    ptx.inst "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned"
// CHECK-NOT:     tcgen05.
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
  %sc = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  threadgroup.single_warp {
    tcgen05.cp %sc, %v : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.tmem<128x64xf16>
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
