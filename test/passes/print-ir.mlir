// --print-ir-* dump the IR to stderr around passes, each dump headed as in mlir-opt
// (`// -----// IR Dump After <Class> (<name>) //----- //`) and separated from the previous one
// by a plain `// -----` line, so the dumps can be read back with --split-input-file.
// A pass in a nested pipeline dumps the op it ran on.

// RUN: tilus-opt %s -o /dev/null --print-ir-after-all \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count),test-print-op-count{annotate})' \
// RUN:   2>&1 | FileCheck %s --check-prefix=AFTER --match-full-lines
// AFTER:      // -----// IR Dump After TestPrintOpCount (test-print-op-count) //----- //
// AFTER-NEXT: func.func @f(%arg0: i32) -> i32 {
// AFTER:      }
// AFTER-EMPTY:
// AFTER-NEXT: // -----
// AFTER-NEXT: // -----// IR Dump After TestPrintOpCount (test-print-op-count) //----- //
// AFTER-NEXT: func.func @g() {
// AFTER:      // -----
// AFTER-NEXT: // -----// IR Dump After TestPrintOpCount (test-print-op-count) //----- //
// AFTER-NEXT: module attributes {test.op_count = 6 : i64} {
// AFTER-NOT:  IR Dump

// The dumps read back as a --split-input-file input: three chunks, three outputs.
// RUN: tilus-opt %s -o /dev/null --print-ir-after-all \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count),test-print-op-count{annotate})' 2>%t
// RUN: tilus-opt --split-input-file %t | FileCheck %s --check-prefix=REREAD
// REREAD:      module {
// REREAD-NEXT:   func.func @f(
// REREAD:      // -----
// REREAD-NEXT: module {
// REREAD-NEXT:   func.func @g() {
// REREAD:      // -----
// REREAD-NEXT: module attributes {test.op_count = 6 : i64} {

// Before specific passes (by pipeline name, comma-separated or repeated), before all.
// RUN: tilus-opt %s -o /dev/null --print-ir-before=test-fail,test-print-op-count \
// RUN:   --pass-pipeline='builtin.module(test-fail,test-print-op-count)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BEFORE
// RUN: tilus-opt %s -o /dev/null --print-ir-before=test-fail --mlir-print-ir-before=test-print-op-count \
// RUN:   --pass-pipeline='builtin.module(test-fail,test-print-op-count)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BEFORE
// RUN: tilus-opt %s -o /dev/null --print-ir-before-all \
// RUN:   --pass-pipeline='builtin.module(test-fail,test-print-op-count)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BEFORE
// BEFORE:     // -----// IR Dump Before TestFail (test-fail) //----- //
// BEFORE:     // -----// IR Dump Before TestPrintOpCount (test-print-op-count) //----- //
// BEFORE-NOT: IR Dump

// After one pass only.
// RUN: tilus-opt %s -o /dev/null --print-ir-after=test-fail \
// RUN:   --pass-pipeline='builtin.module(test-print-op-count,test-fail,test-print-op-count)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE
// ONE:     IR Dump After TestFail (test-fail)
// ONE-NOT: IR Dump

// --print-ir-after-change modifies the after flags: only passes that changed the IR are dumped.
// RUN: tilus-opt %s -o /dev/null --print-ir-after-all --print-ir-after-change \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count),test-print-op-count{annotate},test-print-op-count{annotate})' \
// RUN:   2>&1 | FileCheck %s --check-prefix=CHANGE
// CHANGE-COUNT-1: IR Dump After TestPrintOpCount (test-print-op-count)
// CHANGE-NEXT:    module attributes {test.op_count = 6 : i64} {
// CHANGE-NOT:     IR Dump
// Alone it prints nothing, as in mlir-opt.
// RUN: tilus-opt %s -o /dev/null --print-ir-after-change --pass-pipeline='builtin.module(test-print-op-count{annotate})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTHING --allow-empty
// NOTHING-NOT: IR Dump

// --print-ir-module-scope dumps the whole module even for a pass on a function.
// RUN: tilus-opt %s -o /dev/null --print-ir-after-all --print-ir-module-scope \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count{annotate}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SCOPE
// SCOPE:      IR Dump After TestPrintOpCount (test-print-op-count)
// SCOPE-NEXT: module {
// SCOPE-NEXT:   func.func @f(%arg0: i32) -> i32 attributes {test.op_count = 3 : i64} {
// SCOPE:        func.func @g() {

// Dumps use the printing flags (here the generic form).
// RUN: tilus-opt %s -o /dev/null --print-ir-after-all --print-op-generic \
// RUN:   --pass-pipeline='builtin.module(func.func(test-print-op-count))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GENERIC
// GENERIC: IR Dump After TestPrintOpCount (test-print-op-count)
// GENERIC-NEXT: "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
func.func @g() {
  return
}
