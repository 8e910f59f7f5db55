// Where tilus-opt reads and writes: a file named on the command line, or standard input (no
// file, or `-`); standard output, or the file given with `-o` (`-o -` is standard output).
// Every route prints the same text. --no-output parses and verifies but prints nothing. The
// printing flags also answer to their mlir-opt spellings (`--mlir-print-op-generic`, ...).
//
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt < %s | FileCheck %s
// RUN: tilus-opt - < %s | FileCheck %s
// RUN: cat %s | tilus-opt | FileCheck %s
// RUN: tilus-opt %s -o - | FileCheck %s
// RUN: rm -f %t && tilus-opt %s -o %t && cat %t | FileCheck %s
// `-o` replaces a file that is already there.
// RUN: echo stale > %t && tilus-opt %s -o %t && FileCheck %s < %t
// RUN: tilus-opt %s -o %t && FileCheck %s --check-prefix=NO-STALE < %t
// NO-STALE-NOT: stale
//
// --no-output: success and no output at all, not even into the `-o` file.
// RUN: tilus-opt %s --no-output | FileCheck %s --allow-empty --check-prefix=EMPTY
// RUN: rm -f %t.none && tilus-opt %s --no-output -o %t.none && test ! -e %t.none
// EMPTY-NOT: {{.}}
//
// mlir-opt's names for the printing flags.
// RUN: tilus-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=LOC
// RUN: tilus-opt %s --print-debuginfo --print-local-scope | FileCheck %s --check-prefix=LOC
//
// Unregistered ops: rejected by default, kept with --allow-unregistered-dialect (also spelled
// --allow-unregistered-dialects).
// RUN: echo '"t.op"() : () -> ()' | not tilus-opt --diagnostic-format=mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNREG-ERR
// RUN: echo '"t.op"() : () -> ()' | tilus-opt --allow-unregistered-dialect | FileCheck %s --check-prefix=UNREG
// RUN: echo '"t.op"() : () -> ()' | tilus-opt --allow-unregistered-dialects | FileCheck %s --check-prefix=UNREG
// UNREG-ERR: <stdin>:1:1: error: 't.op' op created with unregistered dialect. If this is intended, please use --allow-unregistered-dialect
// UNREG:      module {
// UNREG-NEXT:   "t.op"() : () -> ()
// UNREG-NEXT: }

// CHECK:      module {
// CHECK-NEXT:   func.func @and(%arg0: i32) -> i32 {
// CHECK-NEXT:     %0 = arith.andi %arg0, %arg0 : i32
// CHECK-NEXT:     return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NOT:  {{.}}

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "func.func"() <{function_type = (i32) -> i32, sym_name = "and"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: i32):
// GENERIC-NEXT:     %0 = "arith.andi"(%arg0, %arg0) : (i32, i32) -> i32
// GENERIC-NEXT:     "func.return"(%0) : (i32) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

// LOC:      module {
// LOC-NEXT:   func.func @and(%arg0: i32 loc("{{.*}}flags.mlir":[[@LINE+4]]:16)) -> i32 {
// LOC-NEXT:     %0 = arith.andi %arg0, %arg0 : i32 loc("{{.*}}flags.mlir":[[@LINE+4]]:8)
// LOC-NEXT:     return %0 : i32 loc("{{.*}}flags.mlir":[[@LINE+4]]:3)
// LOC-NEXT:   } loc("{{.*}}flags.mlir":[[@LINE+1]]:1)
func.func @and(%a: i32) -> i32 {
  %0 = arith.andi %a, %a : i32
  return %0 : i32
}
