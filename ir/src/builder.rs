//! [`OpBuilder`]: the one way code outside the parser creates ops.
//!
//! A builder has an insertion point (start or end of a block, before or after an op) and a
//! current location, so that a run of ops built for one source op needs neither repeated. It
//! works on a bare [`Context`] (lowerings that build fresh IR) or on a [`Rewriter`], whose
//! listener then hears about every op created (patterns and drivers), so typed builders
//! (`AddIOp::build(&mut b, ...)`, see [`crate::handle`]) serve both.
//!
//! Parse hooks do not create ops: they return an [`OperationState`] that the parser creates.
//! [`OperationState::of`] and its chained setters are for them.

use crate::attrs::Attr;
use crate::context::{BlockId, Context, OpId, OpName, OperationState, RegionId, Value};
use crate::opdef::OpDef;
use crate::rewrite::{InsertPoint, Rewriter};
use crate::types::Type;

/// What a builder on a rewriter needs of it, with the rewriter's own lifetime erased so that
/// `OpBuilder<'a>` has one lifetime.
trait RewriteSink {
    fn ctx(&self) -> &Context;
    fn ctx_mut(&mut self) -> &mut Context;
    fn create(&mut self, st: OperationState) -> OpId;
    fn ip(&self) -> InsertPoint;
    fn set_ip(&mut self, ip: InsertPoint);
}

impl RewriteSink for Rewriter<'_> {
    fn ctx(&self) -> &Context {
        Rewriter::ctx(self)
    }
    fn ctx_mut(&mut self) -> &mut Context {
        Rewriter::ctx_mut(self)
    }
    fn create(&mut self, st: OperationState) -> OpId {
        Rewriter::create(self, st)
    }
    fn ip(&self) -> InsertPoint {
        self.insertion_point()
    }
    fn set_ip(&mut self, ip: InsertPoint) {
        self.set_insertion_point(ip)
    }
}

enum Sink<'a> {
    Ctx {
        ctx: &'a mut Context,
        ip: InsertPoint,
    },
    Rewriter(&'a mut (dyn RewriteSink + 'a)),
}

/// Creates ops at an insertion point with a current location.
///
/// On a [`Rewriter`] the insertion point is the rewriter's own, so a pattern can mix
/// `rw.replace_op(...)` with typed builders without re-synchronising anything.
pub struct OpBuilder<'a> {
    sink: Sink<'a>,
    loc: Attr,
}

impl<'a> OpBuilder<'a> {
    /// A builder on bare IR, with no insertion point yet (ops are created detached until one
    /// is set) and an unknown location.
    pub fn new(ctx: &'a mut Context) -> OpBuilder<'a> {
        let loc = ctx.unknown_loc();
        OpBuilder {
            sink: Sink::Ctx {
                ctx,
                ip: InsertPoint::Unset,
            },
            loc,
        }
    }

    /// A builder that creates through `rw` (its listener hears of each op) at `rw`'s insertion
    /// point, with location `loc`.
    pub fn on_rewriter<'r: 'a>(rw: &'a mut Rewriter<'r>, loc: Attr) -> OpBuilder<'a> {
        OpBuilder {
            sink: Sink::Rewriter(rw),
            loc,
        }
    }

    /// The IR, read-only.
    pub fn ctx(&self) -> &Context {
        match &self.sink {
            Sink::Ctx { ctx, .. } => ctx,
            Sink::Rewriter(r) => r.ctx(),
        }
    }

    /// The context, for uniquing types and attributes.
    pub fn ctx_mut(&mut self) -> &mut Context {
        match &mut self.sink {
            Sink::Ctx { ctx, .. } => ctx,
            Sink::Rewriter(r) => r.ctx_mut(),
        }
    }

    /// The location new ops get.
    pub fn loc(&self) -> Attr {
        self.loc
    }

    /// Sets the location new ops get.
    pub fn set_loc(&mut self, loc: Attr) {
        self.loc = loc;
    }

    /// The location of `op`, as the current location (ops built for `op` point at it).
    pub fn set_loc_from(&mut self, op: OpId) {
        self.loc = self.ctx().op(op).loc;
    }

    /// The current insertion point.
    pub fn insertion_point(&self) -> InsertPoint {
        match &self.sink {
            Sink::Ctx { ip, .. } => *ip,
            Sink::Rewriter(r) => r.ip(),
        }
    }

    /// Sets the insertion point; [`InsertPoint::Unset`] makes new ops detached.
    pub fn set_insertion_point(&mut self, ip: InsertPoint) {
        match &mut self.sink {
            Sink::Ctx { ip: mine, .. } => *mine = ip,
            Sink::Rewriter(r) => r.set_ip(ip),
        }
    }

    /// New ops go right before `op`.
    pub fn set_insertion_point_before(&mut self, op: OpId) {
        self.set_insertion_point(InsertPoint::Before(op));
    }

    /// New ops go right after `op`, in order.
    ///
    /// # Panics
    /// When `op` is detached (there is no "after" to go to).
    pub fn set_insertion_point_after(&mut self, op: OpId) {
        let ip = match self.ctx().next_op(op) {
            Some(n) => InsertPoint::Before(n),
            None => InsertPoint::End(
                self.ctx()
                    .op_parent_block(op)
                    .expect("OpBuilder: insertion point after a detached op"),
            ),
        };
        self.set_insertion_point(ip);
    }

    /// New ops go at the start of `block`, in order.
    pub fn set_insertion_point_to_start(&mut self, block: BlockId) {
        let ip = match self.ctx().block_first(block) {
            Some(f) => InsertPoint::Before(f),
            None => InsertPoint::End(block),
        };
        self.set_insertion_point(ip);
    }

    /// New ops go at the end of `block`.
    pub fn set_insertion_point_to_end(&mut self, block: BlockId) {
        self.set_insertion_point(InsertPoint::End(block));
    }

    /// Creates `st` at the insertion point (detached when none is set).
    pub fn create(&mut self, st: OperationState) -> OpId {
        match &mut self.sink {
            Sink::Ctx { ctx, ip } => {
                let op = ctx.create_op(st);
                match *ip {
                    InsertPoint::Before(b) => ctx.insert_op_before(b, op),
                    InsertPoint::End(b) => ctx.append_op(b, op),
                    InsertPoint::Unset => {}
                }
                op
            }
            Sink::Rewriter(r) => {
                if r.ip() == InsertPoint::Unset {
                    r.ctx_mut().create_op(st)
                } else {
                    r.create(st)
                }
            }
        }
    }

    /// Creates an op of a registered name from its parts at the current location: for ops
    /// without a typed handle (unregistered dialects, generic code such as cloning).
    /// `properties` become the property dictionary (none when empty).
    pub fn create_named(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        result_types: Vec<Type>,
        properties: Vec<(String, Attr)>,
    ) -> OpId {
        let name = self.ctx_mut().op_name(name);
        let loc = self.loc;
        let mut st = OperationState::new(name, loc);
        st.operands = operands;
        st.result_types = result_types;
        st.properties = (!properties.is_empty()).then(|| self.ctx_mut().dict_attr(properties));
        self.create(st)
    }

    /// A detached empty region, to fill and hand to an op.
    pub fn create_region(&mut self) -> RegionId {
        self.ctx_mut().create_region()
    }

    /// A new block with these argument types (at the current location), appended to `region`.
    pub fn create_block_in(&mut self, region: RegionId, arg_types: &[Type]) -> BlockId {
        let ctx = self.ctx_mut();
        let b = ctx.create_block(arg_types);
        ctx.push_block(region, b);
        b
    }
}

impl OperationState {
    /// An empty state for op `name` at `loc`.
    pub fn new(name: OpName, loc: Attr) -> OperationState {
        OperationState {
            name,
            operands: Vec::new(),
            result_types: Vec::new(),
            properties: None,
            attrs: Vec::new(),
            regions: Vec::new(),
            successors: Vec::new(),
            loc,
        }
    }

    /// An empty state for the op `def` declares, at an unknown location: what parse hooks
    /// start from (the parser sets the location).
    pub fn of(ctx: &mut Context, def: &OpDef) -> OperationState {
        let name = ctx.op_name(def.name);
        let loc = ctx.unknown_loc();
        OperationState::new(name, loc)
    }

    /// Sets the operands.
    pub fn with_operands(mut self, operands: Vec<Value>) -> OperationState {
        self.operands = operands;
        self
    }

    /// Sets the result types.
    pub fn with_results(mut self, types: Vec<Type>) -> OperationState {
        self.result_types = types;
        self
    }

    /// Sets the properties from a list of entries (none when empty).
    pub fn with_properties(
        mut self,
        ctx: &mut Context,
        props: Vec<(String, Attr)>,
    ) -> OperationState {
        self.properties = (!props.is_empty()).then(|| ctx.dict_attr(props));
        self
    }

    /// Sets the discardable attributes.
    pub fn with_attrs(mut self, attrs: Vec<(String, Attr)>) -> OperationState {
        self.attrs = attrs;
        self
    }

    /// Sets the regions (adopted by the op when it is created).
    pub fn with_regions(mut self, regions: Vec<RegionId>) -> OperationState {
        self.regions = regions;
        self
    }

    /// Sets the successors.
    pub fn with_successors(mut self, successors: Vec<BlockId>) -> OperationState {
        self.successors = successors;
        self
    }
}
