//! Distances in a fault-free network: its diameter and mean distance by breadth-first
//! search over the plan's links, and the uniform-traffic capacity they give (docs/network.md,
//! "Load"). A run reports the capacity; `netsim compare` the diameter and mean distance.

use super::plan::Plan;
use std::collections::VecDeque;

/// A run's capacity takes its mean distance over every source of a network of at most this
/// many nodes, and over [`SAMPLED_SOURCES`] evenly spread ones of a larger, so that a large
/// run does not spend longer on it than on its cycles.
const ALL_SOURCES: usize = 512;
const SAMPLED_SOURCES: usize = 64;

/// The hop distances of a network from some of its sources to every other node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distances {
    /// The longest shortest path from a source searched.
    pub diameter: u32,
    /// The mean over the sources searched and every other node.
    pub mean: f64,
    /// How many sources were searched; all of them when this is the node count.
    pub sources: usize,
}

/// The distances from `sources` sources of `plan`'s network, evenly spread over the node
/// order (all of them if it has no more nodes); none if some pair is not connected.
pub fn distances(plan: &dyn Plan, sources: usize) -> Option<Distances> {
    let n = plan.node_count();
    let out: Vec<Vec<usize>> = (0..n).map(|v| plan.out_neighbours(v)).collect();
    let sources = sources.clamp(1, n);
    let (mut total, mut diameter) = (0u64, 0u32);
    let mut dist = vec![u32::MAX; n];
    let mut queue = VecDeque::new();
    for i in 0..sources {
        let s = i * n / sources;
        dist.fill(u32::MAX);
        dist[s] = 0;
        queue.push_back(s);
        while let Some(v) = queue.pop_front() {
            for &w in &out[v] {
                if dist[w] == u32::MAX {
                    dist[w] = dist[v] + 1;
                    queue.push_back(w);
                }
            }
        }
        if dist.contains(&u32::MAX) {
            return None;
        }
        total += dist.iter().map(|&d| u64::from(d)).sum::<u64>();
        diameter = diameter.max(dist.iter().copied().max().unwrap_or(0));
    }
    Some(Distances {
        diameter,
        mean: total as f64 / (sources * (n - 1).max(1)) as f64,
        sources,
    })
}

/// The uniform-traffic capacity of `plan`'s fault-free network in bytes per node per cycle
/// (docs/network.md, "Load"): links / (nodes x mean distance), capped by the injection
/// link's 1; none if some pair is not connected.
pub fn capacity(plan: &dyn Plan) -> Option<f64> {
    let n = plan.node_count();
    let sources = if n <= ALL_SOURCES { n } else { SAMPLED_SOURCES };
    let mean = distances(plan, sources)?.mean;
    let links: usize = (0..n).map(|v| plan.out_neighbours(v).len()).sum();
    Some((links as f64 / (n as f64 * mean)).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::plan::KautzPlan;
    use crate::topology::kautz::Kautz;

    /// K(2,3): from a node aba (010, 020, 101, 121, 202, 212) 2 nodes are 1 hop away, 3
    /// are 2 and 6 are 3: 26 hops over 11 nodes; from a node abc 2, 4 and 5: 25. The mean
    /// distance is (6 x 26 + 6 x 25) / (12 x 11) = 306 / 132, the diameter 3 = k.
    #[test]
    fn kautz_distances_are_counted_over_every_pair() {
        let plan = KautzPlan::new(Kautz::new(2, 3).unwrap(), 1).unwrap();
        let d = distances(&plan, 100).unwrap();
        assert_eq!((d.diameter, d.sources), (3, 12));
        assert!((d.mean - 306.0 / 132.0).abs() < 1e-12, "{}", d.mean);
        // 24 links over 12 nodes x 306/132 hops.
        let c = capacity(&plan).unwrap();
        assert!((c - 24.0 / (12.0 * 306.0 / 132.0)).abs() < 1e-12, "{c}");
    }
}
