// --print-ir-after-failure dumps the op a pass failed on, headed `IR Dump After <Class> Failed`,
// and nothing after passes that succeed. The failing run exits 1 and prints no output IR.

// RUN: not tilus-opt %s --allow-unregistered-dialect --print-ir-after-failure --diagnostic-format=mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count,test-fail))' 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='IR Dump'
// CHECK:      // -----// IR Dump After TestFail Failed (test-fail) //----- //
// CHECK-NEXT: func.func @bad() {
// CHECK-NEXT:   "test.op"() {test.fail = "this op is marked"} : () -> ()
// CHECK:      error: this op is marked
// CHECK-NOT:  module

// With --print-ir-after-all a failing pass is dumped as failed too, once.
// RUN: not tilus-opt %s --allow-unregistered-dialect --print-ir-after-all --diagnostic-format=mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(test-fail))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALL
// ALL:     IR Dump After TestFail (test-fail)
// ALL-NEXT: func.func @good() {
// ALL:     IR Dump After TestFail Failed (test-fail)
// ALL-NEXT: func.func @bad() {
// ALL-NOT: IR Dump

func.func @good() {
  return
}
func.func @bad() {
  "test.op"() {test.fail = "this op is marked"} : () -> ()
  return
}
