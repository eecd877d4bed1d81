//! Running a command that splits into shards (`--shard I/N`, see `kautzgen merge`) on a
//! compute cluster: [`slurm`] writes and submits the Slurm job, [`shell`] quotes its
//! arguments for bash. The command line's `kautzgen slurm` (src/cli/slurm.rs) checks the
//! command and builds the job; docs/cluster.md is the user's guide.

pub mod shell;
pub mod slurm;
