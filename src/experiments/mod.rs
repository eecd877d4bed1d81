//! Experiments: what runs the models over grids of parameters and reproduces the papers'
//! figures, apart from the models themselves. Experiments import the models of
//! [`crate::network`], [`crate::routing`] and [`crate::topology`]; no model imports an
//! experiment. The command line ([`crate::cli`]) reads the options and writes the files.
//!
//! - [`driver`]: the sweep driver every sweep shares: points in a fixed order, run on every
//!   processor, one CSV line per point.
//! - [`network_sweep`]: networks of the paper's switches over fault counts and rates (Smit et al.
//!   1991), with its table and chart (`netsim sweep`).
//! - [`torus_fig4`]: Fig. 4 of Demaine and Srinivas on the wormhole model, with its table and
//!   chart (`netsim torus fig4`).
//! - [`torus_deadlock_sweep`]: the grid of the channel-dependency deadlock sweep
//!   (`torus deadlock-sweep`).
//! - [`torus_witness`]: an analysed dependency cycle's messages placed in the wormhole model,
//!   to see whether it really deadlocks (`torus deadlock --simulate`).
//! - [`plot`]: the SVG line charts the figures are drawn with.
//!
//! Why these and not others: each one builds a scenario (a grid, a set of placed messages)
//! and runs a model on it to test a paper's claim; none models hardware, and no model or
//! RTL needs one. The deadlock grid left `routing` and the witness left `network` for that
//! reason, and `plot` left the crate root because only the figures draw with it. The channel
//! dependency graph itself (`routing::torus_cdg`) stays in `routing`: it is a property check
//! of a routing function, as the node-disjoint path checks are. `cli/torus` stays in `cli`:
//! it parses options and prints the analyses and witnesses as text or JSON.

pub mod comparison;
pub mod confidence;
pub mod driver;
pub mod network_sweep;
pub mod plot;
pub mod saturation;
pub mod torus_deadlock_sweep;
pub mod torus_fig4;
pub mod torus_witness;
