//! Declarations of dialect types and attributes.
//!
//! A dialect type such as `!tilus.shared<128x64xf16, swizzle = 128B>` is stored as
//! [`TypeKind::Dialect`](crate::types::TypeKind::Dialect) with its body kept as written, so that
//! it round-trips byte for byte and reads the same in `mlir-opt --allow-unregistered-dialect`.
//! What a registered dialect adds is a [`SymbolDef`] per type (or attribute) name: the parser
//! checks every `!dialect.name<...>` of a registered dialect against it and reports a bad body at
//! the body's span, and the reference docs list the syntax. Ops read the structure back with the
//! dialect's own Rust parser for the body; bodies are short, so no cache is kept.

/// Checks the body of a dialect type or attribute (`None` for `!d.name` without `<...>`).
/// The error says what was expected and what was found; the parser adds where.
pub type BodyCheck = fn(Option<&str>) -> Result<(), String>;

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
    /// Validates the body.
    pub check: BodyCheck,
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
