//! The control-flow graph of one region: its blocks, their successors (the successors of each
//! block's terminator) and predecessors, which blocks the entry reaches, and a reverse
//! post-order of those.
//!
//! It is a snapshot: built from the IR as it is, and stale once a block, a terminator or a
//! successor changes. The verifier, [`crate::dominance`], CSE and any pass that walks blocks in
//! control-flow order share it, so "reachable" and "successor" mean the same everywhere.

use crate::context::{BlockId, Context, RegionId};
use rustc_hash::FxHashMap;

/// The control-flow graph of one region (see the module docs).
#[derive(Clone, Debug)]
pub struct Cfg {
    blocks: Vec<BlockId>,
    index: FxHashMap<BlockId, usize>,
    succs: Vec<Vec<usize>>,
    preds: Vec<Vec<usize>>,
    reachable: Vec<bool>,
    /// Indices of the reachable blocks in reverse post-order (the entry first).
    rpo: Vec<usize>,
}

impl Cfg {
    /// The graph of region `r` as it is now. Successors outside `r` (which the verifier
    /// rejects) are left out.
    pub fn new(ctx: &Context, r: RegionId) -> Cfg {
        let blocks = ctx.region_blocks(r).to_vec();
        let index: FxHashMap<BlockId, usize> =
            blocks.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let n = blocks.len();
        let mut succs = vec![Vec::new(); n];
        let mut preds = vec![Vec::new(); n];
        for (i, &b) in blocks.iter().enumerate() {
            if let Some(t) = ctx.block_last(b) {
                for s in ctx.successors(t) {
                    if let Some(&j) = index.get(s) {
                        succs[i].push(j);
                        preds[j].push(i);
                    }
                }
            }
        }
        let mut reachable = vec![false; n];
        let mut post = Vec::with_capacity(n);
        if n > 0 {
            // Iterative depth-first search from the entry, successors in order.
            let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
            reachable[0] = true;
            while let Some(top) = stack.last_mut() {
                let b = top.0;
                if let Some(&s) = succs[b].get(top.1) {
                    top.1 += 1;
                    if !reachable[s] {
                        reachable[s] = true;
                        stack.push((s, 0));
                    }
                } else {
                    post.push(b);
                    stack.pop();
                }
            }
        }
        post.reverse();
        Cfg {
            blocks,
            index,
            succs,
            preds,
            reachable,
            rpo: post,
        }
    }

    /// The entry block (`None` for an empty region).
    pub fn entry(&self) -> Option<BlockId> {
        self.blocks.first().copied()
    }
    /// Every block, in region order.
    pub fn blocks(&self) -> &[BlockId] {
        &self.blocks
    }
    /// Whether `b` is a block of this region.
    pub fn contains(&self, b: BlockId) -> bool {
        self.index.contains_key(&b)
    }
    /// The successors of `b`, in terminator order (repeated when the terminator repeats one).
    pub fn successors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.edges(b, &self.succs)
    }
    /// The predecessors of `b`, one per edge.
    pub fn predecessors(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        self.edges(b, &self.preds)
    }
    fn edges<'a>(
        &'a self,
        b: BlockId,
        table: &'a [Vec<usize>],
    ) -> impl Iterator<Item = BlockId> + 'a {
        self.index
            .get(&b)
            .into_iter()
            .flat_map(move |&i| table[i].iter().map(|&j| self.blocks[j]))
    }
    /// Whether the entry reaches `b` (the entry reaches itself). Blocks of other regions are
    /// not reachable.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.index.get(&b).is_some_and(|&i| self.reachable[i])
    }
    /// The reachable blocks in reverse post-order: each block before its successors, except
    /// along back edges.
    pub fn reverse_post_order(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.rpo.iter().map(|&i| self.blocks[i])
    }

    /// Position of `b` in region order (crate use: dense tables by block).
    pub(crate) fn index_of(&self, b: BlockId) -> Option<usize> {
        self.index.get(&b).copied()
    }
    pub(crate) fn rpo_indices(&self) -> &[usize] {
        &self.rpo
    }
    pub(crate) fn pred_indices(&self, i: usize) -> &[usize] {
        &self.preds[i]
    }
}
