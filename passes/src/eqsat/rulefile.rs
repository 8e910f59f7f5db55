//! User rule files for `eqsat{rules=FILE}`: rewrite rules as s-expressions over op names.
//!
//! ```text
//! ; a comment
//! (rule "mul8-to-shl" (arith.muli ?x (const 8)) (arith.shli ?x (const 3)))
//! (rule "div-small" (arith.divui ?x ?c) (const 0) (if (ult ?x ?c)))
//! (rule "ext" (arith.extsi i64 (arith.addi ?a ?b)) (arith.addi ?t2 (arith.extsi i64 ?a) (arith.extsi i64 ?b)))
//! ```
//!
//! Each rule is `(rule NAME LHS RHS [(if COND...)])`. Ops are written by their names without
//! the type: every op whose type is the type of its operands gets one implicit type variable,
//! shared by the whole rule, so `(arith.addi ?x ?y)` matches an `addi` of any width and the
//! right side is built at the same width. Ops that change the type (the casts) and constants
//! of another width take an explicit type first (`i64`, `index`, or a variable such as `?t2`):
//! `(arith.extsi i64 ?x)`, `(const i64 1)`. Comparisons take their predicate first:
//! `(arith.cmpi ult ?a ?b)`. Conditions read the range analysis: `(nonneg ?x)`,
//! `(pow2 ?c)`, `(const ?c)` (is a constant), `(ult ?a ?b)` (every value of `?a` is below
//! every value of `?b`).
//!
//! Rules are checked before use: unknown ops, wrong operand counts, variables of the right side
//! or conditions that the left side does not bind, and operands whose types cannot agree (an
//! `i1` comparison added to an integer, a non-`i1` select condition) are errors at the file's
//! line and column.

use super::lang::{parse_kind, Facts, Kind, Node, Ty, EG};
use egg::{ConditionalApplier, Id, Pattern, Rewrite, Subst, Var};
use std::collections::HashMap;
use tilus_ir::{Diagnostic, Span};

/// A problem in a rule file, at a 1-based line and column (counted in characters), over
/// `len` characters (the offending token; 1 for a parenthesis).
#[derive(Clone, Debug, PartialEq)]
pub struct RuleError {
    pub line: usize,
    pub col: usize,
    pub len: usize,
    pub message: String,
}

/// A diagnostic for a problem at `line:col` (over `len` characters, 0 for the whitespace-
/// delimited word there) of the file `path` whose text is `text`: its span points into that
/// file, so the rendered report shows the file's line with the offending token underlined and
/// `path:line:col` in the message.
pub fn file_diagnostic(
    path: &str,
    text: &str,
    line: usize,
    col: usize,
    len: usize,
    msg: &str,
) -> Diagnostic {
    let start_of_line: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = text.get(start_of_line..).unwrap_or("");
    let rest = rest.split('\n').next().unwrap_or("");
    let byte_at = |chars: usize| {
        rest.char_indices()
            .nth(chars)
            .map_or(rest.len(), |(b, _)| b)
    };
    let start = byte_at(col.saturating_sub(1));
    let len = if len == 0 {
        rest[start..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .count()
    } else {
        len
    };
    let end = byte_at(col.saturating_sub(1) + len).max(start);
    Diagnostic::at(
        Span::new(start_of_line + start, start_of_line + end),
        msg.to_string(),
    )
    .in_file(path, text)
}

/// An s-expression with the position of its first character.
#[derive(Clone, Debug)]
enum Sexp {
    Atom(String, usize, usize),
    List(Vec<Sexp>, usize, usize),
}

impl Sexp {
    fn pos(&self) -> (usize, usize) {
        match self {
            Sexp::Atom(_, l, c) | Sexp::List(_, l, c) => (*l, *c),
        }
    }
    /// How many characters the token spans: an atom's text (a string's quotes included); a
    /// list's opening parenthesis and, when it is on the same line, its op name.
    fn len(&self) -> usize {
        match self {
            Sexp::Atom(a, ..) if a.starts_with('"') => a.chars().count() + 1,
            Sexp::Atom(a, ..) => a.chars().count(),
            Sexp::List(items, l, c) => match items.first() {
                Some(first @ Sexp::Atom(_, fl, fc)) if fl == l && fc > c => fc - c + first.len(),
                _ => 1,
            },
        }
    }
    fn err(&self, message: impl Into<String>) -> RuleError {
        let (line, col) = self.pos();
        RuleError {
            line,
            col,
            len: self.len(),
            message: message.into(),
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<Sexp>, RuleError> {
    let mut stack: Vec<(Vec<Sexp>, usize, usize)> = vec![(Vec::new(), 0, 0)];
    for (li, line) in text.lines().enumerate() {
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        let mut i = 0;
        while i < chars.len() {
            let (_, ch) = chars[i];
            let (l, c) = (li + 1, i + 1);
            match ch {
                ';' => break,
                '(' => stack.push((Vec::new(), l, c)),
                ')' => {
                    if stack.len() == 1 {
                        return Err(RuleError {
                            line: l,
                            col: c,
                            len: 1,
                            message: "unbalanced ')'".into(),
                        });
                    }
                    let (items, sl, sc) = stack.pop().expect("checked");
                    stack
                        .last_mut()
                        .expect("the top level")
                        .0
                        .push(Sexp::List(items, sl, sc));
                }
                '"' => {
                    let start = i;
                    i += 1;
                    while i < chars.len() && chars[i].1 != '"' {
                        i += 1;
                    }
                    if i == chars.len() {
                        return Err(RuleError {
                            line: l,
                            col: c,
                            len: chars.len() - start,
                            message: "unterminated string".into(),
                        });
                    }
                    let s: String = chars[start + 1..i].iter().map(|x| x.1).collect();
                    stack.last_mut().expect("the top level").0.push(Sexp::Atom(
                        format!("\"{s}"),
                        l,
                        c,
                    ));
                }
                ch if ch.is_whitespace() => {}
                _ => {
                    let start = i;
                    while i + 1 < chars.len()
                        && !chars[i + 1].1.is_whitespace()
                        && !matches!(chars[i + 1].1, '(' | ')' | ';' | '"')
                    {
                        i += 1;
                    }
                    let s: String = chars[start..=i].iter().map(|x| x.1).collect();
                    stack
                        .last_mut()
                        .expect("the top level")
                        .0
                        .push(Sexp::Atom(s, l, c));
                }
            }
            i += 1;
        }
    }
    if stack.len() > 1 {
        let (_, l, c) = stack.pop().expect("checked");
        return Err(RuleError {
            line: l,
            col: c,
            len: 1,
            message: "unclosed '('".into(),
        });
    }
    Ok(stack.pop().expect("the top level").0)
}

/// A type in the checker: a variable or a known type.
#[derive(Clone, Debug, PartialEq)]
enum T {
    Var(String),
    Known(Ty),
}

/// The implicit type variable of a rule.
const IMPLICIT: &str = "?t";

struct Checker {
    /// Type of each pattern variable and type variable binding.
    subst: HashMap<String, T>,
    /// Variables bound by the left side.
    bound: Vec<String>,
    /// Type variables used.
    type_vars: Vec<String>,
}

impl Checker {
    fn resolve(&self, t: &T) -> T {
        let mut t = t.clone();
        while let T::Var(v) = &t {
            match self.subst.get(v) {
                Some(n) => t = n.clone(),
                None => break,
            }
        }
        t
    }
    fn unify(&mut self, a: &T, b: &T, at: &Sexp) -> Result<(), RuleError> {
        let (a, b) = (self.resolve(a), self.resolve(b));
        match (&a, &b) {
            (T::Known(x), T::Known(y)) if x == y => Ok(()),
            (T::Known(x), T::Known(y)) => Err(at.err(format!(
                "ill-typed rule: a value of type {x} where {y} is expected"
            ))),
            (T::Var(x), T::Var(y)) if x == y => Ok(()),
            (T::Var(x), _) => {
                self.subst.insert(x.clone(), b.clone());
                Ok(())
            }
            (_, T::Var(y)) => {
                self.subst.insert(y.clone(), a.clone());
                Ok(())
            }
        }
    }

    /// Translates a pattern to egg's typed syntax, returning its text and its type.
    fn pattern(&mut self, e: &Sexp, lhs: bool) -> Result<(String, T), RuleError> {
        match e {
            Sexp::Atom(a, ..) if a.starts_with('?') => {
                if a == IMPLICIT {
                    return Err(e.err(format!(
                        "'{IMPLICIT}' is the rule's implicit type, not a value"
                    )));
                }
                if lhs {
                    if !self.bound.contains(a) {
                        self.bound.push(a.clone());
                    }
                } else if !self.bound.contains(a) {
                    return Err(e.err(format!("'{a}' is not bound by the left side")));
                }
                let t = T::Var(format!("type of {a}"));
                Ok((a.clone(), t))
            }
            Sexp::Atom(a, ..) => Err(e.err(format!(
                "expected a pattern variable or an op, found '{}'",
                a.trim_start_matches('"')
            ))),
            Sexp::List(items, ..) => {
                let Some(Sexp::Atom(op, ..)) = items.first() else {
                    return Err(e.err("expected an op name after '('"));
                };
                let Some((kind, arity)) = parse_kind(op) else {
                    return Err(items[0].err(format!("unknown op '{op}'")));
                };
                let args = &items[1..];
                match kind {
                    Kind::Const => {
                        let (ty, lit) = match args {
                            [lit] => (self.type_arg(None)?, lit),
                            [t, lit] => (self.type_arg(Some(t))?, lit),
                            _ => {
                                return Err(
                                    e.err("'const' takes a literal and optionally a type first")
                                )
                            }
                        };
                        let Sexp::Atom(n, ..) = lit else {
                            return Err(lit.err("expected an integer literal"));
                        };
                        if n.parse::<i128>().is_err() {
                            return Err(lit.err(format!("'{n}' is not an integer literal")));
                        }
                        let t = ty.1.clone();
                        Ok((format!("(const {} {n})", ty.0), t))
                    }
                    Kind::Cmp => {
                        if args.len() != 3 {
                            return Err(e.err(format!("'{op}' takes a predicate and two operands")));
                        }
                        let Sexp::Atom(p, ..) = &args[0] else {
                            return Err(args[0].err("expected a predicate"));
                        };
                        if !matches!(parse_kind(p), Some((Kind::Pred(_), _))) {
                            return Err(args[0].err(format!("'{p}' is not a cmpi predicate")));
                        }
                        let (a, ta) = self.pattern(&args[1], lhs)?;
                        let (b, tb) = self.pattern(&args[2], lhs)?;
                        self.unify(&ta, &tb, &args[2])?;
                        Ok((format!("({op} {p} {a} {b})"), T::Known(i1())))
                    }
                    Kind::Cast(_) => {
                        if args.len() != 2 {
                            return Err(e.err(format!(
                                "'{op}' takes its result type and one operand: ({op} i64 ?x)"
                            )));
                        }
                        let (ts, t) = self.type_arg(Some(&args[0]))?;
                        let (x, _) = self.pattern(&args[1], lhs)?;
                        Ok((format!("({op} {ts} {x})"), t))
                    }
                    Kind::Select | Kind::Bin(_) => {
                        let n = arity - 1;
                        let (ts, t, vals) = if args.len() == n {
                            let (ts, t) = self.type_arg(None)?;
                            (ts, t, args)
                        } else if args.len() == n + 1 {
                            let (ts, t) = self.type_arg(Some(&args[0]))?;
                            (ts, t, &args[1..])
                        } else {
                            return Err(
                                e.err(format!("'{op}' takes {n} operands, not {}", args.len()))
                            );
                        };
                        let mut parts = vec![ts];
                        for (i, a) in vals.iter().enumerate() {
                            let (s, ta) = self.pattern(a, lhs)?;
                            if kind == Kind::Select && i == 0 {
                                self.unify(&ta, &T::Known(i1()), a)?;
                            } else {
                                self.unify(&ta, &t, a)?;
                            }
                            parts.push(s);
                        }
                        Ok((format!("({op} {})", parts.join(" ")), t))
                    }
                    Kind::Tile(_) => Err(items[0].err(format!(
                        "'{op}' is a tile op; rule files rewrite scalar integer ops (the tile \
                         rules are built in)"
                    ))),
                    _ => Err(items[0].err(format!("'{op}' is not an op"))),
                }
            }
        }
    }

    /// A type argument (explicit, or the implicit variable).
    fn type_arg(&mut self, e: Option<&Sexp>) -> Result<(String, T), RuleError> {
        let Some(e) = e else {
            self.note_type_var(IMPLICIT);
            return Ok((IMPLICIT.into(), T::Var(IMPLICIT.into())));
        };
        match e {
            Sexp::Atom(a, ..) if a.starts_with('?') => {
                if self.bound.contains(a) {
                    return Err(e.err(format!("'{a}' is a value, not a type")));
                }
                self.note_type_var(a);
                Ok((a.clone(), T::Var(a.clone())))
            }
            Sexp::Atom(a, ..) => match a.parse::<Ty>() {
                Ok(t) => Ok((a.clone(), T::Known(t))),
                Err(()) => Err(e.err(format!("expected a type (i1..i64, index), found '{a}'"))),
            },
            Sexp::List(..) => Err(e.err("expected a type")),
        }
    }

    fn note_type_var(&mut self, v: &str) {
        if !self.type_vars.iter().any(|x| x == v) {
            self.type_vars.push(v.to_string());
        }
    }
}

fn i1() -> Ty {
    Ty {
        width: 1,
        index: false,
    }
}

/// A condition of a rule, checked on the match's facts.
#[derive(Clone, Debug)]
enum Cond {
    NonNeg(Var),
    Pow2(Var),
    Const(Var),
    Ult(Var, Var),
}

impl Cond {
    fn holds(&self, eg: &EG, s: &Subst) -> bool {
        let f = |v: &Var| -> &Facts { &eg[s[*v]].data };
        match self {
            Cond::NonNeg(x) => f(x).nonneg(),
            Cond::Pow2(x) => f(x).konst().is_some_and(|c| c.is_power_of_two()),
            Cond::Const(x) => f(x).konst().is_some(),
            Cond::Ult(a, b) => f(a).ty.is_some() && f(a).hi < f(b).lo,
        }
    }
}

/// Parses and checks a rule file.
pub fn parse(text: &str) -> Result<Vec<Rewrite<Node, super::lang::EqAnalysis>>, RuleError> {
    let mut out = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for top in tokenize(text)? {
        let Sexp::List(items, ..) = &top else {
            return Err(top.err("expected '(rule ...)'"));
        };
        match items.first() {
            Some(Sexp::Atom(r, ..)) if r == "rule" => {}
            _ => return Err(top.err("expected '(rule NAME LHS RHS [(if COND...)])'")),
        }
        if !(4..=5).contains(&items.len()) {
            return Err(top.err("expected '(rule NAME LHS RHS [(if COND...)])'"));
        }
        let name = match &items[1] {
            Sexp::Atom(n, ..) if n.starts_with('"') => n[1..].to_string(),
            other => return Err(other.err("expected the rule's name as a string")),
        };
        if names.contains(&name) {
            return Err(items[1].err(format!("a second rule named '{name}'")));
        }
        names.push(name.clone());
        let mut ck = Checker {
            subst: HashMap::new(),
            bound: Vec::new(),
            type_vars: Vec::new(),
        };
        if let Sexp::Atom(..) = &items[2] {
            return Err(items[2].err("the left side must be an op, not a variable"));
        }
        let (lhs, tl) = ck.pattern(&items[2], true)?;
        let (rhs, tr) = ck.pattern(&items[3], false)?;
        ck.unify(&tl, &tr, &items[3])?;
        let mut conds = Vec::new();
        if let Some(c) = items.get(4) {
            let Sexp::List(cs, ..) = c else {
                return Err(c.err("expected '(if COND...)'"));
            };
            match cs.first() {
                Some(Sexp::Atom(i, ..)) if i == "if" => {}
                _ => return Err(c.err("expected '(if COND...)'")),
            }
            for cond in &cs[1..] {
                conds.push(parse_cond(cond, &mut ck)?);
            }
        }
        let searcher: Pattern<Node> = lhs
            .parse()
            .map_err(|e| items[2].err(format!("cannot read the left side: {e}")))?;
        let applier: Pattern<Node> = rhs
            .parse()
            .map_err(|e| items[3].err(format!("cannot read the right side: {e}")))?;
        // Type variables the right side uses must be bound by the left.
        for tv in &ck.type_vars {
            let v: Var = tv.parse().expect("a variable");
            if applier.vars().contains(&v) && !searcher.vars().contains(&v) {
                return Err(items[3].err(format!(
                    "type '{tv}' of the right side is not bound by the left side"
                )));
            }
        }
        let searcher = super::rules::Shaped::new(searcher);
        let rule = if conds.is_empty() {
            Rewrite::new(name.clone(), searcher, applier)
        } else {
            let condition =
                move |eg: &mut EG, _: Id, s: &Subst| conds.iter().all(|c| c.holds(eg, s));
            Rewrite::new(
                name.clone(),
                searcher,
                ConditionalApplier { condition, applier },
            )
        };
        out.push(rule.map_err(|e| top.err(e))?);
    }
    Ok(out)
}

fn parse_cond(c: &Sexp, ck: &mut Checker) -> Result<Cond, RuleError> {
    let Sexp::List(items, ..) = c else {
        return Err(c.err("expected a condition such as (nonneg ?x)"));
    };
    let var = |e: &Sexp| -> Result<Var, RuleError> {
        match e {
            Sexp::Atom(a, ..) if ck.bound.contains(a) => Ok(a.parse().expect("a variable")),
            Sexp::Atom(a, ..) if a.starts_with('?') => {
                Err(e.err(format!("'{a}' is not bound by the left side")))
            }
            _ => Err(e.err("expected a pattern variable")),
        }
    };
    let name = match items.first() {
        Some(Sexp::Atom(n, ..)) => n.as_str(),
        _ => return Err(c.err("expected a condition name")),
    };
    let want = |n: usize| -> Result<(), RuleError> {
        if items.len() == n + 1 {
            Ok(())
        } else {
            Err(c.err(format!("'{name}' takes {n} variable(s)")))
        }
    };
    Ok(match name {
        "nonneg" => {
            want(1)?;
            Cond::NonNeg(var(&items[1])?)
        }
        "pow2" => {
            want(1)?;
            Cond::Pow2(var(&items[1])?)
        }
        "const" => {
            want(1)?;
            Cond::Const(var(&items[1])?)
        }
        "ult" => {
            want(2)?;
            let (a, b) = (var(&items[1])?, var(&items[2])?);
            // Ranges of values of different types cannot be compared.
            let ty = |e: &Sexp| match e {
                Sexp::Atom(v, ..) => T::Var(format!("type of {v}")),
                Sexp::List(..) => unreachable!("checked by var"),
            };
            let (ta, tb) = (ck.resolve(&ty(&items[1])), ck.resolve(&ty(&items[2])));
            ck.unify(&ta, &tb, &items[2]).map_err(|e| {
                let show = |t: &T| match t {
                    T::Known(t) => t.to_string(),
                    T::Var(v) => v.clone(),
                };
                let name = |e: &Sexp| match e {
                    Sexp::Atom(a, ..) => a.clone(),
                    Sexp::List(..) => String::new(),
                };
                RuleError {
                    message: format!(
                        "ill-typed condition: 'ult' compares {} of type {} with {} of type {}",
                        name(&items[1]),
                        show(&ta),
                        name(&items[2]),
                        show(&tb)
                    ),
                    ..e
                }
            })?;
            Cond::Ult(a, b)
        }
        other => {
            return Err(items[0].err(format!(
                "unknown condition '{other}' (nonneg, pow2, const, ult)"
            )))
        }
    })
}
