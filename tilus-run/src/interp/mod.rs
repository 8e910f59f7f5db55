//! The CPU interpreter: runs a `tilus.kernel` at tile granularity with exact thread-group,
//! mbarrier, TMA, WGMMA and tcgen05 semantics, and reports deadlocks and misuse instead of
//! hanging (see `docs/design/interpreter.md`).
//!
//! * [`run`] runs a kernel on [`GlobalMemory`](crate::memory::GlobalMemory) buffers;
//! * [`grid`] evaluates the kernel's `blocks` map for a launch;
//! * [`buffer_shapes`] says how large each pointer argument must be.
//!
//! Modules: `machine` (units, CTAs, the scheduler, reports), `exec` (dispatch by op kind, and
//! the op semantics per dialect family in `exec/`),
//! `asyncops` (TMA / MMA engines and race checks), `mbarrier` (the barrier state machine),
//! `tmem` (tensor memory), `value` (runtime values), `affine` (affine maps), `timeline` (the
//! optional recording behind `tilus-run --timeline`).

mod affine;
mod asyncops;
mod exec;
mod global;
pub mod limits;
mod machine;
mod mbarrier;
mod parallel;
pub mod timeline;
mod tmem;
mod value;

use crate::memory::GlobalMemory;
use crate::tensor::DType;
use tilus_dialects::arith::ConstantOp;
use tilus_dialects::tilus::{GlobalViewOp, KernelOp, NumBlocksOp};
use tilus_dialects::tilus_types::{attr_i64s, ptr_elem, TensorType};
use tilus_ir::attrs::AttrKind;
use tilus_ir::handle::KeywordEnum;
use tilus_ir::{Context, Diagnostic, OpId, Value};
use value::{scalar_kind, wrap, Sc, ScalarKind, Val};

/// Evaluates every result of an affine map, with `syms` as the values of its symbols (the
/// kernel parameters, for the lowering's tensor-map sizes) and no dimensions. One evaluator for
/// the grid map and the kernel ABI.
pub fn eval_affine_symbols(
    map: &tilus_ir::attrs::AffineMap,
    syms: &[i64],
) -> Result<Vec<i64>, String> {
    affine::eval_map(map, &[], syms)
}

/// How runnable units and async completions are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Schedule {
    /// Round robin in a fixed order; async work completes a fixed number of steps after issue.
    #[default]
    Deterministic,
    /// Picks a random runnable unit each time and completes async work at random later steps.
    Random { seed: u64 },
}

/// Run options.
#[derive(Clone)]
pub struct Options {
    pub schedule: Schedule,
    /// Ops executed (over all units) before the run is stopped with a report.
    pub max_steps: u64,
    /// Called after each cluster of blocks with (blocks done, blocks in the grid), so a tool can
    /// show progress on long runs; the interpreter itself never prints.
    pub progress: Option<Progress>,
    /// Where to record what every thread group did, step by step (`tilus-run --timeline`);
    /// filled in whether the run succeeds or fails. `None` records nothing and costs nothing.
    /// A run that records takes its clusters on one thread, in grid order.
    pub timeline: Option<std::sync::Arc<std::sync::Mutex<timeline::Timeline>>>,
    /// Threads that run clusters at once (0: the machine's available parallelism; 1: the
    /// sequential run). The results, reports and step counts are the same for every value:
    /// see `docs/design/interpreter.md`, "Blocks in parallel".
    pub threads: usize,
}

/// A progress callback: (blocks done, blocks in the grid).
pub type Progress = std::sync::Arc<dyn Fn(u64, u64) + Send + Sync>;

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("schedule", &self.schedule)
            .field("max_steps", &self.max_steps)
            .field("progress", &self.progress.is_some())
            .field("timeline", &self.timeline.is_some())
            .field("threads", &self.threads)
            .finish()
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            schedule: Schedule::Deterministic,
            max_steps: 100_000_000,
            progress: None,
            timeline: None,
            threads: 0,
        }
    }
}

/// A kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgValue {
    Int(i64),
    Float(f64),
    /// An index into [`GlobalMemory::buffers`](crate::memory::GlobalMemory).
    Buffer(usize),
}

/// What a successful run did.
#[derive(Clone, Debug, Default)]
pub struct RunStats {
    /// Blocks run.
    pub ctas: u64,
    /// Threads that ran clusters (1: the sequential run).
    pub threads: usize,
    /// Ops executed.
    pub steps: u64,
    /// Warnings (outstanding async work at exit, barriers left mid-phase).
    pub warnings: Vec<Diagnostic>,
}

fn kernel_body(ctx: &Context, kernel: OpId) -> Result<tilus_ir::BlockId, Diagnostic> {
    let Some(k) = KernelOp::cast(ctx, kernel) else {
        return Err(Diagnostic::op(
            kernel,
            format!(
                "expected a tilus.kernel, found '{}'",
                ctx.op_name_str(kernel)
            ),
        ));
    };
    ctx.region_blocks(k.body(ctx))
        .first()
        .copied()
        .ok_or_else(|| Diagnostic::op(kernel, "the kernel has no body"))
}

/// The kernel's parameters bound to `args`.
fn bind_params(ctx: &Context, kernel: OpId, args: &[ArgValue]) -> Result<Vec<Val>, Diagnostic> {
    let body = kernel_body(ctx, kernel)?;
    let params = ctx.block_args(body);
    if params.len() != args.len() {
        return Err(Diagnostic::op(
            kernel,
            format!(
                "the kernel has {} parameter{}, but {} argument{} were given",
                params.len(),
                if params.len() == 1 { "" } else { "s" },
                args.len(),
                if args.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    let mut out = Vec::new();
    for (i, (&p, a)) in params.iter().zip(args).enumerate() {
        let ty = ctx.value_type(p);
        let v = match (a, scalar_kind(ctx, ty), ptr_elem(ctx, ty)) {
            (ArgValue::Buffer(b), _, Some(_)) => Val::Ptr(*b),
            (ArgValue::Int(v), Some(ScalarKind::Int { bits, unsigned }), _) => {
                Val::S(Sc::I(wrap(*v as i128, bits, unsigned)))
            }
            (ArgValue::Int(v), Some(ScalarKind::Float(k)), _) => {
                Val::S(Sc::F(value::round_float(k, *v as f64)))
            }
            (ArgValue::Float(v), Some(ScalarKind::Float(k)), _) => {
                Val::S(Sc::F(value::round_float(k, *v)))
            }
            _ => {
                return Err(Diagnostic::op(
                    kernel,
                    format!(
                        "argument {i} ({a:?}) does not fit parameter {i} of type {}",
                        tilus_dialects::tilus_types::type_str(ctx, ty)
                    ),
                ))
            }
        };
        out.push(v);
    }
    Ok(out)
}

/// The integer value each parameter contributes to affine maps (0 for non-integers).
fn dims_of(args: &[ArgValue]) -> Vec<i64> {
    args.iter()
        .map(|a| match a {
            ArgValue::Int(v) => *v,
            _ => 0,
        })
        .collect()
}

/// The grid of a launch: the kernel's `blocks` map evaluated at the integer arguments, padded
/// with 1 to three dimensions.
pub fn grid(ctx: &Context, kernel: OpId, args: &[ArgValue]) -> Result<[i64; 3], Diagnostic> {
    kernel_body(ctx, kernel)?;
    let a = KernelOp::from_id_unchecked(kernel).blocks(ctx);
    let AttrKind::AffineMap(map) = ctx.attr_kind(a) else {
        return Err(Diagnostic::op(kernel, "'blocks' is not an affine map"));
    };
    let vals = affine::eval_map(map, &dims_of(args), &[])
        .map_err(|e| Diagnostic::op(kernel, format!("evaluating the grid: {e}")))?;
    if vals.is_empty() || vals.len() > 3 {
        return Err(Diagnostic::op(
            kernel,
            format!("the grid map has {} results; expected 1 to 3", vals.len()),
        ));
    }
    let mut g = [1i64; 3];
    for (i, v) in vals.into_iter().enumerate() {
        if v < 1 {
            // CUDA refuses an empty grid (invalid configuration), so the interpreter does too.
            return Err(Diagnostic::op(
                kernel,
                format!(
                    "the grid extent {} evaluates to {v}: a launch needs at least one block along each axis",
                    ["x", "y", "z"][i]
                ),
            )
            .with_help("check the arguments the `blocks` map reads (--arg), or guard the launch for empty problems"));
        }
        g[i] = v;
    }
    check_grid_limits(kernel, g)?;
    Ok(g)
}

/// CUDA's largest grid: x up to 2^31-1 blocks, y and z up to 65,535 (every GPU since compute
/// capability 3.0). A launch beyond it fails on the device, so the interpreter refuses it too
/// rather than spend hours on blocks no GPU would run.
pub const MAX_GRID: [i64; 3] = [i32::MAX as i64, 65535, 65535];

fn check_grid_limits(kernel: OpId, g: [i64; 3]) -> Result<(), Diagnostic> {
    for (i, axis) in ["x", "y", "z"].iter().enumerate() {
        if g[i] > MAX_GRID[i] {
            return Err(Diagnostic::op(
                kernel,
                format!(
                    "the grid ({}, {}, {}) exceeds CUDA's limit: {} blocks along {axis}, at most {}",
                    g[0], g[1], g[2], g[i], MAX_GRID[i]
                ),
            )
            .with_help("split the work over several launches, or give each block more of it"));
        }
    }
    Ok(())
}

fn cluster_of(ctx: &Context, kernel: OpId, grid: [i64; 3]) -> Result<[i64; 3], Diagnostic> {
    let mut c = [1i64; 3];
    if let Some(v) = KernelOp::cast(ctx, kernel)
        .and_then(|k| k.cluster(ctx))
        .and_then(|a| attr_i64s(ctx, a))
    {
        for (i, x) in v.into_iter().take(3).enumerate() {
            c[i] = x.max(1);
        }
    }
    for i in 0..3 {
        if grid[i] % c[i] != 0 {
            return Err(Diagnostic::op(
                kernel,
                format!(
                    "the grid ({}, {}, {}) is not a multiple of the cluster ({}, {}, {})",
                    grid[0], grid[1], grid[2], c[0], c[1], c[2]
                ),
            ));
        }
    }
    Ok(c)
}

/// Runs `kernel` with `args` on `mem`. Errors are reports located at ops (deadlocks, barrier
/// misuse, races with async copies and MMAs, out-of-bounds accesses, ...).
pub fn run(
    ctx: &Context,
    kernel: OpId,
    args: &[ArgValue],
    mem: &mut GlobalMemory,
    opts: &Options,
) -> Result<RunStats, Vec<Diagnostic>> {
    bind_params(ctx, kernel, args).map_err(|d| vec![d])?;
    for a in args {
        if let ArgValue::Buffer(b) = a {
            if *b >= mem.buffers.len() {
                return Err(vec![Diagnostic::op(
                    kernel,
                    format!(
                        "buffer argument {b} does not exist ({} buffers)",
                        mem.buffers.len()
                    ),
                )]);
            }
        }
    }
    let g = grid(ctx, kernel, args).map_err(|d| vec![d])?;
    limits::check_kernel_sizes(ctx, kernel).map_err(|d| vec![d])?;
    let cluster = cluster_of(ctx, kernel, g).map_err(|d| vec![d])?;
    let warps = KernelOp::cast(ctx, kernel).map_or(1, |k| k.warps(ctx));
    let launch = parallel::Launch {
        ctx,
        kernel,
        opts,
        args,
        grid: g,
        cluster,
        block_threads: 32 * warps,
    };
    parallel::run(&launch, mem).map_err(|d| vec![d])
}

/// The number of threads a run with `opts` uses at most (before capping by the clusters).
pub fn threads_for(opts: &Options) -> usize {
    if opts.timeline.is_some() {
        // One recorder, filled in grid order.
        return 1;
    }
    match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Statically evaluates an integer value from the arguments (constants, parameters, `arith`
/// on them, `tilus.num_blocks`).
fn static_int(
    ctx: &Context,
    v: Value,
    params: &[Value],
    args: &[ArgValue],
    grid: [i64; 3],
    depth: usize,
) -> Result<i64, String> {
    if depth > 64 {
        return Err("expression too deep".into());
    }
    if let Some(i) = params.iter().position(|&p| p == v) {
        return match &args[i] {
            ArgValue::Int(x) => Ok(*x),
            other => Err(format!("parameter {i} is {other:?}, not an integer")),
        };
    }
    let Some(op) = ctx.defining_op(v) else {
        return Err("it depends on a loop or region argument".into());
    };
    let kind = scalar_kind(ctx, ctx.value_type(v));
    let (bits, unsigned) = match kind {
        Some(ScalarKind::Int { bits, unsigned }) => (bits, unsigned),
        _ => (64, false),
    };
    let sub = |x: Value| static_int(ctx, x, params, args, grid, depth + 1);
    let width_of = |x: Value| match scalar_kind(ctx, ctx.value_type(x)) {
        Some(ScalarKind::Int { bits, .. }) => bits,
        _ => 64,
    };
    if let Some(c) = ConstantOp::cast(ctx, op) {
        return match ctx.attr_kind(c.value(ctx)) {
            AttrKind::Integer { value, .. } => {
                Ok(wrap(i128::try_from(value).unwrap_or(0), bits, unsigned))
            }
            _ => Err("a non-integer constant".into()),
        };
    }
    if let Some(n) = NumBlocksOp::cast(ctx, op) {
        return Ok(grid[n.dim(ctx).index() as usize]);
    }
    // Integer conversions and binary ops evaluate with the arith semantics, as the
    // interpreter does at run time.
    if let Some((cast, src)) = exec::int_cast(ctx, op) {
        let from = width_of(src);
        let r = cast.eval(exec::int_bits(sub(src)?, from), from, bits);
        return Ok(wrap(r as i128, bits, unsigned));
    }
    if let Some((f, lhs, rhs)) = exec::int_binary(ctx, op) {
        let (a, b) = (sub(lhs)?, sub(rhs)?);
        let r = f
            .eval(exec::int_bits(a, bits), exec::int_bits(b, bits), bits)
            .map_err(|ub| ub.to_string())?;
        return Ok(wrap(r as i128, bits, unsigned));
    }
    Err(format!(
        "it depends on '{}', which is not evaluated statically",
        ctx.op_name_str(op)
    ))
}

/// For each parameter: the element type and extent its `tilus.global_view`s need (their shape
/// when every view of it is compact with one shape, else a 1-D extent covering the largest),
/// evaluated from the scalar arguments; `None` for parameters that are not viewed.
#[allow(clippy::type_complexity)]
pub fn buffer_shapes(
    ctx: &Context,
    kernel: OpId,
    args: &[ArgValue],
) -> Result<Vec<Option<(DType, Vec<i64>)>>, Diagnostic> {
    let body = kernel_body(ctx, kernel)?;
    let params = ctx.block_args(body).to_vec();
    let g = grid(ctx, kernel, args)?;
    // Per parameter: (dtype, shapes (when compact), max elements).
    let mut need: Vec<Option<(DType, Vec<Option<Vec<i64>>>, i64)>> = vec![None; params.len()];
    let mut views = Vec::new();
    ctx.walk(kernel, &mut |o| {
        if let Some(v) = GlobalViewOp::cast(ctx, o) {
            views.push(v);
        }
    });
    for gv in views {
        let o = gv.op();
        let Some(pi) = params.iter().position(|&p| p == gv.ptr(ctx)) else {
            continue;
        };
        let Some(tt) = TensorType::of(ctx, ctx.value_type(gv.result(ctx))) else {
            continue;
        };
        let eval = |vs: &[Value]| -> Result<Vec<i64>, Diagnostic> {
            vs.iter()
                .map(|&v| {
                    static_int(ctx, v, &params, args, g, 0).map_err(|e| {
                        Diagnostic::op(
                            o,
                            format!("the extent or stride of this view cannot be evaluated before the launch: {e}"),
                        )
                    })
                })
                .collect()
        };
        let ext = eval(gv.extents(ctx))?;
        let st = eval(gv.strides(ctx))?;
        let view = exec::build_view(&tt, pi, &ext, &st).map_err(|e| Diagnostic::op(o, e))?;
        let elems = if view.shape.contains(&0) {
            0
        } else {
            1 + view
                .shape
                .iter()
                .zip(&view.strides)
                .map(|(&s, &t)| (s - 1) * t)
                .sum::<i64>()
        };
        let row_major = TensorType {
            strides: None,
            ..tt.clone()
        };
        let compact = tt.strides.is_none()
            || exec::build_view(&row_major, pi, &ext, &[])
                .map(|v| v.strides == view.strides)
                .unwrap_or(false);
        let shape = if compact {
            Some(view.shape.clone())
        } else {
            None
        };
        let e = need[pi].get_or_insert((view.dtype, Vec::new(), 0));
        e.1.push(shape);
        e.2 = e.2.max(elems);
    }
    Ok(need
        .into_iter()
        .map(|n| {
            n.map(|(dt, shapes, elems)| {
                // The first compact view that covers every element any view reaches gives
                // the shape (a kernel may view the same buffer as [M, N] and as
                // [M, N / 64, 64]; the first view written is the one users read it as);
                // otherwise the buffer is flat.
                let covers = |x: &Vec<i64>| x.iter().product::<i64>() == elems;
                match shapes.iter().flatten().next() {
                    Some(s) if shapes.iter().all(|x| x.as_ref().is_some_and(covers)) => {
                        (dt, s.clone())
                    }
                    _ => (dt, vec![elems]),
                }
            })
        })
        .collect())
}
