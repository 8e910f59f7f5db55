//! mbarrier: allocations hoisted to the kernel entry and initialized there, and the
//! semantics/scope suffixes of arrive and wait.

use super::*;

/// Moves the allocations to the kernel entry (with explicit counts) and initializes them:
/// thread 0 runs `mbarrier.init` for each barrier, then everyone fences and synchronizes.
pub(super) fn init_barriers(
    ctx: &mut Context,
    kn: &mut Kernel,
    allocs: &[OpId],
) -> Result<(), Diagnostic> {
    let mut inits = Vec::new();
    for &a in allocs {
        let ty = ctx.value_type(ctx.results(a)[0]);
        let n = barrier_count(ctx, ty).unwrap_or(1);
        let counts = match ctx.get_prop(a, "counts").and_then(|c| attr_i64s(ctx, c)) {
            Some(c) => c,
            None => {
                let g = group_of(ctx, a).ok_or_else(|| {
                    Diagnostic::op(
                        a,
                        "cannot lower 'mbarrier.alloc': its thread group is unknown",
                    )
                })?;
                vec![g.size; n as usize]
            }
        };
        let arr = ctx.int_array_attr(64, &counts);
        tilus_ir::rewrite::set_property(ctx, a, "counts", Some(arr));
        inits.push((a, counts));
    }
    // Hoist, keeping their order, before the first other op of the entry block.
    let anchor = ctx.block_ops(kn.entry).find(|o| !allocs.contains(o));
    for (a, _) in &inits {
        match anchor {
            Some(x) => ctx.move_op_before(*a, x),
            None => {
                ctx.detach_op(*a);
                ctx.append_op(kn.entry, *a);
            }
        }
    }
    let loc = ctx.op(inits[0].0).loc;
    let clustered = tilus_dialects::mbarrier::cluster_ctas(ctx, inits[0].0).unwrap_or(1) > 1;
    let mut b = OpBuilder::new(ctx);
    b.set_loc(loc);
    match anchor {
        Some(x) => b.set_insertion_point_before(x),
        None => b.set_insertion_point_to_end(kn.entry),
    }
    let tid = b.special("tid.x");
    let i1 = b.int(1);
    let p = b.inst1("setp.eq.u32", "$0, 0", &[tid], i1, None);
    for (a, counts) in &inits {
        let bars = b.ctx().results(*a)[0];
        for (i, c) in counts.iter().enumerate() {
            let idx = b.cint(32, i as i64);
            let addr = b.bar_addr(bars, idx);
            b.inst0(
                "mbarrier.init.shared::cta.b64",
                &format!("[$0], {c}"),
                &[addr],
                Some((p, false)),
            );
        }
    }
    b.inst0("fence.mbarrier_init.release.cluster", "", &[], None);
    if clustered {
        // Peers multicast into these barriers and arrive on them remotely: no CTA of the
        // cluster may start before every CTA's barriers are initialized.
        b.inst0("barrier.cluster.arrive.release.aligned", "", &[], None);
        b.inst0("barrier.cluster.wait.acquire.aligned", "", &[], None);
    } else {
        b.inst0("bar.sync", "0", &[], None);
    }
    // The prologue ends here: later entry code (the leader predicate) goes after it.
    kn.body_start = anchor;
    Ok(())
}

pub(super) fn sem_scope(
    ctx: &Context,
    op: OpId,
    wait: bool,
    default_scope: i64,
) -> (String, String) {
    let sem = prop_i64(ctx, op, "sem").unwrap_or(0) as usize;
    let scope = prop_i64(ctx, op, "scope").unwrap_or(default_scope) as usize;
    let sems = if wait { WAIT_SEM } else { ARRIVE_SEM };
    (
        sems.keywords
            .get(sem)
            .copied()
            .unwrap_or("release")
            .to_string(),
        SCOPE
            .keywords
            .get(scope)
            .copied()
            .unwrap_or("cta")
            .to_string(),
    )
}
