//! `--threads`: a run's cycle split over 1, 2 and 3 threads, and a sweep's points run on
//! them, write the same bytes: the JSON, the trace of every message, the sweep's files.

use crate::common::kautzgen_in;
use std::path::Path;

/// The JSON summary and the trace of `netsim ARGS` on `threads` threads, in `dir`.
fn run(dir: &Path, threads: &str, args: &[&str]) -> (String, Vec<u8>) {
    let trace = format!("trace-{threads}.jsonl");
    let mut line = vec!["--threads", threads, "netsim", "--format", "json"];
    line.extend(["--trace", &trace]);
    line.extend(args);
    let (status, stdout, stderr) = kautzgen_in(dir, &line);
    assert_eq!(status, 0, "{line:?}: {stderr}");
    (stdout, std::fs::read(dir.join(&trace)).unwrap())
}

/// Each configuration keeps thousands of nodes busy in most cycles, so that their cycles
/// are cut into as many ranges as there are threads (a range steps at least 2,048 nodes:
/// K(4,7) has 20,480, K(3,8) 8,748, and at rate 0.05 each makes a message in a
/// twentieth of its cycles), and ends in every kind of event: deliveries, failures and
/// retries with faulty nodes under NACKs; acknowledgements, their losses and timeouts with
/// buffered switches.
#[test]
fn a_run_is_the_same_on_one_two_and_three_threads() {
    let dir = tempfile::tempdir().unwrap();
    let configurations: [&[&str]; 2] = [
        &[
            "--d",
            "4",
            "--k",
            "7",
            "--rate",
            "0.05",
            "--cycles",
            "8",
            "--seed",
            "3",
            "--random-faulty-nodes",
            "3",
        ],
        &[
            "--d",
            "3",
            "--k",
            "8",
            "--rate",
            "0.05",
            "--cycles",
            "8",
            "--flow",
            "vct",
            "--message-bytes",
            "1..8",
            "--max-bytes",
            "8",
        ],
    ];
    for args in configurations {
        let one = run(dir.path(), "1", args);
        assert!(
            one.1.len() > 100_000,
            "{args:?}: a short trace tells little"
        );
        for threads in ["2", "3"] {
            let other = run(dir.path(), threads, args);
            assert!(
                one.0 == other.0,
                "{args:?}: the JSON on {threads} threads differs"
            );
            assert!(
                one.1 == other.1,
                "{args:?}: the trace on {threads} threads differs"
            );
        }
    }
}

/// A sweep's points run side by side on the threads, each point's run split over them too.
#[test]
fn a_sweep_is_the_same_on_one_and_three_threads() {
    let dir = tempfile::tempdir().unwrap();
    let files = ["sweep.csv", "sweep.md", "sweep.svg"];
    let mut outputs = Vec::new();
    for threads in ["1", "3"] {
        let out = format!("sweep-{threads}");
        let line = [
            "--threads",
            threads,
            "netsim",
            "sweep",
            "--d",
            "3",
            "--k",
            "4",
            "--rates",
            "0.01,0.03,0.05",
            "--cycles",
            "400",
            "--out",
            &out,
        ];
        let (status, _, stderr) = kautzgen_in(dir.path(), &line);
        assert_eq!(status, 0, "{stderr}");
        let read = |f: &str| std::fs::read(dir.path().join(&out).join(f)).unwrap();
        outputs.push(files.map(read));
    }
    for (i, file) in files.iter().enumerate() {
        assert!(outputs[0][i] == outputs[1][i], "{file} differs");
    }
}
