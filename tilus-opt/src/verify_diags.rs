//! `--verify-diagnostics`: match produced diagnostics against `expected-*` comments, as MLIR does.
//!
//! `// expected-error {{text}}` expects an error on its own line whose message contains `text`;
//! `@+N` / `@-N` shift the line, `@above` / `@below` pick the nearest line without an
//! `expected-` comment above or below, and `@unknown` matches diagnostics without a location.
//! Severities: `error`, `warning`, `note`, `remark`. Notes attached to a diagnostic are matched
//! as diagnostics of their own.

use tilus_ir::source::{resolve_span, SourceFile};
use tilus_ir::{Context, DiagLoc, Diagnostic, Severity, SourceMap, Span};

struct Expected {
    severity: Severity,
    line: Option<u32>,
    text: String,
    span: Span,
    matched: bool,
}

fn parse_expected(file: &SourceFile) -> Result<Vec<Expected>, Diagnostic> {
    let text = &file.text;
    let mut out = Vec::new();
    let mut directive_lines = Vec::new();
    let n_lines = file.lines().num_lines() as u32;
    for line in 1..=n_lines {
        let (s, e) = file.lines().line_range(line).unwrap();
        if text[s..e].contains("expected-") {
            directive_lines.push(line);
        }
    }
    for &line in &directive_lines {
        let (s, e) = file.lines().line_range(line).unwrap();
        let l = &text[s..e];
        let mut from = 0;
        while let Some(i) = l[from..].find("expected-") {
            let start = from + i;
            let rest = &l[start + "expected-".len()..];
            let (sev, after) = if let Some(r) = rest.strip_prefix("error") {
                (Severity::Error, r)
            } else if let Some(r) = rest.strip_prefix("warning") {
                (Severity::Warning, r)
            } else if let Some(r) = rest.strip_prefix("note") {
                (Severity::Note, r)
            } else if let Some(r) = rest.strip_prefix("remark") {
                (Severity::Remark, r)
            } else {
                from = start + 9;
                continue;
            };
            let mut target = Some(line);
            let mut after = after;
            if let Some(d) = after.strip_prefix('@') {
                let end = d
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(d.len());
                let des = &d[..end];
                let bad = || {
                    Diagnostic::at(Span::new(s + start, s + start + 9 + end), format!("invalid designator '@{des}' (expected @+N, @-N, @above, @below or @unknown)"))
                };
                target = match des {
                    "unknown" => None,
                    "above" => directive_lines_nearest(&directive_lines, line, n_lines, -1),
                    "below" => directive_lines_nearest(&directive_lines, line, n_lines, 1),
                    _ => {
                        if let Some(n) = des.strip_prefix('+') {
                            Some(line + n.parse::<u32>().map_err(|_| bad())?)
                        } else if let Some(n) = des.strip_prefix('-') {
                            Some(
                                line.checked_sub(n.parse::<u32>().map_err(|_| bad())?)
                                    .ok_or_else(bad)?,
                            )
                        } else {
                            return Err(bad());
                        }
                    }
                };
                after = &d[end..];
            }
            let trimmed = after.trim_start();
            // Like MLIR, a mention of `expected-error` without `{{...}}` is plain prose.
            let Some(body) = trimmed.strip_prefix("{{") else {
                from = start + 9;
                continue;
            };
            let Some(close) = body.find("}}") else {
                return Err(Diagnostic::at(
                    Span::new(s + start, s + l.len()),
                    "expected '}}' to close the expected message",
                ));
            };
            out.push(Expected {
                severity: sev,
                line: target,
                text: body[..close].to_string(),
                span: Span::new(s + start, s + l.len()),
                matched: false,
            });
            from = l.len() - body[close..].len();
        }
    }
    Ok(out)
}

fn directive_lines_nearest(directives: &[u32], line: u32, n: u32, step: i64) -> Option<u32> {
    let mut l = line as i64 + step;
    while l >= 1 && l <= n as i64 {
        if !directives.contains(&(l as u32)) {
            return Some(l as u32);
        }
        l += step;
    }
    Some((line as i64 + step).max(1) as u32)
}

/// Returns the problems: expected diagnostics not produced and produced ones not expected.
pub fn check(
    file: &SourceFile,
    ctx: &Context,
    map: &SourceMap,
    diags: &[Diagnostic],
) -> Vec<Diagnostic> {
    let mut expected = match parse_expected(file) {
        Ok(e) => e,
        Err(d) => return vec![d],
    };
    let mut produced: Vec<(Severity, DiagLoc, String)> = Vec::new();
    for d in diags {
        // A span into another file (a rule file) is on no line of this one.
        let at = |l: DiagLoc| {
            if d.file.is_some() {
                DiagLoc::Unknown
            } else {
                l
            }
        };
        produced.push((d.severity, at(d.loc), d.message.clone()));
        for n in &d.notes {
            produced.push((Severity::Note, at(n.loc), n.message.clone()));
        }
    }
    let mut problems = Vec::new();
    for (sev, loc, msg) in produced {
        let line =
            resolve_span(Some(ctx), Some(map), file, loc).map(|s| file.lines().line_col(s.start).0);
        let hit = expected
            .iter_mut()
            .find(|e| !e.matched && e.severity == sev && e.line == line && msg.contains(&e.text));
        match hit {
            Some(e) => e.matched = true,
            None => {
                let d = Diagnostic::error(loc, format!("unexpected {}: {msg}", sev.word()));
                problems.push(d);
            }
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        problems.push(Diagnostic::at(
            e.span,
            format!(
                "expected {} \"{}\" was not produced",
                e.severity.word(),
                e.text
            ),
        ));
    }
    problems
}
