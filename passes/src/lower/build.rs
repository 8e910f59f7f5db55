//! Small IR-building helpers shared by the Tilus lowerings (`lower-tilus-kernel`,
//! `lower-threadgroups`, `plan-shared-memory`, `lower-tiles`): scalar `arith` ops, `ptx.inst`,
//! `ptx.asm` and `ptx.special`, and the group-relative thread index.
//!
//! Integer and float ALU work is built as `arith` (so `canonicalize` can fold it and
//! `convert-arith-to-ptx` lowers it); memory accesses, shuffles, barriers and special math are
//! `ptx.inst` / `ptx.asm` directly.

use crate::{Changed, Statistics};
use tilus_dialects::ptx::inst_properties;
use tilus_dialects::tilus_types::prop_i64;
use tilus_ir::rewrite::{float_attr, int_attr, Rewriter};
use tilus_ir::types::FloatKind;
use tilus_ir::{Attr, AttrKind, Context, Diagnostic, OpId, Type, Value};

/// A rewriter with a location: every op built gets `loc`.
pub(crate) struct B<'a> {
    pub rw: Rewriter<'a>,
    pub loc: Attr,
}

impl<'a> B<'a> {
    /// A builder inserting before `op`, with `op`'s location.
    pub fn before(ctx: &'a mut Context, op: OpId) -> B<'a> {
        let loc = ctx.op(op).loc;
        let mut rw = Rewriter::new(ctx);
        rw.set_insertion_point_before(op);
        B { rw, loc }
    }
    pub fn ctx(&self) -> &Context {
        self.rw.ctx()
    }
    pub fn ctx_mut(&mut self) -> &mut Context {
        self.rw.ctx_mut()
    }
    pub fn i1(&mut self) -> Type {
        self.ctx_mut().int_type(1)
    }
    pub fn i32(&mut self) -> Type {
        self.ctx_mut().int_type(32)
    }
    pub fn i64(&mut self) -> Type {
        self.ctx_mut().int_type(64)
    }
    pub fn f32(&mut self) -> Type {
        self.ctx_mut().float_type(FloatKind::F32)
    }
    /// An op with one result.
    pub fn op1(
        &mut self,
        name: &str,
        args: &[Value],
        ty: Type,
        props: Vec<(String, Attr)>,
    ) -> Value {
        let loc = self.loc;
        let o = self.rw.build(name, args.to_vec(), vec![ty], props, loc);
        self.ctx().results(o)[0]
    }
    /// An op with no result.
    pub fn op0(&mut self, name: &str, args: &[Value], props: Vec<(String, Attr)>) -> OpId {
        let loc = self.loc;
        self.rw.build(name, args.to_vec(), vec![], props, loc)
    }
    /// `arith.constant` of an integer type.
    pub fn cint(&mut self, ty: Type, v: i64) -> Value {
        let a = int_attr(self.ctx_mut(), ty, v as u128);
        self.op1("arith.constant", &[], ty, vec![("value".into(), a)])
    }
    pub fn c32(&mut self, v: i64) -> Value {
        let t = self.i32();
        self.cint(t, v)
    }
    pub fn c64(&mut self, v: i64) -> Value {
        let t = self.i64();
        self.cint(t, v)
    }
    /// `arith.constant true/false`.
    pub fn cbool(&mut self, b: bool) -> Value {
        let t = self.i1();
        self.cint(t, b as i64)
    }
    /// `arith.constant` of a float type from its bit pattern.
    pub fn cfloat_bits(&mut self, ty: Type, bits: u128) -> Value {
        let a = float_attr(self.ctx_mut(), ty, bits);
        self.op1("arith.constant", &[], ty, vec![("value".into(), a)])
    }
    /// An arith op whose result has the type of its first operand.
    pub fn ar(&mut self, name: &str, a: Value, b: Value) -> Value {
        let ty = self.ctx().value_type(a);
        self.op1(&format!("arith.{name}"), &[a, b], ty, vec![])
    }
    pub fn add(&mut self, a: Value, b: Value) -> Value {
        self.ar("addi", a, b)
    }
    pub fn mul(&mut self, a: Value, b: Value) -> Value {
        self.ar("muli", a, b)
    }
    pub fn and(&mut self, a: Value, b: Value) -> Value {
        self.ar("andi", a, b)
    }
    /// `a + k` (nothing for `k == 0`).
    pub fn add_const(&mut self, a: Value, k: i64) -> Value {
        if k == 0 {
            return a;
        }
        let ty = self.ctx().value_type(a);
        let c = self.cint(ty, k);
        self.add(a, c)
    }
    /// `a * k` (shifts for powers of two, nothing for 1).
    pub fn mul_const(&mut self, a: Value, k: i64) -> Value {
        let ty = self.ctx().value_type(a);
        if k == 1 {
            return a;
        }
        if k > 0 && k & (k - 1) == 0 {
            let c = self.cint(ty, k.trailing_zeros() as i64);
            return self.ar("shli", a, c);
        }
        let c = self.cint(ty, k);
        self.mul(a, c)
    }
    /// `a / k` for `a >= 0` (a shift for powers of two).
    pub fn udiv_const(&mut self, a: Value, k: i64) -> Value {
        let ty = self.ctx().value_type(a);
        if k == 1 {
            return a;
        }
        if k & (k - 1) == 0 {
            let c = self.cint(ty, k.trailing_zeros() as i64);
            return self.ar("shrui", a, c);
        }
        let c = self.cint(ty, k);
        self.ar("divui", a, c)
    }
    /// `a % k` for `a >= 0` (a mask for powers of two).
    pub fn urem_const(&mut self, a: Value, k: i64) -> Value {
        let ty = self.ctx().value_type(a);
        if k & (k - 1) == 0 {
            let c = self.cint(ty, k - 1);
            return self.ar("andi", a, c);
        }
        let c = self.cint(ty, k);
        self.ar("remui", a, c)
    }
    /// `arith.cmpi pred, a, b` (`pred` in `eq ne slt sle sgt sge ult ule ugt uge`).
    pub fn cmpi(&mut self, pred: &str, a: Value, b: Value) -> Value {
        const P: &[&str] = &[
            "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
        ];
        let i = P.iter().position(|p| *p == pred).expect("cmpi predicate") as u128;
        let i64t = self.i64();
        let a_ = int_attr(self.ctx_mut(), i64t, i);
        let t = self.i1();
        self.op1("arith.cmpi", &[a, b], t, vec![("predicate".into(), a_)])
    }
    /// `arith.cmpf pred, a, b` (MLIR's predicate names: `oeq olt ...`).
    pub fn cmpf(&mut self, pred: &str, a: Value, b: Value) -> Value {
        const P: &[&str] = &[
            "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
            "ule", "une", "uno", "true",
        ];
        let i = P.iter().position(|p| *p == pred).expect("cmpf predicate") as u128;
        let i64t = self.i64();
        let a_ = int_attr(self.ctx_mut(), i64t, i);
        let t = self.i1();
        self.op1("arith.cmpf", &[a, b], t, vec![("predicate".into(), a_)])
    }
    /// `arith.select c, a, b`.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.ctx().value_type(a);
        self.op1("arith.select", &[c, a, b], ty, vec![])
    }
    /// Conjunction of predicates (`true` for none).
    pub fn all(&mut self, ps: &[Value]) -> Value {
        let mut it = ps.iter().copied();
        match it.next() {
            None => self.cbool(true),
            Some(first) => it.fold(first, |acc, p| self.and(acc, p)),
        }
    }
    /// `ptx.inst opcode` with a form (`$N` = operand N), results, and an optional guard.
    pub fn inst(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        results: &[Type],
        guard: Option<Value>,
    ) -> Vec<Value> {
        let props = inst_properties(
            self.ctx_mut(),
            opcode,
            Some(form),
            args.len(),
            guard.map(|_| false),
        );
        let mut ops = args.to_vec();
        ops.extend(guard);
        let loc = self.loc;
        let o = self.rw.build("ptx.inst", ops, results.to_vec(), props, loc);
        self.ctx().results(o).to_vec()
    }
    /// `ptx.inst` with the default form and one result.
    pub fn inst1(&mut self, opcode: &str, args: &[Value], ty: Type) -> Value {
        let form = tilus_dialects::ptx::default_form(args.len());
        self.inst(opcode, &form, args, &[ty], None)[0]
    }
    /// `ptx.asm` (`$0..` = results, then operands).
    pub fn asm(&mut self, text: &str, args: &[Value], results: &[Type]) -> Vec<Value> {
        let s = self.ctx_mut().str_attr(text);
        let loc = self.loc;
        let o = self.rw.build(
            "ptx.asm",
            args.to_vec(),
            results.to_vec(),
            vec![("asm_string".into(), s)],
            loc,
        );
        self.ctx().results(o).to_vec()
    }
    /// `ptx.special reg : i32`.
    pub fn special(&mut self, reg: &str) -> Value {
        let r = self.ctx_mut().str_attr(reg);
        let t = self.i32();
        self.op1("ptx.special", &[], t, vec![("reg".into(), r)])
    }
}

/// The ops under `root` (itself included) named one of `names`, in walk order.
pub(crate) fn ops_named(ctx: &Context, root: OpId, names: &[&str]) -> Vec<OpId> {
    let mut out = Vec::new();
    ctx.walk(root, &mut |o| {
        if names.contains(&ctx.op_name_str(o)) {
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
    for k in ops_named(ctx, root, &["tilus.kernel"]) {
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
        match ctx.op_name_str(p) {
            "tilus.kernel" => return Some((p, 32 * prop_i64(ctx, p, "warps")?)),
            "ptx.entry" => {
                let n = prop_i64(ctx, p, "tilus.threads")
                    .or_else(|| prop_i64(ctx, p, "maxntid"))
                    .unwrap_or(1024);
                return Some((p, n));
            }
            _ => {}
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
        if matches!(ctx.op_name_str(p), "tilus.kernel" | "ptx.entry") {
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
pub(crate) fn relative_tid(b: &mut B<'_>, g: &GroupPos) -> Value {
    if g.size == 1 {
        return b.c32(0);
    }
    let t = b.special("tid.x");
    match g.begin {
        Some(0) | None => t,
        Some(k) => b.add_const(t, -k),
    }
}
