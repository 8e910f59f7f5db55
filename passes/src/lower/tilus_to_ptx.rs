//! `tilus-to-ptx`: the whole lowering of the simple Tilus kernels, as one pass that runs the
//! others in order (a named pipeline; each step is also a pass of its own, so
//! `--mlir-print-ir-after-all` on the spelled-out pipeline shows every step):
//!
//! ```text
//! lower-async-to-ptx (when registered), plan-shared-memory, lower-tiles, lower-threadgroups,
//! lower-tilus-kernel, canonicalize, cse, convert-scf-to-cf, convert-arith-to-ptx
//! ```
//!
//! The IR is verified after each step. `tilus-opt k.mlir --tilus-to-ptx --emit-ptx` (or
//! `--pass-pipeline='builtin.module(tilus-to-ptx)'`) prints PTX.

use crate::{create_pass, Changed, Pass, PassInfo, Statistics};
use tilus_ir::{Context, Diagnostic, OpId};

/// Registry entry.
pub const INFO: PassInfo = PassInfo {
    name: "tilus-to-ptx",
    summary: "Lower Tilus kernels to the ptx dialect (the whole pipeline)",
    create: || Box::new(TilusToPtx),
};

/// The steps, in order; names not registered (yet) are skipped.
pub const STEPS: &[&str] = &[
    "lower-async-to-ptx",
    "plan-shared-memory",
    "lower-tiles",
    "lower-threadgroups",
    "lower-tilus-kernel",
    "canonicalize",
    "cse",
    "convert-scf-to-cf",
    "convert-arith-to-ptx",
];

/// The pass. It has no options.
#[derive(Clone, Copy, Debug, Default)]
pub struct TilusToPtx;

impl Pass for TilusToPtx {
    fn name(&self) -> &'static str {
        "tilus-to-ptx"
    }
    fn class_name(&self) -> String {
        "TilusToPtx".into()
    }
    fn description(&self) -> &'static str {
        "Runs lower-async-to-ptx (when available), plan-shared-memory, lower-tiles, \
         lower-threadgroups, lower-tilus-kernel, canonicalize, cse, convert-scf-to-cf and \
         convert-arith-to-ptx in order, verifying after each: tilus.kernel to ptx.entry, ready \
         for --emit-ptx."
    }
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        let mut changed = Changed::No;
        for name in STEPS {
            let Some(mut p) = create_pass(name) else {
                continue;
            };
            if p.run(ctx, op, stats)? == Changed::Yes {
                changed = Changed::Yes;
            }
            let errs = tilus_ir::verify(ctx, op);
            if !errs.is_empty() {
                let mut errs = errs;
                errs.insert(
                    0,
                    Diagnostic::op(
                        op,
                        format!("tilus-to-ptx: the IR is invalid after '{name}'"),
                    ),
                );
                return Err(errs);
            }
        }
        Ok(changed)
    }
}
