//! LDI units (src/rtl/ldi_units.rs): lint-clean in Verilator, yosys and GHDL for every
//! kind, combinational and registered, at several (M,S); the golden switch settings they
//! are checked against realise every link exactly once.
//! A missing tool fails these tests with its install command.

use kautzgen::emit::names::Language;
use kautzgen::emit::{Provenance, write_design};
use kautzgen::rtl::ldi_units::{LdiUnitKind, LdiUnitParams, design};
use kautzgen::sim::function::FunctionUnit;
use kautzgen::sim::units::ldi::LdiUnit;
use kautzgen::synth::lint::lint;
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
    let provenance = Provenance {
        command: format!("test {:?}", params.kind()),
    };
    write_design(
        dir,
        &design(params),
        &[Language::Verilog, Language::Vhdl],
        &provenance,
    )
    .unwrap();
}

#[test]
fn every_unit_is_lint_clean() {
    for kind in LdiUnitKind::ALL {
        for &(m, s) in sizes(kind) {
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
