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

// CHECK: "foo.opaque"() {a = #foo<"\"escaped\\\n\"">, b = #foo<"a\22b">, t = !foo<"x\"y">} : () -> ()
"foo.opaque"() {a = #foo<"\"escaped\\\n\"">, b = #foo<"a\22b">, t = !foo<"x\"y">} : () -> ()
