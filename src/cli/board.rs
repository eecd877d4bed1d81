//! `kautzgen board`: a board's self-test top (the network, traffic and checkers, counters
//! on a UART), its pin constraints and its bitstream (docs/board.md).

use crate::board::{self, Board, constraints, flow};
use crate::choice::Choice;
use crate::cli::input_error;
use crate::cli::progress;
use crate::emit::names::Language;
use crate::emit::{Provenance, render};
use crate::fabric::switch::DEFAULT_DATA_BITS;
use crate::fabric::switch::{Arbiter, Flow};
use crate::output::dir::OutputDir;
use crate::rtl::network::packed::PortForm;
use crate::rtl::network::switch::SwitchClocking;
use crate::rtl::network::whole::NetworkFault;
use crate::rtl::selftest::{self, SelftestParams};
use crate::synth::WorkDir;
use crate::synth::tool::ToolError;
use crate::units::choice_arg::choice;
use crate::units::options::InterfaceArg;
use crate::units::topology_args::{DEFAULT_TOPOLOGY, TopologyArgs};
use anyhow::Context;
use clap::builder::{PossibleValue, PossibleValuesParser};
use std::path::{Path, PathBuf};

/// Build a board's self-test: the network with a traffic generator and a checker at every
/// node, counters of sent, delivered, failed and corrupted messages on the UART once a
/// second, LEDs for pass, fail and activity; its pin constraints; and its bitstream.
///
/// Writes DIR/verilog, DIR/vhdl, DIR/manifest.json (lint them with `kautzgen lint DIR`),
/// DIR/<top>.lpf or .pcf, and, built with yosys, nextpnr and the family's packer,
/// DIR/<top>.bit (ECP5) or DIR/<top>.bin (iCE40) with nextpnr's log (its timing report) and
/// report.json. A design that does not fit the device or misses the board's clock is
/// refused, and nothing is written. Without --d and --k, each board's default network
/// (one that fits it) is built. docs/board.md says how to load it and what it prints.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen board ulx3s --d 2 --k 3 --out build/ulx3s
  kautzgen board icebreaker --out build/icebreaker
  kautzgen board icebreaker --d 2 --k 3 --no-bitstream --out build/ice-k23")]
pub struct Args {
    /// The board.
    #[arg(value_name = "BOARD", value_parser = boards())]
    board: String,
    #[command(flatten)]
    topology: TopologyArgs,
    /// Bytes of the longest message, each router's buffer (1 to 255) [default: the
    /// board's].
    #[arg(long, value_name = "N")]
    max_bytes: Option<u64>,
    /// Which head wins a switch output that several ask for in one cycle.
    #[arg(long, value_parser = choice::<Arbiter>(), default_value = Arbiter::RoundRobin.name())]
    arbiter: Arbiter,
    /// The switches' flow control (docs/flow-control.md).
    #[arg(long, value_parser = choice::<Flow>(), default_value = Flow::Nack.name())]
    flow: Flow,
    /// Seed of the nodes' traffic generators.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Clocks between two lines on the UART [default: the board's clock, one second].
    /// For simulation, where a second is too long to wait for.
    #[arg(long, value_name = "N")]
    report_cycles: Option<u64>,
    /// A deliberate fault built into the network, to see the checkers catch it.
    #[arg(long, value_parser = choice::<NetworkFault>())]
    fault: Option<NetworkFault>,
    /// The top module's name, and the bitstream's.
    #[arg(long, default_value = "kautz_selftest")]
    top: String,
    /// Write the top and the constraints only: no yosys, nextpnr or packer.
    #[arg(long)]
    no_bitstream: bool,
    /// Directory to write (required): created, or replaced whole if kautzgen wrote it.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace DIR even when kautzgen did not write it.
    #[arg(long)]
    force: bool,
}

/// The boards, each with its line, for `--help`.
fn boards() -> PossibleValuesParser {
    PossibleValuesParser::new(
        board::REGISTRY
            .iter()
            .map(|b| PossibleValue::new(b.name()).help(b.about())),
    )
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let board = board::find(&args.board).expect("clap checked the board's name");
    let (params, command) = params(&args, board)?;
    let design = selftest::design(&params);
    let provenance = Provenance {
        command: command.clone(),
    };
    let languages = [Language::Verilog, Language::Vhdl];
    let (files, manifest) = render(&design, &languages, &provenance)?;
    let top = manifest.top.clone();
    let pins = format!("{top}.{}", constraints::extension(board));
    let pin_text = constraints::file(board, &top);
    let out = OutputDir::staged(&args.out, args.force)?;
    write_into(out.path(), &args.out, &files, &pin_text, &pins)?;
    let summary = params.network.describe();
    if args.no_bitstream {
        out.commit()?;
        println!(
            "wrote {}: top {top} for the {} with its pins ({pins}), {} Verilog and {} VHDL files; no bitstream",
            args.out.display(),
            board.name(),
            manifest.verilog.len(),
            manifest.vhdl.len()
        );
        return Ok(());
    }
    let mut work = WorkDir::new(None, false)?;
    write_into(work.path(), work.path(), &files, &pin_text, &pins)?;
    let bar = progress::spinner("starting");
    let result = flow::build(
        board,
        &top,
        &manifest.verilog,
        &pins,
        &summary,
        work.path(),
        &mut |step| bar.set_message(step.to_string()),
    );
    bar.finish_and_clear();
    let built = match result {
        Ok(built) => built,
        Err(error) => {
            // The logs a failed run names stay; a missing tool left none, and a design
            // too big is refused with its figures in the line.
            if !matches!(
                error,
                flow::BoardError::Tool(ToolError::Missing { .. })
                    | flow::BoardError::DoesNotFit { .. }
            ) {
                work.keep()?;
            }
            return Err(match error {
                flow::BoardError::DoesNotFit { .. } | flow::BoardError::MissesClock { .. } => {
                    input_error(error)
                }
                other => other.into(),
            });
        }
    };
    for name in flow::KEPT.iter().copied().chain([built.bitstream.as_str()]) {
        std::fs::copy(work.path().join(name), out.path().join(name))
            .with_context(|| format!("copying {name} into {}", args.out.display()))?;
    }
    out.commit()?;
    work.finish()?;
    let path = args.out.join(&built.bitstream);
    let (cells, capacity) = built.logic_cells;
    println!(
        "wrote {}: the self-test of the {summary} for the {} ({}): {} LUTs, {} flip-flops, {cells} of {capacity} logic cells ({}%), Fmax {:.2} MHz against its {} MHz clock",
        path.display(),
        board.name(),
        board.device(),
        built.counts.luts,
        built.counts.flip_flops,
        cells * 100 / capacity.max(1),
        built.fmax_mhz,
        board.clock_hz() as f64 / 1e6,
    );
    println!(
        "load it with: {}",
        board.program(&path.display().to_string())
    );
    Ok(())
}

/// The self-test's parameters from the command line, and the command line as the
/// generated files' headers give it.
fn params(args: &Args, board: &dyn Board) -> anyhow::Result<(SelftestParams, String)> {
    let default = board.default_network();
    let mut topology = args.topology.clone();
    let on_kautz = topology.kind.name() == DEFAULT_TOPOLOGY;
    if on_kautz && topology.given.d.is_none() && topology.given.k.is_none() {
        topology.given.d = Some(default.d);
        topology.given.k = Some(default.k);
    }
    let max_bytes = args.max_bytes.unwrap_or(default.max_bytes);
    let network_args = crate::units::network::Args {
        topology: topology.clone(),
        max_bytes,
        arbiter: args.arbiter,
        flow: args.flow,
        clocking: SwitchClocking::Synchronous,
        interface: InterfaceArg::plain(),
        ports: PortForm::Flat,
        data_bits: u64::from(DEFAULT_DATA_BITS),
    };
    let network = crate::units::network::params(&network_args, &format!("{}_network", args.top))?
        .with_fault(args.fault)
        .map_err(input_error)?;
    let report_cycles = args.report_cycles.unwrap_or(board.clock_hz());
    let params = SelftestParams::new(
        network,
        &args.top,
        board.clock_hz(),
        report_cycles,
        args.seed,
        board.active_low(),
    )
    .map_err(input_error)?;
    let mut command = format!(
        "kautzgen board {} {} --max-bytes {max_bytes} --seed {} --report-cycles {report_cycles}",
        board.name(),
        topology.command_line(),
        args.seed
    );
    if args.arbiter != Arbiter::RoundRobin {
        command += &format!(" --arbiter {}", args.arbiter.name());
    }
    if args.flow != Flow::Nack {
        command += &format!(" --flow {}", args.flow.name());
    }
    if let Some(fault) = args.fault {
        command += &format!(" --fault {}", fault.name());
    }
    Ok((params, command))
}

/// Writes the design's files and the pin file `pins` into `dir` (`shown` in messages).
fn write_into(
    dir: &Path,
    shown: &Path,
    files: &[crate::emit::GeneratedFile],
    pin_text: &str,
    pins: &str,
) -> anyhow::Result<()> {
    for file in files {
        let path = dir.join(&file.path);
        let folder = path.parent().expect("files live in the output directory");
        std::fs::create_dir_all(folder)
            .and_then(|()| std::fs::write(&path, &file.text))
            .with_context(|| format!("writing {}", shown.join(&file.path).display()))?;
    }
    std::fs::write(dir.join(pins), pin_text)
        .with_context(|| format!("writing {}", shown.join(pins).display()))?;
    Ok(())
}
