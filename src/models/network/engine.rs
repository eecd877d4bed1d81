//! What the network engine ([`super::net::Net`]) asks of the fabric that carries a run's
//! messages, whatever its switches and routers: the paper's source-routed switches
//! ([`super::source_routed`]) or switches that route with a routing function
//! ([`super::switch_routed`]). The engine makes the messages, runs the cycles and keeps
//! the statistics; a fabric queues the messages at their sources, moves them, and hands
//! every message back through the [`Desk`] when it ends.

use super::message::{Finished, Message};
use super::stats::{LinkCount, Stats, Summary};
use super::traffic::TrafficGen;

/// The network of switches, routers and processor queues of one run.
pub trait Fabric: std::fmt::Debug + Send {
    /// `message`, just made, joins its source's queue.
    fn inject(&mut self, message: Message);

    /// Steps every node through cycle `t`.
    fn step(&mut self, t: u64, desk: &mut Desk) -> Step;

    /// Adds the figures only this fabric measures to `summary`, at the end of the run.
    fn report(&self, summary: &mut Summary);

    /// Every link of the network, in node then port order, with what it carried in the
    /// measured window.
    fn links(&self) -> Vec<LinkCount>;
}

/// What a cycle did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Nothing is queued or in flight: the fabric did nothing.
    Idle,
    /// Something moved, but no message reached an event (an attempt's end, an arrival).
    Busy,
    /// Some message reached an event.
    Event,
    /// Worms are in flight and none can move: the run stops.
    Deadlock,
}

/// The engine's side of a step: the statistics, the run's random draws, and where ended
/// messages go.
pub struct Desk<'a> {
    pub stats: &'a mut Stats,
    traffic: &'a mut TrafficGen,
    in_system: &'a mut u64,
    on_finish: &'a mut dyn FnMut(&Finished),
}

impl<'a> Desk<'a> {
    pub(super) fn new(
        stats: &'a mut Stats,
        traffic: &'a mut TrafficGen,
        in_system: &'a mut u64,
        on_finish: &'a mut dyn FnMut(&Finished),
    ) -> Self {
        Desk {
            stats,
            traffic,
            in_system,
            on_finish,
        }
    }

    /// A random delay of 1 to `max` cycles before a failed message's next round, from the
    /// run's traffic stream.
    pub fn retry_delay(&mut self, max: u64) -> u64 {
        self.traffic.retry_delay(max)
    }

    /// A message has ended: it is counted and reported.
    pub fn finish(&mut self, finished: Finished) {
        self.stats.finish(&finished);
        *self.in_system -= 1;
        (self.on_finish)(&finished);
    }
}
