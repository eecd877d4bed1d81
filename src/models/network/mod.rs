//! Cycle models of the network hardware of the network-switch paper (Smit et al. 1991): the
//! switch, the router, and whole networks of them with their traffic; and the wormhole
//! network of the k-ary n-cube of Demaine and Srinivas's k-ary n-cube paper, whose switches
//! route. One engine ([`net`]) runs both fabrics ([`source_routed`], [`switch_routed`]) with
//! the same traffic, trace and statistics (docs/papers.md lists both papers). They are golden models
//! like those of [`crate::routing`]: the RTL is checked against them cycle by cycle. The
//! sweeps and figures run on them are in the main crate's `experiments`.

pub mod acked;
pub mod config;
pub mod cube_run;
pub mod distances;
pub mod engine;
pub mod faults;
pub mod link;
pub mod memory;
pub mod message;
pub mod net;
pub mod netrace;
pub mod params;
pub mod plan;
pub mod receive;
pub mod replay;
pub mod router;
pub mod source_routed;
pub mod stats;
pub mod switch;
pub mod switch_routed;
pub mod trace;
pub mod traffic;
