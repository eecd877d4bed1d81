//! The configuration of the network switch of Smit, Havinga and Jansen (1991; see
//! docs/papers.md), as its hardware and its cycle model both take it: the degree, the data
//! width of a link word, the arbiter, and the faults a switch can have built in on purpose.
//! docs/switch.md specifies the switch.

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
}

/// The switch's size and arbitration (in bytes, as every switch of a network keeps a copy).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchConfig {
    d: u8,
    data_bits: u8,
    arbiter: Arbiter,
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
        })
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
