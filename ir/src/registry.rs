//! Registering dialects: the one step that needs both the context (bottom layer) and the
//! parser (syntax layer), kept here so that `context.rs` never calls the parser.

use crate::context::Context;
use crate::opdef::OpDef;

impl Context {
    /// Registers a dialect's ops. Registering the same op name twice keeps the first definition.
    /// Each declared attribute default is parsed once, here, so the parser, printer and
    /// verifier compare defaults by id ([`Context::default_value`]).
    pub fn register_dialect(&mut self, namespace: &'static str, ops: &'static [&'static OpDef]) {
        self.insert_dialect_ops(namespace, ops);
        for def in ops {
            for a in def.attributes {
                let Some(text) = a.default else { continue };
                if self.has_default_value(text) {
                    continue;
                }
                let mut p = crate::syntax::parser::Parser::new(self, text, "<default>");
                // A declaration's default is part of the compiler, not of its input: one that
                // does not parse is a bug in the dialect, caught by every test that registers it.
                let v = p.parse_attribute().unwrap_or_else(|d| {
                    panic!(
                        "{}: default of '{}' does not parse: {}",
                        def.name, a.name, d.message
                    )
                });
                self.set_default_value(text, v);
            }
        }
    }
}
