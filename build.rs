//! Records the git commit kautzgen is built from, for `kautzgen --version`.

use std::process::Command;

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|changes| !changes.is_empty());
    let version = match commit {
        Some(commit) if dirty => {
            format!("{} (commit {commit}, modified)", env!("CARGO_PKG_VERSION"))
        }
        Some(commit) => format!("{} (commit {commit})", env!("CARGO_PKG_VERSION")),
        None => format!(
            "{} (commit unknown: not built from a git checkout)",
            env!("CARGO_PKG_VERSION")
        ),
    };
    println!("cargo:rustc-env=KAUTZGEN_VERSION={version}");
    // A new commit, or a change of branch, changes the version.
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/index");
    if let Some(head) = std::fs::read_to_string(".git/HEAD")
        .ok()
        .and_then(|h| h.strip_prefix("ref: ").map(|r| r.trim().to_string()))
    {
        println!("cargo:rerun-if-changed=.git/{head}");
    }
}

/// What `git ARGS` prints, trimmed; `None` without git or outside a checkout.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}
