//! The parser's hand-written fast paths and its caches by source text must build exactly what the
//! pest grammar builds. Every `.mlir` file of the repository (each `// -----` part on its own) is
//! parsed both ways, and the two results are compared: the printed IR (generic form with
//! locations, and the custom form) when parsing succeeds, the diagnostics (message and span) when
//! it fails. Shapes the corpus lacks, as `mlir-opt` prints them, are generated below.

use std::path::{Path, PathBuf};

use tilus_ir::{parse_with, print_op, verify, Context, PrintOptions};

/// What one way of parsing gave, in a form that compares as text.
fn outcome(src: &str, grammar_only: bool) -> String {
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    ctx.allow_unregistered = true;
    match parse_with(&mut ctx, src, "input.mlir", grammar_only) {
        Ok(pf) => {
            let generic = PrintOptions {
                generic: true,
                debuginfo: true,
                ..Default::default()
            };
            let mut out = print_op(&ctx, pf.module, generic);
            // Custom forms assume verified IR.
            let diags = verify(&ctx, pf.module);
            if diags.is_empty() {
                out.push_str(&print_op(&ctx, pf.module, PrintOptions::default()));
            }
            for d in diags {
                out.push_str(&format!("invalid at {:?}: {}\n", d.loc, d.message));
            }
            out
        }
        Err((diags, _)) => diags
            .iter()
            .map(|d| format!("error at {:?}: {}\n", d.loc, d.message))
            .collect(),
    }
}

fn check(name: &str, src: &str) {
    let fast = outcome(src, false);
    let grammar = outcome(src, true);
    assert!(
        fast == grammar,
        "{name}: the fast paths and the grammar disagree\n--- fast\n{fast}\n--- grammar\n{grammar}"
    );
}

fn mlir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target" && n != ".git") {
                mlir_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "mlir") {
            out.push(p);
        }
    }
}

#[test]
fn every_file_of_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for d in ["test", "examples", "docs", "fuzz/corpus"] {
        mlir_files(&root.join(d), &mut files);
    }
    files.sort();
    assert!(files.len() > 100, "found only {} .mlir files", files.len());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for (i, part) in text.split("\n// -----\n").enumerate() {
            check(&format!("{}#{i}", f.display()), part);
        }
    }
}

/// The shapes `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo` writes, which the fast
/// paths exist for, with the near misses that must fall back to the grammar.
#[test]
fn mlir_opt_printed_shapes() {
    let cases = [
        // Properties and attributes with dialect attributes, nested bodies, types, strings.
        r#"%0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32 loc(#loc1)
"t.use"(%0) {l = #t.layout<[4, 8], order = [1, 0], elem = !t.elt<f32>>, s = "x", d = array<i64: 1, 2>, t = tensor<4x?xf32>} : (i32) -> () loc(#loc2)
#loc1 = loc("f.mlir":3:5)
#loc2 = loc("f.mlir":4:5 to 4:9)"#,
        // Dialect-typed results and operands, function types the scalar path does not take.
        r#"%0 = "t.load"() : () -> !t.tile<16x16xf32>
%1 = "t.reduce"(%0) {axis = 0 : i64, kind = #t.combine<add> : i32} : (!t.tile<16x16xf32>) -> (i32, f32)
"t.v"(%0, %0) : (!t.tile<16x16xf32>, !t.tile<16x16xf32>) -> ()"#,
        // Values repeated with different spacing, which the text cache keys apart.
        r#""t.a"() {x = #t.b<1,2>, y = #t.b<1, 2>, z = #t.b<1,2> , w = [ 1 , 2 ]} : () -> ()
"t.a"() {x = #t.b<1,2>, y = #t.b<1, 2>, z = #t.b<1,2>, w = [1, 2]} : () -> ()"#,
        // Locations: names, call sites, fused, unknown, forward and backward aliases, escapes.
        r#"#l0 = loc("a.mlir":1:1)
"t.a"() : () -> () loc(#l0)
"t.b"() : () -> () loc(#l1)
"t.c"() : () -> () loc("n"("a.mlir":2:3))
"t.d"() : () -> () loc(callsite("x" at "y":1:2))
"t.e"() : () -> () loc(fused["a":1:2, "b":3:4])
"t.f"() : () -> () loc(unknown)
"t.g"() : () -> () loc("q\"uote.mlir":7:8)
"t.h"() : () -> () loc( "sp.mlir" : 7 : 8 )
#l1 = loc("b.mlir":9:10)"#,
        // Block labels with and without argument locations, scalar and other types.
        r#""t.r"() ({
^bb0(%a: i32 loc("f":1:2), %b: index, %c: !t.x loc(#l), %d: tensor<2xf32>):
  "t.y"(%a) [^bb1] : (i32) -> ()
^bb1:
  "t.z"() : () -> ()
}) : () -> ()
#l = loc("g":3:4)"#,
        // Errors on the fast paths' ground: each must read the same either way.
        r#""t.a"() {x = #t.b<1, y = 2} : () -> ()"#,
        r#""t.a"() {x = 1, x = 2} : () -> ()"#,
        r#""t.a"() : () -> () loc(#missing)"#,
        r#"#a = 1 : i32
"t.a"() : () -> () loc(#a)"#,
        r#""t.a"() : () -> () loc("f":99999999999:1)"#,
        r#""t.a"() {x = 300 : i8} : () -> ()"#,
        r#""t.a"() ({
^bb0(%a: i32, %a: i32):
  "t.b"() : () -> ()
}) : () -> ()"#,
    ];
    for (i, c) in cases.iter().enumerate() {
        check(&format!("case {i}"), c);
    }
}

/// The location fast path compares a file name with the last one it read as a whole; names
/// that share a prefix with it, or continue with an escape after it, must still read as the
/// grammar reads them. Nested locations mix aliases defined before and after their use, and
/// ops without a location take theirs from the text around ops with one.
#[test]
fn locations_and_their_aliases() {
    let cases = [
        // File names: repeated, one a prefix of the other either way, an escape right after the
        // last name, escapes of every kind, an empty name.
        r#""t.a"() : () -> () loc("a.mlir":1:2)
"t.b"() : () -> () loc("a.mlir":3:4)
"t.c"() : () -> () loc("a.mlir.bak":5:6)
"t.d"() : () -> () loc("a.mlir":7:8)
"t.e"() : () -> () loc("a.ml":9:10)
"t.f"() : () -> () loc("a.ml\"x":11:12)
"t.g"() : () -> () loc("a.ml\\x":13:14)
"t.h"() : () -> () loc("a.ml\0Ax\09\n\t":15:16)
"t.i"() : () -> () loc("a.ml":17:18)
"t.j"() : () -> () loc("":19:20)
"t.k"() : () -> () loc("a.ml" :21:22)
"t.l"() : () -> () loc("a.ml":23 :24)"#,
        // Nested locations with aliases defined before and after their use, in op and block
        // argument locations; the same location written out and through an alias.
        r#"#before = loc("f.mlir":1:1)
#name = loc("n"(#before))
"t.r"() ({
^bb0(%a: i32 loc(#after), %b: i32 loc(fused[#before, #after])):
  "t.a"() : () -> () loc(fused<"meta">[#before, callsite(#after at "f.mlir":2:2), "g.mlir":3:3])
  "t.b"() : () -> () loc(callsite(callsite(#name at #after) at fused[#before]))
  "t.c"() : () -> () loc("x"(callsite("y"("f.mlir":1:1) at #late)))
  "t.d"() : () -> () loc("f.mlir":1:1)
  "t.e"() : () -> () loc(#before)
}) : () -> () loc(#name)
#after = loc("f.mlir":9:9)
#late = loc(fused[#after, unknown])"#,
        // Ops without a location take the line and column of their name, also after a nested
        // region (an op with regions finishes after the ops inside it), with `\r\n` lines.
        "\"t.r\"() ({\r\n  \"t.a\"() : () -> ()\r\n  %0 = \"t.b\"() : () -> i32 loc(\"f\":1:1)\r\n  \"t.r\"() ({\r\n    \"t.c\"() : () -> ()\r\n  }) : () -> ()\r\n}) : () -> ()\r\n  \"t.z\"() : () -> ()",
        // A location alias used before its definition and never defined, among defined ones;
        // in a block argument; inside a fused location.
        r#""t.a"() : () -> () loc(#l1)
"t.b"() : () -> () loc(#nowhere)
"t.c"() : () -> () loc(#l1)
#l1 = loc("f.mlir":1:1)"#,
        r#""t.r"() ({
^bb0(%a: i32 loc(#nowhere)):
  "t.a"() : () -> ()
}) : () -> ()"#,
        r#""t.a"() : () -> () loc(fused[#l1, #nowhere])
#l1 = loc("f.mlir":1:1)"#,
        // An alias defined twice, before and after a use; an alias that is not a location.
        r#"#l = loc("f.mlir":1:1)
"t.a"() : () -> () loc(#l)
#l = loc("f.mlir":2:2)"#,
        r#""t.a"() : () -> () loc(#a)
#a = 1 : i32"#,
        r#""t.a"() : () -> () loc(#a.b)"#,
        // Near misses of the location shapes.
        r#""t.a"() : () -> () loc("f.mlir":1)"#,
        r#""t.a"() : () -> () loc("f.mlir":1:2:3)"#,
        r#""t.a"() : () -> () loc("f.mlir:1:2)"#,
        r#""t.a"() : () -> () loc("f.mlir":1:2"#,
    ];
    for (i, c) in cases.iter().enumerate() {
        check(&format!("case {i}"), c);
    }
    // What both ways give, where it matters: an alias never defined is reported at its use
    // (`#nowhere`, bytes 51..59), the escapes read as the bytes they stand for.
    let undefined = outcome(cases[3], false);
    assert_eq!(
        undefined,
        "error at Span(Span { start: 51, end: 59 }): undefined symbol alias id 'nowhere'\n"
    );
    let names = outcome(cases[0], false);
    for want in [
        r#"loc("a.mlir.bak":5:6)"#,
        r#"loc("a.ml\22x":11:12)"#,
        r#"loc("a.ml\\x":13:14)"#,
        r#"loc("a.ml\0Ax\09\0A\09":15:16)"#,
        r#"loc("a.ml":23:24)"#,
    ] {
        assert!(names.contains(want), "{want} in\n{names}");
    }
}
