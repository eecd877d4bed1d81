//! The nodes of the source-routed fabric ([`super::SourceRouted`]) and their part of a
//! cycle, run on as many threads as the run has (`--threads`; docs/network.md, "Threads").
//!
//! A cycle has two phases over the nodes to step, each cut into ranges of consecutive
//! nodes that threads take: (1) each node's processor hands its oldest ready message to an
//! idle router, and the node's switch inputs are read from the links as the last cycle left
//! them; (2) each node's router is clocked and its switch stepped, publishing the switch's
//! outputs. In phase 1 a node reads its neighbours' outputs, which nobody writes in phase 1;
//! in either phase it writes only its own state and outputs. The routers' events are kept
//! in node order and handled after phase 2 on one thread ([`super::SourceRouted`]), so a
//! run's results are the same however the nodes are cut, on any number of threads.
//!
//! In: the nodes to step ([`Stepping`]) and what a cycle only reads ([`Cycle`]). Out: the
//! nodes' new state and outputs, the nodes to step next, and per range its events.

use crate::fabric::wiring::Wiring;
use crate::network::link::{pack, unpack};
use crate::network::message::Message;
use crate::network::plan::{MAX_NODES, Plan};
use crate::network::router::{Event, Router, RouterParams};
use crate::network::switch::{Switch, Word};
use rayon::prelude::*;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Fewest nodes a range of a parallel phase steps. Handing a range to another thread and
/// waiting for it costs tens of microseconds on a virtual machine (the thread is woken
/// from sleep), the time to step a few hundred nodes: with fewer nodes a range, the
/// threads' wake-ups eat what they win (K(4,5) at rate 0.01, about 1,000 nodes busy a
/// cycle, ran 23% slower on two threads with ranges of 96 nodes).
const MIN_RANGE: usize = 2048;

/// A node's flags and counts that its step needs in every cycle, together so that they
/// cost one cache line between them rather than one each. They are read for every node
/// stepped, the switch only for those whose switch is busy or has input, so they are kept
/// apart from it: on K(4,8) a node array with the switch inside ran 18% slower.
#[derive(Debug, Clone, Copy)]
pub(super) struct NodeState {
    /// Messages in the processor's queue.
    pub queued: u32,
    /// Bit p: output p leads to a faulty node or is a faulty link.
    pub fault_mask: u16,
    /// The switch was quiet after its last step.
    pub quiet: bool,
    /// The router was quiet after its last clock (then it need not be clocked while
    /// nothing arrives).
    pub router_quiet: bool,
}

impl NodeState {
    /// The node must be stepped in the next cycle.
    fn busy(&self) -> bool {
        !self.quiet || !self.router_quiet || self.queued > 0
    }
}

/// A message waiting in its processor's queue, oldest ready first.
#[derive(Debug)]
pub(super) struct Queued(pub Message);

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

/// Both ends of a node's port p >= 1.
#[derive(Debug, Clone, Copy)]
pub(super) struct Wire {
    /// The link into input p, by link index (sending node * ports + its output).
    pub from: u32,
    /// Where output p leads: the receiving node times 16 plus its input port there
    /// (nodes are fewer than 2^21 and ports at most 16, so it fits).
    to: u32,
}

const _: () = assert!((MAX_NODES + 1) << 4 <= u32::MAX as u64);

impl Wire {
    /// The node output p leads to.
    pub fn to_node(self) -> usize {
        (self.to >> 4) as usize
    }

    /// Its input port there.
    pub fn to_port(self) -> usize {
        (self.to & 0xf) as usize
    }
}

/// Every node's [`Wire`]s from the [`Wiring`] (port 0's unused). A port without a link is
/// wired to a spare link that stays idle (index nodes * ports) and a spare node that never
/// sends a NACK (index nodes): the switch's fault mask keeps worms out of it.
pub(super) fn wires(wiring: &Wiring) -> Vec<Wire> {
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

/// What every node keeps, by node index.
#[derive(Debug)]
pub(super) struct Nodes {
    pub kept: Kept,
    pub published: Published,
}

/// A node's own state: its router, switch, flags and processor queue.
#[derive(Debug)]
pub(super) struct Kept {
    pub routers: Vec<Router>,
    pub switches: Vec<Switch<u8>>,
    pub state: Vec<NodeState>,
    pub queues: Vec<BinaryHeap<Queued>>,
}

/// What a node's switch shows its neighbours, and what its links carried.
#[derive(Debug)]
pub(super) struct Published {
    /// Every switch's output words, packed ([`crate::network::link`]), by link index
    /// (node * ports + output): the values of the current cycle, in one small array so that
    /// reading a neighbour's is cheap. One more, always idle, feeds the inputs without a
    /// link.
    pub links: Vec<u16>,
    /// Every switch's NACKs on its inputs, bit i for input i; one more, always 0, for the
    /// outputs without a link.
    pub nack_bits: Vec<u16>,
    /// Per node and port p >= 1, in the measured window: words output p carried, and
    /// NACKs the switch sent back on input p.
    pub words_out: Vec<u32>,
    pub nacks_in: Vec<u32>,
}

/// What a cycle's phases read and do not change.
pub(super) struct Cycle<'a> {
    pub t: u64,
    pub plan: &'a dyn Plan,
    pub router: &'a RouterParams,
    pub wires: &'a [Wire],
    pub ports: usize,
    /// Acknowledged delivery: a router is given its message's destination address.
    pub acked: bool,
    /// The cycle is in the measured window: links' words and NACKs are counted.
    pub counting: bool,
}

/// What a range of nodes reports from phase 2.
#[derive(Debug, Default)]
pub(super) struct RangeOut {
    /// Its routers' events, in node order.
    pub events: Vec<(u32, Event)>,
    /// The longest a buffered switch of the range has held a buffer.
    pub longest_hold: u64,
    /// With receive FIFOs, in the measured window: heads the range's switches refused
    /// because their router's FIFO was full, and bytes its processors took.
    pub rx_refused: u64,
    pub rx_taken: u64,
    /// Nodes outside the range's words to step in the next cycle.
    elsewhere: Vec<u32>,
    /// One router's events, before they are tagged with its node.
    clocked: Vec<Event>,
}

/// What a step keeps from cycle to cycle, reused so that a cycle allocates little.
#[derive(Debug, Default)]
pub(super) struct Stepping {
    /// The nodes to step in this cycle and the next, as bit sets: stepping in index order
    /// keeps the per-node arrays' accesses ascending. A range of a cycle marks the next
    /// cycle's nodes of its own 64-node words itself, and lists the others it marks.
    active: Vec<u64>,
    next_active: Vec<u64>,
    /// The nodes of `active`, in index order.
    order: Vec<u32>,
    /// Per stepped switch, in `order`: its inputs.
    inputs: Vec<Word>,
    /// Per stepped switch: its output links' NACKs, bit p for output p.
    nacks: Vec<u16>,
    /// Per range of the last cycle, in node order.
    pub ranges: Vec<RangeOut>,
}

impl Stepping {
    pub fn new(nodes: usize) -> Self {
        Stepping {
            active: vec![0; nodes.div_ceil(64)],
            next_active: vec![0; nodes.div_ceil(64)],
            ..Stepping::default()
        }
    }

    /// Node `v` is stepped in the current cycle.
    pub fn activate(&mut self, v: usize) {
        self.active[v / 64] |= 1 << (v % 64);
    }

    /// Node `v`, in `state`, is stepped in the next cycle if it is busy.
    pub fn keep_if_busy(&mut self, v: usize, state: &NodeState) {
        if state.busy() {
            self.next_active[v / 64] |= 1 << (v % 64);
        }
    }

    /// Marks for the next cycle the nodes that ranges listed outside their own words.
    pub fn mark_listed(&mut self) {
        for range in &mut self.ranges {
            for v in range.elsewhere.drain(..) {
                self.next_active[v as usize / 64] |= 1 << (v % 64);
            }
        }
    }

    /// Lists the nodes of the current cycle in `order`; whether there are any.
    pub fn list_active(&mut self) -> bool {
        self.order.clear();
        for (i, bits) in self.active.iter_mut().enumerate() {
            let mut bits = std::mem::take(bits);
            while bits != 0 {
                self.order.push((i * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
        !self.order.is_empty()
    }

    /// The next cycle's nodes become the current cycle's.
    pub fn advance(&mut self) {
        std::mem::swap(&mut self.active, &mut self.next_active);
    }
}

impl Nodes {
    /// Steps the nodes of `step`'s order through `cycle`, leaving their events per range in
    /// `step.ranges` and the nodes to step next in its next set; whether any router had an
    /// event.
    pub fn step(&mut self, cycle: &Cycle, step: &mut Stepping) -> bool {
        let count = step.order.len();
        step.inputs.resize(count * cycle.ports, Word::IDLE);
        step.nacks.resize(count, 0);
        let threads = rayon::current_num_threads();
        let parts = (count / MIN_RANGE).clamp(1, threads);
        // Range r steps positions firsts[r].0.. of the order, nodes firsts[r].1.. : whole
        // 64-node words of the bit sets.
        let mut firsts = vec![(0, 0)];
        for r in 1..parts {
            let node = step.order[r * count / parts] as usize / 64 * 64;
            if node > firsts.last().expect("range 0").1 {
                firsts.push((step.order.partition_point(|&v| (v as usize) < node), node));
            }
        }
        step.ranges.resize_with(firsts.len(), RangeOut::default);
        self.prepare(cycle, step, &firsts);
        self.clock(cycle, step, &firsts);
        step.ranges.iter().any(|r| !r.events.is_empty())
    }

    /// Phase 1: hand-overs, and every stepped switch's inputs and output links' NACKs.
    fn prepare(&mut self, cycle: &Cycle, step: &mut Stepping, firsts: &[(usize, usize)]) {
        let published = &self.published;
        let ports = cycle.ports;
        let mut kept = self.kept.ranges(firsts.iter().map(|f| f.1));
        let mut inputs = cut(&mut step.inputs, firsts.iter().map(|f| f.0 * ports));
        let mut nacks = cut(&mut step.nacks, firsts.iter().map(|f| f.0));
        let views: Vec<_> = orders(&step.order, firsts)
            .map(|order| Prepare {
                order,
                kept: kept.next().expect("a range per first"),
                inputs: inputs.next().expect("a range per first"),
                nacks: nacks.next().expect("a range per first"),
            })
            .collect();
        each(views, |view| view.run(cycle, published));
    }

    /// Phase 2: every stepped node's router and switch.
    fn clock(&mut self, cycle: &Cycle, step: &mut Stepping, firsts: &[(usize, usize)]) {
        let ports = cycle.ports;
        let mut kept = self.kept.ranges(firsts.iter().map(|f| f.1));
        let mut published = self.published.ranges(firsts.iter().map(|f| f.1), ports);
        let mut outs = step.ranges.iter_mut();
        let mut next = cut(&mut step.next_active, firsts.iter().map(|f| f.1 / 64));
        let views: Vec<_> = orders(&step.order, firsts)
            .zip(firsts)
            .map(|(order, &(j, _))| Clock {
                order,
                next: next.next().expect("a range per first"),
                kept: kept.next().expect("a range per first"),
                published: published.next().expect("a range per first"),
                inputs: &step.inputs[j * ports..(j + order.len()) * ports],
                nacks: &step.nacks[j..j + order.len()],
                out: outs.next().expect("a range per first"),
            })
            .collect();
        each(views, |view| view.run(cycle));
    }
}

/// Runs `f` on every view, on the run's threads when there are several.
fn each<T: Send>(mut views: Vec<T>, f: impl Fn(T) + Sync + Send) {
    if views.len() == 1 {
        f(views.pop().expect("one view"));
    } else {
        views.into_par_iter().for_each(f);
    }
}

/// The order's positions of each range.
fn orders<'a>(order: &'a [u32], firsts: &'a [(usize, usize)]) -> impl Iterator<Item = &'a [u32]> {
    (0..firsts.len()).map(move |r| {
        let end = firsts.get(r + 1).map_or(order.len(), |f| f.0);
        &order[firsts[r].0..end]
    })
}

/// `items` cut at each of `starts` (ascending, the first 0), one part per start.
fn cut<T>(items: &mut [T], starts: impl Iterator<Item = usize>) -> std::vec::IntoIter<&mut [T]> {
    let mut parts = Vec::new();
    let mut rest = items;
    let mut at = 0;
    for start in starts.skip(1) {
        let (part, tail) = rest.split_at_mut(start - at);
        parts.push(part);
        rest = tail;
        at = start;
    }
    parts.push(rest);
    parts.into_iter()
}

/// [`Kept`] of a range of nodes, from node `base`.
struct KeptRange<'a> {
    base: usize,
    routers: &'a mut [Router],
    switches: &'a mut [Switch<u8>],
    state: &'a mut [NodeState],
    queues: &'a mut [BinaryHeap<Queued>],
}

impl Kept {
    /// The ranges of nodes from each of `firsts` (ascending, the first 0).
    fn ranges(
        &mut self,
        firsts: impl Iterator<Item = usize> + Clone,
    ) -> impl Iterator<Item = KeptRange<'_>> {
        let bases = firsts.clone();
        cut(&mut self.routers, firsts.clone())
            .zip(cut(&mut self.switches, firsts.clone()))
            .zip(cut(&mut self.state, firsts.clone()))
            .zip(cut(&mut self.queues, firsts))
            .zip(bases)
            .map(|((((routers, switches), state), queues), base)| KeptRange {
                base,
                routers,
                switches,
                state,
                queues,
            })
    }
}

/// [`Published`] of a range of nodes, from node `base`.
struct PublishedRange<'a> {
    links: &'a mut [u16],
    nack_bits: &'a mut [u16],
    words_out: &'a mut [u32],
    nacks_in: &'a mut [u32],
}

impl Published {
    /// The ranges of nodes from each of `firsts` (ascending, the first 0), without the
    /// spare link and spare node.
    fn ranges(
        &mut self,
        firsts: impl Iterator<Item = usize> + Clone,
        ports: usize,
    ) -> impl Iterator<Item = PublishedRange<'_>> {
        let nodes = self.nack_bits.len() - 1;
        let links = firsts.clone().map(move |v| v * ports);
        cut(&mut self.links[..nodes * ports], links.clone())
            .zip(cut(&mut self.nack_bits[..nodes], firsts.clone()))
            .zip(cut(&mut self.words_out, links.clone()))
            .zip(cut(&mut self.nacks_in, links))
            .map(
                |(((links, nack_bits), words_out), nacks_in)| PublishedRange {
                    links,
                    nack_bits,
                    words_out,
                    nacks_in,
                },
            )
    }
}

/// A range's phase 1.
struct Prepare<'a> {
    order: &'a [u32],
    kept: KeptRange<'a>,
    inputs: &'a mut [Word],
    nacks: &'a mut [u16],
}

impl Prepare<'_> {
    fn run(mut self, cycle: &Cycle, published: &Published) {
        let ports = cycle.ports;
        for (j, &v) in self.order.iter().enumerate() {
            let (v, i) = (v as usize, v as usize - self.kept.base);
            self.hand_over(cycle, i);
            let inputs = &mut self.inputs[j * ports..][..ports];
            inputs[0] = if self.kept.state[i].router_quiet {
                Word::IDLE
            } else {
                self.kept.routers[i].word()
            };
            let mut nack = 0u16;
            let wires = &cycle.wires[v * ports..][..ports];
            for (p, wire) in wires.iter().enumerate().skip(1) {
                inputs[p] = unpack(published.links[wire.from as usize]);
                nack |= (published.nack_bits[wire.to_node()] >> wire.to_port() & 1) << p;
            }
            self.nacks[j] = nack;
        }
    }

    /// The processor of the range's node `i` hands its oldest ready message to the router,
    /// if it is idle.
    fn hand_over(&mut self, cycle: &Cycle, i: usize) {
        let kept = &mut self.kept;
        let state = &mut kept.state[i];
        let queue = &mut kept.queues[i];
        let router = &mut kept.routers[i];
        if state.queued == 0
            || !state.router_quiet && !router.is_idle()
            || queue.peek().is_none_or(|q| q.0.ready > cycle.t)
        {
            return;
        }
        let Queued(message) = queue.pop().expect("peeked");
        state.queued -= 1;
        let routes = cycle
            .plan
            .routes(message.src as usize, message.dst as usize);
        let dst_address = cycle
            .acked
            .then(|| cycle.plan.address(message.dst as usize));
        router.accept(cycle.router, cycle.t, message, routes, dst_address);
        state.router_quiet = false;
    }
}

/// A range's phase 2.
struct Clock<'a> {
    order: &'a [u32],
    /// The next cycle's bit set, the range's words: nodes `kept.base` on.
    next: &'a mut [u64],
    kept: KeptRange<'a>,
    published: PublishedRange<'a>,
    inputs: &'a [Word],
    nacks: &'a [u16],
    out: &'a mut RangeOut,
}

impl Clock<'_> {
    /// Node `v` is stepped in the next cycle.
    fn mark(&mut self, v: usize) {
        let (word, first) = (v / 64, self.kept.base / 64);
        if (first..first + self.next.len()).contains(&word) {
            self.next[word - first] |= 1 << (v % 64);
        } else {
            self.out.elsewhere.push(v as u32);
        }
    }

    fn run(mut self, cycle: &Cycle) {
        let ports = cycle.ports;
        self.out.events.clear();
        self.out.longest_hold = 0;
        for (j, &v) in self.order.iter().enumerate() {
            let i = v as usize - self.kept.base;
            // The FIFO's refusal of this cycle, from its counts before the clock.
            let refuses = self.kept.routers[i].refuses(cycle.router);
            self.clock_router(cycle, v, i);
            let inputs = &self.inputs[j * ports..][..ports];
            // A quiet switch with idle inputs stays as it is: its step can be skipped.
            if !self.kept.state[i].quiet || inputs.iter().any(|w| w.valid) {
                self.step_switch(cycle, i, (inputs, self.nacks[j]), refuses);
            }
            if self.kept.state[i].busy() {
                self.mark(v as usize);
            }
        }
    }

    /// Clocks the range's node `i` (node `v`)'s router unless it is quiet and nothing
    /// arrives, keeping its events.
    fn clock_router(&mut self, cycle: &Cycle, v: u32, i: usize) {
        // The switch's port 0 as last published: the switch's own state stays untouched
        // unless it must step.
        let nack = self.published.nack_bits[i] & 1 == 1;
        let arriving = unpack(self.published.links[i * cycle.ports]);
        let state = &mut self.kept.state[i];
        if state.router_quiet && !arriving.valid {
            return;
        }
        let router = &mut self.kept.routers[i];
        if let Some(receive) = &cycle.router.receive {
            let ready = receive.ready(v as usize, cycle.t);
            let taken = router.clock_fifo(receive, arriving, ready);
            self.out.rx_taken += u64::from(taken && cycle.counting);
        }
        router.clock(cycle.router, cycle.t, nack, arriving, &mut self.out.clocked);
        state.router_quiet = router.is_quiet();
        let events = &mut self.out.events;
        events.extend(self.out.clocked.drain(..).map(|event| (v, event)));
    }

    /// Steps the range's node `i`'s switch with its inputs and output links' NACKs, output
    /// 0 refused when the router's FIFO `refuses`, publishing its outputs and marking for
    /// the next cycle the neighbours it sends to; while the cycle is counted, the words its
    /// links carry, the NACKs it sends back and the heads its FIFO refused are counted.
    fn step_switch(
        &mut self,
        cycle: &Cycle,
        i: usize,
        (inputs, nacks): (&[Word], u16),
        refuses: bool,
    ) {
        let ports = cycle.ports;
        let v = self.kept.base + i;
        let state = &mut self.kept.state[i];
        let switch = &mut self.kept.switches[i];
        let for_router = match refuses && cycle.counting {
            true => switch.heads_for(inputs, 0),
            false => 0,
        };
        switch.step_masked(
            inputs,
            nacks,
            u64::from(state.fault_mask | u16::from(refuses)),
        );
        let refused = (0..ports).filter(|&p| for_router >> p & 1 == 1 && switch.in_nack(p));
        self.out.rx_refused += refused.count() as u64;
        let (mut nack_bits, mut sent) = (0u16, 0u16);
        let published = &mut self.published;
        for p in 0..ports {
            let w = switch.out_word(p);
            published.links[i * ports + p] = pack(w);
            let nack = switch.in_nack(p);
            nack_bits |= u16::from(nack) << p;
            if w.valid && p > 0 {
                sent |= 1 << p;
                if cycle.counting {
                    published.words_out[i * ports + p] += 1;
                }
            }
            if nack && p > 0 && cycle.counting {
                published.nacks_in[i * ports + p] += 1;
            }
        }
        published.nack_bits[i] = nack_bits;
        state.quiet = switch.is_quiet();
        self.out.longest_hold = self.out.longest_hold.max(switch.longest_buffer_hold());
        while sent != 0 {
            let p = sent.trailing_zeros() as usize;
            self.mark(cycle.wires[v * ports + p].to_node());
            sent &= sent - 1;
        }
    }
}
