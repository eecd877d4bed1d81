//! Three self-timed switches in a bidirectional ring (Fig. 3 of the network-switch paper,
//! Smit et al. 1991), simulated with wires of different delays in GHDL and Icarus Verilog
//! and compared, cycle for cycle of each switch's own clock, with three synchronous cycle
//! models wired the same way.
//!
//! Switch s sends on its link 1 to switch s+1 and on its link 2 to switch s-1 (mod 3), so
//! every switch has both others as neighbours, each twice. Each link's data, NACK, cl and
//! cla wires get their own transport delay; on every link the data arrives before the
//! clock that is bundled with it, as the rendezvous needs (docs/switch.md). Each switch's
//! local router port is driven from a file on its own clock, by worms of random routes,
//! and every output of every switch is recorded after each of its own rising edges.
//!
//! In: the switch's configuration (d = 2), a number of cycles, a seed. Out: a
//! [`FunctionReport`] over switch-cycles (3 per cycle), failures naming the switch, the
//! cycle and the outputs that differ.

use crate::emit::names::{Language, name_design};
use crate::network::switch::{Switch, SwitchConfig};
use crate::random::SplitMix64;
use crate::rtl::ir::{Direction, SignalKind};
use crate::rtl::kautz_switch::{self, SwitchClocking, SwitchParams};
use crate::sim::function::{FunctionReport, digits, parse_line};
use crate::sim::testbench::render_template;
use crate::sim::units::switch::{Sender, output_row, worm};
use crate::sim::{SimError, Simulator, write_sources};
use serde::Serialize;

/// Switches in the ring.
pub const SWITCHES: usize = 3;

/// The ring's run: three self-timed switches of `params` (d must be 2; the clocking is
/// set here) for `cycles` cycles of their own clocks, local traffic drawn from `seed`.
#[derive(Debug, Clone)]
pub struct Ring {
    pub params: SwitchParams,
    pub cycles: u64,
    pub seed: u64,
}

/// What each switch's testbench drives on its local port in one cycle, and what the
/// synchronous models show after its clock edge.
struct Expected {
    /// Per switch, per cycle: `fault`, `in0_valid`, `in0_ctl`, `in0_data`, `out0_nack`.
    local: Vec<Vec<[u64; 5]>>,
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
        format!(
            "ring of three self-timed switches ({}), {} cycles of their own clocks (seed {})",
            SwitchParams::new(self.config().clone()).describe(),
            self.cycles,
            self.seed
        )
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
                expected.local[s].push([0, local.valid as u64, local.ctl as u64, local.data, 0]);
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

    /// Runs the ring in `simulator` (GHDL or Icarus) and compares every output of every
    /// switch after each of its own clock edges; the first `shown` failures in full.
    pub fn verify(
        &self,
        simulator: &dyn Simulator,
        shown: usize,
    ) -> Result<FunctionReport, SimError> {
        let design = kautz_switch::design(&self.params());
        let language = simulator.language();
        let work = crate::interrupt::scratch::ScratchDir::new(&format!(
            "kautzgen-ring-{}-",
            simulator.name()
        ))
        .map_err(SimError::io("cannot create a temporary directory"))?;
        let mut sources = write_sources(
            &design,
            language,
            &format!("the {}", self.describe()),
            work.path(),
        )?;
        let (tb, text) = self.testbench(&design, language)?;
        let tb_path = work.path().join(match language {
            Language::Verilog => format!("{tb}.v"),
            Language::Vhdl => format!("{tb}.vhd"),
        });
        std::fs::write(&tb_path, text).map_err(SimError::io("cannot write the testbench"))?;
        sources.push(tb_path);
        let expected = self.expected();
        // Whole hexadecimal digits per field, as VHDL's hread reads them.
        let widths = [
            self.config().ports() as u32,
            1,
            1,
            self.config().data_bits(),
            1,
        ];
        for (s, rows) in expected.local.iter().enumerate() {
            let text: String = rows
                .iter()
                .map(|row| {
                    let fields: Vec<String> = row
                        .iter()
                        .zip(widths)
                        .map(|(v, w)| format!("{v:0digits$x}", digits = digits(w)))
                        .collect();
                    fields.join(" ") + "\n"
                })
                .collect();
            std::fs::write(work.path().join(format!("local{s}.txt")), text)
                .map_err(SimError::io("cannot write the local traffic"))?;
        }
        simulator.compile(work.path(), &sources, &tb, false)?;
        simulator.simulate(work.path(), &tb, false)?;
        let mut report = FunctionReport::new(simulator.name());
        let names = recorded_ports(self.config().ports());
        for (s, rows) in expected.outputs.iter().enumerate() {
            let results = std::fs::read_to_string(work.path().join(format!("results{s}.txt")))
                .map_err(SimError::io(format!(
                    "the testbench wrote no results{s}.txt"
                )))?;
            let mut lines = results.lines();
            for (cycle, want) in rows.iter().enumerate() {
                let got = parse_line(lines.next().unwrap_or(""));
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
        Ok(report)
    }

    /// The ring's testbench in `language`: its name and text.
    fn testbench(
        &self,
        design: &crate::rtl::ir::Design,
        language: Language,
    ) -> Result<(String, String), SimError> {
        let names = name_design(design, language);
        let top = design.top();
        let local = names.of(top);
        let width = |name: &str| {
            top.ports()
                .find(|(_, s)| s.name == name)
                .map(|(_, s)| s.width)
                .expect("the self-timed switch has the port")
        };
        // Every port of each switch, but rst and node_clk, which the testbench names itself.
        let ports: Vec<TbPort> = top
            .ports()
            .filter(|(_, s)| s.name != "rst" && s.name != "node_clk")
            .map(|(id, s)| TbPort {
                name: local.signals[id.0 as usize].clone(),
                width: s.width,
                driven: s.kind == SignalKind::Port(Direction::Input),
            })
            .collect();
        let field = |name: &str| TbField {
            name: name.to_string(),
            width: width(name),
            text_bits: digits(width(name)) as u32 * 4,
        };
        let context = RingContext {
            tb: "tb_switch_ring".to_string(),
            top: names.modules[&top.name].clone(),
            describe: self.describe(),
            cycles: self.cycles,
            switches: (0..SWITCHES).collect(),
            ports,
            local: ["fault", "in0_valid", "in0_ctl", "in0_data", "out0_nack"]
                .into_iter()
                .map(field)
                .collect(),
            recorded: recorded_ports(self.config().ports())
                .iter()
                .map(|n| field(n))
                .collect(),
            wires: wires(self.config().ports()),
        };
        let (name, template) = match language {
            Language::Verilog => ("switch_ring.v.tera", VERILOG_TB),
            Language::Vhdl => ("switch_ring.vhd.tera", VHDL_TB),
        };
        let text = render_template(name, template, &context)?;
        Ok((context.tb, text))
    }
}

/// The outputs recorded per cycle, in [`output_row`]'s order.
fn recorded_ports(ports: usize) -> Vec<String> {
    let mut names: Vec<String> = (0..ports).map(|i| format!("in{i}_nack")).collect();
    for p in 0..ports {
        names.extend(["valid", "ctl", "data"].map(|f| format!("out{p}_{f}")));
    }
    names
}

/// The delayed wires of the ring: each link's data (forward), NACK (backward) and the two
/// clock wires, cl forward and cla backward, every one with its own delay, and on each link
/// the data faster than the clock bundled with it.
fn wires(ports: usize) -> Vec<TbWire> {
    let mut wires = Vec::new();
    let mut link = 0;
    for from in 0..SWITCHES {
        for j in 1..ports {
            let to = receiver_of(from, j);
            // Delays in ns, all different: data 1.0 to 3.5, cl 4 to 11.5, NACK 0.5 to 2.0,
            // cla 3 to 10.5.
            let data = 1.0 + 0.5 * link as f64;
            let cl = 4.0 + 1.5 * link as f64;
            let nack = 0.5 + 0.3 * link as f64;
            let cla = 3.0 + 1.5 * ((link + 3) % 6) as f64;
            for field in ["valid", "ctl", "data"] {
                wires.push(TbWire::new(
                    to,
                    &format!("in{j}_{field}"),
                    from,
                    &format!("out{j}_{field}"),
                    data,
                ));
            }
            wires.push(TbWire::new(
                to,
                &format!("in{j}_cl"),
                from,
                &format!("out{j}_cl"),
                cl,
            ));
            wires.push(TbWire::new(
                from,
                &format!("out{j}_nack"),
                to,
                &format!("in{j}_nack"),
                nack,
            ));
            wires.push(TbWire::new(
                from,
                &format!("out{j}_cla"),
                to,
                &format!("in{j}_cla"),
                cla,
            ));
            link += 1;
        }
    }
    wires
}

const VERILOG_TB: &str = include_str!("../../testbenches/switch_ring.v.tera");
const VHDL_TB: &str = include_str!("../../testbenches/switch_ring.vhd.tera");

#[derive(Serialize)]
struct TbPort {
    name: String,
    width: u32,
    /// An input of the switch: the testbench drives it (from a file or a delayed wire).
    driven: bool,
}

#[derive(Serialize)]
struct TbField {
    name: String,
    width: u32,
    text_bits: u32,
}

/// `s<to>_<port> <= transport s<from>_<source> after <delay> ns`.
#[derive(Serialize)]
struct TbWire {
    to: usize,
    port: String,
    from: usize,
    source: String,
    delay: String,
}

impl TbWire {
    fn new(to: usize, port: &str, from: usize, source: &str, delay: f64) -> Self {
        TbWire {
            to,
            port: port.to_string(),
            from,
            source: source.to_string(),
            delay: format!("{delay:.1}"),
        }
    }
}

#[derive(Serialize)]
struct RingContext {
    tb: String,
    top: String,
    describe: String,
    cycles: u64,
    switches: Vec<usize>,
    ports: Vec<TbPort>,
    local: Vec<TbField>,
    recorded: Vec<TbField>,
    wires: Vec<TbWire>,
}

/// Cycles of each switch's own clock unless asked otherwise.
pub const DEFAULT_CYCLES: u64 = 2000;
