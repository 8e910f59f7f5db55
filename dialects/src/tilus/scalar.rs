//! Scalars and semaphores: `fast_divmod`, `lock_semaphore`, `release_semaphore`.

use super::*;

/// `tilus.fast_divmod`.
pub static FAST_DIVMOD: OpDef = OpDef {
    name: "tilus.fast_divmod",
    summary: "quotient and remainder by a grid-constant divisor",
    description: "`%q, %r = tilus.fast_divmod %a, %b` is `(a / b, a % b)` for `a >= 0` and \
        `b > 0`, where `b` is grid-constant: a kernel parameter, a constant, \
        `tilus.num_blocks`, or `arith` on those (checked inside a `tilus.kernel`). The host \
        computes a magic multiplier and shift per divisor and the device does `mul.hi.u32` and \
        `shr.u32` (spec §8); constant divisors fold to `/` and `%`.",
    operands: &[one("a", I32), one("b", I32)],
    results: &[one("quotient", I32), one("remainder", I32)],
    traits: &[Trait::Pure],
    verify: Some(verify_fast_divmod),
    format: Format::Declarative("$a `,` $b attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = FAST_DIVMOD.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.fast_divmod`.
    pub struct FastDivmodOp = FAST_DIVMOD;
    operands {
        a = "a": Value,
        b = "b": Value
    }
    results {
        quotient = "quotient": Value,
        remainder = "remainder": Value
    }
    attrs {}
    regions {}
    successors {}
}

macro_rules! semaphore {
    ($id:ident, $name:literal, $summary:literal, $doc:literal) => {
        #[doc = $summary]
        pub static $id: OpDef = OpDef {
            name: $name,
            summary: $summary,
            description: $doc,
            operands: &[
                one("sem", GLOBAL_TENSOR),
                many("offsets", I32),
                one("value", I32),
            ],
            traits: &[Trait::MemRead, Trait::MemWrite],
            verify: Some(verify_semaphore),
            format: Format::Declarative(
                "$sem `[` $offsets `]` `,` $value attr-dict `:` type($sem)",
            ),
            ..OpDef::DEFAULT
        };
        const _: () = $id.check();
    };
}

semaphore!(
    LOCK_SEMAPHORE,
    "tilus.lock_semaphore",
    "spin until a global i32 semaphore holds a value",
    "`tilus.lock_semaphore %sems[%i], %v : !tilus.global<?xi32>` loads the element at the \
        offsets with acquire semantics (`ld.acquire.gpu`) until it equals `%v`. Issued by \
        exactly one thread (wrap it in `threadgroup.single_thread` and synchronize the group \
        after it)."
);

tilus_ir::op_handle! {
    /// Typed handle of `tilus.lock_semaphore`.
    pub struct LockSemaphoreOp = LOCK_SEMAPHORE;
    operands {
        sem = "sem": Value,
        offsets = "offsets": &[Value],
        value = "value": Value
    }
    results {}
    attrs {}
    regions {}
    successors {}
}
semaphore!(
    RELEASE_SEMAPHORE,
    "tilus.release_semaphore",
    "set a global i32 semaphore",
    "`tilus.release_semaphore %sems[%i], %v : !tilus.global<?xi32>` stores `%v` to the element \
        at the offsets with release semantics (`st.release.gpu`), after the thread's earlier \
        writes. Issued by exactly one thread."
);

tilus_ir::op_handle! {
    /// Typed handle of `tilus.release_semaphore`.
    pub struct ReleaseSemaphoreOp = RELEASE_SEMAPHORE;
    operands {
        sem = "sem": Value,
        offsets = "offsets": &[Value],
        value = "value": Value
    }
    results {}
    attrs {}
    regions {}
    successors {}
}

/// Why `v` is not grid-constant, if it is not. Only meaningful inside a kernel.
fn not_grid_constant(ctx: &Context, v: Value, depth: u32) -> Option<String> {
    if depth > 64 {
        return Some("a value computed too deeply to check".into());
    }
    match ctx.defining_op(v) {
        None => {
            let owner = ctx
                .value_block(v)
                .and_then(|b| ctx.block_parent(b))
                .and_then(|r| ctx.region_parent(r));
            match owner {
                Some(o) if ctx.op_name_str(o) == "tilus.kernel" => None,
                Some(o) => Some(format!("a block argument of '{}'", ctx.op_name_str(o))),
                None => Some("a block argument".into()),
            }
        }
        Some(d) => {
            let name = ctx.op_name_str(d);
            if constant_value(ctx, d).is_some() || name == "tilus.num_blocks" {
                None
            } else if name.starts_with("arith.") {
                ctx.operands(d)
                    .iter()
                    .find_map(|o| not_grid_constant(ctx, *o, depth + 1))
            } else {
                Some(format!("a value defined by '{name}'"))
            }
        }
    }
}

fn verify_fast_divmod(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let b = ctx.operands(op)[1];
    if let Some(v) = const_int(ctx, b).filter(|v| *v <= 0) {
        return Err(op_error(
            ctx,
            op,
            format!("expects a positive divisor, but found {v}"),
        ));
    }
    if group_of(ctx, op).is_none() {
        return Ok(());
    }
    if let Some(why) = not_grid_constant(ctx, b, 0) {
        return Err(op_error(
            ctx,
            op,
            format!("expects a grid-constant divisor (kernel parameters, constants, tilus.num_blocks and arith on them), but found {why}"),
        ));
    }
    Ok(())
}

fn verify_semaphore(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let g = tensor(ctx, ops[0]);
    if !is_i32(g.dtype) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a semaphore view of element type 'i32', but found '{}'",
                g.dtype.name()
            ),
        ));
    }
    check_offsets(ctx, op, ops.len() - 2, g.shape.len())?;
    require_group(ctx, op, Need::OneThread)
}
