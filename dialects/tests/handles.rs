//! Typed op handles (`tilus_ir::handle`): cast, named accessors, typed builders and the
//! per-dialect op enums, on real IR.

use tilus_dialects::arith::{AddIOp, ArithOpKind, CmpIOp, CmpIPredicate, ConstantOp};
use tilus_dialects::cf::{BrOp, CondBrOp};
use tilus_dialects::scf::{ForOp, ScfOpKind};
use tilus_ir::rewrite::InsertPoint;
use tilus_ir::{print_op, Context, OpBuilder, OpId, PrintOptions};

fn parse(ctx: &mut Context, src: &str) -> OpId {
    tilus_dialects::register_all(ctx);
    tilus_ir::parse(ctx, src, "t.mlir")
        .unwrap_or_else(|_| panic!("parse"))
        .module
}

fn ops(ctx: &Context, root: OpId) -> Vec<OpId> {
    let mut v = Vec::new();
    ctx.walk(root, &mut |o| v.push(o));
    v
}

#[test]
fn cast_accessors_and_classify() {
    let mut ctx = Context::new();
    let m = parse(
        &mut ctx,
        r#"func.func @f(%a: i32, %b: i32, %n: index) -> i1 {
  %s = arith.addi %a, %b overflow<nsw> : i32
  %c = arith.cmpi ult, %s, %b : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %s) -> (i32) {
    scf.yield %x : i32
  }
  return %c : i1
}"#,
    );
    let all = ops(&ctx, m);
    let add = all.iter().find_map(|&o| AddIOp::cast(&ctx, o)).unwrap();
    // Only the op itself casts; a different op does not.
    assert_eq!(all.iter().filter(|&&o| AddIOp::is(&ctx, o)).count(), 1);
    assert!(CmpIOp::cast(&ctx, add.op()).is_none());
    let args = ctx
        .block_args(ctx.op_parent_block(add.op()).unwrap())
        .to_vec();
    assert_eq!((add.lhs(&ctx), add.rhs(&ctx)), (args[0], args[1]));
    assert_eq!(ctx.results(add.op())[0], add.result(&ctx));
    assert!(add.overflow_flags(&ctx).is_some());

    let cmp = all.iter().find_map(|&o| CmpIOp::cast(&ctx, o)).unwrap();
    assert_eq!(cmp.predicate(&ctx), CmpIPredicate::Ult);
    assert_eq!(
        tilus_ir::handle::KeywordEnum::keyword(CmpIPredicate::Ult),
        "ult"
    );

    let f = all.iter().find_map(|&o| ForOp::cast(&ctx, o)).unwrap();
    assert_eq!(f.init_args(&ctx), &[add.result(&ctx)]);
    assert_eq!(f.results(&ctx).len(), 1);
    assert!(!f.unsigned_cmp(&ctx));
    let body = ctx.region_blocks(f.region(&ctx))[0];
    assert_eq!(ctx.block_args(body).len(), 2);

    // The dialect enum dispatches exhaustively.
    let mut kinds = Vec::new();
    for &o in &all {
        match ArithOpKind::classify(&ctx, o) {
            Some(ArithOpKind::AddI(h)) => kinds.push(format!("addi {:?}", h.op() == add.op())),
            Some(ArithOpKind::CmpI(_)) => kinds.push("cmpi".into()),
            Some(ArithOpKind::Constant(c)) => {
                assert!(ConstantOp::cast(&ctx, c.op()).is_some());
                kinds.push("constant".into())
            }
            Some(other) => panic!("unexpected {other:?}"),
            None => assert!(
                ScfOpKind::classify(&ctx, o).is_some() || !ctx.op_name_str(o).starts_with("arith.")
            ),
        }
    }
    assert_eq!(kinds, ["addi true", "cmpi", "constant", "constant"]);
}

#[test]
fn typed_builders_fill_properties_and_segments() {
    let mut ctx = Context::new();
    let m = parse(
        &mut ctx,
        "func.func @g(%a: i32, %p: i1) {\n  cf.cond_br %p, ^bb1(%a : i32), ^bb2\n^bb1(%x: i32):\n  return\n^bb2:\n  return\n}",
    );
    let all = ops(&ctx, m);
    let br = all.iter().find_map(|&o| CondBrOp::cast(&ctx, o)).unwrap();
    let (t, f) = (br.true_dest(&ctx), br.false_dest(&ctx));
    assert_eq!(br.true_dest_operands(&ctx).len(), 1);
    assert!(br.false_dest_operands(&ctx).is_empty());
    let a = br.true_dest_operands(&ctx)[0];
    let p = br.condition(&ctx);
    let i32t = ctx.value_type(a);
    let loc = ctx.op(br.op()).loc;

    let mut b = OpBuilder::new(&mut ctx);
    b.set_loc(loc);
    b.set_insertion_point(InsertPoint::Before(br.op()));
    let sum = AddIOp::build(&mut b, a, a, i32t, None);
    let s = sum.result(b.ctx());
    let i1 = b.ctx_mut().int_type(1);
    let lt = CmpIOp::build(&mut b, s, a, i1, CmpIPredicate::Slt);
    let c = lt.result(b.ctx());
    let nb = CondBrOp::build(&mut b, c, &[], &[s, p], None, f, t);
    let _ = p;
    assert_eq!(nb.false_dest_operands(b.ctx()), &[s, p]);
    let jump = BrOp::build(&mut b, &[s], t);
    assert_eq!(jump.dest(b.ctx()), t);
    for op in [sum.op(), lt.op(), nb.op(), jump.op()] {
        let text = print_op(&ctx, op, PrintOptions::default());
        assert!(!text.is_empty());
    }
    let text = print_op(
        &ctx,
        nb.op(),
        PrintOptions {
            generic: true,
            ..Default::default()
        },
    );
    assert!(
        text.contains("operandSegmentSizes = array<i32: 1, 0, 2>"),
        "{text}"
    );
    let text = print_op(&ctx, lt.op(), PrintOptions::default());
    assert!(text.contains("arith.cmpi slt"), "{text}");
}
