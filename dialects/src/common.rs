//! Parser helpers shared by the custom assembly forms of the tilus-family dialects.

use tilus_ir::opdef::OpDef;
use tilus_ir::syntax::parser::{PResult, Parser};
use tilus_ir::{Attr, Context, Diagnostic, OpId, OperationState, RegionId, Type, Value};

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

/// The state of a `def` op with an unknown location; no properties when `props` is empty.
pub(crate) fn op_state(
    p: &mut Parser,
    def: &'static OpDef,
    operands: Vec<Value>,
    result_types: Vec<Type>,
    props: Vec<(String, Attr)>,
    attrs: Vec<(String, Attr)>,
    regions: Vec<RegionId>,
) -> OperationState {
    let properties = if props.is_empty() {
        None
    } else {
        Some(p.ctx.dict_attr(props))
    };
    OperationState {
        name: p.ctx.op_name(def.name),
        operands,
        result_types,
        properties,
        attrs,
        regions,
        successors: vec![],
        loc: p.ctx.unknown_loc(),
    }
}

/// A verifier error at `op`, prefixed `'name' op` as MLIR words it.
pub(crate) fn op_error(ctx: &Context, op: OpId, msg: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::op(op, format!("'{}' op {msg}", ctx.op_name_str(op)))
}
