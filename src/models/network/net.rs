//! The engine of every network run (docs/network.md): it makes the messages of the run's
//! traffic and those asked for one by one, steps the fabric that carries them cycle by
//! cycle, and keeps the statistics of every message that ends. The fabric is the
//! network-switch paper's source-routed switches and routers ([`super::source_routed`]),
//! or switches that route with a k-ary n-cube routing function ([`super::switch_routed`]);
//! both report through the same [`Finished`] records, trace and [`Summary`].
//!
//! In: [`NetParams`]. Out: every message's [`Finished`] record, one at a time as messages
//! end, and the run's [`Summary`].

use super::distances::capacity;
use super::engine::{Desk, Fabric, Step};
pub use super::faults::{FaultSpec, Faults};
use super::memory::{self, Estimate};
use super::message::{Finished, Message};
use super::params::check;
pub use super::params::{Measure, NetError, NetParams, Routing};
use super::plan::{MAX_NODES, Plan};
use super::source_routed::SourceRouted;
use super::stats::{LinkCount, LinkSummary, LinkUse, MeasurementSummary, Stats, Summary};
use super::switch_routed::SwitchRouted;
use super::traffic::TrafficGen;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

/// How often [`Net::run_observed`] reports the cycle it has reached.
pub const PROGRESS_CYCLES: u64 = 1024;
/// Cycles without any message event after which a run is declared stuck (a model bug).
const STALL_LIMIT: u64 = 1_000_000;

/// A message asked for by [`Net::schedule`]: (cycle, order asked, src, dst, bytes).
type Scheduled = (u64, u64, u32, u32, u8);

/// The network of one run.
#[derive(Debug)]
pub struct Net {
    plan: Arc<dyn Plan>,
    fabric: Box<dyn Fabric>,
    cycles: u64,
    healthy: Vec<u32>,
    traffic: TrafficGen,
    /// Messages asked for one by one ([`Net::schedule`]).
    scheduled: BinaryHeap<Reverse<Scheduled>>,
    faults: Faults,
    max_bytes: u8,
    stats: Stats,
    /// Messages made and not yet ended.
    in_system: u64,
    measure: Option<Measure>,
    /// The routers have receive FIFOs: bytes waiting in them for their processors do not
    /// keep a run going once every message has ended.
    fifos: bool,
    /// Whether the summary lists every link's use ([`Net::count_every_link`]).
    every_link: bool,
    /// The network's capacity, computed before the fabric is built so that the distances
    /// it is computed from are not held beside it.
    capacity: Option<f64>,
}

impl Net {
    /// The network of `params`, every node reset, nothing injected yet.
    pub fn new(params: &NetParams) -> Result<Self, NetError> {
        check(params)?;
        let plan = Arc::clone(&params.plan);
        let nodes = plan.node_count();
        if nodes as u64 > MAX_NODES {
            return Err(NetError::TooLarge {
                network: plan.name(),
                nodes,
            });
        }
        let estimate = Net::estimate(params);
        if estimate.bytes > memory::limit() {
            return Err(NetError::Memory {
                network: plan.name(),
                estimate,
                limit: memory::limit(),
            });
        }
        let faults = params.faults.resolve(plan.as_ref(), params.seed)?;
        let capacity = capacity(plan.as_ref());
        let fabric: Box<dyn Fabric> = match params.routing {
            Routing::Source => Box::new(SourceRouted::new(params, &faults)?),
            Routing::Switch {
                algorithm,
                reading,
                buffer_flits,
            } => Box::new(SwitchRouted::new(
                plan.as_ref(),
                &faults,
                params.window(),
                (algorithm, reading),
                buffer_flits,
            )?),
        };
        let healthy: Vec<u32> = (0..nodes as u32)
            .filter(|v| faults.nodes.binary_search(v).is_err())
            .collect();
        let out = |v| plan.out_neighbours(v);
        let traffic = TrafficGen::new(
            params.traffic.clone(),
            nodes,
            healthy.clone(),
            out,
            params.seed,
        );
        Ok(Net {
            plan,
            fabric,
            cycles: params.cycles,
            healthy,
            traffic,
            scheduled: BinaryHeap::new(),
            faults,
            max_bytes: params.max_bytes,
            stats: Stats {
                window: params.window(),
                measured_only: params.measure.is_some(),
                per_node: vec![(0, 0); nodes],
                ..Stats::default()
            },
            measure: params.measure,
            fifos: params.receive.is_some(),
            in_system: 0,
            every_link: false,
            capacity,
        })
    }

    /// The memory the run of `params` is expected to take ([`memory`]).
    pub fn estimate(params: &NetParams) -> Estimate {
        let plan = params.plan.as_ref();
        let (nodes, ports) = (plan.node_count() as u64, plan.ports() + 1);
        let fabric = match params.routing {
            Routing::Source => SourceRouted::bytes_per_node(ports, plan.address_bytes()),
            Routing::Switch { .. } => SwitchRouted::bytes_per_node(ports),
        };
        let made = params.traffic.rate * nodes as f64 * params.window().1 as f64;
        Estimate::of(nodes, fabric, plan.address_bytes(), made.ceil() as u64)
    }

    /// The run's summary will list every link's use (`per_link`), not only their summary.
    pub fn count_every_link(&mut self) {
        self.every_link = true;
    }

    /// The topology the network is built on.
    pub fn plan(&self) -> &Arc<dyn Plan> {
        &self.plan
    }

    /// The healthy nodes, ascending.
    pub fn healthy(&self) -> &[u32] {
        &self.healthy
    }

    /// The faulty nodes and links.
    pub fn faults(&self) -> &Faults {
        &self.faults
    }

    /// The healthy nodes the traffic pattern has make no message (sent to themselves, or
    /// without a healthy neighbour).
    pub fn idle_nodes(&self) -> usize {
        self.traffic.idle_nodes()
    }

    /// Adds a message of `bytes` bytes from node `src` to node `dst`, made in cycle `cycle`,
    /// to the run's traffic (made before the traffic's own messages of that cycle).
    pub fn schedule(&mut self, cycle: u64, src: u32, dst: u32, bytes: u8) -> Result<(), NetError> {
        let n = self.plan.node_count() as u32;
        let why = if src >= n || dst >= n {
            Some("no such node")
        } else if src == dst {
            Some("source and destination are the same node")
        } else if self.healthy.binary_search(&src).is_err()
            || self.healthy.binary_search(&dst).is_err()
        {
            Some("a faulty node sends and receives nothing")
        } else if bytes == 0 || bytes > self.max_bytes {
            Some("its byte count is not 1 to max bytes")
        } else {
            None
        };
        if let Some(why) = why {
            let name = |v: u32| {
                if v < n {
                    self.plan.node_name(v as usize)
                } else {
                    format!("#{v}")
                }
            };
            return Err(NetError::Message {
                src: name(src),
                dst: name(dst),
                why,
            });
        }
        let order = self.scheduled.len() as u64;
        self.scheduled
            .push(Reverse((cycle, order, src, dst, bytes)));
        Ok(())
    }

    /// Injects for the configured cycles, drains until nothing is in flight, and hands every
    /// message to `on_finish` as it ends. Returns the run's figures.
    pub fn run(self, on_finish: impl FnMut(&Finished)) -> Summary {
        self.run_observed(on_finish, |_| {})
    }

    /// [`Net::run`], telling `on_cycles` the cycle reached every
    /// [`PROGRESS_CYCLES`] cycles, for a progress bar. A run that deadlocks (possible only
    /// with switches that route) stops in the cycle after the one nothing could move in.
    pub fn run_observed(
        mut self,
        mut on_finish: impl FnMut(&Finished),
        mut on_cycles: impl FnMut(u64),
    ) -> Summary {
        let mut last_event = 0u64;
        let mut t = 0u64;
        loop {
            if t.is_multiple_of(PROGRESS_CYCLES) {
                on_cycles(t);
            }
            if self.inject_due(t) {
                last_event = t;
            }
            let mut desk = Desk::new(
                &mut self.stats,
                &mut self.traffic,
                &mut self.in_system,
                &mut on_finish,
            );
            let step = self.fabric.step(t, &mut desk);
            match step {
                Step::Idle
                    if self.measure.is_none() && t >= self.cycles && self.scheduled.is_empty() =>
                {
                    debug_assert_eq!(self.in_system, 0, "an idle fabric holds no message");
                    break;
                }
                // Only bytes waiting in receive FIFOs for their processors.
                Step::Busy
                    if self.fifos
                        && self.measure.is_none()
                        && t >= self.cycles
                        && self.scheduled.is_empty()
                        && self.in_system == 0 =>
                {
                    break;
                }
                // Nothing in flight: waiting for the next message is not a stall.
                Step::Idle | Step::Event => last_event = t,
                Step::Busy => {}
                Step::Deadlock => {
                    t += 1;
                    break;
                }
            }
            assert!(
                t - last_event < STALL_LIMIT,
                "network model made no progress for {STALL_LIMIT} cycles before cycle {t}"
            );
            t += 1;
            if self.measured_end(t) {
                break;
            }
        }
        let mut summary = self.stats.summary(t, &self.healthy);
        if let Some(m) = self.measure {
            let end = self.stats.window.1;
            let unstable = self.stats.measured_in_system > 0;
            summary.measurement = Some(MeasurementSummary {
                warmup: m.warmup,
                window: self.cycles,
                drained: t.saturating_sub(end),
                unfinished: self.stats.measured_in_system,
                unstable,
            });
            // The rate of what the window's traffic delivered, not of the counted
            // messages over every cycle run.
            if let Some(load) = &summary.load {
                summary.throughput = load.accepted;
            }
            if unstable {
                // Beyond saturation: latencies of the messages that happened to end are
                // no average of the window's.
                summary.latency = None;
                summary.mean_latency = None;
                summary.p99_latency = None;
            }
        }
        if let Some(load) = &mut summary.load {
            load.capacity = self.capacity;
        }
        self.fabric.report(&mut summary);
        self.report_links(&mut summary);
        summary
    }

    /// The links' summary of `summary`, and with [`Net::count_every_link`] every link's use.
    fn report_links(&self, summary: &mut Summary) {
        let links = self.fabric.links();
        let plan = self.plan.as_ref();
        let window = self.stats.window.1 - self.stats.window.0;
        let name = |l: &LinkCount| plan.link_name(l.from as usize, l.port);
        summary.links = LinkSummary::of(links.iter().map(|l| (name(l), l.words, l.nacks)), window);
        if self.every_link {
            summary.per_link = links
                .iter()
                .map(|l| LinkUse {
                    link: name(l),
                    to: plan.node_name(l.to as usize),
                    words: l.words,
                    utilisation: l.words as f64 / window.max(1) as f64,
                    nacks: l.nacks,
                })
                .collect();
        }
    }

    /// Under a measurement, whether the run stops before cycle `t`: the window is over and
    /// its messages have ended, or the drain limit has passed.
    fn measured_end(&self, t: u64) -> bool {
        let Some(m) = self.measure else {
            return false;
        };
        let end = self.stats.window.1;
        t >= end && (self.stats.measured_in_system == 0 || t >= end + m.drain_limit)
    }

    /// Injects the scheduled messages due by cycle `t`, then the generated traffic's;
    /// whether it injected any.
    fn inject_due(&mut self, t: u64) -> bool {
        let mut injected = false;
        while let Some(&Reverse((cycle, _, src, dst, bytes))) = self.scheduled.peek() {
            if cycle > t {
                break;
            }
            self.scheduled.pop();
            self.inject(t, src, dst, bytes);
            injected = true;
        }
        // A measured run's sources go on making messages until it stops.
        let end = match self.measure {
            None => (t + 1).min(self.cycles),
            Some(_) => t + 1,
        };
        while let Some((_, v)) = self.traffic.next_injection(end) {
            let dst = self.traffic.destination(v);
            let bytes = self.traffic.length();
            self.inject(t, v, dst, bytes);
            injected = true;
        }
        injected
    }

    /// A new message from `src` in cycle `t`.
    fn inject(&mut self, t: u64, src: u32, dst: u32, bytes: u8) {
        let message = Message {
            id: self.stats.injected,
            src,
            dst,
            inject: t,
            bytes,
            round: 0,
            ready: t,
            handed: 0,
            attempts: Vec::new(),
        };
        self.stats.made(t, src, bytes);
        self.in_system += 1;
        self.fabric.inject(message);
    }
}
