//! `kautzgen slurm`: writes the Slurm job that runs a command in shards, a job array of
//! `--shards N` tasks whose parts a dependent job merges, and with `--submit` submits it.
//!
//! In: the command after `--` ([`subcommand`] checks it before anything is written), where
//! the result, the parts and the script go, sbatch's options. Out: the job script
//! ([`crate::cluster::slurm`]), written as every output file is, a line that says how to
//! submit it, or the ids of the jobs submitted. docs/cluster.md is the user's guide.

use crate::cli::input_error;
use crate::cli::output::print_stdout;
use crate::cluster::shell::quote;
use crate::cluster::slurm::{ArrayJob, check_sbatch, script, submit};
use crate::output;
use std::path::{Path, PathBuf};

mod subcommand;

/// Write a Slurm job that runs a command in shards and merges their parts.
#[derive(Debug, clap::Args)]
#[command(
    long_about = "Writes a bash script that submits a Slurm job array of --shards N tasks, task I \
running the command after -- with --shard I/N --out PARTS/part-I.json, and a job that waits \
for every task to succeed (--dependency=afterok) and runs kautzgen merge on the parts into the \
merged result, which is what the command writes without shards. The command is checked \
before anything is written. Run the script with bash, or give --submit (docs/cluster.md).",
    after_help = "Examples:\n  \
kautzgen slurm --shards 16 --partition short --time 30:00 -- netsim sweep --seeds 10 --out sweep\n  \
kautzgen slurm --shards 8 --out fig4 --submit -- netsim torus fig4 --seeds 30\n  \
kautzgen slurm --shards 4 --parts /scratch/me/parts --sbatch-arg=--qos=debug -- verify --d 4 --k 5 --pairs all --out k45-verify.json"
)]
pub struct Args {
    /// Shards of the command, one array task each
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    shards: u64,
    /// The merged result [default: the command's --out]
    #[arg(long, value_name = "RESULT")]
    out: Option<PathBuf>,
    /// Directory of the shards' parts and Slurm's logs [default: RESULT.parts]
    #[arg(long, value_name = "DIR")]
    parts: Option<PathBuf>,
    /// The job script to write [default: RESULT.slurm.sh]
    #[arg(long, value_name = "FILE")]
    script: Option<PathBuf>,
    /// The array job's name; the merge's is NAME-merge [default: kautzgen-COMMAND, as
    /// kautzgen-netsim-sweep]
    #[arg(long, value_name = "NAME")]
    job_name: Option<String>,
    /// sbatch --partition of both jobs
    #[arg(long)]
    partition: Option<String>,
    /// sbatch --time of both jobs: each array task's limit, and the merge's
    #[arg(long)]
    time: Option<String>,
    /// sbatch --account of both jobs
    #[arg(long)]
    account: Option<String>,
    /// sbatch --cpus-per-task of both jobs: the threads each shard runs
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    cpus_per_task: Option<u32>,
    /// sbatch --mem of both jobs (memory per node, as 4G)
    #[arg(long)]
    mem: Option<String>,
    /// Any other sbatch option of both jobs, one option with its value (--sbatch-arg
    /// --qos=debug); repeatable
    #[arg(long = "sbatch-arg", value_name = "ARG", allow_hyphen_values = true)]
    sbatch_args: Vec<String>,
    /// The kautzgen the jobs run, as the cluster's nodes see it [default: this one]
    #[arg(long, value_name = "PATH")]
    kautzgen: Option<PathBuf>,
    /// Submit the job with sbatch and print the ids of the shards' job array and the
    /// merge's job
    #[arg(long)]
    submit: bool,
    /// The command to run in shards, with its arguments
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// sbatch options that the script sets itself, long and short.
const SET_BY_SCRIPT: [(&str, Option<&str>); 8] = [
    ("--array", Some("-a")),
    ("--dependency", Some("-d")),
    ("--chdir", Some("-D")),
    ("--output", Some("-o")),
    ("--job-name", Some("-J")),
    ("--parsable", None),
    ("--wrap", None),
    ("--kill-on-invalid-dep", None),
];

pub fn run(args: Args) -> anyhow::Result<()> {
    let command = subcommand::parse(&args.command, args.shards)?;
    let result = merged_result(args.out.as_deref(), command.out.as_deref())?;
    let script_path = args
        .script
        .clone()
        .unwrap_or_else(|| beside(&result, ".slurm.sh"));
    let job = ArrayJob {
        kautzgen: kautzgen_path(args.kautzgen.as_deref())?,
        job_name: job_name(&args, &command.name)?,
        sbatch_options: sbatch_options(&args)?,
        command: command.args,
        shards: args.shards,
        parts: parts_dir(args.parts.as_deref(), &result)?,
        result: absolute(&result, "--out")?,
        force: command.force,
        workdir: absolute(Path::new("."), "the current directory")?,
        script_name: file_name(&script_path),
    };
    if args.submit {
        check_sbatch().map_err(input_error)?;
    }
    output::file::write(&script_path, script(&job).as_bytes())?;
    let summary = format!(
        "wrote {}: {} in {} shards, parts in {}, merged into {}\n",
        script_path.display(),
        command.name,
        job.shards,
        job.parts,
        job.result
    );
    if !args.submit {
        return print_stdout(&format!(
            "{summary}submit it with: bash {}\n",
            quote(&script_path.to_string_lossy())
        ));
    }
    let submitted = submit(&script_path)?;
    print_stdout(&format!(
        "{summary}submitted the shards as job array {} (tasks 0-{}) and the merge as job {}, which waits for them\n",
        submitted.shards,
        job.shards - 1,
        submitted.merge
    ))
}

/// The merged result: `--out` of `kautzgen slurm` or of the command, not both, and not
/// standard output.
fn merged_result(given: Option<&Path>, in_command: Option<&str>) -> anyhow::Result<PathBuf> {
    let result = match (given, in_command) {
        (Some(_), Some(_)) => {
            return Err(input_error(anyhow::anyhow!(
                "--out is given twice, before -- and in the command; give the merged result once"
            )));
        }
        (Some(out), None) => out.to_path_buf(),
        (None, Some(out)) => PathBuf::from(out),
        (None, None) => {
            return Err(input_error(anyhow::anyhow!(
                "name the merged result with --out, before -- or in the command"
            )));
        }
    };
    if result.as_os_str() == "-" {
        return Err(input_error(anyhow::anyhow!(
            "--out -: the merge runs as a batch job, whose standard output is a log; name a file or directory"
        )));
    }
    Ok(result)
}

/// The parts' directory, absolute: `--parts`, or the result's name with `.parts`.
fn parts_dir(given: Option<&Path>, result: &Path) -> anyhow::Result<String> {
    let parts = absolute(
        &given.map_or_else(|| beside(result, ".parts"), Path::to_path_buf),
        "--parts",
    )?;
    if parts.contains('%') {
        return Err(input_error(anyhow::anyhow!(
            "--parts '{parts}': Slurm reads % in its log files' names as a pattern; choose a directory without %"
        )));
    }
    Ok(parts)
}

/// `path` with `suffix` added to its name: where the parts and the script go by default,
/// next to the result.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or(path.as_os_str()).to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The file name of `path`, for the script's usage lines.
fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .into_owned()
}

/// `path` made absolute against the current directory (the jobs run elsewhere); `what`
/// names it in an error.
fn absolute(path: &Path, what: &str) -> anyhow::Result<String> {
    let absolute = std::path::absolute(path)
        .map_err(|e| input_error(anyhow::anyhow!("{what} '{}': {e}", path.display())))?;
    absolute.into_os_string().into_string().map_err(|path| {
        input_error(anyhow::anyhow!(
            "{what} '{}' is not UTF-8, which the job script cannot quote",
            path.display()
        ))
    })
}

/// The kautzgen the jobs run: `--kautzgen`, which must be a file, or this binary.
fn kautzgen_path(given: Option<&Path>) -> anyhow::Result<String> {
    let Some(path) = given else {
        let this = std::env::current_exe()
            .map_err(|e| anyhow::anyhow!("cannot find the running kautzgen: {e}"))?;
        return absolute(&this, "the running kautzgen");
    };
    if !path.is_file() {
        return Err(input_error(anyhow::anyhow!(
            "--kautzgen '{}' is not a file; give the path of the kautzgen the jobs run",
            path.display()
        )));
    }
    absolute(path, "--kautzgen")
}

/// `--job-name`, or `kautzgen-` and the command's names joined by dashes.
fn job_name(args: &Args, command: &str) -> anyhow::Result<String> {
    match &args.job_name {
        Some(name) if name.is_empty() => Err(input_error(anyhow::anyhow!("--job-name is empty"))),
        Some(name) => Ok(name.clone()),
        None => Ok(format!("kautzgen-{}", command.replace(' ', "-"))),
    }
}

/// sbatch's options for both jobs: those of their own flags, then every `--sbatch-arg`.
fn sbatch_options(args: &Args) -> anyhow::Result<Vec<String>> {
    let cpus = args.cpus_per_task.map(|n| n.to_string());
    let mut options = Vec::new();
    for (flag, value) in [
        ("--partition", &args.partition),
        ("--time", &args.time),
        ("--account", &args.account),
        ("--cpus-per-task", &cpus),
        ("--mem", &args.mem),
    ] {
        match value.as_deref() {
            Some("") => return Err(input_error(anyhow::anyhow!("{flag} is empty"))),
            Some(value) => options.push(format!("{flag}={value}")),
            None => {}
        }
    }
    for arg in &args.sbatch_args {
        if !arg.starts_with('-') {
            return Err(input_error(anyhow::anyhow!(
                "--sbatch-arg '{arg}' is not an sbatch option; give one option with its value, as --sbatch-arg=--qos=debug"
            )));
        }
        let set = SET_BY_SCRIPT.iter().find(|(long, short)| {
            arg == long
                || arg.starts_with(&format!("{long}="))
                || short.is_some_and(|short| arg.starts_with(short))
        });
        if let Some((long, _)) = set {
            return Err(input_error(anyhow::anyhow!(
                "--sbatch-arg '{arg}': the job script sets {long} itself"
            )));
        }
        options.push(arg.clone());
    }
    Ok(options)
}
