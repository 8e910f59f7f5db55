//! `cse` in-process; expected outputs are `mlir-opt --cse`'s (MLIR 22).

mod common;

use common::{assert_same, run, stat};
use tilus_passes::cse::Cse;
use tilus_passes::Changed;

const INPUT: &str = r#"func.func @f(%x: i32, %y: i32) -> (i32, i32, i32) {
  %a = arith.addi %x, %y : i32
  %b = arith.addi %y, %x : i32
  %c = arith.addi %x, %y : i32
  %d = arith.muli %a, %a : i32
  %e = arith.muli %d, %d : i32
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %g = arith.addi %x, %y {foo} : i32
  %h = arith.addi %x, %y overflow<nsw> : i32
  return %b, %c, %c1b : i32, i32, i32
}
func.func @g(%c: i1, %x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = arith.addi %x, %x : i32
  cf.br ^bb3(%b : i32)
^bb2:
  %d = arith.addi %x, %x : i32
  %e = arith.muli %d, %x : i32
  cf.br ^bb3(%e : i32)
^bb3(%r: i32):
  %f = arith.muli %a, %x : i32
  %s = arith.addi %r, %f : i32
  return %s : i32
}
"#;

const EXPECTED: &str = r#"module {
  func.func @f(%arg0: i32, %arg1: i32) -> (i32, i32, i32) {
    %0 = arith.addi %arg0, %arg1 : i32
    %1 = arith.muli %0, %0 : i32
    %c1_i32 = arith.constant 1 : i32
    return %0, %0, %c1_i32 : i32, i32, i32
  }
  func.func @g(%arg0: i1, %arg1: i32) -> i32 {
    %0 = arith.addi %arg1, %arg1 : i32
    cf.cond_br %arg0, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    cf.br ^bb3(%0 : i32)
  ^bb2:  // pred: ^bb0
    %1 = arith.muli %0, %arg1 : i32
    cf.br ^bb3(%1 : i32)
  ^bb3(%2: i32):  // 2 preds: ^bb1, ^bb2
    %3 = arith.muli %0, %arg1 : i32
    %4 = arith.addi %2, %3 : i32
    return %4 : i32
  }
}

"#;

#[test]
fn merges_commutative_and_dominated_expressions_like_mlir() {
    let (out, stats, changed) = run(&mut Cse, INPUT);
    assert_same(&out, EXPECTED);
    assert_eq!(changed, Changed::Yes);
    // @f: %b and %c merged into %a; @g: the addi in ^bb1 and the one in ^bb2.
    assert_eq!(stat(&stats, "num-cse'd"), 4);
    // @f: %c1 (dead when visited, so %c1b has nothing to merge with), %e, %g, %h.
    assert_eq!(stat(&stats, "num-dce'd"), 4);
}

#[test]
fn attributes_and_result_types_distinguish_expressions() {
    let src = "func.func @f(%x: i32, %y: i64) -> (i32, i32, i32, i64, i64) {
  %a = arith.addi %x, %x : i32
  %b = arith.addi %x, %x overflow<nsw> : i32
  %c = arith.addi %x, %x {tag} : i32
  %d = arith.extsi %x : i32 to i64
  %e = arith.extui %x : i32 to i64
  return %a, %b, %c, %d, %e : i32, i32, i32, i64, i64
}
";
    let (out, stats, changed) = run(&mut Cse, src);
    assert_eq!(stat(&stats, "num-cse'd"), 0);
    assert_eq!(changed, Changed::No);
    assert!(out.contains("overflow<nsw>") && out.contains("{tag}"));
}

#[test]
fn side_effecting_ops_are_not_merged() {
    let src = "func.func private @g(i32) -> i32
func.func @f(%x: i32) -> (i32, i32) {
  %a = func.call @g(%x) : (i32) -> i32
  %b = func.call @g(%x) : (i32) -> i32
  %c = \"test.op\"(%x) : (i32) -> i32
  %d = \"test.op\"(%x) : (i32) -> i32
  return %a, %b : i32, i32
}
";
    let (out, stats, _) = run(&mut Cse, src);
    assert_eq!(stat(&stats, "num-cse'd"), 0);
    assert_eq!(out.matches("call @g").count(), 2);
    assert_eq!(
        out.matches("test.op").count(),
        2,
        "unregistered ops may have effects"
    );
}

#[test]
fn isolated_regions_start_with_no_known_expressions() {
    // Two functions computing the same expression: nothing crosses the function boundary.
    let src = "func.func @a(%x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  return %0 : i32
}
func.func @b(%x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  %1 = arith.muli %x, %x : i32
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}
";
    let (out, stats, _) = run(&mut Cse, src);
    assert_eq!(stat(&stats, "num-cse'd"), 1);
    assert_eq!(out.matches("arith.muli").count(), 2);
}
