//! Progress on standard error: shown while it is a terminal (netsim's cycles, a sweep's
//! points, verify's vectors or the step under way), absent when it is a pipe, and silenced by `--quiet`. The
//! terminal is a pseudo-terminal made by util-linux `script`.

use std::process::Command;

/// Runs `kautzgen ARGS` with standard error on a pseudo-terminal and standard output
/// thrown away; returns what the terminal showed.
fn on_a_terminal(args: &[&str]) -> String {
    let line = format!(
        "{} {} >/dev/null",
        env!("CARGO_BIN_EXE_kautzgen"),
        args.join(" ")
    );
    let output = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .output()
        .expect("util-linux `script` runs (apt-get install bsdutils)");
    assert!(output.status.success(), "{line}: {output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Standard error when it is a pipe.
fn piped_stderr(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn long_runs_show_progress_on_a_terminal_only() {
    let scratch = tempfile::tempdir().unwrap();
    let sweep = scratch.path().join("sweep");
    let sweep = sweep.to_str().unwrap();
    let netsim = [
        "netsim", "--d", "3", "--k", "4", "--cycles", "100000", "--rate", "0.01",
    ];
    let sweep_args = [
        "netsim",
        "sweep",
        "--graph",
        "2,3",
        "--rates",
        "0.001,0.01",
        "--cycles",
        "20000",
        "--out",
        sweep,
    ];
    let verify = [
        "verify", "--d", "2", "--k", "3", "--pairs", "all", "--sim", "ghdl",
    ];
    // The units whose vectors run in one simulator run name the step instead.
    let verify_ldi = ["verify", "ldi", "--m", "18", "--s", "3", "--sim", "ghdl"];
    for (args, shown) in [
        (&netsim[..], "/100000 cycles"),
        (&sweep_args, "/4 points"),
        (&verify, "/138 vectors"),
        (&verify_ldi, "ghdl: building and simulating"),
    ] {
        let terminal = on_a_terminal(args);
        assert!(terminal.contains(shown), "{args:?} showed:\n{terminal}");

        let mut quiet = vec!["--quiet"];
        quiet.extend(args);
        let terminal = on_a_terminal(&quiet);
        assert!(!terminal.contains('['), "{quiet:?} showed:\n{terminal}");

        let stderr = piped_stderr(args);
        assert!(!stderr.contains('\r'), "{args:?} on a pipe:\n{stderr}");
        assert!(!stderr.contains(shown), "{args:?} on a pipe:\n{stderr}");
    }
}
