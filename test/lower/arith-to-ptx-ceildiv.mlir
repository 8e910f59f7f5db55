// convert-arith-to-ptx expands ceildivsi / floordivsi: q = div.s, r = rem.s, then q + 1
// (ceil) when r != 0 and r has the divisor's sign, q - 1 (floor) when the signs differ.
// RUN: tilus-opt %s --convert-arith-to-ptx | FileCheck %s

// CHECK-LABEL: func.func @ceildiv(
// CHECK-SAME:    %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK:         %[[Q:.*]] = ptx.inst "div.s32" %[[A]], %[[B]] : (i32, i32) -> i32
// CHECK-NEXT:    %[[R:.*]] = ptx.inst "rem.s32" %[[A]], %[[B]] : (i32, i32) -> i32
// CHECK-NEXT:    %[[X:.*]] = ptx.inst "xor.b32" %[[R]], %[[B]] : (i32, i32) -> i32
// CHECK-NEXT:    %[[NZ:.*]] = ptx.inst "setp.ne.s32" %[[R]], 0 : (i32) -> i1
// CHECK-NEXT:    %[[SG:.*]] = ptx.inst "setp.ge.s32" %[[X]], 0 : (i32) -> i1
// CHECK-NEXT:    %[[P:.*]] = ptx.inst "and.pred" %[[NZ]], %[[SG]] : (i1, i1) -> i1
// CHECK-NEXT:    %[[D:.*]] = ptx.inst "selp.s32" 1, 0, %[[P]] : (i1) -> i32
// CHECK-NEXT:    ptx.inst "add.s32" %[[Q]], %[[D]] : (i32, i32) -> i32
func.func @ceildiv(%a: i32, %b: i32) -> i32 {
  %0 = arith.ceildivsi %a, %b : i32
  return %0 : i32
}

// CHECK-LABEL: func.func @floordiv(
// CHECK:         ptx.inst "div.s64"
// CHECK:         ptx.inst "setp.lt.s64"
// CHECK:         ptx.inst "selp.s64" -1, 0, %{{.*}} : (i1) -> i64
// CHECK-NEXT:    ptx.inst "add.s64"
func.func @floordiv(%a: i64, %b: i64) -> i64 {
  %0 = arith.floordivsi %a, %b : i64
  return %0 : i64
}
