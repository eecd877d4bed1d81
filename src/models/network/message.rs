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
    payload_word(seed, id, index, 8) as u8
}

/// Data word `index` (from 0) of message `id` in the run of `seed`, on links of `bits`
/// bits (1 to 64): random in every bit, and its low byte [`payload_byte`], so a model that
/// carries bytes carries the low byte of the words the hardware does.
pub fn payload_word(seed: u64, id: u64, index: usize, bits: u32) -> u64 {
    mix(seed ^ mix(id.wrapping_mul(0x100).wrapping_add(index as u64))) & (u64::MAX >> (64 - bits))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_word_is_random_in_every_bit_and_its_low_byte_is_the_payload_byte() {
        let words: Vec<u64> = (0..64).map(|j| payload_word(7, 3, j, 32)).collect();
        for (j, &word) in words.iter().enumerate() {
            assert_eq!(word & 0xff, u64::from(payload_byte(7, 3, j)));
            assert!(word >> 32 == 0, "{word:#x} is wider than 32 bits");
        }
        let top_bits = words.iter().fold(0, |seen, w| seen | w >> 24);
        assert_eq!(
            top_bits, 0xff,
            "every one of the top 8 bits is set in some word"
        );
        assert!((0..64).any(|j| payload_word(7, 3, j, 64) >> 63 == 1));
    }
}
