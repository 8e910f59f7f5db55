//! `infer-layouts`: gives every `!tilus.reg` tensor of a kernel a register layout, so kernels
//! written without layouts lower (and lower well). Layouts the user wrote are kept.
//!
//! Why a pass and not a default per tensor: a default chosen tensor by tensor depends on the
//! element type (16-byte vectors are 8 f16 but 4 f32), so an f16 load, its f32 cast and the f16
//! store of the result would each get another thread mapping, and the lowering cannot move
//! data between mappings the user never wrote. Here one mapping is chosen for everything that
//! must share it and written into the types.
//!
//! **The graph.** Nodes are the definitions of register tensors (op results and block
//! arguments) and their uses (op, operand). Ops that compute in place tie nodes that must have
//! one layout: an element-wise op (its operands of the result's shape and its result), `cast`,
//! unary math, shuffles, `dot`'s `c` and result, `scf.for` (init, iter_arg, yielded value,
//! result), `scf.while` (init, `before` argument and `after`'s yielded value; result, `after`
//! argument and the condition's forwarded value), `scf.if`, `scf.index_switch` and
//! `scf.execute_region` (yielded values, result), and every other op that takes and makes register
//! tensors of one shape. A definition and each of its uses are joined by an edge that costs the
//! bytes a `layout.convert` there would move.
//!
//! **Anchors.** A layout the user wrote is fixed. Global loads and stores ask for 16-byte
//! vectors along the view's contiguous dimension ([`access_layout`]): lanes next to each other
//! along that dimension, then the other dimensions, warps outermost, preferring dimensions that
//! are not reduced later (so a row reduction stays inside a warp when the tile has a row per
//! warp), replication only when the tile has fewer elements than the group has threads. A
//! `tilus.dot` result takes [`dot_anchor`]; a `wgmma.mma` accumulator the wgmma fragment of its
//! shape and a `tcgen05.ld` / `tcgen05.st` tile one TMEM lane per thread, the layouts the
//! hardware fixes.
//!
//! **Classes.** Tied nodes are merged first; then the def-use edges, most expensive first (a
//! maximum spanning forest, as Kruskal builds it), unless the two sides hold anchors that
//! disagree: two different fixed layouts, or accesses along different contiguous dimensions.
//! So an edge left out is where two anchors disagree, and it is the cheapest such edge on the
//! path between them (an f16 value rather than its f32 copy).
//!
//! **Assignment.** Fixed classes first; then the layouts that follow from others: a reduction's
//! result is its input's layout reduced (spec §3.1), and an operand broadcast into an
//! element-wise op takes the result's layout with the broadcast dimensions replicated, so the
//! broadcast moves no data; a `tilus.slice_register` result is its source's layout restricted
//! to the box (its registers); a class takes such a layout only when its accesses stay
//! vectorized. When nothing follows, the biggest class with a global access (the first in
//! program order among equals) takes its access layout, so that smaller tiles made earlier (a
//! running max before the loop that loads the blocks) follow it instead of the other way
//! round, and at last the rest take [`access_layout`] along their last dimension. An access's
//! contiguous dimension is one the tile has more than one element along where it can
//! ([`contiguous_of_view`]): a `[R, 1]` column of an `[M, 1]` view is contiguous along its
//! rows. Every class gets one layout; every definition's type is rewritten with it.
//!
//! **Converts.** A `layout.convert` is inserted on each use whose class differs from its
//! definition's, on broadcast operands whose layout does not give each thread the elements it
//! needs, after a reduction or slice whose result class was fixed to something else, and
//! after the source of a slice whose box would cut the source's layout across threads (to the
//! boxes as outer register modes around the box's layout, once per source and layout).

use crate::lower::build::{group_pos, ops_where};
use crate::{declare_pass, Changed, Pass, Statistics};
use rustc_hash::FxHashMap;
use tilus_dialects::layout::ConvertOp;
use tilus_dialects::layout_algebra::RegisterLayout;
use tilus_dialects::layout_mma::dot_layouts;
use tilus_dialects::scf::{yields_one_region, ConditionOp, ForOp, WhileOp, YieldOp};
use tilus_dialects::tilus::{DotOp, KernelOp, ReduceOp, SliceRegisterOp, TilusOpKind};
use tilus_dialects::tilus_types::{Space, TensorType};
use tilus_ir::{Context, Diagnostic, OpBuilder, OpId, Value};

declare_pass! {
    /// The layout inference pass. Its `target` option says which tensor-core lowering a
    /// `tilus.dot` accumulator is laid out for.
    pub struct InferLayouts {
        name: "infer-layouts",
        class: "InferLayouts",
        summary: "Give every register tensor of a kernel a register layout",
        description: "Chooses a register layout for every !tilus.reg tensor of each tilus.kernel \
            that has none and writes it into the IR; layouts written by the user are kept. \
            Anchors: global loads and stores (16-byte vectors along the contiguous dimension, \
            consecutive lanes on consecutive vectors, warps outermost and off the dimensions \
            reduced later), written layouts, tilus.dot results. Layouts propagate through \
            element-wise ops, casts, broadcasts (the broadcast operand is replicated so no \
            data moves), reductions, scf.for, scf.while, scf.if, scf.index_switch and \
            scf.execute_region. Where two anchors disagree, one layout.convert is inserted \
            on the cheapest def-use edge between them (fewest bytes \
            moved). Runs first in tilus-to-ptx; --print-ir-after=infer-layouts shows the \
            chosen layouts.",
        options: {
            target: String = "sm_90a".into(), "target",
                "PTX target: on sm_90a a tilus.dot that lowers to wgmma gets the wgmma \
                 accumulator layout, elsewhere the mma.sync one (as lower-tiles' target)",
                check = crate::lower::check_ptx_target;
        },
        statistics: {
            NUM_CHOSEN = "num-chosen", "Register tensors given a layout";
            NUM_CONVERTS = "num-converts", "layout.convert ops inserted between disagreeing anchors";
        },
    }
}

impl Pass for InferLayouts {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let (mut chosen, mut converts) = (0, 0);
        for k in ops_where(ctx, op, KernelOp::is) {
            match infer_kernel(ctx, k, self.target == "sm_90a") {
                Ok((c, v)) => {
                    chosen += c;
                    converts += v;
                }
                Err(d) => errors.push(d),
            }
        }
        stats.add(Self::NUM_CHOSEN, chosen);
        stats.add(Self::NUM_CONVERTS, converts);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(if chosen + converts > 0 {
            Changed::Yes
        } else {
            Changed::No
        })
    }
}

/// The layout of a `tilus.dot` result (and its `c`) of `shape` over `threads` threads: the
/// accumulator fragment of the tensor-core lowering the dot will get, so the accumulator never
/// moves between k-steps: with `wgmma` (an sm_90a target) the wgmma accumulator when
/// `lower-tiles` lowers the dot to wgmma (`lower::tiles::wgmma_dot_plan`), else the `mma.sync`
/// one (`layout_mma::dot_layouts`, the layout the `mma.sync` instructions leave their results
/// in) when the dot has one; otherwise (types or shapes the tensor cores do not take, which
/// lower through the SIMT path) the access layout of the result's shape.
pub fn dot_anchor(
    ctx: &Context,
    dot: DotOp,
    shape: &[i64],
    bits: u32,
    threads: i64,
    wgmma: bool,
) -> RegisterLayout {
    if let Some(d) = crate::lower::tiles::wgmma_dot_plan(ctx, dot.op(), wgmma) {
        return d.acc;
    }
    let tensor = |v: Value| TensorType::of(ctx, ctx.value_type(v));
    if let (Some(a), Some(r)) = (tensor(dot.a(ctx)), tensor(dot.result(ctx))) {
        if a.shape.len() == 2 && shape.len() == 2 && threads > 0 && threads % 32 == 0 {
            if let Some(l) = dot_layouts(
                shape[0],
                shape[1],
                a.shape[1],
                a.dtype,
                r.dtype,
                threads / 32,
            ) {
                return l.acc;
            }
        }
    }
    access_layout(shape, bits, threads, shape.len() - 1, &[])
}

/// The layout a global access of a `shape` tile of `bits`-bit elements by `threads` threads
/// wants, with `contig` the dimension of stride 1 and `reduced` the dimensions reduced later:
///
/// `replicate(rw) * spatial(warps) * local(rest) * replicate(rl) * spatial(lanes) * local(K) * local(V)`
///
/// `V` elements (16 bytes, fewer when the dimension is shorter) along `contig`; the 32 lanes
/// of a warp along `contig` first, then the other dimensions innermost first; the warps over
/// the dimensions not in `reduced` (outermost first), then the reduced ones; what is left of
/// each dimension stays in registers between warps and lanes, so each warp covers one
/// contiguous block and every access instruction of a warp reads whole 16-byte vectors of
/// consecutive lanes. Threads left over (a tile smaller than the group) replicate. `K` is 1
/// except along a transposed view, where it takes up to `V` of the last dimension's leftover
/// registers, adjacent.
pub fn access_layout(
    shape: &[i64],
    bits: u32,
    threads: i64,
    contig: usize,
    reduced: &[usize],
) -> RegisterLayout {
    let rank = shape.len();
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a.max(1)
    };
    let mut vec = (128 / bits.max(8) as i64).max(1);
    while vec > 1 && shape[contig] % vec != 0 {
        vec /= 2;
    }
    let mut rest = shape.to_vec();
    rest[contig] /= vec;
    let lanes_total = gcd(threads, 32);
    let mut left = lanes_total;
    let mut lanes = vec![1i64; rank];
    let lane_order = std::iter::once(contig).chain((0..rank).rev().filter(|&d| d != contig));
    for d in lane_order {
        let t = gcd(left, rest[d]);
        lanes[d] = t;
        rest[d] /= t;
        left /= t;
    }
    let lane_rep = left;
    let mut left = threads / lanes_total;
    let mut warps = vec![1i64; rank];
    let warp_order = (0..rank)
        .filter(|d| !reduced.contains(d))
        .chain((0..rank).filter(|d| reduced.contains(d)));
    for d in warp_order {
        let t = gcd(left, rest[d]);
        warps[d] = t;
        rest[d] /= t;
        left /= t;
    }
    let warp_rep = left;
    let mut inner = vec![1i64; rank];
    inner[contig] = vec;
    // Along a transposed view (contiguous dimension not the last), the registers left over in
    // the last dimension are taken adjacent (up to a vector's worth) rather than one lane
    // stride apart: each thread then holds a small block, so a conversion from a row layout
    // through shared memory reads a few adjacent elements of a row at once (lower-tiles'
    // `convert_via_shared`) instead of one element per load. The global access is unchanged:
    // `V` along `contig` innermost, whole 16-byte vectors of consecutive lanes.
    let last = rank - 1;
    let mut inner_last = vec![1i64; rank];
    if contig != last {
        let k = gcd(rest[last], vec);
        inner_last[last] = k;
        rest[last] /= k;
    }
    let mut l = RegisterLayout::spatial(&warps).compose(&RegisterLayout::local(&rest));
    if lane_rep > 1 {
        l = l.compose(&RegisterLayout::replicate(lane_rep));
    }
    // Lanes along `contig` are the fastest-varying lane digits (consecutive lanes, consecutive
    // vectors), whichever dimension it is.
    let mut lanes_other = lanes.clone();
    lanes_other[contig] = 1;
    let mut lanes_contig = vec![1i64; rank];
    lanes_contig[contig] = lanes[contig];
    l = l
        .compose(&RegisterLayout::spatial(&lanes_other))
        .compose(&RegisterLayout::spatial(&lanes_contig))
        .compose(&RegisterLayout::local(&inner_last))
        .compose(&RegisterLayout::local(&inner));
    if warp_rep > 1 {
        l = RegisterLayout::replicate(warp_rep).compose(&l);
    }
    l
}

/// The dimension along which a layout keeps consecutive elements in consecutive registers of
/// a thread (its innermost register digit is the least significant mode of that dimension),
/// or `None` when each thread holds one element: any access is as good.
fn contiguous_dim(l: &RegisterLayout) -> Option<usize> {
    let &m = l.local.last()?;
    let mut start = 0;
    for (d, &c) in l.dim_modes.iter().enumerate() {
        if m < start + c {
            return (m == start + c - 1).then_some(d);
        }
        start += c;
    }
    None
}

/// Whether `src` (the layout of an operand of shape `src.shape`, broadcast NumPy-style to
/// `dst.shape`) gives every thread, in one register for all threads, each element that register
/// of `dst` needs: then the broadcast moves no data (the lowering's rule).
pub fn broadcast_is_local(src: &RegisterLayout, dst: &RegisterLayout) -> bool {
    if src.num_threads() != dst.num_threads() || src.rank() > dst.rank() {
        return false;
    }
    if src.shape == dst.shape && src.same_mapping(dst) {
        return true;
    }
    let off = dst.rank() - src.rank();
    for l in 0..dst.local_size() {
        let mut found = None;
        for t in 0..dst.num_threads() {
            let c = dst.coords(t, l);
            let idx: Vec<i64> = (0..src.rank())
                .map(|j| if src.shape[j] == 1 { 0 } else { c[j + off] })
                .collect();
            let (holders, reg) = src.holders(&idx);
            if holders.binary_search(&t).is_err() || found.is_some_and(|f| f != reg) {
                return false;
            }
            found = Some(reg);
        }
    }
    true
}

/// The layout an operand of `shape` broadcast into a result of layout `res` should have so
/// that the broadcast is local: the result's layout with the broadcast dimensions reduced
/// (their threads replicate) and the missing leading dimensions dropped.
pub fn broadcast_layout(res: &RegisterLayout, shape: &[i64]) -> RegisterLayout {
    let off = res.rank() - shape.len();
    let kept: Vec<usize> = (off..res.rank())
        .filter(|&k| shape[k - off] == 1 && res.shape[k] != 1)
        .collect();
    let l = res.reduce(&kept, true);
    let lead: Vec<usize> = (0..off).collect();
    l.reduce(&lead, false)
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Node {
    Def(Value),
    Use(OpId, u32),
}

/// What a class of nodes asks of its layout.
#[derive(Clone, Debug, Default)]
struct Class {
    /// A layout written by the user (or the dot anchor) and the value that carries it.
    fixed: Option<RegisterLayout>,
    /// Contiguous dimension and element bits of each global access.
    access: Vec<(usize, u32)>,
    /// Dimensions reduced by `tilus.reduce` ops reading the class.
    reduced: Vec<usize>,
    /// Program position of the first node.
    order: usize,
    shape: Vec<i64>,
    bits: u32,
    threads: i64,
    layout: Option<RegisterLayout>,
}

impl Class {
    fn accepts(&self, l: &RegisterLayout) -> bool {
        if let Some(f) = &self.fixed {
            return f.same_mapping(l);
        }
        // An access along a dimension of one element reads one element per vector whatever
        // the layout: it asks nothing.
        match contiguous_dim(l) {
            None => true,
            Some(d) => self
                .access
                .iter()
                .all(|&(c, _)| c == d || self.shape.get(c) == Some(&1)),
        }
    }
}

#[derive(Default)]
struct Graph {
    nodes: Vec<Node>,
    index: FxHashMap<Node, usize>,
    parent: Vec<usize>,
    class: Vec<Class>,
    /// Def-use edges: (bytes, def node, use node).
    edges: Vec<(i64, usize, usize)>,
    /// Ties between nodes of one op: must share a layout.
    ties: Vec<(usize, usize, OpId)>,
    /// Broadcast operands: (use node, result def node).
    broadcasts: Vec<(usize, usize)>,
    /// Reductions: (op, input use node, result def node, dim, keepdim).
    reductions: Vec<(OpId, usize, usize, usize, bool)>,
    /// Register slices: (op, source use node, result def node, offsets).
    slices: Vec<(OpId, usize, usize, Vec<i64>)>,
}

fn reg_type(ctx: &Context, v: Value) -> Option<TensorType> {
    TensorType::of(ctx, ctx.value_type(v)).filter(|t| t.space == Space::Register)
}

impl Graph {
    fn node(&mut self, ctx: &Context, n: Node, at: OpId) -> usize {
        if let Some(&i) = self.index.get(&n) {
            return i;
        }
        let v = match n {
            Node::Def(v) => v,
            Node::Use(o, i) => ctx.operands(o)[i as usize],
        };
        let t = reg_type(ctx, v).expect("a register tensor");
        let i = self.nodes.len();
        self.nodes.push(n);
        self.index.insert(n, i);
        self.parent.push(i);
        self.class.push(Class {
            fixed: match n {
                Node::Def(_) => t.register_layout(),
                Node::Use(..) => None,
            },
            order: i,
            shape: t.shape.clone(),
            bits: t.dtype.bits(),
            threads: group_pos(ctx, at).map(|g| g.size).unwrap_or(1),
            ..Class::default()
        });
        if let Node::Use(..) = n {
            let d = self.def_node(ctx, v);
            let bytes = t.num_elements() * (t.dtype.bits() as i64).max(8) / 8;
            self.edges.push((bytes, d, i));
        }
        i
    }

    fn def_node(&mut self, ctx: &Context, v: Value) -> usize {
        let at = match ctx.value_def(v) {
            tilus_ir::ValueDef::Result(o, _) => o,
            tilus_ir::ValueDef::BlockArg(b, _) => ctx
                .block_ops(b)
                .next()
                .or_else(|| ctx.block_parent(b).and_then(|r| ctx.region_parent(r)))
                .expect("a block inside a kernel"),
        };
        self.node(ctx, Node::Def(v), at)
    }

    fn use_node(&mut self, ctx: &Context, o: OpId, i: usize) -> usize {
        self.node(ctx, Node::Use(o, i as u32), o)
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn mergeable(&mut self, a: usize, b: usize) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return true;
        }
        let (ca, cb) = (&self.class[a], &self.class[b]);
        match (&ca.fixed, &cb.fixed) {
            (Some(x), Some(y)) => x.same_mapping(y),
            (Some(_), None) | (None, Some(_)) => true,
            (None, None) => ca
                .access
                .iter()
                .chain(&cb.access)
                .all(|&(c, _)| c == ca.access.first().or(cb.access.first()).unwrap().0),
        }
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        let (keep, gone) = if self.class[a].order <= self.class[b].order {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[gone] = keep;
        let g = std::mem::take(&mut self.class[gone]);
        let k = &mut self.class[keep];
        if k.fixed.is_none() {
            k.fixed = g.fixed;
        }
        k.access.extend(g.access);
        for d in g.reduced {
            if !k.reduced.contains(&d) {
                k.reduced.push(d);
            }
        }
    }
}

/// Records every register tensor of the kernel and what ties them.
fn build_graph(ctx: &Context, k: OpId, wgmma: bool) -> Result<Graph, Diagnostic> {
    let mut g = Graph::default();
    let mut ops = Vec::new();
    ctx.walk(k, &mut |o| ops.push(o));
    let per_thread = thread_dependent(ctx, &ops);
    for o in ops {
        if o == k {
            continue;
        }
        let reg_operands: Vec<usize> = (0..ctx.operands(o).len())
            .filter(|&i| reg_type(ctx, ctx.operands(o)[i]).is_some())
            .collect();
        let reg_results: Vec<Value> = ctx
            .results(o)
            .iter()
            .copied()
            .filter(|&v| reg_type(ctx, v).is_some())
            .collect();
        // Block arguments of the op's regions (scf.for iter_args) are definitions too.
        for &r in ctx.regions(o) {
            for &b in ctx.region_blocks(r) {
                for &a in ctx.block_args(b) {
                    if reg_type(ctx, a).is_some() {
                        g.def_node(ctx, a);
                    }
                }
            }
        }
        if reg_operands.is_empty() && reg_results.is_empty() {
            continue;
        }
        let uses: Vec<usize> = reg_operands
            .iter()
            .map(|&i| g.use_node(ctx, o, i))
            .collect();
        let defs: Vec<usize> = reg_results.iter().map(|&v| g.def_node(ctx, v)).collect();
        let shape_of = |v: Value| reg_type(ctx, v).map(|t| t.shape).unwrap_or_default();
        use TilusOpKind as K;
        let kind = TilusOpKind::classify(ctx, o);
        // A tile whose meaning depends on which thread holds which element (a per-thread
        // scalar entering it, per-thread offsets, a shuffle between lanes) keeps the layout
        // the interpreter gives it (`lower::tiles::default_layout`), so the GPU computes what
        // the interpreter does.
        let owner_sensitive = match kind {
            Some(K::ShuffleUp(_)) | Some(K::ShuffleDown(_)) => true,
            Some(K::RegisterTensor(_)) | Some(K::LoadGlobal(_)) | Some(K::StoreGlobal(_)) => {
                ctx.operands(o).iter().any(|v| per_thread.contains(v))
            }
            _ => false,
        };
        if owner_sensitive {
            let written = reg_operands
                .iter()
                .map(|&i| ctx.operands(o)[i])
                .chain(reg_results.iter().copied())
                .find_map(|v| reg_type(ctx, v).and_then(|t| t.register_layout()));
            for &n in uses.iter().chain(&defs) {
                if g.class[n].fixed.is_none() {
                    let c = &g.class[n];
                    let l = match &written {
                        Some(w) if w.shape == c.shape => w.clone(),
                        _ => crate::lower::tiles::default_layout(&c.shape, c.bits, c.threads)
                            .map_err(|m| Diagnostic::op(o, format!("infer-layouts: {m}")))?,
                    };
                    g.class[n].fixed = Some(l);
                }
            }
        }
        // Tiles of other dialects' ops whose layout the hardware fixes: a `wgmma.mma`
        // accumulator is the wgmma fragment of its shape (what the op's verifier asks), a
        // `tcgen05.ld` / `tcgen05.st` tile one TMEM lane per thread with its columns in order
        // (the 32x32b shape the lowering emits).
        let hw = if let Some(h) = tilus_dialects::wgmma::MmaOp::cast(ctx, o) {
            reg_type(ctx, h.acc(ctx))
                .filter(|t| t.shape.len() == 2 && t.shape[0] % 64 == 0 && t.shape[1] % 8 == 0)
                .map(|t| {
                    // The instruction N is gcd(N, 256), as the verifier takes it.
                    let (m, n) = (t.shape[0], t.shape[1]);
                    let inst_n = 1i64 << n.trailing_zeros().min(8);
                    tilus_dialects::layout_algebra::wgmma_accumulator(m, n, inst_n)
                })
        } else if let Some(h) = tilus_dialects::tcgen05::LdOp::cast(ctx, o) {
            reg_type(ctx, h.result(ctx)).and_then(|t| tmem_lanes(&t.shape))
        } else if let Some(h) = tilus_dialects::tcgen05::StOp::cast(ctx, o) {
            reg_type(ctx, h.value(ctx)).and_then(|t| tmem_lanes(&t.shape))
        } else {
            None
        };
        if let Some(l) = hw {
            for &n in uses.iter().chain(&defs) {
                if g.class[n].fixed.is_none() && g.class[n].shape == l.shape {
                    g.class[n].fixed = Some(l.clone());
                }
            }
        }
        match kind {
            Some(K::LoadGlobal(l)) => {
                let view = l.src(ctx);
                let c = contiguous_of_view(ctx, view, &shape_of(l.result(ctx)));
                let d = defs[0];
                let bits = g.class[d].bits;
                g.class[d].access.push((c, bits));
            }
            Some(K::StoreGlobal(s)) => {
                let c = contiguous_of_view(ctx, s.dst(ctx), &shape_of(s.value(ctx)));
                let u = uses[0];
                let bits = g.class[u].bits;
                g.class[u].access.push((c, bits));
            }
            Some(K::Reduce(r)) => {
                let dim = r.dim(ctx) as usize;
                g.class[uses[0]].reduced.push(dim);
                g.reductions
                    .push((o, uses[0], defs[0], dim, r.keepdim(ctx)));
            }
            Some(K::Dot(d)) => {
                let c = d.c(ctx);
                let res = defs[0];
                if g.class[res].fixed.is_none() {
                    let cl = &g.class[res];
                    g.class[res].fixed =
                        Some(dot_anchor(ctx, d, &cl.shape, cl.bits, cl.threads, wgmma));
                }
                if let Some(i) = reg_operands.iter().position(|&i| ctx.operands(o)[i] == c) {
                    g.ties.push((uses[i], res, o));
                }
                // a and b are stored to shared memory by the dot lowering: any layout.
            }
            Some(K::SliceRegister(h)) => {
                g.slices.push((o, uses[0], defs[0], h.offset_values(ctx)));
            }
            Some(K::LoadShared(_)) | Some(K::StoreShared(_)) | Some(K::RegisterTensor(_)) => {}
            Some(K::Add(_)) | Some(K::Sub(_)) | Some(K::Mul(_)) | Some(K::Div(_))
            | Some(K::Mod(_)) | Some(K::Maximum(_)) | Some(K::Minimum(_)) | Some(K::Cmp(_))
            | Some(K::Where(_)) => {
                let r = reg_results[0];
                let rs = shape_of(r);
                for (j, &i) in reg_operands.iter().enumerate() {
                    if shape_of(ctx.operands(o)[i]) == rs {
                        g.ties.push((uses[j], defs[0], o));
                    } else {
                        g.broadcasts.push((uses[j], defs[0]));
                    }
                }
            }
            _ if ConvertOp::is(ctx, o) => {}
            _ if ForOp::is(ctx, o) => {
                let f = ForOp::cast(ctx, o).expect("scf.for");
                let inits = f.init_args(ctx);
                let first = ctx.operands(o).len() - inits.len();
                let body = ctx.region_blocks(ctx.regions(o)[0])[0];
                let args = ctx.block_args(body).to_vec();
                let yield_op = ctx.block_ops(body).last();
                for (j, &res) in ctx.results(o).iter().enumerate() {
                    if reg_type(ctx, res).is_none() {
                        continue;
                    }
                    let r = g.def_node(ctx, res);
                    let u = g.use_node(ctx, o, first + j);
                    let a = g.def_node(ctx, args[j + 1]);
                    g.ties.push((u, r, o));
                    g.ties.push((a, r, o));
                    if let Some(y) = yield_op {
                        let yu = g.use_node(ctx, y, j);
                        g.ties.push((yu, r, o));
                    }
                }
            }
            // scf.while: init j, `before`'s argument j and `after`'s yield j share a layout, as
            // do result k, `after`'s argument k and the condition's forwarded value k.
            _ if WhileOp::is(ctx, o) => {
                let regions = ctx.regions(o).to_vec();
                let first = |r: tilus_ir::RegionId| ctx.region_blocks(r).first().copied();
                let (Some(before), Some(after)) = (first(regions[0]), first(regions[1])) else {
                    continue;
                };
                let yield_op = ctx.block_ops(after).last().filter(|&y| YieldOp::is(ctx, y));
                let cond = ctx
                    .block_ops(before)
                    .last()
                    .filter(|&c| ConditionOp::is(ctx, c));
                for (j, &a) in ctx.block_args(before).to_vec().iter().enumerate() {
                    if reg_type(ctx, a).is_none() {
                        continue;
                    }
                    let d = g.def_node(ctx, a);
                    let u = g.use_node(ctx, o, j);
                    g.ties.push((u, d, o));
                    if let Some(y) = yield_op {
                        let yu = g.use_node(ctx, y, j);
                        g.ties.push((yu, d, o));
                    }
                }
                let after_args = ctx.block_args(after).to_vec();
                for (k, &r) in ctx.results(o).to_vec().iter().enumerate() {
                    if reg_type(ctx, r).is_none() {
                        continue;
                    }
                    let rd = g.def_node(ctx, r);
                    if let Some(&a) = after_args.get(k) {
                        let ad = g.def_node(ctx, a);
                        g.ties.push((ad, rd, o));
                    }
                    if let Some(c) = cond {
                        let cu = g.use_node(ctx, c, k + 1);
                        g.ties.push((cu, rd, o));
                    }
                }
            }
            // The ops taking one region's yield as their results: every yield ties to them.
            _ if yields_one_region(ctx, o) => {
                for (j, &res) in ctx.results(o).iter().enumerate() {
                    if reg_type(ctx, res).is_none() {
                        continue;
                    }
                    let r = g.def_node(ctx, res);
                    for &region in ctx.regions(o) {
                        for &b in ctx.region_blocks(region) {
                            if let Some(y) =
                                ctx.block_ops(b).last().filter(|&y| YieldOp::is(ctx, y))
                            {
                                let yu = g.use_node(ctx, y, j);
                                g.ties.push((yu, r, o));
                            }
                        }
                    }
                }
            }
            _ => {
                // Casts, unary math, shuffles, and ops of other dialects that take and make
                // register tensors (wgmma accumulators, tcgen05 loads): same shape, one layout.
                let parent_yield = ctx.parent_op(o).is_some_and(|p| {
                    ForOp::is(ctx, p) || WhileOp::is(ctx, p) || yields_one_region(ctx, p)
                }) && ctx.next_op(o).is_none();
                if parent_yield {
                    continue;
                }
                let mut nodes: Vec<(usize, Vec<i64>)> = Vec::new();
                for (j, &i) in reg_operands.iter().enumerate() {
                    nodes.push((uses[j], shape_of(ctx.operands(o)[i])));
                }
                for (j, &v) in reg_results.iter().enumerate() {
                    nodes.push((defs[j], shape_of(v)));
                }
                for a in 0..nodes.len() {
                    for b in a + 1..nodes.len() {
                        if nodes[a].1 == nodes[b].1 {
                            g.ties.push((nodes[a].0, nodes[b].0, o));
                            break;
                        }
                    }
                }
            }
        }
    }
    Ok(g)
}

/// The layout of a 2-D tile moved by `tcgen05.ld` / `tcgen05.st`: one TMEM lane per thread,
/// its columns in order in the thread's registers.
fn tmem_lanes(shape: &[i64]) -> Option<RegisterLayout> {
    (shape.len() == 2).then(|| {
        RegisterLayout::spatial(&[shape[0], 1]).compose(&RegisterLayout::local(&[1, shape[1]]))
    })
}

/// The scalar values that differ between the threads of a group: thread, lane and warp ids
/// and everything computed from them.
fn thread_dependent(ctx: &Context, ops: &[OpId]) -> rustc_hash::FxHashSet<Value> {
    use TilusOpKind as K;
    let mut out = rustc_hash::FxHashSet::default();
    for &o in ops {
        let source = matches!(
            TilusOpKind::classify(ctx, o),
            Some(K::ThreadId(_)) | Some(K::LaneId(_)) | Some(K::WarpId(_))
        );
        if source || ctx.operands(o).iter().any(|v| out.contains(v)) {
            for &r in ctx.results(o) {
                if reg_type(ctx, r).is_none() {
                    out.insert(r);
                }
            }
        }
    }
    out
}

/// The dimension along which a `tile`-shaped box of a global view is contiguous: the last
/// dimension of static stride 1 along which the tile has more than one element, else the last
/// dimension of static stride 1, else the last one. A compact row-major view's dimension has
/// stride 1 when the view's extents after it are all 1 (a `[64, 1]` column vector is
/// contiguous along dimension 0), so a tile of one column is accessed along its rows.
fn contiguous_of_view(ctx: &Context, view: Value, tile: &[i64]) -> usize {
    let last = tile.len().saturating_sub(1);
    let Some(t) = TensorType::of(ctx, ctx.value_type(view)) else {
        return last;
    };
    // A compact row-major view's dimension has stride 1 when every extent after it is 1.
    let unit = |d: usize| match &t.strides {
        Some(s) => s.get(d) == Some(&1),
        None => t
            .shape
            .get(d + 1..)
            .is_some_and(|rest| rest.iter().all(|&x| x == 1)),
    };
    (0..tile.len())
        .rev()
        .find(|&d| unit(d) && tile[d] > 1)
        .or_else(|| (0..tile.len()).rev().find(|&d| unit(d)))
        .unwrap_or(last)
}

/// Lays out every register tensor of kernel `k` that has none, as the pass does (`wgmma`: the
/// target is sm_90a). For passes whose rewrite follows layouts (`warp-specialize` splits the
/// accumulator by its wgmma fragment rows) and must accept kernels written without them.
/// Returns the tensors laid out and the converts inserted.
pub(crate) fn infer_kernel(
    ctx: &mut Context,
    k: OpId,
    wgmma: bool,
) -> Result<(u64, u64), Diagnostic> {
    let mut g = build_graph(ctx, k, wgmma)?;
    // Ties: these nodes must share one layout.
    for (a, b, o) in g.ties.clone() {
        if !g.mergeable(a, b) {
            let (ra, rb) = (g.find(a), g.find(b));
            return Err(Diagnostic::op(
                o,
                format!(
                    "infer-layouts: the op needs one layout for its register tensors, but they \
                     were written with the layouts '{}' and '{}'",
                    g.class[ra].fixed.as_ref().unwrap(),
                    g.class[rb].fixed.as_ref().unwrap()
                ),
            ));
        }
        g.union(a, b);
    }
    // Def-use edges, most bytes first; an edge left out becomes a layout.convert.
    let mut edges = g.edges.clone();
    edges.sort_by_key(|&(bytes, d, u)| (std::cmp::Reverse(bytes), d, u));
    for (_, d, u) in edges {
        if g.mergeable(d, u) {
            g.union(d, u);
        }
    }
    assign(&mut g);
    rewrite(ctx, &mut g)
}

/// Gives every class a layout: fixed ones, then what follows from reductions and broadcasts,
/// then access anchors one at a time (the biggest first), then the rest.
fn assign(g: &mut Graph) {
    let n = g.nodes.len();
    loop {
        let mut changed = false;
        for i in 0..n {
            let r = g.find(i);
            if g.class[r].layout.is_none() {
                if let Some(f) = g.class[r].fixed.clone() {
                    g.class[r].layout = Some(f);
                    changed = true;
                }
            }
        }
        for (_, inp, out, dim, keepdim) in g.reductions.clone() {
            let (ri, ro) = (g.find(inp), g.find(out));
            if let (Some(l), None) = (g.class[ri].layout.clone(), &g.class[ro].layout) {
                let want = l.reduce(&[dim], keepdim);
                if g.class[ro].accepts(&want) {
                    g.class[ro].layout = Some(want);
                    changed = true;
                }
            }
            // A reduction over a dimension of one element only drops it (a `[1, M, N]` load
            // read as `[M, N]`): its input can take the result's layout back, so it reduces
            // in place instead of being converted after.
            if let (None, Some(l)) = (&g.class[ri].layout, g.class[ro].layout.clone()) {
                if g.class[ri].shape.get(dim) == Some(&1) {
                    let want = if keepdim { l } else { l.unsqueeze(dim) };
                    if want.shape == g.class[ri].shape && g.class[ri].accepts(&want) {
                        g.class[ri].layout = Some(want);
                        changed = true;
                    }
                }
            }
        }
        for (_, inp, out, offsets) in g.slices.clone() {
            let (ri, ro) = (g.find(inp), g.find(out));
            if let (Some(l), None) = (g.class[ri].layout.clone(), &g.class[ro].layout) {
                if let Ok(want) = l.slice(&offsets, &g.class[ro].shape) {
                    if g.class[ro].accepts(&want) {
                        g.class[ro].layout = Some(want);
                        changed = true;
                    }
                }
            }
        }
        for (u, res) in g.broadcasts.clone() {
            let (ru, rr) = (g.find(u), g.find(res));
            if let (Some(l), None) = (g.class[rr].layout.clone(), &g.class[ru].layout) {
                let want = broadcast_layout(&l, &g.class[ru].shape);
                if g.class[ru].accepts(&want) {
                    g.class[ru].layout = Some(want);
                    changed = true;
                }
            }
        }
        if changed {
            continue;
        }
        let mut roots: Vec<usize> = (0..n).map(|i| g.find(i)).collect();
        roots.sort_by_key(|&r| g.class[r].order);
        roots.dedup();
        let open: Vec<usize> = roots
            .into_iter()
            .filter(|&r| g.class[r].layout.is_none())
            .collect();
        // The biggest class with a global access first (the earliest among equals): its
        // layout then propagates to the smaller tiles it meets (reductions, broadcasts), and a
        // convert left where anchors disagree moves the smaller tile.
        let bytes = |c: &Class| {
            c.shape
                .iter()
                .product::<i64>()
                .saturating_mul((c.bits as i64).max(8))
                / 8
        };
        let Some(&pick) = open
            .iter()
            .filter(|&&r| !g.class[r].access.is_empty())
            .max_by_key(|&&r| (bytes(&g.class[r]), std::cmp::Reverse(g.class[r].order)))
            .or(open.first())
        else {
            return;
        };
        let c = &g.class[pick];
        let rank = c.shape.len();
        let (contig, bits) = c
            .access
            .iter()
            .min_by_key(|a| a.1)
            .copied()
            .unwrap_or((rank - 1, c.bits));
        let l = access_layout(&c.shape, bits, c.threads, contig, &c.reduced);
        g.class[pick].layout = Some(l);
    }
}

/// Writes the layouts into the types and inserts the converts.
fn rewrite(ctx: &mut Context, g: &mut Graph) -> Result<(u64, u64), Diagnostic> {
    let mut chosen = 0;
    let mut converts = 0;
    let layout_of = |g: &mut Graph, i: usize| {
        let r = g.find(i);
        g.class[r].layout.clone().expect("every class is assigned")
    };
    for i in 0..g.nodes.len() {
        if let Node::Def(v) = g.nodes[i] {
            let mut t = reg_type(ctx, v).expect("register tensor");
            if t.layout.is_none() {
                t.layout = Some(layout_of(g, i));
                let ty = t.get(ctx);
                ctx.set_value_type(v, ty);
                chosen += 1;
            }
        }
    }
    // Uses whose class is not their definition's, and broadcasts that would move data.
    let mut want: Vec<(OpId, u32, RegisterLayout)> = Vec::new();
    for i in 0..g.nodes.len() {
        if let Node::Use(o, idx) = g.nodes[i] {
            let v = ctx.operands(o)[idx as usize];
            let d = g.index[&Node::Def(v)];
            if g.find(d) != g.find(i) {
                let l = layout_of(g, i);
                if !layout_of(g, d).same_mapping(&l) {
                    want.push((o, idx, l));
                }
            }
        }
    }
    for (u, res) in g.broadcasts.clone() {
        let Node::Use(o, idx) = g.nodes[u] else {
            continue;
        };
        let have = layout_of(g, u);
        let rl = layout_of(g, res);
        if !broadcast_is_local(&have, &rl) && !want.iter().any(|w| w.0 == o && w.1 == idx) {
            want.push((o, idx, broadcast_layout(&rl, &have.shape)));
        }
    }
    for (o, idx, l) in want {
        let v = ctx.operands(o)[idx as usize];
        let mut t = reg_type(ctx, v).expect("register tensor");
        t.layout = Some(l);
        let ty = t.get(ctx);
        let mut b = OpBuilder::new(ctx);
        b.set_loc_from(o);
        b.set_insertion_point_before(o);
        let c = ConvertOp::build(&mut b, v, ty).result(b.ctx());
        ctx.set_operand(o, idx as usize, c);
        converts += 1;
    }
    // A reduction computes in its input's layout; a result class fixed otherwise gets a
    // convert after it.
    for (o, _, out, dim, keepdim) in g.reductions.clone() {
        let red = ReduceOp::cast(ctx, o).expect("tilus.reduce");
        let lin = reg_type(ctx, red.x(ctx))
            .and_then(|t| t.register_layout())
            .expect("input layout");
        let r = red.result(ctx);
        let lout = reg_type(ctx, r)
            .and_then(|t| t.register_layout())
            .unwrap_or_else(|| layout_of(g, out));
        converts += convert_result(ctx, o, r, lin.reduce(&[dim], keepdim), lout);
    }
    // A slice keeps its source's registers; a result class laid out otherwise gets a convert
    // after it. Where the box would cut the source's layout across threads (a source laid out
    // for its own loads), the source is converted first to `local(ratio) * result layout`,
    // one convert per source and layout, which the box cuts only in registers.
    let mut converted: FxHashMap<(Value, String), Value> = FxHashMap::default();
    for (o, _, _, offsets) in g.slices.clone() {
        let h = SliceRegisterOp::cast(ctx, o).expect("tilus.slice_register");
        let src = h.src(ctx);
        let lin = reg_type(ctx, src)
            .and_then(|t| t.register_layout())
            .expect("source layout");
        let r = h.result(ctx);
        let lout = reg_type(ctx, r)
            .and_then(|t| t.register_layout())
            .expect("result layout");
        match lin.slice(&offsets, &lout.shape) {
            Ok(natural) => converts += convert_result(ctx, o, r, natural, lout),
            Err(_) => {
                let Some(want) = box_major(&lin.shape, &offsets, &lout) else {
                    continue; // left to the verifier, which says why
                };
                let key = (src, want.to_string());
                let c = match converted.get(&key) {
                    Some(&c) => c,
                    None => {
                        let mut t = reg_type(ctx, src).expect("register tensor");
                        t.layout = Some(want);
                        let ty = t.get(ctx);
                        let def = ctx.defining_op(src);
                        let mut b = OpBuilder::new(ctx);
                        b.set_loc_from(o);
                        match def {
                            Some(d) => b.set_insertion_point_after(d),
                            None => b.set_insertion_point_before(o),
                        }
                        let c = ConvertOp::build(&mut b, src, ty).result(b.ctx());
                        converts += 1;
                        converted.insert(key, c);
                        c
                    }
                };
                ctx.set_operand(o, 0, c);
            }
        }
    }
    Ok((chosen, converts))
}

/// Gives `r` (a result of `o`) the layout `natural` the op computes in and, when its class was
/// laid out as `lout` instead, a `layout.convert` after `o` for its users. Returns the number
/// of converts inserted (0 or 1).
fn convert_result(
    ctx: &mut Context,
    o: OpId,
    r: Value,
    natural: RegisterLayout,
    lout: RegisterLayout,
) -> u64 {
    if natural.same_mapping(&lout) {
        return 0;
    }
    let mut t = reg_type(ctx, r).expect("register tensor");
    t.layout = Some(natural);
    let nty = t.get(ctx);
    ctx.set_value_type(r, nty);
    t.layout = Some(lout);
    let oty = t.get(ctx);
    let users: Vec<(OpId, u32)> = ctx.uses(r).iter().map(|u| (u.op, u.index)).collect();
    let next = ctx.next_op(o).expect("a tile op is not a terminator");
    let mut b = OpBuilder::new(ctx);
    b.set_loc_from(o);
    b.set_insertion_point_before(next);
    let c = ConvertOp::build(&mut b, r, oty).result(b.ctx());
    for (u, i) in users {
        ctx.set_operand(u, i as usize, c);
    }
    1
}

/// A layout of a tensor of `shape` whose box at `offsets` of `lout`'s shape is `lout` in the
/// same registers: the boxes of the tile as outer register modes around `lout`. Exists when
/// the box's extents divide the tile's and the offsets are multiples of them.
fn box_major(shape: &[i64], offsets: &[i64], lout: &RegisterLayout) -> Option<RegisterLayout> {
    let mut ratio = Vec::with_capacity(shape.len());
    for ((&s, &o), &e) in shape.iter().zip(offsets).zip(&lout.shape) {
        if s % e != 0 || o % e != 0 {
            return None;
        }
        ratio.push(s / e);
    }
    let l = RegisterLayout::local(&ratio).try_compose(lout)?;
    l.slice(offsets, &lout.shape)
        .ok()
        .filter(|x| x.same_mapping(lout))
        .map(|_| l)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &RegisterLayout, b: &str) -> bool {
        a.same_mapping(&RegisterLayout::parse(b).unwrap())
    }

    #[test]
    fn access_layouts() {
        // A row per 4 warps, rows reduced: warps go to the rows first.
        let l = access_layout(&[2, 4096], 16, 256, 1, &[1]);
        assert!(same(
            &l,
            "spatial(2, 4) * local(1, 4) * spatial(1, 32) * local(1, 8)"
        ));
        // f32 gets 4-element vectors.
        let l = access_layout(&[1024], 32, 128, 0, &[]);
        assert!(same(&l, "spatial(4) * local(2) * spatial(32) * local(4)"));
        // Smaller than the group: replicated.
        let l = access_layout(&[64], 32, 128, 0, &[]);
        assert_eq!(l.num_threads(), 128);
        assert_eq!(l.replication(), 8);
        // Contiguous along dim 0 (a transposed view).
        let l = access_layout(&[64, 64], 16, 128, 0, &[]);
        assert_eq!(contiguous_dim(&l), Some(0));
        // Lane 1 holds the next 8 rows of the same columns; each thread 4 adjacent columns
        // (registers 8, 16, 24 start the next ones), so lane 8 starts 4 columns on; warp 1
        // the next 16 columns.
        assert_eq!(l.coords(1, 0), vec![8, 0]);
        assert_eq!(l.coords(8, 0), vec![0, 4]);
        assert_eq!(l.coords(32, 0), vec![0, 16]);
        assert_eq!(l.coords(0, 1), vec![1, 0]);
        assert_eq!(l.coords(0, 8), vec![0, 1]);
    }

    #[test]
    fn unsqueezed() {
        // Reducing the inserted dimension gives the layout back, in the same registers.
        let l = access_layout(&[16, 32], 32, 64, 1, &[]);
        for dim in 0..=2 {
            let u = l.unsqueeze(dim);
            assert_eq!(u.num_elements(), l.num_elements());
            assert!(u.reduce(&[dim], false).same_mapping(&l), "{u}");
            assert_eq!(u.local_size(), l.local_size());
        }
    }

    #[test]
    fn broadcasts() {
        let res = access_layout(&[2, 4096], 16, 256, 1, &[1]);
        let row = broadcast_layout(&res, &[4096]);
        assert!(broadcast_is_local(&row, &res));
        let col = broadcast_layout(&res, &[2, 1]);
        assert!(same(&col, &res.reduce(&[1], true).to_string()));
        assert!(broadcast_is_local(&col, &res));
        let other = access_layout(&[4096], 16, 256, 0, &[]);
        assert!(!broadcast_is_local(&other, &res));
    }
}
