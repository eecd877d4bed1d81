//! The switch's cycle model with input buffers, virtual cut-through (vct) and
//! store-and-forward (saf), against docs/flow-control.md: directed cases with every cycle
//! worked out by hand (a head blocked and taken into its buffer, sent on when its output
//! frees; a full buffer and a NACK; a buffer draining while a new head arrives; an EOD in
//! the cycle its output frees; a buffer's worm NACKed further on and dropped; a buffer
//! that overflows), and the same worm under each flow control.

use kautzgen::fabric::switch::{Arbiter, Flow, SwitchConfig};
use kautzgen::network::switch::{Switch, Word};

const IDLE: Word = Word::IDLE;

fn switch(flow: Flow, buffer_words: u64) -> Switch {
    let config = SwitchConfig::new(2, 8, Arbiter::RoundRobin)
        .unwrap()
        .with_flow(flow, buffer_words)
        .unwrap();
    Switch::new(config)
}

const fn word(ctl: bool, data: u64) -> Word {
    Word {
        valid: true,
        ctl,
        data,
    }
}

const fn head(port: u64) -> Word {
    word(true, port)
}

const fn eod() -> Word {
    word(true, 0)
}

const fn data(value: u64) -> Word {
    word(false, value)
}

/// A forwarded head: valid, marked, carrying the next route byte.
const fn marked(value: u64) -> Word {
    word(true, value)
}

/// The words of each input in each cycle: (input, first cycle, words).
type Script<'a> = &'a [(usize, usize, &'a [Word])];

/// Steps `switch` for `cycles` cycles with the worms of `script` on its inputs and a NACK
/// on output p in cycle c for each (c, p) of `nacks`; returns, for each cycle c, what the
/// outputs and the input NACKs show after its edge (in cycle c + 1).
fn run(
    switch: &mut Switch,
    cycles: usize,
    script: Script,
    nacks: &[(usize, usize)],
) -> Vec<(Vec<Word>, Vec<bool>)> {
    let ports = switch.config().ports();
    (0..cycles)
        .map(|c| {
            let mut inputs = vec![IDLE; ports];
            for &(i, start, words) in script {
                if let Some(w) = c.checked_sub(start).and_then(|j| words.get(j)) {
                    inputs[i] = *w;
                }
            }
            let out_nack: Vec<bool> = (0..ports).map(|p| nacks.contains(&(c, p))).collect();
            switch.step(&inputs, &out_nack, 0);
            (
                (0..ports).map(|p| switch.out_word(p)).collect(),
                (0..ports).map(|i| switch.in_nack(i)).collect(),
            )
        })
        .collect()
}

/// Output `p` after each cycle, a word without its valid bit shown as idle (its data
/// register goes on taking the owner's data: docs/switch.md).
fn output(seen: &[(Vec<Word>, Vec<bool>)], p: usize) -> Vec<Word> {
    seen.iter()
        .map(|(o, _)| if o[p].valid { o[p] } else { IDLE })
        .collect()
}

fn nacked(seen: &[(Vec<Word>, Vec<bool>)], i: usize) -> Vec<usize> {
    (0..seen.len()).filter(|&c| seen[c].1[i]).collect()
}

/// Worm A on input 1 from cycle 0 takes output 2; worm B on input 0 asks for it in cycle 1.
const A: &[Word] = &[head(2), data(0x11), data(0x12), eod()];
const B: &[Word] = &[head(2), data(0x21), data(0x22), eod()];

#[test]
fn a_blocked_head_is_taken_into_its_buffer_and_sent_on_when_its_output_frees() {
    // A goes through as in docs/switch.md: 11 marked after cycle 1, 12, its EOD after
    // cycle 3, which releases output 2. B's head in cycle 1 finds output 2 held: input 0's
    // buffer is empty, so B is taken in, its words in cycles 2, 3 and its EOD in 4. Whole
    // in cycle 5, the buffer asks for the free output and is granted; 21 goes out marked
    // after cycle 6, 22 after 7, the EOD after 8. No NACK.
    let mut s = switch(Flow::Vct, 32);
    let seen = run(&mut s, 11, &[(1, 0, A), (0, 1, B)], &[]);
    assert_eq!(
        output(&seen, 2),
        [
            IDLE,
            marked(0x11),
            data(0x12),
            eod(),
            IDLE,
            IDLE,
            marked(0x21),
            data(0x22),
            eod(),
            IDLE,
            IDLE
        ]
    );
    assert_eq!(nacked(&seen, 0), Vec::<usize>::new());
    assert!(s.is_quiet());
}

#[test]
fn without_buffers_the_blocked_head_is_nacked() {
    let mut s = switch(Flow::Nack, 0);
    let seen = run(&mut s, 6, &[(1, 0, A), (0, 1, &B[..2])], &[]);
    assert_eq!(nacked(&seen, 0), [1]);
}

#[test]
fn a_head_on_an_input_whose_buffer_is_occupied_is_nacked_whatever_its_output() {
    // As above; a head for output 1 (free) on input 0 in cycle 5, while B waits whole in
    // the buffer, is refused: NACK after cycle 5. Its sender stops; its word in cycle 6 is
    // dropped. A head for output 1 in the cycle B's EOD leaves (8) is refused too: the
    // buffer is emptied by that cycle's edge. One in cycle 10 goes through: its next word
    // is on output 1 after cycle 11.
    let mut s = switch(Flow::Vct, 32);
    let seen = run(
        &mut s,
        13,
        &[
            (1, 0, A),
            (0, 1, B),
            (0, 5, &[head(1), data(0x31)]),
            (0, 8, &[head(1), data(0x41)]),
            (0, 10, &[head(1), data(0x51), eod()]),
        ],
        &[],
    );
    assert_eq!(nacked(&seen, 0), [5, 8]);
    assert_eq!(output(&seen, 2)[6..9], [marked(0x21), data(0x22), eod()]);
    assert_eq!(output(&seen, 1)[10..13], [IDLE, marked(0x51), eod()]);
}

#[test]
fn an_eod_taken_in_the_cycle_its_output_frees_goes_on_the_cycle_after() {
    // A's EOD in cycle 3 releases output 2; B (one body word) has its EOD in the buffer in
    // the same cycle. Whole in cycle 4, B is granted then: 21 marked after cycle 5, its EOD
    // after 6.
    let short = &[head(2), data(0x21), eod()];
    let mut s = switch(Flow::Vct, 32);
    let seen = run(&mut s, 8, &[(1, 0, A), (0, 1, short)], &[]);
    assert_eq!(
        output(&seen, 2)[3..8],
        [eod(), IDLE, marked(0x21), eod(), IDLE]
    );
}

#[test]
fn a_buffers_worm_nacked_further_on_is_dropped_and_no_nack_goes_back() {
    // B is granted in cycle 5 as in the first case; a NACK on output 2 in cycle 7 (its 22)
    // releases the output and nothing goes on. B is dropped: the buffer is empty after
    // cycle 7, so a head for output 1 on input 0 in cycle 8 goes through (its word after
    // cycle 9), and output 2 stays idle. Its sender never hears a NACK.
    let mut s = switch(Flow::Vct, 32);
    let seen = run(
        &mut s,
        12,
        &[(1, 0, A), (0, 1, B), (0, 8, &[head(1), data(0x31), eod()])],
        &[(7, 2)],
    );
    assert_eq!(
        output(&seen, 2)[5..12],
        [IDLE, marked(0x21), IDLE, IDLE, IDLE, IDLE, IDLE]
    );
    assert_eq!(output(&seen, 1)[8..11], [IDLE, marked(0x31), eod()]);
    assert_eq!(nacked(&seen, 0), Vec::<usize>::new());
    assert!(s.is_quiet());
}

#[test]
fn store_and_forward_takes_every_worm_whole_before_its_head_goes_on() {
    // A alone on input 1: taken in with its head in cycle 0, whole after its EOD in 3,
    // granted in 4: 11 marked after cycle 5, 12, the EOD after 7. Under vct (and nack) it
    // goes straight through: 11 after cycle 1.
    let mut s = switch(Flow::Saf, 32);
    let seen = run(&mut s, 9, &[(1, 0, A)], &[]);
    assert_eq!(
        output(&seen, 2),
        [
            IDLE,
            IDLE,
            IDLE,
            IDLE,
            IDLE,
            marked(0x11),
            data(0x12),
            eod(),
            IDLE
        ]
    );
    let mut v = switch(Flow::Vct, 32);
    assert_eq!(
        output(&run(&mut v, 4, &[(1, 0, A)], &[]), 2)[1],
        marked(0x11)
    );
}

#[test]
fn a_head_marked_not_to_be_buffered_passes_as_a_nosy_worm() {
    // The top data bit (0x80 of 8) marks a head not to be buffered. Under saf, A marked
    // alone goes through at once, as under vct: 11 marked after cycle 1. B marked, blocked
    // by A (unmarked, under vct) in cycle 1: refused with a NACK after cycle 1, input 0's
    // buffer left empty.
    let marked_a = &[head(0x82), data(0x11), data(0x12), eod()];
    let mut s = switch(Flow::Saf, 32);
    let seen = run(&mut s, 5, &[(1, 0, marked_a)], &[]);
    assert_eq!(
        output(&seen, 2)[..4],
        [IDLE, marked(0x11), data(0x12), eod()]
    );
    let marked_b = &[head(0x82), data(0x21), data(0x22), eod()];
    let mut v = switch(Flow::Vct, 32);
    let seen = run(&mut v, 8, &[(1, 0, A), (0, 1, marked_b)], &[]);
    assert_eq!(nacked(&seen, 0), [1]);
    assert!(!v.buffer_occupied(0));
    assert_eq!(output(&seen, 2)[4..], [IDLE; 4]);
}

#[test]
fn a_marked_head_needs_a_data_bit_above_the_port_numbers() {
    // d = 3 names ports 0 to 3 in 2 bits: buffered flows need 3.
    let config = SwitchConfig::new(3, 2, Arbiter::RoundRobin).unwrap();
    assert_eq!(
        config.with_flow(Flow::Vct, 32).unwrap_err().to_string(),
        "vct and saf mark a head that must not be buffered with the top data bit, above the port numbers: d = 3 needs at least 3 data bits, got 2"
    );
}

#[test]
fn a_worm_longer_than_the_buffer_is_nacked_and_dropped() {
    // A 4-word buffer: the worm's words after its head are 4 data words and the EOD. The
    // fifth, in cycle 5, finds the buffer full: NACK after cycle 5, the buffer emptied,
    // nothing sent on; the sender's word in cycle 6 is dropped. A worm of 4 words after its
    // head, from cycle 8, fits: whole after its EOD in 12, granted in 13, out after cycles
    // 14 to 17.
    let long = &[head(2), data(1), data(2), data(3), data(4), eod(), data(9)];
    let fits = &[head(2), data(5), data(6), data(7), eod()];
    let mut s = switch(Flow::Saf, 4);
    let seen = run(&mut s, 19, &[(1, 0, long), (1, 8, fits)], &[]);
    assert_eq!(nacked(&seen, 1), [5]);
    let out = output(&seen, 2);
    assert!(out[..14].iter().all(|w| !w.valid), "{out:?}");
    assert_eq!(out[14..], [marked(5), data(6), data(7), eod(), IDLE]);
}

#[test]
fn buffers_refuse_sizes_out_of_range() {
    let config = SwitchConfig::new(2, 8, Arbiter::RoundRobin).unwrap();
    for words in [0, 1, 4097] {
        assert_eq!(
            config
                .clone()
                .with_flow(Flow::Vct, words)
                .unwrap_err()
                .to_string(),
            format!("an input buffer holds 2 to 4096 words, got {words}")
        );
    }
}
