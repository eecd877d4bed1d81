//! What the network model ([`super::net`]) needs of a topology besides the switch, which is
//! the same at every node: the wiring of the links, how a node is addressed in a message's
//! header and named in reports, and the routes its source router holds for each pair. Two
//! plans cover every topology (docs/topologies.md):
//! - [`KautzPlan`], K(d,k) with its route generator: a node's address is its word's k
//!   letters, its routes the generator's d node-disjoint routes, named by their hop letters;
//! - [`TablePlan`], any other [`SwitchNetwork`] with a route table: a node's address is
//!   its index in [`index_bytes`] bytes, most significant first, its routes those of a
//!   [`RouteRule`], named by the nodes they visit.

use super::message::SourceRoute;
use crate::fabric::network::SwitchNetwork;
use crate::fabric::wiring::{Wiring, WiringError, kautz_out_port, kautz_route_bytes};
use crate::routing::disjoint::{dimension_order_route, disjoint_routes};
use crate::routing::kautz::{route_set, walk};
use crate::routing::paths::NodePath;
use crate::topology::kautz::{Kautz, KautzError, Letter};
use crate::topology::torus::{Rings, Torus};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};
use thiserror::Error;

/// Most nodes a network model numbers: links are numbered node times ports plus port, up to
/// 16 ports, in a `u32`. Whether a network fits in memory is estimated per run
/// ([`super::memory`]).
pub const MAX_NODES: u64 = 1 << 27;

/// Cycles from a message's first byte, or from the previous route, to the route table's
/// next route (the B of a Kautz router's route generator): the table router registers the
/// destination, then reads the route from its ROM.
pub const TABLE_ROUTE_CYCLES: u64 = 2;

/// Why a node or a link named on the command line is not one of the network's.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlanError {
    #[error(transparent)]
    Kautz(#[from] KautzError),
    #[error("{network} has no node '{name}': its nodes are {first} to {last}")]
    NoSuchNode {
        network: String,
        name: String,
        first: String,
        last: String,
    },
    #[error("K({d},{k}) has {nodes} nodes; netsim numbers at most {MAX_NODES}")]
    TooLarge { d: usize, k: usize, nodes: String },
}

/// A topology as the network model runs it.
pub trait Plan: fmt::Debug + Send + Sync {
    /// What the network is called in reports: "K(2,3)", "B(2,3)", "3-ary 2-mesh".
    fn name(&self) -> String;

    fn node_count(&self) -> usize;

    /// d: network ports of every switch, which is (d+1)x(d+1).
    fn ports(&self) -> usize;

    /// Who is linked to whom, by which ports.
    fn wiring(&self) -> Result<Wiring, WiringError>;

    /// Node `v` as the user writes it.
    fn node_name(&self, v: usize) -> String;

    /// The node the user wrote as `text`.
    fn parse_node(&self, text: &str) -> Result<usize, PlanError>;

    /// Node `v` as a trace writes it (a Kautz word as its letters, other nodes by name).
    fn node_json(&self, v: usize) -> Value;

    /// What names a node's out-links on the command line: "letter" or "port".
    fn link_label(&self) -> &'static str;

    /// The output port of node `v`'s out-link called `label`, if it has one.
    fn link_port(&self, v: usize, label: u64) -> Option<usize>;

    /// Bytes of a node's address in a message's header.
    fn address_bytes(&self) -> usize;

    /// Node `v`'s address.
    fn address(&self, v: usize) -> Vec<u8>;

    /// The node at `address`, if it is one.
    fn node_at(&self, address: &[u8]) -> Option<usize>;

    /// The routes the router of `src` holds for `dst` (`src != dst`), in the order it
    /// tries them.
    fn routes(&self, src: usize, dst: usize) -> Vec<SourceRoute>;

    /// A route's name ([`SourceRoute::name`]) as a trace writes it.
    fn route_json(&self, name: &[u32]) -> Value;

    /// The node at position `at` (0 = `src`) of the route from `src` called `name`.
    fn route_node(&self, src: usize, name: &[u32], at: usize) -> usize;

    /// B: cycles from a message's first byte, or from the previous route, to its next route.
    fn route_cycles(&self) -> u64;

    /// L: the most hops a route takes (or a bound on it), which sizes a switch's buffers.
    fn max_hops(&self) -> usize;

    /// The bidirectional k-ary n-cube the network is, for switches that route with its
    /// routing functions; none for any other network.
    fn cube(&self) -> Option<Torus> {
        None
    }

    /// The nodes node `v`'s links lead to, for the neighbour traffic pattern.
    fn out_neighbours(&self, v: usize) -> Vec<usize>;

    /// Node `v`'s out-link by switch `port`, as `--faulty-link` names it: NODE:LETTER on
    /// K(d,k), NODE:PORT on every other topology.
    fn link_name(&self, v: usize, port: usize) -> String {
        let label = (0..=self.ports() as u64)
            .find(|&label| self.link_port(v, label) == Some(port))
            .expect("every link has a label");
        format!("{}:{label}", self.node_name(v))
    }
}

/// Most nodes of a route table whose every pair's routes are worked out for
/// [`Plan::max_hops`]; above it, a simple path's bound, N - 1 hops.
pub const EXACT_HOPS_NODES: usize = 256;

/// K(d,k) with its route generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KautzPlan {
    graph: Kautz,
    route_cycles: u64,
}

impl KautzPlan {
    /// K(d,k) whose route generator takes `route_cycles` cycles a route (its cycle bound,
    /// `rtl::kautz_route::faithful::cycle_bound`), if a model can hold it.
    pub fn new(graph: Kautz, route_cycles: u64) -> Result<Self, PlanError> {
        match graph.node_count() {
            Some(n) if n <= MAX_NODES => Ok(KautzPlan {
                graph,
                route_cycles,
            }),
            _ => Err(PlanError::TooLarge {
                d: graph.d(),
                k: graph.k(),
                nodes: graph.node_count_decimal(),
            }),
        }
    }

    pub fn graph(&self) -> &Kautz {
        &self.graph
    }
}

impl Plan for KautzPlan {
    fn name(&self) -> String {
        self.graph.to_string()
    }

    fn node_count(&self) -> usize {
        self.graph.node_count().expect("checked by new") as usize
    }

    fn ports(&self) -> usize {
        self.graph.d()
    }

    fn wiring(&self) -> Result<Wiring, WiringError> {
        Wiring::kautz(&self.graph)
    }

    fn node_name(&self, v: usize) -> String {
        self.graph.format_letters(self.graph.word_at(v).letters())
    }

    fn parse_node(&self, text: &str) -> Result<usize, PlanError> {
        let word = self.graph.parse_word(text)?;
        Ok(self.graph.index_of(word.letters()))
    }

    fn node_json(&self, v: usize) -> Value {
        json!(self.graph.word_at(v).letters())
    }

    fn link_label(&self) -> &'static str {
        "letter"
    }

    fn link_port(&self, v: usize, label: u64) -> Option<usize> {
        let word = self.graph.word_at(v);
        let last = word.letters()[self.graph.k() - 1];
        (label <= self.graph.d() as u64 && label != u64::from(last))
            .then(|| kautz_out_port(last, label as Letter) as usize)
    }

    fn address_bytes(&self) -> usize {
        self.graph.k()
    }

    fn address(&self, v: usize) -> Vec<u8> {
        self.graph.word_at(v).letters().to_vec()
    }

    fn node_at(&self, address: &[u8]) -> Option<usize> {
        self.graph
            .check_letters(address)
            .ok()
            .map(|()| self.graph.index_of(address))
    }

    fn routes(&self, src: usize, dst: usize) -> Vec<SourceRoute> {
        let (s, t) = (self.graph.word_at(src), self.graph.word_at(dst));
        let last = s.letters()[self.graph.k() - 1];
        route_set(&self.graph, s.letters(), t.letters())
            .expect("traffic runs between distinct nodes")
            .iter()
            .map(|r| SourceRoute {
                bytes: kautz_route_bytes(last, &r.hops),
                name: r.hops.iter().map(|&a| u32::from(a)).collect(),
            })
            .collect()
    }

    fn route_json(&self, name: &[u32]) -> Value {
        json!(name)
    }

    fn route_node(&self, src: usize, name: &[u32], at: usize) -> usize {
        let hops: Vec<Letter> = name.iter().map(|&a| a as Letter).collect();
        let word = &walk(self.graph.word_at(src).letters(), &hops)[at];
        self.graph.index_of(word)
    }

    fn out_neighbours(&self, v: usize) -> Vec<usize> {
        let word = self.graph.word_at(v);
        self.graph
            .out_neighbours(word.letters())
            .map(|w| self.graph.index_of(w.letters()))
            .collect()
    }

    fn route_cycles(&self) -> u64 {
        self.route_cycles
    }

    fn max_hops(&self) -> usize {
        self.graph.k() + 2
    }
}

/// Where a route table's routes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouteRule {
    /// [`disjoint_routes`] of the network's digraph.
    Disjoint,
    /// [`dimension_order_route`] on a torus (`wrap`) or mesh.
    DimensionOrder {
        cube: Torus,
        rings: Rings,
        wrap: bool,
    },
}

impl RouteRule {
    /// The routes of `network` from `src` to `dst`, as the nodes they visit.
    pub fn paths(&self, network: &SwitchNetwork, src: usize, dst: usize) -> Vec<NodePath> {
        match self {
            RouteRule::Disjoint => disjoint_routes(network.digraph(), src, dst),
            RouteRule::DimensionOrder { cube, rings, wrap } => {
                let (s, t) = (cube.node_at(src), cube.node_at(dst));
                let route = dimension_order_route(cube, *rings, *wrap, &s, &t);
                vec![route.iter().map(|n| cube.index_of(n)).collect()]
            }
        }
    }
}

/// Bytes of a node index in a header for `nodes` nodes: ceil(log256 nodes), at least 1.
pub fn index_bytes(nodes: usize) -> usize {
    let mut bytes = 1;
    while bytes < 8 && nodes > 1 << (8 * bytes) {
        bytes += 1;
    }
    bytes
}

/// Node `v`'s address in a network of `nodes` nodes addressed by index: the index,
/// most significant byte first, in [`index_bytes`] bytes.
pub fn index_address(nodes: usize, v: usize) -> Vec<u8> {
    (0..index_bytes(nodes))
        .rev()
        .map(|i| (v >> (8 * i)) as u8)
        .collect()
}

/// The node whose index address ([`index_address`]) is `address`, if there is one.
pub fn index_node(nodes: usize, address: &[u8]) -> Option<usize> {
    let v = address.iter().fold(0usize, |v, &b| v << 8 | usize::from(b));
    (address.len() == index_bytes(nodes) && v < nodes).then_some(v)
}

/// Any network of switches whose routers hold a route table.
#[derive(Debug)]
pub struct TablePlan {
    network: SwitchNetwork,
    rule: RouteRule,
    /// The routes of the pairs asked for so far: a pair's routes are worked out once.
    table: Mutex<HashMap<(usize, usize), Vec<SourceRoute>>>,
    /// The longest route's hops, once worked out.
    longest: OnceLock<usize>,
}

impl TablePlan {
    pub fn new(network: SwitchNetwork, rule: RouteRule) -> Self {
        TablePlan {
            network,
            rule,
            table: Mutex::new(HashMap::new()),
            longest: OnceLock::new(),
        }
    }

    pub fn network(&self) -> &SwitchNetwork {
        &self.network
    }

    pub fn rule(&self) -> &RouteRule {
        &self.rule
    }
}

impl Plan for TablePlan {
    fn name(&self) -> String {
        self.network.name().to_string()
    }

    fn node_count(&self) -> usize {
        self.network.node_count()
    }

    fn ports(&self) -> usize {
        self.network.ports()
    }

    fn wiring(&self) -> Result<Wiring, WiringError> {
        Ok(self.network.wiring().clone())
    }

    fn node_name(&self, v: usize) -> String {
        self.network.node_name(v).to_string()
    }

    fn parse_node(&self, text: &str) -> Result<usize, PlanError> {
        let net = &self.network;
        net.node_named(text.trim())
            .ok_or_else(|| PlanError::NoSuchNode {
                network: net.name().to_string(),
                name: text.to_string(),
                first: net.node_name(0).to_string(),
                last: net.node_name(net.node_count() - 1).to_string(),
            })
    }

    fn node_json(&self, v: usize) -> Value {
        json!(self.network.node_name(v))
    }

    fn link_label(&self) -> &'static str {
        "port"
    }

    fn link_port(&self, v: usize, label: u64) -> Option<usize> {
        let ports = 1..=self.network.ports();
        let port = usize::try_from(label).ok().filter(|p| ports.contains(p))?;
        self.network.wiring().output(v, port).map(|_| port)
    }

    fn address_bytes(&self) -> usize {
        index_bytes(self.network.node_count())
    }

    fn address(&self, v: usize) -> Vec<u8> {
        index_address(self.node_count(), v)
    }

    fn node_at(&self, address: &[u8]) -> Option<usize> {
        index_node(self.node_count(), address)
    }

    fn routes(&self, src: usize, dst: usize) -> Vec<SourceRoute> {
        let mut table = self
            .table
            .lock()
            .expect("no thread panics holding the table");
        let routes = table.entry((src, dst)).or_insert_with(|| {
            self.rule
                .paths(&self.network, src, dst)
                .iter()
                .map(|path| SourceRoute {
                    bytes: self.network.port_route(path),
                    name: path.iter().map(|&v| v as u32).collect(),
                })
                .collect()
        });
        routes.clone()
    }

    fn route_json(&self, name: &[u32]) -> Value {
        json!(
            name.iter()
                .map(|&v| self.network.node_name(v as usize))
                .collect::<Vec<_>>()
        )
    }

    fn route_node(&self, _src: usize, name: &[u32], at: usize) -> usize {
        name[at] as usize
    }

    fn out_neighbours(&self, v: usize) -> Vec<usize> {
        self.network.digraph().out(v).to_vec()
    }

    fn route_cycles(&self) -> u64 {
        TABLE_ROUTE_CYCLES
    }

    fn cube(&self) -> Option<Torus> {
        self.network.cube()
    }

    fn max_hops(&self) -> usize {
        let n = self.node_count();
        if n > EXACT_HOPS_NODES {
            return n - 1;
        }
        *self.longest.get_or_init(|| {
            let pairs = (0..n).flat_map(|s| (0..n).filter(move |&t| t != s).map(move |t| (s, t)));
            pairs
                .flat_map(|(s, t)| self.routes(s, t))
                .map(|r| r.bytes.len())
                .max()
                .unwrap_or(0)
        })
    }
}
