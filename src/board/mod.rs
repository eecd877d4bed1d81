//! The boards a self-test top is built for (docs/board.md): one file per board declaring
//! its FPGA, its clock and the pins the top uses, from the board's published constraints;
//! [`REGISTRY`] lists them, and `kautzgen board` iterates it. [`constraints`] writes a
//! board's pin file (`.lpf` for ECP5, `.pcf` for iCE40) and [`flow`] builds the bitstream.
//!
//! In: a board's name. Out: its [`Board`], from which the command builds the top
//! ([`crate::rtl::selftest`]), its constraints and its bitstream.

pub mod constraints;
pub mod flow;
mod icebreaker;
mod ulx3s;

use crate::synth::target::Target;

/// An FPGA family, which decides the constraint file, the tools and the bitstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Ice40,
    Ecp5,
}

/// One pin of the top on the board: the top's port name, the FPGA's pin, what it is
/// called on the board's schematic, and its polarity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pin {
    pub port: &'static str,
    /// The package pin: a ball (`G2`) on ECP5, a pin number (`35`) on iCE40.
    pub site: &'static str,
    /// The net's name in the board's schematic and constraint files.
    pub net: &'static str,
    pub active_low: bool,
    /// An input's pull resistor in the FPGA, where the board needs one (ECP5 `PULLMODE`).
    pub pull: Option<&'static str>,
}

/// The network a board's self-test builds when the command names none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefaultNetwork {
    pub d: u64,
    pub k: u64,
    pub max_bytes: u64,
}

/// A board the self-test top can be built for.
pub trait Board: Sync {
    /// The name on the command line.
    fn name(&self) -> &'static str;
    /// One line for `kautzgen board --help`.
    fn about(&self) -> &'static str;
    fn family(&self) -> Family;
    /// The FPGA and its package, as a person names them.
    fn device(&self) -> &'static str;
    fn package(&self) -> &'static str;
    /// The synthesis target of the device: its tools and nextpnr's device arguments.
    fn target(&self) -> Target;
    /// The oscillator's frequency.
    fn clock_hz(&self) -> u64;
    /// Every port of the top with its pin: the clock, the two buttons, the three LEDs
    /// and the UART's transmit line.
    fn pins(&self) -> &'static [Pin];
    /// Where the pins were read, for the constraint file's header and the docs.
    fn source(&self) -> &'static str;
    /// The network when the command names none: one that fits the device.
    fn default_network(&self) -> DefaultNetwork;
    /// The command that loads the bitstream `file` into the board.
    fn program(&self, file: &str) -> String;

    /// The ports of the top that are active low on this board.
    fn active_low(&self) -> Vec<&'static str> {
        self.pins()
            .iter()
            .filter(|pin| pin.active_low)
            .map(|pin| pin.port)
            .collect()
    }
}

/// Every board, in the order `kautzgen board --help` lists them.
pub static REGISTRY: &[&dyn Board] = &[&ulx3s::Ulx3s, &icebreaker::Icebreaker];

/// The board called `name`.
pub fn find(name: &str) -> Option<&'static dyn Board> {
    REGISTRY.iter().copied().find(|b| b.name() == name)
}

/// The boards' names, for messages.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|b| b.name()).collect()
}
