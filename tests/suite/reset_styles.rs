//! `--reset`: the switch, the router and a network reset synchronously active low and
//! asynchronously active low, printed with the port and the register blocks each style
//! names, lint-clean, equal to their models in Verilator and GHDL, and the switch proved
//! equal in both languages; a self-timed design refuses any style but the default.

use crate::common;

use common::{CLOCKED_LINT, assert_lint_clean, kautzgen, write_both};
use kautzgen::rtl::ir::ResetStyle;
use kautzgen::rtl::network::router::{RouterParams, design as router_design};
use std::path::Path;

/// `generate switch --d 2 --reset <style>` into `dir`: the top's Verilog and VHDL.
fn switch_text(dir: &Path, style: &str) -> (String, String, String) {
    let out = dir.join(style);
    let (status, _, stderr) = kautzgen(&[
        "generate",
        "switch",
        "--d",
        "2",
        "--reset",
        style,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    let read = |file: &str| std::fs::read_to_string(out.join(file)).unwrap();
    (
        read("verilog/kautz_switch.v"),
        read("vhdl/kautz_switch.vhd"),
        read("manifest.json"),
    )
}

#[test]
fn each_style_names_its_port_and_prints_its_registers() {
    let dir = tempfile::tempdir().unwrap();
    let (verilog, vhdl, manifest) = switch_text(dir.path(), "sync-low");
    for line in [
        "    input  wire rst_n,                           // synchronous reset, active low",
        "    always @(posedge clk) begin\n        if (!rst_n) busy <= 3'd0;",
        "        .rst_n(rst_n),",
    ] {
        assert!(verilog.contains(line), "sync-low Verilog lacks {line:?}");
    }
    for line in [
        "        rst_n : in  std_logic;",
        "process (clk) is\n    begin\n        if rising_edge(clk) then\n            if rst_n = '0' then\n                busy <= \"000\";",
    ] {
        assert!(vhdl.contains(line), "sync-low VHDL lacks {line:?}");
    }
    assert!(manifest.contains("\"reset\":\"sync-low\""), "{manifest}");
    let (verilog, vhdl, manifest) = switch_text(dir.path(), "async-low");
    for line in [
        "    input  wire rst_n,                           // asynchronous reset, active low; release it in step with clk",
        "    always @(posedge clk or negedge rst_n) begin\n        if (!rst_n) busy <= 3'd0;\n        else busy <= ",
    ] {
        assert!(verilog.contains(line), "async-low Verilog lacks {line:?}");
    }
    assert!(!verilog.contains(" rst,") && !verilog.contains("(rst)"));
    let process = "process (clk, rst_n) is\n    begin\n        if rst_n = '0' then\n            busy <= \"000\";\n        elsif rising_edge(clk) then\n            busy <= ";
    assert!(vhdl.contains(process), "async-low VHDL lacks {process:?}");
    assert!(manifest.contains("\"reset\":\"async-low\""), "{manifest}");
    let (verilog, _, manifest) = switch_text(dir.path(), "sync-high");
    assert!(verilog.contains("    always @(posedge clk) begin\n        if (rst) busy <= 3'd0;"));
    assert!(!manifest.contains("reset"), "{manifest}");
}

#[test]
fn a_router_that_reads_its_reset_as_data_is_lint_clean_in_every_style() {
    let params = RouterParams::new(2, 3, 16, "kautz_router").unwrap();
    for style in [ResetStyle::SyncLow, ResetStyle::AsyncLow] {
        let dir = tempfile::tempdir().unwrap();
        let design = router_design(&params).with_reset(style).unwrap();
        write_both(dir.path(), &design, "reset_styles test");
        assert_lint_clean(dir.path(), &CLOCKED_LINT, &format!("router {style:?}"));
        let verilog = std::fs::read_to_string(dir.path().join("verilog/kautz_router.v")).unwrap();
        // Its buffer takes no byte while the reset is on, read through rst_on.
        assert!(
            verilog.contains("    assign rst_on = (~rst_n);"),
            "{verilog}"
        );
    }
}

/// `verify <unit> --reset <style>` in Verilator and GHDL: its report's last two lines.
fn verify(unit: &[&str], style: &str) -> Vec<String> {
    let mut args = vec!["verify"];
    args.extend(unit);
    args.extend(["--reset", style]);
    let (status, stdout, stderr) = kautzgen(&args);
    assert_eq!(status, 0, "{args:?}: {stdout}{stderr}");
    let lines: Vec<String> = stdout.lines().map(str::to_string).collect();
    lines[lines.len() - 2..].to_vec()
}

#[test]
fn the_switch_matches_its_model_in_both_active_low_styles() {
    for style in ["sync-low", "async-low"] {
        assert_eq!(
            verify(&["switch", "--d", "2", "--cycles", "60"], style),
            [
                "verilator: 240 passed, 0 failed",
                "ghdl: 240 passed, 0 failed"
            ],
            "{style}"
        );
    }
}

#[test]
fn the_router_matches_its_model_in_both_active_low_styles() {
    for style in ["sync-low", "async-low"] {
        assert_eq!(
            verify(
                &["router", "--d", "2", "--k", "2", "--cycles", "150"],
                style
            ),
            [
                "verilator: 150 passed, 0 failed",
                "ghdl: 150 passed, 0 failed"
            ],
            "{style}"
        );
    }
}

#[test]
fn a_network_matches_its_model_in_both_active_low_styles() {
    let unit = [
        "network", "--d", "2", "--k", "2", "--cycles", "120", "--rate", "0.05",
    ];
    for style in ["sync-low", "async-low"] {
        assert_eq!(
            verify(&unit, style),
            [
                "verilator: 39 passed, 0 failed",
                "ghdl: 39 passed, 0 failed"
            ],
            "{style}"
        );
    }
}

#[test]
fn the_asynchronous_switch_is_proved_equal_in_both_languages() {
    let proved = "PROVED: the Verilog and the VHDL of kautz_switch (d=2, data_bits=8) have equal outputs in every cycle after a reset in cycle 1";
    let (status, stdout, stderr) =
        kautzgen(&["prove", "switch", "--d", "2", "--reset", "async-low"]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with(proved), "{stdout}");
    // A directory's manifest names its reset, which the proof holds on at its level.
    let dir = tempfile::tempdir().unwrap();
    let (verilog, _, _) = switch_text(dir.path(), "sync-low");
    assert!(verilog.contains("rst_n"));
    let design = dir.path().join("sync-low");
    let (status, stdout, stderr) = kautzgen(&["prove", "--design", design.to_str().unwrap()]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with(proved), "{stdout}");
}

#[test]
fn a_self_timed_design_keeps_the_default_reset() {
    let (status, _, stderr) = kautzgen(&[
        "generate",
        "switch",
        "--d",
        "2",
        "--clocking",
        "self-timed",
        "--reset",
        "sync-low",
        "--out",
        "/nonexistent",
    ]);
    assert_eq!(status, 2);
    assert_eq!(
        stderr,
        "error: --reset sync-low applies to synchronous designs; kautz_switch is self-timed, reset by rst on the clocks it makes itself: leave --reset at sync-high\n"
    );
}

#[test]
fn a_design_directory_is_verified_with_the_reset_its_manifest_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("k23");
    let out = out.to_str().unwrap();
    let (status, _, stderr) = kautzgen(&[
        "generate",
        "--d",
        "2",
        "--k",
        "3",
        "--reset",
        "async-low",
        "--out",
        out,
    ]);
    assert_eq!(status, 0, "{stderr}");
    let (status, stdout, stderr) = kautzgen(&["verify", "--d", "2", "--k", "3", "--design", out]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("\nverilator: 138 passed, 0 failed\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("ghdl: 138 passed, 0 failed\n"), "{stdout}");
}
