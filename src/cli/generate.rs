//! `kautzgen generate`: write a unit's Verilog and VHDL and its manifest to a directory.

use crate::cli::checks::CheckArgs;
use crate::cli::input_error;
use crate::cli::unit::{Unit, UnitSelection};
use crate::emit::names::Language;
use crate::emit::testbench::Testbench;
use crate::emit::{Provenance, write_design_to};
use crate::output::dir::OutputDir;
use crate::rtl::ir::Design;
use crate::rtl::kautz_route::Arch;
use crate::rtl::network::switch::SwitchClocking;
use crate::sim::export;
use crate::sim::function::FunctionUnit;
use crate::sim::sequence::SequenceUnit;
use crate::sim::stream::StreamUnit;
use crate::sim::units::route_gen::RouteGenUnit;
use crate::sim::units::route_pipe::PipeUnit;
use crate::sim::vectors::Shard;
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
/// non-zero on a mismatch. --fault builds a deliberate fault into the design, to see it
/// fail.
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
    unit: UnitSelection,
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
    #[command(flatten)]
    check: CheckArgs,
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
    let unit = args.unit.resolve("generate")?;
    let Some(out) = &args.out else {
        return Err(input_error(anyhow::anyhow!(
            "the following required argument was not provided: --out <DIR>"
        )));
    };
    // A design with a fault built in says so in every file's header.
    let fault = match &args.check.fault {
        Some(name) => format!(" --fault {name}"),
        None => String::new(),
    };
    let provenance = Provenance {
        command: format!(
            "kautzgen generate {} --lang {}{fault}",
            unit.command_line(),
            args.lang.flag()
        ),
    };
    args.check.validate("generate", &unit)?;
    let selection = [
        ("--pairs", args.check.pairs.is_some()),
        ("--seed", args.check.seed.is_some()),
        ("--cycles", args.check.cycles.is_some()),
        ("--rate", args.check.rate.is_some()),
        (
            "--random-faulty-nodes",
            args.check.random_faulty_nodes.is_some(),
        ),
        ("--vectors", args.check.vectors.is_some()),
    ];
    if let Some((flag, _)) = selection
        .iter()
        .find(|(_, given)| *given && !args.testbench)
    {
        return Err(input_error(anyhow::anyhow!(
            "{flag} chooses what the testbench checks: add --testbench"
        )));
    }
    let languages = args.lang.languages();
    let staged = OutputDir::staged(out, args.force)?;
    let (design, testbench) = match args.testbench || args.check.fault.is_some() {
        true => checked(&unit, &args.check, args.testbench, &languages)?,
        false => (unit.design(), None),
    };
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

/// The design of `unit` as `verify` checks it, with the fault of `check` built in, and with
/// `testbench` its self-checking testbench in `languages`.
fn checked(
    unit: &Unit,
    check: &CheckArgs,
    testbench: bool,
    languages: &[Language],
) -> anyhow::Result<(Design, Option<Testbench>)> {
    let (design, tb) = match unit {
        Unit::Kautz(params) => {
            let vectors = check.route_vectors(params, Shard::WHOLE)?;
            let fault = check.route_fault()?;
            if params.arch == Arch::Pipelined {
                let engine = PipeUnit::new(params.clone(), fault, vectors, check.seed())
                    .map_err(input_error)?;
                let design = engine.design();
                (
                    design,
                    testbench.then(|| export::stream_unit(&engine, languages)),
                )
            } else {
                let generator = RouteGenUnit::new(params.clone(), fault, vectors);
                let design = generator.design();
                (
                    design,
                    testbench.then(|| export::sequence_unit(&generator, languages)),
                )
            }
        }
        Unit::Ldi(params) => {
            let ldi = check.ldi_unit(params)?;
            (
                ldi.design(),
                testbench.then(|| export::function_unit(&ldi, languages)),
            )
        }
        Unit::Mrns(params) => {
            let paths = check.mrns_unit(params)?;
            let design = paths.design();
            (
                design,
                testbench.then(|| export::sequence_unit(&paths, languages)),
            )
        }
        Unit::Torus(params) => {
            let torus = check.torus_unit(params)?;
            (
                torus.design(),
                testbench.then(|| export::function_unit(&torus, languages)),
            )
        }
        Unit::Switch(params) if params.clocking == SwitchClocking::SelfTimed => {
            if testbench {
                return Err(input_error(anyhow::anyhow!(
                    "the self-timed switch is checked as a ring of three with wire delays (kautzgen verify switch --clocking self-timed), which has no exported testbench: export the synchronous switch"
                )));
            }
            let fault = check.fault_of("self-timed switch")?;
            let params = params.clone().with_self_timed_fault(fault);
            (Unit::Switch(params).design(), None)
        }
        Unit::Switch(params) => {
            let switch = check.switch_unit(params)?;
            let design = switch.design();
            (
                design,
                testbench.then(|| export::stream_unit(&switch, languages)),
            )
        }
        Unit::Router(params) => {
            let router = check.router_unit(params)?;
            let design = router.design();
            (
                design,
                testbench.then(|| export::stream_unit(&router, languages)),
            )
        }
        Unit::Network(params) if params.clocking == SwitchClocking::SelfTimed => {
            if testbench {
                return Err(input_error(anyhow::anyhow!(
                    "the self-timed network has no exported testbench (its nodes run on clocks of their own): export the synchronous network"
                )));
            }
            let fault = check.fault_of("network")?;
            let params = params.clone().with_fault(fault).map_err(input_error)?;
            (Unit::Network(params).design(), None)
        }
        Unit::Network(params) => {
            let network = check.network_unit(params)?;
            (
                network.design(),
                testbench.then(|| export::network(&network, languages)),
            )
        }
    };
    Ok((design, tb.transpose()?))
}
