//! `tilus-to-ptx`: the whole lowering of Tilus kernels to the ptx dialect, as a named pipeline
//! (see [`crate::pipelines`]) whose steps are the lowering passes:
//!
//! ```text
//! scf-forall-to-for, scf-parallel-for-to-nested-fors{reductions=true},
//! verify-barriers, infer-layouts{target=...}, lower-async-to-ptx, plan-shared-memory,
//! lower-tiles{target=...}, lower-threadgroups, lower-tilus-kernel{target=...}, canonicalize,
//! cse, eqsat, canonicalize, cse,
//! convert-scf-to-cf, convert-arith-to-ptx
//! ```
//!
//! The parallel loops (`scf.forall`, `scf.parallel`) become `scf.for` nests first, so every
//! later step (the barrier proof, layout inference, the tile lowering) sees ordinary loops.
//!
//! `eqsat` (and the `canonicalize,cse` that hoist and merge the constants it builds) runs on
//! the arith level, before `convert-scf-to-cf` and `convert-arith-to-ptx`: there the integer
//! ops still have arith's semantics (which its rules and constant folding use), `scf.for`
//! still says what bounds its induction variable, and the cost model can charge each op the
//! PTX the conversion will make of it. `tilus-to-ptx{eqsat=false}` leaves those three steps
//! out.
//!
//! `infer-layouts` runs right after the protocol check, before anything is lowered: it only
//! writes layouts into register tensor types (and inserts `layout.convert` where anchors
//! disagree), so every later step sees explicit layouts, and a layout in a diagnostic is one
//! the user wrote or one `--print-ir-after=infer-layouts` shows. `tilus-to-ptx{infer-layouts=false}`
//! leaves it out (then `lower-tiles` gives each tensor without a layout its own default, which
//! works for kernels of one element type).
//!
//! The pipeline parser expands it, so each step is a pass of the pipeline: verified after it
//! runs and seen by `--print-ir-after`, `--timing` and `--pass-statistics`.
//! `tilus-opt k.mlir --tilus-to-ptx --emit-ptx` (or
//! `--pass-pipeline='builtin.module(tilus-to-ptx)'`) prints PTX.

use crate::declare_pipeline;

declare_pipeline! {
    /// The declaration of `tilus-to-ptx`.
    pub const TILUS_TO_PTX {
        name: "tilus-to-ptx",
        anchor: "builtin.module",
        summary: "Lower Tilus kernels to the ptx dialect (the whole pipeline)",
        description: "Runs scf-forall-to-for and scf-parallel-for-to-nested-fors \
            (reductions=true: parallel loops become scf.for nests), verify-barriers (so a \
            kernel whose mbarrier protocol can hang is rejected before it reaches a GPU), \
            infer-layouts (unless infer-layouts=false), \
            lower-async-to-ptx, plan-shared-memory, lower-tiles, \
            lower-threadgroups, lower-tilus-kernel, canonicalize, cse, eqsat, canonicalize, \
            cse (the last three unless eqsat=false), convert-scf-to-cf and \
            convert-arith-to-ptx in order on the module, verifying after each: tilus.kernel to \
            ptx.entry, ready for --emit-ptx. It runs on the module because lower-tilus-kernel \
            replaces each kernel op by a ptx.entry.",
        options: {
            infer_layouts: bool = true, "infer-layouts",
                "Run infer-layouts first, so register tensors without a layout get one chosen \
                 for the whole kernel";
            target: String = "sm_90a".into(), "target",
                "PTX target of the kernels, passed to infer-layouts, lower-tiles (sm_90a: \
                 tilus.dot on wgmma where it fits) and lower-tilus-kernel",
                check = super::check_ptx_target;
            eqsat: bool = true, "eqsat",
                "Run eqsat (then canonicalize and cse) on the integer arithmetic before \
                 convert-scf-to-cf";
        },
        steps: "scf-forall-to-for,scf-parallel-for-to-nested-fors{reductions=true},\
                verify-barriers,[infer-layouts]infer-layouts{target=${target}},lower-async-to-ptx,\
                plan-shared-memory,lower-tiles{target=${target}},\
                lower-threadgroups,lower-tilus-kernel{target=${target}},canonicalize,cse,\
                [eqsat]eqsat,[eqsat]canonicalize,[eqsat]cse,convert-scf-to-cf,\
                convert-arith-to-ptx",
    }
}
