//! The printer: generic and custom op forms, types, attributes and locations, with SSA and block
//! names chosen the way MLIR 22 chooses them.
//!
//! Naming follows MLIR's `SSANameState`: regions are numbered from a stack (last pushed first).
//! In generic form the counters never go back, so every name in the output is unique (a generic
//! reader cannot know which regions are isolated); in custom form each region restarts from the
//! counters its parent had when the region was pushed, so sibling regions reuse names.

use crate::attrs::{
    AffineExpr, AffineMap, Attr, AttrKind, DenseArrayValues, DenseData, DenseLit, IntegerSet,
    Location,
};
use crate::context::{BlockId, Context, OpId, RegionId, Value, ValueDef};
use crate::float::format_float;
use crate::types::{FloatKind, Signedness, Type, TypeKind, DYNAMIC};
use rustc_hash::FxHashMap as HashMap;
use std::fmt::Write;

/// Printer switches; names follow `mlir-opt`'s flags.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// `--print-op-generic`: every op in generic form.
    pub generic: bool,
    /// `--print-debuginfo`: print op and block-argument locations.
    pub debuginfo: bool,
    /// `--print-local-scope`: no aliases; print every attribute and type in full at its use.
    pub local_scope: bool,
}

#[derive(Clone, Copy, Debug)]
enum VName {
    None,
    Res {
        id: u32,
        idx: u32,
        multi: bool,
    },
    Arg(u32),
    /// A suggested name (custom form), index into `Printer::custom_names`.
    Named(u32),
}

/// Prints IR to a string.
pub struct Printer<'a> {
    pub ctx: &'a Context,
    pub opts: PrintOptions,
    pub out: String,
    indent: usize,
    names: Vec<VName>,
    blocks: HashMap<BlockId, u32>,
    distinct: HashMap<u64, u64>,
    /// Location aliases in order of number (`#loc`, `#loc1`, ...).
    locs: Vec<Attr>,
    /// The file name last printed in a location, and its quoted text.
    loc_file: Option<(Attr, String)>,
    /// Alias number of each location by attribute index (`u32::MAX`: none yet); a dense table
    /// because a file printed with locations looks one up per op, twice.
    loc_ids: Vec<u32>,
    default_dialects: Vec<Option<&'static str>>,
    custom_names: Vec<String>,
    /// Generated `#map`/`#set` aliases, in order of first use.
    map_aliases: Vec<(Attr, String)>,
    map_alias_ids: HashMap<Attr, String>,
    /// Op names quoted for the generic form, by name index, made on first use (a file names a
    /// few ops many times over).
    quoted_names: Vec<Option<String>>,
    /// Location aliases that block arguments introduced (printed before the op).
    arg_locs: Vec<usize>,
    /// Where finished text goes while printing ([`print_op_to`]); `None`: it stays in `out`.
    sink: Option<&'a mut dyn std::io::Write>,
    sink_error: Option<std::io::Error>,
}

/// How much text [`print_op_to`] gathers before writing it out.
const FLUSH_AT: usize = 1 << 16;

/// Prints a type on its own (diagnostics, tests).
pub fn type_to_string(ctx: &Context, t: Type) -> String {
    let mut p = Printer::new(ctx, PrintOptions::default());
    p.print_type(t);
    p.out
}

/// Prints an attribute on its own.
pub fn attr_to_string(ctx: &Context, a: Attr) -> String {
    let mut p = Printer::new(
        ctx,
        PrintOptions {
            local_scope: true,
            ..Default::default()
        },
    );
    p.print_attr(a);
    p.out
}

/// [`print_op`] into a writer. When nothing has to go before the op (no `#map`/`#set` alias can
/// occur, no debug info), the text is written as it is produced, so the whole output is never
/// held in memory; otherwise it is printed to a string first.
pub fn print_op_to(
    ctx: &Context,
    op: OpId,
    opts: PrintOptions,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    if !opts.local_scope && ctx.has_affine_attrs() {
        return w.write_all(print_op(ctx, op, opts).as_bytes());
    }
    let mut p = Printer::new(ctx, opts);
    p.sink = Some(w);
    p.number_op(op);
    if opts.debuginfo && !opts.local_scope {
        // Location aliases are numbered before printing, so those of block arguments, which go
        // before the op, are known up front and the op can stream after them.
        p.number_locations(op);
        p.print_arg_loc_aliases();
    }
    p.print_operation(op);
    p.out.push('\n');
    debug_assert!(p.map_aliases.is_empty());
    p.print_loc_aliases();
    if !opts.local_scope {
        p.out.push('\n');
    }
    p.print_resources();
    if let Some(e) = p.sink_error.take() {
        return Err(e);
    }
    let rest = std::mem::take(&mut p.out);
    match p.sink.take() {
        Some(w) => w.write_all(rest.as_bytes()),
        None => Ok(()),
    }
}

/// Prints a top-level op (normally the module), with a trailing newline, as `mlir-opt` does.
pub fn print_op(ctx: &Context, op: OpId, opts: PrintOptions) -> String {
    let mut p = Printer::new(ctx, opts);
    p.number_op(op);
    if opts.debuginfo && !opts.local_scope {
        p.number_locations(op);
    }
    p.print_operation(op);
    p.out.push('\n');
    let body = std::mem::take(&mut p.out);
    p.print_arg_loc_aliases();
    let mut head = std::mem::replace(&mut p.out, body);
    if !p.map_aliases.is_empty() {
        // Alias definitions go before the op, as MLIR prints them.
        let mut defs = std::mem::take(&mut p.map_aliases);
        // Grouped by prefix (`#map` before `#set`), each in order of first use.
        defs.sort_by_key(|(_, n)| n.starts_with("#set"));
        for (a, name) in defs {
            let mut q = Printer::new(
                ctx,
                PrintOptions {
                    local_scope: true,
                    ..opts
                },
            );
            q.print_attr(a);
            head.push_str(&format!("{name} = {}\n", q.out));
        }
    }
    p.out.insert_str(0, &head);
    p.print_loc_aliases();
    if !opts.local_scope {
        // mlir-opt ends its output with an empty line (after aliases, before resources).
        p.out.push('\n');
    }
    p.print_resources();
    p.out
}

/// Appends `n` in decimal; the printer writes several numbers per op, and `core::fmt` costs
/// several times more than `itoa`.
fn push_u32(out: &mut String, n: u32) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// `#loc` for alias 0, `#locN` after, as MLIR names location aliases.
fn push_loc_alias_name(out: &mut String, i: usize) {
    out.push_str("#loc");
    if i > 0 {
        push_u32(out, i as u32);
    }
}

fn is_bare_id(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.'))
}

/// Appends `bytes` as an MLIR string literal (with quotes).
pub fn write_escaped(out: &mut String, bytes: &[u8]) {
    out.push('"');
    // Most strings need no escape: copy them whole.
    if let Ok(plain) = std::str::from_utf8(bytes) {
        if plain
            .bytes()
            .all(|c| matches!(c, 0x20..=0x7e) && c != b'\\' && c != b'"')
        {
            out.push_str(plain);
            out.push('"');
            return;
        }
    }
    for &c in bytes {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\22"),
            0x20..=0x7e => out.push(c as char),
            _ => {
                let _ = write!(out, "\\{c:02X}");
            }
        }
    }
    out.push('"');
}

impl<'a> Printer<'a> {
    /// A printer with no names assigned yet (call [`Printer::number_op`] before printing ops).
    pub fn new(ctx: &'a Context, opts: PrintOptions) -> Self {
        Printer {
            ctx,
            opts,
            out: String::new(),
            indent: 0,
            names: Vec::new(),
            blocks: HashMap::default(),
            distinct: HashMap::default(),
            locs: Vec::new(),
            loc_file: None,
            loc_ids: Vec::new(),
            default_dialects: Vec::new(),
            custom_names: Vec::new(),
            map_aliases: Vec::new(),
            map_alias_ids: HashMap::default(),
            quoted_names: Vec::new(),
            arg_locs: Vec::new(),
            sink: None,
            sink_error: None,
        }
    }

    /// Writes the text gathered so far to the sink, when there is one and enough has gathered.
    fn maybe_flush(&mut self) {
        if self.out.len() < FLUSH_AT {
            return;
        }
        if let Some(w) = self.sink.as_mut() {
            if self.sink_error.is_none() {
                if let Err(e) = w.write_all(self.out.as_bytes()) {
                    self.sink_error = Some(e);
                }
            }
            self.out.clear();
        }
    }

    // ----- naming -----------------------------------------------------------------------------

    /// Assigns SSA and block names for everything under `op`.
    pub fn number_op(&mut self, op: OpId) {
        self.names = vec![VName::None; self.ctx.num_values()];
        let (mut next_val, mut next_arg) = (0u32, 0u32);
        let mut stack: Vec<(RegionId, u32, u32)> = Vec::new();
        for &r in self.ctx.regions(op) {
            stack.push((r, 0, 0));
        }
        // Top op's own results (rare: printing a nested op) get the first ids.
        for (i, &v) in self.ctx.results(op).iter().enumerate() {
            let multi = self.ctx.results(op).len() > 1;
            self.names[v.index()] = VName::Res {
                id: 0,
                idx: i as u32,
                multi,
            };
            next_val = 1;
        }
        if !self.ctx.results(op).is_empty() {
            for s in stack.iter_mut() {
                s.1 = 1;
            }
        }
        // Suggested names are unique along the chain of enclosing regions; clashes take a global
        // `_N` counter, as MLIR does.
        let mut scopes: Vec<(Option<usize>, std::collections::HashSet<String>)> =
            vec![(None, Default::default())];
        let mut region_scope: HashMap<RegionId, usize> = HashMap::default();
        for &r in self.ctx.regions(op) {
            region_scope.insert(r, 0);
        }
        let mut next_conflict = 0u32;
        while let Some((r, v0, a0)) = stack.pop() {
            if !self.opts.generic {
                next_val = v0;
                next_arg = a0;
            }
            let parent_scope = region_scope.get(&r).copied().unwrap_or(0);
            let scope = scopes.len();
            scopes.push((Some(parent_scope), Default::default()));
            // Names the region's op suggests for its entry block's arguments (custom form).
            let arg_names = if self.opts.generic {
                Vec::new()
            } else {
                self.suggested_arg_names(r)
            };
            for (bi, &b) in self.ctx.region_blocks(r).iter().enumerate() {
                self.blocks.insert(b, bi as u32);
                // Entry-block arguments are `%argN`; other blocks' arguments are numbered like
                // op results, as MLIR does.
                for (ai, &a) in self.ctx.block_args(b).iter().enumerate() {
                    let suggested = if bi == 0 {
                        arg_names.get(ai).cloned().flatten()
                    } else {
                        None
                    };
                    if let Some(name) = suggested.filter(|n| !scopes[scope].1.contains(n)) {
                        scopes[scope].1.insert(name.clone());
                        self.custom_names.push(name);
                        self.names[a.index()] = VName::Named(self.custom_names.len() as u32 - 1);
                    } else if bi == 0 {
                        self.names[a.index()] = VName::Arg(next_arg);
                        next_arg += 1;
                    } else {
                        self.names[a.index()] = VName::Res {
                            id: next_val,
                            idx: 0,
                            multi: false,
                        };
                        next_val += 1;
                    }
                }
                for o in self.ctx.block_ops(b) {
                    let res = self.ctx.results(o);
                    if !self.opts.generic && res.len() == 1 {
                        let suggested = self
                            .ctx
                            .op_def(o)
                            .and_then(|d| d.result_name)
                            .and_then(|f| f(self.ctx, o));
                        if let Some(base) = suggested {
                            let used = |scopes: &Vec<(
                                Option<usize>,
                                std::collections::HashSet<String>,
                            )>,
                                        n: &str| {
                                let mut cur = Some(scope);
                                while let Some(i) = cur {
                                    if scopes[i].1.contains(n) {
                                        return true;
                                    }
                                    cur = scopes[i].0;
                                }
                                false
                            };
                            let mut name = base.clone();
                            while used(&scopes, &name) {
                                name = format!("{base}_{next_conflict}");
                                next_conflict += 1;
                            }
                            scopes[scope].1.insert(name.clone());
                            self.custom_names.push(name);
                            self.names[res[0].index()] =
                                VName::Named(self.custom_names.len() as u32 - 1);
                            continue;
                        }
                    }
                    if !res.is_empty() {
                        let multi = res.len() > 1;
                        for (i, &v) in res.iter().enumerate() {
                            self.names[v.index()] = VName::Res {
                                id: next_val,
                                idx: i as u32,
                                multi,
                            };
                        }
                        next_val += 1;
                    }
                }
            }
            for &b in self.ctx.region_blocks(r) {
                for o in self.ctx.block_ops(b) {
                    for &nr in self.ctx.regions(o) {
                        region_scope.insert(nr, scope);
                        stack.push((nr, next_val, next_arg));
                    }
                }
            }
        }
    }

    /// The entry-block argument names the op owning `r` suggests, when `r` is its first region:
    /// only identifiers that cannot be mistaken for the numbered names the printer makes
    /// (`%0`, `%arg3`).
    fn suggested_arg_names(&self, r: RegionId) -> Vec<Option<String>> {
        let Some(op) = self.ctx.region_parent(r) else {
            return Vec::new();
        };
        if self.ctx.regions(op).first() != Some(&r) {
            return Vec::new();
        }
        let Some(f) = self.ctx.op_def(op).and_then(|d| d.block_arg_names) else {
            return Vec::new();
        };
        let readable = |n: &str| {
            let mut cs = n.chars();
            let first_ok = cs
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
            let numbered = n
                .strip_prefix("arg")
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            first_ok
                && !numbered
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'))
        };
        f(self.ctx, op)
            .into_iter()
            .map(|n| n.filter(|n| readable(n)))
            .collect()
    }

    /// Writes a value's name, e.g. `%0`, `%0#1`, `%arg2`.
    pub fn print_value(&mut self, v: Value) {
        match self.names.get(v.index()).copied().unwrap_or(VName::None) {
            VName::Res { id, idx, multi } => {
                self.out.push('%');
                push_u32(&mut self.out, id);
                if multi {
                    self.out.push('#');
                    push_u32(&mut self.out, idx);
                }
            }
            VName::Arg(n) => {
                self.out.push_str("%arg");
                push_u32(&mut self.out, n);
            }
            VName::Named(i) => {
                self.out.push('%');
                self.out.push_str(&self.custom_names[i as usize]);
            }
            VName::None => self.out.push_str("<<UNKNOWN SSA VALUE>>"),
        }
    }

    fn print_result_names(&mut self, op: OpId) {
        let res = self.ctx.results(op);
        if res.is_empty() {
            return;
        }
        match self.names[res[0].index()] {
            VName::Res { id, .. } => {
                self.out.push('%');
                push_u32(&mut self.out, id);
                if res.len() > 1 {
                    let _ = write!(self.out, ":{}", res.len());
                }
                self.out.push_str(" = ");
            }
            VName::Named(_) => {
                self.print_value(res[0]);
                self.out.push_str(" = ");
            }
            _ => {}
        }
    }

    /// Writes a block's label, e.g. `^bb1`.
    pub fn print_block_name(&mut self, b: BlockId) {
        let n = self.blocks.get(&b).copied().unwrap_or(u32::MAX);
        self.out.push_str("^bb");
        push_u32(&mut self.out, n);
    }

    // ----- ops --------------------------------------------------------------------------------

    /// Writes a custom op's name, dropping the prefix when the enclosing op's default dialect
    /// makes it implicit (`return` inside `func.func`).
    pub fn print_op_name(&mut self, def: &crate::opdef::OpDef) {
        let n = self.default_dialects.len();
        let parent_default = if n >= 2 {
            self.default_dialects[n - 2]
        } else {
            None
        };
        // The top level's default dialect is `builtin` (`module`); inside other ops it is theirs
        // (`builtin.unrealized_conversion_cast` inside `func.func` keeps its prefix).
        let top_level = n < 2;
        if parent_default == Some(def.dialect()) || (def.dialect() == "builtin" && top_level) {
            self.out.push_str(&def.name[def.dialect().len() + 1..]);
        } else {
            self.out.push_str(def.name);
        }
    }

    /// Current indentation as spaces.
    pub fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    /// Prints one op at the current position (no indentation before, no newline after).
    pub fn print_operation(&mut self, op: OpId) {
        self.print_result_names(op);
        let def = self.ctx.op_def(op);
        let custom = !self.opts.generic && def.is_some_and(crate::format::has_custom_form);
        self.default_dialects
            .push(def.and_then(|d| d.default_dialect));
        if custom {
            crate::format::print_custom(self, def.unwrap(), op);
        } else {
            self.print_generic(op);
        }
        self.default_dialects.pop();
        if self.opts.debuginfo {
            self.out.push(' ');
            let l = self.ctx.op(op).loc;
            self.print_loc_use(l);
        }
    }

    /// Prints an op in generic form.
    pub fn print_generic(&mut self, op: OpId) {
        let ctx = self.ctx;
        let name = ctx.op(op).name;
        if name.index() >= self.quoted_names.len() {
            self.quoted_names.resize(name.index() + 1, None);
        }
        let quoted = self.quoted_names[name.index()].get_or_insert_with(|| {
            let mut q = String::new();
            write_escaped(&mut q, ctx.name_str(name).as_bytes());
            q
        });
        self.out.push_str(quoted);
        self.out.push('(');
        let succs = ctx.successors(op);
        // Successor operands are part of the operand list in generic form.
        for (i, &v) in ctx.operands(op).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_value(v);
        }
        self.out.push(')');
        if !succs.is_empty() {
            self.out.push('[');
            for (i, &b) in succs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_block_name(b);
            }
            self.out.push(']');
        }
        if let Some(p) = ctx.op(op).properties {
            self.out.push_str(" <");
            self.print_attr(p);
            self.out.push('>');
        }
        let regions = ctx.regions(op);
        if !regions.is_empty() {
            self.out.push_str(" (");
            for (i, &r) in regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_region(r, true, true);
            }
            self.out.push(')');
        }
        let attrs = ctx.attrs(op);
        if !attrs.is_empty() {
            self.out.push(' ');
            self.print_attr_dict_entries(attrs, &[]);
        }
        self.out.push_str(" : ");
        self.out.push('(');
        for (i, &v) in ctx.operands(op).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_type(ctx.value_type(v));
        }
        self.out.push_str(") -> ");
        let res = ctx.results(op);
        if res.len() == 1
            && !matches!(
                ctx.type_kind(ctx.value_type(res[0])),
                TypeKind::Function { .. }
            )
        {
            self.print_type(ctx.value_type(res[0]));
        } else {
            self.out.push('(');
            for (i, &v) in res.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_type(ctx.value_type(v));
            }
            self.out.push(')');
        }
    }

    /// Prints `{k = v, ...}` skipping `elided` names; prints nothing when all are elided.
    pub fn print_attr_dict_entries(&mut self, attrs: &[(String, Attr)], elided: &[&str]) {
        // Filtered twice rather than collected: most ops have a dictionary, and a vector
        // per dictionary cost more than the second pass.
        let shown = || attrs.iter().filter(|(k, _)| !elided.contains(&k.as_str()));
        if shown().next().is_none() {
            return;
        }
        self.out.push('{');
        for (i, (k, v)) in shown().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_dict_key(k);
            if !matches!(self.ctx.attr_kind(*v), AttrKind::Unit) {
                self.out.push_str(" = ");
                self.print_attr(*v);
            }
        }
        self.out.push('}');
    }

    fn print_dict_key(&mut self, k: &str) {
        if is_bare_id(k) {
            self.out.push_str(k);
        } else {
            write_escaped(&mut self.out, k.as_bytes());
        }
    }

    /// Prints a region `{ ... }`. `print_entry_args`: show the entry block's label and arguments
    /// (custom forms that print them elsewhere pass false); `print_terminators`: false elides a
    /// trailing terminator the op's format implies.
    pub fn print_region(&mut self, r: RegionId, print_entry_args: bool, print_terminators: bool) {
        let ctx = self.ctx;
        self.out.push('{');
        let blocks = ctx.region_blocks(r);
        for (bi, &b) in blocks.iter().enumerate() {
            let args = ctx.block_args(b);
            let empty = ctx.block_first(b).is_none();
            let show_label = bi > 0 || (print_entry_args && (!args.is_empty() || empty));
            if show_label {
                self.newline();
                self.print_block_name(b);
                if !args.is_empty() {
                    self.out.push('(');
                    for (i, &a) in args.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.print_value(a);
                        self.out.push_str(": ");
                        self.print_type(ctx.value_type(a));
                        if self.opts.debuginfo {
                            if let Some(l) = ctx.value(a).loc {
                                self.out.push(' ');
                                self.print_loc_inline(l);
                            }
                        }
                    }
                    self.out.push(')');
                }
                self.out.push(':');
                self.print_pred_comment(b, bi == 0);
            }
            self.indent += 1;
            let last = ctx.block_last(b);
            for o in ctx.block_ops(b) {
                if !print_terminators && Some(o) == last && blocks.len() == 1 {
                    continue;
                }
                self.newline();
                self.print_operation(o);
                self.maybe_flush();
            }
            self.indent -= 1;
        }
        self.newline();
        self.out.push('}');
    }

    fn print_pred_comment(&mut self, b: BlockId, is_entry: bool) {
        let preds = self.ctx.block_preds(b);
        if preds.is_empty() {
            if !is_entry {
                self.out.push_str("  // no predecessors");
            }
            return;
        }
        let mut pb: Vec<(u32, BlockId)> = preds
            .iter()
            .filter_map(|&op| self.ctx.op_parent_block(op))
            .map(|blk| (self.blocks.get(&blk).copied().unwrap_or(u32::MAX), blk))
            .collect();
        if pb.len() == 1 {
            self.out.push_str("  // pred: ");
            self.print_block_name(pb[0].1);
            return;
        }
        pb.sort_by_key(|p| p.0);
        let _ = write!(self.out, "  // {} preds: ", pb.len());
        for (i, (_, blk)) in pb.into_iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_block_name(blk);
        }
    }

    /// Increases indentation (custom printers with nested layouts).
    pub fn indent_more(&mut self) {
        self.indent += 1;
    }
    /// Decreases indentation.
    pub fn indent_less(&mut self) {
        self.indent -= 1;
    }

    // ----- types ------------------------------------------------------------------------------

    /// Prints a type.
    pub fn print_type(&mut self, t: Type) {
        let ctx = self.ctx;
        match ctx.type_kind(t) {
            TypeKind::Integer { width, signedness } => {
                let p = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                self.out.push_str(p);
                push_u32(&mut self.out, *width);
            }
            TypeKind::Index => self.out.push_str("index"),
            TypeKind::Float(k) => self.out.push_str(k.keyword()),
            TypeKind::None => self.out.push_str("none"),
            TypeKind::Function { inputs, results } => {
                self.out.push('(');
                self.type_list(inputs);
                self.out.push_str(") -> ");
                if results.len() == 1
                    && !matches!(ctx.type_kind(results[0]), TypeKind::Function { .. })
                {
                    self.print_type(results[0]);
                } else {
                    self.out.push('(');
                    self.type_list(results);
                    self.out.push(')');
                }
            }
            TypeKind::Complex(e) => {
                self.out.push_str("complex<");
                self.print_type(*e);
                self.out.push('>');
            }
            TypeKind::Tuple(ts) => {
                self.out.push_str("tuple<");
                self.type_list(ts);
                self.out.push('>');
            }
            TypeKind::Vector {
                shape,
                scalable,
                elem,
            } => {
                self.out.push_str("vector<");
                for (d, s) in shape.iter().zip(scalable) {
                    if *s {
                        let _ = write!(self.out, "[{d}]x");
                    } else if let Ok(small) = u32::try_from(*d) {
                        push_u32(&mut self.out, small);
                        self.out.push('x');
                    } else {
                        let _ = write!(self.out, "{d}x");
                    }
                }
                self.print_type(*elem);
                self.out.push('>');
            }
            TypeKind::RankedTensor {
                shape,
                elem,
                encoding,
            } => {
                self.out.push_str("tensor<");
                self.shape(shape);
                self.print_type(*elem);
                if let Some(e) = encoding {
                    self.out.push_str(", ");
                    self.print_attr(*e);
                }
                self.out.push('>');
            }
            TypeKind::UnrankedTensor { elem } => {
                self.out.push_str("tensor<*x");
                self.print_type(*elem);
                self.out.push('>');
            }
            TypeKind::MemRef {
                shape,
                elem,
                layout,
                memspace,
            } => {
                self.out.push_str("memref<");
                self.shape(shape);
                self.print_type(*elem);
                if let Some(l) = layout {
                    // MLIR omits the identity layout.
                    let identity =
                        matches!(ctx.attr_kind(*l), AttrKind::AffineMap(m) if is_identity(m));
                    if !identity {
                        self.out.push_str(", ");
                        self.print_attr(*l);
                    }
                }
                self.memory_space(*memspace);
                self.out.push('>');
            }
            TypeKind::UnrankedMemRef { elem, memspace } => {
                self.out.push_str("memref<*x");
                self.print_type(*elem);
                self.memory_space(*memspace);
                self.out.push('>');
            }
            TypeKind::Dialect {
                dialect,
                name,
                body,
            } => self.dialect_symbol('!', dialect, name, body.as_deref()),
            TypeKind::Opaque { dialect, data } => {
                self.out.push('!');
                self.out.push_str(dialect);
                self.out.push_str("<\"");
                self.out.push_str(data);
                self.out.push_str("\">");
            }
        }
    }

    /// `, space` of a memref; MLIR prints an `i64` integer space bare and drops space 0.
    fn memory_space(&mut self, m: Option<Attr>) {
        let Some(m) = m else { return };
        if let AttrKind::Integer { value, ty } = self.ctx.attr_kind(m) {
            if matches!(
                self.ctx.type_kind(*ty),
                TypeKind::Integer {
                    width: 64,
                    signedness: Signedness::Signless
                }
            ) {
                if value.bits() != 0 {
                    let _ = write!(self.out, ", {value}");
                }
                return;
            }
        }
        self.out.push_str(", ");
        self.print_attr(m);
    }

    /// `!dialect.name<body>`; a namespace-only symbol whose body starts with an identifier is
    /// printed in the pretty form MLIR uses (`!t<a<1>>` as `!t.a<1>`).
    fn dialect_symbol(&mut self, sigil: char, dialect: &str, name: &str, body: Option<&str>) {
        self.out.push(sigil);
        self.out.push_str(dialect);
        let (name, body) = match (name.is_empty(), body) {
            (true, Some(b)) => {
                let bb = b.as_bytes();
                let mut e = 0;
                if bb
                    .first()
                    .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
                {
                    while e < bb.len()
                        && (bb[e].is_ascii_alphanumeric() || matches!(bb[e], b'_' | b'.' | b'$'))
                    {
                        e += 1;
                    }
                }
                let rest = &b[e..];
                if e > 0 && (rest.is_empty() || (rest.starts_with('<') && rest.ends_with('>'))) {
                    let inner = if rest.is_empty() {
                        None
                    } else {
                        Some(&rest[1..rest.len() - 1])
                    };
                    (&b[..e], inner)
                } else {
                    (name, body)
                }
            }
            _ => (name, body),
        };
        if !name.is_empty() {
            self.out.push('.');
            self.out.push_str(name);
        }
        if let Some(b) = body {
            self.out.push('<');
            self.out.push_str(b);
            self.out.push('>');
        }
    }

    fn type_list(&mut self, ts: &[Type]) {
        for (i, &t) in ts.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_type(t);
        }
    }

    fn shape(&mut self, shape: &[i64]) {
        for &d in shape {
            if d == DYNAMIC {
                self.out.push_str("?x");
            } else if let Ok(small) = u32::try_from(d) {
                push_u32(&mut self.out, small);
                self.out.push('x');
            } else {
                let _ = write!(self.out, "{d}x");
            }
        }
    }

    // ----- attributes -------------------------------------------------------------------------

    /// Prints an attribute with its type where MLIR prints it.
    pub fn print_attr(&mut self, a: Attr) {
        self.print_attr_impl(a, true, false);
    }

    /// Prints an attribute without its `: type` suffix (formats whose attribute type is implied).
    pub fn print_attr_without_type(&mut self, a: Attr) {
        self.print_attr_impl(a, false, false);
    }

    /// `in_array`: MLIR drops the default types (`i64`, `f64`) of array elements only.
    fn print_attr_impl(&mut self, a: Attr, with_type: bool, in_array: bool) {
        let ctx = self.ctx;
        match ctx.attr_kind(a) {
            AttrKind::Unit => self.out.push_str("unit"),
            AttrKind::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            AttrKind::Integer { value, ty } => {
                if let TypeKind::Integer {
                    width: 1,
                    signedness: Signedness::Signless,
                } = ctx.type_kind(*ty)
                {
                    self.out
                        .push_str(if value.bits() == 0 { "false" } else { "true" });
                    return;
                }
                // Nearly every integer fits 64 bits: `itoa` costs a fraction of `BigInt`'s
                // formatting.
                match i64::try_from(value) {
                    Ok(v) => self.out.push_str(itoa::Buffer::new().format(v)),
                    Err(_) => {
                        let _ = write!(self.out, "{value}");
                    }
                }
                let is_i64 = matches!(
                    ctx.type_kind(*ty),
                    TypeKind::Integer {
                        width: 64,
                        signedness: Signedness::Signless
                    }
                );
                if with_type && !(in_array && is_i64) {
                    self.out.push_str(" : ");
                    self.print_type(*ty);
                }
            }
            AttrKind::Float { bits, ty } => {
                let TypeKind::Float(k) = ctx.type_kind(*ty) else {
                    unreachable!()
                };
                self.out.push_str(&format_float(*k, *bits));
                let is_f64 = matches!(k, crate::types::FloatKind::F64);
                if with_type && !(in_array && is_f64) {
                    self.out.push_str(" : ");
                    self.print_type(*ty);
                }
            }
            AttrKind::String { value, ty } => {
                write_escaped(&mut self.out, value);
                // MLIR treats `: none` as no type.
                let ty = ty.filter(|t| !matches!(ctx.type_kind(*t), TypeKind::None));
                if let (Some(t), true) = (ty, with_type) {
                    self.out.push_str(" : ");
                    self.print_type(t);
                }
            }
            AttrKind::Array(items) => {
                self.out.push('[');
                for (i, &x) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.print_attr_impl(x, true, true);
                }
                self.out.push(']');
            }
            AttrKind::Dict(entries) => {
                if entries.is_empty() {
                    self.out.push_str("{}");
                } else {
                    self.print_attr_dict_entries(entries, &[]);
                }
            }
            AttrKind::Type(t) => self.print_type(*t),
            AttrKind::SymbolRef { root, nested } => {
                self.symbol(root);
                for n in nested {
                    self.out.push_str("::");
                    self.symbol(n);
                }
            }
            AttrKind::DenseElements { data, ty } => {
                self.out.push_str("dense<");
                match data {
                    DenseData::Hex(h) => {
                        self.out.push('"');
                        self.out.push_str(h);
                        self.out.push('"');
                    }
                    DenseData::Literal(l) => self.dense_lit(l),
                    DenseData::Empty => {}
                }
                self.out.push('>');
                if with_type {
                    self.out.push_str(" : ");
                    self.print_type(*ty);
                }
            }
            AttrKind::Sparse {
                indices,
                values,
                ty,
            } => {
                self.out.push_str("sparse<");
                if let (Some(i), Some(v)) = (indices, values) {
                    self.dense_lit(i);
                    self.out.push_str(", ");
                    self.dense_lit(v);
                }
                self.out.push('>');
                if with_type {
                    self.out.push_str(" : ");
                    self.print_type(*ty);
                }
            }
            AttrKind::DenseResource { handle, ty } => {
                let _ = write!(self.out, "dense_resource<{handle}>");
                if with_type {
                    self.out.push_str(" : ");
                    self.print_type(*ty);
                }
            }
            AttrKind::DenseArray { elem, values } => {
                self.out.push_str("array<");
                self.print_type(*elem);
                if !values.is_empty() {
                    self.out.push_str(": ");
                }
                // MLIR's spelling: decimal integers, `true`/`false` for `i1`, floats as float
                // attributes print them (hex for NaN and infinities).
                let is_i1 = matches!(ctx.type_kind(*elem), TypeKind::Integer { width: 1, .. });
                match values {
                    DenseArrayValues::Int(v) => {
                        for (i, x) in v.iter().enumerate() {
                            if i > 0 {
                                self.out.push_str(", ");
                            }
                            if is_i1 {
                                self.out.push_str(if x.sign() == num_bigint::Sign::NoSign {
                                    "false"
                                } else {
                                    "true"
                                });
                            } else {
                                let _ = write!(self.out, "{x}");
                            }
                        }
                    }
                    DenseArrayValues::Float(v) => {
                        let k = match ctx.type_kind(*elem) {
                            TypeKind::Float(k) => *k,
                            _ => FloatKind::F64,
                        };
                        for (i, b) in v.iter().enumerate() {
                            if i > 0 {
                                self.out.push_str(", ");
                            }
                            self.out.push_str(&format_float(k, *b));
                        }
                    }
                }
                self.out.push('>');
            }
            AttrKind::AffineMap(_) | AttrKind::IntegerSet(_) if !self.opts.local_scope => {
                let name = match self.map_alias_ids.get(&a) {
                    Some(n) => n.clone(),
                    None => {
                        let prefix = if matches!(ctx.attr_kind(a), AttrKind::AffineMap(_)) {
                            "map"
                        } else {
                            "set"
                        };
                        let n = self
                            .map_aliases
                            .iter()
                            .filter(|(x, _)| {
                                matches!(ctx.attr_kind(*x), AttrKind::AffineMap(_))
                                    == (prefix == "map")
                            })
                            .count();
                        let name = if n == 0 {
                            format!("#{prefix}")
                        } else {
                            format!("#{prefix}{n}")
                        };
                        self.map_aliases.push((a, name.clone()));
                        self.map_alias_ids.insert(a, name.clone());
                        name
                    }
                };
                self.out.push_str(&name);
            }
            AttrKind::AffineMap(m) => {
                self.out.push_str("affine_map<");
                self.affine_map(m);
                self.out.push('>');
            }
            AttrKind::IntegerSet(s) => {
                self.out.push_str("affine_set<");
                self.integer_set(s);
                self.out.push('>');
            }
            AttrKind::Distinct { id, attr } => {
                let n = self.distinct.len() as u64;
                let n = *self.distinct.entry(*id).or_insert(n);
                let _ = write!(self.out, "distinct[{n}]<");
                if !matches!(ctx.attr_kind(*attr), AttrKind::Unit) {
                    self.print_attr(*attr);
                }
                self.out.push('>');
            }
            AttrKind::Strided { strides, offset } => {
                self.out.push_str("strided<[");
                for (i, s) in strides.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.dim_or_q(*s);
                }
                self.out.push(']');
                if *offset != 0 {
                    self.out.push_str(", offset: ");
                    self.dim_or_q(*offset);
                }
                self.out.push('>');
            }
            AttrKind::Dialect {
                dialect,
                name,
                body,
            } => self.dialect_symbol('#', dialect, name, body.as_deref()),
            AttrKind::Opaque { dialect, data } => {
                self.out.push('#');
                self.out.push_str(dialect);
                self.out.push_str("<\"");
                self.out.push_str(data);
                self.out.push_str("\">");
            }
            AttrKind::Loc(_) => {
                self.out.push_str("loc(");
                self.loc_body(a);
                self.out.push(')');
            }
            AttrKind::TypedDialect { attr, ty } => {
                self.print_attr_impl(*attr, false, false);
                if with_type {
                    self.out.push_str(" : ");
                    self.print_type(*ty);
                }
            }
        }
    }

    fn dim_or_q(&mut self, d: i64) {
        if d == DYNAMIC {
            self.out.push('?');
        } else {
            let _ = write!(self.out, "{d}");
        }
    }

    /// Writes `@name`, quoted when `name` is not a bare identifier (a symbol's own name in a
    /// format, as MLIR's `SymbolNameAttr` prints).
    pub fn print_symbol_name(&mut self, s: &str) {
        self.symbol(s);
    }

    fn symbol(&mut self, s: &str) {
        self.out.push('@');
        if is_bare_id(s) {
            self.out.push_str(s);
        } else {
            write_escaped(&mut self.out, s.as_bytes());
        }
    }

    fn dense_lit(&mut self, l: &DenseLit) {
        match l {
            DenseLit::Scalar(s) => self.out.push_str(s),
            DenseLit::Str(b) => write_escaped(&mut self.out, b),
            DenseLit::Complex(a, b) => {
                self.out.push('(');
                self.dense_lit(a);
                self.out.push_str(", ");
                self.dense_lit(b);
                self.out.push(')');
            }
            DenseLit::List(items) => {
                self.out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.dense_lit(x);
                }
                self.out.push(']');
            }
        }
    }

    fn dims_syms(&mut self, nd: u32, ns: u32) {
        self.out.push('(');
        for i in 0..nd {
            if i > 0 {
                self.out.push_str(", ");
            }
            let _ = write!(self.out, "d{i}");
        }
        self.out.push(')');
        if ns > 0 {
            self.out.push('[');
            for i in 0..ns {
                if i > 0 {
                    self.out.push_str(", ");
                }
                let _ = write!(self.out, "s{i}");
            }
            self.out.push(']');
        }
    }

    fn affine_map(&mut self, m: &AffineMap) {
        self.dims_syms(m.num_dims, m.num_syms);
        self.out.push_str(" -> (");
        for (i, e) in m.results.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.affine_expr(e, 0);
        }
        self.out.push(')');
    }

    fn integer_set(&mut self, s: &IntegerSet) {
        self.dims_syms(s.num_dims, s.num_syms);
        self.out.push_str(" : (");
        for (i, (l, c, r)) in s.constraints.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.affine_expr(l, 0);
            let _ = write!(self.out, " {} ", c.spelling());
            self.affine_expr(r, 0);
        }
        self.out.push(')');
    }

    /// Prints with the minimal parentheses that keep the tree shape: a child binds at least as
    /// tightly as `min_prec`; right operands of equal precedence are parenthesized.
    fn affine_expr(&mut self, e: &AffineExpr, min_prec: u8) {
        match e {
            AffineExpr::Dim(i) => {
                let _ = write!(self.out, "d{i}");
            }
            AffineExpr::Sym(i) => {
                let _ = write!(self.out, "s{i}");
            }
            AffineExpr::Const(c) => {
                let _ = write!(self.out, "{c}");
            }
            AffineExpr::Neg(x) => {
                self.out.push('-');
                self.affine_expr(x, 3);
            }
            AffineExpr::Bin(op, l, r) => {
                let p = op.precedence();
                let paren = p < min_prec;
                if paren {
                    self.out.push('(');
                }
                self.affine_expr(l, p);
                let _ = write!(self.out, " {} ", op.spelling());
                self.affine_expr(r, p + 1);
                if paren {
                    self.out.push(')');
                }
            }
        }
    }

    // ----- locations --------------------------------------------------------------------------

    /// Prints `loc(...)` for an op or argument location: an alias `loc(#locN)` unless
    /// `--print-local-scope`, as MLIR prints locations.
    pub fn print_loc_use(&mut self, l: Attr) {
        if self.opts.local_scope {
            self.out.push_str("loc(");
            self.loc_body(l);
            self.out.push(')');
            return;
        }
        let n = self.loc_alias_id(l);
        self.out.push_str("loc(");
        push_loc_alias_name(&mut self.out, n);
        self.out.push(')');
    }

    /// Numbers op and block-argument locations in MLIR's order: a pre-order walk, each op's
    /// location before those inside its regions.
    ///
    /// Block-argument locations take part in the numbering (MLIR visits an op's location, then
    /// for each of its blocks the argument locations, then the nested ops) and their aliases are
    /// defined before the module, although arguments print their locations inline.
    fn number_locations(&mut self, op: OpId) {
        let ctx = self.ctx;
        let mut order = Vec::new();
        fn visit(ctx: &Context, o: OpId, order: &mut Vec<(Attr, bool)>) {
            order.push((ctx.op(o).loc, false));
            for &r in ctx.regions(o) {
                for &b in ctx.region_blocks(r) {
                    for &a in ctx.block_args(b) {
                        if let Some(l) = ctx.value(a).loc {
                            order.push((l, true));
                        }
                    }
                    for x in ctx.block_ops(b) {
                        visit(ctx, x, order);
                    }
                }
            }
        }
        visit(ctx, op, &mut order);
        self.loc_ids.resize(ctx.num_attrs(), u32::MAX);
        self.locs.reserve(order.len());
        for (l, is_arg) in order {
            if is_arg && self.loc_ids[l.index()] == u32::MAX {
                self.arg_locs.push(self.locs.len());
            }
            self.loc_alias_id(l);
        }
    }

    /// The alias number of a location, giving it the next one the first time it is seen.
    fn loc_alias_id(&mut self, l: Attr) -> usize {
        let i = l.index();
        if i >= self.loc_ids.len() {
            self.loc_ids.resize(i + 1, u32::MAX);
        }
        if self.loc_ids[i] == u32::MAX {
            self.loc_ids[i] = self.locs.len() as u32;
            self.locs.push(l);
        }
        self.loc_ids[i] as usize
    }

    /// `#locN = loc(...)` for alias `i`, the location written out in full.
    fn print_loc_alias_def(&mut self, i: usize) {
        push_loc_alias_name(&mut self.out, i);
        self.out.push_str(" = ");
        let scope = std::mem::replace(&mut self.opts.local_scope, true);
        self.print_loc_inline(self.locs[i]);
        self.opts.local_scope = scope;
        self.out.push('\n');
    }

    /// The aliases of block-argument locations, which MLIR defines before the op.
    fn print_arg_loc_aliases(&mut self) {
        for k in 0..self.arg_locs.len() {
            self.print_loc_alias_def(self.arg_locs[k]);
        }
    }

    /// Prints `loc(...)` in full: MLIR writes block-argument locations inline, never as aliases.
    pub fn print_loc_inline(&mut self, l: Attr) {
        self.out.push_str("loc(");
        self.loc_body(l);
        self.out.push(')');
    }

    /// The deferred location aliases, after the op (those of block arguments went first).
    fn print_loc_aliases(&mut self) {
        let mut before = vec![false; self.locs.len()];
        for &i in &self.arg_locs {
            before[i] = true;
        }
        for (i, done) in before.into_iter().enumerate() {
            if !done {
                self.print_loc_alias_def(i);
                self.maybe_flush();
            }
        }
    }

    fn print_resources(&mut self) {
        if self.ctx.resources.is_empty() && self.ctx.external_resources.is_none() {
            return;
        }
        self.out.push_str("{-#\n");
        let mut sections = Vec::new();
        if !self.ctx.resources.is_empty() {
            let mut s = String::from("  dialect_resources: {\n");
            let n = self.ctx.resources.len();
            for (i, (d, entries)) in self.ctx.resources.iter().enumerate() {
                let _ = writeln!(s, "    {d}: {{");
                let m = entries.len();
                for (j, (k, v)) in entries.iter().enumerate() {
                    let _ = writeln!(s, "      {k}: {v}{}", if j + 1 < m { "," } else { "" });
                }
                let _ = writeln!(s, "    }}{}", if i + 1 < n { "," } else { "" });
            }
            s.push_str("  }");
            sections.push(s);
        }
        if let Some(e) = &self.ctx.external_resources {
            sections.push(format!("  external_resources: {e}"));
        }
        self.out.push_str(&sections.join(",\n"));
        self.out.push_str("\n#-}\n\n");
    }

    fn loc_body(&mut self, l: Attr) {
        let ctx = self.ctx;
        let AttrKind::Loc(loc) = ctx.attr_kind(l) else {
            self.print_attr(l);
            return;
        };
        match loc {
            Location::Unknown => self.out.push_str("unknown"),
            Location::File {
                file,
                line,
                col,
                end,
            } => {
                // Every location of a file names it: escape the name once.
                if self.loc_file.as_ref().is_none_or(|(f, _)| f != file) {
                    let mut quoted = String::new();
                    match ctx.attr_kind(*file) {
                        AttrKind::String { value, .. } => write_escaped(&mut quoted, value),
                        _ => write_escaped(&mut quoted, b""),
                    }
                    self.loc_file = Some((*file, quoted));
                }
                if let Some((_, quoted)) = &self.loc_file {
                    self.out.push_str(quoted);
                }
                self.out.push(':');
                push_u32(&mut self.out, *line);
                self.out.push(':');
                push_u32(&mut self.out, *col);
                match end {
                    Some((Some(el), ec)) if *el != *line => {
                        let _ = write!(self.out, " to {el}:{ec}");
                    }
                    Some((_, ec)) => {
                        let _ = write!(self.out, " to :{ec}");
                    }
                    None => {}
                }
            }
            Location::Name { name, child } => {
                write_escaped(&mut self.out, name.as_bytes());
                if let Some(c) = child {
                    if !matches!(ctx.attr_kind(*c), AttrKind::Loc(Location::Unknown)) {
                        self.out.push('(');
                        self.loc_body(*c);
                        self.out.push(')');
                    }
                }
            }
            Location::CallSite { callee, caller } => {
                self.out.push_str("callsite(");
                self.loc_body(*callee);
                self.out.push_str(" at ");
                self.loc_body(*caller);
                self.out.push(')');
            }
            Location::Fused { metadata, locs } => {
                self.out.push_str("fused");
                if let Some(m) = metadata {
                    self.out.push('<');
                    self.print_attr(*m);
                    self.out.push('>');
                }
                self.out.push('[');
                for (i, &x) in locs.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.loc_body(x);
                }
                self.out.push(']');
            }
        }
    }
}

fn is_identity(m: &AffineMap) -> bool {
    m.num_syms == 0
        && m.results.len() == m.num_dims as usize
        && m.results
            .iter()
            .enumerate()
            .all(|(i, e)| *e == AffineExpr::Dim(i as u32))
}

/// Whether a value is a block argument (for printers that treat them specially).
pub fn is_block_arg(ctx: &Context, v: Value) -> bool {
    matches!(ctx.value_def(v), ValueDef::BlockArg(..))
}

/// A short description of an op for messages: its quoted name.
pub fn print_op_line(ctx: &Context, op: OpId) -> String {
    format!("'{}'", ctx.op_name_str(op))
}
