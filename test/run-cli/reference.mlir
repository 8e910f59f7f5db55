// Reference kernels: `tilus.reference` (or --reference NAME) runs another kernel of the file
// with the same arguments, matched by parameter name, on copies of the same inputs, and
// compares the `tilus.outputs` buffers.
//
// RUN: tilus-run %s --kernel tiled 2>&1 | FileCheck %s
// CHECK: tilus-run: no usable GPU ({{.*}}); running on the CPU interpreter
// CHECK: kernel: @tiled
// CHECK: output y: f32[256]
// CHECK: tilus-run: running reference kernel @naive
// CHECK: check y vs reference @naive: ok (max abs err 0, max rel err 0; atol 1e-5, rtol 1e-5)
//
// --no-reference skips it.
// RUN: tilus-run %s --kernel tiled --no-reference 2>&1 | FileCheck %s --check-prefix=NOREF
// NOREF-NOT: reference kernel
// NOREF-NOT: vs reference
//
// A wrong kernel against the same reference: status 1, the first mismatching element with
// both values, the largest errors.
// RUN: not tilus-run %s --kernel abs_square --reference naive > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=WRONG < %t.out
// RUN: FileCheck %s --check-prefix=WRONG-ERR < %t.err
// WRONG: check y vs reference @naive: MISMATCH: {{[0-9]+}} of 256 elements differ; first at [{{[0-9]+}}]: got -{{[0-9.e-]+}}, expected {{[0-9.e-]+}} (max abs err {{.*}}, max rel err 2; atol 1e-5, rtol 1e-5)
// WRONG-ERR: × check failed: 'y' differs from reference @naive
// RUN: tilus-run %s --kernel abs_square --reference naive >/dev/null 2>&1; test $? -eq 1
//
// --atol/--rtol override the tolerance of every comparison.
// RUN: tilus-run %s --kernel abs_square --reference naive --atol 10 | FileCheck %s --check-prefix=LOOSE
// LOOSE: check y vs reference @naive: ok ({{.*}}; atol 1e1, rtol 1e-5)
//
// Buffers are shaped by the kernel's views; a reference that reads more is an input error.
// RUN: not tilus-run %s --kernel short_view --reference naive 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: × reference kernel @naive views 'x' as [256], more than the f32[255] that @short_view uses
//
// Naming problems: an unknown reference on the command line is a usage error (2); a reference
// whose parameters the kernel does not have is an input error (1).
// RUN: not tilus-run %s --kernel tiled --reference nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: tilus-run %s --kernel tiled --reference nope 2>/dev/null; test $? -eq 2
// UNKNOWN: × --reference nope: no kernel named @nope to use as the reference
// UNKNOWN: help: the kernels are: @tiled, @naive, @abs_square, @short_view, @extra_param
// RUN: not tilus-run %s --kernel tiled --reference extra_param 2>&1 | FileCheck %s --check-prefix=EXTRA
// RUN: tilus-run %s --kernel tiled --reference extra_param 2>/dev/null; test $? -eq 1
// EXTRA: × reference kernel @extra_param has a parameter 'scale' that @tiled does not have
// RUN: not tilus-run %s --kernel tiled --reference tiled 2>&1 | FileCheck %s --check-prefix=SELF
// SELF: × --reference tiled: kernel @tiled cannot be its own reference

// y = x * x, 64 elements per block.
tilus.kernel @tiled(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (d2 ceildiv 64)>)
    attributes {tilus.args = {n = 256 : i32}, tilus.outputs = ["y"], tilus.reference = "naive"} {
  %bx = tilus.block_id x
  %c64 = arith.constant 64 : i32
  %off = arith.muli %bx, %c64 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %v = tilus.load_global %gx[%off] : !tilus.global<?xf32> -> !tilus.reg<64xf32, layout = spatial(64)>
  %s = tilus.mul %v, %v : (!tilus.reg<64xf32, layout = spatial(64)>, !tilus.reg<64xf32, layout = spatial(64)>) -> !tilus.reg<64xf32, layout = spatial(64)>
  tilus.store_global %s, %gy[%off] : !tilus.reg<64xf32, layout = spatial(64)>, !tilus.global<?xf32>
}

// The same, one block for everything (n <= 256).
tilus.kernel @naive(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<?xf32> -> !tilus.reg<256xf32>
  %s = tilus.mul %v, %v : (!tilus.reg<256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<256xf32>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<256xf32>, !tilus.global<?xf32>
}

// Wrong: y = x * |x|.
tilus.kernel @abs_square(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {n = 256 : i32}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gx = tilus.global_view %x[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<?xf32> -> !tilus.reg<256xf32>
  %a = tilus.abs %v : !tilus.reg<256xf32>
  %s = tilus.mul %v, %a : (!tilus.reg<256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<256xf32>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<256xf32>, !tilus.global<?xf32>
}

// x is viewed one element short, so its buffer is smaller than @naive reads.
tilus.kernel @short_view(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {n = 256 : i32}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %last = arith.subi %n, %c1 : i32
  %gx = tilus.global_view %x[%last] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y[%n] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %v = tilus.load_global %gx[%c0] : !tilus.global<?xf32> -> !tilus.reg<256xf32>
  %s = tilus.mul %v, %v : (!tilus.reg<256xf32>, !tilus.reg<256xf32>) -> !tilus.reg<256xf32>
  tilus.store_global %s, %gy[%c0] : !tilus.reg<256xf32>, !tilus.global<?xf32>
}

// Not a usable reference: it takes a parameter @tiled does not have.
tilus.kernel @extra_param(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %n: i32, %scale: f32)
    warps(1) blocks(affine_map<(d0, d1, d2, d3) -> (1)>) {
}
