//! Units, CTAs and the scheduler.
//!
//! A unit is a set of threads of one CTA that run the same code in lockstep (see
//! `docs/design/interpreter.md`). Units split at group ops and at `scf.if` on per-thread
//! conditions, come back together where the split ends when the other side is still on its
//! way (soft reconvergence, as a warp does after a branch), and merge at `threadgroup.sync`
//! and at collective ops that need the whole group.

use super::asyncops::{AsyncOp, GroupOwner, Groups, Tracked};
use super::global::Global;
use super::mbarrier::Barrier;
use super::tmem::Tmem;
use super::value::{Sc, ScalarKind, Val};
use super::{Options, Schedule};
use crate::memory::{GlobalView, SharedMemory};
use crate::tensor::Tensor;
use std::collections::HashMap;
use std::rc::Rc;
use tilus_ir::{BlockId, Context, DiagLoc, Diagnostic, OpId, Severity};

/// Steps a unit waits for its sibling to leave a region before running on its own (a long
/// region is a role split, not a branch to reconverge after).
pub(crate) const PARK_LIMIT: u64 = 32;

/// Ops a unit runs before the deterministic scheduler moves to the next one.
const QUANTUM: u64 = 16;

/// Shared memory per CTA (sm_90 / sm_100).
pub(crate) const SMEM_CAPACITY: i64 = 232448;

/// A tiny deterministic RNG (xorshift64*).
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `[0, n)` (`n > 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// The seed of cluster `index`'s random schedule: the run's seed for the first cluster (so a
/// one-cluster grid runs the schedule its seed always named), then a fixed odd stride apart.
pub(crate) fn cluster_seed(seed: u64, index: u64) -> u64 {
    seed.wrapping_add(index.wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// The number of clusters of `grid` (a multiple of `cluster`).
pub(crate) fn cluster_count(grid: [i64; 3], cluster: [i64; 3]) -> u64 {
    (0..3).map(|d| (grid[d] / cluster[d]) as u64).product()
}

/// The blocks of cluster number `index` of `grid`, in the order the sequential run takes the
/// clusters (x fastest) and, inside the cluster, z, y, x outermost to innermost. Computed per
/// index, so a grid of billions of blocks is never listed.
pub(crate) fn cluster_blocks(grid: [i64; 3], cluster: [i64; 3], index: u64) -> Vec<[i64; 3]> {
    let [cx, cy, cz] = cluster;
    let (nx, ny) = ((grid[0] / cx) as u64, (grid[1] / cy) as u64);
    let xc = (index % nx) as i64;
    let yc = (index / nx % ny) as i64;
    let zc = (index / (nx * ny)) as i64;
    let mut blocks = Vec::with_capacity((cx * cy * cz) as usize);
    for z in 0..cz {
        for y in 0..cy {
            for x in 0..cx {
                blocks.push([xc * cx + x, yc * cy + y, zc * cz + z]);
            }
        }
    }
    blocks
}

/// Which kind of token a `Val::Token` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    Wgmma,
    TmemLd,
}

/// The result of an async op, readable once retired.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub value: Option<Rc<Tensor>>,
    pub retired: bool,
    pub op: OpId,
    pub kind: TokenKind,
    /// Threads that issued it (tcgen05.ld: retired by their wait_ld).
    pub threads: Vec<u32>,
}

/// One CTA.
pub(crate) struct Cta {
    pub block: [i64; 3],
    pub smem: SharedMemory,
    pub bars: Vec<Barrier>,
    pub tmem: Tmem,
    /// Live shared allocations: (base, bytes, op).
    pub shared_allocs: Vec<(i64, i64, OpId)>,
    pub tokens: Vec<Token>,
    /// Threads that have finished the kernel.
    pub exited: usize,
    /// Commit groups: wgmma per warpgroup, bulk stores per issuing thread.
    pub groups: HashMap<GroupOwner, Groups>,
    /// Group-wide ops (shared allocation and free) that part of a group has performed for the
    /// whole group, by (op, program position): the result and how many threads have passed.
    /// The rest of the group, arriving later, takes the result instead of repeating the op.
    pub group_ops: HashMap<(OpId, PosKey), (Val, usize)>,
    /// Per-thread register count of each warp (`threadgroup.setmaxnreg` changes it); the
    /// block's pool is the register file less what the warps hold.
    pub warp_regs: Vec<i64>,
}

impl Cta {
    /// Registers of the register file no warp holds.
    pub(crate) fn free_registers(&self) -> i64 {
        tilus_dialects::threadgroup::REGISTER_FILE - 32 * self.warp_regs.iter().sum::<i64>()
    }
}

/// Where a unit is in a region.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub kind: FrameKind,
    /// The next op to run in this frame's block (`None`: the block is finished).
    pub next: Option<OpId>,
}

#[derive(Clone, Debug)]
pub(crate) enum FrameKind {
    /// The kernel body: the whole block of threads.
    Root { size: i64 },
    /// A thread group: threads `[begin, begin + size)` of the block.
    Group {
        op: OpId,
        begin: i64,
        size: i64,
        sibling: Option<u64>,
    },
    /// An `scf.for` iteration.
    For {
        op: OpId,
        body: BlockId,
        iv: i64,
        ub: i64,
        step: i64,
        kind: ScalarKind,
        unsigned_cmp: bool,
    },
    /// A region run once for its op's results: a branch of an `scf.if`, a case of an
    /// `scf.index_switch` or the region of an `scf.execute_region`; its `scf.yield` gives the
    /// results. `sibling`: the unit of the threads that took another region of the op (the
    /// two reconverge when both have left). `rest`: the frame of threads whose index picked a
    /// later case than the threads of `sibling` (or a later successor of a `cf` branch); it
    /// has no region of its own (its `next` is `None`): its threads split further, each part in
    /// a nested `Branch` frame of the same op, and leave it once those have reconverged. A
    /// switch of n cases thus reconverges pairwise, as n - 1 nested `scf.if`s.
    Branch {
        op: OpId,
        sibling: Option<u64>,
        rest: bool,
    },
    /// An `scf.while`: trip `trip` (from 0), in its `before` region or (`after`) its `after`
    /// region. `sibling` is the unit of threads that already left the loop (their condition
    /// was false while others' was true), waiting after it for the rest.
    While {
        op: OpId,
        trip: i64,
        after: bool,
        sibling: Option<u64>,
    },
}

impl FrameKind {
    fn key(&self) -> (usize, i64) {
        match self {
            FrameKind::Root { .. } => (usize::MAX, 0),
            FrameKind::Group { op, .. } | FrameKind::Branch { op, .. } => (op.index(), 0),
            FrameKind::For { op, iv, .. } => (op.index(), *iv),
            FrameKind::While {
                op, trip, after, ..
            } => (op.index(), 2 * trip + i64::from(*after)),
        }
    }
}

/// A program position: per frame (region op, loop iteration, next op).
pub(crate) type PosKey = Vec<(usize, i64, usize)>;

/// The program position of a unit: comparable between units.
pub(crate) fn pos_key(frames: &[Frame]) -> PosKey {
    frames
        .iter()
        .map(|f| {
            let (o, iv) = f.kind.key();
            (o, iv, f.next.map_or(usize::MAX, |n| n.index()))
        })
        .collect()
}

/// Why a unit is not running.
#[derive(Clone, Debug)]
pub(crate) enum Block {
    /// At a `threadgroup.sync` of the group `[begin, begin + size)`.
    Sync { op: OpId, begin: i64, size: i64 },
    /// At a collective op, waiting for the rest of its group to arrive and merge.
    Converge { op: OpId, begin: i64, size: i64 },
    /// `mbarrier.wait` while the barrier's phase equals `parity`.
    Bar {
        op: OpId,
        cta: usize,
        bar: usize,
        parity: u8,
    },
    /// `wgmma.wait_group n` or `tma.wait_group n` of `owner`'s commit groups.
    Groups {
        op: OpId,
        owner: GroupOwner,
        n: usize,
    },
    /// `threadgroup.setmaxnreg inc` until the block's register pool has `need` registers.
    Regs { op: OpId, need: i64 },
    /// `tilus.lock_semaphore` until the element equals `value`.
    Sem {
        op: OpId,
        view: Rc<GlobalView>,
        offsets: Vec<i64>,
        value: i64,
    },
}

impl Block {
    pub(crate) fn op(&self) -> OpId {
        match self {
            Block::Sync { op, .. }
            | Block::Converge { op, .. }
            | Block::Bar { op, .. }
            | Block::Groups { op, .. }
            | Block::Regs { op, .. }
            | Block::Sem { op, .. } => *op,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum UState {
    Ready,
    Blocked(Block),
    Done,
    /// Merged into another unit.
    Dead,
}

/// A set of threads of one CTA running in lockstep.
#[derive(Clone, Debug)]
pub(crate) struct Unit {
    pub id: u64,
    pub cta: usize,
    /// Thread indices in the block, sorted.
    pub threads: Vec<u32>,
    pub frames: Vec<Frame>,
    pub env: Vec<Val>,
    pub state: UState,
    /// Waiting to reconverge with this unit (runs only while that one cannot, or after
    /// [`PARK_LIMIT`] steps).
    pub parked_for: Option<u64>,
    /// The step at which the unit was parked.
    pub parked_at: u64,
}

impl Unit {
    /// Gives values `to` (block arguments, an op's results) the values `vals`, in order.
    pub(crate) fn bind(&mut self, to: &[tilus_ir::Value], vals: impl IntoIterator<Item = Val>) {
        for (v, x) in to.iter().zip(vals) {
            self.env[v.index()] = x;
        }
    }
    pub(crate) fn ready(&self) -> bool {
        matches!(self.state, UState::Ready)
    }
    pub(crate) fn alive(&self) -> bool {
        !matches!(self.state, UState::Done | UState::Dead)
    }
    /// The innermost group: (first thread, size).
    pub(crate) fn group(&self) -> (i64, i64) {
        for f in self.frames.iter().rev() {
            match f.kind {
                FrameKind::Root { size } => return (0, size),
                FrameKind::Group { begin, size, .. } => return (begin, size),
                _ => {}
            }
        }
        (0, 0)
    }
    pub(crate) fn describe_threads(&self) -> String {
        describe_threads(&self.threads)
    }
}

/// "threads [a, b)" or a list of ranges.
pub(crate) fn describe_threads(t: &[u32]) -> String {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for &x in t {
        match ranges.last_mut() {
            Some(r) if r.1 == x => r.1 = x + 1,
            _ => ranges.push((x, x + 1)),
        }
    }
    let parts: Vec<String> = ranges.iter().map(|(a, b)| format!("[{a}, {b})")).collect();
    format!(
        "thread{} {}",
        if t.len() == 1 { "" } else { "s" },
        parts.join(" ")
    )
}

/// The interpreter state for one launch.
pub(crate) struct Machine<'a> {
    pub ctx: &'a Context,
    pub kernel: OpId,
    pub opts: &'a Options,
    pub mem: Global<'a>,
    pub params: Vec<Val>,
    pub grid: [i64; 3],
    pub block_threads: i64,
    pub ctas: Vec<Cta>,
    pub units: Vec<Unit>,
    pub next_unit: u64,
    pub asyncs: Vec<AsyncOp>,
    /// Footprints of async ops (in flight or finished) that some thread is not yet ordered
    /// after: the race checks.
    pub tracked: Vec<Tracked>,
    pub next_async: u64,
    /// Scheduler time: one step per op executed.
    pub now: u64,
    pub steps: u64,
    pub latency: u64,
    pub rng: Rng,
    pub warnings: Vec<Diagnostic>,
    /// mbarrier.alloc op → (first barrier, counts).
    pub bar_plan: HashMap<OpId, (usize, Vec<i64>)>,
    pub num_values: usize,
    /// The SSA value of each environment slot of the kernel (its type gives a tile's layout
    /// when units with different tiles merge).
    pub slot_values: Vec<Option<tilus_ir::Value>>,
    /// Barrier phases completed so far (all CTAs): a change preempts the running unit.
    pub flips: u64,
    /// (wait op, barrier alloc, index) already warned about a possible missed phase, with
    /// the warning's index in `warnings`: one warning per wait and barrier in the whole run,
    /// not one per iteration (the merge of parallel clusters drops repeats by the key).
    pub warned_missed: Vec<((OpId, OpId, usize), usize)>,
    /// The run's seed: each cluster's random schedule starts from [`cluster_seed`] of it.
    pub seed: u64,
    rr_last: u64,
    /// Records the run for `--timeline` (`None` unless asked for).
    pub rec: Option<super::timeline::Recorder>,
}

/// Result of executing one op.
pub(crate) enum Flow {
    /// Go on with the next op.
    Next,
    /// Block; the op runs again when the condition holds.
    Wait(Block),
    /// The handler has set the unit's position itself.
    Jump,
}

impl<'a> Machine<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        ctx: &'a Context,
        kernel: OpId,
        opts: &'a Options,
        mem: Global<'a>,
        params: Vec<Val>,
        grid: [i64; 3],
        block_threads: i64,
    ) -> Machine<'a> {
        let seed = match opts.schedule {
            Schedule::Deterministic => 1,
            Schedule::Random { seed } => seed,
        };
        let mut bar_plan = HashMap::new();
        let mut next = 0usize;
        let mut allocs = Vec::new();
        ctx.walk(kernel, &mut |o| {
            if let Some(a) = tilus_dialects::mbarrier::AllocOp::cast(ctx, o) {
                allocs.push(a);
            }
        });
        for a in allocs {
            let o = a.op();
            let n = tilus_dialects::tilus_types::barrier_count(ctx, ctx.value_type(a.barriers(ctx)))
                .unwrap_or(1) as usize;
            let counts = match a
                .counts(ctx)
                .and_then(|c| tilus_dialects::tilus_types::attr_i64s(ctx, c))
            {
                Some(c) => c,
                None => {
                    let g = tilus_dialects::threadgroup::group_of(ctx, o)
                        .map(|g| g.size)
                        .unwrap_or(block_threads);
                    vec![g; n]
                }
            };
            bar_plan.insert(o, (next, counts));
            next += n;
        }
        let mut slot_values = vec![None; ctx.num_values()];
        ctx.walk(kernel, &mut |o| {
            let mut vs: Vec<tilus_ir::Value> = ctx.results(o).to_vec();
            for &r in ctx.regions(o) {
                for &b in ctx.region_blocks(r) {
                    vs.extend_from_slice(ctx.block_args(b));
                }
            }
            for v in vs {
                if let Some(s) = slot_values.get_mut(v.index()) {
                    *s = Some(v);
                }
            }
        });
        Machine {
            ctx,
            kernel,
            opts,
            mem,
            params,
            grid,
            block_threads,
            ctas: Vec::new(),
            units: Vec::new(),
            next_unit: 0,
            asyncs: Vec::new(),
            tracked: Vec::new(),
            next_async: 0,
            now: 0,
            steps: 0,
            latency: 64,
            rng: Rng::new(seed),
            warnings: Vec::new(),
            bar_plan,
            num_values: ctx.num_values(),
            slot_values,
            flips: 0,
            warned_missed: Vec::new(),
            seed,
            rr_last: 0,
            rec: opts.timeline.clone().map(super::timeline::Recorder::new),
        }
    }

    fn body_block(&self) -> BlockId {
        let k = tilus_dialects::tilus::KernelOp::from_id_unchecked(self.kernel);
        self.ctx.region_blocks(k.body(self.ctx))[0]
    }

    /// Runs cluster number `index` of the grid (its `blocks`), from a fresh scheduler: unit and
    /// async ids, time and the random generator start over, so a cluster runs the same way
    /// whichever clusters ran before it and on whichever thread. Steps and warnings add to the
    /// machine's. With a timeline recorder (`tilus-run --timeline`, which runs on one thread),
    /// the cluster's trace starts here and ends with its report, if it fails.
    pub(crate) fn run_cluster(
        &mut self,
        index: u64,
        blocks: &[[i64; 3]],
    ) -> Result<(), Diagnostic> {
        self.next_unit = 0;
        self.next_async = 0;
        self.now = 0;
        self.rr_last = 0;
        self.flips = 0;
        self.rng = Rng::new(cluster_seed(self.seed, index));
        if let Some(r) = &mut self.rec {
            r.begin_cluster(index, blocks, self.now);
        }
        let result = self.run_cluster_blocks(blocks);
        if let Some(rec) = &mut self.rec {
            if let Err(d) = &result {
                let op = match d.loc {
                    tilus_ir::DiagLoc::Op(o) => Some(o),
                    _ => None,
                };
                let mut text = d.message.clone();
                for n in &d.notes {
                    text.push_str("\n  ");
                    text.push_str(&n.message);
                }
                rec.report(self.now, op, text);
            }
            rec.end_cluster(self.now);
        }
        result
    }

    fn run_cluster_blocks(&mut self, blocks: &[[i64; 3]]) -> Result<(), Diagnostic> {
        self.ctas.clear();
        self.units.clear();
        self.asyncs.clear();
        self.tracked.clear();
        let nbars: usize = self.bar_plan.values().map(|(_, c)| c.len()).sum();
        let body = self.body_block();
        for (rank, b) in blocks.iter().enumerate() {
            // Starting a block counts one step per thread, so `--max-steps` bounds a huge grid
            // of short blocks too (their set-up, not their few ops, is where the time goes).
            self.steps = self.steps.saturating_add(self.block_threads as u64);
            if self.steps > self.opts.max_steps {
                return Err(self.step_limit_report());
            }
            let mut bars = Vec::with_capacity(nbars);
            let mut plan: Vec<(&OpId, &(usize, Vec<i64>))> = self.bar_plan.iter().collect();
            plan.sort_by_key(|(_, (first, _))| *first);
            for (op, (_, counts)) in plan {
                for (i, &c) in counts.iter().enumerate() {
                    bars.push(Barrier::new(c, *op, i));
                }
            }
            self.ctas.push(Cta {
                block: *b,
                smem: SharedMemory::new(SMEM_CAPACITY),
                bars,
                tmem: Tmem::new(),
                shared_allocs: Vec::new(),
                tokens: Vec::new(),
                exited: 0,
                groups: HashMap::new(),
                group_ops: HashMap::new(),
                warp_regs: vec![
                    tilus_dialects::threadgroup::launch_registers(self.block_threads);
                    (self.block_threads as usize).div_ceil(32)
                ],
            });
            let mut env = vec![Val::Undef; self.num_values];
            for (i, &a) in self.ctx.block_args(body).iter().enumerate() {
                env[a.index()] = self.params.get(i).cloned().unwrap_or(Val::Undef);
            }
            self.next_unit += 1;
            self.units.push(Unit {
                id: self.next_unit,
                cta: rank,
                threads: (0..self.block_threads as u32).collect(),
                frames: vec![Frame {
                    kind: FrameKind::Root {
                        size: self.block_threads,
                    },
                    next: self.ctx.block_first(body),
                }],
                env,
                state: UState::Ready,
                parked_for: None,
                parked_at: 0,
            });
        }
        self.schedule()?;
        self.exit_checks()
    }

    /// Whether a blocked unit may go on.
    fn block_ready(&self, u: &Unit, b: &Block) -> bool {
        match b {
            Block::Sync { .. } | Block::Converge { .. } => false,
            Block::Bar {
                cta, bar, parity, ..
            } => self.ctas[*cta].bars[*bar].phase != *parity,
            Block::Groups { owner, n, .. } => match self.ctas[u.cta].groups.get(owner) {
                Some(g) => !self.older_groups_in_flight(g, *n),
                None => true,
            },
            Block::Regs { need, .. } => self.ctas[u.cta].free_registers() >= *need,
            Block::Sem {
                view,
                offsets,
                value,
                ..
            } => {
                let shape = vec![1; offsets.len()];
                match self.mem.load_box(view, offsets, &shape) {
                    Ok(t) => t.data.first().copied() == Some(*value as f64),
                    Err(_) => true,
                }
            }
        }
    }

    /// Wakes blocked units whose condition holds; returns the indices of runnable units.
    fn runnable(&mut self) -> Vec<usize> {
        for i in 0..self.units.len() {
            if let UState::Blocked(b) = &self.units[i].state {
                if self.block_ready(&self.units[i], b) {
                    self.units[i].state = UState::Ready;
                }
            }
        }
        let ready_ids: Vec<u64> = self
            .units
            .iter()
            .filter(|u| u.ready())
            .map(|u| u.id)
            .collect();
        let now = self.now;
        let mut out: Vec<usize> = (0..self.units.len())
            .filter(|&i| {
                let u = &self.units[i];
                u.ready()
                    && u.parked_for
                        .is_none_or(|p| !ready_ids.contains(&p) || now >= u.parked_at + PARK_LIMIT)
            })
            .collect();
        if out.is_empty() {
            // Only parked units are ready (a cycle): let the first one go.
            if let Some(i) = (0..self.units.len()).find(|&i| self.units[i].ready()) {
                self.units[i].parked_for = None;
                out.push(i);
            }
        }
        out
    }

    fn schedule(&mut self) -> Result<(), Diagnostic> {
        loop {
            self.units
                .retain(|u| !matches!(u.state, UState::Dead | UState::Done));
            self.complete_due()?;
            let run = self.runnable();
            if run.is_empty() {
                if self.units.is_empty() {
                    return Ok(());
                }
                if self.complete_next()? {
                    continue;
                }
                return Err(self.deadlock_report());
            }
            let (pick, budget) = match self.opts.schedule {
                Schedule::Deterministic => {
                    let i = run
                        .iter()
                        .copied()
                        .find(|&i| self.units[i].id > self.rr_last)
                        .unwrap_or(run[0]);
                    (i, QUANTUM)
                }
                Schedule::Random { .. } => {
                    let i = run[self.rng.below(run.len() as u64) as usize];
                    (i, 1 + self.rng.below(6))
                }
            };
            self.rr_last = self.units[pick].id;
            self.units[pick].parked_for = None;
            for _ in 0..budget {
                self.steps += 1;
                self.now += 1;
                if self.steps > self.opts.max_steps {
                    return Err(self.step_limit_report());
                }
                let flips = self.flips;
                self.step_unit(pick)?;
                let u = &self.units[pick];
                if !u.ready() || u.parked_for.is_some() {
                    break;
                }
                self.complete_due()?;
                // A barrier phase completed: let the units waiting on it run now, as they
                // would on hardware (this is what exposes stages reused too early).
                if self.flips != flips {
                    break;
                }
            }
        }
    }

    /// Runs one op (or one region transition) of unit `ui`.
    fn step_unit(&mut self, ui: usize) -> Result<(), Diagnostic> {
        if let Some(r) = &mut self.rec {
            let u = &self.units[ui];
            r.step(
                u.cta,
                &u.threads,
                self.now,
                u.frames.last().and_then(|f| f.next),
            );
        }
        let Some(op) = self.units[ui].frames.last().expect("a frame").next else {
            return self.end_block(ui, Vec::new());
        };
        if let Some(y) = tilus_dialects::scf::YieldOp::cast(self.ctx, op) {
            let vals: Vec<Val> = y
                .results(self.ctx)
                .iter()
                .map(|&v| self.units[ui].env[v.index()].clone())
                .collect();
            return self.end_block(ui, vals);
        }
        if tilus_dialects::scf::ConditionOp::is(self.ctx, op) {
            return self.while_condition(ui, op);
        }
        match self.exec(ui, op)? {
            Flow::Next => {
                let next = self.ctx.next_op(op);
                if let Some(f) = self.units[ui].frames.last_mut() {
                    f.next = next;
                }
            }
            Flow::Jump => {}
            Flow::Wait(b) => {
                let collective = matches!(b, Block::Sync { .. } | Block::Converge { .. });
                let cta = self.units[ui].cta;
                if self.rec.is_some() {
                    let what = self.wait_text(cta, &b);
                    let threads = self.units[ui].threads.clone();
                    if let Some(r) = &mut self.rec {
                        r.block(cta, &threads, self.now, b.op(), what);
                    }
                }
                self.units[ui].state = UState::Blocked(b);
                if collective {
                    self.resolve_collectives(cta);
                }
            }
        }
        Ok(())
    }

    /// The end of the current block (with the values of its `scf.yield`).
    fn end_block(&mut self, ui: usize, vals: Vec<Val>) -> Result<(), Diagnostic> {
        let frame = self.units[ui].frames.last().cloned().expect("a frame");
        match frame.kind {
            FrameKind::Root { .. } => {
                let n = self.units[ui].threads.len();
                let cta = self.units[ui].cta;
                if let Some(r) = &mut self.rec {
                    r.done(cta, &self.units[ui].threads, self.now);
                }
                self.units[ui].state = UState::Done;
                self.ctas[cta].exited += n;
                self.resolve_collectives(cta);
            }
            FrameKind::For {
                op,
                body,
                iv,
                ub,
                step,
                kind,
                unsigned_cmp,
            } => {
                let niv = match kind {
                    ScalarKind::Int { bits, unsigned } => {
                        super::value::wrap(iv as i128 + step as i128, bits, unsigned)
                    }
                    ScalarKind::Float(_) => iv + step,
                };
                let more = if unsigned_cmp {
                    let bits = match kind {
                        ScalarKind::Int { bits, .. } => bits,
                        _ => 64,
                    };
                    super::value::as_unsigned(niv, bits) < super::value::as_unsigned(ub, bits)
                } else {
                    niv < ub
                };
                if more {
                    let args = self.ctx.block_args(body).to_vec();
                    let u = &mut self.units[ui];
                    u.env[args[0].index()] = Val::S(Sc::I(niv));
                    u.bind(&args[1..], vals);
                    let f = u.frames.last_mut().expect("a frame");
                    f.kind = FrameKind::For {
                        op,
                        body,
                        iv: niv,
                        ub,
                        step,
                        kind,
                        unsigned_cmp,
                    };
                    f.next = self.ctx.block_first(body);
                } else {
                    let results = self.ctx.results(op).to_vec();
                    let u = &mut self.units[ui];
                    u.bind(&results, vals);
                    u.frames.pop();
                }
            }
            FrameKind::While { op, trip, .. } => {
                // The end of `after`: its yield goes to `before`'s arguments, for the next trip.
                let regions = self.ctx.regions(op);
                let before = self.ctx.region_blocks(regions[0])[0];
                let args = self.ctx.block_args(before).to_vec();
                let next = self.ctx.block_first(before);
                let u = &mut self.units[ui];
                u.bind(&args, vals);
                let f = u.frames.last_mut().expect("a frame");
                if let FrameKind::While {
                    trip: t, after: a, ..
                } = &mut f.kind
                {
                    *t = trip + 1;
                    *a = false;
                }
                f.next = next;
            }
            FrameKind::Branch { op, sibling, rest } => {
                // A `rest` frame ends with no yield of its own: its nested case set the results.
                let u = &mut self.units[ui];
                if !rest {
                    u.bind(self.ctx.results(op), vals);
                }
                u.frames.pop();
                self.reconverge(ui, sibling, op);
            }
            FrameKind::Group { op, sibling, .. } => {
                self.units[ui].frames.pop();
                self.reconverge(ui, sibling, op);
            }
        }
        Ok(())
    }

    /// `scf.condition` ending an `scf.while`'s `before` region: the threads whose condition holds
    /// run `after` with the forwarded values; the others leave the loop with them as its
    /// results, and wait after it (parked) for the rest, merging with threads that left
    /// earlier.
    fn while_condition(&mut self, ui: usize, cond: OpId) -> Result<(), Diagnostic> {
        let frame = self.units[ui].frames.last().cloned().expect("a frame");
        let FrameKind::While {
            op, trip, sibling, ..
        } = frame.kind
        else {
            return Err(Diagnostic::op(
                cond,
                "'scf.condition' outside the 'before' region of an 'scf.while'",
            ));
        };
        let operands = self.ctx.operands(cond).to_vec();
        let c = self.units[ui].env[operands[0].index()].clone();
        let threads = self.units[ui].threads.clone();
        let (stay, leave): (Vec<u32>, Vec<u32>) = threads
            .iter()
            .partition(|&&t| c.scalar_at(t).map(|s| s.as_i64() & 1 == 1).unwrap_or(false));
        let forwarded = &operands[1..];
        let results = self.ctx.results(op).to_vec();
        // Leaving: the results are the forwarded values; the frame is left.
        let exit = |m: &mut Self, i: usize| {
            let vals: Vec<Val> = forwarded
                .iter()
                .map(|&v| m.units[i].env[v.index()].clone())
                .collect();
            let u = &mut m.units[i];
            u.bind(&results, vals);
            u.frames.pop();
        };
        if stay.is_empty() {
            exit(self, ui);
            self.reconverge(ui, sibling, op);
            return Ok(());
        }
        let mut sibling = sibling;
        if !leave.is_empty() {
            let j = self.split_off(ui, &leave);
            exit(self, j);
            let here = pos_key(&self.units[j].frames);
            let earlier = sibling.and_then(|sid| {
                self.units
                    .iter()
                    .position(|u| u.id == sid && u.ready() && pos_key(&u.frames) == here)
            });
            let uid = self.units[ui].id;
            match earlier {
                Some(s) => {
                    let keep = self.merge_units(&[s, j]);
                    self.park(keep, uid);
                }
                None => {
                    sibling = Some(self.units[j].id);
                    self.park(j, uid);
                }
            }
        }
        let after = self.ctx.region_blocks(self.ctx.regions(op)[1])[0];
        let args = self.ctx.block_args(after).to_vec();
        let vals: Vec<Val> = forwarded
            .iter()
            .map(|&v| self.units[ui].env[v.index()].clone())
            .collect();
        let next = self.ctx.block_first(after);
        let u = &mut self.units[ui];
        u.bind(&args, vals);
        let f = u.frames.last_mut().expect("a frame");
        f.kind = FrameKind::While {
            op,
            trip,
            after: true,
            sibling,
        };
        f.next = next;
        Ok(())
    }

    /// After unit `ui` left the region of `op` that it entered when it split from `sibling`:
    /// merge with the sibling if it waits at the same place, or wait for it if it is still
    /// inside the region.
    fn reconverge(&mut self, ui: usize, sibling: Option<u64>, op: OpId) {
        let Some(sid) = sibling else { return };
        let Some(si) = self.units.iter().position(|u| u.id == sid && u.alive()) else {
            return;
        };
        if self.units[si].cta != self.units[ui].cta {
            return;
        }
        let here = pos_key(&self.units[ui].frames);
        if self.units[si].ready() && pos_key(&self.units[si].frames) == here {
            self.merge_units(&[ui, si]);
            return;
        }
        let depth = self.units[ui].frames.len();
        let inside = self.units[si].frames.len() > depth
            && pos_key(&self.units[si].frames[..depth]) == here
            && matches!(&self.units[si].frames[depth].kind,
                FrameKind::Group { op: o, .. } | FrameKind::Branch { op: o, .. } if *o == op);
        if inside {
            let uid = self.units[ui].id;
            // The sibling finds this unit when it leaves the region.
            if let Some(f) = self.units[si].frames.get_mut(depth) {
                match &mut f.kind {
                    FrameKind::Group { sibling, .. } | FrameKind::Branch { sibling, .. } => {
                        *sibling = Some(uid)
                    }
                    _ => {}
                }
            }
            self.park(ui, sid);
        }
    }

    /// Parks unit `i` until unit `partner` leaves its region (or blocks).
    pub(crate) fn park(&mut self, i: usize, partner: u64) {
        self.units[i].parked_for = Some(partner);
        self.units[i].parked_at = self.now;
    }

    /// Merges units (same CTA, same position) into the first; the others die.
    pub(crate) fn merge_units(&mut self, idx: &[usize]) -> usize {
        let keep = idx[0];
        let mut threads: Vec<u32> = idx
            .iter()
            .flat_map(|&i| self.units[i].threads.iter().copied())
            .collect();
        threads.sort_unstable();
        threads.dedup();
        let n = self.units[keep].env.len();
        let mut env = Vec::with_capacity(n);
        for s in 0..n {
            let first = &self.units[keep].env[s];
            if idx[1..].iter().all(|&i| self.units[i].env[s].same(first)) {
                env.push(first.clone());
                continue;
            }
            let defined: Vec<usize> = idx
                .iter()
                .copied()
                .filter(|&i| !matches!(self.units[i].env[s], Val::Undef))
                .collect();
            let v0 = &self.units[defined[0]].env[s];
            if defined.iter().all(|&i| self.units[i].env[s].same(v0)) {
                env.push(v0.clone());
            } else if defined.iter().all(|&i| self.units[i].env[s].is_scalar()) {
                let mut pt = vec![Sc::I(0); self.block_threads as usize];
                for &i in &defined {
                    for &t in &self.units[i].threads {
                        if let Some(x) = self.units[i].env[s].scalar_at(t) {
                            pt[t as usize] = x;
                        }
                    }
                }
                env.push(Val::PT(Rc::new(pt)));
            } else if let Some(t) = self.merge_tiles(&defined, s) {
                env.push(Val::Tensor(Rc::new(t)));
            } else {
                env.push(Val::Divergent);
            }
        }
        for &i in &idx[1..] {
            self.units[i].state = UState::Dead;
        }
        let u = &mut self.units[keep];
        u.threads = threads;
        u.env = env;
        u.parked_for = None;
        keep
    }

    /// Units that computed different tiles for slot `s` merge into the tile the GPU holds:
    /// each element from the unit holding replica 0 of it under the tile's register layout
    /// (as a store would write it). `None` when that is ambiguous: the value is not a plain
    /// tile in every unit, or an element's holders in different units disagree.
    fn merge_tiles(&self, idx: &[usize], s: usize) -> Option<Tensor> {
        let v = self.slot_values.get(s).copied().flatten()?;
        let tt = tilus_dialects::tilus_types::TensorType::of(self.ctx, self.ctx.value_type(v))?;
        let tiles: Vec<&Rc<Tensor>> = idx
            .iter()
            .map(|&i| match &self.units[i].env[s] {
                Val::Tensor(t) => Some(t),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let (gb, size) = self.units[idx[0]].group();
        let layout = match tt.register_layout() {
            Some(l) => l,
            None => {
                tilus_passes::lower::tiles::default_layout(&tt.shape, tt.dtype.bits(), size).ok()?
            }
        };
        if layout.shape != tiles[0].shape || tiles.iter().any(|t| t.shape != tiles[0].shape) {
            return None;
        }
        let unit_of = |t: i64| {
            let t = (gb + t) as u32;
            idx.iter()
                .position(|&i| self.units[i].threads.binary_search(&t).is_ok())
        };
        let mut out: Tensor = (**tiles[0]).clone();
        for e in 0..layout.num_elements() {
            let mut coord = vec![0; layout.shape.len()];
            let mut rest = e;
            for d in (0..coord.len()).rev() {
                coord[d] = rest % layout.shape[d];
                rest /= layout.shape[d];
            }
            let (holders, _) = layout.holders(&coord);
            let owners: Vec<usize> = holders.iter().filter_map(|&h| unit_of(h)).collect();
            let Some(&first) = owners.first() else {
                continue;
            };
            let x = tiles[first].data[e as usize];
            if owners
                .iter()
                .any(|&o| tiles[o].data[e as usize].to_bits() != x.to_bits())
            {
                return None;
            }
            out.data[e as usize] = x;
        }
        Some(out)
    }

    /// Releases `threadgroup.sync`s whose group has fully arrived, and merges units gathered
    /// at a collective op.
    pub(crate) fn resolve_collectives(&mut self, cta: usize) {
        let mut keys: Vec<(bool, i64, i64)> = Vec::new();
        for u in &self.units {
            if u.cta != cta {
                continue;
            }
            if let UState::Blocked(b) = &u.state {
                let k = match b {
                    Block::Sync { begin, size, .. } => (true, *begin, *size),
                    Block::Converge { begin, size, .. } => (false, *begin, *size),
                    _ => continue,
                };
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        for (sync, begin, size) in keys {
            let members: Vec<usize> = (0..self.units.len())
                .filter(|&i| {
                    let u = &self.units[i];
                    u.cta == cta
                        && match &u.state {
                            UState::Blocked(Block::Sync {
                                begin: b, size: s, ..
                            }) => sync && *b == begin && *s == size,
                            UState::Blocked(Block::Converge {
                                begin: b, size: s, ..
                            }) => !sync && *b == begin && *s == size,
                            _ => false,
                        }
                })
                .collect();
            let have: usize = members.iter().map(|&i| self.units[i].threads.len()).sum();
            let root = begin == 0 && size == self.block_threads;
            let need = size as usize
                - if root && sync {
                    self.ctas[cta].exited
                } else {
                    0
                };
            if have != need || members.is_empty() {
                continue;
            }
            let key0 = pos_key(&self.units[members[0]].frames);
            let same = members
                .iter()
                .all(|&i| pos_key(&self.units[i].frames) == key0);
            if sync {
                let keep = if same {
                    vec![self.merge_units(&members)]
                } else {
                    members
                };
                self.sync_knowledge(cta, begin, size);
                for i in keep {
                    let op = match &self.units[i].state {
                        UState::Blocked(b) => b.op(),
                        _ => continue,
                    };
                    let next = self.ctx.next_op(op);
                    let u = &mut self.units[i];
                    u.state = UState::Ready;
                    if let Some(f) = u.frames.last_mut() {
                        f.next = next;
                    }
                }
            } else if same {
                let k = self.merge_units(&members);
                self.units[k].state = UState::Ready;
            }
        }
    }

    /// Splits unit `ui`: the threads in `part` move to a new unit at the same position (its
    /// index is returned); the rest stay.
    pub(crate) fn split_off(&mut self, ui: usize, part: &[u32]) -> usize {
        let mut nu = self.units[ui].clone();
        self.next_unit += 1;
        nu.id = self.next_unit;
        nu.threads = part.to_vec();
        nu.parked_for = None;
        self.units[ui].threads.retain(|t| !part.contains(t));
        self.units.push(nu);
        self.units.len() - 1
    }

    /// What a unit blocked on, in a few words (a timeline's wait span).
    fn wait_text(&self, cta: usize, b: &Block) -> String {
        let name = self.ctx.op_name_str(b.op());
        match b {
            Block::Bar {
                cta: c,
                bar,
                parity,
                ..
            } => {
                let br = &self.ctas[*c].bars[*bar];
                let on = if *c == cta {
                    String::new()
                } else {
                    format!(" of CTA {c}")
                };
                format!(
                    "{name}: barrier {}{on} for the phase of parity {parity} (at the wait: {})",
                    br.index,
                    br.describe()
                )
            }
            Block::Sync { begin, size, .. } => {
                format!("{name}: threads [{begin}, {})", begin + size)
            }
            Block::Converge { begin, size, .. } => format!(
                "{name}: waiting for the rest of threads [{begin}, {})",
                begin + size
            ),
            Block::Groups { n, .. } => format!("{name} {n}"),
            Block::Regs { need, .. } => {
                format!("{name}: until {need} registers are free in the block's pool")
            }
            Block::Sem { value, .. } => format!("{name}: until the semaphore equals {value}"),
        }
    }

    fn unit_report_line(&self, u: &Unit) -> (String, Option<OpId>) {
        let cta = &self.ctas[u.cta];
        let who = format!(
            "block ({}, {}, {}): {}",
            cta.block[0],
            cta.block[1],
            cta.block[2],
            u.describe_threads()
        );
        match &u.state {
            UState::Blocked(b) => {
                let op = b.op();
                let name = self.ctx.op_name_str(op);
                let what = match b {
                    Block::Bar {
                        cta: c,
                        bar,
                        parity,
                        ..
                    } => {
                        let br = &self.ctas[*c].bars[*bar];
                        format!(
                            "wait at {name} for the phase of parity {parity} of barrier {} of the mbarrier.alloc at the note below ({}); {}",
                            br.index,
                            br.describe(),
                            self.tx_hint(br)
                        )
                    }
                    Block::Sync { begin, size, .. } => format!(
                        "wait at threadgroup.sync for threads [{begin}, {}) to arrive",
                        begin + size
                    ),
                    Block::Converge { begin, size, .. } => format!(
                        "wait at {name}, a collective op of the group threads [{begin}, {}), for the rest of the group to arrive at it",
                        begin + size
                    ),
                    Block::Groups {
                        owner: GroupOwner::Warpgroup(_),
                        n,
                        ..
                    } => format!("wait at {name} {n} for earlier wgmma groups"),
                    Block::Groups {
                        owner: GroupOwner::Thread(_),
                        n,
                        ..
                    } => format!("wait at {name} {n} for bulk stores"),
                    Block::Regs { need, .. } => format!(
                        "wait at {name} inc for {need} registers of the block's pool, which has {} free (65536 less what every warp holds): the register split overcommits the register file",
                        cta.free_registers()
                    ),
                    Block::Sem { value, .. } => format!(
                        "spin at tilus.lock_semaphore until the semaphore equals {value} (blocks run one cluster at a time, so only this cluster can release it)"
                    ),
                };
                (format!("{who} {what}"), Some(op))
            }
            UState::Ready => (
                format!("{who} wait to reconverge with the other threads of their group"),
                u.frames.last().and_then(|f| f.next),
            ),
            _ => (format!("{who} finished"), None),
        }
    }

    fn tx_hint(&self, b: &Barrier) -> String {
        if b.tx < 0 {
            "the copies delivered more bytes than expect_tx announced (tx-count is negative): the expect_tx byte count is too small".into()
        } else if b.tx > 0 && b.pending == 0 {
            format!(
                "every arrival is in but {} announced bytes never arrived: the expect_tx byte count is too large, or a copy is missing",
                b.tx
            )
        } else if b.pending > 0 {
            format!(
                "{} more arrival{} needed and no unit will make {}",
                b.pending,
                if b.pending == 1 { " is" } else { "s are" },
                if b.pending == 1 { "it" } else { "them" }
            )
        } else {
            String::new()
        }
    }

    fn deadlock_report(&self) -> Diagnostic {
        let blocked: Vec<&Unit> = self.units.iter().filter(|u| u.alive()).collect();
        let first = blocked
            .iter()
            .find_map(|u| match &u.state {
                UState::Blocked(b) => Some(b.op()),
                _ => None,
            })
            .unwrap_or(self.kernel);
        let mut d = Diagnostic::op(
            first,
            format!(
                "deadlock: every live unit is blocked ({} unit{}, no asynchronous work in flight)",
                blocked.len(),
                if blocked.len() == 1 { "" } else { "s" }
            ),
        )
        .with_label("blocked here");
        let mut allocs_noted = Vec::new();
        for u in &blocked {
            let (line, op) = self.unit_report_line(u);
            d = d.with_note(op.map_or(DiagLoc::Unknown, DiagLoc::Op), line);
            if let UState::Blocked(Block::Bar { cta, bar, .. }) = &u.state {
                let a = self.ctas[*cta].bars[*bar].alloc;
                if !allocs_noted.contains(&a) {
                    allocs_noted.push(a);
                    d = d.with_note(DiagLoc::Op(a), "the barriers were allocated here");
                }
            }
        }
        d
    }

    fn step_limit_report(&self) -> Diagnostic {
        let live: Vec<&Unit> = self.units.iter().filter(|u| u.alive()).collect();
        let at = live
            .iter()
            .find_map(|u| u.frames.last().and_then(|f| f.next))
            .unwrap_or(self.kernel);
        let mut d = Diagnostic::op(
            at,
            format!(
                "the run exceeded the step limit ({} steps): a livelock, or a kernel too large for the limit",
                self.opts.max_steps
            ),
        );
        for u in live {
            let (line, op) = self.unit_report_line(u);
            d = d.with_note(op.map_or(DiagLoc::Unknown, DiagLoc::Op), line);
        }
        d
    }

    /// After a cluster finished: drain async work (warning), check barriers and allocations.
    fn exit_checks(&mut self) -> Result<(), Diagnostic> {
        let mut warned: Vec<OpId> = Vec::new();
        while let Some(a) = self.asyncs.first() {
            let op = a.op;
            let what = a.what();
            if !warned.contains(&op) {
                warned.push(op);
                let n = self.asyncs.iter().filter(|x| x.op == op).count();
                self.warnings.push(
                    Diagnostic::op(
                        op,
                        format!(
                            "outstanding asynchronous work at exit: {n} {what}{} issued here still in flight when the block finished (never waited for)",
                            if n == 1 { "" } else { "s" }
                        ),
                    )
                    .with_severity(Severity::Warning),
                );
            }
            self.complete_next()?;
        }
        for cta in &self.ctas {
            for t in &cta.tokens {
                if !t.retired && t.kind == TokenKind::Wgmma && !warned.contains(&t.op) {
                    warned.push(t.op);
                    self.warnings.push(
                        Diagnostic::op(
                            t.op,
                            "outstanding asynchronous work at exit: a wgmma.mma result was never retired by wgmma.wait_group",
                        )
                        .with_severity(Severity::Warning),
                    );
                }
            }
        }
        for cta in &self.ctas {
            for b in &cta.bars {
                if b.tx != 0 {
                    return Err(Diagnostic::op(
                        b.alloc,
                        format!(
                            "tx-count mismatch at exit: barrier {} of block ({}, {}, {}) ends with {} ({})",
                            b.index,
                            cta.block[0],
                            cta.block[1],
                            cta.block[2],
                            b.describe(),
                            if b.tx > 0 {
                                "expect_tx announced bytes that no copy delivered"
                            } else {
                                "copies delivered more bytes than expect_tx announced"
                            }
                        ),
                    ));
                }
                if b.touched && b.pending != b.expected {
                    self.warnings.push(
                        Diagnostic::op(
                            b.alloc,
                            format!(
                                "barrier {} of block ({}, {}, {}) ends in the middle of a phase ({})",
                                b.index,
                                cta.block[0],
                                cta.block[1],
                                cta.block[2],
                                b.describe()
                            ),
                        )
                        .with_severity(Severity::Warning),
                    );
                }
            }
            if let Some(&(col, n, op)) = cta.tmem.allocs.first() {
                return Err(Diagnostic::op(
                    op,
                    format!(
                        "tensor memory not freed at exit: block ({}, {}, {}) still holds {n} columns at column {col} (every tcgen05.alloc needs a tcgen05.dealloc)",
                        cta.block[0], cta.block[1], cta.block[2]
                    ),
                ));
            }
        }
        Ok(())
    }
}
