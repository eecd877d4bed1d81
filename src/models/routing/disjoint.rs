//! The golden model of the source routes of every topology without a route generator of
//! its own (de Bruijn, torus, mesh, any digraph): for an ordered pair, as many node-disjoint
//! routes as the graph has (the local connectivity, by Menger's theorem), of the least total
//! length among all sets of that many, shortest first, ties in lexicographic node order.
//! The source router tries them in that order, one per NACK, as it tries the Kautz route
//! generator's d routes.
//!
//! It is the min-cost flow of [`super::flow`] run up to the maximum flow. The least total
//! length does not promise that the first route is a shortest path on every digraph (a
//! shortest path can block two others); the property tests say on which topologies it is.
//! They check the model against an independent brute force: the local connectivity as the
//! smallest set of nodes whose removal cuts the pair, and the least total length over every
//! set of disjoint simple paths.
//!
//! Also here: [`dimension_order_route`], the one route of dimension-order routing on a torus
//! or mesh (`--routes dimension-order`).

use super::flow::min_cost_disjoint_paths;
use super::paths::NodePath;
use crate::choice::choice;
use crate::topology::digraph::Digraph;
use crate::topology::torus::{Node, Rings, Torus};

choice! {
    /// Where a torus's or mesh's source routes come from.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum RouteKind {
        #[default]
        Disjoint = "disjoint": "As many node-disjoint routes as the pair has, least total length, shortest first",
        DimensionOrder = "dimension-order": "One route, dimension 0 first, each ring the shorter way round",
    }
}

/// The node-disjoint routes from `src` to `dst` (`src != dst`): as many as there are, of
/// least total length, shortest first.
pub fn disjoint_routes(graph: &Digraph, src: usize, dst: usize) -> Vec<NodePath> {
    min_cost_disjoint_paths(graph, src, dst, usize::MAX).paths
}

/// The dimension-order route from `src` to `dst` on the torus (`wrap`) or mesh of `cube`:
/// dimension 0 first, then 1, and so on, each dimension's digit corrected before the next
/// is touched. Unidirectional rings go up the digit; bidirectional rings the shorter way
/// round, up on a tie; a mesh the only way there is.
pub fn dimension_order_route(
    cube: &Torus,
    rings: Rings,
    wrap: bool,
    src: &Node,
    dst: &Node,
) -> Vec<Node> {
    let k = cube.k();
    let mut digits = src.digits().to_vec();
    let mut route = vec![src.clone()];
    for dim in 0..cube.n() {
        let target = dst.digit(dim);
        while digits[dim] != target {
            let up = (target + k - digits[dim]) % k;
            let go_up = match rings {
                Rings::Unidirectional => true,
                Rings::Bidirectional if wrap => up <= k - up,
                Rings::Bidirectional => target > digits[dim],
            };
            digits[dim] = if go_up {
                (digits[dim] + 1) % k
            } else {
                (digits[dim] + k - 1) % k
            };
            route.push(cube.node(digits.clone()).expect("a digit mod k is a digit"));
        }
    }
    route
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;
    use crate::routing::paths::check_node_disjoint;
    use crate::topology::debruijn::DeBruijn;
    use crate::topology::edge_list;
    use crate::topology::kautz::Kautz;

    fn node(cube: &Torus, text: &str) -> Node {
        cube.parse_node(text).unwrap()
    }

    fn written(route: &[Node]) -> Vec<String> {
        route.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn dimension_order_corrects_dimension_0_first() {
        // Nodes are written most significant digit first: "0,2" has digit 2 in dimension 0.
        let cube = Torus::new(4, 2).unwrap();
        let (src, dst) = (node(&cube, "0,3"), node(&cube, "2,0"));
        let uni = dimension_order_route(&cube, Rings::Unidirectional, true, &src, &dst);
        assert_eq!(written(&uni), ["0,3", "0,0", "1,0", "2,0"]);
        let bi = dimension_order_route(&cube, Rings::Bidirectional, true, &src, &dst);
        // Dimension 0: 3 -> 0 is one hop up; dimension 1: 0 -> 2 is a tie, taken up.
        assert_eq!(written(&bi), ["0,3", "0,0", "1,0", "2,0"]);
        let mesh = dimension_order_route(&cube, Rings::Bidirectional, false, &src, &dst);
        assert_eq!(written(&mesh), ["0,3", "0,2", "0,1", "0,0", "1,0", "2,0"]);
        // Back: dimension 0, 0 -> 3, is one hop down; dimension 1, 2 -> 0, a tie, up.
        let back = dimension_order_route(&cube, Rings::Bidirectional, true, &dst, &src);
        assert_eq!(written(&back), ["2,0", "2,3", "3,3", "0,3"]);
    }

    #[test]
    fn the_most_routes_can_leave_out_every_shortest_path() {
        // s=0 -> a=1 -> b=2 -> t=3 is the one shortest path, but it holds both a and b, and
        // the two routes there are, 0-1-4-5-3 and 0-6-7-2-3, need one each.
        let graph = Digraph::from_fn(8, |v| match v {
            0 => vec![1, 6],
            1 => vec![2, 4],
            2 => vec![3],
            4 => vec![5],
            5 => vec![3],
            6 => vec![7],
            7 => vec![2],
            _ => vec![],
        });
        assert_eq!(graph.distances_from(0)[3], Some(3));
        assert_eq!(
            disjoint_routes(&graph, 0, 3),
            [vec![0, 1, 4, 5, 3], vec![0, 6, 7, 2, 3]]
        );
    }

    #[test]
    fn a_ring_has_two_disjoint_routes_one_way_round_each() {
        let ring = Digraph::from_fn(5, |v| [(v + 1) % 5, (v + 4) % 5]);
        assert_eq!(
            disjoint_routes(&ring, 0, 2),
            [vec![0, 1, 2], vec![0, 4, 3, 2]]
        );
        assert_eq!(
            disjoint_routes(&ring, 3, 4),
            [vec![3, 4], vec![3, 2, 1, 0, 4]]
        );
    }

    /// The local connectivity from `s` to `t` by brute force: the direct arc, if any, plus the
    /// fewest other nodes whose removal leaves no path.
    fn connectivity(graph: &Digraph, s: usize, t: usize) -> usize {
        let n = graph.node_count();
        let direct = usize::from(graph.has_arc(s, t));
        let others: Vec<usize> = (0..n).filter(|&v| v != s && v != t).collect();
        let reaches = |removed: u64| {
            let mut seen = vec![false; n];
            let mut stack = vec![s];
            seen[s] = true;
            while let Some(u) = stack.pop() {
                for &v in graph.out(u) {
                    let cut = others
                        .iter()
                        .position(|&o| o == v)
                        .is_some_and(|i| removed >> i & 1 == 1);
                    if (u, v) != (s, t) && !seen[v] && !cut {
                        seen[v] = true;
                        stack.push(v);
                    }
                }
            }
            seen[t]
        };
        let cut = (0u64..1 << others.len())
            .filter(|&removed| !reaches(removed))
            .map(|removed| removed.count_ones() as usize)
            .min()
            .expect("removing every other node cuts the pair");
        direct + cut
    }

    /// Every simple path from `s` to `t`.
    fn simple_paths(graph: &Digraph, s: usize, t: usize) -> Vec<NodePath> {
        fn walk(graph: &Digraph, t: usize, path: &mut NodePath, out: &mut Vec<NodePath>) {
            let u = *path.last().unwrap();
            if u == t {
                out.push(path.clone());
                return;
            }
            for &v in graph.out(u) {
                if !path.contains(&v) {
                    path.push(v);
                    walk(graph, t, path, out);
                    path.pop();
                }
            }
        }
        let mut out = Vec::new();
        walk(graph, t, &mut vec![s], &mut out);
        out
    }

    /// The least total length of `want` internally disjoint paths among `paths`, by search.
    fn least_total(paths: &[NodePath], want: usize) -> Option<usize> {
        fn search(
            paths: &[NodePath],
            from: usize,
            want: usize,
            used: &mut Vec<usize>,
            total: usize,
            best: &mut Option<usize>,
        ) {
            if want == 0 {
                *best = Some(best.map_or(total, |b| b.min(total)));
                return;
            }
            for i in from..paths.len() {
                let p = &paths[i];
                let inner = &p[1..p.len() - 1];
                if best.is_some_and(|b| total + p.len() > b)
                    || inner.iter().any(|v| used.contains(v))
                {
                    continue;
                }
                used.extend_from_slice(inner);
                search(paths, i + 1, want - 1, used, total + p.len() - 1, best);
                used.truncate(used.len() - inner.len());
            }
        }
        let mut best = None;
        search(paths, 0, want, &mut Vec::new(), 0, &mut best);
        best
    }

    /// Strongly connected random digraphs of 5 to 8 nodes, out-degree 1 to 3, no self-loop.
    fn random_digraphs() -> Vec<Digraph> {
        let mut rng = SplitMix64::new(25);
        let mut graphs = Vec::new();
        while graphs.len() < 40 {
            let n = 5 + rng.below(4) as usize;
            let graph = Digraph::from_fn(n, |v| {
                let mut out: Vec<usize> = Vec::new();
                for _ in 0..1 + rng.below(3) {
                    let w = rng.below(n as u64) as usize;
                    if w != v && !out.contains(&w) {
                        out.push(w);
                    }
                }
                out
            });
            if (0..n).all(|v| graph.distances_from(v).iter().all(Option::is_some)) {
                graphs.push(graph);
            }
        }
        graphs
    }

    /// Checks the model on every ordered pair of `graph`; the least total by search only where
    /// `search` (it grows with the number of simple paths). Returns the pairs whose first route
    /// is longer than the distance.
    fn check_every_pair(what: &str, graph: &Digraph, search: bool) -> usize {
        let n = graph.node_count();
        let mut first_not_shortest = 0;
        for s in 0..n {
            let distance = graph.distances_from(s);
            for t in (0..n).filter(|&t| t != s) {
                let routes = &disjoint_routes(graph, s, t);
                assert_eq!(
                    check_node_disjoint(graph, s, t, routes),
                    Ok(()),
                    "{what} {s}->{t}"
                );
                assert_eq!(
                    routes.len(),
                    connectivity(graph, s, t),
                    "{what} {s}->{t}: {routes:?}"
                );
                let lengths: Vec<usize> = routes.iter().map(|r| r.len() - 1).collect();
                assert!(lengths.is_sorted(), "{what} {s}->{t}: shortest first");
                if search {
                    let total = lengths.iter().sum::<usize>();
                    let paths = simple_paths(graph, s, t);
                    assert_eq!(
                        Some(total),
                        least_total(&paths, routes.len()),
                        "{what} {s}->{t}"
                    );
                }
                first_not_shortest += usize::from(Some(lengths[0]) != distance[t]);
            }
        }
        first_not_shortest
    }

    /// The graphs of every topology kind, small enough for the brute force: de Bruijn, the
    /// unidirectional and bidirectional torus, the mesh, a digraph from an edge list, Kautz.
    fn topologies() -> Vec<(String, Digraph)> {
        let mut graphs = Vec::new();
        for (d, k) in [(2, 3), (3, 2), (2, 4)] {
            graphs.push((
                format!("B({d},{k})"),
                DeBruijn::new(d, k).unwrap().digraph(),
            ));
        }
        for (k, n) in [(3, 2), (2, 3), (4, 2)] {
            graphs.push((
                format!("{k}-ary {n}-cube, one way"),
                grid(k, n, Grid::OneWay),
            ));
        }
        for (k, n) in [(3, 2), (2, 3)] {
            let cube = Torus::new(k as u64, n as u64).unwrap();
            graphs.push((format!("{cube}, both ways"), cube.digraph().unwrap()));
        }
        for (k, n) in [(3, 2), (4, 2), (2, 3)] {
            graphs.push((format!("{k}-ary {n}-mesh"), grid(k, n, Grid::Mesh)));
        }
        graphs.push((
            "ten nodes".to_string(),
            edge_list::parse(TEN_NODES).unwrap(),
        ));
        graphs.push((
            "K(2,3)".to_string(),
            Kautz::new(2, 3).unwrap().digraph().unwrap(),
        ));
        graphs
    }

    /// A 10-node digraph: a ring 0 -> 1 -> ... -> 9 -> 0 with chords i -> i + 3 from the
    /// even nodes.
    const TEN_NODES: &str = "0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 0\n\
                             0 3\n2 5\n4 7\n6 9\n8 1\n";

    enum Grid {
        OneWay,
        Mesh,
    }

    /// The unidirectional k-ary n-cube, or the k-ary n-mesh, written out with arithmetic
    /// on the digits (dimension 0 the least significant), apart from `fabric::network`.
    fn grid(k: usize, n: usize, kind: Grid) -> Digraph {
        Digraph::from_fn(k.pow(n as u32), |v| {
            let mut out = Vec::new();
            for dim in 0..n {
                let step = k.pow(dim as u32);
                let digit = v / step % k;
                match kind {
                    Grid::OneWay => out.push(v - digit * step + (digit + 1) % k * step),
                    Grid::Mesh => {
                        if digit + 1 < k {
                            out.push(v + step);
                        }
                        if digit > 0 {
                            out.push(v - step);
                        }
                    }
                }
            }
            out
        })
    }

    #[test]
    fn routes_are_as_many_as_the_connectivity_and_least_in_total_on_every_topology() {
        for (what, graph) in topologies() {
            let search = graph.node_count() <= 12;
            let longer = check_every_pair(&what, &graph, search);
            // On these regular graphs the least total always holds a shortest path first.
            assert_eq!(longer, 0, "{what}");
        }
    }

    #[test]
    fn routes_on_random_digraphs() {
        let mut longer = 0;
        for (i, graph) in random_digraphs().iter().enumerate() {
            longer += check_every_pair(&format!("random digraph {i}"), graph, true);
        }
        // On these graphs too a shortest path is always among the routes, though it need
        // not be (the_most_routes_can_leave_out_every_shortest_path).
        assert_eq!(longer, 0);
    }
}
