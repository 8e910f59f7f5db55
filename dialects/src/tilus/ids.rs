//! Grid and thread ids: `block_id`, `num_blocks`, `thread_id`, `warp_id`, `lane_id`.

use super::*;

/// `tilus.block_id`.
pub static BLOCK_ID: OpDef = OpDef {
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

tilus_ir::op_enum! {
    /// The cases of a grid dimension attribute.
    pub enum GridDimension {
        X = "x",
        Y = "y",
        Z = "z"
    }
}

tilus_ir::op_handle! {
    /// Typed handle of `tilus.block_id`.
    pub struct BlockIdOp = BLOCK_ID;
    operands {}
    results {
        result = "result": Value
    }
    attrs {
        dim = "dim": GridDimension
    }
    regions {}
    successors {}
}

/// `tilus.num_blocks`.
pub static NUM_BLOCKS: OpDef = OpDef {
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

tilus_ir::op_handle! {
    /// Typed handle of `tilus.num_blocks`.
    pub struct NumBlocksOp = NUM_BLOCKS;
    operands {}
    results {
        result = "result": Value
    }
    attrs {
        dim = "dim": GridDimension
    }
    regions {}
    successors {}
}

/// `tilus.thread_id`.
pub static THREAD_ID: OpDef = OpDef {
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

tilus_ir::op_handle! {
    /// Typed handle of `tilus.thread_id`.
    pub struct ThreadIdOp = THREAD_ID;
    operands {}
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.warp_id`.
pub static WARP_ID: OpDef = OpDef {
    name: "tilus.warp_id",
    summary: "the index of this thread's warp in the enclosing thread group",
    description: "`%w = tilus.warp_id` is `tilus.thread_id / 32`: relative to the enclosing \
        group, hence not `Pure` (see `tilus.thread_id`).",
    results: &[one("result", I32)],
    format: Format::Declarative("attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = WARP_ID.check();

tilus_ir::op_handle! {
    /// Typed handle of `tilus.warp_id`.
    pub struct WarpIdOp = WARP_ID;
    operands {}
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `tilus.lane_id`.
pub static LANE_ID: OpDef = OpDef {
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

tilus_ir::op_handle! {
    /// Typed handle of `tilus.lane_id`.
    pub struct LaneIdOp = LANE_ID;
    operands {}
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}
