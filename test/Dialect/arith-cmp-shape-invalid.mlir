// arith.cmpi/cmpf give i1 in the shape of their operands; any other result type is rejected with
// MLIR 22's message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

func.func @cmpi_scalar_result_for_vector(%a: vector<4xi32>) {
  // expected-error@+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 2 : i64}> : (vector<4xi32>, vector<4xi32>) -> i1
  return
}

// -----

func.func @cmpf_wrong_shape(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'arith.cmpf' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpf"(%a, %a) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x2xi1>
  return
}

// -----

func.func @cmpi_vector_result_for_scalar(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 0 : i64}> : (i32, i32) -> vector<1xi1>
  return
}
