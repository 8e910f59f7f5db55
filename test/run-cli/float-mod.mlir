// `tilus.mod` on floats (C's fmod, the sign of the dividend) lowers: PTX has no remainder
// instruction, so it is `x - trunc(x / y) * y` with one rounding (`cvt.rzi`, `fma.rn`), in f32
// for f16/bf16 and in f64 for f64 (before: "element-wise 'mod' on f32 is not lowered"). The
// kernel also runs f16 math and i64 abs/neg; the reference computes the remainders through
// an integer cast of the quotient.
//
// RUN: tilus-run %s --kernel math_mod | FileCheck %s --implicit-check-not=MISMATCH
// CHECK: check ym vs reference @math_mod_ref: ok
// CHECK: check yd vs reference @math_mod_ref: ok
// RUN: tilus-run %s --kernel math_mod --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX:      div.rn.f32 [[Q:%f[0-9]+]], [[X:%f[0-9]+]], 0f3E99999A;
// PTX-NEXT: cvt.rzi.f32.f32 [[T:%f[0-9]+]], [[Q]];
// PTX-NEXT: neg.f32 [[N:%f[0-9]+]], [[T]];
// PTX-NEXT: fma.rn.f32 %f{{[0-9]+}}, [[N]], 0f3E99999A, [[X]];
// PTX:      cvt.rzi.f64.f64
// PTX:      fma.rn.f64

tilus.kernel @math_mod(%x: !tilus.ptr<f32>, %h: !tilus.ptr<f16>, %d: !tilus.ptr<f64>, %l: !tilus.ptr<i64>,
                %ym: !tilus.ptr<f32>, %yh: !tilus.ptr<f16>, %yd: !tilus.ptr<f64>, %yl: !tilus.ptr<i64>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (1)>)
    attributes {tilus.outputs = ["ym", "yh", "yd", "yl"], tilus.reference = "math_mod_ref"} {
  %c0 = arith.constant 0 : i32
  %q = arith.constant 0.3 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gh = tilus.global_view %h : !tilus.ptr<f16> -> !tilus.global<64xf16>
  %gd = tilus.global_view %d : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gl = tilus.global_view %l : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %gym = tilus.global_view %ym : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gyh = tilus.global_view %yh : !tilus.ptr<f16> -> !tilus.global<64xf16>
  %gyd = tilus.global_view %yd : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gyl = tilus.global_view %yl : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %tx = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32>
  %qt = tilus.register_tensor init(%q : f32) : !tilus.reg<1xf32>
  %m = tilus.mod %tx, %qt : (!tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %m, %gym[%c0] : !tilus.reg<64xf32>, !tilus.global<64xf32>
  %th = tilus.load_global %gh[%c0] : !tilus.global<64xf16> -> !tilus.reg<64xf16>
  %a = tilus.abs %th : !tilus.reg<64xf16>
  %e2 = tilus.exp2 %th : !tilus.reg<64xf16>
  %lg = tilus.log %e2 : !tilus.reg<64xf16>
  %sq = tilus.sqrt %a : !tilus.reg<64xf16>
  %th2 = tilus.tanh %sq : !tilus.reg<64xf16>
  %sh = tilus.add %lg, %th2 : (!tilus.reg<64xf16>, !tilus.reg<64xf16>) -> !tilus.reg<64xf16>
  tilus.store_global %sh, %gyh[%c0] : !tilus.reg<64xf16>, !tilus.global<64xf16>
  %td = tilus.load_global %gd[%c0] : !tilus.global<64xf64> -> !tilus.reg<64xf64>
  %ed = tilus.mul %td, %td : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  %qd = arith.constant 0.25 : f64
  %qdt = tilus.register_tensor init(%qd : f64) : !tilus.reg<1xf64>
  %rd = tilus.mod %ed, %qdt : (!tilus.reg<64xf64>, !tilus.reg<1xf64>) -> !tilus.reg<64xf64>
  tilus.store_global %rd, %gyd[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
  %tl = tilus.load_global %gl[%c0] : !tilus.global<64xi64> -> !tilus.reg<64xi64>
  %al = tilus.abs %tl : !tilus.reg<64xi64>
  %nl = tilus.neg %al : !tilus.reg<64xi64>
  tilus.store_global %nl, %gyl[%c0] : !tilus.reg<64xi64>, !tilus.global<64xi64>
}
tilus.kernel @math_mod_ref(%x: !tilus.ptr<f32>, %h: !tilus.ptr<f16>, %d: !tilus.ptr<f64>, %l: !tilus.ptr<i64>,
                %ym: !tilus.ptr<f32>, %yh: !tilus.ptr<f16>, %yd: !tilus.ptr<f64>, %yl: !tilus.ptr<i64>)
    warps(1) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (1)>)
    attributes {tilus.outputs = ["ym", "yh", "yd", "yl"]} {
  %c0 = arith.constant 0 : i32
  %q = arith.constant 0.3 : f32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gh = tilus.global_view %h : !tilus.ptr<f16> -> !tilus.global<64xf16>
  %gd = tilus.global_view %d : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gl = tilus.global_view %l : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %gym = tilus.global_view %ym : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gyh = tilus.global_view %yh : !tilus.ptr<f16> -> !tilus.global<64xf16>
  %gyd = tilus.global_view %yd : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gyl = tilus.global_view %yl : !tilus.ptr<i64> -> !tilus.global<64xi64>
  %tx = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32>
  %qt = tilus.register_tensor init(%q : f32) : !tilus.reg<64xf32>
  %dv = tilus.div %tx, %qt : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  %di = tilus.cast %dv : !tilus.reg<64xf32> to !tilus.reg<64xi32>
  %df = tilus.cast %di : !tilus.reg<64xi32> to !tilus.reg<64xf32>
  %pq = tilus.mul %df, %qt : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  %m = tilus.sub %tx, %pq : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %m, %gym[%c0] : !tilus.reg<64xf32>, !tilus.global<64xf32>
  %th = tilus.load_global %gh[%c0] : !tilus.global<64xf16> -> !tilus.reg<64xf16>
  %e2 = tilus.exp2 %th : !tilus.reg<64xf16>
  %lg = tilus.log %e2 : !tilus.reg<64xf16>
  %n = tilus.neg %th : !tilus.reg<64xf16>
  %a = tilus.maximum %th, %n : (!tilus.reg<64xf16>, !tilus.reg<64xf16>) -> !tilus.reg<64xf16>
  %sq = tilus.sqrt %a : !tilus.reg<64xf16>
  %th2 = tilus.tanh %sq : !tilus.reg<64xf16>
  %sh = tilus.add %th2, %lg : (!tilus.reg<64xf16>, !tilus.reg<64xf16>) -> !tilus.reg<64xf16>
  tilus.store_global %sh, %gyh[%c0] : !tilus.reg<64xf16>, !tilus.global<64xf16>
  %td = tilus.load_global %gd[%c0] : !tilus.global<64xf64> -> !tilus.reg<64xf64>
  %ed = tilus.mul %td, %td : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  %qd = arith.constant 0.25 : f64
  %qdt = tilus.register_tensor init(%qd : f64) : !tilus.reg<64xf64>
  %dd = tilus.div %ed, %qdt : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  %ddi = tilus.cast %dd : !tilus.reg<64xf64> to !tilus.reg<64xi32>
  %ddf = tilus.cast %ddi : !tilus.reg<64xi32> to !tilus.reg<64xf64>
  %pd = tilus.mul %ddf, %qdt : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  %rd = tilus.sub %ed, %pd : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  tilus.store_global %rd, %gyd[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
  %tl = tilus.load_global %gl[%c0] : !tilus.global<64xi64> -> !tilus.reg<64xi64>
  %zl = arith.constant 0 : i64
  %z = tilus.register_tensor init(%zl : i64) : !tilus.reg<64xi64>
  %nl0 = tilus.sub %z, %tl : (!tilus.reg<64xi64>, !tilus.reg<64xi64>) -> !tilus.reg<64xi64>
  %mn = tilus.minimum %tl, %nl0 : (!tilus.reg<64xi64>, !tilus.reg<64xi64>) -> !tilus.reg<64xi64>
  tilus.store_global %mn, %gyl[%c0] : !tilus.reg<64xi64>, !tilus.global<64xi64>
}
