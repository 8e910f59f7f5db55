//! Commit groups, one implementation for WGMMA and TMA bulk stores.
//!
//! `wgmma.commit_group`/`wgmma.wait_group` and `tma.commit_group`/`tma.wait_group` have the
//! same semantics over different owners: a warpgroup's MMAs, or one thread's bulk stores.
//! Issued ops join the owner's open group; a commit closes it; a wait blocks until at most `n`
//! committed groups still have work in flight, then retires the completed groups (their
//! results become readable).

use super::*;
use crate::interp::asyncops::GroupOwner;

impl Machine<'_> {
    /// Adds an issued async op (and the token of its result, if any) to `owner`'s open group.
    pub(super) fn join_group(
        &mut self,
        cta: usize,
        owner: GroupOwner,
        id: u64,
        token: Option<usize>,
    ) {
        self.ctas[cta]
            .groups
            .entry(owner)
            .or_default()
            .open
            .push((id, token));
    }

    /// `commit_group`: closes `owner`'s open group.
    pub(super) fn commit_group(&mut self, cta: usize, owner: GroupOwner) {
        let g = self.ctas[cta].groups.entry(owner).or_default();
        let open = std::mem::take(&mut g.open);
        g.groups.push_back(open);
    }

    /// `wait_group n`: blocks while more than `n` of `owner`'s committed groups are in flight;
    /// otherwise retires the completed ones.
    pub(super) fn wait_group(&mut self, op: OpId, cta: usize, owner: GroupOwner, n: usize) -> Flow {
        let pending = self.ctas[cta]
            .groups
            .get(&owner)
            .map(|g| self.pending_groups(g))
            .unwrap_or(0);
        if pending > n {
            return Flow::Wait(Block::Groups { op, owner, n });
        }
        self.retire_groups(cta, owner);
        Flow::Next
    }

    /// Drops completed groups from the front of `owner`'s queue, retiring their tokens.
    pub(super) fn retire_groups(&mut self, cta: usize, owner: GroupOwner) {
        let groups = match self.ctas[cta].groups.get_mut(&owner) {
            Some(g) => std::mem::take(&mut g.groups),
            None => return,
        };
        let mut keep = std::collections::VecDeque::new();
        let mut retire = Vec::new();
        let mut blocked = false;
        for grp in groups {
            if !blocked && grp.iter().all(|(id, _)| !self.in_flight(*id)) {
                retire.extend(grp.iter().filter_map(|(_, t)| *t));
            } else {
                blocked = true;
                keep.push_back(grp);
            }
        }
        for t in retire {
            self.ctas[cta].tokens[t].retired = true;
        }
        if let Some(g) = self.ctas[cta].groups.get_mut(&owner) {
            g.groups = keep;
        }
    }
}
