//! `symbol-dce` in-process; expected outputs are `mlir-opt --symbol-dce`'s (MLIR 22).

mod common;

use common::{assert_same, run, stat};
use tilus_passes::symbol_dce::SymbolDce;
use tilus_passes::{Changed, Pass};

const INPUT: &str = r#"module {
  func.func private @dead(%x: i32) -> i32 { return %x : i32 }
  func.func private @used(%x: i32) -> i32 { return %x : i32 }
  func.func private @chain_a() { call @chain_b() : () -> () return }
  func.func private @chain_b() { return }
  func.func private @byattr() { return }
  func.func private @decl_dead(i32)
  func.func @pub(%x: i32) -> i32 attributes {refs = [{a = @byattr}]} {
    %0 = call @used(%x) : (i32) -> i32
    return %0 : i32
  }
  "test.op"() {sym_name = "unreg", sym_visibility = "private"} : () -> ()
  module @nested attributes {sym_visibility = "private"} {
    func.func private @inner() { return }
    func.func @inner_pub() { return }
  }
  module @nested2 {
    func.func private @inner2() { return }
    func.func @inner_pub2() { call @inner2() : () -> () return }
  }
}
"#;

const EXPECTED: &str = r#"module {
  func.func private @used(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
  func.func private @byattr() {
    return
  }
  func.func @pub(%arg0: i32) -> i32 attributes {refs = [{a = @byattr}]} {
    %0 = call @used(%arg0) : (i32) -> i32
    return %0 : i32
  }
  "test.op"() {sym_name = "unreg", sym_visibility = "private"} : () -> ()
  module @nested2 {
    func.func private @inner2() {
      return
    }
    func.func @inner_pub2() {
      call @inner2() : () -> ()
      return
    }
  }
}

"#;

#[test]
fn erases_unreferenced_private_symbols_like_mlir() {
    let (out, stats, changed) = run(&mut SymbolDce, INPUT);
    assert_same(&out, EXPECTED);
    assert_eq!(changed, Changed::Yes);
    // @dead, @chain_a, @chain_b, @decl_dead, the private module @nested, and first, inside
    // it, @inner and @inner_pub (nested tables are cleaned before their parent, as in MLIR).
    assert_eq!(stat(&stats, "num-dce'd"), 7);
}

#[test]
fn nothing_to_erase_is_no_change() {
    let (out, stats, changed) = run(&mut SymbolDce, EXPECTED);
    assert_same(&out, EXPECTED);
    assert_eq!(stat(&stats, "num-dce'd"), 0);
    assert_eq!(changed, Changed::No);
}

#[test]
fn references_in_nested_attributes_keep_symbols_alive() {
    let src = "func.func private @a() {
  return
}
func.func private @b() {
  return
}
func.func @main() attributes {table = {entries = [[@a]], other = 1 : i32}} {
  return
}
";
    let (out, _, _) = run(&mut SymbolDce, src);
    assert!(out.contains("@a()"), "{out}");
    assert!(!out.contains("@b()"), "{out}");
}

#[test]
fn must_run_on_a_symbol_table() {
    let mut ctx = common::context();
    let m = common::parse(&mut ctx, "func.func @f() {\n  return\n}\n");
    let f = ctx
        .block_first(ctx.region_blocks(ctx.regions(m)[0])[0])
        .unwrap();
    let err = SymbolDce
        .run(&mut ctx, f, &mut Default::default())
        .expect_err("func.func is not a symbol table");
    assert!(err[0].message.contains("does not define a symbol table"));
}

#[test]
fn unknown_symbol_tables_are_an_error() {
    let mut ctx = common::context();
    let m = common::parse(
        &mut ctx,
        "\"test.table\"() ({\n  \"test.x\"() : () -> ()\n}) : () -> ()\n",
    );
    let err = SymbolDce
        .run(&mut ctx, m, &mut Default::default())
        .expect_err("an unregistered op with a region may be a symbol table");
    assert!(err[0].message.contains("potentially unknown symbol table"));
}
