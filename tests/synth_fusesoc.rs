//! The FuseSoC core that `kautzgen generate` writes is one FuseSoC accepts: its Verilator
//! lint target passes, and fails once a Verilog file is broken; its VHDL target analyses
//! with GHDL. FuseSoC comes from the project's `.venv` (`make venv`); a missing FuseSoC
//! fails the test with that command.

use kautzgen::synth::tool::{FUSESOC, Outcome};
use std::path::Path;
use std::process::Command;

const CORE: &str = "kautzgen:hdl:kautz_route_gen_d2_k3:0.1.0";

fn generate(dir: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(["generate", "--d", "2", "--k", "3", "--out"])
        .arg(dir)
        .status()
        .unwrap();
    assert!(status.success());
}

/// `fusesoc --cores-root <design> run --build-root <build> <args> CORE`, run from the
/// crate's directory so that `.venv` is found; its output goes to `log`.
fn fusesoc(design: &Path, build: &Path, args: &[&str], log: &Path) -> Outcome {
    let mut all = vec![
        "--cores-root".to_string(),
        design.display().to_string(),
        "run".to_string(),
        "--build-root".to_string(),
        build.display().to_string(),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    all.push(CORE.to_string());
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
    generate(&design);
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
}
