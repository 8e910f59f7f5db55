// symbol-dce erases private symbols that no live op references, through references nested in
// attributes and inside nested symbol tables. The CHECK lines are mlir-opt's output (MLIR 22).
// RUN: tilus-opt %s --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(symbol-dce)' | FileCheck %s

// Dead private functions go, a chain of them too; used ones, public ones, ones referenced from
// an attribute, and non-symbols stay. A private nested module goes whole.
// CHECK-LABEL: func.func private @used(%arg0: i32) -> i32 {
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @byattr() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @pub(%arg0: i32) -> i32 attributes {refs = [{a = @byattr}]} {
// CHECK-NEXT:    %0 = call @used(%arg0) : (i32) -> i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  "test.op"() {sym_name = "unreg", sym_visibility = "private"} : () -> ()
// CHECK-NEXT:  module @nested2 {
// CHECK-NEXT:    func.func private @inner2() {
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @inner_pub2() {
// CHECK-NEXT:      call @inner2() : () -> ()
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module {
  func.func private @dead(%x: i32) -> i32 { return %x : i32 }
  func.func private @used(%x: i32) -> i32 { return %x : i32 }
  func.func private @chain_a() { call @chain_b() : () -> () return }
  func.func private @chain_b() { return }
  func.func private @byattr() { return }
  func.func private @decl_dead(i32)
  func.func @pub(%x: i32) -> i32 attributes {refs = [{a = @byattr}]} {
    %0 = call @used(%x) : (i32) -> i32
    return %0 : i32
  }
  "test.op"() {sym_name = "unreg", sym_visibility = "private"} : () -> ()
  module @nested attributes {sym_visibility = "private"} {
    func.func private @inner() { return }
    func.func @inner_pub() { return }
  }
  module @nested2 {
    func.func private @inner2() { return }
    func.func @inner_pub2() { call @inner2() : () -> () return }
  }
}

// -----

// Nothing private is unused: nothing changes.
// CHECK-LABEL: func.func private @used() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @main() {
// CHECK-NEXT:    call @used() : () -> ()
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func private @used() {
  return
}
func.func @main() {
  call @used() : () -> ()
  return
}
