//! The router of `crate::rtl::network::router` as a [`StreamUnit`]: its stimulus and the cycle
//! model's answer in every cycle.
//!
//! The stimulus is made cycle by cycle in closed loop with the cycle model
//! ([`crate::network::router::Router`]) from a seed: a processor that hands over messages
//! as soon as the router is ready, bytes in consecutive cycles, to random destinations (now
//! and then this node, a word that is no node, or more bytes than the buffer holds); a
//! switch that NACKs an attempt at S + 3(j-1) + 1 for a random j (or never), as a refusal
//! at the j-th switch of the route would, plus NACKs while nothing is sent, which count for
//! nothing; and worms arriving on the switch's output 0, most well formed, some cut short
//! or with no bytes, with idle cycles between and inside them. The hardware, possibly with
//! a built-in fault, gets the same inputs and must give the model's outputs.
//!
//! Behind buffered switches (acknowledged delivery) the arriving worms carry sequence
//! numbers: data worms from other nodes, new or copies of the last from their source, and
//! stale ACKs; seven in eight data worms the router sends whole are acknowledged, most soon
//! after, some about when the source stops waiting, just before or just after. Every ACK the model owes is
//! queued with its routes back to the data worm's source, as the network does.

use crate::fabric::wiring::kautz_route_bytes;
use crate::network::acked::ACK_MARK;
use crate::network::message::SourceRoute;
use crate::network::message::{Message, payload_word};
use crate::network::router::{Event, Router, RouterParams as ModelParams};
use crate::network::switch::Word;
use crate::random::SplitMix64;
use crate::routing::kautz::route_set;
use crate::rtl::ir::Design;
use crate::rtl::kautz_route::pack_word;
use crate::rtl::network::router::{self, RouterParams};
use crate::sim::stream::{Cycle, StreamUnit};
use crate::topology::kautz::{Kautz, Letter};
use std::collections::{HashMap, VecDeque};

/// Cycles of random traffic unless asked otherwise.
pub const DEFAULT_CYCLES: u64 = 20_000;

/// The router checked against its model on random traffic.
#[derive(Debug, Clone)]
pub struct RouterUnit {
    params: RouterParams,
    cycles: u64,
    seed: u64,
}

impl RouterUnit {
    /// The router of `params` (with its built-in fault, if any) under `cycles` cycles of
    /// traffic drawn from `seed`. Its ports must be at most 64 bits wide (k*W <= 64).
    pub fn new(params: RouterParams, cycles: u64, seed: u64) -> Self {
        RouterUnit {
            params,
            cycles,
            seed,
        }
    }

    pub fn cycle_count(&self) -> u64 {
        self.cycles
    }

    /// The model's parameters for this router.
    fn model_params(&self) -> ModelParams {
        ModelParams {
            ack_timeout: self.params.ack_timeout,
            receive: None,
            address_bytes: self.params.address_units().0 as usize,
            route_cycles: self.params.route_cycles(),
            seed: self.seed,
        }
    }
}

/// A message being handed over: its bytes left and its destination word.
struct Loading {
    id: u64,
    next: u64,
    bytes: u64,
    dst: u64,
}

/// The environment of one router: processor, switch input 0 (NACKs) and switch output 0
/// (arriving worms).
struct Traffic {
    graph: Kautz,
    /// Bits of a letter.
    w: u32,
    /// Bits of a link word and of the processor's data.
    data_bits: u32,
    max_bytes: u64,
    /// The seed the payload bytes are drawn from.
    seed: u64,
    model_params: ModelParams,
    rng: SplitMix64,
    node: Vec<Letter>,
    loading: Option<Loading>,
    next_id: u64,
    gap: u64,
    /// The routes of the message in flight and the attempts seen so far.
    routes: Vec<SourceRoute>,
    attempts: usize,
    in_worm: bool,
    nack_at: Option<u64>,
    arriving: VecDeque<Word>,
    /// Under acknowledged delivery: what the network would do.
    acked: Option<AckedNetwork>,
}

/// The rest of the network of an acknowledging router: the sequence numbers it gives its
/// messages, the ACKs on their way back, and the numbers other sources send it.
#[derive(Default)]
struct AckedNetwork {
    /// The next sequence number towards each destination, as the router counts them.
    next_seq: HashMap<Vec<Letter>, u16>,
    /// The held message's destination and number.
    held: Option<(Vec<Letter>, u16)>,
    /// The worm the router is sending, if any: whether it is a data worm (not an ACK).
    sending: Option<bool>,
    /// A data worm has gone out whole.
    whole: bool,
    /// ACKs on their way: the cycle each arrives from, and its worm.
    acks: VecDeque<(u64, VecDeque<Word>)>,
    /// The last number each other source sent.
    sent: HashMap<Vec<Letter>, u16>,
    /// Cycles a source waits for an ACK.
    timeout: u64,
}

/// What the processor drives in one cycle.
struct Tx {
    valid: u64,
    data: u64,
    last: u64,
    dst: u64,
}

impl StreamUnit for RouterUnit {
    fn describe(&self) -> String {
        self.params.describe()
    }

    fn design(&self) -> Design {
        router::design(&self.params)
    }

    fn cycles(&self) -> Vec<Cycle> {
        let mut env = Traffic::new(self);
        let node_bits = pack_word(&env.node, env.w);
        let mut model = Router::new(&self.model_params(), env.node.clone());
        let mut link = LinkWords::new(&self.params, self.seed);
        let mut events = Vec::new();
        let mut out = Vec::with_capacity(self.cycles as usize);
        for t in 0..self.cycles {
            if env.loading.is_none() && model.is_idle() {
                env.processor(t, &mut model);
            }
            let tx = env.tx();
            let nack = env.switch_nack(t, model.word());
            let arriving = env.arriving_word(t);
            model.clock(&env.model_params, t, nack, arriving, &mut events);
            env.network(t, &mut model, &events);
            let net_data = link.word(model.word(), nack, model.held_id());
            let inputs = vec![
                tx.valid,
                tx.data,
                tx.last,
                tx.dst,
                node_bits,
                nack as u64,
                arriving.valid as u64,
                arriving.ctl as u64,
                arriving.data,
            ];
            out.push(Cycle::narrow(
                inputs,
                &outputs(&model, t, (env.w, arriving.data, net_data), &mut events),
            ));
        }
        out
    }
}

/// The router's outputs after the clock edge of cycle `t`, as the model gives them; the
/// result port shows the one message the cycle's `events` finished, if any. The model
/// carries bytes: a data word handed out is the whole word `arrived` in the cycle (the
/// model's byte its low 8 bits), and the word on the link is `net_data`, as [`LinkWords`]
/// widens the model's.
fn outputs(
    model: &Router,
    t: u64,
    (w, arrived, net_data): (u32, u64, u64),
    events: &mut Vec<Event>,
) -> Vec<u64> {
    let (res_valid, res_status, res_attempts) = match events.drain(..).find(|e| {
        !matches!(
            e,
            Event::Arrived { .. } | Event::ReceiveError | Event::AckDue { .. }
        )
    }) {
        Some(Event::Delivered(m)) => (1, 0, m.attempts.len() as u64),
        Some(Event::Failed(m)) => (1, 1, m.attempts.len() as u64),
        Some(Event::Refused(_)) => (1, 2, 0),
        _ => (0, 0, 0),
    };
    events.clear();
    let rx = model.rx_port();
    let next = model.word();
    let rx_data = match rx.valid {
        true => {
            assert_eq!(
                arrived & 0xff,
                u64::from(rx.data),
                "the byte handed out arrived now"
            );
            arrived
        }
        false => 0,
    };
    vec![
        model.tx_ready(t + 1) as u64,
        res_valid,
        res_status,
        res_attempts,
        rx.valid as u64,
        rx_data,
        rx.first as u64,
        rx.last as u64,
        pack_word(&rx.src, w),
        u64::from(rx.len),
        rx.error as u64,
        next.valid as u64,
        next.ctl as u64,
        net_data,
    ]
}

/// The words on the router's link to the switch as the hardware sends them, from the
/// model's, which carry bytes: a data word of the held message is its whole
/// [`payload_word`], and under acknowledged delivery an ACK's mark is the word's top bit
/// (0x80 in a byte). Every other word is the model's: route bytes, the 0, the source's
/// letters, n, the sequence number, padding and the EOD use the low bits, the rest 0.
struct LinkWords {
    bits: u32,
    seed: u64,
    /// Address units after the 0, and whether a sequence number follows n.
    k: usize,
    acked: bool,
    part: Part,
}

/// Where the link is in the worm the router sends.
#[derive(Clone, Copy)]
enum Part {
    /// No worm, or one NACKed.
    Idle,
    /// The head and the route bytes, up to the 0 that ends them.
    Route,
    /// Source address units still to come.
    Source(usize),
    Length,
    /// Sequence number bytes still to come, before `n` data words.
    Sequence {
        left: u8,
        n: usize,
    },
    /// Data word `j` of `n` comes next.
    Data {
        j: usize,
        n: usize,
    },
    /// Padding up to the EOD.
    Padding,
}

impl LinkWords {
    fn new(params: &RouterParams, seed: u64) -> Self {
        LinkWords {
            bits: params.data_bits,
            seed,
            k: params.address_units().0 as usize,
            acked: params.ack_timeout.is_some(),
            part: Part::Idle,
        }
    }

    /// The hardware's word for the model's `word` on the link after a clock edge (a NACK
    /// in that cycle, `nacked`, cut the worm before it), `held` the id of the message the
    /// router holds.
    fn word(&mut self, word: Word, nacked: bool, held: Option<u64>) -> u64 {
        if nacked {
            self.part = Part::Idle;
        }
        if !word.valid {
            return word.data;
        }
        let mark = |data: u64| match self.acked && data & u64::from(ACK_MARK) != 0 {
            true => data & !u64::from(ACK_MARK) | 1 << (self.bits - 1),
            false => data,
        };
        let (wide, part) = match self.part {
            Part::Idle if word.ctl => (mark(word.data), Part::Route),
            Part::Idle => (word.data, Part::Idle),
            _ if word.ctl => (word.data, Part::Idle),
            Part::Route if word.data & !u64::from(ACK_MARK) == 0 => {
                (mark(word.data), Part::Source(self.k))
            }
            Part::Route => (mark(word.data), Part::Route),
            Part::Source(1) => (word.data, Part::Length),
            Part::Source(left) => (word.data, Part::Source(left - 1)),
            Part::Length => (word.data, self.after_count(word.data as usize)),
            Part::Sequence { left: 1, n } => (word.data, data(n)),
            Part::Sequence { left, n } => (word.data, Part::Sequence { left: left - 1, n }),
            Part::Data { j, n } => {
                let id = held.expect("a data worm's message is held");
                let wide = payload_word(self.seed, id, j, self.bits);
                assert_eq!(wide & 0xff, word.data, "data word {j} of message {id}");
                let part = match j + 1 == n {
                    true => Part::Padding,
                    false => Part::Data { j: j + 1, n },
                };
                (wide, part)
            }
            Part::Padding => (word.data, Part::Padding),
        };
        self.part = part;
        wide
    }

    /// After the count `n`: the sequence number under acknowledged delivery, else the data.
    fn after_count(&self, n: usize) -> Part {
        match self.acked {
            true => Part::Sequence { left: 2, n },
            false => data(n),
        }
    }
}

/// The `n` data words of a worm, then its padding.
fn data(n: usize) -> Part {
    match n {
        0 => Part::Padding,
        _ => Part::Data { j: 0, n },
    }
}

impl Traffic {
    /// The environment of `unit`'s router, at a node drawn from its seed.
    fn new(unit: &RouterUnit) -> Self {
        let graph = super::kautz(&unit.params);
        let mut rng = SplitMix64::new(unit.seed);
        let node = match graph.node_count() {
            Some(n) => graph.word_at(rng.below(n) as usize).letters().to_vec(),
            None => (0..graph.k()).map(|i| (i % 2) as Letter).collect(),
        };
        Traffic {
            graph,
            w: unit.params.letter_bits(),
            data_bits: unit.params.data_bits,
            max_bytes: u64::from(unit.params.max_bytes),
            seed: unit.seed,
            model_params: unit.model_params(),
            rng,
            node,
            loading: None,
            next_id: 0,
            gap: 0,
            routes: Vec::new(),
            attempts: 0,
            in_worm: false,
            nack_at: None,
            arriving: VecDeque::new(),
            acked: unit.params.ack_timeout.map(|timeout| AckedNetwork {
                timeout,
                ..AckedNetwork::default()
            }),
        }
    }

    /// The processor, while the router is idle and nothing is being handed over: after its
    /// gap, a new message, which the model accepts or refuses.
    fn processor(&mut self, t: u64, model: &mut Router) {
        if self.gap > 0 {
            self.gap -= 1;
            return;
        }
        let dst = self.destination();
        let max = self.max_bytes;
        let bytes = if max < 255 && self.rng.below(12) == 0 {
            max + 1 + self.rng.below((255 - max).min(4))
        } else if self.rng.below(3) == 0 {
            1 + self.rng.below(max.min(3))
        } else {
            1 + self.rng.below(max)
        };
        let id = self.next_id;
        self.next_id += 1;
        let packed = pack_word(&dst, self.w);
        let message = Message {
            id,
            src: 0,
            // Under acknowledged delivery the router numbers messages per destination, and
            // its route source keeps a pair: a node's index, or a key above them for a word
            // that is no node.
            dst: match self.graph.check_letters(&dst) {
                Ok(()) => self.graph.index_of(&dst) as u32,
                Err(_) => u32::MAX - packed as u32,
            },
            inject: t,
            bytes: bytes as u8,
            round: 0,
            ready: t,
            handed: 0,
            attempts: Vec::new(),
        };
        match route_set(&self.graph, &self.node, &dst) {
            Ok(routes) if bytes <= max => {
                let last = self.node[self.node.len() - 1];
                self.routes = routes
                    .iter()
                    .map(|r| SourceRoute {
                        bytes: kautz_route_bytes(last, &r.hops),
                        name: r.hops.iter().map(|&a| u32::from(a)).collect(),
                    })
                    .collect();
                self.attempts = 0;
                let address = self.acked.as_mut().map(|acked| {
                    let next = acked.next_seq.entry(dst.clone()).or_insert(0);
                    acked.held = Some((dst.clone(), *next));
                    *next = next.wrapping_add(1);
                    dst.clone()
                });
                model.accept(&self.model_params, t, message, self.routes.clone(), address);
            }
            routes => {
                let routes = routes.map_or(0, |r| r.len());
                model.refuse(&self.model_params, t, message, bytes, routes)
            }
        }
        self.loading = Some(Loading {
            id,
            next: 0,
            bytes,
            dst: packed,
        });
        self.gap = match self.rng.below(4) {
            0 => 0,
            1 | 2 => self.rng.below(4),
            _ => self.rng.below(40),
        };
    }

    /// The processor's port: the next byte of the message being handed over, its
    /// destination with the first byte; junk when not valid.
    fn tx(&mut self) -> Tx {
        let k = self.graph.k();
        let junk_dst = self.rng.next_u64() & ((1u64 << (k as u32 * self.w)) - 1);
        let tx = match self.loading.as_mut() {
            Some(l) => {
                let j = l.next;
                l.next += 1;
                Tx {
                    valid: 1,
                    data: payload_word(self.seed, l.id, j as usize, self.data_bits),
                    last: (l.next == l.bytes) as u64,
                    dst: if j == 0 { l.dst } else { junk_dst },
                }
            }
            None => Tx {
                valid: 0,
                data: random_word(&mut self.rng, self.data_bits),
                last: self.rng.below(2),
                dst: junk_dst,
            },
        };
        if tx.last == 1 && tx.valid == 1 {
            self.loading = None;
        }
        tx
    }

    /// The switch's input 0 in cycle `t`, seeing the router's `word`: NACKs as refusals at
    /// the j-th switch would send them, and now and then one while nothing is sent.
    fn switch_nack(&mut self, t: u64, word: Word) -> bool {
        if let Some(acked) = self.acked.as_mut() {
            acked.watch(word);
        }
        if word.valid && word.ctl && !self.in_worm {
            self.in_worm = true;
            // Under acknowledged delivery ACK worms go out between the attempts.
            let hops = match self.acked {
                Some(_) => self.graph.k() as u64,
                None => self.routes[self.attempts].bytes.len() as u64,
            };
            self.attempts += 1;
            self.nack_at = match self.rng.below(2) {
                0 => None,
                _ => Some(t + 3 * self.rng.below(hops + 1) + 1),
            };
        } else if word.valid && word.ctl {
            self.in_worm = false;
        }
        if self.nack_at == Some(t) {
            self.nack_at = None;
            self.in_worm = false;
            if let Some(acked) = self.acked.as_mut() {
                acked.nacked();
            }
            true
        } else {
            !word.valid && self.rng.below(32) == 0
        }
    }

    /// The switch's output 0 in cycle `t`: the next word of an arriving worm, with idle
    /// cycles between and inside worms.
    fn arriving_word(&mut self, t: u64) -> Word {
        let due = |a: &AckedNetwork| a.acks.front().is_some_and(|&(at, _)| at <= t);
        if self.arriving.is_empty() && self.acked.as_ref().is_some_and(due) {
            let acked = self.acked.as_mut().expect("checked");
            self.arriving = acked.acks.pop_front().expect("checked").1;
        } else if self.arriving.is_empty() && self.rng.below(24) == 0 {
            self.arriving = match self.acked.is_some() {
                true => self.sequenced_worm(),
                false => self.arriving_worm(self.graph.d() as u64, self.graph.k()),
            };
        }
        if self.rng.below(10) == 0 {
            Word::IDLE
        } else {
            self.arriving.pop_front().unwrap_or(Word::IDLE)
        }
    }

    /// A destination: mostly another node, now and then this node or a word that is none.
    fn destination(&mut self) -> Vec<Letter> {
        let (graph, w, k) = (self.graph, self.w, self.graph.k());
        match self.rng.below(10) {
            0 => self.node.clone(),
            1 => (0..k).map(|_| self.rng.below(1 << w) as Letter).collect(),
            _ => loop {
                let word: Vec<Letter> = match graph.node_count() {
                    Some(n) => graph.word_at(self.rng.below(n) as usize).letters().to_vec(),
                    None => {
                        let mut word = vec![self.rng.below(graph.d() as u64 + 1) as Letter];
                        while word.len() < k {
                            let prev = word[word.len() - 1];
                            let a = self.rng.below(graph.d() as u64) as Letter;
                            word.push(if a >= prev { a + 1 } else { a });
                        }
                        word
                    }
                };
                if word != self.node {
                    break word;
                }
            },
        }
    }

    /// A worm out of the switch's port 0: x1 (ctl=1), x2..xk, n, the bytes, padding, the
    /// EOD; one in six cut short by an early EOD or with n = 0, some preceded by stray
    /// data words.
    fn arriving_worm(&mut self, d: u64, k: usize) -> VecDeque<Word> {
        let mut words = VecDeque::new();
        for _ in 0..self.rng.below(3).saturating_sub(1) {
            words.push_back(Word::data(random_word(&mut self.rng, self.data_bits)));
        }
        words.push_back(Word::control(self.rng.below(d + 1)));
        for _ in 1..k {
            words.push_back(Word::data(self.rng.below(d + 1)));
        }
        let n = match self.rng.below(12) {
            0 => 0,
            1..=8 => 1 + self.rng.below(8),
            _ => 1 + self.rng.below(255),
        };
        words.push_back(Word::data(n));
        for _ in 0..n {
            words.push_back(Word::data(random_word(&mut self.rng, self.data_bits)));
        }
        for _ in 0..self.rng.below(4) {
            words.push_back(Word::data(0));
        }
        if self.rng.below(6) == 0 {
            let cut = 1 + self.rng.below(words.len() as u64 - 1) as usize;
            words.truncate(cut);
        }
        words.push_back(Word::control(self.rng.below(256)));
        words
    }
}

impl Traffic {
    /// What the network does at the end of cycle `t` with the router's `events`: an ACK
    /// owed is queued with its routes back to the source; a message that ended is no longer
    /// held; a data worm sent whole is acknowledged now and then.
    fn network(&mut self, t: u64, model: &mut Router, events: &[Event]) {
        let Some(acked) = self.acked.as_mut() else {
            return;
        };
        for event in events {
            match event {
                Event::AckDue { src, seq } => {
                    let routes = route_set(&self.graph, &self.node, src)
                        .expect("arriving worms come from other nodes");
                    let last = self.node[self.node.len() - 1];
                    let routes = routes
                        .iter()
                        .map(|r| SourceRoute {
                            bytes: kautz_route_bytes(last, &r.hops),
                            name: r.hops.iter().map(|&a| u32::from(a)).collect(),
                        })
                        .collect();
                    model.queue_ack(self.graph.index_of(src) as u32, routes, *seq);
                }
                Event::Delivered(_) | Event::Failed(_) => acked.held = None,
                _ => {}
            }
        }
        if acked.take_whole_data_worm()
            && self.rng.below(8) > 0
            && let Some((dst, seq)) = acked.held.clone()
        {
            // Mostly soon; one in seven about when the source stops waiting (the ACK's
            // worm takes k + 5 cycles to come in).
            let delay = match self.rng.below(7) {
                0 => acked.timeout.saturating_sub(self.graph.k() as u64 + 8) + self.rng.below(8),
                _ => 1 + self.rng.below(48),
            };
            let worm = ack_worm(&dst, seq, &mut self.rng);
            let at = acked.acks.back().map_or(t, |&(at, _)| at).max(t + delay);
            acked.acks.push_back((at, worm));
        }
    }

    /// A worm with a sequence number out of the switch's port 0, from another node: a data
    /// worm (new from its source, or a copy of its last) or a stale ACK; one in six cut
    /// short, some preceded by stray data words.
    fn sequenced_worm(&mut self) -> VecDeque<Word> {
        let src = loop {
            let word = self.destination();
            if word != self.node && self.graph.check_letters(&word).is_ok() {
                break word;
            }
        };
        let acked = self.acked.as_mut().expect("acknowledged delivery");
        let last = acked.sent.get(&src).copied();
        let (n, seq) = match (self.rng.below(8), last) {
            (0, _) => (0, self.rng.below(1 << 16) as u16),
            (1 | 2, Some(seq)) => (1 + self.rng.below(8), seq),
            (_, last) => (
                1 + self.rng.below(8),
                last.map_or(self.rng.below(1 << 16) as u16, |s| s.wrapping_add(1)),
            ),
        };
        if n > 0 {
            acked.sent.insert(src.clone(), seq);
        }
        let mut words: VecDeque<Word> = (0..self.rng.below(3).saturating_sub(1))
            .map(|_| Word::data(random_word(&mut self.rng, self.data_bits)))
            .collect();
        words.extend(sequenced(&src, (n, seq), self.data_bits, &mut self.rng));
        if self.rng.below(6) == 0 {
            let cut = 1 + self.rng.below(words.len() as u64 - 2) as usize;
            words.truncate(cut);
            words.push_back(Word::control(self.rng.below(256)));
        }
        words
    }
}

/// The worm of `n` random data words of `bits` bits (an ACK when 0) numbered `seq` from
/// `src` as it leaves the switch's port 0: x1 (ctl=1), x2..xk, n, the number's two bytes,
/// the data words, padding, the EOD.
fn sequenced(
    src: &[Letter],
    (n, seq): (u64, u16),
    bits: u32,
    rng: &mut SplitMix64,
) -> VecDeque<Word> {
    let mut words = VecDeque::new();
    words.push_back(Word::control(u64::from(src[0])));
    words.extend(src[1..].iter().map(|&x| Word::data(u64::from(x))));
    words.push_back(Word::data(n));
    words.extend(seq.to_be_bytes().map(|b| Word::data(u64::from(b))));
    words.extend((0..n).map(|_| Word::data(random_word(rng, bits))));
    words.extend((0..rng.below(4)).map(|_| Word::data(0)));
    words.push_back(Word::control(rng.below(256)));
    words
}

/// The ACK from `dst` of the message numbered `seq`.
fn ack_worm(dst: &[Letter], seq: u16, rng: &mut SplitMix64) -> VecDeque<Word> {
    sequenced(dst, (0, seq), 8, rng)
}

/// A random word of `bits` bits: the top bits of the generator's next number, so a byte is
/// what `below(256)` draws.
fn random_word(rng: &mut SplitMix64, bits: u32) -> u64 {
    rng.next_u64() >> (64 - bits)
}

impl AckedNetwork {
    /// The router's word of this cycle: a control word starts a worm or, in one, is its
    /// EOD; a data worm (its route bytes unmarked) that reaches its EOD went out whole.
    fn watch(&mut self, word: Word) {
        if !(word.valid && word.ctl) {
            return;
        }
        match self.sending.take() {
            None => self.sending = Some(word.data & u64::from(ACK_MARK) == 0),
            Some(data) => self.whole |= data,
        }
    }

    /// The worm being sent was NACKed: the router drops it.
    fn nacked(&mut self) {
        self.sending = None;
    }

    /// Whether a data worm has gone out whole since the last call.
    fn take_whole_data_worm(&mut self) -> bool {
        std::mem::take(&mut self.whole)
    }
}
