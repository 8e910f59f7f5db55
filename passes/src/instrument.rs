//! What watches a pipeline run: hooks around each pass ([`PassInstrumentation`]), IR dumps
//! before and after passes ([`IrPrinter`], `--print-ir-*`), and the timing and statistics
//! tables (`--timing`, `--pass-statistics`), laid out as MLIR lays them out.

use crate::manager::{Element, OpPassManager, PassSlot};
use crate::{Changed, Pass};
use std::cell::Cell;
use std::io::Write;
use std::rc::Rc;
use std::time::Duration;
use tilus_ir::{Context, OpId, PrintOptions};

/// Hooks the pass manager calls around every pass run (not around nested pipelines, whose
/// passes get their own calls). Each has a default that does nothing.
pub trait PassInstrumentation {
    /// Before `pass` runs on `op`.
    fn before_pass(&mut self, pass: &dyn Pass, ctx: &Context, op: OpId) {
        let _ = (pass, ctx, op);
    }
    /// After `pass` succeeded on `op` (and the verifier, when on, accepted the result).
    fn after_pass(&mut self, pass: &dyn Pass, ctx: &Context, op: OpId, changed: Changed) {
        let _ = (pass, ctx, op, changed);
    }
    /// After `pass` failed on `op`, or left IR the verifier rejects.
    fn after_pass_failed(&mut self, pass: &dyn Pass, ctx: &Context, op: OpId) {
        let _ = (pass, ctx, op);
    }
}

/// Which passes to dump around, as the `--print-ir-*` flags say.
#[derive(Clone, Debug, Default)]
pub struct IrPrintConfig {
    /// Dump before every pass (`--print-ir-before-all`).
    pub before_all: bool,
    /// Dump before these passes, by pipeline name (`--print-ir-before=cse`).
    pub before: Vec<String>,
    /// Dump after every pass (`--print-ir-after-all`).
    pub after_all: bool,
    /// Dump after these passes (`--print-ir-after=cse`).
    pub after: Vec<String>,
    /// Only dump after a pass when the IR changed (`--print-ir-after-change`); a modifier of
    /// the two `after` settings, as in MLIR.
    pub after_change: bool,
    /// Dump after a pass only when it fails, and after any pass that fails
    /// (`--print-ir-after-failure`).
    pub after_failure: bool,
    /// Dump the top-level op instead of the op the pass ran on (`--print-ir-module-scope`).
    pub module_scope: bool,
    /// How to print.
    pub print: PrintOptions,
}

impl IrPrintConfig {
    /// Whether any dump can happen, so a tool can skip installing the printer.
    pub fn is_active(&self) -> bool {
        self.before_all
            || !self.before.is_empty()
            || self.after_all
            || !self.after.is_empty()
            || self.after_failure
    }
    fn before(&self, pass: &dyn Pass) -> bool {
        self.before_all || self.before.iter().any(|n| n == pass.name())
    }
    fn after(&self, pass: &dyn Pass) -> bool {
        self.after_all || self.after_failure || self.after.iter().any(|n| n == pass.name())
    }
}

/// How many dumps have been written, shared by the printers of several runs (one per
/// `--split-input-file` chunk) so that every dump after the first is preceded by a separator.
#[derive(Clone, Debug, Default)]
pub struct DumpCount(Rc<Cell<usize>>);

impl DumpCount {
    /// Dumps written so far.
    pub fn get(&self) -> usize {
        self.0.get()
    }
}

/// Writes MLIR-style IR dumps: each headed by `// -----// IR Dump After CSE (cse) //----- //`
/// and separated from the previous one by a plain `// -----` line, so a file of dumps can be
/// read back with `--split-input-file` (MLIR's header alone is not a split marker there).
pub struct IrPrinter {
    config: IrPrintConfig,
    out: Box<dyn Write>,
    count: DumpCount,
    /// Printed IR before each running pass, when `after_change` needs to compare.
    before_text: Vec<(OpId, String)>,
}

impl IrPrinter {
    /// A printer writing to `out`, counting dumps in `count`.
    pub fn new(config: IrPrintConfig, out: Box<dyn Write>, count: DumpCount) -> IrPrinter {
        IrPrinter {
            config,
            out,
            count,
            before_text: Vec::new(),
        }
    }

    fn target(&self, ctx: &Context, op: OpId) -> OpId {
        let mut t = op;
        if self.config.module_scope {
            while let Some(p) = ctx.parent_op(t) {
                t = p;
            }
        }
        t
    }

    fn dump(&mut self, ctx: &Context, op: OpId, pass: &dyn Pass, when: &str, failed: bool) {
        let target = self.target(ctx, op);
        let mut text = String::new();
        if self.count.get() > 0 {
            text.push_str("// -----\n");
        }
        text.push_str(&format!(
            "// -----// IR Dump {when} {}{} ({}) //----- //\n",
            pass.class_name(),
            if failed { " Failed" } else { "" },
            pass.name()
        ));
        let ir = tilus_ir::print_op(ctx, target, self.config.print);
        text.push_str(ir.trim_end_matches('\n'));
        // MLIR leaves one empty line after a nested op and two after the top-level one.
        text.push_str(if ctx.parent_op(target).is_none() {
            "\n\n\n"
        } else {
            "\n\n"
        });
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
        self.count.0.set(self.count.get() + 1);
    }

    fn fingerprint(&self, ctx: &Context, op: OpId) -> String {
        let opts = PrintOptions {
            generic: true,
            debuginfo: true,
            local_scope: true,
        };
        tilus_ir::print_op(ctx, self.target(ctx, op), opts)
    }
}

impl PassInstrumentation for IrPrinter {
    fn before_pass(&mut self, pass: &dyn Pass, ctx: &Context, op: OpId) {
        if self.config.before(pass) {
            self.dump(ctx, op, pass, "Before", false);
        }
        if self.config.after_change && self.config.after(pass) {
            let fp = self.fingerprint(ctx, op);
            self.before_text.push((op, fp));
        }
    }

    fn after_pass(&mut self, pass: &dyn Pass, ctx: &Context, op: OpId, _changed: Changed) {
        if !self.config.after(pass) {
            return;
        }
        let mut print = !self.config.after_failure;
        if self.config.after_change {
            // Compare what is printed rather than trusting the pass's own report.
            if let Some(i) = self.before_text.iter().rposition(|(o, _)| *o == op) {
                let (_, before) = self.before_text.remove(i);
                print &= before != self.fingerprint(ctx, op);
            }
        }
        if print {
            self.dump(ctx, op, pass, "After", false);
        }
    }

    fn after_pass_failed(&mut self, pass: &dyn Pass, ctx: &Context, op: OpId) {
        if let Some(i) = self.before_text.iter().rposition(|(o, _)| *o == op) {
            self.before_text.remove(i);
        }
        if self.config.after(pass) {
            self.dump(ctx, op, pass, "After", true);
        }
    }
}

/// One line of the timing report.
#[derive(Clone, Debug, PartialEq)]
pub struct TimingEntry {
    /// `Parser`, `'func.func' Pipeline`, a pass's class name.
    pub name: String,
    /// Nesting level (two spaces each).
    pub depth: usize,
    /// Wall time accumulated over every run.
    pub wall: Duration,
}

fn banner(title: &str) -> String {
    let rule = format!("==={}===\n", "-".repeat(73));
    let pad = (80usize.saturating_sub(title.len())) / 2;
    format!("{rule}{:pad$}{title}\n{rule}", "")
}

/// MLIR's `--mlir-timing` report (wall time only, as MLIR prints it when running on one
/// thread): the entries, then `Rest` (what the entries at depth 0 do not cover) and `Total`.
pub fn render_timing(entries: &[TimingEntry], total: Duration) -> String {
    let mut out = banner("... Execution time report ...");
    out.push_str(&format!(
        "  Total Execution Time: {:.4} seconds\n\n",
        total.as_secs_f64()
    ));
    out.push_str("  ----Wall Time----  ----Name----\n");
    let t = total.as_secs_f64();
    let line = |out: &mut String, wall: Duration, depth: usize, name: &str| {
        let w = wall.as_secs_f64();
        let pct = if t > 0.0 { 100.0 * w / t } else { 0.0 };
        out.push_str(&format!(
            "  {w:>8.4} ({pct:>5.1}%)  {:indent$}{name}\n",
            "",
            indent = 2 * depth
        ));
    };
    for e in entries {
        line(&mut out, e.wall, e.depth, &e.name);
    }
    let covered: Duration = entries
        .iter()
        .filter(|e| e.depth == 0)
        .map(|e| e.wall)
        .sum();
    line(&mut out, total.saturating_sub(covered), 0, "Rest");
    line(&mut out, total, 0, "Total");
    out
}

/// How `--pass-statistics` groups counters (`--pass-statistics-display`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StatisticsDisplay {
    /// The pipeline's shape: nested pipelines with their passes indented (MLIR's default).
    #[default]
    Pipeline,
    /// One entry per pass class, counters of all its instances added, sorted by name.
    List,
}

/// `(name, description, value)` of one counter, as [`crate::Statistics`] stores it.
type StatRow<'a> = (&'a str, &'a str, u64);

fn stat_lines(out: &mut String, indent: usize, name: &str, stats: &[StatRow]) {
    out.push_str(&format!("{:indent$}{name}\n", ""));
    let mut stats = stats.to_vec();
    stats.sort_by(|a, b| a.0.cmp(b.0));
    let width = stats
        .iter()
        .map(|s| s.2.to_string().len())
        .max()
        .unwrap_or(1);
    for (n, d, v) in stats {
        out.push_str(&format!(
            "{:w$}(S) {v:>width$} {n} - {d}\n",
            "",
            w = indent + 2
        ));
    }
}

/// MLIR's pass statistics report: each pass with its counters as `(S) value name - description`.
pub fn render_statistics(pm: &OpPassManager, display: StatisticsDisplay) -> String {
    let mut out = banner("... Pass statistics report ...");
    match display {
        StatisticsDisplay::Pipeline => pipeline_stats(pm, 0, &mut out),
        StatisticsDisplay::List => {
            let mut merged: Vec<(String, Vec<StatRow>)> = Vec::new();
            pm.for_each_pass(&mut |p: &PassSlot| {
                let name = p.pass().class_name();
                let idx = match merged.iter().position(|m| m.0 == name) {
                    Some(i) => i,
                    None => {
                        merged.push((name, Vec::new()));
                        merged.len() - 1
                    }
                };
                for &(n, d, v) in &p.statistics().entries {
                    match merged[idx].1.iter_mut().find(|e| e.0 == n) {
                        Some(e) => e.2 += v,
                        None => merged[idx].1.push((n, d, v)),
                    }
                }
            });
            merged.sort_by(|a, b| a.0.cmp(&b.0));
            for (name, stats) in merged {
                stat_lines(&mut out, 0, &name, &stats);
            }
        }
    }
    out.push('\n');
    out
}

fn pipeline_stats(pm: &OpPassManager, indent: usize, out: &mut String) {
    for e in pm.elements() {
        match e {
            Element::Pass(p) => {
                stat_lines(out, indent, &p.pass().class_name(), &p.statistics().entries)
            }
            Element::Nested(n) => {
                out.push_str(&format!(
                    "{:indent$}'{}' Pipeline\n",
                    "",
                    n.pm().anchor_name()
                ));
                pipeline_stats(n.pm(), indent + 2, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_layout() {
        let ms = Duration::from_millis;
        let entries = vec![
            TimingEntry {
                name: "Parser".into(),
                depth: 0,
                wall: ms(500),
            },
            TimingEntry {
                name: "'func.func' Pipeline".into(),
                depth: 0,
                wall: ms(250),
            },
            TimingEntry {
                name: "CSE".into(),
                depth: 1,
                wall: ms(125),
            },
        ];
        let r = render_timing(&entries, ms(1000));
        assert_eq!(
            r,
            "===-------------------------------------------------------------------------===\n\
             \x20                        ... Execution time report ...\n\
             ===-------------------------------------------------------------------------===\n\
             \x20 Total Execution Time: 1.0000 seconds\n\
             \n\
             \x20 ----Wall Time----  ----Name----\n\
             \x20   0.5000 ( 50.0%)  Parser\n\
             \x20   0.2500 ( 25.0%)  'func.func' Pipeline\n\
             \x20   0.1250 ( 12.5%)    CSE\n\
             \x20   0.2500 ( 25.0%)  Rest\n\
             \x20   1.0000 (100.0%)  Total\n"
        );
    }

    #[test]
    fn statistics_layout() {
        let pm = crate::pipeline::parse_pipeline(
            "builtin.module(func.func(test-print-op-count),test-fail)",
            crate::Nesting::Explicit,
        )
        .unwrap();
        let r = render_statistics(&pm, StatisticsDisplay::Pipeline);
        assert!(
            r.ends_with("===\n'func.func' Pipeline\n  TestPrintOpCount\nTestFail\n\n"),
            "{r}"
        );
        let mut out = String::new();
        stat_lines(
            &mut out,
            2,
            "CSE",
            &[("num-dce'd", "DCE'd", 7), ("num-cse'd", "CSE'd", 12)],
        );
        assert_eq!(
            out,
            "  CSE\n    (S) 12 num-cse'd - CSE'd\n    (S)  7 num-dce'd - DCE'd\n"
        );
    }
}
