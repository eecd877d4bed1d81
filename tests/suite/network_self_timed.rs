//! The self-timed network (src/rtl/network/whole.rs with `SwitchClocking::SelfTimed`): it
//! compiles without a warning in Icarus Verilog and GHDL; its node module has the ports a
//! testbench wires (no clock in, `node_clk` out, `cl`/`cla` beside every link); `links()`
//! is the Kautz digraph's arcs, derived here from the words alone, with each built-in
//! fault's swap; the top wires exactly `links()` and drives exactly `node_word` and
//! `out_fault_bits`, which a testbench that wires the nodes itself relies on; the command
//! line builds it, refusing what it cannot do with one line; and its nodes, wired with
//! delays drawn from five seeds, deliver every message as the synchronous model does,
//! counted on each node's own clock, in GHDL and Icarus Verilog, and fail on the built-in
//! wiring faults exactly where the synchronous network does.

use crate::common;

use common::{SELF_TIMED_LINT, assert_lint_clean, kautzgen, write_both};
use kautzgen::fabric::switch::Arbiter;
use kautzgen::rtl::ir::{Direction, SignalKind, Timing};
use kautzgen::rtl::network::switch::SwitchClocking;
use kautzgen::rtl::network::whole::{
    DEFAULT_TOP, NetLink, NetworkFault, NetworkParams, design, links, node_word, out_fault_bits,
};
use kautzgen::sim::Simulator;
use kautzgen::sim::delays::DelaySource;
use kautzgen::sim::ghdl::Ghdl;
use kautzgen::sim::icarus::Icarus;
use kautzgen::synth::lint::read_manifest;
use kautzgen::synth::tool::IVERILOG;
use kautzgen::topology::kautz::Letter;
use kautzgen::units::network::traffic::NetworkUnit;
use std::collections::HashMap;
use std::path::Path;

fn params(fault: Option<NetworkFault>) -> NetworkParams {
    NetworkParams::new(2, 3, 16, Arbiter::RoundRobin, DEFAULT_TOP)
        .unwrap()
        .with_clocking(SwitchClocking::SelfTimed)
        .with_fault(fault)
        .unwrap()
}

fn write(p: &NetworkParams, dir: &Path) {
    write_both(dir, &design(p), "network_self_timed test");
}

#[test]
fn the_self_timed_network_compiles_without_warnings() {
    let p = params(None);
    assert_eq!(design(&p).timing, Timing::SelfTimed);
    let dir = tempfile::tempdir().unwrap();
    write(&p, dir.path());
    assert_lint_clean(dir.path(), &SELF_TIMED_LINT, "self-timed network");
    // And as SystemVerilog, as a testbench of that dialect would compile it.
    let manifest = read_manifest(dir.path()).unwrap();
    let mut args: Vec<String> = ["-g2012", "-Wall", "-s", DEFAULT_TOP, "-o", "net.vvp"]
        .iter()
        .map(|a| a.to_string())
        .collect();
    args.extend(
        manifest
            .verilog
            .iter()
            .map(|f| dir.path().join(f).to_string_lossy().into_owned()),
    );
    let work = tempfile::tempdir().unwrap();
    let outcome = IVERILOG
        .run(&args, work.path(), "iverilog.log")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        outcome.success && outcome.log.trim().is_empty(),
        "iverilog -g2012 -Wall:\n{}",
        outcome.log
    );
}

/// A module's ports: name, width, input or not.
fn ports(p: &NetworkParams, module: &str) -> Vec<(String, u32, bool)> {
    design(p)
        .module(module)
        .unwrap_or_else(|| panic!("no module {module}"))
        .ports()
        .map(|(_, s)| {
            let input = s.kind == SignalKind::Port(Direction::Input);
            (s.name.clone(), s.width, input)
        })
        .collect()
}

#[test]
fn the_node_has_no_clock_in_and_clock_wires_beside_every_link() {
    let mut expected: Vec<(String, u32, bool)> = [
        ("rst", 1, true),
        ("node_clk", 1, false),
        ("node", 6, true),
        ("out_fault", 2, true),
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
    ]
    .iter()
    .map(|&(name, width, input)| (name.to_string(), width, input))
    .collect();
    // Per in-link the words and the sender's clock come in, the NACK and this node's clock
    // go back; per out-link the other way round.
    for (side, inward) in [("in", true), ("out", false)] {
        for p in 1..=2 {
            for (suffix, width, forward) in [
                ("valid", 1, true),
                ("ctl", 1, true),
                ("data", 8, true),
                ("nack", 1, false),
                ("cl", 1, true),
                ("cla", 1, false),
            ] {
                expected.push((format!("{side}{p}_{suffix}"), width, forward == inward));
            }
        }
    }
    let p = params(None);
    assert_eq!(ports(&p, "kautz_network_node"), expected);
    // The top: one reset, no clock; each node's clock out before its processor side.
    let top = ports(&p, DEFAULT_TOP);
    assert_eq!(top[0], ("rst".to_string(), 1, true));
    assert_eq!(top[1], ("n010_node_clk".to_string(), 1, false));
    assert_eq!(top[2], ("n010_tx_valid".to_string(), 1, true));
    assert!(top.iter().all(|(name, _, _)| name != "clk"));
    let clocks = top.iter().filter(|(n, _, _)| n.ends_with("_node_clk"));
    assert_eq!(clocks.count(), 12);
    // The synchronous node keeps its clock and has no clock wires.
    let sync = ports(
        &params(None).with_clocking(SwitchClocking::Synchronous),
        "kautz_network_node",
    );
    assert_eq!(sync[0], ("clk".to_string(), 1, true));
    assert!(
        sync.iter()
            .all(|(n, _, _)| !n.ends_with("_cl") && !n.ends_with("_cla"))
    );
}

#[test]
fn the_router_runs_on_the_node_clock() {
    let dir = tempfile::tempdir().unwrap();
    write(&params(None), dir.path());
    let node = std::fs::read_to_string(dir.path().join("verilog/kautz_network_node.v")).unwrap();
    let router = &node[node.find("kautz_network_router u_router (").unwrap()..];
    assert!(router.contains(".clk(node_clk),"), "{router}");
    let switch = &node[node.find("kautz_network_switch u_switch (").unwrap()..];
    assert!(switch.contains(".node_clk(node_clk),"), "{switch}");
}

/// Every node of K(2,3) by its letters, with its index in the graph's order.
fn words(p: &NetworkParams) -> HashMap<Vec<Letter>, usize> {
    (0..p.nodes())
        .map(|v| (p.graph().unwrap().word_at(v).letters().to_vec(), v))
        .collect()
}

/// The links of K(2,3) from the definition of the Kautz digraph and docs/network.md's
/// port numbering, not from the generator's `arc`: u = a1..ak leads by letter a != ak to
/// v = a2..ak a, leaving u by port a + 1 when a < ak and a when a > ak, and entering v by
/// port a1 + 1 when a1 < a2 (v's first letter) and a1 when a1 > a2.
fn kautz_links(p: &NetworkParams) -> Vec<NetLink> {
    let port = |below: Letter, letter: Letter| letter as usize + usize::from(letter < below);
    let index = words(p);
    let mut expected = Vec::new();
    for (u, &from) in &index {
        let k = u.len();
        for a in (0..=2).filter(|&a| a != u[k - 1]) {
            let mut v = u[1..].to_vec();
            v.push(a);
            let out_port = port(u[k - 1], a);
            expected.push(NetLink {
                from,
                out_port,
                to: index[&v],
                in_port: port(u[1], u[0]),
                nack_port: out_port,
                idle: false,
            });
        }
    }
    expected.sort_by_key(|link| (link.from, link.out_port));
    expected
}

#[test]
fn links_are_the_kautz_arcs_with_each_faults_swap() {
    let expected = kautz_links(&params(None));
    assert_eq!(expected.len(), 24);
    assert_eq!(links(&params(None)), expected);
    // Out-link p of node v is at v*d + p - 1.
    for (i, link) in links(&params(None)).iter().enumerate() {
        assert_eq!((link.from, link.out_port), (i / 2, i % 2 + 1));
    }
    // Node 0 is 010: by letter 1 (port 1) to 101, entering by port 1 (0 < 1); by letter 2
    // (port 2) to 102, entering by port 1.
    let index = words(&params(None));
    assert_eq!(
        expected[..2],
        [
            NetLink {
                from: 0,
                out_port: 1,
                to: index[&vec![1, 0, 1]],
                in_port: 1,
                nack_port: 1,
                idle: false
            },
            NetLink {
                from: 0,
                out_port: 2,
                to: index[&vec![1, 0, 2]],
                in_port: 1,
                nack_port: 2,
                idle: false
            },
        ]
    );
    let mut swapped = expected.clone();
    (swapped[0].to, swapped[1].to) = (expected[1].to, expected[0].to);
    (swapped[0].in_port, swapped[1].in_port) = (expected[1].in_port, expected[0].in_port);
    assert_eq!(
        links(&params(Some(NetworkFault::LinksSwapped))),
        swapped,
        "links-swapped"
    );
    let mut nacks = expected.clone();
    (nacks[0].nack_port, nacks[1].nack_port) = (2, 1);
    assert_eq!(
        links(&params(Some(NetworkFault::NacksSwapped))),
        nacks,
        "nacks-swapped"
    );
}

/// The connections of node instance `u_<prefix>` in the top's Verilog.
fn instance(top: &str, prefix: &str) -> String {
    let start = top
        .find(&format!("kautz_network_node u_{prefix} ("))
        .unwrap_or_else(|| panic!("no node {prefix}"));
    let end = start + top[start..].find(");").unwrap();
    top[start..end].to_string()
}

#[test]
fn the_top_wires_exactly_the_links_and_drives_the_node_constants() {
    for fault in [
        None,
        Some(NetworkFault::LinksSwapped),
        Some(NetworkFault::NacksSwapped),
    ] {
        let p = params(fault);
        let dir = tempfile::tempdir().unwrap();
        write(&p, dir.path());
        let top = std::fs::read_to_string(dir.path().join("verilog/kautz_network.v")).unwrap();
        let prefix = |v: usize| p.node_prefix(v);
        for link in links(&p) {
            let (from, to) = (prefix(link.from), prefix(link.to));
            let (sender, receiver) = (instance(&top, &from), instance(&top, &to));
            let (o, q) = (link.out_port, link.in_port);
            let wire = |suffix: &str| format!("{from}_out{o}_{suffix}");
            for suffix in ["valid", "ctl", "data", "nack", "cl", "cla"] {
                let line = format!(".in{q}_{suffix}({}),", wire(suffix));
                assert!(receiver.contains(&line), "{fault:?}: {to} lacks {line}");
            }
            for (port, suffix) in [
                (o, "valid"),
                (o, "cl"),
                (o, "cla"),
                (link.nack_port, "nack"),
            ] {
                let line = format!(".out{port}_{suffix}({})", wire(suffix));
                assert!(sender.contains(&line), "{fault:?}: {from} lacks {line}");
            }
        }
        for v in 0..p.nodes() {
            let node = instance(&top, &prefix(v));
            let line = format!(".node(6'd{}),", node_word(&p, v));
            assert!(
                node.contains(&line),
                "{fault:?}: {} lacks {line}",
                prefix(v)
            );
            // out_fault is {bit d-1, ..., bit 0}, bit p-1 `(n<to>_fault | n<v>_link_fault[p-1])`.
            let start = node.find(".out_fault({").unwrap() + ".out_fault({".len();
            let terms = &node[start..start + node[start..].find("}),").unwrap()];
            let mut down: Vec<&str> = terms
                .split(", ")
                .map(|term| term.trim_start_matches('(').split('_').next().unwrap())
                .collect();
            down.reverse();
            assert_eq!(down.len(), 2);
            for (bit, name) in down.iter().enumerate() {
                let link_term = format!("{}_link_fault[{bit}])", prefix(v));
                assert!(terms.contains(&link_term), "{terms}");
                let mut faulty = vec![false; p.nodes()];
                let index = (0..p.nodes()).find(|&u| prefix(u) == *name).unwrap();
                faulty[index] = true;
                let expected = down
                    .iter()
                    .enumerate()
                    .filter(|(_, other)| *other == name)
                    .fold(0, |bits, (b, _)| bits | 1 << b);
                assert_eq!(out_fault_bits(&p, v, &faulty, 0), expected, "{fault:?} {v}");
                let none = vec![false; p.nodes()];
                assert_eq!(out_fault_bits(&p, v, &none, 1 << bit), 1 << bit);
            }
            assert_eq!(out_fault_bits(&p, v, &vec![false; p.nodes()], 0), 0);
        }
    }
    // Node 120 is 011000 = 24 (two bits a letter).
    let p = params(None);
    let index = words(&p);
    assert_eq!(node_word(&p, index[&vec![1, 2, 0]]), 24);
}

#[test]
fn the_command_line_builds_it_and_refuses_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("st");
    let out = out.to_str().unwrap();
    let generate = [
        "generate",
        "network",
        "--d",
        "2",
        "--k",
        "3",
        "--clocking",
        "self-timed",
    ];
    let (status, stdout, stderr) = kautzgen(&[&generate[..], &["--out", out]].concat());
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stdout.ends_with("; self-timed: every node on its own node_clk, made by a Muller-C rendezvous of its neighbours' clocks, a word one hop per node clock, a route taken B = 16 node clocks after init or next_route; for simulation (GHDL, Icarus Verilog), not for synthesis\n"),
        "{stdout}"
    );
    let top = std::fs::read_to_string(Path::new(out).join("verilog/kautz_network.v")).unwrap();
    assert!(
        top.contains("kautzgen generate network --d 2 --k 3 --clocking self-timed --lang both\n")
    );
    let manifest = std::fs::read_to_string(Path::new(out).join("manifest.json")).unwrap();
    assert!(manifest.contains("\"timing\":\"self-timed\""), "{manifest}");
    // A built-in fault goes into the design, and the header says so.
    let (status, _, stderr) = kautzgen(
        &[
            &generate[..],
            &["--fault", "nacks-swapped", "--out", out, "--force"],
        ]
        .concat(),
    );
    assert_eq!(status, 0, "{stderr}");
    let top = std::fs::read_to_string(Path::new(out).join("verilog/kautz_network.v")).unwrap();
    assert!(top.contains(".out1_nack(n010_out2_nack),"));
    let refused: [(&[&str], &str); 3] = [
        (
            &[&generate[..], &["--testbench", "--out", "x"]].concat(),
            "the self-timed network has no exported testbench (its nodes run on clocks of their own): export the synchronous network",
        ),
        (
            &[
                "verify",
                "network",
                "--d",
                "2",
                "--k",
                "3",
                "--clocking",
                "self-timed",
                "--sim",
                "verilator",
            ],
            "Verilator cannot simulate the self-timed network (its clocks come through wires with delays): use --sim ghdl or --sim icarus",
        ),
        (
            &[
                "synth",
                "network",
                "--d",
                "2",
                "--k",
                "3",
                "--clocking",
                "self-timed",
            ],
            "synthesis needs a synchronous design, and kautz_network is self-timed: its C elements are combinational loops by design, with no clock to analyse its timing against",
        ),
    ];
    for (args, message) in refused {
        let (status, stdout, stderr) = kautzgen(args);
        assert_eq!(status, 2, "{args:?}: {stdout}{stderr}");
        assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
    }
    assert!(!Path::new("x").exists());
}

/// Three draws of every wire's delay (fifty in make verify-full), each with its own traffic,
/// one of them with a faulty node: every message as the model has it, in both simulators.
#[test]
fn the_self_timed_network_moves_every_message_as_the_model_does() {
    let simulators: [Box<dyn Simulator>; 2] =
        [Box::new(Ghdl::default()), Box::new(Icarus::default())];
    for seed in 1..=3 {
        let faulty = u64::from(seed == 3);
        let unit = NetworkUnit::new(params(None), 0.02, 600, faulty, seed).unwrap();
        let names: Vec<_> = unit.links().into_iter().map(|l| l.names).collect();
        let delays = DelaySource::Drawn.delays(&names, seed).unwrap();
        for simulator in &simulators {
            let report = unit.verify_self_timed(&**simulator, &delays, 3).unwrap();
            assert_eq!(
                report.render(),
                format!(
                    "{}: {} passed, 0 failed\n",
                    simulator.name(),
                    unit.messages()
                ),
                "seed {seed}"
            );
        }
    }
}

/// `fault` on the self-timed K(2,3) network with delays drawn from seed 1, in `sim`: message
/// 4 fails as it does in the synchronous network, and `also`, if given, is reported too.
fn wiring_fault_fails(fault: &str, also: Option<&str>, sim: &str) {
    let (status, stdout, stderr) = kautzgen(&[
        "verify",
        "network",
        "--d",
        "2",
        "--k",
        "3",
        "--clocking",
        "self-timed",
        "--sim",
        sim,
        "--fault",
        fault,
    ]);
    assert_eq!(status, 1, "{fault}: {stdout}{stderr}");
    let line = format!(
        "{sim}: message 4 010->120 (12 bytes, first in cycle 29): model delivered after 2 attempts in cycle 85, arrived in cycle 88; RTL delivered after 1 attempt in cycle 68, not arrived"
    );
    assert!(stdout.contains(&line), "{fault}:\n{stdout}");
    if let Some(also) = also {
        assert!(
            stdout.contains(&format!("{sim}: {also}")),
            "{fault}:\n{stdout}"
        );
    }
}

/// Besides message 4, swapped links hand node 210 a message the model did not deliver.
const LINKS_SWAPPED_ALSO: &str = "node 210: RTL handed out a message the model did not deliver: from 010, 12 bytes, in cycle 70\n";

/// The wiring faults of tests/unit_network.rs, on the self-timed network with delays drawn
/// from seed 1: the same messages fail in the same way, in the same cycles of each node's
/// own clock, as the cycles derived there for the synchronous network.
#[test]
fn wiring_faults_fail_as_in_the_synchronous_network() {
    // One simulator each here, the other in make verify-full.
    wiring_fault_fails("nacks-swapped", None, "ghdl");
    wiring_fault_fails("links-swapped", Some(LINKS_SWAPPED_ALSO), "icarus");
}

/// Each wiring fault in the simulator `make test` does not run it in. Left out of `make
/// test` because it repeats a failing simulation of the whole self-timed network (about
/// 5 s) that the tests above already run once per fault.
#[test]
#[ignore = "long (about 5 s): make test runs each wiring fault in one simulator; make verify-full runs this, the other"]
fn wiring_faults_fail_as_in_the_synchronous_network_in_the_other_simulator() {
    wiring_fault_fails("nacks-swapped", None, "icarus");
    wiring_fault_fails("links-swapped", Some(LINKS_SWAPPED_ALSO), "ghdl");
}

/// Delays from a file name their wires by the node that receives them.
#[test]
fn the_network_takes_a_delays_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("delays.txt");
    let verify = |text: &str| {
        std::fs::write(&file, text).unwrap();
        kautzgen(&[
            "verify",
            "network",
            "--d",
            "2",
            "--k",
            "3",
            "--clocking",
            "self-timed",
            "--sim",
            "icarus",
            "--cycles",
            "300",
            "--delays",
            file.to_str().unwrap(),
        ])
    };
    let (status, stdout, stderr) = verify("n012.in1_cl 11.5\nn120.out1_cla 10.5\n");
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("(wire delays from a file)\nicarus: "),
        "{stdout}"
    );
    let (status, _, stderr) = verify("s1.in2_cl 7.0\n");
    assert_eq!(status, 2);
    assert_eq!(
        stderr,
        format!(
            "error: --delays {}: line 1: no wire `s1.in2_cl` here; wires are named by the port that receives them, e.g. `n101.in1_cl`\n",
            file.display()
        )
    );
}
