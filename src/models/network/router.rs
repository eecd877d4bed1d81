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

use super::link::{IDLE, pack, unpack};
use super::message::{Attempt, AttemptOutcome, Message, payload_byte};
use super::switch::Word;

/// What every router of a network shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouterParams {
    /// Bytes of a node's address in a message's header (a Kautz word's k letters).
    pub address_bytes: usize,
    /// B: the cycles from `init` or `next_route` after which the route generator's route is
    /// taken (its cycle bound).
    pub route_cycles: u64,
    /// The run's seed, from which every message's bytes are made.
    pub seed: u64,
}

/// One route of a message: the bytes the router sends, the output port at every switch,
/// and the name reports give it, which the topology's plan chooses (a Kautz route's hop
/// letters, another route's nodes: [`super::plan`]); [`Attempt::route`] is that name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceRoute {
    pub bytes: Vec<u8>,
    pub name: Vec<u32>,
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
    /// V = max(T_1, t_last).
    verdict: u64,
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
    rx_src: Vec<u8>,
    rx_len: u8,
    rx_bytes: Vec<u8>,
    rx_out: RxOut,
}

impl Router {
    /// The router of the node at `address`, idle.
    pub fn new(address: Vec<u8>) -> Self {
        Router {
            address: address.into_boxed_slice(),
            held: None,
            start: 0,
            worm: Vec::new(),
            refusal: None,
            word: IDLE,
            receive: Receive::Idle,
            rx_src: Vec::new(),
            rx_len: 0,
            rx_bytes: Vec::new(),
            rx_out: RxOut::default(),
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
                src: self.rx_src.clone(),
                len: self.rx_len,
                error: self.rx_out.error,
            },
            None => RxPort {
                error: self.rx_out.error,
                ..RxPort::default()
            },
        }
    }

    /// Nothing held, nothing being received, nothing on the link.
    pub fn is_quiet(&self) -> bool {
        self.is_idle() && self.receive == Receive::Idle && !self.word().valid
    }

    /// Takes `message` of `bytes` bytes (which may be more than a `u8` counts), its first
    /// byte in cycle `a`, and refuses it: its destination is not a node or is this node,
    /// or it is longer than the buffer. The verdict is V = max(T_1, t_last). The router
    /// must be idle.
    pub fn refuse(&mut self, params: &RouterParams, a: u64, mut message: Message, bytes: u64) {
        debug_assert!(self.is_idle() && bytes >= 1);
        message.handed = a;
        let last_byte = a + bytes - 1;
        self.refusal = Some(Box::new(Refusal {
            message,
            last_byte,
            verdict: (a + params.route_cycles).max(last_byte),
        }));
    }

    /// Takes `message` from the processor, its first byte in cycle `a` and the rest in the
    /// cycles after; `routes` are its routes, in the order they are tried. The router must
    /// be idle.
    pub fn accept(
        &mut self,
        params: &RouterParams,
        a: u64,
        mut message: Message,
        routes: Vec<SourceRoute>,
    ) {
        debug_assert!(self.is_idle());
        message.handed = a;
        let t_last = a + u64::from(message.bytes) - 1;
        let taken = a + params.route_cycles;
        self.held = Some(Box::new(Held {
            message,
            routes,
            taken,
            attempt: 0,
            last_byte: t_last,
        }));
        self.start = taken.max(t_last) + 1;
        self.fill_worm(params);
    }

    /// The words of the current attempt, into `worm`.
    fn fill_worm(&mut self, params: &RouterParams) {
        let held = self.held.as_ref().expect("a message held");
        let route = &held.routes[held.attempt].bytes;
        let message = &held.message;
        let n = usize::from(message.bytes);
        let hops = route.len();
        let len = (hops + params.address_bytes + n + 4).max(3 * (hops + 1) - 1);
        let worm = &mut self.worm;
        worm.clear();
        let data = |x: u64| pack(Word::data(x));
        for (i, &port) in route.iter().enumerate() {
            // The first route byte is the head: the only control word before the EOD.
            worm.push(pack(if i == 0 {
                Word::control(u64::from(port))
            } else {
                Word::data(u64::from(port))
            }));
        }
        worm.push(data(0));
        worm.extend(self.address.iter().map(|&x| data(u64::from(x))));
        worm.push(data(n as u64));
        worm.extend((0..n).map(|j| data(u64::from(payload_byte(params.seed, message.id, j)))));
        worm.resize(len - 1, data(0));
        worm.push(pack(Word::control(0)));
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
        if let Some(refusal) = &self.refusal {
            if refusal.verdict == t {
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
            let attempt = self.record(AttemptOutcome::Nack, Some((t, refused_at)));
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
            self.record(AttemptOutcome::Delivered, None);
            let message = self.release();
            events.push(Event::Delivered(message));
        } else {
            self.word = self.worm[position + 1];
        }
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

    /// Appends the current attempt to the message's record; returns its index. The route
    /// moves into the record: attempts only go forward, so it is not needed again.
    fn record(&mut self, outcome: AttemptOutcome, nack: Option<(u64, usize)>) -> usize {
        let held = self.held.as_mut().expect("an attempt under way");
        let index = held.attempt;
        held.message.attempts.push(Attempt {
            route: std::mem::take(&mut held.routes[index].name),
            route_index: index,
            start: self.start,
            outcome,
            nack,
        });
        index
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
                self.rx_src.clear();
                self.rx_src.push(byte);
                if k == 1 {
                    Receive::Length
                } else {
                    Receive::Source(1)
                }
            }
            Receive::Idle => Receive::Idle,
            Receive::Skip if w.ctl => Receive::Idle,
            Receive::Skip => Receive::Skip,
            _ if w.ctl => {
                events.push(Event::ReceiveError);
                self.rx_out.error = true;
                Receive::Idle
            }
            Receive::Source(taken) => {
                self.rx_src.push(byte);
                if usize::from(taken) + 1 == k {
                    Receive::Length
                } else {
                    Receive::Source(taken + 1)
                }
            }
            Receive::Length if byte == 0 => {
                events.push(Event::ReceiveError);
                self.rx_out.error = true;
                Receive::Skip
            }
            Receive::Length => {
                self.rx_len = byte;
                self.rx_bytes.clear();
                self.rx_bytes.reserve(usize::from(byte));
                Receive::Data(0)
            }
            Receive::Data(taken) => {
                self.rx_bytes.push(byte);
                self.rx_out.byte = Some((byte, taken == 0, taken + 1 == self.rx_len));
                if taken + 1 == self.rx_len {
                    events.push(Event::Arrived {
                        src: self.rx_src.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A network model holds one per node: two cache lines at most.
    #[test]
    fn a_router_is_small() {
        assert!(std::mem::size_of::<Router>() <= 128);
    }
}
