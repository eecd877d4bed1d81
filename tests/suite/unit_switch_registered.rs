//! The bufferless switch with the registered head decode (`--head-decode registered`,
//! docs/switch.md "Registered head decode") in hardware: lint-clean; every output in every
//! cycle equal to the cycle model's in Verilator and GHDL for d = 1, 2 and 4, with either
//! head decision and both arbiters; both built-in faults caught where the faulty model
//! differs; proved equal in both languages with its register bits counted; and refused
//! with one line where it is not built.

use crate::common;
use crate::unit_switch::{differing_cycles, run};

use common::{CLOCKED_LINT, assert_lint_clean, kautzgen, write_both};
use kautzgen::fabric::switch::{Arbiter, HeadDecode, SwitchConfig, SwitchFault};
use kautzgen::rtl::network::switch::{HeadDecision, SwitchParams, design};
use kautzgen::sim::Simulator;
use kautzgen::sim::ghdl::Ghdl;
use kautzgen::sim::verilator::Verilator;
use kautzgen::units::switch::traffic::SwitchUnit;

/// The registered switch of degree `d` with the decision its command line defaults to.
fn params(d: u64, arbiter: Arbiter) -> SwitchParams {
    let config = SwitchConfig::new(d, 8, arbiter)
        .and_then(|c| c.with_head_decode(HeadDecode::Registered))
        .unwrap();
    SwitchParams::new(config).with_head_decision(HeadDecision::PerOutput)
}

#[test]
fn every_size_is_lint_clean() {
    for p in [
        params(1, Arbiter::RoundRobin),
        params(4, Arbiter::Fixed),
        params(2, Arbiter::RoundRobin).with_head_decision(HeadDecision::PerInput),
    ] {
        let dir = tempfile::tempdir().unwrap();
        write_both(dir.path(), &design(&p), "unit_switch_registered test");
        assert_lint_clean(dir.path(), &CLOCKED_LINT, &p.describe());
    }
}

/// Every output of `p` in every cycle of the directed cases and 2000 random ones equals
/// the model's in `simulator`.
fn every_output_equals_the_model(p: SwitchParams, simulator: &dyn Simulator) {
    let unit = SwitchUnit::new(p.clone(), 2000, 7);
    assert_eq!(
        run(simulator, &unit).render(),
        format!("{}: 2180 passed, 0 failed\n", simulator.name()),
        "{}",
        p.describe()
    );
}

#[test]
fn d1_d2_and_d4_equal_the_model_in_verilator() {
    for d in [1, 2, 4] {
        every_output_equals_the_model(params(d, Arbiter::RoundRobin), &Verilator::default());
    }
}

#[test]
fn d1_d2_and_d4_equal_the_model_in_ghdl() {
    for d in [1, 2, 4] {
        every_output_equals_the_model(params(d, Arbiter::RoundRobin), &Ghdl::default());
    }
}

#[test]
fn the_per_input_decision_and_the_fixed_arbiter_equal_the_model() {
    let per_input = params(4, Arbiter::RoundRobin).with_head_decision(HeadDecision::PerInput);
    every_output_equals_the_model(per_input, &Verilator::default());
    every_output_equals_the_model(params(2, Arbiter::Fixed), &Ghdl::default());
}

#[test]
fn both_faults_fail_where_the_faulty_model_differs() {
    let p = params(2, Arbiter::RoundRobin);
    for fault in [
        SwitchFault::NackNotReturned,
        SwitchFault::OutputKeptAfterEod,
    ] {
        let unit = SwitchUnit::new(p.clone().with_fault(Some(fault)), 2000, 5);
        let (count, first) = differing_cycles(&unit, &p, fault);
        assert!(count > 0, "{fault:?} changes nothing");
        let report = run(&Verilator::default(), &unit);
        assert_eq!(report.failed, count, "{fault:?}");
        assert_eq!(report.failures[0], first, "{fault:?}");
    }
}

#[test]
fn both_languages_are_proved_equal_with_99_register_bits() {
    // The same-cycle switch's 57 (per output: owner 3, first 1, pointer 3, link 10; per
    // input: busy, NACK) and per input a word register (10 bits), its decoded request (3)
    // and `tail`: 57 + 3 * 14 = 99.
    let (status, stdout, stderr) =
        kautzgen(&["prove", "switch", "--d", "2", "--head-decode", "registered"]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout,
        "PROVED: the Verilog and the VHDL of kautz_switch (d=2, data_bits=8, hop_cycles=2) have equal outputs in every cycle after a reset in cycle 1, for every input sequence.\n\
         method: yosys miter of the emitted Verilog and the VHDL through ghdl --synth; SAT temporal induction of length 1, strengthened by 99 of 99 register bits matched by name.\n"
    );
}

#[test]
fn where_it_is_not_built_it_is_refused_with_one_line() {
    let registered = [
        "verify",
        "switch",
        "--d",
        "2",
        "--head-decode",
        "registered",
    ];
    let cases: [(&[&str], &str); 2] = [
        (
            &["--flow", "vct"],
            "--head-decode registered is built for --flow nack; --flow vct and saf decide at their buffers' heads",
        ),
        (
            &["--clocking", "self-timed"],
            "--head-decode registered is built synchronous; the self-timed switch is the paper's lock-step one, --head-decode same-cycle",
        ),
    ];
    for (more, message) in cases {
        let args = [&registered[..], more].concat();
        let (status, stdout, stderr) = kautzgen(&args);
        assert_eq!((status, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
        assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
    }
}
