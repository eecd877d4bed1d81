//! The networks of `netsim sweep` as `netsim` command lines. The network options given to
//! the sweep ([`Given`], read back from its own matches as typed) are a base line; each
//! `--vary OPTION=V1,V2` ([`Vary`]) is a list of values for one option, and so is the list
//! of Kautz graphs of `--graph` when no topology option is given. A network is the base
//! line with one value of each list, parsed again by clap into [`NetworkArgs`], so that
//! its options are checked, and named in `--help`, by their declaration alone; its name in
//! the CSV is its options in declaration order, those at their default left out.
//!
//! In: the matches of `netsim sweep`, the `--vary` and `--graph` lists. Out: the lines of
//! the grid's networks, each with its name and label ([`Line`]), or the one-line error of
//! the first that does not parse.

use super::super::options::{FAULT_OPTIONS, NetworkArgs};
use crate::cli::input_error;
use crate::network::net::Net;
use crate::units::topology_args::TopologyArgs;
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};

/// The options of [`NetworkArgs`], in declaration order.
fn declared() -> Vec<Arg> {
    let command = NetworkArgs::augment_args(Command::new("netsim"));
    command.get_arguments().cloned().collect()
}

/// Whether `long` is an option of the topology ([`TopologyArgs`]).
fn is_topology(long: &str) -> bool {
    let command = TopologyArgs::augment_args(Command::new("topology"));
    command.get_arguments().any(|a| a.get_long() == Some(long))
}

/// Network options as a command line: per option (its long name), its values as typed, in
/// declaration order (options not declared last, for clap to refuse).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Line(Vec<(String, Vec<String>)>);

impl Line {
    /// Gives `long` the `values`, replacing those it had.
    pub(super) fn set(&mut self, long: &str, values: Vec<String>) {
        let declared = declared();
        let place = |long: &str| declared.iter().position(|a| a.get_long() == Some(long));
        self.0.retain(|(l, _)| l != long);
        self.0.push((long.to_string(), values));
        self.0.sort_by_key(|(l, _)| place(l).unwrap_or(usize::MAX));
    }

    /// Whether the line gives `long`.
    pub(super) fn gives(&self, long: &str) -> bool {
        self.0.iter().any(|(l, _)| l == long)
    }

    /// The options as words, `--OPTION VALUE` for each value.
    fn words(&self) -> Vec<String> {
        let flag = |long: &str| format!("--{long}");
        let words = self
            .0
            .iter()
            .flat_map(|(long, values)| match values.is_empty() {
                true => vec![flag(long)],
                false => values
                    .iter()
                    .flat_map(|v| [flag(long), v.clone()])
                    .collect(),
            });
        words.collect()
    }

    /// The options whose values are not their default.
    fn not_default(&self) -> Line {
        let declared = declared();
        let default = |long: &str, values: &[String]| {
            let arg = declared.iter().find(|a| a.get_long() == Some(long));
            let defaults: Vec<String> = arg.map_or(Vec::new(), |a| {
                let values = a.get_default_values().iter();
                values.map(|v| v.to_string_lossy().into_owned()).collect()
            });
            !values.is_empty() && values == defaults
        };
        let kept = self.0.iter().filter(|(l, v)| !default(l, v));
        Line(kept.cloned().collect())
    }

    /// The name of the network in the CSV: its options but those at their default.
    pub(super) fn spec(&self) -> String {
        self.not_default().words().join(" ")
    }

    /// What the network's label adds to the topology's name: its options but the
    /// topology's and those at their default, a choice by its value alone ("tornado,
    /// vct, message-bytes 4"); empty when there are none.
    pub(super) fn label_note(&self) -> String {
        let declared = declared();
        let is_choice = |long: &str| {
            let arg = declared.iter().find(|a| a.get_long() == Some(long));
            arg.is_some_and(|a| !a.get_possible_values().is_empty())
        };
        let line = self.not_default();
        let notes = line.0.iter().filter(|(l, _)| !is_topology(l));
        let notes: Vec<String> = notes
            .map(|(long, values)| match is_choice(long) {
                true => values.join(" "),
                false => format!("{long} {}", values.join(" ")),
            })
            .collect();
        notes.join(", ")
    }

    /// Whether the line gives a topology option.
    pub(super) fn gives_topology(&self) -> bool {
        self.0.iter().any(|(l, _)| is_topology(l))
    }

    /// Whether the line gives a fault option.
    pub(super) fn gives_faults(&self) -> bool {
        FAULT_OPTIONS.iter().any(|l| self.gives(l))
    }

    /// The line parsed as `netsim` parses it; clap's error in one line.
    pub(super) fn parse(&self) -> anyhow::Result<NetworkArgs> {
        NetworkArgs::parse_words(self.words())
    }
}

/// The network options a sweep was given, as typed: it declares the options of
/// [`NetworkArgs`], so that clap checks and documents them, and keeps them as a [`Line`].
#[derive(Debug, Clone, Default)]
pub(super) struct Given(pub(super) Line);

impl FromArgMatches for Given {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut line = Line::default();
        for arg in declared() {
            let (id, Some(long)) = (arg.get_id().as_str(), arg.get_long()) else {
                continue;
            };
            if matches.value_source(id) != Some(ValueSource::CommandLine) {
                continue;
            }
            let raw = matches.get_raw(id).into_iter().flatten();
            let values = raw.map(|v| v.to_string_lossy().into_owned());
            line.set(long, values.collect());
        }
        Ok(Given(line))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for Given {
    fn augment_args(cmd: Command) -> Command {
        NetworkArgs::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        NetworkArgs::augment_args_for_update(cmd)
    }
}

/// `--vary OPTION=V1,V2,...`: the values one option of `netsim` takes across the grid.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Vary {
    pub(super) text: String,
    pub(super) long: String,
    pub(super) values: Vec<String>,
}

impl std::str::FromStr for Vary {
    type Err = String;

    /// Values are separated by `;` when one is there (for values holding commas, as
    /// `4,16@0.5;8,64@0.1`), else by `,`.
    fn from_str(text: &str) -> Result<Vary, String> {
        let bad = || format!("'{text}' is not OPTION=V1,V2,... (or OPTION=V1;V2;...)");
        let (long, values) = text.split_once('=').ok_or_else(bad)?;
        let long = long.trim_start_matches("--");
        let separator = if values.contains(';') { ';' } else { ',' };
        let values: Vec<String> = values.split(separator).map(str::to_string).collect();
        if long.is_empty() || values.iter().any(String::is_empty) {
            return Err(bad());
        }
        Ok(Vary {
            text: text.to_string(),
            long: long.to_string(),
            values,
        })
    }
}

/// One network of the grid: its options as a line, and parsed.
pub(super) struct Network {
    pub(super) line: Line,
    pub(super) args: NetworkArgs,
}

/// The lists of the grid, outermost first: each a list of values, each value the options
/// it sets and what it came from (`--vary traffic=tornado`, `--graph 2,3`).
pub(super) type Lists = Vec<Vec<(String, Line)>>;

/// The lists of `--vary`; an error if two name one option.
pub(super) fn vary_lists(varies: &[Vary]) -> anyhow::Result<Lists> {
    let mut lists = Vec::new();
    for (i, vary) in varies.iter().enumerate() {
        if varies[..i].iter().any(|v| v.long == vary.long) {
            return Err(input_error(anyhow::anyhow!(
                "--vary names --{} twice: give its values in one list",
                vary.long
            )));
        }
        let values = vary.values.iter().map(|value| {
            let mut line = Line::default();
            line.set(&vary.long, vec![value.clone()]);
            (format!("--vary {}={value}", vary.long), line)
        });
        lists.push(values.collect());
    }
    Ok(lists)
}

/// Every network of the grid: `base` with one value of each of `lists`, the first list
/// outermost. Each value is first checked with the first value of each list before its
/// own (those checked already), so that an error names its `--vary`; then each
/// combination.
pub(super) fn networks(base: &Line, lists: &Lists) -> anyhow::Result<Vec<Network>> {
    let with = |values: &[&Line]| {
        let mut line = base.clone();
        for value in values {
            for (long, v) in &value.0 {
                line.set(long, v.clone());
            }
        }
        line
    };
    let firsts: Vec<&Line> = lists.iter().filter_map(|l| Some(&l.first()?.1)).collect();
    for (i, list) in lists.iter().enumerate() {
        for (source, value) in list {
            let values = [&firsts[..i], &[value]].concat();
            check(&with(&values)).map_err(|e| input_error(anyhow::anyhow!("{source}: {e}")))?;
        }
    }
    let mut combinations: Vec<Vec<&Line>> = vec![Vec::new()];
    for list in lists {
        let outer = std::mem::take(&mut combinations);
        for combination in outer {
            for (_, value) in list {
                combinations.push([combination.clone(), vec![value]].concat());
            }
        }
    }
    combinations
        .iter()
        .map(|values| {
            let line = with(values);
            let args = check(&line)
                .map_err(|e| input_error(anyhow::anyhow!("the network '{}': {e}", line.spec())))?;
            Ok(Network { line, args })
        })
        .collect()
}

/// `line` parsed, and its parameters and network made, so that every option is checked.
fn check(line: &Line) -> anyhow::Result<NetworkArgs> {
    let args = line.parse()?;
    Net::new(&args.params(0.001, 1)?)?;
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(options: &[(&str, &str)]) -> Line {
        let mut line = Line::default();
        for (long, value) in options {
            line.set(long, vec![value.to_string()]);
        }
        line
    }

    #[test]
    fn a_line_is_named_in_declaration_order_without_its_defaults() {
        let l = line(&[
            ("flow", "vct"),
            ("traffic", "uniform"),
            ("n", "2"),
            ("message-bytes", "4"),
            ("topology", "torus"),
            ("k", "4"),
        ]);
        assert_eq!(
            l.spec(),
            "--topology torus --k 4 --n 2 --message-bytes 4 --flow vct"
        );
        assert_eq!(l.label_note(), "message-bytes 4, vct");
        assert!(l.gives_topology() && !l.gives_faults());
    }

    #[test]
    fn a_vary_splits_at_semicolons_when_it_has_one() {
        let vary: Vary = "message-bytes=4,16@0.5;8".parse().unwrap();
        assert_eq!(vary.values, ["4,16@0.5", "8"]);
        let vary: Vary = "--traffic=uniform,tornado".parse().unwrap();
        assert_eq!(
            (vary.long.as_str(), &vary.values[..]),
            (
                "traffic",
                &["uniform".to_string(), "tornado".to_string()][..]
            )
        );
        assert!("traffic".parse::<Vary>().is_err());
        assert!("traffic=a,,b".parse::<Vary>().is_err());
    }

    #[test]
    fn every_fault_option_is_declared() {
        for long in FAULT_OPTIONS {
            assert!(
                declared().iter().any(|a| a.get_long() == Some(long)),
                "{long}"
            );
        }
    }
}
