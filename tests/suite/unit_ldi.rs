//! LDI units (src/rtl/ldi_units.rs): lint-clean in Verilator, yosys and GHDL for every
//! kind, combinational and registered, at two (M,S) each (the rest in make verify-full);
//! the golden switch settings they are checked against realise every link exactly once.
//! A missing tool fails these tests with its install command.

use crate::common;

use common::write_both;
use kautzgen::choice::Choice;
use kautzgen::rtl::ldi_units::{LdiUnitKind, LdiUnitParams, design};
use kautzgen::sim::Simulator;
use kautzgen::sim::function::FunctionUnit;
use kautzgen::sim::function::verify;
use kautzgen::sim::ghdl::Ghdl;
use kautzgen::sim::vectors::Shard;
use kautzgen::sim::verilator::Verilator;
use kautzgen::synth::lint::lint;
use kautzgen::units::ldi::vectors::LdiUnit;
use std::path::Path;

/// (M, S) per kind: Theorem 3 needs M = S^(h-1) G, two-hop M = S G; the others take any M.
fn sizes(kind: LdiUnitKind) -> &'static [(u64, u64)] {
    match kind {
        LdiUnitKind::Theorem3 => &[(9, 3), (12, 4), (18, 3), (16, 2), (48, 4), (54, 3)],
        LdiUnitKind::TwoHop => &[(9, 3), (12, 4), (8, 4), (10, 5)],
        _ => &[(7, 2), (9, 3), (10, 3), (12, 4), (18, 3), (20, 4), (16, 2)],
    }
}

fn generate(params: &LdiUnitParams, dir: &Path) {
    write_both(dir, &design(params), format!("test {:?}", params.kind()));
}

/// Lints every kind, combinational and registered, at the sizes `pick` keeps of its list.
fn lint_sizes(pick: impl Fn(&[(u64, u64)]) -> &[(u64, u64)]) {
    for &kind in LdiUnitKind::ALL {
        for &(m, s) in pick(sizes(kind)) {
            for registered in [false, true] {
                let params = LdiUnitParams::new(kind, m, s)
                    .unwrap()
                    .registered(registered);
                let what = format!("{} LDI({m},{s}) registered {registered}", kind.name());
                let dir = tempfile::tempdir().unwrap();
                generate(&params, dir.path());
                for v in lint(dir.path()).unwrap_or_else(|e| panic!("{what}: {e}")) {
                    assert!(v.clean, "{what} {}:\n{}", v.check, v.log);
                }
            }
        }
    }
}

#[test]
fn every_unit_is_lint_clean_at_its_first_two_sizes() {
    lint_sizes(|all| &all[..2]);
}

#[test]
#[ignore = "long (about 12 s): make test lints every kind at two sizes; make verify-full runs this"]
fn every_unit_is_lint_clean_at_its_other_sizes() {
    lint_sizes(|all| &all[2..]);
}

/// The switch-setting units are checked against these expected outputs, so this is what
/// the hardware realises: every switch a permutation of the nodes, every link of every node
/// carried by exactly one switch, and `target` the target of `link`.
#[test]
fn expected_switch_settings_realise_every_link_exactly_once() {
    for kind in [LdiUnitKind::SwitchLogic, LdiUnitKind::SwitchRom] {
        for &(m, s) in sizes(kind) {
            let unit = LdiUnit::new(LdiUnitParams::new(kind, m, s).unwrap());
            let (m, s) = (m as usize, s as usize);
            let mut hit = vec![vec![false; m]; s];
            let mut carried = vec![vec![false; s]; m];
            for index in 0..unit.vector_count() {
                let inputs = unit.vector(index);
                let [link, target] = unit.expected(&inputs)[..] else {
                    panic!("two outputs")
                };
                let (n, y, link, target) = (
                    inputs[0] as usize,
                    inputs[1] as usize,
                    link as usize,
                    target as usize,
                );
                assert_eq!(
                    target,
                    (s * n + link) % m,
                    "LDI({m},{s}) node {n} switch {y}"
                );
                assert!(
                    !std::mem::replace(&mut hit[y][target], true),
                    "LDI({m},{s}) switch {y} hits {target} twice"
                );
                assert!(
                    !std::mem::replace(&mut carried[n][link], true),
                    "LDI({m},{s}) link {link} of {n} twice"
                );
            }
            assert!(
                hit.iter()
                    .flatten()
                    .chain(carried.iter().flatten())
                    .all(|&b| b)
            );
        }
    }
}

/// One simulation: the simulator, (M, S) and whether the unit is registered.
type Run = (Box<dyn Simulator>, (u64, u64), bool);

/// Runs every vector of `kind` through GHDL at each of `sizes`, combinational and
/// registered, and through Verilator at the first size with `verilator_registered`, and
/// expects no failure. Verilator builds C++ for each design (about 10 s on a loaded
/// 2-core machine, against 0.2 s for GHDL), so it runs one design per kind.
fn check_in_both_simulators(
    kind: LdiUnitKind,
    sizes: &[(u64, u64)],
    verilator_registered: Option<bool>,
) {
    let mut runs: Vec<Run> = Vec::new();
    for &size in sizes {
        for registered in [false, true] {
            runs.push((Box::new(Ghdl::default()), size, registered));
        }
    }
    if let Some(registered) = verilator_registered {
        runs.push((Box::new(Verilator::default()), sizes[0], registered));
    }
    for (simulator, (m, s), registered) in runs {
        let params = LdiUnitParams::new(kind, m, s)
            .unwrap()
            .registered(registered);
        let unit = LdiUnit::new(params);
        let report = verify(simulator.as_ref(), &unit, Shard::WHOLE, 5)
            .unwrap_or_else(|e| panic!("{}: {e}", unit.describe()));
        assert_eq!(
            report.render(),
            format!(
                "{}: {} passed, 0 failed\n",
                simulator.name(),
                unit.vector_count()
            ),
            "{} registered {registered}",
            unit.describe()
        );
    }
}

#[test]
fn theorem3_unit_matches_the_golden_model() {
    // G = 2 and 3 (current read), G = S (de Bruijn, no current port), G = 3 with h = 3,
    // G = 2 with h = 4.
    let sizes = [(18, 3), (12, 4), (16, 2), (9, 3), (48, 4), (54, 3)];
    check_in_both_simulators(LdiUnitKind::Theorem3, &sizes, Some(false));
}

#[test]
fn two_hop_unit_matches_the_golden_model() {
    // The Theorem 3 generator at h = 2: Verilator runs it above.
    check_in_both_simulators(
        LdiUnitKind::TwoHop,
        &[(10, 5), (9, 3), (12, 4), (8, 4)],
        None,
    );
}

#[test]
fn shortest_unit_matches_the_golden_model() {
    // None of 7, 10, 20, 50 and 100 is S^(h-1) G; 9 and 16 are.
    let sizes = [(20, 4), (7, 2), (10, 3), (9, 3), (16, 2), (50, 3), (100, 5)];
    check_in_both_simulators(LdiUnitKind::Shortest, &sizes, Some(true));
}

/// Paper eq. (3) with and without a reduction mod S (18, 9), gcd classes with g = 1 (7,
/// 10), g = 2 (16), g = 3 (27) and g = 4 (20, 12).
const SWITCH_SIZES: [(u64, u64); 8] = [
    (18, 3),
    (9, 3),
    (7, 2),
    (10, 3),
    (16, 2),
    (27, 3),
    (20, 4),
    (12, 4),
];

#[test]
fn switch_logic_units_match_the_golden_model() {
    check_in_both_simulators(LdiUnitKind::SwitchLogic, &SWITCH_SIZES, Some(false));
}

#[test]
fn switch_rom_units_match_the_golden_model() {
    check_in_both_simulators(LdiUnitKind::SwitchRom, &SWITCH_SIZES, Some(true));
}

#[test]
fn crossbar_applies_every_switch_setting() {
    check_in_both_simulators(
        LdiUnitKind::Crossbar,
        &[(12, 4), (7, 2), (9, 3), (20, 4)],
        Some(false),
    );
}
