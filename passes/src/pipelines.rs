//! Named pipelines: a name for a sequence of passes, with options of its own, expanded by the
//! pipeline parser into its steps.
//!
//! A named pipeline is not a pass. When pipeline text names one (`builtin.module(tilus-to-ptx)`,
//! or `tilus-opt --tilus-to-ptx`), [`crate::pipeline::build_pipeline`] checks its options
//! against the declaration, substitutes them into its step text, parses that text and adds the
//! steps to the enclosing pass manager as ordinary passes. So each step is verified after it
//! runs, dumped by `--print-ir-after`, timed by `--timing` and counted by `--pass-statistics`,
//! and a step that names no registered pass is an error when the pipeline text is parsed,
//! pointing at the pipeline's name (the registry's unit test expands every pipeline, so a typo
//! in a declaration fails the tests too). `--dump-pass-pipeline` and the pipeline's printed
//! form show the expansion, as MLIR's do.

use crate::decl::OptionDecl;

/// A named pipeline: declared with [`declare_pipeline!`](crate::declare_pipeline), registered in
/// [`pipeline_registry`].
#[derive(Clone, Copy, Debug)]
pub struct PipelineDecl {
    /// Name in pipeline text and as a `tilus-opt` flag.
    pub name: &'static str,
    /// One line for listings.
    pub summary: &'static str,
    /// One paragraph: what it does and when to use it.
    pub description: &'static str,
    /// The op its steps must run on. The parser rejects the pipeline anywhere else, since its
    /// steps may replace or erase the ops nested in that op.
    pub anchor: &'static str,
    /// Its options; `${name}` in [`PipelineDecl::steps`] stands for the value of one.
    pub options: &'static [OptionDecl],
    /// The steps as pipeline elements (`a,b{k=${opt}},func.func(c)`). A step written
    /// `[opt]step` is kept only when the bool option `opt` is true, so an option can turn a
    /// step off (`tilus-to-ptx{eqsat=false}`).
    pub steps: &'static str,
}

impl PipelineDecl {
    /// The step text with every `${option}` replaced by its value from `values` (pipeline
    /// spelling, already checked by the option's type), or by its default.
    pub fn expand(&self, values: &[(&str, String)]) -> String {
        let value = |o: &OptionDecl| {
            values
                .iter()
                .find(|(n, _)| *n == o.name)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| (o.default)())
        };
        let kept: Vec<&str> = split_steps(self.steps)
            .into_iter()
            .filter_map(|step| {
                let Some(rest) = step.strip_prefix('[') else {
                    return Some(step);
                };
                let (name, step) = rest.split_once(']')?;
                let on = self
                    .options
                    .iter()
                    .find(|o| o.name == name)
                    .is_some_and(|o| value(o) == "true");
                on.then_some(step)
            })
            .collect();
        let mut text = kept.join(",");
        for o in self.options {
            let v = value(o);
            let spelled = crate::options::quote_value(&v).unwrap_or(v);
            text = text.replace(&format!("${{{}}}", o.name), &spelled);
        }
        text
    }
}

/// The top-level comma-separated elements of step text (commas inside `{}` or `()` belong to
/// their element), trimmed.
fn split_steps(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// Declares a named pipeline as a constant [`PipelineDecl`]. Options are written as in
/// [`declare_pass!`](crate::declare_pass) (`field: Type = default, "name", "doc";`), but hold no
/// state: their values are checked by the type and substituted into `steps` as `${name}`.
#[macro_export]
macro_rules! declare_pipeline {
    (
        $(#[$meta:meta])*
        $vis:vis const $id:ident {
            name: $name:literal,
            anchor: $anchor:literal,
            summary: $summary:literal,
            description: $desc:literal,
            options: {
                $($field:ident : $fty:ty = $default:expr, $oname:literal, $odoc:literal $(, check = $check:path)? ;)*
            },
            steps: $steps:literal $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis const $id: $crate::pipelines::PipelineDecl = $crate::pipelines::PipelineDecl {
            name: $name,
            summary: $summary,
            description: $desc,
            anchor: $anchor,
            options: &[$($crate::__option_decl!($fty, $default, $oname, $odoc $(, $check)?),)*],
            steps: $steps,
        };
    };
}

/// Every named pipeline. Names must differ from each other and from every pass.
pub fn pipeline_registry() -> Vec<&'static PipelineDecl> {
    vec![&crate::lower::tilus_to_ptx::TILUS_TO_PTX]
}

/// The pipeline called `name`.
pub fn find_pipeline(name: &str) -> Option<&'static PipelineDecl> {
    pipeline_registry().into_iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{parse_pipeline, Nesting};

    #[test]
    fn every_pipeline_expands_to_registered_passes() {
        for p in pipeline_registry() {
            let text = format!("{}({})", p.anchor, p.name);
            let pm = parse_pipeline(&text, Nesting::Explicit)
                .unwrap_or_else(|d| panic!("pipeline '{}' does not expand: {d}", p.name));
            assert!(!pm.is_empty(), "{}", p.name);
            let mut names = Vec::new();
            pm.for_each_pass(&mut |s| names.push(s.pass().name()));
            assert!(
                !names.contains(&p.name),
                "'{}' expands to itself: {names:?}",
                p.name
            );
        }
    }

    #[test]
    fn bracketed_steps_follow_their_bool_option() {
        let p = crate::lower::tilus_to_ptx::TILUS_TO_PTX;
        let on = p.expand(&[]);
        let off = p.expand(&[("eqsat", "false".into())]);
        assert!(on.contains(",eqsat,"), "{on}");
        assert!(!off.contains("eqsat"), "{off}");
        assert!(!on.contains('[') && !off.contains('['), "{on} / {off}");
        assert!(off.contains("lower-tilus-kernel{target=sm_90a}"), "{off}");
    }

    #[test]
    fn names_are_unique() {
        let reg = pipeline_registry();
        for (i, p) in reg.iter().enumerate() {
            assert!(reg[i + 1..].iter().all(|q| q.name != p.name), "{}", p.name);
        }
    }
}
