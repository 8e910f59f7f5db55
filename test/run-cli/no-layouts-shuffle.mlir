// Shuffles of tiles written without a layout. Which lane holds which element decides what a
// shuffle computes, so such a tile is shuffled in the layout the lowering gives it
// (`lower::tiles::default_layout`; `infer-layouts` keeps shuffled tiles in it): the interpreter
// uses that layout too (it used to refuse the kernel: "the interpreter needs a register layout
// in the type of a shuffled tensor"). Each kernel is checked against a reference that writes
// the default layout out.
//
// RUN: tilus-run %s --kernel stencil | FileCheck %s --check-prefix=STENCIL
// STENCIL: check y vs reference @stencil_ref: ok
// RUN: tilus-run %s --kernel shift_f16 | FileCheck %s --check-prefix=F16
// F16: check y vs reference @shift_f16_ref: ok
// RUN: tilus-run %s --kernel group_shuffle | FileCheck %s --check-prefix=GROUP
// GROUP: check y vs reference @group_shuffle_ref: ok
//
// The lowering keeps the same layout: the shuffled tile is not converted.
// RUN: tilus-opt %s --infer-layouts | FileCheck %s --check-prefix=INFER
// INFER-LABEL: tilus.kernel @stencil(
// INFER:       tilus.load_global {{.*}} -> !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
// INFER-NOT:   layout.convert
// INFER:       tilus.shuffle_up {{.*}} : !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
// INFER-LABEL: tilus.kernel @stencil_ref(
// RUN: tilus-run %s --kernel stencil --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX: shfl.sync.up.b32
// PTX: shfl.sync.down.b32

tilus.kernel @stencil(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "stencil_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<256xf32> -> !tilus.reg<256xf32>
  %l = tilus.shuffle_up %v, %c1 : !tilus.reg<256xf32>
  %r = tilus.shuffle_down %v, %c1 : !tilus.reg<256xf32>
  %s = tilus.add %l, %r : (!tilus.reg<256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<256xf32>
  %o = tilus.sub %s, %v : (!tilus.reg<256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<256xf32>
  tilus.store_global %o, %gy[%c0] : !tilus.reg<256xf32>, !tilus.global<256xf32>
}
tilus.kernel @stencil_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<256xf32> -> !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  %l = tilus.shuffle_up %v, %c1 : !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  %r = tilus.shuffle_down %v, %c1 : !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  %s = tilus.add %l, %r : (!tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>, !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>) -> !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  %o = tilus.sub %s, %v : (!tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>, !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>) -> !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>
  tilus.store_global %o, %gy[%c0] : !tilus.reg<256xf32, layout = replicate(2) * spatial(64) * local(4)>, !tilus.global<256xf32>
}

tilus.kernel @shift_f16(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "shift_f16_ref"} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<2x256xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<2x256xf16>
  %v = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x256xf16> -> !tilus.reg<2x256xf16>
  %u = tilus.shuffle_up %v, %c3 : !tilus.reg<2x256xf16>
  %s = tilus.add %u, %v : (!tilus.reg<2x256xf16>, !tilus.reg<2x256xf16>) -> !tilus.reg<2x256xf16>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<2x256xf16>, !tilus.global<2x256xf16>
}
tilus.kernel @shift_f16_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f16> -> !tilus.global<2x256xf16>
  %gy = tilus.global_view %y : !tilus.ptr<f16> -> !tilus.global<2x256xf16>
  %v = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x256xf16> -> !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>
  %u = tilus.shuffle_up %v, %c3 : !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>
  %s = tilus.add %u, %v : (!tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>, !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>) -> !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<2x256xf16, layout = spatial(2, 32) * local(1, 8)>, !tilus.global<2x256xf16>
}

tilus.kernel @group_shuffle(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(8) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "group_shuffle_ref"} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c128 = arith.constant 128 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  threadgroup.warp_group warps(0, 4) {
    %v = tilus.load_global %gx[%c0] : !tilus.global<256xf32> -> !tilus.reg<128xf32>
    tilus.store_global %v, %gy[%c0] : !tilus.reg<128xf32>, !tilus.global<256xf32>
  }
  threadgroup.warp_group warps(4, 4) {
    %v = tilus.load_global %gx[%c128] : !tilus.global<256xf32> -> !tilus.reg<128xf32>
    %d = tilus.shuffle_down %v, %c2 : !tilus.reg<128xf32>
    tilus.store_global %d, %gy[%c128] : !tilus.reg<128xf32>, !tilus.global<256xf32>
  }
}
tilus.kernel @group_shuffle_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c128 = arith.constant 128 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %a = tilus.load_global %gx[%c0] : !tilus.global<256xf32> -> !tilus.reg<128xf32>
  tilus.store_global %a, %gy[%c0] : !tilus.reg<128xf32>, !tilus.global<256xf32>
  %v = tilus.load_global %gx[%c128] : !tilus.global<256xf32> -> !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
  %d = tilus.shuffle_down %v, %c2 : !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>
  tilus.store_global %d, %gy[%c128] : !tilus.reg<128xf32, layout = replicate(4) * spatial(32) * local(4)>, !tilus.global<256xf32>
}

// An i1 mask shuffles as an i32 (0 or 1): before, "shuffles of i1 are not lowered".
// RUN: tilus-run %s --kernel shift_mask | FileCheck %s --check-prefix=MASK
// MASK: check y vs reference @shift_mask_ref: ok
// RUN: tilus-run %s --kernel shift_mask --dump-ptx | FileCheck %s --check-prefix=MASK-PTX
// MASK-PTX:      selp.u32 [[W:%r[0-9]+]], 1, 0, %p{{[0-9]+}};
// MASK-PTX-NEXT: shfl.sync.down.b32 [[S:%r[0-9]+]], [[W]],
// MASK-PTX-NEXT: setp.ne.s32 %p{{[0-9]+}}, [[S]], 0;
tilus.kernel @shift_mask(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "shift_mask_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %m = tilus.cmp gt %v, %z : (!tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xi1>
  %s = tilus.shuffle_down %m, %c1 : !tilus.reg<64xi1>
  %r = tilus.where %s, %v, %z : (!tilus.reg<64xi1>, !tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %r, %gy[%c0] : !tilus.reg<64xf32>, !tilus.global<64xf32>
}

tilus.kernel @shift_mask_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %m = tilus.cmp gt %v, %z : (!tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>, !tilus.reg<1xf32>) -> !tilus.reg<64xi1, layout = replicate(8) * spatial(4) * local(16)>
  %s = tilus.shuffle_down %m, %c1 : !tilus.reg<64xi1, layout = replicate(8) * spatial(4) * local(16)>
  %r = tilus.where %s, %v, %z : (!tilus.reg<64xi1, layout = replicate(8) * spatial(4) * local(16)>, !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>, !tilus.reg<1xf32>) -> !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>
  tilus.store_global %r, %gy[%c0] : !tilus.reg<64xf32, layout = replicate(8) * spatial(4) * local(16)>, !tilus.global<64xf32>
}
