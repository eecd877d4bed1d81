//! `kautzgen verify`: simulates a unit in Verilator and GHDL and compares it with its golden
//! model: the Kautz route generator route by route, the function units vector by vector.

use crate::cli::checks::CheckArgs;
use crate::cli::unit::{Unit, UnitSelection};
use crate::cli::unit_options::refuse_foreign;
use crate::cli::{input_error, output::print_stdout, progress};
use crate::emit::Provenance;
use crate::interrupt::scratch;
use crate::output::dir::OutputDir;
use crate::rtl::kautz_route::{self, RouteGenParams};
use crate::rtl::mrns_path_gen::MrnsPathGenParams;
use crate::rtl::network::router::RouterParams;
use crate::rtl::network::switch::{SelfTimedFault, SwitchClocking, SwitchParams};
use crate::rtl::network::whole::NetworkParams;
use crate::sim::SHOWN_BY_VERIFY as SHOWN;
use crate::sim::delays::{DelayError, DelaySource, LinkWires};
use crate::sim::function::{self, FunctionUnit};
use crate::sim::ghdl::Ghdl;
use crate::sim::icarus::Icarus;
use crate::sim::ring::{self, Ring};
use crate::sim::sequence::{self, SequenceUnit};
use crate::sim::stream::{self, StreamUnit};
use crate::sim::units::route_pipe::{self, PipeUnit};
use crate::sim::units::switch as switch_traffic;
use crate::sim::vectors::{Shard, VectorSet};
use crate::sim::verilator::Verilator;
use crate::sim::{Design, Options, Simulator, scratch_design, verify};
use anyhow::bail;
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// Simulate a unit in Verilator and GHDL against its golden model.
///
/// The Kautz route generator (the default unit) of K(d,k) is generated, or read with
/// --design. For every selected source/destination pair, and for fixed invalid words (a
/// letter above d, equal neighbours, source equal to destination), each route and its
/// order, `done` and `error` are checked; routes held while `next_route` comes late;
/// `next_route` ignored while no route is valid; `init` and `rst` in the middle of a
/// search; and at most k + 3(d+1) + 4 cycles of work per route set (2 with --arch
/// parallel, the bound its manifest gives).
///
/// The MRNS path generator is checked the same way, path by path, on the pairs of
/// --pairs, A = B, and digits out of range; each path set takes exactly 1 + n + sum m_i
/// cycles of work.
///
/// The LDI units are checked on every input they are specified for. The torus unit is
/// checked on every input of the cube (every node, destination, header a route can carry
/// and mask of faulty or busy links), then along the golden model's route between every
/// pair of nodes with no fault, each single faulty node and each single faulty link.
///
/// The network switch is checked cycle by cycle: every output in every cycle against its
/// cycle model, on directed cases then --cycles of random traffic from --seed. The
/// self-timed switch (--clocking self-timed) is checked as three switches in a ring with
/// wire delays, in GHDL and Icarus Verilog, against three synchronous models. The router
/// is checked cycle by cycle in closed loop with its model.
///
/// The whole network is checked message by message: the network model runs --cycles of
/// uniform traffic at --rate with --random-faulty-nodes faulty nodes from --seed, its messages drive
/// the nodes' processor ports, and each message's verdict, attempts, cycles and bytes
/// must come out of the hardware as out of the model.
///
/// Prints the first failures in full and ends with a line `<simulator>: N passed, M
/// failed` per simulator; exits 1 on any failure.
#[derive(Debug, clap::Args)]
#[command(
    subcommand_value_name = "UNIT",
    subcommand_help_heading = "Units",
    disable_help_subcommand = true,
    after_help = "Examples:
  kautzgen verify --d 2 --k 3 --pairs all
  kautzgen verify --d 3 --k 3 --pairs all --arch parallel
  kautzgen verify --d 4 --k 5 --sim ghdl --pairs 500 --seed 7
  kautzgen verify --d 4 --k 5 --pairs all --shard 3/8
  kautzgen verify --d 3 --k 3 --sim verilator --pairs 20 --wave k33.vcd
  kautzgen verify --d 4 --k 5 --design build/k45
  kautzgen verify --d 2 --k 3 --pairs all --fault phase-b-skipped   # must fail
  kautzgen verify mrns --radices 2,3,3,4 --pairs all
  kautzgen verify mrns --radices 2,2,2,2 --pairs all --fault rows-frozen-while-shortest   # must fail
  kautzgen verify ldi --m 18 --s 3
  kautzgen verify ldi --kind crossbar --m 10 --s 3 --registered --sim ghdl
  kautzgen verify torus --k 3 --n 3 --algo direction-first
  kautzgen verify torus --k 6 --n 2 --algo west-first --vectors walks
  kautzgen verify switch --d 2 --cycles 50000 --seed 7
  kautzgen verify switch --d 4 --fault output-kept-after-eod   # must fail
  kautzgen verify router --d 2 --k 3 --cycles 5000
  kautzgen verify network --d 2 --k 3 --rate 0.02 --random-faulty-nodes 2 --seed 4
  kautzgen verify network --d 2 --k 3 --fault links-swapped   # must fail"
)]
pub struct Args {
    #[command(flatten)]
    unit: UnitSelection,
    /// Simulators to run.
    #[arg(global = true, long, value_enum, default_value_t = Sim::All)]
    sim: Sim,
    /// Verify slice I of N (0 <= I < N): the vectors at positions p with p mod N = I.
    /// The N slices are disjoint and together hold every vector.
    #[arg(global = true, long, value_name = "I/N")]
    shard: Option<String>,
    /// Route generators and the switch: write the waves of the run to this VCD file (with
    /// one --sim only).
    #[arg(global = true, long, value_name = "FILE.vcd")]
    wave: Option<PathBuf>,
    /// Kautz route generator: verify the design in DIR (its manifest.json and the HDL files
    /// it lists, as `kautzgen generate` writes them) instead of generating one.
    #[arg(global = true, long, value_name = "DIR")]
    design: Option<PathBuf>,
    /// Self-timed switch and network: the delay of each wire between the switches, one a
    /// line in ns (`s1.in2_cl 7.0` in the switch's ring, `n012.in1_cl 7.0` in a network;
    /// docs/switch.md names the wires), the others at the low end of their range; without
    /// it, every wire's delay is drawn from --seed inside the documented ranges.
    #[arg(global = true, long, value_name = "FILE")]
    delays: Option<PathBuf>,
    /// Keep the generated designs and every simulator's work (testbench, vectors, logs,
    /// waves) in DIR, one numbered folder each; DIR is created, or replaced whole if
    /// kautzgen wrote it.
    #[arg(global = true, long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Use --keep's DIR even when kautzgen did not write it.
    #[arg(global = true, long, requires = "keep")]
    force: bool,
    #[command(flatten)]
    check: CheckArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Sim {
    Verilator,
    Ghdl,
    /// Icarus Verilog: for a machine without Verilator, and for the self-timed switch and
    /// network, whose wires have delays.
    Icarus,
    /// Verilator and GHDL; GHDL and Icarus for the self-timed switch and network.
    All,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let Some(keep) = args.keep.clone() else {
        return run_checks(args);
    };
    let kept = OutputDir::in_place(&keep, args.force)?;
    scratch::keep_all_in(kept.path());
    let result = run_checks(args);
    kept.commit()?;
    eprintln!("designs and simulator work kept in {}", keep.display());
    result
}

fn run_checks(args: Args) -> anyhow::Result<()> {
    let unit = args.unit.resolve("verify")?;
    let shard = match &args.shard {
        Some(text) => text.parse().map_err(input_error)?,
        None => Shard::WHOLE,
    };
    let self_timed = match &unit {
        Unit::Switch(p) => p.clocking == SwitchClocking::SelfTimed,
        Unit::Network(p) => p.clocking == SwitchClocking::SelfTimed,
        _ => false,
    };
    let simulators: Vec<Box<dyn Simulator>> = match (args.sim, self_timed) {
        (Sim::Verilator, false) => vec![Box::new(Verilator::default())],
        (Sim::Ghdl, _) => vec![Box::new(Ghdl::default())],
        (Sim::Icarus, _) => vec![Box::new(Icarus::default())],
        (Sim::All, false) => vec![Box::new(Verilator::default()), Box::new(Ghdl::default())],
        (Sim::All, true) => vec![Box::new(Ghdl::default()), Box::new(Icarus::default())],
        (Sim::Verilator, true) => {
            return Err(input_error(anyhow::anyhow!(
                "Verilator cannot simulate the self-timed {} (its clocks come through wires with delays): use --sim ghdl or --sim icarus",
                unit.name()
            )));
        }
    };
    refuse_foreign("verify", &unit, "design", args.design.is_some())?;
    refuse_foreign("verify", &unit, "wave", args.wave.is_some())?;
    refuse_foreign("verify", &unit, "delays", args.delays.is_some())?;
    if args.delays.is_some() && !self_timed {
        return Err(input_error(anyhow::anyhow!(
            "--delays sets the wires between self-timed switches: add --clocking self-timed"
        )));
    }
    if args.design.is_some() && args.unit.arch.is_some() {
        return Err(input_error(anyhow::anyhow!(
            "--arch builds a design; one read with --design has its own (its manifest's cycle_bound)"
        )));
    } else if args.design.is_some() && args.check.fault.is_some() {
        return Err(input_error(anyhow::anyhow!(
            "--fault builds a design with a fault; one read with --design has none to add"
        )));
    }
    args.check.validate("verify", &unit)?;
    if let Some(wave) = &args.wave {
        crate::output::file::check(wave)?;
    }
    if matches!(unit, Unit::Switch(_) | Unit::Router(_) | Unit::Network(_)) && shard != Shard::WHOLE
    {
        return Err(input_error(anyhow::anyhow!(
            "--shard splits independent vectors; the {}'s cycles form one run from reset: give --cycles and --seed instead",
            unit.name()
        )));
    }
    if args.wave.is_some() && self_timed {
        return Err(input_error(anyhow::anyhow!(
            "--wave applies to the synchronous {}, not to self-timed switches wired with delays",
            unit.name()
        )));
    }
    if args.wave.is_some() && simulators.len() > 1 {
        return Err(input_error(anyhow::anyhow!(
            "--wave writes the waves of one simulator: add --sim verilator or --sim ghdl"
        )));
    }
    match &unit {
        Unit::Kautz(params) => route_generator(&args, params, shard, &simulators),
        Unit::Ldi(params) => function_unit(&args.check.ldi_unit(params)?, shard, &simulators),
        Unit::Mrns(params) => path_generator(&args, params, shard, &simulators),
        Unit::Torus(params) => function_unit(&args.check.torus_unit(params)?, shard, &simulators),
        Unit::Switch(params) if self_timed => ring(&args, params, &simulators),
        Unit::Switch(params) => switch(&args, params, &simulators),
        Unit::Router(params) => router(&args, params, &simulators),
        Unit::Network(params) if self_timed => self_timed_network(&args, params, &simulators),
        Unit::Network(params) => network(&args, params, &simulators),
    }
}

/// Checks the whole network against the network model message by message.
fn network(
    args: &Args,
    params: &NetworkParams,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    let unit = args.check.network_unit(params)?;
    in_each_simulator(&unit.describe(), simulators, |simulator| {
        let report = unit.verify(simulator, SHOWN, args.wave.as_deref())?;
        Ok(Outcome {
            text: report.render(),
            passed: report.passed,
            failed: report.failed,
            counted: "messages",
        })
    })
}

/// Checks the self-timed network, its nodes wired with delays, against the network model
/// message by message.
fn self_timed_network(
    args: &Args,
    params: &NetworkParams,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    let unit = args.check.network_unit(params)?;
    let source = delay_source(args)?;
    let names: Vec<LinkWires> = unit.links().into_iter().map(|l| l.names).collect();
    let delays = source
        .delays(&names, args.check.seed())
        .map_err(|e| delays_error(args, e))?;
    let heading = format!("{} ({})", unit.describe(), source.describe());
    in_each_simulator(&heading, simulators, |simulator| {
        let report = unit.verify_self_timed(simulator, &delays, SHOWN)?;
        Ok(Outcome {
            text: report.render(),
            passed: report.passed,
            failed: report.failed,
            counted: "messages",
        })
    })
}

/// Where --delays says the wires' delays come from: the file it names, or the seed.
fn delay_source(args: &Args) -> anyhow::Result<DelaySource> {
    Ok(match &args.delays {
        None => DelaySource::Drawn,
        Some(path) => DelaySource::File(std::fs::read_to_string(path).map_err(|e| {
            input_error(anyhow::anyhow!(
                "cannot read --delays {}: {e}",
                path.display()
            ))
        })?),
    })
}

/// A delays file refused, with its name.
fn delays_error(args: &Args, error: DelayError) -> anyhow::Error {
    let path = args.delays.as_deref().unwrap_or(std::path::Path::new("-"));
    input_error(anyhow::anyhow!("--delays {}: {error}", path.display()))
}

/// Checks the router against its cycle model in every cycle.
fn router(
    args: &Args,
    params: &RouterParams,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    let seed = args.check.seed();
    let unit = args.check.router_unit(params)?;
    let heading = format!(
        "{}: {} random cycles (seed {seed})",
        unit.describe(),
        unit.cycle_count()
    );
    stream_unit(args, &heading, &unit, simulators)
}

/// Runs a function unit's vectors in each simulator and compares them with its golden model.
fn function_unit(
    unit: &dyn FunctionUnit,
    shard: Shard,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    let heading = format!(
        "{}: {} vectors",
        unit.describe(),
        shard.len_of(unit.vector_count())
    );
    in_each_simulator(&heading, simulators, |simulator| {
        let report = function::verify(simulator, unit, shard, SHOWN)?;
        Ok(Outcome {
            text: report.render(),
            passed: report.passed,
            failed: report.failed,
            counted: "vectors",
        })
    })
}

/// Checks the MRNS path generator path by path.
fn path_generator(
    args: &Args,
    params: &MrnsPathGenParams,
    shard: Shard,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    let unit = args.check.mrns_unit(params)?;
    let shard_text = match shard == Shard::WHOLE {
        true => String::new(),
        false => format!(", shard {shard}"),
    };
    let heading = format!(
        "{}: {}{shard_text}: {} vectors",
        unit.describe(),
        unit.selection(),
        shard.len_of(unit.vector_count())
    );
    in_each_simulator(&heading, simulators, |simulator| {
        let report = sequence::verify(simulator, &unit, shard, SHOWN, args.wave.as_deref())?;
        Ok(Outcome {
            text: report.render(),
            passed: report.passed,
            failed: report.failed,
            counted: "vectors",
        })
    })
}

/// Runs a stream unit in each simulator and compares every output in every cycle with its
/// model.
fn stream_unit(
    args: &Args,
    heading: &str,
    unit: &dyn StreamUnit,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    in_each_simulator(heading, simulators, |simulator| {
        let report = stream::verify(simulator, unit, SHOWN, args.wave.as_deref())?;
        Ok(Outcome {
            text: report.render(),
            passed: report.passed,
            failed: report.failed,
            counted: "cycles",
        })
    })
}

/// Checks the network switch against its cycle model in every cycle.
fn switch(
    args: &Args,
    params: &SwitchParams,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    let unit = args.check.switch_unit(params)?;
    let heading = format!(
        "{}: {} directed and {} random cycles (seed {}): {} cycles",
        unit.describe(),
        switch_traffic::DIRECTED_CYCLES,
        unit.cycle_count() - switch_traffic::DIRECTED_CYCLES,
        args.check.seed(),
        unit.cycle_count()
    );
    stream_unit(args, &heading, &unit, simulators)
}

/// Checks three self-timed switches in a ring against three synchronous models.
fn ring(
    args: &Args,
    params: &SwitchParams,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    if params.config.d() != 2 {
        return Err(input_error(anyhow::anyhow!(
            "the self-timed switch is checked in a bidirectional ring of three, which needs d = 2, got d = {}",
            params.config.d()
        )));
    }
    let fault = args.check.fault_of::<SelfTimedFault>("self-timed switch")?;
    let delays = delay_source(args)?;
    let ring = Ring {
        params: params.clone().with_self_timed_fault(fault),
        cycles: args.check.cycles.unwrap_or(ring::DEFAULT_CYCLES),
        seed: args.check.seed(),
        delays,
    };
    let delays = ring.delays().map_err(|e| delays_error(args, e))?;
    let heading = format!(
        "{}: {} switch-cycles",
        ring.describe(),
        ring::SWITCHES as u64 * ring.cycles
    );
    in_each_simulator(&heading, simulators, |simulator| {
        let report = ring.verify(simulator, &delays, SHOWN)?;
        Ok(Outcome {
            text: report.render(),
            passed: report.passed,
            failed: report.failed,
            counted: "switch-cycles",
        })
    })
}

/// One simulator's verdict on a unit checked in a single run.
struct Outcome {
    /// The report, ending with `<sim>: N passed, M failed`.
    text: String,
    passed: u64,
    failed: u64,
    /// What was counted: "vectors", "cycles", "switch-cycles".
    counted: &'static str,
}

impl Outcome {
    /// As the reports judge it: something ran and nothing failed.
    fn all_passed(&self) -> bool {
        self.failed == 0 && self.passed > 0
    }
}

/// Prints `heading`, then checks the unit in each simulator (a spinner on a terminal
/// meanwhile) and prints each report; fails naming every simulator that found failures.
fn in_each_simulator(
    heading: &str,
    simulators: &[Box<dyn Simulator>],
    check: impl Fn(&dyn Simulator) -> Result<Outcome, crate::sim::SimError>,
) -> anyhow::Result<()> {
    print_stdout(&format!("{heading}\n"))?;
    let mut failed = Vec::new();
    for simulator in simulators {
        let bar = progress::spinner(&format!("{}: building and simulating", simulator.name()));
        let outcome = check(simulator.as_ref());
        bar.finish_and_clear();
        let outcome = outcome?;
        print_stdout(&outcome.text)?;
        if !outcome.all_passed() {
            failed.push(format!(
                "{}: {} of {} {}",
                simulator.name(),
                outcome.failed,
                outcome.passed + outcome.failed,
                outcome.counted
            ));
        }
    }
    finish(failed)
}

/// Ok when no simulator failed; else the error that names each one's failures.
fn finish(failed: Vec<String>) -> anyhow::Result<()> {
    if !failed.is_empty() {
        bail!("verification failed ({})", failed.join("; "));
    }
    Ok(())
}

/// Checks the Kautz route generator route by route.
fn route_generator(
    args: &Args,
    params: &RouteGenParams,
    shard: Shard,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    let vectors = args.check.route_vectors(params, shard)?;
    let fault = args.check.route_fault()?;
    if params.arch == kautz_route::Arch::Pipelined {
        return route_engine(args, params, fault, vectors, simulators);
    }
    let (design, generated) = match &args.design {
        Some(dir) => (
            existing_design(dir, params, args.unit.top.as_deref())?,
            None,
        ),
        None => {
            let provenance = Provenance {
                command: format!(
                    "kautzgen verify {}",
                    Unit::Kautz(params.clone()).command_line()
                ),
            };
            let (design, dir) = scratch_design(params, fault, &provenance)?;
            (design, Some(dir))
        }
    };
    print_stdout(&format!("{}\n", vectors.describe()))?;
    let options = Options {
        wave: args.wave.clone(),
    };
    let mut failed = Vec::new();
    for simulator in simulators {
        let bar = progress::bar(vectors.len(), simulator.name(), "vectors");
        let report = verify(simulator.as_ref(), &design, &vectors, &options, &mut |n| {
            bar.inc(n)
        });
        bar.finish_and_clear();
        // A simulator's log names the design's files: keep a generated design beside it.
        let report = match report {
            Ok(report) => report,
            Err(e) => match generated {
                Some(dir) if e.keeps_files() => bail!(
                    "{e}; the generated design is kept in {}",
                    dir.keep().display()
                ),
                _ => return Err(e.into()),
            },
        };
        print_stdout(&report.render())?;
        if !report.all_passed() {
            failed.push(format!(
                "{}: {} of {} vectors",
                simulator.name(),
                report.failed,
                report.passed + report.failed
            ));
        }
    }
    finish(failed)
}

/// Checks the pipelined route engine cycle by cycle, its every route set against the
/// golden model.
fn route_engine(
    args: &Args,
    params: &RouteGenParams,
    fault: Option<kautz_route::Fault>,
    vectors: VectorSet,
    simulators: &[Box<dyn Simulator>],
) -> anyhow::Result<()> {
    let seed = args.check.seed();
    let described = vectors.describe();
    let unit = PipeUnit::new(params.clone(), fault, vectors, seed).map_err(input_error)?;
    let heading = format!(
        "{described}; offered in {} cycles, no pair one cycle in {} and out_ready low one in {} (seed {seed})",
        unit.cycles().len(),
        route_pipe::GAP_ONE_IN,
        route_pipe::STALL_ONE_IN,
    );
    stream_unit(args, &heading, &unit, simulators)
}

/// Reads the design in `dir` and checks it is the one asked for.
fn existing_design(
    dir: &Path,
    params: &RouteGenParams,
    top: Option<&str>,
) -> anyhow::Result<Design> {
    let design = Design::load(dir).map_err(input_error)?;
    design.check_graph(&params.graph).map_err(input_error)?;
    if let Some(top) = top
        && top != design.top()
    {
        return Err(input_error(anyhow::anyhow!(
            "--top {top}: the design in {} has the top '{}'",
            dir.display(),
            design.top()
        )));
    }
    Ok(design)
}
