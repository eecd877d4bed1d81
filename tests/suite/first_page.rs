//! What a newcomer reads: the README's shape, the papers named as a reader can find them
//! (never by the project's internal seed numbers, which a user does not have) in the docs
//! and in every command's help, links that lead somewhere, a licence and a changelog.

use crate::common;

use common::kautzgen;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// How the project's own notes name the papers; none of it may reach a user.
const INTERNAL_NAMES: [&str; 4] = ["seed 00", "Seed 00", "shared/seeds", "seeds/00"];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// README.md, CHANGELOG.md and every Markdown file under docs/.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![
        Path::new(ROOT).join("README.md"),
        Path::new(ROOT).join("CHANGELOG.md"),
    ];
    let mut dirs = vec![Path::new(ROOT).join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_readme_is_a_first_page() {
    let readme = read(&Path::new(ROOT).join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines <= 210,
        "README.md has {lines} lines; the first page keeps to about 200"
    );
    let first_commands: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("make "))
        .take(2)
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .map(|l| {
            if l == "make run" {
                "make run"
            } else {
                "make test"
            }
        })
        .collect();
    assert_eq!(first_commands, ["make run", "make test"], "{readme}");
    for needed in [
        "cargo install --path .",
        "docs/papers.md",
        "--force",
        "--quiet",
    ] {
        assert!(
            readme.contains(needed),
            "README.md does not mention {needed}"
        );
    }
}

#[test]
fn the_papers_are_named_not_numbered_in_the_docs() {
    for file in documents() {
        let text = read(&file);
        for (number, line) in text.lines().enumerate() {
            for name in INTERNAL_NAMES {
                assert!(
                    !line.contains(name),
                    "{}:{}: names a paper by '{name}': {line}",
                    file.display(),
                    number + 1
                );
            }
        }
    }
    let papers = read(&Path::new(ROOT).join("docs/papers.md"));
    for reference in [
        "On hardware for generating routes in Kautz",
        "On the design of a dynamic reconfigurable network switch",
        "Low Diameter Interconnections for Routing in High",
        "Application of the Special Matrices to the Parallel Routing Algorithm on MRNS Network",
        "A novel routing algorithm for k-ary n-cube interconnection networks",
    ] {
        assert!(
            papers.contains(reference),
            "docs/papers.md lacks {reference}"
        );
    }
}

/// The subcommands a `--help` text lists under "Commands:".
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:") && !l.starts_with("Units:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn no_help_text_names_a_paper_by_its_seed_number() {
    let mut pending = vec![Vec::<String>::new()];
    let mut seen = 0;
    while let Some(command) = pending.pop() {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.push("--help");
        let (status, help, stderr) = kautzgen(&args);
        assert_eq!((status, stderr.as_str()), (0, ""), "{args:?}");
        for name in INTERNAL_NAMES {
            assert!(
                !help.contains(name),
                "`kautzgen {}` says '{name}':\n{help}",
                args.join(" ")
            );
        }
        seen += 1;
        for sub in subcommands(&help) {
            let mut next = command.clone();
            next.push(sub);
            pending.push(next);
        }
    }
    // The top level, its commands, the units of generate, verify, synth and prove, and the
    // subcommands of netsim, torus and mrns: far more than the top level alone.
    assert!(seen > 30, "only {seen} help texts were found");
}

#[test]
fn every_relative_link_in_the_docs_leads_to_a_file() {
    for file in documents() {
        let text = read(&file);
        for target in text
            .split("](")
            .skip(1)
            .filter_map(|rest| rest.split(')').next())
        {
            let path = target.split('#').next().unwrap();
            if path.is_empty() || path.contains("://") || path.starts_with("mailto:") {
                continue;
            }
            let resolved = file.parent().unwrap().join(path);
            assert!(
                resolved.exists(),
                "{}: link to {target}, which does not exist",
                file.display()
            );
        }
    }
}

#[test]
fn a_licence_and_a_changelog_match_the_crate() {
    let cargo = read(&Path::new(ROOT).join("Cargo.toml"));
    assert!(cargo.contains("license = \"MIT\""), "{cargo}");
    let licence = read(&Path::new(ROOT).join("LICENSE"));
    assert!(licence.starts_with("MIT License"), "{licence}");
    assert!(licence.contains("Permission is hereby granted, free of charge"));
    let version = env!("CARGO_PKG_VERSION");
    let changelog = read(&Path::new(ROOT).join("CHANGELOG.md"));
    assert!(changelog.contains("## [Unreleased]"), "{changelog}");
    assert!(
        changelog.contains(&format!("## [{version}]")),
        "{changelog}"
    );
}
