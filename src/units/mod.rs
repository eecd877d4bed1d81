//! The hardware units, one folder each, and the one registry that lists them.
//!
//! A unit is everything kautzgen knows about one piece of hardware: its parameters as the
//! command line takes them (a clap `Args` struct of its own), the IR generator that builds
//! it, the golden model and the vectors or traffic it is checked on, its deliberate
//! faults, what it promises about its timing, and its documentation page. `generate`,
//! `verify`, `synth`, `prove` and the exported testbenches iterate [`REGISTRY`]; no
//! command matches on the kind of unit. Adding a unit is one folder here and one line in
//! [`REGISTRY`] (docs/adding-a-unit.md).
//!
//! Layers: a unit joins what lies below it (topology, routing, network models, rtl, emit,
//! sim) and is used by the command line above it, which parses only what the unit
//! declares.

pub mod check;
pub mod choice_arg;
pub mod kautz;
pub mod ldi;
pub mod mrns;
pub mod network;
pub mod options;
pub mod reset;
pub mod restyled;
pub mod router;
pub mod switch;
pub mod topology_args;
pub mod torus;

use crate::input::InputError;
use crate::rtl::ir::Design;
use check::Check;
use clap::{ArgMatches, Args, Command};
use options::read;
use std::marker::PhantomData;

/// Every unit, in the order `--help` lists them; the first is the default unit of a
/// command given no unit's name.
pub static REGISTRY: &[&dyn UnitKind] = &[
    &kautz::KIND,
    &ldi::KIND,
    &mrns::KIND,
    &torus::KIND,
    &switch::KIND,
    &router::KIND,
    &network::KIND,
];

/// The default unit, built from options given to the command itself
/// (`kautzgen generate --d 4 --k 5`).
pub fn default_kind() -> &'static dyn UnitKind {
    REGISTRY[0]
}

/// The unit called `name` on the command line (its name or an alias).
pub fn find(name: &str) -> Option<&'static dyn UnitKind> {
    REGISTRY
        .iter()
        .copied()
        .find(|kind| kind.name() == name || kind.aliases().contains(&name))
}

/// What a command does with a unit, which decides the options the unit offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Builds the design only (`synth`, `prove`): the design parameters.
    Build,
    /// Writes the design, and with `--testbench` or `--fault` the design as checked
    /// (`generate`): the design parameters and what the check selects.
    Generate,
    /// Checks the design in simulators (`verify`): the design parameters, what the check
    /// selects, and how it runs (shards, waves, delays).
    Verify,
}

impl Purpose {
    /// Whether the command takes what a check selects (pairs, cycles, seed, faults).
    pub fn checks(self) -> bool {
        self != Purpose::Build
    }

    /// Whether the command runs simulators.
    pub fn runs(self) -> bool {
        self == Purpose::Verify
    }
}

/// One kind of hardware unit, as the registry lists it. Every unit is a [`Declared`].
pub trait UnitKind: Sync {
    /// Its subcommand name: `switch`.
    fn name(&self) -> &'static str;
    /// Other names the command line accepts: `kautz-switch`.
    fn aliases(&self) -> &'static [&'static str];
    /// One line for the list of units in `--help`, naming the paper it comes from.
    fn about(&self) -> &'static str;
    /// Its page under docs/.
    fn docs(&self) -> &'static str;
    /// `command` with the unit's options for `purpose` added.
    fn args(&self, command: Command, purpose: Purpose) -> Command;
    /// The unit the options in `matches` describe, validated; `top` is the top's name
    /// when the user chose one.
    fn unit(
        &self,
        matches: &ArgMatches,
        top: Option<&str>,
    ) -> Result<Box<dyn HardwareUnit>, InputError>;
}

/// Turns a unit's design parameters and the top's name, when the user chose one, into the
/// validated unit.
pub type Build<P> = fn(P, Option<&str>) -> Result<Box<dyn HardwareUnit>, InputError>;

/// A unit declared by its names and its options, each a clap `Args` struct: `P` its design
/// parameters (every command), `S` what a check selects (`generate` and `verify`), `R` how
/// `verify` runs it.
pub struct Declared<P, S, R> {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub about: &'static str,
    pub docs: &'static str,
    pub unit: Build<P>,
    pub options: PhantomData<fn() -> (S, R)>,
}

impl<P: Args, S: Args, R: Args> UnitKind for Declared<P, S, R> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn aliases(&self) -> &'static [&'static str] {
        self.aliases
    }

    fn about(&self) -> &'static str {
        self.about
    }

    fn docs(&self) -> &'static str {
        self.docs
    }

    fn args(&self, command: Command, purpose: Purpose) -> Command {
        let mut command = P::augment_args(command);
        if purpose.checks() {
            command = S::augment_args(command);
        }
        if purpose.runs() {
            command = R::augment_args(command);
        }
        command
    }

    fn unit(
        &self,
        matches: &ArgMatches,
        top: Option<&str>,
    ) -> Result<Box<dyn HardwareUnit>, InputError> {
        (self.unit)(read(matches)?, top)
    }
}

/// A unit with validated parameters, ready to be built, checked and synthesised.
pub trait HardwareUnit {
    /// Its name in reports: `kautz-route-gen`, `ldi-theorem3`, `switch`.
    fn name(&self) -> String;
    /// Its parameters as they would be typed after the command's name.
    fn command_line(&self) -> String;
    /// Its hardware.
    fn design(&self) -> Design;
    /// What it promises about its timing, for the line `generate` prints.
    fn timing(&self) -> String;
    /// The check that the options in `matches` (of a command of purpose `Generate` or
    /// `Verify`) select: the design with any deliberate fault built in, its vectors or
    /// traffic and the golden model's answers.
    fn check(&self, matches: &ArgMatches, purpose: Purpose) -> Result<Box<dyn Check>, InputError>;
    /// Cycles per result that synthesis reports take from the design itself rather than
    /// from a verification run: the pipelined route engine gives a set per clock.
    fn cycles_by_design(&self) -> Option<u64> {
        None
    }
}

/// The timing of a unit whose outputs follow its inputs after `edges` clock edges.
pub(crate) fn latency_text(edges: u32) -> String {
    match edges {
        0 => "combinational".to_string(),
        1 => "outputs registered: 1 clock edge from inputs to outputs".to_string(),
        n => format!("{n} clock edges from inputs to outputs"),
    }
}
