//! Exports of what a session holds, for the page's download buttons: the scenario file (one
//! JSON document the CLI and the page read back to the same run), an OpenDC experiment with its
//! topology (to take a policy explored here to a real OpenDC study), and a workload or carbon
//! trace as OpenDC parquet (bytes: the wasm facade hands them to JavaScript as `Uint8Array`s).

use super::handles::{Held, Session};
use super::runs::{parse_policy, Handles, RunOptions};
use super::{failure, guard, Answer};
use crate::diag::Diagnostic;
use crate::output;
use crate::policy::Policy;
use crate::request;
use serde::Serialize;
use serde_json::{json, Value};

/// Scenario files with at most this many tasks are pretty-printed (a teacher reads them);
/// larger ones are compact.
const PRETTY_TASKS: usize = 2000;

/// An OpenDC experiment of the page's run: the experiment file, its topology file and notes on
/// what OpenDC does differently (the page zips them with the parquet files).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OpenDcExport {
    /// `experiment.json`, in OpenDC's format.
    pub experiment: Value,
    /// `topology.json`, in OpenDC's format.
    pub topology: Value,
    /// What OpenDC does differently for this policy and these options.
    pub notes: Vec<String>,
}

/// A workload as OpenDC's two parquet files.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WorkloadParquet {
    /// `tasks.parquet`.
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub tasks: Vec<u8>,
    /// `fragments.parquet`.
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub fragments: Vec<u8>,
}

impl Session {
    /// The policy read, and its text as a JSON value (exports keep it as written).
    fn policy_value(policy_text: &str) -> Result<(Policy, Value), Vec<Diagnostic>> {
        let (policy, _) = parse_policy(policy_text)?;
        let value = serde_json::from_str(policy_text)
            .map_err(|e| vec![Diagnostic::error("policy", format!("not JSON: {e}"))])?;
        Ok((policy, value))
    }

    /// A scenario file holding the handles' inputs (host counts applied), the policy as written,
    /// the seed, the quantum and, under Current, the semantics, with the carbon what-ifs that are
    /// set: `simulate --scenario` on it gives the run the page showed.
    pub fn export_scenario(
        &self,
        h: &Handles,
        policy_text: &str,
        o: &RunOptions,
    ) -> Answer<String> {
        guard(|| {
            let built = (|| {
                let (parsed, policy) = Self::policy_value(policy_text)?;
                let request = self.request(h, &parsed, o)?;
                let (topology, workload, carbon) = (
                    &*request.topology()?,
                    request.inputs.workload,
                    request.inputs.carbon,
                );
                let quantum = request::quantum(o.quantum_ms).map_err(|e| vec![e])?;
                let mut scenario = json!({
                    "topology": output::json::topology(topology, topology.carbon_ref.as_deref()),
                    "workload": output::json::workload(workload),
                });
                if let Some(c) = carbon {
                    scenario["carbon"] = output::json::carbon(c);
                }
                scenario["policy"] = policy;
                scenario["seed"] = json!(o.seed);
                scenario["quantumMs"] = json!(quantum);
                if !o.semantics.is_classic() {
                    scenario["semantics"] = json!(o.semantics);
                }
                o.what_if().write(&mut scenario);
                let text = if workload.tasks.len() <= PRETTY_TASKS {
                    serde_json::to_string_pretty(&scenario)
                } else {
                    serde_json::to_string(&scenario)
                };
                text.map_err(|e| vec![Diagnostic::error("", e.to_string())])
            })();
            match built {
                Ok(value) => Answer::Success { value },
                Err(errors) => Answer::Failure { errors },
            }
        })
    }

    /// An OpenDC experiment running the policy on the handles' inputs, with its topology (the
    /// carbon trace referenced as `carbon.parquet`, the workload as the folder `workload/` of
    /// [`Session::export_workload_parquet`]'s two files), and notes on what OpenDC does
    /// differently.
    pub fn export_opendc_experiment(
        &self,
        h: &Handles,
        policy_text: &str,
        o: &RunOptions,
    ) -> Answer<OpenDcExport> {
        guard(|| {
            let built = (|| {
                let (parsed, policy) = Self::policy_value(policy_text)?;
                let request = self.request(h, &parsed, o)?;
                let (topology, carbon) = (&*request.topology()?, request.inputs.carbon);
                let carbon_path = carbon.map(|_| "carbon.parquet");
                let quantum = request::quantum(o.quantum_ms).map_err(|e| vec![e])?;
                let notes = super::opendc_notes::notes(&parsed, quantum, carbon.is_some());
                Ok::<_, Vec<Diagnostic>>(OpenDcExport {
                    experiment: json!({
                        "name": "policy-playground",
                        "initialSeed": o.seed,
                        "runs": 1,
                        "topologies": [{"pathToFile": "topology.json"}],
                        "workloads": [{"pathToFile": "workload", "type": "ComputeWorkload"}],
                        "allocationPolicies": [policy],
                        "exportModels": [{"exportInterval": 3600}],
                    }),
                    topology: output::json::topology(topology, carbon_path),
                    notes,
                })
            })();
            match built {
                Ok(value) => Answer::Success { value },
                Err(errors) => Answer::Failure { errors },
            }
        })
    }

    /// A loaded workload as OpenDC's `tasks.parquet` and `fragments.parquet`. Task names are
    /// not kept (OpenDC's files have none).
    pub fn export_workload_parquet(&self, handle: u32) -> Answer<WorkloadParquet> {
        guard(|| match self.get(handle, "workload") {
            Ok(Held::Workload(w)) => match output::parquet::workload(w) {
                Ok((tasks, fragments)) => Answer::Success {
                    value: WorkloadParquet { tasks, fragments },
                },
                Err(e) => failure(format!("could not write the workload as parquet: {e}")),
            },
            Ok(_) => failure(format!("handle {handle} is not a workload")),
            Err(errors) => Answer::Failure { errors },
        })
    }

    /// A loaded carbon trace as OpenDC's carbon parquet file.
    pub fn export_carbon_parquet(&self, handle: u32) -> Answer<Vec<u8>> {
        guard(|| match self.get(handle, "carbon trace") {
            Ok(Held::Carbon(c)) => match output::parquet::carbon(c) {
                Ok(bytes) => Answer::Success { value: bytes },
                Err(e) => failure(format!("could not write the carbon trace as parquet: {e}")),
            },
            Ok(_) => failure(format!("handle {handle} is not a carbon trace")),
            Err(errors) => Answer::Failure { errors },
        })
    }
}
