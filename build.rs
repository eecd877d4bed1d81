//! Records the git commit kautzgen is built from, for `kautzgen --version`
//! (`KAUTZGEN_VERSION`) and for the JSON of `netsim` (`KAUTZGEN_COMMIT`: the commit's 12
//! hex digits, or `unknown`).

use std::path::Path;
use std::process::Command;

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    let version = match &commit {
        Some(commit) => format!("{} (commit {commit})", env!("CARGO_PKG_VERSION")),
        None => format!(
            "{} (commit unknown: not built from a git checkout)",
            env!("CARGO_PKG_VERSION")
        ),
    };
    println!("cargo:rustc-env=KAUTZGEN_VERSION={version}");
    let commit = commit.as_deref().unwrap_or("unknown");
    println!("cargo:rustc-env=KAUTZGEN_COMMIT={commit}");
    // A new commit or another branch changes the version. Only files that exist are
    // watched: cargo takes a missing one as changed, and would rebuild every time.
    let mut watched = vec![".git/HEAD".to_string(), ".git/packed-refs".to_string()];
    if let Some(head) = std::fs::read_to_string(".git/HEAD")
        .ok()
        .and_then(|h| h.strip_prefix("ref: ").map(|r| r.trim().to_string()))
    {
        watched.push(format!(".git/{head}"));
    }
    for path in watched.iter().filter(|p| Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// What `git ARGS` prints, trimmed; `None` without git or outside a checkout.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}
