//! Function units checked vector by vector against their golden models
//! ([`crate::sim::function::FunctionUnit`] implementations), one module per family of units.
//!
//! In: a unit's generator parameters. Out: the unit's design, its vectors and the golden
//! model's expected outputs.

pub mod ldi;
pub mod torus;
