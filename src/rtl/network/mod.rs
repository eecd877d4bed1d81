//! The hardware of the network-switch paper (Smit, Havinga, Jansen 1991): the switch, the
//! router beside each node's processor, and the whole network that wires one of each per
//! node. Each is a unit of its own; the network builds on the other two.

pub mod axis;
pub mod packed;
pub mod processor_side;
pub mod route_table;
pub mod router;
mod router_acked;
pub mod router_axis;
mod router_parts;
pub mod switch;
mod switch_buffers;
mod switch_decision;
mod switch_parts;
mod switch_registered;
pub mod whole;
