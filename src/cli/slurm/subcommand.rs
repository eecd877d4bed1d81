//! The command that `kautzgen slurm` runs in shards, the words after its `--`: which
//! subcommand it is, whether it runs in shards, its `--out` taken out (that names the
//! merged result), and its arguments checked by kautzgen's own command-line definition
//! with a shard's `--shard` and `--out` added, so that a job is never written for a
//! command that would fail to parse on the cluster.
//!
//! In: the words after `--` and the shard count. Out: a [`Sharded`] command, or one line
//! of error as the user's input.

use crate::cli::shard::command_line::command_path;
use crate::cli::shard::{SHARDABLE, is_shardable};
use crate::cli::{exit_status, input_error, one_line_usage_error};
use crate::input::and_list;

/// A command to run in shards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sharded {
    /// The subcommand's names, as `netsim sweep`.
    pub name: String,
    /// The subcommand's names and arguments, without `--out`.
    pub args: Vec<String>,
    /// The `--out` it gave, which names the merged result.
    pub out: Option<String>,
    /// Whether it gave `--force`, which the merge is given too: the merge writes the result.
    pub force: bool,
}

/// `words` checked as a command to run in `shards` shards.
pub fn parse(words: &[String], shards: u64) -> anyhow::Result<Sharded> {
    let name = command_path(words);
    if name.is_empty() {
        return Err(input_error(anyhow::anyhow!(
            "give the command to run in shards after --, as: -- netsim sweep --graph 2,3 --out sweep"
        )));
    }
    if !is_shardable(&name) {
        return Err(input_error(anyhow::anyhow!(
            "'{name}' does not run in shards; kautzgen slurm runs {}",
            and_list(&SHARDABLE)
        )));
    }
    if let Some(shard) = words.iter().find(|w| option_of(w) == Some("--shard")) {
        return Err(input_error(anyhow::anyhow!(
            "the command gives {shard}: kautzgen slurm gives each array task its shard; leave it out"
        )));
    }
    let (args, out) = take_out(words)?;
    let mut shard = vec!["kautzgen".to_string()];
    shard.extend(args.iter().cloned());
    shard.extend(["--shard", &format!("0/{shards}"), "--out", "part-0.json"].map(String::from));
    let refused = |message: &str| input_error(anyhow::anyhow!("kautzgen {name}: {message}"));
    let cli = crate::cli::parse_from(&shard).map_err(|error| {
        let message = one_line_usage_error(&error)
            .unwrap_or_else(|| "asks for help or the version, not for a run".to_string());
        let message = message.strip_prefix("error: ").unwrap_or(&message);
        let message = message.strip_suffix(" (see --help)").unwrap_or(message);
        refused(&format!("{message} (see kautzgen {name} --help)"))
    })?;
    // Building the command's job checks what parsing cannot (a rate above 1), as each
    // task would, and says whether these options run in shards.
    match crate::cli::job(cli) {
        Ok(Some(_)) => {}
        Ok(None) => return Err(refused("these options run it whole, not in shards")),
        Err(error) if exit_status(&error) == 2 => return Err(refused(&format!("{error:#}"))),
        Err(error) => return Err(error.context(format!("kautzgen {name}"))),
    }
    let force = args.iter().any(|w| w == "--force");
    Ok(Sharded {
        name,
        args,
        out,
        force,
    })
}

/// The long option a word gives (`--out` of `--out` and of `--out=x`), or `None`.
fn option_of(word: &str) -> Option<&str> {
    word.starts_with("--")
        .then(|| word.split_once('=').map_or(word, |(option, _)| option))
}

/// `words` without their `--out` (`--out VALUE` or `--out=VALUE`), and its value. Words
/// after a `--` are values, not options.
fn take_out(words: &[String]) -> anyhow::Result<(Vec<String>, Option<String>)> {
    let mut rest = Vec::new();
    let mut out = None;
    let mut words = words.iter();
    while let Some(word) = words.next() {
        if word == "--" {
            rest.push(word.clone());
            rest.extend(words.by_ref().cloned());
            break;
        }
        if option_of(word) != Some("--out") {
            rest.push(word.clone());
            continue;
        }
        let value = match word.split_once('=') {
            Some((_, value)) => value.to_string(),
            None => words
                .next()
                .cloned()
                .ok_or_else(|| input_error(anyhow::anyhow!("the command's --out has no value")))?,
        };
        if out.replace(value).is_some() {
            return Err(input_error(anyhow::anyhow!(
                "the command gives --out twice; give the merged result once"
            )));
        }
    }
    Ok((rest, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn out_is_taken_out_in_both_spellings() {
        let sweep = parse(
            &words("netsim sweep --graph 2,3 --out sweep --cycles 10"),
            4,
        )
        .unwrap();
        assert_eq!(
            sweep,
            Sharded {
                name: "netsim sweep".into(),
                args: words("netsim sweep --graph 2,3 --cycles 10"),
                out: Some("sweep".into()),
                force: false,
            }
        );
        let joined = parse(&words("netsim sweep --out=a=b --graph 2,3"), 2).unwrap();
        assert_eq!(joined.args, words("netsim sweep --graph 2,3"));
        assert_eq!(joined.out.as_deref(), Some("a=b"));
        let without = parse(&words("netsim sweep --graph 2,3"), 2).unwrap();
        assert_eq!(without.out, None);
    }

    #[test]
    fn out_twice_or_without_a_value_is_refused() {
        let error = take_out(&words("netsim sweep --out a --out=b")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the command gives --out twice; give the merged result once"
        );
        let error = take_out(&words("netsim sweep --out")).unwrap_err();
        assert_eq!(error.to_string(), "the command's --out has no value");
    }
}
