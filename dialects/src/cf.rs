//! `cf`: unstructured control flow between blocks of a region.

use tilus_ir::attrs::AttrKind;
use tilus_ir::attrs::{DenseData, DenseLit};
use tilus_ir::format::{CustomArg, CustomDirective, FormatState};
use tilus_ir::opdef::{
    attr, many, many_succ, one, opt_attr, succ, AttrConstraint, Format, OpDef, Trait, ANY_INTEGER,
    ANY_TYPE, DENSE_I32_ARRAY, I1, STR_ATTR,
};
use tilus_ir::rewrite::{constant_of, successor_operands, Pattern, Rewriter};
use tilus_ir::syntax::parser::{PResult, Parser, UnresolvedOperand};
use tilus_ir::syntax::printer::type_to_string;
use tilus_ir::{Attr, BlockId, Context, Diagnostic, Printer, Type, TypeKind, Value};
use tilus_ir::{OpId, OperationState};

/// `cf.br`.
pub static BR: OpDef = OpDef {
    name: "cf.br",
    summary: "unconditional branch",
    description: "Jumps to `dest`, passing `destOperands` as its block arguments; their number \
        and types must match the target block's arguments.",
    operands: &[many("destOperands", ANY_TYPE)],
    successors: &[succ("dest", "destOperands")],
    traits: &[Trait::Pure, Trait::Terminator],
    canonicalize: &[Pattern::new(
        "br-merge-single-predecessor",
        br_merge_single_predecessor,
    )],
    format: Format::Declarative(
        "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict",
    ),
    ..OpDef::DEFAULT
};
const _: () = BR.check();

tilus_ir::op_handle! {
    /// Typed handle of `cf.br`.
    pub struct BrOp = BR;
    operands {
        dest_operands = "destOperands": &[Value]
    }
    results {}
    attrs {}
    regions {}
    successors {
        dest = "dest"
    }
}

/// `cf.cond_br`.
pub static COND_BR: OpDef = OpDef {
    name: "cf.cond_br",
    summary: "conditional branch",
    description: "Jumps to `trueDest` when `condition` is true, else to `falseDest`, each with \
        its own block arguments.",
    operands: &[
        one("condition", I1),
        many("trueDestOperands", ANY_TYPE),
        many("falseDestOperands", ANY_TYPE),
    ],
    successors: &[
        succ("trueDest", "trueDestOperands"),
        succ("falseDest", "falseDestOperands"),
    ],
    attributes: &[opt_attr("branch_weights", BRANCH_WEIGHTS)],
    traits: &[
        Trait::Pure,
        Trait::Terminator,
        Trait::AttrSizedOperandSegments,
    ],
    verify: Some(verify_branch_weights),
    canonicalize: &[
        Pattern::new("cond-br-constant-condition", cond_br_constant),
        Pattern::new("cond-br-same-successor", cond_br_same_successor),
    ],
    format: Format::Declarative(
        "$condition (`weights` `(` $branch_weights^ `)`)? `,` \
         $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` \
         $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict",
    ),
    ..OpDef::DEFAULT
};
const _: () = COND_BR.check();

/// MLIR's `branch_weights` (`DenseI32ArrayAttr`), written `weights([60, 40])` in the custom form.
const BRANCH_WEIGHTS: AttrConstraint = AttrConstraint {
    form: tilus_ir::opdef::AttrForm::IntList(32),
    ..DENSE_I32_ARRAY
};

/// MLIR's `WeightedBranchOpInterface` verifier: one weight per successor, not all zero.
fn verify_branch_weights(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let Some(a) = ctx.get_prop(op, "branch_weights") else {
        return Ok(());
    };
    let Some(values) = ctx.int_array_values(a) else {
        return Ok(());
    };
    let n = ctx.successors(op).len();
    if values.len() != n {
        return Err(Diagnostic::op(
            op,
            format!(
                "expects number of branch weights to match number of successors: {} vs {n}",
                values.len()
            ),
        ));
    }
    if values.iter().all(|v| *v == 0) {
        return Err(Diagnostic::op(op, "branch weights cannot all be zero"));
    }
    Ok(())
}

tilus_ir::op_handle! {
    /// Typed handle of `cf.cond_br`.
    pub struct CondBrOp = COND_BR;
    operands {
        condition = "condition": Value,
        true_dest_operands = "trueDestOperands": &[Value],
        false_dest_operands = "falseDestOperands": &[Value]
    }
    results {}
    attrs {
        branch_weights = "branch_weights": Option<Attr>
    }
    regions {}
    successors {
        true_dest = "trueDest",
        false_dest = "falseDest"
    }
}

/// Replaces a conditional branch by an unconditional one to `dest(s)`.
fn to_br(rw: &mut Rewriter<'_>, op: OpId, s: usize) {
    let ctx = rw.ctx();
    let dest = ctx.successors(op)[s];
    let range = successor_operands(ctx, op, s).unwrap_or(0..0);
    let operands = ctx.operands(op)[range].to_vec();
    let loc = ctx.op(op).loc;
    let name = rw.ctx_mut().op_name("cf.br");
    rw.replace_op_with_new(
        op,
        OperationState::new(name, loc)
            .with_operands(operands)
            .with_successors(vec![dest]),
    );
}

/// A `cf.br` to a block it alone reaches: the block's ops move up into the branching block
/// (its arguments become the branch's operands) and the block goes away.
fn br_merge_single_predecessor(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ctx = rw.ctx();
    let dest = ctx.successors(op)[0];
    let Some(here) = ctx.op_parent_block(op) else {
        return false;
    };
    if dest == here || ctx.block_preds(dest).len() != 1 {
        return false;
    }
    let args = ctx.block_args(dest).to_vec();
    let vals = ctx.operands(op).to_vec();
    let ops: Vec<OpId> = ctx.block_ops(dest).collect();
    for (a, v) in args.into_iter().zip(vals) {
        rw.replace_all_uses_with(a, v);
    }
    let mut after = op;
    for o in ops {
        rw.move_op_after(o, after);
        after = o;
    }
    rw.erase_op(op);
    rw.erase_block(dest);
    true
}

/// `cf.cond_br` on a constant takes the branch it would always take.
fn cond_br_constant(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ctx = rw.ctx();
    let Some(a) = constant_of(ctx, ctx.operands(op)[0]) else {
        return false;
    };
    let taken = match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => *value != 0.into(),
        AttrKind::Bool(b) => *b,
        _ => return false,
    };
    to_br(rw, op, if taken { 0 } else { 1 });
    true
}

/// `cf.cond_br` whose two edges go to one block with the same arguments is a `cf.br`.
fn cond_br_same_successor(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ctx = rw.ctx();
    let succ = ctx.successors(op);
    if succ[0] != succ[1] {
        return false;
    }
    let (Some(a), Some(b)) = (
        successor_operands(ctx, op, 0),
        successor_operands(ctx, op, 1),
    ) else {
        return false;
    };
    if ctx.operands(op)[a] != ctx.operands(op)[b] {
        return false;
    }
    to_br(rw, op, 0);
    true
}

/// `cf.assert`.
pub static ASSERT: OpDef = OpDef {
    name: "cf.assert",
    summary: "abort with a message unless a condition holds",
    description: "Checks `arg` at run time; when it is false, execution stops with `msg`. \
        Written `cf.assert %ok, \"message\"`.",
    operands: &[one("arg", I1)],
    attributes: &[attr("msg", STR_ATTR)],
    format: Format::Declarative("$arg `,` $msg attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = ASSERT.check();

tilus_ir::op_handle! {
    /// Typed handle of `cf.assert`.
    pub struct AssertOp = ASSERT;
    operands {
        arg = "arg": Value
    }
    results {}
    attrs {
        msg = "msg": Attr
    }
    regions {}
    successors {}
}

impl AssertOp {
    /// The assertion's message as text (bytes that are not UTF-8 replaced), for the reports of
    /// the tools that run it: MLIR's strings may hold any bytes.
    pub fn message(self, ctx: &Context) -> String {
        match ctx.attr_kind(self.msg(ctx)) {
            AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
            _ => String::new(),
        }
    }
}

/// MLIR's `AnyIntElementsAttr`: a dense attribute of integers.
const INT_ELEMENTS: AttrConstraint = AttrConstraint {
    desc: "integer elements attribute",
    check: |c, a| match c.attr_kind(a) {
        AttrKind::DenseElements { ty, .. } => match c.type_kind(*ty) {
            TypeKind::Vector { elem, .. } | TypeKind::RankedTensor { elem, .. } => {
                matches!(c.type_kind(*elem), TypeKind::Integer { .. })
            }
            _ => false,
        },
        _ => false,
    },
    value_type: None,
    keywords: &[],
    short_form: None,
    form: tilus_ir::opdef::AttrForm::Plain,
};

/// `cf.switch`.
pub static SWITCH: OpDef = OpDef {
    name: "cf.switch",
    summary: "multi-way branch on an integer",
    description: "Jumps to the case destination whose value in `case_values` equals `flag`, \
        or to `defaultDestination` when none does. Each destination takes its own operands; \
        `case_operand_segments` says how many of `caseOperands` each case forwards. Written \
        `cf.switch %flag : i32, [ default: ^bb1(%a : i32), 42: ^bb2, 43: ^bb3(%b : i32) ]`.",
    operands: &[
        one("flag", ANY_INTEGER),
        many("defaultOperands", ANY_TYPE),
        many("caseOperands", ANY_TYPE),
    ],
    attributes: &[
        opt_attr("case_values", INT_ELEMENTS),
        attr("case_operand_segments", DENSE_I32_ARRAY),
    ],
    successors: &[
        succ("defaultDestination", "defaultOperands"),
        many_succ("caseDestinations", "caseOperands", "case_operand_segments"),
    ],
    traits: &[
        Trait::Pure,
        Trait::Terminator,
        Trait::AttrSizedOperandSegments,
    ],
    verify: Some(verify_switch),
    // MLIR's format (its `ref(type($flag))` is our `type($flag)`: the hook reads it).
    format: Format::Declarative(
        "$flag `:` type($flag) `,` ` ` `[` custom<SwitchOpCases>(type($flag), \
         $defaultDestination, $defaultOperands, type($defaultOperands), $case_values, \
         $caseDestinations, $caseOperands, type($caseOperands), $case_operand_segments) `]` \
         attr-dict",
    ),
    custom_directives: &[tilus_ir::format::directive(&CustomDirective {
        name: "SwitchOpCases",
        parse: parse_switch_cases,
        print: print_switch_cases,
    })],
    ..OpDef::DEFAULT
};
const _: () = SWITCH.check();

tilus_ir::op_handle! {
    /// Typed handle of `cf.switch`.
    pub struct SwitchOp = SWITCH;
    operands {
        flag = "flag": Value,
        default_operands = "defaultOperands": &[Value],
        case_operands = "caseOperands": &[Value]
    }
    results {}
    attrs {
        case_values = "case_values": Option<Attr>,
        case_operand_segments = "case_operand_segments": Attr
    }
    regions {}
    successors {
        default_destination = "defaultDestination",
        case_destinations = "caseDestinations": many
    }
}

/// The integer case values of a `cf.switch` (empty when it has none), in order.
pub fn switch_case_values(ctx: &Context, op: OpId) -> Option<Vec<tilus_ir::BigInt>> {
    let Some(a) = SwitchOp::from_id_unchecked(op).case_values(ctx) else {
        return Some(Vec::new());
    };
    let AttrKind::DenseElements { data, ty } = ctx.attr_kind(a) else {
        return None;
    };
    let n: i64 = match ctx.type_kind(*ty) {
        TypeKind::Vector { shape, .. } | TypeKind::RankedTensor { shape, .. } => {
            shape.iter().product()
        }
        _ => return None,
    };
    let parse = |t: &str| -> Option<tilus_ir::BigInt> {
        match t {
            "true" => Some(1.into()),
            "false" => Some(0.into()),
            _ => tilus_ir::syntax::parser::parse_int_literal(t),
        }
    };
    match data {
        DenseData::Literal(DenseLit::Scalar(t)) => {
            let v = parse(t)?;
            Some(vec![v; usize::try_from(n).ok()?])
        }
        DenseData::Literal(DenseLit::List(items)) => items
            .iter()
            .map(|i| match i {
                DenseLit::Scalar(t) => parse(t),
                _ => None,
            })
            .collect(),
        DenseData::Empty => Some(Vec::new()),
        _ => None,
    }
}

/// MLIR's rules: the case values have the flag's type, one per case destination (the generic
/// verifier checks that the segments split the case operands, one per case destination).
fn verify_switch(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let h = SwitchOp::from_id_unchecked(op);
    let ncases = h.case_destinations(ctx).len();
    let Some(cv) = h.case_values(ctx) else {
        if ncases == 0 {
            return Ok(());
        }
        return Err(Diagnostic::op(
            op,
            format!("'cf.switch' op number of case values (0) should match number of case destinations ({ncases})"),
        ));
    };
    let AttrKind::DenseElements { ty, .. } = ctx.attr_kind(cv) else {
        unreachable!("checked by the attribute constraint")
    };
    let (elem, n) = match ctx.type_kind(*ty) {
        TypeKind::Vector { elem, shape, .. } | TypeKind::RankedTensor { elem, shape, .. } => {
            (*elem, shape.iter().product::<i64>())
        }
        _ => unreachable!("checked by the attribute constraint"),
    };
    let flag_ty = ctx.value_type(h.flag(ctx));
    if elem != flag_ty {
        return Err(Diagnostic::op(
            op,
            format!(
                "'cf.switch' op 'flag' type ('{}') should match case value type ('{}')",
                type_to_string(ctx, flag_ty),
                type_to_string(ctx, elem)
            ),
        ));
    }
    if n != ncases as i64 {
        return Err(Diagnostic::op(
            op,
            format!("'cf.switch' op number of case values ({n}) should match number of case destinations ({ncases})"),
        ));
    }
    Ok(())
}

/// A destination with its operands: `^bb1` or `^bb1(%a, %b : i32, f32)`.
fn parse_destination(p: &mut Parser) -> PResult<(BlockId, Vec<UnresolvedOperand>, Vec<Type>)> {
    let b = p.parse_successor_ref()?;
    let (mut us, mut ts) = (Vec::new(), Vec::new());
    if p.eat("(") {
        (us, ts) = crate::common::parse_typed_operand_list(p)?;
    }
    Ok((b, us, ts))
}

/// `custom<SwitchOpCases>(...)`: `default: ^bb1(...)`, then `value: ^bbN(...)` per case, one per
/// line (MLIR's `parseSwitchOpCases`). Case values are integers of the flag's type, kept as
/// `dense<[...]> : vector<Nxiw>`.
fn parse_switch_cases(p: &mut Parser, st: &mut FormatState, args: &[CustomArg]) -> PResult<()> {
    let [CustomArg::Type(flag), CustomArg::Var(default_dest), CustomArg::Var(default_ops), CustomArg::Type(_), CustomArg::Var(values_attr), CustomArg::Var(case_dests), CustomArg::Var(case_ops), CustomArg::Type(_), CustomArg::Var(segments_attr)] =
        args
    else {
        return Err(p.err_here("SwitchOpCases takes MLIR's nine arguments"));
    };
    let Some(&flag_ty) = st.types(flag).and_then(|ts| ts.first()) else {
        return Err(p.err_here("SwitchOpCases needs the flag's type first"));
    };
    p.expect_keyword("default")?;
    p.expect(":")?;
    let (default, default_us, default_ts) = parse_destination(p)?;
    let mut values = Vec::new();
    let mut dests = Vec::new();
    let (mut case_us, mut case_ts) = (Vec::new(), Vec::new());
    let mut segs = Vec::new();
    while p.eat(",") {
        let neg = p.eat("-");
        let (text, sp) = p.parse_number_text()?;
        let text = if neg { format!("-{text}") } else { text };
        // MLIR 22 reads a case value as an `int64_t` (a literal beyond it is an error, whatever
        // the flag's width) and truncates it to the flag's width (`256` is case 0 of an `i8`
        // switch).
        let v = text.parse::<i64>();
        let decimal = text
            .trim_start_matches('-')
            .bytes()
            .all(|c| c.is_ascii_digit());
        if decimal && v.is_err() {
            return Err(tilus_ir::Diagnostic::at(
                sp,
                "custom op 'cf.switch' integer value too large",
            ));
        }
        let text = match (v, p.ctx.type_kind(flag_ty)) {
            (Ok(v), TypeKind::Integer { width, .. }) if *width < 64 => {
                (i128::from(v).rem_euclid(1i128 << *width)).to_string()
            }
            _ => text,
        };
        // Checks the value fits the flag's type, and keeps it as MLIR prints it (decimal).
        let a = p.number_attr_typed(&text, flag_ty, sp)?;
        let text = match p.ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => value.to_string(),
            _ => text,
        };
        values.push(DenseLit::Scalar(text));
        p.expect(":")?;
        let (d, us, ts) = parse_destination(p)?;
        dests.push(d);
        segs.push(us.len() as i64);
        case_us.extend(us);
        case_ts.extend(ts);
    }
    if !values.is_empty() {
        let vty = p.ctx.ty(TypeKind::Vector {
            shape: vec![values.len() as i64],
            scalable: vec![false],
            elem: flag_ty,
        });
        let a = p.ctx.attr(AttrKind::DenseElements {
            data: DenseData::Literal(DenseLit::List(values)),
            ty: vty,
        });
        st.set_attr(values_attr, a);
    }
    let segs_attr = p.ctx.int_array_attr(32, &segs);
    st.set_attr(segments_attr, segs_attr);
    st.set_successors(default_dest, vec![default]);
    st.set_successors(case_dests, dests);
    st.set_types(default_ops, default_ts);
    st.set_operands(default_ops, default_us);
    st.set_types(case_ops, case_ts);
    st.set_operands(case_ops, case_us);
    Ok(())
}

fn print_destination(pr: &mut Printer, b: BlockId, vals: &[Value]) {
    pr.print_block_name(b);
    if !vals.is_empty() {
        crate::common::print_typed_operands_paren(pr, vals);
    }
}

fn print_switch_cases(pr: &mut Printer, op: OpId, _: &[CustomArg]) {
    let ctx = pr.ctx;
    let h = SwitchOp::from_id_unchecked(op);
    pr.indent_more();
    pr.newline();
    pr.out.push_str("default: ");
    print_destination(pr, h.default_destination(ctx), h.default_operands(ctx));
    let values = switch_case_values(ctx, op).unwrap_or_default();
    for (i, d) in h.case_destinations(ctx).iter().enumerate() {
        pr.out.push(',');
        pr.newline();
        match values.get(i) {
            Some(v) => pr.out.push_str(&v.to_string()),
            None => pr.out.push('?'),
        }
        pr.out.push_str(": ");
        let range = successor_operands(ctx, op, i + 1).unwrap_or(0..0);
        print_destination(pr, *d, &ctx.operands(op)[range]);
    }
    pr.indent_less();
    pr.newline();
}

/// The cf dialect's ops.
pub static OPS: &[&OpDef] = &[&BR, &COND_BR, &ASSERT, &SWITCH];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `cf` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum CfOpKind for OPS {
        Br(BrOp),
        CondBr(CondBrOp),
        Assert(AssertOp),
        Switch(SwitchOp),
    }
}
