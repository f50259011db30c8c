//! The inputs of one run as the command line names them (`simulate` and `sweep` share them): a
//! scenario file, or a topology, a workload, a policy and optionally a carbon trace, read from
//! disk with every problem naming its file.

use super::{print_diagnostics, Exit, INVALID, UNREADABLE};
use policy_playground::diag::Diagnostic;
use policy_playground::experiment::{self, Disk, LoadError};
use policy_playground::model::{CarbonTrace, Topology, Workload};
use policy_playground::policy::Policy;
use policy_playground::scenario;
use std::path::PathBuf;

/// The input files of one run.
#[derive(clap::Args)]
pub struct InputArgs {
    /// A scenario file: {"topology", "workload", "carbon", "policy", "seed", "quantumMs"}.
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// An OpenDC topology JSON (legacy or SDK).
    #[arg(long)]
    pub topology: Option<PathBuf>,
    /// An OpenDC workload folder (tasks.parquet + fragments.parquet), or a JSON or CSV file.
    #[arg(long)]
    pub workload: Option<PathBuf>,
    /// A carbon trace (parquet, CSV or JSON); otherwise the topology's own reference.
    #[arg(long)]
    pub carbon: Option<PathBuf>,
    /// A policy file.
    #[arg(long)]
    pub policy: Option<PathBuf>,
}

pub(super) fn load_error(e: LoadError) -> Exit {
    match e {
        LoadError::Invalid(ds) => {
            print_diagnostics(None, &ds);
            INVALID
        }
        LoadError::Unreadable(ds) => {
            print_diagnostics(None, &ds);
            UNREADABLE
        }
    }
}

/// The inputs of one run, read from disk: a scenario file, or separate files.
pub(super) struct Loaded {
    pub topology: Topology,
    pub workload: Workload,
    pub carbon: Option<CarbonTrace>,
    pub policy: Policy,
    pub seed: u64,
    pub quantum_ms: i64,
    /// Warnings of every part, each naming its file.
    pub warnings: Vec<Diagnostic>,
    /// What ran, for summaries.
    pub label: String,
}

/// Reads a scenario file, or a topology, a workload, a policy and optionally a carbon trace
/// (otherwise the topology's own reference).
pub(super) fn load_inputs(args: &InputArgs) -> Result<Loaded, Exit> {
    if let Some(path) = &args.scenario {
        let text = std::fs::read(path).map_err(|e| {
            eprintln!("{}: cannot read the file: {e}", path.display());
            UNREADABLE
        })?;
        let text = String::from_utf8(text).map_err(|_| {
            eprintln!("{}: not UTF-8 text", path.display());
            INVALID
        })?;
        let s = scenario::read(&text).map_err(|ds| {
            print_diagnostics(Some(path), &ds);
            INVALID
        })?;
        return Ok(Loaded {
            topology: s.topology,
            workload: s.workload,
            carbon: s.carbon,
            policy: s.policy,
            seed: s.seed,
            quantum_ms: s.quantum_ms,
            warnings: s.warnings,
            label: path.display().to_string(),
        });
    }
    let (Some(tp), Some(wp), Some(pp)) = (&args.topology, &args.workload, &args.policy) else {
        eprintln!("--topology, --workload and --policy go together");
        return Err(UNREADABLE);
    };
    let topology = experiment::load_topology(&Disk, tp).map_err(load_error)?;
    let workload = experiment::load_workload(&Disk, wp).map_err(load_error)?;
    let (policy, policy_warnings) = experiment::load_policy(&Disk, pp).map_err(load_error)?;
    let mut warnings: Vec<Diagnostic> = policy_warnings
        .into_iter()
        .map(|d| d.in_file(&pp.display().to_string()))
        .collect();
    let carbon = match &args.carbon {
        Some(cp) => Some(experiment::load_carbon(&Disk, cp).map_err(load_error)?),
        None => {
            let (carbon, w) = experiment::referenced_carbon(&Disk, &topology, tp);
            warnings.extend(w);
            carbon
        }
    };
    Ok(Loaded {
        label: format!("{} on {}", wp.display(), tp.display()),
        topology,
        workload,
        carbon,
        policy,
        seed: 0,
        quantum_ms: policy_playground::sim::DEFAULT_QUANTUM_MS,
        warnings,
    })
}
