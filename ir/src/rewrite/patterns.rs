//! Rewrite patterns ([`Pattern`]) and sets of them ordered by benefit ([`PatternSet`]).

use super::Rewriter;
use crate::context::{Context, OpId, OpName};
use rustc_hash::FxHashMap;

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
