//! The rewriter, patterns, folding and the greedy and walk drivers, on a small test dialect:
//! `test.c` (a constant with a materializer), `test.add` (commutative, folds), `test.neg` (a
//! canonicalization pattern `neg(neg(x)) → x`), `test.flip` (a pattern that never converges),
//! `test.func` (isolated) and `test.ret` (terminator).

use tilus_ir::opdef::{attr, many, one, region, succ, OpDef, Trait, ANY_TYPE, TYPED_ATTR};
use tilus_ir::rewrite::{
    apply_patterns_greedily, apply_patterns_greedily_with_listener, clone_op, constant_of,
    erase_unreachable_blocks, fold_op, int_attr, int_bits, run_region_dce, walk_and_apply_patterns,
    Folded, GreedyConfig, InsertPoint, IrMapping, Listener, Pattern, PatternSet, RegionSimplify,
    RewriteEvent, Rewriter,
};
use tilus_ir::{print_op, Attr, Context, OpId, PrintOptions, Type, Value};

fn materialize(rw: &mut Rewriter<'_>, value: Attr, ty: Type, loc: Attr) -> Option<OpId> {
    Some(rw.build(
        "test.c",
        vec![],
        vec![ty],
        vec![("value".into(), value)],
        loc,
    ))
}

fn fold_add(ctx: &mut Context, op: OpId, c: &[Option<Attr>]) -> Folded {
    let bits = |a: Option<Attr>| a.and_then(|a| int_bits(ctx, a));
    if let (Some((a, _)), Some((b, _))) = (bits(c[0]), bits(c[1])) {
        let ty = ctx.value_type(ctx.results(op)[0]);
        return Folded::attr(int_attr(ctx, ty, a.wrapping_add(b)));
    }
    if bits(c[1]).is_some_and(|(b, _)| b == 0) {
        return Folded::value(ctx.operands(op)[0]);
    }
    Folded::Failed
}

fn neg_neg(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ctx = rw.ctx();
    let Some(inner) = ctx.defining_op(ctx.operands(op)[0]) else {
        return false;
    };
    if ctx.op_name_str(inner) != "test.neg" {
        return false;
    }
    let x = ctx.operands(inner)[0];
    rw.replace_op(op, &[x]);
    true
}

/// Replaces every `test.flip` with a fresh one: a pattern cycle the driver must stop.
fn flip(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ctx = rw.ctx();
    let (x, ty, loc) = (
        ctx.operands(op)[0],
        ctx.value_type(ctx.results(op)[0]),
        ctx.op(op).loc,
    );
    let new = rw.build("test.flip", vec![x], vec![ty], vec![], loc);
    let v = rw.ctx().results(new)[0];
    rw.replace_op(op, &[v]);
    true
}

const C: OpDef = OpDef {
    name: "test.c",
    results: &[one("r", ANY_TYPE)],
    attributes: &[attr("value", TYPED_ATTR)],
    traits: &[Trait::Pure, Trait::ConstantLike],
    materialize_constant: Some(materialize),
    ..OpDef::DEFAULT
};
const ADD: OpDef = OpDef {
    name: "test.add",
    operands: &[one("lhs", ANY_TYPE), one("rhs", ANY_TYPE)],
    results: &[one("r", ANY_TYPE)],
    traits: &[Trait::Pure, Trait::Commutative],
    fold: Some(fold_add),
    ..OpDef::DEFAULT
};
const NEG: OpDef = OpDef {
    name: "test.neg",
    operands: &[one("x", ANY_TYPE)],
    results: &[one("r", ANY_TYPE)],
    traits: &[Trait::Pure],
    canonicalize: &[Pattern::new("neg-neg", neg_neg)],
    ..OpDef::DEFAULT
};
const FLIP: OpDef = OpDef {
    name: "test.flip",
    operands: &[one("x", ANY_TYPE)],
    results: &[one("r", ANY_TYPE)],
    traits: &[Trait::Pure],
    canonicalize: &[Pattern::new("flip", flip)],
    ..OpDef::DEFAULT
};
const FUNC: OpDef = OpDef {
    name: "test.func",
    regions: &[region("body")],
    traits: &[Trait::IsolatedFromAbove],
    ..OpDef::DEFAULT
};
const RET: OpDef = OpDef {
    name: "test.ret",
    operands: &[many("xs", ANY_TYPE)],
    traits: &[Trait::Terminator],
    ..OpDef::DEFAULT
};
const BR: OpDef = OpDef {
    name: "test.br",
    operands: &[many("args", ANY_TYPE)],
    successors: &[succ("dest", "args")],
    traits: &[Trait::Terminator],
    ..OpDef::DEFAULT
};
static OPS: &[&OpDef] = &[&C, &ADD, &NEG, &FLIP, &FUNC, &RET, &BR];

fn parse(src: &str) -> (Context, OpId) {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    ctx.register_dialect("test", OPS);
    let pf = tilus_ir::parse(&mut ctx, src, "t.mlir").unwrap_or_else(|(d, _)| panic!("{d:?}"));
    (ctx, pf.module)
}

fn text(ctx: &Context, m: OpId) -> String {
    print_op(
        ctx,
        m,
        PrintOptions {
            generic: true,
            ..Default::default()
        },
    )
}

/// The body lines of the printed module (indentation and the module wrapper dropped).
fn body(ctx: &Context, m: OpId) -> Vec<String> {
    text(ctx, m)
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("\"builtin.module\"") && !l.starts_with("}) :") && !l.is_empty())
        .map(String::from)
        .collect()
}

/// The op `i` of the first block of the first op of the module (a `test.func` body).
fn func_body(ctx: &Context, m: OpId) -> (OpId, Vec<OpId>) {
    let mb = ctx.region_blocks(ctx.regions(m)[0])[0];
    let f = ctx.block_first(mb).unwrap();
    let b = ctx.region_blocks(ctx.regions(f)[0])[0];
    (f, ctx.block_ops(b).collect())
}

const FOLDABLE: &str = r#""test.func"() ({
^bb0(%x: i32):
  %c1 = "test.c"() {value = 1 : i32} : () -> i32
  %c2 = "test.c"() {value = 2 : i32} : () -> i32
  %s = "test.add"(%c1, %c2) : (i32, i32) -> i32
  %t = "test.add"(%x, %s) : (i32, i32) -> i32
  %c5 = "test.c"() {value = 5 : i32} : () -> i32
  %u = "test.add"(%c5, %t) : (i32, i32) -> i32
  %c1b = "test.c"() {value = 1 : i32} : () -> i32
  %dead = "test.add"(%x, %c1b) : (i32, i32) -> i32
  "test.ret"(%u) : (i32) -> ()
}) : () -> ()
"#;

#[test]
fn rewriter_reports_every_change_in_order() {
    let (mut ctx, m) = parse(FOLDABLE);
    let (_, ops) = func_body(&ctx, m);
    let (s, t) = (ops[2], ops[3]);
    let mut log: Vec<RewriteEvent> = Vec::new();
    let (new, x) = {
        let mut rw = Rewriter::with_listener(&mut ctx, &mut log);
        rw.set_insertion_point_before(s);
        let ty = rw.ctx().value_type(rw.ctx().results(s)[0]);
        let a = int_attr(rw.ctx_mut(), ty, 3);
        let loc = rw.ctx().unknown_loc();
        let new = rw.build("test.c", vec![], vec![ty], vec![("value".into(), a)], loc);
        let nv = rw.ctx().results(new)[0];
        rw.replace_op(s, &[nv]);
        rw.modify_in_place(t, |_| {});
        let x = rw.ctx().operands(t)[0];
        (new, x)
    };
    assert_eq!(
        log,
        vec![
            RewriteEvent::Inserted(new),
            RewriteEvent::Replaced(s, vec![ctx.results(new)[0]]),
            RewriteEvent::Modified(t),
            RewriteEvent::Erased(s),
            RewriteEvent::Modified(t),
        ]
    );
    assert!(!ctx.is_alive(s));
    assert_eq!(ctx.operands(t), &[x, ctx.results(new)[0]]);
}

#[test]
fn replace_all_uses_visits_users_newest_first_like_mlir() {
    let (mut ctx, m) = parse(FOLDABLE);
    let (_, ops) = func_body(&ctx, m);
    let (c1, s, dead) = (ops[0], ops[2], ops[7]);
    let c2v = ctx.results(ops[1])[0];
    let c1v = ctx.results(c1)[0];
    // %c1b's only user is %dead; point it at %c1 so %c1 has two users: %s, then %dead.
    let c1bv = ctx.results(ops[6])[0];
    Rewriter::new(&mut ctx).replace_all_uses_with(c1bv, c1v);
    let mut log: Vec<RewriteEvent> = Vec::new();
    Rewriter::with_listener(&mut ctx, &mut log).replace_all_uses_with(c1v, c2v);
    assert_eq!(
        log,
        vec![RewriteEvent::Modified(dead), RewriteEvent::Modified(s)],
        "MLIR's use lists are newest first"
    );
}

#[test]
fn erasing_an_op_reports_nested_ops_first() {
    let (mut ctx, m) = parse(FOLDABLE);
    let (f, ops) = func_body(&ctx, m);
    let mut log: Vec<RewriteEvent> = Vec::new();
    Rewriter::with_listener(&mut ctx, &mut log).erase_op(f);
    let erased: Vec<OpId> = log
        .iter()
        .map(|e| match e {
            RewriteEvent::Erased(o) => *o,
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    let mut expected: Vec<OpId> = ops.into_iter().rev().collect();
    expected.push(f);
    assert_eq!(erased, expected, "last op first, then the parent");
    assert!(erased.iter().all(|o| !ctx.is_alive(*o)));
}

#[test]
fn insertion_points_and_moves() {
    let (mut ctx, m) = parse(FOLDABLE);
    let (_, ops) = func_body(&ctx, m);
    let block = ctx.op_parent_block(ops[0]).unwrap();
    let mut log: Vec<RewriteEvent> = Vec::new();
    {
        let mut rw = Rewriter::with_listener(&mut ctx, &mut log);
        rw.set_insertion_point_after(ops[8]);
        assert_eq!(rw.insertion_point(), InsertPoint::End(block));
        rw.set_insertion_point_to_start(block);
        assert_eq!(rw.insertion_point(), InsertPoint::Before(ops[0]));
        rw.move_op_after(ops[0], ops[1]);
        rw.move_op_before(ops[4], ops[1]);
    }
    let order: Vec<OpId> = ctx.block_ops(block).collect();
    assert_eq!(&order[..4], &[ops[4], ops[1], ops[0], ops[2]]);
    assert_eq!(
        log,
        vec![
            RewriteEvent::Inserted(ops[0]),
            RewriteEvent::Inserted(ops[4])
        ]
    );
}

#[test]
fn clone_maps_operands_results_and_blocks() {
    let (mut ctx, m) = parse(
        r#""test.func"() ({
^bb0(%x: i32):
  "test.ret"(%x) : (i32) -> ()
}) : () -> ()
"#,
    );
    let (f, _) = func_body(&ctx, m);
    let mut map = IrMapping::new();
    let copy = clone_op(&mut ctx, f, &mut map);
    let body = ctx.regions(copy)[0];
    let entry = ctx.region_blocks(body)[0];
    let arg = ctx.block_args(entry)[0];
    let ret = ctx.block_first(entry).unwrap();
    assert_eq!(
        ctx.operands(ret),
        &[arg],
        "uses inside the copy point at the copy"
    );
    let orig_entry = ctx.region_blocks(ctx.regions(f)[0])[0];
    assert_eq!(map.lookup_value(ctx.block_args(orig_entry)[0]), arg);
    assert_eq!(map.lookup_block(orig_entry), entry);
    assert!(ctx.op_parent_block(copy).is_none(), "clones start detached");
}

#[test]
fn fold_op_moves_constants_right_for_commutative_ops() {
    let (mut ctx, m) = parse(FOLDABLE);
    let (_, ops) = func_body(&ctx, m);
    let u = ops[5];
    let (c5, t) = (ctx.operands(u)[0], ctx.operands(u)[1]);
    assert_eq!(fold_op(&mut ctx, u), Folded::InPlace);
    assert_eq!(ctx.operands(u), &[t, c5]);
    assert_eq!(fold_op(&mut ctx, u), Folded::Failed, "nothing left to do");
    let s = ops[2];
    let Folded::Results(r) = fold_op(&mut ctx, s) else {
        panic!("constant add did not fold")
    };
    assert_eq!(r.len(), 1);
}

#[test]
fn greedy_driver_folds_hoists_dedups_and_erases_dead_ops() {
    let (mut ctx, m) = parse(FOLDABLE);
    let patterns = PatternSet::canonicalization(&mut ctx);
    let config = GreedyConfig {
        top_down: true,
        ..GreedyConfig::default()
    };
    let r = apply_patterns_greedily(&mut ctx, m, &patterns, &config);
    assert!(r.converged);
    assert!(r.changed);
    assert_eq!(
        r.iterations, 2,
        "one round of changes, one to see nothing changes"
    );
    assert!(r.num_folded >= 2);
    assert_eq!(
        body(&ctx, m),
        vec![
            "\"test.func\"() ({",
            "^bb0(%arg0: i32):",
            "%0 = \"test.c\"() <{value = 5 : i32}> : () -> i32",
            "%1 = \"test.c\"() <{value = 3 : i32}> : () -> i32",
            "%2 = \"test.add\"(%arg0, %1) : (i32, i32) -> i32",
            "%3 = \"test.add\"(%2, %0) : (i32, i32) -> i32",
            "\"test.ret\"(%3) : (i32) -> ()",
        ],
        "3 folded from 1+2, 5 hoisted above it (MLIR's order), dead add and constants gone"
    );
}

#[test]
fn greedy_driver_applies_patterns_until_fixpoint() {
    let (mut ctx, m) = parse(
        r#""test.func"() ({
^bb0(%x: i32):
  %a = "test.neg"(%x) : (i32) -> i32
  %b = "test.neg"(%a) : (i32) -> i32
  %c = "test.neg"(%b) : (i32) -> i32
  %d = "test.neg"(%c) : (i32) -> i32
  "test.ret"(%d) : (i32) -> ()
}) : () -> ()
"#,
    );
    let patterns = PatternSet::canonicalization(&mut ctx);
    let mut log: Vec<RewriteEvent> = Vec::new();
    let r = apply_patterns_greedily_with_listener(
        &mut ctx,
        m,
        &patterns,
        &GreedyConfig::default(),
        Some(&mut log),
    );
    assert!(r.converged);
    assert_eq!(r.num_rewrites, 2);
    assert_eq!(body(&ctx, m)[2], "\"test.ret\"(%arg0) : (i32) -> ()");
    assert!(
        log.iter().any(|e| matches!(e, RewriteEvent::Erased(_))),
        "the user listener hears the driver's changes"
    );
}

#[test]
fn greedy_driver_reports_non_convergence() {
    let (mut ctx, m) = parse(
        r#""test.func"() ({
^bb0(%x: i32):
  %a = "test.flip"(%x) : (i32) -> i32
  "test.ret"(%a) : (i32) -> ()
}) : () -> ()
"#,
    );
    let patterns = PatternSet::canonicalization(&mut ctx);
    let config = GreedyConfig {
        max_iterations: 3,
        max_num_rewrites: 5,
        ..GreedyConfig::default()
    };
    let r = apply_patterns_greedily(&mut ctx, m, &patterns, &config);
    assert!(!r.converged);
    assert_eq!(r.iterations, 3);
    assert_eq!(r.num_rewrites, 15, "max-num-rewrites bounds each round");
    assert!(tilus_ir::verify(&ctx, m).is_empty(), "the IR stays valid");
}

#[test]
fn patterns_are_tried_by_benefit_and_root() {
    fn yes(_: &mut Rewriter<'_>, _: OpId) -> bool {
        true
    }
    fn no(_: &mut Rewriter<'_>, _: OpId) -> bool {
        false
    }
    let (mut ctx, m) = parse(FOLDABLE);
    let (_, ops) = func_body(&ctx, m);
    let mut set = PatternSet::new();
    set.add(&mut ctx, Pattern::new("any-low", yes));
    set.add(
        &mut ctx,
        Pattern::new("add-high", yes)
            .with_root("test.add")
            .with_benefit(3),
    );
    set.add(
        &mut ctx,
        Pattern::new("add-fails", no)
            .with_root("test.add")
            .with_benefit(9),
    );
    set.add(&mut ctx, Pattern::new("any-tie", yes).with_benefit(3));
    assert_eq!(set.len(), 4);
    let mut rw = Rewriter::new(&mut ctx);
    assert_eq!(
        set.apply(&mut rw, ops[2]),
        Some("add-high"),
        "ties go to the op's own pattern"
    );
    assert_eq!(set.apply(&mut rw, ops[0]), Some("any-tie"));
    set.retain(|p| p.name != "any-tie");
    assert_eq!(set.apply(&mut rw, ops[0]), Some("any-low"));
}

#[test]
fn walk_driver_applies_once_and_skips_new_ops() {
    let (mut ctx, m) = parse(
        r#""test.func"() ({
^bb0(%x: i32):
  %a = "test.flip"(%x) : (i32) -> i32
  %b = "test.flip"(%a) : (i32) -> i32
  "test.ret"(%b) : (i32) -> ()
}) : () -> ()
"#,
    );
    let patterns = PatternSet::canonicalization(&mut ctx);
    let n = walk_and_apply_patterns(&mut ctx, m, &patterns, None);
    assert_eq!(n, 2, "each original flip once, the replacements never");
}

#[test]
fn region_simplification_erases_unreachable_blocks_and_dead_arguments() {
    let (mut ctx, m) = parse(
        r#""test.func"() ({
^bb0(%x: i32):
  %a = "test.add"(%x, %x) : (i32, i32) -> i32
  "test.br"(%a, %x)[^bb1] : (i32, i32) -> ()
^bb1(%dead: i32, %live: i32):
  %unused = "test.add"(%dead, %dead) : (i32, i32) -> i32
  "test.ret"(%live) : (i32) -> ()
^bb2(%y: i32):
  "test.ret"(%y) : (i32) -> ()
}) : () -> ()
"#,
    );
    let (f, ops) = func_body(&ctx, m);
    let region = ctx.regions(f)[0];
    let mut erased = 0;
    assert!(erase_unreachable_blocks(
        &mut Rewriter::new(&mut ctx),
        &[region],
        &mut erased
    ));
    assert_eq!(erased, 1);
    assert_eq!(ctx.region_blocks(region).len(), 2);
    // `%unused` is dead, so `%dead` is, so the branch operand `%a` and then `%a` itself.
    assert!(run_region_dce(&mut Rewriter::new(&mut ctx), &[region]));
    assert!(
        !ctx.is_alive(ops[0]),
        "%a was only forwarded to a dead argument"
    );
    let bb1 = ctx.region_blocks(region)[1];
    assert_eq!(ctx.block_args(bb1).len(), 1);
    let x = ctx.block_args(ctx.region_blocks(region)[0])[0];
    assert_eq!(ctx.operands(ops[1]), &[x]);
    assert!(tilus_ir::verify(&ctx, m).is_empty());
}

#[test]
fn greedy_driver_materializes_through_the_dialect() {
    let (mut ctx, m) = parse(
        r#""test.func"() ({
^bb0(%x: i32):
  %c0 = "test.c"() {value = 0 : i32} : () -> i32
  %a = "test.add"(%x, %c0) : (i32, i32) -> i32
  %c4 = "test.c"() {value = 4 : i32} : () -> i32
  %b = "test.add"(%c4, %c4) : (i32, i32) -> i32
  "test.ret"(%a, %b) : (i32, i32) -> ()
}) : () -> ()
"#,
    );
    let patterns = PatternSet::new();
    let config = GreedyConfig {
        region_simplify: RegionSimplify::Disabled,
        ..GreedyConfig::default()
    };
    let r = apply_patterns_greedily(&mut ctx, m, &patterns, &config);
    assert!(r.converged);
    let (_, ops) = func_body(&ctx, m);
    let ret = *ops.last().unwrap();
    let vals: Vec<Value> = ctx.operands(ret).to_vec();
    assert!(
        ctx.block_args(ctx.op_parent_block(ret).unwrap())
            .contains(&vals[0]),
        "x + 0 is x"
    );
    let c = constant_of(&ctx, vals[1]).expect("4 + 4 became a constant");
    assert_eq!(int_bits(&ctx, c), Some((8, 32)));
}

/// A listener that only counts.
#[derive(Default)]
struct Counter(usize);
impl Listener for Counter {
    fn on_modified(&mut self, _: &Context, _: OpId) {
        self.0 += 1;
    }
}

#[test]
fn modify_in_place_notifies() {
    let (mut ctx, m) = parse(FOLDABLE);
    let (_, ops) = func_body(&ctx, m);
    let mut c = Counter::default();
    let s = {
        let mut rw = Rewriter::with_listener(&mut ctx, &mut c);
        let s = rw.ctx_mut().str_attr("x");
        rw.set_attr(ops[2], "note", Some(s));
        rw.set_property(ops[0], "value", None);
        s
    };
    assert_eq!(c.0, 2);
    assert_eq!(ctx.get_attr(ops[2], "note"), Some(s));
    assert!(ctx.get_prop(ops[0], "value").is_none());
}
