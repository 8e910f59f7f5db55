//! Any bytes → `tilus_ir::parse` returns `Ok` or diagnostics, never panics or hangs.
//!
//! Non-UTF-8 inputs are skipped (tilus-opt rejects them before parsing). On success the module is
//! verified (with unregistered ops allowed); every diagnostic (parse or verify) is rendered both
//! ways tilus-opt renders them, so bad spans (out of range, inside a UTF-8 character) show up as
//! panics here.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tilus_ir::source::{render, render_mlir_style, SourceFile};
use tilus_ir::Context;

const NAME: &str = "fuzz.mlir";

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    // `--allow-unregistered-dialect`: most of the compat corpus is generic `"test.op"`s, and
    // without it the verifier stops at the first unknown op.
    ctx.allow_unregistered = true;
    let file = SourceFile::new(NAME, src);
    match tilus_ir::parse(&mut ctx, src, NAME) {
        Ok(pf) => {
            let diags = tilus_ir::verify(&ctx, pf.module);
            for d in &diags {
                let _ = render(Some(&ctx), Some(&pf.source_map), &file, d);
                let _ = render_mlir_style(Some(&ctx), Some(&pf.source_map), &file, d);
            }
        }
        Err((diags, map)) => {
            assert!(!diags.is_empty(), "parse failed without a diagnostic");
            for d in &diags {
                let _ = render(Some(&ctx), Some(&map), &file, d);
                let _ = render_mlir_style(Some(&ctx), Some(&map), &file, d);
            }
        }
    }
});
