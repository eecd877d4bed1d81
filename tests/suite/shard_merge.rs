//! Sharded runs and `kautzgen merge` (docs/sharding.md): for every shardable command, the
//! parts of 1, 2 and 3 shards merge into what the whole run writes and prints, byte for
//! byte, whatever the order of the parts (3 shards of a run with fewer items too, leaving
//! a shard empty); parts that are not the shards of one run are refused in one line with
//! exit status 2.

use crate::common::kautzgen;
use std::path::Path;

/// What is at `path`: a file's bytes under the name "", or every file of a directory (its
/// marker too) by name.
fn contents(path: &Path) -> Vec<(String, Vec<u8>)> {
    if path.is_file() {
        return vec![(String::new(), std::fs::read(path).unwrap())];
    }
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(entry.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// `line` run with `--out`, which must succeed: what it printed and what it wrote.
fn whole(root: &Path, line: &[&str]) -> (String, Vec<(String, Vec<u8>)>) {
    let out = root.join("whole");
    let mut args = line.to_vec();
    args.extend(["--out", out.to_str().unwrap()]);
    let (status, stdout, stderr) = kautzgen(&args);
    assert_eq!(status, 0, "{args:?}: {stderr}");
    (stdout, contents(&out))
}

/// Runs shard I/`count` of `line` for every I, each writing its part to `root`, and
/// checks the line each prints: how many of the `items` it ran, by the definition of a
/// shard (the positions p with p mod N = I). Returns the parts' paths, last shard first.
fn shards(root: &Path, command: &str, line: &[&str], items: u64, count: u64) -> Vec<String> {
    let mut parts = Vec::new();
    for index in 0..count {
        let part = root.join(format!("part-{index}-of-{count}.json"));
        let part = part.to_str().unwrap().to_string();
        let shard = format!("{index}/{count}");
        let mut args = line.to_vec();
        args.extend(["--shard", &shard, "--out", &part]);
        let (status, stdout, stderr) = kautzgen(&args);
        assert_eq!(status, 0, "{args:?}: {stderr}");
        let ran = (0..items).filter(|p| p % count == index).count();
        assert_eq!(
            stdout,
            format!("shard {shard} of {command}: {ran} of the {items} items, written to {part}\n")
        );
        parts.insert(0, part);
    }
    parts
}

/// `line` (a command of `items` items, named `command` in its parts) run whole and in each
/// of `counts` shards: the merge of each set of parts, given last shard first, writes to
/// `--out` and prints what the whole run does.
fn merges_like_the_whole_run(command: &str, line: &[&str], items: u64, counts: &[u64]) {
    let root = tempfile::tempdir().unwrap();
    let (printed, written) = whole(root.path(), line);
    for &count in counts {
        let parts = shards(root.path(), command, line, items, count);
        let merged = root.path().join(format!("merged-{count}"));
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        args.extend(["--out", merged.to_str().unwrap()]);
        let (status, stdout, stderr) = kautzgen(&args);
        assert_eq!(status, 0, "{args:?}: {stderr}");
        assert_eq!(stdout, printed, "{count} shards of {line:?}");
        assert!(contents(&merged) == written, "{count} shards of {line:?}");
    }
}

const SWEEP: [&str; 8] = [
    "netsim",
    "sweep",
    "--graph",
    "2,3",
    "--rates",
    "0.01,0.02",
    "--cycles",
    "100",
];

#[test]
fn a_sweep_merges_into_its_whole_run() {
    // K(2,3): 0 and 1 faulty nodes at two rates.
    merges_like_the_whole_run("netsim sweep", &SWEEP, 4, &[1, 2, 3]);
    // One fault count, two rates: the third of three shards is empty.
    let mut line = SWEEP.to_vec();
    line.extend(["--random-faulty-nodes", "0"]);
    merges_like_the_whole_run("netsim sweep", &line, 2, &[3]);
}

#[test]
fn fig4_merges_into_its_whole_run() {
    // 3 algorithms, n = 4..9, 0..4 faulty links, one seed: 90 runs.
    let line = ["netsim", "torus", "fig4", "--seeds", "1"];
    merges_like_the_whole_run("netsim torus fig4", &line, 90, &[1, 2, 3]);
}

#[test]
fn a_saturation_search_is_one_item_and_merges_into_its_whole_run() {
    // The bisection is one item: of 2 or 3 shards, all but the first are empty.
    let line = [
        "netsim", "saturate", "--d", "2", "--k", "3", "--cycles", "300", "--format", "json",
    ];
    merges_like_the_whole_run("netsim saturate", &line, 1, &[1, 2, 3]);
}

#[test]
fn a_comparison_merges_into_its_whole_run() {
    // Two networks under two patterns: four searches, uniform's with its fault runs.
    let line = [
        "netsim",
        "compare",
        "--network",
        "--d 2 --k 3",
        "--network",
        "--topology torus --k 3 --n 2",
        "--traffic",
        "uniform,tornado",
        "--cycles",
        "300",
    ];
    merges_like_the_whole_run("netsim compare", &line, 4, &[1, 2, 3]);
}

#[test]
fn the_runs_of_seeds_merge_into_the_whole_runs_figures() {
    let line = [
        "netsim", "--d", "2", "--k", "3", "--rate", "0.01", "--cycles", "200", "--seeds", "4",
        "--format", "json",
    ];
    merges_like_the_whole_run("netsim", &line, 4, &[1, 2, 3]);
    // Without --out the merge prints what the whole run prints; two seeds in three shards.
    let mut two = line.to_vec();
    two[10] = "2";
    two[12] = "text";
    let root = tempfile::tempdir().unwrap();
    let parts = shards(root.path(), "netsim", &two, 2, 3);
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    let (status, merged, stderr) = kautzgen(&merge);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(merged, kautzgen(&two).1);
    assert!(
        merged.starts_with(
            "K(2,3): uniform traffic at rate 0.01 for 200 cycles, 2 runs (seeds 1 to 2)"
        ),
        "{merged}"
    );
}

#[test]
fn a_deadlock_sweep_merges_into_its_whole_table() {
    // The 3-ary 2-cube: e-cube, double e-cube, west-first and direction-first, three
    // fault sets each.
    let line = ["torus", "deadlock-sweep", "--ks", "3", "--ns", "2"];
    merges_like_the_whole_run("torus deadlock-sweep", &line, 12, &[1, 2, 3]);
}

/// Runs `kautzgen merge` with `args`; it must refuse them with exit status 2, printing
/// nothing and `message` on standard error.
fn refused(args: &[&str], message: &str) {
    let mut line = vec!["merge"];
    line.extend(args);
    let (status, stdout, stderr) = kautzgen(&line);
    assert_eq!((status, stdout.as_str()), (2, ""), "{line:?}: {stderr}");
    assert_eq!(stderr, format!("error: {message}\n"), "{line:?}");
}

#[test]
fn parts_that_are_not_the_shards_of_one_run_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let name = |file: &str| root.join(file).to_str().unwrap().to_string();
    let shard = |line: &[&str], shard: &str, file: &str| {
        let mut args = line.to_vec();
        let part = name(file);
        args.extend([
            "--random-faulty-nodes",
            "0",
            "--shard",
            shard,
            "--out",
            &part,
        ]);
        let (status, _, stderr) = kautzgen(&args);
        assert_eq!(status, 0, "{stderr}");
        part
    };
    let (a, b) = (
        shard(&SWEEP, "0/2", "a.json"),
        shard(&SWEEP, "1/2", "b.json"),
    );
    let mut faster = SWEEP.to_vec();
    faster[5] = "0.01,0.03";
    let other = shard(&faster, "1/2", "other.json");
    let of_three = shard(&SWEEP, "1/3", "of-three.json");
    refused(
        &[&a, &other],
        &format!(
            "merge: part {other} comes from another configuration than {a} (--rates 0.01,0.03 against --rates 0.01,0.02)"
        ),
    );
    refused(&[&a], "merge: shard 1/2 is missing");
    refused(
        &[&b, &a, &b],
        &format!("merge: shard 1/2 is given twice ({b}, {b})"),
    );
    refused(
        &[&a, &of_three],
        &format!(
            "merge: part {of_three} is shard 1/3 and {a} shard 0/2: the parts of one run have one shard count"
        ),
    );
    let text = name("notes.txt");
    std::fs::write(&text, "my notes\n").unwrap();
    refused(
        &[&a, &text],
        &format!(
            "merge: {text} is not a kautzgen part (not JSON: expected value at line 1 column 1)"
        ),
    );
    let json = name("other.json");
    std::fs::write(&json, "{\"format\": \"geojson\"}\n").unwrap();
    refused(
        &[&json],
        &format!("merge: {json} is not a kautzgen part (its format is not kautzgen-part)"),
    );
    refused(
        &[&a, &b],
        "merge: netsim sweep writes its result to --out only: give --out",
    );
    // The result goes where the command's own --out would put it, refused as it refuses.
    let mine = root.join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "mine").unwrap();
    refused(
        &[&a, &b, "--out", mine.to_str().unwrap()],
        &format!(
            "'{}' exists and was not written by kautzgen (no .kautzgen marker); give --force to replace it",
            mine.display()
        ),
    );
    let (status, stdout, stderr) =
        kautzgen(&["merge", &a, &b, "--out", mine.to_str().unwrap(), "--force"]);
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.starts_with("| network |"), "{stdout}");
}
