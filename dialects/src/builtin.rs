//! `builtin`: the module op that holds a file's top-level ops.

use tilus_ir::handle::prelude::*;
use tilus_ir::opdef::{block_region, many, opt_attr, Format, OpDef, Trait, ANY_TYPE, STR_ATTR};
use tilus_ir::{Context, Diagnostic, OpId};

/// `builtin.module`: a symbol table with one block and no terminator.
pub static MODULE: OpDef = OpDef {
    name: "builtin.module",
    summary: "a top-level container of ops",
    description: "Holds a single block of ops (functions, kernels, globals) with no terminator. \
        Its region is a symbol table: `sym_name`s of the ops directly inside are unique. A file \
        whose top level is not a single module is wrapped in an implicit one.",
    attributes: &[
        opt_attr("sym_name", tilus_ir::opdef::SYMBOL_NAME),
        opt_attr("sym_visibility", STR_ATTR),
    ],
    regions: &[block_region("bodyRegion")],
    // As MLIR's `ModuleOp`: builtin ops directly inside print without their prefix.
    default_dialect: Some("builtin"),
    traits: &[
        Trait::IsolatedFromAbove,
        Trait::NoTerminator,
        Trait::SymbolTable,
        Trait::SingleBlock,
    ],
    format: Format::Declarative("($sym_name^)? attr-dict-with-keyword $bodyRegion"),
    ..OpDef::DEFAULT
};
const _: () = MODULE.check();

tilus_ir::op_handle! {
    /// Typed handle of `builtin.module`.
    pub struct ModuleOp = MODULE;
    operands {}
    results {}
    attrs {
        sym_name = "sym_name": Option<&str>,
        sym_visibility = "sym_visibility": Option<&str>
    }
    regions {
        body_region = "bodyRegion"
    }
    successors {}
}

/// `@name`, quoted when it is not a bare identifier.
pub fn ctx_sym(name: &str) -> String {
    let bare = !name.is_empty()
        && name.as_bytes()[0].is_ascii_alphabetic() | (name.as_bytes()[0] == b'_')
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'));
    if bare {
        format!("@{name}")
    } else {
        let mut s = String::from("@");
        tilus_ir::syntax::printer::write_escaped(&mut s, name.as_bytes());
        s
    }
}

/// The builtin dialect's ops.
/// `builtin.unrealized_conversion_cast`.
pub static UNREALIZED_CONVERSION_CAST: OpDef = OpDef {
    name: "builtin.unrealized_conversion_cast",
    summary: "a placeholder conversion between type systems",
    description: "Stands for a conversion of `inputs` to `outputs` (at least one) that a \
        lowering has not materialised yet; it has no semantics of its own. Written \
        `%y = builtin.unrealized_conversion_cast %x : i32 to index`.",
    operands: &[many("inputs", ANY_TYPE)],
    results: &[many("outputs", ANY_TYPE)],
    traits: &[Trait::Pure],
    verify: Some(verify_unrealized_conversion_cast),
    format: Format::Declarative("($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict"),
    ..OpDef::DEFAULT
};
const _: () = UNREALIZED_CONVERSION_CAST.check();

tilus_ir::op_handle! {
    /// Typed handle of `builtin.unrealized_conversion_cast`.
    pub struct UnrealizedConversionCastOp = UNREALIZED_CONVERSION_CAST;
    operands {
        inputs = "inputs": &[Value]
    }
    results {
        outputs = "outputs": &[Value]
    }
    attrs {}
    regions {}
    successors {}
}

/// MLIR's rule: a cast produces at least one value.
fn verify_unrealized_conversion_cast(ctx: &Context, op: OpId) -> Result<(), Diagnostic> {
    if ctx.results(op).is_empty() {
        return Err(Diagnostic::op(
            op,
            "'builtin.unrealized_conversion_cast' op expected at least one result for cast operation",
        ));
    }
    Ok(())
}

/// The builtin dialect's ops.
pub static OPS: &[&OpDef] = &[&MODULE, &UNREALIZED_CONVERSION_CAST];

tilus_ir::op_enum_dispatch! {
    /// Every op of the `builtin` dialect, for an exhaustive `match` (see `tilus_ir::handle`).
    pub enum BuiltinOpKind for OPS {
        Module(ModuleOp),
        UnrealizedConversionCast(UnrealizedConversionCastOp),
    }
}
