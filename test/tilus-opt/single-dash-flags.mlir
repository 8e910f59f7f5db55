// Long flags with one dash, as MLIR's tools accept them and existing RUN lines write them:
// `-pass-pipeline=...`, `-split-input-file`, `-allow-unregistered-dialect`, pass flags such as
// `-cse`, and mlir-opt's own spellings (`-mlir-print-op-generic`). Both tools read them.
//
// RUN: tilus-opt %s -allow-unregistered-dialect -split-input-file -cse | FileCheck %s
// RUN: tilus-opt %s -allow-unregistered-dialect -split-input-file \
// RUN:   -pass-pipeline='builtin.module(func.func(cse))' | FileCheck %s
// RUN: tilus-opt %s -allow-unregistered-dialect -split-input-file -mlir-print-op-generic \
// RUN:   | FileCheck %s --check-prefix=GENERIC
//
// Short flags keep one dash (`-o FILE`), and an unknown name is still an error (status 2).
// RUN: tilus-opt %s -allow-unregistered-dialect -split-input-file -cse -o %t && FileCheck %s < %t
// RUN: not tilus-opt %s -no-such-flag 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: tilus-opt %s -no-such-flag 2>/dev/null; test $? -eq 2
// UNKNOWN: error: unexpected argument
//
// tilus-run reads them too.
// RUN: tilus-run %S/../../examples/vector_add.mlir -backend=interp -seed 3 \
// RUN:   | FileCheck %s --check-prefix=INTERP
// INTERP: output c: f32[3000]

// CSE merged the two additions:
// CHECK-LABEL: func.func @twice
// CHECK:         %[[S:.*]] = arith.addi
// CHECK-NOT:     arith.addi
// CHECK:         "t.pure"(%[[S]])
// CHECK:         "t.pure"(%[[S]])
// GENERIC: "func.func"()
func.func @twice(%a: i32) -> (i32, i32) {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %x = "t.pure"(%0) : (i32) -> i32
  %y = "t.pure"(%1) : (i32) -> i32
  return %x, %x : i32, i32
}

// -----

// CHECK-LABEL: func.func @other
func.func @other() {
  return
}
