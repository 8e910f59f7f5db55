//! Layout pictures (`--draw-layout`, `--draw-layouts`) as a user runs them: the text form
//! snapshotted whole, the SVG form by its structure (cell ids, counts, conflict outlines), and
//! the diagnostics for bad layout text, non-tile types and pictures too large to draw.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tilus_opt(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilus-opt"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn draw(text: &str, format: &str) -> String {
    let o = tilus_opt(&[
        &format!("--draw-layout={text}"),
        &format!("--draw-format={format}"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn draw_error(text: &str) -> String {
    let o = tilus_opt(&[&format!("--draw-layout={text}")]);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(o.stdout.is_empty());
    String::from_utf8(o.stderr).unwrap()
}

/// How many times `needle` occurs in `hay`.
fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

#[test]
fn register_layout_as_text() {
    insta::assert_snapshot!(draw(
        "!tilus.reg<4x8xf16, layout = spatial(2, 4) * local(2, 2)>",
        "text"
    ));
}

#[test]
fn replicated_elements_list_every_owner() {
    let t = draw("replicate(2) * spatial(2, 4)", "text");
    insta::assert_snapshot!(t);
    assert!(t.contains("T0|T8:R0"), "{t}");
}

#[test]
fn one_dimensional_and_three_dimensional_tiles() {
    insta::assert_snapshot!(
        "one_dim",
        draw("!tilus.reg<8xf32, layout = spatial(4) * local(2)>", "text")
    );
    insta::assert_snapshot!(
        "three_dim",
        draw("!tilus.reg<2x2x4xf32, layout = spatial(2, 2, 4)>", "text")
    );
}

#[test]
fn shared_layout_banks_follow_the_swizzle() {
    let t = draw("!tilus.shared<8x64xf16, swizzle = 128B>", "text");
    insta::assert_snapshot!(t);
    // Row 1 of a 128B-swizzled f16 tile starts at the second 16-byte chunk: bank 4, not 0.
    let banks: Vec<&str> = t.lines().skip_while(|l| !l.starts_with("banks")).collect();
    let row1: Vec<&str> = banks[3].split_whitespace().take(4).collect();
    assert_eq!(row1, ["1", "4", "4", "5"], "{}", banks[3]);
}

#[test]
fn bank_conflicts_of_a_store_are_counted() {
    // Each thread stores a row of 8 f16 (16 bytes); threads 0, 8, 16 and 24 hit bank 0.
    let t = draw(
        "!tilus.reg<16x16xf16, layout = spatial(16, 2) * local(1, 8)> -> !tilus.shared<16x16xf16>",
        "text",
    );
    insta::assert_snapshot!(t);
    assert!(t.contains("summary: 8 instructions, 8 with bank conflicts (worst 4-way); 32 wavefronts, ideal 8 (4.00x)"), "{t}");
}

#[test]
fn the_swizzle_removes_the_conflicts() {
    // A column-wise load of a 32x32 f32 tile: 32-way without a swizzle ...
    let plain = draw(
        "!tilus.shared<32x32xf32> -> !tilus.reg<32x32xf32, layout = local(1, 32) * spatial(32, 1)>",
        "text",
    );
    assert!(
        plain.contains("32 with bank conflicts (worst 32-way)"),
        "{plain}"
    );
    // ... and 4-way with the 128B swizzle: it spreads 8 consecutive rows over the 8 16-byte
    // chunks of a 128-byte row, so rows 8 apart still share a chunk.
    let swz = draw(
        "!tilus.shared<32x32xf32, swizzle = 128B> -> !tilus.reg<32x32xf32, layout = local(1, 32) * spatial(32, 1)>",
        "text",
    );
    assert!(swz.contains("(worst 4-way)"), "{swz}");
    // A row-wise store of the same tile has no conflicts.
    let rows = draw(
        "!tilus.reg<32x32xf32, layout = local(32, 1) * spatial(1, 32)> -> !tilus.shared<32x32xf32>",
        "text",
    );
    assert!(
        rows.contains(
            "32 instructions, 0 with bank conflicts (worst 1-way); 32 wavefronts, ideal 32"
        ),
        "{rows}"
    );
}

#[test]
fn svg_structure() {
    let s = draw(
        "!tilus.reg<4x8xf16, layout = spatial(2, 4) * local(2, 2)>",
        "svg",
    );
    assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(s.trim_end().ends_with("</svg>"));
    // One group per cell, each with a rect (plus the background) and a hover title.
    assert_eq!(count(&s, "class=\"cell\""), 32);
    assert_eq!(count(&s, "<rect"), 33);
    assert_eq!(count(&s, "<title>"), 32);
    assert!(s.contains("id=\"reg-0-0-0\"") && s.contains("id=\"reg-0-3-7\""));
    assert!(
        s.contains("element [3, 7]: register 3 of thread 7 (warp 0, lane 7)"),
        "{s}"
    );
    // Two warps' colours for 64 threads.
    let two = draw("spatial(8, 8)", "svg");
    assert_eq!(count(&two, "hsl(0, 65%, 78%)"), 32);
    assert_eq!(count(&two, "hsl(180, 65%, 78%)"), 32);

    let a = draw(
        "!tilus.reg<16x16xf16, layout = spatial(16, 2) * local(1, 8)> -> !tilus.shared<16x16xf16>",
        "svg",
    );
    assert_eq!(count(&a, "class=\"cell conflict\""), 256);
    assert_eq!(count(&a, "<desc class=\"instr conflict\">"), 8);
    let sh = draw("!tilus.shared<8x16xf32>", "svg");
    assert_eq!(count(&sh, "class=\"cell\""), 128);
    assert!(
        sh.contains("element [1, 0]: byte address 64, bank 16"),
        "{sh}"
    );
}

#[test]
fn diagnostics_for_bad_pictures() {
    let cases = [
        ("bad_layout", "spatial(2, 4) * bogus(1)"),
        (
            "layout_shape",
            "!tilus.reg<4x8xf16, layout = spatial(4, 9)>",
        ),
        ("not_a_tile", "!tilus.global<4x4xf32>"),
        ("scalar_type", "!tilus.ptr<f32>"),
        (
            "too_large",
            "!tilus.reg<1024x1024xf32, layout = spatial(32, 32) * local(32, 32)>",
        ),
        (
            "two_registers",
            "!tilus.reg<4x4xf32> -> !tilus.reg<4x4xf32>",
        ),
        (
            "shapes_differ",
            "!tilus.reg<4x4xf32> -> !tilus.shared<4x8xf32>",
        ),
        ("trailing", "!tilus.reg<4x4xf32> junk"),
        ("empty", ""),
    ];
    for (name, text) in cases {
        insta::assert_snapshot!(format!("error_{name}"), draw_error(text));
    }
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tilus-opt-draw-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn every_tile_of_a_kernel() {
    let dir = tmpdir("kernel");
    let input = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/hopper_matmul_v1_wgmma.mlir"
    );
    let o = tilus_opt(&[
        input,
        "--pass-pipeline=builtin.module(canonicalize)",
        &format!("--draw-layouts={}", dir.display()),
        "--draw-format=text",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let listing = String::from_utf8(o.stdout).unwrap();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{listing}");
    for f in &files {
        assert!(listing.contains(f.as_str()), "{f} not listed:\n{listing}");
        assert!(f.ends_with(".txt"));
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(text.starts_with('@'), "{f}: {text}");
    }
    // Register tiles (the wgmma accumulator) and shared tiles both get pictures.
    assert!(files.iter().any(|f| f.contains("wgmma.mma")), "{files:?}");
    assert!(files.iter().any(|f| f.contains("shared")), "{files:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn draw_layout_reads_no_input() {
    let o = tilus_opt(&["some.mlir", "--draw-layout=spatial(2)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--draw-layout draws the layout"));
    let o = tilus_opt(&["--draw-layout=spatial(2)", "--draw-threads=0"]);
    assert_eq!(o.status.code(), Some(2));
}
