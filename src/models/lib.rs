//! kautzgen's golden models: everything the software side of the project knows about a
//! network, with no hardware description, no tools and no command line.
//!
//! Layers, data flowing one way: [`topology`] (graphs and node labels) feeds [`routing`]
//! (golden models of every routing algorithm and their property checks); [`network`] holds
//! the cycle models of the network hardware (switch, router, whole networks) that the RTL
//! is checked against, and [`fabric`], below both it and the RTL generators, what the two
//! share (the switch's configuration, the wiring of a topology's arcs to switch ports).
//! Beneath them, [`random`] gives the deterministic random numbers every model and flow
//! draws from, [`bits`] says how many bits a number needs, and [`choice`] names the variants
//! of an option or a fault in plain Rust.
//!
//! It is a crate of its own so that the test build can optimise it alone: the exhaustive
//! property tests and every simulation check spend their time here.

pub mod bits;
pub mod choice;
pub mod fabric;
pub mod network;
pub mod random;
pub mod routing;
pub mod topology;
