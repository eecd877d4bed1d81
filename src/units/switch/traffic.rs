//! The network switch of `crate::rtl::network::switch` as a [`StreamUnit`]: its traffic and
//! the cycle model's answer in every cycle.
//!
//! The traffic is made cycle by cycle in closed loop with the cycle model
//! ([`crate::network::switch::Switch`]), as real neighbours would make it: senders that
//! stop a worm the cycle after they see its NACK, receivers that NACK some of the worms
//! they are sent one cycle later, and a fault mask that changes. First come directed cases
//! (docs/switch.md names them; with input buffers, docs/flow-control.md names four more),
//! then `cycles` cycles of random traffic from `seed`. The
//! hardware, possibly with a built-in fault, gets the same inputs and must give the model's
//! outputs.

use crate::fabric::switch::Flow;
use crate::network::switch::{Switch, Word};
use crate::random::SplitMix64;
use crate::rtl::ir::Design;
use crate::rtl::network::switch::{self, SwitchParams};
use crate::sim::stream::{Cycle, StreamUnit};
use std::collections::VecDeque;

/// Cycles of random traffic unless asked otherwise.
pub const DEFAULT_CYCLES: u64 = 20_000;

/// What the switch's neighbours put on its inputs in one cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchInputs {
    /// The word on input link i.
    pub words: Vec<Word>,
    /// The NACK on output link p.
    pub out_nack: Vec<bool>,
    /// Bit p: output p is faulty.
    pub fault: u64,
}

/// The switch checked against its model on directed cases and random traffic.
#[derive(Debug, Clone)]
pub struct SwitchUnit {
    params: SwitchParams,
    cycles: u64,
    seed: u64,
}

impl SwitchUnit {
    /// The switch of `params` (with its built-in fault, if any) under the directed cases
    /// and `cycles` cycles of random traffic drawn from `seed`.
    pub fn new(params: SwitchParams, cycles: u64, seed: u64) -> Self {
        SwitchUnit {
            params,
            cycles,
            seed,
        }
    }

    /// Cycles of the directed cases: nine, and four more with input buffers.
    pub fn directed_cycles(&self) -> u64 {
        match self.params.config.flow() {
            Flow::Nack => DIRECTED_CYCLES,
            Flow::Vct | Flow::Saf => {
                DIRECTED_CYCLES + BUFFER_CASES_CYCLES + self.params.config.buffer_words() as u64 + 8
            }
        }
    }

    /// Cycles in all: the directed cases, then the random traffic.
    pub fn cycle_count(&self) -> u64 {
        self.directed_cycles() + self.cycles
    }

    /// The inputs of every cycle, made in closed loop with the fault-free model.
    pub fn stimulus(&self) -> Vec<SwitchInputs> {
        let config = &self.params.config;
        let ports = config.ports();
        let mut model = Switch::new(config.clone());
        let mut traffic = Traffic::new(self, ports);
        let mut all = Vec::with_capacity(self.cycle_count() as usize);
        for cycle in 0..self.cycle_count() {
            let inputs = traffic.next(cycle, &model);
            model.step(&inputs.words, &inputs.out_nack, inputs.fault);
            all.push(inputs);
        }
        all
    }
}

/// The input ports' values of one cycle, in the top's port order: `fault`, each input
/// link's valid, type and data, then each output's NACK.
pub fn input_row(inputs: &SwitchInputs) -> Vec<u64> {
    let mut row = vec![inputs.fault];
    for w in &inputs.words {
        row.extend([w.valid as u64, w.ctl as u64, w.data]);
    }
    row.extend(inputs.out_nack.iter().map(|&n| n as u64));
    row
}

/// The output ports' values the model shows after a clock edge, in the top's port order:
/// each input's NACK, then each output link's valid, type and data.
pub fn output_row(switch: &Switch, ports: usize) -> Vec<u64> {
    let mut row: Vec<u64> = (0..ports).map(|i| switch.in_nack(i) as u64).collect();
    for p in 0..ports {
        let w = switch.out_word(p);
        row.extend([w.valid as u64, w.ctl as u64, w.data]);
    }
    row
}

impl StreamUnit for SwitchUnit {
    fn describe(&self) -> String {
        self.params.describe()
    }

    fn design(&self) -> Design {
        switch::design(&self.params)
    }

    fn cycles(&self) -> Vec<Cycle> {
        let config = &self.params.config;
        let mut model = Switch::new(config.clone());
        self.stimulus()
            .iter()
            .map(|inputs| {
                model.step(&inputs.words, &inputs.out_nack, inputs.fault);
                Cycle::narrow(input_row(inputs), &output_row(&model, config.ports()))
            })
            .collect()
    }
}

/// Length of the directed part: nine cases, 20 cycles apart.
pub const DIRECTED_CYCLES: u64 = 180;
/// Length of the buffers' directed cases but the last: four, 20 cycles apart. The last, an
/// overflow, takes a worm one word longer than the buffer and a few cycles to drain.
const BUFFER_CASES_CYCLES: u64 = 80;

/// A worm as its sender sends it: head (ctl=1, the route byte), body words, EOD.
pub(crate) fn worm(route: u64, body: &[u64], mask: u64) -> Vec<Word> {
    let mut words = vec![Word {
        valid: true,
        ctl: true,
        data: route,
    }];
    words.extend(body.iter().map(|&b| Word {
        valid: true,
        ctl: false,
        data: b & mask,
    }));
    words.push(Word {
        valid: true,
        ctl: true,
        data: 0,
    });
    words
}

/// One input link's sender: worms queued with the cycle they may start, the worm being
/// sent, and the contract of docs/switch.md (after a NACK seen in cycle c, nothing more of
/// that worm from c+1).
#[derive(Debug, Default)]
pub(crate) struct Sender {
    queue: VecDeque<(u64, Vec<Word>)>,
    current: Vec<Word>,
    sent: usize,
    /// The random sender's idle cycles before its next worm.
    gap: u64,
}

impl Sender {
    /// Queues `words` to be sent from cycle `start` on.
    pub(crate) fn push(&mut self, start: u64, words: Vec<Word>) {
        self.queue.push_back((start, words));
    }

    /// Nothing queued and no worm under way.
    pub(crate) fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.sent == self.current.len()
    }

    /// The word to send in `cycle`, given whether the link's NACK is high in it.
    pub(crate) fn word(&mut self, cycle: u64, nack: bool) -> Word {
        let sending = self.sent < self.current.len();
        if !sending {
            match self.queue.front() {
                Some(&(start, _)) if start <= cycle => {
                    self.current = self.queue.pop_front().expect("front exists").1;
                    self.sent = 0;
                }
                _ => return Word::IDLE,
            }
        }
        let word = self.current[self.sent];
        self.sent += 1;
        if nack && sending {
            // The NACK of the worm under way: this cycle's word was on the wire already,
            // nothing more of it follows.
            self.sent = self.current.len();
        }
        word
    }
}

/// The neighbours of the switch: senders on every input, receivers on every output, and
/// the fault mask, scripted for the directed cases and random after them.
struct Traffic {
    senders: Vec<Sender>,
    /// Directed NACKs: (cycle, output).
    nacks: Vec<(u64, usize)>,
    /// Directed fault masks: (first cycle, last cycle, mask).
    faults: Vec<(u64, u64, u64)>,
    /// Receivers' NACKs decided last cycle, sent this cycle.
    pending: Vec<bool>,
    fault: u64,
    rng: SplitMix64,
    ports: usize,
    d: u64,
    mask: u64,
    /// With buffers: the mark of a head not to be buffered.
    mark: Option<u64>,
    /// The first cycle of random traffic.
    random_from: u64,
    /// Cycles the switch's decision comes after a word's arrival: 0, or 1 behind the input
    /// registers of the registered head decode (the directed NACKs come that much later).
    lag: u64,
}

impl Traffic {
    fn new(unit: &SwitchUnit, ports: usize) -> Self {
        let bits = unit.params.config.data_bits();
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        };
        let mut traffic = Traffic {
            senders: (0..ports).map(|_| Sender::default()).collect(),
            nacks: Vec::new(),
            faults: Vec::new(),
            pending: vec![false; ports],
            fault: 0,
            rng: SplitMix64::new(unit.seed),
            ports,
            d: ports as u64 - 1,
            mask,
            mark: unit.params.config.no_buffer_mark(),
            random_from: unit.directed_cycles(),
            lag: unit.params.config.hop_cycles() - 1,
        };
        traffic.script();
        if unit.params.config.flow() != Flow::Nack {
            traffic.buffer_script(unit.params.config.buffer_words());
        }
        traffic
    }

    fn queue(&mut self, input: usize, start: u64, route: u64, body: &[u64]) {
        let words = worm(route, body, self.mask);
        self.senders[input].push(start, words);
    }

    /// The directed cases, one every 20 cycles from cycle 2. Input 1 and output 1 exist for
    /// every d >= 1. The NACKs come `lag` cycles later behind input registers, to meet the
    /// same words in the switch.
    fn script(&mut self) {
        // Contention: heads on inputs 0 and 1 for output 1 in one cycle.
        self.queue(0, 2, 1, &[0x11, 0x12]);
        self.queue(1, 2, 1, &[0x21]);
        // A NACK from output 0's receiver in the middle of a worm.
        self.queue(1, 20, 0, &[0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38]);
        self.nacks.push((25 + self.lag, 0));
        // EOD release: a worm through output 1, then the next one granted right after.
        self.queue(0, 40, 1, &[0x41, 0x42, 0x43]);
        self.queue(1, 45, 1, &[0x44]);
        // A faulty output.
        self.faults.push((58, 64, 0b10));
        self.queue(0, 60, 1, &[0x51, 0x52]);
        // An empty route field: route byte 0, the local router.
        self.queue(1, 80, 0, &[0xA5]);
        // Back-to-back worms on one input, to two outputs.
        self.queue(0, 100, 1, &[0x61, 0x62]);
        self.queue(0, 100, 0, &[0x63]);
        // A route byte naming no output, where the data width can write one.
        if self.d < self.mask {
            self.queue(1, 120, self.d + 1, &[0x71]);
        }
        // A NACK in the very cycle of the worm's EOD: no NACK goes back.
        self.queue(0, 140, 1, &[0x81, 0x82]);
        self.nacks.push((143 + self.lag, 1));
        // A worm of just a head and an EOD.
        self.queue(1, 160, 1, &[]);
    }

    /// The buffers' directed cases (docs/flow-control.md), after the others, 20 cycles
    /// apart but the last.
    fn buffer_script(&mut self, words: usize) {
        let t = DIRECTED_CYCLES;
        // A head blocked and taken into its buffer: input 1 holds output 1; input 0's head
        // for it a cycle later waits in the buffer and goes on when the output frees.
        self.queue(1, t + 2, 1, &[0x91, 0x92, 0x93, 0x94]);
        self.queue(0, t + 3, 1, &[0x95, 0x96]);
        // A full buffer, then NACK: input 0's worm waits for output 0, held by a long worm
        // from input 1; the next head on input 0, for a free output, is refused.
        self.queue(
            1,
            t + 20,
            0,
            &[0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8],
        );
        self.queue(0, t + 21, 0, &[0xA9]);
        self.queue(0, t + 26, 1, &[0xAA]);
        // The EOD taken in on the cycle the output frees, and the buffer drained while a new
        // head arrives: input 1 holds output 1 to its EOD in t+43; input 0's worm, blocked
        // in t+41, has its EOD in then, and goes out from t+44 to its EOD in t+46; the head
        // on input 0 in t+46 finds the buffer still full, the one in t+48 an empty one.
        self.queue(1, t + 40, 1, &[0xB1, 0xB2]);
        self.queue(0, t + 41, 1, &[0xB3]);
        self.queue(0, t + 46, 0, &[0xB4]);
        self.queue(0, t + 48, 0, &[0xB5]);
        // A head marked not to be buffered (an acknowledgement) finds its output held by a
        // worm from input 1: refused with a NACK, its buffer left empty; a marked head for a
        // free output goes through as a nosy worm, under saf too.
        let mark = self.mark.expect("buffers");
        self.queue(1, t + 60, 1, &[0xD1, 0xD2, 0xD3, 0xD4]);
        self.queue(0, t + 61, mark | 1, &[0xD5]);
        self.queue(0, t + 70, mark, &[0xD6, 0xD7]);
        // A worm one word longer than the buffer (its EOD does not fit): NACKed, dropped.
        self.queue(0, t + 80, 1, &vec![0xC0; words]);
    }

    /// A random worm: a route byte (now and then one that names no output; with buffers,
    /// one in four marked not to be buffered), 1 to 6 body words, the EOD.
    fn random_worm(&mut self) -> Vec<Word> {
        let mut route = if self.d < self.mask && self.rng.below(8) == 0 {
            self.d + 1 + self.rng.below(self.mask - self.d)
        } else {
            self.rng.below(self.d + 1)
        };
        if let Some(mark) = self.mark
            && self.rng.below(4) == 0
        {
            route |= mark;
        }
        let body: Vec<u64> = (0..1 + self.rng.below(6))
            .map(|_| self.rng.next_u64())
            .collect();
        let mut words = worm(route, &body, self.mask);
        words.last_mut().expect("a worm ends in its EOD").data = self.rng.next_u64() & self.mask;
        words
    }

    /// The inputs of `cycle`, given the model's outputs visible in it.
    fn next(&mut self, cycle: u64, model: &Switch) -> SwitchInputs {
        let random = cycle >= self.random_from;
        let mut words = Vec::with_capacity(self.ports);
        for i in 0..self.ports {
            if random && self.senders[i].is_idle() {
                if self.senders[i].gap == 0 {
                    let worm = self.random_worm();
                    self.senders[i].push(cycle, worm);
                    self.senders[i].gap = match self.rng.below(8) {
                        0..=2 => 0,
                        3..=6 => 1 + self.rng.below(4),
                        _ => 10 + self.rng.below(30),
                    };
                } else {
                    self.senders[i].gap -= 1;
                }
            }
            words.push(self.senders[i].word(cycle, model.in_nack(i)));
        }
        let out_nack: Vec<bool> = if random {
            let now = self.pending.clone();
            for p in 0..self.ports {
                let w = model.out_word(p);
                let odds = match (w.valid, w.ctl) {
                    (true, true) => 4,
                    (true, false) => 32,
                    _ => 256,
                };
                self.pending[p] = self.rng.below(odds) == 0;
            }
            now
        } else {
            (0..self.ports)
                .map(|p| self.nacks.contains(&(cycle, p)))
                .collect()
        };
        if random {
            if cycle.is_multiple_of(256) {
                self.fault = (0..self.ports)
                    .filter(|_| self.rng.below(8) == 0)
                    .fold(0, |m, p| m | 1 << p);
            }
        } else {
            self.fault = self
                .faults
                .iter()
                .filter(|&&(from, to, _)| (from..=to).contains(&cycle))
                .fold(0, |m, f| m | f.2);
        }
        SwitchInputs {
            words,
            out_nack,
            fault: self.fault,
        }
    }
}
