// convert-scf-to-cf reports the scf ops it cannot lower.
// RUN: tilus-opt %s --verify-diagnostics --convert-scf-to-cf --no-output

// A region of one block cannot take the blocks a loop becomes.
func.func @single_block_region(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  threadgroup.single_warp {
    // expected-error@+1 {{cannot lower 'scf.for' to branches: it is in a single-block region of 'threadgroup.single_warp'}}
    scf.for %i = %c0 to %n step %c1 {
    }
  }
  return
}

// An scf.forall with shared outputs has no sequential form (mlir-opt fails on it too).
func.func @forall_outputs(%t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{cannot rewrite an 'scf.forall' with shared outputs as 'scf.for' loops}}
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<8xf32>
}
