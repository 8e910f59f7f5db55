// The verifier rules of the MLIR 22 ops added to builtin, func, arith, cf and scf, each with its
// message (MLIR's wording where MLIR states the rule).
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

func.func @addui_extended_overflow_type(%a: i32) {
  // expected-error@+1 {{'arith.addui_extended' op failed to verify that overflow type matches the sum type}}
  %0:2 = "arith.addui_extended"(%a, %a) : (i32, i32) -> (i32, vector<2xi1>)
  return
}

// -----

func.func @mulsi_extended_types(%a: i32) {
  // expected-error@+1 {{'arith.mulsi_extended' op failed to verify that all of {lhs, rhs, low, high} have same type}}
  %0:2 = "arith.mulsi_extended"(%a, %a) : (i32, i32) -> (i32, i16)
  return
}

// -----

func.func @scaling_extf_narrows(%x: f32, %s: f8E8M0FNU) {
  // expected-error@+1 {{'arith.scaling_extf' op operand types 'f32', 'f8E8M0FNU' and result type 'f16' are cast incompatible}}
  %0 = arith.scaling_extf %x, %s : f32, f8E8M0FNU to f16
  return
}

// -----

func.func @scaling_truncf_widens(%h: f16, %s: f8E8M0FNU) {
  // expected-error@+1 {{'arith.scaling_truncf' op operand types 'f16', 'f8E8M0FNU' and result type 'f32' are cast incompatible}}
  %0 = arith.scaling_truncf %h, %s : f16, f8E8M0FNU to f32
  return
}

// -----

func.func @truncf_rounding_keyword(%x: f32) {
  // A word that is not a rounding mode is not one: the type list is expected.
  // expected-error@+1 {{expected ':', found 'sideways'}}
  %0 = arith.truncf %x sideways : f32 to f16
  return
}

// -----

func.func @constant_undefined() {
  // expected-error@+1 {{'func.constant' op reference to undefined function 'nope'}}
  %0 = func.constant @nope : () -> ()
  return
}

// -----

// expected-note@+1 {{the function is defined here}}
func.func @constant_type() {
  // expected-error@+1 {{'func.constant' op reference to function with mismatched type}}
  %0 = func.constant @constant_type : () -> i32
  return
}

// -----

func.func @call_indirect_types(%f: (i32) -> i32, %x: i32) {
  // expected-error@+1 {{'func.call_indirect' op result types do not match the callee type's results}}
  %0 = "func.call_indirect"(%f, %x) : ((i32) -> i32, i32) -> f32
  return
}

// -----

func.func @cast_without_results(%x: i32) {
  // expected-error@+1 {{'builtin.unrealized_conversion_cast' op expected at least one result for cast operation}}
  "builtin.unrealized_conversion_cast"(%x) : (i32) -> ()
  return
}

// -----

func.func @assert_condition(%x: i32) {
  // expected-error@+1 {{'cf.assert' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "cf.assert"(%x) <{msg = "m"}> : (i32) -> ()
  return
}

// -----

func.func @execute_region_yield(%x: i32) {
  %0 = scf.execute_region -> f32 {
    // expected-error@+1 {{'scf.yield' op types (i32) do not match the results of the enclosing 'scf.execute_region' (f32)}}
    scf.yield %x : i32
  }
  return
}

// -----

func.func @while_after_yield(%x: i32, %c: i1, %f: f32) {
  // expected-error@+1 {{'scf.while' op expects the 'after' region to yield values of the operands' types}}
  %0 = scf.while (%a = %x) : (i32) -> i32 {
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %f : f32
  }
  return
}

// -----

func.func @while_condition_results(%x: i32, %c: i1) {
  // expected-error@+1 {{'scf.while' op expects the results to have the types of the values 'scf.condition' forwards}}
  %0 = "scf.while"(%x) ({
  ^bb0(%a: i32):
    "scf.condition"(%c) : (i1) -> ()
  }, {
  ^bb0:
    "scf.yield"(%x) : (i32) -> ()
  }) : (i32) -> i32
  return
}

// -----

func.func @condition_parent(%c: i1) {
  // expected-error@+1 {{'scf.condition' op expects parent op 'scf.while'}}
  scf.condition(%c)
}
