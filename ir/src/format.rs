//! Declarative assembly formats, modelled on MLIR's `assemblyFormat`.
//!
//! A format such as `` $lhs `,` $rhs attr-dict `:` type($result) `` is data on the op's
//! [`OpDef`]; this module checks it at compile time ([`check_format_const`]), and interprets it to
//! parse and print the op's custom form. Supported elements:
//!
//! | element | meaning |
//! |---|---|
//! | `` `kw` ``, `` `,` `` | a literal keyword or punctuation (` `` ` and `` ` ` `` control spacing) |
//! | `$name` | an operand group, attribute, region or successor, by its declared name |
//! | `type($x)`, `type(operands)`, `type(results)` | the types of a value group |
//! | `functional-type(operands, results)` | `(T...) -> U` |
//! | `attr-dict`, `attr-dict-with-keyword` | remaining attributes, `{...}` / `attributes {...}` |
//! | `operands`, `regions`, `successors` | all of them, comma separated |
//! | `( ... $x^ ... )?` | an optional group, present when its anchor `^` (or first element) is |
//! | `` (`kw` $flag^)? `` | a unit attribute as the anchor: the group's keyword is the whole spelling |
//! | `functional-type($args, $results)` | `(T...) -> U` over two named groups (or `operands`/`results`) |
//! | `custom<Name>($x, type($y), ...)` | the op's registered [`CustomDirective`] `Name` |
//! | `( ... custom<Name>(...)^ ... )?` | a group present when the hook's first argument is |
//! | `` ` ` ``, `` `\n` `` | one space; a new line (a keyword after it gets no space) |
//! | `qualified(...)` | accepted; types and attributes are always printed qualified |
//!
//! Attributes print by their constraint: a keyword enum as its keyword (`slt`), an integer list
//! ([`AttrForm::IntList`](crate::opdef::AttrForm::IntList)) as `[1, 2]`, a symbol name
//! ([`AttrForm::SymbolName`](crate::opdef::AttrForm::SymbolName)) as `@name`, a fixed-type
//! integer without its `: i64`, a unit attribute as nothing (its group's keyword says it).
//!
//! A region element reads its slot's regions (`{...}, {...}` for a variadic slot), gives the
//! entry block the arguments hooks bound for it ([`FormatState::bind_region_args`]) and appends
//! the slot's implicit terminator ([`RegionDef::implicit_terminator`]).

use crate::attrs::{Attr, AttrKind};
use crate::context::{BlockId, Context, OpId, OperationState, RegionId, Value};
use crate::diag::{Diagnostic, Span};
use crate::opdef::{
    Arity, AsmHooks, AttrForm, CustomDirectiveDef, Elide, Format, OpDef, RegionDef, Trait,
};
use crate::syntax::parser::{PResult, Parser, RegionArg, UnresolvedOperand};
use crate::syntax::printer::Printer;
use crate::types::Type;
use std::cell::RefCell;
use std::collections::HashMap;

pub use crate::format_check::{check_format_const, check_unique_names_const};

/// A reference inside `type(...)` / `functional-type(...)`.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeRef {
    /// A named operand or result group.
    Var(&'static str),
    /// All operands.
    Operands,
    /// All results.
    Results,
}

/// One element of a parsed format.
#[derive(Clone, Debug, PartialEq)]
pub enum Elem {
    Literal(&'static str),
    Var {
        name: &'static str,
        anchor: bool,
    },
    Type {
        of: TypeRef,
        anchor: bool,
    },
    FunctionalType(TypeRef, TypeRef),
    AttrDict {
        keyword: bool,
    },
    Operands,
    Regions,
    Successors,
    Optional(Vec<Elem>),
    /// `custom<Name>(args)`: the op's registered directive `Name`; with `^`, the anchor of its
    /// optional group, present when its first argument is.
    Custom {
        name: &'static str,
        args: Vec<CustomArg>,
        anchor: bool,
    },
}

/// An argument of a `custom<Name>(...)` directive, passed to its hooks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CustomArg {
    /// `$x`: the hook reads or writes the operand group, attribute, region or successor `x`.
    Var(&'static str),
    /// `type($x)`: the hook reads or writes the types of the operand or result group `x`.
    Type(&'static str),
}

/// A named parse/print pair that a `custom<Name>(...)` directive calls (MLIR's
/// `parseName`/`printName` beside an op). It lets a format keep everything declarative except the
/// one piece of syntax it cannot say, instead of hand-writing the op's whole parser and printer.
/// Registered in [`OpDef::custom_directives`]; the format check rejects an unregistered name.
#[derive(Clone, Copy)]
pub struct CustomDirective {
    /// The `Name` in `custom<Name>`.
    pub name: &'static str,
    /// Reads the piece at the cursor and records what it read in the state, under the names
    /// its arguments give.
    pub parse: fn(&mut Parser, &mut FormatState, &[CustomArg]) -> PResult<()>,
    /// Writes the piece for `op`; the engine has already written the space before it.
    pub print: fn(&mut Printer, OpId, &[CustomArg]),
}

/// The hand-written parser and printer of an op whose syntax no declarative format can say
/// ([`Format::Custom`]).
#[derive(Clone, Copy)]
pub struct CustomForm {
    /// Reads the op after its name; returns the state to build it from.
    pub parse: fn(&mut Parser, &'static OpDef) -> PResult<OperationState>,
    /// Writes the op after its name (and its results' `%x =`).
    pub print: fn(&mut Printer, OpId),
}

/// The [`Format`] of an op with hand-written hooks: `format: custom_form(&CustomForm { .. })`.
/// The declaration holds them type-erased ([`AsmHooks`](crate::opdef::AsmHooks)), since it
/// cannot name the parser; this and [`directive`] are the only ways to make one, which is what
/// makes reading them back in [`parse_custom`] and [`print_custom`] infallible.
pub const fn custom_form(hooks: &'static CustomForm) -> Format {
    Format::Custom(AsmHooks(hooks))
}

/// A `custom<Name>` directive's entry in [`OpDef::custom_directives`]:
/// `custom_directives: &[directive(&CustomDirective { name, parse, print })]`.
pub const fn directive(hooks: &'static CustomDirective) -> CustomDirectiveDef {
    CustomDirectiveDef {
        name: hooks.name,
        hooks: AsmHooks(hooks),
    }
}

/// The hooks [`directive`] erased.
fn directive_hooks(d: &CustomDirectiveDef) -> &'static CustomDirective {
    d.hooks
        .0
        .downcast_ref()
        .expect("`CustomDirectiveDef`s are made only by `format::directive`")
}

// ----- runtime format parsing -----------------------------------------------------------------

thread_local! {
    static CACHE: RefCell<HashMap<usize, std::rc::Rc<Vec<Elem>>>> = RefCell::new(HashMap::new());
}

/// The parsed elements of a declarative format (cached per format string).
pub fn elements(fmt: &'static str) -> std::rc::Rc<Vec<Elem>> {
    let key = fmt.as_ptr() as usize;
    CACHE.with(|c| {
        if let Some(e) = c.borrow().get(&key) {
            return e.clone();
        }
        let e = std::rc::Rc::new(
            parse_format(fmt).unwrap_or_else(|e| panic!("bad assembly format `{fmt}`: {e}")),
        );
        c.borrow_mut().insert(key, e.clone());
        e
    })
}

/// Parses a format string into elements; errors name the problem.
pub fn parse_format(fmt: &'static str) -> Result<Vec<Elem>, String> {
    let mut pos = 0;
    let elems = parse_elems(fmt, &mut pos, false)?;
    Ok(elems)
}

fn skip(fmt: &str, pos: &mut usize) {
    while *pos < fmt.len() && fmt.as_bytes()[*pos].is_ascii_whitespace() {
        *pos += 1;
    }
}

fn ident(fmt: &'static str, pos: &mut usize) -> &'static str {
    let s = *pos;
    while *pos < fmt.len()
        && (fmt.as_bytes()[*pos].is_ascii_alphanumeric()
            || matches!(fmt.as_bytes()[*pos], b'_' | b'-'))
    {
        *pos += 1;
    }
    &fmt[s..*pos]
}

fn type_ref(fmt: &'static str, pos: &mut usize) -> Result<TypeRef, String> {
    skip(fmt, pos);
    if fmt[*pos..].starts_with('$') {
        *pos += 1;
        return Ok(TypeRef::Var(ident(fmt, pos)));
    }
    match ident(fmt, pos) {
        "operands" => Ok(TypeRef::Operands),
        "results" => Ok(TypeRef::Results),
        other => Err(format!(
            "expected `$name`, `operands` or `results`, found `{other}`"
        )),
    }
}

fn parse_elems(fmt: &'static str, pos: &mut usize, in_group: bool) -> Result<Vec<Elem>, String> {
    let mut out = Vec::new();
    loop {
        skip(fmt, pos);
        if *pos >= fmt.len() {
            if in_group {
                return Err("unterminated optional group".into());
            }
            return Ok(out);
        }
        let rest = &fmt[*pos..];
        let c = rest.as_bytes()[0];
        match c {
            b')' if in_group => {
                *pos += 1;
                skip(fmt, pos);
                if !fmt[*pos..].starts_with('?') {
                    return Err("optional group must end with `)?`".into());
                }
                *pos += 1;
                return Ok(out);
            }
            b'`' => {
                let end = rest[1..].find('`').ok_or("unterminated literal")? + 1;
                out.push(Elem::Literal(&fmt[*pos + 1..*pos + end]));
                *pos += end + 1;
            }
            b'$' => {
                *pos += 1;
                let name = ident(fmt, pos);
                let anchor = fmt[*pos..].starts_with('^');
                if anchor {
                    *pos += 1;
                }
                out.push(Elem::Var { name, anchor });
            }
            b'(' => {
                *pos += 1;
                let g = parse_elems(fmt, pos, true)?;
                out.push(Elem::Optional(g));
            }
            _ => {
                let word = ident(fmt, pos);
                match word {
                    "attr-dict" => out.push(Elem::AttrDict { keyword: false }),
                    "attr-dict-with-keyword" => out.push(Elem::AttrDict { keyword: true }),
                    "operands" => out.push(Elem::Operands),
                    "regions" => out.push(Elem::Regions),
                    "successors" => out.push(Elem::Successors),
                    "custom" => out.push(parse_custom_elem(fmt, pos)?),
                    "type" | "qualified" | "functional-type" => {
                        skip(fmt, pos);
                        if !fmt[*pos..].starts_with('(') {
                            return Err(format!("expected `(` after `{word}`"));
                        }
                        *pos += 1;
                        if word == "functional-type" {
                            let a = type_ref(fmt, pos)?;
                            skip(fmt, pos);
                            if !fmt[*pos..].starts_with(',') {
                                return Err("expected `,` in functional-type".into());
                            }
                            *pos += 1;
                            let b = type_ref(fmt, pos)?;
                            out.push(Elem::FunctionalType(a, b));
                        } else if word == "qualified" {
                            let inner = parse_elems_until_paren(fmt, pos)?;
                            out.extend(inner);
                            continue;
                        } else {
                            let r = type_ref(fmt, pos)?;
                            out.push(Elem::Type {
                                of: r,
                                anchor: false,
                            });
                        }
                        skip(fmt, pos);
                        if !fmt[*pos..].starts_with(')') {
                            return Err(format!("expected `)` to close `{word}(`"));
                        }
                        *pos += 1;
                        if fmt[*pos..].starts_with('^') {
                            *pos += 1;
                            if let Some(Elem::Type { anchor, .. }) = out.last_mut() {
                                *anchor = true;
                            }
                        }
                    }
                    "" => return Err(format!("unexpected character `{}`", c as char)),
                    other => return Err(format!("unknown directive `{other}`")),
                }
            }
        }
    }
}

/// `<Name>(args)` after the word `custom`.
fn parse_custom_elem(fmt: &'static str, pos: &mut usize) -> Result<Elem, String> {
    if !fmt[*pos..].starts_with('<') {
        return Err("expected `<Name>` after `custom`".into());
    }
    *pos += 1;
    let name = ident(fmt, pos);
    if !fmt[*pos..].starts_with('>') {
        return Err("expected `>` after the name in `custom<Name>`".into());
    }
    *pos += 1;
    skip(fmt, pos);
    if !fmt[*pos..].starts_with('(') {
        return Err("expected `(` after `custom<Name>`".into());
    }
    *pos += 1;
    let mut args = Vec::new();
    loop {
        skip(fmt, pos);
        if fmt[*pos..].starts_with(')') {
            *pos += 1;
            let anchor = fmt[*pos..].starts_with('^');
            if anchor {
                *pos += 1;
            }
            return Ok(Elem::Custom { name, args, anchor });
        }
        if fmt[*pos..].starts_with('$') {
            *pos += 1;
            args.push(CustomArg::Var(ident(fmt, pos)));
        } else {
            let w = ident(fmt, pos);
            skip(fmt, pos);
            if w != "type" || !fmt[*pos..].starts_with('(') {
                return Err("a `custom<Name>` argument is `$name` or `type($name)`".into());
            }
            *pos += 1;
            match type_ref(fmt, pos)? {
                TypeRef::Var(n) => args.push(CustomArg::Type(n)),
                _ => return Err("a `custom<Name>` argument is `$name` or `type($name)`".into()),
            }
            skip(fmt, pos);
            if !fmt[*pos..].starts_with(')') {
                return Err("expected `)` to close `type(`".into());
            }
            *pos += 1;
        }
        skip(fmt, pos);
        if fmt[*pos..].starts_with(',') {
            *pos += 1;
        }
    }
}

fn parse_elems_until_paren(fmt: &'static str, pos: &mut usize) -> Result<Vec<Elem>, String> {
    // `qualified(type($x))` / `qualified($attr)`: parse one element then `)`.
    skip(fmt, pos);
    let start = *pos;
    let mut depth = 0;
    while *pos < fmt.len() {
        match fmt.as_bytes()[*pos] {
            b'(' => depth += 1,
            b')' if depth == 0 => break,
            b')' => depth -= 1,
            _ => {}
        }
        *pos += 1;
    }
    let inner: &'static str = &fmt[start..*pos];
    *pos += 1;
    let mut p = 0;
    parse_elems(inner, &mut p, false)
}

/// Whether a definition has a custom form at all.
pub fn has_custom_form(def: &OpDef) -> bool {
    !matches!(def.format, Format::Generic)
}

// ----- parsing ops ----------------------------------------------------------------------------

/// What a format has read so far for one op; `custom<Name>` hooks record their piece in it.
#[derive(Default)]
pub struct FormatState {
    operands: HashMap<&'static str, Vec<UnresolvedOperand>>,
    all_operands: Option<Vec<UnresolvedOperand>>,
    types: HashMap<&'static str, Vec<Type>>,
    all_operand_types: Option<Vec<Type>>,
    all_result_types: Option<Vec<Type>>,
    attrs: Vec<(String, Attr)>,
    regions: HashMap<&'static str, Vec<RegionId>>,
    all_regions: Vec<RegionId>,
    successors: HashMap<&'static str, Vec<BlockId>>,
    all_successors: Vec<BlockId>,
    region_args: HashMap<&'static str, Vec<BoundArgs>>,
}

/// The types of entry-block arguments that a `custom<Name>` hook bound by name.
#[derive(Clone, Copy, Debug)]
pub enum ArgTypes {
    /// Every name has this type (`scf.parallel`'s induction variables are `index`).
    Fixed(Type),
    /// The names take the types of this operand or result group, in order, once the format has
    /// read them (`scf.while`'s `(%x = %init)` takes the types of `$inits`).
    Of(&'static str),
}

/// Names a hook bound for a region's entry block, with where their types come from.
struct BoundArgs {
    names: Vec<(String, Span)>,
    types: ArgTypes,
}

impl FormatState {
    /// Records attribute `name` (a declared one becomes a property).
    pub fn set_attr(&mut self, name: &str, a: Attr) {
        self.attrs.push((name.to_string(), a));
    }

    /// Records the operands of group `name`, resolved once their types are known.
    pub fn set_operands(&mut self, name: &'static str, v: Vec<UnresolvedOperand>) {
        self.operands.insert(name, v);
    }

    /// Records the types of operand or result group `name`.
    pub fn set_types(&mut self, name: &'static str, ts: Vec<Type>) {
        self.types.insert(name, ts);
    }

    /// How many operands group `name` has, once the format has read it.
    pub fn operand_count(&self, name: &str) -> Option<usize> {
        self.operands.get(name).map(|v| v.len())
    }

    /// The types of operand or result group `name`, once the format has read them.
    pub fn types(&self, name: &str) -> Option<&[Type]> {
        self.types.get(name).map(|v| v.as_slice())
    }

    /// Records the regions of region slot `name` (all of a variadic slot).
    pub fn set_regions(&mut self, name: &'static str, rs: Vec<RegionId>) {
        self.regions.insert(name, rs);
    }

    /// Records the successors of successor slot `name` (all of a variadic slot).
    pub fn set_successors(&mut self, name: &'static str, bs: Vec<BlockId>) {
        self.successors.insert(name, bs);
    }

    /// Binds SSA names for the entry-block arguments of region `name`, after any bound before:
    /// MLIR's region arguments written in an op's header (`(%i) = ...`, `iter_args(%a = %b)`).
    /// The region element that reads the region later gives its block these arguments, and the
    /// printer leaves the entry block's label out, since the hook prints the names.
    pub fn bind_region_args(
        &mut self,
        region: &'static str,
        names: Vec<(String, Span)>,
        types: ArgTypes,
    ) {
        self.region_args
            .entry(region)
            .or_default()
            .push(BoundArgs { names, types });
    }

    /// How many entry-block arguments hooks have bound for region `name` so far.
    pub fn bound_arg_count(&self, region: &str) -> usize {
        self.region_args
            .get(region)
            .map_or(0, |v| v.iter().map(|b| b.names.len()).sum())
    }
}

/// Parses the custom form of `def` after its name. `num_results` is how many result names the
/// text bound (0 when none were written).
pub fn parse_custom(
    p: &mut Parser,
    def: &'static OpDef,
    num_results: usize,
) -> PResult<OperationState> {
    match def.format {
        Format::Custom(hooks) => {
            let form: &CustomForm = hooks
                .0
                .downcast_ref()
                .expect("`Format::Custom` is made only by `format::custom_form`");
            (form.parse)(p, def)
        }
        Format::Declarative(f) => {
            let elems = elements(f);
            let mut st = FormatState::default();
            parse_elems_rt(p, def, &elems, &mut st)?;
            finish(p, def, st, num_results)
        }
        Format::Generic => Err(p.err_here(format!(
            "'{}' has no custom assembly form; write it in generic form",
            def.name
        ))),
    }
}

fn var_kind(def: &OpDef, name: &str) -> u8 {
    crate::format_check::name_kind(def, name.as_bytes())
}

fn operand_def<'d>(def: &'d OpDef, name: &str) -> Option<&'d crate::opdef::ValueDef> {
    def.operands.iter().find(|o| o.name == name)
}
fn result_def<'d>(def: &'d OpDef, name: &str) -> Option<&'d crate::opdef::ValueDef> {
    def.results.iter().find(|o| o.name == name)
}

fn parse_operand_list(p: &mut Parser) -> PResult<Vec<UnresolvedOperand>> {
    let mut v = Vec::new();
    if p.peek() == Some(b'%') {
        v.push(p.parse_operand()?);
        while p.peek_str(",") {
            let save = p.pos();
            p.eat(",");
            if p.peek() != Some(b'%') {
                p.set_pos(save);
                break;
            }
            v.push(p.parse_operand()?);
        }
    }
    Ok(v)
}

fn parse_type_list(p: &mut Parser) -> PResult<Vec<Type>> {
    let mut v = vec![p.parse_type()?];
    while p.eat(",") {
        v.push(p.parse_type()?);
    }
    Ok(v)
}

/// Whether the first element of an optional group is present at the cursor.
fn group_present(p: &mut Parser, def: &OpDef, first: &Elem) -> bool {
    match first {
        Elem::Literal(l) => {
            if l.as_bytes()[0].is_ascii_alphabetic() || l.starts_with('_') {
                let save = p.pos();
                let ok = p.eat_keyword(l);
                p.set_pos(save);
                ok
            } else {
                p.peek_str(l)
            }
        }
        Elem::Var { name, .. } => match var_kind(def, name) {
            1 => p.peek() == Some(b'%'),
            4 => p.peek() == Some(b'{'),
            5 => p.peek() == Some(b'^'),
            3 => {
                let save = p.pos();
                // An enum attribute is written as one of its keywords, not as an attribute.
                let keywords = def.attr(name).map_or(&[][..], |a| a.constraint.keywords);
                let form = def
                    .attr(name)
                    .map_or(AttrForm::Plain, |a| a.constraint.form);
                let ok = if form == AttrForm::SymbolName {
                    p.peek() == Some(b'@')
                } else if matches!(form, AttrForm::IntList(_)) && p.peek() == Some(b'[') {
                    true
                } else if keywords.is_empty() {
                    p.parse_attribute().is_ok()
                } else {
                    p.parse_keyword_or_string()
                        .is_ok_and(|(kw, _)| keywords.contains(&kw.as_str()))
                };
                p.set_pos(save);
                ok
            }
            _ => false,
        },
        Elem::Type { .. } | Elem::FunctionalType(..) => {
            let save = p.pos();
            let ok = p.parse_type().is_ok();
            p.set_pos(save);
            ok
        }
        Elem::AttrDict { keyword } => {
            if *keyword {
                let save = p.pos();
                let ok = p.eat_keyword("attributes");
                p.set_pos(save);
                ok
            } else {
                p.peek() == Some(b'{')
            }
        }
        Elem::Operands => p.peek() == Some(b'%'),
        Elem::Regions => p.peek() == Some(b'{'),
        Elem::Successors => p.peek() == Some(b'^'),
        // The format check keeps both from starting a group.
        Elem::Optional(_) | Elem::Custom { .. } => false,
    }
}

fn is_unit(ad: &crate::opdef::AttrDef) -> bool {
    ad.constraint.desc == crate::opdef::UNIT_ATTR.desc
}

/// `[1, 2, 3]` as an `array<iN: ...>` of the constraint's element width.
fn parse_int_list(p: &mut Parser, name: &str, width: u32) -> PResult<Attr> {
    p.expect("[")?;
    let mut values = Vec::new();
    if !p.eat("]") {
        loop {
            p.skip_ws();
            let start = p.pos();
            let text = p.parse_number_text().map(|(t, _)| t);
            let sp = Span::new(start, p.pos().max(start + 1));
            match text.ok().and_then(|t| t.parse::<i64>().ok()) {
                Some(v) if fits_width(v, width) => values.push(v),
                _ => {
                    return Err(Diagnostic::at(
                        sp,
                        format!("expected an i{width} integer in the list '{name}'"),
                    ))
                }
            }
            if p.eat("]") {
                break;
            }
            p.expect(",")?;
        }
    }
    Ok(p.ctx.int_array_attr(width, &values))
}

fn fits_width(v: i64, width: u32) -> bool {
    width >= 64 || (v >= -(1i64 << (width - 1)) && v < (1i64 << width))
}

/// Literals that only control spacing: `` ` ` ``, ``` `` ``` and `` `\n` ``.
fn is_spacing(e: &Elem) -> bool {
    matches!(e, Elem::Literal(l) if l.is_empty() || *l == " " || *l == "\\n")
}

/// Whether the `{` at the cursor opens an attribute dictionary (`{name = ...`, `{name}`) rather
/// than a region: how a variadic region list, which may be empty, ends before `attr-dict`.
fn looks_like_attr_dict(p: &Parser) -> bool {
    let rest = &p.src()[p.pos()..];
    let inner = rest[1..].trim_start();
    let ident_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'))
        .unwrap_or(inner.len());
    if ident_end == 0 {
        // `"quoted" = ...` is an attribute name; an op in generic form starts with `"` too.
        return inner.starts_with('"') && !inner.contains("\"(");
    }
    let after = inner[ident_end..].trim_start();
    after.starts_with('=')
        || after.starts_with(',')
        || after.starts_with('}') && !inner[..ident_end].contains('.')
}

/// A region without a declared slot (the `regions` directive), and the body of one with a slot.
/// As MLIR's generated parsers do, a single-block op without a terminator gets its block even
/// when the text's region is empty (`builtin.module {}`).
fn parse_region_plain(p: &mut Parser, def: &OpDef) -> PResult<RegionId> {
    parse_region_with(p, def, vec![])
}

fn parse_region_with(p: &mut Parser, def: &OpDef, args: Vec<RegionArg>) -> PResult<RegionId> {
    p.push_default_dialect(def.default_dialect);
    let r = p.parse_region(args, def.is_isolated());
    p.pop_default_dialect();
    let r = r?;
    if def.has(Trait::SingleBlock)
        && def.has(Trait::NoTerminator)
        && p.ctx.region_blocks(r).is_empty()
    {
        let b = p.ctx.create_block(&[]);
        p.ctx.push_block(r, b);
    }
    Ok(r)
}

/// A region of a declared slot: its entry block gets the arguments hooks bound for it, and its
/// implicit terminator when the text leaves it out.
fn parse_region_elem(
    p: &mut Parser,
    def: &OpDef,
    rd: &RegionDef,
    st: &mut FormatState,
) -> PResult<RegionId> {
    let mut args = Vec::new();
    for b in st.region_args.remove(rd.name).unwrap_or_default() {
        let types: Vec<Type> = match b.types {
            ArgTypes::Fixed(t) => vec![t; b.names.len()],
            ArgTypes::Of(group) => st.types.get(group).cloned().unwrap_or_default(),
        };
        if types.len() != b.names.len() {
            let sp = match (b.names.first(), b.names.last()) {
                (Some(f), Some(l)) => Span::new(f.1.start, l.1.end),
                _ => Span::at(p.pos()),
            };
            return Err(Diagnostic::at(
                sp,
                format!(
                    "'{}' binds {} arguments of region '{}' but the format gives {} types for them",
                    def.name,
                    b.names.len(),
                    rd.name,
                    types.len()
                ),
            ));
        }
        for ((name, span), ty) in b.names.into_iter().zip(types) {
            args.push(RegionArg {
                name,
                ty,
                loc: None,
                span,
            });
        }
    }
    let r = parse_region_with(p, def, args)?;
    if let Some(it) = rd.implicit_terminator {
        add_implicit_terminator(p, r, it.op);
    }
    Ok(r)
}

/// Appends `term` to the single block of `r` unless the block already ends in it (MLIR's
/// `ensureTerminator`); hand-written parsers of ops with an implicit terminator (`scf.for`'s
/// body) call it too, so both paths build the same op.
pub fn add_implicit_terminator(p: &mut Parser, r: RegionId, term: &'static OpDef) {
    let b = match p.ctx.region_blocks(r).first() {
        Some(b) => *b,
        None => {
            let b = p.ctx.create_block(&[]);
            p.ctx.push_block(r, b);
            b
        }
    };
    let has = p
        .ctx
        .block_last(b)
        .is_some_and(|o| p.ctx.op_name_str(o) == term.name);
    if has {
        return;
    }
    let regions = term
        .regions
        .iter()
        .filter(|rd| !rd.variadic)
        .map(|_| {
            let r = p.ctx.create_region();
            let blk = p.ctx.create_block(&[]);
            p.ctx.push_block(r, blk);
            r
        })
        .collect();
    let name = p.ctx.op_name(term.name);
    let loc = p.ctx.unknown_loc();
    let t = p
        .ctx
        .create_op(OperationState::new(name, loc).with_regions(regions));
    p.ctx.append_op(b, t);
    p.mark_implicit(t);
}

/// Prints a region of the format; the pair of [`parse_region_plain`] and [`parse_region_elem`]:
/// an empty entry block without arguments is left unlabeled when the op needs no terminator,
/// since the parser gives the block back; so is the entry block of a region whose arguments a
/// `custom<Name>` hook prints (`bound`), and an implicit terminator as its [`Elide`] says.
fn print_region_elem(
    pr: &mut Printer,
    def: &OpDef,
    rd: Option<&RegionDef>,
    op: OpId,
    r: RegionId,
    bound: bool,
) {
    let ctx = pr.ctx;
    let bare_entry = def.has(Trait::NoTerminator)
        && ctx
            .region_blocks(r)
            .first()
            .is_some_and(|b| ctx.block_args(*b).is_empty());
    let terminators = match rd.and_then(|rd| rd.implicit_terminator) {
        None => true,
        Some(it) => match it.elide {
            Elide::Never => true,
            Elide::WhenOpHasNoResults => !ctx.results(op).is_empty(),
            Elide::WhenEmpty => !ctx
                .region_blocks(r)
                .first()
                .and_then(|b| ctx.block_last(*b))
                .is_some_and(|t| {
                    ctx.op_name_str(t) == it.op.name
                        && ctx.operands(t).is_empty()
                        && ctx.results(t).is_empty()
                        && ctx.attrs(t).is_empty()
                        && ctx.op(t).properties.is_none()
                }),
        },
    };
    pr.print_region(r, !bare_entry && !bound, terminators);
}

/// The regions of a named region slot; the slots around the one variadic slot are matched by
/// position.
pub fn region_group(ctx: &Context, def: &OpDef, op: OpId, name: &str) -> Vec<RegionId> {
    let regions = ctx.regions(op);
    let fixed = def.regions.iter().filter(|r| !r.variadic).count();
    let extra = regions.len().saturating_sub(fixed);
    let mut start = 0;
    for rd in def.regions {
        let n = if rd.variadic { extra } else { 1 };
        if rd.name == name {
            let end = (start + n).min(regions.len());
            return regions[start.min(end)..end].to_vec();
        }
        start += n;
    }
    Vec::new()
}

fn parse_elems_rt(
    p: &mut Parser,
    def: &'static OpDef,
    elems: &[Elem],
    st: &mut FormatState,
) -> PResult<()> {
    for e in elems {
        match e {
            Elem::Literal(_) if is_spacing(e) => {}
            Elem::Literal(l) => {
                if l.as_bytes()[0].is_ascii_alphabetic() || l.starts_with('_') {
                    p.expect_keyword(l)?;
                } else {
                    p.expect(l)?;
                }
            }
            Elem::Var { name, .. } => match var_kind(def, name) {
                1 => {
                    let od = operand_def(def, name).unwrap();
                    let v = match od.arity {
                        Arity::Single => vec![p.parse_operand()?],
                        Arity::Optional => {
                            if p.peek() == Some(b'%') {
                                vec![p.parse_operand()?]
                            } else {
                                vec![]
                            }
                        }
                        Arity::Variadic => parse_operand_list(p)?,
                    };
                    st.operands.insert(name, v);
                }
                3 => {
                    let ad = def.attr(name).unwrap();
                    p.skip_ws();
                    let start = p.pos();
                    let list_width = match ad.constraint.form {
                        AttrForm::IntList(w) => Some(w),
                        _ => None,
                    };
                    let a = match ad.constraint.value_type {
                        // The group's keyword was the whole spelling (the check makes a unit
                        // attribute an anchor after a keyword).
                        _ if is_unit(ad) => p.ctx.attr(AttrKind::Unit),
                        // A string slot reads the literal alone, so a `:` after it stays the
                        // format's (an attribute would take `"s" : type` as a typed string).
                        _ if p.peek() == Some(b'"')
                            && ad.constraint.desc == crate::opdef::STR_ATTR.desc =>
                        {
                            let (value, _) = p.parse_string_literal()?;
                            p.ctx.attr(AttrKind::String { value, ty: None })
                        }
                        _ if ad.constraint.form == AttrForm::SymbolName => {
                            let (sym, _) = p.parse_symbol_name()?;
                            p.ctx.str_attr(&sym)
                        }
                        _ if list_width.is_some() && p.peek() == Some(b'[') => {
                            parse_int_list(p, name, list_width.unwrap_or(64))?
                        }
                        _ if ad.constraint.short_form.is_some() => {
                            let (d, n) = ad.constraint.short_form.unwrap();
                            let body = p.parse_pretty_body()?;
                            let kind = AttrKind::Dialect {
                                dialect: d.into(),
                                name: n.into(),
                                body: Some(body),
                            };
                            let sp = Span::new(start, p.pos());
                            p.ctx
                                .registered_attr(&kind)
                                .map_err(|e| crate::syntax::parser::symbol_diag(sp, e, true))?
                        }
                        _ if !ad.constraint.keywords.is_empty() => {
                            let (kw, sp) = p.parse_keyword_or_string()?;
                            let Some(i) = ad.constraint.keywords.iter().position(|k| *k == kw)
                            else {
                                return Err(Diagnostic::at(
                                    sp,
                                    format!(
                                        "expected {} for '{}', one of: {}, but found '{kw}'",
                                        ad.constraint.desc,
                                        name,
                                        ad.constraint.keywords.join(", ")
                                    ),
                                ));
                            };
                            // The enum's integer type (`i64` for predicates, `i32` for
                            // rounding modes), as the constraint declares it.
                            let t = match ad.constraint.value_type {
                                Some(vt) => vt(p.ctx),
                                None => p.ctx.int_type(64),
                            };
                            p.number_attr_typed(&i.to_string(), t, sp)?
                        }
                        Some(vt) if p.peek().is_some_and(|c| c.is_ascii_digit() || c == b'-') => {
                            let (text, sp) = p.parse_number_text()?;
                            let t = vt(p.ctx);
                            p.number_attr_typed(&text, t, sp)?
                        }
                        _ => p.parse_attribute()?,
                    };
                    p.note_attr_span(name, Span::new(start, p.pos()));
                    st.attrs.push((name.to_string(), a));
                }
                4 => {
                    let rd = def.regions.iter().find(|r| r.name == *name).unwrap();
                    let mut rs = Vec::new();
                    if rd.variadic {
                        // `{...}, {...}`, possibly none: a `{` that opens the attribute
                        // dictionary after the list is not a region.
                        if p.peek() == Some(b'{') && !looks_like_attr_dict(p) {
                            rs.push(parse_region_elem(p, def, rd, st)?);
                            // After a `,` another region must follow.
                            while p.eat(",") {
                                rs.push(parse_region_elem(p, def, rd, st)?);
                            }
                        }
                    } else {
                        rs.push(parse_region_elem(p, def, rd, st)?);
                    }
                    st.regions.insert(name, rs);
                }
                5 => {
                    let b = p.parse_successor_ref()?;
                    st.successors.insert(name, vec![b]);
                }
                _ => {
                    return Err(p.err_here(format!(
                        "'{}' cannot be parsed by its format (result `${name}`)",
                        def.name
                    )))
                }
            },
            Elem::Type { of, .. } => match of {
                TypeRef::Var(name) => {
                    let kind = var_kind(def, name);
                    let arity = if kind == 1 {
                        operand_def(def, name).unwrap().arity
                    } else {
                        result_def(def, name).unwrap().arity
                    };
                    let ts = match arity {
                        Arity::Single => vec![p.parse_type()?],
                        Arity::Optional | Arity::Variadic => {
                            let n = if kind == 1 {
                                st.operands.get(name).map(|v| v.len())
                            } else {
                                None
                            };
                            match n {
                                Some(0) => vec![],
                                Some(n) => {
                                    // Read the whole list, then compare: a count mismatch is one
                                    // clear error rather than a confusing one at the next token.
                                    p.skip_ws();
                                    let ts_start = p.pos();
                                    let v = parse_type_list(p)?;
                                    if v.len() != n {
                                        return Err(Diagnostic::at(
                                            Span::new(ts_start, p.pos()),
                                            format!(
                                                "custom op '{}' number of operands and types do not match: got {n} operands and {} types",
                                                def.name,
                                                v.len()
                                            ),
                                        ));
                                    }
                                    v
                                }
                                // `-> ()`: no results.
                                None if p.peek() == Some(b')') => vec![],
                                None => parse_type_list(p)?,
                            }
                        }
                    };
                    st.types.insert(name, ts);
                }
                TypeRef::Operands => {
                    let n = st.all_operands.as_ref().map(|v| v.len());
                    let ts = match n {
                        Some(0) => vec![],
                        _ => parse_type_list(p)?,
                    };
                    st.all_operand_types = Some(ts);
                }
                TypeRef::Results => {
                    let ts = if def.results.iter().all(|r| r.arity != Arity::Single)
                        && !p
                            .peek()
                            .is_some_and(|c| c == b'!' || c == b'(' || c.is_ascii_alphabetic())
                    {
                        vec![]
                    } else {
                        parse_type_list(p)?
                    };
                    st.all_result_types = Some(ts);
                }
            },
            Elem::FunctionalType(ins, outs) => {
                p.skip_ws();
                let start = p.pos();
                let t = p.parse_type()?;
                match p.ctx.type_kind(t).clone() {
                    crate::types::TypeKind::Function { inputs, results } => {
                        match ins {
                            TypeRef::Var(n) => {
                                st.types.insert(n, inputs);
                            }
                            _ => st.all_operand_types = Some(inputs),
                        }
                        match outs {
                            TypeRef::Var(n) => {
                                st.types.insert(n, results);
                            }
                            _ => st.all_result_types = Some(results),
                        }
                    }
                    _ => {
                        return Err(Diagnostic::at(
                            Span::new(start, p.pos()),
                            "expected a function type `(inputs) -> results`",
                        ))
                    }
                }
            }
            Elem::Custom { name, args, .. } => {
                let Some(d) = def.custom_directives.iter().find(|d| d.name == *name) else {
                    return Err(
                        p.err_here(format!("'{}' has no custom directive '{name}'", def.name))
                    );
                };
                (directive_hooks(d).parse)(p, st, args)?;
            }
            Elem::AttrDict { keyword } => {
                let present = if *keyword {
                    p.eat_keyword("attributes")
                } else {
                    p.peek() == Some(b'{')
                };
                if present {
                    for (k, v, sp) in p.parse_attr_dict()? {
                        if st.attrs.iter().any(|(k2, _)| *k2 == k) {
                            return Err(Diagnostic::at(
                                sp,
                                format!(
                                    "attribute '{k}' occurs more than once in the attribute list"
                                ),
                            ));
                        }
                        p.note_attr_span(&k, sp);
                        st.attrs.push((k, v));
                    }
                }
            }
            Elem::Operands => st.all_operands = Some(parse_operand_list(p)?),
            Elem::Regions => {
                while p.peek() == Some(b'{') {
                    let r = parse_region_plain(p, def)?;
                    st.all_regions.push(r);
                    if !p.eat(",") {
                        break;
                    }
                }
            }
            Elem::Successors => {
                while p.peek() == Some(b'^') {
                    st.all_successors.push(p.parse_successor_ref()?);
                    if !p.eat(",") {
                        break;
                    }
                }
            }
            Elem::Optional(g) => {
                if let Some(first) = g.iter().find(|e| !is_spacing(e)) {
                    if group_present(p, def, first) {
                        parse_elems_rt(p, def, g, st)?;
                    }
                }
            }
        }
    }
    Ok(())
}

fn finish(
    p: &mut Parser,
    def: &'static OpDef,
    mut st: FormatState,
    num_results: usize,
) -> PResult<OperationState> {
    let here = Span::at(p.pos());
    // Operand groups in declaration order.
    let mut groups: Vec<Vec<UnresolvedOperand>> = Vec::new();
    if let Some(all) = st.all_operands.take() {
        // `operands`: distribute over the declared slots (only one variadic slot is allowed).
        let singles = def
            .operands
            .iter()
            .filter(|o| o.arity == Arity::Single)
            .count();
        let extra = all.len().saturating_sub(singles);
        let mut it = all.into_iter();
        for o in def.operands {
            let n = match o.arity {
                Arity::Single => 1,
                _ => extra,
            };
            groups.push(it.by_ref().take(n).collect());
        }
    } else {
        for o in def.operands {
            groups.push(st.operands.remove(o.name).unwrap_or_default());
        }
    }
    // Known types.
    let mut op_types: Vec<Option<Vec<Type>>> = def
        .operands
        .iter()
        .map(|o| st.types.get(o.name).cloned())
        .collect();
    if let Some(all) = st.all_operand_types.take() {
        let total: usize = groups.iter().map(|g| g.len()).sum();
        if all.len() != total {
            return Err(Diagnostic::at(
                here,
                format!(
                    "'{}' expects {} operand types but {} were given",
                    def.name,
                    total,
                    all.len()
                ),
            ));
        }
        let mut it = all.into_iter();
        for (i, g) in groups.iter().enumerate() {
            op_types[i] = Some(it.by_ref().take(g.len()).collect());
        }
    }
    let mut res_types: Vec<Option<Vec<Type>>> = def
        .results
        .iter()
        .map(|r| st.types.get(r.name).cloned())
        .collect();
    if let Some(all) = st.all_result_types.take() {
        let singles = def
            .results
            .iter()
            .filter(|r| r.arity == Arity::Single)
            .count();
        let extra = all.len().saturating_sub(singles);
        let mut it = all.into_iter();
        for (i, r) in def.results.iter().enumerate() {
            let n = if r.arity == Arity::Single { 1 } else { extra };
            res_types[i] = Some(it.by_ref().take(n).collect());
        }
    }
    // Inference: one shared type, a buildable constraint, or a constant's value type.
    let same_all = def.has(Trait::SameOperandsAndResultType);
    let same_ops = same_all || def.has(Trait::SameTypeOperands);
    let known: Option<Type> = op_types
        .iter()
        .chain(if same_all {
            res_types.iter()
        } else {
            [].iter()
        })
        .flatten()
        .flat_map(|v| v.first().copied())
        .next();
    // `AllTypesMatch`: a member with a known type gives it to the others.
    let mut matched: Option<Type> = None;
    let mut members: &[&str] = &[];
    for t in def.traits {
        if let Trait::AllTypesMatch(names) = t {
            members = names;
            for (i, o) in def.operands.iter().enumerate() {
                if names.contains(&o.name) {
                    if let Some(Some(t)) = op_types[i].as_ref().map(|v| v.first().copied()) {
                        matched = Some(t);
                    }
                }
            }
            for (i, r) in def.results.iter().enumerate() {
                if names.contains(&r.name) {
                    if let Some(Some(t)) = res_types[i].as_ref().map(|v| v.first().copied()) {
                        matched = Some(t);
                    }
                }
            }
        }
    }
    for (i, o) in def.operands.iter().enumerate() {
        if op_types[i].is_none() {
            let n = groups[i].len();
            let t = if same_ops { known } else { None }
                .or(if members.contains(&o.name) {
                    matched
                } else {
                    None
                })
                .or_else(|| o.ty.build.map(|b| b(p.ctx)));
            match t {
                Some(t) => op_types[i] = Some(vec![t; n]),
                None if n == 0 => op_types[i] = Some(vec![]),
                None => {
                    return Err(Diagnostic::at(here, format!("'{}': the format does not give the type of operand '{}' and it cannot be inferred", def.name, o.name)))
                }
            }
        }
    }
    for (i, r) in def.results.iter().enumerate() {
        if res_types[i].is_none() {
            let t = if same_all { known } else { None }
                .or(if members.contains(&r.name) {
                    matched
                } else {
                    None
                })
                .or_else(|| r.ty.build.map(|b| b(p.ctx)))
                .or_else(|| {
                    let first = op_types.first()?.as_ref()?.first().copied()?;
                    def.infer_result.map(|f| f(p.ctx, first))
                })
                .or_else(|| {
                    if def.has(Trait::ConstantLike) {
                        st.attrs
                            .iter()
                            .find(|(k, _)| k == "value")
                            .and_then(|(_, a)| crate::opdef::typed_attr_type(p.ctx, *a))
                    } else {
                        None
                    }
                });
            match t {
                Some(t) => res_types[i] = Some(if r.arity == Arity::Single { vec![t] } else { vec![t; num_results.saturating_sub(def.results.len() - 1)] }),
                // A variadic group whose optional part of the format was absent
                // (`scf.if %c {` without `-> (...)`) has no results.
                None if r.arity != Arity::Single => res_types[i] = Some(vec![]),
                None => {
                    return Err(Diagnostic::at(here, format!("'{}': the format does not give the type of result '{}' and it cannot be inferred", def.name, r.name)))
                }
            }
        }
    }
    // Resolve operands.
    let mut operands = Vec::new();
    let mut segments = Vec::new();
    for (g, ts) in groups.iter().zip(op_types.iter()) {
        let ts = ts.as_ref().unwrap();
        if ts.len() != g.len() {
            let sp = g.first().map(|u| u.span).unwrap_or(here);
            return Err(Diagnostic::at(
                sp,
                format!(
                    "'{}': {} operands but {} types",
                    def.name,
                    g.len(),
                    ts.len()
                ),
            ));
        }
        for (u, t) in g.iter().zip(ts) {
            operands.push(p.resolve_operand(u, *t)?);
        }
        segments.push(g.len());
    }
    let result_types: Vec<Type> = res_types.into_iter().flatten().flatten().collect();
    // Properties: declared attributes; everything else stays discardable.
    let mut props = Vec::new();
    let mut attrs = Vec::new();
    for (k, v) in st.attrs {
        if def.attr(&k).is_some() {
            props.push((k, v));
        } else {
            attrs.push((k, v));
        }
    }
    if def.has(Trait::AttrSizedOperandSegments) {
        let values: Vec<i64> = segments.iter().map(|&n| n as i64).collect();
        let a = p.ctx.int_array_attr(32, &values);
        props.push(("operandSegmentSizes".into(), a));
    }
    let properties = if props.is_empty() {
        None
    } else {
        Some(p.ctx.dict_attr(props))
    };
    // Regions in declaration order. A declared region that was optional in the format and
    // absent is an empty region; an absent variadic slot has none.
    let mut regions: Vec<RegionId> = Vec::new();
    if st.regions.is_empty() {
        regions = st.all_regions;
        let fixed = def.regions.iter().filter(|r| !r.variadic).count();
        while regions.len() < fixed {
            regions.push(p.ctx.create_region());
        }
    } else {
        for rd in def.regions {
            match st.regions.remove(rd.name) {
                Some(rs) => regions.extend(rs),
                None if !rd.variadic => regions.push(p.ctx.create_region()),
                None => {}
            }
        }
    }
    let mut successors: Vec<BlockId> = def
        .successors
        .iter()
        .flat_map(|s| st.successors.remove(s.name).unwrap_or_default())
        .collect();
    successors.extend(st.all_successors);
    let name = p.ctx.op_name(def.name);
    let loc = p.ctx.unknown_loc();
    Ok(OperationState {
        name,
        operands,
        result_types,
        properties,
        attrs,
        regions,
        successors,
        loc,
    })
}

// ----- printing ops ---------------------------------------------------------------------------

/// Prints the custom form of `op` after its result names.
pub fn print_custom(pr: &mut Printer, def: &'static OpDef, op: OpId) {
    pr.print_op_name(def);
    match def.format {
        Format::Custom(hooks) => {
            let form: &CustomForm = hooks
                .0
                .downcast_ref()
                .expect("`Format::Custom` is made only by `format::custom_form`");
            (form.print)(pr, op)
        }
        Format::Declarative(f) => {
            let elems = elements(f);
            let mut printed = Vec::new();
            collect_printed_attrs(&elems, &mut printed);
            let mut bound = Vec::new();
            collect_hook_regions(def, &elems, &mut bound);
            let mut space = true;
            print_elems(pr, def, op, &elems, &mut space, &printed, &bound);
        }
        Format::Generic => unreachable!(),
    }
}

/// The regions that `custom<Name>` hooks take: their entry-block arguments are the hook's to
/// print (see [`FormatState::bind_region_args`]).
fn collect_hook_regions(def: &OpDef, elems: &[Elem], out: &mut Vec<&'static str>) {
    for e in elems {
        match e {
            Elem::Optional(g) => collect_hook_regions(def, g, out),
            Elem::Custom { args, .. } => {
                for a in args {
                    if let CustomArg::Var(n) = a {
                        if var_kind(def, n) == 4 {
                            out.push(n);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

fn collect_printed_attrs(elems: &[Elem], out: &mut Vec<&'static str>) {
    for e in elems {
        match e {
            Elem::Var { name, .. } => out.push(name),
            Elem::Optional(g) => collect_printed_attrs(g, out),
            Elem::Custom { args, .. } => {
                for a in args {
                    if let CustomArg::Var(n) = a {
                        out.push(n);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The types of operand or result group `name` of `op`: what a `custom<Name>` hook prints for
/// its `type($name)` argument.
pub fn group_types(ctx: &Context, op: OpId, name: &str) -> Vec<Type> {
    let Some(def) = ctx.op_def(op) else {
        return Vec::new();
    };
    let vs = match var_kind(def, name) {
        1 => operand_group(ctx, def, op, name),
        2 => result_group(ctx, def, op, name),
        _ => Vec::new(),
    };
    vs.iter().map(|v| ctx.value_type(*v)).collect()
}

/// Values of a named operand group.
pub fn operand_group(ctx: &Context, def: &OpDef, op: OpId, name: &str) -> Vec<Value> {
    let operands = ctx.operands(op);
    let idx = def.operands.iter().position(|o| o.name == name).unwrap();
    let sizes = segment_sizes(ctx, def, op, operands.len());
    let start: usize = sizes[..idx].iter().sum();
    operands[start..start + sizes[idx]].to_vec()
}

/// Values of a named result group.
pub fn result_group(ctx: &Context, def: &OpDef, op: OpId, name: &str) -> Vec<Value> {
    let results = ctx.results(op);
    let idx = def.results.iter().position(|o| o.name == name).unwrap();
    let singles = def
        .results
        .iter()
        .filter(|r| r.arity == Arity::Single)
        .count();
    let extra = results.len().saturating_sub(singles);
    let sizes: Vec<usize> = def
        .results
        .iter()
        .map(|r| if r.arity == Arity::Single { 1 } else { extra })
        .collect();
    let start: usize = sizes[..idx].iter().sum();
    results[start..(start + sizes[idx]).min(results.len())].to_vec()
}

/// The size of each declared operand group of `op`.
pub fn segment_sizes(ctx: &Context, def: &OpDef, op: OpId, total: usize) -> Vec<usize> {
    if def.has(Trait::AttrSizedOperandSegments) {
        if let Some(a) = ctx.get_prop(op, "operandSegmentSizes") {
            if let Some(values) = ctx.int_array_values(a) {
                return values.iter().map(|&v| v.max(0) as usize).collect();
            }
        }
    }
    let singles = def
        .operands
        .iter()
        .filter(|o| o.arity == Arity::Single)
        .count();
    let extra = total.saturating_sub(singles);
    def.operands
        .iter()
        .map(|o| if o.arity == Arity::Single { 1 } else { extra })
        .collect()
}

fn elem_present(pr: &Printer, def: &OpDef, op: OpId, e: &Elem) -> bool {
    let ctx = pr.ctx;
    match e {
        Elem::Var { name, .. } => match var_kind(def, name) {
            1 => !operand_group(ctx, def, op, name).is_empty(),
            3 => match ctx.get_prop(op, name) {
                None => false,
                Some(a) if def.attr(name).is_some_and(is_unit) => {
                    unit_spelled_by_group(ctx, def.attr(name).unwrap(), a)
                }
                // A default-valued attribute at its default is left out, as MLIR does.
                Some(a) => def
                    .attr(name)
                    .and_then(|d| d.default)
                    .is_none_or(|text| ctx.default_value(text) != Some(a)),
            },
            4 => {
                let rs = region_group(ctx, def, op, name);
                let variadic = def.regions.iter().any(|r| r.name == *name && r.variadic);
                if variadic {
                    !rs.is_empty()
                } else {
                    rs.first()
                        .is_some_and(|r| !ctx.region_blocks(*r).is_empty())
                }
            }
            5 => true,
            _ => true,
        },
        Elem::Type {
            of: TypeRef::Var(name),
            ..
        } => {
            if var_kind(def, name) == 1 {
                !operand_group(ctx, def, op, name).is_empty()
            } else {
                !result_group(ctx, def, op, name).is_empty()
            }
        }
        Elem::Type {
            of: TypeRef::Results,
            ..
        } => !ctx.results(op).is_empty(),
        Elem::Type {
            of: TypeRef::Operands,
            ..
        }
        | Elem::Operands => !ctx.operands(op).is_empty(),
        Elem::Regions => !ctx.regions(op).is_empty(),
        Elem::AttrDict { .. } => !ctx.attrs(op).is_empty(),
        _ => true,
    }
}

fn group_is_present(pr: &Printer, def: &OpDef, op: OpId, g: &[Elem]) -> bool {
    let anchor = g.iter().find(|e| {
        matches!(
            e,
            Elem::Var { anchor: true, .. }
                | Elem::Type { anchor: true, .. }
                | Elem::Custom { anchor: true, .. }
        )
    });
    match anchor {
        // A hook anchors its group by its first argument.
        Some(Elem::Custom { args, .. }) => match args.first() {
            Some(CustomArg::Var(n)) => elem_present(
                pr,
                def,
                op,
                &Elem::Var {
                    name: n,
                    anchor: false,
                },
            ),
            Some(CustomArg::Type(n)) => elem_present(
                pr,
                def,
                op,
                &Elem::Type {
                    of: TypeRef::Var(n),
                    anchor: false,
                },
            ),
            None => true,
        },
        Some(a) => elem_present(pr, def, op, a),
        None => g
            .iter()
            .find(|e| !matches!(e, Elem::Literal(_)))
            .is_some_and(|e| elem_present(pr, def, op, e)),
    }
}

fn space_before(pr: &mut Printer, space: &mut bool) {
    if *space {
        pr.out.push(' ');
    }
    *space = true;
}

fn print_types(pr: &mut Printer, ts: &[Type]) {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        pr.print_type(*t);
    }
}

fn print_elems(
    pr: &mut Printer,
    def: &'static OpDef,
    op: OpId,
    elems: &[Elem],
    space: &mut bool,
    printed: &[&'static str],
    bound: &[&'static str],
) {
    let ctx = pr.ctx;
    for e in elems {
        match e {
            Elem::Literal(l) => {
                if l.is_empty() {
                    *space = false;
                    continue;
                }
                if *l == " " {
                    pr.out.push(' ');
                    *space = false;
                    continue;
                }
                if *l == "\\n" {
                    pr.newline();
                    *space = false;
                    continue;
                }
                let c = l.as_bytes()[0];
                let punct = l.len() == 1 || *l == "->";
                let emit = if !punct || *l == "->" {
                    true
                } else {
                    !"<>(){}[],".contains(c as char) && (*space || c == b':' || c == b'=')
                };
                // A keyword at the start of a line (after `\\n`) needs no space.
                let line_start = pr.out.ends_with('\n') || pr.out.ends_with("  ");
                if emit && (*space || (!punct && !line_start)) {
                    pr.out.push(' ');
                }
                pr.out.push_str(l);
                *space = !(l.len() == 1 && "<({[".contains(c as char));
            }
            Elem::Var { name, .. } => match var_kind(def, name) {
                1 => {
                    let vs = operand_group(ctx, def, op, name);
                    if vs.is_empty() {
                        continue;
                    }
                    space_before(pr, space);
                    for (i, v) in vs.iter().enumerate() {
                        if i > 0 {
                            pr.out.push_str(", ");
                        }
                        pr.print_value(*v);
                    }
                }
                3 => {
                    if let Some(a) = ctx.get_prop(op, name) {
                        let ad = def.attr(name).unwrap();
                        if unit_spelled_by_group(ctx, ad, a) {
                            continue;
                        }
                        space_before(pr, space);
                        if let (AttrForm::SymbolName, AttrKind::String { value, ty: None }) =
                            (ad.constraint.form, ctx.attr_kind(a))
                        {
                            pr.print_symbol_name(&String::from_utf8_lossy(value));
                            continue;
                        }
                        if let (AttrForm::IntList(_), Some(values)) =
                            (ad.constraint.form, ctx.int_array_values(a))
                        {
                            pr.out.push('[');
                            for (i, v) in values.iter().enumerate() {
                                if i > 0 {
                                    pr.out.push_str(", ");
                                }
                                pr.out.push_str(itoa::Buffer::new().format(*v));
                            }
                            pr.out.push(']');
                            continue;
                        }
                        let kw = match ctx.attr_kind(a) {
                            AttrKind::Integer { value, .. }
                                if !ad.constraint.keywords.is_empty() =>
                            {
                                value
                                    .to_string()
                                    .parse::<usize>()
                                    .ok()
                                    .and_then(|i| ad.constraint.keywords.get(i))
                            }
                            _ => None,
                        };
                        let short = match (ad.constraint.short_form, ctx.attr_kind(a)) {
                            (Some(_), AttrKind::Dialect { body: Some(b), .. }) => Some(b.clone()),
                            _ => None,
                        };
                        if let Some(b) = short {
                            pr.out.push('<');
                            pr.out.push_str(&b);
                            pr.out.push('>');
                        } else if let Some(kw) = kw {
                            pr.out.push_str(kw);
                        } else if ad.constraint.value_type.is_some() {
                            pr.print_attr_without_type(a);
                        } else {
                            pr.print_attr(a);
                        }
                    }
                }
                4 => {
                    let rd = def.regions.iter().find(|r| r.name == *name).unwrap();
                    let rs = region_group(ctx, def, op, name);
                    // As MLIR's generated printers, a variadic slot gets its space even when
                    // it has no regions.
                    if rd.variadic || !rs.is_empty() {
                        space_before(pr, space);
                    }
                    for (i, r) in rs.into_iter().enumerate() {
                        if i > 0 {
                            pr.out.push_str(", ");
                        }
                        print_region_elem(pr, def, Some(rd), op, r, bound.contains(name));
                    }
                }
                5 => {
                    let i = def.successors.iter().position(|s| s.name == *name).unwrap();
                    if let Some(&b) = ctx.successors(op).get(i) {
                        space_before(pr, space);
                        pr.print_block_name(b);
                    }
                }
                _ => {}
            },
            Elem::Type { of, .. } => {
                let ts: Vec<Type> = match of {
                    TypeRef::Var(name) => {
                        let vs = if var_kind(def, name) == 1 {
                            operand_group(ctx, def, op, name)
                        } else {
                            result_group(ctx, def, op, name)
                        };
                        vs.iter().map(|v| ctx.value_type(*v)).collect()
                    }
                    TypeRef::Operands => ctx
                        .operands(op)
                        .iter()
                        .map(|v| ctx.value_type(*v))
                        .collect(),
                    TypeRef::Results => {
                        ctx.results(op).iter().map(|v| ctx.value_type(*v)).collect()
                    }
                };
                if ts.is_empty() {
                    continue;
                }
                space_before(pr, space);
                print_types(pr, &ts);
            }
            Elem::FunctionalType(ins, outs) => {
                space_before(pr, space);
                let ins: Vec<Type> = ref_types(ctx, def, op, ins);
                let outs: Vec<Type> = ref_types(ctx, def, op, outs);
                pr.out.push('(');
                print_types(pr, &ins);
                pr.out.push_str(") -> ");
                // One result without parentheses, unless it is a function type itself.
                let bare = outs.len() == 1
                    && !matches!(
                        ctx.type_kind(outs[0]),
                        crate::types::TypeKind::Function { .. }
                    );
                if bare {
                    pr.print_type(outs[0]);
                } else {
                    pr.out.push('(');
                    print_types(pr, &outs);
                    pr.out.push(')');
                }
            }
            Elem::AttrDict { keyword } => {
                // Discardable attributes plus inherent ones the format does not print elsewhere.
                let mut all: Vec<(String, Attr)> = ctx.attrs(op).to_vec();
                if let Some(p) = ctx.op(op).properties {
                    if let AttrKind::Dict(entries) = ctx.attr_kind(p) {
                        for (k, v) in entries {
                            let misplaced_unit = def.attr(k).is_some_and(|ad| {
                                is_unit(ad) && !unit_spelled_by_group(ctx, ad, *v)
                            });
                            if (misplaced_unit || !printed.contains(&k.as_str()))
                                && k != "operandSegmentSizes"
                            {
                                all.push((k.clone(), *v));
                            }
                        }
                    }
                }
                all.sort_by(|a, b| a.0.cmp(&b.0));
                if all.is_empty() {
                    continue;
                }
                pr.out.push(' ');
                if *keyword {
                    pr.out.push_str("attributes ");
                }
                pr.print_attr_dict_entries(&all, &[]);
                *space = true;
            }
            Elem::Operands => {
                let vs = ctx.operands(op).to_vec();
                if vs.is_empty() {
                    continue;
                }
                space_before(pr, space);
                for (i, v) in vs.iter().enumerate() {
                    if i > 0 {
                        pr.out.push_str(", ");
                    }
                    pr.print_value(*v);
                }
            }
            Elem::Regions => {
                for (i, &r) in ctx.regions(op).iter().enumerate() {
                    if i > 0 {
                        pr.out.push(',');
                    }
                    space_before(pr, space);
                    print_region_elem(pr, def, None, op, r, false);
                }
            }
            Elem::Successors => {
                for (i, &b) in ctx.successors(op).iter().enumerate() {
                    if i > 0 {
                        pr.out.push(',');
                    }
                    space_before(pr, space);
                    pr.print_block_name(b);
                }
            }
            Elem::Optional(g) => {
                if group_is_present(pr, def, op, g) {
                    print_elems(pr, def, op, g, space, printed, bound);
                }
            }
            Elem::Custom { name, args, .. } => {
                if let Some(d) = def.custom_directives.iter().find(|d| d.name == *name) {
                    space_before(pr, space);
                    (directive_hooks(d).print)(pr, op, args);
                }
            }
        }
    }
}

/// Whether attribute `a` in a unit slot is spelled by its group's keyword alone; a value of
/// another kind (invalid IR) is printed in the attribute dictionary instead, so it reads back.
fn unit_spelled_by_group(ctx: &Context, ad: &crate::opdef::AttrDef, a: Attr) -> bool {
    is_unit(ad) && matches!(ctx.attr_kind(a), AttrKind::Unit)
}

/// The types of a `type(...)`/`functional-type(...)` reference.
fn ref_types(ctx: &Context, def: &OpDef, op: OpId, r: &TypeRef) -> Vec<Type> {
    let vs = match r {
        TypeRef::Var(name) if var_kind(def, name) == 1 => operand_group(ctx, def, op, name),
        TypeRef::Var(name) => result_group(ctx, def, op, name),
        TypeRef::Operands => ctx.operands(op).to_vec(),
        TypeRef::Results => ctx.results(op).to_vec(),
    };
    vs.iter().map(|v| ctx.value_type(*v)).collect()
}
