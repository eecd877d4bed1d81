//! Golden-model adapters of the function units: each implements
//! [`crate::sim::function::FunctionUnit`] for one family of generated units.
//!
//! In: the parameters of a unit. Out: its design, its exhaustive input vectors and the
//! outputs the golden model gives for each.

pub mod ldi;
