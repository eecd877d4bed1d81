//! The network model's speed and memory on several thread counts: each run is a `kautzgen
//! netsim` process of its own, timed whole, set-up included, whose peak memory is its
//! own: its high-water resident set (VmHWM in /proc/PID/status), read every millisecond
//! while it runs. (The kernel's maximum resident set of a child, from `wait4`, counts the
//! memory of the parent it was forked from.)
//!
//! In: the kautzgen program, runs (a Kautz graph, a rate, injection cycles) and thread
//! counts. Out: a [`NetworkMeasurement`] per run and thread count, and their table with
//! switch-cycles per second, the speedup over one thread and the bytes per node, measured
//! and estimated ([`crate::network::memory`]).

use crate::network::memory;
use crate::network::net::{Net, NetParams};
use crate::network::plan::{KautzPlan, PlanError};
use crate::rtl::kautz_route::faithful::cycle_bound;
use crate::topology::kautz::Kautz;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum NetworkBenchError {
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("running {program}: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("`kautzgen {command}` failed: {stderr}")]
    Failed { command: String, stderr: String },
    #[error("`kautzgen {command}` printed no summary with the cycles run")]
    NoSummary { command: String },
}

/// One run of the network model: uniform traffic of 16-byte messages at `rate` (seed 1,
/// no faults) for `cycles` injection cycles and the drain.
#[derive(Debug, Clone, Copy)]
pub struct NetworkRun {
    pub graph: Kautz,
    pub rate: f64,
    pub cycles: u64,
}

/// How fast, and in how much memory, one run went on `threads` threads.
#[derive(Debug, Clone)]
pub struct NetworkMeasurement {
    pub run: NetworkRun,
    pub threads: usize,
    pub nodes: u64,
    /// Cycles run, the drain included.
    pub cycles_run: u64,
    pub elapsed: Duration,
    /// The process's peak resident memory, and that of a process that runs nothing.
    pub peak_bytes: u64,
    pub idle_bytes: u64,
    /// The memory the run was estimated to take before it started (the program's own
    /// included).
    pub estimated_bytes: u64,
}

impl NetworkMeasurement {
    /// Switches times cycles run: the work of a cycle-by-cycle network simulation.
    pub fn switch_cycles(&self) -> u64 {
        self.nodes * self.cycles_run
    }

    /// The run's own memory per node: the peak above an idle process's.
    pub fn bytes_per_node(&self) -> f64 {
        self.peak_bytes.saturating_sub(self.idle_bytes) as f64 / self.nodes as f64
    }
}

/// The peak memory of a `program` process that runs nothing: a netsim of K(2,2) for one
/// cycle without traffic.
pub fn idle_bytes(program: &Path) -> Result<u64, NetworkBenchError> {
    let idle = Kautz::new(2, 2).expect("K(2,2) is a graph");
    Ok(netsim(program, &idle, 0.0, 1, 1)?.2)
}

/// `run` on each of `threads` thread counts, with `program` (the kautzgen executable), whose
/// idle process takes `idle_bytes` ([`idle_bytes`]).
pub fn measure(
    program: &Path,
    run: NetworkRun,
    threads: &[usize],
    idle_bytes: u64,
) -> Result<Vec<NetworkMeasurement>, NetworkBenchError> {
    let route_cycles = cycle_bound(run.graph.d(), run.graph.k()) as u64;
    let plan = Arc::new(KautzPlan::new(run.graph, route_cycles)?);
    let params = NetParams::uniform(plan, run.rate, 16, run.cycles, 1);
    let estimated_bytes = Net::estimate(&params).bytes;
    threads
        .iter()
        .map(|&t| {
            let (elapsed, cycles_run, peak_bytes) =
                netsim(program, &run.graph, run.rate, run.cycles, t)?;
            Ok(NetworkMeasurement {
                run,
                threads: t,
                nodes: run.graph.node_count().expect("a graph the model holds"),
                cycles_run,
                elapsed,
                peak_bytes,
                idle_bytes,
                estimated_bytes,
            })
        })
        .collect()
}

/// One `kautzgen netsim` process: its wall time, cycles run and peak resident bytes.
fn netsim(
    program: &Path,
    graph: &Kautz,
    rate: f64,
    cycles: u64,
    threads: usize,
) -> Result<(Duration, u64, u64), NetworkBenchError> {
    let args = format!(
        "--quiet --threads {threads} netsim --d {} --k {} --rate {rate} --cycles {cycles} --format json",
        graph.d(),
        graph.k()
    );
    let start = Instant::now();
    let spawn_error = |source| NetworkBenchError::Spawn {
        program: program.display().to_string(),
        source,
    };
    let mut tool = crate::interrupt::child::spawn(
        Command::new(program)
            .args(args.split(' '))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .map_err(spawn_error)?;
    let pid = tool.child_mut().id();
    let watcher = std::thread::spawn(move || high_water(pid));
    // Standard error is read after standard output: netsim writes little to it, far less
    // than a pipe holds.
    let child = tool.child_mut();
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let read = (child
        .stdout
        .take()
        .expect("piped")
        .read_to_string(&mut stdout))
    .and_then(|_| {
        child
            .stderr
            .take()
            .expect("piped")
            .read_to_string(&mut stderr)
    });
    let peak_bytes = watcher.join().expect("the memory watcher does not panic");
    let status = tool.wait().map_err(spawn_error)?;
    read.map_err(spawn_error)?;
    let elapsed = start.elapsed();
    if !status.success() {
        return Err(NetworkBenchError::Failed {
            command: args,
            stderr: stderr.trim().to_string(),
        });
    }
    let cycles_run = serde_json::from_str::<serde_json::Value>(&stdout)
        .ok()
        .and_then(|summary| summary["cycles"].as_u64())
        .ok_or(NetworkBenchError::NoSummary { command: args })?;
    Ok((elapsed, cycles_run, peak_bytes))
}

/// The highest VmHWM of process `pid`, read every millisecond until it has exited (a
/// process that has exited shows none, though it is not yet waited for).
fn high_water(pid: u32) -> u64 {
    let path = format!("/proc/{pid}/status");
    let read = || {
        let status = std::fs::read_to_string(&path).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    };
    let mut peak = 0;
    while let Some(kib) = read() {
        peak = peak.max(kib * 1024);
        std::thread::sleep(Duration::from_millis(1));
    }
    peak
}

/// The measurements as an aligned text table: switch-cycles simulated per second, the
/// speedup over the same run's one-thread row, and memory: the peak, and per node the
/// measured and the estimated memory above the program's own.
pub fn network_table(rows: &[NetworkMeasurement]) -> String {
    let mut text = format!(
        "{:<14}  {:>6}  {:>7}  {:>7}  {:>12}  {:>8}  {:>15}  {:>7}  {:>8}  {:>10}  {:>10}\n",
        "network model",
        "rate",
        "cycles",
        "threads",
        "switch-cycles",
        "seconds",
        "switch-cycles/s",
        "speedup",
        "peak MB",
        "bytes/node",
        "estimated"
    );
    for row in rows {
        let one = rows.iter().find(|r| {
            r.threads == 1 && r.run.graph == row.run.graph && r.run.cycles == row.run.cycles
        });
        let speedup = one.map_or("-".to_string(), |one| {
            format!(
                "{:.2}",
                one.elapsed.as_secs_f64() / row.elapsed.as_secs_f64()
            )
        });
        text += &format!(
            "{:<14}  {:>6}  {:>7}  {:>7}  {:>12}  {:>8.2}  {:>15.0}  {:>7}  {:>8.1}  {:>10.0}  {:>10.0}\n",
            format!("K({},{})", row.run.graph.d(), row.run.graph.k()),
            row.run.rate,
            row.run.cycles,
            row.threads,
            row.switch_cycles(),
            row.elapsed.as_secs_f64(),
            row.switch_cycles() as f64 / row.elapsed.as_secs_f64(),
            speedup,
            row.peak_bytes as f64 / 1e6,
            row.bytes_per_node(),
            row.estimated_bytes.saturating_sub(memory::PROGRAM) as f64 / row.nodes as f64,
        );
    }
    text
}
