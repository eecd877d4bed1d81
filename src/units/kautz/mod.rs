//! The Kautz route generator of the route-generator paper (Smit et al. 1991), the default
//! unit: the d node-disjoint routes of K(d,k) between two nodes, shortest first, in three
//! architectures. The faithful and parallel designs are sequence units, a route per
//! request ([`sequence`]); the pipelined engine is a stream unit, a route set per clock
//! ([`pipelined`]).

pub mod pipelined;
pub mod sequence;

use crate::choice::Choice;
use crate::input::{InputError, input_error};
use crate::rtl::ir::Design;
use crate::rtl::kautz_route::parallel as rtl_parallel;
use crate::rtl::kautz_route::pipelined as rtl_pipelined;
use crate::rtl::kautz_route::{self, Arch, Fault, RouteGenParams, faithful};
use crate::sim::sequence::SequenceUnit;
use crate::sim::stream::StreamUnit;
use crate::sim::vectors::{Shard, VectorSet};
use crate::units::check::{Check, Family, FamilyCheck};
use crate::units::choice_arg::choice;
use crate::units::options::{And, FaultArg, PairsArg, ShardArg, WaveArg, read};
use crate::units::{Declared, HardwareUnit, Purpose};
use clap::ArgMatches;
use pipelined::{GAP_ONE_IN, PipeUnit, STALL_ONE_IN};
use sequence::{DesignDir, RouteGenUnit};
use std::path::PathBuf;

/// The Kautz digraph K(d,k) and the architecture.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Args {
    /// Degree of K(d,k): letters are 0..=d (1 to 255).
    #[arg(long)]
    pub d: Option<u64>,
    /// Word length and diameter of K(d,k) (1 to 64).
    #[arg(long)]
    pub k: Option<u64>,
    /// The route-generator paper's design (Smit et al. 1991), one overlap or letter per
    /// clock; one route per clock with the same ports; or the pipelined engine
    /// kautz_route_pipe, a route set per clock [default: faithful].
    #[arg(long, value_parser = choice::<Arch>())]
    pub arch: Option<Arch>,
}

/// What `verify` runs beyond the selection of pairs.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Running {
    #[command(flatten)]
    shard: ShardArg,
    #[command(flatten)]
    wave: WaveArg,
    /// Verify the design in DIR (its manifest.json and the HDL files it lists, as
    /// `kautzgen generate` writes them) instead of generating one.
    #[arg(long, value_name = "DIR")]
    design: Option<PathBuf>,
}

/// The kautz unit, as the registry lists it.
pub static KIND: Declared<Args, And<PairsArg, FaultArg>, Running> = Declared {
    name: "kautz",
    aliases: &["kautz-route-gen"],
    about: "The route generator for K(d,k) of the route-generator paper (Smit et al. 1991): the d node-disjoint routes, shortest first (the default unit)",
    docs: "docs/route-generator.md",
    unit: KautzUnit::from_args,
    options: PhantomData,
};

/// The route generator with validated parameters.
pub struct KautzUnit {
    pub params: RouteGenParams,
    /// Whether --arch and --top were given: a design read with --design has its own.
    arch_given: bool,
    top_given: bool,
}

impl KautzUnit {
    /// The unit the options describe, validated.
    fn from_args(args: Args, top: Option<&str>) -> Result<Box<dyn HardwareUnit>, InputError> {
        let (Some(d), Some(k)) = (args.d, args.k) else {
            return Err(input_error(
                "the route generator needs --d and --k (the Kautz digraph K(d,k))",
            ));
        };
        let arch = args.arch.unwrap_or_default();
        let top_given = top.is_some();
        let top = top.unwrap_or(arch.default_top());
        let params = RouteGenParams::new(d, k, top).map_err(input_error)?;
        Ok(Box::new(KautzUnit {
            params: params.with_arch(arch),
            arch_given: args.arch.is_some(),
            top_given,
        }))
    }

    pub fn new(params: RouteGenParams) -> Self {
        KautzUnit {
            params,
            arch_given: false,
            top_given: false,
        }
    }
}

impl HardwareUnit for KautzUnit {
    fn name(&self) -> String {
        match self.params.arch {
            Arch::Faithful => "kautz-route-gen",
            Arch::Parallel => "kautz-route-gen-parallel",
            Arch::Pipelined => "kautz-route-pipe",
        }
        .to_string()
    }

    fn command_line(&self) -> String {
        let p = &self.params;
        let mut words = format!("--d {} --k {}", p.d(), p.k());
        if p.arch != Arch::Faithful {
            words += &format!(" --arch {}", p.arch.name());
        }
        if p.top != p.arch.default_top() {
            words += &format!(" --top {}", p.top);
        }
        words
    }

    fn design(&self) -> Design {
        kautz_route::design(&self.params)
    }

    fn timing(&self) -> String {
        let p = &self.params;
        match p.arch {
            Arch::Faithful => format!(
                "each route_valid or done follows init or next_route within {} cycles",
                faithful::cycle_bound(p.d(), p.k())
            ),
            Arch::Parallel => format!(
                "the first route_valid or done {} cycles after init, each further one the cycle after next_route",
                rtl_parallel::CYCLE_BOUND
            ),
            Arch::Pipelined => format!(
                "a pair accepted every clock; its route set on the outputs {} clock edges later unless out_ready stalls it",
                rtl_pipelined::latency(p.d())
            ),
        }
    }

    fn check(&self, matches: &ArgMatches, purpose: Purpose) -> Result<Box<dyn Check>, InputError> {
        let selection: PairsArg = read(matches)?;
        let fault = read::<FaultArg>(matches)?.parse::<Fault>("Kautz route generator")?;
        let running: Option<Running> = purpose.runs().then(|| read(matches)).transpose()?;
        let pairs = selection.pairs()?;
        let design_dir = match running.as_ref().and_then(|r| r.design.as_deref()) {
            Some(dir) => Some(self.design_dir(dir, fault.is_some())?),
            None => None,
        };
        let vectors =
            VectorSet::new(&self.params.graph, pairs, Shard::WHOLE).map_err(input_error)?;
        if self.params.arch == Arch::Pipelined {
            let described = vectors.describe();
            let seed = selection.seed.unwrap_or(1);
            let engine =
                PipeUnit::new(self.params.clone(), fault, vectors, seed).map_err(input_error)?;
            let heading = format!(
                "{described}; offered in {} cycles, no pair one cycle in {GAP_ONE_IN} and out_ready low one in {STALL_ONE_IN} (seed {seed})",
                engine.cycles().len(),
            );
            return Ok(Box::new(FamilyCheck::stream(Box::new(engine), heading)));
        }
        let mut unit = RouteGenUnit::new(self.params.clone(), fault, vectors);
        if let Some(dir) = design_dir {
            unit = unit.reading(dir);
        }
        Ok(Box::new(FamilyCheck {
            heading: SequenceUnit::describe(&unit),
            unit: Family::Sequence(Box::new(unit)),
        }))
    }

    fn cycles_by_design(&self) -> Option<u64> {
        (self.params.arch == Arch::Pipelined).then_some(1)
    }
}

impl KautzUnit {
    /// The design in `dir`, which must be this K(d,k)'s and have this top if one was named.
    fn design_dir(&self, dir: &std::path::Path, fault: bool) -> Result<DesignDir, InputError> {
        if self.arch_given {
            return Err(input_error(
                "--arch builds a design; one read with --design has its own (its manifest's cycle_bound)",
            ));
        }
        if fault {
            return Err(input_error(
                "--fault builds a design with a fault; one read with --design has none to add",
            ));
        }
        let design = DesignDir::load(dir, &self.params.graph).map_err(input_error)?;
        if self.top_given && self.params.top != design.top() {
            return Err(input_error(format!(
                "--top {}: the design in {} has the top '{}'",
                self.params.top,
                dir.display(),
                design.top()
            )));
        }
        Ok(design)
    }
}
use std::marker::PhantomData;
