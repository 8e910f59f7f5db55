//! Rewrite patterns ([`Pattern`]) and sets of them ordered by benefit ([`PatternSet`]).

use super::{Pattern, Rewriter};
use crate::context::{Context, OpId, OpName};
use rustc_hash::FxHashMap;

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
