//! The command line a result comes from, as the JSON envelope of netsim and the parts of a
//! sharded run record it: the arguments after the program's name, without the options
//! that do not change the result ([`RESULT_NEUTRAL`]), so that the same work run whole,
//! in shards, with other threads or elsewhere records the same line.
//!
//! In: the process's arguments, or (while `kautzgen merge` writes a result) the line its
//! parts recorded ([`merging`]). Out: the normalized line ([`current`]), the subcommand it
//! runs ([`command_path`]), and what differs between two lines ([`differences`]).

use std::sync::OnceLock;

/// Whether an option of [`RESULT_NEUTRAL`] takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Takes {
    Value,
    Nothing,
}

/// The options that change how, where or in how many parts a command runs, never what it
/// finds: the number of threads, the shard, the output and its `--force`, and `--quiet`.
/// They are left out of every recorded command line.
const RESULT_NEUTRAL: [(&str, Takes); 5] = [
    ("threads", Takes::Value),
    ("shard", Takes::Value),
    ("out", Takes::Value),
    ("force", Takes::Nothing),
    ("quiet", Takes::Nothing),
];

/// The line a merge writes its result for, set once by `kautzgen merge`.
static MERGED: OnceLock<Vec<String>> = OnceLock::new();

/// `words` (after the program's name) without the options of [`RESULT_NEUTRAL`] and
/// their values, in either form (`--out DIR`, `--out=DIR`).
pub fn normalized(words: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut kept = Vec::new();
    let mut words = words.into_iter();
    while let Some(word) = words.next() {
        let Some(option) = word.strip_prefix("--") else {
            kept.push(word);
            continue;
        };
        let (name, joined) = match option.split_once('=') {
            Some((name, _)) => (name, true),
            None => (option, false),
        };
        match RESULT_NEUTRAL.iter().find(|(neutral, _)| *neutral == name) {
            Some((_, Takes::Value)) if !joined => {
                words.next();
            }
            Some(_) => {}
            None => kept.push(word),
        }
    }
    kept
}

/// The normalized line of the command this process carries out: the parts' line while
/// `kautzgen merge` writes their result, the process's own otherwise.
pub fn current() -> Vec<String> {
    match MERGED.get() {
        Some(line) => line.clone(),
        None => normalized(
            std::env::args_os()
                .skip(1)
                .map(|arg| arg.to_string_lossy().into_owned()),
        ),
    }
}

/// From now on [`current`] is `line`: `kautzgen merge` writes the result of the command
/// its parts recorded, and that result names the command, not the merge. A process
/// merges once; a second call changes nothing.
pub fn merging(line: &[String]) {
    let _ = MERGED.set(line.to_vec());
}

/// The subcommands `words` (after the program's name) run, as `kautzgen` names them
/// ("netsim sweep", "verify torus"): the words that name a subcommand of the one before,
/// up to the first that does not, once the options of [`RESULT_NEUTRAL`] (the global
/// `--quiet` and `--threads` among them) are left out.
pub fn command_path(words: &[String]) -> String {
    let mut command = crate::cli::command();
    let mut path = Vec::new();
    for word in normalized(words.iter().cloned()) {
        match command.find_subcommand(&word) {
            Some(sub) => {
                path.push(sub.get_name().to_string());
                command = sub.clone();
            }
            None => break,
        }
    }
    path.join(" ")
}

/// What `b` has that `a` has not, and what `a` has that `b` has not, each as options with
/// their values ("--rate 0.02"), in their order; "nothing" for an empty side.
pub fn differences(a: &[String], b: &[String]) -> (String, String) {
    let (a, b) = (options(a), options(b));
    let only = |these: &[String], those: &[String]| {
        let mut left: Vec<&String> = those.iter().collect();
        let only: Vec<&str> = these
            .iter()
            .filter(|option| match left.iter().position(|o| o == option) {
                Some(i) => {
                    left.remove(i);
                    false
                }
                None => true,
            })
            .map(String::as_str)
            .collect();
        match only.is_empty() {
            true => "nothing".to_string(),
            false => only.join(" "),
        }
    };
    (only(&b, &a), only(&a, &b))
}

/// `words` grouped into options, each with the words after it that do not start with a
/// dash; the words before the first option (the subcommands) are one group.
fn options(words: &[String]) -> Vec<String> {
    let mut groups: Vec<Vec<&str>> = Vec::new();
    for word in words {
        match groups.last_mut() {
            Some(group) if !word.starts_with('-') => group.push(word),
            _ => groups.push(vec![word]),
        }
    }
    groups.iter().map(|group| group.join(" ")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_options_that_do_not_change_a_result_are_left_out() {
        let line = words(
            "--quiet netsim sweep --graph 2,3 --shard 1/4 --out=p1.json --rates 0.1 --threads 2 --force --out dir",
        );
        assert_eq!(
            normalized(line),
            words("netsim sweep --graph 2,3 --rates 0.1")
        );
        // A value that merely starts like one of them is kept.
        let compare = vec![
            "netsim".to_string(),
            "compare".to_string(),
            "--network".to_string(),
            "--d 2 --k 3".to_string(),
            "--outline".to_string(),
        ];
        assert_eq!(normalized(compare.clone()), compare);
    }

    #[test]
    fn a_command_path_is_its_subcommands() {
        let path = |text: &str| command_path(&words(text));
        assert_eq!(path("netsim sweep --graph 2,3"), "netsim sweep");
        assert_eq!(path("--quiet netsim --d 2 --k 3 --seeds 4"), "netsim");
        assert_eq!(path("netsim torus fig4 --seeds 2"), "netsim torus fig4");
        assert_eq!(path("torus deadlock-sweep --ks 3"), "torus deadlock-sweep");
        assert_eq!(path("verify torus --k 3 --n 2"), "verify torus");
        assert_eq!(path("verify --d 2 --k 3"), "verify");
        assert_eq!(path("nonsense sweep"), "");
    }

    #[test]
    fn differences_name_the_options_on_each_side() {
        let a = words("netsim sweep --graph 2,3 --rates 0.01 --cycles 100");
        let b = words("netsim sweep --graph 2,3 --rates 0.02 --cycles 100");
        assert_eq!(
            differences(&a, &b),
            ("--rates 0.02".to_string(), "--rates 0.01".to_string())
        );
        let c = words("netsim sweep --graph 2,3 --rates 0.01 --cycles 100 --seeds 2");
        assert_eq!(
            differences(&a, &c),
            ("--seeds 2".to_string(), "nothing".to_string())
        );
        let d = words("netsim saturate --d 2");
        assert_eq!(
            differences(&words("netsim sweep --d 2"), &d),
            ("netsim saturate".to_string(), "netsim sweep".to_string())
        );
    }
}
