//! Reading the check file into directives and verifying the input against them, following the
//! algorithm of LLVM FileCheck (CHECK-LABEL partitioning, CHECK-DAG groups with CHECK-NOT
//! between them, CHECK-NEXT/SAME/EMPTY line checks, CHECK-COUNT repetition) so that the same
//! tests pass and fail, with the same diagnostics.

use std::collections::BTreeSet;

use crate::pattern::{
    Captures, CheckType, Context, Kind, Match, MatchError, ParseContext, ParseFailure,
    ParseOptions, Pattern,
};
use crate::source::{Kind as DiagKind, Loc, SourceMgr};
use crate::Options;

/// A DAG or NOT directive waiting in front of the next positive directive.
pub struct DagNot {
    pub pat: Pattern,
    pub prefix: String,
}

/// A positive directive with the DAG/NOT directives that precede it.
pub struct CheckString {
    pub pat: Pattern,
    pub prefix: String,
    pub loc: Loc,
    pub dag_not: Vec<DagNot>,
}

/// How a diagnostic relates its pattern to the input (LLVM `FileCheckDiag::MatchType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchTy {
    FoundAndExpected,
    FoundButExcluded,
    FoundButWrongLine,
    FoundButDiscarded,
    NoneAndExcluded,
    NoneButExpected,
    NoneForInvalidPattern,
    Fuzzy,
}

/// One diagnostic recorded for the annotated input dump.
#[derive(Debug, Clone)]
pub struct DiagRec {
    pub ty: CheckType,
    pub check_loc: Loc,
    pub match_ty: MatchTy,
    /// Input byte range.
    pub start: usize,
    pub end: usize,
    pub note: String,
}

fn is_part_of_word(b: u8) -> bool {
    b == b'-' || b == b'_' || b.is_ascii_alphanumeric()
}

enum Found {
    Check(CheckType),
    Comment,
    Misspelled,
    BadNot,
    BadCount,
}

/// Classifies the directive at `at` (which starts with `prefix`); returns it with the offset of
/// the text following it (LLVM `FindCheckType`). None: not a directive.
fn find_check_type(t: &[u8], at: usize, prefix: &str, is_comment: bool) -> Option<(Found, usize)> {
    let plen = prefix.len();
    if t.len() - at <= plen {
        return None;
    }
    let mut r = at + plen;
    if is_comment {
        return (t[r] == b':').then_some((Found::Comment, r + 1));
    }
    let consume = |r: &mut usize, s: &[u8]| -> bool {
        if t[*r..].starts_with(s) {
            *r += s.len();
            true
        } else {
            false
        }
    };
    let modifiers = |mut r: usize, mut ty: CheckType| -> Option<(CheckType, usize)> {
        if t.get(r) == Some(&b':') {
            return Some((ty, r + 1));
        }
        if t.get(r) != Some(&b'{') {
            return None;
        }
        r += 1;
        loop {
            while r < t.len() && t[r].is_ascii_whitespace() {
                r += 1;
            }
            if t[r..].starts_with(b"LITERAL") {
                ty.literal = true;
                r += 7;
            } else {
                return None;
            }
            while r < t.len() && t[r].is_ascii_whitespace() {
                r += 1;
            }
            if t.get(r) == Some(&b',') {
                r += 1;
                continue;
            }
            break;
        }
        if t[r..].starts_with(b"}:") {
            Some((ty, r + 2))
        } else {
            None
        }
    };
    if t[r] == b':' {
        return Some((Found::Check(CheckType::new(Kind::Plain)), r + 1));
    }
    if t[r] == b'{' {
        return modifiers(r, CheckType::new(Kind::Plain)).map(|(ty, e)| (Found::Check(ty), e));
    }
    let misspelled = if t[r] == b'_' {
        true
    } else if t[r] == b'-' {
        false
    } else {
        return None;
    };
    r += 1;
    let wrap = |res: Option<(CheckType, usize)>| -> Option<(Found, usize)> {
        let (ty, e) = res?;
        Some((
            if misspelled {
                Found::Misspelled
            } else {
                Found::Check(ty)
            },
            e,
        ))
    };
    if consume(&mut r, b"COUNT-") {
        let ds = r;
        if t.get(r) == Some(&b'-') {
            r += 1;
        }
        let digits_start = r;
        while r < t.len() && t[r].is_ascii_digit() {
            r += 1;
        }
        if r == digits_start {
            return Some((
                if misspelled {
                    Found::Misspelled
                } else {
                    Found::BadCount
                },
                ds,
            ));
        }
        let count: i128 = std::str::from_utf8(&t[ds..r])
            .ok()?
            .parse()
            .unwrap_or(i128::MAX);
        if count <= 0 || count > i32::MAX as i128 {
            return Some((
                if misspelled {
                    Found::Misspelled
                } else {
                    Found::BadCount
                },
                r,
            ));
        }
        if !matches!(t.get(r), Some(b':') | Some(b'{')) {
            return Some((
                if misspelled {
                    Found::Misspelled
                } else {
                    Found::BadCount
                },
                r,
            ));
        }
        let mut ty = CheckType::new(Kind::Plain);
        ty.count = count as usize;
        return wrap(modifiers(r, ty));
    }
    for combo in [
        &b"DAG-NOT:"[..],
        b"NOT-DAG:",
        b"NEXT-NOT:",
        b"NOT-NEXT:",
        b"SAME-NOT:",
        b"NOT-SAME:",
        b"EMPTY-NOT:",
        b"NOT-EMPTY:",
    ] {
        if t[r..].starts_with(combo) {
            return Some((
                if misspelled {
                    Found::Misspelled
                } else {
                    Found::BadNot
                },
                r,
            ));
        }
    }
    for (name, kind) in [
        (&b"NEXT"[..], Kind::Next),
        (b"SAME", Kind::Same),
        (b"NOT", Kind::Not),
        (b"DAG", Kind::Dag),
        (b"LABEL", Kind::Label),
        (b"EMPTY", Kind::Empty),
    ] {
        if consume(&mut r, name) {
            return wrap(modifiers(r, CheckType::new(kind)));
        }
    }
    None
}

/// Result of reading the check file.
pub struct CheckFile {
    pub checks: Vec<CheckString>,
}

/// Reads directives from buffer `buf` (LLVM `FileCheck::readCheckFile`). On error the
/// diagnostics are in `sm.out` and the exit status to use is returned.
pub fn read_check_file(
    sm: &mut SourceMgr,
    buf: usize,
    opts: &Options,
    prefixes: &[String],
    comment_prefixes: &[String],
    pctx: &mut ParseContext,
) -> Result<CheckFile, i32> {
    let popts = ParseOptions {
        match_full_lines: opts.match_full_lines,
        strict_whitespace: opts.strict_whitespace,
        ignore_case: opts.ignore_case,
    };
    // Implicit negative checks, each in its own "command line" buffer.
    let mut implicit: Vec<DagNot> = Vec::new();
    for p in &opts.implicit_check_not {
        let text = format!("-implicit-check-not='{p}'");
        let b = sm.add("command line", text.into_bytes());
        let start = "-implicit-check-not='".len();
        let ty = CheckType::new(Kind::Not);
        match Pattern::parse(
            sm,
            b,
            start,
            start + p.len(),
            ty,
            "IMPLICIT-CHECK",
            None,
            &popts,
            pctx,
        ) {
            Ok(pat) => implicit.push(DagNot {
                pat,
                prefix: "IMPLICIT-CHECK".into(),
            }),
            Err(ParseFailure::Exit(code)) => return Err(code),
            // LLVM reports the error but ignores it and keeps a pattern that never matches.
            Err(ParseFailure::Invalid) => implicit.push(DagNot {
                pat: Pattern::never(Loc { buf: b, off: start }, ty),
                prefix: "IMPLICIT-CHECK".into(),
            }),
        }
    }
    let clone_implicit =
        |implicit: &Vec<DagNot>, sm: &mut SourceMgr, pctx: &mut ParseContext| -> Vec<DagNot> {
            // Patterns are cheap to re-parse; this keeps Pattern free of Clone requirements.
            implicit
                .iter()
                .map(|d| {
                    let loc = d.pat.loc;
                    let end = sm.text(loc.buf).len() - 1;
                    let pat = if d.pat.is_never() {
                        Pattern::never(loc, d.pat.ty)
                    } else {
                        let mut quiet = SourceMgr::default();
                        std::mem::swap(&mut quiet.buffers, &mut sm.buffers);
                        let p = Pattern::parse(
                            &mut quiet, loc.buf, loc.off, end, d.pat.ty, &d.prefix, None, &popts,
                            pctx,
                        );
                        std::mem::swap(&mut quiet.buffers, &mut sm.buffers);
                        p.ok().expect("implicit pattern parsed before")
                    };
                    DagNot {
                        pat,
                        prefix: d.prefix.clone(),
                    }
                })
                .collect()
        };

    let t = sm.shared(buf);
    let mut all: Vec<(&str, bool)> = prefixes.iter().map(|p| (p.as_str(), false)).collect();
    all.extend(comment_prefixes.iter().map(|p| (p.as_str(), true)));
    // Longest first so that at equal positions the longest prefix wins.
    all.sort_by_key(|a| std::cmp::Reverse(a.0.len()));
    let mut next_pos: Vec<Option<usize>> = all
        .iter()
        .map(|(p, _)| find_bytes(&t, p.as_bytes(), 0))
        .collect();

    let mut not_found: BTreeSet<&str> = prefixes.iter().map(|s| s.as_str()).collect();
    let mut checks: Vec<CheckString> = Vec::new();
    let mut dag_not: Vec<DagNot> = clone_implicit(&implicit, sm, pctx);
    let mut pos = 0usize;
    // Where LLVM's scan stopped: the end of the last directive's line (for the EOF pattern).
    let mut last_eol = 0usize;
    loop {
        // Find the next directive (LLVM `FindFirstMatchingPrefix`).
        let mut found = None;
        while pos < t.len() {
            let mut best: Option<(usize, usize)> = None; // (position, index in `all`)
            for (k, (p, _)) in all.iter().enumerate() {
                if let Some(np) = next_pos[k] {
                    if np < pos {
                        next_pos[k] = find_bytes(&t, p.as_bytes(), pos);
                    }
                }
                if let Some(np) = next_pos[k] {
                    if best.is_none_or(|(bp, _)| np < bp) {
                        best = Some((np, k));
                    }
                }
            }
            let Some((at, k)) = best else {
                break;
            };
            let (prefix, is_comment) = all[k];
            if at == 0 || !is_part_of_word(t[at - 1]) {
                if let Some((ty, after)) = find_check_type(&t, at, prefix, is_comment) {
                    found = Some((at, prefix, is_comment, ty, after));
                    break;
                }
            }
            // Skip this prefix and the rest of the word it is part of.
            let mut skip = at + prefix.len();
            while skip < t.len() && is_part_of_word(t[skip]) {
                skip += 1;
            }
            pos = skip;
        }
        let Some((at, prefix, _is_comment, ty, after)) = found else {
            break;
        };
        let ty = match ty {
            Found::Comment => None,
            Found::Check(ty) => Some(ty),
            Found::Misspelled => {
                let directive = String::from_utf8_lossy(&t[at..after]).into_owned();
                sm.print(
                    Loc { buf, off: at },
                    DiagKind::Error,
                    &format!("misspelled directive '{directive}'"),
                    &[],
                );
                return Err(2);
            }
            Found::BadNot => {
                sm.print(
                    Loc { buf, off: after },
                    DiagKind::Error,
                    &format!("unsupported -NOT combo on prefix '{prefix}'"),
                    &[],
                );
                return Err(2);
            }
            Found::BadCount => {
                sm.print(
                    Loc { buf, off: after },
                    DiagKind::Error,
                    &format!("invalid count in -COUNT specification on prefix '{prefix}'"),
                    &[],
                );
                return Err(2);
            }
        };
        if ty.is_some() {
            not_found.remove(prefix);
        }
        // LLVM continues right after the directive, or after the prefix alone when the
        // directive ends the file.
        let mut p = if after >= t.len() {
            at + prefix.len()
        } else {
            after
        };
        if !(opts.strict_whitespace && opts.match_full_lines) {
            while p < t.len() && matches!(t[p], b' ' | b'\t') {
                p += 1;
            }
        }
        let eol = t[p..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(t.len(), |e| e + p);
        let pattern_start = p;
        pos = eol;
        last_eol = eol;
        let Some(ty) = ty else {
            continue;
        };
        let line = sm.line_of(Loc { buf, off: at });
        let pat = match Pattern::parse(
            sm,
            buf,
            pattern_start,
            eol,
            ty,
            prefix,
            Some(line),
            &popts,
            pctx,
        ) {
            Ok(p) => p,
            Err(ParseFailure::Exit(code)) => return Err(code),
            Err(ParseFailure::Invalid) => return Err(2),
        };
        if ty.kind == Kind::Label && pat.has_variable() {
            sm.print(
                Loc { buf, off: at },
                DiagKind::Error,
                &format!("found '{prefix}-LABEL:' with variable definition or use"),
                &[],
            );
            return Err(2);
        }
        if matches!(ty.kind, Kind::Next | Kind::Same | Kind::Empty) && checks.is_empty() {
            let name = match ty.kind {
                Kind::Next => "NEXT",
                Kind::Empty => "EMPTY",
                _ => "SAME",
            };
            sm.print(
                Loc { buf, off: at },
                DiagKind::Error,
                &format!("found '{prefix}-{name}' without previous '{prefix}: line"),
                &[],
            );
            return Err(2);
        }
        if matches!(ty.kind, Kind::Dag | Kind::Not) {
            dag_not.push(DagNot {
                pat,
                prefix: prefix.to_string(),
            });
            continue;
        }
        let loc = pat.loc;
        let fresh = clone_implicit(&implicit, sm, pctx);
        checks.push(CheckString {
            pat,
            prefix: prefix.to_string(),
            loc,
            dag_not: std::mem::replace(&mut dag_not, fresh),
        });
    }

    let no_prefix_found = not_found.len() == prefixes.len();
    let some_unused = !opts.allow_unused_prefixes && !not_found.is_empty();
    if (no_prefix_found || some_unused)
        && (opts.implicit_check_not.is_empty() || !opts.check_prefixes.is_empty())
    {
        let list: Vec<String> = not_found.iter().map(|p| format!("'{p}:'")).collect();
        let plural = if not_found.len() > 1 { "es" } else { "" };
        sm.print_plain(&format!(
            "error: no check strings found with prefix{plural} {}",
            list.join(", ")
        ));
        return Err(2);
    }
    if !dag_not.is_empty() {
        let loc = Loc { buf, off: last_eol };
        checks.push(CheckString {
            pat: Pattern::eof(loc),
            prefix: prefixes[0].clone(),
            loc,
            dag_not,
        });
    }
    Ok(CheckFile { checks })
}

fn find_bytes(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    crate::posix_regex::find_bytes(hay, needle, from)
}

/// Levenshtein distance (LLVM `StringRef::edit_distance` with replacements allowed), computed
/// only as far as it matters: any result above `bound` comes back as `bound + 1`.
///
/// The fuzzy-match search compares the pattern against thousands of input positions and only
/// needs to know whether a position beats the best one so far, so cells farther than `bound`
/// from the diagonal (which cannot lead to a distance within `bound`) are never computed.
/// That turns the O(n·m) table into a band of O(n·bound) cells, with the same answer whenever
/// the distance is within `bound`.
fn bounded_edit_distance(a: &[u8], b: &[u8], bound: usize) -> usize {
    let (n, m) = (a.len(), b.len());
    if n.abs_diff(m) > bound {
        return bound + 1;
    }
    let inf = bound + 1;
    // Row over `b` (length m + 1); cells outside the band hold `inf`.
    let mut prev: Vec<usize> = (0..=m).map(|j| j.min(inf)).collect();
    let mut cur = vec![inf; m + 1];
    for i in 1..=n {
        let lo = i.saturating_sub(bound).max(1);
        let hi = (i + bound).min(m);
        cur[0] = i.min(inf);
        if lo > 1 {
            cur[lo - 1] = inf;
        }
        let mut row_min = cur[0];
        for j in lo..=hi {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let v = sub.min(prev[j] + 1).min(cur[j - 1] + 1).min(inf);
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if hi < m {
            cur[hi + 1] = inf;
        }
        if row_min > bound {
            return inf;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[m].min(inf)
}

/// Edit distance from one fixed pattern to many texts, 64 pattern bytes per machine word
/// (Myers' bit-vector algorithm, in the block form for patterns longer than a word).
///
/// The fuzzy-match search compares the same pattern with up to 4,096 input positions; when no
/// position comes close, the banded computation degenerates to full tables, and this form does
/// the same work 64 cells at a time.
struct BitEditDistance {
    /// `peq[byte * blocks + b]`: the positions of `byte` in block `b` of the pattern.
    peq: Vec<u64>,
    blocks: usize,
    len: usize,
}

impl BitEditDistance {
    fn new(pattern: &[u8]) -> Self {
        let blocks = pattern.len().div_ceil(64).max(1);
        let mut peq = vec![0u64; 256 * blocks];
        for (i, &c) in pattern.iter().enumerate() {
            peq[c as usize * blocks + i / 64] |= 1 << (i % 64);
        }
        BitEditDistance {
            peq,
            blocks,
            len: pattern.len(),
        }
    }

    /// Levenshtein distance (with replacements) between the pattern and `text`.
    fn distance(&self, text: &[u8]) -> usize {
        let m = self.len;
        if m == 0 {
            return text.len();
        }
        let blocks = self.blocks;
        let last_bit = 1u64 << ((m - 1) % 64);
        let mut pv = vec![!0u64; blocks];
        let mut mv = vec![0u64; blocks];
        let mut score = m;
        for &c in text {
            let eqs = &self.peq[c as usize * blocks..(c as usize + 1) * blocks];
            // The first row of the table counts up by one per text byte.
            let mut h_in: i32 = 1;
            for b in 0..blocks {
                let mut eq = eqs[b];
                let (p, n) = (pv[b], mv[b]);
                let xv = eq | n;
                if h_in < 0 {
                    eq |= 1;
                }
                let xh = ((eq & p).wrapping_add(p) ^ p) | eq;
                let mut ph = n | !(xh | p);
                let mut mh = p & xh;
                let high = if b + 1 == blocks { last_bit } else { 1 << 63 };
                let h_out = if ph & high != 0 {
                    1
                } else if mh & high != 0 {
                    -1
                } else {
                    0
                };
                ph <<= 1;
                mh <<= 1;
                if h_in < 0 {
                    mh |= 1;
                } else if h_in > 0 {
                    ph |= 1;
                }
                pv[b] = mh | !(xv | ph);
                mv[b] = ph & xv;
                h_in = h_out;
            }
            score = (score as i64 + h_in as i64) as usize;
        }
        score
    }
}

/// Runs the checks over the input (LLVM `FileCheck::checkInput` and friends).
pub struct Checker<'a> {
    pub sm: &'a mut SourceMgr,
    pub input: usize,
    pub opts: &'a Options,
    pub ctx: Context,
    /// Diagnostics for the input dump (None when the dump is disabled).
    pub diags: Option<Vec<DiagRec>>,
}

impl Checker<'_> {
    fn input_text(&self) -> &[u8] {
        self.sm.text(self.input)
    }

    fn iloc(&self, off: usize) -> Loc {
        Loc {
            buf: self.input,
            off,
        }
    }

    fn add_diag(
        &mut self,
        ty: CheckType,
        check_loc: Loc,
        match_ty: MatchTy,
        start: usize,
        end: usize,
        note: String,
    ) {
        if let Some(d) = &mut self.diags {
            d.push(DiagRec {
                ty,
                check_loc,
                match_ty,
                start,
                end,
                note,
            });
        }
    }

    /// Matches `pat` in the input region `[start, end)`; positions are absolute.
    fn match_pat(
        &mut self,
        pat: &Pattern,
        start: usize,
        end: usize,
    ) -> Result<(Match, Captures), MatchError> {
        let text = self.sm.text(self.input);
        let hay = &text[start..end];
        let (m, caps) = pat.find_in(hay, &mut self.ctx)?;
        let caps = caps
            .into_iter()
            .map(|(n, s, e)| (n, s + start, e + start))
            .collect();
        Ok((
            Match {
                pos: m.pos + start,
                len: m.len,
            },
            caps,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn print_match(
        &mut self,
        expected: bool,
        prefix: &str,
        pat: &Pattern,
        count_index: usize,
        m: Match,
        caps: &[(String, usize, usize)],
    ) -> bool {
        let has_error = !expected;
        if !has_error {
            if !self.opts.verbose {
                return false;
            }
            if !self.opts.very_verbose && pat.ty.kind == Kind::Eof {
                return false;
            }
        }
        let print_diag = has_error || self.diags.is_none();
        let match_ty = if expected {
            MatchTy::FoundAndExpected
        } else {
            MatchTy::FoundButExcluded
        };
        self.add_diag(
            pat.ty,
            pat.loc,
            match_ty,
            m.pos,
            m.pos + m.len,
            String::new(),
        );
        let notes = pat.subst_notes(&self.ctx);
        if self.diags.is_some() {
            for n in &notes {
                self.add_diag(pat.ty, pat.loc, match_ty, m.pos, m.pos, n.clone());
            }
            let mut sorted = caps.to_vec();
            sorted.sort_by_key(|c| c.1);
            for (name, s, e) in &sorted {
                self.add_diag(
                    pat.ty,
                    pat.loc,
                    match_ty,
                    *s,
                    *e,
                    format!("captured var \"{name}\""),
                );
            }
        }
        if !print_diag {
            return has_error;
        }
        let mut msg = format!(
            "{}: {} string found in input",
            pat.ty.description(prefix),
            if expected { "expected" } else { "excluded" }
        );
        if pat.ty.count > 1 {
            msg.push_str(&format!(" ({} out of {})", count_index, pat.ty.count));
        }
        self.sm.print(
            pat.loc,
            if expected {
                DiagKind::Remark
            } else {
                DiagKind::Error
            },
            &msg,
            &[],
        );
        let il = self.iloc(m.pos);
        self.sm
            .print(il, DiagKind::Note, "found here", &[(m.pos, m.pos + m.len)]);
        for n in &notes {
            let il = self.iloc(m.pos);
            self.sm.print(il, DiagKind::Note, n, &[]);
        }
        let mut sorted = caps.to_vec();
        sorted.sort_by_key(|c| c.1);
        for (name, s, e) in &sorted {
            let il = self.iloc(*s);
            self.sm.print(
                il,
                DiagKind::Note,
                &format!("captured var \"{name}\""),
                &[(*s, *e)],
            );
        }
        has_error
    }

    #[allow(clippy::too_many_arguments)]
    fn print_no_match(
        &mut self,
        expected: bool,
        prefix: &str,
        pat: &Pattern,
        count_index: usize,
        start: usize,
        end: usize,
        err: MatchError,
    ) -> bool {
        let mut has_error = expected;
        let mut pattern_errors = Vec::new();
        let mut match_ty = if expected {
            MatchTy::NoneButExpected
        } else {
            MatchTy::NoneAndExcluded
        };
        if let MatchError::Diags(d) = err {
            has_error = true;
            match_ty = MatchTy::NoneForInvalidPattern;
            for (loc, msg) in d {
                self.sm.print(loc, DiagKind::Error, &msg, &[]);
                pattern_errors.push(msg);
            }
        }
        let mut print_diag = true;
        if !has_error {
            if !self.opts.very_verbose {
                return false;
            }
            print_diag = self.diags.is_none();
        }
        self.add_diag(pat.ty, pat.loc, match_ty, start, end, String::new());
        if self.diags.is_some() {
            for m in &pattern_errors {
                self.add_diag(pat.ty, pat.loc, match_ty, start, start, m.clone());
            }
            for n in pat.subst_notes(&self.ctx) {
                self.add_diag(pat.ty, pat.loc, match_ty, start, start, n);
            }
        }
        if !print_diag {
            return has_error;
        }
        // The "not found" message is implied by a pattern error already printed.
        if pattern_errors.is_empty() {
            let mut msg = format!(
                "{}: {} string not found in input",
                pat.ty.description(prefix),
                if expected { "expected" } else { "excluded" }
            );
            if pat.ty.count > 1 {
                msg.push_str(&format!(" ({} out of {})", count_index, pat.ty.count));
            }
            let kind = if expected {
                DiagKind::Error
            } else {
                DiagKind::Remark
            };
            self.sm.print(pat.loc, kind, &msg, &[]);
            let il = self.iloc(start);
            self.sm.print(il, DiagKind::Note, "scanning from here", &[]);
        }
        for n in pat.subst_notes(&self.ctx) {
            let il = self.iloc(start);
            self.sm.print(il, DiagKind::Note, &n, &[]);
        }
        if expected {
            self.print_fuzzy(pat, start, end);
        }
        has_error
    }

    /// "possible intended match here" (LLVM `Pattern::printFuzzyMatch`).
    fn print_fuzzy(&mut self, pat: &Pattern, start: usize, end: usize) {
        let text = self.input_text();
        let buf = &text[start..end];
        let example = pat.example();
        // LLVM gives up on the search when the pattern and the searched text are both long
        // (a quadratic comparison at each of up to 4096 positions); do the same so that the
        // same note appears, and so that a long failing line is reported at once.
        if 4096 * 2048 < buf.len().min(4096) * example.len() {
            return;
        }
        let mut lines_forward = 0usize;
        let mut best: Option<usize> = None;
        let mut best_quality = 0f64;
        let bits = BitEditDistance::new(example);
        for i in 0..buf.len().min(4096) {
            if buf[i] == b'\n' {
                lines_forward += 1;
            }
            if buf[i] == b' ' || buf[i] == b'\t' {
                continue;
            }
            let prefix = &buf[i..(i + example.len()).min(buf.len())];
            let prefix = match prefix.iter().position(|&b| b == b'\n') {
                Some(n) => &prefix[..n],
                None => prefix,
            };
            // Only a distance that can beat the best quality so far is worth computing
            // exactly; the bound errs on the generous side and the comparison below is the
            // one LLVM makes.
            let bound = match best {
                None => usize::MAX / 2,
                Some(_) => (best_quality - lines_forward as f64 / 100.0).max(0.0) as usize + 1,
            };
            // A narrow band is cheaper than the word-parallel table; both are exact.
            let distance = if bound.saturating_mul(2) < bits.blocks * 16 {
                bounded_edit_distance(prefix, example, bound)
            } else {
                bits.distance(prefix)
            };
            let quality = distance as f64 + lines_forward as f64 / 100.0;
            if best.is_none() || quality < best_quality {
                best = Some(i);
                best_quality = quality;
            }
        }
        if let Some(b) = best {
            if b != 0 && best_quality < 50.0 {
                self.add_diag(
                    pat.ty,
                    pat.loc,
                    MatchTy::Fuzzy,
                    start + b,
                    start + b,
                    String::new(),
                );
                let il = self.iloc(start + b);
                self.sm
                    .print(il, DiagKind::Note, "possible intended match here", &[]);
            }
        }
    }

    /// Reports a match attempt; returns true when it is an error.
    #[allow(clippy::too_many_arguments)]
    fn report(
        &mut self,
        expected: bool,
        prefix: &str,
        pat: &Pattern,
        count_index: usize,
        start: usize,
        end: usize,
        res: Result<(Match, Captures), MatchError>,
    ) -> bool {
        match res {
            Ok((m, caps)) => self.print_match(expected, prefix, pat, count_index, m, &caps),
            Err(e) => self.print_no_match(expected, prefix, pat, count_index, start, end, e),
        }
    }

    fn count_newlines(&self, start: usize, end: usize) -> (usize, usize) {
        let t = &self.input_text()[start..end];
        let mut n = 0;
        let mut first = 0;
        let mut i = 0;
        while i < t.len() {
            if t[i] == b'\n' || t[i] == b'\r' {
                n += 1;
                if i + 1 < t.len() && (t[i + 1] == b'\n' || t[i + 1] == b'\r') && t[i] != t[i + 1] {
                    i += 1;
                }
                i += 1;
                if n == 1 {
                    first = start + i;
                }
                continue;
            }
            i += 1;
        }
        (n, first)
    }

    fn check_next(&mut self, cs: &CheckString, start: usize, end: usize) -> bool {
        if !matches!(cs.pat.ty.kind, Kind::Next | Kind::Empty) {
            return false;
        }
        let name = format!(
            "{}{}",
            cs.prefix,
            if cs.pat.ty.kind == Kind::Empty {
                "-EMPTY"
            } else {
                "-NEXT"
            }
        );
        let (n, first) = self.count_newlines(start, end);
        if n == 0 {
            self.sm.print(
                cs.loc,
                DiagKind::Error,
                &format!("{name}: is on the same line as previous match"),
                &[],
            );
            let l = self.iloc(end);
            self.sm
                .print(l, DiagKind::Note, "'next' match was here", &[]);
            let l = self.iloc(start);
            self.sm
                .print(l, DiagKind::Note, "previous match ended here", &[]);
            return true;
        }
        if n != 1 {
            self.sm.print(
                cs.loc,
                DiagKind::Error,
                &format!("{name}: is not on the line after the previous match"),
                &[],
            );
            let l = self.iloc(end);
            self.sm
                .print(l, DiagKind::Note, "'next' match was here", &[]);
            let l = self.iloc(start);
            self.sm
                .print(l, DiagKind::Note, "previous match ended here", &[]);
            let l = self.iloc(first);
            self.sm.print(
                l,
                DiagKind::Note,
                "non-matching line after previous match is here",
                &[],
            );
            return true;
        }
        false
    }

    fn check_same(&mut self, cs: &CheckString, start: usize, end: usize) -> bool {
        if cs.pat.ty.kind != Kind::Same {
            return false;
        }
        let (n, _) = self.count_newlines(start, end);
        if n != 0 {
            self.sm.print(
                cs.loc,
                DiagKind::Error,
                &format!(
                    "{}-SAME: is not on the same line as the previous match",
                    cs.prefix
                ),
                &[],
            );
            let l = self.iloc(end);
            self.sm
                .print(l, DiagKind::Note, "'next' match was here", &[]);
            let l = self.iloc(start);
            self.sm
                .print(l, DiagKind::Note, "previous match ended here", &[]);
            return true;
        }
        false
    }

    fn check_not(&mut self, nots: &[&DagNot], start: usize, end: usize) -> bool {
        let mut failed = false;
        for d in nots {
            let res = self.match_pat(&d.pat, start, end);
            if self.report(false, &d.prefix, &d.pat, 1, start, end, res) {
                failed = true;
            }
        }
        failed
    }

    /// Matches the CHECK-DAG groups (with interleaved CHECK-NOTs) of `cs` in `[start, end)`.
    /// Returns the position after the last DAG group, and the pending CHECK-NOTs.
    fn check_dag<'c>(
        &mut self,
        cs: &'c CheckString,
        start: usize,
        end: usize,
    ) -> Option<(usize, Vec<&'c DagNot>)> {
        let mut nots: Vec<&DagNot> = Vec::new();
        if cs.dag_not.is_empty() {
            return Some((start, nots));
        }
        let mut start_pos = start;
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (k, d) in cs.dag_not.iter().enumerate() {
            if d.pat.ty.kind == Kind::Not {
                nots.push(d);
                continue;
            }
            let mut match_pos = start_pos;
            let mut idx = 0usize;
            let vv = self.opts.very_verbose;
            let found;
            loop {
                let res = self.match_pat(&d.pat, match_pos, end);
                let (m, caps) = match res {
                    Ok(x) => x,
                    Err(e) => {
                        self.print_no_match(true, &d.prefix, &d.pat, 1, match_pos, end, e);
                        return None;
                    }
                };
                if vv {
                    self.print_match(true, &d.prefix, &d.pat, 1, m, &caps);
                }
                let mr = (m.pos, m.pos + m.len);
                if self.opts.allow_deprecated_dag_overlap {
                    if ranges.is_empty() {
                        ranges.push(mr);
                    } else {
                        ranges[0].0 = ranges[0].0.min(mr.0);
                        ranges[0].1 = ranges[0].1.max(mr.1);
                    }
                    found = (m, caps);
                    break;
                }
                let mut overlap = false;
                while idx < ranges.len() {
                    if mr.0 < ranges[idx].1 {
                        overlap = ranges[idx].0 < mr.1;
                        break;
                    }
                    idx += 1;
                }
                if !overlap {
                    ranges.insert(idx, mr);
                    found = (m, caps);
                    break;
                }
                if vv {
                    if let Some(diags) = &mut self.diags {
                        let loc = diags.last().map(|r| r.check_loc);
                        for r in diags.iter_mut().rev() {
                            if Some(r.check_loc) != loc {
                                break;
                            }
                            r.match_ty = MatchTy::FoundButDiscarded;
                        }
                    } else {
                        let (os, oe) = ranges[idx];
                        let l = self.iloc(os);
                        self.sm.print(
                            l,
                            DiagKind::Note,
                            "match discarded, overlaps earlier DAG match here",
                            &[(os, oe)],
                        );
                    }
                }
                match_pos = ranges[idx].1;
                idx += 1;
            }
            if !vv {
                self.print_match(true, &d.prefix, &d.pat, 1, found.0, &found.1);
            }
            let group_end = k + 1 == cs.dag_not.len() || cs.dag_not[k + 1].pat.ty.kind == Kind::Not;
            if group_end {
                if !nots.is_empty() {
                    let first = ranges.first().map_or(start_pos, |r| r.0);
                    if self.check_not(&nots, start_pos, first) {
                        return None;
                    }
                    nots.clear();
                }
                start_pos = ranges.last().map_or(start_pos, |r| r.1);
                ranges.clear();
            }
        }
        Some((start_pos, nots))
    }

    /// Checks one directive in `[start, end)` (LLVM `FileCheckString::Check`); returns the
    /// absolute match position and the length from it to the end of the last repetition.
    fn check_string(
        &mut self,
        cs: &CheckString,
        start: usize,
        end: usize,
        label_scan: bool,
    ) -> Option<(usize, usize)> {
        let mut last_pos = start;
        let mut nots = Vec::new();
        if !label_scan {
            let (p, n) = self.check_dag(cs, start, end)?;
            last_pos = p;
            nots = n;
        }
        let mut last_end = last_pos;
        let mut first_pos = 0;
        for i in 1..=cs.pat.ty.count {
            let res = self.match_pat(&cs.pat, last_end, end);
            let res_copy = match &res {
                Ok((m, _)) => Some(*m),
                Err(_) => None,
            };
            if self.report(true, &cs.prefix, &cs.pat, i, last_end, end, res) {
                return None;
            }
            let m = res_copy.expect("match");
            if i == 1 {
                first_pos = m.pos;
            }
            last_end = m.pos + m.len;
        }
        let len = last_end - first_pos;
        if !label_scan {
            if self.check_next(cs, last_pos, first_pos) || self.check_same(cs, last_pos, first_pos)
            {
                let ty = cs.pat.ty;
                if self.opts.verbose && self.diags.is_some() {
                    if let Some(d) = &mut self.diags {
                        for r in d.iter_mut().rev() {
                            if r.check_loc != cs.pat.loc {
                                break;
                            }
                            r.match_ty = MatchTy::FoundButWrongLine;
                        }
                    }
                } else {
                    self.add_diag(
                        ty,
                        cs.pat.loc,
                        MatchTy::FoundButWrongLine,
                        first_pos,
                        first_pos + len,
                        String::new(),
                    );
                }
                return None;
            }
            if self.check_not(&nots, last_pos, first_pos) {
                return None;
            }
        }
        Some((first_pos, len))
    }

    /// Runs all checks over the whole input; true on success.
    pub fn check_input(&mut self, checks: &[CheckString]) -> bool {
        let mut failed = false;
        let (mut i, mut j) = (0usize, 0usize);
        let e = checks.len();
        let mut buf_start = 0usize;
        let buf_end = self.input_text().len();
        loop {
            let (mut region_start, region_end);
            if j == e {
                region_start = buf_start;
                region_end = buf_end;
            } else {
                let label = &checks[j];
                if label.pat.ty.kind != Kind::Label {
                    j += 1;
                    continue;
                }
                let Some((pos, len)) = self.check_string(label, buf_start, buf_end, true) else {
                    return false;
                };
                region_start = buf_start;
                region_end = pos + len;
                buf_start = pos + len;
                j += 1;
            }
            if self.opts.enable_var_scope {
                self.ctx.clear_local();
            }
            while i != j {
                match self.check_string(&checks[i], region_start, region_end, false) {
                    Some((pos, len)) => region_start = pos + len,
                    None => {
                        failed = true;
                        i = j;
                        break;
                    }
                }
                i += 1;
            }
            if j == e {
                break;
            }
        }
        !failed
    }
}

#[cfg(test)]
mod distance_tests {
    use super::{bounded_edit_distance, BitEditDistance};

    /// The textbook full-table Levenshtein distance, as the reference.
    fn reference(a: &[u8], b: &[u8]) -> usize {
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for i in 1..=a.len() {
            let mut cur = vec![i; b.len() + 1];
            for j in 1..=b.len() {
                let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
                cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
            }
            prev = cur;
        }
        prev[b.len()]
    }

    /// Strings over a small alphabet (so that they share letters), of every length class that
    /// matters to the word-parallel form: empty, within one word, exactly 64, several words.
    fn samples() -> Vec<Vec<u8>> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut out = Vec::new();
        for len in [0, 1, 2, 5, 63, 64, 65, 127, 128, 129, 200] {
            for _ in 0..3 {
                out.push((0..len).map(|_| b"abcd"[(next() % 4) as usize]).collect());
            }
        }
        out
    }

    #[test]
    fn word_parallel_distance_is_exact() {
        let all = samples();
        for a in &all {
            let bits = BitEditDistance::new(a);
            for b in &all {
                assert_eq!(bits.distance(b), reference(a, b), "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn banded_distance_is_exact_within_its_bound() {
        let all = samples();
        for a in &all {
            for b in &all {
                let d = reference(a, b);
                for bound in [0, 1, 3, 10, 64, 500] {
                    let got = bounded_edit_distance(a, b, bound);
                    if d <= bound {
                        assert_eq!(got, d, "{a:?} vs {b:?} within {bound}");
                    } else {
                        assert!(got > bound, "{a:?} vs {b:?}: {got} not above {bound}");
                    }
                }
            }
        }
    }
}
