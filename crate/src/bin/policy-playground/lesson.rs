//! `policy-playground lesson check FILE`: runs a lesson's policies on its inputs and checks its
//! conditions (exit 0 only when every one holds, 1 naming each that does not, 2 for a file that
//! cannot be read); `lesson schema` prints the JSON Schema of lesson files.

use super::inputs::load_error;
use super::{print_diagnostics_in, print_json, read_text, Exit, INVALID, UNREADABLE};
use policy_playground::experiment::{self, Disk};
use policy_playground::input::json_text;
use policy_playground::lesson::run::{check, LessonCheck};
use policy_playground::lesson::{self, Lesson, LessonInputs, MAX_LESSON_BYTES};
use policy_playground::model::{CarbonTrace, Topology, Workload};
use policy_playground::request::Inputs;
use std::path::{Path, PathBuf};

/// The `lesson` commands.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: LessonCommand,
}

#[derive(clap::Subcommand)]
pub enum LessonCommand {
    /// Run a lesson's policies on its inputs and check its conditions: exit 0 when they all
    /// hold, 1 naming each condition that does not.
    Check {
        file: PathBuf,
        /// The folder of the embedded samples a lesson names (default: `../samples` beside the
        /// lesson, else `www/samples`).
        #[arg(long)]
        samples: Option<PathBuf>,
        /// Print {"holds", "conditions", "answer"} as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema of lesson files.
    Schema,
}

/// Runs a `lesson` command.
pub fn run(args: Args) -> Result<(), Exit> {
    match args.command {
        LessonCommand::Schema => {
            print_json(&lesson::schema::lesson_schema());
            Ok(())
        }
        LessonCommand::Check {
            file,
            samples,
            json,
        } => check_file(&file, samples.as_deref(), json),
    }
}

fn check_file(file: &Path, samples: Option<&Path>, json: bool) -> Result<(), Exit> {
    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    if size > MAX_LESSON_BYTES as u64 {
        eprintln!(
            "{}: the lesson is {size} bytes; a lesson file is at most {} MiB",
            file.display(),
            MAX_LESSON_BYTES >> 20
        );
        return Err(INVALID);
    }
    let text = read_text(file)?;
    let lesson = lesson::read(&text).map_err(|ds| {
        print_diagnostics_in(Some(file), Some(&text), &ds);
        INVALID
    })?;
    print_diagnostics_in(Some(file), Some(&text), &lesson.warnings);
    let loaded = load(&lesson, file, samples)?;
    let inputs = Inputs {
        topology: &loaded.0,
        workload: &loaded.1,
        carbon: loaded.2.as_ref(),
    };
    let checked = check(&lesson, inputs).map_err(|ds| {
        print_diagnostics_in(Some(file), Some(&text), &json_text::place(&text, ds));
        INVALID
    })?;
    if json {
        print_json(&serde_json::json!({
            "holds": checked.holds(),
            "conditions": checked.verdicts,
            "answer": checked.answer,
        }));
    } else {
        report(file, &lesson, &checked);
    }
    for (n, v) in checked
        .verdicts
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.holds)
    {
        eprintln!(
            "{}:{}:{}: error: {}",
            file.display(),
            v.line,
            v.column,
            v.failure_message(n)
        );
    }
    if checked.holds() {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// The lesson's title, runs, each condition with its figures, and the question's answer.
fn report(file: &Path, lesson: &Lesson, c: &LessonCheck) {
    let runs: Vec<String> = lesson
        .policies
        .iter()
        .map(|p| match &p.name {
            Some(n) => format!("{}: {n}", p.label),
            None => p.label.clone(),
        })
        .collect();
    println!("{}: {} ({})", file.display(), lesson.title, runs.join(", "));
    for v in &c.verdicts {
        let figures: Vec<String> = v
            .figures
            .iter()
            .map(|f| format!("{} = {}", f.figure, f.text))
            .collect();
        let mark = if v.holds { "ok  " } else { "FAIL" };
        println!("  {mark} {}", v.text);
        println!("       {}", v.error.clone().unwrap_or(figures.join(", ")));
    }
    println!("  answer: {}", c.answer.answer);
    let held = c.verdicts.iter().filter(|v| v.holds).count();
    println!("{held} of {} conditions hold", c.verdicts.len());
}

/// The lesson's inputs: its embedded scenario, or its sample read from the samples folder.
fn load(
    lesson: &Lesson,
    file: &Path,
    samples: Option<&Path>,
) -> Result<(Topology, Workload, Option<CarbonTrace>), Exit> {
    let name = match &lesson.inputs {
        LessonInputs::Scenario(s) => {
            return Ok((s.topology.clone(), s.workload.clone(), s.carbon.clone()))
        }
        LessonInputs::Sample(name) => name,
    };
    let dir = samples_dir(file, samples).join(name);
    let scenario = dir.join("scenario.json");
    if scenario.is_file() {
        let text = read_text(&scenario)?;
        let s = policy_playground::scenario::read(&text).map_err(|ds| {
            print_diagnostics_in(Some(&scenario), Some(&text), &ds);
            INVALID
        })?;
        return Ok((s.topology, s.workload, s.carbon));
    }
    if !dir.is_dir() {
        eprintln!(
            "{}: the sample `{name}` is not there (give the samples folder with --samples)",
            dir.display()
        );
        return Err(UNREADABLE);
    }
    let topology =
        experiment::load_topology(&Disk, &dir.join("topology.json")).map_err(load_error)?;
    let workload = experiment::load_workload(&Disk, &dir).map_err(load_error)?;
    let carbon_path = dir.join("carbon.json");
    let carbon = if carbon_path.is_file() {
        Some(experiment::load_carbon(&Disk, &carbon_path).map_err(load_error)?)
    } else {
        None
    };
    Ok((topology, workload, carbon))
}

/// Where the samples are: `--samples`, else `../samples` beside the lesson (a lesson of
/// `www/lessons`), else `www/samples` under the current folder or the repository.
fn samples_dir(file: &Path, given: Option<&Path>) -> PathBuf {
    if let Some(d) = given {
        return d.to_path_buf();
    }
    let beside = file
        .parent()
        .unwrap_or(Path::new("."))
        .join("..")
        .join("samples");
    [
        beside.clone(),
        PathBuf::from("www/samples"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/samples"),
    ]
    .into_iter()
    .find(|d| d.is_dir())
    .unwrap_or(beside)
}
