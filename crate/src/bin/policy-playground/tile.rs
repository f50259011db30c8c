//! `policy-playground tile`: a workload repeated in time ([`policy_playground::tile`]) written as
//! an OpenDC workload folder, for runs at OpenDC's larger scales (surf_week tiled 18 times, a
//! week apart, is its half-year scale).

use super::inputs::load_error;
use super::{print_diagnostics, Exit, INVALID, UNREADABLE};
use policy_playground::experiment::{self, Disk};
use policy_playground::output::parquet;
use std::path::PathBuf;

/// One week in ms: the default step between copies.
const WEEK_MS: i64 = 7 * 24 * 3_600_000;

/// The arguments of `tile`.
#[derive(clap::Args)]
pub struct Args {
    /// The workload to repeat: an OpenDC folder (tasks.parquet + fragments.parquet), or a JSON
    /// or CSV file, as for `simulate --workload`.
    #[arg(long)]
    pub workload: PathBuf,
    /// How many copies, at least 1 (copy 0 is the workload itself).
    #[arg(long)]
    pub copies: u32,
    /// How much later each copy starts than the one before, ms (default a week).
    #[arg(long = "shift-ms", default_value_t = WEEK_MS, allow_negative_numbers = true)]
    pub shift_ms: i64,
    /// The folder to write tasks.parquet and fragments.parquet into (created if missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `tile`.
pub fn run(args: Args) -> Result<(), Exit> {
    let workload = experiment::load_workload(&Disk, &args.workload).map_err(load_error)?;
    print_diagnostics(None, &workload.warnings);
    let tiled =
        policy_playground::tile::tile(&workload, args.copies, args.shift_ms).map_err(|e| {
            eprintln!("{}: {e}", args.workload.display());
            INVALID
        })?;
    drop(workload);
    let (tasks, fragments) = parquet::workload(&tiled).map_err(|e| {
        eprintln!("tile: cannot encode the workload as parquet: {e}");
        INVALID
    })?;
    std::fs::create_dir_all(&args.out).map_err(|e| {
        eprintln!("{}: cannot create the folder: {e}", args.out.display());
        UNREADABLE
    })?;
    for (name, bytes) in [("tasks.parquet", tasks), ("fragments.parquet", fragments)] {
        let path = args.out.join(name);
        std::fs::write(&path, bytes).map_err(|e| {
            eprintln!("{}: cannot write: {e}", path.display());
            UNREADABLE
        })?;
    }
    println!(
        "{}: {} tasks ({} copies of {})",
        args.out.display(),
        tiled.tasks.len(),
        args.copies,
        args.workload.display()
    );
    Ok(())
}
