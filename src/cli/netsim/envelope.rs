//! The envelope of every JSON object netsim prints (docs/network.md, "JSON output"; its
//! schema is docs/netsim.schema.json): what the object is (`schema`, `schema_version`,
//! `kind`), the kautzgen that made it (`kautzgen`: version and commit), the run's complete
//! configuration (`config`: [`Config`], and the `command_line` after the program's name),
//! and the unit of every number (`units`, by path). The command's own figures stay at the
//! top level beside them, as they were before the envelope, so that readers of those keys
//! read them still.
//!
//! To print a command's JSON: make its [`Config`] and call [`envelope`] with its [`Kind`]
//! (its name and its figures' units) and its figures (an object). A new command adds its
//! object to the schema under its kind's name.
//!
//! Versions: [`SCHEMA_VERSION`] goes up by one when a key is removed or renamed, or changes
//! its type, meaning or unit; a key added leaves it as it is, so readers ignore keys they
//! do not know. Version 2 left out the wall time (`wall_seconds`) and the command line's
//! options that do not change the result ([`command_line`]): the JSON of one command is
//! the same byte for byte from run to run, whatever the threads, and whole or merged from
//! shards.

use crate::cli::shard::command_line;
use crate::network::config::{CONFIG_UNITS, NetConfig};
use anyhow::Context;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The name of the schema every netsim JSON object follows.
pub(super) const SCHEMA: &str = "kautzgen-netsim";

/// The schema's version: one up at every change that could break a reader.
pub(super) const SCHEMA_VERSION: u64 = 2;

/// What a netsim JSON object holds: its `kind`'s name (`run`, `seeds`, `saturate`,
/// `compare`) and the unit of every number of its figures, by path (keys joined by dots,
/// array indices dropped). Each command makes its own, so that the envelope needs to know
/// no command's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Kind {
    pub name: &'static str,
    pub units: Vec<(String, &'static str)>,
}

impl Kind {
    /// The kind `name` whose figures have the units `units`, each path under `prefix`.
    pub fn new(name: &'static str, prefix: &str, units: &[(&str, &'static str)]) -> Kind {
        Kind {
            name,
            units: prefixed(prefix, units).collect(),
        }
    }

    /// These figures' units and more: `units`' paths under `prefix`.
    pub fn with(mut self, prefix: &str, units: &[(&str, &'static str)]) -> Kind {
        self.units.extend(prefixed(prefix, units));
        self
    }

    /// The unit of every number of the object: the envelope's and the figures'.
    fn units(&self) -> BTreeMap<String, &'static str> {
        let mut units = BTreeMap::from([("config.seeds".to_string(), "runs")]);
        units.extend(prefixed("config.", &CONFIG_UNITS));
        units.extend(self.units.iter().cloned());
        units
    }
}

/// `units` with `prefix` before each path.
fn prefixed<'a>(
    prefix: &'a str,
    units: &'a [(&str, &'static str)],
) -> impl Iterator<Item = (String, &'static str)> + 'a {
    units
        .iter()
        .map(move |&(path, unit)| (format!("{prefix}{path}"), unit))
}

/// The configuration of a netsim run: its parameters, the seeds it runs, and the messages
/// placed by hand.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Config {
    #[serde(flatten)]
    pub run: NetConfig,
    /// Runs, with seeds `seed` to `seed + seeds - 1`.
    pub seeds: u64,
    /// `--message`s, as given.
    pub messages: Vec<String>,
    /// `--traffic-file`, if given.
    pub traffic_file: Option<String>,
}

/// `figures` (an object), a `kind` of output of the run of `config`, with the envelope's
/// keys added.
pub(super) fn envelope(kind: Kind, config: &Config, figures: Value) -> anyhow::Result<Value> {
    let Value::Object(mut object) = figures else {
        anyhow::bail!("netsim's figures are a JSON object");
    };
    let mut config = serde_json::to_value(config).context("configuration as JSON")?;
    config["command_line"] = command_line::current().into();
    let envelope = json!({
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "kind": kind.name,
        "kautzgen": {
            "version": env!("CARGO_PKG_VERSION"),
            "commit": env!("KAUTZGEN_COMMIT"),
        },
        "config": config,
        "units": kind.units(),
    });
    let Value::Object(envelope) = envelope else {
        unreachable!("json! of braces is an object")
    };
    for (key, value) in envelope {
        debug_assert!(!object.contains_key(&key), "figure {key} is the envelope's");
        object.insert(key, value);
    }
    Ok(Value::Object(object))
}
