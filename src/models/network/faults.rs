//! The faults of a network run: nodes and links named by the user or drawn by the seed
//! ([`FaultSpec`]), resolved against the topology into node indices and switch ports
//! ([`Faults`]), and the fault mask each switch keeps its worms out of faulty outputs with
//! ([`fault_masks`]).

use super::plan::Plan;
use crate::fabric::wiring::Wiring;
use crate::random::{SplitMix64, mix};
use thiserror::Error;

/// Why the faults asked for cannot be.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FaultError {
    #[error("faulty node {0} is given twice")]
    NodeTwice(String),
    #[error("faulty link {0} is given twice")]
    LinkTwice(String),
    #[error("faulty link {node}:{label}: node {node} has no out-link by {kind} {label}")]
    NoSuchLink {
        node: String,
        kind: &'static str,
        label: u64,
    },
    #[error("{faulty} faulty nodes of {nodes} leave fewer than two healthy nodes to send between")]
    TooManyNodes { faulty: u64, nodes: u64 },
    #[error("{faulty} faulty links asked for, but the network has only {links} links ({network})")]
    TooManyLinks {
        faulty: u64,
        network: String,
        links: u64,
    },
}

/// Faulty nodes and links, as node indices.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Faults {
    /// Faulty nodes, ascending.
    pub nodes: Vec<u32>,
    /// Faulty out-links: (node, output port), those named first, in their order.
    pub links: Vec<(u32, usize)>,
}

/// How faults are asked for: nodes and links named by the user (nodes by index, links by
/// node and the label the plan gives out-links, [`Plan::link_label`]), plus a number of
/// nodes and then of links drawn by the seed among the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FaultSpec {
    pub random_nodes: u64,
    pub random_links: u64,
    pub nodes: Vec<usize>,
    pub links: Vec<(usize, u64)>,
}

impl FaultSpec {
    /// The faults of `plan`'s network, the random ones drawn from `seed`.
    pub fn resolve(&self, plan: &dyn Plan, seed: u64) -> Result<Faults, FaultError> {
        let mut rng = SplitMix64::new(mix(seed ^ 0xfa17));
        let nodes = self.nodes(plan, &mut rng)?;
        let links = self.links(plan, &mut rng)?;
        Ok(Faults { nodes, links })
    }

    /// The faulty nodes, ascending: those named, then those drawn.
    fn nodes(&self, plan: &dyn Plan, rng: &mut SplitMix64) -> Result<Vec<u32>, FaultError> {
        let n = plan.node_count() as u64;
        let mut faulty = vec![false; n as usize];
        let mut nodes = Vec::new();
        for &v in &self.nodes {
            if std::mem::replace(&mut faulty[v], true) {
                return Err(FaultError::NodeTwice(plan.node_name(v)));
            }
            nodes.push(v as u32);
        }
        let total = nodes.len() as u64 + self.random_nodes;
        if total + 2 > n {
            return Err(FaultError::TooManyNodes {
                faulty: total,
                nodes: n,
            });
        }
        for _ in 0..self.random_nodes {
            let v = loop {
                let v = rng.below(n) as usize;
                if !faulty[v] {
                    break v;
                }
            };
            faulty[v] = true;
            nodes.push(v as u32);
        }
        nodes.sort_unstable();
        Ok(nodes)
    }

    /// The faulty links: those named, then those drawn among every other out-link of the
    /// network (in the order of nodes, then of their labels).
    fn links(
        &self,
        plan: &dyn Plan,
        rng: &mut SplitMix64,
    ) -> Result<Vec<(u32, usize)>, FaultError> {
        let mut links = Vec::new();
        for &(v, label) in &self.links {
            let name = plan.node_name(v);
            let port = plan
                .link_port(v, label)
                .ok_or_else(|| FaultError::NoSuchLink {
                    node: name.clone(),
                    kind: plan.link_label(),
                    label,
                })?;
            if links.contains(&(v as u32, port)) {
                return Err(FaultError::LinkTwice(format!("{name}:{label}")));
            }
            links.push((v as u32, port));
        }
        if self.random_links == 0 {
            return Ok(links);
        }
        let labels = 0..=plan.ports() as u64;
        let all: Vec<(u32, usize)> = (0..plan.node_count())
            .flat_map(|v| {
                labels
                    .clone()
                    .filter_map(move |label| plan.link_port(v, label))
                    .map(move |p| (v as u32, p))
            })
            .collect();
        let total = links.len() as u64 + self.random_links;
        if total > all.len() as u64 {
            return Err(FaultError::TooManyLinks {
                faulty: total,
                network: plan.name(),
                links: all.len() as u64,
            });
        }
        for _ in 0..self.random_links {
            let link = loop {
                let link = all[rng.below(all.len() as u64) as usize];
                if !links.contains(&link) {
                    break link;
                }
            };
            links.push(link);
        }
        Ok(links)
    }
}

/// Bit p of node `v`'s fault mask: output p has no link, leads to a faulty node, or is a
/// faulty link.
pub fn fault_masks(wiring: &Wiring, faults: &Faults) -> Vec<u16> {
    let mut is_faulty = vec![false; wiring.nodes()];
    for &v in &faults.nodes {
        is_faulty[v as usize] = true;
    }
    let mut masks: Vec<u16> = (0..wiring.nodes())
        .map(|v| {
            (1..=wiring.ports())
                .filter(|&p| wiring.output(v, p).is_none_or(|to| is_faulty[to.node]))
                .fold(0, |mask, p| mask | 1 << p)
        })
        .collect();
    for &(v, p) in &faults.links {
        masks[v as usize] |= 1 << p;
    }
    masks
}
