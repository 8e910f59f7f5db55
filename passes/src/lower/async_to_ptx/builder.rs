//! The async lowering's IR-building shorthands on `OpBuilder`.

use super::*;

/// The async lowering's shorthands on [`OpBuilder`], each through the op's typed builder.
pub(super) trait AsyncBuilder {
    fn int(&mut self, w: u32) -> Type;
    /// An integer arith op whose result has the type of `a`.
    fn bin(&mut self, op: IntBinOp, a: Value, b: Value) -> Value;
    fn cint(&mut self, w: u32, v: i64) -> Value;
    fn ctrue(&mut self) -> Value;
    /// The value as an `i32` (`index` and other widths are cast).
    fn as_i32(&mut self, v: Value) -> Value;
    /// `ptx.inst opcode form` with `args`, results of `tys` and an optional guard.
    fn inst(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        tys: Vec<Type>,
        guard: Option<(Value, bool)>,
    ) -> OpId;
    fn inst0(&mut self, opcode: &str, form: &str, args: &[Value], guard: Option<(Value, bool)>);
    fn inst1(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        ty: Type,
        guard: Option<(Value, bool)>,
    ) -> Value;
    fn asm(&mut self, text: &str, args: &[Value], tys: Vec<Type>) -> OpId;
    fn shared_addr(&mut self, t: Value) -> Value;
    fn bar_addr(&mut self, bars: Value, idx: Value) -> Value;
    fn special(&mut self, reg: &str) -> Value;
    /// A 64-bit descriptor `((base + off) >> 4) & 0x3fff | hi`, built as `arith` (for an `off`
    /// that is a multiple of 16, as `(((base >> 4) & 0x3fff) | hi) + off / 16`).
    fn descriptor(&mut self, base: Value, off: i64, hi: u64) -> Value;
}

impl AsyncBuilder for OpBuilder<'_> {
    fn int(&mut self, w: u32) -> Type {
        self.ctx_mut().int_type(w)
    }
    fn bin(&mut self, op: IntBinOp, a: Value, b: Value) -> Value {
        let ty = self.ctx().value_type(a);
        let o = match op {
            IntBinOp::AddI => AddIOp::build(self, a, b, ty, None).op(),
            IntBinOp::MulI => MulIOp::build(self, a, b, ty, None).op(),
            IntBinOp::ShLI => ShLIOp::build(self, a, b, ty, None).op(),
            IntBinOp::ShRUI => ShRUIOp::build(self, a, b, ty).op(),
            IntBinOp::AndI => AndIOp::build(self, a, b, ty).op(),
            IntBinOp::OrI => OrIOp::build(self, a, b, ty).op(),
            other => unreachable!("async-to-ptx builds no {other:?}"),
        };
        self.ctx().results(o)[0]
    }
    fn cint(&mut self, w: u32, v: i64) -> Value {
        let ty = self.int(w);
        let a = int_attr(self.ctx_mut(), ty, v as u128);
        ConstantOp::build(self, ty, a).result(self.ctx())
    }
    fn ctrue(&mut self) -> Value {
        let ty = self.int(1);
        let a = int_attr(self.ctx_mut(), ty, 1);
        ConstantOp::build(self, ty, a).result(self.ctx())
    }
    fn as_i32(&mut self, v: Value) -> Value {
        let t = self.ctx().value_type(v);
        let i32t = self.int(32);
        match self.ctx().type_kind(t) {
            TypeKind::Index => IndexCastOp::build(self, v, i32t).out(self.ctx()),
            TypeKind::Integer { width: 32, .. } => v,
            TypeKind::Integer { width, .. } if *width > 32 => {
                TruncIOp::build(self, v, i32t, None).out(self.ctx())
            }
            _ => ExtUIOp::build(self, v, i32t).out(self.ctx()),
        }
    }
    fn inst(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        tys: Vec<Type>,
        guard: Option<(Value, bool)>,
    ) -> OpId {
        let props = inst_properties(
            self.ctx_mut(),
            opcode,
            Some(form),
            args.len(),
            guard.map(|g| g.1),
        );
        let mut all = args.to_vec();
        if let Some((g, _)) = guard {
            all.push(g);
        }
        self.create_named(InstOp::DEF.name, all, tys, props)
    }
    fn inst0(&mut self, opcode: &str, form: &str, args: &[Value], guard: Option<(Value, bool)>) {
        self.inst(opcode, form, args, vec![], guard);
    }
    fn inst1(
        &mut self,
        opcode: &str,
        form: &str,
        args: &[Value],
        ty: Type,
        guard: Option<(Value, bool)>,
    ) -> Value {
        let o = self.inst(opcode, form, args, vec![ty], guard);
        self.ctx().results(o)[0]
    }
    fn asm(&mut self, text: &str, args: &[Value], tys: Vec<Type>) -> OpId {
        AsmOp::build(self, args, &tys, text).op()
    }
    fn shared_addr(&mut self, t: Value) -> Value {
        let i32t = self.int(32);
        SharedAddrOp::build(self, t, i32t).result(self.ctx())
    }
    fn bar_addr(&mut self, bars: Value, idx: Value) -> Value {
        let i32t = self.int(32);
        AddrOp::build(self, bars, idx, i32t).result(self.ctx())
    }
    fn special(&mut self, reg: &str) -> Value {
        let i32t = self.int(32);
        SpecialOp::build(self, i32t, reg).result(self.ctx())
    }
    fn descriptor(&mut self, base: Value, off: i64, hi: u64) -> Value {
        let i64t = self.int(64);
        // A 16-byte multiple is added to the descriptor of `base` rather than to the address:
        // the start field is `addr >> 4` of a shared address below 2^18, so it never carries
        // into `hi`, and the base descriptor is one value CSE shares between every
        // instruction of an MMA (one 64-bit add each instead of add, shift, mask, widen, or).
        let (a, rest) = if off % 16 == 0 {
            (base, off / 16)
        } else {
            let c = self.cint(32, off);
            (self.bin(IntBinOp::AddI, base, c), 0)
        };
        let c4 = self.cint(32, 4);
        let s = self.bin(IntBinOp::ShRUI, a, c4);
        let m = self.cint(32, 0x3fff);
        let s = self.bin(IntBinOp::AndI, s, m);
        let w = ExtUIOp::build(self, s, i64t).out(self.ctx());
        let h = self.cint(64, hi as i64);
        let d = self.bin(IntBinOp::OrI, w, h);
        if rest == 0 {
            d
        } else {
            let c = self.cint(64, rest);
            self.bin(IntBinOp::AddI, d, c)
        }
    }
}

/// A 64-bit wgmma/tcgen05 shared-memory descriptor `((base + off) >> 4) & 0x3fff | hi` (`hi`
/// from [`wgmma_descriptor_hi`] or [`tcgen05_descriptor_hi`]), built as `arith` before the
/// builder's insertion point; also used by `lower-tiles` for a `tilus.dot` on wgmma.
pub(crate) fn smem_descriptor(b: &mut OpBuilder<'_>, base: Value, off: i64, hi: u64) -> Value {
    b.descriptor(base, off, hi)
}
