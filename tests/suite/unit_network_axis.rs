//! The network with AXI4-Stream nodes (`--interface axis`, src/rtl/network/axis.rs) and the
//! receive FIFO's refusals in the model (`netsim --rx-bytes`): the ports each node shows,
//! the network against the model message for message in Verilator and GHDL with sinks that
//! take a byte in half the cycles (so that FIFOs fill and refuse worms), a wiring fault
//! caught, a FIFO that never drains taking exactly one message a node, and bad options
//! refused in one line.

use crate::common;

use common::{kautzgen, netsim_run};

/// The run both the model and the hardware make: K(2,3) at 0.03 messages a node and cycle
/// for 1500 cycles, 16-byte FIFOs (one whole message), sinks ready half the cycles.
const TRAFFIC: [&str; 8] = ["--d", "2", "--k", "3", "--rate", "0.03", "--cycles", "1500"];

/// `verify network --interface axis` passes every message netsim injects, and netsim's
/// run of the same traffic refused worms at full FIFOs: the check covers refusals.
fn axis_network_matches_model(sim: &str) {
    let model = netsim_run(
        &[
            &["netsim"],
            &TRAFFIC[..],
            &[
                "--rx-bytes",
                "16",
                "--rx-ready",
                "0.5",
                "--message-bytes",
                "1..16",
                "--format",
                "json",
            ],
        ]
        .concat(),
    );
    let messages = model["injected"].as_u64().unwrap();
    let refusals = model["receive"]["refusals"].as_u64().unwrap();
    assert!(messages > 400, "too little traffic: {messages}");
    assert!(refusals > 20, "the FIFOs refused only {refusals} worms");
    let args = [
        &[
            "verify",
            "network",
            "--interface",
            "axis",
            "--rx-bytes",
            "16",
        ],
        &TRAFFIC[..],
        &["--sim", sim],
    ]
    .concat();
    let (status, stdout, stderr) = kautzgen(&args);
    assert_eq!(status, 0, "{stdout}{stderr}");
    let line = format!("{sim}: {messages} passed, 0 failed");
    assert!(stdout.contains(&line), "lacks {line}:\n{stdout}");
}

#[test]
fn the_axis_network_matches_the_model_in_verilator() {
    axis_network_matches_model("verilator");
}

#[test]
fn the_axis_network_matches_the_model_in_ghdl() {
    axis_network_matches_model("ghdl");
}

#[test]
fn swapped_links_are_caught_behind_the_streams() {
    let (status, stdout, _) = kautzgen(&[
        "verify",
        "network",
        "--d",
        "2",
        "--k",
        "3",
        "--interface",
        "axis",
        "--fault",
        "links-swapped",
        "--sim",
        "verilator",
    ]);
    assert_eq!(status, 1, "{stdout}");
    assert!(
        stdout.contains("verilator: ") && !stdout.contains(" 0 failed"),
        "{stdout}"
    );
}

/// Node 010's ports on the top of K(2,3): the three streams, tdest and tid of 4 bits
/// (12 nodes), rx_error passed out, the faults; no router port of the plain network.
#[test]
fn each_node_shows_three_streams() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("net");
    let (status, _, stderr) = kautzgen(&[
        "generate",
        "network",
        "--d",
        "2",
        "--k",
        "3",
        "--interface",
        "axis",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    let top = std::fs::read_to_string(out.join("verilog/kautz_network.v")).unwrap();
    let ports: Vec<String> = top
        .lines()
        .filter(|l| l.contains("n010_") && (l.contains("input") || l.contains("output")))
        .map(|l| {
            l.split("//")
                .next()
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(
        ports,
        [
            "input wire [7:0] n010_s_axis_tdata,",
            "input wire n010_s_axis_tvalid,",
            "output wire n010_s_axis_tready,",
            "input wire n010_s_axis_tlast,",
            "input wire [3:0] n010_s_axis_tdest,",
            "output wire n010_m_axis_status_tvalid,",
            "input wire n010_m_axis_status_tready,",
            "output wire [7:0] n010_m_axis_status_tdata,",
            "output wire [7:0] n010_m_axis_tdata,",
            "output wire n010_m_axis_tvalid,",
            "input wire n010_m_axis_tready,",
            "output wire n010_m_axis_tlast,",
            "output wire [3:0] n010_m_axis_tid,",
            "output wire n010_rx_error,",
            "input wire n010_fault,",
            "input wire [1:0] n010_link_fault,",
        ]
    );
    let (status, stdout, stderr) = kautzgen(&["lint", out.to_str().unwrap()]);
    assert_eq!(status, 0, "{stdout}{stderr}");
}

/// A FIFO of one 16-byte message whose processor never takes a byte: a node's first
/// message fills it (16 + 0 + 16 > 16 from then on), so every node receives exactly one,
/// and every later worm for it is refused.
#[test]
fn a_fifo_that_never_drains_takes_one_message() {
    let summary = netsim_run(&[
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0.05",
        "--cycles",
        "2000",
        "--rx-bytes",
        "16",
        "--rx-ready",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(summary["delivered"], 12);
    assert_eq!(summary["receive"]["bytes_taken"], 0);
    assert!(summary["receive"]["refusals"].as_u64().unwrap() > 100);
    assert_eq!(summary["config"]["receive"]["bytes"], 16);
}

#[test]
fn bad_options_are_refused_in_one_line() {
    let k23 = ["--d", "2", "--k", "3"];
    for (args, expected) in [
        (
            &[
                "generate",
                "network",
                "--interface",
                "axis",
                "--rx-bytes",
                "8",
            ][..],
            "error: --rx-bytes must hold a whole message of --max-bytes 16 and at most 4096 bytes, got 8",
        ),
        (
            &["generate", "network", "--rx-bytes", "32"],
            "error: --rx-bytes sizes the receive FIFO of --interface axis; the plain router has none",
        ),
        (
            &["verify", "network", "--rx-ready", "0.5"],
            "error: --rx-ready drives the m_axis sinks of --interface axis; the plain network has none",
        ),
        (
            &[
                "generate",
                "network",
                "--interface",
                "axis",
                "--clocking",
                "self-timed",
            ],
            "error: --interface axis needs a synchronous network: a self-timed node's processor side runs on its own clock",
        ),
        (
            &[
                "generate",
                "network",
                "--interface",
                "axis",
                "--data-bits",
                "64",
            ],
            "error: --interface axis takes --data-bits of at most 32: its receive FIFO keeps a word, tlast and tid in one RAM word of at most 64 bits, got 64",
        ),
        (
            &[
                "netsim",
                "--rate",
                "0.01",
                "--cycles",
                "10",
                "--rx-bytes",
                "5000",
            ],
            "error: --rx-bytes must hold a whole message of --max-bytes 16 and at most 4096 bytes, got 5000",
        ),
        (
            &[
                "netsim",
                "--rate",
                "0.01",
                "--cycles",
                "10",
                "--rx-bytes",
                "16",
                "--rx-ready",
                "2",
            ],
            "error: --rx-ready is a probability between 0 and 1, got 2",
        ),
    ] {
        let args = [args, &k23[..]].concat();
        let (status, stdout, stderr) = kautzgen(&args);
        assert_eq!((status, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end(), expected, "{args:?}");
    }
}

/// `generate router --interface axis`: the router as `kautz_router_core` behind the block,
/// its network side and `refuse` for the switch as ports beside the streams, lint-clean;
/// its check is the network's.
#[test]
fn the_router_alone_has_the_streams_and_a_refuse_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("router");
    let (status, _, stderr) = kautzgen(&[
        "generate",
        "router",
        "--d",
        "2",
        "--k",
        "3",
        "--interface",
        "axis",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    let top = std::fs::read_to_string(out.join("verilog/kautz_router.v")).unwrap();
    for port in [
        "input  wire [5:0] node,",
        "output wire refuse,",
        "input  wire [3:0] s_axis_tdest,",
        "output wire [3:0] m_axis_tid",
        "kautz_router_core u_core (",
        "kautz_router_axis u_axis (",
    ] {
        assert!(top.contains(port), "lacks {port}:\n{top}");
    }
    assert!(
        !top.contains("tx_dst,"),
        "the router's own ports stay inside"
    );
    let (status, stdout, stderr) = kautzgen(&["lint", out.to_str().unwrap()]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    let (status, _, stderr) = kautzgen(&[
        "verify",
        "router",
        "--d",
        "2",
        "--k",
        "3",
        "--interface",
        "axis",
    ]);
    assert_eq!(status, 2);
    assert_eq!(
        stderr.trim_end(),
        "error: the AXI4-Stream router is checked in its network: kautzgen verify network --interface axis (the router's own check drives its plain ports)"
    );
}

/// The AXI4-Stream network's exported testbench: the model's run as vectors, every cycle's
/// tready driven and the streams' outputs masked as `verify` judges them. It passes in
/// Icarus, every cycle counted (the vector file's lines), and fails with the network's
/// swapped links.
#[test]
fn the_exported_testbench_passes_and_catches_swapped_links() {
    use crate::exported_testbench::{generate, run};
    let scratch = tempfile::tempdir().unwrap();
    let args = [
        "network",
        "--d",
        "2",
        "--k",
        "2",
        "--interface",
        "axis",
        "--rate",
        "0.05",
        "--cycles",
        "400",
    ];
    let good = generate(scratch.path(), "good", &args);
    let cycles = std::fs::read_to_string(good.join("tb/vectors.txt"))
        .unwrap()
        .lines()
        .count();
    let (status, out) = run(&good, "icarus");
    assert_eq!(status, 0, "{out}");
    assert!(out.contains(&format!("{cycles} passed, 0 failed")), "{out}");
    let bad = generate(
        scratch.path(),
        "bad",
        &[&args[..], &["--fault", "links-swapped"]].concat(),
    );
    let (status, out) = run(&bad, "icarus");
    assert_ne!(status, 0, "{out}");
    assert!(out.contains(&format!("of {cycles} cycles failed")), "{out}");
}
