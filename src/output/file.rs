//! One output file (`--trace`, `--wave`, `draw --out`, `synth --doc`, tables and plots).
//!
//! - A regular file, or a new one, is written to a temporary beside it and renamed over
//!   it, so that it is whole or untouched. An existing file keeps its permission bits; a
//!   new one gets 0666 less the umask, as any program's output does.
//! - A symbolic link is followed and its target written; the link stays a link.
//! - A FIFO, a device (`/dev/stdout`, `/dev/null`) or a socket is opened and written in
//!   place, streaming: renaming over it would replace the node itself.
//! - `-` is standard output.
//!
//! A write that fails ends in [`OutputError::Write`] naming the path and the system's error,
//! with no temporary left behind.

use super::{OutputError, follow_links, parent_of, temporary_beside};
use crate::interrupt::Registration;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Refuses, before any work, an output `path` that cannot be written as a file (a
/// directory, a loop of links).
pub fn check(path: &Path) -> Result<(), OutputError> {
    Target::of(path).map(|_| ())
}

/// Writes `bytes` to the output `path`.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    write_with(path, |out| out.write_all(bytes))
}

/// Writes the output `path` through `write`, for output too large to hold in memory; the
/// writer is buffered.
pub fn write_with<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> Result<T, OutputError> {
    match Target::of(path)? {
        Target::Stdout => {
            let mut out = BufWriter::new(std::io::stdout().lock());
            let value = write(&mut out).map_err(OutputError::Stdout)?;
            out.flush().map_err(OutputError::Stdout)?;
            Ok(value)
        }
        Target::InPlace(node) => {
            let fail = OutputError::write(path);
            let file = OpenOptions::new().write(true).open(&node);
            let mut out = BufWriter::new(file.map_err(&fail)?);
            let value = write(&mut out).and_then(|value| out.flush().map(|()| value));
            value.map_err(fail)
        }
        Target::Replace { file, mode } => replace(path, &file, mode, write),
    }
}

/// Where an output path leads.
enum Target {
    Stdout,
    /// A FIFO, device or socket, written where it is.
    InPlace(PathBuf),
    /// A regular file to replace, or to create, with the permission bits to keep.
    Replace {
        file: PathBuf,
        mode: Option<u32>,
    },
}

impl Target {
    fn of(path: &Path) -> Result<Target, OutputError> {
        if path.as_os_str() == "-" {
            return Ok(Target::Stdout);
        }
        // The kernel follows the links, /proc's magic ones too (/dev/stdout on a pipe).
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Target::Replace {
                file: follow_links(path)?,
                mode: None,
            }),
            Err(e) => Err(OutputError::write(path)(e)),
            Ok(meta) if meta.is_dir() => Err(OutputError::IsDirectory {
                path: path.to_path_buf(),
            }),
            Ok(meta) if meta.is_file() => Ok(Target::Replace {
                file: std::fs::canonicalize(path).map_err(OutputError::write(path))?,
                mode: Some(meta.permissions().mode() & 0o7777),
            }),
            Ok(_) => Ok(Target::InPlace(path.to_path_buf())),
        }
    }
}

/// Writes a temporary beside `file` and renames it over `file`; errors name `path`, the
/// name the user gave.
fn replace<T>(
    path: &Path,
    file: &Path,
    mode: Option<u32>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> Result<T, OutputError> {
    let fail = OutputError::write(path);
    std::fs::create_dir_all(parent_of(file)).map_err(&fail)?;
    let temporary = temporary_beside(file, "tmp");
    let (created, registration) = Registration::removed(&temporary, || {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o666)
            .open(&temporary)
    })
    .map_err(&fail)?;
    let written = fill(created, mode, write).and_then(|value| {
        registration
            .settle(|| std::fs::rename(&temporary, file))
            .map(|()| value)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written.map_err(fail)
}

/// Writes through `write` into `file`, sets `mode` and syncs.
fn fill<T>(
    file: File,
    mode: Option<u32>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> std::io::Result<T> {
    if let Some(mode) = mode {
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    let mut out = BufWriter::new(file);
    let value = write(&mut out)?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_regular_file_is_replaced_with_its_mode_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(mode(&path), 0o640);
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_symlink_stays_a_link_and_its_target_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.txt");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        write(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(names(dir.path()), ["link.txt", "real.txt"]);
    }

    #[test]
    fn a_failed_write_names_the_path_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").unwrap();
        let error = write_with(&path, |out| {
            out.write_all(b"partial")?;
            Err::<(), _>(std::io::Error::other("the model stopped"))
        })
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("cannot write '{}': the model stopped", path.display())
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_full_device_fails_and_stays_a_device() {
        let error = write(Path::new("/dev/full"), b"x").unwrap_err();
        assert_eq!(
            error.to_string(),
            "cannot write '/dev/full': No space left on device (os error 28)"
        );
        assert!(!error.is_refusal());
        let meta = std::fs::symlink_metadata("/dev/full").unwrap();
        assert!(meta.file_type().is_char_device());
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error = write(dir.path(), b"x").unwrap_err();
        assert!(error.is_refusal());
        assert_eq!(
            error.to_string(),
            format!(
                "'{}' is a directory; give the name of a file",
                dir.path().display()
            )
        );
    }
}
