// Every op of MLIR 22's builtin, func and cf dialects, in custom form and then
// in generic form.

module @named attributes {t.note = "kept"} {
  func.func private @decl(i32) -> i32
  func.func @callee(%a: i32) -> i32 {
    return %a : i32
  }
  func.func @ops(%a: i32, %c: i1) -> (i32, index) {
    %0 = func.call @callee(%a) : (i32) -> i32
    %f = func.constant @callee : (i32) -> i32
    %1 = func.call_indirect %f(%0) : (i32) -> i32
    %2 = builtin.unrealized_conversion_cast %1 : i32 to index
    %3:2 = builtin.unrealized_conversion_cast to i32, f32
    %4 = builtin.unrealized_conversion_cast %2, %1 : index, i32 to i64
    cf.assert %c, "a must hold"
    cf.cond_br %c, ^bb1(%a : i32), ^bb2
  ^bb1(%x: i32):
    cf.br ^bb2
  ^bb2:
    return %1, %2 : i32, index
  }
}

"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "g"}> ({
  ^bb0(%a: i32):
    %f = "func.constant"() <{value = @g}> : () -> ((i32) -> i32)
    %0 = "func.call_indirect"(%f, %a) : ((i32) -> i32, i32) -> i32
    %1 = "func.call"(%0) <{callee = @g}> : (i32) -> i32
    %2 = "builtin.unrealized_conversion_cast"(%1) : (i32) -> index
    %3 = "arith.constant"() <{value = true}> : () -> i1
    "cf.assert"(%3) <{msg = "generic"}> : (i1) -> ()
    "cf.br"(%1)[^bb1] : (i32) -> ()
  ^bb1(%x: i32):
    "func.return"(%x) : (i32) -> ()
  }) : () -> ()
}) {sym_name = "inner"} : () -> ()
