//! What the command-line tests share: running the binary.

use std::process::Command;

/// Runs `kautzgen` with `args`: its exit status (-1 when killed), standard output and
/// standard error.
pub fn kautzgen(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
