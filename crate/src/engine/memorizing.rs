//! The memorizing scheduler (SPEC 6.3): hosts kept in buckets by their number of running tasks;
//! a task goes to the first host, in topology order, of the lowest bucket holding a host that
//! passes the filters. Weighers and `subsetSize` play no part.
//!
//! The buckets are one ordered set of `(running tasks, host index)`, so the walk visits hosts in
//! exactly the order of the rule and stops at the first fit; keeping it current costs O(log n)
//! per placement or release.

use super::explain::{self, HostRow, Placement};
use super::filter;
use super::host::{Demand, HostState};
use crate::policy::Filter;
use std::collections::BTreeSet;

/// Hosts ordered by (running tasks, topology index).
#[derive(Debug, Clone, Default)]
pub struct Buckets {
    order: BTreeSet<(u32, u32)>,
}

impl Buckets {
    /// Buckets for hosts in their current state.
    pub fn new(hosts: &[HostState]) -> Self {
        Buckets {
            order: hosts
                .iter()
                .enumerate()
                .map(|(i, h)| (h.instance_count, i as u32))
                .collect(),
        }
    }

    /// Moves a host whose running-task count changed from `before` to `after`.
    pub fn moved(&mut self, host: usize, before: u32, after: u32) {
        if before != after {
            self.order.remove(&(before, host as u32));
            self.order.insert((after, host as u32));
        }
    }

    /// The first fitting host of the lowest bucket, `None` when no host fits.
    pub fn select(&self, filters: &[Filter], hosts: &[HostState], d: &Demand) -> Option<usize> {
        self.order
            .iter()
            .map(|&(_, i)| i as usize)
            .find(|&i| filter::first_failing(filters, &hosts[i], d).is_none())
    }

    /// The explanation of [`Buckets::select`]'s decision with the same arguments: every host's
    /// bucket, filter verdict and place in the walk.
    pub fn explain(
        &self,
        filters: &[Filter],
        hosts: &[HostState],
        names: &[String],
        d: &Demand,
        chosen: Option<usize>,
    ) -> Placement {
        let mut rows: Vec<Option<HostRow>> = vec![None; hosts.len()];
        let mut candidates = 0;
        for (walk, &(bucket, i)) in self.order.iter().enumerate() {
            let i = i as usize;
            let h = &hosts[i];
            let failing = filter::first_failing(filters, h, d);
            candidates += failing.is_none() as usize;
            rows[i] = Some(HostRow {
                name: names[i].clone(),
                passed: failing.is_none(),
                rejected_by: failing.map(|f| filters[f].name()),
                reason: failing.map(|f| filter::reason(&filters[f], h, d)),
                scores: vec![],
                total: None,
                rank: Some(walk + 1),
                bucket: Some(bucket),
            });
        }
        let rows: Vec<HostRow> = rows.into_iter().flatten().collect();
        let chosen = chosen.map(|i| names[i].clone());
        Placement {
            scheduler: "memorizing",
            summary: explain::summary(&rows, chosen.as_deref()),
            hosts: rows,
            weighers: vec![],
            candidates,
            subset: candidates.min(1),
            draw: None,
            chosen,
            ..Placement::classic()
        }
    }
}
