//! Three self-timed switches in a bidirectional ring (Fig. 3 of the network-switch paper,
//! Smit et al. 1991), simulated with wires of different delays in GHDL and Icarus Verilog
//! ([`crate::sim::self_timed`]) and compared, cycle for cycle of each switch's own clock, with
//! three synchronous cycle models wired the same way.
//!
//! Switch s sends on its link 1 to switch s+1 and on its link 2 to switch s-1 (mod 3), so
//! every switch has both others as neighbours, each twice. Each link's data, NACK, cl and
//! cla wires get their own transport delay, drawn from the seed inside the documented
//! ranges or read from a file ([`crate::sim::delays`]). Each switch's local router port is
//! driven from a file on its own clock, by worms of random routes, and every output of
//! every switch is recorded after each of its own rising edges. A ring whose clocks stop
//! before the last cycle fails, with the state each switch stopped in.
//!
//! In: the switch's configuration (d = 2), a number of cycles, a seed, the delays. Out: a
//! [`FunctionReport`] over switch-cycles (3 per cycle), failures naming the switch, the
//! cycle and the outputs that differ, or the stop.

use super::traffic::{Sender, output_row, worm};
use crate::fabric::switch::SwitchConfig;
use crate::network::switch::Switch;
use crate::random::SplitMix64;
use crate::rtl::network::switch::{self, SwitchClocking, SwitchParams};
use crate::sim::delays::{DelayError, DelaySource, Delays, LinkWires};
use crate::sim::function::FunctionReport;
use crate::sim::self_timed::{Bench, BenchRun, Link, describe_stop};
use crate::sim::{SimError, Simulator};

/// Switches in the ring.
pub const SWITCHES: usize = 3;

/// The ring's run: three self-timed switches of `params` (d must be 2; the clocking is
/// set here) for `cycles` cycles of their own clocks, local traffic drawn from `seed`, the
/// wires' delays as `delays` says.
#[derive(Debug, Clone)]
pub struct Ring {
    pub params: SwitchParams,
    pub cycles: u64,
    pub seed: u64,
    pub delays: DelaySource,
}

/// The ring's links: from switch s's out-port j to the same port of its receiver.
pub fn links() -> Vec<Link> {
    let mut links = Vec::new();
    for from in 0..SWITCHES {
        for j in 1..=2 {
            let to = receiver_of(from, j);
            links.push(Link {
                from,
                out: j,
                to,
                input: j,
                nack_out: j,
                names: LinkWires::new(&format!("s{from}"), j, &format!("s{to}"), j),
            });
        }
    }
    links
}

/// What each switch's testbench drives on its local port in one cycle, and what the
/// synchronous models show after its clock edge.
struct Expected {
    /// Per switch, per cycle: `fault`, `in0_valid`, `in0_ctl`, `in0_data`, `out0_nack`.
    local: Vec<Vec<Vec<u64>>>,
    /// Per switch, per cycle: every output, as [`output_row`] orders them.
    outputs: Vec<Vec<Vec<u64>>>,
}

/// The switch that sends to switch `s` on link `j`, and the one `s` sends to on it.
fn sender_of(s: usize, j: usize) -> usize {
    match j {
        1 => (s + SWITCHES - 1) % SWITCHES,
        _ => (s + 1) % SWITCHES,
    }
}

fn receiver_of(s: usize, j: usize) -> usize {
    match j {
        1 => (s + 1) % SWITCHES,
        _ => (s + SWITCHES - 1) % SWITCHES,
    }
}

impl Ring {
    /// The self-timed switch under test.
    pub fn params(&self) -> SwitchParams {
        self.params.clone().with_clocking(SwitchClocking::SelfTimed)
    }

    fn config(&self) -> &SwitchConfig {
        &self.params.config
    }

    pub fn describe(&self) -> String {
        let delays = self.delays.describe();
        format!(
            "ring of three self-timed switches ({}), {} cycles of their own clocks (seed {}, {delays})",
            SwitchParams::new(self.config().clone()).describe(),
            self.cycles,
            self.seed
        )
    }

    /// Every wire's delay.
    pub fn delays(&self) -> Result<Delays, DelayError> {
        let names: Vec<LinkWires> = links().into_iter().map(|link| link.names).collect();
        self.delays.delays(&names, self.seed)
    }

    /// The local traffic, made in closed loop with three synchronous models wired as the
    /// ring, and the models' outputs.
    fn expected(&self) -> Expected {
        let ports = self.config().ports();
        let mask = if self.config().data_bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.config().data_bits()) - 1
        };
        let mut rng = SplitMix64::new(self.seed);
        let mut models: Vec<Switch> = (0..SWITCHES)
            .map(|_| Switch::new(self.config().clone()))
            .collect();
        let mut senders: Vec<Sender> = (0..SWITCHES).map(|_| Sender::default()).collect();
        let mut expected = Expected {
            local: vec![Vec::new(); SWITCHES],
            outputs: vec![Vec::new(); SWITCHES],
        };
        for cycle in 0..self.cycles {
            let mut inputs = Vec::new();
            for (s, sender) in senders.iter_mut().enumerate() {
                if sender.is_idle() && rng.below(4) == 0 {
                    // Up to three hops around the ring, either way, then the local router.
                    let hops: Vec<u64> = (0..rng.below(4)).map(|_| 1 + rng.below(2)).collect();
                    let mut body: Vec<u64> = hops.iter().skip(1).copied().collect();
                    body.push(0);
                    body.extend((0..1 + rng.below(4)).map(|_| rng.next_u64() & mask));
                    let route = hops.first().copied().unwrap_or(0);
                    let body = if hops.is_empty() {
                        &body[1..]
                    } else {
                        &body[..]
                    };
                    sender.push(cycle, worm(route, body, mask));
                }
                let local = sender.word(cycle, models[s].in_nack(0));
                let mut words = vec![local];
                let mut out_nack = vec![false];
                for j in 1..ports {
                    words.push(models[sender_of(s, j)].out_word(j));
                    out_nack.push(models[receiver_of(s, j)].in_nack(j));
                }
                expected.local[s].push(vec![
                    0,
                    local.valid as u64,
                    local.ctl as u64,
                    local.data,
                    0,
                ]);
                inputs.push((words, out_nack));
            }
            for (model, (words, out_nack)) in models.iter_mut().zip(&inputs) {
                model.step(words, out_nack, 0);
            }
            for (s, model) in models.iter().enumerate() {
                expected.outputs[s].push(output_row(model, ports));
            }
        }
        expected
    }

    /// Runs the ring in `simulator` (GHDL or Icarus) with `delays` and compares every
    /// output of every switch after each of its own clock edges; the first `shown`
    /// failures in full. Each switch-cycle that a stop kept from running is a failure, the
    /// first one described by the state the switches stopped in.
    pub fn verify(
        &self,
        simulator: &dyn Simulator,
        delays: &Delays,
        shown: usize,
    ) -> Result<FunctionReport, SimError> {
        let design = switch::design(&self.params());
        let expected = self.expected();
        let wires = links().iter().flat_map(|link| link.wires(delays)).collect();
        let local_ports = ["fault", "in0_valid", "in0_ctl", "in0_data", "out0_nack"];
        let bench = Bench {
            design: &design,
            node: design.top(),
            describe: self.describe(),
            wires,
            local_ports: local_ports.map(String::from).to_vec(),
            local: expected.local.clone(),
            recorded: recorded_ports(self.config().ports()),
            clock_inputs: CLOCK_INPUTS.map(String::from).to_vec(),
        };
        let run = bench.run(simulator)?;
        Ok(self.judge(&run, &expected, simulator.name(), shown))
    }

    /// Compares what the ring recorded with the models' outputs.
    fn judge(
        &self,
        run: &BenchRun,
        expected: &Expected,
        simulator: &str,
        shown: usize,
    ) -> FunctionReport {
        let mut report = FunctionReport::new(simulator);
        let names = recorded_ports(self.config().ports());
        let mut missing = 0;
        for (s, rows) in expected.outputs.iter().enumerate() {
            missing += rows.len().saturating_sub(run.rows[s].len()) as u64;
            for (cycle, (want, got)) in rows.iter().zip(&run.rows[s]).enumerate() {
                let differing: Vec<String> = want
                    .iter()
                    .enumerate()
                    .filter(|&(i, w)| got.get(i).copied().flatten() != Some(*w))
                    .map(|(i, w)| {
                        let seen = got
                            .get(i)
                            .copied()
                            .flatten()
                            .map_or("nothing".to_string(), |v| format!("{v:x}"));
                        format!("{} {seen}, expected {w:x}", names[i])
                    })
                    .collect();
                if differing.is_empty() {
                    report.pass();
                } else {
                    report.fail(shown, || {
                        format!("switch {s} after cycle {cycle}: {}", differing.join("; "))
                    });
                }
            }
        }
        let switches: Vec<String> = (0..SWITCHES).map(|s| format!("switch {s}")).collect();
        let stop = match &run.stopped {
            Some(stopped) => describe_stop(stopped, &switches, &CLOCK_INPUTS.map(String::from)),
            None => "the testbench ended early".to_string(),
        };
        report.fail_together(
            shown,
            missing,
            format!("{missing} switch-cycles not run, {stop}"),
        );
        report
    }
}

/// The ports that bring a switch its neighbours' clocks, reported at a stop.
const CLOCK_INPUTS: [&str; 4] = ["in1_cl", "in2_cl", "out1_cla", "out2_cla"];

/// The outputs recorded per cycle, in [`output_row`]'s order.
fn recorded_ports(ports: usize) -> Vec<String> {
    let mut names: Vec<String> = (0..ports).map(|i| format!("in{i}_nack")).collect();
    for p in 0..ports {
        names.extend(["valid", "ctl", "data"].map(|f| format!("out{p}_{f}")));
    }
    names
}

/// Cycles of each switch's own clock unless asked otherwise.
pub const DEFAULT_CYCLES: u64 = 2000;
