//! The proof that the self-timed switches' clock handshake is live for any wire delays:
//! the untimed model (`clocking::untimed`), in which every clock wire between switches is
//! an independent delay element, explored over every interleaving of its events for the
//! ring of three switches that `verify switch --clocking self-timed` runs and for the clock
//! graph of K(2,2). The per-wire rendezvous has no reachable deadlock and keeps the
//! synchronous equivalence at every clock edge; the level rendezvous of the network-switch
//! paper's figure (Smit et al. 1991) deadlocks, so the model is known to find one. The ring
//! is searched whole and reduced, and both searches agree; K(2,2) is searched reduced (the
//! whole search passes 30 million states).

use kautzgen::clocking::Rendezvous;
use kautzgen::clocking::graph::ClockGraph;
use kautzgen::clocking::untimed::{Exploration, Model, Search, Verdict};

const MAX_STATES: usize = 1_000_000;

fn explore(graph: &ClockGraph, rendezvous: Rendezvous, search: Search) -> Exploration {
    Model {
        graph,
        rendezvous,
        local_forks: false,
        search,
    }
    .explore(MAX_STATES)
}

/// Each switch's clock in a deadlock's state: "high after 1" and the like.
fn clocks(verdict: &Verdict) -> Vec<String> {
    let Verdict::Deadlock { state, .. } = verdict else {
        panic!("no deadlock found: {verdict:?}");
    };
    state
        .split("; ")
        .map(|s| {
            let clock = s.split(", sees").next().unwrap();
            clock.replace(" transitions", "").replace(" clock", "")
        })
        .collect()
}

#[test]
fn the_per_wire_rendezvous_of_the_ring_is_live_for_any_delays() {
    let ring = ClockGraph::ring();
    let every = explore(&ring, Rendezvous::PerWire, Search::Every);
    let reduced = explore(&ring, Rendezvous::PerWire, Search::PerSwitch);
    assert_eq!(every.verdict, Verdict::Live);
    assert_eq!(reduced.verdict, Verdict::Live);
    // The phases of three switches that can each be a cycle ahead of the others, with up
    // to a transition in flight on each of twelve wires: thousands of states, and the
    // reduction visits fewer.
    assert!(every.states > 10_000, "{} states", every.states);
    assert!(
        reduced.states < every.states / 4,
        "{} states",
        reduced.states
    );
}

#[test]
fn the_level_rendezvous_of_the_ring_deadlocks() {
    let ring = ClockGraph::ring();
    for search in [Search::Every, Search::PerSwitch] {
        let exploration = explore(&ring, Rendezvous::Level, search);
        // Every clock rises at reset and switch 0 falls; its fall reaches switches 1 and
        // 2 before their rises reach each other, and their elements, which see switch 0
        // low, never see all their neighbours high again.
        assert_eq!(
            clocks(&exploration.verdict),
            [
                "switch 0 low after 2",
                "switch 1 high after 1",
                "switch 2 high after 1"
            ],
            "{search:?}: {:?}",
            exploration.verdict
        );
    }
}

#[test]
fn the_per_wire_rendezvous_of_k22_is_live_for_any_delays() {
    let k22 = ClockGraph::kautz(2, 2).unwrap();
    let exploration = explore(&k22, Rendezvous::PerWire, Search::PerSwitch);
    assert_eq!(exploration.verdict, Verdict::Live);
    assert!(exploration.states > 1000, "{} states", exploration.states);
}

#[test]
fn the_level_rendezvous_of_k22_deadlocks() {
    let k22 = ClockGraph::kautz(2, 2).unwrap();
    let exploration = explore(&k22, Rendezvous::Level, Search::PerSwitch);
    assert_eq!(
        clocks(&exploration.verdict),
        [
            "switch 0 low after 2",
            "switch 1 low after 2",
            "switch 2 high after 1",
            "switch 3 high after 1",
            "switch 4 high after 1",
            "switch 5 high after 1"
        ]
    );
}

/// The handshake is delay-insensitive on the wires between switches, not on the forks of a
/// node clock to its own per-wire elements: those must be isochronic, faster than a round
/// trip through a neighbour (docs/switch.md). With them delayed too, two transitions of a
/// neighbour can both reach an element that still sees the node's old level, and the first
/// is lost: here switch 0's rise, at switch 1 whose own rise has not reached the element.
#[test]
fn the_per_wire_rendezvous_needs_isochronic_local_forks() {
    let exploration = Model {
        graph: &ClockGraph::ring(),
        rendezvous: Rendezvous::PerWire,
        local_forks: true,
        search: Search::PerSwitch,
    }
    .explore(MAX_STATES);
    assert_eq!(
        clocks(&exploration.verdict),
        [
            "switch 0 low after 2",
            "switch 1 high after 1",
            "switch 2 high after 1"
        ]
    );
    let Verdict::Deadlock { trace, .. } = exploration.verdict else {
        unreachable!()
    };
    assert!(
        trace.contains(&"s1.in1_cl brings switch 0's fall 1".to_string()),
        "{trace:?}"
    );
}
