//! Comparisons and selection: `cmpi`, `cmpf`, `select`.

use super::*;
use tilus_ir::handle::prelude::*;

pub(super) const CMPI_PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];
const CMPF_PREDICATES: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

/// MLIR's rule for comparisons: the result is `i1` in the operands' shape.
fn verify_i1_same_shape(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let (cl, sl, _) = helpers::container(ctx, ctx.value_type(ctx.operands(op)[0]));
    let (cr, sr, _) = helpers::container(ctx, ctx.value_type(ctx.results(op)[0]));
    if cl != cr || sl != sr {
        return Err(Diagnostic::op(
            op,
            format!(
                "'{}' op failed to verify that result type has i1 element type and same shape as operands",
                ctx.op_name_str(op)
            ),
        ));
    }
    Ok(())
}

/// `arith.cmpi`.
pub static CMPI: OpDef = OpDef {
    name: "arith.cmpi",
    summary: "integer comparison",
    description:
        "Compares two integers with `predicate` (`eq ne slt sle sgt sge ult ule ugt uge`), \
        giving an `i1`.",
    operands: &[one("lhs", SIGNLESS_INT_LIKE), one("rhs", SIGNLESS_INT_LIKE)],
    results: &[one("result", BOOL_LIKE)],
    attributes: &[attr(
        "predicate",
        enum_attr("integer comparison predicate", CMPI_PREDICATES),
    )],
    traits: &[Trait::Pure, Trait::SameTypeOperands, Trait::PerThread],
    format: Format::Declarative("$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"),
    verify: Some(verify_i1_same_shape),
    infer_result: Some(tilus_ir::opdef::i1_same_shape),
    fold: Some(fold::cmpi),
    canonicalize: canon::CMPI,
    ..OpDef::DEFAULT
};
const _: () = CMPI.check();

tilus_ir::op_enum! {
    /// The cases of a integer comparison predicate attribute.
    pub enum CmpIPredicate {
        Eq = "eq",
        Ne = "ne",
        Slt = "slt",
        Sle = "sle",
        Sgt = "sgt",
        Sge = "sge",
        Ult = "ult",
        Ule = "ule",
        Ugt = "ugt",
        Uge = "uge"
    }
}

tilus_ir::op_handle! {
    /// Typed handle of `arith.cmpi`.
    pub struct CmpIOp = CMPI;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        predicate = "predicate": CmpIPredicate
    }
    regions {}
    successors {}
}

/// `arith.cmpf`.
pub static CMPF: OpDef = OpDef {
    name: "arith.cmpf",
    summary: "float comparison",
    description: "Compares two floats with `predicate` (ordered `o*`, unordered `u*`, `false`, \
        `true`, `ord`, `uno`), giving an `i1`.",
    operands: &[one("lhs", FLOAT_LIKE), one("rhs", FLOAT_LIKE)],
    results: &[one("result", BOOL_LIKE)],
    attributes: &[
        attr(
            "predicate",
            enum_attr("float comparison predicate", CMPF_PREDICATES),
        ),
        FASTMATH_ATTR,
    ],
    traits: &[Trait::Pure, Trait::SameTypeOperands, Trait::PerThread],
    format: Format::Declarative(
        "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)",
    ),
    verify: Some(verify_i1_same_shape),
    infer_result: Some(tilus_ir::opdef::i1_same_shape),
    fold: Some(fold::cmpf),
    ..OpDef::DEFAULT
};
const _: () = CMPF.check();

tilus_ir::op_enum! {
    /// The cases of a float comparison predicate attribute.
    pub enum CmpFPredicate {
        False = "false",
        Oeq = "oeq",
        Ogt = "ogt",
        Oge = "oge",
        Olt = "olt",
        Ole = "ole",
        One = "one",
        Ord = "ord",
        Ueq = "ueq",
        Ugt = "ugt",
        Uge = "uge",
        Ult = "ult",
        Ule = "ule",
        Une = "une",
        Uno = "uno",
        True = "true"
    }
}

tilus_ir::op_handle! {
    /// Typed handle of `arith.cmpf`.
    pub struct CmpFOp = CMPF;
    operands {
        lhs = "lhs": Value,
        rhs = "rhs": Value
    }
    results {
        result = "result": Value
    }
    attrs {
        predicate = "predicate": CmpFPredicate,
        fastmath = "fastmath": Option<Attr>
    }
    regions {}
    successors {}
}

/// `i1` (or a shaped `i1`); a format without its type means `i1`.
const CONDITION: TypeConstraint = TypeConstraint {
    build: Some(|c| c.int_type(1)),
    ..BOOL_LIKE
};

/// `arith.select`.
pub static SELECT: OpDef = OpDef {
    name: "arith.select",
    summary: "choose between two values",
    description: "Yields `true_value` where `condition` is true, else `false_value`.",
    operands: &[
        one("condition", CONDITION),
        one("true_value", tilus_ir::opdef::ANY_TYPE),
        one("false_value", tilus_ir::opdef::ANY_TYPE),
    ],
    results: &[one("result", tilus_ir::opdef::ANY_TYPE)],
    traits: &[
        Trait::PerThread,
        Trait::Pure,
        Trait::AllTypesMatch(&["true_value", "false_value", "result"]),
    ],
    verify: Some(verify_select),
    // `: T` for an `i1` condition, `: C, T` for a vector or tensor of them (MLIR's own parser).
    format: Format::Declarative(
        "$condition `,` $true_value `,` $false_value attr-dict `:` \
         custom<SelectTypes>(type($condition), type($result))",
    ),
    custom_directives: &[tilus_ir::format::directive(
        &tilus_ir::format::CustomDirective {
            name: "SelectTypes",
            parse: parse_select_types,
            print: print_select_types,
        },
    )],
    fold: Some(fold::select),
    canonicalize: canon::SELECT,
    ..OpDef::DEFAULT
};
const _: () = SELECT.check();

tilus_ir::op_handle! {
    /// Typed handle of `arith.select`.
    pub struct SelectOp = SELECT;
    operands {
        condition = "condition": Value,
        true_value = "true_value": Value,
        false_value = "false_value": Value
    }
    results {
        result = "result": Value
    }
    attrs {}
    regions {}
    successors {}
}

/// `T` (an `i1` condition) or `C, T`: the condition's type is written only when it is not `i1`.
/// The arguments are `type($condition)` and `type($result)`; the values take the result's type.
fn parse_select_types(
    p: &mut tilus_ir::Parser,
    st: &mut tilus_ir::format::FormatState,
    args: &[tilus_ir::format::CustomArg],
) -> tilus_ir::syntax::parser::PResult<()> {
    use tilus_ir::format::CustomArg;
    let [CustomArg::Type(cond), CustomArg::Type(result)] = args else {
        return Err(p.err_here("SelectTypes takes type($condition), type($result)"));
    };
    let first = p.parse_type()?;
    let (cond_ty, ty) = if p.eat(",") {
        (first, p.parse_type()?)
    } else {
        (p.ctx.int_type(1), first)
    };
    st.set_types(cond, vec![cond_ty]);
    st.set_types(result, vec![ty]);
    Ok(())
}

fn print_select_types(pr: &mut tilus_ir::Printer, op: OpId, args: &[tilus_ir::format::CustomArg]) {
    use tilus_ir::format::{operand_group, result_group, CustomArg};
    let [CustomArg::Type(cond), CustomArg::Type(result)] = args else {
        return;
    };
    let ctx = pr.ctx;
    let (Some(&c), Some(&r)) = (
        operand_group(ctx, &SELECT, op, cond).first(),
        result_group(ctx, &SELECT, op, result).first(),
    ) else {
        return;
    };
    let cond = ctx.value_type(c);
    if !matches!(
        ctx.type_kind(cond),
        TypeKind::Integer {
            width: 1,
            signedness: Signedness::Signless
        }
    ) {
        pr.print_type(cond);
        pr.out.push_str(", ");
    }
    pr.print_type(ctx.value_type(r));
}

fn verify_select(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    let o = ctx.operands(op);
    let (t, f, r) = (
        ctx.value_type(o[1]),
        ctx.value_type(o[2]),
        ctx.value_type(ctx.results(op)[0]),
    );
    if t != f || t != r {
        return Err(Diagnostic::op(
            op,
            format!(
                "'arith.select' op failed to verify that all of {{true_value, false_value, result}} have same type: found '{}', '{}' and '{}'",
                type_to_string(ctx, t),
                type_to_string(ctx, f),
                type_to_string(ctx, r)
            ),
        ));
    }
    // MLIR's `SelectOp::verify`: an `i1` condition, or an `i1` mask in the result's shape
    // (`getI1SameShape`: same kind, dims, scalable dims and tensor encoding).
    let c = ctx.value_type(o[0]);
    if helpers::is_signless_i1(ctx, c) {
        return Ok(());
    }
    // MLIR's ODS constraint first (`BooleanConditionOrMatchingShape`: a mask of the result's
    // shape), then `SelectOp::verify` (the exact `i1` mask type).
    let (cc, sc, _) = helpers::container(ctx, c);
    let (cr, sr, _) = helpers::container(ctx, r);
    if cc != 0 && (cc != cr || sc != sr) {
        return Err(Diagnostic::op(
            op,
            "'arith.select' op failed to verify that condition is signless i1 or has matching shape",
        ));
    }
    // Here the condition is a shaped `i1` (the operand constraint is bool-like, and a scalar
    // one returned above) and so is the result (the container check).
    let mask_ok = helpers::is_i1_same_shape(ctx, c, r);
    if !mask_ok {
        return Err(Diagnostic::op(
            op,
            format!(
                "'arith.select' op expected condition type to have the same shape as the result type, but got '{}' for '{}'",
                type_to_string(ctx, c),
                type_to_string(ctx, r)
            ),
        ));
    }
    Ok(())
}

// ----- semantics ----------------------------------------------------------------------------

impl CmpIPredicate {
    /// Compares two `width`-bit patterns (upper bits zero): the `s*` predicates read them as
    /// two's complement, the `u*` ones as unsigned. One semantics for folders and interpreters.
    pub fn eval(self, a: u128, b: u128, width: u32) -> bool {
        use super::int::{mask, sext};
        let (a, b) = (a & mask(width), b & mask(width));
        let (sa, sb) = (sext(a, width), sext(b, width));
        match self {
            CmpIPredicate::Eq => a == b,
            CmpIPredicate::Ne => a != b,
            CmpIPredicate::Slt => sa < sb,
            CmpIPredicate::Sle => sa <= sb,
            CmpIPredicate::Sgt => sa > sb,
            CmpIPredicate::Sge => sa >= sb,
            CmpIPredicate::Ult => a < b,
            CmpIPredicate::Ule => a <= b,
            CmpIPredicate::Ugt => a > b,
            CmpIPredicate::Uge => a >= b,
        }
    }
}

impl CmpFPredicate {
    /// Compares two floats, exactly as `f64`s (every narrower IEEE value is one). `o*`
    /// predicates are false when either is NaN, `u*` ones true; `ord`/`uno` test for NaN.
    pub fn eval(self, a: f64, b: f64) -> bool {
        let unordered = a.is_nan() || b.is_nan();
        let (lt, eq, gt) = (
            !unordered && a < b,
            !unordered && a == b,
            !unordered && a > b,
        );
        match self {
            CmpFPredicate::False => false,
            CmpFPredicate::Oeq => eq,
            CmpFPredicate::Ogt => gt,
            CmpFPredicate::Oge => gt || eq,
            CmpFPredicate::Olt => lt,
            CmpFPredicate::Ole => lt || eq,
            CmpFPredicate::One => lt || gt,
            CmpFPredicate::Ord => !unordered,
            CmpFPredicate::Ueq => unordered || eq,
            CmpFPredicate::Ugt => unordered || gt,
            CmpFPredicate::Uge => unordered || gt || eq,
            CmpFPredicate::Ult => unordered || lt,
            CmpFPredicate::Ule => unordered || lt || eq,
            CmpFPredicate::Une => !eq,
            CmpFPredicate::Uno => unordered,
            CmpFPredicate::True => true,
        }
    }
}

#[cfg(test)]
mod semantics_tests {
    use super::*;

    #[test]
    fn integer_predicates_read_signedness() {
        let (m1, one) = (0xff, 1);
        assert!(CmpIPredicate::Slt.eval(m1, one, 8));
        assert!(!CmpIPredicate::Ult.eval(m1, one, 8));
        assert!(CmpIPredicate::Uge.eval(m1, one, 8));
        assert!(CmpIPredicate::Sle.eval(one, one, 8));
        assert!(CmpIPredicate::Ne.eval(0, 1, 1));
    }

    #[test]
    fn float_predicates_order_nan() {
        let nan = f64::NAN;
        assert!(!CmpFPredicate::Oeq.eval(nan, nan));
        assert!(CmpFPredicate::Ueq.eval(nan, 1.0));
        assert!(CmpFPredicate::Une.eval(nan, nan));
        assert!(!CmpFPredicate::One.eval(nan, 1.0));
        assert!(CmpFPredicate::One.eval(0.0, 1.0));
        assert!(CmpFPredicate::Oeq.eval(0.0, -0.0));
        assert!(CmpFPredicate::Uno.eval(1.0, nan) && !CmpFPredicate::Ord.eval(1.0, nan));
    }
}
