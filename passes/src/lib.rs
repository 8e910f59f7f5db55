//! `tilus-passes`: transformations over tilus IR and the pass manager that runs them.
//!
//! A pass is a value: it has a name, typed options, a one-paragraph doc and a `run` over one op
//! (its anchor). Passes hold no global state; the [`registry`] only knows how to create them, so
//! a pipeline string such as `builtin.module(func.func(cse,canonicalize{max-iterations=3}))`
//! becomes a tree of fresh pass values each time it is parsed.

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

/// Whether a pass changed the IR (drives `--print-ir-after-change`).
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
    /// Options with their current values.
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

/// Every pass this crate provides, in listing order.
pub fn registry() -> Vec<PassInfo> {
    Vec::new()
}

/// Creates a pass by name.
pub fn create_pass(name: &str) -> Option<Box<dyn Pass>> {
    registry()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| (p.create)())
}
