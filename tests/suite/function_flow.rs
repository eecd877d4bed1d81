//! The generic function-unit flow on a unit small enough to check by hand: an adder
//! modulo 5, combinational and registered, and a faulty one whose mismatches are reported
//! with port names and values.

use kautzgen::rtl::ir::{Design, Expr, Module, Timing};
use kautzgen::sim::Simulator;
use kautzgen::sim::function::{FunctionUnit, verify};
use kautzgen::sim::ghdl::Ghdl;
use kautzgen::sim::vectors::Shard;
use kautzgen::sim::verilator::Verilator;
use std::collections::BTreeMap;

/// `sum = (a + b) mod 5` for a, b in 0..5, and `wrapped` when a + b >= 5.
struct AddMod5 {
    registered: bool,
    /// Leaves out the correction step: sum = a + b.
    faulty: bool,
}

impl FunctionUnit for AddMod5 {
    fn describe(&self) -> String {
        "adder modulo 5".into()
    }

    fn design(&self) -> Design {
        let mut m = Module::new("add_mod5", &["adds two residues modulo 5"]);
        if self.registered {
            m.clocked();
        }
        let a = m.input("a", 3, "first residue");
        let b = m.input("b", 3, "second residue");
        let sum = m.output("sum", 4, "(a + b) mod 5");
        let wrapped = m.output("wrapped", 1, "a + b >= 5");
        let raw = m.internal("raw", 4, "a + b");
        let over = m.internal("over", 1, "a + b >= 5");
        let widen = |x| Expr::concat(vec![Expr::zero(1), Expr::from(x)]);
        m.assign(raw, widen(a) + widen(b), "the plain sum");
        m.assign(
            over,
            !Expr::from(raw).lt(Expr::konst(4, 5)),
            "needs the correction",
        );
        let corrected = Expr::mux(over.into(), Expr::from(raw) - Expr::konst(4, 5), raw.into());
        let value = if self.faulty { raw.into() } else { corrected };
        if self.registered {
            m.register(sum, 0, value, "the residue");
            m.register(wrapped, 0, over.into(), "whether it wrapped");
        } else {
            m.assign(sum, value, "the residue");
            m.assign(wrapped, over.into(), "whether it wrapped");
        }
        Design {
            modules: vec![m],
            params: BTreeMap::new(),
            summary: "test unit".into(),
            timing: Timing::Synchronous,
        }
    }

    fn latency(&self) -> u32 {
        u32::from(self.registered)
    }

    fn vector_count(&self) -> u64 {
        25
    }

    fn vector(&self, index: u64) -> Vec<u64> {
        vec![index / 5, index % 5]
    }

    fn expected(&self, inputs: &[u64]) -> Vec<u64> {
        let total = inputs[0] + inputs[1];
        vec![total % 5, u64::from(total >= 5)]
    }
}

fn simulators() -> [Box<dyn Simulator>; 2] {
    [Box::new(Verilator::default()), Box::new(Ghdl::default())]
}

#[test]
fn a_correct_unit_passes_combinational_and_registered() {
    for registered in [false, true] {
        let unit = AddMod5 {
            registered,
            faulty: false,
        };
        for simulator in simulators() {
            let report = verify(simulator.as_ref(), &unit, Shard::WHOLE, 5).unwrap();
            assert_eq!(
                report.render(),
                format!("{}: 25 passed, 0 failed\n", simulator.name())
            );
        }
    }
}

#[test]
fn a_faulty_unit_fails_with_the_vectors_named() {
    // Without the correction, a + b >= 5 gives a + b itself: the 10 pairs with a sum of 5
    // to 8 fail; the first are 1 + 4 (vector 9) and 2 + 3 (vector 13).
    let unit = AddMod5 {
        registered: true,
        faulty: true,
    };
    for simulator in simulators() {
        let report = verify(simulator.as_ref(), &unit, Shard::WHOLE, 2).unwrap();
        let name = simulator.name();
        assert_eq!(
            report.render(),
            format!(
                "{name}: vector 9: a=1 b=4; expected sum=0 wrapped=1; got sum=5 wrapped=1\n\
                 {name}: vector 13: a=2 b=3; expected sum=0 wrapped=1; got sum=5 wrapped=1\n\
                 {name}: 8 more failures not shown\n\
                 {name}: 15 passed, 10 failed\n"
            )
        );
    }
}

#[test]
fn shards_split_the_vectors() {
    let unit = AddMod5 {
        registered: false,
        faulty: false,
    };
    let report = verify(&Verilator::default(), &unit, "1/3".parse().unwrap(), 5).unwrap();
    assert_eq!(report.render(), "verilator: 8 passed, 0 failed\n");
}
