//! The IR core API as passes use it: building ops, use lists, replace-all-uses, moving and erasing,
//! uniquing of types and attributes.

use tilus_ir::attrs::AttrKind;
use tilus_ir::types::{FloatKind, TypeKind};
use tilus_ir::{print_op, Context, OpId, OperationState, PrintOptions, Value};

fn op(ctx: &mut Context, name: &str, operands: Vec<Value>, results: usize) -> tilus_ir::OpId {
    let i32t = ctx.int_type(32);
    let name = ctx.op_name(name);
    let loc = ctx.unknown_loc();
    ctx.create_op(OperationState {
        name,
        operands,
        result_types: vec![i32t; results],
        properties: None,
        attrs: vec![],
        regions: vec![],
        successors: vec![],
        loc,
    })
}

/// A module with one block, and that block.
fn module(ctx: &mut Context) -> (tilus_ir::OpId, tilus_ir::BlockId) {
    let r = ctx.create_region();
    let b = ctx.create_block(&[]);
    ctx.push_block(r, b);
    let name = ctx.op_name("builtin.module");
    let loc = ctx.unknown_loc();
    let m = ctx.create_op(OperationState {
        name,
        operands: vec![],
        result_types: vec![],
        properties: None,
        attrs: vec![],
        regions: vec![r],
        successors: vec![],
        loc,
    });
    (m, b)
}

fn text(ctx: &Context, m: tilus_ir::OpId) -> String {
    print_op(
        ctx,
        m,
        PrintOptions {
            generic: true,
            ..Default::default()
        },
    )
}

#[test]
fn types_and_attributes_are_uniqued() {
    let mut ctx = Context::new();
    let a = ctx.int_type(32);
    let b = ctx.ty(TypeKind::int(32));
    assert_eq!(a, b);
    assert_ne!(a, ctx.int_type(64));
    let f = ctx.float_type(FloatKind::F16);
    let v1 = ctx.ty(TypeKind::Vector {
        shape: vec![4],
        scalable: vec![false],
        elem: f,
    });
    let v2 = ctx.ty(TypeKind::Vector {
        shape: vec![4],
        scalable: vec![false],
        elem: f,
    });
    assert_eq!(v1, v2);
    let s1 = ctx.str_attr("x");
    let s2 = ctx.str_attr("x");
    assert_eq!(s1, s2);
    let d1 = ctx.dict_attr(vec![("b".into(), s1), ("a".into(), s1)]);
    let d2 = ctx.dict_attr(vec![("a".into(), s1), ("b".into(), s1)]);
    assert_eq!(d1, d2, "dictionaries are sorted before uniquing");
    assert!(matches!(ctx.attr_kind(d1), AttrKind::Dict(e) if e[0].0 == "a"));
}

#[test]
fn replace_all_uses_updates_operands_and_use_lists() {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let (m, b) = module(&mut ctx);
    let x = op(&mut ctx, "t.x", vec![], 1);
    let y = op(&mut ctx, "t.y", vec![], 1);
    let xv = ctx.results(x)[0];
    let yv = ctx.results(y)[0];
    let u = op(&mut ctx, "t.use", vec![xv, xv], 0);
    for o in [x, y, u] {
        ctx.append_op(b, o);
    }
    assert_eq!(ctx.uses(xv).len(), 2);
    ctx.replace_all_uses(xv, yv);
    assert!(ctx.uses(xv).is_empty());
    assert_eq!(ctx.uses(yv).len(), 2);
    assert_eq!(ctx.operands(u), &[yv, yv]);
    assert!(text(&ctx, m).contains("\"t.use\"(%1, %1)"));
}

#[test]
fn erase_and_move_keep_the_block_list_consistent() {
    let mut ctx = Context::new();
    let (m, b) = module(&mut ctx);
    let a = op(&mut ctx, "t.a", vec![], 0);
    let bb = op(&mut ctx, "t.b", vec![], 0);
    let c = op(&mut ctx, "t.c", vec![], 0);
    for o in [a, bb, c] {
        ctx.append_op(b, o);
    }
    ctx.move_op_before(c, a);
    let names: Vec<&str> = ctx.block_ops(b).map(|o| ctx.op_name_str(o)).collect();
    assert_eq!(names, ["t.c", "t.a", "t.b"]);
    ctx.erase_op(a);
    let names: Vec<&str> = ctx.block_ops(b).map(|o| ctx.op_name_str(o)).collect();
    assert_eq!(names, ["t.c", "t.b"]);
    assert!(!ctx.is_alive(a));
    assert_eq!(ctx.block_first(b), Some(c));
    assert_eq!(ctx.block_last(b), Some(bb));
    ctx.erase_op(bb);
    ctx.erase_op(c);
    assert_eq!(ctx.block_first(b), None);
    assert_eq!(ctx.block_last(b), None);
    assert_eq!(
        text(&ctx, m),
        "\"builtin.module\"() ({\n^bb0:\n}) : () -> ()\n\n"
    );
}

#[test]
fn erasing_an_op_drops_its_uses() {
    let mut ctx = Context::new();
    let (_, b) = module(&mut ctx);
    let x = op(&mut ctx, "t.x", vec![], 1);
    let xv = ctx.results(x)[0];
    let u = op(&mut ctx, "t.use", vec![xv], 0);
    ctx.append_op(b, x);
    ctx.append_op(b, u);
    ctx.erase_op(u);
    assert!(ctx.uses(xv).is_empty());
}

#[test]
fn parse_print_round_trip_of_unregistered_ops_in_process() {
    let src = "%0:2 = \"t.pair\"() : () -> (i32, f16)\n\"t.use\"(%0#1, %0#0) {k = [1, 2.5, \"s\"]} : (f16, i32) -> ()\n";
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let pf = tilus_ir::parse(&mut ctx, src, "in.mlir").unwrap_or_else(|(d, _)| panic!("{d:?}"));
    assert!(tilus_ir::verify(&ctx, pf.module).is_empty());
    let out = text(&ctx, pf.module);
    assert_eq!(
        out,
        "\"builtin.module\"() ({\n  %0:2 = \"t.pair\"() : () -> (i32, f16)\n  \"t.use\"(%0#1, %0#0) {k = [1, 2.500000e+00, \"s\"]} : (f16, i32) -> ()\n}) : () -> ()\n\n"
    );
}

#[test]
fn integer_attributes_keep_twenty_plus_digits() {
    let src = "\"t.a\"() {big = 123456789012345678901234567890 : i128, neg = -170141183460469231731687303715884105728 : i128, wrap = 255 : i8} : () -> ()\n";
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let pf = tilus_ir::parse(&mut ctx, src, "in.mlir").unwrap_or_else(|(d, _)| panic!("{d:?}"));
    let out = text(&ctx, pf.module);
    assert!(
        out.contains("big = 123456789012345678901234567890 : i128"),
        "{out}"
    );
    assert!(
        out.contains("neg = -170141183460469231731687303715884105728 : i128"),
        "{out}"
    );
    assert!(
        out.contains("wrap = -1 : i8"),
        "signless values print signed, as MLIR: {out}"
    );
}

#[test]
fn out_of_range_integer_is_a_spanned_error() {
    let src = "\"t.a\"() {x = 256 : i8} : () -> ()\n";
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let Err((diags, _)) = tilus_ir::parse(&mut ctx, src, "in.mlir") else {
        panic!("accepted 256 : i8")
    };
    assert_eq!(
        diags[0].message,
        "integer constant out of range for attribute"
    );
    assert_eq!(
        diags[0].loc,
        tilus_ir::DiagLoc::Span(tilus_ir::Span::new(13, 16))
    );
}

#[test]
fn erasing_ops_together_drops_their_uses_and_keeps_the_others_in_order() {
    let mut ctx = Context::new();
    let (_, b) = module(&mut ctx);
    let x = op(&mut ctx, "t.x", vec![], 1);
    let xv = ctx.results(x)[0];
    ctx.append_op(b, x);
    // Five readers of `x`; the first, third and fifth go, and the fourth reads the third.
    let mut readers = Vec::new();
    for _ in 0..5 {
        let u = op(&mut ctx, "t.use", vec![xv, xv], 1);
        ctx.append_op(b, u);
        readers.push(u);
    }
    let third = ctx.results(readers[2])[0];
    let chained = op(&mut ctx, "t.use", vec![third], 0);
    ctx.append_op(b, chained);
    ctx.erase_ops(&[chained, readers[4], readers[2], readers[0]]);
    let left: Vec<OpId> = ctx.uses(xv).iter().map(|u| u.op).collect();
    assert_eq!(
        left,
        [readers[1], readers[1], readers[3], readers[3]],
        "the uses left keep their order"
    );
    assert!(ctx.uses(xv).iter().all(|u| ctx.is_alive(u.op)));
    assert!(!ctx.is_alive(readers[2]) && !ctx.is_alive(chained));
    let names: Vec<&str> = ctx.block_ops(b).map(|o| ctx.op_name_str(o)).collect();
    assert_eq!(names, ["t.x", "t.use", "t.use"]);
    // A value read once (its list inline) loses that use too.
    let y = op(&mut ctx, "t.x", vec![], 1);
    let yv = ctx.results(y)[0];
    ctx.append_op(b, y);
    let r = op(&mut ctx, "t.use", vec![yv], 0);
    ctx.append_op(b, r);
    ctx.erase_ops(&[r]);
    assert!(ctx.uses(yv).is_empty());
}
