//! The router of the network-switch paper (Smit et al. 1991) (src/rtl/network/router.rs) in
//! hardware: lint-clean; its ports as docs/network.md lists them; every output in every
//! cycle equal to the model's in both simulators, plain and behind buffered switches
//! (acknowledged delivery, src/rtl/network/router_acked.rs); built-in faults caught; both
//! languages proved equal.

use crate::common;

use common::{CLOCKED_LINT, assert_lint_clean, write_both};
use kautzgen::fabric::switch::Flow;
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

/// The router of K(d,k) behind switches of flow control `flow`.
fn behind(flow: Flow, d: u64, k: u64) -> RouterParams {
    params(d, k, 16).with_flow(flow)
}

#[test]
fn routers_are_lint_clean() {
    for p in [
        params(2, 3, 16),
        params(3, 2, 16),
        params(1, 1, 1),
        behind(Flow::Vct, 2, 3),
        behind(Flow::Saf, 3, 2),
    ] {
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

/// Every output of the router `p` in every cycle of `cycles` (seed `seed`) equals the
/// model's in both simulators. Each router is a test of its own, so that they run side by
/// side.
fn every_output_equals_the_model_for(p: RouterParams, cycles: u64, seed: u64) {
    let (d, k) = (p.graph().unwrap().d(), p.graph().unwrap().k());
    let unit = RouterUnit::new(p, cycles, seed);
    let both: [&dyn Simulator; 2] = [&Verilator::default(), &Ghdl::default()];
    for simulator in both {
        assert_eq!(
            run(simulator, &unit).render(),
            format!("{}: {cycles} passed, 0 failed\n", simulator.name()),
            "K({d},{k})"
        );
    }
}

fn every_output_equals_the_model(d: u64, k: u64, seed: u64) {
    every_output_equals_the_model_for(params(d, k, 16), 4000, seed);
}

#[test]
fn every_output_of_k23_in_every_cycle_equals_the_model() {
    every_output_equals_the_model(2, 3, 1);
}

#[test]
fn every_output_of_k32_in_every_cycle_equals_the_model() {
    every_output_equals_the_model(3, 2, 2);
}

// Behind buffered switches the router acknowledges: 20,000 cycles each, long enough for
// attempts that time out (954 cycles on K(2,3)), ACKs that come just before and just after
// the bound, copies, stale ACKs, refused messages behind ACK jobs, and a full ACK queue.

#[test]
fn the_acknowledging_router_of_k23_under_vct_equals_the_model() {
    every_output_equals_the_model_for(behind(Flow::Vct, 2, 3), 20_000, 1);
}

#[test]
fn the_acknowledging_router_of_k23_under_saf_equals_the_model() {
    every_output_equals_the_model_for(behind(Flow::Saf, 2, 3), 20_000, 2);
}

#[test]
fn the_acknowledging_router_of_k32_equals_the_model() {
    every_output_equals_the_model_for(behind(Flow::Vct, 3, 2), 20_000, 3);
}

/// The router of K(2,3) (behind switches of `flow`) built with `fault` fails first with
/// `first`, in both simulators alike. Each fault is a test of its own, so that they run
/// side by side.
fn fault_is_caught(fault: RouterFault, first: &str) {
    let flow = match fault {
        RouterFault::AckTimeoutShort => Flow::Vct,
        _ => Flow::Nack,
    };
    let unit = RouterUnit::new(behind(flow, 2, 3).with_fault(Some(fault)), 4000, 1);
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
fn a_short_wait_for_an_ack_is_caught() {
    // The message fails after its second attempt times out: one cycle early, as the
    // source waits 953 cycles instead of 954.
    fault_is_caught(
        RouterFault::AckTimeoutShort,
        "after cycle 1507: tx_ready 1, expected 0; res_valid 1, expected 0; res_status 1, expected 0; res_attempts 2, expected 0",
    );
}

#[test]
fn a_fault_of_the_other_router_is_refused() {
    for (flow, fault, message) in [
        (
            "vct",
            "padding-forgotten",
            "error: --fault padding-forgotten is a fault of the router without acknowledged delivery: check it with --flow nack",
        ),
        (
            "nack",
            "ack-timeout-short",
            "error: --fault ack-timeout-short is a fault of the router with acknowledged delivery: check it with --flow vct or saf",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
            .args([
                "verify", "router", "--d", "2", "--k", "3", "--flow", flow, "--fault", fault,
            ])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{fault}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!("{message}\n")
        );
    }
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
    for (d, k, max_bytes, bits) in [("1", "1", "1", 173), ("2", "3", "16", 350)] {
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

/// Verilog == VHDL for the acknowledging router: about 3 minutes, so `make verify-full`
/// runs it.
#[test]
#[ignore = "about 3 minutes of yosys and GHDL: make verify-full runs it"]
fn both_languages_of_the_acknowledging_router_are_proved_equal() {
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(["prove", "router", "--d", "2", "--k", "3", "--flow", "vct"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.starts_with(
            "PROVED: the Verilog and the VHDL of kautz_router (d=2, k=3, max_bytes=16) have equal outputs"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "induction of length 1, strengthened by 2740 of 2740 register bits matched by name"
        ),
        "{stdout}"
    );
}
