//! A clearer message than clap's for an option the chosen unit does not take: which units
//! take it, and the options this one takes, both read from the registry's declarations.

use crate::input::and_list;
use crate::units::{self, Purpose, REGISTRY, UnitKind};
use clap::Command;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The commands that build a unit, and what each does with it.
const UNIT_COMMANDS: [(&str, Purpose); 4] = [
    ("generate", Purpose::Generate),
    ("verify", Purpose::Verify),
    ("synth", Purpose::Build),
    ("prove", Purpose::Build),
];

/// For clap's error on the command line `args` (program name first): when it is an
/// unknown option that other units of the command take, the message that says so and
/// lists what the chosen unit takes; else `None`.
pub fn explain(error: &clap::Error, args: &[String]) -> Option<String> {
    if error.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(given)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = given.split('=').next()?;
    let long = flag.strip_prefix("--")?;
    let at = args
        .iter()
        .position(|a| UNIT_COMMANDS.iter().any(|(c, _)| c == a))?;
    let (command, purpose) = *UNIT_COMMANDS.iter().find(|(c, _)| *c == args[at])?;
    let named = args[at + 1..].iter().find_map(|a| units::find(a));
    let kind = named.unwrap_or(units::default_kind());
    let owners: Vec<&str> = REGISTRY
        .iter()
        .filter(|other| takes(**other, purpose, long))
        .map(|other| other.name())
        .collect();
    if owners.is_empty() {
        return None;
    }
    Some(format!(
        "error: {flag} applies to the {} only, not to the {} unit; it takes {}",
        owner_phrase(&owners),
        kind.name(),
        taken(command, named.map(|k| k.name())).join(", ")
    ))
}

fn takes(kind: &dyn UnitKind, purpose: Purpose, long: &str) -> bool {
    kind.args(Command::new(kind.name()), purpose)
        .get_arguments()
        .any(|arg| arg.get_long() == Some(long))
}

/// "network unit", "kautz and mrns units", "kautz, mrns and switch units".
fn owner_phrase(owners: &[&str]) -> String {
    match owners {
        [] => String::new(),
        [one] => format!("{one} unit"),
        _ => format!("{} units", and_list(owners)),
    }
}

/// The long options of `command` with `unit` (the command's own default unit when
/// `None`), as its help lists them, without those every command takes (`--quiet`,
/// `--threads` ...).
fn taken(command: &str, unit: Option<&str>) -> Vec<String> {
    let mut cli = super::command();
    cli.build();
    let everyone: Vec<String> = cli
        .get_arguments()
        .filter_map(|arg| arg.get_long())
        .map(str::to_string)
        .collect();
    let Some(command) = cli.find_subcommand(command) else {
        return Vec::new();
    };
    let chosen = unit
        .and_then(|name| command.find_subcommand(name))
        .unwrap_or(command);
    chosen
        .get_arguments()
        .filter(|arg| !arg.is_hide_set())
        .filter_map(|arg| arg.get_long())
        .filter(|long| !matches!(*long, "help" | "version") && !everyone.iter().any(|e| e == long))
        .map(|long| format!("--{long}"))
        .collect()
}
