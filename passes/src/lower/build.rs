//! Small IR-building helpers shared by the Tilus lowerings (`lower-tilus-kernel`,
//! `lower-threadgroups`, `plan-shared-memory`, `lower-tiles`): scalar `arith` ops, `ptx.inst`,
//! `ptx.asm` and `ptx.special`, and the group-relative thread index.
//!
//! Integer and float ALU work is built as `arith` (so `canonicalize` can fold it and
//! `convert-arith-to-ptx` lowers it); memory accesses, shuffles, barriers and special math are
//! `ptx.inst` / `ptx.asm` directly.

use crate::{Changed, Statistics};
use tilus_dialects::arith::{
    AddFOp, AddIOp, AndIOp, CeilDivSIOp, CmpFOp, CmpFPredicate, CmpIOp, CmpIPredicate, ConstantOp,
    DivFOp, DivSIOp, DivUIOp, FloatBinOp, FloorDivSIOp, IntBinOp, MaxSIOp, MaxUIOp, MaximumFOp,
    MinSIOp, MinUIOp, MinimumFOp, MulFOp, MulIOp, OrIOp, RemSIOp, RemUIOp, SelectOp, ShLIOp,
    ShRSIOp, ShRUIOp, SubFOp, SubIOp, XOrIOp,
};
use tilus_dialects::ptx::{AsmOp, EntryOp, InstOp, SpecialOp};
use tilus_dialects::tilus::KernelOp;
use tilus_dialects::tilus_types::prop_i64;
use tilus_ir::rewrite::{float_attr, int_attr, Rewriter};
use tilus_ir::types::FloatKind;
use tilus_ir::{Attr, AttrKind, Context, Diagnostic, OpBuilder, OpId, Type, Value};

/// A builder inserting before `op`, with `op`'s location: where each lowering of an op starts.
pub(crate) fn before(ctx: &mut Context, op: OpId) -> OpBuilder<'_> {
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(op);
    b.set_insertion_point_before(op);
    b
}

/// Replaces `op`'s results by `with` and erases it (lowerings keep no worklist, so nobody is
/// notified).
pub(crate) fn replace_op(b: &mut OpBuilder<'_>, op: OpId, with: &[Value]) {
    Rewriter::new(b.ctx_mut()).replace_op(op, with);
}

/// The lowerings' shorthands on [`OpBuilder`]: constants, index arithmetic, `ptx.inst`,
/// `ptx.asm` and `ptx.special`, each through the op's typed builder.
pub(crate) trait LowerBuilder {
    fn i1(&mut self) -> Type;
    fn i32(&mut self) -> Type;
    fn i64(&mut self) -> Type;
    fn f32(&mut self) -> Type;
    /// `arith.constant` of an integer type.
    fn cint(&mut self, ty: Type, v: i64) -> Value;
    fn c32(&mut self, v: i64) -> Value;
    fn c64(&mut self, v: i64) -> Value;
    /// `arith.constant true/false`.
    fn cbool(&mut self, b: bool) -> Value;
    /// `arith.constant` of a float type from its bit pattern.
    fn cfloat_bits(&mut self, ty: Type, bits: u128) -> Value;
    /// An integer arith op whose result has the type of its first operand.
    fn int_op(&mut self, op: IntBinOp, a: Value, b: Value) -> Value;
    /// A float arith op whose result has the type of its first operand.
    fn float_op(&mut self, op: FloatBinOp, a: Value, b: Value) -> Value;
    fn add(&mut self, a: Value, b: Value) -> Value;
    fn mul(&mut self, a: Value, b: Value) -> Value;
    fn and(&mut self, a: Value, b: Value) -> Value;
    /// `a + k` (nothing for `k == 0`).
    fn add_const(&mut self, a: Value, k: i64) -> Value;
    /// `a * k` (shifts for powers of two, nothing for 1).
    fn mul_const(&mut self, a: Value, k: i64) -> Value;
    /// `a / k` for `a >= 0` (a shift for powers of two).
    fn udiv_const(&mut self, a: Value, k: i64) -> Value;
    /// `a % k` for `a >= 0` (a mask for powers of two).
    fn urem_const(&mut self, a: Value, k: i64) -> Value;
    /// `arith.cmpi pred, a, b`.
    fn cmpi(&mut self, pred: CmpIPredicate, a: Value, b: Value) -> Value;
    /// `arith.cmpf pred, a, b`.
    fn cmpf(&mut self, pred: CmpFPredicate, a: Value, b: Value) -> Value;
    /// `arith.select c, a, b`.
    fn select(&mut self, c: Value, a: Value, b: Value) -> Value;
    /// Conjunction of predicates (`true` for none).
    fn all(&mut self, ps: &[Value]) -> Value;
    /// Whether this thread is replica 0 of a replicated layout (every replica digit in `reps`
    /// is 0), so one copy of each element is stored; `None` when nothing is replicated.
    fn replica0(&mut self, reps: &[Value]) -> Option<Value>;
    /// `ptx.inst opcode` with a form (`$N` = operand N), results, and an optional guard.
    fn inst(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        results: &[Type],
        guard: Option<Value>,
    ) -> Vec<Value>;
    /// `ptx.inst` with the default form and one result.
    fn inst1(&mut self, opcode: &str, args: &[Value], ty: Type) -> Value;
    /// `ptx.asm` (`$0..` = results, then operands).
    fn asm(&mut self, text: &str, args: &[Value], results: &[Type]) -> Vec<Value>;
    /// `ptx.special reg : i32`.
    fn special(&mut self, reg: &str) -> Value;
}

impl LowerBuilder for OpBuilder<'_> {
    fn i1(&mut self) -> Type {
        self.ctx_mut().int_type(1)
    }
    fn i32(&mut self) -> Type {
        self.ctx_mut().int_type(32)
    }
    fn i64(&mut self) -> Type {
        self.ctx_mut().int_type(64)
    }
    fn f32(&mut self) -> Type {
        self.ctx_mut().float_type(FloatKind::F32)
    }
    fn cint(&mut self, ty: Type, v: i64) -> Value {
        let a = int_attr(self.ctx_mut(), ty, v as u128);
        ConstantOp::build(self, ty, a).result(self.ctx())
    }
    fn c32(&mut self, v: i64) -> Value {
        let t = self.i32();
        self.cint(t, v)
    }
    fn c64(&mut self, v: i64) -> Value {
        let t = self.i64();
        self.cint(t, v)
    }
    fn cbool(&mut self, b: bool) -> Value {
        let t = self.i1();
        self.cint(t, b as i64)
    }
    fn cfloat_bits(&mut self, ty: Type, bits: u128) -> Value {
        let a = float_attr(self.ctx_mut(), ty, bits);
        ConstantOp::build(self, ty, a).result(self.ctx())
    }
    fn int_op(&mut self, op: IntBinOp, a: Value, b: Value) -> Value {
        let ty = self.ctx().value_type(a);
        let o = match op {
            IntBinOp::AddI => AddIOp::build(self, a, b, ty, None).op(),
            IntBinOp::SubI => SubIOp::build(self, a, b, ty, None).op(),
            IntBinOp::MulI => MulIOp::build(self, a, b, ty, None).op(),
            IntBinOp::DivSI => DivSIOp::build(self, a, b, ty).op(),
            IntBinOp::DivUI => DivUIOp::build(self, a, b, ty).op(),
            IntBinOp::RemSI => RemSIOp::build(self, a, b, ty).op(),
            IntBinOp::RemUI => RemUIOp::build(self, a, b, ty).op(),
            IntBinOp::AndI => AndIOp::build(self, a, b, ty).op(),
            IntBinOp::OrI => OrIOp::build(self, a, b, ty).op(),
            IntBinOp::XOrI => XOrIOp::build(self, a, b, ty).op(),
            IntBinOp::ShLI => ShLIOp::build(self, a, b, ty, None).op(),
            IntBinOp::ShRSI => ShRSIOp::build(self, a, b, ty).op(),
            IntBinOp::ShRUI => ShRUIOp::build(self, a, b, ty).op(),
            IntBinOp::MaxSI => MaxSIOp::build(self, a, b, ty).op(),
            IntBinOp::MinSI => MinSIOp::build(self, a, b, ty).op(),
            IntBinOp::MaxUI => MaxUIOp::build(self, a, b, ty).op(),
            IntBinOp::MinUI => MinUIOp::build(self, a, b, ty).op(),
            IntBinOp::CeilDivSI => CeilDivSIOp::build(self, a, b, ty).op(),
            IntBinOp::FloorDivSI => FloorDivSIOp::build(self, a, b, ty).op(),
        };
        self.ctx().results(o)[0]
    }
    fn float_op(&mut self, op: FloatBinOp, a: Value, b: Value) -> Value {
        let ty = self.ctx().value_type(a);
        let o = match op {
            FloatBinOp::AddF => AddFOp::build(self, a, b, ty, None).op(),
            FloatBinOp::SubF => SubFOp::build(self, a, b, ty, None).op(),
            FloatBinOp::MulF => MulFOp::build(self, a, b, ty, None).op(),
            FloatBinOp::DivF => DivFOp::build(self, a, b, ty, None).op(),
            FloatBinOp::MaximumF => MaximumFOp::build(self, a, b, ty, None).op(),
            FloatBinOp::MinimumF => MinimumFOp::build(self, a, b, ty, None).op(),
        };
        self.ctx().results(o)[0]
    }
    fn add(&mut self, a: Value, b: Value) -> Value {
        self.int_op(IntBinOp::AddI, a, b)
    }
    fn mul(&mut self, a: Value, b: Value) -> Value {
        self.int_op(IntBinOp::MulI, a, b)
    }
    fn and(&mut self, a: Value, b: Value) -> Value {
        self.int_op(IntBinOp::AndI, a, b)
    }
    fn add_const(&mut self, a: Value, k: i64) -> Value {
        if k == 0 {
            return a;
        }
        let ty = self.ctx().value_type(a);
        let c = self.cint(ty, k);
        self.add(a, c)
    }
    fn mul_const(&mut self, a: Value, k: i64) -> Value {
        let ty = self.ctx().value_type(a);
        if k == 1 {
            return a;
        }
        if k > 0 && k & (k - 1) == 0 {
            let c = self.cint(ty, k.trailing_zeros() as i64);
            return self.int_op(IntBinOp::ShLI, a, c);
        }
        let c = self.cint(ty, k);
        self.mul(a, c)
    }
    fn udiv_const(&mut self, a: Value, k: i64) -> Value {
        let ty = self.ctx().value_type(a);
        if k == 1 {
            return a;
        }
        if k & (k - 1) == 0 {
            let c = self.cint(ty, k.trailing_zeros() as i64);
            return self.int_op(IntBinOp::ShRUI, a, c);
        }
        let c = self.cint(ty, k);
        self.int_op(IntBinOp::DivUI, a, c)
    }
    fn urem_const(&mut self, a: Value, k: i64) -> Value {
        let ty = self.ctx().value_type(a);
        if k & (k - 1) == 0 {
            let c = self.cint(ty, k - 1);
            return self.int_op(IntBinOp::AndI, a, c);
        }
        let c = self.cint(ty, k);
        self.int_op(IntBinOp::RemUI, a, c)
    }
    fn cmpi(&mut self, pred: CmpIPredicate, a: Value, b: Value) -> Value {
        let t = self.i1();
        CmpIOp::build(self, a, b, t, pred).result(self.ctx())
    }
    fn cmpf(&mut self, pred: CmpFPredicate, a: Value, b: Value) -> Value {
        let t = self.i1();
        CmpFOp::build(self, a, b, t, pred, None).result(self.ctx())
    }
    fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.ctx().value_type(a);
        SelectOp::build(self, c, a, b, ty).result(self.ctx())
    }
    fn all(&mut self, ps: &[Value]) -> Value {
        let mut it = ps.iter().copied();
        match it.next() {
            None => self.cbool(true),
            Some(first) => it.fold(first, |acc, p| self.and(acc, p)),
        }
    }
    fn replica0(&mut self, reps: &[Value]) -> Option<Value> {
        if reps.is_empty() {
            return None;
        }
        let zero = self.c32(0);
        let cs: Vec<Value> = reps
            .iter()
            .map(|r| self.cmpi(CmpIPredicate::Eq, *r, zero))
            .collect();
        Some(self.all(&cs))
    }
    fn inst(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        results: &[Type],
        guard: Option<Value>,
    ) -> Vec<Value> {
        let default = tilus_dialects::ptx::default_form(args.len());
        let form = (form != default).then_some(form);
        let o = InstOp::build(self, args, guard, results, opcode, form, false).op();
        self.ctx().results(o).to_vec()
    }
    fn inst1(&mut self, opcode: &str, args: &[Value], ty: Type) -> Value {
        let form = tilus_dialects::ptx::default_form(args.len());
        self.inst(opcode, &form, args, &[ty], None)[0]
    }
    fn asm(&mut self, text: &str, args: &[Value], results: &[Type]) -> Vec<Value> {
        let o = AsmOp::build(self, args, results, text).op();
        self.ctx().results(o).to_vec()
    }
    fn special(&mut self, reg: &str) -> Value {
        let t = self.i32();
        SpecialOp::build(self, t, reg).result(self.ctx())
    }
}

/// The ops under `root` (itself included) for which `pred` holds, in walk order; `pred` is
/// typically a handle's `is` (`KernelOp::is`).
pub(crate) fn ops_where(
    ctx: &Context,
    root: OpId,
    pred: impl Fn(&Context, OpId) -> bool,
) -> Vec<OpId> {
    let mut out = Vec::new();
    ctx.walk(root, &mut |o| {
        if pred(ctx, o) {
            out.push(o);
        }
    });
    out
}

/// The common `Pass::run` of the kernel lowerings: runs `f` on every `tilus.kernel` under
/// `root` (`f` returns how many things it lowered), collects the diagnostics of all kernels,
/// adds the total to the statistic `stat` and reports a change when it is
/// not zero.
pub(crate) fn run_on_kernels(
    ctx: &mut Context,
    root: OpId,
    stats: &mut Statistics,
    stat: crate::StatisticDecl,
    mut f: impl FnMut(&mut Context, OpId) -> Result<u64, Vec<Diagnostic>>,
) -> Result<Changed, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut n = 0;
    for k in ops_where(ctx, root, KernelOp::is) {
        match f(ctx, k) {
            Ok(c) => n += c,
            Err(mut e) => errors.append(&mut e),
        }
    }
    stats.add(stat, n);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(if n > 0 { Changed::Yes } else { Changed::No })
}

/// An `i64` attribute.
pub(crate) fn i64_attr(ctx: &mut Context, v: i64) -> Attr {
    let t = ctx.int_type(64);
    ctx.attr(AttrKind::Integer {
        value: v.into(),
        ty: t,
    })
}

/// Where a thread group sits: absolute first thread (when known at compile time) and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GroupPos {
    /// The group op, `None` for the root group.
    pub op: Option<OpId>,
    /// First thread in the block, `None` under an elect-any `single_thread`.
    pub begin: Option<i64>,
    pub size: i64,
    /// Threads in the block.
    pub block: i64,
}

/// The kernel (`tilus.kernel`, or a `ptx.entry` made from one) enclosing `op`, and its block
/// size.
pub(crate) fn enclosing_kernel(ctx: &Context, op: OpId) -> Option<(OpId, i64)> {
    let mut cur = Some(op);
    while let Some(p) = cur {
        if let Some(k) = KernelOp::cast(ctx, p) {
            return Some((p, 32 * k.warps(ctx)));
        }
        if EntryOp::is(ctx, p) {
            let n = prop_i64(ctx, p, tilus_dialects::tilus::attr_names::THREADS)
                .or_else(|| prop_i64(ctx, p, "maxntid"))
                .unwrap_or(1024);
            return Some((p, n));
        }
        cur = ctx.parent_op(p);
    }
    None
}

/// The group `op` runs in (nearest enclosing group op, else the root group). `op` itself is
/// not counted when it is a group op.
pub(crate) fn group_pos(ctx: &Context, op: OpId) -> Option<GroupPos> {
    let (_, block) = enclosing_kernel(ctx, op)?;
    let mut chain = Vec::new();
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if KernelOp::is(ctx, p) || EntryOp::is(ctx, p) {
            break;
        }
        if tilus_dialects::threadgroup::group_range(ctx, p).is_some() {
            chain.push(p);
        }
        cur = ctx.parent_op(p);
    }
    let mut g = GroupPos {
        op: None,
        begin: Some(0),
        size: block,
        block,
    };
    for p in chain.into_iter().rev() {
        let (b, n) = tilus_dialects::threadgroup::group_range(ctx, p)?;
        g = GroupPos {
            op: Some(p),
            begin: match (g.begin, b) {
                (Some(a), Some(b)) => Some(a + b),
                _ => None,
            },
            size: n,
            block,
        };
    }
    Some(g)
}

/// The body block of the group `op` runs in (the kernel's body for the root group).
pub(crate) fn group_body(ctx: &Context, op: OpId) -> Option<tilus_ir::BlockId> {
    let g = group_pos(ctx, op)?;
    let owner = match g.op {
        Some(o) => o,
        None => enclosing_kernel(ctx, op)?.0,
    };
    let r = *ctx.regions(owner).first()?;
    ctx.region_blocks(r).first().copied()
}

/// Emits the thread index relative to group `g` (`tid.x - begin`; 0 in a one-thread group).
pub(crate) fn relative_tid(b: &mut OpBuilder<'_>, g: &GroupPos) -> Value {
    if g.size == 1 {
        return b.c32(0);
    }
    let t = b.special("tid.x");
    match g.begin {
        Some(0) | None => t,
        Some(k) => b.add_const(t, -k),
    }
}
