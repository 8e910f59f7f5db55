//! Shared helpers for the test harnesses: where the workspace's tools live.
//!
//! The harnesses run the real binaries (`tilus-opt`, `tilus-run`, `tilus-filecheck`) the way a user
//! would, so they need to find them next to the test executable in the same target profile.

use std::path::{Path, PathBuf};

/// The workspace root (the folder holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The target profile folder (`target/debug` or `target/release`) of the running test binary.
///
/// Test binaries live in `target/<profile>/deps`; the workspace binaries one level up.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps folder");
    deps.parent().expect("profile folder").to_path_buf()
}

/// Path of a workspace binary, e.g. `tool_path("tilus-opt")`; panics with the build command to run
/// when it has not been built, since every harness needs it.
pub fn tool_path(name: &str) -> PathBuf {
    let p = profile_dir().join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if !p.exists() {
        panic!(
            "{} is not built; run `cargo build --workspace --bins` (same profile as the tests) first",
            p.display()
        );
    }
    p
}
