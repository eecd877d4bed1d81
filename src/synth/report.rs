//! Synthesis figures: what one `kautzgen synth` run measured, as a table, as JSON, and
//! gathered from many runs into `docs/synthesis.md`.
//!
//! In: [`SynthReport`]s (from [`crate::synth::flow`], or read back from their JSON), and
//! optionally the cycles per route set that `kautzgen verify` measured. Out: text.

use crate::choice::Choice;
use crate::emit::names::Language;
use crate::synth::blocks::Block;
use crate::synth::critical::CriticalPath;
use crate::synth::render_template;
use crate::synth::target::Target;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use thiserror::Error;

const DOC_TEMPLATE: &str = include_str!("../../templates/synth_doc.md.tera");

/// The language a figure was synthesised from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Hdl {
    Verilog,
    Vhdl,
}

impl From<Language> for Hdl {
    fn from(language: Language) -> Hdl {
        match language {
            Language::Verilog => Hdl::Verilog,
            Language::Vhdl => Hdl::Vhdl,
        }
    }
}

impl Hdl {
    pub fn name(self) -> &'static str {
        match self {
            Hdl::Verilog => "verilog",
            Hdl::Vhdl => "vhdl",
        }
    }
}

/// The figures of one language on one target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetResult {
    pub target: Target,
    pub language: Hdl,
    /// The unit's own cells, synthesised with its hierarchy kept apart from the wrapper.
    pub luts: u64,
    pub flip_flops: u64,
    pub carries: u64,
    pub rams: u64,
    /// Every cell type yosys mapped the unit to, and how many.
    pub cells: BTreeMap<String, u64>,
    /// Logic cells nextpnr placed, wrapper included.
    pub logic_cells: u64,
    /// nextpnr's maximum frequency after routing, one per seed, in seed order.
    pub fmax_mhz: Vec<f64>,
    pub fmax_median: f64,
    pub fmax_min: f64,
    pub fmax_max: f64,
    /// The critical path of the placement whose Fmax is the median (the lower middle one
    /// for an even number of seeds); absent from reports written before it was recorded.
    #[serde(default)]
    pub critical_path: Option<CriticalPath>,
    /// nextpnr's wall-clock time per seed, in seconds (what placing and routing costs; it
    /// depends on the machine and its load, unlike every other figure).
    #[serde(default)]
    pub place_route_seconds: Vec<f64>,
    /// Seeds whose routing nextpnr's router1 did not finish (it re-routed the same arcs
    /// past its budget, [`crate::synth::pnr`]), routed again with router2.
    #[serde(default)]
    pub rerouted_seeds: Vec<u64>,
    /// The unit's instance tree with each block's cells, from a second synthesis with every
    /// module kept; empty for a unit of one module and in older reports.
    #[serde(default)]
    pub blocks: Vec<Block>,
}

/// Cycles per route set as `kautzgen verify` measured them in simulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cycles {
    /// Mean cycles of work from `init` to `done`, waiting for `next_route` not counted.
    pub mean: f64,
    pub max: u64,
    /// The bound the generator promises.
    pub bound: u64,
    /// The simulator whose figure this is.
    pub simulator: String,
}

/// What one `kautzgen synth` run measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthReport {
    /// The unit as named on the command line, such as `kautz-route-gen`.
    pub unit: String,
    /// One line saying what the design is.
    pub summary: String,
    pub top: String,
    pub params: BTreeMap<String, u64>,
    /// The command line that produced the report.
    pub command: String,
    /// The day of the run, `YYYY-MM-DD`, UTC.
    pub date: String,
    pub seeds: Vec<u64>,
    /// Program -> the first line of its version output.
    pub tools: BTreeMap<String, String>,
    /// Flip-flops the synthesis wrapper adds around the unit.
    pub wrapper_flip_flops: u32,
    pub results: Vec<TargetResult>,
    pub cycles: Option<Cycles>,
}

#[derive(Debug, Error)]
pub enum ReportError {
    #[error("cannot read '{}': {message}", path.display())]
    Read { path: PathBuf, message: String },
    #[error("'{}' holds no synthesis report (*.json written by `kautzgen synth --format json`)", dir.display())]
    Empty { dir: PathBuf },
    #[error(
        "'{}' has no line 'SIMULATOR: cycles per route set: mean M, max N (bound B)' as `kautzgen verify` prints",
        path.display()
    )]
    NoCycles { path: PathBuf },
    /// A fault of the template itself, which is compiled into the program.
    #[error("internal error: synthesis document template: {0}")]
    Template(#[from] tera::Error),
}

/// The median of `values`, which must not be empty: the middle one, or the mean of the
/// two in the middle.
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// Today's date in UTC as `YYYY-MM-DD`.
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    civil_date(seconds / 86_400)
}

/// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's civil_from_days).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The units that hand out sets of routes, whose speed is also route sets per second: the
/// Kautz route generator in its three architectures and the MRNS path generator (a path
/// set is its route set). The other units answer one input per clock.
pub const ROUTE_SET_UNITS: [&str; 4] = [
    "kautz-route-gen",
    "kautz-route-gen-parallel",
    "kautz-route-pipe",
    "mrns-path-gen",
];

/// Reads the cycles per route set from what `kautzgen verify` printed: the first line
/// `SIMULATOR: cycles per route set: mean M, max N (bound B)`, or `cycles per path set`
/// as it says for the MRNS path generator.
pub fn parse_cycles(text: &str) -> Option<Cycles> {
    text.lines().find_map(|line| {
        let (simulator, rest) = line
            .split_once(": cycles per route set: mean ")
            .or_else(|| line.split_once(": cycles per path set: mean "))?;
        let (mean, rest) = rest.split_once(", max ")?;
        let (max, rest) = rest.split_once(" (bound ")?;
        let bound = rest.trim_end().strip_suffix(')')?;
        Some(Cycles {
            mean: mean.trim().parse().ok()?,
            max: max.trim().parse().ok()?,
            bound: bound.trim().parse().ok()?,
            simulator: simulator.trim().to_string(),
        })
    })
}

/// [`parse_cycles`] of a file.
pub fn read_cycles(path: &Path) -> Result<Cycles, ReportError> {
    let text = std::fs::read_to_string(path).map_err(|e| ReportError::Read {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    parse_cycles(&text).ok_or_else(|| ReportError::NoCycles {
        path: path.to_path_buf(),
    })
}

/// `K(4,5)`-style parameters: `d=4, k=5`.
fn params_text(params: &BTreeMap<String, u64>) -> String {
    params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Route sets per second at `fmax_mhz`, in millions, to three significant digits.
fn route_sets_per_second(fmax_mhz: f64, cycles: &Cycles) -> String {
    format!("{:.3} M/s", fmax_mhz / cycles.mean)
}

impl SynthReport {
    /// The report as a table for a terminal.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        writeln!(
            out,
            "{}: {} ({})",
            self.top,
            self.summary,
            params_text(&self.params)
        )
        .unwrap();
        writeln!(
            out,
            "unit synthesised alone (hierarchy kept), placed and routed inside a wrapper of {} flip-flops; seeds {}",
            self.wrapper_flip_flops,
            self.seeds
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
        .unwrap();
        out.push('\n');
        let mut rows = vec![[
            "target".to_string(),
            "language".to_string(),
            "LUTs".to_string(),
            "FFs".to_string(),
            "carry".to_string(),
            "logic cells".to_string(),
            "Fmax median".to_string(),
            "Fmax min..max".to_string(),
        ]];
        for r in &self.results {
            rows.push([
                r.target.name().to_string(),
                r.language.name().to_string(),
                r.luts.to_string(),
                r.flip_flops.to_string(),
                r.carries.to_string(),
                r.logic_cells.to_string(),
                format!("{:.2} MHz", r.fmax_median),
                format!("{:.2}..{:.2}", r.fmax_min, r.fmax_max),
            ]);
        }
        let widths: Vec<usize> = (0..rows[0].len())
            .map(|c| rows.iter().map(|r| r[c].len()).max().unwrap_or(0))
            .collect();
        for row in &rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (cell, &w))| match c {
                    0 | 1 => format!("{cell:<w$}"),
                    _ => format!("{cell:>w$}"),
                })
                .collect();
            writeln!(out, "{}", cells.join("  ").trim_end()).unwrap();
        }
        out.push('\n');
        writeln!(
            out,
            "LUTs, FFs, carry: the unit's cells after yosys; logic cells: placed by nextpnr, wrapper included."
        )
        .unwrap();
        self.render_rerouted(&mut out);
        self.render_critical_paths(&mut out);
        self.render_blocks(&mut out);
        match &self.cycles {
            Some(c) => {
                writeln!(
                    out,
                    "cycles per route set ({}): mean {:.1}, max {} (bound {})",
                    c.simulator, c.mean, c.max, c.bound
                )
                .unwrap();
                for r in &self.results {
                    writeln!(
                        out,
                        "route sets per second, {} {}: {} at the median Fmax",
                        r.target.name(),
                        r.language.name(),
                        route_sets_per_second(r.fmax_median, c)
                    )
                    .unwrap();
                }
            }
            None if ROUTE_SET_UNITS.contains(&self.unit.as_str()) => writeln!(
                out,
                "cycles per route set: not given (--cycles FILE takes them from `kautzgen verify`)"
            )
            .unwrap(),
            None => {}
        }
        for (program, version) in &self.tools {
            writeln!(out, "{program}: {version}").unwrap();
        }
        out
    }

    /// The seeds that router2 routed because router1 stalled on them.
    fn render_rerouted(&self, out: &mut String) {
        for r in self.results.iter().filter(|r| !r.rerouted_seeds.is_empty()) {
            let seeds: Vec<String> = r.rerouted_seeds.iter().map(u64::to_string).collect();
            writeln!(
                out,
                "{} {}: nextpnr's router1 stalled on seed {} (re-routing the same arcs past its budget); router2 routed it",
                r.target.name(),
                r.language.name(),
                seeds.join(", ")
            )
            .unwrap();
        }
    }

    /// The critical path of each result's median placement, with what limits it.
    fn render_critical_paths(&self, out: &mut String) {
        let with_paths: Vec<_> = self
            .results
            .iter()
            .filter_map(|r| Some((r, r.critical_path.as_ref()?)))
            .collect();
        if with_paths.is_empty() {
            return;
        }
        writeln!(out, "critical path of the median placement:").unwrap();
        for (r, path) in with_paths {
            writeln!(
                out,
                "  {} {}: {}; {}",
                r.target.name(),
                r.language.name(),
                path.ends(),
                path.delays()
            )
            .unwrap();
            if !r.place_route_seconds.is_empty() {
                writeln!(
                    out,
                    "    placed and routed in {:.1} s (median of the seeds)",
                    median(&r.place_route_seconds)
                )
                .unwrap();
            }
            writeln!(out, "    through {}", path.through.join(", ")).unwrap();
            writeln!(out, "    limit: {}", path.limit()).unwrap();
        }
    }

    /// Each result's blocks as an indented tree: instances in the parent, then one
    /// instance's cells.
    fn render_blocks(&self, out: &mut String) {
        for r in self.results.iter().filter(|r| !r.blocks.is_empty()) {
            writeln!(
                out,
                "blocks, {} {} (synthesised again with every module kept; {} LUTs against {} flattened):",
                r.target.name(),
                r.language.name(),
                r.blocks[0].luts,
                r.luts
            )
            .unwrap();
            let width = r
                .blocks
                .iter()
                .map(|b| 2 * b.depth as usize + b.module.len())
                .max()
                .unwrap_or(0);
            for b in &r.blocks {
                let name = format!("{}{}", "  ".repeat(b.depth as usize), b.module);
                writeln!(
                    out,
                    "  {name:<width$}  {:>4} x {:>6} LUTs {:>6} FFs {:>4} RAMs",
                    b.instances, b.luts, b.flip_flops, b.rams
                )
                .unwrap();
            }
        }
    }

    /// The report as one JSON object and a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("reports always serialise");
        text.push('\n');
        text
    }
}

/// Reads every `*.json` report in `dir`, ordered by unit, then parameters.
pub fn read_reports(dir: &Path) -> Result<Vec<SynthReport>, ReportError> {
    let fail = |path: &Path, message: String| ReportError::Read {
        path: path.to_path_buf(),
        message,
    };
    let mut reports = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| fail(dir, e.to_string()))?;
    for entry in entries {
        let path = entry.map_err(|e| fail(dir, e.to_string()))?.path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).map_err(|e| fail(&path, e.to_string()))?;
            let report: SynthReport =
                serde_json::from_str(&text).map_err(|e| fail(&path, e.to_string()))?;
            reports.push(report);
        }
    }
    if reports.is_empty() {
        return Err(ReportError::Empty {
            dir: dir.to_path_buf(),
        });
    }
    reports.sort_by(|a, b| (&a.unit, &a.params).cmp(&(&b.unit, &b.params)));
    Ok(reports)
}

#[derive(Serialize)]
struct DocRow {
    unit: String,
    size: String,
    target: String,
    luts: String,
    flip_flops: String,
    rams: String,
    fmax: String,
    spread: String,
    cycles: String,
    rate: String,
}

#[derive(Serialize)]
struct ToolVersion {
    program: String,
    version: String,
}

#[derive(Serialize)]
struct UnitLine {
    unit: String,
    summary: String,
    /// How many sizes of the unit the table has.
    sizes: usize,
}

#[derive(Serialize)]
struct DocContext {
    command: String,
    units: Vec<UnitLine>,
    dates: String,
    seeds: String,
    rows: Vec<DocRow>,
    tools: Vec<ToolVersion>,
    runs: Vec<String>,
    /// Route-set units with no cycle count.
    cycles_missing: Vec<String>,
    /// Units that answer one input per clock.
    function_units: Vec<String>,
    /// The network switch's links: one row per size and FPGA.
    links: Vec<LinkRow>,
    /// The critical path of every result that recorded one.
    paths: Vec<PathRow>,
    /// Results whose reports predate the recording of critical paths.
    paths_missing: usize,
    /// The blocks of the routers and networks, Verilog only.
    blocks: Vec<BlockRow>,
}

/// One block of a router or network on one FPGA.
#[derive(Serialize)]
struct BlockRow {
    unit: String,
    size: String,
    target: String,
    /// The module, indented by its depth in the instance tree.
    block: String,
    instances: u64,
    luts: u64,
    flip_flops: u64,
    rams: u64,
}

/// How deep the document's block tables go: the network, its nodes, their switch and
/// router, and the router's route generator.
const DOC_BLOCK_DEPTH: u32 = 3;

/// Whether the document breaks `unit` down into blocks: the router and every network.
fn has_doc_blocks(unit: &str) -> bool {
    unit == "router" || unit.ends_with("network")
}

/// The rows of the block tables: the Verilog results of routers and networks.
fn block_rows(reports: &[SynthReport]) -> Vec<BlockRow> {
    let mut rows = Vec::new();
    for report in reports.iter().filter(|r| has_doc_blocks(&r.unit)) {
        for r in report.results.iter().filter(|r| r.language == Hdl::Verilog) {
            for b in r.blocks.iter().filter(|b| b.depth <= DOC_BLOCK_DEPTH) {
                rows.push(BlockRow {
                    unit: report.unit.clone(),
                    size: params_text(&report.params),
                    target: r.target.name().to_string(),
                    block: format!("{}`{}`", "· ".repeat(b.depth as usize), b.module),
                    instances: b.instances,
                    luts: b.luts,
                    flip_flops: b.flip_flops,
                    rams: b.rams,
                });
            }
        }
    }
    rows
}

/// The critical path of one unit, size, FPGA and language.
#[derive(Serialize)]
struct PathRow {
    unit: String,
    size: String,
    target: String,
    language: String,
    fmax: String,
    ends: String,
    delays: String,
    through: String,
    limit: String,
}

/// The rows of the critical-path table, and how many results have no path recorded.
fn path_rows(reports: &[SynthReport]) -> (Vec<PathRow>, usize) {
    let mut rows = Vec::new();
    let mut missing = 0;
    for report in reports {
        for r in &report.results {
            let Some(path) = &r.critical_path else {
                missing += 1;
                continue;
            };
            rows.push(PathRow {
                unit: report.unit.clone(),
                size: params_text(&report.params),
                target: r.target.name().to_string(),
                language: r.language.name().to_string(),
                fmax: format!("{:.1}", r.fmax_median),
                ends: path.ends(),
                delays: path.delays(),
                through: path.through.join(", "),
                limit: path.limit(),
            });
        }
    }
    (rows, missing)
}

/// One size of the network switch on one FPGA: its link rate, data bits times Fmax.
#[derive(Serialize)]
struct LinkRow {
    size: String,
    target: String,
    luts: String,
    fmax: String,
    rate: String,
}

/// The unit name of the network switch, whose links the document compares with the switch
/// of the network-switch paper (Smit et al. 1991).
pub const SWITCH_UNIT: &str = "switch";

/// `verilog / vhdl` of one figure, `-` for a language that was not synthesised.
fn pair(verilog: Option<String>, vhdl: Option<String>) -> String {
    let dash = || "-".to_string();
    format!(
        "{} / {}",
        verilog.unwrap_or_else(dash),
        vhdl.unwrap_or_else(dash)
    )
}

/// A figure of both languages on one FPGA, as `verilog / vhdl`.
type Both<'a> = Box<dyn Fn(&dyn Fn(&TargetResult) -> String) -> String + 'a>;

/// Each FPGA of `report`, in order, with a way to print a figure of both languages on it.
fn by_target(report: &SynthReport) -> Vec<(Target, Both<'_>)> {
    let mut targets: Vec<Target> = report.results.iter().map(|r| r.target).collect();
    targets.sort();
    targets.dedup();
    targets
        .into_iter()
        .map(|target| {
            let of = move |language: Hdl| {
                report
                    .results
                    .iter()
                    .find(|r| r.target == target && r.language == language)
            };
            let (v, h) = (of(Hdl::Verilog), of(Hdl::Vhdl));
            let both: Both<'_> = Box::new(move |f| pair(v.map(f), h.map(f)));
            (target, both)
        })
        .collect()
}

/// The RAM cells of one result and their kind: `3 block` (iCE40 SB_RAM40_4K, ECP5
/// DP16KD), `18 DPR16X4` (ECP5 distributed RAM of 16 words of 4 bits), `0`.
fn ram_text(r: &TargetResult) -> String {
    let kinds: Vec<&str> = r
        .cells
        .keys()
        .filter_map(|cell| match cell.as_str() {
            c if c.starts_with("SB_RAM") || c == "DP16KD" => Some("block"),
            c if c.starts_with("TRELLIS_DPR") => Some(&c["TRELLIS_".len()..]),
            _ => None,
        })
        .collect();
    match kinds.as_slice() {
        [] => r.rams.to_string(),
        kinds => format!("{} {}", r.rams, kinds.join("+")),
    }
}

/// `docs/synthesis.md` from the reports of many runs; `command` is what produced them.
pub fn render_doc(reports: &[SynthReport], command: &str) -> Result<String, ReportError> {
    let mut rows = Vec::new();
    let mut tools = BTreeMap::new();
    let mut dates: Vec<&str> = reports.iter().map(|r| r.date.as_str()).collect();
    dates.sort();
    dates.dedup();
    let mut seeds: Vec<String> = reports.iter().map(|r| r.seeds.len().to_string()).collect();
    seeds.sort();
    seeds.dedup();
    for report in reports {
        tools.extend(report.tools.clone());
        for (target, both) in by_target(report) {
            rows.push(DocRow {
                unit: report.unit.clone(),
                size: params_text(&report.params),
                target: target.device().to_string(),
                luts: both(&|r| r.luts.to_string()),
                flip_flops: both(&|r| r.flip_flops.to_string()),
                rams: both(&ram_text),
                fmax: both(&|r| format!("{:.1}", r.fmax_median)),
                spread: both(&|r| format!("{:.1}-{:.1}", r.fmax_min, r.fmax_max)),
                cycles: match &report.cycles {
                    Some(c) => format!("{:.1} (max {}, bound {})", c.mean, c.max, c.bound),
                    None => "-".to_string(),
                },
                rate: match &report.cycles {
                    Some(c) => both(&|r| route_sets_per_second(r.fmax_median, c)),
                    None => "-".to_string(),
                },
            });
        }
    }
    let mut units: Vec<UnitLine> = Vec::new();
    for report in reports {
        match units.iter_mut().find(|u| u.unit == report.unit) {
            Some(line) => line.sizes += 1,
            None => units.push(UnitLine {
                unit: report.unit.clone(),
                summary: report.summary.clone(),
                sizes: 1,
            }),
        }
    }
    let route_sets = |unit: &str| ROUTE_SET_UNITS.contains(&unit);
    let mut cycles_missing: Vec<String> = reports
        .iter()
        .filter(|r| route_sets(&r.unit) && r.cycles.is_none())
        .map(|r| r.unit.clone())
        .collect();
    cycles_missing.sort();
    cycles_missing.dedup();
    let function_units: Vec<String> = units
        .iter()
        .filter(|u| !route_sets(&u.unit) && u.unit != SWITCH_UNIT)
        .map(|u| u.unit.clone())
        .collect();
    let mut links = Vec::new();
    for report in reports.iter().filter(|r| r.unit == SWITCH_UNIT) {
        let bits = report.params.get("data_bits").copied().unwrap_or(8) as f64;
        let ports = report.params.get("d").copied().unwrap_or(0) + 1;
        for (target, both) in by_target(report) {
            links.push(LinkRow {
                size: format!("{ports}x{ports}, {bits} data bits"),
                target: target.device().to_string(),
                luts: both(&|r| r.luts.to_string()),
                fmax: both(&|r| format!("{:.1}", r.fmax_median)),
                rate: both(&|r| format!("{:.2}", bits * r.fmax_median / 1000.0)),
            });
        }
    }
    let (paths, paths_missing) = path_rows(reports);
    let context = DocContext {
        command: command.to_string(),
        units,
        dates: dates.join(", "),
        seeds: seeds.join(", "),
        rows,
        tools: tools
            .into_iter()
            .map(|(program, version)| ToolVersion { program, version })
            .collect(),
        runs: reports.iter().map(|r| r.command.clone()).collect(),
        cycles_missing,
        function_units,
        links,
        paths,
        paths_missing,
        blocks: block_rows(reports),
    };
    Ok(render_template(
        "synth_doc.md.tera",
        DOC_TEMPLATE,
        &context,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(target: Target, language: Hdl, fmax: &[f64]) -> TargetResult {
        TargetResult {
            target,
            language,
            luts: 230,
            flip_flops: 103,
            carries: 3,
            rams: 0,
            cells: BTreeMap::new(),
            logic_cells: 332,
            fmax_mhz: fmax.to_vec(),
            fmax_median: median(fmax),
            fmax_min: fmax.iter().cloned().fold(f64::INFINITY, f64::min),
            fmax_max: fmax.iter().cloned().fold(0.0, f64::max),
            critical_path: None,
            place_route_seconds: Vec::new(),
            rerouted_seeds: Vec::new(),
            blocks: Vec::new(),
        }
    }

    fn report(cycles: Option<Cycles>) -> SynthReport {
        SynthReport {
            unit: "kautz-route-gen".into(),
            summary: "route generator".into(),
            top: "kautz_route_gen".into(),
            params: BTreeMap::from([("d".into(), 4), ("k".into(), 5)]),
            command: "kautzgen synth --d 4 --k 5".into(),
            date: "2025-01-02".into(),
            seeds: vec![1, 2, 3],
            tools: BTreeMap::from([("yosys".into(), "Yosys 0.23".into())]),
            wrapper_flip_flops: 171,
            results: vec![
                result(Target::Ice40Hx8k, Hdl::Verilog, &[90.0, 100.0, 95.0]),
                result(Target::Ice40Hx8k, Hdl::Vhdl, &[80.0, 85.0]),
            ],
            cycles,
        }
    }

    #[test]
    fn the_switch_gets_its_link_rates_beside_the_network_switch_paper() {
        // 8 data bits at a median of 95 MHz (Verilog) and 82.5 MHz (VHDL): 0.76 and 0.66
        // Gbit/s per link.
        let switch = SynthReport {
            unit: SWITCH_UNIT.into(),
            summary: "3x3 wormhole switch".into(),
            params: BTreeMap::from([("d".into(), 2), ("data_bits".into(), 8)]),
            ..report(None)
        };
        let doc = render_doc(&[switch], "make synth").unwrap();
        assert!(
            doc.contains(
                "| 3x3, 8 data bits | iCE40 HX8K (CT256) | 230 / 230 | 95.0 / 82.5 | 0.76 / 0.66 |\n\
                 | 3x3, 8 data bits (Table 2 of that paper) | Xilinx XC3042 | 126 CLBs of 144, 4 logic levels | 10 | 0.08 |"
            ),
            "{doc}"
        );
        assert!(doc.contains("- A `-` in the last two columns of `switch`:"));
        assert!(!doc.contains("these\n  units answer one input per clock"));
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(19_723), "2024-01-01");
        assert_eq!(civil_date(19_782), "2024-02-29");
    }

    #[test]
    fn cycles_are_read_from_the_verify_report() {
        let text = "K(4,5): 1000 pairs\nverilator: 1000 passed, 0 failed\nverilator: cycles per route set: mean 17.3, max 24 (bound 24)\n";
        assert_eq!(
            parse_cycles(text),
            Some(Cycles {
                mean: 17.3,
                max: 24,
                bound: 24,
                simulator: "verilator".into()
            })
        );
        assert_eq!(
            parse_cycles("verilator: cycles per route set: none finished (bound 24)"),
            None
        );
        // The MRNS path generator's report, through the generic sequence flow.
        let mrns = "path generator of Z2xZ3xZ3xZ4: ..\nverilator: cycles per path set: mean 17.0, max 17 (bound 17)\n";
        assert_eq!(
            parse_cycles(mrns),
            Some(Cycles {
                mean: 17.0,
                max: 17,
                bound: 17,
                simulator: "verilator".into()
            })
        );
    }

    #[test]
    fn the_text_table_lines_up() {
        let text = report(None).render_text();
        assert!(
            text.contains(
                "target      language  LUTs  FFs  carry  logic cells  Fmax median  Fmax min..max\n\
             ice40-hx8k  verilog    230  103      3          332    95.00 MHz  90.00..100.00\n\
             ice40-hx8k  vhdl       230  103      3          332    82.50 MHz   80.00..85.00\n"
            ),
            "{text}"
        );
        assert!(text.contains("cycles per route set: not given"));
    }

    #[test]
    fn seeds_that_router2_routed_are_named() {
        let mut rerouted = report(None);
        rerouted.results[1].rerouted_seeds = vec![1, 3];
        let text = rerouted.render_text();
        assert!(
            text.contains(
                "\nice40-hx8k vhdl: nextpnr's router1 stalled on seed 1, 3 (re-routing the same arcs past its budget); router2 routed it\n"
            ),
            "{text}"
        );
        assert!(
            !text.contains("ice40-hx8k verilog: nextpnr's router1"),
            "{text}"
        );
    }

    #[test]
    fn a_function_unit_has_no_route_sets() {
        let unit = SynthReport {
            unit: "ldi-theorem3".into(),
            ..report(None)
        };
        assert!(!unit.render_text().contains("route set"));
    }

    #[test]
    fn the_document_says_why_a_unit_has_no_cycles() {
        let sized = |unit: &str, d: u64| SynthReport {
            unit: unit.into(),
            params: BTreeMap::from([("d".into(), d)]),
            ..report(None)
        };
        let reports = [
            sized("kautz-route-gen", 2),
            sized("kautz-route-gen", 3),
            sized("ldi-theorem3", 3),
            sized("mrns-path-gen", 2),
            sized("torus-e-cube", 3),
        ];
        let doc = render_doc(&reports, "make synth").unwrap();
        for line in [
            "- `kautz-route-gen`: the route generator (the first of 2 sizes in the table).\n",
            "- `ldi-theorem3`: the route generator.\n",
            "- A `-` in the last two columns of `ldi-theorem3`, `torus-e-cube`: these\n  units answer one input per clock",
            "- A `-` in the last two columns of `kautz-route-gen`, `mrns-path-gen`: the\n  build that made this table had no `kautzgen verify` for it",
        ] {
            assert!(doc.contains(line), "{line}\n{doc}");
        }
    }

    #[test]
    fn a_ram_count_names_its_kind() {
        let mut r = report(None).results[0].clone();
        assert_eq!(ram_text(&r), "0");
        r.rams = 18;
        r.cells = BTreeMap::from([("TRELLIS_DPR16X4".into(), 18), ("LUT4".into(), 300)]);
        assert_eq!(ram_text(&r), "18 DPR16X4");
        r.rams = 3;
        r.cells = BTreeMap::from([("SB_RAM40_4K".into(), 3)]);
        assert_eq!(ram_text(&r), "3 block");
    }

    #[test]
    fn the_document_puts_the_languages_side_by_side() {
        let cycles = Cycles {
            mean: 19.0,
            max: 24,
            bound: 24,
            simulator: "verilator".into(),
        };
        let doc = render_doc(&[report(Some(cycles))], "make synth").unwrap();
        assert!(doc.contains(
            "| kautz-route-gen | d=4, k=5 | iCE40 HX8K (CT256) | 230 / 230 | 103 / 103 | 0 / 0 | 95.0 / 82.5 | 90.0-100.0 / 80.0-85.0 | 19.0 (max 24, bound 24) | 5.000 M/s / 4.342 M/s |"
        ), "{doc}");
        assert!(doc.contains("Yosys 0.23"));
        assert!(
            doc.contains("- `kautz-route-gen`: the route generator.\n"),
            "{doc}"
        );
        assert!(!doc.contains("A `-` in the last two columns"), "{doc}");
        let json = report(None).to_json();
        assert_eq!(
            serde_json::from_str::<SynthReport>(&json).unwrap(),
            report(None)
        );
    }

    #[test]
    fn the_document_gives_critical_paths_and_a_routers_blocks() {
        let path = CriticalPath {
            from: "count".into(),
            to: "read_data".into(),
            logic_steps: 14,
            carry_steps: 5,
            through_ram: true,
            logic_ns: 3.43,
            routing_ns: 7.28,
            total_ns: 11.23,
            through: vec!["pos".into(), "prev".into(), "message_buffer".into()],
        };
        let block = |module: &str, depth, instances, luts| Block {
            module: module.into(),
            depth,
            instances,
            luts,
            flip_flops: 10,
            rams: 0,
        };
        let mut verilog = result(Target::Ecp5_25k, Hdl::Verilog, &[89.0]);
        verilog.critical_path = Some(path);
        verilog.blocks = vec![
            block("kautz_router", 0, 1, 527),
            block("kautz_router_route_gen", 1, 1, 196),
            block("kautz_router_route_gen_control", 2, 1, 71),
            block("kautz_router_route_gen_match_block", 2, 1, 28),
            block("kautz_router_route_gen_match_unit", 3, 3, 8),
            block("kautz_router_route_gen_deeper", 4, 1, 1),
        ];
        let router = SynthReport {
            unit: "router".into(),
            results: vec![verilog, result(Target::Ecp5_25k, Hdl::Vhdl, &[90.0])],
            ..report(None)
        };
        let doc = render_doc(&[router], "make synth").unwrap();
        assert!(doc.contains(
            "| router | d=4, k=5 | ecp5-25k | verilog | 89.0 | `count -> read_data` | 14 logic steps (5 in a carry chain), 3.43 ns logic + 7.28 ns routing = 11.23 ns | pos, prev, message_buffer | routing 65% of the delay; 9 logic levels, a carry chain of 5 steps, a distributed-RAM read |\n"
        ), "{doc}");
        assert!(
            doc.contains("1 results\nof the table above come from reports written before"),
            "{doc}"
        );
        assert!(doc.contains(
            "| router | d=4, k=5 | ecp5-25k | `kautz_router` | 1 | 527 | 10 | 0 |\n\
             | router | d=4, k=5 | ecp5-25k | · `kautz_router_route_gen` | 1 | 196 | 10 | 0 |\n\
             | router | d=4, k=5 | ecp5-25k | · · `kautz_router_route_gen_control` | 1 | 71 | 10 | 0 |\n\
             | router | d=4, k=5 | ecp5-25k | · · `kautz_router_route_gen_match_block` | 1 | 28 | 10 | 0 |\n\
             | router | d=4, k=5 | ecp5-25k | · · · `kautz_router_route_gen_match_unit` | 3 | 8 | 10 | 0 |\n\n"
        ), "{doc}");
    }
}
