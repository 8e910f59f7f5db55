//! Rewriting IR: one mutation API, patterns, folding, and the drivers that apply them.
//!
//! Every pass that changes IR goes through a [`Rewriter`]. It creates, inserts, replaces, erases,
//! moves and modifies ops, and tells a [`Listener`] about each change. Drivers are listeners: the
//! greedy driver ([`apply_patterns_greedily`]) puts every op a change touches back on its
//! worklist, which is only possible because no change escapes the rewriter.
//!
//! Op declarations carry the transformations, so any driver finds them without registration:
//!
//! - [`crate::opdef::OpDef::fold`] ([`FoldFn`]) folds an op, given the constant values of its
//!   operands, to attributes, to existing values, or in place. It never creates ops.
//! - [`crate::opdef::OpDef::canonicalize`] lists [`Pattern`]s rooted at the op.
//! - [`crate::opdef::OpDef::materialize_constant`] ([`MaterializeFn`]), set on a dialect's
//!   constant op, turns a folded attribute back into an op of that dialect.
//!
//! The greedy driver follows MLIR's `applyPatternsGreedily` step for step. That includes the
//! worklist order, constant deduplication and hoisting while the worklist is seeded, and folding
//! before patterns. The point is that `canonicalize` prints what `mlir-opt --canonicalize`
//! prints, constant order included.

use crate::attrs::{Attr, AttrKind, Location};
use crate::context::{BlockId, Context, OpId, OpName, OperationState, RegionId, Use, Value};
use crate::opdef::Trait;
use crate::types::{FloatKind, Signedness, Type, TypeKind};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

// ----- listeners ------------------------------------------------------------------------------

/// Observes the changes a [`Rewriter`] makes. Drivers use it to keep worklists current, and
/// passes to count or log changes. Every method has an empty default.
///
/// Callbacks get the context read-only. The IR is consistent at each call:
/// [`on_replaced`](Listener::on_replaced) and [`on_erased`](Listener::on_erased) come before the
/// change, while the op and its operands are still in place. The others come after it.
pub trait Listener {
    /// `op` was inserted: created at the insertion point, or moved.
    fn on_inserted(&mut self, ctx: &Context, op: OpId) {
        let _ = (ctx, op);
    }
    /// `op` is about to be replaced by `with` (one value per result). Its users are then changed
    /// one by one (each reported through [`on_modified`](Listener::on_modified)), and the op is
    /// erased (reported through [`on_erased`](Listener::on_erased)).
    fn on_replaced(&mut self, ctx: &Context, op: OpId, with: &[Value]) {
        let _ = (ctx, op, with);
    }
    /// `op` is about to be erased. Ops nested in it are reported first, innermost first.
    fn on_erased(&mut self, ctx: &Context, op: OpId) {
        let _ = (ctx, op);
    }
    /// `op` was changed in place (operands, properties, attributes, location).
    fn on_modified(&mut self, ctx: &Context, op: OpId) {
        let _ = (ctx, op);
    }
}

/// One change, as recorded by the `Vec<RewriteEvent>` listener (for tests and debugging).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RewriteEvent {
    Inserted(OpId),
    Replaced(OpId, Vec<Value>),
    Erased(OpId),
    Modified(OpId),
}

/// Records every change in order.
impl Listener for Vec<RewriteEvent> {
    fn on_inserted(&mut self, _: &Context, op: OpId) {
        self.push(RewriteEvent::Inserted(op));
    }
    fn on_replaced(&mut self, _: &Context, op: OpId, with: &[Value]) {
        self.push(RewriteEvent::Replaced(op, with.to_vec()));
    }
    fn on_erased(&mut self, _: &Context, op: OpId) {
        self.push(RewriteEvent::Erased(op));
    }
    fn on_modified(&mut self, _: &Context, op: OpId) {
        self.push(RewriteEvent::Modified(op));
    }
}

// ----- the rewriter ---------------------------------------------------------------------------

/// Where [`Rewriter::create`] and [`Rewriter::insert`] put new ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    /// Nowhere yet. Inserting panics, because a detached op would be lost silently.
    Unset,
    /// Right before this op.
    Before(OpId),
    /// At the end of this block.
    End(BlockId),
}

/// The mutation API: every structural change to IR, each reported to the listener.
///
/// Reads go through [`ctx`](Rewriter::ctx). [`ctx_mut`](Rewriter::ctx_mut) is for uniquing types
/// and attributes and for building detached IR. Changes to attached ops made through it are not
/// reported, so they break drivers; use [`modify_in_place`](Rewriter::modify_in_place) instead.
pub struct Rewriter<'a> {
    ctx: &'a mut Context,
    listener: Option<&'a mut dyn Listener>,
    ip: InsertPoint,
}

impl<'a> Rewriter<'a> {
    /// A rewriter that reports to nobody (one-shot transformations that keep no worklist).
    pub fn new(ctx: &'a mut Context) -> Rewriter<'a> {
        Rewriter {
            ctx,
            listener: None,
            ip: InsertPoint::Unset,
        }
    }

    /// A rewriter that reports every change to `listener`.
    pub fn with_listener(ctx: &'a mut Context, listener: &'a mut dyn Listener) -> Rewriter<'a> {
        Rewriter {
            ctx,
            listener: Some(listener),
            ip: InsertPoint::Unset,
        }
    }

    /// The IR, read-only.
    pub fn ctx(&self) -> &Context {
        self.ctx
    }

    /// The context for uniquing types and attributes and building detached IR. Changes to
    /// attached ops made through it are not reported (see the type's docs).
    pub fn ctx_mut(&mut self) -> &mut Context {
        self.ctx
    }

    fn notify_inserted(&mut self, op: OpId) {
        if let Some(l) = self.listener.as_mut() {
            l.on_inserted(self.ctx, op);
        }
    }
    fn notify_modified(&mut self, op: OpId) {
        if let Some(l) = self.listener.as_mut() {
            l.on_modified(self.ctx, op);
        }
    }
    fn notify_erased(&mut self, op: OpId) {
        if let Some(l) = self.listener.as_mut() {
            l.on_erased(self.ctx, op);
        }
    }
    fn notify_replaced(&mut self, op: OpId, with: &[Value]) {
        if let Some(l) = self.listener.as_mut() {
            l.on_replaced(self.ctx, op, with);
        }
    }

    // ----- insertion point ----------------------------------------------------------------

    /// The current insertion point.
    pub fn insertion_point(&self) -> InsertPoint {
        self.ip
    }
    /// Sets the insertion point.
    pub fn set_insertion_point(&mut self, ip: InsertPoint) {
        self.ip = ip;
    }
    /// New ops go right before `op`. Patterns start here, with `op` their root.
    pub fn set_insertion_point_before(&mut self, op: OpId) {
        self.ip = InsertPoint::Before(op);
    }
    /// New ops go right after `op`, in order.
    pub fn set_insertion_point_after(&mut self, op: OpId) {
        self.ip = match self.ctx.next_op(op) {
            Some(n) => InsertPoint::Before(n),
            None => InsertPoint::End(
                self.ctx
                    .op_parent_block(op)
                    .expect("insertion point after a detached op"),
            ),
        };
    }
    /// New ops go at the start of `block`, in order.
    pub fn set_insertion_point_to_start(&mut self, block: BlockId) {
        self.ip = match self.ctx.block_first(block) {
            Some(f) => InsertPoint::Before(f),
            None => InsertPoint::End(block),
        };
    }
    /// New ops go at the end of `block`.
    pub fn set_insertion_point_to_end(&mut self, block: BlockId) {
        self.ip = InsertPoint::End(block);
    }

    // ----- creation -------------------------------------------------------------------------

    /// Inserts a detached op at the insertion point and reports it.
    ///
    /// # Panics
    /// When no insertion point is set.
    pub fn insert(&mut self, op: OpId) {
        match self.ip {
            InsertPoint::Before(b) => self.ctx.insert_op_before(b, op),
            InsertPoint::End(b) => self.ctx.append_op(b, op),
            InsertPoint::Unset => panic!("Rewriter::insert: no insertion point set"),
        }
        self.notify_inserted(op);
    }

    /// Creates an op at the insertion point.
    pub fn create(&mut self, st: OperationState) -> OpId {
        let op = self.ctx.create_op(st);
        self.insert(op);
        op
    }

    /// Creates an op from its parts: the common case of [`create`](Rewriter::create).
    /// `properties` become the op's property dictionary (none when empty).
    pub fn build(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        result_types: Vec<Type>,
        properties: Vec<(String, Attr)>,
        loc: Attr,
    ) -> OpId {
        let name = self.ctx.op_name(name);
        let properties = if properties.is_empty() {
            None
        } else {
            Some(self.ctx.dict_attr(properties))
        };
        self.create(OperationState {
            name,
            operands,
            result_types,
            properties,
            attrs: Vec::new(),
            regions: Vec::new(),
            successors: Vec::new(),
            loc,
        })
    }

    /// Deep-copies `op` (regions included) to the insertion point. Operands and successors are
    /// looked up in `map`, and the copy's results and blocks are added to it.
    pub fn clone_op(&mut self, op: OpId, map: &mut IrMapping) -> OpId {
        let c = clone_op(self.ctx, op, map);
        self.insert(c);
        c
    }

    // ----- replacement and erasure ------------------------------------------------------------

    /// Replaces every use of `op`'s results with `with` (one value per result), then erases `op`.
    pub fn replace_op(&mut self, op: OpId, with: &[Value]) {
        let results = self.ctx.results(op).to_vec();
        assert_eq!(
            results.len(),
            with.len(),
            "replace_op: {} results replaced by {} values",
            results.len(),
            with.len()
        );
        self.notify_replaced(op, with);
        for (r, w) in results.into_iter().zip(with) {
            self.replace_all_uses_with(r, *w);
        }
        self.erase_op(op);
    }

    /// Creates an op right before `op` and replaces `op` with its results.
    pub fn replace_op_with_new(&mut self, op: OpId, st: OperationState) -> OpId {
        let saved = self.ip;
        self.set_insertion_point_before(op);
        let new = self.create(st);
        self.ip = saved;
        let vals = self.ctx.results(new).to_vec();
        self.replace_op(op, &vals);
        new
    }

    /// Points every use of `from` at `to`, reporting each user as modified. Users are visited
    /// newest use first, the order MLIR's use lists have, so drivers visit them as MLIR does.
    pub fn replace_all_uses_with(&mut self, from: Value, to: Value) {
        self.replace_uses_with_if(from, to, |_, _| true);
    }

    /// Like [`replace_all_uses_with`](Rewriter::replace_all_uses_with), for the uses `keep`
    /// accepts.
    pub fn replace_uses_with_if(
        &mut self,
        from: Value,
        to: Value,
        mut keep: impl FnMut(&Context, Use) -> bool,
    ) {
        if from == to {
            return;
        }
        let uses: Vec<Use> = self.ctx.uses(from).iter().rev().copied().collect();
        for u in uses {
            if !keep(self.ctx, u) {
                continue;
            }
            self.ctx.set_operand(u.op, u.index as usize, to);
            self.notify_modified(u.op);
        }
    }

    /// Erases `op` and everything nested in it. Nested ops are reported one by one, innermost
    /// and last first, so a listener always sees users go before the values they use.
    pub fn erase_op(&mut self, op: OpId) {
        if self.listener.is_none() {
            self.ctx.erase_op(op);
            return;
        }
        let regions = self.ctx.regions(op).to_vec();
        for r in regions.into_iter().rev() {
            let blocks = self.ctx.region_blocks(r).to_vec();
            for b in blocks.into_iter().rev() {
                let ops: Vec<OpId> = self.ctx.block_ops(b).collect();
                for o in ops.into_iter().rev() {
                    self.erase_op(o);
                }
            }
        }
        self.notify_erased(op);
        self.ctx.erase_op(op);
    }

    /// Erases a block and its ops, last op first (see [`Context::erase_block`] for what must
    /// hold).
    pub fn erase_block(&mut self, b: BlockId) {
        let ops: Vec<OpId> = self.ctx.block_ops(b).collect();
        for o in ops.into_iter().rev() {
            self.erase_op(o);
        }
        self.ctx.erase_block(b);
    }

    // ----- moves and in-place changes ---------------------------------------------------------

    /// Moves `op` to right before `before`; reported as an insertion (MLIR does the same).
    pub fn move_op_before(&mut self, op: OpId, before: OpId) {
        self.ctx.move_op_before(op, before);
        self.notify_inserted(op);
    }

    /// Moves `op` to right after `after`; reported as an insertion.
    pub fn move_op_after(&mut self, op: OpId, after: OpId) {
        self.ctx.detach_op(op);
        self.ctx.insert_op_after(after, op);
        self.notify_inserted(op);
    }

    /// Runs `f` to change `op` in place, then reports `op` as modified. This is the way to
    /// change operands, properties, attributes or the location of an attached op.
    pub fn modify_in_place<R>(&mut self, op: OpId, f: impl FnOnce(&mut Context) -> R) -> R {
        let r = f(self.ctx);
        self.notify_modified(op);
        r
    }

    /// Sets operand `i` of `op`.
    pub fn set_operand(&mut self, op: OpId, i: usize, v: Value) {
        self.modify_in_place(op, |ctx| ctx.set_operand(op, i, v));
    }

    /// Sets (or with `None`, removes) a property of `op`. The properties must be a dictionary
    /// or absent.
    pub fn set_property(&mut self, op: OpId, name: &str, value: Option<Attr>) {
        self.modify_in_place(op, |ctx| set_property(ctx, op, name, value));
    }

    /// Sets (or with `None`, removes) a discardable attribute of `op`.
    pub fn set_attr(&mut self, op: OpId, name: &str, value: Option<Attr>) {
        self.modify_in_place(op, |ctx| ctx.set_attr(op, name, value));
    }
}

/// Sets (or removes) one entry of an op's property dictionary, without reporting it. A rewriter
/// wraps this in [`Rewriter::modify_in_place`]; builders of detached ops call it directly.
pub fn set_property(ctx: &mut Context, op: OpId, name: &str, value: Option<Attr>) {
    let mut entries: Vec<(String, Attr)> = match ctx.op(op).properties.map(|p| ctx.attr_kind(p)) {
        Some(AttrKind::Dict(e)) => e.clone(),
        _ => Vec::new(),
    };
    entries.retain(|(k, _)| k != name);
    if let Some(v) = value {
        entries.push((name.to_string(), v));
    }
    let props = if entries.is_empty() {
        None
    } else {
        Some(ctx.dict_attr(entries))
    };
    ctx.op_mut(op).properties = props;
}

// ----- cloning --------------------------------------------------------------------------------

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

// ----- patterns -------------------------------------------------------------------------------

/// Matches and rewrites at `op` with the rewriter (insertion point: right before `op`). Returns
/// whether it changed anything. A pattern that returns `false` must leave the IR as it was.
pub type PatternFn = fn(&mut Rewriter<'_>, OpId) -> bool;

/// A rewrite pattern: a match-and-rewrite function with a benefit and an optional root.
///
/// It is const-constructible, so op declarations can list their canonicalizations:
/// `canonicalize: &[Pattern::new("addi-add-constant", add_add_constant)]`.
#[derive(Clone, Copy)]
pub struct Pattern {
    /// A short kebab-case name (statistics, `disable-patterns`, debugging).
    pub name: &'static str,
    /// The op name it applies to. `None` means any op, or the declaring op when listed in an
    /// [`OpDef`](crate::opdef::OpDef).
    pub root: Option<&'static str>,
    /// Higher is tried first; ties keep the order patterns were added in.
    pub benefit: u16,
    /// The match-and-rewrite function.
    pub apply: PatternFn,
}

impl Pattern {
    /// A pattern of benefit 1 with no root.
    pub const fn new(name: &'static str, apply: PatternFn) -> Pattern {
        Pattern {
            name,
            root: None,
            benefit: 1,
            apply,
        }
    }
    /// The same pattern with another benefit.
    pub const fn with_benefit(self, benefit: u16) -> Pattern {
        Pattern { benefit, ..self }
    }
    /// The same pattern restricted to ops named `root`.
    pub const fn with_root(self, root: &'static str) -> Pattern {
        Pattern {
            root: Some(root),
            ..self
        }
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pattern")
            .field("name", &self.name)
            .field("root", &self.root)
            .field("benefit", &self.benefit)
            .finish()
    }
}

/// Patterns ready to apply: indexed by root op name, each list sorted by benefit (highest
/// first, ties in insertion order). Patterns without a root are kept apart and merged in by
/// benefit, op-specific ones first on ties, as MLIR's `PatternApplicator` does.
#[derive(Clone, Debug, Default)]
pub struct PatternSet {
    by_root: FxHashMap<OpName, Vec<Pattern>>,
    any: Vec<Pattern>,
}

fn insert_by_benefit(list: &mut Vec<Pattern>, p: Pattern) {
    let pos = list
        .iter()
        .position(|q| q.benefit < p.benefit)
        .unwrap_or(list.len());
    list.insert(pos, p);
}

impl PatternSet {
    /// An empty set.
    pub fn new() -> PatternSet {
        PatternSet::default()
    }

    /// Adds a pattern. Takes the context to intern the root name.
    pub fn add(&mut self, ctx: &mut Context, p: Pattern) {
        match p.root {
            Some(root) => {
                let n = ctx.op_name(root);
                insert_by_benefit(self.by_root.entry(n).or_default(), p);
            }
            None => insert_by_benefit(&mut self.any, p),
        }
    }

    /// The canonicalization patterns of every registered op, each rooted at its op.
    pub fn canonicalization(ctx: &mut Context) -> PatternSet {
        let mut set = PatternSet::new();
        let defs: Vec<_> = ctx
            .dialects()
            .flat_map(|(_, ops)| ops.iter().copied())
            .collect();
        for def in defs {
            for p in def.canonicalize {
                set.add(ctx, p.with_root(p.root.unwrap_or(def.name)));
            }
        }
        set
    }

    /// Keeps the patterns `keep` accepts (`enable-patterns` / `disable-patterns`).
    pub fn retain(&mut self, mut keep: impl FnMut(&Pattern) -> bool) {
        self.any.retain(&mut keep);
        for list in self.by_root.values_mut() {
            list.retain(&mut keep);
        }
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.any.len() + self.by_root.values().map(Vec::len).sum::<usize>()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tries the patterns that apply to `op`, best first, until one succeeds, and returns its
    /// name. The insertion point is reset to right before `op` for each try.
    pub fn apply(&self, rw: &mut Rewriter<'_>, op: OpId) -> Option<&'static str> {
        let specific: &[Pattern] = self
            .by_root
            .get(&rw.ctx().op(op).name)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let (mut i, mut j) = (0, 0);
        while i < specific.len() || j < self.any.len() {
            let take_any = j < self.any.len()
                && (i == specific.len() || self.any[j].benefit > specific[i].benefit);
            let p = if take_any {
                j += 1;
                &self.any[j - 1]
            } else {
                i += 1;
                &specific[i - 1]
            };
            rw.set_insertion_point_before(op);
            if (p.apply)(rw, op) {
                return Some(p.name);
            }
        }
        None
    }
}

// ----- folding --------------------------------------------------------------------------------

/// One folded result: a constant (to be materialized) or an existing value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpFoldResult {
    Attr(Attr),
    Value(Value),
}

/// What a fold did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Folded {
    /// Nothing; the op is unchanged.
    Failed,
    /// The op was changed in place (operands swapped, predicate flipped, ...) and stays.
    InPlace,
    /// Every result has a replacement; the op goes away.
    Results(Vec<OpFoldResult>),
}

impl Folded {
    /// A single-result fold to an attribute.
    pub fn attr(a: Attr) -> Folded {
        Folded::Results(vec![OpFoldResult::Attr(a)])
    }
    /// A single-result fold to an existing value.
    pub fn value(v: Value) -> Folded {
        Folded::Results(vec![OpFoldResult::Value(v)])
    }
}

/// An op's folder: `operands[i]` is the constant value of operand `i` when a `ConstantLike` op
/// defines it. May change the op in place (then returns [`Folded::InPlace`]). Must not create or
/// erase ops; drivers do that with what it returns.
pub type FoldFn = fn(&mut Context, OpId, &[Option<Attr>]) -> Folded;

/// A dialect's constant builder: creates, at the rewriter's insertion point, a constant op of
/// type `ty` holding `value`, located at `loc`. Returns `None` when the dialect cannot express
/// that constant.
pub type MaterializeFn = fn(&mut Rewriter<'_>, Attr, Type, Attr) -> Option<OpId>;

/// The value of a `ConstantLike` op (its `value` property), e.g. `42 : i32`.
pub fn constant_value(ctx: &Context, op: OpId) -> Option<Attr> {
    let def = ctx.op_def(op)?;
    if !def.has(Trait::ConstantLike) {
        return None;
    }
    ctx.get_inherent_or_attr(op, "value")
}

/// The constant a value holds, when a `ConstantLike` op defines it (MLIR's `m_Constant`).
pub fn constant_of(ctx: &Context, v: Value) -> Option<Attr> {
    constant_value(ctx, ctx.defining_op(v)?)
}

/// Folds `op` once: its declared folder, then trait folds. For `Commutative` ops, constant
/// operands move to the end, as MLIR's trait folder does, so patterns only need to match
/// constants on the right. A result that is the op's own value counts as an in-place fold.
pub fn fold_op(ctx: &mut Context, op: OpId) -> Folded {
    let Some(def) = ctx.op_def(op) else {
        return Folded::Failed;
    };
    if def.fold.is_none() && !def.has(Trait::Commutative) {
        return Folded::Failed;
    }
    // Constant operands, on the stack for the usual few operands.
    let n = ctx.operands(op).len();
    let mut small = [None; 4];
    let mut big = Vec::new();
    let consts: &mut [Option<Attr>] = if n <= small.len() {
        &mut small[..n]
    } else {
        big.resize(n, None);
        &mut big
    };
    for (c, v) in consts.iter_mut().zip(ctx.operands(op)) {
        *c = constant_of(ctx, *v);
    }
    let consts: &[Option<Attr>] = consts;
    let mut in_place = false;
    if let Some(f) = def.fold {
        match f(ctx, op, consts) {
            Folded::Failed => {}
            Folded::InPlace => in_place = true,
            Folded::Results(rs) => {
                let own = ctx.results(op);
                let is_self =
                    rs.len() == 1 && own.len() == 1 && rs[0] == OpFoldResult::Value(own[0]);
                if !is_self {
                    return Folded::Results(rs);
                }
                in_place = true;
            }
        }
    }
    if def.has(Trait::Commutative) && move_constants_right(ctx, op, consts) {
        return Folded::InPlace;
    }
    if in_place {
        Folded::InPlace
    } else {
        Folded::Failed
    }
}

/// A stable partition of the operands: non-constants first. Returns whether anything moved.
fn move_constants_right(ctx: &mut Context, op: OpId, consts: &[Option<Attr>]) -> bool {
    if consts.len() < 2 {
        return false;
    }
    let Some(first_const) = consts.iter().position(Option::is_some) else {
        return false;
    };
    if consts[first_const..].iter().all(Option::is_some) {
        return false;
    }
    let ops = ctx.operands(op).to_vec();
    let mut order: Vec<Value> = Vec::with_capacity(ops.len());
    order.extend(
        ops.iter()
            .zip(consts)
            .filter(|(_, c)| c.is_none())
            .map(|(v, _)| *v),
    );
    order.extend(
        ops.iter()
            .zip(consts)
            .filter(|(_, c)| c.is_some())
            .map(|(v, _)| *v),
    );
    for (i, v) in order.into_iter().enumerate() {
        if ctx.operands(op)[i] != v {
            ctx.set_operand(op, i, v);
        }
    }
    true
}

/// Whether `op` could be erased if its results were unused: it is registered, has no side
/// effects (see [`is_effect_free`]), and is neither a terminator nor a symbol. Unregistered ops
/// may have side effects, so never.
pub fn would_be_trivially_dead(ctx: &Context, op: OpId) -> bool {
    let Some(def) = ctx.op_def(op) else {
        return false;
    };
    !def.has(Trait::Terminator) && !def.has(Trait::Symbol) && is_effect_free(ctx, op)
}

/// Whether `op` has no side effects: it is `Pure`, or it has `RecursiveMemoryEffects` and
/// everything nested in it is effect-free (MLIR's `isMemoryEffectFree`).
pub fn is_effect_free(ctx: &Context, op: OpId) -> bool {
    let Some(def) = ctx.op_def(op) else {
        return false;
    };
    if def.has(Trait::Pure) {
        return true;
    }
    if !def.has(Trait::RecursiveMemoryEffects) {
        return false;
    }
    ctx.regions(op).iter().all(|&r| {
        ctx.region_blocks(r)
            .iter()
            .all(|&b| ctx.block_ops(b).all(|o| is_effect_free(ctx, o)))
    })
}

/// Whether `op` has no used results and [`would_be_trivially_dead`].
pub fn is_trivially_dead(ctx: &Context, op: OpId) -> bool {
    ctx.results(op).iter().all(|r| ctx.uses(*r).is_empty()) && would_be_trivially_dead(ctx, op)
}

// ----- constant values ------------------------------------------------------------------------

/// The bit width of an integer-like type: `iN` → N, `index` → 64 (MLIR's internal width).
pub fn int_width(ctx: &Context, ty: Type) -> Option<u32> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Index => Some(64),
        _ => None,
    }
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// An integer attribute as its two's-complement bit pattern and width. Widths up to 128 only:
/// folders leave wider types alone rather than get them wrong.
pub fn int_bits(ctx: &Context, a: Attr) -> Option<(u128, u32)> {
    let AttrKind::Integer { value, ty } = ctx.attr_kind(a) else {
        return None;
    };
    let w = int_width(ctx, *ty)?;
    if w == 0 || w > 128 {
        return None;
    }
    let modulus = BigInt::one() << w;
    let r = ((value % &modulus) + &modulus) % &modulus;
    Some((r.to_u128()?, w))
}

/// An integer attribute of type `ty` from a bit pattern (masked to the width). The value is
/// normalized as the parser normalizes literals, so equal constants are the same attribute.
pub fn int_attr(ctx: &mut Context, ty: Type, bits: u128) -> Attr {
    let w = int_width(ctx, ty).expect("int_attr: not an integer type");
    let bits = bits & mask(w);
    let signed = match ctx.type_kind(ty) {
        TypeKind::Integer { signedness, .. } => *signedness != Signedness::Unsigned && w > 1,
        _ => true,
    };
    let mut value = BigInt::from(bits);
    if signed && (bits >> (w - 1)) & 1 == 1 {
        value -= BigInt::one() << w;
    }
    ctx.attr(AttrKind::Integer { value, ty })
}

/// A float attribute as its format and bit pattern.
pub fn float_bits(ctx: &Context, a: Attr) -> Option<(FloatKind, u128)> {
    let AttrKind::Float { bits, ty } = ctx.attr_kind(a) else {
        return None;
    };
    match ctx.type_kind(*ty) {
        TypeKind::Float(k) => Some((*k, *bits)),
        _ => None,
    }
}

/// A float attribute of type `ty` from a bit pattern.
pub fn float_attr(ctx: &mut Context, ty: Type, bits: u128) -> Attr {
    ctx.attr(AttrKind::Float { bits, ty })
}

/// `true`/`false` as an `i1` attribute.
pub fn bool_attr(ctx: &mut Context, b: bool) -> Attr {
    let i1 = ctx.int_type(1);
    int_attr(ctx, i1, b as u128)
}

/// Zero of a scalar integer, index or float type.
pub fn zero_attr(ctx: &mut Context, ty: Type) -> Option<Attr> {
    match ctx.type_kind(ty) {
        TypeKind::Integer { .. } | TypeKind::Index => Some(int_attr(ctx, ty, 0)),
        TypeKind::Float(_) => Some(float_attr(ctx, ty, 0)),
        _ => None,
    }
}

/// Whether an integer attribute is signed-negative (for printing-independent checks).
pub fn int_is_negative(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if value.is_negative())
}

/// Whether an integer attribute is zero.
pub fn int_is_zero(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { value, .. } if value.is_zero())
}

/// `loc(fused[...])` of `locs` as MLIR's `FusedLoc::get` builds it: unknown locations dropped,
/// nested fusions flattened, duplicates removed; one location stays itself, none is unknown.
pub fn fused_loc(ctx: &mut Context, locs: &[Attr]) -> Attr {
    let mut flat: Vec<Attr> = Vec::new();
    for &l in locs {
        match ctx.attr_kind(l) {
            AttrKind::Loc(Location::Unknown) => {}
            AttrKind::Loc(Location::Fused {
                metadata: None,
                locs: inner,
            }) => {
                for x in inner.clone() {
                    if !flat.contains(&x) {
                        flat.push(x);
                    }
                }
            }
            _ => {
                if !flat.contains(&l) {
                    flat.push(l);
                }
            }
        }
    }
    match flat.len() {
        0 => ctx.unknown_loc(),
        1 => flat[0],
        _ => ctx.attr(AttrKind::Loc(Location::Fused {
            metadata: None,
            locs: flat,
        })),
    }
}

// ----- the greedy driver ------------------------------------------------------------------------

/// How much control-flow cleanup the greedy driver does after each round of patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionSimplify {
    /// None.
    Disabled,
    /// Erase unreachable blocks, then run [`run_region_dce`] (dead ops, dead block arguments).
    Normal,
    /// `Normal`, plus merging identical blocks in MLIR (not implemented; behaves as `Normal`).
    Aggressive,
}

/// Settings of [`apply_patterns_greedily`]; the defaults are MLIR's `GreedyRewriteConfig`.
#[derive(Clone, Debug)]
pub struct GreedyConfig {
    /// Rounds (seed the worklist, process it, simplify regions) before giving up; -1: no limit.
    pub max_iterations: i64,
    /// Successful pattern applications allowed per round; -1: no limit.
    pub max_num_rewrites: i64,
    /// Seed the worklist in pre-order (parents first) instead of post-order. MLIR's config
    /// defaults to `false`; the `canonicalize` pass sets `true`.
    pub top_down: bool,
    /// Fold ops before trying patterns.
    pub fold: bool,
    /// Deduplicate constants and hoist them to the entry block of the nearest isolated region
    /// while seeding the worklist.
    pub cse_constants: bool,
    /// Control-flow cleanup after each round.
    pub region_simplify: RegionSimplify,
}

impl Default for GreedyConfig {
    fn default() -> GreedyConfig {
        GreedyConfig {
            max_iterations: 10,
            max_num_rewrites: -1,
            top_down: false,
            fold: true,
            cse_constants: true,
            region_simplify: RegionSimplify::Normal,
        }
    }
}

/// What a greedy run did. `converged == false` means it stopped at a limit while changes were
/// still happening; the caller decides whether that is an error (MLIR's canonicalizer only
/// fails with `test-convergence`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GreedyResult {
    /// The last round changed nothing.
    pub converged: bool,
    /// Rounds run (each region counts its own; this is the largest).
    pub iterations: u64,
    /// Anything at all changed, constant hoisting included.
    pub changed: bool,
    /// Ops folded (away or in place).
    pub num_folded: u64,
    /// Successful pattern applications.
    pub num_rewrites: u64,
    /// Ops erased because they were trivially dead.
    pub num_erased: u64,
    /// Constants replaced by an equal constant while seeding.
    pub num_constants_deduplicated: u64,
    /// Unreachable blocks erased.
    pub num_blocks_erased: u64,
}

/// The driver's worklist: a stack of ops without duplicates. Positions are kept in a dense table
/// indexed by op (op ids are small and dense), which is much cheaper than hashing on large IR.
#[derive(Default)]
struct Worklist {
    list: Vec<Option<OpId>>,
    /// Position of each op in `list`, or `ABSENT`.
    pos: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl Worklist {
    fn push(&mut self, op: OpId) {
        let i = op.index();
        if i >= self.pos.len() {
            self.pos.resize((i + 1).max(self.pos.len() * 2), ABSENT);
        }
        if self.pos[i] != ABSENT {
            return;
        }
        self.pos[i] = self.list.len() as u32;
        self.list.push(Some(op));
    }
    fn pop(&mut self) -> Option<OpId> {
        while let Some(x) = self.list.pop() {
            if let Some(op) = x {
                self.pos[op.index()] = ABSENT;
                return Some(op);
            }
        }
        None
    }
    fn remove(&mut self, op: OpId) {
        if let Some(p) = self.pos.get_mut(op.index()) {
            if *p != ABSENT {
                self.list[*p as usize] = None;
                *p = ABSENT;
            }
        }
    }
    fn reverse(&mut self) {
        self.list.reverse();
        for (i, x) in self.list.iter().enumerate() {
            if let Some(op) = x {
                self.pos[op.index()] = i as u32;
            }
        }
    }
    fn clear(&mut self) {
        for op in self.list.drain(..).flatten() {
            self.pos[op.index()] = ABSENT;
        }
    }
}

/// The greedy driver as a listener: changes put the touched ops back on the worklist.
struct Driver<'l> {
    worklist: Worklist,
    /// Only ops nested in this region are processed.
    scope: RegionId,
    user: Option<&'l mut dyn Listener>,
    /// Number of changes reported (any change means the run changed the IR).
    events: u64,
}

impl Driver<'_> {
    /// Adds `op` and its ancestors up to the scope region (ops outside it are ignored).
    fn add(&mut self, ctx: &Context, op: OpId) {
        if !ctx.is_alive(op) {
            return;
        }
        // Find the ancestor in the scope first (nothing is added when there is none), then
        // add `op` and its ancestors up to it, innermost first.
        let mut cur = op;
        loop {
            let Some(r) = ctx.op_parent_region(cur) else {
                return;
            };
            if r == self.scope {
                break;
            }
            let Some(p) = ctx.region_parent(r) else {
                return;
            };
            cur = p;
        }
        let top = cur;
        let mut cur = op;
        loop {
            self.worklist.push(cur);
            if cur == top {
                return;
            }
            match ctx.parent_op(cur) {
                Some(p) => cur = p,
                None => return,
            }
        }
    }

    /// When `op` goes away, the ops defining its operands may become dead or simpler: revisit
    /// those whose value keeps at most one other user.
    fn add_operands(&mut self, ctx: &Context, op: OpId) {
        for &v in ctx.operands(op) {
            let Some(d) = ctx.defining_op(v) else {
                continue;
            };
            let mut other: Option<OpId> = None;
            let mut more = false;
            for u in ctx.uses(v) {
                if u.op == op || Some(u.op) == other {
                    continue;
                }
                if other.is_none() {
                    other = Some(u.op);
                    continue;
                }
                more = true;
                break;
            }
            if !more {
                self.add(ctx, d);
            }
        }
    }
}

impl Listener for Driver<'_> {
    fn on_inserted(&mut self, ctx: &Context, op: OpId) {
        self.events += 1;
        if let Some(u) = self.user.as_mut() {
            u.on_inserted(ctx, op);
        }
        self.add(ctx, op);
    }
    fn on_replaced(&mut self, ctx: &Context, op: OpId, with: &[Value]) {
        self.events += 1;
        if let Some(u) = self.user.as_mut() {
            u.on_replaced(ctx, op, with);
        }
    }
    fn on_erased(&mut self, ctx: &Context, op: OpId) {
        self.events += 1;
        if let Some(u) = self.user.as_mut() {
            u.on_erased(ctx, op);
        }
        self.add_operands(ctx, op);
        self.worklist.remove(op);
    }
    fn on_modified(&mut self, ctx: &Context, op: OpId) {
        self.events += 1;
        if let Some(u) = self.user.as_mut() {
            u.on_modified(ctx, op);
        }
        self.add(ctx, op);
    }
}

/// Deduplicates and hoists constants while the worklist is seeded (MLIR's `OperationFolder`).
/// It lives for one round: constants it has placed are "owned", and later equal constants in the
/// same insertion region are replaced by them.
#[derive(Default)]
struct ConstantUniquer {
    known: FxHashMap<(RegionId, &'static str, Attr, Type), OpId>,
    owned: FxHashSet<OpId>,
}

/// Where constants folded in `block` live: the entry block of the nearest region whose parent is
/// isolated from above (or unregistered, or top-level).
pub fn constant_insertion_region(ctx: &Context, block: BlockId) -> Option<RegionId> {
    let mut b = block;
    loop {
        let r = ctx.block_parent(b)?;
        let Some(p) = ctx.region_parent(r) else {
            return Some(r);
        };
        let isolated = ctx.op_def(p).is_none_or(|d| d.is_isolated());
        if isolated || ctx.op_parent_block(p).is_none() {
            return Some(r);
        }
        b = ctx.op_parent_block(p)?;
    }
}

impl ConstantUniquer {
    /// Records constant `op`, hoisting it when needed. Returns `false` when an equal constant
    /// already existed and `op` was replaced by it (and erased).
    fn insert_known(
        &mut self,
        ctx: &mut Context,
        driver: &mut Driver<'_>,
        op: OpId,
        value: Attr,
        result: &mut GreedyResult,
    ) -> bool {
        let Some(block) = ctx.op_parent_block(op) else {
            return true;
        };
        let unknown = ctx.unknown_loc();
        if self.owned.contains(&op) {
            if ctx.block_first(block) != Some(op)
                && !ctx.prev_op(op).is_some_and(|p| self.owned.contains(&p))
            {
                ctx.move_op_to_block_start(op, block);
                ctx.op_mut(op).loc = unknown;
                result.changed = true;
            }
            return true;
        }
        let Some(region) = constant_insertion_region(ctx, block) else {
            return true;
        };
        let dialect = ctx.op_def(op).map_or("", |d| d.dialect());
        let ty = ctx.value_type(ctx.results(op)[0]);
        let key = (region, dialect, value, ty);
        if let Some(&existing) = self.known.get(&key) {
            let with = ctx.results(existing).to_vec();
            Rewriter::with_listener(ctx, driver).replace_op(op, &with);
            ctx.op_mut(existing).loc = unknown;
            result.num_constants_deduplicated += 1;
            result.changed = true;
            return false;
        }
        let Some(&insert_block) = ctx.region_blocks(region).first() else {
            return true;
        };
        if block != insert_block {
            ctx.move_op_to_block_start(op, insert_block);
            ctx.op_mut(op).loc = unknown;
            result.changed = true;
        } else if ctx.block_first(block) != Some(op)
            && !ctx.prev_op(op).is_some_and(|p| self.owned.contains(&p))
        {
            ctx.move_op_to_block_start(op, block);
            result.changed = true;
        }
        self.known.insert(key, op);
        self.owned.insert(op);
        true
    }
}

/// Walks the ops of `r` in pre-order; `f` returns whether to descend into the op's regions.
/// The next op is read before `f` runs, so `f` may erase or move the op it is given.
fn walk_pre(ctx: &mut Context, r: RegionId, f: &mut dyn FnMut(&mut Context, OpId) -> bool) {
    for b in ctx.region_blocks(r).to_vec() {
        let mut cur = ctx.block_first(b);
        while let Some(o) = cur {
            cur = ctx.next_op(o);
            if f(ctx, o) && ctx.is_alive(o) {
                for nr in ctx.regions(o).to_vec() {
                    walk_pre(ctx, nr, f);
                }
            }
        }
    }
}

/// Walks the ops of `r` in post-order (nested ops first), tolerating erasure and moves as
/// [`walk_pre`] does.
fn walk_post(ctx: &mut Context, r: RegionId, f: &mut dyn FnMut(&mut Context, OpId)) {
    for b in ctx.region_blocks(r).to_vec() {
        let mut cur = ctx.block_first(b);
        while let Some(o) = cur {
            cur = ctx.next_op(o);
            for nr in ctx.regions(o).to_vec() {
                walk_post(ctx, nr, f);
            }
            f(ctx, o);
        }
    }
}

/// Caches each dialect's constant materializer.
#[derive(Default)]
struct Materializers {
    cache: FxHashMap<&'static str, Option<MaterializeFn>>,
}

impl Materializers {
    fn get(&mut self, ctx: &Context, dialect: &'static str) -> Option<MaterializeFn> {
        *self.cache.entry(dialect).or_insert_with(|| {
            ctx.dialects()
                .find(|(ns, _)| *ns == dialect)
                .and_then(|(_, ops)| ops.iter().find_map(|d| d.materialize_constant))
        })
    }
}

/// Applies `patterns` and folding to everything nested in `op`'s regions (not to `op`) until
/// nothing changes or a limit is hit, as MLIR's `applyPatternsGreedily` does. Each region is
/// processed on its own, in rounds:
///
/// 1. Seed: walk the region (pre-order when `top_down`, else post-order). Constants are
///    deduplicated and hoisted to the start of their insertion region's entry block (see
///    [`constant_insertion_region`]); every other op, and every surviving constant, goes on the
///    worklist. For top-down seeding the list is reversed so ops pop in program order.
/// 2. Erase unreachable blocks.
/// 3. Pop ops until the worklist is empty: erase an op if it is trivially dead, else fold it
///    (attributes become constants through the dialect's materializer, inserted right before
///    the op), else try the patterns. Every change puts the touched ops back on the worklist:
///    inserted and modified ops, the users of replaced values, and the definers of an erased
///    op's operands when they are left with at most one other user.
/// 4. Simplify regions (per `region_simplify`): erase unreachable blocks, then dead ops and
///    dead block arguments ([`run_region_dce`]).
///
/// A round that changed something starts another, up to `max_iterations`.
pub fn apply_patterns_greedily(
    ctx: &mut Context,
    op: OpId,
    patterns: &PatternSet,
    config: &GreedyConfig,
) -> GreedyResult {
    apply_patterns_greedily_with_listener(ctx, op, patterns, config, None)
}

/// [`apply_patterns_greedily`], also reporting every change to `listener`.
pub fn apply_patterns_greedily_with_listener(
    ctx: &mut Context,
    op: OpId,
    patterns: &PatternSet,
    config: &GreedyConfig,
    mut listener: Option<&mut dyn Listener>,
) -> GreedyResult {
    let mut total = GreedyResult {
        converged: true,
        ..GreedyResult::default()
    };
    for r in ctx.regions(op).to_vec() {
        // Reborrow at a coercion site so the trait object's lifetime can shrink.
        let user: Option<&mut dyn Listener> = match &mut listener {
            Some(l) => Some(&mut **l),
            None => None,
        };
        let res = simplify_region(ctx, r, patterns, config, user);
        total.converged &= res.converged;
        total.iterations = total.iterations.max(res.iterations);
        total.changed |= res.changed;
        total.num_folded += res.num_folded;
        total.num_rewrites += res.num_rewrites;
        total.num_erased += res.num_erased;
        total.num_constants_deduplicated += res.num_constants_deduplicated;
        total.num_blocks_erased += res.num_blocks_erased;
    }
    total
}

fn simplify_region(
    ctx: &mut Context,
    region: RegionId,
    patterns: &PatternSet,
    config: &GreedyConfig,
    user: Option<&mut dyn Listener>,
) -> GreedyResult {
    let mut result = GreedyResult::default();
    let mut driver = Driver {
        worklist: Worklist::default(),
        scope: region,
        user,
        events: 0,
    };
    let mut materializers = Materializers::default();
    let mut iteration: i64 = 0;
    let mut continue_rewrites = false;
    loop {
        iteration += 1;
        if config.max_iterations >= 0 && iteration > config.max_iterations {
            break;
        }
        result.iterations += 1;
        driver.worklist.clear();

        // 1. Seed the worklist.
        let mut uniquer = ConstantUniquer::default();
        {
            let d = &mut driver;
            let u = &mut uniquer;
            let res = &mut result;
            let cse = config.cse_constants;
            let mut visit = |ctx: &mut Context, o: OpId| -> bool {
                if cse {
                    if let Some(v) = constant_value(ctx, o) {
                        if !u.insert_known(ctx, d, o, v, res) {
                            return false;
                        }
                    }
                }
                d.add(ctx, o);
                true
            };
            if config.top_down {
                walk_pre(ctx, region, &mut visit);
            } else {
                walk_post(ctx, region, &mut |c, o| {
                    visit(c, o);
                });
            }
        }
        if config.top_down {
            driver.worklist.reverse();
        }

        // 2. Unreachable blocks.
        continue_rewrites = {
            let mut rw = Rewriter::with_listener(ctx, &mut driver);
            erase_unreachable_blocks(&mut rw, &[region], &mut result.num_blocks_erased)
        };

        // 3. The worklist.
        continue_rewrites |= process_worklist(
            ctx,
            &mut driver,
            patterns,
            config,
            &mut materializers,
            &mut result,
        );

        // 4. Region simplification.
        if config.region_simplify != RegionSimplify::Disabled {
            let mut rw = Rewriter::with_listener(ctx, &mut driver);
            let blocks =
                erase_unreachable_blocks(&mut rw, &[region], &mut result.num_blocks_erased);
            let dce = run_region_dce(&mut rw, &[region]);
            continue_rewrites |= blocks || dce;
        }
        if !continue_rewrites {
            break;
        }
    }
    result.converged = !continue_rewrites;
    result.changed |= driver.events > 0;
    result
}

fn process_worklist(
    ctx: &mut Context,
    driver: &mut Driver<'_>,
    patterns: &PatternSet,
    config: &GreedyConfig,
    materializers: &mut Materializers,
    result: &mut GreedyResult,
) -> bool {
    let mut changed = false;
    let mut num_rewrites: i64 = 0;
    while config.max_num_rewrites < 0 || num_rewrites < config.max_num_rewrites {
        let Some(op) = driver.worklist.pop() else {
            break;
        };
        if !ctx.is_alive(op) || ctx.op_parent_block(op).is_none() {
            continue;
        }
        if is_trivially_dead(ctx, op) {
            Rewriter::with_listener(ctx, driver).erase_op(op);
            result.num_erased += 1;
            changed = true;
            continue;
        }
        let def = ctx.op_def(op);
        if config.fold && def.is_some_and(|d| !d.has(Trait::ConstantLike)) {
            match fold_op(ctx, op) {
                Folded::Failed => {}
                Folded::InPlace => {
                    driver.on_modified(ctx, op);
                    result.num_folded += 1;
                    changed = true;
                    continue;
                }
                Folded::Results(folded) => {
                    let dialect = def.map_or("", |d| d.dialect());
                    let materialize = materializers.get(ctx, dialect);
                    if replace_with_fold_results(ctx, driver, op, &folded, materialize) {
                        result.num_folded += 1;
                        changed = true;
                        continue;
                    }
                }
            }
        }
        let mut rw = Rewriter::with_listener(ctx, driver);
        if patterns.apply(&mut rw, op).is_some() {
            num_rewrites += 1;
            result.num_rewrites += 1;
            changed = true;
        }
    }
    changed
}

/// Replaces `op` by its fold results, materializing attributes right before it. On a failed
/// materialization the constants already built are erased and `op` stays.
fn replace_with_fold_results(
    ctx: &mut Context,
    driver: &mut Driver<'_>,
    op: OpId,
    folded: &[OpFoldResult],
    materialize: Option<MaterializeFn>,
) -> bool {
    let types: Vec<Type> = ctx.results(op).iter().map(|r| ctx.value_type(*r)).collect();
    let loc = ctx.op(op).loc;
    let mut rw = Rewriter::with_listener(ctx, driver);
    rw.set_insertion_point_before(op);
    let mut values = Vec::with_capacity(folded.len());
    let mut created = Vec::new();
    for (r, ty) in folded.iter().zip(types) {
        match *r {
            OpFoldResult::Value(v) => values.push(v),
            OpFoldResult::Attr(a) => match materialize.and_then(|m| m(&mut rw, a, ty, loc)) {
                Some(c) => {
                    created.push(c);
                    values.push(rw.ctx().results(c)[0]);
                }
                None => {
                    for c in created.into_iter().rev() {
                        rw.erase_op(c);
                    }
                    return false;
                }
            },
        }
    }
    rw.replace_op(op, &values);
    true
}

/// Erases the blocks no path from their region's entry reaches, in `regions` and every region
/// nested in reachable blocks. Returns whether any was erased.
pub fn erase_unreachable_blocks(
    rw: &mut Rewriter<'_>,
    regions: &[RegionId],
    erased: &mut u64,
) -> bool {
    let mut any = false;
    let mut worklist: Vec<RegionId> = regions.to_vec();
    while let Some(r) = worklist.pop() {
        let blocks = rw.ctx().region_blocks(r).to_vec();
        if blocks.is_empty() {
            continue;
        }
        if blocks.len() == 1 {
            for o in rw.ctx().block_ops(blocks[0]) {
                worklist.extend(rw.ctx().regions(o).iter().copied());
            }
            continue;
        }
        let reachable = reachable_blocks(rw.ctx(), blocks[0]);
        for b in blocks {
            if !reachable.contains(&b) {
                rw.erase_block(b);
                *erased += 1;
                any = true;
                continue;
            }
            for o in rw.ctx().block_ops(b) {
                worklist.extend(rw.ctx().regions(o).iter().copied());
            }
        }
    }
    any
}

/// Blocks reachable from `entry` through terminator successors.
pub fn reachable_blocks(ctx: &Context, entry: BlockId) -> FxHashSet<BlockId> {
    let mut seen = FxHashSet::default();
    let mut stack = vec![entry];
    while let Some(b) = stack.pop() {
        if !seen.insert(b) {
            continue;
        }
        if let Some(t) = ctx.block_last(b) {
            stack.extend(ctx.successors(t).iter().copied());
        }
    }
    seen
}

/// Blocks reachable from `entry` in post-order (successors before the block, each block's
/// successors taken in order), as LLVM's `post_order` visits a region's CFG.
pub fn post_order_blocks(ctx: &Context, entry: BlockId) -> Vec<BlockId> {
    let mut order = Vec::new();
    let mut seen = FxHashSet::default();
    seen.insert(entry);
    let mut stack: Vec<(BlockId, Vec<BlockId>, usize)> =
        vec![(entry, block_successors(ctx, entry), 0)];
    while let Some(top) = stack.last_mut() {
        if top.2 < top.1.len() {
            let s = top.1[top.2];
            top.2 += 1;
            if seen.insert(s) {
                let succ = block_successors(ctx, s);
                stack.push((s, succ, 0));
            }
            continue;
        }
        order.push(top.0);
        stack.pop();
    }
    order
}

/// The operands `op` forwards to the arguments of successor `s`, as a range of operand
/// indices: the operand group its declaration names for that successor (MLIR's
/// `BranchOpInterface::getSuccessorOperands`). `None` for ops that do not say (unregistered
/// ops), whose successor arguments must then be assumed used.
pub fn successor_operands(ctx: &Context, op: OpId, s: usize) -> Option<std::ops::Range<usize>> {
    let def = ctx.op_def(op)?;
    let sd = def.successors.get(s)?;
    if sd.operands.is_empty() {
        return Some(0..0);
    }
    let gi = def.operands.iter().position(|o| o.name == sd.operands)?;
    let sizes = crate::format::segment_sizes(ctx, def, op, ctx.operands(op).len());
    let start: usize = sizes.get(..gi)?.iter().sum();
    Some(start..start + *sizes.get(gi)?)
}

/// Removes the operand `op` forwards to argument `arg` of successor `s`, keeping an
/// `operandSegmentSizes` property in step.
fn erase_successor_operand(ctx: &mut Context, op: OpId, s: usize, arg: usize) {
    let Some(range) = successor_operands(ctx, op, s) else {
        return;
    };
    ctx.erase_operand(op, range.start + arg);
    let Some(def) = ctx.op_def(op) else { return };
    if !def.has(Trait::AttrSizedOperandSegments) {
        return;
    }
    let gi = def
        .operands
        .iter()
        .position(|o| o.name == def.successors[s].operands)
        .unwrap();
    let Some(a) = ctx.get_prop(op, "operandSegmentSizes") else {
        return;
    };
    if let Some(mut values) = ctx.int_array_values(a) {
        if let Some(v) = values.get_mut(gi) {
            *v = (*v - 1).max(0);
        }
        let na = ctx.int_array_attr(32, &values);
        set_property(ctx, op, "operandSegmentSizes", Some(na));
    }
}

/// Liveness of ops and block arguments for [`run_region_dce`]: optimistic (dead until proven
/// live), growing to a fixpoint.
#[derive(Default)]
struct LiveMap {
    ops: DenseSet,
    args: DenseSet,
    changed: bool,
}

/// A set of small dense ids (op or value indices) as a bit vector.
#[derive(Default)]
struct DenseSet {
    bits: Vec<u64>,
}

impl DenseSet {
    fn with_capacity(n: usize) -> DenseSet {
        DenseSet {
            bits: vec![0; n.div_ceil(64)],
        }
    }
    /// Adds `i`; returns whether it was new.
    fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        if w >= self.bits.len() {
            self.bits.resize(w + 1, 0);
        }
        let new = self.bits[w] & b == 0;
        self.bits[w] |= b;
        new
    }
    fn contains(&self, i: usize) -> bool {
        self.bits
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }
}

impl LiveMap {
    fn new(ctx: &Context) -> LiveMap {
        LiveMap {
            ops: DenseSet::with_capacity(ctx.num_ops()),
            args: DenseSet::with_capacity(ctx.num_values()),
            changed: false,
        }
    }
    fn set_value_live(&mut self, ctx: &Context, v: Value) {
        match ctx.defining_op(v) {
            Some(o) => self.changed |= self.ops.insert(o.index()),
            None => self.changed |= self.args.insert(v.index()),
        }
    }
    fn set_op_live(&mut self, op: OpId) {
        self.changed |= self.ops.insert(op.index());
    }

    /// A branch operand only keeps its value alive when the successor argument it feeds is.
    fn use_known_dead(&self, ctx: &Context, u: Use) -> bool {
        let owner = u.op;
        if !ctx.op_def(owner).is_some_and(|d| d.has(Trait::Terminator)) {
            return false;
        }
        for (s, &succ) in ctx.successors(owner).iter().enumerate() {
            if let Some(r) = successor_operands(ctx, owner, s) {
                if r.contains(&(u.index as usize)) {
                    let arg = ctx.block_args(succ)[u.index as usize - r.start];
                    return !self.args.contains(arg.index());
                }
            }
        }
        false
    }

    fn process_value(&mut self, ctx: &Context, v: Value) {
        let live = ctx
            .uses(v)
            .iter()
            .any(|u| !self.use_known_dead(ctx, *u) && self.ops.contains(u.op.index()));
        if live {
            self.set_value_live(ctx, v);
        }
    }

    fn propagate_region(&mut self, ctx: &Context, r: RegionId) {
        let Some(&entry) = ctx.region_blocks(r).first() else {
            return;
        };
        for b in post_order_blocks(ctx, entry) {
            // Backwards through the block (nothing changes the IR here).
            let mut cur = ctx.block_last(b);
            while let Some(o) = cur {
                cur = ctx.prev_op(o);
                self.propagate_op(ctx, o);
            }
            if b == entry {
                continue;
            }
            for &a in ctx.block_args(b) {
                if !self.args.contains(a.index()) {
                    self.process_value(ctx, a);
                }
            }
        }
    }

    fn propagate_op(&mut self, ctx: &Context, op: OpId) {
        for &r in ctx.regions(op) {
            self.propagate_region(ctx, r);
        }
        if ctx.op_def(op).is_some_and(|d| d.has(Trait::Terminator)) {
            self.set_op_live(op);
            for (s, &succ) in ctx.successors(op).iter().enumerate() {
                if successor_operands(ctx, op, s).is_none() {
                    for &a in ctx.block_args(succ) {
                        self.set_value_live(ctx, a);
                    }
                }
            }
            return;
        }
        if self.ops.contains(op.index()) {
            return;
        }
        if !would_be_trivially_dead(ctx, op) {
            self.set_op_live(op);
            return;
        }
        for &v in ctx.results(op) {
            self.process_value(ctx, v);
        }
    }
}

/// Dead code elimination over whole regions, as MLIR's `runRegionDCE`: ops that are not proven
/// live (a live op is one that is not trivially dead, or whose results feed a live op) are
/// erased, and so are the unused arguments of non-entry blocks together with the branch
/// operands that fed them. Dead cycles through block arguments go too. Returns whether an op
/// was erased.
pub fn run_region_dce(rw: &mut Rewriter<'_>, regions: &[RegionId]) -> bool {
    let mut live = LiveMap::new(rw.ctx());
    loop {
        live.changed = false;
        for &r in regions {
            live.propagate_region(rw.ctx(), r);
        }
        if !live.changed {
            break;
        }
    }
    delete_deadness(rw, regions, &live)
}

fn delete_deadness(rw: &mut Rewriter<'_>, regions: &[RegionId], live: &LiveMap) -> bool {
    let mut erased = false;
    for &r in regions {
        let blocks = rw.ctx().region_blocks(r).to_vec();
        let Some(&entry) = blocks.first() else {
            continue;
        };
        let single = blocks.len() == 1;
        for b in post_order_blocks(rw.ctx(), entry) {
            if !single {
                if let Some(t) = rw.ctx().block_last(b) {
                    let succs = rw.ctx().successors(t).to_vec();
                    for (s, succ) in succs.iter().enumerate().rev() {
                        let Some(range) = successor_operands(rw.ctx(), t, s) else {
                            continue;
                        };
                        for arg in (0..range.len()).rev() {
                            let a = rw.ctx().block_args(*succ)[arg];
                            if !live.args.contains(a.index()) {
                                erase_successor_operand(rw.ctx_mut(), t, s, arg);
                            }
                        }
                    }
                }
            }
            // Backwards; the previous op is read before `o` is erased (erasing `o` only touches
            // ops nested in it).
            let mut cur = rw.ctx().block_last(b);
            while let Some(o) = cur {
                cur = rw.ctx().prev_op(o);
                if !live.ops.contains(o.index()) {
                    erased = true;
                    rw.erase_op(o);
                } else {
                    let nested = rw.ctx().regions(o).to_vec();
                    erased |= delete_deadness(rw, &nested, live);
                }
            }
        }
        for &b in blocks.iter().skip(1) {
            if rw.ctx().block_parent(b) != Some(r) {
                continue;
            }
            let n = rw.ctx().block_args(b).len();
            for i in (0..n).rev() {
                let a = rw.ctx().block_args(b)[i];
                if !live.args.contains(a.index()) {
                    rw.ctx_mut().erase_block_arg(b, i);
                }
            }
        }
    }
    erased
}

/// The successors of a block (those of its last op).
pub fn block_successors(ctx: &Context, b: BlockId) -> Vec<BlockId> {
    ctx.block_last(b)
        .map(|t| ctx.successors(t).to_vec())
        .unwrap_or_default()
}

// ----- the walk driver ------------------------------------------------------------------------

/// Applies `patterns` once to each op nested in `op`'s regions, in post-order (nested ops
/// first, then program order), for one-shot rewrites that need no fixpoint (lowerings,
/// cleanups). Ops created during the walk are not visited; erased ones are skipped. No folding.
/// Returns the number of successful applications.
pub fn walk_and_apply_patterns(
    ctx: &mut Context,
    op: OpId,
    patterns: &PatternSet,
    listener: Option<&mut dyn Listener>,
) -> u64 {
    let mut ops = Vec::new();
    for r in ctx.regions(op).to_vec() {
        walk_post(ctx, r, &mut |_, o| ops.push(o));
    }
    let mut n = 0;
    let mut none = NoListener;
    let listener: &mut dyn Listener = match listener {
        Some(l) => l,
        None => &mut none,
    };
    for o in ops {
        if !ctx.is_alive(o) || ctx.op_parent_block(o).is_none() {
            continue;
        }
        let mut rw = Rewriter::with_listener(ctx, &mut *listener);
        if patterns.apply(&mut rw, o).is_some() {
            n += 1;
        }
    }
    n
}

/// A listener that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoListener;

impl Listener for NoListener {}
