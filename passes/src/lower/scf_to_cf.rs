//! `convert-scf-to-cf`: `scf.for`, `scf.if`, `scf.while`, `scf.index_switch`,
//! `scf.execute_region`, `scf.forall`, `scf.parallel` and their terminators to blocks and `cf`
//! branches, as
//! MLIR's SCFToControlFlow does (same blocks, same order, same ops), so that the output matches
//! `mlir-opt --convert-scf-to-cf` (`test/lower/scf-to-cf-mlir.mlir` compares them).
//!
//! `scf.for %iv = %lb to %ub step %s iter_args(...)` in block `B` becomes:
//!
//! ```text
//! B:        ...ops before; cf.br ^cond(%lb, inits...)
//! ^cond(%iv, iters...):   %c = arith.cmpi slt, %iv, %ub; cf.cond_br %c, ^body, ^end
//! ^body:    ...body; %n = arith.addi %iv, %s; cf.br ^cond(%n, yielded...)
//! ^end:     ...ops after, the loop's results being ^cond's carried arguments
//! ```
//!
//! (`ult` for `scf.for unsigned`). `scf.if` becomes a `cf.cond_br` to the then/else blocks,
//! which branch to a continuation block taking the results as arguments. `scf.while` becomes
//! its `before` block (entered with the inits), whose `scf.condition` is a `cf.cond_br` to the
//! `after` block (with the forwarded values) or to the continuation, and its `after` block,
//! branching back to `before`; the results are the forwarded values. `scf.index_switch`
//! becomes a `cf.switch` on the index cast to `i32` (`arith.index_cast`; the case values are
//! cut to `i32` too, as MLIR does) to its case blocks, then its default block, which branch to
//! the rest of the op's block, taking the results as arguments. `scf.execute_region` becomes
//! a branch to its blocks, inlined in place (any number, with their own branches), whose
//! `scf.yield`s branch to the rest of the op's block, taking the results as arguments.
//!
//! `scf.forall` and `scf.parallel` first become nests of `scf.for` (`super::scf_parallel`:
//! the forall's static bounds as constants before the nest, a parallel loop's reductions as
//! accumulators carried by every loop and combined at the end of the innermost body), as MLIR
//! does before branching; an `scf.forall` with shared outputs is reported, as MLIR fails on it.
//!
//! Ops are lowered outermost first; scf ops in a region of another op (say a `func.func` in the
//! body of a loop) are lowered in that region. An scf op in a single-block region of a non-scf
//! op cannot be lowered (the region would need several blocks) and is reported.

use super::{set_region_blocks, take_block};
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::{AddIOp, CmpIOp, CmpIPredicate, IndexCastOp};
use tilus_dialects::cf::{BrOp, CondBrOp, SwitchOp};
use tilus_dialects::scf::{ExecuteRegionOp, ForOp, IfOp, ScfOpKind, WhileOp, YieldOp};
use tilus_dialects::scf_parallel::IndexSwitchOp;
use tilus_ir::attrs::{DenseData, DenseLit};
use tilus_ir::rewrite::Rewriter;
use tilus_ir::{BlockId, Context, Diagnostic, OpBuilder, OpId, RegionId, Value};

declare_pass! {
    /// The pass. It has no options.
    pub struct ScfToCf {
        name: "convert-scf-to-cf",
        class: "SCFToControlFlowPass",
        summary: "Convert scf.for/if/while/index_switch/execute_region/forall/parallel to blocks and cf branches",
        description: "Lowers scf.for, scf.if, scf.while, scf.index_switch, \
            scf.execute_region, scf.forall and scf.parallel (and their scf.yield, \
            scf.condition and scf.reduce) to blocks with cf.br, \
            cf.cond_br and cf.switch, the way MLIR's convert-scf-to-cf does: a for loop \
            becomes a condition block taking the induction variable and carried values \
            (arith.cmpi slt, or ult for unsigned loops), the body, and a step (arith.addi) \
            branching back; an if becomes a conditional branch to its then/else blocks, which \
            join in a block taking the results; a while loop becomes its before block, whose \
            condition branches to the after block or out of the loop, and its after block, \
            branching back; an index switch becomes a cf.switch on the index cast to i32 \
            (case values cut to i32, as MLIR does) to its case blocks and default block, which \
            join in the block after it, taking the results; an execute_region becomes a \
            branch to its blocks, inlined in place, whose yields branch to the block after it, \
            taking the results; forall and parallel loops first become nests of scf.for (static \
            forall bounds as constants before the nest; reductions carried as accumulators and \
            combined at the end of the innermost body), as MLIR does. Needed before emitting \
            PTX, which has only branches.",
        options: {},
        statistics: {
            NUM_LOWERED = "num-lowered", "Number of scf ops lowered";
        },
    }
}

impl Pass for ScfToCf {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        // Parallel loops first become scf.for nests, which the walk below lowers.
        let (mut n, mut errors) = match super::scf_parallel::sequentialize(ctx, op) {
            Ok(k) => (k, Vec::new()),
            Err(e) => (0, e),
        };
        let mut hosts = Vec::new();
        ctx.walk(op, &mut |o| hosts.push(o));
        for h in hosts {
            if is_scf(ctx, h) {
                continue;
            }
            let def = ctx.op_def(h);
            for (i, r) in ctx.regions(h).to_vec().into_iter().enumerate() {
                let scf_ops = collect_scf(ctx, r);
                if scf_ops.is_empty() {
                    continue;
                }
                let single = def.is_some_and(|d| {
                    d.regions.get(i).is_some_and(|rd| rd.single_block)
                        || d.has(tilus_ir::Trait::SingleBlock)
                });
                if single {
                    errors.push(Diagnostic::op(
                        scf_ops[0],
                        format!(
                            "cannot lower '{}' to branches: it is in a single-block region of '{}'",
                            ctx.op_name_str(scf_ops[0]),
                            ctx.op_name_str(h)
                        ),
                    ));
                    continue;
                }
                let mut order: Vec<BlockId> = ctx.region_blocks(r).to_vec();
                for s in scf_ops {
                    match ScfOpKind::classify(ctx, s) {
                        Some(ScfOpKind::For(_)) => lower_for(ctx, s, &mut order),
                        Some(ScfOpKind::If(_)) => lower_if(ctx, s, &mut order),
                        Some(ScfOpKind::While(_)) => lower_while(ctx, s, &mut order),
                        Some(ScfOpKind::IndexSwitch(_)) => lower_switch(ctx, s, &mut order),
                        Some(ScfOpKind::ExecuteRegion(_)) => {
                            lower_execute_region(ctx, s, &mut order)
                        }
                        // Only the ops above are collected; the parallel loops are scf.for
                        // nests by now.
                        Some(
                            ScfOpKind::Yield(_)
                            | ScfOpKind::Condition(_)
                            | ScfOpKind::Parallel(_)
                            | ScfOpKind::Reduce(_)
                            | ScfOpKind::ReduceReturn(_)
                            | ScfOpKind::Forall(_)
                            | ScfOpKind::InParallel(_),
                        )
                        | None => continue,
                    }
                    n += 1;
                }
                set_region_blocks(ctx, r, &order);
            }
        }
        stats.add(Self::NUM_LOWERED, n);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(if n > 0 { Changed::Yes } else { Changed::No })
    }
}

fn is_scf(ctx: &Context, o: OpId) -> bool {
    ForOp::is(ctx, o)
        || IfOp::is(ctx, o)
        || WhileOp::is(ctx, o)
        || IndexSwitchOp::is(ctx, o)
        || ExecuteRegionOp::is(ctx, o)
}

/// The scf ops of `r` that the pass lowers, outermost first, following only scf nesting (ops
/// nested in other ops belong to those ops' regions).
fn collect_scf(ctx: &Context, r: RegionId) -> Vec<OpId> {
    fn visit(ctx: &Context, r: RegionId, out: &mut Vec<OpId>) {
        for &b in ctx.region_blocks(r) {
            for o in ctx.block_ops(b) {
                if is_scf(ctx, o) {
                    out.push(o);
                    for &ir in ctx.regions(o) {
                        visit(ctx, ir, out);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    visit(ctx, r, &mut out);
    out
}

/// Inserts `nb` right after `b` in `order`.
fn insert_after(order: &mut Vec<BlockId>, b: BlockId, nb: BlockId) {
    let i = order
        .iter()
        .position(|x| *x == b)
        .map_or(order.len(), |i| i + 1);
    order.insert(i, nb);
}

/// Inserts `nb` right before `b` in `order`.
fn insert_before(order: &mut Vec<BlockId>, b: BlockId, nb: BlockId) {
    let i = order.iter().position(|x| *x == b).unwrap_or(order.len());
    order.insert(i, nb);
}

/// Moves `at` and the ops after it into a new block placed right after `b`; returns it.
fn split_block(ctx: &mut Context, order: &mut Vec<BlockId>, at: OpId) -> BlockId {
    let b = ctx.op_parent_block(at).expect("op in a block");
    let nb = ctx.create_block(&[]);
    let mut cur = Some(at);
    while let Some(o) = cur {
        cur = ctx.next_op(o);
        ctx.detach_op(o);
        ctx.append_op(nb, o);
    }
    insert_after(order, b, nb);
    nb
}

/// Appends `cf.br dest(args)` to `b`.
fn br(ctx: &mut Context, b: BlockId, dest: BlockId, args: Vec<Value>, loc: tilus_ir::Attr) {
    at_end(ctx, b, loc, |ob| {
        BrOp::build(ob, &args, dest);
    });
}

/// Runs `f` with a builder at the end of `b` and location `loc`.
fn at_end(ctx: &mut Context, b: BlockId, loc: tilus_ir::Attr, f: impl FnOnce(&mut OpBuilder<'_>)) {
    let mut ob = OpBuilder::new(ctx);
    ob.set_loc(loc);
    ob.set_insertion_point_to_end(b);
    f(&mut ob);
}

/// Appends `cf.cond_br c, t, f` (no block arguments) to `b`.
fn cond_br(ctx: &mut Context, b: BlockId, c: Value, t: BlockId, f: BlockId, loc: tilus_ir::Attr) {
    at_end(ctx, b, loc, |ob| {
        CondBrOp::build(ob, c, &[], &[], None, t, f);
    });
}

/// Removes the `scf.yield` ending `b` and returns its operands.
fn pop_yield(ctx: &mut Context, b: BlockId) -> Vec<Value> {
    match ctx.block_last(b) {
        Some(y) if YieldOp::is(ctx, y) => {
            let vals = ctx.operands(y).to_vec();
            ctx.erase_op(y);
            vals
        }
        _ => Vec::new(),
    }
}

fn lower_for(ctx: &mut Context, op: OpId, order: &mut Vec<BlockId>) {
    let loc = ctx.op(op).loc;
    let init_block = ctx.op_parent_block(op).expect("scf.for in a block");
    let end_block = split_block(ctx, order, op);
    let body = ctx.regions(op)[0];
    let cond_block = ctx.region_blocks(body)[0];
    // The condition block keeps the arguments; the ops move to the first body block.
    let first_body = ctx.create_block(&[]);
    let ops: Vec<OpId> = ctx.block_ops(cond_block).collect();
    for o in ops {
        ctx.detach_op(o);
        ctx.append_op(first_body, o);
    }
    take_block(ctx, cond_block);
    insert_before(order, end_block, cond_block);
    insert_before(order, end_block, first_body);
    let operands = ctx.operands(op).to_vec();
    let (lb, ub, step) = (operands[0], operands[1], operands[2]);
    let inits = operands[3..].to_vec();
    let iv = ctx.block_args(cond_block)[0];
    let iv_ty = ctx.value_type(iv);
    // Step and back edge.
    let yielded = pop_yield(ctx, first_body);
    let mut stepped = None;
    at_end(ctx, first_body, loc, |ob| {
        let add = AddIOp::build(ob, iv, step, iv_ty, None);
        stepped = Some(add.result(ob.ctx()));
    });
    let stepped = stepped.expect("built");
    let mut carried = vec![stepped];
    carried.extend(yielded);
    br(ctx, first_body, cond_block, carried, loc);
    // Entry edge.
    let mut dest = vec![lb];
    dest.extend(inits);
    br(ctx, init_block, cond_block, dest, loc);
    // Condition.
    let pred = match ForOp::cast(ctx, op).is_some_and(|f| f.unsigned_cmp(ctx)) {
        true => CmpIPredicate::Ult,
        false => CmpIPredicate::Slt,
    };
    let i1 = ctx.int_type(1);
    let mut c = None;
    at_end(ctx, cond_block, loc, |ob| {
        let cmp = CmpIOp::build(ob, iv, ub, i1, pred);
        c = Some(cmp.result(ob.ctx()));
    });
    let c = c.expect("built");
    cond_br(ctx, cond_block, c, first_body, end_block, loc);
    let results: Vec<Value> = ctx.block_args(cond_block)[1..].to_vec();
    Rewriter::new(ctx).replace_op(op, &results);
}

/// `scf.while` as MLIR lowers it: the op's block branches to the `before` block with the inits;
/// `before`'s `scf.condition` becomes `cf.cond_br` to the `after` block (with the forwarded
/// values) or to the continuation; `after`'s `scf.yield` branches back to `before`. The results
/// are the forwarded values themselves, which `before` defines and so dominate the continuation.
fn lower_while(ctx: &mut Context, op: OpId, order: &mut Vec<BlockId>) {
    let loc = ctx.op(op).loc;
    let init_block = ctx.op_parent_block(op).expect("scf.while in a block");
    let cont = split_block(ctx, order, op);
    let regions = ctx.regions(op).to_vec();
    let before = ctx.region_blocks(regions[0])[0];
    let after = ctx.region_blocks(regions[1])[0];
    take_block(ctx, before);
    take_block(ctx, after);
    insert_before(order, cont, before);
    insert_before(order, cont, after);
    let inits = ctx.operands(op).to_vec();
    br(ctx, init_block, before, inits, loc);
    let cond = ctx.block_last(before).expect("scf.condition ends 'before'");
    let operands = ctx.operands(cond).to_vec();
    let (c, forwarded) = (operands[0], operands[1..].to_vec());
    ctx.erase_op(cond);
    at_end(ctx, before, loc, |ob| {
        CondBrOp::build(ob, c, &forwarded, &[], None, after, cont);
    });
    let yielded = pop_yield(ctx, after);
    br(ctx, after, before, yielded, loc);
    Rewriter::new(ctx).replace_op(op, &forwarded);
}

fn lower_if(ctx: &mut Context, op: OpId, order: &mut Vec<BlockId>) {
    let loc = ctx.op(op).loc;
    let cond_block = ctx.op_parent_block(op).expect("scf.if in a block");
    let remaining = split_block(ctx, order, op);
    let result_types: Vec<_> = ctx.results(op).iter().map(|v| ctx.value_type(*v)).collect();
    let cont = if result_types.is_empty() {
        remaining
    } else {
        let c = ctx.create_block(&result_types);
        insert_before(order, remaining, c);
        br(ctx, c, remaining, vec![], loc);
        c
    };
    let regions = ctx.regions(op).to_vec();
    let then_block = ctx.region_blocks(regions[0])[0];
    let vals = pop_yield(ctx, then_block);
    br(ctx, then_block, cont, vals, loc);
    take_block(ctx, then_block);
    insert_before(order, cont, then_block);
    let else_block = match ctx.region_blocks(regions[1]).first().copied() {
        Some(eb) => {
            let vals = pop_yield(ctx, eb);
            br(ctx, eb, cont, vals, loc);
            take_block(ctx, eb);
            insert_before(order, cont, eb);
            eb
        }
        None => cont,
    };
    let c = ctx.operands(op)[0];
    cond_br(ctx, cond_block, c, then_block, else_block, loc);
    let results = ctx.block_args(cont).to_vec();
    Rewriter::new(ctx).replace_op(op, &results);
}

/// Adds arguments of `op`'s result types to `b` (at `op`'s location, as MLIR does) and replaces
/// the results with them.
fn results_to_args(ctx: &mut Context, op: OpId, b: BlockId) {
    let loc = ctx.op(op).loc;
    let tys: Vec<_> = ctx.results(op).iter().map(|v| ctx.value_type(*v)).collect();
    let args: Vec<Value> = tys
        .into_iter()
        .map(|t| ctx.add_block_arg(b, t, Some(loc)))
        .collect();
    Rewriter::new(ctx).replace_op(op, &args);
}

/// `scf.index_switch` as MLIR lowers it: the op's block is split at the op, the rest (the
/// continuation) taking the results as arguments; each case region's block and then the
/// default's are moved before the continuation, their `scf.yield` becoming a `cf.br` to it; the
/// op's block ends with `arith.index_cast` of the index to `i32` and a `cf.switch` on it. The
/// case values are cut to `i32` as MLIR's lowering cuts them (two values equal modulo 2^32
/// would then make a `cf.switch` that fails verification, as it does in MLIR).
fn lower_switch(ctx: &mut Context, op: OpId, order: &mut Vec<BlockId>) {
    let loc = ctx.op(op).loc;
    let cond_block = ctx
        .op_parent_block(op)
        .expect("scf.index_switch in a block");
    let cont = split_block(ctx, order, op);
    let h = IndexSwitchOp::cast(ctx, op).expect("scf.index_switch");
    let cases = ctx.int_array_values(h.cases(ctx)).unwrap_or_default();
    let mut regions = h.case_regions(ctx).to_vec();
    regions.push(h.default_region(ctx));
    let arg = h.arg(ctx);
    let mut dests = Vec::new();
    for r in regions {
        let Some(&b) = ctx.region_blocks(r).first() else {
            continue;
        };
        let vals = pop_yield(ctx, b);
        br(ctx, b, cont, vals, loc);
        take_block(ctx, b);
        insert_before(order, cont, b);
        dests.push(b);
    }
    let Some(default) = dests.pop() else {
        return;
    };
    let i32t = ctx.int_type(32);
    let case_values = (!cases.is_empty()).then(|| {
        let vty = ctx.ty(tilus_ir::TypeKind::Vector {
            shape: vec![cases.len() as i64],
            scalable: vec![false],
            elem: i32t,
        });
        let items = cases
            .iter()
            .map(|&v| DenseLit::Scalar((v as i32).to_string()))
            .collect();
        ctx.attr(tilus_ir::AttrKind::DenseElements {
            data: DenseData::Literal(DenseLit::List(items)),
            ty: vty,
        })
    });
    let segments = ctx.int_array_attr(32, &vec![0; dests.len()]);
    at_end(ctx, cond_block, loc, |ob| {
        let flag = IndexCastOp::build(ob, arg, i32t).out(ob.ctx());
        SwitchOp::build(ob, flag, &[], &[], case_values, segments, default, dests);
    });
    results_to_args(ctx, op, cont);
}

/// `scf.execute_region` as MLIR lowers it: the op's block is split at the op and branches to
/// the region's entry block; the region's blocks move, in order, before the rest of the op's
/// block (the continuation), which takes the results as arguments; each `scf.yield` ending one
/// of them becomes a `cf.br` to the continuation (the region's own branches stay).
fn lower_execute_region(ctx: &mut Context, op: OpId, order: &mut Vec<BlockId>) {
    let loc = ctx.op(op).loc;
    let cond_block = ctx
        .op_parent_block(op)
        .expect("scf.execute_region in a block");
    let cont = split_block(ctx, order, op);
    let region = ctx.regions(op)[0];
    let blocks = ctx.region_blocks(region).to_vec();
    if let Some(&entry) = blocks.first() {
        br(ctx, cond_block, entry, vec![], loc);
    }
    for &b in &blocks {
        if ctx.block_last(b).is_some_and(|y| YieldOp::is(ctx, y)) {
            let vals = pop_yield(ctx, b);
            br(ctx, b, cont, vals, loc);
        }
    }
    for &b in &blocks {
        take_block(ctx, b);
        insert_before(order, cont, b);
    }
    results_to_args(ctx, op, cont);
}
