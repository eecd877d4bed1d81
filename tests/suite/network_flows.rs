//! Networks of buffered switches (vct, saf) under acknowledged delivery, in the network
//! model (docs/flow-control.md, "In a network"): single messages timed by hand from its
//! rules (an ACK that comes, one that cannot come, a copy handed out once), zero-load
//! latency on every pair of every topology beside the textbook's formulas, and random runs
//! at and above saturation on every topology, with faults, that keep every bound.

use crate::network_topologies::{every_pair_alone, params, plan, topologies};
use kautzgen::fabric::network::SwitchNetwork;
use kautzgen::fabric::switch::{Arbiter, Flow};
use kautzgen::network::acked::worm_words;
use kautzgen::network::message::{AttemptOutcome, Finished, Outcome};
use kautzgen::network::net::{FaultSpec, Net, NetError, NetParams};
use kautzgen::network::plan::{KautzPlan, Plan, RouteRule};
use kautzgen::network::stats::{FlowSummary, Summary};
use kautzgen::network::traffic::Pattern;
use kautzgen::random::SplitMix64;
use kautzgen::topology::edge_list;
use kautzgen::topology::kautz::Kautz;
use std::collections::HashSet;
use std::sync::Arc;

const FLOWS: [Flow; 2] = [Flow::Vct, Flow::Saf];

fn edge_list_plan(text: &str) -> Arc<dyn Plan> {
    let graph = edge_list::parse(text).unwrap();
    plan(
        SwitchNetwork::from_edge_list("graph", &graph).unwrap(),
        RouteRule::Disjoint,
    )
}

/// One 1-byte message from node 0 to node 1, made in cycle 0, under `flow` with `faults`
/// on links (node, port): its record and the run's figures.
fn one_message(plan: Arc<dyn Plan>, flow: Flow, links: Vec<(usize, u64)>) -> (Finished, Summary) {
    let mut p = params(plan, 0.0, 0, 1);
    p.flow = flow;
    p.faults = FaultSpec {
        links,
        ..FaultSpec::default()
    };
    let mut net = Net::new(&p).unwrap();
    net.schedule(0, 0, 1, 1).unwrap();
    let mut finished = Vec::new();
    let summary = net.run(|f| finished.push(f.clone()));
    assert_eq!(finished.len(), 1);
    (finished.pop().unwrap(), summary)
}

/// Each attempt's route (by node), head cycle and outcome.
fn attempts(f: &Finished) -> Vec<(Vec<u32>, u64, AttemptOutcome)> {
    f.message
        .attempts
        .iter()
        .map(|a| (a.route.clone(), a.start, a.outcome))
        .collect()
}

fn flow_figures(s: &Summary) -> &FlowSummary {
    s.flow.as_ref().expect("acknowledged delivery")
}

/// The ring 0 -> 1 -> 2 -> 0: one route a pair, max 2 hops; B = 2, a one-byte address.
const RING: &str = "0 1\n1 2\n2 0\n";

#[test]
fn an_ack_ends_a_message_when_it_comes_back() {
    // 0 -> 1, one byte. Route taken in 0 + B = 2, head in S = 3. The data worm is
    // L + a + n + 6 = 1 + 1 + 1 + 6 = 9 words (sequence number included), its EOD sent in
    // 11. vct, nothing in the way: its last byte (word 6) out of the two switches in 11,
    // handed out in 12; its EOD at router 1 in 13, which owes an ACK from then; its sender
    // looks up the route 1 2 0 in 14 + B = 16 and sends its head in 17. The ACK is
    // 2 + 1 + 0 + 6 = 9 words; its sequence number's low byte (word 6) leaves in 23, comes
    // out of the three switches in 26, where router 0 takes it: res_valid in 27.
    // saf: each switch holds the data worm until it is whole and grants it a cycle later,
    // its len - j words later at the j-th switch: 9 + 8 = 17 more cycles to its last byte
    // (29) and its EOD (30); the ACK is marked not to be buffered and passes as under vct,
    // 17 cycles later: res_valid in 44.
    for (flow, arrive, done) in [(Flow::Vct, 12, 27), (Flow::Saf, 29, 44)] {
        let (f, s) = one_message(edge_list_plan(RING), flow, vec![]);
        assert_eq!(attempts(&f), [(vec![0, 1], 3, AttemptOutcome::Delivered)]);
        assert_eq!(
            (f.outcome, f.arrive, f.done),
            (Outcome::Delivered, Some(arrive), done),
            "{flow:?}"
        );
        let figures = flow_figures(&s);
        assert_eq!(
            (figures.acks_sent, figures.timeouts, figures.duplicates),
            (1, 0, 0)
        );
        assert_eq!(figures.violation(), None);
    }
}

#[test]
fn a_message_whose_ack_cannot_come_fails_after_its_bound_and_is_counted_unacknowledged() {
    // As above, with the link 2 -> 0 cut: the data worm arrives in 12, but every attempt of
    // the ACK (eight rounds of its one route 1 2 0) is refused at node 2, and it is given
    // up. The source waits the attempt's bound from its EOD in 11: the longest route has 2
    // hops and the longest worm 2 + 1 + 16 + 6 = 25 words, so a buffer holds a worm at most
    // 2 * 25 + 2 * 26 = 102 cycles and an attempt lives at most 3 * 103 + 25 = 334; its
    // timeout in 345 ends the message's only route: failed, res_valid in 346.
    let (f, s) = one_message(edge_list_plan(RING), Flow::Vct, vec![(2, 1)]);
    assert_eq!(attempts(&f), [(vec![0, 1], 3, AttemptOutcome::Timeout)]);
    assert_eq!(
        (f.outcome, f.arrive, f.done),
        (Outcome::Failed, Some(12), 346)
    );
    let figures = flow_figures(&s);
    assert_eq!(
        (
            figures.acks_sent,
            figures.acks_dropped,
            figures.timeouts,
            figures.unacknowledged
        ),
        (0, 1, 1, 1)
    );
    assert_eq!(figures.violation(), None);
}

#[test]
fn a_copy_that_arrives_again_is_not_handed_out_twice() {
    // 0 -> 1 over 0 1 or 0 2 1; every way back from 1 goes 1 3 0, and 3 -> 0 is cut. The
    // first attempt arrives in 12 as above; no ACK can come, so it times out after the
    // bound: routes of at most 3 hops, worms of at most 26 words, a buffer's hold
    // 2 * 26 + 3 * 27 = 133, an attempt's 4 * 134 + 26 = 562 cycles from its EOD in 11.
    // In 573 the second route, ready since 4, is taken: head in 574, 10 words, EOD in 583.
    // It arrives with the same sequence number, so router 1 drops it (a duplicate) and
    // owes an ACK again, which cannot come either: the timeout in 583 + 562 = 1145 fails the
    // message, handed out once.
    let plan = edge_list_plan("0 1\n0 2\n2 1\n1 3\n3 0\n");
    let (f, s) = one_message(plan, Flow::Vct, vec![(3, 1)]);
    assert_eq!(
        attempts(&f),
        [
            (vec![0, 1], 3, AttemptOutcome::Timeout),
            (vec![0, 2, 1], 574, AttemptOutcome::Timeout)
        ]
    );
    assert_eq!(
        (f.outcome, f.arrive, f.done),
        (Outcome::Failed, Some(12), 1146)
    );
    let figures = flow_figures(&s);
    assert_eq!(
        (
            figures.duplicates,
            figures.acks_dropped,
            figures.timeouts,
            figures.unacknowledged
        ),
        (1, 2, 2, 1)
    );
}

/// Every topology of network_topologies.rs and K(2,3).
fn every_topology() -> Vec<Arc<dyn Plan>> {
    let mut plans = topologies();
    let kautz = Kautz::new(2, 3).unwrap();
    plans.push(Arc::new(KautzPlan::new(kautz, 3 + 3 * 3 + 4).unwrap()));
    plans
}

/// Zero-load latency beside the textbook's formulas. A message of n bytes alone, from an
/// idle router, waits S = max(B, n - 1) + 1 for its route and its last byte. Under vct no
/// worm is blocked, so it goes as a nosy worm: it crosses the L + 1 switches one cycle
/// each behind W = (L + 1) + a + 3 + n words (a route byte per switch, the address, the
/// count, the two bytes of the sequence number, the bytes): S + W + (L + 1), hops plus
/// message length. Under saf the j-th switch holds it until its len - j words are in and
/// grants it a cycle after: (L + 1) len - L(L + 1)/2 more, hops times message length.
#[test]
fn zero_load_latency_is_hops_plus_length_under_vct_and_hops_times_length_under_saf() {
    let n = 16u64;
    for plan in every_topology() {
        for flow in FLOWS {
            let nodes = plan.node_count();
            let (b, a) = (plan.route_cycles(), plan.address_bytes() as u64);
            let mut p = params(plan.clone(), 0.0, 0, 1);
            p.flow = flow;
            let net = every_pair_alone(&p, n as u8, 1000);
            let name = format!("{} {flow:?}", plan.name());
            let mut seen = 0;
            net.run(|f| {
                let m = &f.message;
                assert_eq!(m.attempts.len(), 1, "{name}: message {} retried", m.id);
                let route = &plan.routes(m.src as usize, m.dst as usize)[m.attempts[0].route_index];
                let hops = route.bytes.len() as u64;
                let cut_through = b.max(n - 1) + 1 + (hops + 1) + a + 3 + n + (hops + 1);
                let len = worm_words(hops, a, n, true);
                let store = (hops + 1) * len - hops * (hops + 1) / 2;
                let expected = match flow {
                    Flow::Saf => cut_through + store,
                    _ => cut_through,
                };
                assert_eq!(f.arrive.unwrap() - m.inject, expected, "{name}");
                seen += 1;
            });
            assert_eq!(seen, nodes * (nodes - 1), "{name}");
        }
    }
}

/// Runs `p` and checks that every message ends once, a delivered one intact and handed out
/// once, after attempts over its routes in order, within every bound of the protocol.
fn check_run(p: &NetParams) -> Summary {
    let plan = p.plan.as_ref();
    let net = Net::new(p).unwrap();
    let mut ids = HashSet::new();
    let summary = net.run(|f| {
        let m = &f.message;
        assert!(ids.insert(m.id), "message {} ended twice", m.id);
        let routes = plan.routes(m.src as usize, m.dst as usize);
        for (i, a) in m.attempts.iter().enumerate() {
            assert_eq!(a.route, routes[i].name, "message {}", m.id);
        }
        if f.outcome == Outcome::Delivered {
            assert!(
                f.arrive.is_some(),
                "message {} delivered, never handed out",
                m.id
            );
        }
    });
    let name = format!("{} {:?}", plan.name(), p.flow);
    assert_eq!(ids.len() as u64, summary.injected, "{name}");
    assert_eq!(
        (summary.corrupted, summary.receive_errors),
        (0, 0),
        "{name}"
    );
    assert_eq!(flow_figures(&summary).violation(), None, "{name}");
    // A faulty node can cut every way back to a node, and then no ACK comes to it: only a
    // run without faults must deliver.
    assert!(
        summary.delivered > 0 || p.faults.random_nodes > 0,
        "{name}: nothing delivered"
    );
    summary
}

#[test]
fn random_runs_at_and_above_saturation_keep_every_bound_on_every_topology() {
    let mut rng = SplitMix64::new(26);
    for plan in every_topology() {
        for flow in FLOWS {
            // Messages of 1 to 16 bytes. At 0.01 a node a cycle they are about saturated
            // (netsim: mean latency 5 to 20 times the zero-load latency, queues that take
            // thousands of cycles to drain); 0.1 is ten times that.
            for (round, rate) in [0.01, 0.1].into_iter().enumerate() {
                let mut p = params(plan.clone(), rate, 1500, rng.next_u64());
                p.flow = flow;
                p.traffic.pattern = [Pattern::Uniform, Pattern::Hotspot][round];
                p.faults.random_nodes = round as u64;
                let s = check_run(&p);
                assert!(
                    s.delivered + s.failed == s.injected,
                    "{} {flow:?}",
                    plan.name()
                );
            }
        }
    }
}

#[test]
fn buffered_flows_refuse_retry_rounds_and_the_fixed_arbiter() {
    let mut p = params(edge_list_plan(RING), 0.01, 10, 1);
    p.flow = Flow::Saf;
    p.retry_rounds = 2;
    assert_eq!(
        Net::new(&p).unwrap_err(),
        NetError::RetryRoundsWithBuffers("saf")
    );
    p.retry_rounds = 1;
    p.arbiter = Arbiter::Fixed;
    assert_eq!(Net::new(&p).unwrap_err(), NetError::FixedWithBuffers("saf"));
}
