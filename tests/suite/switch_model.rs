//! The switch's cycle model (src/models/network/switch.rs) against docs/switch.md: the byte-by-byte
//! example and its three-switch continuation cycle by cycle, each directed case with its
//! expectation worked out from the specification by hand, configuration errors, and
//! properties over 100,000 cycles of random traffic from senders and receivers that keep
//! the NACK contract (no word created, lost, reordered or mixed; every worm leaves whole or
//! is cut and NACKed, with the one documented exception; no reservation outlives its worm;
//! all quiet after draining), and round-robin fairness under saturation.

use kautzgen::fabric::switch::{Arbiter, SwitchConfig, SwitchConfigError};
use kautzgen::network::switch::{Switch, Word};
use kautzgen::random::SplitMix64;
use std::collections::BTreeMap;

fn config(d: u64, bits: u64, arbiter: Arbiter) -> SwitchConfig {
    SwitchConfig::new(d, bits, arbiter).unwrap()
}

const IDLE: Word = Word::IDLE;

fn head(port: u64) -> Word {
    Word::control(port)
}

fn eod() -> Word {
    Word::control(0)
}

fn data(value: u64) -> Word {
    Word::data(value)
}

/// A forwarded head: valid, marked, carrying the next route byte.
fn marked(value: u64) -> Word {
    Word::control(value)
}

/// Steps `switch` through `cycles`, each the words on its inputs (missing inputs idle), no
/// NACKs and no faults; returns what each output and NACK shows after each cycle's edge.
fn run(switch: &mut Switch, cycles: &[Vec<Word>]) -> Vec<(Vec<Word>, Vec<bool>)> {
    let ports = switch.config().ports();
    cycles
        .iter()
        .map(|words| {
            let mut inputs = words.clone();
            inputs.resize(ports, IDLE);
            switch.step(&inputs, &vec![false; ports], 0);
            (
                (0..ports).map(|p| switch.out_word(p)).collect(),
                (0..ports).map(|i| switch.in_nack(i)).collect(),
            )
        })
        .collect()
}

#[test]
fn the_byte_by_byte_example_of_the_document() {
    // docs/switch.md: route 2 1 0, data A5, from input 0 in cycles 0..4; out2 shows idle,
    // idle, head 01, 00, A5, EOD in cycles 0..5 (a cycle's output is what the edge before
    // it loaded: entry c of `run` is cycle c + 1).
    let mut a = Switch::new(config(2, 8, Arbiter::RoundRobin));
    let seen = run(
        &mut a,
        &[
            vec![head(2)],
            vec![data(0x01)],
            vec![data(0x00)],
            vec![data(0xA5)],
            vec![eod()],
            vec![],
        ],
    );
    let out2: Vec<Word> = seen.iter().map(|(o, _)| o[2]).collect();
    assert_eq!(
        out2,
        [IDLE, marked(0x01), data(0x00), data(0xA5), eod(), IDLE]
    );
    assert!(
        seen.iter()
            .all(|(o, n)| !o[0].valid && !o[1].valid && !n.contains(&true))
    );
    assert!(a.is_quiet());
}

#[test]
fn the_example_across_three_switches() {
    // Source switch A forwards on output 2 to B's input 1; B forwards on output 1 to C's
    // input 1; C delivers on output 0. The document: B sends (1,00) (0,A5) (1,00) in cycles
    // 4..6, C hands its router (1,A5) (1,00) in cycles 6..7.
    let (b_out1, router) = across_three_switches(config(2, 8, Arbiter::RoundRobin), 10);
    assert_eq!(
        b_out1,
        BTreeMap::from([(4, marked(0x00)), (5, data(0xA5)), (6, eod())])
    );
    assert_eq!(router, BTreeMap::from([(6, marked(0xA5)), (7, eod())]));
}

/// The document's worm `(1,02) (0,01) (0,00) (0,A5) (1,00)` from switch A's input 0 over
/// its output 2 to B's input 1, B's output 1 to C's input 1, and C's output 0, for `cycles`
/// cycles: the words B sends on its output 1 and those C hands its router, by the cycle they
/// are on the link. Every switch is quiet again by the end.
pub(super) fn across_three_switches(
    c: SwitchConfig,
    cycles: u64,
) -> (BTreeMap<u64, Word>, BTreeMap<u64, Word>) {
    let (mut a, mut b, mut dst) = (
        Switch::new(c.clone()),
        Switch::new(c.clone()),
        Switch::new(c),
    );
    let source = [head(2), data(0x01), data(0x00), data(0xA5), eod()];
    let (mut b_out1, mut router) = (BTreeMap::new(), BTreeMap::new());
    for cycle in 0..cycles {
        let a_in = [
            source.get(cycle as usize).copied().unwrap_or(IDLE),
            IDLE,
            IDLE,
        ];
        let b_in = [IDLE, a.out_word(2), IDLE];
        let c_in = [IDLE, b.out_word(1), IDLE];
        let no = [false; 3];
        a.step(&a_in, &no, 0);
        b.step(&b_in, &no, 0);
        dst.step(&c_in, &no, 0);
        if b.out_word(1).valid {
            b_out1.insert(cycle + 1, b.out_word(1));
        }
        if dst.out_word(0).valid {
            router.insert(cycle + 1, dst.out_word(0));
        }
    }
    assert!(a.is_quiet() && b.is_quiet() && dst.is_quiet());
    (b_out1, router)
}

#[test]
fn contention_round_robin_and_fixed() {
    // Heads on inputs 0 and 1 for output 1 in cycle 0. Both arbiters start with the order
    // 1, 2, ..., d, 0: input 1 wins, input 0 is refused, in0_nack shows in cycle 1. Input 0's
    // word of cycle 1 is dropped (its sender stops after it); input 1's worm goes out.
    for arbiter in [Arbiter::RoundRobin, Arbiter::Fixed] {
        let mut s = Switch::new(config(2, 8, arbiter));
        let seen = run(
            &mut s,
            &[
                vec![head(1), head(1)],
                vec![data(0x11), data(0x21)],
                vec![IDLE, eod()],
                vec![],
            ],
        );
        assert_eq!(seen[0].1, [true, false, false], "{arbiter:?}");
        assert_eq!(
            seen.iter().map(|(o, _)| o[1]).collect::<Vec<_>>(),
            [IDLE, marked(0x21), eod(), IDLE],
            "{arbiter:?}"
        );
        assert!(seen[1..].iter().all(|(_, n)| !n.contains(&true)));
    }
    // Round-robin moves past the winner: the next contention between 0 and 1 for output 1
    // goes to input 0 (the pointer now points above input 1, wrapping to 0); fixed gives
    // it to input 1 again.
    for (arbiter, winner) in [(Arbiter::RoundRobin, 0), (Arbiter::Fixed, 1)] {
        let mut s = Switch::new(config(2, 8, arbiter));
        let mut cycles = vec![vec![IDLE, head(1)], vec![IDLE, data(1)], vec![IDLE, eod()]];
        cycles.extend([vec![head(1), head(1)], vec![], vec![]]);
        run(&mut s, &cycles[..4]);
        assert_eq!(s.owner(1), Some(winner), "{arbiter:?}");
        assert!(s.in_nack(1 - winner), "{arbiter:?}");
    }
}

#[test]
fn a_downstream_nack_cuts_the_worm_and_goes_back() {
    // Input 1 to output 0: head in cycle 0, words 1..6 in cycles 1..6. Output 0's receiver
    // NACKs in cycle 3: output 0 shows words 1, 2 in cycles 2, 3 and is empty from cycle 4
    // (the word of cycle 3 is not sent on: valid low, though the data register loads it,
    // as the specification says); output 0 is free from cycle 4; in1_nack is
    // high in cycle 4 only; input 1 drops its word of cycle 4 and takes a head in cycle 5.
    let mut s = Switch::new(config(2, 8, Arbiter::RoundRobin));
    let words = [
        head(0),
        data(1),
        data(2),
        data(3),
        data(4),
        head(2),
        data(6),
    ];
    let mut seen = Vec::new();
    for (cycle, w) in words.iter().enumerate() {
        s.step(&[IDLE, *w, IDLE], &[cycle == 3, false, false], 0);
        seen.push((s.out_word(0), s.in_nack(1), s.owner(0), s.owner(2)));
    }
    let out0: Vec<Word> = seen.iter().map(|x| x.0).collect();
    let dropped = Word {
        valid: false,
        ctl: false,
        data: 3,
    };
    assert_eq!(out0, [IDLE, marked(1), data(2), dropped, IDLE, IDLE, IDLE]);
    let nacks: Vec<bool> = seen.iter().map(|x| x.1).collect();
    assert_eq!(nacks, [false, false, false, true, false, false, false]);
    assert_eq!(seen[2].2, Some(1));
    assert_eq!(seen[3].2, None);
    // The word of cycle 4 (data 4) is dropped; the head of cycle 5 for output 2 is taken.
    assert_eq!(seen[5].3, Some(1));
    assert_eq!(s.out_word(2), marked(6));
}

#[test]
fn a_nack_in_the_cycle_of_the_eod_goes_no_further() {
    // The worm's EOD is on the input in cycle 3 when output 1's receiver NACKs: the EOD is
    // not sent on, output 1 is released, and no NACK goes back (the sender has let go).
    let mut s = Switch::new(config(2, 8, Arbiter::RoundRobin));
    let words = [head(1), data(1), data(2), eod(), IDLE];
    let mut nacks = Vec::new();
    let mut out1 = Vec::new();
    for (cycle, w) in words.iter().enumerate() {
        s.step(&[*w, IDLE, IDLE], &[false, cycle == 3, false], 0);
        nacks.push(s.in_nack(0));
        out1.push(s.out_word(1));
    }
    assert_eq!(nacks, [false; 5]);
    assert_eq!(out1, [IDLE, marked(1), data(2), IDLE, IDLE]);
    assert!(s.is_quiet());
}

#[test]
fn faulty_outputs_missing_outputs_and_empty_worms() {
    let mut s = Switch::new(config(2, 8, Arbiter::RoundRobin));
    // Output 1 faulty in cycle 0: the head for it is refused.
    s.step(&[head(1), IDLE, IDLE], &[false; 3], 0b010);
    assert!(s.in_nack(0));
    assert_eq!(s.owner(1), None);
    s.step(&[data(5), IDLE, IDLE], &[false; 3], 0);
    assert!(!s.in_nack(0) && s.is_quiet());
    // Route byte 3 names no output of a 3x3 switch: refused.
    s.step(&[IDLE, head(3), IDLE], &[false; 3], 0);
    assert!(s.in_nack(1));
    s.step(&[IDLE; 3], &[false; 3], 0);
    // Route byte 0: the local router, the route field is empty.
    s.step(&[IDLE, IDLE, head(0)], &[false; 3], 0);
    assert_eq!(s.owner(0), Some(2));
    s.step(&[IDLE, IDLE, data(0xA5)], &[false; 3], 0);
    assert_eq!(s.out_word(0), marked(0xA5));
    s.step(&[IDLE, IDLE, eod()], &[false; 3], 0);
    s.step(&[IDLE; 3], &[false; 3], 0);
    assert!(s.is_quiet());
    // A worm of only a head and an EOD holds its output for the EOD's cycle, sends nothing.
    s.step(&[IDLE, head(2), IDLE], &[false; 3], 0);
    s.step(&[IDLE, eod(), IDLE], &[false; 3], 0);
    assert_eq!(s.out_word(2), IDLE);
    assert_eq!(s.owner(2), None);
    assert!(!s.in_nack(1));
}

#[test]
fn back_to_back_worms_on_one_input() {
    // EOD in cycle 2, the next head in cycle 3: the input is free again at once.
    let mut s = Switch::new(config(1, 8, Arbiter::RoundRobin));
    let seen = run(
        &mut s,
        &[
            vec![head(1)],
            vec![data(7)],
            vec![eod()],
            vec![head(0)],
            vec![data(8)],
            vec![eod()],
            vec![],
        ],
    );
    let out1: Vec<Word> = seen.iter().map(|(o, _)| o[1]).collect();
    let out0: Vec<Word> = seen.iter().map(|(o, _)| o[0]).collect();
    assert_eq!(out1, [IDLE, marked(7), eod(), IDLE, IDLE, IDLE, IDLE]);
    assert_eq!(out0, [IDLE, IDLE, IDLE, IDLE, marked(8), eod(), IDLE]);
}

#[test]
fn configuration_errors() {
    let error = |d, bits| {
        SwitchConfig::new(d, bits, Arbiter::RoundRobin)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(error(0, 8), "switch degree d must be 1 to 15, got 0");
    assert_eq!(error(16, 8), "switch degree d must be 1 to 15, got 16");
    assert_eq!(error(2, 0), "data bits must be 1 to 64, got 0");
    assert_eq!(error(2, 65), "data bits must be 1 to 64, got 65");
    assert_eq!(
        error(2, 1),
        "1 data bits cannot name the 3 output ports of d = 2: route bytes need at least 2 bits"
    );
    assert_eq!(
        SwitchConfig::new(4, 2, Arbiter::Fixed).unwrap_err(),
        SwitchConfigError::RouteBytes {
            bits: 2,
            ports: 5,
            d: 4,
            need: 3
        }
    );
    assert_eq!(config(15, 4, Arbiter::Fixed).ports(), 16);
    assert_eq!(config(1, 1, Arbiter::Fixed).port_bits(), 1);
}

/// One worm of the property runs: its words (data tags it: worm number << 8 | index) and
/// what happened to it.
struct Flight {
    words: Vec<Word>,
    /// Cycle of its head and of its EOD, as sent.
    sent_from: u64,
    /// Indices seen leaving, with the output.
    left: Vec<(usize, usize)>,
    nacks: u32,
    /// The cycle its EOD was on the input, if it was sent.
    eod_cycle: Option<u64>,
}

/// 100,000 cycles of random traffic on a switch of degree `d`, then draining; checks the
/// properties named in the file's header. `random_nacks` adds NACKs at random on idle and
/// busy outputs alike.
fn properties(d: u64, arbiter: Arbiter, seed: u64, random_nacks: bool) {
    let c = config(d, 32, arbiter);
    let ports = c.ports();
    let mut s = Switch::new(c);
    let mut rng = SplitMix64::new(seed);
    let mut flights: Vec<Flight> = Vec::new();
    // Per input: the flight being sent, the next index, idle cycles to wait.
    let mut sending: Vec<Option<(usize, usize)>> = vec![None; ports];
    let mut gap = vec![0u64; ports];
    // Per output: the flight whose words it carries and the receiver's pending NACK.
    let mut pending = vec![false; ports];
    // NACKs given on each output, by cycle.
    let mut nacked: Vec<Vec<u64>> = vec![Vec::new(); ports];
    let (run_for, drain) = (100_000u64, 200u64);
    let mut fault = 0u64;
    for cycle in 0..run_for + drain {
        let injecting = cycle < run_for;
        if injecting && cycle.is_multiple_of(500) {
            fault = (0..ports)
                .filter(|_| rng.below(6) == 0)
                .fold(0, |m, p| m | 1 << p);
        }
        if !injecting {
            fault = 0;
        }
        let mut inputs = vec![IDLE; ports];
        for i in 0..ports {
            if sending[i].is_none() && injecting {
                if gap[i] > 0 {
                    gap[i] -= 1;
                } else {
                    let n = flights.len() as u64;
                    let route = rng.below(d + 2); // d + 1 names no output
                    let body = 1 + rng.below(6) as usize;
                    let mut words = vec![head(route)];
                    words.extend((1..=body).map(|k| data(n << 8 | k as u64)));
                    words.push(Word::control(n << 8 | (body + 1) as u64));
                    flights.push(Flight {
                        words,
                        sent_from: cycle,
                        left: Vec::new(),
                        nacks: 0,
                        eod_cycle: None,
                    });
                    sending[i] = Some((flights.len() - 1, 0));
                    gap[i] = [0, 0, 1, 3, 20][rng.below(5) as usize];
                }
            }
            if let Some((f, k)) = sending[i] {
                let flight = &mut flights[f];
                inputs[i] = flight.words[k];
                if k + 1 == flight.words.len() {
                    flight.eod_cycle = Some(cycle);
                }
                let nack = s.in_nack(i);
                if nack && cycle > flight.sent_from {
                    flight.nacks += 1;
                }
                sending[i] = if nack && cycle > flight.sent_from || k + 1 == flight.words.len() {
                    None
                } else {
                    Some((f, k + 1))
                };
            }
        }
        // An owner's input is sending the worm that holds the output in this very cycle.
        for p in 0..ports {
            if let Some(i) = s.owner(p) {
                assert!(
                    inputs[i].valid,
                    "output {p} held by idle input {i}, cycle {cycle}"
                );
            }
        }
        let out_nack: Vec<bool> = (0..ports)
            .map(|p| {
                let give = pending[p] || (random_nacks && rng.below(97) == 0);
                if give {
                    nacked[p].push(cycle);
                }
                give
            })
            .collect();
        s.step(&inputs, &out_nack, fault);
        for (p, pending) in pending.iter_mut().enumerate() {
            let w = s.out_word(p);
            *pending = injecting && w.valid && rng.below(if w.ctl { 5 } else { 40 }) == 0;
            if w.valid {
                let (f, k) = ((w.data >> 8) as usize, (w.data & 0xff) as usize);
                let flight = &mut flights[f];
                assert_eq!(flight.words[k].data, w.data, "word {k} of worm {f}");
                flight.left.push((p, k));
                let first = flight.left.len() == 1;
                assert_eq!(
                    w.ctl,
                    first || k + 1 == flight.words.len(),
                    "ctl of {f}.{k}"
                );
            }
        }
    }
    assert!(s.is_quiet(), "d = {d}: something survived the drain");
    let (mut whole, mut cut, mut refused, mut cut_at_eod) = (0, 0, 0, 0);
    for (f, flight) in flights.iter().enumerate() {
        let last = flight.words.len() - 1;
        let outputs: Vec<usize> = flight.left.iter().map(|x| x.0).collect();
        let indices: Vec<usize> = flight.left.iter().map(|x| x.1).collect();
        assert!(outputs.windows(2).all(|w| w[0] == w[1]), "worm {f} split");
        assert_eq!(indices, (1..=indices.len()).collect::<Vec<_>>(), "worm {f}");
        assert!(flight.nacks <= 1, "worm {f} NACKed twice");
        match (indices.len(), flight.nacks) {
            (n, 0) if n == last => whole += 1,
            (0, 1) => refused += 1,
            (n, 1) if n < last => cut += 1,
            (n, 0) if n + 1 == last => {
                // The documented exception: NACKed in the cycle its EOD was on the input.
                let eod = flight.eod_cycle.expect("the EOD was sent");
                assert!(nacked[outputs[0]].contains(&eod), "worm {f} lost its EOD");
                cut_at_eod += 1;
            }
            other => panic!("worm {f}: {other:?} of {last} words after its head"),
        }
    }
    assert_eq!(whole + cut + refused + cut_at_eod, flights.len());
    // Every kind of outcome happened, so the properties were exercised.
    assert!(
        whole > 1000 && cut > 100 && refused > 1000 && cut_at_eod > 0,
        "d = {d}: whole {whole}, cut {cut}, refused {refused}, cut at EOD {cut_at_eod}"
    );
}

#[test]
fn random_traffic_keeps_every_property() {
    for (d, arbiter, seed) in [
        (1, Arbiter::RoundRobin, 1),
        (2, Arbiter::RoundRobin, 2),
        (2, Arbiter::Fixed, 3),
        (3, Arbiter::RoundRobin, 4),
        (4, Arbiter::RoundRobin, 5),
        (15, Arbiter::RoundRobin, 6),
    ] {
        properties(d, arbiter, seed, false);
    }
    properties(2, Arbiter::RoundRobin, 7, true);
}

/// Grants of output 1 per input when every input sends back-to-back worms of `len` words
/// to it for `cycles` cycles, refused senders trying again at once.
fn saturated(arbiter: Arbiter, d: u64, len: usize, cycles: u64) -> Vec<u64> {
    let c = config(d, 8, arbiter);
    let ports = c.ports();
    let mut s = Switch::new(c);
    let mut k = vec![0usize; ports];
    // A sender that saw NACK sends one more word of its worm, then starts a new one.
    let mut abandon = vec![false; ports];
    let mut grants = vec![0u64; ports];
    for _ in 0..cycles {
        let inputs: Vec<Word> = (0..ports)
            .map(|i| match k[i] {
                0 => head(1),
                n if n + 1 == len => eod(),
                _ => data(1),
            })
            .collect();
        let before = s.owner(1);
        s.step(&inputs, &vec![false; ports], 0);
        for i in 0..ports {
            if abandon[i] {
                (k[i], abandon[i]) = (0, false);
            } else {
                k[i] = (k[i] + 1) % len;
                abandon[i] = s.in_nack(i);
            }
        }
        if before.is_none()
            && let Some(i) = s.owner(1)
        {
            grants[i] += 1;
        }
    }
    grants
}

#[test]
fn round_robin_lets_no_input_starve() {
    for d in [1, 2, 4, 15] {
        let grants = saturated(Arbiter::RoundRobin, d, 5, 20_000);
        let (low, high) = (grants.iter().min().unwrap(), grants.iter().max().unwrap());
        // Within one round of each other: every input is served about equally often.
        assert!(
            *low > 0 && high - low <= grants.len() as u64,
            "d = {d}: {grants:?}"
        );
    }
    // The fixed priority serves input 1 alone: every other input starves.
    let grants = saturated(Arbiter::Fixed, 2, 5, 20_000);
    assert_eq!(grants[0] + grants[2], 0, "{grants:?}");
    assert!(grants[1] > 3000, "{grants:?}");
}

/// A worm of `len` words sent in cycles 0.. into a chain of `j` switches of `c` (d = 2)
/// whose last has its output 1 faulty: the cycle in which the source sees the NACK, if it
/// does.
pub(crate) fn nack_seen_at_source(c: &SwitchConfig, j: usize, len: usize) -> Option<u64> {
    let mut chain: Vec<Switch> = (0..j).map(|_| Switch::new(c.clone())).collect();
    // Route bytes 1 at every switch (its link to the next), then 0, then data, then EOD.
    let mut worm = vec![head(1)];
    worm.extend((1..j).map(|_| data(1)));
    worm.push(data(0));
    while worm.len() + 1 < len {
        worm.push(data(0x5A));
    }
    worm.push(eod());
    assert_eq!(worm.len(), len);
    for cycle in 0..(len as u64 + 5 * j as u64) {
        if chain[0].in_nack(0) {
            return Some(cycle);
        }
        let sent = worm.get(cycle as usize).copied().unwrap_or(IDLE);
        let words: Vec<[Word; 3]> = (0..j)
            .map(|m| match m {
                0 => [sent, IDLE, IDLE],
                _ => [IDLE, chain[m - 1].out_word(1), IDLE],
            })
            .collect();
        let nacks: Vec<[bool; 3]> = (0..j)
            .map(|m| [false, m + 1 < j && chain[m + 1].in_nack(1), false])
            .collect();
        for (m, switch) in chain.iter_mut().enumerate() {
            let fault = if m + 1 == j { 0b010 } else { 0 };
            switch.step(&words[m], &nacks[m], fault);
        }
    }
    None
}

#[test]
fn the_source_hears_a_refusal_at_the_jth_switch_if_its_worm_is_3j_1_words_long() {
    // docs/switch.md: a head refused at the j-th switch (cycle 2(j-1)) is seen by the
    // source in cycle 3(j-1) + 1, while it sends word 3j - 2; so a worm of 3j - 1 words or
    // more hears of it, and a shorter one has let go of the links the NACK needs.
    let c = config(2, 8, Arbiter::RoundRobin);
    for j in 1..=6 {
        let shortest = (j + 2).max(3);
        let heard: Vec<usize> = (shortest..5 * j + 3)
            .filter(|&len| nack_seen_at_source(&c, j, len).is_some())
            .collect();
        let from = (3 * j - 1).max(shortest);
        assert_eq!(heard, (from..5 * j + 3).collect::<Vec<_>>(), "j = {j}");
        assert_eq!(
            nack_seen_at_source(&c, j, from),
            Some(3 * (j as u64 - 1) + 1),
            "j = {j}"
        );
    }
}
