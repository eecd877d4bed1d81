//! The parallel route generator (`--arch parallel`): the faithful design's ports, every
//! pair of the small graphs right in Verilator and GHDL within 2 cycles of work, lint-clean,
//! its Verilog proved equal to its VHDL, each built-in fault caught at its exact first
//! mismatch, the same answers as the faithful design, and bad command lines refused.
//!
//! These tests need Verilator, GHDL and yosys (`make deps`); without them they fail.

use crate::common;

use common::{CLOCKED_LINT, assert_lint_clean, assert_proved, write_both};
use kautzgen::routing::kautz::{Phase, route_set};
use kautzgen::rtl::ir::Design;
use kautzgen::rtl::kautz_route::{Arch, RouteGenParams, design};
use kautzgen::topology::kautz::Kautz;
use std::path::Path;
use std::process::{Command, Output};

fn kautzgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn parallel(d: u64, k: u64) -> Design {
    let params = RouteGenParams::new(d, k, "kautz_route_gen").unwrap();
    design(&params.with_arch(Arch::Parallel))
}

fn write(design: &Design, dir: &Path) {
    write_both(dir, design, "tests/arch_parallel.rs");
}

/// `verify --pairs all` of K(d,k) with `arch`, in both simulators.
fn verify_all(d: u64, k: u64, arch: &str, extra: &[&str]) -> Output {
    let (d, k) = (d.to_string(), k.to_string());
    let args = [
        "verify", "--d", &d, "--k", &k, "--pairs", "all", "--arch", arch,
    ];
    kautzgen(&[&args[..], extra].concat())
}

/// Checks that a run passed every vector in both simulators, within `bound` cycles.
fn assert_passes(out: &Output, heading: &str, vectors: u64, bound: u64) {
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert_eq!(lines[0], heading);
    for (i, sim) in ["verilator", "ghdl"].into_iter().enumerate() {
        let cycles = lines[1 + 2 * i];
        assert!(
            cycles.starts_with(&format!("{sim}: cycles per route set: mean ")),
            "{cycles}"
        );
        assert!(cycles.ends_with(&format!(" (bound {bound})")), "{cycles}");
        assert_eq!(
            lines[2 + 2 * i],
            format!("{sim}: {vectors} passed, 0 failed")
        );
    }
}

#[test]
fn the_ports_are_the_faithful_designs() {
    for (d, k) in [(1, 1), (1, 2), (2, 3), (4, 5), (255, 2), (7, 64)] {
        let params = RouteGenParams::new(d, k, "kautz_route_gen").unwrap();
        let ports = |design: &Design| -> Vec<_> {
            let top = design.top();
            top.ports()
                .map(|(_, s)| (s.name.clone(), s.width, s.kind.clone()))
                .collect()
        };
        let faithful = design(&params);
        let parallel = parallel(d, k);
        assert_eq!(parallel.top().name, faithful.top().name, "K({d},{k})");
        assert_eq!(ports(&parallel), ports(&faithful), "K({d},{k})");
        assert_eq!(parallel.params["cycle_bound"], 2);
        assert!(!faithful.params.contains_key("cycle_bound"));
    }
}

/// Every pair of K(d,k) (`pairs` of them, and `invalid` invalid vectors) passes in both
/// simulators in exactly 2 cycles of work per route set. The graphs are those the faithful
/// design is verified on for every pair (tests/verify_sim.rs), each a test of its own so
/// that they run side by side.
fn every_pair_passes_within_2_cycles(d: u64, k: u64, pairs: u64, invalid: u64) {
    let out = verify_all(d, k, "parallel", &[]);
    let heading = format!(
        "parallel route generator of K({d},{k}): all {pairs} pairs and {invalid} invalid vectors: {} vectors",
        pairs + invalid
    );
    assert_passes(&out, &heading, pairs + invalid, 2);
    // A route set takes exactly 2 cycles of work: init, then the first route.
    assert!(text(&out.stdout).contains("mean 2.0, max 2 (bound 2)"));
}

#[test]
fn every_pair_of_k12_passes_in_both_simulators_within_2_cycles() {
    every_pair_passes_within_2_cycles(1, 2, 2, 4);
}

#[test]
fn every_pair_of_k22_passes_in_both_simulators_within_2_cycles() {
    every_pair_passes_within_2_cycles(2, 2, 30, 6);
}

#[test]
fn every_pair_of_k23_passes_in_both_simulators_within_2_cycles() {
    every_pair_passes_within_2_cycles(2, 3, 132, 6);
}

#[test]
fn every_pair_of_k33_passes_in_both_simulators_within_2_cycles() {
    every_pair_passes_within_2_cycles(3, 3, 1260, 4);
}

#[test]
fn every_pair_of_k43_passes_in_both_simulators_within_2_cycles() {
    every_pair_passes_within_2_cycles(4, 3, 6320, 6);
}

#[test]
fn every_pair_of_k25_passes_in_both_simulators_within_2_cycles() {
    every_pair_passes_within_2_cycles(2, 5, 2256, 6);
}

/// Parallel against faithful: both are driven by the same vectors (every pair, the
/// invalid words, and each vector's hold times, nudges, lead-ins and resets, which depend
/// on the words alone), and each is compared with the golden model route by route; so for
/// every pair and that stimulus the two give the same routes in the same order, the same
/// `done` and `error`, and the same holding behaviour. Only the cycles differ. The parallel
/// half is `every_pair_of_k23_...` and `every_pair_of_k33_...` above, the same command
/// with the same checks; here the faithful half, within its bound.
fn faithful_passes_as_parallel_does(d: u64, k: u64, pairs: u64, invalid: u64) {
    let heading = format!(
        "route generator of K({d},{k}): all {pairs} pairs and {invalid} invalid vectors: {} vectors",
        pairs + invalid
    );
    let bound = k + 3 * (d + 1) + 4;
    assert_passes(
        &verify_all(d, k, "faithful", &[]),
        &heading,
        pairs + invalid,
        bound,
    );
}

#[test]
fn parallel_and_faithful_answer_alike_on_k23() {
    faithful_passes_as_parallel_does(2, 3, 132, 6);
}

#[test]
fn parallel_and_faithful_answer_alike_on_k33() {
    faithful_passes_as_parallel_does(3, 3, 1260, 4);
}

/// Every check of `lint` is clean for the parallel K(d,k). The sizes at the edges are each
/// a test of their own, so that they run side by side.
fn every_check_is_clean(d: u64, k: u64) {
    let dir = tempfile::tempdir().unwrap();
    write(&parallel(d, k), dir.path());
    assert_lint_clean(dir.path(), &CLOCKED_LINT, &format!("K({d},{k})"));
}

#[test]
fn every_check_is_clean_for_k1_1() {
    every_check_is_clean(1, 1);
}

#[test]
fn every_check_is_clean_for_k1_2() {
    every_check_is_clean(1, 2);
}

#[test]
fn every_check_is_clean_for_k2_1() {
    every_check_is_clean(2, 1);
}

#[test]
fn every_check_is_clean_for_k2_3() {
    every_check_is_clean(2, 3);
}

#[test]
fn every_check_is_clean_for_k3_3() {
    every_check_is_clean(3, 3);
}

#[test]
fn every_check_is_clean_for_k4_5() {
    every_check_is_clean(4, 5);
}

#[test]
fn every_check_is_clean_for_k7_2() {
    every_check_is_clean(7, 2);
}

#[test]
fn every_check_is_clean_for_k8_4() {
    every_check_is_clean(8, 4);
}

#[test]
fn every_check_is_clean_for_k15_3() {
    every_check_is_clean(15, 3);
}

#[test]
fn every_check_is_clean_for_k255_2() {
    every_check_is_clean(255, 2);
}

#[test]
fn every_check_is_clean_for_k2_64() {
    every_check_is_clean(2, 64);
}

// Each size is a test of its own, so that the proofs run side by side.
#[test]
fn verilog_and_vhdl_of_k11_are_proved_equal() {
    assert_proved(&parallel(1, 1), "parallel", "K(1,1)");
}

#[test]
fn verilog_and_vhdl_of_k12_are_proved_equal() {
    assert_proved(&parallel(1, 2), "parallel", "K(1,2)");
}

#[test]
fn verilog_and_vhdl_of_k23_are_proved_equal() {
    assert_proved(&parallel(2, 3), "parallel", "K(2,3)");
}

#[test]
fn verilog_and_vhdl_of_k33_are_proved_equal() {
    assert_proved(&parallel(3, 3), "parallel", "K(3,3)");
}

#[test]
fn kautzgen_prove_proves_the_parallel_k23() {
    let out = kautzgen(&["prove", "--d", "2", "--k", "3", "--arch", "parallel"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(
        "PROVED: the Verilog and the VHDL of kautz_route_gen (cycle_bound=2, d=2, k=3) have equal outputs"
    ));
}

fn pairs_with_a_phase_b_route(d: u64, k: u64) -> u64 {
    let g = Kautz::new(d, k).unwrap();
    let words: Vec<_> = (0..g.node_count().unwrap())
        .map(|i| g.word_at(i as usize))
        .collect();
    let mut count = 0;
    for src in &words {
        for dst in words.iter().filter(|w| *w != src) {
            let routes = route_set(&g, src.letters(), dst.letters()).unwrap();
            count += u64::from(routes.iter().any(|r| r.shape.phase() == Phase::B));
        }
    }
    count
}

/// K(2,3) built with `fault` fails `failed` of its 138 vectors in each of `sims`, the
/// first failure reading `first`. Each fault runs in one simulator in `make test`; `make
/// verify-full` runs every fault in both.
fn fault_is_caught_at_its_first_mismatch(fault: &str, failed: u64, first: &str, sims: &[&str]) {
    let only = match sims {
        [sim] => vec!["--sim", sim],
        _ => Vec::new(),
    };
    let out = verify_all(2, 3, "parallel", &[&["--fault", fault][..], &only].concat());
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{fault}: {stdout}");
    for sim in sims {
        assert!(
            stdout.contains(&format!("\n{sim}: {first}")),
            "{fault}, {sim}: {stdout}"
        );
        assert!(
            stdout.contains(&format!(
                "\n{sim}: {} passed, {failed} failed\n",
                138 - failed
            )),
            "{fault}, {sim}: {stdout}"
        );
    }
    let each: Vec<String> = sims
        .iter()
        .map(|sim| format!("{sim}: {failed} of 138 vectors"))
        .collect();
    assert_eq!(
        text(&out.stderr),
        format!("error: verification failed ({})\n", each.join("; "))
    );
}

/// Every built-in fault, the vectors it fails and its first failure.
fn faults() -> [(&'static str, u64, &'static str); 3] {
    [
        (
            "flipped-comparator",
            84,
            "vector 0: src=010 dst=012 (hold 1, lead-in 4)\n  expected: [12] [2012] done\n  got:      [1012] [2012] done after 2 cycles\n  - item 1 is [1012], expected [12]\n",
        ),
        (
            "used-bit-never-set",
            62,
            "vector 4: src=010 dst=102 (next nudged)\n  expected: [2] [12102] done\n  got:      [2] [102] done after 2 cycles\n  - item 2 is [102], expected [12102]\n",
        ),
        (
            "phase-b-skipped",
            pairs_with_a_phase_b_route(2, 3),
            "vector 0: src=010 dst=012 (hold 1, lead-in 4)\n  expected: [12] [2012] done\n  got:      [12] [22012] done after 2 cycles\n  - item 2 is [22012], expected [2012]\n",
        ),
    ]
}

fn fault_is_caught(index: usize, sims: &[&str]) {
    let (fault, failed, first) = faults()[index];
    fault_is_caught_at_its_first_mismatch(fault, failed, first, sims);
}

#[test]
fn a_flipped_comparator_is_caught_at_its_first_mismatch_in_ghdl() {
    fault_is_caught(0, &["ghdl"]);
}

#[test]
fn a_used_bit_never_set_is_caught_at_its_first_mismatch_in_verilator() {
    fault_is_caught(1, &["verilator"]);
}

#[test]
fn a_skipped_phase_b_is_caught_at_its_first_mismatch_in_ghdl() {
    fault_is_caught(2, &["ghdl"]);
}

#[test]
#[ignore = "long (about 10 s): make test runs each built-in fault in one simulator; make verify-full runs this, every fault in both"]
fn every_built_in_fault_is_caught_alike_in_both_simulators() {
    for index in 0..faults().len() {
        fault_is_caught(index, &["verilator", "ghdl"]);
    }
}

#[test]
fn generate_writes_the_bound_and_faithful_stays_the_default() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = |name: &str| scratch.path().join(name);
    let generate = |out: &Path, arch: &[&str]| {
        let out = out.to_str().unwrap();
        let args = [
            &["generate", "--d", "2", "--k", "3", "--out", out][..],
            arch,
        ]
        .concat();
        let run = kautzgen(&args);
        assert!(run.status.success(), "{}", text(&run.stderr));
        text(&run.stdout)
    };
    let said = generate(&dir("par"), &["--arch", "parallel"]);
    assert!(said.ends_with(
        "the first route_valid or done 2 cycles after init, each further one the cycle after next_route\n"
    ), "{said}");
    let manifest = std::fs::read_to_string(dir("par").join("manifest.json")).unwrap();
    assert!(
        manifest.starts_with("{\"top\":\"kautz_route_gen\",\"cycle_bound\":2,\"d\":2,\"k\":3,")
    );
    // verify reads the bound of a design directory from its manifest.
    let out = kautzgen(&[
        "verify",
        "--d",
        "2",
        "--k",
        "3",
        "--sim",
        "verilator",
        "--pairs",
        "20",
        "--design",
        dir("par").to_str().unwrap(),
    ]);
    assert!(
        text(&out.stdout).contains("(bound 2)"),
        "{}",
        text(&out.stdout)
    );
    // --arch faithful is the default, to the byte.
    generate(&dir("default"), &[]);
    generate(&dir("faithful"), &["--arch", "faithful"]);
    for file in [
        "manifest.json",
        "verilog/kautz_route_gen.v",
        "vhdl/kautz_route_gen.vhd",
    ] {
        assert_eq!(
            std::fs::read(dir("default").join(file)).unwrap(),
            std::fs::read(dir("faithful").join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn bad_command_lines_exit_2_with_one_line() {
    for (args, message) in [
        (
            &[
                "generate", "ldi", "--m", "18", "--s", "3", "--arch", "parallel", "--out", "x",
            ][..],
            "error: --arch applies to the kautz unit only, not to the ldi unit; it takes --kind, --m, --s, --registered, --data-bits, --fault, --top, --reset, --out, --force, --lang, --testbench\n",
        ),
        (
            &["verify", "switch", "--d", "2", "--arch", "parallel"][..],
            "error: --arch applies to the kautz unit only, not to the switch unit; it takes --d, --data-bits, --arbiter, --head-decision, --head-decode, --flow, --buffer-words, --clocking, --seed, --cycles, --fault, --wave, --delays, --top, --reset, --sim, --keep, --force, --out\n",
        ),
        (
            &[
                "verify", "--d", "2", "--k", "3", "--arch", "parallel", "--design", "x",
            ][..],
            "error: --arch builds a design; one read with --design has its own (its manifest's cycle_bound)\n",
        ),
        (
            &["prove", "--design", "x", "--arch", "parallel"][..],
            "error: --design proves the design in DIR: give no unit, --d, --k or --arch with it\n",
        ),
    ] {
        let out = kautzgen(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&out.stderr), message, "{args:?}");
    }
}
