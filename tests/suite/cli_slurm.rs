//! `kautzgen slurm`: the job script's exact text, what it hands sbatch (a stand-in sbatch
//! that records its arguments and scripts), the array tasks' check of their array, the
//! refusals before anything is written, and a sweep in four shards on a real one-node
//! Slurm cluster (common::slurm), merged and compared byte for byte with the sweep run
//! whole.

use crate::common;

use common::kautzgen_in;
use common::slurm::Cluster;
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The binary the scripts name: the running kautzgen, as the system resolves it.
fn kautzgen_binary() -> String {
    std::fs::canonicalize(env!("CARGO_BIN_EXE_kautzgen"))
        .unwrap()
        .display()
        .to_string()
}

/// The sweep of the tests: K(2,3), faulty nodes 0 and 1, two rates: four points.
const SWEEP: [&str; 8] = [
    "netsim",
    "sweep",
    "--graph",
    "2,3",
    "--rates",
    "0.01,0.02",
    "--cycles",
    "500",
];

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_script_runs_the_shards_as_an_array_and_merges_after_them() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().display().to_string();
    let mut args = vec![
        "slurm",
        "--shards",
        "2",
        "--job-name",
        r#"sweep "A""#,
        "--time",
        "10:00",
        "--sbatch-arg=--qos=normal",
        "--",
    ];
    args.extend(SWEEP);
    args.extend([
        "--vary",
        "message-bytes=4,64@0.1;16",
        "--max-bytes",
        "64",
        "--out",
        "it's my sweep",
    ]);
    let (code, stdout, stderr) = kautzgen_in(root.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "wrote it's my sweep.slurm.sh: netsim sweep in 2 shards, parts in {dir}/it's my sweep.parts, merged into {dir}/it's my sweep\n\
             submit it with: bash 'it'\\''s my sweep.slurm.sh'\n"
        )
    );
    assert_eq!(names(root.path()), ["it's my sweep.slurm.sh"]);
    let kautzgen = kautzgen_binary();
    let version = env!("CARGO_PKG_VERSION");
    let command = "netsim sweep --graph 2,3 --rates 0.01,0.02 --cycles 500 --vary 'message-bytes=4,64@0.1;16' --max-bytes 64";
    let parts = format!(r"'{dir}/it'\''s my sweep.parts'");
    let result = format!(r"'{dir}/it'\''s my sweep'");
    let script = r#"'it'\''s my sweep.slurm.sh'"#;
    let expected = format!(
        r#"#!/usr/bin/env bash
# Runs on Slurm, in 2 shards:
#   kautzgen {command}
# Task I of a job array writes part I into {parts};
# a job that waits for every task to succeed merges the parts into {result}.
# Written by kautzgen {version} (kautzgen slurm; docs/cluster.md).
#
#   bash {script}          submits both jobs and prints their ids
#   bash {script} merge    submits the merge alone, once every part is there
#
# Shard I (0 to 1) runs again on its own with
#   {kautzgen} {command} --shard I/2 --out {parts}/part-I.json
set -euo pipefail

mkdir -p {parts}

submit_shards() {{
  sbatch --parsable --job-name='sweep "A"' --chdir={dir} \
    --output={parts}/slurm-%A_%a.out --array=0-1 --time=10:00 --qos=normal <<'SHARD'
#!/usr/bin/env bash
set -euo pipefail
if [ "${{SLURM_ARRAY_TASK_COUNT-}}" != 2 ] || [ "${{SLURM_ARRAY_TASK_MIN-}}" != 0 ] ||
  [ "${{SLURM_ARRAY_TASK_MAX-}}" != 1 ]; then
  echo "error: this job array's tasks are not 0 to 1 (SLURM_ARRAY_TASK_COUNT=${{SLURM_ARRAY_TASK_COUNT-unset}}), one per shard: submit it with the script kautzgen slurm wrote" >&2
  exit 2
fi
exec {kautzgen} {command} --shard ${{SLURM_ARRAY_TASK_ID}}/${{SLURM_ARRAY_TASK_COUNT}} --out {parts}/part-${{SLURM_ARRAY_TASK_ID}}.json
SHARD
}}

# Options: --dependency, to wait for the shards.
submit_merge() {{
  sbatch --parsable --job-name='sweep "A"'-merge --chdir={dir} \
    --output={parts}/slurm-merge-%j.out --kill-on-invalid-dep=yes --time=10:00 --qos=normal "$@" <<'MERGE'
#!/usr/bin/env bash
set -euo pipefail
exec {kautzgen} merge {parts}/part-{{0..1}}.json --out {result}
MERGE
}}

case "${{1-}}" in
  "")
    shards=$(submit_shards)
    shards=${{shards%%;*}}
    merge=$(submit_merge --dependency=afterok:"$shards")
    echo "shards: $shards"
    echo "merge: ${{merge%%;*}}"
    ;;
  merge)
    merge=$(submit_merge)
    echo "merge: ${{merge%%;*}}"
    ;;
  *)
    echo "usage: bash $0 [merge]" >&2
    exit 2
    ;;
esac
"#
    );
    let written = std::fs::read_to_string(root.path().join("it's my sweep.slurm.sh")).unwrap();
    assert_eq!(written, expected);
}

/// A stand-in for sbatch in `dir`: call n (from 101) records its arguments in `args-n`,
/// one a line, and its script (standard input) in `script-n`, and prints `n;cluster`, as
/// sbatch --parsable does on a cluster of a federation.
fn fake_sbatch(dir: &Path) {
    let path = dir.join("sbatch");
    std::fs::write(
        &path,
        format!(
            "#!/usr/bin/env bash\nset -eu\ncd '{}'\n\
             n=$(($(cat count 2>/dev/null || echo 100) + 1))\necho $n > count\n\
             printf '%s\\n' \"$@\" > args-$n\ncat > script-$n\necho \"$n;cluster\"\n",
            dir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `kautzgen args` in `dir` with `path_first` ahead of PATH: status, stdout, stderr.
fn kautzgen_with_path(dir: &Path, path_first: &Path, args: &[&str]) -> (i32, String, String) {
    let path = std::env::join_paths(
        std::iter::once(path_first.to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The lines of `path`.
fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn submit_hands_sbatch_the_array_then_the_merge_that_waits_for_it() {
    let root = tempfile::tempdir().unwrap();
    let bin = root.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    fake_sbatch(&bin);
    let work = root.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let dir = work.display().to_string();
    let mut args = vec![
        "slurm",
        "--shards",
        "3",
        "--partition",
        "short",
        "--account",
        "proj",
        "--cpus-per-task",
        "2",
        "--mem",
        "1G",
        "--parts",
        "p",
        "--script",
        "job.sh",
        "--submit",
        "--out",
        "sweep",
        "--",
    ];
    args.extend(SWEEP);
    // The command's --force is the merge's: the merge writes the result.
    args.push("--force");
    let (code, stdout, stderr) = kautzgen_with_path(&work, &bin, &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "wrote job.sh: netsim sweep in 3 shards, parts in {dir}/p, merged into {dir}/sweep\n\
             submitted the shards as job array 101 (tasks 0-2) and the merge as job 102, which waits for them\n"
        )
    );
    assert_eq!(names(&work), ["job.sh", "p"]);
    let options = [
        "--partition=short",
        "--account=proj",
        "--cpus-per-task=2",
        "--mem=1G",
    ];
    let mut shards = vec![
        "--parsable".to_string(),
        "--job-name=kautzgen-netsim-sweep".to_string(),
        format!("--chdir={dir}"),
        format!("--output={dir}/p/slurm-%A_%a.out"),
        "--array=0-2".to_string(),
    ];
    shards.extend(options.map(String::from));
    assert_eq!(lines(&bin.join("args-101")), shards);
    let mut merge = vec![
        "--parsable".to_string(),
        "--job-name=kautzgen-netsim-sweep-merge".to_string(),
        format!("--chdir={dir}"),
        format!("--output={dir}/p/slurm-merge-%j.out"),
        "--kill-on-invalid-dep=yes".to_string(),
    ];
    merge.extend(options.map(String::from));
    merge.push("--dependency=afterok:101".to_string());
    assert_eq!(lines(&bin.join("args-102")), merge);
    let kautzgen = kautzgen_binary();
    let merge_script = std::fs::read_to_string(bin.join("script-102")).unwrap();
    assert_eq!(
        merge_script,
        format!(
            "#!/usr/bin/env bash\nset -euo pipefail\n\
             exec {kautzgen} merge {dir}/p/part-{{0..2}}.json --out {dir}/sweep --force\n"
        )
    );

    // `bash job.sh merge` submits the merge alone, waiting for nothing.
    let run = Command::new("bash")
        .args(["job.sh", "merge"])
        .current_dir(&work)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&run.stdout), "merge: 103\n");
    merge.pop();
    assert_eq!(lines(&bin.join("args-103")), merge);
    assert_eq!(
        std::fs::read_to_string(bin.join("script-103")).unwrap(),
        merge_script
    );
}

#[test]
fn an_array_task_refuses_an_array_of_other_tasks() {
    let root = tempfile::tempdir().unwrap();
    let bin = root.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    fake_sbatch(&bin);
    let mut args = vec!["slurm", "--shards", "4", "--submit", "--out", "s", "--"];
    args.extend(SWEEP);
    let (code, _, stderr) = kautzgen_with_path(root.path(), &bin, &args);
    assert_eq!(code, 0, "{stderr}");
    // Tasks 0 to 3 of four, as sbatch --array=0-3 sets them, but a count, a first or a last
    // task of another array.
    for (count, min, max) in [
        ("3", "0", "2"),
        ("4", "0", "6"),
        ("4", "1", "4"),
        ("", "", ""),
    ] {
        let task = Command::new("bash")
            .arg(bin.join("script-101"))
            .env("SLURM_ARRAY_TASK_ID", "1")
            .env("SLURM_ARRAY_TASK_COUNT", count)
            .env("SLURM_ARRAY_TASK_MIN", min)
            .env("SLURM_ARRAY_TASK_MAX", max)
            .output()
            .unwrap();
        assert_eq!(task.status.code(), Some(2), "{count} {min} {max}");
        assert_eq!(
            String::from_utf8_lossy(&task.stderr),
            format!(
                "error: this job array's tasks are not 0 to 3 (SLURM_ARRAY_TASK_COUNT={count}), one per shard: submit it with the script kautzgen slurm wrote\n"
            )
        );
    }
    assert_eq!(names(root.path()), ["bin", "s.parts", "s.slurm.sh"]);
    assert_eq!(names(&root.path().join("s.parts")), Vec::<String>::new());
}

#[test]
fn bad_commands_and_options_are_refused_before_anything_is_written() {
    let root = tempfile::tempdir().unwrap();
    let sweep = SWEEP.join(" ");
    let cases: [(String, &str); 18] = [
        (
            "--shards 2 -- routes --d 2 --k 3 --out r".into(),
            "'routes' does not run in shards; kautzgen slurm runs netsim, netsim sweep, netsim saturate, netsim compare, netsim torus fig4, torus deadlock-sweep, verify, verify kautz, verify ldi, verify mrns and verify torus",
        ),
        (
            "--shards 2 -- verify switch --d 2 --out r".into(),
            "'verify switch' does not run in shards; kautzgen slurm runs netsim, netsim sweep, netsim saturate, netsim compare, netsim torus fig4, torus deadlock-sweep, verify, verify kautz, verify ldi, verify mrns and verify torus",
        ),
        (
            "--shards 2 -- nonsense --out s".into(),
            "give the command to run in shards after --, as: -- netsim sweep --graph 2,3 --out sweep",
        ),
        (
            format!("--shards 2 -- {sweep} --rates x --out s"),
            "kautzgen netsim sweep: invalid value 'x' for '--rates <RATES>': invalid float literal (see kautzgen netsim sweep --help)",
        ),
        (
            format!("--shards 2 -- {sweep} --seeds 0x --out s"),
            "kautzgen netsim sweep: invalid value '0x' for '--seeds <N>': invalid digit found in string (see kautzgen netsim sweep --help)",
        ),
        (
            "--shards 2 -- netsim --d 2 --k 3 --rate 0.01 --cycles 100 --out s".into(),
            "kautzgen netsim: these options run it whole, not in shards",
        ),
        (
            format!("--shards 2 -- {sweep} --rates 2 --out s"),
            "kautzgen netsim sweep: rates must be above 0 and at most 1, got 2",
        ),
        (
            format!("--shards 2 -- {sweep} --shard=1/2 --out s"),
            "the command gives --shard=1/2: kautzgen slurm gives each array task its shard; leave it out",
        ),
        (
            format!("--shards 2 -- {sweep}"),
            "name the merged result with --out, before -- or in the command",
        ),
        (
            format!("--shards 2 --out a -- {sweep} --out b"),
            "--out is given twice, before -- and in the command; give the merged result once",
        ),
        (
            format!("--shards 2 -- {sweep} --out a --out=b"),
            "the command gives --out twice; give the merged result once",
        ),
        (
            format!("--shards 2 --out - -- {sweep}"),
            "--out -: the merge runs as a batch job, whose standard output is a log; name a file or directory",
        ),
        (
            format!("--shards 2 --sbatch-arg=--array=0-9 -- {sweep} --out s"),
            "--sbatch-arg '--array=0-9': the job script sets --array itself",
        ),
        (
            format!("--shards 2 --sbatch-arg -J -- {sweep} --out s"),
            "--sbatch-arg '-J': the job script sets --job-name itself",
        ),
        (
            format!("--shards 2 --sbatch-arg qos -- {sweep} --out s"),
            "--sbatch-arg 'qos' is not an sbatch option; give one option with its value, as --sbatch-arg=--qos=debug",
        ),
        (
            format!("--shards 2 --partition= -- {sweep} --out s"),
            "--partition is empty",
        ),
        (
            format!("--shards 2 --kautzgen /no/kautzgen -- {sweep} --out s"),
            "--kautzgen '/no/kautzgen' is not a file; give the path of the kautzgen the jobs run",
        ),
        (
            format!("--shards 2 --parts 100% -- {sweep} --out s"),
            "--parts '{dir}/100%': Slurm reads % in its log files' names as a pattern; choose a directory without %",
        ),
    ];
    let dir = root.path().display().to_string();
    for (args, message) in &cases {
        let mut words = vec!["slurm"];
        words.extend(args.split(' '));
        let (code, stdout, stderr) = kautzgen_in(root.path(), &words);
        let message = message.replace("{dir}", &dir);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (2, "", format!("error: {message}\n").as_str()),
            "{args}"
        );
    }
    let (code, _, stderr) = kautzgen_in(root.path(), &["slurm", "--shards", "0", "--", "verify"]);
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "error: invalid value '0' for '--shards <N>': 0 is not in 1..18446744073709551615 (see --help)\n"
        )
    );
    // --submit where no sbatch is on PATH, which holds only an empty directory.
    let empty = tempfile::tempdir().unwrap();
    let mut words = vec!["slurm", "--shards", "2", "--submit", "--out", "s", "--"];
    words.extend(SWEEP);
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(&words)
        .current_dir(root.path())
        .env("PATH", empty.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: sbatch is not on PATH: --submit runs where Slurm jobs are submitted (apt-get install slurm-client, or a cluster's login node)\n"
    );
    assert_eq!(names(root.path()), Vec::<String>::new());
}

/// The files under `dir` by their paths below it, with their bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                files.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    files
}

/// The job id after `marker` in `text`.
fn id_after<'a>(text: &'a str, marker: &str) -> &'a str {
    let (_, after) = text
        .split_once(marker)
        .unwrap_or_else(|| panic!("no '{marker}' in {text}"));
    let end = after
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(after.len());
    assert!(end > 0, "no job id after '{marker}' in {text}");
    &after[..end]
}

/// How long the two jobs may take on the one-node cluster (they take about 6 s).
const JOBS_TIMEOUT: Duration = Duration::from_secs(120);

#[test]
fn a_sweep_in_four_shards_on_slurm_merges_into_the_sweep_run_whole() {
    let cluster = Cluster::start();
    let root = tempfile::tempdir().unwrap();
    let mut args = vec!["slurm", "--shards", "4", "--submit", "--"];
    args.extend(SWEEP);
    args.extend(["--out", "sharded"]);
    let submitted = cluster
        .command(env!("CARGO_BIN_EXE_kautzgen"))
        .args(&args)
        .current_dir(root.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&submitted.stdout);
    assert!(
        submitted.status.success(),
        "{stdout}{}\n{}",
        String::from_utf8_lossy(&submitted.stderr),
        cluster.logs()
    );
    let shards = id_after(&stdout, "as job array ");
    let merge = id_after(&stdout, "the merge as job ");

    let result = root.path().join("sharded");
    let parts = root.path().join("sharded.parts");
    let start = Instant::now();
    let failure = |what: &str| {
        let logs: String = names(&parts)
            .iter()
            .filter(|n| n.starts_with("slurm-"))
            .map(|n| {
                format!(
                    "--- {n}\n{}",
                    std::fs::read_to_string(parts.join(n)).unwrap_or_default()
                )
            })
            .collect();
        panic!("{what}\n{logs}{}", cluster.logs());
    };
    loop {
        let queue = cluster
            .command("squeue")
            .args(["-h", "-o", "%i", "-j", &format!("{shards},{merge}")])
            .output()
            .unwrap();
        let queued = String::from_utf8_lossy(&queue.stdout);
        if queued.trim().is_empty() && result.exists() {
            break;
        }
        if queued.trim().is_empty() && start.elapsed() > Duration::from_secs(5) {
            failure("both jobs left the queue, and the merge wrote no result");
        }
        if start.elapsed() > JOBS_TIMEOUT {
            failure(&format!(
                "the jobs did not end in {JOBS_TIMEOUT:?}: squeue shows {queued:?}"
            ));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    eprintln!(
        "the jobs ended {:.1?} after their submission",
        start.elapsed()
    );

    let mut whole = SWEEP.to_vec();
    whole.extend(["--out", "whole"]);
    let (code, _, stderr) = kautzgen_in(root.path(), &whole);
    assert_eq!(code, 0, "{stderr}");
    let sharded = tree(&result);
    assert_eq!(sharded, tree(&root.path().join("whole")));
    assert!(sharded.contains_key(Path::new("sweep.csv")));
    let mut in_parts: Vec<String> = names(&parts);
    in_parts.retain(|n| n.starts_with("part-"));
    assert_eq!(
        in_parts,
        ["part-0.json", "part-1.json", "part-2.json", "part-3.json"]
    );
}
