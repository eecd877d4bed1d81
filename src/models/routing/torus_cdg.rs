//! The channel dependency graph of a k-ary n-cube routing relation, and a cycle in it.
//!
//! In: a [`Router`] (the golden routing function of Demaine and Srinivas's k-ary n-cube
//! paper) and a fault set. Out: a [`ChannelGraph`]: channel c1 depends on c2 when a message
//! that arrived over c1 may next ask for c2, and [`ChannelGraph::cycle`], the shortest cycle
//! through the lowest channel that lies on one, or none. An acyclic graph means the routing
//! relation is deadlock-free under wormhole flow control without virtual channels (Dally and
//! Seitz); docs/torus.md says what a cycle does and does not mean for the adaptive
//! algorithms.
//!
//! Nothing is guessed from the algorithms' definitions: the states (channel held, header,
//! destination) are found by walking the routing function itself from every source to
//! every destination, and at every state every output the router may choose is followed.
//! A router forwards on the first allowed port its mask leaves free, and the mask holds the
//! faulty ports and the busy ones; since any port can be busy, every allowed port that is
//! not faulty may be chosen, each with the header [`Router::step`] sends on it.

use crate::routing::torus::{Action, Header, Router};
use crate::topology::torus::{Faults, Link, Node, Port, PortMask, Torus, TorusError};
use std::collections::{BTreeMap, VecDeque};
use thiserror::Error;

/// Largest cube analysed: the walk visits every (channel, header) for every destination,
/// which takes about 0.3 s for the 512 nodes of the 8-ary 3-cube and 20 s for the 3125
/// nodes of the 5-ary 5-cube.
pub const MAX_NODES: usize = 4096;

/// Why a graph cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CdgError {
    #[error(
        "the channel dependency analysis walks every destination of every node: the {cube} has {nodes} nodes, more than {MAX_NODES}"
    )]
    TooLarge { cube: Torus, nodes: String },
    #[error(transparent)]
    Torus(#[from] TorusError),
}

/// The dependencies between the channels (output links) of one cube under one routing
/// relation. Channel `c` is output port `c % 2n` of node `c / 2n` (node index order, then
/// port order `+0, -0, +1, ...`); channels a node lacks (k = 2) have no dependencies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelGraph {
    torus: Torus,
    /// Per channel, the index of the node it leads to (`usize::MAX` for an absent port).
    head: Vec<usize>,
    /// Per channel, the ports of the node it leads to that a message on it may ask for.
    waits_for: Vec<PortMask>,
    /// The forced part of `waits_for`: ports that some reachable state on the channel has
    /// as its only non-faulty choice, so that message cannot go anywhere else.
    forced: Vec<PortMask>,
    /// Per dependency (channel, channel): the message state that first created it.
    origins: BTreeMap<(usize, usize), Origin>,
    /// Reachable (channel, header, destination) states where every allowed port is faulty.
    stranded: usize,
}

/// Marks a state reached by a source's first hop, which has no state before it.
const NO_PARENT: u32 = u32::MAX;

/// The message state that created a dependency (c, w): a message to node `dst` that took
/// the channels `route` from its source, the last being c, and may next ask for w. Its
/// header on c follows from the route: [`Router::step`] sent it on each of those hops.
/// `busy` counts the ports that must be busy for it to go that way (on its route and for
/// w): of the states that create the dependency, the walk keeps the first with the
/// fewest, so that a placed message takes its route on its own wherever it can.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Origin {
    dst: usize,
    route: Vec<usize>,
    busy: u32,
}

/// The states one destination's walk has reached, and those still to expand. States are
/// numbered below `MAX_NODES * 2n * 2n^2`, which fits a `u32` for every cube allowed.
struct Walk {
    /// `seen[state] == d + 1` marks a state visited in destination d's walk (no clearing
    /// between destinations).
    seen: Vec<u32>,
    /// The state each state was first reached from in its walk ([`NO_PARENT`] for a
    /// source's first hop), so that the route to it can be traced back.
    parent: Vec<u32>,
    /// The ports that had to be busy along that route.
    busy: Vec<u32>,
    queue: VecDeque<usize>,
}

impl Walk {
    /// Queues `state` if destination `d`'s walk has not reached it yet, reached from
    /// `from` with `busy` ports busy so far.
    fn visit(&mut self, d: usize, state: usize, from: u32, busy: u32) {
        if self.seen[state] != d as u32 + 1 {
            self.seen[state] = d as u32 + 1;
            self.parent[state] = from;
            self.busy[state] = busy;
            self.queue.push_back(state);
        }
    }

    /// The channels of the walk that first reached `state`, from its source's first hop
    /// to the state's own channel.
    fn route_to(&self, mut state: usize, headers: usize) -> Vec<usize> {
        let mut route = vec![state / headers];
        while self.parent[state] != NO_PARENT {
            state = self.parent[state] as usize;
            route.push(state / headers);
        }
        route.reverse();
        route
    }
}

/// A message that creates a dependency (see [`ChannelGraph::origin`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DependencyOrigin {
    pub src: Node,
    pub dst: Node,
    /// The links it took from its source; the last is the dependency's first channel.
    pub route: Vec<Link>,
}

/// The header fields a router can change, as one number: the destination is fixed per walk.
fn header_code(header: &Header, n: usize) -> usize {
    (usize::from(header.f) * n + header.x) * n + header.y
}

fn header_of(code: usize, n: usize, dst: &Node) -> Header {
    Header {
        dst: dst.clone(),
        f: code / (n * n) == 1,
        x: code / n % n,
        y: code % n,
    }
}

/// Every output the router may take at `node` with `header` around the faulty ports
/// `faulty`, each with the header it sends: allowed port i is taken when ports 0..i are
/// faulty or busy and port i is free.
fn choices(router: &Router, node: &Node, header: &Header, faulty: PortMask) -> Vec<(Port, Header)> {
    let allowed = router.candidates(node, header);
    let mut choices = Vec::with_capacity(allowed.len());
    for (i, &port) in allowed.iter().enumerate() {
        if faulty.contains(port) {
            continue;
        }
        let busy = allowed[..i].iter().fold(faulty, |mask, &p| mask.with(p));
        let decision = router.step(node, header, busy);
        debug_assert_eq!(decision.action, Action::Forward(port));
        choices.push((port, decision.header));
    }
    choices
}

impl ChannelGraph {
    /// Builds the graph by a breadth-first walk over (channel, header) states for every
    /// destination, starting from the first hop of every source. Faulty nodes neither send
    /// nor receive.
    pub fn build(router: &Router, faults: &Faults) -> Result<ChannelGraph, CdgError> {
        let torus = *router.torus();
        let count = torus.enumerable_node_count()?;
        if count > MAX_NODES {
            return Err(CdgError::TooLarge {
                cube: torus,
                nodes: format!("{}^{}", torus.k(), torus.n()),
            });
        }
        let n = torus.n();
        let ports = torus.eject_port();
        let nodes: Vec<Node> = torus.nodes()?.collect();
        let faulty: Vec<PortMask> = nodes.iter().map(|v| faults.mask(&torus, v)).collect();
        let head: Vec<usize> = (0..count * ports)
            .map(|c| {
                torus
                    .neighbour(&nodes[c / ports], Port::from_index(c % ports))
                    .map_or(usize::MAX, |w| torus.index_of(&w))
            })
            .collect();
        let headers = 2 * n * n;
        let mut waits_for = vec![PortMask::empty(); count * ports];
        let mut forced = vec![PortMask::empty(); count * ports];
        let mut origins = BTreeMap::new();
        let mut stranded = 0;
        let mut walk = Walk {
            seen: vec![0; count * ports * headers],
            parent: vec![NO_PARENT; count * ports * headers],
            busy: vec![0; count * ports * headers],
            queue: VecDeque::new(),
        };
        let live = |v: usize| !faults.is_faulty_node(&nodes[v]);
        for d in (0..count).filter(|&d| live(d)) {
            let dst = &nodes[d];
            let state = |c: usize, h: &Header| c * headers + header_code(h, n);
            for s in (0..count).filter(|&s| s != d && live(s)) {
                let header = router.initial_header(dst.clone());
                let first_hops = choices(router, &nodes[s], &header, faulty[s]);
                for (busy, (port, next)) in (0..).zip(first_hops) {
                    walk.visit(d, state(s * ports + port.index(), &next), NO_PARENT, busy);
                }
            }
            while let Some(from) = walk.queue.pop_front() {
                let c = from / headers;
                let v = head[c];
                if v == d {
                    continue;
                }
                let header = header_of(from % headers, n, dst);
                let next = choices(router, &nodes[v], &header, faulty[v]);
                match next.as_slice() {
                    [] => stranded += 1,
                    [(port, _)] => forced[c] = forced[c].with(*port),
                    _ => {}
                }
                // The i-th choice is taken when the i non-faulty ports before it are busy.
                for (i, (port, h)) in (0..).zip(next) {
                    let w = v * ports + port.index();
                    let busy = walk.busy[from] + i;
                    if origins.get(&(c, w)).is_none_or(|o: &Origin| busy < o.busy) {
                        let route = walk.route_to(from, headers);
                        origins.insert(
                            (c, w),
                            Origin {
                                dst: d,
                                route,
                                busy,
                            },
                        );
                    }
                    waits_for[c] = waits_for[c].with(port);
                    walk.visit(d, state(w, &h), from as u32, busy);
                }
            }
        }
        Ok(ChannelGraph {
            torus,
            head,
            waits_for,
            forced,
            origins,
            stranded,
        })
    }

    /// Number of channels (links) the cube has.
    pub fn channel_count(&self) -> usize {
        self.head.iter().filter(|&&w| w != usize::MAX).count()
    }

    /// Number of dependencies (arcs of the graph).
    pub fn dependency_count(&self) -> usize {
        arc_count(&self.waits_for)
    }

    /// Number of forced dependencies: some message on the first channel has the second as
    /// its only choice.
    pub fn forced_dependency_count(&self) -> usize {
        arc_count(&self.forced)
    }

    /// Reachable (channel, header, destination) states in which every port the algorithm
    /// allows is faulty: such a message holds its channels forever without any cycle.
    pub fn stranded_states(&self) -> usize {
        self.stranded
    }

    /// The channels `c` depends on, in port order.
    pub fn successors(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.arcs(&self.waits_for, c)
    }

    /// The message that created the dependency `from -> to`, or `None` if there is no such
    /// dependency: the first state the walk found with `from` held that may ask for `to`
    /// (destinations in node order, then breadth first), and the route it came by. A
    /// message sent from that source to that destination, finding busy exactly the ports
    /// the route passed over, holds `from` and asks for `to`.
    pub fn origin(&self, from: &Link, to: &Link) -> Option<DependencyOrigin> {
        let channel = |link: &Link| {
            self.torus.index_of(&link.node) * self.torus.eject_port() + link.port.index()
        };
        let origin = self.origins.get(&(channel(from), channel(to)))?;
        let route: Vec<Link> = origin
            .route
            .iter()
            .map(|&c| self.link_of(c).expect("a walked channel exists"))
            .collect();
        Some(DependencyOrigin {
            src: route[0].node.clone(),
            dst: self.torus.node_at(origin.dst),
            route,
        })
    }

    /// The channels `masks[c]` names at the node `c` leads to, in port order.
    fn arcs<'a>(&'a self, masks: &'a [PortMask], c: usize) -> impl Iterator<Item = usize> + 'a {
        let ports = self.torus.eject_port();
        masks[c]
            .ports()
            .map(move |p| self.head[c] * ports + p.index())
    }

    /// The link channel `c` is, or `None` for a port its node lacks.
    pub fn link_of(&self, c: usize) -> Option<Link> {
        let ports = self.torus.eject_port();
        let node = self.torus.node_at(c / ports);
        let port = Port::from_index(c % ports);
        self.torus
            .has_port(&node, port)
            .then_some(Link { node, port })
    }

    fn channels(&self) -> std::ops::Range<usize> {
        0..self.waits_for.len()
    }

    /// `None` if the graph is acyclic; otherwise the shortest cycle through the lowest
    /// channel that lies on any cycle (breadth first, successors in port order), starting
    /// at that channel.
    pub fn cycle(&self) -> Option<Vec<Link>> {
        self.find_cycle(&self.waits_for)
    }

    /// The same search over the forced dependencies only. Messages placed in the states
    /// that force its arcs each hold one channel of the cycle and can only wait for the
    /// next: a deadlock even for adaptive routing, where a cycle of [`cycle`] may not be.
    ///
    /// [`cycle`]: ChannelGraph::cycle
    pub fn forced_cycle(&self) -> Option<Vec<Link>> {
        self.find_cycle(&self.forced)
    }

    /// Channels left after peeling off every channel no cycle reaches (Kahn's algorithm)
    /// are the candidates, lowest first.
    fn find_cycle(&self, masks: &[PortMask]) -> Option<Vec<Link>> {
        let mut indegree = vec![0usize; self.waits_for.len()];
        for c in self.channels() {
            for w in self.arcs(masks, c) {
                indegree[w] += 1;
            }
        }
        let mut free: Vec<usize> = self.channels().filter(|&c| indegree[c] == 0).collect();
        let mut peeled = vec![false; self.waits_for.len()];
        while let Some(c) = free.pop() {
            peeled[c] = true;
            for w in self.arcs(masks, c) {
                indegree[w] -= 1;
                if indegree[w] == 0 {
                    free.push(w);
                }
            }
        }
        self.channels()
            .filter(|&c| !peeled[c])
            .find_map(|c| self.shortest_cycle_through(masks, c))
            .map(|cycle| {
                cycle
                    .into_iter()
                    .map(|c| self.link_of(c).expect("a channel on a cycle exists"))
                    .collect()
            })
    }

    fn shortest_cycle_through(&self, masks: &[PortMask], start: usize) -> Option<Vec<usize>> {
        let mut parent = vec![usize::MAX; self.waits_for.len()];
        let mut queue = VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            for w in self.arcs(masks, c) {
                if w == start {
                    let mut cycle = vec![c];
                    while *cycle.last().expect("not empty") != start {
                        cycle.push(parent[*cycle.last().expect("not empty")]);
                    }
                    cycle.reverse();
                    return Some(cycle);
                }
                if parent[w] == usize::MAX {
                    parent[w] = c;
                    queue.push_back(w);
                }
            }
        }
        None
    }
}

fn arc_count(masks: &[PortMask]) -> usize {
    masks.iter().map(|m| m.bits().count_ones() as usize).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::Choice;
    use crate::routing::torus::{Algorithm, Reading};
    use std::collections::{BTreeSet, HashSet};

    fn cube(k: u64, n: u64) -> Torus {
        Torus::new(k, n).unwrap()
    }

    fn dependencies(graph: &ChannelGraph) -> BTreeSet<(Link, Link)> {
        graph
            .channels()
            .flat_map(|c| graph.successors(c).map(move |w| (c, w)))
            .map(|(c, w)| (graph.link_of(c).unwrap(), graph.link_of(w).unwrap()))
            .collect()
    }

    /// The dependencies found another way: every walk of every message, depth first, where
    /// at each router every subset of the allowed ports is tried as the busy set and the
    /// port `step` then forwards on is followed; consecutive links of a walk depend.
    fn walked_dependencies(router: &Router, faults: &Faults) -> BTreeSet<(Link, Link)> {
        fn walk(
            router: &Router,
            faults: &Faults,
            node: &Node,
            header: &Header,
            came: Option<&Link>,
            found: &mut BTreeSet<(Link, Link)>,
        ) {
            let torus = router.torus();
            let allowed = router.candidates(node, header);
            let mut taken = HashSet::new();
            for busy in 0..1u32 << allowed.len() {
                let mask = allowed
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| busy >> i & 1 == 1)
                    .fold(faults.mask(torus, node), |m, (_, &p)| m.with(p));
                let decision = router.step(node, header, mask);
                if let Action::Forward(port) = decision.action {
                    taken.insert((port, decision.header));
                }
            }
            for (port, next) in taken {
                let link = Link {
                    node: node.clone(),
                    port,
                };
                if let Some(came) = came {
                    found.insert((came.clone(), link.clone()));
                }
                let w = torus.neighbour(node, port).unwrap();
                walk(router, faults, &w, &next, Some(&link), found);
            }
        }
        let torus = router.torus();
        let mut found = BTreeSet::new();
        for src in torus.nodes().unwrap() {
            for dst in torus.nodes().unwrap().filter(|d| *d != src) {
                let header = router.initial_header(dst);
                walk(router, faults, &src, &header, None, &mut found);
            }
        }
        found
    }

    /// Every algorithm that runs on `torus` under every reading it takes.
    fn all_routers(torus: Torus) -> Vec<Router> {
        Algorithm::ALL
            .iter()
            .flat_map(|&a| Reading::ALL.iter().map(move |&r| (a, r)))
            .filter_map(|(a, r)| Router::with_reading(torus, a, r).ok())
            .collect()
    }

    #[test]
    fn dependencies_are_the_consecutive_links_of_every_walk() {
        for (k, n) in [(3, 3), (4, 2), (5, 2), (6, 2), (4, 3)] {
            let torus = cube(k, n);
            let mut faulty = Faults::new();
            faulty.insert_link(
                torus
                    .parse_link(&format!("{}:+0", torus.node_at(1)))
                    .unwrap(),
            );
            faulty.insert_link(
                torus
                    .parse_link(&format!("{}:-1", torus.node_at(0)))
                    .unwrap(),
            );
            for router in all_routers(torus) {
                for faults in [Faults::new(), faulty.clone()] {
                    let graph = ChannelGraph::build(&router, &faults).unwrap();
                    assert_eq!(
                        dependencies(&graph),
                        walked_dependencies(&router, &faults),
                        "{torus} {} {faults:?}",
                        router.label()
                    );
                }
            }
        }
    }

    #[test]
    fn faults_only_remove_dependencies() {
        let torus = cube(5, 3);
        let mut faults = Faults::new();
        faults.insert_link(torus.parse_link("0,0,0:-0").unwrap());
        faults.insert_link(torus.parse_link("0,1,0:-1").unwrap());
        faults.insert_node(torus.parse_node("2,2,2").unwrap());
        for algorithm in [Algorithm::ECube, Algorithm::DirectionFirst] {
            let router = Router::new(torus, algorithm).unwrap();
            let free = dependencies(&ChannelGraph::build(&router, &Faults::new()).unwrap());
            let faulty = dependencies(&ChannelGraph::build(&router, &faults).unwrap());
            assert!(faulty.is_subset(&free));
            assert!(faulty.len() < free.len());
            // Nothing waits on a faulty link or on a link into or out of a faulty node.
            for (a, b) in &faulty {
                for link in [a, b] {
                    assert!(!faults.links().any(|f| f == link));
                    assert!(!faults.is_faulty_node(&link.node));
                    let w = torus.neighbour(&link.node, link.port).unwrap();
                    assert!(!faults.is_faulty_node(&w));
                }
            }
        }
    }

    #[test]
    fn west_first_never_waits_for_a_wraparound() {
        // Only the first hop of a west-first route may wrap, and a message at its source
        // holds no channel: no dependency ends in a wraparound link (derived by hand).
        // Without them west-first is Glass and Ni's mesh routing, which is acyclic.
        for k in 3..=8 {
            let torus = cube(k, 2);
            let router = Router::new(torus, Algorithm::WestFirst).unwrap();
            let graph = ChannelGraph::build(&router, &Faults::new()).unwrap();
            let deps = dependencies(&graph);
            assert!(deps.iter().all(|(_, b)| !torus.is_wrap(&b.node, b.port)));
            assert!(deps.iter().any(|(a, _)| torus.is_wrap(&a.node, a.port)));
            assert_eq!(graph.cycle(), None, "{torus}");
        }
    }

    #[test]
    fn the_witness_is_a_cycle_of_dependencies() {
        for (k, n, algorithm) in [
            (5, 2, Algorithm::ECube),
            (6, 3, Algorithm::DoubleECube),
            (5, 3, Algorithm::DirectionFirst),
        ] {
            let router = Router::new(cube(k, n), algorithm).unwrap();
            let graph = ChannelGraph::build(&router, &Faults::new()).unwrap();
            let deps = dependencies(&graph);
            let cycle = graph.cycle().unwrap();
            for (i, link) in cycle.iter().enumerate() {
                let next = &cycle[(i + 1) % cycle.len()];
                assert!(deps.contains(&(link.clone(), next.clone())));
            }
            let distinct: BTreeSet<&Link> = cycle.iter().collect();
            assert_eq!(distinct.len(), cycle.len());
        }
    }

    #[test]
    fn forced_dependencies_are_all_of_e_cube_and_part_of_the_adaptive_ones() {
        // E-cube allows one port per state, so every dependency is forced; forced
        // dependencies are always some of the dependencies.
        let torus = cube(5, 3);
        for algorithm in [Algorithm::ECube, Algorithm::DirectionFirst] {
            let router = Router::new(torus, algorithm).unwrap();
            let graph = ChannelGraph::build(&router, &Faults::new()).unwrap();
            for c in graph.channels() {
                assert_eq!(graph.forced[c].bits() & !graph.waits_for[c].bits(), 0);
            }
            // Direction-first: a state that may wrap may also go the mesh way, so no
            // dependency into a wraparound link is forced.
            assert_eq!(
                graph.forced == graph.waits_for,
                algorithm == Algorithm::ECube
            );
        }
    }

    #[test]
    fn keep_makes_direction_first_acyclic_on_the_sweep_grid() {
        // Under `keep` a worm finishes one torus before it selects the next, the tori in
        // increasing order of their dimensions (double e-cube's order, the proof of
        // Theorem 5.1), so no dimension gets a second wraparound after hops in another,
        // which is what closes the default reading's cycles (n = 3, k >= 5). The graph
        // is acyclic on the whole grid of the sweep; about 1 s here.
        for n in 2..=3 {
            for k in 3..=8 {
                let torus = cube(k, n);
                let keep = |algorithm| Router::with_reading(torus, algorithm, Reading::Keep);
                let graph =
                    ChannelGraph::build(&keep(Algorithm::DirectionFirst).unwrap(), &Faults::new())
                        .unwrap();
                assert_eq!(graph.cycle(), None, "{torus}");
                let reselect = Router::new(torus, Algorithm::DirectionFirst).unwrap();
                let default = ChannelGraph::build(&reselect, &Faults::new()).unwrap();
                assert_eq!(default.cycle().is_some(), n == 3 && k >= 5, "{torus}");
                // Double e-cube walks e-cube's paths under both readings: same graph.
                let double = |router: Router| {
                    dependencies(&ChannelGraph::build(&router, &Faults::new()).unwrap())
                };
                assert_eq!(
                    double(keep(Algorithm::DoubleECube).unwrap()),
                    double(Router::new(torus, Algorithm::DoubleECube).unwrap()),
                    "{torus}"
                );
            }
        }
    }

    #[test]
    fn keep_on_the_5_ary_3_cube_has_the_dependencies_of_every_walk() {
        // The cube the keep reading's command-line test names, by the second method.
        let torus = cube(5, 3);
        let router = Router::with_reading(torus, Algorithm::DirectionFirst, Reading::Keep).unwrap();
        let graph = ChannelGraph::build(&router, &Faults::new()).unwrap();
        let walked = walked_dependencies(&router, &Faults::new());
        assert_eq!(dependencies(&graph), walked);
        assert_eq!(walked.len(), 2520);
    }

    #[test]
    fn too_large_a_cube_is_refused() {
        let router = Router::new(cube(17, 3), Algorithm::ECube).unwrap();
        assert_eq!(
            ChannelGraph::build(&router, &Faults::new())
                .unwrap_err()
                .to_string(),
            "the channel dependency analysis walks every destination of every node: the 17-ary 3-cube has 17^3 nodes, more than 4096"
        );
    }
}
