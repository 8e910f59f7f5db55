// Tiles of unsigned (and explicitly signed) integers lower: their registers are the signless
// integers `arith` takes, and the ops that depend on signedness are chosen from the tile's type
// (`max.u32`, `div.u32`, `cvt.rn.f32.u32`, ...); before, every op on a `ui32` tile failed to
// build ("'arith.addi' op operand #0 must be signless-integer-like, but got 'ui32'"). bf16 and
// 8-bit integers convert through f32, which PTX's `cvt` needs (ptxas refused `cvt.rzi.s8.bf16`).
// No layouts; the references go one row at a time.
//
// RUN: tilus-run %s --kernel unsigned_ops | FileCheck %s --check-prefix=U --implicit-check-not=MISMATCH
// U: check y vs reference @unsigned_ops_ref: ok
// U: check f vs reference @unsigned_ops_ref: ok
// RUN: tilus-run %s --kernel unsigned_ops --dump-ptx | FileCheck %s --check-prefix=U-PTX
// U-PTX: max.u32
// U-PTX: div.u32
// U-PTX: cvt.rn.f32.u32
// RUN: tilus-run %s --kernel byte_casts | FileCheck %s --check-prefix=B --implicit-check-not=MISMATCH
// B: check y vs reference @byte_casts_ref: ok
// RUN: tilus-run %s --kernel byte_casts --dump-ptx | FileCheck %s --check-prefix=B-PTX
// B-PTX:     cvt.f32.bf16 [[F:%f[0-9]+]],
// B-PTX-NEXT: cvt.rzi.s8.f32 %rs{{[0-9]+}}, [[F]];
// B-PTX:     cvt.rn.f32.s8 [[G:%f[0-9]+]],
// B-PTX-NEXT: cvt.rn.bf16.f32 %{{[a-z]+[0-9]+}}, [[G]];

tilus.kernel @unsigned_ops(%x: !tilus.ptr<ui32>, %y: !tilus.ptr<ui32>, %f: !tilus.ptr<f32>)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "f"], tilus.reference = "unsigned_ops_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<ui32> -> !tilus.global<4x64xui32>
  %gy = tilus.global_view %y : !tilus.ptr<ui32> -> !tilus.global<4x64xui32>
  %gf = tilus.global_view %f : !tilus.ptr<f32> -> !tilus.global<4x64xf32>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<4x64xui32> -> !tilus.reg<4x64xui32>
  %u = tilus.add %t, %t : (!tilus.reg<4x64xui32>, !tilus.reg<4x64xui32>) -> !tilus.reg<4x64xui32>
  %m = tilus.reduce max %u dim(1) keepdim : !tilus.reg<4x64xui32> -> !tilus.reg<4x1xui32>
  %c1 = arith.constant 1 : i32
  %one_i = tilus.register_tensor init(%c1 : i32) : !tilus.reg<1xi32>
  %one = tilus.cast %one_i : !tilus.reg<1xi32> to !tilus.reg<1xui32>
  %t1 = tilus.add %t, %one : (!tilus.reg<4x64xui32>, !tilus.reg<1xui32>) -> !tilus.reg<4x64xui32>
  %v = tilus.div %m, %t1 : (!tilus.reg<4x1xui32>, !tilus.reg<4x64xui32>) -> !tilus.reg<4x64xui32>
  tilus.store_global %v, %gy[%c0, %c0] : !tilus.reg<4x64xui32>, !tilus.global<4x64xui32>
  %w = tilus.cast %v : !tilus.reg<4x64xui32> to !tilus.reg<4x64xf32>
  tilus.store_global %w, %gf[%c0, %c0] : !tilus.reg<4x64xf32>, !tilus.global<4x64xf32>
}

tilus.kernel @unsigned_ops_ref(%x: !tilus.ptr<ui32>, %y: !tilus.ptr<ui32>, %f: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (4)>)
    attributes {tilus.outputs = ["y", "f"]} {
  %c0 = arith.constant 0 : i32
  %i = tilus.block_id x
  %gx = tilus.global_view %x : !tilus.ptr<ui32> -> !tilus.global<4x64xui32>
  %gy = tilus.global_view %y : !tilus.ptr<ui32> -> !tilus.global<4x64xui32>
  %gf = tilus.global_view %f : !tilus.ptr<f32> -> !tilus.global<4x64xf32>
  %t = tilus.load_global %gx[%i, %c0] : !tilus.global<4x64xui32> -> !tilus.reg<1x64xui32>
  %m = tilus.reduce max %t dim(1) keepdim : !tilus.reg<1x64xui32> -> !tilus.reg<1x1xui32>
  %m2 = tilus.add %m, %m : (!tilus.reg<1x1xui32>, !tilus.reg<1x1xui32>) -> !tilus.reg<1x1xui32>
  %c1 = arith.constant 1 : i32
  %one_i = tilus.register_tensor init(%c1 : i32) : !tilus.reg<1x64xi32>
  %one = tilus.cast %one_i : !tilus.reg<1x64xi32> to !tilus.reg<1x64xui32>
  %t1 = tilus.add %one, %t : (!tilus.reg<1x64xui32>, !tilus.reg<1x64xui32>) -> !tilus.reg<1x64xui32>
  %v = tilus.div %m2, %t1 : (!tilus.reg<1x1xui32>, !tilus.reg<1x64xui32>) -> !tilus.reg<1x64xui32>
  tilus.store_global %v, %gy[%i, %c0] : !tilus.reg<1x64xui32>, !tilus.global<4x64xui32>
  %w = tilus.cast %v : !tilus.reg<1x64xui32> to !tilus.reg<1x64xf32>
  tilus.store_global %w, %gf[%i, %c0] : !tilus.reg<1x64xf32>, !tilus.global<4x64xf32>
}

// f32 -> bf16 -> i8 -> bf16 -> ui8 -> f32, scaled so the bytes are not all 0.
tilus.kernel @byte_casts(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "byte_casts_ref"} {
  %c0 = arith.constant 0 : i32
  %s = arith.constant 100.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<128xf32>
  %t = tilus.load_global %gx[%c0] : !tilus.global<128xf32> -> !tilus.reg<128xf32>
  %st = tilus.register_tensor init(%s : f32) : !tilus.reg<1xf32>
  %ts = tilus.mul %t, %st : (!tilus.reg<128xf32>, !tilus.reg<1xf32>) -> !tilus.reg<128xf32>
  %b = tilus.cast %ts : !tilus.reg<128xf32> to !tilus.reg<128xbf16>
  %i = tilus.cast %b : !tilus.reg<128xbf16> to !tilus.reg<128xi8>
  %b2 = tilus.cast %i : !tilus.reg<128xi8> to !tilus.reg<128xbf16>
  %a = tilus.abs %b2 : !tilus.reg<128xbf16>
  %u = tilus.cast %a : !tilus.reg<128xbf16> to !tilus.reg<128xui8>
  %f = tilus.cast %u : !tilus.reg<128xui8> to !tilus.reg<128xf32>
  tilus.store_global %f, %gy[%c0] : !tilus.reg<128xf32>, !tilus.global<128xf32>
}

tilus.kernel @byte_casts_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %s = arith.constant 100.0 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<128xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<128xf32>
  %t = tilus.load_global %gx[%c0] : !tilus.global<128xf32> -> !tilus.reg<128xf32>
  %st = tilus.register_tensor init(%s : f32) : !tilus.reg<128xf32>
  %ts = tilus.mul %st, %t : (!tilus.reg<128xf32>, !tilus.reg<128xf32>) -> !tilus.reg<128xf32>
  %b = tilus.cast %ts : !tilus.reg<128xf32> to !tilus.reg<128xbf16>
  %bf = tilus.cast %b : !tilus.reg<128xbf16> to !tilus.reg<128xf32>
  %i = tilus.cast %bf : !tilus.reg<128xf32> to !tilus.reg<128xi32>
  %n = tilus.neg %i : !tilus.reg<128xi32>
  %a = tilus.maximum %i, %n : (!tilus.reg<128xi32>, !tilus.reg<128xi32>) -> !tilus.reg<128xi32>
  %f = tilus.cast %a : !tilus.reg<128xi32> to !tilus.reg<128xf32>
  tilus.store_global %f, %gy[%c0] : !tilus.reg<128xf32>, !tilus.global<128xf32>
}

// 8-bit integers: PTX has no 8-bit arithmetic, so element-wise ops run in 32 bits (extended by
// the type's signedness) and are narrowed back, and 8-bit values shuffle in the 16-bit
// registers that hold them; before, "PTX has no 8-bit arithmetic" and "shuffles of i8 are not
// lowered". The reference widens to i32 itself.
// RUN: tilus-run %s --kernel byte_math | FileCheck %s --check-prefix=M --implicit-check-not=MISMATCH
// M: check y vs reference @byte_math_ref: ok
// RUN: tilus-run %s --kernel byte_math --dump-ptx | FileCheck %s --check-prefix=M-PTX
// M-PTX: cvt.s32.s8
// M-PTX: mul.lo.s32
// M-PTX: cvt.u16.u32
// M-PTX: shfl.sync.bfly.b32
tilus.kernel @byte_math(%x: !tilus.ptr<i8>, %y: !tilus.ptr<i8>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"], tilus.reference = "byte_math_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i8> -> !tilus.global<4x64xi8>
  %gy = tilus.global_view %y : !tilus.ptr<i8> -> !tilus.global<4x64xi8>
  %t = tilus.load_global %gx[%c0, %c0] : !tilus.global<4x64xi8> -> !tilus.reg<4x64xi8>
  %sq = tilus.mul %t, %t : (!tilus.reg<4x64xi8>, !tilus.reg<4x64xi8>) -> !tilus.reg<4x64xi8>
  %n = tilus.neg %t : !tilus.reg<4x64xi8>
  %s = tilus.add %sq, %n : (!tilus.reg<4x64xi8>, !tilus.reg<4x64xi8>) -> !tilus.reg<4x64xi8>
  %m = tilus.reduce max %s dim(1) keepdim : !tilus.reg<4x64xi8> -> !tilus.reg<4x1xi8>
  %d = tilus.sub %m, %s : (!tilus.reg<4x1xi8>, !tilus.reg<4x64xi8>) -> !tilus.reg<4x64xi8>
  %a = tilus.abs %d : !tilus.reg<4x64xi8>
  tilus.store_global %a, %gy[%c0, %c0] : !tilus.reg<4x64xi8>, !tilus.global<4x64xi8>
}

tilus.kernel @byte_math_ref(%x: !tilus.ptr<i8>, %y: !tilus.ptr<i8>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<i8> -> !tilus.global<4x64xi8>
  %gy = tilus.global_view %y : !tilus.ptr<i8> -> !tilus.global<4x64xi8>
  %t8 = tilus.load_global %gx[%c0, %c0] : !tilus.global<4x64xi8> -> !tilus.reg<4x64xi8>
  %t = tilus.cast %t8 : !tilus.reg<4x64xi8> to !tilus.reg<4x64xi32>
  %sq = tilus.mul %t, %t : (!tilus.reg<4x64xi32>, !tilus.reg<4x64xi32>) -> !tilus.reg<4x64xi32>
  %s = tilus.sub %sq, %t : (!tilus.reg<4x64xi32>, !tilus.reg<4x64xi32>) -> !tilus.reg<4x64xi32>
  %m = tilus.reduce max %s dim(1) keepdim : !tilus.reg<4x64xi32> -> !tilus.reg<4x1xi32>
  %d = tilus.sub %m, %s : (!tilus.reg<4x1xi32>, !tilus.reg<4x64xi32>) -> !tilus.reg<4x64xi32>
  %d8 = tilus.cast %d : !tilus.reg<4x64xi32> to !tilus.reg<4x64xi8>
  %a = tilus.abs %d8 : !tilus.reg<4x64xi8>
  tilus.store_global %a, %gy[%c0, %c0] : !tilus.reg<4x64xi8>, !tilus.global<4x64xi8>
}

// Integer dots the tensor cores do not take (K = 16 for i8, i32 operands) go through the SIMT
// dot with an i32 accumulator, `mad.lo.s32`, wrapping like the interpreter's i32 sums
// (before: "only an f32 accumulator and result are lowered"). The reference sums outer
// products.
// RUN: tilus-run %s --kernel int_dot | FileCheck %s --check-prefix=D --implicit-check-not=MISMATCH
// D: check y vs reference @int_dot_ref: ok
// D: check z vs reference @int_dot_ref: ok
// RUN: tilus-run %s --kernel int_dot --dump-ptx | FileCheck %s --check-prefix=D-PTX
// D-PTX: st.shared.b32
// D-PTX: ld.shared.b32
// D-PTX: mad.lo.s32
tilus.kernel @int_dot(%p: !tilus.ptr<i8>, %q: !tilus.ptr<i32>, %y: !tilus.ptr<i32>, %z: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "int_dot_ref"} {
  %c0 = arith.constant 0 : i32
  %gp = tilus.global_view %p : !tilus.ptr<i8> -> !tilus.global<16x16xi8>
  %gq = tilus.global_view %q : !tilus.ptr<i32> -> !tilus.global<16x16xi32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<16x16xi32>
  %gz = tilus.global_view %z : !tilus.ptr<i32> -> !tilus.global<16x16xi32>
  %a = tilus.load_global %gp[%c0, %c0] : !tilus.global<16x16xi8> -> !tilus.reg<16x16xi8>
  %acc = tilus.load_global %gy[%c0, %c0] : !tilus.global<16x16xi32> -> !tilus.reg<16x16xi32>
  %d = tilus.dot %a, %a, %acc : (!tilus.reg<16x16xi8>, !tilus.reg<16x16xi8>, !tilus.reg<16x16xi32>) -> !tilus.reg<16x16xi32>
  tilus.store_global %d, %gy[%c0, %c0] : !tilus.reg<16x16xi32>, !tilus.global<16x16xi32>
  %b = tilus.load_global %gq[%c0, %c0] : !tilus.global<16x16xi32> -> !tilus.reg<16x16xi32>
  %e = tilus.dot %b, %b, %d : (!tilus.reg<16x16xi32>, !tilus.reg<16x16xi32>, !tilus.reg<16x16xi32>) -> !tilus.reg<16x16xi32>
  tilus.store_global %e, %gz[%c0, %c0] : !tilus.reg<16x16xi32>, !tilus.global<16x16xi32>
}

tilus.kernel @int_dot_ref(%p: !tilus.ptr<i8>, %q: !tilus.ptr<i32>, %y: !tilus.ptr<i32>, %z: !tilus.ptr<i32>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %gp = tilus.global_view %p : !tilus.ptr<i8> -> !tilus.global<16x16xi8>
  %gq = tilus.global_view %q : !tilus.ptr<i32> -> !tilus.global<16x16xi32>
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<16x16xi32>
  %gz = tilus.global_view %z : !tilus.ptr<i32> -> !tilus.global<16x16xi32>
  %acc0 = tilus.load_global %gy[%c0, %c0] : !tilus.global<16x16xi32> -> !tilus.reg<16x16xi32>
  %d = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %acc0) -> (!tilus.reg<16x16xi32>) : i32 {
    %col8 = tilus.load_global %gp[%c0, %k] : !tilus.global<16x16xi8> -> !tilus.reg<16x1xi8>
    %row8 = tilus.load_global %gp[%k, %c0] : !tilus.global<16x16xi8> -> !tilus.reg<1x16xi8>
    %col = tilus.cast %col8 : !tilus.reg<16x1xi8> to !tilus.reg<16x1xi32>
    %row = tilus.cast %row8 : !tilus.reg<1x16xi8> to !tilus.reg<1x16xi32>
    %pr = tilus.mul %col, %row : (!tilus.reg<16x1xi32>, !tilus.reg<1x16xi32>) -> !tilus.reg<16x16xi32>
    %s2 = tilus.add %s, %pr : (!tilus.reg<16x16xi32>, !tilus.reg<16x16xi32>) -> !tilus.reg<16x16xi32>
    scf.yield %s2 : !tilus.reg<16x16xi32>
  }
  tilus.store_global %d, %gy[%c0, %c0] : !tilus.reg<16x16xi32>, !tilus.global<16x16xi32>
  %e = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %d) -> (!tilus.reg<16x16xi32>) : i32 {
    %col = tilus.load_global %gq[%c0, %k] : !tilus.global<16x16xi32> -> !tilus.reg<16x1xi32>
    %row = tilus.load_global %gq[%k, %c0] : !tilus.global<16x16xi32> -> !tilus.reg<1x16xi32>
    %pr = tilus.mul %col, %row : (!tilus.reg<16x1xi32>, !tilus.reg<1x16xi32>) -> !tilus.reg<16x16xi32>
    %s2 = tilus.add %s, %pr : (!tilus.reg<16x16xi32>, !tilus.reg<16x16xi32>) -> !tilus.reg<16x16xi32>
    scf.yield %s2 : !tilus.reg<16x16xi32>
  }
  tilus.store_global %e, %gz[%c0, %c0] : !tilus.reg<16x16xi32>, !tilus.global<16x16xi32>
}
