//! `--ports packed`: the network top with one vector per node signal, node i at bits
//! [i*W +: W] in the documented node order, over the flat top; its port count for K(3,4)
//! against the flat form's, equal to the model in Verilator and GHDL, lint-clean, and the
//! combinations it refuses with one line.

use crate::common;

use common::kautzgen;
use std::path::Path;

/// `generate network <args> --out <dir>/<name>`: the top's Verilog.
fn generate(dir: &Path, name: &str, args: &[&str]) -> String {
    let out = dir.join(name);
    let mut all = vec!["generate", "network"];
    all.extend(args);
    all.extend(["--out", out.to_str().unwrap()]);
    let (status, _, stderr) = kautzgen(&all);
    assert_eq!(status, 0, "{stderr}");
    std::fs::read_to_string(out.join("verilog/kautz_network.v")).unwrap()
}

/// The port lines of module `kautz_network` in `verilog`.
fn ports(verilog: &str) -> Vec<&str> {
    let start = verilog.find("module kautz_network (").unwrap();
    let end = start + verilog[start..].find(");").unwrap();
    verilog[start..end]
        .lines()
        .filter(|l| l.contains(" input ") || l.contains(" output "))
        .collect()
}

#[test]
fn node_i_is_at_bits_i_times_w() {
    let dir = tempfile::tempdir().unwrap();
    let top = generate(
        dir.path(),
        "k22",
        &["--d", "2", "--k", "2", "--ports", "packed"],
    );
    // K(2,2)'s six nodes in order: 01 02 10 12 20 21.
    for line in [
        "    input  wire [47:0] tx_data,                  // bits [i*8 +: 8], node i: the data word offered",
        "    input  wire [5:0] fault,                     // bits [i*1 +: 1], node i is faulty: no worm is sent into it",
        "    input  wire [11:0] link_fault                // bits [i*2 +: 2], node i: bit p-1, its out-link on port p is faulty",
        "        .n01_tx_data(tx_data[7:0]),",
        "        .n12_tx_data(tx_data[31:24]),",
        "        .n21_tx_data(tx_data[47:40]),",
        "        .n10_fault(fault[2]),",
        "    assign rx_valid = {n21_rx_valid, n20_rx_valid, n12_rx_valid, n10_rx_valid, n02_rx_valid, n01_rx_valid};",
        "    kautz_network_flat u_flat (",
    ] {
        assert!(top.contains(line), "packed top lacks {line:?}");
    }
}

#[test]
fn k34_has_19_packed_ports_for_1838_flat_ones() {
    let dir = tempfile::tempdir().unwrap();
    let flat = generate(dir.path(), "flat", &["--d", "3", "--k", "4"]);
    let packed = generate(
        dir.path(),
        "packed",
        &["--d", "3", "--k", "4", "--ports", "packed"],
    );
    assert_eq!(ports(&flat).len(), 1838);
    assert_eq!(ports(&packed).len(), 19);
    assert!(ports(&packed).contains(
        &"    input  wire [863:0] tx_data,                 // bits [i*8 +: 8], node i: the data word offered"
    ));
}

#[test]
fn the_packed_network_matches_the_model_and_lints_clean() {
    let unit = [
        "network", "--d", "2", "--k", "2", "--cycles", "120", "--rate", "0.05", "--ports", "packed",
    ];
    let (status, stdout, stderr) = kautzgen(&[&["verify"][..], &unit].concat());
    assert_eq!(status, 0, "{stdout}{stderr}");
    let last: Vec<&str> = stdout.lines().rev().take(2).collect();
    assert_eq!(
        last,
        [
            "ghdl: 39 passed, 0 failed",
            "verilator: 39 passed, 0 failed"
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("k22");
    let (status, _, stderr) = kautzgen(&[
        "generate",
        "network",
        "--d",
        "2",
        "--k",
        "2",
        "--ports",
        "packed",
        "--reset",
        "async-low",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    let (status, stdout, stderr) = kautzgen(&["lint", out.to_str().unwrap()]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(stdout.ends_with("4 passed, 0 failed\n"), "{stdout}");
}

#[test]
fn packed_refusals_are_one_line() {
    for (args, message) in [
        (
            &[
                "verify", "network", "--d", "2", "--k", "3", "--ports", "packed",
            ][..],
            "error: the packed top's port tx_data is 96 bits and the testbench drives and reads ports of at most 64 bits: verify --ports packed on a network of at most 8 nodes, or the flat form\n",
        ),
        (
            &[
                "generate",
                "network",
                "--d",
                "2",
                "--k",
                "3",
                "--clocking",
                "self-timed",
                "--ports",
                "packed",
                "--out",
                "/nonexistent",
            ][..],
            "error: --ports packed packs the synchronous network's top; the self-timed network is checked node by node, without its top: leave --ports at flat\n",
        ),
    ] {
        let (status, _, stderr) = kautzgen(args);
        assert_eq!((status, stderr.as_str()), (2, message), "{args:?}");
    }
}
