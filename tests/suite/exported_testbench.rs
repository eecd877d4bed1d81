//! `kautzgen generate --testbench`: the self-checking testbench written into DIR/tb runs
//! without kautzgen, by the exact commands its manifest gives, in Icarus Verilog,
//! Verilator and GHDL, and through FuseSoC's `sim` target with Icarus and GHDL; it passes
//! every vector or cycle of a correct design, and fails with a non-zero exit status and the
//! mismatch `kautzgen verify` reports on a design built with a fault. One instance of every
//! unit. A missing simulator fails the test with the command that installs it.

use crate::common;

use common::kautzgen;
use kautzgen::synth::tool::{FUSESOC, GHDL, IVERILOG, Tool, VERILATOR};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every simulator the manifest names a command for.
const SIMULATORS: [(&str, Tool); 3] = [
    ("icarus", IVERILOG),
    ("verilator", VERILATOR),
    ("ghdl", GHDL),
];

/// `kautzgen generate <args> --testbench --out <scratch>/<name>`; the directory.
pub(crate) fn generate(scratch: &Path, name: &str, args: &[&str]) -> PathBuf {
    let dir = scratch.join(name);
    let mut all: Vec<&str> = vec!["generate"];
    all.extend(args);
    all.extend(["--testbench", "--out", dir.to_str().unwrap()]);
    let (status, _, stderr) = kautzgen(&all);
    assert_eq!(status, 0, "kautzgen {all:?}: {stderr}");
    dir
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

/// The vectors or cycles the testbench judges, as the manifest says.
fn checks(dir: &Path) -> u64 {
    manifest(dir)["testbench"]["checks"].as_u64().unwrap()
}

/// Runs the manifest's command for `sim` with `sh` in DIR/tb: exit status and output.
pub(crate) fn run(dir: &Path, sim: &str) -> (i32, String) {
    let tool = SIMULATORS.iter().find(|(name, _)| *name == sim).unwrap().1;
    if let Err(missing) = tool.run(&[tool.version_flag.to_string()], dir, "version.log") {
        panic!("{missing}");
    }
    let command = manifest(dir)["testbench"]["run"][sim]
        .as_str()
        .unwrap_or_else(|| panic!("the manifest has no {sim} command"))
        .to_string();
    // The command as the README gives it; Verilator's make compiles the design as one C++
    // file, as kautzgen's own runner does, which takes a quarter of the time, keeping what
    // `make test` asks of it (the variables mean nothing to the other simulators).
    let makeflags = std::env::var("MAKEFLAGS").unwrap_or_default() + " VM_PARALLEL_BUILDS=0";
    let output = Command::new("sh")
        .args(["-c", &command])
        .env("MAKEFLAGS", makeflags.trim_start())
        .current_dir(dir.join("tb"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.code().unwrap_or(-1), text)
}

/// `fusesoc run --target sim --tool <tool>` on the design's core: success and log.
fn fusesoc(dir: &Path, tool: &str) -> (bool, String) {
    let core = manifest(dir)["top"].as_str().unwrap().to_string();
    let text = std::fs::read_to_string(dir.join(format!("{core}.core"))).unwrap();
    let vlnv = text
        .lines()
        .find_map(|l| l.strip_prefix("name: "))
        .unwrap()
        .to_string();
    let args: Vec<String> = [
        "--cores-root",
        dir.to_str().unwrap(),
        "run",
        "--build-root",
        dir.join(format!("build-{tool}")).to_str().unwrap(),
        "--target",
        "sim",
        "--tool",
        tool,
        &vlnv,
    ]
    .map(str::to_string)
    .to_vec();
    // Run from the crate's directory, where `.venv` is; the log goes beside the design.
    let log = dir.join(format!("fusesoc-{tool}.log"));
    let outcome = FUSESOC
        .run(
            &args,
            Path::new(env!("CARGO_MANIFEST_DIR")),
            log.to_str().unwrap(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    (outcome.success, outcome.log)
}

/// The line a passing run ends its report with.
fn all_passed(count: u64) -> String {
    format!("{count} passed, 0 failed")
}

/// `kautzgen generate <args> --testbench` in a scratch directory of its own, whose manifest
/// counts `count` checks (or any, when `None`): the scratch directory, the design and its
/// count. Each check of a design generates its own, so that the checks run side by side.
fn design(args: &[&str], count: Option<u64>) -> (tempfile::TempDir, PathBuf, u64) {
    let scratch = tempfile::tempdir().unwrap();
    let dir = generate(scratch.path(), "design", args);
    let count = count.unwrap_or_else(|| checks(&dir));
    assert_eq!(checks(&dir), count, "the manifest's count");
    (scratch, dir, count)
}

/// The design passes in `sim` by the manifest's command, printing `<count> passed, 0 failed`.
fn passes_by_hand(args: &[&str], count: Option<u64>, sim: &str) {
    let (_scratch, dir, count) = design(args, count);
    let (status, text) = run(&dir, sim);
    assert_eq!(status, 0, "{sim}:\n{text}");
    assert!(
        text.lines().any(|l| l == all_passed(count)),
        "{sim} does not print '{}':\n{text}",
        all_passed(count)
    );
}

/// The design passes in FuseSoC's `sim` target with `tool`, printing
/// `<count> passed, 0 failed`.
fn passes_in_fusesoc(args: &[&str], count: Option<u64>, tool: &str) {
    let (_scratch, dir, count) = design(args, count);
    let (success, log) = fusesoc(&dir, tool);
    assert!(success, "fusesoc {tool}:\n{log}");
    assert!(log.contains(&all_passed(count)), "fusesoc {tool}:\n{log}");
}

/// A module of tests for the unit that `generate <args>` writes, with `count` checks (or the
/// manifest's, when `None`): the design passes in every simulator by hand and in FuseSoC
/// with Icarus and GHDL, one test each.
macro_rules! passes_everywhere {
    ($unit:ident, $args:expr, $count:expr) => {
        mod $unit {
            use super::*;

            const ARGS: &[&str] = $args;

            #[test]
            fn passes_in_icarus() {
                passes_by_hand(ARGS, $count, "icarus");
            }

            #[test]
            fn passes_in_verilator() {
                passes_by_hand(ARGS, $count, "verilator");
            }

            #[test]
            fn passes_in_ghdl() {
                passes_by_hand(ARGS, $count, "ghdl");
            }

            #[test]
            fn passes_in_fusesoc_with_icarus() {
                passes_in_fusesoc(ARGS, $count, "icarus");
            }

            #[test]
            fn passes_in_fusesoc_with_ghdl() {
                passes_in_fusesoc(ARGS, $count, "ghdl");
            }
        }
    };
}

/// The failure lines of a report: every line before its `N passed, M failed`, without
/// the simulator's name that `verify` puts in front, and the summary itself.
pub(crate) fn failures(text: &str, prefix: &str) -> (Vec<String>, String) {
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.strip_prefix(prefix).unwrap_or(l).to_string())
        .collect();
    let end = lines
        .iter()
        .position(|l| l.ends_with(" failed") && l.contains(" passed, "))
        .unwrap_or_else(|| panic!("no summary line in:\n{text}"));
    let start = lines[..end]
        .iter()
        .position(|l| l.starts_with("vector ") || l.starts_with("after cycle "))
        .unwrap_or(end);
    (lines[start..end].to_vec(), lines[end].clone())
}

// K(2,3) has 3 * 2^2 = 12 nodes: 12 * 11 = 132 ordered pairs, then the 6 invalid words of
// docs/verification.md (a letter above d and equal neighbours in src and in dst, and
// src = dst twice).
passes_everywhere!(
    route_generator,
    &["--d", "2", "--k", "3", "--pairs", "all"],
    Some(138)
);

#[test]
fn the_route_generator_catches_a_fault_as_verify_does() {
    let scratch = tempfile::tempdir().unwrap();
    // Phase B skipped: the exported testbench fails the vectors verify fails, in both
    // languages, with the same failure in each.
    let bad = generate(
        scratch.path(),
        "k23-bad",
        &[
            "--d",
            "2",
            "--k",
            "3",
            "--pairs",
            "all",
            "--fault",
            "phase-b-skipped",
        ],
    );
    let (_, verify, _) = kautzgen(&[
        "verify",
        "--d",
        "2",
        "--k",
        "3",
        "--pairs",
        "all",
        "--fault",
        "phase-b-skipped",
        "--sim",
        "ghdl",
    ]);
    let verdict = verify
        .lines()
        .filter_map(|l| l.strip_prefix("ghdl: "))
        .find(|l| l.contains(" passed, "))
        .map(str::to_string);
    let (icarus_status, icarus) = run(&bad, "icarus");
    let (ghdl_status, ghdl) = run(&bad, "ghdl");
    assert_ne!(icarus_status, 0, "{icarus}");
    assert_ne!(ghdl_status, 0, "{ghdl}");
    let (icarus_failures, icarus_summary) = failures(&icarus, "");
    let (ghdl_failures, ghdl_summary) = failures(&ghdl, "");
    assert_eq!(
        Some(icarus_summary.clone()),
        verdict,
        "verify said:\n{verify}"
    );
    assert_eq!(ghdl_summary, icarus_summary);
    assert_eq!(ghdl_failures, icarus_failures);
    // Vector 0 is 010 -> 012 (the first pair in lexicographic order). Its routes, by hand:
    // phase A overlaps the last 0 of 010 with the first of 012 and shifts in 1, 2 ([12]);
    // phase B leaves by out-letter 2: 102, 020, 201, 012 ([2012]). Without phase B the
    // second route is phase C's, one letter longer: 2, 2, 0, 1, 2.
    assert!(
        icarus_failures[0].starts_with("vector 0: src=010 dst=012"),
        "{icarus}"
    );
    assert_eq!(icarus_failures[1], "  expected: [12] [2012] done");
    assert_eq!(icarus_failures[3], "  - item 2 is [22012], expected [2012]");
}

pub(crate) const PIPELINED: &[&str] = &[
    "--d",
    "2",
    "--k",
    "3",
    "--arch",
    "pipelined",
    "--pairs",
    "all",
];
passes_everywhere!(pipelined_engine, PIPELINED, None);

#[test]
fn the_pipelined_engine_fails_as_verify_does_cycle_for_cycle() {
    fails_as_verify_does("pipe", PIPELINED, "used-bit-never-set");
}

// Z2xZ2xZ2: 8 nodes, 8 * 8 = 64 pairs (A = B among them); 1-bit digits of radix 2 leave no
// digit out of range.
pub(crate) const MRNS: &[&str] = &["mrns", "--radices", "2,2,2", "--pairs", "all"];
passes_everywhere!(mrns_path_generator, MRNS, Some(64));

#[test]
fn the_mrns_path_generator_prints_the_failures_verify_prints() {
    // The failures read word for word as verify's: the inputs as addresses, the paths as
    // moves.
    fails_as_verify_does("mrns", MRNS, "rows-frozen-while-shortest");
}

pub(crate) const SWITCH: &[&str] = &["switch", "--d", "2", "--cycles", "300"];
passes_everywhere!(switch, SWITCH, None);

#[test]
fn the_switch_fails_with_verify_s_lines() {
    fails_as_verify_does("switch", SWITCH, "nack-not-returned");
}

pub(crate) const ROUTER: &[&str] = &["router", "--d", "2", "--k", "3", "--cycles", "300"];
passes_everywhere!(router, ROUTER, None);

#[test]
fn the_router_fails_with_verify_s_lines() {
    fails_as_verify_does("router", ROUTER, "padding-forgotten");
}

pub(crate) const NETWORK: &[&str] = &[
    "network", "--d", "2", "--k", "3", "--cycles", "300", "--rate", "0.02",
];
passes_everywhere!(network, NETWORK, None);

#[test]
fn the_network_fails_with_a_swapped_link() {
    let scratch = tempfile::tempdir().unwrap();
    let with_fault = [NETWORK, &["--fault", "links-swapped"]].concat();
    let bad = generate(scratch.path(), "net-bad", &with_fault);
    let (status, text) = run(&bad, "icarus");
    assert_ne!(status, 0, "{text}");
    let (lines, summary) = failures(&text, "");
    assert!(
        !lines.is_empty() && !summary.ends_with(" 0 failed"),
        "{text}"
    );
    let (_, verify, _) = kautzgen(&{
        let mut v = vec!["verify"];
        v.extend(&with_fault);
        v.extend(["--sim", "verilator"]);
        v
    });
    assert!(
        verify.contains("verilator: ") && !verify.contains(" 0 failed"),
        "{verify}"
    );
}

/// A failure line of verify without what verify adds about the cycle: for the pipelined
/// engine it names the set the cycle shows ("after cycle 9, vector 3 (src 010 dst 101):
/// ..."), the exported testbench the cycle alone; no other unit's lines hold such a note.
fn without_note(line: &str) -> String {
    match (line.find(", vector "), line.find("): ")) {
        (Some(a), Some(b)) => format!("{}{}", &line[..a], &line[b + 1..]),
        _ => line.to_string(),
    }
}

/// Generates `args --fault <fault>`: the design fails in Icarus and GHDL with a non-zero
/// exit status and exactly the failure lines `kautzgen verify` prints.
fn fails_as_verify_does(name: &str, args: &[&str], fault: &str) {
    let scratch = tempfile::tempdir().unwrap();
    let mut with_fault = args.to_vec();
    with_fault.extend(["--fault", fault]);
    let bad = generate(scratch.path(), &format!("{name}-bad"), &with_fault);
    let mut verify_args = vec!["verify"];
    verify_args.extend(&with_fault);
    verify_args.extend(["--sim", "ghdl"]);
    let (_, verify, _) = kautzgen(&verify_args);
    let (lines, verify_summary) = failures(&verify, "ghdl: ");
    let expected: Vec<String> = lines.iter().map(|l| without_note(l)).collect();
    assert!(!verify_summary.ends_with(" 0 failed"), "{verify}");
    for sim in ["icarus", "ghdl"] {
        let (status, text) = run(&bad, sim);
        assert_ne!(status, 0, "{sim}: {text}");
        let (lines, summary) = failures(&text, "");
        assert_eq!(summary, verify_summary, "{sim}");
        assert_eq!(lines, expected, "{sim}");
    }
}

// LDI(18,3), Theorem 3: every node, destination and header of the diameter
// h = ceil(log3 18) = 3: 18 * 18 * 3 = 972 vectors.
pub(crate) const LDI: &[&str] = &["ldi", "--m", "18", "--s", "3"];
passes_everywhere!(ldi_unit, LDI, Some(972));

#[test]
fn the_ldi_unit_fails_with_reversed_digits_as_verify_does() {
    fails_as_verify_does("ldi", LDI, "digits-reversed");
}

pub(crate) const TORUS: &[&str] = &[
    "torus",
    "--k",
    "3",
    "--n",
    "2",
    "--algo",
    "e-cube",
    "--vectors",
    "walks",
];
passes_everywhere!(torus_unit, TORUS, None);

#[test]
fn the_torus_unit_fails_with_a_swapped_mask_as_verify_does() {
    fails_as_verify_does("torus", TORUS, "mask-directions-swapped");
}

#[test]
fn the_same_command_writes_the_same_bytes() {
    let scratch = tempfile::tempdir().unwrap();
    let args = ["--d", "2", "--k", "3", "--pairs", "30", "--seed", "4"];
    let a = generate(scratch.path(), "a", &args);
    let b = generate(scratch.path(), "b", &args);
    for file in [
        "tb/vectors.txt",
        "tb/tb_kautz_route_gen.v",
        "tb/tb_kautz_route_gen.vhd",
        "tb/README.md",
        "tb/cocotb.json",
        "tb/cocotb_sequence.py",
        "tb/cocotb_run.py",
        "manifest.json",
        "kautz_route_gen.core",
    ] {
        let (a, b) = (
            std::fs::read_to_string(a.join(file)).unwrap(),
            std::fs::read_to_string(b.join(file)).unwrap(),
        );
        assert!(a == b, "{file} differs:\n{a}\n---\n{b}");
    }
}

#[test]
fn bad_testbench_requests_are_one_line_and_exit_status_2() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("x");
    let out = out.to_str().unwrap();
    for (args, message) in [
        (
            vec![
                "generate", "--d", "2", "--k", "3", "--pairs", "20", "--out", out,
            ],
            "--pairs chooses what the testbench checks: add --testbench",
        ),
        (
            vec![
                "generate",
                "switch",
                "--d",
                "2",
                "--clocking",
                "self-timed",
                "--testbench",
                "--out",
                out,
            ],
            "the self-timed switch is checked as a ring of three with wire delays (kautzgen verify switch --clocking self-timed), which has no exported testbench: export the synchronous switch",
        ),
        (
            vec![
                "generate",
                "ldi",
                "--m",
                "18",
                "--s",
                "3",
                "--testbench",
                "--fault",
                "flipped-comparator",
                "--out",
                out,
            ],
            "--fault 'flipped-comparator': the LDI unit's faults are digits-reversed",
        ),
    ] {
        let (status, _, stderr) = kautzgen(&args);
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end(), format!("error: {message}"), "{args:?}");
        assert!(!Path::new(out).exists(), "{args:?} wrote {out}");
    }
}
