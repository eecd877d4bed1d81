//! A run's parameters as netsim's JSON reports them ([`NetConfig`], made by
//! [`NetParams::config`]): every one resolved, defaults included, nodes and links named
//! as the command line names them; and the unit of each of its numbers ([`CONFIG_UNITS`]).
//! It is the one source of the `config` object of every netsim JSON (docs/network.md,
//! "JSON output"; docs/netsim.schema.json).

use super::params::{Measure, NetParams, Routing};
use super::receive::Receive;
use super::traffic::{Burst, Traffic};
use crate::choice::Choice;
use serde::Serialize;

/// Every parameter of a run, resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetConfig {
    pub topology: TopologyConfig,
    pub routing: RoutingConfig,
    pub flow: &'static str,
    pub arbiter: &'static str,
    /// The router's message buffer, in bytes.
    pub max_bytes: u8,
    pub traffic: TrafficConfig,
    /// The injection period, or under a measurement its window, in cycles.
    pub cycles: u64,
    /// A measured run's warm-up and drain limit; none for a plain run.
    pub measure: Option<Measure>,
    pub seed: u64,
    pub faults: FaultConfig,
    pub retry_rounds: u32,
    /// The routers' receive FIFOs; none for the paper's router.
    pub receive: Option<Receive>,
}

/// The topology: its name in the registry, its options as netsim's command line gives
/// them, the network they make and its nodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TopologyConfig {
    pub name: String,
    pub options: String,
    pub network: String,
    pub nodes: usize,
}

/// Where worms' routes come from: `source` (the others none) or `switch`, with the
/// algorithm, its reading and the flits each switch input holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoutingConfig {
    pub kind: &'static str,
    pub algorithm: Option<&'static str>,
    pub reading: Option<&'static str>,
    pub buffer_flits: Option<u64>,
}

/// The traffic: its pattern, rate, lengths, hot-spot fraction and bursts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrafficConfig {
    pub pattern: &'static str,
    pub rate: f64,
    pub message_bytes: MessageBytes,
    pub hot_fraction: f64,
    pub burst: Option<Burst>,
}

/// Data bytes per message: drawn uniformly from `lo` to `hi`, or with a `long_fraction`
/// one of the two ends.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MessageBytes {
    pub lo: u8,
    pub hi: u8,
    pub long_fraction: Option<f64>,
}

/// The faults asked for: nodes and links named as `--faulty-node` and `--faulty-link`
/// name them, and how many more of each the seed draws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FaultConfig {
    pub nodes: Vec<String>,
    pub links: Vec<String>,
    pub random_nodes: u64,
    pub random_links: u64,
}

/// The unit of every number of [`NetConfig`], by its path (keys joined by dots); the seed
/// is a name, not a quantity, and has none.
pub const CONFIG_UNITS: [(&str, &str); 18] = [
    ("topology.nodes", "nodes"),
    ("routing.buffer_flits", "flits"),
    ("max_bytes", "bytes"),
    ("traffic.rate", "messages/node/cycle"),
    ("traffic.message_bytes.lo", "bytes"),
    ("traffic.message_bytes.hi", "bytes"),
    ("traffic.message_bytes.long_fraction", "fraction"),
    ("traffic.hot_fraction", "fraction"),
    ("traffic.burst.on", "cycles"),
    ("traffic.burst.off", "cycles"),
    ("cycles", "cycles"),
    ("measure.warmup", "cycles"),
    ("measure.drain_limit", "cycles"),
    ("faults.random_nodes", "nodes"),
    ("faults.random_links", "links"),
    ("retry_rounds", "rounds"),
    ("receive.bytes", "bytes"),
    ("receive.ready", "fraction"),
];

impl NetParams {
    /// The run's configuration, its topology named `name` in the registry and given by
    /// the command-line `options` (e.g. `kautz` and `--d 2 --k 3`).
    pub fn config(&self, name: &str, options: &str) -> NetConfig {
        let plan = self.plan.as_ref();
        NetConfig {
            topology: TopologyConfig {
                name: name.to_string(),
                options: options.to_string(),
                network: plan.name(),
                nodes: plan.node_count(),
            },
            routing: routing_config(self.routing),
            flow: self.flow.name(),
            arbiter: self.arbiter.name(),
            max_bytes: self.max_bytes,
            traffic: traffic_config(&self.traffic),
            cycles: self.cycles,
            measure: self.measure,
            seed: self.seed,
            faults: FaultConfig {
                nodes: self
                    .faults
                    .nodes
                    .iter()
                    .map(|&v| plan.node_name(v))
                    .collect(),
                links: self
                    .faults
                    .links
                    .iter()
                    .map(|&(v, label)| format!("{}:{label}", plan.node_name(v)))
                    .collect(),
                random_nodes: self.faults.random_nodes,
                random_links: self.faults.random_links,
            },
            retry_rounds: self.retry_rounds,
            receive: self.receive,
        }
    }
}

fn routing_config(routing: Routing) -> RoutingConfig {
    match routing {
        Routing::Source => RoutingConfig {
            kind: "source",
            algorithm: None,
            reading: None,
            buffer_flits: None,
        },
        Routing::Switch {
            algorithm,
            reading,
            buffer_flits,
        } => RoutingConfig {
            kind: "switch",
            algorithm: Some(algorithm.name()),
            reading: Some(reading.name()),
            buffer_flits: Some(buffer_flits),
        },
    }
}

fn traffic_config(traffic: &Traffic) -> TrafficConfig {
    TrafficConfig {
        pattern: traffic.pattern.name(),
        rate: traffic.rate,
        message_bytes: MessageBytes {
            lo: *traffic.bytes.start(),
            hi: *traffic.bytes.end(),
            long_fraction: traffic.long_fraction,
        },
        hot_fraction: traffic.hot_fraction,
        burst: traffic.burst,
    }
}
