// --pass-statistics prints MLIR's pass statistics report to stderr: the pipeline's shape, each
// pass by its class name with its counters, `(S) value name - description`, values aligned.
// Counters add up over every op a pass instance ran on.

// RUN: tilus-opt %s -o /dev/null --pass-statistics \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count,test-fail),test-print-op-count{only={func.func}})' \
// RUN:   2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// CHECK:===-------------------------------------------------------------------------===
// CHECK-NEXT:                         ... Pass statistics report ...
// CHECK-NEXT:===-------------------------------------------------------------------------===
// CHECK-NEXT:'func.func' Pipeline
// CHECK-NEXT:  TestPrintOpCount
// CHECK-NEXT:    (S) 14 num-ops - Number of ops counted
// CHECK-NEXT:    (S)  3 num-runs - Number of ops the pass ran on
// CHECK-NEXT:  TestFail
// CHECK-NEXT:    (S) 0 num-marked - Number of ops carrying test.fail
// CHECK-NEXT:TestPrintOpCount
// CHECK-NEXT:  (S) 3 num-ops - Number of ops counted
// CHECK-NEXT:  (S) 1 num-runs - Number of ops the pass ran on
// CHECK-EMPTY:

// The list display merges every instance of a pass, sorted by name (mlir-opt's
// --mlir-pass-statistics-display=list; the mlir- spellings are accepted too).
// RUN: tilus-opt %s -o /dev/null --mlir-pass-statistics --mlir-pass-statistics-display=list \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count,test-fail),test-print-op-count{only={func.func}})' \
// RUN:   2>&1 | FileCheck %s --check-prefix=LIST --match-full-lines --strict-whitespace
// LIST:===-------------------------------------------------------------------------===
// LIST-NEXT:                         ... Pass statistics report ...
// LIST-NEXT:===-------------------------------------------------------------------------===
// LIST-NEXT:TestFail
// LIST-NEXT:  (S) 0 num-marked - Number of ops carrying test.fail
// LIST-NEXT:TestPrintOpCount
// LIST-NEXT:  (S) 17 num-ops - Number of ops counted
// LIST-NEXT:  (S)  4 num-runs - Number of ops the pass ran on
// LIST-EMPTY:

func.func @a(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  %1 = arith.muli %0, %x : i32
  %2 = arith.subi %1, %x : i32
  return %2 : i32
}
func.func @b() {
  return
}
func.func @c(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  %1 = arith.muli %0, %x : i32
  %2 = arith.subi %1, %x : i32
  %3 = arith.addi %2, %x : i32
  %4 = arith.addi %3, %x : i32
  return %4 : i32
}
