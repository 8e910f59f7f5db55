//! `symbol-dce`: erases private symbols that nothing live refers to, and the symbol helpers
//! (names, visibility, uses, lookup) other passes share.
//!
//! As in MLIR, liveness starts from what must stay. That is every op of the symbol table that is
//! not a symbol, and every symbol that is not private. It then follows symbol references, in any
//! attribute, however deeply nested in arrays and dictionaries, of any op nested in a live op.
//! Nested symbol tables are traversed the same way. A private symbol reached by nothing is
//! erased, with everything inside it.

use crate::{declare_pass, Changed, Pass, Statistics};
use rustc_hash::FxHashSet;
use tilus_ir::attrs::AttrKind;
use tilus_ir::opdef::Trait;
use tilus_ir::rewrite::Rewriter;
use tilus_ir::{Attr, Context, Diagnostic, OpId};

declare_pass! {
    /// The symbol DCE pass. It has no options.
    pub struct SymbolDce {
        name: "symbol-dce",
        class: "SymbolDCE",
        summary: "Eliminate dead symbols (private and unreferenced)",
        description: "Erases private symbols (`sym_visibility = \"private\"`) that no live op \
            references. Live ops are every non-symbol op and every public symbol of the symbol \
            table, plus whatever they reference, transitively, through symbol references in any \
            attribute. Nested symbol tables are handled the same way. Run it after inlining or \
            specialization, which leave private helpers behind. Must run on an op that defines \
            a symbol table.",
        options: {},
        statistics: {
            NUM_DCED = "num-dce'd", "Number of symbols DCE'd";
        },
    }
}

impl Pass for SymbolDce {
    fn run(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        stats: &mut Statistics,
    ) -> Result<Changed, Vec<Diagnostic>> {
        if !is_symbol_table(ctx, op) {
            return Err(vec![Diagnostic::op(
                op,
                format!(
                    "'{}' op was scheduled to run under SymbolDCE, but does not define a symbol \
                     table",
                    ctx.op_name_str(op)
                ),
            )]);
        }
        let mut live = FxHashSet::default();
        compute_liveness(ctx, op, &mut live)?;
        // Nested tables first (post-order), so a dead nested table is handled as a whole.
        let mut tables = Vec::new();
        ctx.walk(op, &mut |o| {
            if is_symbol_table(ctx, o) {
                tables.push(o);
            }
        });
        let mut erased = 0;
        let mut rw = Rewriter::new(ctx);
        for t in tables.into_iter().rev() {
            if !rw.ctx().is_alive(t) {
                continue;
            }
            for child in table_children(rw.ctx(), t) {
                if is_symbol(rw.ctx(), child) && !live.contains(&child) {
                    rw.erase_op(child);
                    erased += 1;
                }
            }
        }
        stats.add(Self::NUM_DCED, erased);
        Ok(if erased > 0 {
            Changed::Yes
        } else {
            Changed::No
        })
    }
}

/// Marks live symbols of table `table` (and, through live nested tables, theirs).
fn compute_liveness(
    ctx: &Context,
    table: OpId,
    live: &mut FxHashSet<OpId>,
) -> Result<(), Vec<Diagnostic>> {
    let mut worklist = Vec::new();
    for o in table_children(ctx, table) {
        // Non-symbols and public symbols are live from the start.
        if !is_symbol(ctx, o) || (!is_private(ctx, o) && live.insert(o)) {
            worklist.push(o);
        }
    }
    while let Some(o) = worklist.pop() {
        if is_symbol_table(ctx, o) {
            compute_liveness(ctx, o, live)?;
        }
        let Some(uses) = symbol_uses(ctx, o) else {
            return Err(vec![Diagnostic::op(
                o,
                "operation contains potentially unknown symbol table, meaning that we can't \
                 reliable compute symbol uses",
            )]);
        };
        let Some(parent) = ctx.parent_op(o) else {
            continue;
        };
        for (_, path) in uses {
            for s in lookup_path(ctx, parent, &path) {
                if live.insert(s) {
                    worklist.push(s);
                }
            }
        }
    }
    Ok(())
}

// ----- symbol helpers -------------------------------------------------------------------------

/// Whether `op` defines a symbol table (`SymbolTable` trait).
pub fn is_symbol_table(ctx: &Context, op: OpId) -> bool {
    ctx.op_def(op).is_some_and(|d| d.has(Trait::SymbolTable))
}

/// Whether `op` is a symbol: a registered op with the `Symbol` trait, or a symbol table that
/// has a name (a named `builtin.module`, which MLIR also treats as a symbol).
pub fn is_symbol(ctx: &Context, op: OpId) -> bool {
    let Some(d) = ctx.op_def(op) else {
        return false;
    };
    d.has(Trait::Symbol) || (d.has(Trait::SymbolTable) && symbol_name(ctx, op).is_some())
}

/// The `sym_name` of an op.
pub fn symbol_name(ctx: &Context, op: OpId) -> Option<String> {
    match ctx.attr_kind(ctx.get_inherent_or_attr(op, "sym_name")?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// Whether a symbol is private (`sym_visibility = "private"`).
pub fn is_private(ctx: &Context, op: OpId) -> bool {
    ctx.get_inherent_or_attr(op, "sym_visibility").is_some_and(
        |a| matches!(ctx.attr_kind(a), AttrKind::String { value, .. } if value == b"private"),
    )
}

/// The ops directly in a symbol table's region(s).
pub fn table_children(ctx: &Context, table: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    for &r in ctx.regions(table) {
        for &b in ctx.region_blocks(r) {
            out.extend(ctx.block_ops(b));
        }
    }
    out
}

/// The child of symbol table `table` named `name`.
pub fn lookup_in(ctx: &Context, table: OpId, name: &str) -> Option<OpId> {
    table_children(ctx, table)
        .into_iter()
        .find(|o| symbol_name(ctx, *o).as_deref() == Some(name))
}

/// Resolves a reference `@a::@b::@c` from `table`: the ops along the path (`a`, `b` in `a`,
/// `c` in `b`), or nothing when a step fails.
pub fn lookup_path(ctx: &Context, table: OpId, path: &[String]) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut cur = table;
    for name in path {
        if !is_symbol_table(ctx, cur) {
            return Vec::new();
        }
        let Some(next) = lookup_in(ctx, cur, name) else {
            return Vec::new();
        };
        out.push(next);
        cur = next;
    }
    out
}

/// The nearest enclosing symbol table of `op` (not `op` itself).
pub fn nearest_symbol_table(ctx: &Context, op: OpId) -> Option<OpId> {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if is_symbol_table(ctx, p) {
            return Some(p);
        }
        cur = ctx.parent_op(p);
    }
    None
}

/// Collects the symbol references in an attribute, through arrays, dictionaries and
/// `distinct`, as `[root, nested...]` paths.
pub fn collect_symbol_refs(ctx: &Context, a: Attr, out: &mut Vec<Vec<String>>) {
    match ctx.attr_kind(a) {
        AttrKind::SymbolRef { root, nested } => {
            let mut path = vec![root.clone()];
            path.extend(nested.iter().cloned());
            out.push(path);
        }
        AttrKind::Array(xs) => {
            for x in xs {
                collect_symbol_refs(ctx, *x, out);
            }
        }
        AttrKind::Dict(es) => {
            for (_, x) in es {
                collect_symbol_refs(ctx, *x, out);
            }
        }
        AttrKind::Distinct { attr, .. } => collect_symbol_refs(ctx, *attr, out),
        _ => {}
    }
}

/// The symbol references held by one op's properties and attributes.
pub fn op_symbol_refs(ctx: &Context, op: OpId) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    if let Some(p) = ctx.op(op).properties {
        collect_symbol_refs(ctx, p, &mut out);
    }
    for (_, a) in ctx.attrs(op) {
        collect_symbol_refs(ctx, *a, &mut out);
    }
    out
}

/// Every symbol use in `op` and the ops nested in it, without descending into nested symbol
/// tables (their own attributes still count), as MLIR's `SymbolTable::getSymbolUses`. `None`
/// when an unregistered op with one region is found: it might be a symbol table, so uses
/// cannot be known.
pub fn symbol_uses(ctx: &Context, op: OpId) -> Option<Vec<(OpId, Vec<String>)>> {
    let mut out = Vec::new();
    let add = |o: OpId, out: &mut Vec<(OpId, Vec<String>)>| -> bool {
        if ctx.op_def(o).is_none() && ctx.regions(o).len() == 1 {
            return false;
        }
        out.extend(op_symbol_refs(ctx, o).into_iter().map(|p| (o, p)));
        true
    };
    if !add(op, &mut out) {
        return None;
    }
    let mut worklist: Vec<_> = ctx.regions(op).to_vec();
    while let Some(r) = worklist.pop() {
        for &b in ctx.region_blocks(r) {
            for o in ctx.block_ops(b) {
                if !add(o, &mut out) {
                    return None;
                }
                if !is_symbol_table(ctx, o) {
                    worklist.extend(ctx.regions(o).iter().copied());
                }
            }
        }
    }
    Some(out)
}
