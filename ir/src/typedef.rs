//! Declarations of dialect types and attributes, and the structured values behind them.
//!
//! A registered dialect declares each of its types (`!tilus.shared<...>`) and attributes
//! (`#arith.overflow<...>`) as a [`SymbolDef`] whose [`parse`](SymbolDef::parse) hook turns the
//! body into a typed [`DialectValue`]. The context keeps that value beside the uniqued type or
//! attribute, so it is parsed once, compared structurally and printed in one canonical spelling:
//! the table entry is [`TypeKind::Dialect`](crate::types::TypeKind::Dialect) (or
//! [`AttrKind::Dialect`](crate::attrs::AttrKind::Dialect)) with the body as
//! [`DialectValue::body`] prints it, so two spellings of one value are one id, and the generic
//! form still reads the same in `mlir-opt --allow-unregistered-dialect`. Dialects nobody
//! registered keep their bodies as written, as in MLIR.

use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

/// The structured value of a registered dialect type or attribute.
///
/// Implementations are plain Rust data (`TensorType`, `OverflowFlags`, ...). The context stores
/// one per uniqued type or attribute and hands it back with
/// [`Context::type_value`](crate::Context::type_value) /
/// [`Context::attr_value`](crate::Context::attr_value), so users never re-parse text.
pub trait DialectValue: AsAny + Send + Sync + Debug {
    /// The body in its one canonical spelling (`None`: written without `<...>`). Two values
    /// that mean the same must print the same body: the body is what the context uniques.
    fn body(&self) -> Option<String>;
}

/// Lets the context hand a stored [`DialectValue`] back as its concrete type (implemented for
/// every `'static` type; the workspace's minimum Rust has no `dyn` upcasting to `Any`).
pub trait AsAny: Any {
    /// `self` as `&dyn Any`, for `downcast_ref`.
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Parses the body of a dialect type or attribute (`None` for `!d.name` without `<...>`) into
/// its value. The error says what was expected and what was found; the parser adds where.
pub type BodyParse = fn(Option<&str>) -> Result<Arc<dyn DialectValue>, String>;

/// Why a registered dialect rejected a type or attribute (the parser turns it into a
/// diagnostic at the symbol's span).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymbolError {
    /// The dialect declares no type (or attribute) `name` (`dialect.name`); `known` are the
    /// ones it declares, with their sigil.
    Unknown { name: String, known: Vec<String> },
    /// The body of `name` does not parse: the message and the declared syntax.
    Invalid {
        name: String,
        message: String,
        syntax: &'static str,
    },
}

/// One dialect type or attribute.
#[derive(Clone, Copy)]
pub struct SymbolDef {
    /// Full name without sigil: `tilus.shared`.
    pub name: &'static str,
    /// One line.
    pub summary: &'static str,
    /// The textual syntax, e.g. `!tilus.shared<SHAPE x DTYPE (, swizzle = 32B|64B|128B)?>`.
    pub syntax: &'static str,
    /// One paragraph (Markdown) for the reference docs.
    pub description: &'static str,
    /// Parses the body into the structured value (the only check a body gets).
    pub parse: BodyParse,
}

impl SymbolDef {
    /// The name after the dialect prefix (`shared` for `tilus.shared`).
    pub fn short_name(&self) -> &'static str {
        match self.name.split_once('.') {
            Some((_, n)) => n,
            None => self.name,
        }
    }
}

/// The types and attributes one dialect declares.
#[derive(Clone, Copy, Default)]
pub struct DialectSymbols {
    pub types: &'static [SymbolDef],
    pub attrs: &'static [SymbolDef],
}

impl DialectSymbols {
    /// The declaration of `!ns.name` (`attr == false`) or `#ns.name`.
    pub fn find(&self, name: &str, attr: bool) -> Option<&'static SymbolDef> {
        let list = if attr { self.attrs } else { self.types };
        list.iter().find(|d| d.short_name() == name)
    }
}

/// Renders the "Types" and "Attributes" sections of a dialect's reference page.
pub fn symbols_markdown(syms: &DialectSymbols) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for (title, sigil, list) in [("Types", '!', syms.types), ("Attributes", '#', syms.attrs)] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(s, "## {title}\n");
        for d in list {
            let _ = writeln!(s, "### `{sigil}{}`\n", d.name);
            let _ = writeln!(s, "{}\n", d.summary);
            let _ = writeln!(s, "```text\n{}\n```\n", d.syntax);
            if !d.description.is_empty() {
                let _ = writeln!(s, "{}\n", d.description);
            }
        }
    }
    s
}

/// The whole reference page of a registered dialect: its ops, then its types and attributes.
pub fn dialect_reference(ctx: &crate::Context, namespace: &str) -> String {
    let ops = ctx
        .dialects()
        .find(|(ns, _)| *ns == namespace)
        .map(|(_, ops)| ops)
        .unwrap_or(&[]);
    let mut s = crate::opdef::dialect_markdown(namespace, ops);
    if let Some(syms) = ctx.dialect_symbols(namespace) {
        s.push_str(&symbols_markdown(syms));
    }
    s
}
