// lower-async-to-ptx on mbarrier ops: init hoisted to entry, arrive forms, try_wait loops.
// RUN: tilus-opt %s --lower-async-to-ptx | FileCheck %s

// CHECK-LABEL: tilus.kernel @barriers(
// CHECK-NEXT:    %[[B:.*]] = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>
// CHECK-NEXT:    %[[ALL:.*]] = mbarrier.alloc counts [32] : !mbarrier.barriers<1>
// CHECK-NEXT:    %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    %[[P:.*]] = ptx.inst "setp.eq.u32" %[[T]], 0 : (i32) -> i1
// CHECK:         %[[A0:.*]] = mbarrier.addr %[[B]]
// CHECK-NEXT:    ptx.inst "mbarrier.init.shared::cta.b64" [%[[A0]]], 1 if %[[P]] : (i32) -> ()
// CHECK:         ptx.inst "mbarrier.init.shared::cta.b64" [%{{.*}}], 128 if %[[P]] : (i32) -> ()
// CHECK:         ptx.inst "mbarrier.init.shared::cta.b64" [%{{.*}}], 32 if %[[P]] : (i32) -> ()
// CHECK-NEXT:    ptx.inst "fence.mbarrier_init.release.cluster"
// CHECK-NEXT:    ptx.inst "bar.sync" 0
// CHECK-NEXT:    %[[A:.*]] = mbarrier.addr %[[B]][%i : i32] : !mbarrier.barriers<2> -> i32
// CHECK-NEXT:    ptx.inst "mbarrier.arrive.release.cta.shared::cta.b64" _, [%[[A]]], 1 : (i32) -> ()
// CHECK:         ptx.inst "mbarrier.arrive.relaxed.cluster.shared::cta.b64" _, [%{{.*}}], %c : (i32, i32) -> ()
// CHECK:         threadgroup.single_thread {
// CHECK:           ptx.inst "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64" _, [%{{.*}}], %b : (i32, i32) -> ()
// CHECK:           %[[R:.*]] = ptx.inst "mapa.shared::cluster.u32" %{{.*}}, %r : (i32, i32) -> i32
// CHECK-NEXT:      ptx.inst "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64" _, [%[[R]]], %b : (i32, i32) -> ()
// CHECK:         threadgroup.single_warp {
// CHECK-NEXT:      %[[TID:.*]] = tilus.thread_id
// CHECK-NEXT:      %[[SH:.*]] = ptx.inst "shr.b32" %m, %[[TID]] : (i32, i32) -> i32
// CHECK-NEXT:      %[[BIT:.*]] = ptx.inst "and.b32" %[[SH]], 1 : (i32) -> i32
// CHECK-NEXT:      %[[Q:.*]] = ptx.inst "setp.ne.u32" %[[BIT]], 0 : (i32) -> i1
// CHECK-NEXT:      %[[BA:.*]] = mbarrier.addr
// CHECK-NEXT:      %[[M:.*]] = ptx.inst "mapa.shared::cluster.u32" %[[BA]], %[[TID]] if %[[Q]] : (i32, i32) -> i32
// CHECK-NEXT:      ptx.inst "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64" _, [%[[M]]], %b if %[[Q]] : (i32, i32) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[W:.*]] = mbarrier.addr
// CHECK-NEXT:    ptx.asm "{\0A.reg .pred P;\0ALAB_WAIT:\0Ambarrier.try_wait.parity.acquire.cta.shared::cta.b64 P, [$0], $1, 50000;\0A@!P bra.uni LAB_WAIT;\0A}" %[[W]], %[[ONE]] : (i32, i32) -> ()
// CHECK:         ptx.asm "{{.*}}mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 P, [$0], $1, 50000;{{.*}}" %{{.*}}, %[[ZERO]]
// CHECK-NOT:     mbarrier.wait
tilus.kernel @barriers(%i: i32, %c: i32, %b: i32, %m: i32, %r: i32) warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (1)>) {
  %bars = mbarrier.alloc counts [1, 128] : !mbarrier.barriers<2>
  mbarrier.arrive %bars[%i : i32] : !mbarrier.barriers<2>
  mbarrier.arrive %bars[%i : i32] count(%c) sem(relaxed) scope(cluster) : !mbarrier.barriers<2>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bars[%i : i32], %b : !mbarrier.barriers<2>
    mbarrier.arrive_expect_tx_remote %bars[%i : i32], %b, rank(%r) : !mbarrier.barriers<2>
  }
  threadgroup.single_warp {
    %all = mbarrier.alloc : !mbarrier.barriers<1>
    mbarrier.arrive_expect_tx_multicast %bars[%i : i32], %b, mask(%m) : !mbarrier.barriers<2>
  }
  %p = mbarrier.producer_initial_phase
  %q = mbarrier.consumer_initial_phase
  mbarrier.wait %bars[%i : i32], phase(%p) : !mbarrier.barriers<2>
  mbarrier.wait %bars[%i : i32], phase(%q) sem(relaxed) scope(cluster) : !mbarrier.barriers<2>
}
