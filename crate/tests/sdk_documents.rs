//! The JSON layer and the leniencies of OpenDC3 (SDK) experiments (SPEC 11.1-11.4, 11.9, 11.14):
//! `importFrom`, repeated keys, which reader a file gets, unknown keys with and without
//! `--strict`, the keys OpenDC3 ignores in a prefab, equal axis entries, runs and seeds. Each
//! case is a small set of files written to a temporary folder.

use policy_playground::api::{experiments, Answer};
use policy_playground::diag::Diagnostic;
use policy_playground::experiment::{self, Disk, DroppedFiles, Format, LoadError, LoadOptions};
use std::path::{Path, PathBuf};

/// A temporary folder holding `files` (path, text).
fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pp-sdkdoc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

const HOST: &str = r#"{"name": "H", "count": 2, "cpu": {"coreCount": 4, "coreSpeed": "1 GHz"}, "memory": {"size": "8 GiB"}}"#;
const TASK: &str = r#"{"id": 0, "name": "t", "submissionTime": "0 ms", "duration": "1 s", "cpuCoreCount": 1, "cpuCapacity": "1 GHz", "memory": "1 GiB", "fragments": [{"duration": "1 s", "cpuUsage": "1 GHz"}]}"#;

fn experiment_text(policies: &str) -> String {
    format!(
        r#"{{"topologies": [{{"clusters": [{{"hosts": [{HOST}]}}]}}], "workloads": [{{"type": "inline", "tasks": [{TASK}]}}], "allocationPolicies": {policies}}}"#
    )
}

fn load(dir: &Path, strict: bool) -> Result<experiment::Experiment, LoadError> {
    experiment::load_with(&Disk, &dir.join("experiment.json"), LoadOptions { strict })
}

fn errors(e: LoadError) -> Vec<Diagnostic> {
    e.diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect()
}

#[test]
fn import_from_brings_the_files_keys_and_the_objects_own_keys_win_whole() {
    let dir = folder(
        "imports",
        &[
            (
                "experiment.json",
                r#"{"importFrom": "parts/base.json", "runs": 3}"#,
            ),
            (
                "parts/base.json",
                r#"{"runs": 1, "initialSeed": 7, "topologies": [{"importFrom": "topology.json"}],
                    "workloads": [{"type": "inline", "tasks": [{"importFrom": "../tasks/t0.json", "name": "renamed"}]}]}"#,
            ),
            (
                "parts/topology.json",
                &format!(r#"{{"clusters": [{{"hosts": [{HOST}]}}]}}"#),
            ),
            ("tasks/t0.json", TASK),
        ],
    );
    let exp = load(&dir, false).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(exp.format, Format::Sdk);
    // runs 3 from the experiment (its own key wins), seeds from the imported initialSeed 7.
    let seeds: Vec<u64> = exp.runs.iter().map(|r| r.seed).collect();
    assert_eq!(seeds, vec![7, 8, 9]);
    // The imported topology resolved its own import against its own folder: 2 hosts.
    assert_eq!(exp.topologies[0].1.host_count(), 2);
    // The task's own `name` replaced the imported one; the rest came from tasks/t0.json.
    assert_eq!(exp.workloads[0].1.tasks[0].name, "renamed");
    assert_eq!(exp.workloads[0].1.tasks[0].memory_mib, 1024);
}

#[test]
fn import_errors_name_the_path_looked_for_the_cycle_and_the_file() {
    let dir = folder(
        "import-errors",
        &[
            ("experiment.json", r#"{"importFrom": "a.json"}"#),
            ("a.json", r#"{"importFrom": "sub/b.json"}"#),
            ("sub/b.json", r#"{"importFrom": "../a.json"}"#),
        ],
    );
    let e = errors(load(&dir, false).unwrap_err());
    assert!(
        e[0].message.contains("cycle")
            && e[0].message.contains("a.json -> ")
            && e[0].message.ends_with("a.json"),
        "{e:#?}"
    );
    assert_eq!(
        e[0].file.as_deref(),
        Some(dir.join("sub/b.json").to_str().unwrap()),
        "placed in the file that writes it"
    );
    assert_eq!(e[0].line, Some(1));

    let dir = folder(
        "import-missing",
        &[("experiment.json", "{\n  \"importFrom\": \"gone.json\"\n}")],
    );
    let e = errors(load(&dir, false).unwrap_err());
    assert!(
        e[0].message
            .contains(&format!("`{}`", dir.join("gone.json").display())),
        "{}",
        e[0].message
    );
    assert_eq!((e[0].path.as_str(), e[0].line), ("importFrom", Some(2)));

    let dir = folder(
        "import-not-object",
        &[
            ("experiment.json", r#"{"importFrom": "list.json"}"#),
            ("list.json", "[1]"),
        ],
    );
    assert!(errors(load(&dir, false).unwrap_err())[0]
        .message
        .contains("must hold a JSON object, found an array"));
}

#[test]
fn a_problem_inside_an_imported_file_is_placed_at_its_own_line() {
    let host = HOST.replace("\"8 GiB\"", "\"8 GIB\"");
    let dir = folder(
        "import-place",
        &[
            (
                "experiment.json",
                &experiment_text("[]").replace(HOST, r#"{"importFrom": "host.json"}"#),
            ),
            ("host.json", &format!("\n\n{host}")),
        ],
    );
    let e = errors(load(&dir, false).unwrap_err());
    let size = e
        .iter()
        .find(|d| d.path.ends_with("memory.size"))
        .expect("the size error");
    assert_eq!(
        size.file.as_deref(),
        Some(dir.join("host.json").to_str().unwrap())
    );
    assert_eq!(size.line, Some(3));
    assert!(
        size.message.contains("`8 GIB` is not a data size"),
        "{}",
        size.message
    );
}

#[test]
fn a_repeated_key_keeps_its_last_value_with_a_warning_at_the_later_key() {
    let text =
        experiment_text(r#"[{"type": "prefab", "prefabName": "MemInv", "prefabName": "Mem"}]"#)
            .replacen(
                "{\"topologies\"",
                "{\"runs\": 1, \"runs\": 2, \"topologies\"",
                1,
            );
    let dir = folder("duplicates", &[("experiment.json", &text)]);
    let exp = load(&dir, false).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(exp.runs.len(), 2);
    assert_eq!(exp.policy_json[0]["prefabName"], "Mem");
    let dups: Vec<&str> = exp
        .warnings
        .iter()
        .filter(|d| d.message.starts_with("duplicate key"))
        .map(|d| d.path.as_str())
        .collect();
    assert_eq!(dups, vec!["runs", "allocationPolicies[0].prefabName"]);
    // `--strict` does not check repeated keys in OpenDC3 either.
    assert!(load(&dir, true).is_ok());
}

#[test]
fn which_reader_a_file_gets_follows_its_markers() {
    let fmt = |s: &str| experiment::format_of(&serde_json::from_str(s).unwrap());
    assert_eq!(
        fmt(r#"{"topologies": [{"clusters": []}]}"#),
        Ok(Format::Sdk)
    );
    assert_eq!(
        fmt(r#"{"workloads": [{"type": "trace"}]}"#),
        Ok(Format::Sdk)
    );
    assert_eq!(fmt(r#"{"importFrom": "x.json"}"#), Ok(Format::Sdk));
    assert_eq!(
        fmt(r#"{"topologies": [{"pathToFile": "t.json"}]}"#),
        Ok(Format::Legacy)
    );
    assert_eq!(
        fmt(r#"{"workloads": [{"type": "ComputeWorkload"}]}"#),
        Ok(Format::Legacy)
    );
    assert!(fmt(
        r#"{"topologies": [{"pathToFile": "t.json"}], "workloads": [{"type": "inline"}]}"#
    )
    .unwrap_err()
    .contains("mixes"));
    assert_eq!(
        fmt(r#"{"allocationPolicies": [{"type": "prefab", "prefabName": "Mem"}]}"#),
        Ok(Format::Sdk)
    );
    assert_eq!(
        fmt(r#"{"allocationPolicies": [{"type": "filter", "filters": [{"type": "vcpu"}]}]}"#),
        Ok(Format::Sdk)
    );
    assert_eq!(
        fmt(r#"{"allocationPolicies": [{"type": "prefab", "policyName": "Mem"}]}"#),
        Ok(Format::Legacy)
    );
}

#[test]
fn unknown_keys_warn_and_strict_makes_them_errors() {
    let text = experiment_text(
        r#"[{"type": "filter", "filters": [{"type": "compute", "ratio": 2}], "memorize": true}]"#,
    )
    .replacen(
        "{\"topologies\"",
        "{\"colour\": \"blue\", \"topologies\"",
        1,
    );
    let dir = folder("unknown", &[("experiment.json", &text)]);
    let exp = load(&dir, false).unwrap_or_else(|e| panic!("{e:#?}"));
    let warned: Vec<&str> = exp.warnings.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(
        warned,
        vec![
            "allocationPolicies[0].filters[0].ratio",
            "allocationPolicies[0].memorize",
            "colour"
        ]
    );
    assert!(
        exp.warnings[2]
            .message
            .contains("OpenDC3 ignores it; valid keys: name, topologies"),
        "{}",
        exp.warnings[2].message
    );
    // `memorize` is the playground's own key: ignored in SDK files, so the policy is not memorizing.
    assert!(!exp.policies[0].memorize);
    let strict: Vec<String> = errors(load(&dir, true).unwrap_err())
        .into_iter()
        .map(|d| d.path)
        .collect();
    assert_eq!(strict.len(), 3, "{strict:#?}");
}

#[test]
fn a_prefab_name_under_an_ignored_key_runs_mem_and_says_so() {
    let text = experiment_text(
        r#"[{"type": "prefab", "scheduler": "Random"}, {"type": "prefab", "prefabName": "mem"}]"#,
    );
    let dir = folder("prefab-keys", &[("experiment.json", &text)]);
    let e = load(&dir, false).unwrap_err();
    let all = e.diagnostics();
    let warning = all
        .iter()
        .find(|d| d.path == "allocationPolicies[0].scheduler")
        .unwrap();
    assert!(!warning.is_error());
    assert_eq!(warning.message, "OpenDC3 ignores `scheduler`; this prefab runs Mem, the default, not Random. Write `\"prefabName\": \"Random\"`.");
    let error = all
        .iter()
        .find(|d| d.path == "allocationPolicies[1].prefabName")
        .unwrap();
    assert!(
        error.is_error() && error.message.contains("OpenDC3 needs the exact name `Mem`"),
        "{}",
        error.message
    );
}

#[test]
fn legacy_spellings_are_errors_in_sdk_files_with_the_sdk_spelling_as_hint() {
    let text = experiment_text(
        r#"[{"type": "filter", "filters": [{"type": "VCpu"}], "weighers": [{"type": "CoreRam"}]}]"#,
    );
    let dir = folder("legacy-spelling", &[("experiment.json", &text)]);
    let e = errors(load(&dir, false).unwrap_err());
    let messages: Vec<&str> = e.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages.contains(&"`VCpu` is the legacy spelling of a filter: OpenDC3 needs `vcpu`"),
        "{messages:#?}"
    );
    assert!(
        messages
            .contains(&"`CoreRam` is the legacy spelling of a weigher: OpenDC3 needs `coreRam`"),
        "{messages:#?}"
    );
}

#[test]
fn equal_axis_entries_collapse_into_the_first_and_scenarios_are_numbered_as_opendc3_does() {
    // Three policies that OpenDC3 reads as one (Mem), and MemInv: two scenarios; two export
    // models make each playground scenario stand for two of OpenDC3's.
    let text = experiment_text(r#"[{"type": "prefab"}, {"type": "prefab", "prefabName": "MemInv"}, {"type": "prefab", "prefabName": "Mem"}, {"type": "prefab", "scheduler": "Random"}]"#)
        .replacen("{\"topologies\"", "{\"runs\": 2, \"exportModels\": [{}, {\"exportInterval\": \"1 h\"}], \"topologies\"", 1);
    let dir = folder("axes", &[("experiment.json", &text)]);
    let exp = load(&dir, false).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(exp.policies.len(), 2);
    let dropped: Vec<&str> = exp
        .warnings
        .iter()
        .filter(|d| d.message.contains("equals allocationPolicies[0]"))
        .map(|d| d.path.as_str())
        .collect();
    assert_eq!(
        dropped,
        vec!["allocationPolicies[2]", "allocationPolicies[3]"]
    );
    assert!(exp.warnings.iter().any(|d| d.path == "exportModels"
        && d.message
            .starts_with("2 scenarios differ only in `exportModels`")));
    let runs: Vec<(usize, u32, u64, u64)> = exp
        .runs
        .iter()
        .map(|r| (r.policy, r.run, r.seed, r.scenario))
        .collect();
    assert_eq!(
        runs,
        vec![(0, 0, 0, 0), (0, 1, 1, 0), (1, 0, 0, 2), (1, 1, 1, 2)]
    );
}

#[test]
fn a_negative_initial_seed_is_taken_as_i64_then_u64() {
    let text = experiment_text("[]")
        .replacen(
            "{\"topologies\"",
            "{\"initialSeed\": -1, \"runs\": 2, \"topologies\"",
            1,
        )
        .replace("\"allocationPolicies\": []", "\"name\": \"x\"");
    let dir = folder("seed", &[("experiment.json", &text)]);
    let exp = load(&dir, false).unwrap_or_else(|e| panic!("{e:#?}"));
    let seeds: Vec<u64> = exp.runs.iter().map(|r| r.seed).collect();
    assert_eq!(seeds, vec![u64::MAX, 0]);
    assert_eq!(
        exp.policy_json[0],
        serde_json::json!({"type": "prefab", "prefabName": "Mem"}),
        "OpenDC3's default policy"
    );
}

#[test]
fn a_host_name_collision_and_a_negative_cluster_count_are_errors() {
    let hosts = r#"{"name": "H", "count": 2, "cpu": {"coreCount": 1, "coreSpeed": "1 GHz"}, "memory": {"size": "1 GiB"}}, {"name": "H-0", "cpu": {"coreCount": 1, "coreSpeed": "1 GHz"}, "memory": {"size": "1 GiB"}}"#;
    let dir = folder(
        "collision",
        &[(
            "experiment.json",
            &experiment_text("[]")
                .replace(HOST, hosts)
                .replace("\"allocationPolicies\": []", "\"name\": \"x\""),
        )],
    );
    let e = errors(load(&dir, false).unwrap_err());
    assert!(
        e[0].message.contains("Host with name H-0 already exists"),
        "{e:#?}"
    );
    let dir = folder(
        "count",
        &[(
            "experiment.json",
            &experiment_text("[]")
                .replace("{\"hosts\"", "{\"count\": -1, \"hosts\"")
                .replace("\"allocationPolicies\": []", "\"name\": \"x\""),
        )],
    );
    let e = errors(load(&dir, false).unwrap_err());
    assert_eq!(e[0].path, "topologies[0].clusters[0].count", "{e:#?}");
}

#[test]
fn check_reads_sdk_files_by_their_rules_and_strict_as_opendc_strict_validate() {
    let tiny = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/opendc-samples/experiments/sdk/tiny-experiment.json");
    let text = std::fs::read_to_string(&tiny).unwrap();
    let report = |strict| match experiments::check_experiment(&Disk, &tiny, &text, strict) {
        Some(Answer::Success { value }) => value,
        other => panic!("{other:?}"),
    };
    let lenient = report(false);
    assert!(lenient.ok);
    assert_eq!(lenient.diagnostics.len(), 1);
    let strict = report(true);
    assert!(!strict.ok);
    assert!(strict.diagnostics[0]
        .message
        .starts_with("`opendc --strict` refuses the unknown key `scheduler`"));
    // The page's check, on the text alone, gives the same verdict.
    let page = match policy_playground::api::check(&text) {
        Answer::Success { value } => value,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        (page.ok, page.document, page.diagnostics.len()),
        (true, "experiment", 1)
    );
    // A policy file in SDK spelling keeps SPEC 1.1 strictness (11.1).
    let policy = match policy_playground::api::check(r#"{"type": "prefab", "scheduler": "Mem"}"#) {
        Answer::Success { value } => value,
        other => panic!("{other:?}"),
    };
    assert!(!policy.ok);
}

#[test]
fn dropped_files_resolve_only_at_their_exact_relative_paths() {
    let text = experiment_text("[]")
        .replace(r#"{"type": "inline", "tasks": [TASKS]}"#, "")
        .replace("\"allocationPolicies\": []", "\"name\": \"x\"");
    let text = text.replacen(
        &format!(r#"{{"type": "inline", "tasks": [{TASK}]}}"#),
        r#"{"type": "trace", "source": {"type": "uri", "uri": "trace"}}"#,
        1,
    );
    let files = DroppedFiles::new([
        ("study/experiment.json".to_string(), text.into_bytes()),
        ("other/trace/tasks.parquet".to_string(), vec![]),
        ("other/trace/fragments.parquet".to_string(), vec![]),
    ]);
    let e = experiment::load(&files, Path::new("study/experiment.json")).unwrap_err();
    let message = &errors(e)[0].message;
    assert!(
        message.contains("was not found at `study/trace/`"),
        "no match by base name: {message}"
    );
}
