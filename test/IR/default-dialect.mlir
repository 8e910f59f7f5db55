// Unprefixed op names resolve against the region's default dialect as in MLIR: builtin at the
// top level, in a module and in the regions of generic-form ops there; func in a function.
// RUN: tilus-opt %s --allow-unregistered-dialect | FileCheck %s

// CHECK: %[[X:.*]] = "test.x"() : () -> i32
// CHECK: unrealized_conversion_cast %[[X]] : i32 to i64
%x = "test.x"() : () -> i32
%y = unrealized_conversion_cast %x : i32 to i64

// CHECK:      "test.r"() ({
// CHECK-NEXT:   builtin.module {
"test.r"() ({
  module {
  }
  "test.t"() : () -> ()
}) : () -> ()

// CHECK: func.func @f
// CHECK: call @f() : () -> ()
func.func @f() {
  call @f() : () -> ()
  return
}
