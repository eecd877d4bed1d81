//! A board's pin constraints for the self-test top: a `.lpf` for ECP5 (nextpnr-ecp5's
//! Lattice preference file) and a `.pcf` for iCE40 (nextpnr-ice40's physical constraints),
//! naming only the top's ports.

use super::{Board, Family};

/// The constraint file's extension for the board's family.
pub fn extension(board: &dyn Board) -> &'static str {
    match board.family() {
        Family::Ecp5 => "lpf",
        Family::Ice40 => "pcf",
    }
}

/// The constraint file of `top` on `board`.
pub fn file(board: &dyn Board, top: &str) -> String {
    let mut text = format!(
        "# Pins of {top} on the {}, written by kautzgen.\n# From {}; only the pins the top uses.\n",
        board.about().split(':').next().unwrap_or_default(),
        board.source()
    );
    for pin in board.pins() {
        let polarity = match pin.active_low {
            true => ", active low",
            false => "",
        };
        text.push_str(&format!("# {}: {}{polarity}\n", pin.port, pin.net));
        match board.family() {
            Family::Ecp5 => {
                let pull = pin
                    .pull
                    .map(|p| format!(" PULLMODE={p}"))
                    .unwrap_or_default();
                text.push_str(&format!(
                    "LOCATE COMP \"{}\" SITE \"{}\";\nIOBUF PORT \"{}\" IO_TYPE=LVCMOS33{pull};\n",
                    pin.port, pin.site, pin.port
                ));
            }
            Family::Ice40 => text.push_str(&format!("set_io {} {}\n", pin.port, pin.site)),
        }
    }
    if board.family() == Family::Ecp5 {
        let mhz = board.clock_hz() as f64 / 1e6;
        text.push_str(&format!("FREQUENCY PORT \"clk\" {mhz:.6} MHz;\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{REGISTRY, find};
    use crate::rtl::selftest::PORTS;

    #[test]
    fn every_board_pins_every_port_once() {
        for board in REGISTRY {
            let mut ports: Vec<&str> = board.pins().iter().map(|p| p.port).collect();
            ports.sort();
            let mut want: Vec<&str> = PORTS.iter().map(|p| p.0).collect();
            want.sort();
            assert_eq!(ports, want, "{}", board.name());
        }
    }

    #[test]
    fn the_files_name_the_published_pins() {
        let lpf = file(find("ulx3s").unwrap(), "kautz_selftest");
        for line in [
            "LOCATE COMP \"clk\" SITE \"G2\";",
            "LOCATE COMP \"uart_tx\" SITE \"L4\";",
            "IOBUF PORT \"btn_reset\" IO_TYPE=LVCMOS33 PULLMODE=DOWN;",
            "FREQUENCY PORT \"clk\" 25.000000 MHz;",
        ] {
            assert!(lpf.contains(line), "{line} in\n{lpf}");
        }
        let pcf = file(find("icebreaker").unwrap(), "kautz_selftest");
        for line in [
            "set_io clk 35\n",
            "set_io uart_tx 9\n",
            "set_io led_fail 11\n",
        ] {
            assert!(pcf.contains(line), "{line} in\n{pcf}");
        }
    }
}
