//! The [`Rewriter`]: the one mutation API passes use, with an insertion point, notifying a
//! [`super::Listener`] of every change.

use super::{clone_op, IrMapping, Listener};
use crate::attrs::{Attr, AttrKind};
use crate::context::{BlockId, Context, OpId, OperationState, Use, Value};
use crate::types::Type;

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
