//! `scf.forall` and `scf.parallel` as nests of `scf.for`, the way MLIR rewrites them:
//!
//! - `scf-forall-to-for`: an `scf.forall` without shared outputs becomes one `scf.for` per
//!   dimension, outermost first. Its static bounds become `arith.constant`s before the nest
//!   (every static lower bound, then upper bound, then step, in dimension order), as MLIR's pass
//!   and `convert-scf-to-cf` make them.
//! - `scf-parallel-for-to-nested-fors`: an `scf.parallel` becomes one `scf.for` per dimension.
//!   Like MLIR's pass of that name, it leaves loops with reductions alone unless
//!   `reductions=true`. Then the reductions' accumulators are carried by every loop of the nest
//!   (initialized by `init`), and the innermost body ends with each `scf.reduce` region inlined
//!   on (accumulator, this iteration's value): `convert-scf-to-cf` lowers such loops this way.
//!
//! Both rewrites give the iterations an order the source left open, which any execution of a
//! parallel loop may pick. `convert-scf-to-cf` runs them first (forall, then parallel with
//! reductions), and `tilus-to-ptx` and `tilus-run` run them before anything else. So a kernel
//! can use these loops, and the interpreter, the layout inference and the lowering see
//! ordinary `scf.for` nests. An `scf.forall` with shared outputs (tensors written by
//! `scf.forall.in_parallel`) has no such rewrite and is reported.

use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::ConstantOp;
use tilus_dialects::scf::{ForOp, YieldOp};
use tilus_dialects::scf_parallel::{ForallOp, ParallelOp, ReduceOp, ReduceReturnOp};
use tilus_ir::rewrite::fold::int_attr;
use tilus_ir::types::DYNAMIC;
use tilus_ir::{BlockId, Context, Diagnostic, OpBuilder, OpId, Type, Value};

declare_pass! {
    /// `scf-forall-to-for`. It has no options.
    pub struct ScfForallToFor {
        name: "scf-forall-to-for",
        class: "SCFForallToForLoop",
        summary: "Convert scf.forall loops to nested scf.for loops",
        description: "Rewrites each scf.forall without shared outputs as one scf.for per \
            dimension, outermost first; static bounds become arith.constant ops before the \
            nest (lower bounds, then upper bounds, then steps). An scf.forall with shared \
            outputs is reported.",
        options: {},
        statistics: {
            NUM_LOOPS = "num-loops", "Number of scf.forall ops rewritten";
        },
    }
}

declare_pass! {
    /// `scf-parallel-for-to-nested-fors`.
    pub struct ScfParallelToFors {
        name: "scf-parallel-for-to-nested-fors",
        class: "SCFParallelForToNestedFors",
        summary: "Convert scf.parallel loops to nested scf.for loops",
        description: "Rewrites each scf.parallel as one scf.for per dimension, outermost \
            first. Loops with reductions are left alone, as MLIR's pass does, unless \
            reductions=true: then every loop of the nest carries the accumulators \
            (initialized by init) and the innermost body ends with each scf.reduce region \
            applied to (accumulator, this iteration's value), as convert-scf-to-cf lowers them.",
        options: {
            reductions: bool = false, "reductions", "Also rewrite loops with reductions (carried accumulators)";
        },
        statistics: {
            NUM_LOOPS = "num-loops", "Number of scf.parallel ops rewritten";
        },
    }
}

impl Pass for ScfForallToFor {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        counted(rewrite_all(ctx, op, Kinds::Forall), stats, Self::NUM_LOOPS)
    }
}

impl Pass for ScfParallelToFors {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let kinds = if self.reductions {
            Kinds::Parallel
        } else {
            Kinds::ParallelWithoutReductions
        };
        counted(rewrite_all(ctx, op, kinds), stats, Self::NUM_LOOPS)
    }
}

/// A rewrite's count as the pass's statistic and its `Changed`.
fn counted(
    n: Result<u64, Vec<Diagnostic>>,
    stats: &mut Statistics,
    stat: crate::StatisticDecl,
) -> Result<Changed, Vec<Diagnostic>> {
    let n = n?;
    stats.add(stat, n);
    Ok(if n > 0 { Changed::Yes } else { Changed::No })
}

/// Which loops a rewrite takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kinds {
    Forall,
    Parallel,
    ParallelWithoutReductions,
}

/// Rewrites every loop of `kinds` under `root` (outermost first) and returns how many; the
/// errors are the loops that cannot be rewritten.
fn rewrite_all(ctx: &mut Context, root: OpId, kinds: Kinds) -> Result<u64, Vec<Diagnostic>> {
    let mut loops = Vec::new();
    ctx.walk(root, &mut |o| {
        let take = match kinds {
            Kinds::Forall => ForallOp::is(ctx, o),
            Kinds::Parallel => ParallelOp::is(ctx, o),
            Kinds::ParallelWithoutReductions => {
                ParallelOp::cast(ctx, o).is_some_and(|p| p.init_vals(ctx).is_empty())
            }
        };
        if take && o != root {
            loops.push(o);
        }
    });
    let mut errors = Vec::new();
    let mut n = 0;
    for l in loops {
        let r = if kinds == Kinds::Forall {
            forall_to_for(ctx, l)
        } else {
            parallel_to_for(ctx, l)
        };
        match r {
            Ok(()) => n += 1,
            Err(d) => errors.push(d),
        }
    }
    if errors.is_empty() {
        Ok(n)
    } else {
        Err(errors)
    }
}

/// Rewrites every `scf.forall` and `scf.parallel` under `root` (reductions included) as
/// `scf.for` nests, as `convert-scf-to-cf` and `tilus-to-ptx` do first: for tools that run
/// kernels, such as `tilus-run`'s interpreter, which then need no semantics of their own for
/// parallel loops. Returns how many loops were rewritten; the errors are every loop that
/// cannot be.
pub fn sequentialize(ctx: &mut Context, root: OpId) -> Result<u64, Vec<Diagnostic>> {
    let forall = rewrite_all(ctx, root, Kinds::Forall);
    let parallel = rewrite_all(ctx, root, Kinds::Parallel);
    match (forall, parallel) {
        (Ok(a), Ok(b)) => Ok(a + b),
        (a, b) => Err(a.err().into_iter().chain(b.err()).flatten().collect()),
    }
}

/// `scf.forall` (without shared outputs) as a nest of `scf.for`.
fn forall_to_for(ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
    let f = ForallOp::cast(ctx, op).expect("scf.forall");
    if !f.outputs(ctx).is_empty() {
        return Err(Diagnostic::op(
            op,
            "cannot rewrite an 'scf.forall' with shared outputs as 'scf.for' loops (its \
             'scf.forall.in_parallel' writes have no sequential form here)",
        ));
    }
    let arr = |ctx: &Context, a| ctx.int_array_values(a).unwrap_or_default();
    let statics = [
        arr(ctx, f.static_lower_bound(ctx)),
        arr(ctx, f.static_upper_bound(ctx)),
        arr(ctx, f.static_step(ctx)),
    ];
    let dynamics = [
        f.dynamic_lower_bound(ctx).to_vec(),
        f.dynamic_upper_bound(ctx).to_vec(),
        f.dynamic_step(ctx).to_vec(),
    ];
    let body = ctx.region_blocks(f.region(ctx))[0];
    let index = ctx.index_type();
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(op);
    b.set_insertion_point_before(op);
    // Lower bounds, then upper bounds, then steps: each static one as a new constant.
    let mut bounds: [Vec<Value>; 3] = Default::default();
    for ((s, d), out) in statics.iter().zip(&dynamics).zip(bounds.iter_mut()) {
        let mut next = d.iter();
        for &v in s {
            out.push(if v == DYNAMIC {
                *next
                    .next()
                    .expect("verified: one operand per dynamic bound")
            } else {
                let a = int_attr(b.ctx_mut(), index, v as u128);
                ConstantOp::build(&mut b, index, a).result(b.ctx())
            });
        }
    }
    // The body ends with an empty `scf.forall.in_parallel`.
    if let Some(t) = ctx.block_ops(body).last() {
        ctx.erase_op(t);
    }
    let [lbs, ubs, steps] = bounds;
    build_nest(ctx, op, &lbs, &ubs, &steps, &[], body, |_, _, _| Vec::new());
    ctx.erase_op(op);
    Ok(())
}

/// `scf.parallel` as a nest of `scf.for`, its reductions' accumulators carried by every loop.
fn parallel_to_for(ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
    let p = ParallelOp::cast(ctx, op).expect("scf.parallel");
    let (lbs, ubs, steps) = (
        p.lower_bound(ctx).to_vec(),
        p.upper_bound(ctx).to_vec(),
        p.step(ctx).to_vec(),
    );
    let inits = p.init_vals(ctx).to_vec();
    let body = ctx.region_blocks(p.region(ctx))[0];
    let reduce = ctx
        .block_ops(body)
        .last()
        .filter(|&t| ReduceOp::is(ctx, t))
        .ok_or_else(|| Diagnostic::op(op, "'scf.parallel' body must end with 'scf.reduce'"))?;
    let results = build_nest(
        ctx,
        op,
        &lbs,
        &ubs,
        &steps,
        &inits,
        body,
        |ctx, inner, accs| {
            // Each reduction region, inlined on (accumulator, this iteration's value).
            let r = ReduceOp::from_id_unchecked(reduce);
            let values = r.operands(ctx).to_vec();
            let regions = ctx.regions(reduce).to_vec();
            let mut out = Vec::new();
            for ((&acc, &v), reg) in accs.iter().zip(&values).zip(regions) {
                let rb = ctx.region_blocks(reg)[0];
                let args = ctx.block_args(rb).to_vec();
                ctx.replace_all_uses(args[0], acc);
                ctx.replace_all_uses(args[1], v);
                let ops: Vec<OpId> = ctx.block_ops(rb).collect();
                for o in ops {
                    if ReduceReturnOp::is(ctx, o) {
                        out.push(ReduceReturnOp::from_id_unchecked(o).result(ctx));
                        ctx.erase_op(o);
                    } else {
                        ctx.detach_op(o);
                        ctx.append_op(inner, o);
                    }
                }
            }
            ctx.erase_op(reduce);
            out
        },
    );
    let old = p.results(ctx).to_vec();
    for (o, n) in old.into_iter().zip(results) {
        ctx.replace_all_uses(o, n);
    }
    ctx.erase_op(op);
    Ok(())
}

/// Builds the `scf.for` nest before `op` with `inits` carried by every loop, moves `body`'s ops
/// (its arguments being the induction variables) into the innermost loop, and ends it with the
/// yield of `finish(ctx, innermost block, carried values)`. Returns the outer loop's results.
#[allow(clippy::too_many_arguments)]
fn build_nest(
    ctx: &mut Context,
    op: OpId,
    lbs: &[Value],
    ubs: &[Value],
    steps: &[Value],
    inits: &[Value],
    body: BlockId,
    finish: impl FnOnce(&mut Context, BlockId, &[Value]) -> Vec<Value>,
) -> Vec<Value> {
    let types: Vec<Type> = inits.iter().map(|&v| ctx.value_type(v)).collect();
    let index = ctx.index_type();
    let mut arg_types = vec![index];
    arg_types.extend(types.iter().copied());
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(op);
    b.set_insertion_point_before(op);
    let mut carried = inits.to_vec();
    let mut ivs = Vec::new();
    let mut outer_results = None;
    let mut enclosing: Option<BlockId> = None;
    let mut inner = None;
    for ((&lb, &ub), &step) in lbs.iter().zip(ubs).zip(steps) {
        let f = ForOp::build(&mut b, lb, ub, step, &carried, &types, false);
        let res = f.results(b.ctx()).to_vec();
        if let Some(e) = enclosing {
            // The enclosing loop yields this one's results.
            b.set_insertion_point_to_end(e);
            YieldOp::build(&mut b, &res);
        } else {
            outer_results = Some(res);
        }
        let region = f.region(b.ctx());
        let blk = b.create_block_in(region, &arg_types);
        let args = b.ctx().block_args(blk).to_vec();
        ivs.push(args[0]);
        carried = args[1..].to_vec();
        b.set_insertion_point_to_end(blk);
        enclosing = Some(blk);
        inner = Some(blk);
    }
    let inner = inner.expect("a parallel loop has at least one dimension");
    let old_ivs = ctx.block_args(body).to_vec();
    for (o, n) in old_ivs.into_iter().zip(ivs) {
        ctx.replace_all_uses(o, n);
    }
    let ops: Vec<OpId> = ctx.block_ops(body).collect();
    let keep: Vec<OpId> = ops.into_iter().filter(|&o| !ReduceOp::is(ctx, o)).collect();
    for o in keep {
        ctx.detach_op(o);
        ctx.append_op(inner, o);
    }
    let yielded = finish(ctx, inner, &carried);
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(op);
    b.set_insertion_point_to_end(inner);
    YieldOp::build(&mut b, &yielded);
    outer_results.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::parallel_to_for;
    use tilus_dialects::scf_parallel::{ParallelOp, ReduceOp};
    use tilus_ir::Context;

    /// A parallel loop whose `scf.reduce` a previous rewrite took away (the verifier rejects
    /// such text, so only a pass can make one) is reported, not rewritten.
    #[test]
    fn parallel_without_reduce_is_reported() {
        let mut ctx = Context::new();
        tilus_dialects::register_all(&mut ctx);
        let src = "func.func @f(%n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  scf.parallel (%i) = (%c0) to (%n) step (%c1) {\n  }\n  return\n}\n";
        let pf = tilus_ir::parse(&mut ctx, src, "t.mlir").expect("parses");
        let mut par = None;
        ctx.walk(pf.module, &mut |o| {
            if ParallelOp::is(&ctx, o) {
                par = Some(o);
            }
        });
        let par = par.expect("a parallel loop");
        let mut reduce = None;
        ctx.walk(par, &mut |o| {
            if ReduceOp::is(&ctx, o) {
                reduce = Some(o);
            }
        });
        ctx.erase_op(reduce.expect("the implicit scf.reduce"));
        let d = parallel_to_for(&mut ctx, par).expect_err("no scf.reduce");
        assert!(
            d.message.contains("must end with 'scf.reduce'"),
            "{}",
            d.message
        );
        assert!(ParallelOp::is(&ctx, par), "the loop is left as it was");
    }
}
