//! `tilus-ir`: the IR core of tilus.
//!
//! - [`Context`] owns every op, block, region and value in arenas addressed by copyable ids, and
//!   uniques types and attributes;
//! - [`syntax`] reads and writes MLIR's textual format (generic form exactly as MLIR 22, custom
//!   forms from op declarations);
//! - [`opdef`] is how ops are declared, [`format`] interprets their assembly formats;
//! - [`builder`] creates ops at an insertion point, [`handle`] gives typed access to them;
//! - [`verify()`] checks structure and declared constraints;
//! - [`cfg`] and [`dominance`] are the control-flow graph and dominance analyses the verifier
//!   and passes share;
//! - [`rewrite`] is the one way passes mutate IR: a rewriter that notifies listeners, patterns,
//!   folding, and the greedy and walk drivers (the rewriter and the hook types that declarations
//!   carry are in [`mutation`], a layer down, and re-exported there);
//! - [`diag`] carries diagnostics with source spans, and [`source`] renders them with `miette`.

// Errors carry a full diagnostic (message, spans, notes, help); they are the cold path, so
// their size is not worth a box at every `Err`.
#![allow(clippy::result_large_err)]

pub mod attrs;
pub mod builder;
pub mod cfg;
pub mod cli;
pub mod context;
pub mod diag;
pub mod dominance;
pub mod float;
pub mod format;
pub mod format_check;
pub mod handle;
pub mod mutation;
pub mod opdef;
pub mod registry;
pub mod rewrite;
pub mod source;
pub mod syntax;
pub mod typedef;
pub mod types;
pub mod verify;

pub use attrs::{Attr, AttrKind, Location};
pub use builder::OpBuilder;
pub use cfg::Cfg;
pub use context::{BlockId, Context, OpId, OpName, OperationState, RegionId, Use, Value, ValueDef};
pub use diag::{DiagLoc, Diagnostic, OtherFile, Severity, Span};
pub use dominance::{DomTree, Dominance};
/// Integer attribute values are arbitrary-precision, as MLIR's APInt of any width.
pub use num_bigint::BigInt;
pub use opdef::{OpDef, Trait};
pub use syntax::parser::{ParsedFile, Parser, SourceMap};
pub use syntax::printer::{print_op, PrintOptions, Printer};
pub use types::{Type, TypeKind};
pub use verify::verify;

/// Parses `src` (named `filename` in locations and diagnostics) into a module.
pub fn parse(
    ctx: &mut Context,
    src: &str,
    filename: &str,
) -> Result<ParsedFile, (Vec<Diagnostic>, SourceMap)> {
    parse_with(ctx, src, filename, false)
}

/// [`parse`], reading every piece with the pest grammar alone when `grammar_only` (no
/// hand-written fast paths, no caches by source text). The result must be the same either way;
/// tests compare the two.
pub fn parse_with(
    ctx: &mut Context,
    src: &str,
    filename: &str,
    grammar_only: bool,
) -> Result<ParsedFile, (Vec<Diagnostic>, SourceMap)> {
    if let Err(d) = syntax::depth::check_nesting(src) {
        return Err((vec![d], SourceMap::default()));
    }
    let mut parser = Parser::new(ctx, src, filename);
    parser.grammar_only = grammar_only;
    let r = parser.parse_file();
    if let Ok(pf) = &r {
        normalize_inherent_attrs(ctx, pf.module);
    }
    r
}

/// Sets every absent default-valued property of `op` to its default (MLIR's
/// `DefaultValuedAttr` as read by the parser), parsed when the dialect was registered.
fn materialize_defaults(ctx: &mut Context, op: OpId, def: &'static OpDef) {
    for a in def.attributes {
        let Some(value) = a.default.and_then(|t| ctx.default_value(t)) else {
            continue;
        };
        if ctx.get_inherent_or_attr(op, a.name).is_none() {
            rewrite::set_property(ctx, op, a.name, Some(value));
        }
    }
}

/// Moves attributes that a registered op declares (inherent attributes) out of the discardable
/// dictionary into its properties, as MLIR does when it reads generic form written without `<{}>`.
pub fn normalize_inherent_attrs(ctx: &mut Context, root: OpId) {
    let mut ops = Vec::new();
    ctx.walk(root, &mut |o| ops.push(o));
    for o in ops {
        let Some(def) = ctx.op_def(o) else { continue };
        materialize_defaults(ctx, o, def);
        let moving: Vec<(String, Attr)> = ctx
            .attrs(o)
            .iter()
            .filter(|(k, _)| {
                def.attr(k).is_some()
                    || (k == "operandSegmentSizes" && def.has(Trait::AttrSizedOperandSegments))
            })
            .cloned()
            .collect();
        if moving.is_empty() {
            continue;
        }
        let mut props: Vec<(String, Attr)> =
            match ctx.op(o).properties.map(|p| ctx.attr_kind(p).clone()) {
                Some(AttrKind::Dict(e)) => e,
                _ => Vec::new(),
            };
        for (k, v) in moving {
            ctx.set_attr(o, &k, None);
            if !props.iter().any(|(k2, _)| *k2 == k) {
                props.push((k, v));
            }
        }
        let d = ctx.dict_attr(props);
        ctx.op_mut(o).properties = Some(d);
    }
}
