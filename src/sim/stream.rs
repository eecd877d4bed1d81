//! Verification of stream units: hardware with state whose every output is compared with a
//! cycle model in every cycle (the network switch). The stimulus is one run of cycles from
//! reset, applied by the function units' testbench (one row of inputs per clock edge, the
//! outputs read after it, the state carried from row to row); the comparison lives here.
//!
//! In: a [`StreamUnit`]. Out: a report of cycles passed and failed, each failure naming the
//! outputs that differ.

use crate::rtl::ir::Design;
use crate::sim::bits::Bits;
use crate::sim::function::{FunctionReport, simulate};
use crate::sim::{SimError, Simulator};
use std::path::Path;

/// One clock cycle of a stream: the input port values applied in it and the output port
/// values the model gives after its clock edge, both in port order without `clk` and `rst`.
/// Inputs are at most 64 bits wide; outputs may be wider (a whole route set).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub inputs: Vec<u64>,
    pub outputs: Vec<Bits>,
    /// What the outputs of this cycle show, for a failure's line ("vector 4 (src 012 dst
    /// 201)"); empty when the cycle number says enough.
    pub note: String,
}

impl Cycle {
    /// A cycle whose outputs all fit 64 bits.
    pub fn narrow(inputs: Vec<u64>, outputs: &[u64]) -> Self {
        Cycle {
            inputs,
            outputs: outputs.iter().map(|&v| Bits::from_u64(64, v)).collect(),
            note: String::new(),
        }
    }
}

/// A unit checked cycle by cycle against its model from reset.
pub trait StreamUnit {
    /// What the unit is, for reports.
    fn describe(&self) -> String;
    /// The hardware.
    fn design(&self) -> Design;
    /// Every cycle of the run, from the first after reset.
    fn cycles(&self) -> Vec<Cycle>;
}

/// Runs `unit`'s cycles through `simulator` and compares every output in every cycle; the
/// first `shown` failing cycles are kept in full. With `wave` the waves go there.
pub fn verify(
    simulator: &dyn Simulator,
    unit: &dyn StreamUnit,
    shown: usize,
    wave: Option<&Path>,
) -> Result<FunctionReport, SimError> {
    let cycles = unit.cycles();
    let rows: Vec<Vec<u64>> = cycles.iter().map(|c| c.inputs.clone()).collect();
    let run = simulate(simulator, &unit.design(), &unit.describe(), 1, &rows, wave)?;
    let mut report = FunctionReport::new(simulator.name());
    for (index, (cycle, line)) in cycles.iter().zip(&run.lines).enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let differing: Vec<String> = run
            .outputs
            .iter()
            .zip(&cycle.outputs)
            .enumerate()
            .filter_map(|(i, (port, expected))| {
                let expected = expected.resized(port.width);
                let seen = fields.get(i).copied();
                let got = seen.and_then(|text| Bits::from_hex(port.width, text));
                (got.as_ref() != Some(&expected)).then(|| {
                    // Lowercase whatever the simulator wrote; text that is no value as it is.
                    let seen = match (got, seen) {
                        (Some(value), _) => value.to_hex(),
                        (None, text) => text.unwrap_or("nothing").to_string(),
                    };
                    format!("{} {seen}, expected {expected}", port.name)
                })
            })
            .collect();
        if differing.is_empty() {
            report.pass();
        } else {
            report.fail(shown, || {
                let note = match cycle.note.as_str() {
                    "" => String::new(),
                    note => format!(", {note}"),
                };
                format!("after cycle {index}{note}: {}", differing.join("; "))
            });
        }
    }
    Ok(report)
}
