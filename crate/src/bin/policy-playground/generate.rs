//! `policy-playground generate`: a workload from the generator's settings
//! ([`policy_playground::generate`]) as the JSON `simulate --workload` reads. Settings come from
//! `--settings FILE` (absent keys at their defaults), then the flags; the page's generator with
//! the same settings gives the same bytes.

use super::simulate::emit;
use super::{print_diagnostics, read_text, Exit, INVALID, UNREADABLE};
use policy_playground::api::{workloads, Answer};
use policy_playground::generate::settings::parse_choices;
use serde_json::{json, Map, Value};
use std::path::PathBuf;

/// The settings of `generate`: a file, then one flag per setting (see `--schema` for each
/// setting's range and default).
#[derive(clap::Args)]
pub struct Args {
    /// A JSON file of settings, as the page's "Download the settings" writes them.
    #[arg(long)]
    pub settings: Option<PathBuf>,
    /// Print the settings' JSON Schema (ranges, defaults, descriptions) instead of a workload.
    #[arg(long)]
    pub schema: bool,
    /// The generator's seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// When arrivals begin: ms since the epoch or ISO-8601 (default 2022-06-13T00:00:00Z).
    #[arg(long)]
    pub start: Option<String>,
    /// How long tasks keep arriving, hours.
    #[arg(long)]
    pub hours: Option<f64>,
    /// The mean arrival rate, tasks per hour.
    #[arg(long = "tasks-per-hour")]
    pub tasks_per_hour: Option<f64>,
    /// constant, daily or bursts.
    #[arg(long)]
    pub pattern: Option<String>,
    /// Daily pattern: the rate swings between (1 - a) and (1 + a) times the mean.
    #[arg(long = "daily-amplitude")]
    pub daily_amplitude: Option<f64>,
    /// Daily pattern: the busiest hour of the day, UTC.
    #[arg(long = "peak-hour")]
    pub peak_hour: Option<f64>,
    /// Bursts: hours between bursts.
    #[arg(long = "burst-every-hours")]
    pub burst_every_hours: Option<f64>,
    /// Bursts: tasks per burst.
    #[arg(long = "burst-size")]
    pub burst_size: Option<u32>,
    /// Bursts: minutes a burst's arrivals spread over.
    #[arg(long = "burst-minutes")]
    pub burst_minutes: Option<f64>,
    /// Core counts with weights, value:weight,... (1:4,2:3,4:2,8:1).
    #[arg(long)]
    pub cores: Option<String>,
    /// Memory per core in MiB with weights, value:weight,... (1024:2,2048:2,4096:1).
    #[arg(long = "memory-per-core-mib")]
    pub memory_per_core_mib: Option<String>,
    /// The speed a task asks per core, MHz.
    #[arg(long = "core-speed-mhz")]
    pub core_speed_mhz: Option<f64>,
    /// constant, logUniform or exponential.
    #[arg(long)]
    pub duration: Option<String>,
    /// The shortest duration, minutes.
    #[arg(long = "duration-min-minutes")]
    pub duration_min_minutes: Option<f64>,
    /// The longest duration, minutes.
    #[arg(long = "duration-max-minutes")]
    pub duration_max_minutes: Option<f64>,
    /// The mean (exponential) or every (constant) duration, minutes.
    #[arg(long = "duration-mean-minutes")]
    pub duration_mean_minutes: Option<f64>,
    /// The share of deferrable tasks, 0-1.
    #[arg(long = "deferrable-share")]
    pub deferrable_share: Option<f64>,
    /// A deferrable task's deadline: submission + duration x (1 + this).
    #[arg(long = "slack-factor")]
    pub slack_factor: Option<f64>,
    /// true: CPU usage changes every fragment; false: each task uses its whole capacity.
    #[arg(long)]
    pub fragments: Option<bool>,
    /// Fragment length, minutes.
    #[arg(long = "fragment-minutes")]
    pub fragment_minutes: Option<f64>,
    /// A fragment's lowest CPU usage, as a share of the task's capacity.
    #[arg(long = "usage-min")]
    pub usage_min: Option<f64>,
    /// A fragment's highest CPU usage, as a share of the task's capacity.
    #[arg(long = "usage-max")]
    pub usage_max: Option<f64>,
    /// Write the workload to FILE (exactly the page's download) instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `generate`.
pub fn run(args: Args) -> Result<(), Exit> {
    if args.schema {
        return match workloads::generator_schema() {
            Answer::Success { value } => emit(&args.out, &pretty(&value)),
            Answer::Failure { errors } => {
                print_diagnostics(None, &errors);
                Err(INVALID)
            }
        };
    }
    let mut settings = match &args.settings {
        None => Map::new(),
        Some(path) => {
            let text = read_text(path)?;
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(m)) => m,
                _ => {
                    eprintln!("{}: not a JSON object of settings", path.display());
                    return Err(INVALID);
                }
            }
        }
    };
    for (key, value) in flags(&args)? {
        settings.insert(key.into(), value);
    }
    match workloads::generated_workload_json(&Value::Object(settings).to_string()) {
        Answer::Success { value } => emit(&args.out, &value),
        Answer::Failure { errors } => {
            print_diagnostics(args.settings.as_deref(), &errors);
            Err(INVALID)
        }
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// The settings the flags give, by their JSON key.
fn flags(a: &Args) -> Result<Vec<(&'static str, Value)>, Exit> {
    let choices = |flag: &str, text: &Option<String>| -> Result<Option<Value>, Exit> {
        text.as_deref()
            .map(|t| {
                parse_choices(t).map(|c| json!(c)).map_err(|e| {
                    eprintln!("generate: --{flag}: {e}");
                    UNREADABLE
                })
            })
            .transpose()
    };
    let start = match &a.start {
        None => None,
        Some(t) => Some(json!(policy_playground::input::time::parse_time_str(t)
            .map_err(|e| {
                eprintln!("generate: --start: {e}");
                UNREADABLE
            })?)),
    };
    let all = [
        ("seed", a.seed.map(Value::from)),
        ("startMs", start),
        ("hours", a.hours.map(Value::from)),
        ("tasksPerHour", a.tasks_per_hour.map(Value::from)),
        ("pattern", a.pattern.clone().map(Value::from)),
        ("dailyAmplitude", a.daily_amplitude.map(Value::from)),
        ("peakHour", a.peak_hour.map(Value::from)),
        ("burstEveryHours", a.burst_every_hours.map(Value::from)),
        ("burstSize", a.burst_size.map(Value::from)),
        ("burstMinutes", a.burst_minutes.map(Value::from)),
        ("cores", choices("cores", &a.cores)?),
        (
            "memoryPerCoreMib",
            choices("memory-per-core-mib", &a.memory_per_core_mib)?,
        ),
        ("coreSpeedMhz", a.core_speed_mhz.map(Value::from)),
        ("duration", a.duration.clone().map(Value::from)),
        (
            "durationMinMinutes",
            a.duration_min_minutes.map(Value::from),
        ),
        (
            "durationMaxMinutes",
            a.duration_max_minutes.map(Value::from),
        ),
        (
            "durationMeanMinutes",
            a.duration_mean_minutes.map(Value::from),
        ),
        ("deferrableShare", a.deferrable_share.map(Value::from)),
        ("slackFactor", a.slack_factor.map(Value::from)),
        ("fragments", a.fragments.map(Value::from)),
        ("fragmentMinutes", a.fragment_minutes.map(Value::from)),
        ("usageMin", a.usage_min.map(Value::from)),
        ("usageMax", a.usage_max.map(Value::from)),
    ];
    Ok(all
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect())
}
