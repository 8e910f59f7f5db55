// The verifier rules of cf.switch, scf.index_switch, scf.parallel/scf.reduce and scf.forall,
// each with MLIR 22's message where MLIR states the rule.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics
func.func @sw_count(%f: i32) {
  // expected-error@+1 {{'cf.switch' op number of case values (2) should match number of case destinations (1)}}
  "cf.switch"(%f)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<[1, 2]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @sw_type(%f: i32) {
  // expected-error@+1 {{'cf.switch' op 'flag' type ('i32') should match case value type ('i64')}}
  "cf.switch"(%f)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0>, case_values = dense<[1]> : vector<1xi64>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @sw_segs(%f: i32) {
  // expected-error@+1 {{'cf.switch' op caseOperands count (1) does not match with the total size (2) specified in attribute 'case_operand_segments'}}
  "cf.switch"(%f, %f)[^bb1, ^bb2] <{case_operand_segments = array<i32: 2>, case_values = dense<[1]> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (i32, i32) -> ()
^bb1:
  return
^bb2(%x: i32):
  return
}

// -----

func.func @isw_dup(%i: index) {
  // expected-error@+1 {{'scf.index_switch' op has duplicate case value: 1}}
  scf.index_switch %i
  case 1 {
  }
  case 1 {
  }
  default {
  }
  return
}

// -----

func.func @isw_count(%i: index) {
  // expected-error@+1 {{'scf.index_switch' op has 1 case regions but 2 case values}}
  "scf.index_switch"(%i) <{cases = array<i64: 1, 2>}> ({
    "scf.yield"() : () -> ()
  }, {
    "scf.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @par_step(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'scf.parallel' op constant step operand must be positive}}
  scf.parallel (%i) = (%n) to (%n) step (%c0) {
  }
  return
}

// -----

func.func @par_red(%n: index, %a: f32) {
  // expected-error@+1 {{'scf.parallel' op expects number of results: 1 to be the same as number of reductions: 0}}
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%a) -> f32 {
    scf.reduce
  }
  return
}

// -----

func.func @red_block(%n: index, %a: f32) {
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%a) -> f32 {
    // expected-error@+1 {{'scf.reduce' op expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%a : f32) {
    ^bb0(%l: f32):
      scf.reduce.return %l : f32
    }
  }
  return
}

// -----

func.func @fa_step(%n: index) {
  // expected-error@+1 {{'scf.forall' op constant step operand must be positive}}
  scf.forall (%i) = (0) to (%n) step (0) {
  }
  return
}

// -----

func.func @fa_map(%n: index) {
  // expected-error@+1 {{'scf.forall' op mapping attribute size must match op rank: 2 against 1}}
  scf.forall (%i) in (%n) {
  } {mapping = [1, 2]}
  return
}

// -----

func.func @sw_segment_count(%f: i32) {
  // expected-error@+1 {{'cf.switch' op 'case_operand_segments' has 2 sizes, but the op has 1 such successors}}
  "cf.switch"(%f)[^bb1, ^bb1] <{case_operand_segments = array<i32: 0, 0>, case_values = dense<[1]> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

func.func @sw_destination_types(%f: i32, %a: i32) {
  cf.switch %f : i32, [
    // expected-error@+1 {{expected 2 types, one per operand, but found 1}}
    default: ^bb1(%a, %a : i32)
  ]
^bb1(%x: i32, %y: i32):
  return
}
