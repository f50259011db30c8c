//! OpenDC 2 (legacy) experiments: `pathToFile` topologies and workloads, resolved relative to the
//! experiment file, read as SPEC 1 and 10 say.

use super::*;

/// Loads an experiment file and everything it names.
pub(super) fn load(
    files: &dyn Files,
    path: &Path,
    text: &str,
    value: &Value,
) -> Result<Experiment, LoadError> {
    let checked = policy::check_text(text);
    if !checked.ok() {
        return Err(invalid_in(path, checked.diagnostics));
    }
    let file = path.display().to_string();
    let mut warnings: Vec<Diagnostic> = checked
        .diagnostics
        .iter()
        .cloned()
        .map(|d| d.in_file(&file))
        .collect();
    let policies = checked.policies().unwrap_or_default();
    let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let warn = |warnings: &mut Vec<Diagnostic>, at: &str, message: String| {
        warnings.push(Diagnostic::warning(at, message).in_file(&file));
    };

    for (key, what) in [
        (
            "failureModels",
            "host failures are not modelled: the runs have no failures",
        ),
        (
            "checkpointModels",
            "checkpoints are not modelled: the runs have none",
        ),
        ("maxNumFailures", "host failures are not modelled"),
    ] {
        if let Some(v) = value.get(key) {
            let present = match v {
                Value::Array(items) => items
                    .iter()
                    .any(|i| !i.is_null() && i.get("type").and_then(Value::as_str) != Some("no")),
                Value::Null => false,
                _ => true,
            };
            if present {
                warn(&mut warnings, key, format!("`{key}`: {what}"));
            }
        }
    }

    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut unreadable_seen = false;
    let mut topologies = Vec::new();
    for (i, entry) in list(value, "topologies").iter().enumerate() {
        let at = format!("topologies[{i}]");
        match entry.get("pathToFile").and_then(Value::as_str) {
            Some(p) => {
                let topology_path = base.join(p);
                match load_topology(files, &topology_path) {
                    Ok(t) => {
                        let (carbon, mut w) = referenced_carbon(files, &t, &topology_path);
                        warnings.extend(
                            w.drain(..)
                                .map(|d| d.in_file(&topology_path.display().to_string())),
                        );
                        topologies.push((p.to_string(), t, carbon));
                    }
                    Err(e) => {
                        unreadable_seen |= matches!(e, LoadError::Unreadable(_));
                        errors.extend(e.diagnostics().iter().cloned().map(|d| Diagnostic {
                            message: format!("{at}: {}", d.message),
                            ..d
                        }));
                    }
                }
            }
            None if entry.get("clusters").is_some() => {
                match input::topology::topology_from_value(entry) {
                    Ok(t) => {
                        if t.carbon_ref.is_some() {
                            warn(&mut warnings, &at, "an inline topology's carbon reference cannot be followed: the run has no carbon figures".into());
                        }
                        topologies.push((format!("{at} (inline)"), t, None));
                    }
                    Err(ds) => errors.extend(ds.into_iter().map(|d| d.under(&at).in_file(&file))),
                }
            }
            None => errors.push(
                Diagnostic::error(&at, "a topology needs `pathToFile` (or inline `clusters`)")
                    .in_file(&file),
            ),
        }
    }
    let mut workloads = Vec::new();
    for (i, entry) in list(value, "workloads").iter().enumerate() {
        let at = format!("workloads[{i}]");
        let Some(p) = entry.get("pathToFile").and_then(Value::as_str) else {
            let kind = entry.get("type").and_then(Value::as_str).unwrap_or("?");
            errors.push(
                Diagnostic::error(&at, format!("the workload (type `{kind}`) has no `pathToFile`: named and inline SDK workloads cannot be resolved here"))
                    .in_file(&file),
            );
            continue;
        };
        if let Some(f) = entry
            .get("sampleFraction")
            .and_then(Value::as_f64)
            .filter(|f| *f < 1.0)
        {
            warn(
                &mut warnings,
                &format!("{at}.sampleFraction"),
                format!("`sampleFraction` {f} is not applied: every task runs"),
            );
        }
        if let Some(s) = entry
            .get("scalingPolicy")
            .and_then(Value::as_str)
            .filter(|s| *s != "NoDelay")
        {
            warn(
                &mut warnings,
                &format!("{at}.scalingPolicy"),
                format!("`scalingPolicy: {s}` is not modelled: tasks run as NoDelay"),
            );
        }
        match load_workload(files, &base.join(p)) {
            Ok(mut w) => {
                if let Some(v) = entry.get("submissionTime") {
                    match v.as_str().map(input::time::parse_iso8601_ms) {
                        Some(Ok(t)) => shift_to(&mut w, t),
                        _ => errors.push(
                            Diagnostic::error(
                                format!("{at}.submissionTime"),
                                format!("`submissionTime` must be an ISO-8601 time, found {v}"),
                            )
                            .in_file(&file),
                        ),
                    }
                }
                if entry.get("deferAll").and_then(Value::as_bool) == Some(true) {
                    defer_all(&mut w);
                }
                workloads.push((p.to_string(), w));
            }
            Err(e) => {
                unreadable_seen |= matches!(e, LoadError::Unreadable(_));
                errors.extend(e.diagnostics().iter().cloned().map(|d| Diagnostic {
                    message: format!("{at}: {}", d.message),
                    ..d
                }));
            }
        }
    }
    if list(value, "topologies").is_empty() {
        errors.push(
            Diagnostic::error("topologies", "the experiment names no topology").in_file(&file),
        );
    }
    if list(value, "workloads").is_empty() {
        errors.push(
            Diagnostic::error("workloads", "the experiment names no workload").in_file(&file),
        );
    }
    if !errors.is_empty() {
        errors.extend(warnings);
        return Err(if unreadable_seen {
            LoadError::Unreadable(errors)
        } else {
            LoadError::Invalid(errors)
        });
    }
    let initial_seed = value
        .get("initialSeed")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let run_count = value
        .get("runs")
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .clamp(1, 1000) as u32;
    let mut runs = Vec::new();
    for topology in 0..topologies.len() {
        for workload in 0..workloads.len() {
            for policy in 0..policies.len() {
                for run in 0..run_count {
                    runs.push(Run {
                        topology,
                        workload,
                        policy,
                        run,
                        seed: initial_seed + run as u64,
                        scenario: ((topology * workloads.len() + workload) * policies.len()
                            + policy) as u64,
                    });
                }
            }
        }
    }
    Ok(Experiment {
        name: value
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("experiment")
            .to_string(),
        topologies,
        workloads,
        policy_json: list(value, "allocationPolicies").to_vec(),
        policies,
        runs,
        warnings,
        format: Format::Legacy,
    })
}

fn list<'v>(value: &'v Value, key: &str) -> &'v [Value] {
    value
        .get(key)
        .and_then(Value::as_array)
        .map_or(&[], |v| v.as_slice())
}
