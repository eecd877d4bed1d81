//! The configuration of the network switch of Smit, Havinga and Jansen (1991; see
//! docs/papers.md), as its hardware and its cycle model both take it: the degree, the data
//! width of a link word, the arbiter, the flow control (and its buffers' size), when the
//! bufferless switch decodes its heads, and the faults a switch can have built in on purpose. docs/switch.md specifies the switch,
//! docs/flow-control.md its flow controls.

use crate::choice::choice;
use thiserror::Error;

/// Largest degree: 16 ports, one bit each in the masks.
pub const MAX_D: u64 = 15;
/// Largest data width of a link word.
pub const MAX_DATA_BITS: u64 = 64;
/// Data bits of a link word unless asked otherwise: a byte, as in the paper.
pub const DEFAULT_DATA_BITS: u32 = 8;

choice! {
    /// Which head wins an output that several ask for in one cycle.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum Arbiter {
        #[default]
        RoundRobin = "round-robin":
            "The first requester at or after a pointer that moves past each winner",
        Fixed = "fixed": "Network inputs 1, 2, ..., d before the local router's input 0, always",
    }
}

choice! {
    /// What a switch does with a worm whose output is taken (docs/flow-control.md).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum Flow {
        #[default]
        Nack = "nack":
            "Wormhole with drop and NACK (the network-switch paper's nosy worms): a head whose output is taken is refused",
        Vct = "vct":
            "Virtual cut-through: a head whose output is taken is taken into its input's buffer and sent on when the output frees; NACK only when that buffer is occupied",
        Saf = "saf":
            "Store-and-forward: every worm is taken whole into its input's buffer before its head goes on; NACK when that buffer is occupied",
    }
}

choice! {
    /// When the bufferless switch (nack) decodes a head's route byte (docs/switch.md,
    /// "Registered head decode").
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum HeadDecode {
        #[default]
        SameCycle = "same-cycle":
            "A head is decided in the cycle it arrives: one cycle per hop, the paper's lock-step switch",
        Registered = "registered":
            "Every input word is registered with its head's decoded request and decided in the next cycle: two cycles per hop, a shorter path",
    }
}

/// Words an input buffer holds unless asked otherwise.
pub const DEFAULT_BUFFER_WORDS: u64 = 32;
/// Most words an input buffer holds.
pub const MAX_BUFFER_WORDS: u64 = 4096;

choice! {
    /// Faults built into the switch on purpose, to see verification catch them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum SwitchFault {
        OutputKeptAfterEod = "output-kept-after-eod":
            "An EOD does not release its output; only a NACK does",
        NackNotReturned = "nack-not-returned":
            "A refused head gets no NACK (its input still drops the word behind it)",
    }
}

/// Why a switch cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SwitchConfigError {
    #[error("switch degree d must be 1 to {MAX_D}, got {0}")]
    Degree(u64),
    #[error("data bits must be 1 to {MAX_DATA_BITS}, got {0}")]
    DataBits(u64),
    #[error(
        "{bits} data bits cannot name the {ports} output ports of d = {d}: route bytes need at least {need} bits"
    )]
    RouteBytes {
        bits: u64,
        ports: u64,
        d: u64,
        need: u32,
    },
    #[error(
        "--head-decode registered is built for --flow nack; --flow vct and saf decide at their buffers' heads"
    )]
    RegisteredBuffers,
    #[error("an input buffer holds 2 to {MAX_BUFFER_WORDS} words, got {0}")]
    BufferWords(u64),
    #[error(
        "a buffered word is its data and a type bit in at most 64 bits: vct and saf take at most 63 data bits, got {0}"
    )]
    BufferedDataBits(u64),
    #[error(
        "vct and saf mark a head that must not be buffered with the top data bit, above the port numbers: d = {d} needs at least {need} data bits, got {bits}"
    )]
    MarkBit { bits: u64, d: u64, need: u32 },
}

/// The switch's size, arbitration and flow control (in bytes, as every switch of a network
/// keeps a copy).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchConfig {
    d: u8,
    data_bits: u8,
    arbiter: Arbiter,
    flow: Flow,
    /// Words of each input's buffer (vct and saf): a worm's words after its head here,
    /// its EOD included.
    buffer_words: u16,
    head_decode: HeadDecode,
}

/// Bits to write the numbers 0..=n, at least 1.
fn bits_for(n: u64) -> u32 {
    (u64::BITS - n.leading_zeros()).max(1)
}

impl SwitchConfig {
    /// Checks 1 <= d <= 15 and 1 <= data_bits <= 64, with enough bits for the port
    /// numbers 0..=d that route bytes carry.
    pub fn new(d: u64, data_bits: u64, arbiter: Arbiter) -> Result<Self, SwitchConfigError> {
        if !(1..=MAX_D).contains(&d) {
            return Err(SwitchConfigError::Degree(d));
        }
        if !(1..=MAX_DATA_BITS).contains(&data_bits) {
            return Err(SwitchConfigError::DataBits(data_bits));
        }
        let need = bits_for(d);
        if data_bits < need as u64 {
            return Err(SwitchConfigError::RouteBytes {
                bits: data_bits,
                ports: d + 1,
                d,
                need,
            });
        }
        Ok(SwitchConfig {
            d: d as u8,
            data_bits: data_bits as u8,
            arbiter,
            flow: Flow::Nack,
            buffer_words: 0,
            head_decode: HeadDecode::SameCycle,
        })
    }

    /// The same switch with flow control `flow`, its input buffers of `buffer_words` words
    /// (vct and saf; nack has none and ignores it).
    pub fn with_flow(self, flow: Flow, buffer_words: u64) -> Result<Self, SwitchConfigError> {
        let buffer_words = match flow {
            Flow::Nack => 0,
            Flow::Vct | Flow::Saf if (2..=MAX_BUFFER_WORDS).contains(&buffer_words) => {
                buffer_words as u16
            }
            Flow::Vct | Flow::Saf => return Err(SwitchConfigError::BufferWords(buffer_words)),
        };
        if flow != Flow::Nack && self.head_decode != HeadDecode::SameCycle {
            return Err(SwitchConfigError::RegisteredBuffers);
        }
        if flow != Flow::Nack && self.data_bits >= 64 {
            return Err(SwitchConfigError::BufferedDataBits(self.data_bits.into()));
        }
        let need = bits_for(self.d.into()) + 1;
        if flow != Flow::Nack && u32::from(self.data_bits) < need {
            return Err(SwitchConfigError::MarkBit {
                bits: self.data_bits.into(),
                d: self.d.into(),
                need,
            });
        }
        Ok(SwitchConfig {
            flow,
            buffer_words,
            ..self
        })
    }

    pub fn flow(&self) -> Flow {
        self.flow
    }

    /// The same switch deciding its heads as `head_decode` says: registered only for the
    /// bufferless switch (nack).
    pub fn with_head_decode(self, head_decode: HeadDecode) -> Result<Self, SwitchConfigError> {
        if head_decode != HeadDecode::SameCycle && self.flow != Flow::Nack {
            return Err(SwitchConfigError::RegisteredBuffers);
        }
        Ok(SwitchConfig {
            head_decode,
            ..self
        })
    }

    pub fn head_decode(&self) -> HeadDecode {
        self.head_decode
    }

    /// Cycles a word takes from one switch's input link to the next one's: 1 when heads are
    /// decided in their own cycle, 2 behind the input registers of the registered decode.
    pub fn hop_cycles(&self) -> u64 {
        match self.head_decode {
            HeadDecode::SameCycle => 1,
            HeadDecode::Registered => 2,
        }
    }

    /// With buffers (vct, saf): the top data bit, which marks a head whose worm must not be
    /// buffered (an acknowledgement: docs/flow-control.md); its other bits name the port.
    pub fn no_buffer_mark(&self) -> Option<u64> {
        (self.flow != Flow::Nack).then(|| 1 << (self.data_bits - 1))
    }

    /// Words of each input's buffer; 0 without buffers (nack).
    pub fn buffer_words(&self) -> usize {
        usize::from(self.buffer_words)
    }

    pub fn d(&self) -> usize {
        usize::from(self.d)
    }

    /// Ports each way: the local router's and d network links.
    pub fn ports(&self) -> usize {
        self.d() + 1
    }

    pub fn data_bits(&self) -> u32 {
        u32::from(self.data_bits)
    }

    pub fn arbiter(&self) -> Arbiter {
        self.arbiter
    }

    /// All data bits set: the largest data word.
    pub fn data_mask(&self) -> u64 {
        u64::MAX >> (64 - self.data_bits())
    }

    /// Bits to write a port number 0..=d.
    pub fn port_bits(&self) -> u32 {
        bits_for(u64::from(self.d))
    }
}
