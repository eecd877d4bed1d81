//! kautzgen: routing hardware for Kautz and related interconnection networks.
//!
//! Layers, data flowing one way. At the bottom, the golden models, a crate of their own
//! (`src/models`, re-exported here under the same names): [`topology`] (graphs and node
//! labels) feeds [`routing`] (every routing algorithm and its property checks); [`network`]
//! holds the cycle models of the network hardware (switch, router, whole networks) that
//! [`rtl`] is checked against, and [`fabric`], below both, what the two share (the switch's
//! configuration, the wiring of a topology's arcs to switch ports); [`random`], [`bits`]
//! and [`choice`] are their plain-Rust helpers. Above them: [`rtl`] describes the hardware
//! in one IR, [`emit`] prints it as Verilog and VHDL, [`sim`] and [`synth`] run the tools,
//! [`units`] declares every hardware unit once and [`cli`] builds the commands from them;
//! [`export`] writes a network and its routes for other tools, and
//! [`cluster`] the batch jobs that run a command's shards on a cluster.
//! Beneath them all, [`output`] writes the user's files and directories without destroying
//! what kautzgen did not write, and [`interrupt`] undoes temporaries and stops started
//! tools on Ctrl-C (the argument parser appears only in `cli` and `units`).
//! The binary in `main.rs` only wires these together.

pub use kautzgen_models::{bits, choice, fabric, network, random, routing, topology};

pub mod bench;
pub mod board;
pub mod cli;
pub mod clocking;
pub mod cluster;
pub mod draw;
pub mod emit;
pub mod experiments;
pub mod export;
pub mod input;
pub mod interrupt;
pub mod output;
pub mod rtl;
pub mod sim;
pub mod synth;
pub mod topologies;
pub mod units;
