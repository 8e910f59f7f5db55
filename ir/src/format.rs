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
//! | `qualified(...)` | accepted; types and attributes are always printed qualified |

use crate::attrs::{Attr, AttrKind};
use crate::context::{BlockId, Context, OpId, OperationState, RegionId, Value};
use crate::diag::{Diagnostic, Span};
use crate::opdef::{Arity, Format, OpDef, Trait};
use crate::syntax::parser::{PResult, Parser, UnresolvedOperand};
use crate::syntax::printer::Printer;
use crate::types::Type;
use std::cell::RefCell;
use std::collections::HashMap;

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
    Var { name: &'static str, anchor: bool },
    Type { of: TypeRef, anchor: bool },
    FunctionalType(TypeRef, TypeRef),
    AttrDict { keyword: bool },
    Operands,
    Regions,
    Successors,
    Optional(Vec<Elem>),
}

// ----- compile-time check -------------------------------------------------------------------

const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn sub(s: &[u8], start: usize, end: usize) -> &[u8] {
    let (_, rest) = s.split_at(start);
    let (mid, _) = rest.split_at(end - start);
    mid
}

const fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

const fn name_kind(def: &OpDef, n: &[u8]) -> u8 {
    // 1 operand, 2 result, 3 attribute, 4 region, 5 successor, 0 unknown.
    let mut i = 0;
    while i < def.operands.len() {
        if bytes_eq(def.operands[i].name.as_bytes(), n) {
            return 1;
        }
        i += 1;
    }
    i = 0;
    while i < def.results.len() {
        if bytes_eq(def.results[i].name.as_bytes(), n) {
            return 2;
        }
        i += 1;
    }
    i = 0;
    while i < def.attributes.len() {
        if bytes_eq(def.attributes[i].name.as_bytes(), n) {
            return 3;
        }
        i += 1;
    }
    i = 0;
    while i < def.regions.len() {
        if bytes_eq(def.regions[i].name.as_bytes(), n) {
            return 4;
        }
        i += 1;
    }
    i = 0;
    while i < def.successors.len() {
        if bytes_eq(def.successors[i].name.as_bytes(), n) {
            return 5;
        }
        i += 1;
    }
    0
}

const fn mentions(f: &[u8], n: &[u8]) -> bool {
    // Is `$n` (not a prefix of a longer name) in the format?
    let mut i = 0;
    while i + n.len() < f.len() {
        if f[i] == b'$' && bytes_eq(sub(f, i + 1, i + 1 + n.len()), n) {
            let after = i + 1 + n.len();
            if after >= f.len() || !is_ident(f[after]) {
                return true;
            }
        }
        i += 1;
    }
    false
}

const fn has_word(f: &[u8], w: &[u8]) -> bool {
    let mut i = 0;
    while i + w.len() <= f.len() {
        if bytes_eq(sub(f, i, i + w.len()), w) {
            let before_ok = i == 0 || !(is_ident(f[i - 1]) || f[i - 1] == b'-' || f[i - 1] == b'$');
            let after = i + w.len();
            let after_ok = after >= f.len() || !(is_ident(f[after]) || f[after] == b'-');
            if before_ok && after_ok {
                return true;
            }
        }
        i += 1;
    }
    false
}

const fn count_name(def: &OpDef, n: &[u8]) -> usize {
    let mut c = 0;
    let mut i = 0;
    while i < def.operands.len() {
        c += bytes_eq(def.operands[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    i = 0;
    while i < def.results.len() {
        c += bytes_eq(def.results[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    i = 0;
    while i < def.attributes.len() {
        c += bytes_eq(def.attributes[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    i = 0;
    while i < def.regions.len() {
        c += bytes_eq(def.regions[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    i = 0;
    while i < def.successors.len() {
        c += bytes_eq(def.successors[i].name.as_bytes(), n) as usize;
        i += 1;
    }
    c
}

/// Every operand, result, attribute, region and successor name must be unique within an op, since
/// formats, verifier messages and accessors refer to them by name (called from [`OpDef::check`]).
pub const fn check_unique_names_const(def: &OpDef) {
    let mut i = 0;
    while i < def.operands.len() {
        if count_name(def, def.operands[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share an operand's name");
        }
        i += 1;
    }
    i = 0;
    while i < def.results.len() {
        if count_name(def, def.results[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share a result's name");
        }
        i += 1;
    }
    i = 0;
    while i < def.attributes.len() {
        if count_name(def, def.attributes[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share an attribute's name");
        }
        i += 1;
    }
    i = 0;
    while i < def.regions.len() {
        if count_name(def, def.regions[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share a region's name");
        }
        i += 1;
    }
    i = 0;
    while i < def.successors.len() {
        if count_name(def, def.successors[i].name.as_bytes()) != 1 {
            panic!("op declaration: two slots share a successor's name");
        }
        i += 1;
    }
}

const fn is_directive(w: &[u8]) -> bool {
    bytes_eq(w, b"attr-dict")
        || bytes_eq(w, b"attr-dict-with-keyword")
        || bytes_eq(w, b"type")
        || bytes_eq(w, b"functional-type")
        || bytes_eq(w, b"qualified")
        || bytes_eq(w, b"operands")
        || bytes_eq(w, b"results")
        || bytes_eq(w, b"regions")
        || bytes_eq(w, b"successors")
}

/// Validates a declarative format against its op at compile time (called from [`OpDef::check`]).
///
/// A well-formed declaration compiles:
///
/// ```
/// use tilus_ir::opdef::{one, Format, OpDef, Trait, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("lhs", SIGNLESS_INT_LIKE), one("rhs", SIGNLESS_INT_LIKE)],
///     results: &[one("result", SIGNLESS_INT_LIKE)],
///     traits: &[Trait::SameOperandsAndResultType],
///     format: Format::Declarative("$lhs `,` $rhs attr-dict `:` type($result)"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
///
/// A format naming an undeclared variable is a build error:
///
/// ```compile_fail
/// use tilus_ir::opdef::{one, Format, OpDef, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("lhs", SIGNLESS_INT_LIKE)],
///     results: &[one("result", SIGNLESS_INT_LIKE)],
///     format: Format::Declarative("$lsh attr-dict `:` type($result)"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
///
/// So is a misspelled directive:
///
/// ```compile_fail
/// use tilus_ir::opdef::{one, Format, OpDef, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("lhs", SIGNLESS_INT_LIKE)],
///     results: &[one("result", SIGNLESS_INT_LIKE)],
///     format: Format::Declarative("$lhs attr-dict `:` typ($result)"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
///
/// And two slots with one name, or an operand the format leaves out:
///
/// ```compile_fail
/// use tilus_ir::opdef::{one, Format, OpDef, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("x", SIGNLESS_INT_LIKE), one("x", SIGNLESS_INT_LIKE)],
///     format: Format::Declarative("$x attr-dict"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
///
/// ```compile_fail
/// use tilus_ir::opdef::{one, Format, OpDef, SIGNLESS_INT_LIKE};
/// const ADD: OpDef = OpDef {
///     name: "demo.add",
///     operands: &[one("lhs", SIGNLESS_INT_LIKE), one("rhs", SIGNLESS_INT_LIKE)],
///     format: Format::Declarative("$lhs attr-dict"),
///     ..OpDef::DEFAULT
/// };
/// const _: () = ADD.check();
/// ```
pub const fn check_format_const(def: &OpDef, f: &[u8]) {
    let mut i = 0;
    let mut depth: i32 = 0;
    while i < f.len() {
        let c = f[i];
        if c == b'`' {
            let mut j = i + 1;
            while j < f.len() && f[j] != b'`' {
                j += 1;
            }
            if j >= f.len() {
                panic!("assembly format: unterminated literal (missing closing backtick)");
            }
            i = j + 1;
            continue;
        }
        if c == b'$' {
            let mut j = i + 1;
            while j < f.len() && is_ident(f[j]) {
                j += 1;
            }
            if name_kind(def, sub(f, i + 1, j)) == 0 {
                panic!("assembly format names a `$variable` that is not an operand, result, attribute, region or successor of the op");
            }
            i = j;
            continue;
        }
        if c.is_ascii_alphabetic() {
            let mut j = i;
            while j < f.len() && (is_ident(f[j]) || f[j] == b'-') {
                j += 1;
            }
            if !is_directive(sub(f, i, j)) {
                panic!("assembly format: unknown directive (expected attr-dict, attr-dict-with-keyword, type, functional-type, qualified, operands, results, regions or successors)");
            }
            i = j;
            continue;
        }
        if c == b'(' {
            depth += 1;
        } else if c == b')' {
            depth -= 1;
            if depth < 0 {
                panic!("assembly format: unbalanced ')'");
            }
        }
        i += 1;
    }
    if depth != 0 {
        panic!("assembly format: unbalanced '('");
    }
    if !has_word(f, b"attr-dict") && !has_word(f, b"attr-dict-with-keyword") {
        panic!("assembly format must contain `attr-dict` or `attr-dict-with-keyword`");
    }
    let all_operands = has_word(f, b"operands");
    let mut k = 0;
    while k < def.operands.len() {
        if !all_operands && !mentions(f, def.operands[k].name.as_bytes()) {
            panic!(
                "assembly format leaves an operand out: every operand needs `$name` or `operands`"
            );
        }
        k += 1;
    }
    let all_regions = has_word(f, b"regions");
    k = 0;
    while k < def.regions.len() {
        if !all_regions && !mentions(f, def.regions[k].name.as_bytes()) {
            panic!("assembly format leaves a region out: every region needs `$name` or `regions`");
        }
        k += 1;
    }
    let all_succ = has_word(f, b"successors");
    k = 0;
    while k < def.successors.len() {
        if !all_succ && !mentions(f, def.successors[k].name.as_bytes()) {
            panic!("assembly format leaves a successor out");
        }
        k += 1;
    }
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

#[derive(Default)]
struct Parsed {
    operands: HashMap<&'static str, Vec<UnresolvedOperand>>,
    all_operands: Option<Vec<UnresolvedOperand>>,
    types: HashMap<&'static str, Vec<Type>>,
    all_operand_types: Option<Vec<Type>>,
    all_result_types: Option<Vec<Type>>,
    attrs: Vec<(String, Attr)>,
    regions: HashMap<&'static str, RegionId>,
    all_regions: Vec<RegionId>,
    successors: HashMap<&'static str, BlockId>,
    all_successors: Vec<BlockId>,
}

/// Parses the custom form of `def` after its name. `num_results` is how many result names the
/// text bound (0 when none were written).
pub fn parse_custom(
    p: &mut Parser,
    def: &'static OpDef,
    num_results: usize,
) -> PResult<OperationState> {
    match def.format {
        Format::Custom { parse, .. } => parse(p, def),
        Format::Declarative(f) => {
            let elems = elements(f);
            let mut st = Parsed::default();
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
    name_kind(def, name.as_bytes())
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
                let ok = if keywords.is_empty() {
                    p.parse_attribute().is_ok()
                } else {
                    p.parse_keyword_any()
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
        Elem::Optional(_) => false,
    }
}

fn parse_elems_rt(
    p: &mut Parser,
    def: &'static OpDef,
    elems: &[Elem],
    st: &mut Parsed,
) -> PResult<()> {
    for e in elems {
        match e {
            Elem::Literal(l) => {
                if l.is_empty() || *l == " " || *l == "\\n" {
                    continue;
                }
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
                    let a = match ad.constraint.value_type {
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
                            let (kw, sp) = p.parse_keyword_any()?;
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
                    p.push_default_dialect(def.default_dialect);
                    let r = p.parse_region(vec![], def.is_isolated());
                    p.pop_default_dialect();
                    st.regions.insert(name, r?);
                }
                5 => {
                    let b = p.parse_successor_ref()?;
                    st.successors.insert(name, b);
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
            Elem::FunctionalType(_, _) => {
                let t = p.parse_type()?;
                match p.ctx.type_kind(t).clone() {
                    crate::types::TypeKind::Function { inputs, results } => {
                        st.all_operand_types = Some(inputs);
                        st.all_result_types = Some(results);
                    }
                    _ => return Err(p.err_here("expected a function type `(inputs) -> results`")),
                }
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
                    p.push_default_dialect(def.default_dialect);
                    let r = p.parse_region(vec![], def.is_isolated());
                    p.pop_default_dialect();
                    st.all_regions.push(r?);
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
                if let Some(first) = g.first() {
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
    mut st: Parsed,
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
    let mut regions: Vec<RegionId> = def
        .regions
        .iter()
        .filter_map(|r| st.regions.get(r.name).copied())
        .collect();
    regions.extend(st.all_regions);
    // Declared regions that were optional in the format and absent are empty regions.
    while regions.len() < def.regions.len() {
        regions.push(p.ctx.create_region());
    }
    let mut successors: Vec<BlockId> = def
        .successors
        .iter()
        .filter_map(|s| st.successors.get(s.name).copied())
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
        Format::Custom { print, .. } => print(pr, op),
        Format::Declarative(f) => {
            let elems = elements(f);
            let mut printed = Vec::new();
            collect_printed_attrs(&elems, &mut printed);
            let mut space = true;
            print_elems(pr, def, op, &elems, &mut space, &printed);
        }
        Format::Generic => unreachable!(),
    }
}

fn collect_printed_attrs(elems: &[Elem], out: &mut Vec<&'static str>) {
    for e in elems {
        match e {
            Elem::Var { name, .. } => out.push(name),
            Elem::Optional(g) => collect_printed_attrs(g, out),
            _ => {}
        }
    }
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
                // A default-valued attribute at its default is left out, as MLIR does.
                Some(a) => def
                    .attr(name)
                    .and_then(|d| d.default)
                    .is_none_or(|text| ctx.default_value(text) != Some(a)),
            },
            4 => {
                let i = def.regions.iter().position(|r| r.name == *name).unwrap();
                ctx.regions(op)
                    .get(i)
                    .is_some_and(|r| !ctx.region_blocks(*r).is_empty())
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
            Elem::Var { anchor: true, .. } | Elem::Type { anchor: true, .. }
        )
    });
    match anchor {
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
                let c = l.as_bytes()[0];
                let punct = l.len() == 1 || *l == "->";
                let emit = if !punct || *l == "->" {
                    true
                } else {
                    !"<>(){}[],".contains(c as char) && (*space || c == b':' || c == b'=')
                };
                if emit && (*space || !punct) {
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
                        space_before(pr, space);
                        let ad = def.attr(name).unwrap();
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
                    let i = def.regions.iter().position(|r| r.name == *name).unwrap();
                    if let Some(&r) = ctx.regions(op).get(i) {
                        space_before(pr, space);
                        pr.print_region(r, true, true);
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
            Elem::FunctionalType(_, _) => {
                space_before(pr, space);
                let ins: Vec<Type> = ctx
                    .operands(op)
                    .iter()
                    .map(|v| ctx.value_type(*v))
                    .collect();
                let outs: Vec<Type> = ctx.results(op).iter().map(|v| ctx.value_type(*v)).collect();
                pr.out.push('(');
                print_types(pr, &ins);
                pr.out.push_str(") -> ");
                if outs.len() == 1 {
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
                            if !printed.contains(&k.as_str()) && k != "operandSegmentSizes" {
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
                    pr.print_region(r, true, true);
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
                    print_elems(pr, def, op, g, space, printed);
                }
            }
        }
    }
}
