//! What the tests share: running the binary, and writing a design in both languages.

use kautzgen::emit::manifest::Manifest;
use kautzgen::emit::names::Language;
use kautzgen::emit::{Provenance, write_design};
use kautzgen::rtl::ir::Design;
use kautzgen::synth::equiv::{Setup, Verdict, prove};
use kautzgen::synth::lint::lint;
use std::path::Path;
use std::process::Command;

/// Runs `kautzgen` with `args`: its exit status (-1 when killed), standard output and
/// standard error.
pub fn kautzgen(args: &[&str]) -> (i32, String, String) {
    kautzgen_in(Path::new("."), args)
}

/// [`kautzgen`] run in `dir`.
pub fn kautzgen_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Writes `design` into `dir` in Verilog and VHDL, its files headed with `command` as the
/// command that made them: the manifest.
pub fn write_both(dir: &Path, design: &Design, command: impl Into<String>) -> Manifest {
    let provenance = Provenance {
        command: command.into(),
    };
    write_design(
        dir,
        design,
        &[Language::Verilog, Language::Vhdl],
        &provenance,
    )
    .unwrap()
}

/// The checks `lint` runs on a clocked design, in order.
pub const CLOCKED_LINT: [&str; 4] = [
    "verilator --lint-only -Wall",
    "yosys check -assert, no latches",
    "ghdl -a --std=08",
    "ghdl -e --std=08",
];

/// The checks `lint` runs on a self-timed design, in order.
pub const SELF_TIMED_LINT: [&str; 3] = [
    "iverilog -g2005 -Wall",
    "ghdl -a --std=08",
    "ghdl -e --std=08",
];

/// `lint` of the design in `dir` runs exactly `checks`, and each is clean; `what` names the
/// design in a failure.
pub fn assert_lint_clean(dir: &Path, checks: &[&str], what: &str) {
    let verdicts = lint(dir).unwrap_or_else(|e| panic!("{what}: {e}"));
    let ran: Vec<&str> = verdicts.iter().map(|v| v.check).collect();
    assert_eq!(ran, checks, "{what}");
    for v in verdicts {
        assert!(v.clean, "{what} {}:\n{}", v.check, v.log);
    }
}

/// `design`, written in both languages, is proved to have equal outputs in Verilog and in
/// VHDL, every register bit matched; `label` names it in the verdict, `what` in a failure.
pub fn assert_proved(design: &Design, label: &str, what: &str) {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("design");
    write_both(&dir, design, "tests/common");
    let work = scratch.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    match prove(&dir, &Setup::default(), &work).unwrap() {
        Verdict::Proved {
            matched_bits,
            register_bits,
            ..
        } => assert_eq!(matched_bits, register_bits, "{what}"),
        other => panic!("{what}: {}", other.render(label)),
    }
}
