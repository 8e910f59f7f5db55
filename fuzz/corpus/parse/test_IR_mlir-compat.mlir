// REQUIRES: mlir-opt
// What tilus-opt prints, mlir-opt (MLIR 22) reads, and reads as the same IR: the custom and the
// generic form of func/arith/cf ops, unregistered ops with regions, properties and builtin types,
// attributes that tilus-opt keeps as written (dense literals, dense arrays, integer sets) and MLIR
// re-prints in its canonical form, and locations. The CHECK lines are mlir-opt's own output for
// this file (first RUN line).
//
// RUN: mlir-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: tilus-opt %s --allow-unregistered-dialect | mlir-opt --allow-unregistered-dialect | FileCheck %s
// RUN: tilus-opt %s --allow-unregistered-dialect --print-op-generic \
// RUN:   | mlir-opt --allow-unregistered-dialect | FileCheck %s
// MLIR's generic output is read back by tilus-opt, and MLIR reads tilus-opt's output of it.
// RUN: mlir-opt %s --allow-unregistered-dialect --mlir-print-op-generic \
// RUN:   | tilus-opt --allow-unregistered-dialect --print-op-generic \
// RUN:   | mlir-opt --allow-unregistered-dialect | FileCheck %s
// For what MLIR prints in canonical form, tilus-opt prints the same text back.
// RUN: mlir-opt %s --allow-unregistered-dialect | tilus-opt --allow-unregistered-dialect \
// RUN:   | FileCheck %s --check-prefix=BACK
// Locations survive the trip in both directions.
// RUN: tilus-opt %s --allow-unregistered-dialect --print-op-generic --print-debuginfo \
// RUN:   | mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=LOC
// RUN: mlir-opt %s --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo \
// RUN:   | tilus-opt --allow-unregistered-dialect --print-debuginfo --print-local-scope \
// RUN:   | FileCheck %s --check-prefix=LOC

// CHECK:      #map = affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>
// CHECK-NEXT: #set = affine_set<(d0) : (-d0 + 10 >= 0)>
// CHECK-NEXT: module {
// BACK:       #map = affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>
// BACK-NEXT:  #set = affine_set<(d0) : (-d0 + 10 >= 0)>
// BACK-NEXT:  module {

// In custom form MLIR numbers values in the order it prints them, continuing the module's
// count inside the function: the top-level `%0:2` below comes first, so the body starts at %1.
// CHECK-NEXT:   func.func @kernel(%arg0: i32, %arg1: f32, %arg2: i1) -> (i32, f32) {
// CHECK-NEXT:     %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:     %cst = arith.constant 2.500000e-01 : f32
// CHECK-NEXT:     %1 = arith.addi %arg0, %c7_i32 overflow<nsw, nuw> : i32
// CHECK-NEXT:     %2 = arith.mulf %arg1, %cst fastmath<fast> : f32
// CHECK-NEXT:     %3 = arith.cmpi sge, %1, %arg0 : i32
// CHECK-NEXT:     %4 = arith.select %3, %1, %c7_i32 : i32
// CHECK-NEXT:     %5 = arith.sitofp %4 : i32 to f32
// CHECK-NEXT:     cf.cond_br %arg2, ^bb1(%4, %5 : i32, f32), ^bb2
// CHECK-NEXT:   ^bb1(%6: i32, %7: f32):  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:     %8 = call @helper(%6) : (i32) -> i32
// CHECK-NEXT:     return %8, %7 : i32, f32
// CHECK-NEXT:   ^bb2:  // pred: ^bb0
// CHECK-NEXT:     cf.br ^bb1(%1, %2 : i32, f32)
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func private @helper(i32) -> i32
// BACK-NEXT:    func.func @kernel(%arg0: i32, %arg1: f32, %arg2: i1) -> (i32, f32) {
// BACK-NEXT:      %c7_i32 = arith.constant 7 : i32
// BACK-NEXT:      %cst = arith.constant 2.500000e-01 : f32
// BACK-NEXT:      %1 = arith.addi %arg0, %c7_i32 overflow<nsw, nuw> : i32
// BACK-NEXT:      %2 = arith.mulf %arg1, %cst fastmath<fast> : f32
// BACK-NEXT:      %3 = arith.cmpi sge, %1, %arg0 : i32
// BACK-NEXT:      %4 = arith.select %3, %1, %c7_i32 : i32
// BACK-NEXT:      %5 = arith.sitofp %4 : i32 to f32
// BACK-NEXT:      cf.cond_br %arg2, ^bb1(%4, %5 : i32, f32), ^bb2
// BACK-NEXT:    ^bb1(%6: i32, %7: f32):  // 2 preds: ^bb0, ^bb2
// BACK-NEXT:      %8 = call @helper(%6) : (i32) -> i32
// BACK-NEXT:      return %8, %7 : i32, f32
// BACK-NEXT:    ^bb2:  // pred: ^bb0
// BACK-NEXT:      cf.br ^bb1(%1, %2 : i32, f32)
// BACK-NEXT:    }
// BACK-NEXT:    func.func private @helper(i32) -> i32
func.func @kernel(%a: i32, %x: f32, %c: i1) -> (i32, f32) {
  %k = arith.constant 7 : i32
  %h = arith.constant 0.25 : f32
  %s = arith.addi %a, %k overflow<nsw, nuw> : i32
  %m = arith.mulf %x, %h fastmath<fast> : f32
  %ge = arith.cmpi sge, %s, %a : i32
  %sel = arith.select %ge, %s, %k : i32
  %f = arith.sitofp %sel : i32 to f32
  cf.cond_br %c, ^join(%sel, %f : i32, f32), ^other
^join(%r: i32, %y: f32):
  %call = func.call @helper(%r) : (i32) -> i32
  return %call, %y : i32, f32
^other:
  cf.br ^join(%s, %m : i32, f32)
}
func.func private @helper(i32) -> i32

// Attributes tilus-opt prints as written: MLIR normalizes them (splat, float digits, booleans,
// hex data, array element widths, integer-set constraints).
// CHECK-NEXT:   "t.attrs"() {a = dense<1> : tensor<3xi32>, b = dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>, c = dense<[true, false]> : tensor<2xi1>, d = dense<[1, 2]> : tensor<2xi32>, e = array<i8: -1, 16>, f = #set} : () -> ()
// BACK-NEXT:    "t.attrs"() {a = dense<1> : tensor<3xi32>, b = dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>, c = dense<[true, false]> : tensor<2xi1>, d = dense<[1, 2]> : tensor<2xi32>, e = array<i8: -1, 16>, f = #set} : () -> ()
"t.attrs"() {a = dense<[1, 1, 1]> : tensor<3xi32>, b = dense<[1.0, 2.5]> : tensor<2xf32>, c = dense<[1, 0]> : tensor<2xi1>, d = dense<"0x0100000002000000"> : tensor<2xi32>, e = array<i8: 255, 0x10>, f = affine_set<(d0) : (d0 <= 10)>} : () -> ()
// Complex elements: tilus-opt writes `(1, 2)`, which MLIR reads and prints as `(1,2)`.
// CHECK-NEXT:   "t.complex"() {g = dense<(1,2)> : tensor<2xcomplex<i32>>} : () -> ()
"t.complex"() {g = dense<(1, 2)> : tensor<2xcomplex<i32>>} : () -> ()

// Types, properties and regions of unregistered ops.
// CHECK-NEXT:   %0:2 = "t.def"() <{p = [1, "two"]}> ({
// CHECK-NEXT:   ^bb0(%arg0: memref<?x4xf16, #map, "shared">, %arg1: !t.tok<"x">):
// CHECK-NEXT:     "t.yield"(%arg0) : (memref<?x4xf16, #map, "shared">) -> ()
// CHECK-NEXT:   }) {q = @sym::@nested} : () -> (vector<[4]xf32>, tuple<i1, complex<f64>>)
// CHECK-NEXT:   "t.use"(%0#1, %0#0) : (tuple<i1, complex<f64>>, vector<[4]xf32>) -> ()
// BACK:         %0:2 = "t.def"() <{p = [1, "two"]}> ({
// BACK-NEXT:    ^bb0(%arg0: memref<?x4xf16, #map, "shared">, %arg1: !t.tok<"x">):
// BACK-NEXT:      "t.yield"(%arg0) : (memref<?x4xf16, #map, "shared">) -> ()
// BACK-NEXT:    }) {q = @sym::@nested} : () -> (vector<[4]xf32>, tuple<i1, complex<f64>>)
// BACK-NEXT:    "t.use"(%0#1, %0#0) : (tuple<i1, complex<f64>>, vector<[4]xf32>) -> ()
%p:2 = "t.def"() <{p = [1, "two"]}> ({
^bb0(%m: memref<?x4xf16, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>, "shared">, %t: !t.tok<"x">):
  "t.yield"(%m) : (memref<?x4xf16, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>, "shared">) -> ()
}) {q = @sym::@nested} : () -> (vector<[4]xf32>, tuple<i1, complex<f64>>)
"t.use"(%p#1, %p#0) : (tuple<i1, complex<f64>>, vector<[4]xf32>) -> ()

// Locations (printed only with debug info).
// CHECK-NEXT:   "t.located"() : () -> ()
// CHECK-NEXT:   "t.fused"() : () -> ()
// CHECK-NEXT: }
// BACK-NEXT:    "t.located"() : () -> ()
// BACK-NEXT:    "t.fused"() : () -> ()
// BACK-NEXT:  }
// LOC: "t.located"() : () -> () loc(callsite("callee.mlir":1:2 at "caller.mlir":3:4))
// LOC: "t.fused"() : () -> () loc(fused<"tag">["a.mlir":1:1, "b"("c.mlir":2:2)])
// LOC: } loc("{{.*}}mlir-compat.mlir":0:0)
"t.located"() : () -> () loc(callsite("callee.mlir":1:2 at "caller.mlir":3:4))
"t.fused"() : () -> () loc(fused<"tag">["a.mlir":1:1, "b"("c.mlir":2:2)])
