// Builtin types in their custom (pretty) form: every kind MLIR 22 has, each spelled the way
// `mlir-opt` prints it. Types are shown two ways: as type attributes of an unregistered op
// (`"t.use"() {t = i7}`) and as the types of values produced and consumed by ops, including
// function arguments. The expected text is what `mlir-opt --allow-unregistered-dialect` prints.
//
// RUN: tilus-opt %s --allow-unregistered-dialect | FileCheck %s
// The generic form keeps every type, and reads back to the same custom text.
// RUN: tilus-opt %s --allow-unregistered-dialect --print-op-generic \
// RUN:   | tilus-opt --allow-unregistered-dialect | FileCheck %s
// Printing the output again changes nothing (the printer's output is a fixed point).
// RUN: tilus-opt %s --allow-unregistered-dialect | tilus-opt --allow-unregistered-dialect \
// RUN:   | FileCheck %s
// With --print-local-scope no alias is used: affine maps are written out where they occur.
// RUN: tilus-opt %s --allow-unregistered-dialect --print-local-scope \
// RUN:   | FileCheck %s --check-prefix=LOCAL

// Affine maps get `#map`, `#map1`, ... aliases, numbered in the order of their first use.
// CHECK:      #map = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map1 = affine_map<(d0) -> (d0 + 1)>
// CHECK-NEXT: #map2 = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK-NEXT: module {
// LOCAL-NOT:  #map
// LOCAL:      module {

// Integers: signless `iN` of any width (i0 included), signed `siN`, unsigned `uiN`; and `index`.
// CHECK-NEXT:   "t.int"() {a = i1, b = i7, c = i64, d = i1000, e = i0} : () -> ()
"t.int"() {a = i1, b = i7, c = i64, d = i1000, e = i0} : () -> ()
// CHECK-NEXT:   "t.sign"() {a = si1, b = si8, c = ui1, d = ui32} : () -> ()
"t.sign"() {a = si1, b = si8, c = ui1, d = ui32} : () -> ()
// CHECK-NEXT:   "t.index"() {t = index} : () -> ()
"t.index"() {t = index} : () -> ()

// Floats: the IEEE and extended types, then the 8-, 6- and 4-bit families.
// CHECK-NEXT:   "t.float"() {a = f16, b = bf16, c = f32, d = f64, e = tf32, f = f80, g = f128} : () -> ()
"t.float"() {a = f16, b = bf16, c = f32, d = f64, e = tf32, f = f80, g = f128} : () -> ()
// CHECK-NEXT:   "t.f8"() {a = f8E4M3FN, b = f8E5M2, c = f8E4M3, d = f8E5M2FNUZ, e = f8E4M3FNUZ, f = f8E4M3B11FNUZ, g = f8E3M4, h = f8E8M0FNU} : () -> ()
"t.f8"() {a = f8E4M3FN, b = f8E5M2, c = f8E4M3, d = f8E5M2FNUZ, e = f8E4M3FNUZ, f = f8E4M3B11FNUZ, g = f8E3M4, h = f8E8M0FNU} : () -> ()
// CHECK-NEXT:   "t.f6f4"() {a = f6E2M3FN, b = f6E3M2FN, c = f4E2M1FN} : () -> ()
"t.f6f4"() {a = f6E2M3FN, b = f6E3M2FN, c = f4E2M1FN} : () -> ()

// `none`, `complex<T>` of a float or an integer, and tuples (empty, single, nested).
// CHECK-NEXT:   "t.none"() {t = none} : () -> ()
"t.none"() {t = none} : () -> ()
// CHECK-NEXT:   "t.complex"() {a = complex<f32>, b = complex<i8>} : () -> ()
"t.complex"() {a = complex<f32>, b = complex<i8>} : () -> ()
// CHECK-NEXT:   "t.tuple"() {a = tuple<>, b = tuple<i32>, c = tuple<i32, tuple<f32, tuple<>>>} : () -> ()
"t.tuple"() {a = tuple<>, b = tuple<i32>, c = tuple<i32, tuple<f32, tuple<>>>} : () -> ()

// Vectors: fixed, multi-dimensional, scalable dimensions in brackets, and 0-d `vector<f32>`.
// CHECK-NEXT:   "t.vector"() {a = vector<4xf32>, b = vector<2x3x4xi8>, c = vector<[4]xf32>, d = vector<2x[4]xf32>, e = vector<[2]x[4]xf32>, f = vector<f32>, g = vector<4xindex>, h = vector<1x[1]xi1>} : () -> ()
"t.vector"() {a = vector<4xf32>, b = vector<2x3x4xi8>, c = vector<[4]xf32>, d = vector<2x[4]xf32>, e = vector<[2]x[4]xf32>, f = vector<f32>, g = vector<4xindex>, h = vector<1x[1]xi1>} : () -> ()

// Tensors: static, dynamic `?`, unranked `*`, 0-d, zero-sized, dialect element types.
// CHECK-NEXT:   "t.tensor"() {a = tensor<4x4xf32>, b = tensor<?x4xf32>, c = tensor<*xf32>, d = tensor<f32>, e = tensor<0x?xi1>, f = tensor<1x2x3x4x5xbf16>, g = tensor<4x!t.elt>} : () -> ()
"t.tensor"() {a = tensor<4x4xf32>, b = tensor<?x4xf32>, c = tensor<*xf32>, d = tensor<f32>, e = tensor<0x?xi1>, f = tensor<1x2x3x4x5xbf16>, g = tensor<4x!t.elt>} : () -> ()
// An encoding is any attribute, written after the element type (affine maps get an alias).
// CHECK-NEXT:   "t.encoding"() {a = tensor<4xf32, "enc">, b = tensor<4xf32, #t.enc<1>>, c = tensor<4xf32, #t.enc>, d = tensor<4xf32, 1 : i64>, e = tensor<?x?xf32, #map>} : () -> ()
// LOCAL:        "t.encoding"() {{.*}} e = tensor<?x?xf32, affine_map<(d0, d1) -> (d1, d0)>>}
"t.encoding"() {a = tensor<4xf32, "enc">, b = tensor<4xf32, #t.enc<1>>, c = tensor<4xf32, #t.enc>, d = tensor<4xf32, 1 : i64>, e = tensor<?x?xf32, affine_map<(d0, d1) -> (d1, d0)>>} : () -> ()

// Memrefs: ranked, 0-d, unranked; element types vector and complex; non-integer memory spaces.
// CHECK-NEXT:   "t.memref"() {a = memref<4x?xf32>, b = memref<f32>, c = memref<*xf32>, d = memref<4xvector<4xf32>>, e = memref<4xcomplex<f32>>} : () -> ()
"t.memref"() {a = memref<4x?xf32>, b = memref<f32>, c = memref<*xf32>, d = memref<4xvector<4xf32>>, e = memref<4xcomplex<f32>>} : () -> ()
// CHECK-NEXT:   "t.space"() {a = memref<4xf32, "gpu">, b = memref<*xi8, "shared">, c = memref<4xf32, 1 : i32>, d = memref<4xf32, {a}>} : () -> ()
"t.space"() {a = memref<4xf32, "gpu">, b = memref<*xi8, "shared">, c = memref<4xf32, 1 : i32>, d = memref<4xf32, {a}>} : () -> ()
// `strided<[strides], offset: N>` layouts: `?` is dynamic; a zero offset is not printed.
// CHECK-NEXT:   "t.strided"() {a = memref<?xf32, strided<[1], offset: ?>>, b = memref<4x4xf32, strided<[?, 1]>>, c = memref<4xf32, strided<[1], offset: 5>>, d = memref<2x3xf32, strided<[3, 1]>>, e = memref<f32, strided<[]>>, f = memref<f32, strided<[], offset: 3>>} : () -> ()
"t.strided"() {a = memref<?xf32, strided<[1], offset: ?>>, b = memref<4x4xf32, strided<[?, 1]>>, c = memref<4xf32, strided<[1], offset: 5>>, d = memref<2x3xf32, strided<[3, 1], offset: 0>>, e = memref<f32, strided<[]>>, f = memref<f32, strided<[], offset: 3>>} : () -> ()
// Affine-map layouts: the identity map is the default and disappears; others use `#map` aliases.
// CHECK-NEXT:   "t.layout"() {a = memref<4xf32, #map1>, b = memref<4xf32>, c = memref<4xf32, #map2, "global">} : () -> ()
// LOCAL:        "t.layout"() {a = memref<4xf32, affine_map<(d0) -> (d0 + 1)>>, b = memref<4xf32>, c = memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>, "global">} : () -> ()
"t.layout"() {a = memref<4xf32, affine_map<(d0) -> (d0 + 1)>>, b = memref<4xf32, affine_map<(d0) -> (d0)>>, c = memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>, "global">} : () -> ()

// Function types: one result that is not a function loses its parentheses; none, several, or a
// function-typed result keep them; function types nest on both sides of the arrow.
// CHECK-NEXT:   "t.function"() {a = () -> (), b = (i32) -> i32, c = (i32) -> i32, d = (i32, f32) -> (i32, i64), e = ((i32) -> i32) -> (() -> ()), f = (i32) -> ((i32) -> (i32, i32)), g = (!t.in) -> !t.out} : () -> ()
"t.function"() {a = () -> (), b = (i32) -> i32, c = (i32) -> (i32), d = (i32, f32) -> (i32, i64), e = ((i32) -> i32) -> (() -> ()), f = (i32) -> ((i32) -> (i32, i32)), g = (!t.in) -> !t.out} : () -> ()

// Dialect types: pretty `!dialect.name<params>` (parameters kept verbatim, whitespace included)
// and opaque `!dialect<"body">`.
// CHECK-NEXT:   "t.dialect"() {a = !t.bar, b = !t.bar<1, "x", [2]>, c = !t<"bar">, d = !t<"x.y">, e = !t.q<{a = 1}>, f = !t<1>, g = !t.a<>, h = !t.sp<  1 ,2 >, i = !t.f<(i32) -> i32>} : () -> ()
"t.dialect"() {a = !t.bar, b = !t.bar<1, "x", [2]>, c = !t<"bar">, d = !t<"x.y">, e = !t.q<{a = 1}>, f = !t<1>, g = !t.a<>, h = !t.sp<  1 ,2 >, i = !t.f<(i32) -> i32>} : () -> ()
// CHECK-NEXT:   "t.nested"() {a = tuple<!t.a, !t<"b">>, b = complex<f64>} : () -> ()
"t.nested"() {a = tuple<!t.a, !t<"b">>, b = complex<f64>} : () -> ()

// Values of these types: single results, a multi-result op, and a use listing every type.
// CHECK-NEXT:   %0 = "t.def"() : () -> i7
// CHECK-NEXT:   %1:3 = "t.def"() : () -> (si8, ui16, index)
// CHECK-NEXT:   %2 = "t.def"() : () -> vector<[4]x2xf32>
// CHECK-NEXT:   %3 = "t.def"() : () -> tensor<?x?xf32, "sparse">
// CHECK-NEXT:   %4 = "t.def"() : () -> memref<8x8xf16, strided<[16, 1], offset: ?>, "smem">
// CHECK-NEXT:   %5 = "t.def"() : () -> ((i32) -> (i32, i32))
// CHECK-NEXT:   %6 = "t.def"() : () -> !t.handle<"x">
// CHECK-NEXT:   %7 = "t.def"() : () -> complex<f32>
// CHECK-NEXT:   %8 = "t.def"() : () -> f4E2M1FN
// CHECK-NEXT:   "t.consume"(%0, %1#0, %1#1, %1#2, %2, %3, %4, %5, %6, %7, %8) : (i7, si8, ui16, index, vector<[4]x2xf32>, tensor<?x?xf32, "sparse">, memref<8x8xf16, strided<[16, 1], offset: ?>, "smem">, (i32) -> (i32, i32), !t.handle<"x">, complex<f32>, f4E2M1FN) -> ()
%0 = "t.def"() : () -> i7
%1:3 = "t.def"() : () -> (si8, ui16, index)
%2 = "t.def"() : () -> vector<[4]x2xf32>
%3 = "t.def"() : () -> tensor<?x?xf32, "sparse">
%4 = "t.def"() : () -> memref<8x8xf16, strided<[16, 1], offset: ?>, "smem">
%5 = "t.def"() : () -> ((i32) -> (i32, i32))
%6 = "t.def"() : () -> !t.handle<"x">
%7 = "t.def"() : () -> complex<f32>
%8 = "t.def"() : () -> f4E2M1FN
"t.consume"(%0, %1#0, %1#1, %1#2, %2, %3, %4, %5, %6, %7, %8) : (i7, si8, ui16, index, vector<[4]x2xf32>, tensor<?x?xf32, "sparse">, memref<8x8xf16, strided<[16, 1], offset: ?>, "smem">, (i32) -> (i32, i32), !t.handle<"x">, complex<f32>, f4E2M1FN) -> ()

// Function signatures in custom form: argument and result types as written.
// CHECK-NEXT:   func.func @signature(%arg0: i7, %arg1: memref<?xf32, strided<[1], offset: ?>>, %arg2: tensor<*xf32>, %arg3: vector<[8]xf16>, %arg4: !t.tok, %arg5: (i32) -> i32, %arg6: complex<f64>, %arg7: tuple<i1, index>, %arg8: none, %arg9: f8E4M3FN) -> (i7, !t.tok) {
// CHECK-NEXT:     return %arg0, %arg4 : i7, !t.tok
// CHECK-NEXT:   }
func.func @signature(%a: i7, %b: memref<?xf32, strided<[1], offset: ?>>, %c: tensor<*xf32>, %d: vector<[8]xf16>, %e: !t.tok, %f: (i32) -> i32, %g: complex<f64>, %h: tuple<i1, index>, %i: none, %j: f8E4M3FN) -> (i7, !t.tok) {
  return %a, %e : i7, !t.tok
}
// CHECK-NEXT:   func.func private @decl(() -> ()) -> ((i32) -> i32)
func.func private @decl(() -> ()) -> ((i32) -> i32)
// CHECK-NEXT: }
