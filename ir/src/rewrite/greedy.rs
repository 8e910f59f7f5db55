//! The greedy driver ([`apply_patterns_greedily`]): MLIR's `applyPatternsGreedily`, worklist,
//! constant uniquing and folding before patterns.

use super::region::{erase_unreachable_blocks, run_region_dce};
use super::walk::{walk_post, walk_pre};
use super::{
    constant_value, fold_op, is_trivially_dead, Folded, Listener, MaterializeFn, OpFoldResult,
    PatternSet, Rewriter,
};
use crate::attrs::Attr;
use crate::context::{BlockId, Context, OpId, RegionId, Value};
use crate::opdef::Trait;
use crate::types::Type;
use rustc_hash::{FxHashMap, FxHashSet};

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
