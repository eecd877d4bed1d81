//! The fabric of the network-switch paper (Smit et al. 1991; docs/network.md): at every
//! node a switch (the cycle model of [`super::switch`], the same whatever the topology), a
//! router ([`super::router`]) and its processor's queue, the links wired as the topology's
//! [`Plan`] says, faulty nodes and links masked at the switches that send into them. The
//! plan gives the routers their addresses and routes: K(d,k) its route generator's, every
//! other topology a route table's. A switch whose output is taken refuses the worm (or, under
//! `--flow vct` and `saf`, buffers it, and the routers acknowledge every message:
//! [`super::acked`]).
//!
//! Only the nodes where something happens in a cycle are stepped (a quiet switch with idle
//! inputs stays quiet), so light traffic on a large graph costs little; they are stepped on
//! every thread of the run (in `nodes.rs`), and what their routers report is handled here, in
//! node order.

mod nodes;

use super::acked::Bounds;
use super::engine::{Desk, Fabric, Step};
use super::faults::{Faults, fault_masks};
use super::link::IDLE;
use super::message::{Finished, Message, Outcome, payload_byte};
use super::params::{NetError, NetParams};
use super::plan::Plan;
use super::receive::ReceiveParams;
use super::router::{Event, Router, RouterParams};
use super::stats::{FlowSummary, LinkCount, ReceiveSummary, Summary};
use super::switch::Switch;
use crate::choice::Choice;
use crate::fabric::switch::{Flow, MAX_BUFFER_WORDS, SwitchConfig};
use nodes::{Cycle, Kept, NodeState, Nodes, Published, Queued, Stepping, Wire, wires};
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;

/// Longest delay before a failed message's next round, in cycles.
pub const RETRY_DELAY: u64 = 64;

/// A delivered message waits for its arrival, or an arrival for its message's verdict,
/// whichever comes second: per (source, destination) both come in the same order (under
/// acknowledged delivery too: a source holds one message until its outcome).
#[derive(Debug, Default)]
struct Pairing {
    verdicts: VecDeque<(Message, u64)>,
    arrivals: VecDeque<(u64, Vec<u8>)>,
}

/// Whether `bytes` are those of message `id` of `count` bytes, as the run of `seed` makes
/// them.
fn carries(bytes: &[u8], id: u64, count: u8, seed: u64) -> bool {
    bytes.len() == usize::from(count)
        && bytes
            .iter()
            .enumerate()
            .all(|(j, &b)| b == payload_byte(seed, id, j))
}

/// The paper's switches and routers of one run.
#[derive(Debug)]
pub struct SourceRouted {
    plan: Arc<dyn Plan>,
    router: RouterParams,
    retry_rounds: u32,
    ports: usize,
    /// Per node and port p >= 1: the link into input p and where output p leads (port 0
    /// unused), side by side because a step reads both.
    wires: Vec<Wire>,
    nodes: Nodes,
    step: Stepping,
    pairing: HashMap<(u32, u32), Pairing>,
    /// With buffered switches (vct, saf), under acknowledged delivery: the bounds it keeps,
    /// and what it did.
    bounds: Option<Bounds>,
    flow: Option<FlowSummary>,
    /// With receive FIFOs: what they did.
    receive: Option<ReceiveSummary>,
    /// The measured window ([`NetParams::window`]), in which links' use is counted.
    window: (u64, u64),
}

impl SourceRouted {
    /// The fabric of `params` with `faults`, every node reset.
    pub fn new(params: &NetParams, faults: &Faults) -> Result<Self, NetError> {
        let plan = Arc::clone(&params.plan);
        let nodes = plan.node_count();
        let bounds =
            (params.flow != Flow::Nack).then(|| Bounds::of(plan.as_ref(), params.max_bytes));
        let mut config = SwitchConfig::new(plan.ports() as u64, 8, params.arbiter)?;
        if let Some(bounds) = &bounds {
            // A buffer holds the longest worm's words after its head.
            if bounds.worm > MAX_BUFFER_WORDS + 1 {
                return Err(NetError::WormTooLong {
                    flow: params.flow.name(),
                    words: bounds.worm,
                });
            }
            config = config.with_flow(params.flow, bounds.worm - 1)?;
        }
        let router = RouterParams {
            address_bytes: plan.address_bytes(),
            route_cycles: plan.route_cycles(),
            seed: params.seed,
            ack_timeout: bounds.map(|b| b.attempt),
            receive: params.receive.map(|receive| ReceiveParams {
                receive,
                max_bytes: params.max_bytes,
                seed: params.seed,
            }),
        };
        let wiring = &plan.wiring()?;
        let ports = wiring.ports() + 1;
        let kept = Kept {
            routers: (0..nodes)
                .map(|v| Router::new(&router, plan.address(v)))
                .collect(),
            switches: vec![Switch::byte_wide(config); nodes],
            state: fault_masks(wiring, faults)
                .into_iter()
                .map(|fault_mask| NodeState {
                    queued: 0,
                    fault_mask,
                    quiet: true,
                    router_quiet: true,
                })
                .collect(),
            queues: (0..nodes).map(|_| BinaryHeap::new()).collect(),
        };
        let published = Published {
            links: vec![IDLE; nodes * ports + 1],
            nack_bits: vec![0; nodes + 1],
            words_out: vec![0; nodes * ports],
            nacks_in: vec![0; nodes * ports],
        };
        Ok(SourceRouted {
            router,
            retry_rounds: params.retry_rounds,
            ports,
            wires: wires(wiring),
            nodes: Nodes { kept, published },
            step: Stepping::new(nodes),
            pairing: HashMap::new(),
            flow: bounds.map(|b| FlowSummary {
                buffer_hold_bound: b.buffer_hold,
                message_bound: b.message,
                ..FlowSummary::default()
            }),
            receive: params.receive.map(|_| ReceiveSummary::default()),
            bounds,
            window: params.window(),
            plan,
        })
    }
}

impl SourceRouted {
    /// Bytes a node of a network of `ports` ports (port 0 included) and `address_bytes`-byte
    /// addresses takes ([`super::memory`]): its router with its address, the source address
    /// it receives, and room for a worm and a message's bytes once it has sent and received
    /// one; its switch, flags and queue; its wires, links and counters.
    pub fn bytes_per_node(ports: usize, address_bytes: usize) -> u64 {
        use super::memory::heap_block;
        use std::mem::size_of;
        let router = size_of::<Router>() as u64
            + 2 * heap_block(address_bytes)
            + heap_block(WORM_ALLOWANCE * size_of::<u16>())
            + heap_block(WORM_ALLOWANCE);
        let node =
            size_of::<Switch<u8>>() + size_of::<NodeState>() + size_of::<BinaryHeap<Queued>>();
        let per_port = size_of::<Wire>() + size_of::<u16>() + 2 * size_of::<u32>();
        router + (node + ports * per_port + size_of::<u16>()) as u64
    }
}

/// Words a router's worm, and bytes its receive buffer, are expected to hold once used: a
/// 16-byte message's worm on a diameter-10 network has about 40 words.
const WORM_ALLOWANCE: usize = 48;

impl Fabric for SourceRouted {
    fn inject(&mut self, message: Message) {
        let src = message.src as usize;
        self.nodes.kept.queues[src].push(Queued(message));
        self.nodes.kept.state[src].queued += 1;
        self.step.activate(src);
    }

    fn step(&mut self, t: u64, desk: &mut Desk) -> Step {
        let mut step = std::mem::take(&mut self.step);
        if !step.list_active() {
            self.step = step;
            return Step::Idle;
        }
        let cycle = Cycle {
            t,
            plan: self.plan.as_ref(),
            router: &self.router,
            wires: &self.wires,
            ports: self.ports,
            acked: self.bounds.is_some(),
            counting: (self.window.0..self.window.1).contains(&t),
        };
        let event = self.nodes.step(&cycle, &mut step);
        step.mark_listed();
        self.handle_events(t, &mut step, desk);
        step.advance();
        self.step = step;
        if event { Step::Event } else { Step::Busy }
    }

    fn report(&self, summary: &mut Summary) {
        summary.flow = self.flow.clone().map(|mut flow| {
            for counts in self
                .nodes
                .kept
                .routers
                .iter()
                .filter_map(Router::ack_counts)
            {
                flow.acks_sent += counts.acks_sent;
                flow.acks_dropped += counts.acks_dropped;
                flow.duplicates += counts.duplicates;
                flow.timeouts += counts.timeouts;
            }
            flow
        });
        summary.receive = self.receive.clone();
    }

    fn links(&self) -> Vec<LinkCount> {
        let (ports, nodes) = (self.ports, self.nodes.kept.routers.len());
        let published = &self.nodes.published;
        (0..nodes)
            .flat_map(|v| (1..ports).map(move |p| (v, p)))
            .filter_map(|(v, p)| {
                let c = v * ports + p;
                let (to, at) = (self.wires[c].to_node(), self.wires[c].to_port());
                (to < nodes).then(|| LinkCount {
                    from: v as u32,
                    port: p,
                    to: to as u32,
                    words: u64::from(published.words_out[c]),
                    nacks: u64::from(published.nacks_in[to * ports + at]),
                })
            })
            .collect()
    }
}

impl SourceRouted {
    /// The events of cycle `t`'s routers, in node order, on this thread: what they change
    /// outside their own node (the pairing of verdicts and arrivals, the statistics, the
    /// run's random stream) is changed in the same order however the cycle was split.
    fn handle_events(&mut self, t: u64, step: &mut Stepping, desk: &mut Desk) {
        let mut ranges = std::mem::take(&mut step.ranges);
        for range in &mut ranges {
            if let Some(flow) = &mut self.flow {
                flow.longest_buffer_hold = flow.longest_buffer_hold.max(range.longest_hold);
            }
            if let Some(receive) = &mut self.receive {
                receive.refusals += std::mem::take(&mut range.rx_refused);
                receive.bytes_taken += std::mem::take(&mut range.rx_taken);
            }
            for (v, event) in range.events.drain(..) {
                self.handle(t, v, event, desk);
                step.keep_if_busy(v as usize, &self.nodes.kept.state[v as usize]);
            }
        }
        step.ranges = ranges;
    }

    /// What node `v`'s router reported at the end of cycle `t`.
    fn handle(&mut self, t: u64, v: u32, event: Event, desk: &mut Desk) {
        match event {
            Event::Failed(message) if self.bounds.is_some() => self.fail_acked(t, message, desk),
            Event::Delivered(message) if self.bounds.is_some() => {
                self.deliver_acked(t, message, desk)
            }
            Event::Arrived { src, bytes } if self.bounds.is_some() => {
                self.arrive_acked(t, v, &src, bytes, desk)
            }
            Event::AckDue { src, seq } => match self.plan.node_at(&src) {
                Some(to) => {
                    let routes = self.plan.routes(v as usize, to);
                    let kept = &mut self.nodes.kept;
                    kept.routers[v as usize].queue_ack(to as u32, routes, seq);
                    // It has an ACK to send: it is clocked until it has.
                    kept.state[v as usize].router_quiet = false;
                }
                None => desk.stats.corrupted += 1,
            },
            Event::Failed(mut message) => {
                if message.round + 1 < self.retry_rounds {
                    message.round += 1;
                    message.ready = t + 1 + desk.retry_delay(RETRY_DELAY);
                    self.nodes.kept.queues[v as usize].push(Queued(message));
                    self.nodes.kept.state[v as usize].queued += 1;
                } else {
                    self.fail(message, t + 1, None, desk);
                }
            }
            Event::Delivered(message) => {
                let key = (message.src, message.dst);
                match self
                    .pairing
                    .get_mut(&key)
                    .and_then(|p| p.arrivals.pop_front())
                {
                    Some((arrive, bytes)) => {
                        self.prune(key);
                        self.arrive(message, t + 1, arrive, &bytes, desk);
                    }
                    None => self
                        .pairing
                        .entry(key)
                        .or_default()
                        .verdicts
                        .push_back((message, t + 1)),
                }
            }
            Event::Arrived { src, bytes } => {
                let Some(src) = self.plan.node_at(&src) else {
                    desk.stats.corrupted += 1;
                    return;
                };
                let key = (src as u32, v);
                match self
                    .pairing
                    .get_mut(&key)
                    .and_then(|p| p.verdicts.pop_front())
                {
                    Some((message, done)) => {
                        self.prune(key);
                        self.arrive(message, done, t + 1, &bytes, desk);
                    }
                    None => self
                        .pairing
                        .entry(key)
                        .or_default()
                        .arrivals
                        .push_back((t + 1, bytes)),
                }
            }
            Event::ReceiveError => desk.stats.receive_errors += 1,
            Event::Refused(_) => unreachable!("traffic runs between distinct nodes"),
        }
    }

    /// Under acknowledged delivery, a message that arrived at node `v` in cycle `t`: its
    /// source must still hold it (a copy that outlives its message breaks the bound the
    /// protocol rests on). It waits for its message's verdict, which comes after the ACK.
    fn arrive_acked(&mut self, t: u64, v: u32, src: &[u8], bytes: Vec<u8>, desk: &mut Desk) {
        let Some(src) = self.plan.node_at(src) else {
            desk.stats.corrupted += 1;
            return;
        };
        let held = self.nodes.kept.routers[src].held_id();
        let flow = self.flow.as_mut().expect("acknowledged delivery");
        if held.is_none_or(|id| !carries(&bytes, id, bytes.len() as u8, self.router.seed)) {
            flow.late_copies += 1;
            return;
        }
        self.pairing
            .entry((src as u32, v))
            .or_default()
            .arrivals
            .push_back((t + 1, bytes));
    }

    /// Under acknowledged delivery, a message whose ACK came in cycle `t`: its arrival
    /// came first (the ACK is sent at the data worm's EOD); one missing was lost.
    fn deliver_acked(&mut self, t: u64, message: Message, desk: &mut Desk) {
        let key = (message.src, message.dst);
        match self.take_arrival(key) {
            Some((arrive, bytes)) => self.arrive(message, t + 1, arrive, &bytes, desk),
            None => {
                self.flow.as_mut().expect("acknowledged delivery").lost += 1;
                self.fail(message, t + 1, None, desk);
            }
        }
    }

    /// Under acknowledged delivery, a message whose last route ended in cycle `t` without
    /// an ACK. It may have arrived all the same (every ACK of it lost): it is failed, as
    /// its source reports, and counted unacknowledged.
    fn fail_acked(&mut self, t: u64, message: Message, desk: &mut Desk) {
        let arrival = self.take_arrival((message.src, message.dst));
        if arrival.is_some() {
            self.flow
                .as_mut()
                .expect("acknowledged delivery")
                .unacknowledged += 1;
        }
        self.fail(message, t + 1, arrival.map(|(arrive, _)| arrive), desk);
    }

    /// `message` failed, its outcome reported in cycle `done` (it may have arrived all the
    /// same, in cycle `arrive`).
    fn fail(&mut self, message: Message, done: u64, arrive: Option<u64>, desk: &mut Desk) {
        self.finish(
            Finished {
                message,
                outcome: Outcome::Failed,
                done,
                arrive,
            },
            desk,
        );
    }

    /// The arrival waiting for pair `key`'s verdict, if any.
    fn take_arrival(&mut self, key: (u32, u32)) -> Option<(u64, Vec<u8>)> {
        let arrival = self.pairing.get_mut(&key)?.arrivals.pop_front();
        self.prune(key);
        arrival
    }

    /// Forgets a pair with nothing waiting, so the map holds only messages in flight.
    fn prune(&mut self, key: (u32, u32)) {
        if self
            .pairing
            .get(&key)
            .is_some_and(|p| p.verdicts.is_empty() && p.arrivals.is_empty())
        {
            self.pairing.remove(&key);
        }
    }

    /// A delivered message whose bytes arrived in cycle `arrive` as `bytes`.
    fn arrive(&mut self, message: Message, done: u64, arrive: u64, bytes: &[u8], desk: &mut Desk) {
        if !carries(bytes, message.id, message.bytes, self.router.seed) {
            desk.stats.corrupted += 1;
        }
        self.finish(
            Finished {
                message,
                outcome: Outcome::Delivered,
                done,
                arrive: Some(arrive),
            },
            desk,
        );
    }

    /// A message has ended: under acknowledged delivery its time is measured against the
    /// bound.
    fn finish(&mut self, finished: Finished, desk: &mut Desk) {
        if let Some(flow) = &mut self.flow {
            let took = finished.done - finished.message.handed;
            flow.longest_message = flow.longest_message.max(took);
        }
        desk.finish(finished);
    }
}
