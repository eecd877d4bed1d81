//! The network model on every topology but Kautz, whose routers hold route tables: single
//! messages timed by hand from docs/network.md (with B = 2, the route table's cycles, and a
//! one-byte address), and the invariants of random runs with faults on each topology.

use kautzgen::fabric::network::SwitchNetwork;
use kautzgen::fabric::switch::{Arbiter, Flow};
use kautzgen::network::message::{AttemptOutcome, Finished, Outcome};
use kautzgen::network::net::{FaultSpec, Net, NetParams, Routing};
use kautzgen::network::plan::{Plan, RouteRule, TablePlan};
use kautzgen::network::traffic::{Pattern, Traffic};
use kautzgen::random::SplitMix64;
use kautzgen::routing::paths::check_node_disjoint;
use kautzgen::topology::debruijn::DeBruijn;
use kautzgen::topology::edge_list;
use kautzgen::topology::torus::{Rings, Torus};
use std::collections::HashSet;
use std::sync::Arc;

pub(crate) fn plan(network: SwitchNetwork, rule: RouteRule) -> Arc<dyn Plan> {
    Arc::new(TablePlan::new(network, rule))
}

fn debruijn23() -> Arc<dyn Plan> {
    let graph = DeBruijn::new(2, 3).unwrap();
    plan(
        SwitchNetwork::debruijn(&graph).unwrap(),
        RouteRule::Disjoint,
    )
}

fn cube(k: u64, n: u64) -> Torus {
    Torus::new(k, n).unwrap()
}

/// 0 -> 1 -> 2 -> 3 -> 0 and a chord 0 -> 2: node 0 has two out-links, node 2 two in-links,
/// so every switch has two ports and the others' second output or input is idle.
fn chorded_ring() -> Arc<dyn Plan> {
    let graph = edge_list::parse("0 1\n1 2\n2 3\n3 0\n0 2\n").unwrap();
    let network = SwitchNetwork::from_edge_list("ring", &graph).unwrap();
    plan(network, RouteRule::Disjoint)
}

pub(crate) fn params(plan: Arc<dyn Plan>, rate: f64, cycles: u64, seed: u64) -> NetParams {
    NetParams {
        plan,
        arbiter: Arbiter::RoundRobin,
        max_bytes: 16,
        traffic: Traffic::uniform(rate, 1..=16),
        cycles,
        measure: None,
        seed,
        faults: FaultSpec::default(),
        retry_rounds: 1,
        receive: None,
        flow: Flow::Nack,
        routing: Routing::Source,
    }
}

/// One message from `src` to `dst` (named as the plan names them) of `bytes` bytes, made in
/// cycle 0, with `faults`.
fn one_message(
    plan: Arc<dyn Plan>,
    src: &str,
    dst: &str,
    bytes: u8,
    faults: FaultSpec,
) -> Finished {
    let (s, d) = (plan.parse_node(src).unwrap(), plan.parse_node(dst).unwrap());
    let mut p = params(plan, 0.0, 0, 1);
    p.faults = faults;
    let mut net = Net::new(&p).unwrap();
    net.schedule(0, s as u32, d as u32, bytes).unwrap();
    let mut finished = Vec::new();
    let summary = net.run(|f| finished.push(f.clone()));
    assert_eq!((summary.corrupted, summary.receive_errors), (0, 0));
    finished.pop().unwrap()
}

/// An attempt as (walk by name, start, outcome, NACK cycle and refusing node).
type Seen = (String, u64, AttemptOutcome, Option<(u64, String)>);

/// Every attempt of `f`.
fn attempts(plan: &dyn Plan, f: &Finished) -> Vec<Seen> {
    f.message
        .attempts
        .iter()
        .map(|a| {
            let walk: Vec<String> = a
                .route
                .iter()
                .map(|&v| plan.node_name(v as usize))
                .collect();
            let at = a.nack.map(|(x, j)| {
                (
                    x,
                    plan.node_name(plan.route_node(f.message.src as usize, &a.route, j)),
                )
            });
            (walk.join(" "), a.start, a.outcome, at)
        })
        .collect()
}

#[test]
fn a_lone_message_crosses_the_mesh_by_dimension_order_on_time() {
    // 0,0 -> 2,2 on the 3x3 mesh: 0,0 0,1 0,2 1,2 2,2, L = 4 hops. n = 16: the last byte is
    // taken in 15, the route in T1 = 0 + B = 2, the head sent in S1 = max(2, 15) + 1 = 16.
    // Words: L + a + n + 4 = 4 + 1 + 16 + 4 = 25 (at least 3(L+1) - 1 = 14); EOD in
    // 16 + 24 = 40, res_valid in 41. The last byte is word L + a + n + 1 = 22, at the source's
    // switch in 16 + 22 = 38, out of the fifth switch (port 0) in 43, handed out in 44.
    let cube = cube(3, 2);
    let mesh = SwitchNetwork::mesh(&cube).unwrap();
    let rule = RouteRule::DimensionOrder {
        cube,
        rings: Rings::Bidirectional,
        wrap: false,
    };
    let plan = plan(mesh, rule);
    let f = one_message(plan.clone(), "0,0", "2,2", 16, FaultSpec::default());
    assert_eq!(
        attempts(plan.as_ref(), &f),
        vec![(
            "0,0 0,1 0,2 1,2 2,2".into(),
            16,
            AttemptOutcome::Delivered,
            None
        )]
    );
    assert_eq!(
        (f.outcome, f.done, f.arrive),
        (Outcome::Delivered, 41, Some(44))
    );
}

#[test]
fn a_cut_link_sends_a_de_bruijn_message_over_its_second_disjoint_route() {
    // B(2,3), 011 -> 110: route 1 is the link by port 1 (shifting in 0), route 2
    // 011 111 110. That link faulty: the source's switch refuses the head in S1 =
    // max(2, 0) + 1 = 3, the NACK is seen in 4. T2 = max(2 + 2, 4) = 4, S2 = 5. n = 1, L = 2:
    // 2 + 1 + 1 + 4 = 8 words (3 * 3 - 1 = 8 too), EOD in 5 + 7 = 12, res_valid in 13; the
    // last byte is word 2 + 1 + 1 + 1 = 5, at the source's switch in 10, out of the third
    // switch in 13, handed out in 14.
    let plan = debruijn23();
    let faults = FaultSpec {
        links: vec![(plan.parse_node("011").unwrap(), 1)],
        ..FaultSpec::default()
    };
    let f = one_message(plan.clone(), "011", "110", 1, faults);
    assert_eq!(
        attempts(plan.as_ref(), &f),
        vec![
            (
                "011 110".into(),
                3,
                AttemptOutcome::Nack,
                Some((4, "011".into()))
            ),
            ("011 111 110".into(), 5, AttemptOutcome::Delivered, None),
        ]
    );
    assert_eq!(
        (f.outcome, f.done, f.arrive),
        (Outcome::Delivered, 13, Some(14))
    );
}

#[test]
fn a_message_on_an_edge_list_goes_round_the_ring_padded_to_hear_every_nack() {
    // 1 -> 0 on the chorded ring: the one route 1 2 3 0, L = 3. n = 2: S1 = max(2, 1) + 1 =
    // 3. Natural 3 + 1 + 2 + 4 = 10 words, padded to 3 * 4 - 1 = 11: EOD in 3 + 10 = 13,
    // res_valid in 14. The last byte is word 3 + 1 + 2 + 1 = 7, at the source's switch in
    // 10, out of the fourth switch in 14, handed out in 15.
    let plan = chorded_ring();
    let f = one_message(plan.clone(), "1", "0", 2, FaultSpec::default());
    assert_eq!(
        attempts(plan.as_ref(), &f),
        vec![("1 2 3 0".into(), 3, AttemptOutcome::Delivered, None)]
    );
    assert_eq!(
        (f.outcome, f.done, f.arrive),
        (Outcome::Delivered, 14, Some(15))
    );
}

/// Every topology of the list, small.
pub(crate) fn topologies() -> Vec<Arc<dyn Plan>> {
    let c = cube(3, 2);
    vec![
        debruijn23(),
        plan(
            SwitchNetwork::torus(&c, Rings::Unidirectional).unwrap(),
            RouteRule::Disjoint,
        ),
        plan(
            SwitchNetwork::torus(&c, Rings::Bidirectional).unwrap(),
            RouteRule::Disjoint,
        ),
        plan(SwitchNetwork::mesh(&c).unwrap(), RouteRule::Disjoint),
        plan(
            SwitchNetwork::torus(&c, Rings::Bidirectional).unwrap(),
            RouteRule::DimensionOrder {
                cube: c,
                rings: Rings::Bidirectional,
                wrap: true,
            },
        ),
        chorded_ring(),
    ]
}

/// Runs `p` and checks that every message ends once, intact, after attempts over its
/// plan's routes in order, a delivered one over a route clear of the faults.
fn check_run(p: &NetParams) {
    let plan = p.plan.as_ref();
    let net = Net::new(p).unwrap();
    let faults = net.faults().clone();
    let faulty: HashSet<usize> = faults.nodes.iter().map(|&v| v as usize).collect();
    let wiring = plan.wiring().unwrap();
    let graph = digraph_of(&wiring);
    let mut finished = Vec::new();
    let summary = net.run(|f| finished.push(f.clone()));
    let name = plan.name();
    assert_eq!(
        finished.len() as u64,
        summary.injected,
        "{name}: a message was lost"
    );
    assert_eq!(
        summary.delivered + summary.failed,
        summary.injected,
        "{name}"
    );
    assert_eq!(
        (summary.corrupted, summary.receive_errors),
        (0, 0),
        "{name}"
    );
    assert!(summary.delivered > 0, "{name}: nothing delivered");
    for f in &finished {
        let m = &f.message;
        let routes = plan.routes(m.src as usize, m.dst as usize);
        let paths: Vec<Vec<usize>> = routes
            .iter()
            .map(|r| r.name.iter().map(|&v| v as usize).collect())
            .collect();
        check_node_disjoint(&graph, m.src as usize, m.dst as usize, &paths).unwrap();
        for (i, a) in m.attempts.iter().enumerate() {
            assert_eq!(
                a.route,
                routes[i % routes.len()].name,
                "{name}: message {}",
                m.id
            );
            if a.outcome == AttemptOutcome::Delivered {
                let path = &paths[i % routes.len()];
                assert!(
                    path.iter().all(|v| !faulty.contains(v)),
                    "{name}: through a fault"
                );
                for hop in path.windows(2) {
                    let port = (1..=wiring.ports())
                        .find(|&p| wiring.output(hop[0], p).is_some_and(|e| e.node == hop[1]))
                        .unwrap();
                    assert!(!faults.links.contains(&(hop[0] as u32, port)), "{name}");
                }
            }
        }
        assert_eq!(
            f.outcome == Outcome::Delivered,
            m.attempts.last().unwrap().outcome == AttemptOutcome::Delivered
        );
    }
}

/// The digraph of a wiring, arcs in port order.
pub(crate) fn digraph_of(
    wiring: &kautzgen::fabric::wiring::Wiring,
) -> kautzgen::topology::digraph::Digraph {
    kautzgen::topology::digraph::Digraph::from_fn(wiring.nodes(), |v| {
        (1..=wiring.ports())
            .filter_map(|p| wiring.output(v, p).map(|e| e.node))
            .collect::<Vec<_>>()
    })
}

#[test]
fn random_runs_on_every_topology_keep_every_message_and_use_the_table_in_order() {
    let mut rng = SplitMix64::new(25);
    for plan in topologies() {
        for round in 0..4 {
            let mut p = params(plan.clone(), [0.005, 0.05][round % 2], 1500, rng.next_u64());
            p.traffic.pattern = [Pattern::Uniform, Pattern::Hotspot][round / 2];
            p.faults.random_nodes = u64::from(round >= 2);
            p.retry_rounds = 1 + round as u32 % 2;
            check_run(&p);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_run_on_a_table_network() {
    let p = params(topologies()[2].clone(), 0.05, 1000, 3);
    let run = || {
        let mut finished = Vec::new();
        Net::new(&p).unwrap().run(|f| finished.push(f.clone()));
        finished
    };
    assert_eq!(run(), run());
}

/// The network of `p` with one message of `bytes` bytes for every ordered pair, `gap`
/// cycles apart: each alone in the network.
pub(crate) fn every_pair_alone(p: &NetParams, bytes: u8, gap: u64) -> Net {
    let mut net = Net::new(p).unwrap();
    let nodes = p.plan.node_count() as u32;
    let pairs = (0..nodes).flat_map(|s| (0..nodes).filter(move |&t| t != s).map(move |t| (s, t)));
    for (i, (s, t)) in pairs.enumerate() {
        net.schedule(i as u64 * gap, s, t, bytes).unwrap();
    }
    net
}

/// Zero-load latency, the wormhole textbook's hops plus message length, in this network's
/// terms: a message of n bytes alone in the network, from a router idle in cycle 0, waits
/// for its route and its last byte (head in S = max(B, n - 1) + 1), crosses the L + 1
/// switches of its route one cycle each, and is W = (L + 1) + a + 1 + n words long up to
/// its last byte (a route byte per switch, the address, the count, the bytes); it is handed
/// out one cycle after the last switch. So latency = S + W + (L + 1): it is checked for
/// every ordered pair of every topology, over the route the message took.
#[test]
fn zero_load_latency_is_the_wait_plus_hops_plus_worm_length_on_every_pair() {
    let mut plans = topologies();
    let kautz = kautzgen::topology::kautz::Kautz::new(2, 3).unwrap();
    plans.push(Arc::new(
        kautzgen::network::plan::KautzPlan::new(kautz, 3 + 3 * 3 + 4).unwrap(),
    ));
    let n = 16u64;
    for plan in plans {
        let nodes = plan.node_count();
        let (b, a) = (plan.route_cycles(), plan.address_bytes() as u64);
        let mut p = params(plan.clone(), 0.0, 0, 1);
        p.max_bytes = n as u8;
        let net = every_pair_alone(&p, n as u8, 500);
        let name = plan.name();
        let mut seen = 0;
        net.run(|f| {
            let m = &f.message;
            let a0 = &m.attempts[0];
            assert_eq!(m.attempts.len(), 1, "{name}: message {} retried", m.id);
            let hops = plan.routes(m.src as usize, m.dst as usize)[a0.route_index]
                .bytes
                .len() as u64;
            let start = b.max(n - 1) + 1;
            let words = (hops + 1) + a + 1 + n;
            assert_eq!(
                f.arrive.unwrap() - m.inject,
                start + words + (hops + 1),
                "{name}: {} -> {}",
                plan.node_name(m.src as usize),
                plan.node_name(m.dst as usize)
            );
            seen += 1;
        });
        assert_eq!(seen, nodes * (nodes - 1), "{name}");
    }
}
