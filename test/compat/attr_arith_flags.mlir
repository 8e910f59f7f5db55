// `#arith.overflow` and `#arith.fastmath` in every spelling: flags in any order, with and
// without spaces, `none`, all seven fastmath flags (MLIR prints `fast`), and both as plain
// attributes of an unregistered op. tilus-opt prints each the way mlir-opt 22 does.

"func.func"() <{function_type = (i32, f32) -> (), sym_name = "flags"}> ({
^bb0(%a: i32, %b: f32):
  %0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<nuw,nsw>}> : (i32, i32) -> i32
  %1 = "arith.muli"(%a, %a) <{overflowFlags = #arith.overflow< nuw >}> : (i32, i32) -> i32
  %2 = "arith.subi"(%a, %a) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %3 = "arith.addf"(%b, %b) <{fastmath = #arith.fastmath<contract,nnan>}> : (f32, f32) -> f32
  %4 = "arith.mulf"(%b, %b) <{fastmath = #arith.fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn>}> : (f32, f32) -> f32
  %5 = "arith.divf"(%b, %b) <{fastmath = #arith.fastmath<afn, reassoc>}> : (f32, f32) -> f32
  "foo.x"() {g = #arith.overflow<nsw,nuw>, h = #arith.fastmath<contract, fast>, i = #arith.fastmath<none>} : () -> ()
  "func.return"() : () -> ()
}) : () -> ()
