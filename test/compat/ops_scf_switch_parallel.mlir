// scf.index_switch, scf.parallel with scf.reduce, scf.forall with scf.forall.in_parallel, and cf.switch:
// custom and generic forms as mlir-opt 22 reads and prints them.
func.func @isw(%i: index, %v: i32) -> i32 {
  %0 = scf.index_switch %i -> i32
  case 2 {
    scf.yield %v : i32
  }
  case 5 {
    %c = arith.constant 1 : i32
    scf.yield %c : i32
  }
  default {
    %c = arith.constant 0 : i32
    scf.yield %c : i32
  }
  return %0 : i32
}
func.func @isw2(%i: index) {
  scf.index_switch %i
  default {
  }
  return
}
func.func @par(%lb: index, %ub: index, %s: index, %m: memref<?xf32>) -> f32 {
  %init = arith.constant 0.0 : f32
  %r = scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%s, %s) init (%init) -> f32 {
    %e = "test.load"(%m, %i) : (memref<?xf32>, index) -> f32
    scf.reduce(%e : f32) {
    ^bb0(%l: f32, %rr: f32):
      %a = arith.addf %l, %rr : f32
      scf.reduce.return %a : f32
    }
  }
  scf.parallel (%i) = (%lb) to (%ub) step (%s) {
    scf.reduce
  }
  return %r : f32
}
func.func @fa(%n: index, %t: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i, %j) in (%n, 2) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
    }
  } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
  scf.forall (%i) = (0) to (%n) step (3) {
  }
  return %r : tensor<8xf32>
}
func.func @sw(%flag: i32, %a: i32, %b: i32) -> i32 {
  cf.switch %flag : i32, [
    default: ^bb1(%a : i32),
    42: ^bb1(%b : i32),
    43: ^bb2
  ]
^bb1(%x: i32):
  return %x : i32
^bb2:
  return %a : i32
}
func.func @sw_default_only(%flag: i64) {
  cf.switch %flag : i64, [
    default: ^bb1
  ]
^bb1:
  return
}
func.func @sw_negative(%flag: i8, %a: f32) -> f32 {
  cf.switch %flag : i8, [
    default: ^bb1(%a : f32),
    -128: ^bb2(%a, %a : f32, f32),
    127: ^bb1(%a : f32)
  ] {note = "kept"}
^bb1(%x: f32):
  return %x : f32
^bb2(%y: f32, %z: f32):
  return %z : f32
}
func.func @isw_multi(%i: index, %a: i32, %b: f32) -> (i32, f32) {
  %0:2 = scf.index_switch %i -> i32, f32
  case -3 {
    scf.yield %a, %b : i32, f32
  }
  default {
    scf.yield %a, %b : i32, f32
  }
  return %0#0, %0#1 : i32, f32
}
func.func @par_two(%n: index, %a: f32, %b: i32) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%a, %b) -> (f32, i32) {
    scf.reduce(%a, %b : f32, i32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%l: i32, %r: i32):
      %s = arith.addi %l, %r : i32
      scf.reduce.return %s : i32
    }
  } {tag}
  return %r#0, %r#1 : f32, i32
}
func.func @fa_dynamic(%lb: index, %ub: index, %s: index, %t: tensor<4xi32>) -> tensor<4xi32> {
  %r = scf.forall (%i, %j) = (%lb, 1) to (%ub, 9) step (2, %s) shared_outs(%o = %t) -> (tensor<4xi32>) {
    scf.forall.in_parallel {
    }
  }
  return %r : tensor<4xi32>
}
