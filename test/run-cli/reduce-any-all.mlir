// `tilus.reduce any` / `all` on i1 tiles (here without layouts): lower-tiles reduces the values
// widened to i32 (0 or 1) with max / min, through registers, butterfly shuffles and, across
// warps, the shared scratch, and narrows the result back to i1 (it used to stop with "reduce
// 'any' is not lowered yet"). @masks marks each row's minima, and says per row whether some
// element is >= 7 (any) and whether none is -8 (all); @masks_ref does the same one row at a
// time with max / min and `tilus.where`.
//
// RUN: tilus-run %s --kernel masks | FileCheck %s
// CHECK: check y vs reference @masks_ref: ok
// CHECK: check z vs reference @masks_ref: ok
// RUN: tilus-run %s --kernel masks --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX:      setp.ge.s32 [[P:%p[0-9]+]], %r{{[0-9]+}}, 7;
// PTX-NEXT: selp.u32 %r{{[0-9]+}}, 1, 0, [[P]];
// PTX:      max.s32
// PTX:      shfl.sync.bfly.b32
// PTX:      max.s32
// PTX:      setp.ne.s32 {{.*}}, -8;
// PTX:      min.s32
// PTX:      shfl.sync.bfly.b32
// PTX:      min.s32
// Across warps (4 warps, 128 rows of 2 elements, each row split over the warps by a layout
// written for it): the widened values go through the shared scratch.
// Random rows of 128 values in [-8, 8) all hold a 7; rows of ones hold none:
// RUN: tilus-run %s --kernel across_warps | FileCheck %s --check-prefix=WARPS
// RUN: tilus-run %s --kernel across_warps --input x=ones | FileCheck %s --check-prefix=WARPS
// WARPS: check y vs reference @across_warps_ref: ok
// RUN: tilus-run %s --kernel across_warps --dump-ptx | FileCheck %s --check-prefix=WARPS-PTX
// WARPS-PTX: st.shared.b32
// WARPS-PTX: bar.sync
// WARPS-PTX: ld.shared.b32
// WARPS-PTX: max.s32

tilus.kernel @masks(%x: !tilus.ptr<i32>, %y: !tilus.ptr<i32>, %z: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "masks_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i32> -> !tilus.global<16x32xi32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<16x32xi32>
  %gz = tilus.global_view %z : !tilus.ptr<i32> -> !tilus.global<16x2xi32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<16x32xi32> -> !tilus.reg<16x32xi32>
  %m = tilus.reduce min %t dim(1) keepdim : !tilus.reg<16x32xi32> -> !tilus.reg<16x1xi32>
  %e = tilus.cmp eq %t, %m : (!tilus.reg<16x32xi32>, !tilus.reg<16x1xi32>) -> !tilus.reg<16x32xi1>
  %ei = tilus.cast %e : !tilus.reg<16x32xi1> to !tilus.reg<16x32xi32>
  tilus.store_global %ei, %gy[%c0, %c0] : !tilus.reg<16x32xi32>, !tilus.global<16x32xi32>
  %c7 = arith.constant 7 : i32
  %s7 = tilus.register_tensor init(%c7 : i32) : !tilus.reg<1xi32>
  %big = tilus.cmp ge %t, %s7 : (!tilus.reg<16x32xi32>, !tilus.reg<1xi32>) -> !tilus.reg<16x32xi1>
  %any = tilus.reduce any %big dim(1) keepdim : !tilus.reg<16x32xi1> -> !tilus.reg<16x1xi1>
  %neg8 = arith.constant -8 : i32
  %s8 = tilus.register_tensor init(%neg8 : i32) : !tilus.reg<1xi32>
  %nm = tilus.cmp ne %t, %s8 : (!tilus.reg<16x32xi32>, !tilus.reg<1xi32>) -> !tilus.reg<16x32xi1>
  %all = tilus.reduce all %nm dim(1) keepdim : !tilus.reg<16x32xi1> -> !tilus.reg<16x1xi1>
  %ai = tilus.cast %any : !tilus.reg<16x1xi1> to !tilus.reg<16x1xi32>
  %li = tilus.cast %all : !tilus.reg<16x1xi1> to !tilus.reg<16x1xi32>
  tilus.store_global %ai, %gz[%c0, %c0] : !tilus.reg<16x1xi32>, !tilus.global<16x2xi32>
  %c1 = arith.constant 1 : i32
  tilus.store_global %li, %gz[%c0, %c1] : !tilus.reg<16x1xi32>, !tilus.global<16x2xi32>
}
tilus.kernel @masks_ref(%x: !tilus.ptr<i32>, %y: !tilus.ptr<i32>, %z: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %c7 = arith.constant 7 : i32
  %neg8 = arith.constant -8 : i32
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i32> -> !tilus.global<16x32xi32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<16x32xi32>
  %gz = tilus.global_view %z : !tilus.ptr<i32> -> !tilus.global<16x2xi32>
  scf.for %i = %c0 to %c16 step %c1 : i32 {
    %t = tilus.load_global %gx[%i, %c0] : !tilus.global<16x32xi32> -> !tilus.reg<1x32xi32>
    %m = tilus.reduce min %t dim(1) keepdim : !tilus.reg<1x32xi32> -> !tilus.reg<1x1xi32>
    %d = tilus.sub %t, %m : (!tilus.reg<1x32xi32>, !tilus.reg<1x1xi32>) -> !tilus.reg<1x32xi32>
    %o = tilus.register_tensor init(%one : i32) : !tilus.reg<1xi32>
    %z0 = tilus.register_tensor init(%zero : i32) : !tilus.reg<1xi32>
    %isz = tilus.cmp eq %d, %z0 : (!tilus.reg<1x32xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x32xi1>
    %r = tilus.where %isz, %o, %z0 : (!tilus.reg<1x32xi1>, !tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x32xi32>
    tilus.store_global %r, %gy[%i, %c0] : !tilus.reg<1x32xi32>, !tilus.global<16x32xi32>
    %mx = tilus.reduce max %t dim(1) keepdim : !tilus.reg<1x32xi32> -> !tilus.reg<1x1xi32>
    %s7 = tilus.register_tensor init(%c7 : i32) : !tilus.reg<1xi32>
    %a = tilus.cmp ge %mx, %s7 : (!tilus.reg<1x1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x1xi1>
    %ai = tilus.where %a, %o, %z0 : (!tilus.reg<1x1xi1>, !tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x1xi32>
    tilus.store_global %ai, %gz[%i, %c0] : !tilus.reg<1x1xi32>, !tilus.global<16x2xi32>
    %s8 = tilus.register_tensor init(%neg8 : i32) : !tilus.reg<1xi32>
    %b = tilus.cmp ne %m, %s8 : (!tilus.reg<1x1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x1xi1>
    %bi = tilus.where %b, %o, %z0 : (!tilus.reg<1x1xi1>, !tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<1x1xi32>
    tilus.store_global %bi, %gz[%i, %c1] : !tilus.reg<1x1xi32>, !tilus.global<16x2xi32>
  }
}

tilus.kernel @across_warps(%x: !tilus.ptr<i32>, %y: !tilus.ptr<i32>)
    warps(4) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "across_warps_ref"} {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i32> -> !tilus.global<2x128xi32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<2x1xi32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x128xi32> -> !tilus.reg<2x128xi32, layout = local(2, 1) * spatial(1, 128)>
  %s7 = tilus.register_tensor init(%c7 : i32) : !tilus.reg<1xi32>
  %big = tilus.cmp ge %t, %s7 : (!tilus.reg<2x128xi32, layout = local(2, 1) * spatial(1, 128)>, !tilus.reg<1xi32>) -> !tilus.reg<2x128xi1>
  %any = tilus.reduce any %big dim(1) keepdim : !tilus.reg<2x128xi1> -> !tilus.reg<2x1xi1>
  %ai = tilus.cast %any : !tilus.reg<2x1xi1> to !tilus.reg<2x1xi32>
  tilus.store_global %ai, %gy[%c0, %c0] : !tilus.reg<2x1xi32>, !tilus.global<2x1xi32>
}

tilus.kernel @across_warps_ref(%x: !tilus.ptr<i32>, %y: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i32> -> !tilus.global<2x128xi32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<2x1xi32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x128xi32> -> !tilus.reg<2x128xi32>
  %m = tilus.reduce max %t dim(1) keepdim : !tilus.reg<2x128xi32> -> !tilus.reg<2x1xi32>
  %s7 = tilus.register_tensor init(%c7 : i32) : !tilus.reg<1xi32>
  %o = tilus.register_tensor init(%one : i32) : !tilus.reg<1xi32>
  %z = tilus.register_tensor init(%zero : i32) : !tilus.reg<1xi32>
  %p = tilus.cmp ge %m, %s7 : (!tilus.reg<2x1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<2x1xi1>
  %r = tilus.where %p, %o, %z : (!tilus.reg<2x1xi1>, !tilus.reg<1xi32>, !tilus.reg<1xi32>) -> !tilus.reg<2x1xi32>
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<2x1xi32>, !tilus.global<2x1xi32>
}
