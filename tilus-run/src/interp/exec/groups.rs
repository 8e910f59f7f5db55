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

    /// `wait_group n`: blocks while a committed group older than `owner`'s newest `n` has work
    /// in flight; then retires exactly those older groups (PTX: "wait until at most n of the
    /// most recent groups are pending"). The newest `n` stay unretired even when this schedule
    /// has already finished them, so reading their results is a race on every schedule.
    pub(super) fn wait_group(
        &mut self,
        op: OpId,
        cta: usize,
        owner: GroupOwner,
        n: usize,
        who: &[u32],
    ) -> Flow {
        let blocked = self.ctas[cta]
            .groups
            .get(&owner)
            .is_some_and(|g| self.older_groups_in_flight(g, n));
        if blocked {
            return Flow::Wait(Block::Groups { op, owner, n });
        }
        self.retire_groups(cta, owner, n, who);
        Flow::Next
    }

    /// Retires `owner`'s committed groups older than the newest `n`: their tokens become
    /// readable, and the waiting threads `who` are ordered after their completion.
    fn retire_groups(&mut self, cta: usize, owner: GroupOwner, n: usize, who: &[u32]) {
        let Some(g) = self.ctas[cta].groups.get_mut(&owner) else {
            return;
        };
        let older = g.groups.len().saturating_sub(n);
        let retired: Vec<Vec<(u64, Option<usize>)>> = g.groups.drain(..older).collect();
        let mut ids = Vec::new();
        for grp in retired {
            for (id, token) in grp {
                ids.push(id);
                if let Some(t) = token {
                    self.ctas[cta].tokens[t].retired = true;
                }
            }
        }
        self.learn(&ids, cta, who);
    }
}
