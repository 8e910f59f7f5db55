// arith.cmpi and arith.cmpf on vectors and tensors: the result is i1 in the operands' shape.
func.func @v(%a: vector<4xi32>, %b: tensor<?x2xf32>, %c: tensor<*xi8>) -> (vector<4xi1>, tensor<?x2xi1>, tensor<*xi1>) {
  %0 = arith.cmpi slt, %a, %a : vector<4xi32>
  %1 = arith.cmpf olt, %b, %b : tensor<?x2xf32>
  %2 = arith.cmpi eq, %c, %c : tensor<*xi8>
  %3 = arith.select %0, %a, %a : vector<4xi1>, vector<4xi32>
  return %0, %1, %2 : vector<4xi1>, tensor<?x2xi1>, tensor<*xi1>
}
