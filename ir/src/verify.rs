//! The verifier: structural rules every op obeys, the rules each op's declaration implies, and
//! each op's own verifier.
//!
//! Structural rules: registered dialects (unless `allow_unregistered`), terminators, SSA
//! dominance in SSACFG regions (within a block, across blocks by the dominator tree, and into
//! nested regions; [`crate::dominance`], not checked in unreachable blocks, as in MLIR), `IsolatedFromAbove`, successors staying in their region, symbol-table
//! uniqueness. Declaration rules: operand/result/region/successor counts, type and attribute
//! constraints, and the traits. All violations are collected, not just the first.

use crate::attrs::AttrKind;
use crate::context::{Context, OpId, RegionId, ValueDef};
use crate::diag::{DiagLoc, Diagnostic};
use crate::dominance::{is_graph_region, Dominance};
use crate::format::segment_sizes;
use crate::opdef::{Arity, OpDef, Trait};
use crate::syntax::printer::type_to_string;
use std::collections::HashMap;

/// Verifies `op` and everything nested in it; returns every problem found.
pub fn verify(ctx: &Context, op: OpId) -> Vec<Diagnostic> {
    let mut v = Verifier {
        ctx,
        diags: Vec::new(),
        dom: Dominance::new(),
    };
    v.op(op);
    v.diags
}

struct Verifier<'a> {
    ctx: &'a Context,
    diags: Vec<Diagnostic>,
    dom: Dominance,
}

/// Whether `x` is `o` or nested in it.
fn within(ctx: &Context, mut x: OpId, o: OpId) -> bool {
    loop {
        if x == o {
            return true;
        }
        match ctx.parent_op(x) {
            Some(p) => x = p,
            None => return false,
        }
    }
}

/// An enum attribute stored as an integer names one of its keywords; any other value would
/// print as text no parser reads back (the custom form has no keyword for it), and mlir-opt
/// rejects it when it converts the property.
fn enum_out_of_range(
    ctx: &Context,
    op: OpId,
    a: &crate::opdef::AttrDef,
    v: crate::Attr,
) -> Option<Diagnostic> {
    let keys = a.constraint.keywords;
    let AttrKind::Integer { value, .. } = ctx.attr_kind(v) else {
        return None;
    };
    if keys.is_empty() || i64::try_from(value).is_ok_and(|x| (0..keys.len() as i64).contains(&x)) {
        return None;
    }
    Some(
        Diagnostic::error(
            DiagLoc::OpAttr(op, a.name),
            format!(
                "{}expects {} to be one of {}, but found {value}",
                op_prefix(ctx, op),
                a.name,
                keys.iter()
                    .enumerate()
                    .map(|(i, k)| format!("{i} ({k})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
        .with_label(format!("'{}' is here", a.name))
        .with_help(format!(
            "'{}' is a {}; in custom form it is written as its keyword",
            a.name, a.constraint.desc
        )),
    )
}

fn op_prefix(ctx: &Context, op: OpId) -> String {
    format!("'{}' op ", ctx.op_name_str(op))
}

impl<'a> Verifier<'a> {
    fn err(&mut self, op: OpId, msg: String) {
        let m = format!("{}{}", op_prefix(self.ctx, op), msg);
        self.diags.push(Diagnostic::op(op, m));
    }

    fn op(&mut self, op: OpId) {
        let ctx = self.ctx;
        let def = ctx.op_def(op);
        match def {
            None => {
                let name = ctx.op_name_str(op);
                let dialect = name.split_once('.').map(|(d, _)| d).unwrap_or("");
                if ctx.is_dialect_registered(dialect) {
                    self.err(op, format!("is not a registered operation: dialect '{dialect}' has no op named '{name}'"));
                    self.diags.last_mut().unwrap().message = format!(
                        "unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
                    );
                } else if !ctx.allow_unregistered {
                    let d = Diagnostic::op(
                        op,
                        format!("{}created with unregistered dialect. If this is intended, please use --allow-unregistered-dialect", op_prefix(ctx, op)),
                    )
                    .with_help("pass --allow-unregistered-dialect to accept ops of dialects tilus does not know");
                    self.diags.push(d);
                }
            }
            Some(def) => {
                let before = self.diags.len();
                self.declared(op, def);
                if self.diags.len() == before {
                    if let Some(f) = def.verify {
                        if let Err(d) = f(ctx, op) {
                            self.diags.push(d);
                        }
                    }
                }
            }
        }
        // Regions.
        for &r in ctx.regions(op) {
            let graph = is_graph_region(ctx, r);
            self.region(op, r, def, graph);
        }
    }

    fn region(&mut self, parent: OpId, r: RegionId, def: Option<&'static OpDef>, graph: bool) {
        let ctx = self.ctx;
        let blocks = ctx.region_blocks(r);
        if let Some(&entry) = blocks.first() {
            if !ctx.block_preds(entry).is_empty() {
                let p = ctx.block_preds(entry)[0];
                self.err(p, "entry block of region may not have predecessors".into());
            }
        }
        let needs_terminator = def.is_some() && !def.unwrap().has(Trait::NoTerminator);
        for &b in blocks {
            // As in MLIR, uses in a block the entry does not reach are not checked: that code
            // never runs (ops nested in it are still checked within their own regions).
            // In a graph region, values of the region itself need no dominance, but values from
            // an enclosing SSACFG region still do (MLIR checks by the defining region's kind,
            // which `value_dominates` does).
            let check_dominance = graph || blocks.len() == 1 || self.dom.is_reachable(ctx, b);
            if needs_terminator {
                match ctx.block_last(b) {
                    None => {
                        // MLIR allows an empty block only for ops without a terminator.
                        let m = format!(
                            "{}region #{} block with no terminator, has 0 operations",
                            op_prefix(ctx, parent),
                            ctx.regions(parent)
                                .iter()
                                .position(|x| *x == r)
                                .unwrap_or(0)
                        );
                        self.diags.push(Diagnostic::op(parent, m));
                    }
                    Some(last) => {
                        let term = match ctx.op_def(last) {
                            Some(d) => d.has(Trait::Terminator),
                            None => true,
                        };
                        if !term {
                            let m = format!(
                                "block with no terminator, has {}",
                                crate::syntax::printer::print_op_line(ctx, last)
                            );
                            self.diags.push(Diagnostic::op(last, m));
                        }
                    }
                }
            }
            for o in ctx.block_ops(b) {
                // Terminators must come last.
                if let Some(d) = ctx.op_def(o) {
                    if d.has(Trait::Terminator) && Some(o) != ctx.block_last(b) {
                        self.err(o, "must be the last operation in the parent block".into());
                    }
                }
                for &s in ctx.successors(o) {
                    if ctx.block_parent(s) != Some(r) {
                        self.err(o, "reference to block defined in another region".into());
                    }
                }
                if check_dominance {
                    self.dominance(o);
                }
                self.isolation(o);
                self.op(o);
            }
        }
        if def.is_some_and(|d| d.has(Trait::SymbolTable)) {
            self.symbols(r);
        }
    }

    fn symbols(&mut self, r: RegionId) {
        let ctx = self.ctx;
        let mut seen: HashMap<String, OpId> = HashMap::new();
        for &b in ctx.region_blocks(r) {
            for o in ctx.block_ops(b) {
                if let Some(a) = ctx.get_inherent_or_attr(o, "sym_name") {
                    if let AttrKind::String { value, .. } = ctx.attr_kind(a) {
                        let name = String::from_utf8_lossy(value).into_owned();
                        if let Some(prev) = seen.get(&name) {
                            let d =
                                Diagnostic::op(o, format!("redefinition of symbol named '{name}'"))
                                    .with_note(
                                        DiagLoc::Op(*prev),
                                        "see existing symbol definition here",
                                    );
                            self.diags.push(d);
                        } else {
                            seen.insert(name, o);
                        }
                    }
                }
            }
        }
    }

    /// Uses inside an isolated op's regions must be defined inside them.
    fn isolation(&mut self, o: OpId) {
        let ctx = self.ctx;
        // Uses nested in regions of `o` of values defined outside an isolated op.
        if ctx.op_def(o).is_some_and(|d| d.is_isolated()) {
            let mut bad = Vec::new();
            ctx.walk(o, &mut |x| {
                if x == o {
                    return;
                }
                for &v in ctx.operands(x) {
                    // Defined inside: a result of an op nested in `o`, or an argument of a block
                    // in a region of `o` or of an op nested in it. The ancestor chain is short,
                    // so this beats collecting the nested ops in a set.
                    let outside = match ctx.value_def(v) {
                        ValueDef::Result(d, _) => d == o || !within(ctx, d, o),
                        ValueDef::BlockArg(b, _) => {
                            match ctx.block_parent(b).and_then(|r| ctx.region_parent(r)) {
                                Some(p) => !within(ctx, p, o),
                                None => false,
                            }
                        }
                    };
                    if outside {
                        bad.push(x);
                    }
                }
            });
            for x in bad {
                let d = Diagnostic::op(
                    x,
                    format!(
                        "{}using value defined outside the region",
                        op_prefix(ctx, x)
                    ),
                )
                .with_note(DiagLoc::Op(o), "required by region isolation constraints");
                self.diags.push(d);
            }
        }
    }

    fn dominance(&mut self, o: OpId) {
        let ctx = self.ctx;
        // Like MLIR, report the first operand that is not dominated.
        for (i, &v) in ctx.operands(o).iter().enumerate() {
            if !self.dom.value_dominates(ctx, v, o) {
                let mut d = Diagnostic::op(o, format!("operand #{i} does not dominate this use"));
                match ctx.value_def(v) {
                    ValueDef::Result(def, _) => {
                        d = d.with_note(DiagLoc::Op(def), "operand defined here");
                    }
                    ValueDef::BlockArg(b, _) => {
                        // MLIR's note: the block's number in its region, and whether that is
                        // the user's region or an enclosing one, at the region's op.
                        let r = ctx.block_parent(b);
                        let owner = r.and_then(|r| ctx.region_parent(r));
                        if let (Some(r), Some(owner)) = (r, owner) {
                            let n = ctx.region_blocks(r).iter().position(|x| *x == b);
                            let same = ctx.op_parent_block(o).and_then(|ub| ctx.block_parent(ub))
                                == Some(r);
                            let place = if same {
                                "the same region"
                            } else {
                                "a parent region"
                            };
                            d = d.with_note(
                                DiagLoc::Op(owner),
                                format!(
                                    "operand defined as a block argument (block #{} in {place})",
                                    n.unwrap_or(0)
                                ),
                            );
                        }
                    }
                }
                self.diags.push(d);
                break;
            }
        }
    }

    fn declared(&mut self, op: OpId, def: &'static OpDef) {
        let ctx = self.ctx;
        // Operands.
        let operands = ctx.operands(op);
        let singles = def
            .operands
            .iter()
            .filter(|o| o.arity == Arity::Single)
            .count();
        let variadic = def.operands.iter().any(|o| o.arity != Arity::Single);
        let segmented = def.has(Trait::AttrSizedOperandSegments);
        if segmented {
            let ok = ctx
                .get_prop(op, "operandSegmentSizes")
                .and_then(|a| ctx.int_array_values(a))
                .is_some_and(|values| {
                    values.len() == def.operands.len()
                        && values.iter().all(|&v| v >= 0)
                        && values.iter().sum::<i64>() == operands.len() as i64
                });
            if !ok {
                self.err(op, format!("requires property 'operandSegmentSizes' with {} entries summing to the operand count ({})", def.operands.len(), operands.len()));
                return;
            }
        } else if (!variadic && operands.len() != singles) || (variadic && operands.len() < singles)
        {
            let expected = if variadic {
                format!("at least {singles}")
            } else {
                singles.to_string()
            };
            self.err(
                op,
                format!(
                    "requires {expected} operand{}, but found {}",
                    if singles == 1 { "" } else { "s" },
                    operands.len()
                ),
            );
            return;
        }
        let sizes = segment_sizes(ctx, def, op, operands.len());
        let mut idx = 0;
        for (slot, n) in def.operands.iter().zip(sizes.iter()) {
            if slot.arity == Arity::Optional && *n > 1 {
                self.err(
                    op,
                    format!(
                        "operand group '{}' is optional but has {n} values",
                        slot.name
                    ),
                );
            }
            for k in 0..*n {
                let v = operands[idx + k];
                let t = ctx.value_type(v);
                if !(slot.ty.check)(ctx, t) {
                    self.err(
                        op,
                        format!(
                            "operand #{} must be {}, but got '{}'",
                            idx + k,
                            slot.ty.desc,
                            type_to_string(ctx, t)
                        ),
                    );
                    // MLIR stops at the first constraint an op breaks.
                    return;
                }
            }
            idx += n;
        }
        // Results.
        let results = ctx.results(op);
        let rsingles = def
            .results
            .iter()
            .filter(|r| r.arity == Arity::Single)
            .count();
        let rvariadic = def.results.iter().any(|r| r.arity != Arity::Single);
        if (!rvariadic && results.len() != rsingles) || (rvariadic && results.len() < rsingles) {
            let expected = if rvariadic {
                format!("at least {rsingles}")
            } else {
                rsingles.to_string()
            };
            self.err(
                op,
                format!(
                    "requires {expected} result{}, but found {}",
                    if rsingles == 1 { "" } else { "s" },
                    results.len()
                ),
            );
            return;
        }
        let extra = results.len() - rsingles;
        let mut ri = 0;
        for slot in def.results {
            let n = if slot.arity == Arity::Single {
                1
            } else {
                extra
            };
            for k in 0..n {
                let t = ctx.value_type(results[ri + k]);
                if !(slot.ty.check)(ctx, t) {
                    self.err(
                        op,
                        format!(
                            "result #{} must be {}, but got '{}'",
                            ri + k,
                            slot.ty.desc,
                            type_to_string(ctx, t)
                        ),
                    );
                    return;
                }
            }
            ri += n;
        }
        // Attributes.
        for a in def.attributes {
            match ctx.get_inherent_or_attr(op, a.name) {
                None if !a.optional => self.err(op, format!("requires attribute '{}'", a.name)),
                None => {}
                Some(v) if !(a.constraint.check)(ctx, v) => {
                    let m = format!(
                        "{}attribute '{}' failed to satisfy constraint: {}, but found {}",
                        op_prefix(ctx, op),
                        a.name,
                        a.constraint.desc,
                        crate::syntax::printer::attr_to_string(ctx, v)
                    );
                    let d = Diagnostic::error(DiagLoc::OpAttr(op, a.name), m)
                        .with_label(format!("'{}' is here", a.name));
                    self.diags.push(d);
                }
                Some(v) => {
                    if let Some(d) = enum_out_of_range(ctx, op, a, v) {
                        self.diags.push(d);
                    }
                }
            }
        }
        // Regions and successors.
        let nr = ctx.regions(op).len();
        if def.region_range(0, nr).is_none() && !(def.regions.is_empty() && nr == 0) {
            let fixed = def.regions.iter().filter(|r| !r.variadic).count();
            let at_least = if fixed < def.regions.len() {
                "at least "
            } else {
                ""
            };
            self.err(
                op,
                format!(
                    "requires {at_least}{fixed} region{}, but found {nr}",
                    if fixed == 1 { "" } else { "s" },
                ),
            );
            return;
        }
        for (i, r) in ctx.regions(op).iter().enumerate() {
            let Some(rd) = def.region_slot_for(i, nr).map(|k| &def.regions[k]) else {
                continue;
            };
            let nb = ctx.region_blocks(*r).len();
            if (rd.single_block || def.has(Trait::SingleBlock) || def.has(Trait::NoTerminator))
                && nb > 1
            {
                self.err(
                    op,
                    format!(
                        "region #{i} ('{}') must have at most 1 block, but has {nb}",
                        rd.name
                    ),
                );
            }
        }
        let ns = ctx.successors(op).len();
        if def.successor_range(0, ns).is_none() && !(def.successors.is_empty() && ns == 0) {
            let fixed = def.successors.iter().filter(|r| !r.variadic).count();
            let at_least = if fixed < def.successors.len() {
                "at least "
            } else {
                ""
            };
            self.err(
                op,
                format!(
                    "requires {at_least}{fixed} successor{}, but found {ns}",
                    if fixed == 1 { "" } else { "s" },
                ),
            );
            return;
        }
        // A segmented variadic successor slot: one size per successor, adding up to the
        // operand group it splits (MLIR's `VariadicOfVariadic` rules).
        for (k, sd) in def.successors.iter().enumerate() {
            let Some(prop) = sd.segments else { continue };
            let nsucc = def.successor_range(k, ns).map_or(0, |r| r.len());
            let segs = ctx
                .get_prop(op, prop)
                .and_then(|a| ctx.int_array_values(a))
                .unwrap_or_default();
            if segs.len() != nsucc {
                self.err(
                    op,
                    format!(
                        "'{prop}' has {} sizes, but the op has {nsucc} such successors",
                        segs.len()
                    ),
                );
                return;
            }
            let n = crate::format::operand_group(ctx, def, op, sd.operands).len();
            let total: i64 = segs.iter().sum();
            if segs.iter().any(|v| *v < 0) || total != n as i64 {
                self.err(
                    op,
                    format!(
                        "{} count ({n}) does not match with the total size ({total}) specified in attribute '{prop}'",
                        sd.operands
                    ),
                );
                return;
            }
        }
        // Forwarded operands must match the target block's arguments.
        for (i, &b) in ctx.successors(op).iter().enumerate() {
            let Some(range) = crate::rewrite::successor_operands(ctx, op, i) else {
                self.err(
                    op,
                    format!("cannot tell which operands successor #{i} takes"),
                );
                return;
            };
            let vals = &ctx.operands(op)[range];
            let args = ctx.block_args(b);
            if vals.len() != args.len() {
                self.err(
                    op,
                    format!(
                        "branch has {} operand{} for successor #{i}, but target block has {}",
                        vals.len(),
                        if vals.len() == 1 { "" } else { "s" },
                        args.len()
                    ),
                );
                continue;
            }
            for (k, (v, a)) in vals.iter().zip(args).enumerate() {
                let (vt, at) = (ctx.value_type(*v), ctx.value_type(*a));
                if vt != at {
                    self.err(
                        op,
                        format!(
                            "type mismatch for bb argument #{k} of successor #{i}: expected '{}' (the block argument's type), but the operand is '{}'",
                            type_to_string(ctx, at),
                            type_to_string(ctx, vt)
                        ),
                    );
                }
            }
        }
        // Traits.
        for t in def.traits {
            match t {
                Trait::SameOperandsAndResultType => {
                    let mut ts = operands
                        .iter()
                        .chain(results.iter())
                        .map(|v| ctx.value_type(*v));
                    if let Some(first) = ts.next() {
                        if let Some(bad) = ts.find(|t| *t != first) {
                            self.err(op, format!("requires the same type for all operands and results, but found '{}' and '{}'", type_to_string(ctx, first), type_to_string(ctx, bad)));
                        }
                    }
                }
                // Ops with a verifier of their own state this rule there, in their words.
                Trait::AllTypesMatch(names) if def.verify.is_none() => {
                    // Named operands and results (one value each, or none when an optional
                    // one is absent) must share one type.
                    let mut ts = Vec::new();
                    for n in names.iter() {
                        let vals = if def.operands.iter().any(|o| o.name == *n) {
                            crate::format::operand_group(ctx, def, op, n)
                        } else if def.results.iter().any(|r| r.name == *n) {
                            crate::format::result_group(ctx, def, op, n)
                        } else {
                            Vec::new()
                        };
                        ts.extend(vals.iter().map(|v| ctx.value_type(*v)));
                    }
                    if ts.windows(2).any(|w| w[0] != w[1]) {
                        self.err(
                            op,
                            format!(
                                "failed to verify that all of {{{}}} have same type",
                                names.join(", ")
                            ),
                        );
                    }
                }
                Trait::SameTypeOperands => {
                    let mut ts = operands.iter().map(|v| ctx.value_type(*v));
                    if let Some(first) = ts.next() {
                        if let Some(bad) = ts.find(|t| *t != first) {
                            self.err(op, format!("requires all operands to have the same type, but found '{}' and '{}'", type_to_string(ctx, first), type_to_string(ctx, bad)));
                        }
                    }
                }
                Trait::HasParent(parents) => {
                    let p = ctx.parent_op(op).map(|p| ctx.op_name_str(p).to_string());
                    if !p.as_deref().is_some_and(|p| parents.contains(&p)) {
                        let list = parents
                            .iter()
                            .map(|p| format!("'{p}'"))
                            .collect::<Vec<_>>()
                            .join(", ");
                        let s = if parents.len() == 1 {
                            format!("expects parent op {list}")
                        } else {
                            format!("expects parent op to be one of {list}")
                        };
                        self.err(op, s);
                    }
                }
                Trait::Symbol => {
                    let ok = ctx
                        .get_inherent_or_attr(op, "sym_name")
                        .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::String { .. }));
                    if !ok {
                        self.err(op, "requires string attribute 'sym_name'".into());
                    }
                    // A symbol is found through its symbol table; one nested in a function or
                    // kernel body is in none (MLIR's SymbolOpInterface rule).
                    if let Some(p) = ctx.parent_op(op) {
                        if !ctx.op_def(p).is_some_and(|d| d.has(Trait::SymbolTable)) {
                            let d = Diagnostic::op(
                                op,
                                format!(
                                    "{}symbol's parent must have the SymbolTable trait",
                                    op_prefix(ctx, op)
                                ),
                            )
                            .with_note(
                                DiagLoc::Op(p),
                                format!("'{}' is not a symbol table", ctx.op_name_str(p)),
                            )
                            .with_help("define functions and kernels at module level (directly in a `builtin.module`)");
                            self.diags.push(d);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}
