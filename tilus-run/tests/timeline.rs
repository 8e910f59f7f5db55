//! What `tilus-run --timeline` writes: the lanes, spans and markers of a run, the stop of every
//! group of a deadlocking kernel with the barrier it waits on, the report of a failed run, the
//! async engines of the warp-specialized matmul, and the bound on big grids.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `tilus-run FILE ARGS --timeline OUT`; returns the run and the page.
fn timeline(file: &str, args: &[&str], name: &str) -> (Output, String) {
    let out =
        std::env::temp_dir().join(format!("tilus-timeline-{name}-{}.html", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_tilus-run"))
        .arg(root().join(file))
        .args(["--backend", "interp"])
        .args(args)
        .arg("--timeline")
        .arg(&out)
        .env("TILUS_NO_PROGRESS", "1")
        .output()
        .unwrap();
    let html = std::fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("no timeline ({e}): {}", String::from_utf8_lossy(&o.stderr)));
    let _ = std::fs::remove_file(&out);
    (o, html)
}

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

/// The lane titles of the page, in order.
fn lanes(html: &str) -> Vec<String> {
    html.split(r#"<text class="lane""#)
        .skip(1)
        .filter_map(|s| {
            let s = &s[s.find('>')? + 1..];
            Some(s[..s.find('<')?].to_string())
        })
        .collect()
}

#[test]
fn a_deadlock_shows_where_each_group_stopped() {
    let (o, html) = timeline("test/run/broken/missing-arrive.mlir", &[], "deadlock");
    assert_eq!(o.status.code(), Some(1));
    // Written even though the run failed, self-contained.
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("<script src") && !html.contains("<link") && !html.contains("https://"));
    // The three blocked units: both warps at their mbarrier.wait, the third at the sync.
    assert_eq!(count(&html, r#"<rect class="stuck""#), 3, "{html}");
    assert_eq!(count(&html, r#"<text class="stuck-label""#), 3);
    assert!(html.contains("stopped here, waiting since step"));
    assert!(html.contains(
        "mbarrier.wait: barrier 0 for the phase of parity 0 (at the wait: phase 0, pending arrivals 32 of 32, tx-count 0)"
    ), "{html}");
    assert!(html.contains("threadgroup.sync: threads [0, 96)"));
    // The groups are lanes of their own.
    let l = lanes(&html);
    for want in ["threads [0, 32)", "threads [32, 64)", "threads [64, 96)"] {
        assert!(l.iter().any(|x| x == want), "{want} not in {l:?}");
    }
    // The report: a line at the step it fired and its text under the picture.
    assert_eq!(count(&html, r#"<g class="report""#), 1);
    assert!(html.contains(
        "deadlock: every live unit is blocked (3 units, no asynchronous work in flight)"
    ));
    assert!(
        html.contains("missing-arrive.mlir:"),
        "source positions of ops"
    );
}

#[test]
fn the_warp_specialized_matmul_shows_waits_arrivals_and_async_ops() {
    let (o, html) = timeline(
        "examples/hopper_matmul_v3_warp_specialized.mlir",
        &["--no-reference"],
        "ws",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(count(&html, r#"<rect class="compute""#) > 0);
    assert!(count(&html, r#"<rect class="wait""#) > 10);
    assert!(count(&html, r#"<rect class="arrive""#) > 10);
    // Every TMA copy and wgmma from issue to completion, completed (no run stopped).
    assert!(count(&html, r#"<rect class="tma""#) > 0);
    assert!(count(&html, r#"<rect class="wgmma""#) > 0);
    assert!(html.contains("TMA copy (tma.global_to_shared): issued at step"));
    assert!(!html.contains("still in flight"));
    assert_eq!(count(&html, r#"<rect class="stuck""#), 0);
    assert_eq!(count(&html, r#"<g class="report""#), 0);
    // Waits name their barrier, phase parity and state; arrivals their count and barrier.
    assert!(html.contains("mbarrier.wait: barrier "));
    assert!(html.contains("arrival") && html.contains("on barrier"));
    // One section per cluster, with a producer and consumer lanes.
    assert!(count(&html, "<section") >= 1);
    let l = lanes(&html);
    assert!(l.iter().any(|x| x.starts_with("TMA (")), "{l:?}");
    assert!(l.iter().any(|x| x.starts_with("WGMMA (")), "{l:?}");
}

#[test]
fn misuse_reports_are_marked() {
    for (file, text) in [
        (
            "test/run/broken/arrivals-beyond-expected.mlir",
            "arrivals beyond the expected count",
        ),
        ("test/run/broken/read-before-tma-wait.mlir", "TMA copy"),
        (
            "test/run/broken/shared-out-of-bounds.mlir",
            "out-of-bounds shared access",
        ),
    ] {
        let (o, html) = timeline(file, &[], "misuse");
        assert_eq!(o.status.code(), Some(1), "{file}");
        assert_eq!(count(&html, r#"<g class="report""#), 1, "{file}");
        let report = &html[html.find(r#"<pre class="report-text">"#).expect(file)..];
        assert!(report.contains(text), "{file}: {report}");
    }
}

#[test]
fn big_grids_keep_a_bounded_number_of_clusters() {
    let (o, html) = timeline("examples/vector_add.mlir", &["--arg", "n=40000"], "big");
    assert!(o.status.success());
    assert_eq!(count(&html, "<section"), 4);
    assert!(html.contains("36 more clusters ran without a report and were not recorded"));
}

#[test]
fn timeline_needs_the_interpreter() {
    let o = Command::new(env!("CARGO_BIN_EXE_tilus-run"))
        .arg(root().join("examples/vector_add.mlir"))
        .args(["--backend", "cuda", "--timeline", "/nonexistent/t.html"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--timeline records a run of the CPU interpreter"));
}
