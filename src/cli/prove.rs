//! `kautzgen prove`: formal equivalence of a design's Verilog and VHDL.

use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::cli::progress;
use crate::cli::unit::{Build, UnitSelection};
use crate::emit::names::{Language, name_design};
use crate::emit::{Provenance, write_design};
use crate::synth::WorkDir;
use crate::synth::equiv::{ProveError, Setup, prove};
use crate::synth::ghdl::GhdlError;
use crate::synth::lint::read_manifest;
use crate::synth::tool::ToolError;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Prove that the Verilog and the VHDL of a unit have equal outputs for every input
/// sequence that starts with the reset high.
///
/// The VHDL goes through `ghdl --synth`; yosys builds a miter of it and the emitted
/// Verilog and proves it by SAT with temporal induction, strengthened by the registers the
/// two share by name. Prints PROVED, or a counterexample: the inputs of each cycle from
/// reset and the outputs that differ. Exit status 1 when not proved.
#[derive(Debug, clap::Args)]
#[command(
    subcommand_value_name = "UNIT",
    subcommand_help_heading = "Units",
    disable_help_subcommand = true,
    after_help = "Examples:
  kautzgen prove --d 2 --k 3
  kautzgen prove --d 3 --k 3 --arch parallel
  kautzgen prove --design build/k45
  kautzgen prove --d 3 --k 3 --keep build/prove-k33
  kautzgen prove ldi --kind shortest --m 10 --s 3 --registered
  kautzgen prove mrns --radices 2,3,3,4
  kautzgen prove torus --k 3 --n 3 --algo direction-first
  kautzgen prove switch --d 4"
)]
pub struct Args {
    #[command(flatten)]
    unit: UnitSelection<Build>,
    /// Prove the design directory DIR (as `kautzgen generate` writes it, both languages)
    /// instead of generating the unit; its clock and reset must be named clk and rst.
    #[arg(global = true, long, value_name = "DIR")]
    design: Option<PathBuf>,
    /// Run the tools in DIR and keep their scripts and logs there (created, or replaced
    /// whole if kautzgen wrote it).
    #[arg(global = true, long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Use --keep's DIR even when kautzgen did not write it.
    #[arg(long, requires = "keep")]
    force: bool,
    /// Longest induction to try.
    #[arg(global = true, long, default_value_t = Setup::default().induction_limit, value_parser = clap::value_parser!(u32).range(1..=64))]
    induction: u32,
    /// Cycles after reset to search for differing outputs once the proof fails.
    #[arg(global = true, long, default_value_t = Setup::default().search_depth, value_parser = clap::value_parser!(u32).range(1..=1000))]
    depth: u32,
}

/// `top (d=2, k=3)`: the design as the verdict names it.
fn label(top: &str, params: &BTreeMap<String, u64>) -> String {
    let params: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{top} ({})", params.join(", "))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut setup = Setup {
        induction_limit: args.induction,
        search_depth: args.depth,
        ..Setup::default()
    };
    let mut work = WorkDir::new(args.keep.as_deref(), args.force)?;
    let (dir, top) = match &args.design {
        Some(_) if args.unit.given() => {
            return Err(input_error(anyhow::anyhow!(
                "--design proves the design in DIR: give no unit, --d, --k or --arch with it"
            )));
        }
        Some(dir) => {
            let label = match read_manifest(dir) {
                Ok(manifest) => {
                    // The manifest names a reset style other than the default.
                    setup.reset = manifest.reset.port().to_string();
                    setup.reset_active_high = manifest.reset.active_high();
                    label(&manifest.top, &manifest.params)
                }
                Err(_) => dir.display().to_string(),
            };
            (dir.clone(), label)
        }
        None => {
            let unit = args.unit.resolve()?;
            let design = unit.design();
            let names = name_design(&design, Language::Verilog);
            let top = design.top();
            let local = names.of(top);
            if let Some(clocking) = top.clocking {
                setup.clock = local.signals[clocking.clock.0 as usize].clone();
                setup.reset = local.signals[clocking.reset.0 as usize].clone();
                setup.reset_active_high = clocking.style.active_high();
            }
            let dir = work.path().join("design");
            let provenance = Provenance {
                command: format!("kautzgen prove {}", unit.command_line()),
            };
            write_design(
                &dir,
                &design,
                &[Language::Verilog, Language::Vhdl],
                &provenance,
            )?;
            (dir, label(&local.module, &design.params))
        }
    };
    let bar = progress::spinner("proving");
    let verdict = prove(&dir, &setup, work.path());
    bar.finish_and_clear();
    let verdict = match verdict {
        Ok(verdict) => verdict,
        Err(
            error @ (ProveError::Design { .. }
            | ProveError::SelfTimed(_)
            | ProveError::Ports(_)
            | ProveError::NoReset(_)),
        ) => return Err(input_error(error)),
        Err(error) => {
            // Logs exist to be read once a tool has run; a missing one left none.
            let missing = matches!(
                error,
                ProveError::Tool(ToolError::Missing { .. })
                    | ProveError::Ghdl(GhdlError::Tool(ToolError::Missing { .. }))
            );
            if !missing {
                work.keep()?;
            }
            return Err(error.into());
        }
    };
    print_stdout(&verdict.render(&top))?;
    if !verdict.proved() {
        work.keep()?;
        anyhow::bail!(
            "not proved; scripts and logs kept in {}",
            work.path().display()
        );
    }
    let path = work.path().to_path_buf();
    work.finish()?;
    if args.keep.is_some() {
        eprintln!("scripts and logs kept in {}", path.display());
    }
    Ok(())
}
