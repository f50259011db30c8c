//! The differential test by hand (see `tests/differential.rs`): runs generated scenarios through
//! the simulator and the reference implementation, and shrinks a disagreement.
//!
//! ```text
//! cargo run --example differential -- --seed SEED      # one scenario: verdict and document
//! cargo run --example differential -- --count N        # seeds 0..N (--from S: S..S+N)
//! cargo run --example differential -- --shrink SEED    # the smallest scenario that disagrees
//! cargo run --example differential -- --file F.json    # a scenario file (--shrink-file F.json)
//! ```

#[path = "../tests/differential/compare.rs"]
mod compare;
#[path = "../tests/differential/gen_policy.rs"]
mod gen_policy;
#[allow(dead_code)]
#[path = "../tests/differential/generate.rs"]
mod generate;
#[path = "../tests/differential/ref_energy.rs"]
mod ref_energy;
#[path = "../tests/differential/ref_hosts.rs"]
mod ref_hosts;
#[path = "../tests/differential/ref_policy.rs"]
mod ref_policy;
#[path = "../tests/differential/ref_result.rs"]
mod ref_result;
#[path = "../tests/differential/ref_task.rs"]
mod ref_task;
#[path = "../tests/differential/reference.rs"]
mod reference;
#[path = "../tests/differential/shrink.rs"]
mod shrink;
#[allow(dead_code)]
#[path = "../tests/differential/suite.rs"]
mod suite;

use serde_json::Value;

const USAGE: &str = "usage: differential (--seed SEED | --count N [--from S] | --shrink SEED | --file F.json | --shrink-file F.json)";

/// Runs what the arguments ask for.
fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| -> Option<&str> {
        let i = args.iter().position(|a| a == flag)?;
        args.get(i + 1).map(String::as_str)
    };
    let number = |flag: &str| -> Result<Option<u64>, String> {
        value(flag)
            .map(|v| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}")))
            .transpose()
    };
    if let Some(seed) = number("--seed")? {
        return one(seed, &generate::scenario(seed));
    }
    if let Some(n) = number("--count")? {
        return many(number("--from")?.unwrap_or(0), n);
    }
    if let Some(seed) = number("--shrink")? {
        return smallest(&generate::scenario(seed));
    }
    if let Some(path) = value("--file") {
        return one(0, &read(path)?);
    }
    if let Some(path) = value("--shrink-file") {
        return smallest(&read(path)?);
    }
    Err(USAGE.into())
}

/// A scenario document from a file.
fn read(path: &str) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
}

/// The first difference of the scenario's two runs, if any.
fn difference(doc: &Value) -> Result<Option<String>, String> {
    Ok(compare::check(doc)?.difference)
}

/// One scenario: its verdict, coverage, and the document.
fn one(seed: u64, doc: &Value) -> Result<(), String> {
    let v = compare::check(doc)?;
    let used: Vec<String> = v
        .coverage
        .features()
        .into_iter()
        .filter(|f| f.1)
        .map(|f| f.0)
        .collect();
    println!("policy: {:?}; exercises: {}", v.kinds, used.join(", "));
    match v.difference {
        Some(d) => println!("{}", suite::report(seed, doc, &d)),
        None => println!(
            "agree\n{}",
            serde_json::to_string_pretty(doc).unwrap_or_default()
        ),
    }
    Ok(())
}

/// Seeds `from..from + n`: the tally and the seeds that disagree.
fn many(from: u64, n: u64) -> Result<(), String> {
    let mut tally = suite::Tally::default();
    let mut failing = Vec::new();
    for seed in from..from + n {
        let doc = generate::scenario(seed);
        let v = compare::check(&doc).map_err(|e| format!("seed {seed}: {e}"))?;
        tally.add(&v);
        if let Some(d) = &v.difference {
            println!("seed {seed}: {d}");
            failing.push(seed);
        }
    }
    println!("{}\ndisagreeing seeds: {failing:?}", tally.summary());
    Ok(())
}

/// Shrinks a disagreement and prints the smallest scenario.
fn smallest(doc: &Value) -> Result<(), String> {
    let Some(first) = difference(doc)? else {
        return Err("the simulator and the reference agree on this scenario".into());
    };
    println!("disagreement: {first}");
    let fails = |d: &Value| matches!(difference(d), Ok(Some(_)));
    let small = shrink::shrink(doc, &fails);
    let last = difference(&small)?.unwrap_or_default();
    println!(
        "smallest scenario ({last}):\n{}",
        serde_json::to_string_pretty(&small).unwrap_or_default()
    );
    Ok(())
}
