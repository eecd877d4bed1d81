//! One output directory (`generate --out`, `netsim sweep --out`, `synth --keep`, ...).
//!
//! What is at the path decides what happens:
//! - nothing: the directory is created, with its parents;
//! - an empty directory, or one kautzgen wrote (it holds [`MARKER`], or the `manifest.json`
//!   of a design written before the marker existed): it is replaced whole;
//! - anything else (a directory of the user's, a file, a symlink to either, a dangling
//!   symlink): refused with [`OutputError::NotOurs`], touching nothing, unless forced;
//! - a FIFO, a device or a socket (or a symlink to one): refused with
//!   [`OutputError::NotADirectory`], even when forced.
//!
//! A symlink to a directory that may be replaced is followed: its target is replaced, the
//! link stays. Two ways to replace:
//! - [`OutputDir::staged`]: the files go to a directory beside the target, which takes the
//!   target's place in one atomic exchange (Linux `renameat2`) when it is committed; for
//!   outputs written whole at the end.
//! - [`OutputDir::in_place`]: the earlier output is moved aside and the files are written
//!   at the target itself; committing removes the earlier output; for directories that
//!   tools work in, whose logs and scripts name their own paths.
//!
//! Until it is committed, a signal or a drop puts everything back as it was.

use super::{MARKER, OutputError, follow_links, parent_of, temporary_beside};
use crate::interrupt::{Registration, remove_any};
use std::path::{Path, PathBuf};

/// What the marker says, for a person who finds it.
const MARKER_TEXT: &str = "This directory was written by kautzgen, which replaces it whole when asked to write here again.\n";

/// An output directory being written.
#[derive(Debug)]
pub struct OutputDir {
    /// Where the output ends up (symlinks followed).
    target: PathBuf,
    /// Where its files are written now.
    work: PathBuf,
    /// The earlier output, when it was moved aside.
    aside: Option<PathBuf>,
    /// Undoes the work (and puts the earlier output back) on a signal.
    registration: Option<Registration>,
}

impl OutputDir {
    /// Starts an output at `path` written beside it and exchanged with it on commit.
    pub fn staged(path: &Path, force: bool) -> Result<OutputDir, OutputError> {
        let target = claim(path, force)?;
        let fail = OutputError::write(path);
        std::fs::create_dir_all(parent_of(&target)).map_err(&fail)?;
        let staging = temporary_beside(&target, "new");
        let ((), registration) =
            Registration::removed(&staging, || std::fs::create_dir(&staging)).map_err(&fail)?;
        let dir = OutputDir {
            target,
            work: staging,
            aside: None,
            registration: Some(registration),
        };
        dir.mark()?;
        Ok(dir)
    }

    /// Starts an output at `path` written in place, the earlier output moved aside.
    pub fn in_place(path: &Path, force: bool) -> Result<OutputDir, OutputError> {
        let fail = OutputError::write(path);
        // Tools work in it from directories of their own: a relative name would be
        // resolved from each of those.
        let target = std::path::absolute(claim(path, force)?).map_err(&fail)?;
        std::fs::create_dir_all(parent_of(&target)).map_err(&fail)?;
        let exists = std::fs::symlink_metadata(&target).is_ok();
        let (aside, registration) = if exists {
            let aside = temporary_beside(&target, "old");
            let ((), registration) = Registration::restored(&aside, &target, || {
                std::fs::rename(&target, &aside)?;
                std::fs::create_dir(&target)
            })
            .map_err(&fail)?;
            (Some(aside), registration)
        } else {
            let ((), registration) =
                Registration::removed(&target, || std::fs::create_dir(&target)).map_err(&fail)?;
            (None, registration)
        };
        let dir = OutputDir {
            work: target.clone(),
            target,
            aside,
            registration: Some(registration),
        };
        dir.mark()?;
        Ok(dir)
    }

    /// Where to write the files now.
    pub fn path(&self) -> &Path {
        &self.work
    }

    /// Where the output ends up.
    pub fn target(&self) -> &Path {
        &self.target
    }

    fn mark(&self) -> Result<(), OutputError> {
        let marker = self.work.join(MARKER);
        std::fs::write(&marker, MARKER_TEXT).map_err(OutputError::write(&self.target))
    }

    /// Puts the output in its place and removes the earlier one.
    pub fn commit(mut self) -> Result<(), OutputError> {
        let registration = self.registration.take().expect("committed once");
        let fail = OutputError::write(&self.target);
        if self.work != self.target {
            registration
                .settle(|| put_in_place(&self.work, &self.target))
                .map_err(fail)?;
        } else {
            registration.settle(|| ());
        }
        if let Some(aside) = self.aside.take() {
            remove_any(&aside);
        }
        Ok(())
    }
}

impl Drop for OutputDir {
    /// An output not committed is undone: what was written goes, the earlier output comes
    /// back.
    fn drop(&mut self) {
        if let Some(registration) = self.registration.take() {
            registration.settle(|| {
                remove_any(&self.work);
                if let Some(aside) = &self.aside {
                    let _ = std::fs::rename(aside, &self.target);
                }
            });
        }
    }
}

/// Moves `staging` to `target`: one atomic exchange when something is there (the old
/// contents end up at `staging`, then removed), a rename when nothing is.
fn put_in_place(staging: &Path, target: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(target).is_err() {
        return std::fs::rename(staging, target);
    }
    exchange(staging, target)?;
    remove_any(staging);
    Ok(())
}

/// Swaps two paths in one step (Linux `renameat2` with `RENAME_EXCHANGE`).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(std::io::Error::from)
}

/// Without an atomic exchange: the old output is removed, then the new one renamed in.
#[cfg(not(target_os = "linux"))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    remove_any(b);
    std::fs::rename(a, b)?;
    std::fs::create_dir(a)
}

/// The directory to write for `path`, symlinks followed, when what is there may be
/// replaced; refused otherwise unless `force`.
fn claim(path: &Path, force: bool) -> Result<PathBuf, OutputError> {
    let named = match path.file_name() {
        Some(_) => path.to_path_buf(),
        // `.` or `..`: the directory's own name is needed to write beside it.
        None => std::fs::canonicalize(path).map_err(OutputError::write(path))?,
    };
    let target = follow_links(&named)?;
    let dangling = target != named && std::fs::symlink_metadata(&target).is_err();
    let replaceable = match std::fs::symlink_metadata(&target) {
        Err(_) => !dangling,
        Ok(meta) if meta.is_dir() => written_by_kautzgen_or_empty(&target),
        // A FIFO, a device or a socket is never replaced by a directory, not even forced:
        // `--out /dev/null --force` as root would otherwise remove the device.
        Ok(meta) if !meta.is_file() => {
            return Err(OutputError::NotADirectory {
                path: path.to_path_buf(),
            });
        }
        Ok(_) => false,
    };
    if replaceable || force {
        Ok(target)
    } else {
        Err(OutputError::NotOurs {
            path: path.to_path_buf(),
        })
    }
}

/// True for an empty directory, one holding the marker, and a design directory that an
/// earlier kautzgen wrote (its manifest names the top and the Verilog files).
fn written_by_kautzgen_or_empty(dir: &Path) -> bool {
    let Ok(mut entries) = std::fs::read_dir(dir) else {
        return false;
    };
    if entries.next().is_none() {
        return true;
    }
    if dir.join(MARKER).is_file() {
        return true;
    }
    let Ok(text) = std::fs::read_to_string(dir.join("manifest.json")) else {
        return false;
    };
    serde_json::from_str::<serde_json::Value>(&text)
        .is_ok_and(|manifest| manifest.get("top").is_some() && manifest.get("verilog").is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn write_one(path: &Path, force: bool, staged: bool) -> Result<(), OutputError> {
        let dir = if staged {
            OutputDir::staged(path, force)?
        } else {
            OutputDir::in_place(path, force)?
        };
        std::fs::write(dir.path().join("new.txt"), "new").unwrap();
        dir.commit()
    }

    #[test]
    fn a_missing_directory_is_created_with_the_marker() {
        for staged in [true, false] {
            let root = tempfile::tempdir().unwrap();
            let out = root.path().join("a/b");
            write_one(&out, false, staged).unwrap();
            assert_eq!(names(&out), [".kautzgen", "new.txt"]);
            assert_eq!(names(&root.path().join("a")), ["b"]);
        }
    }

    #[test]
    fn kautzgens_directory_is_replaced_and_the_users_refused() {
        for staged in [true, false] {
            let root = tempfile::tempdir().unwrap();
            let out = root.path().join("out");
            write_one(&out, false, staged).unwrap();
            std::fs::write(out.join("stale.txt"), "").unwrap();
            write_one(&out, false, staged).unwrap();
            assert_eq!(names(&out), [".kautzgen", "new.txt"]);

            let mine = root.path().join("mine");
            std::fs::create_dir(&mine).unwrap();
            std::fs::write(mine.join("notes.txt"), "mine").unwrap();
            let error = write_one(&mine, false, staged).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "'{}' exists and was not written by kautzgen (no .kautzgen marker); give --force to replace it",
                    mine.display()
                )
            );
            assert_eq!(names(&mine), ["notes.txt"]);
            assert_eq!(names(root.path()), ["mine", "out"]);
            write_one(&mine, true, staged).unwrap();
            assert_eq!(names(&mine), [".kautzgen", "new.txt"]);
        }
    }

    #[test]
    fn a_file_and_links_to_the_users_things_are_refused() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("file.txt");
        std::fs::write(&file, "mine").unwrap();
        let link = root.path().join("link");
        std::os::unix::fs::symlink("file.txt", &link).unwrap();
        let dangling = root.path().join("dangling");
        std::os::unix::fs::symlink("nowhere", &dangling).unwrap();
        for path in [&file, &link, &dangling] {
            let error = write_one(path, false, true).unwrap_err();
            assert!(error.is_refusal(), "{error}");
        }
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
        assert_eq!(names(root.path()), ["dangling", "file.txt", "link"]);
    }

    #[test]
    fn a_fifo_or_device_is_never_replaced_even_forced() {
        let root = tempfile::tempdir().unwrap();
        let fifo = root.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let link = root.path().join("to-null");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        for path in [&fifo, &link, &PathBuf::from("/dev/null")] {
            for staged in [true, false] {
                let error = write_one(path, true, staged).unwrap_err();
                assert_eq!(
                    error.to_string(),
                    format!(
                        "'{}' is a FIFO, device or socket, which kautzgen never replaces; give the name of a directory",
                        path.display()
                    )
                );
                assert!(error.is_refusal());
            }
        }
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert!(
            std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        assert_eq!(names(root.path()), ["fifo", "to-null"]);
    }

    #[test]
    fn a_link_to_kautzgens_directory_stays_a_link() {
        let root = tempfile::tempdir().unwrap();
        let real = root.path().join("real");
        write_one(&real, false, true).unwrap();
        let link = root.path().join("link");
        std::os::unix::fs::symlink("real", &link).unwrap();
        std::fs::write(real.join("stale.txt"), "").unwrap();
        write_one(&link, false, true).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(names(&real), [".kautzgen", "new.txt"]);
        assert_eq!(names(root.path()), ["link", "real"]);
    }

    #[test]
    fn an_output_dropped_unfinished_leaves_the_earlier_one() {
        for staged in [true, false] {
            let root = tempfile::tempdir().unwrap();
            let out = root.path().join("out");
            write_one(&out, false, staged).unwrap();
            let dir = if staged {
                OutputDir::staged(&out, false).unwrap()
            } else {
                OutputDir::in_place(&out, false).unwrap()
            };
            std::fs::write(dir.path().join("half.txt"), "").unwrap();
            drop(dir);
            assert_eq!(names(&out), [".kautzgen", "new.txt"]);
            assert_eq!(names(root.path()), ["out"]);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn directories_are_exchanged_in_one_step() {
        let scratch = tempfile::tempdir().unwrap();
        let (a, b) = (scratch.path().join("a"), scratch.path().join("b"));
        for (dir, text) in [(&a, "new"), (&b, "old")] {
            std::fs::create_dir(dir).unwrap();
            std::fs::write(dir.join("f"), text).unwrap();
        }
        exchange(&a, &b).unwrap();
        assert_eq!(std::fs::read_to_string(b.join("f")).unwrap(), "new");
        assert_eq!(std::fs::read_to_string(a.join("f")).unwrap(), "old");
    }
}
