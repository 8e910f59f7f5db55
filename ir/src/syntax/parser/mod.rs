//! The textual-IR parser: a cursor-driven op parser over the pest grammar in `mlir.pest`.
//!
//! The driver walks the file op by op. For each syntactic piece it runs one pest rule at the
//! cursor and converts the resulting pairs into IR. Generic ops use two rules (the head up to the
//! regions and the tail after them); custom ops are parsed by their declared assembly format (see
//! [`crate::format`]) or a hand-written hook, both of which call the public `parse_*` methods here,
//! which is MLIR's `OpAsmParser` role.
//!
//! **Files.** This file has the parser's state, the `SourceMap` and the file driver; the pieces
//! are read in `cursor.rs` (tokens, keywords, one grammar rule at the cursor), `ops.rs` (ops,
//! regions, SSA and block scopes), `types.rs`, `attributes.rs`, `literals.rs`, `locations.rs`
//! and `aliases.rs`.

use crate::attrs::{
    AffineCmp, AffineExpr, AffineMap, AffineOp, Attr, AttrKind, DenseArrayValues, DenseData,
    DenseLit, IntegerSet, Location,
};
use crate::context::{BlockId, Context, OpId, OperationState, RegionId, Value};
use crate::diag::{DiagLoc, Diagnostic, Span};
use crate::float;
use crate::typedef::SymbolError;
use crate::types::{FloatKind, Signedness, Type, TypeKind, DYNAMIC};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use pest::iterators::Pair;
use pest::Parser as _;
use rustc_hash::FxHashMap as HashMap;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::hash_map::Entry;

mod aliases;
mod attributes;
mod cursor;
mod literals;
mod locations;
mod ops;
mod types;
pub(crate) use attributes::symbol_diag;
use attributes::*;
use literals::*;
pub use literals::{check_int_range, parse_int_literal, unescape};

#[derive(pest_derive::Parser)]
#[grammar = "syntax/mlir.pest"]
struct Grammar;

pub use self::Rule as GrammarRule;

/// Result type of parsing steps: the error has already been recorded when `Err(())` comes back
/// through [`Parser::fail`], so callers only propagate.
pub type PResult<T> = Result<T, Diagnostic>;

/// Spans recorded for ops while parsing, so later diagnostics (verifier, passes) point at source.
///
/// Kept compact (it has an entry per op and per attribute of large files): offsets are `u32`
/// (saturating; only diagnostics read them), attribute names are interned once.
#[derive(Default, Clone, Debug)]
pub struct SourceMap {
    /// Span of each op's name (what a verifier error underlines), indexed by op; ops made later
    /// (by passes) have none (`NO_SPAN`).
    op_names: Vec<(u32, u32)>,
    /// Span of attributes: (op, interned name, start, end), in op order while `attrs_sorted`.
    op_attrs: Vec<(OpId, u32, u32, u32)>,
    attrs_sorted: bool,
    attr_names: FxHashMap<String, u32>,
}

const NO_SPAN: (u32, u32) = (u32::MAX, u32::MAX);

fn span32(s: Span) -> (u32, u32) {
    let c = |x: usize| x.min(u32::MAX as usize - 1) as u32;
    (c(s.start), c(s.end))
}

impl SourceMap {
    /// Where an op's name was written.
    pub fn op_name(&self, op: OpId) -> Option<Span> {
        match self.op_names.get(op.index()) {
            Some(&(s, e)) if (s, e) != NO_SPAN => Some(Span::new(s as usize, e as usize)),
            _ => None,
        }
    }
    /// Where one of an op's attributes was written.
    pub fn op_attr(&self, op: OpId, name: &str) -> Option<Span> {
        let id = *self.attr_names.get(name)?;
        let hit = |e: &&(OpId, u32, u32, u32)| e.0 == op && e.1 == id;
        let found = if self.attrs_sorted {
            let lo = self.op_attrs.partition_point(|e| e.0 < op);
            self.op_attrs[lo..]
                .iter()
                .take_while(|e| e.0 == op)
                .find(hit)
        } else {
            self.op_attrs.iter().find(hit)
        };
        found.map(|e| Span::new(e.2 as usize, e.3 as usize))
    }
    fn set_op_name(&mut self, op: OpId, s: Span) {
        if self.op_names.len() <= op.index() {
            self.op_names.resize(op.index() + 1, NO_SPAN);
        }
        self.op_names[op.index()] = span32(s);
    }
    fn name_id(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.attr_names.get(name) {
            return i;
        }
        let i = self.attr_names.len() as u32;
        self.attr_names.insert(name.to_string(), i);
        i
    }
    /// Records where attribute `name` of `op` was written; with `keep_first`, an earlier record
    /// for the same attribute wins.
    fn set_op_attr(&mut self, op: OpId, name: &str, s: Span, keep_first: bool) {
        let id = self.name_id(name);
        self.set_op_attr_id(op, id, s, keep_first);
    }
    fn set_op_attr_id(&mut self, op: OpId, id: u32, s: Span, keep_first: bool) {
        let (start, end) = span32(s);
        // Entries of `op` are at the end while ops are recorded in creation order.
        let tail = self.op_attrs.iter().rev().take_while(|e| e.0 == op);
        let existing = tail.count();
        let n = self.op_attrs.len();
        if let Some(e) = self.op_attrs[n - existing..].iter_mut().find(|e| e.1 == id) {
            if !keep_first {
                (e.2, e.3) = (start, end);
            }
            return;
        }
        if self.op_attrs.last().is_some_and(|e| e.0 > op) {
            self.attrs_sorted = false;
        }
        if n == 0 {
            self.attrs_sorted = true;
        }
        self.op_attrs.push((op, id, start, end));
    }
}

/// What a file parses into.
pub struct ParsedFile {
    /// The top-level `builtin.module` (explicit, or implicit around top-level ops).
    pub module: OpId,
    /// Where ops came from.
    pub source_map: SourceMap,
}

/// An operand reference before its type is known (custom formats give types later).
#[derive(Clone, Debug)]
pub struct UnresolvedOperand {
    pub name: String,
    pub number: u32,
    pub span: Span,
}

/// A region's entry argument declared outside the region (e.g. a function signature).
#[derive(Clone, Debug)]
pub struct RegionArg {
    pub name: String,
    pub ty: Type,
    pub loc: Option<Attr>,
    pub span: Span,
}

/// An operand reference whose name is borrowed from the source (the generic-op path).
#[derive(Clone, Copy, Debug)]
struct OperandRef<'s> {
    name: &'s str,
    number: u32,
    span: Span,
}

/// SSA names visible in one region: name → (first value, number of values, definition span).
/// Names borrow the source where they can (`Cow`), so binding a name allocates nothing.
struct Scope<'s> {
    values: HashMap<Cow<'s, str>, (Value, u32, Span)>,
    forward: Vec<(Cow<'s, str>, u32, Value, Span)>,
    isolated: bool,
}

struct BlockScope {
    blocks: HashMap<String, (BlockId, bool, Span)>,
}

/// Parser state for one source buffer.
pub struct Parser<'c, 's> {
    pub ctx: &'c mut Context,
    src: &'s str,
    filename: String,
    /// The file name as a string attribute, made on first use (every op location shares it).
    file_attr: Option<Attr>,
    pos: usize,
    /// Where each line after the first starts, for the locations of ops written without one;
    /// built on the first such op, so a file whose ops all carry `loc(...)` never counts lines.
    /// (Ops ask in the order they finish, which is not source order: an op with regions asks
    /// after the ops inside it, so a table beats counting newlines on from the last answer.)
    line_starts: Option<Vec<usize>>,
    /// Index into `line_starts` of the last answer: the next op is nearly always on that line
    /// or one of the next few.
    line_hint: usize,
    /// Attribute aliases by name (borrowed from the source: a file with locations defines one
    /// per op).
    attr_aliases: HashMap<&'s str, Attr>,
    type_aliases: HashMap<String, Type>,
    scopes: Vec<Scope<'s>>,
    /// Result names of the ops being parsed (a stack: nested ops push and pop above).
    result_stack: Vec<(&'s str, u32, Span)>,
    /// Operands of the generic ops being parsed (a stack, like `result_stack`).
    operand_stack: Vec<OperandRef<'s>>,
    /// Reused buffer for an op's operand and result types.
    type_scratch: Vec<Type>,
    /// Function types by their source text (`(i32, i32) -> i32`), for the fast path.
    fn_types: HashMap<&'s str, Type>,
    /// Attribute values of dictionaries by their source text (`[1, 2, 3]`), for the fast path.
    attr_values: HashMap<&'s str, Attr>,
    block_scopes: Vec<BlockScope>,
    /// `distinct[N]` ids of the text: the context's id and the attribute it was defined with.
    distinct: HashMap<u64, (u64, Attr)>,
    fwd_block: Option<BlockId>,
    default_dialects: Vec<Option<&'static str>>,
    /// Diagnostics gathered so far (several errors per run where recovery is sensible).
    pub diags: Vec<Diagnostic>,
    /// Spans of parsed ops.
    pub source_map: SourceMap,
    /// Whether op locations come from the source position (MLIR's behaviour) when not explicit.
    pub file_locations: bool,
    pending_attr_spans: Vec<(String, Span)>,
    /// Location aliases used before their definition (MLIR allows this for `loc(#name)`).
    fwd_locs: Vec<(String, Attr, Span)>,
    /// Ops whose own location is an alias defined later (`loc(#loc3)` as `mlir-opt` prints
    /// every op): set directly once the aliases are known, without a placeholder attribute.
    fwd_op_locs: Vec<(OpId, &'s str, Span)>,
    /// Ops a custom parser created that the text did not spell (implicit terminators); they
    /// take the location of the op being parsed, as in MLIR.
    implicit_ops: Vec<OpId>,
    /// The file name of the last `loc("file":line:col)` read, as an attribute (a file's
    /// locations nearly all name the same file).
    loc_file: Option<(&'s str, Attr)>,
    /// Reads every piece with the grammar's rules, without the hand-written fast paths and the
    /// caches by source text. Both ways must build the same IR; the differential tests parse
    /// with and without and compare.
    pub grammar_only: bool,
}

fn rule_desc(r: &Rule) -> &'static str {
    match r {
        Rule::type_ | Rule::function_type | Rule::type_list_parens | Rule::function_results => {
            "type"
        }
        Rule::attribute => "attribute",
        Rule::value_id | Rule::value_use | Rule::op_result => "SSA value",
        Rule::caret_id => "block name",
        Rule::string_lit => "string",
        Rule::dec_int | Rule::number => "integer",
        Rule::bare_id | Rule::keyword | Rule::custom_op_name => "identifier",
        Rule::dict_attr | Rule::dict_entry => "attribute dictionary",
        Rule::location => "location",
        Rule::loc_attr => "'loc('",
        Rule::symbol_name => "symbol name",
        Rule::affine_expr | Rule::affine_term | Rule::affine_factor | Rule::affine_atom => {
            "affine expression"
        }
        Rule::dense_lit => "dense literal",
        Rule::pretty_body => "'<'",
        Rule::EOI => "end of input",
        _ => "token",
    }
}

impl<'c, 's> Parser<'c, 's> {
    /// A parser over `src`; `filename` goes into op locations as MLIR does.
    pub fn new(ctx: &'c mut Context, src: &'s str, filename: &str) -> Self {
        Parser {
            ctx,
            src,
            filename: filename.to_string(),
            file_attr: None,
            pos: 0,
            line_starts: None,
            line_hint: 0,
            attr_aliases: HashMap::default(),
            type_aliases: HashMap::default(),
            scopes: Vec::new(),
            result_stack: Vec::new(),
            operand_stack: Vec::new(),
            type_scratch: Vec::new(),
            fn_types: HashMap::default(),
            attr_values: HashMap::default(),
            block_scopes: Vec::new(),
            distinct: HashMap::default(),
            fwd_block: None,
            default_dialects: Vec::new(),
            diags: Vec::new(),
            source_map: SourceMap::default(),
            file_locations: true,
            pending_attr_spans: Vec::new(),
            fwd_locs: Vec::new(),
            fwd_op_locs: Vec::new(),
            implicit_ops: Vec::new(),
            loc_file: None,
            grammar_only: false,
        }
    }

    /// Current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the cursor back to a saved position (for look-ahead).
    pub fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// The source text.
    pub fn src(&self) -> &'s str {
        self.src
    }

    /// Parses a whole file into a module. Errors are in [`Parser::diags`].
    pub fn parse_file(mut self) -> Result<ParsedFile, (Vec<Diagnostic>, SourceMap)> {
        let module_name = self.ctx.op_name("builtin.module");
        // About one location (an attribute) per op, and an op per 50-odd bytes of text: sized
        // up front, the table is not rehashed while it grows (untouched room costs no memory).
        self.ctx.reserve_attrs(self.src.len() / 48);
        let region = self.ctx.create_region();
        let block = self.ctx.create_block(&[]);
        self.ctx.push_block(region, block);
        self.scopes.push(Scope {
            values: HashMap::default(),
            forward: vec![],
            isolated: true,
        });
        self.block_scopes.push(BlockScope {
            blocks: HashMap::default(),
        });
        // As in MLIR, unprefixed op names at the top level are builtin's (`module`).
        self.default_dialects.push(Some("builtin"));
        loop {
            self.skip_ws();
            if self.pos >= self.src.len() {
                break;
            }
            let r = if self.src[self.pos..].starts_with("{-#") {
                self.parse_file_metadata()
            } else if self.at_alias_def() {
                self.parse_alias_def()
            } else {
                self.parse_op().map(|op| self.ctx.append_op(block, op))
            };
            if let Err(d) = r {
                self.diags.push(d);
                // Recovery: skip to the next line that starts a new top-level item.
                self.recover_top_level();
            }
        }
        self.pop_scope();
        self.block_scopes.pop();
        self.resolve_forward_locs(region);
        if !self.diags.is_empty() {
            return Err((self.diags, self.source_map));
        }
        let ops: Vec<OpId> = self.ctx.block_ops(block).collect();
        let module = if ops.len() == 1 && self.ctx.op(ops[0]).name == module_name {
            self.ctx.detach_op(ops[0]);
            ops[0]
        } else {
            let loc = if self.file_locations {
                let file = self.file_attr();
                self.ctx.attr(AttrKind::Loc(Location::File {
                    file,
                    line: 0,
                    col: 0,
                    end: None,
                }))
            } else {
                self.ctx.unknown_loc()
            };
            self.ctx.create_op(OperationState {
                name: module_name,
                operands: vec![],
                result_types: vec![],
                properties: None,
                attrs: vec![],
                regions: vec![region],
                successors: vec![],
                loc,
            })
        };
        Ok(ParsedFile {
            module,
            source_map: self.source_map,
        })
    }

    fn recover_top_level(&mut self) {
        // Move to the start of the next line whose first character begins an op, alias or
        // metadata block at column 1; nested errors are not worth a second report.
        let b = self.src.as_bytes();
        let mut p = self.pos;
        while p < b.len() {
            while p < b.len() && b[p] != b'\n' {
                p += 1;
            }
            p += 1;
            if p < b.len() && matches!(b[p], b'%' | b'"' | b'#' | b'!' | b'{')
                || (p < b.len() && b[p].is_ascii_alphabetic())
            {
                break;
            }
        }
        self.pos = p.min(b.len());
        // Values and blocks of the failed op are gone; reset nested scopes to the top level.
        while self.scopes.len() > 1 {
            self.scopes.pop();
        }
        while self.block_scopes.len() > 1 {
            self.block_scopes.pop();
        }
        self.default_dialects.truncate(1);
        self.scopes[0].forward.clear();
        self.result_stack.clear();
        self.operand_stack.clear();
    }

    /// `{-# dialect_resources: { dialect: { key: "0x..." } }, external_resources: {...} #-}`.
    fn parse_file_metadata(&mut self) -> PResult<()> {
        self.pos += 3;
        loop {
            self.skip_ws();
            if self.eat("#-}") {
                return Ok(());
            }
            let start = self.pos;
            let kw = self.rule(Rule::bare_id)?.as_str();
            self.expect(":")?;
            match kw {
                "dialect_resources" => {
                    self.expect("{")?;
                    while !self.eat("}") {
                        let dialect = self.rule(Rule::bare_id)?.as_str().to_string();
                        self.expect(":")?;
                        self.expect("{")?;
                        while !self.eat("}") {
                            let key = self.rule(Rule::resource_key)?.as_str().to_string();
                            self.expect(":")?;
                            let v = self.rule(Rule::string_lit)?.as_str().to_string();
                            self.ctx.resources.entry(dialect.clone()).or_default().insert(key, v);
                            self.eat(",");
                        }
                        self.eat(",");
                    }
                }
                "external_resources" => {
                    let s = self.pos;
                    self.skip_balanced_braces()?;
                    self.ctx.external_resources = Some(self.src[s..self.pos].trim().to_string());
                }
                _ => {
                    return Err(Diagnostic::at(
                        Span::new(start, start + kw.len()),
                        format!("unknown file metadata section '{kw}', expected 'dialect_resources' or 'external_resources'"),
                    ))
                }
            }
            self.eat(",");
        }
    }

    fn skip_balanced_braces(&mut self) -> PResult<()> {
        self.expect("{")?;
        let mut depth = 1;
        let b = self.src.as_bytes();
        while self.pos < b.len() && depth > 0 {
            match b[self.pos] {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                b'"' => {
                    self.rule(Rule::string_lit)?;
                    continue;
                }
                _ => {}
            }
            self.pos += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Line and column by counting every byte before `offset`.
    fn counted(src: &str, offset: usize) -> (u32, u32) {
        let before = &src.as_bytes()[..offset];
        let line = before.iter().filter(|&&c| c == b'\n').count() as u32 + 1;
        let start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        (line, (offset - start + 1) as u32)
    }

    #[test]
    fn line_table_answers_in_any_order() {
        // Empty lines, `\r\n`, a last line without a newline; asked forward one by one,
        // backward, and in jumps (as ops finishing after their regions ask).
        let src = "a\n\nbc\r\n  d\n\n\n  efg\nh";
        let n = src.len();
        let mut order: Vec<usize> = (0..=n).collect();
        order.extend((0..=n).rev());
        order.extend((0..=n).map(|i| (i * 7) % (n + 1)));
        order.extend([n, 0, n, 1, n - 1, 2]);
        let mut ctx = Context::new();
        let mut p = Parser::new(&mut ctx, src, "f");
        for &o in &order {
            assert_eq!(p.line_col(o), counted(src, o), "offset {o}");
        }
        // A file without any newline.
        let mut ctx = Context::new();
        let mut p = Parser::new(&mut ctx, "abc", "f");
        assert_eq!(p.line_col(2), (1, 3));
        assert_eq!(p.line_col(0), (1, 1));
    }
}
