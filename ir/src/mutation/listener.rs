//! Listeners: how the rewriter reports each change (drivers and tests listen).

use crate::context::{Context, OpId, Value};

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

/// A listener that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoListener;

impl Listener for NoListener {}
