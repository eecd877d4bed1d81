//! The self-timed switch's clock handshake, beneath both the RTL generator and the models:
//! which rendezvous a switch makes its node clock with ([`Rendezvous`]), whose clocks each
//! switch of a network sees and through which wires ([`graph::ClockGraph`]), and an
//! untimed model of the handshake whose every interleaving is explored ([`untimed`]), the
//! proof that the rendezvous is live for any wire delays.

pub mod graph;
pub mod untimed;

/// How a self-timed switch makes its node clock from the clocks its neighbours send it
/// (`cl` on every input link, `cla` on every output link).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rendezvous {
    /// One Muller-C element per clock wire, over that wire and the node's own clock, and one
    /// C element over those, whose inverse is the node clock. A wire's element takes a
    /// neighbour's transition only once the node has reached the same level, and holds it
    /// until the node has used it, so a neighbour that has already moved on is not taken
    /// for one that lags. Live for every assignment of wire delays.
    PerWire,
    /// The rendezvous as the network-switch paper (Smit et al. 1991) draws it: one C element
    /// over the levels of the neighbours' clocks. A neighbour's transition that arrives
    /// before another neighbour's earlier one is lost, and the network can stop for good
    /// when wires have different delays.
    Level,
}
