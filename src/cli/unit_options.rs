//! Which unit takes which of the options that `generate`, `verify`, `synth` and `prove`
//! accept before or after a unit's name (`--pairs`, `--rate`, `--arch`, ...): one
//! declaration, read both by `--help`, where each unit lists only the options it takes,
//! and by validation, which refuses an option a unit does not take with the list of those
//! it does.

use crate::cli::input_error;
use crate::cli::unit::Unit;
use clap::Command;

/// An option that only some units take.
struct Owned {
    /// The argument's id (its field name).
    id: &'static str,
    /// The units that take it, by their subcommand names.
    units: &'static [&'static str],
    /// Those units, as a message names them.
    owners: &'static str,
}

const ROUTE_GENERATORS: &str = "route generators (Kautz, MRNS)";

const OWNED: &[Owned] = &[
    Owned {
        id: "arch",
        units: &["kautz"],
        owners: "Kautz route generator",
    },
    Owned {
        id: "design",
        units: &["kautz"],
        owners: "Kautz route generator",
    },
    Owned {
        id: "pairs",
        units: &["kautz", "mrns"],
        owners: ROUTE_GENERATORS,
    },
    Owned {
        id: "seed",
        units: &["kautz", "mrns", "switch", "router", "network"],
        owners: "route generators (Kautz, MRNS), the switch, the router and the network",
    },
    Owned {
        id: "wave",
        units: &["kautz", "mrns", "switch", "router", "network"],
        owners: "route generators (Kautz, MRNS), the switch, the router and the network",
    },
    Owned {
        id: "delays",
        units: &["switch", "network"],
        owners: "self-timed switch and network",
    },
    Owned {
        id: "shard",
        units: &["kautz", "ldi", "mrns", "torus"],
        owners: "units checked on independent vectors (Kautz, LDI, MRNS, torus)",
    },
    Owned {
        id: "cycles",
        units: &["switch", "router", "network"],
        owners: "switch, the router and the network",
    },
    Owned {
        id: "rate",
        units: &["network"],
        owners: "network",
    },
    Owned {
        id: "random_faulty_nodes",
        units: &["network"],
        owners: "network",
    },
    Owned {
        id: "vectors",
        units: &["torus"],
        owners: "torus unit",
    },
];

/// The commands that build a unit named as a subcommand.
const UNIT_COMMANDS: [&str; 4] = ["generate", "verify", "synth", "prove"];

/// The unit's subcommand name; `kautz` is also the unit of a command given none.
fn subcommand_of(unit: &Unit) -> &'static str {
    match unit {
        Unit::Kautz(_) => "kautz",
        Unit::Ldi(_) => "ldi",
        Unit::Mrns(_) => "mrns",
        Unit::Torus(_) => "torus",
        Unit::Switch(_) => "switch",
        Unit::Router(_) => "router",
        Unit::Network(_) => "network",
    }
}

fn takes(unit: &str, id: &str) -> bool {
    OWNED
        .iter()
        .find(|owned| owned.id == id)
        .is_none_or(|owned| owned.units.contains(&unit))
}

/// `cli` with each unit's help of every unit command showing only the options that unit
/// takes; a command's own help is its default unit's, the Kautz route generator's. Call
/// on a built command, whose subcommands hold the global options.
pub fn hide_foreign(mut cli: Command) -> Command {
    for name in UNIT_COMMANDS {
        cli = cli.mut_subcommand(name, |mut command| {
            command = hide_in(command, "kautz");
            let units: Vec<String> = command
                .get_subcommands()
                .map(|unit| unit.get_name().to_string())
                .collect();
            for unit in units {
                command = command.mut_subcommand(&unit, |sub| hide_in(sub, &unit));
            }
            command
        });
    }
    cli
}

/// `command` with the options `unit` does not take hidden. The arguments keep their order:
/// a built command's parser finds them by position.
fn hide_in(command: Command, unit: &str) -> Command {
    command.mut_args(|arg| {
        let foreign = !takes(unit, arg.get_id().as_str());
        arg.hide(foreign)
    })
}

/// Refuses option `id`, when `given`, if `unit` does not take it, naming the units that do
/// and the options `unit` takes in `command`.
pub fn refuse_foreign(command: &str, unit: &Unit, id: &str, given: bool) -> anyhow::Result<()> {
    let name = subcommand_of(unit);
    let Some(owned) = OWNED.iter().find(|owned| owned.id == id) else {
        return Ok(());
    };
    if !given || owned.units.contains(&name) {
        return Ok(());
    }
    let flag = format!("--{}", id.replace('_', "-"));
    let message = match id {
        "arch" => format!(
            "--arch chooses the Kautz route generator's architecture; the {} unit has no such option",
            unit.name()
        ),
        _ => format!(
            "{flag} applies to the {} only, not to the {} unit",
            owned.owners,
            unit.name()
        ),
    };
    Err(input_error(anyhow::anyhow!(
        "{message}; it takes {}",
        options_taken(command, name).join(", ")
    )))
}

/// The long options `unit` takes in `command`, as its help lists them.
fn options_taken(command: &str, unit: &str) -> Vec<String> {
    let mut cli = super::command();
    let Some(command) = cli.find_subcommand_mut(command) else {
        return Vec::new();
    };
    // The route generator is also the command's default unit, whose options are the
    // command's own.
    let sub = match command.find_subcommand(unit) {
        Some(sub) if unit != "kautz" => sub,
        _ => &*command,
    };
    sub.get_arguments()
        .filter(|arg| !arg.is_hide_set())
        .filter_map(|arg| arg.get_long())
        .filter(|long| !matches!(*long, "help" | "version" | "quiet"))
        .map(|long| format!("--{long}"))
        .collect()
}
