//! The portfolio over loaded handles ([`crate::portfolio`]): many policies on the same inputs
//! and options, each under the same seeds ([`Session::portfolio`], or in parts for the page's
//! two workers); and, needing no session, the Pareto front of any points
//! ([`pareto`]) and a portfolio's table as CSV ([`portfolio_csv`]). Runs are metrics only: no
//! run is kept (the page opens two policies in its timeline by running them as usual).

use super::handles::{Handles, RunOptions, Session};
use super::runs::{parse_policy, parse_request};
use super::{failure, guard, Answer};
use crate::diag::Diagnostic;
use crate::parallel::Split;
use crate::policy::Policy;
use crate::portfolio::pareto::{self, Pareto, ParetoRequest};
use crate::portfolio::{
    self as pf, Planned, PortfolioPart, PortfolioReport, PortfolioSpec, Settings,
};
use serde::de::DeserializeOwned;

impl Session {
    /// Runs every entry of `spec` on the handles' inputs under `options` (each entry with its
    /// own semantics when it names one), every one under the same seeds from `options.seed`;
    /// `progress` gets the fraction done.
    pub fn portfolio(
        &self,
        handles: &Handles,
        options: &RunOptions,
        spec: &PortfolioSpec,
        progress: &mut dyn FnMut(f64),
    ) -> Answer<PortfolioReport> {
        guard(|| {
            Answer::from(self.planned(handles, options, spec, |planned, settings| {
                pf::run(planned, settings, progress)
            }))
        })
    }

    /// Makes runs `from..to` of the portfolio [`Session::portfolio`] would make (run `k`: entry
    /// `k / seeds` under the `k % seeds`-th seed), for [`Session::portfolio_assemble`] in this
    /// or another session holding the same inputs: the page makes a portfolio's two halves in
    /// its two workers.
    pub fn portfolio_part(
        &self,
        handles: &Handles,
        options: &RunOptions,
        spec: &PortfolioSpec,
        runs: std::ops::Range<usize>,
        progress: &mut dyn FnMut(f64),
    ) -> Answer<PortfolioPart> {
        guard(|| {
            Answer::from(self.planned(handles, options, spec, |planned, settings| {
                let workers = crate::parallel::workers();
                pf::run_part(planned, settings, runs, progress, workers)
            }))
        })
    }

    /// The report of the portfolio whose runs are in `parts` (made by
    /// [`Session::portfolio_part`]): the same as [`Session::portfolio`]'s.
    pub fn portfolio_assemble(
        &self,
        handles: &Handles,
        options: &RunOptions,
        spec: &PortfolioSpec,
        parts: Vec<PortfolioPart>,
    ) -> Answer<PortfolioReport> {
        guard(|| {
            Answer::from(self.planned(handles, options, spec, |planned, settings| {
                pf::assemble(planned, settings, parts)
            }))
        })
    }

    /// `then` of the portfolio's planned runs and settings: the settings checked first, then
    /// the entries' policies, then every run's inputs and options, once, before the first run.
    fn planned<R>(
        &self,
        handles: &Handles,
        options: &RunOptions,
        spec: &PortfolioSpec,
        then: impl FnOnce(&[Planned], &Settings) -> Result<R, Vec<Diagnostic>>,
    ) -> Result<R, Vec<Diagnostic>> {
        let (settings, policies) = settings_and_policies(spec, options)?;
        let planned = self.plan(handles, options, spec, &policies)?;
        then(&planned, &settings)
    }

    /// The planned runs of a portfolio's `policies` (its options checked once, before the
    /// first run).
    fn plan<'s>(
        &'s self,
        handles: &Handles,
        options: &RunOptions,
        spec: &PortfolioSpec,
        policies: &'s [Policy],
    ) -> Result<Vec<Planned<'s>>, Vec<Diagnostic>> {
        let mut planned = Vec::with_capacity(policies.len());
        for (e, policy) in spec.entries.iter().zip(policies) {
            let mut o = options.clone();
            if let Some(semantics) = e.semantics {
                o.semantics = semantics;
            }
            let request = self.request(handles, policy, &o)?;
            request.options.sim_options(None)?;
            planned.push(Planned {
                label: e.label.clone(),
                request,
            });
        }
        Ok(planned)
    }

    /// [`Session::portfolio`] with its request as JSON text: `handles` and `options` as for
    /// [`Session::run`], `spec` a [`PortfolioSpec`].
    pub fn portfolio_json_str(
        &self,
        handles: &str,
        options: &str,
        spec: &str,
        progress: &mut dyn FnMut(f64),
    ) -> String {
        match read_portfolio(handles, options, spec) {
            Ok((h, o, spec)) => self.portfolio(&h, &o, &spec, progress).to_json_string(),
            Err(failure) => failure,
        }
    }

    /// How the page shares the runs of this portfolio between its two workers
    /// ([`crate::parallel::Split`]), from the number of runs and the workload's size.
    pub fn portfolio_split(
        &self,
        handles: &Handles,
        options: &RunOptions,
        spec: &PortfolioSpec,
    ) -> Answer<Split> {
        guard(|| {
            Answer::from(
                Settings::new(spec.entries.len(), spec, options.seed)
                    .and_then(|s| self.split(handles, spec.entries.len() * s.seeds.len())),
            )
        })
    }

    /// [`Session::portfolio_split`] with its request as JSON text.
    pub fn portfolio_split_json_str(&self, handles: &str, options: &str, spec: &str) -> String {
        match read_portfolio(handles, options, spec) {
            Ok((h, o, spec)) => self.portfolio_split(&h, &o, &spec).to_json_string(),
            Err(failure) => failure,
        }
    }

    /// [`Session::portfolio_part`] with its request as JSON text (as
    /// [`Session::portfolio_json_str`]) and runs `from..to`.
    pub fn portfolio_part_json_str(
        &self,
        handles: &str,
        options: &str,
        spec: &str,
        runs: std::ops::Range<usize>,
        progress: &mut dyn FnMut(f64),
    ) -> String {
        match read_portfolio(handles, options, spec) {
            Ok((h, o, spec)) => self
                .portfolio_part(&h, &o, &spec, runs, progress)
                .to_json_string(),
            Err(failure) => failure,
        }
    }

    /// [`Session::portfolio_assemble`] with its request as JSON text (as
    /// [`Session::portfolio_json_str`]) and `parts` a JSON array of the parts' values.
    pub fn portfolio_assemble_json_str(
        &self,
        handles: &str,
        options: &str,
        spec: &str,
        parts: &str,
    ) -> String {
        let parts: Vec<PortfolioPart> = match read(parts, "parts", "[{\"from\", \"runs\"}]") {
            Ok(p) => p,
            Err(e) => return e,
        };
        match read_portfolio(handles, options, spec) {
            Ok((h, o, spec)) => self
                .portfolio_assemble(&h, &o, &spec, parts)
                .to_json_string(),
            Err(failure) => failure,
        }
    }
}

/// A portfolio's settings (checked first), then the policies of its entries, each error under
/// its entry and label.
fn settings_and_policies(
    spec: &PortfolioSpec,
    options: &RunOptions,
) -> Result<(Settings, Vec<Policy>), Vec<Diagnostic>> {
    let settings = Settings::new(spec.entries.len(), spec, options.seed)?;
    let mut policies: Vec<Policy> = Vec::with_capacity(spec.entries.len());
    let mut errors = Vec::new();
    for (i, e) in spec.entries.iter().enumerate() {
        match parse_policy(&e.policy) {
            Ok((p, _)) => policies.push(p),
            Err(ds) => errors.extend(ds.into_iter().map(|d| {
                let mut d = d.under(&format!("entries[{i}]"));
                d.message = format!("{}: {}", e.label, d.message);
                d
            })),
        }
    }
    if errors.is_empty() {
        Ok((settings, policies))
    } else {
        Err(errors)
    }
}

/// A portfolio request's handles, options and spec read from JSON text, or the failure's JSON
/// text.
fn read_portfolio(
    handles: &str,
    options: &str,
    spec: &str,
) -> Result<(Handles, RunOptions, PortfolioSpec), String> {
    let spec: PortfolioSpec = read(spec, "portfolio", PORTFOLIO_SHAPE)?;
    parse_request(handles, options)
        .map(|(h, o)| (h, o, spec))
        .map_err(|errors| Answer::<()>::Failure { errors }.to_json_string())
}

/// What a portfolio request looks like, for its error message.
const PORTFOLIO_SHAPE: &str =
    "{\"entries\": [{\"label\", \"policy\"}], \"seeds\", \"baseline\", \"x\", \"y\"}";

/// A request read from JSON text, or the failure's JSON text naming what was expected.
fn read<T: DeserializeOwned>(text: &str, path: &str, shape: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| {
        Answer::<()>::Failure {
            errors: vec![Diagnostic::error(
                path,
                format!("not a {path} request {shape}: {e}"),
            )],
        }
        .to_json_string()
    })
}

/// The Pareto front of points in two metrics, each with its direction from the catalog.
pub fn pareto(request: &ParetoRequest) -> Answer<Pareto> {
    guard(
        || match pareto::pareto(&request.x, &request.y, &request.points) {
            Ok(value) => Answer::Success { value },
            Err(errors) => Answer::Failure { errors },
        },
    )
}

/// [`pareto`] from JSON text (`{"x", "y", "points": [{"x", "y"}]}`), as JSON text.
pub fn pareto_json_str(request: &str) -> String {
    match read::<ParetoRequest>(
        request,
        "pareto",
        "{\"x\": metric, \"y\": metric, \"points\": [{\"x\", \"y\"}]}",
    ) {
        Ok(r) => pareto(&r).to_json_string(),
        Err(e) => e,
    }
}

/// A portfolio report (its JSON text) as the CSV of its table ([`crate::portfolio::csv`]).
pub fn portfolio_csv(report_json: &str) -> Answer<String> {
    guard(
        || match serde_json::from_str::<pf::csv::TableInput>(report_json) {
            Ok(input) => Answer::Success {
                value: pf::csv::table(&input),
            },
            Err(e) => failure(format!("not a portfolio report: {e}")),
        },
    )
}

/// [`portfolio_csv`] as JSON text.
pub fn portfolio_csv_json_str(report_json: &str) -> String {
    portfolio_csv(report_json).to_json_string()
}
