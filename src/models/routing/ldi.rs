//! Golden models of routing in LDI(M,S) from Melhem, "Low Diameter Interconnections for
//! Routing in High Performance Parallel Systems" (see docs/papers.md): shortest routes for
//! every M, and the fixed-length h-hop routes of the paper's Theorem 3 (with Theorems 1/2,
//! the two-hop case, as h = 2).
//!
//! In: an [`Ldi`], a source and a destination node. Out: routes as link numbers L (the L-th
//! link of node n runs to `(S n + L) mod M`) together with the nodes they visit, and
//! per-hop next-link functions that routing hardware is compared with.
//!
//! Everything rests on one identity: j hops on links `L_0..L_(j-1)` from n end at
//! `(S^j n + x) mod M`, where `x = L_0 S^(j-1) + ... + L_(j-1)` is the link sequence read as
//! a j-digit base-S number. So the nodes reachable in exactly j hops form the window of
//! `S^j` consecutive nodes starting at `S^j n mod M`, and a route is a choice of x.
//!
//! Tie-breaking (fixed, because hardware must match it): the shortest route is the one whose
//! link sequence is lexicographically smallest, that is the smallest x; every suffix of it is
//! again the chosen route of its own start, so [`shortest_next_link`] needs no hop index.
//! Theorem 3's routes are listed by increasing first link; [`Theorem3::link`] follows the one
//! with the smallest first link.

use crate::topology::ldi::Ldi;
use thiserror::Error;

/// Why a routing method does not apply to an LDI; each message fits on one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RouteError {
    #[error(
        "theorem 3 routing needs M = S^(h-1) G with 1 < G <= S; {ldi} has h = {h} and {m} is not a multiple of {s}^{hm1} = {block}",
        m = ldi.m(), s = ldi.s(), hm1 = h - 1
    )]
    NotTheorem3 { ldi: Ldi, h: usize, block: usize },
    #[error(
        "two-hop routing needs M = S G with 1 < G <= S; {ldi} has M = {m} > S^2 = {square}",
        m = ldi.m(), square = ldi.s() * ldi.s()
    )]
    TwoHopTooLarge { ldi: Ldi },
    #[error(
        "two-hop routing needs M = S G with 1 < G <= S; {ldi} has M = {m}, not a multiple of S = {s}",
        m = ldi.m(), s = ldi.s()
    )]
    TwoHopNotMultiple { ldi: Ldi },
}

/// A walk in an LDI: `nodes[i + 1]` is where link `links[i]` of `nodes[i]` runs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Route {
    pub links: Vec<usize>,
    pub nodes: Vec<usize>,
}

impl Route {
    /// The walk from `src` along `links`.
    pub fn walk(ldi: &Ldi, src: usize, links: Vec<usize>) -> Route {
        let mut nodes = Vec::with_capacity(links.len() + 1);
        nodes.push(src);
        for &link in &links {
            let here = *nodes.last().expect("the walk starts at src");
            nodes.push(ldi.link_target(here, link));
        }
        Route { links, nodes }
    }

    pub fn hops(&self) -> usize {
        self.links.len()
    }
}

/// The smallest j whose window (the nodes `(S^j src + x) mod M`, `0 <= x < S^j`) holds dst,
/// and dst's offset x in it.
fn shortest_window(ldi: &Ldi, src: usize, dst: usize) -> (usize, usize) {
    let (m, s) = (ldi.m(), ldi.s());
    assert!(src < m && dst < m, "{src} -> {dst} leaves {ldi}");
    let (mut j, mut width, mut start) = (0, 1, src);
    // The window of h hops has S^h >= M nodes, so the loop ends by j = h, width <= M S.
    loop {
        let x = (dst + m - start) % m;
        if x < width {
            return (j, x);
        }
        j += 1;
        width *= s;
        start = s * start % m;
    }
}

/// The hop distance from src to dst (0 when they are equal).
///
/// # Panics
/// If src or dst is not a node.
pub fn shortest_distance(ldi: &Ldi, src: usize, dst: usize) -> usize {
    shortest_window(ldi, src, dst).0
}

/// The shortest route from src to dst with the lexicographically smallest link sequence;
/// empty when src = dst.
///
/// # Panics
/// If src or dst is not a node.
pub fn shortest_route(ldi: &Ldi, src: usize, dst: usize) -> Route {
    let (j, x) = shortest_window(ldi, src, dst);
    let links = (0..j).rev().map(|i| x / ldi.s_pow(i) % ldi.s()).collect();
    Route::walk(ldi, src, links)
}

/// The next-hop unit of shortest routing: the link to take at `cur` towards `dst`, `None` on
/// arrival. It is the first link of [`shortest_route`] from `cur`, and following it hop by
/// hop reproduces [`shortest_route`] from any source.
///
/// # Panics
/// If cur or dst is not a node.
pub fn shortest_next_link(ldi: &Ldi, cur: usize, dst: usize) -> Option<usize> {
    let (j, x) = shortest_window(ldi, cur, dst);
    (j > 0).then(|| x / ldi.s_pow(j - 1))
}

/// Theorem 3 routing in LDI(S^(h-1) G, S), `1 < G <= S`: every pair of nodes, equal or not,
/// is joined by walks of exactly h hops. Their last h-1 links are the last h-1 base-S digits
/// of the destination, `(d div S^(h-1-i)) mod S` at hop i (eq. 10.b); the first link L is any
/// of `0..S` with `(S n + L) mod G = d div S^(h-1)` (eq. 10.a), which leaves
/// `floor(S/G)` or `ceil(S/G)` choices. These are all the h-hop walks from n to d.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theorem3 {
    ldi: Ldi,
    h: usize,
    g: usize,
    /// S^(h-1): the destination's digits below it are fixed by eq. (10.b).
    block: usize,
}

impl Theorem3 {
    /// Theorem 3 for an LDI whose M is `S^(h-1) G`, h its diameter.
    pub fn new(ldi: Ldi) -> Result<Self, RouteError> {
        let h = ldi.h();
        let block = ldi.s_pow(h - 1);
        if !ldi.m().is_multiple_of(block) {
            return Err(RouteError::NotTheorem3 { ldi, h, block });
        }
        Ok(Theorem3 {
            ldi,
            h,
            g: ldi.m() / block,
            block,
        })
    }

    /// Theorems 1 and 2 (Section 4): M = S G with `1 < G <= S`, which is Theorem 3 with h = 2.
    pub fn two_hop(ldi: Ldi) -> Result<Self, RouteError> {
        if ldi.h() > 2 {
            return Err(RouteError::TwoHopTooLarge { ldi });
        }
        if !ldi.m().is_multiple_of(ldi.s()) {
            return Err(RouteError::TwoHopNotMultiple { ldi });
        }
        Theorem3::new(ldi)
    }

    /// The route length, which is also the diameter.
    pub fn h(&self) -> usize {
        self.h
    }

    /// G = M / S^(h-1).
    pub fn g(&self) -> usize {
        self.g
    }

    /// The smallest first link allowed by eq. (10.a); the others follow at steps of G.
    fn smallest_first_link(&self, src: usize, dst: usize) -> usize {
        let wanted = dst / self.block;
        (wanted + self.g - self.ldi.s() * src % self.g) % self.g
    }

    /// Every first link allowed by eq. (10.a), ascending: the L in `0..S` with
    /// `(S src + L) mod G = dst div S^(h-1)`.
    ///
    /// # Panics
    /// If src or dst is not a node.
    pub fn first_links(&self, src: usize, dst: usize) -> Vec<usize> {
        assert!(src < self.ldi.m() && dst < self.ldi.m());
        (self.smallest_first_link(src, dst)..self.ldi.s())
            .step_by(self.g)
            .collect()
    }

    /// The next-hop unit of Theorem 3 routing: the link to take at hop `hop` (0 to h-1) when
    /// at node `cur` heading for `dst`, on the route with the smallest first link. Hops after
    /// the first depend on `dst` and `hop` only.
    ///
    /// # Panics
    /// If cur or dst is not a node, or hop >= h.
    pub fn link(&self, cur: usize, dst: usize, hop: usize) -> usize {
        assert!(cur < self.ldi.m() && dst < self.ldi.m());
        assert!(hop < self.h, "hop {hop} of a {}-hop route", self.h);
        if hop == 0 {
            self.smallest_first_link(cur, dst)
        } else {
            dst / self.ldi.s_pow(self.h - 1 - hop) % self.ldi.s()
        }
    }

    /// All h-hop routes from src to dst, by increasing first link.
    ///
    /// # Panics
    /// If src or dst is not a node.
    pub fn routes(&self, src: usize, dst: usize) -> Vec<Route> {
        self.first_links(src, dst)
            .into_iter()
            .map(|first| {
                let mut links = Vec::with_capacity(self.h);
                links.push(first);
                links.extend((1..self.h).map(|hop| self.link(src, dst, hop)));
                Route::walk(&self.ldi, src, links)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::digraph::Digraph;

    fn ldi(m: usize, s: usize) -> Ldi {
        Ldi::new(m as u64, s as u64).unwrap()
    }

    /// Checks that `route` is a walk from src to dst in `g` taking link `links[i]` (the
    /// `links[i]`-th out-arc of the digraph) at every hop.
    fn assert_walk(g: &Digraph, route: &Route, src: usize, dst: usize, what: &str) {
        assert_eq!(route.nodes.len(), route.links.len() + 1, "{what}");
        assert_eq!(route.nodes[0], src, "{what}");
        assert_eq!(*route.nodes.last().unwrap(), dst, "{what}");
        for (i, &link) in route.links.iter().enumerate() {
            assert_eq!(
                g.out(route.nodes[i])[link],
                route.nodes[i + 1],
                "{what} hop {i}"
            );
        }
    }

    /// `ends[x]`: the node reached from src by the j-link sequence whose base-S value is x,
    /// walked arc by arc on the digraph.
    fn walk_ends(g: &Digraph, s: usize, src: usize, j: usize) -> Vec<usize> {
        let mut ends = vec![src];
        for _ in 0..j {
            let mut next = Vec::with_capacity(ends.len() * s);
            for &v in &ends {
                next.extend_from_slice(&g.out(v)[..s]);
            }
            ends = next;
        }
        ends
    }

    /// A link sequence read as a base-S number, first link most significant.
    fn value(links: &[usize], s: usize) -> usize {
        links.iter().fold(0, |acc, &l| acc * s + l)
    }

    /// M = S^(h-1) G for 1 < G <= S, S <= 6 and h <= 4: the Theorem 3 instances checked.
    fn theorem3_instances() -> Vec<(usize, usize)> {
        let mut list = Vec::new();
        for s in 2..=6usize {
            for h in 2..=4u32 {
                for g in 2..=s {
                    list.push((s.pow(h - 1) * g, s));
                }
            }
        }
        list
    }

    #[test]
    fn shortest_routes_have_bfs_length_for_every_pair() {
        let mut instances: Vec<(usize, usize)> = (2..=6usize)
            .flat_map(|s| (s + 1..=s.pow(3)).map(move |m| (m, s)))
            .collect();
        instances.extend((9..=256).map(|m| (m, 2)));
        for (m, s) in instances {
            let net = ldi(m, s);
            let g = net.digraph().unwrap();
            let mut diameter = 0;
            for src in 0..m {
                for (dst, bfs) in g.distances_from(src).into_iter().enumerate() {
                    let route = shortest_route(&net, src, dst);
                    let what = format!("LDI({m},{s}) {src} -> {dst}");
                    assert_walk(&g, &route, src, dst, &what);
                    assert_eq!(Some(route.hops()), bfs, "{what}");
                    assert_eq!(shortest_distance(&net, src, dst), route.hops(), "{what}");
                    diameter = diameter.max(route.hops());
                }
            }
            // The diameter claim of Section 2: h for S^(h-1) < M <= S^h.
            let h = (1..).find(|&h| s.pow(h) >= m).unwrap() as usize;
            assert_eq!(diameter, h, "LDI({m},{s})");
        }
    }

    #[test]
    fn shortest_route_is_the_lexicographically_smallest_and_next_link_follows_it() {
        for s in 2..=6usize {
            for m in s + 1..=s.pow(3) {
                let net = ldi(m, s);
                let g = net.digraph().unwrap();
                for src in 0..m {
                    // First hit of each node over all link sequences, by length, then value.
                    let mut first: Vec<Option<(usize, usize)>> = vec![None; m];
                    for j in 0..=net.h() {
                        for (x, &end) in walk_ends(&g, s, src, j).iter().enumerate() {
                            first[end].get_or_insert((j, x));
                        }
                    }
                    for (dst, expected) in first.into_iter().enumerate() {
                        let expected = expected.unwrap();
                        let what = format!("LDI({m},{s}) {src} -> {dst}");
                        let links = shortest_route(&net, src, dst).links;
                        assert_eq!((links.len(), value(&links, s)), expected, "{what}");
                        let mut cur = src;
                        let mut followed = Vec::new();
                        while let Some(link) = shortest_next_link(&net, cur, dst) {
                            followed.push(link);
                            cur = net.link_target(cur, link);
                            assert!(followed.len() <= links.len(), "{what}");
                        }
                        assert_eq!(followed, links, "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn theorem3_routes_are_exactly_all_h_hop_walks() {
        for (m, s) in theorem3_instances() {
            let net = ldi(m, s);
            let g = net.digraph().unwrap();
            let t3 = Theorem3::new(net).unwrap();
            let h = (1..).find(|&h| s.pow(h) >= m).unwrap() as usize;
            assert_eq!((t3.h(), t3.g()), (h, m / s.pow(h as u32 - 1)));
            for src in 0..m {
                let mut walks: Vec<Vec<usize>> = vec![Vec::new(); m];
                for (x, &end) in walk_ends(&g, s, src, h).iter().enumerate() {
                    walks[end].push(x);
                }
                for (dst, expected) in walks.into_iter().enumerate() {
                    let what = format!("LDI({m},{s}) {src} -> {dst}");
                    let routes = t3.routes(src, dst);
                    assert!(!routes.is_empty(), "{what}");
                    for route in &routes {
                        assert_eq!(route.hops(), h, "{what}");
                        assert_walk(&g, route, src, dst, &what);
                    }
                    let values: Vec<usize> = routes.iter().map(|r| value(&r.links, s)).collect();
                    assert_eq!(values, expected, "{what}");
                    let hardware: Vec<usize> = (0..h)
                        .scan(src, |cur, hop| {
                            let link = t3.link(*cur, dst, hop);
                            *cur = net.link_target(*cur, link);
                            Some(link)
                        })
                        .collect();
                    assert_eq!(hardware, routes[0].links, "{what}");
                }
            }
        }
    }

    #[test]
    fn theorem3_first_links_solve_eq_10a() {
        for (m, s) in theorem3_instances() {
            let t3 = Theorem3::new(ldi(m, s)).unwrap();
            let (gg, block) = (t3.g(), s.pow(t3.h() as u32 - 1));
            for src in 0..m {
                for dst in 0..m {
                    let solutions: Vec<usize> = (0..s)
                        .filter(|l| (s * src + l) % gg == dst / block)
                        .collect();
                    assert_eq!(t3.first_links(src, dst), solutions, "LDI({m},{s})");
                    assert!(solutions.len() == s / gg || solutions.len() == s.div_ceil(gg));
                }
            }
        }
    }

    #[test]
    fn table_1_diameters_and_average_hops() {
        // M = 4096 = S^h is the de Bruijn graph, where the distance from n to d is the least
        // j such that the last h-j base-S digits of n are the first h-j digits of d: an
        // independent formula the closed form is checked against on all 4096^2 pairs.
        // Theorem 3's unique h-hop route is followed with the next-hop unit on every pair.
        let m = 4096;
        for (s, diameter, table_average, rounded) in [
            (64, 2, 1.9, "2.0"),
            (16, 3, 2.9, "2.9"),
            (8, 4, 3.8, "3.8"),
            (4, 6, 5.6, "5.6"),
        ] {
            let net = ldi(m, s);
            let t3 = Theorem3::new(net).unwrap();
            assert_eq!((t3.h(), t3.g()), (diameter, s));
            let pow: Vec<usize> = (0..=diameter as u32).map(|i| s.pow(i)).collect();
            let mut sum = 0;
            let mut longest = 0;
            for src in 0..m {
                for dst in 0..m {
                    let overlap = (0..=diameter)
                        .find(|&j| src % pow[diameter - j] == dst / pow[j])
                        .unwrap();
                    let d = shortest_distance(&net, src, dst);
                    assert_eq!(d, overlap, "LDI(4096,{s}) {src} -> {dst}");
                    sum += d;
                    longest = longest.max(d);
                    let mut cur = src;
                    for hop in 0..diameter {
                        cur = net.link_target(cur, t3.link(cur, dst, hop));
                    }
                    assert_eq!(cur, dst, "LDI(4096,{s}) {src} -> {dst}");
                }
            }
            assert_eq!(longest, diameter, "S = {s}");
            // The table's averages come from simulation; over all ordered pairs of distinct
            // nodes the exact ones are 1.984, 2.930, 3.840 and 5.580. All lie within 0.1 of
            // the table, but 1.984 is listed as 1.9 where 5.580 is listed as 5.6, so the
            // table neither rounds nor truncates consistently.
            let average = sum as f64 / (m * (m - 1)) as f64;
            assert!((average - table_average).abs() < 0.1, "S = {s}: {average}");
            assert_eq!(format!("{average:.1}"), rounded, "S = {s}");
        }
    }

    #[test]
    fn section_2_windows_of_ldi_7_2() {
        // "node 2 can reach nodes 4 and 5 in one hop, nodes 1, 2, 3 and 4 in two hops, and
        // all seven nodes in three hops."
        let g = ldi(7, 2).digraph().unwrap();
        let reach = |j: usize| {
            let mut ends = walk_ends(&g, 2, 2, j);
            ends.sort_unstable();
            ends.dedup();
            ends
        };
        assert_eq!(reach(1), [4, 5]);
        assert_eq!(reach(2), [1, 2, 3, 4]);
        assert_eq!(reach(3), [0, 1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn section_5_example_ldi_18_3_from_7_to_14() {
        let net = ldi(18, 3);
        let t3 = Theorem3::new(net).unwrap();
        assert_eq!((t3.h(), t3.g()), (3, 2));
        // Worked by hand: link 0 or 2 to 3 or 5 (eq. 10.a), link 1 to 3*3+1 = 10 or
        // 3*5+1 = 16, link 2 to 32 mod 18 = 14 and 50 mod 18 = 14. The paper says "to either
        // node 10 or 15": 15 is a slip, node 15 links only to 9, 10 and 11.
        let routes = t3.routes(7, 14);
        assert_eq!(
            routes,
            vec![
                Route {
                    links: vec![0, 1, 2],
                    nodes: vec![7, 3, 10, 14]
                },
                Route {
                    links: vec![2, 1, 2],
                    nodes: vec![7, 5, 16, 14]
                },
            ]
        );
        let from_15: Vec<usize> = (0..3).map(|l| net.link_target(15, l)).collect();
        assert_eq!(from_15, [9, 10, 11]);
    }

    #[test]
    fn section_4_two_hop_examples_and_printed_formulas() {
        // Figure 5, LDI(12,4): the two paths from 5 to 9 go through 8 and 11.
        let t2 = Theorem3::two_hop(ldi(12, 4)).unwrap();
        let nodes: Vec<Vec<usize>> = t2.routes(5, 9).into_iter().map(|r| r.nodes).collect();
        assert_eq!(nodes, [[5, 8, 9], [5, 11, 9]]);
        // The algorithm as printed picks L with (S n + L) mod G = d mod S. For 5 -> 9 that is
        // (20 + L) mod 3 = 1, so L = 2, node 22 mod 12 = 10, then link 9 mod 4 = 1 to
        // 41 mod 12 = 5: not 9. The Note under it has the correct d div S.
        assert_eq!(ldi(12, 4).link_target(10, 1), 5);
        // Theorem 1 as printed (M = S^2, both links d mod S) reaches d = S (d mod S) + d mod S,
        // so only the S destinations whose two base-S digits are equal.
        for s in 2..=6usize {
            let net = ldi(s * s, s);
            for n in 0..s * s {
                for d in 0..s * s {
                    let printed = net.link_target(net.link_target(n, d % s), d % s);
                    assert_eq!(
                        printed == d,
                        d / s == d % s,
                        "LDI({},{s}) {n} -> {d}",
                        s * s
                    );
                }
            }
        }
        // The direct-link test of Section 4, "(S n) mod M <= d < (S n + S) mod M", misses the
        // links of windows that wrap: in LDI(9,3) node 2 links to 6, 7 and 8, but 6 <= 7 < 0
        // is false. Shortest routing takes the direct link.
        let (m, s, n, d) = (9, 3, 2, 7);
        assert!(!((s * n) % m <= d && d < (s * n + s) % m));
        assert_eq!(shortest_route(&ldi(9, 3), 2, 7).links, [1]);
    }

    #[test]
    fn routing_methods_refuse_graphs_they_do_not_fit() {
        let message = |r: Result<Theorem3, RouteError>| r.unwrap_err().to_string();
        assert_eq!(
            message(Theorem3::new(ldi(20, 3))),
            "theorem 3 routing needs M = S^(h-1) G with 1 < G <= S; LDI(20,3) has h = 3 and 20 is not a multiple of 3^2 = 9"
        );
        assert_eq!(
            message(Theorem3::two_hop(ldi(18, 3))),
            "two-hop routing needs M = S G with 1 < G <= S; LDI(18,3) has M = 18 > S^2 = 9"
        );
        assert_eq!(
            message(Theorem3::two_hop(ldi(8, 3))),
            "two-hop routing needs M = S G with 1 < G <= S; LDI(8,3) has M = 8, not a multiple of S = 3"
        );
        assert_eq!(Theorem3::two_hop(ldi(9, 3)).unwrap().h(), 2);
        assert_eq!(Theorem3::new(ldi(18, 3)).unwrap().g(), 2);
    }
}
