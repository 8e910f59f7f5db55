// Scratch users in groups that run side by side: the two warpgroups of an 8-warp block run
// their regions at the same time, and a barrier of one group does not wait for the other, so
// their layout.converts (and cross-warp reductions) through the shared scratch need disjoint
// regions of it. Before, every user wrote from the scratch's offset 0: warps 4-7 stored their
// tile over the one warps 0-3 were still reading. The interpreter has no scratch (it checks
// the kernels' meaning); the PTX checks show the second group's region after the first's.
//
// RUN: tilus-run %s --kernel convert_pair | FileCheck %s --check-prefix=CONVERT
// CONVERT: check y vs reference @copy_ref: ok
// RUN: tilus-run %s --kernel reduce_pair | FileCheck %s --check-prefix=REDUCE
// REDUCE: check y vs reference @row_sums_ref: ok
// RUN: tilus-run %s --kernel reduce_after_warp | FileCheck %s --check-prefix=AFTER-WARP
// AFTER-WARP: check y vs reference @reduce_after_warp_ref: ok
// AFTER-WARP: check v vs reference @reduce_after_warp_ref: ok
//
// The scratch is the sum of the groups' regions (a 64x32 f32 tile is 8192 bytes, unpadded;
// 512 bytes of partials per reduction), where it was their maximum.
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts,plan-shared-memory,lower-tiles)' | FileCheck %s --check-prefix=SMEM
// SMEM-LABEL: tilus.kernel @convert_pair
// SMEM-SAME:    tilus.smem_bytes = 16384
// SMEM-LABEL: tilus.kernel @reduce_pair
// SMEM-SAME:    tilus.smem_bytes = 1024
//
// The first warpgroup's region starts at the scratch (smem: nothing else is in shared memory),
// the second's 8192 bytes in; each group syncs with its own named barrier.
// RUN: tilus-run %s --kernel convert_pair --dump-ptx | FileCheck %s --check-prefix=CONVERT-PTX
// CONVERT-PTX:      mov.u32 [[S0:%r[0-9]+]], smem;
// CONVERT-PTX-NOT:  add.s32 {{.*}}, [[S0]], {{[0-9]+}};
// CONVERT-PTX:      st.shared.v4.f32 [%r{{[0-9]+}}],
// CONVERT-PTX:      bar.sync 1, 128;
// CONVERT-PTX:      ld.shared.v2.f32
// CONVERT-PTX:      bar.sync 1, 128;
// CONVERT-PTX:      mov.u32 [[S1:%r[0-9]+]], smem;
// CONVERT-PTX-NEXT: add.s32 [[B1:%r[0-9]+]], [[S1]], 8192;
// CONVERT-PTX:      st.shared.v4.f32 [%r{{[0-9]+}}],
// CONVERT-PTX:      bar.sync 2, 128;
// CONVERT-PTX:      ld.shared.v2.f32
// CONVERT-PTX:      bar.sync 2, 128;
//
// The same for the partials of the two reductions: the second group's at 512.
// RUN: tilus-run %s --kernel reduce_pair --dump-ptx | FileCheck %s --check-prefix=REDUCE-PTX
// REDUCE-PTX:      mov.u32 [[S0:%r[0-9]+]], smem;
// REDUCE-PTX-NEXT: add.s32 [[A0:%r[0-9]+]], [[S0]], %r{{[0-9]+}};
// REDUCE-PTX-NEXT: st.shared.f32 [[[A0]]],
// REDUCE-PTX-NEXT: bar.sync 1, 128;
// REDUCE-PTX:      ld.shared.f32
// REDUCE-PTX:      mov.u32 [[S1:%r[0-9]+]], smem;
// REDUCE-PTX-NEXT: add.s32 [[B1:%r[0-9]+]], [[S1]], 512;
// REDUCE-PTX-NEXT: add.s32 [[A1:%r[0-9]+]], [[B1]], %r{{[0-9]+}};
// REDUCE-PTX-NEXT: st.shared.f32 [[[A1]]],
// REDUCE-PTX-NEXT: bar.sync 2, 128;
//
// A cross-warp reduction of the whole block after a conversion in warp 0 alone takes the
// barrier of a change of group, as the other scratch users do: the warp's own barriers do not
// hold warps 1-3, which would otherwise store their partials where warp 0 may still be reading
// its tile.
// RUN: tilus-run %s --kernel reduce_after_warp --dump-ptx | FileCheck %s --check-prefix=AFTER-WARP-PTX
// AFTER-WARP-PTX:     ld.shared
// AFTER-WARP-PTX:     bar.warp.sync 0xffffffff;
// AFTER-WARP-PTX-NOT: st.shared
// AFTER-WARP-PTX:     bar.sync 0;
// AFTER-WARP-PTX-NEXT: mov.u32 [[S:%r[0-9]+]], smem;
// AFTER-WARP-PTX:     st.shared.f32
// AFTER-WARP-PTX-NEXT: bar.sync 0;

tilus.kernel @convert_pair(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(8) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "copy_ref"} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  threadgroup.warp_group warps(0, 4) {
    %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c = layout.convert %t : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c, %gy[%c0, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<128x32xf32>
  }
  threadgroup.warp_group warps(4, 4) {
    %t = tilus.load_global %gx[%c64, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)>
    %c = layout.convert %t : !tilus.reg<64x32xf32, layout = spatial(4, 1) * local(4, 1) * spatial(4, 8) * local(1, 4)> to !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>
    tilus.store_global %c, %gy[%c64, %c0] : !tilus.reg<64x32xf32, layout = spatial(1, 4) * column_spatial(8, 4) * local(8, 2)>, !tilus.global<128x32xf32>
  }
}
tilus.kernel @copy_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<128x32xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<128x32xf32> -> !tilus.reg<128x32xf32>
  tilus.store_global %t, %gy[%c0, %c0] : !tilus.reg<128x32xf32>, !tilus.global<128x32xf32>
}

tilus.kernel @reduce_pair(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(8) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "row_sums_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<2x512xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<2x1xf32>
  threadgroup.warp_group warps(0, 4) {
    %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x512xf32> -> !tilus.reg<1x512xf32, layout = spatial(1, 128) * local(1, 4)>
    %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<1x512xf32, layout = spatial(1, 128) * local(1, 4)> -> !tilus.reg<1x1xf32>
    tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<1x1xf32>, !tilus.global<2x1xf32>
  }
  threadgroup.warp_group warps(4, 4) {
    %t = tilus.load_global %gx[%c1, %c0] : !tilus.global<2x512xf32> -> !tilus.reg<1x512xf32, layout = spatial(1, 128) * local(1, 4)>
    %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<1x512xf32, layout = spatial(1, 128) * local(1, 4)> -> !tilus.reg<1x1xf32>
    tilus.store_global %s, %gy[%c1, %c0] : !tilus.reg<1x1xf32>, !tilus.global<2x1xf32>
  }
}
tilus.kernel @row_sums_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<2x512xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<2x1xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x512xf32> -> !tilus.reg<2x512xf32>
  %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<2x512xf32> -> !tilus.reg<2x1xf32>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<2x1xf32>, !tilus.global<2x1xf32>
}
tilus.kernel @reduce_after_warp(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "v"], tilus.reference = "reduce_after_warp_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<1x512xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<1x1xf32>
  threadgroup.single_warp warp(0) {
    %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)>
    %c = layout.convert %t : !tilus.reg<32x32xf32, layout = spatial(32, 1) * local(1, 32)> to !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>
    tilus.store_global %c, %gy[%c0, %c0] : !tilus.reg<32x32xf32, layout = spatial(1, 32) * local(32, 1)>, !tilus.global<32x32xf32>
  }
  %t = tilus.load_global %gu[%c0, %c0] : !tilus.global<1x512xf32> -> !tilus.reg<1x512xf32, layout = spatial(1, 128) * local(1, 4)>
  %s = tilus.reduce sum %t dim(1) keepdim : !tilus.reg<1x512xf32, layout = spatial(1, 128) * local(1, 4)> -> !tilus.reg<1x1xf32>
  tilus.store_global %s, %gv[%c0, %c0] : !tilus.reg<1x1xf32>, !tilus.global<1x1xf32>
}
tilus.kernel @reduce_after_warp_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %u: !tilus.ptr<f32>, %v: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "v"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gu = tilus.global_view %u : !tilus.ptr<f32> -> !tilus.global<1x512xf32>
  %gv = tilus.global_view %v : !tilus.ptr<f32> -> !tilus.global<1x1xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<32x32xf32> -> !tilus.reg<32x32xf32>
  tilus.store_global %t, %gy[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
  %w = tilus.load_global %gu[%c0, %c0] : !tilus.global<1x512xf32> -> !tilus.reg<1x512xf32>
  %s = tilus.reduce sum %w dim(1) keepdim : !tilus.reg<1x512xf32> -> !tilus.reg<1x1xf32>
  tilus.store_global %s, %gv[%c0, %c0] : !tilus.reg<1x1xf32>, !tilus.global<1x1xf32>
}
