//! The cycle model of the switch of Smit, Havinga and Jansen, "On the design of a dynamic
//! reconfigurable network switch" (1991; see docs/papers.md): a (d+1)x(d+1) wormhole
//! crossbar that consumes one route byte per hop and answers NACK when a worm cannot go on;
//! bufferless as the paper builds it (deciding a head in the cycle it arrives, or, with the
//! registered head decode, in the next), or with a buffer of one worm per input for virtual
//! cut-through and store-and-forward (docs/flow-control.md).
//!
//! In: the words on every input link, the NACKs on every output link and the fault mask of
//! one cycle ([`Switch::step`]). Out: the words on every output link and the NACKs on every
//! input link of the next cycle ([`Switch::out_word`], [`Switch::in_nack`]). It is the
//! golden model of the RTL switch (src/rtl), equal to it in every output bit in every
//! cycle; docs/switch.md specifies both. A step allocates nothing, so a network model can
//! drive thousands of switches.

use crate::fabric::switch::{Arbiter, Flow, HeadDecode, MAX_D, SwitchConfig, SwitchFault};

/// One link word: valid, the type bit (head or EOD), data. An idle link carries
/// [`Word::IDLE`]; data words are at most the configured width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Word {
    pub valid: bool,
    pub ctl: bool,
    pub data: u64,
}

impl Word {
    pub const IDLE: Word = Word {
        valid: false,
        ctl: false,
        data: 0,
    };

    /// A valid control word (a head or an EOD).
    pub fn control(data: u64) -> Word {
        Word {
            valid: true,
            ctl: true,
            data,
        }
    }

    /// A valid data word.
    pub fn data(data: u64) -> Word {
        Word {
            valid: true,
            ctl: false,
            data,
        }
    }

    /// A valid control word: a head on an idle input, an EOD inside a worm.
    fn is_control(self) -> bool {
        self.valid && self.ctl
    }
}

/// Most ports of any switch: masks of inputs and outputs fit a `u16`.
const MAX_PORTS: usize = MAX_D as usize + 1;

/// The type a switch keeps its output links' data in: `u64` holds any width up to
/// [`MAX_DATA_BITS`](crate::fabric::switch::MAX_DATA_BITS); `u8` holds the byte-wide links
/// of a network model in an eighth of the space, which decides how many of its thousands
/// of switches stay in cache.
pub trait LinkData: Copy + Default + std::fmt::Debug {
    /// Widest data word it holds.
    const BITS: u32;
    /// `data`, which must fit in [`LinkData::BITS`] bits.
    fn from_data(data: u64) -> Self;
    fn to_data(self) -> u64;
}

impl LinkData for u64 {
    const BITS: u32 = 64;
    fn from_data(data: u64) -> Self {
        data
    }
    fn to_data(self) -> u64 {
        self
    }
}

impl LinkData for u8 {
    const BITS: u32 = 8;
    fn from_data(data: u64) -> Self {
        debug_assert!(data <= 0xff);
        data as u8
    }
    fn to_data(self) -> u64 {
        u64::from(self)
    }
}

/// A port number (0 to 15) per port, four bits each in one word: a sixth of the size of an
/// array of `Option<u8>`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct PortPerPort(u64);

impl PortPerPort {
    fn get(self, p: usize) -> usize {
        (self.0 >> (4 * p) & 0xf) as usize
    }

    fn set(&mut self, p: usize, port: usize) {
        debug_assert!(port < MAX_PORTS);
        self.0 = self.0 & !(0xf << (4 * p)) | (port as u64) << (4 * p);
    }
}

/// What one cycle of the outputs did, by input (by output for `released`).
#[derive(Debug, Default)]
struct Pass {
    /// Granted an output this cycle.
    granted: u16,
    /// Still holding an output after this cycle.
    forwarding: u16,
    /// Its output was NACKed.
    nacked: u16,
    /// Its word through its output was an EOD.
    eod: u16,
    /// Outputs released this cycle.
    released: u16,
}

impl Pass {
    /// The outputs just granted to an input of `ready` (a buffer's worm).
    fn granted_outputs<D: LinkData>(&self, switch: &Switch<D>, ready: u16) -> u16 {
        (0..switch.config.ports())
            .filter(|&p| switch.first >> p & 1 == 1 && ready >> switch.holder.get(p) & 1 == 1)
            .fold(0, |m, p| m | 1 << p)
    }
}

/// One input's buffer (vct and saf): the worm taken in after its head here, until its EOD
/// has been sent on without a NACK.
#[derive(Debug, Clone, Default)]
struct InputBuffer {
    /// Its words after the head, the EOD last once in: (type bit, data).
    words: Vec<(bool, u64)>,
    /// The output its head asked for.
    port: usize,
    occupied: bool,
    /// The EOD is not in yet: the link's words go on into it.
    filling: bool,
    /// Words sent on since it was last granted its output.
    sent: usize,
    /// Cycles since its head was taken in.
    held_for: u64,
}

/// The buffers of a switch with vct or saf flow control.
#[derive(Debug, Clone)]
struct Buffers {
    inputs: Vec<InputBuffer>,
    /// Bit p: output p is held by a buffer's worm (its holder's), not by a link's.
    from_buffer: u16,
}

/// The input registers of the registered head decode (docs/switch.md, "Registered head
/// decode"): last cycle's word of every input link, decided in this one.
#[derive(Debug, Clone)]
struct InputRegisters {
    /// By input.
    words: Vec<Word>,
    /// Bit i: input i drops its word of the next cycle too (a refused or cut worm whose
    /// EOD had not reached the link yet: two of its words are still to come).
    tail: u16,
}

/// The state of one switch: the registers of the RTL, but for one liberty that no port
/// can see: the round-robin pointer moves at the grant here, in the RTL in the cycle after
/// (while the output is held, so no arbitration reads it in between). `D` holds the output
/// links' data ([`LinkData`]); every field is packed so that a network model's thousands
/// of switches take one cache line each (48 bytes with `u8` data).
#[derive(Debug, Clone)]
pub struct Switch<D: LinkData = u64> {
    config: SwitchConfig,
    fault: Option<SwitchFault>,
    /// Bit p: output p is held by a worm, from input `holder.get(p)`.
    held: u16,
    holder: PortPerPort,
    /// Bit p: the cycle after output p was granted.
    first: u16,
    /// Per output: the input granted it last; the round-robin pointer is the input after
    /// it (0 at reset: the pointer at input 1).
    granted: PortPerPort,
    /// Bit i: input i forwards a worm or drops a word this cycle.
    busy: u16,
    /// Output link registers: data per port, valid and type bits as masks.
    out_data: [D; MAX_PORTS],
    out_valid: u16,
    out_ctl: u16,
    /// Bit i: NACK to input i's sender.
    nack: u16,
    /// The input buffers (vct, saf) or the input registers (the registered head decode);
    /// none for the same-cycle bufferless switch. One box for both keeps the switch in a
    /// cache line.
    input_side: Option<Box<InputSide>>,
}

/// What a switch has in front of its crossbar besides the links.
#[derive(Debug, Clone)]
enum InputSide {
    Buffers(Buffers),
    Registered(InputRegisters),
}

impl Switch {
    /// The fault-free switch of `config`, after reset.
    pub fn new(config: SwitchConfig) -> Self {
        Switch::build(config, None)
    }

    /// The switch of `config` with `fault` built in, after reset.
    pub fn with_fault(config: SwitchConfig, fault: Option<SwitchFault>) -> Self {
        Switch::build(config, fault)
    }
}

impl Switch<u8> {
    /// The fault-free switch of `config`, after reset, keeping its data a byte a port: for
    /// network models of byte-wide links. Panics if `config` has more than 8 data bits.
    pub fn byte_wide(config: SwitchConfig) -> Self {
        assert!(
            config.data_bits() <= u8::BITS,
            "a byte-wide switch of {} data bits",
            config.data_bits()
        );
        Switch::build(config, None)
    }
}

impl<D: LinkData> Switch<D> {
    fn build(config: SwitchConfig, fault: Option<SwitchFault>) -> Self {
        debug_assert!(config.data_bits() <= D::BITS);
        let mut switch = Switch {
            config,
            fault,
            held: 0,
            holder: PortPerPort::default(),
            first: 0,
            granted: PortPerPort::default(),
            busy: 0,
            out_data: [D::default(); MAX_PORTS],
            out_valid: 0,
            out_ctl: 0,
            nack: 0,
            input_side: None,
        };
        switch.reset();
        switch
    }

    pub fn config(&self) -> &SwitchConfig {
        &self.config
    }

    /// Every register to its reset value: outputs free and idle, pointers at input 1.
    pub fn reset(&mut self) {
        self.held = 0;
        self.holder = PortPerPort::default();
        self.first = 0;
        self.granted = PortPerPort::default();
        self.busy = 0;
        self.out_data = [D::default(); MAX_PORTS];
        self.out_valid = 0;
        self.out_ctl = 0;
        self.nack = 0;
        self.input_side = match (self.config.flow(), self.config.head_decode()) {
            (Flow::Nack, HeadDecode::SameCycle) => None,
            (Flow::Nack, HeadDecode::Registered) => {
                Some(Box::new(InputSide::Registered(InputRegisters {
                    words: vec![Word::IDLE; self.config.ports()],
                    tail: 0,
                })))
            }
            (Flow::Vct | Flow::Saf, _) => Some(Box::new(InputSide::Buffers(Buffers {
                inputs: vec![InputBuffer::default(); self.config.ports()],
                from_buffer: 0,
            }))),
        };
    }

    /// Every input but the local router's: the order 1, 2, ..., d, 0.
    fn start_mask(&self) -> u16 {
        (((1u32 << self.config.ports()) - 1) & !1) as u16
    }

    /// The word on output link `p` in the current cycle.
    pub fn out_word(&self, p: usize) -> Word {
        Word {
            valid: self.out_valid >> p & 1 == 1,
            ctl: self.out_ctl >> p & 1 == 1,
            data: self.out_data[p].to_data(),
        }
    }

    /// The NACK on input link `i` in the current cycle.
    pub fn in_nack(&self, i: usize) -> bool {
        self.nack >> i & 1 == 1
    }

    /// The input that holds output `p`, if any.
    pub fn owner(&self, p: usize) -> Option<usize> {
        (self.held >> p & 1 == 1).then(|| self.holder.get(p))
    }

    /// No worm holds an output, no input is dropping, no NACK or first word is pending,
    /// and every output link is idle.
    pub fn is_quiet(&self) -> bool {
        self.held == 0
            && self.first == 0
            && self.busy == 0
            && self.nack == 0
            && self.out_valid == 0
            && self.input_side.as_deref().is_none_or(|side| match side {
                InputSide::Registered(r) => r.tail == 0 && r.words.iter().all(|w| !w.valid),
                InputSide::Buffers(b) => b.inputs.iter().all(|buffer| !buffer.occupied),
            })
    }

    /// The input buffers, if it has them.
    fn buffers(&self) -> Option<&Buffers> {
        match self.input_side.as_deref() {
            Some(InputSide::Buffers(b)) => Some(b),
            _ => None,
        }
    }

    /// The longest any buffer holds its worm now, in cycles since its head was taken in
    /// (0 without buffers).
    pub fn longest_buffer_hold(&self) -> u64 {
        self.buffers().map_or(0, |b| {
            b.inputs
                .iter()
                .filter(|buffer| buffer.occupied)
                .map(|buffer| buffer.held_for)
                .max()
                .unwrap_or(0)
        })
    }

    /// Input `i`'s buffer holds a worm, or part of one (never without buffers).
    pub fn buffer_occupied(&self, i: usize) -> bool {
        self.buffers().is_some_and(|b| b.inputs[i].occupied)
    }

    /// The winner among `requests` (a mask of inputs) for output `p`: the lowest at or
    /// after the pointer, else the lowest.
    fn arbitrate(&self, p: usize, requests: u16) -> Option<usize> {
        let mask = match self.config.arbiter() {
            Arbiter::RoundRobin => self.pointer(p),
            Arbiter::Fixed => self.start_mask(),
        };
        let first = |x: u16| (x != 0).then(|| x.trailing_zeros() as usize);
        first(requests & mask).or_else(|| first(requests))
    }

    /// One clock edge: `inputs[i]` is the word on input link i, `out_nack[p]` the NACK on
    /// output link p, bit p of `fault` marks output p faulty, all in the current cycle.
    pub fn step(&mut self, inputs: &[Word], out_nack: &[bool], fault: u64) {
        debug_assert_eq!(out_nack.len(), self.config.ports());
        let mask = out_nack
            .iter()
            .enumerate()
            .fold(0u16, |mask, (p, &nack)| mask | u16::from(nack) << p);
        self.step_masked(inputs, mask, fault);
    }

    /// [`Switch::step`] with the output links' NACKs as a mask, bit p for output p: the
    /// form a network model gathers them in, without a slice per switch.
    pub fn step_masked(&mut self, inputs: &[Word], out_nack: u16, fault: u64) {
        debug_assert_eq!(inputs.len(), self.config.ports());
        debug_assert!(inputs.iter().all(|w| w.data <= self.config.data_mask()));
        match self.input_side.take() {
            None => self.step_wormhole(inputs, out_nack, fault),
            Some(mut side) => {
                match &mut *side {
                    InputSide::Buffers(b) => self.step_buffered(b, inputs, out_nack, fault),
                    InputSide::Registered(r) => self.step_registered(r, inputs, out_nack, fault),
                }
                self.input_side = Some(side);
            }
        }
    }

    /// The inputs whose word of this cycle, before [`Switch::step_masked`], is a head asking
    /// for output `p` (the mark that asks not to be buffered aside). A head is decided in
    /// its own cycle here: a network builds no switch with the registered head decode.
    pub fn heads_for(&self, inputs: &[Word], p: u64) -> u16 {
        debug_assert!(!matches!(
            self.input_side.as_deref(),
            Some(InputSide::Registered(_))
        ));
        let mark = self.config.no_buffer_mark().unwrap_or(0);
        inputs
            .iter()
            .enumerate()
            .filter(|&(i, w)| self.busy >> i & 1 == 0 && w.is_control() && w.data & !mark == p)
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The step of the bufferless switch (nack): docs/switch.md.
    fn step_wormhole(&mut self, inputs: &[Word], out_nack: u16, fault: u64) {
        let ports = self.config.ports();
        // Heads, and the output each asks for (none for a route byte above d).
        let mut requests = [0u16; MAX_PORTS];
        let mut heads = 0u16;
        for (i, w) in inputs.iter().enumerate() {
            if self.busy >> i & 1 == 0 && w.is_control() {
                heads |= 1 << i;
                if w.data < ports as u64 {
                    requests[w.data as usize] |= 1 << i;
                }
            }
        }
        let pass = self.crossbar(inputs, &requests, out_nack, fault);
        let cut = pass.nacked & !pass.eod;
        let refused = heads & !pass.granted;
        self.busy = pass.granted | pass.forwarding | refused | cut;
        self.nack = match self.fault {
            Some(SwitchFault::NackNotReturned) => cut,
            _ => refused | cut,
        };
    }

    /// The step of the bufferless switch with the registered head decode: the step of
    /// [`Switch::step_wormhole`] on last cycle's words, which the input registers hold, but
    /// a refused or cut worm whose EOD is not yet on the link has two more words on the
    /// wire (dropped, `tail`), and one whose EOD is gets no NACK: its sender has let go
    /// (docs/switch.md, "Registered head decode").
    fn step_registered(
        &mut self,
        r: &mut InputRegisters,
        inputs: &[Word],
        out_nack: u16,
        fault: u64,
    ) {
        let ports = self.config.ports();
        let mut requests = [0u16; MAX_PORTS];
        let (mut heads, mut eod_on_link) = (0u16, 0u16);
        for (i, w) in r.words.iter().enumerate() {
            if self.busy >> i & 1 == 0 && w.is_control() {
                heads |= 1 << i;
                if w.data < ports as u64 {
                    requests[w.data as usize] |= 1 << i;
                }
            }
            eod_on_link |= u16::from(inputs[i].is_control()) << i;
        }
        let pass = self.crossbar(&r.words, &requests, out_nack, fault);
        let cut = pass.nacked & !pass.eod;
        let refused = heads & !pass.granted;
        let coming = !eod_on_link;
        self.busy = pass.granted | pass.forwarding | refused | cut | r.tail;
        self.nack = match self.fault {
            Some(SwitchFault::NackNotReturned) => cut & coming,
            _ => (refused | cut) & coming,
        };
        r.tail = (refused | cut) & coming;
        r.words.copy_from_slice(inputs);
    }

    /// The step of the switch with input buffers (vct, saf): docs/flow-control.md. A
    /// buffer whose worm is whole asks for its output; a head asks for its own when its
    /// input's buffer is empty, under vct, or under saf when it is marked not to be
    /// buffered. A head not granted is taken into an empty buffer (unmarked, its output
    /// there and not faulty), else refused; a buffer's worm NACKed further on is dropped,
    /// one sent to its EOD frees the buffer.
    fn step_buffered(&mut self, b: &mut Buffers, inputs: &[Word], out_nack: u16, fault: u64) {
        let ports = self.config.ports();
        let cut_through = self.config.flow() == Flow::Vct;
        let mark = self.config.no_buffer_mark().expect("buffers");
        for buffer in b.inputs.iter_mut().filter(|buffer| buffer.occupied) {
            buffer.held_for += 1;
        }
        let mut launching = 0u16;
        for p in (0..ports).filter(|&p| b.from_buffer >> p & 1 == 1) {
            launching |= 1 << self.holder.get(p);
        }
        let occupied = (0..ports).fold(0u16, |m, i| m | u16::from(b.inputs[i].occupied) << i);
        let mut requests = [0u16; MAX_PORTS];
        let (mut heads, mut ready, mut marked) = (0u16, 0u16, 0u16);
        for (i, w) in inputs.iter().enumerate() {
            let buffer = &b.inputs[i];
            if buffer.occupied && !buffer.filling && launching >> i & 1 == 0 {
                ready |= 1 << i;
                requests[buffer.port] |= 1 << i;
            }
            if self.busy >> i & 1 == 0 && w.is_control() {
                heads |= 1 << i;
                let is_marked = w.data & mark != 0;
                marked |= u16::from(is_marked) << i;
                let port = w.data & !mark;
                if (cut_through || is_marked) && !buffer.occupied && port < ports as u64 {
                    requests[port as usize] |= 1 << i;
                }
            }
        }
        // The crossbar's words: a launching input's buffer word, else its link's.
        let mut words = [Word::IDLE; MAX_PORTS];
        for (i, word) in words.iter_mut().enumerate().take(ports) {
            let buffer = &b.inputs[i];
            *word = match launching >> i & 1 == 1 {
                // Past its last word only with the fault that keeps an output after its EOD.
                true => buffer
                    .words
                    .get(buffer.sent)
                    .map_or(Word::IDLE, |&(ctl, data)| Word {
                        valid: true,
                        ctl,
                        data,
                    }),
                false => inputs[i],
            };
        }
        let pass = self.crossbar(&words[..ports], &requests, out_nack, fault);
        for (i, buffer) in b.inputs.iter_mut().enumerate() {
            if launching >> i & 1 == 0 {
                continue;
            }
            // A NACK further on drops the worm, as under nack: a buffer that kept it and
            // asked again could wait forever on a cycle of full buffers
            // (docs/flow-control.md, "In a network").
            if pass.nacked >> i & 1 == 1 || pass.eod >> i & 1 == 1 {
                *buffer = InputBuffer::default();
            } else {
                buffer.sent += 1;
            }
        }
        b.from_buffer = (b.from_buffer & !pass.released) | pass.granted_outputs(self, ready);
        let linked = !launching;
        let cut = pass.nacked & !pass.eod & linked;
        let accepted = pass.granted & !ready;
        let (absorbed, overflow) =
            self.fill_buffers(b, inputs, heads & !accepted & !occupied & !marked, fault);
        let refused = heads & !accepted & !absorbed;
        let filling = (0..ports).fold(0u16, |m, i| m | u16::from(b.inputs[i].filling) << i);
        self.busy = accepted | (pass.forwarding & linked) | refused | cut | overflow | filling;
        self.nack = match self.fault {
            Some(SwitchFault::NackNotReturned) => cut | overflow,
            _ => refused | cut | overflow,
        };
    }

    /// Takes the heads of `candidates` whose output exists and is not faulty into their
    /// empty buffers, and this cycle's words of the buffers already filling; returns the
    /// heads taken in and the buffers that overflowed (emptied, their sender NACKed).
    fn fill_buffers(
        &self,
        b: &mut Buffers,
        inputs: &[Word],
        candidates: u16,
        fault: u64,
    ) -> (u16, u16) {
        let ports = self.config.ports();
        let (mut absorbed, mut overflow) = (0u16, 0u16);
        for (i, w) in inputs.iter().enumerate() {
            let buffer = &mut b.inputs[i];
            if candidates >> i & 1 == 1 {
                let port = w.data as usize;
                if port < ports && fault >> port & 1 == 0 {
                    absorbed |= 1 << i;
                    *buffer = InputBuffer {
                        port,
                        occupied: true,
                        filling: true,
                        ..InputBuffer::default()
                    };
                }
            } else if buffer.filling && w.valid {
                if buffer.words.len() == self.config.buffer_words() {
                    overflow |= 1 << i;
                    *buffer = InputBuffer::default();
                } else {
                    buffer.words.push((w.ctl, w.data));
                    buffer.filling = !w.ctl;
                }
            }
        }
        (absorbed, overflow)
    }

    /// One cycle of the outputs: each held output forwards its owner's word from `words`
    /// (by input) and is released by a NACK or the EOD; each free output that is not
    /// faulty grants the winner of its `requests`.
    fn crossbar(
        &mut self,
        words: &[Word],
        requests: &[u16; MAX_PORTS],
        out_nack: u16,
        fault: u64,
    ) -> Pass {
        let ports = self.config.ports();
        let mut pass = Pass::default();
        let mut held = self.held;
        let mut holder = self.holder;
        let mut first = 0u16;
        let mut out_data = [D::default(); MAX_PORTS];
        let (mut out_valid, mut out_ctl) = (0u16, 0u16);
        for p in 0..ports {
            match self.owner(p) {
                Some(i) => {
                    let w = words[i];
                    let is_first = self.first >> p & 1 == 1;
                    let eod = w.is_control();
                    let nacked = out_nack >> p & 1 == 1;
                    let valid = !nacked && w.valid && !(is_first && w.ctl);
                    out_data[p] = D::from_data(w.data);
                    out_valid |= u16::from(valid) << p;
                    out_ctl |= u16::from(valid && (w.ctl || is_first)) << p;
                    let released =
                        nacked || (eod && self.fault != Some(SwitchFault::OutputKeptAfterEod));
                    if released {
                        held &= !(1 << p);
                        pass.released |= 1 << p;
                    } else {
                        pass.forwarding |= 1 << i;
                    }
                    pass.nacked |= u16::from(nacked) << i;
                    pass.eod |= u16::from(eod) << i;
                }
                None => {
                    let available = fault >> p & 1 == 0;
                    let winner = if available {
                        self.arbitrate(p, requests[p])
                    } else {
                        None
                    };
                    if let Some(i) = winner {
                        held |= 1 << p;
                        holder.set(p, i);
                        first |= 1 << p;
                        pass.granted |= 1 << i;
                        self.granted.set(p, i);
                    }
                }
            }
        }
        self.held = held;
        self.holder = holder;
        self.first = first;
        self.out_data = out_data;
        self.out_valid = out_valid;
        self.out_ctl = out_ctl;
        pass
    }

    /// Output p's round-robin pointer as a thermometer: the inputs above the one it last
    /// granted, which come first next time.
    fn pointer(&self, p: usize) -> u16 {
        let all = (1u32 << self.config.ports()) - 1;
        (all & !((2u32 << self.granted.get(p)) - 1)) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_wide_switch_fits_a_cache_line() {
        assert!(std::mem::size_of::<Switch<u8>>() <= 64);
    }
}
