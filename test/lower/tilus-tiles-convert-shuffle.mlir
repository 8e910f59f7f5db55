// layout.convert inside a warp becomes shfl.sync.idx (no shared memory) when each target
// register comes from one source register of a lane of the same warp; a reduction over a
// thread digit that straddles warps shuffles its lane bits and combines its warp bits through
// the shared scratch.
// RUN: tilus-opt %s --split-input-file --plan-shared-memory --lower-tiles --canonicalize --cse | FileCheck %s

// CHECK-LABEL: tilus.kernel @within_warp
// CHECK-COUNT-4: shfl.sync.idx.b32
// CHECK-NOT:     st.shared
// CHECK:         st.global
tilus.kernel @within_warp(%p: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<4x32xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<4x32xf32> -> !tilus.reg<4x32xf32, layout = spatial(4, 8) * local(1, 4)>
  %b = layout.convert %a : !tilus.reg<4x32xf32, layout = spatial(4, 8) * local(1, 4)> to !tilus.reg<4x32xf32, layout = column_spatial(4, 8) * local(1, 4)>
  tilus.store_global %b, %g[%c0, %c0] : !tilus.reg<4x32xf32, layout = column_spatial(4, 8) * local(1, 4)>, !tilus.global<4x32xf32>
}

// -----

// CHECK-LABEL: tilus.kernel @straddling
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK:         st.shared.f32
// CHECK:         threadgroup.sync
// CHECK:         ld.shared.f32
tilus.kernel @straddling(%p: !tilus.ptr<f32>, %q: !tilus.ptr<f32>) warps(4) blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %p : !tilus.ptr<f32> -> !tilus.global<1x512xf32>
  %h = tilus.global_view %q : !tilus.ptr<f32> -> !tilus.global<1x1xf32>
  %a = tilus.load_global %g[%c0, %c0] : !tilus.global<1x512xf32> -> !tilus.reg<1x512xf32, layout = spatial(1, 128) * local(1, 4)>
  %s = tilus.reduce sum %a dim(1) keepdim : !tilus.reg<1x512xf32, layout = spatial(1, 128) * local(1, 4)> -> !tilus.reg<1x1xf32, layout = replicate(128) * local(1, 1)>
  tilus.store_global %s, %h[%c0, %c0] : !tilus.reg<1x1xf32, layout = replicate(128) * local(1, 1)>, !tilus.global<1x1xf32>
}
