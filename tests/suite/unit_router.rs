//! The router of the network-switch paper (Smit et al. 1991) (src/rtl/network/router.rs) in
//! hardware: lint-clean; its ports as docs/network.md lists them.

use crate::common;

use common::{CLOCKED_LINT, assert_lint_clean, write_both};
use kautzgen::rtl::ir::{Direction, SignalKind};
use kautzgen::rtl::network::router::{DEFAULT_TOP, RouterFault, RouterParams, design};
use kautzgen::sim::Simulator;
use kautzgen::sim::function::FunctionReport;
use kautzgen::sim::ghdl::Ghdl;
use kautzgen::sim::stream::verify;
use kautzgen::sim::verilator::Verilator;
use kautzgen::units::router::traffic::RouterUnit;
use std::process::Command;

fn params(d: u64, k: u64, max_bytes: u64) -> RouterParams {
    RouterParams::new(d, k, max_bytes, DEFAULT_TOP).unwrap()
}

#[test]
fn routers_are_lint_clean() {
    for p in [params(2, 3, 16), params(3, 2, 16), params(1, 1, 1)] {
        let dir = tempfile::tempdir().unwrap();
        write_both(dir.path(), &design(&p), "unit_router test");
        assert_lint_clean(dir.path(), &CLOCKED_LINT, &p.describe());
    }
}

#[test]
fn ports_as_the_document_lists_them() {
    // docs/network.md, the router: K(2,3) has W = 2, k*W = 6.
    let expected: Vec<(&str, u32, bool)> = vec![
        ("clk", 1, true),
        ("rst", 1, true),
        ("tx_valid", 1, true),
        ("tx_ready", 1, false),
        ("tx_data", 8, true),
        ("tx_last", 1, true),
        ("tx_dst", 6, true),
        ("res_valid", 1, false),
        ("res_status", 2, false),
        ("res_attempts", 2, false),
        ("rx_valid", 1, false),
        ("rx_data", 8, false),
        ("rx_first", 1, false),
        ("rx_last", 1, false),
        ("rx_src", 6, false),
        ("rx_len", 8, false),
        ("rx_error", 1, false),
        ("node", 6, true),
        ("net_valid", 1, false),
        ("net_ctl", 1, false),
        ("net_data", 8, false),
        ("net_nack", 1, true),
        ("arr_valid", 1, true),
        ("arr_ctl", 1, true),
        ("arr_data", 8, true),
    ];
    let got: Vec<(String, u32, bool)> = design(&params(2, 3, 16))
        .top()
        .ports()
        .map(|(_, s)| {
            let input = s.kind == SignalKind::Port(Direction::Input);
            (s.name.clone(), s.width, input)
        })
        .collect();
    let expected: Vec<(String, u32, bool)> = expected
        .into_iter()
        .map(|(n, w, i)| (n.to_string(), w, i))
        .collect();
    assert_eq!(got, expected);
}

fn run(simulator: &dyn Simulator, unit: &RouterUnit) -> FunctionReport {
    verify(simulator, unit, 2, None).unwrap_or_else(|e| panic!("{}: {e}", simulator.name()))
}

/// Every output of the router of K(d,k) in every cycle of 4000 (seed `seed`) equals the
/// model's in both simulators. Each graph is a test of its own, so that they run side by
/// side.
fn every_output_equals_the_model(d: u64, k: u64, seed: u64) {
    let cycles = 4000;
    let unit = RouterUnit::new(params(d, k, 16), cycles, seed);
    let both: [&dyn Simulator; 2] = [&Verilator::default(), &Ghdl::default()];
    for simulator in both {
        assert_eq!(
            run(simulator, &unit).render(),
            format!("{}: {cycles} passed, 0 failed\n", simulator.name()),
            "K({d},{k})"
        );
    }
}

#[test]
fn every_output_of_k23_in_every_cycle_equals_the_model() {
    every_output_equals_the_model(2, 3, 1);
}

#[test]
fn every_output_of_k32_in_every_cycle_equals_the_model() {
    every_output_equals_the_model(3, 2, 2);
}

/// The router of K(2,3) built with `fault` fails first with `first`, in both simulators
/// alike. Each fault is a test of its own, so that they run side by side.
fn fault_is_caught(fault: RouterFault, first: &str) {
    let unit = RouterUnit::new(params(2, 3, 16).with_fault(Some(fault)), 4000, 1);
    for simulator in [&Verilator::default() as &dyn Simulator, &Ghdl::default()] {
        let report = verify(simulator, &unit, 1, None).unwrap();
        assert!(report.failed > 0, "{fault:?}");
        assert_eq!(
            report.failures[0],
            first,
            "{fault:?} in {}",
            simulator.name()
        );
    }
}

#[test]
fn a_route_taken_late_is_caught() {
    fault_is_caught(
        RouterFault::RouteTakenLate,
        "after cycle 92: net_valid 0, expected 1; net_ctl 0, expected 1; net_data 00, expected 02",
    );
}

#[test]
fn forgotten_padding_is_caught() {
    fault_is_caught(
        RouterFault::PaddingForgotten,
        "after cycle 104: net_ctl 1, expected 0",
    );
}

#[test]
fn bad_parameters_exit_2_with_one_line() {
    let out = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            vec!["--d", "2", "--k", "3", "--max-bytes", "0"],
            "error: the message buffer holds 1 to 255 bytes, got --max-bytes 0",
        ),
        (
            vec!["--d", "16", "--k", "3"],
            "error: the router talks to a switch of d+1 ports, and a switch has d = 1 to 15, got --d 16",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
            .args(["generate", "router"])
            .args(&args)
            .arg("--out")
            .arg(out.path().join("r"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!("{message}\n")
        );
    }
}

#[test]
fn both_languages_are_proved_equal() {
    // Every register matched by name, the message buffer's words among them: the RAM is
    // named so that neither language renames it (`buffer` is a VHDL word), and it takes no
    // byte in a reset cycle, when the registers that decide a write are not yet set.
    for (d, k, max_bytes, bits) in [("1", "1", "1", 137), ("2", "3", "16", 309)] {
        let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
            .args([
                "prove",
                "router",
                "--d",
                d,
                "--k",
                k,
                "--max-bytes",
                max_bytes,
            ])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "K({d},{k}): {stdout}");
        assert!(
            stdout.starts_with(&format!(
                "PROVED: the Verilog and the VHDL of kautz_router (d={d}, k={k}, max_bytes={max_bytes}) have equal outputs"
            )),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!(
                "induction of length 1, strengthened by {bits} of {bits} register bits matched by name"
            )),
            "{stdout}"
        );
    }
}
