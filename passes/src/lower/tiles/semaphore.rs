//! `tilus.lock_semaphore` and `tilus.release_semaphore` on an element of a global view.

use super::*;

impl Lowering {
    /// `tilus.lock_semaphore` spins on `ld.acquire.gpu` until the element equals the value;
    /// `tilus.release_semaphore` is one `st.release.gpu`. The element's address is the view's
    /// base plus the offsets times the strides (4-byte elements).
    pub(super) fn semaphore(&mut self, ctx: &mut Context, o: OpId, lock: bool) -> R<()> {
        let ops = ctx.operands(o).to_vec();
        let (view, rest) = ops.split_first().ok_or("semaphore without operands")?;
        let (value, offsets) = rest.split_last().ok_or("semaphore without a value")?;
        let v = self
            .views
            .get(view)
            .ok_or("the view was not lowered")?
            .clone();
        let mut b = before(ctx, o);
        let i64t = b.i64();
        let mut addr = v.base;
        for (d, &x) in offsets.iter().enumerate() {
            let x = ExtSIOp::build(&mut b, x, i64t).out(b.ctx());
            let off = match v.static_strides.get(d).copied().flatten() {
                Some(st) => b.mul_const(x, st * 4),
                None => {
                    let st = ExtSIOp::build(&mut b, v.strides[d], i64t).out(b.ctx());
                    let st = b.mul_const(st, 4);
                    b.mul(x, st)
                }
            };
            addr = b.add(addr, off);
        }
        if lock {
            b.asm(
                "{\n.reg .pred P;\n.reg .b32 V;\nLAB_SEM:\nld.acquire.gpu.global.b32 V, [$0];\nsetp.ne.s32 P, V, $1;\n@P bra LAB_SEM;\n}",
                &[addr, *value],
                &[],
            );
        } else {
            b.inst(
                "st.release.gpu.global.b32",
                "[$0], $1",
                &[addr, *value],
                &[],
                None,
            );
        }
        Ok(())
    }
}
