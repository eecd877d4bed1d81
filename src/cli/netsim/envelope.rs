//! The envelope of every JSON object netsim prints (docs/network.md, "JSON output"; its
//! schema is docs/netsim.schema.json): what the object is (`schema`, `schema_version`,
//! `kind`), the kautzgen that made it (`kautzgen`: version and commit), the run's complete
//! configuration (`config`: [`Config`], and the `command_line` after the program's name),
//! the unit of every number (`units`, by path) and the wall time (`wall_seconds`). The
//! command's own figures stay at the top level beside them, as they were before the
//! envelope, so that readers of those keys read them still.
//!
//! To print a command's JSON: make its [`Config`], note the [`Instant`] its work starts,
//! and call [`envelope`] with its [`Kind`] (its name and its figures' units) and its
//! figures (an object). A new command adds its object to the schema under its kind's
//! name.
//!
//! Versions: [`SCHEMA_VERSION`] goes up by one when a key is removed or renamed, or changes
//! its type, meaning or unit; a key added leaves it as it is, so readers ignore keys they
//! do not know. `wall_seconds` differs from run to run, so the JSON of two runs of the
//! same command is not the same byte for byte; no file that must be (a sweep's CSV, a
//! trace) holds it.

use crate::network::config::{CONFIG_UNITS, NetConfig};
use anyhow::Context;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Instant;

/// The name of the schema every netsim JSON object follows.
pub(super) const SCHEMA: &str = "kautzgen-netsim";

/// The schema's version: one up at every change that could break a reader.
pub(super) const SCHEMA_VERSION: u64 = 1;

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
        let mut units = BTreeMap::from([
            ("wall_seconds".to_string(), "seconds"),
            ("config.seeds".to_string(), "runs"),
        ]);
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

/// `figures` (an object), a `kind` of output of the run of `config` whose work started at
/// `started`, with the envelope's keys added.
pub(super) fn envelope(
    kind: Kind,
    config: &Config,
    started: Instant,
    figures: Value,
) -> anyhow::Result<Value> {
    let Value::Object(mut object) = figures else {
        anyhow::bail!("netsim's figures are a JSON object");
    };
    let mut config = serde_json::to_value(config).context("configuration as JSON")?;
    config["command_line"] = command_line().into();
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
        "wall_seconds": started.elapsed().as_secs_f64(),
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

/// The arguments kautzgen was run with, after the program's name.
fn command_line() -> Vec<String> {
    std::env::args_os()
        .skip(1)
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect()
}
