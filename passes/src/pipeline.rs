//! Pipeline text in MLIR's form, read with byte spans and printed back.
//!
//! ```text
//! pipeline ::= op-anchor `(` (element (`,` element)*)? `)`
//! element  ::= pipeline | pass-name options?
//! options  ::= `{` (key (`=` value)?)* `}`        (entries separated by spaces)
//! value    ::= `"..."` | `'...'` | `{...}` (kept braced) | bare text up to a space or `}`
//! ```
//!
//! `op-anchor` is an op name (`builtin.module`, `func.func`) or `any`. Parsing is two steps so
//! each error can point into the text: [`parse_pipeline_ast`] checks the syntax, then
//! [`build_pipeline`] creates the passes from the registry, sets their options and checks
//! anchors. Every error is a [`Diagnostic`] whose spans are byte offsets into the pipeline text,
//! meant to be rendered with that text as the source (`tilus-opt` names it `<pass-pipeline>`).

use crate::manager::{Anchor, Element, OpPassManager};
use crate::options::{closest, is_value_spelling, quote_value};
use crate::pipelines::{find_pipeline, pipeline_registry, PipelineDecl};
use crate::{registry, OptionDecl, Pass, PassInfo};
use tilus_ir::{Diagnostic, Span};

/// What to do with a pass whose anchor differs from its pipeline's op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nesting {
    /// Report an error: the text said where the pass runs (`--pass-pipeline`).
    Explicit,
    /// Nest it in a pipeline of its anchor, as MLIR does for `mlir-opt --some-pass` flags.
    Implicit,
}

/// A parsed `anchor(...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct PipelineAst {
    /// `builtin.module`, `func.func` or `any`.
    pub anchor: String,
    /// Where the anchor is written (errors about it point here).
    pub anchor_span: Span,
    /// The passes and nested pipelines, in order.
    pub elements: Vec<ElementAst>,
}

/// One entry of a pipeline.
#[derive(Clone, Debug, PartialEq)]
pub enum ElementAst {
    /// `name{options}`.
    Pass(PassAst),
    /// `op-name(...)`.
    Nested(PipelineAst),
}

/// `name{options}`.
#[derive(Clone, Debug, PartialEq)]
pub struct PassAst {
    /// The registry name.
    pub name: String,
    /// Where the name is written (unknown-pass and anchor errors point here).
    pub span: Span,
    /// The options in the order written.
    pub options: Vec<OptionAst>,
}

/// `key=value`, or a bare `key` (a flag set to true).
#[derive(Clone, Debug, PartialEq)]
pub struct OptionAst {
    /// The option name.
    pub key: String,
    /// Where the name is written (unknown-option errors point here).
    pub key_span: Span,
    /// The value with quotes removed (braces kept), and the span of its spelling.
    pub value: Option<(String, Span)>,
}

/// MLIR's message for text that is not `anchor(...)`.
const WRAP_MSG: &str =
    "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'";

struct Cursor<'a> {
    s: &'a str,
    pos: usize,
}

fn is_name_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '(' | ')' | '{' | '}' | ',' | '=' | '"' | '\'')
}

fn found(c: Option<char>) -> String {
    match c {
        Some(c) => format!("'{c}'"),
        None => "the end of the pipeline".to_string(),
    }
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }
    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }
    fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }
    fn take_while(&mut self, f: impl Fn(char) -> bool) -> (String, Span) {
        let start = self.pos;
        while self.peek().is_some_and(&f) {
            self.bump();
        }
        (
            self.s[start..self.pos].to_string(),
            Span::new(start, self.pos),
        )
    }
    fn here(&self) -> Span {
        Span::at(self.pos)
    }

    /// Elements after an opening `(` at `open`, through the matching `)`.
    fn body(&mut self, open: usize) -> Result<Vec<ElementAst>, Diagnostic> {
        let mut out = Vec::new();
        self.ws();
        if self.peek() == Some(')') {
            self.bump();
            return Ok(out);
        }
        loop {
            out.push(self.element(open)?);
            self.ws();
            match self.peek() {
                Some(',') => self.bump(),
                Some(')') => {
                    self.bump();
                    return Ok(out);
                }
                None => return Err(unclosed(open)),
                c => {
                    return Err(Diagnostic::at(
                        self.here(),
                        format!(
                            "expected ',' or ')' after a pipeline element, found {}",
                            found(c)
                        ),
                    )
                    .with_label("expected ',' or ')'"))
                }
            }
        }
    }

    fn element(&mut self, open: usize) -> Result<ElementAst, Diagnostic> {
        self.ws();
        let (name, span) = self.take_while(is_name_char);
        if name.is_empty() {
            let c = self.peek();
            if c.is_none() {
                return Err(unclosed(open));
            }
            return Err(Diagnostic::at(
                self.here(),
                format!(
                    "expected a pass name or a nested pipeline 'op-name(...)', found {}",
                    found(c)
                ),
            )
            .with_label("expected a pass name"));
        }
        self.ws();
        match self.peek() {
            Some('(') => {
                let open = self.pos;
                self.bump();
                check_anchor_name(&name, span)?;
                let elements = self.body(open)?;
                Ok(ElementAst::Nested(PipelineAst {
                    anchor: name,
                    anchor_span: span,
                    elements,
                }))
            }
            Some('{') => {
                let options = self.options()?;
                Ok(ElementAst::Pass(PassAst {
                    name,
                    span,
                    options,
                }))
            }
            _ => Ok(ElementAst::Pass(PassAst {
                name,
                span,
                options: Vec::new(),
            })),
        }
    }

    /// `{key=value ...}` starting at the `{`.
    fn options(&mut self) -> Result<Vec<OptionAst>, Diagnostic> {
        let open = self.pos;
        self.bump();
        let mut out = Vec::new();
        loop {
            self.ws();
            match self.peek() {
                None => {
                    return Err(Diagnostic::at(
                        Span::new(open, open + 1),
                        "unbalanced braces: this '{' of pass options is never closed",
                    )
                    .with_label("never closed"))
                }
                Some('}') => {
                    self.bump();
                    return Ok(out);
                }
                _ => {}
            }
            let (key, key_span) = self
                .take_while(|c| !c.is_whitespace() && !matches!(c, '=' | '}' | '{' | '"' | '\''));
            if key.is_empty() {
                return Err(Diagnostic::at(
                    self.here(),
                    format!("expected an option name, found {}", found(self.peek())),
                )
                .with_label("expected an option name"));
            }
            let value = if self.peek() == Some('=') {
                self.bump();
                Some(self.value()?)
            } else {
                None
            };
            out.push(OptionAst {
                key,
                key_span,
                value,
            });
        }
    }

    fn value(&mut self) -> Result<(String, Span), Diagnostic> {
        let start = self.pos;
        match self.peek() {
            Some(q @ ('"' | '\'')) => {
                self.bump();
                let body_start = self.pos;
                match self.s[body_start..].find(q) {
                    Some(i) => {
                        self.pos = body_start + i + 1;
                        Ok((
                            self.s[body_start..body_start + i].to_string(),
                            Span::new(start, self.pos),
                        ))
                    }
                    None => Err(Diagnostic::at(
                        Span::new(start, start + 1),
                        format!("unterminated quoted option value: this {q} is never closed"),
                    )
                    .with_label("never closed")),
                }
            }
            Some('{') => {
                let mut depth = 0usize;
                while let Some(c) = self.peek() {
                    self.bump();
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                return Ok((
                                    self.s[start..self.pos].to_string(),
                                    Span::new(start, self.pos),
                                ));
                            }
                        }
                        _ => {}
                    }
                }
                Err(Diagnostic::at(
                    Span::new(start, start + 1),
                    "unbalanced braces: this '{' of an option value is never closed",
                )
                .with_label("never closed"))
            }
            _ => {
                let mut depth = 0i32;
                while let Some(c) = self.peek() {
                    if depth == 0 && (c.is_whitespace() || c == '}') {
                        break;
                    }
                    match c {
                        '(' | '[' | '{' => depth += 1,
                        // A stray closer is part of the value; it must not unbalance the rest.
                        ')' | ']' | '}' => depth = (depth - 1).max(0),
                        _ => {}
                    }
                    self.bump();
                }
                Ok((
                    self.s[start..self.pos].to_string(),
                    Span::new(start, self.pos),
                ))
            }
        }
    }
}

/// Reads one option value at the start of `text` as the parser does after `key=`: the value
/// (quotes removed, braces kept) and the byte offset where it ends; `None` where that is an
/// error (an unclosed quote or brace). The printer uses it to check its spellings.
pub(crate) fn read_option_value(text: &str) -> Option<(String, usize)> {
    let mut c = Cursor { s: text, pos: 0 };
    let (value, _) = c.value().ok()?;
    Some((value, c.pos))
}

fn unclosed(open: usize) -> Diagnostic {
    Diagnostic::at(
        Span::new(open, open + 1),
        "unbalanced parentheses: this '(' is never closed",
    )
    .with_label("never closed")
}

/// A nested pipeline's anchor must look like an op name (or be `any`); a pass name there is
/// the usual slip (`cse(...)`).
fn check_anchor_name(name: &str, span: Span) -> Result<(), Diagnostic> {
    if name == "any" || name.contains('.') {
        return Ok(());
    }
    let d = Diagnostic::at(
        span,
        format!("'{name}' is not an op name: a nested pipeline is anchored on an op, as in 'func.func(...)', or on 'any'"),
    )
    .with_label("expected an op name");
    Err(
        if registry().iter().any(|p| p.name() == name) || find_pipeline(name).is_some() {
            d.with_help(format!(
                "'{name}' is a pass; passes take options in braces, `{name}{{key=value}}`"
            ))
        } else {
            d
        },
    )
}

/// Reads pipeline text into its syntax tree. The whole text must be one `anchor(...)`.
pub fn parse_pipeline_ast(text: &str) -> Result<PipelineAst, Diagnostic> {
    let mut c = Cursor { s: text, pos: 0 };
    c.ws();
    let (anchor, anchor_span) = c.take_while(is_name_char);
    c.ws();
    if anchor.is_empty() || c.peek() != Some('(') {
        let span = if anchor.is_empty() {
            Span::new(0, text.len())
        } else {
            anchor_span
        };
        let mut d = Diagnostic::at(span, WRAP_MSG).with_label("not wrapped in 'op-name(...)'");
        if !anchor.is_empty() {
            d = d.with_help(format!(
                "write 'builtin.module({anchor})' to run on the module, or \
                 'builtin.module(func.func({anchor}))' to run on each function"
            ));
        }
        return Err(d);
    }
    check_anchor_name(&anchor, anchor_span)?;
    let open = c.pos;
    c.bump();
    let elements = c.body(open)?;
    c.ws();
    match c.peek() {
        None => Ok(PipelineAst {
            anchor,
            anchor_span,
            elements,
        }),
        Some(')') => Err(Diagnostic::at(
            Span::new(c.pos, c.pos + 1),
            "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline",
        )
        .with_label("no '(' to close")),
        Some(_) => Err(Diagnostic::at(
            Span::new(c.pos, text.len()),
            format!("expected the end of the pipeline after the ')' closing '{anchor}('"),
        )
        .with_label("unexpected text")
        .with_help("a pipeline has one anchor; put every pass inside it, separated by ','")),
    }
}

/// Parses pipeline text and creates its passes from [`registry`].
pub fn parse_pipeline(text: &str, nesting: Nesting) -> Result<OpPassManager, Diagnostic> {
    let ast = parse_pipeline_ast(text)?;
    build_pipeline(&ast, nesting, &registry())
}

/// Creates the pass managers and passes a syntax tree describes, with their options set, and
/// expands the named pipelines it mentions ([`crate::pipelines`]) into their steps.
pub fn build_pipeline(
    ast: &PipelineAst,
    nesting: Nesting,
    reg: &[PassInfo],
) -> Result<OpPassManager, Diagnostic> {
    build_pipeline_with(ast, nesting, reg, &pipeline_registry())
}

/// [`build_pipeline`] with the named pipelines given rather than the registered ones.
pub fn build_pipeline_with(
    ast: &PipelineAst,
    nesting: Nesting,
    reg: &[PassInfo],
    pipelines: &[&'static PipelineDecl],
) -> Result<OpPassManager, Diagnostic> {
    let env = BuildEnv {
        nesting,
        reg,
        pipelines,
    };
    build_at_depth(ast, &env, 0)
}

/// What building a pipeline reads besides its text.
struct BuildEnv<'a> {
    nesting: Nesting,
    reg: &'a [PassInfo],
    pipelines: &'a [&'static PipelineDecl],
}

/// How deep named pipelines may expand into other named pipelines (a pipeline that reaches
/// itself would otherwise never finish).
const MAX_EXPANSION_DEPTH: usize = 16;

fn build_at_depth(
    ast: &PipelineAst,
    env: &BuildEnv,
    depth: usize,
) -> Result<OpPassManager, Diagnostic> {
    let mut pm = OpPassManager::new(&ast.anchor);
    add_elements(&mut pm, &ast.elements, env, env.nesting, depth)?;
    Ok(pm)
}

fn add_elements(
    pm: &mut OpPassManager,
    elements: &[ElementAst],
    env: &BuildEnv,
    nesting: Nesting,
    depth: usize,
) -> Result<(), Diagnostic> {
    for el in elements {
        match el {
            ElementAst::Nested(sub) => pm.add_nested(build_at_depth(sub, env, depth)?),
            ElementAst::Pass(p) => {
                if !env.reg.iter().any(|i| i.name() == p.name) {
                    if let Some(decl) = env.pipelines.iter().find(|d| d.name == p.name) {
                        expand_pipeline(pm, p, decl, env, nesting, depth)?;
                        continue;
                    }
                }
                let pass = create(p, env)?;
                match (pm.anchor(), pass.anchor()) {
                    (Anchor::Op(pm_op), Some(pass_op)) if pm_op != pass_op => match nesting {
                        Nesting::Implicit => pm.add_pass_nesting(pass),
                        Nesting::Explicit => {
                            return Err(Diagnostic::at(
                                p.span,
                                format!(
                                "can't add pass '{}' restricted to '{pass_op}' on a pass manager \
                                     intended to run on '{pm_op}', did you intend to nest?",
                                p.name
                            ),
                            )
                            .with_label(format!("runs on '{pass_op}' ops"))
                            .with_help(format!(
                                "nest it in a pipeline on its op: '{pass_op}({})'",
                                p.name
                            )))
                        }
                    },
                    _ => pm.add_element(Element::pass(pass)),
                }
            }
        }
    }
    Ok(())
}

/// Adds the steps of the named pipeline `decl`, written as `p`, to `pm`: checks its options
/// and where it is written, substitutes the options into the step text and builds the steps.
fn expand_pipeline(
    pm: &mut OpPassManager,
    p: &PassAst,
    decl: &'static PipelineDecl,
    env: &BuildEnv,
    nesting: Nesting,
    depth: usize,
) -> Result<(), Diagnostic> {
    if depth >= MAX_EXPANSION_DEPTH {
        return Err(Diagnostic::at(
            p.span,
            format!(
                "pipeline '{}' expands more than {MAX_EXPANSION_DEPTH} levels deep: a named \
                 pipeline must not reach itself",
                p.name
            ),
        )
        .with_label("expanded here"));
    }
    let mut values: Vec<(&str, String)> = Vec::new();
    for o in &p.options {
        let opt = check_option(&p.name, "pipeline", decl.options, o)?;
        let (value, span) = option_text(&p.name, "pipeline", opt, o, &(opt.default)())?;
        let v = (opt.normalize)(&value)
            .map_err(|msg| invalid_value(&p.name, "pipeline", opt, o, span, msg))?;
        values.push((opt.name, v));
    }
    let target = match pm.anchor() {
        Anchor::Op(a) if a == decl.anchor => pm,
        Anchor::Op(_) if nesting == Nesting::Implicit => pm.nest(decl.anchor),
        other => {
            let place = match other {
                Anchor::Op(a) => format!("on '{a}' ops"),
                Anchor::Any => "in an 'any' pipeline".to_string(),
            };
            return Err(Diagnostic::at(
                p.span,
                format!(
                    "pipeline '{}' runs on '{}' ops; it can't be scheduled {place}",
                    p.name, decl.anchor
                ),
            )
            .with_label(format!("runs on '{}' ops", decl.anchor))
            .with_help(format!(
                "anchor it on its op: '{}({})'",
                decl.anchor,
                pass_ast_text(p)
            )));
        }
    };
    let steps = decl.expand(&values);
    let wrap = |d: Diagnostic| {
        Diagnostic::at(
            p.span,
            format!("pipeline '{}' does not expand: {}", p.name, d.message),
        )
        .with_label("in this pipeline")
        .with_help(format!("its steps are '{steps}'"))
    };
    let ast = parse_pipeline_ast(&format!("{}({steps})", decl.anchor)).map_err(wrap)?;
    add_elements(target, &ast.elements, env, Nesting::Explicit, depth + 1).map_err(wrap)
}

/// `name{k=v ...}` as written (for help messages).
fn pass_ast_text(p: &PassAst) -> String {
    if p.options.is_empty() {
        return p.name.clone();
    }
    let opts: Vec<String> = p
        .options
        .iter()
        .map(|o| match &o.value {
            Some((v, _)) => format!("{}={}", o.key, quote_value(v).unwrap_or_else(|| v.clone())),
            None => o.key.clone(),
        })
        .collect();
    format!("{}{{{}}}", p.name, opts.join(" "))
}

/// The declaration of option `o` of pass or pipeline `owner`, or an error at its name.
fn check_option(
    owner: &str,
    kind: &str,
    declared: &'static [OptionDecl],
    o: &OptionAst,
) -> Result<&'static OptionDecl, Diagnostic> {
    if let Some(d) = declared.iter().find(|d| d.name == o.key) {
        return Ok(d);
    }
    let mut names: Vec<&str> = declared.iter().map(|d| d.name).collect();
    names.sort();
    let help = if names.is_empty() {
        format!("'{owner}' takes no options")
    } else {
        let near = closest(&o.key, &names);
        let mut h = format!("valid options of '{owner}': {}", names.join(", "));
        if let Some(n) = near.first() {
            h = format!("did you mean '{n}'? {h}");
        }
        h
    };
    Err(Diagnostic::at(
        o.key_span,
        format!("{kind} '{owner}' has no option '{}'", o.key),
    )
    .with_label("unknown option")
    .with_help(help))
}

/// The value text of option `o` and where it is written; a bare key is `true` for a flag.
fn option_text(
    owner: &str,
    kind: &str,
    decl: &OptionDecl,
    o: &OptionAst,
    current: &str,
) -> Result<(String, Span), Diagnostic> {
    match &o.value {
        Some((v, s)) => Ok((v.clone(), *s)),
        None if decl.flag => Ok(("true".to_string(), o.key_span)),
        None => Err(Diagnostic::at(
            o.key_span,
            format!(
                "option '{}' of {kind} '{owner}' needs a value: '{}=<value>'",
                o.key, o.key
            ),
        )
        .with_label("no value")
        .with_help(format!("{} (now {current})", decl.doc))),
    }
}

fn invalid_value(
    owner: &str,
    kind: &str,
    decl: &OptionDecl,
    o: &OptionAst,
    span: Span,
    msg: String,
) -> Diagnostic {
    let span = if span.start == span.end {
        o.key_span
    } else {
        span
    };
    Diagnostic::at(
        span,
        format!(
            "invalid value for option '{}' of {kind} '{owner}': {msg}",
            o.key
        ),
    )
    .with_label("invalid value")
    .with_help(format!("{}: {}", o.key, decl.doc))
}

fn create(p: &PassAst, env: &BuildEnv) -> Result<Box<dyn Pass>, Diagnostic> {
    let Some(info) = env.reg.iter().find(|i| i.name() == p.name) else {
        let mut names: Vec<&str> = env.reg.iter().map(|i| i.name()).collect();
        names.extend(env.pipelines.iter().map(|d| d.name));
        let near = closest(&p.name, &names);
        let help = match near.as_slice() {
            [] => "`--list-passes` shows the registered passes".to_string(),
            [one] => format!("did you mean '{one}'?"),
            many => format!(
                "did you mean one of {}?",
                many.iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        return Err(Diagnostic::at(
            p.span,
            format!("'{}' does not refer to a registered pass", p.name),
        )
        .with_label("unknown pass")
        .with_help(help));
    };
    let mut pass = (info.create)();
    for o in &p.options {
        let decl = check_option(&p.name, "pass", info.decl.options, o)?;
        let current = pass.option_value(decl.name).unwrap_or_default();
        let (value, span) = option_text(&p.name, "pass", decl, o, &current)?;
        pass.set_option(&o.key, &value)
            .map_err(|msg| invalid_value(&p.name, "pass", decl, o, span, msg))?;
    }
    Ok(pass)
}

/// The pipeline text equivalent to `mlir-opt`-style pass flags, in order:
/// `[("cse", ""), ("canonicalize", "max-iterations=3")]` on `builtin.module` gives
/// `builtin.module(cse,canonicalize{max-iterations=3})`. Parse it with [`Nesting::Implicit`].
pub fn pipeline_text_from_flags(anchor: &str, flags: &[(&str, &str)]) -> String {
    let items: Vec<String> = flags
        .iter()
        .map(|(name, opts)| {
            if opts.trim().is_empty() {
                name.to_string()
            } else {
                format!("{name}{{{opts}}}")
            }
        })
        .collect();
    format!("{anchor}({})", items.join(","))
}

/// A pass as pipeline text: its name and, when it has options, every option at its current
/// value, sorted by name (`canonicalize{max-iterations=10 top-down=true}`). Empty lists (`{}`)
/// leave an empty slot, which is why MLIR prints `canonicalize{  max-iterations=...`.
///
/// A value that the parser reads as one whole value (bare, braced or quoted: lists come
/// already spelled from [`crate::options::print_list`]) is printed as it is; any other value
/// (a string option's text with a space or an unbalanced brace) is quoted, so the text parses
/// back to the same options ([`crate::options::quote_value`]). A string option whose text
/// itself starts with a quote would be read without it; no pass has such values.
pub fn pass_text(pass: &dyn Pass) -> String {
    let mut opts = pass.options();
    if opts.is_empty() {
        return pass.name().to_string();
    }
    opts.sort_by(|a, b| a.name.cmp(b.name));
    let parts: Vec<String> = opts
        .iter()
        .map(|o| {
            if o.value == "{}" {
                String::new()
            } else if is_value_spelling(&o.value) {
                format!("{}={}", o.name, o.value)
            } else {
                let v = quote_value(&o.value).unwrap_or_else(|| o.value.clone());
                format!("{}={v}", o.name)
            }
        })
        .collect();
    format!("{}{{{}}}", pass.name(), parts.join(" "))
}

impl OpPassManager {
    /// One-line pipeline text that parses back to this pipeline:
    /// `builtin.module(func.func(cse,canonicalize{...}))`.
    pub fn to_pipeline_string(&self) -> String {
        let items: Vec<String> = self
            .elements()
            .iter()
            .map(|e| match e {
                Element::Pass(p) => pass_text(p.pass()),
                Element::Nested(n) => n.pm().to_pipeline_string(),
            })
            .collect();
        format!("{}({})", self.anchor_name(), items.join(","))
    }

    /// The pipeline laid out one element per line, as `--dump-pass-pipeline` prints it.
    pub fn to_pretty_string(&self) -> String {
        let mut out = String::new();
        self.pretty(0, &mut out);
        out
    }

    fn pretty(&self, indent: usize, out: &mut String) {
        out.push_str(&format!("{:indent$}{}(\n", "", self.anchor_name()));
        let n = self.elements().len();
        for (i, e) in self.elements().iter().enumerate() {
            match e {
                Element::Pass(p) => {
                    out.push_str(&format!("{:w$}{}", "", pass_text(p.pass()), w = indent + 2))
                }
                Element::Nested(nested) => {
                    nested.pm().pretty(indent + 2, out);
                }
            }
            if i + 1 < n {
                out.push(',');
            }
            out.push('\n');
        }
        if n == 0 {
            out.push('\n');
        }
        out.push_str(&format!("{:indent$})", ""));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> Diagnostic {
        match parse_pipeline(text, Nesting::Explicit) {
            Ok(pm) => panic!("'{text}' parsed: {}", pm.to_pipeline_string()),
            Err(d) => d,
        }
    }

    fn span_text<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
        match d.loc {
            tilus_ir::DiagLoc::Span(s) => &text[s.start..s.end.max(s.start)],
            _ => panic!("no span"),
        }
    }

    #[test]
    fn nested_pipeline_with_options_round_trips() {
        let text = "builtin.module(func.func(test-print-op-count, test-fail{mode=corrupt}),\n test-print-op-count{anchor=any annotate=true only={arith.addi,func.return} limit=7})";
        let pm = parse_pipeline(text, Nesting::Explicit).unwrap();
        let printed = pm.to_pipeline_string();
        assert_eq!(
            printed,
            "builtin.module(func.func(test-print-op-count{anchor=any annotate=false limit=-1 },test-fail{mode=corrupt}),\
             test-print-op-count{anchor=any annotate=true limit=7 only={arith.addi,func.return}})"
        );
        let again = parse_pipeline(&printed, Nesting::Explicit).unwrap();
        assert_eq!(again.to_pipeline_string(), printed);
    }

    #[test]
    fn ast_spans_point_at_names_keys_and_values() {
        let text = "builtin.module( any( test-fail { mode = x } ) )";
        // `mode = x`: '=' must follow the key directly, so `mode` is a bare flag and `=` an error.
        assert!(parse_pipeline_ast(text).is_err());
        let text = "builtin.module(any(test-fail{mode=\"corrupt\" x}))";
        let ast = parse_pipeline_ast(text).unwrap();
        let ElementAst::Nested(any) = &ast.elements[0] else {
            panic!()
        };
        assert_eq!(any.anchor, "any");
        let ElementAst::Pass(p) = &any.elements[0] else {
            panic!()
        };
        assert_eq!(&text[p.span.start..p.span.end], "test-fail");
        let (v, vs) = p.options[0].value.clone().unwrap();
        assert_eq!(v, "corrupt");
        assert_eq!(&text[vs.start..vs.end], "\"corrupt\"");
        assert_eq!(p.options[1].key, "x");
        assert!(p.options[1].value.is_none());
    }

    #[test]
    fn values_quoted_braced_and_bare() {
        let ast = parse_pipeline_ast("a.b(p{k='x y' l={a,{b c}} m=f(g h) n= o=\"\" q=1})").unwrap();
        let ElementAst::Pass(p) = &ast.elements[0] else {
            panic!()
        };
        let vals: Vec<(&str, Option<&str>)> = p
            .options
            .iter()
            .map(|o| (o.key.as_str(), o.value.as_ref().map(|v| v.0.as_str())))
            .collect();
        assert_eq!(
            vals,
            [
                ("k", Some("x y")),
                ("l", Some("{a,{b c}}")),
                ("m", Some("f(g h)")),
                ("n", Some("")),
                ("o", Some("")),
                ("q", Some("1")),
            ]
        );
        let ast = parse_pipeline_ast("a.b(p{k=x) l=1})").unwrap();
        let ElementAst::Pass(p) = &ast.elements[0] else {
            panic!()
        };
        assert_eq!(p.options.len(), 2);
        assert_eq!(p.options[0].value.as_ref().unwrap().0, "x)");
    }

    #[test]
    fn whitespace_and_empty_pipelines() {
        let pm = parse_pipeline(
            "  builtin.module ( func.func ( test-fail ) , any() )  ",
            Nesting::Explicit,
        )
        .unwrap();
        assert_eq!(
            pm.to_pipeline_string(),
            "builtin.module(func.func(test-fail{mode=error}),any())"
        );
        let pm = parse_pipeline("builtin.module()", Nesting::Explicit).unwrap();
        assert_eq!(pm.to_pretty_string(), "builtin.module(\n\n)");
    }

    #[test]
    fn pretty_form_matches_mlir_layout() {
        let pm = parse_pipeline(
            "builtin.module(func.func(test-fail,test-fail),test-fail)",
            Nesting::Explicit,
        )
        .unwrap();
        assert_eq!(
            pm.to_pretty_string(),
            "builtin.module(\n  func.func(\n    test-fail{mode=error},\n    test-fail{mode=error}\n  ),\n  test-fail{mode=error}\n)"
        );
    }

    #[test]
    fn wrapping_errors() {
        for text in ["", "   ", "test-fail", "builtin.module", "(test-fail)"] {
            let d = err(text);
            assert!(
                d.message
                    .starts_with("expected pass pipeline to be wrapped"),
                "{text}: {d}"
            );
        }
        let d = err("test-fail");
        assert_eq!(span_text("test-fail", &d), "test-fail");
        assert!(d.help.unwrap().contains("builtin.module(test-fail)"));
    }

    #[test]
    fn unbalanced_parentheses() {
        let t = "builtin.module(func.func(test-fail)";
        let d = err(t);
        assert_eq!(
            d.message,
            "unbalanced parentheses: this '(' is never closed"
        );
        // The outer '(' is the one left open.
        assert_eq!(d.loc, tilus_ir::DiagLoc::Span(Span::new(14, 15)));
        let t = "builtin.module(test-fail))";
        let d = err(t);
        assert!(d.message.contains("extra closing ')'"));
        assert_eq!(d.loc, tilus_ir::DiagLoc::Span(Span::new(25, 26)));
        let d = err("builtin.module(test-fail) x");
        assert!(d.message.contains("expected the end of the pipeline"));
        let d = err("builtin.module(test-fail test-fail)");
        assert!(d.message.contains("expected ',' or ')'"), "{d}");
        let d = err("builtin.module(,test-fail)");
        assert!(d.message.contains("expected a pass name"), "{d}");
        let d = err("builtin.module(test-fail,)");
        assert!(d.message.contains("found ')'"), "{d}");
    }

    #[test]
    fn unknown_pass_suggests_close_names() {
        let t = "builtin.module(func.func(test-fial))";
        let d = err(t);
        assert_eq!(d.message, "'test-fial' does not refer to a registered pass");
        assert_eq!(span_text(t, &d), "test-fial");
        assert_eq!(d.help.as_deref(), Some("did you mean 'test-fail'?"));
        let d = err("builtin.module(zzzzzzzzzz)");
        assert!(d.help.unwrap().contains("--list-passes"));
    }

    #[test]
    fn pass_names_are_not_anchors() {
        let t = "builtin.module(test-fail(x))";
        let d = err(t);
        assert!(d.message.contains("'test-fail' is not an op name"), "{d}");
        assert!(d.help.unwrap().contains("test-fail{key=value}"));
    }

    #[test]
    fn option_errors() {
        let t = "builtin.module(test-fail{mdoe=error})";
        let d = err(t);
        assert_eq!(d.message, "pass 'test-fail' has no option 'mdoe'");
        assert_eq!(span_text(t, &d), "mdoe");
        let help = d.help.unwrap();
        assert!(help.contains("did you mean 'mode'?"), "{help}");
        assert!(
            help.contains("valid options of 'test-fail': mode"),
            "{help}"
        );

        let t = "builtin.module(test-fail{mode=bogus})";
        let d = err(t);
        assert_eq!(
            d.message,
            "invalid value for option 'mode' of pass 'test-fail': expected one of 'error', 'corrupt', got 'bogus'"
        );
        assert_eq!(span_text(t, &d), "bogus");

        let t = "builtin.module(test-print-op-count{limit=x})";
        let d = err(t);
        assert!(d.message.contains("expected an integer, got 'x'"), "{d}");

        let t = "builtin.module(test-print-op-count{limit})";
        let d = err(t);
        assert!(d.message.contains("needs a value"), "{d}");

        // A bare flag is `true`.
        let pm = parse_pipeline(
            "builtin.module(test-print-op-count{annotate})",
            Nesting::Explicit,
        )
        .unwrap();
        assert!(pm.to_pipeline_string().contains("annotate=true"));

        let d = err("builtin.module(test-fail{mode=error)");
        assert!(d.message.contains("never closed"), "{d}");
        let d = err("builtin.module(test-fail{mode=\"error})");
        assert!(d.message.contains("unterminated quoted"), "{d}");
        let d = err("builtin.module(test-fail{=error})");
        assert!(d.message.contains("expected an option name"), "{d}");
    }

    #[test]
    fn anchored_passes_need_their_op_unless_nesting_is_implicit() {
        use crate::testing::ANCHORED_FOR_TESTS;
        let reg = [ANCHORED_FOR_TESTS];
        let t = "builtin.module(test-func-only)";
        let ast = parse_pipeline_ast(t).unwrap();
        let d = build_pipeline(&ast, Nesting::Explicit, &reg).unwrap_err();
        assert!(
            d.message.contains(
                "can't add pass 'test-func-only' restricted to 'func.func' on a pass manager intended to run on 'builtin.module'"
            ),
            "{d}"
        );
        assert_eq!(span_text(t, &d), "test-func-only");
        assert_eq!(
            d.help.as_deref(),
            Some("nest it in a pipeline on its op: 'func.func(test-func-only)'")
        );
        // Implicit nesting groups adjacent passes of one anchor, like MLIR's adaptor merging.
        let t = "builtin.module(test-func-only,test-func-only)";
        let pm = build_pipeline(&parse_pipeline_ast(t).unwrap(), Nesting::Implicit, &reg).unwrap();
        assert_eq!(
            pm.to_pipeline_string(),
            "builtin.module(func.func(test-func-only,test-func-only))"
        );
        // In an `any` pipeline the check waits for run time, as in MLIR.
        let t = "any(test-func-only)";
        assert!(build_pipeline(&parse_pipeline_ast(t).unwrap(), Nesting::Explicit, &reg).is_ok());
    }

    crate::declare_pipeline! {
        /// A pipeline with a misspelled step.
        const TYPO {
            name: "test-typo-pipeline",
            anchor: "builtin.module",
            summary: "test",
            description: "test",
            options: {},
            steps: "test-fail,test-fial",
        }
    }

    crate::declare_pipeline! {
        /// A pipeline that reaches itself.
        const LOOPS {
            name: "test-loop",
            anchor: "builtin.module",
            summary: "test",
            description: "test",
            options: {
                n: i64 = 1, "n", "unused";
            },
            steps: "test-fail,test-loop{n=${n}}",
        }
    }

    #[test]
    fn a_misspelled_step_is_an_error_at_the_pipeline() {
        let t = "builtin.module(test-fail, test-typo-pipeline)";
        let ast = parse_pipeline_ast(t).unwrap();
        let d = build_pipeline_with(&ast, Nesting::Explicit, &registry(), &[&TYPO]).unwrap_err();
        assert_eq!(
            d.message,
            "pipeline 'test-typo-pipeline' does not expand: 'test-fial' does not refer to a registered pass"
        );
        assert_eq!(span_text(t, &d), "test-typo-pipeline");
        assert_eq!(
            d.help.as_deref(),
            Some("its steps are 'test-fail,test-fial'")
        );
        let t = "builtin.module(test-loop{n=2})";
        let ast = parse_pipeline_ast(t).unwrap();
        let d = build_pipeline_with(&ast, Nesting::Explicit, &registry(), &[&LOOPS]).unwrap_err();
        assert!(d.message.contains("must not reach itself"), "{d}");
        assert_eq!(span_text(t, &d), "test-loop");
    }

    #[test]
    fn pipelines_expand_in_place_with_their_options() {
        let pm = parse_pipeline(
            "builtin.module(cse,tilus-to-ptx{target=sm_100a},dce)",
            Nesting::Explicit,
        )
        .unwrap();
        let text = pm.to_pipeline_string();
        assert!(
            text.starts_with(
                "builtin.module(cse,scf-forall-to-for,scf-parallel-for-to-nested-fors{reductions=true},\
                 verify-barriers,infer-layouts{target=sm_100a},lower-async-to-ptx,\
                 plan-shared-memory,lower-tiles{target=sm_100a},"
            ),
            "{text}"
        );
        assert!(
            text.contains("lower-tilus-kernel{target=sm_100a}"),
            "{text}"
        );
        assert!(text.ends_with("convert-arith-to-ptx,dce)"), "{text}");
        // Implicit nesting (pass flags) nests a pipeline under its anchor like a pass.
        let pm = parse_pipeline("builtin.module(tilus-to-ptx)", Nesting::Implicit).unwrap();
        assert_eq!(pm.len(), 16);
        // A bool option drops the steps it guards.
        let pm = parse_pipeline(
            "builtin.module(tilus-to-ptx{eqsat=false})",
            Nesting::Implicit,
        )
        .unwrap();
        assert_eq!(pm.len(), 13);
        let pm = parse_pipeline(
            "builtin.module(tilus-to-ptx{infer-layouts=false})",
            Nesting::Implicit,
        )
        .unwrap();
        assert_eq!(pm.len(), 15);
    }

    #[test]
    fn flags_become_pipeline_text() {
        assert_eq!(
            pipeline_text_from_flags(
                "builtin.module",
                &[
                    ("cse", ""),
                    ("canonicalize", "max-iterations=3 top-down=false")
                ]
            ),
            "builtin.module(cse,canonicalize{max-iterations=3 top-down=false})"
        );
    }

    #[test]
    fn truncated_and_mutated_pipelines_never_panic() {
        let text = "builtin.module( func.func(test-fail{mode='corrupt'}, any(test-print-op-count{only={a.b,c.d} limit=3 annotate})), test-fail )";
        let specials = ['(', ')', '{', '}', ',', '=', '"', '\'', ' ', 'é', 'x'];
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        for &(i, _) in &chars {
            // Every prefix and every suffix.
            let _ = parse_pipeline(&text[..i], Nesting::Explicit);
            let _ = parse_pipeline(&text[i..], Nesting::Implicit);
            // Every single-character replacement and deletion.
            for c in specials {
                let mut m = text[..i].to_string();
                m.push(c);
                m.push_str(&text[i + 1..]);
                if let Err(d) = parse_pipeline(&m, Nesting::Explicit) {
                    if let tilus_ir::DiagLoc::Span(sp) = d.loc {
                        assert!(sp.start <= sp.end && sp.end <= m.len(), "{m}: {sp:?}");
                        assert!(m.is_char_boundary(sp.start) && m.is_char_boundary(sp.end));
                    }
                }
            }
            let deleted = format!("{}{}", &text[..i], &text[i + 1..]);
            let _ = parse_pipeline(&deleted, Nesting::Explicit);
        }
    }

    #[test]
    fn non_ascii_text_does_not_panic() {
        let d = err("builtin.module(tést-fail)");
        assert!(d.message.contains("'tést-fail'"));
        let d = err("é(");
        assert!(d.message.contains("not an op name"), "{d}");
        let d = err("builtin.module(test-fail{mode=é)");
        assert!(d.message.contains("never closed"), "{d}");
    }
}
