//! The switch on the command line: bad parameters and misplaced options give one line and
//! exit status 2; `verify switch` prints its heading and verdict exactly, and a built-in
//! fault fails with the number of cycles the faulty model differs in.

use crate::common;

use common::kautzgen;
use kautzgen::fabric::switch::{Arbiter, SwitchConfig, SwitchFault};
use kautzgen::network::switch::Switch;
use kautzgen::rtl::network::switch::SwitchParams;
use kautzgen::units::switch::traffic::{SwitchUnit, output_row};

fn bad_input(args: &[&str], message: &str) {
    let (status, stdout, stderr) = kautzgen(args);
    assert_eq!(status, 2, "{args:?}: {stderr}");
    assert_eq!(stdout, "", "{args:?}");
    assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
}

#[test]
fn bad_parameters_are_refused_with_one_line() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("sw");
    let dir = dir.to_str().unwrap();
    for (args, message) in [
        (&["--d", "0"][..], "switch degree d must be 1 to 15, got 0"),
        (&["--d", "16"], "switch degree d must be 1 to 15, got 16"),
        (
            &["--d", "2", "--data-bits", "0"],
            "data bits must be 1 to 64, got 0",
        ),
        (
            &["--d", "2", "--data-bits", "65"],
            "data bits must be 1 to 64, got 65",
        ),
        (
            &["--d", "2", "--data-bits", "1"],
            "1 data bits cannot name the 3 output ports of d = 2: route bytes need at least 2 bits",
        ),
    ] {
        let mut line = vec!["generate", "switch"];
        line.extend(args);
        line.extend(["--out", dir]);
        bad_input(&line, message);
    }
    assert!(!out.path().join("sw").exists(), "nothing is written");
    bad_input(
        &[
            "generate",
            "switch",
            "--d",
            "2",
            "--arbiter",
            "lottery",
            "--out",
            dir,
        ],
        "invalid value 'lottery' for '--arbiter <ARBITER>' [possible values: round-robin, fixed] (see --help)",
    );
}

#[test]
fn options_that_do_not_apply_are_refused() {
    for (args, message) in [
        (
            &["--shard", "0/2"][..],
            "--shard applies to the kautz, ldi, mrns and torus units only, not to the switch unit; it takes --d, --data-bits, --arbiter, --head-decision, --head-decode, --flow, --buffer-words, --clocking, --seed, --cycles, --fault, --wave, --delays, --top, --reset, --sim, --keep, --force, --out",
        ),
        (
            &["--pairs", "10"],
            "--pairs applies to the kautz and mrns units only, not to the switch unit; it takes --d, --data-bits, --arbiter, --head-decision, --head-decode, --flow, --buffer-words, --clocking, --seed, --cycles, --fault, --wave, --delays, --top, --reset, --sim, --keep, --force, --out",
        ),
        (
            &["--fault", "nope"],
            "--fault 'nope': the switch's faults are output-kept-after-eod, nack-not-returned",
        ),
        (
            &["--clocking", "self-timed", "--sim", "verilator"],
            "Verilator cannot simulate the self-timed switch (its clocks come through wires with delays): use --sim ghdl or --sim icarus",
        ),
        (
            &[
                "--clocking",
                "self-timed",
                "--fault",
                "output-kept-after-eod",
            ],
            "--fault 'output-kept-after-eod': the self-timed switch's faults are rising-edge-sampling, level-rendezvous",
        ),
        (
            &["--delays", "delays.txt"],
            "--delays sets the wires between self-timed switches: add --clocking self-timed",
        ),
    ] {
        let mut line = vec!["verify", "switch", "--d", "2"];
        line.extend(args);
        bad_input(&line, message);
    }
    bad_input(
        &["verify", "switch", "--d", "3", "--clocking", "self-timed"],
        "the self-timed switch is checked in a bidirectional ring of three, which needs d = 2, got d = 3",
    );
    bad_input(
        &["verify", "torus", "--k", "3", "--n", "2", "--cycles", "9"],
        "--cycles applies to the switch, router and network units only, not to the torus unit; it takes --k, --n, --algo, --registered, --fault, --vectors, --shard, --top, --reset, --sim, --keep, --force, --out",
    );
    bad_input(
        &[
            "verify",
            "router",
            "--d",
            "2",
            "--k",
            "3",
            "--delays",
            "delays.txt",
        ],
        "--delays applies to the switch and network units only, not to the router unit; it takes --d, --k, --max-bytes, --data-bits, --flow, --interface, --rx-bytes, --seed, --cycles, --fault, --wave, --top, --reset, --sim, --keep, --force, --out",
    );
    let scratch = tempfile::tempdir().unwrap();
    let delays = scratch.path().join("delays.txt");
    let shown = delays.display().to_string();
    let self_timed = [
        "verify",
        "switch",
        "--d",
        "2",
        "--clocking",
        "self-timed",
        "--delays",
    ];
    for (text, message) in [
        (
            "s1.in2_cl 7.0\ns1.out1_cla x\n",
            "line 2: `s1.out1_cla` needs a delay above 0 ns, in steps of 1 ps, got `x`",
        ),
        (
            "s1.in2_data 5.0\n",
            "s1.in2_data (5.000 ns) must arrive before the clock it travels with, s1.in2_cl (4.000 ns)",
        ),
    ] {
        std::fs::write(&delays, text).unwrap();
        let mut line = self_timed.to_vec();
        line.push(&shown);
        bad_input(&line, &format!("--delays {shown}: {message}"));
    }
    let missing = scratch.path().join("none.txt").display().to_string();
    let mut line = self_timed.to_vec();
    line.push(&missing);
    bad_input(
        &line,
        &format!("cannot read --delays {missing}: No such file or directory (os error 2)"),
    );
    bad_input(
        &["synth", "switch", "--d", "2", "--clocking", "self-timed"],
        "synthesis needs a synchronous design, and kautz_switch is self-timed: its C elements are combinational loops by design, with no clock to analyse its timing against",
    );
}

#[test]
fn verify_prints_its_heading_and_verdict() {
    let (status, stdout, stderr) = kautzgen(&[
        "verify", "switch", "--d", "2", "--cycles", "300", "--sim", "ghdl",
    ]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(
        stdout,
        "3x3 wormhole switch with NACK (d = 2, 8 data bits, round-robin arbitration): 180 directed and 300 random cycles (seed 1): 480 cycles\n\
         ghdl: 480 passed, 0 failed\n"
    );
}

#[test]
fn a_built_in_fault_fails_in_the_cycles_the_faulty_model_differs() {
    // The count comes from the two models on the traffic verify makes (seed 1, 300 cycles).
    let config = SwitchConfig::new(2, 8, Arbiter::RoundRobin).unwrap();
    let fault = SwitchFault::NackNotReturned;
    let unit = SwitchUnit::new(SwitchParams::new(config.clone()), 300, 1);
    let (mut good, mut bad) = (
        Switch::new(config.clone()),
        Switch::with_fault(config, Some(fault)),
    );
    let differing = unit
        .stimulus()
        .iter()
        .filter(|inputs| {
            good.step(&inputs.words, &inputs.out_nack, inputs.fault);
            bad.step(&inputs.words, &inputs.out_nack, inputs.fault);
            output_row(&good, 3) != output_row(&bad, 3)
        })
        .count();
    assert!(differing > 0);
    let (status, stdout, stderr) = kautzgen(&[
        "verify",
        "switch",
        "--d",
        "2",
        "--cycles",
        "300",
        "--sim",
        "ghdl",
        "--fault",
        "nack-not-returned",
    ]);
    assert_eq!(status, 1, "{stdout}{stderr}");
    assert_eq!(
        stderr,
        format!("error: verification failed (ghdl: {differing} of 480 cycles)\n")
    );
    assert!(stdout.ends_with(&format!(
        "ghdl: {} passed, {differing} failed\n",
        480 - differing
    )));
}

#[test]
fn generate_says_what_it_wrote() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("sw2");
    let (status, stdout, stderr) = kautzgen(&[
        "generate",
        "switch",
        "--d",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "wrote {}: top kautz_switch, 2 Verilog and 3 VHDL files; every output registered: a word one hop per clock, a head's grant registered in its own cycle\n",
            dir.display()
        )
    );
    let (status, stdout, _) = kautzgen(&[
        "generate",
        "switch",
        "--d",
        "2",
        "--clocking",
        "self-timed",
        "--out",
        out.path().join("st").to_str().unwrap(),
    ]);
    assert_eq!(status, 0);
    assert!(stdout.ends_with(": top kautz_switch, 4 Verilog and 5 VHDL files; self-timed: node_clk made by a Muller-C rendezvous of the neighbours' clocks; for simulation (GHDL, Icarus Verilog), not for synthesis\n"), "{stdout}");
}
