//! The path generator of MRNS (generalised hypercube) networks of Choi and Chung's MRNS
//! paper: the sum (m_i - 1) node-disjoint paths between two nodes, one per request; a
//! sequence unit checked path by path ([`paths`]).

pub mod paths;

use crate::input::{InputError, input_error};
use crate::rtl::ir::Design;
use crate::rtl::mrns_path_gen::{self, Fault, MrnsPathGenParams};
use crate::sim::sequence::SequenceUnit;
use crate::sim::vectors::Pairs;
use crate::topology::mrns::Mrns;
use crate::units::check::{Check, Family, FamilyCheck};
use crate::units::options::{And, FaultArg, PairsArg, ShardArg, WaveArg, read};
use crate::units::{Declared, HardwareUnit, Purpose};
use clap::ArgMatches;
use paths::MrnsPathUnit;

/// The MRNS network.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Args {
    /// Radices, most significant dimension first: 2,3,3,4 is Z2xZ3xZ3xZ4 (1 to 16
    /// dimensions, radices 2 to 256).
    #[arg(long)]
    pub radices: String,
}

/// The mrns unit, as the registry lists it.
pub static KIND: Declared<Args, And<PairsArg, FaultArg>, And<ShardArg, WaveArg>> = Declared {
    name: "mrns",
    aliases: &["mrns-path-gen"],
    about: "MRNS (generalised hypercube) of Choi and Chung's MRNS paper: the generator of the sum (m_i - 1) node-disjoint paths between two nodes, one per request",
    docs: "docs/mrns-path-gen.md",
    unit: MrnsPaths::from_args,
    options: PhantomData,
};

/// The MRNS path generator with validated parameters.
pub struct MrnsPaths(pub MrnsPathGenParams);

impl MrnsPaths {
    /// The unit the options describe, validated.
    fn from_args(args: Args, top: Option<&str>) -> Result<Box<dyn HardwareUnit>, InputError> {
        let network = Mrns::parse(&args.radices).map_err(input_error)?;
        let params = MrnsPathGenParams::for_network(network).map_err(input_error)?;
        Ok(Box::new(MrnsPaths(
            params.with_top(top.unwrap_or(mrns_path_gen::DEFAULT_TOP)),
        )))
    }
}

impl HardwareUnit for MrnsPaths {
    fn name(&self) -> String {
        "mrns-path-gen".to_string()
    }

    fn command_line(&self) -> String {
        let p = &self.0;
        let radices: Vec<String> = p
            .network()
            .written_radices()
            .iter()
            .map(usize::to_string)
            .collect();
        let mut words = format!("mrns --radices {}", radices.join(","));
        if p.top() != mrns_path_gen::DEFAULT_TOP {
            words += &format!(" --top {}", p.top());
        }
        words
    }

    fn design(&self) -> Design {
        mrns_path_gen::design(&self.0)
    }

    fn timing(&self) -> String {
        format!(
            "each path_valid or done follows init or next_path within {} cycles",
            self.0.cycle_bound()
        )
    }

    fn check(&self, matches: &ArgMatches, _: Purpose) -> Result<Box<dyn Check>, InputError> {
        let selection: PairsArg = read(matches)?;
        let fault = read::<FaultArg>(matches)?.parse::<Fault>("MRNS path generator")?;
        let params = self.0.clone();
        let mut unit = match selection.pairs()? {
            Pairs::All => MrnsPathUnit::new(params),
            Pairs::Sample { count, seed } => MrnsPathUnit::sampled(params, count, seed),
        }
        .map_err(input_error)?;
        if let Some(fault) = fault {
            unit = unit.with_fault(fault);
        }
        let heading = format!(
            "{}: {}: {} vectors",
            unit.describe(),
            unit.selection(),
            unit.vector_count()
        );
        Ok(Box::new(FamilyCheck {
            unit: Family::Sequence(Box::new(unit)),
            heading,
        }))
    }
}
use std::marker::PhantomData;
