//! The pass reference `docs/reference/passes.md` is generated from the pass and pipeline
//! declarations; this test fails when it is stale. Regenerate with
//! `cargo run --release -p tilus-opt -- --dump-pass-docs docs/reference/passes.md` (or run this
//! test with `UPDATE_DOCS=1`).

use std::path::Path;

#[test]
fn pass_reference_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reference/passes.md");
    let want = tilus_passes::decl::markdown_reference();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "stale {}; regenerate with `cargo run --release -p tilus-opt -- --dump-pass-docs docs/reference/passes.md`",
        path.display()
    );
}

#[test]
fn the_reference_lists_every_pass_option_and_statistic() {
    let text = tilus_passes::decl::markdown_reference();
    for info in tilus_passes::registry() {
        assert!(text.contains(&format!("## `{}`", info.decl.name)));
        for o in info.decl.options {
            assert!(text.contains(&format!("| `{}` |", o.name)), "{}", o.name);
        }
        for s in info.decl.statistics {
            assert!(text.contains(&format!("| `{}` |", s.name)), "{}", s.name);
        }
    }
    assert!(text.contains("## `tilus-to-ptx`"));
}
