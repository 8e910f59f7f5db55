//! Source buffers and diagnostics rendered like LLVM's `SourceMgr::PrintMessage`, so that
//! editors, CI log scrapers and people used to FileCheck read our errors the same way.

use std::fmt::Write as _;

/// A position inside one of the [`SourceMgr`] buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Loc {
    /// Index of the buffer in the [`SourceMgr`].
    pub buf: usize,
    /// Byte offset in the buffer.
    pub off: usize,
}

/// Diagnostic severity, printed as LLVM prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Error,
    Note,
    Remark,
}

impl Kind {
    /// LLVM's highlight colour for the label (red errors, black notes, blue remarks).
    fn color(self) -> &'static str {
        match self {
            Kind::Error => "\x1b[0;1;31m",
            Kind::Note => "\x1b[0;1;30m",
            Kind::Remark => "\x1b[0;1;34m",
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Kind::Error => "error",
            Kind::Note => "note",
            Kind::Remark => "remark",
        }
    }
}

/// A named text buffer (the check file, the input, or a pseudo "command line" buffer).
pub struct Buffer {
    pub name: String,
    /// Shared so parsers can hold the text while printing diagnostics through the manager.
    pub text: std::rc::Rc<[u8]>,
    /// Offsets of every `\n`, for line numbers in O(log n).
    newlines: Vec<usize>,
}

/// Owns the buffers diagnostics point into and accumulates the rendered diagnostics.
#[derive(Default)]
pub struct SourceMgr {
    pub buffers: Vec<Buffer>,
    pub out: String,
    /// Write ANSI colours as LLVM's `SMDiagnostic::print` does under `-color`.
    pub color: bool,
}

impl SourceMgr {
    pub fn add(&mut self, name: &str, text: Vec<u8>) -> usize {
        let newlines = text
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .map(|(i, _)| i)
            .collect();
        self.buffers.push(Buffer {
            name: name.to_string(),
            text: text.into(),
            newlines,
        });
        self.buffers.len() - 1
    }

    pub fn text(&self, buf: usize) -> &[u8] {
        &self.buffers[buf].text
    }

    /// A shared handle on a buffer's text.
    pub fn shared(&self, buf: usize) -> std::rc::Rc<[u8]> {
        self.buffers[buf].text.clone()
    }

    /// 1-based line number of `loc` (counting `\n` only, as LLVM does).
    pub fn line_of(&self, loc: Loc) -> usize {
        let b = &self.buffers[loc.buf];
        b.newlines
            .partition_point(|&n| n < loc.off.min(b.text.len()))
            + 1
    }

    /// Prints `msg` at `loc`, highlighting `ranges` (byte offsets in the same buffer) with `~`.
    pub fn print(&mut self, loc: Loc, kind: Kind, msg: &str, ranges: &[(usize, usize)]) {
        let text = &self.buffers[loc.buf].text;
        let off = loc.off.min(text.len());
        let mut line_start = off;
        while line_start > 0 && text[line_start - 1] != b'\n' && text[line_start - 1] != b'\r' {
            line_start -= 1;
        }
        let mut line_end = off;
        while line_end < text.len() && text[line_end] != b'\n' && text[line_end] != b'\r' {
            line_end += 1;
        }
        let line_no = self.line_of(Loc { buf: loc.buf, off });
        let col = off - line_start;
        let line = &text[line_start..line_end];
        let (bold, reset, kind_color) = if self.color {
            ("\x1b[1m", "\x1b[0m", kind.color())
        } else {
            ("", "", "")
        };
        let _ = writeln!(
            self.out,
            "{bold}{}:{}:{}: {reset}{kind_color}{}: {reset}{bold}{}",
            self.buffers[loc.buf].name,
            line_no,
            col + 1,
            kind.as_str(),
            msg
        );
        self.out.push_str(reset);
        let line_str = String::from_utf8_lossy(line);
        if line.iter().any(|b| !b.is_ascii()) {
            // LLVM prints the line but no caret when it cannot compute columns.
            self.out.push_str(&line_str);
            self.out.push('\n');
            return;
        }
        let mut caret: Vec<u8> = vec![b' '; line.len() + 1];
        for &(s, e) in ranges {
            if s > line_end || e < line_start {
                continue;
            }
            let s = s.max(line_start) - line_start;
            let e = (e.min(line_end) - line_start).min(caret.len());
            for c in &mut caret[s.min(e)..e] {
                *c = b'~';
            }
        }
        let ccol = col.min(line.len());
        caret[ccol] = b'^';
        while caret.last() == Some(&b' ') {
            caret.pop();
        }
        // Expand tabs to 8-column stops in both lines, as LLVM does.
        let mut src = String::new();
        let mut out_col = 0;
        for &b in line {
            if b == b'\t' {
                loop {
                    src.push(' ');
                    out_col += 1;
                    if out_col % 8 == 0 {
                        break;
                    }
                }
            } else {
                src.push(b as char);
                out_col += 1;
            }
        }
        let mut car = String::new();
        let mut out_col = 0;
        for (i, &c) in caret.iter().enumerate() {
            if i < line.len() && line[i] == b'\t' {
                loop {
                    car.push(c as char);
                    out_col += 1;
                    if out_col % 8 == 0 {
                        break;
                    }
                }
            } else {
                car.push(c as char);
                out_col += 1;
            }
        }
        self.out.push_str(&src);
        self.out.push('\n');
        if self.color {
            self.out.push_str("\x1b[0;1;32m");
        }
        self.out.push_str(&car);
        self.out.push('\n');
        self.out.push_str(reset);
    }

    /// Prints a message that has no source location (`error: ...`).
    pub fn print_plain(&mut self, msg: &str) {
        self.out.push_str(msg);
        self.out.push('\n');
    }
}
