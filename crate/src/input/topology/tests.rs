//! The topology reader on small documents: every power model, errors and warnings.

use super::*;

fn host_json(extra: &str) -> String {
    format!(
        r#"{{"clusters": [{{"name": "C01", "hosts": [{{"name": "H01", "cpu": {{"coreCount": 4, "coreSpeed": 2000}},
        "memory": {{"memorySize": 1024}}{extra}}}]}}]}}"#
    )
}

#[test]
fn minimal_legacy_host() {
    let t = read_topology(&host_json("")).unwrap();
    let h = t.hosts();
    assert_eq!(h.len(), 1);
    assert_eq!(
        (h[0].cores, h[0].core_speed_mhz, h[0].memory_mib),
        (4, 2000.0, 1024)
    );
    assert_eq!(
        h[0].power,
        PowerModel::Linear {
            idle: 200.0,
            max: 400.0
        }
    );
    assert!(t.warnings.is_empty(), "{:?}", t.warnings);
    assert_eq!(t.carbon_ref, None);
}

#[test]
fn every_power_model() {
    let pm = |s: &str| {
        let t = read_topology(&host_json(&format!(r#", "cpuPowerModel": {s}"#))).unwrap();
        t.hosts()[0].power
    };
    assert_eq!(
        pm(r#"{"modelType": "constant"}"#),
        PowerModel::Constant { power: 400.0 }
    );
    assert_eq!(
        pm(r#"{"modelType": "Constant", "power": "1 kW"}"#),
        PowerModel::Constant { power: 1000.0 }
    );
    assert_eq!(
        pm(r#"{"modelType": "cubic", "idlePower": 1, "maxPower": 2}"#),
        PowerModel::Cubic {
            idle: 1.0,
            max: 2.0
        }
    );
    assert_eq!(
        pm(r#"{"type": "square", "idlePower": "1 W", "maxPower": "2 W"}"#),
        PowerModel::Square {
            idle: 1.0,
            max: 2.0
        }
    );
    assert_eq!(
        pm(r#"{"modelType": "mse", "idlePower": 1, "maxPower": 2}"#),
        PowerModel::Mse {
            idle: 1.0,
            max: 2.0,
            calibration: 1.0
        }
    );
    assert_eq!(
        pm(
            r#"{"modelType": "asymptotic", "idlePower": 1, "maxPower": 2, "asymUtil": 0.3, "dvfs": false}"#
        ),
        PowerModel::Asymptotic {
            idle: 1.0,
            max: 2.0,
            asym_util: 0.3,
            dvfs: false
        }
    );
    assert_eq!(
        pm(r#"{"modelType": "asymptotic", "idlePower": 1, "maxPower": 2, "asymUtil": 0.3}"#),
        PowerModel::Asymptotic {
            idle: 1.0,
            max: 2.0,
            asym_util: 0.3,
            dvfs: true
        }
    );
}

#[test]
fn power_model_errors() {
    let err =
        |s: &str| read_topology(&host_json(&format!(r#", "cpuPowerModel": {s}"#))).unwrap_err();
    let e = err(r#"{"modelType": "lineer", "idlePower": 1, "maxPower": 2}"#);
    assert!(e[0].message.contains("did you mean \"linear\""), "{e:?}");
    assert_eq!(e[0].path, "clusters[0].hosts[0].cpuPowerModel.modelType");
    let e = err(r#"{"modelType": "linear", "idlePower": 3, "maxPower": 2}"#);
    assert!(e[0].message.contains("at least idlePower"), "{e:?}");
    let e = err(r#"{"modelType": "linear", "maxPower": 2}"#);
    assert!(e[0].message.contains("idlePower"), "{e:?}");
    let e = err(r#"{"modelType": "asymptotic", "idlePower": 1, "maxPower": 2}"#);
    assert!(e[0].message.contains("asymUtil"), "{e:?}");
    let e = err(r#"{"modelType": "linear", "idlePower": "1 Wattz", "maxPower": 2}"#);
    assert!(e[0].message.contains("unknown unit \"Wattz\""), "{e:?}");
    assert!(e[0].line.is_some());
}

#[test]
fn warnings_once_per_kind() {
    let text = r#"{"clusters": [{"name": "C", "battery": {}, "hosts": [
        {"cpu": {"coreCount": 1, "coreSpeed": 1, "vendor": "x", "modelName": "y"}, "memory": {"memorySize": 1, "vendor": "z"}, "color": 1},
        {"cpu": {"coreCount": 1, "coreSpeed": 1, "vendor": "x"}, "memory": {"memorySize": 1}, "color": 2, "coreCont": 3}]}]}"#;
    let t = read_topology(text).unwrap();
    let messages: Vec<&str> = t.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(t.warnings.len(), 4, "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("batteries")));
    assert!(messages.iter().any(|m| m.contains("descriptive")));
    assert!(messages.iter().any(|m| m.contains("\"color\"")));
    assert!(t.warnings.iter().all(|w| w.line.is_some()));
}

#[test]
fn sdk_cluster_count_and_names() {
    let text = r#"{"clusters": [{"name": "C", "count": 2, "hosts": [{"name": "H", "count": 3,
        "cpu": {"coreCount": 2, "coreSpeed": "1 GHz"}, "memory": {"size": "1 GiB"}}]}]}"#;
    let t = read_topology(text).unwrap();
    assert_eq!(t.host_count(), 6);
    let names: Vec<String> = t.clusters.iter().map(|c| c.name.clone()).collect();
    assert_eq!(names, ["C", "C-0"]);
    assert_eq!(t.hosts()[5].name, "H-4");
    assert_eq!(t.hosts()[0].memory_mib, 1024);
    // The same file in legacy spelling ignores the cluster count, with a warning.
    let legacy = text.replace("\"size\"", "\"memorySize\"");
    let t = read_topology(&legacy).unwrap();
    assert_eq!(t.host_count(), 3);
    assert!(t.warnings[0].message.contains("count is ignored"));
}

#[test]
fn carbon_references() {
    let cluster = |ps: &str| {
        format!(
            r#"{{"hosts": [{{"cpu": {{"coreCount": 1, "coreSpeed": 1}}, "memory": {{"memorySize": 1}}}}], "powerSource": {ps}}}"#
        )
    };
    let a = cluster(r#"{"carbonTracePath": "a.parquet"}"#);
    let b = cluster(r#"{"carbonTracePath": "b.parquet"}"#);
    let t = read_topology(&format!(r#"{{"clusters": [{a}, {a}]}}"#)).unwrap();
    assert_eq!(t.carbon_ref.as_deref(), Some("a.parquet"));
    let e = read_topology(&format!(r#"{{"clusters": [{a}, {b}]}}"#)).unwrap_err();
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].path, "clusters[1].powerSource.carbonTracePath");
    let n = cluster(r#"{"carbon": {"type": "named", "name": "NL"}}"#);
    let t = read_topology(&format!(r#"{{"clusters": [{n}]}}"#)).unwrap();
    assert_eq!(t.carbon_ref.as_deref(), Some("NL"));
}

#[test]
fn structural_errors() {
    let e = read_topology(r#"{"clusters": []}"#).unwrap_err();
    assert_eq!(e.len(), 1);
    assert!(e[0].message.contains("no hosts"));
    let e = read_topology(r#"{"clusters": [{"hosts": []}]}"#).unwrap_err();
    assert!(e[0].message.contains("no hosts"));
    let e =
        read_topology(&host_json("").replace("\"coreCount\": 4", "\"coreCount\": 0")).unwrap_err();
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].path, "clusters[0].hosts[0].cpu.coreCount");
    assert!(e[0].message.contains("expected an integer >= 1, found 0"));
    assert_eq!(e[0].line, Some(1));
    let e = read_topology(&host_json("").replace("\"coreCount\": 4, ", "")).unwrap_err();
    assert!(e[0].message.contains("\"coreCount\""), "{e:?}");
    let e = read_topology("[1, 2]").unwrap_err();
    assert!(e[0].message.contains("expected a topology object"));
    let e = read_topology("{\"clusters\": [").unwrap_err();
    assert!(
        e[0].message.contains("not valid JSON") && e[0].line == Some(1),
        "{e:?}"
    );
    let e = read_topology(r#"{"clusters": [{"count": 1e9, "hosts": [{"count": 4000000000, "cpu": {"coreCount": 1, "coreSpeed": 1}, "memory": {"size": 1}}]}]}"#).unwrap_err();
    assert!(e[0].message.contains("at most"), "{e:?}");
}
