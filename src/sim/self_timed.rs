//! A simulation of self-timed nodes wired with delays, in GHDL or Icarus Verilog: the
//! testbench of testbenches/self_timed.*.tera, shared by the ring of self-timed switches
//! ([`crate::units::switch::ring`]) and the self-timed network.
//!
//! Every node is an instance of one module with `rst` (an input, synchronous to the node's
//! clock) and `node_clk` (an output: the clock it makes). Each wire between nodes is a
//! transport delay from one node's output port to another's input port. Each node's
//! driver runs on that node's own clock: it applies one row of the node's local inputs a
//! cycle and records the chosen outputs after every rising edge. A run whose clocks all
//! stop before the last cycle ends there, with each node's state at the stop.
//!
//! In: the design (written in the simulator's language), the node module, the wires with
//! their delays, the rows to drive. Out: [`BenchRun`], each node's recorded rows (fewer
//! than asked when the clocks stopped) and the stop.

use crate::emit::names::{Language, name_design};
use crate::rtl::ir::{Design, Direction, Module, SignalKind};
use crate::sim::delays::{Delays, LinkWires, ns};
use crate::sim::function::{digits, parse_line};
use crate::sim::testbench::render_template;
use crate::sim::{SimError, Simulator, write_sources};
use serde::Serialize;

/// One wire between nodes: output port `source` of node `from` drives input port `port` of
/// node `to` after `delay_ps`.
#[derive(Debug, Clone)]
pub struct DelayedWire {
    pub from: usize,
    pub source: String,
    pub to: usize,
    pub port: String,
    pub delay_ps: u32,
}

/// A link between nodes: from node `from`'s out-port `out` to node `to`'s in-port
/// `input`, its NACK back to `from`'s `out<nack_out>_nack` (`out` unless a wiring fault
/// says otherwise), its wires named `names` (see [`LinkWires`]).
#[derive(Debug, Clone)]
pub struct Link {
    pub from: usize,
    pub out: usize,
    pub to: usize,
    pub input: usize,
    pub nack_out: usize,
    pub names: LinkWires,
}

impl Link {
    /// The link's wires with their delays from `delays`: the valid, type and data bits and
    /// `cl` forward, the NACK and `cla` back.
    pub fn wires(&self, delays: &Delays) -> Vec<DelayedWire> {
        let (names, out, input) = (&self.names, self.out, self.input);
        let forward = |field: &str, delay: &str| DelayedWire {
            from: self.from,
            source: format!("out{out}_{field}"),
            to: self.to,
            port: format!("in{input}_{field}"),
            delay_ps: delays.ps(delay),
        };
        let back = |field: &str, out: usize, delay: &str| DelayedWire {
            from: self.to,
            source: format!("in{input}_{field}"),
            to: self.from,
            port: format!("out{out}_{field}"),
            delay_ps: delays.ps(delay),
        };
        vec![
            forward("valid", &names.data),
            forward("ctl", &names.data),
            forward("data", &names.data),
            forward("cl", &names.cl),
            back("nack", self.nack_out, &names.nack),
            back("cla", out, &names.cla),
        ]
    }
}

/// Every node's state at a stop, in words: "the clocks stopped: s0 after 0 cycles with its
/// clock low, seeing in1_cl=1 in2_cl=1 out1_cla=1 out2_cla=1; s1 ...".
pub fn describe_stop(stopped: &[Stopped], names: &[String], clock_inputs: &[String]) -> String {
    let nodes: Vec<String> = stopped
        .iter()
        .zip(names)
        .map(|(node, name)| {
            let seen: Vec<String> = clock_inputs
                .iter()
                .zip(&node.inputs)
                .map(|(port, &level)| format!("{port}={}", u8::from(level)))
                .collect();
            format!(
                "{name} after {} cycle{} with its clock {}, seeing {}",
                node.cycles,
                if node.cycles == 1 { "" } else { "s" },
                if node.clock { "high" } else { "low" },
                seen.join(" ")
            )
        })
        .collect();
    format!("the clocks stopped: {}", nodes.join("; "))
}

/// What to simulate: `nodes` instances of the module `node` of `design`, wired by `wires`,
/// node n driven with `local[n]` (one row a cycle, in the order of `local_ports`), the
/// `recorded` ports written after each of its rising edges, `clock_inputs` (the ports that
/// bring its neighbours' clocks) reported at a stop.
pub struct Bench<'a> {
    pub design: &'a Design,
    pub node: &'a Module,
    pub describe: String,
    pub wires: Vec<DelayedWire>,
    pub local_ports: Vec<String>,
    pub local: Vec<Vec<Vec<u64>>>,
    pub recorded: Vec<String>,
    pub clock_inputs: Vec<String>,
}

/// One node's state when the clocks stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stopped {
    /// Cycles it completed after its reset.
    pub cycles: u64,
    /// Its clock's level.
    pub clock: bool,
    /// Each of its clock inputs' level, in the order of [`Bench::clock_inputs`].
    pub inputs: Vec<bool>,
}

/// What a run recorded: per node, one row a completed cycle (each recorded port's value,
/// `None` where unknown), and every node's state when the clocks stopped, if they did.
#[derive(Debug, Clone)]
pub struct BenchRun {
    pub rows: Vec<Vec<Vec<Option<u64>>>>,
    pub stopped: Option<Vec<Stopped>>,
}

impl Bench<'_> {
    fn nodes(&self) -> usize {
        self.local.len()
    }

    fn cycles(&self) -> u64 {
        self.local.first().map_or(0, |rows| rows.len() as u64)
    }

    /// Runs the bench in `simulator` in a temporary directory.
    pub fn run(&self, simulator: &dyn Simulator) -> Result<BenchRun, SimError> {
        let language = simulator.language();
        let work = crate::interrupt::scratch::ScratchDir::new(&format!(
            "kautzgen-self-timed-{}-",
            simulator.name()
        ))
        .map_err(SimError::io("cannot create a temporary directory"))?;
        let mut sources = write_sources(
            self.design,
            language,
            &format!("the {}", self.describe),
            work.path(),
        )?;
        let (tb, text) = self.testbench(language)?;
        let tb_path = work.path().join(match language {
            Language::Verilog => format!("{tb}.v"),
            Language::Vhdl => format!("{tb}.vhd"),
        });
        std::fs::write(&tb_path, text).map_err(SimError::io("cannot write the testbench"))?;
        sources.push(tb_path);
        let widths: Vec<u32> = self.local_ports.iter().map(|p| self.width(p)).collect();
        for (n, rows) in self.local.iter().enumerate() {
            let text: String = rows.iter().map(|row| hex_row(row, &widths)).collect();
            std::fs::write(work.path().join(format!("local{n}.txt")), text)
                .map_err(SimError::io("cannot write the local inputs"))?;
        }
        simulator.compile(work.path(), &sources, &tb, false)?;
        simulator.simulate(work.path(), &tb, false)?;
        let mut rows = Vec::with_capacity(self.nodes());
        for n in 0..self.nodes() {
            let results = std::fs::read_to_string(work.path().join(format!("results{n}.txt")))
                .map_err(SimError::io(format!(
                    "the testbench wrote no results{n}.txt"
                )))?;
            rows.push(results.lines().map(parse_line).collect());
        }
        let stopped = match std::fs::read_to_string(work.path().join("stopped.txt")) {
            Ok(text) => Some(text.lines().map(parse_stopped).collect()),
            Err(_) => None,
        };
        Ok(BenchRun { rows, stopped })
    }

    fn width(&self, port: &str) -> u32 {
        self.node
            .ports()
            .find(|(_, s)| s.name == port)
            .map(|(_, s)| s.width)
            .unwrap_or_else(|| panic!("the node module has no port {port}"))
    }

    /// The testbench in `language`: its name and text.
    fn testbench(&self, language: Language) -> Result<(String, String), SimError> {
        let names = name_design(self.design, language);
        let local = names.of(self.node);
        // Every port of the node but rst and node_clk, which the testbench names itself.
        let ports: Vec<TbPort> = self
            .node
            .ports()
            .filter(|(_, s)| s.name != "rst" && s.name != "node_clk")
            .map(|(id, s)| TbPort {
                name: local.signals[id.0 as usize].clone(),
                width: s.width,
                driven: s.kind == SignalKind::Port(Direction::Input),
            })
            .collect();
        let field = |name: &String| TbField {
            name: name.clone(),
            width: self.width(name),
            text_bits: digits(self.width(name)) as u32 * 4,
        };
        let longest = self.wires.iter().map(|w| w.delay_ps).max().unwrap_or(1000);
        let context = Context {
            tb: "tb_self_timed".to_string(),
            top: names.modules[&self.node.name].clone(),
            describe: self.describe.clone(),
            cycles: self.cycles(),
            nodes: (0..self.nodes()).collect(),
            ports,
            local: self.local_ports.iter().map(field).collect(),
            recorded: self.recorded.iter().map(field).collect(),
            clock_inputs: self.clock_inputs.clone(),
            wires: self
                .wires
                .iter()
                .map(|w| TbWire {
                    to: w.to,
                    port: w.port.clone(),
                    from: w.from,
                    source: w.source.clone(),
                    delay: ns(w.delay_ps),
                })
                .collect(),
            stall_ns: ns(10 * longest),
        };
        let (name, template) = match language {
            Language::Verilog => ("self_timed.v.tera", VERILOG_TB),
            Language::Vhdl => ("self_timed.vhd.tera", VHDL_TB),
        };
        let text = render_template(name, template, &context)?;
        Ok((context.tb, text))
    }
}

/// One row of hexadecimal fields, whole digits per field as VHDL's hread reads them.
fn hex_row(row: &[u64], widths: &[u32]) -> String {
    let fields: Vec<String> = row
        .iter()
        .zip(widths)
        .map(|(v, &w)| format!("{v:0digits$x}", digits = digits(w)))
        .collect();
    fields.join(" ") + "\n"
}

/// "12 1 0 1": cycles completed, the clock, the clock inputs.
fn parse_stopped(line: &str) -> Stopped {
    let mut fields = line.split_whitespace();
    let cycles = fields.next().and_then(|c| c.parse().ok()).unwrap_or(0);
    let mut levels = fields.map(|f| f == "1");
    Stopped {
        cycles,
        clock: levels.next().unwrap_or(false),
        inputs: levels.collect(),
    }
}

const VERILOG_TB: &str = include_str!("../../testbenches/self_timed.v.tera");
const VHDL_TB: &str = include_str!("../../testbenches/self_timed.vhd.tera");

#[derive(Serialize)]
struct TbPort {
    name: String,
    width: u32,
    /// An input of the node: the testbench drives it (from a file or a delayed wire).
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

#[derive(Serialize)]
struct Context {
    tb: String,
    top: String,
    describe: String,
    cycles: u64,
    nodes: Vec<usize>,
    ports: Vec<TbPort>,
    local: Vec<TbField>,
    recorded: Vec<TbField>,
    clock_inputs: Vec<String>,
    wires: Vec<TbWire>,
    stall_ns: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_line_reads_as_cycles_and_levels() {
        assert_eq!(
            parse_stopped("12 1 0 1 1"),
            Stopped {
                cycles: 12,
                clock: true,
                inputs: vec![false, true, true]
            }
        );
    }
}
