//! `dce` in-process: dead pure ops go, chains included; side effects, terminators, symbols
//! and unregistered ops stay.

mod common;

use common::{assert_same, run, stat};
use tilus_passes::dce::Dce;
use tilus_passes::Changed;

#[test]
fn erases_dead_chains_keeps_effects() {
    let src = r#"func.func private @g(i32) -> i32
func.func @f(%x: i32, %b: i1) -> i32 {
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c1 : i32
  %m = arith.muli %a, %a : i32
  %s = arith.select %b, %m, %x : i32
  %call = func.call @g(%x) : (i32) -> i32
  %u = "test.unknown"(%x) : (i32) -> i32
  cf.br ^bb1
^bb1:
  %late = arith.subi %x, %x : i32
  return %x : i32
}
"#;
    let expected = r#"module {
  func.func private @g(i32) -> i32
  func.func @f(%arg0: i32, %arg1: i1) -> i32 {
    %0 = call @g(%arg0) : (i32) -> i32
    %1 = "test.unknown"(%arg0) : (i32) -> i32
    cf.br ^bb1
  ^bb1:  // pred: ^bb0
    return %arg0 : i32
  }
}

"#;
    let (out, stats, changed) = run(&mut Dce, src);
    assert_same(&out, expected);
    assert_eq!(stat(&stats, "num-dce'd"), 5);
    assert_eq!(changed, Changed::Yes);
    let (_, stats, changed) = run(&mut Dce, expected);
    assert_eq!(stat(&stats, "num-dce'd"), 0);
    assert_eq!(changed, Changed::No);
}
