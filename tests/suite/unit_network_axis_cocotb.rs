//! The AXI4-Stream network (`generate network --interface axis`) driven by cocotbext-axi in
//! cocotb (tests/suite/axis_cocotb.py): random messages from every node of K(2,2) with
//! random gaps and backpressure on every stream, every status beat, arrival, tid and byte
//! checked. One run with roomy FIFOs and sinks always ready, one with 16-byte FIFOs (one
//! whole message) and sinks ready a tenth of the cycles, where the FIFOs refuse worms and
//! more messages fail. make test runs Icarus; verify-full runs Verilator and GHDL too.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::kautzgen;

/// Messages each of the 6 nodes sends (axis_cocotb.py's default).
const MESSAGES: u64 = 6 * 8;

/// The project's Python, where `make venv` installs cocotb, cocotbext-axi and verilator.
fn python() -> PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    let found = Command::new(&python)
        .args(["-c", "import cocotb_tools.runner, cocotbext.axi"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "cocotb or cocotbext-axi is not installed in {}: run make venv",
        python.display()
    );
    python
}

/// Generates K(2,2) with `--interface axis` and `extra` options, runs axis_cocotb.py in
/// `sim` with sinks ready `sink_ready` of the cycles and returns the messages (delivered,
/// failed) after checking that the summary reports nothing lost, duplicated, out of order,
/// corrupted, no failed message arrived and no rx_error.
fn run(sim: &str, extra: &[&str], sink_ready: &str) -> (u64, u64) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("net");
    let out_arg = out.to_str().unwrap();
    let args = [
        &[
            "generate",
            "network",
            "--d",
            "2",
            "--k",
            "2",
            "--interface",
            "axis",
        ][..],
        extra,
        &["--out", out_arg],
    ]
    .concat();
    let (status, _, stderr) = kautzgen(&args);
    assert_eq!(status, 0, "{stderr}");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suite/axis_cocotb.py");
    // Verilator's make compiles the design as one C++ file, as in exported_testbench.rs.
    let makeflags = std::env::var("MAKEFLAGS").unwrap_or_default() + " VM_PARALLEL_BUILDS=0";
    let output = Command::new(python())
        .arg(&script)
        .args([out_arg, sim, "--sink-ready", sink_ready])
        .env("MAKEFLAGS", makeflags.trim_start())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("axis: "))
        .unwrap_or_else(|| panic!("{sim}: no summary line\n{stdout}\n{stderr}"));
    assert!(output.status.success(), "{sim}: {line}\n{stdout}\n{stderr}");
    let words: Vec<&str> = line.split(' ').collect();
    let delivered: u64 = words[5].parse().unwrap();
    let failed: u64 = words[7].parse().unwrap();
    assert_eq!(
        line,
        format!(
            "axis: 6 sources, {MESSAGES} messages, {delivered} delivered, {failed} failed, \
             0 lost, 0 duplicated, 0 out of order, 0 corrupted, 0 failed arrived, 0 rx_error"
        ),
        "{sim}"
    );
    assert_eq!(delivered + failed, MESSAGES, "{sim}: {line}");
    (delivered, failed)
}

/// Both runs in `sim`: every message accounted for in each, and the small FIFOs with slow
/// sinks fail more messages than roomy FIFOs with sinks always ready (the same messages
/// and gaps from the same seed), because they refuse worms.
fn both_runs(sim: &str) {
    let (_, roomy) = run(sim, &["--rx-bytes", "128"], "1.0");
    let (_, small) = run(sim, &["--rx-bytes", "16", "--max-bytes", "16"], "0.1");
    assert!(
        small > roomy,
        "{sim}: small FIFOs failed {small} messages, roomy ones {roomy}"
    );
}

#[test]
fn axis_network_in_cocotb_icarus() {
    both_runs("icarus");
}

#[test]
#[ignore = "25 s; make test runs the same in Icarus and GHDL; make verify-full runs it"]
fn axis_network_in_cocotb_verilator() {
    both_runs("verilator");
}

#[test]
fn axis_network_in_cocotb_ghdl() {
    both_runs("ghdl");
}
