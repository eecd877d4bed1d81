//! The Verilog and the VHDL of every unit are proved equal (SAT temporal induction over a
//! yosys miter, the VHDL through `ghdl --synth`), and a VHDL changed on purpose gives a
//! counterexample that names the output that differs. A missing tool fails these tests
//! with its install command.

use crate::common;

use common::write_both;
use kautzgen::choice::Choice;
use kautzgen::routing::torus::Algorithm;
use kautzgen::rtl::ir::Design;
use kautzgen::rtl::kautz_route::{Fault, RouteGenParams, design, design_with_fault};
use kautzgen::rtl::ldi_units::{self, LdiUnitKind, LdiUnitParams};
use kautzgen::rtl::mrns_path_gen::{self, MrnsPathGenParams};
use kautzgen::rtl::torus_router::{self, TorusRouterParams};
use kautzgen::synth::equiv::{Setup, Verdict, prove};
use std::path::Path;
use std::process::Command;

fn route_generator(d: u64, k: u64) -> Design {
    design(&RouteGenParams::new(d, k, "kautz_route_gen").unwrap())
}

fn write(design: &Design, dir: &Path) {
    write_both(dir, design, "tests/prove_equivalence.rs");
}

/// Every unit the proof runs on in `make test`: the route generator at three sizes, and
/// one instance of each other unit, registered where it has the option so that the
/// induction has state to carry.
fn instances() -> Vec<(String, Design)> {
    let mut units: Vec<(String, Design)> = [(1, 2), (2, 3), (3, 3)]
        .into_iter()
        .map(|(d, k)| (format!("route generator K({d},{k})"), route_generator(d, k)))
        .collect();
    for &kind in LdiUnitKind::ALL {
        let params = LdiUnitParams::new(kind, 9, 3).unwrap().registered(true);
        units.push((
            format!("LDI(9,3) {}", kind.name()),
            ldi_units::design(&params),
        ));
    }
    for algorithm in [
        Algorithm::ECube,
        Algorithm::DoubleECube,
        Algorithm::WestFirst,
        Algorithm::DirectionFirst,
    ] {
        let params = TorusRouterParams::new(3, 2, algorithm, true, "torus_router").unwrap();
        units.push((
            format!("3-ary 2-cube {}", algorithm.name()),
            torus_router::design(&params),
        ));
    }
    // Mixed radices (a digit field with values that are no digit) and one-bit digits.
    for radices in [&[2, 3, 3, 4][..], &[2, 2, 2]] {
        let params = MrnsPathGenParams::new(radices).unwrap();
        units.push((
            format!("MRNS path generator of {}", params.network()),
            mrns_path_gen::design(&params),
        ));
    }
    units
}

#[test]
fn every_unit_is_proved_equal_in_both_languages() {
    for (name, unit) in instances() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("design");
        write(&unit, &dir);
        let work = scratch.path().join("work");
        std::fs::create_dir_all(&work).unwrap();
        let verdict =
            prove(&dir, &Setup::default(), &work).unwrap_or_else(|e| panic!("{name}: {e}"));
        match verdict {
            Verdict::Proved {
                induction_length: Some(1),
                matched_bits,
                register_bits,
            } => assert_eq!(
                matched_bits, register_bits,
                "{name}: every register is matched by name"
            ),
            other => panic!("{name}: {}", other.render(&name)),
        }
    }
}

#[test]
fn the_command_prints_proved() {
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(["prove", "--d", "1", "--k", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.starts_with(
            "PROVED: the Verilog and the VHDL of kautz_route_gen (d=1, k=2) have equal outputs in every cycle after a reset in cycle 1, for every input sequence.\n"
        ),
        "{stdout}"
    );
}

#[test]
fn a_changed_vhdl_gives_a_counterexample_naming_the_output() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("k23");
    write(&route_generator(2, 3), &dir);
    // The error flag takes `valid` where it should take `not valid`: an input word pair
    // that is valid raises error in the VHDL only.
    let control = dir.join("vhdl/kautz_route_gen_control.vhd");
    let text = std::fs::read_to_string(&control).unwrap();
    let right = "error <= kg_mux(init, (not valid), error);";
    assert!(text.contains(right), "the VHDL no longer has {right:?}");
    std::fs::write(
        &control,
        text.replace(right, "error <= kg_mux(init, valid, error);"),
    )
    .unwrap();
    let kept = scratch.path().join("work");
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(["prove", "--design"])
        .arg(&dir)
        .arg("--keep")
        .arg(&kept)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "COUNTEREXAMPLE: the Verilog and the VHDL of kautz_route_gen (d=2, k=3) differ in cycle 3: error"
    );
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        [
            "cycle",
            "rst",
            "init",
            "next_route",
            "src",
            "dst",
            "differing",
            "outputs"
        ]
    );
    // Cycle 1 resets; cycle 2 starts a search (init high, rst low); cycle 3 shows error
    // high in one language only.
    let cycle = |n: usize| lines[2 + n].split_whitespace().collect::<Vec<_>>();
    assert_eq!(&cycle(1)[..2], ["1", "1"]);
    assert_eq!(&cycle(2)[..3], ["2", "0", "1"]);
    assert!(
        lines[5].ends_with("error: 1 / 0") || lines[5].ends_with("error: 0 / 1"),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        format!(
            "error: not proved; scripts and logs kept in {}\n",
            kept.canonicalize().unwrap().display()
        )
    );
    assert!(kept.join("search.log").exists());
}

/// Each of `faults`, put into the VHDL of K(2,3)'s route generator alone, gives a
/// counterexample after the reset.
fn vhdl_faults_give_counterexamples(faults: &[Fault]) {
    let params = RouteGenParams::new(2, 3, "kautz_route_gen").unwrap();
    for &fault in faults {
        let scratch = tempfile::tempdir().unwrap();
        let (dir, faulty) = (scratch.path().join("good"), scratch.path().join("faulty"));
        write(&design(&params), &dir);
        write(&design_with_fault(&params, Some(fault)), &faulty);
        for entry in std::fs::read_dir(faulty.join("vhdl")).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.join("vhdl").join(path.file_name().unwrap())).unwrap();
        }
        let work = scratch.path().join("work");
        std::fs::create_dir_all(&work).unwrap();
        match prove(&dir, &Setup::default(), &work).unwrap() {
            Verdict::Counterexample(trace) => {
                let (cycle, outputs) = trace.first_difference().unwrap();
                assert!(cycle >= 2 && !outputs.is_empty(), "{fault:?}");
            }
            other => panic!("{fault:?}: {}", other.render("faulty")),
        }
    }
}

#[test]
fn a_built_in_fault_in_the_vhdl_alone_gives_a_counterexample() {
    vhdl_faults_give_counterexamples(&[Fault::FlippedComparator]);
}

#[test]
#[ignore = "long (about 13 s): make test proves one VHDL-only fault; make verify-full runs this"]
fn the_other_built_in_faults_in_the_vhdl_alone_give_counterexamples() {
    vhdl_faults_give_counterexamples(&[Fault::UsedBitNeverSet, Fault::PhaseBSkipped]);
}

#[test]
fn bad_input_exits_with_status_2() {
    let scratch = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            vec!["prove", "--d", "2"],
            "error: the route generator needs --d and --k (the Kautz digraph K(d,k))\n",
        ),
        (
            vec!["prove", "--d", "0", "--k", "3"],
            "error: K(d,k) needs 1 <= d <= 255, got d = 0\n",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), message);
    }
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(["prove", "--design"])
        .arg(scratch.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: cannot read the design in") && stderr.contains("manifest.json"),
        "{stderr}"
    );
}
