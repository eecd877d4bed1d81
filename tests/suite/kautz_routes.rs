//! The Kautz route sets of the route-generator paper (Smit et al. 1991) against that paper's
//! examples and, for every ordered pair of several small graphs, against their defining
//! properties and the min-cost-flow optimum.

use kautzgen::routing::flow::min_cost_disjoint_paths;
use kautzgen::routing::kautz::{
    Phase, Route, RouteError, RouteShape, route_set, shift_route, shortest_route, walk,
};
use kautzgen::routing::paths::check_node_disjoint;
use kautzgen::topology::digraph::Digraph;
use kautzgen::topology::kautz::{Kautz, Letter};

fn graph(d: u64, k: u64) -> Kautz {
    Kautz::new(d, k).unwrap()
}

fn hops_of(g: &Kautz, src: &str, dst: &str) -> Vec<Vec<Letter>> {
    let (s, t) = (g.parse_word(src).unwrap(), g.parse_word(dst).unwrap());
    route_set(g, s.letters(), t.letters())
        .unwrap()
        .into_iter()
        .map(|r| r.hops)
        .collect()
}

#[test]
fn table_3_of_the_route_generator_paper() {
    // From 01234 to 23430 in K(4,5): overlap 3, overlap 0, inserted 0, inserted 1 then 3.
    assert_eq!(
        hops_of(&graph(4, 5), "01234", "23430"),
        vec![
            vec![3, 0],
            vec![2, 3, 4, 3, 0],
            vec![0, 2, 3, 4, 3, 0],
            vec![1, 3, 2, 3, 4, 3, 0],
        ]
    );
}

#[test]
fn k23_examples_of_the_route_generator_paper() {
    let g = graph(2, 3);
    // Section 3.2: from 120 to 201 the algorithm finds <1201> and <120201>.
    assert_eq!(hops_of(&g, "120", "201"), vec![vec![1], vec![2, 0, 1]]);
    // Section 3.3: Re = <021201> runs from 021 to 201 via out-node 212 and in-node 120.
    let routes = hops_of(&g, "021", "201");
    assert_eq!(routes[0], vec![2, 0, 1]);
    let nodes = walk(&[0, 2, 1], &routes[0]);
    assert_eq!(nodes[1], vec![2, 1, 2]);
    assert_eq!(nodes[2], vec![1, 2, 0]);
}

#[test]
fn shift_and_shortest_routes() {
    let g = graph(4, 5);
    let (s, t) = ([0, 1, 2, 3, 4], [2, 3, 4, 3, 0]);
    assert_eq!(shift_route(&g, &s, &t).unwrap(), Some(vec![2, 3, 4, 3, 0]));
    assert_eq!(shortest_route(&g, &s, &t).unwrap(), vec![3, 0]);
    // ak == b1: the shift route would repeat a letter, the shortest route uses the overlap.
    assert_eq!(shift_route(&g, &s, &[4, 0, 1, 2, 3]).unwrap(), None);
    assert_eq!(
        shortest_route(&g, &s, &[4, 0, 1, 2, 3]).unwrap(),
        vec![0, 1, 2, 3]
    );
}

#[test]
fn the_same_node_twice_is_refused() {
    let g = graph(2, 3);
    assert_eq!(
        route_set(&g, &[0, 1, 0], &[0, 1, 0]).unwrap_err(),
        RouteError::SameNode("010".into())
    );
    assert_eq!(
        route_set(&g, &[0, 1, 0], &[0, 3, 0])
            .unwrap_err()
            .to_string(),
        "node word '030': letter 3 at position 2 is out of range; K(2,3) uses letters 0 to 2"
    );
}

/// Everything that is wrong with `routes` as the route set from node `s` to node `t`.
fn violations(g: &Kautz, graph: &Digraph, s: usize, t: usize, routes: &[Route]) -> Vec<String> {
    let (src, distance) = (g.word_at(s), graph.distances_from(s)[t].unwrap());
    let (d, k) = (g.d(), g.k());
    let mut wrong = Vec::new();
    if routes.len() != d {
        wrong.push(format!("{} routes, not {d}", routes.len()));
    }
    let mut paths = Vec::new();
    for route in routes {
        let nodes = walk(src.letters(), &route.hops);
        if let Some(bad) = nodes.iter().find(|w| g.check_letters(w).is_err()) {
            wrong.push(format!(
                "route {:?} visits {:?}, not a node",
                route.hops, bad
            ));
            return wrong;
        }
        if route.hops.len() != route.shape.len(k) || route.hops.len() > k + 2 {
            wrong.push(format!(
                "route {:?} has length {}",
                route.hops,
                route.hops.len()
            ));
        }
        paths.push(nodes.iter().map(|w| g.index_of(w)).collect::<Vec<_>>());
    }
    if let Err(v) = check_node_disjoint(graph, s, t, &paths) {
        wrong.push(v.to_string());
    }
    let lengths: Vec<usize> = routes.iter().map(|r| r.hops.len()).collect();
    if lengths.windows(2).any(|w| w[0] > w[1]) {
        wrong.push(format!("lengths {lengths:?} are not shortest first"));
    }
    if lengths[0] != distance {
        wrong.push(format!(
            "first route has length {}, distance is {distance}",
            lengths[0]
        ));
    }
    let optimum = min_cost_disjoint_paths(graph, s, t, d);
    let total: usize = lengths.iter().sum();
    if optimum.paths.len() != d || optimum.total_len != total {
        wrong.push(format!(
            "total length {total}; min-cost flow finds {} paths of total {}",
            optimum.paths.len(),
            optimum.total_len
        ));
    }
    // Section 3.2: at most one more route of length k+2 than of length <= k.
    let count = |p: Phase| routes.iter().filter(|r| r.shape.phase() == p).count();
    if count(Phase::C) > count(Phase::A) + 1 {
        wrong.push(format!(
            "{} routes of length k+2 but {} of length <= k",
            count(Phase::C),
            count(Phase::A)
        ));
    }
    wrong
}

fn check_every_pair(d: u64, k: u64) {
    let g = graph(d, k);
    let digraph = g.digraph().unwrap();
    let n = digraph.node_count();
    let mut failures = Vec::new();
    for s in 0..n {
        for t in (0..n).filter(|&t| t != s) {
            let routes = route_set(&g, g.word_at(s).letters(), g.word_at(t).letters()).unwrap();
            for v in violations(&g, &digraph, s, t, &routes) {
                failures.push(format!(
                    "{g} {} -> {}: {v}",
                    g.format_letters(g.word_at(s).letters()),
                    g.format_letters(g.word_at(t).letters())
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} violations in {g}, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(12)].join("\n")
    );
}

/// Checks one route set of a graph far too large to enumerate, from the words alone:
/// d routes, each a walk of Kautz arcs from `src` to `dst` of at most k + 2 hops, visiting
/// no node twice, sharing no node but the ends with another; the first as short as the
/// shortest route, and lengths never decreasing.
fn check_words_only(g: &Kautz, src: &[Letter], dst: &[Letter]) {
    let routes = route_set(g, src, dst).unwrap();
    let pair = format!("{} -> {}", g.format_letters(src), g.format_letters(dst));
    assert_eq!(routes.len(), g.d(), "{pair}");
    let mut inner = std::collections::HashSet::new();
    for (i, route) in routes.iter().enumerate() {
        assert!(route.hops.len() <= g.k() + 2, "{pair}: route {i} too long");
        let nodes = walk(src, &route.hops);
        assert_eq!(
            nodes.last().map(Vec::as_slice),
            Some(dst),
            "{pair}: route {i}"
        );
        for (a, b) in nodes.iter().zip(&nodes[1..]) {
            assert_eq!(a[1..], b[..g.k() - 1], "{pair}: route {i} shifts");
            assert!(
                g.check_letters(b).is_ok(),
                "{pair}: route {i} leaves the graph"
            );
        }
        for node in &nodes[1..nodes.len() - 1] {
            assert!(
                node.as_slice() != src && node.as_slice() != dst,
                "{pair}: route {i} revisits an end"
            );
            assert!(
                inner.insert(node.clone()),
                "{pair}: route {i} meets another"
            );
        }
    }
    let shortest = shortest_route(g, src, dst).unwrap();
    assert_eq!(
        routes[0].hops.len(),
        shortest.len(),
        "{pair}: shortest first"
    );
    assert!(
        routes
            .windows(2)
            .all(|w| w[0].hops.len() <= w[1].hops.len()),
        "{pair}: lengths never decrease"
    );
}

#[test]
fn route_sets_of_graphs_too_large_to_enumerate() {
    // The largest degree and word length, and graphs in between; pairs from a fixed
    // linear congruential stream, plus pairs that overlap by k - 1 and by nothing.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    for (d, k) in [(255, 64), (255, 2), (2, 64), (17, 20), (100, 7)] {
        let g = graph(d, k);
        let word = |next: &mut dyn FnMut(u64) -> u64| -> Vec<Letter> {
            let mut letters: Vec<Letter> = vec![next(d + 1) as Letter];
            while letters.len() < k as usize {
                let previous = *letters.last().unwrap() as u64;
                let rank = next(d);
                letters.push((rank + u64::from(rank >= previous)) as Letter);
            }
            letters
        };
        for _ in 0..40 {
            let src = word(&mut next);
            let dst = word(&mut next);
            if src != dst {
                check_words_only(&g, &src, &dst);
            }
        }
        let src = word(&mut next);
        let mut shifted = src[1..].to_vec();
        shifted.push(if src[k as usize - 1] == 0 { 1 } else { 0 });
        check_words_only(&g, &src, &shifted);
        check_words_only(&g, &shifted, &src);
    }
}

#[test]
fn the_checks_catch_imase_looping_route() {
    // Section 3.2: Imase's second route from 120 to 201 in K(2,3), <12020201>, has a loop.
    let g = graph(2, 3);
    let digraph = g.digraph().unwrap();
    let (s, t) = (g.index_of(&[1, 2, 0]), g.index_of(&[2, 0, 1]));
    let imase = [
        Route {
            shape: RouteShape::Overlap { overlap: 2 },
            hops: vec![1],
        },
        Route {
            shape: RouteShape::InsertTwo { out: 2, inn: 0 },
            hops: vec![2, 0, 2, 0, 1],
        },
    ];
    // 020 is node 2 in lexicographic order: 010, 012, 020, ...
    assert_eq!(
        violations(&g, &digraph, s, t, &imase),
        vec![
            "path 1 visits node 2 twice".to_string(),
            "total length 6; min-cost flow finds 2 paths of total 4".to_string(),
        ]
    );
}

#[test]
fn every_pair_of_k12() {
    check_every_pair(1, 2);
}
#[test]
fn every_pair_of_k22() {
    check_every_pair(2, 2);
}
#[test]
fn every_pair_of_k23() {
    check_every_pair(2, 3);
}
#[test]
fn every_pair_of_k33() {
    check_every_pair(3, 3);
}
#[test]
fn every_pair_of_k24() {
    check_every_pair(2, 4);
}
#[test]
fn every_pair_of_k43() {
    check_every_pair(4, 3);
}
#[test]
fn every_pair_of_k34() {
    check_every_pair(3, 4);
}
#[test]
fn every_pair_of_k25() {
    check_every_pair(2, 5);
}
#[test]
fn every_pair_of_k53() {
    check_every_pair(5, 3);
}
