//! The iCEBreaker (1BitSquared), v1.0: a Lattice iCE40UP5K in the SG48 package with a
//! 12 MHz oscillator, a red and a green LED and a button on the main board, five LEDs and
//! three buttons on the snap-off PMOD board, and an FTDI USB serial port. The pins are
//! those of icebreaker-fpga/icebreaker-verilog-examples `icebreaker.pcf`.

use super::{Board, DefaultNetwork, Family, Pin};
use crate::synth::target::Target;

pub struct Icebreaker;

/// The top's ports on the iCEBreaker: the main board's button (active low) resets, the
/// snap-off board's BTN1 pauses; the green LED passes, the red one fails (both active
/// low), the snap-off board's LED1 shows activity; TX is the line into the FTDI chip.
const PINS: &[Pin] = &[
    Pin {
        port: "clk",
        site: "35",
        net: "CLK",
        active_low: false,
        pull: None,
    },
    Pin {
        port: "btn_reset",
        site: "10",
        net: "BTN_N",
        active_low: true,
        pull: None,
    },
    Pin {
        port: "btn_pause",
        site: "20",
        net: "BTN1 (snap-off board)",
        active_low: false,
        pull: None,
    },
    Pin {
        port: "led_pass",
        site: "37",
        net: "LEDG_N",
        active_low: true,
        pull: None,
    },
    Pin {
        port: "led_fail",
        site: "11",
        net: "LEDR_N",
        active_low: true,
        pull: None,
    },
    Pin {
        port: "led_activity",
        site: "26",
        net: "LED1 (snap-off board)",
        active_low: false,
        pull: None,
    },
    Pin {
        port: "uart_tx",
        site: "9",
        net: "TX",
        active_low: false,
        pull: None,
    },
];

impl Board for Icebreaker {
    fn name(&self) -> &'static str {
        "icebreaker"
    }

    fn about(&self) -> &'static str {
        "iCEBreaker: iCE40UP5K (SG48), 12 MHz; bitstream DIR/<top>.bin"
    }

    fn family(&self) -> Family {
        Family::Ice40
    }

    fn device(&self) -> &'static str {
        "iCE40UP5K"
    }

    fn package(&self) -> &'static str {
        "SG48"
    }

    fn target(&self) -> Target {
        Target::Ice40Up5k
    }

    fn clock_hz(&self) -> u64 {
        12_000_000
    }

    fn pins(&self) -> &'static [Pin] {
        PINS
    }

    fn source(&self) -> &'static str {
        "icebreaker-fpga/icebreaker-verilog-examples icebreaker.pcf"
    }

    fn default_network(&self) -> DefaultNetwork {
        DefaultNetwork {
            d: 2,
            k: 1,
            max_bytes: 4,
        }
    }

    fn program(&self, file: &str) -> String {
        format!("iceprog {file}")
    }
}
