//! `kautzgen generate`: write a unit's Verilog and VHDL and its manifest to a directory.

use crate::cli::input_error;
use crate::cli::unit::{Generate as GeneratePurpose, UnitSelection};
use crate::emit::names::Language;
use crate::emit::{Provenance, write_design_to};
use crate::output::dir::OutputDir;
use crate::units::check::ExportError;
use clap::ValueEnum;
use std::path::PathBuf;

/// Generate a unit as Verilog-2005 and VHDL-2008: by default the Kautz route generator
/// for K(d,k), or the unit named.
///
/// Writes DIR/verilog/*.v, DIR/vhdl/*.vhd, DIR/manifest.json, which names the top and
/// the files of each language in compile order, and DIR/<top>.core for FuseSoC. A DIR
/// that kautzgen wrote (or an empty one) is replaced as a whole, in one step: the files
/// are written to a temporary directory beside it, which then takes its place. Anything
/// else at DIR is refused unless --force. `kautzgen generate UNIT --help` lists a unit's parameters.
///
/// With --testbench, DIR/tb holds a self-checking testbench in each language written and
/// the vectors it reads, from the golden model: the vectors `kautzgen verify` runs for the
/// same --pairs, --seed, --cycles (and the unit's other options). It runs without kautzgen,
/// in Icarus Verilog, Verilator and GHDL, with the commands of DIR/tb/README.md and of the
/// manifest, or with `fusesoc run --target sim`; it prints `N passed, M failed` and exits
/// non-zero on a mismatch. A cocotb test of the same vectors comes with it:
/// `python3 DIR/tb/cocotb_run.py icarus|verilator|ghdl` (cocotb 2). --fault builds a
/// deliberate fault into the design, to see it fail.
#[derive(Debug, clap::Args)]
#[command(
    subcommand_value_name = "UNIT",
    subcommand_help_heading = "Units",
    disable_help_subcommand = true,
    after_help = "Examples, one per unit:
  kautzgen generate --d 4 --k 5 --out build/k45
  kautzgen generate --d 4 --k 5 --arch parallel --out build/k45-parallel
  kautzgen generate --d 4 --k 5 --testbench --pairs 200 --out build/k45-tb
  kautzgen generate --d 2 --k 3 --testbench --fault phase-b-skipped --out build/k23-bad
  kautzgen generate --d 2 --k 3 --out build/k23 --lang vhdl --top router_k23
  kautzgen generate ldi --m 18 --s 3 --out build/ldi18
  kautzgen generate ldi --kind switch-rom --m 12 --s 3 --out build/ldi12-rom
  kautzgen generate mrns --radices 2,3,3,4 --out build/mrns2334
  kautzgen generate torus --k 3 --n 3 --algo direction-first --registered --out build/t33
  kautzgen generate switch --d 2 --out build/sw2
  kautzgen generate switch --d 2 --clocking self-timed --out build/sw2-st
  kautzgen generate network --d 2 --k 3 --clocking self-timed --out build/k23-net-st"
)]
pub struct Args {
    #[command(flatten)]
    unit: UnitSelection<GeneratePurpose>,
    /// Directory to write (required): created, or replaced whole if kautzgen wrote it.
    #[arg(long, value_name = "DIR", global = true)]
    out: Option<PathBuf>,
    /// Replace DIR even when kautzgen did not write it.
    #[arg(long, global = true)]
    force: bool,
    /// Which languages to write.
    #[arg(long, value_enum, default_value_t = Lang::Both, global = true)]
    lang: Lang,
    /// Write DIR/tb: a self-checking testbench and its vectors from the golden model.
    #[arg(long, global = true)]
    testbench: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    Verilog,
    Vhdl,
    Both,
}

impl Lang {
    pub fn languages(self) -> Vec<Language> {
        match self {
            Lang::Verilog => vec![Language::Verilog],
            Lang::Vhdl => vec![Language::Vhdl],
            Lang::Both => vec![Language::Verilog, Language::Vhdl],
        }
    }

    fn flag(self) -> &'static str {
        match self {
            Lang::Verilog => "verilog",
            Lang::Vhdl => "vhdl",
            Lang::Both => "both",
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let unit = args.unit.resolve()?;
    let Some(out) = &args.out else {
        return Err(input_error(anyhow::anyhow!(
            "the following required argument was not provided: --out <DIR>"
        )));
    };
    let fault = args.unit.fault();
    if !args.testbench
        && let Some(option) = args.unit.selection_given()
    {
        return Err(input_error(anyhow::anyhow!(
            "{option} chooses what the testbench checks: add --testbench"
        )));
    }
    // A design with a fault built in says so in every file's header.
    let fault_words = match &fault {
        Some(name) => format!(" --fault {name}"),
        None => String::new(),
    };
    let provenance = Provenance {
        command: format!(
            "kautzgen generate {} --lang {}{fault_words}",
            unit.command_line(),
            args.lang.flag()
        ),
    };
    let languages = args.lang.languages();
    let (design, testbench) = match fault.is_some() || args.testbench {
        true => {
            let check = args.unit.check(unit.as_ref())?;
            let testbench = match args.testbench {
                true => Some(check.testbench(&languages).map_err(|e| match e {
                    ExportError::NoTestbench(e) => input_error(e),
                    ExportError::Sim(e) => e.into(),
                })?),
                false => None,
            };
            (check.design(), testbench)
        }
        false => (unit.design(), None),
    };
    let staged = OutputDir::staged(out, args.force)?;
    let manifest = write_design_to(staged, &design, &languages, &provenance, testbench.as_ref())?;
    let tb = match &testbench {
        Some(tb) => format!(
            "; testbench in {}/tb: {} {}s",
            out.display(),
            tb.checks,
            tb.noun
        ),
        None => String::new(),
    };
    println!(
        "wrote {}: top {}, {} Verilog and {} VHDL files; {}{tb}",
        out.display(),
        manifest.top,
        manifest.verilog.len(),
        manifest.vhdl.len(),
        unit.timing()
    );
    Ok(())
}
