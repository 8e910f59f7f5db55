// A body that a registered dialect's attribute rejects is a parse error at the attribute, in the
// generic form and in an op's custom form alike; so is an attribute name the dialect does not
// declare, or a dense-array element of the wrong kind.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

func.func @overflow_word(%a: i32) -> i32 {
  // expected-error@+1 {{invalid '#arith.overflow' attribute: expected 'none', 'nsw' or 'nuw', found 'wrap'}}
  %0 = arith.addi %a, %a overflow<nsw, wrap> : i32
  return %0 : i32
}

// -----

func.func @fastmath_word(%a: f32) -> f32 {
  // expected-error@+1 {{invalid '#arith.fastmath' attribute: expected a fastmath flag (none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast), found 'quick'}}
  %0 = "arith.addf"(%a, %a) <{fastmath = #arith.fastmath<quick>}> : (f32, f32) -> f32
  return %0 : f32
}

// -----

// expected-error@+1 {{unknown attribute '#arith.wrap': dialect 'arith' declares #arith.overflow, #arith.fastmath}}
"test.use"() {a = #arith.wrap<nsw>} : () -> ()

// -----

// expected-error@+1 {{unexpected decimal integer literal for a floating point value}}
"test.use"() {a = array<f32: 1.5, 2>} : () -> ()

// -----

// expected-error@+1 {{expected 'true' or 'false' in an array of i1}}
"test.use"() {a = array<i1: 1>} : () -> ()

// -----

// expected-error@+1 {{integer constant out of range for attribute}}
"test.use"() {a = array<i8: 256>} : () -> ()
