//! Layout pictures (`--draw-layout`, `--draw-layouts`): which thread and register hold each
//! element of a register tile, which shared-memory bank and address each element of a shared
//! tile has (after the swizzle), and how many shared-memory wavefronts an access between the
//! two costs per instruction compared with the ideal (bank conflicts).
//!
//! Everything is computed from the layout algebra of `tilus-dialects` (the same maps the
//! interpreter and the lowering use), so a picture shows what the kernel does, not a model of
//! it. Output is SVG (one self-contained file) or text for terminals (ANSI colours only when
//! the output is a terminal).

use std::collections::HashMap;
use std::fmt::Write as _;
use tilus_dialects::layout_algebra::{RegisterLayout, SharedLayout};
use tilus_dialects::tilus_types::{DType, Space, TensorType};
use tilus_ir::{Context, DiagLoc, Diagnostic, OpId, Span};

/// Largest number of cells a picture is drawn with: beyond it a picture is unreadable and an
/// SVG of millions of elements hangs a browser.
pub const MAX_CELLS: i64 = 16_384;
/// Threads per warp; banks per shared-memory row; bytes per bank word.
const WARP: i64 = 32;
const BANKS: i64 = 32;
/// Bytes a shared-memory wavefront serves (32 banks of 4 bytes).
const WAVEFRONT_BYTES: i64 = 128;
/// Lines of the per-instruction table in text pictures (the summary counts all of them).
const MAX_TABLE_LINES: usize = 64;

/// Output form of a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Svg,
    Text,
}

impl Format {
    /// The file extension of a picture in this form.
    pub fn ext(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Text => "txt",
        }
    }
}

/// How to draw: the form, and whether text may carry ANSI colours.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub format: Format,
    pub color: bool,
}

/// What one picture shows.
pub enum Subject {
    /// A register tile: owners of each element.
    Reg {
        layout: RegisterLayout,
        dtype: Option<DType>,
        title: String,
    },
    /// A shared tile: bank and byte address of each element.
    Shared {
        layout: SharedLayout,
        dtype: DType,
        title: String,
    },
    /// A register tile stored to (or loaded from) a shared tile: wavefronts per instruction.
    Access {
        reg: RegisterLayout,
        shared: SharedLayout,
        dtype: DType,
        store: bool,
        title: String,
    },
}

impl Subject {
    fn cells(&self) -> i64 {
        let shape = match self {
            Subject::Reg { layout, .. } => &layout.shape,
            Subject::Shared { layout, .. } => &layout.shape,
            Subject::Access { shared, .. } => &shared.shape,
        };
        shape
            .iter()
            .try_fold(1i64, |a, &d| a.checked_mul(d))
            .unwrap_or(i64::MAX)
    }

    /// Refuses pictures beyond [`MAX_CELLS`] (and register layouts with absurd thread counts).
    pub fn check_size(&self) -> Result<(), String> {
        let n = self.cells();
        if n > MAX_CELLS {
            return Err(format!(
                "the tile has {n} elements; pictures are drawn for at most {MAX_CELLS}"
            ));
        }
        let threads = match self {
            Subject::Reg { layout, .. } | Subject::Access { reg: layout, .. } => {
                layout.num_threads()
            }
            Subject::Shared { .. } => 0,
        };
        if threads > 1024 * 32 {
            return Err(format!(
                "the layout spreads over {threads} threads; pictures are drawn for at most {}",
                1024 * 32
            ));
        }
        Ok(())
    }
}

/// The index of each slice (the leading indices of a tensor of rank > 2) and the rows and
/// columns of one slice: a 1-D tile is one row, a scalar one cell.
fn grid_of(shape: &[i64]) -> (Vec<Vec<i64>>, i64, i64) {
    let r = shape.len();
    let (rows, cols) = match r {
        0 => (1, 1),
        1 => (1, shape[0]),
        _ => (shape[r - 2], shape[r - 1]),
    };
    let lead = &shape[..r.saturating_sub(2)];
    let mut slices = vec![Vec::new()];
    for &d in lead {
        slices = slices
            .into_iter()
            .flat_map(|p: Vec<i64>| {
                (0..d).map(move |i| {
                    let mut q = p.clone();
                    q.push(i);
                    q
                })
            })
            .collect();
    }
    (slices, rows, cols)
}

/// The full index of cell (row, col) of slice `prefix` of a tensor of rank `rank`.
fn index(prefix: &[i64], rank: usize, row: i64, col: i64) -> Vec<i64> {
    let mut idx = prefix.to_vec();
    match rank {
        0 => {}
        1 => idx.push(col),
        _ => {
            idx.push(row);
            idx.push(col);
        }
    }
    idx
}

fn slice_name(prefix: &[i64]) -> String {
    let mut parts: Vec<String> = prefix.iter().map(|i| i.to_string()).collect();
    parts.push(":".into());
    parts.push(":".into());
    format!("slice [{}]", parts.join(", "))
}

fn elem_bytes(dtype: DType) -> i64 {
    (dtype.bits() as i64 / 8).max(1)
}

// ----- cell contents --------------------------------------------------------------------------

/// The cell of a register picture: its owners' text and the warp that colours it.
struct RegCell {
    text: String,
    warp: i64,
    owners: Vec<i64>,
    reg: i64,
}

fn reg_cell(layout: &RegisterLayout, idx: &[i64]) -> RegCell {
    let (owners, reg) = layout.holders(idx);
    let names: Vec<String> = owners.iter().map(|t| format!("T{t}")).collect();
    RegCell {
        text: format!("{}:R{reg}", names.join("|")),
        warp: owners.first().copied().unwrap_or(0) / WARP,
        owners,
        reg,
    }
}

fn reg_header(layout: &RegisterLayout, dtype: Option<DType>) -> String {
    let threads = layout.num_threads();
    let warps = (threads + WARP - 1) / WARP;
    let mut s = format!(
        "register layout {layout} of shape [{}]{}: {threads} thread{} ({warps} warp{}), {} register{} per thread",
        layout
            .shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        dtype.map(|d| format!(" ({})", d.name())).unwrap_or_default(),
        if threads == 1 { "" } else { "s" },
        if warps == 1 { "" } else { "s" },
        layout.local_size(),
        if layout.local_size() == 1 { "" } else { "s" },
    );
    if layout.replication() > 1 {
        let _ = write!(
            s,
            ", every element held by {} threads",
            layout.replication()
        );
    }
    s
}

fn shared_header(layout: &SharedLayout, dtype: DType) -> String {
    format!(
        "shared layout {layout} of {}: bank = (byte address / 4) % 32, after the swizzle",
        dtype.name()
    )
}

/// One shared-memory instruction of an access: register `reg` of the lanes of warp `warp`.
struct Instr {
    reg: i64,
    warp: i64,
    lanes: i64,
    wavefronts: i64,
    ideal: i64,
    /// The busiest bank and the distinct words it serves.
    worst_bank: i64,
    worst_words: Vec<i64>,
    /// The elements it touches.
    elems: Vec<Vec<i64>>,
}

/// Wavefronts of each instruction of the access. The lowering issues one scalar
/// `ld.shared`/`st.shared` per register (vector width 1), each lane at its element's swizzled
/// address; a store is issued by replica 0 of each element only.
fn access_instrs(
    reg: &RegisterLayout,
    shared: &SharedLayout,
    dtype: DType,
    store: bool,
) -> Vec<Instr> {
    let bytes = elem_bytes(dtype);
    let threads = reg.num_threads();
    let warps = (threads + WARP - 1) / WARP;
    let mut out = Vec::new();
    for l in 0..reg.local_size() {
        for w in 0..warps {
            let mut banks: HashMap<i64, Vec<i64>> = HashMap::new();
            let mut lanes = 0;
            let mut elems = Vec::new();
            for t in w * WARP..((w + 1) * WARP).min(threads) {
                let idx = reg.coords(t, l);
                if store && reg.holders(&idx).0.first() != Some(&t) {
                    continue;
                }
                lanes += 1;
                let addr = shared.offset(&idx) * bytes;
                for word in addr / 4..=(addr + bytes - 1) / 4 {
                    let b = banks.entry(word % BANKS).or_default();
                    if !b.contains(&word) {
                        b.push(word);
                    }
                }
                elems.push(idx);
            }
            if lanes == 0 {
                continue;
            }
            let (worst_bank, worst_words) = banks
                .iter()
                .max_by_key(|(b, w)| (w.len(), std::cmp::Reverse(**b)))
                .map(|(b, w)| (*b, w.clone()))
                .unwrap_or((0, Vec::new()));
            let ideal = (lanes * bytes + WAVEFRONT_BYTES - 1) / WAVEFRONT_BYTES;
            out.push(Instr {
                reg: l,
                warp: w,
                lanes,
                wavefronts: (worst_words.len() as i64).max(ideal),
                ideal,
                worst_bank,
                worst_words,
                elems,
            });
        }
    }
    out
}

fn access_header(reg: &RegisterLayout, shared: &SharedLayout, dtype: DType, store: bool) -> String {
    format!(
        "{} {}: register layout {reg} {} shared layout {shared}; one scalar {} per register per warp (the lowering's vector width is 1)",
        if store { "store" } else { "load" },
        dtype.name(),
        if store { "into" } else { "from" },
        if store { "st.shared" } else { "ld.shared" }
    )
}

fn access_summary(instrs: &[Instr]) -> String {
    let waves: i64 = instrs.iter().map(|i| i.wavefronts).sum();
    let ideal: i64 = instrs.iter().map(|i| i.ideal).sum();
    let bad = instrs.iter().filter(|i| i.wavefronts > i.ideal).count();
    let worst = instrs
        .iter()
        .map(|i| (i.wavefronts + i.ideal - 1) / i.ideal.max(1))
        .max()
        .unwrap_or(1);
    format!(
        "summary: {} instruction{}, {bad} with bank conflicts (worst {worst}-way); {waves} wavefronts, ideal {ideal}{}",
        instrs.len(),
        if instrs.len() == 1 { "" } else { "s" },
        if ideal > 0 && waves > ideal {
            format!(" ({:.2}x)", waves as f64 / ideal as f64)
        } else {
            String::new()
        }
    )
}

fn instr_line(i: &Instr) -> String {
    let mut s = format!(
        "R{} warp {}: {} lane{}, {} wavefront{} (ideal {})",
        i.reg,
        i.warp,
        i.lanes,
        if i.lanes == 1 { "" } else { "s" },
        i.wavefronts,
        if i.wavefronts == 1 { "" } else { "s" },
        i.ideal
    );
    if i.wavefronts > i.ideal {
        let mut words: Vec<String> = i
            .worst_words
            .iter()
            .take(6)
            .map(|w| (w * 4).to_string())
            .collect();
        if i.worst_words.len() > 6 {
            words.push("...".into());
        }
        let _ = write!(
            s,
            "  CONFLICT: bank {} serves {} words (byte addresses {})",
            i.worst_bank,
            i.worst_words.len(),
            words.join(", ")
        );
    }
    s
}

// ----- text ---------------------------------------------------------------------------------

/// Foreground colours cycled over warps (or banks).
const ANSI: [u8; 12] = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96];

fn paint(s: &str, key: i64, color: bool) -> String {
    if color {
        format!(
            "\x1b[{}m{s}\x1b[0m",
            ANSI[(key.rem_euclid(ANSI.len() as i64)) as usize]
        )
    } else {
        s.to_string()
    }
}

/// Draws a grid of cells (text and colour key) for every slice of `shape`.
fn text_grid(out: &mut String, shape: &[i64], color: bool, cell: &dyn Fn(&[i64]) -> (String, i64)) {
    let (slices, rows, cols) = grid_of(shape);
    let rank = shape.len();
    for prefix in &slices {
        if rank > 2 {
            let _ = writeln!(out, "{}:", slice_name(prefix));
        }
        let cells: Vec<Vec<(String, i64)>> = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| cell(&index(prefix, rank, r, c)))
                    .collect()
            })
            .collect();
        let w = cells
            .iter()
            .flatten()
            .map(|c| c.0.chars().count())
            .max()
            .unwrap_or(1)
            .max(cols.saturating_sub(1).to_string().len());
        let rw = rows.saturating_sub(1).to_string().len();
        let mut line = format!("{:rw$} ", "");
        for c in 0..cols {
            let _ = write!(line, " {c:>w$}");
        }
        let _ = writeln!(out, "{}", line.trim_end());
        for (r, row) in cells.iter().enumerate() {
            let mut line = format!("{r:>rw$} ");
            for (text, key) in row {
                let padded = format!("{text:>w$}");
                let _ = write!(line, " {}", paint(&padded, *key, color));
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
}

fn text_picture(subject: &Subject, color: bool) -> String {
    let mut out = String::new();
    match subject {
        Subject::Reg {
            layout,
            dtype,
            title,
        } => {
            let _ = writeln!(out, "{title}");
            let _ = writeln!(out, "{}", reg_header(layout, *dtype));
            let _ = writeln!(
                out,
                "cell: T<thread>:R<register> (every owner of a replicated element){}",
                if color { "; colour: warp" } else { "" }
            );
            text_grid(&mut out, &layout.shape, color, &|idx| {
                let c = reg_cell(layout, idx);
                (c.text, c.warp)
            });
        }
        Subject::Shared {
            layout,
            dtype,
            title,
        } => {
            let _ = writeln!(out, "{title}");
            let _ = writeln!(out, "{}", shared_header(layout, *dtype));
            let bytes = elem_bytes(*dtype);
            let _ = writeln!(out, "banks:");
            text_grid(&mut out, &layout.shape, color, &|idx| {
                let b = (layout.offset(idx) * bytes / 4) % BANKS;
                (b.to_string(), b)
            });
            let _ = writeln!(out, "byte addresses (from the tile's base):");
            text_grid(&mut out, &layout.shape, color, &|idx| {
                let a = layout.offset(idx) * bytes;
                (a.to_string(), (a / 4) % BANKS)
            });
        }
        Subject::Access {
            reg,
            shared,
            dtype,
            store,
            title,
        } => {
            let _ = writeln!(out, "{title}");
            let _ = writeln!(out, "{}", access_header(reg, shared, *dtype, *store));
            let instrs = access_instrs(reg, shared, *dtype, *store);
            for i in instrs.iter().take(MAX_TABLE_LINES) {
                let line = instr_line(i);
                let _ = writeln!(
                    out,
                    "{}",
                    if i.wavefronts > i.ideal && color {
                        format!("\x1b[1;31m{line}\x1b[0m")
                    } else {
                        line
                    }
                );
            }
            if instrs.len() > MAX_TABLE_LINES {
                let _ = writeln!(
                    out,
                    "... {} more instructions (counted in the summary)",
                    instrs.len() - MAX_TABLE_LINES
                );
            }
            let _ = writeln!(out, "{}", access_summary(&instrs));
            let conflicted = conflicted_elems(&instrs);
            let bytes = elem_bytes(*dtype);
            let _ = writeln!(
                out,
                "banks of the shared tile (* marks elements accessed by an instruction with a bank conflict):"
            );
            text_grid(&mut out, &shared.shape, color, &|idx| {
                let b = (shared.offset(idx) * bytes / 4) % BANKS;
                let mark = if conflicted.contains_key(idx) {
                    "*"
                } else {
                    ""
                };
                (format!("{b}{mark}"), b)
            });
        }
    }
    out
}

/// Elements touched by a conflicted instruction, with the worst wavefront count there.
fn conflicted_elems(instrs: &[Instr]) -> HashMap<Vec<i64>, (i64, i64, i64)> {
    let mut m = HashMap::new();
    for i in instrs.iter().filter(|i| i.wavefronts > i.ideal) {
        for e in &i.elems {
            let entry = m.entry(e.clone()).or_insert((i.reg, i.warp, i.wavefronts));
            if i.wavefronts > entry.2 {
                *entry = (i.reg, i.warp, i.wavefronts);
            }
        }
    }
    m
}

// ----- SVG ----------------------------------------------------------------------------------

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A colour per key (warp or bank), spread around the hue circle.
fn hue(key: i64, n: i64) -> String {
    let n = n.max(1);
    let h = (key.rem_euclid(n) * 360 / n + (key / n) * 17) % 360;
    format!("hsl({h}, 65%, 78%)")
}

struct Cell {
    lines: Vec<String>,
    fill: String,
    title: String,
    mark: bool,
}

/// An SVG grid for every slice; `cell` gives each index's lines, fill, hover text and whether
/// to outline it in red.
fn svg_grid(
    out: &mut String,
    y0: &mut f64,
    shape: &[i64],
    id: &str,
    cell: &dyn Fn(&[i64]) -> Cell,
) -> f64 {
    let (slices, rows, cols) = grid_of(shape);
    let rank = shape.len();
    let mut cells_all = Vec::new();
    let mut widest = 1usize;
    for prefix in &slices {
        let cells: Vec<Vec<Cell>> = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| cell(&index(prefix, rank, r, c)))
                    .collect()
            })
            .collect();
        for c in cells.iter().flatten() {
            for l in &c.lines {
                widest = widest.max(l.chars().count());
            }
        }
        cells_all.push(cells);
    }
    let cw = (widest as f64 * 7.0 + 8.0).max(28.0);
    let nlines = cells_all
        .iter()
        .flatten()
        .flatten()
        .map(|c| c.lines.len())
        .max()
        .unwrap_or(1);
    let ch = 6.0 + 12.0 * nlines as f64;
    let x0 = 36.0;
    let mut right: f64 = 0.0;
    for (s, (prefix, cells)) in slices.iter().zip(cells_all).enumerate() {
        let _ = writeln!(out, r#"<g id="{id}-slice-{s}" class="slice">"#);
        if rank > 2 {
            let _ = writeln!(
                out,
                r#"<text class="slice-title" x="{x0}" y="{:.1}">{}</text>"#,
                *y0 + 12.0,
                esc(&slice_name(prefix))
            );
            *y0 += 18.0;
        }
        for c in 0..cols {
            let _ = writeln!(
                out,
                r#"<text class="col" x="{:.1}" y="{:.1}">{c}</text>"#,
                x0 + c as f64 * cw + cw / 2.0,
                *y0 + 12.0
            );
        }
        *y0 += 16.0;
        for (r, row) in cells.into_iter().enumerate() {
            let y = *y0 + r as f64 * ch;
            let _ = writeln!(
                out,
                r#"<text class="row" x="{:.1}" y="{:.1}">{r}</text>"#,
                x0 - 4.0,
                y + ch / 2.0 + 4.0
            );
            for (c, cell) in row.into_iter().enumerate() {
                let x = x0 + c as f64 * cw;
                let _ = writeln!(
                    out,
                    r#"<g id="{id}-{s}-{r}-{c}" class="cell{}"><rect x="{x:.1}" y="{y:.1}" width="{cw:.1}" height="{ch:.1}" fill="{}"/><title>{}</title>"#,
                    if cell.mark { " conflict" } else { "" },
                    cell.fill,
                    esc(&cell.title)
                );
                for (k, l) in cell.lines.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
                        x + cw / 2.0,
                        y + 15.0 + 12.0 * k as f64,
                        esc(l)
                    );
                }
                out.push_str("</g>\n");
            }
        }
        *y0 += rows as f64 * ch + 10.0;
        right = right.max(x0 + cols as f64 * cw + 10.0);
        out.push_str("</g>\n");
    }
    right
}

fn svg_picture(subject: &Subject) -> String {
    let mut body = String::new();
    let mut y = 0.0;
    let mut width: f64 = 400.0;
    let mut header = |body: &mut String, y: &mut f64, class: &str, text: &str| {
        *y += 16.0;
        let _ = writeln!(
            body,
            r#"<text class="{class}" x="8" y="{:.1}">{}</text>"#,
            *y,
            esc(text)
        );
        width = width.max(16.0 + text.chars().count() as f64 * 7.0);
    };
    match subject {
        Subject::Reg {
            layout,
            dtype,
            title,
        } => {
            header(&mut body, &mut y, "title", title);
            header(&mut body, &mut y, "sub", &reg_header(layout, *dtype));
            header(
                &mut body,
                &mut y,
                "sub",
                "cell: thread(s) and register; colour: warp; hover: details",
            );
            y += 8.0;
            let warps = (layout.num_threads() + WARP - 1) / WARP;
            let r = svg_grid(&mut body, &mut y, &layout.shape, "reg", &|idx| {
                let c = reg_cell(layout, idx);
                let threads: Vec<String> = c.owners.iter().map(|t| format!("T{t}")).collect();
                let lanes: Vec<String> = c
                    .owners
                    .iter()
                    .map(|t| format!("thread {t} (warp {}, lane {})", t / WARP, t % WARP))
                    .collect();
                Cell {
                    lines: vec![threads.join("|"), format!("R{}", c.reg)],
                    fill: hue(c.warp, warps.min(12)),
                    title: format!(
                        "element {idx:?}: register {} of {}",
                        c.reg,
                        lanes.join(", ")
                    ),
                    mark: false,
                }
            });
            width = width.max(r);
        }
        Subject::Shared {
            layout,
            dtype,
            title,
        } => {
            header(&mut body, &mut y, "title", title);
            header(&mut body, &mut y, "sub", &shared_header(layout, *dtype));
            header(
                &mut body,
                &mut y,
                "sub",
                "cell: bank and byte address; colour: bank; hover: details",
            );
            y += 8.0;
            let bytes = elem_bytes(*dtype);
            let r = svg_grid(&mut body, &mut y, &layout.shape, "smem", &|idx| {
                let a = layout.offset(idx) * bytes;
                let b = (a / 4) % BANKS;
                Cell {
                    lines: vec![format!("b{b}"), format!("@{a}")],
                    fill: hue(b, BANKS),
                    title: format!("element {idx:?}: byte address {a}, bank {b}"),
                    mark: false,
                }
            });
            width = width.max(r);
        }
        Subject::Access {
            reg,
            shared,
            dtype,
            store,
            title,
        } => {
            let instrs = access_instrs(reg, shared, *dtype, *store);
            header(&mut body, &mut y, "title", title);
            header(
                &mut body,
                &mut y,
                "sub",
                &access_header(reg, shared, *dtype, *store),
            );
            let summary = access_summary(&instrs);
            header(&mut body, &mut y, "summary", &summary);
            header(
                &mut body,
                &mut y,
                "sub",
                "cell: bank, owner; red outline: accessed by an instruction with a bank conflict; hover: details",
            );
            y += 8.0;
            let conflicted = conflicted_elems(&instrs);
            let bytes = elem_bytes(*dtype);
            let r = svg_grid(&mut body, &mut y, &shared.shape, "access", &|idx| {
                let a = shared.offset(idx) * bytes;
                let b = (a / 4) % BANKS;
                let c = reg_cell(reg, idx);
                let bad = conflicted.get(idx);
                let mut title = format!(
                    "element {idx:?}: byte address {a}, bank {b}; register {} of thread {}",
                    c.reg,
                    c.owners.first().copied().unwrap_or(0)
                );
                if let Some((r, w, waves)) = bad {
                    let _ = write!(
                        title,
                        "; instruction R{r} of warp {w} takes {waves} wavefronts"
                    );
                }
                Cell {
                    lines: vec![format!("b{b}"), c.text],
                    fill: hue(b, BANKS),
                    title,
                    mark: bad.is_some(),
                }
            });
            width = width.max(r);
            let _ = writeln!(body, r#"<g id="instructions">"#);
            for i in &instrs {
                let _ = writeln!(
                    body,
                    r#"<desc class="instr{}">{}</desc>"#,
                    if i.wavefronts > i.ideal {
                        " conflict"
                    } else {
                        ""
                    },
                    esc(&instr_line(i))
                );
            }
            body.push_str("</g>\n");
        }
    }
    let height = y + 8.0;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="monospace" font-size="11">
<style>text {{ fill: #222; }} .title {{ font-weight: bold; font-size: 13px; }} .summary {{ fill: #b00; font-weight: bold; }} .cell text, .col {{ text-anchor: middle; }} .row {{ text-anchor: end; }} .cell rect {{ stroke: #fff; stroke-width: 1; }} .cell.conflict rect {{ stroke: #d00; stroke-width: 2.5; }}</style>
<rect width="100%" height="100%" fill="#fff"/>
{body}</svg>
"##
    )
}

/// Draws `subject` in `style`.
pub fn draw(subject: &Subject, style: Style) -> String {
    match style.format {
        Format::Text => text_picture(subject, style.color),
        Format::Svg => svg_picture(subject),
    }
}

// ----- what to draw -------------------------------------------------------------------------

/// The register layout of a register tile: the type's, else the one the lowering gives a
/// tile of this shape over `threads` threads.
fn reg_layout_of(t: &TensorType, threads: i64) -> Result<RegisterLayout, String> {
    match &t.layout {
        Some(l) => Ok(l.clone()),
        None => tilus_passes::lower::tiles::default_layout(&t.shape, t.dtype.bits(), threads),
    }
}

/// What `--draw-layout=TEXT` names: a tile type, a bare register layout, or an access
/// `REG -> SHARED` (a store) / `SHARED -> REG` (a load). Errors point into `text`.
pub fn parse_subject(ctx: &mut Context, text: &str, threads: i64) -> Result<Subject, Diagnostic> {
    let span =
        |a: usize, b: usize| DiagLoc::Span(Span::new(a, b.max(a + 1).min(text.len().max(a + 1))));
    if let Some(arrow) = text.find("->") {
        let (l, r) = (&text[..arrow], &text[arrow + 2..]);
        let lt = parse_tile(ctx, l, 0, text, threads)?;
        let rt = parse_tile(ctx, r, arrow + 2, text, threads)?;
        let (reg, sh, store) = match (&lt, &rt) {
            ((TileKind::Reg(rl), t), (TileKind::Shared(sl), _)) => ((rl, t), sl, true),
            ((TileKind::Shared(sl), _), (TileKind::Reg(rl), t)) => ((rl, t), sl, false),
            _ => {
                return Err(Diagnostic::error(
                    span(0, text.len()),
                    "an access is a register tile and a shared tile: '!tilus.reg<...> -> !tilus.shared<...>' (a store) or '!tilus.shared<...> -> !tilus.reg<...>' (a load)",
                ))
            }
        };
        let (rl, rt) = reg;
        if rl.shape != sh.shape {
            return Err(Diagnostic::error(
                span(0, text.len()),
                format!(
                    "the register tile has shape {:?} and the shared tile {:?}; an access needs equal shapes",
                    rl.shape, sh.shape
                ),
            ));
        }
        let dtype = rt
            .as_ref()
            .map(|t| t.dtype)
            .ok_or_else(|| Diagnostic::error(span(0, text.len()), "an access needs tile types"))?;
        return Ok(Subject::Access {
            reg: rl.clone(),
            shared: sh.clone(),
            dtype,
            store,
            title: text.trim().to_string(),
        });
    }
    match parse_tile(ctx, text, 0, text, threads)? {
        (TileKind::Reg(layout), t) => Ok(Subject::Reg {
            layout,
            dtype: t.map(|t| t.dtype),
            title: text.trim().to_string(),
        }),
        (TileKind::Shared(layout), t) => Ok(Subject::Shared {
            layout,
            dtype: t.map(|t| t.dtype).unwrap_or(DType::F32),
            title: text.trim().to_string(),
        }),
    }
}

enum TileKind {
    Reg(RegisterLayout),
    Shared(SharedLayout),
}

/// One tile type (or bare register layout) at byte `at` of `whole`.
fn parse_tile(
    ctx: &mut Context,
    piece: &str,
    at: usize,
    whole: &str,
    threads: i64,
) -> Result<(TileKind, Option<TensorType>), Diagnostic> {
    let lead = piece.len() - piece.trim_start().len();
    let trimmed = piece.trim();
    let start = at + lead;
    let end = start + trimmed.len();
    let here =
        |msg: String| Diagnostic::error(DiagLoc::Span(Span::new(start, end.max(start + 1))), msg);
    if trimmed.is_empty() {
        return Err(Diagnostic::error(
            DiagLoc::Span(Span::new(at.min(whole.len()), (at + 1).min(whole.len().max(1)))),
            "expected a tile type such as '!tilus.reg<16x16xf32, layout = spatial(16, 16)>' or a register layout such as 'spatial(8, 4) * local(2, 2)'",
        ));
    }
    if !trimmed.starts_with('!') {
        return match RegisterLayout::parse(trimmed) {
            Ok(l) => Ok((TileKind::Reg(l), None)),
            Err(e) => {
                let p = start + e.offset.min(trimmed.len());
                Err(Diagnostic::error(
                    DiagLoc::Span(Span::new(p, (p + 1).min(whole.len()).max(p))),
                    format!("invalid register layout: {}", e.message),
                ))
            }
        };
    }
    // Parse the whole text so spans are offsets into it, starting at this piece.
    let mut p = tilus_ir::Parser::new(ctx, &whole[..end], "<draw-layout>");
    p.set_pos(start);
    let ty = p.parse_type()?;
    p.skip_ws();
    if p.pos() < end {
        return Err(Diagnostic::error(
            DiagLoc::Span(Span::new(p.pos(), end)),
            "unexpected text after the type",
        ));
    }
    let Some(t) = TensorType::of(ctx, ty) else {
        return Err(here(format!(
            "'{}' is not a tile type: pictures are drawn for !tilus.reg and !tilus.shared tiles and for register layouts",
            trimmed
        )));
    };
    match t.space {
        Space::Register => {
            let l = reg_layout_of(&t, threads).map_err(here)?;
            Ok((TileKind::Reg(l), Some(t)))
        }
        Space::Shared => {
            let l = t.shared_layout().map_err(here)?;
            Ok((TileKind::Shared(l), Some(t)))
        }
        _ => Err(here(format!(
            "'{}' is a {} tensor: pictures are drawn for register and shared tiles",
            trimmed,
            t.space.type_name()
        ))),
    }
}

/// One picture of a module: its file stem and what it shows.
pub struct ModulePicture {
    pub stem: String,
    pub subject: Subject,
}

/// Every picture of the kernels of `module`: each register and shared tile an op makes, and
/// each access between the two (`tilus.load_shared`, `tilus.store_shared`). `where_` gives an
/// op's source position as `line_col` (empty when unknown), for file names.
pub fn module_pictures(
    ctx: &Context,
    module: OpId,
    where_: &dyn Fn(OpId) -> String,
) -> Vec<ModulePicture> {
    use tilus_dialects::tilus::{KernelOp, LoadSharedOp, StoreSharedOp};
    let mut ops = Vec::new();
    ctx.walk(module, &mut |o| ops.push(o));
    let mut out = Vec::new();
    let mut used: HashMap<String, usize> = HashMap::new();
    for o in ops {
        let mut kernel = None;
        let mut cur = ctx.parent_op(o);
        while let Some(p) = cur {
            if let Some(k) = KernelOp::cast(ctx, p) {
                kernel = Some(k.sym_name(ctx).to_string());
                break;
            }
            cur = ctx.parent_op(p);
        }
        let Some(kernel) = kernel else { continue };
        let threads = tilus_dialects::threadgroup::group_of(ctx, o).map_or(128, |g| g.size);
        let opname = ctx.op_name_str(o).to_string();
        let at = where_(o);
        let mut stem_of = |what: &str| {
            let base = format!("{kernel}.{at}.{opname}{what}");
            let n = used.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                base
            } else {
                format!("{base}.{n}")
            }
        };
        let title_at = format!("@{kernel}: {opname} at {}", at.replace('_', ":"));
        let tile = |v: tilus_ir::Value| TensorType::of(ctx, ctx.value_type(v));
        let access = if let Some(s) = StoreSharedOp::cast(ctx, o) {
            Some((s.value(ctx), s.dst(ctx), true))
        } else {
            LoadSharedOp::cast(ctx, o).map(|l| (l.result(ctx), l.src(ctx), false))
        };
        if let Some((r, s, store)) = access {
            if let (Some(rt), Some(st)) = (tile(r), tile(s)) {
                if let (Ok(rl), Ok(sl)) = (reg_layout_of(&rt, threads), st.shared_layout()) {
                    if rl.shape == sl.shape {
                        out.push(ModulePicture {
                            stem: stem_of(".access"),
                            subject: Subject::Access {
                                reg: rl,
                                shared: sl,
                                dtype: st.dtype,
                                store,
                                title: format!("{title_at}: bank conflicts of the access"),
                            },
                        });
                    }
                }
            }
        }
        for (i, &r) in ctx.results(o).iter().enumerate() {
            let Some(t) = tile(r) else { continue };
            let suffix = if ctx.results(o).len() == 1 {
                String::new()
            } else {
                format!(".{i}")
            };
            let title = format!("{title_at}, result {i}: {}", t.text());
            let subject = match t.space {
                Space::Register => match reg_layout_of(&t, threads) {
                    Ok(layout) => Subject::Reg {
                        layout,
                        dtype: Some(t.dtype),
                        title,
                    },
                    Err(_) => continue,
                },
                Space::Shared => match t.shared_layout() {
                    Ok(layout) => Subject::Shared {
                        layout,
                        dtype: t.dtype,
                        title,
                    },
                    Err(_) => continue,
                },
                _ => continue,
            };
            out.push(ModulePicture {
                stem: stem_of(&suffix),
                subject,
            });
        }
    }
    out
}
