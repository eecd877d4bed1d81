//! The golden model of a whole Kautz network: exact timings of single messages worked out
//! by hand from docs/network.md and docs/switch.md, and the invariants of the network issue
//! checked on random runs of small graphs.

use kautzgen::fabric::switch::{Arbiter, Flow};
use kautzgen::fabric::wiring::kautz_out_port;
use kautzgen::network::message::{AttemptOutcome, Finished, Outcome};
use kautzgen::network::net::{FaultSpec, Net, NetError, NetParams, Routing};
use kautzgen::network::plan::KautzPlan;
use kautzgen::network::traffic::{Pattern, Traffic};
use kautzgen::random::SplitMix64;
use kautzgen::routing::kautz::{route_set, walk};
use kautzgen::topology::kautz::{Kautz, Letter};
use std::collections::HashSet;
use std::sync::Arc;

/// The route generator's cycle bound, k + 3(d+1) + 4 (docs/verification.md).
fn bound(d: u64, k: u64) -> u64 {
    k + 3 * (d + 1) + 4
}

fn params(d: u64, k: u64, rate: f64, cycles: u64, seed: u64) -> NetParams {
    let plan = KautzPlan::new(Kautz::new(d, k).unwrap(), bound(d, k)).unwrap();
    NetParams {
        plan: Arc::new(plan),
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

fn word(graph: &Kautz, text: &str) -> Vec<Letter> {
    graph.parse_word(text).unwrap().letters().to_vec()
}

/// Runs one message from `src` to `dst` of `bytes` bytes made in cycle 0, with `faults`.
fn one_message(src: &str, dst: &str, bytes: u8, faults: FaultSpec) -> Finished {
    let mut p = params(2, 3, 0.0, 0, 1);
    p.faults = faults;
    let graph = Kautz::new(2, 3).unwrap();
    let mut net = Net::new(&p).unwrap();
    let (s, d) = (
        graph.index_of(&word(&graph, src)),
        graph.index_of(&word(&graph, dst)),
    );
    net.schedule(0, s as u32, d as u32, bytes).unwrap();
    let mut finished = Vec::new();
    let summary = net.run(|f| finished.push(f.clone()));
    assert_eq!(
        (summary.injected, summary.corrupted, summary.receive_errors),
        (1, 0, 0)
    );
    assert_eq!(finished.len(), 1);
    finished.pop().unwrap()
}

/// An attempt as the tests write it: route letters, start, outcome, and for a NACK its
/// cycle and the refusing node.
type Seen = (String, u64, AttemptOutcome, Option<(u64, String)>);

/// A NACKed attempt over `route` from `start`, its NACK seen in `x`, refused at `at`.
fn nack(route: &str, start: u64, x: u64, at: &str) -> Seen {
    (
        route.into(),
        start,
        AttemptOutcome::Nack,
        Some((x, at.into())),
    )
}

/// A delivered attempt over `route` from `start`.
fn delivered(route: &str, start: u64) -> Seen {
    (route.into(), start, AttemptOutcome::Delivered, None)
}

/// A Kautz route's name as its hop letters.
fn letters(route: &[u32]) -> Vec<Letter> {
    route.iter().map(|&a| a as Letter).collect()
}

/// Every attempt of `f`.
fn attempts(graph: &Kautz, f: &Finished, src: &str) -> Vec<Seen> {
    let src = word(graph, src);
    f.message
        .attempts
        .iter()
        .map(|a| {
            let at = a
                .nack
                .map(|(x, j)| (x, graph.format_letters(&walk(&src, &letters(&a.route))[j])));
            (
                graph.format_letters(&letters(&a.route)),
                a.start,
                a.outcome,
                at,
            )
        })
        .collect()
}

// K(2,3), 012 -> 201: route 1 is "01" (012 120 201), route 2 "10201" (012 121 210 102 020
// 201). B = 3 + 9 + 4 = 16. A message made in cycle 0 has its first byte taken in cycle 0,
// its last in n - 1; route 1 is taken in T1 = 16, its head sent in S1 = max(16, n-1) + 1.

#[test]
fn a_lone_message_is_delivered_over_the_shortest_route_on_time() {
    let graph = Kautz::new(2, 3).unwrap();
    // n = 16, L = 2: 25 words (no padding), EOD in 17 + 24 = 41, res_valid in 42. The last
    // byte is word L + k + n + 1 = 22, at the source's switch input in 17 + 22 = 39, out of
    // the third switch (the destination's, port 0) in 42, handed out in 43.
    let f = one_message("012", "201", 16, FaultSpec::default());
    assert_eq!(attempts(&graph, &f, "012"), vec![delivered("01", 17)]);
    assert_eq!(
        (f.outcome, f.done, f.arrive),
        (Outcome::Delivered, 42, Some(43))
    );
}

#[test]
fn a_short_message_over_a_long_route_is_padded_to_hear_every_nack() {
    let graph = Kautz::new(2, 3).unwrap();
    // Node 120 faulty cuts route 1 at its middle: the source's own switch (j = 1) refuses
    // the head in S1 = 17, its NACK is seen in 18.
    // T2 = max(16 + 16, 18) = 32, S2 = 33. n = 1, L = 5: natural 13 words, padded to
    // 3 * 6 - 1 = 17; EOD in 33 + 16 = 49, res_valid in 50. Last byte: word 5 + 3 + 1 + 1
    // = 10, out of the sixth switch in 33 + 10 + 6 = 49, handed out in 50.
    let faults = FaultSpec {
        nodes: vec![graph.index_of(&word(&graph, "120"))],
        ..FaultSpec::default()
    };
    let f = one_message("012", "201", 1, faults);
    assert_eq!(
        attempts(&graph, &f, "012"),
        vec![nack("01", 17, 18, "012"), delivered("10201", 33),]
    );
    assert_eq!(
        (f.outcome, f.done, f.arrive),
        (Outcome::Delivered, 50, Some(50))
    );
}

#[test]
fn a_refusal_two_switches_out_reaches_the_source_three_cycles_later() {
    let graph = Kautz::new(2, 3).unwrap();
    // Link 120 -> 201 faulty: the head of route 1 is refused at the second switch (120) in
    // S1 + 2 = 19; its NACK reaches the source in S1 + 3 + 1 = 21. Route 2 as above with
    // n = 16: 28 words, EOD in 33 + 27 = 60; last byte word 25, out in 33 + 25 + 6 = 64.
    let faults = FaultSpec {
        links: vec![(graph.index_of(&word(&graph, "120")), 1)],
        ..FaultSpec::default()
    };
    let f = one_message("012", "201", 16, faults);
    assert_eq!(
        attempts(&graph, &f, "012"),
        vec![nack("01", 17, 21, "120"), delivered("10201", 33),]
    );
    assert_eq!(
        (f.outcome, f.done, f.arrive),
        (Outcome::Delivered, 61, Some(65))
    );
}

#[test]
fn a_message_whose_every_route_is_cut_fails_after_d_attempts() {
    let graph = Kautz::new(2, 3).unwrap();
    // 120 and 121 faulty cut both routes at the source's switch: NACKs in 18 and 34
    // (S2 = 33); res_valid in 35.
    let faults = FaultSpec {
        nodes: vec![
            graph.index_of(&word(&graph, "120")),
            graph.index_of(&word(&graph, "121")),
        ],
        ..FaultSpec::default()
    };
    let f = one_message("012", "201", 16, faults);
    assert_eq!(
        attempts(&graph, &f, "012"),
        vec![nack("01", 17, 18, "012"), nack("10201", 33, 34, "012")]
    );
    assert_eq!((f.outcome, f.done, f.arrive), (Outcome::Failed, 35, None));
}

/// Checks the invariants of one random run and returns its finished messages.
fn check_run(graph: &Kautz, p: &NetParams) -> Vec<Finished> {
    let net = Net::new(p).unwrap();
    let faults = net.faults().clone();
    let faulty: HashSet<Vec<Letter>> = faults
        .nodes
        .iter()
        .map(|&v| graph.word_at(v as usize).letters().to_vec())
        .collect();
    let links: HashSet<(Vec<Letter>, Letter)> = faults
        .links
        .iter()
        .map(|&(v, port)| {
            let word = graph.word_at(v as usize).letters().to_vec();
            let last = word[word.len() - 1];
            let letter = (0..=graph.d() as Letter)
                .find(|&a| a != last && kautz_out_port(last, a) == port as u64)
                .unwrap();
            (word, letter)
        })
        .collect();
    let mut finished = Vec::new();
    let summary = net.run(|f| finished.push(f.clone()));
    let ids: HashSet<u64> = finished.iter().map(|f| f.message.id).collect();
    assert_eq!(ids.len(), finished.len(), "a message ended twice");
    assert_eq!(ids.len() as u64, summary.injected, "a message was lost");
    assert_eq!(summary.delivered + summary.failed, summary.injected);
    assert_eq!(
        (summary.corrupted, summary.receive_errors),
        (0, 0),
        "bytes or source arrived wrong"
    );
    for f in &finished {
        let m = &f.message;
        let src = graph.word_at(m.src as usize).letters().to_vec();
        let dst = graph.word_at(m.dst as usize).letters().to_vec();
        assert!(!faulty.contains(&src) && !faulty.contains(&dst));
        let golden = route_set(graph, &src, &dst).unwrap();
        let d = graph.d();
        assert!(!m.attempts.is_empty() && m.attempts.len() <= d * p.retry_rounds as usize);
        for (i, a) in m.attempts.iter().enumerate() {
            assert_eq!(a.route_index, i % d, "attempt {i} of message {}", m.id);
            assert_eq!(
                letters(&a.route),
                golden[i % d].hops,
                "attempt {i} of message {}",
                m.id
            );
            let nodes = walk(&src, &letters(&a.route));
            let clean = nodes.iter().all(|v| !faulty.contains(v))
                && nodes
                    .windows(2)
                    .zip(letters(&a.route))
                    .all(|(pair, z)| !links.contains(&(pair[0].clone(), z)));
            match a.outcome {
                AttemptOutcome::Delivered => assert!(clean, "a delivered route passes a fault"),
                AttemptOutcome::Nack => {
                    let (x, j) = a.nack.unwrap();
                    assert!(j < nodes.len() && x > a.start && (x - a.start - 1) % 3 == 0);
                }
                AttemptOutcome::Timeout => panic!("a timeout without buffered switches"),
                AttemptOutcome::Dropped => panic!("a dropped worm without switches that route"),
            }
        }
        let last_delivered = m.attempts.last().unwrap().outcome == AttemptOutcome::Delivered;
        assert_eq!(f.outcome == Outcome::Delivered, last_delivered);
        assert!(
            m.attempts[..m.attempts.len() - 1]
                .iter()
                .all(|a| a.outcome == AttemptOutcome::Nack)
        );
        if f.outcome == Outcome::Delivered {
            assert!(f.arrive.unwrap() > m.inject);
        }
    }
    finished
}

#[test]
fn random_runs_keep_every_message_and_use_the_golden_routes_in_order() {
    let mut rng = SplitMix64::new(11);
    for (d, k) in [(2, 3), (3, 2), (2, 4), (3, 3)] {
        for round in 0..6 {
            let mut p = params(d, k, [0.002, 0.02, 0.2][round % 3], 1500, rng.next_u64());
            p.traffic.pattern =
                [Pattern::Uniform, Pattern::Permutation, Pattern::Hotspot][round / 2 % 3];
            p.faults.random_nodes = rng.below(d);
            p.retry_rounds = 1 + (round as u32 % 2);
            p.arbiter = if round % 2 == 0 {
                Arbiter::RoundRobin
            } else {
                Arbiter::Fixed
            };
            check_run(&Kautz::new(d, k).unwrap(), &p);
        }
    }
}

#[test]
fn with_fewer_faulty_nodes_than_d_a_message_alone_in_the_network_is_delivered() {
    // Every pair of healthy nodes, one message at a time (each made after the last has
    // ended), with d - 1 faulty nodes drawn by the seed: one of the d node-disjoint routes
    // avoids them all, and nothing else is in the network to collide with.
    for (d, k, seed) in [(2, 3, 1), (3, 2, 2), (3, 3, 3), (2, 4, 4)] {
        let mut p = params(d, k, 0.0, 0, seed);
        p.faults.random_nodes = d - 1;
        let mut net = Net::new(&p).unwrap();
        let healthy = net.healthy().to_vec();
        let mut cycle = 0;
        for &s in &healthy {
            for &t in &healthy {
                if s != t {
                    net.schedule(cycle, s, t, 1 + (cycle % 16) as u8).unwrap();
                    cycle += 400;
                }
            }
        }
        let summary = net.run(|f| {
            assert_eq!(
                f.outcome,
                Outcome::Delivered,
                "message {} failed",
                f.message.id
            );
        });
        let pairs = healthy.len() * (healthy.len() - 1);
        assert_eq!(
            (summary.delivered, summary.failed),
            (pairs as u64, 0),
            "K({d},{k})"
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let p = params(3, 3, 0.05, 2000, 9);
    let graph = Kautz::new(3, 3).unwrap();
    let a: Vec<_> = check_run(&graph, &p);
    let b: Vec<_> = check_run(&graph, &p);
    assert_eq!(a, b);
}

#[test]
fn impossible_runs_are_refused_with_a_reason() {
    let error = |p: &NetParams| Net::new(p).unwrap_err().to_string();
    let mut p = params(2, 3, 1.5, 10, 1);
    assert_eq!(error(&p), "injection rate must be between 0 and 1, got 1.5");
    p.traffic.rate = 0.1;
    p.faults.random_nodes = 12;
    assert_eq!(
        error(&p),
        "12 faulty nodes of 12 leave fewer than two healthy nodes to send between"
    );
    p.faults.random_nodes = 0;
    let graph = Kautz::new(2, 3).unwrap();
    let index = |text| graph.index_of(&word(&graph, text));
    p.faults.nodes = vec![index("010"), index("010")];
    assert_eq!(error(&p), "faulty node 010 is given twice");
    p.faults.nodes.clear();
    p.faults.links = vec![(index("010"), 0)];
    assert_eq!(
        error(&p),
        "faulty link 010:0: node 010 has no out-link by letter 0"
    );
    p.faults.links.clear();
    p.traffic.bytes = 0..=4;
    assert_eq!(error(&p), "message bytes must be 1 to 16, got 0..4");
    // 5 * 4^13 nodes, more than 2^27.
    assert_eq!(
        KautzPlan::new(Kautz::new(4, 14).unwrap(), bound(4, 14))
            .unwrap_err()
            .to_string(),
        "K(4,14) has 335544320 nodes; netsim numbers at most 134217728"
    );
    let p = params(2, 3, 0.0, 0, 1);
    let mut net = Net::new(&p).unwrap();
    assert_eq!(
        net.schedule(0, 3, 3, 1).unwrap_err(),
        NetError::Message {
            src: "021".into(),
            dst: "021".into(),
            why: "source and destination are the same node"
        }
    );
}
