//! The cost model and the extractors of `eqsat`.
//!
//! Costs are PTX instructions, as `convert-arith-to-ptx` and `ptxas` turn each op into them
//! (see [`CostModel`] for the table). Extraction is DAG-aware: a value the program computes
//! once costs once however many uses it has, which is what the rewritten SSA does (egg's own
//! `Extractor` costs trees, paying a shared value once per use, and so prefers duplicating
//! cheap-looking expressions). [`greedy_dag`] is the default; [`exact`] enumerates every
//! choice on small graphs and exists so tests can measure how far greedy is from optimal.

use super::lang::{Facts, Kind, Node, EG};
use egg::{Id, Language};
use rustc_hash::{FxHashMap, FxHashSet};
use tilus_dialects::arith::IntBinOp;

/// Instruction costs by op, with a distinction where PTX has one: 64-bit multiplies take
/// several SASS instructions, 64-bit shifts need their amount converted to 32 bits, and
/// division by a constant becomes a multiply-high and shifts while division by a runtime
/// value is a ~20-instruction sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct CostModel {
    /// `(name, cost)`; names are the keys of [`CostModel::KEYS`].
    pub table: Vec<(&'static str, f64)>,
    /// Constants the IR already has: they cost nothing more (canonicalize hoists and merges
    /// constants, so the kernel computes each once).
    pub known_consts: FxHashSet<(super::lang::Ty, u128)>,
}

impl CostModel {
    /// Every key with its default cost and what it stands for (the docs print this table).
    pub const KEYS: &'static [(&'static str, f64, &'static str)] = &[
        (
            "const",
            0.0,
            "an integer constant the kernel does not have yet (none: the PTX emitter prints \
             a constant as a literal in each user that takes one, and drops its `mov`)",
        ),
        ("add", 1.0, "add, sub, and, or, xor, min, max"),
        (
            "shift32",
            1.0,
            "a shift of a value of at most 32 bits, or of a 64-bit value by a constant",
        ),
        (
            "shift64",
            2.0,
            "a shift of a 64-bit value by a runtime amount (the amount is converted to 32 bits)",
        ),
        (
            "mul32",
            1.0,
            "a multiply of at most 32 bits (`mul.lo`, one IMAD)",
        ),
        (
            "mul64",
            2.0,
            "a 64-bit multiply (one PTX `mul.lo.s64`, several SASS instructions)",
        ),
        (
            "divconst32",
            5.0,
            "a division or remainder by a constant, at most 32 bits",
        ),
        (
            "divconst64",
            10.0,
            "a 64-bit division or remainder by a constant",
        ),
        (
            "div32",
            20.0,
            "a division or remainder by a runtime value, at most 32 bits",
        ),
        (
            "div64",
            40.0,
            "a 64-bit division or remainder by a runtime value",
        ),
        ("cmp", 1.0, "a comparison (`setp`)"),
        ("select", 1.0, "a select (`selp`)"),
        ("cast", 1.0, "an extension or truncation (`cvt`)"),
        (
            "index-cast-same-width",
            0.0,
            "an index_cast between i64 and index (no instruction)",
        ),
        (
            "tile-elem",
            1.0,
            "per element a thread holds: a tile cast or element-wise op",
        ),
        (
            "tile-convert",
            2.0,
            "per element a thread holds: a layout.convert (a shuffle or a trip through shared memory)",
        ),
        (
            "tile-view",
            1.0,
            "a shared-memory view such as permute_shared (no data moves; an op to lower)",
        ),
    ];

    /// The cost of the key at position `i` of [`CostModel::KEYS`] (the table keeps that order).
    fn at(&self, i: usize) -> f64 {
        self.table[i].1
    }

    /// The cost of `key`.
    pub fn get(&self, key: &str) -> f64 {
        self.table
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(1.0, |e| e.1)
    }

    /// Reads a cost file: one `key cost` pair per line, `#` comments. Errors name the line
    /// and column (1-based) and what is wrong.
    pub fn parse(text: &str) -> Result<CostModel, (usize, usize, String)> {
        let mut m = CostModel::default();
        for (i, line) in text.lines().enumerate() {
            let body = line.split('#').next().unwrap_or("");
            let mut words = body.split_whitespace();
            let Some(key) = words.next() else { continue };
            let col = line.find(key).unwrap_or(0) + 1;
            let Some(entry) = m.table.iter_mut().find(|(k, _)| *k == key) else {
                let known: Vec<&str> = Self::KEYS.iter().map(|k| k.0).collect();
                return Err((
                    i + 1,
                    col,
                    format!("unknown cost '{key}' (known: {})", known.join(", ")),
                ));
            };
            let Some(val) = words.next() else {
                return Err((i + 1, col + key.len(), format!("'{key}' needs a cost")));
            };
            let vcol = line.rfind(val).unwrap_or(0) + 1;
            match val.parse::<f64>() {
                Ok(c) if c >= 0.0 && c.is_finite() => entry.1 = c,
                _ => return Err((i + 1, vcol, format!("'{val}' is not a non-negative number"))),
            }
            if let Some(extra) = words.next() {
                let c = line.rfind(extra).unwrap_or(0) + 1;
                return Err((i + 1, c, format!("unexpected '{extra}' after the cost")));
            }
        }
        Ok(m)
    }

    /// The cost of computing `node` once (its children not included).
    pub fn node_cost(&self, eg: &EG, node: &Node) -> f64 {
        let Some(first) = node.children().first() else {
            return self.cost_of(node.kind, &[], &eg.analysis.tiles);
        };
        let mut kids: [&Facts; 4] = [&eg[*first].data; 4];
        for (k, c) in node.children().iter().enumerate() {
            kids[k] = &eg[*c].data;
        }
        self.cost_of(
            node.kind,
            &kids[..node.children().len()],
            &eg.analysis.tiles,
        )
    }

    /// The cost of computing an op of kind `kind` once, from its children's facts (`kids`, in
    /// order) and the tile types' information: [`CostModel::node_cost`] for a node that is
    /// not in a graph (an op folded while the graph is built).
    pub fn cost_of(
        &self,
        kind: Kind,
        kids: &[&Facts],
        tiles: &FxHashMap<tilus_ir::Type, super::lang::TileInfo>,
    ) -> f64 {
        let data = |i: usize| -> &Facts { kids[i] };
        match kind {
            Kind::Var(_)
            | Kind::Ty(_)
            | Kind::Pred(_)
            | Kind::Num(_)
            | Kind::TileTy(_)
            | Kind::Perm(_) => 0.0,
            Kind::Tile(i) => {
                let def = super::lang::TILE_OPS[i as usize].0;
                // A view moves nothing; the rest work on every element a thread holds.
                if std::ptr::eq(def, &tilus_dialects::tilus::PERMUTE_SHARED) {
                    return self.at(16);
                }
                let per_thread = match data(0).meta {
                    Some(Kind::TileTy(t)) => tiles.get(&t).map_or(1.0, |i| i.per_thread),
                    _ => 1.0,
                };
                let key = if std::ptr::eq(def, &tilus_dialects::layout::CONVERT) {
                    15
                } else {
                    14
                };
                per_thread * self.at(key)
            }
            Kind::Const => {
                let known = match (data(0).meta, data(1).meta) {
                    (Some(Kind::Ty(t)), Some(Kind::Num(n))) => self
                        .known_consts
                        .contains(&(t, n as u128 & tilus_dialects::arith::mask(t.width))),
                    _ => false,
                };
                if known {
                    0.0
                } else {
                    self.at(0)
                }
            }
            Kind::Cmp => self.at(10),
            Kind::Select => self.at(11),
            Kind::Cast(_) => {
                // Only index_cast keeps the width (between i64 and index).
                let (from, to) = (data(1).ty, data(0).meta);
                match (from, to) {
                    (Some(f), Some(Kind::Ty(t))) if f.width == t.width => self.at(13),
                    _ => self.at(12),
                }
            }
            Kind::Bin(i) => {
                let op = super::lang::BIN_OPS[i as usize].0;
                let wide = data(1).width() > 32;
                let by_const = data(2).konst().is_some();
                use IntBinOp::*;
                match op {
                    MulI => self.at(if wide { 5 } else { 4 }),
                    // A constant amount is a 32-bit literal (convert-arith-to-ptx), so only a
                    // runtime amount of a 64-bit shift needs its `cvt`.
                    ShLI | ShRSI | ShRUI => self.at(if wide && !by_const { 3 } else { 2 }),
                    DivSI | DivUI | RemSI | RemUI | CeilDivSI | FloorDivSI => {
                        self.at(match (by_const, wide) {
                            (true, false) => 6,
                            (true, true) => 7,
                            (false, false) => 8,
                            (false, true) => 9,
                        })
                    }
                    _ => self.at(1),
                }
            }
        }
    }
}

#[cfg(test)]
#[test]
fn key_positions_match_the_lookups() {
    // `node_cost` reads the table by position.
    let keys: Vec<&str> = CostModel::KEYS.iter().map(|k| k.0).collect();
    assert_eq!(
        keys,
        [
            "const",
            "add",
            "shift32",
            "shift64",
            "mul32",
            "mul64",
            "divconst32",
            "divconst64",
            "div32",
            "div64",
            "cmp",
            "select",
            "cast",
            "index-cast-same-width",
            "tile-elem",
            "tile-convert",
            "tile-view"
        ]
    );
}

impl Default for CostModel {
    fn default() -> CostModel {
        CostModel {
            table: Self::KEYS.iter().map(|(k, c, _)| (*k, *c)).collect(),
            known_consts: FxHashSet::default(),
        }
    }
}

/// A choice of one e-node per needed e-class.
pub type Choice = FxHashMap<Id, Node>;

/// The DAG cost of the program `choice` computes for `roots`: each class reachable from the
/// roots counted once. `None` when the choice has a cycle or misses a class.
pub fn dag_cost(eg: &EG, costs: &CostModel, choice: &Choice, roots: &[Id]) -> Option<f64> {
    let mut seen = FxHashSet::default();
    let mut on_path = FxHashSet::default();
    let mut total = 0.0;
    fn visit(
        eg: &EG,
        costs: &CostModel,
        choice: &Choice,
        id: Id,
        seen: &mut FxHashSet<Id>,
        on_path: &mut FxHashSet<Id>,
        total: &mut f64,
    ) -> Option<()> {
        let id = eg.find(id);
        if seen.contains(&id) {
            return Some(());
        }
        if !on_path.insert(id) {
            return None;
        }
        let node = choice.get(&id)?;
        for c in node.children() {
            visit(eg, costs, choice, *c, seen, on_path, total)?;
        }
        on_path.remove(&id);
        seen.insert(id);
        *total += costs.node_cost(eg, node);
        Some(())
    }
    for r in roots {
        visit(eg, costs, choice, *r, &mut seen, &mut on_path, &mut total)?;
    }
    Some(total)
}

/// Above this many classes, a DAG cost set is not kept and the class is costed as a tree
/// (its children's costs summed): keeps extraction linear in the size of the graph.
const SET_CAP: usize = 64;

/// Greedy DAG extraction (extraction-gym's `greedy-dag`): every class takes the node whose
/// sub-DAG (the union of its children's sub-DAGs, each class once) is cheapest, repeated
/// until nothing improves. A node is never chosen when its own class is in a child's sub-DAG,
/// so the choice is acyclic.
pub fn greedy_dag(eg: &EG, costs: &CostModel) -> Choice {
    let all: Vec<Id> = eg.classes().map(|c| c.id).collect();
    let dense = Dense::new(eg, &all, costs);
    let free = vec![false; dense.ids.len()];
    dense.to_choice(&dense.greedy(&free, false))
}

/// No node chosen (a [`DenseChoice`] entry), or no dense number (a class outside [`Dense`]).
const NONE: u32 = u32::MAX;

/// A choice over [`Dense`]'s classes: the index of the chosen node in its class's list, or
/// [`NONE`]. Extraction compares and combines choices in this form (vectors indexed by class)
/// and makes a [`Choice`] only of the one it returns: building a hash map per candidate
/// program and costing it through hash lookups was a third of extraction.
type DenseChoice = Vec<u32>;

/// The classes extraction looks at, numbered densely, with their nodes' own costs computed
/// once per extraction and shared by its greedy rounds. Extraction reads per-class state in
/// its inner loop, so it is kept in vectors indexed by this numbering instead of hash maps
/// keyed by e-class id (a third of extraction's instructions were hash lookups).
struct Dense {
    /// The classes, in egg's class order (the worklist's starting order).
    ids: Vec<Id>,
    /// The dense number of each e-class id ([`NONE`] outside).
    num: Vec<u32>,
    /// Each class's nodes, their children as dense numbers and their own costs.
    nodes: Vec<Vec<(Node, [u32; 4], f64)>>,
    /// Each class's parents among the classes looked at (dense numbers, in egg's order; a
    /// parent with several nodes here appears once per node).
    parents: Vec<Vec<u32>>,
    /// The number of class `i`'s first node when the nodes of all classes are numbered in
    /// order (`first[n]` is the total), for per-node state in one vector.
    first: Vec<u32>,
}

impl Dense {
    /// The classes reachable from `roots` through any node: no other class can be chosen.
    fn new(eg: &EG, roots: &[Id], costs: &CostModel) -> Dense {
        let len = eg
            .classes()
            .map(|c| usize::from(c.id) + 1)
            .max()
            .unwrap_or(0);
        let mut num = vec![NONE; len];
        let mut ids = Vec::new();
        let mut stack: Vec<Id> = roots.iter().map(|r| eg.find(*r)).collect();
        while let Some(c) = stack.pop() {
            if num[usize::from(c)] != NONE {
                continue;
            }
            num[usize::from(c)] = ids.len() as u32;
            ids.push(c);
            for n in &eg[c].nodes {
                stack.extend(n.children().iter().map(|x| eg.find(*x)));
            }
        }
        // Renumbered in egg's class order, which the worklist starts from.
        ids = eg
            .classes()
            .map(|c| c.id)
            .filter(|c| num[usize::from(*c)] != NONE)
            .collect();
        for (i, c) in ids.iter().enumerate() {
            num[usize::from(*c)] = i as u32;
        }
        let nodes: Vec<Vec<(Node, [u32; 4], f64)>> = ids
            .iter()
            .map(|c| {
                eg[*c]
                    .nodes
                    .iter()
                    .map(|n| {
                        let mut kids = [NONE; 4];
                        for (k, ch) in n.children().iter().enumerate() {
                            kids[k] = num[usize::from(eg.find(*ch))];
                        }
                        (n.clone(), kids, costs.node_cost(eg, n))
                    })
                    .collect()
            })
            .collect();
        // In egg's order (the worklist's order decides between equal costs).
        let parents = ids
            .iter()
            .map(|c| {
                eg[*c]
                    .parents()
                    .map(|p| num[usize::from(eg.find(p))])
                    .filter(|p| *p != NONE)
                    .collect()
            })
            .collect();
        let mut first = Vec::with_capacity(ids.len() + 1);
        let mut total = 0u32;
        for ns in &nodes {
            first.push(total);
            total += ns.len() as u32;
        }
        first.push(total);
        Dense {
            ids,
            num,
            nodes,
            parents,
            first,
        }
    }

    /// The dense number of class `id` (canonical), [`NONE`] outside.
    fn dense(&self, id: Id) -> u32 {
        self.num.get(usize::from(id)).copied().unwrap_or(NONE)
    }

    /// The [`Choice`] a dense choice stands for.
    fn to_choice(&self, choice: &[u32]) -> Choice {
        choice
            .iter()
            .enumerate()
            .filter(|(_, k)| **k != NONE)
            .map(|(i, k)| (self.ids[i], self.nodes[i][*k as usize].0.clone()))
            .collect()
    }

    /// `choice` in dense form, or `None` when it picks a node its class does not have (then
    /// it can only be costed by [`dag_cost`]). Classes outside [`Dense`] are dropped: the
    /// program for the roots never reaches them.
    fn densify(&self, eg: &EG, choice: &Choice) -> Option<DenseChoice> {
        let mut out = vec![NONE; self.ids.len()];
        for (id, node) in choice {
            let d = self.dense(eg.find(*id));
            if d == NONE {
                continue;
            }
            let k = self.nodes[d as usize]
                .iter()
                .position(|(n, _, _)| n == node)?;
            out[d as usize] = k as u32;
        }
        Some(out)
    }

    /// [`dag_cost`] of a dense choice: the same walk (roots in order, children in order, each
    /// class's cost added after its children's), so the same sum; `None` on a cycle or a
    /// class without a choice.
    fn dag_cost(&self, choice: &[u32], roots: &[u32]) -> Option<f64> {
        // 0: not seen, 1: on the path, 2: done.
        let mut state = vec![0u8; self.ids.len()];
        let mut total = 0.0;
        let mut stack: Vec<(u32, u8)> = Vec::new();
        for &r in roots {
            if r == NONE {
                return None;
            }
            stack.push((r, 0));
            while let Some(&mut (c, ref mut next)) = stack.last_mut() {
                let ci = c as usize;
                if *next == 0 {
                    match state[ci] {
                        2 => {
                            stack.pop();
                            continue;
                        }
                        1 => return None,
                        _ => {}
                    }
                    if choice[ci] == NONE {
                        return None;
                    }
                    state[ci] = 1;
                }
                let (node, kids, own) = &self.nodes[ci][choice[ci] as usize];
                let k = *next as usize;
                if k < node.children().len() {
                    *next += 1;
                    if kids[k] == NONE {
                        return None;
                    }
                    stack.push((kids[k], 0));
                } else {
                    state[ci] = 2;
                    total += *own;
                    stack.pop();
                }
            }
        }
        Some(total)
    }

    /// The classes of the program `choice` computes for `roots` that stay needed whatever one
    /// user of them chooses: the roots, and the classes with several users.
    fn shared(&self, choice: &[u32], roots: &[u32]) -> Vec<bool> {
        let n = self.ids.len();
        let mut users = vec![0u32; n];
        let mut seen = vec![false; n];
        let mut stack: Vec<u32> = roots.to_vec();
        while let Some(c) = stack.pop() {
            if c == NONE || std::mem::replace(&mut seen[c as usize], true) {
                continue;
            }
            let k = choice[c as usize];
            if k == NONE {
                continue;
            }
            let (node, kids, _) = &self.nodes[c as usize][k as usize];
            let mut distinct: [u32; 4] = [NONE; 4];
            let kids = &kids[..node.children().len()];
            for (i, kid) in kids.iter().enumerate() {
                if *kid != NONE && !distinct[..i].contains(kid) {
                    users[*kid as usize] += 1;
                }
                distinct[i] = *kid;
            }
            stack.extend_from_slice(kids);
        }
        let mut free: Vec<bool> = users.iter().map(|u| *u >= 2).collect();
        for r in roots {
            if *r != NONE {
                free[*r as usize] = true;
            }
        }
        free
    }

    /// Greedy DAG extraction where a reference to a class marked in `free` costs nothing.
    fn greedy(&self, free: &[bool], reverse: bool) -> DenseChoice {
        let n = self.ids.len();
        let mut best: Vec<Option<Best>> = vec![None; n];
        // A worklist, leaves first: a class is looked at again only when a child got cheaper.
        let mut queue: std::collections::VecDeque<u32> = if reverse {
            (0..n as u32).rev().collect()
        } else {
            (0..n as u32).collect()
        };
        let mut queued = vec![true; n];
        let mut budget = 64 * n + 1024;
        // The candidate's sub-DAG set is built here and copied into `best` only when kept.
        let mut scratch = Scratch::default();
        // A node whose children's choices have not changed since it was last costed costs
        // the same again, and a class's best only gets cheaper, so it cannot win now if it did
        // not then: `tick` counts changes of choice, `changed[c]` is the tick of class `c`'s
        // last change and `costed[i]` the tick at which node `i` (numbered across classes)
        // was last costed (`NONE`: never).
        let mut tick: u32 = 0;
        let mut changed = vec![0u32; n];
        let mut costed = vec![NONE; self.first[n] as usize];
        while let Some(cid) = queue.pop_front() {
            queued[cid as usize] = false;
            if budget == 0 {
                break;
            }
            budget -= 1;
            let mut improved = false;
            let first = self.first[cid as usize] as usize;
            for (k, (node, kids, own)) in self.nodes[cid as usize].iter().enumerate() {
                let at = costed[first + k];
                let kids_of = &kids[..node.children().len()];
                if at != NONE
                    && kids_of
                        .iter()
                        .all(|c| *c == NONE || changed[*c as usize] <= at)
                {
                    continue;
                }
                costed[first + k] = tick;
                let Some((cost, with_set, set_sum)) =
                    candidate(*own, &best, free, cid, node, kids, &mut scratch)
                else {
                    continue;
                };
                let better = match &best[cid as usize] {
                    None => true,
                    Some(b) => cost + 1e-9 < b.cost,
                };
                if better {
                    let slot = &mut best[cid as usize];
                    // Reuse the replaced choice's set buffer.
                    let mut buf = slot.take().and_then(|b| b.set).unwrap_or_default();
                    let set = with_set.then(|| {
                        buf.clear();
                        buf.extend_from_slice(&scratch.set);
                        buf
                    });
                    *slot = Some(Best {
                        cost,
                        node: k as u32,
                        set,
                        set_sum,
                    });
                    tick += 1;
                    changed[cid as usize] = tick;
                    improved = true;
                }
            }
            if improved {
                for p in &self.parents[cid as usize] {
                    if !queued[*p as usize] {
                        queued[*p as usize] = true;
                        queue.push_back(*p);
                    }
                }
            }
        }
        best.into_iter()
            .map(|b| b.map_or(NONE, |b| b.node))
            .collect()
    }
}

#[derive(Clone)]
struct Best {
    cost: f64,
    /// The chosen node's index in its class's list.
    node: u32,
    /// The classes under the choice (dense numbers) with their own costs, sorted; `None` past
    /// [`SET_CAP`].
    set: Option<Vec<(u32, f64)>>,
    /// The sum of `set`'s costs.
    set_sum: f64,
}

/// Buffers [`candidate`] builds a sub-DAG set in, kept across candidates so that costing one
/// allocates nothing.
#[derive(Default)]
struct Scratch {
    set: Vec<(u32, f64)>,
    merged: Vec<(u32, f64)>,
}

/// The default extraction for `roots`: the cheaper of [`greedy_dag`] and `start` (the
/// program as it was, so extraction never makes it worse), then rounds of greedy DAG extraction
/// in which the classes the previous choice already computes are free to reuse, kept while
/// the whole program gets cheaper. Greedy alone costs each class as if it were the only
/// root, so it misses that `b + x*64` is already paid for by another root when choosing
/// `(b + x*64) + x*2` over `b + x*66`. Only classes that stay needed count as free (the
/// roots, and classes with several users): a class used once is free only as long as that
/// one use stays, so counting it free would keep a choice for no reason. Only classes
/// reachable from the roots are looked at. Returns the choice and its DAG cost.
pub fn extract(
    eg: &EG,
    costs: &CostModel,
    roots: &[Id],
    start: Option<Choice>,
) -> Option<(Choice, f64)> {
    let dense = Dense::new(eg, roots, costs);
    let droots: Vec<u32> = roots.iter().map(|r| dense.dense(eg.find(*r))).collect();
    // A program is either a dense choice or, for a start that names a node its class lacks,
    // the start itself.
    enum Program {
        Dense(DenseChoice),
        Start(Choice),
    }
    // Greedy breaks ties between equal costs by the order it meets classes, and which tie it
    // keeps changes what later rounds can share, so each step tries the worklist started in
    // both orders and keeps the cheaper program.
    let consider_dense = |c: DenseChoice, best: &mut Option<(Program, f64)>| {
        if let Some(cost) = dense.dag_cost(&c, &droots) {
            if best.as_ref().is_none_or(|b| cost + 1e-9 < b.1) {
                *best = Some((Program::Dense(c), cost));
            }
        }
    };
    let mut best: Option<(Program, f64)> = None;
    // The program as it was first, so it wins ties.
    if let Some(s) = start {
        match dense.densify(eg, &s) {
            Some(d) => consider_dense(d, &mut best),
            None => {
                if let Some(cost) = dag_cost(eg, costs, &s, roots) {
                    best = Some((Program::Start(s), cost));
                }
            }
        }
    }
    let free = vec![false; dense.ids.len()];
    for reverse in [false, true] {
        consider_dense(dense.greedy(&free, reverse), &mut best);
    }
    let (mut best, mut cost) = best?;
    for _ in 0..4 {
        let free = match &best {
            Program::Dense(d) => dense.shared(d, &droots),
            Program::Start(s) => {
                let mut f = vec![false; dense.ids.len()];
                for c in shared_ids(eg, s, roots) {
                    let d = dense.dense(c);
                    if d != NONE {
                        f[d as usize] = true;
                    }
                }
                f
            }
        };
        let mut round = None;
        for reverse in [false, true] {
            consider_dense(dense.greedy(&free, reverse), &mut round);
        }
        match round {
            Some((c, k)) if k + 1e-9 < cost => {
                best = c;
                cost = k;
            }
            _ => break,
        }
    }
    let choice = match best {
        Program::Dense(d) => dense.to_choice(&d),
        Program::Start(s) => s,
    };
    Some((choice, cost))
}

/// The classes of the program `choice` computes for `roots` that stay needed whatever one
/// user of them chooses: [`Dense::shared`] for a start that is not in dense form.
fn shared_ids(eg: &EG, choice: &Choice, roots: &[Id]) -> FxHashSet<Id> {
    let mut users: FxHashMap<Id, u32> = FxHashMap::default();
    for c in reachable(eg, choice, roots) {
        if let Some(n) = choice.get(&c) {
            let mut kids: Vec<Id> = n.children().iter().map(|x| eg.find(*x)).collect();
            kids.sort();
            kids.dedup();
            for k in kids {
                *users.entry(k).or_default() += 1;
            }
        }
    }
    let mut free: FxHashSet<Id> = users
        .into_iter()
        .filter(|(_, n)| *n >= 2)
        .map(|(c, _)| c)
        .collect();
    free.extend(roots.iter().map(|r| eg.find(*r)));
    free
}

/// The classes the program `choice` computes for `roots`.
pub fn reachable(eg: &EG, choice: &Choice, roots: &[Id]) -> FxHashSet<Id> {
    let mut seen = FxHashSet::default();
    let mut stack: Vec<Id> = roots.iter().map(|r| eg.find(*r)).collect();
    while let Some(c) = stack.pop() {
        if !seen.insert(c) {
            continue;
        }
        if let Some(n) = choice.get(&c) {
            stack.extend(n.children().iter().map(|x| eg.find(*x)));
        }
    }
    seen
}

/// The cost of choosing `node` for class `cid` given the children's current best choices:
/// `(cost, whether scratch.set holds its sub-DAG set, that set's sum)`, or `None` when a
/// child has no choice yet or the node would make a cycle.
fn candidate(
    own: f64,
    best: &[Option<Best>],
    free: &[bool],
    cid: u32,
    node: &Node,
    kids: &[u32; 4],
    scratch: &mut Scratch,
) -> Option<(f64, bool, f64)> {
    let s = &mut scratch.set;
    s.clear();
    let mut with_set = true;
    let mut tree_sum = own;
    for &c in &kids[..node.children().len()] {
        if c == cid {
            return None;
        }
        let b = best[c as usize].as_ref()?;
        if free[c as usize] {
            continue;
        }
        tree_sum += b.cost;
        if !with_set {
            continue;
        }
        let Some(cs) = &b.set else {
            with_set = false;
            continue;
        };
        if cs.binary_search_by_key(&cid, |e| e.0).is_ok() {
            return None;
        }
        let child_own = b.cost - b.set_sum;
        if s.is_empty() {
            // The first costed child: its set as it is (no merge).
            s.extend_from_slice(cs);
        } else if !cs.is_empty() {
            let merged = &mut scratch.merged;
            merged.clear();
            let (mut i, mut j) = (0, 0);
            while i < s.len() || j < cs.len() {
                if j == cs.len() || (i < s.len() && s[i].0 < cs[j].0) {
                    merged.push(s[i]);
                    i += 1;
                } else if i == s.len() || cs[j].0 < s[i].0 {
                    merged.push(cs[j]);
                    j += 1;
                } else {
                    merged.push(s[i]);
                    i += 1;
                    j += 1;
                }
            }
            std::mem::swap(s, merged);
        }
        if let Err(p) = s.binary_search_by_key(&c, |e| e.0) {
            s.insert(p, (c, child_own));
        }
        if s.len() > SET_CAP {
            with_set = false;
        }
    }
    if with_set {
        let sum = s.iter().map(|e| e.1).sum::<f64>();
        Some((own + sum, true, sum))
    } else {
        Some((tree_sum, false, 0.0))
    }
}

/// The optimal DAG extraction for `roots` by enumerating one node per reachable class, when
/// there are at most `max_choices` combinations; `None` otherwise. Tests only.
pub fn exact(eg: &EG, costs: &CostModel, roots: &[Id], max_choices: u64) -> Option<(f64, Choice)> {
    // Classes that any node reachable from the roots may need.
    let mut classes = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack: Vec<Id> = roots.iter().map(|r| eg.find(*r)).collect();
    while let Some(c) = stack.pop() {
        if !seen.insert(c) {
            continue;
        }
        classes.push(c);
        for n in &eg[c].nodes {
            for ch in n.children() {
                stack.push(eg.find(*ch));
            }
        }
    }
    let mut combos: u64 = 1;
    for c in &classes {
        combos = combos.checked_mul(eg[*c].nodes.len() as u64)?;
        if combos > max_choices {
            return None;
        }
    }
    let mut idx = vec![0usize; classes.len()];
    let mut best: Option<(f64, Choice)> = None;
    loop {
        let choice: Choice = classes
            .iter()
            .zip(&idx)
            .map(|(c, i)| (*c, eg[*c].nodes[*i].clone()))
            .collect();
        if let Some(cost) = dag_cost(eg, costs, &choice, roots) {
            if best.as_ref().is_none_or(|b| cost < b.0) {
                best = Some((cost, choice));
            }
        }
        // Next combination (odometer).
        let mut k = 0;
        loop {
            if k == idx.len() {
                return best;
            }
            idx[k] += 1;
            if idx[k] < eg[classes[k]].nodes.len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}
