//! Hardware: a small structural IR and the generators that build designs in it.
//!
//! In: routing parameters (d, k, ...). Out: an [`ir::Design`], a list of modules with
//! explicit widths, which the backends in `crate::emit` print as Verilog and VHDL. Sizes are
//! runtime values, so one generator serves every (d, k).

pub mod const_arith;
pub mod ir;
pub mod kautz_route;
pub mod ldi_units;
pub mod mrns_path_gen;
pub mod network;
pub mod reset;
pub mod selftest;
pub mod torus_router;
