//! The `tilus-run --timeline` page in a real browser (`cargo test -p tilus-tests --test
//! timeline_browser`): headless Chromium opens the timeline of a deadlocking kernel and of the
//! warp-specialized matmul, and each must render with no console error and a screenshot that
//! is not blank (many distinct pixel colours). A page with an injected script error must be
//! caught the same way, so the check cannot pass by not looking.
//!
//! The browser is `$CHROMIUM`, else `chromium`, `chromium-browser` or `google-chrome` on
//! `PATH` (`scripts/test.sh` installs Debian's `chromium` when apt is usable). Without one the
//! cases are reported as ignored, with the reason printed.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tilus_tests::{tool_path, workspace_root};

fn find_browser() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Ok(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    Err(
        "no headless browser: install chromium (scripts/test.sh does it with apt) or set CHROMIUM"
            .into(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "tilus-timeline-browser-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `tilus-run FILE --timeline OUT` and returns OUT (the run may fail: that is the point of
/// the deadlock case).
fn timeline_of(example: &str, dir: &Path) -> Result<PathBuf, Failed> {
    let out = dir.join("timeline.html");
    let o = Command::new(tool_path("tilus-run"))
        .arg(workspace_root().join(example))
        .args(["--backend", "interp", "--timeline"])
        .arg(&out)
        .env("TILUS_NO_PROGRESS", "1")
        .output()
        .map_err(|e| format!("cannot run tilus-run: {e}"))?;
    if !out.is_file() {
        return Err(format!(
            "no timeline written (exit {:?}):\n{}",
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
        )
        .into());
    }
    Ok(out)
}

/// Opens `page` headless, screenshots it; returns the console errors and the PNG.
fn screenshot(browser: &Path, page: &Path, dir: &Path) -> Result<(Vec<String>, Vec<u8>), Failed> {
    let png = dir.join("shot.png");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1300,900",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", browser.display()))?;
    let start = Instant::now();
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            return Err("the browser did not finish in 120 s".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let log = String::from_utf8_lossy(&out.stderr);
    let errors = log
        .lines()
        .filter(|l| l.contains(":CONSOLE") && (l.contains("Uncaught") || l.contains("Error")))
        .map(str::to_string)
        .collect();
    let bytes = std::fs::read(&png).map_err(|e| format!("no screenshot ({e}):\n{log}"))?;
    Ok((errors, bytes))
}

/// The number of distinct colours of an 8-bit RGB or RGBA PNG (non-interlaced), decoded here.
fn distinct_colours(png: &[u8]) -> Result<usize, String> {
    if png.len() < 8 || &png[..8] != b"\x89PNG\r\n\x1a\n" {
        return Err("not a PNG".into());
    }
    let (mut w, mut h, mut channels) = (0usize, 0usize, 0usize);
    let mut idat = Vec::new();
    let mut i = 8;
    while i + 8 <= png.len() {
        let len = u32::from_be_bytes(png[i..i + 4].try_into().unwrap()) as usize;
        let kind = &png[i + 4..i + 8];
        let data = png.get(i + 8..i + 8 + len).ok_or("truncated chunk")?;
        match kind {
            b"IHDR" => {
                w = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                h = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                if data[8] != 8 || data[12] != 0 {
                    return Err("only 8-bit non-interlaced PNGs are decoded".into());
                }
                channels = match data[9] {
                    2 => 3,
                    6 => 4,
                    c => return Err(format!("PNG colour type {c} is not decoded")),
                };
            }
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        i += 12 + len;
    }
    let raw = miniz_oxide::inflate::decompress_to_vec_zlib(&idat)
        .map_err(|e| format!("inflate: {e:?}"))?;
    let stride = w * channels;
    if raw.len() < h * (stride + 1) {
        return Err("short image data".into());
    }
    let mut prev = vec![0u8; stride];
    let mut colours = std::collections::HashSet::new();
    for y in 0..h {
        let line = &raw[y * (stride + 1)..(y + 1) * (stride + 1)];
        let (filter, src) = (line[0], &line[1..]);
        let mut cur = vec![0u8; stride];
        for x in 0..stride {
            let a = if x >= channels {
                cur[x - channels] as i16
            } else {
                0
            };
            let b = prev[x] as i16;
            let c = if x >= channels {
                prev[x - channels] as i16
            } else {
                0
            };
            let pred = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => (a + b) / 2,
                4 => {
                    let p = a + b - c;
                    let (pa, pb, pc) = ((p - a).abs(), (p - b).abs(), (p - c).abs());
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => return Err(format!("bad PNG filter {f}")),
            };
            cur[x] = src[x].wrapping_add(pred as u8);
        }
        for px in cur.chunks(channels) {
            colours.insert(px.to_vec());
        }
        prev = cur;
    }
    Ok(colours.len())
}

fn renders(browser: &Path, example: &str, name: &str) -> Result<(), Failed> {
    let dir = scratch(name);
    let page = timeline_of(example, &dir)?;
    let (errors, png) = screenshot(browser, &page, &dir)?;
    if !errors.is_empty() {
        return Err(format!("console errors:\n{}", errors.join("\n")).into());
    }
    let n = distinct_colours(&png)?;
    // A blank page has one colour; text alone a few dozen (anti-aliasing). The lanes, spans and
    // markers add many more.
    if n < 8 {
        return Err(format!("the screenshot looks blank: {n} distinct colours").into());
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The console check finds a script error injected into a real timeline page.
fn catches_errors(browser: &Path) -> Result<(), Failed> {
    let dir = scratch("control");
    let page = timeline_of("test/run/broken/missing-arrive.mlir", &dir)?;
    let html = std::fs::read_to_string(&page).map_err(|e| e.to_string())?;
    let bad = dir.join("bad.html");
    std::fs::write(
        &bad,
        html.replacen(
            "<script>",
            "<script>notAFunctionAnywhere();</script><script>",
            1,
        ),
    )
    .map_err(|e| e.to_string())?;
    let (errors, _) = screenshot(browser, &bad, &dir)?;
    if errors.is_empty() {
        return Err("an injected script error was not reported: the console check is blind".into());
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let browser = find_browser();
    if let Err(why) = &browser {
        println!("timeline_browser: cases ignored: {why}");
    }
    let missing = browser.is_err();
    let b = browser.unwrap_or_default();
    let cases: [(&str, &str); 2] = [
        ("deadlock", "test/run/broken/missing-arrive.mlir"),
        (
            "warp_specialized",
            "examples/hopper_matmul_v3_warp_specialized.mlir",
        ),
    ];
    let mut trials = Vec::new();
    for (name, example) in cases {
        let b = b.clone();
        trials.push(
            Trial::test(format!("timeline_renders::{name}"), move || {
                renders(&b, example, name)
            })
            .with_ignored_flag(missing),
        );
    }
    let bb = b.clone();
    trials.push(
        Trial::test("console_errors_are_caught", move || catches_errors(&bb))
            .with_ignored_flag(missing),
    );
    libtest_mimic::run(&args, trials).exit();
}
