//! The `tb/` folder of a design directory: a self-checking testbench that travels with the
//! design, so that it can be checked without kautzgen (Icarus, Verilator, GHDL, FuseSoC).
//!
//! In: a [`Testbench`] (its sources and vectors, made by `sim::export` from a golden model)
//! and the manifest of the design's files. Out: `tb/<tb>.v`, `tb/<tb>.vhd` (each language the
//! design has), `tb/vectors.txt`, `tb/README.md`, and the manifest's `testbench` entry with
//! the command that runs it in each simulator. Every command runs in `DIR/tb`, where the
//! testbench finds `vectors.txt`. The README is rendered from
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

/// A testbench in one language: its top's name and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TbSource {
    pub top: String,
    pub text: String,
}

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
    entry.files = files.iter().map(|f| f.path.clone()).collect();
    files.push(file("README.md", &readme(testbench, manifest, &entry)));
    (files, entry)
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
    /// (simulator, command) and (language, top), in name order: tera iterates maps in no
    /// fixed order.
    run: Vec<Entry<'a>>,
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

fn readme(testbench: &Testbench, manifest: &Manifest, entry: &TestbenchEntry) -> String {
    let context = ReadmeContext {
        top: &manifest.top,
        describe: &testbench.describe,
        checks: testbench.checks,
        shown: testbench.shown,
        noun: &testbench.noun,
        format: &testbench.format,
        run: pairs(&entry.run),
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
