//! Parameter sweeps over loaded handles ([`crate::sweep`]): one setting of the policy given
//! several values, each run under several seeds, metrics only (no run is kept).

use super::handles::{Handles, RunOptions, Session};
use super::runs::{parse_policy, parse_request};
use super::{guard, Answer};
use crate::diag::Diagnostic;
use crate::request::SWEEPABLE_OPTIONS;
use crate::sweep::{self, SweepReport, SweepSpec};

impl Session {
    /// Sweeps `spec` over the policy of `policy_text` on the handles' inputs, with the run
    /// options of [`Session::run`] (the first seed is `options.seed`); `progress(done, total)`
    /// after each run.
    pub fn sweep(
        &self,
        handles: &Handles,
        policy_text: &str,
        options: &RunOptions,
        spec: &SweepSpec,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Answer<SweepReport> {
        guard(|| {
            let (policy, _) = match parse_policy(policy_text) {
                Ok(read) => read,
                Err(errors) => return Answer::Failure { errors },
            };
            let (points, seeds) = match sweep::plan(&policy, spec, options.seed) {
                Ok(plan) => plan,
                Err(errors) => {
                    return Answer::Failure {
                        errors: errors.into_iter().map(|d| d.under("sweep")).collect(),
                    }
                }
            };
            // Every run uses the same inputs and options: check them once, before the first.
            if let Err(errors) = self
                .request(handles, &policy, options)
                .and_then(|r| r.options.sim_options(None).map(|_| ()))
            {
                return Answer::Failure { errors };
            }
            let mut failed: Option<Vec<Diagnostic>> = None;
            let report = sweep::run(
                &spec.parameter,
                points,
                seeds,
                crate::sweep::one_after_another(|policy, value, seed| {
                    let mut o = RunOptions {
                        seed,
                        ..options.clone()
                    };
                    if SWEEPABLE_OPTIONS.contains(&spec.parameter.as_str()) {
                        // Checked by the plan: a refused value never gets here.
                        o = o.with_option(&spec.parameter, value).unwrap_or(o);
                    }
                    match self.simulate(handles, policy, &o, None, &mut |_| {}) {
                        Ok(outcome) => outcome.result.metrics,
                        Err(errors) => {
                            failed.get_or_insert(errors);
                            Default::default()
                        }
                    }
                }),
                progress,
            );
            match failed {
                Some(errors) => Answer::Failure { errors },
                None => Answer::Success { value: report },
            }
        })
    }

    /// [`Session::sweep`] with its request as JSON text: `handles` and `options` as for
    /// [`Session::run`], `spec` `{"parameter", "values", "seeds"}`.
    pub fn sweep_json_str(
        &self,
        handles: &str,
        policy_text: &str,
        options: &str,
        spec: &str,
        progress: &mut dyn FnMut(usize, usize),
    ) -> String {
        let spec: SweepSpec = match serde_json::from_str(spec) {
            Ok(s) => s,
            Err(e) => {
                return Answer::<()>::Failure {
                    errors: vec![Diagnostic::error(
                        "sweep",
                        format!("not a sweep {{\"parameter\", \"values\", \"seeds\"}}: {e}"),
                    )],
                }
                .to_json_string()
            }
        };
        match parse_request(handles, options) {
            Ok((h, o)) => self
                .sweep(&h, policy_text, &o, &spec, progress)
                .to_json_string(),
            Err(errors) => Answer::<()>::Failure { errors }.to_json_string(),
        }
    }
}
