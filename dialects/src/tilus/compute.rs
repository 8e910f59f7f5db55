//! Register tensor values: casts, element-wise ops, comparisons, reductions, shuffles, `dot`.

use super::*;

/// `tilus.cast`.
pub static CAST: OpDef = OpDef {
    name: "tilus.cast",
    summary: "convert the elements of a register tensor to another type",
    description: "`%y = tilus.cast %x : !tilus.reg<64xf32> to !tilus.reg<64xf16>` converts \
        element-wise (round to nearest even for floats, truncation toward zero from float to \
        int). Shapes are equal, and so are the layouts when both types give one.",
    operands: &[one("x", REG_TENSOR)],
    results: &[one("result", REG_TENSOR)],
    traits: &[Trait::Pure],
    verify: Some(verify_cast),
    format: Format::Declarative("$x attr-dict `:` type($x) `to` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = CAST.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.cast`.
    pub struct CastOp = CAST;
    operands {
        x = "x": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.slice_register`.
pub static SLICE_REGISTER: OpDef = OpDef {
    name: "tilus.slice_register",
    summary: "a box of a register tensor, in the registers that already hold it",
    description: "`%b = tilus.slice_register %t [0, 64] : !tilus.reg<64x256xf16, layout = ...> \
        -> !tilus.reg<64x64xf16, layout = ...>` is the box of the result's shape whose first \
        element is at the static `offsets`. Each thread keeps the elements of the box it \
        held, so no data moves: the box may cut only the register (local) modes of the \
        source's layout, never the modes its threads are spread over, and the result's layout \
        is the source's restricted to the box (written or left to `infer-layouts`). It lets a \
        tile be stored in parts (a wgmma accumulator's 64-column boxes, one per k-step of the \
        next tile in `tma-store-epilogue{spread-stores}`).",
    operands: &[one("src", REG_TENSOR)],
    results: &[one("result", REG_TENSOR)],
    attributes: &[attr("offsets", I64_LIST)],
    traits: &[Trait::Pure],
    verify: Some(verify_slice_register),
    format: Format::Declarative("$src $offsets attr-dict `:` type($src) `->` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = SLICE_REGISTER.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.slice_register`.
    pub struct SliceRegisterOp = SLICE_REGISTER;
    operands {
        src = "src": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        offsets = "offsets": Attr
    }
    regions {}
    successors {}
}

impl SliceRegisterOp {
    /// The box's first element, one offset per dimension (checked by the verifier).
    pub fn offset_values(&self, ctx: &Context) -> Vec<i64> {
        attr_i64s(ctx, self.offsets(ctx)).unwrap_or_default()
    }

    /// The result's layout as the source's restricted to the box, when the source has a
    /// layout and the box cuts only register modes.
    pub fn sliced_layout(&self, ctx: &Context) -> Option<Result<RegisterLayout, String>> {
        let s = tensor(ctx, self.src(ctx));
        let r = tensor(ctx, self.result(ctx));
        let l = s.register_layout()?;
        Some(l.slice(&self.offset_values(ctx), &r.shape))
    }
}

macro_rules! binary {
    ($id:ident, $name:literal, [$($tr:expr),*], $doc:literal) => {
        #[doc = $doc]
        pub static $id: OpDef = OpDef {
            name: $name,
            summary: $doc,
            description: concat!(
                $doc,
                " Written `%z = ", $name, " %x, %y : (!tilus.reg<64x128xf32>, \
                !tilus.reg<64x1xf32>) -> !tilus.reg<64x128xf32>`. Shapes broadcast as in \
                NumPy (aligned at the last dimension; an extent of 1 stretches) and the result \
                has the broadcast shape; element types are all equal. An operand of the \
                result's shape with a layout has the result's layout (elementwise ops move no \
                data)."
            ),
            operands: &[one("lhs", REG_TENSOR), one("rhs", REG_TENSOR)],
            results: &[one("result", REG_TENSOR)],
            traits: &[Trait::Pure $(, $tr)*],
            verify: Some(verify_binary),
            format: Format::Declarative("$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"),
            ..OpDef::DEFAULT
        };
        const _: () = $id.check();
    };
}

binary!(ADD, "tilus.add", [Trait::Commutative], "Element-wise sum.");

tilus_ir::op_handle! {
    /// Typed handle of `tilus.add`.
    pub struct AddOp = ADD;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
binary!(SUB, "tilus.sub", [], "Element-wise difference.");

tilus_ir::op_handle! {
    /// Typed handle of `tilus.sub`.
    pub struct SubOp = SUB;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
binary!(
    MUL,
    "tilus.mul",
    [Trait::Commutative],
    "Element-wise product."
);

tilus_ir::op_handle! {
    /// Typed handle of `tilus.mul`.
    pub struct MulOp = MUL;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
binary!(
    DIV,
    "tilus.div",
    [],
    "Element-wise quotient (integers round toward zero)."
);

tilus_ir::op_handle! {
    /// Typed handle of `tilus.div`.
    pub struct DivOp = DIV;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
binary!(
    MOD,
    "tilus.mod",
    [],
    "Element-wise remainder, with the sign of the dividend (C's `%` and `fmod`)."
);

tilus_ir::op_handle! {
    /// Typed handle of `tilus.mod`.
    pub struct ModOp = MOD;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
binary!(
    MAXIMUM,
    "tilus.maximum",
    [Trait::Commutative],
    "Element-wise maximum."
);

tilus_ir::op_handle! {
    /// Typed handle of `tilus.maximum`.
    pub struct MaximumOp = MAXIMUM;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
binary!(
    MINIMUM,
    "tilus.minimum",
    [Trait::Commutative],
    "Element-wise minimum."
);

tilus_ir::op_handle! {
    /// Typed handle of `tilus.minimum`.
    pub struct MinimumOp = MINIMUM;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.cmp`.
pub static CMP: OpDef = OpDef {
    name: "tilus.cmp",
    summary: "element-wise comparison giving an i1 tensor",
    description: "`%m = tilus.cmp lt %x, %y : (!tilus.reg<64x128xi32>, !tilus.reg<1x128xi32>) \
        -> !tilus.reg<64x128xi1>` compares with `eq`, `ne`, `lt`, `le`, `gt` or `ge` (signed \
        for signless integers, ordered for floats). Operands broadcast as for `tilus.add` and \
        have one element type; the result has the broadcast shape and element type `i1`. Used \
        with `tilus.where` to mask tiles explicitly.",
    operands: &[one("lhs", REG_TENSOR), one("rhs", REG_TENSOR)],
    results: &[one("result", REG_TENSOR)],
    attributes: &[attr("predicate", CMP_PREDICATE)],
    traits: &[Trait::Pure],
    verify: Some(verify_binary),
    format: Format::Declarative(
        "$predicate $lhs `,` $rhs attr-dict `:` functional-type(operands, results)",
    ),
    ..OpDef::DEFAULT
};
const _: () = CMP.check();

tilus_ir::op_enum! {
    /// The cases of a comparison predicate attribute.
    pub enum ComparisonPredicate {
        Eq = "eq",
        Ne = "ne",
        Lt = "lt",
        Le = "le",
        Gt = "gt",
        Ge = "ge"
    }
}

tilus_ir::op_handle! {
    /// Typed handle of `tilus.cmp`.
    pub struct CmpOp = CMP;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        predicate = "predicate": ComparisonPredicate
    }
    regions {}
    successors {}
}

macro_rules! unary {
    // `Handle = ID, ...`: the op and its typed handle.
    ($h:ident = $id:ident, $name:literal, $($rest:tt)*) => {
        unary!($id, $name, $($rest)*);
        tilus_ir::op_handle! {
            #[doc = concat!("Typed handle of `", $name, "`.")]
            pub struct $h = $id;
            operands {
                x = "x": Value
            }
            results {
                result = "result": Value
            }
            attrs {}
            regions {}
            successors {}
        }
    };
    ($id:ident, $name:literal, float, $doc:literal) => {
        unary!(
            $id,
            $name,
            " The element type is a float.",
            verify_unary_float,
            $doc
        );
    };
    ($id:ident, $name:literal, any, $doc:literal) => {
        unary!($id, $name, "", verify_unary, $doc);
    };
    ($id:ident, $name:literal, $float:literal, $verify:expr, $doc:literal) => {
        #[doc = $doc]
        pub static $id: OpDef = OpDef {
            name: $name,
            summary: $doc,
            description: concat!(
                $doc,
                " Written `%y = ",
                $name,
                " %x : !tilus.reg<64x128xf32>`; the result has the operand's type.",
                $float
            ),
            operands: &[one("x", REG_TENSOR)],
            results: &[one("result", REG_TENSOR)],
            traits: &[Trait::Pure, Trait::SameOperandsAndResultType],
            verify: Some($verify),
            format: Format::Declarative("$x attr-dict `:` type($result)"),
            ..OpDef::DEFAULT
        };
        const _: () = $id.check();
    };
}

unary!(ExpOp = EXP, "tilus.exp", float, "Element-wise `e^x`.");
unary!(Exp2Op = EXP2, "tilus.exp2", float, "Element-wise `2^x`.");
unary!(
    LogOp = LOG,
    "tilus.log",
    float,
    "Element-wise natural logarithm."
);
unary!(
    SqrtOp = SQRT,
    "tilus.sqrt",
    float,
    "Element-wise square root."
);
unary!(
    RsqrtOp = RSQRT,
    "tilus.rsqrt",
    float,
    "Element-wise reciprocal square root."
);
unary!(
    TanhOp = TANH,
    "tilus.tanh",
    float,
    "Element-wise hyperbolic tangent."
);
unary!(NegOp = NEG, "tilus.neg", any, "Element-wise negation.");
unary!(
    AbsOp = ABS,
    "tilus.abs",
    any,
    "Element-wise absolute value."
);

/// `tilus.where`.
pub static WHERE: OpDef = OpDef {
    name: "tilus.where",
    summary: "element-wise select",
    description: "`%r = tilus.where %c, %x, %y : (!tilus.reg<64x128xi1>, !tilus.reg<64x128xf32>, \
        !tilus.reg<1x1xf32>) -> !tilus.reg<64x128xf32>` takes `x` where `c` is true and `y` \
        elsewhere. `c` has element type `i1`; `x`, `y` and the result share one element type; \
        the three operands broadcast together to the result's shape.",
    operands: &[
        one("cond", REG_TENSOR),
        one("x", REG_TENSOR),
        one("y", REG_TENSOR),
    ],
    results: &[one("result", REG_TENSOR)],
    traits: &[Trait::Pure],
    verify: Some(verify_where),
    format: Format::Declarative(
        "$cond `,` $x `,` $y attr-dict `:` functional-type(operands, results)",
    ),
    ..OpDef::DEFAULT
};
const _: () = WHERE.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.where`.
    pub struct WhereOp = WHERE;
    operands {
        cond = "cond": Value,
        x = "x": Value,
        y = "y": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.reduce`.
pub static REDUCE: OpDef = OpDef {
    name: "tilus.reduce",
    summary: "reduce a register tensor along one dimension",
    description: "`%s = tilus.reduce sum %x dim(1) keepdim : !tilus.reg<64x128xf32> -> \
        !tilus.reg<64x1xf32>` folds dimension `dim` with `sum`, `max`, `min`, `any` or `all` \
        (the last two on `i1`). The result drops that dimension, or keeps it with extent 1 \
        with `keepdim` (required for a rank-1 input: register tensors have at least one \
        dimension). Every thread that held part of a reduced row holds the result: when both \
        types give layouts, the result's is the input's with the reduced dimension's spatial \
        modes turned into replication (spec §3.1 `reduce`). Within-thread, within-warp \
        (shuffles) and cross-warp (shared memory) steps are the lowering's business.",
    operands: &[one("x", REG_TENSOR)],
    results: &[one("result", REG_TENSOR)],
    attributes: &[
        attr("kind", REDUCE_KIND),
        attr("dim", I64_ATTR),
        opt_attr("keepdim", UNIT_ATTR),
    ],
    traits: &[Trait::Pure],
    verify: Some(verify_reduce),
    format: Format::Declarative(
        "$kind $x `dim` `(` $dim `)` (`keepdim` $keepdim^)? attr-dict `:` type($x) `->` \
         type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = REDUCE.check();

tilus_ir::op_enum! {
    /// The cases of a reduction kind attribute.
    pub enum ReductionKind {
        Sum = "sum",
        Max = "max",
        Min = "min",
        Any = "any",
        All = "all"
    }
}

tilus_ir::op_handle! {
    /// Typed handle of `tilus.reduce`.
    pub struct ReduceOp = REDUCE;
    operands {
        x = "x": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        kind = "kind": ReductionKind,
        dim = "dim": i64,
        keepdim = "keepdim": bool
    }
    regions {}
    successors {}
}

macro_rules! shuffle {
    ($id:ident, $name:literal, $doc:literal) => {
        #[doc = $doc]
        pub static $id: OpDef = OpDef {
            name: $name,
            summary: $doc,
            description: concat!(
                $doc,
                " Written `%y = ",
                $name,
                " %x, %delta : !tilus.reg<32xf32, layout = spatial(32)>`. Each thread's \
                registers are exchanged as a whole (`shfl.sync`), so the result has the \
                operand's type; a lane whose source lies outside its warp keeps its own \
                values. With a replicated layout the replicas of an element can receive \
                different lanes' registers (lane 3 of `replicate(8) * spatial(4)` reads lane 4, \
                a replica of lane 0): the result holds what replica 0 received, which is what \
                a store of it writes. The group must consist of whole warps."
            ),
            operands: &[one("x", REG_TENSOR), one("delta", I32)],
            results: &[one("result", REG_TENSOR)],
            traits: &[Trait::Pure, Trait::AllTypesMatch(&["x", "result"])],
            verify: Some(verify_shuffle),
            format: Format::Declarative("$x `,` $delta attr-dict `:` type($x)"),
            ..OpDef::DEFAULT
        };
        const _: () = $id.check();
    };
}

shuffle!(
    SHUFFLE_UP,
    "tilus.shuffle_up",
    "Each lane receives the registers of lane `lane - delta` of its warp (stencils: the left neighbour)."
);

tilus_ir::op_handle! {
    /// Typed handle of `tilus.shuffle_up`.
    pub struct ShuffleUpOp = SHUFFLE_UP;
    operands {
        x = "x": Value,
        delta = "delta": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
shuffle!(
    SHUFFLE_DOWN,
    "tilus.shuffle_down",
    "Each lane receives the registers of lane `lane + delta` of its warp (stencils: the right neighbour)."
);

tilus_ir::op_handle! {
    /// Typed handle of `tilus.shuffle_down`.
    pub struct ShuffleDownOp = SHUFFLE_DOWN;
    operands {
        x = "x": Value,
        delta = "delta": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.dot`.
pub static DOT: OpDef = OpDef {
    name: "tilus.dot",
    summary: "matrix multiply-accumulate on register tensors",
    description: "`%d = tilus.dot %a, %b, %c : (!tilus.reg<64x16xf16>, !tilus.reg<16x32xf16>, \
        !tilus.reg<64x32xf32>) -> !tilus.reg<64x32xf32>` computes `d = a · b + c` with `a` of \
        shape `MxK`, `b` `KxN`, `c` and `d` `MxN`. `a` and `b` share an element type, `c` and \
        `d` another. The lowering picks `mma.sync` or a SIMT loop by types and target; when \
        `c` and `d` both give layouts they are the same.",
    operands: &[
        one("a", REG_TENSOR),
        one("b", REG_TENSOR),
        one("c", REG_TENSOR),
    ],
    results: &[one("result", REG_TENSOR)],
    traits: &[Trait::Pure],
    verify: Some(verify_dot),
    format: Format::Declarative(
        "$a `,` $b `,` $c attr-dict `:` functional-type(operands, results)",
    ),
    ..OpDef::DEFAULT
};
const _: () = DOT.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.dot`.
    pub struct DotOp = DOT;
    operands {
        a = "a": Value,
        b = "b": Value,
        c = "c": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

fn verify_cast(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let x = tensor(ctx, ctx.operands(op)[0]);
    let r = tensor(ctx, ctx.results(op)[0]);
    check_same_shape(ctx, op, "operand and result", &x, &r)?;
    check_same_layout(ctx, op, "operand and result", &x, &r)?;
    check_result_layouts(ctx, op)
}

fn verify_slice_register(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let h = SliceRegisterOp::cast(ctx, op).expect("tilus.slice_register");
    let s = tensor(ctx, h.src(ctx));
    let r = tensor(ctx, h.result(ctx));
    check_dtypes(ctx, op, "source and result", &s, &r)?;
    let offsets = h.offset_values(ctx);
    if offsets.len() != s.shape.len() || r.shape.len() != s.shape.len() {
        return Err(fail_at(
            op,
            ctx,
            "offsets",
            format!(
                "expects one offset per dimension of the source ({}) and a result of rank {}, \
                 but found {} offset{} and a result of rank {}",
                dims(&s.shape),
                s.shape.len(),
                offsets.len(),
                if offsets.len() == 1 { "" } else { "s" },
                r.shape.len()
            ),
        ));
    }
    for (k, ((&o, &e), &full)) in offsets.iter().zip(&r.shape).zip(&s.shape).enumerate() {
        if o < 0 || e > full || o > full - e {
            return Err(fail_at(
                op,
                ctx,
                "offsets",
                format!(
                    "expects the box inside the source {}, but dim {k} spans [{o}, {}) of {full}",
                    dims(&s.shape),
                    o.saturating_add(e)
                ),
            ));
        }
    }
    if let Some(sliced) = h.sliced_layout(ctx) {
        let want = sliced.map_err(|m| {
            fail_at(
                op,
                ctx,
                "offsets",
                format!("cannot slice the source's layout: {m}"),
            )
        })?;
        if let Some(have) = r.register_layout() {
            if !have.same_mapping(&want) {
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "expects the result layout to be the source's restricted to the box, \
                         '{want}', but found '{have}'"
                    ),
                ));
            }
        }
    }
    check_result_layouts(ctx, op)
}

/// Broadcasts the operands' shapes, checks the result's shape, and the layouts of operands that
/// already have the result's shape.
fn check_broadcast(
    ctx: &Context,
    op: OpId,
    operands: &[TensorType],
    r: &TensorType,
) -> Result<(), Diagnostic> {
    let mut shape = operands[0].shape.clone();
    for o in &operands[1..] {
        shape = broadcast(&shape, &o.shape).ok_or_else(|| {
            op_error(
                ctx,
                op,
                format!(
                    "expects operand shapes that broadcast, but found {}",
                    operands
                        .iter()
                        .map(|o| dims(&o.shape))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            )
        })?;
    }
    if shape != r.shape {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a result of the broadcast shape {}, but found {}",
                dims(&shape),
                dims(&r.shape)
            ),
        ));
    }
    for o in operands {
        if o.shape == r.shape {
            check_same_layout(
                ctx,
                op,
                "an operand of the result's shape and the result",
                o,
                r,
            )?;
        }
    }
    Ok(())
}

fn verify_binary(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let a = tensor(ctx, ctx.operands(op)[0]);
    let b = tensor(ctx, ctx.operands(op)[1]);
    let r = tensor(ctx, ctx.results(op)[0]);
    check_dtypes(ctx, op, "operands", &a, &b)?;
    if ctx.op_name_str(op) == "tilus.cmp" {
        if !is_i1(r.dtype) {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects a result of element type 'i1', but found '{}'",
                    r.dtype.name()
                ),
            ));
        }
    } else {
        check_dtypes(ctx, op, "operands and result", &a, &r)?;
    }
    check_broadcast(ctx, op, &[a, b], &r)?;
    check_result_layouts(ctx, op)
}

fn verify_unary(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    check_result_layouts(ctx, op)
}

fn verify_unary_float(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let x = tensor(ctx, ctx.operands(op)[0]);
    if !x.dtype.is_float() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a float element type, but found '{}'",
                x.dtype.name()
            ),
        ));
    }
    check_result_layouts(ctx, op)
}

fn verify_where(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let c = tensor(ctx, ctx.operands(op)[0]);
    let x = tensor(ctx, ctx.operands(op)[1]);
    let y = tensor(ctx, ctx.operands(op)[2]);
    let r = tensor(ctx, ctx.results(op)[0]);
    if !is_i1(c.dtype) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a condition of element type 'i1', but found '{}'",
                c.dtype.name()
            ),
        ));
    }
    check_dtypes(ctx, op, "both values", &x, &y)?;
    check_dtypes(ctx, op, "values and result", &x, &r)?;
    check_broadcast(ctx, op, &[c, x, y], &r)?;
    check_result_layouts(ctx, op)
}

fn verify_reduce(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let x = tensor(ctx, ctx.operands(op)[0]);
    let r = tensor(ctx, ctx.results(op)[0]);
    let rank = x.shape.len();
    let dim = ctx
        .get_prop(op, "dim")
        .and_then(|a| attr_i64(ctx, a))
        .unwrap_or(-1);
    let keepdim = ctx.get_prop(op, "keepdim").is_some();
    let kind = ctx
        .get_prop(op, "kind")
        .and_then(|a| attr_i64(ctx, a))
        .unwrap_or(0);
    if !(0..=4).contains(&kind) {
        return Err(fail_at(
            op,
            ctx,
            "kind",
            format!(
                "expects a reduction kind in [0, 4] (sum, max, min, any, all), but found {kind}"
            ),
        ));
    }
    if dim < 0 || dim as usize >= rank {
        return Err(fail_at(
            op,
            ctx,
            "dim",
            format!("expects dim in [0, {rank}), but found {dim}"),
        ));
    }
    let dim = dim as usize;
    if rank == 1 && !keepdim {
        return Err(op_error(
            ctx,
            op,
            "expects keepdim when reducing a rank-1 tensor (register tensors have at least one dimension), but found none",
        ));
    }
    if kind >= 3 && !is_i1(x.dtype) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects element type 'i1' for 'any' and 'all', but found '{}'",
                x.dtype.name()
            ),
        ));
    }
    check_dtypes(ctx, op, "operand and result", &x, &r)?;
    let mut shape = x.shape.clone();
    if keepdim {
        shape[dim] = 1;
    } else {
        shape.remove(dim);
    }
    if r.shape != shape {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a result of shape {}, but found {}",
                dims(&shape),
                dims(&r.shape)
            ),
        ));
    }
    if let (Some(lx), Some(lr)) = (x.register_layout(), r.register_layout()) {
        let want: RegisterLayout = lx.reduce(&[dim], keepdim);
        if !want.same_mapping(&lr) {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects the result layout '{want}' (the operand's, reduced), but found '{lr}'"
                ),
            ));
        }
    }
    check_result_layouts(ctx, op)
}

fn verify_shuffle(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    require_group(ctx, op, Need::WholeWarps)?;
    check_result_layouts(ctx, op)
}

fn verify_dot(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let a = tensor(ctx, ctx.operands(op)[0]);
    let b = tensor(ctx, ctx.operands(op)[1]);
    let c = tensor(ctx, ctx.operands(op)[2]);
    let d = tensor(ctx, ctx.results(op)[0]);
    for (n, t) in [("a", &a), ("b", &b), ("c", &c), ("the result", &d)] {
        if t.shape.len() != 2 {
            return Err(op_error(
                ctx,
                op,
                format!("expects {n} of rank 2, but found rank {}", t.shape.len()),
            ));
        }
    }
    let (m, k) = (a.shape[0], a.shape[1]);
    let n = b.shape[1];
    if b.shape[0] != k {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects b of shape {k}xN (K = {k} from a), but found {}",
                dims(&b.shape)
            ),
        ));
    }
    for (what, t) in [("c", &c), ("the result", &d)] {
        if t.shape != [m, n] {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects {what} of shape {m}x{n} (M x N), but found {}",
                    dims(&t.shape)
                ),
            ));
        }
    }
    check_dtypes(ctx, op, "a and b", &a, &b)?;
    check_dtypes(ctx, op, "c and the result", &c, &d)?;
    check_same_layout(ctx, op, "c and the result", &c, &d)?;
    check_result_layouts(ctx, op)
}
