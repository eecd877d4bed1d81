//! The FuseSoC core that `kautzgen generate` writes is one FuseSoC accepts: its Verilator
//! lint target passes, and fails once a Verilog file is broken; its VHDL target analyses
//! with GHDL. `fusesoc run` without `--target` does the obvious thing: the testbench when
//! the design has one, else the lint; and a core that depends on it gets the design alone. FuseSoC comes from the project's `.venv` (`make venv`); a missing FuseSoC
//! fails the test with that command.

use kautzgen::synth::tool::{FUSESOC, Outcome};
use std::path::Path;
use std::process::Command;

const CORE: &str = "kautzgen:hdl:kautz_route_gen_d2_k3:0.1.0";

fn generate(dir: &Path, extra: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(["generate", "--d", "2", "--k", "3", "--out"])
        .arg(dir)
        .args(extra)
        .status()
        .unwrap();
    assert!(status.success());
}

/// `fusesoc --cores-root <design> run --build-root <build> <args> CORE`, run from the
/// crate's directory so that `.venv` is found; its output goes to `log`.
fn fusesoc(design: &Path, build: &Path, args: &[&str], log: &Path) -> Outcome {
    fusesoc_core(&[design], build, args, CORE, log)
}

/// `fusesoc --cores-root <root>... run --build-root <build> <args> <core>`.
fn fusesoc_core(roots: &[&Path], build: &Path, args: &[&str], core: &str, log: &Path) -> Outcome {
    let mut all = Vec::new();
    for root in roots {
        all.extend(["--cores-root".to_string(), root.display().to_string()]);
    }
    all.extend(["run".to_string(), "--build-root".to_string()]);
    all.push(build.display().to_string());
    all.extend(args.iter().map(|a| a.to_string()));
    all.push(core.to_string());
    FUSESOC
        .run(
            &all,
            Path::new(env!("CARGO_MANIFEST_DIR")),
            &log.display().to_string(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn fusesoc_lints_and_analyses_the_generated_core() {
    let scratch = tempfile::tempdir().unwrap();
    let design = scratch.path().join("k23");
    generate(&design, &[]);
    let lint = fusesoc(
        &design,
        &scratch.path().join("build-lint"),
        &["--target", "lint"],
        &scratch.path().join("lint.log"),
    );
    assert!(lint.success, "fusesoc lint:\n{}", lint.log);
    assert!(lint.log.contains("verilator"), "{}", lint.log);
    let vhdl = fusesoc(
        &design,
        &scratch.path().join("build-vhdl"),
        &["--target", "vhdl", "--tool", "ghdl", "--setup", "--build"],
        &scratch.path().join("vhdl.log"),
    );
    assert!(vhdl.success, "fusesoc ghdl:\n{}", vhdl.log);
    let analysed = scratch
        .path()
        .join("build-vhdl/kautzgen_hdl_kautz_route_gen_d2_k3_0.1.0/vhdl-ghdl/work-obj08.cf");
    assert!(analysed.exists(), "GHDL analysed nothing:\n{}", vhdl.log);

    // A Verilog file with an unused wire: Verilator -Wall through FuseSoC must refuse it.
    let unit = design.join("verilog/kautz_route_gen_match_unit.v");
    let text = std::fs::read_to_string(&unit).unwrap();
    std::fs::write(
        &unit,
        text.replace("endmodule", "    wire spare;\n\nendmodule"),
    )
    .unwrap();
    let broken = fusesoc(
        &design,
        &scratch.path().join("build-broken"),
        &["--target", "lint"],
        &scratch.path().join("broken.log"),
    );
    assert!(
        !broken.success,
        "a broken design linted clean:\n{}",
        broken.log
    );
    assert!(broken.log.contains("spare"), "{}", broken.log);
    // Without a testbench, the default target is the same lint.
    let default = fusesoc(
        &design,
        &scratch.path().join("build-default"),
        &[],
        &scratch.path().join("default.log"),
    );
    assert!(!default.success, "default target:\n{}", default.log);
    assert!(default.log.contains("spare"), "{}", default.log);
}

#[test]
fn fusesoc_run_without_a_target_simulates_and_a_dependency_gets_the_design_alone() {
    let scratch = tempfile::tempdir().unwrap();
    let design = scratch.path().join("k23");
    generate(&design, &["--testbench"]);
    for (tool, args) in [("icarus", &[][..]), ("ghdl", &["--tool", "ghdl"])] {
        let run = fusesoc(
            &design,
            &scratch.path().join(format!("build-{tool}")),
            args,
            &scratch.path().join(format!("{tool}.log")),
        );
        // The 12 x 11 ordered pairs of K(2,3) and its 6 invalid words.
        assert!(run.success, "fusesoc {tool}:\n{}", run.log);
        assert!(run.log.contains("138 passed, 0 failed"), "{}", run.log);
    }

    let parent = scratch.path().join("parent");
    std::fs::create_dir(&parent).unwrap();
    std::fs::write(parent.join("top.v"), "module top;\nendmodule\n").unwrap();
    std::fs::write(
        parent.join("parent.core"),
        "CAPI=2:\nname: test:x:parent:0\nfilesets:\n  rtl:\n    depend: [kautzgen:hdl:kautz_route_gen_d2_k3]\n    files: [top.v]\n    file_type: verilogSource\ntargets:\n  default:\n    filesets: [rtl]\n    toplevel: top\n    default_tool: icarus\n",
    )
    .unwrap();
    let build = scratch.path().join("build-parent");
    let setup = fusesoc_core(
        &[&design, &parent],
        &build,
        &["--setup"],
        "test:x:parent:0",
        &scratch.path().join("parent.log"),
    );
    assert!(setup.success, "{}", setup.log);
    let script = build.join("test_x_parent_0/default-icarus/test_x_parent_0.scr");
    let files = std::fs::read_to_string(&script).unwrap_or_else(|e| panic!("{script:?}: {e}"));
    assert!(files.contains("verilog/kautz_route_gen.v"), "{files}");
    assert!(!files.contains("tb_"), "the testbench came along:\n{files}");
}
