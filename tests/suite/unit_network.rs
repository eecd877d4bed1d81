//! The whole network of the network-switch paper (Smit et al. 1991) in hardware
//! (src/rtl/kautz_network.rs): lint-clean, wired by the Kautz arcs, and equal to the golden
//! network model message for message in Verilator and GHDL, with and without faulty nodes;
//! the built-in wiring faults are caught; bad parameters give one line and exit status 2.

use crate::common;

use common::{CLOCKED_LINT, assert_lint_clean, kautzgen, write_both};
use kautzgen::fabric::switch::Arbiter;
use kautzgen::rtl::network::whole::{DEFAULT_TOP, NetworkParams, design};

fn params(d: u64, k: u64) -> NetworkParams {
    NetworkParams::new(d, k, 16, Arbiter::RoundRobin, DEFAULT_TOP).unwrap()
}

#[test]
fn networks_are_lint_clean() {
    for p in [params(2, 3), params(3, 2)] {
        let dir = tempfile::tempdir().unwrap();
        write_both(dir.path(), &design(&p), "unit_network test");
        assert_lint_clean(dir.path(), &CLOCKED_LINT, &p.describe());
    }
}

#[test]
fn links_follow_the_kautz_arcs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("net");
    let (status, _, stderr) = kautzgen(&[
        "generate",
        "network",
        "--d",
        "2",
        "--k",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    let top = std::fs::read_to_string(out.join("verilog/kautz_network.v")).unwrap();
    let node = |word: &str| {
        let start = top
            .find(&format!("kautz_network_node u_n{word} ("))
            .unwrap_or_else(|| panic!("no node {word}"));
        let end = start + top[start..].find(");").unwrap();
        top[start..end].to_string()
    };
    // Node 120 of K(2,3), by hand from docs/network.md's wiring: its word is 01 10 00 =
    // 24; out-link by letter 1 is port 1 (1 < last letter 0 is false) to 201, by letter 2
    // port 2 to 202. In-link from 012 (shifted-out letter 0, against first letter 1) is
    // port 1, and 012 sends by letter 0 on its port 1 (0 < 2); from 212 (letter 2) port 2,
    // and 212 sends by letter 0 on its port 1.
    let n120 = node("120");
    for line in [
        ".node(6'd24),",
        ".out_fault({(n202_fault | n120_link_fault[1]), (n201_fault | n120_link_fault[0])}),",
        ".in1_valid(n012_out1_valid),",
        ".in1_nack(n012_out1_nack),",
        ".in2_valid(n212_out1_valid),",
        ".in2_data(n212_out1_data),",
        ".out1_valid(n120_out1_valid),",
        ".tx_dst(n120_tx_dst),",
    ] {
        assert!(n120.contains(line), "node 120 lacks {line}:\n{n120}");
    }
    // The receivers of 120's own out-links take them on their in-ports: 201 from 120
    // (letter 1 against first letter 2) on port 2, 202 likewise on port 2.
    assert!(node("201").contains(".in2_valid(n120_out1_valid),"));
    assert!(node("202").contains(".in2_valid(n120_out2_valid),"));
}

/// The traffic of the runs `network_matches_model` compares: K(d,k) at rate 0.01 for 1500
/// cycles, with `faults` faulty nodes drawn with `seed`.
fn traffic<'a>(d: &'a str, k: &'a str, faults: &'a str, seed: &'a str) -> [&'a str; 12] {
    [
        "--d",
        d,
        "--k",
        k,
        "--rate",
        "0.01",
        "--cycles",
        "1500",
        "--random-faulty-nodes",
        faults,
        "--seed",
        seed,
    ]
}

/// The messages the network model makes for `traffic`, from `netsim` (not from the
/// verifier): its `injected` count.
fn injected(traffic: &[&str]) -> u64 {
    let args = [
        &["netsim"],
        traffic,
        &["--message-bytes", "1..16", "--format", "json"],
    ]
    .concat();
    let (status, stdout, stderr) = kautzgen(&args);
    assert_eq!(status, 0, "{stderr}");
    let summary: serde_json::Value = common::netsim_json(&stdout);
    summary["injected"].as_u64().unwrap()
}

/// `verify network --sim <sim>` passes every message, as many as netsim injects. Each
/// simulator is a test of its own, so that the two run side by side.
fn network_matches_model(d: &str, k: &str, faults: &str, seed: &str, sim: &str) {
    let traffic = traffic(d, k, faults, seed);
    let messages = injected(&traffic);
    assert!(messages > 100, "too little traffic: {messages}");
    let args = [&["verify", "network"], &traffic[..], &["--sim", sim]].concat();
    let (status, stdout, stderr) = kautzgen(&args);
    assert_eq!(status, 0, "{stdout}{stderr}");
    let line = format!("{sim}: {messages} passed, 0 failed");
    assert!(stdout.contains(&line), "K({d},{k}) lacks {line}:\n{stdout}");
}

#[test]
fn k23_matches_the_model_in_verilator() {
    network_matches_model("2", "3", "0", "1", "verilator");
}

#[test]
fn k23_matches_the_model_in_ghdl() {
    network_matches_model("2", "3", "0", "1", "ghdl");
}

#[test]
fn k23_with_faulty_nodes_matches_the_model_in_verilator() {
    network_matches_model("2", "3", "2", "5", "verilator");
}

#[test]
fn k23_with_faulty_nodes_matches_the_model_in_ghdl() {
    network_matches_model("2", "3", "2", "5", "ghdl");
}

#[test]
fn k32_matches_the_model_in_verilator() {
    network_matches_model("3", "2", "0", "2", "verilator");
}

#[test]
fn k32_matches_the_model_in_ghdl() {
    network_matches_model("3", "2", "0", "2", "ghdl");
}

#[test]
fn k32_with_faulty_nodes_matches_the_model_in_verilator() {
    network_matches_model("3", "2", "2", "3", "verilator");
}

#[test]
fn k32_with_faulty_nodes_matches_the_model_in_ghdl() {
    network_matches_model("3", "2", "2", "3", "ghdl");
}

#[test]
fn wiring_faults_are_caught() {
    // Message 4 goes from 010 (node 0) to 120 with 12 bytes, handed over in cycle 29. Its
    // first route 010 -> 101 -> 012 -> 120 leaves by letter 1, port 1, and the model has it
    // refused beyond that link. With the NACK wires of ports 1 and 2 swapped the NACK never
    // reaches the sender, which counts the attempt delivered when its EOD goes: the worm is
    // max(3 + 3 + 12 + 4, 3*4 - 1) = 22 words from S = max(29 + 16, 29 + 11) + 1 = 46, so
    // the verdict is in cycle 46 + 22 = 68, and the message never arrives. With the links
    // swapped (NACKs with them) the same port bytes are read at other nodes: the worm goes
    // 010 -> 102 -> 021 -> 210 and is handed out at 210, which the model never does. Its
    // last byte is word 3 + 1 + 3 + 1 + 11 = 19 of the worm: on the source switch's input
    // in cycle 46 + 19 = 65, out of the fourth switch 4 cycles later, handed out in 70.
    for (fault, also) in [
        ("nacks-swapped", None),
        (
            "links-swapped",
            Some(
                "ghdl: node 210: RTL handed out a message the model did not deliver: from 010, 12 bytes, in cycle 70\n",
            ),
        ),
    ] {
        let (status, stdout, stderr) = kautzgen(&[
            "verify", "network", "--d", "2", "--k", "3", "--sim", "ghdl", "--fault", fault,
        ]);
        assert_eq!(status, 1, "{fault}: {stdout}{stderr}");
        let line = "ghdl: message 4 010->120 (12 bytes, first in cycle 29): model delivered after 2 attempts in cycle 85, arrived in cycle 88; RTL delivered after 1 attempt in cycle 68, not arrived";
        assert!(stdout.contains(line), "{fault}:\n{stdout}");
        if let Some(also) = also {
            assert!(stdout.contains(also), "{fault}:\n{stdout}");
        }
        assert!(
            stderr.starts_with("error: verification failed (ghdl: "),
            "{fault}: {stderr}"
        );
    }
}

#[test]
fn bad_parameters_are_refused_with_one_line() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["generate", "network", "--d", "2", "--k", "10", "--out", "x"],
            "K(2,10) has 1536 nodes, each a switch, a router and a route generator: generate networks of at most 1024 nodes",
        ),
        (
            &["verify", "network", "--d", "2", "--k", "3", "--rate", "1.5"],
            "injection rate must be between 0 and 1, got 1.5",
        ),
        (
            &[
                "verify",
                "network",
                "--d",
                "2",
                "--k",
                "3",
                "--random-faulty-nodes",
                "11",
            ],
            "11 faulty nodes of 12 leave fewer than two healthy nodes to send between",
        ),
        (
            &[
                "verify",
                "network",
                "--d",
                "1",
                "--k",
                "3",
                "--fault",
                "nacks-swapped",
            ],
            "the network's built-in faults swap two out-links of a node, which needs d >= 2, got d = 1",
        ),
        (
            &[
                "verify", "network", "--d", "2", "--k", "3", "--fault", "bogus",
            ],
            "--fault 'bogus': the network's faults are links-swapped, nacks-swapped",
        ),
        (
            &["verify", "switch", "--d", "2", "--rate", "0.1"],
            "--rate applies to the network unit only, not to the switch unit; it takes --d, --data-bits, --arbiter, --head-decision, --head-decode, --flow, --buffer-words, --clocking, --seed, --cycles, --fault, --wave, --delays, --top, --reset, --sim, --keep, --force, --out",
        ),
        (
            &["verify", "network", "--d", "16", "--k", "2"],
            "the router talks to a switch of d+1 ports, and a switch has d = 1 to 15, got --d 16",
        ),
    ];
    for (args, message) in cases {
        let (status, stdout, stderr) = kautzgen(args);
        assert_eq!(status, 2, "{args:?}: {stdout}{stderr}");
        assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
    }
}
