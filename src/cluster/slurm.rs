//! The Slurm job of a command run in shards: one bash script that submits a job array of the
//! shards and a job that merges their parts once every shard has succeeded, and its
//! submission.
//!
//! In: an [`ArrayJob`] (the command, the shard count, where the parts and the result go,
//! sbatch's options). Out: the script's text ([`script`], rendered from
//! `templates/slurm_job.sh.tera`), and, run, the ids of the jobs it submitted
//! ([`submit`]). docs/cluster.md says why one driver script and not two batch scripts.

use super::shell::{join, quote};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use thiserror::Error;

const TEMPLATE: &str = include_str!("../../templates/slurm_job.sh.tera");

/// A command to run as a Slurm job array of shards and a merge. Paths are absolute: the
/// jobs run wherever Slurm starts them.
#[derive(Debug, Clone)]
pub struct ArrayJob {
    /// The kautzgen binary the jobs run.
    pub kautzgen: String,
    /// The subcommand and its arguments, without `--shard` and `--out`.
    pub command: Vec<String>,
    /// Shards, one array task each: at least 1.
    pub shards: u64,
    /// The directory of the part files and of Slurm's logs.
    pub parts: String,
    /// What `kautzgen merge` writes.
    pub result: String,
    /// Whether the merge replaces a result kautzgen did not write (the command's --force).
    pub force: bool,
    /// The jobs' working directory, against which the command's relative paths resolve.
    pub workdir: String,
    /// The array job's name; the merge's is this with `-merge`.
    pub job_name: String,
    /// sbatch's options for both jobs, each one word (`--partition=debug`).
    pub sbatch_options: Vec<String>,
    /// The script's file name, for its usage lines.
    pub script_name: String,
}

#[derive(Serialize)]
struct Context {
    version: &'static str,
    command: String,
    shards: u64,
    last: u64,
    kautzgen: String,
    parts: String,
    result: String,
    force: bool,
    workdir: String,
    job_name: String,
    /// Each option after a space, or nothing.
    sbatch_options: String,
    script: String,
}

/// The job script of `job`: `bash SCRIPT` submits the shards and the merge and prints
/// `shards: ID` and `merge: ID`; `bash SCRIPT merge` submits the merge alone.
pub fn script(job: &ArrayJob) -> String {
    let context = Context {
        version: env!("CARGO_PKG_VERSION"),
        command: join(&job.command),
        shards: job.shards,
        last: job.shards - 1,
        kautzgen: quote(&job.kautzgen),
        parts: quote(&job.parts),
        result: quote(&job.result),
        force: job.force,
        workdir: quote(&job.workdir),
        job_name: quote(&job.job_name),
        sbatch_options: job
            .sbatch_options
            .iter()
            .map(|o| format!(" {}", quote(o)))
            .collect(),
        script: quote(&job.script_name),
    };
    let mut tera = tera::Tera::new();
    tera.autoescape_on(Vec::<&str>::new());
    tera.add_raw_template("slurm_job.sh.tera", TEMPLATE)
        .and_then(|()| {
            tera.render(
                "slurm_job.sh.tera",
                &tera::Context::from_serialize(&context)?,
            )
        })
        .expect("the Slurm job template is compiled in and renders every job")
}

/// The jobs a script submitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    /// The job array of the shards.
    pub shards: String,
    /// The merge, which waits for every shard to succeed.
    pub merge: String,
}

#[derive(Debug, Error)]
pub enum SubmitError {
    #[error(
        "sbatch is not on PATH: --submit runs where Slurm jobs are submitted (apt-get install slurm-client, or a cluster's login node)"
    )]
    NoSbatch,
    #[error("cannot run bash on '{}': {cause}", .script.display())]
    Bash {
        script: PathBuf,
        cause: std::io::Error,
    },
    #[error("submitting '{}' failed ({status}): {message}", .script.display())]
    Failed {
        script: PathBuf,
        status: String,
        /// What sbatch said: the last line on standard error.
        message: String,
    },
    #[error("'{}' printed no job ids: {output:?}", .script.display())]
    NoIds { script: PathBuf, output: String },
}

/// Refuses, before anything is written, to submit where there is no `sbatch`.
pub fn check_sbatch() -> Result<(), SubmitError> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .any(|dir| dir.join("sbatch").is_file())
        .then_some(())
        .ok_or(SubmitError::NoSbatch)
}

/// Runs the job script at `script` (which [`script`] wrote) to submit its jobs.
pub fn submit(script: &Path) -> Result<Submitted, SubmitError> {
    let output =
        crate::interrupt::child::output(Command::new("bash").arg(script)).map_err(|cause| {
            SubmitError::Bash {
                script: script.to_path_buf(),
                cause,
            }
        })?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(SubmitError::Failed {
            script: script.to_path_buf(),
            status: output.status.to_string(),
            message: stderr.trim().lines().last().unwrap_or("").to_string(),
        });
    }
    job_ids(&stdout).ok_or_else(|| SubmitError::NoIds {
        script: script.to_path_buf(),
        output: stdout,
    })
}

/// The ids in the script's output, `shards: ID` and `merge: ID`.
fn job_ids(stdout: &str) -> Option<Submitted> {
    let id = |key: &str| {
        stdout
            .lines()
            .find_map(|line| line.strip_prefix(key))
            .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
            .map(str::to_string)
    };
    Some(Submitted {
        shards: id("shards: ")?,
        merge: id("merge: ")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ids_are_read_from_the_scripts_two_lines() {
        assert_eq!(
            job_ids("shards: 12\nmerge: 13\n"),
            Some(Submitted {
                shards: "12".into(),
                merge: "13".into()
            })
        );
        assert_eq!(job_ids("shards: 12\n"), None);
        assert_eq!(job_ids("shards: 12\nmerge: \n"), None);
        assert_eq!(job_ids("shards: 12;cluster\nmerge: 13\n"), None);
    }
}
