// func.func / func.return / func.call / arith.constant / arith.addi in generic
// form. Inherent attributes (function_type, sym_name, sym_visibility,
// arg_attrs, res_attrs, value, callee) given as attributes are printed as
// properties; arith.addi gains its default `overflowFlags` property; other
// attributes stay discardable; declarations have an empty region. func.func
// bodies are SSACFG regions: no forward references there.

"func.func"() ({
^bb0(%arg0: i32, %arg1: i32):
  %0 = "arith.addi"(%arg0, %arg1) : (i32, i32) -> i32
  %c = "arith.constant"() {value = 42 : i32} : () -> i32
  %1 = "arith.addi"(%0, %c) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  %f = "arith.constant"() <{value = 1.0 : f32}> : () -> f32
  %t = "arith.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  "func.return"(%1) : (i32) -> ()
}) {function_type = (i32, i32) -> i32, sym_name = "add", sym_visibility = "private", llvm.foo = 1 : i32, arg_attrs = [{a.b}, {}], res_attrs = [{}]} : () -> ()
"func.func"() <{function_type = () -> (), sym_name = "decl", sym_visibility = "private"}> ({
}) : () -> ()
"func.func"() <{function_type = (index) -> (i32, i64), sym_name = "multi"}> ({
^bb0(%a: index):
  %x = "arith.constant"() <{value = 1 : i32}> : () -> i32
  %y = "arith.constant"() <{value = 2 : i64}> : () -> i64
  %z = "arith.constant"() <{value = 3 : index}> : () -> index
  %b = "arith.constant"() <{value = true}> : () -> i1
  "func.return"(%x, %y) : (i32, i64) -> ()
}) : () -> ()
"func.func"() <{function_type = () -> (), sym_name = "caller"}> ({
  "func.call"() <{callee = @decl}> : () -> ()
  %i = "arith.constant"() <{value = 0 : index}> : () -> index
  %r:2 = "func.call"(%i) <{callee = @multi}> : (index) -> (i32, i64)
  "func.return"() : () -> ()
}) : () -> ()
