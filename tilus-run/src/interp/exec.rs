//! Op semantics, one module per op family (`exec/*.rs`).
//!
//! Ops are reached through their typed handles: `exec` classifies an op with its dialect's op
//! enum and hands the typed kind to the family, so a renamed op, operand or attribute is a
//! build error here rather than a run-time "not supported". Scalar arith evaluation calls the
//! dialect's semantics (`IntBinOp`, `IntCast`, `CmpIPredicate::eval`, `FloatBinOp`), the same
//! code the folders run.

mod arith;
mod control;
mod groups;
mod mbarrier;
mod perthread;
mod tcgen05;
mod tilus;
mod tma;
mod wgmma;

pub(crate) use arith::{int_binary, int_bits, int_cast};
pub(crate) use tilus::build_view;

use super::asyncops::{AccIn, AsyncKind, AsyncOp, MmaOperand, QueueKey};
use super::machine::{describe_threads, Block, Flow, FrameKind, Machine, Token, TokenKind};
use super::tmem::Tmem;
use super::value::{
    as_signed, as_unsigned, normalize, scalar_kind, wrap, Sc, ScalarKind, SharedVal, TmemVal, Val,
};
use crate::memory::{GlobalView, SharedMemory, SharedView};
use crate::tensor::{self, BinOp, CmpOp, ReduceKind, Tensor, UnOp};
use std::rc::Rc;
use tilus_dialects::layout_algebra::{SharedLayout, SwizzleMode, TmemLayout};
use tilus_dialects::tilus_types::{attr_i64s, Space, TensorType, DYN};
use tilus_ir::attrs::AttrKind;
use tilus_ir::{DiagLoc, Diagnostic, OpId, Value};

/// Ops that take per-thread scalar operands as they are (declared `Trait::PerThread`).
fn takes_per_thread(ctx: &tilus_ir::Context, op: OpId) -> bool {
    ctx.op_def(op)
        .is_some_and(|d| d.has(tilus_ir::Trait::PerThread))
}

/// Ops that run once for their whole group (declared `Trait::Collective`): a unit arriving
/// there waits for the rest of the group and merges with it.
fn is_collective(ctx: &tilus_ir::Context, op: OpId) -> bool {
    ctx.op_def(op)
        .is_some_and(|d| d.has(tilus_ir::Trait::Collective))
}

impl Machine<'_> {
    // ----- helpers ------------------------------------------------------------------------

    fn name(&self, op: OpId) -> &str {
        self.ctx.op_name_str(op)
    }

    pub(crate) fn get(&self, ui: usize, v: Value) -> Val {
        self.units[ui].env[v.index()].clone()
    }

    pub(crate) fn set(&mut self, ui: usize, v: Value, x: Val) {
        self.units[ui].env[v.index()] = x;
    }

    fn err(&self, op: OpId, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::op(op, msg)
    }

    /// A uniform scalar of the unit.
    fn scalar(&self, ui: usize, v: Value, op: OpId) -> Result<Sc, Diagnostic> {
        let u = &self.units[ui];
        match &u.env[v.index()] {
            Val::S(s) => Ok(*s),
            Val::PT(p) => Ok(p[u.threads[0] as usize]),
            other => Err(self.err(
                op,
                format!("expected a scalar operand, found {}", describe_val(other)),
            )),
        }
    }

    fn int(&self, ui: usize, v: Value, op: OpId) -> Result<i64, Diagnostic> {
        Ok(self.scalar(ui, v, op)?.as_i64())
    }

    /// A register tile (a retired async result is read; an unretired one is a report).
    pub(crate) fn tensor(&self, ui: usize, v: Value, op: OpId) -> Result<Rc<Tensor>, Diagnostic> {
        let u = &self.units[ui];
        match &u.env[v.index()] {
            Val::Tensor(t) => Ok(t.clone()),
            Val::Token(k) => {
                let t = &self.ctas[u.cta].tokens[*k];
                match (&t.value, t.retired) {
                    (Some(x), true) => Ok(x.clone()),
                    _ => {
                        let (what, help) = match t.kind {
                            TokenKind::Wgmma => (
                                "reads the accumulator of a wgmma.mma before the wgmma.wait_group that retires it",
                                "commit the mma (wgmma.commit_group) and wait for it (wgmma.wait_group) before using its result",
                            ),
                            TokenKind::TmemLd => (
                                "reads the registers of a tcgen05.ld before tcgen05.wait_ld",
                                "put tcgen05.wait_ld between the load and the first use of its result",
                            ),
                        };
                        Err(self
                            .err(op, format!("'{}' {what}", self.name(op)))
                            .with_note(DiagLoc::Op(t.op), "the asynchronous op was issued here")
                            .with_help(help))
                    }
                }
            }
            other => {
                let d = self.err(
                    op,
                    format!("expected a register tensor, found {}", describe_val(other)),
                );
                // Say where the value was made: that is where the threads parted ways.
                Err(match (other, self.ctx.defining_op(v)) {
                    (Val::Divergent, Some(def)) => d.with_note(
                        DiagLoc::Op(def),
                        "the value comes from here, where threads that had split (a per-thread scf.if or a group region) computed different tiles; give each thread's part one layout-owned meaning, or keep the value uniform",
                    ),
                    _ => d,
                })
            }
        }
    }

    /// The value of `v` as `pick` reads it; otherwise "expected {what}, found ..." at `op`.
    fn expect_val<T>(
        &self,
        ui: usize,
        v: Value,
        op: OpId,
        what: &str,
        pick: impl FnOnce(&Val) -> Option<T>,
    ) -> Result<T, Diagnostic> {
        let x = &self.units[ui].env[v.index()];
        pick(x).ok_or_else(|| self.err(op, format!("expected {what}, found {}", describe_val(x))))
    }

    fn shared(&self, ui: usize, v: Value, op: OpId) -> Result<Rc<SharedVal>, Diagnostic> {
        self.expect_val(ui, v, op, "a shared tensor", |x| match x {
            Val::Shared(s) => Some(s.clone()),
            _ => None,
        })
    }

    fn global(&self, ui: usize, v: Value, op: OpId) -> Result<Rc<GlobalView>, Diagnostic> {
        self.expect_val(ui, v, op, "a global view", |x| match x {
            Val::Global(g) => Some(g.clone()),
            _ => None,
        })
    }

    fn tmem_val(&self, ui: usize, v: Value, op: OpId) -> Result<Rc<TmemVal>, Diagnostic> {
        self.expect_val(ui, v, op, "a tensor-memory tensor", |x| match x {
            Val::Tmem(t) => Some(t.clone()),
            _ => None,
        })
    }

    fn bars(&self, ui: usize, v: Value, op: OpId) -> Result<(usize, usize, OpId), Diagnostic> {
        self.expect_val(ui, v, op, "mbarriers", |x| match x {
            Val::Bars { first, n, alloc } => Some((*first, *n, *alloc)),
            _ => None,
        })
    }

    fn ints(&self, ui: usize, vs: &[Value], op: OpId) -> Result<Vec<i64>, Diagnostic> {
        vs.iter().map(|&v| self.int(ui, v, op)).collect()
    }

    fn tensor_type(&self, v: Value, op: OpId) -> Result<TensorType, Diagnostic> {
        TensorType::of(self.ctx, self.ctx.value_type(v))
            .ok_or_else(|| self.err(op, "expected a tilus tensor type"))
    }

    /// The group's first thread when the unit holds it (the leader lane that issues
    /// one-thread/one-warp async ops).
    fn leader(&self, ui: usize) -> Option<u32> {
        let u = &self.units[ui];
        let b = u.group().0 as u32;
        u.threads.binary_search(&b).ok().map(|_| b)
    }

    /// A per-thread scalar over the unit's threads (uniform values collapse).
    fn per_thread(&self, ui: usize, f: impl Fn(u32) -> Sc) -> Val {
        let u = &self.units[ui];
        let first = f(u.threads[0]);
        if u.threads.iter().all(|&t| f(t).same(first)) {
            return Val::S(first);
        }
        let mut v = vec![Sc::I(0); self.block_threads as usize];
        for &t in &u.threads {
            v[t as usize] = f(t);
        }
        Val::PT(Rc::new(v))
    }

    /// Applies `f` to scalar operands, per thread where they differ.
    fn map_scalars(
        &self,
        ui: usize,
        op: OpId,
        vals: &[Val],
        f: impl Fn(&[Sc]) -> Result<Sc, String>,
    ) -> Result<Val, Diagnostic> {
        if vals.iter().any(|v| !v.is_scalar()) {
            return Err(self.err(op, "expected scalar operands"));
        }
        if vals.iter().all(|v| matches!(v, Val::S(_))) {
            let xs: Vec<Sc> = vals.iter().map(|v| v.scalar_at(0).unwrap()).collect();
            return f(&xs).map(Val::S).map_err(|e| self.err(op, e));
        }
        let u = &self.units[ui];
        let mut out = vec![Sc::I(0); self.block_threads as usize];
        let mut xs = vec![Sc::I(0); vals.len()];
        for &t in &u.threads {
            for (x, v) in xs.iter_mut().zip(vals) {
                *x = v.scalar_at(t).unwrap();
            }
            out[t as usize] = f(&xs).map_err(|e| self.err(op, format!("{e} (on thread {t})")))?;
        }
        let first = out[u.threads[0] as usize];
        if u.threads.iter().all(|&t| out[t as usize].same(first)) {
            return Ok(Val::S(first));
        }
        Ok(Val::PT(Rc::new(out)))
    }

    /// Splits the unit where the scalar operands an op needs uniform differ between threads.
    /// Returns true when the unit was split (it keeps one class of threads and runs the op).
    fn split_divergent(&mut self, ui: usize, op: OpId) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let name = ctx.op_name_str(op);
        let operands = ctx.operands(op);
        // A loop needs uniform bounds; its iteration arguments may differ per thread.
        let operands = match tilus_dialects::scf::ForOp::cast(ctx, op) {
            Some(f) => &operands[..operands.len() - f.init_args(ctx).len()],
            None => operands,
        };
        let env = &self.units[ui].env;
        let pts: Vec<Rc<Vec<Sc>>> = operands
            .iter()
            .filter_map(|v| match &env[v.index()] {
                Val::PT(p) => Some(p.clone()),
                _ => None,
            })
            .collect();
        if pts.is_empty() {
            return Ok(());
        }
        let threads = &self.units[ui].threads;
        let t0 = threads[0] as usize;
        if threads
            .iter()
            .all(|&t| pts.iter().all(|p| p[t as usize].same(p[t0])))
        {
            return Ok(());
        }
        let threads = threads.clone();
        let key = |t: u32| -> Vec<Sc> { pts.iter().map(|p| p[t as usize]).collect() };
        let same = |a: &[Sc], b: &[Sc]| a.iter().zip(b).all(|(x, y)| x.same(*y));
        if is_collective(self.ctx, op) {
            return Err(self.err(
                op,
                format!(
                    "'{name}' needs one value of its scalar operands for the whole group, but they differ between threads of {}",
                    describe_threads(&threads)
                ),
            ));
        }
        // Partition by value; the first class stays.
        let mut classes: Vec<(Vec<Sc>, Vec<u32>)> = Vec::new();
        for &t in &threads {
            let k = key(t);
            match classes.iter_mut().find(|(c, _)| same(c, &k)) {
                Some((_, ts)) => ts.push(t),
                None => classes.push((k, vec![t])),
            }
        }
        for (_, ts) in classes.into_iter().skip(1) {
            self.split_off(ui, &ts);
        }
        Ok(())
    }

    fn set_next_after(&mut self, ui: usize, op: OpId) {
        let next = self.ctx.next_op(op);
        if let Some(f) = self.units[ui].frames.last_mut() {
            f.next = next;
        }
    }

    // ----- dispatch -----------------------------------------------------------------------

    pub(crate) fn exec(&mut self, ui: usize, op: OpId) -> Result<Flow, Diagnostic> {
        let ctx = self.ctx;
        use tilus_dialects::tilus::{
            FreeSharedOp, LoadGlobalOp, RegisterTensorOp, SharedTensorOp, StoreGlobalOp,
            StoreSharedOp,
        };
        // Tile ops whose per-thread operands the interpreter resolves by register layout, as
        // the lowering does (`exec/perthread.rs`), and stores that each thread makes for its
        // own elements (no need to wait for the rest of the group).
        let resolves_per_thread = RegisterTensorOp::cast(ctx, op).is_some()
            || LoadGlobalOp::cast(ctx, op).is_some()
            || StoreGlobalOp::cast(ctx, op).is_some();
        // Shared allocation and free are resolved when compiling: part of a group performs
        // them for the whole group (`group_op_done`) rather than waiting for the rest.
        let no_convergence = StoreGlobalOp::cast(ctx, op).is_some()
            || StoreSharedOp::cast(ctx, op).is_some()
            || SharedTensorOp::cast(ctx, op).is_some()
            || FreeSharedOp::cast(ctx, op).is_some();
        if !takes_per_thread(ctx, op) && !resolves_per_thread {
            self.split_divergent(ui, op)?;
        }
        if is_collective(ctx, op) && !no_convergence {
            let (b, s) = self.units[ui].group();
            if (self.units[ui].threads.len() as i64) < s {
                return Ok(Flow::Wait(Block::Converge {
                    op,
                    begin: b,
                    size: s,
                }));
            }
        }
        use tilus_dialects as d;
        if let Some(k) = d::arith::ArithOpKind::classify(ctx, op) {
            return self.exec_arith(ui, op, k);
        }
        if let Some(k) = d::scf::ScfOpKind::classify(ctx, op) {
            return self.exec_scf(ui, op, k);
        }
        if let Some(k) = d::threadgroup::ThreadgroupOpKind::classify(ctx, op) {
            return self.exec_group(ui, op, k);
        }
        if let Some(k) = d::cf::CfOpKind::classify(ctx, op) {
            return self.exec_cf(ui, op, k);
        }
        if let Some(k) = d::tilus::TilusOpKind::classify(ctx, op) {
            return self.exec_tilus(ui, op, k);
        }
        if let Some(d::layout::LayoutOpKind::Convert(c)) =
            d::layout::LayoutOpKind::classify(ctx, op)
        {
            // A layout conversion moves no values at tile granularity.
            let t = self.tensor(ui, c.source(ctx), op)?;
            self.set(ui, c.result(ctx), Val::Tensor(t));
            return Ok(Flow::Next);
        }
        if let Some(k) = d::mbarrier::MbarrierOpKind::classify(ctx, op) {
            return self.exec_mbarrier(ui, op, k);
        }
        if let Some(k) = d::tma::TmaOpKind::classify(ctx, op) {
            return self.exec_tma(ui, op, k);
        }
        if let Some(k) = d::wgmma::WgmmaOpKind::classify(ctx, op) {
            return self.exec_wgmma(ui, op, k);
        }
        if let Some(k) = d::tcgen05::Tcgen05OpKind::classify(ctx, op) {
            return self.exec_tcgen05(ui, op, k);
        }
        Err(self.unsupported(op))
    }

    /// The report for an op the interpreter has no semantics for.
    pub(super) fn unsupported(&self, op: OpId) -> Diagnostic {
        self.err(
            op,
            format!("the interpreter does not support '{}'", self.name(op)),
        )
    }
}

/// A short description of a value for messages.
pub(crate) fn describe_val(v: &Val) -> &'static str {
    match v {
        Val::Undef => "a value not computed by these threads",
        Val::S(_) | Val::PT(_) => "a scalar",
        Val::Ptr(_) => "a pointer",
        Val::Tensor(_) | Val::Token(_) => "a register tensor",
        Val::Global(_) => "a global view",
        Val::Shared(_) => "a shared tensor",
        Val::Bars { .. } => "mbarriers",
        Val::Tmem(_) => "a tensor-memory tensor",
        Val::Divergent => "a value that differs between the threads that merged here",
    }
}
