//! TypeScript declarations of every answer the wasm exports give, derived from the Rust types
//! with ts-rs (feature `ts`), so that the page and the package's users type-check against what
//! Rust serializes and cannot drift from it.
//!
//! [`declarations`] is the text of `www/src/types/answers.d.ts`: one `export type` per answer
//! shape, and the interface `Answers`, which maps each wasm export to the answer it gives. The
//! test below keeps the committed file equal to it (`UPDATE_TYPES=1` rewrites the file); the
//! package test checks that `Answers` names every export of the built module.

use crate::api::{self, Answer};
use crate::{case, compare, diag, engine, overview, parallel, portfolio, request, sim, sweep};
use ts_rs::{Config, TS};

/// The declaration of one type, exported.
fn decl<T: TS + ?Sized>(cfg: &Config) -> String {
    let docs = T::docs().map(|d| d.trim_end().to_string() + "\n");
    format!("{}export {}\n", docs.unwrap_or_default(), T::decl(cfg))
}

/// Every declared answer shape, in dependency order (types first that others refer to).
fn shapes(cfg: &Config) -> Vec<String> {
    vec![
        decl::<serde_json::Value>(cfg),
        decl::<diag::Severity>(cfg),
        decl::<diag::TextPoint>(cfg),
        decl::<diag::DiagnosticJson>(cfg),
        decl::<Answer<()>>(cfg),
        decl::<api::CheckReport>(cfg),
        decl::<api::PrefabInfo>(cfg),
        decl::<api::SweepSetting>(cfg),
        decl::<api::Decided>(cfg),
        decl::<case::Chosen>(cfg),
        decl::<case::StepExplanation>(cfg),
        decl::<case::StepOutcome>(cfg),
        decl::<case::CaseOutcome>(cfg),
        decl::<engine::draw::Draw>(cfg),
        decl::<engine::Semantics>(cfg),
        decl::<engine::explain::Placement>(cfg),
        decl::<engine::explain::OtherChoice>(cfg),
        decl::<engine::current::trace::Num>(cfg),
        decl::<engine::current::trace::Candidate>(cfg),
        decl::<engine::current::trace::FailedHead>(cfg),
        decl::<engine::current::trace::WeigherPass>(cfg),
        decl::<engine::current::trace::MaxUpdate>(cfg),
        decl::<engine::current::trace::CurrentTrace>(cfg),
        decl::<engine::explain::HostRow>(cfg),
        decl::<engine::explain::Score>(cfg),
        decl::<engine::explain::WeigherRange>(cfg),
        decl::<engine::timeshift::Basis>(cfg),
        decl::<engine::timeshift::Regime>(cfg),
        decl::<engine::timeshift::StopperVerdict>(cfg),
        decl::<engine::timeshift::Deferral>(cfg),
        decl::<request::RunOptions>(cfg),
        decl::<sim::metric_catalog::Better>(cfg),
        decl::<sim::metric_catalog::MetricInfo>(cfg),
        decl::<sim::result::SimResult>(cfg),
        decl::<sim::result::Metrics>(cfg),
        decl::<sim::result::Span>(cfg),
        decl::<sim::result::RunSpan>(cfg),
        decl::<sim::result::TaskRecord>(cfg),
        decl::<sim::result::HostRecord>(cfg),
        decl::<sim::result::Series>(cfg),
        decl::<sim::result::RegimePoint>(cfg),
        decl::<sim::result::Provenance>(cfg),
        decl::<sim::result::Digests>(cfg),
        decl::<sim::explain::Decision>(cfg),
        decl::<sim::explain::TaskExplanation>(cfg),
        decl::<sim::queue::QueueSnapshot>(cfg),
        decl::<sim::queue::RunningTask>(cfg),
        decl::<sim::queue::QueuedTask>(cfg),
        decl::<api::handles::LoadedScenario>(cfg),
        decl::<api::experiments::LoadedExperiment>(cfg),
        decl::<api::experiments::ExperimentRun>(cfg),
        decl::<api::handles::LoadedInput>(cfg),
        decl::<api::handles::Summary>(cfg),
        decl::<api::handles::HostGroupSummary>(cfg),
        decl::<api::limits::Limits>(cfg),
        decl::<api::runs::Handles>(cfg),
        decl::<crate::notes::Note>(cfg),
        decl::<api::runs::RunAnswer>(cfg),
        decl::<crate::output::columns::RunColumns>(cfg),
        decl::<crate::output::bars::TimelineBars>(cfg),
        decl::<crate::output::steps::StepColumns>(cfg),
        decl::<api::binary::ResultHead>(cfg),
        decl::<api::binary::SeriesHead>(cfg),
        decl::<api::binary::BinaryRun>(cfg),
        decl::<api::placements::PlacementsHead>(cfg),
        decl::<api::placements::PlacementsRun>(cfg),
        decl::<api::export::OpenDcExport>(cfg),
        decl::<api::export::WorkloadParquet>(cfg),
        decl::<api::export_sdk::OpenDc3Export>(cfg),
        decl::<sweep::SweepSpec>(cfg),
        decl::<sweep::SweepPoint>(cfg),
        decl::<sweep::Spread>(cfg),
        decl::<sweep::SweepReport>(cfg),
        decl::<sim::window::WindowFigures>(cfg),
        decl::<compare::Comparison>(cfg),
        decl::<compare::RowView>(cfg),
        decl::<compare::ComparisonRow>(cfg),
        decl::<compare::ComparisonCell>(cfg),
        decl::<compare::Difference>(cfg),
        decl::<compare::Verdict>(cfg),
        decl::<compare::Range>(cfg),
        decl::<api::compare::CompareRequest>(cfg),
        decl::<portfolio::pareto::Point>(cfg),
        decl::<portfolio::pareto::ParetoRequest>(cfg),
        decl::<portfolio::pareto::Pareto>(cfg),
        decl::<portfolio::cdf::Cdf>(cfg),
        decl::<portfolio::cdf::Quantile>(cfg),
        decl::<portfolio::cdf::Distributions>(cfg),
        decl::<portfolio::PortfolioEntry>(cfg),
        decl::<portfolio::PortfolioSpec>(cfg),
        decl::<portfolio::PortfolioPolicy>(cfg),
        decl::<portfolio::PortfolioReport>(cfg),
        decl::<portfolio::cdf::TaskFigures>(cfg),
        decl::<portfolio::RunFigures>(cfg),
        decl::<portfolio::PortfolioPart>(cfg),
        decl::<parallel::Split>(cfg),
        decl::<sweep::SweepPart>(cfg),
        decl::<portfolio::grid::Axis>(cfg),
        decl::<portfolio::grid::GridSpec>(cfg),
        decl::<portfolio::grid::GridReport>(cfg),
        decl::<crate::generate::settings::GeneratorSettings>(cfg),
        decl::<crate::generate::settings::Choice>(cfg),
        decl::<crate::generate::settings::Pattern>(cfg),
        decl::<crate::generate::settings::DurationDistribution>(cfg),
        decl::<crate::select::Selection>(cfg),
        decl::<crate::task_table::TaskRow>(cfg),
        decl::<crate::task_table::TaskTable>(cfg),
        decl::<overview::Overview>(cfg),
        decl::<overview::GroupOverview>(cfg),
        decl::<crate::lesson::LessonOptions>(cfg),
        decl::<crate::lesson::verdict::FigureValue>(cfg),
        decl::<crate::lesson::verdict::ConditionVerdict>(cfg),
        decl::<crate::lesson::verdict::StudentAnswer>(cfg),
        decl::<crate::lesson::verdict::Grade>(cfg),
        decl::<api::lessons::LessonInputsView>(cfg),
        decl::<api::lessons::LessonPolicyView>(cfg),
        decl::<api::lessons::QuestionView>(cfg),
        decl::<api::lessons::LessonView>(cfg),
        decl::<api::lessons::LessonReveal>(cfg),
        decl::<api::lessons::LessonLimits>(cfg),
        decl::<api::lessons::RevealRequest>(cfg),
        decl::<api::replay::ReplayEvents>(cfg),
    ]
}

/// The answer type of `T` as TypeScript names it.
fn answer<T: TS>(cfg: &Config) -> String {
    Answer::<T>::name(cfg)
}

/// Each wasm export (its JavaScript name) and the answer it gives, parsed from its JSON text.
fn exports(cfg: &Config) -> Vec<(&'static str, String)> {
    let policy = || answer::<serde_json::Value>(cfg);
    let loaded = || answer::<api::handles::LoadedInput>(cfg);
    let text = || answer::<String>(cfg);
    vec![
        ("check", answer::<api::CheckReport>(cfg)),
        ("expand", policy()),
        ("prefabs", answer::<Vec<api::PrefabInfo>>(cfg)),
        (
            "opendcDifferences",
            answer::<Vec<crate::diag::Diagnostic>>(cfg),
        ),
        ("defaultPolicy", policy()),
        ("defaultOptions", answer::<request::RunOptions>(cfg)),
        (
            "metrics",
            answer::<Vec<sim::metric_catalog::MetricInfo>>(cfg),
        ),
        ("policySchema", policy()),
        ("decide", answer::<api::Decided>(cfg)),
        ("simulate", answer::<sim::result::SimResult>(cfg)),
        ("limits", answer::<api::limits::Limits>(cfg)),
        ("newSeed", answer::<u32>(cfg)),
        ("loadScenario", answer::<api::handles::LoadedScenario>(cfg)),
        (
            "loadExperiment",
            answer::<api::experiments::LoadedExperiment>(cfg),
        ),
        ("loadTopology", loaded()),
        ("loadWorkloadParquet", loaded()),
        ("loadWorkload", loaded()),
        ("loadCarbon", loaded()),
        ("run", answer::<api::runs::RunAnswer>(cfg)),
        ("runWithProgress", answer::<api::runs::RunAnswer>(cfg)),
        (
            "runBinaryWithProgress",
            answer::<api::binary::BinaryRun>(cfg),
        ),
        (
            "runPlacements",
            answer::<api::placements::PlacementsRun>(cfg),
        ),
        ("sweep", answer::<sweep::SweepReport>(cfg)),
        ("sweepWithProgress", answer::<sweep::SweepReport>(cfg)),
        ("sweepCsv", text()),
        ("sweepSettings", answer::<Vec<api::SweepSetting>>(cfg)),
        ("queueAt", answer::<sim::queue::QueueSnapshot>(cfg)),
        ("compare", answer::<compare::Comparison>(cfg)),
        ("overview", answer::<overview::Overview>(cfg)),
        ("exportScenario", text()),
        (
            "exportOpenDcExperiment",
            answer::<api::export::OpenDcExport>(cfg),
        ),
        (
            "exportOpenDc3Experiment",
            answer::<api::export_sdk::OpenDc3Export>(cfg),
        ),
        (
            "exportOpenDc3Portfolio",
            answer::<api::export_sdk::OpenDc3Export>(cfg),
        ),
        (
            "exportWorkloadParquet",
            answer::<api::export::WorkloadParquet>(cfg),
        ),
        ("exportCarbonParquet", "Answer<Uint8Array>".into()),
        ("exportResult", text()),
        ("exportTasksCsv", text()),
        ("explain", answer::<sim::explain::TaskExplanation>(cfg)),
        ("replayEvents", answer::<api::replay::ReplayEvents>(cfg)),
        ("release", answer::<bool>(cfg)),
        ("readLesson", answer::<api::lessons::LessonView>(cfg)),
        ("revealLesson", answer::<api::lessons::LessonReveal>(cfg)),
        ("lessonSchema", policy()),
        ("lessonLimits", answer::<api::lessons::LessonLimits>(cfg)),
        ("portfolio", answer::<portfolio::PortfolioReport>(cfg)),
        (
            "portfolioWithProgress",
            answer::<portfolio::PortfolioReport>(cfg),
        ),
        ("portfolioSplit", answer::<parallel::Split>(cfg)),
        ("sweepSplit", answer::<parallel::Split>(cfg)),
        ("sweepPartWithProgress", answer::<sweep::SweepPart>(cfg)),
        ("sweepAssemble", answer::<sweep::SweepReport>(cfg)),
        ("sweepGridSplit", answer::<parallel::Split>(cfg)),
        ("sweepGridPartWithProgress", answer::<sweep::SweepPart>(cfg)),
        (
            "sweepGridAssemble",
            answer::<portfolio::grid::GridReport>(cfg),
        ),
        (
            "portfolioPartWithProgress",
            answer::<portfolio::PortfolioPart>(cfg),
        ),
        (
            "portfolioAssemble",
            answer::<portfolio::PortfolioReport>(cfg),
        ),
        ("portfolioCsv", text()),
        ("pareto", answer::<portfolio::pareto::Pareto>(cfg)),
        ("sweepGrid", answer::<portfolio::grid::GridReport>(cfg)),
        (
            "sweepGridWithProgress",
            answer::<portfolio::grid::GridReport>(cfg),
        ),
        ("sweepGridCsv", text()),
        ("generatorSchema", policy()),
        ("generatedWorkloadJson", text()),
        ("generateWorkload", loaded()),
        ("workloadJson", text()),
        ("workloadTable", answer::<crate::task_table::TaskTable>(cfg)),
        ("editWorkload", text()),
        ("selectWorkload", text()),
        ("loadWorkloadSelected", loaded()),
        ("loadWorkloadParquetSelected", loaded()),
    ]
}

/// The text of `www/src/types/answers.d.ts`.
pub fn declarations() -> String {
    let cfg = Config::default().with_large_int("number");
    let mut out = String::from(
        "// Generated from the Rust types by crate/src/typescript.rs (ts-rs); do not edit.\n\
         // Regenerate: UPDATE_TYPES=1 cargo test -p policy-playground --features ts --lib typescript\n\n",
    );
    for shape in shapes(&cfg) {
        out.push_str(&shape);
        out.push('\n');
    }
    out.push_str(
        "/** Each wasm export that answers, and its answer (`JSON.parse` of its text; the parquet\n \
         * exports, `runBinaryWithProgress` and `runPlacements` answer the object itself). `lastPanic`, `formatDuration`,\n \
         * `formatDurationDifference` and `axisTicks` answer plain text, `placementsFirst` a boolean, `start` nothing. */\n\
         export interface Answers {\n",
    );
    for (name, answer) in exports(&cfg) {
        out.push_str(&format!("  {name}: {answer};\n"));
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed declarations are what the Rust types give now.
    #[test]
    fn the_committed_declarations_are_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../www/src/types/answers.d.ts");
        let now = declarations();
        if std::env::var_os("UPDATE_TYPES").is_some() {
            std::fs::write(path, &now).expect("www/src/types/answers.d.ts is writable");
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == now,
            "{path} is not what the Rust types give: regenerate it with \
             UPDATE_TYPES=1 cargo test -p policy-playground --features ts --lib typescript"
        );
    }
}
