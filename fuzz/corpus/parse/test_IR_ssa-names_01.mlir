
// Several result groups on one op, and forward references (allowed in the single-block region
// of an unregistered op, which is a graph region).
// CHECK-LABEL: "t.graph"() ({
// CHECK-NEXT:    %0:2 = "t.pair"() : () -> (i32, i32)
// CHECK-NEXT:    "t.use"(%0#1, %0#0, %1) : (i32, i32, index) -> ()
// CHECK-NEXT:    %1 = "t.late"() : () -> index
// CHECK-NEXT:    %2:3 = "t.triple"() : () -> (i32, i64, i64)
// CHECK-NEXT:    "t.use"(%2#0, %2#1, %2#2) : (i32, i64, i64) -> ()
// CHECK-NEXT:  }) : () -> ()
"t.graph"() ({
  %pair:2 = "t.pair"() : () -> (i32, i32)
  "t.use"(%pair#1, %pair#0, %later) : (i32, i32, index) -> ()
  %later = "t.late"() : () -> index
  %a, %b:2 = "t.triple"() : () -> (i32, i64, i64)
  "t.use"(%a, %b#0, %b#1) : (i32, i64, i64) -> ()
}) : () -> ()

// Blocks are renumbered in the order they appear, whatever their names in the input; the
// comment lists the predecessors by their new names, or says there are none.
// CHECK-LABEL: "t.cfg"() ({
// CHECK-NEXT:    "t.br"()[^bb2] : () -> ()
// CHECK-NEXT:  ^bb1:  // pred: ^bb2
// CHECK-NEXT:    "t.br"()[^bb3] : () -> ()
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    "t.br"()[^bb1] : () -> ()
// CHECK-NEXT:  ^bb3:  // pred: ^bb1
// CHECK-NEXT:    "t.end"() : () -> ()
// CHECK-NEXT:  ^bb4:  // no predecessors
// CHECK-NEXT:    "t.end"() : () -> ()
// CHECK-NEXT:  }) : () -> ()
"t.cfg"() ({
  "t.br"()[^last] : () -> ()
^middle:
  "t.br"()[^exit] : () -> ()
^last:
  "t.br"()[^middle] : () -> ()
^exit:
  "t.end"() : () -> ()
^dead:
  "t.end"() : () -> ()
}) : () -> ()
