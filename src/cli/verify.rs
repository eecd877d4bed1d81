//! `kautzgen verify`: simulates a unit in Verilator and GHDL and compares it with its golden
//! model: the Kautz route generator route by route, the function units vector by vector.
//!
//! In: the unit and its check, the simulators. Out: the report (the check's heading, then
//! each simulator's verdict), on standard output or in `--out FILE`; exit status 1 if a
//! vector failed. A check of independent vectors (function and sequence units) is a
//! shardable command ([`Verification`]): with `--shard I/N` it writes a part, the outcome
//! of each of its vectors in each simulator, which `kautzgen merge` joins
//! ([`crate::cli::shard`]).

use crate::cli::output::{check_out, write_or_print};
use crate::cli::shard::{self, Job, Shardable};
use crate::cli::unit::{UnitSelection, Verify as VerifyPurpose};
use crate::cli::{input_error, progress};
use crate::interrupt::scratch;
use crate::output::dir::OutputDir;
use crate::sim::Simulator;
use crate::sim::ghdl::Ghdl;
use crate::sim::icarus::Icarus;
use crate::sim::outcome::Outcome;
use crate::sim::verilator::Verilator;
use crate::units::check::{Check, Run, Simulation, Vectors, Verdict};
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
/// failed` per simulator; exits 1 on any failure. With --shard I/N (the units that take
/// it), writes the outcomes of its vectors to --out FILE, a part that `kautzgen merge`
/// joins with the other shards' into the report of the whole check.
#[derive(Debug, clap::Args)]
#[command(
    subcommand_value_name = "UNIT",
    subcommand_help_heading = "Units",
    disable_help_subcommand = true,
    after_help = "Examples:
  kautzgen verify --d 2 --k 3 --pairs all
  kautzgen verify --d 3 --k 3 --pairs all --arch parallel
  kautzgen verify --d 4 --k 5 --sim ghdl --pairs 500 --seed 7
  kautzgen verify --d 4 --k 5 --pairs all --shard 3/8 --out part-3.json
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
    /// Write the report to FILE instead of standard output; with --shard, the part.
    #[arg(global = true, long, value_name = "FILE")]
    out: Option<PathBuf>,
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

/// The job of a verify command line whose check is independent vectors; `None` for one
/// that runs whole.
pub fn job(args: Args) -> anyhow::Result<Option<Box<dyn Job>>> {
    let verification = Verification::of(args)?;
    Ok(match verification.check.vectors() {
        Some(_) => Some(Box::new(verification)),
        None => None,
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let shard = args.unit.shard()?;
    let out = args.out.clone();
    let verification = Verification::of(args)?;
    match (verification.check.vectors().is_some(), shard) {
        (true, shard) => shard::execute(&verification, shard, out.as_deref()),
        (false, None) => verification.whole(),
        (false, Some(_)) => Err(input_error(anyhow::anyhow!(
            "--shard splits independent vectors, and this check runs its {} as one: verify it whole",
            verification.check.counted()
        ))),
    }
}

/// A unit's check in each simulator, what to keep of the simulators' work, and where the
/// report goes.
pub struct Verification {
    check: Box<dyn Check>,
    simulators: Vec<Box<dyn Simulator>>,
    wave: Option<PathBuf>,
    keep: Option<PathBuf>,
    force: bool,
    out: Option<PathBuf>,
}

impl Verification {
    /// The verification of the command line, checked.
    fn of(args: Args) -> anyhow::Result<Verification> {
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
        Ok(Verification {
            check,
            simulators,
            wave,
            keep: args.keep,
            force: args.force,
            out: args.out,
        })
    }

    /// The check's vectors, for a verification that runs in shards.
    fn vectors(&self) -> &dyn Vectors {
        self.check
            .vectors()
            .expect("only a check of independent vectors is a shardable verification")
    }

    /// Runs `simulate` in each simulator, with a progress bar of `vectors` vectors where
    /// the check runs in batches, and with the simulators' work in `--keep`'s DIR if given.
    fn each_simulator<T>(
        &self,
        vectors: u64,
        simulate: impl Fn(&dyn Simulator, Run) -> Result<T, crate::sim::SimError>,
    ) -> anyhow::Result<Vec<T>> {
        let kept = match &self.keep {
            Some(keep) => {
                let kept = OutputDir::in_place(keep, self.force)?;
                scratch::keep_all_in(kept.path());
                Some((kept, keep))
            }
            None => None,
        };
        let results = self
            .simulators
            .iter()
            .map(|simulator| {
                let bar = match self.check.batched() {
                    true => progress::bar(vectors, simulator.name(), "vectors"),
                    false => {
                        progress::spinner(&format!("{}: building and simulating", simulator.name()))
                    }
                };
                let progress = |n| bar.inc(n);
                let run = Run {
                    wave: self.wave.as_deref(),
                    progress: &progress,
                    ..Run::default()
                };
                let result = simulate(simulator.as_ref(), run);
                bar.finish_and_clear();
                result
            })
            .collect::<Result<Vec<T>, _>>();
        if let Some((kept, keep)) = kept {
            kept.commit()?;
            eprintln!("designs and simulator work kept in {}", keep.display());
        }
        Ok(results?)
    }

    /// Runs a check that is not independent vectors, whole, and reports it.
    fn whole(&self) -> anyhow::Result<()> {
        check_out(self.out.as_deref())?;
        let verdicts =
            self.each_simulator(0, |simulator, run| self.check.verify(simulator, run))?;
        self.report(&verdicts)
    }

    /// Writes the report of `verdicts`, one per simulator; an error naming the simulators
    /// that failed vectors.
    fn report(&self, verdicts: &[Verdict]) -> anyhow::Result<()> {
        let mut text = format!("{}\n", self.check.heading());
        let mut failed = Vec::new();
        for (simulator, verdict) in self.simulators.iter().zip(verdicts) {
            text += &verdict.text;
            if !verdict.all_passed() {
                failed.push(format!(
                    "{}: {} of {} {}",
                    simulator.name(),
                    verdict.failed,
                    verdict.passed + verdict.failed,
                    self.check.counted()
                ));
            }
        }
        write_or_print(self.out.as_deref(), &text)?;
        if !failed.is_empty() {
            bail!("verification failed ({})", failed.join("; "));
        }
        Ok(())
    }
}

impl Shardable for Verification {
    /// A vector's outcome in each simulator, in the simulators' order.
    type Result = Vec<Outcome>;
    type Output = ();

    fn items(&self) -> u64 {
        self.vectors().count()
    }

    fn run(&self, positions: &[u64]) -> anyhow::Result<Vec<Vec<Outcome>>> {
        let vectors = self.vectors();
        let by_simulator = self.each_simulator(positions.len() as u64, |simulator, run| {
            vectors.outcomes(simulator, positions, run)
        })?;
        let mut by_simulator: Vec<_> = by_simulator.into_iter().map(Vec::into_iter).collect();
        Ok((0..positions.len())
            .map(|_| by_simulator.iter_mut().filter_map(Iterator::next).collect())
            .collect())
    }

    fn claim(&self) -> anyhow::Result<()> {
        check_out(self.out.as_deref())
    }

    fn finish(&self, (): (), outcomes: Vec<Vec<Outcome>>) -> anyhow::Result<()> {
        if let Some(position) = outcomes
            .iter()
            .position(|o| o.len() != self.simulators.len())
        {
            return Err(input_error(anyhow::anyhow!(
                "vector {position} has {} outcomes, not one per simulator ({})",
                outcomes[position].len(),
                self.simulators.len()
            )));
        }
        let shown = Run::default().shown;
        let verdicts: Vec<Verdict> = self
            .simulators
            .iter()
            .enumerate()
            .map(|(s, simulator)| {
                let of_simulator: Vec<Outcome> = outcomes.iter().map(|o| o[s].clone()).collect();
                self.vectors()
                    .verdict(simulator.name(), &of_simulator, shown)
            })
            .collect();
        self.report(&verdicts)
    }
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
