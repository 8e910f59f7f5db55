// f64 sqrt and rsqrt are correctly rounded on the GPU (sqrt.rn.f64, rcp.rn.f64), as in the
// interpreter; before, "'sqrt' on f64 is not lowered". The reference writes x ** 0.5 as
// sqrt and 1 / sqrt with tilus.div. (exp, exp2, log and tanh: test/run-cli/f64-math.mlir.)
//
// RUN: tilus-run %s --kernel roots | FileCheck %s --implicit-check-not=MISMATCH
// CHECK: check y vs reference @roots_ref: ok
// CHECK: check z vs reference @roots_ref: ok
// RUN: tilus-run %s --kernel roots --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX:      sqrt.rn.f64 %fd{{[0-9]+}}, %fd{{[0-9]+}};
// PTX:      rcp.rn.f64 %fd{{[0-9]+}}, %fd{{[0-9]+}};

tilus.kernel @roots(%x: !tilus.ptr<f64>, %y: !tilus.ptr<f64>, %z: !tilus.ptr<f64>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"], tilus.reference = "roots_ref"} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gy = tilus.global_view %y : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gz = tilus.global_view %z : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %t = tilus.load_global %gx[%c0] : !tilus.global<64xf64> -> !tilus.reg<64xf64>
  %a = tilus.abs %t : !tilus.reg<64xf64>
  %s = tilus.sqrt %a : !tilus.reg<64xf64>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
  %r = tilus.rsqrt %a : !tilus.reg<64xf64>
  tilus.store_global %r, %gz[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
}

tilus.kernel @roots_ref(%x: !tilus.ptr<f64>, %y: !tilus.ptr<f64>, %z: !tilus.ptr<f64>)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.outputs = ["y", "z"]} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %gx = tilus.global_view %x : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gy = tilus.global_view %y : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %gz = tilus.global_view %z : !tilus.ptr<f64> -> !tilus.global<64xf64>
  %t = tilus.load_global %gx[%c0] : !tilus.global<64xf64> -> !tilus.reg<64xf64>
  %n = tilus.neg %t : !tilus.reg<64xf64>
  %a = tilus.maximum %t, %n : (!tilus.reg<64xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  %s = tilus.sqrt %a : !tilus.reg<64xf64>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
  %o = tilus.register_tensor init(%one : f64) : !tilus.reg<1xf64>
  %r = tilus.div %o, %s : (!tilus.reg<1xf64>, !tilus.reg<64xf64>) -> !tilus.reg<64xf64>
  tilus.store_global %r, %gz[%c0] : !tilus.reg<64xf64>, !tilus.global<64xf64>
}
