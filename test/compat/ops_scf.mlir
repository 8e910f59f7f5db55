// The ops of MLIR 22's scf dialect that tilus declares, in custom form and
// then in generic form.

func.func @ops(%a: i32, %c: i1, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (i32) {
    %s = arith.addi %acc, %a : i32
    scf.yield %s : i32
  }
  %1 = scf.if %c -> (i32) {
    scf.yield %0 : i32
  } else {
    scf.yield %a : i32
  }
  %2 = scf.execute_region -> i32 {
    cf.br ^bb1
  ^bb1:
    scf.yield %1 : i32
  }
  %3 = scf.execute_region -> i32 no_inline {
    scf.yield %2 : i32
  }
  %4:2 = scf.while (%x = %3, %y = %n) : (i32, index) -> (i32, index) {
    %lt = arith.cmpi slt, %x, %a : i32
    scf.condition(%lt) %x, %y : i32, index
  } do {
  ^bb0(%x2: i32, %y2: index):
    %next = arith.addi %x2, %a : i32
    scf.yield %next, %y2 : i32, index
  }
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  }
  return %4#0 : i32
}

"func.func"() <{function_type = (i32, i1) -> i32, sym_name = "generic"}> ({
^bb0(%a: i32, %c: i1):
  %0 = "scf.execute_region"() <{no_inline}> ({
    "scf.yield"(%a) : (i32) -> ()
  }) : () -> i32
  %1 = "scf.while"(%0) ({
  ^bb0(%x: i32):
    "scf.condition"(%c, %x) : (i1, i32) -> ()
  }, {
  ^bb0(%y: i32):
    "scf.yield"(%y) : (i32) -> ()
  }) : (i32) -> i32
  "func.return"(%1) : (i32) -> ()
}) : () -> ()
