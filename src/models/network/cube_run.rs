//! A run of the k-ary n-cube paper's network on the shared engine, as `netsim torus`, the
//! Fig. 4 experiment and the deadlock witness ask for it ([`CubeRun`]): the bidirectional
//! k-ary n-cube, its switches routing with one of the paper's algorithms, uniform traffic of
//! fixed-length worms, and faulty links named or drawn by the seed. The cube is the
//! engine's [`Plan`] of any size the routing functions take ([`CubePlan`]), not only those
//! whose (d+1)x(d+1) switch the RTL builds (at most 15 network ports).

use super::faults::FaultSpec;
use super::message::SourceRoute;
use super::params::{NetError, NetParams, Routing};
use super::plan::{
    MAX_NODES, Plan, PlanError, TABLE_ROUTE_CYCLES, index_address, index_bytes, index_node,
};
use super::traffic::Traffic;
use crate::fabric::network::grid_wiring;
use crate::fabric::switch::{Arbiter, Flow};
use crate::fabric::wiring::{Wiring, WiringError};
use crate::routing::disjoint::dimension_order_route;
use crate::routing::torus::{Algorithm, Reading};
use crate::topology::torus::{Link, Node, Port, Rings, Torus};
use serde_json::{Value, json};
use std::sync::Arc;

/// Flits per message unless asked otherwise: a header and three body flits.
pub const DEFAULT_MESSAGE_FLITS: u64 = 4;

/// What a run of the k-ary n-cube is asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct CubeRun {
    pub cube: Torus,
    pub algorithm: Algorithm,
    /// When double e-cube and direction-first select their pair of dimensions.
    pub reading: Reading,
    /// Probability that a node makes a message in a cycle, 0 to 1.
    pub rate: f64,
    /// Cycles during which nodes make messages; the run then drains.
    pub cycles: u64,
    pub seed: u64,
    /// Flits per message, header included (1 to 255): a message of N bytes is a worm of
    /// N flits.
    pub message_flits: u64,
    /// Flits the input buffer of each channel holds.
    pub buffer_flits: u64,
    /// Faulty links named, and a number more drawn by the seed among the others.
    pub faulty_links: Vec<Link>,
    pub random_faulty_links: u64,
}

impl CubeRun {
    /// The engine's parameters of the run.
    pub fn params(&self) -> Result<NetParams, NetError> {
        let cube = self.cube;
        let plan = CubePlan::new(cube)?;
        let faults = FaultSpec {
            random_links: self.random_faulty_links,
            links: self
                .faulty_links
                .iter()
                .map(|l| (cube.index_of(&l.node), l.port.index() as u64 + 1))
                .collect(),
            ..FaultSpec::default()
        };
        let flits = u8::try_from(self.message_flits)
            .ok()
            .filter(|&f| f > 0)
            .ok_or(NetError::MessageFlits(self.message_flits))?;
        Ok(NetParams {
            plan: Arc::new(plan),
            routing: Routing::Switch {
                algorithm: self.algorithm,
                reading: self.reading,
                buffer_flits: self.buffer_flits,
            },
            arbiter: Arbiter::RoundRobin,
            flow: Flow::Nack,
            max_bytes: flits,
            traffic: Traffic {
                hot_fraction: 0.0,
                ..Traffic::uniform(self.rate, flits..=flits)
            },
            cycles: self.cycles,
            measure: None,
            seed: self.seed,
            faults,
            retry_rounds: 1,
            receive: None,
        })
    }
}

/// The bidirectional k-ary n-cube as the engine's plan: nodes named by their digits, switch
/// port p + 1 the cube's port p ([`Port::index`]), as `--topology torus` numbers them; its
/// routes are the dimension-order ones. Its wiring, which only the source-routed switches
/// need, exists while a switch has at most 15 network ports.
#[derive(Debug)]
pub struct CubePlan {
    cube: Torus,
    nodes: usize,
}

impl CubePlan {
    /// The plan of `cube`, if the engine holds its nodes.
    pub fn new(cube: Torus) -> Result<Self, NetError> {
        match cube.node_count() {
            Some(nodes) if nodes <= MAX_NODES => Ok(CubePlan {
                cube,
                nodes: nodes as usize,
            }),
            _ => Err(NetError::CubeTooLarge(cube)),
        }
    }

    /// The switch port that leads from node `a` to its neighbour `b`.
    fn port_to(&self, a: &Node, b: &Node) -> u8 {
        let port = self
            .cube
            .ports()
            .find(|&p| self.cube.neighbour(a, p).as_ref() == Some(b))
            .expect("a route's hops are links");
        port.index() as u8 + 1
    }
}

impl Plan for CubePlan {
    fn name(&self) -> String {
        format!("{}, bidirectional", self.cube)
    }

    fn node_count(&self) -> usize {
        self.nodes
    }

    fn ports(&self) -> usize {
        2 * self.cube.n()
    }

    fn wiring(&self) -> Result<Wiring, WiringError> {
        grid_wiring(&self.cube, Rings::Bidirectional, true)
    }

    fn node_name(&self, v: usize) -> String {
        self.cube.node_at(v).to_string()
    }

    fn parse_node(&self, text: &str) -> Result<usize, PlanError> {
        self.cube
            .parse_node(text.trim())
            .map(|node| self.cube.index_of(&node))
            .map_err(|_| PlanError::NoSuchNode {
                network: self.name(),
                name: text.to_string(),
                first: self.node_name(0),
                last: self.node_name(self.nodes - 1),
            })
    }

    fn node_json(&self, v: usize) -> Value {
        json!(self.node_name(v))
    }

    fn link_label(&self) -> &'static str {
        "port"
    }

    fn link_port(&self, v: usize, label: u64) -> Option<usize> {
        let index = usize::try_from(label).ok()?.checked_sub(1)?;
        (index < self.ports()).then_some(())?;
        let port = Port::from_index(index);
        self.cube.neighbour(&self.cube.node_at(v), port)?;
        Some(index + 1)
    }

    fn address_bytes(&self) -> usize {
        index_bytes(self.nodes)
    }

    fn address(&self, v: usize) -> Vec<u8> {
        index_address(self.nodes, v)
    }

    fn node_at(&self, address: &[u8]) -> Option<usize> {
        index_node(self.nodes, address)
    }

    fn routes(&self, src: usize, dst: usize) -> Vec<SourceRoute> {
        let (s, t) = (self.cube.node_at(src), self.cube.node_at(dst));
        let route = dimension_order_route(&self.cube, Rings::Bidirectional, true, &s, &t);
        vec![SourceRoute {
            bytes: route
                .windows(2)
                .map(|h| self.port_to(&h[0], &h[1]))
                .collect(),
            name: route.iter().map(|n| self.cube.index_of(n) as u32).collect(),
        }]
    }

    fn route_json(&self, name: &[u32]) -> Value {
        json!(
            name.iter()
                .map(|&v| self.node_name(v as usize))
                .collect::<Vec<_>>()
        )
    }

    fn route_node(&self, _src: usize, name: &[u32], at: usize) -> usize {
        name[at] as usize
    }

    fn route_cycles(&self) -> u64 {
        TABLE_ROUTE_CYCLES
    }

    /// The longest dimension-order route: half of each ring.
    fn max_hops(&self) -> usize {
        self.cube.n() * (self.cube.k() as usize / 2)
    }

    fn cube(&self) -> Option<Torus> {
        Some(self.cube)
    }

    fn out_neighbours(&self, v: usize) -> Vec<usize> {
        let node = self.cube.node_at(v);
        self.cube
            .ports()
            .filter_map(|p| self.cube.neighbour(&node, p))
            .map(|w| self.cube.index_of(&w))
            .collect()
    }
}
