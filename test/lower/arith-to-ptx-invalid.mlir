// convert-arith-to-ptx reports what it cannot convert, at the op.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --convert-arith-to-ptx --no-output

func.func @vector(%a: vector<4xi32>) -> vector<4xi32> {
  // expected-error@+1 {{cannot convert 'arith.addi' to PTX: type 'vector<4xi32>' is not a PTX scalar (i1, i8..i64, index, f16, bf16, f32, f64)}}
  %0 = arith.addi %a, %a : vector<4xi32>
  return %0 : vector<4xi32>
}

// -----

func.func @byte_arith(%a: i8) -> i8 {
  // expected-error@+1 {{cannot convert 'arith.muli' to PTX: PTX has no 8-bit arithmetic (extend to i16 or i32 first)}}
  %0 = arith.muli %a, %a : i8
  return %0 : i8
}
