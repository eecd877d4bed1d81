//! Golden models of routing on the k-ary n-cube from Demaine and Srinivas, "A novel routing
//! algorithm for k-ary n-cube interconnection networks" (see docs/papers.md): e-cube,
//! double e-cube, west-first on the 2-D torus, and direction-first e-cube, with faulty links
//! and nodes.
//!
//! In: a [`Torus`], an [`Algorithm`], and per router evaluation the current node, the
//! message [`Header`] (destination, f, x, y) and the [`PortMask`] of faulty or busy output
//! ports. Out: a [`Decision`] (forward on a port, deliver, or blocked) with the updated
//! header. [`Router::step`] is exactly what one router computes, so hardware is compared
//! with it evaluation by evaluation; [`Router::route`] chains steps from source to
//! destination over a fixed fault set. docs/torus.md states every rule and its source.
//!
//! Rules shared by the adaptive algorithms (west-first, direction-first), reconstructed
//! from the paper's sections 4.3 and 5:
//! - Routing happens in the 2-D torus of two dimensions X = `x`, Y = `y`; "west" is `-X`.
//! - A wraparound link may be used only on the first hop in a torus, which a router
//!   recognises by the header's (x, y) differing from the pair it selects.
//! - Every hop is productive: it shortens the mesh distance (the distance with no
//!   wraparound links) to the destination; no misrouting, so routes are loop-free.
//! - West first: while the destination lies west in the mesh (dst digit < current digit
//!   in X), only X moves are candidates, so no west hop ever follows a non-west hop.
//!
//! When the pair of dimensions is chosen is the [`Reading`]: the paper's pseudo-code
//! re-selects it at every node (`reselect`, the default), its prose, Fig. 3 and the proof
//! of Theorem 5.1 keep it until both dimensions are correct (`keep`). Only the algorithms
//! that choose a pair (double e-cube, direction-first) take `keep`.

use crate::bits::ceil_log2;
use crate::choice::{Choice, choice};
use crate::topology::torus::{Dir, Faults, Node, Port, PortMask, Torus, TorusError};
use std::cmp::Ordering;
use thiserror::Error;

choice! {
    /// The routing algorithms of Demaine and Srinivas's k-ary n-cube paper.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Algorithm {
        ECube = "e-cube": "Dimension order, lowest dimension first, the shorter way round each ring",
        DoubleECube = "double-e-cube": "E-cube that records the two lowest incorrect dimensions in the header (section 4.2)",
        WestFirst = "west-first": "West-first in the 2-D torus of dimensions 0 (X) and 1 (Y); n = 2 only",
        DirectionFirst = "direction-first": "Direction-first e-cube: west-first in the torus of the two lowest incorrect dimensions (section 5)",
    }
}

choice! {
    /// When double e-cube and direction-first choose the pair of dimensions (the torus) a
    /// worm routes in. The header is (dst, f, x, y) under both: under `keep`, (x, y) is the
    /// torus the worm is in, and x = y (only the source's f = x = y = 0) means none yet.
    /// Wraparound permission is the same rule under both: only the hop on which the router
    /// selects a new pair (the header's (x, y) differs from it) may wrap; every later hop in
    /// that torus goes the mesh way, which continues a wrap's direction, so each dimension's
    /// way is fixed by that first hop without a header bit.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub enum Reading {
        #[default]
        Reselect = "reselect": "Step 1 at every node: the pair is the two lowest incorrect dimensions where the worm is (the paper's pseudo-code)",
        Keep = "keep": "A worm keeps its pair until both its dimensions are correct, then selects the next (the paper's prose, Fig. 3 and proof)",
    }
}

/// An algorithm's name as reports print it: the name alone under the default reading,
/// followed by the reading otherwise, e.g. `direction-first (keep reading)`.
pub fn algorithm_label(algorithm: Algorithm, reading: Reading) -> String {
    match reading {
        Reading::Reselect => algorithm.name().to_string(),
        Reading::Keep => format!("{} ({} reading)", algorithm.name(), reading.name()),
    }
}

/// The routing header a message carries: the destination and the paper's f, x, y.
///
/// `x` and `y` are the dimensions of the torus the message routes in, f is 1 iff the
/// designated direction (west, `-x`) has been used in that torus. E-cube passes f, x, y
/// through unchanged; double e-cube writes x, y and never f.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Header {
    pub dst: Node,
    pub f: bool,
    pub x: usize,
    pub y: usize,
}

/// What a router does with a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Send it on this output port.
    Forward(Port),
    /// It has arrived: send it to the local (eject) port.
    Deliver,
    /// Every port the algorithm allows here is masked: the message waits.
    Blocked,
}

/// A router's output: the action and the header to send with it. On `Deliver` and
/// `Blocked` the header is the input header unchanged; the update of (f, x, y) belongs to
/// the hop actually taken, so a blocked message that retries still sees its first hop in
/// a torus as the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub action: Action,
    pub header: Header,
}

/// One router evaluation along a route: its inputs and its decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    pub node: Node,
    pub header: Header,
    pub mask: PortMask,
    pub decision: Decision,
}

/// A walk of one message: every router evaluation from the source on. The last one
/// delivers or is blocked; all before it forward.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub hops: Vec<Hop>,
}

/// Why a router cannot be built or a route cannot be walked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RoutingError {
    #[error("west-first routes on a 2-D torus: it needs n = 2, got n = {0}")]
    WestFirstDimensions(usize),
    #[error("{0} needs n >= 2 (it routes in the torus of two dimensions at a time), got n = 1")]
    PairDimensions(&'static str),
    #[error(
        "reading 'keep' applies to the algorithms that select a pair of dimensions as they go (double-e-cube, direction-first), not to {0}"
    )]
    KeepWithoutPair(&'static str),
    #[error(transparent)]
    Node(#[from] TorusError),
    #[error("source and destination are both {0}; a route needs two different nodes")]
    SameEndpoints(Node),
    #[error("source {0} is a faulty node")]
    FaultySource(Node),
    #[error("destination {0} is a faulty node")]
    FaultyDestination(Node),
    #[error("no delivery to {dst} within {limit} hops: the routing livelocks")]
    HopLimit { dst: Node, limit: usize },
}

/// The routing function of one algorithm on one cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Router {
    torus: Torus,
    algorithm: Algorithm,
    reading: Reading,
}

/// How the adaptive algorithms order the moves they may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Priority {
    /// X before Y, and in each the wraparound before the mesh way (direction-first).
    DimensionOrder,
    /// Wraparounds first, the one saving most hops first, X on a tie; then X, then Y
    /// (west-first, whose only chance to wrap is the first hop of the whole route).
    LargestSaving,
}

/// What a router may do at a node, before looking at the mask.
struct Plan {
    /// Allowed ports, most preferred first.
    ports: Vec<Port>,
    /// The header to send, before f records a west hop.
    header: Header,
    /// The port that counts as "the direction" for f, if the algorithm keeps f.
    west: Option<Port>,
}

/// Header width in bits per Theorem 5.4 of Demaine and Srinivas's k-ary n-cube paper, each
/// field rounded up on its own: `2 ceil(log2 n) + n ceil(log2 k) + 1` (x and y, one digit
/// field per dimension, f).
pub fn header_width_bits(k: u32, n: usize) -> u32 {
    let layout = HeaderLayout::new(k, n);
    layout.fields().iter().map(|field| field.width).sum()
}

/// Where each header field sits, least significant bit first: the destination digits
/// x0..x(n-1), then x, then y, then f.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeaderLayout {
    k: u32,
    n: usize,
}

/// One field of the header: bits `lsb .. lsb + width`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub lsb: u32,
    pub width: u32,
}

impl HeaderLayout {
    pub fn new(k: u32, n: usize) -> HeaderLayout {
        HeaderLayout { k, n }
    }

    /// Every field in bit order. A digit field holds `0..k`, x and y hold `0..n`.
    pub fn fields(&self) -> Vec<Field> {
        let digit = ceil_log2(self.k as u64);
        let dimension = ceil_log2(self.n as u64);
        let mut fields = Vec::with_capacity(self.n + 3);
        let mut lsb = 0;
        let mut push = |name: String, width: u32| {
            fields.push(Field { name, lsb, width });
            lsb += width;
        };
        for d in 0..self.n {
            push(format!("dst.x{d}"), digit);
        }
        push("x".to_string(), dimension);
        push("y".to_string(), dimension);
        push("f".to_string(), 1);
        fields
    }
}

impl Router {
    /// The router of the default reading ([`Reading::Reselect`]); see
    /// [`Router::with_reading`].
    pub fn new(torus: Torus, algorithm: Algorithm) -> Result<Router, RoutingError> {
        Router::with_reading(torus, algorithm, Reading::default())
    }

    /// Checks the algorithm runs on this cube: west-first needs n = 2, double e-cube and
    /// direction-first need a second dimension; `keep` needs an algorithm that chooses a
    /// pair (e-cube has none, west-first's is fixed).
    pub fn with_reading(
        torus: Torus,
        algorithm: Algorithm,
        reading: Reading,
    ) -> Result<Router, RoutingError> {
        match algorithm {
            Algorithm::WestFirst if torus.n() != 2 => {
                Err(RoutingError::WestFirstDimensions(torus.n()))
            }
            Algorithm::DoubleECube | Algorithm::DirectionFirst if torus.n() < 2 => {
                Err(RoutingError::PairDimensions(algorithm.name()))
            }
            Algorithm::ECube | Algorithm::WestFirst if reading == Reading::Keep => {
                Err(RoutingError::KeepWithoutPair(algorithm.name()))
            }
            _ => Ok(Router {
                torus,
                algorithm,
                reading,
            }),
        }
    }

    pub fn torus(&self) -> &Torus {
        &self.torus
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    pub fn reading(&self) -> Reading {
        self.reading
    }

    /// The algorithm's name with its reading, as reports print it ([`algorithm_label`]).
    pub fn label(&self) -> String {
        algorithm_label(self.algorithm, self.reading)
    }

    /// The header a source injects: the paper's initial values f = x = y = 0.
    pub fn initial_header(&self, dst: Node) -> Header {
        Header {
            dst,
            f: false,
            x: 0,
            y: 0,
        }
    }

    /// Longest route any of these algorithms can take: each hop shortens the mesh distance
    /// (e-cube: the torus distance), which is at most n(k-1). A longer walk is a livelock.
    pub fn hop_limit(&self) -> usize {
        self.torus.n() * (self.torus.k() as usize - 1)
    }

    /// The ports the algorithm allows at `current`, most preferred first; empty at the
    /// destination. `header.x` and `header.y` must be below n.
    pub fn candidates(&self, current: &Node, header: &Header) -> Vec<Port> {
        if *current == header.dst {
            return Vec::new();
        }
        self.plan(current, header).ports
    }

    /// One router evaluation: deliver at the destination, else forward on the first allowed
    /// port that `mask` leaves free, else block. `header.x` and `header.y` must be below n.
    pub fn step(&self, current: &Node, header: &Header, mask: PortMask) -> Decision {
        let unchanged = |action| Decision {
            action,
            header: header.clone(),
        };
        if *current == header.dst {
            return unchanged(Action::Deliver);
        }
        let plan = self.plan(current, header);
        match plan.ports.iter().find(|&&port| !mask.contains(port)) {
            None => unchanged(Action::Blocked),
            Some(&port) => {
                let mut header = plan.header;
                header.f |= plan.west == Some(port);
                Decision {
                    action: Action::Forward(port),
                    header,
                }
            }
        }
    }

    /// Walks a message from `src` to `dst` around `faults`: delivered, or blocked where
    /// every allowed port is faulty. A walk longer than [`Router::hop_limit`] is an error.
    pub fn route(&self, src: &Node, dst: &Node, faults: &Faults) -> Result<Route, RoutingError> {
        self.torus.node(src.digits().to_vec())?;
        self.torus.node(dst.digits().to_vec())?;
        if src == dst {
            return Err(RoutingError::SameEndpoints(src.clone()));
        }
        if faults.is_faulty_node(src) {
            return Err(RoutingError::FaultySource(src.clone()));
        }
        if faults.is_faulty_node(dst) {
            return Err(RoutingError::FaultyDestination(dst.clone()));
        }
        walk(
            &self.torus,
            src,
            self.initial_header(dst.clone()),
            faults,
            self.hop_limit(),
            |node, header, mask| self.step(node, header, mask),
        )
    }

    fn plan(&self, current: &Node, header: &Header) -> Plan {
        match self.algorithm {
            Algorithm::ECube => {
                let i = self.incorrect(current, &header.dst)[0];
                Plan {
                    ports: vec![self.shorter_way(current, &header.dst, i)],
                    header: header.clone(),
                    west: None,
                }
            }
            Algorithm::DoubleECube => {
                // The first incorrect dimension of the pair is the lowest incorrect one
                // under both readings (under `keep` the pair was the two lowest when it
                // was selected, and e-cube's hops only correct dimensions).
                let (i, j) = self.pair(current, header);
                let lowest = self.incorrect(current, &header.dst)[0];
                debug_assert!(lowest == i || current.digit(i) == header.dst.digit(i));
                Plan {
                    ports: vec![self.shorter_way(current, &header.dst, lowest)],
                    header: Header {
                        x: i,
                        y: j,
                        ..header.clone()
                    },
                    west: None,
                }
            }
            Algorithm::WestFirst => {
                self.torus_plan(current, header, (0, 1), Priority::LargestSaving)
            }
            Algorithm::DirectionFirst => {
                let pair = self.pair(current, header);
                self.torus_plan(current, header, pair, Priority::DimensionOrder)
            }
        }
    }

    /// Dimensions where `current` differs from `dst`, lowest first.
    fn incorrect(&self, current: &Node, dst: &Node) -> Vec<usize> {
        (0..self.torus.n())
            .filter(|&d| current.digit(d) != dst.digit(d))
            .collect()
    }

    /// The pair of dimensions to route in. Under `keep`, the header's (x, y) while the
    /// worm is in a torus (x != y) with one of them still incorrect. Otherwise step 1 of
    /// the paper's algorithm: i, j are the two lowest incorrect dimensions; with one left,
    /// j is the header's y unless that is i, and then, where the paper picks "a random
    /// dimension", the dimension below i (mod n), which is the choice its Fig. 3 example
    /// makes (dimension 1 for i = 2).
    fn pair(&self, current: &Node, header: &Header) -> (usize, usize) {
        let (x, y) = (header.x, header.y);
        let wrong = |d: usize| current.digit(d) != header.dst.digit(d);
        if self.reading == Reading::Keep && x != y && (wrong(x) || wrong(y)) {
            return (x, y);
        }
        let n = self.torus.n();
        let incorrect = self.incorrect(current, &header.dst);
        let i = incorrect[0];
        let j = match incorrect.get(1) {
            Some(&j) => j,
            None if header.y != i => header.y,
            None => (i + n - 1) % n,
        };
        (i, j)
    }

    /// E-cube's port in dimension `dim`: the shorter way round; on a tie (k even, distance
    /// k/2) the way that does not cross the wraparound link, i.e. + iff the digit must grow.
    fn shorter_way(&self, current: &Node, dst: &Node, dim: usize) -> Port {
        let k = self.torus.k();
        let (s, d) = (current.digit(dim), dst.digit(dim));
        let up = (d + k - s) % k;
        let dir = match (2 * up).cmp(&k) {
            Ordering::Less => Dir::Plus,
            Ordering::Greater => Dir::Minus,
            Ordering::Equal if s < d => Dir::Plus,
            Ordering::Equal => Dir::Minus,
        };
        Port { dim, dir }
    }

    /// Steps 2-4 of the paper in the torus X = `x`, Y = `y`: reset f on a new pair, list the
    /// allowed productive moves, and name west (`-x`) as the direction f records.
    fn torus_plan(
        &self,
        current: &Node,
        header: &Header,
        (x, y): (usize, usize),
        priority: Priority,
    ) -> Plan {
        let first_hop = (header.x, header.y) != (x, y);
        let dst = &header.dst;
        // West first: while the destination lies west in the mesh, Y must wait, because a
        // Y hop now would need a later west hop, which west-first forbids.
        let west_pending = dst.digit(x) < current.digit(x);
        let mut moves = Vec::with_capacity(2);
        for dim in [x, y] {
            let (s, d) = (current.digit(dim), dst.digit(dim));
            if s == d || (dim == y && west_pending) {
                continue;
            }
            let wrap = if first_hop { self.wrap(s, d) } else { None };
            let mesh = if d > s { Dir::Plus } else { Dir::Minus };
            moves.push((dim, wrap, mesh));
        }
        let port = |dim, dir| Port { dim, dir };
        let ports = match priority {
            Priority::DimensionOrder => moves
                .iter()
                .flat_map(|&(dim, wrap, mesh)| {
                    wrap.map(|(dir, _)| port(dim, dir))
                        .into_iter()
                        .chain([port(dim, mesh)])
                })
                .collect(),
            Priority::LargestSaving => {
                let mut wraps: Vec<(Port, u32)> = moves
                    .iter()
                    .filter_map(|&(dim, wrap, _)| {
                        wrap.map(|(dir, saving)| (port(dim, dir), saving))
                    })
                    .collect();
                // Stable: on equal savings X stays ahead of Y.
                wraps.sort_by_key(|&(_, saving)| std::cmp::Reverse(saving));
                wraps
                    .into_iter()
                    .map(|(p, _)| p)
                    .chain(moves.iter().map(|&(dim, _, mesh)| port(dim, mesh)))
                    .collect()
            }
        };
        Plan {
            ports,
            header: Header {
                dst: dst.clone(),
                f: header.f && !first_hop,
                x,
                y,
            },
            west: Some(port(x, Dir::Minus)),
        }
    }

    /// The wraparound move from digit `s` towards `d` and the hops it saves over the mesh
    /// way, if it saves any (a tie keeps the mesh way, as e-cube does).
    fn wrap(&self, s: u32, d: u32) -> Option<(Dir, u32)> {
        let k = self.torus.k();
        let (dir, mesh, via_wrap) = if k > 2 && s == k - 1 && d < s {
            (Dir::Plus, s - d, 1 + d)
        } else if k > 2 && s == 0 && d > 0 {
            (Dir::Minus, d, 1 + (k - 1 - d))
        } else {
            return None;
        };
        (via_wrap < mesh).then(|| (dir, mesh - via_wrap))
    }
}

impl Route {
    /// Whether the message reached its destination.
    pub fn delivered(&self) -> bool {
        self.last().decision.action == Action::Deliver
    }

    /// Number of links traversed.
    pub fn hop_count(&self) -> usize {
        self.hops.len() - 1
    }

    /// The nodes visited, source first; the last is the destination or the blocked node.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.hops.iter().map(|hop| &hop.node)
    }

    fn last(&self) -> &Hop {
        self.hops.last().expect("a route has at least its source")
    }
}

/// Chains router evaluations from `src`, each seeing the mask `faults` present at its node,
/// until one delivers or blocks; more than `limit` forwarding hops is a livelock.
fn walk(
    torus: &Torus,
    src: &Node,
    header: Header,
    faults: &Faults,
    limit: usize,
    step: impl Fn(&Node, &Header, PortMask) -> Decision,
) -> Result<Route, RoutingError> {
    let mut hops = Vec::new();
    let mut node = src.clone();
    let mut header = header;
    loop {
        let mask = faults.mask(torus, &node);
        let decision = step(&node, &header, mask);
        let next = match decision.action {
            Action::Forward(port) => Some(
                torus
                    .neighbour(&node, port)
                    .expect("a router forwards only on ports its node has"),
            ),
            Action::Deliver | Action::Blocked => None,
        };
        let next_header = decision.header.clone();
        let dst = header.dst.clone();
        hops.push(Hop {
            node,
            header,
            mask,
            decision,
        });
        match next {
            None => return Ok(Route { hops }),
            Some(_) if hops.len() > limit => return Err(RoutingError::HopLimit { dst, limit }),
            Some(next) => {
                node = next;
                header = next_header;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::digraph::Digraph;
    use crate::topology::torus::Link;
    use std::collections::{HashMap, VecDeque};

    /// Cubes every fault-free property is checked on, each over all ordered pairs.
    const CUBES: [(u64, u64); 7] = [(3, 3), (4, 2), (5, 2), (2, 4), (6, 2), (3, 2), (2, 2)];
    /// Smaller cubes for the exhaustive single-fault checks.
    const FAULT_CUBES: [(u64, u64); 5] = [(3, 3), (4, 2), (5, 2), (2, 4), (3, 2)];

    fn cube(k: u64, n: u64) -> Torus {
        Torus::new(k, n).unwrap()
    }

    fn routers(torus: Torus) -> Vec<Router> {
        Algorithm::ALL
            .iter()
            .filter_map(|&algorithm| Router::new(torus, algorithm).ok())
            .collect()
    }

    fn pairs(torus: &Torus) -> Vec<(Node, Node)> {
        let nodes: Vec<Node> = torus.nodes().unwrap().collect();
        let mut pairs = Vec::new();
        for s in &nodes {
            for d in &nodes {
                if s != d {
                    pairs.push((s.clone(), d.clone()));
                }
            }
        }
        pairs
    }

    fn ring(k: u32, a: u32, b: u32) -> usize {
        let up = ((b + k - a) % k) as usize;
        up.min(k as usize - up)
    }

    fn mesh_distance(a: &Node, b: &Node) -> usize {
        a.digits()
            .iter()
            .zip(b.digits())
            .map(|(&x, &y)| x.abs_diff(y) as usize)
            .sum()
    }

    fn incorrect(a: &Node, b: &Node) -> Vec<usize> {
        (0..a.digits().len())
            .filter(|&d| a.digit(d) != b.digit(d))
            .collect()
    }

    /// The forwarding hops of a route as (node, port, next node).
    fn links(route: &Route) -> Vec<(Node, Port, Node)> {
        route
            .hops
            .windows(2)
            .map(|w| match w[0].decision.action {
                Action::Forward(port) => (w[0].node.clone(), port, w[1].node.clone()),
                other => panic!("{other:?} before the end of a route"),
            })
            .collect()
    }

    /// A route's router evaluations without the masks, which faults change even where
    /// they change no decision.
    fn decisions(route: &Route) -> Vec<(&Node, &Header, &Decision)> {
        route
            .hops
            .iter()
            .map(|h| (&h.node, &h.header, &h.decision))
            .collect()
    }

    fn ports(route: &Route) -> Vec<String> {
        links(route).iter().map(|(_, p, _)| p.to_string()).collect()
    }

    fn node_list(route: &Route) -> Vec<String> {
        route.nodes().map(|n| n.to_string()).collect()
    }

    /// Checks, from the graph and the fault sets alone, that `route` is a loop-free walk
    /// along arcs from `src` that uses no faulty link or node and ends at `dst` iff delivered.
    fn check_walk(
        torus: &Torus,
        graph: &Digraph,
        faults: &Faults,
        src: &Node,
        dst: &Node,
        route: &Route,
    ) {
        let what = || format!("{src} -> {dst} with {faults:?}: {:?}", node_list(route));
        assert_eq!(&route.hops[0].node, src, "{}", what());
        let mut seen = vec![false; graph.node_count()];
        for node in route.nodes() {
            let v = torus.index_of(node);
            assert!(!seen[v], "loop at {node}: {}", what());
            seen[v] = true;
            assert!(
                !faults.is_faulty_node(node),
                "visits faulty {node}: {}",
                what()
            );
        }
        for (u, port, v) in links(route) {
            assert!(
                graph.has_arc(torus.index_of(&u), torus.index_of(&v)),
                "{}",
                what()
            );
            assert!(
                !faults.links().any(|l| l.node == u && l.port == port),
                "uses faulty link {u}:{port}: {}",
                what()
            );
        }
        let last = route.nodes().last().unwrap();
        assert_eq!(route.delivered(), last == dst, "{}", what());
    }

    /// E-cube's path, built independently from ring arithmetic: dimensions in increasing
    /// order, each the shorter way round, a tie going the way the digit must move in the mesh.
    fn dimension_order_path(torus: &Torus, src: &Node, dst: &Node) -> Vec<Node> {
        let k = torus.k();
        let mut digits = src.digits().to_vec();
        let mut path = vec![src.clone()];
        for dim in 0..torus.n() {
            let (s, d) = (digits[dim], dst.digit(dim));
            let (up, down) = ((d + k - s) % k, (s + k - d) % k);
            let grow = up < down || (up == down && s < d);
            for _ in 0..up.min(down) {
                digits[dim] = if grow {
                    (digits[dim] + 1) % k
                } else {
                    (digits[dim] + k - 1) % k
                };
                path.push(torus.node(digits.clone()).unwrap());
            }
        }
        path
    }

    /// Hops direction-first needs in one dimension, derived from its rules by hand: a ring is
    /// crossed the short way unless that way uses the wraparound link after its first hop
    /// (which only the first hop in a torus may use); then it goes the mesh way.
    fn direction_first_hops(k: u32, s: u32, d: u32) -> usize {
        let mesh = s.abs_diff(d) as usize;
        if 2 * mesh <= k as usize || s == 0 || s == k - 1 {
            ring(k, s, d)
        } else {
            mesh
        }
    }

    /// Shortest walks under west-first's rules alone, by BFS over (node, hop made, west
    /// closed): a wraparound only on the first hop, no west hop after a non-west hop. Any
    /// hop is allowed, productive or not, so this bounds every west-first router.
    fn west_first_rule_distances(torus: &Torus, src: &Node) -> Vec<Option<usize>> {
        let count = torus.enumerable_node_count().unwrap();
        let state =
            |v: usize, started: bool, closed: bool| v * 4 + 2 * started as usize + closed as usize;
        let mut dist = vec![None; 4 * count];
        let start = state(torus.index_of(src), false, false);
        dist[start] = Some(0);
        let mut queue = VecDeque::from([(src.clone(), false, false)]);
        while let Some((u, started, closed)) = queue.pop_front() {
            let du = dist[state(torus.index_of(&u), started, closed)].unwrap();
            for port in torus.ports() {
                let Some(w) = torus.neighbour(&u, port) else {
                    continue;
                };
                let west = port
                    == Port {
                        dim: 0,
                        dir: Dir::Minus,
                    };
                if (started && torus.is_wrap(&u, port)) || (closed && west) {
                    continue;
                }
                let next = state(torus.index_of(&w), true, closed || !west);
                if dist[next].is_none() {
                    dist[next] = Some(du + 1);
                    queue.push_back((w, true, closed || !west));
                }
            }
        }
        (0..count)
            .map(|v| (0..4).filter_map(|s| dist[4 * v + s]).min())
            .collect()
    }

    /// The paper's rules for west-first and direction-first, checked on a route: moves only
    /// in the header's torus, wraparound only on a torus's first hop, no west hop after a
    /// non-west hop in one torus, f as steps 2 and 4 define it, every hop productive.
    fn check_torus_rules(torus: &Torus, route: &Route) {
        let dst = &route.hops[0].header.dst;
        let mut non_west_seen = false;
        for (hop, next) in route.hops.iter().zip(&route.hops[1..]) {
            let Action::Forward(port) = hop.decision.action else {
                unreachable!()
            };
            let (before, after) = (&hop.header, &hop.decision.header);
            let first_hop = (before.x, before.y) != (after.x, after.y);
            let west = port
                == Port {
                    dim: after.x,
                    dir: Dir::Minus,
                };
            let what = format!("{:?} at {}", node_list(route), hop.node);
            assert!(port.dim == after.x || port.dim == after.y, "{what}");
            assert!(
                first_hop || !torus.is_wrap(&hop.node, port),
                "late wraparound: {what}"
            );
            if first_hop {
                non_west_seen = false;
            }
            assert!(!(west && non_west_seen), "west after non-west: {what}");
            non_west_seen |= !west;
            assert_eq!(after.f, (before.f && !first_hop) || west, "f: {what}");
            assert!(
                mesh_distance(&next.node, dst) < mesh_distance(&hop.node, dst),
                "{what}"
            );
        }
    }

    #[test]
    fn e_cube_and_double_e_cube_are_minimal_and_in_dimension_order() {
        for (k, n) in CUBES {
            let torus = cube(k, n);
            let graph = torus.digraph().unwrap();
            let none = Faults::new();
            for router in routers(torus) {
                if !matches!(
                    router.algorithm(),
                    Algorithm::ECube | Algorithm::DoubleECube
                ) {
                    continue;
                }
                for (src, dst) in pairs(&torus) {
                    let route = router.route(&src, &dst, &none).unwrap();
                    check_walk(&torus, &graph, &none, &src, &dst, &route);
                    assert!(route.delivered());
                    let bfs = graph.distances_from(torus.index_of(&src))[torus.index_of(&dst)];
                    assert_eq!(Some(route.hop_count()), bfs, "{torus} {src} -> {dst}");
                    let expected = dimension_order_path(&torus, &src, &dst);
                    assert_eq!(route.nodes().cloned().collect::<Vec<_>>(), expected);
                }
            }
        }
    }

    #[test]
    fn e_cube_ties_go_the_mesh_way() {
        let route = |k: u64, n: u64, src: &str, dst: &str| {
            let torus = cube(k, n);
            let router = Router::new(torus, Algorithm::ECube).unwrap();
            let (s, d) = (
                torus.parse_node(src).unwrap(),
                torus.parse_node(dst).unwrap(),
            );
            ports(&router.route(&s, &d, &Faults::new()).unwrap()).join(" ")
        };
        assert_eq!(route(4, 1, "1", "3"), "+0 +0");
        assert_eq!(route(4, 1, "3", "1"), "-0 -0");
        assert_eq!(route(4, 1, "0", "2"), "+0 +0");
        assert_eq!(route(4, 1, "2", "0"), "-0 -0");
        assert_eq!(
            route(4, 1, "0", "3"),
            "-0",
            "not a tie: the wraparound is shorter"
        );
        assert_eq!(route(2, 1, "0", "1"), "+0");
        assert_eq!(route(2, 1, "1", "0"), "-0");
        // The example: dimension 0 (written last) first, 0 -> 3 by the wraparound,
        // then dimension 1, 0 -> 2, a tie, upwards.
        assert_eq!(route(4, 2, "0,0", "2,3"), "-0 +1 +1");
    }

    #[test]
    fn double_e_cube_is_e_cube_with_the_pair_in_the_header() {
        // Demaine and Srinivas's k-ary n-cube paper, section 4.2: "double e-cube is indeed
        // the same as e-cube". Same walks, with and without a faulty link, and x, y name the
        // two lowest incorrect dimensions.
        for (k, n) in FAULT_CUBES {
            let torus = cube(k, n);
            let e_cube = Router::new(torus, Algorithm::ECube).unwrap();
            let double = Router::new(torus, Algorithm::DoubleECube).unwrap();
            let mut fault_sets = vec![Faults::new()];
            for node in torus.nodes().unwrap() {
                for port in torus.ports().filter(|&p| torus.has_port(&node, p)) {
                    let mut faults = Faults::new();
                    faults.insert_link(Link {
                        node: node.clone(),
                        port,
                    });
                    fault_sets.push(faults);
                }
            }
            for faults in &fault_sets {
                for (src, dst) in pairs(&torus) {
                    let a = e_cube.route(&src, &dst, faults).unwrap();
                    let b = double.route(&src, &dst, faults).unwrap();
                    assert_eq!(node_list(&a), node_list(&b));
                    assert_eq!(a.delivered(), b.delivered());
                    for hop in &b.hops[..b.hops.len() - 1] {
                        let wrong = incorrect(&hop.node, &dst);
                        let header = &hop.decision.header;
                        assert_eq!(header.x, wrong[0]);
                        assert!(!header.f);
                        match wrong.get(1) {
                            Some(&j) => assert_eq!(header.y, j),
                            None => assert_ne!(header.y, header.x),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn direction_first_reproduces_fig_3_of_the_torus_paper() {
        // "a 3-ary 3-cube with a direction-first e-cube routing from 011 to 222": first the
        // torus of dimensions 0 and 1 by 011-012-022, then dimension 2 with dimension 1
        // "chosen as the other (Y) dimension", by a west wraparound link, "the first
        // traversal made for this torus", 022-222.
        let torus = cube(3, 3);
        let router = Router::new(torus, Algorithm::DirectionFirst).unwrap();
        let (src, dst) = (
            torus.parse_node("011").unwrap(),
            torus.parse_node("222").unwrap(),
        );
        let route = router.route(&src, &dst, &Faults::new()).unwrap();
        assert_eq!(node_list(&route), ["0,1,1", "0,1,2", "0,2,2", "2,2,2"]);
        assert_eq!(ports(&route), ["+0", "+1", "-2"]);
        let headers: Vec<(bool, usize, usize)> = route.hops[..3]
            .iter()
            .map(|h| {
                (
                    h.decision.header.f,
                    h.decision.header.x,
                    h.decision.header.y,
                )
            })
            .collect();
        assert_eq!(headers, [(false, 0, 1), (false, 1, 2), (true, 2, 1)]);
        assert!(torus.is_wrap(
            &route.hops[2].node,
            Port {
                dim: 2,
                dir: Dir::Minus
            }
        ));
        check_torus_rules(&torus, &route);
    }

    #[test]
    fn direction_first_is_minimal_exactly_where_no_late_wraparound_is_needed() {
        // Demaine and Srinivas's k-ary n-cube paper claims direction-first is "fully
        // minimal" without faults. Its own rule that wraparound links serve only the first
        // hop in a torus makes that false for k >= 5: the exact lengths follow the
        // per-dimension rule derived by hand.
        for (k, n) in CUBES.into_iter().chain([(5, 3), (7, 2)]) {
            let torus = cube(k, n);
            let Ok(router) = Router::new(torus, Algorithm::DirectionFirst) else {
                continue;
            };
            let graph = torus.digraph().unwrap();
            let none = Faults::new();
            let mut longer = 0;
            for (src, dst) in pairs(&torus) {
                let route = router.route(&src, &dst, &none).unwrap();
                check_walk(&torus, &graph, &none, &src, &dst, &route);
                check_torus_rules(&torus, &route);
                let expected: usize = (0..torus.n())
                    .map(|d| direction_first_hops(torus.k(), src.digit(d), dst.digit(d)))
                    .sum();
                assert_eq!(route.hop_count(), expected, "{torus} {src} -> {dst}");
                let bfs = graph.distances_from(torus.index_of(&src))[torus.index_of(&dst)].unwrap();
                longer += usize::from(route.hop_count() > bfs);
                if route.hop_count() == bfs {
                    // Minimal, it is e-cube's path, ties broken the same (mesh) way.
                    let expected = dimension_order_path(&torus, &src, &dst);
                    assert_eq!(route.nodes().cloned().collect::<Vec<_>>(), expected);
                }
                // Dimensions are corrected in increasing order, as in e-cube.
                let dims: Vec<usize> = links(&route).iter().map(|(_, p, _)| p.dim).collect();
                assert!(dims.windows(2).all(|w| w[0] <= w[1]), "{src} -> {dst}");
            }
            assert_eq!(longer > 0, k >= 5, "{torus}: {longer} longer than minimal");
            if (k, n) == (5, 2) {
                // By hand: a ring is longer only for 1 -> 4 and 3 -> 0; pairs with X or Y
                // such: 2*25 + 25*2 - 2*2.
                assert_eq!(longer, 96);
            }
        }
        let torus = cube(5, 2);
        let router = Router::new(torus, Algorithm::DirectionFirst).unwrap();
        let (s, d) = (
            torus.parse_node("0,1").unwrap(),
            torus.parse_node("0,4").unwrap(),
        );
        let route = router.route(&s, &d, &Faults::new()).unwrap();
        assert_eq!(
            ports(&route),
            ["+0", "+0", "+0"],
            "1 -> 0 -> 4 would be 2 hops"
        );
    }

    #[test]
    fn west_first_is_shortest_under_its_own_rules_but_not_minimal() {
        for (k, n) in [(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2)] {
            let torus = cube(k, n);
            let router = Router::new(torus, Algorithm::WestFirst).unwrap();
            let graph = torus.digraph().unwrap();
            let none = Faults::new();
            let mut longer = 0;
            for src in torus.nodes().unwrap() {
                let rules = west_first_rule_distances(&torus, &src);
                let bfs = graph.distances_from(torus.index_of(&src));
                for dst in torus.nodes().unwrap().filter(|d| *d != src) {
                    let route = router.route(&src, &dst, &none).unwrap();
                    check_walk(&torus, &graph, &none, &src, &dst, &route);
                    check_torus_rules(&torus, &route);
                    let v = torus.index_of(&dst);
                    assert_eq!(Some(route.hop_count()), rules[v], "{torus} {src} -> {dst}");
                    longer += usize::from(Some(route.hop_count()) > bfs[v]);
                }
            }
            // The k-ary n-cube paper says "if no faults exist in the network, all paths are
            // minimal"; only the hypercube (k = 2, no wraparound links) bears that out.
            assert_eq!(longer > 0, k > 2, "{torus}: {longer} longer than minimal");
            if k == 4 {
                // By hand: both rings need their wraparound (0 <-> 3 in X and in Y: 4 pairs),
                // or Y needs it while X goes west (2 * 5 pairs).
                assert_eq!(longer, 14);
            }
        }
        let route = |k: u64, src: &str, dst: &str| {
            let torus = cube(k, 2);
            let router = Router::new(torus, Algorithm::WestFirst).unwrap();
            let (s, d) = (
                torus.parse_node(src).unwrap(),
                torus.parse_node(dst).unwrap(),
            );
            ports(&router.route(&s, &d, &Faults::new()).unwrap()).join(" ")
        };
        // Both rings want their wraparound; only the first hop may take one.
        assert_eq!(route(4, "3,3", "0,0"), "+0 -1 -1 -1");
        // X would save 3 hops by wrapping west, Y saves 5 by wrapping: Y wins.
        assert_eq!(route(7, "0,0", "6,5"), "-1 +0 +0 +0 +0 +0");
        // West first: the west phase comes before the Y hops.
        assert_eq!(route(5, "0,3", "2,1"), "-0 -0 +1 +1");
        // A wraparound that saves nothing is not taken: 3 -> 1 in a ring of 4 goes down.
        assert_eq!(route(4, "0,3", "0,1"), "-0 -0");
        assert_eq!(route(4, "0,0", "2,0"), "+1 +1");
    }

    /// Routes by (source, destination).
    type Routes = HashMap<(Node, Node), Route>;

    /// The fault-free route, computed once per ordered pair.
    fn fault_free_routes(router: &Router) -> Routes {
        pairs(router.torus())
            .into_iter()
            .map(|(s, d)| {
                let route = router.route(&s, &d, &Faults::new()).unwrap();
                ((s, d), route)
            })
            .collect()
    }

    /// Every single faulty link, then every single faulty node.
    fn single_faults(torus: &Torus) -> Vec<Faults> {
        let mut sets = Vec::new();
        for node in torus.nodes().unwrap() {
            for port in torus.ports().filter(|&p| torus.has_port(&node, p)) {
                let mut faults = Faults::new();
                faults.insert_link(Link {
                    node: node.clone(),
                    port,
                });
                sets.push(faults);
            }
        }
        for node in torus.nodes().unwrap() {
            let mut faults = Faults::new();
            faults.insert_node(node);
            sets.push(faults);
        }
        sets
    }

    /// The first hop of a fault-free route that runs into a fault: its index.
    fn first_faulty_hop(route: &Route, faults: &Faults) -> Option<usize> {
        links(route).iter().position(|(u, port, v)| {
            faults.is_faulty_node(v) || faults.links().any(|l| &l.node == u && l.port == *port)
        })
    }

    #[test]
    fn single_faults_stop_e_cube_exactly_on_its_path() {
        // E-cube and double e-cube do not adapt: blocked iff the fault is on the path.
        for (k, n) in FAULT_CUBES {
            let torus = cube(k, n);
            let graph = torus.digraph().unwrap();
            for router in routers(torus) {
                if !matches!(
                    router.algorithm(),
                    Algorithm::ECube | Algorithm::DoubleECube
                ) {
                    continue;
                }
                for faults in single_faults(&torus) {
                    for (src, dst) in pairs(&torus) {
                        if faults.is_faulty_node(&src) || faults.is_faulty_node(&dst) {
                            continue;
                        }
                        let route = router.route(&src, &dst, &faults).unwrap();
                        check_walk(&torus, &graph, &faults, &src, &dst, &route);
                        let path = dimension_order_path(&torus, &src, &dst);
                        let hits = path.windows(2).position(|w| {
                            faults.is_faulty_node(&w[1])
                                || faults.links().any(|l| {
                                    l.node == w[0]
                                        && torus.neighbour(&l.node, l.port).as_ref() == Some(&w[1])
                                })
                        });
                        match hits {
                            None => assert!(route.delivered()),
                            Some(i) => {
                                assert!(!route.delivered());
                                assert_eq!(route.nodes().cloned().collect::<Vec<_>>(), path[..=i]);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn single_faults_stop_the_adaptive_algorithms_exactly_at_forced_hops() {
        // Derived by hand from the rules (docs/torus.md, "Faults"): a single fault matters
        // only where the fault-free route runs into it. There the router has another
        // productive move, and delivers, iff
        // - the faulty hop is a + hop in the torus's X dimension with two dimensions still
        //   incorrect: the Y move remains, and Y never comes back to the fault's row; or
        // - it is a wraparound hop: the mesh way round remains. Both ways round the ring end
        //   on the node whose X digit is the destination's, so when that node is the faulty
        //   one the message escapes only by a move in the other dimension first, which
        //   needs it incorrect and is not allowed while the west phase is pending (+X wrap).
        // West hops, Y hops after X is correct and a last dimension are forced.
        for (k, n) in FAULT_CUBES {
            let torus = cube(k, n);
            let graph = torus.digraph().unwrap();
            for router in routers(torus) {
                let x_of = |u: &Node, dst: &Node| match router.algorithm() {
                    Algorithm::WestFirst => 0,
                    Algorithm::DirectionFirst => incorrect(u, dst)[0],
                    _ => usize::MAX,
                };
                if !matches!(
                    router.algorithm(),
                    Algorithm::WestFirst | Algorithm::DirectionFirst
                ) {
                    continue;
                }
                let fault_free = fault_free_routes(&router);
                let (mut blocked, mut detoured) = (0, 0);
                for faults in single_faults(&torus) {
                    for (src, dst) in pairs(&torus) {
                        if faults.is_faulty_node(&src) || faults.is_faulty_node(&dst) {
                            continue;
                        }
                        let route = router.route(&src, &dst, &faults).unwrap();
                        check_walk(&torus, &graph, &faults, &src, &dst, &route);
                        check_torus_rules(&torus, &route);
                        let plain = &fault_free[&(src.clone(), dst.clone())];
                        let Some(i) = first_faulty_hop(plain, &faults) else {
                            assert_eq!(decisions(&route), decisions(plain));
                            continue;
                        };
                        let (u, port, v) = &links(plain)[i];
                        let two_incorrect = incorrect(u, &dst).len() >= 2;
                        let east = port.dir == Dir::Plus && port.dim == x_of(u, &dst);
                        let tolerable = if torus.is_wrap(u, *port) {
                            let lands_on_fault = faults.is_faulty_node(v)
                                && v.digit(port.dim) == dst.digit(port.dim);
                            !lands_on_fault || (two_incorrect && !east)
                        } else {
                            east && two_incorrect
                        };
                        let what =
                            format!("{} {src} -> {dst} {faults:?}", router.algorithm().name());
                        assert_eq!(route.delivered(), tolerable, "{what}");
                        assert_eq!(
                            route.hops[..=i].iter().map(|h| &h.node).collect::<Vec<_>>(),
                            plain.hops[..=i].iter().map(|h| &h.node).collect::<Vec<_>>(),
                            "{what}"
                        );
                        if tolerable {
                            detoured += 1;
                        } else {
                            blocked += 1;
                        }
                    }
                }
                assert!(
                    blocked > 0 && detoured > 0,
                    "{torus} {}",
                    router.algorithm().name()
                );
            }
        }
    }

    #[test]
    fn two_faults_never_misroute_and_block_only_where_every_allowed_port_is_faulty() {
        // All pairs of faulty elements of the 3-ary 2-cube, an even sample of the others.
        for (k, n, stride) in [(3, 2, 1), (4, 2, 7), (3, 3, 151)] {
            let torus = cube(k, n);
            let graph = torus.digraph().unwrap();
            let routers: Vec<(Router, Routes)> = routers(torus)
                .into_iter()
                .map(|r| (r, fault_free_routes(&r)))
                .collect();
            let singles = single_faults(&torus);
            let mut index = 0;
            for a in 0..singles.len() {
                for b in a + 1..singles.len() {
                    index += 1;
                    if index % stride != 0 {
                        continue;
                    }
                    let mut faults = singles[a].clone();
                    singles[b]
                        .links()
                        .for_each(|l| faults.insert_link(l.clone()));
                    singles[b]
                        .nodes()
                        .for_each(|v| faults.insert_node(v.clone()));
                    for (router, fault_free) in &routers {
                        check_two_faults(&torus, &graph, router, fault_free, &faults);
                    }
                }
            }
        }
    }

    fn check_two_faults(
        torus: &Torus,
        graph: &Digraph,
        router: &Router,
        fault_free: &Routes,
        faults: &Faults,
    ) {
        for ((src, dst), plain) in fault_free {
            if faults.is_faulty_node(src) || faults.is_faulty_node(dst) {
                continue;
            }
            let route = router.route(src, dst, faults).unwrap();
            check_walk(torus, graph, faults, src, dst, &route);
            if first_faulty_hop(plain, faults).is_none() {
                assert_eq!(decisions(&route), decisions(plain));
            }
            if matches!(
                router.algorithm(),
                Algorithm::WestFirst | Algorithm::DirectionFirst
            ) {
                check_torus_rules(torus, &route);
            }
            if !route.delivered() {
                let last = route.hops.last().unwrap();
                let allowed = router.candidates(&last.node, &last.header);
                assert!(!allowed.is_empty());
                for port in allowed {
                    let next = torus.neighbour(&last.node, port).unwrap();
                    let faulty_link = faults
                        .links()
                        .any(|l| l.node == last.node && l.port == port);
                    assert!(
                        faulty_link || faults.is_faulty_node(&next),
                        "{src} -> {dst} {faults:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn f_is_kept_as_the_paper_defines_it_but_no_decision_reads_it() {
        for (k, n) in [(4, 2), (5, 2), (3, 3), (2, 3)] {
            let torus = cube(k, n);
            for router in routers(torus) {
                if !matches!(
                    router.algorithm(),
                    Algorithm::WestFirst | Algorithm::DirectionFirst
                ) {
                    continue;
                }
                for (current, dst) in pairs(&torus) {
                    for x in 0..n as usize {
                        for y in 0..n as usize {
                            for bits in 0..1u64 << (2 * n) {
                                let mask = torus
                                    .ports()
                                    .filter(|p| bits >> p.index() & 1 == 1)
                                    .fold(PortMask::empty(), PortMask::with);
                                let header = |f| Header {
                                    dst: dst.clone(),
                                    f,
                                    x,
                                    y,
                                };
                                let a = router.step(&current, &header(false), mask);
                                let b = router.step(&current, &header(true), mask);
                                assert_eq!(a.action, b.action);
                                assert_eq!((a.header.x, a.header.y), (b.header.x, b.header.y));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn header_width_is_theorem_5_4_with_each_field_rounded_up() {
        assert_eq!(header_width_bits(3, 3), 2 * 2 + 3 * 2 + 1);
        assert_eq!(header_width_bits(4, 2), 2 + 2 * 2 + 1);
        assert_eq!(header_width_bits(2, 4), 2 * 2 + 4 + 1);
        assert_eq!(header_width_bits(5, 2), 2 + 2 * 3 + 1);
        assert_eq!(header_width_bits(16, 8), 2 * 3 + 8 * 4 + 1);
        // A digit field must hold 0..k and no fewer bits would: 2^(w-1) < k <= 2^w.
        for k in 2u64..=300 {
            let w = ceil_log2(k);
            assert!(k <= 1 << w && (1 << w) / 2 < k, "k = {k}");
        }
        // (5.1) counts log2 k^n bits for the destination; rounded as one number that is
        // less than n digit fields when k is not a power of two (27 nodes: 5 bits, not 6).
        assert_eq!(ceil_log2(27), 5);
        assert_eq!(header_width_bits(3, 3), 2 * 2 + ceil_log2(27) + 1 + 1);
        assert_eq!(header_width_bits(4, 3), 2 * 2 + ceil_log2(64) + 1);
        // The layout: digits from bit 0, then x, y, f.
        let fields: Vec<(String, u32, u32)> = HeaderLayout::new(5, 3)
            .fields()
            .into_iter()
            .map(|f| (f.name, f.lsb, f.width))
            .collect();
        let expected = [
            ("dst.x0", 0, 3),
            ("dst.x1", 3, 3),
            ("dst.x2", 6, 3),
            ("x", 9, 2),
            ("y", 11, 2),
            ("f", 13, 1),
        ];
        assert_eq!(fields, expected.map(|(n, l, w)| (n.to_string(), l, w)));
        // x and y take every value 0..n on some route, so ceil(log2 n) bits are needed, and
        // f takes both values.
        let torus = cube(3, 3);
        let router = Router::new(torus, Algorithm::DirectionFirst).unwrap();
        let mut seen = (vec![false; 3], vec![false; 3], [false; 2]);
        for route in fault_free_routes(&router).values() {
            for hop in &route.hops {
                let h = &hop.decision.header;
                seen.0[h.x] = true;
                seen.1[h.y] = true;
                seen.2[h.f as usize] = true;
            }
        }
        assert_eq!(seen, (vec![true; 3], vec![true; 3], [true; 2]));
    }

    #[test]
    fn a_livelocking_router_is_reported_not_followed_forever() {
        let torus = cube(4, 1);
        let (src, dst) = (
            torus.parse_node("0").unwrap(),
            torus.parse_node("2").unwrap(),
        );
        let header = Header {
            dst: dst.clone(),
            f: false,
            x: 0,
            y: 0,
        };
        let around = |_: &Node, h: &Header, _: PortMask| Decision {
            action: Action::Forward(Port {
                dim: 0,
                dir: Dir::Minus,
            }),
            header: h.clone(),
        };
        let error = walk(&torus, &src, header, &Faults::new(), 3, around).unwrap_err();
        assert_eq!(
            error.to_string(),
            "no delivery to 2 within 3 hops: the routing livelocks"
        );
        let router = Router::new(torus, Algorithm::ECube).unwrap();
        assert_eq!(router.hop_limit(), 3);
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        let message = |k, n, algorithm| Router::new(cube(k, n), algorithm).unwrap_err().to_string();
        assert_eq!(
            message(4, 3, Algorithm::WestFirst),
            "west-first routes on a 2-D torus: it needs n = 2, got n = 3"
        );
        assert_eq!(
            message(4, 1, Algorithm::DirectionFirst),
            "direction-first needs n >= 2 (it routes in the torus of two dimensions at a time), got n = 1"
        );
        assert_eq!(
            message(4, 1, Algorithm::DoubleECube),
            "double-e-cube needs n >= 2 (it routes in the torus of two dimensions at a time), got n = 1"
        );
        let torus = cube(4, 2);
        let router = Router::new(torus, Algorithm::DirectionFirst).unwrap();
        let node = |text: &str| torus.parse_node(text).unwrap();
        let mut faults = Faults::new();
        faults.insert_node(node("1,1"));
        let error = |s: &str, d: &str| {
            router
                .route(&node(s), &node(d), &faults)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            error("2,2", "2,2"),
            "source and destination are both 2,2; a route needs two different nodes"
        );
        assert_eq!(error("1,1", "2,2"), "source 1,1 is a faulty node");
        assert_eq!(error("2,2", "1,1"), "destination 1,1 is a faulty node");
        let foreign = cube(3, 3).parse_node("0,1,2").unwrap();
        assert_eq!(
            router
                .route(&foreign, &node("1,2"), &faults)
                .unwrap_err()
                .to_string(),
            "node '0,1,2' has 3 digits, but nodes of the 4-ary 2-cube have 2"
        );
    }

    #[test]
    fn blocked_and_delivered_steps_leave_the_header_alone() {
        let torus = cube(3, 3);
        let router = Router::new(torus, Algorithm::DirectionFirst).unwrap();
        let dst = torus.parse_node("2,2,2").unwrap();
        let header = router.initial_header(dst.clone());
        let here = torus.parse_node("0,2,2").unwrap();
        let all = torus.ports().fold(PortMask::empty(), PortMask::with);
        let blocked = router.step(&here, &header, all);
        assert_eq!(
            blocked,
            Decision {
                action: Action::Blocked,
                header: header.clone()
            }
        );
        let free = router.step(&here, &header, PortMask::empty());
        assert_eq!(
            free.action,
            Action::Forward(Port {
                dim: 2,
                dir: Dir::Minus
            })
        );
        assert_eq!(
            router.candidates(&here, &header),
            [
                Port {
                    dim: 2,
                    dir: Dir::Minus
                },
                Port {
                    dim: 2,
                    dir: Dir::Plus
                }
            ]
        );
        let delivered = router.step(&dst, &header, all);
        assert_eq!(
            delivered,
            Decision {
                action: Action::Deliver,
                header
            }
        );
    }

    /// The tori a fault-free `keep` route uses, in order, derived from the paper's prose
    /// ("first selecting the torus defined by the two ... least significant differing" dimensions,
    /// correct them, repeat): the dimensions incorrect at the source two by two, lowest
    /// first; a last one alone is X, with Y the previous torus's Y (or, at the source,
    /// y = 0, and n - 1 when that is X itself). Per dimension, the torus it is corrected in.
    fn kept_tori(n: usize, src: &Node, dst: &Node) -> Vec<Option<(usize, usize)>> {
        let mut torus_of = vec![None; n];
        let mut y = 0;
        for chunk in incorrect(src, dst).chunks(2) {
            let pair = match *chunk {
                [i, j] => (i, j),
                [i] if y != i => (i, y),
                [i] => (i, (i + n - 1) % n),
                _ => unreachable!("chunks of one or two"),
            };
            y = pair.1;
            for &d in chunk {
                torus_of[d] = Some(pair);
            }
        }
        torus_of
    }

    #[test]
    fn keep_reproduces_fig_3_in_one_torus_then_the_next() {
        // Fig. 3 under `keep`: the torus (0, 1) is kept at 0,1,2 although dimension 0 is
        // correct there, until 0,2,2; then dimension 2 is X and Y is the kept torus's y = 1
        // ("Assume that dimension 1 is chosen as the other (Y) dimension"), a first hop, so
        // the west wraparound 0 -> 2 (1 hop instead of 2) is allowed. Same route as the
        // default reading; the second header differs: x=0 y=1 instead of x=1 y=2.
        let torus = cube(3, 3);
        let router = Router::with_reading(torus, Algorithm::DirectionFirst, Reading::Keep).unwrap();
        let (src, dst) = (
            torus.parse_node("011").unwrap(),
            torus.parse_node("222").unwrap(),
        );
        let route = router.route(&src, &dst, &Faults::new()).unwrap();
        assert_eq!(node_list(&route), ["0,1,1", "0,1,2", "0,2,2", "2,2,2"]);
        assert_eq!(ports(&route), ["+0", "+1", "-2"]);
        let headers: Vec<(bool, usize, usize)> = route.hops[..3]
            .iter()
            .map(|h| {
                let out = &h.decision.header;
                (out.f, out.x, out.y)
            })
            .collect();
        assert_eq!(headers, [(false, 0, 1), (false, 0, 1), (true, 2, 1)]);
        check_torus_rules(&torus, &route);
    }

    #[test]
    fn keep_routes_torus_by_torus_with_lengths_derived_by_hand() {
        // Without faults the first hop in each torus is X's (X is incorrect when the torus
        // is selected and comes first among the candidates), so X may wrap there and Y
        // never does: per dimension, direction_first_hops as X and the mesh distance as Y.
        // Double e-cube walks e-cube's path under both readings; only its header differs.
        for (k, n) in CUBES.into_iter().chain([(5, 3), (7, 2), (4, 3)]) {
            let torus = cube(k, n);
            let graph = torus.digraph().unwrap();
            let none = Faults::new();
            let Ok(e_cube) = Router::new(torus, Algorithm::ECube) else {
                continue;
            };
            let keep = |algorithm| Router::with_reading(torus, algorithm, Reading::Keep);
            let (Ok(direction_first), Ok(double)) = (
                keep(Algorithm::DirectionFirst),
                keep(Algorithm::DoubleECube),
            ) else {
                continue;
            };
            let mut longer = 0;
            for (src, dst) in pairs(&torus) {
                let tori = kept_tori(torus.n(), &src, &dst);
                let route = direction_first.route(&src, &dst, &none).unwrap();
                check_walk(&torus, &graph, &none, &src, &dst, &route);
                check_torus_rules(&torus, &route);
                let expected: usize = (0..torus.n())
                    .map(|d| {
                        let (s, t) = (src.digit(d), dst.digit(d));
                        match tori[d] {
                            Some((x, _)) if x == d => direction_first_hops(k as u32, s, t),
                            _ => s.abs_diff(t) as usize,
                        }
                    })
                    .sum();
                assert_eq!(route.hop_count(), expected, "{torus} {src} -> {dst}");
                let bfs = graph.distances_from(torus.index_of(&src))[torus.index_of(&dst)].unwrap();
                longer += usize::from(route.hop_count() > bfs);
                let walked = e_cube.route(&src, &dst, &none).unwrap();
                let route2 = double.route(&src, &dst, &none).unwrap();
                assert_eq!(node_list(&route2), node_list(&walked));
                // Every hop is made in the torus its dimension belongs to.
                for hop in route.hops.iter().chain(&route2.hops) {
                    if let Action::Forward(port) = hop.decision.action {
                        let out = &hop.decision.header;
                        assert_eq!(Some((out.x, out.y)), tori[port.dim], "{src} -> {dst}");
                    }
                }
            }
            if (k, n) == (5, 2) {
                // By hand: X is longer for 1 -> 4 and 3 -> 0 (2 of the 25 digit pairs);
                // dimension 1 as Y (dimension 0 incorrect, 20 pairs) whenever its mesh
                // way is longer than the ring, 6 pairs (|d - s| >= 3), as X (dimension 0
                // correct, 5 pairs) for the same 2: 2*25 + 18*6 + 5*2.
                assert_eq!(longer, 168);
            }
        }
    }

    #[test]
    fn keep_applies_only_where_a_pair_is_selected() {
        let refusal = |algorithm| {
            Router::with_reading(cube(4, 2), algorithm, Reading::Keep)
                .unwrap_err()
                .to_string()
        };
        for algorithm in [Algorithm::ECube, Algorithm::WestFirst] {
            assert_eq!(
                refusal(algorithm),
                format!(
                    "reading 'keep' applies to the algorithms that select a pair of \
                     dimensions as they go (double-e-cube, direction-first), not to {}",
                    algorithm.name()
                )
            );
        }
        assert_eq!(Reading::default(), Reading::Reselect);
        assert_eq!(Reading::names(), ["reselect", "keep"]);
        let router = Router::new(cube(4, 2), Algorithm::DirectionFirst).unwrap();
        assert_eq!(router.reading(), Reading::Reselect);
        assert_eq!(router.label(), "direction-first");
        let keep = Router::with_reading(cube(4, 2), Algorithm::DoubleECube, Reading::Keep);
        assert_eq!(keep.unwrap().label(), "double-e-cube (keep reading)");
    }
}
