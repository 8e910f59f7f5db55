//! `tilus-dialects`: the dialects tilus knows, each declared once in its own module.
//!
//! [`register_all`] makes every dialect known to a [`Context`]; tools call it before parsing.

// Errors carry a full diagnostic (message, spans, notes, help); they are the cold path, so
// their size is not worth a box at every `Err`.
#![allow(clippy::result_large_err)]

pub mod arith;
pub mod arith_attrs;
pub mod builtin;
pub mod cf;
mod common;
pub mod func;
pub mod layout;
pub mod layout_algebra;
pub mod layout_mma;
pub mod mbarrier;
pub mod ptx;
pub mod scf;
pub mod scf_parallel;
pub mod tcgen05;
pub mod threadgroup;
pub mod tilus;
pub mod tilus_types;
pub mod tma;
pub mod wgmma;

use tilus_ir::Context;

/// Registers every dialect of this crate. Types and attributes go first, so that declared
/// defaults naming them (`#arith.fastmath<none>`) are parsed into their structured values.
pub fn register_all(ctx: &mut Context) {
    ctx.register_dialect_symbols("arith", arith_attrs::SYMBOLS);
    ctx.register_dialect_symbols("ptx", ptx::SYMBOLS);
    ctx.register_dialect_symbols(
        "tilus",
        tilus_ir::typedef::DialectSymbols {
            types: tilus_types::TILUS_TYPES,
            attrs: &[],
        },
    );
    ctx.register_dialect_symbols(
        "mbarrier",
        tilus_ir::typedef::DialectSymbols {
            types: tilus_types::MBARRIER_TYPES,
            attrs: &[],
        },
    );
    ctx.register_dialect("builtin", builtin::OPS);
    ctx.register_dialect("func", func::OPS);
    ctx.register_dialect("arith", arith::OPS);
    ctx.register_dialect("cf", cf::OPS);
    ctx.register_dialect("scf", scf::OPS);
    ctx.register_dialect("threadgroup", threadgroup::OPS);
    ctx.register_dialect("tilus", tilus::OPS);
    ctx.register_dialect("mbarrier", mbarrier::OPS);
    ctx.register_dialect("tma", tma::OPS);
    ctx.register_dialect("wgmma", wgmma::OPS);
    ctx.register_dialect("tcgen05", tcgen05::OPS);
    ctx.register_dialect("layout", layout::OPS);
    ctx.register_dialect("ptx", ptx::OPS);
}
