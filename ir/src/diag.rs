//! Diagnostics: what the parser, verifier and passes report, and how it is rendered.
//!
//! A [`Diagnostic`] points at a byte span of the source it came from (or, for IR built by passes,
//! at an op whose location may be resolved to a span later). Rendering goes through `miette`, so
//! every report shows the source line, a label under the span, notes and help.

use crate::context::OpId;
use std::fmt;

/// A byte range in a source buffer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    /// A span covering `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    /// An empty span at `pos` (the renderer widens it to one column).
    pub fn at(pos: usize) -> Span {
        Span {
            start: pos,
            end: pos,
        }
    }
}

/// How bad it is; mirrors MLIR's severities (and `expected-*` in `--verify-diagnostics`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord, Hash)]
pub enum Severity {
    Remark,
    Note,
    Warning,
    Error,
}

impl Severity {
    /// The word MLIR prints and `expected-<word>` uses.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Remark => "remark",
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Where a diagnostic points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DiagLoc {
    /// A byte span of the source being parsed.
    Span(Span),
    /// An op; resolved through the parse's source map or the op's location attribute.
    Op(OpId),
    /// One attribute of an op (its span when the parser recorded it, else the op's).
    OpAttr(OpId, &'static str),
    /// Nowhere in particular (e.g. a command-line problem).
    Unknown,
}

/// A note attached to a diagnostic, optionally pointing somewhere else.
#[derive(Clone, Debug)]
pub struct Note {
    pub message: String,
    pub loc: DiagLoc,
}

/// One reported problem.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub loc: DiagLoc,
    /// Text under the span (defaults to a short form of the message).
    pub label: Option<String>,
    pub notes: Vec<Note>,
    pub help: Option<String>,
    /// The file that `loc`'s span (and the notes' spans) point into when it is not the IR
    /// being processed: a pass's rule or cost file. Renderers show that file's line instead.
    pub file: Option<std::sync::Arc<OtherFile>>,
}

/// A file other than the input IR that a diagnostic points into (see [`Diagnostic::file`]);
/// shared, so that cloning a diagnostic does not copy the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtherFile {
    pub name: String,
    pub text: String,
}

impl Diagnostic {
    /// An error at a location.
    pub fn error(loc: DiagLoc, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            loc,
            label: None,
            notes: Vec::new(),
            help: None,
            file: None,
        }
    }
    /// An error at a source span.
    pub fn at(span: Span, message: impl Into<String>) -> Diagnostic {
        Self::error(DiagLoc::Span(span), message)
    }
    /// An error about an op.
    pub fn op(op: OpId, message: impl Into<String>) -> Diagnostic {
        Self::error(DiagLoc::Op(op), message)
    }
    /// Sets the severity.
    pub fn with_severity(mut self, s: Severity) -> Diagnostic {
        self.severity = s;
        self
    }
    /// Sets the label shown under the span.
    pub fn with_label(mut self, l: impl Into<String>) -> Diagnostic {
        self.label = Some(l.into());
        self
    }
    /// Adds a note.
    pub fn with_note(mut self, loc: DiagLoc, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Note {
            message: message.into(),
            loc,
        });
        self
    }
    /// Sets the help line.
    pub fn with_help(mut self, h: impl Into<String>) -> Diagnostic {
        self.help = Some(h.into());
        self
    }
    /// Makes the spans point into `name` (with contents `text`) rather than the input IR: a
    /// problem in a file a pass read, shown at its own line and column.
    pub fn in_file(mut self, name: impl Into<String>, text: impl Into<String>) -> Diagnostic {
        self.file = Some(std::sync::Arc::new(OtherFile {
            name: name.into(),
            text: text.into(),
        }));
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity.word(), self.message)
    }
}

/// Line starts of a buffer, for offset → (line, column) and back.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    /// Indexes a buffer.
    pub fn new(src: &str) -> LineIndex {
        let mut starts = vec![0];
        for (i, b) in src.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i + 1);
            }
        }
        LineIndex {
            starts,
            len: src.len(),
        }
    }
    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        ((line + 1) as u32, (offset - self.starts[line] + 1) as u32)
    }
    /// Byte offset of a 1-based line and column, if inside the buffer.
    pub fn offset(&self, line: u32, col: u32) -> Option<usize> {
        let start = *self.starts.get((line as usize).checked_sub(1)?)?;
        let off = start + (col.max(1) as usize - 1);
        (off <= self.len).then_some(off)
    }
    /// Number of lines.
    pub fn num_lines(&self) -> usize {
        self.starts.len()
    }
    /// Byte range of a 1-based line, without its newline.
    pub fn line_range(&self, line: u32) -> Option<(usize, usize)> {
        let i = (line as usize).checked_sub(1)?;
        let s = *self.starts.get(i)?;
        let e = self.starts.get(i + 1).map(|e| e - 1).unwrap_or(self.len);
        Some((s, e))
    }
}
