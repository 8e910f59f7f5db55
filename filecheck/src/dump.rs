//! The annotated input dump FileCheck prints on failure (`--dump-input=fail`, the default), in
//! LLVM's layout: numbered input lines, each followed by markers for the directives that
//! matched (`^~~`), failed (`X~~`, `!~~`) or nearly matched (`?`) there.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::checker::{DiagRec, MatchTy};
use crate::pattern::Kind;
use crate::source::{Loc, SourceMgr};
use crate::DumpInputFilter;

struct Annotation {
    diag_index: usize,
    label: String,
    line: usize,
    start_col: usize,
    end_col: usize,
    lead: char,
    note: String,
    first_line: bool,
    filters_as_error: bool,
    /// ANSI colour number of the marker (LLVM's per-match-type colour).
    color: u8,
    /// Part of a good match for an expected pattern (left unhighlighted under `-v -color`).
    found_expected: bool,
}

const BLACK: u8 = 0;
const RED: u8 = 1;
const GREEN: u8 = 2;
const MAGENTA: u8 = 5;
const CYAN: u8 = 6;

/// The escape sequence LLVM's `raw_ostream::changeColor` writes for a bold colour.
fn bold(color: u8) -> String {
    format!("\x1b[0;1;3{color}m")
}

const RESET: &str = "\x1b[0m";

fn abbreviation(d: &DiagRec) -> String {
    let base = match d.ty.kind {
        Kind::Plain if d.ty.count > 1 => "count",
        Kind::Plain => "check",
        Kind::Next => "next",
        Kind::Same => "same",
        Kind::Not => "not",
        Kind::Dag => "dag",
        Kind::Label => "label",
        Kind::Empty => "empty",
        Kind::Eof => "eof",
    };
    base.to_string()
}

fn marker(t: MatchTy) -> (char, &'static str, bool, u8) {
    match t {
        MatchTy::FoundAndExpected => ('^', "", false, GREEN),
        MatchTy::FoundButExcluded => ('!', "error: no match expected", true, RED),
        MatchTy::FoundButWrongLine => ('!', "error: match on wrong line", true, RED),
        MatchTy::FoundButDiscarded => ('!', "discard: overlaps earlier match", false, CYAN),
        MatchTy::NoneAndExcluded => ('X', "", false, GREEN),
        MatchTy::NoneButExpected => ('X', "error: no match found", true, RED),
        MatchTy::NoneForInvalidPattern => {
            ('X', "error: match failed for invalid pattern", true, RED)
        }
        MatchTy::Fuzzy => ('?', "possible intended match", true, MAGENTA),
    }
}

/// Line and column (1-based) of `off` in `text`, as LLVM's `SourceMgr::getLineAndColumn`.
fn line_col(text: &[u8], newlines: &[usize], off: usize) -> (usize, usize) {
    let off = off.min(text.len());
    let k = newlines.partition_point(|&n| n < off);
    let line = k + 1;
    let line_start = if k == 0 { 0 } else { newlines[k - 1] + 1 };
    // LLVM measures the column from the last `\n` or `\r`.
    let col = match text[line_start..off].iter().rposition(|&b| b == b'\r') {
        Some(p) => off - (line_start + p),
        None => off - line_start + 1,
    };
    (line, col)
}

/// How the dump is laid out and coloured.
pub struct Style {
    pub filter: DumpInputFilter,
    pub context: usize,
    /// ANSI colours (`-color`), in LLVM's scheme.
    pub color: bool,
    /// `-v`: with colours, input outside good matches is highlighted.
    pub verbose: bool,
}

/// Renders the dump (everything from `Input was:` to `>>>>>>`).
pub fn render(
    sm: &SourceMgr,
    check_buf: usize,
    implicit_bufs: &[usize],
    input: &[u8],
    diags: &[DiagRec],
    style: &Style,
) -> String {
    let (filter, context, color) = (style.filter, style.context, style.color);
    let mut per_pattern: HashMap<Loc, usize> = HashMap::new();
    for d in diags {
        *per_pattern.entry(d.check_loc).or_default() += 1;
    }
    let mut seen: HashMap<Loc, usize> = HashMap::new();
    let mut anns: Vec<Annotation> = Vec::new();
    let newlines: Vec<usize> = input
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(i, _)| i)
        .collect();
    let mut label_width = 0;
    for (index, d) in diags.iter().enumerate() {
        let mut label = format!("{}:", abbreviation(d));
        if d.check_loc.buf == check_buf {
            label.push_str(&sm.line_of(d.check_loc).to_string());
        } else if let Some(k) = implicit_bufs.iter().position(|&b| b == d.check_loc.buf) {
            label.push_str(&format!("imp{}", k + 1));
        }
        if per_pattern[&d.check_loc] > 1 {
            let n = seen.entry(d.check_loc).or_default();
            label.push_str(&format!("'{n}"));
            *n += 1;
        }
        label_width = label_width.max(label.len());
        let (mut lead, default_note, filters_as_error, marker_color) = marker(d.match_ty);
        let found_expected = d.match_ty == MatchTy::FoundAndExpected;
        let (sl, sc) = line_col(input, &newlines, d.start);
        let (el, ec) = line_col(input, &newlines, d.end);
        let mut note = default_note.to_string();
        if !d.note.is_empty() {
            note = d.note.clone();
            if sl == el && sc == ec {
                lead = ' ';
            }
        }
        let a = Annotation {
            diag_index: index,
            label: label.clone(),
            line: sl,
            start_col: sc,
            end_col: if sl == el {
                (sc + 1).max(ec)
            } else {
                usize::MAX
            },
            lead,
            note,
            first_line: true,
            filters_as_error,
            color: marker_color,
            found_expected,
        };
        anns.push(a);
        if sl != el {
            for l in sl + 1..=el {
                if ec == 1 && l == el {
                    break;
                }
                anns.push(Annotation {
                    diag_index: index,
                    label: label.clone(),
                    line: l,
                    start_col: 1,
                    end_col: if l != el { usize::MAX } else { ec },
                    lead: '~',
                    note: String::new(),
                    first_line: false,
                    filters_as_error,
                    color: marker_color,
                    found_expected,
                });
            }
        }
    }
    anns.sort_by(|a, b| a.line.cmp(&b.line).then(a.diag_index.cmp(&b.diag_index)));

    let mut out = String::from("Input was:\n<<<<<<\n");
    if color {
        // LLVM asks whether colours are on by opening (and closing) a bold span here.
        out.push_str("\x1b[1m");
        out.push_str(RESET);
    }
    let mut line_count = input.iter().filter(|&&b| b == b'\n').count();
    if input.last().is_some_and(|&b| b != b'\n') {
        line_count += 1;
    }
    let line_no_width = line_count.max(1).to_string().len();
    let width = label_width.max(line_no_width) + 3;

    let find_in_filter = |line: usize, from: usize| -> usize {
        if filter == DumpInputFilter::All {
            return line;
        }
        for a in &anns[from..] {
            match filter {
                DumpInputFilter::AnnotationFull => return a.line,
                DumpInputFilter::Annotation if a.first_line => return a.line,
                DumpInputFilter::Error if a.first_line && a.filters_as_error => return a.line,
                _ => {}
            }
        }
        usize::MAX
    };

    let mut pos = 0usize;
    let mut ai = 0usize;
    let mut prev_in_filter = 0usize;
    let mut next_in_filter = 0usize;
    let mut elided = String::new();
    let mut line = 1usize;
    while pos < input.len() || ai < anns.len() {
        if next_in_filter < line {
            next_in_filter = find_in_filter(line, ai);
        }
        if next_in_filter == line {
            prev_in_filter = line;
        }
        let elide = (prev_in_filter == 0 || prev_in_filter + context < line)
            && (next_in_filter == usize::MAX || line + context < next_in_filter);
        let mut buf = String::new();
        if !elide {
            flush_elided(&mut out, &mut elided, width, color);
        }
        if color {
            buf.push_str(&bold(BLACK));
        }
        let _ = write!(buf, "{line:>width$}: ");
        if color {
            buf.push_str(RESET);
        }
        let line_start = pos;
        let content_end = input[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(input.len(), |k| pos + k);
        let has_newline = content_end < input.len();
        // Columns covered by good matches of expected patterns on this line (only shown,
        // by leaving them unhighlighted, with `-v` and colours).
        let good: Vec<(usize, usize)> = if color && style.verbose {
            anns[ai..]
                .iter()
                .take_while(|a| a.line == line)
                .filter(|a| a.found_expected)
                .map(|a| (a.start_col, a.end_col))
                .collect()
        } else {
            Vec::new()
        };
        if color {
            buf.push_str("\x1b[1m");
            if style.verbose {
                buf.push_str("\x1b[0;1;46m");
            }
        }
        let mut text: Vec<u8> = input[line_start..content_end].to_vec();
        if has_newline {
            text.push(b' ');
        }
        if good.is_empty() {
            buf.push_str(&String::from_utf8_lossy(&text));
        } else {
            let mut in_match = false;
            let mut bytes = Vec::new();
            for (k, &b) in text.iter().enumerate() {
                let col = k + 1;
                let was = in_match;
                in_match = good.iter().any(|&(s, e)| s <= col && col < e);
                if !was && in_match {
                    bytes.extend_from_slice(RESET.as_bytes());
                } else if was && !in_match {
                    bytes.extend_from_slice(b"\x1b[0;1;46m");
                }
                bytes.push(b);
            }
            buf.push_str(&String::from_utf8_lossy(&bytes));
        }
        if color {
            buf.push_str(RESET);
        }
        pos = content_end;
        if has_newline {
            pos += 1;
        }
        buf.push('\n');
        let input_width = pos - line_start;
        while ai < anns.len() && anns[ai].line == line {
            let a = &anns[ai];
            if color {
                buf.push_str(&bold(a.color));
            }
            let _ = write!(buf, "{:<width$}  ", a.label);
            let mut col = 1;
            while col < a.start_col {
                buf.push(' ');
                col += 1;
            }
            buf.push(a.lead);
            col += 1;
            while col < a.end_col && col <= input_width {
                buf.push('~');
                col += 1;
            }
            if !a.note.is_empty() {
                while col <= input_width {
                    buf.push(' ');
                    col += 1;
                }
                buf.push(' ');
                buf.push_str(&a.note);
            }
            buf.push('\n');
            if color {
                buf.push_str(RESET);
            }
            ai += 1;
        }
        if elide {
            elided.push_str(&buf);
        } else {
            out.push_str(&buf);
        }
        line += 1;
    }
    flush_elided(&mut out, &mut elided, width, color);
    out.push_str(">>>>>>\n");
    out
}

fn flush_elided(out: &mut String, elided: &mut String, width: usize, color: bool) {
    if elided.is_empty() {
        return;
    }
    if elided.matches('\n').count() > 3 {
        for _ in 0..3 {
            if color {
                let _ = writeln!(out, "{}{:>width$}{RESET}", bold(BLACK), ".");
            } else {
                let _ = writeln!(out, "{:>width$}", ".");
            }
        }
    } else {
        out.push_str(elided);
    }
    elided.clear();
}
