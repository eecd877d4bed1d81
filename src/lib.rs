//! kautzgen: routing hardware for Kautz and related interconnection networks.
//!
//! Layers, data flowing one way: [`topology`] (graphs and node labels) feeds [`routing`]
//! (golden models of every routing algorithm and their property checks), which feeds the
//! drawing and benchmark front ends. [`network`] holds the cycle models of the network
//! hardware (switch, router, whole networks) that [`rtl`] is checked against, and
//! [`fabric`], below both, what the two share (the switch's configuration, the wiring of a
//! topology's arcs to switch ports); [`random`] the deterministic random numbers that every
//! model and flow draws from. Beneath them all, [`output`] writes the user's files and
//! directories without destroying what kautzgen did not write, and [`interrupt`] undoes
//! temporaries and stops started tools on Ctrl-C, [`bits`] says how many bits a number
//! needs, and [`choice`] names the variants of an option or a fault in plain Rust (the
//! argument parser appears only in `cli` and `units`).
//! The binary in `main.rs` only wires these together.

pub mod bench;
pub mod bits;
pub mod choice;
pub mod cli;
pub mod clocking;
pub mod draw;
pub mod emit;
pub mod experiments;
pub mod fabric;
pub mod input;
pub mod interrupt;
pub mod network;
pub mod output;
pub mod random;
pub mod routing;
pub mod rtl;
pub mod sim;
pub mod synth;
pub mod topology;
pub mod units;
