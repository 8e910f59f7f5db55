// Self-test of the lit harness and of FileCheck: the data block below is the input (the file
// checks its own text), and the checks after it only ever match inside that block.
//
// RUN: cat %s | FileCheck %s
// RUN: FileCheck %s --input-file=%s
// RUN: FileCheck %s --input-file %s --dump-input=never -v
// RUN: FileCheck --check-prefix=ALT %s < %s
// RUN: FileCheck --check-prefixes=ALT,OTHER %s < %s
// RUN: FileCheck --check-prefix=STRICT --strict-whitespace %s < %s

// Data:
// func.func @first(%arg0: i32) -> i32 {
//   %0 = arith.addi %arg0, %arg0 : i32
//   %1 = arith.muli %0,   %0 : i32
//   return %1 : i32
// }
// func.func @second() {
//   %c42 = arith.constant 42 : index
//   %c7 = arith.constant 7 : index
//   %c9 = arith.constant 9 : index
//   return
// }
// End of data.

// CHECK-LABEL: func.func @first(
// CHECK-SAME: %[[ARG:[a-z0-9]+]]: i32
// CHECK-SAME: -> i32 {
// CHECK-NEXT: %[[SUM:[0-9]+]] = arith.addi %[[ARG]], %[[ARG]] : i32
// CHECK-NOT: arith.subi
// CHECK: arith.muli %[[SUM]], %[[SUM]] : i32
// CHECK-NEXT: return %{{[0-9]+}} : i32
// CHECK-LABEL: func.func @second
// CHECK-COUNT-2: arith.constant {{[0-9]+}} : index
// CHECK-DAG: %c9 = arith.constant [[#NINE:]] : index
// CHECK-DAG: {{^}}// return
// CHECK: End of [[WHAT:[a-z]+]].
// CHECK-NOT: End of [[WHAT]]. ever

// ALT: @first
// ALT: @second
// OTHER: %c9

// STRICT: %0,   %0
// STRICT-NOT: %0, %0 : i32
// STRICT: End of data.
