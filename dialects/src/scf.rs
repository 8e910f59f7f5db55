//! `scf`: structured control flow (counted loops, conditionals) with regions instead of branches.
//!
//! Tile kernels are loops over tiles; keeping them structured lets passes pipeline and unroll
//! them without rebuilding a CFG. Syntax and generic form match MLIR's scf dialect.

use tilus_ir::attrs::AttrKind;
use tilus_ir::format::{
    group_types, operand_group, region_group, ArgTypes, CustomArg, CustomDirective, FormatState,
};
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::{
    block_region, many, one, opt_attr, region, Elide, Format, OpDef, Trait, ANY_TYPE, I1,
    SIGNLESS_INT_LIKE, UNIT_ATTR,
};
use tilus_ir::rewrite::{constant_of, Pattern, Rewriter};
use tilus_ir::syntax::parser::{PResult, Parser, RegionArg};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::{
    Attr, Context, Diagnostic, OpId, OperationState, Printer, RegionId, Type, TypeKind,
};

/// `scf.for`.
pub static FOR: OpDef = OpDef {
    name: "scf.for",
    summary: "a counted loop with loop-carried values",
    description: "Runs its body for `%iv` from `lowerBound` (inclusive) to `upperBound` \
        (exclusive) by `step`; the three share one type (`index` or a signless integer, then \
        written `: i32` after the header). `iter_args` are carried from one iteration to the \
        next through `scf.yield` and are the results. Written \
        `%r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (f32) { ... }`; a body \
        without carried values may leave its `scf.yield` out.",
    operands: &[
        one("lowerBound", SIGNLESS_INT_LIKE),
        one("upperBound", SIGNLESS_INT_LIKE),
        one("step", SIGNLESS_INT_LIKE),
        many("initArgs", ANY_TYPE),
    ],
    results: &[many("results", ANY_TYPE)],
    attributes: &[opt_attr("unsignedCmp", UNIT_ATTR)],
    regions: &[block_region("region")],
    traits: &[Trait::SingleBlock, Trait::RecursiveMemoryEffects],
    verify: Some(verify_for),
    canonicalize: &[Pattern::new("for-zero-trips", for_zero_trips)],
    format: tilus_ir::format::custom_form(&tilus_ir::format::CustomForm {
        parse: parse_for,
        print: print_for,
    }),
    ..OpDef::DEFAULT
};
const _: () = FOR.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.for`.
    pub struct ForOp = FOR;
    operands {
        lower_bound = "lowerBound": Value,
        upper_bound = "upperBound": Value,
        step = "step": Value,
        init_args = "initArgs": &[Value]
    }
    results {
        results = "results": &[Value]
    }
    attrs {
        unsigned_cmp = "unsignedCmp": bool
    }
    regions {
        region = "region"
    }
    successors {}
}

/// `scf.if`.
pub static IF: OpDef = OpDef {
    name: "scf.if",
    summary: "a conditional with optional results",
    description: "Runs `thenRegion` when `condition` is true, else `elseRegion` (which may be \
        empty when there are no results). Each region ends in `scf.yield` of the results. \
        Written `%r = scf.if %c -> (i32) { ... } else { ... }`.",
    operands: &[one("condition", I1)],
    results: &[many("results", ANY_TYPE)],
    regions: &[
        block_region("thenRegion").implicit(&YIELD, Elide::WhenEmpty),
        block_region("elseRegion").implicit(&YIELD, Elide::WhenEmpty),
    ],
    traits: &[
        Trait::SingleBlock,
        Trait::RecursiveMemoryEffects,
        Trait::PerThread,
    ],
    verify: Some(verify_if),
    canonicalize: &[Pattern::new("if-constant-condition", if_constant_condition)],
    format: Format::Declarative(
        "$condition (`->` custom<ParenResultTypes>(type($results))^)? $thenRegion \
         (`else` $elseRegion^)? attr-dict",
    ),
    custom_directives: &[tilus_ir::format::directive(&PAREN_RESULT_TYPES)],
    ..OpDef::DEFAULT
};
const _: () = IF.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.if`.
    pub struct IfOp = IF;
    operands {
        condition = "condition": Value
    }
    results {
        results = "results": &[Value]
    }
    attrs {}
    regions {
        then_region = "thenRegion",
        else_region = "elseRegion"
    }
    successors {}
}

/// `scf.yield`.
pub static YIELD: OpDef = OpDef {
    name: "scf.yield",
    summary: "end a structured region, passing values to its op",
    description: "Terminates the body of `scf.for` and the `after` region of `scf.while` (the \
        next iteration's carried values), and the regions of `scf.if` and `scf.execute_region` \
        (the results).",
    operands: &[many("results", ANY_TYPE)],
    traits: &[
        Trait::PerThread,
        Trait::Pure,
        Trait::Terminator,
        Trait::ReturnLike,
        Trait::HasParent(&[
            "scf.for",
            "scf.if",
            "scf.execute_region",
            "scf.while",
            "scf.index_switch",
        ]),
    ],
    format: Format::Declarative("attr-dict ($results^ `:` type($results))?"),
    ..OpDef::DEFAULT
};
const _: () = YIELD.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.yield`.
    pub struct YieldOp = YIELD;
    operands {
        results = "results": &[Value]
    }
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `scf.execute_region`.
pub static EXECUTE_REGION: OpDef = OpDef {
    name: "scf.execute_region",
    summary: "run a region once, in place",
    description: "Runs its region (any number of blocks) once; the `scf.yield` that ends it \
        gives the results. `no_inline` keeps canonicalization from inlining it. Written \
        `%r = scf.execute_region -> i32 { ... }`.",
    results: &[many("results", ANY_TYPE)],
    attributes: &[opt_attr("no_inline", UNIT_ATTR)],
    regions: &[region("region")],
    traits: &[Trait::RecursiveMemoryEffects],
    verify: Some(verify_execute_region),
    // MLIR's format, with `-> (T, U)` for several results as its printer writes them.
    format: Format::Declarative(
        "(`->` custom<ResultTypes>(type($results))^)? (`no_inline` $no_inline^)? $region attr-dict",
    ),
    custom_directives: &[tilus_ir::format::directive(&RESULT_TYPES)],
    ..OpDef::DEFAULT
};
const _: () = EXECUTE_REGION.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.execute_region`.
    pub struct ExecuteRegionOp = EXECUTE_REGION;
    operands {}
    results {
        results = "results": &[Value]
    }
    attrs {
        no_inline = "no_inline": bool
    }
    regions {
        region = "region"
    }
    successors {}
}

/// Whether `op` runs one of its regions once and takes that region's `scf.yield` as its
/// results (`scf.if`, `scf.index_switch`, `scf.execute_region`): passes that carry values
/// through yields (layout inference, the tile lowering) treat these ops alike.
pub fn yields_one_region(ctx: &Context, op: OpId) -> bool {
    IfOp::is(ctx, op)
        || crate::scf_parallel::IndexSwitchOp::is(ctx, op)
        || ExecuteRegionOp::is(ctx, op)
}

/// MLIR's rules: the region has blocks, and its entry block no arguments.
fn verify_execute_region(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let r = ctx.regions(op)[0];
    let Some(&entry) = ctx.region_blocks(r).first() else {
        return Err(Diagnostic::op(
            op,
            "'scf.execute_region' op region needs to have at least one block",
        ));
    };
    if !ctx.block_args(entry).is_empty() {
        return Err(Diagnostic::op(
            op,
            "'scf.execute_region' op region cannot have any arguments",
        ));
    }
    // Every `scf.yield` of the region gives the results.
    let list = |ts: &[Type]| {
        ts.iter()
            .map(|t| type_to_string(ctx, *t))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let want: Vec<Type> = ctx.results(op).iter().map(|v| ctx.value_type(*v)).collect();
    for &b in ctx.region_blocks(r) {
        let Some(t) = ctx.block_ops(b).last() else {
            continue;
        };
        if ctx.op_name_str(t) != "scf.yield" {
            continue;
        }
        let got: Vec<Type> = ctx.operands(t).iter().map(|v| ctx.value_type(*v)).collect();
        if got != want {
            return Err(Diagnostic::op(
                t,
                format!(
                    "'scf.yield' op types ({}) do not match the results of the enclosing \
                     'scf.execute_region' ({})",
                    list(&got),
                    list(&want)
                ),
            ));
        }
    }
    Ok(())
}

/// `scf.condition`.
pub static CONDITION: OpDef = OpDef {
    name: "scf.condition",
    summary: "end the `before` region of `scf.while`",
    description: "Ends the `before` region of `scf.while`: when `condition` holds, `args` go to \
        the `after` region, otherwise they are the loop's results. Written \
        `scf.condition(%c) %x : i32`.",
    operands: &[one("condition", I1), many("args", ANY_TYPE)],
    traits: &[
        Trait::Pure,
        Trait::Terminator,
        Trait::ReturnLike,
        Trait::HasParent(&["scf.while"]),
    ],
    format: Format::Declarative("`(` $condition `)` attr-dict ($args^ `:` type($args))?"),
    ..OpDef::DEFAULT
};
const _: () = CONDITION.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.condition`.
    pub struct ConditionOp = CONDITION;
    operands {
        condition = "condition": Value,
        args = "args": &[Value]
    }
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `scf.while`.
pub static WHILE: OpDef = OpDef {
    name: "scf.while",
    summary: "a loop with its condition computed in a region",
    description: "Runs `before` on the carried values; its `scf.condition` either ends the loop \
        (its values are the results) or passes them to `after`, whose `scf.yield` gives the next \
        iteration's carried values. Written `%r = scf.while (%x = %init) : (i32) -> i32 { ... \
        scf.condition(%c) %x : i32 } do { ^bb0(%y: i32): ... scf.yield %y : i32 }`.",
    operands: &[many("inits", ANY_TYPE)],
    results: &[many("results", ANY_TYPE)],
    regions: &[
        region("before"),
        region("after").implicit(&YIELD, Elide::Never),
    ],
    traits: &[Trait::RecursiveMemoryEffects],
    verify: Some(verify_while),
    // MLIR's parser is hand-written; the `(%x = %init)` list binds the `before` arguments.
    format: Format::Declarative(
        "(` ` `(` custom<AssignmentList>($inits, $before)^ `)`)? `:` \
         functional-type($inits, $results) $before `do` $after attr-dict-with-keyword",
    ),
    custom_directives: &[tilus_ir::format::directive(&ASSIGNMENT_LIST)],
    ..OpDef::DEFAULT
};
const _: () = WHILE.check();

tilus_ir::op_handle! {
    /// Typed handle of `scf.while`.
    pub struct WhileOp = WHILE;
    operands {
        inits = "inits": &[Value]
    }
    results {
        results = "results": &[Value]
    }
    attrs {}
    regions {
        before = "before",
        after = "after"
    }
    successors {}
}

/// MLIR's rules: `before` ends in `scf.condition` and `after` in `scf.yield`; the `before`
/// arguments are the inits' types, the `after` arguments and the results the condition's
/// forwarded values', and `after` yields the inits' types.
fn verify_while(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let types =
        |vs: &[tilus_ir::Value]| -> Vec<Type> { vs.iter().map(|v| ctx.value_type(*v)).collect() };
    let regions = ctx.regions(op);
    let terminator = |r: RegionId| {
        ctx.region_blocks(r)
            .first()
            .and_then(|b| ctx.block_ops(*b).last())
    };
    let inits = types(ctx.operands(op));
    let Some(&before) = ctx.region_blocks(regions[0]).first() else {
        return Err(Diagnostic::op(op, "'scf.while' op region #0 ('before') failed to verify constraint: region with at least 1 blocks"));
    };
    if types(ctx.block_args(before)) != inits {
        return Err(Diagnostic::op(op, "'scf.while' op expects the 'before' region arguments to have the types of the operands"));
    }
    let Some(cond) = terminator(regions[0]).filter(|t| ctx.op_name_str(*t) == "scf.condition")
    else {
        return Err(Diagnostic::op(
            op,
            "'scf.while' op expects the 'before' region to terminate with 'scf.condition'",
        ));
    };
    let forwarded = types(&ctx.operands(cond)[1..]);
    if types(ctx.results(op)) != forwarded {
        return Err(Diagnostic::op(op, "'scf.while' op expects the results to have the types of the values 'scf.condition' forwards"));
    }
    let Some(&after) = ctx.region_blocks(regions[1]).first() else {
        return Err(Diagnostic::op(op, "'scf.while' op region #1 ('after') failed to verify constraint: region with at least 1 blocks"));
    };
    if types(ctx.block_args(after)) != forwarded {
        return Err(Diagnostic::op(op, "'scf.while' op expects the 'after' region arguments to have the types of the values 'scf.condition' forwards"));
    }
    let Some(y) = terminator(regions[1]).filter(|t| ctx.op_name_str(*t) == "scf.yield") else {
        return Err(Diagnostic::op(
            op,
            "'scf.while' op expects the 'after' region to terminate with 'scf.yield'",
        ));
    };
    if types(ctx.operands(y)) != inits {
        return Err(Diagnostic::op(
            op,
            "'scf.while' op expects the 'after' region to yield values of the operands' types",
        ));
    }
    Ok(())
}

/// The scf dialect's ops.
pub static OPS: &[&OpDef] = &[
    &FOR,
    &IF,
    &YIELD,
    &EXECUTE_REGION,
    &CONDITION,
    &WHILE,
    &crate::scf_parallel::INDEX_SWITCH,
    &crate::scf_parallel::PARALLEL,
    &crate::scf_parallel::REDUCE,
    &crate::scf_parallel::REDUCE_RETURN,
    &crate::scf_parallel::FORALL,
    &crate::scf_parallel::IN_PARALLEL,
];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `scf` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum ScfOpKind for OPS {
        For(ForOp),
        If(IfOp),
        Yield(YieldOp),
        ExecuteRegion(ExecuteRegionOp),
        Condition(ConditionOp),
        While(WhileOp),
        IndexSwitch(crate::scf_parallel::IndexSwitchOp),
        Parallel(crate::scf_parallel::ParallelOp),
        Reduce(crate::scf_parallel::ReduceOp),
        ReduceReturn(crate::scf_parallel::ReduceReturnOp),
        Forall(crate::scf_parallel::ForallOp),
        InParallel(crate::scf_parallel::InParallelOp),
    }
}

/// The value of an integer or boolean constant operand.
fn const_int(ctx: &Context, v: tilus_ir::Value) -> Option<i128> {
    match ctx.attr_kind(constant_of(ctx, v)?) {
        AttrKind::Integer { value, .. } => i128::try_from(value).ok(),
        AttrKind::Bool(b) => Some(*b as i128),
        _ => None,
    }
}

/// Moves the ops of `block` (but its terminator) before `at` and returns the terminator's
/// operands: the values the region hands to its op.
fn inline_before(
    rw: &mut Rewriter<'_>,
    block: tilus_ir::BlockId,
    at: OpId,
) -> Vec<tilus_ir::Value> {
    let ops: Vec<OpId> = rw.ctx().block_ops(block).collect();
    let mut yielded = Vec::new();
    for o in ops {
        if rw.ctx().op_name_str(o) == "scf.yield" {
            yielded = rw.ctx().operands(o).to_vec();
        } else {
            rw.move_op_before(o, at);
        }
    }
    yielded
}

/// `scf.if` on a constant: the taken region's ops replace the `scf.if` (MLIR's
/// `RemoveStaticCondition`).
fn if_constant_condition(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(c) = const_int(rw.ctx(), rw.ctx().operands(op)[0]) else {
        return false;
    };
    let taken = rw.ctx().regions(op)[if c != 0 { 0 } else { 1 }];
    match rw.ctx().region_blocks(taken).first().copied() {
        Some(b) => {
            let vals = inline_before(rw, b, op);
            if vals.len() != rw.ctx().results(op).len() {
                return false;
            }
            rw.replace_op(op, &vals);
        }
        None if rw.ctx().results(op).is_empty() => rw.erase_op(op),
        None => return false,
    }
    true
}

/// `scf.for` whose constant bounds give no iteration: its results are its initial values.
fn for_zero_trips(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ctx = rw.ctx();
    if ctx.get_inherent_or_attr(op, "unsignedCmp").is_some() {
        return false;
    }
    let ops = ctx.operands(op);
    let (Some(lb), Some(ub)) = (const_int(ctx, ops[0]), const_int(ctx, ops[1])) else {
        return false;
    };
    if lb < ub {
        return false;
    }
    let inits = ops[3..].to_vec();
    rw.replace_op(op, &inits);
    true
}

pub(crate) fn types_str(ctx: &Context, ts: &[Type]) -> String {
    ts.iter()
        .map(|t| type_to_string(ctx, *t))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The operand types of the `scf.yield` ending region `r`, if it has one.
pub(crate) fn yield_types(ctx: &Context, r: RegionId) -> Option<(OpId, Vec<Type>)> {
    let b = *ctx.region_blocks(r).first()?;
    let last = ctx.block_last(b)?;
    (ctx.op_name_str(last) == "scf.yield").then(|| {
        (
            last,
            ctx.operands(last)
                .iter()
                .map(|v| ctx.value_type(*v))
                .collect(),
        )
    })
}

fn check_yield(ctx: &Context, op: OpId, r: RegionId, what: &str) -> Result<(), Diagnostic> {
    let results: Vec<Type> = ctx.results(op).iter().map(|v| ctx.value_type(*v)).collect();
    let name = ctx.op_name_str(op);
    match yield_types(ctx, r) {
        None => Err(Diagnostic::op(
            op,
            format!("'{name}' op expects its {what} to end in 'scf.yield'"),
        )),
        Some((y, ts)) if ts != results => Err(Diagnostic::op(
            y,
            format!(
                "'scf.yield' op types ({}) do not match the results of the enclosing '{name}' ({})",
                types_str(ctx, &ts),
                types_str(ctx, &results)
            ),
        )),
        _ => Ok(()),
    }
}

fn verify_for(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let t = ctx.value_type(ops[0]);
    if ctx.value_type(ops[1]) != t || ctx.value_type(ops[2]) != t {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.for' op expects lowerBound, upperBound and step of one type, but found '{}', '{}' and '{}'",
                type_to_string(ctx, t),
                type_to_string(ctx, ctx.value_type(ops[1])),
                type_to_string(ctx, ctx.value_type(ops[2]))
            ),
        ));
    }
    let inits: Vec<Type> = ops[3..].iter().map(|v| ctx.value_type(*v)).collect();
    let results: Vec<Type> = ctx.results(op).iter().map(|v| ctx.value_type(*v)).collect();
    if inits != results {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.for' op expects results of the init_args types ({}), but found ({})",
                types_str(ctx, &inits),
                types_str(ctx, &results)
            ),
        ));
    }
    let r = ctx.regions(op)[0];
    let Some(&b) = ctx.region_blocks(r).first() else {
        return Err(Diagnostic::op(
            op,
            "'scf.for' op expects a body with one block",
        ));
    };
    let args: Vec<Type> = ctx
        .block_args(b)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    let mut want = vec![t];
    want.extend(inits);
    if args != want {
        return Err(Diagnostic::op(
            op,
            format!(
                "'scf.for' op expects body arguments ({}) (induction variable, then carried values), but found ({})",
                types_str(ctx, &want),
                types_str(ctx, &args)
            ),
        ));
    }
    check_yield(ctx, op, r, "body")
}

fn verify_if(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let regions = ctx.regions(op);
    no_region_arguments(ctx, op)?;
    if ctx.region_blocks(regions[0]).is_empty() {
        return Err(Diagnostic::op(
            op,
            "'scf.if' op expects a 'then' region with one block",
        ));
    }
    check_yield(ctx, op, regions[0], "'then' region")?;
    if ctx.region_blocks(regions[1]).is_empty() {
        if !ctx.results(op).is_empty() {
            return Err(Diagnostic::op(
                op,
                "'scf.if' op must have an 'else' region when it has results",
            ));
        }
        return Ok(());
    }
    check_yield(ctx, op, regions[1], "'else' region")
}

/// MLIR's `NoRegionArguments` trait: no region's entry block takes arguments.
fn no_region_arguments(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    for (i, r) in ctx.regions(op).iter().enumerate() {
        if let Some(&b) = ctx.region_blocks(*r).first() {
            if !ctx.block_args(b).is_empty() {
                return Err(Diagnostic::op(
                    op,
                    format!(
                        "'{}' op region #{i} should have no arguments",
                        ctx.op_name_str(op)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Appends `scf.yield` to a single-block body written without one (MLIR's implicit terminator).
pub(crate) fn ensure_yield(p: &mut Parser, r: RegionId) {
    tilus_ir::format::add_implicit_terminator(p, r, &YIELD);
}

fn parse_type_list_parens(p: &mut Parser) -> PResult<Vec<Type>> {
    p.expect("(")?;
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
    Ok(ts)
}

pub(crate) fn state(
    p: &mut Parser,
    def: &'static OpDef,
    operands: Vec<tilus_ir::Value>,
    results: Vec<Type>,
    props: Vec<(String, Attr)>,
    regions: Vec<RegionId>,
) -> PResult<OperationState> {
    let mut attrs = Vec::new();
    let mut props = props;
    if p.peek() == Some(b'{') {
        for (k, v, sp) in p.parse_attr_dict()? {
            p.note_attr_span(&k, sp);
            if def.attr(&k).is_some() {
                props.push((k, v));
            } else {
                attrs.push((k, v));
            }
        }
    }
    let properties = if props.is_empty() {
        None
    } else {
        Some(p.ctx.dict_attr(props))
    };
    let name = p.ctx.op_name(def.name);
    let loc = p.ctx.unknown_loc();
    let mut st = OperationState::new(name, loc)
        .with_operands(operands)
        .with_results(results)
        .with_attrs(attrs)
        .with_regions(regions);
    st.properties = properties;
    Ok(st)
}

fn parse_for(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let mut props = Vec::new();
    if p.eat_keyword("unsigned") {
        props.push(("unsignedCmp".to_string(), p.ctx.attr(AttrKind::Unit)));
    }
    let (iv, iv_span) = p.parse_value_name()?;
    p.expect("=")?;
    let lb = p.parse_operand()?;
    p.expect_keyword("to")?;
    let ub = p.parse_operand()?;
    p.expect_keyword("step")?;
    let step = p.parse_operand()?;
    let mut carried = Vec::new();
    let mut inits = Vec::new();
    let mut types = Vec::new();
    if p.eat_keyword("iter_args") {
        p.expect("(")?;
        // MLIR's `parseAssignmentList` (the list may be empty) and `parseArrowTypeList`
        // (`-> f32` or `-> (f32, i32)`).
        if !p.eat(")") {
            loop {
                let (n, sp) = p.parse_value_name()?;
                p.expect("=")?;
                inits.push(p.parse_operand()?);
                carried.push((n, sp));
                if !p.eat(",") {
                    break;
                }
            }
            p.expect(")")?;
        }
        p.expect("->")?;
        types = if p.peek() == Some(b'(') {
            parse_type_list_parens(p)?
        } else {
            vec![p.parse_type()?]
        };
        if types.len() != inits.len() {
            return Err(p.err_here(format!(
                "expected as many result types as iter_args ({}), but found {}",
                inits.len(),
                types.len()
            )));
        }
    }
    let ivt = if p.eat(":") {
        p.parse_type()?
    } else {
        p.ctx.index_type()
    };
    let mut operands = vec![
        p.resolve_operand(&lb, ivt)?,
        p.resolve_operand(&ub, ivt)?,
        p.resolve_operand(&step, ivt)?,
    ];
    for (u, t) in inits.iter().zip(&types) {
        operands.push(p.resolve_operand(u, *t)?);
    }
    let mut args = vec![RegionArg {
        name: iv,
        ty: ivt,
        loc: None,
        span: iv_span,
    }];
    for ((n, sp), t) in carried.into_iter().zip(&types) {
        args.push(RegionArg {
            name: n,
            ty: *t,
            loc: None,
            span: sp,
        });
    }
    let r = p.parse_region(args, false)?;
    ensure_yield(p, r);
    state(p, def, operands, types, props, vec![r])
}

/// Prints a body, leaving out a `scf.yield` without operands (it is implied).
pub(crate) fn print_body(pr: &mut Printer, r: RegionId) {
    let ctx = pr.ctx;
    let implicit = yield_types(ctx, r).is_some_and(|(_, ts)| ts.is_empty());
    pr.print_region(r, false, !implicit);
}

pub(crate) fn print_trailing_attrs(pr: &mut Printer, op: OpId) {
    let rest = pr.ctx.attrs(op).to_vec();
    if !rest.is_empty() {
        pr.out.push(' ');
        pr.print_attr_dict_entries(&rest, &[]);
    }
}

fn print_for(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    let ops = ctx.operands(op).to_vec();
    let r = ctx.regions(op)[0];
    let b = ctx.region_blocks(r)[0];
    let args = ctx.block_args(b).to_vec();
    if ctx.get_prop(op, "unsignedCmp").is_some() {
        pr.out.push_str(" unsigned");
    }
    pr.out.push(' ');
    pr.print_value(args[0]);
    pr.out.push_str(" = ");
    pr.print_value(ops[0]);
    pr.out.push_str(" to ");
    pr.print_value(ops[1]);
    pr.out.push_str(" step ");
    pr.print_value(ops[2]);
    if ops.len() > 3 {
        pr.out.push_str(" iter_args(");
        for (i, (a, v)) in args[1..].iter().zip(&ops[3..]).enumerate() {
            if i > 0 {
                pr.out.push_str(", ");
            }
            pr.print_value(*a);
            pr.out.push_str(" = ");
            pr.print_value(*v);
        }
        pr.out.push_str(") -> (");
        for (i, v) in ctx.results(op).iter().enumerate() {
            if i > 0 {
                pr.out.push_str(", ");
            }
            pr.print_type(ctx.value_type(*v));
        }
        pr.out.push(')');
    }
    let ivt = ctx.value_type(ops[0]);
    if !matches!(ctx.type_kind(ivt), TypeKind::Index) {
        // MLIR prints two spaces here.
        pr.out.push_str("  : ");
        pr.print_type(ivt);
    }
    pr.out.push(' ');
    print_body(pr, r);
    print_trailing_attrs(pr, op);
}

// ----- custom directives shared by the scf ops ----------------------------------------------

/// `custom<ResultTypes>(type($results), type($x)...)`: `T`, or `(T, U)` for any other count, as
/// MLIR's `parseOptionalArrowTypeList` reads after `->`. Every argument's group takes the types
/// (`scf.parallel`'s init values are typed by its results); the first is printed.
pub(crate) const RESULT_TYPES: CustomDirective = CustomDirective {
    name: "ResultTypes",
    parse: parse_result_types,
    print: print_result_types,
};

fn parse_result_types(p: &mut Parser, st: &mut FormatState, args: &[CustomArg]) -> PResult<()> {
    let ts = if p.peek() == Some(b'(') {
        parse_type_list_parens(p)?
    } else {
        vec![p.parse_type()?]
    };
    for a in args {
        if let CustomArg::Type(n) = a {
            st.set_types(n, ts.clone());
        }
    }
    Ok(())
}

/// `custom<ParenResultTypes>(type($results), type($x)...)`: reads `T` or `(T, U)` as
/// [`RESULT_TYPES`] does (MLIR's `parseOptionalArrowTypeList`), every argument's group taking
/// the types, and prints the first group in parentheses, as `scf.if` and `scf.forall` do.
pub(crate) const PAREN_RESULT_TYPES: CustomDirective = CustomDirective {
    name: "ParenResultTypes",
    parse: parse_result_types,
    print: |pr, op, args| {
        let Some(CustomArg::Type(n)) = args.first() else {
            return;
        };
        let ts = group_types(pr.ctx, op, n);
        pr.out.push('(');
        pr.out.push_str(&types_str(pr.ctx, &ts));
        pr.out.push(')');
    },
};

fn print_result_types(pr: &mut Printer, op: OpId, args: &[CustomArg]) {
    let Some(CustomArg::Type(n)) = args.first() else {
        return;
    };
    let ts = group_types(pr.ctx, op, n);
    if ts.len() == 1 {
        pr.print_type(ts[0]);
    } else {
        pr.out.push('(');
        pr.out.push_str(&types_str(pr.ctx, &ts));
        pr.out.push(')');
    }
}

/// `custom<AssignmentList>($values, $region)`: `%a = %x, %b = %y` (MLIR's
/// `parseAssignmentList`). The right-hand sides are the operand group `$values`; the names are
/// the last entry-block arguments of `$region`, typed like the values.
pub(crate) const ASSIGNMENT_LIST: CustomDirective = CustomDirective {
    name: "AssignmentList",
    parse: parse_assignment_list,
    print: print_assignment_list,
};

fn parse_assignment_list(p: &mut Parser, st: &mut FormatState, args: &[CustomArg]) -> PResult<()> {
    let [CustomArg::Var(values), CustomArg::Var(region)] = args else {
        return Err(p.err_here("AssignmentList takes `$values, $region`"));
    };
    let (mut names, mut operands) = (Vec::new(), Vec::new());
    if p.peek() == Some(b'%') {
        loop {
            names.push(p.parse_value_name()?);
            p.expect("=")?;
            operands.push(p.parse_operand()?);
            if !p.eat(",") {
                break;
            }
        }
    }
    st.set_operands(values, operands);
    st.bind_region_args(region, names, ArgTypes::Of(values));
    Ok(())
}

fn print_assignment_list(pr: &mut Printer, op: OpId, args: &[CustomArg]) {
    let [CustomArg::Var(values), CustomArg::Var(region)] = args else {
        return;
    };
    let ctx = pr.ctx;
    let Some(def) = ctx.op_def(op) else {
        return;
    };
    let vals = operand_group(ctx, def, op, values);
    let Some(entry) = entry_block(ctx, def, op, region) else {
        return;
    };
    let block_args = ctx.block_args(entry);
    let first = block_args.len().saturating_sub(vals.len());
    for (i, (a, v)) in block_args[first..].iter().zip(&vals).enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        pr.print_value(*a);
        pr.out.push_str(" = ");
        pr.print_value(*v);
    }
}

/// The entry block of the op's region slot `region`, if it has one.
fn entry_block(
    ctx: &tilus_ir::Context,
    def: &'static OpDef,
    op: OpId,
    region: &str,
) -> Option<tilus_ir::BlockId> {
    let r = *region_group(ctx, def, op, region).first()?;
    ctx.region_blocks(r).first().copied()
}

/// `custom<InductionVars>($region, $rest)`: `%i, %j`, the first entry-block arguments of
/// `$region`, of type `index`; the optional operand group `$rest` says how many arguments after
/// them another directive prints.
pub(crate) const INDUCTION_VARS: CustomDirective = CustomDirective {
    name: "InductionVars",
    parse: parse_induction_vars,
    print: print_induction_vars,
};

fn parse_induction_vars(p: &mut Parser, st: &mut FormatState, args: &[CustomArg]) -> PResult<()> {
    let Some(CustomArg::Var(region)) = args.first() else {
        return Err(p.err_here("InductionVars takes `$region`"));
    };
    let mut names = Vec::new();
    if p.peek() == Some(b'%') {
        loop {
            names.push(p.parse_value_name()?);
            if !p.eat(",") {
                break;
            }
        }
    }
    let index = p.ctx.index_type();
    st.bind_region_args(region, names, ArgTypes::Fixed(index));
    Ok(())
}

fn print_induction_vars(pr: &mut Printer, op: OpId, args: &[CustomArg]) {
    let ctx = pr.ctx;
    let (Some(CustomArg::Var(region)), Some(def)) = (args.first(), ctx.op_def(op)) else {
        return;
    };
    let rest = match args.get(1) {
        Some(CustomArg::Var(g)) => operand_group(ctx, def, op, g).len(),
        _ => 0,
    };
    let Some(entry) = entry_block(ctx, def, op, region) else {
        return;
    };
    let block_args = ctx.block_args(entry);
    let n = block_args.len().saturating_sub(rest);
    for (i, a) in block_args[..n].iter().enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        pr.print_value(*a);
    }
}
