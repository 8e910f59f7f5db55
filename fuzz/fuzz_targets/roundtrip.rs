//! parse → print → parse → print must be a fixed point, for inputs that parse and verify.
//!
//! For the generic form (`--print-op-generic`), the generic form with `--print-debuginfo`, and the
//! custom form (the default):
//!   text1 = print(parse(input)); text2 = print(parse(text1)); assert text1 == text2.
//! Unregistered ops are allowed (`--allow-unregistered-dialect`). Printed text must also parse and
//! verify again (a printer that writes something the parser rejects is a bug of the same kind).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tilus_ir::{Context, PrintOptions};

const NAME: &str = "fuzz.mlir";

fn parse_verified(src: &str) -> Result<(Context, tilus_ir::OpId), String> {
    let mut ctx = Context::new();
    tilus_dialects::register_all(&mut ctx);
    // `--allow-unregistered-dialect`: most of the compat corpus is generic `"test.op"`s, and
    // without it the verifier stops at the first unknown op.
    ctx.allow_unregistered = true;
    let pf = tilus_ir::parse(&mut ctx, src, NAME)
        .map_err(|(d, _)| format!("parse: {:?}", d.first().map(|d| &d.message)))?;
    let diags = tilus_ir::verify(&ctx, pf.module);
    if !diags.is_empty() {
        return Err(format!("verify: {:?}", diags[0].message));
    }
    Ok((ctx, pf.module))
}

fn check(src: &str, opts: PrintOptions) {
    let Ok((ctx, m)) = parse_verified(src) else {
        return;
    };
    let text1 = tilus_ir::print_op(&ctx, m, opts);
    let (ctx2, m2) = match parse_verified(&text1) {
        Ok(x) => x,
        Err(e) => panic!(
            "printed output ({opts:?}) does not parse/verify again: {e}\n--- input ---\n{src}\n--- printed ---\n{text1}"
        ),
    };
    let text2 = tilus_ir::print_op(&ctx2, m2, opts);
    if text1 != text2 {
        panic!("round trip ({opts:?}) is not a fixed point\n--- input ---\n{src}\n--- print 1 ---\n{text1}\n--- print 2 ---\n{text2}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    // Cheap pre-check: most fuzz inputs do not parse, skip them before doing four round trips.
    if parse_verified(src).is_err() {
        return;
    }
    // Custom form with debuginfo is left out on purpose: custom forms do not print the locations
    // of entry-block arguments they declare themselves (`scf.for %iv = ...`), as in MLIR, so a
    // reparse gives those arguments new locations and the text cannot be a fixed point.
    for (generic, debuginfo) in [(true, false), (true, true), (false, false)] {
        check(
            src,
            PrintOptions {
                generic,
                debuginfo,
                local_scope: false,
            },
        );
    }
});
