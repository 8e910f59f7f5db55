//! The transformation hooks an op declaration carries ([`OpDef::fold`](crate::opdef::OpDef::fold),
//! [`OpDef::canonicalize`](crate::opdef::OpDef::canonicalize),
//! [`OpDef::materialize_constant`](crate::opdef::OpDef::materialize_constant)). Their types are
//! here, beside the rewriter they take, rather than with the drivers in [`crate::rewrite`]
//! that call them, so that declarations name nothing above the values layer.

use super::Rewriter;
use crate::attrs::Attr;
use crate::context::{Context, OpId, Value};
use crate::types::Type;

/// One folded result: a constant (to be materialized) or an existing value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpFoldResult {
    Attr(Attr),
    Value(Value),
}

/// What a fold did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Folded {
    /// Nothing; the op is unchanged.
    Failed,
    /// The op was changed in place (operands swapped, predicate flipped, ...) and stays.
    InPlace,
    /// Every result has a replacement; the op goes away.
    Results(Vec<OpFoldResult>),
}

impl Folded {
    /// A single-result fold to an attribute.
    pub fn attr(a: Attr) -> Folded {
        Folded::Results(vec![OpFoldResult::Attr(a)])
    }
    /// A single-result fold to an existing value.
    pub fn value(v: Value) -> Folded {
        Folded::Results(vec![OpFoldResult::Value(v)])
    }
}

/// An op's folder: `operands[i]` is the constant value of operand `i` when a `ConstantLike` op
/// defines it. May change the op in place (then returns [`Folded::InPlace`]). Must not create or
/// erase ops; drivers do that with what it returns.
pub type FoldFn = fn(&mut Context, OpId, &[Option<Attr>]) -> Folded;

/// A dialect's constant builder: creates, at the rewriter's insertion point, a constant op of
/// type `ty` holding `value`, located at `loc`. Returns `None` when the dialect cannot express
/// that constant.
pub type MaterializeFn = fn(&mut Rewriter<'_>, Attr, Type, Attr) -> Option<OpId>;

/// Matches and rewrites at `op` with the rewriter (insertion point: right before `op`). Returns
/// whether it changed anything. A pattern that returns `false` must leave the IR as it was.
pub type PatternFn = fn(&mut Rewriter<'_>, OpId) -> bool;

/// A rewrite pattern: a match-and-rewrite function with a benefit and an optional root.
///
/// It is const-constructible, so op declarations can list their canonicalizations:
/// `canonicalize: &[Pattern::new("addi-add-constant", add_add_constant)]`.
#[derive(Clone, Copy)]
pub struct Pattern {
    /// A short kebab-case name (statistics, `disable-patterns`, debugging).
    pub name: &'static str,
    /// The op name it applies to. `None` means any op, or the declaring op when listed in an
    /// [`OpDef`](crate::opdef::OpDef).
    pub root: Option<&'static str>,
    /// Higher is tried first; ties keep the order patterns were added in.
    pub benefit: u16,
    /// The match-and-rewrite function.
    pub apply: PatternFn,
}

impl Pattern {
    /// A pattern of benefit 1 with no root.
    pub const fn new(name: &'static str, apply: PatternFn) -> Pattern {
        Pattern {
            name,
            root: None,
            benefit: 1,
            apply,
        }
    }
    /// The same pattern with another benefit.
    pub const fn with_benefit(self, benefit: u16) -> Pattern {
        Pattern { benefit, ..self }
    }
    /// The same pattern restricted to ops named `root`.
    pub const fn with_root(self, root: &'static str) -> Pattern {
        Pattern {
            root: Some(root),
            ..self
        }
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pattern")
            .field("name", &self.name)
            .field("root", &self.root)
            .field("benefit", &self.benefit)
            .finish()
    }
}
