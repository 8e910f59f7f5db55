// Parse errors of the format directives (see format-directives.mlir), one per split. The first
// RUN checks each message on its line; the second checks the column where it points.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics
// RUN: not tilus-opt %s --split-input-file 2>&1 | FileCheck %s

// A unit anchor's group is present only when its keyword is: a misspelled `read` is left over
// and read as the next op.
tilus.kernel @unit_anchor() warps(4) blocks(affine_map<(d0) -> (1)>) {
  threadgroup.single_warp {
    // CHECK: custom op 'reed' is unknown ({{.*}}format-directives-invalid.mlir:[[# @LINE + 2]]:22)
    // expected-error@+1 {{custom op 'reed' is unknown}}
    tma.wait_group 0 reed
  }
}

// -----

// An integer list holds integers of the constraint's width.
tilus.kernel @int_list() warps(4) blocks(affine_map<(d0) -> (1)>) {
  %s = tilus.shared_tensor : !tilus.shared<32x64xf16>
  // CHECK: expected an i64 integer in the list 'perm' ({{.*}}format-directives-invalid.mlir:[[# @LINE + 2]]:36)
  // expected-error@+1 {{expected an i64 integer in the list 'perm'}}
  %t = tilus.permute_shared %s [1, x] : !tilus.shared<32x64xf16> -> !tilus.shared<64x32xf16, strides = [1, 64]>
}

// -----

tilus.kernel @int_list_float() warps(4) blocks(affine_map<(d0) -> (1)>) {
  // CHECK: expected an i64 integer in the list 'counts' ({{.*}}format-directives-invalid.mlir:[[# @LINE + 2]]:34)
  // expected-error@+1 {{expected an i64 integer in the list 'counts'}}
  %b = mbarrier.alloc counts [1, 2.5] : !mbarrier.barriers<2>
}

// -----

// A keyword enum names its cases.
tilus.kernel @keyword_enum(%x: !tilus.reg<64x128xf32>) warps(4) blocks(affine_map<(d0) -> (1)>) {
  // CHECK: expected reduction kind for 'kind', one of: sum, max, min, any, all, but found 'prod' ({{.*}}format-directives-invalid.mlir:[[# @LINE + 2]]:21)
  // expected-error@+1 {{expected reduction kind for 'kind', one of: sum, max, min, any, all, but found 'prod'}}
  %r = tilus.reduce prod %x dim(1) : !tilus.reg<64x128xf32> -> !tilus.reg<64xf32>
}

// -----

// A symbol name starts with `@`.
// CHECK: expected symbol name, found 'dyn' ({{.*}}format-directives-invalid.mlir:[[# @LINE + 2]]:17)
// expected-error@+1 {{expected symbol name, found 'dyn'}}
ptx.shared_decl dyn align 16

// -----

// `functional-type(...)` wants a function type, and reports the type it got.
ptx.entry @functional_type() attributes {target = "sm_90a"} {
  %t = ptx.special tid.x : i32
  // CHECK: expected a function type `(inputs) -> results` ({{.*}}format-directives-invalid.mlir:[[# @LINE + 2]]:39)
  // expected-error@+1 {{expected a function type `(inputs) -> results`}}
  %r = ptx.asm "mov.u32 $0, $1;" %t : i32
  ptx.ret
}

// -----

// A `custom<Name>` hook reports its own errors: SelectTypes wants a type after the comma ...
func.func @select_types(%c: i1, %x: i32) -> i32 {
  // expected-error@+2 {{expected type, found 'return'}}
  %0 = arith.select %c, %x, %x : i32,
  return %0 : i32
}
// CHECK: expected type, found 'return' ({{.*}}format-directives-invalid.mlir:[[# @LINE - 2]]:3)

// -----

// ... CalleeType checks the operand count against the callee's type ...
func.func @callee_type(%f: (i32) -> i32, %x: i32) -> i32 {
  // CHECK: 'func.call_indirect' has 2 operands but its type has 1 inputs ({{.*}}format-directives-invalid.mlir:[[# @LINE + 2]]:40)
  // expected-error@+1 {{'func.call_indirect' has 2 operands but its type has 1 inputs}}
  %0 = func.call_indirect %f(%x, %x) : (i32) -> i32
  return %0 : i32
}

// -----

// ... and RegisterName wants a register name.
ptx.entry @register_name() attributes {target = "sm_90a"} {
  // CHECK: expected identifier, found '42' ({{.*}}format-directives-invalid.mlir:[[# @LINE + 2]]:20)
  // expected-error@+1 {{expected identifier, found '42'}}
  %t = ptx.special 42 : i32
  ptx.ret
}
