//! Verification of function units: hardware whose outputs are a fixed function of its
//! inputs after a fixed number of clock edges (routing functions, next-hop units, switch
//! settings). One testbench per language serves every such unit: it is generated from
//! the top module's ports, applies each vector, and records the outputs; the comparison
//! with the golden model lives here, once.
//!
//! In: a [`FunctionUnit`]. Out: a report of vectors passed and failed, the first failures
//! in full with port names.

use crate::rtl::ir::Design;

/// A unit whose outputs are a function of its inputs, `latency` clock edges later.
///
/// The vector's fields are the top module's ports other than `clk` and `rst`, in port
/// order: inputs in [`FunctionUnit::vector`], outputs in [`FunctionUnit::expected`]. Every
/// such port is at most 64 bits wide.
pub trait FunctionUnit {
    /// What the unit is, for reports: "e-cube router of the 3-ary 3-cube".
    fn describe(&self) -> String;
    /// The unit's hardware.
    fn design(&self) -> Design;
    /// Clock edges between applying inputs and reading outputs; 0 for a combinational
    /// unit, which then has no `clk` and `rst` ports.
    fn latency(&self) -> u32;
    /// How many vectors an exhaustive check runs.
    fn vector_count(&self) -> u64;
    /// Vector `index` (`0..vector_count()`): the input port values.
    fn vector(&self, index: u64) -> Vec<u64>;
    /// The output port values the golden model gives for `inputs`.
    fn expected(&self, inputs: &[u64]) -> Vec<u64>;
}
