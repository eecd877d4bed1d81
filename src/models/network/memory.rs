//! The memory a network run needs, estimated before it starts, and the most a run may
//! take (the machine's memory: the command line sets it): a run that would not fit is
//! refused at once, with its estimate, rather than killed by the system half-way through.
//!
//! The estimate is the program's own start, plus per node what its fabric keeps
//! ([`super::source_routed::SourceRouted::bytes_per_node`],
//! [`super::switch_routed::SwitchRouted::bytes_per_node`]) and what the engine, the
//! traffic and the statistics keep, plus per message made what the statistics keep of it,
//! plus the messages held at once: every message made, up to [`HELD_PER_NODE`] per node.
//! A run far beyond saturation for long can hold more, as its queues grow by the offered
//! load every cycle (docs/network.md, "Memory").
//!
//! In: a run's size (its nodes, their fabric's bytes, its messages). Out: an [`Estimate`];
//! the limit, [`limit`]. [`super::net::Net::estimate`] gives a run's.

use super::message::{Attempt, Message};
use std::sync::atomic::{AtomicU64, Ordering};

/// The program, its libraries and the allocator's first arenas: the peak resident memory
/// of the smallest run (K(2,2), 1 cycle) is 7 MB.
pub const PROGRAM: u64 = 8 << 20;

/// Per node, besides its fabric: the engine's and the traffic's lists of healthy nodes and
/// its next injection (24 bytes), the statistics' bytes made and handed (16), the
/// plan's wiring while the fabric is built, and the allocator's slack, as K(4,9) measured
/// (`kautzgen bench`'s memory column).
const SHARED_PER_NODE: u64 = 192;

/// Per message made: its latency, network latency and hops (8 bytes each), in vectors
/// that may have doubled their capacity.
const PER_MESSAGE: u64 = 48;

/// Messages a node is expected to hold at most at once, in its queue and its router: a
/// run below saturation holds about rate times latency per node, far less.
pub const HELD_PER_NODE: u64 = 4;

/// The most a run may take, in bytes: no limit until [`set_limit`].
static LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);

/// Runs whose estimate is above `bytes` are refused from now on.
pub fn set_limit(bytes: u64) {
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// The most a run may take, in bytes.
pub fn limit() -> u64 {
    LIMIT.load(Ordering::Relaxed)
}

/// What a run is expected to take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    pub bytes: u64,
    pub nodes: u64,
    /// Messages the traffic is expected to make (the rate times the nodes and the cycles
    /// they make messages in).
    pub messages: u64,
}

impl Estimate {
    /// The memory of a run on `nodes` nodes whose fabric keeps `fabric_bytes` a node,
    /// with `address_bytes`-byte addresses, whose traffic makes `messages` messages.
    pub fn of(nodes: u64, fabric_bytes: u64, address_bytes: usize, messages: u64) -> Estimate {
        let held = messages.min(nodes * HELD_PER_NODE);
        Estimate {
            bytes: PROGRAM
                + nodes * (fabric_bytes + SHARED_PER_NODE)
                + messages * PER_MESSAGE
                + held * held_message_bytes(address_bytes),
            nodes,
            messages,
        }
    }
}

/// Bytes a message takes while it is held: itself and one attempt with its route's nodes
/// (up to twice the address's length, four bytes each).
fn held_message_bytes(address_bytes: usize) -> u64 {
    use std::mem::size_of;
    size_of::<Message>() as u64
        + heap_block(size_of::<Attempt>())
        + heap_block(2 * address_bytes * size_of::<u32>())
}

/// Bytes the allocator takes for a heap block of `bytes` bytes: its 8-byte header, rounded
/// up to 16, at least 32 (glibc's malloc).
pub(super) fn heap_block(bytes: usize) -> u64 {
    ((bytes + 8).div_ceil(16) * 16).max(32) as u64
}
