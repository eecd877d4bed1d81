//! The LDI units of `crate::rtl::ldi_units` as [`FunctionUnit`]s, checked exhaustively
//! against the golden models: `Theorem3::link` (theorem3, two-hop), `shortest_next_link`
//! (shortest) and `Ldi::switches` (switch-logic, switch-rom, crossbar).
//!
//! In: an [`LdiUnitParams`]. Out: every input combination the unit is specified for, in a
//! fixed order, and the outputs the golden model gives.
//!
//! Vectors, in port order (clk and rst left out):
//! - theorem3, two-hop: (current, dst, hop) for every node pair and hop `0..h`, current the
//!   slowest; without a `current` port (G divides S) every (dst, hop).
//! - shortest: (current, dst) for every node pair.
//! - switch-logic, switch-rom: (node, switch) for every node and switch.
//! - crossbar: per switch y, M vectors each driving all ones into one input and zero into
//!   the others (it must appear at exactly one output, the right one), then one vector
//!   with a different value on every input. Outputs: every `out_t`, then `permutation`.

use crate::routing::ldi::shortest_next_link;
use crate::rtl::ir::Design;
use crate::rtl::ldi_units::{LdiUnitKind, LdiUnitParams, design};
use crate::sim::function::FunctionUnit;
use crate::units::check::with_fault;

/// One generated LDI unit and its golden model.
#[derive(Debug, Clone)]
pub struct LdiUnit {
    params: LdiUnitParams,
}

impl LdiUnit {
    pub fn new(params: LdiUnitParams) -> Self {
        LdiUnit { params }
    }

    pub fn params(&self) -> &LdiUnitParams {
        &self.params
    }

    fn m(&self) -> u64 {
        self.params.ldi().m() as u64
    }

    fn s(&self) -> u64 {
        self.params.ldi().s() as u64
    }

    /// All ones in the crossbar's data width.
    fn data_mask(&self) -> u64 {
        u64::MAX >> (64 - self.params.data_bits())
    }

    /// Crossbar vectors per switch: one per input, then the one of distinct values.
    fn crossbar_vectors_per_switch(&self) -> u64 {
        self.m() + 1
    }

    /// The value input n carries in the crossbar vector of distinct values: node numbers
    /// spread by an odd multiplier, so neighbours differ in many bits.
    fn distinct_value(&self, n: u64) -> u64 {
        (n + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32 & self.data_mask()
    }
}

impl FunctionUnit for LdiUnit {
    fn describe(&self) -> String {
        let what = match self.params.kind() {
            LdiUnitKind::Theorem3 => "Theorem 3 next-hop unit",
            LdiUnitKind::TwoHop => "two-hop next-hop unit",
            LdiUnitKind::Shortest => "shortest-route next-hop unit",
            LdiUnitKind::SwitchLogic => "switch settings (logic)",
            LdiUnitKind::SwitchRom => "switch settings (ROM)",
            LdiUnitKind::Crossbar => "crossbar",
        };
        let fault = with_fault(self.params.fault());
        format!("{what} of {}{fault}", self.params.ldi())
    }

    fn design(&self) -> Design {
        design(&self.params)
    }

    fn latency(&self) -> u32 {
        self.params.latency()
    }

    fn vector_count(&self) -> u64 {
        let (m, s) = (self.m(), self.s());
        match self.params.kind() {
            LdiUnitKind::Theorem3 | LdiUnitKind::TwoHop => {
                let h = self.params.ldi().h() as u64;
                if self.params.reads_current() {
                    m * m * h
                } else {
                    m * h
                }
            }
            LdiUnitKind::Shortest => m * m,
            LdiUnitKind::SwitchLogic | LdiUnitKind::SwitchRom => m * s,
            LdiUnitKind::Crossbar => s * self.crossbar_vectors_per_switch(),
        }
    }

    fn vector(&self, index: u64) -> Vec<u64> {
        assert!(
            index < self.vector_count(),
            "vector {index} of {}",
            self.vector_count()
        );
        let (m, s) = (self.m(), self.s());
        match self.params.kind() {
            LdiUnitKind::Theorem3 | LdiUnitKind::TwoHop => {
                let h = self.params.ldi().h() as u64;
                let (pair, hop) = (index / h, index % h);
                if self.params.reads_current() {
                    vec![pair / m, pair % m, hop]
                } else {
                    vec![pair, hop]
                }
            }
            LdiUnitKind::Shortest => vec![index / m, index % m],
            LdiUnitKind::SwitchLogic | LdiUnitKind::SwitchRom => vec![index / s, index % s],
            LdiUnitKind::Crossbar => {
                let per_switch = self.crossbar_vectors_per_switch();
                let (y, which) = (index / per_switch, index % per_switch);
                let mut inputs = vec![y];
                inputs.extend((0..m).map(|n| match which {
                    w if w == m => self.distinct_value(n),
                    w if w == n => self.data_mask(),
                    _ => 0,
                }));
                inputs
            }
        }
    }

    fn expected(&self, inputs: &[u64]) -> Vec<u64> {
        let ldi = self.params.ldi();
        match self.params.kind() {
            LdiUnitKind::Theorem3 | LdiUnitKind::TwoHop => {
                let t3 = self
                    .params
                    .theorem3()
                    .expect("theorem3 units carry their route");
                // Without a current port the link does not depend on it: any node will do.
                let (cur, dst, hop) = match *inputs {
                    [cur, dst, hop] => (cur, dst, hop),
                    [dst, hop] => (0, dst, hop),
                    _ => panic!("theorem3 vectors have 2 or 3 fields, got {inputs:?}"),
                };
                vec![t3.link(cur as usize, dst as usize, hop as usize) as u64]
            }
            LdiUnitKind::Shortest => {
                let next = shortest_next_link(ldi, inputs[0] as usize, inputs[1] as usize);
                vec![next.unwrap_or(0) as u64, next.is_none() as u64]
            }
            LdiUnitKind::SwitchLogic | LdiUnitKind::SwitchRom => {
                let switches = self.params.switches().expect("switch units carry settings");
                let (n, y) = (inputs[0] as usize, inputs[1] as usize);
                vec![switches.links[y][n] as u64, switches.perms[y][n] as u64]
            }
            LdiUnitKind::Crossbar => {
                let switches = self
                    .params
                    .switches()
                    .expect("the crossbar carries settings");
                let y = inputs[0] as usize;
                let mut outputs = vec![0; ldi.m()];
                for (n, &target) in switches.perms[y].iter().enumerate() {
                    outputs[target] |= inputs[1 + n];
                }
                outputs.push(1);
                outputs
            }
        }
    }
}
