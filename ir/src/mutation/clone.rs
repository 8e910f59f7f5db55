//! Cloning ops and regions with a value/block mapping ([`IrMapping`]).

use crate::context::{BlockId, Context, OpId, OperationState, Value};
use crate::types::Type;
use rustc_hash::FxHashMap;

/// What a clone maps to what: values (operands, results, block arguments) and blocks.
#[derive(Clone, Debug, Default)]
pub struct IrMapping {
    values: FxHashMap<Value, Value>,
    blocks: FxHashMap<BlockId, BlockId>,
}

impl IrMapping {
    /// An empty mapping.
    pub fn new() -> IrMapping {
        IrMapping::default()
    }
    /// Maps `from` to `to`. Clones use `to` wherever the original used `from`.
    pub fn map_value(&mut self, from: Value, to: Value) {
        self.values.insert(from, to);
    }
    /// Maps a block (successor operands of cloned branches).
    pub fn map_block(&mut self, from: BlockId, to: BlockId) {
        self.blocks.insert(from, to);
    }
    /// What `v` maps to, or `v` itself when unmapped (values defined outside the cloned IR).
    pub fn lookup_value(&self, v: Value) -> Value {
        self.values.get(&v).copied().unwrap_or(v)
    }
    /// What `v` maps to, when mapped.
    pub fn get_value(&self, v: Value) -> Option<Value> {
        self.values.get(&v).copied()
    }
    /// What `b` maps to, or `b` itself.
    pub fn lookup_block(&self, b: BlockId) -> BlockId {
        self.blocks.get(&b).copied().unwrap_or(b)
    }
}

/// Deep-copies `op` into a new detached op. Operands and successors go through `map`, and the
/// copy's results, nested blocks and block arguments are added to it. Uses that precede their
/// definition inside the copied regions (graph regions, blocks listed out of dominance order)
/// are fixed once everything is copied.
pub fn clone_op(ctx: &mut Context, op: OpId, map: &mut IrMapping) -> OpId {
    let mut created = Vec::new();
    let new = clone_rec(ctx, op, map, &mut created);
    for o in created {
        for i in 0..ctx.operands(o).len() {
            let v = ctx.operands(o)[i];
            if let Some(m) = map.get_value(v) {
                if m != v {
                    ctx.set_operand(o, i, m);
                }
            }
        }
    }
    new
}

fn clone_rec(ctx: &mut Context, op: OpId, map: &mut IrMapping, created: &mut Vec<OpId>) -> OpId {
    let data = ctx.op(op).clone();
    let old_results = ctx.results(op).to_vec();
    let old_regions = ctx.regions(op).to_vec();
    let operands: Vec<Value> = ctx
        .operands(op)
        .iter()
        .map(|v| map.lookup_value(*v))
        .collect();
    let successors: Vec<BlockId> = ctx
        .successors(op)
        .iter()
        .map(|b| map.lookup_block(*b))
        .collect();
    let result_types: Vec<Type> = old_results.iter().map(|r| ctx.value_type(*r)).collect();
    let mut new_regions = Vec::with_capacity(old_regions.len());
    let mut block_pairs = Vec::new();
    for &r in &old_regions {
        let nr = ctx.create_region();
        for b in ctx.region_blocks(r).to_vec() {
            let nb = ctx.create_block(&[]);
            for &a in &ctx.block_args(b).to_vec() {
                let (ty, loc) = (ctx.value_type(a), ctx.value(a).loc);
                let na = ctx.add_block_arg(nb, ty, loc);
                map.map_value(a, na);
            }
            map.map_block(b, nb);
            ctx.push_block(nr, nb);
            block_pairs.push((b, nb));
        }
        new_regions.push(nr);
    }
    let new = ctx.create_op(OperationState {
        name: data.name,
        operands,
        result_types,
        properties: data.properties,
        attrs: data.attrs.clone(),
        regions: new_regions,
        successors,
        loc: data.loc,
    });
    for (old, new_v) in old_results.iter().zip(ctx.results(new).to_vec()) {
        map.map_value(*old, new_v);
    }
    created.push(new);
    for (b, nb) in block_pairs {
        let ops: Vec<OpId> = ctx.block_ops(b).collect();
        for o in ops {
            let c = clone_rec(ctx, o, map, created);
            ctx.append_op(nb, c);
        }
    }
    new
}
