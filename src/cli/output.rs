//! Where a command's output goes: standard output, or a file written whole or not at all.

use anyhow::Context;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename,
/// so that an interrupted or failed command never leaves a partial file behind.
pub fn write_file_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("'{}' is not a file name", path.display()))?;
    let temporary = dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = std::fs::File::create(&temporary)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written.with_context(|| format!("cannot write '{}'", path.display()))
}

/// Prints to standard output, treating a closed pipe (`| head`) as a normal end.
pub fn print_stdout(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}

/// Writes a file through `write` into a temporary file beside `path`, renamed to `path`
/// only when `write` succeeds: for output too large to hold in memory first.
pub fn write_file_streamed<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> anyhow::Result<T> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let cannot = || format!("cannot write '{}'", path.display());
    let file = tempfile::NamedTempFile::new_in(dir).with_context(cannot)?;
    let mut out = std::io::BufWriter::new(file);
    let value = write(&mut out).with_context(cannot)?;
    let file = out
        .into_inner()
        .map_err(|e| e.into_error())
        .with_context(cannot)?;
    file.as_file().sync_all().with_context(cannot)?;
    file.persist(path)
        .map_err(|e| e.error)
        .with_context(cannot)?;
    Ok(value)
}
