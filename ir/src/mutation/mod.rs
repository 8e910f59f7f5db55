//! The mutation API and the hook types that op declarations carry: the [`Rewriter`] (every
//! change to IR made by a pass goes through it), the [`Listener`] it notifies, cloning, and
//! [`FoldFn`], [`MaterializeFn`] and [`Pattern`].
//!
//! These are in the values layer, below the parser and the drivers, because [`OpDef`](crate::opdef::OpDef)
//! names the hook types and the hook types name the rewriter. The drivers
//! that apply them (greedy, walk), folding and pattern sets are in [`crate::rewrite`], which
//! re-exports everything here, so `tilus_ir::rewrite::X` paths are unchanged.

pub mod clone;
pub mod hooks;
pub mod listener;
pub mod rewriter;

pub use clone::*;
pub use hooks::*;
pub use listener::*;
pub use rewriter::*;
