//! `kautzgen generate`: write a unit's Verilog and VHDL and its manifest to a directory.

use crate::cli::input_error;
use crate::cli::unit::UnitSelection;
use crate::emit::names::Language;
use crate::emit::{Provenance, write_design};
use clap::ValueEnum;
use std::path::PathBuf;

/// Generate a unit as Verilog-2005 and VHDL-2008: by default the route generator of seed
/// 000 for K(d,k), or the unit named.
///
/// Writes DIR/verilog/*.v, DIR/vhdl/*.vhd, DIR/manifest.json, which names the top and
/// the files of each language in compile order, and DIR/<top>.core for FuseSoC. DIR is
/// replaced as a whole: the files are written to a temporary directory beside it, which is
/// then renamed. `kautzgen generate UNIT --help` lists a unit's parameters.
#[derive(Debug, clap::Args)]
#[command(
    subcommand_value_name = "UNIT",
    subcommand_help_heading = "Units",
    disable_help_subcommand = true,
    after_help = "Examples, one per unit:
  kautzgen generate --d 4 --k 5 --out build/k45
  kautzgen generate --d 4 --k 5 --arch parallel --out build/k45-parallel
  kautzgen generate --d 2 --k 3 --out build/k23 --lang vhdl --top router_k23
  kautzgen generate ldi --m 18 --s 3 --out build/ldi18
  kautzgen generate ldi --kind switch-rom --m 12 --s 3 --out build/ldi12-rom
  kautzgen generate mrns --radices 2,3,3,4 --out build/mrns2334
  kautzgen generate torus --k 3 --n 3 --algo direction-first --registered --out build/t33
  kautzgen generate switch --d 2 --out build/sw2
  kautzgen generate switch --d 2 --clocking self-timed --out build/sw2-st"
)]
pub struct Args {
    #[command(flatten)]
    unit: UnitSelection,
    /// Directory to write; replaced as a whole (required).
    #[arg(long, value_name = "DIR", global = true)]
    out: Option<PathBuf>,
    /// Which languages to write.
    #[arg(long, value_enum, default_value_t = Lang::Both, global = true)]
    lang: Lang,
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
    let provenance = Provenance {
        command: format!(
            "kautzgen generate {} --lang {}",
            unit.command_line(),
            args.lang.flag()
        ),
    };
    let manifest = write_design(out, &unit.design(), &args.lang.languages(), &provenance)?;
    println!(
        "wrote {}: top {}, {} Verilog and {} VHDL files; {}",
        out.display(),
        manifest.top,
        manifest.verilog.len(),
        manifest.vhdl.len(),
        unit.timing()
    );
    Ok(())
}
