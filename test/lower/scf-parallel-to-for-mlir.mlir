// scf-forall-to-for and scf-parallel-for-to-nested-fors against MLIR 22's mlir-opt on the same
// input (tilus-opt's output is printed again by mlir-opt, so only what the passes did is
// compared). Like MLIR's, scf-parallel-for-to-nested-fors leaves loops with reductions alone.
// REQUIRES: mlir-opt

// RUN: mlir-opt --allow-unregistered-dialect %s --scf-forall-to-for >%t.mlir-opt
// RUN: tilus-opt --allow-unregistered-dialect %s --scf-forall-to-for \
// RUN:   | mlir-opt --allow-unregistered-dialect >%t.tilus-opt
// RUN: diff %t.mlir-opt %t.tilus-opt
// RUN: mlir-opt --allow-unregistered-dialect %s --scf-parallel-for-to-nested-fors >%t.mlir-opt2
// RUN: tilus-opt --allow-unregistered-dialect %s --scf-parallel-for-to-nested-fors \
// RUN:   | mlir-opt --allow-unregistered-dialect >%t.tilus-opt2
// RUN: diff %t.mlir-opt2 %t.tilus-opt2

func.func @loops(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 {
    scf.parallel (%j) = (%i) to (%ub) step (%s) {
      scf.forall (%w) in (%ub) {
        "test.use"(%i, %j, %w) : (index, index, index) -> ()
      }
    }
    %b = arith.index_cast %i : index to i32
    %f = arith.sitofp %b : i32 to f32
    scf.reduce(%f : f32) {
    ^bb0(%p: f32, %q: f32):
      %m = arith.addf %p, %q : f32
      scf.reduce.return %m : f32
    }
  }
  scf.forall (%u, %v, %t) = (%lb, 0, 1) to (4, %ub, 9) step (%s, 2, 4) {
    "test.use"(%u, %v, %t) : (index, index, index) -> ()
  }
  return %r : f32
}
