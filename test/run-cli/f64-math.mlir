// f64 exp, exp2, log and tanh on the GPU are sequences of correctly rounded f64 arithmetic
// (passes/src/lower/tiles/f64_math.rs: argument reduction, Taylor polynomials, scaling by
// 2^k in two factors), accurate to a few units in the last place like the interpreter's
// (Rust's) functions; before, "'exp' on f64 is not lowered". The arguments cover overflow to
// inf, results in the subnormals, subnormal arguments of log, both paths of tanh (below and
// above 2|x| = 1.25) and its saturation; @f64_specials gives every function infinities, NaN
// and zeros of both signs.
//
// The interpreter checks each against a reference written through the other functions
// (exp as exp2(x log2 e), exp2 as exp(x ln 2), log as -log(1/x) and 2 log(sqrt x),
// tanh as 1 - 2/(e^2x + 1)):
// RUN: tilus-run %s --kernel f64_math | FileCheck %s --implicit-check-not=MISMATCH
// CHECK: check e vs reference @f64_math_ref: ok
// CHECK: check e2 vs reference @f64_math_ref: ok
// CHECK: check l vs reference @f64_math_ref: ok
// CHECK: check l2 vs reference @f64_math_ref: ok
// CHECK: check t vs reference @f64_math_ref: ok
// RUN: tilus-run %s --kernel f64_specials | FileCheck %s --check-prefix=SPECIALS --implicit-check-not=MISMATCH
// SPECIALS: output s1: f64[256]
// SPECIALS: output s6: f64[256]
//
// The PTX uses no f32 approximation and assembles:
// RUN: tilus-run %s --kernel f64_math --dump-ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
// PTX-NOT: .approx
// PTX:     fma.rn.f64
// PTX-NOT: .approx
// RUN: tilus-run %s --kernel f64_specials --dump-ptx > %t.sp.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: %ptxas -arch=sm_90a %t.sp.ptx -o %t.sp.cubin
// REQUIRES: ptxas
//
// On a GPU (bench/gpu_compare.sh runs it; tolerances of a few ulp):
//   tilus-run test/run-cli/f64-math.mlir --kernel f64_math --backend cuda --compare-backends --atol 1e-300 --rtol 4e-15
//   tilus-run test/run-cli/f64-math.mlir --kernel f64_specials --backend cuda --compare-backends --atol 0 --rtol 0

tilus.kernel @f64_math(%x: !tilus.ptr<f64>, %e: !tilus.ptr<f64>, %e2: !tilus.ptr<f64>, %l: !tilus.ptr<f64>, %l2: !tilus.ptr<f64>, %t: !tilus.ptr<f64>)
    warps(2) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["e", "e2", "l", "l2", "t"], tilus.reference = "f64_math_ref"} {
  %c0 = arith.constant 0 : i32
  %k40 = arith.constant 40.0 : f64
  %k1100 = arith.constant 1100.0 : f64
  %k1070 = arith.constant 1070.0 : f64
  %k5 = arith.constant 5.0 : f64
  %gx = tilus.global_view %x : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %ge = tilus.global_view %e : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %ge2 = tilus.global_view %e2 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %gl = tilus.global_view %l : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %gl2 = tilus.global_view %l2 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %gt = tilus.global_view %t : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %v = tilus.load_global %gx[%c0] : !tilus.global<256xf64> -> !tilus.reg<256xf64>
  %s40 = tilus.register_tensor init(%k40 : f64) : !tilus.reg<1xf64>
  %x40 = tilus.mul %v, %s40 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %ve = tilus.exp %x40 : !tilus.reg<256xf64>
  tilus.store_global %ve, %ge[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
  %s1100 = tilus.register_tensor init(%k1100 : f64) : !tilus.reg<1xf64>
  %x1100 = tilus.mul %v, %s1100 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %ve2 = tilus.exp2 %x1100 : !tilus.reg<256xf64>
  tilus.store_global %ve2, %ge2[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
  %a = tilus.abs %v : !tilus.reg<256xf64>
  %vl = tilus.log %a : !tilus.reg<256xf64>
  tilus.store_global %vl, %gl[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
  // 2^(1070 x) with |x| < 1: zeros, subnormals, normals and infinities.
  %s1070 = tilus.register_tensor init(%k1070 : f64) : !tilus.reg<1xf64>
  %x1070 = tilus.mul %v, %s1070 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %p = tilus.exp2 %x1070 : !tilus.reg<256xf64>
  %vl2 = tilus.log %p : !tilus.reg<256xf64>
  tilus.store_global %vl2, %gl2[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
  %s5 = tilus.register_tensor init(%k5 : f64) : !tilus.reg<1xf64>
  %x5 = tilus.mul %v, %s5 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %vt = tilus.tanh %x5 : !tilus.reg<256xf64>
  tilus.store_global %vt, %gt[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
}

tilus.kernel @f64_math_ref(%x: !tilus.ptr<f64>, %e: !tilus.ptr<f64>, %e2: !tilus.ptr<f64>, %l: !tilus.ptr<f64>, %l2: !tilus.ptr<f64>, %t: !tilus.ptr<f64>)
    warps(2) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.outputs = ["e", "e2", "l", "l2", "t"]} {
  %c0 = arith.constant 0 : i32
  %k40 = arith.constant 40.0 : f64
  %k1100 = arith.constant 1100.0 : f64
  %k1070 = arith.constant 1070.0 : f64
  %k10 = arith.constant 10.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %log2e = arith.constant 1.4426950408889634 : f64
  %ln2 = arith.constant 0.6931471805599453 : f64
  %gx = tilus.global_view %x : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %ge = tilus.global_view %e : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %ge2 = tilus.global_view %e2 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %gl = tilus.global_view %l : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %gl2 = tilus.global_view %l2 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %gt = tilus.global_view %t : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %v = tilus.load_global %gx[%c0] : !tilus.global<256xf64> -> !tilus.reg<256xf64>
  %c40 = tilus.register_tensor init(%k40 : f64) : !tilus.reg<1xf64>
  %cl2e = tilus.register_tensor init(%log2e : f64) : !tilus.reg<1xf64>
  %cln2 = tilus.register_tensor init(%ln2 : f64) : !tilus.reg<1xf64>
  %c1 = tilus.register_tensor init(%one : f64) : !tilus.reg<1xf64>
  %c2 = tilus.register_tensor init(%two : f64) : !tilus.reg<1xf64>
  %x40 = tilus.mul %v, %c40 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %y = tilus.mul %x40, %cl2e : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %ve = tilus.exp2 %y : !tilus.reg<256xf64>
  tilus.store_global %ve, %ge[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
  %c1100 = tilus.register_tensor init(%k1100 : f64) : !tilus.reg<1xf64>
  %x1100 = tilus.mul %v, %c1100 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %z = tilus.mul %x1100, %cln2 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %ve2 = tilus.exp %z : !tilus.reg<256xf64>
  tilus.store_global %ve2, %ge2[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
  %a = tilus.abs %v : !tilus.reg<256xf64>
  %ia = tilus.div %c1, %a : (!tilus.reg<1xf64>, !tilus.reg<256xf64>) -> !tilus.reg<256xf64>
  %lia = tilus.log %ia : !tilus.reg<256xf64>
  %vl = tilus.neg %lia : !tilus.reg<256xf64>
  tilus.store_global %vl, %gl[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
  // log(p) as 2 log(sqrt p) (sqrt p is normal where p is subnormal).
  %c1070 = tilus.register_tensor init(%k1070 : f64) : !tilus.reg<1xf64>
  %x1070 = tilus.mul %v, %c1070 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %p = tilus.exp2 %x1070 : !tilus.reg<256xf64>
  %ps = tilus.sqrt %p : !tilus.reg<256xf64>
  %lps = tilus.log %ps : !tilus.reg<256xf64>
  %vl2 = tilus.mul %lps, %c2 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  tilus.store_global %vl2, %gl2[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
  %c10 = tilus.register_tensor init(%k10 : f64) : !tilus.reg<1xf64>
  %x10 = tilus.mul %v, %c10 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %e2x = tilus.exp %x10 : !tilus.reg<256xf64>
  %d = tilus.add %e2x, %c1 : (!tilus.reg<256xf64>, !tilus.reg<1xf64>) -> !tilus.reg<256xf64>
  %q = tilus.div %c2, %d : (!tilus.reg<1xf64>, !tilus.reg<256xf64>) -> !tilus.reg<256xf64>
  %vt = tilus.sub %c1, %q : (!tilus.reg<1xf64>, !tilus.reg<256xf64>) -> !tilus.reg<256xf64>
  tilus.store_global %vt, %gt[%c0] : !tilus.reg<256xf64>, !tilus.global<256xf64>
}

// Infinities (x * inf, x of either sign), NaN (x * nan) and signed zeros (x * 0).
tilus.kernel @f64_specials(%x: !tilus.ptr<f64>, %s1: !tilus.ptr<f64>, %s2: !tilus.ptr<f64>, %s3: !tilus.ptr<f64>, %s4: !tilus.ptr<f64>, %s5: !tilus.ptr<f64>, %s6: !tilus.ptr<f64>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (1)>)
    attributes {tilus.outputs = ["s1", "s2", "s3", "s4", "s5", "s6"]} {
  %c0 = arith.constant 0 : i32
  %kinf = arith.constant 0x7FF0000000000000 : f64
  %knan = arith.constant 0x7FF8000000000000 : f64
  %kzero = arith.constant 0.0 : f64
  %gx = tilus.global_view %x : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %g1 = tilus.global_view %s1 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %g2 = tilus.global_view %s2 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %g3 = tilus.global_view %s3 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %g4 = tilus.global_view %s4 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %g5 = tilus.global_view %s5 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %g6 = tilus.global_view %s6 : !tilus.ptr<f64> -> !tilus.global<256xf64>
  %v = tilus.load_global %gx[%c0] : !tilus.global<64xf64> -> !tilus.reg<64xf64>
  %inf = tilus.register_tensor init(%kinf : f64) : !tilus.reg<1xf64>
  %nan = tilus.register_tensor init(%knan : f64) : !tilus.reg<1xf64>
  %zero = tilus.register_tensor init(%kzero : f64) : !tilus.reg<1xf64>
  %vi = tilus.mul %v, %inf : (!tilus.reg<64xf64>, !tilus.reg<1xf64>) -> !tilus.reg<64xf64>
  %vn = tilus.mul %v, %nan : (!tilus.reg<64xf64>, !tilus.reg<1xf64>) -> !tilus.reg<64xf64>
  %vz = tilus.mul %v, %zero : (!tilus.reg<64xf64>, !tilus.reg<1xf64>) -> !tilus.reg<64xf64>
  %vneg = tilus.neg %v : !tilus.reg<64xf64>
  %r1a = tilus.exp %vi : !tilus.reg<64xf64>
  %r1b = tilus.exp %vn : !tilus.reg<64xf64>
  %r1c = tilus.exp %vz : !tilus.reg<64xf64>
  %r1d = tilus.exp2 %vi : !tilus.reg<64xf64>
  %r2a = tilus.log %vi : !tilus.reg<64xf64>
  %r2b = tilus.log %vn : !tilus.reg<64xf64>
  %r2c = tilus.log %vz : !tilus.reg<64xf64>
  %r2d = tilus.log %vneg : !tilus.reg<64xf64>
  %r3a = tilus.tanh %vi : !tilus.reg<64xf64>
  %r3b = tilus.tanh %vn : !tilus.reg<64xf64>
  %r3c = tilus.tanh %vz : !tilus.reg<64xf64>
  %r3d = tilus.exp2 %vn : !tilus.reg<64xf64>
  %r4a = tilus.exp2 %vz : !tilus.reg<64xf64>
  tilus.store_global %r1a, %g1[%c0] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  %c1 = arith.constant 64 : i32
  %c2 = arith.constant 128 : i32
  %c3 = arith.constant 192 : i32
  tilus.store_global %r1b, %g1[%c1] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r1c, %g1[%c2] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r1d, %g1[%c3] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r2a, %g2[%c0] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r2b, %g2[%c1] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r2c, %g2[%c2] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r2d, %g2[%c3] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r3a, %g3[%c0] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r3b, %g3[%c1] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r3c, %g3[%c2] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r3d, %g3[%c3] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %r4a, %g4[%c0] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %vi, %g5[%c0] : !tilus.reg<64xf64>, !tilus.global<256xf64>
  tilus.store_global %vz, %g6[%c0] : !tilus.reg<64xf64>, !tilus.global<256xf64>
}
