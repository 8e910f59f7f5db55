//! `tma-store-epilogue`: a group's store of a register tile to global memory becomes a store
//! into a swizzled shared buffer that one thread copies out with a TMA bulk store.
//!
//! Each thread storing its registers straight to global memory (`st.global`, 64 or more a
//! thread for a wgmma accumulator) keeps the warpgroup in its epilogue until the memory
//! pipeline has taken them; with every SM ending its tiles together that was the gap between
//! the persistent kernels and cuBLAS (docs/perf.md, issue 17). Through shared memory the
//! group writes the tile at shared-memory speed and goes on to its next tile while the copy
//! engine sends it out. This is the epilogue of `examples/hopper_matmul_v6_tma_epilogue.mlir`:
//!
//! ```text
//! scf.if %tma_ok {                                  // C is writable by TMA (see below)
//!   threadgroup.single_thread { tma.wait_group 0 read }   // the previous copy has read buf
//!   threadgroup.sync
//!   tilus.store_shared %tile, %view                 // [R, C] into [R, C / E, E] boxes
//!   tma.fence_proxy_async shared                    // visible to the copy engine
//!   threadgroup.sync
//!   threadgroup.single_thread {
//!     tma.shared_to_global %buf[q], %c2[%row, %col + q E]   // for each box q: [R, E]
//!     tma.commit_group
//!   }
//! } else {
//!   tilus.store_global %tile, %c[%row, %col]        // the original store
//! }
//! ```
//!
//! and, at the end of the group, `single_thread { tma.wait_group 0 }` and `threadgroup.sync`
//! (the copies have completed before any thread of the group leaves or frees the buffer).
//!
//! **Which stores.** A `tilus.store_global` of a rank-2 register tile to a compact row-major
//! rank-2 `tilus.global_view`, executed by a whole group: the kernel's root group or a
//! `threadgroup.warp_group` (the store is collective, so every thread of that group reaches
//! it; stores inside `single_thread`, `single_warp` or `threadgroup.group` are left alone).
//! The element type must be 8, 16 or 32 bits wide, so that a 128-byte swizzle row holds
//! `E = 1024 / bits` elements; the tile's columns must be a multiple of E (at most 256 boxes)
//! and its rows at most 256 (TMA's box limits). A kernel that another names as its
//! `tilus.reference` is left alone: it is the ground truth `tilus-run` checks the rewritten
//! kernel against.
//!
//! **C as boxes of E columns.** A 128B-swizzled box row holds 128 bytes (E elements), so the
//! tile leaves as `C / E` boxes of `[R, E]`, one TMA store each, into C viewed as
//! `[M, ceil(N / E) * E]` with that row pitch: C itself when E divides N (which also gives TMA
//! its 16-byte row pitch), and a tensor map the driver accepts for any N (the host encodes it
//! before the kernel runs, even when the run-time test keeps the direct store). The buffer is
//! allocated box-major, `[C / E, R, E]`, and the tile is stored through its permuted view
//! `[R, C / E, E]` (strides `[E, R * E, 1]`: `tilus.store_shared` into a view that splits the
//! column dimension). Box-major because of the swizzle: it XORs the row within each 8-row,
//! 1024-byte block into the 16-byte column, and with 128-byte rows the eight rows a warp's
//! accumulator store touches at once fall in eight different columns, while with rows of C
//! elements (a row-major `[R, C]` buffer) they fell in `8 / (C / E)` of them: 4-way bank
//! conflicts at C = 256 halves (docs/perf.md, issue 17's fourth part). Each box starts at a
//! column that is a multiple of E; the first is tested once per view, the second only when
//! the column offset is not a known multiple of E. When either fails at run time the
//! original store runs. Out-of-range rows and columns are clipped by TMA as by the direct
//! store.
//!
//! **Boxes sent during the next tile** (`defer-boxes`, on by default). Writing C costs the
//! persistent matmul about 3% at 4096³ when every box leaves at the tile's end, on every SM at
//! once (docs/perf.md, issue 17's fourth part). Where the store ends the body of a tile loop
//! (`scf.for`) that has a k loop (an `scf.for` from 0 by 1) before it, and the group has no
//! other store through its buffer, the epilogue sends only box 0; the tile loop carries the
//! tile's row, column and whether its boxes went out (`iter_args`, initially none), box `j`
//! goes out at step `j` of the next tile's k loop (`scf.if` on the step, one thread), the boxes
//! a k loop of fewer steps did not reach right after it, and the last tile's after the tile
//! loop, before the group's final wait. The buffer is not written again before the next
//! epilogue, whose `wait_group 0 read` (the same thread's bulk groups) covers every box.
//!
//! **The tile written under the next tile's MMAs** (`overlap-epilogue`, on by default, with
//! `defer-boxes`). Even with the boxes deferred, the group's shared stores (64 a thread for a
//! 64 x 256 f16 tile) leave the tensor cores idle between two tiles. When the k loop waits for
//! wgmma groups it issued (`wgmma.wait_group`), the tile loop also carries the converted tile
//! (undefined before the first tile, read only when pending), and the whole epilogue of the
//! previous tile (the wait for the copy engine, the shared stores, the fence and box 0) runs
//! at step 0 of the next tile's k loop, after its MMAs are issued and before that wait; a k
//! loop of no step does it right after the loop, and the last tile's runs after the tile loop,
//! before its boxes 1.. . The tile's own place keeps only the direct store for a C that TMA
//! cannot write. Only tiles of at most 16-bit elements and at most 256 bytes a thread are
//! carried (64 registers beside the accumulator: the 64 x 256 f16 tile of a consumer
//! warpgroup; one warpgroup's 128 x 256 tile would spill). Like the epilogue it moves, the
//! step-0 epilogue synchronizes the group, so the k loop's trip count must be the group's (as
//! a k loop over the group's tile is). On the H100 this is worth 0.3 to 0.8 points of cuBLAS
//! in f16 at 4096^3 and at 8192^3 (docs/perf.md, issue 17's sixth part).
//!
//! **A box a k-step** (`spread-stores`, off by default, with the overlap). Instead of the whole
//! tile at step 0, box `j` of the carried tile (a `tilus.slice_register` of its registers: the
//! tile's layout must keep each box in whole registers of the threads, as the wgmma
//! accumulator's 64-column boxes are) is written into its part of the buffer, fenced and sent
//! at step `j` (step 0 first waits for the copy engine, which covers every box); a k loop of
//! fewer steps writes and sends the boxes it did not reach right after it. Measured on the
//! H100 it does not pay (bf16 4096^3 0.3 points slower, f16 level; docs/perf.md, issue 17's
//! seventh part): the step-0 stores are not waiting on the tensor cores but on shared-memory
//! bandwidth, which the MMAs' operand reads and the TMA ring's writes already fill, so moving
//! them to other steps moves the cost with them.
//!
//! **One buffer per group and tile shape.** A group's stores of one tile shape share an
//! `[R, C]` buffer (after `warp-specialize{consumer-warpgroups=K}` each warpgroup has its own
//! store, so K buffers; v5's two 64x128 halves per warpgroup share one, as in v6), allocated
//! before the first such store's top-level op and freed at the end of the kernel; each store
//! waits until the copy engine has read the previous one. A tile goes in one copy.
//! The pass adds up the kernel's shared allocations and the buffers and rejects the kernel
//! (at the first store) when the sum exceeds `max-shared-bytes` (227 KiB): for a 128x256x64
//! f16 ring of 48 KiB a stage and two 32 KiB buffers that is 3 stages, not 4.
//!
//! Applied to the hand-written v5 (`examples/hopper_matmul_v5_cluster.mlir`) it gives v6's
//! epilogue; after `pipeline` and `warp-specialize` it gives v4's kernel with it.
//!
//! It is a pass of its own rather than a `warp-specialize` option: it applies to any group's
//! store (hand-written kernels, `pipeline`'s output before specialization, v4), it needs the
//! consumer groups' row split to be done first (the buffer has the group's shape), and it
//! leaves `warp-specialize`'s matching and tests as they were.

use crate::lower::build::LowerBuilder;
use crate::{declare_pass, Changed, Pass, Statistics};
use tilus_dialects::arith::{CmpIPredicate, IntBinOp};
use tilus_dialects::layout_algebra::SwizzleMode;
use tilus_dialects::scf::{ForOp, IfOp, YieldOp};
use tilus_dialects::threadgroup::{GroupOp, SingleThreadOp, SingleWarpOp, SyncOp, WarpGroupOp};
use tilus_dialects::tilus::{
    attr_names, shared_high_water, FreeSharedOp, GlobalViewOp, KernelOp, PermuteSharedOp,
    RegisterTensorOp, SharedTensorOp, SliceRegisterOp, SliceSharedOp, StoreGlobalOp, StoreSharedOp,
};
use tilus_dialects::tilus_types::{const_int, Space, TensorType, DYN};
use tilus_dialects::tma::{
    CommitGroupOp, FenceProxyAsyncOp, SharedToGlobalOp, StateSpace, WaitGroupOp,
};
use tilus_dialects::wgmma::WaitGroupOp as MmaWaitGroupOp;
use tilus_ir::{AttrKind, BlockId, Context, DiagLoc, Diagnostic, OpBuilder, OpId, Value};

declare_pass! {
    /// The TMA-store epilogue: group stores of register tiles go through a swizzled shared
    /// buffer and one bulk copy. Options: the shared-memory budget the buffers must fit.
    pub struct TmaStoreEpilogue {
        name: "tma-store-epilogue",
        summary: "Send register tiles to global memory through shared memory and TMA stores",
        description: "Rewrites each tilus.store_global of a register tile that a whole group \
            executes (the kernel's root group or a threadgroup.warp_group, such as the consumer \
            warpgroups warp-specialize makes) into the epilogue of \
            examples/hopper_matmul_v6_tma_epilogue.mlir: a 128B-swizzled shared buffer per \
            group and tile shape, a wait until the group's previous TMA store has read it, \
            store_shared into the buffer's [R, C / E, E] box view (E elements fill a 128-byte \
            row; the buffer is box-major, which keeps the stores free of bank conflicts), \
            fence.proxy.async, one thread issuing a tma.shared_to_global per [R, E] box into C \
            viewed with a row pitch of ceil(N / E) * E, and tma.commit_group; a wait for the \
            copies before the group ends. With defer-boxes, a store that ends a tile loop \
            sends only its first box there and the others during the next tile's first k-steps \
            (the tile loop carries the tile's position); with overlap-epilogue, where the k \
            loop waits for wgmma groups, the whole epilogue of a 16-bit tile of at most 256 \
            bytes a thread moves to the next tile's first k-step, under its MMAs (the tile \
            loop carries the tile). \
            When E does not divide N (or the column offset) at run time the original store \
            runs instead. The kernel is rejected when its shared memory and the buffers exceed \
            max-shared-bytes: run pipeline with fewer stages.",
        options: {
            max_shared_bytes: i64 = tilus_dialects::tilus::MAX_SHARED_TOTAL, "max-shared-bytes", "Shared memory a block may use, in bytes (the buffers and the kernel's allocations must fit)";
            defer_boxes: bool = true, "defer-boxes", "Send a tile's boxes after the first during the next tile's first k-steps, where the store ends the body of a tile loop with a k loop before it";
            overlap_epilogue: bool = true, "overlap-epilogue", "With defer-boxes, and a k loop that waits for wgmma groups: write a tile of 8- or 16-bit elements, at most 256 bytes a thread, into the buffer during the next tile's first k-step, after its MMAs are issued (the tile loop carries the tile)";
            spread_stores: bool = false, "spread-stores", "With overlap-epilogue: write box j of the carried tile into the buffer (and send it) at the next tile's k-step j, rather than the whole tile at step 0 (needs a tile layout whose boxes are whole registers of each thread, as the wgmma accumulator's are)";
        },
        statistics: {
            NUM_REWRITTEN = "num-rewritten", "Stores sent through shared memory and TMA";
        },
    }
}

impl Pass for TmaStoreEpilogue {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        if self.max_shared_bytes <= 0 {
            return Err(vec![Diagnostic::op(
                op,
                format!(
                    "tma-store-epilogue: max-shared-bytes must be positive, got {}",
                    self.max_shared_bytes
                ),
            )]);
        }
        let mut kernels = Vec::new();
        ctx.walk(op, &mut |o| {
            if KernelOp::is(ctx, o) {
                kernels.push(o);
            }
        });
        // A kernel another names as its `tilus.reference` is what tilus-run checks the
        // rewritten kernel against: it keeps its plain stores, or the check would compare the
        // pass with itself.
        let references: Vec<String> = kernels
            .iter()
            .filter_map(|&k| {
                let a = ctx.get_attr(k, attr_names::REFERENCE)?;
                match ctx.attr_kind(a) {
                    AttrKind::String { value, .. } => {
                        Some(String::from_utf8_lossy(value).into_owned())
                    }
                    AttrKind::SymbolRef { root, nested } if nested.is_empty() => Some(root.clone()),
                    _ => None,
                }
            })
            .collect();
        let mut errors = Vec::new();
        let mut n = 0;
        for k in kernels {
            let name = KernelOp::cast(ctx, k).expect("kernel").sym_name(ctx);
            if references.iter().any(|r| r == name) {
                continue;
            }
            let modes = Modes {
                defer_boxes: self.defer_boxes,
                overlap: self.overlap_epilogue,
                spread: self.spread_stores,
            };
            match rewrite_kernel(ctx, k, self.max_shared_bytes, modes) {
                Ok(c) => n += c,
                Err(d) => errors.push(d),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        stats.add(Self::NUM_REWRITTEN, n as u64);
        Ok(if n > 0 { Changed::Yes } else { Changed::No })
    }
}

/// The group that executes a store: its threadgroup op, or `None` for the kernel's root group.
type Group = Option<OpId>;

/// What of the epilogue stays where the store was: all of it, all but the deferred boxes, or
/// (with the overlap) only the direct store.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Here {
    AllBoxes,
    FirstBox,
    Moved,
}

/// Which of the epilogue's overlaps with the next tile to apply (the pass's options).
#[derive(Clone, Copy)]
struct Modes {
    defer_boxes: bool,
    overlap: bool,
    spread: bool,
}

/// One store to rewrite.
struct Site {
    store: OpId,
    group: Group,
    /// The store's ancestor in the kernel body (the buffer is allocated before it).
    anchor: OpId,
    view: OpId,
    tile: TensorType,
    /// Elements in a 128-byte swizzle row.
    per_row: i64,
}

fn rewrite_kernel(
    ctx: &mut Context,
    k: OpId,
    budget: i64,
    modes: Modes,
) -> Result<usize, Diagnostic> {
    let kernel = KernelOp::cast(ctx, k).expect("kernel");
    let Some(&body) = ctx.region_blocks(kernel.body(ctx)).first() else {
        return Ok(0);
    };
    let mut stores = Vec::new();
    ctx.walk(k, &mut |o| {
        if StoreGlobalOp::is(ctx, o) {
            stores.push(o);
        }
    });
    let sites: Vec<Site> = stores
        .into_iter()
        .filter_map(|s| match_site(ctx, k, body, s))
        .collect();
    if sites.is_empty() {
        return Ok(0);
    }

    // One buffer per group and tile shape: a group's stores take turns in it, each waiting
    // until the copy engine has read the previous one (v6's two halves).
    let mut shapes: Vec<(Group, Vec<i64>, TensorType)> = Vec::new();
    for s in &sites {
        let t = buffer_type(&s.tile);
        if !shapes
            .iter()
            .any(|b| b.0 == s.group && b.1 == t.shape && b.2.dtype == t.dtype)
        {
            shapes.push((s.group, t.shape.clone(), t));
        }
    }

    // Shared memory: where the kernel's allocations reach as `plan-shared-memory` places them,
    // plus the buffers (live to the end of the kernel).
    let align_up = |x: i64, a: i64| x.saturating_add(a - 1) / a * a;
    let peak = shared_high_water(ctx, k);
    let bytes = |t: &TensorType| t.shape.iter().product::<i64>() * i64::from(t.dtype.bits()) / 8;
    let added: i64 = shapes.iter().map(|b| align_up(bytes(&b.2), 1024)).sum();
    if peak.saturating_add(added) > budget {
        let mut kinds: Vec<(String, usize)> = Vec::new();
        for (_, shape, t) in &shapes {
            let name = format!("{}x{}x{}", shape[0], shape[1], t.dtype.name());
            match kinds.iter_mut().find(|k| k.0 == name) {
                Some(k) => k.1 += 1,
                None => kinds.push((name, 1)),
            }
        }
        let list: Vec<String> = kinds.iter().map(|(n, c)| format!("{c} of {n}")).collect();
        return Err(Diagnostic::op(
            sites[0].store,
            format!(
                "tma-store-epilogue: the epilogue's shared buffers ({added} bytes: {}) and the \
                 kernel's {peak} bytes of shared memory exceed the {budget} bytes a block may use",
                list.join(", "),
            ),
        )
        .with_note(DiagLoc::Op(k), "in this kernel")
        .with_help(format!(
            "free {} bytes: run pipeline with fewer stages, or use smaller tiles",
            peak + added - budget
        )));
    }

    // C viewed with a row pitch of ceil(N / E) * E and the run-time test, once per global
    // view; the buffers, before the top-level op of the first store that uses each.
    let mut views: Vec<(OpId, i64, Value, Value)> = Vec::new();
    let mut made: Vec<(usize, Value, Value)> = Vec::new();
    let mut last_of_group: Vec<(Group, OpId)> = Vec::new();
    for s in &sites {
        let (c2, ok) = match views.iter().find(|v| v.0 == s.view && v.1 == s.per_row) {
            Some(v) => (v.2, v.3),
            None => {
                let (c2, ok) = boxed_view(ctx, s.view, s.per_row);
                views.push((s.view, s.per_row, c2, ok));
                (c2, ok)
            }
        };
        let i = shapes
            .iter()
            .position(|b| b.0 == s.group && b.1 == s.tile.shape && b.2.dtype == s.tile.dtype)
            .expect("a buffer for every store");
        let (buf, view) = match made.iter().find(|m| m.0 == i) {
            Some(m) => (m.1, m.2),
            None => {
                let (buf, view) = make_buffer(ctx, s.anchor, &shapes[i].2, s.per_row);
                made.push((i, buf, view));
                (buf, view)
            }
        };
        // Deferral needs the group's only store (a second store through the buffer would
        // overwrite boxes not yet sent) at the end of a tile loop with a k loop before it.
        let alone = sites.iter().filter(|t| t.group == s.group).count() == 1;
        let defer = if modes.defer_boxes && alone {
            deferral(ctx, s, modes)
        } else {
            None
        };
        let overlap = defer.as_ref().is_some_and(|d| d.overlap_before.is_some());
        let value = StoreGlobalOp::cast(ctx, s.store).expect("store").value(ctx);
        let here = match (&defer, overlap) {
            (None, _) => Here::AllBoxes,
            (Some(_), false) => Here::FirstBox,
            (Some(_), true) => Here::Moved,
        };
        let mut anchor = rewrite_site(ctx, s, buf, view, c2, ok, here);
        if let Some(d) = defer {
            let old_loop = d.tile_loop.op();
            let (_, flush) = defer_site(ctx, s, &d, buf, view, value, c2);
            // A tile loop in the kernel body itself: the group's final wait goes after the
            // last tile's boxes.
            if anchor == old_loop {
                anchor = flush;
            }
        }
        match last_of_group.iter_mut().find(|g| g.0 == s.group) {
            Some(g) => g.1 = anchor,
            None => last_of_group.push((s.group, anchor)),
        }
    }

    // Each group waits for its copies before it ends (its threads may exit, and the buffers are
    // freed after).
    for (group, anchor) in last_of_group {
        let mut b = OpBuilder::new(ctx);
        b.set_loc_from(anchor);
        match group {
            Some(g) => {
                let wg = WarpGroupOp::cast(b.ctx(), g).expect("warp group");
                let gb = *b
                    .ctx()
                    .region_blocks(wg.body(b.ctx()))
                    .first()
                    .expect("group body");
                b.set_insertion_point_to_end(gb);
            }
            None => b.set_insertion_point_after(anchor),
        }
        emit_single_thread(&mut b, |b| {
            WaitGroupOp::build(b, 0, false);
        });
        // The other threads wait for the issuing one: none frees or reuses the buffer while
        // the copy engine may still read it.
        SyncOp::build(&mut b);
    }
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(k);
    b.set_insertion_point_to_end(body);
    for (_, buf, _) in made {
        FreeSharedOp::build(&mut b, buf);
    }
    Ok(sites.len())
}

/// The store's shape if the pass applies to it (see the module docs), else `None`.
fn match_site(ctx: &Context, k: OpId, body: BlockId, store: OpId) -> Option<Site> {
    let st = StoreGlobalOp::cast(ctx, store)?;
    let tile = TensorType::of(ctx, ctx.value_type(st.value(ctx)))?;
    let dst = TensorType::of_ref(ctx, ctx.value_type(st.dst(ctx)))?;
    let view = ctx.defining_op(st.dst(ctx))?;
    GlobalViewOp::cast(ctx, view)?;
    if tile.space != Space::Register
        || tile.shape.len() != 2
        || dst.shape.len() != 2
        || dst.strides.is_some()
        || dst.dtype != tile.dtype
        || st.offsets(ctx).len() != 2
    {
        return None;
    }
    let bits = i64::from(tile.dtype.bits());
    if ![8, 16, 32].contains(&bits) {
        return None;
    }
    let per_row = 1024 / bits;
    let (rows, cols) = (tile.shape[0], tile.shape[1]);
    if !(1..=256).contains(&rows) || cols % per_row != 0 || !(1..=256).contains(&(cols / per_row)) {
        return None;
    }
    // The group executing it: the nearest threadgroup op, or the root.
    let mut group = None;
    let mut anchor = store;
    let mut cur = ctx.parent_op(store);
    while let Some(p) = cur {
        if p == k {
            break;
        }
        if group.is_none() {
            if WarpGroupOp::is(ctx, p) {
                group = Some(p);
            } else if SingleThreadOp::is(ctx, p) || SingleWarpOp::is(ctx, p) || GroupOp::is(ctx, p)
            {
                return None;
            }
        }
        anchor = p;
        cur = ctx.parent_op(p);
    }
    if ctx.op_parent_block(anchor) != Some(body) {
        return None;
    }
    Some(Site {
        store,
        group,
        anchor,
        view,
        tile,
        per_row,
    })
}

/// The `[R, C]` f16 (or other) buffer with the 128-byte swizzle.
fn buffer_type(tile: &TensorType) -> TensorType {
    TensorType {
        space: Space::Shared,
        shape: tile.shape.clone(),
        dtype: tile.dtype,
        strides: None,
        swizzle: SwizzleMode::B128,
        layout: None,
    }
}

/// Builds, right after the global view `view` (`[M, N]`), C viewed as `[M, ceil(N / E) * E]`
/// with row pitch `ceil(N / E) * E` (C itself when E divides N), and the test `N % E == 0`
/// that makes it C.
fn boxed_view(ctx: &mut Context, view: OpId, e: i64) -> (Value, Value) {
    let gv = GlobalViewOp::cast(ctx, view).expect("global view");
    let ty = TensorType::of(ctx, ctx.value_type(gv.result(ctx))).expect("global type");
    let ptr = gv.ptr(ctx);
    let mut extents = gv.extents(ctx).to_vec().into_iter();
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(view);
    b.set_insertion_point_after(view);
    let dims: Vec<Value> = ty
        .shape
        .iter()
        .map(|&d| {
            if d == DYN {
                extents.next().expect("one extent per dynamic dimension")
            } else {
                b.c32(d)
            }
        })
        .collect();
    let ce = b.c32(e);
    let c0 = b.c32(0);
    // A pitch of `ceil(N / E) * E` elements: C's own when E divides N (the only case the copy
    // runs in), and a tensor map the driver accepts otherwise, since the host encodes one for
    // every view a kernel copies through before the run-time test is reached (a pitch of N
    // elements need not be a multiple of 16 bytes, and N may be 0).
    let chunks = b.int_op(IntBinOp::CeilDivSI, dims[1], ce);
    let pitch = b.int_op(IntBinOp::MulI, chunks, ce);
    let ty2 = TensorType {
        space: Space::Global,
        shape: vec![DYN, DYN],
        dtype: ty.dtype,
        strides: Some(vec![DYN, 1]),
        swizzle: SwizzleMode::None,
        layout: None,
    }
    .get(b.ctx_mut());
    let c2 = GlobalViewOp::build(&mut b, ptr, &[dims[0], pitch], &[pitch], ty2).result(b.ctx());
    let rem = b.int_op(IntBinOp::RemSI, dims[1], ce);
    let ok = b.cmpi(CmpIPredicate::Eq, rem, c0);
    (c2, ok)
}

/// A divisor the value is known to have (1 when nothing is known; `i64::MAX` for zero).
fn known_divisor(ctx: &Context, v: Value, depth: u32) -> i64 {
    if let Some(c) = const_int(ctx, v) {
        return if c == 0 { i64::MAX } else { c.abs() };
    }
    let Some(d) = ctx.defining_op(v) else {
        return 1;
    };
    if depth == 0 || ctx.operands(d).len() != 2 {
        return 1;
    }
    let (a, b) = (ctx.operands(d)[0], ctx.operands(d)[1]);
    let gcd = |mut x: i64, mut y: i64| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    match IntBinOp::of(ctx, d) {
        Some(IntBinOp::MulI) => known_divisor(ctx, a, depth - 1)
            .saturating_mul(known_divisor(ctx, b, depth - 1))
            .max(1),
        Some(IntBinOp::AddI | IntBinOp::SubI) => {
            let (x, y) = (
                known_divisor(ctx, a, depth - 1),
                known_divisor(ctx, b, depth - 1),
            );
            match (x, y) {
                (i64::MAX, y) => y,
                (x, i64::MAX) => x,
                (x, y) => gcd(x, y),
            }
        }
        Some(IntBinOp::ShLI) => match const_int(ctx, b) {
            Some(s) if (0..62).contains(&s) => {
                known_divisor(ctx, a, depth - 1).saturating_mul(1 << s)
            }
            _ => 1,
        },
        _ => 1,
    }
}

fn emit_single_thread(b: &mut OpBuilder<'_>, f: impl FnOnce(&mut OpBuilder<'_>)) {
    let st = SingleThreadOp::build(b, None);
    let region = st.body(b.ctx());
    let block = b.create_block_in(region, &[]);
    let saved = b.insertion_point();
    b.set_insertion_point_to_end(block);
    f(b);
    b.set_insertion_point(saved);
}

/// The buffer, allocated as `C / E` boxes of `[R, E]` one after another (`[C / E, R, E]`),
/// and its `[R, C / E, E]` view (strides `[E, R * E, 1]`) that `store_shared` writes the
/// `[R, C]` tile into (column `c` to box `c / E`, column `c % E`), before `anchor`.
///
/// Box-major rather than row-major `[R, C]`: in a 128B-swizzled tile whose rows are 128
/// bytes, the eight rows a warp's wgmma accumulator store touches at once land in eight
/// different 16-byte columns of the bank row (the swizzle XORs row % 8 in); with rows of
/// `C` elements they landed in two (C = 256 halves), four times the store's wavefronts.
fn make_buffer(ctx: &mut Context, anchor: OpId, ty: &TensorType, e: i64) -> (Value, Value) {
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(anchor);
    b.set_insertion_point_before(anchor);
    let (rows, cols) = (ty.shape[0], ty.shape[1]);
    let mut boxes = ty.clone();
    boxes.shape = vec![cols / e, rows, e];
    let boxes_t = boxes.get(b.ctx_mut());
    let buf = SharedTensorOp::build(&mut b, boxes_t).result(b.ctx());
    let mut view = ty.clone();
    view.shape = vec![rows, cols / e, e];
    view.strides = Some(vec![e, rows * e, 1]);
    let view_t = view.get(b.ctx_mut());
    let perm = b.ctx_mut().int_array_attr(64, &[1, 0, 2]);
    let v = PermuteSharedOp::build(&mut b, buf, view_t, perm).result(b.ctx());
    (buf, v)
}

/// Rewrites one store (module docs) through `buf` (`view` its `[R, C / E, E]` view, `c2` C
/// with its padded pitch); returns the store's top-level op now (the `scf.if` when the store
/// was in the kernel body itself).
fn rewrite_site(
    ctx: &mut Context,
    s: &Site,
    buf: Value,
    view: Value,
    c2: Value,
    ok: Value,
    here: Here,
) -> OpId {
    let st = StoreGlobalOp::cast(ctx, s.store).expect("store");
    let value = st.value(ctx);
    let offsets = st.offsets(ctx).to_vec();
    let aligned = known_divisor(ctx, offsets[1], 8) % s.per_row == 0;
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(s.store);
    b.set_insertion_point_before(s.store);
    let i32t = b.ctx().value_type(offsets[1]);
    let cond = if aligned {
        ok
    } else {
        let c0 = b.cint(i32t, 0);
        let ce = b.cint(i32t, s.per_row);
        let r = b.int_op(IntBinOp::RemSI, offsets[1], ce);
        let col_ok = b.cmpi(CmpIPredicate::Eq, r, c0);
        b.and(ok, col_ok)
    };
    let iff = IfOp::build(&mut b, cond, &[]);
    let then_r = iff.then_region(b.ctx());
    let else_r = iff.else_region(b.ctx());
    let tblock = b.create_block_in(then_r, &[]);
    let eblock = b.create_block_in(else_r, &[]);

    b.set_insertion_point_to_end(tblock);
    // With the overlap the tile is written during the next tile's first k-step instead
    // (`defer_site`); the branch stays, empty, so that the direct store keeps its condition.
    if here != Here::Moved {
        let boxes = if here == Here::FirstBox {
            1
        } else {
            boxes_of(b.ctx_mut(), buf).0
        };
        emit_epilogue(
            &mut b,
            value,
            view,
            buf,
            c2,
            (offsets[0], offsets[1]),
            boxes,
            s.per_row,
        );
    }
    YieldOp::build(&mut b, &[]);

    b.ctx_mut().detach_op(s.store);
    b.ctx_mut().append_op(eblock, s.store);
    b.set_insertion_point_to_end(eblock);
    YieldOp::build(&mut b, &[]);
    if s.anchor == s.store {
        iff.op()
    } else {
        s.anchor
    }
}

/// The buffer `[C / E, R, E]`'s number of boxes and the type of one box, `[R, E]`.
fn boxes_of(ctx: &mut Context, buf: Value) -> (i64, tilus_ir::Type) {
    let buf_t = TensorType::of(ctx, ctx.value_type(buf)).expect("buffer type");
    let mut box_t = buf_t.clone();
    box_t.shape = buf_t.shape[1..].to_vec();
    (buf_t.shape[0], box_t.get(ctx))
}

/// The epilogue proper at the insertion point: wait until the copy engine has read the
/// buffer, write `value` into it through `view`, make it visible to the copy engine, and have
/// one thread send boxes `[0, boxes)` of the tile at `at` (row, column) and commit.
#[allow(clippy::too_many_arguments)]
fn emit_epilogue(
    b: &mut OpBuilder<'_>,
    value: Value,
    view: Value,
    buf: Value,
    c2: Value,
    at: (Value, Value),
    boxes: i64,
    e: i64,
) {
    emit_single_thread(b, |b| {
        WaitGroupOp::build(b, 0, true);
    });
    SyncOp::build(b);
    StoreSharedOp::build(b, value, view);
    FenceProxyAsyncOp::build(b, StateSpace::Shared);
    SyncOp::build(b);
    let (_, box_t) = boxes_of(b.ctx_mut(), buf);
    let i32t = b.ctx().value_type(at.1);
    emit_single_thread(b, |b| {
        // One copy a box: box q holds columns [q E, (q + 1) E) of the tile (only box 0 when
        // the others are deferred to the next tile, see `defer_site`).
        for q in 0..boxes {
            let cq = b.cint(i32t, q);
            let bx = SliceSharedOp::build(b, buf, &[cq], box_t).result(b.ctx());
            let col = b.add_const(at.1, q * e);
            SharedToGlobalOp::build(b, bx, c2, &[at.0, col], None);
        }
        CommitGroupOp::build(b);
    });
}

/// Where a site's boxes after the first can be sent during the next tile: the store's tile
/// loop and the k loop before it in the loop's body.
struct Deferral {
    tile_loop: ForOp,
    k_loop: ForOp,
    /// With `overlap-epilogue`: the k loop's first `wgmma.wait_group`, before which step 0
    /// writes the previous tile into the buffer (its MMAs are then in flight).
    overlap_before: Option<OpId>,
    /// With `spread-stores` (and the overlap): box `j` of the previous tile is written into the
    /// buffer, and sent, at step `j`, each a slice of the carried tile's registers.
    spread: bool,
}

/// Deferral applies when the store sits directly in the body of an `scf.for` (the tile loop)
/// after another `scf.for` (the k loop) that counts its steps from 0 by 1 with an i32 index,
/// and the tile has at least two boxes. Box `j` of tile `t` then goes out at step `j` of tile
/// `t + 1`'s k loop, the boxes a short k loop did not reach right after it, and the last
/// tile's after the tile loop; the buffer is not written again before the next tile's
/// epilogue, which waits until the copy engine has read all of them (`wait_group 0 read` of
/// the same thread).
fn deferral(ctx: &Context, s: &Site, modes: Modes) -> Option<Deferral> {
    if s.tile.shape[1] / s.per_row < 2 {
        return None;
    }
    let block = ctx.op_parent_block(s.store)?;
    let tile_loop = ForOp::cast(ctx, ctx.parent_op(s.store)?)?;
    let ops: Vec<OpId> = ctx.block_ops(block).collect();
    let at = ops.iter().position(|&o| o == s.store)?;
    let k_loop = ops[..at].iter().rev().find_map(|&o| ForOp::cast(ctx, o))?;
    let i32t = ctx.value_type(StoreGlobalOp::cast(ctx, s.store)?.offsets(ctx)[1]);
    let iv = ctx.block_args(*ctx.region_blocks(k_loop.region(ctx)).first()?)[0];
    let zero_one = const_int(ctx, k_loop.lower_bound(ctx)) == Some(0)
        && const_int(ctx, k_loop.step(ctx)) == Some(1);
    // The overlap carries the tile through the next tile's k loop beside the accumulator:
    // only for elements of at most 16 bits (a carried f32 tile would double the registers the
    // accumulator takes) and at most 64 registers a thread (a 64 x 256 f16 tile on a
    // warpgroup; one warpgroup's 128 x 256 tile would spill), and only where the k loop waits
    // for MMAs it issued, so that the write has something to hide under.
    let threads = match s.group {
        Some(g) => 32 * WarpGroupOp::cast(ctx, g)?.num_warps(ctx),
        None => crate::lower::build::enclosing_kernel(ctx, s.store)?.1,
    };
    let bytes = s.tile.shape.iter().product::<i64>() * i64::from(s.tile.dtype.bits()) / 8;
    let small = s.tile.dtype.bits() <= 16 && threads > 0 && bytes / threads <= 256;
    let overlap_before = if modes.overlap && small {
        ctx.block_ops(super::body_block(ctx, k_loop))
            .find(|&o| MmaWaitGroupOp::is(ctx, o))
    } else {
        None
    };
    // Spreading slices the tile into its boxes in registers: each box must be whole registers
    // of the threads that hold it (true of the wgmma accumulator's 64-column boxes).
    let spread = modes.spread
        && overlap_before.is_some()
        && (0..s.tile.shape[1] / s.per_row).all(|j| box_part_type(&s.tile, j, s.per_row).is_some());
    (zero_one && ctx.value_type(iv) == i32t).then_some(Deferral {
        tile_loop,
        k_loop,
        overlap_before,
        spread,
    })
}

/// The register type of box `j` (columns `[j e, (j + 1) e)`) of `tile`: its layout restricted
/// to the box, or none when the tile has no layout (infer-layouts then lays both out); `None`
/// when the box would cut the layout across threads.
fn box_part_type(tile: &TensorType, j: i64, e: i64) -> Option<TensorType> {
    let mut t = tile.clone();
    t.shape = vec![tile.shape[0], e];
    if let Some(l) = tile.register_layout() {
        t.layout = Some(l.slice(&[0, j * e], &t.shape).ok()?);
    }
    Some(t)
}

/// Box `j` of the carried `tile` at (`row`, `col`): for box 0 first the wait until the copy
/// engine has read the buffer (it covers every box of the tile before), then the box's
/// registers into its part of the buffer, the fence, and one thread's copy and commit.
#[allow(clippy::too_many_arguments)]
fn emit_box_part(
    b: &mut OpBuilder<'_>,
    tile: Value,
    tile_t: &TensorType,
    buf: Value,
    c2: Value,
    at: (Value, Value),
    j: i64,
    e: i64,
) {
    if j == 0 {
        emit_single_thread(b, |b| {
            WaitGroupOp::build(b, 0, true);
        });
        SyncOp::build(b);
    }
    let part_t = box_part_type(tile_t, j, e)
        .expect("checked by deferral")
        .get(b.ctx_mut());
    let offsets = b.ctx_mut().int_array_attr(64, &[0, j * e]);
    let part = SliceRegisterOp::build(b, tile, part_t, offsets).result(b.ctx());
    let (_, box_t) = boxes_of(b.ctx_mut(), buf);
    let i32t = b.ctx().value_type(at.1);
    let cj = b.cint(i32t, j);
    let bx = SliceSharedOp::build(b, buf, &[cj], box_t).result(b.ctx());
    StoreSharedOp::build(b, part, bx);
    FenceProxyAsyncOp::build(b, StateSpace::Shared);
    SyncOp::build(b);
    emit_single_thread(b, |b| {
        let col = b.add_const(at.1, j * e);
        SharedToGlobalOp::build(b, bx, c2, &[at.0, col], None);
        CommitGroupOp::build(b);
    });
}

/// Builds, in one thread of the group, the copies of boxes `[lo, q)` (`lo` a value) of the
/// tile at (`row`, `col`), and a commit, inside `scf.if pend { scf.for j = lo to q {...} }`.
#[allow(clippy::too_many_arguments)]
fn emit_box_range(
    b: &mut OpBuilder<'_>,
    pend: Value,
    lo: Value,
    q: i64,
    e: i64,
    buf: Value,
    box_t: tilus_ir::Type,
    c2: Value,
    row: Value,
    col: Value,
) -> OpId {
    let i32t = b.ctx().value_type(col);
    emit_if(b, pend, |b| {
        let cq = b.cint(i32t, q);
        let c1 = b.cint(i32t, 1);
        let f = ForOp::build(b, lo, cq, c1, &[], &[], false);
        let fr = f.region(b.ctx());
        let fb = b.create_block_in(fr, &[i32t]);
        let j = b.ctx().block_args(fb)[0];
        b.set_insertion_point_to_end(fb);
        emit_box_copy(b, buf, box_t, c2, row, col, j, e);
        YieldOp::build(b, &[]);
    })
}

/// `scf.if cond { body } else { }` at the insertion point (which it leaves after the `if`).
fn emit_if(b: &mut OpBuilder<'_>, cond: Value, body: impl FnOnce(&mut OpBuilder<'_>)) -> OpId {
    let iff = IfOp::build(b, cond, &[]);
    let then_r = iff.then_region(b.ctx());
    let else_r = iff.else_region(b.ctx());
    let tb = b.create_block_in(then_r, &[]);
    let eb = b.create_block_in(else_r, &[]);
    let saved = b.insertion_point();
    b.set_insertion_point_to_end(tb);
    body(b);
    b.set_insertion_point_to_end(tb);
    YieldOp::build(b, &[]);
    b.set_insertion_point_to_end(eb);
    YieldOp::build(b, &[]);
    b.set_insertion_point(saved);
    iff.op()
}

/// One thread copies box `j` of the tile at (`row`, `col`), columns `col + j e`, and commits.
#[allow(clippy::too_many_arguments)]
fn emit_box_copy(
    b: &mut OpBuilder<'_>,
    buf: Value,
    box_t: tilus_ir::Type,
    c2: Value,
    row: Value,
    col: Value,
    j: Value,
    e: i64,
) {
    emit_single_thread(b, |b| {
        let bx = SliceSharedOp::build(b, buf, &[j], box_t).result(b.ctx());
        let off = b.mul_const(j, e);
        let cj = b.add(col, off);
        SharedToGlobalOp::build(b, bx, c2, &[row, cj], None);
        CommitGroupOp::build(b);
    });
}

/// Carries the site's tile position and "boxes pending" through its tile loop and sends the
/// boxes after the first as `Deferral` says. Returns the tile loop's replacement and the op
/// after it that sends the last tile's boxes (what comes after the loop now comes after that).
fn defer_site(
    ctx: &mut Context,
    s: &Site,
    d: &Deferral,
    buf: Value,
    view: Value,
    value: Value,
    c2: Value,
) -> (OpId, OpId) {
    let st = StoreGlobalOp::cast(ctx, s.store).expect("store");
    let (row, col) = (st.offsets(ctx)[0], st.offsets(ctx)[1]);
    // The store now sits in the else branch of the epilogue's `scf.if`, whose condition says
    // whether the boxes went out.
    let iff = ctx.parent_op(s.store).expect("the epilogue's if");
    let cond = ctx.operands(iff)[0];
    let (q, box_t) = boxes_of(ctx, buf);
    let e = s.per_row;
    let i32t = ctx.value_type(col);

    // The tile loop carries (row, col, pending) of the previous tile, and with the overlap
    // the tile itself (undefined before the first: it is read only when pending).
    let overlap = d.overlap_before.is_some();
    let tl = d.tile_loop.op();
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(tl);
    b.set_insertion_point_before(tl);
    let z = b.cint(i32t, 0);
    let no = b.cbool(false);
    let mut init = vec![z, z, no];
    if overlap {
        let tile_t = b.ctx().value_type(value);
        init.push(RegisterTensorOp::build(&mut b, None, tile_t).result(b.ctx()));
    }
    let carried = init.len();
    let nf = super::add_iter_args(b.ctx_mut(), d.tile_loop, &init);
    let body = super::body_block(ctx, nf);
    let args = ctx.block_args(body).to_vec();
    let base = args.len() - carried;
    let (prow, pcol, pend) = (args[base], args[base + 1], args[base + 2]);
    let y = ctx.block_last(body).expect("terminator");
    let mut vals = YieldOp::cast(ctx, y).expect("yield").results(ctx).to_vec();
    vals.extend([row, col, cond]);
    if overlap {
        vals.push(value);
    }
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(y);
    b.set_insertion_point_before(y);
    YieldOp::build(&mut b, &vals);
    ctx.erase_op(y);

    // Box j of the previous tile at step j of the k loop (1 <= j < q); spread, each box is
    // also written there (below).
    let spread = d.spread;
    let kl = d.k_loop.op();
    let kb = super::body_block(ctx, d.k_loop);
    let iv = ctx.block_args(kb)[0];
    let ky = ctx.block_last(kb).expect("terminator");
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(s.store);
    b.set_insertion_point_before(ky);
    if !spread {
        let c1 = b.cint(i32t, 1);
        let cq = b.cint(i32t, q);
        let ge = b.cmpi(CmpIPredicate::Sge, iv, c1);
        let lt = b.cmpi(CmpIPredicate::Slt, iv, cq);
        let inside = b.and(ge, lt);
        let go = b.and(inside, pend);
        emit_if(&mut b, go, |b| {
            emit_box_copy(b, buf, box_t, c2, prow, pcol, iv, e)
        });
    }

    // The previous tile into the buffer, and its box 0, at step 0 while the step's MMAs run.
    let ub = d.k_loop.upper_bound(b.ctx());
    let mut after_k = kl;
    if let (Some(wait), true) = (d.overlap_before, spread) {
        // Box j of the previous tile written and sent at step j, under that step's MMAs; the
        // boxes a k loop of fewer than q steps did not reach, right after it.
        let ptile = args[base + 3];
        let tile_t = TensorType::of(b.ctx(), b.ctx().value_type(value)).expect("tile type");
        let part = |b: &mut OpBuilder<'_>, pred: CmpIPredicate, lhs: Value, j: i64| {
            let cj = b.cint(i32t, j);
            let when = b.cmpi(pred, lhs, cj);
            let go = b.and(when, pend);
            emit_if(b, go, |b| {
                emit_box_part(b, ptile, &tile_t, buf, c2, (prow, pcol), j, e)
            })
        };
        b.set_loc_from(s.store);
        b.set_insertion_point_before(wait);
        for j in 0..q {
            part(&mut b, CmpIPredicate::Eq, iv, j);
        }
        b.set_insertion_point_after(kl);
        for j in 0..q {
            after_k = part(&mut b, CmpIPredicate::Sle, ub, j);
            b.set_insertion_point_after(after_k);
        }
    } else if let Some(wait) = d.overlap_before {
        let ptile = args[base + 3];
        // The previous tile's epilogue (box 0 only) where `pend` and `when` hold.
        let prev = |b: &mut OpBuilder<'_>, when: Value| {
            let go = b.and(when, pend);
            emit_if(b, go, |b| {
                emit_epilogue(b, ptile, view, buf, c2, (prow, pcol), 1, e)
            })
        };
        b.set_loc_from(s.store);
        b.set_insertion_point_before(wait);
        let c0 = b.cint(i32t, 0);
        let first = b.cmpi(CmpIPredicate::Eq, iv, c0);
        prev(&mut b, first);
        // A k loop that takes no step: right after it.
        b.set_insertion_point_after(kl);
        let c1 = b.cint(i32t, 1);
        let none = b.cmpi(CmpIPredicate::Slt, ub, c1);
        after_k = prev(&mut b, none);
    }

    // The boxes a k loop of fewer than q steps did not reach, right after it (and after the
    // epilogue just above, when the loop took no step).
    if !spread {
        b.set_insertion_point_after(after_k);
        let c1 = b.cint(i32t, 1);
        let cq = b.cint(i32t, q);
        let m = b.int_op(IntBinOp::MinSI, ub, cq);
        let lo = b.int_op(IntBinOp::MaxSI, m, c1);
        emit_box_range(&mut b, pend, lo, q, e, buf, box_t, c2, prow, pcol);
    }

    // The last tile's, after the tile loop.
    let res = nf.results(b.ctx()).to_vec();
    let rb = res.len() - carried;
    let (lrow, lcol, lpend) = (res[rb], res[rb + 1], res[rb + 2]);
    b.set_insertion_point_after(nf.op());
    if overlap {
        let ltile = res[rb + 3];
        emit_if(&mut b, lpend, |b| {
            emit_epilogue(b, ltile, view, buf, c2, (lrow, lcol), 1, e)
        });
    }
    let c1 = b.cint(i32t, 1);
    let flush = emit_box_range(&mut b, lpend, c1, q, e, buf, box_t, c2, lrow, lcol);
    (nf.op(), flush)
}
