//! Cycle models of the network hardware of the network-switch paper (Smit et al. 1991): the
//! switch, the router, and whole networks of them with their traffic; and the wormhole
//! network of the k-ary n-cube of Demaine and Srinivas's k-ary n-cube paper, which shares
//! their traffic, statistics and sweeps (docs/papers.md lists both papers). They are golden
//! models like those of [`crate::routing`]: the RTL is checked against them cycle by cycle.

pub mod kautz_net;
pub mod link;
pub mod message;
pub mod router;
pub mod stats;
pub mod sweep;
pub mod switch;
pub mod torus_fig4;
pub mod torus_net;
pub mod torus_witness;
pub mod trace;
pub mod traffic;
