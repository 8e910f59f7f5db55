//! The cursor: whitespace and comments, tokens and keywords, running one grammar rule at the
//! cursor, and the errors that say what was found there.

use super::*;

impl<'c, 's> Parser<'c, 's> {
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

    pub(super) fn off(&self, p: &Pair<'s, Rule>) -> Span {
        // Pair positions are relative to the slice the rule ran on; recover absolute offsets from
        // the string pointers, which all point into `self.src`.
        let base = self.src.as_ptr() as usize;
        let s = p.as_str().as_ptr() as usize - base;
        Span::new(s, s + p.as_str().len())
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

    /// Parses a bare identifier or a string literal naming one (MLIR's
    /// `parseOptionalKeywordOrString`, which enum attributes use: `arith.cmpi "slt", ...`).
    pub fn parse_keyword_or_string(&mut self) -> PResult<(String, Span)> {
        self.skip_ws();
        if self.peek() == Some(b'"') {
            let (bytes, sp) = self.parse_string_literal()?;
            return Ok((String::from_utf8_lossy(&bytes).into_owned(), sp));
        }
        self.parse_keyword_any()
    }

    pub(super) fn ident_end(&self, mut i: usize) -> usize {
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
    pub(super) fn check_digit_led_name(&self) -> PResult<()> {
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
}
