//! The whole network in hardware on every topology but Kautz, its routers holding route
//! tables (docs/topologies.md): lint-clean, wired as the topology says (idle ports wired to
//! idle inputs and marked faulty), and equal to the golden network model message for
//! message in GHDL with and without a faulty node, and in Verilator; bad parameters give
//! one line and exit status 2.

use crate::common;

use common::{kautzgen, kautzgen_in};
use std::path::Path;

/// A 10-node digraph: the chordal ring i -> i+1 and i -> i+3 (mod 10), written by hand.
const CHORDAL_RING: &str = "# 10 nodes, two out-links each\n\
0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 0\n\
0 3\n1 4\n2 5\n3 6\n4 7\n5 8\n6 9\n7 0\n8 1\n9 2\n";

/// The messages the network model makes for `traffic` from `netsim` (not from the
/// verifier), run in `dir`.
fn injected(dir: &Path, traffic: &[&str]) -> u64 {
    let args = [
        &["netsim"],
        traffic,
        &["--message-bytes", "1..16", "--format", "json"],
    ]
    .concat();
    let (status, stdout, stderr) = kautzgen_in(dir, &args);
    assert_eq!(status, 0, "{stderr}");
    let summary: serde_json::Value = common::netsim_json(&stdout);
    summary["injected"].as_u64().unwrap()
}

/// `verify network --sim <sim>` on `topology` passes every message, as many as netsim
/// injects, at rate 0.015 for 1200 cycles with `faults` faulty nodes drawn by seed 3.
fn network_matches_model(topology: &[&str], faults: &str, sim: &str) {
    network_matches_model_for(topology, faults, sim, 1200);
}

/// The same for `cycles` cycles of injection: a hundred messages or so a thousand cycles
/// on the small networks.
pub(crate) fn network_matches_model_for(topology: &[&str], faults: &str, sim: &str, cycles: u64) {
    let dir = tempfile::tempdir().unwrap();
    let cycles = cycles.to_string();
    std::fs::write(dir.path().join("ring.txt"), CHORDAL_RING).unwrap();
    let traffic = [
        topology,
        &[
            "--rate",
            "0.015",
            "--cycles",
            &cycles,
            "--random-faulty-nodes",
            faults,
            "--seed",
            "3",
        ],
    ]
    .concat();
    let messages = injected(dir.path(), &traffic);
    assert!(
        messages * 12 > cycles.parse::<u64>().unwrap(),
        "too little traffic: {messages}"
    );
    let args = [&["verify", "network"], &traffic[..], &["--sim", sim]].concat();
    let (status, stdout, stderr) = kautzgen_in(dir.path(), &args);
    assert_eq!(status, 0, "{stdout}{stderr}");
    let line = format!("{sim}: {messages} passed, 0 failed");
    assert!(
        stdout.contains(&line),
        "{topology:?} lacks {line}:\n{stdout}"
    );
}

const DEBRUIJN: [&str; 6] = ["--topology", "debruijn", "--d", "2", "--k", "3"];
const UNI_TORUS: [&str; 8] = [
    "--topology",
    "torus",
    "--k",
    "3",
    "--n",
    "2",
    "--rings",
    "uni",
];
const BI_TORUS: [&str; 6] = ["--topology", "torus", "--k", "3", "--n", "2"];
const MESH: [&str; 6] = ["--topology", "mesh", "--k", "3", "--n", "2"];
const RING: [&str; 2] = ["--topology", "file:ring.txt"];

const ALL: [&[&str]; 5] = [&DEBRUIJN, &UNI_TORUS, &BI_TORUS, &MESH, &RING];

// Every topology with and without a faulty node in GHDL, which builds a design in about a
// second; in Verilator, which compiles each design for several seconds, `make test` runs
// two of them and `make verify-full` all five, with a faulty node.

#[test]
fn debruijn_matches_the_model_in_ghdl() {
    network_matches_model(&DEBRUIJN, "0", "ghdl");
}

#[test]
fn debruijn_with_a_faulty_node_matches_the_model_in_ghdl() {
    network_matches_model(&DEBRUIJN, "1", "ghdl");
}

#[test]
fn unidirectional_torus_matches_the_model_in_ghdl() {
    network_matches_model(&UNI_TORUS, "0", "ghdl");
}

#[test]
fn unidirectional_torus_with_a_faulty_node_matches_the_model_in_ghdl() {
    network_matches_model(&UNI_TORUS, "1", "ghdl");
}

#[test]
fn bidirectional_torus_matches_the_model_in_ghdl() {
    network_matches_model(&BI_TORUS, "0", "ghdl");
}

#[test]
fn bidirectional_torus_with_a_faulty_node_matches_the_model_in_ghdl() {
    network_matches_model(&BI_TORUS, "1", "ghdl");
}

#[test]
fn mesh_matches_the_model_in_ghdl() {
    network_matches_model(&MESH, "0", "ghdl");
}

#[test]
fn mesh_with_a_faulty_node_matches_the_model_in_ghdl() {
    network_matches_model(&MESH, "1", "ghdl");
}

#[test]
fn edge_list_matches_the_model_in_ghdl() {
    network_matches_model(&RING, "0", "ghdl");
}

#[test]
fn edge_list_with_a_faulty_node_matches_the_model_in_ghdl() {
    network_matches_model(&RING, "1", "ghdl");
}

#[test]
fn debruijn_with_a_faulty_node_matches_the_model_in_verilator() {
    network_matches_model(&DEBRUIJN, "1", "verilator");
}

#[test]
fn edge_list_matches_the_model_in_verilator() {
    network_matches_model(&RING, "0", "verilator");
}

/// Every topology in Verilator too. Left out of `make test` because each topology is a
/// design of its own that Verilator compiles for several seconds (20 s for the five);
/// `make test` checks all five in GHDL, with and without a faulty node, and compiles two
/// of them in Verilator.
#[test]
#[ignore = "long (about 20 s): make test runs B(2,3) and the edge list in Verilator, every topology in GHDL; make verify-full runs this"]
fn every_topology_with_a_faulty_node_matches_the_model_in_verilator() {
    for topology in ALL {
        network_matches_model(topology, "1", "verilator");
    }
}

#[test]
fn a_de_bruijn_network_is_wired_by_its_shifts_and_lint_clean() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("net");
    let args = [
        &["generate", "network"][..],
        &DEBRUIJN,
        &["--out", out.to_str().unwrap()],
    ]
    .concat();
    let (status, _, stderr) = kautzgen(&args);
    assert_eq!(status, 0, "{stderr}");
    let (status, stdout, stderr) = kautzgen(&["lint", out.to_str().unwrap()]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    let top = std::fs::read_to_string(out.join("verilog/debruijn_network.v")).unwrap();
    let node = |v: usize| {
        let start = top
            .find(&format!("debruijn_network_node u_n{v} ("))
            .unwrap_or_else(|| panic!("no node {v}"));
        let end = start + top[start..].find(");").unwrap();
        top[start..end].to_string()
    };
    // Node 000 (index 0) of B(2,3), by hand from docs/topologies.md: its out-link to
    // a2a3z leaves by port z+1, so port 1 is its self-loop, left out: an idle output, wired
    // to the first idle input, its own in-port 1 (from 000 itself, a1 = 0), and marked
    // faulty. Port 2 goes to 001 (index 1). Its in-port 2 comes from 100 (index 4), whose
    // out-link to 000 shifts in 0 and so leaves by its port 1.
    let n0 = node(0);
    for line in [
        ".node(8'd0),",
        ".out_fault({(n1_fault | n0_link_fault[1]), (1'b1 | n0_link_fault[0])}),",
        ".in1_valid(n0_out1_valid),",
        ".in1_nack(n0_out1_nack),",
        ".in2_valid(n4_out1_valid),",
        ".in2_nack(n4_out1_nack),",
        ".out2_valid(n0_out2_valid),",
    ] {
        assert!(n0.contains(line), "node 0 lacks {line}:\n{n0}");
    }
    // 001 (index 1) takes 000's port 2 on its in-port a1 + 1 = 1.
    assert!(node(1).contains(".in1_valid(n0_out2_valid),"));
}

#[test]
fn a_swapped_link_in_a_torus_is_caught() {
    let args = [
        &["verify", "network"][..],
        &BI_TORUS,
        &["--sim", "ghdl", "--fault", "links-swapped"],
    ]
    .concat();
    let (status, stdout, stderr) = kautzgen(&args);
    assert_eq!(status, 1, "{stdout}{stderr}");
    assert!(stdout.contains("ghdl: message "), "{stdout}");
    assert!(
        stderr.starts_with("error: verification failed (ghdl: "),
        "{stderr}"
    );
}

#[test]
fn bad_table_networks_are_refused_with_one_line() {
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "generate",
                "network",
                "--topology",
                "torus",
                "--k",
                "17",
                "--n",
                "2",
                "--out",
                "x",
            ],
            "the route table of 17-ary 2-cube, bidirectional would hold at least 83232 routes; a generated router holds at most 65536: generate a smaller network",
        ),
        (
            &[
                "verify",
                "network",
                "--topology",
                "mesh",
                "--k",
                "3",
                "--n",
                "2",
                "--clocking",
                "self-timed",
            ],
            "--clocking self-timed builds K(d,k) networks only; the other topologies are synchronous",
        ),
        (
            &[
                "generate",
                "network",
                "--topology",
                "mesh",
                "--k",
                "3",
                "--d",
                "2",
                "--out",
                "x",
            ],
            "--d applies to the kautz and debruijn topologies only, not to the mesh topology; it takes --k, --n, --routes",
        ),
    ];
    for (args, message) in cases {
        let (status, stdout, stderr) = kautzgen(args);
        assert_eq!((status, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
        assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
    }
}
