// BROKEN: a shared access outside the tensor. The kernel stages the 8 rows of x through a
// !tilus.shared<2x4x32xf32> buffer (two halves of 4 rows), but the inner loop runs to 5 (an
// inclusive bound written as an exclusive one), so the fifth row of the first half slices
// %buf[0, 4], one past the end of dimension 1.
//
// The user should see an out-of-bounds shared access at the tilus.slice_shared, naming the
// index and the dimension: index 4 of dimension 1 is outside [0, 4).
//
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: not tilus-run %s --backend interp --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=LOC
// RUN: tilus-run %s --backend interp >/dev/null 2>&1; test $? -eq 1
//
// CHECK:      × out-of-bounds shared access: index 4 of dimension 1 is outside [0, 4) in tilus.slice_shared
// CHECK:      │       %slot = tilus.slice_shared %buf[%h, %j] : !tilus.shared<2x4x32xf32> -> !tilus.shared<32xf32>
// CHECK-NEXT: ┬
// CHECK-NEXT: ╰── out-of-bounds shared access

// y = x, 8 rows of 32 floats, through shared memory.
tilus.kernel @stage_rows(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>)
    warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c32 = arith.constant 32 : i32
  // BROKEN: each half has 4 rows; the loop should run to %c4.
  %c5 = arith.constant 5 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %buf = tilus.shared_tensor : !tilus.shared<2x4x32xf32>
  scf.for %h = %c0 to %c2 step %c1 : i32 {
    scf.for %j = %c0 to %c5 step %c1 : i32 {
      %h4 = arith.muli %h, %c4 : i32
      %row = arith.addi %h4, %j : i32
      %off = arith.muli %row, %c32 : i32
      %v = tilus.load_global %gx[%off] : !tilus.global<256xf32> -> !tilus.reg<32xf32>
      // LOC: .mlir:[[#@LINE+1]]:15: error: out-of-bounds shared access: index 4 of dimension 1 is outside [0, 4) in tilus.slice_shared
      %slot = tilus.slice_shared %buf[%h, %j] : !tilus.shared<2x4x32xf32> -> !tilus.shared<32xf32>
      tilus.store_shared %v, %slot : !tilus.reg<32xf32>, !tilus.shared<32xf32>
    }
  }
  scf.for %h = %c0 to %c2 step %c1 : i32 {
    scf.for %j = %c0 to %c4 step %c1 : i32 {
      %h4 = arith.muli %h, %c4 : i32
      %row = arith.addi %h4, %j : i32
      %off = arith.muli %row, %c32 : i32
      %slot = tilus.slice_shared %buf[%h, %j] : !tilus.shared<2x4x32xf32> -> !tilus.shared<32xf32>
      %t = tilus.load_shared %slot : !tilus.shared<32xf32> -> !tilus.reg<32xf32>
      tilus.store_global %t, %gy[%off] : !tilus.reg<32xf32>, !tilus.global<256xf32>
    }
  }
  tilus.free_shared %buf : !tilus.shared<2x4x32xf32>
}
