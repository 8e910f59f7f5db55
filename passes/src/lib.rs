//! `tilus-passes`: transformations over tilus IR and the pass manager that runs them.
//!
//! A pass is a value: a struct of typed options and a `run` over one op (its anchor). Its
//! name, docs, options and statistics are declared once with [`declare_pass!`] ([`decl`]), and
//! every listing, flag, parser and report reads that declaration. Passes hold no global state;
//! the [`registry`] only knows how to create them, so a pipeline string such as
//! `builtin.module(func.func(cse,canonicalize{max-iterations=3}))` becomes a tree of fresh pass
//! values each time it is parsed. Named pipelines ([`pipelines`], `tilus-to-ptx`) are expanded
//! into their steps by the pipeline parser, so each step is an ordinary pass.
//!
//! - [`pipeline`] reads and prints MLIR's pipeline text, with byte spans for diagnostics;
//! - [`manager`] holds the nested pass managers and runs them (verifying after each pass);
//! - [`instrument`] is what watches a run: IR dumps, timing and statistics reports;
//! - [`decl`] is how passes are declared; [`pipelines`] holds the named pipelines;
//! - [`options`] parses and prints option values the way pipelines spell them;
//! - [`testing`] has small passes that exist only so the infrastructure can be tested.

// Errors carry a full diagnostic (message, spans, notes, help); they are the cold path, so
// their size is not worth a box at every `Err`.
#![allow(clippy::result_large_err)]

pub mod canonicalize;
pub mod cse;
pub mod dce;
pub mod decl;
pub mod eqsat;
pub mod infer_layouts;
pub mod inline;
pub mod instrument;
pub mod lower;
pub mod manager;
pub mod options;
pub mod pipeline;
pub mod pipelines;
pub mod pipelining;
pub mod ptx_emit;
pub mod ptx_imm;
pub mod symbol_dce;
pub mod testing;
pub mod verify_barriers;

pub use decl::{DeclaredPass, OptionDecl, OptionValue, PassDecl, StatisticDecl};
pub use instrument::{IrPrintConfig, IrPrinter, PassInstrumentation};
pub use manager::{Anchor, OpPassManager, PassManager};
pub use pipeline::{parse_pipeline, Nesting};

use tilus_ir::{Context, Diagnostic, OpId};

/// One option of a pass with its current value, as `--dump-pass-pipeline` prints it.
#[derive(Clone, Debug, PartialEq)]
pub struct PassOption {
    /// Name used in pipelines: `canonicalize{max-iterations=3}`.
    pub name: &'static str,
    /// Current value, printed the way a pipeline would spell it.
    pub value: String,
    /// One line: what the option changes.
    pub doc: &'static str,
}

/// Counters a pass reports for `--pass-statistics`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Statistics {
    /// `(name, description, value)` in the order the pass first reported them.
    pub entries: Vec<(&'static str, &'static str, u64)>,
}

impl Statistics {
    /// Adds `n` to a declared counter (creating it at zero). The counter comes from the pass's
    /// declaration (`Self::NUM_CSED`), so its name and description are written once.
    pub fn add(&mut self, stat: StatisticDecl, n: u64) {
        match self.entries.iter_mut().find(|e| e.0 == stat.name) {
            Some(e) => e.2 += n,
            None => self.entries.push((stat.name, stat.description, n)),
        }
    }
}

/// Whether a pass changed the IR (lets the manager and instrumentation skip work after no-ops).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    Yes,
    No,
}

/// A transformation. Passes are declared with [`declare_pass!`], which generates the struct of
/// options and [`DeclaredPass`]; the pass itself implements `run`. Everything else here is
/// read from the declaration.
pub trait Pass: DeclaredPass {
    /// Name in pipelines and on the command line (`cse`, `canonicalize`).
    fn name(&self) -> &'static str {
        self.decl().name
    }
    /// One paragraph for the pass reference: what the pass does and why one would run it.
    fn description(&self) -> &'static str {
        self.decl().description
    }
    /// The op the pass must run on (`builtin.module`, `func.func`), or `None` for any op.
    /// Overridden only by passes whose anchor is an option.
    fn anchor(&self) -> Option<&'static str> {
        self.decl().anchor
    }
    /// The name reports show (`IR Dump After CSE (cse)`, timing and statistics), MLIR's pass
    /// class name.
    fn class_name(&self) -> String {
        self.decl().class_name()
    }
    /// Options with their current values, in declaration order. Printers sort them by name, as
    /// MLIR does; a list reports its value braced (`{a,b}`), and an empty list (`{}`) is left
    /// out of pipeline text.
    fn options(&self) -> Vec<PassOption> {
        self.decl()
            .options
            .iter()
            .map(|o| PassOption {
                name: o.name,
                value: self.option_value(o.name).unwrap_or_default(),
                doc: o.doc,
            })
            .collect()
    }
    /// Runs on `op` (and what is nested in it). Errors are reported as diagnostics and stop the
    /// pipeline; the IR must still be valid to print when a pass fails.
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>>;
}

/// How to create a pass by name: its declaration and a constructor with default options.
/// [`declare_pass!`] makes one as `Pass::INFO`.
#[derive(Clone, Copy)]
pub struct PassInfo {
    pub decl: &'static PassDecl,
    pub create: fn() -> Box<dyn Pass>,
}

impl PassInfo {
    /// The pass's pipeline name.
    pub fn name(&self) -> &'static str {
        self.decl.name
    }
}

/// Every pass this crate provides. Order does not matter (`--list-passes` sorts by name); names
/// must be unique, and distinct from the names of [`pipelines::pipeline_registry`].
pub fn registry() -> Vec<PassInfo> {
    vec![
        canonicalize::Canonicalize::INFO,
        cse::Cse::INFO,
        dce::Dce::INFO,
        eqsat::Eqsat::INFO,
        inline::Inline::INFO,
        infer_layouts::InferLayouts::INFO,
        symbol_dce::SymbolDce::INFO,
        lower::scf_to_cf::ScfToCf::INFO,
        lower::scf_parallel::ScfForallToFor::INFO,
        lower::scf_parallel::ScfParallelToFors::INFO,
        lower::arith_to_ptx::ArithToPtx::INFO,
        lower::func_to_ptx::FuncToPtx::INFO,
        lower::shared_memory::PlanSharedMemory::INFO,
        lower::tiles::LowerTiles::INFO,
        lower::threadgroups::LowerThreadgroups::INFO,
        lower::tilus_kernel::LowerTilusKernel::INFO,
        lower::async_to_ptx::AsyncToPtx::INFO,
        verify_barriers::VerifyBarriers::INFO,
        pipelining::Pipeline::INFO,
        pipelining::WarpSpecialize::INFO,
        pipelining::TmaStoreEpilogue::INFO,
        // Test passes (see `testing`): registered so lit tests can drive the pass manager.
        testing::PrintOpCount::INFO,
        testing::Fail::INFO,
    ]
}

/// Creates a pass by name.
pub fn create_pass(name: &str) -> Option<Box<dyn Pass>> {
    registry()
        .into_iter()
        .find(|p| p.name() == name)
        .map(|p| (p.create)())
}

/// `symbol-dce` → `SymbolDce`: the default [`Pass::class_name`].
pub fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        if c == '-' || c == '_' || c == '.' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Registered pass names close to `name` (typos), best first, for "did you mean" help.
pub fn similar_pass_names(name: &str) -> Vec<&'static str> {
    let names: Vec<&'static str> = registry().iter().map(|p| p.name()).collect();
    options::closest(name, &names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_of_pass_names() {
        assert_eq!(camel_case("cse"), "Cse");
        assert_eq!(camel_case("symbol-dce"), "SymbolDce");
        assert_eq!(camel_case("test-print-op-count"), "TestPrintOpCount");
    }

    #[test]
    fn registry_names_are_unique_and_creatable() {
        let reg = registry();
        for (i, p) in reg.iter().enumerate() {
            assert!(
                reg[i + 1..].iter().all(|q| q.name() != p.name()),
                "duplicate pass name '{}'",
                p.name()
            );
            assert!(
                pipelines::find_pipeline(p.name()).is_none(),
                "'{}' is both a pass and a pipeline",
                p.name()
            );
            assert_eq!((p.create)().name(), p.name());
        }
    }

    #[test]
    fn declared_defaults_read_back_and_are_the_created_values() {
        for info in registry() {
            let pass = (info.create)();
            for o in info.decl.options {
                let default = (o.default)();
                assert_eq!(
                    (o.normalize)(&default).as_deref(),
                    Ok(default.as_str()),
                    "{}: option {}",
                    info.name(),
                    o.name
                );
                assert_eq!(
                    pass.option_value(o.name),
                    Some(default),
                    "{}: option {}",
                    info.name(),
                    o.name
                );
            }
        }
    }
}
