// convert-func-to-ptx: a func.func kernel becomes a ptx.entry with the same body.
// RUN: tilus-opt %s --convert-func-to-ptx | FileCheck %s
// RUN: tilus-opt %s --convert-func-to-ptx='target=sm_100a maxntid=256' | FileCheck %s --check-prefix=OPTS
// RUN: tilus-opt %s --convert-func-to-ptx --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: ptx.entry @k(%arg0: i64, %arg1: i32, %arg2: !ptx.tensormap) attributes {target = "sm_90a"} {
// CHECK-NEXT:    %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    cf.br ^bb1
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    ptx.inst "st.global.u32" [%arg0], %[[T]] : (i64, i32) -> ()
// CHECK-NEXT:    ptx.ret
// CHECK-NEXT:  }
// CHECK-NOT:   func.func @k
// A declaration stays a declaration.
// CHECK:       func.func private @decl
// OPTS:        attributes {maxntid = 256 : i64, target = "sm_100a"}
// GENERIC:     "ptx.entry"() <{function_type = (i64, i32, !ptx.tensormap) -> (), sym_name = "k", target = "sm_90a"}>
// GENERIC:     "ptx.ret"() : () -> ()
func.func @k(%p: i64, %n: i32, %map: !ptx.tensormap) {
  %t = ptx.special tid.x : i32
  cf.br ^bb1
^bb1:
  ptx.inst "st.global.u32" [%p], %t : (i64, i32) -> ()
  return
}
func.func private @decl(i32)
