//! Any string → `parse_pipeline` returns `Ok` or a diagnostic, never panics.
//!
//! Also checks the documented property of `to_pipeline_string` ("one-line pipeline text that
//! parses back to this pipeline"): printing, reparsing and printing again gives the same text;
//! and renders every diagnostic against the pipeline text (as tilus-opt does), so bad spans show.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tilus_ir::source::{render, render_mlir_style, SourceFile};
use tilus_passes::{parse_pipeline, Nesting};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = SourceFile::new("<pass-pipeline>", text);
    for nesting in [Nesting::Explicit, Nesting::Implicit] {
        match parse_pipeline(text, nesting) {
            Ok(pm) => {
                let s1 = pm.to_pipeline_string();
                let _ = pm.to_pretty_string();
                let pm2 = match parse_pipeline(&s1, nesting) {
                    Ok(p) => p,
                    Err(d) => panic!(
                        "printed pipeline does not parse ({nesting:?}): {}\n input: {text:?}\n printed: {s1:?}",
                        d.message
                    ),
                };
                let s2 = pm2.to_pipeline_string();
                assert_eq!(s1, s2, "pipeline print/parse not a fixed point ({nesting:?}); input: {text:?}");
            }
            Err(d) => {
                let _ = render(None, None, &file, &d);
                let _ = render_mlir_style(None, None, &file, &d);
            }
        }
    }
});
