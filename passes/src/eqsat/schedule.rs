//! The rule rounds of `eqsat`: egg's `Runner` loop and backoff scheduler, with each rule
//! searched only where its matches can have changed.
//!
//! egg's runner searches every rule over every class with the rule's root operator in every
//! round and applies every match again, though a match whose classes did not change since it
//! was applied finds its right side already in its class. Here each round starts by comparing
//! every class with what it was at the start of the round before (its nodes, which `rebuild`
//! keeps canonical, and its facts); a rule is then searched only over the classes that changed
//! since the round whose matches it last applied, and over their ancestors up to the pattern's
//! height (a match reads the classes down to that depth, and the facts of its variables). A
//! match anywhere else was applied then and adding it again changes nothing.
//!
//! The backoff scheduler bans a rule for a few rounds when a round finds more matches than its
//! limit. To ban the same rules as egg's scheduler, each rule keeps the number of matches it
//! found in each class at its last search; the count it is judged by is those of the unchanged
//! classes plus what the new search found, which is the number egg's full search finds. The
//! limits (nodes, rounds, time), where they are checked and the stop reasons are egg's.
//!
//! The changed classes are searched in the order egg's search visits them (`classes_for_op`),
//! so matches are applied in the order egg applies them: the graphs are the same either way,
//! but the order numbers the classes, extraction breaks ties by class order, and walking the
//! region in id order moved single kernels' PTX by a few instructions.

use super::lang::{EqAnalysis, Node, EG};
use egg::{ENodeOrVar, Id, Language, Rewrite, SearchMatches, StopReason};
use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// The limits of one block's rounds (egg's `RunnerLimits`) and the backoff scheduler's
/// parameters (egg's defaults in the pass: [`MATCH_LIMIT`], [`BAN_LENGTH`]).
pub struct Limits {
    /// E-nodes (egg's `total_size`) beyond which the rounds stop, checked after each rule.
    pub nodes: usize,
    /// Rounds after which they stop.
    pub iterations: usize,
    /// Time from the start of the rounds after which they stop, checked after each rule.
    pub time: Duration,
    /// Matches a rule may find in one round before it is banned (doubled at each ban).
    pub match_limit: usize,
    /// Rounds of a rule's first ban (doubled at each ban).
    pub ban_length: usize,
}

/// What the rounds did, as egg's `Runner` reports it.
pub struct Outcome {
    /// Rounds run, counting the one that found a limit reached (egg's `iterations.len()`).
    pub iterations: usize,
    /// Why the rounds ended (the statistics' `stop-*` counters).
    pub stop: StopReason,
}

/// egg's `BackoffScheduler` default match limit, which the pass uses.
pub const MATCH_LIMIT: usize = 1_000;
/// egg's `BackoffScheduler` default ban length, which the pass uses.
pub const BAN_LENGTH: usize = 5;

/// One rule's scheduler state and its search cache.
struct RuleState {
    times_banned: usize,
    banned_until: usize,
    /// The round whose matches this rule last applied (all classes unchanged since then have
    /// had their matches applied).
    applied: Option<usize>,
    /// The round of the search `counts` describes, when it was complete.
    counted: Option<usize>,
    /// Matches per class at that search (classes without a match are absent) and their sum.
    counts: Vec<usize>,
    total: usize,
}

/// A rule pattern's root operator and its height; `None` for a searcher without a pattern,
/// which is searched in full every round.
type Shape = Option<(<Node as Language>::Discriminant, usize)>;

/// Each class's distance from the changed classes (see [`changed_region`]).
type Region = Vec<u8>;

/// The height of pattern node `p`: the longest path from it to a leaf of the pattern.
fn height(ast: &[ENodeOrVar<Node>], p: Id) -> usize {
    match &ast[usize::from(p)] {
        ENodeOrVar::Var(_) => 0,
        ENodeOrVar::ENode(n) => n
            .children()
            .iter()
            .map(|c| 1 + height(ast, *c))
            .max()
            .unwrap_or(0),
    }
}

/// A class as last seen: the hash of its (canonical, sorted) nodes, its facts, the round it
/// last changed in and the last round it was seen in.
struct SeenClass {
    nodes: u64,
    facts: <EqAnalysis as egg::Analysis<Node>>::Data,
    changed: usize,
    seen: usize,
}

/// Runs the rules over `eg` until saturation or a limit, as egg's `Runner` with its default
/// `BackoffScheduler` would, but searching incrementally (see the module docs).
pub fn run(eg: &mut EG, rules: &[Rewrite<Node, EqAnalysis>], limits: &Limits) -> Outcome {
    let start = Instant::now();
    let check = |eg: &EG, iteration: usize| -> Result<(), StopReason> {
        let elapsed = start.elapsed();
        if elapsed > limits.time {
            return Err(StopReason::TimeLimit(elapsed.as_secs_f64()));
        }
        let size = eg.total_size();
        if size > limits.nodes {
            return Err(StopReason::NodeLimit(size));
        }
        if iteration >= limits.iterations {
            return Err(StopReason::IterationLimit(iteration));
        }
        Ok(())
    };
    let shapes: Vec<Shape> = rules
        .iter()
        .map(|rw| {
            rw.searcher.get_pattern_ast().and_then(|ast| {
                let root = Id::from(ast.as_ref().len().checked_sub(1)?);
                let ENodeOrVar::ENode(r) = &ast[root] else {
                    return None;
                };
                Some((r.discriminant(), height(ast.as_ref(), root)))
            })
        })
        .collect();
    let mut states: Vec<RuleState> = rules
        .iter()
        .map(|_| RuleState {
            times_banned: 0,
            banned_until: 0,
            applied: None,
            counted: None,
            counts: Vec::new(),
            total: 0,
        })
        .collect();
    let max_radius = shapes.iter().flatten().map(|s| s.1).max().unwrap_or(0);
    let mut seen = Seen::default();
    // Classes that stopped being canonical, with the round that found them gone.
    let mut gone: Vec<(usize, Id)> = Vec::new();
    eg.rebuild();
    let mut iteration = 0;
    loop {
        let mut result = check(eg, iteration);
        let nodes_before = eg.total_size();
        let classes_before = eg.number_of_classes();
        let mut any_applied = false;
        if result.is_ok() {
            note_changes(eg, iteration, &mut seen, &mut gone);
            let mut sets: FxHashMap<usize, Region> = FxHashMap::default();
            let mut matches: Vec<Vec<SearchMatches<'_, Node>>> = Vec::with_capacity(rules.len());
            for ((rw, st), shape) in rules.iter().zip(states.iter_mut()).zip(&shapes) {
                let ms = search(
                    eg, rw, shape, st, iteration, &seen, &gone, &mut sets, max_radius, limits,
                );
                matches.push(ms);
                result = check(eg, iteration);
                if result.is_err() {
                    break;
                }
            }
            if result.is_ok() {
                for (rw, ms) in rules.iter().zip(matches) {
                    if !ms.is_empty() && !rw.apply(eg, &ms).is_empty() {
                        any_applied = true;
                    }
                    result = check(eg, iteration);
                    if result.is_err() {
                        break;
                    }
                }
            }
        }
        eg.rebuild();
        if result.is_ok()
            && !any_applied
            && can_stop(&mut states, iteration)
            && nodes_before == eg.total_size()
            && classes_before == eg.number_of_classes()
        {
            result = Err(StopReason::Saturated);
        }
        iteration += 1;
        if let Err(stop) = result.and_then(|_| check(eg, iteration)) {
            return Outcome {
                iterations: iteration,
                stop,
            };
        }
    }
}

/// What the rounds know of the classes: each id's class as last seen (indexed by id) and the
/// ids that were classes at the last round's start.
#[derive(Default)]
struct Seen {
    by_id: Vec<Option<SeenClass>>,
    alive: Vec<Id>,
}

/// Compares every class with what it was at the last round's start; a class that is new or
/// whose nodes or facts differ is marked changed in round `iteration`, and the ids that are no
/// longer classes go to `gone`.
fn note_changes(eg: &EG, iteration: usize, seen: &mut Seen, gone: &mut Vec<(usize, Id)>) {
    let mut alive = Vec::with_capacity(eg.number_of_classes());
    for class in eg.classes() {
        let mut h = rustc_hash::FxHasher::default();
        class.nodes.hash(&mut h);
        let nodes = h.finish();
        let i = usize::from(class.id);
        if seen.by_id.len() <= i {
            seen.by_id.resize_with(i + 1, || None);
        }
        match &mut seen.by_id[i] {
            Some(old) if old.nodes == nodes && old.facts == class.data => {
                old.seen = iteration;
            }
            slot => {
                *slot = Some(SeenClass {
                    nodes,
                    facts: class.data.clone(),
                    changed: iteration,
                    seen: iteration,
                })
            }
        }
        alive.push(class.id);
    }
    for id in std::mem::replace(&mut seen.alive, alive) {
        let slot = &mut seen.by_id[usize::from(id)];
        if slot.as_ref().is_some_and(|c| c.seen != iteration) {
            *slot = None;
            gone.push((iteration, id));
        }
    }
}

/// Whether class `id` changed after the start of round `since`.
fn changed_after(seen: &Seen, id: Id, since: usize) -> bool {
    seen.by_id
        .get(usize::from(id))
        .and_then(|c| c.as_ref())
        .is_some_and(|c| c.changed > since)
}

/// The distance (in parent steps, at most `radius`) of each class from the nearest class
/// changed after the start of round `since`, indexed by class id; `u8::MAX` for the classes
/// farther away. A pattern of height `h` can match differently only at distance `h` or less.
fn changed_region(eg: &EG, seen: &Seen, since: usize, radius: usize) -> Region {
    let mut dist = vec![u8::MAX; seen.by_id.len()];
    let mut frontier: Vec<Id> = Vec::new();
    for &id in &seen.alive {
        if changed_after(seen, id, since) {
            dist[usize::from(id)] = 0;
            frontier.push(id);
        }
    }
    for d in 1..=radius.min(u8::MAX as usize - 1) {
        let mut next = Vec::new();
        for id in frontier {
            for p in eg[id].parents() {
                let p = eg.find(p);
                let slot = &mut dist[usize::from(p)];
                if *slot == u8::MAX {
                    *slot = d as u8;
                    next.push(p);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    dist
}

/// Whether class `id` is within `radius` of a changed class of `region`.
fn inside(region: &Region, id: Id, radius: usize) -> bool {
    region
        .get(usize::from(id))
        .is_some_and(|d| (*d as usize) <= radius)
}

/// One rule's search in round `iteration`: the matches to apply, or none when the rule is
/// banned (egg's `BackoffScheduler::search_rewrite`, over the changed region only).
#[allow(clippy::too_many_arguments)]
fn search<'a>(
    eg: &EG,
    rw: &'a Rewrite<Node, EqAnalysis>,
    shape: &Shape,
    st: &mut RuleState,
    iteration: usize,
    seen: &Seen,
    gone: &[(usize, Id)],
    sets: &mut FxHashMap<usize, Region>,
    max_radius: usize,
    limits: &Limits,
) -> Vec<SearchMatches<'a, Node>> {
    if iteration < st.banned_until {
        return Vec::new();
    }
    let threshold = limits
        .match_limit
        .checked_shl(st.times_banned as u32)
        .unwrap();
    let ban = |st: &mut RuleState| {
        let ban_length = limits.ban_length << st.times_banned;
        st.times_banned += 1;
        st.banned_until = iteration + ban_length;
    };
    let Some((root_kind, radius)) = shape else {
        let ms = rw
            .searcher
            .search_with_limit(eg, threshold.saturating_add(1));
        let total: usize = ms.iter().map(|m| m.substs.len()).sum();
        if total > threshold {
            ban(st);
            return Vec::new();
        }
        return ms;
    };
    let mut limit = threshold.saturating_add(1);
    let mut found = Vec::new();
    let mut complete = true;
    // The searcher's own per-class search (for [`super::rules::Shaped`], behind its shape
    // test).
    let visit = |id: Id, limit: &mut usize, found: &mut Vec<SearchMatches<'a, Node>>| -> usize {
        match rw.searcher.search_eclass_with_limit(eg, id, *limit) {
            Some(m) => {
                let n = m.substs.len();
                *limit = limit.saturating_sub(n);
                found.push(m);
                n
            }
            None => 0,
        }
    };
    // Searches `classes` in order while the limit lasts, caching each class's match count;
    // returns the matches found.
    let scan = |classes: &mut dyn Iterator<Item = Id>,
                limit: &mut usize,
                found: &mut Vec<SearchMatches<'a, Node>>,
                counts: &mut Vec<usize>,
                complete: &mut bool|
     -> usize {
        let mut sum = 0;
        for id in classes {
            if *limit == 0 {
                *complete = false;
                break;
            }
            let n = visit(id, limit, found);
            if n > 0 {
                set_count(counts, id, n);
                sum += n;
            }
        }
        sum
    };
    let new_total;
    match (st.counted, st.applied) {
        (Some(counted), Some(applied)) if counted >= applied => {
            // Drop what the cache says of the classes searched again and of the gone ones.
            let start = gone.partition_point(|(r, _)| *r <= counted);
            for (_, id) in &gone[start..] {
                if let Some(n) = st.counts.get_mut(usize::from(*id)) {
                    st.total -= std::mem::take(n);
                }
            }
            let region = sets
                .entry(applied)
                .or_insert_with(|| changed_region(eg, seen, applied, max_radius));
            // In egg's order of the classes with the root operator, so that matches are
            // applied in the order egg's search finds them.
            let classes: Vec<Id> = eg
                .classes_for_op(root_kind)
                .map(|cs| cs.filter(|id| inside(region, *id, *radius)).collect())
                .unwrap_or_default();
            for id in &classes {
                if let Some(n) = st.counts.get_mut(usize::from(*id)) {
                    st.total -= std::mem::take(n);
                }
            }
            limit = limit.saturating_sub(st.total);
            new_total = st.total
                + scan(
                    &mut classes.iter().copied(),
                    &mut limit,
                    &mut found,
                    &mut st.counts,
                    &mut complete,
                );
        }
        _ => {
            // No usable cache: search every class with the root operator, in egg's order.
            st.counts.iter_mut().for_each(|n| *n = 0);
            new_total = eg.classes_for_op(root_kind).map_or(0, |mut classes| {
                scan(
                    &mut classes,
                    &mut limit,
                    &mut found,
                    &mut st.counts,
                    &mut complete,
                )
            });
            if let Some(applied) = st.applied {
                // Matches in classes whose region is unchanged since the last application
                // need not be applied again.
                let region = sets
                    .entry(applied)
                    .or_insert_with(|| changed_region(eg, seen, applied, max_radius));
                found.retain(|m| inside(region, m.eclass, *radius));
            }
        }
    }
    st.total = new_total;
    st.counted = complete.then_some(iteration);
    if new_total > threshold || !complete {
        ban(st);
        return Vec::new();
    }
    st.applied = Some(iteration);
    found
}

/// egg's `BackoffScheduler::can_stop`: with every rule free the rules are saturated; else the
/// bans are moved forward so that the first ends now, and the rounds go on.
fn can_stop(states: &mut [RuleState], iteration: usize) -> bool {
    let min_ban = states
        .iter()
        .filter(|s| s.banned_until > iteration)
        .map(|s| s.banned_until)
        .min();
    let Some(min_ban) = min_ban else {
        return true;
    };
    let delta = min_ban - iteration;
    for s in states.iter_mut().filter(|s| s.banned_until > iteration) {
        s.banned_until -= delta;
    }
    false
}

/// Records `n` matches in class `id`.
fn set_count(counts: &mut Vec<usize>, id: Id, n: usize) {
    let i = usize::from(id);
    if counts.len() <= i {
        counts.resize(i + 1, 0);
    }
    counts[i] = n;
}
