//! `tilus-passes`: transformations over tilus IR and the pass manager that runs them.
//!
//! A pass is a value: it has a name, typed options, a one-paragraph doc and a `run` over one op
//! (its anchor). Passes hold no global state; the [`registry`] only knows how to create them, so
//! a pipeline string such as `builtin.module(func.func(cse,canonicalize{max-iterations=3}))`
//! becomes a tree of fresh pass values each time it is parsed.
//!
//! - [`pipeline`] reads and prints MLIR's pipeline text, with byte spans for diagnostics;
//! - [`manager`] holds the nested pass managers and runs them (verifying after each pass);
//! - [`instrument`] is what watches a run: IR dumps, timing and statistics reports;
//! - [`options`] parses and prints option values the way pipelines spell them;
//! - [`testing`] has small passes that exist only so the infrastructure can be tested.

// Errors carry a full diagnostic (message, spans, notes, help); they are the cold path, so
// their size is not worth a box at every `Err`.
#![allow(clippy::result_large_err)]

pub mod canonicalize;
pub mod cse;
pub mod dce;
pub mod inline;
pub mod instrument;
pub mod lower;
pub mod manager;
pub mod options;
pub mod pipeline;
pub mod ptx_emit;
pub mod symbol_dce;
pub mod testing;

pub use instrument::{IrPrintConfig, IrPrinter, PassInstrumentation};
pub use manager::{Anchor, OpPassManager, PassManager};
pub use pipeline::{parse_pipeline, Nesting};

use tilus_ir::{Context, Diagnostic, OpId};

/// One option of a pass, as shown by `--list-passes` and `--dump-pass-pipeline`.
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
    /// Adds `n` to a named counter (creating it at zero).
    pub fn add(&mut self, name: &'static str, description: &'static str, n: u64) {
        match self.entries.iter_mut().find(|e| e.0 == name) {
            Some(e) => e.2 += n,
            None => self.entries.push((name, description, n)),
        }
    }
}

/// Whether a pass changed the IR (lets the manager and instrumentation skip work after no-ops).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    Yes,
    No,
}

/// A transformation. Implementations are plain structs whose fields are their options.
pub trait Pass {
    /// Name in pipelines and on the command line (`cse`, `canonicalize`).
    fn name(&self) -> &'static str;
    /// One paragraph for `--list-passes`: what the pass does and why one would run it.
    fn description(&self) -> &'static str;
    /// The op the pass must run on (`builtin.module`, `func.func`), or `None` for any op.
    fn anchor(&self) -> Option<&'static str> {
        None
    }
    /// The name reports show (`IR Dump After CSE (cse)`, timing and statistics), MLIR's pass
    /// class name. Defaults to the pipeline name in CamelCase (`symbol-dce` → `SymbolDce`);
    /// override it when the usual spelling differs (`CSE`, `Canonicalizer`).
    fn class_name(&self) -> String {
        camel_case(self.name())
    }
    /// Options with their current values. The manager prints them sorted by name, as MLIR does;
    /// a list option reports its value braced (`{a,b}`), and an empty list (`{}`) is left out.
    fn options(&self) -> Vec<PassOption> {
        Vec::new()
    }
    /// Sets an option from its pipeline spelling; the error says what was expected.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let _ = value;
        Err(format!("pass '{}' has no option '{name}'", self.name()))
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

/// How to create a pass by name.
#[derive(Clone, Copy)]
pub struct PassInfo {
    pub name: &'static str,
    /// Short summary for listings.
    pub summary: &'static str,
    pub create: fn() -> Box<dyn Pass>,
}

/// Every pass this crate provides. Order does not matter (`--list-passes` sorts by name); names
/// must be unique.
pub fn registry() -> Vec<PassInfo> {
    vec![
        canonicalize::INFO,
        cse::INFO,
        dce::INFO,
        inline::INFO,
        symbol_dce::INFO,
        lower::scf_to_cf::INFO,
        lower::arith_to_ptx::INFO,
        lower::func_to_ptx::INFO,
        lower::shared_memory::INFO,
        lower::tiles::INFO,
        lower::threadgroups::INFO,
        lower::tilus_kernel::INFO,
        lower::tilus_to_ptx::INFO,
        lower::async_to_ptx::INFO,
        // Test passes (see `testing`): registered so lit tests can drive the pass manager.
        testing::PRINT_OP_COUNT,
        testing::FAIL,
    ]
}

/// Creates a pass by name.
pub fn create_pass(name: &str) -> Option<Box<dyn Pass>> {
    registry()
        .into_iter()
        .find(|p| p.name == name)
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
    let names: Vec<&'static str> = registry().iter().map(|p| p.name).collect();
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
                reg[i + 1..].iter().all(|q| q.name != p.name),
                "duplicate pass name '{}'",
                p.name
            );
            assert_eq!((p.create)().name(), p.name);
        }
    }
}
