//! Units checked vector by vector against their golden models, one module per family of
//! units: function units ([`crate::sim::function::FunctionUnit`]: ldi, torus) and
//! sequence units ([`crate::sim::sequence::SequenceUnit`]: mrns).
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
