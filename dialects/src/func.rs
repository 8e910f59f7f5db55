//! `func`: functions, calls and returns.

use crate::builtin::ctx_sym;
use tilus_ir::attrs::AttrKind;
use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::{
    attr, many, one, opt_attr, region, Format, OpDef, Trait, TypeConstraint, ANY_TYPE,
    DICT_ARRAY_ATTR, FLAT_SYMBOL_REF, FUNCTION_TYPE_ATTR, STR_ATTR, UNIT_ATTR,
};
use tilus_ir::syntax::parser::{PResult, Parser, RegionArg};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::{
    Attr, BlockId, Context, DiagLoc, Diagnostic, OpId, OperationState, Printer, Type, TypeKind,
};

/// `func.func`.
pub static FUNC: OpDef = OpDef {
    name: "func.func",
    summary: "a function with a name, a signature and (unless external) a body",
    description: "Defines a symbol `sym_name` of type `function_type`. The body's entry block \
        takes the arguments; `func.return` ends it. Without a body the function is a declaration \
        (and must be `private`: a public declaration is an error, as in MLIR). Functions \
        live directly in a module, not inside another function or kernel. Written \
        `func.func @name(%a: i32) -> i32 { ... }`.",
    attributes: &[
        attr("sym_name", STR_ATTR),
        attr("function_type", FUNCTION_TYPE_ATTR),
        opt_attr("sym_visibility", STR_ATTR),
        opt_attr("arg_attrs", DICT_ARRAY_ATTR),
        opt_attr("res_attrs", DICT_ARRAY_ATTR),
        opt_attr("no_inline", UNIT_ATTR),
    ],
    regions: &[region("body")],
    traits: &[Trait::IsolatedFromAbove, Trait::Symbol],
    verify: Some(verify_func),
    format: tilus_ir::format::custom_form(&tilus_ir::format::CustomForm {
        parse: parse_func,
        print: print_func,
    }),
    default_dialect: Some("func"),
    ..OpDef::DEFAULT
};
const _: () = FUNC.check();

tilus_ir::op_handle! {
    /// Typed handle of `func.func`.
    pub struct FuncOp = FUNC;
    operands {}
    results {}
    attrs {
        sym_name = "sym_name": &str,
        function_type = "function_type": Attr,
        sym_visibility = "sym_visibility": Option<&str>,
        arg_attrs = "arg_attrs": Option<Attr>,
        res_attrs = "res_attrs": Option<Attr>,
        no_inline = "no_inline": bool
    }
    regions {
        body = "body"
    }
    successors {}
}

/// `func.return`.
pub static RETURN: OpDef = OpDef {
    name: "func.return",
    summary: "return from a function",
    description: "Ends the body of a `func.func`, returning its operands, whose number and types \
        must match the function's results.",
    operands: &[many("operands", ANY_TYPE)],
    traits: &[
        Trait::Pure,
        Trait::Terminator,
        Trait::ReturnLike,
        Trait::HasParent(&["func.func"]),
    ],
    verify: Some(verify_return),
    format: Format::Declarative("attr-dict ($operands^ `:` type($operands))?"),
    ..OpDef::DEFAULT
};
const _: () = RETURN.check();

tilus_ir::op_handle! {
    /// Typed handle of `func.return`.
    pub struct ReturnOp = RETURN;
    operands {
        operands = "operands": &[Value]
    }
    results {}
    attrs {}
    regions {}
    successors {}
}

/// `func.call`.
pub static CALL: OpDef = OpDef {
    name: "func.call",
    summary: "call a function by name",
    description: "Calls the `func.func` named by `callee` in the nearest symbol table with the \
        operands; operand and result types must match the callee's signature.",
    operands: &[many("operands", ANY_TYPE)],
    results: &[many("results", ANY_TYPE)],
    attributes: &[
        attr("callee", FLAT_SYMBOL_REF),
        opt_attr("no_inline", UNIT_ATTR),
    ],
    verify: Some(verify_call),
    format: Format::Declarative(
        "$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)",
    ),
    ..OpDef::DEFAULT
};
const _: () = CALL.check();

tilus_ir::op_handle! {
    /// Typed handle of `func.call`.
    pub struct CallOp = CALL;
    operands {
        operands = "operands": &[Value]
    }
    results {
        results = "results": &[Value]
    }
    attrs {
        callee = "callee": Attr,
        no_inline = "no_inline": bool
    }
    regions {}
    successors {}
}

/// A function type (`(i32) -> f32`).
const FUNCTION: TypeConstraint = TypeConstraint {
    desc: "function type",
    check: |c, t| matches!(c.type_kind(t), TypeKind::Function { .. }),
    build: None,
};

/// `func.constant`.
pub static CONSTANT: OpDef = OpDef {
    name: "func.constant",
    summary: "a function as a value",
    description: "Gives the `func.func` named by `value` as an SSA value of its function type, \
        for `func.call_indirect`. Written `%f = func.constant @name : (i32) -> i32`; the type \
        must be the function's.",
    results: &[one("result", ANY_TYPE)],
    attributes: &[attr("value", FLAT_SYMBOL_REF)],
    traits: &[Trait::Pure, Trait::ConstantLike],
    verify: Some(verify_constant),
    format: Format::Declarative("attr-dict $value `:` type(results)"),
    ..OpDef::DEFAULT
};
const _: () = CONSTANT.check();

tilus_ir::op_handle! {
    /// Typed handle of `func.constant`.
    pub struct ConstantOp = CONSTANT;
    operands {}
    results {
        result = "result": Value
    }
    attrs {
        value = "value": Attr
    }
    regions {}
    successors {}
}

/// The referenced function exists and has the result's type.
fn verify_constant(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let value = ctx.get_prop(op, "value").unwrap();
    let AttrKind::SymbolRef { root, .. } = ctx.attr_kind(value) else {
        unreachable!("declared a flat symbol reference")
    };
    let Some(f) = lookup_symbol(ctx, op, root).filter(|f| ctx.op_name_str(*f) == "func.func")
    else {
        return Err(Diagnostic::op(
            op,
            format!("'func.constant' op reference to undefined function '{root}'"),
        ));
    };
    let want = ctx
        .get_prop(f, "function_type")
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Type(t) => Some(*t),
            _ => None,
        });
    if want != Some(ctx.value_type(ctx.results(op)[0])) {
        return Err(Diagnostic::op(
            op,
            "'func.constant' op reference to function with mismatched type",
        )
        .with_note(DiagLoc::Op(f), "the function is defined here"));
    }
    Ok(())
}

/// `func.call_indirect`.
pub static CALL_INDIRECT: OpDef = OpDef {
    name: "func.call_indirect",
    summary: "call a function value",
    description: "Calls `callee`, a value of function type (from `func.constant` or an \
        argument), with `callee_operands`; operand and result types must be the callee type's. \
        Written `%r = func.call_indirect %f(%a) : (i32) -> i32`.",
    operands: &[one("callee", FUNCTION), many("callee_operands", ANY_TYPE)],
    results: &[many("results", ANY_TYPE)],
    attributes: &[
        opt_attr("arg_attrs", DICT_ARRAY_ATTR),
        opt_attr("res_attrs", DICT_ARRAY_ATTR),
    ],
    verify: Some(verify_call_indirect),
    // MLIR writes `type($callee)` and derives the others from it (`TypesMatchWith`).
    format: Format::Declarative(
        "$callee `(` $callee_operands `)` attr-dict `:` \
         custom<CalleeType>(type($callee), type($callee_operands), type($results))",
    ),
    custom_directives: &[tilus_ir::format::directive(
        &tilus_ir::format::CustomDirective {
            name: "CalleeType",
            parse: parse_callee_type,
            print: print_callee_type,
        },
    )],
    ..OpDef::DEFAULT
};
const _: () = CALL_INDIRECT.check();

tilus_ir::op_handle! {
    /// Typed handle of `func.call_indirect`.
    pub struct CallIndirectOp = CALL_INDIRECT;
    operands {
        callee = "callee": Value,
        callee_operands = "callee_operands": &[Value]
    }
    results {
        results = "results": &[Value]
    }
    attrs {
        arg_attrs = "arg_attrs": Option<Attr>,
        res_attrs = "res_attrs": Option<Attr>
    }
    regions {}
    successors {}
}

/// `%f(%a, %b) {attrs} : (A, B) -> R`: the operands take the callee type's inputs, the results
/// its results.
/// The callee's function type, which also gives the argument and result types. The arguments
/// are `type($callee)`, `type($callee_operands)` and `type($results)`.
fn parse_callee_type(
    p: &mut Parser,
    st: &mut tilus_ir::format::FormatState,
    args: &[tilus_ir::format::CustomArg],
) -> PResult<()> {
    use tilus_ir::format::CustomArg;
    let [CustomArg::Type(callee), CustomArg::Type(operands), CustomArg::Type(results)] = args
    else {
        return Err(p.err_here("CalleeType takes three type($x) arguments"));
    };
    p.skip_ws();
    let start = p.pos();
    let fty = p.parse_type()?;
    let TypeKind::Function {
        inputs,
        results: outs,
    } = p.ctx.type_kind(fty).clone()
    else {
        return Err(Diagnostic::at(
            tilus_ir::Span::new(start, p.pos()),
            "expected a function type",
        ));
    };
    let given = st.operand_count(operands).unwrap_or(0);
    if inputs.len() != given {
        return Err(Diagnostic::at(
            tilus_ir::Span::new(start, p.pos()),
            format!(
                "'func.call_indirect' has {given} operands but its type has {} inputs",
                inputs.len()
            ),
        ));
    }
    st.set_types(callee, vec![fty]);
    st.set_types(operands, inputs);
    st.set_types(results, outs);
    Ok(())
}

fn print_callee_type(p: &mut Printer, op: OpId, args: &[tilus_ir::format::CustomArg]) {
    let Some(tilus_ir::format::CustomArg::Type(callee)) = args.first() else {
        return;
    };
    if let Some(&f) = tilus_ir::format::operand_group(p.ctx, &CALL_INDIRECT, op, callee).first() {
        p.print_type(p.ctx.value_type(f));
    }
}

/// The operands and results have the callee type's inputs and results.
fn verify_call_indirect(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let ops = ctx.operands(op);
    let TypeKind::Function { inputs, results } = ctx.type_kind(ctx.value_type(ops[0])) else {
        unreachable!("declared a function type")
    };
    let args: Vec<Type> = ops[1..].iter().map(|v| ctx.value_type(*v)).collect();
    if args != *inputs {
        return Err(Diagnostic::op(
            op,
            "'func.call_indirect' op operand types do not match the callee type's inputs",
        ));
    }
    let res: Vec<Type> = ctx.results(op).iter().map(|v| ctx.value_type(*v)).collect();
    if res != *results {
        return Err(Diagnostic::op(
            op,
            "'func.call_indirect' op result types do not match the callee type's results",
        ));
    }
    Ok(())
}

/// The func dialect's ops.
pub static OPS: &[&OpDef] = &[&FUNC, &RETURN, &CALL, &CONSTANT, &CALL_INDIRECT];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `func` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum FuncOpKind for OPS {
        Func(FuncOp),
        Return(ReturnOp),
        Call(CallOp),
        Constant(ConstantOp),
        CallIndirect(CallIndirectOp),
    }
}

/// The `(inputs, results)` of an op's `function_type` property.
pub(crate) fn function_type(ctx: &Context, op: OpId) -> Option<(Vec<Type>, Vec<Type>)> {
    let a = ctx.get_prop(op, "function_type")?;
    match ctx.attr_kind(a) {
        AttrKind::Type(t) => match ctx.type_kind(*t) {
            TypeKind::Function { inputs, results } => Some((inputs.clone(), results.clone())),
            _ => None,
        },
        _ => None,
    }
}

pub(crate) fn sym_name(ctx: &Context, op: OpId) -> String {
    match ctx
        .get_inherent_or_attr(op, "sym_name")
        .map(|a| ctx.attr_kind(a))
    {
        Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    }
}

fn verify_func(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let (inputs, results) = function_type(ctx, op).unwrap();
    // MLIR's `function_interface_impl::verifyTrait`: one dictionary per parameter (result),
    // holding dialect attributes only (names with a '.').
    for (prop, what, n) in [
        ("arg_attrs", "argument", inputs.len()),
        ("res_attrs", "result", results.len()),
    ] {
        let dicts = dict_array_prop(ctx, op, prop);
        if ctx.get_prop(op, prop).is_some() && dicts.len() != n {
            return Err(Diagnostic::op(
                op,
                format!("'func.func' op expects {what} attribute array to have the same number of elements as the number of function {what}s, got {}, but expected {n}", dicts.len()),
            ));
        }
        for d in dicts.into_iter().flatten() {
            if let AttrKind::Dict(entries) = ctx.attr_kind(d) {
                if let Some((k, _)) = entries.iter().find(|(k, _)| !k.contains('.')) {
                    return Err(Diagnostic::op(
                        op,
                        format!("'func.func' op {what}s may only have dialect attributes"),
                    )
                    .with_help(format!(
                        "'{k}' has no dialect prefix; name it `dialect.{k}`"
                    )));
                }
            }
        }
    }
    let r = ctx.regions(op)[0];
    let visibility = FuncOp::cast(ctx, op).and_then(|f| f.sym_visibility(ctx));
    if ctx.region_blocks(r).is_empty() && visibility.is_none_or(|v| v == "public") {
        return Err(Diagnostic::op(
            op,
            "'func.func' op symbol declaration cannot have public visibility",
        )
        .with_help("a function without a body is defined elsewhere: declare it `func.func private @name(...)`"));
    }
    if let Some(&entry) = ctx.region_blocks(r).first() {
        let args: Vec<Type> = ctx
            .block_args(entry)
            .iter()
            .map(|v| ctx.value_type(*v))
            .collect();
        if args.len() != inputs.len() {
            return Err(Diagnostic::op(
                op,
                format!("'func.func' op entry block must have {} arguments to match function signature, but has {}", inputs.len(), args.len()),
            ));
        }
        for (i, (a, t)) in args.iter().zip(&inputs).enumerate() {
            if a != t {
                return Err(Diagnostic::op(
                    op,
                    format!(
                        "'func.func' op type of entry block argument #{i}('{}') must match the type of the corresponding argument in function signature('{}')",
                        type_to_string(ctx, *a),
                        type_to_string(ctx, *t)
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn verify_return(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let f = ctx.parent_op(op).unwrap();
    let (_, results) = function_type(ctx, f).unwrap_or_default();
    let ops = ctx.operands(op);
    let name = sym_name(ctx, f);
    if ops.len() != results.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'func.return' op has {} operands, but enclosing function (@{name}) returns {}",
                ops.len(),
                results.len()
            ),
        )
        .with_note(DiagLoc::Op(f), "enclosing function is here"));
    }
    for (i, (v, t)) in ops.iter().zip(&results).enumerate() {
        let vt = ctx.value_type(*v);
        if vt != *t {
            return Err(Diagnostic::op(
                op,
                format!(
                    "'func.return' op type of return operand {i} ('{}') doesn't match function result type ('{}') in function @{name}",
                    type_to_string(ctx, vt),
                    type_to_string(ctx, *t)
                ),
            ));
        }
    }
    Ok(())
}

/// Finds a symbol by name in the nearest enclosing symbol table(s), innermost first.
pub fn lookup_symbol(ctx: &Context, from: OpId, name: &str) -> Option<OpId> {
    let mut cur = ctx.parent_op(from);
    while let Some(p) = cur {
        if ctx.op_def(p).is_some_and(|d| d.has(Trait::SymbolTable)) {
            for &r in ctx.regions(p) {
                for &b in ctx.region_blocks(r) {
                    for o in ctx.block_ops(b) {
                        if sym_name(ctx, o) == name
                            && ctx.get_inherent_or_attr(o, "sym_name").is_some()
                        {
                            return Some(o);
                        }
                    }
                }
            }
        }
        cur = ctx.parent_op(p);
    }
    None
}

fn verify_call(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let callee = ctx.get_prop(op, "callee").unwrap();
    let AttrKind::SymbolRef { root, .. } = ctx.attr_kind(callee) else {
        unreachable!()
    };
    let Some(f) = lookup_symbol(ctx, op, root).filter(|f| ctx.op_name_str(*f) == "func.func")
    else {
        return Err(Diagnostic::op(
            op,
            format!("'func.call' op '{root}' does not reference a valid function"),
        ));
    };
    let (inputs, results) = function_type(ctx, f).unwrap_or_default();
    let ops = ctx.operands(op);
    if ops.len() != inputs.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'func.call' op incorrect number of operands for callee: expected {}, found {}",
                inputs.len(),
                ops.len()
            ),
        )
        .with_note(DiagLoc::Op(f), "callee is defined here"));
    }
    for (i, (v, t)) in ops.iter().zip(&inputs).enumerate() {
        let vt = ctx.value_type(*v);
        if vt != *t {
            return Err(Diagnostic::op(
                op,
                format!("'func.call' op operand type mismatch: expected operand type '{}', but provided '{}' for operand number {i}", type_to_string(ctx, *t), type_to_string(ctx, vt)),
            ));
        }
    }
    let res = ctx.results(op);
    if res.len() != results.len() {
        return Err(Diagnostic::op(
            op,
            format!(
                "'func.call' op incorrect number of results for callee: expected {}, found {}",
                results.len(),
                res.len()
            ),
        ));
    }
    for (i, (v, t)) in res.iter().zip(&results).enumerate() {
        let vt = ctx.value_type(*v);
        if vt != *t {
            return Err(Diagnostic::op(
                op,
                format!(
                    "'func.call' op result type mismatch at index {i}: expected '{}', found '{}'",
                    type_to_string(ctx, *t),
                    type_to_string(ctx, vt)
                ),
            ));
        }
    }
    Ok(())
}

fn parse_func(p: &mut Parser, def: &'static OpDef) -> PResult<OperationState> {
    let mut props: Vec<(String, Attr)> = Vec::new();
    for vis in ["private", "public", "nested"] {
        if p.eat_keyword(vis) {
            props.push(("sym_visibility".into(), p.ctx.str_attr(vis)));
            break;
        }
    }
    let (name, sp) = p.parse_symbol_name()?;
    p.note_attr_span("sym_name", sp);
    props.push(("sym_name".into(), p.ctx.str_attr(&name)));
    p.expect("(")?;
    let mut args: Vec<RegionArg> = Vec::new();
    let mut inputs = Vec::new();
    let mut arg_attrs: Vec<Attr> = Vec::new();
    let mut named = None;
    if !p.eat(")") {
        loop {
            let is_named = p.peek() == Some(b'%');
            if *named.get_or_insert(is_named) != is_named {
                return Err(p.err_here(
                    "expected all arguments to be named (`%x: type`) or all to be types",
                ));
            }
            if is_named {
                let (arg, a) = parse_named_arg(p, true)?;
                inputs.push(arg.ty);
                args.push(arg);
                arg_attrs.push(a);
            } else {
                let t = p.parse_type()?;
                let a = parse_opt_dict(p)?;
                inputs.push(t);
                arg_attrs.push(a);
            }
            if !p.eat(",") {
                break;
            }
        }
        p.expect(")")?;
    }
    let mut results = Vec::new();
    let mut res_attrs = Vec::new();
    if p.eat("->") {
        if p.peek() == Some(b'(') && !is_function_type_ahead(p) {
            p.expect("(")?;
            if !p.eat(")") {
                loop {
                    results.push(p.parse_type()?);
                    res_attrs.push(parse_opt_dict(p)?);
                    if !p.eat(",") {
                        break;
                    }
                }
                p.expect(")")?;
            }
        } else {
            // A bare result type takes no attribute dictionary: `{` opens the body.
            results.push(p.parse_type()?);
            res_attrs.push(p.ctx.dict_attr(vec![]));
        }
    }
    let ft = p.ctx.function_type(inputs, results);
    props.push(("function_type".into(), p.ctx.type_attr(ft)));
    if let Some(a) = nonempty_dict_array(p.ctx, arg_attrs) {
        props.push(("arg_attrs".into(), a));
    }
    if let Some(a) = nonempty_dict_array(p.ctx, res_attrs) {
        props.push(("res_attrs".into(), a));
    }
    let mut attrs = Vec::new();
    if p.eat_keyword("attributes") {
        let dict_at = p.pos();
        for (k, v, sp) in p.parse_attr_dict()? {
            // MLIR's `parseFunctionOp`: these come from the signature, never from the dictionary.
            if matches!(k.as_str(), "sym_visibility" | "sym_name" | "function_type") {
                p.set_pos(dict_at);
                return Err(p.err_here(format!(
                    "'{k}' is an inferred attribute and should not be specified in the explicit attribute dictionary"
                )));
            }
            p.note_attr_span(&k, sp);
            if def.attr(&k).is_some() {
                props.push((k, v));
            } else {
                attrs.push((k, v));
            }
        }
    }
    // With unnamed arguments (`func.func @f(i32) {`), the body's entry block names them in its
    // own label (`^bb0(%a: i32):`), as MLIR allows; the verifier matches them to the signature.
    let region = if p.peek() == Some(b'{') {
        p.push_default_dialect(Some("func"));
        let r = p.parse_region(args, true);
        p.pop_default_dialect();
        r?
    } else {
        p.ctx.create_region()
    };
    let properties = Some(p.ctx.dict_attr(props));
    let name = p.ctx.op_name(def.name);
    let loc = p.ctx.unknown_loc();
    let mut st = OperationState::new(name, loc)
        .with_attrs(attrs)
        .with_regions(vec![region]);
    st.properties = properties;
    Ok(st)
}

/// `-> (i32) -> i32` would be a function-typed result; a parenthesised list is followed by `->`.
fn is_function_type_ahead(p: &mut Parser) -> bool {
    let save = p.pos();
    let r = p.parse_type();
    let is_fn = matches!(r, Ok(t) if matches!(p.ctx.type_kind(t), TypeKind::Function { .. }));
    p.set_pos(save);
    is_fn
}

/// One named parameter `%x: type {attrs}? loc(...)?`, and its attribute dictionary (empty,
/// and no `{...}` read, unless `with_attrs`).
pub(crate) fn parse_named_arg(p: &mut Parser, with_attrs: bool) -> PResult<(RegionArg, Attr)> {
    let (name, span) = p.parse_value_name()?;
    p.expect(":")?;
    let ty = p.parse_type()?;
    let a = if with_attrs {
        parse_opt_dict(p)?
    } else {
        p.ctx.dict_attr(vec![])
    };
    let loc = if p.peek_str("loc(") {
        Some(p.parse_loc()?)
    } else {
        None
    };
    Ok((
        RegionArg {
            name,
            ty,
            loc,
            span,
        },
        a,
    ))
}

fn parse_opt_dict(p: &mut Parser) -> PResult<Attr> {
    let mut entries = Vec::new();
    if p.peek() == Some(b'{') {
        for (k, v, _) in p.parse_attr_dict()? {
            entries.push((k, v));
        }
    }
    Ok(p.ctx.dict_attr(entries))
}

fn print_func(pr: &mut Printer, op: OpId) {
    let ctx = pr.ctx;
    if let Some(AttrKind::String { value, .. }) =
        ctx.get_prop(op, "sym_visibility").map(|a| ctx.attr_kind(a))
    {
        pr.out.push(' ');
        pr.out.push_str(&String::from_utf8_lossy(value));
    }
    pr.out.push(' ');
    pr.out.push_str(&ctx_sym(&sym_name(ctx, op)));
    let (inputs, results) = function_type(ctx, op).unwrap_or_default();
    let arg_attrs = dict_array_prop(ctx, op, "arg_attrs");
    let res_attrs = dict_array_prop(ctx, op, "res_attrs");
    let r = ctx.regions(op)[0];
    let entry = ctx.region_blocks(r).first().copied();
    print_fn_args(pr, entry, &inputs, &arg_attrs);
    if !results.is_empty() {
        pr.out.push_str(" -> ");
        let has_attrs = res_attrs.iter().any(|a| {
            a.is_some_and(|a| !matches!(ctx.attr_kind(a), AttrKind::Dict(e) if e.is_empty()))
        });
        let paren = results.len() > 1
            || has_attrs
            || matches!(ctx.type_kind(results[0]), TypeKind::Function { .. });
        if paren {
            pr.out.push('(');
        }
        for (i, t) in results.iter().enumerate() {
            if i > 0 {
                pr.out.push_str(", ");
            }
            pr.print_type(*t);
            print_nonempty_dict(pr, res_attrs.get(i).copied().flatten());
        }
        if paren {
            pr.out.push(')');
        }
    }
    let mut rest: Vec<(String, Attr)> = ctx.attrs(op).to_vec();
    if let Some(v) = ctx.get_prop(op, "no_inline") {
        rest.push(("no_inline".into(), v));
    }
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    if !rest.is_empty() {
        pr.out.push_str(" attributes ");
        pr.print_attr_dict_entries(&rest, &[]);
    }
    if entry.is_some() {
        pr.out.push(' ');
        pr.print_region(r, false, true);
    }
}

/// A function-like op's per-parameter (or per-result) dictionaries, from its `name` property
/// (an array of dictionaries, MLIR's `arg_attrs`/`res_attrs`); empty when it has none.
pub(crate) fn dict_array_prop(ctx: &Context, op: OpId, name: &str) -> Vec<Option<Attr>> {
    match ctx.get_prop(op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(xs)) => xs.iter().map(|x| Some(*x)).collect(),
        _ => vec![],
    }
}

/// The `arg_attrs`/`res_attrs` property for the dictionaries parsed with each parameter or
/// result: none when all are empty (as MLIR leaves it out).
pub(crate) fn nonempty_dict_array(ctx: &mut Context, dicts: Vec<Attr>) -> Option<Attr> {
    let empty = ctx.dict_attr(vec![]);
    dicts
        .iter()
        .any(|a| *a != empty)
        .then(|| ctx.attr(AttrKind::Array(dicts)))
}

/// `(%x: type {attrs} loc(...), ...)`: the parameters of a function-like op, named by the
/// arguments of its body's `entry` block when it has one; locations under debuginfo.
pub(crate) fn print_fn_args(
    pr: &mut Printer,
    entry: Option<BlockId>,
    inputs: &[Type],
    arg_attrs: &[Option<Attr>],
) {
    let ctx = pr.ctx;
    pr.out.push('(');
    for (i, t) in inputs.iter().enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        let arg = entry.and_then(|b| ctx.block_args(b).get(i).copied());
        if let Some(v) = arg {
            pr.print_value(v);
            pr.out.push_str(": ");
        }
        pr.print_type(*t);
        print_nonempty_dict(pr, arg_attrs.get(i).copied().flatten());
        if let (Some(v), true) = (arg, pr.opts.debuginfo) {
            if let Some(l) = ctx.value(v).loc {
                pr.out.push(' ');
                pr.print_loc_inline(l);
            }
        }
    }
    pr.out.push(')');
}

fn print_nonempty_dict(pr: &mut Printer, a: Option<Attr>) {
    if let Some(a) = a {
        if let AttrKind::Dict(e) = pr.ctx.attr_kind(a) {
            if !e.is_empty() {
                pr.out.push(' ');
                pr.print_attr(a);
            }
        }
    }
}
