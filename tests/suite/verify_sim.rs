//! `kautzgen verify` end to end, in Verilator and GHDL, on the generated route generator:
//! small graphs pass for every pair, each built-in fault is caught by both simulators,
//! shards add up, waves are written, a missing simulator or a broken design is an error
//! that says what to do, and the testbenches are lint-clean.
//!
//! These tests need both simulators (`make deps` installs them); without them they fail,
//! never skip.

use kautzgen::emit::names::Language as EmitLanguage;
use kautzgen::emit::{Provenance, write_design};
use kautzgen::routing::kautz::{Phase, route_set};
use kautzgen::rtl::kautz_route::{Fault, RouteGenParams, design_with_fault};
use kautzgen::sim::ghdl::Ghdl;
use kautzgen::sim::sequence::{self, Mode, Options, SequenceUnit};
use kautzgen::sim::testbench::Language;
use kautzgen::sim::vectors::{Pairs, Shard, VectorSet};
use kautzgen::sim::verilator::Verilator;
use kautzgen::sim::{SimError, Simulator};
use kautzgen::topology::kautz::Kautz;
use kautzgen::units::kautz::sequence::{DesignDir, RouteGenUnit};
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

/// Writes the K(d,k) route generator, with `fault` if any, into `dir`.
fn generate(dir: &Path, d: u64, k: u64, fault: Option<Fault>) {
    let params = RouteGenParams::new(d, k, "kautz_route_gen").unwrap();
    write_design(
        dir,
        &design_with_fault(&params, fault),
        &[EmitLanguage::Verilog, EmitLanguage::Vhdl],
        &Provenance {
            command: "tests/verify_sim.rs".into(),
        },
    )
    .unwrap();
}

/// Checks a passing run's report: the selection line, then per simulator the cycle
/// figures within the bound and `<sim>: N passed, 0 failed`.
fn assert_passes(out: &Output, first_line: &str, vectors: u64, bound: u64, sims: &[&str]) {
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * sims.len(), "{stdout}");
    assert_eq!(lines[0], first_line);
    for (i, sim) in sims.iter().enumerate() {
        let cycles = lines[1 + 2 * i];
        let prefix = format!("{sim}: cycles per route set: mean ");
        assert!(cycles.starts_with(&prefix), "{cycles}");
        let suffix = format!(" (bound {bound})");
        assert!(cycles.ends_with(&suffix), "{cycles}");
        let max: u64 = cycles
            .split("max ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(max <= bound, "{cycles}");
        assert_eq!(
            lines[2 + 2 * i],
            format!("{sim}: {vectors} passed, 0 failed")
        );
    }
}

#[test]
fn every_pair_of_k23_passes_in_both_simulators() {
    // K(2,3): 2^3 + 2^2 = 12 nodes, 132 ordered pairs; invalid vectors: src = dst twice,
    // equal neighbours twice, letter 3 > d twice (3 = 2^2 - 1 is not a letter): 138.
    // Bound 3 + 3*3 + 4 = 16.
    let out = kautzgen(&["verify", "--d", "2", "--k", "3", "--pairs", "all"]);
    assert_passes(
        &out,
        "route generator of K(2,3): all 132 pairs and 6 invalid vectors: 138 vectors",
        138,
        16,
        &["verilator", "ghdl"],
    );
}

/// The graphs the project promises to verify exhaustively. Expected figures are worked
/// out here from the definitions: n = d^k + d^(k-1) nodes, n(n-1) ordered pairs; invalid
/// vectors are src = dst twice, equal neighbours twice when k >= 2, and a letter above d
/// twice when d+1 is not a power of two; bound k + 3(d+1) + 4.
#[test]
fn every_pair_of_the_promised_graphs_passes_in_both_simulators() {
    for (d, k, pairs, invalid, bound) in [
        (1u64, 2u64, 2u64, 4u64, 12u64),
        (2, 2, 30, 6, 15),
        (3, 3, 1260, 4, 19),
        (4, 3, 6320, 6, 22),
        (2, 5, 2256, 6, 18),
    ] {
        let nodes = d.pow(k as u32) + d.pow(k as u32 - 1);
        assert_eq!(nodes * (nodes - 1), pairs, "K({d},{k})");
        let out = kautzgen(&[
            "verify",
            "--d",
            &d.to_string(),
            "--k",
            &k.to_string(),
            "--pairs",
            "all",
        ]);
        assert_passes(
            &out,
            &format!(
                "route generator of K({d},{k}): all {pairs} pairs and {invalid} invalid vectors: {} vectors",
                pairs + invalid
            ),
            pairs + invalid,
            bound,
            &["verilator", "ghdl"],
        );
    }
}

#[test]
fn a_design_directory_given_by_a_relative_path() {
    let scratch = tempfile::tempdir().unwrap();
    generate(&scratch.path().join("k22"), 2, 2, None);
    let out = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args([
            "verify",
            "--d",
            "2",
            "--k",
            "2",
            "--pairs",
            "all",
            "--sim",
            "verilator",
            "--design",
            "k22",
        ])
        .current_dir(scratch.path())
        .output()
        .unwrap();
    assert_passes(
        &out,
        "route generator read from k22 of K(2,2): all 30 pairs and 6 invalid vectors: 36 vectors",
        36,
        15,
        &["verilator"],
    );
}

#[test]
fn a_sample_of_k45_passes_in_both_simulators() {
    let out = kautzgen(&[
        "verify", "--d", "4", "--k", "5", "--pairs", "2000", "--seed", "3",
    ]);
    assert_passes(
        &out,
        "route generator of K(4,5): 2000 sampled pairs (seed 3) and 6 invalid vectors: 2006 vectors",
        2006,
        24,
        &["verilator", "ghdl"],
    );
}

#[test]
fn a_sample_of_the_largest_graph_passes_in_both_simulators() {
    // K(255,64): 8-bit letters, 512-bit words, a 528-bit route; every 8-bit value is a
    // letter, so the invalid vectors are equal neighbours (in src, in dst) and src = dst
    // twice: 4. The bound is k + 3(d+1) + 4 = 836.
    let out = kautzgen(&["verify", "--d", "255", "--k", "64", "--pairs", "30"]);
    assert_passes(
        &out,
        "route generator of K(255,64): 30 sampled pairs (seed 1) and 4 invalid vectors: 34 vectors",
        34,
        836,
        &["verilator", "ghdl"],
    );
}

#[test]
fn one_bit_words_and_another_top_name() {
    // K(1,1): nodes 0 and 1, src and dst one bit each (std_logic ports in VHDL).
    let out = kautzgen(&["verify", "--d", "1", "--k", "1", "--pairs", "all"]);
    assert_passes(
        &out,
        "route generator of K(1,1): all 2 pairs and 2 invalid vectors: 4 vectors",
        4,
        11,
        &["verilator", "ghdl"],
    );
    // K(3,2): 12 nodes, 132 pairs; every 2-bit value is a letter: 4 invalid vectors.
    let out = kautzgen(&[
        "verify",
        "--d",
        "3",
        "--k",
        "2",
        "--pairs",
        "all",
        "--top",
        "router_k32",
    ]);
    assert_passes(
        &out,
        "route generator of K(3,2): all 132 pairs and 4 invalid vectors: 136 vectors",
        136,
        18,
        &["verilator", "ghdl"],
    );
}

/// Ordered pairs of K(d,k) whose route set has a route of phase B.
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

#[test]
fn each_built_in_fault_fails_in_both_simulators() {
    let scratch = tempfile::tempdir().unwrap();
    for fault in [
        Fault::FlippedComparator,
        Fault::UsedBitNeverSet,
        Fault::PhaseBSkipped,
    ] {
        let dir = scratch.path().join(format!("{fault:?}"));
        generate(&dir, 2, 3, Some(fault));
        let out = kautzgen(&[
            "verify",
            "--d",
            "2",
            "--k",
            "3",
            "--pairs",
            "all",
            "--design",
            dir.to_str().unwrap(),
        ]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{fault:?}: {stdout}");
        let count = |sim: &str| -> u64 {
            let line = stdout
                .lines()
                .find(|l| l.starts_with(&format!("{sim}: ")) && l.ends_with(" failed"))
                .unwrap_or_else(|| panic!("{fault:?}: no summary for {sim}: {stdout}"));
            line.split(", ")
                .nth(1)
                .unwrap()
                .trim_end_matches(" failed")
                .parse()
                .unwrap()
        };
        let failed = count("verilator");
        match fault {
            // Without phase B a pair goes wrong exactly when the golden model gives it a
            // phase-B route; the others get the same routes, only sooner.
            Fault::PhaseBSkipped => assert_eq!(failed, pairs_with_a_phase_b_route(2, 3)),
            _ => assert!(failed > 0, "{fault:?}"),
        }
        assert_eq!(count("ghdl"), failed, "{fault:?}: the simulators disagree");
        assert!(stdout.contains("\n  expected: "), "{fault:?}: {stdout}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: verification failed (verilator: {failed} of 138 vectors; ghdl: {failed} of 138 vectors)\n"
            )
        );
    }
}

#[test]
fn waves_are_written_in_both_simulators() {
    let scratch = tempfile::tempdir().unwrap();
    for sim in ["verilator", "ghdl"] {
        let wave = scratch.path().join(format!("{sim}.vcd"));
        let out = kautzgen(&[
            "verify",
            "--d",
            "2",
            "--k",
            "2",
            "--pairs",
            "3",
            "--sim",
            sim,
            "--wave",
            wave.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let vcd = std::fs::read_to_string(&wave).unwrap();
        assert!(vcd.contains("$enddefinitions"), "{sim}");
        assert!(vcd.contains("route_valid"), "{sim}");
    }
}

#[test]
fn bad_command_lines_exit_2_with_one_line() {
    for (args, message) in [
        (
            &["--shard", "2/2"][..],
            "error: shard '2/2' is not I/N with 0 <= I < N (for example 0/8)",
        ),
        (
            &["--wave", "x.vcd"][..],
            "error: --wave writes the waves of one simulator: add --sim verilator or --sim ghdl",
        ),
        (
            &["--design", "/nonexistent/k23"][..],
            "error: cannot read /nonexistent/k23/manifest.json: No such file or directory (os error 2)",
        ),
    ] {
        let out = kautzgen(&[&["verify", "--d", "2", "--k", "3"][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(text(&out.stderr), format!("{message}\n"));
    }
}

/// The route generator of K(2,3) on four sampled pairs, simulating the design in `dir`.
fn k23_reading(dir: &Path) -> RouteGenUnit {
    let g = Kautz::new(2, 3).unwrap();
    let vectors = VectorSet::new(&g, Pairs::Sample { count: 4, seed: 1 }, Shard::WHOLE).unwrap();
    let params = RouteGenParams::new(2, 3, "kautz_route_gen").unwrap();
    RouteGenUnit::new(params, None, vectors).reading(DesignDir::load(dir, &g).unwrap())
}

fn options() -> Options<'static> {
    Options {
        shown: 10,
        wave: None,
        progress: &|_| {},
    }
}

#[test]
fn a_missing_simulator_is_an_error_naming_the_install_command() {
    let scratch = tempfile::tempdir().unwrap();
    generate(scratch.path(), 2, 3, None);
    let unit = k23_reading(scratch.path());
    let simulators: [(Box<dyn Simulator>, &str); 2] = [
        (
            Box::new(Verilator {
                exe: "/nonexistent/verilator".into(),
            }),
            "verilator is not installed (could not run '/nonexistent/verilator'); install it with `apt-get install verilator`, or `make deps`",
        ),
        (
            Box::new(Ghdl {
                exe: "/nonexistent/ghdl".into(),
            }),
            "ghdl is not installed (could not run '/nonexistent/ghdl'); install it with `apt-get install ghdl`, or `make deps`",
        ),
    ];
    for (simulator, message) in simulators {
        let error =
            sequence::verify(simulator.as_ref(), &unit, Shard::WHOLE, options()).unwrap_err();
        assert!(matches!(error, SimError::Missing { .. }));
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn a_design_that_does_not_compile_keeps_its_log() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    std::fs::write(
        dir.join("manifest.json"),
        r#"{"top":"kautz_route_gen","d":2,"k":3,"verilog":["bad.v"],"vhdl":["bad.vhd"]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("bad.v"),
        "module kautz_route_gen(input clk); wire x = ; endmodule\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("bad.vhd"),
        "entity kautz_route_gen is port (clk : in bit) end;\n",
    )
    .unwrap();
    let unit = k23_reading(dir);
    let simulators: [(Box<dyn Simulator>, &str); 2] = [
        (Box::new(Verilator::default()), "syntax error"),
        (Box::new(Ghdl::default()), "missing \";\""),
    ];
    for (simulator, in_log) in simulators {
        let error =
            sequence::verify(simulator.as_ref(), &unit, Shard::WHOLE, options()).unwrap_err();
        let SimError::Compile { log, first, .. } = &error else {
            panic!("not a compile error: {error}");
        };
        let kept = std::fs::read_to_string(log).unwrap();
        std::fs::remove_dir_all(log.parent().unwrap()).unwrap();
        assert!(kept.contains(in_log), "{kept}");
        assert!(first.contains(in_log), "{first}");
        assert!(
            error.to_string().starts_with(&format!(
                "{} could not compile the design and testbench: ",
                simulator.name()
            )),
            "{error}"
        );
        assert!(
            error
                .to_string()
                .ends_with(&format!("; full log kept in {}", log.display()))
        );
    }
}

#[test]
fn testbenches_are_lint_clean() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    generate(&dir.join("design"), 4, 5, None);
    let g = Kautz::new(4, 5).unwrap();
    let vectors = VectorSet::new(&g, Pairs::Sample { count: 4, seed: 1 }, Shard::WHOLE).unwrap();
    let params = RouteGenParams::new(4, 5, "kautz_route_gen").unwrap();
    let unit = RouteGenUnit::new(params, None, vectors);
    let design = unit.design();
    let files = |language| {
        let read = DesignDir::load(&dir.join("design"), &g).unwrap();
        RouteGenUnit::new(
            RouteGenParams::new(4, 5, "kautz_route_gen").unwrap(),
            None,
            VectorSet::new(&g, Pairs::All, Shard::WHOLE).unwrap(),
        )
        .reading(read)
        .files(language)
        .unwrap()
    };
    let tb_v = dir.join("tb_kautz_route_gen.v");
    let text_v = sequence::testbench(
        &unit,
        &design,
        Language::Verilog,
        Mode::Record { wave: true },
    )
    .unwrap()
    .text;
    std::fs::write(&tb_v, text_v).unwrap();
    let lint = Command::new("verilator")
        .args([
            "--lint-only",
            "-Wall",
            "--timing",
            "--top-module",
            "tb_kautz_route_gen",
        ])
        .args(files(Language::Verilog))
        .arg(&tb_v)
        .output()
        .expect("verilator runs (make deps installs it)");
    assert!(lint.status.success(), "{}", text(&lint.stderr));
    assert_eq!(text(&lint.stderr), "");
    let tb_vhd = dir.join("tb_kautz_route_gen.vhd");
    let text_vhd =
        sequence::testbench(&unit, &design, Language::Vhdl, Mode::Record { wave: false })
            .unwrap()
            .text;
    std::fs::write(&tb_vhd, text_vhd).unwrap();
    std::fs::create_dir(dir.join("work")).unwrap();
    let analyse = Command::new("ghdl")
        .args(["-a", "--std=08", "--workdir=work"])
        .args(files(Language::Vhdl))
        .arg(&tb_vhd)
        .current_dir(dir)
        .output()
        .expect("ghdl runs (make deps installs it)");
    assert!(analyse.status.success(), "{}", text(&analyse.stderr));
    assert_eq!(text(&analyse.stderr), "");
}
