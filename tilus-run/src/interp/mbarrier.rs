//! The mbarrier state machine (spec §4.1).

use std::collections::HashMap;
use tilus_ir::OpId;

/// One mbarrier of one CTA.
#[derive(Clone, Debug)]
pub(crate) struct Barrier {
    /// Current phase parity.
    pub phase: u8,
    /// Phases completed so far (monotone; for diagnostics and the two-phase check).
    pub completed: u64,
    /// Arrivals still missing in the current phase.
    pub pending: i64,
    /// Arrivals per phase.
    pub expected: i64,
    /// Transaction bytes still owed (signed: complete_tx may come first).
    pub tx: i64,
    /// The `mbarrier.alloc` that made it, and its index there.
    pub alloc: OpId,
    pub index: usize,
    /// Whether anything touched it in the current phase (for the exit check).
    pub touched: bool,
    /// `completed` as each thread (block index) saw it when it last passed a wait here: the
    /// missed-phase check. Kept per barrier and thread, so unit splits and merges need not
    /// carry it.
    pub seen: HashMap<u32, u64>,
    /// Tracked async ops (ids) whose completion the current phase carries: ops that signal it
    /// and ops known to the threads that arrived (happens-before through the barrier).
    pub know: Vec<u64>,
    /// What the completed phases carried (cumulative): a thread that passes a wait here is
    /// ordered after these ops.
    pub known_at_completion: Vec<u64>,
}

impl Barrier {
    pub(crate) fn new(expected: i64, alloc: OpId, index: usize) -> Barrier {
        Barrier {
            phase: 0,
            completed: 0,
            pending: expected,
            expected,
            tx: 0,
            alloc,
            index,
            touched: false,
            seen: HashMap::new(),
            know: Vec::new(),
            known_at_completion: Vec::new(),
        }
    }

    /// Completes the phase when every arrival and every byte is in.
    fn settle(&mut self) {
        if self.pending == 0 && self.tx == 0 {
            self.phase ^= 1;
            self.completed += 1;
            self.pending = self.expected;
            self.tx = 0;
            self.touched = false;
            for id in std::mem::take(&mut self.know) {
                if !self.known_at_completion.contains(&id) {
                    self.known_at_completion.push(id);
                }
            }
        }
    }

    /// Adds tracked async ops to what the current phase carries to its waiters.
    pub(crate) fn learn(&mut self, ids: &[u64]) {
        for &id in ids {
            if !self.know.contains(&id) {
                self.know.push(id);
            }
        }
    }

    /// `expect_tx(bytes)`.
    pub(crate) fn expect_tx(&mut self, bytes: i64) {
        self.touched = true;
        self.tx += bytes;
    }

    /// `complete_tx(bytes)` (TMA completion); may drive the count negative.
    pub(crate) fn complete_tx(&mut self, bytes: i64) {
        self.touched = true;
        self.tx -= bytes;
        self.settle();
    }

    /// `arrive(k)`: an error message when the arrivals exceed what the phase expects.
    pub(crate) fn arrive(&mut self, k: i64) -> Result<(), String> {
        self.touched = true;
        if k > self.pending {
            let msg = format!(
                "{k} arrival{} on a barrier that expects only {} more in this phase ({} per phase)",
                if k == 1 { "" } else { "s" },
                self.pending,
                self.expected
            );
            self.pending -= k;
            return Err(msg);
        }
        self.pending -= k;
        self.settle();
        Ok(())
    }

    /// `phase P, pending arrivals A of E, tx-count T`.
    pub(crate) fn describe(&self) -> String {
        format!(
            "phase {}, pending arrivals {} of {}, tx-count {}",
            self.phase, self.pending, self.expected, self.tx
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_complete_on_arrivals_and_bytes() {
        let op = unsafe_op();
        let mut b = Barrier::new(1, op, 0);
        b.expect_tx(100);
        b.arrive(1).unwrap();
        assert_eq!(b.phase, 0);
        b.complete_tx(60);
        assert_eq!(b.phase, 0);
        b.complete_tx(40);
        assert_eq!((b.phase, b.completed, b.pending, b.tx), (1, 1, 1, 0));
        // complete_tx first: negative, then expect + arrive balances it.
        b.complete_tx(16);
        assert_eq!(b.tx, -16);
        b.expect_tx(16);
        b.arrive(1).unwrap();
        assert_eq!((b.phase, b.completed), (0, 2));
        assert!(b.arrive(2).is_err());
    }

    fn unsafe_op() -> OpId {
        // Any op id works: the barrier only stores it for messages.
        let mut ctx = tilus_ir::Context::new();
        tilus_dialects::register_all(&mut ctx);
        let pf = tilus_ir::parse(&mut ctx, "", "t.mlir").unwrap_or_else(|_| panic!("parse"));
        pf.module
    }
}
