//! Verification of stream units: hardware with state whose every output is compared with a
//! cycle model in every cycle (the network switch). The stimulus is one run of cycles from
//! reset, applied by the function units' testbench (one row of inputs per clock edge, the
//! outputs read after it, the state carried from row to row); the comparison lives here.
//!
//! In: a [`StreamUnit`]. Out: a report of cycles passed and failed, each failure naming the
//! outputs that differ.

use crate::rtl::ir::Design;
use crate::sim::function::{FunctionReport, digits, parse_line, simulate};
use crate::sim::{SimError, Simulator};
use std::path::Path;

/// One clock cycle of a stream: the input port values applied in it and the output port
/// values the model gives after its clock edge, both in port order without `clk` and `rst`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub inputs: Vec<u64>,
    pub outputs: Vec<u64>,
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
        let got = parse_line(line);
        let differing: Vec<String> = run
            .outputs
            .iter()
            .enumerate()
            .filter(|&(i, _)| got.get(i).copied().flatten() != Some(cycle.outputs[i]))
            .map(|(i, port)| {
                let width = digits(port.width);
                let seen = match got.get(i).copied().flatten() {
                    Some(value) => format!("{value:0width$x}"),
                    None => "nothing".to_string(),
                };
                format!(
                    "{} {seen}, expected {:0width$x}",
                    port.name, cycle.outputs[i]
                )
            })
            .collect();
        if differing.is_empty() {
            report.pass();
        } else {
            report.fail(shown, || {
                format!("after cycle {index}: {}", differing.join("; "))
            });
        }
    }
    Ok(report)
}
