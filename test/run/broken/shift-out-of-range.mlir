// BROKEN: a shift by the bit width. `1 << k` with k = 32 on i32 is undefined in arith (LLVM
// gives poison; PTX's shl.b32 would give 0). The interpreter evaluates arith ops with the
// dialect's own semantics, the code canonicalization folds with, so it reports the undefined
// case instead of picking a value.
//
// The user should see an error at the arith.shli naming the operands, the type and the cause.
//
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: not tilus-run %s --backend interp --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=LOC
// RUN: tilus-run %s --backend interp --arg k=31 | FileCheck %s --check-prefix=DEFINED
//
// CHECK:      × 'arith.shli' of 1 and 32 (i32) is undefined: shift amount not below the bit width
// CHECK:      │   %bit = arith.shli %c1, %k : i32
// DEFINED:    output y: f32[64] sum=0

tilus.kernel @shift(%y: !tilus.ptr<f32>, %n: i32, %k: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {n = 64 : i32, k = 32 : i32}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  // LOC: .mlir:[[#@LINE+1]]:10: error: 'arith.shli' of 1 and 32 (i32) is undefined: shift amount not below the bit width
  %bit = arith.shli %c1, %k : i32
  %off = arith.muli %bit, %c0 : i32
  %z = tilus.register_tensor : !tilus.reg<64xf32>
  tilus.store_global %z, %gy[%off] : !tilus.reg<64xf32>, !tilus.global<?xf32>
}
