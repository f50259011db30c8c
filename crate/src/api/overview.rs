//! [`Session::overview`]: the cluster overview of a kept run ([`crate::overview`]), per host
//! group, computed by running it again (runs are deterministic; a bulk run keeps no spans).

use super::handles::Session;
use super::{guard, Answer};
use crate::diag::Diagnostic;
use crate::overview::{self, Overview, MAX_BUCKETS, MIN_BUCKETS};

impl Session {
    /// The overview of kept run `run` in `buckets` equal time buckets over `[0, makespan]`
    /// ([`MIN_BUCKETS`] to [`MAX_BUCKETS`]; others are refused under `buckets`).
    pub fn overview(&self, run: u32, buckets: u32) -> Answer<Overview> {
        if !(MIN_BUCKETS..=MAX_BUCKETS).contains(&buckets) {
            return refuse_buckets(&buckets);
        }
        guard(|| match self.overview_of(run, buckets) {
            Ok(value) => Answer::Success { value },
            Err(errors) => Answer::Failure { errors },
        })
    }

    /// [`Session::overview`] as JSON text, `buckets` as the page gives it (a JavaScript number,
    /// which must be whole and in range).
    pub fn overview_json_str(&self, run: u32, buckets: f64) -> String {
        match overview::buckets_from(buckets) {
            Ok(b) => self.overview(run, b).to_json_string(),
            Err(_) => refuse_buckets::<()>(&buckets).to_json_string(),
        }
    }

    fn overview_of(&self, run: u32, buckets: u32) -> Result<Overview, Vec<Diagnostic>> {
        let kept = self.run_inputs(run)?;
        let request = self.request(&kept.handles, &kept.policy, &kept.options)?;
        let outcome = request.run(&mut |_| {})?;
        let topology = request.topology()?;
        Ok(overview::overview(&topology, &outcome.result, buckets))
    }
}

/// The failure of a bucket count out of range, under `buckets`.
fn refuse_buckets<T>(found: &dyn std::fmt::Display) -> Answer<T> {
    Answer::Failure {
        errors: vec![Diagnostic::error("buckets", overview::bad_buckets(found))],
    }
}
