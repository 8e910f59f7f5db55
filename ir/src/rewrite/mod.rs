//! Rewriting IR: one mutation API, patterns, folding, and the drivers that apply them.
//!
//! Every pass that changes IR goes through a [`Rewriter`]. It creates, inserts, replaces, erases,
//! moves and modifies ops, and tells a [`Listener`] about each change. Drivers are listeners: the
//! greedy driver ([`apply_patterns_greedily`]) puts every op a change touches back on its
//! worklist, which is only possible because no change escapes the rewriter.
//!
//! Op declarations carry the transformations, so any driver finds them without registration:
//!
//! - [`crate::opdef::OpDef::fold`] ([`FoldFn`]) folds an op, given the constant values of its
//!   operands, to attributes, to existing values, or in place. It never creates ops.
//! - [`crate::opdef::OpDef::canonicalize`] lists [`Pattern`]s rooted at the op.
//! - [`crate::opdef::OpDef::materialize_constant`] ([`MaterializeFn`]), set on a dialect's
//!   constant op, turns a folded attribute back into an op of that dialect.
//!
//! The greedy driver follows MLIR's `applyPatternsGreedily` step for step. That includes the
//! worklist order, constant deduplication and hoisting while the worklist is seeded, and folding
//! before patterns. The point is that `canonicalize` prints what `mlir-opt --canonicalize`
//! prints, constant order included.
//!
//! The module is split by concern: [`patterns`] (pattern sets), [`fold`] (folding and constant
//! helpers), [`greedy`] and [`region`] (the greedy driver and its region simplification) and
//! [`walk`] (the walk driver). The mutation API ([`listener`], [`rewriter`], [`clone`]) and the
//! hook types declarations carry ([`hooks`]) are one layer down, in [`crate::mutation`], since
//! `OpDef` names them; they are re-exported here, so `tilus_ir::rewrite::X` paths (and
//! `tilus_ir::rewrite::clone::X`) stay as they were.

pub mod fold;
pub mod greedy;
pub mod patterns;
pub mod region;
pub mod walk;

pub use fold::*;
pub use greedy::*;
pub use patterns::*;
pub use region::*;
pub use walk::*;

pub use crate::mutation::*;
