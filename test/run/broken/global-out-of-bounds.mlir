// BROKEN: a global view that reaches outside its buffer. The kernel computes
// y[i] = x[i] + x[n - 1 - i] and reads the reversed x through a view with stride -1, as if it
// were NumPy's x[::-1]; but a view starts at the pointer itself, so element i of %xr is at
// x - i: every element but the first lies before the buffer.
// (A view larger than its buffer cannot be written otherwise here: tilus-run sizes every
// buffer to cover the views the kernel makes of it.)
//
// The user should see an out-of-bounds access at the tilus.load_global of the reversed view,
// naming the buffer, the view (shape [64], strides [-1]), the first bad element ([1], at
// element -1, byte -4) and the buffer's size (256 bytes, 64 elements).
//
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: not tilus-run %s --backend interp --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=LOC
// RUN: tilus-run %s --backend interp >/dev/null 2>&1; test $? -eq 1
//
// CHECK:      × 'tilus.load_global': out-of-bounds access: element [1] of a view of buffer 'x' (view shape [64], strides [-1], offset 0) is at element -1 ({{.*}}byte -4), outside the buffer of 256 bytes (64 elements)
// CHECK:      │   %r = tilus.load_global %xr[%c0] : !tilus.global<?xf32, strides = [?]> -> !tilus.reg<64xf32>
// CHECK-NEXT: ┬
// CHECK-NEXT: ╰──

tilus.kernel @palindrome_sum(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {n = 64 : i32}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %m1 = arith.constant -1 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  // BROKEN: element i of this view is at x - i; the reversed x needs its base at x + n - 1.
  %xr = tilus.global_view %x[%n] strides[%m1] : !tilus.ptr<f32> -> !tilus.global<?xf32, strides = [?]>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<?xf32> -> !tilus.reg<64xf32>
  // LOC: .mlir:[[#@LINE+1]]:8: error: 'tilus.load_global': out-of-bounds access: element [1] of a view of buffer 'x' {{.*}} outside the buffer of 256 bytes (64 elements)
  %r = tilus.load_global %xr[%c0] : !tilus.global<?xf32, strides = [?]> -> !tilus.reg<64xf32>
  %s = tilus.add %v, %r : (!tilus.reg<64xf32>, !tilus.reg<64xf32>) -> !tilus.reg<64xf32>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<64xf32>, !tilus.global<?xf32>
}
