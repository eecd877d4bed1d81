//! The options that choose a network's topology, for every command that builds a network,
//! declared from the topology registry (`crate::topologies`): `--topology` lists every
//! topology with its line, and each of `--d`, `--k`, `--n`, `--rings` and `--routes` says
//! what it means for each topology that takes it. An option the chosen topology does not
//! take is refused by `topologies::build`, from the same declarations.

use crate::choice::Choice;
use crate::routing::disjoint::RouteKind;
use crate::topologies::{self, Built, Given, Param, REGISTRY, TopologyError, TopologyKind};
use crate::topology::torus::Rings;
use crate::units::choice_arg::choice;
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use std::fmt;
use std::path::PathBuf;

/// The topology and its options, as given.
#[derive(Clone)]
pub struct TopologyArgs {
    pub kind: &'static dyn TopologyKind,
    pub given: Given,
}

impl fmt::Debug for TopologyArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TopologyArgs")
            .field("kind", &self.kind.name())
            .field("given", &self.given)
            .finish()
    }
}

impl TopologyArgs {
    /// The network the options describe, or why there is none.
    pub fn build(&self) -> Result<Built, TopologyError> {
        topologies::build(self.kind, &self.given)
    }

    /// The options as a command line gives them: `--d 2 --k 3` for the default Kautz
    /// topology, `--topology torus --k 3 --n 2 --rings uni` for another.
    pub fn command_line(&self) -> String {
        let given = &self.given;
        let mut words = Vec::new();
        match (self.kind.name(), &given.path) {
            (DEFAULT_TOPOLOGY, _) => {}
            (_, Some(path)) => words.push(format!("--topology file:{}", path.display())),
            (name, None) => words.push(format!("--topology {name}")),
        }
        let numbers = [
            (Param::D, given.d),
            (Param::K, given.k),
            (Param::N, given.n),
        ];
        for (param, value) in numbers {
            if let Some(value) = value {
                words.push(format!("--{} {value}", param.name()));
            }
        }
        if let Some(rings) = given.rings {
            words.push(format!("--{} {}", Param::Rings.name(), rings.name()));
        }
        if let Some(routes) = given.routes {
            words.push(format!("--{} {}", Param::Routes.name(), routes.name()));
        }
        words.join(" ")
    }
}

/// `--topology` unless given.
pub(crate) const DEFAULT_TOPOLOGY: &str = "kautz";

/// `--topology`'s value: a topology's name, and the path of `file:PATH`.
#[derive(Debug, Clone)]
struct Chosen {
    name: &'static str,
    path: Option<PathBuf>,
}

fn names() -> String {
    let names: Vec<String> = REGISTRY
        .iter()
        .map(|t| match t.name() {
            "file" => "file:PATH".to_string(),
            name => name.to_string(),
        })
        .collect();
    names.join(", ")
}

fn parse_topology(text: &str) -> Result<Chosen, String> {
    if let Some(path) = text.strip_prefix("file:") {
        if path.is_empty() {
            return Err("file:PATH needs the edge list's path, e.g. file:graph.txt".to_string());
        }
        return Ok(Chosen {
            name: "file",
            path: Some(PathBuf::from(path)),
        });
    }
    match topologies::named(text) {
        Some(kind) if kind.name() != "file" => Ok(Chosen {
            name: kind.name(),
            path: None,
        }),
        Some(_) => Err("the edge list is given as file:PATH, e.g. file:graph.txt".to_string()),
        None => Err(format!("the topologies are {}", names())),
    }
}

/// What `param` means for each topology that takes it, for its help; topologies for which
/// it means the same are named together.
fn param_help(param: Param) -> String {
    let mut meanings: Vec<(Vec<&str>, &str)> = Vec::new();
    for t in REGISTRY {
        let Some(declared) = t.params().iter().find(|p| p.param == param) else {
            continue;
        };
        match meanings.iter_mut().find(|(_, help)| *help == declared.help) {
            Some((names, _)) => names.push(t.name()),
            None => meanings.push((vec![t.name()], declared.help)),
        }
    }
    let parts: Vec<String> = meanings
        .iter()
        .map(|(names, help)| format!("{}: {help}", names.join(", ")))
        .collect();
    parts.join("; ")
}

impl Args for TopologyArgs {
    fn augment_args(cmd: Command) -> Command {
        let about: Vec<String> = REGISTRY
            .iter()
            .map(|t| format!("  {}: {}", t.name(), t.about()))
            .collect();
        let mut cmd = cmd.arg(
            Arg::new("topology")
                .long("topology")
                .value_name("TOPOLOGY")
                .default_value(DEFAULT_TOPOLOGY)
                .value_parser(parse_topology)
                .help(format!("The network's topology: {}", names()))
                .long_help(format!(
                    "The network's topology (docs/topologies.md):\n{}",
                    about.join("\n")
                )),
        );
        for param in Param::ALL {
            let arg = Arg::new(param.name())
                .long(param.name())
                .value_name(param.value_name())
                .help(param_help(param));
            cmd = cmd.arg(match param {
                Param::D | Param::K | Param::N => arg.value_parser(clap::value_parser!(u64)),
                Param::Rings => arg.value_parser(choice::<Rings>()),
                Param::Routes => arg.value_parser(choice::<RouteKind>()),
            });
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for TopologyArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let chosen = matches
            .get_one::<Chosen>("topology")
            .expect("--topology has a default");
        let number = |param: Param| matches.get_one::<u64>(param.name()).copied();
        Ok(TopologyArgs {
            kind: topologies::named(chosen.name).expect("parse_topology names a topology"),
            given: Given {
                d: number(Param::D),
                k: number(Param::K),
                n: number(Param::N),
                rings: matches.get_one::<Rings>(Param::Rings.name()).copied(),
                routes: matches.get_one::<RouteKind>(Param::Routes.name()).copied(),
                path: chosen.path.clone(),
            },
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}
