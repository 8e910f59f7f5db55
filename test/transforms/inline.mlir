// inline inlines calls bottom-up over the call graph, canonicalizes each function (the
// default pipeline), and, like MLIR's inliner, erases private functions left without uses
// (so a later symbol-dce is not needed for them). The CHECK lines are mlir-opt's output
// (MLIR 22) for the same input.
// RUN: tilus-opt %s --split-input-file --pass-pipeline='builtin.module(inline)' | FileCheck %s
// RUN: tilus-opt %s --split-input-file --pass-pipeline='builtin.module(inline{default-pipeline=})' | FileCheck %s --check-prefix=NOPIPE

// A single-use private callee, a twice-used one, a public one, a declaration and a function that
// is never called. Every function is canonicalized, even the one without calls.
// CHECK-LABEL: func.func @nocalls(%arg0: i32) -> i32 {
// CHECK-NEXT:    %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:    %0 = arith.addi %arg0, %c3_i32 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @pubcallee(%arg0: i32) -> i32 {
// CHECK-NEXT:    %c5_i32 = arith.constant 5 : i32
// CHECK-NEXT:    %0 = arith.subi %arg0, %c5_i32 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @decl(i32) -> i32
// CHECK-NEXT:  func.func @main(%arg0: i32) -> i32 {
// CHECK-NEXT:    %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:    %0 = arith.muli %arg0, %c3_i32 : i32
// CHECK-NEXT:    %1 = arith.addi %0, %c3_i32 : i32
// CHECK-NEXT:    %2 = call @decl(%1) : (i32) -> i32
// CHECK-NEXT:    return %2 : i32
// CHECK-NEXT:  }
func.func @nocalls(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.addi %x, %0 : i32
  return %1 : i32
}
func.func private @once(%a: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %0 = arith.muli %a, %c3 : i32
  return %0 : i32
}
func.func private @twice(%a: i32) -> i32 {
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %a, %c4 : i32
  return %0 : i32
}
func.func @pubcallee(%a: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %0 = arith.subi %a, %c5 : i32
  return %0 : i32
}
func.func private @unused(%a: i32) -> i32 {
  return %a : i32
}
func.func private @decl(i32) -> i32
func.func @main(%x: i32) -> i32 {
  %0 = call @once(%x) : (i32) -> i32
  %1 = call @twice(%0) : (i32) -> i32
  %2 = call @twice(%1) : (i32) -> i32
  %3 = call @pubcallee(%2) : (i32) -> i32
  %4 = call @decl(%3) : (i32) -> i32
  %c0 = arith.constant 0 : i32
  %5 = arith.addi %4, %c0 : i32
  return %5 : i32
}


// Without the default pipeline, inlined bodies keep their constants where they were.
// NOPIPE-LABEL: func.func @nocalls(%arg0: i32) -> i32 {
// NOPIPE-NEXT:    %c1_i32 = arith.constant 1 : i32
// NOPIPE-NEXT:    %c2_i32 = arith.constant 2 : i32
// NOPIPE-NEXT:    %0 = arith.addi %c1_i32, %c2_i32 : i32
// NOPIPE-NEXT:    %1 = arith.addi %arg0, %0 : i32
// NOPIPE-NEXT:    return %1 : i32
// NOPIPE-NEXT:  }
// NOPIPE-NEXT:  func.func @pubcallee(%arg0: i32) -> i32 {
// NOPIPE-NEXT:    %c5_i32 = arith.constant 5 : i32
// NOPIPE-NEXT:    %0 = arith.subi %arg0, %c5_i32 : i32
// NOPIPE-NEXT:    return %0 : i32
// NOPIPE-NEXT:  }
// NOPIPE-NEXT:  func.func private @decl(i32) -> i32
// NOPIPE-NEXT:  func.func @main(%arg0: i32) -> i32 {
// NOPIPE-NEXT:    %c3_i32 = arith.constant 3 : i32
// NOPIPE-NEXT:    %0 = arith.muli %arg0, %c3_i32 : i32
// NOPIPE-NEXT:    %c4_i32 = arith.constant 4 : i32
// NOPIPE-NEXT:    %1 = arith.addi %0, %c4_i32 : i32
// NOPIPE-NEXT:    %c4_i32_0 = arith.constant 4 : i32
// NOPIPE-NEXT:    %2 = arith.addi %1, %c4_i32_0 : i32
// NOPIPE-NEXT:    %c5_i32 = arith.constant 5 : i32
// NOPIPE-NEXT:    %3 = arith.subi %2, %c5_i32 : i32
// NOPIPE-NEXT:    %4 = call @decl(%3) : (i32) -> i32
// NOPIPE-NEXT:    %c0_i32 = arith.constant 0 : i32
// NOPIPE-NEXT:    %5 = arith.addi %4, %c0_i32 : i32
// NOPIPE-NEXT:    return %5 : i32
// NOPIPE-NEXT:  }

// -----

// Self-recursion and mutual recursion are not inlined into themselves; from main, the
// mutually recursive pair unrolls once per round (max-iterations=4); no_inline on the callee or
// the call is honoured; a function referenced from an attribute is kept.
// CHECK-LABEL: func.func private @b(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @unuseddecl(i32) -> i32
// CHECK-NEXT:  func.func private @refd(%arg0: i32) -> i32 {
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @rec(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = call @rec(%arg0) : (i32) -> i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @m1(%arg0: i32) -> i32 {
// CHECK-NEXT:    %0 = call @m2(%arg0) : (i32) -> i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @m2(%arg0: i32) -> i32 {
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %0 = arith.subi %arg0, %c1_i32 : i32
// CHECK-NEXT:    %1 = call @m1(%0) : (i32) -> i32
// CHECK-NEXT:    return %1 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @noinl(%arg0: i32) -> i32 attributes {no_inline} {
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @main(%arg0: i32) -> i32 attributes {ref = @refd} {
// CHECK-NEXT:    %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT:    %0 = call @rec(%arg0) : (i32) -> i32
// CHECK-NEXT:    %1 = arith.subi %0, %c3_i32 : i32
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %2 = arith.subi %1, %c1_i32 : i32
// CHECK-NEXT:    %3 = call @m1(%2) : (i32) -> i32
// CHECK-NEXT:    %4 = call @noinl(%3) : (i32) -> i32
// CHECK-NEXT:    %5 = call @refd(%4) {no_inline} : (i32) -> i32
// CHECK-NEXT:    return %5 : i32
// CHECK-NEXT:  }
func.func private @a(%x: i32) -> i32 {
  %0 = call @b(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @b(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
func.func private @unuseddecl(i32) -> i32
func.func private @refd(%x: i32) -> i32 {
  return %x : i32
}
func.func private @rec(%x: i32) -> i32 {
  %0 = call @rec(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @m1(%x: i32) -> i32 {
  %0 = call @m2(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @m2(%x: i32) -> i32 {
  %c = arith.constant 1 : i32
  %s = arith.subi %x, %c : i32
  %0 = call @m1(%s) : (i32) -> i32
  return %0 : i32
}
func.func private @noinl(%x: i32) -> i32 attributes {no_inline} {
  return %x : i32
}
func.func @main(%x: i32) -> i32 attributes {ref = @refd} {
  %0 = call @rec(%x) : (i32) -> i32
  %1 = call @m1(%0) : (i32) -> i32
  %2 = call @noinl(%1) : (i32) -> i32
  %3 = call @refd(%2) {no_inline} : (i32) -> i32
  return %3 : i32
}
