//! The IR core's files keep to their layers (docs/guide/ir-core.md, "Layers"): no `crate::`
//! edge goes from a lower layer to a higher one, so no import cycle crosses layers.
//! `scripts/ir-layers.py` is the check; this test runs it so that an edge going up fails the
//! suite instead of waiting for someone to run the script.

use std::path::Path;
use std::process::Command;

#[test]
fn no_edge_goes_up_a_layer() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/ir-layers.py");
    let out = match Command::new("python3").arg(&script).output() {
        Ok(out) => out,
        // The check needs Python; a machine without it cannot run it, which is not a failure
        // of the layering.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("python3 not found; skipping the layer check");
            return;
        }
        Err(e) => panic!("running {}: {e}", script.display()),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "scripts/ir-layers.py reports upward edges:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(", 0 upward"),
        "unexpected report:\n{stdout}"
    );
}
