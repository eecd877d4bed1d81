//! Acknowledged delivery: the protocol of a network whose switches buffer worms (virtual
//! cut-through and store-and-forward, docs/flow-control.md "In a network"). A worm taken
//! into a buffer frees the links behind it, so its source can no longer hear a NACK from
//! further on; the destination's router acknowledges every data worm with an ACK worm, and
//! the source counts an attempt delivered when the ACK comes, failed when it does not come
//! within the attempt's bound. Per (source, destination) a 16-bit sequence number, carried
//! by the data worm and its ACK, lets the destination hand a message out once however many
//! of its copies arrive.
//!
//! Here: the bounds the protocol rests on, worked out from the network ([`Bounds`]), and a
//! router's state under it ([`Acked`]), which [`super::router::Router`] steps.

use super::message::SourceRoute;
use super::plan::Plan;
use std::collections::{HashMap, VecDeque};

/// ACKs a router holds, the one being sent included; one more is dropped (its source times
/// out and sends again).
pub const ACK_QUEUE: usize = 4;

/// Rounds of an ACK's routes before it is given up: an ACK passes as a nosy worm, so it
/// is refused by every output a buffered worm holds, and a lost ACK costs its source a
/// whole attempt's bound.
pub const ACK_ROUNDS: usize = 8;

/// The mark of an ACK worm's route bytes on a network's 8-bit links: the top bit, which
/// keeps it out of every buffer ([`crate::fabric::switch::SwitchConfig::no_buffer_mark`]),
/// so that it passes as a nosy worm and its sender hears every NACK.
pub const ACK_MARK: u8 = 0x80;

/// Words a data worm of n bytes carries besides the nosy-worm header and its bytes: the
/// sequence number's two bytes.
pub const SEQUENCE_WORDS: u64 = 2;

/// The bounds of a network of buffered switches, in cycles (docs/flow-control.md argues
/// each). The network model checks the first, the second and the last in every run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The longest worm, in words: the longest route and the longest message.
    pub worm: u64,
    /// Most cycles a worm stays in one switch's buffer, from its head taken in to the
    /// buffer emptied: it fills in at most `worm` cycles, waits for its output at most
    /// `ports * (worm + 1)` (each other input holds it at most once, a worm at a time, by
    /// round-robin), and leaves in at most `worm`.
    pub buffer_hold: u64,
    /// Most cycles from an attempt's head to its last word at the destination's router or
    /// its drop: every switch of the longest route holds it at most `buffer_hold` cycles
    /// and one more to pass it on, then its last word follows its head. A source waits
    /// this long for the ACK: when it has not come, no copy of the attempt is left.
    pub attempt: u64,
    /// Most cycles from a message handed to its router to its outcome: per route, one ACK
    /// job of the router before it, the route's lookup, the message's bytes, the worm and
    /// the wait for its ACK.
    pub message: u64,
}

impl Bounds {
    /// The bounds of `plan`'s network with messages of at most `max_bytes` bytes.
    pub fn of(plan: &dyn Plan, max_bytes: u8) -> Bounds {
        let hops = plan.max_hops() as u64;
        let ports = plan.ports() as u64 + 1;
        let routes = plan.ports() as u64;
        let b = plan.route_cycles();
        let worm = worm_words(
            hops,
            plan.address_bytes() as u64,
            u64::from(max_bytes),
            true,
        );
        let buffer_hold = 2 * worm + ports * (worm + 1);
        let attempt = (hops + 1) * (buffer_hold + 1) + worm;
        let lookup = routes * b;
        let ack_job = routes * (lookup + worm + 1);
        let message = routes * (ack_job + lookup + u64::from(max_bytes) + worm + 1 + attempt);
        Bounds {
            worm,
            buffer_hold,
            attempt,
            message,
        }
    }
}

/// The words of a worm over `hops` hops from a node of `address` bytes with `n` data bytes
/// (0 for an ACK), with its sequence number under acknowledged delivery (docs/network.md,
/// docs/flow-control.md): at least 3(L+1) - 1, so that every refusal on a held path
/// reaches the source while it still sends.
pub fn worm_words(hops: u64, address: u64, n: u64, acknowledged: bool) -> u64 {
    let sequence = if acknowledged { SEQUENCE_WORDS } else { 0 };
    (hops + address + n + 4 + sequence).max(3 * (hops + 1) - 1)
}

/// An ACK the router owes: to node `to`, over `routes` in order, for sequence `seq`.
#[derive(Debug)]
pub struct AckJob {
    pub to: u32,
    pub routes: Vec<SourceRoute>,
    pub seq: u16,
    /// Its attempts so far: the next takes route `attempt % routes.len()`.
    pub attempt: usize,
}

/// What the router's sender does.
#[derive(Debug, Default)]
pub enum Job {
    #[default]
    Idle,
    /// An attempt of the held message: its route's lookup, then its worm.
    Data,
    /// An attempt of the ACK at the queue's front.
    Ack,
    /// A refused message's lookup: the sender is busy until cycle `until`.
    Refusing { until: u64 },
}

/// Where the held message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DataPhase {
    /// No message held, or one refused.
    #[default]
    None,
    /// Its next attempt waits for the sender.
    Waiting,
    /// An attempt is the sender's job.
    Active,
    /// Its worm has gone out whole: waiting for its ACK until `deadline`.
    Parked { deadline: u64 },
    /// Its last route has ended without an ACK.
    Exhausted,
}

/// What the router counts under acknowledged delivery.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AckCounts {
    /// ACK worms sent to their EOD without a NACK.
    pub acks_sent: u64,
    /// ACKs given up: every route NACKed, or the queue full.
    pub acks_dropped: u64,
    /// Data worms that arrived again after their message was handed out.
    pub duplicates: u64,
    /// Attempts whose ACK did not come in time.
    pub timeouts: u64,
}

/// A router's state under acknowledged delivery.
#[derive(Debug, Default)]
pub struct Acked {
    /// The next sequence number towards each destination.
    pub next_seq: HashMap<u32, u16>,
    /// The sequence number last handed out from each source, by its address.
    pub accepted: HashMap<Box<[u8]>, u16>,
    /// The held message's destination's address and sequence number.
    pub held_dst: Box<[u8]>,
    pub held_seq: u16,
    /// The cycle of the current data attempt's head.
    pub attempt_start: u64,
    pub data: DataPhase,
    /// The held message's ACK has come.
    pub acked: bool,
    /// The ACKs owed, oldest first; the one being sent stays at the front until it has
    /// gone or is given up.
    pub queue: VecDeque<AckJob>,
    pub job: Job,
    /// The last job was an ACK: a waiting message goes next.
    pub after_ack: bool,
    /// The route source's next route: (destination, route index, the cycle it is ready).
    pub context: Option<(u32, usize, u64)>,
    /// The arriving worm's byte count and sequence number, and whether it is a data worm
    /// to acknowledge at its EOD.
    pub rx_seq: u16,
    pub rx_ack_due: bool,
    pub counts: AckCounts,
}

impl Acked {
    /// The cycle route `index` towards `to` is taken when it is asked for in cycle `t`,
    /// and the route source's next route after it (of `count`). The route source keeps
    /// one pair: the route after the last taken is ready B cycles after it; any other
    /// starts again from the pair's first, B cycles a route.
    pub fn lookup(&mut self, b: u64, t: u64, to: u32, index: usize, count: usize) -> u64 {
        let taken = match self.context {
            Some((pair, i, ready)) if pair == to && i == index => ready.max(t),
            _ => t + (index as u64 + 1) * b,
        };
        self.context = (index + 1 < count).then_some((to, index + 1, taken + b));
        taken
    }

    /// Nothing to send, nothing waiting.
    pub fn is_quiet(&self) -> bool {
        self.queue.is_empty() && matches!(self.job, Job::Idle)
    }
}
