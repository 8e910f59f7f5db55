//! `tilus-run --timeline FILE.html`: draws a recorded [`Timeline`] as one self-contained HTML
//! file (inline SVG, a little JavaScript for zoom and hover, no network access), so a run can
//! be looked at in any browser, including one on a machine without the toolchain.
//!
//! One section per recorded cluster; in it, one lane per thread group of each block (compute
//! spans, waits with their barrier and phase, arrival markers), lanes for the asynchronous
//! engines of each block (each TMA / WGMMA / tcgen05 op from issue to completion), and a red
//! line where a report fired. The time axis is the interpreter's logical step counter. Waits
//! that never ended (a deadlock) run to the end of the section in red, labelled with what the
//! group waits for.

use crate::interp::timeline::{ClusterTrace, Engine, Event, EventKind, Timeline};
use std::fmt::Write as _;
use tilus_ir::OpId;

const LABEL_W: f64 = 230.0;
const PLOT_W: f64 = 1000.0;
const ROW_H: f64 = 16.0;
const ROW_GAP: f64 = 4.0;
const AXIS_H: f64 = 36.0;
/// Rows an engine's overlapping ops are spread over; more overlap shares the last row.
const MAX_ENGINE_ROWS: usize = 6;

/// Escapes text for HTML and XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// "threads [a, b)" for a sorted thread list.
fn threads_text(t: &[u32]) -> String {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for &x in t {
        match ranges.last_mut() {
            Some(r) if r.1 == x => r.1 = x + 1,
            _ => ranges.push((x, x + 1)),
        }
    }
    let parts: Vec<String> = ranges.iter().map(|(a, b)| format!("[{a}, {b})")).collect();
    format!(
        "thread{} {}",
        if t.len() == 1 { "" } else { "s" },
        parts.join(" ")
    )
}

struct Section<'a> {
    out: String,
    t0: u64,
    t1: u64,
    y: f64,
    describe: &'a dyn Fn(OpId) -> String,
}

impl Section<'_> {
    fn x(&self, t: u64) -> f64 {
        let span = (self.t1 - self.t0 + 1) as f64;
        LABEL_W + (t.saturating_sub(self.t0)) as f64 * PLOT_W / span
    }

    fn op_text(&self, e: &Event) -> String {
        e.op.map(|o| (self.describe)(o)).unwrap_or_default()
    }

    fn label(&mut self, text: &str, class: &str) {
        let _ = writeln!(
            self.out,
            r#"<text class="{class}" x="6" y="{:.1}">{}</text>"#,
            self.y + ROW_H - 4.0,
            escape(text)
        );
    }

    /// A span from `s` to `e` (inclusive; `None`: still open at the end) in the current row.
    fn span(&mut self, class: &str, s: u64, e: Option<u64>, title: &str) {
        let end = e.unwrap_or(self.t1);
        let x0 = self.x(s);
        let w = (self.x(end + 1) - x0).max(1.0);
        let _ = writeln!(
            self.out,
            r#"<rect class="{class}" data-s="{s}" data-e="{end}" x="{x0:.2}" y="{:.1}" width="{w:.2}" height="{ROW_H}"><title>{}</title></rect>"#,
            self.y,
            escape(title)
        );
    }

    fn marker(&mut self, class: &str, t: u64, title: &str) {
        let _ = writeln!(
            self.out,
            r#"<rect class="{class}" data-s="{t}" x="{:.2}" y="{:.1}" width="3" height="{ROW_H}"><title>{}</title></rect>"#,
            self.x(t) - 1.0,
            self.y - 2.0,
            escape(title)
        );
    }

    fn text_at(&mut self, class: &str, t: u64, text: &str) {
        let _ = writeln!(
            self.out,
            r#"<text class="{class}" data-s="{t}" x="{:.2}" y="{:.1}">{}</text>"#,
            self.x(t) + 3.0,
            self.y + ROW_H - 4.0,
            escape(text)
        );
    }

    fn next_row(&mut self) {
        self.y += ROW_H + ROW_GAP;
    }
}

/// The lanes of thread groups of block `cta`, ordered by first thread, larger groups first.
fn group_lanes(trace: &ClusterTrace, cta: usize) -> Vec<Vec<u32>> {
    let mut lanes: Vec<Vec<u32>> = Vec::new();
    for e in &trace.events {
        if e.cta != cta || e.threads.is_empty() {
            continue;
        }
        if !lanes.contains(&e.threads) {
            lanes.push(e.threads.clone());
        }
    }
    lanes.sort_by_key(|t| (t[0], std::cmp::Reverse(t.len())));
    lanes
}

/// Spreads overlapping async ops of one engine over rows (first fit).
fn pack(events: &[&Event], t1: u64) -> Vec<usize> {
    let mut ends: Vec<u64> = Vec::new();
    events
        .iter()
        .map(|e| {
            let end = e.end.unwrap_or(t1);
            let row = ends.iter().position(|&x| x < e.start).unwrap_or_else(|| {
                if ends.len() < MAX_ENGINE_ROWS {
                    ends.push(0);
                    ends.len() - 1
                } else {
                    MAX_ENGINE_ROWS - 1
                }
            });
            ends[row] = ends[row].max(end);
            row
        })
        .collect()
}

fn cluster_svg(
    kernel: &str,
    trace: &ClusterTrace,
    describe: &dyn Fn(OpId) -> String,
    out: &mut String,
) {
    let blocks: Vec<String> = trace
        .blocks
        .iter()
        .map(|b| format!("({}, {}, {})", b[0], b[1], b[2]))
        .collect();
    let _ = writeln!(
        out,
        r#"<section class="cluster" id="{}-cluster-{}"><h2>@{} — cluster {} (block{} {}), steps {}–{}{}</h2>"#,
        escape(kernel),
        trace.index,
        escape(kernel),
        trace.index,
        if blocks.len() == 1 { "" } else { "s" },
        blocks.join(", "),
        trace.start,
        trace.end,
        if trace.failed {
            " — the run stopped here"
        } else {
            ""
        }
    );
    out.push_str(r#"<div class="tools"><button data-zoom="in">zoom in</button> <button data-zoom="out">zoom out</button> <button data-zoom="reset">reset</button> <span class="hint">wheel: zoom at the pointer; drag: pan; hover: details</span></div>"#);
    out.push('\n');
    let t0 = trace.start;
    let mut t1 = trace.end.max(t0 + 1);
    if trace.failed {
        // Room after the stop: waits that never ended run on into it, with their labels.
        t1 += (t1 - t0) / 2 + 1;
    }
    let mut sec = Section {
        out: String::new(),
        t0,
        t1,
        y: AXIS_H,
        describe,
    };
    for cta in 0..trace.blocks.len() {
        let b = trace.blocks[cta];
        sec.label(&format!("block ({}, {}, {})", b[0], b[1], b[2]), "block");
        sec.next_row();
        for lane in group_lanes(trace, cta) {
            let name = threads_text(&lane);
            sec.label(&name, "lane");
            for e in trace
                .events
                .iter()
                .filter(|e| e.cta == cta && e.threads == lane)
            {
                let at = sec.op_text(e);
                match &e.kind {
                    EventKind::Compute => {
                        let title = format!(
                            "{name}: running, steps {}–{}\nfrom {at}",
                            e.start,
                            e.end.unwrap_or(t1)
                        );
                        sec.span("compute", e.start, e.end, &title);
                    }
                    EventKind::Wait { what } => match e.end {
                        Some(end) => {
                            let title = format!(
                                "{name}: waiting, steps {}–{end}\n{what}\nat {at}",
                                e.start
                            );
                            sec.span("wait", e.start, e.end, &title);
                        }
                        None => {
                            let title = format!(
                                "{name}: stopped here, waiting since step {} and never released\n{what}\nat {at}",
                                e.start
                            );
                            sec.span("stuck", e.start, None, &title);
                            let mut label: String = format!("stopped: {what}");
                            if label.chars().count() > 44 {
                                label = label.chars().take(43).collect::<String>() + "…";
                            }
                            sec.text_at("stuck-label", trace.end, &label);
                        }
                    },
                    _ => {}
                }
            }
            for e in trace
                .events
                .iter()
                .filter(|e| e.cta == cta && e.threads == lane)
            {
                if let EventKind::Arrive { what } = &e.kind {
                    let title =
                        format!("{name} at step {}: {what}\nat {}", e.start, sec.op_text(e));
                    sec.marker("arrive", e.start, &title);
                }
            }
            sec.next_row();
        }
        for engine in [Engine::Tma, Engine::Wgmma, Engine::Tcgen05] {
            let ops: Vec<&Event> = trace
                .events
                .iter()
                .filter(|e| {
                    e.cta == cta
                        && matches!(&e.kind, EventKind::Async { engine: g, .. } if *g == engine)
                })
                .collect();
            if ops.is_empty() {
                continue;
            }
            let rows = pack(&ops, t1);
            let nrows = rows.iter().max().map_or(1, |m| m + 1);
            let y0 = sec.y;
            sec.label(&format!("{} ({} ops)", engine.name(), ops.len()), "lane");
            for (e, r) in ops.iter().zip(&rows) {
                sec.y = y0 + *r as f64 * (ROW_H + ROW_GAP);
                let EventKind::Async { what, .. } = &e.kind else {
                    continue;
                };
                let title = match e.end {
                    Some(end) => format!(
                        "{what}: issued at step {}, completed at step {end}\nat {}",
                        e.start,
                        sec.op_text(e)
                    ),
                    None => format!(
                        "{what}: issued at step {}, still in flight when the run stopped\nat {}",
                        e.start,
                        sec.op_text(e)
                    ),
                };
                let class = match engine {
                    Engine::Tma => "tma",
                    Engine::Wgmma => "wgmma",
                    Engine::Tcgen05 => "tc05",
                };
                sec.span(class, e.start, e.end, &title);
            }
            sec.y = y0 + nrows as f64 * (ROW_H + ROW_GAP);
        }
    }
    let height = sec.y + 4.0;
    let mut reports = String::new();
    for e in &trace.events {
        if let EventKind::Report { text } = &e.kind {
            let at = sec.op_text(e);
            let first = text.lines().next().unwrap_or_default();
            let _ = writeln!(
                sec.out,
                r#"<g class="report" data-s="{}"><line data-s="{}" x1="{x:.2}" x2="{x:.2}" y1="0" y2="{height:.1}"/><text class="left" data-s="{}" x="{:.2}" y="29">{}</text><title>report at step {}: {}{}</title></g>"#,
                e.start,
                e.start,
                e.start,
                sec.x(e.start) - 3.0,
                escape(first),
                e.start,
                escape(text),
                if at.is_empty() {
                    String::new()
                } else {
                    format!("\nat {}", escape(&at))
                },
                x = sec.x(e.start)
            );
            let _ = writeln!(
                reports,
                r#"<pre class="report-text">report at step {}{}:
{}</pre>"#,
                e.start,
                if at.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", escape(&at))
                },
                escape(text)
            );
        }
    }
    let _ = writeln!(
        out,
        r#"<svg class="tl" xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{height:.0}" data-t0="{t0}" data-t1="{t1}"><rect class="bg" x="0" y="0" width="{:.0}" height="{height:.0}"/><g class="axis"></g>"#,
        LABEL_W + PLOT_W + 10.0,
        LABEL_W + PLOT_W + 10.0
    );
    out.push_str(&sec.out);
    out.push_str("</svg>\n");
    out.push_str(&reports);
    if trace.dropped_events > 0 {
        let _ = writeln!(
            out,
            r#"<p class="note">{} more events of this cluster were not recorded (at most {} are kept per cluster).</p>"#,
            trace.dropped_events,
            crate::interp::timeline::MAX_EVENTS_PER_CLUSTER
        );
    }
    out.push_str("</section>\n");
}

/// The HTML page for the runs `(kernel name, timeline)`; `describe` names an op and its source
/// position for hover text.
pub fn render(
    title: &str,
    runs: &[(String, Timeline)],
    describe: &dyn Fn(OpId) -> String,
) -> String {
    let mut body = String::new();
    for (kernel, tl) in runs {
        for c in &tl.clusters {
            cluster_svg(kernel, c, describe, &mut body);
        }
        if tl.dropped_clusters > 0 {
            let _ = writeln!(
                body,
                r#"<p class="note">@{}: {} more clusters ran without a report and were not recorded (the first {} and any that failed are kept).</p>"#,
                escape(kernel),
                tl.dropped_clusters,
                crate::interp::timeline::MAX_CLUSTERS
            );
        }
        if tl.clusters.is_empty() {
            let _ = writeln!(
                body,
                r#"<p class="note">@{}: nothing was recorded (the run stopped before its first block).</p>"#,
                escape(kernel)
            );
        }
    }
    format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>{STYLE}</style></head>
<body>
<h1>{title}</h1>
<p class="legend"><span class="sw compute"></span> running <span class="sw wait"></span> waiting <span class="sw stuck"></span> stopped (never released) <span class="sw arrive"></span> arrival <span class="sw tma"></span> TMA <span class="sw wgmma"></span> WGMMA <span class="sw tc05"></span> tcgen05 <span class="sw rep"></span> report. Time: the interpreter's logical steps.</p>
{body}<div id="tip"></div>
<script>{SCRIPT}</script>
</body></html>
"#,
        title = escape(title)
    )
}

const STYLE: &str = r#"
body { font: 13px system-ui, sans-serif; margin: 16px; color: #222; background: #fff; }
h1 { font-size: 18px; } h2 { font-size: 14px; margin: 18px 0 4px; }
svg.tl { display: block; border: 1px solid #ccc; cursor: grab; user-select: none; }
svg.tl .bg { fill: #fafafa; }
svg.tl text { font: 11px monospace; fill: #222; }
svg.tl text.block { font-weight: bold; }
.compute { fill: #5aa55a; } .wait { fill: #e8a33c; } .stuck { fill: #d33; }
.arrive { fill: #222; } .tma { fill: #3b7dd8; } .wgmma { fill: #8e5bc9; } .tc05 { fill: #1c9c95; }
svg.tl text.stuck-label { fill: #fff; font-weight: bold; }
.report line { stroke: #d00; stroke-width: 2; } .report text { fill: #d00; font-weight: bold; text-anchor: end; }
.axis line { stroke: #ccc; } .axis text { fill: #666; font-size: 10px; }
.legend .sw { display: inline-block; width: 12px; height: 12px; margin: 0 3px 0 10px; vertical-align: middle; }
.legend .sw.compute { background: #5aa55a; } .legend .sw.wait { background: #e8a33c; }
.legend .sw.stuck { background: #d33; } .legend .sw.arrive { background: #222; width: 3px; }
.legend .sw.tma { background: #3b7dd8; } .legend .sw.wgmma { background: #8e5bc9; }
.legend .sw.tc05 { background: #1c9c95; } .legend .sw.rep { background: #d00; width: 2px; }
pre.report-text { background: #fff0f0; border-left: 3px solid #d00; padding: 6px; white-space: pre-wrap; }
.note { color: #666; font-style: italic; }
.hint { color: #888; }
#tip { position: fixed; pointer-events: none; background: #222; color: #fff; padding: 4px 6px; font: 11px monospace; white-space: pre; display: none; border-radius: 3px; max-width: 80em; }
"#;

const SCRIPT: &str = r#"
(function () {
  var LABEL_W = 230, PLOT_W = 1000;
  var tip = document.getElementById('tip');
  function setup(svg) {
    var t0 = +svg.dataset.t0, t1 = +svg.dataset.t1 + 1;
    var v0 = t0, v1 = t1;
    var els = Array.prototype.slice.call(svg.querySelectorAll('[data-s]'));
    var axis = svg.querySelector('.axis');
    var NS = 'http://www.w3.org/2000/svg';
    var height = +svg.getAttribute('height');
    function X(t) { return LABEL_W + (t - v0) * PLOT_W / (v1 - v0); }
    function draw() {
      els.forEach(function (el) {
        var s = +el.dataset.s;
        var tag = el.tagName.toLowerCase();
        if (tag === 'g') return;
        if (tag === 'line') { el.setAttribute('x1', X(s)); el.setAttribute('x2', X(s)); return; }
        if (tag === 'text') { el.setAttribute('x', X(s) + (el.classList.contains('left') ? -3 : 3)); return; }
        if (el.dataset.e !== undefined) {
          var e = +el.dataset.e + 1;
          var a = Math.max(X(s), LABEL_W - 2), b = Math.min(X(e), LABEL_W + PLOT_W + 2);
          el.setAttribute('x', a);
          el.setAttribute('width', Math.max(b - a, b > a ? 1 : 0));
        } else {
          el.setAttribute('x', X(s) - 1);
        }
        var vis = X(s) <= LABEL_W + PLOT_W + 2 && (el.dataset.e === undefined ? X(s) >= LABEL_W - 2 : X(+el.dataset.e + 1) >= LABEL_W - 2);
        el.style.display = vis ? '' : 'none';
      });
      while (axis.firstChild) axis.removeChild(axis.firstChild);
      var span = v1 - v0, step = Math.pow(10, Math.floor(Math.log10(Math.max(span / 8, 1))));
      if (span / step > 16) step *= 5; else if (span / step > 8) step *= 2;
      for (var t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
        var l = document.createElementNS(NS, 'line');
        l.setAttribute('x1', X(t)); l.setAttribute('x2', X(t));
        l.setAttribute('y1', 14); l.setAttribute('y2', height);
        axis.appendChild(l);
        var tx = document.createElementNS(NS, 'text');
        tx.setAttribute('x', X(t) + 2); tx.setAttribute('y', 11);
        tx.textContent = String(Math.round(t));
        axis.appendChild(tx);
      }
    }
    function zoom(f, at) {
      var c = at === undefined ? (v0 + v1) / 2 : at;
      var n0 = c - (c - v0) * f, n1 = c + (v1 - c) * f;
      if (n1 - n0 < 4) return;
      v0 = Math.max(t0, n0); v1 = Math.min(t1, n1);
      if (v1 - v0 < 4) { v0 = t0; v1 = t1; }
      draw();
    }
    function timeAt(ev) {
      var r = svg.getBoundingClientRect();
      return v0 + (ev.clientX - r.left - LABEL_W) * (v1 - v0) / PLOT_W;
    }
    svg.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      zoom(ev.deltaY < 0 ? 0.8 : 1.25, timeAt(ev));
    }, { passive: false });
    var drag = null;
    svg.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, v0: v0, v1: v1 }; });
    window.addEventListener('mouseup', function () { drag = null; });
    svg.addEventListener('mousemove', function (ev) {
      if (drag) {
        var dt = (ev.clientX - drag.x) * (drag.v1 - drag.v0) / PLOT_W;
        var w = drag.v1 - drag.v0;
        v0 = Math.min(Math.max(t0, drag.v0 - dt), t1 - w); v1 = v0 + w;
        draw();
      }
      var ti = null;
      for (var n = ev.target; n && n !== svg && !ti; n = n.parentNode) {
        for (var c = n.firstChild; c; c = c.nextSibling) {
          if (c.nodeName === 'title') { ti = c; break; }
        }
      }
      if (ti) {
        tip.textContent = ti.textContent;
        tip.style.display = 'block';
        tip.style.left = (ev.clientX + 12) + 'px';
        tip.style.top = (ev.clientY + 12) + 'px';
      } else {
        tip.style.display = 'none';
      }
    });
    svg.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    var tools = svg.parentNode.querySelector('.tools');
    if (tools) {
      tools.addEventListener('click', function (ev) {
        var z = ev.target.dataset ? ev.target.dataset.zoom : null;
        if (z === 'in') zoom(0.5);
        else if (z === 'out') zoom(2);
        else if (z === 'reset') { v0 = t0; v1 = t1; draw(); }
      });
    }
    draw();
  }
  Array.prototype.forEach.call(document.querySelectorAll('svg.tl'), setup);
})();
"#;
