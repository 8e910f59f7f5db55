//! Check patterns: parsing of one directive's text into a fixed string or a regex with variable
//! definitions and substitutions, and matching it against a slice of the input.
//!
//! The regex text is assembled exactly the way LLVM FileCheck assembles its `RegExStr` (escaped
//! literal runs, `{{...}}` pieces, `(...)` around definitions, `\N` back-references for
//! same-line uses, substitution values spliced in at match time), so that both the match results
//! and the "possible intended match" heuristic, which compares against that text, agree.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use crate::posix_regex::{self, Regex};
use crate::source::{Kind as DiagKind, Loc, SourceMgr};

/// Directive kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Plain,
    Next,
    Same,
    Not,
    Dag,
    Label,
    Empty,
    /// Implicit end-of-input pattern that carries trailing CHECK-NOT/CHECK-DAG directives.
    Eof,
}

/// A directive kind with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckType {
    pub kind: Kind,
    pub count: usize,
    pub literal: bool,
}

impl CheckType {
    pub fn new(kind: Kind) -> Self {
        CheckType {
            kind,
            count: 1,
            literal: false,
        }
    }

    /// The directive name used in messages (`CHECK-NEXT`, `CHECK-COUNT`, `implicit EOF`, ...).
    pub fn description(&self, prefix: &str) -> String {
        let suffix = match self.kind {
            Kind::Plain if self.count > 1 => "-COUNT",
            Kind::Plain => "",
            Kind::Next => "-NEXT",
            Kind::Same => "-SAME",
            Kind::Not => "-NOT",
            Kind::Dag => "-DAG",
            Kind::Label => "-LABEL",
            Kind::Empty => "-EMPTY",
            Kind::Eof => return "implicit EOF".to_string(),
        };
        let modifiers = if self.literal { "{LITERAL}" } else { "" };
        format!("{prefix}{suffix}{modifiers}")
    }
}

/// Numeric value kinds of `[[#%u,...]]`-style format specifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FmtKind {
    Unsigned,
    Signed,
    HexLower,
    HexUpper,
}

/// Matching format of a numeric expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub kind: FmtKind,
    pub precision: usize,
    pub alt: bool,
}

impl Format {
    const UNSIGNED: Format = Format {
        kind: FmtKind::Unsigned,
        precision: 0,
        alt: false,
    };

    fn spec(&self) -> &'static str {
        match self.kind {
            FmtKind::Unsigned => "%u",
            FmtKind::Signed => "%d",
            FmtKind::HexLower => "%x",
            FmtKind::HexUpper => "%X",
        }
    }

    fn wildcard(&self) -> String {
        let prefix = if self.alt { "0x" } else { "" };
        let (body, plain) = match self.kind {
            FmtKind::Unsigned => ("([1-9][0-9]*)?[0-9]", "[0-9]+"),
            FmtKind::Signed => ("-?([1-9][0-9]*)?[0-9]", "-?[0-9]+"),
            FmtKind::HexLower => ("([1-9a-f][0-9a-f]*)?[0-9a-f]", "[0-9a-f]+"),
            FmtKind::HexUpper => ("([1-9A-F][0-9A-F]*)?[0-9A-F]", "[0-9A-F]+"),
        };
        if self.precision > 0 {
            format!("{prefix}{body}{{{}}}", self.precision)
        } else {
            format!("{prefix}{plain}")
        }
    }

    fn render(&self, v: i128) -> Option<String> {
        let (neg, abs) = (v < 0, v.unsigned_abs());
        let digits = match self.kind {
            FmtKind::Unsigned if neg => return None,
            FmtKind::Unsigned | FmtKind::Signed => abs.to_string(),
            FmtKind::HexLower if !neg => format!("{abs:x}"),
            FmtKind::HexUpper if !neg => format!("{abs:X}"),
            _ => return None,
        };
        let pad = "0".repeat(self.precision.saturating_sub(digits.len()));
        let prefix = if self.alt { "0x" } else { "" };
        Some(format!(
            "{}{prefix}{pad}{digits}",
            if neg { "-" } else { "" }
        ))
    }

    fn parse_value(&self, s: &str) -> Option<i128> {
        let (neg, s) = match s.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, s),
        };
        let s = if self.alt {
            s.strip_prefix("0x").unwrap_or(s)
        } else {
            s
        };
        let radix = if matches!(self.kind, FmtKind::HexLower | FmtKind::HexUpper) {
            16
        } else {
            10
        };
        let v = i128::from_str_radix(s, radix).ok()?;
        Some(if neg { -v } else { v })
    }
}

/// A byte range of the buffer a pattern was parsed from (the text LLVM quotes for a node).
pub type Span = (usize, usize);

/// Numeric expression tree. Nodes keep their source text's range because LLVM's messages
/// (format conflicts) quote and point at it.
#[derive(Debug, Clone)]
pub enum Ast {
    Lit(i128, Span),
    Line(Span),
    Var(String, Loc),
    Bin(u8, Box<Ast>, Box<Ast>, Span),
    Call(String, Vec<Ast>, Span),
}

/// Which operands a position in an expression accepts (LLVM `AllowedOperand`): legacy
/// `[[@LINE+N]]` blocks take `@LINE` first and a decimal literal second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Allowed {
    LineVar,
    LegacyLiteral,
    Any,
}

/// Why evaluating an expression failed.
pub enum EvalError {
    Undefined(Vec<(String, Loc)>),
    Overflow,
}

/// Variable state shared by all patterns (LLVM's `FileCheckPatternContext`).
#[derive(Default)]
pub struct Context {
    pub strings: HashMap<String, Vec<u8>>,
    /// Numeric variables: current value (None until matched) and format.
    pub numerics: HashMap<String, (Option<i128>, Format)>,
}

impl Context {
    /// Forgets variables whose names do not start with `$` (`--enable-var-scope`).
    pub fn clear_local(&mut self) {
        self.strings.retain(|k, _| k.starts_with('$'));
        for (k, v) in self.numerics.iter_mut() {
            if !k.starts_with('$') {
                v.0 = None;
            }
        }
    }

    fn eval(&self, ast: &Ast, line: Option<usize>) -> Result<i128, EvalError> {
        match ast {
            Ast::Lit(v, _) => Ok(*v),
            Ast::Line(_) => match line {
                Some(l) => Ok(l as i128),
                None => Err(EvalError::Undefined(vec![(
                    "@LINE".to_string(),
                    Loc { buf: 0, off: 0 },
                )])),
            },
            Ast::Var(n, loc) => match self.numerics.get(n).and_then(|v| v.0) {
                Some(v) => Ok(v),
                None => Err(EvalError::Undefined(vec![(n.clone(), *loc)])),
            },
            Ast::Bin(op, a, b, _) => {
                let (a, b) = join(self.eval(a, line), self.eval(b, line))?;
                if *op == b'+' {
                    a.checked_add(b).ok_or(EvalError::Overflow)
                } else {
                    a.checked_sub(b).ok_or(EvalError::Overflow)
                }
            }
            Ast::Call(f, args, _) => {
                let (a, b) = join(self.eval(&args[0], line), self.eval(&args[1], line))?;
                match f.as_str() {
                    "add" => a.checked_add(b),
                    "sub" => a.checked_sub(b),
                    "mul" => a.checked_mul(b),
                    "div" => a.checked_div(b),
                    "max" => Some(a.max(b)),
                    _ => Some(a.min(b)),
                }
                .ok_or(EvalError::Overflow)
            }
        }
    }
}

fn join(a: Result<i128, EvalError>, b: Result<i128, EvalError>) -> Result<(i128, i128), EvalError> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(EvalError::Undefined(mut x)), Err(EvalError::Undefined(y))) => {
            x.extend(y);
            Err(EvalError::Undefined(x))
        }
        (Err(e), _) | (_, Err(e)) => Err(e),
    }
}

/// Where a substitution's value comes from.
#[derive(Debug, Clone)]
pub enum SubstKind {
    Str(String),
    Num(Ast, Format),
}

/// A `[[VAR]]` or `[[#expr]]` use whose value is spliced into the regex at match time.
#[derive(Debug, Clone)]
pub struct Subst {
    /// Text shown in `with "..." equal to ...` notes.
    pub from: String,
    /// Location of the variable name (for "undefined variable" errors).
    pub loc: Loc,
    /// Byte index in the regex text where the value goes.
    pub index: usize,
    pub kind: SubstKind,
}

/// One parsed directive pattern.
pub struct Pattern {
    pub ty: CheckType,
    /// Location of the pattern text (where error carets point).
    pub loc: Loc,
    /// Check-file line of the directive (`@LINE`); None for implicit patterns.
    pub line: Option<usize>,
    pub fixed: Vec<u8>,
    pub regex_str: Vec<u8>,
    pub substs: Vec<Subst>,
    /// String variable definitions: name -> capture group (sorted by name, as LLVM's std::map).
    pub var_defs: BTreeMap<String, usize>,
    /// Numeric variable definitions: name -> (capture group, format).
    pub num_defs: BTreeMap<String, (usize, Format)>,
    pub ignore_case: bool,
    /// Never matches (see [`Pattern::never`]).
    never: bool,
    compiled: RefCell<Option<Regex>>,
}

/// Pattern-parsing settings taken from the command line.
pub struct ParseOptions {
    pub match_full_lines: bool,
    pub strict_whitespace: bool,
    pub ignore_case: bool,
}

/// A successful match: offset and length within the searched buffer.
#[derive(Debug, Clone, Copy)]
pub struct Match {
    pub pos: usize,
    pub len: usize,
}

/// Variables captured by a match: name and byte range.
pub type Captures = Vec<(String, usize, usize)>;

/// Why a match attempt failed.
pub enum MatchError {
    NotFound,
    /// Errors tied to the pattern (undefined variables, overflow): location and message.
    Diags(Vec<(Loc, String)>),
}

fn is_alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    posix_regex::find_bytes(hay, needle, from)
}

fn find_icase(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

fn trim_space(s: &[u8], start: usize, end: usize) -> (usize, usize) {
    let mut s0 = start;
    let mut e0 = end;
    while s0 < e0 && matches!(s[s0], b' ' | b'\t') {
        s0 += 1;
    }
    while e0 > s0 && matches!(s[e0 - 1], b' ' | b'\t') {
        e0 -= 1;
    }
    (s0, e0)
}

/// Parser state for one pattern: the buffer it lives in and the context tables it consults.
struct PatternParser<'a> {
    sm: &'a mut SourceMgr,
    buf: usize,
    ctx: &'a mut ParseContext,
    line: Option<usize>,
    /// Errors are being reported the `logAllUnhandledErrors` way (numeric blocks).
    logged: bool,
}

/// Parse-time knowledge about variables (LLVM checks collisions while parsing).
#[derive(Default)]
pub struct ParseContext {
    pub string_vars: std::collections::HashSet<String>,
    /// Numeric variables: format and the check line that defined them.
    pub numeric_vars: HashMap<String, (Format, Option<usize>)>,
}

type PResult<T> = Result<T, ()>;

impl PatternParser<'_> {
    fn err(&mut self, off: usize, msg: &str) {
        self.sm
            .print(Loc { buf: self.buf, off }, DiagKind::Error, msg, &[]);
        if self.logged {
            // LLVM reports these through `logAllUnhandledErrors`, which adds a blank line.
            self.sm.out.push('\n');
        }
    }

    /// Like [`Self::err`] for errors LLVM propagates as `Expected` values.
    fn err_logged(&mut self, off: usize, msg: &str) {
        let saved = std::mem::replace(&mut self.logged, true);
        self.err(off, msg);
        self.logged = saved;
    }

    fn text(&self) -> &[u8] {
        self.sm.text(self.buf)
    }

    /// Parses a variable name at `i` (LLVM `parseVariable`): returns (name end, is pseudo).
    fn parse_variable(&mut self, i: usize, end: usize) -> PResult<(usize, bool)> {
        let t = self.sm.shared(self.buf);
        scan_variable(&t, i, end).map_err(|(off, msg)| self.err_logged(off, msg))
    }

    fn skip_space(&self, mut i: usize, end: usize) -> usize {
        let t = self.text();
        while i < end && matches!(t[i], b' ' | b'\t') {
            i += 1;
        }
        i
    }

    fn str_at(&self, s: usize, e: usize) -> String {
        String::from_utf8_lossy(&self.text()[s..e]).into_owned()
    }

    /// Parses one operand of a numeric expression at `*i` (LLVM `parseNumericOperand`): a
    /// parenthesised expression, a function call, a variable or a literal, as `allowed` permits.
    /// `maybe_constraint` widens the "invalid operand" message for the first operand of a block
    /// that has no `==`, where a malformed constraint is as likely as a malformed operand.
    fn parse_operand(
        &mut self,
        i: &mut usize,
        end: usize,
        allowed: Allowed,
        maybe_constraint: bool,
    ) -> PResult<Ast> {
        let t = self.sm.shared(self.buf);
        if *i < end && t[*i] == b'(' {
            if allowed != Allowed::Any {
                self.err(*i, "parenthesized expression not permitted here");
                return Err(());
            }
            return self.parse_paren(i, end);
        }
        if allowed != Allowed::LegacyLiteral {
            match scan_variable(&t, *i, end) {
                Ok((ne, pseudo)) => {
                    let start = *i;
                    let name = self.str_at(start, ne);
                    if self.skip_space(ne, end) < end && t[self.skip_space(ne, end)] == b'(' {
                        if allowed != Allowed::Any {
                            self.err(start, "unexpected function call");
                            return Err(());
                        }
                        *i = ne;
                        return self.parse_call(i, end, start, name);
                    }
                    *i = ne;
                    return self.parse_variable_use(start, name, pseudo);
                }
                Err((off, msg)) => {
                    if allowed == Allowed::LineVar {
                        self.err(off, msg);
                        return Err(());
                    }
                }
            }
        }
        // A literal: decimal, or any base C-style prefixes select (LLVM `consumeInteger`);
        // legacy `@LINE` offsets are decimal only.
        let start = *i;
        let mut j = *i;
        let neg = j < end && t[j] == b'-';
        if neg {
            j += 1;
        }
        let radix = if allowed == Allowed::LegacyLiteral {
            Some(10)
        } else {
            None
        };
        match consume_integer(&t[..end], j, radix) {
            Some((Some(v), k)) => {
                *i = k;
                Ok(Ast::Lit(if neg { -v } else { v }, (start, k)))
            }
            Some((None, _)) => {
                self.err(start, "unable to represent numeric value");
                Err(())
            }
            None => {
                let msg = if maybe_constraint {
                    "invalid matching constraint or operand format"
                } else {
                    "invalid operand format"
                };
                self.err(start, msg);
                Err(())
            }
        }
    }

    /// A use of numeric variable `name` (or `@LINE`) at `start` (LLVM `parseNumericVariableUse`).
    fn parse_variable_use(&mut self, start: usize, name: String, pseudo: bool) -> PResult<Ast> {
        if pseudo {
            if name != "@LINE" {
                self.err(start, &format!("invalid pseudo numeric variable '{name}'"));
                return Err(());
            }
            return Ok(Ast::Line((start, start + name.len())));
        }
        if let Some((_, Some(def_line))) = self.ctx.numeric_vars.get(&name) {
            if self.line == Some(*def_line) && self.line.is_some() {
                self.err(
                    start,
                    &format!(
                        "numeric variable '{name}' defined earlier in the same CHECK directive"
                    ),
                );
                return Err(());
            }
        }
        // An unknown name becomes an unsigned variable with no value yet: the use is reported
        // when matching, and the name is taken for string variables from now on (as in LLVM).
        self.ctx
            .numeric_vars
            .entry(name.clone())
            .or_insert((Format::UNSIGNED, None));
        Ok(Ast::Var(
            name,
            Loc {
                buf: self.buf,
                off: start,
            },
        ))
    }

    /// `( expr )` at `*i` (LLVM `parseParenExpr`).
    fn parse_paren(&mut self, i: &mut usize, end: usize) -> PResult<Ast> {
        let t = self.sm.shared(self.buf);
        *i += 1;
        *i = self.skip_space(*i, end);
        if *i >= end {
            self.err(*i, "missing operand in expression");
            return Err(());
        }
        let mut sub = self.parse_operand(i, end, Allowed::Any, false)?;
        *i = self.skip_space(*i, end);
        while *i < end && t[*i] != b')' {
            // LLVM takes the text of an operation inside parentheses from its operator on.
            let outer = *i;
            sub = self.parse_binop(outer, i, end, sub, false)?;
            *i = self.skip_space(*i, end);
        }
        if *i >= end || t[*i] != b')' {
            self.err(*i, "missing ')' at end of nested expression");
            return Err(());
        }
        *i += 1;
        Ok(sub)
    }

    /// `name(arg, arg)` with `*i` after the name (LLVM `parseCallExpr`).
    fn parse_call(
        &mut self,
        i: &mut usize,
        end: usize,
        name_at: usize,
        name: String,
    ) -> PResult<Ast> {
        let t = self.sm.shared(self.buf);
        *i = self.skip_space(*i, end);
        if !matches!(name.as_str(), "add" | "sub" | "mul" | "div" | "max" | "min") {
            self.err(name_at, &format!("call to undefined function '{name}'"));
            return Err(());
        }
        *i += 1;
        *i = self.skip_space(*i, end);
        let mut args = Vec::new();
        while *i < end && t[*i] != b')' {
            if t[*i] == b',' {
                self.err(*i, "missing argument");
                return Err(());
            }
            let outer = *i;
            let mut arg = self.parse_operand(i, end, Allowed::Any, false)?;
            while *i < end {
                *i = self.skip_space(*i, end);
                if *i < end && (t[*i] == b',' || t[*i] == b')') {
                    break;
                }
                arg = self.parse_binop(outer, i, end, arg, false)?;
            }
            args.push(arg);
            *i = self.skip_space(*i, end);
            if *i >= end || t[*i] != b',' {
                break;
            }
            *i += 1;
            *i = self.skip_space(*i, end);
            if *i < end && t[*i] == b')' {
                self.err(*i, "missing argument");
                return Err(());
            }
        }
        if *i >= end || t[*i] != b')' {
            self.err(*i, "missing ')' at end of call expression");
            return Err(());
        }
        *i += 1;
        if args.len() != 2 {
            self.err(
                name_at,
                &format!(
                    "function '{name}' takes 2 arguments but {} given",
                    args.len()
                ),
            );
            return Err(());
        }
        // LLVM names a call by the text after its closing parenthesis (to the end of the
        // block); that is where its format conflicts are reported.
        Ok(Ast::Call(name, args, (*i, end)))
    }

    /// One `+`/`-` operation whose left operand is parsed (LLVM `parseBinop`); the operation's
    /// text runs from `outer` to the end of its right operand.
    fn parse_binop(
        &mut self,
        outer: usize,
        i: &mut usize,
        end: usize,
        lhs: Ast,
        legacy: bool,
    ) -> PResult<Ast> {
        *i = self.skip_space(*i, end);
        if *i >= end {
            return Ok(lhs);
        }
        let op = self.text()[*i];
        if op != b'+' && op != b'-' {
            let shown = self.str_at(*i, (*i + utf8_len(op)).min(end));
            self.err(*i, &format!("unsupported operation '{shown}'"));
            return Err(());
        }
        *i += 1;
        *i = self.skip_space(*i, end);
        if *i >= end {
            self.err(*i, "missing operand in expression");
            return Err(());
        }
        let allowed = if legacy {
            Allowed::LegacyLiteral
        } else {
            Allowed::Any
        };
        let rhs = self.parse_operand(i, end, allowed, false)?;
        Ok(Ast::Bin(op, Box::new(lhs), Box::new(rhs), (outer, *i)))
    }

    /// Parses a whole expression in `[*i, end)` (already trimmed), as the body of a numeric
    /// block does: operands joined by `+`/`-`, left to right.
    fn parse_expr(
        &mut self,
        i: &mut usize,
        end: usize,
        legacy: bool,
        constraint: bool,
    ) -> PResult<Ast> {
        let outer = *i;
        let first = if legacy {
            Allowed::LineVar
        } else {
            Allowed::Any
        };
        let mut ast = self.parse_operand(i, end, first, !constraint)?;
        while *i < end {
            ast = self.parse_binop(outer, i, end, ast, legacy)?;
            if legacy && *i < end {
                let rest = self.str_at(*i, end);
                self.err(
                    *i,
                    &format!("unexpected characters at end of expression '{rest}'"),
                );
                return Err(());
            }
        }
        Ok(ast)
    }

    /// The text LLVM uses for an expression node in messages.
    fn node_text(&self, ast: &Ast) -> String {
        match ast {
            Ast::Lit(_, (s, e))
            | Ast::Line((s, e))
            | Ast::Bin(_, _, _, (s, e))
            | Ast::Call(_, _, (s, e)) => self.str_at(*s, *e),
            Ast::Var(n, _) => n.clone(),
        }
    }

    /// The format an expression gets when none is given (LLVM `getImplicitFormat`); both sides
    /// of an operation are examined, so both of their conflicts are reported.
    fn implicit_format(&mut self, ast: &Ast) -> PResult<Option<Format>> {
        let (a, b, at) = match ast {
            Ast::Lit(..) => return Ok(None),
            Ast::Line(_) => return Ok(Some(Format::UNSIGNED)),
            Ast::Var(n, _) => return Ok(self.ctx.numeric_vars.get(n).map(|v| v.0)),
            Ast::Bin(_, a, b, (s, _)) => (&**a, &**b, *s),
            Ast::Call(_, args, (s, _)) => (&args[0], &args[1], *s),
        };
        let fa = self.implicit_format(a);
        let fb = self.implicit_format(b);
        let (fa, fb) = (fa?, fb?);
        match (fa, fb) {
            (Some(x), Some(y)) if x != y => {
                let msg = format!(
                    "implicit format conflict between '{}' ({}) and '{}' ({}), need an explicit format specifier",
                    self.node_text(a),
                    x.spec(),
                    self.node_text(b),
                    y.spec()
                );
                self.err(at, &msg);
                Err(())
            }
            (Some(x), _) | (_, Some(x)) => Ok(Some(x)),
            _ => Ok(None),
        }
    }

    /// Parses the body of `[[#...]]` (between `#` and `]]`): returns the expression (if any),
    /// its format, and the defined variable name with its location (if any).
    #[allow(clippy::type_complexity)]
    fn parse_numeric_block(
        &mut self,
        start: usize,
        end: usize,
        legacy: bool,
    ) -> PResult<(Option<Ast>, Format, Option<(String, usize)>)> {
        let t = self.sm.shared(self.buf);
        let mut i = start;
        let mut explicit: Option<Format> = None;
        let comma = t[start..end]
            .iter()
            .position(|&b| b == b',')
            .map(|p| p + start);
        let paren = t[start..end]
            .iter()
            .position(|&b| b == b'(')
            .map(|p| p + start);
        if let Some(c) = comma {
            if paren.is_none_or(|p| c < p) {
                let (fs, fe) = trim_space(&t, start, c);
                i = c + 1;
                let mut k = fs;
                if k >= fe || t[k] != b'%' {
                    self.err(fs, "invalid matching format specification in expression");
                    return Err(());
                }
                k += 1;
                let alt_loc = k;
                let alt = k < fe && t[k] == b'#';
                if alt {
                    k += 1;
                }
                let mut precision = 0usize;
                if k < fe && t[k] == b'.' {
                    k += 1;
                    let ds = k;
                    while k < fe && t[k].is_ascii_digit() {
                        k += 1;
                    }
                    if ds == k {
                        self.err(ds, "invalid precision in format specifier");
                        return Err(());
                    }
                    // LLVM reads the precision as an `unsigned`: one beyond 64 bits is not
                    // consumed (reported at its first digit), one beyond 32 bits is (reported
                    // after it).
                    match self.str_at(ds, k).parse::<u64>() {
                        Ok(p) if p <= u32::MAX as u64 => precision = p as usize,
                        Ok(_) => {
                            self.err(k, "invalid precision in format specifier");
                            return Err(());
                        }
                        Err(_) => {
                            self.err(ds, "invalid precision in format specifier");
                            return Err(());
                        }
                    }
                }
                if k < fe {
                    let kind = match t[k] {
                        b'u' => FmtKind::Unsigned,
                        b'd' => FmtKind::Signed,
                        b'x' => FmtKind::HexLower,
                        b'X' => FmtKind::HexUpper,
                        _ => {
                            self.err(k, "invalid format specifier in expression");
                            return Err(());
                        }
                    };
                    k += 1;
                    explicit = Some(Format {
                        kind,
                        precision,
                        alt,
                    });
                }
                if alt
                    && !matches!(
                        explicit.map(|f| f.kind),
                        Some(FmtKind::HexLower | FmtKind::HexUpper)
                    )
                {
                    self.err(alt_loc, "alternate form only supported for hex values");
                    return Err(());
                }
                let k2 = self.skip_space(k, fe);
                if k2 < fe {
                    self.err(k2, "invalid matching format specification in expression");
                    return Err(());
                }
                if explicit.is_none() && precision > 0 {
                    explicit = Some(Format {
                        kind: FmtKind::Unsigned,
                        precision,
                        alt: false,
                    });
                }
            }
        }
        let mut def: Option<(usize, usize)> = None;
        if let Some(colon) = t[i..end].iter().position(|&b| b == b':').map(|p| p + i) {
            def = Some((i, colon));
            i = colon + 1;
        }
        i = self.skip_space(i, end);
        let constraint = t[i..end].starts_with(b"==");
        if constraint {
            i += 2;
        }
        i = self.skip_space(i, end);
        let ast = if i >= end {
            if constraint {
                self.err(i, "empty numeric expression should not have a constraint");
                return Err(());
            }
            None
        } else {
            let (_, e) = trim_space(&t, i, end);
            let mut j = i;
            Some(self.parse_expr(&mut j, e, legacy, constraint)?)
        };
        let format = match explicit {
            Some(f) => f,
            None => match &ast {
                Some(a) => self.implicit_format(a)?.unwrap_or(Format::UNSIGNED),
                None => Format::UNSIGNED,
            },
        };
        let mut defined = None;
        if let Some((ds, de)) = def {
            let ds = self.skip_space(ds, de);
            let (ne, pseudo) = self.parse_variable(ds, de)?;
            let name = self.str_at(ds, ne);
            if pseudo {
                self.err(ds, "definition of pseudo numeric variable unsupported");
                return Err(());
            }
            if self.ctx.string_vars.contains(&name) {
                self.err(
                    ds,
                    &format!("string variable with name '{name}' already exists"),
                );
                return Err(());
            }
            let rest = self.skip_space(ne, de);
            if rest < de {
                self.err(rest, "unexpected characters after numeric variable name");
                return Err(());
            }
            // A redefinition reuses the variable (keeping its first definition line), which
            // must keep its format.
            if let Some((existing, _)) = self.ctx.numeric_vars.get(&name) {
                if *existing != format {
                    self.err(rest, "format different from previous variable definition");
                    return Err(());
                }
            }
            defined = Some((name, ds));
        }
        Ok((ast, format, defined))
    }
}

/// Reads a variable name at `i` without reporting anything (LLVM `parseVariable`): the name's
/// end and whether it is a pseudo variable (`@...`), or where and why it is malformed.
fn scan_variable(t: &[u8], i: usize, end: usize) -> Result<(usize, bool), (usize, &'static str)> {
    if i >= end {
        return Err((i, "empty variable name"));
    }
    let pseudo = t[i] == b'@';
    let mut j = i;
    if t[i] == b'$' || pseudo {
        j += 1;
    }
    if j == end {
        let msg = if pseudo {
            "empty pseudo variable name"
        } else {
            "empty global variable name"
        };
        return Err((j, msg));
    }
    if !(t[j].is_ascii_alphabetic() || t[j] == b'_') {
        return Err((i, "invalid variable name"));
    }
    j += 1;
    while j < end && (t[j] == b'_' || is_alnum(t[j])) {
        j += 1;
    }
    Ok((j, pseudo))
}

/// Reads an unsigned integer at `i` like LLVM's `StringRef::consumeInteger`: with no `radix`,
/// `0x`/`0b`/`0o` prefixes and a leading `0` choose the base. None when nothing was consumed;
/// otherwise the value (None if it does not fit) and where it ends.
fn consume_integer(t: &[u8], i: usize, radix: Option<u32>) -> Option<(Option<i128>, usize)> {
    let mut j = i;
    let radix = match radix {
        Some(r) => r,
        None => {
            let rest = &t[i..];
            if rest.len() >= 2 && rest[0] == b'0' && matches!(rest[1], b'x' | b'X') {
                j += 2;
                16
            } else if rest.len() >= 2 && rest[0] == b'0' && matches!(rest[1], b'b' | b'B') {
                j += 2;
                2
            } else if rest.starts_with(b"0o") {
                j += 2;
                8
            } else if rest.len() >= 2 && rest[0] == b'0' && rest[1].is_ascii_digit() {
                j += 1;
                8
            } else {
                10
            }
        }
    };
    if j >= t.len() {
        return None;
    }
    while j < t.len() && t[j] == b'0' {
        j += 1;
    }
    let digits = j;
    let mut value: Option<i128> = Some(0);
    while j < t.len() {
        let Some(d) = (t[j] as char).to_digit(36).filter(|&d| d < radix) else {
            break;
        };
        value = value
            .and_then(|v| v.checked_mul(radix as i128))
            .and_then(|v| v.checked_add(d as i128));
        j += 1;
    }
    // Nothing at all consumed (a lone prefix with no digit still counts as consumed, as in LLVM).
    if j == i || (j == digits && digits == i) {
        return None;
    }
    Some((value, j))
}

/// Length of the UTF-8 sequence a byte starts (1 for anything that is not a lead byte).
fn utf8_len(b: u8) -> usize {
    match b {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

/// Finds the `]]` closing a substitution block body starting at `i` (LLVM `FindRegexVarEnd`).
/// `Err(off)` reports an unbalanced `]` at `off`; `Ok(None)` means no `]]` at all.
fn find_var_end(t: &[u8], mut i: usize, end: usize) -> Result<Option<usize>, usize> {
    let mut depth = 0usize;
    while i < end {
        if t[i..end].starts_with(b"]]") && depth == 0 {
            return Ok(Some(i));
        }
        if t[i] == b'\\' {
            i += 2;
            continue;
        }
        match t[i] {
            b'[' => depth += 1,
            b']' => {
                if depth == 0 {
                    return Err(i);
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    Ok(None)
}

/// Outcome of parsing when FileCheck would exit immediately (LLVM calls `exit(1)` for an
/// unbalanced `]` inside a substitution block).
pub enum ParseFailure {
    /// Diagnostics were printed; the check file is invalid (exit status 2).
    Invalid,
    /// Diagnostics were printed; exit with this status right away.
    Exit(i32),
}

impl Pattern {
    /// Parses the pattern text at `[start, end)` of buffer `buf` (LLVM `Pattern::parsePattern`).
    #[allow(clippy::too_many_arguments)]
    pub fn parse(
        sm: &mut SourceMgr,
        buf: usize,
        start: usize,
        end: usize,
        ty: CheckType,
        prefix: &str,
        line: Option<usize>,
        opts: &ParseOptions,
        ctx: &mut ParseContext,
    ) -> Result<Pattern, ParseFailure> {
        let full_lines_here = opts.match_full_lines && ty.kind != Kind::Not;
        let mut pat = Pattern {
            ty,
            loc: Loc { buf, off: start },
            line,
            fixed: Vec::new(),
            regex_str: Vec::new(),
            substs: Vec::new(),
            var_defs: BTreeMap::new(),
            num_defs: BTreeMap::new(),
            ignore_case: opts.ignore_case,
            never: false,
            compiled: RefCell::new(None),
        };
        let t = sm.shared(buf);
        let mut end = end;
        if !(opts.strict_whitespace && opts.match_full_lines) {
            while end > start && matches!(t[end - 1], b' ' | b'\t') {
                end -= 1;
            }
        }
        let mut p = PatternParser {
            sm,
            buf,
            ctx,
            line,
            logged: false,
        };
        if start == end && ty.kind != Kind::Empty {
            p.err(
                start,
                &format!("found empty check string with prefix '{prefix}:'"),
            );
            return Err(ParseFailure::Invalid);
        }
        if start != end && ty.kind == Kind::Empty {
            p.err(
                start,
                &format!("found non-empty check string for empty check with prefix '{prefix}:'"),
            );
            return Err(ParseFailure::Invalid);
        }
        if ty.kind == Kind::Empty {
            pat.regex_str = b"(\n$)".to_vec();
            return Ok(pat);
        }
        let s = &t[start..end];
        if ty.literal {
            pat.fixed = s.to_vec();
            return Ok(pat);
        }
        let contains = |n: &[u8]| s.windows(2).any(|w| w == n);
        if !full_lines_here && (s.len() < 2 || (!contains(b"{{") && !contains(b"[["))) {
            pat.fixed = s.to_vec();
            return Ok(pat);
        }
        let mut re: Vec<u8> = Vec::new();
        if full_lines_here {
            re.push(b'^');
            if !opts.strict_whitespace {
                re.extend_from_slice(b" *");
            }
        }
        let mut cur_paren = 1usize;
        let mut i = start;
        // Same-line definitions usable as back-references.
        let mut local_defs: HashMap<String, usize> = HashMap::new();
        let add_regex = |p: &mut PatternParser,
                         re: &mut Vec<u8>,
                         cur: &mut usize,
                         rs: usize,
                         reend: usize|
         -> bool {
            let piece = &t[rs..reend];
            match Regex::new(piece, false) {
                Ok(r) => {
                    re.extend_from_slice(piece);
                    *cur += r.groups();
                    true
                }
                Err(e) => {
                    p.err(rs, &format!("invalid regex: {}", e.0));
                    false
                }
            }
        };
        while i < end {
            let rest = &t[i..end];
            if rest.starts_with(b"{{") {
                let Some(close) = find(&t[..end], b"}}", i + 2) else {
                    p.err(i, "found start of regex string with no end '}}'");
                    return Err(ParseFailure::Invalid);
                };
                // LLVM parenthesises the piece when the rest of the pattern (not only this piece)
                // contains `|`; this shows in group numbering and in the fuzzy-match text.
                let alternation = t[i..end].contains(&b'|');
                if alternation {
                    re.push(b'(');
                    cur_paren += 1;
                }
                if !add_regex(&mut p, &mut re, &mut cur_paren, i + 2, close) {
                    return Err(ParseFailure::Invalid);
                }
                if alternation {
                    re.push(b')');
                }
                i = close + 2;
                continue;
            }
            if rest.starts_with(b"[[") && !rest.starts_with(b"[[[") {
                let body = i + 2;
                let close = match find_var_end(&t, body, end) {
                    Ok(c) => c,
                    Err(off) => {
                        p.err(off, "missing closing \"]\" for regex variable");
                        return Err(ParseFailure::Exit(1));
                    }
                };
                let Some(close) = close else {
                    p.err(i, "Invalid substitution block, no ]] found");
                    return Err(ParseFailure::Invalid);
                };
                i = close + 2;
                let mut ms = body;
                let is_num = t[ms] == b'#' && ms < close;
                if is_num {
                    ms += 1;
                }
                let mut is_def = false;
                let mut subst_needed = false;
                let mut legacy_line = false;
                let mut def_name = String::new();
                let mut subst_name = String::new();
                let mut match_re: Option<(usize, usize)> = None;
                let mut wildcard: Option<String> = None;
                let subst_insert = re.len();
                if !is_num {
                    let colon = t[ms..close].iter().position(|&b| b == b':').map(|x| x + ms);
                    let name_end = colon.unwrap_or(close);
                    if let Some(sp) = t[ms..name_end]
                        .iter()
                        .position(|&b| b == b' ' || b == b'\t')
                    {
                        p.err(ms + sp, "unexpected whitespace");
                        return Err(ParseFailure::Invalid);
                    }
                    let (ne, pseudo) = p
                        .parse_variable(ms, close)
                        .map_err(|_| ParseFailure::Invalid)?;
                    let name = p.str_at(ms, ne);
                    is_def = colon.is_some();
                    subst_needed = !is_def;
                    if is_def {
                        if pseudo || ne >= close || t[ne] != b':' {
                            p.err(ms, "invalid name in string variable definition");
                            return Err(ParseFailure::Invalid);
                        }
                        if p.ctx.numeric_vars.contains_key(&name) {
                            p.err(
                                ms,
                                &format!("numeric variable with name '{name}' already exists"),
                            );
                            return Err(ParseFailure::Invalid);
                        }
                        def_name = name;
                        match_re = Some((ne + 1, close));
                    } else if pseudo {
                        legacy_line = true;
                    } else {
                        if ne != close {
                            p.err(ms, "invalid name in string variable use");
                            return Err(ParseFailure::Invalid);
                        }
                        subst_name = name;
                    }
                }
                let mut num: Option<(Option<Ast>, Format)> = None;
                if is_num || legacy_line {
                    p.logged = true;
                    let parsed = p.parse_numeric_block(ms, close, legacy_line);
                    p.logged = false;
                    let (ast, format, defined) = parsed.map_err(|_| ParseFailure::Invalid)?;
                    subst_needed = ast.is_some();
                    if let Some((name, _)) = defined {
                        is_def = true;
                        def_name = name;
                    }
                    if !subst_needed {
                        wildcard = Some(format.wildcard());
                    }
                    num = Some((ast, format));
                }
                if is_def {
                    re.push(b'(');
                    if let Some((_, format)) = &num {
                        pat.num_defs.insert(def_name.clone(), (cur_paren, *format));
                        p.ctx
                            .numeric_vars
                            .entry(def_name.clone())
                            .or_insert((*format, line));
                    } else {
                        pat.var_defs.insert(def_name.clone(), cur_paren);
                        local_defs.insert(def_name.clone(), cur_paren);
                        p.ctx.string_vars.insert(def_name.clone());
                    }
                    cur_paren += 1;
                }
                if let Some(w) = &wildcard {
                    // A padded format repeats a digit class `precision` times, and regexes
                    // (LLVM's too, which crashes here) repeat at most 255 times.
                    let Ok(r) = Regex::new(w.as_bytes(), false) else {
                        p.err(
                            ms,
                            "precision in format specifier is above 255, the most a pattern can repeat",
                        );
                        return Err(ParseFailure::Invalid);
                    };
                    re.extend_from_slice(w.as_bytes());
                    cur_paren += r.groups();
                } else if let Some((rs, reend)) = match_re {
                    if !add_regex(&mut p, &mut re, &mut cur_paren, rs, reend) {
                        return Err(ParseFailure::Invalid);
                    }
                }
                if is_def {
                    re.push(b')');
                }
                if subst_needed {
                    let insert = if is_def {
                        subst_insert + 1
                    } else {
                        subst_insert
                    };
                    if num.is_none() {
                        if let Some(&group) = local_defs.get(&subst_name) {
                            if !(1..=9).contains(&group) {
                                p.err(ms, "Can't back-reference more than 9 variables");
                                return Err(ParseFailure::Invalid);
                            }
                            re.push(b'\\');
                            re.push(b'0' + group as u8);
                            continue;
                        }
                        pat.substs.push(Subst {
                            from: subst_name.clone(),
                            loc: Loc { buf, off: ms },
                            index: insert,
                            kind: SubstKind::Str(subst_name),
                        });
                    } else if let Some((Some(ast), format)) = num {
                        pat.substs.push(Subst {
                            from: p.str_at(ms, close),
                            loc: Loc { buf, off: ms },
                            index: insert,
                            kind: SubstKind::Num(ast, format),
                        });
                    }
                }
                continue;
            }
            // Literal run up to the next `{{` or `[[` (searching from the second character).
            let next = [find(&t[..end], b"{{", i + 1), find(&t[..end], b"[[", i + 1)]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(end);
            re.extend_from_slice(&posix_regex::escape(&t[i..next]));
            i = next;
        }
        if full_lines_here {
            if !opts.strict_whitespace {
                re.extend_from_slice(b" *");
            }
            re.push(b'$');
        }
        pat.regex_str = re;
        Ok(pat)
    }

    /// An implicit end-of-input pattern (matches at the end of the searched region).
    pub fn eof(loc: Loc) -> Pattern {
        Pattern {
            ty: CheckType::new(Kind::Eof),
            loc,
            line: None,
            fixed: Vec::new(),
            regex_str: Vec::new(),
            substs: Vec::new(),
            var_defs: BTreeMap::new(),
            num_defs: BTreeMap::new(),
            ignore_case: false,
            never: false,
            compiled: RefCell::new(None),
        }
    }

    /// A pattern that never matches (an implicit check whose text was invalid; LLVM keeps it).
    pub fn never(loc: Loc, ty: CheckType) -> Pattern {
        let mut p = Pattern::eof(loc);
        p.ty = ty;
        p.never = true;
        p
    }

    /// Whether this is a [`Pattern::never`] pattern.
    pub fn is_never(&self) -> bool {
        self.never
    }

    /// Whether the pattern defines or uses a variable (CHECK-LABEL may not).
    pub fn has_variable(&self) -> bool {
        !(self.substs.is_empty() && self.var_defs.is_empty())
    }

    /// The substituted value of each substitution, for `with "X" equal to "..."` notes.
    pub fn subst_notes(&self, ctx: &Context) -> Vec<String> {
        let mut notes = Vec::new();
        for s in &self.substs {
            let value = match &s.kind {
                // LLVM escapes a value only when it has a quote or an unprintable byte
                // (backslashes alone, as in Windows paths, stay readable), and then says so.
                SubstKind::Str(n) => match ctx.strings.get(n) {
                    Some(v) if v.iter().any(|&b| b == b'"' || !(0x20..=0x7e).contains(&b)) => {
                        format!("\"{}\" (escaped value)", write_escaped(v))
                    }
                    Some(v) => format!("\"{}\"", String::from_utf8_lossy(v)),
                    None => continue,
                },
                SubstKind::Num(ast, format) => match ctx.eval(ast, self.line) {
                    Ok(v) => match format.render(v) {
                        Some(s) => format!("\"{s}\""),
                        None => continue,
                    },
                    Err(_) => continue,
                },
            };
            notes.push(format!(
                "with \"{}\" equal to {}",
                write_escaped(s.from.as_bytes()),
                value
            ));
        }
        notes
    }

    /// Matches the pattern in `buf` (LLVM `Pattern::match`), updating variables on success.
    /// Captured variable ranges (name, start, end) relative to `buf` come with the match.
    pub fn find_in(&self, buf: &[u8], ctx: &mut Context) -> Result<(Match, Captures), MatchError> {
        if self.ty.kind == Kind::Eof {
            return Ok((
                Match {
                    pos: buf.len(),
                    len: 0,
                },
                Vec::new(),
            ));
        }
        if self.is_never() {
            return Err(MatchError::NotFound);
        }
        if !self.fixed.is_empty() {
            let pos = if self.ignore_case {
                find_icase(buf, &self.fixed)
            } else {
                find(buf, &self.fixed, 0)
            };
            return match pos {
                Some(pos) => Ok((
                    Match {
                        pos,
                        len: self.fixed.len(),
                    },
                    Vec::new(),
                )),
                None => Err(MatchError::NotFound),
            };
        }
        let fresh;
        let cached;
        let re: &Regex = if self.substs.is_empty() {
            if self.compiled.borrow().is_none() {
                let r = Regex::new(&self.regex_str, self.ignore_case)
                    .map_err(|_| MatchError::NotFound)?;
                *self.compiled.borrow_mut() = Some(r);
            }
            cached = self.compiled.borrow();
            cached.as_ref().unwrap()
        } else {
            let mut text = self.regex_str.clone();
            let mut offset = 0;
            let mut errs = Vec::new();
            for s in &self.substs {
                let value = match &s.kind {
                    SubstKind::Str(n) => match ctx.strings.get(n) {
                        Some(v) => posix_regex::escape(v),
                        None => {
                            errs.push((s.loc, format!("undefined variable: {n}")));
                            continue;
                        }
                    },
                    SubstKind::Num(ast, format) => match ctx.eval(ast, self.line) {
                        Ok(v) => match format.render(v) {
                            Some(r) => posix_regex::escape(r.as_bytes()),
                            None => {
                                errs.push((s.loc, overflow_msg()));
                                continue;
                            }
                        },
                        Err(EvalError::Undefined(names)) => {
                            for (n, l) in names {
                                errs.push((l, format!("undefined variable: {n}")));
                            }
                            continue;
                        }
                        Err(EvalError::Overflow) => {
                            errs.push((s.loc, overflow_msg()));
                            continue;
                        }
                    },
                };
                let at = s.index + offset;
                text.splice(at..at, value.iter().copied());
                offset += value.len();
            }
            if !errs.is_empty() {
                return Err(MatchError::Diags(errs));
            }
            // LLVM's `Regex::match` quietly fails on a regex that does not compile (for example
            // one that became empty after substituting an empty variable).
            fresh = Regex::new(&text, self.ignore_case).map_err(|_| MatchError::NotFound)?;
            &fresh
        };
        let groups = re.find(buf).ok_or(MatchError::NotFound)?;
        let (ms, me) = groups[0].expect("whole match");
        let mut caps = Vec::new();
        for (name, g) in &self.var_defs {
            let (s, e) = groups.get(*g).copied().flatten().unwrap_or((ms, ms));
            ctx.strings.insert(name.clone(), buf[s..e].to_vec());
            caps.push((name.clone(), s, e));
        }
        for (name, (g, format)) in &self.num_defs {
            let (s, e) = groups.get(*g).copied().flatten().unwrap_or((ms, ms));
            let text = String::from_utf8_lossy(&buf[s..e]).into_owned();
            let v = format.parse_value(&text);
            ctx.numerics.insert(name.clone(), (v, *format));
            caps.push((name.clone(), s, e));
        }
        let skip = usize::from(self.ty.kind == Kind::Empty);
        Ok((
            Match {
                pos: ms + skip,
                len: me - ms - skip,
            },
            caps,
        ))
    }

    /// The text the fuzzy-match heuristic compares input against (LLVM: the fixed string, or
    /// else the regex text before substitution).
    pub fn example(&self) -> &[u8] {
        if self.fixed.is_empty() {
            &self.regex_str
        } else {
            &self.fixed
        }
    }
}

fn overflow_msg() -> String {
    "unable to substitute variable or numeric expression: overflow error".to_string()
}

/// Escapes like LLVM's `raw_ostream::write_escaped` (backslash, tab, newline, quote,
/// non-printable bytes as octal).
pub fn write_escaped(s: &[u8]) -> String {
    let mut out = String::new();
    for &b in s {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'"' => out.push_str("\\\""),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{:03o}", b)),
        }
    }
    out
}

/// Checks the shape of `-D` definitions before anything else is read, as LLVM's driver does:
/// every one needs an `=` and a name before it. Returns the messages of the malformed ones.
pub fn check_define_syntax(defines: &[String]) -> Vec<String> {
    let mut errors = Vec::new();
    for d in defines {
        match d.find('=') {
            None => errors.push(format!(
                "Missing equal sign in command-line definition '-D{d}'"
            )),
            Some(0) => errors.push(format!(
                "Missing variable name in command-line definition '-D{d}'"
            )),
            Some(_) => {}
        }
    }
    errors
}

/// Defines the `-D NAME=VALUE` and `-D#[FMT,]NAME=EXPR` variables (LLVM
/// `defineCmdlineVariables`). The definitions are laid out in a "Global defines" buffer, one
/// per line and numeric ones rewritten as the `[[#NAME:EXPR]]` block they stand for, so that
/// errors point at the offending character with the same parser (and messages) as check
/// files use. A numeric expression may use variables defined by earlier `-D#` options.
/// Every definition is tried; false when any failed (the diagnostics are in `sm.out`).
pub fn define_globals(
    defines: &[String],
    sm: &mut SourceMgr,
    ctx: &mut Context,
    pctx: &mut ParseContext,
) -> bool {
    if defines.is_empty() {
        return true;
    }
    let mut text = String::new();
    let mut ranges = Vec::new();
    for (k, d) in defines.iter().enumerate() {
        let prefix = format!("Global define #{}: ", k + 1);
        let eq = d.find('=').unwrap_or(d.len());
        if d.starts_with('#') {
            text.push_str(&format!("{prefix}{d} (parsed as: [["));
            let start = text.len();
            let mut block = d.clone();
            if eq < block.len() {
                block.replace_range(eq..eq + 1, ":");
            }
            text.push_str(&block);
            ranges.push((start, start + block.len(), true));
            text.push_str("]])\n");
        } else {
            text.push_str(&prefix);
            ranges.push((text.len(), text.len() + d.len(), false));
            text.push_str(d);
            text.push('\n');
        }
    }
    let buf = sm.add("Global defines", text.into_bytes());
    let t = sm.shared(buf);
    let mut ok = true;
    for (start, end, numeric) in ranges {
        let mut p = PatternParser {
            sm,
            buf,
            ctx: pctx,
            line: None,
            logged: true,
        };
        if numeric {
            let Ok((ast, format, defined)) = p.parse_numeric_block(start + 1, end, false) else {
                ok = false;
                continue;
            };
            let Some((name, name_at)) = defined else {
                // Unreachable after `check_define_syntax` (the `=` became the block's `:`).
                p.err(start, "missing numeric variable name in global definition");
                ok = false;
                continue;
            };
            let Some(ast) = ast else {
                p.err(
                    end,
                    &format!("missing value in numeric variable definition of '{name}'"),
                );
                ok = false;
                continue;
            };
            let _ = name_at;
            match ctx.eval(&ast, None) {
                Ok(v) => {
                    ctx.numerics.insert(name.clone(), (Some(v), format));
                    pctx.numeric_vars.entry(name).or_insert((format, None));
                }
                Err(EvalError::Undefined(names)) => {
                    for (n, _) in names {
                        sm.out.push_str(&format!("undefined variable: {n}\n"));
                    }
                    ok = false;
                }
                Err(EvalError::Overflow) => {
                    sm.out.push_str("overflow error\n");
                    ok = false;
                }
            }
            continue;
        }
        let eq = t[start..end]
            .iter()
            .position(|&b| b == b'=')
            .map_or(end, |k| start + k);
        let Ok((name_end, pseudo)) = p.parse_variable(start, eq) else {
            ok = false;
            continue;
        };
        if pseudo || name_end != eq {
            let shown = p.str_at(start, eq);
            p.err(
                start,
                &format!("invalid name in string variable definition '{shown}'"),
            );
            ok = false;
            continue;
        }
        let name = p.str_at(start, eq);
        if p.ctx.numeric_vars.contains_key(&name) {
            p.err(
                start,
                &format!("numeric variable with name '{name}' already exists"),
            );
            ok = false;
            continue;
        }
        // The first definition of a name wins, as with LLVM's table insert.
        p.ctx.string_vars.insert(name.clone());
        ctx.strings
            .entry(name)
            .or_insert_with(|| t[eq + 1..end].to_vec());
    }
    ok
}
