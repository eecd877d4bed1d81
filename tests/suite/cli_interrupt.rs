//! Ctrl-C and kill: a long command stops within a second, kills the tools it started,
//! removes its temporaries, leaves the earlier output as it was, says so in one line and
//! exits 130 (SIGINT) or 143 (SIGTERM).

use rustix::process::{Pid, Signal, kill_process};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One process of /proc: its id, parent and process group.
struct Proc {
    pid: i32,
    parent: i32,
    group: i32,
}

fn processes() -> Vec<Proc> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The command name is in parentheses and may hold spaces: fields follow the last ')'.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        if fields[0] == "Z" {
            continue;
        }
        all.push(Proc {
            pid,
            parent: fields[1].parse().unwrap(),
            group: fields[2].parse().unwrap(),
        });
    }
    all
}

/// The process groups of `pid`'s children.
fn child_groups(pid: i32) -> Vec<i32> {
    processes()
        .iter()
        .filter(|p| p.parent == pid)
        .map(|p| p.group)
        .collect()
}

/// Starts kautzgen with `args`, its temporaries in `tmp`.
fn start(args: &[&str], tmp: &Path, dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(args)
        .env("TMPDIR", tmp)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits up to a minute for `ready`, failing the test if it never holds.
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready() {
        assert!(Instant::now() < deadline, "never saw {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` to `child` and returns its exit code, standard error and how long it
/// took to exit.
fn stop(mut child: Child, signal: Signal) -> (Option<i32>, String, Duration) {
    let pid = Pid::from_raw(child.id() as i32).unwrap();
    let sent = Instant::now();
    kill_process(pid, signal).unwrap();
    let status = child.wait().unwrap();
    let took = sent.elapsed();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    (status.code(), stderr, took)
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn sigint_during_verilator_kills_it_and_removes_the_temporaries() {
    let tmp = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let args = ["verify", "--d", "4", "--k", "5", "--sim", "verilator"];
    let child = start(&args, tmp.path(), here.path());
    let pid = child.id() as i32;
    // Verilator's build (make, the C++ compiler) runs under it.
    let mut groups = Vec::new();
    wait_until("verilator start", || {
        groups = child_groups(pid);
        !groups.is_empty()
    });
    assert!(!names(tmp.path()).is_empty());
    let (code, stderr, took) = stop(child, Signal::INT);
    assert_eq!(code, Some(130));
    assert_eq!(
        stderr.lines().last().unwrap(),
        "kautzgen: interrupted by SIGINT; stopped its tools and removed its temporary files"
    );
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    // kautzgen waits half a second for its killed tools to be gone. A compiler killed
    // while a loaded machine swaps can take longer to free its memory and leave: it has
    // its SIGKILL, so it must be gone within seconds (one outlived 5 s while place and
    // route ran beside the suite on both cores).
    let survivors = || -> Vec<i32> {
        processes()
            .iter()
            .filter(|p| groups.contains(&p.group))
            .map(|p| p.pid)
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(15);
    while !survivors().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(survivors(), Vec::<i32>::new(), "tools still running");
    assert_eq!(names(tmp.path()), Vec::<String>::new());
}

#[test]
fn sigterm_during_netsim_keeps_the_earlier_trace_and_leaves_no_temporary() {
    let tmp = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    std::fs::write(here.path().join("trace.jsonl"), "earlier\n").unwrap();
    // A million cycles run for minutes, and are estimated at 2.3 GiB: any machine the
    // suite runs on has that (a hundred million were refused for their memory).
    let args = [
        "netsim",
        "--d",
        "4",
        "--k",
        "6",
        "--rate",
        "0.01",
        "--cycles",
        "1000000",
        "--trace",
        "trace.jsonl",
    ];
    let child = start(&args, tmp.path(), here.path());
    wait_until("the trace's temporary", || names(here.path()).len() == 2);
    let (code, stderr, took) = stop(child, Signal::TERM);
    assert_eq!(code, Some(143));
    assert_eq!(
        stderr.trim_end(),
        "kautzgen: interrupted by SIGTERM; stopped its tools and removed its temporary files"
    );
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    assert_eq!(names(here.path()), ["trace.jsonl"]);
    assert_eq!(
        std::fs::read_to_string(here.path().join("trace.jsonl")).unwrap(),
        "earlier\n"
    );
}

#[test]
fn sigint_during_a_sweep_puts_nothing_in_place_of_the_earlier_results() {
    let tmp = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let sweep = |cycles: &str| {
        [
            "netsim", "sweep", "--graph", "4,6", "--rates", "0.01", "--cycles", cycles, "--out",
            "results",
        ]
        .map(str::to_string)
    };
    let quick = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(sweep("10"))
        .env("TMPDIR", tmp.path())
        .current_dir(here.path())
        .output()
        .unwrap();
    assert!(quick.status.success());
    let earlier = std::fs::read_to_string(here.path().join("results/sweep.csv")).unwrap();
    // Minutes of work, within the memory estimate (as in the netsim case above).
    let long = sweep("1000000");
    let args: Vec<&str> = long.iter().map(String::as_str).collect();
    let child = start(&args, tmp.path(), here.path());
    wait_until("the sweep's staging directory", || {
        names(here.path()).len() == 2
    });
    let (code, _, took) = stop(child, Signal::INT);
    assert_eq!(code, Some(130));
    assert!(took < Duration::from_secs(1), "took {took:?} to stop");
    assert_eq!(names(here.path()), ["results"]);
    assert_eq!(
        std::fs::read_to_string(here.path().join("results/sweep.csv")).unwrap(),
        earlier
    );
}
