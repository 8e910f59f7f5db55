//! `wgmma`: warpgroup MMA.

use super::*;
use crate::interp::asyncops::GroupOwner;
use tilus_dialects::wgmma::WgmmaOpKind as K;

impl Machine<'_> {
    pub(super) fn exec_wgmma(&mut self, ui: usize, op: OpId, k: K) -> Result<Flow, Diagnostic> {
        let ctx = self.ctx;
        let cta = self.units[ui].cta;
        let (wg, _) = self.units[ui].group();
        let owner = GroupOwner::Warpgroup(wg);
        match k {
            K::Fence(_) => {}
            K::Mma(m) => {
                let av = self.get(ui, m.a(ctx));
                let a = match &av {
                    Val::Shared(s) => MmaOperand::Shared(s.view.clone()),
                    _ => MmaOperand::Reg(self.tensor(ui, m.a(ctx), op)?),
                };
                let b = self.shared(ui, m.b(ctx), op)?;
                let acc = match self.get(ui, m.acc(ctx)) {
                    Val::Token(k) => {
                        let t = &self.ctas[cta].tokens[k];
                        match (&t.value, t.retired) {
                            (Some(v), true) => AccIn::Tile(v.clone()),
                            _ => AccIn::Token(k),
                        }
                    }
                    _ => AccIn::Tile(self.tensor(ui, m.acc(ctx), op)?),
                };
                let mut reads = Vec::new();
                if let MmaOperand::Shared(v) = &a {
                    reads.push((cta, SharedMemory::byte_range(v)));
                }
                reads.push((cta, SharedMemory::byte_range(&b.view)));
                for (_, r) in &reads {
                    self.check_smem_read(cta, r, op, (cta, &self.units[ui].threads))?;
                }
                let out = self.tensor_type(m.d(ctx), op)?.dtype;
                let threads = self.units[ui].threads.clone();
                self.ctas[cta].tokens.push(Token {
                    value: None,
                    retired: false,
                    op,
                    kind: TokenKind::Wgmma,
                    threads,
                });
                let token = self.ctas[cta].tokens.len() - 1;
                let id = self.issue(AsyncOp {
                    id: 0,
                    op,
                    cta,
                    due: 0,
                    queue: Some(QueueKey::Wgmma(cta, wg)),
                    smem_reads: reads,
                    smem_writes: Vec::new(),
                    tmem_writes: Vec::new(),
                    kind: AsyncKind::Wgmma {
                        a,
                        b: b.view.clone(),
                        acc,
                        token,
                        out,
                    },
                });
                self.join_group(cta, owner, id, Some(token));
                self.set(ui, m.d(ctx), Val::Token(token));
            }
            K::CommitGroup(_) => self.commit_group(cta, owner),
            K::WaitGroup(w) => {
                let n = w.pending(ctx).max(0) as usize;
                let who = self.units[ui].threads.clone();
                return Ok(self.wait_group(op, cta, owner, n, &who));
            }
        }
        Ok(Flow::Next)
    }
}
