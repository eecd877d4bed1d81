//! The `tb/` folder of a design directory: a self-checking testbench that travels with the
//! design, so that it can be checked without kautzgen (Icarus, Verilator, GHDL, FuseSoC),
//! and a cocotb test that reads the same vectors and judges them the same way.
//!
//! In: a [`Testbench`] (its sources and vectors, made by `sim::export` from a golden model)
//! and the manifest of the design's files. Out: `tb/<tb>.v`, `tb/<tb>.vhd` (each language the
//! design has), `tb/vectors.txt`, the cocotb test (`tb/cocotb_<style>.py`, its runner
//! `tb/cocotb_run.py`, copied from `testbenches/`, and `tb/cocotb.json`, the context each
//! language's HDL testbench was rendered from), `tb/README.md`, and the manifest's
//! `testbench` entry with the command that runs each in each simulator. Every command runs
//! in `DIR/tb`, where the testbench finds `vectors.txt`. The README is rendered from
//! `templates/testbench_readme.md.tera`.

use crate::emit::GeneratedFile;
use crate::emit::manifest::{Manifest, TestbenchEntry};
use serde::Serialize;
use std::collections::BTreeMap;

/// GHDL's run options: numeric_std warns about the metavalues a design holds until its
/// reset, which are expected and, being outputs, compared anyway; an assertion of severity
/// error (a malformed line of `vectors.txt`) ends the run as a failure.
pub const GHDL_RUN: &str = "--ieee-asserts=disable --assert-level=error";

/// The folder of the testbench, relative to the design directory.
pub const FOLDER: &str = "tb";

/// A testbench in one language: its top's name, its text, and the context its template
/// was rendered with, which the cocotb test reads in place of the template's constants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TbSource {
    pub top: String,
    pub text: String,
    pub context: serde_json::Value,
}

/// The cocotb test of a testbench style: one generic Python file per style, in
/// `testbenches/`, which reads its ports and constants from `tb/cocotb.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CocotbTest {
    /// A function unit vector by vector, a stream unit cycle by cycle (`function.*.tera`).
    Rows,
    /// A unit that hands out a sequence of items per start (`sequence.*.tera`).
    Sequence,
}

impl CocotbTest {
    /// The test's Python module, and so its file name without `.py`.
    fn module(self) -> &'static str {
        match self {
            CocotbTest::Rows => "cocotb_rows",
            CocotbTest::Sequence => "cocotb_sequence",
        }
    }

    fn source(self) -> &'static str {
        match self {
            CocotbTest::Rows => include_str!("../../testbenches/cocotb_rows.py"),
            CocotbTest::Sequence => include_str!("../../testbenches/cocotb_sequence.py"),
        }
    }
}

/// The script that builds the design and runs its cocotb test in one simulator.
const COCOTB_RUN: &str = include_str!("../../testbenches/cocotb_run.py");

/// The simulators the cocotb runner takes, each with the language of the top it runs.
const COCOTB_SIMULATORS: [(&str, &str); 3] = [
    ("icarus", "verilog"),
    ("verilator", "verilog"),
    ("ghdl", "vhdl"),
];

/// A self-checking testbench of a design and the vectors it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Testbench {
    /// What it checks, one line: "route generator of K(2,3): 20 sampled pairs (seed 1) and
    /// 12 invalid words".
    pub describe: String,
    pub verilog: Option<TbSource>,
    pub vhdl: Option<TbSource>,
    /// `vectors.txt`: inputs and expected outputs, one line per vector or cycle.
    pub vectors: String,
    /// How many vectors or cycles it judges, and their noun ("vector", "cycle"): a correct
    /// design prints `<checks> passed, 0 failed`.
    pub checks: u64,
    pub noun: String,
    /// How many failures it prints in full.
    pub shown: usize,
    /// What one line of `vectors.txt` holds, for the README.
    pub format: String,
    /// The cocotb test that judges `vectors.txt` as the HDL testbench does.
    pub cocotb: CocotbTest,
}

/// The files of `tb/` and the manifest's entry for them, given the design's file lists.
pub fn files(testbench: &Testbench, manifest: &Manifest) -> (Vec<GeneratedFile>, TestbenchEntry) {
    let mut files = Vec::new();
    let mut entry = TestbenchEntry {
        top: BTreeMap::new(),
        files: Vec::new(),
        checks: testbench.checks,
        run: BTreeMap::new(),
    };
    let up = |list: &[String]| -> String {
        list.iter()
            .map(|f| format!("../{f}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if let Some(source) = testbench
        .verilog
        .as_ref()
        .filter(|_| !manifest.verilog.is_empty())
    {
        let (top, design) = (&source.top, up(&manifest.verilog));
        files.push(file(&format!("{top}.v"), &source.text));
        entry.top.insert("verilog".into(), top.clone());
        entry.run.insert(
            "icarus".into(),
            format!("iverilog -g2005 -s {top} -o {top}.vvp {design} {top}.v && vvp -n {top}.vvp"),
        );
        entry.run.insert(
            "verilator".into(),
            format!(
                "verilator --binary --top-module {top} -o {top} {design} {top}.v && obj_dir/{top}"
            ),
        );
    }
    if let Some(source) = testbench
        .vhdl
        .as_ref()
        .filter(|_| !manifest.vhdl.is_empty())
    {
        let (top, design) = (&source.top, up(&manifest.vhdl));
        files.push(file(&format!("{top}.vhd"), &source.text));
        entry.top.insert("vhdl".into(), top.clone());
        entry.run.insert(
            "ghdl".into(),
            format!(
                "ghdl -a --std=08 {design} {top}.vhd && ghdl -e --std=08 {top} && ghdl -r --std=08 {top} {GHDL_RUN}"
            ),
        );
    }
    files.push(file("vectors.txt", &testbench.vectors));
    files.extend(cocotb_files(testbench, &mut entry));
    entry.files = files.iter().map(|f| f.path.clone()).collect();
    files.push(file("README.md", &readme(testbench, manifest, &entry)));
    (files, entry)
}

/// The cocotb test's files, its configuration and its runner, and the runner's command
/// for each simulator of a language the testbench has, put into `entry` as
/// `cocotb-<simulator>`.
fn cocotb_files(testbench: &Testbench, entry: &mut TestbenchEntry) -> Vec<GeneratedFile> {
    let test = testbench.cocotb;
    let mut config = serde_json::Map::new();
    config.insert("test".into(), test.module().into());
    for (language, source) in [("verilog", &testbench.verilog), ("vhdl", &testbench.vhdl)] {
        if let Some(source) = source.as_ref().filter(|_| entry.top.contains_key(language)) {
            config.insert(language.into(), source.context.clone());
        }
    }
    for (simulator, language) in COCOTB_SIMULATORS {
        if entry.top.contains_key(language) {
            entry.run.insert(
                format!("{COCOTB_PREFIX}{simulator}"),
                format!("python3 cocotb_run.py {simulator}"),
            );
        }
    }
    let mut json = serde_json::to_string_pretty(&config).expect("JSON values serialise");
    json.push('\n');
    vec![
        file("cocotb.json", &json),
        file(&format!("{}.py", test.module()), test.source()),
        file("cocotb_run.py", COCOTB_RUN),
    ]
}

fn file(name: &str, text: &str) -> GeneratedFile {
    GeneratedFile {
        path: format!("{FOLDER}/{name}"),
        text: text.to_string(),
    }
}

const README: &str = include_str!("../../templates/testbench_readme.md.tera");

#[derive(Serialize)]
struct ReadmeContext<'a> {
    top: &'a str,
    describe: &'a str,
    checks: u64,
    shown: usize,
    noun: &'a str,
    format: &'a str,
    /// (simulator, command) of the HDL testbench and of the cocotb test, and (language,
    /// top), in name order: tera iterates maps in no fixed order.
    run: Vec<Entry<'a>>,
    cocotb: Vec<Entry<'a>>,
    cocotb_test: &'static str,
    tops: Vec<Entry<'a>>,
    core: String,
    vlnv: String,
}

/// One entry of a map, for the README's template.
#[derive(Serialize)]
struct Entry<'a> {
    key: &'a str,
    value: &'a str,
}

fn pairs(map: &BTreeMap<String, String>) -> Vec<Entry<'_>> {
    map.iter()
        .map(|(key, value)| Entry { key, value })
        .collect()
}

/// What a cocotb command's name in the manifest's `run` has before its simulator's.
const COCOTB_PREFIX: &str = "cocotb-";

fn readme(testbench: &Testbench, manifest: &Manifest, entry: &TestbenchEntry) -> String {
    let context = ReadmeContext {
        top: &manifest.top,
        describe: &testbench.describe,
        checks: testbench.checks,
        shown: testbench.shown,
        noun: &testbench.noun,
        format: &testbench.format,
        run: pairs(&entry.run)
            .into_iter()
            .filter(|e| !e.key.starts_with(COCOTB_PREFIX))
            .collect(),
        cocotb: pairs(&entry.run)
            .into_iter()
            .filter_map(|e| {
                let key = e.key.strip_prefix(COCOTB_PREFIX)?;
                Some(Entry { key, ..e })
            })
            .collect(),
        cocotb_test: testbench.cocotb.module(),
        tops: pairs(&entry.top),
        core: format!("{}.core", manifest.top),
        vlnv: manifest.vlnv(),
    };
    let mut tera = tera::Tera::new();
    tera.autoescape_on(Vec::<&str>::new());
    tera.add_raw_template("testbench_readme.md.tera", README)
        .and_then(|()| {
            tera.render(
                "testbench_readme.md.tera",
                &tera::Context::from_serialize(&context)?,
            )
        })
        .expect("the testbench README template is compiled in and renders every testbench")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rtl::ir::Timing;

    #[test]
    fn the_cocotb_test_runs_in_the_simulators_of_the_languages_written() {
        // A testbench in both languages of a design written in VHDL alone: the cocotb test
        // gets GHDL's command and the VHDL context only.
        let source = |context: serde_json::Value| TbSource {
            top: "tb_x".into(),
            text: String::new(),
            context,
        };
        let testbench = Testbench {
            describe: "x".into(),
            verilog: Some(source(serde_json::json!({"language": "verilog"}))),
            vhdl: Some(source(serde_json::json!({"language": "vhdl"}))),
            vectors: "0 1\n".into(),
            checks: 1,
            noun: "vector".into(),
            shown: 10,
            format: String::new(),
            cocotb: CocotbTest::Rows,
        };
        let manifest = Manifest {
            top: "x".into(),
            timing: Timing::Synchronous,
            reset: Default::default(),
            params: BTreeMap::new(),
            verilog: Vec::new(),
            vhdl: vec!["vhdl/x.vhd".into()],
            testbench: None,
        };
        let (files, entry) = super::files(&testbench, &manifest);
        assert_eq!(
            entry.run.keys().collect::<Vec<_>>(),
            ["cocotb-ghdl", "ghdl"]
        );
        assert_eq!(entry.run["cocotb-ghdl"], "python3 cocotb_run.py ghdl");
        assert_eq!(
            entry.files,
            [
                "tb/tb_x.vhd",
                "tb/vectors.txt",
                "tb/cocotb.json",
                "tb/cocotb_rows.py",
                "tb/cocotb_run.py"
            ]
        );
        let config = files.iter().find(|f| f.path == "tb/cocotb.json").unwrap();
        assert_eq!(
            config.text,
            "{\n  \"test\": \"cocotb_rows\",\n  \"vhdl\": {\n    \"language\": \"vhdl\"\n  }\n}\n"
        );
    }
}
