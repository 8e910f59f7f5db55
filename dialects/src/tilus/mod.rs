//! `tilus`: tile-level kernels (spec §1.1, §2, §3.1, §8, §9).
//!
//! A `tilus.kernel` is a grid of thread blocks of `32 * warps` threads; its body works on whole
//! tiles: global views of pointer parameters, shared tensors, and register tensors distributed
//! over the threads of the enclosing group (`threadgroup`). Register tensors are SSA values:
//! every op makes a new one, loops carry them through `scf.for`.
//!
//! | op | custom form |
//! |---|---|
//! | `tilus.kernel` | `tilus.kernel @k(%p: !tilus.ptr<f16>, %m: i32) warps(4) blocks(affine_map<(d0, d1) -> (d1 ceildiv 128)>) cluster(2, 1, 1) { ... }` |
//! | ids | `tilus.block_id x`, `tilus.num_blocks y`, `tilus.thread_id`, `tilus.warp_id`, `tilus.lane_id` |
//! | `tilus.global_view` | `%g = tilus.global_view %p[%m, %k] strides[%ld] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [?, 1]>` |
//! | tensors | `tilus.shared_tensor : T`, `tilus.free_shared %s : T`, `tilus.register_tensor init(%c : f32) : T` |
//! | load/store | `tilus.load_global %g[%i, %j] : G -> R`, `tilus.store_global %r, %g[%i, %j] : R, G`, `tilus.load_shared %s : S -> R`, `tilus.store_shared %r, %s : R, S` |
//! | views | `tilus.slice_shared %s[%i] : S -> S'`, `tilus.permute_shared %s [1, 0] : S -> S'`, `tilus.reshape_shared %s : S -> S'` |
//! | addresses | `%a = tilus.shared_addr %s : S -> i32` |
//! | values | `tilus.cast`, `tilus.add` & co. (broadcasting), `tilus.exp` & co., `tilus.cmp`, `tilus.where`, `tilus.reduce`, `tilus.shuffle_up/down`, `tilus.dot` |
//! | scalars | `%q, %r = tilus.fast_divmod %a, %b` |
//! | semaphores | `tilus.lock_semaphore %g[%i], %v : G`, `tilus.release_semaphore %g[%i], %v : G` |
//!
//! Every op that makes a register tensor with a layout checks that the layout spans exactly the
//! threads of the group it executes in (spec §1.2: tensors created in a group are distributed
//! over that group's threads only).

use crate::common::{op_error, parse_trailing_attrs};
use crate::func::{
    dict_array_prop, function_type, nonempty_dict_array, parse_named_arg, print_fn_args, sym_name,
};
use crate::layout_algebra::RegisterLayout;
use crate::threadgroup::{group_of, require_group, Need};
use crate::tilus_types::{
    attr_i64, attr_i64s, const_int, join_dims, ptr_elem, type_str, DType, Space, TensorType,
    DENSE_I64_ARRAY, DYN, GLOBAL_TENSOR, I64_LIST, PTR, REG_TENSOR, SHARED_TENSOR,
};
use tilus_ir::attrs::AttrKind;
use tilus_ir::opdef::{
    attr, enum_attr, many, maybe, one, opt_attr, AttrConstraint, Format, OpDef, Trait,
    FUNCTION_TYPE_ATTR, I32, I64_ATTR, SCALAR, STR_ATTR, UNIT_ATTR,
};
use tilus_ir::rewrite::constant_value;
use tilus_ir::syntax::parser::{PResult, Parser, RegionArg};
use tilus_ir::types::Signedness;
use tilus_ir::{
    Attr, Context, DiagLoc, Diagnostic, OpId, OperationState, Printer, Span, Type, Value,
};

// ----- constraints --------------------------------------------------------------------------

/// An `affine_map<...>` attribute.
const AFFINE_MAP_ATTR: AttrConstraint = AttrConstraint {
    desc: "affine map attribute",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::AffineMap(_)),
    value_type: None,
    keywords: &[],
    short_form: None,
    form: tilus_ir::opdef::AttrForm::Plain,
};

const DIM_XYZ: AttrConstraint = enum_attr("grid dimension", &["x", "y", "z"]);
const REDUCE_KIND: AttrConstraint =
    enum_attr("reduction kind", &["sum", "max", "min", "any", "all"]);
const CMP_PREDICATE: AttrConstraint = enum_attr(
    "comparison predicate",
    &["eq", "ne", "lt", "le", "gt", "ge"],
);

pub mod attr_names;
mod compute;
mod ids;
mod kernel;
mod memory;
mod scalar;

pub use compute::*;
pub use ids::*;
pub use kernel::*;
pub use memory::*;
pub use scalar::*;

/// The tilus dialect's ops.
pub static OPS: &[&OpDef] = &[
    &KERNEL,
    &BLOCK_ID,
    &NUM_BLOCKS,
    &THREAD_ID,
    &WARP_ID,
    &LANE_ID,
    &GLOBAL_VIEW,
    &SHARED_TENSOR_OP,
    &FREE_SHARED,
    &REGISTER_TENSOR,
    &LOAD_GLOBAL,
    &STORE_GLOBAL,
    &LOAD_SHARED,
    &STORE_SHARED,
    &SLICE_SHARED,
    &PERMUTE_SHARED,
    &RESHAPE_SHARED,
    &SHARED_ADDR,
    &CAST,
    &SLICE_REGISTER,
    &ADD,
    &SUB,
    &MUL,
    &DIV,
    &MOD,
    &MAXIMUM,
    &MINIMUM,
    &CMP,
    &EXP,
    &EXP2,
    &LOG,
    &SQRT,
    &RSQRT,
    &TANH,
    &NEG,
    &ABS,
    &WHERE,
    &REDUCE,
    &SHUFFLE_UP,
    &SHUFFLE_DOWN,
    &DOT,
    &FAST_DIVMOD,
    &LOCK_SEMAPHORE,
    &RELEASE_SEMAPHORE,
];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `tilus` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum TilusOpKind for OPS {
        Kernel(KernelOp),
        BlockId(BlockIdOp),
        NumBlocks(NumBlocksOp),
        ThreadId(ThreadIdOp),
        WarpId(WarpIdOp),
        LaneId(LaneIdOp),
        GlobalView(GlobalViewOp),
        SharedTensor(SharedTensorOp),
        FreeShared(FreeSharedOp),
        RegisterTensor(RegisterTensorOp),
        LoadGlobal(LoadGlobalOp),
        StoreGlobal(StoreGlobalOp),
        LoadShared(LoadSharedOp),
        StoreShared(StoreSharedOp),
        SliceShared(SliceSharedOp),
        PermuteShared(PermuteSharedOp),
        ReshapeShared(ReshapeSharedOp),
        SharedAddr(SharedAddrOp),
        Cast(CastOp),
        SliceRegister(SliceRegisterOp),
        Add(AddOp),
        Sub(SubOp),
        Mul(MulOp),
        Div(DivOp),
        Mod(ModOp),
        Maximum(MaximumOp),
        Minimum(MinimumOp),
        Cmp(CmpOp),
        Exp(ExpOp),
        Exp2(Exp2Op),
        Log(LogOp),
        Sqrt(SqrtOp),
        Rsqrt(RsqrtOp),
        Tanh(TanhOp),
        Neg(NegOp),
        Abs(AbsOp),
        Where(WhereOp),
        Reduce(ReduceOp),
        ShuffleUp(ShuffleUpOp),
        ShuffleDown(ShuffleDownOp),
        Dot(DotOp),
        FastDivmod(FastDivmodOp),
        LockSemaphore(LockSemaphoreOp),
        ReleaseSemaphore(ReleaseSemaphoreOp),
    }
}

// ----- helpers ------------------------------------------------------------------------------

fn fail_at(op: OpId, ctx: &Context, attr: &'static str, msg: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        DiagLoc::OpAttr(op, attr),
        format!("'{}' op {msg}", ctx.op_name_str(op)),
    )
}

/// The tensor type of a value (its constraint was checked before the op's verifier runs).
fn tensor(ctx: &Context, v: Value) -> TensorType {
    TensorType::of(ctx, ctx.value_type(v)).expect("tensor type checked by the op's constraints")
}

fn tstr(ctx: &Context, v: Value) -> String {
    type_str(ctx, ctx.value_type(v))
}

fn dims(shape: &[i64]) -> String {
    if shape.is_empty() {
        return "[]".into();
    }
    join_dims(shape, "x")
}

/// Inside a kernel, every register tensor an op makes that gives a layout must spread it over
/// exactly the threads of the op's group.
fn check_result_layouts(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let Some(g) = group_of(ctx, op) else {
        return Ok(());
    };
    for &r in ctx.results(op) {
        let Some(t) = TensorType::of(ctx, ctx.value_type(r)) else {
            continue;
        };
        if t.space != Space::Register {
            continue;
        }
        let Some(l) = t.register_layout() else {
            continue;
        };
        if l.num_threads() != g.size {
            let mut d = op_error(
                ctx,
                op,
                format!(
                    "expects a result layout over {} thread{} (its group is {}), but found one over {} thread{}",
                    g.size,
                    if g.size == 1 { "" } else { "s" },
                    g.describe(),
                    l.num_threads(),
                    if l.num_threads() == 1 { "" } else { "s" },
                ),
            );
            if let Some(gop) = g.op {
                d = d.with_note(DiagLoc::Op(gop), "the enclosing group is opened here");
            }
            return Err(d);
        }
    }
    Ok(())
}

/// NumPy broadcasting of two shapes.
fn broadcast(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let x = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let y = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out[i] = if x == y || y == 1 {
            x
        } else if x == 1 {
            y
        } else {
            return None;
        };
    }
    Some(out)
}

fn is_i1(d: DType) -> bool {
    matches!(
        d,
        DType::Int {
            bits: 1,
            signedness: Signedness::Signless
        }
    )
}

fn is_i32(d: DType) -> bool {
    matches!(
        d,
        DType::Int {
            bits: 32,
            signedness: Signedness::Signless
        }
    )
}

/// When both types give layouts, they must map threads and registers to the same elements.
fn check_same_layout(
    ctx: &Context,
    op: OpId,
    what: &str,
    a: &TensorType,
    b: &TensorType,
) -> Result<(), Diagnostic> {
    if let (Some(la), Some(lb)) = (a.register_layout(), b.register_layout()) {
        if !la.same_mapping(&lb) {
            return Err(op_error(
                ctx,
                op,
                format!("expects {what} to have the same layout, but found '{la}' and '{lb}'"),
            ));
        }
    }
    Ok(())
}

fn check_offsets(ctx: &Context, op: OpId, n: usize, rank: usize) -> Result<(), Diagnostic> {
    if n != rank {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects {rank} offset{} (one per dimension of the view), but found {n}",
                if rank == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(())
}

fn check_dtypes(
    ctx: &Context,
    op: OpId,
    what: &str,
    a: &TensorType,
    b: &TensorType,
) -> Result<(), Diagnostic> {
    if a.dtype != b.dtype {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects {what} of one element type, but found '{}' and '{}'",
                a.dtype.name(),
                b.dtype.name()
            ),
        ));
    }
    Ok(())
}

fn check_same_shape(
    ctx: &Context,
    op: OpId,
    what: &str,
    a: &TensorType,
    b: &TensorType,
) -> Result<(), Diagnostic> {
    if a.shape != b.shape {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects {what} of one shape, but found {} and {}",
                dims(&a.shape),
                dims(&b.shape)
            ),
        ));
    }
    Ok(())
}

// ----- custom syntax ------------------------------------------------------------------------

/// Parses `[1, 0]` (possibly empty) into integers.
fn parse_int_list(p: &mut Parser, open: &str, close: &str) -> PResult<(Vec<i64>, Span)> {
    p.skip_ws();
    let start = p.pos();
    p.expect(open)?;
    let mut out = Vec::new();
    if !p.eat(close) {
        loop {
            let (text, sp) = p.parse_number_text()?;
            let v = text
                .parse::<i64>()
                .map_err(|_| Diagnostic::at(sp, format!("expected an integer, found '{text}'")))?;
            out.push(v);
            if !p.eat(",") {
                break;
            }
        }
        p.expect(close)?;
    }
    Ok((out, Span::new(start, p.pos())))
}

fn i64_array(p: &mut Parser, vs: &[i64]) -> Attr {
    p.ctx.int_array_attr(64, vs)
}

fn print_trailing_attrs(pr: &mut Printer, op: OpId, keyword: bool) {
    let mut rest = pr.ctx.attrs(op).to_vec();
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    if !rest.is_empty() {
        pr.out.push(' ');
        if keyword {
            pr.out.push_str("attributes ");
        }
        pr.print_attr_dict_entries(&rest, &[]);
    }
}

fn join_i64(vs: &[i64]) -> String {
    vs.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
