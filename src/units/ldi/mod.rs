//! The units of LDI(M,S) of Melhem's LDI paper: next-hop units (Theorem 3, two-hop,
//! shortest), switch settings as logic or ROM, and a crossbar that applies them; function
//! units checked on every input they are specified for ([`vectors`]).

pub mod vectors;

use crate::choice::Choice;
use crate::input::{InputError, input_error};
use crate::rtl::ir::Design;
use crate::rtl::ldi_units::{self, DEFAULT_DATA_BITS, LdiFault, LdiUnitKind, LdiUnitParams};
use crate::units::check::{Check, FamilyCheck};
use crate::units::choice_arg::choice;
use crate::units::options::{FaultArg, ShardArg, read};
use crate::units::{Declared, HardwareUnit, Purpose, latency_text};
use clap::ArgMatches;
use vectors::LdiUnit;

/// The LDI network and which of its units.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Args {
    /// Which unit of the network.
    #[arg(
        long,
        value_parser = choice::<LdiUnitKind>(),
        default_value = LdiUnitKind::Theorem3.name()
    )]
    pub kind: LdiUnitKind,
    /// Number of nodes M (more than S).
    #[arg(long)]
    pub m: u64,
    /// Out-degree S (at least 2).
    #[arg(long)]
    pub s: u64,
    /// Register the outputs: one clock edge from inputs to outputs.
    #[arg(long)]
    pub registered: bool,
    /// Bits of data per crossbar port (crossbar only).
    #[arg(long, default_value_t = DEFAULT_DATA_BITS)]
    pub data_bits: u32,
}

/// The ldi unit, as the registry lists it.
pub static KIND: Declared<Args, FaultArg, ShardArg> = Declared {
    name: "ldi",
    aliases: &[],
    about: "LDI(M,S) of Melhem's LDI paper: next-hop units (Theorem 3, two-hop, shortest), switch settings as logic or ROM, and a crossbar that applies them",
    docs: "docs/ldi-units.md",
    unit: Ldi::from_args,
    options: PhantomData,
};

/// An LDI unit with validated parameters.
pub struct Ldi(pub LdiUnitParams);

impl Ldi {
    /// The unit the options describe, validated.
    fn from_args(args: Args, top: Option<&str>) -> Result<Box<dyn HardwareUnit>, InputError> {
        if args.kind != LdiUnitKind::Crossbar && args.data_bits != DEFAULT_DATA_BITS {
            return Err(input_error(format!(
                "--data-bits sizes the crossbar's data ports; the {} unit has none",
                args.kind.name()
            )));
        }
        let mut params = LdiUnitParams::new(args.kind, args.m, args.s)
            .and_then(|p| p.with_data_bits(args.data_bits))
            .map_err(input_error)?
            .registered(args.registered);
        if let Some(top) = top {
            params = params.with_top(top);
        }
        Ok(Box::new(Ldi(params)))
    }
}

impl HardwareUnit for Ldi {
    fn name(&self) -> String {
        format!("ldi-{}", self.0.kind().name())
    }

    fn command_line(&self) -> String {
        let p = &self.0;
        let mut words = format!(
            "ldi --kind {} --m {} --s {}",
            p.kind().name(),
            p.ldi().m(),
            p.ldi().s()
        );
        if p.kind() == LdiUnitKind::Crossbar {
            words += &format!(" --data-bits {}", p.data_bits());
        }
        if p.is_registered() {
            words += " --registered";
        }
        if p.top() != p.kind().default_top() {
            words += &format!(" --top {}", p.top());
        }
        words
    }

    fn design(&self) -> Design {
        ldi_units::design(&self.0)
    }

    fn timing(&self) -> String {
        latency_text(u32::from(self.0.is_registered()))
    }

    fn check(&self, matches: &ArgMatches, _: Purpose) -> Result<Box<dyn Check>, InputError> {
        let fault = read::<FaultArg>(matches)?.parse::<LdiFault>("LDI unit")?;
        let params = self.0.clone().with_fault(fault).map_err(input_error)?;
        Ok(Box::new(FamilyCheck::function(Box::new(LdiUnit::new(
            params,
        )))))
    }
}
use std::marker::PhantomData;
