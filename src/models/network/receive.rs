//! The receive FIFO between a node's router and its processor, and the refusals it makes
//! (`--rx-bytes`, `--rx-ready`; docs/network.md, "Receive backpressure").
//!
//! The paper's router hands an arriving message's bytes to its processor at the link's
//! rate, and the processor must take them. With a receive FIFO the processor takes them
//! when it is ready (an AXI4-Stream master's `tready`), and when the FIFO could not take a
//! whole message of `max_bytes` bytes, the node's switch treats its output 0 as taken: a
//! head asking for the router is answered with a NACK, as the network-switch paper's
//! switch answers any head whose output is taken, and its source tries its next route.
//! The network never stalls on a slow processor.
//!
//! The FIFO is specified here cycle by cycle, and the RTL's (`rtl::network::axis`) is
//! built to the same rules:
//! - `count`: bytes written and not yet taken by the processor.
//! - `pending`: bytes promised to the worm now arriving. A head word arriving at the
//!   router sets it to `max_bytes`; the message's first byte handed out sets it to the
//!   message's length less one, as the length is known then; each later byte takes one
//!   off, and the worm's EOD clears it (a head or EOD in the same cycle as a byte wins).
//! - **refusal** in cycle t: `count + pending + max_bytes > capacity`, from the registers
//!   of cycle t. A head can be granted output 0 only in a cycle where the previous worm's
//!   bytes are all counted in `count` or `pending`, so the FIFO never overflows.
//! - A byte the router hands out in cycle t is written at the end of t and can be taken
//!   from cycle t+2 on (the RAM's registered read): the processor takes a byte in cycle t
//!   when one is visible (`count` less the byte written in t-1) and it is ready.
//! - The processor is ready in cycle t with probability `ready`, drawn by [`ready_at`] from
//!   the seed, the node and t alone, so the RTL's check drives the same `tready`.

use super::switch::Word;
use serde::Serialize;

/// Most bytes a receive FIFO holds.
pub const MAX_RX_BYTES: u64 = 4096;

/// A run's receive FIFOs: every node's of `bytes`, drained by a processor ready in a
/// cycle with probability `ready`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Receive {
    /// At least `max_bytes`, at most [`MAX_RX_BYTES`] (checked with the run's parameters).
    pub bytes: u64,
    pub ready: f64,
}

/// What a router's FIFO needs of the run: [`Receive`], the messages' largest size and
/// the seed of the processors' readiness.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReceiveParams {
    pub receive: Receive,
    pub max_bytes: u8,
    pub seed: u64,
}

impl ReceiveParams {
    /// Whether node `v`'s processor takes a byte in cycle `t`, if one is visible.
    pub fn ready(&self, v: usize, t: u64) -> bool {
        ready_at(self.seed, v, t, self.receive.ready)
    }
}

/// Whether node `v`'s processor is ready in cycle `t` of the run of `seed`, with
/// probability `p`: a hash of the three, the same on any thread and in the RTL's check.
pub fn ready_at(seed: u64, v: usize, t: u64, p: f64) -> bool {
    if p >= 1.0 {
        return true;
    }
    let h = mix(mix(mix(seed ^ 0x7278_5f72_6561_6479) ^ v as u64) ^ t);
    ((h >> 11) as f64) < p * (1u64 << 53) as f64
}

/// SplitMix64's finaliser: every input bit reaches every output bit.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One node's receive FIFO, as counts: the bytes themselves are the router's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RxFifo {
    count: u16,
    pending: u16,
    /// Between an arriving worm's head and its EOD.
    in_worm: bool,
    /// A byte was written at the end of the last cycle (not yet visible).
    wrote: bool,
}

impl RxFifo {
    /// Whether the switch refuses heads for the router in this cycle.
    pub fn refuses(&self, params: &ReceiveParams) -> bool {
        u64::from(self.count) + u64::from(self.pending) + u64::from(params.max_bytes)
            > params.receive.bytes
    }

    /// Holds nothing and expects nothing.
    pub fn is_empty(&self) -> bool {
        self.count == 0 && self.pending == 0 && !self.in_worm
    }

    /// The end of a cycle in which the router handed out a byte or not (`handed`: whether
    /// it is its message's first, and the message's length), the word `arriving` reached
    /// the router and the processor was `ready`; returns whether the processor took a byte.
    pub fn clock(
        &mut self,
        params: &ReceiveParams,
        handed: Option<(bool, u8)>,
        arriving: Word,
        ready: bool,
    ) -> bool {
        let visible = self.count - u16::from(self.wrote);
        let taken = ready && visible > 0;
        self.count = self.count + u16::from(handed.is_some()) - u16::from(taken);
        debug_assert!(
            u64::from(self.count) <= params.receive.bytes,
            "the FIFO overflowed"
        );
        self.wrote = handed.is_some();
        if arriving.valid && arriving.ctl {
            self.in_worm = !self.in_worm;
            self.pending = if self.in_worm {
                u16::from(params.max_bytes)
            } else {
                0
            };
        } else if let Some((first, len)) = handed {
            let left = if first { u16::from(len) } else { self.pending };
            self.pending = left.saturating_sub(1);
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(bytes: u64) -> ReceiveParams {
        ReceiveParams {
            receive: Receive { bytes, ready: 1.0 },
            max_bytes: 4,
            seed: 1,
        }
    }

    /// An 8-byte FIFO, messages of at most 4 bytes, a processor that takes nothing: a
    /// head reserves 4 bytes until the first byte tells the length; a second head is refused
    /// only while 3 bytes are in and another whole message is promised (3 + 4 + 4 > 8).
    #[test]
    fn a_head_reserves_a_whole_message_until_its_length_is_known() {
        let p = params(8);
        let mut fifo = RxFifo::default();
        let (head, eod, data) = (Word::control(1), Word::control(0), Word::data(7));
        fifo.clock(&p, None, head, false);
        assert_eq!((fifo.count, fifo.pending), (0, 4));
        assert!(!fifo.refuses(&p), "0 + 4 + 4 <= 8");
        fifo.clock(&p, Some((true, 3)), data, false);
        assert_eq!((fifo.count, fifo.pending), (1, 2));
        fifo.clock(&p, Some((false, 3)), data, false);
        fifo.clock(&p, Some((false, 3)), eod, false);
        assert_eq!((fifo.count, fifo.pending, fifo.in_worm), (3, 0, false));
        assert!(!fifo.refuses(&p), "3 + 0 + 4 <= 8");
        fifo.clock(&p, None, head, false);
        assert!(fifo.refuses(&p), "3 + 4 + 4 > 8");
        fifo.clock(&p, Some((true, 1)), data, false);
        assert_eq!((fifo.count, fifo.pending), (4, 0));
        assert!(!fifo.refuses(&p), "4 + 0 + 4 <= 8");
    }

    /// A byte written in cycle t is taken in t+2 at the earliest.
    #[test]
    fn a_byte_is_visible_two_cycles_after_it_is_handed_out() {
        let p = params(8);
        let mut fifo = RxFifo::default();
        let first = Some((true, 1));
        assert!(
            !fifo.clock(&p, first, Word::IDLE, true),
            "written at the end of t"
        );
        assert!(
            !fifo.clock(&p, None, Word::IDLE, true),
            "t+1: in the RAM, being read"
        );
        assert!(fifo.clock(&p, None, Word::IDLE, true), "t+2: on the stream");
        assert!(fifo.is_empty());
    }

    /// Readiness at p = 0.25 over 40,000 cycles of one node: about a quarter, and the same
    /// for the same seed.
    #[test]
    fn readiness_follows_its_probability_and_the_seed() {
        let ready = (0..40_000).filter(|&t| ready_at(3, 5, t, 0.25)).count();
        assert!((9_500..10_500).contains(&ready), "{ready}");
        assert!((0..100).all(|t| ready_at(3, 5, t, 0.25) == ready_at(3, 5, t, 0.25)));
        assert!((0..100).any(|t| ready_at(3, 5, t, 0.25) != ready_at(4, 5, t, 0.25)));
    }
}
