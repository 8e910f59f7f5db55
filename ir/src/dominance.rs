//! Dominance: which blocks and values dominate which uses, shared by the verifier, CSE and any
//! pass that moves or merges computations.
//!
//! - [`DomTree`]: the dominator tree of one region's [`Cfg`] (Cooper, Harvey and Kennedy's
//!   iterative algorithm over reverse post-order), with constant-time block queries;
//! - [`Dominance`]: MLIR's `DominanceInfo`, trees for every region built on demand, and the
//!   SSA rule for values: a use is dominated by a definition in an enclosing region when the
//!   definition's block dominates the block holding the use (or, in one block, comes first).
//!
//! Following MLIR (and LLVM), a block the entry does not reach is dominated by every block, so
//! the verifier does not check uses there: such code never runs, and passes that leave it
//! behind (a branch folded to one side) must not make the IR invalid. Both are snapshots of
//! the IR as it was; recompute (or [`Dominance::invalidate`]) after changing blocks or moving
//! ops.

use crate::cfg::Cfg;
use crate::context::{BlockId, Context, OpId, RegionId, Value, ValueDef};
use crate::opdef::Trait;
use rustc_hash::FxHashMap;

/// The dominator tree of one region.
#[derive(Clone, Debug)]
pub struct DomTree {
    cfg: Cfg,
    /// Immediate dominator of each block by region index; `None` for the entry and for
    /// unreachable blocks.
    idom: Vec<Option<usize>>,
    /// Tree children of each block, in reverse post-order.
    children: Vec<Vec<usize>>,
    /// Pre- and post-order numbers in the tree: `a` dominates `b` when `a`'s interval holds
    /// `b`'s.
    enter: Vec<u32>,
    exit: Vec<u32>,
}

impl DomTree {
    /// The dominator tree of region `r` as it is now.
    pub fn new(ctx: &Context, r: RegionId) -> DomTree {
        DomTree::from_cfg(Cfg::new(ctx, r))
    }

    /// The dominator tree of a graph already built.
    pub fn from_cfg(cfg: Cfg) -> DomTree {
        let n = cfg.blocks().len();
        let rpo = cfg.rpo_indices().to_vec();
        // Position of each block in reverse post-order (usize::MAX: unreachable).
        let mut order = vec![usize::MAX; n];
        for (k, &i) in rpo.iter().enumerate() {
            order[i] = k;
        }
        // Immediate dominators as reverse post-order positions.
        let mut idom_rpo: Vec<Option<usize>> = vec![None; rpo.len()];
        if !rpo.is_empty() {
            idom_rpo[0] = Some(0);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for k in 1..rpo.len() {
                let mut new: Option<usize> = None;
                for &p in cfg.pred_indices(rpo[k]) {
                    let pk = order[p];
                    if pk == usize::MAX || idom_rpo[pk].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => pk,
                        Some(mut a) => {
                            let mut b = pk;
                            while a != b {
                                while a > b {
                                    a = idom_rpo[a].expect("processed blocks have an idom");
                                }
                                while b > a {
                                    b = idom_rpo[b].expect("processed blocks have an idom");
                                }
                            }
                            a
                        }
                    });
                }
                if new.is_some() && idom_rpo[k] != new {
                    idom_rpo[k] = new;
                    changed = true;
                }
            }
        }
        let mut idom = vec![None; n];
        let mut children = vec![Vec::new(); n];
        for k in 1..rpo.len() {
            if let Some(p) = idom_rpo[k] {
                idom[rpo[k]] = Some(rpo[p]);
                children[rpo[p]].push(rpo[k]);
            }
        }
        let mut enter = vec![u32::MAX; n];
        let mut exit = vec![0; n];
        if let Some(&root) = rpo.first() {
            let mut clock = 0u32;
            let mut stack = vec![(root, 0usize)];
            enter[root] = clock;
            while let Some(top) = stack.last_mut() {
                let b = top.0;
                if let Some(&c) = children[b].get(top.1) {
                    top.1 += 1;
                    clock += 1;
                    enter[c] = clock;
                    stack.push((c, 0));
                } else {
                    clock += 1;
                    exit[b] = clock;
                    stack.pop();
                }
            }
        }
        DomTree {
            cfg,
            idom,
            children,
            enter,
            exit,
        }
    }

    /// The graph the tree was built from.
    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }
    /// The immediate dominator of `b` (`None` for the entry, unreachable blocks and blocks of
    /// other regions).
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        let i = self.cfg.index_of(b)?;
        self.idom[i].map(|p| self.cfg.blocks()[p])
    }
    /// The blocks `b` immediately dominates, in reverse post-order: walking them recursively
    /// from the entry visits every reachable block after all of its dominators.
    pub fn children(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.cfg
            .index_of(b)
            .into_iter()
            .flat_map(move |i| self.children[i].iter().map(|&c| self.cfg.blocks()[c]))
    }
    /// Whether every path from the entry to `b` passes through `a` (a block dominates itself).
    /// An unreachable `b` is dominated by every block of the region; an unreachable `a`
    /// dominates only unreachable blocks. Blocks of other regions dominate nothing here.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        let (Some(ai), Some(bi)) = (self.cfg.index_of(a), self.cfg.index_of(b)) else {
            return false;
        };
        if !self.cfg.is_reachable(b) {
            return true;
        }
        if !self.cfg.is_reachable(a) {
            return false;
        }
        self.enter[ai] <= self.enter[bi] && self.exit[bi] <= self.exit[ai]
    }
    /// [`DomTree::dominates`] for distinct blocks.
    pub fn properly_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a != b && self.dominates(a, b)
    }
}

/// Whether values of region `r` may be used before their definition (MLIR's graph regions):
/// the module body, regions of ops without terminators, and single-block regions of
/// unregistered ops (MLIR cannot know their kind and assumes the permissive one only there).
/// In such regions there is no dominance to check.
pub fn is_graph_region(ctx: &Context, r: RegionId) -> bool {
    let Some(p) = ctx.region_parent(r) else {
        return true;
    };
    match ctx.op_def(p) {
        None => ctx.region_blocks(r).len() <= 1,
        Some(d) => d.has(Trait::NoTerminator) || d.name == "builtin.module",
    }
}

/// Dominance over a whole op tree: a [`DomTree`] per region, built when first asked, and the
/// positions of ops in their blocks. MLIR's `DominanceInfo`.
#[derive(Default)]
pub struct Dominance {
    trees: FxHashMap<RegionId, DomTree>,
    /// Position of each op in its block (by op index), valid for blocks in `ordered`.
    order: Vec<u32>,
    /// Blocks whose op positions are in `order` (by block index).
    ordered: Vec<bool>,
}

impl Dominance {
    /// No trees yet.
    pub fn new() -> Dominance {
        Dominance::default()
    }

    /// Forgets everything (after the IR changed).
    pub fn invalidate(&mut self) {
        self.trees.clear();
        self.ordered.clear();
    }

    /// The dominator tree of region `r`.
    pub fn tree(&mut self, ctx: &Context, r: RegionId) -> &DomTree {
        self.trees.entry(r).or_insert_with(|| DomTree::new(ctx, r))
    }

    /// Whether `b` is reachable from the entry of its region (the verifier checks no
    /// dominance in a block that is not).
    pub fn is_reachable(&mut self, ctx: &Context, b: BlockId) -> bool {
        match ctx.block_parent(b) {
            Some(r) => self.tree(ctx, r).cfg().is_reachable(b),
            None => false,
        }
    }

    /// Whether block `a` dominates block `b`, both of one region (false otherwise).
    pub fn block_dominates(&mut self, ctx: &Context, a: BlockId, b: BlockId) -> bool {
        match (ctx.block_parent(a), ctx.block_parent(b)) {
            (Some(ra), Some(rb)) if ra == rb => self.tree(ctx, ra).dominates(a, b),
            _ => false,
        }
    }

    /// Positions of two ops of block `b` (computed once per block).
    fn positions(&mut self, ctx: &Context, b: BlockId, x: OpId, y: OpId) -> (u32, u32) {
        if self.ordered.len() <= b.index() {
            self.ordered
                .resize(ctx.num_blocks().max(b.index() + 1), false);
        }
        if !self.ordered[b.index()] {
            self.ordered[b.index()] = true;
            if self.order.len() < ctx.num_ops() {
                self.order.resize(ctx.num_ops(), 0);
            }
            for (i, o) in ctx.block_ops(b).enumerate() {
                self.order[o.index()] = i as u32;
            }
        }
        (self.order[x.index()], self.order[y.index()])
    }

    /// Whether `v` is available at `user` under SSA dominance: `user` (or the op enclosing it
    /// in `v`'s region) is in a block `v`'s block dominates, after `v`'s definition when they
    /// share a block; always in graph regions. A value defined by `user` itself does not
    /// dominate it, but does dominate ops nested in `user`'s regions. False when `user` is
    /// not nested in `v`'s region at all.
    pub fn value_dominates(&mut self, ctx: &Context, v: Value, user: OpId) -> bool {
        let Some(def_block) = ctx.value_block(v) else {
            return false;
        };
        let Some(def_region) = ctx.block_parent(def_block) else {
            return false;
        };
        // The user's ancestor in the def block's region.
        let mut u = user;
        let user_block = loop {
            let Some(ub) = ctx.op_parent_block(u) else {
                return false;
            };
            if ctx.block_parent(ub) == Some(def_region) {
                break ub;
            }
            match ctx.parent_op(u) {
                Some(p) => u = p,
                None => return false,
            }
        };
        if is_graph_region(ctx, def_region) {
            return true;
        }
        if user_block == def_block {
            return match ctx.value_def(v) {
                ValueDef::BlockArg(..) => true,
                ValueDef::Result(d, _) => {
                    let (a, b) = self.positions(ctx, def_block, d, u);
                    a < b || (d == u && u != user)
                }
            };
        }
        self.tree(ctx, def_region).dominates(def_block, user_block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks of the first region of the first op in the module parsed from `src`.
    fn region_of(src: &str) -> (Context, RegionId, Vec<BlockId>) {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let pf = crate::parse(&mut ctx, src, "t.mlir").unwrap_or_else(|_| panic!("bad IR"));
        let body = ctx.region_blocks(ctx.regions(pf.module)[0])[0];
        let op = ctx.block_ops(body).next().unwrap();
        let r = ctx.regions(op)[0];
        let blocks = ctx.region_blocks(r).to_vec();
        (ctx, r, blocks)
    }

    // entry -> a, b; a -> join; b -> join, b; join; dead -> join.
    const DIAMOND: &str = r#""t.f"() ({
^entry:
  "t.br"()[^a, ^b] : () -> ()
^a:
  "t.br"()[^join] : () -> ()
^b:
  "t.br"()[^join, ^b] : () -> ()
^join:
  "t.ret"() : () -> ()
^dead:
  "t.br"()[^join] : () -> ()
}) : () -> ()
"#;

    #[test]
    fn cfg_edges_reachability_and_order() {
        let (ctx, r, bl) = region_of(DIAMOND);
        let cfg = Cfg::new(&ctx, r);
        let [entry, a, b, join, dead] = bl[..] else {
            panic!()
        };
        assert_eq!(cfg.successors(b).collect::<Vec<_>>(), [join, b]);
        assert_eq!(cfg.predecessors(join).collect::<Vec<_>>(), [a, b, dead]);
        assert!(cfg.is_reachable(join) && !cfg.is_reachable(dead));
        let rpo: Vec<_> = cfg.reverse_post_order().collect();
        assert_eq!(rpo[0], entry);
        assert_eq!(*rpo.last().unwrap(), join);
        assert!(!rpo.contains(&dead));
    }

    #[test]
    fn dominator_tree_of_a_diamond() {
        let (ctx, r, bl) = region_of(DIAMOND);
        let t = DomTree::new(&ctx, r);
        let [entry, a, b, join, dead] = bl[..] else {
            panic!()
        };
        assert_eq!(t.idom(join), Some(entry));
        assert_eq!(t.idom(a), Some(entry));
        assert_eq!(t.idom(entry), None);
        assert_eq!(t.idom(dead), None);
        assert!(t.dominates(entry, join) && t.dominates(join, join));
        assert!(!t.dominates(a, join) && !t.dominates(b, join));
        assert!(!t.properly_dominates(join, join));
        // Unreachable blocks are dominated by everything and dominate only each other.
        assert!(t.dominates(a, dead));
        assert!(!t.dominates(dead, join));
        let mut kids: Vec<_> = t.children(entry).collect();
        kids.sort();
        let mut want = vec![a, b, join];
        want.sort();
        assert_eq!(kids, want);
    }
}
