// Input mlir-opt 22 rejects and tilus-opt used to accept (issue 20): names, string escapes and
// dense elements, each rejected at the token with mlir-opt's message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// A name that starts with a digit is digits only: `%1abc` is `%1` followed by `abc`.
func.func @digit_led_name(%a: i32) {
  // expected-error@+1 {{expected '=' after SSA name}}
  %1abc = arith.addi %a, %a : i32
  return
}

// -----

// The escapes are \n, \t, \", \\ and two hex digits; the rest are errors, not the letter.
// expected-error@+1 {{unknown escape in string literal}}
module attributes {test.x = "ab\q"} {}

// -----

// One hex digit is not an escape either.
// expected-error@+1 {{unknown escape in string literal}}
module attributes {test.x = "\4"} {}

// -----

// Every valid escape, for contrast.
module attributes {test.x = "\n\t\"\\\41\ff"} {}

// -----

// Dense elements must fit the element type: 300 is not an i8 (mlir-opt does not wrap it).
func.func @dense_out_of_range() -> tensor<2xi8> {
  // expected-error@+1 {{integer constant out of range for type}}
  %0 = arith.constant dense<300> : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @dense_below_range() -> tensor<2xi8> {
  // expected-error@+1 {{integer constant out of range for type}}
  %0 = arith.constant dense<[1, -129]> : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

// A signless iN holds [-2^(N-1), 2^N - 1], as in mlir-opt: 255 is the bit pattern of -1.
func.func @dense_unsigned_reading() -> tensor<2xi8> {
  %0 = arith.constant dense<[255, -128]> : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @dense_hex_out_of_range() -> tensor<2xi8> {
  // expected-error@+1 {{integer constant out of range for type}}
  %0 = arith.constant dense<0x1FF> : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @dense_bool_out_of_range() -> tensor<2xi1> {
  // expected-error@+1 {{integer constant out of range for type}}
  %0 = arith.constant dense<[true, 2]> : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @dense_bool_for_i8() -> tensor<2xi8> {
  // expected-error@+1 {{expected i1 type for 'true' or 'false' values}}
  %0 = arith.constant dense<true> : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @dense_float_for_int() -> tensor<2xi8> {
  // expected-error@+1 {{expected integer elements, but parsed floating-point}}
  %0 = arith.constant dense<1.5> : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @dense_int_for_float() -> tensor<2xf32> {
  // expected-error@+1 {{unexpected decimal integer literal for a floating point value}}
  %0 = arith.constant dense<[1.0, -1]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A hex literal is a float's bit pattern (here +inf).
func.func @dense_float_bits() -> tensor<2xf32> {
  %0 = arith.constant dense<0x7F800000> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dense_negative_unsigned() {
  // expected-error@+1 {{expected unsigned integer elements, but parsed negative value}}
  "test.x"() {v = dense<-1> : tensor<2xui8>} : () -> ()
  return
}
