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
//! | views | `tilus.slice_shared %s[%i] : S -> S'`, `tilus.permute_shared %s [1, 0] : S -> S'` |
//! | addresses | `%a = tilus.shared_addr %s : S -> i32` |
//! | values | `tilus.cast`, `tilus.add` & co. (broadcasting), `tilus.exp` & co., `tilus.cmp`, `tilus.where`, `tilus.reduce`, `tilus.shuffle_up/down`, `tilus.dot` |
//! | scalars | `%q, %r = tilus.fast_divmod %a, %b` |
//! | semaphores | `tilus.lock_semaphore %g[%i], %v : G`, `tilus.release_semaphore %g[%i], %v : G` |
//!
//! Every op that makes a register tensor with a layout checks that the layout spans exactly the
//! threads of the group it executes in (spec §1.2: tensors created in a group are distributed
//! over that group's threads only).

use crate::common::{op_error, op_state, parse_trailing_attrs};
use crate::func::{function_type, parse_named_arg, print_fn_args, sym_name};
use crate::layout_algebra::RegisterLayout;
use crate::threadgroup::{group_of, require_group, Need};
use crate::tilus_types::{
    attr_i64, attr_i64s, const_int, join_dims, ptr_elem, type_str, DType, Space, TensorType,
    DENSE_I64_ARRAY, DYN, GLOBAL_TENSOR, PTR, REG_TENSOR, SHARED_TENSOR,
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
};

const DIM_XYZ: AttrConstraint = enum_attr("grid dimension", &["x", "y", "z"]);
const REDUCE_KIND: AttrConstraint =
    enum_attr("reduction kind", &["sum", "max", "min", "any", "all"]);
const CMP_PREDICATE: AttrConstraint = enum_attr(
    "comparison predicate",
    &["eq", "ne", "lt", "le", "gt", "ge"],
);

// ----- kernel -------------------------------------------------------------------------------

/// `tilus.kernel`.
pub const KERNEL: OpDef = OpDef {
    name: "tilus.kernel",
    summary: "a GPU kernel: a grid of thread blocks running one tile program",
    description: "`tilus.kernel @name(%p: !tilus.ptr<f16>, %m: i32) warps(4) \
        blocks(affine_map<(d0, d1) -> (d1 ceildiv 128)>) cluster(2, 1, 1) { ... }` defines the \
        symbol `sym_name`; the entry block's arguments are the kernel parameters \
        (`function_type` has no results). Every block runs the body with `32 * warps` threads \
        (`warps` in 1..=32), which form the root thread group. `blocks` is the grid: an affine \
        map with one dimension per parameter (in order; only integer parameters are meaningful) \
        and 1 to 3 results, so the host evaluates it from the launch arguments (`ceildiv` is \
        Tilus's `cdiv`). The optional `cluster` gives 1 to 3 positive extents of a thread-block \
        cluster (sm_90+; the grid must be a multiple of it). The body is one block without \
        terminator, isolated from above.",
    attributes: &[
        attr("sym_name", STR_ATTR),
        attr("function_type", FUNCTION_TYPE_ATTR),
        attr("warps", I64_ATTR),
        attr("blocks", AFFINE_MAP_ATTR),
        opt_attr("cluster", DENSE_I64_ARRAY),
    ],
    regions: &[tilus_ir::opdef::block_region("body")],
    traits: &[
        Trait::Symbol,
        Trait::IsolatedFromAbove,
        Trait::SingleBlock,
        Trait::NoTerminator,
    ],
    verify: Some(verify_kernel),
    format: Format::Custom {
        parse: parse_kernel,
        print: print_kernel,
    },
    ..OpDef::DEFAULT
};
const _: () = KERNEL.check();

// ----- ids ----------------------------------------------------------------------------------

/// `tilus.block_id`.
pub const BLOCK_ID: OpDef = OpDef {
    name: "tilus.block_id",
    summary: "the index of this thread block in the grid along x, y or z",
    description: "`%b = tilus.block_id x` is `%ctaid.x` as an `i32`, in `[0, grid extent)`.",
    attributes: &[attr("dim", DIM_XYZ)],
    results: &[one("result", I32)],
    traits: &[Trait::Pure],
    format: Format::Declarative("$dim attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = BLOCK_ID.check();

/// `tilus.num_blocks`.
pub const NUM_BLOCKS: OpDef = OpDef {
    name: "tilus.num_blocks",
    summary: "the grid extent along x, y or z",
    description: "`%n = tilus.num_blocks x` is `%nctaid.x` as an `i32`: the value of the \
        kernel's `blocks` map for this launch. It is grid-constant.",
    attributes: &[attr("dim", DIM_XYZ)],
    results: &[one("result", I32)],
    traits: &[Trait::Pure],
    format: Format::Declarative("$dim attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = NUM_BLOCKS.check();

/// `tilus.thread_id`.
pub const THREAD_ID: OpDef = OpDef {
    name: "tilus.thread_id",
    summary: "the index of this thread in the enclosing thread group",
    description: "`%t = tilus.thread_id` is the thread's index relative to the enclosing \
        `threadgroup` group (the whole block at the kernel's top level), in `[0, group size)`. \
        Not `Pure`: the same op means different values in different groups, so it must not be \
        merged with or hoisted to an occurrence in an enclosing group.",
    results: &[one("result", I32)],
    format: Format::Declarative("attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = THREAD_ID.check();

/// `tilus.warp_id`.
pub const WARP_ID: OpDef = OpDef {
    name: "tilus.warp_id",
    summary: "the index of this thread's warp in the enclosing thread group",
    description: "`%w = tilus.warp_id` is `tilus.thread_id / 32`: relative to the enclosing \
        group, hence not `Pure` (see `tilus.thread_id`).",
    results: &[one("result", I32)],
    format: Format::Declarative("attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = WARP_ID.check();

/// `tilus.lane_id`.
pub const LANE_ID: OpDef = OpDef {
    name: "tilus.lane_id",
    summary: "the index of this thread in its hardware warp",
    description: "`%l = tilus.lane_id` is `%laneid`, in `[0, 32)`; it does not depend on the \
        enclosing group.",
    results: &[one("result", I32)],
    traits: &[Trait::Pure],
    format: Format::Declarative("attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = LANE_ID.check();

// ----- global views and tensors ---------------------------------------------------------------

/// `tilus.global_view`.
pub const GLOBAL_VIEW: OpDef = OpDef {
    name: "tilus.global_view",
    summary: "a shaped view of global memory at a pointer parameter",
    description: "`%g = tilus.global_view %p[%m, %k] strides[%ld] : !tilus.ptr<f16> -> \
        !tilus.global<?x?xf16, strides = [?, 1]>` gives the memory at `%p` a shape and strides \
        (compact row-major when the type has no `strides`). There is one `extents` operand per \
        `?` in the shape and one `strides` operand per `?` in the strides, in order; they must \
        be the same in every block (kernel parameters and values computed from them). The \
        element type is the pointer's. Element `x` is at `p + Σ x_d · stride_d`.",
    operands: &[
        one("ptr", PTR),
        many("extents", I32),
        many("strides", I32),
    ],
    results: &[one("result", GLOBAL_TENSOR)],
    traits: &[Trait::Pure, Trait::AttrSizedOperandSegments],
    verify: Some(verify_global_view),
    format: Format::Declarative(
        "$ptr (`[` $extents^ `]`)? (`strides` `[` $strides^ `]`)? attr-dict `:` type($ptr) `->` type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = GLOBAL_VIEW.check();

/// `tilus.shared_tensor`.
pub const SHARED_TENSOR_OP: OpDef = OpDef {
    name: "tilus.shared_tensor",
    summary: "allocate a shared-memory tensor",
    description: "`%s = tilus.shared_tensor : !tilus.shared<3x128x64xf16, swizzle = 128B>` \
        reserves the tensor's footprint in the block's dynamic shared memory (first fit, \
        aligned to 128 bytes, or to the swizzle's repeat of 256/512/1024 bytes) until \
        `tilus.free_shared`. The contents start undefined. At most 227 KiB (232448 bytes) per \
        tensor, the sm_90/sm_100 limit.",
    results: &[one("result", SHARED_TENSOR)],
    verify: Some(verify_shared_tensor),
    format: Format::Declarative("attr-dict `:` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = SHARED_TENSOR_OP.check();

/// `tilus.free_shared`.
pub const FREE_SHARED: OpDef = OpDef {
    name: "tilus.free_shared",
    summary: "release a shared-memory tensor",
    description: "`tilus.free_shared %s : !tilus.shared<...>` ends the allocation made by the \
        `tilus.shared_tensor` that defines `%s` (not a view of it), so later allocations may \
        reuse the space. No asynchronous copy may still target it.",
    operands: &[one("tensor", SHARED_TENSOR)],
    verify: Some(verify_free_shared),
    format: Format::Declarative("$tensor attr-dict `:` type($tensor)"),
    ..OpDef::DEFAULT
};
const _: () = FREE_SHARED.check();

/// `tilus.register_tensor`.
pub const REGISTER_TENSOR: OpDef = OpDef {
    name: "tilus.register_tensor",
    summary: "a register tensor filled with a scalar, or undefined",
    description: "`%r = tilus.register_tensor init(%c : f32) : !tilus.reg<64x64xf32>` makes a \
        register tensor whose elements all equal `%c` (whose type must be the element type); \
        without `init` the contents are undefined. This is also how a scalar joins tile \
        arithmetic: splat it into a `1x1` tensor and let broadcasting do the rest. Inside a \
        group, a layout given in the type must span exactly the group's threads.",
    operands: &[maybe("init", SCALAR)],
    results: &[one("result", REG_TENSOR)],
    traits: &[Trait::Pure],
    verify: Some(verify_register_tensor),
    format: Format::Declarative(
        "(`init` `(` $init^ `:` type($init) `)`)? attr-dict `:` type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = REGISTER_TENSOR.check();

// ----- loads and stores ---------------------------------------------------------------------

/// `tilus.load_global`.
pub const LOAD_GLOBAL: OpDef = OpDef {
    name: "tilus.load_global",
    summary: "load a box of a global view into a register tensor",
    description: "`%r = tilus.load_global %g[%i, %j] : !tilus.global<?x?xf16> -> \
        !tilus.reg<64x64xf16>` reads the box `[offsets, offsets + shape(result))` of the view, \
        one offset per dimension; elements outside the view's extents read as 0. The element \
        types and ranks of view and result agree.",
    operands: &[one("src", GLOBAL_TENSOR), many("offsets", I32)],
    results: &[one("result", REG_TENSOR)],
    verify: Some(verify_load_global),
    format: Format::Declarative(
        "$src `[` $offsets `]` attr-dict `:` type($src) `->` type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = LOAD_GLOBAL.check();

/// `tilus.store_global`.
pub const STORE_GLOBAL: OpDef = OpDef {
    name: "tilus.store_global",
    summary: "store a register tensor into a box of a global view",
    description: "`tilus.store_global %r, %g[%i, %j] : !tilus.reg<64x64xf16>, \
        !tilus.global<?x?xf16>` writes `%r` to the box `[offsets, offsets + shape(%r))`; \
        elements outside the view's extents are skipped. Element types and ranks agree.",
    operands: &[
        one("value", REG_TENSOR),
        one("dst", GLOBAL_TENSOR),
        many("offsets", I32),
    ],
    verify: Some(verify_store_global),
    format: Format::Declarative(
        "$value `,` $dst `[` $offsets `]` attr-dict `:` type($value) `,` type($dst)",
    ),
    ..OpDef::DEFAULT
};
const _: () = STORE_GLOBAL.check();

/// `tilus.load_shared`.
pub const LOAD_SHARED: OpDef = OpDef {
    name: "tilus.load_shared",
    summary: "load a whole shared tensor into a register tensor",
    description: "`%r = tilus.load_shared %s : !tilus.shared<64x32xf16> -> \
        !tilus.reg<64x32xf16>` copies every element (shapes and element types are equal); \
        slice the shared tensor first to load part of it.",
    operands: &[one("src", SHARED_TENSOR)],
    results: &[one("result", REG_TENSOR)],
    verify: Some(verify_load_shared),
    format: Format::Declarative("$src attr-dict `:` type($src) `->` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = LOAD_SHARED.check();

/// `tilus.store_shared`.
pub const STORE_SHARED: OpDef = OpDef {
    name: "tilus.store_shared",
    summary: "store a register tensor into a whole shared tensor",
    description: "`tilus.store_shared %r, %s : !tilus.reg<64x32xf16>, \
        !tilus.shared<64x32xf16>` writes every element; shapes and element types are equal.",
    operands: &[one("value", REG_TENSOR), one("dst", SHARED_TENSOR)],
    verify: Some(verify_store_shared),
    format: Format::Declarative("$value `,` $dst attr-dict `:` type($value) `,` type($dst)"),
    ..OpDef::DEFAULT
};
const _: () = STORE_SHARED.check();

// ----- shared views -------------------------------------------------------------------------

/// `tilus.slice_shared`.
pub const SLICE_SHARED: OpDef = OpDef {
    name: "tilus.slice_shared",
    summary: "index the leading dimensions of a shared tensor (a view)",
    description: "`%t = tilus.slice_shared %s[%stage] : !tilus.shared<3x128x64xf16, swizzle = \
        128B> -> !tilus.shared<128x64xf16, swizzle = 128B>` fixes the first `k` indices \
        (`1 <= k < rank`) and views the rest: the result has the trailing extents, the trailing \
        strides and the same swizzle. No data moves.",
    operands: &[one("src", SHARED_TENSOR), many("indices", I32)],
    results: &[one("result", SHARED_TENSOR)],
    traits: &[Trait::Pure],
    verify: Some(verify_slice_shared),
    format: Format::Declarative(
        "$src `[` $indices `]` attr-dict `:` type($src) `->` type($result)",
    ),
    ..OpDef::DEFAULT
};
const _: () = SLICE_SHARED.check();

/// `tilus.permute_shared`.
pub const PERMUTE_SHARED: OpDef = OpDef {
    name: "tilus.permute_shared",
    summary: "reorder the dimensions of a shared tensor (a view)",
    description: "`%t = tilus.permute_shared %s [1, 0] : !tilus.shared<64x128xf16> -> \
        !tilus.shared<128x64xf16, strides = [1, 128]>`: result dimension `i` is source \
        dimension `perm[i]`, with its extent and stride; the swizzle is kept. The result type \
        must say exactly that (a transpose is not row-major, so it carries `strides`).",
    operands: &[one("src", SHARED_TENSOR)],
    results: &[one("result", SHARED_TENSOR)],
    attributes: &[attr("perm", DENSE_I64_ARRAY)],
    traits: &[Trait::Pure],
    verify: Some(verify_permute_shared),
    format: Format::Custom {
        parse: parse_permute,
        print: print_permute,
    },
    ..OpDef::DEFAULT
};
const _: () = PERMUTE_SHARED.check();

/// `tilus.shared_addr`.
pub const SHARED_ADDR: OpDef = OpDef {
    name: "tilus.shared_addr",
    summary: "the 32-bit shared-window address of a shared tensor's first element",
    description: "`%a = tilus.shared_addr %s : !tilus.shared<128x64xf16, swizzle = 128B> -> i32` \
        is the address, in the CTA's shared window (what `.shared::cta` instructions take), of \
        element `[0, ..., 0]` of a shared tensor or of a view of one (`tilus.slice_shared`, \
        `tilus.permute_shared`). The lowering of async copies and tensor-core operands \
        (`lower-async-to-ptx`) uses it to build TMA destinations and matrix descriptors; \
        shared-memory planning replaces it by the dynamic shared base plus the tensor's \
        compile-time offset.",
    operands: &[one("tensor", SHARED_TENSOR)],
    results: &[one("result", I32)],
    traits: &[Trait::Pure],
    format: Format::Declarative("$tensor attr-dict `:` type($tensor) `->` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = SHARED_ADDR.check();

// ----- register tensor values ---------------------------------------------------------------

/// `tilus.cast`.
pub const CAST: OpDef = OpDef {
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

macro_rules! binary {
    ($id:ident, $name:literal, [$($tr:expr),*], $doc:literal) => {
        #[doc = $doc]
        pub const $id: OpDef = OpDef {
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
binary!(SUB, "tilus.sub", [], "Element-wise difference.");
binary!(
    MUL,
    "tilus.mul",
    [Trait::Commutative],
    "Element-wise product."
);
binary!(
    DIV,
    "tilus.div",
    [],
    "Element-wise quotient (integers round toward zero)."
);
binary!(
    MOD,
    "tilus.mod",
    [],
    "Element-wise remainder, with the sign of the dividend (C's `%` and `fmod`)."
);
binary!(
    MAXIMUM,
    "tilus.maximum",
    [Trait::Commutative],
    "Element-wise maximum."
);
binary!(
    MINIMUM,
    "tilus.minimum",
    [Trait::Commutative],
    "Element-wise minimum."
);

/// `tilus.cmp`.
pub const CMP: OpDef = OpDef {
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

macro_rules! unary {
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
        pub const $id: OpDef = OpDef {
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

unary!(EXP, "tilus.exp", float, "Element-wise `e^x`.");
unary!(EXP2, "tilus.exp2", float, "Element-wise `2^x`.");
unary!(LOG, "tilus.log", float, "Element-wise natural logarithm.");
unary!(SQRT, "tilus.sqrt", float, "Element-wise square root.");
unary!(
    RSQRT,
    "tilus.rsqrt",
    float,
    "Element-wise reciprocal square root."
);
unary!(
    TANH,
    "tilus.tanh",
    float,
    "Element-wise hyperbolic tangent."
);
unary!(NEG, "tilus.neg", any, "Element-wise negation.");
unary!(ABS, "tilus.abs", any, "Element-wise absolute value.");

/// `tilus.where`.
pub const WHERE: OpDef = OpDef {
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

/// `tilus.reduce`.
pub const REDUCE: OpDef = OpDef {
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
    format: Format::Custom {
        parse: parse_reduce,
        print: print_reduce,
    },
    ..OpDef::DEFAULT
};
const _: () = REDUCE.check();

macro_rules! shuffle {
    ($id:ident, $name:literal, $doc:literal) => {
        #[doc = $doc]
        pub const $id: OpDef = OpDef {
            name: $name,
            summary: $doc,
            description: concat!(
                $doc,
                " Written `%y = ",
                $name,
                " %x, %delta : !tilus.reg<32xf32, layout = spatial(32)>`. Each thread's \
                registers are exchanged as a whole (`shfl.sync`), so the result has the \
                operand's type; a lane whose source lies outside its warp keeps its own \
                values. The group must consist of whole warps."
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
shuffle!(
    SHUFFLE_DOWN,
    "tilus.shuffle_down",
    "Each lane receives the registers of lane `lane + delta` of its warp (stencils: the right neighbour)."
);

/// `tilus.dot`.
pub const DOT: OpDef = OpDef {
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

// ----- scalars and semaphores ---------------------------------------------------------------

/// `tilus.fast_divmod`.
pub const FAST_DIVMOD: OpDef = OpDef {
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

macro_rules! semaphore {
    ($id:ident, $name:literal, $summary:literal, $doc:literal) => {
        #[doc = $summary]
        pub const $id: OpDef = OpDef {
            name: $name,
            summary: $summary,
            description: $doc,
            operands: &[
                one("sem", GLOBAL_TENSOR),
                many("offsets", I32),
                one("value", I32),
            ],
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
semaphore!(
    RELEASE_SEMAPHORE,
    "tilus.release_semaphore",
    "set a global i32 semaphore",
    "`tilus.release_semaphore %sems[%i], %v : !tilus.global<?xi32>` stores `%v` to the element \
        at the offsets with release semantics (`st.release.gpu`), after the thread's earlier \
        writes. Issued by exactly one thread."
);

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
    &SHARED_ADDR,
    &CAST,
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

// ----- verifiers ----------------------------------------------------------------------------

fn verify_kernel(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let (inputs, results) = function_type(ctx, op).unwrap_or_default();
    if !results.is_empty() {
        return Err(fail_at(
            op,
            ctx,
            "function_type",
            format!(
                "expects a function_type without results, but found {} result{}",
                results.len(),
                if results.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    let r = ctx.regions(op)[0];
    let Some(&entry) = ctx.region_blocks(r).first() else {
        return Err(op_error(
            ctx,
            op,
            "expects a body, but found an empty region",
        ));
    };
    let args: Vec<Type> = ctx
        .block_args(entry)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    if args != inputs {
        let list = |ts: &[Type]| {
            ts.iter()
                .map(|t| type_str(ctx, *t))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects entry block arguments ({}) matching function_type, but found ({})",
                list(&inputs),
                list(&args)
            ),
        ));
    }
    let warps = ctx
        .get_prop(op, "warps")
        .and_then(|a| attr_i64(ctx, a))
        .unwrap_or(0);
    if !(1..=32).contains(&warps) {
        return Err(fail_at(
            op,
            ctx,
            "warps",
            format!("expects warps in [1, 32], but found {warps}"),
        ));
    }
    if let Some(AttrKind::AffineMap(m)) = ctx.get_prop(op, "blocks").map(|a| ctx.attr_kind(a)) {
        if m.num_dims as usize != inputs.len() || m.num_syms != 0 {
            return Err(fail_at(
                op,
                ctx,
                "blocks",
                format!(
                    "expects a blocks map with {} dimension{} (one per parameter) and no symbols, but found {} dimension{} and {} symbol{}",
                    inputs.len(),
                    if inputs.len() == 1 { "" } else { "s" },
                    m.num_dims,
                    if m.num_dims == 1 { "" } else { "s" },
                    m.num_syms,
                    if m.num_syms == 1 { "" } else { "s" },
                ),
            ));
        }
        if !(1..=3).contains(&m.results.len()) {
            return Err(fail_at(
                op,
                ctx,
                "blocks",
                format!(
                    "expects a blocks map with 1 to 3 results (x, y, z), but found {}",
                    m.results.len()
                ),
            ));
        }
    }
    if let Some(c) = ctx.get_prop(op, "cluster") {
        let v = attr_i64s(ctx, c).unwrap_or_default();
        if v.is_empty() || v.len() > 3 || v.iter().any(|x| *x < 1) {
            return Err(fail_at(
                op,
                ctx,
                "cluster",
                format!(
                    "expects 1 to 3 positive cluster extents, but found ({})",
                    v.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    Ok(())
}

fn verify_global_view(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let elem = ptr_elem(ctx, ctx.value_type(ops[0])).expect("checked by PTR");
    let res = tensor(ctx, ctx.results(op)[0]);
    if elem != res.dtype {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a view of the pointer's element type '{}', but found '{}'",
                elem.name(),
                res.dtype.name()
            ),
        ));
    }
    let def = ctx.op_def(op).unwrap();
    let extents = tilus_ir::format::operand_group(ctx, def, op, "extents").len();
    let strides = tilus_ir::format::operand_group(ctx, def, op, "strides").len();
    let dyn_shape = res.shape.iter().filter(|d| **d == DYN).count();
    let dyn_strides = res
        .strides
        .as_ref()
        .map(|s| s.iter().filter(|d| **d == DYN).count())
        .unwrap_or(0);
    if extents != dyn_shape {
        return Err(op_error(
            ctx,
            op,
            format!("expects {dyn_shape} extent operand{} (one per '?' in the shape), but found {extents}", if dyn_shape == 1 { "" } else { "s" }),
        ));
    }
    if strides != dyn_strides {
        return Err(op_error(
            ctx,
            op,
            format!("expects {dyn_strides} stride operand{} (one per '?' in the strides), but found {strides}", if dyn_strides == 1 { "" } else { "s" }),
        ));
    }
    Ok(())
}

/// The sm_90/sm_100 dynamic shared-memory limit per block.
const MAX_SHARED_BYTES: i64 = 227 * 1024;

fn verify_shared_tensor(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let t = tensor(ctx, ctx.results(op)[0]);
    let footprint = t.shared_layout().map(|l| l.footprint()).unwrap_or(0);
    let bytes = (footprint * t.dtype.bits() as i64 + 7) / 8;
    if bytes > MAX_SHARED_BYTES {
        return Err(op_error(
            ctx,
            op,
            format!("expects a shared tensor of at most {MAX_SHARED_BYTES} bytes, but found {bytes} bytes"),
        ));
    }
    Ok(())
}

fn verify_free_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let v = ctx.operands(op)[0];
    match ctx.defining_op(v) {
        Some(d) if ctx.op_name_str(d) == "tilus.shared_tensor" => Ok(()),
        Some(d) => Err(op_error(
            ctx,
            op,
            format!(
                "expects a tensor made by 'tilus.shared_tensor', but found one made by '{}'",
                ctx.op_name_str(d)
            ),
        )),
        None => Err(op_error(
            ctx,
            op,
            "expects a tensor made by 'tilus.shared_tensor', but found a block argument",
        )),
    }
}

fn verify_register_tensor(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let t = tensor(ctx, ctx.results(op)[0]);
    if let Some(&init) = ctx.operands(op).first() {
        let it = ctx.value_type(init);
        if DType::from_type(ctx, it) != Some(t.dtype) {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "expects an init value of the element type '{}', but found '{}'",
                    t.dtype.name(),
                    type_str(ctx, it)
                ),
            ));
        }
    }
    check_result_layouts(ctx, op)
}

fn verify_load_global(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let g = tensor(ctx, ops[0]);
    let r = tensor(ctx, ctx.results(op)[0]);
    check_offsets(ctx, op, ops.len() - 1, g.shape.len())?;
    if r.shape.len() != g.shape.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a result of the view's rank {}, but found rank {}",
                g.shape.len(),
                r.shape.len()
            ),
        ));
    }
    check_dtypes(ctx, op, "view and result", &g, &r)?;
    check_result_layouts(ctx, op)
}

fn verify_store_global(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let r = tensor(ctx, ops[0]);
    let g = tensor(ctx, ops[1]);
    check_offsets(ctx, op, ops.len() - 2, g.shape.len())?;
    if r.shape.len() != g.shape.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects a value of the view's rank {}, but found rank {}",
                g.shape.len(),
                r.shape.len()
            ),
        ));
    }
    check_dtypes(ctx, op, "value and view", &r, &g)
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

fn verify_load_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let s = tensor(ctx, ctx.operands(op)[0]);
    let r = tensor(ctx, ctx.results(op)[0]);
    check_same_shape(ctx, op, "shared tensor and result", &s, &r)?;
    check_dtypes(ctx, op, "shared tensor and result", &s, &r)?;
    check_result_layouts(ctx, op)
}

fn verify_store_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let r = tensor(ctx, ctx.operands(op)[0]);
    let s = tensor(ctx, ctx.operands(op)[1]);
    check_same_shape(ctx, op, "value and shared tensor", &r, &s)?;
    check_dtypes(ctx, op, "value and shared tensor", &r, &s)
}

/// Compares a shared view's result type with the one the op computes.
fn check_view_result(
    ctx: &Context,
    op: OpId,
    expected: &TensorType,
    expected_strides: &[i64],
) -> Result<(), Diagnostic> {
    let res = tensor(ctx, ctx.results(op)[0]);
    let strides = res.shared_layout().map(|l| l.strides).unwrap_or_default();
    if res.shape != expected.shape
        || res.dtype != expected.dtype
        || res.swizzle != expected.swizzle
        || strides != expected_strides
    {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects result type '{}', but found '{}'",
                expected.text(),
                tstr(ctx, ctx.results(op)[0])
            ),
        ));
    }
    Ok(())
}

fn verify_slice_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let s = tensor(ctx, ctx.operands(op)[0]);
    let k = ctx.operands(op).len() - 1;
    let rank = s.shape.len();
    if k < 1 || k >= rank {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects 1 to {} indices (fewer than the rank {rank}), but found {k}",
                rank.saturating_sub(1)
            ),
        ));
    }
    let src_strides = s.shared_layout().map(|l| l.strides).unwrap_or_default();
    let exp_strides = src_strides[k..].to_vec();
    let expected = TensorType {
        space: Space::Shared,
        shape: s.shape[k..].to_vec(),
        dtype: s.dtype,
        strides: s.strides.as_ref().map(|v| v[k..].to_vec()),
        swizzle: s.swizzle,
        layout: None,
    };
    check_view_result(ctx, op, &expected, &exp_strides)
}

fn verify_permute_shared(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let s = tensor(ctx, ctx.operands(op)[0]);
    let perm = ctx
        .get_prop(op, "perm")
        .and_then(|a| attr_i64s(ctx, a))
        .unwrap_or_default();
    let rank = s.shape.len();
    let mut seen = vec![false; rank];
    let ok = perm.len() == rank
        && perm.iter().all(|&p| {
            p >= 0 && (p as usize) < rank && !std::mem::replace(&mut seen[p as usize], true)
        });
    if !ok {
        return Err(fail_at(
            op,
            ctx,
            "perm",
            format!(
                "expects a permutation of [0, {rank}), but found [{}]",
                perm.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let src_strides = s.shared_layout().map(|l| l.strides).unwrap_or_default();
    let strides: Vec<i64> = perm.iter().map(|&p| src_strides[p as usize]).collect();
    let shape: Vec<i64> = perm.iter().map(|&p| s.shape[p as usize]).collect();
    let row_major = crate::layout_algebra::SharedLayout::row_major(&shape).strides;
    let expected = TensorType {
        space: Space::Shared,
        shape,
        dtype: s.dtype,
        strides: (strides != row_major).then(|| strides.clone()),
        swizzle: s.swizzle,
        layout: None,
    };
    check_view_result(ctx, op, &expected, &strides)
}

fn verify_cast(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let x = tensor(ctx, ctx.operands(op)[0]);
    let r = tensor(ctx, ctx.results(op)[0]);
    check_same_shape(ctx, op, "operand and result", &x, &r)?;
    check_same_layout(ctx, op, "operand and result", &x, &r)?;
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

fn parse_kernel(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let mut props: Vec<(String, Attr)> = Vec::new();
    let (name, sp) = p.parse_symbol_name()?;
    p.note_attr_span("sym_name", sp);
    props.push(("sym_name".into(), p.ctx.str_attr(&name)));
    p.expect("(")?;
    let mut args: Vec<RegionArg> = Vec::new();
    let mut inputs = Vec::new();
    if !p.eat(")") {
        loop {
            let (arg, _) = parse_named_arg(p, false)?;
            inputs.push(arg.ty);
            args.push(arg);
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    let ft = p.ctx.function_type(inputs, vec![]);
    props.push(("function_type".into(), p.ctx.type_attr(ft)));
    p.expect_keyword("warps")?;
    p.expect("(")?;
    let (text, wsp) = p.parse_number_text()?;
    let i64t = p.ctx.int_type(64);
    let w = p.number_attr_typed(&text, i64t, wsp)?;
    p.note_attr_span("warps", wsp);
    props.push(("warps".into(), w));
    p.expect(")")?;
    p.expect_keyword("blocks")?;
    p.expect("(")?;
    let (b, bsp) = p.parse_attribute_spanned()?;
    p.note_attr_span("blocks", bsp);
    props.push(("blocks".into(), b));
    p.expect(")")?;
    if p.eat_keyword("cluster") {
        let (vs, csp) = parse_int_list(p, "(", ")")?;
        p.note_attr_span("cluster", csp);
        let a = i64_array(p, &vs);
        props.push(("cluster".into(), a));
    }
    let attrs = parse_trailing_attrs(p, def, true, &mut props)?;
    let region = p.parse_region(args, true)?;
    // `{}` with no parameters is an empty body: give it its block, as MLIR does for
    // single-block regions without terminator.
    if p.ctx.region_blocks(region).is_empty() {
        let b = p.ctx.create_block(&[]);
        p.ctx.push_block(region, b);
    }
    Ok(op_state(p, def, vec![], vec![], props, attrs, vec![region]))
}

fn print_kernel(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    pr.out.push(' ');
    pr.out
        .push_str(&crate::builtin::ctx_sym(&sym_name(ctx, op)));
    let (inputs, _) = function_type(ctx, op).unwrap_or_default();
    let r = ctx.regions(op)[0];
    let entry = ctx.region_blocks(r).first().copied();
    print_fn_args(pr, entry, &inputs, &[]);
    if let Some(w) = ctx.get_prop(op, "warps") {
        pr.out.push_str(" warps(");
        pr.print_attr_without_type(w);
        pr.out.push(')');
    }
    if let Some(b) = ctx.get_prop(op, "blocks") {
        pr.out.push_str(" blocks(");
        pr.print_attr(b);
        pr.out.push(')');
    }
    if let Some(c) = ctx.get_prop(op, "cluster") {
        pr.out.push_str(" cluster(");
        pr.out
            .push_str(&join_i64(&attr_i64s(ctx, c).unwrap_or_default()));
        pr.out.push(')');
    }
    print_trailing_attrs(pr, op, true);
    if entry.is_some() {
        pr.out.push(' ');
        pr.print_region(r, false, true);
    }
}

fn parse_permute(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let src = p.parse_operand()?;
    let (perm, sp) = parse_int_list(p, "[", "]")?;
    p.note_attr_span("perm", sp);
    let a = i64_array(p, &perm);
    let mut props = vec![("perm".to_string(), a)];
    let attrs = parse_trailing_attrs(p, def, false, &mut props)?;
    p.expect(":")?;
    let st = p.parse_type()?;
    p.expect("->")?;
    let rt = p.parse_type()?;
    let v = p.resolve_operand(&src, st)?;
    Ok(op_state(p, def, vec![v], vec![rt], props, attrs, vec![]))
}

fn print_permute(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    let src = ctx.operands(op)[0];
    pr.out.push(' ');
    pr.print_value(src);
    let perm = ctx.get_prop(op, "perm");
    match perm.and_then(|a| attr_i64s(ctx, a)) {
        Some(vs) => {
            pr.out.push_str(" [");
            pr.out.push_str(&join_i64(&vs));
            pr.out.push(']');
        }
        None => pr.out.push_str(" []"),
    }
    print_trailing_attrs(pr, op, false);
    pr.out.push_str(" : ");
    pr.print_type(ctx.value_type(src));
    pr.out.push_str(" -> ");
    pr.print_type(ctx.value_type(ctx.results(op)[0]));
}

fn parse_reduce(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let (kw, ksp) = p.parse_keyword_any()?;
    let kinds = REDUCE_KIND.keywords;
    let Some(k) = kinds.iter().position(|x| *x == kw) else {
        return Err(Diagnostic::at(
            ksp,
            format!(
                "expected a reduction kind ({}), found '{kw}'",
                kinds.join(", ")
            ),
        ));
    };
    let i64t = p.ctx.int_type(64);
    let kind = p.number_attr_typed(&k.to_string(), i64t, ksp)?;
    p.note_attr_span("kind", ksp);
    let x = p.parse_operand()?;
    p.expect_keyword("dim")?;
    p.expect("(")?;
    let (text, dsp) = p.parse_number_text()?;
    let dim = p.number_attr_typed(&text, i64t, dsp)?;
    p.note_attr_span("dim", dsp);
    p.expect(")")?;
    let mut props = vec![("kind".to_string(), kind), ("dim".to_string(), dim)];
    if p.eat_keyword("keepdim") {
        let u = p.ctx.attr(AttrKind::Unit);
        props.push(("keepdim".to_string(), u));
    }
    let attrs = parse_trailing_attrs(p, def, false, &mut props)?;
    p.expect(":")?;
    let xt = p.parse_type()?;
    p.expect("->")?;
    let rt = p.parse_type()?;
    let v = p.resolve_operand(&x, xt)?;
    Ok(op_state(p, def, vec![v], vec![rt], props, attrs, vec![]))
}

fn print_reduce(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    let kind = ctx
        .get_prop(op, "kind")
        .and_then(|a| attr_i64(ctx, a))
        .and_then(|k| usize::try_from(k).ok())
        .and_then(|k| REDUCE_KIND.keywords.get(k))
        .copied()
        .unwrap_or("sum");
    let x = ctx.operands(op)[0];
    pr.out.push(' ');
    pr.out.push_str(kind);
    pr.out.push(' ');
    pr.print_value(x);
    let dim = ctx
        .get_prop(op, "dim")
        .and_then(|a| attr_i64(ctx, a))
        .unwrap_or(0);
    pr.out.push_str(&format!(" dim({dim})"));
    if ctx.get_prop(op, "keepdim").is_some() {
        pr.out.push_str(" keepdim");
    }
    print_trailing_attrs(pr, op, false);
    pr.out.push_str(" : ");
    pr.print_type(ctx.value_type(x));
    pr.out.push_str(" -> ");
    pr.print_type(ctx.value_type(ctx.results(op)[0]));
}
