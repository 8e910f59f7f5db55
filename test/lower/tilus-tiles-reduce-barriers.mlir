// Cross-warp reductions share the shared-memory scratch: each stores its warps' partials,
// waits at a barrier and reads them back. A barrier after the reads is needed only before the
// scratch is written again over what was read; lower-tiles leaves it out when the next user of
// the scratch is another reduction (which writes past the region just read, and whose own
// barrier then fences those reads) or when nothing in the kernel uses the scratch again.
//
// RUN: tilus-opt %s --split-input-file --pass-pipeline='builtin.module(infer-layouts,plan-shared-memory,lower-tiles)' | FileCheck %s

// A row's mean, then its variance (LayerNorm's two statistics), 4 warps per row: two
// barriers, not four. The second reduction's partials go past the first's (512 bytes each:
// the scratch is 1024).
// CHECK-LABEL: tilus.kernel @two_statistics
// CHECK-SAME:    tilus.smem_bytes = 1024
// CHECK:         ptx.inst "st.shared.f32"
// CHECK-NEXT:    threadgroup.sync
// CHECK:         ptx.inst "ld.shared.f32" [%{{.*}}+384]
// CHECK-NOT:     threadgroup.sync
// CHECK:         ptx.inst "st.shared.f32"
// CHECK-NEXT:    threadgroup.sync
// CHECK:         ptx.inst "ld.shared.f32" [%{{.*}}+384]
// CHECK-NOT:     threadgroup.sync
// CHECK-LABEL: tilus.kernel @in_a_loop
tilus.kernel @two_statistics(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<1x512xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<1x512xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<1x512xf32> -> !tilus.reg<1x512xf32>
  %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<1x512xf32> -> !tilus.reg<1x1xf32>
  %d = tilus.sub %t, %s : (!tilus.reg<1x512xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x512xf32>
  %q = tilus.mul %d, %d : (!tilus.reg<1x512xf32>, !tilus.reg<1x512xf32>) -> !tilus.reg<1x512xf32>
  %v = tilus.reduce sum %q dim(1) keepdim : !tilus.reg<1x512xf32> -> !tilus.reg<1x1xf32>
  %r = tilus.mul %d, %v : (!tilus.reg<1x512xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x512xf32>
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<1x512xf32>, !tilus.global<1x512xf32>
}

// -----

// In a loop the next iteration's reduction writes where this one read: the barrier stays.
// CHECK:         scf.for
// CHECK:           threadgroup.sync
// CHECK:           ptx.inst "ld.shared.f32" [%{{.*}}+384]
// CHECK:           threadgroup.sync
// CHECK:           scf.yield %{{.*}} : f32
tilus.kernel @in_a_loop(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<1x512xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<1x1xf32>
  %z = arith.constant 0.0 : f32
  %a0 = tilus.register_tensor init(%z : f32) : !tilus.reg<1x1xf32>
  %a = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a0) -> (!tilus.reg<1x1xf32>) : i32 {
    %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<1x512xf32> -> !tilus.reg<1x512xf32>
    %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<1x512xf32> -> !tilus.reg<1x1xf32>
    %a2 = tilus.add %acc, %s : (!tilus.reg<1x1xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<1x1xf32>
    scf.yield %a2 : !tilus.reg<1x1xf32>
  }
  tilus.store_global %a, %gy[%c0, %c0] : !tilus.reg<1x1xf32>, !tilus.global<1x1xf32>
}
