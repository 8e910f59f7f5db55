//! `inline`: inlines `func.call`s of `func.func`s, bottom-up over the call graph, and erases
//! private functions left without uses, as MLIR's inliner does.
//!
//! The algorithm is MLIR's. Callables (`func.func` with a body) are nodes of a call graph, built
//! once, and its strongly connected components are visited callees first. For each component
//! the inliner runs the `default-pipeline` (canonicalization) on its functions. It then inlines
//! every call it may into them, including calls that inlining exposes. An inline history stops
//! a callee from being inlined into its own expansion. It repeats while something was inlined,
//! up to `max-iterations` rounds. A callee is not inlined if it calls itself or its caller
//! (static edges), or if the call sits inside it.
//!
//! Dead private functions are erased. MLIR does this too, contrary to a common belief that only
//! `symbol-dce` does: a private function with no uses left when its component is visited, or
//! whose last call was just inlined, goes.
//!
//! Limits: only single-block callees are inlined (MLIR also inlines multi-block ones into
//! regions that allow several blocks), and only ops of dialects whose ops can all be inlined
//! (`arith`, `cf`, `func`, `scf`) may appear in a callee.

use crate::canonicalize::Canonicalize;
use crate::symbol_dce::{
    is_private, lookup_path, nearest_symbol_table, op_symbol_refs, symbol_uses,
};
use crate::{create_pass, declare_pass, Changed, DeclaredPass, Pass, Statistics};
use rustc_hash::{FxHashMap, FxHashSet};
use tilus_dialects::func::{CallOp, FuncOp, ReturnOp};
use tilus_ir::attrs::{AttrKind, Location};
use tilus_ir::rewrite::{IrMapping, Rewriter};
use tilus_ir::{Attr, BlockId, Context, Diagnostic, OpId, RegionId};

/// Dialects whose ops may all be inlined (MLIR's `DialectInlinerInterface`s that allow
/// everything). An op of any other dialect in a callee keeps it from being inlined.
pub const INLINABLE_DIALECTS: &[&str] = &["arith", "cf", "func", "scf"];

declare_pass! {
    /// The inliner. The fields are its options, with MLIR's names and defaults.
    pub struct Inline {
        name: "inline",
        class: "Inliner",
        summary: "Inline function calls",
        description: "Inlines calls to func.func bodies, callees first over the call graph, \
            running the default pipeline (canonicalize) on each function before and between \
            rounds, and erases private functions whose uses are all gone, as MLIR's inliner \
            does. Recursive calls are left alone. Only single-block callees made of arith, cf, \
            func and scf ops are inlined.",
        options: {
            default_pipeline: String = "canonicalize".into(), "default-pipeline",
                "The optimizer pipeline used for callables (passes separated by commas, as in \
                 `canonicalize{top-down=false},cse`; empty for none)",
                check = check_default_pipeline;
            inlining_threshold: u32 = u32::MAX, "inlining-threshold",
                "Largest callee/caller op count ratio (percent) still inlined";
            max_iterations: u32 = 4, "max-iterations",
                "Maximum number of iterations when inlining within an SCC";
            op_pipelines: Vec<String> = Vec::new(), "op-pipelines",
                "Callable operation specific optimizer pipelines (not supported; empty)",
                check = check_op_pipelines;
        },
        statistics: {
            NUM_INLINED = "num-inlined", "Calls inlined";
            NUM_ERASED = "num-erased", "Dead callables erased";
        },
    }
}

impl Pass for Inline {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let mut pipeline = build_pipeline(&self.default_pipeline)
            .map_err(|e| vec![Diagnostic::op(op, format!("inline: {e}"))])?;
        let mut inl = Inliner::new(ctx, op, self);
        inl.run(ctx, &mut pipeline)?;
        stats.add(Self::NUM_INLINED, inl.num_inlined);
        stats.add(Self::NUM_ERASED, inl.num_erased);
        Ok(if inl.changed {
            Changed::Yes
        } else {
            Changed::No
        })
    }
}

/// Builds the passes of a `default-pipeline` value: `a,b{k=v k2=v2},c`.
/// `default-pipeline` must name registered passes with valid options.
fn check_default_pipeline(text: &str) -> Result<(), String> {
    build_pipeline(text).map(|_| ())
}

/// `op-pipelines` is accepted for MLIR compatibility but only empty.
fn check_op_pipelines(l: &[String]) -> Result<(), String> {
    if l.is_empty() {
        Ok(())
    } else {
        Err("op-pipelines is not supported; use default-pipeline".into())
    }
}

fn build_pipeline(text: &str) -> Result<Vec<Box<dyn Pass>>, String> {
    let mut passes = Vec::new();
    let mut depth = 0;
    let mut items = Vec::new();
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    items.push(cur);
    for item in items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let (name, opts) = match item.split_once('{') {
            Some((n, rest)) => (n.trim(), rest.trim_end_matches('}')),
            None => (item, ""),
        };
        if name == "canonicalize" {
            // Direct, so the inliner works even before the registry lists canonicalize.
            let mut p = Canonicalize::default();
            for kv in opts.split_whitespace() {
                let (k, v) = kv.split_once('=').unwrap_or((kv, "true"));
                p.set_option(k, v)?;
            }
            passes.push(Box::new(p) as Box<dyn Pass>);
            continue;
        }
        let mut p = create_pass(name)
            .ok_or_else(|| format!("unknown pass '{name}' in default-pipeline"))?;
        for kv in opts.split_whitespace() {
            let (k, v) = kv.split_once('=').unwrap_or((kv, "true"));
            p.set_option(k, v)?;
        }
        passes.push(p);
    }
    Ok(passes)
}

/// A call found in a callable: the call op, the node it is in, the node it calls, and the
/// inline-history entry that produced it (`None` for calls present from the start).
#[derive(Clone, Copy)]
struct ResolvedCall {
    call: OpId,
    source: usize,
    target: usize,
    history: Option<usize>,
}

struct Inliner {
    /// Callable ops (`func.func` with a body), in walk order. Node `i` is `nodes[i]`.
    nodes: Vec<OpId>,
    node_of: FxHashMap<OpId, usize>,
    /// Static call edges (deduplicated, first-seen order), computed once as MLIR does.
    edges: Vec<Vec<usize>>,
    /// Private callables whose uses are tracked; the others are never erased.
    discardable: Vec<bool>,
    /// Nodes whose body no longer counts for uses (inlined in place, so about to go).
    uncounted: FxHashSet<usize>,
    /// Nodes to erase at the end.
    dead: Vec<usize>,
    dead_set: FxHashSet<usize>,
    threshold: u32,
    max_iterations: u32,
    num_inlined: u64,
    num_erased: u64,
    changed: bool,
}

impl Inliner {
    fn new(ctx: &Context, root: OpId, opts: &Inline) -> Inliner {
        let mut nodes = Vec::new();
        ctx.walk(root, &mut |o| {
            if o != root && is_callable(ctx, o) {
                nodes.push(o);
            }
        });
        let node_of: FxHashMap<OpId, usize> =
            nodes.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        let mut inl = Inliner {
            edges: vec![Vec::new(); nodes.len()],
            discardable: vec![false; nodes.len()],
            nodes,
            node_of,
            uncounted: FxHashSet::default(),
            dead: Vec::new(),
            dead_set: FxHashSet::default(),
            threshold: opts.inlining_threshold,
            max_iterations: opts.max_iterations,
            num_inlined: 0,
            num_erased: 0,
            changed: false,
        };
        for i in 0..inl.nodes.len() {
            let body = ctx.regions(inl.nodes[i])[0];
            let mut calls = Vec::new();
            inl.collect_calls(ctx, &[body], i, false, &mut calls);
            for c in calls {
                if !inl.edges[i].contains(&c.target) {
                    inl.edges[i].push(c.target);
                }
            }
        }
        // Discardable: private callables not referenced from outside any callable.
        let mut always_live = FxHashSet::default();
        ctx.walk(root, &mut |o| {
            if crate::symbol_dce::is_symbol_table(ctx, o) {
                for child in crate::symbol_dce::table_children(ctx, o) {
                    if inl.node_of.contains_key(&child) {
                        continue;
                    }
                    if let Some(uses) = symbol_uses(ctx, child) {
                        for (_, path) in uses {
                            if let Some(n) = inl.resolve(ctx, o, &path) {
                                always_live.insert(n);
                            }
                        }
                    }
                }
            }
        });
        for i in 0..inl.nodes.len() {
            inl.discardable[i] = is_private(ctx, inl.nodes[i]) && !always_live.contains(&i);
        }
        inl
    }

    /// The node a reference resolves to, looked up from symbol table `table`.
    fn resolve(&self, ctx: &Context, table: OpId, path: &[String]) -> Option<usize> {
        let found = lookup_path(ctx, table, path);
        found.last().and_then(|o| self.node_of.get(o).copied())
    }

    /// Symbol uses of each node: references held by the callables that still count (a
    /// callable's own attributes count once per target, as MLIR's `CGUseList` does).
    fn uses(&self, ctx: &Context) -> Vec<u64> {
        let mut uses = vec![0u64; self.nodes.len()];
        for (i, &n) in self.nodes.iter().enumerate() {
            if self.uncounted.contains(&i) || !ctx.is_alive(n) {
                continue;
            }
            let Some(table) = nearest_symbol_table(ctx, n) else {
                continue;
            };
            let mut top = FxHashSet::default();
            for path in op_symbol_refs(ctx, n) {
                if let Some(t) = self.resolve(ctx, table, &path) {
                    top.insert(t);
                }
            }
            for t in top {
                uses[t] += 1;
            }
            let Some(all) = symbol_uses(ctx, n) else {
                continue;
            };
            for (user, path) in all {
                if user == n {
                    continue;
                }
                if let Some(t) = self.resolve(ctx, table, &path) {
                    uses[t] += 1;
                }
            }
        }
        uses
    }

    /// The calls in `regions` (blocks visited last first, as MLIR's worklist does), not
    /// descending into nested callables unless `nested`.
    fn collect_calls(
        &self,
        ctx: &Context,
        regions: &[RegionId],
        source: usize,
        nested: bool,
        out: &mut Vec<ResolvedCall>,
    ) {
        let mut blocks: Vec<BlockId> = Vec::new();
        for &r in regions {
            blocks.extend(ctx.region_blocks(r).iter().copied());
        }
        self.collect_calls_in(ctx, blocks, &[], source, nested, out);
    }

    fn collect_calls_in(
        &self,
        ctx: &Context,
        mut blocks: Vec<BlockId>,
        first_ops: &[OpId],
        source: usize,
        nested: bool,
        out: &mut Vec<ResolvedCall>,
    ) {
        let visit = |o: OpId, blocks: &mut Vec<BlockId>, out: &mut Vec<ResolvedCall>| {
            if CallOp::is(ctx, o) {
                if let Some(t) = self.callee_node(ctx, o) {
                    out.push(ResolvedCall {
                        call: o,
                        source,
                        target: t,
                        history: None,
                    });
                }
                return;
            }
            if !nested && is_callable(ctx, o) {
                return;
            }
            for &r in ctx.regions(o) {
                blocks.extend(ctx.region_blocks(r).iter().copied());
            }
        };
        for &o in first_ops {
            visit(o, &mut blocks, out);
        }
        while let Some(b) = blocks.pop() {
            for o in ctx.block_ops(b).collect::<Vec<_>>() {
                visit(o, &mut blocks, out);
            }
        }
    }

    /// The node a `func.call` calls (flat references only).
    fn callee_node(&self, ctx: &Context, call: OpId) -> Option<usize> {
        let callee = ctx.get_inherent_or_attr(call, "callee")?;
        let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(callee) else {
            return None;
        };
        if !nested.is_empty() {
            return None;
        }
        let table = nearest_symbol_table(ctx, call)?;
        let found = crate::symbol_dce::lookup_in(ctx, table, root)?;
        self.node_of.get(&found).copied()
    }

    /// Strongly connected components, callees first, in the order LLVM's `scc_iterator`
    /// yields them from an entry node that reaches every callable in walk order.
    fn sccs(&self) -> Vec<Vec<usize>> {
        let n = self.nodes.len();
        let entry = n; // the external caller
        let succ = |v: usize| -> Vec<usize> {
            if v == entry {
                (0..n).collect()
            } else {
                self.edges[v].clone()
            }
        };
        const DONE: usize = usize::MAX;
        let mut number = vec![0usize; n + 1];
        let mut next_num = 0;
        let mut node_stack: Vec<usize> = Vec::new();
        // (node, successors, next child index, lowest reachable visit number)
        let mut visit: Vec<(usize, Vec<usize>, usize, usize)> = Vec::new();
        let mut out = Vec::new();
        let mut start = |v: usize,
                         visit: &mut Vec<(usize, Vec<usize>, usize, usize)>,
                         node_stack: &mut Vec<usize>,
                         number: &mut Vec<usize>| {
            next_num += 1;
            number[v] = next_num;
            node_stack.push(v);
            visit.push((v, succ(v), 0, next_num));
        };
        start(entry, &mut visit, &mut node_stack, &mut number);
        while let Some(top) = visit.last_mut() {
            if top.2 < top.1.len() {
                let c = top.1[top.2];
                top.2 += 1;
                if number[c] == 0 {
                    start(c, &mut visit, &mut node_stack, &mut number);
                } else if number[c] < top.3 {
                    top.3 = number[c];
                }
                continue;
            }
            let (v, _, _, low) = visit.pop().unwrap();
            if let Some(parent) = visit.last_mut() {
                if low < parent.3 {
                    parent.3 = low;
                }
            }
            if low != number[v] {
                continue;
            }
            let mut scc = Vec::new();
            loop {
                let x = node_stack.pop().unwrap();
                number[x] = DONE;
                scc.push(x);
                if x == v {
                    break;
                }
            }
            scc.retain(|x| *x != entry);
            if !scc.is_empty() {
                out.push(scc);
            }
        }
        out
    }

    fn run(
        &mut self,
        ctx: &mut Context,
        pipeline: &mut [Box<dyn Pass>],
    ) -> Result<(), Vec<Diagnostic>> {
        for mut scc in self.sccs() {
            let mut iteration = 0;
            loop {
                // Optimize the component's callables.
                for &n in &scc {
                    let op = self.nodes[n];
                    for p in pipeline.iter_mut() {
                        let mut scratch = Statistics::default();
                        if p.run(ctx, op, &mut scratch)? == Changed::Yes {
                            self.changed = true;
                        }
                    }
                }
                let (inlined, dead) = self.inline_calls_in_scc(ctx, &scc);
                for d in dead {
                    scc.retain(|x| *x != d);
                    if self.dead_set.insert(d) {
                        self.dead.push(d);
                    }
                }
                if !inlined {
                    break;
                }
                iteration += 1;
                if iteration >= self.max_iterations {
                    break;
                }
            }
        }
        let mut rw = Rewriter::new(ctx);
        for &d in &self.dead {
            let op = self.nodes[d];
            if rw.ctx().is_alive(op) {
                rw.erase_op(op);
                self.num_erased += 1;
                self.changed = true;
            }
        }
        Ok(())
    }

    /// One round of inlining in a component; returns whether anything was inlined and the
    /// nodes found or made dead.
    fn inline_calls_in_scc(&mut self, ctx: &mut Context, scc: &[usize]) -> (bool, Vec<usize>) {
        let mut dead: Vec<usize> = Vec::new();
        let mut calls: Vec<ResolvedCall> = Vec::new();
        let uses = self.uses(ctx);
        for &n in scc {
            if self.discardable[n] && uses[n] == 0 {
                dead.push(n);
            } else {
                let body = ctx.regions(self.nodes[n])[0];
                self.collect_calls(ctx, &[body], n, false, &mut calls);
            }
        }
        let mut history: Vec<(usize, Option<usize>)> = Vec::new();
        let mut inlined_any = false;
        let mut i = 0;
        while i < calls.len() {
            let c = calls[i];
            i += 1;
            if dead.contains(&c.source) || !ctx.is_alive(c.call) {
                continue;
            }
            let mut h = c.history;
            let mut in_history = false;
            while let Some(id) = h {
                if history[id].0 == c.target {
                    in_history = true;
                    break;
                }
                h = history[id].1;
            }
            if in_history || !self.should_inline(ctx, &c) {
                continue;
            }
            let in_place = self.discardable[c.target] && self.uses(ctx)[c.target] == 1;
            let Some(inlined) = inline_call(ctx, c.call, self.nodes[c.target]) else {
                continue;
            };
            inlined_any = true;
            self.changed = true;
            self.num_inlined += 1;
            let id = history.len();
            history.push((c.target, c.history));
            let mut new_calls = Vec::new();
            self.collect_calls_in(ctx, Vec::new(), &inlined, c.source, true, &mut new_calls);
            for mut nc in new_calls {
                nc.history = Some(id);
                calls.push(nc);
            }
            if in_place {
                self.uncounted.insert(c.target);
                dead.push(c.target);
            }
        }
        (inlined_any, dead)
    }

    fn should_inline(&self, ctx: &Context, c: &ResolvedCall) -> bool {
        if self.edges[c.target]
            .iter()
            .any(|e| *e == c.target || *e == c.source)
        {
            return false;
        }
        let callee_region = ctx.regions(self.nodes[c.target])[0];
        // The call must not sit inside the callee.
        let mut r = ctx.op_parent_region(c.call);
        while let Some(region) = r {
            if region == callee_region {
                return false;
            }
            r = ctx
                .region_parent(region)
                .and_then(|p| ctx.op_parent_region(p));
        }
        if self.threshold == 0 {
            return false;
        }
        if self.threshold == u32::MAX {
            return true;
        }
        let count = |op: OpId| {
            let mut n = 0u64;
            for &r in ctx.regions(op) {
                for &b in ctx.region_blocks(r) {
                    for o in ctx.block_ops(b) {
                        ctx.walk(o, &mut |_| n += 1);
                    }
                }
            }
            n
        };
        let caller = count(self.nodes[c.source]);
        if caller == 0 {
            return true;
        }
        count(self.nodes[c.target]) * 100 / caller <= u64::from(self.threshold)
    }
}

/// `callsite(loc at caller)`, kept right-nested as MLIR keeps it: inlining an op that already
/// has `callsite(a at b)` gives `callsite(a at callsite(b at caller))`.
fn stack_callsite(ctx: &mut Context, loc: Attr, caller: Attr) -> Attr {
    if let AttrKind::Loc(Location::CallSite {
        callee,
        caller: inner,
    }) = ctx.attr_kind(loc).clone()
    {
        let outer = stack_callsite(ctx, inner, caller);
        return ctx.attr(AttrKind::Loc(Location::CallSite {
            callee,
            caller: outer,
        }));
    }
    ctx.attr(AttrKind::Loc(Location::CallSite {
        callee: loc,
        caller,
    }))
}

/// Whether `op` is a callable node: a `func.func` with a body.
fn is_callable(ctx: &Context, op: OpId) -> bool {
    FuncOp::is(ctx, op)
        && ctx
            .regions(op)
            .first()
            .is_some_and(|r| !ctx.region_blocks(*r).is_empty())
}

/// Whether every op nested in `op`'s regions may be inlined.
fn body_is_inlinable(ctx: &Context, op: OpId) -> bool {
    let mut ok = true;
    for &r in ctx.regions(op) {
        for &b in ctx.region_blocks(r) {
            for o in ctx.block_ops(b) {
                ctx.walk(o, &mut |x| {
                    let legal = ctx
                        .op_def(x)
                        .is_some_and(|d| INLINABLE_DIALECTS.contains(&d.dialect()));
                    ok &= legal;
                });
            }
        }
    }
    ok
}

/// Inlines `callee` (a single-block `func.func`) at `call`: clones its body before the call,
/// arguments mapped to the call's operands and locations wrapped as `callsite(loc at
/// call_loc)` (nested call sites stay right-nested, as in MLIR). The call's results are replaced by the returned values and the call is erased.
/// Returns the inlined ops, or `None` (IR unchanged) when this cannot be inlined.
pub fn inline_call(ctx: &mut Context, call: OpId, callee: OpId) -> Option<Vec<OpId>> {
    if ctx.get_inherent_or_attr(call, "no_inline").is_some()
        || ctx.get_inherent_or_attr(callee, "no_inline").is_some()
    {
        return None;
    }
    let body = *ctx.regions(callee).first()?;
    let [entry] = ctx.region_blocks(body) else {
        return None;
    };
    let entry = *entry;
    let ret = ctx.block_last(entry)?;
    if !ReturnOp::is(ctx, ret) || !body_is_inlinable(ctx, callee) {
        return None;
    }
    let args = ctx.block_args(entry).to_vec();
    let operands = ctx.operands(call).to_vec();
    if args.len() != operands.len() || ctx.operands(ret).len() != ctx.results(call).len() {
        return None;
    }
    let mut map = IrMapping::new();
    for (a, v) in args.iter().zip(&operands) {
        map.map_value(*a, *v);
    }
    let call_loc = ctx.op(call).loc;
    let body_ops: Vec<OpId> = ctx.block_ops(entry).filter(|o| *o != ret).collect();
    let mut rw = Rewriter::new(ctx);
    rw.set_insertion_point_before(call);
    let mut inlined = Vec::with_capacity(body_ops.len());
    for o in body_ops {
        inlined.push(rw.clone_op(o, &mut map));
    }
    let ctx = rw.ctx_mut();
    let mut cache: FxHashMap<Attr, Attr> = FxHashMap::default();
    for &o in &inlined {
        let mut all = Vec::new();
        ctx.walk(o, &mut |x| all.push(x));
        for x in all {
            let l = ctx.op(x).loc;
            let nl = match cache.get(&l) {
                Some(n) => *n,
                None => {
                    let n = stack_callsite(ctx, l, call_loc);
                    cache.insert(l, n);
                    n
                }
            };
            ctx.op_mut(x).loc = nl;
        }
    }
    let returned: Vec<_> = ctx
        .operands(ret)
        .iter()
        .map(|v| map.lookup_value(*v))
        .collect();
    let mut rw = Rewriter::new(ctx);
    rw.replace_op(call, &returned);
    Some(inlined)
}
