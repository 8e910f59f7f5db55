//! Helpers shared by the ptxas test files: finding `ptxas` and assembling PTX with it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The ptxas to use, if any: `$PTXAS`, then `PATH`, then the cache `scripts/test.sh` fills.
pub fn find_ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXAS").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    if let Some(path) = std::env::var_os("PATH") {
        if let Some(p) = std::env::split_paths(&path)
            .map(|d| d.join("ptxas"))
            .find(|p| p.is_file())
        {
            return Some(p);
        }
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    let p = cache.join("tilus/ptxas/bin/ptxas");
    p.is_file().then_some(p)
}

/// The `.target` of a PTX file.
pub fn target_of(ptx: &str) -> String {
    ptx.lines()
        .find_map(|l| l.strip_prefix(".target "))
        .map(|t| t.trim().to_string())
        .expect("a .target line")
}

/// Assembles `ptx` for its own `.target`.
pub fn assemble(name: &str, ptx: &str) {
    assemble_for(name, &target_of(ptx), ptx)
}

/// Assembles `ptx` with `ptxas -arch=target`; panics with ptxas's output when it rejects it.
/// Without ptxas the check is skipped with a message, unless `TILUS_REQUIRE_PTXAS=1`.
pub fn assemble_for(name: &str, target: &str, ptx: &str) {
    run_ptxas(name, target, ptx, false);
}

/// Assembles `ptx` for its own `.target` with `ptxas -v` and returns ptxas's report (registers,
/// spill stores), or `None` without ptxas (as `assemble_for` skips).
pub fn assemble_verbose(name: &str, ptx: &str) -> Option<String> {
    run_ptxas(name, &target_of(ptx), ptx, true)
}

fn run_ptxas(name: &str, target: &str, ptx: &str, verbose: bool) -> Option<String> {
    let Some(ptxas) = find_ptxas() else {
        if std::env::var("TILUS_REQUIRE_PTXAS").is_ok_and(|v| v == "1") {
            panic!("{name}: no ptxas found and TILUS_REQUIRE_PTXAS=1 (set PTXAS or run scripts/test.sh)");
        }
        eprintln!("ptxas: skipped for '{name}': no ptxas found (set PTXAS, or run scripts/test.sh to fetch one)");
        return None;
    };
    let dir = std::env::temp_dir().join(format!("tilus-ptxas-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join(format!("{name}.ptx"));
    let output = dir.join(format!("{name}.cubin"));
    std::fs::write(&input, ptx).expect("write ptx");
    let out = Command::new(&ptxas)
        .args(verbose.then_some("-v"))
        .arg(format!("-arch={target}"))
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", ptxas.display()));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{name}: ptxas -arch={target} rejected the PTX:\n{}{}\n--- PTX ---\n{ptx}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}
