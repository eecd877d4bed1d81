//! The k-ary n-cube routing-function units: lint-clean in Verilator, yosys and GHDL for
//! every algorithm, combinational and registered; the port contract; vectors and decoding
//! in software; and in hardware, in Verilator and GHDL, every input of the 3-ary 3-cube
//! and the 4-ary 2-cube with every fault mask, then the router evaluations of whole golden
//! routes with and without faults; in GHDL, more cubes, walks on larger ones, and the
//! registered variants (one in Verilator too). A missing tool fails these tests with its
//! install command.

use crate::common;

use common::{CLOCKED_LINT, assert_lint_clean, write_both};
use kautzgen::choice::Choice;
use kautzgen::emit::names::Language;
use kautzgen::emit::{Provenance, render};
use kautzgen::routing::torus::{Action, Algorithm, HeaderLayout, Router};
use kautzgen::rtl::ir::{Direction, SignalKind};
use kautzgen::rtl::torus_router::{TorusRouterParams, design};
use kautzgen::sim::Simulator;
use kautzgen::sim::function::{FunctionUnit, verify};
use kautzgen::sim::ghdl::Ghdl;
use kautzgen::sim::vectors::Shard;
use kautzgen::sim::verilator::Verilator;
use kautzgen::topology::torus::{Faults, Torus};
use kautzgen::units::torus::vectors::{Headers, TorusUnit, header_fields, single_faults};
use std::collections::BTreeSet;

fn params(k: u64, n: u64, algorithm: Algorithm, registered: bool) -> TorusRouterParams {
    TorusRouterParams::new(k, n, algorithm, registered, "torus_router").unwrap()
}

/// The algorithms that run on the k-ary n-cube.
fn algorithms(n: u64) -> Vec<Algorithm> {
    let torus = Torus::new(3, n).unwrap();
    Algorithm::ALL
        .iter()
        .copied()
        .filter(|&a| Router::new(torus, a).is_ok())
        .collect()
}

/// Every 7th vector: 7 is prime to the mask count, so every mask and header still occurs.
fn sevenths() -> Shard {
    Shard::new(0, 7).unwrap()
}

/// Lints every algorithm of each cube, combinational and registered.
fn lint_cubes(cubes: &[(u64, u64)]) {
    for &(k, n) in cubes {
        for algorithm in algorithms(n) {
            for registered in [false, true] {
                let p = params(k, n, algorithm, registered);
                let dir = tempfile::tempdir().unwrap();
                write_both(dir.path(), &design(&p), "unit_torus test");
                let what = format!(
                    "{} {k}-ary {n}-cube registered={registered}",
                    algorithm.name()
                );
                assert_lint_clean(dir.path(), &CLOCKED_LINT, &what);
            }
        }
    }
}

#[test]
fn every_variant_is_lint_clean() {
    // One cube per shape: no wraparounds (k = 2), no x and y ports (n = 1), k = 3 and a
    // 5-ary ring whose 3-bit coordinates are not a power of two.
    lint_cubes(&[(2, 3), (3, 3), (4, 1), (5, 2)]);
}

#[test]
#[ignore = "long (about 7 s): make test lints four cubes of every shape; make verify-full runs this"]
fn every_variant_of_more_cubes_is_lint_clean() {
    lint_cubes(&[(2, 2), (3, 2), (4, 2), (5, 3)]);
}

#[test]
fn ports_follow_the_header_layout() {
    // 5-ary 3-cube: 3-bit digits, 2-bit x and y, 6 ports plus eject in 3 bits.
    for registered in [false, true] {
        let d = design(&params(5, 3, Algorithm::DirectionFirst, registered));
        d.validate().unwrap();
        let ports: Vec<(String, bool, u32)> = d
            .top()
            .ports()
            .map(|(_, s)| {
                let input = s.kind == SignalKind::Port(Direction::Input);
                (s.name.clone(), input, s.width)
            })
            .collect();
        let mut expected = if registered {
            vec![("clk", true, 1), ("rst", true, 1)]
        } else {
            vec![]
        };
        expected.extend([
            ("current", true, 9),
            ("dst", true, 9),
            ("f", true, 1),
            ("x", true, 2),
            ("y", true, 2),
            ("mask", true, 6),
            ("out_port", false, 3),
            ("blocked", false, 1),
            ("dst_out", false, 9),
            ("f_out", false, 1),
            ("x_out", false, 2),
            ("y_out", false, 2),
        ]);
        let expected: Vec<(String, bool, u32)> = expected
            .into_iter()
            .map(|(n, i, w)| (n.to_string(), i, w))
            .collect();
        assert_eq!(ports, expected);
    }
    // The header ports add up to the header layout's width.
    let layout: u32 = HeaderLayout::new(5, 3)
        .fields()
        .iter()
        .map(|f| f.width)
        .sum();
    assert_eq!(layout, 9 + 1 + 2 + 2);
    // n = 1: e-cube only, and no x and y ports (they would have 0 bits).
    let d = design(&params(4, 1, Algorithm::ECube, false));
    let names: Vec<&str> = d.top().ports().map(|(_, s)| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "current", "dst", "f", "mask", "out_port", "blocked", "dst_out", "f_out"
        ]
    );
}

#[test]
fn output_is_byte_identical_every_run() {
    let provenance = Provenance {
        command: "unit_torus test".into(),
    };
    let languages = [Language::Verilog, Language::Vhdl];
    for algorithm in algorithms(2) {
        let p = params(5, 2, algorithm, true);
        let (a, _) = render(&design(&p), &languages, &provenance).unwrap();
        let (b, _) = render(&design(&p), &languages, &provenance).unwrap();
        assert_eq!(a, b);
    }
}

#[test]
fn bad_parameters_and_cubes_too_big_to_enumerate_say_so() {
    let error = TorusRouterParams::new(4, 3, Algorithm::WestFirst, false, "t").unwrap_err();
    assert_eq!(
        error.to_string(),
        "west-first routes on a 2-D torus: it needs n = 2, got n = 3"
    );
    let error = TorusRouterParams::new(1, 3, Algorithm::ECube, false, "t").unwrap_err();
    assert_eq!(
        error.to_string(),
        "the k-ary n-cube needs 2 <= k <= 65536, got k = 1"
    );
    let wide = TorusUnit::exhaustive(params(65536, 5, Algorithm::ECube, false), Headers::Domain);
    assert_eq!(
        wide.unwrap_err().to_string(),
        "the 65536-ary 5-cube has 80-bit addresses; vectors carry at most 64 bits a port (use a smaller cube)"
    );
    let many = TorusUnit::exhaustive(params(2, 24, Algorithm::ECube, false), Headers::Domain);
    assert_eq!(
        many.unwrap_err().to_string(),
        "the 2-ary 24-cube has too many inputs to enumerate (16777216^2 node pairs, 2^48 masks); check a smaller cube, or walk routes"
    );
    let huge = TorusUnit::walks(params(2, 30, Algorithm::ECube, false), &[Faults::new()]);
    assert!(
        huge.unwrap_err().to_string().contains("than the 16777216"),
        "cubes beyond 2^24 nodes are not enumerated"
    );
}

#[test]
fn vectors_cover_every_input_once_and_decode_back() {
    // Counts: k^n · k^n · |(f, x, y)| · 2^(2n).
    let count = |k, n, a, h| {
        TorusUnit::exhaustive(params(k, n, a, false), h)
            .unwrap()
            .vector_count()
    };
    assert_eq!(
        count(3, 3, Algorithm::DirectionFirst, Headers::Domain),
        839_808
    );
    assert_eq!(
        count(3, 3, Algorithm::DirectionFirst, Headers::Reachable),
        27 * 27 * 13 * 64
    );
    assert_eq!(
        count(3, 3, Algorithm::ECube, Headers::Reachable),
        27 * 27 * 64
    );
    assert_eq!(
        count(4, 2, Algorithm::WestFirst, Headers::Reachable),
        16 * 16 * 3 * 16
    );
    assert_eq!(
        count(4, 2, Algorithm::DoubleECube, Headers::Reachable),
        16 * 16 * 3 * 16
    );
    assert_eq!(
        count(4, 1, Algorithm::ECube, Headers::Domain),
        4 * 4 * 2 * 4
    );
    // Every vector is distinct, and outputs decode to the golden model's decision.
    for (k, n) in [(3, 2), (2, 3), (4, 1)] {
        for algorithm in algorithms(n) {
            let unit =
                TorusUnit::exhaustive(params(k, n, algorithm, false), Headers::Domain).unwrap();
            let mut seen = BTreeSet::new();
            for i in 0..unit.vector_count() {
                let inputs = unit.vector(i);
                assert!(seen.insert(inputs.clone()));
                let expected = unit.expected(&inputs);
                assert_eq!(unit.decision(&expected), Ok(unit.golden(&inputs)));
            }
        }
    }
    // Output words that encode no decision are refused.
    let unit =
        TorusUnit::exhaustive(params(3, 2, Algorithm::ECube, false), Headers::Domain).unwrap();
    for bad in [
        vec![4, 1, 0, 0, 0, 0],
        vec![5, 0, 0, 0, 0, 0],
        vec![0, 0, 3, 0, 0, 0],
        vec![0, 0, 0, 0, 2, 0],
    ] {
        assert_eq!(
            unit.decision(&bad).unwrap_err().to_string(),
            format!("output words {bad:x?} (hexadecimal) encode no decision of the unit")
        );
    }
}

fn fault_sets(torus: &Torus, node_stride: usize, link_stride: usize) -> Vec<Faults> {
    single_faults(torus, node_stride, link_stride).unwrap()
}

#[test]
fn reachable_headers_hold_every_header_a_route_carries() {
    for (k, n) in [(3, 3), (4, 2), (5, 2), (2, 3)] {
        let torus = Torus::new(k, n).unwrap();
        for algorithm in algorithms(n) {
            let router = Router::new(torus, algorithm).unwrap();
            let reachable: BTreeSet<(bool, usize, usize)> =
                header_fields(router, Headers::Reachable)
                    .into_iter()
                    .collect();
            let unit = TorusUnit::walks(params(k, n, algorithm, false), &fault_sets(&torus, 1, 1))
                .unwrap();
            let mut carried = BTreeSet::new();
            for i in 0..unit.vector_count() {
                let inputs = unit.vector(i);
                let (f, x, y) = (inputs[2] == 1, inputs[3] as usize, inputs[4] as usize);
                assert!(reachable.contains(&(f, x, y)), "{algorithm:?} {f} {x} {y}");
                carried.insert((f, x, y));
            }
            // And no larger: every value in the set is carried by some route.
            assert_eq!(carried, reachable, "{} {torus}", algorithm.name());
        }
    }
}

#[test]
fn chaining_the_units_answers_walks_the_golden_route() {
    // In software: each hop's inputs are built from the previous hop's output words, as a
    // network of these units would pass them on, and the walk must be the golden route.
    for (k, n) in [(3, 3), (4, 2), (5, 2)] {
        let torus = Torus::new(k, n).unwrap();
        let faults = fault_sets(&torus, 1, 3);
        for algorithm in algorithms(n) {
            let router = Router::new(torus, algorithm).unwrap();
            let unit = TorusUnit::walks(params(k, n, algorithm, false), &faults).unwrap();
            let mut vectors = (0..unit.vector_count()).map(|i| unit.vector(i));
            let (mut delivered, mut blocked) = (0, 0);
            for faults in &faults {
                for src in torus.nodes().unwrap() {
                    for dst in torus.nodes().unwrap() {
                        if src == dst || faults.is_faulty_node(&src) || faults.is_faulty_node(&dst)
                        {
                            continue;
                        }
                        let route = router.route(&src, &dst, faults).unwrap();
                        let (mut node, mut header) = (src.clone(), router.initial_header(dst));
                        for hop in &route.hops {
                            let inputs = unit.inputs(&node, &header, faults.mask(&torus, &node));
                            assert_eq!(Some(&inputs), vectors.next().as_ref());
                            let decision = unit.decision(&unit.expected(&inputs)).unwrap();
                            assert_eq!(decision, hop.decision);
                            match decision.action {
                                Action::Forward(port) => {
                                    node = torus.neighbour(&node, port).unwrap();
                                    header = decision.header;
                                }
                                Action::Deliver => delivered += 1,
                                Action::Blocked => blocked += 1,
                            }
                        }
                    }
                }
            }
            assert_eq!(vectors.next(), None);
            assert!(delivered > 0 && blocked > 0, "{} {torus}", algorithm.name());
        }
    }
}

/// Runs every vector of `shard` of `unit` in `simulator`; each must pass.
fn passes(simulator: &dyn Simulator, unit: &TorusUnit, shard: Shard) {
    let report =
        verify(simulator, unit, shard, 5).unwrap_or_else(|e| panic!("{}: {e}", unit.describe()));
    assert!(
        report.all_passed(),
        "{}:\n{}",
        unit.describe(),
        report.render()
    );
}

// Verilator takes about ten seconds to build each design, GHDL a fraction of a second:
// the cubes run in both simulators, one build per design holding the exhaustive
// vectors and then the walks; further cubes and the registered variants run in GHDL, with
// one registered design in Verilator too.

/// The 3-ary 3-cube: every header a route can carry (Headers::Reachable), 46,656 vectors for
/// e-cube, 326,592 for double e-cube, 606,528 for direction-first, or the `shard` of them;
/// then the walks.
fn cube_3_3_passes(simulator: &dyn Simulator, shard: Shard) {
    let torus = Torus::new(3, 3).unwrap();
    let faults = fault_sets(&torus, 4, 23);
    for algorithm in algorithms(3) {
        let unit = TorusUnit::exhaustive(params(3, 3, algorithm, false), Headers::Reachable)
            .unwrap()
            .with_walks(&faults)
            .unwrap();
        passes(simulator, &unit, shard);
    }
}

// Each simulator is a test of its own, so that the two run side by side. make test takes
// every 7th vector (of the inputs and of the walks' hops) in GHDL, whose builds are quick;
// make verify-full takes all of them in both simulators.

#[test]
#[ignore = "long (about 20 s, a Verilator build per algorithm): make test runs every 7th vector of this cube in GHDL and every input of the 4-ary 2-cube in both simulators; make verify-full runs this"]
fn hardware_3_ary_3_cube_every_input_and_mask_then_walks_in_verilator() {
    cube_3_3_passes(&Verilator::default(), Shard::WHOLE);
}

#[test]
fn hardware_3_ary_3_cube_every_7th_vector_in_ghdl() {
    cube_3_3_passes(&Ghdl::default(), sevenths());
}

#[test]
#[ignore = "long (about 25 s): make test runs every 7th vector in GHDL; make verify-full runs this"]
fn hardware_3_ary_3_cube_every_input_and_mask_then_walks_in_ghdl() {
    cube_3_3_passes(&Ghdl::default(), Shard::WHOLE);
}

/// The 4-ary 2-cube: every header Router::step accepts, not only those routes carry, 32,768
/// vectors; then the walks.
fn cube_4_2_passes(simulator: &dyn Simulator) {
    let torus = Torus::new(4, 2).unwrap();
    let faults = fault_sets(&torus, 1, 5);
    for algorithm in algorithms(2) {
        let unit = TorusUnit::exhaustive(params(4, 2, algorithm, false), Headers::Domain)
            .unwrap()
            .with_walks(&faults)
            .unwrap();
        passes(simulator, &unit, Shard::WHOLE);
    }
}

#[test]
fn hardware_4_ary_2_cube_every_input_and_mask_then_walks_in_verilator() {
    cube_4_2_passes(&Verilator::default());
}

#[test]
fn hardware_4_ary_2_cube_every_input_and_mask_then_walks_in_ghdl() {
    cube_4_2_passes(&Ghdl::default());
}

#[test]
fn hardware_more_cubes_every_input_and_mask_in_ghdl() {
    // k = 2 (no wraparounds, one link per dimension), n = 1 (no x and y ports), and k = 5,
    // the smallest ring where the two wraparounds of west-first's first hop can save
    // different numbers of hops and where direction-first is not minimal. Every header
    // Router::step accepts.
    for (k, n) in [(2, 3), (4, 1), (5, 2)] {
        for algorithm in algorithms(n) {
            let unit =
                TorusUnit::exhaustive(params(k, n, algorithm, false), Headers::Domain).unwrap();
            passes(&Ghdl::default(), &unit, Shard::WHOLE);
        }
    }
}

/// The 4-ary 3-cube has 64^2 · 18 · 2^6 inputs; its routes, and the 6-ary 2-cube's, with
/// and without faults, are walked instead: the `shard` of their hops.
fn walks_on_cubes_too_big_to_enumerate(shard: Shard) {
    for (k, n, node_stride, link_stride) in [(4, 3, 32, 193), (6, 2, 6, 29)] {
        let torus = Torus::new(k, n).unwrap();
        let faults = fault_sets(&torus, node_stride, link_stride);
        for algorithm in algorithms(n) {
            let unit = TorusUnit::walks(params(k, n, algorithm, false), &faults).unwrap();
            passes(&Ghdl::default(), &unit, shard);
        }
    }
}

#[test]
fn hardware_every_7th_hop_on_cubes_too_big_to_enumerate_in_ghdl() {
    walks_on_cubes_too_big_to_enumerate(sevenths());
}

#[test]
#[ignore = "long (about 18 s): make test walks every 7th hop; make verify-full runs this"]
fn hardware_walks_on_cubes_too_big_to_enumerate_in_ghdl() {
    walks_on_cubes_too_big_to_enumerate(Shard::WHOLE);
}

#[test]
fn hardware_registered_units_answer_one_edge_later() {
    // The same core behind registers. GHDL: every input of the 4-ary 2-cube and every 7th
    // reachable one of the 3-ary 3-cube, each algorithm; Verilator: direction-first on the
    // 3-ary 3-cube.
    let cases = [
        (3, 3, Headers::Reachable, sevenths()),
        (4, 2, Headers::Domain, Shard::WHOLE),
    ];
    for (k, n, headers, shard) in cases {
        for algorithm in algorithms(n) {
            let unit = TorusUnit::exhaustive(params(k, n, algorithm, true), headers).unwrap();
            assert_eq!(unit.latency(), 1);
            passes(&Ghdl::default(), &unit, shard);
        }
    }
    let unit = TorusUnit::exhaustive(
        params(3, 3, Algorithm::DirectionFirst, true),
        Headers::Reachable,
    )
    .unwrap();
    passes(&Verilator::default(), &unit, sevenths());
}
