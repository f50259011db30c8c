//! The `policy-playground` command line: argument parsing and printing over [`policy_playground::api`].
//!
//! Exit codes, for every command: 0 success, 1 the input is invalid (errors in a policy, a bad
//! trace), 2 usage errors and files that cannot be read.

use clap::{Parser, Subcommand};
use policy_playground::api::{self, Answer};
use policy_playground::case::CaseOptions;
use policy_playground::diag::{Diagnostic, Severity};
use policy_playground::engine::Semantics;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "policy-playground",
    version,
    about = "OpenDC allocation policies: check, expand, decide, simulate and sweep"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate a policy or an OpenDC experiment file.
    Check {
        file: PathBuf,
        /// Print {"ok", "diagnostics", "policies"} as JSON.
        #[arg(long)]
        json: bool,
        /// OpenDC3 (SDK) files: a key OpenDC3 does not know is an error, as `opendc --strict
        /// validate` refuses it (legacy files are strict already).
        #[arg(long)]
        strict: bool,
    },
    /// Print the explicit form of a policy (an array for an experiment file).
    Expand { file: PathBuf },
    /// Simulate a workload on a topology under a policy: a scenario file, an OpenDC experiment,
    /// or separate files.
    Simulate(simulate::Args),
    /// Compare the scenario's policy with others on the same inputs: every figure, the
    /// differences, and energy and carbon over the runs' common window.
    Compare(compare::Args),
    /// Vary one policy setting over several values (and seeds) and tabulate the metrics.
    Sweep(sweep::Args),
    /// Generate a workload (beyond OpenDC): arrivals with a daily pattern or bursts, cores and
    /// memory from choices, durations, deferrable tasks; every setting has a default.
    Generate(generate::Args),
    /// Keep a window of a workload's submissions and/or a seeded sample of its tasks.
    Window(window::Args),
    /// Repeat a workload in time (copy k shifted by k x --shift-ms, ids made unique) and write
    /// it as an OpenDC workload folder: OpenDC's half-year scale is surf_week with 18 copies.
    Tile(tile::Args),
    /// Write the inputs and policies as a folder OpenDC runs: OpenDC3's SDK experiment
    /// (`--format opendc3`, SPEC 11.11) or the legacy experiment with its topology.
    Export(export::Args),
    /// Lesson files: `lesson check FILE` runs a lesson and checks its conditions; `lesson
    /// schema` prints the JSON Schema of lesson files.
    Lesson(lesson::Args),
    /// Measure the figures of the performance issue: surf_week (decode, simulate, peak memory,
    /// timeshift, wasm), decisions against a reference kernel, scaling and memorizing.
    Bench {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Fewer repetitions and smaller synthetic runs (scaled to the stated sizes).
        #[arg(long)]
        quick: bool,
        /// Internal: one run of surf_week (or of the workload folder DIR on surf_week's
        /// topology), then print the peak resident set in bytes.
        #[arg(long, hide = true, value_name = "DIR")]
        rss_child: Option<Option<PathBuf>>,
    },
    /// Run a decision case, or an array of them, and explain each step.
    Decide {
        #[arg(long = "case")]
        case: PathBuf,
        /// Print {"steps": [...]} as JSON.
        #[arg(long)]
        json: bool,
        /// classic or current: overrides every case's `semantics` (SPEC 11.13).
        #[arg(long)]
        semantics: Option<Semantics>,
        /// Classic cases also say which host OpenDC 3 (Current) would choose when it differs
        /// (Current cases always say what Classic would choose).
        #[arg(long = "other-choice")]
        other_choice: bool,
    },
}

mod bench;
mod compare;
mod export;
mod generate;
mod inputs;
mod lesson;
mod simulate;
mod snippet;
mod sweep;
mod sweep_grid;
mod table;
mod tile;
mod window;

/// A process exit code.
type Exit = u8;
/// Input that is invalid: exit 1.
const INVALID: Exit = 1;
/// Usage errors and unreadable files: exit 2.
const UNREADABLE: Exit = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { UNREADABLE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => ExitCode::from(code),
    }
}

fn run(command: Command) -> Result<(), u8> {
    match command {
        Command::Check { file, json, strict } => check(&file, json, strict),
        Command::Expand { file } => expand(&file),
        Command::Decide {
            case,
            json,
            semantics,
            other_choice,
        } => {
            let options = CaseOptions {
                semantics,
                other_choice,
            };
            decide(&case, json, &options)
        }
        Command::Bench {
            rss_child: Some(dir),
            ..
        } => bench::rss_child(dir.as_deref()),
        Command::Bench { json, quick, .. } => bench::run(json, quick),
        Command::Simulate(args) => simulate::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Sweep(args) => sweep::run(args),
        Command::Export(args) => export::run(args),
        Command::Lesson(args) => lesson::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Window(args) => window::run(args),
        Command::Tile(args) => tile::run(args),
    }
}

/// Reads a text file; unreadable is exit 2, not UTF-8 is invalid input (exit 1).
fn read_text(path: &Path) -> Result<String, u8> {
    let bytes = std::fs::read(path).map_err(|e| {
        eprintln!("{}: cannot read the file: {e}", path.display());
        UNREADABLE
    })?;
    String::from_utf8(bytes).map_err(|e| {
        eprintln!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        );
        INVALID
    })
}

/// Prints diagnostics to stderr as `FILE:line:column: severity: message (path)`; without a
/// file, the message names its source itself.
fn print_diagnostics(file: Option<&Path>, diagnostics: &[Diagnostic]) {
    print_diagnostics_in(file, None, diagnostics);
}

/// [`print_diagnostics`] for diagnostics of the text `source` (the file's content): each with a
/// range in it is followed by its line, the range underlined (see [`snippet::underline`]).
fn print_diagnostics_in(file: Option<&Path>, source: Option<&str>, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let severity = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let name = d
            .file
            .clone()
            .or_else(|| file.map(|f| f.display().to_string()));
        let place = match (&name, d.line, d.column) {
            (Some(name), Some(l), Some(c)) => format!("{name}:{l}:{c}: "),
            (Some(name), _, _) => format!("{name}: "),
            (None, Some(l), Some(c)) => format!("{l}:{c}: "),
            (None, _, _) => String::new(),
        };
        let path = if d.path.is_empty() {
            String::new()
        } else {
            format!(" ({})", d.path)
        };
        eprintln!("{place}{severity}: {}{path}", d.message);
        // A diagnostic naming another file (an experiment's topology) is not in `source`.
        let underlined = source
            .filter(|_| d.file.is_none())
            .and_then(|text| snippet::underline(d, text));
        if let Some(lines) = underlined {
            eprintln!("{lines}");
        }
    }
}

fn print_json<T: serde::Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("cannot write JSON: {e}"),
    }
}

fn check(file: &Path, json: bool, strict: bool) -> Result<(), u8> {
    let text = read_text(file)?;
    let sdk = api::experiments::check_experiment(
        &policy_playground::experiment::Disk,
        file,
        &text,
        strict,
    );
    let report = match sdk.unwrap_or_else(|| api::check(&text)) {
        Answer::Success { value } => value,
        Answer::Failure { errors } => {
            print_diagnostics_in(Some(file), Some(&text), &errors);
            return Err(INVALID);
        }
    };
    if json {
        print_json(&serde_json::json!({
            "ok": report.ok,
            "diagnostics": report.diagnostics,
            "policies": report.policies,
        }));
    } else {
        print_diagnostics_in(Some(file), Some(&text), &report.diagnostics);
        let errors = report.diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = report.diagnostics.len() - errors;
        let noun = if report.paths.len() == 1 {
            "policy"
        } else {
            "policies"
        };
        println!(
            "{}: {} {} ({} {errors} error(s), {warnings} warning(s))",
            file.display(),
            report.paths.len(),
            noun,
            if report.document == "experiment" {
                "experiment file,"
            } else {
                "policy file,"
            },
        );
        for (i, (path, description)) in report.paths.iter().zip(&report.descriptions).enumerate() {
            let at = if path.is_empty() {
                String::new()
            } else {
                format!(" {path}")
            };
            match description {
                Some(d) => println!("  {}.{at}: {d}", i + 1),
                None => println!("  {}.{at}: invalid", i + 1),
            }
        }
    }
    if report.ok {
        Ok(())
    } else {
        Err(INVALID)
    }
}

fn expand(file: &Path) -> Result<(), u8> {
    let text = read_text(file)?;
    match api::expand(&text) {
        Answer::Success { value } => {
            if let Answer::Success { value: report } = api::check(&text) {
                print_diagnostics_in(Some(file), Some(&text), &report.diagnostics);
            }
            print_json(&value);
            Ok(())
        }
        Answer::Failure { errors } => {
            print_diagnostics_in(Some(file), Some(&text), &errors);
            Err(INVALID)
        }
    }
}

fn decide(file: &Path, json: bool, options: &CaseOptions) -> Result<(), u8> {
    let text = read_text(file)?;
    let value = match api::decide_with(&text, options) {
        Answer::Success { value } => value,
        Answer::Failure { errors } => {
            print_diagnostics_in(Some(file), Some(&text), &errors);
            return Err(INVALID);
        }
    };
    let value = serde_json::to_value(&value).unwrap_or_default();
    let cases: Vec<&serde_json::Value> = match &value {
        serde_json::Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    let all_ok = cases.iter().all(|c| c["ok"] == true);
    let invalid = cases.iter().any(|c| {
        c["expectError"].is_null()
            && c["diagnostics"]
                .as_array()
                .is_some_and(|d| d.iter().any(|d| d["severity"] == "error"))
    });
    if json {
        print_json(&value);
    } else {
        for (n, case) in cases.iter().enumerate() {
            print_case(file, n, case);
        }
    }
    if invalid {
        Err(INVALID)
    } else if !all_ok {
        eprintln!("{}: some expectations were not met", file.display());
        Err(INVALID)
    } else {
        Ok(())
    }
}

fn print_case(file: &Path, n: usize, case: &serde_json::Value) {
    let name = case["name"]
        .as_str()
        .map_or(String::new(), |s| format!(": {s}"));
    println!("case {}{name}", n + 1);
    if let Ok(diagnostics) =
        serde_json::from_value::<Vec<serde_json::Value>>(case["diagnostics"].clone())
    {
        for d in diagnostics {
            println!(
                "  {}:{}:{}: {}: {} ({})",
                file.display(),
                d["line"],
                d["column"],
                d["severity"].as_str().unwrap_or(""),
                d["message"].as_str().unwrap_or(""),
                d["path"].as_str().unwrap_or("")
            );
        }
    }
    if let Some(want) = case["expectError"].as_str() {
        let verdict = if case["ok"] == true {
            "rejected as expected"
        } else {
            "NOT rejected as expected"
        };
        println!("  expected an error at `{want}`: {verdict}");
    }
    for (s, step) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let chosen = match &step["chosen"] {
            serde_json::Value::String(s) => s.clone(),
            _ => "not placed now".to_string(),
        };
        let verdict = match step["matches"].as_bool() {
            Some(true) => "  [as expected]".to_string(),
            Some(false) => format!("  [EXPECTED {}]", step["expected"]),
            None => String::new(),
        };
        println!("  step {}: {chosen}{verdict}", s + 1);
        let e = &step["explanation"];
        if let Some(d) = e["deferral"].as_object() {
            println!(
                "    time-shift: {} (regime {}, {} task, intensity {} vs reference {}, slack {} ms)",
                d["reason"].as_str().unwrap_or(""),
                d["regime"].as_str().unwrap_or(""),
                d["taskLength"].as_str().unwrap_or(""),
                d["currentIntensity"],
                d["referenceIntensity"],
                d["slackMs"]
            );
        }
        if let Some(p) = e["placement"].as_object() {
            println!("    {}", p["summary"].as_str().unwrap_or(""));
            for h in p["hosts"].as_array().into_iter().flatten() {
                let verdict = if h["passed"] == true {
                    let scores: Vec<String> = h["scores"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|s| {
                            format!(
                                "{} raw {} -> {}",
                                s["weigher"].as_str().unwrap_or(""),
                                s["raw"],
                                s["contribution"]
                            )
                        })
                        .collect();
                    let total = if h["total"].is_null() {
                        String::new()
                    } else {
                        format!(" total {}", h["total"])
                    };
                    format!(
                        "passes{}{total} rank {}",
                        if scores.is_empty() {
                            String::new()
                        } else {
                            format!(" [{}]", scores.join(", "))
                        },
                        h["rank"]
                    )
                } else if let Some(filter) = h["rejectedBy"].as_str() {
                    format!(
                        "rejected by {filter}: {}",
                        h["reason"].as_str().unwrap_or("")
                    )
                } else {
                    h["reason"].as_str().unwrap_or("").to_string()
                };
                println!("      {}: {verdict}", h["name"].as_str().unwrap_or(""));
            }
            if let Some(d) = p["draw"].as_object() {
                println!(
                    "      random draw: index {} among {} (from {})",
                    d["index"], d["among"], d["values"]
                );
            }
            if let Some(c) = p.get("current") {
                print_current(c);
            }
            if let Some(o) = p.get("other") {
                println!(
                    "    {} ({})",
                    o["text"].as_str().unwrap_or(""),
                    o["rule"].as_str().unwrap_or("")
                );
            }
        }
    }
}

/// The lines of a Current decision's record (SPEC 11.12, C20): C with origins, failed type
/// heads, each weigher's arithmetic and W, and maxIdx.
fn print_current(c: &serde_json::Value) {
    let Some(candidates) = c["candidates"].as_array() else {
        return;
    };
    let list: Vec<String> = candidates
        .iter()
        .map(|k| {
            format!(
                "{} ({})",
                k["host"].as_str().unwrap_or(""),
                k["origin"].as_str().unwrap_or("")
            )
        })
        .collect();
    println!("      C = [{}]", list.join(", "));
    for f in c["failedHeads"].as_array().into_iter().flatten() {
        println!(
            "      type {}: first empty host {} fails {}: {}",
            f["type"].as_str().unwrap_or(""),
            f["host"].as_str().unwrap_or(""),
            f["filter"].as_str().unwrap_or(""),
            f["reason"].as_str().unwrap_or("")
        );
    }
    for w in c["weighers"].as_array().into_iter().flatten() {
        println!(
            "      {} x{}: raw {} lo {} hi {} range {} factor {}; W {} -> {}",
            w["weigher"].as_str().unwrap_or(""),
            w["multiplier"],
            w["raw"],
            w["lo"],
            w["hi"],
            w["range"],
            if w["skipped"] == true {
                "(skipped)".to_string()
            } else {
                w["factor"].to_string()
            },
            w["wBefore"],
            w["wAfter"]
        );
    }
    for u in c["maxUpdates"].as_array().into_iter().flatten() {
        println!(
            "      maxIdx <- {} ({}), W {} > maxW, maxW <- {}",
            u["index"],
            u["host"].as_str().unwrap_or(""),
            u["w"],
            u["maxW"]
        );
    }
    println!("      final maxIdx {}", c["maxIdx"]);
}
