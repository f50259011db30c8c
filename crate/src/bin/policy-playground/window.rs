//! `policy-playground window`: a window of a workload's submissions and/or a seeded sample of its
//! tasks ([`policy_playground::select`]), as the JSON `simulate --workload` reads. The CLI reads
//! traces of any size; what it writes is small enough for the page when the selection is.

use super::inputs::load_error;
use super::simulate::emit;
use super::{print_diagnostics, Exit, INVALID, UNREADABLE};
use policy_playground::experiment::{self, Disk};
use policy_playground::generate::workload_json;
use policy_playground::input::time::parse_time_str;
use policy_playground::select::{select, Selection};
use std::path::PathBuf;

/// What `window` keeps.
#[derive(clap::Args)]
pub struct Args {
    /// The workload: an OpenDC folder (tasks.parquet + fragments.parquet), or a JSON or CSV file.
    #[arg(long)]
    pub workload: PathBuf,
    /// Keep tasks submitted at or after this: ms since the epoch or ISO-8601.
    #[arg(long)]
    pub from: Option<String>,
    /// Keep tasks submitted before this: ms since the epoch or ISO-8601.
    #[arg(long)]
    pub to: Option<String>,
    /// Keep each task with this probability, in (0, 1] (seeded: see --seed).
    #[arg(long)]
    pub sample: Option<f64>,
    /// The sample's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the workload to FILE instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `window`.
pub fn run(args: Args) -> Result<(), Exit> {
    let time = |flag: &str, t: &Option<String>| -> Result<Option<i64>, Exit> {
        t.as_deref()
            .map(|t| {
                parse_time_str(t).map_err(|e| {
                    eprintln!("window: --{flag}: {e}");
                    UNREADABLE
                })
            })
            .transpose()
    };
    let selection = Selection {
        from_ms: time("from", &args.from)?,
        to_ms: time("to", &args.to)?,
        fraction: args.sample,
        seed: args.seed,
    };
    let workload = experiment::load_workload(&Disk, &args.workload).map_err(load_error)?;
    let kept = select(&workload, &selection).map_err(|ds| {
        print_diagnostics(None, &ds);
        INVALID
    })?;
    eprintln!(
        "window: kept {} of {} tasks ({} of {} fragments): {}",
        kept.tasks.len(),
        workload.tasks.len(),
        kept.fragments.len(),
        workload.fragments.len(),
        selection.describe()
    );
    emit(&args.out, &workload_json(&kept))
}
