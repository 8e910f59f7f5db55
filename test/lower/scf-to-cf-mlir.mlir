// convert-scf-to-cf against MLIR 22's mlir-opt on the same input: tilus-opt's output is printed
// again by mlir-opt, so only what the pass did is compared.
// REQUIRES: mlir-opt

// RUN: mlir-opt --allow-unregistered-dialect %s --convert-scf-to-cf >%t.mlir-opt
// RUN: tilus-opt --allow-unregistered-dialect %s --convert-scf-to-cf \
// RUN:   | mlir-opt --allow-unregistered-dialect >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt

func.func @nested(%lb: index, %ub: index, %s: index, %x: f32, %c: i1) -> f32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (f32) {
    %y = scf.if %c -> (f32) {
      %a = arith.addf %acc, %acc : f32
      scf.yield %a : f32
    } else {
      scf.yield %acc : f32
    }
    scf.for %j = %lb to %ub step %s {
      scf.if %c {
        %z = arith.addi %i, %j : index
        "test.use"(%z) : (index) -> ()
      }
    }
    scf.yield %y : f32
  }
  %u = scf.for unsigned %k = %lb to %ub step %s iter_args(%a2 = %r) -> (f32) : index {
    scf.yield %a2 : f32
  }
  return %u : f32
}

func.func @i32_loop_two_carried(%n: i32, %x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %c0) -> (i32, i32) : i32 {
    %s = arith.addi %a, %i : i32
    scf.yield %b, %s : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

func.func @if_in_cfg(%c: i1, %a: i32, %b: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  cf.br ^bb1(%r : i32)
^bb1(%v: i32):
  scf.if %c {
    "test.use"(%v) : (i32) -> ()
  }
  return %v : i32
}

func.func @nested_function_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    "test.region"() ({
      %true = arith.constant true
      scf.if %true {
        "test.use"(%i) : (index) -> ()
      }
      "test.end"() : () -> ()
    }) : () -> ()
  }
  return
}

// scf.while: the before block, the after block branching back, the forwarded values as results;
// with an scf.if inside each region and a loop nested in the after region.
func.func @while_loop(%n: i32, %x: f32, %c: i1, %lb: index, %ub: index, %s: index) -> (i32, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %acc = %x) : (i32, f32) -> (i32, f32) {
    %more = arith.cmpi slt, %i, %n : i32
    %v = scf.if %c -> (f32) {
      %d = arith.addf %acc, %acc : f32
      scf.yield %d : f32
    } else {
      scf.yield %acc : f32
    }
    scf.condition(%more) %i, %v : i32, f32
  } do {
  ^bb0(%j: i32, %a: f32):
    %j1 = arith.addi %j, %c1 : i32
    scf.for %k = %lb to %ub step %s {
      "test.use"(%k) : (index) -> ()
    }
    scf.yield %j1, %a : i32, f32
  }
  return %r#0, %r#1 : i32, f32
}

// scf.index_switch: a cf.switch on the index cast to i32, the case blocks, then the default,
// joining in the block after the op with the results as its arguments; an scf.if nested in a
// case, a switch without results whose default is empty, and one with no case at all.
func.func @index_switch(%i: index, %a: f32, %b: f32, %c: i1) -> (f32, i32) {
  %r:2 = scf.index_switch %i -> f32, i32
  case 2 {
    %d = arith.addf %a, %b : f32
    %k = arith.constant 7 : i32
    scf.yield %d, %k : f32, i32
  }
  case -5 {
    %v = scf.if %c -> (f32) {
      scf.yield %a : f32
    } else {
      scf.yield %b : f32
    }
    %k = arith.constant 8 : i32
    scf.yield %v, %k : f32, i32
  }
  default {
    %k = arith.constant 9 : i32
    scf.yield %b, %k : f32, i32
  }
  scf.index_switch %i
  case 1 {
    "test.use"(%a) : (f32) -> ()
    scf.yield
  }
  default {
  }
  %only = scf.index_switch %i -> f32
  default {
    scf.yield %a : f32
  }
  "test.use"(%only) : (f32) -> ()
  return %r#0, %r#1 : f32, i32
}

// scf.execute_region: a branch to its blocks inlined in place, its yields branching to the
// block after it with the results; several blocks with their own branches, a switch in a later
// block, an execute_region in a loop and one in a switch case.
func.func @execute_region(%a: f32, %c: i1, %i: index, %lb: index, %ub: index, %s: index) -> f32 {
  %r = scf.execute_region -> f32 {
    cf.cond_br %c, ^bb1, ^bb2(%a : f32)
  ^bb1:
    %d = arith.addf %a, %a : f32
    scf.yield %d : f32
  ^bb2(%x: f32):
    %y = scf.index_switch %i -> f32
    case 3 {
      %e = scf.execute_region -> f32 {
        scf.yield %x : f32
      }
      scf.yield %e : f32
    }
    default {
      scf.yield %a : f32
    }
    scf.yield %y : f32
  }
  %t = scf.for %k = %lb to %ub step %s iter_args(%acc = %r) -> (f32) {
    %n = scf.execute_region -> f32 no_inline {
      %m = arith.mulf %acc, %acc : f32
      scf.yield %m : f32
    }
    scf.execute_region {
      "test.use"(%k) : (index) -> ()
      scf.yield
    }
    scf.yield %n : f32
  }
  return %t : f32
}

// scf.parallel with two reductions over two dimensions: a nest of loops carrying the
// accumulators, each reduction region applied to (accumulator, value) at the end of the body.
// A parallel loop without reductions nests another; scf.forall with mixed static and dynamic
// bounds (constants before the nest: lower bounds, upper bounds, steps), and its `in` form.
func.func @parallel_loops(%lb: index, %ub: index, %s: index, %x: f32, %y: i32) -> (f32, i32) {
  %c4 = arith.constant 4 : index
  %r:2 = scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %c4) step (%s, %s) init (%x, %y) -> (f32, i32) {
    %a = arith.index_cast %i : index to i32
    %b = arith.sitofp %a : i32 to f32
    scf.reduce(%b, %a : f32, i32) {
    ^bb0(%p: f32, %q: f32):
      %m = arith.maximumf %p, %q : f32
      scf.reduce.return %m : f32
    }, {
    ^bb0(%p: i32, %q: i32):
      %m = arith.addi %p, %q : i32
      scf.reduce.return %m : i32
    }
  }
  scf.parallel (%k) = (%lb) to (%ub) step (%s) {
    scf.parallel (%l) = (%k) to (%ub) step (%s) {
      "test.use"(%k, %l) : (index, index) -> ()
    }
    scf.reduce
  }
  scf.forall (%u, %v) = (%lb, 2) to (%ub, 10) step (3, %s) {
    "test.use"(%u, %v) : (index, index) -> ()
  }
  scf.forall (%w, %z) in (7, 7) {
    "test.use"(%w, %z) : (index, index) -> ()
  }
  return %r#0, %r#1 : f32, i32
}
