//! The page's timeline as bars: one per wait, run, deferral, pause and termination of every
//! task, in the lane of its host, sorted by (lane, start, kind), each with a row within its lane
//! so that concurrent tasks do not overlap. The page draws these arrays as they come (a frame
//! reads only the lanes in view and, by binary search, the bars of the time in view).
//!
//! The rules (those `www/src/timeline.js` applied before): everything before a run (queueing, a
//! deferral, a pause) is drawn in that run's lane; a task that never started is one terminated
//! bar from its submission to its end in a lane of its own ("never placed", after the hosts); a
//! terminated task that ran gets a zero-length terminated mark at its end. A task's extent in a
//! lane takes the first row free at its start, the extents taken in order of start (ties in
//! order of the tasks).

use super::columns::{Column, RunColumns};
use serde::Serialize;

/// Bar kinds, as codes of [`TimelineBars::kind`].
pub const WAIT: u8 = 0;
pub const DEFER: u8 = 1;
pub const PAUSE: u8 = 2;
pub const RUN: u8 = 3;
pub const TERM: u8 = 4;

/// The bars of a run's timeline, as columns. Bar `j` spans `from[j]..to[j]` (simulation ms) in
/// lane `lane[j]`, row `row[j]`; its kind is `kind[j]` (0 queued, 1 deferred, 2 paused, 3
/// running, 4 terminated) and its task `task[j]`. The bars of lane `l` are
/// `laneStart[l]..laneStart[l + 1]`, in order of start; those of task `i` are `taskBars[k]` for
/// `k` in `taskBarStart[i]..taskBarStart[i + 1]`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TimelineBars {
    /// Hosts, plus one lane for tasks never placed when there are any.
    pub lanes: u32,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub from: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub to: Vec<f64>,
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub lane: Vec<i32>,
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub row: Vec<i32>,
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub kind: Vec<u8>,
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub task: Vec<i32>,
    /// `lanes + 1` offsets.
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub lane_start: Vec<i32>,
    /// Rows of each lane (at least 1).
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub lane_rows: Vec<i32>,
    /// The longest bar of each lane, ms (a search back from a time needs go no further).
    #[cfg_attr(feature = "ts", ts(type = "Float64Array"))]
    pub lane_max_dur: Vec<f64>,
    /// `tasks + 1` offsets into `taskBars`.
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub task_bar_start: Vec<i32>,
    #[cfg_attr(feature = "ts", ts(type = "Int32Array"))]
    pub task_bars: Vec<i32>,
    /// 1 for a completed task that finished after its deadline.
    #[cfg_attr(feature = "ts", ts(type = "Uint8Array"))]
    pub missed: Vec<u8>,
}

/// One bar before sorting.
#[derive(Clone, Copy)]
struct Bar {
    from: i64,
    to: i64,
    lane: u32,
    kind: u8,
    task: u32,
}

/// The bars of every task, in the order the rules above give them per task.
fn task_bars(c: &RunColumns, unplaced: u32) -> (Vec<Bar>, bool) {
    let lane_of = |h: i32| if h < 0 { unplaced } else { h as u32 };
    let mut bars = Vec::with_capacity(c.run_from.len() * 2 + c.deferral_from.len());
    let mut any_unplaced = false;
    let ms = |v: f64| v as i64;
    for i in 0..c.task_count as usize {
        let task = i as u32;
        let mut push = |kind, lane, from: i64, to: i64| {
            bars.push(Bar {
                from,
                to: to.max(from),
                lane,
                kind,
                task,
            })
        };
        let runs = c.run_start[i] as usize..c.run_start[i + 1] as usize;
        if runs.is_empty() {
            any_unplaced = true;
            push(TERM, unplaced, ms(c.submit_ms[i]), ms(c.finish_ms[i]));
            continue;
        }
        let last = lane_of(c.run_host[runs.end - 1]);
        // The lane of the first run starting at or after `t` (else the last run's).
        let lane_before = |t: i64| {
            runs.clone()
                .find(|&k| ms(c.run_from[k]) >= t)
                .map_or(last, |k| lane_of(c.run_host[k]))
        };
        let mut pre = ms(c.submit_ms[i]);
        for k in runs.clone() {
            let (from, to) = (ms(c.run_from[k]), ms(c.run_to[k]));
            let lane = lane_of(c.run_host[k]);
            if pre < from {
                push(WAIT, lane, pre, from);
            }
            push(RUN, lane, from, to);
            pre = to;
        }
        for k in c.deferral_start[i] as usize..c.deferral_start[i + 1] as usize {
            let (from, to) = (ms(c.deferral_from[k]), ms(c.deferral_to[k]));
            push(DEFER, lane_before(to), from, to);
        }
        for k in c.pause_start[i] as usize..c.pause_start[i + 1] as usize {
            let (from, to) = (ms(c.pause_from[k]), ms(c.pause_to[k]));
            push(PAUSE, lane_before(to), from, to);
        }
        if c.state_names[c.state[i] as usize] == "terminated" {
            let end = ms(c.finish_ms[i]);
            push(TERM, last, end, end);
        }
    }
    (bars, any_unplaced)
}

/// The row of each (task, lane) extent: `rows[k]` for the k-th extent in order of first bar,
/// with the rows each lane needs.
fn rows(bars: &[Bar], lanes: usize) -> (Vec<(u32, u32, i32)>, Vec<i32>) {
    // (task, lane, from, to), in order of each extent's first bar: a task's bars are together.
    let mut extents: Vec<(u32, u32, i64, i64)> = Vec::new();
    let mut first_of_task = 0;
    for (b, bar) in bars.iter().enumerate() {
        if b > 0 && bars[b - 1].task != bar.task {
            first_of_task = extents.len();
        }
        match extents[first_of_task..]
            .iter_mut()
            .find(|e| e.1 == bar.lane)
        {
            Some(e) => {
                e.2 = e.2.min(bar.from);
                e.3 = e.3.max(bar.to);
            }
            None => extents.push((bar.task, bar.lane, bar.from, bar.to)),
        }
    }
    let mut order: Vec<usize> = (0..extents.len()).collect();
    order.sort_by_key(|&k| (extents[k].1, extents[k].2)); // stable: ties keep their order
    let mut lane_rows = vec![1i32; lanes];
    let mut row_of = vec![(0u32, 0u32, 0i32); extents.len()];
    let mut ends: Vec<i64> = Vec::new();
    let mut current = u32::MAX;
    for k in order {
        let (task, lane, from, to) = extents[k];
        if lane != current {
            ends.clear();
            current = lane;
        }
        let r = ends
            .iter()
            .position(|&end| end <= from)
            .unwrap_or(ends.len());
        if r == ends.len() {
            ends.push(to);
        } else {
            ends[r] = to;
        }
        row_of[k] = (task, lane, r as i32);
        lane_rows[lane as usize] = lane_rows[lane as usize].max(r as i32 + 1);
    }
    (row_of, lane_rows)
}

impl TimelineBars {
    /// The timeline of a run's columns.
    pub fn from_columns(c: &RunColumns) -> TimelineBars {
        let hosts = c.host_count;
        let n_tasks = c.task_count as usize;
        let (bars, any_unplaced) = task_bars(c, hosts);
        let lanes = hosts as usize + usize::from(any_unplaced);
        let (row_of, lane_rows) = rows(&bars, lanes);
        // The row of each bar: its (task, lane) extent's, found among its task's extents.
        let mut bar_row = vec![0i32; bars.len()];
        let mut e = 0;
        for (b, bar) in bars.iter().enumerate() {
            while e < row_of.len() && row_of[e].0 < bar.task {
                e += 1;
            }
            let mut k = e;
            while k < row_of.len() && row_of[k].0 == bar.task && row_of[k].1 != bar.lane {
                k += 1;
            }
            bar_row[b] = row_of.get(k).map_or(0, |x| x.2);
        }
        let mut order: Vec<usize> = (0..bars.len()).collect();
        order.sort_by_key(|&j| (bars[j].lane, bars[j].from, bars[j].kind)); // stable
        let mut t = TimelineBars {
            lanes: lanes as u32,
            lane_start: vec![0; lanes + 1],
            lane_rows,
            lane_max_dur: vec![0.0; lanes],
            task_bar_start: vec![0; n_tasks + 1],
            task_bars: vec![0; bars.len()],
            missed: vec![0; n_tasks],
            ..TimelineBars::default()
        };
        for &j in &order {
            let b = bars[j];
            t.from.push(b.from as f64);
            t.to.push(b.to as f64);
            t.lane.push(b.lane as i32);
            t.row.push(bar_row[j]);
            t.kind.push(b.kind);
            t.task.push(b.task as i32);
            let d = (b.to - b.from) as f64;
            if d > t.lane_max_dur[b.lane as usize] {
                t.lane_max_dur[b.lane as usize] = d;
            }
            t.lane_start[b.lane as usize + 1] += 1;
            t.task_bar_start[b.task as usize + 1] += 1;
        }
        for l in 0..lanes {
            t.lane_start[l + 1] += t.lane_start[l];
        }
        for i in 0..n_tasks {
            t.task_bar_start[i + 1] += t.task_bar_start[i];
        }
        let mut fill: Vec<i32> = t.task_bar_start[..n_tasks].to_vec();
        for (j, &task) in t.task.iter().enumerate() {
            t.task_bars[fill[task as usize] as usize] = j as i32;
            fill[task as usize] += 1;
        }
        for i in 0..n_tasks {
            let completed = c.state_names[c.state[i] as usize] == "completed";
            if completed && c.finish_ms[i] > c.deadline_ms[i] {
                t.missed[i] = 1; // NaN (no deadline) compares false
            }
        }
        t
    }

    /// Every typed-array column by its name on the page (the serialized field names).
    pub fn columns(&self) -> Vec<(&'static str, Column<'_>)> {
        use Column::*;
        vec![
            ("from", F64(&self.from)),
            ("to", F64(&self.to)),
            ("lane", I32(&self.lane)),
            ("row", I32(&self.row)),
            ("kind", U8(&self.kind)),
            ("task", I32(&self.task)),
            ("laneStart", I32(&self.lane_start)),
            ("laneRows", I32(&self.lane_rows)),
            ("laneMaxDur", F64(&self.lane_max_dur)),
            ("taskBarStart", I32(&self.task_bar_start)),
            ("taskBars", I32(&self.task_bars)),
            ("missed", U8(&self.missed)),
        ]
    }
}
