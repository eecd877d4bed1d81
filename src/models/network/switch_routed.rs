//! The fabric of switches that route (`--routing`, docs/torus.md): the bidirectional k-ary
//! n-cube with wormhole flow control and no virtual channels, as Demaine and Srinivas's
//! k-ary n-cube paper assumes (docs/papers.md), each switch routing a header with the golden
//! routing function of [`crate::routing::torus`] among its free, healthy outputs. A header
//! whose every allowed output is taken waits where it is (backpressure), so worms are never
//! refused; one whose every allowed output is faulty is dropped.
//!
//! A channel is a link together with the input buffer at its far end; a worm holds every
//! channel from the one its header took to the one its tail is in, and no other worm can
//! take a held channel. A message of N bytes is a worm of N flits, the header riding in the
//! first. Per cycle: each source with no worm injecting starts its oldest message; then
//! every worm, oldest first, routes its header if it is not yet ejecting; then every worm
//! moves its flits, header first, one flit per channel per cycle. A cycle in which worms
//! are in flight and no flit moves is a deadlock: the run stops, and the worms waiting on
//! each other are reported.

use super::engine::{Desk, Fabric, Step};
use super::faults::Faults;
use super::message::{Attempt, AttemptOutcome, Finished, Message, Outcome};
use super::params::NetError;
use super::plan::Plan;
use super::stats::{LinkCount, RoutingSummary, Summary, Waiting};
use crate::choice::Choice;
use crate::routing::torus::{Action, Algorithm, Header, Reading, Router};
use crate::topology::torus::{Node, Port, PortMask, Torus};
use std::collections::VecDeque;

/// Marks a channel, ejection port or injection port that no worm holds.
const FREE: u32 = u32::MAX;

/// A message as a source queues it and its worm carries it: what its record needs, kept
/// small because the worms, oldest first, are sorted and shifted as they come and go.
#[derive(Debug, Clone, Copy)]
struct Made {
    id: u64,
    src: u32,
    dst: u32,
    inject: u64,
    bytes: u8,
}

impl Made {
    /// A message just made ([`Fabric::inject`]: its first round, no attempt yet).
    fn of(message: &Message) -> Made {
        debug_assert!(message.round == 0 && message.attempts.is_empty());
        Made {
            id: message.id,
            src: message.src,
            dst: message.dst,
            inject: message.inject,
            bytes: message.bytes,
        }
    }
}

/// A message on its way.
#[derive(Debug)]
struct Worm {
    message: Made,
    header: Header,
    /// The node the header flit is at.
    head: u32,
    /// Flits not yet sent from the source.
    at_source: u64,
    /// Held channels from the tail's to the header's, with this worm's flits in each.
    channels: VecDeque<(u32, u64)>,
    ejecting: bool,
    ejected: u64,
    /// The nodes its header has been at, from its source.
    path: Vec<u32>,
    /// The cycle its header left its source's queue.
    start: u64,
}

impl Worm {
    fn flits(&self) -> u64 {
        u64::from(self.message.bytes)
    }

    /// Its message, ended in cycle `t` with `outcome`, as the statistics take it: one
    /// attempt, over the nodes its header visited.
    fn finished(self, t: u64, outcome: AttemptOutcome) -> Finished {
        let delivered = outcome == AttemptOutcome::Delivered;
        let made = self.message;
        let message = Message {
            id: made.id,
            src: made.src,
            dst: made.dst,
            inject: made.inject,
            bytes: made.bytes,
            round: 0,
            ready: made.inject,
            handed: self.start,
            attempts: vec![Attempt {
                hops: self.path.len() as u32 - 1,
                route: self.path,
                route_index: 0,
                start: self.start,
                outcome,
                nack: None,
            }],
        };
        Finished {
            message,
            outcome: if delivered {
                Outcome::Delivered
            } else {
                Outcome::Failed
            },
            done: t + 1,
            arrive: delivered.then_some(t + 1),
        }
    }
}

/// The switches that route, and their sources' queues, of one run.
#[derive(Debug)]
pub struct SwitchRouted {
    torus: Torus,
    router: Router,
    nodes: Vec<Node>,
    ports: usize,
    /// Per channel (node * ports + port index): the node it leads to, or `FREE` if absent.
    next: Vec<u32>,
    /// Per channel: the worm holding it.
    owner: Vec<u32>,
    /// Per node: its faulty output ports (those into faulty nodes too).
    fault_mask: Vec<PortMask>,
    /// Per node: the worm ejecting there, and the worm sending from there.
    ejecting: Vec<u32>,
    injecting: Vec<u32>,
    queues: Vec<VecDeque<Made>>,
    queued: u64,
    /// Worms in flight, oldest first; a worm's index in `owner` etc. is its slot here.
    worms: Vec<Worm>,
    buffer: u64,
    delivered: u64,
    extra_hops: u64,
    /// The worms waiting on each other, once the run has deadlocked.
    wait_cycle: Vec<Waiting>,
    /// Per channel, the flits it carried in the measured window, [start, end).
    channel_flits: Vec<u32>,
    window: (u64, u64),
}

impl SwitchRouted {
    /// Bytes a node of a cube of `ports` ports (the injection port included) takes
    /// ([`super::memory`]): its address digits, faulty ports, ejecting and injecting worms
    /// and queue; per port the channel's next node and owner.
    pub fn bytes_per_node(ports: usize) -> u64 {
        use std::mem::size_of;
        let node = size_of::<Node>()
            + size_of::<PortMask>()
            + 2 * size_of::<u32>()
            + size_of::<VecDeque<Made>>();
        (node + ports * 2 * size_of::<u32>()) as u64 + super::memory::heap_block(ports * 4)
    }
}

impl SwitchRouted {
    /// The fabric of `plan`'s network, which must be a bidirectional torus, with `faults`,
    /// counting its links' flits in `window`, routing with `algorithm` under `reading`,
    /// every input holding `buffer_flits` flits.
    pub fn new(
        plan: &dyn Plan,
        faults: &Faults,
        window: (u64, u64),
        (algorithm, reading): (Algorithm, Reading),
        buffer_flits: u64,
    ) -> Result<Self, NetError> {
        let not_a_torus = || NetError::NotATorus {
            algorithm: algorithm.name(),
            network: plan.name(),
        };
        let torus = plan.cube().ok_or_else(not_a_torus)?;
        let router = Router::with_reading(torus, algorithm, reading)?;
        let count = plan.node_count();
        let nodes: Vec<Node> = (0..count).map(|v| torus.node_at(v)).collect();
        let ports = 2 * torus.n();
        let mut next = vec![FREE; count * ports];
        for (v, node) in nodes.iter().enumerate() {
            for port in torus.ports() {
                if let Some(w) = torus.neighbour(node, port) {
                    next[v * ports + port.index()] = torus.index_of(&w) as u32;
                }
            }
        }
        let fault_mask = fault_masks(&next, ports, faults);
        Ok(SwitchRouted {
            torus,
            router,
            nodes,
            ports,
            owner: vec![FREE; next.len()],
            next,
            fault_mask,
            ejecting: vec![FREE; count],
            injecting: vec![FREE; count],
            queues: vec![VecDeque::new(); count],
            queued: 0,
            worms: Vec::new(),
            buffer: buffer_flits,
            delivered: 0,
            extra_hops: 0,
            wait_cycle: Vec::new(),
            channel_flits: vec![0; count * ports],
            window,
        })
    }
}

impl Fabric for SwitchRouted {
    fn inject(&mut self, message: Message) {
        self.queues[message.src as usize].push_back(Made::of(&message));
        self.queued += 1;
    }

    fn step(&mut self, t: u64, desk: &mut Desk) -> Step {
        self.start_worms(t);
        if self.worms.is_empty() {
            return Step::Idle;
        }
        let dropped = self.route(t, desk);
        let (moved, delivered) = self.move_flits(t, desk);
        if !moved && !dropped && !self.worms.is_empty() {
            self.wait_cycle = self.wait_cycle();
            Step::Deadlock
        } else if dropped || delivered {
            Step::Event
        } else {
            Step::Busy
        }
    }

    fn report(&self, summary: &mut Summary) {
        let per = |x: u64| (self.delivered > 0).then(|| x as f64 / self.delivered as f64);
        summary.routing = Some(RoutingSummary {
            mean_extra_hops: per(self.extra_hops),
            in_flight: self.worms.len() as u64,
            queued: self.queued,
            deadlock: !self.wait_cycle.is_empty(),
            wait_cycle: self.wait_cycle.clone(),
        });
    }

    fn links(&self) -> Vec<LinkCount> {
        let ports = self.ports;
        (0..self.next.len())
            .filter(|&c| self.next[c] != FREE)
            .map(|c| LinkCount {
                from: (c / ports) as u32,
                // A plan's switch port p + 1 is the cube's port p.
                port: c % ports + 1,
                to: self.next[c],
                words: u64::from(self.channel_flits[c]),
                nacks: 0,
            })
            .collect()
    }
}

impl SwitchRouted {
    /// Every source sending nothing starts its oldest message in cycle `t`.
    fn start_worms(&mut self, t: u64) {
        if self.queued == 0 {
            return;
        }
        let before = self.worms.len();
        for v in 0..self.nodes.len() {
            if self.injecting[v] != FREE {
                continue;
            }
            let Some(message) = self.queues[v].pop_front() else {
                continue;
            };
            self.queued -= 1;
            // Taken now; `renumber` below gives it the worm's slot once the worms are sorted.
            self.injecting[v] = 0;
            let flits = u64::from(message.bytes);
            let (src, dst) = (&self.nodes[v], &self.nodes[message.dst as usize]);
            // The fault-free route's nodes, the most a worm without faults visits.
            let mut path = Vec::with_capacity(distance(&self.torus, src, dst) as usize + 1);
            path.push(v as u32);
            let dst = dst.clone();
            self.worms.push(Worm {
                header: self.router.initial_header(dst),
                head: v as u32,
                at_source: flits,
                channels: VecDeque::new(),
                ejecting: false,
                ejected: 0,
                path,
                start: t,
                message,
            });
        }
        if self.worms.len() > before {
            self.worms.sort_by_key(|w| w.message.id);
            self.renumber();
        }
    }

    /// Points every held channel and port at its worm's current slot.
    fn renumber(&mut self) {
        for (slot, worm) in self.worms.iter().enumerate() {
            let holders = (
                &mut self.owner[..],
                &mut self.ejecting[..],
                &mut self.injecting[..],
            );
            point(holders, worm, slot as u32);
        }
    }

    /// Every header not yet ejecting takes, oldest worm first, the first port its routing
    /// function allows that is neither faulty nor held, or the ejection port at its
    /// destination if free. Worms whose every allowed port is faulty are dropped in cycle
    /// `t`. Returns whether any was.
    fn route(&mut self, t: u64, desk: &mut Desk) -> bool {
        let mut dropped = Vec::new();
        for slot in 0..self.worms.len() {
            let worm = &self.worms[slot];
            if worm.ejecting {
                continue;
            }
            let v = worm.head as usize;
            if worm.head == worm.message.dst {
                if self.ejecting[v] == FREE {
                    self.ejecting[v] = slot as u32;
                    self.worms[slot].ejecting = true;
                }
                continue;
            }
            if !self.forward(slot) {
                dropped.push(slot);
            }
        }
        for &slot in dropped.iter().rev() {
            let worm = self.worms.remove(slot);
            self.release(&worm);
            desk.finish(worm.finished(t, AttemptOutcome::Dropped));
        }
        if !dropped.is_empty() {
            self.renumber();
        }
        !dropped.is_empty()
    }

    /// Routes the header of the worm in `slot` one hop if a port is free; false if every
    /// port its routing function allows is faulty.
    fn forward(&mut self, slot: usize) -> bool {
        let worm = &self.worms[slot];
        let v = worm.head as usize;
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
                worm.path.push(worm.head);
                assert!(
                    worm.path.len() <= self.router.hop_limit() + 1,
                    "worm {} livelocks",
                    worm.message.id
                );
                true
            }
            Action::Blocked => {
                self.router
                    .step(node, &worm.header, self.fault_mask[v])
                    .action
                    != Action::Blocked
            }
            Action::Deliver => unreachable!("the header is not at its destination"),
        }
    }

    /// Frees every channel and port `worm` holds.
    fn release(&mut self, worm: &Worm) {
        let holders = (
            &mut self.owner[..],
            &mut self.ejecting[..],
            &mut self.injecting[..],
        );
        point(holders, worm, FREE);
    }

    /// Moves every worm's flits one step where there is room, header first, so that a
    /// worm whose header moves keeps moving as a whole; worms whose tail is ejected end in
    /// cycle `t`. Returns whether any flit moved and whether any worm ended.
    fn move_flits(&mut self, t: u64, desk: &mut Desk) -> (bool, bool) {
        let mut moved = false;
        let mut done = Vec::new();
        let counting = (self.window.0..self.window.1).contains(&t);
        for slot in 0..self.worms.len() {
            moved |= self.move_worm(slot, counting);
            if self.worms[slot].ejected == self.worms[slot].flits() {
                done.push(slot);
            }
        }
        for &slot in done.iter().rev() {
            let worm = self.worms.remove(slot);
            self.ejecting[worm.message.dst as usize] = FREE;
            let hops = worm.path.len() as u64 - 1;
            let (src, dst) = (worm.message.src as usize, worm.message.dst as usize);
            let minimum = distance(&self.torus, &self.nodes[src], &self.nodes[dst]);
            self.delivered += 1;
            self.extra_hops += hops - minimum;
            desk.finish(worm.finished(t, AttemptOutcome::Delivered));
        }
        if !done.is_empty() {
            self.renumber();
        }
        (moved, !done.is_empty())
    }

    /// Moves the flits of the worm in `slot`, header first, counting those that cross a
    /// link while `counting`; whether any moved.
    fn move_worm(&mut self, slot: usize, counting: bool) -> bool {
        let mut moved = false;
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
                if counting {
                    self.channel_flits[worm.channels[i].0 as usize] += 1;
                }
            }
        }
        let src = worm.message.src as usize;
        if worm.at_source == 0 && self.injecting[src] == slot as u32 {
            self.injecting[src] = FREE;
        }
        while worm.at_source == 0 && worm.channels.front().is_some_and(|&(_, n)| n == 0) {
            let (c, _) = worm.channels.pop_front().expect("peeked");
            self.owner[c as usize] = FREE;
        }
        moved
    }

    /// In a cycle where no flit moved, every worm waits for a channel another worm holds:
    /// the cycle found by following, from the oldest worm, the holder of the first channel
    /// each wants, listed from its oldest worm.
    fn wait_cycle(&self) -> Vec<Waiting> {
        let mut seen = vec![usize::MAX; self.worms.len()];
        let mut path = Vec::new();
        let mut slot = 0;
        while seen[slot] == usize::MAX {
            seen[slot] = path.len();
            path.push(slot);
            slot = self.wants(slot).1;
        }
        let mut cycle = path.split_off(seen[slot]);
        let oldest = (0..cycle.len())
            .min_by_key(|&i| self.worms[cycle[i]].message.id)
            .expect("a cycle has a worm");
        cycle.rotate_left(oldest);
        cycle
            .into_iter()
            .map(|slot| {
                let worm = &self.worms[slot];
                let (wants, holder) = self.wants(slot);
                Waiting {
                    worm: worm.message.id,
                    src: self.nodes[worm.message.src as usize].to_string(),
                    dst: worm.header.dst.to_string(),
                    node: self.nodes[worm.head as usize].to_string(),
                    holds: worm
                        .channels
                        .iter()
                        .map(|&(c, _)| self.link(c as usize))
                        .collect(),
                    wants,
                    held_by: self.worms[holder].message.id,
                }
            })
            .collect()
    }

    /// The channel the worm in `slot` waits for (`eject` at its destination) and the slot
    /// of the worm holding it.
    fn wants(&self, slot: usize) -> (String, usize) {
        let worm = &self.worms[slot];
        let v = worm.head as usize;
        if worm.head == worm.message.dst {
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

/// Points the holders of every channel and port `worm` holds (per channel, per node
/// ejecting, per node injecting) at `holder`: a worm's slot, or `FREE`.
fn point(holders: (&mut [u32], &mut [u32], &mut [u32]), worm: &Worm, holder: u32) {
    let (owner, ejecting, injecting) = holders;
    for &(c, _) in &worm.channels {
        owner[c as usize] = holder;
    }
    if worm.ejecting {
        ejecting[worm.message.dst as usize] = holder;
    }
    if worm.at_source > 0 {
        injecting[worm.message.src as usize] = holder;
    }
}

/// Per node, the output ports a worm must not take: those into faulty nodes and the faulty
/// links (a plan's switch port p + 1 is the cube's port p). `next` gives each channel's far
/// end.
fn fault_masks(next: &[u32], ports: usize, faults: &Faults) -> Vec<PortMask> {
    let mut masks = vec![PortMask::empty(); next.len() / ports];
    for (c, &w) in next.iter().enumerate() {
        if w != FREE && faults.nodes.binary_search(&w).is_ok() {
            masks[c / ports] = masks[c / ports].with(Port::from_index(c % ports));
        }
    }
    for &(v, p) in &faults.links {
        masks[v as usize] = masks[v as usize].with(Port::from_index(p - 1));
    }
    masks
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
