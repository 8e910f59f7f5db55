// A nested pipeline runs on each op of its anchor directly inside the regions of the op its
// parent runs on; deeper ops need deeper nesting. `any` runs on every registered op isolated
// from above. test-print-op-count{annotate} records how many ops it counted on each op it ran on.

// RUN: tilus-opt %s --pass-pipeline='builtin.module(func.func(test-print-op-count{annotate}))' \
// RUN:   | FileCheck %s --check-prefix=FUNC
// FUNC-LABEL: module {
// FUNC:         func.func @f() attributes {test.op_count = 3 : i64}
// FUNC:         module @inner {
// FUNC-NOT:       test.op_count
// FUNC:         }
// FUNC:         func.func @g() attributes {test.op_count = 2 : i64}

// RUN: tilus-opt %s --pass-pipeline='builtin.module(builtin.module(func.func(test-print-op-count{annotate})))' \
// RUN:   | FileCheck %s --check-prefix=DEEP
// DEEP:       func.func @f() {
// DEEP:       module @inner {
// DEEP-NEXT:    func.func @h() attributes {test.op_count = 2 : i64}
// DEEP:       func.func @g() {

// `any` reaches the two functions and the nested module (all isolated from above).
// RUN: tilus-opt %s --pass-pipeline='builtin.module(any(test-print-op-count{annotate}))' \
// RUN:   | FileCheck %s --check-prefix=ANY
// ANY:       func.func @f() attributes {test.op_count = 3 : i64}
// ANY:       module @inner attributes {test.op_count = 3 : i64}
// ANY-NEXT:    func.func @h() {
// ANY:       func.func @g() attributes {test.op_count = 2 : i64}

// A root `any` pipeline runs on the module itself; options restrict what is counted.
// RUN: tilus-opt %s --pass-pipeline='any(test-print-op-count{annotate only={func.func,func.return}})' \
// RUN:   | FileCheck %s --check-prefix=ROOT
// ROOT: module attributes {test.op_count = 6 : i64}

// Anchored on an op the input does not have at the top: mlir-opt's error, on the module.
// RUN: not tilus-opt %s --pass-pipeline='func.func(test-print-op-count)' --diagnostic-format=mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROOTANCHOR
// ROOTANCHOR: error: can't run 'func.func' pass manager on 'builtin.module' op

// A pass restricted to an op (here test-print-op-count{anchor=func.func}, standing for a function
// pass) cannot be put directly in a pipeline on another op: the error points at it in the text.
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(test-print-op-count{anchor=func.func})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXPLICIT
// EXPLICIT:      can't add pass 'test-print-op-count' restricted to 'func.func' on a pass manager
// EXPLICIT:      1 │ builtin.module(test-print-op-count{anchor=func.func})
// EXPLICIT-NEXT:   ·                ─────────┬─────────
// EXPLICIT-NEXT:   ·                         ╰── runs on 'func.func' ops
// EXPLICIT:      help: nest it in a pipeline on its op: 'func.func(test-print-op-count)'

// As a flag it is nested implicitly, as mlir-opt does; adjacent ones share one nested pipeline.
// RUN: tilus-opt %s --dump-pass-pipeline --test-print-op-count=anchor=func.func \
// RUN:   --test-print-op-count="anchor=func.func annotate" --test-fail 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IMPLICIT
// IMPLICIT:      Pass Manager with 2 passes:
// IMPLICIT-NEXT: builtin.module(
// IMPLICIT-NEXT:   func.func(
// IMPLICIT-NEXT:     test-print-op-count{anchor=func.func annotate=false limit=-1 },
// IMPLICIT-NEXT:     test-print-op-count{anchor=func.func annotate=true limit=-1 }
// IMPLICIT-NEXT:   ),
// IMPLICIT-NEXT:   test-fail{mode=error}
// IMPLICIT-NEXT: )
// IMPLICIT:      func.func @f() attributes {test.op_count = 3 : i64}

// In an `any` pipeline the anchor is checked when the pass meets an op (mlir-opt's wording).
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(any(test-print-op-count{anchor=func.func}))' \
// RUN:   --diagnostic-format=mlir 2>&1 | FileCheck %s --check-prefix=ANYANCHOR
// ANYANCHOR: nesting.mlir:{{[0-9]+}}:1: error: 'builtin.module' op trying to schedule pass 'test-print-op-count' on an unsupported operation: it runs on 'func.func' ops

func.func @f() {
  %c = arith.constant 1 : i32
  return
}
module @inner {
  func.func @h() {
    return
  }
}
func.func @g() {
  return
}
