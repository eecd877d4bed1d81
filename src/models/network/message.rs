//! Messages of the network models: what a processor injects, what happens to each attempt,
//! and how it ends. A message's data bytes are not stored: they are a function of the
//! run's seed, the message's id and the byte's position ([`payload_byte`]), so the
//! receiver can check every byte it reassembles without the model keeping a copy.

use crate::random::mix;
use serde::Serialize;

/// One message, from injection to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Its number, in injection order from 0.
    pub id: u64,
    /// Source and destination, as node indices of the graph.
    pub src: u32,
    pub dst: u32,
    /// The cycle the processor made it.
    pub inject: u64,
    /// Data bytes, 1 to 255.
    pub bytes: u8,
    /// The retry round it is in, from 0.
    pub round: u32,
    /// The first cycle the processor may hand it to the router (its injection, or the end
    /// of a retry delay).
    pub ready: u64,
    /// The cycle its router took its first byte, in its latest round (0 before that).
    pub handed: u64,
    /// Every attempt so far, in order.
    pub attempts: Vec<Attempt>,
}

/// Data byte `index` (from 0) of message `id` in the run of `seed`.
pub fn payload_byte(seed: u64, id: u64, index: usize) -> u8 {
    (mix(seed ^ mix(id.wrapping_mul(0x100).wrapping_add(index as u64))) & 0xff) as u8
}

/// One route of a message: the bytes the router sends, the output port at every switch,
/// and the name reports give it, which the topology's plan chooses (a Kautz route's hop
/// letters, another route's nodes: [`super::plan`]); [`Attempt::route`] is that name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceRoute {
    pub bytes: Vec<u8>,
    pub name: Vec<u32>,
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AttemptOutcome {
    Nack,
    Delivered,
    /// Under acknowledged delivery: its ACK did not come within the attempt's bound.
    Timeout,
    /// With switches that route: every output the routing function allows was faulty.
    Dropped,
}

/// One worm sent for a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// The route's name, as the network model gave it to the router
    /// ([`SourceRoute`]).
    pub route: Vec<u32>,
    /// Index of the route in the golden route set, from 0.
    pub route_index: usize,
    /// The links its route crosses (for switches that route, those its header crossed).
    pub hops: u32,
    /// The cycle of its head.
    pub start: u64,
    pub outcome: AttemptOutcome,
    /// For a NACKed attempt: the cycle the source saw the NACK and the node (index in the
    /// route's walk, 0 = the source) whose switch refused the head.
    pub nack: Option<(u64, usize)>,
}

/// How a message ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Delivered,
    Failed,
}

/// A message that has ended, with the cycles the statistics need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub message: Message,
    pub outcome: Outcome,
    /// The cycle the source's router reported the outcome (`res_valid`).
    pub done: u64,
    /// For a delivered message: the cycle its last byte was handed to the destination's
    /// processor.
    pub arrive: Option<u64>,
}
