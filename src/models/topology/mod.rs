//! Topologies of the papers: graphs, node labels, their parsing and printing.
//!
//! Each topology knows its parameters, validates them, names its nodes and lists arcs; the
//! generic [`digraph::Digraph`] is what the property checks and the flow reference work on.

pub mod debruijn;
pub mod digraph;
pub mod edge_list;
pub mod kautz;
pub mod ldi;
pub mod mrns;
pub mod torus;
