// Builtin attributes as `tilus-opt` prints them, which is how `mlir-opt` prints them: integers
// (bool, widths, signedness, hex, huge), floats (decimal, hex NaN/inf, half types), strings and
// their escapes, arrays, sorted dictionaries, unit, symbol references, dense elements, dense
// resources with their `{-# dialect_resources #-}` section, dense arrays, affine maps and sets
// (with `#map`/`#set` aliases), strided layouts, dialect attributes, and user-defined aliases
// (always resolved). The second part, distinct attributes and locations used as attributes, is
// checked with --print-local-scope, where both are written inline.
//
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect | \
// RUN:   tilus-opt --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect --print-local-scope \
// RUN:   | FileCheck %s --check-prefix=LOCAL

// User aliases (`#name = ...`, `!name = ...`) are resolved where used and never printed. Affine
// maps and sets get their own aliases `#map`, `#map1`, `#set`, ... in order of first use.
// CHECK-NOT:  #myattr
// CHECK-NOT:  !ty
// CHECK:      #map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 - s0, d0 floordiv 4, d1 ceildiv 3, d0 mod 5)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map3 = affine_map<() -> (0)>
// CHECK-NEXT: #map4 = affine_map<(d0) -> (d0 + 1)>
// CHECK-NEXT: #set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 == 0)>
// CHECK-NEXT: #set1 = affine_set<(d0) : (d0 - 2 == 0)>
// CHECK-NEXT: module {
#myattr = {a = 1 : i32}
!ty = !t.ty
#lay = affine_map<(d0) -> (d0 + 1)>

// i1 values print as `true`/`false`, whichever way they were written.
// CHECK-NEXT:   "t.bool"() {a = true, b = false, c = true, d = false} : () -> ()
"t.bool"() {a = true, b = false, c = 1 : i1, d = 0 : i1} : () -> ()

// An untyped integer is i64 and the type is always printed. Signless values are printed signed
// (two's complement of the width), `ui`/`si` keep their own reading.
// CHECK-NEXT:   "t.int"() {a = 42 : i64, b = -42 : i32, c = -1 : i8, d = -128 : i8, e = 200 : ui8, f = -5 : si8, g = 5 : index, h = 3 : i7} : () -> ()
"t.int"() {a = 42, b = -42 : i32, c = 255 : i8, d = -128 : i8, e = 200 : ui8, f = -5 : si8, g = 5 : index, h = 3 : i7} : () -> ()
// Wide integers keep every digit.
// CHECK-NEXT:   "t.huge"() {a = 170141183460469231731687303715884105727 : i128, b = -170141183460469231731687303715884105728 : i128, c = -1 : i128, d = 98765432109876543210 : ui128} : () -> ()
"t.huge"() {a = 170141183460469231731687303715884105727 : i128, b = -170141183460469231731687303715884105728 : i128, c = 340282366920938463463374607431768211455 : i128, d = 98765432109876543210 : ui128} : () -> ()
// Hex integer literals print in decimal.
// CHECK-NEXT:   "t.hex"() {a = 16 : i32, b = -1 : i32, c = -16 : i32, d = 3735928559 : i64} : () -> ()
"t.hex"() {a = 0x10 : i32, b = 0xFFFFFFFF : i32, c = -0x10 : i32, d = 0xdeadBEEF : i64} : () -> ()

// An untyped float is f64. Floats print with 6 digits in exponent form when that reads back
// exactly, else with as many digits as needed.
// CHECK-NEXT:   "t.float"() {a = 1.500000e+00 : f64, b = 1.000000e+00 : f32, c = -0.000000e+00 : f32, d = 1.000000e-01 : f32, e = 1.000000e+10 : f32, f = 1.000000e-07 : f32, g = 3.14159265358979 : f64, h = 1.000000e+100 : f64, i = 5.000000e-01 : f32, j = 123456789.5 : f64} : () -> ()
"t.float"() {a = 1.5, b = 1.0 : f32, c = -0.0 : f32, d = 0.1 : f32, e = 1.0e10 : f32, f = 1.0e-7 : f32, g = 3.14159265358979 : f64, h = 1.0e100 : f64, i = 5.0e-1 : f32, j = 123456789.5 : f64} : () -> ()
// Bit patterns in hex: NaN and infinities stay hex, ordinary values print as decimals.
// CHECK-NEXT:   "t.float_hex"() {a = 0x7FC00000 : f32, b = 0x7F800000 : f32, c = 0xFF800000 : f32, d = 0x7FF8000000000000 : f64, e = 1.000000e+00 : f32, f = 0xFFF0000000000000 : f64, g = 0x7FC00001 : f32} : () -> ()
"t.float_hex"() {a = 0x7FC00000 : f32, b = 0x7F800000 : f32, c = 0xFF800000 : f32, d = 0x7FF8000000000000 : f64, e = 0x3F800000 : f32, f = 0xFFF0000000000000 : f64, g = 0x7FC00001 : f32} : () -> ()
// Half and small float types.
// CHECK-NEXT:   "t.half"() {a = 1.000000e+00 : f16, b = 6.550400e+04 : f16, c = 0x7C00 : f16, d = 0x7E00 : f16, e = -0.000000e+00 : f16, f = 1.000000e+00 : bf16, g = 0x7FC0 : bf16, h = 5.000000e-01 : f8E4M3FN, i = 6.000000e+00 : f4E2M1FN, j = 1.000000e+00 : tf32} : () -> ()
"t.half"() {a = 1.0 : f16, b = 65504.0 : f16, c = 0x7C00 : f16, d = 0x7E00 : f16, e = 0x8000 : f16, f = 1.0 : bf16, g = 0x7FC0 : bf16, h = 0.5 : f8E4M3FN, i = 6.0 : f4E2M1FN, j = 1.0 : tf32} : () -> ()

// Strings: `\\` stays, `"` and every byte outside printable ASCII become `\XX` (uppercase hex);
// `\41` is just `A`. A string may carry a type.
// CHECK-NEXT:   "t.string"() {a = "plain", b = "q\22b\\s\0An\09t", c = "\01\1F\7F\FF", d = "", e = "caf\C3\A9", f = "AB", g = "typed" : i32} : () -> ()
"t.string"() {a = "plain", b = "q\"b\\s\nn\tt", c = "\01\1f\7F\ff", d = "", e = "café", f = "\41\42", g = "typed" : i32} : () -> ()

// Arrays nest and mix kinds; inside an array i64 integers and f64 floats drop their type.
// CHECK-NEXT:   "t.array"() {a = [], b = [1, [2, "x"], {a = 1 : i64}], c = [1, 2 : i32, 1.000000e+00, 2.000000e+00 : f32, true, 5 : index], d = [i32, !t.x]} : () -> ()
"t.array"() {a = [], b = [1, [2, "x"], {a = 1}], c = [1, 2 : i32, 1.0, 2.0 : f32, true, 5 : index], d = [i32, !t.x]} : () -> ()

// Dictionaries are sorted by key; keys that are not identifiers are quoted; `k = unit` is `k`.
// CHECK-NEXT:   "t.dict"() {"9x" = 5 : i64, "a b" = 6 : i64, a.b = 7 : i64, aa = 2 : i8, b, empty = {}, nested = {y = 2 : i64, z}, zz = 1 : i64} : () -> ()
"t.dict"() {zz = 1, aa = 2 : i8, b = unit, "9x" = 5, "a b" = 6, a.b = 7, nested = {z, y = 2}, empty = {}} : () -> ()
// CHECK-NEXT:   "t.unit"() {a, b, c = [unit]} : () -> ()
"t.unit"() {a, b = unit, c = [unit]} : () -> ()

// Symbol references, flat and nested; names that are not identifiers are quoted.
// CHECK-NEXT:   "t.symbol"() {a = @f, b = @a::@b::@c, c = @"quoted name", d = @x.y, e = @"9abc"} : () -> ()
"t.symbol"() {a = @f, b = @a::@b::@c, c = @"quoted name", d = @"x.y", e = @"9abc"} : () -> ()

// Dense elements: splats, lists nested along the shape, 0-d tensors, vectors.
// CHECK-NEXT:   "t.dense"() {a = dense<1> : tensor<4xi32>, b = dense<[1, 2, 3]> : tensor<3xi32>, c = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>, d = dense<7> : tensor<i32>, e = dense<5> : vector<2xi8>, f = dense<[-1, 2]> : tensor<2xsi8>} : () -> ()
"t.dense"() {a = dense<1> : tensor<4xi32>, b = dense<[1, 2, 3]> : tensor<3xi32>, c = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, d = dense<7> : tensor<i32>, e = dense<5> : vector<2xi8>, f = dense<[-1, 2]> : tensor<2xsi8>} : () -> ()
// Float elements (NaN in hex), booleans, strings of a dialect element type.
// CHECK-NEXT:   "t.dense_other"() {a = dense<1.500000e+00> : tensor<2xf32>, b = dense<[0x7FC00000, 1.000000e+00]> : tensor<2xf32>, c = dense<{{\[\[}}1.000000e+00], [2.000000e+00]]> : tensor<2x1xbf16>, d = dense<true> : tensor<4xi1>, e = dense<[true, false]> : tensor<2xi1>, f = dense<["a", "b\0A"]> : tensor<2x!t.str>, g = dense<"x"> : tensor<3x!t.str>} : () -> ()
"t.dense_other"() {a = dense<1.500000e+00> : tensor<2xf32>, b = dense<[0x7FC00000, 1.000000e+00]> : tensor<2xf32>, c = dense<[[1.000000e+00], [2.000000e+00]]> : tensor<2x1xbf16>, d = dense<true> : tensor<4xi1>, e = dense<[true, false]> : tensor<2xi1>, f = dense<["a", "b\n"]> : tensor<2x!t.str>, g = dense<"x"> : tensor<3x!t.str>} : () -> ()
// No elements: `dense<>`. More than 100 elements that are not a splat: the raw little-endian
// bytes as a hex string.
// CHECK-NEXT:   "t.dense_edge"() {a = dense<> : tensor<0xi32>, b = dense<> : tensor<2x0xf32>, c = dense<"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364"> : tensor<101xi8>, d = dense<3> : tensor<1000xi32>} : () -> ()
"t.dense_edge"() {a = dense<> : tensor<0xi32>, b = dense<> : tensor<2x0xf32>, c = dense<"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364"> : tensor<101xi8>, d = dense<3> : tensor<1000xi32>} : () -> ()
// Sparse elements: indices, then values.
// CHECK-NEXT:   "t.sparse"() {a = sparse<{{\[\[}}0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>, b = sparse<> : tensor<2xi32>} : () -> ()
"t.sparse"() {a = sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>, b = sparse<> : tensor<2xi32>} : () -> ()

// dense_resource<key> refers to a blob of the `{-# ... #-}` section printed after the module;
// a key that is not an identifier is quoted.
// CHECK-NEXT:   "t.resource"() {a = dense_resource<blob1> : tensor<4xi8>, b = dense_resource<"quoted blob"> : tensor<1xi32>, c = dense_resource<blob1> : tensor<2x2xi8>} : () -> ()
"t.resource"() {a = dense_resource<blob1> : tensor<4xi8>, b = dense_resource<"quoted blob"> : tensor<1xi32>, c = dense_resource<blob1> : tensor<2x2xi8>} : () -> ()

// Dense arrays `array<T: ...>`, empty ones included.
// CHECK-NEXT:   "t.dense_array"() {a = array<i64: 1, 2>, b = array<f32: 1.000000e+00, 2.500000e+00>, c = array<i1: true, false>, d = array<i32>, e = array<i8: -1, 127>, f = array<f64: 0x7FF8000000000000>} : () -> ()
"t.dense_array"() {a = array<i64: 1, 2>, b = array<f32: 1.000000e+00, 2.500000e+00>, c = array<i1: true, false>, d = array<i32>, e = array<i8: -1, 127>, f = array<f64: 0x7FF8000000000000>} : () -> ()

// Affine maps and sets are printed through their aliases; dims are renamed `d0, d1, ...`.
// CHECK-NEXT:   "t.affine"() {a = #map, b = #map1, c = #map2, d = #map3, e = #map4} : () -> ()
"t.affine"() {a = affine_map<(d0, d1) -> (d0, d1)>, b = affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 - s0, d0 floordiv 4, d1 ceildiv 3, d0 mod 5)>, c = affine_map<(i, j) -> (j, i)>, d = affine_map<() -> (0)>, e = #lay} : () -> ()
// CHECK-NEXT:   "t.set"() {a = #set, b = #set1} : () -> ()
"t.set"() {a = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 == 0)>, b = affine_set<(d0) : (d0 - 2 == 0)>} : () -> ()

// Strided layouts as attributes: a zero offset is left out, `?` is dynamic.
// CHECK-NEXT:   "t.strided"() {a = strided<[1]>, b = strided<[?, 1], offset: ?>, c = strided<[4, 1]>, d = strided<[], offset: 3>} : () -> ()
"t.strided"() {a = strided<[1]>, b = strided<[?, 1], offset: ?>, c = strided<[4, 1], offset: 0>, d = strided<[], offset: 3>} : () -> ()

// Dialect attributes: pretty `#dialect.name<body>` (body verbatim) and opaque `#dialect<"...">`;
// types used as attributes.
// CHECK-NEXT:   "t.dialect"() {a = #t.bar, b = #t.bar<1, "x">, c = #t<"opaque body">, d = #t.bar< 1 ,  "x" >, e = #t.n<#t.m<[1]>>} : () -> ()
"t.dialect"() {a = #t.bar, b = #t.bar<1, "x">, c = #t<"opaque body">, d = #t.bar< 1 ,  "x" >, e = #t.n<#t.m<[1]>>} : () -> ()
// CHECK-NEXT:   "t.typed"() {a = i32, b = !t.x, c = (i32) -> i1, d = tensor<4xf32>} : () -> ()
"t.typed"() {a = i32, b = !t.x, c = (i32) -> i1, d = tensor<4xf32>} : () -> ()

// A dialect attribute may be followed by `: type`, which is kept and printed (MLIR hands it to
// the dialect; for dialects it does not know it keeps it in the opaque attribute).
// CHECK-NEXT:   "t.dialect_typed"() {a = #t.e1di64_elements<blob1> : tensor<*xi1>, b = [#t.bar : i32], c = #t<"x"> : f32} : () -> ()
"t.dialect_typed"() {a = #t.e1di64_elements<blob1>   :   tensor<*xi1>, b = [#t.bar : i32], c = #t<"x"> : f32} : () -> ()

// Aliases used inside a dialect body are replaced by their values (the body is text, and the
// output defines no aliases); strings in the body are left alone.
// CHECK-NEXT:   "t.body_alias"() {a = #t.scope<domain = {a = 1 : i32}, s = "#myattr", t = !t.ty>} : () -> ()
"t.body_alias"() {a = #t.scope<domain = #myattr, s = "#myattr", t = !ty>} : () -> ()

// Aliases are replaced by their values, in attributes, properties and result types.
// CHECK-NEXT:   "t.alias"() {a = {a = 1 : i32}, b = !t.ty, c = [{a = 1 : i32}, #map4]} : () -> ()
"t.alias"() {a = #myattr, b = !ty, c = [#myattr, #lay]} : () -> ()
// CHECK-NEXT:   %0 = "t.prop"() <{p = [1, 2.500000e+00, "s"], q = #map4}> {r = {a = 1 : i32}} : () -> !t.ty
%0 = "t.prop"() <{p = [1, 2.5, "s"], q = #lay}> {r = #myattr} : () -> !ty
// CHECK-NEXT: }

// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       blob1: "0x0400000001020304",
// CHECK-NEXT:       "quoted blob": "0x0400000005000000"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0400000001020304",
      "quoted blob": "0x0400000005000000"
    }
  }
#-}

// -----

// Distinct attributes: the same `distinct[N]` is the same attribute, and ids are renumbered from
// 0 in print order; a unit payload prints as `distinct[N]<>`.
// The split parts are printed one after the other, separated by the split marker line.
// LOCAL:      {{^// -{5}$}}
// LOCAL-NEXT: module {
// LOCAL-NEXT:   "t.distinct"() {a = distinct[0]<"x">, b = distinct[0]<"x">, c = distinct[1]<{a = 1 : i64}>, d = distinct[2]<>, e = distinct[3]<"x">} : () -> ()
"t.distinct"() {a = distinct[7]<"x">, b = distinct[7]<"x">, c = distinct[5]<{a = 1}>, d = distinct[9]<unit>, e = distinct[0]<"x">} : () -> ()

// Locations are attributes too: file positions, unknown, names, call sites, fused locations.
// LOCAL-NEXT:   "t.loc"() {a = loc("file.mlir":3:4), b = loc(unknown), c = loc("name"), d = loc(fused["a.mlir":1:2, "b.mlir":3:4]), e = loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))} : () -> ()
"t.loc"() {a = loc("file.mlir":3:4), b = loc(unknown), c = loc("name"), d = loc(fused["a.mlir":1:2, "b.mlir":3:4]), e = loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))} : () -> ()
// LOCAL-NEXT: }
