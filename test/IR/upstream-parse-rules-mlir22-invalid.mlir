// Parser rules of MLIR 22 that tilus-opt once let through (found by running MLIR's own test
// inputs); each split is an error for mlir-opt too, with this message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// A hex blob holds one element (a splat) or all of them, in their storage width.
func.func @hex_too_long() {
  // expected-error@+1 {{elements hex data size is invalid for provided type: 'tensor<2xi8>'}}
  "t.use"() {a = dense<"0x010203"> : tensor<2xi8>} : () -> ()
  return
}

// -----

func.func @hex_f16_three_bytes() {
  // expected-error@+1 {{elements hex data size is invalid for provided type: 'tensor<1xf16>'}}
  "t.use"() {a = dense<"0x000000"> : tensor<1xf16>} : () -> ()
  return
}

// -----

// i1 elements are packed by the bit: two bytes are not two booleans.
func.func @hex_i1_bytes() {
  // expected-error@+1 {{elements hex data size is invalid for provided type: 'tensor<2xi1>'}}
  "t.use"() {a = dense<"0x0101"> : tensor<2xi1>} : () -> ()
  return
}

// -----

func.func @hex_ok() {
  "t.use"() {a = dense<"0x03"> : tensor<2xi1>, b = dense<"0x01"> : tensor<2xi8>,
             c = dense<"0x0102"> : tensor<2xi7>, d = dense<"0x0000803F00000000"> : tensor<complex<f32>>} : () -> ()
  return
}

// -----

func.func @dense_array_tf32() {
  // expected-error@+1 {{element type bitwidth must be a multiple of 8}}
  "t.use"() {a = array<tf32: 1024.0>} : () -> ()
  return
}

// -----

// expected-error@+1 {{'sym_visibility' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func @inferred_visibility() attributes {sym_visibility = "private"} {
  return
}

// -----

func.func @decimal_integer_for_float() {
  // expected-error@+1 {{unexpected decimal integer literal for a floating point value}}
  "t.use"() {value = 42 : f32} : () -> ()
  return
}

// -----

// expected-error@+1 {{parsed zero elements, but type ('tensor<i64>') expected at least 1}}
#zero = dense<> : tensor<i64>

// -----

// expected-error@+1 {{`dense_resource` expected a shaped type}}
#scalar_resource = dense_resource<resource> : i32

// -----

// The layout of a memref speaks of every dimension, even an identity map that is dropped.
#map0 = affine_map<(d0, d1) -> (d0, d1)>
// expected-error@+1 {{memref layout mismatch between rank and affine map: 1 != 2}}
func.func private @memref_map_rank(memref<42xi8, #map0>)

// -----

// expected-error@+1 {{expected the number of strides to match the rank}}
func.func private @memref_strided_rank() -> memref<?x?xf32, strided<[1]>>

// -----

// A complex number's element is an integer or a float.
// expected-error@+1 {{invalid element type for complex}}
"t.x"() {a = complex<complex<f64>>} : () -> ()

// -----

// expected-error@+1 {{invalid element type for complex}}
%0 = "t.x"() : () -> complex<index>

// -----

// A vector's element is an integer, index or float (or a dialect type that says it can be one),
// never a builtin container or `none`.
// expected-error@+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
%0 = "t.x"() : () -> vector<4xcomplex<f32>>

// -----

// expected-error@+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
func.func private @vector_of_none(vector<2xnone>)

// -----

// A distinct id names one attribute: its second definition must have the same value.
#a = distinct[0]<42 : i32>
// expected-error@+1 {{referenced attribute does not match previous definition: 42 : i32}}
#b = distinct[0]<43 : i32>
