//! Units checked against their golden models, one module per family of units: function
//! units ([`crate::sim::function::FunctionUnit`]: ldi, torus), sequence units
//! ([`crate::sim::sequence::SequenceUnit`]: mrns, the route generator) and stream units
//! ([`crate::sim::stream::StreamUnit`]: the switch, router and pipelined engine; the
//! network).
//!
//! In: a unit's generator parameters. Out: the unit's design, its vectors and the golden
//! model's expected outputs.

pub mod ldi;
pub mod mrns;
pub mod network;
pub mod route_gen;
pub mod route_pipe;
pub mod router;
pub mod switch;
pub mod torus;

/// " with fault <name>" for a unit built with `fault`, by the fault's command-line name;
/// empty without one.
pub(crate) fn with_fault<F: clap::ValueEnum>(fault: Option<F>) -> String {
    match fault {
        Some(fault) => format!(
            " with fault {}",
            fault
                .to_possible_value()
                .expect("every fault has a name")
                .get_name()
        ),
        None => String::new(),
    }
}
