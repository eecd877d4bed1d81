//! The pipelined route engine (`--arch pipelined`, `kautz_route_pipe`): its ports and
//! manifest latency, lint-clean on the graphs it is checked on, its Verilog proved equal to
//! its VHDL.
//!
//! These tests need Verilator, GHDL and yosys (`make deps`); without them they fail.

use kautzgen::emit::names::Language;
use kautzgen::emit::{Provenance, write_design};
use kautzgen::rtl::ir::Design;
use kautzgen::rtl::kautz_route_gen::{Arch, RouteGenParams, design};
use kautzgen::synth::lint::lint;
use std::path::Path;
use std::process::Command;

fn pipelined(d: u64, k: u64) -> Design {
    let params = RouteGenParams::new(d, k, "kautz_route_pipe").unwrap();
    design(&params.with_arch(Arch::Pipelined))
}

fn write(design: &Design, dir: &Path) {
    let provenance = Provenance {
        command: "tests/arch_pipelined.rs".into(),
    };
    write_design(
        dir,
        design,
        &[Language::Verilog, Language::Vhdl],
        &provenance,
    )
    .unwrap();
}

#[test]
fn ports_and_latency_are_as_specified() {
    let design = pipelined(4, 5);
    assert_eq!(design.params["latency"], 6);
    let top = design.top();
    assert_eq!(top.name, "kautz_route_pipe");
    let ports: Vec<(String, u32)> = top
        .ports()
        .map(|(_, p)| (p.name.clone(), p.width))
        .collect();
    let expected = [
        ("clk", 1),
        ("rst", 1),
        ("in_valid", 1),
        ("in_ready", 1),
        ("src", 15),
        ("dst", 15),
        ("out_valid", 1),
        ("out_ready", 1),
        ("out_routes", 4 * 7 * 3),
        ("out_lens", 4 * 3),
        ("out_error", 1),
    ];
    let expected: Vec<(String, u32)> = expected.iter().map(|&(n, w)| (n.to_string(), w)).collect();
    assert_eq!(ports, expected);
}

#[test]
fn generate_names_the_engine_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("k23");
    let run = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args([
            "generate",
            "--d",
            "2",
            "--k",
            "3",
            "--arch",
            "pipelined",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(
        manifest.starts_with("{\"top\":\"kautz_route_pipe\",\"d\":2,\"k\":3,\"latency\":4,"),
        "{manifest}"
    );
}

#[test]
fn lint_is_clean() {
    for (d, k) in [(1, 1), (1, 2), (2, 3), (3, 3), (2, 4), (4, 5), (8, 4)] {
        let dir = tempfile::tempdir().unwrap();
        write(&pipelined(d, k), dir.path());
        let verdicts = lint(dir.path()).unwrap_or_else(|e| panic!("K({d},{k}): {e}"));
        assert_eq!(verdicts.len(), 4);
        for v in verdicts {
            assert!(v.clean, "K({d},{k}) {}:\n{}", v.check, v.log);
        }
    }
}

#[test]
fn verilog_and_vhdl_are_proved_equal() {
    use kautzgen::synth::equiv::{Setup, Verdict, prove};
    for (d, k) in [(1, 2), (2, 3), (3, 3)] {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("design");
        write(&pipelined(d, k), &dir);
        let work = scratch.path().join("work");
        std::fs::create_dir_all(&work).unwrap();
        match prove(&dir, &Setup::default(), &work).unwrap() {
            Verdict::Proved {
                matched_bits,
                register_bits,
                ..
            } => assert_eq!(matched_bits, register_bits, "K({d},{k})"),
            other => panic!("K({d},{k}): {}", other.render("pipelined")),
        }
    }
}
