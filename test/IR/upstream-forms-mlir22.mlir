// Custom forms of MLIR 22 that tilus-opt reads and prints as MLIR does: shapes written with
// spaces, unnamed function parameters named by the entry block, `cf.cond_br` weights,
// `scf.while` attributes (after the `attributes` keyword), and opaque dialect symbols kept with
// their escapes as written.
// RUN: tilus-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: tilus-opt %s --allow-unregistered-dialect | tilus-opt --allow-unregistered-dialect | FileCheck %s

// CHECK: func.func private @shapes(vector<1xf32>, vector<2x[4]xf32>, tensor<*xf32>, tensor<4x?xi8>, memref<2x32xf32>)
func.func private @shapes(vector<1 x f32>, vector<2 x [ 4 ] x f32>, tensor<* x f32>,
                          tensor<4 x ?x i8>, memref<2 x 32xf32>)

// CHECK-LABEL: func.func @unnamed_params(%arg0: i32, %arg1: i64) -> i64 {
// CHECK-NEXT:    %0 = "foo.use"(%arg0, %arg1) : (i32, i64) -> i64
func.func @unnamed_params(i32, i64) -> i64 {
^bb42(%a: i32, %b: i64):
  %0 = "foo.use"(%a, %b) : (i32, i64) -> i64
  return %0 : i64
}

// CHECK-LABEL: func.func @weights(
// CHECK-NEXT:    cf.cond_br %arg0 weights([60, 40]), ^bb1, ^bb2
// CHECK:         cf.cond_br %arg0, ^bb2, ^bb2
func.func @weights(%c: i1) {
  cf.cond_br %c weights([60, 40]), ^bb1, ^bb2
^bb1:
  cf.cond_br %c, ^bb2, ^bb2
^bb2:
  return
}

// CHECK-LABEL: func.func @while_attrs(
// CHECK:         } attributes {foo = "bar"}
func.func @while_attrs(%c: i1) {
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  } attributes {foo = "bar"}
  return
}

// MLIR 22 reads a case value as an int64_t and truncates it to the flag's width.
// CHECK-LABEL: func.func @switch_truncates(
// CHECK:         default: ^bb1,
// CHECK-NEXT:    0: ^bb1,
// CHECK-NEXT:    127: ^bb1
func.func @switch_truncates(%f: i8) {
  cf.switch %f : i8, [default: ^bb1, 256: ^bb1, -129: ^bb1]
^bb1:
  return
}

// Enum keywords may be strings; a single result type may go without parentheses (MLIR's
// `parseOptionalArrowTypeList`), and prints in them where MLIR prints them.
// CHECK-LABEL: func.func @keyword_strings_and_arrows(
// CHECK-NEXT:    arith.cmpi slt, %arg0, %arg0 : i32
// CHECK-NEXT:    arith.truncf %arg1 to_nearest_even : f64 to f32
// CHECK-NEXT:    scf.if %arg2 -> (i32) {
// CHECK:         scf.for %{{.*}} = %arg3 to %arg3 step %arg3 iter_args(%{{.*}} = %arg0) -> (i32) {
// CHECK:         scf.for %{{.*}} = %arg3 to %arg3 step %arg3 {
// CHECK:         scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %arg4) -> (tensor<4xf32>) {
func.func @keyword_strings_and_arrows(%a: i32, %f: f64, %c: i1, %lb: index,
                                      %t: tensor<4xf32>) -> i1 {
  %0 = arith.cmpi "slt", %a, %a : i32
  %1 = arith.truncf %f "to_nearest_even" : f64 to f32
  %2 = scf.if %c -> i32 {
    scf.yield %a : i32
  } else {
    scf.yield %a : i32
  }
  %3 = scf.for %i = %lb to %lb step %lb iter_args(%x = %a) -> i32 {
    scf.yield %x : i32
  }
  scf.for %i = %lb to %lb step %lb iter_args() -> () {
  }
  %4 = scf.forall (%i) in (4) shared_outs(%o = %t) -> tensor<4xf32> {
    scf.forall.in_parallel {
    }
  }
  return %0 : i1
}

// CHECK: "foo.opaque"() {a = #foo<"\"escaped\\\n\"">, b = #foo<"a\22b">, t = !foo<"x\"y">} : () -> ()
"foo.opaque"() {a = #foo<"\"escaped\\\n\"">, b = #foo<"a\22b">, t = !foo<"x\"y">} : () -> ()
