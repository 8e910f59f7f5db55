//! The `scf` ops beyond loops and conditionals: `scf.index_switch` (a structured switch),
//! `scf.parallel` with `scf.reduce`, and `scf.forall` with `scf.forall.in_parallel`.
//!
//! Tile kernels do not use them, but MLIR files from tiling and bufferization do, and any valid
//! MLIR 22 file of a dialect we register must load; their syntax, generic form and verifier
//! rules are MLIR's.

use crate::scf::{ensure_yield, print_body, print_trailing_attrs, state, types_str, yield_types};
use crate::tilus_types::DENSE_I64_ARRAY;
use tilus_ir::attrs::AttrKind;
use tilus_ir::opdef::{
    attr, block_region, many, many_block_regions, one, opt_attr, Format, OpDef, Trait, ANY_TYPE,
    INDEX,
};
use tilus_ir::syntax::parser::{PResult, Parser, RegionArg, UnresolvedOperand};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::{
    Attr, Context, Diagnostic, OpId, OperationState, Printer, RegionId, Span, Type, TypeKind, Value,
};

/// MLIR's `ShapedType::kDynamic`: a static bound that is given by an operand instead.
const DYNAMIC: i64 = i64::MIN;

/// An array attribute (`mapping = [#gpu.thread<x>]`).
const ARRAY_ATTR: tilus_ir::opdef::AttrConstraint = tilus_ir::opdef::AttrConstraint {
    desc: "array attribute",
    check: |c, a| matches!(c.attr_kind(a), AttrKind::Array(_)),
    value_type: None,
    keywords: &[],
    short_form: None,
    form: tilus_ir::opdef::AttrForm::Plain,
};

// ----- scf.index_switch ---------------------------------------------------------------------

/// `scf.index_switch`.
pub static INDEX_SWITCH: OpDef = OpDef {
    name: "scf.index_switch",
    summary: "a structured switch on an index",
    description: "Runs the case region whose value in `cases` equals `arg`, or `defaultRegion` \
        when none does; the region's `scf.yield` gives the results. Written \
        `%r = scf.index_switch %i -> i32 case 2 { ... } default { ... }`.",
    operands: &[one("arg", INDEX)],
    results: &[many("results", ANY_TYPE)],
    attributes: &[attr("cases", DENSE_I64_ARRAY)],
    regions: &[
        block_region("defaultRegion"),
        many_block_regions("caseRegions"),
    ],
    traits: &[Trait::SingleBlock, Trait::RecursiveMemoryEffects],
    verify: Some(verify_index_switch),
    format: Format::Custom {
        parse: parse_index_switch,
        print: print_index_switch,
    },
    ..OpDef::DEFAULT
};
const _: () = INDEX_SWITCH.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.index_switch`.
    pub struct IndexSwitchOp = INDEX_SWITCH;
    operands {
        arg = "arg": Value
    }
    results {
        results = "results": &[Value]
    }
    attrs {
        cases = "cases": Attr
    }
    regions {
        default_region = "defaultRegion",
        case_regions = "caseRegions": many
    }
    successors {}
}

fn verify_index_switch(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let h = IndexSwitchOp::from_id_unchecked(op);
    let cases = ctx.int_array_values(h.cases(ctx)).unwrap_or_default();
    let regions = h.case_regions(ctx);
    if cases.len() != regions.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.index_switch' op has {} case regions but {} case values",
                regions.len(),
                cases.len()
            ),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for c in &cases {
        if !seen.insert(*c) {
            return Err(Diagnostic::op(
                op,
                format!("'scf.index_switch' op has duplicate case value: {c}"),
            ));
        }
    }
    let results: Vec<Type> = ctx.results(op).iter().map(|v| ctx.value_type(*v)).collect();
    let mut all = vec![("default region".to_string(), h.default_region(ctx))];
    for (c, r) in cases.iter().zip(regions) {
        all.push((format!("case region #{c}"), *r));
    }
    for (what, r) in all {
        match yield_types(ctx, r) {
            None => {
                return Err(Diagnostic::op(
                    op,
                    format!("'scf.index_switch' op expected the {what} to end with scf.yield"),
                ))
            }
            Some((y, ts)) if ts != results => {
                return Err(Diagnostic::op(
                    y,
                    format!(
                        "'scf.yield' op types ({}) do not match the results of the enclosing 'scf.index_switch' ({})",
                        types_str(ctx, &ts),
                        types_str(ctx, &results)
                    ),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// `-> i32` or `-> (i32, f32)`; nothing when there is no arrow.
fn parse_optional_arrow_types(p: &mut Parser) -> PResult<Vec<Type>> {
    if !p.eat("->") {
        return Ok(Vec::new());
    }
    if p.eat("(") {
        let mut ts = Vec::new();
        if !p.eat(")") {
            loop {
                ts.push(p.parse_type()?);
                if !p.eat(",") {
                    break;
                }
            }
            p.expect(")")?;
        }
        return Ok(ts);
    }
    Ok(vec![p.parse_type()?])
}

/// The optional `-> types` of an op whose results take the types of `pending` operands (init
/// values, shared outputs), and those operands resolved with them.
fn parse_results_of(
    p: &mut Parser,
    pending: &[UnresolvedOperand],
    what: &str,
) -> PResult<(Vec<Type>, Vec<Value>)> {
    let results = parse_optional_arrow_types(p)?;
    if results.len() != pending.len() {
        return Err(p.err_here(format!(
            "expected as many result types as {what} ({}), but found {}",
            pending.len(),
            results.len()
        )));
    }
    let vals = pending
        .iter()
        .zip(&results)
        .map(|(u, t)| p.resolve_operand(u, *t))
        .collect::<PResult<Vec<_>>>()?;
    Ok((results, vals))
}

fn parse_index_switch(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let u = p.parse_operand()?;
    let index = p.ctx.index_type();
    let arg = p.resolve_operand(&u, index)?;
    // MLIR's format puts the attribute dictionary before the result types.
    let mut trailing = Vec::new();
    if p.peek() == Some(b'{') {
        for (k, v, sp) in p.parse_attr_dict()? {
            p.note_attr_span(&k, sp);
            trailing.push((k, v));
        }
    }
    // `-> i32, f32`: the format's `type($results)`, a bare list.
    let mut results = Vec::new();
    if p.eat("->") {
        loop {
            results.push(p.parse_type()?);
            if !p.eat(",") {
                break;
            }
        }
    }
    let mut cases = Vec::new();
    let mut regions = Vec::new();
    while p.eat_keyword("case") {
        let neg = p.eat("-");
        let (text, sp) = p.parse_number_text()?;
        let v = tilus_ir::syntax::parser::parse_int_literal(&text)
            .and_then(|v| i64::try_from(v).ok())
            .ok_or_else(|| Diagnostic::at(sp, "expected a 64-bit case value"))?;
        cases.push(if neg { v.wrapping_neg() } else { v });
        // As in MLIR, only the default region gets an implicit `scf.yield`.
        regions.push(p.parse_region(vec![], false)?);
    }
    p.expect_keyword("default")?;
    let d = p.parse_region(vec![], false)?;
    ensure_yield(p, d);
    regions.insert(0, d);
    let cases_attr = p.ctx.int_array_attr(64, &cases);
    let mut st = state(
        p,
        def,
        vec![arg],
        results,
        vec![("cases".into(), cases_attr)],
        regions,
    )?;
    st.attrs.extend(trailing);
    Ok(st)
}

fn print_index_switch(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    let h = IndexSwitchOp::from_id_unchecked(op);
    pr.out.push(' ');
    pr.print_value(h.arg(ctx));
    let rest = ctx.attrs(op).to_vec();
    if !rest.is_empty() {
        pr.out.push(' ');
        pr.print_attr_dict_entries(&rest, &[]);
    }
    let results = h.results(ctx);
    if !results.is_empty() {
        pr.out.push_str(" -> ");
        let ts: Vec<Type> = results.iter().map(|v| ctx.value_type(*v)).collect();
        pr.out.push_str(&types_str(ctx, &ts));
    }
    // MLIR's format leaves a space before the case list.
    pr.out.push(' ');
    let cases = ctx.int_array_values(h.cases(ctx)).unwrap_or_default();
    for (c, r) in cases.iter().zip(h.case_regions(ctx)) {
        pr.newline();
        pr.out.push_str(&format!("case {c} "));
        print_body(pr, *r);
    }
    pr.newline();
    pr.out.push_str("default ");
    print_body(pr, h.default_region(ctx));
}

// ----- scf.parallel, scf.reduce, scf.reduce.return -----------------------------------------

/// `scf.parallel`.
pub static PARALLEL: OpDef = OpDef {
    name: "scf.parallel",
    summary: "a parallel loop nest with reductions",
    description: "Runs its body for every point of the iteration space given by \
        `lowerBound`, `upperBound` and `step` (one of each per induction variable), in any \
        order; the body ends in `scf.reduce`, which combines one value per iteration into \
        each result, starting from `initVals`. Written \
        `%r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> f32 { ... }`.",
    operands: &[
        many("lowerBound", INDEX),
        many("upperBound", INDEX),
        many("step", INDEX),
        many("initVals", ANY_TYPE),
    ],
    results: &[many("results", ANY_TYPE)],
    regions: &[block_region("region")],
    traits: &[
        Trait::SingleBlock,
        Trait::RecursiveMemoryEffects,
        Trait::AttrSizedOperandSegments,
    ],
    verify: Some(verify_parallel),
    format: Format::Custom {
        parse: parse_parallel,
        print: print_parallel,
    },
    ..OpDef::DEFAULT
};
const _: () = PARALLEL.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.parallel`.
    pub struct ParallelOp = PARALLEL;
    operands {
        lower_bound = "lowerBound": &[Value],
        upper_bound = "upperBound": &[Value],
        step = "step": &[Value],
        init_vals = "initVals": &[Value]
    }
    results {
        results = "results": &[Value]
    }
    attrs {}
    regions {
        region = "region"
    }
    successors {}
}

/// `scf.reduce`.
pub static REDUCE: OpDef = OpDef {
    name: "scf.reduce",
    summary: "the reductions that end an scf.parallel body",
    description: "Ends the body of `scf.parallel`: operand `i` is this iteration's \
        contribution to result `i`, and region `i` combines two such values (its block's two \
        arguments) with `scf.reduce.return`. Written `scf.reduce(%v : f32) { ^bb0(%a: f32, \
        %b: f32): ... }`, or bare `scf.reduce` without results.",
    operands: &[many("operands", ANY_TYPE)],
    regions: &[many_block_regions("reductions")],
    traits: &[
        Trait::Terminator,
        Trait::RecursiveMemoryEffects,
        Trait::HasParent(&["scf.parallel"]),
    ],
    verify: Some(verify_reduce),
    format: Format::Custom {
        parse: parse_reduce,
        print: print_reduce,
    },
    ..OpDef::DEFAULT
};
const _: () = REDUCE.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.reduce`.
    pub struct ReduceOp = REDUCE;
    operands {
        operands = "operands": &[Value]
    }
    results {}
    attrs {}
    regions {
        reductions = "reductions": many
    }
    successors {}
}

/// `scf.reduce.return`.
pub static REDUCE_RETURN: OpDef = OpDef {
    name: "scf.reduce.return",
    summary: "the combined value of a reduction region",
    description: "Ends a region of `scf.reduce` with the combination of its two arguments.",
    operands: &[one("result", ANY_TYPE)],
    traits: &[
        Trait::Pure,
        Trait::Terminator,
        Trait::HasParent(&["scf.reduce"]),
    ],
    format: Format::Declarative("$result attr-dict `:` type($result)"),
    ..OpDef::DEFAULT
};
const _: () = REDUCE_RETURN.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.reduce.return`.
    pub struct ReduceReturnOp = REDUCE_RETURN;
    operands {
        result = "result": Value
    }
    results {}
    attrs {}
    regions {}
    successors {}
}

/// The value of a constant operand, if it is one.
fn const_index(ctx: &Context, v: Value) -> Option<i64> {
    match ctx.attr_kind(tilus_ir::rewrite::constant_of(ctx, v)?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

fn verify_parallel(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let h = ParallelOp::from_id_unchecked(op);
    let (lb, ub, st) = (h.lower_bound(ctx), h.upper_bound(ctx), h.step(ctx));
    if lb.len() != ub.len() || lb.len() != st.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.parallel' op expects the same number of lower bounds, upper bounds and steps, but found {}, {} and {}",
                lb.len(),
                ub.len(),
                st.len()
            ),
        ));
    }
    if lb.is_empty() {
        return Err(Diagnostic::op(
            op,
            "'scf.parallel' op needs at least one tuple element for lowerBound, upperBound and step",
        ));
    }
    for s in st {
        if const_index(ctx, *s).is_some_and(|v| v <= 0) {
            return Err(Diagnostic::op(
                op,
                "'scf.parallel' op constant step operand must be positive",
            ));
        }
    }
    let Some(&body) = ctx.region_blocks(h.region(ctx)).first() else {
        return Err(Diagnostic::op(op, "'scf.parallel' op expects a body block"));
    };
    let args = ctx.block_args(body);
    if args.len() != lb.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.parallel' op expects the same number of induction variables: {} as bound and step values: {}",
                args.len(),
                lb.len()
            ),
        ));
    }
    if args
        .iter()
        .any(|a| !matches!(ctx.type_kind(ctx.value_type(*a)), TypeKind::Index))
    {
        return Err(Diagnostic::op(
            op,
            "'scf.parallel' op expects arguments for the induction variable to be of index type",
        ));
    }
    let Some(reduce) = ctx.block_last(body).and_then(|t| ReduceOp::cast(ctx, t)) else {
        return Err(Diagnostic::op(
            op,
            "'scf.parallel' op expects its body to end with 'scf.reduce'",
        ));
    };
    let inits = h.init_vals(ctx);
    let reds = reduce.operands(ctx);
    let results = h.results(ctx);
    if results.len() != reds.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.parallel' op expects number of results: {} to be the same as number of reductions: {}",
                results.len(),
                reds.len()
            ),
        ));
    }
    if results.len() != inits.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.parallel' op expects number of results: {} to be the same as number of initial values: {}",
                results.len(),
                inits.len()
            ),
        ));
    }
    for (i, ((r, v), x)) in results.iter().zip(reds).zip(inits).enumerate() {
        let rt = ctx.value_type(*r);
        if ctx.value_type(*v) != rt || ctx.value_type(*x) != rt {
            return Err(Diagnostic::op(
                op,
                format!(
                    "'scf.parallel' op expects type of reduction #{i} to be the same as result type: {}",
                    type_to_string(ctx, rt)
                ),
            ));
        }
    }
    Ok(())
}

fn verify_reduce(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let h = ReduceOp::from_id_unchecked(op);
    let vals = h.operands(ctx);
    let regions = h.reductions(ctx);
    if vals.len() != regions.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.reduce' op expects one reduction region per operand: {} operands, {} regions",
                vals.len(),
                regions.len()
            ),
        ));
    }
    for (i, (v, r)) in vals.iter().zip(regions).enumerate() {
        let t = ctx.value_type(*v);
        let ts = type_to_string(ctx, t);
        let Some(&b) = ctx.region_blocks(*r).first() else {
            return Err(Diagnostic::op(
                op,
                format!("'scf.reduce' op expects reduction region #{i} to have a block"),
            ));
        };
        let args = ctx.block_args(b);
        if args.len() != 2 || args.iter().any(|a| ctx.value_type(*a) != t) {
            return Err(Diagnostic::op(
                op,
                format!("'scf.reduce' op expected two block arguments with type '{ts}' in the {i}-th reduction region"),
            ));
        }
        let ret = ctx.block_last(b).and_then(|o| ReduceReturnOp::cast(ctx, o));
        match ret {
            None => {
                return Err(Diagnostic::op(
                    op,
                    format!("'scf.reduce' op expects reduction region #{i} to end with 'scf.reduce.return'"),
                ))
            }
            Some(rr) if ctx.value_type(rr.result(ctx)) != t => {
                return Err(Diagnostic::op(
                    rr.op(),
                    format!(
                        "'scf.reduce.return' op must have type {ts} (the type of the reduction inputs), but has {}",
                        type_to_string(ctx, ctx.value_type(rr.result(ctx)))
                    ),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// `(%a, %b)`: SSA names to bind.
fn parse_name_list(p: &mut Parser) -> PResult<Vec<(String, Span)>> {
    p.expect("(")?;
    let mut names = Vec::new();
    if !p.eat(")") {
        loop {
            names.push(p.parse_value_name()?);
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    Ok(names)
}

/// `(%a, %b)`: operands of type `index`.
fn parse_index_operands(p: &mut Parser) -> PResult<Vec<Value>> {
    p.expect("(")?;
    let mut us: Vec<UnresolvedOperand> = Vec::new();
    if !p.eat(")") {
        loop {
            us.push(p.parse_operand()?);
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    let index = p.ctx.index_type();
    us.iter().map(|u| p.resolve_operand(u, index)).collect()
}

fn index_args(p: &mut Parser, names: Vec<(String, Span)>) -> Vec<RegionArg> {
    let index = p.ctx.index_type();
    names
        .into_iter()
        .map(|(name, span)| RegionArg {
            name,
            ty: index,
            loc: None,
            span,
        })
        .collect()
}

fn segment_sizes(p: &mut Parser, sizes: &[usize]) -> (String, Attr) {
    let v: Vec<i64> = sizes.iter().map(|s| *s as i64).collect();
    ("operandSegmentSizes".into(), p.ctx.int_array_attr(32, &v))
}

fn parse_parallel(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let ivs = parse_name_list(p)?;
    p.expect("=")?;
    let lb = parse_index_operands(p)?;
    p.expect_keyword("to")?;
    let ub = parse_index_operands(p)?;
    p.expect_keyword("step")?;
    let st = parse_index_operands(p)?;
    let mut inits = Vec::new();
    if p.eat_keyword("init") {
        p.expect("(")?;
        loop {
            inits.push(p.parse_operand()?);
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    let (results, init_vals) = parse_results_of(p, &inits, "init values")?;
    let args = index_args(p, ivs);
    let r = p.parse_region(args, false)?;
    ensure_terminator(p, r, &REDUCE);
    let seg = segment_sizes(p, &[lb.len(), ub.len(), st.len(), init_vals.len()]);
    let mut operands = lb;
    operands.extend(ub);
    operands.extend(st);
    operands.extend(init_vals);
    state(p, def, operands, results, vec![seg], vec![r])
}

/// `(%a, %b)` of a list of values.
fn print_value_list(pr: &mut Printer, vals: &[Value]) {
    pr.out.push('(');
    for (i, v) in vals.iter().enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        pr.print_value(*v);
    }
    pr.out.push(')');
}

fn print_parallel(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    let h = ParallelOp::from_id_unchecked(op);
    let body = ctx.region_blocks(h.region(ctx))[0];
    pr.out.push(' ');
    print_value_list(pr, ctx.block_args(body));
    pr.out.push_str(" = ");
    print_value_list(pr, h.lower_bound(ctx));
    pr.out.push_str(" to ");
    print_value_list(pr, h.upper_bound(ctx));
    pr.out.push_str(" step ");
    print_value_list(pr, h.step(ctx));
    let inits = h.init_vals(ctx);
    if !inits.is_empty() {
        pr.out.push_str(" init ");
        print_value_list(pr, inits);
    }
    let results = h.results(ctx);
    if !results.is_empty() {
        let ts: Vec<Type> = results.iter().map(|v| ctx.value_type(*v)).collect();
        let list = types_str(ctx, &ts);
        if ts.len() == 1 {
            pr.out.push_str(&format!(" -> {list}"));
        } else {
            pr.out.push_str(&format!(" -> ({list})"));
        }
    }
    pr.out.push(' ');
    pr.print_region(h.region(ctx), false, true);
    print_trailing_attrs(pr, op);
}

fn parse_reduce(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let mut operands = Vec::new();
    if p.eat("(") {
        operands = crate::common::parse_typed_operands_paren(p)?;
    }
    let mut regions = Vec::new();
    if p.peek() == Some(b'{') && !looks_like_attr_dict(p) {
        loop {
            regions.push(p.parse_region(vec![], false)?);
            if !p.eat(",") {
                break;
            }
        }
    }
    state(p, def, operands, vec![], vec![], regions)
}

/// Whether the `{` at the cursor opens an attribute dictionary (`{name = ...` or `{}` followed
/// by nothing region-like) rather than a region.
fn looks_like_attr_dict(p: &mut Parser) -> bool {
    let rest = &p.src()[p.pos()..];
    let inner = rest[1..].trim_start();
    let ident_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'))
        .unwrap_or(inner.len());
    if ident_end == 0 {
        // `"quoted" = ...` is an attribute name; an op in generic form starts with `"` too.
        return inner.starts_with('"') && !inner.contains("\"(");
    }
    let after = inner[ident_end..].trim_start();
    after.starts_with('=')
        || after.starts_with(',')
        || after.starts_with('}') && !inner[..ident_end].contains('.')
}

fn print_reduce(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    let h = ReduceOp::from_id_unchecked(op);
    let vals = h.operands(ctx);
    if !vals.is_empty() {
        crate::common::print_typed_operands_paren(pr, vals);
    }
    // MLIR's format leaves a space before the (possibly empty) region list.
    pr.out.push(' ');
    for (i, r) in h.reductions(ctx).iter().enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        pr.print_region(*r, true, true);
    }
    print_trailing_attrs(pr, op);
}

/// Appends `def` (an op without operands) to a single-block body that does not end in it:
/// MLIR's implicit terminators of `scf.parallel` and `scf.forall`.
fn ensure_terminator(p: &mut Parser, r: RegionId, def: &'static OpDef) {
    let b = match p.ctx.region_blocks(r).first() {
        Some(b) => *b,
        None => {
            let b = p.ctx.create_block(&[]);
            p.ctx.push_block(r, b);
            b
        }
    };
    let has = p
        .ctx
        .block_last(b)
        .is_some_and(|o| p.ctx.op_name_str(o) == def.name);
    if has {
        return;
    }
    let name = p.ctx.op_name(def.name);
    let loc = p.ctx.unknown_loc();
    let regions = def
        .regions
        .iter()
        .filter(|rd| !rd.variadic)
        .map(|_| {
            let r = p.ctx.create_region();
            let blk = p.ctx.create_block(&[]);
            p.ctx.push_block(r, blk);
            r
        })
        .collect();
    let t = p
        .ctx
        .create_op(OperationState::new(name, loc).with_regions(regions));
    p.ctx.append_op(b, t);
    p.mark_implicit(t);
}

// ----- scf.forall, scf.forall.in_parallel ---------------------------------------------------

/// `scf.forall`.
pub static FORALL: OpDef = OpDef {
    name: "scf.forall",
    summary: "a parallel loop nest over tensors, with shared outputs",
    description: "Runs its body for every point of a multi-dimensional iteration space, in \
        any order (`mapping` may assign the dimensions to GPU threads or blocks). Bounds and \
        steps are static (`staticLowerBound`, ... with MLIR's dynamic marker) or operands. \
        `shared_outs` are tensors every iteration may write a slice of in its \
        `scf.forall.in_parallel` terminator; they are the results. Written \
        `%r = scf.forall (%i, %j) in (%n, 8) shared_outs(%o = %t) -> (tensor<8xf32>) { ... }` or \
        `scf.forall (%i) = (0) to (%n) step (2) { ... }`.",
    operands: &[
        many("dynamicLowerBound", INDEX),
        many("dynamicUpperBound", INDEX),
        many("dynamicStep", INDEX),
        many("outputs", ANY_TYPE),
    ],
    results: &[many("results", ANY_TYPE)],
    attributes: &[
        attr("staticLowerBound", DENSE_I64_ARRAY),
        attr("staticUpperBound", DENSE_I64_ARRAY),
        attr("staticStep", DENSE_I64_ARRAY),
        opt_attr("mapping", ARRAY_ATTR),
    ],
    regions: &[block_region("region")],
    traits: &[
        Trait::SingleBlock,
        Trait::RecursiveMemoryEffects,
        Trait::AttrSizedOperandSegments,
    ],
    verify: Some(verify_forall),
    format: Format::Custom {
        parse: parse_forall,
        print: print_forall,
    },
    ..OpDef::DEFAULT
};
const _: () = FORALL.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.forall`.
    pub struct ForallOp = FORALL;
    operands {
        dynamic_lower_bound = "dynamicLowerBound": &[Value],
        dynamic_upper_bound = "dynamicUpperBound": &[Value],
        dynamic_step = "dynamicStep": &[Value],
        outputs = "outputs": &[Value]
    }
    results {
        results = "results": &[Value]
    }
    attrs {
        static_lower_bound = "staticLowerBound": Attr,
        static_upper_bound = "staticUpperBound": Attr,
        static_step = "staticStep": Attr,
        mapping = "mapping": Option<Attr>
    }
    regions {
        region = "region"
    }
    successors {}
}

/// `scf.forall.in_parallel`.
pub static IN_PARALLEL: OpDef = OpDef {
    name: "scf.forall.in_parallel",
    summary: "the parallel writes that end an scf.forall body",
    description: "Ends the body of `scf.forall`; its region holds the ops (such as \
        `tensor.parallel_insert_slice`) that write each iteration's slice into the shared \
        outputs. Written `scf.forall.in_parallel { ... }`; left out when empty.",
    regions: &[block_region("region")],
    traits: &[
        Trait::Terminator,
        Trait::NoTerminator,
        Trait::RecursiveMemoryEffects,
        Trait::HasParent(&["scf.forall"]),
    ],
    format: Format::Custom {
        parse: parse_in_parallel,
        print: print_in_parallel,
    },
    ..OpDef::DEFAULT
};
const _: () = IN_PARALLEL.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.forall.in_parallel`.
    pub struct InParallelOp = IN_PARALLEL;
    operands {}
    results {}
    attrs {}
    regions {
        region = "region"
    }
    successors {}
}

fn verify_forall(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let h = ForallOp::from_id_unchecked(op);
    let arr = |a: Attr| ctx.int_array_values(a).unwrap_or_default();
    let (lb, ub, st) = (
        arr(h.static_lower_bound(ctx)),
        arr(h.static_upper_bound(ctx)),
        arr(h.static_step(ctx)),
    );
    let rank = lb.len();
    if ub.len() != rank || st.len() != rank {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.forall' op expects the same number of static lower bounds, upper bounds and steps, but found {}, {} and {}",
                rank,
                ub.len(),
                st.len()
            ),
        ));
    }
    let dynamic = |v: &[i64]| v.iter().filter(|x| **x == DYNAMIC).count();
    for (what, s, d) in [
        ("lower bound", &lb, h.dynamic_lower_bound(ctx).len()),
        ("upper bound", &ub, h.dynamic_upper_bound(ctx).len()),
        ("step", &st, h.dynamic_step(ctx).len()),
    ] {
        if dynamic(s) != d {
            return Err(Diagnostic::op(
                op,
                format!(
                    "'scf.forall' op expected {} dynamic {what} values, but found {d}",
                    dynamic(s)
                ),
            ));
        }
    }
    if st.iter().any(|s| *s != DYNAMIC && *s <= 0) {
        return Err(Diagnostic::op(
            op,
            "'scf.forall' op constant step operand must be positive",
        ));
    }
    let outs = h.outputs(ctx);
    let results = h.results(ctx);
    if outs.len() != results.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.forall' op requires the same number of results ({}) as shared outputs ({})",
                results.len(),
                outs.len()
            ),
        ));
    }
    for (r, o) in results.iter().zip(outs) {
        if ctx.value_type(*r) != ctx.value_type(*o) {
            return Err(Diagnostic::op(
                op,
                format!(
                    "'scf.forall' op expects result type {} to match the type of its shared output {}",
                    type_to_string(ctx, ctx.value_type(*r)),
                    type_to_string(ctx, ctx.value_type(*o))
                ),
            ));
        }
    }
    if let Some(m) = h.mapping(ctx) {
        if let AttrKind::Array(items) = ctx.attr_kind(m) {
            if items.len() != rank {
                return Err(Diagnostic::op(
                    op,
                    format!(
                        "'scf.forall' op mapping attribute size must match op rank: {} against {rank}",
                        items.len()
                    ),
                ));
            }
        }
    }
    let Some(&body) = ctx.region_blocks(h.region(ctx)).first() else {
        return Err(Diagnostic::op(op, "'scf.forall' op expects a body block"));
    };
    let args = ctx.block_args(body);
    if args.len() != rank + outs.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.forall' op region expects {} arguments ({rank} induction variables and {} shared outputs), but has {}",
                rank + outs.len(),
                outs.len(),
                args.len()
            ),
        ));
    }
    for (i, a) in args.iter().enumerate() {
        let t = ctx.value_type(*a);
        let want = if i < rank {
            None
        } else {
            Some(ctx.value_type(outs[i - rank]))
        };
        let ok = match want {
            None => matches!(ctx.type_kind(t), TypeKind::Index),
            Some(w) => w == t,
        };
        if !ok {
            return Err(Diagnostic::op(
                op,
                format!(
                    "'scf.forall' op type mismatch between the region's argument #{i} ({}) and its {}",
                    type_to_string(ctx, t),
                    if i < rank { "induction variable (index)" } else { "shared output" }
                ),
            ));
        }
    }
    if ctx
        .block_last(body)
        .and_then(|t| InParallelOp::cast(ctx, t))
        .is_none()
    {
        return Err(Diagnostic::op(
            op,
            "'scf.forall' op expects its body to end with 'scf.forall.in_parallel'",
        ));
    }
    Ok(())
}

/// `(%a, 4, %b)`: a list of values and integers, as static values with [`DYNAMIC`] where an
/// operand stands.
fn parse_mixed(p: &mut Parser) -> PResult<(Vec<i64>, Vec<Value>)> {
    p.expect("(")?;
    let (mut stat, mut dynv) = (Vec::new(), Vec::new());
    let index = p.ctx.index_type();
    if !p.eat(")") {
        loop {
            if p.peek() == Some(b'%') {
                let u = p.parse_operand()?;
                dynv.push(p.resolve_operand(&u, index)?);
                stat.push(DYNAMIC);
            } else {
                let neg = p.eat("-");
                let (text, sp) = p.parse_number_text()?;
                let v = tilus_ir::syntax::parser::parse_int_literal(&text)
                    .and_then(|v| i64::try_from(v).ok())
                    .filter(|v| *v != DYNAMIC)
                    .ok_or_else(|| {
                        Diagnostic::at(sp, "expected an SSA value or a 64-bit integer")
                    })?;
                stat.push(if neg { -v } else { v });
            }
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    Ok((stat, dynv))
}

fn parse_forall(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let ivs = parse_name_list(p)?;
    let rank = ivs.len();
    let (lb, ub, st);
    if p.eat_keyword("in") {
        ub = parse_mixed(p)?;
        lb = (vec![0; rank], Vec::new());
        st = (vec![1; rank], Vec::new());
    } else {
        p.expect("=")?;
        lb = parse_mixed(p)?;
        p.expect_keyword("to")?;
        ub = parse_mixed(p)?;
        p.expect_keyword("step")?;
        st = parse_mixed(p)?;
    }
    for (what, l) in [
        ("lower bounds", &lb.0),
        ("upper bounds", &ub.0),
        ("steps", &st.0),
    ] {
        if l.len() != rank {
            return Err(p.err_here(format!(
                "expected {rank} {what} (one per induction variable), but found {}",
                l.len()
            )));
        }
    }
    let mut outs = Vec::new();
    let mut out_names = Vec::new();
    if p.eat_keyword("shared_outs") {
        p.expect("(")?;
        loop {
            let n = p.parse_value_name()?;
            p.expect("=")?;
            outs.push(p.parse_operand()?);
            out_names.push(n);
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    let (results, out_vals) = parse_results_of(p, &outs, "shared outputs")?;
    let mut args = index_args(p, ivs);
    for ((name, span), t) in out_names.into_iter().zip(&results) {
        args.push(RegionArg {
            name,
            ty: *t,
            loc: None,
            span,
        });
    }
    let r = p.parse_region(args, false)?;
    ensure_terminator(p, r, &IN_PARALLEL);
    let seg = segment_sizes(p, &[lb.1.len(), ub.1.len(), st.1.len(), out_vals.len()]);
    let props = vec![
        seg,
        ("staticLowerBound".into(), p.ctx.int_array_attr(64, &lb.0)),
        ("staticUpperBound".into(), p.ctx.int_array_attr(64, &ub.0)),
        ("staticStep".into(), p.ctx.int_array_attr(64, &st.0)),
    ];
    let mut operands = lb.1;
    operands.extend(ub.1);
    operands.extend(st.1);
    operands.extend(out_vals);
    state(p, def, operands, results, props, vec![r])
}

/// `(%a, 4, %b)` from static values and the operands standing for the dynamic ones.
fn print_mixed(pr: &mut Printer, stat: &[i64], dynv: &[Value]) {
    pr.out.push('(');
    let mut d = dynv.iter();
    for (i, s) in stat.iter().enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        if *s == DYNAMIC {
            match d.next() {
                Some(v) => pr.print_value(*v),
                None => pr.out.push('?'),
            }
        } else {
            pr.out.push_str(&s.to_string());
        }
    }
    pr.out.push(')');
}

fn print_forall(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    let h = ForallOp::from_id_unchecked(op);
    let arr = |a: Attr| ctx.int_array_values(a).unwrap_or_default();
    let (lb, ub, st) = (
        arr(h.static_lower_bound(ctx)),
        arr(h.static_upper_bound(ctx)),
        arr(h.static_step(ctx)),
    );
    let body = ctx.region_blocks(h.region(ctx))[0];
    let args = ctx.block_args(body);
    let rank = lb.len().min(args.len());
    pr.out.push(' ');
    print_value_list(pr, &args[..rank]);
    let normalized = lb.iter().all(|v| *v == 0) && st.iter().all(|v| *v == 1);
    if normalized {
        pr.out.push_str(" in ");
        print_mixed(pr, &ub, h.dynamic_upper_bound(ctx));
    } else {
        pr.out.push_str(" = ");
        print_mixed(pr, &lb, h.dynamic_lower_bound(ctx));
        pr.out.push_str(" to ");
        print_mixed(pr, &ub, h.dynamic_upper_bound(ctx));
        pr.out.push_str(" step ");
        print_mixed(pr, &st, h.dynamic_step(ctx));
    }
    let outs = h.outputs(ctx);
    if !outs.is_empty() {
        pr.out.push_str(" shared_outs(");
        for (i, (a, o)) in args[rank..].iter().zip(outs).enumerate() {
            if i > 0 {
                pr.out.push_str(", ");
            }
            pr.print_value(*a);
            pr.out.push_str(" = ");
            pr.print_value(*o);
        }
        pr.out.push(')');
    }
    let results = h.results(ctx);
    if !results.is_empty() {
        pr.out.push_str(" -> (");
        for (i, r) in results.iter().enumerate() {
            if i > 0 {
                pr.out.push_str(", ");
            }
            pr.print_type(ctx.value_type(*r));
        }
        pr.out.push(')');
    }
    pr.out.push(' ');
    // MLIR prints the terminator only when there are shared outputs to write.
    pr.print_region(h.region(ctx), false, !results.is_empty());
    let mut rest: Vec<(String, Attr)> = Vec::new();
    if let Some(m) = h.mapping(ctx) {
        rest.push(("mapping".into(), m));
    }
    rest.extend(ctx.attrs(op).iter().cloned());
    if !rest.is_empty() {
        pr.out.push(' ');
        pr.print_attr_dict_entries(&rest, &[]);
    }
}

fn parse_in_parallel(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let r = p.parse_region(vec![], false)?;
    if p.ctx.region_blocks(r).is_empty() {
        let b = p.ctx.create_block(&[]);
        p.ctx.push_block(r, b);
    }
    state(p, def, vec![], vec![], vec![], vec![r])
}

fn print_in_parallel(pr: &mut Printer, op: OpId) {
    let h = InParallelOp::from_id_unchecked(op);
    pr.out.push(' ');
    pr.print_region(h.region(pr.ctx), false, true);
    print_trailing_attrs(pr, op);
}
