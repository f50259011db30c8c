//! A run's notes (`crate::notes`): each says when a policy feature cannot act on the inputs,
//! and stays silent when it can.

#[path = "explanations/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "explanations/runs.rs"]
#[allow(dead_code)]
mod runs;

use policy_playground::notes::{notes, Note};
use policy_playground::policy::prefab::TIMESHIFT_DEFAULTS;
use policy_playground::policy::{Filter, Policy, TaskStopper, Timeshift, WeigherKind};
use policy_playground::request::{CarbonReference, Inputs, RunRequest};
use runs::{hourly, task, topology, workload, Task, H};

/// The notes of a run of `tasks` on hosts A and B (4 cores each) with an hourly carbon trace.
fn notes_of(p: &Policy, tasks: &[Task]) -> Vec<Note> {
    let topology = topology(&[("A", 4), ("B", 4)]);
    let workload = workload(tasks);
    let carbon = hourly(&[100.0, 300.0, 50.0, 50.0]);
    let inputs = Inputs {
        topology: &topology,
        workload: &workload,
        carbon: Some(&carbon),
    };
    let request = RunRequest::new(inputs, p, CarbonReference::NotFollowed);
    let outcome = request.run(&mut |_| {}).expect("the run");
    notes(p, &workload, &outcome.result)
}

fn features(notes: &[Note]) -> Vec<&str> {
    notes.iter().map(|n| n.feature).collect()
}

fn vcpu() -> Filter {
    Filter::VCpu {
        allocation_ratio: 1.0,
    }
}

fn timeshift(stopper: bool) -> Policy {
    let mut p = fixtures::policy(vec![vcpu()], vec![(WeigherKind::Ram, 1.0)], 1);
    p.timeshift = Some(Timeshift {
        task_stopper: stopper.then_some(TaskStopper {
            forecast: false,
            forecast_size: 24,
            forecast_threshold: 0.6,
            window_size: 2,
        }),
        ..TIMESHIFT_DEFAULTS
    });
    p
}

/// Two tasks that fill A then B: the second waits for nothing, the third (4 cores) waits.
fn busy() -> Vec<Task> {
    vec![task(0, H, 4), task(0, H, 4), task(0, H, 4)]
}

#[test]
fn time_shifting_without_a_deferrable_task_says_so() {
    let notes = notes_of(&timeshift(true), &busy());
    assert_eq!(features(&notes), ["timeshift", "taskStopper"]);
    assert!(
        notes[0].message.starts_with(
            "time-shifting defers nothing here: none of the workload's 3 tasks is deferrable"
        ),
        "{}",
        notes[0].message
    );
    assert_eq!(
        notes[1].message,
        "the task stopper never pauses here: it pauses only deferrable tasks with a deadline"
    );
}

#[test]
fn deferrable_tasks_without_deadlines_are_counted() {
    // `deadline: None` with `deferrable` needs the TaskSpec itself: mark two tasks deferrable.
    let topology = topology(&[("A", 4), ("B", 4)]);
    let mut workload = workload(&busy());
    for t in &mut workload.tasks[..2] {
        t.deferrable = true;
    }
    let p = timeshift(false);
    let inputs = Inputs {
        topology: &topology,
        workload: &workload,
        carbon: None,
    };
    let outcome = RunRequest::new(inputs, &p, CarbonReference::NotFollowed)
        .run(&mut |_| {})
        .unwrap();
    let notes = notes(&p, &workload, &outcome.result);
    assert_eq!(features(&notes), ["timeshift"]);
    assert!(notes[0].message.contains(
        "2 tasks are deferrable but none has a deadline, and a task without one is never deferred"
    ));
}

/// One deferrable task with a deadline is enough for time-shifting to act: no note about it.
#[test]
fn a_deferrable_task_with_a_deadline_silences_the_note() {
    let mut tasks = busy();
    tasks[2].deadline = Some(10 * H);
    assert_eq!(
        features(&notes_of(&timeshift(true), &tasks)),
        Vec::<&str>::new()
    );
}

/// No task waits on an empty cluster: the note says the policy decided only where.
#[test]
fn a_run_where_nobody_waits_says_so() {
    let p = fixtures::policy(vec![vcpu()], vec![(WeigherKind::Ram, 1.0)], 1);
    let notes = notes_of(&p, &[task(0, H, 1), task(0, H, 1)]);
    assert_eq!(features(&notes), ["waiting"]);
    assert!(notes[0]
        .message
        .starts_with("no task waited: the 2 hosts always had room"));
    assert_eq!(features(&notes_of(&p, &busy())), Vec::<&str>::new());
}

/// Without weighers and with subsetSize 1 every candidate ties; a subsetSize above the host
/// count draws among all. The memorizing scheduler ignores both (its own warnings say so).
#[test]
fn ties_and_oversized_subsets_are_explained() {
    let p = fixtures::policy(vec![vcpu()], vec![], 1);
    let notes = notes_of(&p, &busy());
    assert_eq!(features(&notes), ["weighers"]);
    assert!(notes[0]
        .message
        .starts_with("without weighers every candidate ties"));
    let zero = fixtures::policy(vec![vcpu()], vec![(WeigherKind::Ram, 0.0)], 1);
    assert!(notes_of(&zero, &busy())[0]
        .message
        .starts_with("with every weigher's multiplier 0 every candidate ties"));
    let wide = fixtures::policy(vec![vcpu()], vec![(WeigherKind::Ram, 1.0)], 3);
    let notes = notes_of(&wide, &busy());
    assert_eq!(features(&notes), ["subsetSize"]);
    assert_eq!(
        notes[0].message,
        "subsetSize 3 is more than the 2 hosts: each task is drawn among every candidate host"
    );
    let two = fixtures::policy(vec![vcpu()], vec![(WeigherKind::Ram, 1.0)], 2);
    assert_eq!(features(&notes_of(&two, &busy())), Vec::<&str>::new());
    let mut memorizing = fixtures::policy(vec![vcpu()], vec![], 5);
    memorizing.memorize = true;
    assert_eq!(
        features(&notes_of(&memorizing, &busy())),
        Vec::<&str>::new()
    );
}

/// Under Current, OpenDC 3's scheduler ignores `subsetSize` (SPEC 11.12, C10): the note says so
/// instead of the Classic one about drawing among more hosts than there are.
#[test]
fn under_current_subset_size_is_noted_as_ignored() {
    use policy_playground::engine::Semantics;
    let p = fixtures::policy(vec![vcpu()], vec![(WeigherKind::Ram, 1.0)], 3);
    let topology = topology(&[("A", 4), ("B", 4)]);
    let workload = workload(&busy());
    let inputs = Inputs {
        topology: &topology,
        workload: &workload,
        carbon: None,
    };
    let mut request = RunRequest::new(inputs, &p, CarbonReference::NotFollowed);
    assert_eq!(
        features(&notes(
            &p,
            &workload,
            &request.run(&mut |_| {}).unwrap().result
        )),
        vec!["subsetSize"],
        "Classic: 3 is more than the 2 hosts"
    );
    request.options.semantics = Semantics::Current;
    let current = notes(&p, &workload, &request.run(&mut |_| {}).unwrap().result);
    assert_eq!(features(&current), vec!["subsetSize"]);
    assert!(
        current[0]
            .message
            .starts_with("OpenDC 3 ignores subsetSize: under Current nothing is drawn"),
        "{}",
        current[0].message
    );
    let mut one = p.clone();
    one.subset_size = 1;
    let mut request = RunRequest::new(inputs, &one, CarbonReference::NotFollowed);
    request.options.semantics = Semantics::Current;
    assert!(notes(&one, &workload, &request.run(&mut |_| {}).unwrap().result).is_empty());
}
