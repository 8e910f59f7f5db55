// Parse errors of the region and successor directives (see format-regions.mlir), one per
// split. The first RUN checks each message on its line; the second checks the column.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics
// RUN: not tilus-opt %s --split-input-file 2>&1 | FileCheck %s

// Names a hook binds for a region need as many types from the format.
func.func @bound_count(%c: i1, %x: i32) {
  // CHECK: 'scf.while' binds 1 arguments of region 'before' but the format gives 2 types for them ({{.*}}format-regions-invalid.mlir:[[# @LINE + 2]]:14)
  // expected-error@+1 {{'scf.while' binds 1 arguments of region 'before' but the format gives 2 types for them}}
  scf.while (%a = %x) : (i32, i32) -> i32 {
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return
}

// -----

// A `,` in a variadic region list promises another region.
func.func @region_list(%n: index, %a: f32) {
  %p = scf.parallel (%i) = (%n) to (%n) step (%n) init (%a) -> f32 {
    scf.reduce(%a : f32) {
    ^bb0(%l: f32, %r: f32):
      scf.reduce.return %l : f32
    // CHECK: expected '{', found 'scf.yield' ({{.*}}format-regions-invalid.mlir:[[# @LINE + 2]]:8)
    // expected-error@+1 {{expected '{'}}
    }, scf.yield
  }
  return
}

// -----

// A group anchored on a hook is entered by its keyword; the hook then reads its piece.
func.func @hook_anchor() {
  // CHECK: expected type, found '{' ({{.*}}format-regions-invalid.mlir:[[# @LINE + 2]]:25)
  // expected-error@+1 {{expected type, found '{'}}
  scf.execute_region -> {
    scf.yield
  }
  return
}

// -----

// After the case list (`\n` is spacing only), `default` and its region must follow.
func.func @switch_default(%n: index) {
  scf.index_switch %n
  case 1 {
    scf.yield
  }
  // CHECK: expected 'default', found 'cases' ({{.*}}format-regions-invalid.mlir:[[# @LINE + 2]]:3)
  // expected-error@+1 {{expected 'default'}}
  cases 2 {
  }
  return
}

// -----

// A hook that sets successors checks its case values as MLIR 22 reads them: as an int64_t
// (truncated to the flag's width: `300` is case 44 of an i8 switch). A literal beyond int64_t
// is an error, whatever the flag's width.
func.func @switch_value(%f: i8) {
  cf.switch %f : i8, [
    default: ^bb1,
    // CHECK: custom op 'cf.switch' integer value too large ({{.*}}format-regions-invalid.mlir:[[# @LINE + 2]]:5)
    // expected-error@+1 {{custom op 'cf.switch' integer value too large}}
    18446744073709551616: ^bb1
  ]
^bb1:
  return
}

// -----

func.func @switch_value_wide(%f: i128) {
  cf.switch %f : i128, [
    default: ^bb1,
    // CHECK: custom op 'cf.switch' integer value too large ({{.*}}format-regions-invalid.mlir:[[# @LINE + 2]]:5)
    // expected-error@+1 {{custom op 'cf.switch' integer value too large}}
    340282366920938463463374607431768211455: ^bb1
  ]
^bb1:
  return
}
