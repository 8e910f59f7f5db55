//! `inline` in-process; expected outputs are `mlir-opt --inline`'s (MLIR 22). They show that
//! MLIR's inliner canonicalizes every function (default-pipeline), and erases private functions
//! left without uses, including ones that were never called (`@unused`).

mod common;

use common::{assert_same, run, stat};
use tilus_passes::inline::Inline;
use tilus_passes::{Changed, DeclaredPass, Pass};

const CALLS: &str = r#"func.func @nocalls(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.addi %x, %0 : i32
  return %1 : i32
}
func.func private @once(%a: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %0 = arith.muli %a, %c3 : i32
  return %0 : i32
}
func.func private @twice(%a: i32) -> i32 {
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %a, %c4 : i32
  return %0 : i32
}
func.func @pubcallee(%a: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %0 = arith.subi %a, %c5 : i32
  return %0 : i32
}
func.func private @unused(%a: i32) -> i32 {
  return %a : i32
}
func.func private @decl(i32) -> i32
func.func @main(%x: i32) -> i32 {
  %0 = call @once(%x) : (i32) -> i32
  %1 = call @twice(%0) : (i32) -> i32
  %2 = call @twice(%1) : (i32) -> i32
  %3 = call @pubcallee(%2) : (i32) -> i32
  %4 = call @decl(%3) : (i32) -> i32
  %c0 = arith.constant 0 : i32
  %5 = arith.addi %4, %c0 : i32
  return %5 : i32
}
"#;

const CALLS_EXPECTED: &str = r#"module {
  func.func @nocalls(%arg0: i32) -> i32 {
    %c3_i32 = arith.constant 3 : i32
    %0 = arith.addi %arg0, %c3_i32 : i32
    return %0 : i32
  }
  func.func @pubcallee(%arg0: i32) -> i32 {
    %c5_i32 = arith.constant 5 : i32
    %0 = arith.subi %arg0, %c5_i32 : i32
    return %0 : i32
  }
  func.func private @decl(i32) -> i32
  func.func @main(%arg0: i32) -> i32 {
    %c3_i32 = arith.constant 3 : i32
    %0 = arith.muli %arg0, %c3_i32 : i32
    %1 = arith.addi %0, %c3_i32 : i32
    %2 = call @decl(%1) : (i32) -> i32
    return %2 : i32
  }
}

"#;

const CALLS_NO_PIPELINE_EXPECTED: &str = r#"module {
  func.func @nocalls(%arg0: i32) -> i32 {
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %0 = arith.addi %c1_i32, %c2_i32 : i32
    %1 = arith.addi %arg0, %0 : i32
    return %1 : i32
  }
  func.func @pubcallee(%arg0: i32) -> i32 {
    %c5_i32 = arith.constant 5 : i32
    %0 = arith.subi %arg0, %c5_i32 : i32
    return %0 : i32
  }
  func.func private @decl(i32) -> i32
  func.func @main(%arg0: i32) -> i32 {
    %c3_i32 = arith.constant 3 : i32
    %0 = arith.muli %arg0, %c3_i32 : i32
    %c4_i32 = arith.constant 4 : i32
    %1 = arith.addi %0, %c4_i32 : i32
    %c4_i32_0 = arith.constant 4 : i32
    %2 = arith.addi %1, %c4_i32_0 : i32
    %c5_i32 = arith.constant 5 : i32
    %3 = arith.subi %2, %c5_i32 : i32
    %4 = call @decl(%3) : (i32) -> i32
    %c0_i32 = arith.constant 0 : i32
    %5 = arith.addi %4, %c0_i32 : i32
    return %5 : i32
  }
}

"#;

#[test]
fn inlines_canonicalizes_and_erases_dead_callees_like_mlir() {
    let (out, stats, changed) = run(&mut Inline::default(), CALLS);
    assert_same(&out, CALLS_EXPECTED);
    assert_eq!(changed, Changed::Yes);
    assert_eq!(stat(&stats, "num-inlined"), 4);
    assert_eq!(stat(&stats, "num-erased"), 3);
}

#[test]
fn empty_default_pipeline_inlines_only() {
    let mut p = Inline::default();
    p.set_option("default-pipeline", "").unwrap();
    let (out, _, _) = run(&mut p, CALLS);
    assert_same(&out, CALLS_NO_PIPELINE_EXPECTED);
}

const RECURSION: &str = r#"func.func private @a(%x: i32) -> i32 {
  %0 = call @b(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @b(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
func.func private @unuseddecl(i32) -> i32
func.func private @refd(%x: i32) -> i32 {
  return %x : i32
}
func.func private @rec(%x: i32) -> i32 {
  %0 = call @rec(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @m1(%x: i32) -> i32 {
  %0 = call @m2(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @m2(%x: i32) -> i32 {
  %c = arith.constant 1 : i32
  %s = arith.subi %x, %c : i32
  %0 = call @m1(%s) : (i32) -> i32
  return %0 : i32
}
func.func private @noinl(%x: i32) -> i32 attributes {no_inline} {
  return %x : i32
}
func.func @main(%x: i32) -> i32 attributes {ref = @refd} {
  %0 = call @rec(%x) : (i32) -> i32
  %1 = call @m1(%0) : (i32) -> i32
  %2 = call @noinl(%1) : (i32) -> i32
  %3 = call @refd(%2) {no_inline} : (i32) -> i32
  return %3 : i32
}
"#;

const RECURSION_EXPECTED: &str = r#"module {
  func.func private @b(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32
    return %0 : i32
  }
  func.func private @unuseddecl(i32) -> i32
  func.func private @refd(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
  func.func private @rec(%arg0: i32) -> i32 {
    %0 = call @rec(%arg0) : (i32) -> i32
    return %0 : i32
  }
  func.func private @m1(%arg0: i32) -> i32 {
    %0 = call @m2(%arg0) : (i32) -> i32
    return %0 : i32
  }
  func.func private @m2(%arg0: i32) -> i32 {
    %c1_i32 = arith.constant 1 : i32
    %0 = arith.subi %arg0, %c1_i32 : i32
    %1 = call @m1(%0) : (i32) -> i32
    return %1 : i32
  }
  func.func private @noinl(%arg0: i32) -> i32 attributes {no_inline} {
    return %arg0 : i32
  }
  func.func @main(%arg0: i32) -> i32 attributes {ref = @refd} {
    %c3_i32 = arith.constant 3 : i32
    %0 = call @rec(%arg0) : (i32) -> i32
    %1 = arith.subi %0, %c3_i32 : i32
    %c1_i32 = arith.constant 1 : i32
    %2 = arith.subi %1, %c1_i32 : i32
    %3 = call @m1(%2) : (i32) -> i32
    %4 = call @noinl(%3) : (i32) -> i32
    %5 = call @refd(%4) {no_inline} : (i32) -> i32
    return %5 : i32
  }
}

"#;

#[test]
fn recursion_no_inline_and_references_like_mlir() {
    let (out, _, _) = run(&mut Inline::default(), RECURSION);
    assert_same(&out, RECURSION_EXPECTED);
}

#[test]
fn inlined_ops_get_callsite_locations() {
    let src = "func.func private @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32 loc(\"inner\")
  return %0 : i32
}
func.func @g(%x: i32) -> i32 {
  %0 = func.call @f(%x) : (i32) -> i32 loc(\"call\")
  return %0 : i32
}
";
    let mut ctx = common::context();
    let m = common::parse(&mut ctx, src);
    let mut p = Inline::default();
    p.set_option("default-pipeline", "").unwrap();
    p.run(&mut ctx, m, &mut Default::default()).unwrap();
    let out = tilus_ir::print_op(
        &ctx,
        m,
        tilus_ir::PrintOptions {
            debuginfo: true,
            local_scope: true,
            ..Default::default()
        },
    );
    assert!(
        out.contains("arith.addi %arg0, %arg0 : i32 loc(callsite(\"inner\" at \"call\"))"),
        "{out}"
    );
}

#[test]
fn options_and_pipelines() {
    let mut p = Inline::default();
    let names: Vec<String> = p
        .options()
        .iter()
        .map(|o| format!("{}={}", o.name, o.value))
        .collect();
    assert_eq!(
        names,
        [
            "default-pipeline=canonicalize",
            "inlining-threshold=4294967295",
            "max-iterations=4",
            "op-pipelines={}"
        ]
    );
    p.set_option("default-pipeline", "canonicalize{top-down=false},cse")
        .unwrap();
    assert!(p.set_option("default-pipeline", "no-such-pass").is_err());
    assert!(p.set_option("op-pipelines", "func.func(cse)").is_err());
    p.set_option("inlining-threshold", "0").unwrap();
    let (out, stats, _) = run(&mut p, CALLS);
    assert_eq!(
        stat(&stats, "num-inlined"),
        0,
        "threshold 0 inlines nothing"
    );
    assert!(out.contains("call @once"));
}
