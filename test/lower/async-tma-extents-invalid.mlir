// A TMA copy's view extents the host cannot evaluate when it fills the tensor map are
// reported at the copy (what it can evaluate: async-tma-extents.mlir).
//
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --lower-async-to-ptx --no-output

tilus.kernel @divisor_not_constant(%p: !tilus.ptr<f16>, %m: i32, %n: i32) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %chunks = arith.floordivsi %n, %m : i32
  %g = tilus.global_view %p[%chunks] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<8x64xf16>
  threadgroup.single_thread {
    // expected-error@+1 {{a division by something other than a positive constant ('arith.floordivsi')}}
    tma.shared_to_global %s, %g[%c0, %c0 : i32, i32] : !tilus.shared<8x64xf16>, !tilus.global<?x64xf16>
    tma.commit_group
    tma.wait_group 0
  }
}

// -----

// Truncating division is not an affine form: the host evaluates only floor and ceil divisions.
tilus.kernel @truncating(%p: !tilus.ptr<f16>, %m: i32, %n: i32) warps(4) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %chunks = arith.divsi %n, %c64 : i32
  %g = tilus.global_view %p[%chunks] : !tilus.ptr<f16> -> !tilus.global<?x64xf16>
  %s = tilus.shared_tensor : !tilus.shared<8x64xf16>
  threadgroup.single_thread {
    // expected-error@+1 {{a value computed by 'arith.divsi' (the host can evaluate only constants, kernel parameters, and arith add/mul/casts and floordivsi/ceildivsi by positive constants of them)}}
    tma.shared_to_global %s, %g[%c0, %c0 : i32, i32] : !tilus.shared<8x64xf16>, !tilus.global<?x64xf16>
    tma.commit_group
    tma.wait_group 0
  }
}
