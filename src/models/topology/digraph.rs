//! A static directed graph in compressed sparse row form, nodes numbered `0..n`.
//!
//! Every topology can lower itself to a `Digraph` for the property checks and for the
//! min-cost-flow reference; routing models never need it, so it is built only in tests,
//! checks and drawings of small graphs.

use std::collections::VecDeque;

/// Directed graph with out-adjacency in CSR form. Parallel arcs and self-loops are kept as
/// given, because LDI graphs have both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digraph {
    offsets: Vec<usize>,
    targets: Vec<usize>,
}

impl Digraph {
    /// Builds the graph with `n` nodes whose out-arcs of node `v` are `out(v)`, in that order.
    pub fn from_fn<I, F>(n: usize, mut out: F) -> Self
    where
        F: FnMut(usize) -> I,
        I: IntoIterator<Item = usize>,
    {
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::new();
        offsets.push(0);
        for v in 0..n {
            for w in out(v) {
                assert!(w < n, "arc {v} -> {w} leaves a graph of {n} nodes");
                targets.push(w);
            }
            offsets.push(targets.len());
        }
        Digraph { offsets, targets }
    }

    pub fn node_count(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn arc_count(&self) -> usize {
        self.targets.len()
    }

    /// Out-neighbours of `v`, in the order the topology listed them.
    pub fn out(&self, v: usize) -> &[usize] {
        &self.targets[self.offsets[v]..self.offsets[v + 1]]
    }

    pub fn has_arc(&self, u: usize, v: usize) -> bool {
        self.out(u).contains(&v)
    }

    /// All arcs as `(from, to)` pairs, in node order.
    pub fn arcs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.node_count()).flat_map(move |u| self.out(u).iter().map(move |&v| (u, v)))
    }

    /// Hop distance from `src` to every node; `None` where unreachable.
    pub fn distances_from(&self, src: usize) -> Vec<Option<usize>> {
        let mut dist = vec![None; self.node_count()];
        let mut queue = VecDeque::from([src]);
        dist[src] = Some(0);
        while let Some(u) = queue.pop_front() {
            let du = dist[u].expect("queued nodes have a distance");
            for &v in self.out(u) {
                if dist[v].is_none() {
                    dist[v] = Some(du + 1);
                    queue.push_back(v);
                }
            }
        }
        dist
    }

    /// The largest distance between two nodes; `None` if the graph is not strongly connected.
    pub fn diameter(&self) -> Option<usize> {
        let mut worst = 0;
        for s in 0..self.node_count() {
            for dist in self.distances_from(s) {
                worst = worst.max(dist?);
            }
        }
        Some(worst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(n: usize) -> Digraph {
        Digraph::from_fn(n, |v| [(v + 1) % n])
    }

    #[test]
    fn csr_keeps_arcs_in_order() {
        let g = Digraph::from_fn(3, |v| if v == 0 { vec![2, 1, 2] } else { vec![] });
        assert_eq!(g.out(0), &[2, 1, 2]);
        assert_eq!(g.out(1), &[] as &[usize]);
        assert_eq!(g.arc_count(), 3);
        assert_eq!(g.arcs().collect::<Vec<_>>(), vec![(0, 2), (0, 1), (0, 2)]);
    }

    #[test]
    fn ring_distances_and_diameter() {
        let g = ring(5);
        assert_eq!(
            g.distances_from(3),
            vec![Some(2), Some(3), Some(4), Some(0), Some(1)]
        );
        assert_eq!(g.diameter(), Some(4));
    }

    #[test]
    fn disconnected_graph_has_no_diameter() {
        let g = Digraph::from_fn(3, |v| if v == 0 { vec![1] } else { vec![] });
        assert_eq!(g.diameter(), None);
    }
}
