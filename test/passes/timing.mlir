// --timing prints MLIR's execution time report to stderr (wall time; tilus-opt runs on one
// thread, where mlir-opt prints this layout too): parsing, each pass indented under its nested
// pipeline, printing, the rest and the total. Only the shape is checked; times vary.

// RUN: tilus-opt %s -o /dev/null --timing \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count,test-fail),test-print-op-count)' \
// RUN:   2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// CHECK:===-------------------------------------------------------------------------===
// CHECK-NEXT:                         ... Execution time report ...
// CHECK-NEXT:===-------------------------------------------------------------------------===
// CHECK-NEXT:  Total Execution Time: {{[0-9]+\.[0-9][0-9][0-9][0-9]}} seconds
// CHECK-EMPTY:
// CHECK-NEXT:  ----Wall Time----  ----Name----
// CHECK-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Parser
// CHECK-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  'func.func' Pipeline
// CHECK-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    TestPrintOpCount
// CHECK-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}    TestFail
// CHECK-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  TestPrintOpCount
// CHECK-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Output
// CHECK-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9] \( *[0-9]+\.[0-9]%\)}}  Rest
// CHECK-NEXT:  {{ *[0-9]+\.[0-9][0-9][0-9][0-9]}} (100.0%)  Total
// CHECK-NOT:{{.}}

// Without passes the report still has Parser, Output, Rest and Total; with --split-input-file
// there is one report per chunk, as in mlir-opt. --mlir-timing is accepted too.
// RUN: tilus-opt %s -o /dev/null --mlir-timing --split-input-file 2>&1 | FileCheck %s --check-prefix=BARE
// BARE-COUNT-2: ... Execution time report ...
// BARE-NOT: Pipeline
// BARE-NOT: Execution time report

func.func @f() {
  return
}

// -----

func.func @g() {
  return
}
