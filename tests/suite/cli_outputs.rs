//! What every command does with what is already at its output: a directory kautzgen wrote
//! is replaced whole, anything else of the user's refused unless --force; output files
//! replaced atomically with their mode kept, links followed, FIFOs and devices written in
//! place, and failures named in one line.

use crate::common;

use common::kautzgen;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::process::Command;

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A directory of the user's: one file in it.
fn users_dir(root: &Path) -> std::path::PathBuf {
    let dir = root.join("mine");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    dir
}

fn refusal(path: &Path) -> String {
    format!(
        "error: '{}' exists and was not written by kautzgen (no .kautzgen marker); give --force to replace it\n",
        path.display()
    )
}

/// Each command that names an output directory refuses one of the user's, before any
/// work, touching nothing.
#[test]
fn every_output_directory_option_refuses_the_users_directory() {
    let root = tempfile::tempdir().unwrap();
    let mine = users_dir(root.path());
    let out = mine.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &["generate", "--d", "2", "--k", "3", "--out", out],
        &[
            "netsim", "sweep", "--graph", "2,3", "--cycles", "10", "--out", out,
        ],
        &["netsim", "torus", "fig4", "--seeds", "1", "--out", out],
        &["synth", "switch", "--d", "2", "--keep", out],
        &["prove", "switch", "--d", "2", "--keep", out],
        &["verify", "switch", "--d", "2", "--keep", out],
    ];
    for args in commands {
        let (code, stdout, stderr) = kautzgen(args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert_eq!(stderr, refusal(&mine), "{args:?}");
        assert_eq!(names(&mine), ["notes.txt"], "{args:?}");
    }
    assert_eq!(names(root.path()), ["mine"]);
}

#[test]
fn generate_refuses_a_file_and_links_but_replaces_its_own_directory() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("file.v");
    std::fs::write(&file, "module mine; endmodule\n").unwrap();
    let link = root.path().join("link");
    std::os::unix::fs::symlink(users_dir(root.path()), &link).unwrap();
    for path in [&file, &link] {
        let (code, _, stderr) = kautzgen(&[
            "generate",
            "--d",
            "2",
            "--k",
            "3",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert_eq!((code, stderr), (2, refusal(path)));
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "module mine; endmodule\n"
    );

    let design = root.path().join("k23");
    let generate = |extra: &[&str]| {
        let mut args = vec!["generate", "--d", "2", "--k", "3"];
        args.extend_from_slice(extra);
        args.extend(["--out", design.to_str().unwrap()]);
        kautzgen(&args)
    };
    assert_eq!(generate(&[]).0, 0);
    std::fs::write(design.join("stale.txt"), "").unwrap();
    assert_eq!(generate(&[]).0, 0);
    assert_eq!(
        names(&design),
        [
            ".kautzgen",
            "kautz_route_gen.core",
            "manifest.json",
            "verilog",
            "vhdl"
        ]
    );
    // A link to kautzgen's directory: the target is replaced, the link stays.
    let to_design = root.path().join("to-k23");
    std::os::unix::fs::symlink("k23", &to_design).unwrap();
    let (code, _, _) = kautzgen(&[
        "generate",
        "--d",
        "2",
        "--k",
        "3",
        "--lang",
        "verilog",
        "--out",
        to_design.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(
        std::fs::symlink_metadata(&to_design)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        names(&design),
        [
            ".kautzgen",
            "kautz_route_gen.core",
            "manifest.json",
            "verilog"
        ]
    );
    assert_eq!(
        names(root.path()),
        ["file.v", "k23", "link", "mine", "to-k23"]
    );
}

#[test]
fn force_replaces_the_users_directory_and_file() {
    let root = tempfile::tempdir().unwrap();
    let mine = users_dir(root.path());
    let file = root.path().join("file.txt");
    std::fs::write(&file, "mine").unwrap();
    for path in [&mine, &file] {
        let (code, _, stderr) = kautzgen(&[
            "generate",
            "--d",
            "2",
            "--k",
            "3",
            "--lang",
            "vhdl",
            "--force",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert_eq!((code, stderr.as_str()), (0, ""));
        assert_eq!(
            names(path),
            [".kautzgen", "kautz_route_gen.core", "manifest.json", "vhdl"]
        );
    }
    assert_eq!(names(root.path()), ["file.txt", "mine"]);
}

#[test]
fn an_empty_directory_is_filled_and_a_sweep_replaced_whole() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("sweep");
    std::fs::create_dir(&out).unwrap();
    let sweep = || {
        kautzgen(&[
            "netsim",
            "sweep",
            "--graph",
            "2,3",
            "--rates",
            "0.01",
            "--cycles",
            "10",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    assert_eq!(sweep().0, 0);
    std::fs::write(out.join("stale.txt"), "").unwrap();
    assert_eq!(sweep().0, 0);
    assert_eq!(
        names(&out),
        [".kautzgen", "sweep.csv", "sweep.md", "sweep.svg"]
    );
    assert_eq!(names(root.path()), ["sweep"]);
}

#[test]
fn verify_keep_holds_the_simulators_work_with_the_design() {
    let root = tempfile::tempdir().unwrap();
    let kept = root.path().join("kept");
    // A name relative to where kautzgen runs: the simulators work in folders of their own.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(["verify", "--d", "2", "--k", "3", "--pairs", "5"])
        .args(["--sim", "ghdl", "--keep", "kept"])
        .current_dir(root.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "designs and simulator work kept in kept\n");
    // The simulator's folder holds the design's HDL beside its testbench and logs.
    assert_eq!(names(&kept), [".kautzgen", "kautzgen-ghdl-1"]);
    assert!(
        kept.join("kautzgen-ghdl-1/vhdl_kautz_route_gen.vhd")
            .is_file()
    );
    assert!(kept.join("kautzgen-ghdl-1/run.log").is_file());
}

/// `draw --out` through each kind of file.
fn draw(out: &Path) -> (i32, String, String) {
    kautzgen(&[
        "draw",
        "--d",
        "2",
        "--k",
        "2",
        "--src",
        "01",
        "--dst",
        "20",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn an_output_file_keeps_its_mode_and_a_new_one_follows_the_umask() {
    let root = tempfile::tempdir().unwrap();
    let svg = root.path().join("k22.svg");
    std::fs::write(&svg, "old").unwrap();
    std::fs::set_permissions(&svg, std::fs::Permissions::from_mode(0o640)).unwrap();
    assert_eq!(draw(&svg).0, 0);
    let meta = std::fs::metadata(&svg).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<?xml"));

    let new = root.path().join("new.svg");
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "umask 022 && exec {} draw --d 2 --k 2 --out {}",
            env!("CARGO_BIN_EXE_kautzgen"),
            new.display()
        ))
        .status()
        .unwrap();
    assert!(status.success());
    let mode = std::fs::metadata(&new).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644);
    assert_eq!(names(root.path()), ["k22.svg", "new.svg"]);
}

#[test]
fn an_output_file_through_a_link_a_fifo_and_a_full_device() {
    let root = tempfile::tempdir().unwrap();
    let real = root.path().join("real.svg");
    std::fs::write(&real, "old").unwrap();
    let link = root.path().join("link.svg");
    std::os::unix::fs::symlink("real.svg", &link).unwrap();
    assert_eq!(draw(&link).0, 0);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read_to_string(&real).unwrap().starts_with("<?xml"));

    let fifo = root.path().join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    assert_eq!(draw(&fifo).0, 0);
    assert!(reader.join().unwrap().starts_with("<?xml"));
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );

    let (code, _, stderr) = draw(Path::new("/dev/full"));
    assert_eq!(
        (code, stderr.as_str()),
        (
            1,
            "error: cannot write '/dev/full': No space left on device (os error 28)\n"
        )
    );
    let full = std::fs::symlink_metadata("/dev/full").unwrap();
    assert!(full.file_type().is_char_device());

    let (code, _, stderr) = draw(root.path());
    assert_eq!(
        (code, stderr),
        (
            2,
            format!(
                "error: '{}' is a directory; give the name of a file\n",
                root.path().display()
            )
        )
    );
    assert_eq!(names(root.path()), ["fifo", "link.svg", "real.svg"]);
}

#[test]
fn a_trace_to_a_closed_pipe_fails_in_one_line() {
    let output = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "{} netsim --d 2 --k 3 --rate 0.05 --cycles 20000 --trace /dev/stdout | head -c 1 >/dev/null; exit ${{PIPESTATUS[0]}}",
            env!("CARGO_BIN_EXE_kautzgen")
        ))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: cannot write '/dev/stdout': Broken pipe (os error 32)\n"
    );
    let dev_null = kautzgen(&[
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0.05",
        "--cycles",
        "100",
        "--trace",
        "/dev/null",
    ]);
    assert_eq!(dev_null.0, 0);
    assert!(
        std::fs::symlink_metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
}
