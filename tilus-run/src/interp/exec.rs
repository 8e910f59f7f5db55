//! Op semantics.

use super::affine::{ceil_div, floor_div};
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
use tilus_dialects::tilus_types::{attr_i64s, prop_i64, Space, TensorType, DYN};
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

/// `a op b` on integers of `bits` bits (values normalized to the type); `None` for other ops.
pub(crate) fn int_binop(
    name: &str,
    a: i64,
    b: i64,
    bits: u32,
    unsigned: bool,
) -> Option<Result<i64, String>> {
    let w = |v: i128| Ok(wrap(v, bits, unsigned));
    let sa = as_signed(a, bits) as i128;
    let sb = as_signed(b, bits) as i128;
    let ua = as_unsigned(a, bits) as i128;
    let ub = as_unsigned(b, bits) as i128;
    let zero = || Err("integer division by zero".to_string());
    Some(match name {
        "arith.addi" => w(sa + sb),
        "arith.subi" => w(sa - sb),
        "arith.muli" => w(sa.wrapping_mul(sb)),
        "arith.divsi" => {
            if sb == 0 {
                zero()
            } else {
                w(sa / sb)
            }
        }
        "arith.divui" => {
            if ub == 0 {
                zero()
            } else {
                w(ua / ub)
            }
        }
        "arith.remsi" => {
            if sb == 0 {
                zero()
            } else {
                w(sa % sb)
            }
        }
        "arith.remui" => {
            if ub == 0 {
                zero()
            } else {
                w(ua % ub)
            }
        }
        "arith.ceildivsi" => {
            if sb == 0 {
                zero()
            } else {
                w(ceil_div(sa as i64, sb as i64) as i128)
            }
        }
        "arith.floordivsi" => {
            if sb == 0 {
                zero()
            } else {
                w(floor_div(sa as i64, sb as i64) as i128)
            }
        }
        "arith.andi" => w(ua & ub),
        "arith.ori" => w(ua | ub),
        "arith.xori" => w(ua ^ ub),
        "arith.shli" => {
            if ub >= bits as i128 {
                w(0)
            } else {
                w(ua << ub)
            }
        }
        "arith.shrui" => {
            if ub >= bits as i128 {
                w(0)
            } else {
                w(ua >> ub)
            }
        }
        "arith.shrsi" => w(sa >> ub.min(bits as i128 - 1)),
        "arith.maxsi" => w(sa.max(sb)),
        "arith.minsi" => w(sa.min(sb)),
        "arith.maxui" => w(ua.max(ub)),
        "arith.minui" => w(ua.min(ub)),
        _ => return None,
    })
}

const CMPI: [&str; 10] = [
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];
const CMPF: [&str; 16] = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

fn cmpf(pred: &str, a: f64, b: f64) -> bool {
    let unordered = a.is_nan() || b.is_nan();
    let (ordered_pred, base) = match pred {
        "false" => return false,
        "true" => return true,
        "ord" => return !unordered,
        "uno" => return unordered,
        p if p.starts_with('o') => (true, &p[1..]),
        p => (false, &p[1..]),
    };
    if unordered {
        return !ordered_pred;
    }
    match base {
        "eq" => a == b,
        "ne" => a != b,
        "gt" => a > b,
        "ge" => a >= b,
        "lt" => a < b,
        "le" => a <= b,
        _ => false,
    }
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

    fn operand(&self, op: OpId, i: usize) -> Value {
        self.ctx.operands(op)[i]
    }

    fn result(&self, op: OpId) -> Value {
        self.ctx.results(op)[0]
    }

    /// Operand groups of a declared op (variadic and optional operands).
    fn groups(&self, op: OpId) -> Vec<Vec<Value>> {
        let ops = self.ctx.operands(op);
        let Some(def) = self.ctx.op_def(op) else {
            return ops.iter().map(|&v| vec![v]).collect();
        };
        let sizes = tilus_ir::format::segment_sizes(self.ctx, def, op, ops.len());
        let mut out = Vec::new();
        let mut at = 0;
        for s in sizes {
            let end = (at + s).min(ops.len());
            out.push(ops[at..end].to_vec());
            at = end;
        }
        out
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
            other => Err(self.err(
                op,
                format!("expected a register tensor, found {}", describe_val(other)),
            )),
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
        let operands = if name == "scf.for" {
            &operands[..3]
        } else {
            operands
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
        let name = ctx.op_name_str(op);
        if !takes_per_thread(ctx, op) {
            self.split_divergent(ui, op)?;
        }
        if is_collective(ctx, op) {
            let (b, s) = self.units[ui].group();
            if (self.units[ui].threads.len() as i64) < s {
                return Ok(Flow::Wait(Block::Converge {
                    op,
                    begin: b,
                    size: s,
                }));
            }
        }
        let dialect = name.split('.').next().unwrap_or("");
        match dialect {
            "arith" => self.exec_arith(ui, op, name),
            "scf" => self.exec_scf(ui, op, name),
            "threadgroup" => self.exec_group(ui, op, name),
            "tilus" => self.exec_tilus(ui, op, name),
            "layout" => {
                let t = self.tensor(ui, self.operand(op, 0), op)?;
                self.set(ui, self.result(op), Val::Tensor(t));
                Ok(Flow::Next)
            }
            "mbarrier" => self.exec_mbarrier(ui, op, name),
            "tma" => self.exec_tma(ui, op, name),
            "wgmma" => self.exec_wgmma(ui, op, name),
            "tcgen05" => self.exec_tcgen05(ui, op, name),
            _ => Err(self.err(op, format!("the interpreter does not support '{name}'"))),
        }
    }

    // ----- arith ----------------------------------------------------------------------------

    fn exec_arith(&mut self, ui: usize, op: OpId, name: &str) -> Result<Flow, Diagnostic> {
        let res = self.result(op);
        let rk = scalar_kind(self.ctx, self.ctx.value_type(res)).ok_or_else(|| {
            self.err(
                op,
                format!("'{name}' on non-scalar types is not supported by the interpreter"),
            )
        })?;
        if name == "arith.constant" {
            let a = self
                .ctx
                .get_inherent_or_attr(op, "value")
                .ok_or_else(|| self.err(op, "constant without a value"))?;
            let v = match self.ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => {
                    let x: i128 = i128::try_from(value).unwrap_or(0);
                    normalize(rk, Sc::I(x as i64))
                }
                AttrKind::Float { bits, ty } => match self.ctx.type_kind(*ty) {
                    tilus_ir::TypeKind::Float(k) => Sc::F(tilus_ir::float::to_f64(*k, *bits)),
                    _ => return Err(self.err(op, "malformed float constant")),
                },
                AttrKind::Bool(b) => Sc::I(*b as i64),
                _ => return Err(self.err(op, "unsupported constant")),
            };
            self.set(ui, res, Val::S(v));
            return Ok(Flow::Next);
        }
        let vals: Vec<Val> = self
            .ctx
            .operands(op)
            .iter()
            .map(|&v| self.get(ui, v))
            .collect();
        let src_kind = self
            .ctx
            .operands(op)
            .first()
            .and_then(|&v| scalar_kind(self.ctx, self.ctx.value_type(v)));
        let out = match name {
            "arith.cmpi" => {
                let p = prop_i64(self.ctx, op, "predicate").unwrap_or(0) as usize;
                let pred = CMPI.get(p).copied().unwrap_or("eq");
                let bits = match src_kind {
                    Some(ScalarKind::Int { bits, .. }) => bits,
                    _ => 64,
                };
                self.map_scalars(ui, op, &vals, |x| {
                    let (a, b) = (x[0].as_i64(), x[1].as_i64());
                    let (sa, sb) = (as_signed(a, bits), as_signed(b, bits));
                    let (ua, ub) = (as_unsigned(a, bits), as_unsigned(b, bits));
                    let r = match pred {
                        "eq" => ua == ub,
                        "ne" => ua != ub,
                        "slt" => sa < sb,
                        "sle" => sa <= sb,
                        "sgt" => sa > sb,
                        "sge" => sa >= sb,
                        "ult" => ua < ub,
                        "ule" => ua <= ub,
                        "ugt" => ua > ub,
                        _ => ua >= ub,
                    };
                    Ok(Sc::I(r as i64))
                })?
            }
            "arith.cmpf" => {
                let p = prop_i64(self.ctx, op, "predicate").unwrap_or(0) as usize;
                let pred = CMPF.get(p).copied().unwrap_or("false");
                self.map_scalars(ui, op, &vals, |x| {
                    Ok(Sc::I(cmpf(pred, x[0].as_f64(), x[1].as_f64()) as i64))
                })?
            }
            "arith.select" => {
                if !vals[1].is_scalar() || !vals[2].is_scalar() {
                    // A select of non-scalars needs a uniform condition.
                    let c = self.scalar(ui, self.operand(op, 0), op)?.as_i64();
                    let pick = if c & 1 == 1 { &vals[1] } else { &vals[2] };
                    let pick = pick.clone();
                    self.set(ui, res, pick);
                    return Ok(Flow::Next);
                }
                self.map_scalars(ui, op, &vals, |x| {
                    Ok(if x[0].as_i64() & 1 == 1 { x[1] } else { x[2] })
                })?
            }
            "arith.negf" => {
                self.map_scalars(ui, op, &vals, |x| Ok(normalize(rk, Sc::F(-x[0].as_f64()))))?
            }
            "arith.addf" | "arith.subf" | "arith.mulf" | "arith.divf" | "arith.maximumf"
            | "arith.minimumf" | "arith.remf" | "arith.maxnumf" | "arith.minnumf" => {
                let n = name.to_string();
                self.map_scalars(ui, op, &vals, |x| {
                    let (a, b) = (x[0].as_f64(), x[1].as_f64());
                    let r = match n.as_str() {
                        "arith.addf" => a + b,
                        "arith.subf" => a - b,
                        "arith.mulf" => a * b,
                        "arith.divf" => a / b,
                        "arith.remf" => a % b,
                        "arith.maximumf" => {
                            if a.is_nan() || b.is_nan() {
                                f64::NAN
                            } else {
                                a.max(b)
                            }
                        }
                        "arith.minimumf" => {
                            if a.is_nan() || b.is_nan() {
                                f64::NAN
                            } else {
                                a.min(b)
                            }
                        }
                        "arith.maxnumf" => a.max(b),
                        _ => a.min(b),
                    };
                    Ok(normalize(rk, Sc::F(r)))
                })?
            }
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui"
            | "arith.trunci" | "arith.sitofp" | "arith.uitofp" | "arith.fptosi"
            | "arith.fptoui" | "arith.extf" | "arith.truncf" | "arith.bitcast" => {
                let sk = src_kind.ok_or_else(|| self.err(op, "expected a scalar operand"))?;
                let sbits = match sk {
                    ScalarKind::Int { bits, .. } => bits,
                    ScalarKind::Float(k) => k.width(),
                };
                let n = name.to_string();
                self.map_scalars(ui, op, &vals, |x| {
                    let v = x[0];
                    let r = match n.as_str() {
                        "arith.index_cast" | "arith.extsi" => Sc::I(as_signed(v.as_i64(), sbits)),
                        "arith.index_castui" | "arith.extui" => {
                            Sc::I(as_unsigned(v.as_i64(), sbits) as i64)
                        }
                        "arith.trunci" => Sc::I(v.as_i64()),
                        "arith.sitofp" => Sc::F(as_signed(v.as_i64(), sbits) as f64),
                        "arith.uitofp" => Sc::F(as_unsigned(v.as_i64(), sbits) as f64),
                        "arith.fptosi" | "arith.fptoui" => Sc::I(v.as_f64().trunc() as i64),
                        "arith.extf" | "arith.truncf" => Sc::F(v.as_f64()),
                        _ => bitcast(sk, rk, v)?,
                    };
                    Ok(normalize(rk, r))
                })?
            }
            _ => {
                let (bits, unsigned) = match rk {
                    ScalarKind::Int { bits, unsigned } => (bits, unsigned),
                    ScalarKind::Float(_) => {
                        return Err(
                            self.err(op, format!("the interpreter does not support '{name}'"))
                        )
                    }
                };
                if int_binop(name, 0, 1, bits, unsigned).is_none() {
                    return Err(self.err(op, format!("the interpreter does not support '{name}'")));
                }
                let n = name.to_string();
                self.map_scalars(ui, op, &vals, |x| {
                    int_binop(&n, x[0].as_i64(), x[1].as_i64(), bits, unsigned)
                        .unwrap()
                        .map(Sc::I)
                })?
            }
        };
        self.set(ui, res, out);
        Ok(Flow::Next)
    }

    // ----- scf ------------------------------------------------------------------------------

    fn exec_scf(&mut self, ui: usize, op: OpId, name: &str) -> Result<Flow, Diagnostic> {
        match name {
            "scf.for" => {
                let lb = self.scalar(ui, self.operand(op, 0), op)?.as_i64();
                let ub = self.scalar(ui, self.operand(op, 1), op)?.as_i64();
                let step = self.scalar(ui, self.operand(op, 2), op)?.as_i64();
                let kind = scalar_kind(self.ctx, self.ctx.value_type(self.operand(op, 0)))
                    .unwrap_or(ScalarKind::Int {
                        bits: 64,
                        unsigned: false,
                    });
                if step <= 0 {
                    return Err(self.err(op, format!("scf.for with a non-positive step ({step})")));
                }
                let unsigned_cmp = self.ctx.get_inherent_or_attr(op, "unsignedCmp").is_some();
                let bits = match kind {
                    ScalarKind::Int { bits, .. } => bits,
                    _ => 64,
                };
                let runs = if unsigned_cmp {
                    as_unsigned(lb, bits) < as_unsigned(ub, bits)
                } else {
                    lb < ub
                };
                let inits: Vec<Val> = self.ctx.operands(op)[3..]
                    .iter()
                    .map(|&v| self.get(ui, v))
                    .collect();
                if !runs {
                    for (r, v) in self.ctx.results(op).to_vec().into_iter().zip(inits) {
                        self.set(ui, r, v);
                    }
                    return Ok(Flow::Next);
                }
                let body = self.ctx.region_blocks(self.ctx.regions(op)[0])[0];
                let args = self.ctx.block_args(body).to_vec();
                self.set(ui, args[0], Val::S(Sc::I(lb)));
                for (a, v) in args[1..].iter().zip(inits) {
                    self.set(ui, *a, v);
                }
                self.set_next_after(ui, op);
                let first = self.ctx.block_first(body);
                self.units[ui].frames.push(super::machine::Frame {
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
            "scf.if" => {
                let c = self.get(ui, self.operand(op, 0));
                let regions = self.ctx.regions(op).to_vec();
                let block_of = |i: usize| -> Option<tilus_ir::BlockId> {
                    regions
                        .get(i)
                        .and_then(|&r| self.ctx.region_blocks(r).first().copied())
                };
                let (then_b, else_b) = (block_of(0), block_of(1));
                let threads = self.units[ui].threads.clone();
                let (t_threads, f_threads): (Vec<u32>, Vec<u32>) = threads
                    .iter()
                    .partition(|&&t| c.scalar_at(t).map(|s| s.as_i64() & 1 == 1).unwrap_or(false));
                self.set_next_after(ui, op);
                if f_threads.is_empty() || t_threads.is_empty() {
                    let b = if f_threads.is_empty() { then_b } else { else_b };
                    if let Some(b) = b {
                        let first = self.ctx.block_first(b);
                        self.units[ui].frames.push(super::machine::Frame {
                            kind: FrameKind::If { op, sibling: None },
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
                    self.units[ui].frames.push(super::machine::Frame {
                        kind: FrameKind::If {
                            op,
                            sibling: Some(jid),
                        },
                        next: first,
                    });
                }
                match else_b {
                    Some(b) => {
                        let first = self.ctx.block_first(b);
                        self.units[j].frames.push(super::machine::Frame {
                            kind: FrameKind::If {
                                op,
                                sibling: Some(uid),
                            },
                            next: first,
                        });
                    }
                    None => self.park(j, uid),
                }
                Ok(Flow::Jump)
            }
            _ => Err(self.err(op, format!("the interpreter does not support '{name}'"))),
        }
    }

    // ----- thread groups ------------------------------------------------------------------

    fn exec_group(&mut self, ui: usize, op: OpId, name: &str) -> Result<Flow, Diagnostic> {
        if name == "threadgroup.sync" {
            let (b, s) = self.units[ui].group();
            let mut have = self.units[ui].threads.len() as i64;
            if b == 0 && s == self.block_threads {
                have += self.ctas[self.units[ui].cta].exited as i64;
            }
            if have >= s {
                return Ok(Flow::Next);
            }
            return Ok(Flow::Wait(Block::Sync {
                op,
                begin: b,
                size: s,
            }));
        }
        let (rb, n) = tilus_dialects::threadgroup::group_range(self.ctx, op)
            .ok_or_else(|| self.err(op, format!("the interpreter does not support '{name}'")))?;
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
        let body = self
            .ctx
            .regions(op)
            .first()
            .and_then(|&r| self.ctx.region_blocks(r).first().copied());
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
        self.units[ui].frames.push(super::machine::Frame {
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

    // ----- tilus ----------------------------------------------------------------------------

    fn mem_err(&self, op: OpId, e: crate::memory::MemError) -> Diagnostic {
        self.err(op, format!("'{}': {e}", self.name(op)))
    }

    fn exec_tilus(&mut self, ui: usize, op: OpId, name: &str) -> Result<Flow, Diagnostic> {
        let cta = self.units[ui].cta;
        match name {
            "tilus.block_id" | "tilus.num_blocks" => {
                let d = prop_i64(self.ctx, op, "dim").unwrap_or(0).clamp(0, 2) as usize;
                let v = if name == "tilus.block_id" {
                    self.ctas[cta].block[d]
                } else {
                    self.grid[d]
                };
                self.set(ui, self.result(op), Val::S(Sc::I(v)));
            }
            "tilus.thread_id" | "tilus.warp_id" | "tilus.lane_id" => {
                let (b, _) = self.units[ui].group();
                let v = match name {
                    "tilus.thread_id" => self.per_thread(ui, |t| Sc::I(t as i64 - b)),
                    "tilus.warp_id" => self.per_thread(ui, |t| Sc::I((t as i64 - b) / 32)),
                    _ => self.per_thread(ui, |t| Sc::I(t as i64 % 32)),
                };
                self.set(ui, self.result(op), v);
            }
            "tilus.global_view" => {
                let g = self.groups(op);
                let buf = match self.get(ui, g[0][0]) {
                    Val::Ptr(b) => b,
                    other => {
                        return Err(self.err(
                            op,
                            format!(
                                "expected a pointer parameter, found {}",
                                describe_val(&other)
                            ),
                        ))
                    }
                };
                let tt = self.tensor_type(self.result(op), op)?;
                let extents = self.ints(ui, g.get(1).map_or(&[][..], |v| v), op)?;
                let strides = self.ints(ui, g.get(2).map_or(&[][..], |v| v), op)?;
                let view = build_view(&tt, buf, &extents, &strides).map_err(|e| self.err(op, e))?;
                self.set(ui, self.result(op), Val::Global(Rc::new(view)));
            }
            "tilus.shared_tensor" => {
                let tt = self.tensor_type(self.result(op), op)?;
                let layout = tt.shared_layout().map_err(|e| self.err(op, e))?;
                let bytes = (layout.footprint() * tt.dtype.bits() as i64 + 7) / 8;
                let align = match tt.swizzle {
                    SwizzleMode::None => 128,
                    m => m.repeat_bytes().max(128),
                };
                let base = self.ctas[cta]
                    .smem
                    .alloc(bytes, align)
                    .map_err(|e| self.mem_err(op, e))?;
                self.ctas[cta].shared_allocs.push((base, bytes, op));
                let view = SharedView {
                    base,
                    dtype: tt.dtype,
                    layout,
                };
                self.set(
                    ui,
                    self.result(op),
                    Val::Shared(Rc::new(SharedVal {
                        view,
                        alloc_base: base,
                    })),
                );
            }
            "tilus.free_shared" => {
                let s = self.shared(ui, self.operand(op, 0), op)?;
                let Some(pos) = self.ctas[cta]
                    .shared_allocs
                    .iter()
                    .position(|a| a.0 == s.alloc_base)
                else {
                    return Err(self.err(
                        op,
                        "tilus.free_shared of a tensor that is not allocated (freed twice?)",
                    ));
                };
                let (base, bytes, _) = self.ctas[cta].shared_allocs[pos];
                let r = base..base + bytes;
                self.check_smem_write(cta, &r, op, "tilus.free_shared")?;
                self.ctas[cta].shared_allocs.remove(pos);
                self.ctas[cta].smem.free(base);
            }
            "tilus.register_tensor" => {
                let tt = self.tensor_type(self.result(op), op)?;
                let t = match self.ctx.operands(op).first() {
                    Some(&v) => {
                        let x = self.scalar(ui, v, op)?;
                        Tensor::full(tt.dtype, &tt.shape, x.as_f64())
                    }
                    None => Tensor::zeros(tt.dtype, &tt.shape),
                };
                self.set(ui, self.result(op), Val::Tensor(Rc::new(t)));
            }
            "tilus.load_global" => {
                let g = self.global(ui, self.operand(op, 0), op)?;
                let offs = self.ints(ui, &self.ctx.operands(op)[1..], op)?;
                let tt = self.tensor_type(self.result(op), op)?;
                let t = self
                    .mem
                    .load_box(&g, &offs, &tt.shape)
                    .map_err(|e| self.mem_err(op, e))?;
                self.set(ui, self.result(op), Val::Tensor(Rc::new(t)));
            }
            "tilus.store_global" => {
                let t = self.tensor(ui, self.operand(op, 0), op)?;
                let g = self.global(ui, self.operand(op, 1), op)?;
                let offs = self.ints(ui, &self.ctx.operands(op)[2..], op)?;
                self.mem
                    .store_box(&g, &offs, &t)
                    .map_err(|e| self.mem_err(op, e))?;
            }
            "tilus.load_shared" => {
                let s = self.shared(ui, self.operand(op, 0), op)?;
                let r = SharedMemory::byte_range(&s.view);
                self.check_smem_read(cta, &r, op, "tilus.load_shared")?;
                let t = self.ctas[cta]
                    .smem
                    .read(&s.view)
                    .map_err(|e| self.mem_err(op, e))?;
                self.set(ui, self.result(op), Val::Tensor(Rc::new(t)));
            }
            "tilus.store_shared" => {
                let t = self.tensor(ui, self.operand(op, 0), op)?;
                let s = self.shared(ui, self.operand(op, 1), op)?;
                let r = SharedMemory::byte_range(&s.view);
                self.check_smem_write(cta, &r, op, "tilus.store_shared")?;
                self.ctas[cta]
                    .smem
                    .write(&s.view, &t)
                    .map_err(|e| self.mem_err(op, e))?;
            }
            "tilus.slice_shared" => {
                let s = self.shared(ui, self.operand(op, 0), op)?;
                let idx = self.ints(ui, &self.ctx.operands(op)[1..], op)?;
                let l = &s.view.layout;
                let k = idx.len();
                if k == 0 || k >= l.rank() {
                    return Err(self.err(op, "slice_shared needs 1 to rank-1 indices"));
                }
                let mut base = l.base;
                for (d, &i) in idx.iter().enumerate() {
                    if i < 0 || i >= l.shape[d] {
                        return Err(self.err(
                            op,
                            format!(
                                "out-of-bounds shared access: index {i} of dimension {d} is outside [0, {}) in tilus.slice_shared",
                                l.shape[d]
                            ),
                        ));
                    }
                    base += i * l.strides[d];
                }
                let layout = SharedLayout {
                    shape: l.shape[k..].to_vec(),
                    strides: l.strides[k..].to_vec(),
                    swizzle: l.swizzle,
                    base,
                };
                let v = SharedVal {
                    view: SharedView {
                        base: s.view.base,
                        dtype: s.view.dtype,
                        layout,
                    },
                    alloc_base: s.alloc_base,
                };
                self.set(ui, self.result(op), Val::Shared(Rc::new(v)));
            }
            "tilus.permute_shared" => {
                let s = self.shared(ui, self.operand(op, 0), op)?;
                let perm: Vec<usize> = self
                    .ctx
                    .get_inherent_or_attr(op, "perm")
                    .and_then(|a| attr_i64s(self.ctx, a))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|x| x as usize)
                    .collect();
                let mut v = (*s).clone();
                v.view.layout = s.view.layout.permute(&perm);
                self.set(ui, self.result(op), Val::Shared(Rc::new(v)));
            }
            "tilus.cast" => {
                let t = self.tensor(ui, self.operand(op, 0), op)?;
                let tt = self.tensor_type(self.result(op), op)?;
                let r = tensor::cast(&t, tt.dtype);
                self.set(ui, self.result(op), Val::Tensor(Rc::new(r)));
            }
            "tilus.add" | "tilus.sub" | "tilus.mul" | "tilus.div" | "tilus.mod"
            | "tilus.maximum" | "tilus.minimum" => {
                let a = self.tensor(ui, self.operand(op, 0), op)?;
                let b = self.tensor(ui, self.operand(op, 1), op)?;
                let k = match name {
                    "tilus.add" => BinOp::Add,
                    "tilus.sub" => BinOp::Sub,
                    "tilus.mul" => BinOp::Mul,
                    "tilus.div" => BinOp::Div,
                    "tilus.mod" => BinOp::Mod,
                    "tilus.maximum" => BinOp::Max,
                    _ => BinOp::Min,
                };
                let r = tensor::binary(k, &a, &b).map_err(|e| self.err(op, e))?;
                self.set(ui, self.result(op), Val::Tensor(Rc::new(r)));
            }
            "tilus.cmp" => {
                let a = self.tensor(ui, self.operand(op, 0), op)?;
                let b = self.tensor(ui, self.operand(op, 1), op)?;
                let k = match prop_i64(self.ctx, op, "predicate").unwrap_or(0) {
                    0 => CmpOp::Eq,
                    1 => CmpOp::Ne,
                    2 => CmpOp::Lt,
                    3 => CmpOp::Le,
                    4 => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                let r = tensor::compare(k, &a, &b).map_err(|e| self.err(op, e))?;
                self.set(ui, self.result(op), Val::Tensor(Rc::new(r)));
            }
            "tilus.exp" | "tilus.exp2" | "tilus.log" | "tilus.sqrt" | "tilus.rsqrt"
            | "tilus.tanh" | "tilus.neg" | "tilus.abs" => {
                let a = self.tensor(ui, self.operand(op, 0), op)?;
                let k = match name {
                    "tilus.exp" => UnOp::Exp,
                    "tilus.exp2" => UnOp::Exp2,
                    "tilus.log" => UnOp::Log,
                    "tilus.sqrt" => UnOp::Sqrt,
                    "tilus.rsqrt" => UnOp::Rsqrt,
                    "tilus.tanh" => UnOp::Tanh,
                    "tilus.neg" => UnOp::Neg,
                    _ => UnOp::Abs,
                };
                let r = tensor::unary(k, &a).map_err(|e| self.err(op, e))?;
                self.set(ui, self.result(op), Val::Tensor(Rc::new(r)));
            }
            "tilus.where" => {
                let c = self.tensor(ui, self.operand(op, 0), op)?;
                let a = self.tensor(ui, self.operand(op, 1), op)?;
                let b = self.tensor(ui, self.operand(op, 2), op)?;
                let r = tensor::select(&c, &a, &b).map_err(|e| self.err(op, e))?;
                self.set(ui, self.result(op), Val::Tensor(Rc::new(r)));
            }
            "tilus.reduce" => {
                let a = self.tensor(ui, self.operand(op, 0), op)?;
                let k = match prop_i64(self.ctx, op, "kind").unwrap_or(0) {
                    0 => ReduceKind::Sum,
                    1 => ReduceKind::Max,
                    2 => ReduceKind::Min,
                    3 => ReduceKind::Any,
                    _ => ReduceKind::All,
                };
                let dim = prop_i64(self.ctx, op, "dim").unwrap_or(0) as usize;
                let keep = self.ctx.get_inherent_or_attr(op, "keepdim").is_some();
                let r = tensor::reduce(k, &a, dim, keep).map_err(|e| self.err(op, e))?;
                self.set(ui, self.result(op), Val::Tensor(Rc::new(r)));
            }
            "tilus.dot" => {
                let a = self.tensor(ui, self.operand(op, 0), op)?;
                let b = self.tensor(ui, self.operand(op, 1), op)?;
                let c = self.tensor(ui, self.operand(op, 2), op)?;
                let tt = self.tensor_type(self.result(op), op)?;
                let r = tensor::matmul_acc(&a, &b, &c).map_err(|e| self.err(op, e))?;
                let r = if r.dtype == tt.dtype {
                    r
                } else {
                    tensor::cast(&r, tt.dtype)
                };
                self.set(ui, self.result(op), Val::Tensor(Rc::new(r)));
            }
            "tilus.shuffle_up" | "tilus.shuffle_down" => {
                let x = self.tensor(ui, self.operand(op, 0), op)?;
                let delta = self.int(ui, self.operand(op, 1), op)?;
                let tt = self.tensor_type(self.operand(op, 0), op)?;
                let layout = tt.register_layout().ok_or_else(|| {
                    self.err(op, "the interpreter needs a register layout in the type of a shuffled tensor (which thread holds what)")
                })?;
                let (gb, _) = self.units[ui].group();
                let up = name == "tilus.shuffle_up";
                let r = shuffle(&x, &layout, gb, delta, up).map_err(|e| self.err(op, e))?;
                self.set(ui, self.result(op), Val::Tensor(Rc::new(r)));
            }
            "tilus.fast_divmod" => {
                let a = self.int(ui, self.operand(op, 0), op)?;
                let b = self.int(ui, self.operand(op, 1), op)?;
                if a < 0 || b <= 0 {
                    return Err(self.err(
                        op,
                        format!("tilus.fast_divmod needs a >= 0 and b > 0, found a = {a}, b = {b}"),
                    ));
                }
                let rs = self.ctx.results(op).to_vec();
                self.set(ui, rs[0], Val::S(Sc::I(a / b)));
                self.set(ui, rs[1], Val::S(Sc::I(a % b)));
            }
            "tilus.lock_semaphore" | "tilus.release_semaphore" => {
                let g = self.global(ui, self.operand(op, 0), op)?;
                let n = self.ctx.operands(op).len();
                let offs = self.ints(ui, &self.ctx.operands(op)[1..n - 1], op)?;
                let value = self.int(ui, self.operand(op, n - 1), op)?;
                let shape = vec![1; offs.len()];
                for (d, &o) in offs.iter().enumerate() {
                    if o < 0 || o >= g.shape[d] {
                        return Err(self.err(
                            op,
                            format!("out-of-bounds global access: semaphore index {o} of dimension {d} is outside [0, {})", g.shape[d]),
                        ));
                    }
                }
                if name == "tilus.release_semaphore" {
                    let t = Tensor::full(g.dtype, &shape, value as f64);
                    self.mem
                        .store_box(&g, &offs, &t)
                        .map_err(|e| self.mem_err(op, e))?;
                } else {
                    let t = self
                        .mem
                        .load_box(&g, &offs, &shape)
                        .map_err(|e| self.mem_err(op, e))?;
                    if t.data[0] != value as f64 {
                        return Ok(Flow::Wait(Block::Sem {
                            op,
                            view: g,
                            offsets: offs,
                            value,
                        }));
                    }
                }
            }
            _ => return Err(self.err(op, format!("the interpreter does not support '{name}'"))),
        }
        Ok(Flow::Next)
    }

    // ----- mbarrier -------------------------------------------------------------------------

    fn bar_index(&self, first: usize, n: usize, idx: i64, op: OpId) -> Result<usize, Diagnostic> {
        if idx < 0 || idx as usize >= n {
            return Err(self.err(
                op,
                format!("barrier index {idx} is outside the {n} allocated barriers"),
            ));
        }
        Ok(first + idx as usize)
    }

    fn cta_of_rank(&self, rank: i64, op: OpId) -> Result<usize, Diagnostic> {
        let n = self.ctas.len() as i64;
        if rank < 0 || rank >= n {
            return Err(self.err(
                op,
                format!(
                    "CTA rank {rank} is outside the cluster of {n} block{}",
                    if n == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(rank as usize)
    }

    /// `arrive(k)` (after `expect_tx(tx)`) on barrier `bar` of CTA `cta`, reporting over-arrival.
    fn do_arrive(
        &mut self,
        op: OpId,
        cta: usize,
        bar: usize,
        k: i64,
        tx: i64,
        who: &[u32],
    ) -> Result<(), Diagnostic> {
        let b = &mut self.ctas[cta].bars[bar];
        if tx != 0 {
            b.expect_tx(tx);
        }
        let before = b.describe();
        let c0 = b.completed;
        let r = b.arrive(k);
        if b.completed != c0 {
            self.flips += 1;
        }
        if let Err(m) = r {
            let b = &self.ctas[cta].bars[bar];
            return Err(self
                .err(
                    op,
                    format!(
                        "arrivals beyond the expected count: {} arrive{} on barrier {}: {m}",
                        describe_threads(who),
                        if who.len() == 1 { "s" } else { "" },
                        b.index
                    ),
                )
                .with_note(
                    DiagLoc::Op(b.alloc),
                    format!("barrier {} was allocated here; before the arrival: {before}", b.index),
                )
                .with_help("every thread of the executing group arrives; wrap the arrive in threadgroup.single_thread for one arrival, or raise the barrier's count"));
        }
        Ok(())
    }

    fn exec_mbarrier(&mut self, ui: usize, op: OpId, name: &str) -> Result<Flow, Diagnostic> {
        let cta = self.units[ui].cta;
        match name {
            "mbarrier.alloc" => {
                let (first, counts) = self
                    .bar_plan
                    .get(&op)
                    .cloned()
                    .ok_or_else(|| self.err(op, "mbarrier.alloc outside the kernel"))?;
                self.set(
                    ui,
                    self.result(op),
                    Val::Bars {
                        first,
                        n: counts.len(),
                        alloc: op,
                    },
                );
            }
            "mbarrier.producer_initial_phase" => self.set(ui, self.result(op), Val::S(Sc::I(1))),
            "mbarrier.consumer_initial_phase" => self.set(ui, self.result(op), Val::S(Sc::I(0))),
            "mbarrier.arrive"
            | "mbarrier.arrive_expect_tx"
            | "mbarrier.arrive_expect_tx_remote" => {
                let ops = self.ctx.operands(op).to_vec();
                let (first, n, _) = self.bars(ui, ops[0], op)?;
                // Per-thread operands: group threads by (index, count/bytes, rank).
                let vals: Vec<Val> = ops[1..].iter().map(|&v| self.get(ui, v)).collect();
                let threads = self.units[ui].threads.clone();
                let mut classes: Vec<(Vec<i64>, Vec<u32>)> = Vec::new();
                for &t in &threads {
                    let k: Vec<i64> = vals
                        .iter()
                        .map(|v| v.scalar_at(t).map(|s| s.as_i64()).unwrap_or(0))
                        .collect();
                    match classes.iter_mut().find(|(c, _)| *c == k) {
                        Some((_, ts)) => ts.push(t),
                        None => classes.push((k, vec![t])),
                    }
                }
                for (k, ts) in classes {
                    let bar = self.bar_index(first, n, k[0], op)?;
                    let cnt = ts.len() as i64;
                    match name {
                        "mbarrier.arrive" => {
                            let per = k.get(1).copied().unwrap_or(1);
                            if per < 1 {
                                return Err(
                                    self.err(op, format!("arrive count {per} must be at least 1"))
                                );
                            }
                            self.do_arrive(op, cta, bar, cnt * per, 0, &ts)?;
                        }
                        "mbarrier.arrive_expect_tx" => {
                            self.do_arrive(op, cta, bar, cnt, cnt * k[1], &ts)?;
                        }
                        _ => {
                            let target = self.cta_of_rank(k[2], op)?;
                            self.do_arrive(op, target, bar, cnt, cnt * k[1], &ts)?;
                        }
                    }
                }
            }
            "mbarrier.arrive_expect_tx_multicast" => {
                let ops = self.ctx.operands(op).to_vec();
                let (first, n, _) = self.bars(ui, ops[0], op)?;
                let idx = self.int(ui, ops[1], op)?;
                let bytes = self.int(ui, ops[2], op)?;
                let mask = self.int(ui, ops[3], op)?;
                let bar = self.bar_index(first, n, idx, op)?;
                let (gb, _) = self.units[ui].group();
                for r in 0..16i64 {
                    if mask >> r & 1 == 0 {
                        continue;
                    }
                    let t = (gb + r) as u32;
                    if self.units[ui].threads.binary_search(&t).is_err() {
                        continue;
                    }
                    let target = self.cta_of_rank(r, op)?;
                    self.do_arrive(op, target, bar, 1, bytes, &[t])?;
                }
            }
            "mbarrier.wait" => {
                let ops = self.ctx.operands(op).to_vec();
                let (first, n, _) = self.bars(ui, ops[0], op)?;
                let idx = self.int(ui, ops[1], op)?;
                let parity = self.int(ui, ops[2], op)?;
                if parity != 0 && parity != 1 {
                    return Err(self.err(
                        op,
                        format!("mbarrier.wait on phase {parity}: the parity must be 0 or 1"),
                    ));
                }
                let bar = self.bar_index(first, n, idx, op)?;
                let b = &self.ctas[cta].bars[bar];
                if b.phase == parity as u8 {
                    return Ok(Flow::Wait(Block::Bar {
                        op,
                        cta,
                        bar,
                        parity: parity as u8,
                    }));
                }
                // The oldest phase count any waiting thread observed (0 for a first wait).
                let seen = self.units[ui]
                    .threads
                    .iter()
                    .map(|t| b.seen.get(t).copied().unwrap_or(0))
                    .min()
                    .unwrap_or(0);
                if b.completed >= seen + 2 {
                    let d = self
                        .err(
                            op,
                            format!(
                                "{} waited on barrier {} for the phase of parity {parity}, but the barrier completed {} phases since they last observed it (the parity cannot tell them apart: a phase was missed)",
                                self.units[ui].describe_threads(),
                                b.index,
                                b.completed - seen
                            ),
                        )
                        .with_note(DiagLoc::Op(b.alloc), format!("barrier {} was allocated here ({})", b.index, b.describe()))
                        .with_help("check the stage count and the phase flips: each waiter must observe every phase of the barriers it waits on");
                    return Err(d);
                }
                let b = &mut self.ctas[cta].bars[bar];
                let c = b.completed;
                for &t in &self.units[ui].threads {
                    b.seen.insert(t, c);
                }
            }
            _ => return Err(self.err(op, format!("the interpreter does not support '{name}'"))),
        }
        Ok(Flow::Next)
    }

    // ----- tma ------------------------------------------------------------------------------

    /// The box a TMA copy moves: the view's rank, with the shared tile's extents on `dims`.
    fn tma_box(
        &self,
        op: OpId,
        view: &GlobalView,
        tile: &[i64],
        offsets: &[i64],
    ) -> Result<Vec<i64>, Diagnostic> {
        let dims: Vec<usize> = match self
            .ctx
            .get_inherent_or_attr(op, "dims")
            .and_then(|a| attr_i64s(self.ctx, a))
        {
            Some(d) => d.into_iter().map(|x| x as usize).collect(),
            None => (0..view.shape.len()).collect(),
        };
        if offsets.len() != view.shape.len() || dims.len() != tile.len() {
            return Err(self.err(
                op,
                format!(
                    "TMA box: {} offsets for a view of rank {}, and {} box dims for a tile of rank {}",
                    offsets.len(),
                    view.shape.len(),
                    dims.len(),
                    tile.len()
                ),
            ));
        }
        let mut full = vec![1i64; view.shape.len()];
        for (i, &d) in dims.iter().enumerate() {
            if d >= full.len() {
                return Err(self.err(op, format!("TMA dims entry {d} is outside the view's rank")));
            }
            full[d] = tile[i];
        }
        Ok(full)
    }

    fn exec_tma(&mut self, ui: usize, op: OpId, name: &str) -> Result<Flow, Diagnostic> {
        let cta = self.units[ui].cta;
        if name.starts_with("tma.fence") {
            return Ok(Flow::Next);
        }
        let Some(leader) = self.leader(ui) else {
            // Only the leader lane issues and tracks groups.
            return Ok(Flow::Next);
        };
        match name {
            "tma.global_to_shared" => {
                let g = self.groups(op);
                let src = self.global(ui, g[0][0], op)?;
                let offs = self.ints(ui, &g[1], op)?;
                let dst = self.shared(ui, g[2][0], op)?;
                let (first, n, _) = self.bars(ui, g[3][0], op)?;
                let idx = self.int(ui, g[4][0], op)?;
                let mask = match g.get(5).and_then(|v| v.first()) {
                    Some(&m) => Some(self.int(ui, m, op)?),
                    None => None,
                };
                let bar = self.bar_index(first, n, idx, op)?;
                let tile = dst.view.layout.shape.clone();
                let full = self.tma_box(op, &src, &tile, &offs)?;
                let t = self
                    .mem
                    .load_box(&src, &offs, &full)
                    .map_err(|e| self.mem_err(op, e))?;
                let data = Tensor {
                    dtype: t.dtype,
                    shape: tile.clone(),
                    data: t.data,
                };
                let bytes = (tile.iter().product::<i64>() * dst.view.dtype.bits() as i64 + 7) / 8;
                let ctas: Vec<usize> = match mask {
                    Some(m) => {
                        let mut v = Vec::new();
                        for r in 0..16 {
                            if m >> r & 1 == 1 {
                                v.push(self.cta_of_rank(r, op)?);
                            }
                        }
                        v
                    }
                    None => vec![cta],
                };
                let cta_group = prop_i64(self.ctx, op, "cta_group").unwrap_or(1);
                let bars: Vec<(usize, usize)> = ctas
                    .iter()
                    .map(|&c| {
                        (
                            if cta_group == 2 && mask.is_none() {
                                c & !1
                            } else {
                                c
                            },
                            bar,
                        )
                    })
                    .collect();
                let r = SharedMemory::byte_range(&dst.view);
                for &c in &ctas {
                    self.check_smem_write(c, &r, op, "tma.global_to_shared")?;
                }
                let a = AsyncOp {
                    id: 0,
                    op,
                    cta,
                    due: 0,
                    queue: None,
                    smem_reads: Vec::new(),
                    smem_writes: ctas.iter().map(|&c| (c, r.clone())).collect(),
                    tmem_writes: Vec::new(),
                    kind: AsyncKind::TmaLoad {
                        data: Rc::new(data),
                        dst: dst.view.clone(),
                        ctas,
                        bars,
                        bytes,
                    },
                };
                self.issue(a);
            }
            "tma.shared_to_global" => {
                let g = self.groups(op);
                let src = self.shared(ui, g[0][0], op)?;
                let dst = self.global(ui, g[1][0], op)?;
                let offs = self.ints(ui, &g[2], op)?;
                let tile = src.view.layout.shape.clone();
                let full = self.tma_box(op, &dst, &tile, &offs)?;
                let r = SharedMemory::byte_range(&src.view);
                self.check_smem_read(cta, &r, op, "tma.shared_to_global")?;
                let a = AsyncOp {
                    id: 0,
                    op,
                    cta,
                    due: 0,
                    queue: Some(QueueKey::Bulk(cta, leader)),
                    smem_reads: vec![(cta, r)],
                    smem_writes: Vec::new(),
                    tmem_writes: Vec::new(),
                    kind: AsyncKind::TmaStore {
                        src: src.view.clone(),
                        dst: (*dst).clone(),
                        offsets: offs,
                        shape: full,
                    },
                };
                let id = self.issue(a);
                self.ctas[cta]
                    .bulk
                    .entry(leader)
                    .or_default()
                    .open
                    .push((id, None));
            }
            "tma.commit_group" => {
                let g = self.ctas[cta].bulk.entry(leader).or_default();
                let open = std::mem::take(&mut g.open);
                g.groups.push_back(open);
            }
            "tma.wait_group" => {
                let n = prop_i64(self.ctx, op, "n").unwrap_or(0).max(0) as usize;
                let pending = self.ctas[cta]
                    .bulk
                    .get(&leader)
                    .map(|g| self.pending_groups(g))
                    .unwrap_or(0);
                if pending > n {
                    return Ok(Flow::Wait(Block::Bulk {
                        op,
                        thread: leader,
                        n,
                    }));
                }
                self.retire_groups(cta, None, Some(leader));
            }
            _ => return Err(self.err(op, format!("the interpreter does not support '{name}'"))),
        }
        Ok(Flow::Next)
    }

    /// Drops completed groups from the front of a warpgroup's (wgmma) or thread's (bulk)
    /// queue, retiring their tokens.
    fn retire_groups(&mut self, cta: usize, wg: Option<i64>, thread: Option<u32>) {
        let done: Vec<u64> = Vec::new();
        let _ = done;
        let groups = {
            let c = &mut self.ctas[cta];
            let g = match (wg, thread) {
                (Some(k), _) => c.wg.get_mut(&k),
                (_, Some(t)) => c.bulk.get_mut(&t),
                _ => None,
            };
            match g {
                Some(g) => std::mem::take(&mut g.groups),
                None => return,
            }
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
        let c = &mut self.ctas[cta];
        let g = match (wg, thread) {
            (Some(k), _) => c.wg.get_mut(&k),
            (_, Some(t)) => c.bulk.get_mut(&t),
            _ => None,
        };
        if let Some(g) = g {
            g.groups = keep;
        }
    }

    // ----- wgmma ----------------------------------------------------------------------------

    fn exec_wgmma(&mut self, ui: usize, op: OpId, name: &str) -> Result<Flow, Diagnostic> {
        let cta = self.units[ui].cta;
        let (wg, _) = self.units[ui].group();
        match name {
            "wgmma.fence" => {}
            "wgmma.mma" => {
                let av = self.get(ui, self.operand(op, 0));
                let a = match &av {
                    Val::Shared(s) => MmaOperand::Shared(s.view.clone()),
                    _ => MmaOperand::Reg(self.tensor(ui, self.operand(op, 0), op)?),
                };
                let b = self.shared(ui, self.operand(op, 1), op)?;
                let acc = match self.get(ui, self.operand(op, 2)) {
                    Val::Token(k) => {
                        let t = &self.ctas[cta].tokens[k];
                        match (&t.value, t.retired) {
                            (Some(v), true) => AccIn::Tile(v.clone()),
                            _ => AccIn::Token(k),
                        }
                    }
                    _ => AccIn::Tile(self.tensor(ui, self.operand(op, 2), op)?),
                };
                let mut reads = Vec::new();
                if let MmaOperand::Shared(v) = &a {
                    reads.push((cta, SharedMemory::byte_range(v)));
                }
                reads.push((cta, SharedMemory::byte_range(&b.view)));
                for (_, r) in &reads {
                    self.check_smem_read(cta, r, op, "wgmma.mma")?;
                }
                let out = self.tensor_type(self.result(op), op)?.dtype;
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
                self.ctas[cta]
                    .wg
                    .entry(wg)
                    .or_default()
                    .open
                    .push((id, Some(token)));
                self.set(ui, self.result(op), Val::Token(token));
            }
            "wgmma.commit_group" => {
                let g = self.ctas[cta].wg.entry(wg).or_default();
                let open = std::mem::take(&mut g.open);
                g.groups.push_back(open);
            }
            "wgmma.wait_group" => {
                let n = prop_i64(self.ctx, op, "pending").unwrap_or(0).max(0) as usize;
                let pending = self.ctas[cta]
                    .wg
                    .get(&wg)
                    .map(|g| self.pending_groups(g))
                    .unwrap_or(0);
                if pending > n {
                    return Ok(Flow::Wait(Block::Wgmma { op, key: wg, n }));
                }
                self.retire_groups(cta, Some(wg), None);
            }
            _ => return Err(self.err(op, format!("the interpreter does not support '{name}'"))),
        }
        Ok(Flow::Next)
    }

    // ----- tcgen05 --------------------------------------------------------------------------

    fn exec_tcgen05(&mut self, ui: usize, op: OpId, name: &str) -> Result<Flow, Diagnostic> {
        let cta = self.units[ui].cta;
        if tilus_dialects::tcgen05::cta_group(self.ctx, op) == 2 {
            return Err(self.err(
                op,
                format!("the interpreter does not support '{name}' with cta_group(2) yet"),
            ));
        }
        match name {
            "tcgen05.relinquish_alloc_permit"
            | "tcgen05.fence_before_thread_sync"
            | "tcgen05.fence_after_thread_sync"
            | "tcgen05.wait_st" => {}
            "tcgen05.alloc" => {
                let tt = self.tensor_type(self.result(op), op)?;
                let ncols = tilus_dialects::tcgen05::alloc_columns(&tt);
                let layout = TmemLayout::row_major(&tt.shape).map_err(|e| self.err(op, e))?;
                let free = self.ctas[cta].tmem.free_columns();
                let col = self.ctas[cta].tmem.alloc(ncols, op).ok_or_else(|| {
                    self.err(
                        op,
                        format!("tcgen05.alloc of {ncols} columns: only {free} of 512 columns are free (a real GPU would wait forever)"),
                    )
                })?;
                let v = TmemVal {
                    alloc_col: col,
                    base_col: col,
                    layout,
                    dtype: tt.dtype,
                };
                self.set(ui, self.result(op), Val::Tmem(Rc::new(v)));
            }
            "tcgen05.dealloc" => {
                let t = self.tmem_val(ui, self.operand(op, 0), op)?;
                self.check_tmem_read(cta, &t, op, "tcgen05.dealloc")?;
                if t.base_col != t.alloc_col || !self.ctas[cta].tmem.free(t.alloc_col) {
                    return Err(self.err(
                        op,
                        "tcgen05.dealloc of a tensor that is not a live allocation (a slice, or freed twice)",
                    ));
                }
            }
            "tcgen05.mma" | "tcgen05.cp" | "tcgen05.commit" => {
                let Some(leader) = self.leader(ui) else {
                    return Ok(Flow::Next);
                };
                let queue = Some(QueueKey::Tc05(cta, leader));
                let a = match name {
                    "tcgen05.mma" => {
                        let av = self.get(ui, self.operand(op, 0));
                        let a = match &av {
                            Val::Shared(s) => MmaOperand::Shared(s.view.clone()),
                            Val::Tmem(t) => MmaOperand::Tmem((**t).clone()),
                            other => {
                                return Err(self.err(
                                    op,
                                    format!(
                                        "expected a shared or tensor-memory operand, found {}",
                                        describe_val(other)
                                    ),
                                ))
                            }
                        };
                        let b = self.shared(ui, self.operand(op, 1), op)?;
                        let d = self.tmem_val(ui, self.operand(op, 2), op)?;
                        let enable = self.int(ui, self.operand(op, 3), op)? & 1 == 1;
                        let mut reads = Vec::new();
                        if let MmaOperand::Shared(v) = &a {
                            reads.push((cta, SharedMemory::byte_range(v)));
                        }
                        reads.push((cta, SharedMemory::byte_range(&b.view)));
                        for (_, r) in &reads {
                            self.check_smem_read(cta, r, op, "tcgen05.mma")?;
                        }
                        let (l, c) = Tmem::footprint(&d);
                        AsyncOp {
                            id: 0,
                            op,
                            cta,
                            due: 0,
                            queue,
                            smem_reads: reads,
                            smem_writes: Vec::new(),
                            tmem_writes: vec![(cta, l, c)],
                            kind: AsyncKind::TcMma {
                                a,
                                b: b.view.clone(),
                                d: (*d).clone(),
                                enable,
                            },
                        }
                    }
                    "tcgen05.cp" => {
                        let s = self.shared(ui, self.operand(op, 0), op)?;
                        let d = self.tmem_val(ui, self.operand(op, 1), op)?;
                        let r = SharedMemory::byte_range(&s.view);
                        self.check_smem_read(cta, &r, op, "tcgen05.cp")?;
                        let (l, c) = Tmem::footprint(&d);
                        AsyncOp {
                            id: 0,
                            op,
                            cta,
                            due: 0,
                            queue,
                            smem_reads: vec![(cta, r)],
                            smem_writes: Vec::new(),
                            tmem_writes: vec![(cta, l, c)],
                            kind: AsyncKind::TcCp {
                                src: s.view.clone(),
                                dst: (*d).clone(),
                            },
                        }
                    }
                    _ => {
                        let g = self.groups(op);
                        let (first, n, _) = self.bars(ui, g[0][0], op)?;
                        let idx = self.int(ui, g[1][0], op)?;
                        let bar = self.bar_index(first, n, idx, op)?;
                        let bars = match g.get(2).and_then(|v| v.first()) {
                            Some(&m) => {
                                let m = self.int(ui, m, op)?;
                                let mut v = Vec::new();
                                for r in 0..16 {
                                    if m >> r & 1 == 1 {
                                        v.push((self.cta_of_rank(r, op)?, bar));
                                    }
                                }
                                v
                            }
                            None => vec![(cta, bar)],
                        };
                        AsyncOp {
                            id: 0,
                            op,
                            cta,
                            due: 0,
                            queue,
                            smem_reads: Vec::new(),
                            smem_writes: Vec::new(),
                            tmem_writes: Vec::new(),
                            kind: AsyncKind::TcCommit { bars },
                        }
                    }
                };
                self.issue(a);
            }
            "tcgen05.ld" => {
                let t = self.tmem_val(ui, self.operand(op, 0), op)?;
                self.check_tmem_read(cta, &t, op, "tcgen05.ld")?;
                let x = self.ctas[cta]
                    .tmem
                    .read(&t)
                    .map_err(|e| self.err(op, format!("tcgen05.ld: {e}")))?;
                let threads = self.units[ui].threads.clone();
                self.ctas[cta].tokens.push(Token {
                    value: Some(Rc::new(x)),
                    retired: false,
                    op,
                    kind: TokenKind::TmemLd,
                    threads,
                });
                let k = self.ctas[cta].tokens.len() - 1;
                self.set(ui, self.result(op), Val::Token(k));
            }
            "tcgen05.st" => {
                let x = self.tensor(ui, self.operand(op, 0), op)?;
                let t = self.tmem_val(ui, self.operand(op, 1), op)?;
                self.check_tmem_read(cta, &t, op, "tcgen05.st")?;
                self.ctas[cta]
                    .tmem
                    .write(&t, &x)
                    .map_err(|e| self.err(op, format!("tcgen05.st: {e}")))?;
            }
            "tcgen05.wait_ld" => {
                let threads = self.units[ui].threads.clone();
                for t in self.ctas[cta].tokens.iter_mut() {
                    if t.kind == TokenKind::TmemLd
                        && !t.retired
                        && t.threads.iter().any(|x| threads.binary_search(x).is_ok())
                    {
                        t.retired = true;
                    }
                }
            }
            "tcgen05.slice" => {
                let t = self.tmem_val(ui, self.operand(op, 0), op)?;
                let offs = self.ints(ui, &self.ctx.operands(op)[1..], op)?;
                let lane = prop_i64(self.ctx, op, "lane_offset").unwrap_or(0);
                let rt = self.tensor_type(self.result(op), op)?;
                let v = tmem_slice(&t, &offs, lane, &rt.shape).map_err(|e| self.err(op, e))?;
                self.set(ui, self.result(op), Val::Tmem(Rc::new(v)));
            }
            "tcgen05.view" => {
                let t = self.tmem_val(ui, self.operand(op, 0), op)?;
                let rt = self.tensor_type(self.result(op), op)?;
                let mut layout = TmemLayout::row_major(&rt.shape).map_err(|e| self.err(op, e))?;
                layout.lane_offset = t.layout.lane_offset;
                let v = TmemVal {
                    alloc_col: t.alloc_col,
                    base_col: t.base_col,
                    layout,
                    dtype: rt.dtype,
                };
                self.set(ui, self.result(op), Val::Tmem(Rc::new(v)));
            }
            _ => return Err(self.err(op, format!("the interpreter does not support '{name}'"))),
        }
        Ok(Flow::Next)
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

fn bitcast(from: ScalarKind, to: ScalarKind, v: Sc) -> Result<Sc, String> {
    let bits: u64 = match (from, v) {
        (ScalarKind::Float(k), Sc::F(f)) => tilus_ir::float::from_f64(k, f) as u64,
        (ScalarKind::Int { bits, .. }, Sc::I(i)) => as_unsigned(i, bits),
        _ => return Err("bad bitcast operand".into()),
    };
    Ok(match to {
        ScalarKind::Float(k) => Sc::F(tilus_ir::float::to_f64(k, bits as u128)),
        ScalarKind::Int { .. } => Sc::I(bits as i64),
    })
}

/// Builds a global view from its type and the `?` operands.
pub(crate) fn build_view(
    tt: &TensorType,
    buffer: usize,
    extents: &[i64],
    strides: &[i64],
) -> Result<GlobalView, String> {
    if tt.space != Space::Global {
        return Err("expected a !tilus.global type".into());
    }
    let mut ei = extents.iter();
    let mut shape = Vec::new();
    for &d in &tt.shape {
        let v = if d == DYN {
            *ei.next().ok_or("missing an extent operand")?
        } else {
            d
        };
        if v < 0 {
            return Err(format!("negative extent {v} in tilus.global_view"));
        }
        shape.push(v);
    }
    let st = match &tt.strides {
        Some(s) => {
            let mut si = strides.iter();
            let mut out = Vec::new();
            for &x in s {
                out.push(if x == DYN {
                    *si.next().ok_or("missing a stride operand")?
                } else {
                    x
                });
            }
            out
        }
        None => {
            let mut out = vec![1i64; shape.len()];
            for k in (0..shape.len().saturating_sub(1)).rev() {
                out[k] = out[k + 1] * shape[k + 1];
            }
            out
        }
    };
    Ok(GlobalView {
        buffer,
        dtype: tt.dtype,
        shape,
        strides: st,
        offset: 0,
    })
}

/// `tcgen05.slice`: the box at `offs` (one per column dim of `t`) with the result's shape.
fn tmem_slice(t: &TmemVal, offs: &[i64], lane: i64, rshape: &[i64]) -> Result<TmemVal, String> {
    let src = &t.layout.shape;
    let n = src.len() - 1;
    if offs.len() != n || rshape.len() < 2 || rshape.len() - 1 > n {
        return Err(format!(
            "tcgen05.slice: {} offsets for {n} column dims, result rank {}",
            offs.len(),
            rshape.len()
        ));
    }
    let m = rshape.len() - 1;
    let mut full_shape = vec![rshape[0]];
    full_shape.extend(std::iter::repeat_n(1, n - m));
    full_shape.extend_from_slice(&rshape[1..]);
    let mut full_off = vec![lane];
    full_off.extend_from_slice(offs);
    for k in 0..src.len() {
        if full_off[k] < 0 || full_off[k] + full_shape[k] > src[k] {
            return Err(format!(
                "out-of-bounds tensor-memory access: the slice [{}, {}) of dimension {k} is outside [0, {})",
                full_off[k],
                full_off[k] + full_shape[k],
                src[k]
            ));
        }
    }
    let elems: i64 = full_off
        .iter()
        .zip(&t.layout.column_strides)
        .skip(1)
        .map(|(&o, &s)| o * s)
        .sum();
    if (elems * t.dtype.bits() as i64) % 32 != 0 {
        return Err("tcgen05.slice origin is not on a 32-bit column".into());
    }
    let (mut lay, dcol) = t.layout.slice(&full_off, &full_shape, t.dtype.bits());
    let mut shape = vec![lay.shape[0]];
    shape.extend_from_slice(&lay.shape[1 + n - m..]);
    let mut strides = vec![lay.column_strides[0]];
    strides.extend_from_slice(&lay.column_strides[1 + n - m..]);
    lay.shape = shape;
    lay.column_strides = strides;
    Ok(TmemVal {
        alloc_col: t.alloc_col,
        base_col: t.base_col + dcol,
        layout: lay,
        dtype: t.dtype,
    })
}

/// `shuffle_up` / `shuffle_down` of a tile over the threads of its layout.
fn shuffle(
    x: &Tensor,
    layout: &tilus_dialects::layout_algebra::RegisterLayout,
    group_begin: i64,
    delta: i64,
    up: bool,
) -> Result<Tensor, String> {
    if layout.shape != x.shape {
        return Err("the layout's shape differs from the tile's".into());
    }
    let mut out = x.clone();
    let nthreads = layout.num_threads();
    let locals = layout.local_size();
    let flat = |idx: &[i64]| -> usize {
        let mut f = 0i64;
        for (i, s) in idx.iter().zip(&x.shape) {
            f = f * s + i;
        }
        f as usize
    };
    for t in 0..nthreads {
        let lane = (group_begin + t) % 32;
        let src_lane = if up { lane - delta } else { lane + delta };
        let src = if (0..32).contains(&src_lane) {
            t + (src_lane - lane)
        } else {
            t
        };
        if src < 0 || src >= nthreads {
            continue;
        }
        for l in 0..locals {
            let dst_idx = layout.coords(t, l);
            let src_idx = layout.coords(src, l);
            out.data[flat(&dst_idx)] = x.data[flat(&src_idx)];
        }
    }
    Ok(out)
}
