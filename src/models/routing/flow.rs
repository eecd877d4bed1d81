//! Independent reference for node-disjoint routing: min-cost flow on the node-split graph.
//!
//! Each node `v` becomes `v_in -> v_out` with capacity 1, each arc `u -> v` becomes
//! `u_out -> v_in` with capacity 1 and cost 1. A flow of value `m` from `src_out` to `dst_in`
//! is then `m` node-disjoint paths, and its cost their total length. Successive shortest
//! augmenting paths (Dijkstra with Johnson potentials) give, for every `m`, the least total
//! length of `m` disjoint paths, so this answers both "how many disjoint paths exist" and
//! "how short can their sum be" without sharing any code with the routing models it checks.

use crate::routing::paths::NodePath;
use crate::topology::digraph::Digraph;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The optimum found by [`min_cost_disjoint_paths`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisjointOptimum {
    /// The paths of one optimal flow, shortest first, ties in lexicographic node order.
    pub paths: Vec<NodePath>,
    /// Their total number of arcs: the least possible for this many disjoint paths.
    pub total_len: usize,
}

struct Edge {
    to: usize,
    cap: i32,
    cost: i64,
}

/// Residual network; edge `e ^ 1` is the reverse of edge `e`.
struct Network {
    edges: Vec<Edge>,
    adj: Vec<Vec<usize>>,
}

impl Network {
    fn new(nodes: usize) -> Self {
        Network {
            edges: Vec::new(),
            adj: vec![Vec::new(); nodes],
        }
    }

    fn add(&mut self, from: usize, to: usize, cost: i64) {
        self.adj[from].push(self.edges.len());
        self.edges.push(Edge { to, cap: 1, cost });
        self.adj[to].push(self.edges.len());
        self.edges.push(Edge {
            to: from,
            cap: 0,
            cost: -cost,
        });
    }

    /// One shortest augmenting path under reduced costs; returns its edges, or `None`.
    fn shortest_augmenting_path(
        &self,
        src: usize,
        dst: usize,
        potential: &mut [i64],
    ) -> Option<Vec<usize>> {
        let n = self.adj.len();
        let mut dist = vec![i64::MAX; n];
        let mut via = vec![usize::MAX; n];
        let mut heap = BinaryHeap::from([Reverse((0i64, src))]);
        dist[src] = 0;
        while let Some(Reverse((du, u))) = heap.pop() {
            if du > dist[u] {
                continue;
            }
            for &e in &self.adj[u] {
                let edge = &self.edges[e];
                if edge.cap == 0 {
                    continue;
                }
                let reduced = edge.cost + potential[u] - potential[edge.to];
                let dv = du + reduced;
                if dv < dist[edge.to] {
                    dist[edge.to] = dv;
                    via[edge.to] = e;
                    heap.push(Reverse((dv, edge.to)));
                }
            }
        }
        if dist[dst] == i64::MAX {
            return None;
        }
        for (p, d) in potential.iter_mut().zip(&dist) {
            if *d != i64::MAX {
                *p += d;
            }
        }
        let mut path = Vec::new();
        let mut v = dst;
        while v != src {
            let e = via[v];
            path.push(e);
            v = self.edges[e ^ 1].to;
        }
        Some(path)
    }
}

/// Up to `want` node-disjoint paths from `src` to `dst` (`src != dst`) with the least total
/// length among all sets of that many; fewer if the graph has fewer.
pub fn min_cost_disjoint_paths(
    graph: &Digraph,
    src: usize,
    dst: usize,
    want: usize,
) -> DisjointOptimum {
    assert_ne!(src, dst, "disjoint paths need two distinct ends");
    let n = graph.node_count();
    let (node_in, node_out) = (|v: usize| 2 * v, |v: usize| 2 * v + 1);
    let mut net = Network::new(2 * n);
    for v in 0..n {
        net.add(node_in(v), node_out(v), 0);
    }
    for (u, v) in graph.arcs() {
        if u != v {
            net.add(node_out(u), node_in(v), 1);
        }
    }
    let (source, sink) = (node_out(src), node_in(dst));
    let mut potential = vec![0i64; 2 * n];
    let mut found = 0;
    while found < want {
        let Some(path) = net.shortest_augmenting_path(source, sink, &mut potential) else {
            break;
        };
        for e in path {
            net.edges[e].cap -= 1;
            net.edges[e ^ 1].cap += 1;
        }
        found += 1;
    }
    let mut paths: Vec<NodePath> = (0..found)
        .map(|_| take_flow_path(&mut net, source, sink))
        .collect();
    paths.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    let total_len = paths.iter().map(|p| p.len() - 1).sum();
    DisjointOptimum { paths, total_len }
}

/// Removes one unit of flow from `source` to `sink` and returns it as a node path.
fn take_flow_path(net: &mut Network, source: usize, sink: usize) -> NodePath {
    let mut nodes = vec![source / 2];
    let mut v = source;
    while v != sink {
        // A forward edge (even index) that carries flow has its reverse at capacity 1.
        let e = net.adj[v]
            .iter()
            .copied()
            .find(|&e| e.is_multiple_of(2) && net.edges[e ^ 1].cap > 0)
            .expect("flow conservation: every node on a flow path has flow out");
        net.edges[e ^ 1].cap -= 1;
        v = net.edges[e].to;
        if v.is_multiple_of(2) {
            nodes.push(v / 2);
        }
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::paths::check_node_disjoint;

    /// Two routes 0 -> 5: a short one through 1 and a long one through 2, 3, 4; a shortcut
    /// 1 -> 3 tempts a greedy search into blocking the second route.
    fn trap() -> Digraph {
        Digraph::from_fn(6, |v| match v {
            0 => vec![1, 2],
            1 => vec![3, 5],
            2 => vec![3],
            3 => vec![4, 5],
            4 => vec![5],
            _ => vec![],
        })
    }

    #[test]
    fn finds_the_least_total_length() {
        let g = trap();
        let best = min_cost_disjoint_paths(&g, 0, 5, 3);
        assert_eq!(best.paths, vec![vec![0, 1, 5], vec![0, 2, 3, 5]]);
        assert_eq!(best.total_len, 5);
        assert_eq!(check_node_disjoint(&g, 0, 5, &best.paths), Ok(()));
    }

    #[test]
    fn reroutes_a_greedy_first_path() {
        // Shortest path 0-1-3-5 would block 2; the optimum re-routes through the reverse edge.
        let g = Digraph::from_fn(6, |v| match v {
            0 => vec![1, 2],
            1 => vec![3, 4],
            2 => vec![3],
            3 => vec![5],
            4 => vec![5],
            _ => vec![],
        });
        let best = min_cost_disjoint_paths(&g, 0, 5, 2);
        assert_eq!(best.paths, vec![vec![0, 1, 4, 5], vec![0, 2, 3, 5]]);
        assert_eq!(best.total_len, 6);
    }

    #[test]
    fn stops_at_the_connectivity() {
        let g = Digraph::from_fn(3, |v| if v < 2 { vec![v + 1] } else { vec![] });
        let best = min_cost_disjoint_paths(&g, 0, 2, 4);
        assert_eq!(best.paths, vec![vec![0, 1, 2]]);
    }
}
