//! A part: the results of one shard of a run, as `--shard I/N --out FILE` writes them and
//! `kautzgen merge` reads them (docs/sharding.md). A JSON object: its format and version,
//! the kautzgen that wrote it, the command and its normalized command line, the shard, the
//! number of items of the whole run, and the result of every item the shard ran with its
//! position.
//!
//! In: a shard's results ([`Part::new`]), or part files ([`read`]). Out: the part's JSON
//! text ([`Part::text`]), or the parts checked to be the shards of one run, every one
//! exactly once, and their results in position order ([`join`]), or the one line that says
//! why they are not.

use super::command_line::differences;
use crate::input::{and_list, input_error};
use crate::sim::vectors::Shard;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

/// The name of the format, the value of every part's `format`.
const FORMAT: &str = "kautzgen-part";

/// The format's version: one up at every change that an older merge could misread.
const FORMAT_VERSION: u64 = 1;

/// The kautzgen that wrote a part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Made {
    version: String,
    commit: String,
}

impl Made {
    /// This kautzgen.
    fn here() -> Made {
        Made {
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: env!("KAUTZGEN_COMMIT").to_string(),
        }
    }
}

impl std::fmt::Display for Made {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "kautzgen {} (commit {})", self.version, self.commit)
    }
}

/// Which shard a part holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Slice {
    index: u64,
    count: u64,
}

/// One item's result and its position in the whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Positioned {
    pub position: u64,
    pub result: Value,
}

/// The results of one shard of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    format: String,
    format_version: u64,
    kautzgen: Made,
    /// The subcommand, as the registry names it ("netsim sweep").
    command: String,
    /// The normalized command line (after the program's name).
    config: Vec<String>,
    shard: Slice,
    /// Items of the whole run.
    items: u64,
    /// The results of the shard's items, in position order.
    results: Vec<Positioned>,
}

impl Part {
    /// The part of `shard` of a run of `command` with the line `config` and `items`
    /// items, holding `results`.
    pub fn new(
        command: String,
        config: Vec<String>,
        shard: Shard,
        items: u64,
        results: Vec<Positioned>,
    ) -> Part {
        Part {
            format: FORMAT.to_string(),
            format_version: FORMAT_VERSION,
            kautzgen: Made::here(),
            command,
            config,
            shard: Slice {
                index: shard.index(),
                count: shard.count(),
            },
            items,
            results,
        }
    }

    /// The part as its file holds it: indented JSON, ending with a newline.
    pub fn text(&self) -> anyhow::Result<String> {
        Ok(format!("{}\n", serde_json::to_string_pretty(self)?))
    }

    /// The part's shard, as `I/N`.
    fn shard_name(&self) -> String {
        format!("{}/{}", self.shard.index, self.shard.count)
    }
}

/// The part in the file `path`; an input error naming the file if it is not one that this
/// kautzgen wrote.
pub fn read(path: &Path) -> anyhow::Result<Part> {
    let name = path.display();
    let not_a_part = |why: String| {
        anyhow::Error::from(input_error(format!(
            "merge: {name} is not a kautzgen part ({why})"
        )))
    };
    let text =
        std::fs::read_to_string(path).map_err(|e| not_a_part(format!("cannot read it: {e}")))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| not_a_part(format!("not JSON: {e}")))?;
    if value.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(not_a_part(format!("its format is not {FORMAT}")));
    }
    let version = value.get("format_version").and_then(Value::as_u64);
    if version != Some(FORMAT_VERSION) {
        return Err(input_error(format!(
            "merge: {name} is a part of format version {}, which this kautzgen does not read (it reads version {FORMAT_VERSION})",
            version.map_or("unknown".to_string(), |v| v.to_string())
        ))
        .into());
    }
    let part: Part = serde_json::from_value(value).map_err(|e| not_a_part(format!("{e}")))?;
    if part.kautzgen != Made::here() {
        return Err(input_error(format!(
            "merge: {name} was written by {}, and this is {}: merge with the kautzgen that ran the shards",
            part.kautzgen,
            Made::here()
        ))
        .into());
    }
    Ok(part)
}

/// The parts of one run, joined: the command, its line, and every item's result in
/// position order.
#[derive(Debug, Clone, PartialEq)]
pub struct Joined {
    pub command: String,
    pub config: Vec<String>,
    pub results: Vec<Value>,
}

/// `parts` (each with the name of its file) joined, if they are the N shards of one run,
/// each once; otherwise the input error that says why not.
pub fn join(parts: Vec<(String, Part)>) -> anyhow::Result<Joined> {
    let refuse = |message: String| anyhow::Error::from(input_error(format!("merge: {message}")));
    let Some((first_name, first)) = parts.first() else {
        return Err(refuse("give the part files of every shard".to_string()));
    };
    for (name, part) in &parts[1..] {
        if part.command != first.command {
            return Err(refuse(format!(
                "part {name} comes from another command than {first_name} ({} against {})",
                part.command, first.command
            )));
        }
        if part.config != first.config {
            let (theirs, ours) = differences(&first.config, &part.config);
            return Err(refuse(format!(
                "part {name} comes from another configuration than {first_name} ({theirs} against {ours})"
            )));
        }
        if part.shard.count != first.shard.count {
            return Err(refuse(format!(
                "part {name} is shard {} and {first_name} shard {}: the parts of one run have one shard count",
                part.shard_name(),
                first.shard_name()
            )));
        }
        if part.items != first.items {
            return Err(refuse(format!(
                "part {name} counts {} items and {first_name} {}: they are not parts of one run",
                part.items, first.items
            )));
        }
    }
    let count = first.shard.count;
    let mut given: Vec<Vec<&str>> = vec![Vec::new(); count as usize];
    for (name, part) in &parts {
        match given.get_mut(part.shard.index as usize) {
            Some(names) => names.push(name),
            None => {
                return Err(refuse(format!(
                    "{name} is shard {}, which does not exist",
                    part.shard_name()
                )));
            }
        }
    }
    if let Some((index, names)) = given.iter().enumerate().find(|(_, n)| n.len() > 1) {
        let times = match names.len() {
            2 => "twice".to_string(),
            n => format!("{n} times"),
        };
        return Err(refuse(format!(
            "shard {index}/{count} is given {times} ({})",
            names.join(", ")
        )));
    }
    let missing: Vec<String> = (0..count)
        .filter(|&i| given[i as usize].is_empty())
        .map(|i| format!("{i}/{count}"))
        .collect();
    match missing.len() {
        0 => {}
        1 => return Err(refuse(format!("shard {} is missing", missing[0]))),
        _ => {
            let missing: Vec<&str> = missing.iter().map(String::as_str).collect();
            return Err(refuse(format!("shards {} are missing", and_list(&missing))));
        }
    }
    let (command, config, items) = (first.command.clone(), first.config.clone(), first.items);
    let mut results: Vec<Option<Value>> = vec![None; items as usize];
    for (name, part) in parts {
        let shard = Shard::new(part.shard.index, count).expect("its index was found in range");
        let expected = (0..items).filter(|&p| shard.selects(p));
        let held = part.results.iter().map(|r| r.position);
        if !expected.eq(held) {
            return Err(refuse(format!(
                "{name} does not hold the results of the items of shard {} of {items}",
                part.shard_name()
            )));
        }
        for item in part.results {
            results[item.position as usize] = Some(item.result);
        }
    }
    Ok(Joined {
        command,
        config,
        results: results.into_iter().flatten().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shard `index` of `count` of a run of `items` items of `netsim sweep` with `config`,
    /// each result its position.
    fn part(config: &str, index: u64, count: u64, items: u64) -> Part {
        let shard = Shard::new(index, count).unwrap();
        let results = (0..items)
            .filter(|&p| shard.selects(p))
            .map(|position| Positioned {
                position,
                result: position.into(),
            })
            .collect();
        let config = config.split_whitespace().map(String::from).collect();
        Part::new("netsim sweep".into(), config, shard, items, results)
    }

    fn join_named(parts: &[(&str, Part)]) -> anyhow::Result<Joined> {
        join(
            parts
                .iter()
                .map(|(n, p)| (n.to_string(), p.clone()))
                .collect(),
        )
    }

    const LINE: &str = "netsim sweep --rates 0.01";

    #[test]
    fn shards_in_any_order_join_by_position() {
        let parts = [
            ("c", part(LINE, 2, 3, 7)),
            ("a", part(LINE, 0, 3, 7)),
            ("b", part(LINE, 1, 3, 7)),
        ];
        let whole = join_named(&parts).unwrap();
        assert_eq!(
            whole.results,
            (0..7u64).map(Value::from).collect::<Vec<_>>()
        );
        assert_eq!(whole.command, "netsim sweep");
        // More shards than items: the last shards are empty, and still needed.
        let parts = [("a", part(LINE, 0, 3, 2)), ("b", part(LINE, 1, 3, 2))];
        assert_eq!(
            join_named(&parts).unwrap_err().to_string(),
            "merge: shard 2/3 is missing"
        );
    }

    #[test]
    fn parts_of_other_runs_gaps_and_overlaps_are_refused() {
        let refusal = |parts: &[(&str, Part)]| join_named(parts).unwrap_err().to_string();
        let other = "netsim sweep --rates 0.02";
        assert_eq!(
            refusal(&[("a", part(LINE, 0, 2, 4)), ("b", part(other, 1, 2, 4))]),
            "merge: part b comes from another configuration than a (--rates 0.02 against --rates 0.01)"
        );
        assert_eq!(
            refusal(&[("a", part(LINE, 0, 2, 4)), ("b", part(LINE, 1, 3, 4))]),
            "merge: part b is shard 1/3 and a shard 0/2: the parts of one run have one shard count"
        );
        assert_eq!(
            refusal(&[
                ("a", part(LINE, 1, 4, 8)),
                ("b", part(LINE, 0, 4, 8)),
                ("c", part(LINE, 1, 4, 8))
            ]),
            "merge: shard 1/4 is given twice (a, c)"
        );
        assert_eq!(
            refusal(&[("a", part(LINE, 1, 4, 8)), ("b", part(LINE, 0, 4, 8))]),
            "merge: shards 2/4 and 3/4 are missing"
        );
        let mut short = part(LINE, 1, 2, 4);
        short.results.pop();
        assert_eq!(
            refusal(&[("a", part(LINE, 0, 2, 4)), ("b", short)]),
            "merge: b does not hold the results of the items of shard 1/2 of 4"
        );
    }
}
