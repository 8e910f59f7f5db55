//! A small POSIX extended regular expression engine with the dialect and semantics FileCheck
//! relies on.
//!
//! LLVM FileCheck compiles `{{...}}` and `[[VAR:...]]` pieces with LLVM's own `regcomp` (a BSD
//! derivative) in extended mode with `REG_NEWLINE`. Its behaviour differs from Perl-style engines
//! such as the `regex` crate in ways that change whether a check passes:
//!
//! * the overall match is *leftmost-longest* (`[[X:a|ab]]` captures `ab`, so a following
//!   `CHECK-SAME: b` fails), not leftmost-first;
//! * a backslash followed by any character other than a digit is that character literally
//!   (`\d` is `d`, `\s` is `s`), and `\1`..`\9` are back-references (FileCheck emits them when a
//!   variable is defined and used on the same line);
//! * bracket expressions follow POSIX (`[]a]`, `[^]]`, `[[:alpha:]]`, backslash is literal);
//! * with `REG_NEWLINE`, `.` and negated brackets never match a newline, `^`/`$` match at line
//!   boundaries as well as at the start and end of the searched text;
//! * empty branches (`a|`, `{{}}`) and misplaced repetitions are compile errors, reported with
//!   the same messages as LLVM (`empty (sub)expression`, ...).
//!
//! The matcher is a backtracking search over a compiled program that memoises visited
//! `(instruction, position)` states, which keeps the whole search linear in the input for
//! patterns without back-references while still exploring every path to find the longest match.

use std::collections::HashSet;

/// Compile error with the message LLVM's `regerror` gives for the same pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexError(pub &'static str);

const EPAREN: RegexError = RegexError("parentheses not balanced");
const EBRACK: RegexError = RegexError("brackets ([ ]) not balanced");
const BADRPT: RegexError = RegexError("repetition-operator operand invalid");
const EMPTY: RegexError = RegexError("empty (sub)expression");
const EESCAPE: RegexError = RegexError("trailing backslash (\\)");
const BADBR: RegexError = RegexError("invalid repetition count(s)");
const EBRACE: RegexError = RegexError("braces not balanced");
const ERANGE: RegexError = RegexError("invalid character range");
const ECTYPE: RegexError = RegexError("invalid character class");
const ESUBREG: RegexError = RegexError("invalid backreference number");
const ECOLLATE: RegexError = RegexError("invalid collating element");

/// Largest repetition count accepted in `{m,n}` (POSIX `RE_DUP_MAX`).
const DUP_MAX: u32 = 255;

/// A set of bytes.
#[derive(Clone, PartialEq, Eq)]
struct ByteSet([u64; 4]);

impl ByteSet {
    fn empty() -> Self {
        ByteSet([0; 4])
    }
    fn insert(&mut self, b: u8) {
        self.0[(b >> 6) as usize] |= 1u64 << (b & 63);
    }
    fn remove(&mut self, b: u8) {
        self.0[(b >> 6) as usize] &= !(1u64 << (b & 63));
    }
    fn contains(&self, b: u8) -> bool {
        self.0[(b >> 6) as usize] & (1u64 << (b & 63)) != 0
    }
    fn invert(&mut self) {
        for w in &mut self.0 {
            *w = !*w;
        }
    }
    fn union(&mut self, o: &ByteSet) {
        for (a, b) in self.0.iter_mut().zip(o.0.iter()) {
            *a |= *b;
        }
    }
    fn is_full(&self) -> bool {
        self.0.iter().all(|w| *w == u64::MAX)
    }
}

#[derive(Clone)]
enum Node {
    Set(ByteSet),
    Bol,
    Eol,
    WordBegin,
    WordEnd,
    Group(usize, Box<Node>),
    /// Empty group `()`.
    Empty,
    Backref(usize),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>),
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    icase: bool,
    nsub: usize,
    /// Groups that have been closed (a back-reference may only name one of those).
    closed: Vec<bool>,
}

impl Parser<'_> {
    fn more(&self) -> bool {
        self.i < self.s.len()
    }
    fn peek(&self) -> u8 {
        self.s[self.i]
    }
    fn peek2(&self) -> Option<u8> {
        self.s.get(self.i + 1).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.more() && self.peek() == c {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn ere(&mut self, stop: Option<u8>) -> Result<Node, RegexError> {
        let mut branches = Vec::new();
        loop {
            let mut items = Vec::new();
            while self.more() && self.peek() != b'|' && Some(self.peek()) != stop {
                items.push(self.ere_exp()?);
            }
            if items.is_empty() {
                return Err(EMPTY);
            }
            branches.push(if items.len() == 1 {
                items.pop().unwrap()
            } else {
                Node::Concat(items)
            });
            if !self.eat(b'|') {
                break;
            }
        }
        Ok(if branches.len() == 1 {
            branches.pop().unwrap()
        } else {
            Node::Alt(branches)
        })
    }

    fn literal(&self, c: u8) -> Node {
        let mut set = ByteSet::empty();
        set.insert(c);
        if self.icase {
            set.insert(c.to_ascii_lowercase());
            set.insert(c.to_ascii_uppercase());
        }
        Node::Set(set)
    }

    fn is_repetition_next(&self) -> bool {
        if !self.more() {
            return false;
        }
        let c = self.peek();
        c == b'*'
            || c == b'+'
            || c == b'?'
            || (c == b'{' && self.peek2().is_some_and(|d| d.is_ascii_digit()))
    }

    fn ere_exp(&mut self) -> Result<Node, RegexError> {
        let c = self.s[self.i];
        self.i += 1;
        let mut was_caret = false;
        let atom = match c {
            b'(' => {
                if !self.more() {
                    return Err(EPAREN);
                }
                self.nsub += 1;
                let n = self.nsub;
                self.closed.push(false);
                let inner = if self.more() && self.peek() == b')' {
                    Node::Empty
                } else {
                    self.ere(Some(b')'))?
                };
                if !self.eat(b')') {
                    return Err(EPAREN);
                }
                self.closed[n] = true;
                Node::Group(n, Box::new(inner))
            }
            b')' => return Err(EPAREN),
            b'^' => {
                was_caret = true;
                Node::Bol
            }
            b'$' => Node::Eol,
            b'|' => return Err(EMPTY),
            b'*' | b'+' | b'?' => return Err(BADRPT),
            b'.' => {
                let mut set = ByteSet::empty();
                set.invert();
                set.remove(b'\n');
                Node::Set(set)
            }
            b'[' => self.bracket()?,
            b'\\' => {
                if !self.more() {
                    return Err(EESCAPE);
                }
                let d = self.s[self.i];
                self.i += 1;
                if (b'1'..=b'9').contains(&d) {
                    let n = (d - b'0') as usize;
                    if n >= self.closed.len() || !self.closed[n] {
                        return Err(ESUBREG);
                    }
                    Node::Backref(n)
                } else {
                    self.literal(d)
                }
            }
            b'{' => {
                if self.more() && self.peek().is_ascii_digit() {
                    return Err(BADRPT);
                }
                self.literal(c)
            }
            _ => self.literal(c),
        };

        if !self.is_repetition_next() {
            return Ok(atom);
        }
        let r = self.s[self.i];
        self.i += 1;
        if was_caret {
            return Err(BADRPT);
        }
        let node = match r {
            b'*' => Node::Repeat(Box::new(atom), 0, None),
            b'+' => Node::Repeat(Box::new(atom), 1, None),
            b'?' => Node::Repeat(Box::new(atom), 0, Some(1)),
            _ => {
                let lo = self.count()?;
                let hi = if self.eat(b',') {
                    if self.more() && self.peek().is_ascii_digit() {
                        let hi = self.count()?;
                        if lo > hi {
                            return Err(BADBR);
                        }
                        Some(hi)
                    } else {
                        None
                    }
                } else {
                    Some(lo)
                };
                if !self.eat(b'}') {
                    while self.more() && self.peek() != b'}' {
                        self.i += 1;
                    }
                    if !self.more() {
                        return Err(EBRACE);
                    }
                    return Err(BADBR);
                }
                Node::Repeat(Box::new(atom), lo, hi)
            }
        };
        if self.is_repetition_next() {
            return Err(BADRPT);
        }
        Ok(node)
    }

    fn count(&mut self) -> Result<u32, RegexError> {
        let mut n: u32 = 0;
        let mut digits = 0;
        while self.more() && self.peek().is_ascii_digit() && n <= DUP_MAX {
            n = n * 10 + u32::from(self.peek() - b'0');
            self.i += 1;
            digits += 1;
        }
        if digits == 0 || n > DUP_MAX {
            return Err(BADBR);
        }
        Ok(n)
    }

    fn bracket(&mut self) -> Result<Node, RegexError> {
        let rest = &self.s[self.i..];
        if rest.starts_with(b"[:<:]]") {
            self.i += 6;
            return Ok(Node::WordBegin);
        }
        if rest.starts_with(b"[:>:]]") {
            self.i += 6;
            return Ok(Node::WordEnd);
        }
        let mut set = ByteSet::empty();
        let invert = self.eat(b'^');
        if self.eat(b']') {
            set.insert(b']');
        } else if self.eat(b'-') {
            set.insert(b'-');
        }
        while self.more()
            && self.peek() != b']'
            && !(self.peek() == b'-' && self.peek2() == Some(b']'))
        {
            self.bracket_term(&mut set)?;
        }
        if self.eat(b'-') {
            set.insert(b'-');
        }
        if !self.eat(b']') {
            return Err(EBRACK);
        }
        if self.icase {
            for b in b'a'..=b'z' {
                let u = b.to_ascii_uppercase();
                if set.contains(b) || set.contains(u) {
                    set.insert(b);
                    set.insert(u);
                }
            }
        }
        if invert {
            set.invert();
            set.remove(b'\n');
        }
        Ok(Node::Set(set))
    }

    fn bracket_term(&mut self, set: &mut ByteSet) -> Result<(), RegexError> {
        let c = self.peek();
        let kind = match c {
            b'[' => self.peek2(),
            b'-' => return Err(ERANGE),
            _ => None,
        };
        match kind {
            Some(b':') => {
                self.i += 2;
                if !self.more() {
                    return Err(EBRACK);
                }
                if matches!(self.peek(), b'-' | b']') {
                    return Err(ECTYPE);
                }
                let start = self.i;
                while self.more() && self.peek().is_ascii_alphabetic() {
                    self.i += 1;
                }
                let name = &self.s[start..self.i];
                let pred: fn(u8) -> bool = match name {
                    b"alnum" => |b| b.is_ascii_alphanumeric(),
                    b"alpha" => |b| b.is_ascii_alphabetic(),
                    b"blank" => |b| b == b' ' || b == b'\t',
                    b"cntrl" => |b| b.is_ascii_control(),
                    b"digit" => |b| b.is_ascii_digit(),
                    b"graph" => |b| b.is_ascii_graphic(),
                    b"lower" => |b| b.is_ascii_lowercase(),
                    b"print" => |b| b.is_ascii_graphic() || b == b' ',
                    b"punct" => |b| b.is_ascii_punctuation(),
                    b"space" => |b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c),
                    b"upper" => |b| b.is_ascii_uppercase(),
                    b"xdigit" => |b| b.is_ascii_hexdigit(),
                    _ => return Err(ECTYPE),
                };
                for b in 0..=255u8 {
                    if pred(b) {
                        set.insert(b);
                    }
                }
                if !self.more() {
                    return Err(EBRACK);
                }
                if !(self.eat(b':') && self.eat(b']')) {
                    return Err(ECTYPE);
                }
            }
            Some(b'=') => {
                self.i += 2;
                if !self.more() {
                    return Err(EBRACK);
                }
                if matches!(self.peek(), b'-' | b']') {
                    return Err(ECOLLATE);
                }
                let b = self.collating_element(b'=')?;
                set.insert(b);
                if !self.more() {
                    return Err(EBRACK);
                }
                if !(self.eat(b'=') && self.eat(b']')) {
                    return Err(ECOLLATE);
                }
            }
            _ => {
                let start = self.symbol()?;
                let finish = if self.more()
                    && self.peek() == b'-'
                    && self.peek2().is_some_and(|c| c != b']')
                {
                    self.i += 1;
                    if self.eat(b'-') {
                        b'-'
                    } else {
                        self.symbol()?
                    }
                } else {
                    start
                };
                if start > finish {
                    return Err(ERANGE);
                }
                for b in start..=finish {
                    set.insert(b);
                }
            }
        }
        Ok(())
    }

    fn symbol(&mut self) -> Result<u8, RegexError> {
        if !self.more() {
            return Err(EBRACK);
        }
        if self.peek() == b'[' && self.peek2() == Some(b'.') {
            self.i += 2;
            let b = self.collating_element(b'.')?;
            if !(self.eat(b'.') && self.eat(b']')) {
                return Err(ECOLLATE);
            }
            return Ok(b);
        }
        let c = self.peek();
        self.i += 1;
        Ok(c)
    }

    /// A collating element inside `[. .]` or `[= =]`: a single character or a POSIX name.
    fn collating_element(&mut self, end: u8) -> Result<u8, RegexError> {
        let start = self.i;
        while self.more() && !(self.peek() == end && self.peek2() == Some(b']')) {
            self.i += 1;
        }
        if !self.more() {
            return Err(EBRACK);
        }
        let name = &self.s[start..self.i];
        if name.len() == 1 {
            return Ok(name[0]);
        }
        let named: &[(&[u8], u8)] = &[
            (b"NUL", 0),
            (b"tab", b'\t'),
            (b"newline", b'\n'),
            (b"carriage-return", b'\r'),
            (b"space", b' '),
            (b"exclamation-mark", b'!'),
            (b"quotation-mark", b'"'),
            (b"number-sign", b'#'),
            (b"dollar-sign", b'$'),
            (b"percent-sign", b'%'),
            (b"ampersand", b'&'),
            (b"apostrophe", b'\''),
            (b"left-parenthesis", b'('),
            (b"right-parenthesis", b')'),
            (b"asterisk", b'*'),
            (b"plus-sign", b'+'),
            (b"comma", b','),
            (b"hyphen", b'-'),
            (b"hyphen-minus", b'-'),
            (b"period", b'.'),
            (b"full-stop", b'.'),
            (b"slash", b'/'),
            (b"solidus", b'/'),
            (b"colon", b':'),
            (b"semicolon", b';'),
            (b"less-than-sign", b'<'),
            (b"equals-sign", b'='),
            (b"greater-than-sign", b'>'),
            (b"question-mark", b'?'),
            (b"commercial-at", b'@'),
            (b"left-square-bracket", b'['),
            (b"backslash", b'\\'),
            (b"reverse-solidus", b'\\'),
            (b"right-square-bracket", b']'),
            (b"circumflex", b'^'),
            (b"circumflex-accent", b'^'),
            (b"underscore", b'_'),
            (b"low-line", b'_'),
            (b"grave-accent", b'`'),
            (b"left-brace", b'{'),
            (b"left-curly-bracket", b'{'),
            (b"vertical-line", b'|'),
            (b"right-brace", b'}'),
            (b"right-curly-bracket", b'}'),
            (b"tilde", b'~'),
        ];
        named
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| *b)
            .ok_or(ECOLLATE)
    }
}

#[derive(Clone)]
enum Inst {
    Set(Box<ByteSet>),
    Bol,
    Eol,
    WordBegin,
    WordEnd,
    Save(usize),
    Split(usize, usize),
    Jmp(usize),
    Backref(usize),
    Match,
}

fn emit(prog: &mut Vec<Inst>, node: &Node) {
    match node {
        Node::Set(s) => prog.push(Inst::Set(Box::new(s.clone()))),
        Node::Bol => prog.push(Inst::Bol),
        Node::Eol => prog.push(Inst::Eol),
        Node::WordBegin => prog.push(Inst::WordBegin),
        Node::WordEnd => prog.push(Inst::WordEnd),
        Node::Empty => {}
        Node::Backref(n) => prog.push(Inst::Backref(*n)),
        Node::Group(n, inner) => {
            prog.push(Inst::Save(2 * n));
            emit(prog, inner);
            prog.push(Inst::Save(2 * n + 1));
        }
        Node::Concat(items) => items.iter().for_each(|n| emit(prog, n)),
        Node::Alt(branches) => {
            let mut jumps = Vec::new();
            for (k, b) in branches.iter().enumerate() {
                if k + 1 < branches.len() {
                    let split = prog.len();
                    prog.push(Inst::Split(split + 1, 0));
                    emit(prog, b);
                    jumps.push(prog.len());
                    prog.push(Inst::Jmp(0));
                    let next = prog.len();
                    prog[split] = Inst::Split(split + 1, next);
                } else {
                    emit(prog, b);
                }
            }
            let end = prog.len();
            for j in jumps {
                prog[j] = Inst::Jmp(end);
            }
        }
        Node::Repeat(inner, lo, hi) => {
            for _ in 0..*lo {
                emit(prog, inner);
            }
            match hi {
                None => {
                    let split = prog.len();
                    prog.push(Inst::Split(split + 1, 0));
                    emit(prog, inner);
                    prog.push(Inst::Jmp(split));
                    let end = prog.len();
                    prog[split] = Inst::Split(split + 1, end);
                }
                Some(hi) => {
                    let mut splits = Vec::new();
                    for _ in *lo..*hi {
                        splits.push(prog.len());
                        prog.push(Inst::Split(0, 0));
                        emit(prog, inner);
                    }
                    let end = prog.len();
                    for s in splits {
                        prog[s] = Inst::Split(s + 1, end);
                    }
                }
            }
        }
    }
}

/// The single byte a set matches, if it matches exactly one.
fn single_byte(s: &ByteSet) -> Option<u8> {
    let count: u32 = s.0.iter().map(|w| w.count_ones()).sum();
    if count != 1 {
        return None;
    }
    (0..=255u8).find(|&b| s.contains(b))
}

/// The longest run of literal bytes that every match of `node` contains.
fn required_literal(node: &Node) -> Option<Vec<u8>> {
    fn flatten<'a>(node: &'a Node, out: &mut Vec<&'a Node>) {
        match node {
            Node::Concat(items) => items.iter().for_each(|n| flatten(n, out)),
            Node::Group(_, inner) if !matches!(**inner, Node::Alt(_)) => flatten(inner, out),
            other => out.push(other),
        }
    }
    let mut items = Vec::new();
    flatten(node, &mut items);
    let mut best: Vec<u8> = Vec::new();
    let mut cur: Vec<u8> = Vec::new();
    for item in items {
        match item {
            Node::Set(s) if single_byte(s).is_some() => cur.push(single_byte(s).unwrap()),
            // Zero-width assertions do not break a literal run.
            Node::Bol | Node::Eol | Node::WordBegin | Node::WordEnd | Node::Empty => {}
            _ => {
                if cur.len() > best.len() {
                    best = std::mem::take(&mut cur);
                }
                cur.clear();
            }
        }
    }
    if cur.len() > best.len() {
        best = cur;
    }
    (!best.is_empty()).then_some(best)
}

/// A compiled POSIX extended regular expression (LLVM `Regex` with the `Newline` flag).
#[derive(Clone)]
pub struct Regex {
    prog: Vec<Inst>,
    nsub: usize,
    has_backrefs: bool,
    icase: bool,
    /// Bytes a match can start with, or `None` when a match may be empty / start anywhere.
    first: Option<ByteSet>,
    /// Every match starts at a line start (the program begins with `^`).
    anchored_bol: bool,
    /// Some character class accepts a newline, so a match may span lines.
    crosses_lines: bool,
    /// A literal every match contains (for skipping lines quickly); None when unknown.
    required: Option<Vec<u8>>,
}

/// Byte span `[start, end)` of a match or capture group.
pub type Span = (usize, usize);

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl Regex {
    /// Compiles `pattern`; `icase` gives case-insensitive matching (`--ignore-case`).
    pub fn new(pattern: &[u8], icase: bool) -> Result<Regex, RegexError> {
        let mut p = Parser {
            s: pattern,
            i: 0,
            icase,
            nsub: 0,
            closed: vec![true],
        };
        let root = p.ere(None)?;
        if p.more() {
            // Only an unbalanced `)` can stop the top-level parse early.
            return Err(EPAREN);
        }
        let mut prog = Vec::new();
        prog.push(Inst::Save(0));
        emit(&mut prog, &root);
        prog.push(Inst::Save(1));
        prog.push(Inst::Match);
        let has_backrefs = prog.iter().any(|i| matches!(i, Inst::Backref(_)));
        let crosses_lines = prog
            .iter()
            .any(|i| matches!(i, Inst::Set(s) if s.contains(b'\n')));
        let required = if icase { None } else { required_literal(&root) };
        let mut re = Regex {
            prog,
            nsub: p.nsub,
            has_backrefs,
            icase,
            first: None,
            anchored_bol: false,
            crosses_lines,
            required,
        };
        re.first = re.first_set();
        re.anchored_bol = re.starts_with_bol();
        Ok(re)
    }

    /// Number of parenthesised subexpressions.
    pub fn groups(&self) -> usize {
        self.nsub
    }

    fn first_set(&self) -> Option<ByteSet> {
        let mut set = ByteSet::empty();
        let mut seen = vec![false; self.prog.len()];
        let mut stack = vec![0usize];
        while let Some(pc) = stack.pop() {
            if seen[pc] {
                continue;
            }
            seen[pc] = true;
            match &self.prog[pc] {
                Inst::Set(s) => set.union(s),
                Inst::Match | Inst::Backref(_) => return None,
                Inst::Split(a, b) => {
                    stack.push(*a);
                    stack.push(*b);
                }
                Inst::Jmp(a) => stack.push(*a),
                Inst::Bol | Inst::Eol | Inst::WordBegin | Inst::WordEnd | Inst::Save(_) => {
                    stack.push(pc + 1)
                }
            }
        }
        if set.is_full() {
            None
        } else {
            Some(set)
        }
    }

    fn starts_with_bol(&self) -> bool {
        // Follow only saves from the start: `^` must be unconditional.
        let mut pc = 0;
        loop {
            match &self.prog[pc] {
                Inst::Save(_) => pc += 1,
                Inst::Bol => return true,
                _ => return false,
            }
        }
    }

    /// Finds the leftmost-longest match in `hay`, returning group spans (index 0 is the whole
    /// match). `^` matches at offset 0 and after each newline, `$` at the end and before each
    /// newline, as with LLVM's `REG_NEWLINE` on a buffer that starts where the search starts.
    pub fn find(&self, hay: &[u8]) -> Option<Vec<Option<Span>>> {
        if self.has_backrefs || self.crosses_lines {
            return self.find_general(hay);
        }
        // Every match lies within one line: only lines holding the required literal can
        // match, and the visited states of a line fit in a small dense bitset.
        let mut visited = Visited::Dense {
            bits: Vec::new(),
            base: 0,
            width: 0,
        };
        let mut line_start = 0;
        while line_start <= hay.len() {
            if let Some(lit) = &self.required {
                let k = find_bytes(hay, lit, line_start)?;
                line_start = hay[..k]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1)
                    .max(line_start);
            }
            let line_end = hay[line_start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(hay.len(), |k| line_start + k);
            let width = line_end - line_start + 1;
            if let Visited::Dense {
                bits,
                base,
                width: w,
            } = &mut visited
            {
                bits.clear();
                bits.resize((self.prog.len() * width).div_ceil(64), 0);
                *base = line_start;
                *w = width;
            }
            let mut start = line_start;
            while start <= line_end {
                if self.anchored_bol && start > line_start {
                    break;
                }
                if let Some(first) = &self.first {
                    match hay[start..line_end].iter().position(|&b| first.contains(b)) {
                        Some(k) => start += k,
                        None => break,
                    }
                }
                if let Some(m) = self.match_at(hay, start, &mut visited) {
                    return Some(m);
                }
                start += 1;
            }
            line_start = line_end + 1;
        }
        None
    }

    /// Search without the one-line assumption (patterns with back-references or with classes
    /// that match a newline).
    fn find_general(&self, hay: &[u8]) -> Option<Vec<Option<Span>>> {
        let mut visited = Visited::Sparse(HashSet::with_hasher(BuildFx));
        let mut start = 0;
        while start <= hay.len() {
            if self.anchored_bol && start > 0 && hay[start - 1] != b'\n' {
                match hay[start..].iter().position(|&b| b == b'\n') {
                    Some(k) => {
                        start += k + 1;
                        continue;
                    }
                    None => return None,
                }
            }
            if let Some(first) = &self.first {
                match hay[start..].iter().position(|&b| first.contains(b)) {
                    Some(k) => start += k,
                    None => return None,
                }
                if self.anchored_bol && start > 0 && hay[start - 1] != b'\n' {
                    continue;
                }
            }
            if self.has_backrefs {
                if let Visited::Sparse(set) = &mut visited {
                    set.clear();
                }
            }
            if let Some(m) = self.match_at(hay, start, &mut visited) {
                return Some(m);
            }
            start += 1;
        }
        None
    }

    fn match_at(
        &self,
        hay: &[u8],
        start: usize,
        visited: &mut Visited,
    ) -> Option<Vec<Option<Span>>> {
        enum Job {
            Run(usize, usize),
            Restore(usize, usize),
        }
        let nslots = 2 * (self.nsub + 1);
        let mut slots = vec![usize::MAX; nslots];
        let mut best: Option<(usize, Vec<usize>)> = None;
        let mut stack = vec![Job::Run(0, start)];
        while let Some(job) = stack.pop() {
            let (mut pc, pos) = match job {
                Job::Run(pc, pos) => (pc, pos),
                Job::Restore(slot, v) => {
                    slots[slot] = v;
                    continue;
                }
            };
            let mut pos = pos;
            loop {
                let fresh = match visited {
                    Visited::Dense { bits, base, width } => {
                        let bit = pc * *width + (pos - *base);
                        let (w, m) = (bit / 64, 1u64 << (bit % 64));
                        let fresh = bits[w] & m == 0;
                        bits[w] |= m;
                        fresh
                    }
                    Visited::Sparse(set) => {
                        let key = if self.has_backrefs {
                            state_key_with_slots(pc, pos, &slots)
                        } else {
                            ((pc as u64) << 32) | pos as u64
                        };
                        set.insert(key)
                    }
                };
                if !fresh {
                    break;
                }
                match &self.prog[pc] {
                    Inst::Set(s) => {
                        if pos < hay.len() && s.contains(hay[pos]) {
                            pc += 1;
                            pos += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Bol => {
                        if pos == 0 || hay[pos - 1] == b'\n' {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Eol => {
                        if pos == hay.len() || hay[pos] == b'\n' {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::WordBegin => {
                        let before = pos > 0 && is_word(hay[pos - 1]);
                        let after = pos < hay.len() && is_word(hay[pos]);
                        if !before && after {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::WordEnd => {
                        let before = pos > 0 && is_word(hay[pos - 1]);
                        let after = pos < hay.len() && is_word(hay[pos]);
                        if before && !after {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Save(slot) => {
                        stack.push(Job::Restore(*slot, slots[*slot]));
                        slots[*slot] = pos;
                        pc += 1;
                    }
                    Inst::Split(a, b) => {
                        stack.push(Job::Run(*b, pos));
                        pc = *a;
                    }
                    Inst::Jmp(a) => pc = *a,
                    Inst::Backref(n) => {
                        let (s, e) = (slots[2 * n], slots[2 * n + 1]);
                        if s == usize::MAX || e == usize::MAX {
                            break;
                        }
                        let len = e - s;
                        if pos + len > hay.len() {
                            break;
                        }
                        let ok = if self.icase {
                            hay[s..e].eq_ignore_ascii_case(&hay[pos..pos + len])
                        } else {
                            hay[s..e] == hay[pos..pos + len]
                        };
                        if !ok {
                            break;
                        }
                        pc += 1;
                        pos += len;
                    }
                    Inst::Match => {
                        if best.as_ref().is_none_or(|(e, _)| pos > *e) {
                            best = Some((pos, slots.clone()));
                        }
                        break;
                    }
                }
            }
            if best.as_ref().is_some_and(|(e, _)| *e == hay.len()) {
                break;
            }
        }
        let (_, slots) = best?;
        Some(
            (0..=self.nsub)
                .map(|g| {
                    let (s, e) = (slots[2 * g], slots[2 * g + 1]);
                    (s != usize::MAX && e != usize::MAX).then_some((s, e))
                })
                .collect(),
        )
    }
}

/// Set of explored `(instruction, position)` states.
enum Visited {
    /// Bitset over one line: `width` positions from `base`, for every instruction.
    Dense {
        bits: Vec<u64>,
        base: usize,
        width: usize,
    },
    /// Hashed states (keys include capture slots when the pattern has back-references).
    Sparse(HashSet<u64, BuildFx>),
}

/// Position of `needle` in `hay` at or after `from` (Horspool's algorithm: the inputs are
/// whole tool outputs, searched once per directive).
pub fn find_bytes(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > hay.len() {
        return None;
    }
    let n = needle.len();
    if n == 0 {
        return Some(from);
    }
    if n == 1 {
        return hay[from..]
            .iter()
            .position(|&b| b == needle[0])
            .map(|p| p + from);
    }
    if hay.len() - from < n {
        return None;
    }
    let mut skip = [n; 256];
    for (i, &b) in needle[..n - 1].iter().enumerate() {
        skip[b as usize] = n - 1 - i;
    }
    let last = needle[n - 1];
    let mut i = from;
    while i + n <= hay.len() {
        let b = hay[i + n - 1];
        if b == last && hay[i..i + n - 1] == needle[..n - 1] {
            return Some(i);
        }
        i += skip[b as usize];
    }
    None
}

fn state_key_with_slots(pc: usize, pos: usize, slots: &[usize]) -> u64 {
    let mut h = FxHasher::default();
    use std::hash::Hasher;
    h.write_usize(pc);
    h.write_usize(pos);
    for s in slots {
        h.write_usize(*s);
    }
    h.finish()
}

/// Minimal fast hasher for the visited-state set (the keys are already well mixed integers).
#[derive(Default, Clone, Copy)]
struct FxHasher {
    hash: u64,
}

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.hash = (self.hash.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

#[derive(Default, Clone, Copy)]
struct BuildFx;

impl std::hash::BuildHasher for BuildFx {
    type Hasher = FxHasher;
    fn build_hasher(&self) -> FxHasher {
        FxHasher::default()
    }
}

/// Escapes the characters that are special in a POSIX extended regex, like LLVM's
/// `Regex::escape`, so a literal string can be spliced into a pattern.
pub fn escape(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for &c in s {
        if b"()^$|*+?.[]\\{}".contains(&c) {
            out.push(b'\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(re: &str, hay: &str) -> Option<(usize, usize)> {
        Regex::new(re.as_bytes(), false)
            .unwrap()
            .find(hay.as_bytes())
            .map(|g| g[0].unwrap())
    }

    fn err(re: &str) -> &'static str {
        Regex::new(re.as_bytes(), false)
            .err()
            .expect("expected an error")
            .0
    }

    #[test]
    fn leftmost_longest() {
        assert_eq!(m("a|ab", "xab"), Some((1, 3)));
        assert_eq!(m("(a|ab)(c|bcd)", "abcd"), Some((0, 4)));
        assert_eq!(m("x*", "abc"), Some((0, 0)));
        assert_eq!(m("[0-9]+", "ab123c"), Some((2, 5)));
    }

    #[test]
    fn newline_semantics() {
        assert_eq!(m("a.b", "a\nb"), None);
        assert_eq!(m("a[^x]b", "a\nb"), None);
        assert_eq!(m("a[[:space:]]b", "a\nb"), Some((0, 3)));
        assert_eq!(m("^b", "ab\nb"), Some((3, 4)));
        assert_eq!(m("a$", "ab\na"), Some((3, 4)));
        assert_eq!(m("b$", "ab\na"), Some((1, 2)));
    }

    #[test]
    fn escapes_are_literal() {
        assert_eq!(m("\\d", "1d"), Some((1, 2)));
        assert_eq!(m("\\.", "a.b"), Some((1, 2)));
        assert_eq!(m("[\\]", "a\\b"), Some((1, 2)));
        assert_eq!(m("a{x", "a{x"), Some((0, 3)));
        assert_eq!(m("[]a]+", "x]a]"), Some((1, 4)));
    }

    #[test]
    fn backrefs() {
        assert_eq!(m("([a-z]+) \\1", "ab cd cd"), Some((3, 8)));
        let g = Regex::new(b"([a-z]) \\1", false)
            .unwrap()
            .find(b"a b\nc c")
            .unwrap();
        assert_eq!(g[1], Some((4, 5)));
    }

    #[test]
    fn repetition_counts() {
        assert_eq!(m("a{2}", "aaa"), Some((0, 2)));
        assert_eq!(m("a{2,}", "aaaa"), Some((0, 4)));
        assert_eq!(m("a{1,2}b", "aaab"), Some((1, 4)));
    }

    #[test]
    fn errors_match_llvm() {
        assert_eq!(err(""), "empty (sub)expression");
        assert_eq!(err("a|"), "empty (sub)expression");
        assert_eq!(err("("), "parentheses not balanced");
        assert_eq!(err("a)"), "parentheses not balanced");
        assert_eq!(err("\\"), "trailing backslash (\\)");
        assert_eq!(err("x{2"), "braces not balanced");
        assert_eq!(err("*a"), "repetition-operator operand invalid");
        assert_eq!(err("a**"), "repetition-operator operand invalid");
        assert_eq!(err("[a"), "brackets ([ ]) not balanced");
        assert_eq!(err("[z-a]"), "invalid character range");
        assert_eq!(err("[[:foo:]]"), "invalid character class");
        assert_eq!(err("\\1"), "invalid backreference number");
    }

    #[test]
    fn case_insensitive() {
        let re = Regex::new(b"ab[c-d]", true).unwrap();
        assert!(re.find(b"xABD").is_some());
    }

    #[test]
    fn escape_roundtrip() {
        let s = "a.b*c[d]{e}(f)|g^h$i\\j+k?";
        let e = String::from_utf8(escape(s.as_bytes())).unwrap();
        assert_eq!(m(&e, s), Some((0, s.len())));
    }
}
