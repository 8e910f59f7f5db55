//! The textual-IR parser: a cursor-driven op parser over the pest grammar in `mlir.pest`.
//!
//! The driver walks the file op by op. For each syntactic piece it runs one pest rule at the
//! cursor and converts the resulting pairs into IR. Generic ops use two rules (the head up to the
//! regions and the tail after them); custom ops are parsed by their declared assembly format (see
//! [`crate::format`]) or a hand-written hook, both of which call the public `parse_*` methods here,
//! which is MLIR's `OpAsmParser` role.

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
    distinct: HashMap<u64, u64>,
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

    // ----- cursor -----------------------------------------------------------------------------

    /// Current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the cursor back to a saved position (for look-ahead).
    pub fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Parses a numeric literal's text (for attributes whose type the format implies).
    pub fn parse_number_text(&mut self) -> PResult<(String, Span)> {
        let p = self.rule(Rule::number)?;
        Ok((p.as_str().to_string(), self.off(&p)))
    }

    /// Parses `<...>` (balanced) and returns the text inside the brackets.
    pub fn parse_pretty_body(&mut self) -> PResult<String> {
        let p = self.rule(Rule::pretty_body)?;
        let s = p.as_str();
        Ok(s[1..s.len() - 1].to_string())
    }

    /// Builds a number attribute of a given type from literal text.
    pub fn number_attr_typed(&mut self, text: &str, ty: Type, sp: Span) -> PResult<Attr> {
        self.number_attr(text, Some(ty), sp)
    }

    /// The source text.
    pub fn src(&self) -> &'s str {
        self.src
    }

    /// Skips whitespace and `//` comments.
    pub fn skip_ws(&mut self) {
        let b = self.src.as_bytes();
        // Most calls find a token right away (every punctuation check asks): they return after
        // one look at the next byte, as no byte above the space is whitespace and only `/`
        // starts a comment.
        if b.get(self.pos).is_some_and(|&c| c > b' ' && c != b'/') {
            return;
        }
        loop {
            while self.pos < b.len() && matches!(b[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
                self.pos += 1;
            }
            if self.pos + 1 < b.len() && b[self.pos] == b'/' && b[self.pos + 1] == b'/' {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// The next byte after whitespace, if any.
    pub fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.src.as_bytes().get(self.pos).copied()
    }

    /// Whether the rest (after whitespace) starts with `s`.
    pub fn peek_str(&mut self, s: &str) -> bool {
        self.skip_ws();
        self.src[self.pos..].starts_with(s)
    }

    /// Consumes `s` if it comes next.
    pub fn eat(&mut self, s: &str) -> bool {
        if self.peek_str(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Consumes punctuation `s` or reports what was expected.
    pub fn expect(&mut self, s: &str) -> PResult<Span> {
        self.skip_ws();
        let start = self.pos;
        if self.eat(s) {
            Ok(Span::new(start, self.pos))
        } else {
            let found = self.found_here();
            Err(self
                .err_here(format!("expected '{s}', found {found}"))
                .with_label(format!("expected '{s}'")))
        }
    }

    /// Consumes a keyword (an identifier equal to `kw`, not a prefix of a longer one).
    pub fn eat_keyword(&mut self, kw: &str) -> bool {
        self.skip_ws();
        let rest = &self.src[self.pos..];
        if rest.starts_with(kw) {
            let next = rest.as_bytes().get(kw.len()).copied();
            if !matches!(next, Some(c) if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.')
            {
                self.pos += kw.len();
                return true;
            }
        }
        false
    }

    /// Consumes a keyword or reports it missing.
    pub fn expect_keyword(&mut self, kw: &str) -> PResult<()> {
        if self.eat_keyword(kw) {
            Ok(())
        } else {
            let found = self.found_here();
            Err(self.err_here(format!("expected '{kw}', found {found}")))
        }
    }

    /// What is at the cursor, quoted, for "expected X, found Y" messages.
    pub fn found_here(&mut self) -> String {
        self.skip_ws();
        if self.pos >= self.src.len() {
            return "end of input".into();
        }
        let end = self.token_end(self.pos);
        format!("'{}'", &self.src[self.pos..end])
    }

    /// An error at the cursor, describing what is there.
    pub fn err_here(&mut self, msg: impl Into<String>) -> Diagnostic {
        self.skip_ws();
        let end = self.token_end(self.pos);
        Diagnostic::at(Span::new(self.pos, end), msg.into())
    }

    fn token_end(&self, pos: usize) -> usize {
        let b = self.src.as_bytes();
        if pos >= b.len() {
            return pos;
        }
        let mut e = pos;
        if matches!(b[e], b'%' | b'^' | b'@' | b'#' | b'!') {
            e += 1;
        }
        while e < b.len() && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'_' | b'.' | b'$')) {
            e += 1;
        }
        if e == pos {
            e = pos
                + self.src[pos..]
                    .chars()
                    .next()
                    .map(|c| c.len_utf8())
                    .unwrap_or(1);
        }
        e
    }

    /// Runs a pest rule at the cursor, advancing past what it matched.
    pub fn rule(&mut self, r: Rule) -> PResult<Pair<'s, Rule>> {
        self.skip_ws();
        let base = self.pos;
        let src: &'s str = self.src;
        match Grammar::parse(r, &src[base..]) {
            Ok(mut pairs) => {
                let p = pairs.next().expect("rule produced a pair");
                // Pairs are relative to the slice; our spans add `base` back.
                self.pos = base + p.as_span().end();
                Ok(p)
            }
            Err(e) => {
                let off = match e.location {
                    pest::error::InputLocation::Pos(p) => p,
                    pest::error::InputLocation::Span((s, _)) => s,
                };
                let mut expected: Vec<&str> = match &e.variant {
                    pest::error::ErrorVariant::ParsingError { positives, .. } => {
                        positives.iter().map(rule_desc).collect()
                    }
                    _ => vec![],
                };
                expected.sort();
                expected.dedup();
                expected.retain(|s| *s != "token");
                let what = if expected.is_empty() {
                    rule_desc(&r).to_string()
                } else {
                    expected.join(" or ")
                };
                let at = base + off;
                // An unterminated string: say so at the end of the line, as MLIR does.
                if src.as_bytes().get(at) == Some(&b'"') {
                    let line_end = src[at..].find('\n').map(|e| at + e).unwrap_or(src.len());
                    let body = &src.as_bytes()[at + 1..line_end];
                    let mut esc = false;
                    let closed = body.iter().any(|&c| {
                        let hit = !esc && c == b'"';
                        esc = !esc && c == b'\\';
                        hit
                    });
                    if !closed {
                        return Err(Diagnostic::at(
                            Span::new(at, line_end),
                            "expected '\"' in string literal",
                        )
                        .with_label("string starts here and is not closed on this line"));
                    }
                }
                let end = self.token_end(at);
                let found = if at >= src.len() {
                    "end of input".to_string()
                } else {
                    format!("'{}'", &src[at..end])
                };
                Err(Diagnostic::at(
                    Span::new(at, end),
                    format!("expected {what}, found {found}"),
                )
                .with_label(format!("expected {what}")))
            }
        }
    }

    fn off(&self, p: &Pair<'s, Rule>) -> Span {
        // Pair positions are relative to the slice the rule ran on; recover absolute offsets from
        // the string pointers, which all point into `self.src`.
        let base = self.src.as_ptr() as usize;
        let s = p.as_str().as_ptr() as usize - base;
        Span::new(s, s + p.as_str().len())
    }

    /// 1-based line and (byte) column of `offset`.
    fn line_col(&mut self, offset: usize) -> (u32, u32) {
        let src = self.src.as_bytes();
        let starts = self.line_starts.get_or_insert_with(|| {
            let mut v = Vec::with_capacity(src.len() / 64 + 1);
            v.extend(memchr::memchr_iter(b'\n', src).map(|i| i + 1));
            v
        });
        // `k` lines start at or before `offset`: it is on line `k + 1`, which starts at
        // `starts[k - 1]` (the first line, at 0, is not in the table).
        let fits = |k: usize| {
            (k == 0 || starts[k - 1] <= offset) && starts.get(k).is_none_or(|&s| s > offset)
        };
        let hint = self.line_hint;
        let k = match (hint..hint + 4).find(|&k| k <= starts.len() && fits(k)) {
            Some(k) => k,
            None => starts.partition_point(|&s| s <= offset),
        };
        self.line_hint = k;
        let start = if k == 0 { 0 } else { starts[k - 1] };
        (k as u32 + 1, (offset - start + 1) as u32)
    }

    /// The file name as a string attribute.
    fn file_attr(&mut self) -> Attr {
        match self.file_attr {
            Some(a) => a,
            None => {
                let a = self.ctx.str_attr(&self.filename.clone());
                self.file_attr = Some(a);
                a
            }
        }
    }

    fn loc_of(&mut self, offset: usize) -> Attr {
        let at = self.default_loc_at(offset);
        self.default_loc(at)
    }

    /// Where an op's location points when ops take their location from the source, for
    /// [`Parser::default_loc`] to turn into a line and column only when the op has no location
    /// of its own.
    fn default_loc_at(&mut self, offset: usize) -> Option<usize> {
        self.file_locations.then_some(offset)
    }

    /// The location [`Parser::default_loc_at`] found.
    fn default_loc(&mut self, at: Option<usize>) -> Attr {
        let Some(offset) = at else {
            return self.ctx.unknown_loc();
        };
        let (line, col) = self.line_col(offset);
        let file = self.file_attr();
        self.ctx.attr(AttrKind::Loc(Location::File {
            file,
            line,
            col,
            end: None,
        }))
    }

    // ----- file level -------------------------------------------------------------------------

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
        self.default_dialects.push(None);
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

    fn resolve_forward_locs(&mut self, region: RegionId) {
        for (op, name, sp) in std::mem::take(&mut self.fwd_op_locs) {
            match self.attr_aliases.get(name) {
                Some(a) if matches!(self.ctx.attr_kind(*a), AttrKind::Loc(_)) => {
                    self.ctx.op_mut(op).loc = *a;
                }
                Some(_) => self.diags.push(Diagnostic::at(
                    sp,
                    format!("expected location, but '#{name}' is not a location"),
                )),
                None => self.diags.push(Diagnostic::at(
                    sp,
                    format!("undefined symbol alias id '{name}'"),
                )),
            }
        }
        if self.fwd_locs.is_empty() {
            return;
        }
        let mut map = HashMap::default();
        for (name, ph, sp) in std::mem::take(&mut self.fwd_locs) {
            match self.attr_aliases.get(name.as_str()) {
                Some(a) if matches!(self.ctx.attr_kind(*a), AttrKind::Loc(_)) => {
                    map.insert(ph, *a);
                }
                Some(_) => self.diags.push(Diagnostic::at(
                    sp,
                    format!("expected location, but '#{name}' is not a location"),
                )),
                None => self.diags.push(Diagnostic::at(
                    sp,
                    format!("undefined symbol alias id '{name}'"),
                )),
            }
        }
        let mut ops = Vec::new();
        for &b in self.ctx.region_blocks(region) {
            for o in self.ctx.block_ops(b) {
                self.ctx.walk(o, &mut |x| ops.push(x));
            }
        }
        for o in ops {
            if let Some(r) = map.get(&self.ctx.op(o).loc) {
                self.ctx.op_mut(o).loc = *r;
            }
            for &r in self.ctx.regions(o).to_vec().iter() {
                for &b in self.ctx.region_blocks(r).to_vec().iter() {
                    for &a in self.ctx.block_args(b).to_vec().iter() {
                        if let Some(l) = self.ctx.value(a).loc {
                            if let Some(real) = map.get(&l) {
                                self.ctx.set_value_loc(a, Some(*real));
                            }
                        }
                    }
                }
            }
        }
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

    fn at_alias_def(&mut self) -> bool {
        let rest = &self.src[self.pos..];
        let b = rest.as_bytes();
        if b.is_empty() || (b[0] != b'#' && b[0] != b'!') {
            return false;
        }
        let mut i = 1;
        while i < b.len()
            && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$' | b'.' | b'-'))
        {
            i += 1;
        }
        while i < b.len() && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        i < b.len() && b[i] == b'=' && b.get(i + 1) != Some(&b'=')
    }

    fn parse_alias_def(&mut self) -> PResult<()> {
        let src: &'s str = self.src;
        let start = self.pos;
        let is_attr = src.as_bytes()[self.pos] == b'#';
        let e = self.ident_end(start + 1);
        let name = &src[start + 1..e];
        let name_span = Span::new(start, e);
        if name.contains('.') {
            return Err(Diagnostic::at(
                name_span,
                "expected alias name without '.' (dotted names are dialect symbols)",
            ));
        }
        self.pos = e;
        self.expect("=")?;
        if is_attr {
            // `mlir-opt --mlir-print-debuginfo` ends files with one location alias per op.
            let a = match self.fast_loc_attr() {
                Some(l) => l?,
                None => self.parse_attribute()?,
            };
            if self.attr_aliases.is_empty()
                || self.attr_aliases.len() == self.attr_aliases.capacity()
            {
                // The uses seen so far that wait for a definition are about as many as the
                // definitions still to come (bounded by what the rest of the text can hold,
                // `#a = loc(unknown)` being about 16 bytes): room for them at once saves
                // growing the table step by step.
                let pending = self.fwd_op_locs.len() + self.fwd_locs.len();
                let room = pending.min((src.len() - self.pos) / 16);
                self.attr_aliases.reserve(room);
            }
            match self.attr_aliases.entry(name) {
                Entry::Occupied(e) => {
                    return Err(Diagnostic::at(
                        name_span,
                        format!("redefinition of attribute alias id '{}'", e.key()),
                    ));
                }
                Entry::Vacant(e) => {
                    e.insert(a);
                }
            }
        } else {
            if self.type_aliases.contains_key(name) {
                return Err(Diagnostic::at(
                    name_span,
                    format!("redefinition of type alias id '{name}'"),
                ));
            }
            let t = self.parse_type()?;
            self.type_aliases.insert(name.to_string(), t);
        }
        Ok(())
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

    // ----- scopes -----------------------------------------------------------------------------

    fn push_scope(&mut self, isolated: bool) {
        self.scopes.push(Scope {
            values: HashMap::default(),
            forward: vec![],
            isolated,
        });
        self.block_scopes.push(BlockScope {
            blocks: HashMap::default(),
        });
    }

    fn pop_scope(&mut self) {
        let scope = self.scopes.pop().expect("scope");
        let mut unresolved = Vec::new();
        for (name, num, ph, span) in scope.forward {
            // A value first used in a nested region may be defined later in an enclosing one.
            if !scope.isolated && !self.scopes.is_empty() {
                self.scopes
                    .last_mut()
                    .unwrap()
                    .forward
                    .push((name, num, ph, span));
            } else {
                unresolved.push((name, span));
            }
        }
        for (name, span) in unresolved {
            self.diags.push(Diagnostic::at(
                span,
                format!("use of undeclared SSA value name '{name}'"),
            ));
        }
    }

    fn pop_block_scope(&mut self) {
        let bs = self.block_scopes.pop().expect("block scope");
        let mut undefined: Vec<(String, Span)> = bs
            .blocks
            .into_iter()
            .filter(|(_, (_, d, _))| !d)
            .map(|(n, (_, _, s))| (n, s))
            .collect();
        undefined.sort_by_key(|(_, s)| s.start);
        for (name, span) in undefined {
            self.diags.push(Diagnostic::at(
                span,
                format!("reference to an undefined block '{name}'"),
            ));
        }
    }

    /// Binds a name to `count` consecutive values starting at `first` (an op's result group,
    /// or one block argument).
    fn define_values(
        &mut self,
        name: Cow<'s, str>,
        first: Value,
        count: u32,
        span: Span,
    ) -> PResult<()> {
        let scope = self.scopes.last_mut().unwrap();
        if let Some(&(_, _, prev)) = scope.values.get(name.as_ref()) {
            return Err(
                Diagnostic::at(span, format!("redefinition of SSA value '{name}'"))
                    .with_note(DiagLoc::Span(prev), "previously defined here"),
            );
        }
        // Resolve forward references to this name.
        let mut i = 0;
        let mut err = None;
        while i < scope.forward.len() {
            if scope.forward[i].0 == name {
                let (_, num, ph, use_span) = scope.forward.swap_remove(i);
                if num < count {
                    let real = Value(first.0 + num);
                    let (pt, rt) = (self.ctx.value_type(ph), self.ctx.value_type(real));
                    if pt != rt && err.is_none() {
                        err = Some(
                            Diagnostic::at(use_span, format!(
                                "use of value '{name}' expects different type than prior uses: '{}' vs '{}'",
                                crate::syntax::printer::type_to_string(self.ctx, pt),
                                crate::syntax::printer::type_to_string(self.ctx, rt)
                            ))
                            .with_note(DiagLoc::Span(span), "prior use here"),
                        );
                    }
                    self.ctx.replace_all_uses(ph, real);
                } else {
                    err.get_or_insert_with(|| Diagnostic::at(use_span, format!("result number {num} of '{name}' is out of range (it has {count} results)")));
                }
                continue;
            }
            i += 1;
        }
        scope.values.insert(name, (first, count, span));
        match err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Resolves an operand reference with its expected type (creating a forward reference when the
    /// value is defined later).
    pub fn resolve_operand(&mut self, u: &UnresolvedOperand, ty: Type) -> PResult<Value> {
        match self.lookup_operand(&u.name, u.number, u.span, ty)? {
            Some(v) => Ok(v),
            None => self.forward_operand(Cow::Owned(u.name.clone()), u.number, u.span, ty),
        }
    }

    /// [`Parser::resolve_operand`] for a name borrowed from the source.
    fn resolve_operand_ref(&mut self, u: OperandRef<'s>, ty: Type) -> PResult<Value> {
        match self.lookup_operand(u.name, u.number, u.span, ty)? {
            Some(v) => Ok(v),
            None => self.forward_operand(Cow::Borrowed(u.name), u.number, u.span, ty),
        }
    }

    /// A value already defined in a visible scope, checked against the expected type.
    fn lookup_operand(
        &mut self,
        name: &str,
        number: u32,
        span: Span,
        ty: Type,
    ) -> PResult<Option<Value>> {
        for scope in self.scopes.iter().rev() {
            if let Some(&(first, count, def_span)) = scope.values.get(name) {
                if number >= count {
                    return Err(Diagnostic::at(
                        span,
                        format!(
                            "result number {number} of '{name}' is out of range (it has {count} results)"
                        ),
                    ));
                }
                let v = Value(first.0 + number);
                let vt = self.ctx.value_type(v);
                if vt != ty {
                    return Err(Diagnostic::at(
                        span,
                        format!(
                            "use of value '{}' expects different type than prior uses: '{}' vs '{}'",
                            name,
                            crate::syntax::printer::type_to_string(self.ctx, ty),
                            crate::syntax::printer::type_to_string(self.ctx, vt)
                        ),
                    )
                    .with_label(format!("used here as '{}'", crate::syntax::printer::type_to_string(self.ctx, ty)))
                    .with_note(DiagLoc::Span(def_span), format!("'{}' is defined here with type '{}'", name, crate::syntax::printer::type_to_string(self.ctx, vt))));
                }
                return Ok(Some(v));
            }
            if scope.isolated {
                break;
            }
        }
        Ok(None)
    }

    /// A forward reference in the innermost scope; reuses a placeholder of the same name/number.
    fn forward_operand(
        &mut self,
        name: Cow<'s, str>,
        number: u32,
        span: Span,
        ty: Type,
    ) -> PResult<Value> {
        let scope_idx = self.scopes.len() - 1;
        if let Some((_, _, ph, _)) = self.scopes[scope_idx]
            .forward
            .iter()
            .find(|(n, k, _, _)| *n == name && *k == number)
        {
            let ph = *ph;
            if self.ctx.value_type(ph) != ty {
                return Err(Diagnostic::at(
                    span,
                    format!("use of value '{name}' expects different type than prior uses"),
                ));
            }
            return Ok(ph);
        }
        let fb = match self.fwd_block {
            Some(b) => b,
            None => {
                let b = self.ctx.create_block(&[]);
                self.fwd_block = Some(b);
                b
            }
        };
        let ph = self.ctx.add_block_arg(fb, ty, None);
        self.scopes[scope_idx]
            .forward
            .push((name, number, ph, span));
        Ok(ph)
    }

    fn block_ref(&mut self, name: &str, span: Span) -> BlockId {
        let bs = self.block_scopes.last_mut().unwrap();
        if let Some((b, _, _)) = bs.blocks.get(name) {
            return *b;
        }
        let b = self.ctx.create_block(&[]);
        self.block_scopes
            .last_mut()
            .unwrap()
            .blocks
            .insert(name.to_string(), (b, false, span));
        b
    }

    // ----- operations -------------------------------------------------------------------------

    /// Parses one op (generic or custom) and returns it detached.
    pub fn parse_op(&mut self) -> PResult<OpId> {
        self.skip_ws();
        let start = self.pos;
        // Result names go on a stack shared by nested ops (they finish before this op binds).
        let base = self.result_stack.len();
        if self.src[self.pos..].starts_with('%') && !self.fast_op_results() {
            self.result_stack.truncate(base);
            self.pos = start;
            self.check_digit_led_name()?;
            let p = self.rule(Rule::op_results)?;
            for r in p.into_inner() {
                let span = self.off(&r);
                let mut it = r.into_inner();
                let name = it.next().unwrap().as_str();
                let count = match it.next() {
                    Some(n) => n
                        .as_str()
                        .parse::<u32>()
                        .map_err(|_| Diagnostic::at(span, "invalid result count"))?,
                    None => 1,
                };
                if count == 0 {
                    return Err(Diagnostic::at(
                        span,
                        "expected named operation to have at least 1 result",
                    ));
                }
                self.result_stack.push((name, count, span));
            }
        }
        let end = self.result_stack.len();
        let total: u32 = self.result_stack[base..end].iter().map(|r| r.1).sum();
        self.skip_ws();
        // MLIR locates an op at its name token, not at its result list.
        let loc_default = self.default_loc_at(self.pos);
        let op = if self.src[self.pos..].starts_with('"') {
            self.parse_generic_op(loc_default)?
        } else {
            self.parse_custom_op(total as usize, loc_default)?
        };
        // Bind result names.
        let vals = self.ctx.results(op);
        let (first, num_vals) = (vals.first().copied(), vals.len());
        if end > base && total as usize != num_vals {
            let sp = Span::new(start, self.result_stack[end - 1].2.end);
            self.result_stack.truncate(base);
            return Err(Diagnostic::at(
                sp,
                format!("operation defines {num_vals} results but was provided {total} to bind"),
            ));
        }
        let mut i = 0u32;
        for k in base..end {
            let (name, count, span) = self.result_stack[k];
            let v = Value(first.map_or(0, |f| f.0) + i);
            i += count;
            if let Err(e) = self.define_values(Cow::Borrowed(name), v, count, span) {
                self.result_stack.truncate(base);
                return Err(e);
            }
        }
        self.result_stack.truncate(base);
        Ok(op)
    }

    fn parse_generic_op(&mut self, loc_default: Option<usize>) -> PResult<OpId> {
        let mut name_span = Span::default();
        let mut name: Cow<'s, str> = Cow::Borrowed("");
        // Operands go on a stack shared by nested ops, like result names.
        let base = self.operand_stack.len();
        let mut succs: Vec<(BlockId, Vec<(UnresolvedOperand, Type)>)> = Vec::new();
        let mut props = None;
        let mut props_span = None;
        let head_start = self.pos;
        let mut fast_name = "";
        let head = match self.fast_generic_head(&mut fast_name, &mut name_span) {
            true => {
                name = Cow::Borrowed(fast_name);
                // The rare parts (successors, properties) still go through the grammar.
                if self.peek() == Some(b'[') {
                    let p = self.rule(Rule::successors)?;
                    for s in p.into_inner() {
                        succs.push(self.successor(s)?);
                    }
                }
                if self.peek() == Some(b'<') {
                    let ps = self.pos;
                    self.pos += 1;
                    let ds = self.pos;
                    // Whole property dictionaries repeat (`<{overflowFlags = ...}>` on every
                    // integer op): found by their text, they cost no parsing at all.
                    let cached = self.cached_dict(ds);
                    let fast = match cached {
                        Some(_) => None,
                        None if self.peek() == Some(b'{') => self.fast_attr_dict()?,
                        None => None,
                    };
                    match (cached, fast) {
                        (Some(a), _) if self.peek() == Some(b'>') => {
                            self.pos += 1;
                            props_span = Some(Span::new(ps, self.pos));
                            props = Some(a);
                        }
                        (None, Some(entries)) if self.peek() == Some(b'>') => {
                            let de = self.pos;
                            self.pos += 1;
                            props_span = Some(Span::new(ps, self.pos));
                            let entries = entries.into_iter().map(|(k, v, _)| (k, v)).collect();
                            let a = self.ctx.dict_attr(entries);
                            self.remember_dict(ds, de, a);
                            props = Some(a);
                        }
                        _ => {
                            self.pos = ps;
                            let p = self.rule(Rule::properties)?;
                            props_span = Some(self.off(&p));
                            props = Some(self.attribute(p.into_inner().next().unwrap())?);
                        }
                    }
                }
                None
            }
            false => {
                self.pos = head_start;
                self.operand_stack.truncate(base);
                Some(self.rule(Rule::generic_head)?)
            }
        };
        for p in head.into_iter().flat_map(|h| h.into_inner()) {
            match p.as_rule() {
                Rule::string_lit => {
                    name_span = self.off(&p);
                    name = Cow::Owned(String::from_utf8_lossy(&unescape(p.as_str())).into_owned());
                }
                Rule::value_uses => {
                    for u in p.into_inner() {
                        let r = self.operand_ref(u);
                        self.operand_stack.push(r);
                    }
                }
                Rule::successors => {
                    for s in p.into_inner() {
                        succs.push(self.successor(s)?);
                    }
                }
                Rule::properties => {
                    props_span = Some(self.off(&p));
                    props = Some(self.attribute(p.into_inner().next().unwrap())?);
                }
                _ => unreachable!(),
            }
        }
        let num_uses = self.operand_stack.len() - base;
        if name.is_empty() {
            return Err(Diagnostic::at(name_span, "empty operation name is invalid"));
        }
        let opname = self.ctx.op_name(&name);
        // Regions.
        let mut regions = Vec::new();
        if self.peek() == Some(b'(') {
            self.pos += 1;
            let def = self.ctx.def_of(opname);
            let isolated = def.is_some_and(|d| d.is_isolated());
            self.default_dialects
                .push(def.and_then(|d| d.default_dialect));
            loop {
                let r = self.parse_region(Vec::new(), isolated);
                match r {
                    Ok(r) => regions.push(r),
                    Err(e) => {
                        self.default_dialects.pop();
                        return Err(e);
                    }
                }
                if !self.eat(",") {
                    break;
                }
            }
            self.default_dialects.pop();
            self.expect(")")?;
        }
        let mut attrs = Vec::new();
        let fty;
        let loc;
        let mut attr_spans: Vec<(u32, Span)> = Vec::new();
        let fty_span;
        // The tail `{attrs} : (T, ...) -> U loc(...)`, piece by piece so the function type can take
        // the fast path; each piece is the grammar rule `generic_tail` is made of.
        if self.peek() == Some(b'{') {
            let entries = self.parse_attr_dict()?;
            attrs.reserve_exact(entries.len());
            attr_spans.reserve_exact(entries.len());
            for (k, v, sp) in entries {
                attr_spans.push((self.source_map.name_id(&k), sp));
                attrs.push((k, v));
            }
        }
        self.expect(":")?;
        self.skip_ws();
        let fs = self.pos;
        match self.fast_function_type() {
            Some(t) => {
                fty = Some(t);
                fty_span = Span::new(fs, self.pos);
            }
            None => {
                let t = self.grammar_function_type()?;
                fty_span = Span::new(fs, self.pos);
                fty = Some(t);
            }
        }
        let mut fwd_loc = None;
        if self.peek_str("loc(") {
            (loc, fwd_loc) = self.parse_op_loc()?;
        } else {
            loc = self.default_loc(loc_default);
        }
        let fty = fty.unwrap();
        // Operand and result types, in a buffer reused across ops.
        let mut types = std::mem::take(&mut self.type_scratch);
        types.clear();
        let num_inputs = match self.ctx.type_kind(fty) {
            TypeKind::Function { inputs, results } => {
                types.extend_from_slice(inputs);
                types.extend_from_slice(results);
                inputs.len()
            }
            _ => unreachable!(),
        };
        if num_inputs != num_uses {
            return Err(Diagnostic::at(
                fty_span,
                format!(
                    "expected {} operand type{} but had {}",
                    num_uses,
                    if num_uses == 1 { "" } else { "s" },
                    num_inputs
                ),
            ));
        }
        let mut operands = Vec::with_capacity(num_uses);
        for (k, &ty) in types.iter().enumerate().take(num_uses) {
            let u = self.operand_stack[base + k];
            operands.push(self.resolve_operand_ref(u, ty)?);
        }
        self.operand_stack.truncate(base);
        let mut successors = Vec::new();
        for (b, args) in succs {
            for (u, t) in args {
                operands.push(self.resolve_operand(&u, t)?);
            }
            successors.push(b);
        }
        let op = self.ctx.create_op_with_types(
            OperationState {
                name: opname,
                operands,
                result_types: Vec::new(),
                properties: props,
                attrs,
                regions,
                successors,
                loc,
            },
            &types[num_inputs..],
        );
        self.type_scratch = types;
        if let Some((name, sp)) = fwd_loc {
            self.fwd_op_locs.push((op, name, sp));
        }
        self.source_map.set_op_name(op, name_span);
        for (k, sp) in attr_spans {
            self.source_map.set_op_attr_id(op, k, sp, false);
        }
        if let (Some(sp), Some(p)) = (props_span, props) {
            if let AttrKind::Dict(entries) = self.ctx.attr_kind(p) {
                for (k, _) in entries {
                    self.source_map.set_op_attr(op, k, sp, true);
                }
            }
        }
        Ok(op)
    }

    fn parse_custom_op(&mut self, num_results: usize, loc_default: Option<usize>) -> PResult<OpId> {
        let p = self.rule(Rule::custom_op_name).map_err(|_| {
            let mut d = self.err_here("expected operation name in quotes or a custom op name");
            d.label = Some("expected an operation".into());
            d
        })?;
        let name_span = self.off(&p);
        let written = p.as_str();
        let mut candidates = Vec::new();
        if written.contains('.') {
            candidates.push(written.to_string());
        }
        // The enclosing op's default dialect only applies to names without a dialect prefix.
        if let (Some(Some(d)), false) = (self.default_dialects.last(), written.contains('.')) {
            candidates.push(format!("{d}.{written}"));
        }
        if !written.contains('.') {
            candidates.push(format!("builtin.{written}"));
        }
        let def = candidates
            .iter()
            .find_map(|c| self.ctx.lookup_op_name(c).and_then(|n| self.ctx.def_of(n)));
        let Some(def) = def else {
            let tried: Vec<String> = candidates
                .iter()
                .filter(|c| *c != written)
                .map(|c| format!("'{c}'"))
                .collect();
            let mut d = Diagnostic::at(
                name_span,
                if tried.is_empty() {
                    format!("custom op '{written}' is unknown")
                } else {
                    format!(
                        "custom op '{written}' is unknown (tried {} as well)",
                        tried.join(", ")
                    )
                },
            )
            .with_label("unknown operation");
            if !self.ctx.allow_unregistered || !written.contains('.') {
                d.help = Some("ops of dialects that are not registered must be written in generic form, e.g. \"dialect.op\"(%x) : (i32) -> ()".into());
            } else {
                d.help = Some("unregistered ops can only be written in generic form: \"dialect.op\"(...) : (...) -> (...)".into());
            }
            return Err(d);
        };
        let implicit_mark = self.implicit_ops.len();
        let mut st = crate::format::parse_custom(self, def, num_results)?;
        // Trailing location.
        let mut fwd_loc = None;
        if self.peek_str("loc(") {
            (st.loc, fwd_loc) = self.parse_op_loc()?;
        } else {
            st.loc = self.default_loc(loc_default);
        }
        for o in self
            .implicit_ops
            .split_off(implicit_mark.min(self.implicit_ops.len()))
        {
            self.ctx.op_mut(o).loc = st.loc;
            if let Some((name, sp)) = fwd_loc {
                self.fwd_op_locs.push((o, name, sp));
            }
        }
        st.name = self.ctx.op_name(def.name);
        let attr_spans = std::mem::take(&mut self.pending_attr_spans);
        let op = self.ctx.create_op(st);
        if let Some((name, sp)) = fwd_loc {
            self.fwd_op_locs.push((op, name, sp));
        }
        self.source_map.set_op_name(op, name_span);
        for (k, sp) in attr_spans {
            self.source_map.set_op_attr(op, &k, sp, false);
        }
        Ok(op)
    }

    fn unresolved(&self, u: Pair<'s, Rule>) -> UnresolvedOperand {
        let r = self.operand_ref(u);
        UnresolvedOperand {
            name: r.name.to_string(),
            number: r.number,
            span: r.span,
        }
    }

    fn operand_ref(&self, u: Pair<'s, Rule>) -> OperandRef<'s> {
        let span = self.off(&u);
        let mut it = u.into_inner();
        let name = it.next().unwrap().as_str();
        let number = it
            .next()
            .map(|n| n.as_str().parse().unwrap_or(u32::MAX))
            .unwrap_or(0);
        OperandRef { name, number, span }
    }

    fn successor(
        &mut self,
        s: Pair<'s, Rule>,
    ) -> PResult<(BlockId, Vec<(UnresolvedOperand, Type)>)> {
        let mut it = s.into_inner();
        let id = it.next().unwrap();
        let sp = self.off(&id);
        let b = self.block_ref(id.as_str(), sp);
        let mut uses = Vec::new();
        let mut types = Vec::new();
        for p in it {
            match p.as_rule() {
                Rule::value_use => uses.push(self.unresolved(p)),
                _ => types.push(self.type_(p)?),
            }
        }
        if uses.len() != types.len() {
            return Err(Diagnostic::at(
                sp,
                format!(
                    "expected {} types for successor operands, found {}",
                    uses.len(),
                    types.len()
                ),
            ));
        }
        Ok((b, uses.into_iter().zip(types).collect()))
    }

    /// Parses `{ ... }` as a region. `entry_args` are arguments declared outside (custom forms).
    pub fn parse_region(
        &mut self,
        entry_args: Vec<RegionArg>,
        isolated: bool,
    ) -> PResult<RegionId> {
        self.expect("{")?;
        self.push_scope(isolated);
        let region = self.ctx.create_region();
        let r = self.parse_region_body(region, entry_args);
        // Always unwind scopes, even on error, so recovery starts clean.
        if r.is_err() {
            self.scopes.pop();
            self.block_scopes.pop();
            return r.map(|_| region);
        }
        self.pop_scope();
        self.pop_block_scope();
        Ok(region)
    }

    fn parse_region_body(&mut self, region: RegionId, entry_args: Vec<RegionArg>) -> PResult<()> {
        if self.eat("}") {
            if !entry_args.is_empty() {
                let b = self.ctx.create_block(&[]);
                self.ctx.push_block(region, b);
                self.define_block_args(b, entry_args)?;
            }
            return Ok(());
        }
        let mut cur = None;
        if self.peek() != Some(b'^') {
            let b = self.ctx.create_block(&[]);
            self.ctx.push_block(region, b);
            self.define_block_args(b, entry_args)?;
            cur = Some(b);
        } else if !entry_args.is_empty() {
            return Err(self.err_here("invalid block name in region with named arguments"));
        }
        loop {
            match self.peek() {
                None => return Err(self.err_here("expected '}' to end the region")),
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'^') => {
                    let (name, sp, args) = match self.fast_block_label() {
                        Some(l) => l,
                        None => {
                            let lab = self.rule(Rule::block_label)?;
                            let mut it = lab.into_inner();
                            let id = it.next().unwrap();
                            let sp = self.off(&id);
                            let mut args = Vec::new();
                            for a in it {
                                let asp = self.off(&a);
                                let mut ai = a.into_inner();
                                let n = ai.next().unwrap().as_str().to_string();
                                let t = self.type_(ai.next().unwrap())?;
                                let l = match ai.next() {
                                    Some(l) => Some(self.loc_attr(l)?),
                                    None => None,
                                };
                                args.push(RegionArg {
                                    name: n,
                                    ty: t,
                                    loc: l,
                                    span: asp,
                                });
                            }
                            (id.as_str(), sp, args)
                        }
                    };
                    let b = self.block_ref(name, sp);
                    let entry = self
                        .block_scopes
                        .last_mut()
                        .unwrap()
                        .blocks
                        .get_mut(name)
                        .unwrap();
                    if entry.1 {
                        let prev = entry.2;
                        return Err(
                            Diagnostic::at(sp, format!("redefinition of block '{name}'"))
                                .with_note(DiagLoc::Span(prev), "previously defined here"),
                        );
                    }
                    entry.1 = true;
                    entry.2 = sp;
                    self.ctx.push_block(region, b);
                    self.define_block_args(b, args)?;
                    cur = Some(b);
                }
                Some(_) => {
                    let op = self.parse_op()?;
                    self.ctx.append_op(cur.unwrap(), op);
                }
            }
        }
    }

    fn define_block_args(&mut self, b: BlockId, args: Vec<RegionArg>) -> PResult<()> {
        for a in args {
            let loc = a.loc.or_else(|| {
                if self.file_locations {
                    Some(self.loc_of(a.span.start))
                } else {
                    None
                }
            });
            let v = self.ctx.add_block_arg(b, a.ty, loc);
            self.define_values(Cow::Owned(a.name), v, 1, a.span)?;
        }
        Ok(())
    }

    /// Parses a successor reference `^bb` (custom forms); operands are parsed by the format.
    pub fn parse_successor_ref(&mut self) -> PResult<BlockId> {
        let p = self.rule(Rule::caret_id)?;
        let sp = self.off(&p);
        Ok(self.block_ref(p.as_str(), sp))
    }

    /// Parses `%name` or `%name#N`.
    pub fn parse_operand(&mut self) -> PResult<UnresolvedOperand> {
        let p = self.rule(Rule::value_use)?;
        Ok(self.unresolved(p))
    }

    /// Parses `%name` (a name being defined, e.g. a region argument).
    pub fn parse_value_name(&mut self) -> PResult<(String, Span)> {
        let p = self.rule(Rule::value_id)?;
        Ok((p.as_str().to_string(), self.off(&p)))
    }

    /// Parses a type.
    pub fn parse_type(&mut self) -> PResult<Type> {
        let p = self.rule(Rule::type_)?;
        self.type_(p)
    }

    /// Parses an attribute.
    pub fn parse_attribute(&mut self) -> PResult<Attr> {
        let p = self.rule(Rule::attribute)?;
        self.attribute(p)
    }

    /// Parses an attribute and reports its span.
    pub fn parse_attribute_spanned(&mut self) -> PResult<(Attr, Span)> {
        let p = self.rule(Rule::attribute)?;
        let sp = self.off(&p);
        Ok((self.attribute(p)?, sp))
    }

    /// Parses `{k = v, ...}` into entries (with spans).
    pub fn parse_attr_dict(&mut self) -> PResult<Vec<(String, Attr, Span)>> {
        self.skip_ws();
        let save = self.pos;
        if let Some(entries) = self.fast_attr_dict()? {
            return Ok(entries);
        }
        self.pos = save;
        let p = self.rule(Rule::dict_attr)?;
        let mut out = Vec::new();
        for e in p.into_inner() {
            let sp = self.off(&e);
            let (k, v) = self.dict_entry(e)?;
            if out.iter().any(|(k2, _, _): &(String, Attr, Span)| *k2 == k) {
                return Err(Diagnostic::at(
                    sp,
                    format!("attribute '{k}' occurs more than once in the attribute list"),
                ));
            }
            out.push((k, v, sp));
        }
        Ok(out)
    }

    /// Parses `@name` and returns the name text.
    pub fn parse_symbol_name(&mut self) -> PResult<(String, Span)> {
        let p = self.rule(Rule::symbol_name)?;
        let sp = self.off(&p);
        Ok((symbol_text(p), sp))
    }

    /// Parses a string literal alone: unlike a string attribute, a `: type` after it is left for
    /// the caller (`ptx.asm "..." : () -> i32`).
    pub fn parse_string_literal(&mut self) -> PResult<(Vec<u8>, Span)> {
        let p = self.rule(Rule::string_lit)?;
        let sp = self.off(&p);
        Ok((unescape(p.as_str()), sp))
    }

    /// Parses a bare identifier.
    pub fn parse_keyword_any(&mut self) -> PResult<(String, Span)> {
        let p = self.rule(Rule::keyword)?;
        Ok((p.as_str().to_string(), self.off(&p)))
    }

    /// An op's trailing `loc(...)`. A reference to an alias not yet defined comes back as the
    /// alias name beside the unknown location (the caller records it against the op it
    /// creates).
    #[allow(clippy::type_complexity)]
    fn parse_op_loc(&mut self) -> PResult<(Attr, Option<(&'s str, Span)>)> {
        self.skip_ws();
        let src: &'s str = self.src;
        let s = self.pos + 4;
        if !self.grammar_only && src[self.pos..].starts_with("loc(#") {
            let e = self.ident_end(s + 1);
            let name = &src[s + 1..e];
            if !name.is_empty()
                && !name.contains('.')
                && src.as_bytes().get(e) == Some(&b')')
                && !self.attr_aliases.contains_key(name)
            {
                self.pos = e + 1;
                return Ok((self.ctx.unknown_loc(), Some((name, Span::new(s, e)))));
            }
        }
        Ok((self.parse_loc()?, None))
    }

    /// Parses a location `loc(...)`.
    pub fn parse_loc(&mut self) -> PResult<Attr> {
        if let Some(l) = self.fast_loc_attr() {
            return l;
        }
        let p = self.rule(Rule::loc_attr)?;
        self.loc_attr(p)
    }

    /// Pushes the default dialect used to resolve unqualified op names inside a custom op's regions.
    pub fn push_default_dialect(&mut self, d: Option<&'static str>) {
        self.default_dialects.push(d);
    }
    /// Pops what [`Parser::push_default_dialect`] pushed.
    pub fn pop_default_dialect(&mut self) {
        self.default_dialects.pop();
    }

    // ----- fast paths ---------------------------------------------------------------------------
    //
    // The grammar in `mlir.pest` defines the syntax. These hand-written paths recognise only the
    // commonest simple spellings (SSA names, plain op-name strings, builtin scalar and function
    // types) and build exactly what the grammar's rules would; on anything else they return
    // "not handled" with the cursor where it was, and the caller runs the pest rule.

    fn ident_end(&self, mut i: usize) -> usize {
        let b = self.src.as_bytes();
        while i < b.len()
            && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'$' | b'.' | b'-'))
        {
            i += 1;
        }
        i
    }

    /// A name that starts with a digit is digits only: `%1abc =` is `%1` followed by `abc`,
    /// reported where `abc` starts with mlir-opt's message (the grammar alone would point at
    /// the `%`).
    fn check_digit_led_name(&self) -> PResult<()> {
        let b = self.src.as_bytes();
        let mut i = self.pos + 1;
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return Ok(());
        }
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if self.ident_end(i) > i {
            return Err(Diagnostic::at(Span::at(i), "expected '=' after SSA name")
                .with_help("a result name is an identifier (`%x1`) or digits only (`%1`)"));
        }
        Ok(())
    }

    /// `%a, %b:2 =`.
    fn fast_op_results(&mut self) -> bool {
        if self.grammar_only {
            return false;
        }
        let src: &'s str = self.src;
        let b = src.as_bytes();
        loop {
            self.skip_ws();
            let s = self.pos;
            if b.get(s) != Some(&b'%') {
                return false;
            }
            // `%1abc` is no name (a number-led name is digits only); the grammar reports it.
            let Some(e) = self.suffix_id_end(s + 1) else {
                return false;
            };
            let mut count = 1;
            let mut end = e;
            if b.get(e) == Some(&b':') {
                let mut d = e + 1;
                while d < b.len() && b[d].is_ascii_digit() {
                    d += 1;
                }
                match self.src[e + 1..d].parse::<u32>() {
                    Ok(n) if n > 0 => count = n,
                    _ => return false,
                }
                end = d;
            }
            self.result_stack
                .push((&src[s..e], count, Span::new(s, end)));
            self.pos = end;
            self.skip_ws();
            match b.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'=') if b.get(self.pos + 1) != Some(&b'=') => {
                    self.pos += 1;
                    return true;
                }
                _ => return false,
            }
        }
    }

    /// `"name"(%a, %b#1)` with a name free of escapes.
    fn fast_generic_head(&mut self, name: &mut &'s str, name_span: &mut Span) -> bool {
        if self.grammar_only {
            return false;
        }
        let src: &'s str = self.src;
        let b = src.as_bytes();
        let s = self.pos;
        if b.get(s) != Some(&b'"') {
            return false;
        }
        let mut e = s + 1;
        while e < b.len() && b[e] != b'"' {
            if b[e] == b'\\' || b[e] == b'\n' {
                return false;
            }
            e += 1;
        }
        if e >= b.len() || e == s + 1 {
            return false;
        }
        *name = &src[s + 1..e];
        *name_span = Span::new(s, e + 1);
        self.pos = e + 1;
        if self.peek() != Some(b'(') {
            return false;
        }
        self.pos += 1;
        if self.peek() == Some(b')') {
            self.pos += 1;
            return true;
        }
        loop {
            self.skip_ws();
            let us = self.pos;
            if b.get(us) != Some(&b'%') {
                return false;
            }
            let Some(ue) = self.suffix_id_end(us + 1) else {
                return false;
            };
            let mut number = 0;
            let mut end = ue;
            if b.get(ue) == Some(&b'#') {
                let mut d = ue + 1;
                while d < b.len() && b[d].is_ascii_digit() {
                    d += 1;
                }
                match self.src[ue + 1..d].parse::<u32>() {
                    Ok(n) => number = n,
                    Err(_) => return false,
                }
                end = d;
            }
            self.operand_stack.push(OperandRef {
                name: &src[us..ue],
                number,
                span: Span::new(us, end),
            });
            self.pos = end;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b')') => {
                    self.pos += 1;
                    return true;
                }
                _ => return false,
            }
        }
    }

    /// `{k = v, flag, ...}` whose values all take [`Parser::fast_attr_value`]. `Ok(None)` means
    /// "use the grammar" (cursor unspecified; the caller restores it). Duplicate keys are real
    /// errors either way.
    fn fast_attr_dict(&mut self) -> PResult<Option<Vec<(String, Attr, Span)>>> {
        let b = self.src.as_bytes();
        if self.grammar_only || self.peek() != Some(b'{') {
            return Ok(None);
        }
        self.pos += 1;
        let mut out: Vec<(String, Attr, Span)> = Vec::new();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Some(out));
        }
        loop {
            self.skip_ws();
            let ks = self.pos;
            if !b
                .get(ks)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
            {
                return Ok(None);
            }
            let mut ke = ks;
            while ke < b.len()
                && (b[ke].is_ascii_alphanumeric() || matches!(b[ke], b'_' | b'$' | b'.'))
            {
                ke += 1;
            }
            self.pos = ke;
            let value = if self.peek() == Some(b'=') {
                self.pos += 1;
                let vs = self.pos;
                let value = match self.cached_attr_value() {
                    Some(v) => Some(v),
                    None => {
                        self.pos = vs;
                        self.grammar_attr_value()
                    }
                };
                match value {
                    Some(v) => v,
                    None => return Ok(None),
                }
            } else {
                self.ctx.attr(AttrKind::Unit)
            };
            let sp = Span::new(ks, self.pos);
            let key = &self.src[ks..ke];
            if out.iter().any(|(k2, _, _)| k2 == key) {
                return Err(Diagnostic::at(
                    sp,
                    format!("attribute '{key}' occurs more than once in the attribute list"),
                ));
            }
            out.push((key.to_string(), value, sp));
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Some(out));
                }
                _ => return Ok(None),
            }
        }
    }

    /// The dictionary attribute written at `s` (`{...}`) if the same text was read before; the
    /// cursor then moves past it.
    fn cached_dict(&mut self, s: usize) -> Option<Attr> {
        if self.grammar_only {
            return None;
        }
        let s = {
            self.pos = s;
            self.skip_ws();
            self.pos
        };
        let end = self.scan_braces(s)?;
        let a = *self.attr_values.get(&self.src[s..end])?;
        self.pos = end;
        Some(a)
    }

    /// Remembers the dictionary attribute read from `s` (at or before its `{`) to `end`.
    fn remember_dict(&mut self, s: usize, end: usize, a: Attr) {
        let src: &'s str = self.src;
        let Some(open) = src[s..end].find('{').map(|i| s + i) else {
            return;
        };
        if self.scan_braces(open) == Some(end) && self.attr_values.len() < 1 << 16 {
            self.attr_values.insert(&src[open..end], a);
        }
    }

    /// The end (after the matching `}`) of the braces opening at `s`, with brackets and strings
    /// balanced; `None` for text with comments or escapes, which the caches leave alone.
    fn scan_braces(&self, s: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        if b.get(s) != Some(&b'{') {
            return None;
        }
        let mut depth = 0usize;
        let mut i = s;
        let mut in_str = false;
        while i < b.len() {
            let c = b[i];
            if in_str {
                match c {
                    b'"' => in_str = false,
                    b'\\' | b'\n' => return None,
                    _ => {}
                }
            } else {
                match c {
                    b'"' => in_str = true,
                    b'/' => return None,
                    b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
                    b'[' | b'(' | b'{' | b'<' => depth += 1,
                    b']' | b')' | b'>' => depth = depth.checked_sub(1)?,
                    b'}' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        None
    }

    /// [`Parser::fast_attr_value`] for a dictionary entry's value, found by its source text when
    /// the same text was read before (large files repeat the same few values).
    fn cached_attr_value(&mut self) -> Option<Attr> {
        const MAX_CACHED: usize = 1 << 16;
        self.skip_ws();
        let s = self.pos;
        let Some(end) = self.scan_dict_value(s) else {
            return self.fast_attr_value();
        };
        let src: &'s str = self.src;
        let text = &src[s..end];
        if let Some(&a) = self.attr_values.get(text) {
            self.pos = end;
            return Some(a);
        }
        let a = self.fast_attr_value()?;
        if self.pos == end && self.attr_values.len() < MAX_CACHED {
            self.attr_values.insert(text, a);
        }
        Some(a)
    }

    /// A dictionary entry's value that [`Parser::fast_attr_value`] does not read, by the
    /// grammar's `attribute` rule, remembered by its source text like the fast values so that
    /// pest reads each distinct spelling once. `None` (cursor unspecified) when the rule fails or
    /// the value does not end the entry: the caller then reads the whole dictionary by the
    /// grammar, which reports the error as it always has.
    fn grammar_attr_value(&mut self) -> Option<Attr> {
        const MAX_CACHED: usize = 1 << 16;
        self.skip_ws();
        let s = self.pos;
        let end = self.scan_dict_value(s);
        let p = self.rule(Rule::attribute).ok()?;
        let a = self.attribute(p).ok()?;
        let src: &'s str = self.src;
        if let Some(end) = end {
            if self.pos == end && self.attr_values.len() < MAX_CACHED {
                self.attr_values.insert(&src[s..end], a);
            }
        }
        Some(a)
    }

    /// The end of a dictionary entry's value starting at `s`: the text up to the `,` or `}` that
    /// ends the entry (brackets and strings balanced), without trailing whitespace. `None` for
    /// text with comments or escapes, which the cache leaves alone.
    fn scan_dict_value(&self, s: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        let mut depth = 0usize;
        let mut i = s;
        let mut in_str = false;
        while i < b.len() {
            let c = b[i];
            if in_str {
                match c {
                    b'"' => in_str = false,
                    b'\\' | b'\n' => return None,
                    _ => {}
                }
            } else {
                match c {
                    b'"' => in_str = true,
                    b'/' => return None,
                    b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
                    b'[' | b'(' | b'{' | b'<' => depth += 1,
                    b']' | b')' | b'>' => depth = depth.checked_sub(1)?,
                    b'}' if depth == 0 => break,
                    b'}' => depth -= 1,
                    b',' if depth == 0 => break,
                    _ => {}
                }
            }
            i += 1;
        }
        if i >= b.len() || in_str {
            return None;
        }
        while i > s && matches!(b[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
            i -= 1;
        }
        (i > s).then_some(i)
    }

    /// Integers (optionally `: iN`/`: index`), `true`/`false`/`unit`, plain strings, flat symbol
    /// references and arrays of those; `None` (cursor unspecified) for anything else.
    fn fast_attr_value(&mut self) -> Option<Attr> {
        self.skip_ws();
        let b = self.src.as_bytes();
        let s = self.pos;
        let c = *b.get(s)?;
        if c == b'-' || c.is_ascii_digit() {
            let mut e = s + 1;
            while e < b.len() && b[e].is_ascii_digit() {
                e += 1;
            }
            if e == s + 1 && c == b'-' {
                return None;
            }
            if matches!(b.get(e), Some(b'.' | b'x' | b'e' | b'E'))
                || b.get(e).is_some_and(|c| c.is_ascii_alphabetic())
            {
                return None;
            }
            let text = &self.src[s..e];
            self.pos = e;
            let save = self.pos;
            let ty = if self.peek() == Some(b':') {
                self.pos += 1;
                let t = self.fast_scalar_type()?;
                if !matches!(
                    self.ctx.type_kind(t),
                    TypeKind::Integer { .. } | TypeKind::Index
                ) {
                    return None;
                }
                Some(t)
            } else {
                self.pos = save;
                None
            };
            // Out-of-range values take the grammar path, which reports them.
            return self.number_attr(text, ty, Span::new(s, e)).ok();
        }
        if c == b'"' {
            let mut e = s + 1;
            while e < b.len() && b[e] != b'"' {
                if b[e] == b'\\' || b[e] == b'\n' {
                    return None;
                }
                e += 1;
            }
            if e >= b.len() {
                return None;
            }
            self.pos = e + 1;
            let save = self.pos;
            if self.peek() == Some(b':') {
                return None;
            }
            self.pos = save;
            let value = self.src.as_bytes()[s + 1..e].to_vec();
            return Some(self.ctx.attr(AttrKind::String { value, ty: None }));
        }
        if c == b'[' {
            self.pos += 1;
            let mut items = Vec::new();
            if self.peek() == Some(b']') {
                self.pos += 1;
            } else {
                loop {
                    items.push(self.fast_attr_value()?);
                    match self.peek()? {
                        b',' => self.pos += 1,
                        b']' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
            return Some(self.ctx.attr(AttrKind::Array(items)));
        }
        if c == b'@' {
            let e = self.ident_end(s + 1);
            let name = &self.src[s + 1..e];
            if name.is_empty()
                || name.contains('-')
                || !name.as_bytes()[0].is_ascii_alphabetic() && name.as_bytes()[0] != b'_'
            {
                return None;
            }
            if self.src[e..].starts_with("::") {
                return None;
            }
            self.pos = e;
            return Some(self.ctx.attr(AttrKind::SymbolRef {
                root: name.to_string(),
                nested: vec![],
            }));
        }
        let e = self.ident_end(s);
        let word = &self.src[s..e];
        let kind = match word {
            "true" | "false" => {
                let i1 = self.ctx.int_type(1);
                AttrKind::Integer {
                    value: BigInt::from((word == "true") as u8),
                    ty: i1,
                }
            }
            "unit" => AttrKind::Unit,
            _ => return None,
        };
        self.pos = e;
        Some(self.ctx.attr(kind))
    }

    /// A builtin scalar type keyword (`i32`, `index`, `f16`, ...) at the cursor.
    fn fast_scalar_type(&mut self) -> Option<Type> {
        self.skip_ws();
        let s = self.pos;
        let e = self.ident_end(s);
        let word = &self.src[s..e];
        if word.is_empty() || word.contains('.') {
            return None;
        }
        let kind = if let Some(d) = word
            .strip_prefix('i')
            .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
        {
            TypeKind::Integer {
                width: d.parse().ok().filter(|w| *w <= 16_777_215)?,
                signedness: Signedness::Signless,
            }
        } else if word == "index" {
            TypeKind::Index
        } else {
            TypeKind::Float(FloatKind::from_keyword(word)?)
        };
        self.pos = e;
        Some(self.ctx.ty(kind))
    }

    /// `(T, ...) -> U` or `(T, ...) -> (U, ...)` over scalar types. Types already read are
    /// found by their text (large files spell the same few signatures over and over).
    fn fast_function_type(&mut self) -> Option<Type> {
        if self.grammar_only {
            return None;
        }
        let save = self.pos;
        let src: &'s str = self.src;
        if let Some(end) = self.scan_fast_function_type(save) {
            if let Some(&t) = self.fn_types.get(&src[save..end]) {
                self.pos = end;
                return Some(t);
            }
            let t = self.fast_function_type_uncached();
            if let Some(ty) = t {
                if self.pos == end && self.fn_types.len() < 1 << 16 {
                    self.fn_types.insert(&src[save..end], ty);
                }
            }
            return t;
        }
        self.fast_function_type_uncached()
    }

    /// The extent of what [`Parser::fast_function_type`] would read at `pos`, if it reads
    /// anything: a parenthesised list of words, `->`, a word or such a list, and no type
    /// continuing after it. Words are only checked by [`Parser::fast_function_type_uncached`].
    fn scan_fast_function_type(&self, pos: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        let ws = |mut i: usize| {
            while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
            }
            i
        };
        let word = |i: usize| {
            let e = self.ident_end(i);
            (e > i && b[i].is_ascii_alphabetic()).then_some(e)
        };
        let list = |i: usize| -> Option<usize> {
            let mut i = ws(i);
            if b.get(i) != Some(&b'(') {
                return None;
            }
            i = ws(i + 1);
            if b.get(i) == Some(&b')') {
                return Some(i + 1);
            }
            loop {
                i = ws(word(i)?);
                match b.get(i)? {
                    b',' => i = ws(i + 1),
                    b')' => return Some(i + 1),
                    _ => return None,
                }
            }
        };
        let mut i = ws(list(pos)?);
        if !self.src[i..].starts_with("->") {
            return None;
        }
        i = ws(i + 2);
        let end = if b.get(i) == Some(&b'(') {
            list(i)?
        } else {
            word(i)?
        };
        // Comments are not part of a type's text; leave them to the slow path (none can start
        // inside what was scanned, but the check is one pass with the one for `.`), and a
        // type that goes on (`i32<...>`) too.
        if b.get(end) == Some(&b'<') || memchr::memchr2(b'.', b'/', &b[pos..end]).is_some() {
            return None;
        }
        Some(end)
    }

    /// A function type the fast path does not read (dialect, shaped or nested types), by the
    /// grammar, remembered by its source text like the fast path's so that pest reads each
    /// distinct signature once.
    fn grammar_function_type(&mut self) -> PResult<Type> {
        self.skip_ws();
        let s = self.pos;
        let src: &'s str = self.src;
        let end = self.scan_balanced_type(s).filter(|_| !self.grammar_only);
        if let Some(end) = end {
            if let Some(&t) = self.fn_types.get(&src[s..end]) {
                self.pos = end;
                return Ok(t);
            }
        }
        let p = self.rule(Rule::function_type)?;
        let t = self.function_type(p)?;
        if end == Some(self.pos) && self.fn_types.len() < 1 << 16 {
            self.fn_types.insert(&src[s..self.pos], t);
        }
        Ok(t)
    }

    /// The end of the type text at `pos` as far as brackets tell: up to the first whitespace,
    /// `,`, `)`, `}` or `{` outside brackets, after `->` and its following space if the text is
    /// a function type. A guess checked against where the grammar ends (only then is the text
    /// remembered); `None` for text with comments or strings.
    fn scan_balanced_type(&self, pos: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        let mut depth = 0usize;
        let mut i = pos;
        loop {
            let c = *b.get(i)?;
            match c {
                b'"' => return None,
                b'/' => return None,
                b'-' if b.get(i + 1) == Some(&b'>') => {
                    i += 2;
                    if depth == 0 {
                        while b.get(i) == Some(&b' ') {
                            i += 1;
                        }
                    }
                    continue;
                }
                b'(' | b'<' | b'[' => depth += 1,
                b')' | b'>' | b']' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        // A parenthesised list followed by `->` goes on.
                        let mut j = i + 1;
                        while b.get(j) == Some(&b' ') {
                            j += 1;
                        }
                        if c == b')' && b.get(j) == Some(&b'-') && b.get(j + 1) == Some(&b'>') {
                            i = j;
                            continue;
                        }
                    }
                }
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b')' | b'}' | b'{' if depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        (i > pos).then_some(i)
    }

    fn fast_function_type_uncached(&mut self) -> Option<Type> {
        let save = self.pos;
        let r = (|| {
            let list = |p: &mut Self| -> Option<Vec<Type>> {
                let mut v = Vec::new();
                if p.peek()? != b'(' {
                    return None;
                }
                p.pos += 1;
                if p.peek()? == b')' {
                    p.pos += 1;
                    return Some(v);
                }
                loop {
                    v.push(p.fast_scalar_type()?);
                    match p.peek()? {
                        b',' => p.pos += 1,
                        b')' => {
                            p.pos += 1;
                            return Some(v);
                        }
                        _ => return None,
                    }
                }
            };
            let inputs = list(self)?;
            self.skip_ws();
            if !self.src[self.pos..].starts_with("->") {
                return None;
            }
            self.pos += 2;
            let results = if self.peek()? == b'(' {
                list(self)?
            } else {
                vec![self.fast_scalar_type()?]
            };
            // The type must end here (not continue as e.g. `i32x4` or a nested function type).
            let next = self.src.as_bytes().get(self.pos).copied();
            if matches!(next, Some(c) if c.is_ascii_alphanumeric() || c == b'<' || c == b'-') {
                return None;
            }
            Some(self.ctx.function_type(inputs, results))
        })();
        if r.is_none() {
            self.pos = save;
        }
        r
    }

    /// `loc(#alias)`, `loc("file":line:col)` and `loc(unknown)`, the locations `mlir-opt`
    /// prints for every op; `None` (cursor restored) for any other spelling.
    fn fast_loc_attr(&mut self) -> Option<PResult<Attr>> {
        if self.grammar_only {
            return None;
        }
        let save = self.pos;
        let r = self.fast_loc_attr_inner();
        if r.is_none() {
            self.pos = save;
        }
        r
    }

    fn fast_loc_attr_inner(&mut self) -> Option<PResult<Attr>> {
        self.skip_ws();
        let src: &'s str = self.src;
        let b = src.as_bytes();
        if !src[self.pos..].starts_with("loc(") {
            return None;
        }
        let s = self.pos + 4;
        // Up to 9 digits, so that the value fits a `u32` (longer numbers take the grammar path,
        // which reports what does not fit).
        let digits = |mut i: usize| {
            let d = i;
            let mut v = 0u32;
            while i < b.len() && b[i].is_ascii_digit() && i - d < 9 {
                v = v * 10 + (b[i] - b'0') as u32;
                i += 1;
            }
            (i > d && !b.get(i).is_some_and(u8::is_ascii_digit)).then_some((v, i))
        };
        let (r, e) = match *b.get(s)? {
            b'#' => {
                let e = self.ident_end(s + 1);
                let name = &src[s + 1..e];
                if name.is_empty() || name.contains('.') || b.get(e) != Some(&b')') {
                    return None;
                }
                (self.alias_location(name, Span::new(s, e)), e)
            }
            b'"' => {
                // A file's locations nearly all name the same file: compared with the last
                // name whole, the name is not scanned byte by byte.
                let (q, same_file) = match self.loc_file {
                    Some((n, a))
                        if b[s + 1..].starts_with(n.as_bytes())
                            && b.get(s + 1 + n.len()) == Some(&b'"') =>
                    {
                        (s + 1 + n.len(), Some(a))
                    }
                    _ => {
                        let q = s + 1 + memchr::memchr3(b'"', b'\\', b'\n', &b[s + 1..])?;
                        if b[q] != b'"' {
                            return None;
                        }
                        (q, None)
                    }
                };
                if b.get(q + 1) != Some(&b':') {
                    return None;
                }
                let (line, i) = digits(q + 2)?;
                if b.get(i) != Some(&b':') {
                    return None;
                }
                let (col, i) = digits(i + 1)?;
                if b.get(i) != Some(&b')') {
                    return None;
                }
                let file = match same_file {
                    Some(a) => a,
                    None => {
                        let name = &src[s + 1..q];
                        let a = self.ctx.str_attr(name);
                        self.loc_file = Some((name, a));
                        a
                    }
                };
                let loc = Location::File {
                    file,
                    line,
                    col,
                    end: None,
                };
                (Ok(self.ctx.attr(AttrKind::Loc(loc))), i)
            }
            _ if src[s..].starts_with("unknown)") => (Ok(self.ctx.unknown_loc()), s + 7),
            _ => return None,
        };
        self.pos = e + 1;
        Some(r)
    }

    /// `^name(%a: T loc(...), ...):` with builtin scalar argument types; `None` (cursor
    /// restored) for anything else.
    fn fast_block_label(&mut self) -> Option<(&'s str, Span, Vec<RegionArg>)> {
        if self.grammar_only {
            return None;
        }
        let save = self.pos;
        let r = self.fast_block_label_inner();
        if r.is_none() {
            self.pos = save;
        }
        r
    }

    /// The end of a `suffix_id` after a sigil at `s`: digits only, or an identifier.
    fn suffix_id_end(&self, s: usize) -> Option<usize> {
        let b = self.src.as_bytes();
        let e = self.ident_end(s);
        if e == s || (b[s].is_ascii_digit() && !b[s..e].iter().all(u8::is_ascii_digit)) {
            return None;
        }
        Some(e)
    }

    fn fast_block_label_inner(&mut self) -> Option<(&'s str, Span, Vec<RegionArg>)> {
        let src: &'s str = self.src;
        let b = src.as_bytes();
        let s = self.pos;
        let e = self.suffix_id_end(s + 1)?;
        self.pos = e;
        let mut args = Vec::new();
        if b.get(e) == Some(&b'(') {
            self.pos += 1;
            if self.peek()? == b')' {
                self.pos += 1;
            } else {
                loop {
                    self.skip_ws();
                    let a = self.pos;
                    if b.get(a) != Some(&b'%') {
                        return None;
                    }
                    let ae = self.suffix_id_end(a + 1)?;
                    self.pos = ae;
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.pos += 1;
                    let ty = self.fast_scalar_type()?;
                    if matches!(b.get(self.pos), Some(b'<' | b'x')) {
                        return None;
                    }
                    let loc = if self.peek_str("loc(") {
                        Some(self.fast_loc_attr()?.ok()?)
                    } else {
                        None
                    };
                    args.push(RegionArg {
                        name: src[a..ae].to_string(),
                        ty,
                        loc,
                        span: Span::new(a, self.pos),
                    });
                    match self.peek()? {
                        b',' => self.pos += 1,
                        b')' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
        }
        if self.peek()? != b':' {
            return None;
        }
        self.pos += 1;
        Some((&src[s..e], Span::new(s, e), args))
    }

    // ----- pairs to IR --------------------------------------------------------------------------

    fn dict_entry(&mut self, e: Pair<'s, Rule>) -> PResult<(String, Attr)> {
        let mut it = e.into_inner();
        let k = it.next().unwrap();
        let key = match k.as_rule() {
            Rule::string_lit => String::from_utf8_lossy(&unescape(k.as_str())).into_owned(),
            _ => k.as_str().to_string(),
        };
        let v = match it.next() {
            Some(v) => self.attribute(v)?,
            None => self.ctx.attr(AttrKind::Unit),
        };
        Ok((key, v))
    }

    fn type_(&mut self, p: Pair<'s, Rule>) -> PResult<Type> {
        let sp = self.off(&p);
        let p = if p.as_rule() == Rule::type_ {
            p.into_inner().next().unwrap()
        } else {
            p
        };
        let kind = match p.as_rule() {
            Rule::function_type => return self.function_type(p),
            Rule::integer_type => {
                let s = p.as_str();
                let (sig, digits) = if let Some(d) = s.strip_prefix("si") {
                    (Signedness::Signed, d)
                } else if let Some(d) = s.strip_prefix("ui") {
                    (Signedness::Unsigned, d)
                } else {
                    (Signedness::Signless, &s[1..])
                };
                let width: u32 = digits
                    .parse()
                    .map_err(|_| Diagnostic::at(sp, "invalid integer width"))?;
                if width > 16_777_215 {
                    return Err(Diagnostic::at(
                        sp,
                        format!("integer bitwidth is limited to 16777215 bits, found {width}"),
                    ));
                }
                TypeKind::Integer {
                    width,
                    signedness: sig,
                }
            }
            Rule::index_type => TypeKind::Index,
            Rule::none_type => TypeKind::None,
            Rule::float_type => TypeKind::Float(FloatKind::from_keyword(p.as_str()).unwrap()),
            Rule::complex_type => TypeKind::Complex(self.type_(p.into_inner().next().unwrap())?),
            Rule::tuple_type => {
                let mut ts = Vec::new();
                for t in p.into_inner() {
                    ts.push(self.type_(t)?);
                }
                TypeKind::Tuple(ts)
            }
            Rule::vector_type => {
                let mut it = p.into_inner();
                let dims = it.next().unwrap();
                let mut shape = Vec::new();
                let mut scalable = Vec::new();
                for d in dims.as_str().split('x').filter(|d| !d.is_empty()) {
                    let (s, n) = if let Some(inner) = d.strip_prefix('[') {
                        (true, inner.trim_end_matches(']'))
                    } else {
                        (false, d)
                    };
                    let n: i64 = n
                        .parse()
                        .map_err(|_| Diagnostic::at(sp, "invalid vector dimension"))?;
                    if n <= 0 {
                        return Err(Diagnostic::at(
                            sp,
                            "vector types must have positive constant sizes",
                        ));
                    }
                    shape.push(n);
                    scalable.push(s);
                }
                let elem = self.type_(it.next().unwrap())?;
                TypeKind::Vector {
                    shape,
                    scalable,
                    elem,
                }
            }
            Rule::tensor_type | Rule::memref_type => {
                let is_tensor = p.as_rule() == Rule::tensor_type;
                let mut it = p.into_inner();
                let first = it.next().unwrap();
                if first.as_rule() == Rule::unranked {
                    let elem = self.type_(it.next().unwrap())?;
                    if is_tensor {
                        TypeKind::UnrankedTensor { elem }
                    } else {
                        let memspace = match it.next() {
                            Some(a) => Some(self.attribute(a)?),
                            None => None,
                        };
                        TypeKind::UnrankedMemRef { elem, memspace }
                    }
                } else {
                    let shape = parse_shape(first.as_str(), sp)?;
                    let elem = self.type_(it.next().unwrap())?;
                    let mut extra = Vec::new();
                    for a in it {
                        extra.push(self.attribute(a)?);
                    }
                    if is_tensor {
                        TypeKind::RankedTensor {
                            shape,
                            elem,
                            encoding: extra.first().copied(),
                        }
                    } else {
                        let (layout, memspace) = match extra.as_slice() {
                            [] => (None, None),
                            [a] => {
                                if self.is_layout_attr(*a) {
                                    (Some(*a), None)
                                } else {
                                    (None, Some(*a))
                                }
                            }
                            [a, b] => (Some(*a), Some(*b)),
                            _ => return Err(Diagnostic::at(sp, "memref type has too many parameters: expected at most a layout and a memory space")),
                        };
                        TypeKind::MemRef {
                            shape,
                            elem,
                            layout,
                            memspace,
                        }
                    }
                }
            }
            Rule::dialect_type => {
                let (d, n, body) = self.dialect_symbol(p);
                match (n, body) {
                    (None, None) => {
                        return self.type_aliases.get(&d).copied().ok_or_else(|| {
                            Diagnostic::at(sp, format!("undefined symbol alias id '{d}'"))
                        })
                    }
                    (None, Some(body)) => self.opaque_or_dialect_type(d, body),
                    (Some(n), body) => {
                        let kind = TypeKind::Dialect {
                            dialect: d,
                            name: n,
                            body,
                        };
                        return self
                            .ctx
                            .registered_type(&kind)
                            .map_err(|e| symbol_diag(sp, e, false));
                    }
                }
            }
            Rule::type_alias_ref => {
                let name = &p.as_str()[1..];
                return self.type_aliases.get(name).copied().ok_or_else(|| {
                    Diagnostic::at(sp, format!("undefined symbol alias id '{name}'"))
                });
            }
            r => unreachable!("type rule {r:?}"),
        };
        Ok(self.ctx.ty(kind))
    }

    fn opaque_or_dialect_type(&self, dialect: String, body: String) -> TypeKind {
        // `!foo<"data">` is MLIR's opaque form; anything else is a namespace-only pretty type.
        match opaque_payload(&body) {
            Some(data) => TypeKind::Opaque { dialect, data },
            None => TypeKind::Dialect {
                dialect,
                name: String::new(),
                body: Some(body),
            },
        }
    }

    fn is_layout_attr(&self, a: Attr) -> bool {
        matches!(
            self.ctx.attr_kind(a),
            AttrKind::AffineMap(_) | AttrKind::Strided { .. }
        )
    }

    /// Splits `!dialect.name<body>` / `#dialect.name<body>` into parts.
    fn dialect_symbol(&self, p: Pair<'s, Rule>) -> (String, Option<String>, Option<String>) {
        let mut it = p.into_inner();
        let ident = it.next().unwrap().as_str();
        let body = it.next().map(|b| {
            let s = b.as_str();
            self.expand_aliases_in_body(&s[1..s.len() - 1])
        });
        match ident.split_once('.') {
            Some((d, n)) => (d.to_string(), Some(n.to_string()), body),
            None => (ident.to_string(), None, body),
        }
    }

    /// A raw dialect body with each use of an attribute or type alias defined in this file
    /// (`#name`, `!name`; strings skipped) replaced by what the alias stands for. The body is
    /// kept as text, so without this the printed body would name an alias that the output no
    /// longer defines; MLIR's own parser resolves such uses while reading the body.
    fn expand_aliases_in_body(&self, body: &str) -> String {
        if !body.contains(['#', '!']) {
            return body.to_string();
        }
        let b = body.as_bytes();
        let mut out = String::with_capacity(body.len());
        let mut i = 0;
        let mut copied = 0;
        while i < b.len() {
            match b[i] {
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                c @ (b'#' | b'!')
                    if b.get(i + 1)
                        .is_some_and(|n| n.is_ascii_alphabetic() || *n == b'_') =>
                {
                    let mut e = i + 1;
                    while e < b.len()
                        && (b[e].is_ascii_alphanumeric() || matches!(b[e], b'_' | b'$' | b'.'))
                    {
                        e += 1;
                    }
                    let name = &body[i + 1..e];
                    let text = if name.contains('.') {
                        None
                    } else if c == b'#' {
                        self.attr_aliases
                            .get(name)
                            .map(|&a| crate::syntax::printer::attr_to_string(self.ctx, a))
                    } else {
                        self.type_aliases
                            .get(name)
                            .map(|&t| crate::syntax::printer::type_to_string(self.ctx, t))
                    };
                    if let Some(text) = text {
                        out.push_str(&body[copied..i]);
                        out.push_str(&text);
                        copied = e;
                    }
                    i = e;
                }
                _ => i += 1,
            }
        }
        out.push_str(&body[copied.min(body.len())..]);
        out
    }

    fn function_type(&mut self, p: Pair<'s, Rule>) -> PResult<Type> {
        let mut it = p.into_inner();
        let ins = it.next().unwrap();
        let mut inputs = Vec::new();
        for t in ins.into_inner() {
            inputs.push(self.type_(t)?);
        }
        let res = it.next().unwrap().into_inner().next().unwrap();
        let mut results = Vec::new();
        if res.as_rule() == Rule::type_list_parens {
            for t in res.into_inner() {
                results.push(self.type_(t)?);
            }
        } else {
            results.push(self.type_(res)?);
        }
        Ok(self.ctx.function_type(inputs, results))
    }

    fn attribute(&mut self, p: Pair<'s, Rule>) -> PResult<Attr> {
        let sp = self.off(&p);
        let p = if p.as_rule() == Rule::attribute {
            p.into_inner().next().unwrap()
        } else {
            p
        };
        let kind = match p.as_rule() {
            Rule::unit_attr => AttrKind::Unit,
            // As in MLIR, `true`/`false` are `i1` integer attributes.
            Rule::bool_attr => {
                let i1 = self.ctx.int_type(1);
                AttrKind::Integer {
                    value: BigInt::from((p.as_str() == "true") as u8),
                    ty: i1,
                }
            }
            Rule::number_attr => {
                let mut it = p.into_inner();
                let num = it.next().unwrap();
                let num_span = self.off(&num);
                let ty = match it.next() {
                    Some(t) => Some(self.type_(t)?),
                    None => None,
                };
                return self.number_attr(num.as_str(), ty, num_span);
            }
            Rule::string_attr => {
                let mut it = p.into_inner();
                let s = unescape(it.next().unwrap().as_str());
                let ty = match it.next() {
                    Some(t) => Some(self.type_(t)?),
                    None => None,
                };
                AttrKind::String { value: s, ty }
            }
            Rule::array_attr => {
                let mut v = Vec::new();
                for a in p.into_inner() {
                    v.push(self.attribute(a)?);
                }
                AttrKind::Array(v)
            }
            Rule::dict_attr => {
                let mut v: Vec<(String, Attr)> = Vec::new();
                for e in p.into_inner() {
                    let esp = self.off(&e);
                    let (k, a) = self.dict_entry(e)?;
                    if v.iter().any(|(k2, _)| *k2 == k) {
                        return Err(Diagnostic::at(
                            esp,
                            format!("duplicate key '{k}' in dictionary attribute"),
                        ));
                    }
                    v.push((k, a));
                }
                v.sort_by(|a, b| a.0.cmp(&b.0));
                AttrKind::Dict(v)
            }
            Rule::symbol_ref_attr => {
                let mut names = p.into_inner().map(symbol_text);
                let root = names.next().unwrap();
                AttrKind::SymbolRef {
                    root,
                    nested: names.collect(),
                }
            }
            Rule::typed_dialect_attr => {
                let mut it = p.into_inner();
                let sym = it.next().unwrap();
                // `#name` without a dot or body is an alias, not a dialect symbol: MLIR reads no
                // type after it.
                let is_alias = !sym.as_str()[1..].contains(['.', '<']);
                let attr = self.attribute(sym)?;
                let Some(t) = it.next() else {
                    return Ok(attr);
                };
                if is_alias {
                    return Err(Diagnostic::at(
                        self.off(&t),
                        "a type follows only a dialect attribute, not an attribute alias",
                    ));
                }
                let ty = self.type_(t)?;
                AttrKind::TypedDialect { attr, ty }
            }
            Rule::dialect_attr => {
                let (d, n, body) = self.dialect_symbol(p);
                match (n, body) {
                    (None, None) => {
                        return self.attr_aliases.get(d.as_str()).copied().ok_or_else(|| {
                            Diagnostic::at(sp, format!("undefined symbol alias id '{d}'"))
                        })
                    }
                    (None, Some(body)) => match opaque_payload(&body) {
                        Some(data) => AttrKind::Opaque { dialect: d, data },
                        None => AttrKind::Dialect {
                            dialect: d,
                            name: String::new(),
                            body: Some(body),
                        },
                    },
                    (Some(n), body) => {
                        let kind = AttrKind::Dialect {
                            dialect: d,
                            name: n,
                            body,
                        };
                        return self
                            .ctx
                            .registered_attr(&kind)
                            .map_err(|e| symbol_diag(sp, e, true));
                    }
                }
            }
            Rule::attr_alias_ref => {
                let name = &p.as_str()[1..];
                return self.attr_aliases.get(name).copied().ok_or_else(|| {
                    Diagnostic::at(sp, format!("undefined symbol alias id '{name}'"))
                });
            }
            Rule::type_ | Rule::function_type => AttrKind::Type(self.type_(p)?),
            Rule::dense_attr => {
                let mut data = DenseData::Empty;
                let mut ty = None;
                let mut lit_pair = None;
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::dense_lit => {
                            lit_pair = Some(q.clone());
                            let inner = q.clone().into_inner().next().unwrap();
                            data = if inner.as_rule() == Rule::string_lit
                                && inner.as_str().starts_with("\"0x")
                            {
                                DenseData::Hex(
                                    inner.as_str()[1..inner.as_str().len() - 1].to_string(),
                                )
                            } else {
                                DenseData::Literal(dense_lit(q))
                            };
                        }
                        _ => ty = Some(self.type_(q)?),
                    }
                }
                let ty = ty.unwrap();
                if let DenseData::Literal(lit @ DenseLit::List(_)) = &data {
                    let want = match self.ctx.type_kind(ty) {
                        TypeKind::RankedTensor { shape, .. } | TypeKind::Vector { shape, .. } => {
                            Some(shape.clone())
                        }
                        _ => None,
                    };
                    let got = literal_shape(lit).ok_or_else(|| {
                        Diagnostic::at(
                            sp,
                            "tensor literal is invalid; ranks are not consistent between elements",
                        )
                    })?;
                    if let Some(want) = want {
                        if want != got {
                            return Err(Diagnostic::at(
                                sp,
                                format!("inferred shape of elements literal ({got:?}) does not match type ({want:?})"),
                            ));
                        }
                    }
                }
                if !matches!(
                    self.ctx.type_kind(ty),
                    TypeKind::RankedTensor { .. } | TypeKind::Vector { .. }
                ) {
                    return Err(Diagnostic::at(
                        sp,
                        "elements literal must be a shaped type (ranked tensor or vector)",
                    ));
                }
                if let (Some(q), DenseData::Literal(_)) = (lit_pair, &data) {
                    self.check_dense_elements(q, ty)?;
                }
                AttrKind::DenseElements { data, ty }
            }
            Rule::sparse_attr => {
                let mut parts = Vec::new();
                let mut ty = None;
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::dense_lit => parts.push(dense_lit(q)),
                        _ => ty = Some(self.type_(q)?),
                    }
                }
                AttrKind::Sparse {
                    indices: parts.first().cloned(),
                    values: parts.get(1).cloned(),
                    ty: ty.unwrap(),
                }
            }
            Rule::dense_resource_attr => {
                let mut it = p.into_inner();
                let h = it.next().unwrap();
                let handle = h.as_str().to_string();
                let ty = self.type_(it.next().unwrap())?;
                AttrKind::DenseResource { handle, ty }
            }
            Rule::dense_array_attr => {
                let mut it = p.into_inner();
                let elem = self.type_(it.next().unwrap())?;
                if !matches!(
                    self.ctx.type_kind(elem),
                    TypeKind::Integer { .. } | TypeKind::Float(_)
                ) {
                    return Err(Diagnostic::at(
                        sp,
                        "expected an integer or float element type in array<...>",
                    ));
                }
                let values = match *self.ctx.type_kind(elem) {
                    TypeKind::Float(k) => {
                        let mut v = Vec::new();
                        for e in it {
                            let esp = self.off(&e);
                            let t = e.as_str();
                            if t == "true" || t == "false" || !(t.contains('.') || t.contains("0x"))
                            {
                                return Err(Diagnostic::at(
                                    esp,
                                    "unexpected decimal integer literal for a floating point value",
                                )
                                .with_help("add a trailing dot to make the literal a float"));
                            }
                            v.push(float_bits(t, k, esp)?);
                        }
                        DenseArrayValues::Float(v)
                    }
                    TypeKind::Integer { width, signedness } => {
                        let mut v = Vec::new();
                        for e in it {
                            let esp = self.off(&e);
                            let t = e.as_str();
                            let x = match t {
                                "true" | "false" if width == 1 => BigInt::from((t == "true") as u8),
                                _ if width == 1 => {
                                    return Err(Diagnostic::at(
                                        esp,
                                        "expected 'true' or 'false' in an array of i1",
                                    ))
                                }
                                "true" | "false" => {
                                    return Err(Diagnostic::at(
                                        esp,
                                        "expected an integer literal, found a boolean",
                                    ))
                                }
                                _ => int_value(t, width, signedness, esp)?,
                            };
                            v.push(x);
                        }
                        DenseArrayValues::Int(v)
                    }
                    _ => unreachable!("checked above"),
                };
                AttrKind::DenseArray { elem, values }
            }
            Rule::affine_map_attr => {
                let mut it = p.into_inner();
                let dims = names_of(it.next().unwrap());
                let mut syms = Vec::new();
                let mut results = Vec::new();
                for q in it {
                    if q.as_rule() == Rule::affine_syms {
                        syms = names_of(q);
                    } else {
                        results.push(affine_expr(q, &dims, &syms)?);
                    }
                }
                AttrKind::AffineMap(AffineMap {
                    num_dims: dims.len() as u32,
                    num_syms: syms.len() as u32,
                    results,
                })
            }
            Rule::affine_set_attr => {
                let mut it = p.into_inner();
                let dims = names_of(it.next().unwrap());
                let mut syms = Vec::new();
                let mut constraints = Vec::new();
                for q in it {
                    if q.as_rule() == Rule::affine_syms {
                        syms = names_of(q);
                    } else {
                        let mut c = q.into_inner();
                        let l = affine_expr(c.next().unwrap(), &dims, &syms)?;
                        let op = match c.next().unwrap().as_str() {
                            ">=" => AffineCmp::Ge,
                            "<=" => AffineCmp::Le,
                            _ => AffineCmp::Eq,
                        };
                        let r = affine_expr(c.next().unwrap(), &dims, &syms)?;
                        constraints.push((l, op, r));
                    }
                }
                AttrKind::IntegerSet(IntegerSet {
                    num_dims: dims.len() as u32,
                    num_syms: syms.len() as u32,
                    constraints,
                })
            }
            Rule::distinct_attr => {
                let mut it = p.into_inner();
                let n: u64 = it
                    .next()
                    .unwrap()
                    .as_str()
                    .parse()
                    .map_err(|_| Diagnostic::at(sp, "invalid distinct id"))?;
                let inner = match it.next() {
                    Some(a) => self.attribute(a)?,
                    None => self.ctx.attr(AttrKind::Unit),
                };
                let id = match self.distinct.get(&n) {
                    Some(id) => {
                        let existing = self.ctx.attr(AttrKind::Distinct {
                            id: *id,
                            attr: inner,
                        });
                        return Ok(existing);
                    }
                    None => {
                        let id = self.ctx.fresh_distinct_id();
                        self.distinct.insert(n, id);
                        id
                    }
                };
                AttrKind::Distinct { id, attr: inner }
            }
            Rule::strided_attr => {
                let mut strides = Vec::new();
                let mut offset = 0;
                let n = p.as_str().matches(',').count();
                let has_offset = p.as_str().contains("offset");
                let items: Vec<_> = p.into_inner().collect();
                let _ = n;
                for (i, s) in items.iter().enumerate() {
                    let v = if s.as_str() == "?" {
                        DYNAMIC
                    } else {
                        s.as_str()
                            .parse()
                            .map_err(|_| Diagnostic::at(sp, "invalid stride"))?
                    };
                    if has_offset && i == items.len() - 1 {
                        offset = v;
                    } else {
                        strides.push(v);
                    }
                }
                AttrKind::Strided { strides, offset }
            }
            Rule::loc_attr => return self.loc_attr(p),
            r => unreachable!("attribute rule {r:?}"),
        };
        Ok(self.ctx.attr(kind))
    }

    fn number_attr(&mut self, text: &str, ty: Option<Type>, sp: Span) -> PResult<Attr> {
        let is_float_lit = text.contains('.');
        let ty = match ty {
            Some(t) => t,
            None => {
                if is_float_lit {
                    self.ctx.float_type(FloatKind::F64)
                } else {
                    self.ctx.int_type(64)
                }
            }
        };
        let kind = match self.ctx.type_kind(ty) {
            TypeKind::Float(k) => TypeKind::Float(*k),
            TypeKind::Integer { width, signedness } => TypeKind::Integer {
                width: *width,
                signedness: *signedness,
            },
            TypeKind::Index => TypeKind::Index,
            _ => TypeKind::None,
        };
        match kind {
            TypeKind::Float(k) => {
                let bits = float_bits(text, k, sp)?;
                Ok(self.ctx.attr(AttrKind::Float { bits, ty }))
            }
            TypeKind::Integer { width, signedness } => {
                let v = int_value(text, width, signedness, sp)?;
                Ok(self.ctx.attr(AttrKind::Integer { value: v, ty }))
            }
            TypeKind::Index => {
                let v = int_value(text, 64, Signedness::Signless, sp)?;
                Ok(self.ctx.attr(AttrKind::Integer { value: v, ty }))
            }
            _ => Err(Diagnostic::at(
                sp,
                "integer literal not valid for specified type",
            )),
        }
    }

    /// `#name` used as a location: the alias's location, or a placeholder resolved at the end
    /// of the file when the alias is defined later (MLIR prints location aliases last).
    fn alias_location(&mut self, name: &str, sp: Span) -> PResult<Attr> {
        let Some(a) = self.attr_aliases.get(name).copied() else {
            let ph = self.ctx.attr(AttrKind::Loc(Location::Name {
                name: format!("\0fwd#{name}"),
                child: None,
            }));
            self.fwd_locs.push((name.to_string(), ph, sp));
            return Ok(ph);
        };
        if !matches!(self.ctx.attr_kind(a), AttrKind::Loc(_)) {
            return Err(Diagnostic::at(
                sp,
                format!("expected location, but found '#{name}'"),
            ));
        }
        Ok(a)
    }

    fn loc_attr(&mut self, p: Pair<'s, Rule>) -> PResult<Attr> {
        let inner = p.into_inner().next().unwrap();
        self.location(inner)
    }

    fn location(&mut self, p: Pair<'s, Rule>) -> PResult<Attr> {
        let sp = self.off(&p);
        let p = if p.as_rule() == Rule::location {
            p.into_inner().next().unwrap()
        } else {
            p
        };
        let loc = match p.as_rule() {
            Rule::unknown_loc => Location::Unknown,
            Rule::callsite_loc => {
                let mut it = p.into_inner();
                let callee = self.location(it.next().unwrap())?;
                let caller = self.location(it.next().unwrap())?;
                Location::CallSite { callee, caller }
            }
            Rule::fused_loc => {
                let mut metadata = None;
                let mut locs = Vec::new();
                for q in p.into_inner() {
                    if q.as_rule() == Rule::attribute {
                        metadata = Some(self.attribute(q)?);
                    } else {
                        locs.push(self.location(q)?);
                    }
                }
                Location::Fused { metadata, locs }
            }
            Rule::file_loc => {
                let mut it = p.into_inner();
                let value = unescape(it.next().unwrap().as_str());
                let file = self.ctx.attr(AttrKind::String { value, ty: None });
                let num = |s: &str| {
                    s.parse::<u32>()
                        .map_err(|_| Diagnostic::at(sp, "expected a 32-bit line or column number"))
                };
                let line = num(it.next().unwrap().as_str())?;
                let mut col = 0;
                let mut end = None;
                if let Some(c) = it.next() {
                    col = num(c.as_str())?;
                    if let Some(r) = it.next() {
                        let parts: Vec<_> = r.into_inner().collect();
                        end = Some(if parts.len() == 2 {
                            (Some(num(parts[0].as_str())?), num(parts[1].as_str())?)
                        } else {
                            (None, num(parts[0].as_str())?)
                        });
                    }
                }
                Location::File {
                    file,
                    line,
                    col,
                    end,
                }
            }
            Rule::name_loc => {
                let mut it = p.into_inner();
                let name =
                    String::from_utf8_lossy(&unescape(it.next().unwrap().as_str())).into_owned();
                let child = match it.next() {
                    Some(c) => Some(self.location(c)?),
                    None => None,
                };
                Location::Name { name, child }
            }
            Rule::attr_alias_ref => return self.alias_location(&p.as_str()[1..], sp),
            r => unreachable!("location rule {r:?}"),
        };
        Ok(self.ctx.attr(AttrKind::Loc(loc)))
    }

    /// Records an op a custom parser created without text (an implicit terminator), so it gets
    /// the location of the op being parsed once that is known.
    pub fn mark_implicit(&mut self, op: OpId) {
        self.implicit_ops.push(op);
    }

    /// Checks each element of a `dense<...>` literal against the element type as mlir-opt
    /// does: integers in range (`dense<300> : tensor<2xi8>` is rejected, not wrapped),
    /// `true`/`false` only for `i1`, no float literal for an integer type and no decimal integer
    /// for a float type (a hex literal is a float's bit pattern).
    fn check_dense_elements(&self, q: Pair<'s, Rule>, ty: Type) -> PResult<()> {
        let elem = match self.ctx.type_kind(ty) {
            TypeKind::RankedTensor { elem, .. } | TypeKind::Vector { elem, .. } => *elem,
            _ => return Ok(()),
        };
        let kind = self.ctx.type_kind(elem).clone();
        let mut stack = vec![q];
        while let Some(p) = stack.pop() {
            match p.as_rule() {
                Rule::dense_lit | Rule::dense_list => stack.extend(p.into_inner()),
                Rule::number | Rule::dense_bool => {
                    let sp = self.off(&p);
                    let text = p.as_str();
                    let is_bool = p.as_rule() == Rule::dense_bool;
                    let is_float = !is_bool && !text.contains("0x") && text.contains('.');
                    match &kind {
                        TypeKind::Integer { .. } | TypeKind::Index => {
                            let (width, sig) = match &kind {
                                TypeKind::Integer { width, signedness } => (*width, *signedness),
                                _ => (64, Signedness::Signless),
                            };
                            if is_bool {
                                if width != 1 {
                                    return Err(Diagnostic::at(
                                        sp,
                                        "expected i1 type for 'true' or 'false' values",
                                    ));
                                }
                                continue;
                            }
                            if is_float {
                                return Err(Diagnostic::at(
                                    sp,
                                    "expected integer elements, but parsed floating-point",
                                ));
                            }
                            if sig == Signedness::Unsigned && text.starts_with('-') {
                                return Err(Diagnostic::at(
                                    sp,
                                    "expected unsigned integer elements, but parsed negative value",
                                ));
                            }
                            let v = parse_bigint(text)
                                .ok_or_else(|| Diagnostic::at(sp, "invalid integer literal"))?;
                            if check_int_range(v, width, sig).is_none() {
                                return Err(Diagnostic::at(
                                    sp,
                                    "integer constant out of range for type",
                                )
                                .with_help(format!(
                                    "an element of type '{}' holds {}",
                                    crate::syntax::printer::type_to_string(self.ctx, elem),
                                    int_range_text(width, sig)
                                )));
                            }
                        }
                        TypeKind::Float(k) => {
                            if is_bool {
                                return Err(Diagnostic::at(sp, "expected floating point literal"));
                            }
                            if !is_float && !text.trim_start_matches(['-', '+']).starts_with("0x") {
                                return Err(Diagnostic::at(
                                    sp,
                                    "unexpected decimal integer literal for a floating point value",
                                )
                                .with_help(format!("write it as a float, e.g. `{text}.0`")));
                            }
                            float_bits(text, *k, sp)?;
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Spans of attributes parsed by a custom format, attached to the op when it is created.
    pub fn note_attr_span(&mut self, name: &str, span: Span) {
        self.pending_attr_spans.push((name.to_string(), span));
    }
}

/// The shape a nested dense literal spells (`[[1, 2], [3, 4]]` is `[2, 2]`); `None` when the
/// nesting is ragged.
fn literal_shape(l: &DenseLit) -> Option<Vec<i64>> {
    match l {
        DenseLit::List(items) => {
            let mut inner: Option<Vec<i64>> = None;
            for it in items {
                let s = literal_shape(it)?;
                match &inner {
                    None => inner = Some(s),
                    Some(prev) if *prev == s => {}
                    Some(_) => return None,
                }
            }
            let mut shape = vec![items.len() as i64];
            shape.extend(inner.unwrap_or_default());
            Some(shape)
        }
        _ => Some(Vec::new()),
    }
}

fn parse_shape(s: &str, sp: Span) -> PResult<Vec<i64>> {
    let mut shape = Vec::new();
    for d in s.split('x').filter(|d| !d.is_empty()) {
        if d == "?" {
            shape.push(DYNAMIC);
        } else {
            shape.push(
                d.parse()
                    .map_err(|_| Diagnostic::at(sp, format!("invalid dimension '{d}'")))?,
            );
        }
    }
    Ok(shape)
}

fn names_of(p: Pair<'_, Rule>) -> Vec<String> {
    p.into_inner().map(|x| x.as_str().to_string()).collect()
}

fn affine_expr(p: Pair<'_, Rule>, dims: &[String], syms: &[String]) -> PResult<AffineExpr> {
    let base = p.as_str().as_ptr() as usize;
    let _ = base;
    match p.as_rule() {
        Rule::affine_expr | Rule::affine_term => {
            let mut it = p.into_inner();
            let mut acc = affine_expr(it.next().unwrap(), dims, syms)?;
            while let Some(op) = it.next() {
                let rhs = affine_expr(it.next().unwrap(), dims, syms)?;
                let op = match op.as_str() {
                    "+" => AffineOp::Add,
                    "-" => AffineOp::Sub,
                    "*" => AffineOp::Mul,
                    "floordiv" => AffineOp::FloorDiv,
                    "ceildiv" => AffineOp::CeilDiv,
                    _ => AffineOp::Mod,
                };
                acc = AffineExpr::Bin(op, Box::new(acc), Box::new(rhs));
            }
            Ok(acc)
        }
        Rule::affine_factor => {
            let parts: Vec<_> = p.into_inner().collect();
            let (negs, atom) = parts.split_at(parts.len() - 1);
            let mut e = affine_expr(atom[0].clone(), dims, syms)?;
            for _ in negs {
                e = AffineExpr::Neg(Box::new(e));
            }
            Ok(e)
        }
        Rule::affine_atom => {
            let inner = p.into_inner().next().unwrap();
            match inner.as_rule() {
                Rule::dec_int => inner.as_str().parse().map(AffineExpr::Const).map_err(|_| {
                    Diagnostic::at(Span::default(), "constant too large for affine expression")
                }),
                Rule::bare_id => {
                    let n = inner.as_str();
                    if let Some(i) = dims.iter().position(|d| d == n) {
                        Ok(AffineExpr::Dim(i as u32))
                    } else if let Some(i) = syms.iter().position(|d| d == n) {
                        Ok(AffineExpr::Sym(i as u32))
                    } else {
                        Err(Diagnostic::at(
                            Span::default(),
                            format!("use of undeclared identifier '{n}' in affine expression"),
                        ))
                    }
                }
                _ => affine_expr(inner, dims, syms),
            }
        }
        r => unreachable!("affine rule {r:?}"),
    }
}

fn dense_lit(p: Pair<'_, Rule>) -> DenseLit {
    let p = if p.as_rule() == Rule::dense_lit {
        p.into_inner().next().unwrap()
    } else {
        p
    };
    match p.as_rule() {
        Rule::dense_list => DenseLit::List(p.into_inner().map(dense_lit).collect()),
        Rule::dense_complex => {
            let mut it = p.into_inner();
            let a = dense_lit(it.next().unwrap());
            let b = dense_lit(it.next().unwrap());
            DenseLit::Complex(Box::new(a), Box::new(b))
        }
        Rule::string_lit => DenseLit::Str(unescape(p.as_str())),
        _ => DenseLit::Scalar(p.as_str().to_string()),
    }
}

fn symbol_text(p: Pair<'_, Rule>) -> String {
    let inner = p.into_inner().next().unwrap();
    if inner.as_rule() == Rule::string_lit {
        String::from_utf8_lossy(&unescape(inner.as_str())).into_owned()
    } else {
        inner.as_str().to_string()
    }
}

/// `"data"` (a single string literal) → the data, for opaque dialect symbols.
/// The diagnostic for a dialect type (or attribute, when `attr`) that its registered dialect
/// rejects, at the symbol's span.
pub(crate) fn symbol_diag(sp: Span, e: SymbolError, attr: bool) -> Diagnostic {
    let (sigil, what) = if attr {
        ('#', "attribute")
    } else {
        ('!', "type")
    };
    match e {
        SymbolError::Unknown { name, known } => {
            let d = name.split('.').next().unwrap_or(&name);
            Diagnostic::at(
                sp,
                format!(
                    "unknown {what} '{sigil}{name}': dialect '{d}' declares {}",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            )
        }
        SymbolError::Invalid {
            name,
            message,
            syntax,
        } => Diagnostic::at(sp, format!("invalid '{sigil}{name}' {what}: {message}"))
            .with_help(format!("syntax: {syntax}")),
    }
}

fn opaque_payload(body: &str) -> Option<String> {
    let t = body.trim();
    if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
        // Only when the whole body is one string literal.
        let inner = &t[1..t.len() - 1];
        let mut esc = false;
        for c in inner.chars() {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                return None;
            }
        }
        return Some(String::from_utf8_lossy(&unescape(t)).into_owned());
    }
    None
}

/// Decodes an MLIR string literal (with quotes) into bytes: `\n \t \" \\` and `\XX` hex escapes.
pub fn unescape(lit: &str) -> Vec<u8> {
    let b = lit.as_bytes();
    let body = &b[1..b.len() - 1];
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'\\' && i + 1 < body.len() {
            let c = body[i + 1];
            match c {
                b'n' => {
                    out.push(b'\n');
                    i += 2;
                }
                b't' => {
                    out.push(b'\t');
                    i += 2;
                }
                b'"' | b'\\' => {
                    out.push(c);
                    i += 2;
                }
                _ if i + 2 < body.len()
                    && c.is_ascii_hexdigit()
                    && body[i + 2].is_ascii_hexdigit() =>
                {
                    let h = std::str::from_utf8(&body[i + 1..i + 3]).unwrap();
                    out.push(u8::from_str_radix(h, 16).unwrap());
                    i += 3;
                }
                _ => {
                    out.push(c);
                    i += 2;
                }
            }
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

/// The bits of float literal `text` (decimal, or the hex bit pattern) in format `k`.
fn float_bits(text: &str, k: FloatKind, sp: Span) -> PResult<u128> {
    if let Some(h) = text.strip_prefix("0x") {
        let bits = u128::from_str_radix(h, 16)
            .map_err(|_| Diagnostic::at(sp, "hexadecimal float literal too large"))?;
        if k.width() < 128 && bits >> k.width() != 0 {
            return Err(Diagnostic::at(
                sp,
                format!(
                    "hexadecimal float constant out of range for type '{}'",
                    k.keyword()
                ),
            ));
        }
        Ok(bits)
    } else if text.starts_with("-0x") || text.starts_with("+0x") {
        Err(Diagnostic::at(
            sp,
            "hexadecimal float literal should not have a leading minus",
        ))
    } else {
        let v: f64 = text
            .parse()
            .map_err(|_| Diagnostic::at(sp, format!("invalid float literal '{text}'")))?;
        Ok(float::from_f64(k, v))
    }
}

/// Integer literal `text` as a value of an integer type, normalised as MLIR stores it.
fn int_value(text: &str, width: u32, signedness: Signedness, sp: Span) -> PResult<BigInt> {
    // The common case first: a decimal that fits (a float literal never parses as an `i64`).
    if let Some(v) = small_int_in_range(text, width, signedness) {
        return Ok(v);
    }
    if text.contains('.') {
        return Err(Diagnostic::at(
            sp,
            "floating point value not valid for specified type",
        ));
    }
    let v = parse_bigint(text).ok_or_else(|| Diagnostic::at(sp, "invalid integer literal"))?;
    check_int_range(v, width, signedness)
        .ok_or_else(|| Diagnostic::at(sp, "integer constant out of range for attribute"))
}

/// The value of an integer literal as MLIR writes it (`42`, `-7`, `0x2A`).
pub fn parse_int_literal(text: &str) -> Option<BigInt> {
    parse_bigint(text)
}

/// `[-128, 255]`, for messages about the range of an `iN`/`siN`/`uiN` literal.
fn int_range_text(width: u32, sig: Signedness) -> String {
    let one = BigInt::one();
    let (lo, hi) = match sig {
        Signedness::Unsigned => (BigInt::zero(), (&one << width) - 1),
        Signedness::Signed => (
            -(&one << width.saturating_sub(1)),
            (&one << width.saturating_sub(1)) - 1,
        ),
        Signedness::Signless => (-(&one << width.saturating_sub(1)), (&one << width) - 1),
    };
    format!("[{lo}, {hi}]")
}

fn parse_bigint(text: &str) -> Option<BigInt> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let v = if let Some(h) = t.strip_prefix("0x") {
        BigInt::parse_bytes(h.as_bytes(), 16)?
    } else {
        BigInt::parse_bytes(t.as_bytes(), 10)?
    };
    Some(if neg { -v } else { v })
}

/// [`check_int_range`] for a decimal literal that fits an `i64` and a type of at most 64 bits,
/// without big-integer arithmetic (the common case). `None`: take the general path.
fn small_int_in_range(text: &str, width: u32, sig: Signedness) -> Option<BigInt> {
    if width == 0 || width > 64 || text.starts_with('+') {
        return None;
    }
    let v = text.parse::<i64>().ok()? as i128;
    let modulus = 1i128 << width;
    let half = 1i128 << (width - 1);
    let r = match sig {
        Signedness::Unsigned => (0..modulus).contains(&v).then_some(v)?,
        Signedness::Signed => (-half..half).contains(&v).then_some(v)?,
        Signedness::Signless => {
            if v < -half || v >= modulus {
                return None;
            }
            let r = v.rem_euclid(modulus);
            if width > 1 && r >= half {
                r - modulus
            } else {
                r
            }
        }
    };
    Some(BigInt::from(r))
}

/// Checks an integer literal against a type and normalizes it: MLIR accepts for `iN` any value in
/// `[-2^(N-1), 2^N)` and stores the N-bit pattern; we keep the signed reading (unsigned for `uiN`).
pub fn check_int_range(v: BigInt, width: u32, sig: Signedness) -> Option<BigInt> {
    let one = BigInt::one();
    let modulus = &one << width;
    match sig {
        Signedness::Unsigned => {
            if v.is_negative() || v >= modulus {
                return None;
            }
            Some(v)
        }
        Signedness::Signed => {
            let half = &one << (width.max(1) - 1);
            if width == 0 {
                return v.is_zero().then_some(v);
            }
            if v < -&half || v >= half {
                return None;
            }
            Some(v)
        }
        Signedness::Signless => {
            if width == 0 {
                return v.is_zero().then_some(v);
            }
            let half = &one << (width - 1);
            if v < -&half || v >= modulus {
                return None;
            }
            // Normalize to the signed reading of the N-bit pattern.
            let mut r = ((v % &modulus) + &modulus) % &modulus;
            if width > 1 && r >= half {
                r -= &modulus;
            } else if width == 1 && r == one {
                // i1: keep 1 (printed as `true`).
            }
            Some(r)
        }
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
