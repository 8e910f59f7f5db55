//! The dialect reference pages in `docs/dialects/` are generated from the op declarations; this
//! test fails when they are stale. Regenerate with
//! `cargo run -p tilus-opt -- --dump-op-docs docs/dialects` (or run this test with `UPDATE_DOCS=1`).

use std::path::Path;
use tilus_ir::Context;

#[test]
fn dialect_docs_are_up_to_date() {
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/dialects");
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    for (ns, _) in ctx.dialects() {
        let want = tilus_ir::typedef::dialect_reference(&ctx, ns);
        let path = dir.join(format!("{ns}.md"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &want).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(have) if have == want => {}
            _ => stale.push(path.display().to_string()),
        }
    }
    assert!(
        stale.is_empty(),
        "stale dialect docs: {stale:?}; regenerate with `cargo run -p tilus-opt -- --dump-op-docs docs/dialects`"
    );
}

#[test]
fn every_declarative_format_parses_and_names_declared_things() {
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    for (_, ops) in ctx.dialects() {
        for op in ops {
            if let tilus_ir::opdef::Format::Declarative(f) = op.format {
                tilus_ir::format::parse_format(f).unwrap_or_else(|e| panic!("{}: {e}", op.name));
            }
        }
    }
}
