//! The golden model of a whole network of switches (docs/network.md): at every node a
//! switch (the cycle model of [`super::switch`], the same whatever the topology), a router
//! ([`super::router`]) and the processor that feeds it the run's traffic
//! ([`super::traffic`]), the links wired as the topology's [`Plan`] says, faulty nodes and
//! links marked at the switches that send into them. The plan also gives the routers their
//! addresses and routes: K(d,k) its route generator's, every other topology a route table's.
//!
//! In: [`NetParams`]. Out: every message's [`Finished`] record, one at a time as messages
//! end, and the run's [`Summary`]. Only the nodes where something happens in a cycle are
//! stepped (a quiet switch with idle inputs stays quiet), so light traffic on a large
//! graph costs little.

use super::acked::Bounds;
use super::link::{IDLE, pack, unpack};
use super::message::{Finished, Message, Outcome, payload_byte};
use super::plan::{MAX_NODES, Plan, PlanError};
use super::router::{Event, Router, RouterParams};
use super::stats::{FlowSummary, Stats, Summary};
use super::switch::{Switch, Word};
use super::traffic::{Pattern, Traffic, TrafficGen};
use crate::choice::Choice;
use crate::fabric::switch::{Arbiter, Flow, MAX_BUFFER_WORDS, SwitchConfig, SwitchConfigError};
use crate::fabric::wiring::{Wiring, WiringError};
use crate::random::{SplitMix64, mix};
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;
use thiserror::Error;
/// How often [`Net::run_observed`] reports the cycle it has reached.
pub const PROGRESS_CYCLES: u64 = 1024;

/// Longest delay before a failed message's next round, in cycles.
pub const RETRY_DELAY: u64 = 64;
/// Cycles without any message event after which a run is declared stuck (a model bug).
const STALL_LIMIT: u64 = 1_000_000;

/// Why a network cannot be simulated as asked.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum NetError {
    #[error(transparent)]
    Switch(#[from] SwitchConfigError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Wiring(#[from] WiringError),
    #[error("{network} has {nodes} nodes; netsim holds at most {MAX_NODES} in memory")]
    TooLarge { network: String, nodes: usize },
    #[error("injection rate must be between 0 and 1, got {0}")]
    Rate(f64),
    #[error("hot-spot fraction must be between 0 and 1, got {0}")]
    HotFraction(f64),
    #[error("message bytes must be 1 to {max}, got {got}")]
    MessageBytes { got: String, max: u8 },
    #[error("max bytes must be 1 to 255, got {0}")]
    MaxBytes(u64),
    #[error("retry rounds must be at least 1, got 0")]
    RetryRounds,
    #[error(
        "--flow {0} takes one round of attempts: a message sent again in a later round could be handed out twice (docs/flow-control.md)"
    )]
    RetryRoundsWithBuffers(&'static str),
    #[error(
        "--flow {0} needs round-robin switches: a fixed arbiter can keep a buffered worm waiting for ever (docs/flow-control.md)"
    )]
    FixedWithBuffers(&'static str),
    #[error(
        "--flow {flow}: the longest worm has {words} words, more than a switch's buffer holds ({MAX_BUFFER_WORDS} after its head)"
    )]
    WormTooLong { flow: &'static str, words: u64 },
    #[error("faulty node {0} is given twice")]
    FaultyNodeTwice(String),
    #[error("faulty link {0} is given twice")]
    FaultyLinkTwice(String),
    #[error("faulty link {node}:{label}: node {node} has no out-link by {kind} {label}")]
    NoSuchLink {
        node: String,
        kind: &'static str,
        label: u64,
    },
    #[error("{faulty} faulty nodes of {nodes} leave fewer than two healthy nodes to send between")]
    TooManyFaults { faulty: u64, nodes: u64 },
    #[error("a message from {src} to {dst}: {why}")]
    Message {
        src: String,
        dst: String,
        why: &'static str,
    },
}

/// Faulty nodes and links, as node indices.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Faults {
    /// Faulty nodes, ascending.
    pub nodes: Vec<u32>,
    /// Faulty out-links: (node, output port).
    pub links: Vec<(u32, usize)>,
}

/// How faults are asked for: nodes and links named by the user (nodes by index, links by
/// node and the label the plan gives out-links, [`Plan::link_label`]), plus a number of
/// nodes drawn by the seed among the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FaultSpec {
    pub random_nodes: u64,
    pub nodes: Vec<usize>,
    pub links: Vec<(usize, u64)>,
}

impl FaultSpec {
    /// The faults of `plan`'s network, the random ones drawn from `seed`.
    pub fn resolve(&self, plan: &dyn Plan, seed: u64) -> Result<Faults, NetError> {
        let n = plan.node_count() as u64;
        let mut faulty = vec![false; n as usize];
        let mut nodes = Vec::new();
        for &v in &self.nodes {
            if std::mem::replace(&mut faulty[v], true) {
                return Err(NetError::FaultyNodeTwice(plan.node_name(v)));
            }
            nodes.push(v as u32);
        }
        let total = nodes.len() as u64 + self.random_nodes;
        if total + 2 > n {
            return Err(NetError::TooManyFaults {
                faulty: total,
                nodes: n,
            });
        }
        let mut rng = SplitMix64::new(mix(seed ^ 0xfa17));
        for _ in 0..self.random_nodes {
            let v = loop {
                let v = rng.below(n) as usize;
                if !faulty[v] {
                    break v;
                }
            };
            faulty[v] = true;
            nodes.push(v as u32);
        }
        nodes.sort_unstable();
        let mut links = Vec::new();
        for &(v, label) in &self.links {
            let name = plan.node_name(v);
            let port = plan
                .link_port(v, label)
                .ok_or_else(|| NetError::NoSuchLink {
                    node: name.clone(),
                    kind: plan.link_label(),
                    label,
                })?;
            if links.contains(&(v as u32, port)) {
                return Err(NetError::FaultyLinkTwice(format!("{name}:{label}")));
            }
            links.push((v as u32, port));
        }
        Ok(Faults { nodes, links })
    }
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct NetParams {
    /// The topology: wiring, addresses, routes.
    pub plan: Arc<dyn Plan>,
    pub arbiter: Arbiter,
    /// The switches' flow control; buffers hold the longest worm, and the routers then
    /// acknowledge what they receive ([`super::acked`]).
    pub flow: Flow,
    /// The router's message buffer, in bytes.
    pub max_bytes: u8,
    pub traffic: Traffic,
    /// Cycles during which processors make messages; the run then drains.
    pub cycles: u64,
    pub seed: u64,
    pub faults: FaultSpec,
    /// Rounds of attempts (one per route) a processor makes before it gives a message up.
    pub retry_rounds: u32,
}

impl NetParams {
    /// The plain run that benchmarks and sweeps make: uniform traffic of `bytes`-byte
    /// messages at `rate`, round-robin switches, the paper's router (one round of
    /// attempts), no faults.
    pub fn uniform(plan: Arc<dyn Plan>, rate: f64, bytes: u8, cycles: u64, seed: u64) -> Self {
        NetParams {
            plan,
            arbiter: Arbiter::RoundRobin,
            flow: Flow::Nack,
            max_bytes: bytes,
            traffic: Traffic {
                pattern: Pattern::Uniform,
                rate,
                bytes: bytes..=bytes,
                hot_fraction: 0.2,
            },
            cycles,
            seed,
            faults: FaultSpec::default(),
            retry_rounds: 1,
        }
    }
}

/// Checks what does not need the graph built.
fn check(params: &NetParams) -> Result<(), NetError> {
    let t = &params.traffic;
    if !(0.0..=1.0).contains(&t.rate) {
        return Err(NetError::Rate(t.rate));
    }
    if !(0.0..=1.0).contains(&t.hot_fraction) {
        return Err(NetError::HotFraction(t.hot_fraction));
    }
    if params.max_bytes == 0 {
        return Err(NetError::MaxBytes(0));
    }
    let (lo, hi) = (*t.bytes.start(), *t.bytes.end());
    if lo == 0 || lo > hi || hi > params.max_bytes {
        let got = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}..{hi}")
        };
        return Err(NetError::MessageBytes {
            got,
            max: params.max_bytes,
        });
    }
    if params.retry_rounds == 0 {
        return Err(NetError::RetryRounds);
    }
    if params.flow != Flow::Nack {
        if params.retry_rounds > 1 {
            return Err(NetError::RetryRoundsWithBuffers(params.flow.name()));
        }
        if params.arbiter == Arbiter::Fixed {
            return Err(NetError::FixedWithBuffers(params.flow.name()));
        }
    }
    Ok(())
}

/// Adds node `v` to a bit set of nodes.
fn mark(bits: &mut [u64], v: usize) {
    bits[v / 64] |= 1 << (v % 64);
}

/// What [`Net::run_observed`] keeps from cycle to cycle, reused so that a cycle
/// allocates nothing.
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

/// A message asked for by [`Net::schedule`]: (cycle, order asked, src, dst, bytes).
type Scheduled = (u64, u64, u32, u32, u8);

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

/// Bit p of node `v`'s fault mask: output p has no link, leads to a faulty node, or is a
/// faulty link.
fn fault_masks(wiring: &Wiring, faults: &Faults) -> Vec<u16> {
    let mut is_faulty = vec![false; wiring.nodes()];
    for &v in &faults.nodes {
        is_faulty[v as usize] = true;
    }
    let mut masks: Vec<u16> = (0..wiring.nodes())
        .map(|v| {
            (1..=wiring.ports())
                .filter(|&p| wiring.output(v, p).is_none_or(|to| is_faulty[to.node]))
                .fold(0, |mask, p| mask | 1 << p)
        })
        .collect();
    for &(v, p) in &faults.links {
        masks[v as usize] |= 1 << p;
    }
    masks
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

/// The network of one run.
#[derive(Debug)]
pub struct Net {
    plan: Arc<dyn Plan>,
    router: RouterParams,
    cycles: u64,
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
    healthy: Vec<u32>,
    queues: Vec<BinaryHeap<Queued>>,
    traffic: TrafficGen,
    /// Messages asked for one by one ([`Net::schedule`]).
    scheduled: BinaryHeap<Reverse<Scheduled>>,
    faults: Faults,
    max_bytes: u8,
    stats: Stats,
    pairing: HashMap<(u32, u32), Pairing>,
    in_system: u64,
    /// With buffered switches (vct, saf), under acknowledged delivery: the bounds it keeps.
    bounds: Option<Bounds>,
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
        let wiring = plan.wiring()?;
        let faults = params.faults.resolve(plan.as_ref(), params.seed)?;
        let ports = wiring.ports() + 1;
        let wires = wires(&wiring);
        let fault_masks = fault_masks(&wiring, &faults);
        let healthy: Vec<u32> = (0..nodes as u32)
            .filter(|v| faults.nodes.binary_search(v).is_err())
            .collect();
        let routers = (0..nodes)
            .map(|v| Router::new(&router, plan.address(v)))
            .collect();
        let traffic = TrafficGen::new(params.traffic.clone(), nodes, healthy.clone(), params.seed);
        Ok(Net {
            router,
            cycles: params.cycles,
            retry_rounds: params.retry_rounds,
            ports,
            routers,
            wires,
            links: vec![IDLE; nodes * ports + 1],
            nack_bits: vec![0; nodes + 1],
            switches: vec![Switch::byte_wide(config); nodes],
            state: fault_masks
                .into_iter()
                .map(|fault_mask| NodeState {
                    queued: 0,
                    fault_mask,
                    quiet: true,
                    router_quiet: true,
                })
                .collect(),
            healthy,
            queues: (0..nodes).map(|_| BinaryHeap::new()).collect(),
            traffic,
            scheduled: BinaryHeap::new(),
            faults,
            max_bytes: params.max_bytes,
            stats: Stats {
                flow: bounds.map(|b| FlowSummary {
                    buffer_hold_bound: b.buffer_hold,
                    message_bound: b.message,
                    ..FlowSummary::default()
                }),
                ..Stats::default()
            },
            pairing: HashMap::new(),
            in_system: 0,
            bounds,
            plan,
        })
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

    /// Adds a message of `bytes` bytes from node `src` to node `dst`, made in cycle `cycle`,
    /// to the run's traffic (made before the traffic's own messages of that cycle).
    pub fn schedule(&mut self, cycle: u64, src: u32, dst: u32, bytes: u8) -> Result<(), NetError> {
        let n = self.switches.len() as u32;
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
    /// [`PROGRESS_CYCLES`] cycles, for a progress bar.
    pub fn run_observed(
        mut self,
        mut on_finish: impl FnMut(&Finished),
        mut on_cycles: impl FnMut(u64),
    ) -> Summary {
        let mut step = Stepping::new(self.switches.len());
        let mut last_event = 0u64;
        let mut t = 0u64;
        loop {
            if t.is_multiple_of(PROGRESS_CYCLES) {
                on_cycles(t);
            }
            if self.inject_due(t, &mut step.active) {
                last_event = t;
            }
            step.list_active();
            if t >= self.cycles
                && self.in_system == 0
                && step.order.is_empty()
                && self.scheduled.is_empty()
            {
                break;
            }
            if step.order.is_empty() {
                // Nothing in flight: waiting for the next message is not a stall.
                last_event = t;
            }
            assert!(
                t - last_event < STALL_LIMIT,
                "network model made no progress for {STALL_LIMIT} cycles before cycle {t}"
            );
            for &v in &step.order {
                self.hand_over(t, v as usize);
            }
            self.read_switch_inputs(&mut step);
            step.active.fill(0);
            if self.step_nodes(t, &mut step, &mut on_finish) {
                last_event = t;
            }
            std::mem::swap(&mut step.active, &mut step.next_active);
            t += 1;
        }
        if let Some(flow) = &mut self.stats.flow {
            for counts in self.routers.iter().filter_map(Router::ack_counts) {
                flow.acks_sent += counts.acks_sent;
                flow.acks_dropped += counts.acks_dropped;
                flow.duplicates += counts.duplicates;
                flow.timeouts += counts.timeouts;
            }
        }
        self.stats.summary(t, self.healthy.len() as u64)
    }

    /// Injects the scheduled messages due by cycle `t`, then the generated traffic's,
    /// marking their sources in `active`; whether it injected any.
    fn inject_due(&mut self, t: u64, active: &mut [u64]) -> bool {
        let mut injected = false;
        while let Some(&Reverse((cycle, _, src, dst, bytes))) = self.scheduled.peek() {
            if cycle > t {
                break;
            }
            self.scheduled.pop();
            self.inject(t, src, dst, bytes);
            mark(active, src as usize);
            injected = true;
        }
        while let Some((_, v)) = self.traffic.next_injection((t + 1).min(self.cycles)) {
            let dst = self.traffic.destination(v);
            let bytes = self.traffic.length();
            self.inject(t, v, dst, bytes);
            mark(active, v as usize);
            injected = true;
        }
        injected
    }

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
    fn step_nodes(
        &mut self,
        t: u64,
        step: &mut Stepping,
        on_finish: &mut impl FnMut(&Finished),
    ) -> bool {
        let ports = self.ports;
        let mut any_event = false;
        for (j, &v) in step.order.iter().enumerate() {
            let vi = v as usize;
            any_event |= self.clock_router(t, v, &mut step.events, on_finish);
            let range = j * ports..(j + 1) * ports;
            // A quiet switch with idle inputs stays as it is: its step can be skipped.
            if !self.state[vi].quiet || step.inputs[range.clone()].iter().any(|w| w.valid) {
                self.step_switch(
                    vi,
                    &step.inputs[range],
                    step.nacks[j],
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
    fn clock_router(
        &mut self,
        t: u64,
        v: u32,
        events: &mut Vec<Event>,
        on_finish: &mut impl FnMut(&Finished),
    ) -> bool {
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
            self.handle(t, v, event, on_finish);
            any = true;
        }
        any
    }

    /// Steps node `v`'s switch with its `inputs` and output links' `nacks`, publishing
    /// its outputs and marking in `next_active` the neighbours it sends to.
    fn step_switch(&mut self, v: usize, inputs: &[Word], nacks: u16, next_active: &mut [u64]) {
        let ports = self.ports;
        let state = &mut self.state[v];
        let switch = &mut self.switches[v];
        switch.step_masked(inputs, nacks, u64::from(state.fault_mask));
        let mut nack_bits = 0u16;
        for p in 0..ports {
            let w = switch.out_word(p);
            self.links[v * ports + p] = pack(w);
            nack_bits |= u16::from(switch.in_nack(p)) << p;
            if w.valid && p > 0 {
                mark(next_active, self.wires[v * ports + p].to_node());
            }
        }
        self.nack_bits[v] = nack_bits;
        state.quiet = switch.is_quiet();
        if let Some(flow) = &mut self.stats.flow {
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
        self.stats.injected += 1;
        self.in_system += 1;
        self.queues[src as usize].push(Queued(message));
        self.state[src as usize].queued += 1;
    }

    /// What node `v`'s router reported at the end of cycle `t`.
    fn handle(&mut self, t: u64, v: u32, event: Event, on_finish: &mut impl FnMut(&Finished)) {
        match event {
            Event::Failed(message) if self.bounds.is_some() => {
                self.fail_acked(t, message, on_finish)
            }
            Event::Delivered(message) if self.bounds.is_some() => {
                self.deliver_acked(t, message, on_finish)
            }
            Event::Arrived { src, bytes } if self.bounds.is_some() => {
                self.arrive_acked(t, v, &src, bytes)
            }
            Event::AckDue { src, seq } => match self.plan.node_at(&src) {
                Some(to) => {
                    let routes = self.plan.routes(v as usize, to);
                    self.routers[v as usize].queue_ack(to as u32, routes, seq);
                    // It has an ACK to send: it is clocked until it has.
                    self.state[v as usize].router_quiet = false;
                }
                None => self.stats.corrupted += 1,
            },
            Event::Failed(mut message) => {
                if message.round + 1 < self.retry_rounds {
                    message.round += 1;
                    message.ready = t + 1 + self.traffic.retry_delay(RETRY_DELAY);
                    self.queues[v as usize].push(Queued(message));
                    self.state[v as usize].queued += 1;
                } else {
                    self.fail(message, t + 1, None, on_finish);
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
                        self.arrive(message, t + 1, arrive, &bytes, on_finish);
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
                    self.stats.corrupted += 1;
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
                        self.arrive(message, done, t + 1, &bytes, on_finish);
                    }
                    None => self
                        .pairing
                        .entry(key)
                        .or_default()
                        .arrivals
                        .push_back((t + 1, bytes)),
                }
            }
            Event::ReceiveError => self.stats.receive_errors += 1,
            Event::Refused(_) => unreachable!("traffic runs between distinct nodes"),
        }
    }

    /// Under acknowledged delivery, a message that arrived at node `v` in cycle `t`: its
    /// source must still hold it (a copy that outlives its message breaks the bound the
    /// protocol rests on). It waits for its message's verdict, which comes after the ACK.
    fn arrive_acked(&mut self, t: u64, v: u32, src: &[u8], bytes: Vec<u8>) {
        let Some(src) = self.plan.node_at(src) else {
            self.stats.corrupted += 1;
            return;
        };
        let held = self.routers[src].held_id();
        let flow = self.stats.flow.as_mut().expect("acknowledged delivery");
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
    fn deliver_acked(&mut self, t: u64, message: Message, on_finish: &mut impl FnMut(&Finished)) {
        let key = (message.src, message.dst);
        match self.take_arrival(key) {
            Some((arrive, bytes)) => self.arrive(message, t + 1, arrive, &bytes, on_finish),
            None => {
                self.stats
                    .flow
                    .as_mut()
                    .expect("acknowledged delivery")
                    .lost += 1;
                self.fail(message, t + 1, None, on_finish);
            }
        }
    }

    /// Under acknowledged delivery, a message whose last route ended in cycle `t` without
    /// an ACK. It may have arrived all the same (every ACK of it lost): it is failed, as
    /// its source reports, and counted unacknowledged.
    fn fail_acked(&mut self, t: u64, message: Message, on_finish: &mut impl FnMut(&Finished)) {
        let arrival = self.take_arrival((message.src, message.dst));
        if arrival.is_some() {
            self.stats
                .flow
                .as_mut()
                .expect("acknowledged delivery")
                .unacknowledged += 1;
        }
        self.fail(message, t + 1, arrival.map(|(arrive, _)| arrive), on_finish);
    }

    /// `message` failed, its outcome reported in cycle `done` (it may have arrived all the
    /// same, in cycle `arrive`).
    fn fail(
        &mut self,
        message: Message,
        done: u64,
        arrive: Option<u64>,
        on_finish: &mut impl FnMut(&Finished),
    ) {
        self.finish(
            Finished {
                message,
                outcome: Outcome::Failed,
                done,
                arrive,
            },
            on_finish,
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
    fn arrive(
        &mut self,
        message: Message,
        done: u64,
        arrive: u64,
        bytes: &[u8],
        on_finish: &mut impl FnMut(&Finished),
    ) {
        if !carries(bytes, message.id, message.bytes, self.router.seed) {
            self.stats.corrupted += 1;
        }
        self.finish(
            Finished {
                message,
                outcome: Outcome::Delivered,
                done,
                arrive: Some(arrive),
            },
            on_finish,
        );
    }

    fn finish(&mut self, finished: Finished, on_finish: &mut impl FnMut(&Finished)) {
        if let Some(flow) = &mut self.stats.flow {
            let took = finished.done - finished.message.handed;
            flow.longest_message = flow.longest_message.max(took);
        }
        self.stats.finish(&finished);
        self.in_system -= 1;
        on_finish(&finished);
    }
}
