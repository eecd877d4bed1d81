//! The unit a command builds, as the command line names it. `generate`, `verify`, `synth`
//! and `prove` take a unit of the registry ([`crate::units::REGISTRY`]) as a subcommand
//! with the options the unit declares for that command (`kautzgen generate ldi --m 18 --s 3
//! --out DIR`); without one they build the default unit, the Kautz route generator, from
//! the same options given to the command itself (`kautzgen generate --d 4 --k 5 --out
//! DIR`). The subcommands and their help come from the registry: nothing here knows a
//! unit by name.

use crate::choice::Choice;
use crate::cli::input_error;
use crate::emit::names::{Language, legalise, name_design};
use crate::rtl::ir::{Design, ResetStyle};
use crate::sim::vectors::Shard;
use crate::units::check::Check;
use crate::units::choice_arg::choice;
use crate::units::restyled::Restyled;
use crate::units::{self, HardwareUnit, Purpose, REGISTRY, UnitKind};
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Command};
use std::marker::PhantomData;
use std::path::PathBuf;

/// What the command taking a [`UnitSelection`] does with its unit.
pub trait CommandPurpose {
    const PURPOSE: Purpose;
}

/// `synth` and `prove`.
#[derive(Debug, Clone)]
pub struct Build;
/// `generate`.
#[derive(Debug, Clone)]
pub struct Generate;
/// `verify`.
#[derive(Debug, Clone)]
pub struct Verify;

impl CommandPurpose for Build {
    const PURPOSE: Purpose = Purpose::Build;
}
impl CommandPurpose for Generate {
    const PURPOSE: Purpose = Purpose::Generate;
}
impl CommandPurpose for Verify {
    const PURPOSE: Purpose = Purpose::Verify;
}

/// The unit named on the command line with its options, as typed, for a command of
/// purpose `P`; flattened into the command's arguments.
#[derive(Debug, Clone)]
pub struct UnitSelection<P> {
    matches: ArgMatches,
    purpose: PhantomData<P>,
}

impl<P: CommandPurpose> clap::FromArgMatches for UnitSelection<P> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(UnitSelection {
            matches: matches.clone(),
            purpose: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.matches = matches.clone();
        Ok(())
    }
}

impl<P: CommandPurpose> clap::Args for UnitSelection<P> {
    /// The default unit's options, `--top`, and a subcommand per unit of the registry with
    /// the options it declares for `P`.
    fn augment_args(command: Command) -> Command {
        let top = Arg::new("top")
            .long("top")
            .value_name("NAME")
            .global(true)
            .help("Name of the top module and entity; submodules are prefixed with it [default: the unit's, such as kautz_route_gen]");
        let reset = Arg::new("reset")
            .long("reset")
            .value_name("STYLE")
            .global(true)
            .value_parser(choice::<ResetStyle>())
            .default_value(ResetStyle::default().name())
            .help("How the registers are reset, the port's name and level (docs/design.md, \"Reset\"); synchronous designs only");
        let command = units::default_kind()
            .args(command, P::PURPOSE)
            .arg(top)
            .arg(reset)
            .subcommand_value_name("UNIT")
            .subcommand_help_heading("Units");
        REGISTRY.iter().fold(command, |command, kind| {
            // After the options: their structs' docs would otherwise become the about.
            let sub = kind
                .args(Command::new(kind.name()), P::PURPOSE)
                .about(kind.about())
                .long_about(None)
                .after_help(format!("Documented in {}.", kind.docs()))
                .aliases(kind.aliases().iter().copied());
            command.subcommand(sub)
        })
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl<P: CommandPurpose> UnitSelection<P> {
    /// The unit selected, validated.
    pub fn resolve(&self) -> anyhow::Result<Box<dyn HardwareUnit>> {
        let (kind, matches) = self.chosen()?;
        let top = self.top();
        if let Some(top) = top {
            check_top_name(top)?;
        }
        let unit = kind.unit(matches, top).map_err(input_error)?;
        let unit = Restyled::unit(unit, self.reset()).map_err(input_error)?;
        if let Some(top) = top {
            check_ports_keep_names(&unit.design(), top)?;
        }
        Ok(unit)
    }

    /// The unit selected and the check its options select.
    pub fn resolve_check(&self) -> anyhow::Result<(Box<dyn HardwareUnit>, Box<dyn Check>)> {
        let unit = self.resolve()?;
        let check = self.check(unit.as_ref())?;
        Ok((unit, check))
    }

    /// The check of `unit` (the one [`Self::resolve`] gave) that its options select.
    pub fn check(&self, unit: &dyn HardwareUnit) -> anyhow::Result<Box<dyn Check>> {
        let (_, matches) = self.chosen()?;
        unit.check(matches, P::PURPOSE).map_err(input_error)
    }

    /// The deliberate fault named, for a unit that takes one.
    pub fn fault(&self) -> Option<String> {
        let matches = self.chosen_matches();
        matches
            .try_get_one::<String>("fault")
            .ok()
            .flatten()
            .cloned()
    }

    /// The first option given, as `--name`, that chooses what a check runs (the pairs,
    /// cycles, seed, traffic; not the fault, which also changes the design).
    pub fn selection_given(&self) -> Option<String> {
        let (kind, matches) = self.chosen().ok()?;
        let built = kind.args(Command::new("built"), Purpose::Build);
        let checked = kind.args(Command::new("checked"), P::PURPOSE);
        checked
            .get_arguments()
            .filter(|arg| {
                arg.get_id() != "fault" && built.get_arguments().all(|b| b.get_id() != arg.get_id())
            })
            .find(|arg| {
                matches.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine)
            })
            .and_then(|arg| arg.get_long())
            .map(|long| format!("--{long}"))
    }

    /// Whether the user named a unit or gave any of the default unit's options.
    pub fn given(&self) -> bool {
        self.matches.subcommand().is_some() || !self.default_options_given().is_empty()
    }

    /// The shard `--shard I/N` names, for a unit that takes it; none for the whole check.
    pub fn shard(&self) -> anyhow::Result<Option<Shard>> {
        let matches = self.chosen_matches();
        let text = matches.try_get_one::<String>("shard").ok().flatten();
        text.map(|text| text.parse::<Shard>().map_err(input_error))
            .transpose()
    }

    /// The file `--wave` names, for a unit that takes it.
    pub fn wave(&self) -> Option<PathBuf> {
        let matches = self.chosen_matches();
        matches
            .try_get_one::<PathBuf>("wave")
            .ok()
            .flatten()
            .cloned()
    }

    /// The reset style `--reset` names.
    fn reset(&self) -> ResetStyle {
        let matches = self.chosen_matches();
        matches
            .get_one::<ResetStyle>("reset")
            .copied()
            .unwrap_or_default()
    }

    fn top(&self) -> Option<&str> {
        let matches = self.chosen_matches();
        matches.get_one::<String>("top").map(String::as_str)
    }

    fn chosen_matches(&self) -> &ArgMatches {
        match self.matches.subcommand() {
            Some((_, sub)) => sub,
            None => &self.matches,
        }
    }

    /// The unit's kind and the matches holding its options.
    fn chosen(&self) -> anyhow::Result<(&'static dyn UnitKind, &ArgMatches)> {
        let given = self.default_options_given();
        let Some((name, sub)) = self.matches.subcommand() else {
            if given.is_empty() {
                let names: Vec<&str> = REGISTRY.iter().map(|kind| kind.name()).collect();
                return Err(input_error(anyhow::anyhow!(
                    "name a unit ({}) or give the options of the default unit, {} (see --help)",
                    names.join(", "),
                    units::default_kind().name()
                )));
            }
            return Ok((units::default_kind(), &self.matches));
        };
        if !given.is_empty() {
            return Err(input_error(anyhow::anyhow!(
                "{} before the unit's name {} to the default unit; give the unit's own parameters after its name",
                given.join(", "),
                if given.len() == 1 {
                    "belongs"
                } else {
                    "belong"
                }
            )));
        }
        let kind = units::find(name).expect("clap accepts only the registry's units");
        Ok((kind, sub))
    }

    /// The default unit's options given to the command itself, as `--name`.
    fn default_options_given(&self) -> Vec<String> {
        let declared = units::default_kind().args(Command::new("default"), P::PURPOSE);
        declared
            .get_arguments()
            .filter(|arg| {
                self.matches.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine)
            })
            .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
            .collect()
    }
}

/// The top's port names are part of the interface too. Module names are claimed before
/// port names, so a `--top` equal to a port name (`--top route`), or one that gives a
/// submodule (`<top>_<block>`) a port's name, would have the port renamed: refused.
fn check_ports_keep_names(design: &Design, top: &str) -> anyhow::Result<()> {
    for language in [Language::Verilog, Language::Vhdl] {
        let names = name_design(design, language);
        let module = design.top();
        let local = names.of(module);
        for (id, port) in module.ports() {
            let emitted = &local.signals[id.0 as usize];
            if *emitted != port.name {
                return Err(input_error(anyhow::anyhow!(
                    "--top '{top}' would rename the top's port '{}' to '{emitted}' in {language}: module names and port names share one namespace; choose another top name",
                    port.name
                )));
            }
        }
    }
    Ok(())
}

/// The top name is part of the interface, so it is refused rather than repaired.
pub fn check_top_name(top: &str) -> anyhow::Result<()> {
    for language in [Language::Verilog, Language::Vhdl] {
        let legal = legalise(top, language);
        if legal != top {
            return Err(input_error(anyhow::anyhow!(
                "--top '{top}' is not a legal {language} name (it would have to be '{legal}')"
            )));
        }
    }
    Ok(())
}
