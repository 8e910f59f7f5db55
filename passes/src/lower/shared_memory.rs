//! `plan-shared-memory`: one dynamic shared buffer per kernel, and a static byte offset in it
//! for every `tilus.shared_tensor` and `mbarrier.alloc`.
//!
//! Allocations are placed first fit in program order, each live from its op to its
//! `tilus.free_shared` (or the end of the kernel; barriers live to the end). Alignment: 128 B
//! for tensors, raised to the swizzle repeat (256/512/1024 B for 32B/64B/128B swizzle, because
//! the hardware swizzles absolute address bits), 8 B for barriers. The offset is recorded on the
//! op as `tilus.smem_offset`, the total on the kernel as `tilus.smem_bytes` (the launcher's
//! dynamic shared memory size), and the module gets `ptx.shared_decl @smem align 1024`.
//!
//! `tilus.shared_addr %s` (the shared-window `i32` address of a shared tensor or a slice of
//! one) and `mbarrier.addr %bars[%i]` (`base + 8·i`) are lowered here to `ptx.addressof @smem`
//! plus offsets, when those ops appear. The tensors themselves stay for `lower-tiles` (which
//! reads `tilus.smem_offset`) and are erased once unused.

use super::build::{before, i64_attr, ops_where, replace_op, LowerBuilder};
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::{ExtUIOp, IndexCastOp};
use tilus_dialects::builtin::ModuleOp;
use tilus_dialects::layout_algebra::SwizzleMode;
use tilus_dialects::mbarrier::{AddrOp, AllocOp as BarrierAllocOp};
use tilus_dialects::ptx::{AddressofOp, SharedDeclOp};
use tilus_dialects::tilus::{
    same_start_view_source, FreeSharedOp, KernelOp, SharedAddrOp, SharedTensorOp, SliceSharedOp,
};
use tilus_dialects::tilus_types::{attr_i64, barrier_count, prop_i64, TensorType};
use tilus_ir::{AttrKind, Context, Diagnostic, OpId, Value};
use tilus_ir::{OpBuilder, OperationState};

/// The name of the dynamic shared buffer.
pub const SMEM: &str = "smem";
/// Most dynamic shared memory per block on sm_90 (227 KiB).
pub const SMEM_LIMIT: i64 = tilus_dialects::tilus::MAX_SHARED_TOTAL;

declare_pass! {
    /// The pass. It has no options.
    pub struct PlanSharedMemory {
        name: "plan-shared-memory",
        class: "PlanSharedMemory",
        summary: "Give shared tensors and mbarriers static offsets in one dynamic shared buffer",
        description: "Places every tilus.shared_tensor and mbarrier.alloc at a static byte \
            offset of one dynamic shared buffer (first fit in program order, live until \
            tilus.free_shared; 128-byte alignment, 256/512/1024 for 32B/64B/128B swizzle, 8 for \
            barriers), records it as tilus.smem_offset and the total as tilus.smem_bytes on the \
            kernel, declares ptx.shared_decl @smem align 1024, and lowers tilus.shared_addr and \
            mbarrier.addr to ptx.addressof @smem plus offsets.",
        options: {},
        statistics: {
            NUM_ALLOCATIONS = "num-allocations", "Number of shared allocations placed";
        },
    }
}

impl Pass for PlanSharedMemory {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let kernels = ops_where(ctx, op, KernelOp::is);
        let mut errors = Vec::new();
        let mut n = 0u64;
        let mut any = false;
        for k in kernels {
            match plan(ctx, k) {
                Ok((count, total)) => {
                    n += count;
                    any |= total > 0;
                }
                Err(d) => errors.push(d),
            }
            if let Err(d) = lower_addrs(ctx, k) {
                errors.push(d);
            }
        }
        if any {
            declare_smem(ctx, op);
        }
        stats.add(Self::NUM_ALLOCATIONS, n);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(if n > 0 { Changed::Yes } else { Changed::No })
    }
}

/// Size and alignment of an allocation op, if it is one.
fn alloc_shape(ctx: &Context, o: OpId) -> Option<(i64, i64)> {
    if SharedTensorOp::is(ctx, o) {
        {
            let t = TensorType::of(ctx, ctx.value_type(ctx.results(o)[0]))?;
            let layout = t.shared_layout().ok()?;
            let bytes = up(layout.footprint() * t.dtype.memory_bits() as i64, 8) / 8;
            let align = match t.swizzle {
                SwizzleMode::None => 128,
                SwizzleMode::B32 => 256,
                SwizzleMode::B64 => 512,
                SwizzleMode::B128 => 1024,
            };
            Some((bytes, align))
        }
    } else if BarrierAllocOp::is(ctx, o) {
        let n = barrier_count(ctx, ctx.value_type(ctx.results(o)[0]))?;
        Some((8 * n, 8))
    } else {
        None
    }
}

/// First-fit placement; returns (allocations, total bytes).
fn plan(ctx: &mut Context, k: OpId) -> Result<(u64, i64), Diagnostic> {
    let mut events = Vec::new();
    ctx.walk(k, &mut |o| {
        if alloc_shape(ctx, o).is_some() || FreeSharedOp::is(ctx, o) {
            events.push(o);
        }
    });
    // Live allocations: (op, offset, size).
    let mut live: Vec<(OpId, i64, i64)> = Vec::new();
    let mut total = prop_i64(ctx, k, tilus_dialects::tilus::attr_names::SMEM_BYTES).unwrap_or(0);
    let mut n = 0;
    for o in events {
        if FreeSharedOp::is(ctx, o) {
            if let Some(def) = root_alloc(ctx, ctx.operands(o)[0]) {
                live.retain(|(a, _, _)| *a != def);
            }
            continue;
        }
        let (size, align) = alloc_shape(ctx, o).expect("allocation");
        if let Some(off) = ctx
            .get_attr(o, tilus_dialects::tilus::attr_names::SMEM_OFFSET)
            .and_then(|a| attr_i64(ctx, a))
        {
            // Already placed (the pass ran before).
            live.push((o, off, size));
            continue;
        }
        live.sort_by_key(|l| l.1);
        let mut off = 0i64;
        for &(_, lo, ls) in &live {
            if off + size <= lo {
                break;
            }
            off = off.max(up(lo + ls, align));
        }
        let off = up(off, align);
        live.push((o, off, size));
        total = total.max(off + size);
        let a = i64_attr(ctx, off);
        ctx.set_attr(o, tilus_dialects::tilus::attr_names::SMEM_OFFSET, Some(a));
        n += 1;
    }
    if total > SMEM_LIMIT {
        return Err(Diagnostic::op(
            k,
            format!("the kernel needs {total} bytes of shared memory, more than the {SMEM_LIMIT} an sm_90 block may have"),
        ));
    }
    if total > 0 {
        let a = i64_attr(ctx, total);
        ctx.set_attr(k, tilus_dialects::tilus::attr_names::SMEM_BYTES, Some(a));
    }
    Ok((n, total))
}

/// The allocation op a shared tensor (or view of one) comes from.
fn root_alloc(ctx: &Context, v: Value) -> Option<OpId> {
    let d = ctx.defining_op(v)?;
    if SharedTensorOp::is(ctx, d) || BarrierAllocOp::is(ctx, d) {
        Some(d)
    } else if let Some(src) = same_start_view_source(ctx, d) {
        root_alloc(ctx, src)
    } else if SliceSharedOp::is(ctx, d) {
        root_alloc(ctx, ctx.operands(d)[0])
    } else {
        None
    }
}

/// Declares `ptx.shared_decl @smem align 1024` at the top of the module holding `op` (once).
pub(crate) fn declare_smem(ctx: &mut Context, op: OpId) {
    let module = if ModuleOp::is(ctx, op) {
        op
    } else {
        let mut cur = ctx.parent_op(op);
        loop {
            match cur {
                Some(p) if ModuleOp::is(ctx, p) => break p,
                Some(p) => cur = ctx.parent_op(p),
                None => return,
            }
        }
    };
    let body = ctx.region_blocks(ctx.regions(module)[0])[0];
    let mut exists = false;
    for o in ctx.block_ops(body) {
        if SharedDeclOp::is(ctx, o)
            && tilus_dialects::ptx::str_prop(ctx, o, "sym_name").as_deref() == Some(SMEM)
        {
            exists = true;
        }
    }
    if exists {
        return;
    }
    let loc = ctx.unknown_loc();
    let name = ctx.str_attr(SMEM);
    let align = i64_attr(ctx, 1024);
    let mut st = OperationState::of(ctx, SharedDeclOp::DEF).with_properties(
        ctx,
        vec![("sym_name".into(), name), ("alignment".into(), align)],
    );
    st.loc = loc;
    let d = ctx.create_op(st);
    match ctx.block_first(body) {
        Some(f) => ctx.insert_op_before(f, d),
        None => ctx.append_op(body, d),
    }
}

/// `ptx.addressof @smem : i32`.
pub(crate) fn smem_base(b: &mut OpBuilder<'_>) -> Value {
    let sym = b.ctx_mut().attr(AttrKind::SymbolRef {
        root: SMEM.to_string(),
        nested: vec![],
    });
    let t = b.i32();
    AddressofOp::build(b, t, sym).result(b.ctx())
}

/// The shared-window byte address (`i32`) of the first element of a shared tensor or view, and
/// whether that address is known to be the tensor's allocation start (no runtime slice offset).
pub(crate) fn shared_addr(b: &mut OpBuilder<'_>, v: Value) -> Result<Value, String> {
    let d = b
        .ctx()
        .defining_op(v)
        .ok_or("a shared tensor block argument has no known address")?;
    let ctx = b.ctx();
    if SharedTensorOp::is(ctx, d) || BarrierAllocOp::is(ctx, d) {
        {
            let off = b
                .ctx()
                .get_attr(d, tilus_dialects::tilus::attr_names::SMEM_OFFSET)
                .and_then(|a| attr_i64(b.ctx(), a))
                .ok_or("the allocation has no offset (run plan-shared-memory first)")?;
            let base = smem_base(b);
            Ok(b.add_const(base, off))
        }
    } else if SliceSharedOp::is(ctx, d) {
        {
            let src = b.ctx().operands(d)[0];
            let idx: Vec<Value> = b.ctx().operands(d)[1..].to_vec();
            let t =
                TensorType::of(b.ctx(), b.ctx().value_type(src)).ok_or("not a shared tensor")?;
            let strides = match &t.strides {
                Some(s) => s.clone(),
                None => row_major(&t.shape),
            };
            let bytes = t.dtype.memory_bits() as i64 / 8;
            let mut addr = shared_addr(b, src)?;
            for (i, x) in idx.iter().enumerate() {
                let o = b.mul_const(*x, strides[i] * bytes);
                addr = b.add(addr, o);
            }
            Ok(addr)
        }
    } else if let Some(src) = same_start_view_source(ctx, d) {
        shared_addr(b, src)
    } else {
        Err(format!(
            "cannot find the address of a shared tensor made by '{}'",
            ctx.op_name_str(d)
        ))
    }
}

/// Row-major strides of a shape.
pub(crate) fn row_major(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// Lowers `tilus.shared_addr` and `mbarrier.addr` under `k`.
fn lower_addrs(ctx: &mut Context, k: OpId) -> Result<(), Diagnostic> {
    let ops = ops_where(ctx, k, |c, o| SharedAddrOp::is(c, o) || AddrOp::is(c, o));
    for o in ops {
        let is_barrier = AddrOp::is(ctx, o);
        let args = ctx.operands(o).to_vec();
        let rty = ctx.value_type(ctx.results(o)[0]);
        let mut b = before(ctx, o);
        let r = shared_addr(&mut b, args[0]).map_err(|m| Diagnostic::op(o, m))?;
        let mut r = if is_barrier && args.len() > 1 {
            let i = args[1];
            let i = if b.ctx().value_type(i) != b.ctx().value_type(r) {
                let t = b.i32();
                IndexCastOp::build(&mut b, i, t).out(b.ctx())
            } else {
                i
            };
            let o8 = b.mul_const(i, 8);
            b.add(r, o8)
        } else {
            r
        };
        if b.ctx().value_type(r) != rty {
            r = ExtUIOp::build(&mut b, r, rty).out(b.ctx());
        }
        replace_op(&mut b, o, &[r]);
    }
    Ok(())
}

/// `x` rounded up to a multiple of `a` (`x >= 0`, `a > 0`).
fn up(x: i64, a: i64) -> i64 {
    (x + a - 1) / a * a
}
