//! The network of `crate::rtl::network::whole` checked message by message against the
//! golden network model ([`crate::network::net`]).
//!
//! The model runs first, with uniform traffic of 1 to `max_bytes` bytes per message at the
//! asked rate and faulty nodes drawn from the seed. Its record of every message (the cycle
//! its router took the first byte, its destination and bytes) is the stimulus: the bytes go
//! on the source node's `tx` ports in consecutive cycles from that cycle, as the model's
//! processor hands them over, and the faulty nodes' `fault` inputs are held high. The
//! hardware is simulated over the model's whole run and a few cycles more, and every
//! message must come out of it as out of the model: the router ready for each of its
//! bytes; the verdict (delivered or failed), the attempts and the cycle of `res_valid`;
//! and for a delivered message, its source word, length and bytes handed out at the
//! destination, the last in the model's cycle. Anything the hardware reports beyond the
//! model's messages (a verdict, an arrival, an `rx_error`) is a failure too.

mod axis;

use crate::network::message::{Finished, Outcome, payload_word};
use crate::network::net::{Net, NetError, NetParams};
use crate::network::receive::Receive;
use crate::rtl::ir::{Design, Direction, ResetStyle, SignalKind};
use crate::rtl::network::packed::{self, PortForm};
use crate::rtl::network::whole::{self, NetworkParams};
use crate::sim::delays::{Delays, LinkWires};
use crate::sim::function::{FunctionReport, parse_line, row_ports, simulate};
use crate::sim::self_timed::{Bench, Link, describe_stop};
use crate::sim::{SimError, Simulator};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::Path;

/// Cycles of traffic unless asked otherwise.
pub const DEFAULT_CYCLES: u64 = 2_000;

/// Injection rate per node and cycle unless asked otherwise.
pub const DEFAULT_RATE: f64 = 0.01;

/// The probability that an AXI4-Stream node's sink is ready in a cycle unless asked
/// otherwise: half the cycles, so that FIFOs fill and refuse.
pub const DEFAULT_RX_READY: f64 = 0.5;

/// Cycles simulated after the model's last event, for late or extra events to show.
const TAIL: u64 = 16;

/// The network checked against the model under one run of traffic.
#[derive(Debug)]
pub struct NetworkUnit {
    params: NetworkParams,
    model: NetParams,
    /// Every message of the model's run, in the order they ended.
    finished: Vec<Finished>,
    /// The faulty nodes, ascending.
    faulty: Vec<u32>,
    /// Cycles simulated.
    cycles: u64,
    /// With AXI4-Stream nodes: the sinks' readiness and when the bytes leave the FIFOs.
    sinks: Option<axis::Sinks>,
    /// How the design's registers are reset.
    pub reset: ResetStyle,
    /// How the top shows its nodes' ports: the rows are laid out by `Field`s either way.
    pub ports: PortForm,
}

/// Where one node's signal sits in a testbench row: the column of its top port, and its
/// bits there (all of them in the flat top; node i's `[i*W +: W]` in the packed one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Field {
    column: usize,
    lo: u32,
    width: u32,
}

impl Field {
    /// The field's bits, in place.
    fn mask(self) -> u64 {
        (u64::MAX >> (64 - self.width)) << self.lo
    }

    /// `word` with the field set to `value`.
    fn put(self, word: u64, value: u64) -> u64 {
        word & !self.mask() | (value << self.lo & self.mask())
    }

    /// The field's value in `word`.
    fn get(self, word: u64) -> u64 {
        (word & self.mask()) >> self.lo
    }
}

/// What the hardware reported at one node, with the cycle the model would name: a
/// verdict's `done` or an arrival's `arrive` (the row's cycle + 1).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Verdict {
    cycle: u64,
    status: u64,
    attempts: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Arrival {
    cycle: u64,
    src: u64,
    len: u64,
    /// Its data words (bytes at the default 8 data bits).
    bytes: Vec<u64>,
}

/// One cycle of the network's run as its exported testbench checks it: the input port
/// values, and for each output port its expected value and the bits of it the model
/// specifies, in port order without `clk` and `rst`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaskedCycle {
    pub inputs: Vec<u64>,
    pub outputs: Vec<u64>,
    pub care: Vec<u64>,
}

/// The outputs of each node the check reads.
const OBSERVED: [&str; 11] = [
    "tx_ready",
    "res_valid",
    "res_status",
    "res_attempts",
    "rx_valid",
    "rx_data",
    "rx_first",
    "rx_last",
    "rx_src",
    "rx_len",
    "rx_error",
];

/// The hardware's outputs, gathered per node.
#[derive(Debug, Default)]
struct Observed {
    /// `tx_ready` after each row, per node.
    ready: Vec<Vec<bool>>,
    verdicts: Vec<VecDeque<Verdict>>,
    arrivals: Vec<Vec<Arrival>>,
    /// `rx_error` pulses: (node, cycle).
    errors: Vec<(usize, u64)>,
}

impl NetworkUnit {
    /// The network of `params` under `cycles` cycles of uniform traffic at `rate` with
    /// `faults` faulty nodes, all drawn from `seed`; the model is run here.
    pub fn new(
        params: NetworkParams,
        rate: f64,
        cycles: u64,
        faults: u64,
        seed: u64,
    ) -> Result<Self, NetError> {
        NetworkUnit::with_sinks(params, rate, cycles, faults, seed, 1.0)
    }

    /// As [`NetworkUnit::new`]; when the nodes are AXI4-Stream, each node's sink is ready
    /// in a cycle with probability `rx_ready`, in the model as in the hardware.
    pub fn with_sinks(
        params: NetworkParams,
        rate: f64,
        cycles: u64,
        faults: u64,
        seed: u64,
        rx_ready: f64,
    ) -> Result<Self, NetError> {
        let max = params.router.max_bytes;
        // The plain run of the sweeps and benchmarks, with this network's arbiter, messages
        // of every length the buffers take, and faulty nodes.
        let mut model = NetParams::uniform(params.plan(), rate, max, cycles, seed);
        model.arbiter = params.arbiter;
        model.flow = params.flow;
        model.traffic.bytes = 1..=max;
        model.faults.random_nodes = faults;
        model.receive = params.axis.map(|bytes| Receive {
            bytes,
            ready: rx_ready,
        });
        let net = Net::new(&model)?;
        let faulty = net.faults().nodes.clone();
        let mut finished = Vec::new();
        net.run(|f| finished.push(f.clone()));
        let end = finished
            .iter()
            .map(|f| f.done.max(f.arrive.unwrap_or(0)))
            .max()
            .unwrap_or(0)
            .max(cycles);
        let sinks = params
            .axis
            .map(|_| axis::Sinks::new(&finished, params.nodes(), seed, rx_ready));
        let end = end.max(sinks.as_ref().map_or(0, axis::Sinks::last));
        Ok(NetworkUnit {
            params,
            model,
            finished,
            faulty,
            sinks,
            cycles: end + TAIL,
            reset: ResetStyle::default(),
            ports: PortForm::default(),
        })
    }

    /// "network of K(2,3): ...: 2000 cycles of uniform traffic at 0.01 per node (seed 1),
    /// faulty nodes 010 and 201: 231 messages in 2051 cycles".
    pub fn describe(&self) -> String {
        let faulty = match self.faulty.len() {
            0 => "no faulty node".to_string(),
            _ => {
                let words: Vec<String> = self
                    .faulty
                    .iter()
                    .map(|&v| self.node_name(v as usize))
                    .collect();
                format!("faulty nodes {}", words.join(", "))
            }
        };
        format!(
            "{}: {} cycles of uniform traffic at {} per node (seed {}), {faulty}: {} messages in {} cycles",
            self.params.describe(),
            self.model.cycles,
            self.model.traffic.rate,
            self.model.seed,
            self.finished.len(),
            self.cycles
        )
    }

    pub fn design(&self) -> Design {
        let flat = whole::design(&self.params);
        let design = match self.ports {
            PortForm::Flat => flat,
            PortForm::Packed => packed::pack(flat, &self.params),
        };
        design
            .with_reset(self.reset)
            .expect("the network unit checked that its design takes the style")
    }

    /// Whether the nodes are AXI4-Stream.
    pub fn is_axis(&self) -> bool {
        self.sinks.is_some()
    }

    /// The messages of the model's run.
    pub fn messages(&self) -> usize {
        self.finished.len()
    }

    /// The stimulus: one row of input port values (top port order, without `clk` and
    /// `rst`) per cycle.
    fn rows(&self, design: &Design) -> Vec<Vec<u64>> {
        let inputs = self.fields(design, Direction::Input);
        let prefixes = prefixes(&self.params);
        let columns = row_ports(design)
            .filter(|(_, s)| s.kind == SignalKind::Port(Direction::Input))
            .count();
        let mut row = vec![0u64; columns];
        let set = |row: &mut Vec<u64>, field: Field, value: u64| {
            row[field.column] = field.put(row[field.column], value);
        };
        for &v in &self.faulty {
            set(
                &mut row,
                inputs[&format!("{}_fault", prefixes[v as usize])],
                1,
            );
        }
        let mut rows = vec![row; self.cycles as usize];
        // The router's port names, or the AXI4-Stream slave's, whose tdest is an index.
        let names: [&str; 4] = match self.sinks {
            None => ["tx_valid", "tx_data", "tx_last", "tx_dst"],
            Some(_) => [
                "s_axis_tvalid",
                "s_axis_tdata",
                "s_axis_tlast",
                "s_axis_tdest",
            ],
        };
        for f in &self.finished {
            let m = &f.message;
            let prefix = &prefixes[m.src as usize];
            let at = |name: &str| inputs[&format!("{prefix}_{name}")];
            let dst = match self.sinks {
                None => self.address_word(m.dst),
                Some(_) => u64::from(m.dst),
            };
            for j in 0..usize::from(m.bytes) {
                let row = &mut rows[m.handed as usize + j];
                set(row, at(names[0]), 1);
                set(row, at(names[1]), self.payload(m.id, j));
                set(row, at(names[2]), u64::from(j + 1 == usize::from(m.bytes)));
                set(row, at(names[3]), dst);
            }
        }
        if let Some(sinks) = &self.sinks {
            for (v, prefix) in prefixes.iter().enumerate() {
                let tready = inputs[&format!("{prefix}_m_axis_tready")];
                let status = inputs[&format!("{prefix}_m_axis_status_tready")];
                for (t, row) in rows.iter_mut().enumerate() {
                    set(row, tready, u64::from(sinks.ready(v, t as u64)));
                    set(row, status, 1);
                }
            }
        }
        rows
    }

    /// Every cycle of the run as the exported testbench checks it: the stimulus, and each
    /// output's value and mask as the model specifies them. In every cycle `res_valid`,
    /// `rx_valid` and `rx_error` are specified at every node (high only for a verdict, a
    /// byte handed out); a verdict's `res_status` and `res_attempts` with its `res_valid`;
    /// each byte of a delivered message in the consecutive cycles that end with its last
    /// (`rx_data`, `rx_first`, `rx_last`, and `rx_src` and `rx_len` with the first);
    /// `tx_ready` high while the source hands its bytes over. This is what
    /// [`NetworkUnit::verify`] judges, checked cycle by cycle.
    pub fn checked_cycles(&self, design: &Design) -> Vec<MaskedCycle> {
        let columns = self.columns(design);
        let widths: Vec<u32> = row_ports(design)
            .filter(|(_, s)| s.kind == SignalKind::Port(Direction::Output))
            .map(|(_, s)| s.width)
            .collect();
        let mut cycles: Vec<MaskedCycle> = self
            .rows(design)
            .into_iter()
            .map(|inputs| MaskedCycle {
                inputs,
                outputs: vec![0; widths.len()],
                care: vec![0; widths.len()],
            })
            .collect();
        let mut set = |row: u64, node: u32, name: &str, value: u64| {
            let field = columns[node as usize][name];
            let (i, cycle) = (field.column, &mut cycles[row as usize]);
            cycle.outputs[i] = field.put(cycle.outputs[i], value);
            cycle.care[i] |= field.mask();
        };
        match &self.sinks {
            None => self.specify_plain(&mut set),
            Some(sinks) => self.specify_axis(sinks, &mut set),
        }
        cycles
    }

    /// The router's ports as [`Self::checked_cycles`] specifies them, through `set(row,
    /// node, port, value)`.
    fn specify_plain(&self, set: &mut dyn FnMut(u64, u32, &str, u64)) {
        for row in 0..self.cycles {
            for v in 0..self.params.nodes() as u32 {
                for name in ["res_valid", "rx_valid", "rx_error"] {
                    set(row, v, name, 0);
                }
            }
        }
        for f in &self.finished {
            let m = &f.message;
            let bytes = u64::from(m.bytes);
            for t in (m.handed..m.handed + bytes).filter(|&t| t > 0) {
                set(t - 1, m.src, "tx_ready", 1);
            }
            set(f.done - 1, m.src, "res_valid", 1);
            set(f.done - 1, m.src, "res_status", status_code(f));
            set(f.done - 1, m.src, "res_attempts", m.attempts.len() as u64);
            let Some(arrive) = f.arrive else { continue };
            let first = arrive - bytes;
            for j in 0..bytes {
                let row = first + j;
                set(row, m.dst, "rx_valid", 1);
                set(row, m.dst, "rx_data", self.payload(m.id, j as usize));
                set(row, m.dst, "rx_first", u64::from(j == 0));
                set(row, m.dst, "rx_last", u64::from(j + 1 == bytes));
            }
            set(first, m.dst, "rx_src", self.address_word(m.src));
            set(first, m.dst, "rx_len", bytes);
        }
    }

    /// The AXI4-Stream ports as [`Self::checked_cycles`] specifies them: `s_axis_tready`
    /// while a message's words are offered; the status beat one cycle after the verdict;
    /// `m_axis_tvalid` in every cycle, high while a word is visible in the FIFO and not yet
    /// taken; and each word's tdata, tlast and tid in the cycle the sink takes it.
    fn specify_axis(&self, sinks: &axis::Sinks, set: &mut dyn FnMut(u64, u32, &str, u64)) {
        for row in 0..self.cycles {
            for v in 0..self.params.nodes() as u32 {
                for name in ["m_axis_status_tvalid", "m_axis_tvalid", "rx_error"] {
                    set(row, v, name, 0);
                }
            }
        }
        for f in &self.finished {
            let m = &f.message;
            for t in (m.handed..m.handed + u64::from(m.bytes)).filter(|&t| t > 0) {
                set(t - 1, m.src, "s_axis_tready", 1);
            }
            let beat = (m.attempts.len() as u64) << 2 | status_code(f);
            set(f.done, m.src, "m_axis_status_tvalid", 1);
            set(f.done, m.src, "m_axis_status_tdata", beat);
        }
        for (v, entries) in sinks.entries.iter().enumerate() {
            let v = v as u32;
            for e in entries {
                for t in e.written + 2..=e.taken {
                    set(t - 1, v, "m_axis_tvalid", 1);
                }
                set(e.taken - 1, v, "m_axis_tdata", self.payload(e.id, e.index));
                set(e.taken - 1, v, "m_axis_tlast", u64::from(e.last));
                set(e.taken - 1, v, "m_axis_tid", u64::from(e.src));
            }
        }
    }

    /// Runs the hardware in `simulator` and judges it message by message; the first `shown`
    /// failures are kept in full. With `wave` the waves go there.
    pub fn verify(
        &self,
        simulator: &dyn Simulator,
        shown: usize,
        wave: Option<&Path>,
    ) -> Result<FunctionReport, SimError> {
        let design = self.design();
        let rows = self.rows(&design);
        let run = simulate(simulator, &design, &self.describe(), 1, &rows, wave)?;
        let mut observed = self.observe(&design, &run.lines);
        let mut report = FunctionReport::new(simulator.name());
        for problem in self.judge(&mut observed) {
            match problem {
                None => report.pass(),
                Some(text) => report.fail(shown, || text),
            }
        }
        Ok(report)
    }

    /// The links of the network as a testbench wires its nodes, each wire named by the node
    /// that receives it (`n012.in1_cl`; [`LinkWires`]).
    pub fn links(&self) -> Vec<Link> {
        let prefixes = prefixes(&self.params);
        whole::links(&self.params)
            .into_iter()
            .map(|link| Link {
                from: link.from,
                out: link.out_port,
                to: link.to,
                input: link.in_port,
                nack_out: link.nack_port,
                names: LinkWires::new(
                    &prefixes[link.from],
                    link.out_port,
                    &prefixes[link.to],
                    link.in_port,
                ),
            })
            .collect()
    }

    /// Runs the self-timed network (its parameters must say so) in `simulator`: every node
    /// instantiated alone, the links wired with `delays`, each node's processor side driven
    /// on its own clock with the rows the synchronous check drives it with, and its outputs
    /// judged message by message as the synchronous network's are, cycles counted on each
    /// node's own clock. Clocks that stop are a failure, with each node's state.
    pub fn verify_self_timed(
        &self,
        simulator: &dyn Simulator,
        delays: &Delays,
        shown: usize,
    ) -> Result<FunctionReport, SimError> {
        let design = self.design();
        let node_name = format!("{}_node", self.params.top);
        let node = design
            .modules
            .iter()
            .find(|m| m.name == node_name)
            .expect("the network has its node module");
        let d = self.params.ports();
        let clock_inputs: Vec<String> = (1..=d)
            .flat_map(|p| [format!("in{p}_cl"), format!("out{p}_cla")])
            .collect();
        let local_ports: Vec<String> = node
            .ports()
            .filter(|(_, s)| s.kind == SignalKind::Port(Direction::Input) && s.name != "rst")
            .map(|(_, s)| s.name.clone())
            .filter(|name| !is_link_port(name))
            .collect();
        let bench = Bench {
            design: &design,
            node,
            describe: self.describe(),
            wires: self.links().iter().flat_map(|l| l.wires(delays)).collect(),
            local: self.local_rows(&design, &local_ports),
            local_ports,
            recorded: OBSERVED.map(String::from).to_vec(),
            clock_inputs: clock_inputs.clone(),
        };
        let run = bench.run(simulator)?;
        let column: HashMap<&str, usize> =
            OBSERVED.iter().enumerate().map(|(i, &o)| (o, i)).collect();
        let mut observed = gather(
            self.params.nodes(),
            |v| run.rows[v].len(),
            |v, r, name| run.rows[v][r].get(column[name]).copied().flatten(),
        );
        let mut report = FunctionReport::new(simulator.name());
        if let Some(stopped) = &run.stopped {
            let names: Vec<String> = (0..self.params.nodes())
                .map(|v| format!("node {}", self.node_name(v)))
                .collect();
            report.fail(shown, || describe_stop(stopped, &names, &clock_inputs));
        }
        for problem in self.judge(&mut observed) {
            match problem {
                None => report.pass(),
                Some(text) => report.fail(shown, || text),
            }
        }
        Ok(report)
    }

    /// Each node's inputs in every cycle, in the order of `ports`: its word and its
    /// out-links' fault bits (constant), and its processor side as [`Self::rows`] drives
    /// the top's ports of the node.
    fn local_rows(&self, design: &Design, ports: &[String]) -> Vec<Vec<Vec<u64>>> {
        let inputs = port_index(design, Direction::Input);
        let rows = self.rows(design);
        let mut faulty = vec![false; self.params.nodes()];
        for &v in &self.faulty {
            faulty[v as usize] = true;
        }
        prefixes(&self.params)
            .iter()
            .enumerate()
            .map(|(v, prefix)| {
                let word = whole::node_word(&self.params, v);
                let out_fault = whole::out_fault_bits(&self.params, v, &faulty, 0);
                rows.iter()
                    .map(|row| {
                        ports
                            .iter()
                            .map(|port| match port.as_str() {
                                "node" => word,
                                "out_fault" => out_fault,
                                name => row[inputs[&format!("{prefix}_{name}")]],
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }

    /// Each node's columns of the outputs the check reads ([`OBSERVED`]) in a row, by
    /// name: looked up once rather than in every row.
    fn columns(&self, design: &Design) -> Vec<HashMap<&'static str, Field>> {
        let outputs = self.fields(design, Direction::Output);
        let observed: &[&'static str] = match self.sinks {
            None => &OBSERVED,
            Some(_) => &axis::OBSERVED,
        };
        prefixes(&self.params)
            .iter()
            .map(|prefix| {
                observed
                    .iter()
                    .map(|&name| (name, outputs[&format!("{prefix}_{name}")]))
                    .collect()
            })
            .collect()
    }

    /// The hardware's outputs of every row of the one simulation of the whole network,
    /// per node.
    fn observe(&self, design: &Design, lines: &[String]) -> Observed {
        let columns = self.columns(design);
        let rows: Vec<Vec<Option<u64>>> = lines.iter().map(|line| parse_line(line)).collect();
        if let Some(sinks) = &self.sinks {
            return axis::gather(
                self.params.nodes(),
                rows.len(),
                sinks,
                |v, r, name| {
                    let field = columns[v][name];
                    let word = rows[r].get(field.column).copied().flatten();
                    word.map(|word| field.get(word))
                },
                |tid| self.address_word(tid as u32),
            );
        }
        gather(
            self.params.nodes(),
            |_| rows.len(),
            |v, r, name| {
                let field = columns[v][name];
                let word = rows[r].get(field.column).copied().flatten();
                word.map(|word| field.get(word))
            },
        )
    }

    /// Where each node's signal of `direction` sits in a row, by its flat top's port name
    /// (`n012_tx_data`): its own port in the flat top, node i's bits of the signal's
    /// vector in the packed one.
    fn fields(&self, design: &Design, direction: Direction) -> HashMap<String, Field> {
        let index = port_index(design, direction);
        let widths: Vec<u32> = row_ports(design)
            .filter(|(_, s)| s.kind == SignalKind::Port(direction))
            .map(|(_, s)| s.width)
            .collect();
        let whole = |column: usize| Field {
            column,
            lo: 0,
            width: widths[column],
        };
        match self.ports {
            PortForm::Flat => index.into_iter().map(|(n, c)| (n, whole(c))).collect(),
            PortForm::Packed => {
                let nodes = self.params.nodes() as u32;
                let prefixes = prefixes(&self.params);
                index
                    .into_iter()
                    .flat_map(|(name, column)| {
                        let width = whole(column).width / nodes;
                        prefixes.iter().enumerate().map(move |(i, prefix)| {
                            let field = Field {
                                column,
                                lo: i as u32 * width,
                                width,
                            };
                            (format!("{prefix}_{name}"), field)
                        })
                    })
                    .collect()
            }
        }
    }

    /// One entry per message (None when it matched) and one per extra event, in the order
    /// of the cycles they start in (a message's first byte, an event's cycle).
    fn judge(&self, seen: &mut Observed) -> Vec<Option<String>> {
        let mut by_handover: Vec<&Finished> = self.finished.iter().collect();
        by_handover.sort_by_key(|f| (f.message.handed, f.message.src));
        let mut arrivals = arrivals_by_source(seen);
        let mut arrival_of = self.match_arrivals(&by_handover, &mut arrivals);
        let mut out = Vec::new();
        for f in &by_handover {
            let m = &f.message;
            let verdict = seen.verdicts[m.src as usize].pop_front();
            let arrival = arrival_of.remove(&m.id);
            let ready = &seen.ready[m.src as usize];
            out.push((m.handed, self.judge_message(f, ready, verdict, arrival)));
        }
        out.extend(self.unexplained_events(seen, &arrivals));
        out.sort_by_key(|(cycle, _)| *cycle);
        out.into_iter().map(|(_, entry)| entry).collect()
    }

    /// Pairs each message the model handed out at its destination (every delivered one,
    /// and a failed one whose every ACK was lost), in the order the model handed them out,
    /// with the next arrival the hardware handed out at its destination from its source,
    /// which it takes out of `arrivals`; the arrivals by message id.
    fn match_arrivals(
        &self,
        by_handover: &[&Finished],
        arrivals: &mut Arrivals,
    ) -> BTreeMap<u64, Arrival> {
        let mut delivered: Vec<&Finished> = by_handover
            .iter()
            .copied()
            .filter(|f| f.arrive.is_some())
            .collect();
        delivered.sort_by_key(|f| f.arrive);
        let mut arrival_of = BTreeMap::new();
        for f in delivered {
            let m = &f.message;
            let src = self.address_word(m.src);
            if let Some(a) = arrivals
                .get_mut(&(m.dst as usize, src))
                .and_then(VecDeque::pop_front)
            {
                arrival_of.insert(m.id, a);
            }
        }
        arrival_of
    }

    /// None when the hardware did with message `f` what the model did: took its bytes
    /// while `tx_ready` (its source's `ready`) was high, gave the model's `verdict`, and
    /// made the model's `arrival`, if any, with its bytes; otherwise both accounts.
    fn judge_message(
        &self,
        f: &Finished,
        ready: &[bool],
        verdict: Option<Verdict>,
        arrival: Option<Arrival>,
    ) -> Option<String> {
        let m = &f.message;
        let not_ready: Vec<u64> = (m.handed..m.handed + u64::from(m.bytes))
            .filter(|&t| t > 0 && ready.get(t as usize - 1) != Some(&true))
            .collect();
        let expected_bytes: Vec<u64> = (0..usize::from(m.bytes))
            .map(|j| self.payload(m.id, j))
            .collect();
        let status = status_code(f);
        // With AXI4-Stream nodes, a message arrives when its last byte leaves the FIFO.
        let arrive = match &self.sinks {
            None => f.arrive,
            Some(sinks) => f.arrive.map(|_| sinks.taken[&m.id]),
        };
        let expected = Verdict {
            cycle: f.done,
            status,
            attempts: m.attempts.len() as u64,
        };
        let arrival_ok = match (&arrival, arrive) {
            (None, None) => true,
            (Some(a), Some(cycle)) => {
                a.cycle == cycle && a.len == u64::from(m.bytes) && a.bytes == expected_bytes
            }
            _ => false,
        };
        if not_ready.is_empty() && verdict.as_ref() == Some(&expected) && arrival_ok {
            return None;
        }
        let rtl = describe_rtl(
            &not_ready,
            verdict.as_ref(),
            arrival.as_ref(),
            &expected_bytes,
        );
        let mut model = describe_verdict(status, expected.attempts, f.done);
        if let Some(cycle) = arrive {
            model += &format!(", arrived in cycle {cycle}");
        }
        Some(format!(
            "message {} {}->{} ({} bytes, first in cycle {}): model {model}; RTL {rtl}",
            m.id,
            self.node_name(m.src as usize),
            self.node_name(m.dst as usize),
            m.bytes,
            m.handed,
        ))
    }

    /// What the hardware did that no message of the model explains: the verdicts and
    /// `arrivals` left over, and every `rx_error`; each with its cycle.
    fn unexplained_events(
        &self,
        seen: &Observed,
        arrivals: &Arrivals,
    ) -> Vec<(u64, Option<String>)> {
        let mut out = Vec::new();
        for (v, verdicts) in seen.verdicts.iter().enumerate() {
            for extra in verdicts {
                out.push((
                    extra.cycle,
                    Some(format!(
                        "node {}: RTL verdict for no message: {}",
                        self.node_name(v),
                        describe_verdict(extra.status, extra.attempts, extra.cycle)
                    )),
                ));
            }
        }
        let mut extras: Vec<(&(usize, u64), &Arrival)> = arrivals
            .iter()
            .flat_map(|(key, list)| list.iter().map(move |a| (key, a)))
            .collect();
        extras.sort_by_key(|((v, _), a)| (a.cycle, *v));
        for ((v, _), a) in extras {
            out.push((a.cycle, Some(format!(
                "node {}: RTL handed out a message the model did not deliver: from {}, {} bytes, in cycle {}",
                self.node_name(*v),
                self.address_name(a.src),
                a.len,
                a.cycle
            ))));
        }
        for &(v, cycle) in &seen.errors {
            out.push((
                cycle,
                Some(format!(
                    "node {}: rx_error in cycle {cycle}",
                    self.node_name(v)
                )),
            ));
        }
        out
    }

    /// Node `v`'s name (a Kautz word), as messages name it.
    fn node_name(&self, v: usize) -> String {
        self.model.plan.node_name(v)
    }

    /// Data word `j` of message `id` as the ports carry it (`tx_data`, `rx_data`): the
    /// model's byte in its low 8 bits, random bits above.
    fn payload(&self, id: u64, j: usize) -> u64 {
        payload_word(self.model.seed, id, j, self.params.router.data_bits)
    }

    /// Node `v`'s address as the ports carry it (`tx_dst`, `rx_src`).
    fn address_word(&self, v: u32) -> u64 {
        let address = self.model.plan.address(v as usize);
        self.params.router.address_word(&address)
    }

    /// The node whose address the ports show as `word`, by name, or its units when it is
    /// no node's.
    fn address_name(&self, word: u64) -> String {
        let (units, bits) = self.params.router.address_units();
        let address: Vec<u8> = (0..units)
            .rev()
            .map(|i| (word >> (i * bits) & ((1 << bits) - 1)) as u8)
            .collect();
        match self.model.plan.node_at(&address) {
            Some(v) => self.node_name(v),
            None => format!("no node ({address:?})"),
        }
    }
}

/// A verdict's `res_status`: 0 delivered, 1 failed.
fn status_code(f: &Finished) -> u64 {
    match f.outcome {
        Outcome::Delivered => 0,
        Outcome::Failed => 1,
    }
}

/// The hardware's arrivals at each node by source word, in the order they arrived.
type Arrivals = HashMap<(usize, u64), VecDeque<Arrival>>;

/// `seen`'s arrivals, keyed by node and source word.
fn arrivals_by_source(seen: &Observed) -> Arrivals {
    let mut arrivals: Arrivals = HashMap::new();
    for (v, list) in seen.arrivals.iter().enumerate() {
        for a in list {
            arrivals.entry((v, a.src)).or_default().push_back(a.clone());
        }
    }
    arrivals
}

/// What the hardware did with a message that it did not do as the model did: the cycles
/// of its bytes that `tx_ready` was low, its `verdict` and its `arrival`.
fn describe_rtl(
    not_ready: &[u64],
    verdict: Option<&Verdict>,
    arrival: Option<&Arrival>,
    expected_bytes: &[u64],
) -> String {
    let mut rtl = Vec::new();
    if !not_ready.is_empty() {
        rtl.push(format!(
            "tx_ready low for its bytes in cycles {not_ready:?}"
        ));
    }
    rtl.push(match verdict {
        Some(v) => describe_verdict(v.status, v.attempts, v.cycle),
        None => "no verdict".to_string(),
    });
    rtl.push(match arrival {
        Some(a) if a.len == expected_bytes.len() as u64 && a.bytes == expected_bytes => {
            format!("arrived in cycle {}", a.cycle)
        }
        Some(a) => format!(
            "arrived in cycle {} with {} bytes {}",
            a.cycle,
            a.len,
            hex_words(&a.bytes)
        ),
        None => "not arrived".to_string(),
    });
    rtl.join(", ")
}

/// The outputs of `nodes` nodes, gathered per node: node v has `rows(v)` rows, row r
/// recorded after its clock edge r + 1, and `value(v, r, name)` reads output `name` there
/// (`None` where unknown).
fn gather(
    nodes: usize,
    rows: impl Fn(usize) -> usize,
    value: impl Fn(usize, usize, &str) -> Option<u64>,
) -> Observed {
    let mut seen = Observed {
        ready: vec![Vec::new(); nodes],
        verdicts: vec![VecDeque::new(); nodes],
        arrivals: vec![Vec::new(); nodes],
        errors: Vec::new(),
    };
    for v in 0..nodes {
        // The bytes of the message the node is handing out: (src, len, bytes).
        let mut receiving: Option<(u64, u64, Vec<u64>)> = None;
        for r in 0..rows(v) {
            let cycle = r as u64 + 1;
            let get = |name: &str| value(v, r, name).unwrap_or(u64::MAX);
            seen.ready[v].push(get("tx_ready") == 1);
            if get("res_valid") == 1 {
                seen.verdicts[v].push_back(Verdict {
                    cycle,
                    status: get("res_status"),
                    attempts: get("res_attempts"),
                });
            }
            if get("rx_error") == 1 {
                seen.errors.push((v, cycle));
            }
            if get("rx_valid") == 1 {
                let byte = get("rx_data");
                let entry = receiving.get_or_insert_with(|| (0, 0, Vec::new()));
                if get("rx_first") == 1 {
                    *entry = (get("rx_src"), get("rx_len"), Vec::new());
                }
                entry.2.push(byte);
                if get("rx_last") == 1 {
                    let (src, len, bytes) = receiving.take().expect("filled above");
                    seen.arrivals[v].push(Arrival {
                        cycle,
                        src,
                        len,
                        bytes,
                    });
                }
            }
        }
    }
    seen.errors.sort_by_key(|&(v, cycle)| (cycle, v));
    seen
}

/// "delivered after 2 attempts in cycle 95".
fn describe_verdict(status: u64, attempts: u64, cycle: u64) -> String {
    let outcome = match status {
        0 => "delivered",
        1 => "failed",
        2 => "refused",
        _ => "status ?",
    };
    let plural = if attempts == 1 { "" } else { "s" };
    format!("{outcome} after {attempts} attempt{plural} in cycle {cycle}")
}

/// "0a ff 3c", each word in hex, two digits at least.
fn hex_words(words: &[u64]) -> String {
    let text: Vec<String> = words.iter().map(|b| format!("{b:02x}")).collect();
    text.join(" ")
}

/// `in2_cl`, `out1_nack`: a port of one of the node's network links, which the testbench
/// wires to the neighbour rather than driving it.
fn is_link_port(name: &str) -> bool {
    ["in", "out"].iter().any(|side| {
        name.strip_prefix(side)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// The port-name prefix of every node, by node index.
fn prefixes(params: &NetworkParams) -> Vec<String> {
    (0..params.nodes()).map(|v| params.node_prefix(v)).collect()
}

/// Position of each of the top's ports of `direction` among those ports, without `clk` and
/// `rst`, by name: the order of a testbench row.
fn port_index(design: &Design, direction: Direction) -> HashMap<String, usize> {
    row_ports(design)
        .filter(|(_, s)| s.kind == SignalKind::Port(direction))
        .enumerate()
        .map(|(i, (_, s))| (s.name.clone(), i))
        .collect()
}
