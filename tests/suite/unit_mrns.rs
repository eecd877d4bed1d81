//! The MRNS node-disjoint path generator (src/rtl/mrns_path_gen.rs) through the generic
//! sequence flow (src/sim/sequence.rs): lint-clean in Verilator, yosys and GHDL for shapes
//! at the edges; the port contract; Example 3 of Choi and Chung's MRNS paper exactly, and
//! every ordered pair of Z2xZ3xZ3xZ4, the binary 4-cube and Z3xZ5 in Verilator and GHDL;
//! more shapes in GHDL; ports wider than 64 bits; built-in faults caught with exact counts;
//! byte-identical output; parameter errors. A missing tool fails these tests with its
//! install command.

use crate::common;

use common::{CLOCKED_LINT, assert_lint_clean, write_both};
use kautzgen::emit::names::Language;
use kautzgen::emit::{Provenance, render};
use kautzgen::routing::mrns::Move;
use kautzgen::rtl::ir::{Direction, SignalKind};
use kautzgen::rtl::mrns_path_gen::{Fault, MrnsPathGenParams, design};
use kautzgen::sim::Simulator;
use kautzgen::sim::bits::Bits;
use kautzgen::sim::ghdl::Ghdl;
use kautzgen::sim::sequence::{Mode, Options, SequenceReport, SequenceUnit, testbench, verify};
use kautzgen::sim::testbench::Rendered;
use kautzgen::sim::vectors::Shard;
use kautzgen::sim::verilator::Verilator;
use kautzgen::topology::mrns::Address;
use kautzgen::units::mrns::paths::MrnsPathUnit;
use std::process::Command;

/// Every vector, the first `shown` failures in full, no waves.
fn whole(shown: usize) -> Options<'static> {
    Options {
        shown,
        wave: None,
        progress: &|_| {},
    }
}

fn params(radices: &[u64]) -> MrnsPathGenParams {
    MrnsPathGenParams::new(radices).unwrap()
}

fn exhaustive(radices: &[u64]) -> MrnsPathUnit {
    MrnsPathUnit::new(params(radices)).unwrap()
}

fn run(simulator: &dyn Simulator, unit: &MrnsPathUnit) -> SequenceReport {
    verify(simulator, unit, Shard::WHOLE, whole(3))
        .unwrap_or_else(|e| panic!("{}: {e}", unit.describe()))
}

/// Every vector of `unit` passes in `simulator`, each route set in exactly the bound.
fn passes(simulator: &dyn Simulator, unit: &MrnsPathUnit) {
    let (sim, bound) = (simulator.name(), unit.cycle_bound());
    assert_eq!(
        run(simulator, unit).render(),
        format!(
            "{sim}: cycles per path set: mean {bound}.0, max {bound} (bound {bound})\n\
             {sim}: {} passed, 0 failed\n",
            unit.vector_count()
        ),
        "{}",
        unit.describe()
    );
}

fn passes_in_both(unit: &MrnsPathUnit) {
    passes(&Verilator::default(), unit);
    passes(&Ghdl::default(), unit);
}

#[test]
fn every_shape_is_lint_clean() {
    // One dimension (Z2 with one-bit ports, Z4), mixed radices, the largest radix, a
    // hypercube, and the most dimensions (an 85-bit path).
    let shapes: [&[u64]; 7] = [
        &[2],
        &[4],
        &[2, 3, 3, 4],
        &[3, 5],
        &[256, 3],
        &[2, 2, 2, 2],
        &[2; 16],
    ];
    for radices in shapes {
        let dir = tempfile::tempdir().unwrap();
        write_both(dir.path(), &design(&params(radices)), "unit_mrns test");
        assert_lint_clean(dir.path(), &CLOCKED_LINT, &format!("{radices:?}"));
    }
}

#[test]
fn the_generic_testbenches_are_lint_clean() {
    // Z2 has one-bit data inputs (std_logic in VHDL); Z2xZ3xZ3xZ4 vectors. The Verilog
    // testbench is the one that dumps waves, the larger variant.
    for radices in [&[2][..], &[2, 3, 3, 4]] {
        let unit = exhaustive(radices);
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path();
        let d = unit.design();
        let manifest = write_both(&dir.join("design"), &d, "unit_mrns test");
        let files = |list: &[String]| {
            list.iter()
                .map(|f| dir.join("design").join(f))
                .collect::<Vec<_>>()
        };
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        let Rendered {
            top: tb,
            text: verilog,
            ..
        } = testbench(&unit, &d, Language::Verilog, Mode::Record { wave: true }).unwrap();
        let tb_v = dir.join(format!("{tb}.v"));
        std::fs::write(&tb_v, verilog).unwrap();
        let lint = Command::new("verilator")
            .args(["--lint-only", "-Wall", "--timing", "--top-module", &tb])
            .args(files(&manifest.verilog))
            .arg(&tb_v)
            .output()
            .expect("verilator runs (make deps installs it)");
        assert!(lint.status.success(), "{radices:?}: {}", text(&lint.stderr));
        assert_eq!(text(&lint.stderr), "", "{radices:?}");
        let Rendered {
            top: tb,
            text: vhdl,
            ..
        } = testbench(&unit, &d, Language::Vhdl, Mode::Record { wave: false }).unwrap();
        let tb_vhd = dir.join(format!("{tb}.vhd"));
        std::fs::write(&tb_vhd, vhdl).unwrap();
        std::fs::create_dir(dir.join("work")).unwrap();
        let analyse = Command::new("ghdl")
            .args(["-a", "--std=08", "--workdir=work"])
            .args(files(&manifest.vhdl))
            .arg(&tb_vhd)
            .current_dir(dir)
            .output()
            .expect("ghdl runs (make deps installs it)");
        assert!(
            analyse.status.success(),
            "{radices:?}: {}",
            text(&analyse.stderr)
        );
        assert_eq!(text(&analyse.stderr), "", "{radices:?}");
    }
}

#[test]
fn ports_widths_and_bound_of_z2x3x3x4() {
    // Digits of 1, 2, 2 and 2 bits: 7-bit addresses. Moves of a 2-bit dimension and a
    // 2-bit value, 5 of them; path_len holds 0..5. Bound 1 + 4 + (2+3+3+4) = 17.
    let p = params(&[2, 3, 3, 4]);
    let d = design(&p);
    let ports: Vec<(String, u32, bool)> = d
        .top()
        .ports()
        .map(|(_, s)| {
            let input = s.kind == SignalKind::Port(Direction::Input);
            (s.name.clone(), s.width, input)
        })
        .collect();
    let expected = [
        ("clk", 1, true),
        ("rst", 1, true),
        ("init", 1, true),
        ("next_path", 1, true),
        ("src", 7, true),
        ("dst", 7, true),
        ("path_valid", 1, false),
        ("path", 20, false),
        ("path_len", 3, false),
        ("done", 1, false),
        ("error", 1, false),
    ];
    assert_eq!(
        ports,
        expected.map(|(n, w, i)| (n.to_string(), w, i)).to_vec()
    );
    assert_eq!(d.top().name, "mrns_path_gen");
    assert_eq!(p.cycle_bound(), 17);
    // The binary 16-cube: 4-bit dimensions, 1-bit values, 17 moves.
    let p = params(&[2; 16]);
    assert_eq!(
        (
            p.address_bits(),
            p.path_bits(),
            p.len_bits(),
            p.cycle_bound()
        ),
        (16, 85, 5, 49)
    );
}

#[test]
fn example_3_of_the_mrns_paper_in_both_simulators() {
    // Z2xZ3xZ3xZ4, A = (0000), B = (0223): the eight paths of the paper, transcribed as
    // (dimension, new digit) as in docs/mrns.md.
    let p = params(&[2, 3, 3, 4]);
    let a = p.network().parse_address("0000").unwrap();
    let b = p.network().parse_address("0223").unwrap();
    let unit = MrnsPathUnit::with_pairs(p, vec![(a, b)]).unwrap();
    let paper: [&[(usize, u8)]; 8] = [
        &[(0, 3), (1, 2), (2, 2)],
        &[(1, 2), (2, 2), (0, 3)],
        &[(2, 2), (0, 3), (1, 2)],
        &[(0, 1), (1, 2), (2, 2), (0, 3)],
        &[(0, 2), (1, 2), (2, 2), (0, 3)],
        &[(1, 1), (2, 2), (0, 3), (1, 2)],
        &[(2, 1), (0, 3), (1, 2), (2, 2)],
        &[(3, 1), (0, 3), (1, 2), (2, 2), (3, 0)],
    ];
    let inputs = unit.vector(0);
    assert_eq!(
        inputs.iter().map(Bits::to_hex).collect::<Vec<_>>(),
        ["00", "2b"]
    );
    let expected = unit.expected(&inputs).unwrap();
    let moves = |path: &[(usize, u8)]| -> Vec<Move> {
        path.iter()
            .map(|&(dimension, value)| Move { dimension, value })
            .collect()
    };
    let transcribed: Vec<_> = paper.iter().map(|p| unit.encode_path(&moves(p))).collect();
    assert_eq!(expected, transcribed);
    // On the ports each move is one hexadecimal digit, dimension * 4 + value.
    let hex: Vec<(String, String)> = expected
        .iter()
        .map(|item| (item[0].to_hex(), item[1].to_hex()))
        .collect();
    let on_ports = [
        ("36a00", "3"),
        ("6a300", "3"),
        ("a3600", "3"),
        ("16a30", "4"),
        ("26a30", "4"),
        ("5a360", "4"),
        ("936a0", "4"),
        ("d36ac", "5"),
    ];
    assert_eq!(
        hex,
        on_ports
            .map(|(p, l)| (p.to_string(), l.to_string()))
            .to_vec()
    );
    passes_in_both(&unit);
}

#[test]
fn every_pair_of_z2x3x3x4_in_both_simulators() {
    // 72 nodes: 5184 ordered pairs, then out-of-range digits in dimensions 1 and 2 (radix 3
    // in a 2-bit field), as source and as destination.
    let unit = exhaustive(&[2, 3, 3, 4]);
    assert_eq!(unit.vector_count(), 5188);
    passes_in_both(&unit);
}

#[test]
fn every_pair_of_the_binary_4_cube_in_both_simulators() {
    // Every digit field is full: no out-of-range vectors. Bound 1 + 4 + 8 = 13.
    let unit = exhaustive(&[2, 2, 2, 2]);
    assert_eq!((unit.vector_count(), unit.cycle_bound()), (256, 13));
    passes_in_both(&unit);
}

#[test]
fn every_pair_of_z3x5_in_both_simulators() {
    let unit = exhaustive(&[3, 5]);
    assert_eq!((unit.vector_count(), unit.cycle_bound()), (225 + 4, 11));
    passes_in_both(&unit);
}

#[test]
fn more_shapes_in_ghdl() {
    // One dimension (no excursions; Z2 has no side paths at all and one-bit ports), more
    // dimensions with mixed radices, and a radix whose field is one value short.
    for radices in [
        &[2][..],
        &[4],
        &[7],
        &[5, 2, 3],
        &[3, 4, 2],
        &[3, 3, 3],
        &[2, 5],
    ] {
        passes(&Ghdl::default(), &exhaustive(radices));
    }
}

#[test]
fn ports_wider_than_64_bits_in_both_simulators() {
    // The binary 16-cube: an 85-bit path. Pairs at every distance 1 .. 16 (k = 15 gives
    // excursions of all 17 moves, k = 16 only shortest paths) from scattered sources.
    let p = params(&[2; 16]);
    let network = p.network().clone();
    let rotate = |x: u64, r: u32| ((x << r) | (x >> (16 - r))) & 0xffff;
    let pairs: Vec<(Address, Address)> = (1..=16u64)
        .flat_map(|k| {
            let a = (k * 0x9e37) & 0xffff;
            let b = a ^ rotate((1 << k) - 1, (k * 5 % 16) as u32);
            [(a, b), (b, a)]
        })
        .map(|(a, b)| (network.address_at(a), network.address_at(b)))
        .collect();
    let distances: Vec<usize> = pairs.iter().map(|(a, b)| a.hamming_distance(b)).collect();
    assert_eq!(distances, (1..=16).flat_map(|k| [k, k]).collect::<Vec<_>>());
    let unit = MrnsPathUnit::with_pairs(p, pairs).unwrap();
    passes_in_both(&unit);
}

#[test]
fn frozen_rows_fail_in_both_simulators_with_exact_counts() {
    // With the rows frozen during the shortest walk every shortest path is row 0: wrong
    // for every pair at distance 2 or more, and only there (the side exits still turn the
    // rows from row 0). 5184 pairs - 72 equal - 72 * 8 at distance 1
    // = 4536 fail; the other 648 pairs and the 4 invalid vectors pass.
    let unit = exhaustive(&[2, 3, 3, 4]).with_fault(Fault::RowsFrozenWhileShortest);
    for simulator in [
        Box::new(Verilator::default()) as Box<dyn Simulator>,
        Box::new(Ghdl::default()),
    ] {
        let sim = simulator.name();
        let report = run(simulator.as_ref(), &unit);
        assert_eq!((report.passed, report.failed), (652, 4536), "{sim}");
        assert_eq!(
            report.failures[0],
            // The paths as `kautzgen mrns paths --radices 2,3,3,4 --src 0,0,0,0 --dst
            // 0,0,1,1` prints them; the second is row 0 again.
            "vector 5: src=0,0,0,0 dst=0,0,1,1 (hold 2, lead-in 5, rst)\n  \
             expected: [d0=1 d1=1] [d1=1 d0=1] [d0=2 d1=1 d0=1] [d0=3 d1=1 d0=1] [d1=2 d0=1 d1=1] [d2=1 d0=1 d1=1 d2=0] [d2=2 d0=1 d1=1 d2=0] [d3=1 d0=1 d1=1 d3=0] done\n  \
             got:      [d0=1 d1=1] [d0=1 d1=1] [d0=2 d1=1 d0=1] [d0=3 d1=1 d0=1] [d1=2 d0=1 d1=1] [d2=1 d0=1 d1=1 d2=0] [d2=2 d0=1 d1=1 d2=0] [d3=1 d0=1 d1=1 d3=0] done after 17 cycles\n  \
             - item 2 is [d0=1 d1=1], expected [d1=1 d0=1]",
            "{sim}"
        );
        assert!(report.render().ends_with(&format!(
            "{sim}: 4533 more failures not shown\n\
             {sim}: cycles per path set: mean 17.0, max 17 (bound 17)\n\
             {sim}: 652 passed, 4536 failed\n"
        )));
    }
}

#[test]
fn an_extra_side_exit_fails_every_valid_pair_in_ghdl() {
    // Taking b_m as a side exit adds a path (m, b_m), .., (m, b_m) for every differing
    // dimension, and every pair of distinct nodes has one: all 72 * 71 = 5112 fail; the 72
    // equal pairs and the 4 invalid vectors, refused, pass.
    let unit = exhaustive(&[2, 3, 3, 4]).with_fault(Fault::DestinationDigitNotSkipped);
    let report = run(&Ghdl::default(), &unit);
    assert_eq!((report.passed, report.failed), (76, 5112));
}

#[test]
fn a_missing_simulator_fails_naming_the_install_command() {
    let unit = exhaustive(&[2, 2]);
    let verilator = Verilator {
        exe: "/nonexistent/verilator".into(),
    };
    let ghdl = Ghdl {
        exe: "/nonexistent/ghdl".into(),
    };
    assert_eq!(
        verify(&verilator, &unit, Shard::WHOLE, whole(3))
            .unwrap_err()
            .to_string(),
        "verilator is not installed (could not run '/nonexistent/verilator'); install it with `apt-get install verilator`, or `make deps`"
    );
    assert_eq!(
        verify(&ghdl, &unit, Shard::WHOLE, whole(3))
            .unwrap_err()
            .to_string(),
        "ghdl is not installed (could not run '/nonexistent/ghdl'); install it with `apt-get install ghdl`, or `make deps`"
    );
}

#[test]
fn same_parameters_give_byte_identical_files_and_the_top_name_prefixes_every_module() {
    let provenance = Provenance {
        command: "kautzgen generate mrns --radices 2,3,3,4".into(),
    };
    let languages = [Language::Verilog, Language::Vhdl];
    let p = params(&[2, 3, 3, 4]);
    let first = render(&design(&p), &languages, &provenance).unwrap();
    let second = render(&design(&p), &languages, &provenance).unwrap();
    assert_eq!(first, second);
    let named = design(&p.with_top("paths"));
    let modules: Vec<&str> = named.modules.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        modules,
        [
            "paths_check",
            "paths_compact",
            "paths_append",
            "paths_rows",
            "paths_select",
            "paths_cursor",
            "paths_assemble",
            "paths_control",
            "paths"
        ]
    );
}

#[test]
fn parameter_errors_say_what_is_wrong() {
    let error = |radices: &[u64]| MrnsPathGenParams::new(radices).unwrap_err().to_string();
    assert_eq!(
        error(&[]),
        "an MRNS network needs at least one radix, e.g. 2,3,3,4 for Z2xZ3xZ3xZ4"
    );
    assert_eq!(
        error(&[2, 1, 3]),
        "radix list '2,1,3': radix 1 at position 2 (dimension 1) is out of range; MRNS radices must be 2 to 256"
    );
    assert_eq!(
        error(&[3; 17]),
        format!(
            "{} has 17 dimensions; the MRNS path generator is built for 1 to 16",
            ["Z3"; 17].join("x")
        )
    );
    assert_eq!(
        MrnsPathUnit::new(params(&[256, 256, 256, 256]))
            .unwrap_err()
            .to_string(),
        "Z256xZ256xZ256xZ256 has 4294967296 nodes, more than the 16777216 that can be enumerated"
    );
    let other = params(&[2, 2]);
    let foreign = params(&[3]).network().address_at(2);
    assert_eq!(
        MrnsPathUnit::with_pairs(other, vec![(foreign.clone(), foreign)])
            .unwrap_err()
            .to_string(),
        "address '2' has 1 digits, but nodes of Z2xZ2 have 2"
    );
}
