//! What the tests share: running the binary, reading netsim's JSON (validated against its
//! schema, docs/netsim.schema.json), writing a design in both languages, and a one-node
//! Slurm cluster ([`slurm`]).

pub mod slurm;

use kautzgen::emit::manifest::Manifest;
use kautzgen::emit::names::Language;
use kautzgen::emit::{Provenance, write_design};
use kautzgen::rtl::ir::Design;
use kautzgen::synth::equiv::{Setup, Verdict, prove};
use kautzgen::synth::lint::lint;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

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

/// netsim's JSON output `stdout`, parsed and checked against docs/netsim.schema.json;
/// panics with the validator's errors if it does not follow the schema.
pub fn netsim_json(stdout: &str) -> Value {
    let value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    if let Err(errors) = netsim_schema_errors(&value) {
        panic!("{errors}\nin {stdout}");
    }
    value
}

/// Runs kautzgen with `args`, which must succeed, and returns its JSON, checked against
/// docs/netsim.schema.json.
pub fn netsim_run(args: &[&str]) -> Value {
    let (status, stdout, stderr) = kautzgen(args);
    assert_eq!(status, 0, "{args:?}: {stderr}");
    netsim_json(&stdout)
}

/// Whether `value` follows docs/netsim.schema.json: the validator's errors if not. The
/// schema is compiled once for every test.
pub fn netsim_schema_errors(value: &Value) -> Result<(), String> {
    static SCHEMA: OnceLock<(boon::Schemas, boon::SchemaIndex)> = OnceLock::new();
    let (schemas, index) = SCHEMA.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/netsim.schema.json");
        let text = std::fs::read_to_string(path).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        let url = format!("file://{path}");
        let mut compiler = boon::Compiler::new();
        compiler.add_resource(&url, schema).unwrap();
        let mut schemas = boon::Schemas::new();
        let index = compiler
            .compile(&url, &mut schemas)
            .unwrap_or_else(|e| panic!("{e:#}"));
        (schemas, index)
    });
    schemas
        .validate(value, *index)
        .map_err(|e| format!("{e:#}"))
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
