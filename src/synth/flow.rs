//! Synthesis and place-and-route of a design on FPGAs, in each of its languages.
//!
//! In: a [`Design`] (the IR, for its files and for the wrapper's ports), the targets,
//! languages and number of placement seeds, and a working directory. Out: a
//! [`SynthReport`] of the unit's LUTs and flip-flops and nextpnr's maximum frequency per
//! seed. Every tool runs in the working directory with relative paths (the YoWASP tools
//! see only their working directory) and leaves its log there:
//!
//! ```text
//! design/            the generated design (manifest.json, verilog/, vhdl/)
//! wrapper.v          the synthesis wrapper
//! ghdl/              the VHDL as a Verilog netlist, and GHDL's logs
//! <target>-<lang>/   synth.ys, yosys.log, stat.json, netlist.json,
//!                    nextpnr-seed<N>.log, report-seed<N>.json
//! ```

use crate::choice::Choice;
use crate::emit::manifest::Manifest;
use crate::emit::names::Language;
use crate::emit::{EmitError, Provenance, write_design};
use crate::rtl::ir::{Design, SelfTimedError};
use crate::synth::blocks::{Block, Netlist, blocks};
use crate::synth::critical::{CriticalPath, ReportPaths, summarise};
use crate::synth::ghdl::{GhdlError, vhdl_to_verilog};
use crate::synth::pnr;
use crate::synth::render_template;
use crate::synth::report::{Cycles, Hdl, SynthReport, TargetResult, median, today};
use crate::synth::target::Target;
use crate::synth::tool::{GHDL, Tool, ToolError};
use crate::synth::wrapper::{Wrapper, WrapperError, wrapper};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

const SCRIPT: &str = include_str!("../../templates/synth_yosys.ys.tera");
const BLOCKS_SCRIPT: &str = include_str!("../../templates/synth_blocks.ys.tera");

#[derive(Debug, Error)]
pub enum SynthError {
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[error(transparent)]
    Ghdl(#[from] GhdlError),
    #[error(transparent)]
    Wrapper(#[from] WrapperError),
    #[error(transparent)]
    Emit(#[from] EmitError),
    #[error(transparent)]
    SelfTimed(#[from] SelfTimedError),
    #[error("cannot write '{}': {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {what} '{}': {message}", path.display())]
    Output {
        what: &'static str,
        path: PathBuf,
        message: String,
    },
    #[error("nextpnr timed no clock in '{}': the wrapper's registers were lost", path.display())]
    NoClock { path: PathBuf },
    /// A fault of the template itself, which is compiled into the program.
    #[error("internal error: yosys script template: {0}")]
    Template(#[from] tera::Error),
}

/// What to synthesise.
#[derive(Debug, Clone)]
pub struct Options {
    pub targets: Vec<Target>,
    pub languages: Vec<Language>,
    /// Placement runs with seeds 1..=seeds.
    pub seeds: u64,
    /// The unit's name on the command line, for the report.
    pub unit: String,
    /// The command line, for the report and the generated files' headers.
    pub command: String,
    pub cycles: Option<Cycles>,
}

#[derive(Serialize)]
struct ScriptContext<'a> {
    top: &'a str,
    language: &'a str,
    device: &'a str,
    sources: String,
    wrapper_file: &'a str,
    wrapper: &'a str,
    synth: &'a str,
    stat: String,
    netlist: String,
}

/// What the blocks' script (`synth_blocks.ys.tera`) names: no wrapper, no statistics.
#[derive(Serialize)]
struct BlocksContext<'a> {
    top: &'a str,
    language: &'a str,
    device: &'a str,
    sources: String,
    synth: &'a str,
    netlist: String,
}

/// `yosys stat -json`: the cells of each module.
#[derive(Deserialize)]
pub(crate) struct Stat {
    pub modules: BTreeMap<String, StatModule>,
}

#[derive(Deserialize)]
pub(crate) struct StatModule {
    #[serde(default)]
    pub num_cells_by_type: BTreeMap<String, u64>,
}

/// nextpnr's `--report`: maximum frequency per clock, the cells placed and the critical paths.
#[derive(Deserialize)]
pub(crate) struct PnrReport {
    pub fmax: BTreeMap<String, PnrClock>,
    pub utilization: BTreeMap<String, PnrUse>,
    /// The critical paths, read in the same pass.
    #[serde(flatten)]
    pub paths: ReportPaths,
}

#[derive(Deserialize)]
pub(crate) struct PnrClock {
    pub achieved: f64,
}

#[derive(Deserialize)]
pub(crate) struct PnrUse {
    pub used: u64,
    pub available: u64,
}

pub(crate) fn read_json<T: for<'de> Deserialize<'de>>(
    what: &'static str,
    path: &Path,
) -> Result<T, SynthError> {
    let fail = |message: String| SynthError::Output {
        what,
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| fail(e.to_string()))
}

pub(crate) fn write(path: &Path, text: &str) -> Result<(), SynthError> {
    std::fs::write(path, text).map_err(|source| SynthError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Synthesises, places and routes `design` in `work` as `options` ask; `progress` hears
/// of each step before it starts.
pub fn synthesise(
    design: &Design,
    options: &Options,
    work: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<SynthReport, SynthError> {
    // nextpnr's timing analysis and the registered wrapper assume one clock and no loops.
    design
        .timing
        .require_synchronous("synthesis", &design.top().name)?;
    progress("asking the tools for their versions");
    let versions = tool_versions(options, work)?;
    let provenance = Provenance {
        command: options.command.clone(),
    };
    progress("writing the design and its wrapper");
    let manifest = write_design(
        &work.join("design"),
        design,
        &[Language::Verilog, Language::Vhdl],
        &provenance,
    )?;
    let wrapped = wrapper(design)?;
    write(&work.join("wrapper.v"), &wrapped.text)?;
    let sources = sources(options, &manifest, work, progress)?;
    let mut results = Vec::new();
    for &target in &options.targets {
        for (&language, files) in &sources {
            let step = Step {
                target,
                language,
                name: format!("{}-{}", target.name(), language.name()),
                work,
                blocks_of: (design.modules.len() > 1).then_some(manifest.top.as_str()),
            };
            results.push(step.run(files, &wrapped, options.seeds, progress)?);
        }
    }
    Ok(SynthReport {
        unit: options.unit.clone(),
        summary: design.summary.clone(),
        top: manifest.top.clone(),
        params: design.params.clone(),
        command: options.command.clone(),
        date: today(),
        seeds: (1..=options.seeds).collect(),
        tools: versions,
        wrapper_flip_flops: wrapped.flip_flops,
        results,
        cycles: options.cycles.clone(),
    })
}

/// The version of every tool the flow will run, by program. Every tool is asked first:
/// one that is missing stops the flow before anything long has run, and the report names
/// the versions used.
fn tool_versions(options: &Options, work: &Path) -> Result<BTreeMap<String, String>, SynthError> {
    let mut tools: Vec<Tool> = options
        .targets
        .iter()
        .flat_map(|t| [t.yosys(), t.nextpnr()])
        .collect();
    if options.languages.contains(&Language::Vhdl) {
        tools.push(GHDL);
    }
    tools.sort_by_key(|t| t.program);
    tools.dedup();
    let mut versions = BTreeMap::new();
    for tool in tools {
        versions.insert(tool.program.to_string(), tool.version(work)?);
    }
    Ok(versions)
}

/// The files yosys reads for each language, relative to `work`: the generated Verilog,
/// or the netlist GHDL makes of the VHDL, which this converts.
fn sources(
    options: &Options,
    manifest: &Manifest,
    work: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<BTreeMap<Hdl, Vec<String>>, SynthError> {
    let mut sources = BTreeMap::new();
    for &language in &options.languages {
        let files = match language {
            Language::Verilog => manifest
                .verilog
                .iter()
                .map(|f| format!("design/{f}"))
                .collect(),
            Language::Vhdl => {
                progress("converting the VHDL with ghdl --synth");
                vhdl_to_verilog(&work.join("design"), manifest, work)?;
                vec![format!("ghdl/{}", crate::synth::ghdl::NETLIST)]
            }
        };
        sources.insert(Hdl::from(language), files);
    }
    Ok(sources)
}

/// One target and one language, whose tools write to `<work>/<name>`.
struct Step<'a> {
    target: Target,
    language: Hdl,
    /// `<target>-<language>`.
    name: String,
    work: &'a Path,
    /// The unit's top module, when it has submodules whose cells are counted apart.
    blocks_of: Option<&'a str>,
}

impl Step<'_> {
    /// Synthesises `files` inside the wrapper, then places and routes the netlist once per
    /// seed.
    fn run(
        &self,
        files: &[String],
        wrapped: &Wrapper,
        seeds: u64,
        progress: &mut dyn FnMut(&str),
    ) -> Result<TargetResult, SynthError> {
        let out = self.work.join(&self.name);
        std::fs::create_dir_all(&out).map_err(|source| SynthError::Io {
            path: out.clone(),
            source,
        })?;
        let cells = self.synthesise_unit(files, wrapped, progress)?;
        let counts = self.target.count(&cells);
        let blocks = match self.blocks_of {
            Some(top) => self.synthesise_blocks(files, top, progress)?,
            None => Vec::new(),
        };
        let mut fmax = Vec::new();
        let mut paths = Vec::new();
        let mut seconds = Vec::new();
        let mut logic_cells = 0;
        let mut rerouted_seeds = Vec::new();
        for seed in 1..=seeds {
            let placed = self.place_and_route(seed, seeds, progress)?;
            if placed.rerouted {
                rerouted_seeds.push(seed);
            }
            fmax.push(placed.fmax);
            paths.push(placed.critical_path);
            seconds.push(placed.seconds);
            logic_cells = placed.logic_cells;
        }
        let median_seed = median_index(&fmax);
        Ok(TargetResult {
            target: self.target,
            language: self.language,
            luts: counts.luts,
            flip_flops: counts.flip_flops,
            carries: counts.carries,
            rams: counts.rams,
            cells,
            logic_cells,
            fmax_median: median(&fmax),
            fmax_min: fmax.iter().copied().fold(f64::INFINITY, f64::min),
            fmax_max: fmax.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            fmax_mhz: fmax,
            critical_path: paths.swap_remove(median_seed),
            place_route_seconds: seconds,
            rerouted_seeds,
            blocks,
        })
    }

    /// Runs yosys on `files` again with every module of `top` kept; its instance tree with
    /// each block's cells.
    fn synthesise_blocks(
        &self,
        files: &[String],
        top: &str,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Vec<Block>, SynthError> {
        let (step, target) = (&self.name, self.target);
        progress(&format!("{step}: yosys, blocks apart"));
        let netlist_file = format!("{step}/blocks.json");
        let script = render_template(
            "synth_blocks.ys.tera",
            BLOCKS_SCRIPT,
            &BlocksContext {
                top,
                language: self.language.name(),
                device: target.device(),
                sources: files.join(" "),
                synth: target.synth_command(),
                netlist: netlist_file.clone(),
            },
        )?;
        let out = self.work.join(step);
        write(&out.join("blocks.ys"), &script)?;
        target.yosys().run_ok(
            &["-s".into(), format!("{step}/blocks.ys")],
            self.work,
            &format!("{step}/blocks.log"),
        )?;
        let netlist: Netlist = read_json("yosys netlist", &self.work.join(&netlist_file))?;
        Ok(blocks(&netlist, top, target))
    }

    /// Runs yosys on `files` and the wrapper; the cells of the unit's own top module.
    fn synthesise_unit(
        &self,
        files: &[String],
        wrapped: &Wrapper,
        progress: &mut dyn FnMut(&str),
    ) -> Result<BTreeMap<String, u64>, SynthError> {
        let (step, target) = (&self.name, self.target);
        let out = self.work.join(step);
        progress(&format!("{step}: yosys {}", target.synth_command()));
        let script = render_template(
            "synth_yosys.ys.tera",
            SCRIPT,
            &ScriptContext {
                top: &wrapped.top,
                language: self.language.name(),
                device: target.device(),
                sources: files.join(" "),
                wrapper_file: "wrapper.v",
                wrapper: &wrapped.name,
                synth: target.synth_command(),
                stat: format!("{step}/stat.json"),
                netlist: format!("{step}/netlist.json"),
            },
        )?;
        write(&out.join("synth.ys"), &script)?;
        target.yosys().run_ok(
            &["-s".into(), format!("{step}/synth.ys")],
            self.work,
            &format!("{step}/yosys.log"),
        )?;
        let stat: Stat = read_json("yosys statistics", &out.join("stat.json"))?;
        stat.modules
            .get(&format!("\\{}", wrapped.top))
            .map(|m| m.num_cells_by_type.clone())
            .ok_or_else(|| SynthError::Output {
                what: "yosys statistics",
                path: out.join("stat.json"),
                message: format!("no module {}", wrapped.top),
            })
    }

    /// Runs nextpnr with placement seed `seed` (of `seeds`).
    fn place_and_route(
        &self,
        seed: u64,
        seeds: u64,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Placed, SynthError> {
        let (step, target) = (&self.name, self.target);
        progress(&format!(
            "{step}: {} seed {seed} of {seeds}",
            target.nextpnr().program
        ));
        let report = format!("{step}/report-seed{seed}.json");
        let mut args = target.device_args();
        args.extend([
            "--json".into(),
            format!("{step}/netlist.json"),
            "--seed".into(),
            seed.to_string(),
            "--report".into(),
            report.clone(),
        ]);
        let started = std::time::Instant::now();
        let tool = target.nextpnr();
        let log = format!("{step}/nextpnr-seed{seed}.log");
        let routed = pnr::place_and_route(&tool, &args, self.work, &log)?;
        tool.checked(routed.outcome)?;
        let seconds = started.elapsed().as_secs_f64();
        let report = self.work.join(&report);
        let placed: PnrReport = read_json("nextpnr report", &report)?;
        let achieved = placed
            .fmax
            .values()
            .map(|c| c.achieved)
            .min_by(f64::total_cmp)
            .ok_or_else(|| SynthError::NoClock {
                path: report.clone(),
            })?;
        let logic_cells = target
            .logic_cells()
            .iter()
            .filter_map(|c| placed.utilization.get(*c))
            .map(|u| u.used)
            .sum();
        Ok(Placed {
            fmax: achieved,
            logic_cells,
            critical_path: summarise(&placed.paths),
            seconds,
            rerouted: routed.rerouted,
        })
    }
}

/// What one placement achieved.
struct Placed {
    /// The slowest clock's maximum frequency, in MHz.
    fmax: f64,
    /// Logic cells placed, wrapper included.
    logic_cells: u64,
    critical_path: Option<CriticalPath>,
    /// nextpnr's wall-clock time.
    seconds: f64,
    /// router1 stalled, and router2 routed this seed.
    rerouted: bool,
}

/// The index of the median of `values` (the lower of the two middle ones for an even
/// count), so that the median run's critical path is the one reported.
fn median_index(values: &[f64]) -> usize {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    order[(values.len() - 1) / 2]
}
