//! Running nextpnr so that it ends.
//!
//! nextpnr's router1 (the iCE40 default) can rip up and re-route the same few arcs for
//! ever on some placements: nextpnr issues #179 and #1341, and seen here with
//! nextpnr-ice40 0.4 on the K(2,3) router, whose seeds 1 and 3 never finish while 2 and 4
//! route in under a second. So every nextpnr run is watched: once router1's progress table
//! counts more iterations than [`Router1Stall`] allows, the run is stopped and the same
//! seed is routed again with `--router router2`. The budget counts router1's own
//! iterations, not seconds, so the same netlist and seed stop at the same point on any
//! machine and the result is deterministic.
//!
//! In: the nextpnr tool, its arguments, a working directory and a log name. Out: its
//! [`Outcome`] and whether router2 had to route it.

use crate::synth::tool::{Outcome, Tool, ToolError};
use std::path::Path;

/// Iterations router1 may take per arc it routes before it counts as stalled. A routing
/// that converges takes one or two (K(2,3) router: 2,215 iterations for 1,906 arcs).
const ITERATIONS_PER_ARC: u64 = 50;
/// Fewest iterations router1 is given, for designs of a few arcs.
const MIN_ITERATIONS: u64 = 100_000;

/// A nextpnr run, and whether router1 stalled so that router2 routed it.
#[derive(Debug)]
pub struct Routed {
    pub outcome: Outcome,
    pub rerouted: bool,
}

/// Runs `tool` with `args` in `dir` into `dir/<log_name>`; when router1 stalls, keeps its
/// log as `<log_name>` with `.router1` before the extension and runs router2.
pub fn place_and_route(
    tool: &Tool,
    args: &[String],
    dir: &Path,
    log_name: &str,
) -> Result<Routed, ToolError> {
    let mut stall = Router1Stall::default();
    let first = tool.run_watched(args, dir, log_name, &mut |line| stall.stalled(line))?;
    if !first.stopped {
        return Ok(Routed {
            outcome: first,
            rerouted: false,
        });
    }
    let kept = stalled_log_name(log_name);
    std::fs::rename(&first.log_path, dir.join(&kept)).map_err(|cause| ToolError::Io {
        program: tool.program,
        cause,
    })?;
    let mut args = args.to_vec();
    args.extend(["--router".to_string(), "router2".to_string()]);
    Ok(Routed {
        outcome: tool.run(&args, dir, log_name)?,
        rerouted: true,
    })
}

/// `a/nextpnr-seed1.log` -> `a/nextpnr-seed1.router1.log`.
fn stalled_log_name(log_name: &str) -> String {
    match log_name.strip_suffix(".log") {
        Some(stem) => format!("{stem}.router1.log"),
        None => format!("{log_name}.router1"),
    }
}

/// Watches router1's log lines: `Info: Routing 1906 arcs.`, then its progress table, one
/// row per thousand iterations (`Info:    6095000 |  6094681        318 | ...`).
#[derive(Debug, Default)]
pub struct Router1Stall {
    arcs: Option<u64>,
}

impl Router1Stall {
    /// Whether `line` shows router1 past its budget of iterations.
    pub fn stalled(&mut self, line: &str) -> bool {
        let Some(info) = line.strip_prefix("Info:") else {
            return false;
        };
        let info = info.trim();
        if let Some(arcs) = info
            .strip_prefix("Routing ")
            .and_then(|rest| rest.strip_suffix(" arcs."))
            .and_then(|n| n.parse().ok())
        {
            self.arcs = Some(arcs);
            return false;
        }
        let (Some(arcs), Some((first, _))) = (self.arcs, info.split_once('|')) else {
            return false;
        };
        first
            .trim()
            .parse::<u64>()
            .is_ok_and(|iterations| iterations > (arcs * ITERATIONS_PER_ARC).max(MIN_ITERATIONS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of nextpnr-ice40 0.4 routing the K(2,3) router (seed 1, stalled).
    const STALLED: &str = "\
Info: Routing..
Info: Setting up routing queue.
Info: Routing 1906 arcs.
Info:            |   (re-)routed arcs  |   delta    | remaining|       time spent     |
Info:    IterCnt |  w/ripup   wo/ripup |  w/r  wo/r |      arcs| batch(sec) total(sec)|
Info:       1000 |      256        743 |  256   743 |       951|       0.05       0.05|
Info:      95000 |    93401       1598 | 1000     0 |      1599|       0.04       4.12|
Info:      96000 |    94401       1598 | 1000     0 |      1599|       0.04       4.16|";

    fn first_stall(log: &str) -> Option<usize> {
        let mut stall = Router1Stall::default();
        log.lines().position(|line| stall.stalled(line))
    }

    #[test]
    fn router1_stalls_past_fifty_iterations_an_arc() {
        // 1,906 arcs: 95,300 iterations allowed, and then the floor of 100,000.
        assert_eq!(first_stall(STALLED), None);
        let over = format!(
            "{STALLED}\nInfo:     100001 |    98402       1598 | 1000     0 |      1599|       0.04       4.30|"
        );
        assert_eq!(first_stall(&over), Some(8));
    }

    #[test]
    fn a_large_design_gets_fifty_iterations_an_arc() {
        let log = "Info: Routing 10000 arcs.\n\
                   Info:     500000 |  0 0 | 0 0 | 1|\n\
                   Info:     500001 |  0 0 | 0 0 | 1|";
        assert_eq!(first_stall(log), Some(2));
    }

    #[test]
    fn rows_before_the_arc_count_and_other_tables_are_ignored() {
        // The placer's tables come before routing starts and have no arc count yet.
        let log = "Info:   900000 | 12 |\nInfo: Max frequency for clock 'clk': 93.34 MHz";
        assert_eq!(first_stall(log), None);
    }

    /// A stand-in for nextpnr: router1 that never converges (its table grows until a bound
    /// far past the budget, so that a broken watch fails the test instead of hanging it),
    /// and router2 that routes at once.
    const STAND_IN: &str = r#"case "$*" in *router2*) echo "routed by router2"; exit 0;; esac
echo "Info: Routing 10 arcs." >&2
i=0
while [ $i -lt 10000000 ]; do i=$((i + 1000)); echo "Info: $i | 1000 0 | 1000 0 | 5|" >&2; done
exit 3"#;

    #[test]
    fn a_stalled_router1_is_stopped_and_router2_routes_the_seed() {
        let dir = tempfile::tempdir().unwrap();
        let sh = Tool {
            program: "sh",
            install: crate::synth::tool::Install::Apt("dash"),
            version_flag: "--version",
        };
        let args: Vec<String> = ["-c", STAND_IN, "nextpnr"].map(String::from).to_vec();
        let routed = place_and_route(&sh, &args, dir.path(), "nextpnr-seed1.log").unwrap();
        assert!(routed.rerouted);
        assert!(routed.outcome.success, "{:?}", routed.outcome);
        assert_eq!(routed.outcome.log, "routed by router2\n");
        let stalled =
            std::fs::read_to_string(dir.path().join("nextpnr-seed1.router1.log")).unwrap();
        // Stopped at the first row past the floor of 100,000 iterations.
        assert!(
            stalled.ends_with("Info: 101000 | 1000 0 | 1000 0 | 5|\n"),
            "{stalled}"
        );
    }

    #[test]
    fn a_stalled_log_is_kept_beside_the_new_one() {
        assert_eq!(
            stalled_log_name("ice40-hx8k-verilog/nextpnr-seed1.log"),
            "ice40-hx8k-verilog/nextpnr-seed1.router1.log"
        );
        assert_eq!(stalled_log_name("report"), "report.router1");
    }
}
