// How the printer names SSA values and blocks. Names in the input are never kept: function
// arguments become `%argN`, other values `%N` (numbered in order, per isolated region), blocks
// `^bbN` (per region). In the custom form some ops suggest a name: `arith.constant` gives
// `%c42_i32`, `%c0` (index), `%true`/`%false`, `%cst` (floats); a repeated name gets a `_N`
// suffix from one counter shared by all names. Multi-result ops define `%N:2` and uses name one
// result as `%N#1`. Non-entry blocks carry a `// pred:` comment listing their predecessors. The
// generic form uses no suggested names and numbers values with one counter that runs through
// nested regions (later sibling regions reuse the numbers of earlier ones).
//
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect --print-op-generic \
// RUN:   | FileCheck %s --check-prefix=GENERIC
// Names do not depend on the names in the input: printed text reads back to the same text.
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   | tilus-opt --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect --print-op-generic \
// RUN:   | tilus-opt --split-input-file --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @names(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    %c42_i32 = arith.constant 42 : i32
// CHECK-NEXT:    %c42_i32_0 = arith.constant 42 : i32
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %cst_1 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %c-1_i64 = arith.constant -1 : i64
// CHECK-NEXT:    %0 = arith.cmpi slt, %arg0, %c42_i32 : i32
// CHECK-NEXT:    %1:2 = "t.pair"(%arg0) : (i32) -> (i32, f32)
// CHECK-NEXT:    %2 = arith.select %0, %1#0, %c42_i32_0 : i32
// CHECK-NEXT:    "t.use"(%1#1, %c0, %c1, %true, %false, %cst, %cst_1, %c-1_i64) : (f32, index, index, i1, i1, f32, f32, i64) -> ()
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1(%2 : i32), ^bb2
// CHECK-NEXT:  ^bb1(%3: i32):  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%3 : i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:    cf.br ^bb3(%c7_i32 : i32)
// CHECK-NEXT:  ^bb3(%4: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    return %4 : i32
// CHECK-NEXT:  }

// In the generic form the entry block is written out with its arguments. Numbering visits
// sibling regions last one first: @regions (below) takes %0 to %4, so @names starts at %5.
// GENERIC-LABEL: "func.func"() <{function_type = (i32, i1) -> i32, sym_name = "names"}> ({
// GENERIC-NEXT:    ^bb0(%arg3: i32, %arg4: i1):
// GENERIC-NEXT:      %5 = "arith.constant"() <{value = 42 : i32}> : () -> i32
// GENERIC-NEXT:      %6 = "arith.constant"() <{value = 42 : i32}> : () -> i32
// GENERIC-NEXT:      %7 = "arith.constant"() <{value = 0 : index}> : () -> index
// GENERIC-NEXT:      %8 = "arith.constant"() <{value = 1 : index}> : () -> index
// GENERIC-NEXT:      %9 = "arith.constant"() <{value = true}> : () -> i1
// GENERIC-NEXT:      %10 = "arith.constant"() <{value = false}> : () -> i1
// GENERIC-NEXT:      %11 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
// GENERIC-NEXT:      %12 = "arith.constant"() <{value = 2.000000e+00 : f32}> : () -> f32
// GENERIC-NEXT:      %13 = "arith.constant"() <{value = -1 : i64}> : () -> i64
// GENERIC-NEXT:      %14 = "arith.cmpi"(%arg3, %5) <{predicate = 2 : i64}> : (i32, i32) -> i1
// GENERIC-NEXT:      %15:2 = "t.pair"(%arg3) : (i32) -> (i32, f32)
// GENERIC-NEXT:      %16 = "arith.select"(%14, %15#0, %6) : (i1, i32, i32) -> i32
// GENERIC-NEXT:      "t.use"(%15#1, %7, %8, %9, %10, %11, %12, %13) : (f32, index, index, i1, i1, f32, f32, i64) -> ()
// GENERIC-NEXT:      "cf.cond_br"(%arg4, %16)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
// GENERIC-NEXT:    ^bb1(%17: i32):  // pred: ^bb0
// GENERIC-NEXT:      "cf.br"(%17)[^bb3] : (i32) -> ()
// GENERIC-NEXT:    ^bb2:  // pred: ^bb0
// GENERIC-NEXT:      %18 = "arith.constant"() <{value = 7 : i32}> : () -> i32
// GENERIC-NEXT:      "cf.br"(%18)[^bb3] : (i32) -> ()
// GENERIC-NEXT:    ^bb3(%19: i32):  // 2 preds: ^bb1, ^bb2
// GENERIC-NEXT:      "func.return"(%19) : (i32) -> ()
// GENERIC-NEXT:    }) : () -> ()
func.func @names(%a: i32, %flag: i1) -> i32 {
  %c = arith.constant 42 : i32
  %d = arith.constant 42 : i32
  %e = arith.constant 0 : index
  %f = arith.constant 1 : index
  %t = arith.constant true
  %u = arith.constant false
  %g = arith.constant 1.0 : f32
  %h = arith.constant 2.0 : f32
  %neg = arith.constant -1 : i64
  %lt = arith.cmpi slt, %a, %c : i32
  %p:2 = "t.pair"(%a) : (i32) -> (i32, f32)
  %r = arith.select %lt, %p#0, %d : i32
  "t.use"(%p#1, %e, %f, %t, %u, %g, %h, %neg) : (f32, index, index, i1, i1, f32, f32, i64) -> ()
  cf.cond_br %flag, ^then(%r : i32), ^else
^then(%x: i32):
  cf.br ^exit(%x : i32)
^else:
  %z = arith.constant 7 : i32
  cf.br ^exit(%z : i32)
^exit(%res: i32):
  return %res : i32
}

// Regions nested in a function see the function's values. In the custom form a function body
// starts its own numbering; sibling regions each continue from the values defined before the op,
// so both regions of "t.two" define a `%2` and a `%arg1`.
// CHECK-LABEL: func.func @regions(%arg0: i32) {
// CHECK-NEXT:    %0 = "t.outer"() : () -> i32
// CHECK-NEXT:    "t.two"() ({
// CHECK-NEXT:    ^bb0(%arg1: i32):
// CHECK-NEXT:      %2 = "t.in_first"(%arg1, %0) : (i32, i32) -> i32
// CHECK-NEXT:      "t.nested"() ({
// CHECK-NEXT:        %3 = "t.deep"(%2) : (i32) -> i32
// CHECK-NEXT:        "t.use"(%3) : (i32) -> ()
// CHECK-NEXT:      }) : () -> ()
// CHECK-NEXT:    }, {
// CHECK-NEXT:    ^bb0(%arg1: i32):
// CHECK-NEXT:      %2 = "t.in_second"(%arg1) : (i32) -> i32
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    %1 = "t.after"(%0) : (i32) -> i32
// CHECK-NEXT:    return
// CHECK-NEXT:  }

// In the generic form the last sibling region is numbered first, so the first region's
// argument is `%arg2` and its values start at `%3`.
// GENERIC-LABEL: "func.func"() <{function_type = (i32) -> (), sym_name = "regions"}> ({
// GENERIC-NEXT:    ^bb0(%arg0: i32):
// GENERIC-NEXT:      %0 = "t.outer"() : () -> i32
// GENERIC-NEXT:      "t.two"() ({
// GENERIC-NEXT:      ^bb0(%arg2: i32):
// GENERIC-NEXT:        %3 = "t.in_first"(%arg2, %0) : (i32, i32) -> i32
// GENERIC-NEXT:        "t.nested"() ({
// GENERIC-NEXT:          %4 = "t.deep"(%3) : (i32) -> i32
// GENERIC-NEXT:          "t.use"(%4) : (i32) -> ()
// GENERIC-NEXT:        }) : () -> ()
// GENERIC-NEXT:      }, {
// GENERIC-NEXT:      ^bb0(%arg1: i32):
// GENERIC-NEXT:        %2 = "t.in_second"(%arg1) : (i32) -> i32
// GENERIC-NEXT:      }) : () -> ()
// GENERIC-NEXT:      %1 = "t.after"(%0) : (i32) -> i32
// GENERIC-NEXT:      "func.return"() : () -> ()
// GENERIC-NEXT:    }) : () -> ()
func.func @regions(%arg: i32) {
  %0 = "t.outer"() : () -> i32
  "t.two"() ({
  ^bb0(%a: i32):
    %1 = "t.in_first"(%a, %0) : (i32, i32) -> i32
    "t.nested"() ({
      %2 = "t.deep"(%1) : (i32) -> i32
      "t.use"(%2) : (i32) -> ()
    }) : () -> ()
  }, {
  ^bb0(%b: i32):
    %3 = "t.in_second"(%b) : (i32) -> i32
  }) : () -> ()
  %4 = "t.after"(%0) : (i32) -> i32
  return
}

// -----

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
