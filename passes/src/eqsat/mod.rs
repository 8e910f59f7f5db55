//! `eqsat`: equality saturation over the pure integer arithmetic of every block, with `egg`.
//!
//! Per block, the scalar integer and index ops of arith (binary ops, `cmpi`, `select`,
//! extensions, truncations, `index_cast`, constants) and the pure tile ops ([`lang::TILE_OPS`]:
//! `tilus.cast`, `layout.convert`, `tilus.permute_shared`, element-wise ops, each node with its
//! result type) go into an e-graph ([`lang`]); every other
//! op — loads, stores, barriers, async ops, region ops, terminators, float math — is the
//! skeleton and stays where it is. Values from outside the block and results of skeleton ops
//! are leaves, so nothing moves across a side effect. The graph is saturated with the rules of
//! [`rules`] (and a user rule file, [`rulefile`]) under node, iteration and time limits, the
//! cheapest program under the PTX cost model is extracted ([`extract`]), and it is written
//! back as SSA: each value that the skeleton (or another block) uses is rebuilt just before
//! the op that defined it, sharing what earlier values built, and the old ops are erased.
//! A block is left untouched unless the extracted program is strictly cheaper.
//!
//! Range facts ([`lang::Facts`]) are seeded from what bounds a value: `tid` by the kernel's
//! `maxntid`, `laneid` by 32, block ids and dimensions by PTX's limits, `scf.for` induction
//! variables by their loop bounds, shared-buffer addresses (`ptx.addressof`) by their
//! alignment and the shared window, and ops outside the block by the same transfer functions.

pub mod extract;
pub mod lang;
pub mod rulefile;
pub mod rules;
mod schedule;

use crate::{declare_pass, Changed, Pass, Statistics};
use egg::{Id, Language, Rewrite, StopReason};
use extract::{Choice, CostModel};
use lang::{Cast, EqAnalysis, Facts, Kind, Node, TileInfo, TileShape, Ty, EG};
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::Duration;
use tilus_dialects::arith::{ArithOpKind, CmpIOp, ConstantOp, IntBinOp, SELECT};
use tilus_dialects::ptx::{AddressofOp, EntryOp, SharedDeclOp, SpecialOp};
use tilus_dialects::scf::ForOp;
use tilus_dialects::tilus::PermuteSharedOp;
use tilus_dialects::tilus_types::{attr_i64s, TensorType};
use tilus_ir::builder::OpBuilder;
use tilus_ir::handle::KeywordEnum;
use tilus_ir::rewrite::{constant_of, int_attr, int_bits};
use tilus_ir::types::Signedness;
use tilus_ir::{BlockId, Context, DiagLoc, Diagnostic, OpId, Type, TypeKind, Value, ValueDef};

declare_pass! {
    /// The equality-saturation pass. The fields are its options.
    pub struct Eqsat {
        name: "eqsat",
        summary: "Rewrite the integer arithmetic of each block by equality saturation (egg)",
        description: "Puts the pure scalar integer and index ops of arith of each block, and \
            its pure tile ops (tilus.cast, layout.convert, tilus.permute_shared, element-wise \
            ops, typed by their result types), into an e-graph (side-effecting ops, region \
            ops and block boundaries stay fixed; values from outside the block are leaves), \
            applies algebraic, strength-reduction, range-aware, select/cmp and tile \
            conversion/view rules until saturation or a limit, and writes back the cheapest \
            program under a PTX instruction cost model, sharing common values. Range \
            facts come from thread, lane and block ids, loop bounds and constants. Run it on \
            the arith level before convert-arith-to-ptx; tilus-to-ptx does.",
        options: {
            nodes_per_op: u64 = 12, "nodes-per-op",
                "E-node limit per block, as a multiple of the block's rewritable ops (plus 1000)";
            max_iterations: u64 = 8, "max-iterations",
                "Most rounds of rule application per block";
            time_limit_ms: u64 = 500, "time-limit-ms",
                "Most milliseconds of saturation per block";
            rules: String = String::new(), "rules",
                "A rule file (s-expressions, see the eqsat guide) to apply with the built-in rules";
            costs: String = String::new(), "costs",
                "A cost file (`key cost` lines) overriding the PTX instruction costs";
            builtin: bool = true, "builtin",
                "Apply the built-in rules (off: only the rule file's)";
        },
        statistics: {
            NUM_BLOCKS = "num-blocks", "Blocks with rewritable ops";
            NUM_REWRITTEN = "num-blocks-rewritten", "Blocks whose ops were replaced";
            NUM_OPS = "num-ops", "Rewritable ops seen";
            NUM_ENODES = "num-enodes", "E-nodes after saturation (summed over blocks)";
            NUM_ECLASSES = "num-eclasses", "E-classes after saturation (summed over blocks)";
            NUM_ITERATIONS = "num-iterations", "Rounds of rule application (summed over blocks)";
            STOP_SATURATED = "stop-saturated", "Blocks that saturated";
            STOP_NODES = "stop-node-limit", "Blocks stopped by the e-node limit";
            STOP_ITERATIONS = "stop-iteration-limit", "Blocks stopped by max-iterations";
            STOP_TIME = "stop-time-limit", "Blocks stopped by the time limit";
            COST_BEFORE = "cost-before", "Cost of the rewritable ops before (PTX instructions)";
            COST_AFTER = "cost-after", "Cost after (unchanged blocks count their old cost)";
        },
    }
}

/// What saturating one block did, for statistics and tests.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockReport {
    pub ops: usize,
    pub enodes: usize,
    pub eclasses: usize,
    pub iterations: usize,
    pub stop: Option<&'static str>,
    pub cost_before: f64,
    pub cost_after: f64,
    pub rewritten: bool,
}

/// The settings one run uses: limits, rules, costs.
pub struct Settings {
    pub node_limit_per_op: usize,
    pub iter_limit: usize,
    pub time_limit: Duration,
    pub rules: Vec<Rewrite<Node, EqAnalysis>>,
    pub costs: CostModel,
}

impl Eqsat {
    fn settings(&self) -> Result<Settings, Diagnostic> {
        let costs = if self.costs.is_empty() {
            CostModel::default()
        } else {
            let text = std::fs::read_to_string(&self.costs).map_err(|e| {
                Diagnostic::error(
                    DiagLoc::Unknown,
                    format!("eqsat: cannot read cost file '{}': {e}", self.costs),
                )
            })?;
            CostModel::parse(&text)
                .map_err(|(l, c, m)| rulefile::file_diagnostic(&self.costs, &text, l, c, 0, &m))?
        };
        let mut rules = if self.builtin {
            rules::builtin_shared().to_vec()
        } else {
            Vec::new()
        };
        if !self.rules.is_empty() {
            let text = std::fs::read_to_string(&self.rules).map_err(|e| {
                Diagnostic::error(
                    DiagLoc::Unknown,
                    format!("eqsat: cannot read rule file '{}': {e}", self.rules),
                )
            })?;
            rules.extend(rulefile::parse(&text).map_err(|e| {
                rulefile::file_diagnostic(&self.rules, &text, e.line, e.col, e.len, &e.message)
            })?);
        }
        Ok(Settings {
            node_limit_per_op: self.nodes_per_op as usize,
            iter_limit: self.max_iterations as usize,
            time_limit: Duration::from_millis(self.time_limit_ms),
            rules,
            costs,
        })
    }
}

impl Pass for Eqsat {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let mut settings = self.settings().map_err(|d| vec![d])?;
        let mut blocks = Vec::new();
        let mut consts = FxHashSet::default();
        ctx.walk(op, &mut |o| {
            for r in ctx.regions(o) {
                blocks.extend_from_slice(ctx.region_blocks(*r));
            }
            // Only constants matter here; checking the op first keeps the walk cheap.
            if ConstantOp::cast(ctx, o).is_some() {
                if let Some(c) = classify(ctx, o) {
                    if let (Some(bits), Some(Kind::Ty(t))) = (c.bits, c.head) {
                        consts.insert((t, bits));
                    }
                }
            }
        });
        settings.costs.known_consts = consts;
        let mut changed = Changed::No;
        for b in blocks {
            let Some(rep) = rewrite_block(ctx, b, &mut settings) else {
                continue;
            };
            stats.add(Self::NUM_BLOCKS, 1);
            stats.add(Self::NUM_OPS, rep.ops as u64);
            stats.add(Self::NUM_ENODES, rep.enodes as u64);
            stats.add(Self::NUM_ECLASSES, rep.eclasses as u64);
            stats.add(Self::NUM_ITERATIONS, rep.iterations as u64);
            let stop = match rep.stop {
                Some("node-limit") => Self::STOP_NODES,
                Some("iteration-limit") => Self::STOP_ITERATIONS,
                Some("time-limit") => Self::STOP_TIME,
                _ => Self::STOP_SATURATED,
            };
            stats.add(stop, 1);
            stats.add(Self::COST_BEFORE, rep.cost_before.round() as u64);
            stats.add(Self::COST_AFTER, rep.cost_after.round() as u64);
            if rep.rewritten {
                stats.add(Self::NUM_REWRITTEN, 1);
                changed = Changed::Yes;
            } else {
                stats.add(Self::NUM_REWRITTEN, 0);
            }
        }
        Ok(changed)
    }
}

/// The language's type for an IR type: signless integers of 1..=64 bits and `index`.
pub fn ty_of(ctx: &Context, t: Type) -> Option<Ty> {
    match ctx.type_kind(t) {
        TypeKind::Integer {
            width,
            signedness: Signedness::Signless,
        } if (1..=64).contains(width) => Some(Ty {
            width: *width,
            index: false,
        }),
        TypeKind::Index => Some(Ty {
            width: 64,
            index: true,
        }),
        _ => None,
    }
}

/// The IR type of a language type.
pub fn ir_type(ctx: &mut Context, t: Ty) -> Type {
    if t.index {
        ctx.index_type()
    } else {
        ctx.int_type(t.width)
    }
}

/// How an op enters the e-graph: the node kind, its non-value first child (type or
/// predicate), and its operands. `None` for skeleton ops.
#[derive(Clone, Debug)]
pub struct Classified {
    pub kind: Kind,
    pub head: Option<Kind>,
    pub operands: Vec<Value>,
    /// For constants, the bits.
    pub bits: Option<u128>,
    /// A leaf child after the head (the permutation of `tilus.permute_shared`).
    pub extra: Option<Kind>,
}

/// Classifies `op` (see [`Classified`]).
pub fn classify(ctx: &Context, op: OpId) -> Option<Classified> {
    let Some(k) = ArithOpKind::classify(ctx, op) else {
        return classify_tile(ctx, op);
    };
    let results = ctx.results(op);
    if results.len() != 1 {
        return None;
    }
    let rty = ty_of(ctx, ctx.value_type(results[0]))?;
    let operands = ctx.operands(op).to_vec();
    if operands
        .iter()
        .any(|v| ty_of(ctx, ctx.value_type(*v)).is_none())
    {
        return None;
    }
    let cast = |c: Cast| Kind::Cast(c);
    let (kind, head) = match k {
        ArithOpKind::Constant(h) => {
            let (bits, _) = int_bits(ctx, h.value(ctx))?;
            return Some(Classified {
                kind: Kind::Const,
                head: Some(Kind::Ty(rty)),
                operands,
                bits: Some(bits),
                extra: None,
            });
        }
        ArithOpKind::CmpI(h) => (Kind::Cmp, Kind::Pred(h.predicate(ctx).index() as u8)),
        ArithOpKind::Select(_) => (Kind::Select, Kind::Ty(rty)),
        ArithOpKind::ExtSI(_) => (cast(Cast::ExtSI), Kind::Ty(rty)),
        ArithOpKind::ExtUI(_) => (cast(Cast::ExtUI), Kind::Ty(rty)),
        ArithOpKind::TruncI(_) => (cast(Cast::TruncI), Kind::Ty(rty)),
        ArithOpKind::IndexCast(_) => (cast(Cast::IndexCast), Kind::Ty(rty)),
        ArithOpKind::IndexCastUI(_) => (cast(Cast::IndexCastUI), Kind::Ty(rty)),
        _ => {
            let b = IntBinOp::of(ctx, op)?;
            (Kind::Bin(lang::bin_index(b)), Kind::Ty(rty))
        }
    };
    Some(Classified {
        kind,
        head: Some(head),
        operands,
        bits: None,
        extra: None,
    })
}

/// Classifies a pure tile op of [`lang::TILE_OPS`] whose operands and result are tiles.
fn classify_tile(ctx: &Context, op: OpId) -> Option<Classified> {
    let i = lang::tile_index(ctx.op_def(op)?)?;
    let results = ctx.results(op);
    if results.len() != 1 {
        return None;
    }
    let rty = ctx.value_type(results[0]);
    let operands = ctx.operands(op).to_vec();
    if std::iter::once(rty)
        .chain(operands.iter().map(|v| ctx.value_type(*v)))
        .any(|t| TensorType::of_ref(ctx, t).is_none())
    {
        return None;
    }
    let extra = match lang::TILE_OPS[i as usize].1 {
        TileShape::Permute => {
            let p = PermuteSharedOp::cast(ctx, op)?;
            let perm = attr_i64s(ctx, p.perm(ctx))?;
            let perm: Vec<usize> = perm
                .iter()
                .map(|d| usize::try_from(*d).ok())
                .collect::<Option<_>>()?;
            Some(Kind::Perm(lang::pack_perm(&perm)?))
        }
        _ => None,
    };
    Some(Classified {
        kind: Kind::Tile(i),
        head: Some(Kind::TileTy(rty)),
        operands,
        bits: None,
        extra,
    })
}

/// What the rules and costs read off tile type `t`; `None` when it is not a tile.
pub fn tile_info(ctx: &Context, t: Type) -> Option<TileInfo> {
    let tt = TensorType::of_ref(ctx, t)?;
    let per_thread = match tt.register_layout() {
        Some(l) => l.local_size(),
        None => tt.num_elements(),
    };
    Some(TileInfo {
        dtype: tt.dtype,
        per_thread: per_thread.max(1) as f64,
    })
}

/// What bounds a value defined outside the rewritten ops (see the module docs). Memoized in
/// `cache`; `depth` bounds the walk through arith ops.
pub fn seed_facts(
    ctx: &Context,
    v: Value,
    depth: u32,
    cache: &mut FxHashMap<Value, Facts>,
) -> Option<Facts> {
    let ty = ty_of(ctx, ctx.value_type(v))?;
    if let Some(f) = cache.get(&v) {
        return Some(f.clone());
    }
    let top = Facts::top(ty);
    let f = match ctx.value_def(v) {
        ValueDef::Result(op, _) => {
            if let Some(s) = SpecialOp::cast(ctx, op) {
                special_facts(ctx, op, s.reg(ctx), ty)
            } else if let Some(a) = AddressofOp::cast(ctx, op) {
                addressof_facts(ctx, op, a, ty)
            } else if depth == 0 {
                top
            } else if let Some(c) = classify(ctx, op) {
                if let Some(bits) = c.bits {
                    return Some(Facts::constant(ty, bits));
                }
                let mut args: Vec<Facts> = Vec::new();
                if let Some(h) = c.head {
                    args.push(lang::transfer(h, &[]).unwrap_or(top.clone()));
                }
                for o in &c.operands {
                    args.push(seed_facts(ctx, *o, depth - 1, cache)?);
                }
                let refs: Vec<&Facts> = args.iter().collect();
                lang::transfer(c.kind, &refs).unwrap_or(top)
            } else {
                top
            }
        }
        ValueDef::BlockArg(b, i) => match param_facts(ctx, b, i as usize, ty) {
            Some(f) => f,
            None if i == 0 => loop_iv_facts(ctx, b, ty, depth, cache).unwrap_or(top),
            None => top,
        },
    };
    cache.insert(v, f.clone());
    Some(f)
}

/// Ranges of PTX special registers: thread ids below the kernel's `maxntid` (1024 without
/// one), the lane below 32, block ids and counts within PTX's grid limits.
fn special_facts(ctx: &Context, op: OpId, reg: &str, ty: Ty) -> Facts {
    let mut p = ctx.parent_op(op);
    let mut maxntid = 1024u128;
    while let Some(o) = p {
        if let Some(e) = EntryOp::cast(ctx, o) {
            if let Some(n) = e.maxntid(ctx).or(e.reqntid(ctx)) {
                if n > 0 {
                    maxntid = n as u128;
                }
            }
            break;
        }
        p = ctx.parent_op(o);
    }
    let int_max = (1u128 << 31) - 1;
    let (lo, hi) = match reg {
        "tid.x" | "tid.y" | "tid.z" => (0, maxntid - 1),
        "ntid.x" | "ntid.y" | "ntid.z" => (1, maxntid),
        "laneid" => (0, 31),
        "warpid" => (0, 63),
        "ctaid.x" | "ctaid.y" | "ctaid.z" => (0, int_max - 1),
        "nctaid.x" | "nctaid.y" | "nctaid.z" => (1, int_max),
        _ => return Facts::top(ty),
    };
    Facts::range(ty, lo, hi.min(lang_mask(ty)), 0)
}

/// Bytes of the shared window a CTA addresses: `.shared::cta` addresses are below 2^18 (the
/// wgmma matrix descriptor holds a shared address as 14 bits of `addr >> 4`; sm_90 gives a
/// block at most 227 KB).
const SHARED_WINDOW: u128 = 1 << 18;

/// The address of a `ptx.shared_decl`: a multiple of its alignment, and low enough that the
/// whole buffer fits the shared window — a static buffer's `size` bytes, the dynamic buffer's
/// `tilus.smem_bytes` (the size the kernel is launched with). So the address arithmetic of
/// shared tiles (base + stage offset + element offset) has a known bound, and the masks of
/// the wgmma descriptors (`(addr >> 4) & 0x3FFF`) are decided.
fn addressof_facts(ctx: &Context, op: OpId, a: AddressofOp, ty: Ty) -> Facts {
    let top = Facts::top(ty);
    let name = match ctx.attr_kind(a.global_name(ctx)) {
        tilus_ir::AttrKind::SymbolRef { root, .. } => root.clone(),
        _ => return top,
    };
    let mut entry = None;
    let mut decl = None;
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if entry.is_none() && EntryOp::cast(ctx, p).is_some() {
            entry = Some(p);
        }
        for &r in ctx.regions(p) {
            for &b in ctx.region_blocks(r) {
                for o in ctx.block_ops(b) {
                    if let Some(d) = SharedDeclOp::cast(ctx, o) {
                        if decl.is_none() && d.sym_name(ctx) == name.as_str() {
                            decl = Some(d);
                        }
                    }
                }
            }
        }
        cur = ctx.parent_op(p);
    }
    let Some(d) = decl else {
        return top;
    };
    let size = match d.size(ctx) {
        Some(n) => Some(n),
        None => entry.and_then(|e| {
            tilus_dialects::tilus_types::prop_i64(
                ctx,
                e,
                tilus_dialects::tilus::attr_names::SMEM_BYTES,
            )
        }),
    };
    let size = size.filter(|n| *n >= 1).map_or(1, |n| n as u128);
    if size > SHARED_WINDOW {
        return top;
    }
    let align = d.alignment(ctx);
    let tz = if align > 0 && (align as u64).is_power_of_two() {
        align.trailing_zeros()
    } else {
        0
    };
    let hi = (SHARED_WINDOW - size).min(lang_mask(ty));
    Facts::range(ty, 0, hi, tz)
}

fn lang_mask(ty: Ty) -> u128 {
    tilus_dialects::arith::mask(ty.width)
}

/// What a kernel or function declares about parameter `i` (`tilus.range`,
/// `tilus.divisibility` in its `arg_attrs`), when `b` is its entry block. A range that reaches
/// below zero says nothing about the unsigned interval, so only its divisibility counts then.
fn param_facts(ctx: &Context, b: BlockId, i: usize, ty: Ty) -> Option<Facts> {
    let region = ctx.block_parent(b)?;
    let op = ctx.region_parent(region)?;
    if ctx.region_blocks(region).first() != Some(&b) {
        return None;
    }
    let pf = tilus_dialects::tilus::param_facts(ctx, op, i);
    if pf == Default::default() {
        return None;
    }
    let m = tilus_dialects::arith::mask(ty.width);
    let tz = pf.divisor.map_or(0, |d| d.trailing_zeros());
    let (lo, hi) = match pf.range {
        Some((lo, hi)) if lo >= 0 => ((lo as u128).min(m), (hi as u128).min(m)),
        _ => (0, m),
    };
    // Round the ends inward to the multiples the divisor allows.
    let step = 1u128 << tz.min(ty.width);
    let lo = lo.div_ceil(step).saturating_mul(step);
    let hi = hi / step * step;
    Some(if lo > hi {
        // No value of the type keeps the facts: nothing can be said.
        Facts::top(ty)
    } else {
        Facts::range(ty, lo, hi, tz)
    })
}

/// An `scf.for` induction variable lies in `[lb, ub)`: below `ub` when `ub` is known, else
/// below the signed maximum (the loop compares signed unless `unsignedCmp`).
fn loop_iv_facts(
    ctx: &Context,
    b: BlockId,
    ty: Ty,
    depth: u32,
    cache: &mut FxHashMap<Value, Facts>,
) -> Option<Facts> {
    let region = ctx.block_parent(b)?;
    let f = ForOp::cast(ctx, ctx.region_parent(region)?)?;
    if depth == 0 {
        return None;
    }
    let lb = seed_facts(ctx, f.lower_bound(ctx), depth - 1, cache)?;
    let ub = seed_facts(ctx, f.upper_bound(ctx), depth - 1, cache)?;
    let step = seed_facts(ctx, f.step(ctx), depth - 1, cache)?;
    let unsigned = f.unsigned_cmp(ctx);
    if !unsigned && !lb.nonneg() {
        return None;
    }
    let hi = if unsigned || ub.nonneg() {
        ub.hi.checked_sub(1)?
    } else {
        (1u128 << (ty.width - 1)) - 1
    };
    Some(Facts::range(ty, lb.lo, hi.max(lb.lo), lb.tz.min(step.tz)))
}

/// `i1`, a filler for the unused entries of fixed-size child arrays.
const BOOL: Ty = Ty {
    width: 1,
    index: false,
};

/// Saturates and rewrites one block; `None` when it has no rewritable ops.
pub fn rewrite_block(ctx: &mut Context, block: BlockId, s: &mut Settings) -> Option<BlockReport> {
    let ops: Vec<OpId> = ctx.block_ops(block).collect();
    // Each op's position in the block and whether it is rewritable, indexed by op id (a
    // block's ops are looked up a few times each; vectors instead of hash maps).
    let span = ops.iter().map(|o| o.index() + 1).max().unwrap_or(0);
    let mut pos: Vec<usize> = vec![usize::MAX; span];
    for (i, o) in ops.iter().enumerate() {
        pos[o.index()] = i;
    }
    let pos_of = |o: OpId| pos.get(o.index()).copied().filter(|p| *p != usize::MAX);
    let cands: Vec<(OpId, Classified)> = ops
        .iter()
        .filter_map(|o| classify(ctx, *o).map(|c| (*o, c)))
        .collect();
    if cands.is_empty() {
        return None;
    }
    let mut is_cand = vec![false; span];
    for (o, _) in &cands {
        is_cand[o.index()] = true;
    }

    // Build the e-graph. A value the analysis finds constant while the graph is built (most
    // of a folding block) stays out of it as a `Slot::Const` until an op that does go in, or
    // the skeleton, reads it: a constant only folded ops read never becomes a class.
    let mut vars: Vec<Value> = Vec::new();
    let mut var_facts: Vec<Facts> = Vec::new();
    let mut cache = FxHashMap::default();
    let mut class_of: FxHashMap<Value, Slot> =
        FxHashMap::with_capacity_and_hasher(2 * cands.len(), Default::default());
    let mut leaf_ids: FxHashMap<Kind, Id> = FxHashMap::default();
    let mut eg = EG::new(EqAnalysis::default());
    let mut cost_before = 0.0;
    let mut roots: Vec<(OpId, Value, Id)> = Vec::new();
    let mut original: Vec<(Node, Id)> = Vec::new();
    for (op, c) in &cands {
        if let Some(Kind::TileTy(t)) = c.head {
            eg.analysis
                .tiles
                .entry(t)
                .or_insert_with(|| tile_info(ctx, t).expect("classified tile ops have tiles"));
        }
        // The children: the leaves first (type or predicate, the permutation, a constant's
        // literal), then the operands.
        let mut leaves: [Option<Kind>; 3] = [None; 3];
        let mut n_leaves = 0;
        for k in [
            c.head,
            c.extra,
            c.bits.map(|bits| {
                let Some(Kind::Ty(t)) = c.head else {
                    unreachable!("constants have a type")
                };
                Kind::Num(tilus_dialects::arith::sext(bits, t.width))
            }),
        ]
        .into_iter()
        .flatten()
        {
            leaves[n_leaves] = Some(k);
            n_leaves += 1;
        }
        let mut children: [Id; 4] = [Id::from(0usize); 4];
        for (i, k) in leaves[..n_leaves].iter().enumerate() {
            let k = k.expect("counted");
            children[i] = *leaf_ids.entry(k).or_insert_with(|| eg.add(Node::leaf(k)));
        }
        let mut slots: [Slot; 4] = [Slot::Const(BOOL, 0); 4];
        for (i, v) in c.operands.iter().enumerate() {
            slots[i] = match class_of.get(v) {
                Some(s) => *s,
                None => {
                    let s = leaf(ctx, *v, &mut eg, &mut vars, &mut var_facts, &mut cache);
                    class_of.insert(*v, s);
                    s
                }
            };
        }
        let slots = &slots[..c.operands.len()];
        // What the op computes and costs, from its children's facts.
        let (cost, folded) = {
            let mut owned: [Option<Facts>; 4] = [None, None, None, None];
            for (i, s) in slots.iter().enumerate() {
                if let Slot::Const(ty, bits) = s {
                    owned[n_leaves + i] = Some(Facts::constant(*ty, *bits));
                }
            }
            let n = n_leaves + slots.len();
            let top = Facts::top(BOOL);
            let mut kids: [&Facts; 4] = [&top; 4];
            for (i, kid) in kids.iter_mut().enumerate().take(n) {
                *kid = match (&owned[i], i.checked_sub(n_leaves).map(|j| slots[j])) {
                    (Some(f), _) => f,
                    (None, Some(Slot::Class(id))) => &eg[id].data,
                    (None, None) => &eg[children[i]].data,
                    (None, Some(Slot::Const(..))) => unreachable!("constants have facts"),
                };
            }
            let kids = &kids[..n];
            let cost = s.costs.cost_of(c.kind, kids, &eg.analysis.tiles);
            let folded = lang::transfer(c.kind, kids).and_then(|f| Some((f.ty?, f.konst()?)));
            (cost, folded)
        };
        cost_before += cost;
        let r = ctx.results(*op)[0];
        let is_root = ctx
            .uses(r)
            .iter()
            .any(|u| !is_cand.get(u.op.index()).copied().unwrap_or(false));
        if let Some((ty, k)) = folded {
            // The block's own constants and the values the skeleton reads go in as they come;
            // what another op folds to waits until an op that goes in reads it.
            if c.bits.is_some() || is_root {
                let id = rules::add_const(&mut eg, ty, k);
                class_of.insert(r, Slot::Class(id));
                if is_root {
                    roots.push((*op, r, id));
                }
            } else {
                class_of.insert(r, Slot::Const(ty, k));
            }
            continue;
        }
        for (i, (s, v)) in slots.iter().zip(&c.operands).enumerate() {
            children[n_leaves + i] = match *s {
                Slot::Class(id) => id,
                Slot::Const(ty, bits) => {
                    let id = rules::add_const(&mut eg, ty, bits);
                    class_of.insert(*v, Slot::Class(id));
                    id
                }
            };
        }
        let node = Node::op(c.kind, &children[..n_leaves + slots.len()]);
        let id = eg.add(node.clone());
        original.push((node, id));
        class_of.insert(r, Slot::Class(id));
        if is_root {
            roots.push((*op, r, id));
        }
    }
    eg.rebuild();

    let node_limit = s.node_limit_per_op.saturating_mul(cands.len()) + 1000;
    let limits = schedule::Limits {
        nodes: node_limit,
        iterations: s.iter_limit,
        time: s.time_limit,
        match_limit: schedule::MATCH_LIMIT,
        ban_length: schedule::BAN_LENGTH,
    };
    let outcome = schedule::run(&mut eg, &s.rules, &limits);
    let stop = match &outcome.stop {
        StopReason::Saturated => "saturated",
        StopReason::NodeLimit(_) => "node-limit",
        StopReason::IterationLimit(_) => "iteration-limit",
        StopReason::TimeLimit(_) => "time-limit",
        StopReason::Other(_) => "other",
    };
    let mut report = BlockReport {
        ops: cands.len(),
        enodes: eg.total_number_of_nodes(),
        eclasses: eg.number_of_classes(),
        iterations: outcome.iterations,
        stop: Some(stop),
        cost_before,
        cost_after: cost_before,
        rewritten: false,
    };
    if roots.is_empty() {
        // Nothing is used: the ops are dead, and removing them is DCE's job.
        return Some(report);
    }
    let root_ids: Vec<Id> = roots.iter().map(|r| eg.find(r.2)).collect();
    // The program as it is, as a choice: each class's leaf or constant when it has one, else
    // the op that computed it.
    let mut start: Choice = Choice::default();
    for class in eg.classes() {
        if let Some(n) = class
            .nodes
            .iter()
            .find(|n| matches!(n.kind, Kind::Var(_) | Kind::Const) || n.children().is_empty())
        {
            start.insert(class.id, n.clone());
        }
    }
    for (n, id) in &original {
        let id = eg.find(*id);
        start
            .entry(id)
            .or_insert_with(|| n.clone().map_children(|c| eg.find(c)));
    }
    let Some((choice, cost_after)) = extract::extract(&eg, &s.costs, &root_ids, Some(start)) else {
        return Some(report);
    };
    if cost_after + 1e-9 >= cost_before {
        return Some(report);
    }
    // Every value must be rebuilt after the leaves it reads: a leaf defined in this block at
    // position p can only be read by a root defined after p.
    let var_pos: Vec<Option<usize>> = vars
        .iter()
        .map(|v| match ctx.value_def(*v) {
            ValueDef::Result(o, _) => pos_of(o),
            ValueDef::BlockArg(..) => None,
        })
        .collect();
    let mut latest: FxHashMap<Id, Option<usize>> = FxHashMap::default();
    for (op, _, id) in &roots {
        match latest_leaf(&eg, &choice, &var_pos, eg.find(*id), &mut latest, 0) {
            Some(Some(p)) if p >= pos[op.index()] => return Some(report),
            None => return Some(report),
            _ => {}
        }
    }
    // Write back in block order, sharing values across roots.
    let mut built: FxHashMap<Id, Value> = FxHashMap::default();
    for (op, old, id) in &roots {
        let loc = ctx.op(*op).loc;
        let mut b = OpBuilder::new(ctx);
        b.set_insertion_point_before(*op);
        b.set_loc(loc);
        let new = materialize(
            &mut b,
            &eg,
            &choice,
            &vars,
            eg.find(*id),
            &mut built,
            &mut s.costs.known_consts,
        );
        if new != *old {
            ctx.replace_all_uses(*old, new);
        }
    }
    // The old ops nothing reads any more, found last to first (an op only dead ops read is
    // dead), erased together (see `Context::erase_ops`).
    let mut dead = vec![false; span];
    let mut erase = Vec::new();
    for (op, _) in cands.iter().rev() {
        let unused = ctx.results(*op).iter().all(|r| {
            ctx.uses(*r)
                .iter()
                .all(|u| dead.get(u.op.index()).copied().unwrap_or(false))
        });
        if unused {
            dead[op.index()] = true;
            erase.push(*op);
        }
    }
    ctx.erase_ops(&erase);
    report.cost_after = cost_after;
    report.rewritten = true;
    Some(report)
}

/// Where a value from outside the rewritten ops goes: its constant when it is one, else a
/// fresh leaf with its seeded facts.
fn leaf(
    ctx: &Context,
    v: Value,
    eg: &mut EG,
    vars: &mut Vec<Value>,
    var_facts: &mut Vec<Facts>,
    cache: &mut FxHashMap<Value, Facts>,
) -> Slot {
    let vt = ctx.value_type(v);
    let f = match ty_of(ctx, vt) {
        Some(ty) => {
            if let Some((bits, _)) = constant_of(ctx, v).and_then(|a| int_bits(ctx, a)) {
                return Slot::Class(rules::add_const(eg, ty, bits));
            }
            seed_facts(ctx, v, 12, cache).unwrap_or(Facts::top(ty))
        }
        None => {
            let info = tile_info(ctx, vt).expect("classified operands are integers or tiles");
            eg.analysis.tiles.insert(vt, info);
            Facts::tile(vt)
        }
    };
    let i = vars.len() as u32;
    vars.push(v);
    var_facts.push(f.clone());
    eg.analysis.vars.push(f);
    Slot::Class(eg.add(Node::leaf(Kind::Var(i))))
}

/// Where a value read by the block's rewritable ops is while the graph is built: an e-class,
/// or a constant (type, bits masked to the width) that has no class yet.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Class(Id),
    Const(Ty, u128),
}

/// The latest block position of a leaf the chosen program for `id` reads (`Some(None)`: none
/// in this block); `None` when the choice is incomplete or cyclic.
fn latest_leaf(
    eg: &EG,
    choice: &Choice,
    var_pos: &[Option<usize>],
    id: Id,
    memo: &mut FxHashMap<Id, Option<usize>>,
    depth: usize,
) -> Option<Option<usize>> {
    if let Some(p) = memo.get(&id) {
        return Some(*p);
    }
    if depth > 10_000 {
        return None;
    }
    let node = choice.get(&id)?;
    let mut latest = match node.kind {
        Kind::Var(i) => var_pos[i as usize],
        _ => None,
    };
    for c in node.children() {
        let p = latest_leaf(eg, choice, var_pos, eg.find(*c), memo, depth + 1)?;
        latest = latest.max(p);
    }
    memo.insert(id, latest);
    Some(latest)
}

/// Builds the chosen program for `id` at the builder's insertion point.
fn materialize(
    b: &mut OpBuilder,
    eg: &EG,
    choice: &Choice,
    vars: &[Value],
    id: Id,
    built: &mut FxHashMap<Id, Value>,
    known: &mut FxHashSet<(Ty, u128)>,
) -> Value {
    if let Some(v) = built.get(&id) {
        return *v;
    }
    let node = choice[&id].clone();
    let v = match node.kind {
        Kind::Var(i) => vars[i as usize],
        Kind::Const => {
            let f = &eg[id].data;
            let ty = f.ty.expect("a constant has a type");
            let bits = f.konst().expect("a constant class is constant");
            let t = ir_type(b.ctx_mut(), ty);
            let a = int_attr(b.ctx_mut(), t, bits);
            let c = ConstantOp::build(b, t, a);
            known.insert((ty, bits));
            c.result(b.ctx())
        }
        Kind::Tile(i) => {
            let Some(Kind::TileTy(t)) = eg[node.args[0]].data.meta else {
                unreachable!("tile nodes have their type first")
            };
            let (def, shape) = lang::TILE_OPS[i as usize];
            let first = if shape == TileShape::Permute { 2 } else { 1 };
            let args: Vec<Value> = node.children()[first..]
                .iter()
                .map(|c| materialize(b, eg, choice, vars, eg.find(*c), built, known))
                .collect();
            if shape == TileShape::Permute {
                let Some(Kind::Perm(p)) = eg[node.args[1]].data.meta else {
                    unreachable!("permutes have their permutation second")
                };
                let perm: Vec<i64> = lang::unpack_perm(p).iter().map(|d| *d as i64).collect();
                let a = b.ctx_mut().int_array_attr(64, &perm);
                let op = PermuteSharedOp::build(b, args[0], t, a);
                op.result(b.ctx())
            } else {
                one_result(b, def, args, t)
            }
        }
        _ => {
            let args: Vec<Value> = node.children()[1..]
                .iter()
                .map(|c| materialize(b, eg, choice, vars, eg.find(*c), built, known))
                .collect();
            let head = eg[node.args[0]].data.meta;
            let result_ty = match (node.kind, head) {
                (Kind::Cmp, _) => Ty {
                    width: 1,
                    index: false,
                },
                (_, Some(Kind::Ty(t))) => t,
                _ => unreachable!("op nodes have a type or predicate first"),
            };
            let t = ir_type(b.ctx_mut(), result_ty);
            match (node.kind, head) {
                (Kind::Cmp, Some(Kind::Pred(p))) => {
                    let c = CmpIOp::build(b, args[0], args[1], t, lang::pred_of(p));
                    c.result(b.ctx())
                }
                (Kind::Select, _) => one_result(b, &SELECT, args, t),
                (Kind::Cast(c), _) => one_result(b, c.def(), args, t),
                (Kind::Bin(i), _) => one_result(b, lang::BIN_OPS[i as usize].1, args, t),
                _ => unreachable!("not a value node"),
            }
        }
    };
    built.insert(id, v);
    v
}

fn one_result(
    b: &mut OpBuilder,
    def: &'static tilus_ir::opdef::OpDef,
    operands: Vec<Value>,
    ty: Type,
) -> Value {
    let op = tilus_ir::handle::create(b, def, operands, &[], vec![ty], vec![], vec![]);
    b.ctx().results(op)[0]
}

#[cfg(test)]
mod tests;
