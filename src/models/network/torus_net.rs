//! The cycle model of a k-ary n-cube network with wormhole flow control and no virtual
//! channels (as Demaine and Srinivas's k-ary n-cube paper assumes; see docs/papers.md), each
//! router choosing with the golden routing function of [`crate::routing::torus`] among its
//! free outputs (docs/torus.md, "The wormhole simulator", states the timing and every
//! choice).
//!
//! In: [`TorusParams`]: the cube, the algorithm, the traffic (shared with the Kautz model:
//! [`super::traffic`]), faulty links, and messages placed at cycle 0. Out: the run's
//! [`TorusSummary`]: counts, latency, hops and extra hops over the fault-free minimum, and
//! on deadlock the cycle of worms waiting on each other.
//!
//! A channel is a link together with the input buffer at its far end; a worm holds every
//! channel from the one its header took to the one its tail is in, and no other worm can
//! take a held channel. Per cycle: new messages join their source's queue; each source with
//! no worm injecting starts its oldest message; then every worm, oldest first, routes its
//! header if it is not yet ejecting; then every worm moves its flits, header first, one flit
//! per channel per cycle.

use super::stats::mean_and_p99;
use super::traffic::{Pattern, Traffic, TrafficGen};
use crate::random::{SplitMix64, mix};
use crate::routing::torus::{Action, Algorithm, Header, Router, RoutingError};
use crate::topology::torus::{Link, Node, Port, PortMask, Torus};
use serde::Serialize;
use std::collections::VecDeque;
use thiserror::Error;

/// Flits per message unless asked otherwise: a header and three body flits.
pub const DEFAULT_MESSAGE_FLITS: u64 = 4;
/// Flits per input buffer unless asked otherwise.
pub const DEFAULT_BUFFER_FLITS: u64 = 2;
/// Most nodes a run holds.
pub const MAX_NODES: u64 = 1 << 20;
/// Marks a channel, ejection port or injection port that no worm holds.
const FREE: u32 = u32::MAX;

/// Why a torus network cannot be simulated as asked.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum TorusNetError {
    #[error(transparent)]
    Routing(#[from] RoutingError),
    #[error("the {cube} has {nodes} nodes; netsim torus holds at most {MAX_NODES}")]
    TooLarge { cube: Torus, nodes: String },
    #[error("injection rate must be between 0 and 1, got {0}")]
    Rate(f64),
    #[error("message flits must be 1 to 255, got {0}")]
    MessageFlits(u64),
    #[error("buffer flits must be 1 to 65535, got {0}")]
    BufferFlits(u64),
    #[error("faulty link {0} is given twice")]
    FaultyLinkTwice(Link),
    #[error("{faulty} faulty links asked for, but the {cube} has only {links} links")]
    TooManyFaults {
        faulty: u64,
        cube: Torus,
        links: u64,
    },
    #[error("a message from {src} to {dst}: source and destination are the same node")]
    SameEndpoints { src: Node, dst: Node },
}

/// Everything a run needs.
#[derive(Debug, Clone, PartialEq)]
pub struct TorusParams {
    pub torus: Torus,
    pub algorithm: Algorithm,
    /// Probability that a node makes a message in a cycle, 0 to 1.
    pub rate: f64,
    /// Cycles during which nodes make messages; the run then drains.
    pub cycles: u64,
    pub seed: u64,
    /// Flits per message, header included.
    pub message_flits: u64,
    /// Flits the input buffer of each channel holds.
    pub buffer_flits: u64,
    /// Faulty links named, and a number more drawn by the seed among the others.
    pub faulty_links: Vec<Link>,
    pub random_faults: u64,
    /// Messages made at cycle 0 before the traffic's own, in this order: (src, dst).
    pub messages: Vec<(Node, Node)>,
}

/// One worm of a deadlock: where its header is, the channels it holds, the one it wants
/// and the worm that holds that.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Waiting {
    pub worm: u64,
    pub src: String,
    pub dst: String,
    /// The node its header is at.
    pub node: String,
    /// The channels it holds, as links NODE:PORT from its tail's to its header's; none
    /// while its header is still at its source.
    pub holds: Vec<String>,
    /// The first channel its routing function allows there (all are held).
    pub wants: String,
    pub held_by: u64,
}

/// The figures of a run, as `netsim torus` prints them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TorusSummary {
    pub injected: u64,
    pub delivered: u64,
    /// Messages the routing function gave up on: every port it allows is faulty.
    pub dropped: u64,
    /// Worms holding channels or starting at their source when the run stopped.
    pub in_flight: u64,
    /// Messages still waiting in their source's queue when the run stopped.
    pub queued: u64,
    /// Cycles from a message's making to the end of the cycle its tail was ejected.
    pub mean_latency: Option<f64>,
    pub p99_latency: Option<u64>,
    /// Links a delivered message crossed.
    pub mean_hops: Option<f64>,
    /// Hops over the fault-free minimum (the torus distance).
    pub mean_extra_hops: Option<f64>,
    /// Flits ejected per node per cycle run.
    pub throughput: f64,
    pub deadlock: bool,
    /// Cycles run: injection and drain, or up to the deadlock.
    pub cycles: u64,
    /// The faulty links of the run, those drawn included.
    pub faulty_links: Vec<String>,
    /// On deadlock: the cycle of worms waiting on each other.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wait_cycle: Vec<Waiting>,
}

/// A message made but not yet started: (id, destination, cycle made, flits).
type Pending = (u64, u32, u64, u64);

/// A message on its way.
#[derive(Debug)]
struct Worm {
    id: u64,
    src: u32,
    dst: u32,
    made: u64,
    flits: u64,
    header: Header,
    /// The node the header flit is at.
    head: u32,
    /// Flits not yet sent from the source.
    at_source: u64,
    /// Held channels from the tail's to the header's, with this worm's flits in each.
    channels: VecDeque<(u32, u64)>,
    ejecting: bool,
    ejected: u64,
    hops: u64,
}

/// The network of one run.
#[derive(Debug)]
pub struct TorusNet {
    torus: Torus,
    router: Router,
    nodes: Vec<Node>,
    ports: usize,
    /// Per channel (node * ports + port index): the node it leads to, or `FREE` if absent.
    next: Vec<u32>,
    /// Per channel: the worm holding it.
    owner: Vec<u32>,
    /// Per node: its faulty output ports.
    fault_mask: Vec<PortMask>,
    faulty_links: Vec<Link>,
    /// Per node: the worm ejecting there, and the worm sending from there.
    ejecting: Vec<u32>,
    injecting: Vec<u32>,
    queues: Vec<VecDeque<Pending>>,
    /// Worms in flight, oldest first; a worm's index in `owner` etc. is its slot here.
    worms: Vec<Worm>,
    traffic: TrafficGen,
    placed: Vec<(u32, u32)>,
    cycles: u64,
    /// Flits of each placed message (the traffic draws its own).
    flits: u64,
    buffer: u64,
    flits_delivered: u64,
    injected: u64,
    delivered: u64,
    dropped: u64,
    latencies: Vec<u64>,
    hops: u64,
    extra_hops: u64,
}

impl TorusNet {
    /// The network of `params`, empty.
    pub fn new(params: &TorusParams) -> Result<Self, TorusNetError> {
        let torus = params.torus;
        if !(0.0..=1.0).contains(&params.rate) {
            return Err(TorusNetError::Rate(params.rate));
        }
        if !(1..=255).contains(&params.message_flits) {
            return Err(TorusNetError::MessageFlits(params.message_flits));
        }
        if !(1..=65535).contains(&params.buffer_flits) {
            return Err(TorusNetError::BufferFlits(params.buffer_flits));
        }
        let router = Router::new(torus, params.algorithm)?;
        let count = match torus.node_count() {
            Some(c) if c <= MAX_NODES => c as usize,
            _ => {
                return Err(TorusNetError::TooLarge {
                    cube: torus,
                    nodes: format!("{}^{}", torus.k(), torus.n()),
                });
            }
        };
        let nodes: Vec<Node> = (0..count).map(|v| torus.node_at(v)).collect();
        let ports = 2 * torus.n();
        let mut next = vec![FREE; count * ports];
        let mut links = Vec::new();
        for (v, node) in nodes.iter().enumerate() {
            for port in torus.ports() {
                if let Some(w) = torus.neighbour(node, port) {
                    next[v * ports + port.index()] = torus.index_of(&w) as u32;
                    links.push(v * ports + port.index());
                }
            }
        }
        let faulty = faulty_channels(params, ports, &links)?;
        let mut fault_mask = vec![PortMask::empty(); count];
        for &c in &faulty {
            fault_mask[c / ports] = fault_mask[c / ports].with(Port::from_index(c % ports));
        }
        let faulty_links = faulty
            .iter()
            .map(|&c| Link {
                node: nodes[c / ports].clone(),
                port: Port::from_index(c % ports),
            })
            .collect();
        let mut placed = Vec::new();
        for (src, dst) in &params.messages {
            if src == dst {
                return Err(TorusNetError::SameEndpoints {
                    src: src.clone(),
                    dst: dst.clone(),
                });
            }
            placed.push((torus.index_of(src) as u32, torus.index_of(dst) as u32));
        }
        let flits = params.message_flits as u8;
        let traffic = TrafficGen::new(
            Traffic {
                pattern: Pattern::Uniform,
                rate: params.rate,
                bytes: flits..=flits,
                hot_fraction: 0.0,
            },
            count,
            (0..count as u32).collect(),
            params.seed,
        );
        Ok(TorusNet {
            torus,
            router,
            nodes,
            ports,
            owner: vec![FREE; next.len()],
            next,
            fault_mask,
            faulty_links,
            ejecting: vec![FREE; count],
            injecting: vec![FREE; count],
            queues: vec![VecDeque::new(); count],
            worms: Vec::new(),
            traffic,
            placed,
            cycles: params.cycles,
            flits: params.message_flits,
            buffer: params.buffer_flits,
            flits_delivered: 0,
            injected: 0,
            delivered: 0,
            dropped: 0,
            latencies: Vec::new(),
            hops: 0,
            extra_hops: 0,
        })
    }

    /// Runs until every message is delivered or dropped, or until deadlock.
    pub fn run(mut self) -> TorusSummary {
        for (src, dst) in std::mem::take(&mut self.placed) {
            self.make(0, src, dst, self.flits);
        }
        let mut t = 0u64;
        let wait_cycle = loop {
            while let Some((_, v)) = self.traffic.next_injection((t + 1).min(self.cycles)) {
                let dst = self.traffic.destination(v);
                let flits = self.traffic.length();
                self.make(t, v, dst, u64::from(flits));
            }
            self.start_worms();
            if self.worms.is_empty() && t >= self.cycles {
                break Vec::new();
            }
            let dropped = self.route();
            let moved = self.move_flits(t);
            t += 1;
            if !moved && !dropped && !self.worms.is_empty() {
                break self.wait_cycle();
            }
        };
        let in_flight = self.worms.len() as u64;
        let queued: u64 = self.queues.iter().map(|q| q.len() as u64).sum();
        assert_eq!(
            self.injected,
            self.delivered + self.dropped + in_flight + queued,
            "every message made is delivered, dropped, in flight or queued"
        );
        let per = |x: u64| (self.delivered > 0).then(|| x as f64 / self.delivered as f64);
        let (mean_latency, p99_latency) = mean_and_p99(&mut self.latencies);
        TorusSummary {
            injected: self.injected,
            delivered: self.delivered,
            dropped: self.dropped,
            in_flight,
            queued,
            mean_latency,
            p99_latency,
            mean_hops: per(self.hops),
            mean_extra_hops: per(self.extra_hops),
            throughput: self.flits_delivered as f64 / (t.max(1) * self.nodes.len() as u64) as f64,
            deadlock: !wait_cycle.is_empty(),
            cycles: t,
            faulty_links: self.faulty_links.iter().map(|l| l.to_string()).collect(),
            wait_cycle,
        }
    }

    /// A message of `flits` flits from `src` to `dst` made in cycle `t` joins its source's
    /// queue.
    fn make(&mut self, t: u64, src: u32, dst: u32, flits: u64) {
        self.queues[src as usize].push_back((self.injected, dst, t, flits));
        self.injected += 1;
    }

    /// Every source sending nothing starts its oldest message.
    fn start_worms(&mut self) {
        let before = self.worms.len();
        for v in 0..self.nodes.len() {
            if self.injecting[v] != FREE {
                continue;
            }
            let Some((id, dst, made, flits)) = self.queues[v].pop_front() else {
                continue;
            };
            // Taken now; `renumber` below gives it the worm's slot once the worms are sorted.
            self.injecting[v] = 0;
            self.worms.push(Worm {
                id,
                src: v as u32,
                dst,
                made,
                flits,
                header: self.router.initial_header(self.nodes[dst as usize].clone()),
                head: v as u32,
                at_source: flits,
                channels: VecDeque::new(),
                ejecting: false,
                ejected: 0,
                hops: 0,
            });
        }
        if self.worms.len() > before {
            self.worms.sort_by_key(|w| w.id);
            self.renumber();
        }
    }

    /// Points every held channel and port at its worm's current slot.
    fn renumber(&mut self) {
        for (slot, worm) in self.worms.iter().enumerate() {
            let slot = slot as u32;
            for &(c, _) in &worm.channels {
                self.owner[c as usize] = slot;
            }
            if worm.ejecting {
                self.ejecting[worm.dst as usize] = slot;
            }
            if worm.at_source > 0 {
                self.injecting[worm.src as usize] = slot;
            }
        }
    }

    /// Every header not yet ejecting takes, oldest worm first, the first port its routing
    /// function allows that is neither faulty nor held, or the ejection port at its
    /// destination if free. Worms whose every allowed port is faulty are dropped. Returns
    /// whether any was.
    fn route(&mut self) -> bool {
        let mut dropped = Vec::new();
        for slot in 0..self.worms.len() {
            let worm = &self.worms[slot];
            if worm.ejecting {
                continue;
            }
            let v = worm.head as usize;
            if worm.head == worm.dst {
                if self.ejecting[v] == FREE {
                    self.ejecting[v] = slot as u32;
                    self.worms[slot].ejecting = true;
                }
                continue;
            }
            let node = &self.nodes[v];
            let mut busy = self.fault_mask[v];
            for p in 0..self.ports {
                if self.owner[v * self.ports + p] != FREE {
                    busy = busy.with(Port::from_index(p));
                }
            }
            let decision = self.router.step(node, &worm.header, busy);
            match decision.action {
                Action::Forward(port) => {
                    let c = v * self.ports + port.index();
                    assert_ne!(
                        self.next[c], FREE,
                        "the router forwards on a port {node} has"
                    );
                    self.owner[c] = slot as u32;
                    let worm = &mut self.worms[slot];
                    worm.header = decision.header;
                    worm.channels.push_back((c as u32, 0));
                    worm.head = self.next[c];
                    worm.hops += 1;
                    assert!(
                        worm.hops as usize <= self.router.hop_limit(),
                        "worm {} livelocks",
                        worm.id
                    );
                }
                Action::Blocked => {
                    if self
                        .router
                        .step(node, &worm.header, self.fault_mask[v])
                        .action
                        == Action::Blocked
                    {
                        dropped.push(slot);
                    }
                }
                Action::Deliver => unreachable!("the header is not at its destination"),
            }
        }
        for &slot in dropped.iter().rev() {
            self.dropped += 1;
            let worm = self.worms.remove(slot);
            self.release(&worm);
        }
        if !dropped.is_empty() {
            self.renumber();
        }
        !dropped.is_empty()
    }

    /// Frees every channel and port `worm` holds.
    fn release(&mut self, worm: &Worm) {
        for &(c, _) in &worm.channels {
            self.owner[c as usize] = FREE;
        }
        if worm.ejecting {
            self.ejecting[worm.dst as usize] = FREE;
        }
        if worm.at_source > 0 {
            self.injecting[worm.src as usize] = FREE;
        }
    }

    /// Moves every worm's flits one step where there is room, header first, so that a
    /// worm whose header moves keeps moving as a whole. Returns whether any flit moved.
    fn move_flits(&mut self, t: u64) -> bool {
        let mut moved = false;
        let mut done = Vec::new();
        for slot in 0..self.worms.len() {
            let worm = &mut self.worms[slot];
            if worm.ejecting {
                let last = worm.channels.back_mut().expect("an ejecting worm has come");
                if last.1 > 0 {
                    last.1 -= 1;
                    worm.ejected += 1;
                    moved = true;
                }
            }
            for i in (0..worm.channels.len()).rev() {
                if worm.channels[i].1 >= self.buffer {
                    continue;
                }
                let upstream = if i == 0 {
                    &mut worm.at_source
                } else {
                    &mut worm.channels[i - 1].1
                };
                if *upstream > 0 {
                    *upstream -= 1;
                    worm.channels[i].1 += 1;
                    moved = true;
                }
            }
            if worm.at_source == 0 && self.injecting[worm.src as usize] == slot as u32 {
                self.injecting[worm.src as usize] = FREE;
            }
            while worm.at_source == 0 && worm.channels.front().is_some_and(|&(_, n)| n == 0) {
                let (c, _) = worm.channels.pop_front().expect("peeked");
                self.owner[c as usize] = FREE;
            }
            if worm.ejected == worm.flits {
                done.push(slot);
            }
        }
        for &slot in done.iter().rev() {
            let worm = self.worms.remove(slot);
            self.ejecting[worm.dst as usize] = FREE;
            let minimum = distance(
                &self.torus,
                &self.nodes[worm.src as usize],
                &worm.header.dst,
            );
            self.delivered += 1;
            self.flits_delivered += worm.flits;
            self.latencies.push(t + 1 - worm.made);
            self.hops += worm.hops;
            self.extra_hops += worm.hops - minimum;
        }
        if !done.is_empty() {
            self.renumber();
        }
        moved
    }

    /// In a cycle where no flit moved, every worm waits for a channel another worm holds:
    /// the cycle found by following, from the oldest worm, the holder of the first channel
    /// each wants, listed from its oldest worm.
    fn wait_cycle(&self) -> Vec<Waiting> {
        let wants = |slot: usize| -> (String, usize) {
            let worm = &self.worms[slot];
            let v = worm.head as usize;
            if worm.head == worm.dst {
                return ("eject".to_string(), self.ejecting[v] as usize);
            }
            let node = &self.nodes[v];
            let port = self
                .router
                .candidates(node, &worm.header)
                .into_iter()
                .find(|&p| !self.fault_mask[v].contains(p))
                .expect("a worm with only faulty ports is dropped");
            let c = v * self.ports + port.index();
            (self.link(c), self.owner[c] as usize)
        };
        let mut seen = vec![usize::MAX; self.worms.len()];
        let mut path = Vec::new();
        let mut slot = 0;
        while seen[slot] == usize::MAX {
            seen[slot] = path.len();
            path.push(slot);
            slot = wants(slot).1;
        }
        let mut cycle = path.split_off(seen[slot]);
        let oldest = (0..cycle.len())
            .min_by_key(|&i| self.worms[cycle[i]].id)
            .expect("a cycle has a worm");
        cycle.rotate_left(oldest);
        cycle
            .into_iter()
            .map(|slot| {
                let worm = &self.worms[slot];
                let (wants, holder) = wants(slot);
                Waiting {
                    worm: worm.id,
                    src: self.nodes[worm.src as usize].to_string(),
                    dst: worm.header.dst.to_string(),
                    node: self.nodes[worm.head as usize].to_string(),
                    holds: worm
                        .channels
                        .iter()
                        .map(|&(c, _)| self.link(c as usize))
                        .collect(),
                    wants,
                    held_by: self.worms[holder].id,
                }
            })
            .collect()
    }

    /// Channel `c` as a link NODE:PORT.
    fn link(&self, c: usize) -> String {
        format!(
            "{}:{}",
            self.nodes[c / self.ports],
            Port::from_index(c % self.ports)
        )
    }
}

/// The fault-free minimum number of hops from `a` to `b`: per dimension the shorter way
/// round the ring.
pub fn distance(torus: &Torus, a: &Node, b: &Node) -> u64 {
    let k = torus.k();
    (0..torus.n())
        .map(|d| {
            let up = (b.digit(d) + k - a.digit(d)) % k;
            u64::from(up.min(k - up))
        })
        .sum()
}

/// The faulty channels of a run, ascending: those named, then `random_faults` more drawn
/// by the seed among the other `links`.
fn faulty_channels(
    params: &TorusParams,
    ports: usize,
    links: &[usize],
) -> Result<Vec<usize>, TorusNetError> {
    let torus = params.torus;
    let mut faulty = Vec::new();
    for link in &params.faulty_links {
        let c = torus.index_of(&link.node) * ports + link.port.index();
        if faulty.contains(&c) {
            return Err(TorusNetError::FaultyLinkTwice(link.clone()));
        }
        faulty.push(c);
    }
    let total = faulty.len() as u64 + params.random_faults;
    if total > links.len() as u64 {
        return Err(TorusNetError::TooManyFaults {
            faulty: total,
            cube: torus,
            links: links.len() as u64,
        });
    }
    let mut rng = SplitMix64::new(mix(params.seed ^ 0xfa17));
    for _ in 0..params.random_faults {
        let c = loop {
            let c = links[rng.below(links.len() as u64) as usize];
            if !faulty.contains(&c) {
                break c;
            }
        };
        faulty.push(c);
    }
    faulty.sort_unstable();
    Ok(faulty)
}
