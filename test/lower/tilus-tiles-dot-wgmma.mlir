// lower-tiles: tilus.dot on wgmma (sm_90a, the default target; passes/src/lower/wgmma_dot.rs).
// A dot of f16/bf16 with an f32 accumulator over whole warpgroups, M a multiple of 64 per
// warpgroup, stores A and B from their registers into its own K-major swizzled shared buffer,
// fences the generic proxy's writes for the async proxy, syncs, and issues one
// wgmma.mma_async per K step of 16 on the accumulator's registers (tied, updated in place).
// infer-layouts gives the accumulator the wgmma fragment first, as tilus-to-ptx does.
// RUN: tilus-opt %s --split-input-file --pass-pipeline='builtin.module(infer-layouts,plan-shared-memory,lower-tiles,canonicalize,cse)' | FileCheck %s

// A dot that only carries the accumulator of its loop: three buffers used in turn (48 KiB of
// 16 KiB each), and one group of MMAs left in flight at the end of each iteration
// (wait_group 1); after the loop the last group is waited for before anything reads the
// accumulator, and a sync frees the buffers. Two warpgroups each own 64 rows: two m64n128k16
// per K tile of 32.
// CHECK-LABEL: tilus.kernel @dot_loop
// CHECK-SAME:    tilus.smem_bytes = 49152
// CHECK:         scf.for
// CHECK:           arith.remui %{{.*}}, %c3_i32
// CHECK:           ptx.inst "st.shared.v4.b32"
// CHECK:           ptx.inst "fence.proxy.async.shared::cta"
// CHECK-NEXT:      threadgroup.sync
// CHECK-NEXT:      ptx.inst "wgmma.fence.sync.aligned"
// CHECK:           ptx.inst "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16" {%arg{{[0-9]+}}, {{.*}}}, %{{[0-9]+}}, %{{[0-9]+}}, 1, 1, 1, 0, 0 {tied = 64 : i64}
// CHECK:           ptx.inst "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16" {{.*}} {tied = 64 : i64}
// CHECK-NEXT:      ptx.inst "wgmma.commit_group.sync.aligned"
// CHECK-NEXT:      ptx.inst "wgmma.wait_group.sync.aligned" 1
// CHECK-NEXT:      scf.yield
// CHECK:         ptx.inst "wgmma.wait_group.sync.aligned" 0
// CHECK-NEXT:    ptx.inst "fence.acq_rel.cta"
// CHECK-NEXT:    threadgroup.sync
// CHECK-NOT:     mma.sync
tilus.kernel @dot_loop(%p: !tilus.ptr<f16>, %q: !tilus.ptr<f32>, %k: i32) warps(8) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %p[%c128, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %p[%k, %c128] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gc = tilus.global_view %q[%c128, %c128] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x128xf32>
  %acc = scf.for %kk = %c0 to %k step %c32 iter_args(%acc_i = %acc0) -> (!tilus.reg<128x128xf32>) : i32 {
    %a = tilus.load_global %ga[%c0, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<128x32xf16>
    %b = tilus.load_global %gb[%kk, %c0] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x128xf16>
    %d = tilus.dot %a, %b, %acc_i : (!tilus.reg<128x32xf16>, !tilus.reg<32x128xf16>, !tilus.reg<128x128xf32>) -> !tilus.reg<128x128xf32>
    scf.yield %d : !tilus.reg<128x128xf32>
  }
  tilus.store_global %acc, %gc[%c0, %c0] : !tilus.reg<128x128xf32>, !tilus.global<?x?xf32>
}

// -----

// The loop also reads the dot's result (here it stores it every iteration), so the MMAs are
// waited for in the iteration (wait_group 0); two buffers still alternate, one sync per K step.
// CHECK-LABEL: tilus.kernel @dot_loop_result_read
// CHECK-SAME:    tilus.smem_bytes = 32768
// CHECK:         scf.for
// CHECK:           arith.andi %{{.*}}, %c1_i32
// CHECK:           ptx.inst "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"
// CHECK:           ptx.inst "wgmma.wait_group.sync.aligned" 0
// CHECK-NOT:       threadgroup.sync
// CHECK:           ptx.inst "st.global
// CHECK:           scf.yield
// CHECK:         threadgroup.sync
tilus.kernel @dot_loop_result_read(%p: !tilus.ptr<bf16>, %q: !tilus.ptr<f32>, %k: i32) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %p[%c64, %k] : !tilus.ptr<bf16> -> !tilus.global<?x?xbf16>
  %gb = tilus.global_view %p[%k, %c64] : !tilus.ptr<bf16> -> !tilus.global<?x?xbf16>
  %gc = tilus.global_view %q[%c64, %c64] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %acc = scf.for %kk = %c0 to %k step %c64 iter_args(%acc_i = %acc0) -> (!tilus.reg<64x64xf32>) : i32 {
    %a = tilus.load_global %ga[%c0, %kk] : !tilus.global<?x?xbf16> -> !tilus.reg<64x64xbf16>
    %b = tilus.load_global %gb[%kk, %c0] : !tilus.global<?x?xbf16> -> !tilus.reg<64x64xbf16>
    %d = tilus.dot %a, %b, %acc_i : (!tilus.reg<64x64xbf16>, !tilus.reg<64x64xbf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
    scf.yield %d : !tilus.reg<64x64xf32>
  }
}

// -----

// A dot outside a loop: one buffer, its MMAs waited for, a sync after them.
// CHECK-LABEL: tilus.kernel @dot_once
// CHECK:         ptx.inst "fence.proxy.async.shared::cta"
// CHECK-NEXT:    threadgroup.sync
// CHECK:         ptx.inst "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"
// CHECK:         ptx.inst "wgmma.wait_group.sync.aligned" 0
// CHECK-NEXT:    threadgroup.sync
tilus.kernel @dot_once(%p: !tilus.ptr<f16>, %q: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %p[%c64, %c64] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %q[%c64, %c64] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %a = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<64x16xf16>
  %b = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<16x64xf16>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %d = tilus.dot %a, %b, %acc : (!tilus.reg<64x16xf16>, !tilus.reg<16x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x64xf32>, !tilus.global<?x?xf32>
}

// -----

// What wgmma does not take keeps mma.sync: 2 warps (no whole warpgroup), and an accumulator
// whose written layout is mma.sync's fragment.
// CHECK-LABEL: tilus.kernel @not_wgmma
// CHECK-NOT:     wgmma
// CHECK:         ptx.inst "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
// CHECK-NOT:     wgmma
// CHECK:         ptx.inst "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
// CHECK-NOT:     wgmma
tilus.kernel @not_wgmma(%p: !tilus.ptr<f16>, %q: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %p[%c64, %c64] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %q[%c64, %c64] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %a = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<64x16xf16>
  %b = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<16x64xf16>
  %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32, layout = spatial(2, 2) * local(2, 1) * column_local(2, 4) * spatial(8, 4) * local(1, 2)>
  %d = tilus.dot %a, %b, %acc : (!tilus.reg<64x16xf16>, !tilus.reg<16x64xf16>, !tilus.reg<64x64xf32, layout = spatial(2, 2) * local(2, 1) * column_local(2, 4) * spatial(8, 4) * local(1, 2)>) -> !tilus.reg<64x64xf32, layout = spatial(2, 2) * local(2, 1) * column_local(2, 4) * spatial(8, 4) * local(1, 2)>
  tilus.store_global %d, %gc[%c0, %c0] : !tilus.reg<64x64xf32, layout = spatial(2, 2) * local(2, 1) * column_local(2, 4) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf32>
  threadgroup.warp_group warps(0, 2) {
    %a2 = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<32x16xf16>
    %b2 = tilus.load_global %ga[%c0, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<16x32xf16>
    %acc2 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x32xf32>
    %d2 = tilus.dot %a2, %b2, %acc2 : (!tilus.reg<32x16xf16>, !tilus.reg<16x32xf16>, !tilus.reg<32x32xf32>) -> !tilus.reg<32x32xf32>
    tilus.store_global %d2, %gc[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<?x?xf32>
  }
}

// -----

// Buffers that would not fit shrink: three (or two) buffers of A and B 256 x 128 f16 (128 KiB
// each) exceed the 227 KiB a block may have, so the loop's dot takes one buffer, waits for its
// MMAs and syncs after them every iteration.
// CHECK-LABEL: tilus.kernel @dot_loop_big
// CHECK-SAME:    tilus.smem_bytes = 131072
// CHECK:         scf.for
// CHECK:           ptx.inst "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"
// CHECK:           ptx.inst "wgmma.wait_group.sync.aligned" 0
// CHECK-NEXT:      threadgroup.sync
// CHECK-NEXT:      scf.yield
tilus.kernel @dot_loop_big(%p: !tilus.ptr<f16>, %q: !tilus.ptr<f32>, %k: i32) warps(8) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %p[%c256, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %p[%k, %c256] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gc = tilus.global_view %q[%c256, %c256] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<256x256xf32>
  %acc = scf.for %kk = %c0 to %k step %c128 iter_args(%acc_i = %acc0) -> (!tilus.reg<256x256xf32>) : i32 {
    %a = tilus.load_global %ga[%c0, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<256x128xf16>
    %b = tilus.load_global %gb[%kk, %c0] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<128x256xf16>
    %d = tilus.dot %a, %b, %acc_i : (!tilus.reg<256x128xf16>, !tilus.reg<128x256xf16>, !tilus.reg<256x256xf32>) -> !tilus.reg<256x256xf32>
    scf.yield %d : !tilus.reg<256x256xf32>
  }
  tilus.store_global %acc, %gc[%c0, %c0] : !tilus.reg<256x256xf32>, !tilus.global<?x?xf32>
}
