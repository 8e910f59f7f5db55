//! The `scf` ops beyond loops and conditionals: `scf.index_switch` (a structured switch),
//! `scf.parallel` with `scf.reduce`, and `scf.forall` with `scf.forall.in_parallel`.
//!
//! Tile kernels do not use them, but MLIR files from tiling and bufferization do, and any valid
//! MLIR 22 file of a dialect we register must load; their syntax, generic form and verifier
//! rules are MLIR's.

use crate::scf::{
    types_str, yield_types, ASSIGNMENT_LIST, INDUCTION_VARS, PAREN_RESULT_TYPES, RESULT_TYPES,
    YIELD,
};
use crate::tilus_types::DENSE_I64_ARRAY;
use tilus_ir::attrs::AttrKind;
use tilus_ir::format::{CustomArg, CustomDirective, FormatState};
use tilus_ir::opdef::{
    attr, block_region, many, many_block_regions, one, opt_attr, Elide, Format, OpDef, Trait,
    ANY_TYPE, INDEX,
};
use tilus_ir::syntax::parser::{PResult, Parser, UnresolvedOperand};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::{Attr, Context, Diagnostic, OpId, Printer, Type, TypeKind, Value};

/// MLIR's `ShapedType::kDynamic`: a static bound that is given by an operand instead.
use tilus_ir::types::DYNAMIC;

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
        block_region("defaultRegion").implicit(&YIELD, Elide::WhenEmpty),
        many_block_regions("caseRegions"),
    ],
    // Per thread: each thread runs the case of its own index, as `scf.if` runs the branch of
    // its own condition.
    traits: &[
        Trait::SingleBlock,
        Trait::RecursiveMemoryEffects,
        Trait::PerThread,
    ],
    verify: Some(verify_index_switch),
    // MLIR's format.
    format: Format::Declarative(
        "$arg attr-dict (`->` type($results)^)? custom<SwitchCases>($cases, $caseRegions) `\\n` \
         `default` $defaultRegion",
    ),
    custom_directives: &[tilus_ir::format::directive(&CustomDirective {
        name: "SwitchCases",
        parse: parse_switch_cases,
        print: print_switch_cases,
    })],
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

/// `custom<SwitchCases>($cases, $caseRegions)`: `case 2 {...}` per case, each on its own line
/// (MLIR's `parseSwitchCases`). As in MLIR, only the default region gets an implicit
/// `scf.yield`, so a case region's is always printed.
fn parse_switch_cases(p: &mut Parser, st: &mut FormatState, args: &[CustomArg]) -> PResult<()> {
    let [CustomArg::Var(cases), CustomArg::Var(regions_slot)] = args else {
        return Err(p.err_here("SwitchCases takes `$cases, $caseRegions`"));
    };
    let mut values = Vec::new();
    let mut regions = Vec::new();
    while p.eat_keyword("case") {
        let neg = p.eat("-");
        let (text, sp) = p.parse_number_text()?;
        let v = tilus_ir::syntax::parser::parse_int_literal(&text)
            .and_then(|v| i64::try_from(v).ok())
            .ok_or_else(|| Diagnostic::at(sp, "expected a 64-bit case value"))?;
        values.push(if neg { v.wrapping_neg() } else { v });
        regions.push(p.parse_region(vec![], false)?);
    }
    let a = p.ctx.int_array_attr(64, &values);
    st.set_attr(cases, a);
    st.set_regions(regions_slot, regions);
    Ok(())
}

fn print_switch_cases(pr: &mut Printer, op: OpId, _: &[CustomArg]) {
    let ctx = pr.ctx;
    let h = IndexSwitchOp::from_id_unchecked(op);
    let cases = ctx.int_array_values(h.cases(ctx)).unwrap_or_default();
    for (c, r) in cases.iter().zip(h.case_regions(ctx)) {
        pr.newline();
        pr.out.push_str(&format!("case {c} "));
        pr.print_region(*r, false, true);
    }
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
    regions: &[block_region("region").implicit(&REDUCE, Elide::Never)],
    traits: &[
        Trait::SingleBlock,
        Trait::RecursiveMemoryEffects,
        Trait::AttrSizedOperandSegments,
    ],
    verify: Some(verify_parallel),
    // MLIR's parser is hand-written; the induction variables are the body's arguments.
    format: Format::Declarative(
        "` ` `(` custom<InductionVars>($region) `)` `=` ` ` `(` $lowerBound `)` \
         `to` ` ` `(` $upperBound `)` `step` ` ` `(` $step `)` \
         (`init` ` ` `(` $initVals^ `)`)? \
         (`->` custom<ResultTypes>(type($results), type($initVals))^)? $region attr-dict",
    ),
    custom_directives: &[
        tilus_ir::format::directive(&INDUCTION_VARS),
        tilus_ir::format::directive(&RESULT_TYPES),
    ],
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
    // MLIR's format.
    format: Format::Declarative("(`(` $operands^ `:` type($operands) `)`)? $reductions attr-dict"),
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
    regions: &[block_region("region").implicit(&IN_PARALLEL, Elide::WhenOpHasNoResults)],
    traits: &[
        Trait::SingleBlock,
        Trait::RecursiveMemoryEffects,
        Trait::AttrSizedOperandSegments,
    ],
    verify: Some(verify_forall),
    // MLIR's parser is hand-written: the induction variables and `shared_outs` names are the
    // body's arguments, and the bounds mix constants with operands.
    format: Format::Declarative(
        "` ` `(` custom<InductionVars>($region, $outputs) `)` \
         custom<ForallBounds>($region, $dynamicLowerBound, $staticLowerBound, \
         $dynamicUpperBound, $staticUpperBound, $dynamicStep, $staticStep) \
         (`shared_outs` `(` custom<AssignmentList>($outputs, $region)^ `)`)? \
         (`->` custom<ParenResultTypes>(type($results), type($outputs))^)? $region attr-dict",
    ),
    custom_directives: &[
        tilus_ir::format::directive(&INDUCTION_VARS),
        tilus_ir::format::directive(&CustomDirective {
            name: "ForallBounds",
            parse: parse_forall_bounds,
            print: print_forall_bounds,
        }),
        tilus_ir::format::directive(&ASSIGNMENT_LIST),
        tilus_ir::format::directive(&PAREN_RESULT_TYPES),
    ],
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
        Trait::SingleBlock,
        Trait::RecursiveMemoryEffects,
        Trait::HasParent(&["scf.forall"]),
    ],
    format: Format::Declarative("$region attr-dict"),
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

/// `custom<ForallBounds>($region, $dynamicLowerBound, $staticLowerBound, ...)`: `in (%n, 8)`
/// (lower bounds 0, steps 1) or `= (0) to (%n) step (2)`, one value per induction variable
/// (the arguments `$region` has so far), each an operand or a constant.
fn parse_forall_bounds(p: &mut Parser, st: &mut FormatState, args: &[CustomArg]) -> PResult<()> {
    let [CustomArg::Var(region), CustomArg::Var(dyn_lb), CustomArg::Var(lb_attr), CustomArg::Var(dyn_ub), CustomArg::Var(ub_attr), CustomArg::Var(dyn_st), CustomArg::Var(st_attr)] =
        args
    else {
        return Err(
            p.err_here("ForallBounds takes `$region` and three (operands, attribute) pairs")
        );
    };
    let rank = st.bound_arg_count(region);
    let (lb, ub, step);
    if p.eat_keyword("in") {
        ub = parse_mixed(p)?;
        lb = (vec![0; rank], Vec::new());
        step = (vec![1; rank], Vec::new());
    } else {
        p.expect("=")?;
        lb = parse_mixed(p)?;
        p.expect_keyword("to")?;
        ub = parse_mixed(p)?;
        p.expect_keyword("step")?;
        step = parse_mixed(p)?;
    }
    for (what, l) in [
        ("lower bounds", &lb.0),
        ("upper bounds", &ub.0),
        ("steps", &step.0),
    ] {
        if l.len() != rank {
            return Err(p.err_here(format!(
                "expected {rank} {what} (one per induction variable), but found {}",
                l.len()
            )));
        }
    }
    for ((group, attr), (stat, dynv)) in [(dyn_lb, lb_attr), (dyn_ub, ub_attr), (dyn_st, st_attr)]
        .into_iter()
        .zip([lb, ub, step])
    {
        let a = p.ctx.int_array_attr(64, &stat);
        st.set_attr(attr, a);
        st.set_operands(group, dynv);
    }
    Ok(())
}

/// `(%a, 4, %b)`: a list of operands and integers, as static values with [`DYNAMIC`] where an
/// operand stands.
fn parse_mixed(p: &mut Parser) -> PResult<(Vec<i64>, Vec<UnresolvedOperand>)> {
    p.expect("(")?;
    let (mut stat, mut dynv) = (Vec::new(), Vec::new());
    if !p.eat(")") {
        loop {
            if p.peek() == Some(b'%') {
                dynv.push(p.parse_operand()?);
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

fn print_forall_bounds(pr: &mut Printer, op: OpId, _: &[CustomArg]) {
    let ctx = pr.ctx;
    let h = ForallOp::from_id_unchecked(op);
    let arr = |a: Attr| ctx.int_array_values(a).unwrap_or_default();
    let (lb, ub, st) = (
        arr(h.static_lower_bound(ctx)),
        arr(h.static_upper_bound(ctx)),
        arr(h.static_step(ctx)),
    );
    if lb.iter().all(|v| *v == 0) && st.iter().all(|v| *v == 1) {
        pr.out.push_str("in ");
        print_mixed(pr, &ub, h.dynamic_upper_bound(ctx));
    } else {
        pr.out.push_str("= ");
        print_mixed(pr, &lb, h.dynamic_lower_bound(ctx));
        pr.out.push_str(" to ");
        print_mixed(pr, &ub, h.dynamic_upper_bound(ctx));
        pr.out.push_str(" step ");
        print_mixed(pr, &st, h.dynamic_step(ctx));
    }
}
