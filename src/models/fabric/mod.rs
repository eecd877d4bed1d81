//! The network fabric: the switches and the links between them, as far as the hardware
//! (src/rtl) and the cycle models (src/models/network) of a network must agree on
//! them. A fabric is neither hardware nor a model but the facts both are built from, so it
//! sits below both and imports neither: the switch's configuration, arbiters and built-in
//! faults ([`switch`]), which port drives which across a topology's arcs ([`wiring`]), and
//! every topology as a network of such switches, with its node names and route bytes
//! ([`network`]).

pub mod network;
pub mod switch;
pub mod wiring;
