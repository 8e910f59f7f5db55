// i1 tiles (masks) on the GPU, written without layouts:
// * in global memory an i1 is a byte (0 or 1), as the host and the interpreter keep it:
//   loads read bytes and compare them with 0, stores write `selp` bytes (before: "memory
//   accesses of 'i1' are not lowered");
// * `tilus.cast` to i1 is `x != 0`, as in the interpreter (the lowering truncated to the low
//   bit, so 2 became false), and from i1 to a float is 0.0 or 1.0 through i32 (PTX converts
//   no predicate to a float: "conversion from i1 is not supported");
// * in shared memory an i1 is a byte as well (before: "memory accesses of 'i1' are not
//   lowered"; the allocation, its budget and the swizzle count a byte an element).
//
// RUN: tilus-run %s --kernel mask_io | FileCheck %s --check-prefix=IO
// IO: check y vs reference @mask_io_ref: ok
// IO: check z vs reference @mask_io_ref: ok
// RUN: tilus-run %s --kernel mask_io --dump-ptx | FileCheck %s --check-prefix=IO-PTX
// IO-PTX:      ld.global.s8 [[B:%rs[0-9]+]], [%rd{{[0-9]+}}];
// IO-PTX:      st.global.s8
// RUN: tilus-run %s --kernel mask_io_ref --dump-ptx | FileCheck %s --check-prefix=REF-PTX
// REF-PTX:     selp.u32 [[W:%r[0-9]+]], 1, 0, %p{{[0-9]+}};
// REF-PTX-NEXT: cvt.rn.f32.s32 %f{{[0-9]+}}, [[W]];
// RUN: tilus-run %s --kernel cast_to_i1 | FileCheck %s --check-prefix=CAST
// CAST: check y vs reference @cast_to_i1_ref: ok
// RUN: tilus-run %s --kernel cast_to_i1 --dump-ptx | FileCheck %s --check-prefix=CAST-PTX
// CAST-PTX: setp.ne.s32 %p{{[0-9]+}}, %r{{[0-9]+}}, 0;
// CAST-PTX: setp.neu.f32 %p{{[0-9]+}}, %f{{[0-9]+}}, 0f00000000;
// RUN: tilus-run %s --kernel mask_shared | FileCheck %s --check-prefix=SHARED
// SHARED: check z vs reference @mask_shared_ref: ok
// RUN: tilus-run %s --kernel mask_shared --dump-ptx | FileCheck %s --check-prefix=SHARED-PTX
// SHARED-PTX: st.shared.s8
// SHARED-PTX: ld.shared.s8
// RUN: tilus-opt %s --pass-pipeline='builtin.module(infer-layouts,plan-shared-memory,lower-tiles)' | FileCheck %s --check-prefix=SHARED-BYTES
// SHARED-BYTES-LABEL: tilus.kernel @mask_shared(
// SHARED-BYTES-SAME:  tilus.smem_bytes = 1024

tilus.kernel @mask_io(%m: !tilus.ptr<i1>, %x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<i1>)
    warps(2) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "mask_io_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %f = arith.constant false
  %gm = tilus.global_view %m : !tilus.ptr<i1> -> !tilus.global<16x64xi1>
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %gz = tilus.global_view %z : !tilus.ptr<i1> -> !tilus.global<16x64xi1>
  %mm = tilus.load_global %gm[%c0, %c0] : !tilus.global<16x64xi1> -> !tilus.reg<16x64xi1>
  %xx = tilus.load_global %gx[%c0, %c0] : !tilus.global<16x64xf32> -> !tilus.reg<16x64xf32>
  %zt = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %r = tilus.where %mm, %xx, %zt : (!tilus.reg<16x64xi1>, !tilus.reg<16x64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<16x64xf32>
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<16x64xf32>, !tilus.global<16x64xf32>
  %ft = tilus.register_tensor init(%f : i1) : !tilus.reg<1xi1>
  %nm = tilus.cmp eq %mm, %ft : (!tilus.reg<16x64xi1>, !tilus.reg<1xi1>) -> !tilus.reg<16x64xi1>
  tilus.store_global %nm, %gz[%c0, %c0] : !tilus.reg<16x64xi1>, !tilus.global<16x64xi1>
}
tilus.kernel @mask_io_ref(%m: !tilus.ptr<i1>, %x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %z: !tilus.ptr<i1>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %gm = tilus.global_view %m : !tilus.ptr<i1> -> !tilus.global<16x64xi1>
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %gz = tilus.global_view %z : !tilus.ptr<i1> -> !tilus.global<16x64xi1>
  %mm = tilus.load_global %gm[%c0, %c0] : !tilus.global<16x64xi1> -> !tilus.reg<16x64xi1>
  %xx = tilus.load_global %gx[%c0, %c0] : !tilus.global<16x64xf32> -> !tilus.reg<16x64xf32>
  %mf = tilus.cast %mm : !tilus.reg<16x64xi1> to !tilus.reg<16x64xf32>
  %r = tilus.mul %xx, %mf : (!tilus.reg<16x64xf32>, !tilus.reg<16x64xf32>) -> !tilus.reg<16x64xf32>
  tilus.store_global %r, %gy[%c0, %c0] : !tilus.reg<16x64xf32>, !tilus.global<16x64xf32>
  %t = arith.constant true
  %tt = tilus.register_tensor init(%t : i1) : !tilus.reg<1x1xi1>
  %nm = tilus.cmp ne %mm, %tt : (!tilus.reg<16x64xi1>, !tilus.reg<1x1xi1>) -> !tilus.reg<16x64xi1>
  tilus.store_global %nm, %gz[%c0, %c0] : !tilus.reg<16x64xi1>, !tilus.global<16x64xi1>
}

// Casts to i1 are `!= 0`: random i32 in [-8, 8) times 2 are even, so the low bit would be 0.
tilus.kernel @cast_to_i1(%x: !tilus.ptr<i32>, %f: !tilus.ptr<f32>, %y: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "cast_to_i1_ref"} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i32> -> !tilus.global<2x64xi32>
  %gf = tilus.global_view %f : !tilus.ptr<f32> -> !tilus.global<2x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<2x64xi32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x64xi32> -> !tilus.reg<2x64xi32>
  %two = tilus.register_tensor init(%c2 : i32) : !tilus.reg<1xi32>
  %e = tilus.mul %t, %two : (!tilus.reg<2x64xi32>, !tilus.reg<1xi32>) -> !tilus.reg<2x64xi32>
  %b = tilus.cast %e : !tilus.reg<2x64xi32> to !tilus.reg<2x64xi1>
  %ff = tilus.load_global %gf[%c0, %c0] : !tilus.global<2x64xf32> -> !tilus.reg<2x64xf32>
  %fb = tilus.cast %ff : !tilus.reg<2x64xf32> to !tilus.reg<2x64xi1>
  %bi = tilus.cast %b : !tilus.reg<2x64xi1> to !tilus.reg<2x64xi32>
  %fi = tilus.cast %fb : !tilus.reg<2x64xi1> to !tilus.reg<2x64xi32>
  %s = tilus.add %bi, %fi : (!tilus.reg<2x64xi32>, !tilus.reg<2x64xi32>) -> !tilus.reg<2x64xi32>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<2x64xi32>, !tilus.global<2x64xi32>
}

tilus.kernel @cast_to_i1_ref(%x: !tilus.ptr<i32>, %f: !tilus.ptr<f32>, %y: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<i32> -> !tilus.global<2x64xi32>
  %gf = tilus.global_view %f : !tilus.ptr<f32> -> !tilus.global<2x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<2x64xi32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<2x64xi32> -> !tilus.reg<2x64xi32>
  %ff = tilus.load_global %gf[%c0, %c0] : !tilus.global<2x64xf32> -> !tilus.reg<2x64xf32>
  %zi = tilus.register_tensor init(%c0 : i32) : !tilus.reg<1x1xi32>
  %oi = tilus.register_tensor init(%one : i32) : !tilus.reg<1x1xi32>
  %zf = tilus.register_tensor init(%zero : f32) : !tilus.reg<1x1xf32>
  %nb = tilus.cmp ne %t, %zi : (!tilus.reg<2x64xi32>, !tilus.reg<1x1xi32>) -> !tilus.reg<2x64xi1>
  %nf = tilus.cmp ne %ff, %zf : (!tilus.reg<2x64xf32>, !tilus.reg<1x1xf32>) -> !tilus.reg<2x64xi1>
  %a = tilus.where %nb, %oi, %zi : (!tilus.reg<2x64xi1>, !tilus.reg<1x1xi32>, !tilus.reg<1x1xi32>) -> !tilus.reg<2x64xi32>
  %c = tilus.where %nf, %oi, %zi : (!tilus.reg<2x64xi1>, !tilus.reg<1x1xi32>, !tilus.reg<1x1xi32>) -> !tilus.reg<2x64xi32>
  %s = tilus.add %a, %c : (!tilus.reg<2x64xi32>, !tilus.reg<2x64xi32>) -> !tilus.reg<2x64xi32>
  tilus.store_global %s, %gy[%c0, %c0] : !tilus.reg<2x64xi32>, !tilus.global<2x64xi32>
}

// A mask through shared memory, where an i1 is a byte too: stored by the compare's layout, read
// back transposed (a permuted view) by another.
tilus.kernel @mask_shared(%x: !tilus.ptr<f32>, %z: !tilus.ptr<i1>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["z"], tilus.reference = "mask_shared_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<16x64xf32>
  %gz = tilus.global_view %z : !tilus.ptr<i1> -> !tilus.global<64x16xi1>
  %xx = tilus.load_global %gx[%c0, %c0] : !tilus.global<16x64xf32> -> !tilus.reg<16x64xf32>
  %zt = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %m = tilus.cmp gt %xx, %zt : (!tilus.reg<16x64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<16x64xi1>
  %s = tilus.shared_tensor : !tilus.shared<16x64xi1>
  tilus.store_shared %m, %s : !tilus.reg<16x64xi1>, !tilus.shared<16x64xi1>
  threadgroup.sync
  %st = tilus.permute_shared %s [1, 0] : !tilus.shared<16x64xi1> -> !tilus.shared<64x16xi1, strides = [1, 64]>
  %mt = tilus.load_shared %st : !tilus.shared<64x16xi1, strides = [1, 64]> -> !tilus.reg<64x16xi1>
  tilus.store_global %mt, %gz[%c0, %c0] : !tilus.reg<64x16xi1>, !tilus.global<64x16xi1>
  tilus.free_shared %s : !tilus.shared<16x64xi1>
}

tilus.kernel @mask_shared_ref(%x: !tilus.ptr<f32>, %z: !tilus.ptr<i1>)
    warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["z"]} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %gxt = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x16xf32, strides = [1, 64]>
  %gz = tilus.global_view %z : !tilus.ptr<i1> -> !tilus.global<64x16xi1>
  %xt = tilus.load_global %gxt[%c0, %c0] : !tilus.global<64x16xf32, strides = [1, 64]> -> !tilus.reg<64x16xf32>
  %zt = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %m = tilus.cmp gt %xt, %zt : (!tilus.reg<64x16xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64x16xi1>
  tilus.store_global %m, %gz[%c0, %c0] : !tilus.reg<64x16xi1>, !tilus.global<64x16xi1>
}
