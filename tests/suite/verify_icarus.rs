//! `kautzgen verify --sim icarus`: every unit verifies in Icarus Verilog alone, so that a
//! machine without Verilator can still check a design, and a deliberate fault fails there
//! on exactly the vectors or cycles it fails on in GHDL.

use crate::common;

use common::kautzgen;

/// Runs `verify ARGS --sim icarus` and returns its exit status and the last line of
/// standard output.
fn icarus(args: &[&str]) -> (i32, String) {
    let mut line = vec!["verify"];
    line.extend(args);
    line.extend(["--sim", "icarus", "--quiet"]);
    let (status, stdout, stderr) = kautzgen(&line);
    assert!(
        status == 0 || stderr.starts_with("error: verification failed"),
        "{line:?}: {stderr}"
    );
    (status, stdout.lines().last().unwrap_or("").to_string())
}

/// Each unit's vectors, counted from what the unit is checked on.
#[test]
fn every_unit_passes_in_icarus() {
    for (args, passed) in [
        // 20 sampled pairs and the 6 invalid words of K(2,3).
        (&["--d", "2", "--k", "3", "--pairs", "20"][..], 26),
        (
            &[
                "--d", "2", "--k", "3", "--pairs", "20", "--arch", "parallel",
            ],
            26,
        ),
        // The pipelined engine: one check per cycle in which a set is offered, 51 here (the
        // run lasts until the last set is out: it grows with the latency, 2d+3).
        (
            &[
                "--d",
                "2",
                "--k",
                "3",
                "--pairs",
                "20",
                "--arch",
                "pipelined",
            ],
            51,
        ),
        // 10 sampled pairs, A = B, and one digit out of range per dimension.
        (&["mrns", "--radices", "2,3", "--pairs", "10"], 13),
        // Every (current, destination, hop) of LDI(18,3): 18 x 18 x 3.
        (&["ldi", "--m", "18", "--s", "3"], 972),
        // The switch's 180 directed cycles, then 300 random ones.
        (&["switch", "--d", "2", "--cycles", "300"], 480),
        (&["router", "--d", "2", "--k", "2", "--cycles", "300"], 300),
    ] {
        assert_eq!(
            icarus(args),
            (0, format!("icarus: {passed} passed, 0 failed")),
            "{args:?}"
        );
    }
}

#[test]
fn torus_and_network_pass_in_icarus() {
    // 9 nodes x 9 destinations x the headers and link masks of the 3-ary 2-cube.
    let (status, last) = icarus(&["torus", "--k", "3", "--n", "2", "--algo", "e-cube"]);
    assert_eq!(
        (status, last.as_str()),
        (0, "icarus: 9000 passed, 0 failed")
    );
    let (status, stdout, _) = kautzgen(&[
        "verify", "network", "--d", "2", "--k", "2", "--cycles", "200", "--quiet", "--sim", "ghdl",
    ]);
    let ghdl = stdout.lines().last().unwrap().replace("ghdl", "icarus");
    assert_eq!(status, 0, "{stdout}");
    assert_eq!(
        icarus(&["network", "--d", "2", "--k", "2", "--cycles", "200"]),
        (0, ghdl)
    );
}

/// A fault fails on the same vectors in Icarus as in GHDL.
#[test]
fn faults_fail_in_icarus_as_in_ghdl() {
    for args in [
        &[
            "--d",
            "2",
            "--k",
            "3",
            "--pairs",
            "all",
            "--fault",
            "phase-b-skipped",
        ][..],
        &[
            "switch",
            "--d",
            "2",
            "--cycles",
            "300",
            "--fault",
            "output-kept-after-eod",
        ],
        &[
            "mrns",
            "--radices",
            "2,3",
            "--pairs",
            "10",
            "--fault",
            "rows-frozen-while-shortest",
        ],
    ] {
        let mut line = vec!["verify"];
        line.extend(args);
        line.extend(["--sim", "ghdl", "--quiet"]);
        let (status, stdout, _) = kautzgen(&line);
        assert_eq!(status, 1, "{line:?}");
        let ghdl = stdout.lines().last().unwrap().replace("ghdl", "icarus");
        assert!(!ghdl.ends_with(" 0 failed"), "{ghdl}");
        assert_eq!(icarus(args), (1, ghdl), "{args:?}");
    }
}
