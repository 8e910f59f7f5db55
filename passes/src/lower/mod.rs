//! Lowerings toward PTX, one pass per file (the two large ones, `tiles` and `async_to_ptx`, are
//! folders with one file per concern):
//!
//! - [`scf_parallel`] (`scf-forall-to-for`, `scf-parallel-for-to-nested-fors`): parallel loops
//!   as nests of `scf.for`;
//! - [`scf_to_cf`] (`convert-scf-to-cf`): structured control flow to blocks and branches;
//! - [`arith_to_ptx`] (`convert-arith-to-ptx`): scalar `arith` ops to `ptx.inst`;
//! - [`func_to_ptx`] (`convert-func-to-ptx`): kernels written as `func.func` to `ptx.entry`;
//! - [`async_to_ptx`] (`lower-async-to-ptx`): mbarrier, TMA, WGMMA and tcgen05 ops to PTX;
//! - [`shared_memory`] (`plan-shared-memory`): static offsets in the dynamic shared buffer;
//! - [`tiles`] (`lower-tiles`): register tensors to per-thread scalars;
//! - [`threadgroups`] (`lower-threadgroups`): thread groups to predicates, syncs to barriers;
//! - [`tilus_kernel`] (`lower-tilus-kernel`): `tilus.kernel` to `ptx.entry`, ids to specials;
//! - [`tilus_to_ptx`] (`tilus-to-ptx`): all of the above in order, then scf/arith to PTX.
//!
//! `crate::ptx_emit` then prints the result as PTX text. `docs/design/lowering.md` has the whole
//! planned pipeline, from tile-level IR down.

pub mod arith_to_ptx;
pub mod async_to_ptx;
pub(crate) mod build;
pub mod func_to_ptx;
pub mod scf_parallel;
pub mod scf_to_cf;
pub mod shared_memory;
pub mod threadgroups;
pub mod tiles;
pub mod tilus_kernel;
pub mod tilus_to_ptx;

use tilus_ir::{BlockId, Context, OpId};

/// The `target` option of the kernel lowerings: a PTX target name such as `sm_90a`.
pub(crate) fn check_ptx_target(t: &str) -> Result<(), String> {
    if t.starts_with("sm_") {
        Ok(())
    } else {
        Err(format!("expected a target like 'sm_90a', got '{t}'"))
    }
}

/// Detaches `b` from its region, keeping its ops (the context can only erase a block from a
/// region, so the ops are moved out and back).
pub(crate) fn take_block(ctx: &mut Context, b: BlockId) {
    if ctx.block_parent(b).is_none() {
        return;
    }
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    for &o in &ops {
        ctx.detach_op(o);
    }
    ctx.erase_block(b);
    for o in ops {
        ctx.append_op(b, o);
    }
}

/// Makes `order` the blocks of region `r`, in that order (blocks may come from elsewhere or be
/// detached).
pub(crate) fn set_region_blocks(ctx: &mut Context, r: tilus_ir::RegionId, order: &[BlockId]) {
    for b in ctx.region_blocks(r).to_vec() {
        take_block(ctx, b);
    }
    for &b in order {
        take_block(ctx, b);
        ctx.push_block(r, b);
    }
}
