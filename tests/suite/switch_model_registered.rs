//! The cycle model of the switch with the registered head decode (`--head-decode
//! registered`) against docs/switch.md, "Registered head decode": the byte-by-byte example
//! and its continuation over three switches, the refusal and the downstream NACK with the
//! words still to drop, the NACK that does not go back once the worm's EOD is on the link
//! or in the input register, the configurations it is refused with, and the rule that a
//! worm of 4j - 1 words over j switches hears of every refusal. Every expected value is
//! worked out by hand from the document's table.

use super::switch_model::{across_three_switches, nack_seen_at_source};
use kautzgen::fabric::switch::{Arbiter, Flow, HeadDecode, SwitchConfig, SwitchConfigError};
use kautzgen::network::switch::{Switch, Word};
use std::collections::BTreeMap;

fn registered(d: u64) -> SwitchConfig {
    SwitchConfig::new(d, 8, Arbiter::RoundRobin)
        .and_then(|c| c.with_head_decode(HeadDecode::Registered))
        .unwrap()
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

/// What one cycle shows: every output link's word and every input's NACK.
type Shown = (Vec<Word>, Vec<bool>);

/// Steps a d = 2 switch with `fault` through the words of input `input` (one a cycle,
/// idle after them, `cycles` in all) with output `nack.1`'s receiver NACKing in cycle
/// `nack.0`; entry c is what the switch shows in cycle c + 1.
fn drive(
    input: usize,
    words: &[Word],
    nack: Option<(usize, usize)>,
    fault: u64,
    cycles: usize,
) -> Vec<Shown> {
    let mut s = Switch::new(registered(2));
    let shown = (0..cycles)
        .map(|cycle| {
            let mut inputs = [IDLE; 3];
            inputs[input] = words.get(cycle).copied().unwrap_or(IDLE);
            let mut out_nack = [false; 3];
            if let Some((at, p)) = nack
                && at == cycle
            {
                out_nack[p] = true;
            }
            s.step(&inputs, &out_nack, fault);
            (
                (0..3).map(|p| s.out_word(p)).collect(),
                (0..3).map(|i| s.in_nack(i)).collect(),
            )
        })
        .collect();
    assert!(s.is_quiet());
    shown
}

/// Output `p`'s words of cycles 1.. .
fn output(shown: &[Shown], p: usize) -> Vec<Word> {
    shown.iter().map(|(o, _)| o[p]).collect()
}

/// The cycles (1..) in which input `i`'s NACK is high.
fn nacks(shown: &[Shown], i: usize) -> Vec<usize> {
    (0..shown.len())
        .filter(|&c| shown[c].1[i])
        .map(|c| c + 1)
        .collect()
}

#[test]
fn the_byte_by_byte_example_takes_a_cycle_more_per_switch() {
    // Route 2 1 0, data A5, on in0 in cycles 0..4. The head is in the input register in
    // cycle 1 and granted output 2; 01 is in the register in cycle 2 and leaves as the
    // head: out2 shows head 01, 00, A5, EOD in cycles 3..6.
    let worm = [head(2), data(0x01), data(0x00), data(0xA5), eod()];
    let shown = drive(0, &worm, None, 0, 8);
    assert_eq!(
        output(&shown, 2),
        [
            IDLE,
            IDLE,
            Word::control(0x01),
            data(0x00),
            data(0xA5),
            eod(),
            IDLE,
            IDLE
        ]
    );
    assert!(
        shown
            .iter()
            .all(|(o, n)| !o[0].valid && !o[1].valid && !n.contains(&true))
    );
}

#[test]
fn the_example_across_three_switches_arrives_three_cycles_later() {
    // B gets (1,01) (0,00) (0,A5) (1,00) in cycles 3..6 and sends (1,00) (0,A5) (1,00) on
    // its link 1 in cycles 6..8; C gets them in 6..8 and hands its router (1,A5) (1,00) in
    // cycles 9..10, three cycles later than the same-cycle switches (6..7).
    let (b_out1, router) = across_three_switches(registered(2), 14);
    assert_eq!(
        b_out1,
        BTreeMap::from([(6, Word::control(0x00)), (7, data(0xA5)), (8, eod())])
    );
    assert_eq!(
        router,
        BTreeMap::from([(9, Word::control(0xA5)), (10, eod())])
    );
}

#[test]
fn a_refused_head_is_nacked_a_cycle_later_and_two_words_are_dropped() {
    // Output 2 faulty: the head of cycle 0 is decided in cycle 1 and refused; in0_nack is
    // high in cycle 2; the sender, seeing it, sends nothing more from cycle 3, so the
    // words of cycles 1 and 2 are dropped (in the register in cycles 2 and 3): the EOD of
    // cycle 2 is not taken for a head naming output 0. The head of cycle 3, for output 1,
    // is taken: out1 shows (1,33) and the EOD in cycles 6, 7.
    let words = [head(2), data(0x01), eod(), head(1), data(0x33), eod()];
    let shown = drive(0, &words, None, 0b100, 9);
    assert_eq!(nacks(&shown, 0), [2]);
    let out1 = output(&shown, 1);
    assert_eq!(out1[5..7], [Word::control(0x33), eod()]);
    assert_eq!(out1.iter().filter(|w| w.valid).count(), 2);
    assert!(output(&shown, 0).iter().all(|w| !w.valid));
    assert!(output(&shown, 2).iter().all(|w| !w.valid));
}

#[test]
fn a_refused_worm_whose_eod_is_on_the_link_gets_no_nack() {
    // A worm of a head and an EOD: when its head is refused in cycle 1 the EOD is already
    // on the link, its sender has let go (and may send a new head in cycle 2, which a
    // NACK in cycle 2 would cut): no NACK, the EOD alone is dropped, the head of cycle 2
    // goes through to out1 in cycles 5, 6.
    let words = [head(2), eod(), head(1), data(0x44), eod()];
    let shown = drive(0, &words, None, 0b100, 8);
    assert_eq!(nacks(&shown, 0), Vec::<usize>::new());
    let out1 = output(&shown, 1);
    assert_eq!(out1[3..6], [IDLE, Word::control(0x44), eod()]);
}

#[test]
fn a_downstream_nack_cuts_the_worm_and_goes_back_with_two_words_dropped() {
    // Input 1 to output 0, words in cycles 0..5. out0 shows (1,1) and 2 in cycles 3, 4;
    // the receiver NACKs in cycle 4 (word 3 in the register, 4 on the link): out0 is empty
    // from cycle 5, in1_nack high in cycle 5, words 4 and 5 are dropped (the sender stops
    // after cycle 5); its head of cycle 6 reaches out2 as (1,55) in cycle 9.
    let words = [
        head(0),
        data(1),
        data(2),
        data(3),
        data(4),
        data(5),
        head(2),
        data(0x55),
        eod(),
    ];
    let shown = drive(1, &words, Some((4, 0)), 0, 12);
    assert_eq!(nacks(&shown, 1), [5]);
    let out0: Vec<Word> = output(&shown, 0).into_iter().filter(|w| w.valid).collect();
    assert_eq!(out0, [Word::control(1), data(2)]);
    assert_eq!(output(&shown, 2)[8..10], [Word::control(0x55), eod()]);
}

#[test]
fn no_nack_goes_back_once_the_eod_is_on_the_link_or_in_the_register() {
    // A worm head, 1, 2, EOD on in1 in cycles 0..3 to output 0, the next worm's head right
    // behind it in cycle 4. A NACK in cycle 3 (the EOD on the link) or 4 (the EOD in the
    // register) releases output 0 and goes no further; the next worm reaches out2 as
    // (1,66) and its EOD in cycles 7, 8 either way.
    for (at, sent) in [(3, 1), (4, 2)] {
        let words = [head(0), data(1), data(2), eod(), head(2), data(0x66), eod()];
        let shown = drive(1, &words, Some((at, 0)), 0, 10);
        assert_eq!(nacks(&shown, 1), Vec::<usize>::new(), "NACK in {at}");
        let out0: Vec<Word> = output(&shown, 0).into_iter().filter(|w| w.valid).collect();
        assert_eq!(out0.len(), sent, "NACK in {at}");
        assert_eq!(
            output(&shown, 2)[6..8],
            [Word::control(0x66), eod()],
            "NACK in {at}"
        );
    }
}

#[test]
fn the_buffered_switches_refuse_the_registered_decode() {
    let line = "--head-decode registered is built for --flow nack; --flow vct and saf decide at their buffers' heads";
    let vct = SwitchConfig::new(2, 8, Arbiter::RoundRobin)
        .and_then(|c| c.with_flow(Flow::Vct, 32))
        .unwrap();
    let refused = vct.with_head_decode(HeadDecode::Registered).unwrap_err();
    assert_eq!(refused, SwitchConfigError::RegisteredBuffers);
    assert_eq!(refused.to_string(), line);
    let refused = registered(2).with_flow(Flow::Saf, 32).unwrap_err();
    assert_eq!(refused.to_string(), line);
    assert_eq!(registered(2).hop_cycles(), 2);
    assert_eq!(
        SwitchConfig::new(2, 8, Arbiter::Fixed)
            .unwrap()
            .hop_cycles(),
        1
    );
}

#[test]
fn the_source_hears_a_refusal_at_the_jth_switch_if_its_worm_is_4j_1_words_long() {
    // docs/switch.md: the head of the j-th switch is on its link in cycle 3(j-1) and
    // decided in 3(j-1) + 1; its NACK is on that switch's in_nack a cycle later and one
    // switch further back each cycle: the source sees it in cycle 4(j-1) + 2, while it
    // sends word 4j - 2. Each switch on the way passes it back only while neither its
    // input register nor its link holds the EOD, so a worm of 4j - 1 words or more hears
    // of it, and a shorter one does not.
    let c = registered(2);
    for j in 1..=6 {
        let shortest = (j + 2).max(3);
        let heard: Vec<usize> = (shortest..5 * j + 3)
            .filter(|&len| nack_seen_at_source(&c, j, len).is_some())
            .collect();
        let from = 4 * j - 1;
        assert_eq!(heard, (from..5 * j + 3).collect::<Vec<_>>(), "j = {j}");
        assert_eq!(
            nack_seen_at_source(&c, j, from),
            Some(4 * (j as u64 - 1) + 2),
            "j = {j}"
        );
    }
}
