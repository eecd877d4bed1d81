//! The comparison of networks at (nearly) equal size and equal switch (`netsim compare`,
//! docs/comparison.md): for each network its distances, its zero-load latency, its
//! saturation throughput under each traffic pattern, and what it delivers with 0 to d-1
//! faulty nodes, every network with the same switch, flow control, messages and seed.
//!
//! In: the contenders' parameters and what to run ([`Comparison`]). Out: one
//! [`Contender`]'s figures per network, in the order given. Its work is a list of
//! independent items ([`Comparison::items`]): every network under every pattern, each a
//! saturation search ([`super::saturation`]) and, under uniform traffic, the fault runs
//! whose load that search gives ([`Searched`]); they run on every processor
//! ([`super::driver::parallel_map`]), in any shards. Its table and chart are [`report`]'s.

use super::driver::parallel_map;
use super::saturation::{Saturation, SaturationError, measured, saturation_of};
use crate::choice::Choice;
use crate::network::distances::{capacity, distances};
use crate::network::net::{Net, NetParams};
use crate::network::traffic::Pattern;
use serde::{Deserialize, Serialize};

pub mod report;

/// What to compare and how.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// Each network's parameters (the traffic's pattern and rate are set per point) and
    /// the `netsim` options that name it.
    pub networks: Vec<(String, NetParams)>,
    /// The patterns each network is saturated under.
    pub patterns: Vec<Pattern>,
    /// The saturation searches' precision.
    pub precision: f64,
    /// Faulty nodes of the fault runs: 0 to this many.
    pub most_faults: u64,
    /// The fault runs offer this fraction of each network's uniform saturation throughput.
    pub fault_load: f64,
}

/// One network's figures.
#[derive(Debug, Clone, Serialize)]
pub struct Contender {
    /// The `netsim` options that build it.
    pub options: String,
    pub network: String,
    pub nodes: usize,
    /// Network ports of its switch (the switch is (ports+1) x (ports+1)).
    pub ports: usize,
    pub links: usize,
    pub diameter: u32,
    pub mean_distance: f64,
    /// Uniform-traffic capacity, bytes/node/cycle.
    pub capacity: f64,
    /// Each pattern's saturation search, or why it found none.
    pub saturation: Vec<PatternSaturation>,
    /// The fault runs, by faulty nodes.
    pub faults: Vec<FaultRun>,
}

/// A network's saturation under one pattern.
#[derive(Debug, Clone, Serialize)]
pub struct PatternSaturation {
    pub pattern: &'static str,
    #[serde(flatten)]
    pub found: Option<Saturation>,
    /// Saturated already at the zero-load probe: its offered load, bytes/node/cycle, which
    /// the saturation throughput is below.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub below: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A measured run of uniform traffic with some faulty nodes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FaultRun {
    pub faulty_nodes: u64,
    /// Offered load, bytes/node/cycle.
    pub offered: f64,
    /// Delivered over ended messages of the window.
    pub delivered_fraction: Option<f64>,
    pub first_attempt_success: Option<f64>,
}

/// What one item of a comparison found: a network's saturation search under one pattern
/// (or why it found none), and under uniform traffic the fault runs at
/// [`Comparison::fault_load`] of the throughput it found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Searched {
    pub found: Option<Saturation>,
    /// Saturated already at the zero-load probe: the load it offered.
    pub below: Option<f64>,
    pub error: Option<String>,
    pub faults: Vec<FaultRun>,
}

impl Comparison {
    /// The items, network by network: (the network's index, a pattern).
    pub fn items(&self) -> Vec<(usize, Pattern)> {
        (0..self.networks.len())
            .flat_map(|i| self.patterns.iter().map(move |&p| (i, p)))
            .collect()
    }

    /// The results of `items`, run on every processor, in their order.
    pub fn search(&self, items: &[(usize, Pattern)]) -> Vec<Searched> {
        parallel_map(items, |&(i, pattern)| {
            self.searched(&self.networks[i].1, pattern)
        })
    }

    /// The search of `params`'s network under `pattern`, and its fault runs under uniform
    /// traffic.
    fn searched(&self, params: &NetParams, pattern: Pattern) -> Searched {
        let mut params = params.clone();
        params.traffic.pattern = pattern;
        let result = saturation_of(&params, self.precision);
        let below = match &result {
            Err(SaturationError::ZeroLoadSaturated { offered, .. }) => Some(*offered),
            _ => None,
        };
        let faults = match (&result, pattern) {
            (Ok(found), Pattern::Uniform) => (0..=self.most_faults)
                .map(|faults| fault_run(&params, faults, self.fault_load * found.throughput))
                .collect(),
            _ => Vec::new(),
        };
        Searched {
            error: result.as_ref().err().map(ToString::to_string),
            found: result.ok(),
            below,
            faults,
        }
    }

    /// Every network's figures from the results of every item, in the order of
    /// [`Comparison::items`].
    pub fn contenders(&self, searched: Vec<Searched>) -> Vec<Contender> {
        let mut searched = searched.into_iter();
        self.networks
            .iter()
            .map(|(options, params)| {
                let mut faults = Vec::new();
                let saturation = self
                    .patterns
                    .iter()
                    .zip(searched.by_ref())
                    .map(|(pattern, s)| {
                        faults.extend(s.faults);
                        PatternSaturation {
                            pattern: pattern.name(),
                            found: s.found,
                            below: s.below,
                            error: s.error,
                        }
                    })
                    .collect();
                contender(options, params, saturation, faults)
            })
            .collect()
    }
}

/// A network's figures from its searches and fault runs, with its distances.
fn contender(
    options: &str,
    params: &NetParams,
    saturation: Vec<PatternSaturation>,
    faults: Vec<FaultRun>,
) -> Contender {
    let plan = params.plan.as_ref();
    let nodes = plan.node_count();
    let d = distances(plan, nodes);
    Contender {
        options: options.to_string(),
        network: plan.name(),
        nodes,
        ports: plan.ports(),
        links: (0..nodes).map(|v| plan.out_neighbours(v).len()).sum(),
        diameter: d.map_or(0, |d| d.diameter),
        mean_distance: d.map_or(f64::NAN, |d| d.mean),
        capacity: capacity(plan).unwrap_or(0.0),
        saturation,
        faults,
    }
}

/// A measured run of uniform traffic offering `load` bytes/node/cycle with `faults` faulty
/// nodes drawn by the seed.
fn fault_run(params: &NetParams, faults: u64, load: f64) -> FaultRun {
    let mut params = measured(params, params.cycles);
    params.traffic.pattern = Pattern::Uniform;
    params.traffic.rate = load / params.traffic.mean_bytes();
    params.faults.random_nodes = faults;
    let summary = Net::new(&params)
        .expect("the network was built once already")
        .run(|_| {});
    let ended = summary.delivered + summary.failed;
    FaultRun {
        faulty_nodes: faults,
        offered: summary.load.as_ref().map_or(0.0, |l| l.offered),
        delivered_fraction: (ended > 0).then(|| summary.delivered as f64 / ended as f64),
        first_attempt_success: summary.first_attempt_success,
    }
}
