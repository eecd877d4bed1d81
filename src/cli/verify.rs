//! `kautzgen verify`: simulates a unit in Verilator and GHDL and compares it with its golden
//! model: the Kautz route generator route by route, the function units vector by vector.

use crate::cli::unit::{UnitSelection, Verify as VerifyPurpose};
use crate::cli::{input_error, output::print_stdout, progress};
use crate::interrupt::scratch;
use crate::output::dir::OutputDir;
use crate::sim::Simulator;
use crate::sim::ghdl::Ghdl;
use crate::sim::icarus::Icarus;
use crate::sim::verilator::Verilator;
use crate::units::check::{Run, Simulation};
use anyhow::bail;
use clap::ValueEnum;
use std::path::PathBuf;

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
    unit: UnitSelection<VerifyPurpose>,
    /// Simulators to run.
    #[arg(global = true, long, value_enum, default_value_t = Sim::All)]
    sim: Sim,
    /// Keep the generated designs and every simulator's work (testbench, vectors, logs,
    /// waves) in DIR, one numbered folder each; DIR is created, or replaced whole if
    /// kautzgen wrote it.
    #[arg(global = true, long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Use --keep's DIR even when kautzgen did not write it.
    #[arg(global = true, long, requires = "keep")]
    force: bool,
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

/// The job of a shardable verify command line; `None` for one that runs whole.
pub fn job(_args: Args) -> anyhow::Result<Option<Box<dyn crate::cli::shard::Job>>> {
    Ok(None)
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
    let (unit, check) = args.unit.resolve_check()?;
    let simulators = simulators(args.sim, check.simulation(), &unit.name())?;
    let wave = args.unit.wave();
    if let Some(wave) = &wave {
        crate::output::file::check(wave)?;
        if simulators.len() > 1 {
            return Err(input_error(anyhow::anyhow!(
                "--wave writes the waves of one simulator: add --sim verilator or --sim ghdl"
            )));
        }
    }
    print_stdout(&format!("{}\n", check.heading()))?;
    let mut failed = Vec::new();
    for simulator in &simulators {
        let bar = match check.batched_vectors() {
            Some(count) => progress::bar(count, simulator.name(), "vectors"),
            None => progress::spinner(&format!("{}: building and simulating", simulator.name())),
        };
        let progress = |n| bar.inc(n);
        let run = Run {
            wave: wave.as_deref(),
            progress: &progress,
            ..Run::default()
        };
        let verdict = check.verify(simulator.as_ref(), run);
        bar.finish_and_clear();
        let verdict = verdict?;
        print_stdout(&verdict.text)?;
        if !verdict.all_passed() {
            failed.push(format!(
                "{}: {} of {} {}",
                simulator.name(),
                verdict.failed,
                verdict.passed + verdict.failed,
                check.counted()
            ));
        }
    }
    if !failed.is_empty() {
        bail!("verification failed ({})", failed.join("; "));
    }
    Ok(())
}

/// The simulators of `sim` that can run a check simulated as `simulation`.
fn simulators(
    sim: Sim,
    simulation: Simulation,
    unit: &str,
) -> anyhow::Result<Vec<Box<dyn Simulator>>> {
    let delayed = simulation == Simulation::DelayedWires;
    Ok(match (sim, delayed) {
        (Sim::Verilator, false) => vec![Box::new(Verilator::default())],
        (Sim::Ghdl, _) => vec![Box::new(Ghdl::default())],
        (Sim::Icarus, _) => vec![Box::new(Icarus::default())],
        (Sim::All, false) => vec![Box::new(Verilator::default()), Box::new(Ghdl::default())],
        (Sim::All, true) => vec![Box::new(Ghdl::default()), Box::new(Icarus::default())],
        (Sim::Verilator, true) => {
            return Err(input_error(anyhow::anyhow!(
                "Verilator cannot simulate the self-timed {unit} (its clocks come through wires with delays): use --sim ghdl or --sim icarus"
            )));
        }
    })
}
