//! `lower-tilus-kernel`: `tilus.kernel` becomes a `ptx.entry`, and the id ops become special
//! registers.
//!
//! * Parameters: `!tilus.ptr<T>` becomes `i64` (the generic address), scalars keep their type.
//!   `warps(w)` gives `maxntid = 32·w` (and the discardable `tilus.threads`), a 1-D `cluster(x)`
//!   gives `reqnctapercluster = x`. The kernel's attributes are kept, plus `tilus.warps`,
//!   `tilus.blocks` (the grid map) and `tilus.cluster` for the launcher; `tilus.smem_bytes` (set
//!   by `plan-shared-memory`) stays too: it is the dynamic shared memory to launch with.
//! * `tilus.block_id d` / `tilus.num_blocks d` are `%ctaid.d` / `%nctaid.d`; `tilus.lane_id` is
//!   `%laneid`; `tilus.thread_id` is `%tid.x` minus the enclosing group's absolute first
//!   thread (0 in a one-thread group), `tilus.warp_id` that divided by 32.
//! * `tilus.fast_divmod a, b` is `divui` / `remui` for now (the spec's magic-number form needs
//!   host-side multipliers as extra parameters; the operands are non-negative, so unsigned
//!   division is exact).
//! * Unused `tilus.global_view`s are dropped (`lower-tiles` consumed the others); one still in
//!   use is an error.
//!
//! The body must be free of register tensors and thread groups by now (run `lower-tiles` and
//! `lower-threadgroups` first); ids inside groups are nevertheless lowered relative to them.

use super::build::{
    before, group_pos, i64_attr, ops_where, relative_tid, replace_op, LowerBuilder,
};
use super::set_region_blocks;
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::IntBinOp;
use tilus_dialects::ptx::{EntryOp, RetOp};
use tilus_dialects::tilus::{FastDivmodOp, GlobalViewOp, KernelOp, TilusOpKind};
use tilus_dialects::tilus_types::{attr_i64s, prop_i64, ptr_elem};
use tilus_ir::handle::KeywordEnum;
use tilus_ir::{BlockId, Context, Diagnostic, OpBuilder, OpId, OperationState, Type};

/// Shared memory of one H100 SM (228 KiB): a block using more than half of it runs alone on
/// its SM.
const SM_SHARED_BYTES: i64 = 228 * 1024;

declare_pass! {
    /// The pass; its field is its option.
    pub struct LowerTilusKernel {
        name: "lower-tilus-kernel",
        class: "LowerTilusKernel",
        summary: "Turn tilus.kernel into ptx.entry and ids into special registers",
        description: "Turns each tilus.kernel into a ptx.entry: pointer parameters become i64, \
            scalars keep their type, warps gives maxntid = 32*warps, a 1-D cluster gives \
            reqnctapercluster; the grid map, warps, cluster and tilus.smem_bytes stay as \
            tilus.* attributes for the launcher. tilus.block_id/num_blocks/lane_id become \
            ptx.special ctaid/nctaid/laneid, tilus.thread_id/warp_id become tid.x relative to \
            the enclosing group, tilus.fast_divmod becomes divui/remui.",
        options: {
            target: String = "sm_90a".into(), "target", "PTX target of the kernels (sm_90a)",
                check = super::check_ptx_target;
        },
        statistics: {
            NUM_KERNELS = "num-kernels", "Number of kernels lowered";
        },
    }
}

impl Pass for LowerTilusKernel {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let kernels = ops_where(ctx, op, KernelOp::is);
        let mut errors = Vec::new();
        for &k in &kernels {
            lower_ids(ctx, k);
            if let Err(d) = lower_misc(ctx, k) {
                errors.push(d);
                continue;
            }
            if let Err(d) = self.convert(ctx, k) {
                errors.push(d);
            }
        }
        stats.add(Self::NUM_KERNELS, kernels.len() as u64);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(if kernels.is_empty() {
            Changed::No
        } else {
            Changed::Yes
        })
    }
}

/// Lowers every `tilus.thread_id/warp_id/lane_id/block_id/num_blocks` under `root` to
/// `ptx.special` arithmetic, relative to the group each sits in.
pub(crate) fn lower_ids(ctx: &mut Context, root: OpId) {
    use TilusOpKind as K;
    let mut ids = Vec::new();
    ctx.walk(root, &mut |o| {
        if let Some(
            k @ (K::ThreadId(_) | K::WarpId(_) | K::LaneId(_) | K::BlockId(_) | K::NumBlocks(_)),
        ) = K::classify(ctx, o)
        {
            ids.push(k);
        }
    });
    for kind in ids {
        let o = kind.op();
        let g = group_pos(ctx, o);
        let grid = match kind {
            K::BlockId(h) => Some(("ctaid", h.dim(ctx))),
            K::NumBlocks(h) => Some(("nctaid", h.dim(ctx))),
            _ => None,
        };
        let mut b = before(ctx, o);
        let v = match kind {
            K::LaneId(_) => b.special("laneid"),
            K::BlockId(_) | K::NumBlocks(_) => {
                let (reg, d) = grid.expect("a grid id");
                b.special(&format!("{reg}.{}", d.keyword()))
            }
            _ => {
                let g = g.unwrap_or(super::build::GroupPos {
                    op: None,
                    begin: Some(0),
                    size: 1024,
                    block: 1024,
                });
                let t = relative_tid(&mut b, &g);
                if matches!(kind, K::WarpId(_)) {
                    b.udiv_const(t, 32)
                } else {
                    t
                }
            }
        };
        replace_op(&mut b, o, &[v]);
    }
}

/// `fast_divmod`, dead global views.
fn lower_misc(ctx: &mut Context, k: OpId) -> Result<(), Diagnostic> {
    let ops = ops_where(ctx, k, |c, o| {
        FastDivmodOp::is(c, o) || GlobalViewOp::is(c, o)
    });
    for o in ops {
        if GlobalViewOp::is(ctx, o) {
            if ctx.uses(ctx.results(o)[0]).is_empty() {
                ctx.erase_op(o);
                continue;
            }
            return Err(Diagnostic::op(
                o,
                "cannot lower a 'tilus.global_view' that is still used (run lower-tiles first)",
            ));
        }
        let (a, d) = (ctx.operands(o)[0], ctx.operands(o)[1]);
        let mut b = before(ctx, o);
        let q = b.int_op(IntBinOp::DivUI, a, d);
        let r = b.int_op(IntBinOp::RemUI, a, d);
        replace_op(&mut b, o, &[q, r]);
    }
    Ok(())
}

impl LowerTilusKernel {
    fn convert(&self, ctx: &mut Context, k: OpId) -> Result<(), Diagnostic> {
        let loc = ctx.op(k).loc;
        let warps = prop_i64(ctx, k, "warps").unwrap_or(1);
        let old = ctx.regions(k)[0];
        let blocks: Vec<BlockId> = ctx.region_blocks(old).to_vec();
        let body = blocks[0];
        // Pointer parameters become i64.
        let i64t = ctx.int_type(64);
        let mut inputs: Vec<Type> = Vec::new();
        for a in ctx.block_args(body).to_vec() {
            let t = ctx.value_type(a);
            if ptr_elem(ctx, t).is_some() {
                ctx.set_value_type(a, i64t);
                inputs.push(i64t);
            } else {
                inputs.push(t);
            }
        }
        let fty = ctx.function_type(inputs, vec![]);
        let fty_attr = ctx.type_attr(fty);
        // The body gets its terminator.
        let mut b = OpBuilder::new(ctx);
        b.set_loc(loc);
        b.set_insertion_point_to_end(body);
        RetOp::build(&mut b);
        let region = ctx.create_region();
        set_region_blocks(ctx, region, &blocks);
        let mut props = Vec::new();
        if let Some(v) = ctx.get_prop(k, "sym_name") {
            props.push(("sym_name".to_string(), v));
        }
        props.push(("function_type".into(), fty_attr));
        // Parameter attributes (`tilus.range`, `tilus.divisibility`) stay with their
        // parameters: eqsat reads them on the entry.
        if let Some(v) = ctx.get_prop(k, "arg_attrs") {
            props.push(("arg_attrs".into(), v));
        }
        // A kernel that needs another target (tcgen05: sm_100a, set by lower-async-to-ptx as
        // `tilus.ptx_target`) keeps it; the pass option is the default for the others.
        let target = match ctx
            .get_attr(k, tilus_dialects::tilus::attr_names::PTX_TARGET)
            .map(|a| ctx.attr_kind(a).clone())
        {
            Some(tilus_ir::AttrKind::String { value, .. }) => {
                String::from_utf8_lossy(&value).into_owned()
            }
            _ => self.target.clone(),
        };
        props.push(("target".into(), ctx.str_attr(&target)));
        props.push(("maxntid".into(), i64_attr(ctx, 32 * warps)));
        // setmaxnreg (lowered by lower-threadgroups) needs the register count at entry, which
        // ptxas ignores the instruction without; .maxnreg pins it to the count the register
        // split was planned from (and the interpreter starts every warp with).
        // A kernel whose shared memory leaves room for one block per SM gets the same bound:
        // ptxas otherwise caps a large block's registers as if two could share the SM (168
        // for 288 threads, spilling a split-K matmul's epilogue), which the shared memory
        // already rules out.
        let setmaxnreg = tilus_dialects::tilus::attr_names::SETMAXNREG;
        let smem = tilus_dialects::tilus_types::prop_i64(
            ctx,
            k,
            tilus_dialects::tilus::attr_names::SMEM_BYTES,
        )
        .unwrap_or(0);
        if ctx.get_attr(k, setmaxnreg).is_some() {
            let n = tilus_dialects::threadgroup::launch_registers(32 * warps);
            props.push(("maxnreg".into(), i64_attr(ctx, n)));
        } else if 2 * smem > SM_SHARED_BYTES {
            let n = tilus_dialects::threadgroup::block_register_limit(32 * warps);
            props.push(("maxnreg".into(), i64_attr(ctx, n)));
        }
        let cluster = ctx
            .get_inherent_or_attr(k, "cluster")
            .and_then(|a| attr_i64s(ctx, a));
        if let Some(c) = &cluster {
            if c.iter().skip(1).any(|&d| d != 1) {
                return Err(Diagnostic::op(
                    k,
                    format!(
                        "cannot lower cluster {c:?}: only 1-D clusters are expressible \
                         (.reqnctapercluster n, 1, 1)"
                    ),
                ));
            }
            let n = c.first().copied().unwrap_or(1);
            props.push(("reqnctapercluster".into(), i64_attr(ctx, n)));
        }
        let mut st = OperationState::of(ctx, EntryOp::DEF)
            .with_properties(ctx, props)
            .with_regions(vec![region]);
        st.loc = loc;
        let mut attrs: Vec<(String, tilus_ir::Attr)> = ctx
            .attrs(k)
            .iter()
            .filter(|(n, _)| {
                !matches!(
                    n.as_str(),
                    "sym_name" | "function_type" | "warps" | "blocks" | "cluster"
                ) && n.as_str() != setmaxnreg
            })
            .cloned()
            .collect();
        attrs.push((
            tilus_dialects::tilus::attr_names::WARPS.into(),
            i64_attr(ctx, warps),
        ));
        attrs.push((
            tilus_dialects::tilus::attr_names::THREADS.into(),
            i64_attr(ctx, 32 * warps),
        ));
        if let Some(bm) = ctx.get_inherent_or_attr(k, "blocks") {
            attrs.push((tilus_dialects::tilus::attr_names::BLOCKS.into(), bm));
        }
        if let Some(c) = ctx.get_inherent_or_attr(k, "cluster") {
            attrs.push((tilus_dialects::tilus::attr_names::CLUSTER.into(), c));
        }
        st.attrs = attrs;
        let e = ctx.create_op(st);
        ctx.insert_op_before(k, e);
        ctx.erase_op(k);
        Ok(())
    }
}
