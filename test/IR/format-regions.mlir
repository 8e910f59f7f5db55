// The region and successor directives of the format engine, through the control-flow ops that
// use them (see docs/guide/defining-ops.md, "Regions in formats"). Every op must print as
// written, read its own output back, and survive the generic form.
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s | tilus-opt | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s

// CHECK-LABEL: func.func @implicit
// GENERIC-LABEL: "func.func"
func.func @implicit(%c: i1, %x: i32) -> i32 {
  // An implicit terminator (`Elide::WhenEmpty`): the parser adds the `scf.yield` a region
  // leaves out, and the printer leaves out one that carries nothing; an absent `else` group is
  // an empty region.
  // CHECK:      scf.if %{{.*}} {
  // CHECK-NEXT: }
  // GENERIC:      "scf.if"(%{{.*}}) ({
  // GENERIC-NEXT:   "scf.yield"() : () -> ()
  // GENERIC-NEXT: }, {
  // GENERIC-NEXT: }) : (i1) -> ()
  scf.if %c {
  }
  // `(`->` ` ` `(` type($results)^ `)`)?` and `(`else` $elseRegion^)?`: a group anchored on a
  // region being non-empty.
  // CHECK:      %[[R:.*]] = scf.if %{{.*}} -> (i32) {
  // CHECK-NEXT:   scf.yield %{{.*}} : i32
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   scf.yield %{{.*}} : i32
  // CHECK-NEXT: } {note}
  %r = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %x : i32
  } {note}
  return %r : i32
}

// CHECK-LABEL: func.func @bound_args
func.func @bound_args(%c: i1, %x: i32, %n: index, %t: tensor<8xf32>) {
  // `custom<AssignmentList>($inits, $before)` binds the `before` region's arguments in the
  // header, so its entry block is printed without a label; `after` keeps its own, and its
  // terminator is implicit but always printed (`Elide::Never`).
  // CHECK:      scf.while (%[[A:.*]] = %{{.*}}) : (i32) -> i32 {
  // CHECK-NEXT:   scf.condition(%{{.*}}) %[[A]] : i32
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%[[B:.*]]: i32):
  // CHECK-NEXT:   scf.yield %[[B]] : i32
  // CHECK-NEXT: }
  // GENERIC:      "scf.while"(%{{.*}}) ({
  // GENERIC-NEXT: ^bb0(%{{.*}}: i32):
  %w = scf.while (%a = %x) : (i32) -> i32 {
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  // Without carried values the group is absent: no space is left for it.
  // CHECK:      scf.while : () -> () {
  // CHECK-NEXT:   scf.condition(%{{.*}})
  // CHECK-NEXT: } do {
  // CHECK-NEXT:   scf.yield
  // CHECK-NEXT: }
  scf.while : () -> () {
    scf.condition(%c)
  } do {
  }
  // Two hooks bind one region's arguments in turn (induction variables of type `index`, then
  // the shared outputs, typed by `custom<TypesOf>`); the implicit terminator is printed only
  // with results (`Elide::WhenOpHasNoResults`).
  // CHECK:      scf.forall (%{{.*}}, %{{.*}}) = (0, %{{.*}}) to (%{{.*}}, 8) step (1, 2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<8xf32>) {
  // CHECK-NEXT:   scf.forall.in_parallel {
  // CHECK-NEXT:   }
  // CHECK-NEXT: }
  // CHECK-NEXT: scf.forall (%{{.*}}) in (%{{.*}}) {
  // CHECK-NEXT: }
  // GENERIC:      "scf.forall"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, staticLowerBound = array<i64: 0, -9223372036854775808>, staticStep = array<i64: 1, 2>, staticUpperBound = array<i64: -9223372036854775808, 8>}> ({
  // GENERIC-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: tensor<8xf32>):
  %f = scf.forall (%i, %j) = (0, %n) to (%n, 8) step (1, 2) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
    }
  }
  scf.forall (%i) in (%n) {
  }
  return
}

// CHECK-LABEL: func.func @variadic
func.func @variadic(%n: index, %a: f32, %b: i32) {
  // A variadic region slot (`$reductions`): `{...}, {...}`, with `custom<ResultTypes>` giving
  // the init values the results' types.
  // CHECK:      scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init (%{{.*}}, %{{.*}}) -> (f32, i32) {
  // CHECK-NEXT:   scf.reduce(%{{.*}}, %{{.*}} : f32, i32) {
  // CHECK-NEXT:   ^bb0(%{{.*}}: f32, %{{.*}}: f32):
  // CHECK-NEXT:     scf.reduce.return %{{.*}} : f32
  // CHECK-NEXT:   }, {
  // CHECK-NEXT:   ^bb0(%{{.*}}: i32, %{{.*}}: i32):
  // CHECK-NEXT:     scf.reduce.return %{{.*}} : i32
  // CHECK-NEXT:   }
  // CHECK-NEXT: }
  %p:2 = scf.parallel (%i) = (%n) to (%n) step (%n) init (%a, %b) -> (f32, i32) {
    scf.reduce(%a, %b : f32, i32) {
    ^bb0(%l: f32, %r: f32):
      scf.reduce.return %l : f32
    }, {
    ^bb0(%l: i32, %r: i32):
      scf.reduce.return %l : i32
    }
  }
  // No regions, then the attribute dictionary, which is not read as a region.
  // CHECK:      scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
  // CHECK-NEXT:   scf.reduce {note}
  // GENERIC:      "scf.reduce"() {note} : () -> ()
  scf.parallel (%i) = (%n) to (%n) step (%n) {
    scf.reduce {note}
  }
  // `(`->` custom<ResultTypes>(type($results))^)?`: a hook anchors its group by its first
  // argument, and writes one type bare, several in parentheses.
  // CHECK:      scf.execute_region -> (f32, i32) no_inline {
  // CHECK:      scf.execute_region -> f32 {
  %e:2 = scf.execute_region -> (f32, i32) no_inline {
    scf.yield %a, %b : f32, i32
  }
  %e1 = scf.execute_region -> f32 {
    scf.yield %a : f32
  }
  // `custom<SwitchCases>($cases, $caseRegions) `\n` `default` $defaultRegion`: the hook reads
  // a variadic region slot, and `\n` starts a line.
  // CHECK:      scf.index_switch %{{.*}} -> f32 {{$}}
  // CHECK-NEXT: case 2 {
  // CHECK-NEXT:   scf.yield %{{.*}} : f32
  // CHECK-NEXT: }
  // CHECK-NEXT: default {
  // CHECK-NEXT:   scf.yield %{{.*}} : f32
  // CHECK-NEXT: }
  // GENERIC:      "scf.index_switch"(%{{.*}}) <{cases = array<i64: 2>}> ({
  %s = scf.index_switch %n -> f32
  case 2 {
    scf.yield %a : f32
  }
  default {
    scf.yield %a : f32
  }
  return
}

// `custom<SwitchOpCases>(...)` sets a variadic successor slot and the operand groups each
// destination forwards.
// CHECK-LABEL: func.func @successors
// CHECK:      cf.switch %{{.*}} : i32, [
// CHECK-NEXT:   default: ^bb1(%{{.*}} : i32),
// CHECK-NEXT:   -2: ^bb1(%{{.*}} : i32),
// CHECK-NEXT:   7: ^bb2
// CHECK-NEXT: ]
// GENERIC:    "cf.switch"(%{{.*}}, %{{.*}}, %{{.*}})[^bb1, ^bb1, ^bb2] <{case_operand_segments = array<i32: 1, 0>, case_values = dense<[-2, 7]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (i32, i32, i32) -> ()
func.func @successors(%f: i32) {
  cf.switch %f : i32, [
    default: ^bb1(%f : i32),
    -2: ^bb1(%f : i32),
    7: ^bb2
  ]
^bb1(%x: i32):
  return
^bb2:
  return
}
