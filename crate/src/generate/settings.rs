//! The generator's settings: one typed struct, its defaults, its checks and its JSON Schema,
//! all from one table of fields, so the page's form, the CLI's flags and the checks cannot
//! disagree about a name, a range or a default.

use crate::diag::Diagnostic;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// Most tasks one generated workload may hold.
pub const MAX_TASKS: u64 = 100_000;
/// Most fragments one generated workload may hold.
pub const MAX_FRAGMENTS: u64 = 10_000_000;
/// Most entries of a list of choices.
pub const MAX_CHOICES: usize = 32;

/// 2022-06-13 00:00 UTC: the start of the teaching sample's carbon trace, so that a generated
/// workload runs on the teaching sample's topology and carbon as they are.
pub const DEFAULT_START_MS: i64 = 1_655_078_400_000;

/// How tasks arrive over time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Pattern {
    /// A Poisson process of `tasksPerHour`.
    Constant,
    /// A Poisson process whose rate follows the hour of the day (UTC):
    /// `tasksPerHour × (1 + dailyAmplitude × cos(2π (hour − peakHour) / 24))`.
    Daily,
    /// A Poisson process of `tasksPerHour` plus `burstSize` tasks every `burstEveryHours`,
    /// spread uniformly over `burstMinutes`.
    Bursts,
}

/// How long tasks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum DurationDistribution {
    /// Every task runs `durationMeanMinutes`.
    Constant,
    /// `exp(ln min + u (ln max − ln min))`: as many tasks of minutes as of hours.
    LogUniform,
    /// Exponential of mean `durationMeanMinutes`, truncated to `[min, max]` (inverse CDF of the
    /// truncated law, so one draw per task; its mean is then a little off the nominal one).
    Exponential,
}

/// One value of a list of choices and its relative weight.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub value: u32,
    pub weight: f64,
}

/// Everything a generated workload is a function of. Every field has a default, so `{}` (or
/// `generate --seed 5`) is a workload: about three tasks an hour for three days from the start
/// of the teaching sample's carbon trace, a daily peak at 14:00 UTC, 1-8 cores, half of them
/// deferrable with OpenDC's `deferAll` deadline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct GeneratorSettings {
    pub seed: u64,
    /// The start of the arrivals, ms since the epoch.
    pub start_ms: i64,
    pub hours: f64,
    pub tasks_per_hour: f64,
    pub pattern: Pattern,
    pub daily_amplitude: f64,
    pub peak_hour: f64,
    pub burst_every_hours: f64,
    pub burst_size: u32,
    pub burst_minutes: f64,
    pub cores: Vec<Choice>,
    pub memory_per_core_mib: Vec<Choice>,
    pub core_speed_mhz: f64,
    pub duration: DurationDistribution,
    pub duration_min_minutes: f64,
    pub duration_max_minutes: f64,
    pub duration_mean_minutes: f64,
    pub deferrable_share: f64,
    pub slack_factor: f64,
    pub fragments: bool,
    pub fragment_minutes: f64,
    pub usage_min: f64,
    pub usage_max: f64,
}

const fn choice(value: u32, weight: f64) -> Choice {
    Choice { value, weight }
}

impl Default for GeneratorSettings {
    fn default() -> Self {
        GeneratorSettings {
            seed: 0,
            start_ms: DEFAULT_START_MS,
            hours: 72.0,
            tasks_per_hour: 3.0,
            pattern: Pattern::Daily,
            daily_amplitude: 0.6,
            peak_hour: 14.0,
            burst_every_hours: 12.0,
            burst_size: 20,
            burst_minutes: 15.0,
            cores: vec![
                choice(1, 4.0),
                choice(2, 3.0),
                choice(4, 2.0),
                choice(8, 1.0),
            ],
            memory_per_core_mib: vec![choice(1024, 2.0), choice(2048, 2.0), choice(4096, 1.0)],
            core_speed_mhz: 2100.0,
            duration: DurationDistribution::LogUniform,
            duration_min_minutes: 5.0,
            duration_max_minutes: 480.0,
            duration_mean_minutes: 60.0,
            deferrable_share: 0.5,
            slack_factor: 2.0,
            fragments: true,
            fragment_minutes: 5.0,
            usage_min: 0.5,
            usage_max: 1.0,
        }
    }
}

/// A numeric setting: its key, title (with its unit), range, and what it does.
struct Field {
    key: &'static str,
    title: &'static str,
    min: f64,
    max: f64,
    integer: bool,
    help: &'static str,
}

const fn field(
    key: &'static str,
    title: &'static str,
    (min, max): (f64, f64),
    integer: bool,
    help: &'static str,
) -> Field {
    Field {
        key,
        title,
        min,
        max,
        integer,
        help,
    }
}

/// The numeric settings, in the order the page shows them.
const NUMBERS: &[Field] = &[
    field("seed", "Seed", (0.0, 9_007_199_254_740_991.0), true, "The generator's seed: the same settings and seed give the same workload, byte for byte."),
    field("startMs", "Start (ms since the epoch)", (0.0, 8_640_000_000_000_000.0), true, "When arrivals begin; the default is the start of the teaching sample's carbon trace (2022-06-13 00:00 UTC)."),
    field("hours", "Arrivals over (h)", (0.001, 8784.0), false, "How long tasks keep arriving; they may run past it."),
    field("tasksPerHour", "Tasks per hour", (0.0, 10_000.0), false, "The mean arrival rate (over a day, for the daily pattern)."),
    field("dailyAmplitude", "Daily swing (0-1)", (0.0, 1.0), false, "Daily pattern: the rate goes from (1 − swing) to (1 + swing) times the mean."),
    field("peakHour", "Busiest hour (UTC)", (0.0, 24.0), false, "Daily pattern: the hour of the day of the highest rate."),
    field("burstEveryHours", "A burst every (h)", (0.01, 8784.0), false, "Bursts: the time between bursts, the first at half of it."),
    field("burstSize", "Tasks per burst", (0.0, 100_000.0), true, "Bursts: tasks arriving together, on top of the steady rate."),
    field("burstMinutes", "Burst length (min)", (0.0, 1440.0), false, "Bursts: a burst's tasks arrive uniformly over this."),
    field("coreSpeedMhz", "Speed asked per core (MHz)", (1.0, 100_000.0), false, "A task's CPU capacity is its cores times this."),
    field("durationMinMinutes", "Shortest task (min)", (0.001, 525_600.0), false, "Durations are drawn in [shortest, longest]."),
    field("durationMaxMinutes", "Longest task (min)", (0.001, 525_600.0), false, "Durations are drawn in [shortest, longest]."),
    field("durationMeanMinutes", "Mean task (min)", (0.001, 525_600.0), false, "Exponential: the mean before truncation; constant: every task's duration."),
    field("deferrableShare", "Deferrable share (0-1)", (0.0, 1.0), false, "The probability that a task is deferrable (and has a deadline)."),
    field("slackFactor", "Deadline slack (× duration)", (0.0, 1000.0), false, "A deferrable task's deadline is submission + duration × (1 + slack); 2 is OpenDC's deferAll rule (3 × duration)."),
    field("fragmentMinutes", "Fragment length (min)", (0.001, 1440.0), false, "With fragments: durations are whole fragments, each with its own CPU usage."),
    field("usageMin", "Lowest usage (share of capacity)", (0.0, 1.0), false, "With fragments: each fragment uses a uniform share in [lowest, highest] of the task's capacity."),
    field("usageMax", "Highest usage (share of capacity)", (0.0, 1.0), false, "With fragments: each fragment uses a uniform share in [lowest, highest] of the task's capacity."),
];

impl GeneratorSettings {
    /// Reads settings from JSON text (absent keys take their defaults). An unknown key (with
    /// a "did you mean"), a value of the wrong type and a value out of range are each an error
    /// naming the setting.
    pub fn from_json(text: &str) -> Result<Self, Vec<Diagnostic>> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            vec![Diagnostic::error(
                "settings",
                format!("the generator's settings are not JSON: {e}"),
            )]
        })?;
        let Value::Object(map) = value else {
            return Err(vec![Diagnostic::error(
                "settings",
                "the generator's settings must be a JSON object such as {\"seed\": 5}",
            )]);
        };
        let defaults = GeneratorSettings::default().numbers();
        let known: Vec<&str> = defaults.keys().map(String::as_str).collect();
        let mut errors = Vec::new();
        for (k, v) in &map {
            if !known.contains(&k.as_str()) {
                errors.push(Diagnostic::error(
                    k.as_str(),
                    crate::input::problems::unknown_key(k, &known),
                ));
                continue;
            }
            // Each key alone over the defaults: an error here is this key's.
            let one = Value::Object(std::iter::once((k.clone(), v.clone())).collect());
            if let Err(e) = serde_json::from_value::<Self>(one) {
                errors.push(Diagnostic::error(k.as_str(), format!("`{k}`: {e}")));
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let settings: Self = serde_json::from_value(Value::Object(map))
            .map_err(|e| vec![Diagnostic::error("settings", e.to_string())])?;
        settings.check().map(|()| settings)
    }

    /// Every setting out of its range, and the rules between settings, each an error naming it.
    pub fn check(&self) -> Result<(), Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let values = self.numbers();
        for f in NUMBERS {
            let v = values
                .get(f.key)
                .and_then(Value::as_f64)
                .unwrap_or(f64::NAN);
            let whole = !f.integer || v.fract() == 0.0;
            if !(v.is_finite() && (f.min..=f.max).contains(&v) && whole) {
                let kind = if f.integer { "an integer" } else { "a number" };
                errors.push(Diagnostic::error(
                    f.key,
                    format!(
                        "`{}` must be {kind} in [{}, {}], found {v}",
                        f.key, f.min, f.max
                    ),
                ));
            }
        }
        choices(&mut errors, "cores", &self.cores, 1, 1024);
        choices(
            &mut errors,
            "memoryPerCoreMib",
            &self.memory_per_core_mib,
            1,
            1 << 24,
        );
        let mut rule = |ok: bool, key: &str, message: String| {
            if !ok {
                errors.push(Diagnostic::error(key, message));
            }
        };
        rule(
            self.duration_min_minutes <= self.duration_max_minutes,
            "durationMaxMinutes",
            format!(
                "the longest task ({} min) is shorter than the shortest ({} min)",
                self.duration_max_minutes, self.duration_min_minutes
            ),
        );
        rule(
            self.usage_min <= self.usage_max,
            "usageMax",
            format!(
                "the highest usage ({}) is below the lowest ({})",
                self.usage_max, self.usage_min
            ),
        );
        let expected = self.expected_tasks();
        rule(
            expected <= MAX_TASKS as f64,
            "tasksPerHour",
            format!(
                "these settings give about {} tasks; a generated workload holds at most {MAX_TASKS}",
                expected.round()
            ),
        );
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// The number of tasks the settings give on average.
    pub fn expected_tasks(&self) -> f64 {
        let steady = self.tasks_per_hour * self.hours;
        match self.pattern {
            Pattern::Bursts => steady + self.bursts() as f64 * self.burst_size as f64,
            _ => steady,
        }
    }

    /// How many bursts fall in the arrival period: those at `(k + 1/2) × every` before
    /// `hours`, so `ceil(hours / every − 1/2)`.
    pub fn bursts(&self) -> u64 {
        if self.burst_every_hours <= 0.0 {
            return 0;
        }
        let n = libm::ceil(self.hours / self.burst_every_hours - 0.5);
        if n.is_finite() && n > 0.0 {
            n as u64
        } else {
            0
        }
    }

    /// The settings as a JSON object (numbers by key, for the table of fields).
    fn numbers(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }
}

/// A list of choices: 1 to [`MAX_CHOICES`] entries, values in `[lo, hi]`, weights finite and
/// >= 0, some weight positive.
fn choices(errors: &mut Vec<Diagnostic>, key: &str, list: &[Choice], lo: u32, hi: u32) {
    if list.is_empty() || list.len() > MAX_CHOICES {
        errors.push(Diagnostic::error(
            key,
            format!(
                "`{key}` needs 1 to {MAX_CHOICES} choices, found {}",
                list.len()
            ),
        ));
        return;
    }
    for (i, c) in list.iter().enumerate() {
        if !(lo..=hi).contains(&c.value) {
            errors.push(Diagnostic::error(
                format!("{key}[{i}].value"),
                format!(
                    "`{key}` choice {i}: the value must be in [{lo}, {hi}], found {}",
                    c.value
                ),
            ));
        }
        if !(c.weight.is_finite() && c.weight >= 0.0) {
            errors.push(Diagnostic::error(
                format!("{key}[{i}].weight"),
                format!(
                    "`{key}` choice {i}: the weight must be a number >= 0, found {}",
                    c.weight
                ),
            ));
        }
    }
    if !list.iter().any(|c| c.weight > 0.0) {
        errors.push(Diagnostic::error(
            key,
            format!("`{key}` needs a choice of positive weight"),
        ));
    }
}

/// Choices written as the command line takes them, `value:weight` separated by commas
/// (`1:4,2:3,8:1`; a value alone has weight 1), or the error naming the bad item.
pub fn parse_choices(text: &str) -> Result<Vec<Choice>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            let (value, weight) = item.split_once(':').unwrap_or((item, "1"));
            match (value.trim().parse::<u32>(), weight.trim().parse::<f64>()) {
                (Ok(value), Ok(weight)) => Ok(Choice { value, weight }),
                _ => Err(format!(
                    "`{item}` is not value:weight (a whole number, a colon, a number)"
                )),
            }
        })
        .collect()
}

/// The JSON Schema of the settings: for each, its type, range, default, title (with its unit)
/// and description; the page builds its form from it.
pub fn schema() -> Value {
    let defaults = GeneratorSettings::default().numbers();
    let mut properties = Map::new();
    for f in NUMBERS {
        properties.insert(
            f.key.into(),
            json!({
                "type": if f.integer { "integer" } else { "number" },
                "title": f.title,
                "description": f.help,
                "minimum": f.min,
                "maximum": f.max,
                "default": defaults.get(f.key),
            }),
        );
    }
    let choice = |title: &str, help: &str, lo: u32, hi: u32, key: &str| {
        json!({
            "type": "array",
            "title": title,
            "description": help,
            "minItems": 1,
            "maxItems": MAX_CHOICES,
            "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["value", "weight"],
                "properties": {
                    "value": {"type": "integer", "minimum": lo, "maximum": hi},
                    "weight": {"type": "number", "minimum": 0},
                },
            },
            "default": defaults.get(key),
        })
    };
    properties.insert(
        "cores".into(),
        choice(
            "Cores",
            "A task's cores: one of these values, with the given relative weights.",
            1,
            1024,
            "cores",
        ),
    );
    properties.insert(
        "memoryPerCoreMib".into(),
        choice("Memory per core (MiB)", "A task's memory is its cores times one of these values, with the given relative weights.", 1, 1 << 24, "memoryPerCoreMib"),
    );
    properties.insert(
        "pattern".into(),
        json!({
            "type": "string", "title": "Arrivals", "enum": ["constant", "daily", "bursts"],
            "default": defaults.get("pattern"),
            "description": "constant: a Poisson process; daily: its rate follows the hour of the day; bursts: a steady rate plus bursts.",
        }),
    );
    properties.insert(
        "duration".into(),
        json!({
            "type": "string", "title": "Durations", "enum": ["constant", "logUniform", "exponential"],
            "default": defaults.get("duration"),
            "description": "constant: the mean; logUniform: as many tasks of minutes as of hours, in [shortest, longest]; exponential: of the mean, truncated to [shortest, longest].",
        }),
    );
    properties.insert(
        "fragments".into(),
        json!({
            "type": "boolean", "title": "CPU-usage fragments", "default": defaults.get("fragments"),
            "description": "With fragments, a task's CPU usage changes every fragment; without, it uses its whole capacity throughout (SPEC 6.4).",
        }),
    );
    // In the struct's order: the page shows the settings as they are listed here.
    let ordered: Map<String, Value> = defaults
        .keys()
        .filter_map(|k| properties.remove(k).map(|p| (k.clone(), p)))
        .collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "policy-playground workload generator settings",
        "type": "object",
        "additionalProperties": false,
        "properties": ordered,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_settings_are_the_defaults_and_valid() {
        let s = GeneratorSettings::from_json("{}").expect("valid");
        assert_eq!(s, GeneratorSettings::default());
        assert_eq!(s.expected_tasks(), 216.0);
    }

    #[test]
    fn the_schema_has_every_field_with_its_default() {
        let schema = schema();
        let props = schema["properties"].as_object().expect("properties");
        let defaults = serde_json::to_value(GeneratorSettings::default()).expect("JSON");
        let keys: Vec<&String> = defaults.as_object().expect("object").keys().collect();
        assert_eq!(props.len(), keys.len());
        for k in keys {
            assert_eq!(props[k]["default"], defaults[k], "{k}");
        }
    }

    #[test]
    fn bad_settings_are_each_named() {
        let errors = GeneratorSettings::from_json(
            r#"{"hours": -1, "usageMin": 0.9, "usageMax": 0.2, "burstSize": 2.5,
                "cores": [{"value": 0, "weight": 1}], "memoryPerCoreMib": []}"#,
        )
        .expect_err("invalid");
        let paths: Vec<&str> = errors.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["burstSize"]);
        assert_eq!(
            errors[0].message,
            "`burstSize`: invalid type: floating point `2.5`, expected u32"
        );
        let errors = GeneratorSettings::from_json(
            r#"{"hours": -1, "usageMin": 0.9, "usageMax": 0.2,
                "cores": [{"value": 0, "weight": 1}], "memoryPerCoreMib": []}"#,
        )
        .expect_err("invalid");
        let paths: Vec<&str> = errors.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            ["hours", "cores[0].value", "memoryPerCoreMib", "usageMax"]
        );
        assert_eq!(
            errors[0].message,
            "`hours` must be a number in [0.001, 8784], found -1"
        );
        let unknown = GeneratorSettings::from_json(r#"{"tasksPerHours": 3}"#).expect_err("unknown");
        assert_eq!(
            unknown[0].message,
            "unknown key \"tasksPerHours\"; did you mean \"tasksPerHour\"?"
        );
        assert_eq!(unknown[0].path, "tasksPerHours");
        let text = GeneratorSettings::from_json("[1]").expect_err("not an object");
        assert!(text[0]
            .message
            .starts_with("the generator's settings must be a JSON object"));
        let big = GeneratorSettings::from_json(r#"{"tasksPerHour": 10000, "hours": 100}"#)
            .expect_err("too many");
        assert_eq!(
            big[0].message,
            "these settings give about 1000000 tasks; a generated workload holds at most 100000"
        );
    }

    #[test]
    fn choices_read_as_value_colon_weight() {
        assert_eq!(
            parse_choices("1:4, 8 ,2:0.5"),
            Ok(vec![choice(1, 4.0), choice(8, 1.0), choice(2, 0.5)])
        );
        assert_eq!(
            parse_choices("1:x"),
            Err("`1:x` is not value:weight (a whole number, a colon, a number)".into())
        );
    }

    #[test]
    fn bursts_fall_at_the_middle_of_each_period() {
        let s = GeneratorSettings {
            pattern: Pattern::Bursts,
            hours: 72.0,
            burst_every_hours: 12.0,
            ..GeneratorSettings::default()
        };
        assert_eq!(s.bursts(), 6);
        assert_eq!(s.expected_tasks(), 216.0 + 120.0);
        // The first burst is at 6 h: a period of exactly 6 h ends before it.
        for (hours, n) in [(5.0, 0), (6.0, 0), (6.5, 1), (18.0, 1), (18.01, 2)] {
            let t = GeneratorSettings { hours, ..s.clone() };
            assert_eq!(t.bursts(), n, "{hours} h");
        }
    }
}
