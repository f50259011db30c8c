//! The page's run as an OpenDC3 (SDK) experiment folder (SPEC 11.11): `experiment.json`, the
//! workload's two parquet files, the carbon trace as parquet and the notes, as bytes the page
//! zips (and the CLI writes as a folder). The legacy export
//! ([`Session::export_opendc_experiment`]) stays, for `opendc --legacy`.

use super::handles::{Held, Session};
use super::runs::{parse_policy, Handles, RunOptions};
use super::{guard, Answer};
use crate::diag::Diagnostic;
use crate::model::{CarbonTrace, Topology, Workload};
use crate::output::{self, opendc3};
use crate::policy::Policy;
use crate::request;
use serde::Serialize;
use serde_json::Value;

/// An OpenDC3 experiment folder's files.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OpenDc3Export {
    /// `experiment.json`, in OpenDC3's SDK format.
    pub experiment: Value,
    /// `NOTES.md`'s items: what OpenDC3 does differently for these policies and options.
    pub notes: Vec<String>,
    /// `workload/tasks.parquet`.
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub tasks: Vec<u8>,
    /// `workload/fragments.parquet`.
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub fragments: Vec<u8>,
    /// `carbon.parquet`, when the run has a carbon trace.
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array | null"))]
    pub carbon: Option<Vec<u8>>,
}

impl Session {
    /// A session holding these inputs (as read elsewhere, for example from disk by the CLI) and
    /// their handles, so that every export of a session is one code path.
    pub fn holding(
        topology: Topology,
        workload: Workload,
        carbon: Option<CarbonTrace>,
    ) -> Result<(Session, Handles), Vec<Diagnostic>> {
        let mut s = Session::new();
        let mut keep = |item: Held| match s.keep(item) {
            Answer::Success { value } => Ok(value.handle),
            Answer::Failure { errors } => Err(errors),
        };
        let topology = keep(Held::Topology(topology))?;
        let workload = keep(Held::Workload(workload))?;
        let carbon = carbon.map(|c| keep(Held::Carbon(c))).transpose()?;
        let handles = Handles {
            topology,
            workload,
            carbon,
        };
        Ok((s, handles))
    }

    /// An OpenDC3 experiment running the policy on the handles' inputs (host counts applied),
    /// with its seed, quantum and semantics: [`Session::export_opendc3_policies`] for one policy.
    pub fn export_opendc3(
        &self,
        h: &Handles,
        policy_text: &str,
        o: &RunOptions,
    ) -> Answer<OpenDc3Export> {
        self.export_opendc3_policies(h, &[policy_text], o)
    }

    /// An OpenDC3 experiment with one `allocationPolicies` entry per policy text, in order; a
    /// policy with errors, or one OpenDC3 cannot express, is a failure naming it.
    pub fn export_opendc3_policies(
        &self,
        h: &Handles,
        policy_texts: &[&str],
        o: &RunOptions,
    ) -> Answer<OpenDc3Export> {
        guard(|| match self.opendc3(h, policy_texts, o) {
            Ok(value) => Answer::Success { value },
            Err(errors) => Answer::Failure { errors },
        })
    }

    fn opendc3(
        &self,
        h: &Handles,
        policy_texts: &[&str],
        o: &RunOptions,
    ) -> Result<OpenDc3Export, Vec<Diagnostic>> {
        let policies = read_policies(policy_texts)?;
        let mem = crate::policy::prefab::default_policy();
        let first = policies.first().map_or(&mem, |(p, _)| p);
        let request = self.request(h, first, o)?;
        let (topology, carbon) = (&*request.topology()?, request.inputs.carbon);
        let entries: Vec<opendc3::PolicyEntry> = policies
            .iter()
            .map(|(policy, written)| opendc3::PolicyEntry {
                policy,
                written: written.as_ref(),
            })
            .collect();
        let exported = opendc3::experiment(&opendc3::Run {
            topology,
            workload: request.inputs.workload,
            policies: &entries,
            seed: o.seed,
            quantum_ms: request::quantum(o.quantum_ms).map_err(|e| vec![e])?,
            has_carbon: carbon.is_some(),
            semantics: o.semantics,
        })?;
        let (tasks, fragments) = output::parquet::workload(&exported.workload)
            .map_err(|e| parquet_error("the workload", e))?;
        let carbon = carbon
            .map(output::parquet::carbon)
            .transpose()
            .map_err(|e| parquet_error("the carbon trace", e))?;
        Ok(OpenDc3Export {
            experiment: exported.experiment,
            notes: exported.notes,
            tasks,
            fragments,
            carbon,
        })
    }
}

/// Each policy text read, with its JSON as written; errors placed under
/// `allocationPolicies[i]` when there are several.
/// The policy texts of a portfolio export: a JSON array of at most
/// [`crate::portfolio::MAX_POLICIES`] strings, each a policy's text (as the editor holds it).
pub fn policy_texts(json: &str) -> Result<Vec<String>, Vec<Diagnostic>> {
    let at = |message: String| vec![Diagnostic::error("policies", message)];
    let texts: Vec<String> = serde_json::from_str(json).map_err(|e| {
        at(format!(
            "expected a JSON array of policy texts (strings): {e}"
        ))
    })?;
    if texts.len() > crate::portfolio::MAX_POLICIES {
        return Err(at(format!(
            "{} policies; a portfolio holds at most {}",
            texts.len(),
            crate::portfolio::MAX_POLICIES
        )));
    }
    Ok(texts)
}

fn read_policies(texts: &[&str]) -> Result<Vec<(Policy, Option<Value>)>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let placed = |ds: Vec<Diagnostic>| -> Vec<Diagnostic> {
            if texts.len() == 1 {
                ds
            } else {
                ds.into_iter()
                    .map(|d| d.under(&format!("allocationPolicies[{i}]")))
                    .collect()
            }
        };
        match parse_policy(text) {
            Ok((policy, _)) => out.push((policy, serde_json::from_str(text).ok())),
            Err(ds) => errors.extend(placed(ds)),
        }
    }
    if texts.is_empty() {
        errors.push(Diagnostic::error(
            "allocationPolicies",
            "an export needs at least one policy",
        ));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

fn parquet_error(what: &str, e: String) -> Vec<Diagnostic> {
    vec![Diagnostic::error(
        "",
        format!("could not write {what} as parquet: {e}"),
    )]
}

#[cfg(test)]
mod tests {
    use super::policy_texts;

    #[test]
    fn policy_texts_reads_an_array_of_strings_in_order() {
        let texts = policy_texts(r#"["{\"type\":\"prefab\",\"policyName\":\"Mem\"}", "x"]"#);
        assert_eq!(
            texts.as_deref(),
            Ok(&[
                r#"{"type":"prefab","policyName":"Mem"}"#.to_string(),
                "x".into()
            ][..])
        );
    }

    #[test]
    fn policy_texts_refuses_other_json_and_too_many_policies() {
        let errors = policy_texts(r#"{"a": 1}"#).expect_err("an object");
        assert_eq!(errors[0].path, "policies");
        assert!(errors[0].message.contains("expected a JSON array"));
        let many = serde_json::to_string(&vec!["p"; crate::portfolio::MAX_POLICIES + 1])
            .expect("strings serialise");
        let errors = policy_texts(&many).expect_err("too many");
        assert!(errors[0]
            .message
            .contains("65 policies; a portfolio holds at most 64"));
        let most = serde_json::to_string(&vec!["p"; crate::portfolio::MAX_POLICIES])
            .expect("strings serialise");
        assert_eq!(policy_texts(&most).map(|t| t.len()), Ok(64));
    }
}
