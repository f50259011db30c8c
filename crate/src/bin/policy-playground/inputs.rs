//! The inputs of one run as the command line names them (`simulate` and `sweep` share them): a
//! scenario file, or a topology, a workload, a policy and optionally a carbon trace, read from
//! disk with every problem naming its file.

use super::{print_diagnostics, print_diagnostics_in, Exit, INVALID, UNREADABLE};
use policy_playground::diag::Diagnostic;
use policy_playground::experiment::{self, Disk, LoadError};
use policy_playground::request::{CarbonReference, RunRequest};
use policy_playground::scenario::{self, ScenarioFile};
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

/// The inputs of one run read from disk, as a scenario file holds them, with what ran (for
/// summaries) and whether the topology's carbon reference was followed.
pub(super) struct LoadedRun {
    pub file: ScenarioFile,
    pub label: String,
    pub carbon_reference: CarbonReference,
}

impl LoadedRun {
    /// The run these inputs ask for, the command line's seed and quantum replacing the file's.
    pub fn request(&self, seed: Option<u64>, quantum_ms: Option<i64>) -> RunRequest<'_> {
        let mut request = self.file.request();
        request.carbon_reference = self.carbon_reference;
        if let Some(seed) = seed {
            request.options.seed = seed;
        }
        if quantum_ms.is_some() {
            request.options.quantum_ms = quantum_ms;
        }
        // Every run made from this request has this workload: its provenance digest (FNV over
        // every fragment, about 5 % of a half-year run) is worked out once, here, not again in
        // each run's result.
        request.workload_digest = Some(policy_playground::sim::digest::workload(
            request.inputs.workload,
        ));
        request
    }
}

/// Reads a scenario file, or a topology, a workload, a policy and optionally a carbon trace
/// (otherwise the topology's own reference, followed on disk).
pub(super) fn load_inputs(args: &InputArgs) -> Result<LoadedRun, Exit> {
    if let Some(path) = &args.scenario {
        let text = std::fs::read(path).map_err(|e| {
            eprintln!("{}: cannot read the file: {e}", path.display());
            UNREADABLE
        })?;
        let text = String::from_utf8(text).map_err(|_| {
            eprintln!("{}: not UTF-8 text", path.display());
            INVALID
        })?;
        let file = scenario::read(&text).map_err(|ds| {
            print_diagnostics_in(Some(path), Some(&text), &ds);
            INVALID
        })?;
        return Ok(LoadedRun {
            file,
            label: path.display().to_string(),
            carbon_reference: CarbonReference::NotFollowed,
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
    Ok(LoadedRun {
        label: format!("{} on {}", wp.display(), tp.display()),
        file: ScenarioFile {
            topology,
            workload,
            carbon,
            policy,
            seed: 0,
            quantum_ms: policy_playground::sim::DEFAULT_QUANTUM_MS,
            semantics: Default::default(),
            what_if: Default::default(),
            warnings,
        },
        carbon_reference: CarbonReference::Followed,
    })
}
