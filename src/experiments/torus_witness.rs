//! Whether a cycle of the channel dependency analysis really deadlocks: its messages placed
//! in the wormhole simulator.
//!
//! In: a router, its faulty links, the [`ChannelGraph`] built for them and a cycle of it.
//! Out: a [`Witness`]: one message per dependency c_i -> c_(i+1) of the cycle, the one
//! whose state created that dependency in the analysis ([`ChannelGraph::origin`]), all
//! placed at cycle 0 in the network engine with switches that route
//! ([`crate::network::switch_routed`]) and the same faults, and the run's outcome: deadlock
//! (with the simulator's cycle of worms, and whether it is exactly the analysed cycle) or
//! every message delivered. docs/torus.md, "The witness in the simulator", says why the
//! messages are as long as they are.

use crate::network::cube_run::CubeRun;
use crate::network::net::{Net, NetError};
use crate::network::params::DEFAULT_BUFFER_FLITS;
use crate::network::stats::{RoutingSummary, Summary};
use crate::routing::torus::{Action, Header, Router};
use crate::routing::torus_cdg::ChannelGraph;
use crate::topology::torus::{Faults, Link, Node, PortMask};
use thiserror::Error;

/// Why a cycle cannot be placed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum WitnessError {
    #[error(
        "the wormhole simulator has faulty links only: give the links into faulty node {0} as --faulty-link instead"
    )]
    FaultyNode(Node),
    #[error("{from} -> {to} is not a dependency of the analysed graph")]
    NotADependency { from: Link, to: Link },
    #[error(transparent)]
    Net(#[from] NetError),
}

/// One placed message: it holds `route`'s last link and asks for `wants`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub src: Node,
    pub dst: Node,
    /// The links it takes from its source to the channel it holds.
    pub route: Vec<Link>,
    /// Its header on the channel it holds, as the router sent it there.
    pub header: Header,
    pub wants: Link,
    /// Per hop of `route` and then `wants`, the allowed ports the router prefers to that
    /// hop's that must be busy for it to be taken (empty where it is the first choice).
    pub needs_busy: Vec<Vec<Link>>,
}

/// The placed messages and what the simulator made of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Witness {
    /// Message i (simulator id i) holds the cycle's channel i and asks for channel i + 1.
    pub messages: Vec<Placed>,
    pub message_flits: u64,
    pub summary: Summary,
    /// The summary's figures of switches that route: the deadlock and its waiting worms.
    pub routing: RoutingSummary,
    /// Deadlocked, and the simulator's waiting worms hold the analysed cycle's channels at
    /// their headers, in its order, each asking for the next.
    pub exact: bool,
}

impl Witness {
    /// The channel each of the simulator's waiting worms holds at its header, in the
    /// order it lists them (empty without deadlock; `-` for a worm still at its source).
    pub fn waiting_channels(&self) -> Vec<String> {
        header_channels(&self.routing)
    }

    /// Why the placement need not hold the cycle: the hops a message takes only when ports
    /// it prefers are busy, and sources that send more than one of the messages (one after
    /// the other). Empty when every message's route is its first choice from its own source.
    pub fn unforced(&self) -> Vec<String> {
        let mut reasons = Vec::new();
        for (i, m) in self.messages.iter().enumerate() {
            let hops = m.route.iter().chain([&m.wants]);
            for (hop, busy) in hops.zip(&m.needs_busy).filter(|(_, b)| !b.is_empty()) {
                let busy: Vec<String> = busy.iter().map(Link::to_string).collect();
                reasons.push(format!(
                    "message {i} takes {hop} only when {} {} busy",
                    busy.join(" and "),
                    if busy.len() == 1 { "is" } else { "are" }
                ));
            }
        }
        for (i, m) in self.messages.iter().enumerate() {
            let same: Vec<String> = (i + 1..self.messages.len())
                .filter(|&j| self.messages[j].src == m.src)
                .map(|j| j.to_string())
                .collect();
            let first = self.messages[..i].iter().all(|o| o.src != m.src);
            if first && !same.is_empty() {
                reasons.push(format!(
                    "source {} sends messages {i} and {} one after the other",
                    m.src,
                    same.join(" and ")
                ));
            }
        }
        reasons
    }
}

/// Places one message per dependency of `cycle` (a cycle of `graph`, built for `router`
/// and `faults`) at cycle 0 and runs the simulator until every message is delivered or
/// the worms deadlock.
pub fn place(
    router: &Router,
    faults: &Faults,
    graph: &ChannelGraph,
    cycle: &[Link],
) -> Result<Witness, WitnessError> {
    links_only(faults)?;
    let messages = cycle
        .iter()
        .zip(cycle.iter().cycle().skip(1))
        .map(|(from, to)| placed(router, faults, graph, from, to))
        .collect::<Result<Vec<_>, _>>()?;
    let message_flits = message_flits(&messages);
    let cube = *router.torus();
    let params = CubeRun {
        cube,
        algorithm: router.algorithm(),
        reading: router.reading(),
        rate: 0.0,
        cycles: 0,
        seed: 0,
        message_flits,
        buffer_flits: DEFAULT_BUFFER_FLITS,
        faulty_links: faults.links().cloned().collect(),
        random_faulty_links: 0,
    }
    .params()?;
    let mut net = Net::new(&params)?;
    for m in &messages {
        let index = |node| cube.index_of(node) as u32;
        net.schedule(0, index(&m.src), index(&m.dst), message_flits as u8)?;
    }
    let mut summary = net.run(|_| {});
    let routing = summary
        .routing
        .take()
        .expect("switches that route report their deadlock");
    let exact = routing.deadlock && is_the_cycle(&routing, cycle);
    Ok(Witness {
        messages,
        message_flits,
        summary,
        routing,
        exact,
    })
}

/// The simulator knows faulty links only; a faulty node is refused rather than guessed at.
pub fn links_only(faults: &Faults) -> Result<(), WitnessError> {
    match faults.nodes().next() {
        Some(node) => Err(WitnessError::FaultyNode(node.clone())),
        None => Ok(()),
    }
}

/// Long enough that every worm, blocked with its header at the far end of the channel
/// it holds and its flits packed into full buffers behind, still reaches back to its
/// source: `DEFAULT_BUFFER_FLITS` flits per hop of the longest route. Then each message holds
/// every channel of its route, as in the Dally-Seitz argument, however long the others
/// take to arrive.
fn message_flits(messages: &[Placed]) -> u64 {
    let hops = messages.iter().map(|m| m.route.len()).max().unwrap_or(1);
    DEFAULT_BUFFER_FLITS * hops as u64
}

fn header_channels(routing: &RoutingSummary) -> Vec<String> {
    routing
        .wait_cycle
        .iter()
        .map(|w| w.holds.last().map_or("-".to_string(), String::clone))
        .collect()
}

/// Whether the waiting worms are the analysed cycle: their header channels are the
/// cycle's channels in its order (from any of them), and each asks for the next.
fn is_the_cycle(routing: &RoutingSummary, cycle: &[Link]) -> bool {
    let cycle: Vec<String> = cycle.iter().map(Link::to_string).collect();
    let held = header_channels(routing);
    let wanted = routing.wait_cycle.iter().map(|w| &w.wants);
    let rotation = |r: usize| cycle[r..].iter().chain(&cycle[..r]);
    held.len() == cycle.len()
        && (0..cycle.len()).any(|r| {
            rotation(r).eq(held.iter()) && rotation((r + 1) % cycle.len()).eq(wanted.clone())
        })
}

/// The message that created the dependency `from -> to`, and the ports that must be busy
/// for it to go that way: at each hop the allowed, non-faulty ports its router prefers.
fn placed(
    router: &Router,
    faults: &Faults,
    graph: &ChannelGraph,
    from: &Link,
    to: &Link,
) -> Result<Placed, WitnessError> {
    let origin = graph
        .origin(from, to)
        .ok_or_else(|| WitnessError::NotADependency {
            from: from.clone(),
            to: to.clone(),
        })?;
    let torus = router.torus();
    let mut header = router.initial_header(origin.dst.clone());
    let mut needs_busy = Vec::new();
    let mut held = None;
    for hop in origin.route.iter().chain([to]) {
        if needs_busy.len() == origin.route.len() {
            held = Some(header.clone());
        }
        let faulty = faults.mask(torus, &hop.node);
        let preferred: Vec<_> = router
            .candidates(&hop.node, &header)
            .into_iter()
            .take_while(|&p| p != hop.port)
            .filter(|&p| !faulty.contains(p))
            .collect();
        let mask = preferred.iter().fold(faulty, |m: PortMask, &p| m.with(p));
        let decision = router.step(&hop.node, &header, mask);
        assert_eq!(
            decision.action,
            Action::Forward(hop.port),
            "the analysis walked this hop"
        );
        header = decision.header;
        needs_busy.push(
            preferred
                .into_iter()
                .map(|port| Link {
                    node: hop.node.clone(),
                    port,
                })
                .collect(),
        );
    }
    Ok(Placed {
        src: origin.src,
        dst: origin.dst,
        route: origin.route,
        header: held.expect("the wanted hop follows the route"),
        wants: to.clone(),
        needs_busy,
    })
}
