//! `tilus-dialects`: the dialects tilus knows, each declared once in its own module.
//!
//! [`register_all`] makes every dialect known to a [`Context`]; tools call it before parsing.

// Errors carry a full diagnostic (message, spans, notes, help); they are the cold path, so
// their size is not worth a box at every `Err`.
#![allow(clippy::result_large_err)]

pub mod arith;
pub mod builtin;
pub mod cf;
pub mod func;
pub mod scf;

use tilus_ir::Context;

/// Registers every dialect of this crate.
pub fn register_all(ctx: &mut Context) {
    ctx.register_dialect("builtin", builtin::OPS);
    ctx.register_dialect("func", func::OPS);
    ctx.register_dialect("arith", arith::OPS);
    ctx.register_dialect("cf", cf::OPS);
    ctx.register_dialect("scf", scf::OPS);
}
