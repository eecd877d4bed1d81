//! The bitstream of a self-test top: yosys, nextpnr with the board's pins and clock, and
//! the family's packer, run in a work directory with relative paths, each leaving its log
//! there ([`crate::synth::tool`], as `kautzgen synth` runs them):
//!
//! ```text
//! verilog/           the top's Verilog
//! <top>.lpf|pcf      the pins
//! board.ys, yosys.log, stat.json, netlist.json
//! nextpnr.log        with nextpnr's timing report
//! report.json        nextpnr's --report: Fmax and utilisation
//! <top>.config|asc   the placed design, then <top>.bit|bin
//! ```
//!
//! A design with more logic cells than the device (nextpnr's utilisation table, printed
//! when it packs, before it fails to place them) and one whose maximum frequency is below
//! the board's clock are refused: [`BoardError::DoesNotFit`] and
//! [`BoardError::MissesClock`], the user's choice of network to blame.

use super::{Board, Family};
use crate::synth::flow::{PnrReport, Stat, SynthError, read_json, write};
use crate::synth::pnr;
use crate::synth::target::CellCounts;
use crate::synth::tool::{ICEPACK, Tool, ToolError, YOWASP_ECPPACK};
use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum BoardError {
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[error(transparent)]
    Synth(#[from] SynthError),
    #[error(
        "the self-test of the {network} does not fit the {board}'s {device}: {cells} logic cells of its {capacity} ({percent}%); choose a smaller network or --max-bytes (docs/board.md)"
    )]
    DoesNotFit {
        network: String,
        board: &'static str,
        device: &'static str,
        cells: u64,
        capacity: u64,
        percent: u64,
    },
    #[error(
        "the self-test of the {network} misses the {board}'s {clock_mhz} MHz clock: nextpnr reaches {fmax:.2} MHz (its report is kept in {report})"
    )]
    MissesClock {
        network: String,
        board: &'static str,
        clock_mhz: f64,
        fmax: f64,
        report: String,
    },
}

/// What the flow built.
#[derive(Debug, Clone)]
pub struct Built {
    /// The bitstream's file name in the work directory.
    pub bitstream: String,
    pub counts: CellCounts,
    /// Logic cells placed and the device's.
    pub logic_cells: (u64, u64),
    pub fmax_mhz: f64,
}

/// The bitstream's extension for the board's family.
pub fn bitstream_extension(board: &dyn Board) -> &'static str {
    match board.family() {
        Family::Ecp5 => "bit",
        Family::Ice40 => "bin",
    }
}

/// The files the flow leaves that the output keeps: the logs and nextpnr's report.
pub const KEPT: [&str; 3] = ["yosys.log", "nextpnr.log", "report.json"];

/// Builds the bitstream of `top` in `work`, which holds `verilog` (the top's files,
/// relative to `work`) and the constraint file `constraints`; `network` names the
/// network in messages.
pub fn build(
    board: &dyn Board,
    top: &str,
    verilog: &[String],
    constraints: &str,
    network: &str,
    work: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<Built, BoardError> {
    let target = board.target();
    let synth = match board.family() {
        Family::Ecp5 => "synth_ecp5",
        Family::Ice40 => "synth_ice40",
    };
    let script = format!(
        "# Synthesis of {top} for the {board}, written by kautzgen.\nread_verilog {files}\nhierarchy -check -top {top}\n{synth} -top {top} -json netlist.json\ntee -q -o stat.json stat -json\n",
        board = board.name(),
        files = verilog.join(" "),
    );
    write(&work.join("board.ys"), &script)?;
    progress(&format!("yosys {synth}"));
    target
        .yosys()
        .run_ok(&["-s".into(), "board.ys".into()], work, "yosys.log")?;
    let stat: Stat = read_json("yosys statistics", &work.join("stat.json"))?;
    let cells = stat
        .modules
        .get(&format!("\\{top}"))
        .or_else(|| stat.modules.get(top))
        .map(|m| m.num_cells_by_type.clone())
        .ok_or_else(|| SynthError::Output {
            what: "yosys statistics",
            path: work.join("stat.json"),
            message: format!("no module {top}"),
        })?;
    let counts = target.count(&cells);
    let clock_mhz = board.clock_hz() as f64 / 1e6;
    let ext = super::constraints::extension(board);
    let (placed_flag, placed) = match board.family() {
        Family::Ecp5 => ("--textcfg", format!("{top}.config")),
        Family::Ice40 => ("--asc", format!("{top}.asc")),
    };
    let mut args = target.device_args();
    args.extend(
        [
            &format!("--{ext}"),
            constraints,
            "--json",
            "netlist.json",
            "--freq",
            &clock_mhz.to_string(),
            "--seed",
            "1",
            "--timing-allow-fail",
            "--report",
            "report.json",
            placed_flag,
            &placed,
        ]
        .map(String::from),
    );
    progress(&format!("{} at {clock_mhz} MHz", target.nextpnr().program));
    let placed_run = pnr::place_and_route(&target.nextpnr(), &args, work, "nextpnr.log")?.outcome;
    if !placed_run.success {
        // nextpnr packs before it places: a design with more logic cells than the device
        // says so in its utilisation table, and fails placing them.
        let overfull = target
            .logic_cells()
            .iter()
            .find_map(|cell| overfull(&placed_run.log, cell));
        if let Some((used, available)) = overfull {
            return Err(BoardError::DoesNotFit {
                network: network.to_string(),
                board: board.name(),
                device: board.device(),
                cells: used,
                capacity: available,
                percent: used * 100 / available,
            });
        }
        target.nextpnr().checked(placed_run)?;
    }
    let report: PnrReport = read_json("nextpnr report", &work.join("report.json"))?;
    let fmax = report
        .fmax
        .values()
        .map(|c| c.achieved)
        .min_by(f64::total_cmp)
        .ok_or_else(|| SynthError::NoClock {
            path: work.join("report.json"),
        })?;
    if fmax < clock_mhz {
        return Err(BoardError::MissesClock {
            network: network.to_string(),
            board: board.name(),
            clock_mhz,
            fmax,
            report: work.join("nextpnr.log").display().to_string(),
        });
    }
    let logic_cells = target
        .logic_cells()
        .iter()
        .filter_map(|c| report.utilization.get(*c))
        .fold((0, 0), |(used, all), u| (used + u.used, all + u.available));
    let bitstream = format!("{top}.{}", bitstream_extension(board));
    let packer: Tool = match board.family() {
        Family::Ecp5 => YOWASP_ECPPACK,
        Family::Ice40 => ICEPACK,
    };
    progress(packer.program);
    packer.run_ok(&[placed, bitstream.clone()], work, "pack.log")?;
    Ok(Built {
        bitstream,
        counts,
        logic_cells,
        fmax_mhz: fmax,
    })
}

/// nextpnr's utilisation of `cell` in `log` (`Info: \t ICESTORM_LC:  5820/ 5280   110%`)
/// when it exceeds the device's: (used, available).
fn overfull(log: &str, cell: &str) -> Option<(u64, u64)> {
    log.lines().find_map(|line| {
        let rest = line.trim_start_matches("Info:").trim().strip_prefix(cell)?;
        let (used, rest) = rest.strip_prefix(':')?.split_once('/')?;
        let available = rest.split_whitespace().next()?;
        let (used, available) = (used.trim().parse().ok()?, available.parse().ok()?);
        (used > available).then_some((used, available))
    })
}

#[cfg(test)]
mod tests {
    use super::overfull;

    #[test]
    fn an_overfull_device_is_read_from_the_log() {
        let log = "Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  5820/ 5280   110%\nInfo: \t        ICESTORM_RAM:     0/   30     0%\n";
        assert_eq!(overfull(log, "ICESTORM_LC"), Some((5820, 5280)));
        assert_eq!(overfull(log, "ICESTORM_RAM"), None);
        let fits = "Info: \t         ICESTORM_LC:  2971/ 5280    56%\n";
        assert_eq!(overfull(fits, "ICESTORM_LC"), None);
    }
}
