//! The Muller C element end to end: a small self-timed design with two 3-input C
//! elements (one starting low, one high) is printed in both languages, lints clean in
//! Icarus Verilog and GHDL, and simulates in both as a hysteresis element: each holds its
//! initial value while its inputs are unknown or disagree, rises when all are 1, holds,
//! and falls when all are 0. The checks that assume a clock refuse the design in one
//! sentence.
//!
//! These tests need GHDL and Icarus Verilog (`make deps` installs them); without them they
//! fail with the install command, never skip.

use crate::common;

use common::{SELF_TIMED_LINT, assert_lint_clean, write_both};
use kautzgen::emit::names::Language;
use kautzgen::rtl::ir::{Design, Module, Timing};
use kautzgen::synth::equiv::{Setup, prove};
use kautzgen::synth::flow::{Options, synthesise};
use kautzgen::synth::target::Target;
use kautzgen::synth::tool::{GHDL, IVERILOG, Install, Tool};
use kautzgen::topology::kautz::Kautz;
use kautzgen::units::kautz::sequence::DesignDir;
use std::collections::BTreeMap;
use std::path::Path;

/// Icarus Verilog's simulator, from the same package as the compiler.
const VVP: Tool = Tool {
    program: "vvp",
    install: Install::Apt("iverilog"),
    version_flag: "-V",
};

/// `y0` and `y1`: C elements of the inputs `a`, `b` and `c`, starting at 0 and 1.
fn rendezvous() -> Design {
    let mut m = Module::new("rendezvous", &["two C elements of three inputs"]);
    let a = m.input("a", 1, "");
    let b = m.input("b", 1, "");
    let c = m.input("c", 1, "");
    let low = m.internal("low", 1, "starts at 0");
    let high = m.internal("high", 1, "starts at 1");
    let y0 = m.output("y0", 1, "");
    let y1 = m.output("y1", 1, "");
    let inputs = vec![a.into(), b.into(), c.into()];
    m.c_element(low, inputs.clone(), false, "");
    m.c_element(high, inputs, true, "");
    m.assign(y0, low.into(), "");
    m.assign(y1, high.into(), "");
    Design {
        modules: vec![m],
        params: BTreeMap::new(),
        summary: "C element test".into(),
        timing: Timing::SelfTimed,
    }
}

/// The inputs `abc` of each step (`None`: not yet driven) and the outputs `y0 y1` expected
/// after it: both hold their initial values, rise together, hold 1 while the inputs
/// disagree, fall together, hold 0, and go round once more.
const STEPS: [(Option<&str>, &str); 11] = [
    (None, "01"),
    (Some("010"), "01"),
    (Some("111"), "11"),
    (Some("011"), "11"),
    (Some("001"), "11"),
    (Some("000"), "00"),
    (Some("100"), "00"),
    (Some("110"), "00"),
    (Some("111"), "11"),
    (Some("101"), "11"),
    (Some("000"), "00"),
];

fn write(dir: &Path) {
    write_both(dir, &rendezvous(), "tests/c_element.rs");
}

/// Absolute paths of the design's files in `language`, in compile order.
fn sources(dir: &Path, language: Language) -> Vec<String> {
    let manifest = kautzgen::synth::lint::read_manifest(dir).unwrap();
    let files = match language {
        Language::Verilog => manifest.verilog,
        Language::Vhdl => manifest.vhdl,
    };
    files
        .iter()
        .map(|f| dir.join(f).to_string_lossy().into_owned())
        .collect()
}

/// Runs `tool` in `work`, failing the test with its install command when it is missing
/// and with its log when it fails; returns what it printed.
fn run(tool: &Tool, args: Vec<String>, work: &Path, log: &str) -> String {
    tool.run_ok(&args, work, log)
        .unwrap_or_else(|e| panic!("{e}"))
        .log
}

/// The outputs the testbench printed, one `y0 y1` pair per step.
fn outputs(log: &str) -> Vec<String> {
    log.lines()
        .filter_map(|line| line.strip_prefix("out "))
        .map(str::to_string)
        .collect()
}

fn expected() -> Vec<String> {
    STEPS.iter().map(|(_, out)| out.to_string()).collect()
}

fn verilog_testbench() -> String {
    let mut steps = String::new();
    for (inputs, _) in STEPS {
        if let Some(bits) = inputs {
            steps += &format!("        x = 3'b{bits};\n");
        }
        steps += "        #1 $display(\"out %b%b\", y0, y1);\n";
    }
    format!(
        "`default_nettype none
module tb;
    reg [2:0] x;
    wire y0, y1;
    rendezvous dut (.a(x[2]), .b(x[1]), .c(x[0]), .y0(y0), .y1(y1));
    initial begin
{steps}        $finish;
    end
endmodule
`default_nettype wire
"
    )
}

fn vhdl_testbench() -> String {
    let mut steps = String::new();
    for (inputs, _) in STEPS {
        if let Some(bits) = inputs {
            steps += &format!("        x <= \"{bits}\";\n");
        }
        steps += "        wait for 1 ns;\n        show;\n";
    }
    format!(
        "library ieee;
use ieee.std_logic_1164.all;
use std.textio.all;

entity tb is
end entity tb;

architecture sim of tb is
    signal x : std_logic_vector(2 downto 0);
    signal y0, y1 : std_logic;
begin
    dut : entity work.rendezvous
        port map (a => x(2), b => x(1), c => x(0), y0 => y0, y1 => y1);

    process
        variable l : line;
        procedure show is
        begin
            write(l, \"out \" & to_string(y0) & to_string(y1));
            writeline(output, l);
        end procedure show;
    begin
{steps}        wait;
    end process;
end architecture sim;
"
    )
}

#[test]
fn icarus_verilog_simulates_a_hysteresis_element() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path());
    let work = tempfile::tempdir().unwrap();
    let tb = work.path().join("tb.v");
    std::fs::write(&tb, verilog_testbench()).unwrap();
    let mut args: Vec<String> = ["-g2005", "-Wall", "-s", "tb", "-o", "sim.vvp"]
        .map(String::from)
        .into();
    args.extend(sources(dir.path(), Language::Verilog));
    args.push(tb.to_string_lossy().into_owned());
    let compiled = run(&IVERILOG, args, work.path(), "iverilog.log");
    assert_eq!(compiled, "", "iverilog warns");
    let printed = run(
        &VVP,
        vec!["-n".into(), "sim.vvp".into()],
        work.path(),
        "vvp.log",
    );
    assert_eq!(outputs(&printed), expected(), "{printed}");
}

#[test]
fn ghdl_simulates_a_hysteresis_element() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path());
    let work = tempfile::tempdir().unwrap();
    let tb = work.path().join("tb.vhd");
    std::fs::write(&tb, vhdl_testbench()).unwrap();
    let mut analyse: Vec<String> = vec!["-a".into(), "--std=08".into()];
    analyse.extend(sources(dir.path(), Language::Vhdl));
    analyse.push(tb.to_string_lossy().into_owned());
    let analysed = run(&GHDL, analyse, work.path(), "analyse.log");
    assert_eq!(analysed, "", "ghdl warns");
    let step = |step: &str| vec![step.to_string(), "--std=08".into(), "tb".into()];
    let elaborated = run(&GHDL, step("-e"), work.path(), "elaborate.log");
    assert_eq!(elaborated, "", "ghdl warns");
    let printed = run(&GHDL, step("-r"), work.path(), "run.log");
    assert_eq!(outputs(&printed), expected(), "{printed}");
}

#[test]
fn a_self_timed_design_lints_with_icarus_and_ghdl() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path());
    let manifest = std::fs::read_to_string(dir.path().join("manifest.json")).unwrap();
    assert!(
        manifest.starts_with("{\"top\":\"rendezvous\",\"timing\":\"self-timed\","),
        "{manifest}"
    );
    assert_lint_clean(dir.path(), &SELF_TIMED_LINT, "rendezvous");
}

#[test]
fn checks_that_assume_a_clock_refuse_a_self_timed_design() {
    let refusal = |check: &str| {
        format!(
            "{check} needs a synchronous design, and rendezvous is self-timed: its C elements are combinational loops by design, with no clock to analyse its timing against"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    write(dir.path());
    let work = tempfile::tempdir().unwrap();
    let proof = prove(dir.path(), &Setup::default(), work.path()).unwrap_err();
    assert_eq!(proof.to_string(), refusal("the equivalence proof"));
    let options = Options {
        targets: vec![Target::Ice40Hx8k],
        languages: vec![Language::Verilog, Language::Vhdl],
        seeds: 1,
        unit: "rendezvous".into(),
        command: "tests/c_element.rs".into(),
        cycles: None,
    };
    let synthesis = synthesise(&rendezvous(), &options, work.path(), &mut |_| {}).unwrap_err();
    assert_eq!(synthesis.to_string(), refusal("synthesis"));
    let verification = DesignDir::load(dir.path(), &Kautz::new(2, 2).unwrap()).unwrap_err();
    assert_eq!(
        verification.to_string(),
        refusal("verification against the golden model")
    );
    // Nothing ran: the refusals come before any tool.
    assert_eq!(std::fs::read_dir(work.path()).unwrap().count(), 0);
}
