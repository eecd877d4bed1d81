//! The ULX3S (Radiona), v2.0 and later: a Lattice ECP5 LFE5U-85F in the CABGA381
//! package with a 25 MHz oscillator, eight LEDs, seven buttons and an FTDI USB serial port.
//! The pins are those of emard/ulx3s `doc/constraints/ulx3s_v20.lpf` (the board's
//! reference constraint file, from its schematic).

use super::{Board, DefaultNetwork, Family, Pin};
use crate::synth::target::Target;

pub struct Ulx3s;

/// The top's ports on the ULX3S: the buttons FIRE1 and FIRE2 (active high, pulled down),
/// LEDs D0..D2 (active high), and the line into the FTDI chip's receiver.
const PINS: &[Pin] = &[
    Pin {
        port: "clk",
        site: "G2",
        net: "clk_25mhz",
        active_low: false,
        pull: Some("NONE"),
    },
    Pin {
        port: "btn_reset",
        site: "R1",
        net: "btn[1] (FIRE1)",
        active_low: false,
        pull: Some("DOWN"),
    },
    Pin {
        port: "btn_pause",
        site: "T1",
        net: "btn[2] (FIRE2)",
        active_low: false,
        pull: Some("DOWN"),
    },
    Pin {
        port: "led_pass",
        site: "B2",
        net: "led[0]",
        active_low: false,
        pull: None,
    },
    Pin {
        port: "led_fail",
        site: "C2",
        net: "led[1]",
        active_low: false,
        pull: None,
    },
    Pin {
        port: "led_activity",
        site: "C1",
        net: "led[2]",
        active_low: false,
        pull: None,
    },
    Pin {
        port: "uart_tx",
        site: "L4",
        net: "ftdi_rxd",
        active_low: false,
        pull: None,
    },
];

impl Board for Ulx3s {
    fn name(&self) -> &'static str {
        "ulx3s"
    }

    fn about(&self) -> &'static str {
        "ULX3S: ECP5 LFE5U-85F (CABGA381), 25 MHz; bitstream DIR/<top>.bit"
    }

    fn family(&self) -> Family {
        Family::Ecp5
    }

    fn device(&self) -> &'static str {
        "LFE5U-85F"
    }

    fn package(&self) -> &'static str {
        "CABGA381"
    }

    fn target(&self) -> Target {
        Target::Ecp5_85k
    }

    fn clock_hz(&self) -> u64 {
        25_000_000
    }

    fn pins(&self) -> &'static [Pin] {
        PINS
    }

    fn source(&self) -> &'static str {
        "emard/ulx3s doc/constraints/ulx3s_v20.lpf"
    }

    fn default_network(&self) -> DefaultNetwork {
        DefaultNetwork {
            d: 2,
            k: 3,
            max_bytes: 16,
        }
    }

    fn program(&self, file: &str) -> String {
        format!("openFPGALoader -b ulx3s {file}")
    }
}
