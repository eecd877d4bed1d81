//! The cycle model of one node's router (docs/network.md): it takes a message from its
//! processor, sends it as a worm over its routes in order, one attempt per NACK, and
//! reports the outcome; and it reassembles the messages that arrive out of port 0 of its
//! switch. It knows no topology: a route is its route bytes (the output port to take at
//! each switch) and a node is the bytes of its address in a message's header, which the
//! network model gives it (a Kautz node's letters and the route generator's routes).
//!
//! In, per cycle: the NACK on the switch's input 0 and the word on its output 0. Out: the
//! word the router puts on input 0 ([`Router::word`]) and, when an attempt or a message
//! ends or a message arrives, an [`Event`]. The network model ([`super::net`]) drives
//! it; the RTL router is written from the same page and checked against it.
//!
//! Behind buffered switches the router acknowledges what it receives and waits for the
//! ACKs of what it sends ([`super::acked`], docs/flow-control.md); behind the paper's
//! bufferless switches the EOD sent without a NACK is the acknowledgement.

use super::acked::{ACK_MARK, ACK_QUEUE, ACK_ROUNDS, AckJob, Acked, DataPhase, Job, worm_words};
use super::link::{IDLE, pack, unpack};
use super::message::{Attempt, AttemptOutcome, Message, SourceRoute, payload_byte};
use super::receive::{ReceiveParams, RxFifo};
use super::switch::Word;

/// What every router of a network shares.
#[derive(Debug, Clone, PartialEq)]
pub struct RouterParams {
    /// Bytes of a node's address in a message's header (a Kautz word's k letters).
    pub address_bytes: usize,
    /// B: the cycles from `init` or `next_route` after which the route generator's route is
    /// taken (its cycle bound).
    pub route_cycles: u64,
    /// The run's seed, from which every message's bytes are made.
    pub seed: u64,
    /// Under acknowledged delivery (buffered switches): how long a source waits for an
    /// attempt's ACK ([`super::acked::Bounds::attempt`]).
    pub ack_timeout: Option<u64>,
    /// With a receive FIFO between the router and its processor ([`super::receive`]).
    pub receive: Option<ReceiveParams>,
}

/// The message a router holds, with its route set and where its attempts are.
#[derive(Debug)]
struct Held {
    message: Message,
    /// Its routes, in the order they are tried.
    routes: Vec<SourceRoute>,
    /// T_i: the cycle the current route was taken from the route generator.
    taken: u64,
    /// Index of the current attempt's route.
    attempt: usize,
    /// t_last: the cycle the message's last byte is taken.
    last_byte: u64,
}

/// A message the router refuses (docs/network.md, step 6), held until its verdict.
#[derive(Debug)]
struct Refusal {
    message: Message,
    /// t_last: the cycle its last byte is taken.
    last_byte: u64,
    /// V = max(T_1, t_last); under acknowledged delivery known once its route is looked
    /// up, when the sender takes it as a job.
    verdict: Option<u64>,
    /// The routes its destination has: 0 when it is not a node or is this node (the route
    /// source fails), else it is refused for its length.
    routes: usize,
}

/// The receiver's output ports in one cycle (docs/network.md, "Receiving"); every value
/// but `error` is 0 without `valid`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RxPort {
    pub valid: bool,
    pub data: u8,
    pub first: bool,
    pub last: bool,
    /// The source's address bytes as they came in (empty without `valid`).
    pub src: Vec<u8>,
    pub len: u8,
    pub error: bool,
}

/// What the receiver hands out the cycle after a clock: a byte (data, first, last) and
/// the error bit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RxOut {
    byte: Option<(u8, bool, bool)>,
    error: bool,
}

/// The receiver's place in an arriving worm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Receive {
    Idle,
    /// Source address bytes taken so far (fewer than the address's, at most 64).
    Source(u8),
    Length,
    /// Bytes of the sequence number taken so far (acknowledged delivery).
    Sequence(u8),
    /// Data bytes taken so far.
    Data(u8),
    /// Padding up to the EOD, after the last byte or an error.
    Skip,
}

/// Something the network model must learn of, at the end of a cycle.
#[derive(Debug)]
pub enum Event {
    /// The message's last attempt ended in a NACK: it failed; `res_valid` the next cycle.
    Failed(Message),
    /// The message's attempt sent its EOD without a NACK; `res_valid` the next cycle.
    Delivered(Message),
    /// A message's last byte is handed to this node's processor the next cycle.
    Arrived {
        /// The source's address, as it came in.
        src: Vec<u8>,
        /// Its bytes, as they came in.
        bytes: Vec<u8>,
    },
    /// A worm ended before its bytes: `rx_error` the next cycle.
    ReceiveError,
    /// The message was refused (its destination is not a node or is this node, or it has
    /// more than `max_bytes` bytes); `res_valid` the next cycle. The network model never
    /// offers such a message; the RTL router's check does.
    Refused(Message),
    /// A data worm's EOD came in (acknowledged delivery): an ACK of `seq` is owed to
    /// `src`, whose routes the network model gives [`Router::queue_ack`].
    AckDue { src: Vec<u8>, seq: u16 },
}

/// One node's router. A network model holds one per node and touches it in every cycle
/// something passes, so it is kept small: a message held or refused is boxed (most routers
/// hold none, and a sending one needs it only when an attempt ends), and the word on the
/// link is packed.
#[derive(Debug)]
pub struct Router {
    /// This node's address, as a message's header carries it.
    address: Box<[u8]>,
    held: Option<Box<Held>>,
    /// S_i: the cycle of the current attempt's head (while a message is held).
    start: u64,
    /// The words of the current attempt, packed (empty while no message is held).
    worm: Vec<u16>,
    refusal: Option<Box<Refusal>>,
    /// The word on the switch's input 0, packed ([`super::link`]).
    word: u16,
    receive: Receive,
    /// The arriving worm's source address, as long as this node's.
    rx_src: Box<[u8]>,
    rx_len: u8,
    rx_bytes: Vec<u8>,
    rx_out: RxOut,
    /// Under acknowledged delivery: its sequence numbers, ACKs and sender.
    ack: Option<Box<Acked>>,
    /// The receive FIFO's counts, when the run has one.
    fifo: RxFifo,
}

impl Router {
    /// The router of the node at `address`, idle; under acknowledged delivery when
    /// `params` say so.
    pub fn new(params: &RouterParams, address: Vec<u8>) -> Self {
        let rx_src = vec![0; address.len()].into_boxed_slice();
        Router {
            address: address.into_boxed_slice(),
            held: None,
            start: 0,
            worm: Vec::new(),
            refusal: None,
            word: IDLE,
            receive: Receive::Idle,
            rx_src,
            rx_len: 0,
            rx_bytes: Vec::new(),
            rx_out: RxOut::default(),
            ack: params.ack_timeout.map(|_| Box::default()),
            fifo: RxFifo::default(),
        }
    }

    /// The word on the switch's input 0 in the current cycle.
    pub fn word(&self) -> Word {
        unpack(self.word)
    }

    /// No message held (`tx_ready`).
    pub fn is_idle(&self) -> bool {
        self.held.is_none() && self.refusal.is_none()
    }

    /// `tx_ready` in cycle `t`: idle, or the held message's bytes still come.
    pub fn tx_ready(&self, t: u64) -> bool {
        match (&self.held, &self.refusal) {
            (Some(held), _) => t <= held.last_byte,
            (_, Some(refusal)) => t <= refusal.last_byte,
            (None, None) => true,
        }
    }

    /// The receiver's output ports in the cycle after the last [`Router::clock`].
    pub fn rx_port(&self) -> RxPort {
        match self.rx_out.byte {
            Some((data, first, last)) => RxPort {
                valid: true,
                data,
                first,
                last,
                src: self.rx_src.to_vec(),
                len: self.rx_len,
                error: self.rx_out.error,
            },
            None => RxPort {
                error: self.rx_out.error,
                ..RxPort::default()
            },
        }
    }

    /// Nothing held, nothing being received, nothing on the link, no ACK to send.
    pub fn is_quiet(&self) -> bool {
        self.is_idle()
            && self.receive == Receive::Idle
            && !self.word().valid
            && self.ack.as_ref().is_none_or(|a| a.is_quiet())
            && self.fifo.is_empty()
    }

    /// Whether, in this cycle, the receive FIFO could not take a whole message, so that
    /// the switch refuses heads for the router ([`super::receive`]).
    pub fn refuses(&self, params: &RouterParams) -> bool {
        params
            .receive
            .as_ref()
            .is_some_and(|receive| self.fifo.refuses(receive))
    }

    /// The receive FIFO's end of the cycle whose [`Router::clock`] follows, with `arriving`
    /// on the switch's output 0 and the processor `ready`: returns whether the processor
    /// took a byte. It reads the byte the router handed out in this cycle, so it comes
    /// before the clock.
    pub fn clock_fifo(&mut self, params: &ReceiveParams, arriving: Word, ready: bool) -> bool {
        let handed = self.rx_out.byte.map(|(_, first, _)| (first, self.rx_len));
        self.fifo.clock(params, handed, arriving, ready)
    }

    /// What the router has counted under acknowledged delivery.
    pub fn ack_counts(&self) -> Option<super::acked::AckCounts> {
        self.ack.as_ref().map(|a| a.counts)
    }

    /// The held message's id, while it is held.
    pub fn held_id(&self) -> Option<u64> {
        self.held.as_ref().map(|h| h.message.id)
    }

    /// Takes `message` of `bytes` bytes (which may be more than a `u8` counts), its first
    /// byte in cycle `a`, and refuses it: its destination has no `routes` (it is not a node
    /// or is this node), or it is longer than the buffer. The verdict is V = max(T_1,
    /// t_last). Under acknowledged delivery T_1 is the cycle its route would be taken when
    /// the sender takes it as a job, after an ACK ahead of it; `message.dst` then keys the
    /// route source's pair (a node's index, or for a word that is no node any number above
    /// the indices, one per word). The router must be idle.
    pub fn refuse(
        &mut self,
        params: &RouterParams,
        a: u64,
        mut message: Message,
        bytes: u64,
        routes: usize,
    ) {
        debug_assert!(self.is_idle() && bytes >= 1);
        message.handed = a;
        let last_byte = a + bytes - 1;
        let verdict = match self.ack.as_mut() {
            None => Some((a + params.route_cycles).max(last_byte)),
            Some(ack) => {
                ack.data = DataPhase::Waiting;
                None
            }
        };
        self.refusal = Some(Box::new(Refusal {
            message,
            last_byte,
            verdict,
            routes,
        }));
    }

    /// Takes `message` from the processor, its first byte in cycle `a` and the rest in the
    /// cycles after; `routes` are its routes, in the order they are tried. Under
    /// acknowledged delivery `dst_address` is its destination's, which its ACK names. The
    /// router must be idle.
    pub fn accept(
        &mut self,
        params: &RouterParams,
        a: u64,
        mut message: Message,
        routes: Vec<SourceRoute>,
        dst_address: Option<Vec<u8>>,
    ) {
        debug_assert!(self.is_idle());
        message.handed = a;
        let t_last = a + u64::from(message.bytes) - 1;
        let taken = a + params.route_cycles;
        let dst = message.dst;
        self.held = Some(Box::new(Held {
            message,
            routes,
            taken,
            attempt: 0,
            last_byte: t_last,
        }));
        match self.ack.as_mut() {
            None => {
                self.start = taken.max(t_last) + 1;
                self.fill_worm(params);
            }
            Some(ack) => {
                let next = ack.next_seq.entry(dst).or_insert(0);
                ack.held_seq = *next;
                *next = next.wrapping_add(1);
                ack.held_dst = dst_address.expect("a destination's address").into();
                ack.acked = false;
                ack.data = DataPhase::Waiting;
            }
        }
    }

    /// Owes node `to` an ACK of `seq`, to send over `routes`; dropped when [`ACK_QUEUE`]
    /// are already held, the one being sent included (the source sends again). Only under
    /// acknowledged delivery.
    pub fn queue_ack(&mut self, to: u32, routes: Vec<SourceRoute>, seq: u16) {
        let ack = self.ack.as_mut().expect("acknowledged delivery");
        if ack.queue.len() == ACK_QUEUE {
            ack.counts.acks_dropped += 1;
            return;
        }
        ack.queue.push_back(AckJob {
            to,
            routes,
            seq,
            attempt: 0,
        });
    }

    /// The words of the current attempt of the held message, into `worm`.
    fn fill_worm(&mut self, params: &RouterParams) {
        let held = self.held.as_ref().expect("a message held");
        let message = &held.message;
        let seq = self.ack.as_ref().map(|a| a.held_seq);
        let bytes =
            (0..usize::from(message.bytes)).map(|j| payload_byte(params.seed, message.id, j));
        build_worm(
            &mut self.worm,
            &held.routes[held.attempt].bytes,
            0,
            &self.address,
            seq,
            bytes,
        );
    }

    /// The end of cycle `t`: `nack` is the switch's `in0_nack` and `arriving` its output 0 in
    /// `t`. Sets the word of cycle t+1 and reports what ended.
    pub fn clock(
        &mut self,
        params: &RouterParams,
        t: u64,
        nack: bool,
        arriving: Word,
        events: &mut Vec<Event>,
    ) {
        self.rx_out = RxOut::default();
        if arriving.valid || self.receive != Receive::Idle {
            self.receive(arriving, events);
        }
        if self.ack.is_some() {
            return self.clock_acked(params, t, nack, events);
        }
        if let Some(refusal) = &self.refusal {
            if refusal.verdict == Some(t) {
                let refusal = self.refusal.take().expect("held above");
                events.push(Event::Refused(refusal.message));
            }
            return;
        }
        if self.held.is_none() {
            return;
        }
        if t < self.start {
            self.word = self.word_before(t + 1);
            return;
        }
        let position = (t - self.start) as usize;
        if nack {
            debug_assert!(t > self.start, "a NACK in the cycle of its own head");
            let refused_at = ((t - self.start - 1) / 3) as usize;
            let attempt = self.record(self.start, AttemptOutcome::Nack, Some((t, refused_at)));
            let held = self.held.as_mut().expect("held above");
            if attempt + 1 < held.routes.len() {
                held.attempt += 1;
                held.taken = (held.taken + params.route_cycles).max(t);
                self.start = held.taken + 1;
                self.fill_worm(params);
                self.word = self.word_before(t + 1);
            } else {
                let message = self.release();
                events.push(Event::Failed(message));
            }
        } else if position + 1 == self.worm.len() {
            self.record(self.start, AttemptOutcome::Delivered, None);
            let message = self.release();
            events.push(Event::Delivered(message));
        } else {
            self.word = self.worm[position + 1];
        }
    }

    /// The end of cycle `t` under acknowledged delivery: the receiver; the sender's job
    /// (a worm of the held message's or an ACK's); the held message's ACK or timeout,
    /// which may end it; then the sender's next job.
    fn clock_acked(&mut self, params: &RouterParams, t: u64, nack: bool, events: &mut Vec<Event>) {
        if let Some(refusal) = &self.refusal
            && refusal.verdict == Some(t)
        {
            let refusal = self.refusal.take().expect("held above");
            events.push(Event::Refused(refusal.message));
        }
        self.step_job(params, t, nack);
        let ack = self.ack.as_mut().expect("acknowledged delivery");
        if let DataPhase::Parked { deadline } = ack.data
            && deadline == t
        {
            ack.counts.timeouts += 1;
            self.end_attempt(AttemptOutcome::Timeout, None);
        }
        self.conclude(t, events);
        self.select(params, t);
    }

    /// One cycle of the sender's job: its head waits for its route, its words go out, a
    /// NACK or its EOD ends it.
    fn step_job(&mut self, params: &RouterParams, t: u64, nack: bool) {
        let ack = self.ack.as_mut().expect("acknowledged delivery");
        if let Job::Refusing { until } = ack.job {
            // The sender is free again the cycle after the refusal.
            if t > until {
                ack.job = Job::Idle;
            }
            return;
        }
        if matches!(ack.job, Job::Idle) {
            return;
        }
        if t < self.start {
            self.word = self.word_before(t + 1);
            return;
        }
        let position = (t - self.start) as usize;
        let ended = nack || position + 1 == self.worm.len();
        if !ended {
            self.word = self.worm[position + 1];
            return;
        }
        self.word = IDLE;
        match std::mem::take(&mut ack.job) {
            Job::Data if nack => {
                let refused_at = ((t - self.start - 1) / 3) as usize;
                self.end_attempt(AttemptOutcome::Nack, Some((t, refused_at)));
            }
            Job::Data => {
                ack.data = DataPhase::Parked {
                    deadline: t + params.ack_timeout.expect("acknowledged delivery"),
                };
            }
            Job::Ack if nack => {
                let job = ack.queue.front_mut().expect("the ACK being sent");
                job.attempt += 1;
                if job.attempt == ACK_ROUNDS * job.routes.len() {
                    ack.queue.pop_front();
                    ack.counts.acks_dropped += 1;
                }
            }
            Job::Ack => {
                ack.queue.pop_front();
                ack.counts.acks_sent += 1;
            }
            Job::Idle | Job::Refusing { .. } => unreachable!("checked above"),
        }
    }

    /// Records the held message's current attempt as `outcome`; its next route waits for
    /// the sender, or none is left.
    fn end_attempt(&mut self, outcome: AttemptOutcome, nack: Option<(u64, usize)>) {
        let start = self
            .ack
            .as_ref()
            .expect("acknowledged delivery")
            .attempt_start;
        let attempt = self.record(start, outcome, nack);
        let held = self.held.as_mut().expect("a message held");
        let ack = self.ack.as_mut().expect("acknowledged delivery");
        ack.data = if attempt + 1 < held.routes.len() {
            held.attempt += 1;
            DataPhase::Waiting
        } else {
            DataPhase::Exhausted
        };
    }

    /// Ends the held message when its ACK has come and no worm of it is going out (a
    /// lookup under way is given up), or when its last route has ended without one.
    fn conclude(&mut self, t: u64, events: &mut Vec<Event>) {
        let ack = self.ack.as_mut().expect("acknowledged delivery");
        let sending = matches!(ack.job, Job::Data) && t + 1 >= self.start;
        if ack.acked && !sending {
            if matches!(ack.job, Job::Data) {
                // The lookup is given up before its route is taken: the route source's
                // next route is no longer known.
                ack.job = Job::Idle;
                ack.context = None;
                self.word = IDLE;
            }
            if matches!(ack.data, DataPhase::Parked { .. }) {
                let start = ack.attempt_start;
                self.record(start, AttemptOutcome::Delivered, None);
            }
            self.finish_held();
            events.push(Event::Delivered(self.release_message()));
        } else if ack.data == DataPhase::Exhausted {
            self.finish_held();
            events.push(Event::Failed(self.release_message()));
        }
    }

    /// The held message's state cleared, its ACK no longer awaited.
    fn finish_held(&mut self) {
        let ack = self.ack.as_mut().expect("acknowledged delivery");
        ack.data = DataPhase::None;
        ack.acked = false;
    }

    /// The sender's next job when it has none: an ACK first, but not twice in a row while
    /// the held message waits. Its route is looked up from cycle `t`.
    fn select(&mut self, params: &RouterParams, t: u64) {
        let ack = self.ack.as_mut().expect("acknowledged delivery");
        if !matches!(ack.job, Job::Idle) {
            return;
        }
        let waiting = ack.data == DataPhase::Waiting;
        let b = params.route_cycles;
        let ack_next = !ack.queue.is_empty() && (!waiting || !ack.after_ack);
        if ack_next {
            let job = ack.queue.front().expect("not empty");
            let (to, count) = (job.to, job.routes.len());
            let route = job.attempt % count;
            let taken = ack.lookup(b, t, to, route, count);
            let job = ack.queue.front().expect("not empty");
            self.start = taken + 1;
            build_worm(
                &mut self.worm,
                &job.routes[route].bytes,
                ACK_MARK,
                &self.address,
                Some(job.seq),
                std::iter::empty(),
            );
            ack.job = Job::Ack;
            ack.after_ack = true;
        } else if let (true, Some(refusal)) = (waiting, self.refusal.as_mut()) {
            // Its route source fails, or its bytes overflow the buffer once its route is
            // taken; the verdict waits for its last byte.
            let taken = ack.lookup(b, t, refusal.message.dst, 0, refusal.routes.max(1));
            refusal.verdict = Some(taken.max(refusal.last_byte));
            let until = match refusal.routes {
                0 => taken,
                _ => taken.max(refusal.last_byte),
            };
            ack.job = Job::Refusing { until };
            ack.data = DataPhase::None;
            ack.after_ack = false;
            return;
        } else if waiting {
            let held = self.held.as_ref().expect("a message waits");
            let dst = held.message.dst;
            let taken = ack.lookup(b, t, dst, held.attempt, held.routes.len());
            self.start = taken.max(held.last_byte) + 1;
            ack.attempt_start = self.start;
            ack.data = DataPhase::Active;
            ack.job = Job::Data;
            ack.after_ack = false;
            self.fill_worm(params);
        } else {
            return;
        }
        self.word = self.word_before(t + 1);
    }

    /// The packed word of cycle `next` while the attempt waits for its head.
    fn word_before(&self, next: u64) -> u16 {
        if next == self.start {
            self.worm[0]
        } else {
            IDLE
        }
    }

    /// Lets the held message go after its last attempt, with the worm's buffer: an idle
    /// router keeps nothing on the heap.
    fn release(&mut self) -> Message {
        self.word = IDLE;
        self.worm = Vec::new();
        self.held.take().expect("a message held").message
    }

    /// The held message, let go; the sender may go on with an ACK's worm.
    fn release_message(&mut self) -> Message {
        self.held.take().expect("a message held").message
    }

    /// Appends the current attempt, its head in cycle `start`, to the message's record;
    /// returns its index. The route moves into the record: attempts only go forward, so
    /// it is not needed again.
    fn record(&mut self, start: u64, outcome: AttemptOutcome, nack: Option<(u64, usize)>) -> usize {
        let held = self.held.as_mut().expect("an attempt under way");
        let index = held.attempt;
        let route = &mut held.routes[index];
        held.message.attempts.push(Attempt {
            hops: route.bytes.len() as u32,
            route: std::mem::take(&mut route.name),
            route_index: index,
            start,
            outcome,
            nack,
        });
        index
    }

    /// The receiver ready for the arriving message's `rx_len` bytes.
    fn start_data(&mut self) -> Receive {
        self.rx_bytes.clear();
        self.rx_bytes.reserve(usize::from(self.rx_len));
        Receive::Data(0)
    }

    /// The arriving worm's sequence number is whole with its low byte `low`: an ACK ends
    /// the held message's wait when it names its destination and number; a data worm is
    /// acknowledged at its EOD and handed out unless its number is the one last handed
    /// out from its source (a copy of a message already handed out).
    fn sequenced(&mut self, low: u8) -> Receive {
        let ack = self.ack.as_mut().expect("acknowledged delivery");
        ack.rx_seq |= u16::from(low);
        if self.rx_len == 0 {
            ack.acked |= self.held.is_some()
                && ack.data != DataPhase::None
                && *ack.held_dst == *self.rx_src
                && ack.held_seq == ack.rx_seq;
            return Receive::Skip;
        }
        ack.rx_ack_due = true;
        if ack.accepted.get(&self.rx_src) == Some(&ack.rx_seq) {
            ack.counts.duplicates += 1;
            return Receive::Skip;
        }
        ack.accepted.insert(self.rx_src.clone(), ack.rx_seq);
        self.start_data()
    }

    /// The receiver's step for the word on output 0.
    fn receive(&mut self, w: Word, events: &mut Vec<Event>) {
        if !w.valid {
            return;
        }
        let k = self.address.len();
        let byte = w.data as u8;
        self.receive = match self.receive {
            Receive::Idle if w.ctl => {
                self.rx_src[0] = byte;
                if k == 1 {
                    Receive::Length
                } else {
                    Receive::Source(1)
                }
            }
            Receive::Idle => Receive::Idle,
            Receive::Skip if w.ctl => {
                if let Some(ack) = self.ack.as_mut()
                    && std::mem::take(&mut ack.rx_ack_due)
                {
                    events.push(Event::AckDue {
                        src: self.rx_src.to_vec(),
                        seq: ack.rx_seq,
                    });
                }
                Receive::Idle
            }
            Receive::Skip => Receive::Skip,
            _ if w.ctl => {
                events.push(Event::ReceiveError);
                self.rx_out.error = true;
                if let Some(ack) = self.ack.as_mut() {
                    ack.rx_ack_due = false;
                }
                Receive::Idle
            }
            Receive::Source(taken) => {
                self.rx_src[usize::from(taken)] = byte;
                if usize::from(taken) + 1 == k {
                    Receive::Length
                } else {
                    Receive::Source(taken + 1)
                }
            }
            Receive::Length if self.ack.is_some() => {
                self.rx_len = byte;
                Receive::Sequence(0)
            }
            Receive::Length if byte == 0 => {
                events.push(Event::ReceiveError);
                self.rx_out.error = true;
                Receive::Skip
            }
            Receive::Length => {
                self.rx_len = byte;
                self.start_data()
            }
            Receive::Sequence(0) => {
                self.ack.as_mut().expect("acknowledged delivery").rx_seq = u16::from(byte) << 8;
                Receive::Sequence(1)
            }
            Receive::Sequence(_) => self.sequenced(byte),
            Receive::Data(taken) => {
                self.rx_bytes.push(byte);
                self.rx_out.byte = Some((byte, taken == 0, taken + 1 == self.rx_len));
                if taken + 1 == self.rx_len {
                    events.push(Event::Arrived {
                        src: self.rx_src.to_vec(),
                        // Taken, not copied: only the event needs them now.
                        bytes: std::mem::take(&mut self.rx_bytes),
                    });
                    Receive::Skip
                } else {
                    Receive::Data(taken + 1)
                }
            }
        };
    }
}

/// The words of a worm over `route` (every route byte or-ed with `mark`) from the node of
/// `address` into `worm`: the nosy worm of docs/network.md, with the sequence number `seq`
/// after its byte count under acknowledged delivery (docs/flow-control.md); `bytes` empty
/// for an ACK.
fn build_worm(
    worm: &mut Vec<u16>,
    route: &[u8],
    mark: u8,
    address: &[u8],
    seq: Option<u16>,
    bytes: impl ExactSizeIterator<Item = u8>,
) {
    let n = bytes.len();
    let len = worm_words(
        route.len() as u64,
        address.len() as u64,
        n as u64,
        seq.is_some(),
    ) as usize;
    worm.clear();
    let data = |x: u8| pack(Word::data(u64::from(x)));
    for (i, &port) in route.iter().enumerate() {
        // The first route byte is the head: the only control word before the EOD.
        let byte = u64::from(port | mark);
        worm.push(pack(if i == 0 {
            Word::control(byte)
        } else {
            Word::data(byte)
        }));
    }
    worm.push(data(mark));
    worm.extend(address.iter().map(|&x| data(x)));
    worm.push(data(n as u8));
    if let Some(seq) = seq {
        worm.extend(seq.to_be_bytes().map(data));
    }
    worm.extend(bytes.map(data));
    worm.resize(len - 1, data(0));
    worm.push(pack(Word::control(0)));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network model holds one per node: two cache lines at most.
    #[test]
    fn a_router_is_small() {
        assert!(std::mem::size_of::<Router>() <= 128);
    }
}
