//! `canonicalize` in-process. Every expected output here is what `mlir-opt --canonicalize`
//! (MLIR 22) prints for the same input, constant order included.

mod common;

use common::{assert_same, run, stat};
use tilus_passes::canonicalize::Canonicalize;
use tilus_passes::{Changed, DeclaredPass, Pass};

const FOLDS: &str = r#"func.func @int_folds() -> (i8, i8, i32, i32, i32, i32, i32, i32, i8, i8, i1, i1, i64, index, i16) {
  %c127 = arith.constant 127 : i8
  %c1 = arith.constant 1 : i8
  %wrap = arith.addi %c127, %c1 : i8
  %m = arith.constant -128 : i8
  %neg1 = arith.constant -1 : i8
  %ovf = arith.divsi %m, %neg1 : i8
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %cm7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %div0 = arith.divui %c7, %c0 : i32
  %q = arith.divsi %cm7, %c2 : i32
  %r = arith.remsi %cm7, %c2 : i32
  %u = arith.remui %cm7, %c2 : i32
  %c40 = arith.constant 40 : i32
  %big = arith.shli %c7, %c40 : i32
  %sh = arith.shrsi %cm7, %c2 : i32
  %c3 = arith.constant 3 : i8
  %mx = arith.maxui %neg1, %c3 : i8
  %mn = arith.minsi %neg1, %c3 : i8
  %lt = arith.cmpi ult, %c3, %neg1 : i8
  %slt = arith.cmpi slt, %c3, %neg1 : i8
  %ext = arith.extsi %neg1 : i8 to i64
  %idx = arith.index_cast %cm7 : i32 to index
  %tr = arith.trunci %cm7 : i32 to i16
  return %wrap, %ovf, %div0, %q, %r, %u, %big, %sh, %mx, %mn, %lt, %slt, %ext, %idx, %tr : i8, i8, i32, i32, i32, i32, i32, i32, i8, i8, i1, i1, i64, index, i16
}
func.func @identities(%x: i32, %y: i32, %b: i1) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c0 : i32
  %m = arith.muli %c1, %x : i32
  %z = arith.muli %x, %c0 : i32
  %s = arith.subi %x, %x : i32
  %an = arith.andi %y, %y : i32
  %o = arith.ori %c0, %y : i32
  %xo = arith.xori %y, %y : i32
  %comm = arith.addi %c1, %y : i32
  %sel = arith.select %b, %x, %x : i32
  %t = arith.constant true
  %cmp = arith.cmpi eq, %b, %t : i1
  return %a, %m, %z, %s, %an, %o, %xo, %comm, %sel, %cmp : i32, i32, i32, i32, i32, i32, i32, i32, i32, i1
}
func.func @floats() -> (f32, f32, f32, f64, f32, f32) {
  %a = arith.constant 0.1 : f32
  %b = arith.constant 0.2 : f32
  %s = arith.addf %a, %b : f32
  %z = arith.constant 0.0 : f32
  %nan = arith.divf %z, %z : f32
  %p = arith.constant 0x7FC00123 : f32
  %one = arith.constant 1.0 : f32
  %keep = arith.addf %one, %p : f32
  %d1 = arith.constant 1.0e+300 : f64
  %inf = arith.mulf %d1, %d1 : f64
  %ng = arith.negf %a : f32
  %mz = arith.constant -0.0 : f32
  %mx = arith.maximumf %z, %mz : f32
  return %s, %nan, %keep, %inf, %ng, %mx : f32, f32, f32, f64, f32, f32
}
func.func @patterns(%x: i32, %b: i1, %c: i64) -> (i32, i1, i32, i32) {
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %a = arith.addi %x, %c5 : i32
  %a2 = arith.addi %a, %c7 : i32
  %cmp = arith.cmpi slt, %x, %c5 : i32
  %t = arith.constant true
  %not = arith.xori %cmp, %t : i1
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %e = arith.select %b, %zero, %one : i32
  %sub = arith.subi %c7, %a : i32
  return %a2, %not, %e, %sub : i32, i1, i32, i32
}
"#;

const FOLDS_EXPECTED: &str = r#"module {
  func.func @int_folds() -> (i8, i8, i32, i32, i32, i32, i32, i32, i8, i8, i1, i1, i64, index, i16) {
    %c-7_i16 = arith.constant -7 : i16
    %c-7 = arith.constant -7 : index
    %c-1_i64 = arith.constant -1 : i64
    %false = arith.constant false
    %true = arith.constant true
    %c-2_i32 = arith.constant -2 : i32
    %c1_i32 = arith.constant 1 : i32
    %c-1_i32 = arith.constant -1 : i32
    %c-3_i32 = arith.constant -3 : i32
    %c40_i32 = arith.constant 40 : i32
    %c0_i32 = arith.constant 0 : i32
    %c7_i32 = arith.constant 7 : i32
    %c-1_i8 = arith.constant -1 : i8
    %c-128_i8 = arith.constant -128 : i8
    %0 = arith.divsi %c-128_i8, %c-1_i8 : i8
    %1 = arith.divui %c7_i32, %c0_i32 : i32
    %2 = arith.shli %c7_i32, %c40_i32 : i32
    return %c-128_i8, %0, %1, %c-3_i32, %c-1_i32, %c1_i32, %2, %c-2_i32, %c-1_i8, %c-1_i8, %true, %false, %c-1_i64, %c-7, %c-7_i16 : i8, i8, i32, i32, i32, i32, i32, i32, i8, i8, i1, i1, i64, index, i16
  }
  func.func @identities(%arg0: i32, %arg1: i32, %arg2: i1) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i1) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = arith.addi %arg1, %c1_i32 : i32
    return %arg0, %arg0, %c0_i32, %c0_i32, %arg1, %arg1, %c0_i32, %0, %arg0, %arg2 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i1
  }
  func.func @floats() -> (f32, f32, f32, f64, f32, f32) {
    %cst = arith.constant 3.000000e-01 : f32
    %cst_0 = arith.constant 0x7FC00000 : f32
    %cst_1 = arith.constant 0x7FC00123 : f32
    %cst_2 = arith.constant 0x7FF0000000000000 : f64
    %cst_3 = arith.constant -1.000000e-01 : f32
    %cst_4 = arith.constant 0.000000e+00 : f32
    return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4 : f32, f32, f32, f64, f32, f32
  }
  func.func @patterns(%arg0: i32, %arg1: i1, %arg2: i64) -> (i32, i1, i32, i32) {
    %c2_i32 = arith.constant 2 : i32
    %true = arith.constant true
    %c5_i32 = arith.constant 5 : i32
    %c12_i32 = arith.constant 12 : i32
    %0 = arith.addi %arg0, %c12_i32 : i32
    %1 = arith.cmpi sge, %arg0, %c5_i32 : i32
    %2 = arith.xori %arg1, %true : i1
    %3 = arith.extui %2 : i1 to i32
    %4 = arith.subi %c2_i32, %arg0 : i32
    return %0, %1, %3, %4 : i32, i1, i32, i32
  }
}

"#;

#[test]
fn folds_identities_floats_and_patterns_match_mlir() {
    let (out, stats, changed) = run(&mut Canonicalize::default(), FOLDS);
    assert_same(&out, FOLDS_EXPECTED);
    assert_eq!(changed, Changed::Yes);
    assert!(stat(&stats, "num-folded") > 20);
    assert!(stat(&stats, "num-rewrites") >= 4);
    assert_eq!(stat(&stats, "num-non-converged"), 0);
}

const CFG: &str = r#"func.func @cfg(%x: i32, %b: i1) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.cond_br %b, ^bb1(%x, %c0 : i32, i32), ^bb2(%c1 : i32)
^bb1(%p: i32, %unused: i32):
  %r = arith.muli %p, %p : i32
  %dead = arith.addi %unused, %r : i32
  return %r : i32
^bb2(%q: i32):
  %s = arith.addi %q, %x : i32
  return %s : i32
^bb3:
  %d = arith.muli %x, %x : i32
  return %d : i32
}
"#;

const CFG_EXPECTED: &str = r#"module {
  func.func @cfg(%arg0: i32, %arg1: i1) -> i32 {
    %c1_i32 = arith.constant 1 : i32
    cf.cond_br %arg1, ^bb1(%arg0 : i32), ^bb2(%c1_i32 : i32)
  ^bb1(%0: i32):  // pred: ^bb0
    %1 = arith.muli %0, %0 : i32
    return %1 : i32
  ^bb2(%2: i32):  // pred: ^bb0
    %3 = arith.addi %2, %arg0 : i32
    return %3 : i32
  }
}

"#;

#[test]
fn region_simplification_removes_unreachable_blocks_and_dead_arguments() {
    let (out, stats, _) = run(&mut Canonicalize::default(), CFG);
    assert_same(&out, CFG_EXPECTED);
    assert_eq!(stat(&stats, "num-blocks-erased"), 1);
}

#[test]
fn region_simplify_disabled_keeps_dead_arguments() {
    let mut p = Canonicalize::default();
    p.set_option("region-simplify", "disabled").unwrap();
    let (out, _, _) = run(&mut p, CFG);
    assert!(out.contains("^bb1(%0: i32, %1: i32)"), "{out}");
    assert!(
        !out.contains("^bb3"),
        "unreachable blocks go at every level: {out}"
    );
}

#[test]
fn already_canonical_ir_is_unchanged() {
    let (out, stats, changed) = run(&mut Canonicalize::default(), FOLDS_EXPECTED);
    assert_same(&out, FOLDS_EXPECTED);
    assert_eq!(changed, Changed::No);
    assert_eq!(stat(&stats, "num-iterations"), 1);
}

#[test]
fn options_parse_print_and_reject() {
    let mut p = Canonicalize::default();
    let opts = |p: &Canonicalize| {
        p.options()
            .into_iter()
            .map(|o| format!("{}={}", o.name, o.value))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        opts(&p),
        "max-iterations=10 max-num-rewrites=-1 region-simplify=normal test-convergence=false \
         top-down=true disable-patterns={} enable-patterns={}"
    );
    p.set_option("max-iterations", "3").unwrap();
    p.set_option("top-down", "false").unwrap();
    p.set_option("region-simplify", "aggressive").unwrap();
    p.set_option("disable-patterns", "{addi-add-constant,select-to-extui}")
        .unwrap();
    assert!(opts(&p).contains("max-iterations=3"));
    assert!(opts(&p).contains("region-simplify=aggressive"));
    assert!(opts(&p).contains("disable-patterns={addi-add-constant,select-to-extui}"));
    assert!(p.set_option("region-simplify", "fast").is_err());
    assert!(p.set_option("max-iterations", "ten").is_err());
    assert!(p.set_option("nope", "1").is_err());
}

#[test]
fn disabled_patterns_do_not_fire() {
    let src = "func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %x, %c1 : i32
  %1 = arith.addi %0, %c2 : i32
  return %1 : i32
}
";
    let (out, _, _) = run(&mut Canonicalize::default(), src);
    assert!(out.contains("%c3_i32 = arith.constant 3 : i32"), "{out}");
    let mut p = Canonicalize::default();
    p.set_option("disable-patterns", "addi-add-constant")
        .unwrap();
    let (out, stats, _) = run(&mut p, src);
    assert!(!out.contains("%c3_i32"), "{out}");
    assert_eq!(stat(&stats, "num-rewrites"), 0);
}

#[test]
fn max_iterations_limits_and_reports_non_convergence() {
    // Every round folds one more link of the chain into the next; one round is not enough to
    // see that nothing changes any more.
    let src = "func.func @f(%x: i8) -> i64 {
  %a = arith.extui %x : i8 to i16
  %b = arith.extui %a : i16 to i32
  %c = arith.extui %b : i32 to i64
  return %c : i64
}
";
    let mut p = Canonicalize::default();
    p.set_option("max-iterations", "1").unwrap();
    let (_, stats, _) = run(&mut p, src);
    assert_eq!(stat(&stats, "num-non-converged"), 1);
    p.set_option("test-convergence", "true").unwrap();
    let mut ctx = common::context();
    let m = common::parse(&mut ctx, src);
    let err = p
        .run(&mut ctx, m, &mut Default::default())
        .expect_err("test-convergence turns non-convergence into an error");
    assert!(
        err[0].message.contains("failed to converge"),
        "{}",
        err[0].message
    );
}
