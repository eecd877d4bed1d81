//! The routing function of one node of a k-ary n-cube, from Demaine and Srinivas's k-ary
//! n-cube paper (e-cube, double e-cube, west-first, direction-first), with a mask of
//! faulty or busy links; a function unit checked on every input of the cube and along
//! every route ([`vectors`]).

pub mod vectors;

use crate::choice::Choice;
use crate::input::{InputError, input_error};
use crate::routing::torus::Algorithm;
use crate::rtl::ir::Design;
use crate::rtl::torus_router::{self, TorusFault, TorusRouterParams};
use crate::units::check::{Check, FamilyCheck};
use crate::units::choice_arg::choice;
use crate::units::options::{And, FaultArg, ShardArg, read};
use crate::units::{Declared, HardwareUnit, Purpose, latency_text};
use clap::{ArgMatches, ValueEnum};
use vectors::{Headers, TorusUnit, single_faults};

/// The cube and the algorithm.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Args {
    /// Ring size: nodes per dimension (2 to 65536).
    #[arg(long)]
    pub k: u64,
    /// Number of dimensions (1 to 32).
    #[arg(long)]
    pub n: u64,
    /// Routing algorithm.
    #[arg(long, value_parser = choice::<Algorithm>(), default_value = Algorithm::ECube.name())]
    pub algo: Algorithm,
    /// Register the outputs: one clock edge from inputs to outputs.
    #[arg(long)]
    pub registered: bool,
}

/// Which vectors a check runs.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Selection {
    /// Which vectors to run [default: both].
    #[arg(long, value_enum)]
    vectors: Option<TorusVectors>,
}

/// The vectors of the torus unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TorusVectors {
    /// Every input of the cube, then the walks.
    Both,
    /// Every node, destination, reachable header and mask.
    EveryInput,
    /// The router evaluations along every route, with no fault and each single fault.
    Walks,
}

/// The torus unit, as the registry lists it.
pub static KIND: Declared<Args, And<FaultArg, Selection>, ShardArg> = Declared {
    name: "torus",
    aliases: &[],
    about: "The routing function of one node of a k-ary n-cube, from Demaine and Srinivas's k-ary n-cube paper (e-cube, double e-cube, west-first, direction-first), with a mask of faulty or busy links",
    docs: "docs/torus-router.md",
    unit: TorusRouter::from_args,
    options: PhantomData,
};

/// The torus routing unit with validated parameters.
pub struct TorusRouter(pub TorusRouterParams);

impl TorusRouter {
    /// The unit the options describe, validated.
    fn from_args(args: Args, top: Option<&str>) -> Result<Box<dyn HardwareUnit>, InputError> {
        TorusRouterParams::new(
            args.k,
            args.n,
            args.algo,
            args.registered,
            top.unwrap_or(torus_router::DEFAULT_TOP),
        )
        .map(|params| Box::new(TorusRouter(params)) as Box<dyn HardwareUnit>)
        .map_err(input_error)
    }
}

impl HardwareUnit for TorusRouter {
    fn name(&self) -> String {
        format!("torus-{}", self.0.algorithm().name())
    }

    fn command_line(&self) -> String {
        let p = &self.0;
        let mut words = format!(
            "torus --k {} --n {} --algo {}",
            p.k(),
            p.n(),
            p.algorithm().name()
        );
        if p.registered {
            words += " --registered";
        }
        if p.top != torus_router::DEFAULT_TOP {
            words += &format!(" --top {}", p.top);
        }
        words
    }

    fn design(&self) -> Design {
        torus_router::design(&self.0)
    }

    fn timing(&self) -> String {
        latency_text(self.0.latency())
    }

    fn check(&self, matches: &ArgMatches, _: Purpose) -> Result<Box<dyn Check>, InputError> {
        let fault = read::<FaultArg>(matches)?.parse::<TorusFault>("torus unit")?;
        let selection: Selection = read(matches)?;
        let params = &self.0.clone().with_fault(fault);
        let faults = single_faults(params.router.torus(), 1, 1).map_err(input_error)?;
        let unit = match selection.vectors.unwrap_or(TorusVectors::Both) {
            TorusVectors::Both => TorusUnit::exhaustive(params.clone(), Headers::Reachable)
                .and_then(|unit| unit.with_walks(&faults)),
            TorusVectors::EveryInput => TorusUnit::exhaustive(params.clone(), Headers::Reachable),
            TorusVectors::Walks => TorusUnit::walks(params.clone(), &faults),
        }
        .map_err(input_error)?;
        Ok(Box::new(FamilyCheck::function(Box::new(unit))))
    }
}
use std::marker::PhantomData;
