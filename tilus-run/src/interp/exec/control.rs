//! `scf` and `threadgroup`: loops, branches and thread groups.

use super::*;
use tilus_dialects::scf::ScfOpKind;
use tilus_dialects::threadgroup::ThreadgroupOpKind;

impl Machine<'_> {
    pub(super) fn exec_scf(
        &mut self,
        ui: usize,
        op: OpId,
        k: ScfOpKind,
    ) -> Result<Flow, Diagnostic> {
        let ctx = self.ctx;
        match k {
            ScfOpKind::While(w) => {
                let inits: Vec<Val> = w.inits(ctx).iter().map(|&v| self.get(ui, v)).collect();
                let before = self.ctx.region_blocks(w.before(ctx))[0];
                let args = self.ctx.block_args(before).to_vec();
                for (a, v) in args.iter().zip(inits) {
                    self.set(ui, *a, v);
                }
                self.set_next_after(ui, op);
                let first = self.ctx.block_first(before);
                self.units[ui].frames.push(crate::interp::machine::Frame {
                    kind: FrameKind::While {
                        op,
                        trip: 0,
                        after: false,
                        sibling: None,
                    },
                    next: first,
                });
                Ok(Flow::Jump)
            }
            ScfOpKind::IndexSwitch(s) => {
                let idx = self.get(ui, s.arg(ctx));
                let cases = ctx.int_array_values(s.cases(ctx)).unwrap_or_default();
                let mut regions = s.case_regions(ctx).to_vec();
                regions.push(s.default_region(ctx));
                // The threads of each region (the default last), by their own index.
                let mut threads_of: Vec<Vec<u32>> = vec![Vec::new(); regions.len()];
                for &t in &self.units[ui].threads {
                    let Some(i) = idx.scalar_at(t) else {
                        return Err(self.err(
                            op,
                            format!(
                                "thread {t} has no index for 'scf.index_switch' (its operand \
                                 is {})",
                                describe_val(&idx)
                            ),
                        ));
                    };
                    let i = i.as_i64();
                    let k = cases.iter().position(|&c| c == i).unwrap_or(cases.len());
                    threads_of[k.min(regions.len() - 1)].push(t);
                }
                let mut groups = Vec::new();
                for (r, ts) in regions.iter().zip(threads_of) {
                    if ts.is_empty() {
                        continue;
                    }
                    let Some(&b) = self.ctx.region_blocks(*r).first() else {
                        return Err(self.err(op, "an 'scf.index_switch' case without a block"));
                    };
                    groups.push((b, ts));
                }
                self.set_next_after(ui, op);
                self.enter_cases(ui, op, &groups);
                Ok(Flow::Jump)
            }
            ScfOpKind::ExecuteRegion(e) => {
                // Its entry block; `cf` branches between its blocks run in `exec_cf`.
                let Some(&b) = self.ctx.region_blocks(e.region(ctx)).first() else {
                    return Err(self.err(op, "an 'scf.execute_region' without a block"));
                };
                self.set_next_after(ui, op);
                let first = self.ctx.block_first(b);
                self.units[ui].frames.push(crate::interp::machine::Frame {
                    kind: FrameKind::Branch {
                        op,
                        sibling: None,
                        rest: false,
                    },
                    next: first,
                });
                Ok(Flow::Jump)
            }
            // `tilus-run` rewrites parallel loops as scf.for nests before it runs a kernel
            // (`tilus_passes::lower::scf_parallel::sequentialize`), so these reach the machine
            // only through a caller that skipped that: reported, not guessed at
            // (`scf.condition` ends a `while`'s `before` region in the machine's frame handling).
            ScfOpKind::Condition(_)
            | ScfOpKind::Parallel(_)
            | ScfOpKind::Reduce(_)
            | ScfOpKind::ReduceReturn(_)
            | ScfOpKind::Forall(_)
            | ScfOpKind::InParallel(_) => Err(self.unsupported(op)),
            ScfOpKind::For(f) => {
                let lb = self.scalar(ui, f.lower_bound(ctx), op)?.as_i64();
                let ub = self.scalar(ui, f.upper_bound(ctx), op)?.as_i64();
                let step = self.scalar(ui, f.step(ctx), op)?.as_i64();
                let kind = scalar_kind(self.ctx, self.ctx.value_type(f.lower_bound(ctx)))
                    .unwrap_or(ScalarKind::Int {
                        bits: 64,
                        unsigned: false,
                    });
                if step <= 0 {
                    return Err(self.err(op, format!("scf.for with a non-positive step ({step})")));
                }
                let unsigned_cmp = f.unsigned_cmp(ctx);
                let bits = match kind {
                    ScalarKind::Int { bits, .. } => bits,
                    _ => 64,
                };
                let runs = if unsigned_cmp {
                    as_unsigned(lb, bits) < as_unsigned(ub, bits)
                } else {
                    lb < ub
                };
                let inits: Vec<Val> = f.init_args(ctx).iter().map(|&v| self.get(ui, v)).collect();
                if !runs {
                    for (&r, v) in f.results(ctx).iter().zip(inits) {
                        self.set(ui, r, v);
                    }
                    return Ok(Flow::Next);
                }
                let body = self.ctx.region_blocks(f.region(ctx))[0];
                let args = self.ctx.block_args(body).to_vec();
                self.set(ui, args[0], Val::S(Sc::I(lb)));
                for (a, v) in args[1..].iter().zip(inits) {
                    self.set(ui, *a, v);
                }
                self.set_next_after(ui, op);
                let first = self.ctx.block_first(body);
                self.units[ui].frames.push(crate::interp::machine::Frame {
                    kind: FrameKind::For {
                        op,
                        body,
                        iv: lb,
                        ub,
                        step,
                        kind,
                        unsigned_cmp,
                    },
                    next: first,
                });
                Ok(Flow::Jump)
            }
            ScfOpKind::If(i) => {
                let c = self.get(ui, i.condition(ctx));
                let block_of = |r: tilus_ir::RegionId| self.ctx.region_blocks(r).first().copied();
                let (then_b, else_b) = (block_of(i.then_region(ctx)), block_of(i.else_region(ctx)));
                let threads = self.units[ui].threads.clone();
                let (t_threads, f_threads): (Vec<u32>, Vec<u32>) = threads
                    .iter()
                    .partition(|&&t| c.scalar_at(t).map(|s| s.as_i64() & 1 == 1).unwrap_or(false));
                self.set_next_after(ui, op);
                if f_threads.is_empty() || t_threads.is_empty() {
                    let b = if f_threads.is_empty() { then_b } else { else_b };
                    if let Some(b) = b {
                        let first = self.ctx.block_first(b);
                        self.units[ui].frames.push(crate::interp::machine::Frame {
                            kind: FrameKind::Branch {
                                op,
                                sibling: None,
                                rest: false,
                            },
                            next: first,
                        });
                    }
                    return Ok(Flow::Jump);
                }
                // Divergent condition: the false threads become a sibling unit.
                let j = self.split_off(ui, &f_threads);
                let (uid, jid) = (self.units[ui].id, self.units[j].id);
                if let Some(b) = then_b {
                    let first = self.ctx.block_first(b);
                    self.units[ui].frames.push(crate::interp::machine::Frame {
                        kind: FrameKind::Branch {
                            op,
                            sibling: Some(jid),
                            rest: false,
                        },
                        next: first,
                    });
                }
                match else_b {
                    Some(b) => {
                        let first = self.ctx.block_first(b);
                        self.units[j].frames.push(crate::interp::machine::Frame {
                            kind: FrameKind::Branch {
                                op,
                                sibling: Some(uid),
                                rest: false,
                            },
                            next: first,
                        });
                    }
                    None => self.park(j, uid),
                }
                Ok(Flow::Jump)
            }
            // `scf.yield` ends its region in the machine's frame handling.
            ScfOpKind::Yield(_) => Err(self.unsupported(op)),
        }
    }

    /// Enters the case regions of `op` (an `scf.index_switch`), each block with the threads
    /// whose index picked it (`groups`: not empty, in region order, no group empty). One
    /// group runs in unit `ui` itself. Otherwise the unit splits as n - 1 nested `scf.if`s
    /// would: the first group's threads run their case beside the rest, which run in a `rest`
    /// frame and split the same way (`FrameKind::Branch`), so that every pair reconverges when
    /// both have left, and the whole unit after the op.
    fn enter_cases(&mut self, ui: usize, op: OpId, groups: &[(tilus_ir::BlockId, Vec<u32>)]) {
        use crate::interp::machine::Frame;
        let n = groups.len();
        let mut cur = ui;
        let mut sibling = None;
        for (k, (b, _)) in groups.iter().enumerate() {
            let first = self.ctx.block_first(*b);
            if k + 1 == n {
                self.units[cur].frames.push(Frame {
                    kind: FrameKind::Branch {
                        op,
                        sibling,
                        rest: false,
                    },
                    next: first,
                });
                break;
            }
            let later: Vec<u32> = groups[k + 1..]
                .iter()
                .flat_map(|(_, ts)| ts.iter().copied())
                .collect();
            let j = self.split_off(cur, &later);
            let (cid, jid) = (self.units[cur].id, self.units[j].id);
            self.units[cur].frames.push(Frame {
                kind: FrameKind::Branch {
                    op,
                    sibling: Some(jid),
                    rest: false,
                },
                next: first,
            });
            if k + 2 == n {
                // The last group runs its case in `j` itself, beside this one.
                sibling = Some(cid);
            } else {
                self.units[j].frames.push(Frame {
                    kind: FrameKind::Branch {
                        op,
                        sibling: Some(cid),
                        rest: true,
                    },
                    next: None,
                });
                sibling = None;
            }
            cur = j;
        }
    }

    // ----- cf: branches between the blocks of an `scf.execute_region` ----------------------

    /// `cf.br`, `cf.cond_br` and `cf.switch` between the blocks of the `scf.execute_region`
    /// whose region the unit runs (the only multi-block regions a kernel has), and `cf.assert`.
    ///
    /// Each thread takes its own successor. When all take the same one, the unit jumps there
    /// with the successor's arguments. Otherwise the threads of the first thread's successor go
    /// there, and the others run the branch again beside them, so that n successors split the
    /// unit as n - 1 nested two-way branches would. The region's frame becomes a `rest` frame
    /// that ends when both parts have reached the region's `scf.yield` and reconverged, as an
    /// `scf.index_switch` of n cases does. The threads therefore reconverge when they leave the
    /// region, not earlier where their paths join; no values differ for that.
    pub(super) fn exec_cf(
        &mut self,
        ui: usize,
        op: OpId,
        k: tilus_dialects::cf::CfOpKind,
    ) -> Result<Flow, Diagnostic> {
        use crate::interp::machine::Frame;
        use tilus_dialects::cf::CfOpKind;
        let ctx = self.ctx;
        let threads = self.units[ui].threads.clone();
        let int_at = |v: &Val, t: u32| v.scalar_at(t).map(|s| s.as_i64());
        // The successor index each thread takes.
        let mut picks: Vec<usize> = Vec::with_capacity(threads.len());
        match k {
            CfOpKind::Assert(a) => {
                let c = self.get(ui, a.arg(ctx));
                if let Some(&t) = threads
                    .iter()
                    .find(|&&t| int_at(&c, t).map(|b| b & 1) != Some(1))
                {
                    let msg = a.message(ctx);
                    return Err(self.err(op, format!("'cf.assert' failed in thread {t}: {msg}")));
                }
                return Ok(Flow::Next);
            }
            CfOpKind::Br(_) => picks.resize(threads.len(), 0),
            CfOpKind::CondBr(c) => {
                // Successor 0 is the true destination (as for `scf.if`, a thread without a
                // condition, which the verifier's `i1` rules out, takes the false one).
                let v = self.get(ui, c.condition(ctx));
                picks.extend(threads.iter().map(|&t| match int_at(&v, t) {
                    Some(b) if b & 1 == 1 => 0,
                    _ => 1,
                }));
            }
            CfOpKind::Switch(s) => {
                let v = self.get(ui, s.flag(ctx));
                let cases = tilus_dialects::cf::switch_case_values(ctx, op).unwrap_or_default();
                let width = match ctx.type_kind(ctx.value_type(s.flag(ctx))) {
                    tilus_ir::TypeKind::Integer { width, .. } => *width,
                    _ => 64,
                };
                // Compared as the flag's bits (cases are stored unsigned or signed alike).
                let bits = |x: i128| {
                    if width >= 128 {
                        x
                    } else {
                        x.rem_euclid(1i128 << width)
                    }
                };
                let cases: Vec<Option<i128>> = cases
                    .iter()
                    .map(|c| i128::try_from(c.clone()).ok().map(bits))
                    .collect();
                // Successor 0 is the default, then the cases in order.
                picks.extend(threads.iter().map(|&t| {
                    let f = int_at(&v, t).map(|f| bits(f as i128));
                    cases
                        .iter()
                        .position(|c| c.is_some() && *c == f)
                        .map_or(0, |i| i + 1)
                }));
            }
        }
        let Some(&first) = picks.first() else {
            return Ok(Flow::Jump);
        };
        // The branch must end a block of the execute_region the unit runs.
        let region_op = self
            .ctx
            .op_parent_block(op)
            .and_then(|b| self.ctx.block_parent(b))
            .and_then(|r| self.ctx.region_parent(r));
        let (case_op, sibling) = match self.units[ui].frames.last().map(|f| &f.kind) {
            Some(&FrameKind::Branch { op, sibling, .. }) if Some(op) == region_op => (op, sibling),
            // Only an execute_region has several blocks in a kernel (the verifier keeps every
            // other region of one): reported, not guessed at, should another op come to.
            _ => {
                return Err(self.err(
                    op,
                    format!(
                        "the interpreter runs '{}' only between the blocks of an \
                         'scf.execute_region'",
                        self.name(op)
                    ),
                ))
            }
        };
        let dest = self.ctx.successors(op)[first];
        let range = tilus_ir::rewrite::successor_operands(ctx, op, first).unwrap_or(0..0);
        let vals: Vec<Val> = self.ctx.operands(op)[range]
            .iter()
            .map(|&v| self.get(ui, v))
            .collect();
        let args = self.ctx.block_args(dest).to_vec();
        let entry = self.ctx.block_first(dest);
        let others: Vec<u32> = threads
            .iter()
            .zip(&picks)
            .filter(|(_, &p)| p != first)
            .map(|(&t, _)| t)
            .collect();
        if others.is_empty() {
            let u = &mut self.units[ui];
            u.bind(&args, vals);
            u.frames.last_mut().expect("a frame").next = entry;
            return Ok(Flow::Jump);
        }
        // Divergent: this frame waits, as a `rest`, for the two parts to leave the region.
        if let Some(f) = self.units[ui].frames.last_mut() {
            f.kind = FrameKind::Branch {
                op: case_op,
                sibling,
                rest: true,
            };
            f.next = None;
        }
        let j = self.split_off(ui, &others);
        let (uid, jid) = (self.units[ui].id, self.units[j].id);
        let u = &mut self.units[ui];
        u.bind(&args, vals);
        u.frames.push(Frame {
            kind: FrameKind::Branch {
                op: case_op,
                sibling: Some(jid),
                rest: false,
            },
            next: entry,
        });
        // The other threads take the branch again, among themselves.
        self.units[j].frames.push(Frame {
            kind: FrameKind::Branch {
                op: case_op,
                sibling: Some(uid),
                rest: false,
            },
            next: Some(op),
        });
        Ok(Flow::Jump)
    }

    // ----- thread groups ------------------------------------------------------------------

    pub(super) fn exec_group(
        &mut self,
        ui: usize,
        op: OpId,
        k: ThreadgroupOpKind,
    ) -> Result<Flow, Diagnostic> {
        let ctx = self.ctx;
        if let ThreadgroupOpKind::Sync(_) = k {
            let (b, s) = self.units[ui].group();
            let mut have = self.units[ui].threads.len() as i64;
            if b == 0 && s == self.block_threads {
                have += self.ctas[self.units[ui].cta].exited as i64;
            }
            if have >= s {
                let cta = self.units[ui].cta;
                self.sync_knowledge(cta, b, s);
                return Ok(Flow::Next);
            }
            return Ok(Flow::Wait(Block::Sync {
                op,
                begin: b,
                size: s,
            }));
        }
        if let ThreadgroupOpKind::SetMaxNReg(m) = k {
            return self.exec_setmaxnreg(ui, op, m);
        }
        let (rb, n) = tilus_dialects::threadgroup::group_range(self.ctx, op)
            .ok_or_else(|| self.unsupported(op))?;
        let rb = rb.unwrap_or(0);
        let (pb, ps) = self.units[ui].group();
        if rb < 0 || n < 1 || rb + n > ps {
            return Err(self.err(
                op,
                format!(
                    "the group threads [{rb}, {}) does not fit in its parent group of {ps} threads",
                    rb + n
                ),
            ));
        }
        let lo = (pb + rb) as u32;
        let hi = lo + n as u32;
        let (inside, outside): (Vec<u32>, Vec<u32>) = self.units[ui]
            .threads
            .iter()
            .partition(|&&t| t >= lo && t < hi);
        let region = match k {
            ThreadgroupOpKind::Group(g) => g.body(ctx),
            ThreadgroupOpKind::SingleThread(g) => g.body(ctx),
            ThreadgroupOpKind::SingleWarp(g) => g.body(ctx),
            ThreadgroupOpKind::WarpGroup(g) => g.body(ctx),
            ThreadgroupOpKind::Sync(_) | ThreadgroupOpKind::SetMaxNReg(_) => {
                return Err(self.unsupported(op))
            }
        };
        let body = self.ctx.region_blocks(region).first().copied();
        let first = body.and_then(|b| self.ctx.block_first(b));
        if inside.is_empty() || first.is_none() {
            return Ok(Flow::Next);
        }
        self.set_next_after(ui, op);
        let sibling = if outside.is_empty() {
            None
        } else {
            let j = self.split_off(ui, &outside);
            let me = self.units[ui].id;
            self.park(j, me);
            Some(self.units[j].id)
        };
        self.units[ui].frames.push(crate::interp::machine::Frame {
            kind: FrameKind::Group {
                op,
                begin: lo as i64,
                size: n,
                sibling,
            },
            next: first,
        });
        Ok(Flow::Jump)
    }

    /// `threadgroup.setmaxnreg`: the whole group has converged here (the op is collective).
    /// Checks what the hardware leaves undefined (a group that is not whole warpgroups, a `dec`
    /// that raises or an `inc` that lowers a warp's count) and makes `inc` wait for the pool.
    fn exec_setmaxnreg(
        &mut self,
        ui: usize,
        op: OpId,
        m: tilus_dialects::threadgroup::SetMaxNRegOp,
    ) -> Result<Flow, Diagnostic> {
        use tilus_dialects::threadgroup::RegisterAction;
        let ctx = self.ctx;
        let (b, s) = self.units[ui].group();
        if b % 128 != 0 || s % 128 != 0 {
            return Err(self.err(
                op,
                format!(
                    "setmaxnreg must be executed by whole warpgroups, but its group is threads \
                     [{b}, {}) ({s} threads)",
                    b + s
                ),
            ));
        }
        let n = m.count(ctx);
        let inc = matches!(m.action(ctx), RegisterAction::Inc);
        let cta = self.units[ui].cta;
        let warps = (b / 32) as usize..((b + s) / 32) as usize;
        let mut need = 0;
        for w in warps.clone() {
            let cur = self.ctas[cta].warp_regs[w];
            if inc && n < cur || !inc && n > cur {
                return Err(self.err(
                    op,
                    format!(
                        "setmaxnreg.{} {n} would {} warp {w}'s register count of {cur}",
                        if inc { "inc" } else { "dec" },
                        if inc { "lower" } else { "raise" }
                    ),
                ));
            }
            need += 32 * (n - cur);
        }
        if inc && need > self.ctas[cta].free_registers() {
            return Ok(Flow::Wait(Block::Regs { op, need }));
        }
        for w in warps {
            self.ctas[cta].warp_regs[w] = n;
        }
        Ok(Flow::Next)
    }
}
