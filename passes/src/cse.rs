//! `cse`: common subexpression elimination of pure ops, scoped by dominance.
//!
//! Two ops are the same expression when they have the same name, operands (in any order for
//! `Commutative` ops), properties, discardable attributes and result types. Ops are visited
//! along the dominator tree of each region (the IR core's [`DomTree`]), so an op can only be replaced by an equal op that
//! dominates it. Regions nested in an op see the expressions of the enclosing scopes, except
//! regions of ops isolated from above, which start empty. As in MLIR, only ops without regions
//! are merged (MLIR also merges some ops with single-block regions and reads without an
//! intervening write; this pass only handles `Pure` ops). Ops that are already dead when
//! visited are erased too (`num-dce'd`).

use crate::{declare_pass, Changed, Pass, Statistics};
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};
use tilus_ir::attrs::{AttrKind, Location};
use tilus_ir::dominance::{is_graph_region, DomTree};
use tilus_ir::opdef::Trait;
use tilus_ir::rewrite::{is_trivially_dead, Rewriter};
use tilus_ir::{Attr, BlockId, Context, Diagnostic, OpId, RegionId, Value};

declare_pass! {
    /// The CSE pass. It has no options.
    pub struct Cse {
        name: "cse",
        class: "CSE",
        summary: "Eliminate common sub-expressions (pure ops, scoped by dominance)",
        description: "Replaces a pure op by an equal op that dominates it (same name, operands, \
            in any order for commutative ops, properties, attributes and result types) and \
            erases ops that are already dead. Nested regions see the expressions of enclosing \
            scopes unless their op is isolated from above. Run it after transformations that \
            duplicate computations.",
        options: {},
        statistics: {
            NUM_CSED = "num-cse'd", "Number of operations CSE'd";
            NUM_DCED = "num-dce'd", "Number of operations DCE'd";
        },
    }
}

impl Pass for Cse {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let (cse, dce) = eliminate_common_subexpressions(ctx, op);
        stats.add(Self::NUM_CSED, cse);
        stats.add(Self::NUM_DCED, dce);
        Ok(if cse + dce > 0 {
            Changed::Yes
        } else {
            Changed::No
        })
    }
}

/// Runs CSE on everything nested in `op`'s regions; returns (ops merged, dead ops erased).
pub fn eliminate_common_subexpressions(ctx: &mut Context, op: OpId) -> (u64, u64) {
    let mut d = Driver::default();
    for r in ctx.regions(op).to_vec() {
        let mut table = ScopedTable::default();
        d.simplify_region(ctx, &mut table, r);
    }
    let mut rw = Rewriter::new(ctx);
    for o in d.to_erase {
        if rw.ctx().is_alive(o) {
            rw.erase_op(o);
        }
    }
    (d.num_cse, d.num_dce)
}

/// What makes two ops the same expression: name, operands (sorted for commutative ops),
/// properties, discardable attributes and result types. Expressions are hashed and compared in
/// place, reading the ops, so looking one up allocates nothing.
fn sorted_operands<'a>(
    ctx: &'a Context,
    op: OpId,
    commutative: bool,
    buf: &'a mut Vec<Value>,
) -> &'a [Value] {
    let ops = ctx.operands(op);
    if !commutative || ops.len() < 2 {
        return ops;
    }
    buf.clear();
    buf.extend_from_slice(ops);
    buf.sort();
    buf
}

fn expr_hash(ctx: &Context, op: OpId, commutative: bool, buf: &mut Vec<Value>) -> u64 {
    let mut h = FxHasher::default();
    let data = ctx.op(op);
    data.name.hash(&mut h);
    sorted_operands(ctx, op, commutative, buf).hash(&mut h);
    data.properties.hash(&mut h);
    ctx.attrs(op).hash(&mut h);
    for &r in ctx.results(op) {
        ctx.value_type(r).hash(&mut h);
    }
    h.finish()
}

fn same_expr(
    ctx: &Context,
    a: OpId,
    b: OpId,
    commutative: bool,
    bufs: &mut [Vec<Value>; 2],
) -> bool {
    let (da, db) = (ctx.op(a), ctx.op(b));
    if da.name != db.name || da.properties != db.properties || ctx.attrs(a) != ctx.attrs(b) {
        return false;
    }
    let (ra, rb) = (ctx.results(a), ctx.results(b));
    if ra.len() != rb.len()
        || ra
            .iter()
            .zip(rb)
            .any(|(x, y)| ctx.value_type(*x) != ctx.value_type(*y))
    {
        return false;
    }
    let [ba, bb] = bufs;
    sorted_operands(ctx, a, commutative, ba) == sorted_operands(ctx, b, commutative, bb)
}

/// Ops with one expression hash in one scope (almost always one op).
enum Bucket {
    One(OpId),
    Many(Vec<OpId>),
}

impl Bucket {
    fn ops(&self) -> &[OpId] {
        match self {
            Bucket::One(o) => std::slice::from_ref(o),
            Bucket::Many(v) => v,
        }
    }
}

/// Known expressions by hash, innermost scope last.
#[derive(Default)]
struct ScopedTable {
    scopes: Vec<FxHashMap<u64, Bucket>>,
}

impl ScopedTable {
    fn lookup(
        &self,
        ctx: &Context,
        op: OpId,
        hash: u64,
        commutative: bool,
        bufs: &mut [Vec<Value>; 2],
    ) -> Option<OpId> {
        self.scopes.iter().rev().find_map(|s| {
            s.get(&hash)?
                .ops()
                .iter()
                .copied()
                .find(|&e| same_expr(ctx, e, op, commutative, bufs))
        })
    }
    fn insert(&mut self, hash: u64, op: OpId) {
        if let Some(s) = self.scopes.last_mut() {
            match s.entry(hash) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(Bucket::One(op));
                }
                std::collections::hash_map::Entry::Occupied(mut o) => {
                    let b = o.get_mut();
                    let mut v = b.ops().to_vec();
                    v.push(op);
                    *b = Bucket::Many(v);
                }
            }
        }
    }
}

#[derive(Default)]
struct Driver {
    to_erase: Vec<OpId>,
    /// Ops already visited, as a bit per op index.
    visited: Vec<u64>,
    num_cse: u64,
    num_dce: u64,
    bufs: [Vec<Value>; 2],
}

impl Driver {
    fn mark_visited(&mut self, op: OpId) {
        let (w, b) = (op.index() / 64, 1u64 << (op.index() % 64));
        if w >= self.visited.len() {
            self.visited.resize((w + 1).max(self.visited.len() * 2), 0);
        }
        self.visited[w] |= b;
    }
}

fn is_visited(visited: &[u64], op: OpId) -> bool {
    visited
        .get(op.index() / 64)
        .is_some_and(|w| w & (1u64 << (op.index() % 64)) != 0)
}

impl Driver {
    fn simplify_region(&mut self, ctx: &mut Context, table: &mut ScopedTable, r: RegionId) {
        let blocks = ctx.region_blocks(r).to_vec();
        if blocks.is_empty() {
            return;
        }
        let graph = is_graph_region(ctx, r);
        if blocks.len() == 1 {
            table.scopes.push(FxHashMap::default());
            self.simplify_block(ctx, table, blocks[0], graph);
            table.scopes.pop();
            return;
        }
        // Unreachable blocks are not in the tree, so they are left alone (as MLIR's CSE does).
        let tree = DomTree::new(ctx, r);
        self.simplify_dom_subtree(ctx, table, blocks[0], &tree, graph);
    }

    fn simplify_dom_subtree(
        &mut self,
        ctx: &mut Context,
        table: &mut ScopedTable,
        b: BlockId,
        tree: &DomTree,
        graph: bool,
    ) {
        table.scopes.push(FxHashMap::default());
        self.simplify_block(ctx, table, b, graph);
        for k in tree.children(b) {
            self.simplify_dom_subtree(ctx, table, k, tree, graph);
        }
        table.scopes.pop();
    }

    fn simplify_block(
        &mut self,
        ctx: &mut Context,
        table: &mut ScopedTable,
        b: BlockId,
        graph: bool,
    ) {
        let ops: Vec<OpId> = ctx.block_ops(b).collect();
        for op in ops {
            let regions = ctx.regions(op).to_vec();
            if !regions.is_empty() {
                let isolated = ctx.op_def(op).is_none_or(|d| d.is_isolated());
                if isolated {
                    let mut nested = ScopedTable::default();
                    for r in regions {
                        self.simplify_region(ctx, &mut nested, r);
                    }
                } else {
                    for r in regions {
                        self.simplify_region(ctx, table, r);
                    }
                }
            }
            self.simplify_operation(ctx, table, op, graph);
            self.mark_visited(op);
        }
    }

    fn simplify_operation(
        &mut self,
        ctx: &mut Context,
        table: &mut ScopedTable,
        op: OpId,
        graph: bool,
    ) {
        let Some(def) = ctx.op_def(op) else {
            return;
        };
        if def.has(Trait::Terminator) {
            return;
        }
        if is_trivially_dead(ctx, op) {
            self.to_erase.push(op);
            self.num_dce += 1;
            return;
        }
        if !def.has(Trait::Pure) || !ctx.regions(op).is_empty() {
            return;
        }
        let commutative = def.has(Trait::Commutative);
        let hash = expr_hash(ctx, op, commutative, &mut self.bufs[0]);
        let Some(existing) = table.lookup(ctx, op, hash, commutative, &mut self.bufs) else {
            table.insert(hash, op);
            return;
        };
        let (from, to) = (ctx.results(op).to_vec(), ctx.results(existing).to_vec());
        let mut rw = Rewriter::new(ctx);
        for (f, t) in from.into_iter().zip(to) {
            if graph {
                // Uses seen before the definition may not be dominated by `existing`.
                let visited = &self.visited;
                rw.replace_uses_with_if(f, t, |_, u| !is_visited(visited, u.op));
            } else {
                rw.replace_all_uses_with(f, t);
            }
        }
        let unknown =
            |c: &Context, l: Attr| matches!(c.attr_kind(l), AttrKind::Loc(Location::Unknown));
        let (el, ol) = (ctx.op(existing).loc, ctx.op(op).loc);
        if unknown(ctx, el) && !unknown(ctx, ol) {
            ctx.op_mut(existing).loc = ol;
        }
        if ctx.results(op).iter().all(|r| ctx.uses(*r).is_empty()) {
            self.to_erase.push(op);
        }
        self.num_cse += 1;
    }
}
