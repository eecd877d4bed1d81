//! `kautzgen generate`: write a unit's Verilog and VHDL and its manifest to a directory.

use crate::cli::input_error;
use crate::emit::names::Language;
use crate::emit::{Provenance, write_design};
use crate::rtl::kautz_route_gen::{DEFAULT_TOP, RouteGenParams, cycle_bound, design};
use clap::ValueEnum;
use std::path::PathBuf;

/// Generate the route generator of seed 000 for K(d,k) as Verilog-2005 and VHDL-2008.
///
/// Writes DIR/verilog/*.v, DIR/vhdl/*.vhd and DIR/manifest.json, which names the top and
/// the files of each language in compile order. DIR is replaced as a whole: the files are
/// written to a temporary directory beside it, which is then renamed.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  kautzgen generate --d 4 --k 5 --out build/k45
  kautzgen generate --d 2 --k 3 --out build/k23 --lang vhdl --top router_k23")]
pub struct Args {
    /// Degree: letters are 0..=d (1 to 255).
    #[arg(long)]
    d: u64,
    /// Word length and diameter (1 to 64).
    #[arg(long)]
    k: u64,
    /// Directory to write; replaced as a whole.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Which languages to write.
    #[arg(long, value_enum, default_value_t = Lang::Both)]
    lang: Lang,
    /// Name of the top module and entity; submodules are prefixed with it.
    #[arg(long, default_value = DEFAULT_TOP)]
    top: String,
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
    let params = RouteGenParams::new(args.d, args.k, &args.top).map_err(input_error)?;
    check_top_name(&args.top)?;
    let provenance = Provenance {
        command: format!(
            "kautzgen generate --d {} --k {} --lang {} --top {}",
            args.d,
            args.k,
            args.lang.flag(),
            args.top
        ),
    };
    let manifest = write_design(
        &args.out,
        &design(&params),
        &args.lang.languages(),
        &provenance,
    )?;
    println!(
        "wrote {}: top {}, {} Verilog and {} VHDL files; each route_valid or done follows init or next_route within {} cycles",
        args.out.display(),
        manifest.top,
        manifest.verilog.len(),
        manifest.vhdl.len(),
        cycle_bound(params.d(), params.k())
    );
    Ok(())
}

/// The top name is part of the interface, so it is refused rather than repaired.
pub fn check_top_name(top: &str) -> anyhow::Result<()> {
    for language in [Language::Verilog, Language::Vhdl] {
        let legal = crate::emit::names::legalise(top, language);
        if legal != top {
            return Err(input_error(anyhow::anyhow!(
                "--top '{top}' is not a legal {language:?} name (it would have to be '{legal}')"
            )));
        }
    }
    Ok(())
}
