//! Cycle models of the network hardware of the network-switch paper (Smit et al. 1991): the
//! switch, the router, and whole networks of them with their traffic; and the wormhole
//! network of the k-ary n-cube of Demaine and Srinivas's k-ary n-cube paper, which shares
//! their traffic and statistics (docs/papers.md lists both papers). They are golden models
//! like those of [`crate::routing`]: the RTL is checked against them cycle by cycle. The
//! sweeps and figures run on them are in the main crate's `experiments`.

pub mod acked;
pub mod link;
pub mod message;
pub mod net;
pub mod plan;
pub mod router;
pub mod stats;
pub mod switch;
pub mod torus_net;
pub mod trace;
pub mod traffic;
