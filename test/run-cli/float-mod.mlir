// `tilus.mod` on floats (C's fmod, the sign of the dividend) lowers: PTX has no remainder
// instruction, so it is `x - trunc(x / y) * y` with one rounding (`cvt.rzi`, `fma.rn`, then
// |y| added back where the quotient rounded up to the next integer), in f32
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
//
// A quotient rounded up to the next integer leaves the remainder with the wrong sign; the
// lowering adds |y| back (exact against the reference's constants, on the GPU too):
// RUN: tilus-run %s --kernel mod_rounding --atol 0 --rtol 0 | FileCheck %s --check-prefix=ROUND
// ROUND: check ym vs reference @mod_rounding_ref: ok
// ROUND: check yd vs reference @mod_rounding_ref: ok
// RUN: tilus-run %s --kernel mod_rounding --dump-ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=ROUND-PTX --input-file %t.ptx
// ROUND-PTX:      fma.rn.f32 [[R:%f[0-9]+]], {{%f[0-9]+}}, 0f3DCCCCCD, [[X:%f[0-9]+]];
// ROUND-PTX:      copysign.f32 [[S:%f[0-9]+]], [[X]], {{%f[0-9]+}};
// ROUND-PTX-NEXT: add.rn.f32 [[F:%f[0-9]+]], [[R]], [[S]];
// ROUND-PTX-NEXT: selp.f32 %f{{[0-9]+}}, [[F]], [[R]], %p{{[0-9]+}};

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

// A quotient that rounds up to the next integer: 1 / 0.1 is 10 in f32 and in f64 although the
// true quotient (0.1 being a little above a tenth) is below 10, so `x - trunc(x / y) * y` alone
// gives a tiny negative number; the lowering adds |y| back with x's sign. The reference holds
// the exact remainders: fmod(1, 0.1f) = 0.09999998658895493, fmod(1, 0.1) = 0.09999999999999995.
tilus.kernel @mod_rounding(%x: !tilus.ptr<f32>, %ym: !tilus.ptr<f32>, %yd: !tilus.ptr<f64>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["ym", "yd"], tilus.reference = "mod_rounding_ref"} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %mone = arith.constant -1.0 : f32
  %tenth = arith.constant 0.1 : f32
  %oned = arith.constant 1.0 : f64
  %moned = arith.constant -1.0 : f64
  %tenthd = arith.constant 0.1 : f64
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gym = tilus.global_view %ym : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gyd = tilus.global_view %yd : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %tx = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %pos = tilus.cmp gt %tx, %z : (!tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xi1>
  %o = tilus.register_tensor init(%one : f32) : !tilus.reg<1xf32>
  %mo = tilus.register_tensor init(%mone : f32) : !tilus.reg<1xf32>
  %d = tilus.where %pos, %o, %mo : (!tilus.reg<64xi1>, !tilus.reg<1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xf32>
  %t = tilus.register_tensor init(%tenth : f32) : !tilus.reg<1xf32>
  %m = tilus.mod %d, %t : (!tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %m, %gym[%c0] : !tilus.reg<64xf32>, !tilus.global<64xf32>
  %od = tilus.register_tensor init(%oned : f64) : !tilus.reg<1xf64>
  %mod = tilus.register_tensor init(%moned : f64) : !tilus.reg<1xf64>
  %dd = tilus.where %pos, %od, %mod : (!tilus.reg<64xi1>, !tilus.reg<1xf64>, !tilus.reg<1xf64>) -> !tilus.reg<64xf64>
  %td = tilus.register_tensor init(%tenthd : f64) : !tilus.reg<1xf64>
  %md = tilus.mod %dd, %td : (!tilus.reg<64xf64>, !tilus.reg<1xf64>) -> !tilus.reg<64xf64>
  tilus.store_global %md, %gyd[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
}

tilus.kernel @mod_rounding_ref(%x: !tilus.ptr<f32>, %ym: !tilus.ptr<f32>, %yd: !tilus.ptr<f64>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["ym", "yd"]} {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %r = arith.constant 0.09999998658895493 : f32
  %mr = arith.constant -0.09999998658895493 : f32
  %rd = arith.constant 0.09999999999999995 : f64
  %mrd = arith.constant -0.09999999999999995 : f64
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gym = tilus.global_view %ym : !tilus.ptr<f32> -> !tilus.global<64xf32>
  %gyd = tilus.global_view %yd : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %tx = tilus.load_global %gx[%c0] : !tilus.global<64xf32> -> !tilus.reg<64xf32>
  %z = tilus.register_tensor init(%zero : f32) : !tilus.reg<1xf32>
  %pos = tilus.cmp gt %tx, %z : (!tilus.reg<64xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xi1>
  %rt = tilus.register_tensor init(%r : f32) : !tilus.reg<1xf32>
  %mrt = tilus.register_tensor init(%mr : f32) : !tilus.reg<1xf32>
  %m = tilus.where %pos, %rt, %mrt : (!tilus.reg<64xi1>, !tilus.reg<1xf32>, !tilus.reg<1xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %m, %gym[%c0] : !tilus.reg<64xf32>, !tilus.global<64xf32>
  %rdt = tilus.register_tensor init(%rd : f64) : !tilus.reg<1xf64>
  %mrdt = tilus.register_tensor init(%mrd : f64) : !tilus.reg<1xf64>
  %md = tilus.where %pos, %rdt, %mrdt : (!tilus.reg<64xi1>, !tilus.reg<1xf64>, !tilus.reg<1xf64>) -> !tilus.reg<64xf64>
  tilus.store_global %md, %gyd[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
}
