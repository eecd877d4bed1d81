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
//! inputs stays quiet), so light traffic on a large graph costs little.

use super::acked::Bounds;
use super::engine::{Desk, Fabric, Step};
use super::faults::{Faults, fault_masks};
use super::link::{IDLE, pack, unpack};
use super::message::{Finished, Message, Outcome, payload_byte};
use super::params::{NetError, NetParams};
use super::plan::{MAX_NODES, Plan};
use super::router::{Event, Router, RouterParams};
use super::stats::{FlowSummary, LinkCount, Summary};
use super::switch::{Switch, Word};
use crate::choice::Choice;
use crate::fabric::switch::{Flow, MAX_BUFFER_WORDS, SwitchConfig};
use crate::fabric::wiring::Wiring;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;

/// Longest delay before a failed message's next round, in cycles.
pub const RETRY_DELAY: u64 = 64;

/// Adds node `v` to a bit set of nodes.
fn mark(bits: &mut [u64], v: usize) {
    bits[v / 64] |= 1 << (v % 64);
}

/// What a step keeps from cycle to cycle, reused so that a cycle allocates nothing.
#[derive(Debug, Default)]
struct Stepping {
    /// The nodes to step in this cycle and the next, as bit sets: stepping in index order
    /// keeps the per-node arrays' accesses ascending.
    active: Vec<u64>,
    next_active: Vec<u64>,
    /// The nodes of `active`, in index order.
    order: Vec<u32>,
    /// Per stepped switch, in `order`: its inputs.
    inputs: Vec<Word>,
    /// Per stepped switch: its output links' NACKs, bit p for output p.
    nacks: Vec<u16>,
    events: Vec<Event>,
}

impl Stepping {
    fn new(nodes: usize) -> Self {
        Stepping {
            active: vec![0; nodes.div_ceil(64)],
            next_active: vec![0; nodes.div_ceil(64)],
            order: Vec::new(),
            inputs: Vec::new(),
            nacks: Vec::new(),
            events: Vec::new(),
        }
    }

    /// Lists the nodes of `active` in `order`.
    fn list_active(&mut self) {
        self.order.clear();
        for (i, &bits) in self.active.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                self.order.push((i * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
    }
}

/// A message waiting in its processor's queue, oldest ready first.
#[derive(Debug)]
struct Queued(Message);

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        (other.0.ready, other.0.id).cmp(&(self.0.ready, self.0.id))
    }
}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Queued {}

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

/// Both ends of a node's port p >= 1.
#[derive(Debug, Clone, Copy)]
struct Wire {
    /// The link into input p, by link index (sending node * ports + its output).
    from: u32,
    /// Where output p leads: the receiving node times 16 plus its input port there
    /// (nodes are fewer than 2^21 and ports at most 16, so it fits).
    to: u32,
}

const _: () = assert!((MAX_NODES + 1) << 4 <= u32::MAX as u64);

impl Wire {
    /// The node output p leads to.
    fn to_node(self) -> usize {
        (self.to >> 4) as usize
    }

    /// Its input port there.
    fn to_port(self) -> u32 {
        self.to & 0xf
    }
}

/// Every node's [`Wire`]s from the [`Wiring`] (port 0's unused). A port without a link is
/// wired to a spare link that stays idle (index nodes * ports) and a spare node that never
/// sends a NACK (index nodes): the switch's fault mask keeps worms out of it.
fn wires(wiring: &Wiring) -> Vec<Wire> {
    let (nodes, ports) = (wiring.nodes(), wiring.ports() + 1);
    let none = Wire {
        from: (nodes * ports) as u32,
        to: (nodes as u32) << 4,
    };
    let mut wires = vec![none; nodes * ports];
    for v in 0..nodes {
        for p in 1..ports {
            let wire = &mut wires[v * ports + p];
            if let Some(from) = wiring.input(v, p) {
                wire.from = (from.node * ports + from.port) as u32;
            }
            if let Some(to) = wiring.output(v, p) {
                wire.to = (to.node as u32) << 4 | to.port as u32;
            }
        }
    }
    wires
}

/// A node's flags and counts that its step needs in every cycle, together so that they
/// cost one cache line between them rather than one each. They are read for every node
/// stepped, the switch only for those whose switch is busy or has input, so they are kept
/// apart from it: on K(4,8) a node array with the switch inside ran 18% slower.
#[derive(Debug, Clone, Copy)]
struct NodeState {
    /// Messages in the processor's queue.
    queued: u32,
    /// Bit p: output p leads to a faulty node or is a faulty link.
    fault_mask: u16,
    /// The switch was quiet after its last step.
    quiet: bool,
    /// The router was quiet after its last clock (then it need not be clocked while
    /// nothing arrives).
    router_quiet: bool,
}

/// The paper's switches and routers of one run.
#[derive(Debug)]
pub struct SourceRouted {
    plan: Arc<dyn Plan>,
    router: RouterParams,
    retry_rounds: u32,
    ports: usize,
    routers: Vec<Router>,
    /// Per node and port p >= 1: the link into input p and where output p leads (port 0
    /// unused), side by side because a step reads both.
    wires: Vec<Wire>,
    /// Every switch's output words, packed ([`super::link`]), by link index: the values of the
    /// current cycle, in one small array so that reading a neighbour's is cheap. One more,
    /// always idle, feeds the inputs without a link.
    links: Vec<u16>,
    /// Every switch's NACKs on its inputs, bit i for input i; one more, always 0, for the
    /// outputs without a link.
    nack_bits: Vec<u16>,
    switches: Vec<Switch<u8>>,
    /// What a node's own step reads and writes of it besides its switch and router.
    state: Vec<NodeState>,
    queues: Vec<BinaryHeap<Queued>>,
    step: Stepping,
    pairing: HashMap<(u32, u32), Pairing>,
    /// With buffered switches (vct, saf), under acknowledged delivery: the bounds it keeps,
    /// and what it did.
    bounds: Option<Bounds>,
    flow: Option<FlowSummary>,
    /// Per link (sending node * ports + output), words carried and NACKs sent back over
    /// it in the measured window ([`NetParams::window`]).
    link_words: Vec<u32>,
    link_nacks: Vec<u32>,
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
        };
        let wiring = &plan.wiring()?;
        let ports = wiring.ports() + 1;
        let routers = (0..nodes)
            .map(|v| Router::new(&router, plan.address(v)))
            .collect();
        Ok(SourceRouted {
            router,
            retry_rounds: params.retry_rounds,
            ports,
            routers,
            wires: wires(wiring),
            links: vec![IDLE; nodes * ports + 1],
            nack_bits: vec![0; nodes + 1],
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
            step: Stepping::new(nodes),
            pairing: HashMap::new(),
            flow: bounds.map(|b| FlowSummary {
                buffer_hold_bound: b.buffer_hold,
                message_bound: b.message,
                ..FlowSummary::default()
            }),
            bounds,
            link_words: vec![0; nodes * ports],
            link_nacks: vec![0; nodes * ports + 1],
            window: params.window(),
            plan,
        })
    }
}

impl Fabric for SourceRouted {
    fn inject(&mut self, message: Message) {
        let src = message.src as usize;
        self.queues[src].push(Queued(message));
        self.state[src].queued += 1;
        mark(&mut self.step.active, src);
    }

    fn step(&mut self, t: u64, desk: &mut Desk) -> Step {
        let mut step = std::mem::take(&mut self.step);
        step.list_active();
        if step.order.is_empty() {
            self.step = step;
            return Step::Idle;
        }
        for &v in &step.order {
            self.hand_over(t, v as usize);
        }
        self.read_switch_inputs(&mut step);
        step.active.fill(0);
        let event = self.step_nodes(t, &mut step, desk);
        std::mem::swap(&mut step.active, &mut step.next_active);
        self.step = step;
        if event { Step::Event } else { Step::Busy }
    }

    fn report(&self, summary: &mut Summary) {
        summary.flow = self.flow.clone().map(|mut flow| {
            for counts in self.routers.iter().filter_map(Router::ack_counts) {
                flow.acks_sent += counts.acks_sent;
                flow.acks_dropped += counts.acks_dropped;
                flow.duplicates += counts.duplicates;
                flow.timeouts += counts.timeouts;
            }
            flow
        });
    }

    fn links(&self) -> Vec<LinkCount> {
        let (ports, nodes) = (self.ports, self.routers.len());
        (0..nodes)
            .flat_map(|v| (1..ports).map(move |p| (v, p)))
            .filter_map(|(v, p)| {
                let c = v * ports + p;
                let to = self.wires[c].to_node();
                (to < nodes).then(|| LinkCount {
                    from: v as u32,
                    port: p,
                    to: to as u32,
                    words: u64::from(self.link_words[c]),
                    nacks: u64::from(self.link_nacks[c]),
                })
            })
            .collect()
    }
}

impl SourceRouted {
    /// Every stepped switch's inputs and its output links' NACKs, read before any
    /// register changes.
    fn read_switch_inputs(&self, step: &mut Stepping) {
        let ports = self.ports;
        step.inputs.resize(step.order.len() * ports, Word::IDLE);
        step.nacks.clear();
        for (j, &v) in step.order.iter().enumerate() {
            let v = v as usize;
            let inputs = &mut step.inputs[j * ports..][..ports];
            inputs[0] = if self.state[v].router_quiet {
                Word::IDLE
            } else {
                self.routers[v].word()
            };
            let mut nack = 0u16;
            let wires = &self.wires[v * ports..][..ports];
            for (i, wire) in wires.iter().enumerate().skip(1) {
                inputs[i] = unpack(self.links[wire.from as usize]);
                nack |= (self.nack_bits[wire.to_node()] >> wire.to_port() & 1) << i;
            }
            step.nacks.push(nack);
        }
    }

    /// Clocks the router and steps the switch of every node in `step.order`, marking in
    /// `step.next_active` the nodes to step in the next cycle; whether any router had an
    /// event.
    fn step_nodes(&mut self, t: u64, step: &mut Stepping, desk: &mut Desk) -> bool {
        let ports = self.ports;
        let mut any_event = false;
        for (j, &v) in step.order.iter().enumerate() {
            let vi = v as usize;
            any_event |= self.clock_router(t, v, &mut step.events, desk);
            let range = j * ports..(j + 1) * ports;
            // A quiet switch with idle inputs stays as it is: its step can be skipped.
            if !self.state[vi].quiet || step.inputs[range.clone()].iter().any(|w| w.valid) {
                let counting = (self.window.0..self.window.1).contains(&t);
                self.step_switch(
                    vi,
                    &step.inputs[range],
                    (step.nacks[j], counting),
                    &mut step.next_active,
                );
            }
            let state = &self.state[vi];
            if !state.quiet || !state.router_quiet || state.queued > 0 {
                mark(&mut step.next_active, vi);
            }
        }
        any_event
    }

    /// Clocks node `v`'s router unless it is quiet and nothing arrives, handling its
    /// events; whether it had any.
    fn clock_router(&mut self, t: u64, v: u32, events: &mut Vec<Event>, desk: &mut Desk) -> bool {
        let vi = v as usize;
        // The switch's port 0 as last published: the switch's own state stays untouched
        // unless it must step.
        let nack = self.nack_bits[vi] & 1 == 1;
        let arriving = unpack(self.links[vi * self.ports]);
        if self.state[vi].router_quiet && !arriving.valid {
            return false;
        }
        let router = &mut self.routers[vi];
        router.clock(&self.router, t, nack, arriving, events);
        self.state[vi].router_quiet = router.is_quiet();
        let mut any = false;
        for event in events.drain(..) {
            self.handle(t, v, event, desk);
            any = true;
        }
        any
    }

    /// Steps node `v`'s switch with its `inputs` and output links' `nacks`, publishing
    /// its outputs and marking in `next_active` the neighbours it sends to; while
    /// `counting` (the cycle is in the window), the words its links carry and the NACKs it
    /// sends back are counted.
    fn step_switch(
        &mut self,
        v: usize,
        inputs: &[Word],
        (nacks, counting): (u16, bool),
        next_active: &mut [u64],
    ) {
        let ports = self.ports;
        let state = &mut self.state[v];
        let switch = &mut self.switches[v];
        switch.step_masked(inputs, nacks, u64::from(state.fault_mask));
        let mut nack_bits = 0u16;
        for p in 0..ports {
            let w = switch.out_word(p);
            self.links[v * ports + p] = pack(w);
            let nack = switch.in_nack(p);
            nack_bits |= u16::from(nack) << p;
            if w.valid && p > 0 {
                mark(next_active, self.wires[v * ports + p].to_node());
                if counting {
                    self.link_words[v * ports + p] += 1;
                }
            }
            if nack && p > 0 && counting {
                self.link_nacks[self.wires[v * ports + p].from as usize] += 1;
            }
        }
        self.nack_bits[v] = nack_bits;
        state.quiet = switch.is_quiet();
        if let Some(flow) = &mut self.flow {
            flow.longest_buffer_hold = flow.longest_buffer_hold.max(switch.longest_buffer_hold());
        }
    }

    /// Node `v`'s processor hands its oldest ready message to the router, if it is idle.
    fn hand_over(&mut self, t: u64, v: usize) {
        if self.state[v].queued == 0
            || !self.state[v].router_quiet && !self.routers[v].is_idle()
            || self.queues[v].peek().is_none_or(|q| q.0.ready > t)
        {
            return;
        }
        let Queued(message) = self.queues[v].pop().expect("peeked");
        self.state[v].queued -= 1;
        let routes = self.plan.routes(message.src as usize, message.dst as usize);
        let dst_address = self
            .bounds
            .is_some()
            .then(|| self.plan.address(message.dst as usize));
        self.routers[v].accept(&self.router, t, message, routes, dst_address);
        self.state[v].router_quiet = false;
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
                    self.routers[v as usize].queue_ack(to as u32, routes, seq);
                    // It has an ACK to send: it is clocked until it has.
                    self.state[v as usize].router_quiet = false;
                }
                None => desk.stats.corrupted += 1,
            },
            Event::Failed(mut message) => {
                if message.round + 1 < self.retry_rounds {
                    message.round += 1;
                    message.ready = t + 1 + desk.retry_delay(RETRY_DELAY);
                    self.queues[v as usize].push(Queued(message));
                    self.state[v as usize].queued += 1;
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
        let held = self.routers[src].held_id();
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
