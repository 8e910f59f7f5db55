//! Parser helpers shared by the custom assembly forms of the tilus-family dialects.

use tilus_ir::opdef::OpDef;
use tilus_ir::syntax::parser::{PResult, Parser, UnresolvedOperand};
use tilus_ir::{Attr, Context, Diagnostic, OpId, Printer, Span, Type, Value};

/// Moves the entries of `attrs` that name a declared attribute of `def` into `props`; the
/// rest stay discardable attributes.
pub(crate) fn split_declared(
    def: &'static OpDef,
    attrs: &mut Vec<(String, Attr)>,
    props: &mut Vec<(String, Attr)>,
) {
    attrs.retain(|(k, v)| {
        if def.attr(k).is_some() {
            props.push((k.clone(), *v));
            false
        } else {
            true
        }
    });
}

/// Reads an optional trailing `{...}` (or `attributes {...}` when `keyword`) into properties
/// (declared names) and discardable attributes.
pub(crate) fn parse_trailing_attrs(
    p: &mut Parser,
    def: &'static OpDef,
    keyword: bool,
    props: &mut Vec<(String, Attr)>,
) -> PResult<Vec<(String, Attr)>> {
    let present = if keyword {
        p.eat_keyword("attributes")
    } else {
        p.peek() == Some(b'{')
    };
    if !present {
        return Ok(Vec::new());
    }
    let mut attrs = Vec::new();
    for (k, v, sp) in p.parse_attr_dict()? {
        p.note_attr_span(&k, sp);
        attrs.push((k, v));
    }
    split_declared(def, &mut attrs, props);
    Ok(attrs)
}

/// A verifier error at `op`, prefixed `'name' op` as MLIR words it.
pub(crate) fn op_error(ctx: &Context, op: OpId, msg: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::op(op, format!("'{}' op {msg}", ctx.op_name_str(op)))
}

/// `(%a, %b : i32, f32)` after the `(`: operands, a colon, one type per operand, and the
/// closing `)` (`cf.switch` destinations), unresolved for the format's state.
pub(crate) fn parse_typed_operand_list(
    p: &mut Parser,
) -> PResult<(Vec<UnresolvedOperand>, Vec<Type>)> {
    let mut us = Vec::new();
    loop {
        us.push(p.parse_operand()?);
        if !p.eat(",") {
            break;
        }
    }
    p.expect(":")?;
    let start = p.pos();
    let mut ts = Vec::new();
    loop {
        ts.push(p.parse_type()?);
        if !p.eat(",") {
            break;
        }
    }
    if ts.len() != us.len() {
        return Err(Diagnostic::at(
            Span::new(start, p.pos()),
            format!(
                "expected {} types, one per operand, but found {}",
                us.len(),
                ts.len()
            ),
        ));
    }
    p.expect(")")?;
    Ok((us, ts))
}

/// Prints what [`parse_typed_operand_list`] reads, with the `(`: `(%a, %b : i32, f32)`.
pub(crate) fn print_typed_operands_paren(pr: &mut Printer, vals: &[Value]) {
    pr.out.push('(');
    for (i, v) in vals.iter().enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        pr.print_value(*v);
    }
    pr.out.push_str(" : ");
    for (i, v) in vals.iter().enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        let t = pr.ctx.value_type(*v);
        pr.print_type(t);
    }
    pr.out.push(')');
}
