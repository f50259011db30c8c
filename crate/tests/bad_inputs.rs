//! The bad-input corpus (`tests/bad-inputs/`, described in its README): every file fed to its
//! reader as the CLI loads it, from disk, giving one clear error that names the file and the
//! row or field and says what was expected; never a panic. The CLI is run on a few of them for
//! its exit codes.

use policy_playground::diag::Diagnostic;
use policy_playground::experiment::{self, Disk, LoadError};
use policy_playground::scenario;
use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/bad-inputs")
        .join(name)
}

/// The one error of a load that must fail as invalid content, checked to name the file.
fn one_error<T: std::fmt::Debug>(name: &str, r: Result<T, LoadError>) -> Diagnostic {
    let e = match r {
        Err(LoadError::Invalid(ds)) => ds,
        other => panic!("{name}: expected invalid content, got {other:#?}"),
    };
    let errors: Vec<&Diagnostic> = e.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{name}: expected one error: {e:#?}");
    let d = errors[0].clone();
    let named = d.file.as_deref().unwrap_or("").ends_with(name) || d.message.contains(name);
    assert!(named, "{name}: the file is not named: {d:#?}");
    d
}

/// Asserts that `d`'s message holds every one of `needles`.
fn says(name: &str, d: &Diagnostic, needles: &[&str]) {
    for n in needles {
        assert!(d.message.contains(n), "{name}: {:?} lacks {n:?}", d.message);
    }
}

/// 1-based line and UTF-16 column of the byte offset `at` in `text`.
fn position(text: &str, at: usize) -> (u32, u32) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].encode_utf16().count() + 1;
    (line as u32, column as u32)
}

#[test]
fn the_baselines_load() {
    let w = experiment::load_workload(&Disk, &corpus("workload-ok")).unwrap();
    assert_eq!((w.tasks.len(), w.fragments.len()), (2, 3));
    assert!(w.warnings.is_empty(), "{:#?}", w.warnings);
    let w = experiment::load_workload(&Disk, &corpus("workload-ok.csv")).unwrap();
    assert_eq!(w.tasks.len(), 2);
    let t = experiment::load_topology(&Disk, &corpus("topology-ok.json")).unwrap();
    assert_eq!(t.host_count(), 1);
    assert_eq!(t.hosts()[0].core_speed_mhz, 2100.0);
    let text = std::fs::read_to_string(corpus("scenario-ok.json")).unwrap();
    scenario::read(&text).unwrap_or_else(|e| panic!("{e:#?}"));
    experiment::load_policy(&Disk, &corpus("policy-mem.json")).unwrap();
}

#[test]
fn bad_parquet_workloads() {
    let cases: [(&str, &str, &[&str]); 9] = [
        (
            "workload-bad-leading-magic",
            "",
            &[
                "tasks.parquet",
                "must begin with the magic number PAR1",
                "this one's begin is 58 58 58 58",
            ],
        ),
        (
            "workload-truncated",
            "",
            &["tasks.parquet", "not a readable parquet file"],
        ),
        (
            "workload-random-bytes",
            "",
            &["tasks.parquet", "not a readable parquet file"],
        ),
        (
            "workload-missing-column",
            "cpu_count",
            &[
                "tasks.parquet",
                "missing the column `cpu_count` (int32)",
                "id, submission_time, duration, cpu_capacity, mem_capacity",
            ],
        ),
        (
            "workload-mistyped-column",
            "cpu_count",
            &[
                "tasks.parquet",
                "`cpu_count` is BYTE_ARRAY",
                "expected an integer",
            ],
        ),
        (
            "workload-nan-usage",
            "fragments[1].cpu_usage",
            &[
                "fragments.parquet row 1, column `cpu_usage`",
                "NaN, expected a finite number >= 0",
            ],
        ),
        (
            "workload-negative-cores",
            "tasks[1].cpu_count",
            &[
                "tasks.parquet row 1, column `cpu_count`",
                "-4, expected an integer >= 1",
            ],
        ),
        (
            "workload-duplicate-ids",
            "tasks[1].id",
            &["tasks.parquet row 1, column `id`", "`1` appears twice"],
        ),
        (
            // Row 0's deadline is -1 (none), which is fine: only row 1 is an error.
            "workload-deadline-before-submission",
            "tasks[1].deadline",
            &[
                "tasks.parquet row 1, column `deadline`",
                "1704067259999 is before the submission 1704067260000",
            ],
        ),
    ];
    for (name, path, needles) in cases {
        let d = one_error(name, experiment::load_workload(&Disk, &corpus(name)));
        assert_eq!(d.path, path, "{name}");
        says(name, &d, needles);
        assert_eq!(d.line, None, "{name}: parquet has no lines");
    }
}

#[test]
fn a_forged_parquet_row_count_is_an_error_not_an_aborted_allocation() {
    // The footer says 2^40 rows; reserving that much would abort the process (not a panic that
    // could be caught). Every column then fails to decode, each naming the file and the column.
    let name = "workload-forged-row-count";
    let Err(LoadError::Invalid(ds)) = experiment::load_workload(&Disk, &corpus(name)) else {
        panic!("{name}: expected invalid content");
    };
    assert!(!ds.is_empty());
    for d in &ds {
        assert!(d.is_error() && d.file.as_deref().unwrap().ends_with(name));
        says(
            name,
            d,
            &[
                "tasks.parquet: cannot decode the column",
                "row group 0 holds 2 of its 1099511627776 rows",
            ],
        );
    }
}

#[test]
fn bad_csv_workloads() {
    let cases: [(&str, &str, u32, &[&str]); 7] = [
        (
            "workload-wrong-column.csv",
            "cpuCont",
            1,
            &[
                "row 1, column 5: unknown column `cpuCont`",
                "did you mean `cpuCount`?",
            ],
        ),
        (
            "workload-cpucount-not-a-number.csv",
            "tasks[1].cpuCount",
            3,
            &["row 3", "`cpuCount` must be an integer >= 1, found \"two\""],
        ),
        (
            "workload-zero-cores.csv",
            "tasks[0].cpuCount",
            2,
            &["row 2", "`cpuCount` must be an integer >= 1, found 0"],
        ),
        (
            "workload-negative-cores.csv",
            "tasks[0].cpuCount",
            2,
            &["row 2", "`cpuCount` must be an integer >= 1, found -2"],
        ),
        (
            "workload-nan.csv",
            "tasks[0].cpuCapacity",
            2,
            &[
                "row 2",
                "`cpuCapacity` must be a finite number >= 0, found \"NaN\"",
            ],
        ),
        (
            "workload-duplicate-ids.csv",
            "tasks[1].id",
            3,
            &["row 3", "the id `1` is also task 0's"],
        ),
        (
            // Row 2's deadline is -1 (none), which is fine.
            "workload-deadline-before-submission.csv",
            "tasks[1].deadline",
            3,
            &[
                "row 3",
                "the deadline 1704067259999 is before the submission 1704067260000",
            ],
        ),
    ];
    for (name, path, row, needles) in cases {
        let d = one_error(name, experiment::load_workload(&Disk, &corpus(name)));
        assert_eq!((d.path.as_str(), d.line), (path, Some(row)), "{name}");
        says(name, &d, needles);
    }
}

#[test]
fn bad_json_workloads() {
    let name = "workload-1e999.json";
    let d = one_error(name, experiment::load_workload(&Disk, &corpus(name)));
    says(name, &d, &["not valid JSON", "number out of range"]);
    let text = std::fs::read_to_string(corpus(name)).unwrap();
    let at = text.find("1e999").unwrap();
    assert_eq!((d.line, d.column), {
        let (l, c) = position(&text, at);
        (Some(l), Some(c))
    });

    let name = "workload-duplicate-ids.json";
    let d = one_error(name, experiment::load_workload(&Disk, &corpus(name)));
    assert_eq!(d.path, "tasks[1].id");
    says(name, &d, &["task 1: the id `a` is also task 0's"]);
    let text = std::fs::read_to_string(corpus(name)).unwrap();
    let second = text.rfind("\"id\": \"a\"").unwrap() + "\"id\": ".len();
    let (l, c) = position(&text, second);
    assert_eq!((d.line, d.column), (Some(l), Some(c)));
}

#[test]
fn deep_nesting_is_one_syntax_error_for_every_json_reader() {
    let name = "workload-deep-nesting.json";
    let path = corpus(name);
    assert_eq!(std::fs::read(&path).unwrap(), vec![b'['; 100_000]);
    let results = [
        experiment::load_workload(&Disk, &path).map(|_| ()),
        experiment::load_topology(&Disk, &path).map(|_| ()),
        experiment::load_carbon(&Disk, &path).map(|_| ()),
        experiment::load(&Disk, &path).map(|_| ()),
    ];
    for r in results {
        let d = one_error(name, r);
        assert!(
            d.message.contains("recursion limit") || d.message.contains("nesting"),
            "{}",
            d.message
        );
        assert_eq!(d.line, Some(1));
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let ds = scenario::read(&text).unwrap_err();
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert!(
        ds[0].message.contains("not valid JSON"),
        "{}",
        ds[0].message
    );
}

#[test]
fn invalid_utf8_is_one_error_naming_the_file_and_the_byte() {
    let name = "workload-invalid-utf8.json";
    let path = corpus(name);
    let results = [
        experiment::load_workload(&Disk, &path).map(|_| ()),
        experiment::load_topology(&Disk, &path).map(|_| ()),
        experiment::load_carbon(&Disk, &path).map(|_| ()),
        experiment::load(&Disk, &path).map(|_| ()),
    ];
    for r in results {
        let d = one_error(name, r);
        says(name, &d, &["not UTF-8", "offset 22"]);
    }
}

#[test]
fn bad_carbon_traces() {
    let cases: [(&str, &str, &[&str]); 9] = [
        (
            "carbon-unsorted.csv",
            "[2]",
            &[
                "row 4: timestamp 1640998800000 is not after the previous row's 1641002400000",
                "strictly increasing",
            ],
        ),
        (
            "carbon-unsorted.json",
            "[1]",
            &["row 1: timestamp 1640995200000 is not after the previous row's 1640995200000"],
        ),
        ("carbon-empty.csv", "", &["the carbon trace has no rows"]),
        (
            "carbon-negative.csv",
            "[1]",
            &["row 3: carbon intensity -5, expected a finite number >= 0"],
        ),
        (
            "carbon-nan.csv",
            "[1]",
            &["row 3: carbon intensity NaN, expected a finite number >= 0"],
        ),
        (
            "carbon-nan.parquet",
            "[1]",
            &["row 1: carbon intensity NaN, expected a finite number >= 0"],
        ),
        (
            "carbon-truncated.parquet",
            "",
            &["not a readable parquet file"],
        ),
        (
            "carbon-random-bytes.parquet",
            "",
            &["not a readable parquet file"],
        ),
        (
            "carbon-bad-trailing-magic.parquet",
            "",
            &[
                "must end with the magic number PAR1",
                "this one's end is 50 41 52 30",
            ],
        ),
    ];
    for (name, path, needles) in cases {
        let d = one_error(name, experiment::load_carbon(&Disk, &corpus(name)));
        assert_eq!(d.path, path, "{name}");
        says(name, &d, needles);
    }
    // The JSON trace's error is at the second row's object.
    let d = one_error(
        "carbon-unsorted.json",
        experiment::load_carbon(&Disk, &corpus("carbon-unsorted.json")),
    );
    assert_eq!((d.line, d.column), (Some(2), Some(2)));
}

#[test]
fn a_carbon_trace_with_a_gap_loads() {
    let t = experiment::load_carbon(&Disk, &corpus("carbon-gap.csv")).unwrap();
    // 2022-01-01T00:00Z, 01:00Z, then 2022-01-03T00:00Z: 47 hours without a sample.
    assert_eq!(
        t.timestamps_ms,
        [1_640_995_200_000, 1_640_998_800_000, 1_641_168_000_000]
    );
    assert_eq!(t.intensity, [80.0, 90.0, 100.0]);
}

#[test]
fn bad_topologies() {
    let cases: [(&str, &str, &str, &[&str]); 4] = [
        (
            "topology-zero-hosts.json",
            "clusters",
            "[",
            &["the topology has no hosts", "at least one host"],
        ),
        (
            "topology-unknown-unit.json",
            "clusters[0].hosts[0].cpu.coreSpeed",
            "\"2.1 GHzz\"",
            &[
                "unknown unit \"GHzz\" in \"2.1 GHzz\"",
                "expected one of Hz, kHz, MHz, GHz",
            ],
        ),
        (
            "topology-zero-cores.json",
            "clusters[0].hosts[0].cpu.coreCount",
            "0,",
            &["expected an integer >= 1, found 0"],
        ),
        (
            "topology-negative-cores.json",
            "clusters[0].hosts[0].cpu.coreCount",
            "-16",
            &["expected an integer >= 1, found -16"],
        ),
    ];
    for (name, path, value, needles) in cases {
        let d = one_error(name, experiment::load_topology(&Disk, &corpus(name)));
        assert_eq!(d.path, path, "{name}");
        says(name, &d, needles);
        // Placed at the offending value, counted in the file.
        let text = std::fs::read_to_string(corpus(name)).unwrap();
        let (l, c) = position(&text, text.find(value).unwrap());
        assert_eq!((d.line, d.column), (Some(l), Some(c)), "{name}");
    }
}

#[test]
fn bad_scenarios_point_into_the_scenario_file() {
    let text = std::fs::read_to_string(corpus("scenario-unknown-key.json")).unwrap();
    let ds = scenario::read(&text).unwrap_err();
    assert_eq!(ds.len(), 1, "{ds:#?}");
    let d = &ds[0];
    assert_eq!(d.path, "seeds");
    says(
        "scenario-unknown-key.json",
        d,
        &["unknown key `seeds` in a scenario", "did you mean `seed`?"],
    );
    // At the key.
    let (l, c) = position(&text, text.find("\"seeds\"").unwrap());
    assert_eq!((d.line, d.column), (Some(l), Some(c)));
    assert_eq!((l, c), (12, 5));

    let text = std::fs::read_to_string(corpus("scenario-policy-error.json")).unwrap();
    let ds = scenario::read(&text).unwrap_err();
    let errors: Vec<&Diagnostic> = ds.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{ds:#?}");
    let d = errors[0];
    assert_eq!(d.path, "policy.subsetSize");
    says(
        "scenario-policy-error.json",
        d,
        &["`subsetSize` must be an integer >= 1, found 0"],
    );
    // At the 0 after "subsetSize": in the scenario file, not in the policy alone.
    let key = "\"subsetSize\": ";
    let (l, c) = position(&text, text.find(key).unwrap() + key.len());
    assert_eq!((d.line, d.column), (Some(l), Some(c)));
    assert_eq!((l, c), (10, 23));
}

// ---------------------------------------------------------------------------------------------
// The CLI

const BIN: &str = env!("CARGO_BIN_EXE_policy-playground");

/// Runs `simulate` with `args`; returns the exit code and stderr, having checked for a panic.
fn simulate(args: &[&Path]) -> (i32, String) {
    let mut command = Command::new(BIN);
    command.arg("simulate");
    for (flag, path) in ["--topology", "--workload", "--policy", "--carbon"]
        .iter()
        .zip(args)
    {
        command.arg(flag).arg(path);
    }
    let out = command.output().expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{args:?} panicked:\n{stderr}");
    let code = out.status.code().expect("exited, not killed by a signal");
    (code, stderr)
}

#[test]
fn the_cli_exits_1_for_invalid_content_and_2_for_a_missing_file() {
    let topology = corpus("topology-ok.json");
    let workload = corpus("workload-ok");
    let policy = corpus("policy-mem.json");
    let (code, stderr) = simulate(&[&topology, &workload, &policy]);
    assert_eq!(code, 0, "{stderr}");

    let invalid = [
        [
            corpus("topology-unknown-unit.json"),
            workload.clone(),
            policy.clone(),
        ],
        [
            corpus("topology-zero-hosts.json"),
            workload.clone(),
            policy.clone(),
        ],
        [
            topology.clone(),
            corpus("workload-truncated"),
            policy.clone(),
        ],
        [
            topology.clone(),
            corpus("workload-forged-row-count"),
            policy.clone(),
        ],
        [
            topology.clone(),
            corpus("workload-cpucount-not-a-number.csv"),
            policy.clone(),
        ],
        [
            topology.clone(),
            corpus("workload-deep-nesting.json"),
            policy.clone(),
        ],
        [
            topology.clone(),
            corpus("workload-invalid-utf8.json"),
            policy.clone(),
        ],
        [
            topology.clone(),
            workload.clone(),
            corpus("scenario-policy-error.json"),
        ],
    ];
    for args in &invalid {
        let bad = args
            .iter()
            .find(|p| {
                !p.ends_with("topology-ok.json")
                    && !p.ends_with("workload-ok")
                    && !p.ends_with("policy-mem.json")
            })
            .unwrap();
        let refs: Vec<&Path> = args.iter().map(PathBuf::as_path).collect();
        let (code, stderr) = simulate(&refs);
        assert_eq!(code, 1, "{bad:?}: {stderr}");
        let file = bad.file_name().unwrap().to_str().unwrap();
        assert!(stderr.contains(file), "{file} is not named: {stderr}");
        assert!(stderr.contains("error"), "{stderr}");
    }
    let (code, stderr) = simulate(&[&topology, &workload, &policy, &corpus("carbon-nan.csv")]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("carbon-nan.csv") && stderr.contains("row 3"),
        "{stderr}"
    );

    let missing = corpus("no-such-file.json");
    let missing_dir = corpus("no-such-workload");
    for args in [
        [missing.as_path(), workload.as_path(), policy.as_path()],
        [topology.as_path(), missing_dir.as_path(), policy.as_path()],
        [topology.as_path(), workload.as_path(), missing.as_path()],
    ] {
        let (code, stderr) = simulate(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("no-such-") && stderr.contains("cannot read"),
            "{stderr}"
        );
    }
}

/// An unknown key is placed at the key itself (SPEC 1.1), wherever it is in a scenario: at the
/// top level, in an embedded task and in a carbon row. The anchor travels with the diagnostic
/// from the reader that found it; nothing reads its message to decide where it goes.
#[test]
fn unknown_keys_in_a_scenario_point_at_the_key() {
    let ok = std::fs::read_to_string(corpus("scenario-ok.json")).unwrap();
    let text = ok
        .replace("\"memory\": 100}", "\"memory\": 100, \"cpuCont\": 1}")
        .replace(
            "\"seed\": 0",
            "\"sed\": 0, \"carbon\": [{\"timestamp\": 0, \"carbonIntensity\": 1, \"value\": 2}]",
        );
    let ds = scenario::read(&text).unwrap_err();
    for (path, key) in [
        ("workload.tasks[0].cpuCont", "\"cpuCont\""),
        ("sed", "\"sed\""),
        ("carbon[0].value", "\"value\""),
    ] {
        let d = ds
            .iter()
            .find(|d| d.path == path)
            .unwrap_or_else(|| panic!("no diagnostic at {path}: {ds:#?}"));
        let at = text.find(key).expect("the key is in the text");
        assert_eq!(
            (d.line, d.column),
            {
                let (l, c) = position(&text, at);
                (Some(l), Some(c))
            },
            "{path}: {}",
            d.message
        );
    }
}
