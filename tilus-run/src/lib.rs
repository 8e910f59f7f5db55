//! `tilus-run`'s library: the CPU interpreter and what the command line needs around it.
//!
//! The interpreter runs tile-level IR (before lowering) at tile granularity; see
//! `docs/design/interpreter.md` for the execution model and the API between the modules.

// Errors carry a full diagnostic (message, spans, notes); they are the cold path.
#![allow(clippy::result_large_err)]

pub mod args;
pub mod check;
pub mod cuda;
pub mod interp;
pub mod memory;
pub mod tensor;
pub mod timeline_html;
