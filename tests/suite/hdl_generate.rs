//! Generated route generators: the port contract, lint-clean output in Verilator, GHDL and
//! yosys for sizes at the edges, byte-identical output, and whole-directory replacement.
//! A missing tool fails these tests with its install command.

use crate::common;

use common::{CLOCKED_LINT, assert_lint_clean, write_both};
use kautzgen::rtl::ir::{Direction, SignalKind};
use kautzgen::rtl::kautz_route::{RouteGenParams, design};
use kautzgen::synth::lint::lint;
use std::path::Path;
use std::process::Command;

fn generate(d: u64, k: u64, dir: &Path) {
    let params = RouteGenParams::new(d, k, "kautz_route_gen").unwrap();
    write_both(dir, &design(&params), format!("test d={d} k={k}"));
}

/// Bits to hold `values` different values, at least one: the smallest w with 2^w >= values.
fn bits(values: u64) -> u32 {
    (0..).find(|&w| 1u64 << w >= values).unwrap().max(1)
}

#[test]
fn every_check_is_clean_for_sizes_at_the_edges() {
    for (d, k) in [
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 3),
        (3, 3),
        (4, 5),
        (7, 2),
        (8, 4),
        (15, 3),
        (255, 2),
        (2, 64),
        // Words wider than 128 bits: 192 and 512.
        (7, 64),
        (255, 64),
    ] {
        let dir = tempfile::tempdir().unwrap();
        generate(d, k, dir.path());
        assert_lint_clean(dir.path(), &CLOCKED_LINT, &format!("K({d},{k})"));
    }
}

#[test]
fn lint_reports_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    generate(2, 3, dir.path());
    let unit = dir.path().join("verilog/kautz_route_gen_match_unit.v");
    let text = std::fs::read_to_string(&unit).unwrap();
    // An unread wire and a latch: what the IR's validation rules out by construction.
    let broken = text.replace(
        "endmodule",
        "    wire spare;\n    assign spare = load;\n    reg held;\n    always @* if (shift) held = load;\n\nendmodule",
    );
    std::fs::write(&unit, broken).unwrap();
    let vhdl = dir.path().join("vhdl/kautz_route_gen_control.vhd");
    let text = std::fs::read_to_string(&vhdl).unwrap();
    std::fs::write(
        &vhdl,
        text.replace("shift <= ((phase_a and", "shift <= ((phase_z and"),
    )
    .unwrap();
    let verdicts = lint(dir.path()).unwrap();
    let by = |check: &str| verdicts.iter().find(|v| v.check == check).unwrap();
    let verilator = by("verilator --lint-only -Wall");
    assert!(!verilator.clean);
    assert!(
        verilator.log.contains("%Warning-UNUSEDSIGNAL"),
        "{}",
        verilator.log
    );
    assert!(verilator.log.contains("'spare'"), "{}", verilator.log);
    let yosys = by("yosys check -assert, no latches");
    assert!(!yosys.clean);
    assert!(
        yosys
            .log
            .contains("Assertion failed: selection is not empty: t:$dlatch"),
        "{}",
        yosys.log
    );
    assert!(
        yosys
            .log
            .contains("kautz_route_gen_match_unit/$auto$proc_dlatch"),
        "{}",
        yosys.log
    );
    let ghdl = by("ghdl -a --std=08");
    assert!(!ghdl.clean);
    assert!(
        ghdl.log.contains("no declaration for \"phase_z\""),
        "{}",
        ghdl.log
    );
    assert!(
        verdicts.iter().all(|v| v.check != "ghdl -e --std=08"),
        "no elaboration after failed analysis"
    );
}

#[test]
fn top_ports_follow_the_contract() {
    for (d, k) in [(1, 1), (2, 3), (4, 5), (8, 4), (255, 64)] {
        let params = RouteGenParams::new(d, k, "kautz_route_gen").unwrap();
        let design = design(&params);
        let top = design.top();
        let (w, lw) = (bits(d + 1), bits(k + 3));
        let k = k as u32;
        let expected = [
            ("clk", Direction::Input, 1),
            ("rst", Direction::Input, 1),
            ("init", Direction::Input, 1),
            ("next_route", Direction::Input, 1),
            ("src", Direction::Input, k * w),
            ("dst", Direction::Input, k * w),
            ("route_valid", Direction::Output, 1),
            ("route", Direction::Output, (k + 2) * w),
            ("route_len", Direction::Output, lw),
            ("done", Direction::Output, 1),
            ("error", Direction::Output, 1),
        ];
        let ports: Vec<(&str, Direction, u32)> = top
            .ports()
            .map(|(_, s)| match s.kind {
                SignalKind::Port(dir) => (s.name.as_str(), dir, s.width),
                SignalKind::Internal => unreachable!(),
            })
            .collect();
        assert_eq!(ports, expected, "K({d},{k})");
    }
}

#[test]
fn vhdl_ports_are_std_logic_and_vectors() {
    let dir = tempfile::tempdir().unwrap();
    generate(4, 5, dir.path());
    let text = std::fs::read_to_string(dir.path().join("vhdl/kautz_route_gen.vhd")).unwrap();
    for port in [
        "clk : in  std_logic;",
        "next_route : in  std_logic;",
        "src : in  std_logic_vector(14 downto 0);",
        "dst : in  std_logic_vector(14 downto 0);",
        "route : out std_logic_vector(20 downto 0);",
        "route_len : out std_logic_vector(2 downto 0);",
        "error : out std_logic ",
    ] {
        assert!(text.contains(port), "missing '{port}'");
    }
}

fn read_tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for sub in ["", "verilog", "vhdl"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                files.push((
                    path.strip_prefix(dir).unwrap().display().to_string(),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_committed_examples_are_what_make_run_writes_now() {
    // generated/k45 (the route generator of K(4,5) with its testbench), generated/switch-d4 (the 5x5 switch
    // of its nodes) and generated/network-k23 (the 12-node network) are the README's example
    // output: they must not drift from the generator.
    for (dir, args) in [
        ("k45", &["--d", "4", "--k", "5", "--testbench"][..]),
        ("switch-d4", &["switch", "--d", "4"][..]),
        ("network-k23", &["network", "--d", "2", "--k", "3"][..]),
    ] {
        let fresh = tempfile::tempdir().unwrap();
        let out = fresh.path().join(dir);
        let status = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
            .arg("generate")
            .args(args)
            .arg("--out")
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success());
        let committed = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("generated")
            .join(dir);
        let (now, then) = (read_tree(&out), read_tree(&committed));
        let names =
            |tree: &[(String, Vec<u8>)]| tree.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(&now), names(&then), "generated/{dir}");
        for ((name, bytes), (_, committed)) in now.iter().zip(&then) {
            assert!(
                bytes == committed,
                "generated/{dir}/{name} differs from what kautzgen generates now: run make run"
            );
        }
    }
}

#[test]
fn the_same_command_writes_the_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let binary = env!("CARGO_BIN_EXE_kautzgen");
    for dir in [a.path(), b.path()] {
        let status = Command::new(binary)
            .args(["generate", "--d", "3", "--k", "4", "--out"])
            .arg(dir.join("out"))
            .status()
            .unwrap();
        assert!(status.success());
    }
    let (first, second) = (
        read_tree(&a.path().join("out")),
        read_tree(&b.path().join("out")),
    );
    // 9 Verilog, 10 VHDL, the manifest, the FuseSoC core and the marker.
    assert_eq!(first.len(), 9 + 10 + 3);
    assert_eq!(first, second);
}

#[test]
fn generate_replaces_the_directory_as_a_whole_or_not_at_all() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("design");
    let binary = env!("CARGO_BIN_EXE_kautzgen");
    let run = |args: &[&str]| {
        Command::new(binary)
            .args(args)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap()
    };
    assert!(run(&["generate", "--d", "2", "--k", "3"]).status.success());
    std::fs::write(out.join("verilog/stale.v"), "stale").unwrap();
    let ok = run(&["generate", "--d", "2", "--k", "3"]);
    assert!(ok.status.success());
    assert!(!out.join("verilog/stale.v").exists());
    assert!(out.join("verilog/kautz_route_gen.v").exists());
    let before = read_tree(&out);
    for (args, message) in [
        (
            &["generate", "--d", "256", "--k", "3"][..],
            "error: K(d,k) needs 1 <= d <= 255, got d = 256\n",
        ),
        (
            &["generate", "--d", "2", "--k", "65"][..],
            "error: K(d,k) needs 1 <= k <= 64, got k = 65\n",
        ),
        (
            &["generate", "--d", "2", "--k", "3", "--top", "next"][..],
            "error: --top 'next' is not a legal VHDL name (it would have to be 'next_i')\n",
        ),
        (
            &["generate", "--d", "2", "--k", "3", "--top", "route__gen"][..],
            "error: --top 'route__gen' is not a legal VHDL name (it would have to be 'route_gen')\n",
        ),
        // A top named like one of its ports would rename the port: in both languages
        // the same, in VHDL whatever the case.
        (
            &["generate", "--d", "2", "--k", "3", "--top", "route"][..],
            "error: --top 'route' would rename the top's port 'route' to 'route_2' in Verilog: module names and port names share one namespace; choose another top name\n",
        ),
        (
            &["generate", "--d", "2", "--k", "3", "--top", "Done"][..],
            "error: --top 'Done' would rename the top's port 'done' to 'done_2' in VHDL: module names and port names share one namespace; choose another top name\n",
        ),
        (
            &["generate", "mrns", "--radices", "2,3", "--top", "path"][..],
            "error: --top 'path' would rename the top's port 'path' to 'path_2' in Verilog: module names and port names share one namespace; choose another top name\n",
        ),
    ] {
        let refused = run(args);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&refused.stderr), message);
    }
    assert_eq!(
        read_tree(&out),
        before,
        "a refused command changed the directory"
    );
    let leftovers: Vec<_> = std::fs::read_dir(scratch.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("design")]);
}
