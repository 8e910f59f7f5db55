//! Rendering diagnostics against their source with `miette`, or MLIR-style one-liners.
//!
//! A diagnostic about an op is resolved to a span through the parse's [`SourceMap`]; ops made by
//! passes fall back to their `loc("file":line:col)` when it names this file.

use crate::attrs::{AttrKind, Location};
use crate::context::Context;
use crate::diag::{DiagLoc, Diagnostic, LineIndex, Severity, Span};
use crate::syntax::parser::SourceMap;
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use std::fmt;

/// A source buffer with its name, as diagnostics need it.
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Built on first use: most runs report nothing, and indexing a large file's lines costs
    /// as much as a tenth of parsing it.
    lines: std::cell::OnceCell<LineIndex>,
}

impl SourceFile {
    /// Wraps a buffer.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
            lines: std::cell::OnceCell::new(),
        }
    }

    /// The buffer's line index, for turning offsets into lines and columns and back.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }
}

/// Where a diagnostic location lands in the source, if anywhere.
pub fn resolve_span(
    ctx: Option<&Context>,
    map: Option<&SourceMap>,
    file: &SourceFile,
    loc: DiagLoc,
) -> Option<Span> {
    match loc {
        DiagLoc::Span(s) => Some(s),
        DiagLoc::Unknown => None,
        DiagLoc::OpAttr(op, name) => {
            if let Some(s) = map.and_then(|m| m.op_attr(op, name)) {
                return Some(s);
            }
            resolve_span(ctx, map, file, DiagLoc::Op(op))
        }
        DiagLoc::Op(op) => {
            if let Some(s) = map.and_then(|m| m.op_name(op)) {
                return Some(s);
            }
            let ctx = ctx?;
            let mut l = ctx.op(op).loc;
            // Look through names and fusions for a file position in this buffer.
            for _ in 0..8 {
                match ctx.attr_kind(l) {
                    AttrKind::Loc(Location::File {
                        file: f, line, col, ..
                    }) if matches!(ctx.attr_kind(*f), AttrKind::String { value, .. } if *value == file.name.as_bytes()) =>
                    {
                        let off = file.lines().offset(*line, *col)?;
                        return Some(Span::new(off, off));
                    }
                    AttrKind::Loc(Location::Name { child: Some(c), .. }) => l = *c,
                    AttrKind::Loc(Location::Fused { locs, .. }) if !locs.is_empty() => l = locs[0],
                    AttrKind::Loc(Location::CallSite { callee, .. }) => l = *callee,
                    _ => return None,
                }
            }
            None
        }
    }
}

#[derive(Debug)]
struct Report {
    message: String,
    severity: Severity,
    src: Option<Window>,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    related: Vec<Report>,
}

/// The few source lines around one span, cut out of the file so that rendering a diagnostic
/// costs the size of its neighbourhood rather than of the file (miette scans a source from its
/// start on every read), and clipped around the span so that no column miette formats is wide
/// (its graphical handler pads with `{:width$}`, which panics past 65,535). Line and column
/// numbers are shifted back to the file's, so the header shows the exact position.
#[derive(Debug)]
struct Window {
    name: String,
    text: String,
    /// 0-based file line of the window's first line.
    first_line: usize,
    /// Window-local index of the line holding the span.
    span_line: usize,
    /// Bytes cut from the start of the span's line (added back to its columns).
    cut: usize,
}

/// Widest piece of a line a window keeps before and after the span, in bytes.
const WINDOW_MARGIN: usize = 100;

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(text: &str, mut i: usize) -> usize {
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i.min(text.len())
}

impl Window {
    /// The window around `off..off+len` and the span's offset and length inside it.
    fn around(file: &SourceFile, off: usize, len: usize) -> (Window, usize, usize) {
        let text = &file.text;
        let (line, _) = file.lines().line_col(off);
        let (ls, le) = file.lines().line_range(line).unwrap_or((off, off));
        // A span running past its line is cut at the line's end (the label stays on one line).
        let end = (off + len).min(le.max(off));
        let start_cut = if off - ls > WINDOW_MARGIN {
            floor_char(text, off - WINDOW_MARGIN / 2)
        } else {
            ls
        };
        let end_cut = ceil_char(text, (end + WINDOW_MARGIN).min(le)).max(end);
        let clip = |r: Option<(usize, usize)>| {
            r.map(|(s, e)| &text[s..floor_char(text, e.min(s + 2 * WINDOW_MARGIN))])
        };
        let prev = line.checked_sub(1).filter(|&l| l > 0);
        let mut out = String::new();
        let mut span_line = 0;
        if let Some(p) = clip(prev.and_then(|l| file.lines().line_range(l))) {
            out.push_str(p);
            out.push('\n');
            span_line = 1;
        }
        let local = out.len() + (off - start_cut);
        out.push_str(&text[start_cut..end_cut]);
        if let Some(n) = clip(file.lines().line_range(line + 1)) {
            out.push('\n');
            out.push_str(n);
        }
        let w = Window {
            name: file.name.clone(),
            text: out,
            first_line: line as usize - 1 - span_line,
            span_line,
            cut: start_cut - ls,
        };
        (w, local, end - off)
    }
}

impl miette::SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let c = self.text.read_span(span, before, after)?;
        let column = if c.line() == self.span_line && c.column() > 0 {
            c.column() + self.cut
        } else {
            c.column()
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            c.data(),
            *c.span(),
            c.line() + self.first_line,
            column,
            c.line_count(),
        )))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Note | Severity::Remark => miette::Severity::Advice,
        })
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.src.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(
                self.related.iter().map(|r| r as &dyn miette::Diagnostic),
            ))
        }
    }
}

fn widen(file: &SourceFile, s: Span) -> (usize, usize) {
    let len = if s.end > s.start {
        s.end - s.start
    } else if s.start < file.text.len() {
        file.text[s.start..]
            .chars()
            .next()
            .map(|c| c.len_utf8())
            .unwrap_or(1)
    } else {
        0
    };
    (s.start.min(file.text.len()), len)
}

/// The text under the span when none was given: the message when short, else its first clause
/// (up to a `: ` outside quotes), else "here".
fn short_label(msg: &str) -> String {
    if msg.len() <= 70 {
        return msg.to_string();
    }
    let mut in_quote = None;
    let b = msg.as_bytes();
    for i in 0..b.len() {
        match (in_quote, b[i]) {
            (None, q @ (b'\'' | b'"')) => in_quote = Some(q),
            (Some(q), c) if c == q => in_quote = None,
            (None, b':') if b.get(i + 1) == Some(&b' ') && i <= 70 => return msg[..i].to_string(),
            _ => {}
        }
    }
    "here".into()
}

/// Renders one diagnostic (with its notes) as a miette report, without colour.
pub fn render(
    ctx: Option<&Context>,
    map: Option<&SourceMap>,
    file: &SourceFile,
    d: &Diagnostic,
) -> String {
    let report = build(ctx, map, file, d);
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(400);
    let mut out = String::new();
    let _ = handler.render_report(&mut out, &report);
    out
}

fn build(
    ctx: Option<&Context>,
    map: Option<&SourceMap>,
    file: &SourceFile,
    d: &Diagnostic,
) -> Report {
    let other;
    let (ctx, map, file) = match &d.file {
        Some(f) => {
            other = SourceFile::new(f.name.clone(), f.text.clone());
            (None, None, &other)
        }
        None => (ctx, map, file),
    };
    let span = resolve_span(ctx, map, file, d.loc);
    let mut labels = Vec::new();
    let message;
    let mut src = None;
    if let Some(s) = span {
        let (line, col) = file.lines().line_col(s.start.min(file.text.len()));
        message = format!("{} ({}:{line}:{col})", d.message, file.name);
        let (off, len) = widen(file, s);
        let (window, off, len) = Window::around(file, off, len);
        src = Some(window);
        labels.push(LabeledSpan::new(
            Some(d.label.clone().unwrap_or_else(|| short_label(&d.message))),
            off,
            len,
        ));
    } else {
        message = format!("{} ({})", d.message, file.name);
    }
    let related = d
        .notes
        .iter()
        .map(|n| {
            let nd = Diagnostic {
                severity: Severity::Note,
                message: n.message.clone(),
                loc: n.loc,
                label: None,
                notes: vec![],
                help: None,
                file: d.file.clone(),
            };
            build(ctx, map, file, &nd)
        })
        .collect();
    Report {
        message,
        severity: d.severity,
        src,
        labels,
        help: d.help.clone(),
        related,
    }
}

/// MLIR's one-line form, `file:line:col: error: message`, with notes on following lines.
pub fn render_mlir_style(
    ctx: Option<&Context>,
    map: Option<&SourceMap>,
    file: &SourceFile,
    d: &Diagnostic,
) -> String {
    let other;
    let (ctx, map, file) = match &d.file {
        Some(f) => {
            other = SourceFile::new(f.name.clone(), f.text.clone());
            (None, None, &other)
        }
        None => (ctx, map, file),
    };
    let mut out = String::new();
    let one = |out: &mut String, loc: DiagLoc, sev: Severity, msg: &str| match resolve_span(
        ctx, map, file, loc,
    ) {
        Some(s) => {
            let (l, c) = file.lines().line_col(s.start);
            out.push_str(&format!("{}:{l}:{c}: {}: {msg}\n", file.name, sev.word()));
        }
        None => out.push_str(&format!("{}: {}: {msg}\n", file.name, sev.word())),
    };
    one(&mut out, d.loc, d.severity, &d.message);
    for n in &d.notes {
        one(&mut out, n.loc, Severity::Note, &n.message);
    }
    out
}

/// Writes `bytes` to `path` through a temporary file in the same folder renamed into place, so a
/// failure never leaves a partial file (and a file that is also an input is replaced only on
/// success). A device or pipe (`/dev/null`, a FIFO) is written in place: renaming over it would
/// replace it with a regular file. `tool` names the temporary file (`.NAME.TOOL-PID.tmp`).
pub fn write_file_atomically(
    path: &std::path::Path,
    bytes: &[u8],
    tool: &str,
) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind, Write};
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes));
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let fname = path
        .file_name()
        .ok_or_else(|| Error::new(ErrorKind::InvalidInput, "not a file name"))?;
    let tmp = dir.join(format!(
        ".{}.{tool}-{}.tmp",
        fname.to_string_lossy(),
        std::process::id()
    ));
    let r = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, path));
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

/// How many errors a tool prints by default before it stops and counts the rest, as LLVM's
/// `-error-limit` (a file with thousands of errors is unreadable past the first few anyway, and
/// printing them all costs more than parsing).
pub const DEFAULT_ERROR_LIMIT: usize = 100;

/// Decides which diagnostics a tool prints under an `--error-limit`: every warning, note and
/// remark, and the first `limit` errors (0: no limit); the rest are only counted, for the
/// closing line that [`ErrorLimit::summary`] gives. `--verify-diagnostics` bypasses it: it must
/// see every diagnostic.
#[derive(Clone, Debug)]
pub struct ErrorLimit {
    limit: usize,
    shown: usize,
    hidden: usize,
}

impl ErrorLimit {
    /// A limit of `limit` errors (0: unlimited).
    pub fn new(limit: usize) -> ErrorLimit {
        ErrorLimit {
            limit,
            shown: 0,
            hidden: 0,
        }
    }
    /// Whether `d` should be printed; an error past the limit is counted instead.
    pub fn admit(&mut self, d: &Diagnostic) -> bool {
        if d.severity != Severity::Error {
            return true;
        }
        if self.limit != 0 && self.shown >= self.limit {
            self.hidden += 1;
            return false;
        }
        self.shown += 1;
        true
    }
    /// The closing line when errors were held back (`None` when all were printed).
    pub fn summary(&self) -> Option<String> {
        (self.hidden > 0).then(|| {
            format!(
                "error: {} more error{} not shown (--error-limit={}; 0 shows every error)\n",
                self.hidden,
                if self.hidden == 1 { "" } else { "s" },
                self.limit
            )
        })
    }
}
