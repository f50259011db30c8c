// Generated from the Rust types by crate/src/typescript.rs (ts-rs); do not edit.
// Regenerate: UPDATE_TYPES=1 cargo test -p policy-playground --features ts --lib typescript

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

/**
 * How bad a problem is: an `Error` stops the input from being used, a `Warning` does not.
 */
export type Severity = "error" | "warning";

/**
 * A point in a text: 1-based line, 1-based column in UTF-16 code units (what browser editors
 * count), and the byte offset from the start of the text.
 */
export type TextPoint = { line: number, column: number, 
/**
 * Byte offset (a u32: inputs are far below 4 GiB, and a diagnostic stays small).
 */
offset: number, };

/**
 * A diagnostic's JSON, field by field: `Diagnostic` serializes through it, and its TypeScript
 * declaration is derived from it, so that both come from one definition.
 */
export type Diagnostic = { severity: Severity, message: string, path: string, line: number | null, column: number | null, file?: string, start?: TextPoint, end?: TextPoint, };

/**
 * The answer of every operation.
 */
export type Answer<T> = { "type": "success", value: T, } | { "type": "failure", errors: Array<Diagnostic>, };

/**
 * The value of a `check`: whether the document is valid, every diagnostic, and each policy in
 * its explicit form (`null` for an entry with errors).
 */
export type CheckReport = { ok: boolean, diagnostics: Array<Diagnostic>, policies: Array<JsonValue>, 
/**
 * `policy` or `experiment`.
 */
document: string, 
/**
 * Where each policy sits in the document (`allocationPolicies[1]`, or `""`).
 */
paths: Array<string>, 
/**
 * A one-line description of each policy (`null` for an entry with errors).
 */
descriptions: Array<string | null>, };

/**
 * A prefab as the page lists it.
 */
export type PrefabInfo = { name: string, 
/**
 * What it does, in a line.
 */
doc: string, 
/**
 * Its explicit policy, every default written out.
 */
expansion: JsonValue, };

/**
 * A setting a sweep can vary: a JSON Pointer into the policy's explicit form, and its value.
 */
export type SweepSetting = { pointer: string, 
/**
 * How the setting reads (`Ram filter: allocation ratio`).
 */
label: string, value: JsonValue, };

/**
 * One decision case's outcome, or those of an array of cases.
 */
export type Decided = CaseOutcome | Array<CaseOutcome>;

/**
 * What a step decided.
 */
export type Chosen = string | "deferred" | null | null;

/**
 * The explanation of one step: the deferral test (timeshift policies) and the placement.
 */
export type StepExplanation = { deferral?: Deferral, placement: Placement | null, };

/**
 * One step's outcome.
 */
export type StepOutcome = { chosen: Chosen, explanation: StepExplanation, 
/**
 * The case's expectation, when it has one.
 */
expected?: JsonValue, 
/**
 * Whether the outcome met the expectation.
 */
matches?: boolean, };

/**
 * A case's outcome.
 */
export type CaseOutcome = { name?: string, source?: string, steps: Array<StepOutcome>, 
/**
 * The policy's diagnostics (warnings, or the errors when it was rejected).
 */
diagnostics: Array<Diagnostic>, expectError?: string, 
/**
 * True when the case ran and every expectation held (or the expected error was given).
 */
ok: boolean, 
/**
 * `current` when the case ran under Current (SPEC 11.13); absent for Classic.
 */
semantics?: Semantics, };

/**
 * A draw: the generator outputs consumed and the index they gave.
 */
export type Draw = { 
/**
 * The 64-bit outputs used; one, except with probability below k / 2^64.
 */
values: Array<number>, 
/**
 * Among how many ranked hosts the index was drawn.
 */
among: number, index: number, };

/**
 * The semantics of a run: `classic` (the default) or `current`.
 */
export type Semantics = "classic" | "current";

/**
 * Why one placement went where it did.
 */
export type Placement = { 
/**
 * `filter` (filter, normalise, rank) or `memorizing` (lowest bucket first).
 */
scheduler: string, 
/**
 * Every host, in topology order.
 */
hosts: Array<HostRow>, 
/**
 * Per weigher: its range over the candidates.
 */
weighers: Array<WeigherRange>, 
/**
 * Number of hosts that passed every filter.
 */
candidates: number, 
/**
 * `min(subsetSize, candidates)`: how many ranked hosts the choice was drawn among.
 */
subset: number, draw: Draw | null, 
/**
 * The chosen host's name, `None` when no host fits now.
 */
chosen: string | null, 
/**
 * `3 hosts: 1 rejected by Ram, 1 by VCpu; chose B`.
 */
summary: string, 
/**
 * `current` when OpenDC 3's filter scheduler decided (SPEC 11.12); absent under Classic.
 */
semantics?: Semantics, 
/**
 * The Current decision's record (C20): candidates, weights, maxIdx and maxW.
 */
current?: CurrentTrace, 
/**
 * Why the chosen host refused the task (C13); `chosen` is then `null`.
 */
refusal?: string, 
/**
 * What the other semantics would choose, when it differs.
 */
other?: OtherChoice, };

/**
 * The other semantics' choice for the same decision, when it differs from the one taken.
 */
export type OtherChoice = { 
/**
 * The semantics that would choose differently.
 */
semantics: Semantics, 
/**
 * Its host, `null` when it would place the task nowhere now.
 */
host: string | null, 
/**
 * The first rule that applies: `not a candidate`, `no draw` or `persistent weights`.
 */
rule: string, 
/**
 * `OpenDC 3 would choose large-1: only the first empty host of each type is a candidate`.
 */
text: string, };

/**
 * An f64 that keeps NaN and the infinities visible in JSON.
 */
export type Num = number | "NaN" | "Infinity" | "-Infinity";

/**
 * A candidate of C6, in C's order.
 */
export type Candidate = { host: string, 
/**
 * `used`, or `empty, first of type T`.
 */
origin: string, };

/**
 * A type whose first empty host failed a filter, so that the type offered no candidate.
 */
export type FailedHead = { type: string, host: string, filter: string, 
/**
 * Why, in numbers (`needs 8 cores, 2 free`).
 */
reason: string, };

/**
 * One weigher's pass of C8 and C9 over the candidates.
 */
export type WeigherPass = { weigher: string, multiplier: number, 
/**
 * Raw weights, per candidate (C8).
 */
raw: Array<Num>, lo: Num, hi: Num, range: Num, 
/**
 * `m / range`; `null` when the range is 0 and the weigher is skipped.
 */
factor: Num | null, skipped: boolean, 
/**
 * W per candidate position, before and after this weigher.
 */
wBefore: Array<Num>, wAfter: Array<Num>, };

/**
 * An update of maxIdx and maxW (C9): position `index` had `w` > the previous maxW.
 */
export type MaxUpdate = { 
/**
 * The weigher (index in the policy) whose pass made the update.
 */
weigher: number, index: number, host: string, 
/**
 * W at that position after the addition.
 */
w: Num, 
/**
 * The new maxW: the candidate's raw weight.
 */
maxW: Num, };

/**
 * The record of one Current decision.
 */
export type CurrentTrace = { 
/**
 * C, in order.
 */
candidates: Array<Candidate>, 
/**
 * Used hosts before this position of U were skipped by the lower bound on the first filter.
 */
lowerBound: number, 
/**
 * Used hosts at that point: |U|.
 */
used: number, failedHeads: Array<FailedHead>, weighers: Array<WeigherPass>, maxUpdates: Array<MaxUpdate>, 
/**
 * The chosen position in C (`null` when C is empty).
 */
maxIdx: number | null, 
/**
 * The final maxW (4.9e-324 when nothing beat it).
 */
maxW: Num, };

/**
 * One host's line in a placement's table.
 */
export type HostRow = { name: string, passed: boolean, 
/**
 * The first filter that rejected the host.
 */
rejectedBy: string | null, 
/**
 * Why, in numbers.
 */
reason: string | null, 
/**
 * Per weigher, in policy order (empty for rejected hosts).
 */
scores: Array<Score>, 
/**
 * Sum of the contributions (candidates of the filter scheduler only).
 */
total: number | null, 
/**
 * 1-based rank among the candidates (filter scheduler) or in bucket order (memorizing).
 */
rank: number | null, 
/**
 * The memorizing scheduler's bucket: the host's number of running tasks.
 */
bucket: number | null, };

/**
 * One weigher's score of one host.
 */
export type Score = { weigher: string, raw: number, 
/**
 * `(raw - min) / (max - min)`, 0 when the weigher adds nothing.
 */
normalized: number, multiplier: number, 
/**
 * `(multiplier * (raw - min)) / (max - min)`, what the host's total got.
 */
contribution: number, };

/**
 * A weigher's range of raw scores over the candidates.
 */
export type WeigherRange = { weigher: string, multiplier: number, min: number | null, max: number | null, 
/**
 * False when every candidate scores the same: the weigher adds nothing.
 */
active: boolean, };

/**
 * What the current intensity was judged against.
 */
export type Basis = { "kind": "forecast", samples: number, } | { "kind": "windowMean", samples: number, };

/**
 * The low-carbon regime at one carbon sample (SPEC 7.1).
 */
export type Regime = { 
/**
 * The intensity of the sample in force, gCO2/kWh.
 */
current: number, lowShort: boolean, lowLong: boolean, 
/**
 * The intensity short tasks wait to get below.
 */
referenceShort: number, 
/**
 * The intensity long tasks wait to get below.
 */
referenceLong: number, basis: Basis, };

/**
 * The task stopper's verdict at one carbon sample (SPEC 7.4).
 */
export type StopperVerdict = { high: boolean, current: number, reference: number, basis: Basis, };

/**
 * The deferral test of one task at one cycle (SPEC 7.2), with its numbers.
 */
export type Deferral = { deferred: boolean, 
/**
 * `short` (< 2 h) or `long`.
 */
taskLength: string, 
/**
 * `low`, `high`, or `none` before the first carbon sample is evaluated.
 */
regime: string, currentIntensity: number | null, 
/**
 * The intensity this task's regime compares against.
 */
referenceIntensity: number | null, basis: Basis | null, nowMs: number, remainingMs: number, deadlineMs: number | null, 
/**
 * `deadline - (now + remaining)`: how long the task could still wait.
 */
slackMs: number | null, reason: string, };

/**
 * The options of a run. Each `None` takes its default ([`sim::DEFAULT_QUANTUM_MS`], the
 * series resolution and limits of [`sim::Options::default`]).
 */
export type RunOptions = { 
/**
 * The seed of the run's generator (SPEC 8).
 */
seed: number, 
/**
 * Scheduling quantum, ms (default 1000; at most [`MAX_QUANTUM_MS`]).
 */
quantumMs: number | null, 
/**
 * Power series resolution, ms (default 60 000; 0: exact change points).
 */
seriesResolutionMs: number | null, 
/**
 * Host counts overriding the topology's, by `cluster/host` name (a teacher's edit).
 */
hostCounts: { [key in string]: number }, 
/**
 * Simulated time past which the run stops, its tasks left terminated (default ten years).
 */
maxTimeMs?: number, 
/**
 * Instants after which the run stops the same way (default 250 million).
 */
maxInstants?: number, 
/**
 * `classic` (the default, SPEC 1-10) or `current` (OpenDC 3's filter scheduler, SPEC
 * 11.12); omitted when classic.
 */
semantics?: Semantics, 
/**
 * Beyond OpenDC: the run sees the carbon trace this many ms later, read cyclically over the
 * trace's span ([`crate::whatif`]: another season of the same year); omitted when unset.
 */
carbonShiftMs?: number, 
/**
 * Beyond OpenDC: every carbon intensity times this (in [0, 1000]); omitted when unset.
 */
carbonScale?: number, 
/**
 * Beyond OpenDC: the relative standard deviation of the seeded noise on the carbon forecast
 * a time-shifting policy reads, never on the intensity it is charged (in [0, 10]; 0 is no
 * noise); omitted when unset. See [`crate::engine::timeshift::ForecastNoise`].
 */
forecastError?: number, };

/**
 * Which way a metric improves.
 */
export type Better = "lower" | "higher" | "neither";

/**
 * One metric as a person reads it.
 */
export type MetricInfo = { 
/**
 * The field of [`Metrics`]' JSON (`energyJ`).
 */
key: string, 
/**
 * What it is, for a table row or an axis (`dynamic energy`).
 */
label: string, 
/**
 * The unit it is shown in (`kWh`; empty for a count).
 */
unit: string, 
/**
 * The unit of the raw number in the result (`J`, `ms`, `g`; empty for a count or a
 * fraction).
 */
rawUnit: string, 
/**
 * The shown value is the raw number times this (J -> kWh: 1 / 3.6e6).
 */
scale: number, 
/**
 * Decimals shown.
 */
decimals: number, better: Better, 
/**
 * A part of the metric before it (idle and dynamic energy of energy), shown indented.
 */
part: boolean, 
/**
 * Whether a sweep or a chart offers it (the descriptive counts are left out).
 */
chartable: boolean, 
/**
 * The metric shown instead of this one when runs that end at different times are compared
 * (`windowEnergyJ` for `energyJ`: see [`WINDOW_METRICS`]).
 */
window: string | null, 
/**
 * One line on what it measures.
 */
help: string, };

/**
 * Everything a run produced.
 */
export type SimResult = { metrics: Metrics, tasks: Array<TaskRecord>, hosts: Array<HostRecord>, series: Series, warnings: Array<Diagnostic>, 
/**
 * Absolute time (ms since the Unix epoch) of simulation time 0: the first submission.
 */
startEpochMs: number, provenance: Provenance, };

/**
 * The run's figures (SPEC 6.6).
 */
export type Metrics = { tasksTotal: number, tasksCompleted: number, tasksTerminated: number, tasksDropped: number, makespanMs: number, meanWaitMs: number | null, p95WaitMs: number | null, 
/**
 * Mean of finish - submission over completed tasks (SPEC 6.6); `None` when none completed.
 */
meanTurnaroundMs: number | null, 
/**
 * Mean bounded slowdown over completed tasks ([`TaskRecord::bounded_slowdown`]).
 */
meanBoundedSlowdown: number | null, 
/**
 * 95th percentile (nearest rank) of the bounded slowdowns of completed tasks.
 */
p95BoundedSlowdown: number | null, deferredTasks: number, deferralMs: number, pausedTasks: number, deadlineMisses: number, meanUtilization: number, 
/**
 * Population standard deviation of the hosts' busy times over their mean (0 when the mean
 * is 0): how unevenly the work was spread.
 */
loadImbalance: number, energyJ: number, idleEnergyJ: number, dynamicEnergyJ: number, carbonG: number | null, idleCarbonG: number | null, dynamicCarbonG: number | null, };

/**
 * A span of time `[fromMs, toMs)`.
 */
export type Span = { fromMs: number, toMs: number, };

/**
 * One uninterrupted run of a task on a host.
 */
export type RunSpan = { host: string, fromMs: number, toMs: number, };

/**
 * What became of one task.
 */
export type TaskRecord = { id: string, name: string, 
/**
 * The host of its last run; `None` when it never started.
 */
host: string | null, submitMs: number, startMs: number | null, finishMs: number, 
/**
 * `completed` or `terminated`.
 */
state: string, waitMs: number | null, deferrals: Array<Span>, pauses: Array<Span>, runs: Array<RunSpan>, deadlineMs: number | null, durationMs: number, cpuCount: number, memoryMib: number, reason?: string, };

/**
 * What one host did.
 */
export type HostRecord = { name: string, cluster: string, cores: number, memory: number, 
/**
 * Time with at least one task running.
 */
busyMs: number, 
/**
 * The time-weighted mean of its utilisation u over the run (SPEC 6.5; 0 for an empty
 * run): the per-host part of the run's `meanUtilization`.
 */
meanUtilization: number, energyJ: number, idleEnergyJ: number, dynamicEnergyJ: number, carbonG: number | null, tasksRun: number, };

/**
 * Step functions over simulation time, as `[timeMs, value]` change points.
 */
export type Series = { 
/**
 * The resolution power was averaged over (0: exact change points).
 */
resolutionMs: number, carbonIntensity: Array<[number, number]>, 
/**
 * Total power of all hosts, W (averaged over `resolutionMs` windows when that is > 0).
 */
powerW: Array<[number, number]>, runningTasks: Array<[number, number]>, queuedTasks: Array<[number, number]>, deferredTasks: Array<[number, number]>, 
/**
 * The time-shifting regime at each carbon sample where it changed.
 */
regime: Array<RegimePoint>, };

/**
 * The regime from `timeMs` on.
 */
export type RegimePoint = { timeMs: number, shortLow: boolean, longLow: boolean, stopperHigh: boolean, };

/**
 * What the result was computed from, so that a saved result can be traced and reproduced.
 */
export type Provenance = { program: string, version: string, seed: number, quantumMs: number, 
/**
 * `current` when the run followed OpenDC 3's scheduler (SPEC 11.12); absent for Classic.
 */
semantics?: Semantics, 
/**
 * FNV-1a-style 64-bit digests (hex) of the inputs as read: topology, workload, carbon, policy.
 */
digests: Digests, };

/**
 * Digests of the inputs (of their parsed content, so that the scenario path and the handle path
 * agree).
 */
export type Digests = { topology: string, workload: string, carbon: string | null, policy: string, };

/**
 * One decision about the task.
 */
export type Decision = { "kind": "deferral" } & Deferral | { "kind": "placement", timeMs: number, placement: Placement, } | { "kind": "pause", timeMs: number, remainingMs: number, } | { "kind": "rejection", timeMs: number, reason: string, };

/**
 * Every decision about one task.
 */
export type TaskExplanation = { decisions: Array<Decision>, 
/**
 * Decisions past [`MAX_DECISIONS`], not kept.
 */
omitted: number, };

/**
 * The run just after the instant `time_ms` (simulation ms).
 */
export type QueueSnapshot = { timeMs: number, 
/**
 * True when the run was over by then.
 */
ended: boolean, running: Array<RunningTask>, 
/**
 * Queued tasks, head first (deferred ones included, where they sit in the queue).
 */
queue: Array<QueuedTask>, 
/**
 * Tasks not submitted yet.
 */
pending: number, completed: number, terminated: number, 
/**
 * The next scheduling cycle, if one is due.
 */
nextCycleMs: number | null, };

/**
 * A task running at the instant.
 */
export type RunningTask = { taskId: string, host: string, 
/**
 * Start of its current run.
 */
sinceMs: number, remainingMs: number, };

/**
 * A task in the queue at the instant.
 */
export type QueuedTask = { taskId: string, 
/**
 * 0 for the head of the queue.
 */
position: number, 
/**
 * `waiting` or `deferred`.
 */
state: string, 
/**
 * When it joined the queue (its submission, or the end of its last run when paused).
 */
sinceMs: number, 
/**
 * The host it would get if it were tried now (`None`: no host fits, or not looked at).
 */
fitsNow: string | null, 
/**
 * Why it is still in the queue, in one sentence.
 */
reason: string, 
/**
 * The time-shifting test with its numbers, for a deferred task.
 */
deferral?: Deferral, };

/**
 * A scenario file loaded as handles, with what else it holds.
 */
export type LoadedScenario = { topology: LoadedInput, workload: LoadedInput, carbon: LoadedInput | null, 
/**
 * The policy as the file writes it.
 */
policy: JsonValue, seed: number, quantumMs: number, 
/**
 * The file's `semantics`; absent when classic.
 */
semantics?: Semantics, 
/**
 * The file's carbon what-ifs (beyond OpenDC), each absent when unset.
 */
carbonShiftMs?: number, carbonScale?: number, forecastError?: number, warnings: Array<Diagnostic>, };

/**
 * An experiment opened with one of its runs loaded.
 */
export type LoadedExperiment = { name: string, 
/**
 * `legacy` (OpenDC 2) or `sdk` (OpenDC3).
 */
format: "legacy" | "sdk", 
/**
 * Every run of the file, in OpenDC3's scenario order.
 */
runs: Array<ExperimentRun>, 
/**
 * The run whose inputs are loaded.
 */
run: number, topology: LoadedInput, workload: LoadedInput, carbon: LoadedInput | null, 
/**
 * Every policy of the file, as its reader understood it.
 */
policies: Array<JsonValue>, warnings: Array<Diagnostic>, 
/**
 * What the page should say about the file, e.g. that OpenDC3 decides it under Current.
 */
notes: Array<string>, };

/**
 * One run of an experiment, as a list shows it.
 */
export type ExperimentRun = { 
/**
 * "trace on topologies[0], policy 2, run 1 (seed 43)".
 */
label: string, policy: number, seed: number, 
/**
 * OpenDC3's scenario index (its `raw-output/<i>/` folder).
 */
scenario: number, };

/**
 * A loaded input's handle and what it holds.
 */
export type LoadedInput = { handle: number, summary: Summary, };

/**
 * What an input holds, for the page to show.
 */
export type Summary = { kind: string, hosts?: number, 
/**
 * `cluster/host` groups with their counts (topologies).
 */
hostGroups?: Array<HostGroupSummary>, tasks?: number, fragments?: number, 
/**
 * Tasks time-shifting can defer: deferrable, with a deadline (workloads).
 */
deferrableTasks?: number, 
/**
 * Tasks marked deferrable without a deadline, which are never deferred (workloads).
 */
deferrableWithoutDeadline?: number, samples?: number, 
/**
 * First and last time, absolute ms.
 */
fromMs?: number, toMs?: number, warnings: Array<Diagnostic>, };

/**
 * A host group of a topology summary.
 */
export type HostGroupSummary = { key: string, count: number, cores: number, memoryMib: number, };

/**
 * Maximum sizes of a session's inputs.
 */
export type Limits = { 
/**
 * Bytes of one file (text or parquet).
 */
maxFileBytes: number, maxTasks: number, maxFragments: number, 
/**
 * Hosts of a topology, after host counts are edited too.
 */
maxHosts: number, };

/**
 * The handles a run is made of.
 */
export type Handles = { topology: number, workload: number, carbon: number | null, };

/**
 * One note: which feature it is about (a stable key) and what to know.
 */
export type Note = { 
/**
 * `timeshift`, `taskStopper`, `subsetSize`, `weighers` or `waiting`.
 */
feature: string, message: string, };

/**
 * A finished run over handles: its handle (to ask about it later) and its result.
 */
export type RunAnswer = { run: number, 
/**
 * What a policy feature could not do on these inputs, and why ([`crate::notes`]).
 */
notes: Array<Note>, 
/**
 * The cluster overview ([`crate::overview`]) in [`crate::overview::answer_buckets`]
 * buckets: made from the result here, so that the page's strip costs no second run.
 */
overview: Overview, result: SimResult, };

/**
 * A run's tasks and hosts as columns. Task `i` (of `taskCount`) is at index `i` of every task
 * column; its runs are `runFrom[k]..` for `k` in `runStart[i]..runStart[i + 1]`, and so for
 * deferrals and pauses. Host `j` (of `hostCount`) is at index `j` of every host column.
 *
 * Strings: string `k` is the UTF-8 bytes `strings[stringEnds[k - 1]..stringEnds[k]]` (from 0 for
 * `k = 0`); task `i`'s id is string `i`, its name string `taskCount + i`, host `j`'s name string
 * `2 * taskCount + j`; clusters and reasons are indices into the same table (each distinct text
 * once).
 */
export type RunColumns = { taskCount: number, hostCount: number, 
/**
 * Every string's bytes, concatenated.
 */
strings: Uint8Array, 
/**
 * The end (exclusive, in bytes) of each string in `strings`.
 */
stringEnds: Uint32Array, 
/**
 * Whether every string is ASCII (a byte offset is then a character offset).
 */
ascii: boolean, 
/**
 * The names of the state codes of `state` (`completed`, `terminated`).
 */
stateNames: Array<string>, 
/**
 * The host of the task's last run, or -1 when it never started.
 */
taskHost: Int32Array, submitMs: Float64Array, 
/**
 * The first start, NaN when it never started.
 */
startMs: Float64Array, finishMs: Float64Array, 
/**
 * NaN when it never started.
 */
waitMs: Float64Array, 
/**
 * An index into `stateNames`.
 */
state: Uint8Array, 
/**
 * NaN without a deadline.
 */
deadlineMs: Float64Array, durationMs: Float64Array, cpuCount: Uint32Array, memoryMib: Float64Array, 
/**
 * A string index, or -1 without a reason.
 */
reason: Int32Array, 
/**
 * Where each task's runs start in the run columns (`taskCount + 1` offsets).
 */
runStart: Uint32Array, 
/**
 * The host index of each run (-1 for a host the result does not list).
 */
runHost: Int32Array, runFrom: Float64Array, runTo: Float64Array, deferralStart: Uint32Array, deferralFrom: Float64Array, deferralTo: Float64Array, pauseStart: Uint32Array, pauseFrom: Float64Array, pauseTo: Float64Array, 
/**
 * A string index.
 */
hostCluster: Uint32Array, hostCores: Uint32Array, hostMemory: Float64Array, hostBusyMs: Float64Array, hostMeanUtilization: Float64Array, hostEnergyJ: Float64Array, hostIdleEnergyJ: Float64Array, hostDynamicEnergyJ: Float64Array, 
/**
 * NaN without a carbon trace.
 */
hostCarbonG: Float64Array, hostTasksRun: Float64Array, };

/**
 * The bars of a run's timeline, as columns. Bar `j` spans `from[j]..to[j]` (simulation ms) in
 * lane `lane[j]`, row `row[j]`; its kind is `kind[j]` (0 queued, 1 deferred, 2 paused, 3
 * running, 4 terminated) and its task `task[j]`. The bars of lane `l` are
 * `laneStart[l]..laneStart[l + 1]`, in order of start; those of task `i` are `taskBars[k]` for
 * `k` in `taskBarStart[i]..taskBarStart[i + 1]`.
 */
export type TimelineBars = { 
/**
 * Hosts, plus one lane for tasks never placed when there are any.
 */
lanes: number, from: Float64Array, to: Float64Array, lane: Int32Array, row: Int32Array, kind: Uint8Array, task: Int32Array, 
/**
 * `lanes + 1` offsets.
 */
laneStart: Int32Array, 
/**
 * Rows of each lane (at least 1).
 */
laneRows: Int32Array, 
/**
 * The longest bar of each lane, ms (a search back from a time needs go no further).
 */
laneMaxDur: Float64Array, 
/**
 * `tasks + 1` offsets into `taskBars`.
 */
taskBarStart: Int32Array, taskBars: Int32Array, 
/**
 * 1 for a completed task that finished after its deadline.
 */
missed: Uint8Array, };

/**
 * The step series of a run as columns, each change point's time beside its value.
 */
export type StepColumns = { powerAtMs: Float64Array, 
/**
 * Total power of all hosts, W (averaged over the series' resolution when it is > 0).
 */
powerW: Float64Array, runningAtMs: Float64Array, runningTasks: Float64Array, queuedAtMs: Float64Array, queuedTasks: Float64Array, deferredAtMs: Float64Array, deferredTasks: Float64Array, };

/**
 * The result of a run without its tasks and hosts (those are in [`BinaryRun::columns`]) and its
 * step series (in [`BinaryRun::steps`]): the same fields, with the same values, as the JSON
 * result's.
 */
export type ResultHead = { metrics: Metrics, series: SeriesHead, warnings: Array<Diagnostic>, startEpochMs: number, provenance: Provenance, };

/**
 * The JSON result's `series` but its step series: the small ones, read whole by the timeline.
 */
export type SeriesHead = { resolutionMs: number, carbonIntensity: Array<[number, number]>, regime: Array<RegimePoint>, };

/**
 * A finished run for the page: [`RunAnswer`] with the result's tasks and hosts as columns, its
 * step series as columns and the timeline's bars laid out ([`TimelineBars`]).
 */
export type BinaryRun = { run: number, notes: Array<Note>, overview: Overview, result: ResultHead, columns: RunColumns, steps: StepColumns, bars: TimelineBars, 
/**
 * The run's figures as the page's table: what `compare` answers for this run alone,
 * labelled `A` (the page shows it without asking again; with two policies it compares).
 */
comparison: Comparison, };

/**
 * What of a run's result a placements-only run gives exactly ([`Session::run_placements`]):
 * its end, time 0, and the carbon intensity and regime over time (none of which follows the
 * hosts' usage).
 */
export type PlacementsHead = { 
/**
 * The run's end (SPEC 6.6's `makespanMs`).
 */
makespanMs: number, 
/**
 * Absolute time (ms since the Unix epoch) of simulation time 0: the first submission.
 */
startEpochMs: number, 
/**
 * The carbon intensity and the time-shifting regime over time, as the full run's.
 */
series: SeriesHead, };

/**
 * The placements of a run, for the page's first draw after an edit while the full run goes on
 * ([`Session::run_placements`]): the tasks' columns and the timeline's bars, exactly the full
 * run's; the hosts' columns keep their names, clusters, cores, memory and tasks run, and the
 * figures that follow usage (busy time, utilisation, energy, carbon) are NaN, since this run
 * does not compute them.
 */
export type PlacementsRun = { result: PlacementsHead, columns: RunColumns, bars: TimelineBars, };

/**
 * An OpenDC experiment of the page's run: the experiment file, its topology file and notes on
 * what OpenDC does differently (the page zips them with the parquet files).
 */
export type OpenDcExport = { 
/**
 * `experiment.json`, in OpenDC's format.
 */
experiment: JsonValue, 
/**
 * `topology.json`, in OpenDC's format.
 */
topology: JsonValue, 
/**
 * What OpenDC does differently for this policy and these options.
 */
notes: Array<string>, };

/**
 * A workload as OpenDC's two parquet files.
 */
export type WorkloadParquet = { 
/**
 * `tasks.parquet`.
 */
tasks: Uint8Array, 
/**
 * `fragments.parquet`.
 */
fragments: Uint8Array, };

/**
 * An OpenDC3 experiment folder's files.
 */
export type OpenDc3Export = { 
/**
 * `experiment.json`, in OpenDC3's SDK format.
 */
experiment: JsonValue, 
/**
 * `NOTES.md`'s items: what OpenDC3 does differently for these policies and options.
 */
notes: Array<string>, 
/**
 * `workload/tasks.parquet`.
 */
tasks: Uint8Array, 
/**
 * `workload/fragments.parquet`.
 */
fragments: Uint8Array, 
/**
 * `carbon.parquet`, when the run has a carbon trace.
 */
carbon: Uint8Array | null, };

/**
 * What a sweep varies.
 */
export type SweepSpec = { 
/**
 * A JSON Pointer into the policy's explicit form; empty: the policy as it is.
 */
parameter: string, 
/**
 * The values the setting takes, in order (ignored without a parameter).
 */
values: Array<JsonValue>, 
/**
 * How many seeds each value runs under: the run's seed and the ones after it (default 1).
 */
seeds: number | null, };

/**
 * One value of the swept setting and what its runs gave.
 */
export type SweepPoint = { 
/**
 * The setting's value (`null` without a parameter).
 */
value: JsonValue, 
/**
 * The policy run, in its explicit form.
 */
policy: JsonValue, 
/**
 * The metrics of each seed's run, in seed order.
 */
runs: Array<Metrics>, 
/**
 * Mean, minimum and maximum over the seeds of every numeric metric, by its name in
 * [`Metrics`]' JSON (a metric that is `null` in some run is summarised over the others):
 * a [`Spread`], or `null` for a metric that is `null` in every run.
 */
summary: Record<string, Spread | null>, };

/**
 * One metric over a sweep point's seeds.
 */
export type Spread = { mean: number, min: number, max: number, 
/**
 * The runs in which the metric has a value.
 */
runs: number, };

/**
 * A finished sweep (read back by [`crate::output::csv::sweep`]'s JSON twin).
 */
export type SweepReport = { parameter: string, seeds: Array<number>, points: Array<SweepPoint>, };

/**
 * A run's energy and carbon from time 0 to `window_end_ms`.
 */
export type WindowFigures = { 
/**
 * The end of the window, simulation ms: the latest end of every run compared.
 */
windowEndMs: number, windowEnergyJ: number, windowIdleEnergyJ: number, 
/**
 * `None` when the run has no carbon trace.
 */
windowCarbonG: number | null, windowIdleCarbonG: number | null, };

/**
 * The comparison table.
 */
export type Comparison = { 
/**
 * The runs' labels, in column order.
 */
labels: Array<string>, 
/**
 * The column the others are compared with.
 */
baseline: number, 
/**
 * The latest end of the runs compared, simulation ms.
 */
windowEndMs: number, 
/**
 * True when the runs end at different times: the window rows differ from the per-run rows
 * and are shown by default.
 */
windowed: boolean, 
/**
 * What the window is, in a sentence (empty when not windowed).
 */
windowNote: string, rows: Array<ComparisonRow>, };

/**
 * In which view a row is shown.
 */
export type RowView = "both" | "window" | "perRun";

/**
 * One metric across the runs.
 */
export type ComparisonRow = { key: string, label: string, help: string, 
/**
 * A part of the row before it (idle energy of energy), shown indented.
 */
part: boolean, view: RowView, 
/**
 * One of the few figures shown above the table ([`HEADLINE`]).
 */
headline: boolean, cells: Array<ComparisonCell>, };

/**
 * One run's value of a metric.
 */
export type ComparisonCell = { 
/**
 * The raw figure, in the result's unit (`None`: the run has none, e.g. no carbon trace).
 */
value: number | null, 
/**
 * The figure as shown (`2 h 14 min`, `1.234 kWh`, `—`).
 */
text: string, 
/**
 * Its difference from the baseline's (`None` in the baseline's column, or when either
 * has no value).
 */
difference: Difference | null, 
/**
 * The least and greatest value over the column's runs, when it has more than one (a
 * portfolio's seeds); `value` is then their mean.
 */
range?: Range, 
/**
 * The best value of the row by the metric's direction (every cell that ties for it);
 * never for a metric without a direction, nor when every value is the same.
 */
best: boolean, };

/**
 * A difference from the baseline.
 */
export type Difference = { 
/**
 * The raw difference, in the result's unit.
 */
value: number, 
/**
 * As shown: `+1.234 kWh (+7.7 %)`, `−41 s (−12 %)`, `=` for none.
 */
text: string, verdict: Verdict, };

/**
 * Whether a difference is an improvement, by the metric's direction.
 */
export type Verdict = "better" | "worse" | "same" | "neither";

/**
 * The spread of a cell over its column's runs.
 */
export type Range = { min: number, max: number, 
/**
 * How many runs have a value.
 */
runs: number, 
/**
 * As shown: `1.2 kWh – 1.4 kWh`.
 */
text: string, };

/**
 * Which runs to compare, their column labels and the baseline column.
 */
export type CompareRequest = { 
/**
 * Run handles, in column order.
 */
runs: Array<number>, 
/**
 * One label per run (`A`, `B`, a policy's name); default: `run 1`, `run 2`, ...
 */
labels?: Array<string>, 
/**
 * The column the others are compared with (default 0).
 */
baseline?: number, };

/**
 * A point of the trade-off: its two values in the result's units (`None`: the run has none).
 */
export type Point = { x: number | null, y: number | null, };

/**
 * A front asked for by the page: the metric of each axis (catalog keys) and the points.
 */
export type ParetoRequest = { x: string, y: string, points: Array<Point>, };

/**
 * The non-dominated points of a trade-off.
 */
export type Pareto = { 
/**
 * The metric on the horizontal axis (a catalog key).
 */
x: string, y: string, 
/**
 * Which way each improves: `lower` or `higher`.
 */
xBetter: Better, yBetter: Better, 
/**
 * The indices of the points on the front, in the order a line joins them: by x
 * ascending, then y ascending.
 */
front: Array<number>, };

/**
 * An empirical CDF.
 */
export type Cdf = { 
/**
 * How many figures it is made of.
 */
n: number, 
/**
 * `[value, fraction]` in ascending order of rank: the figure of rank `r` and `r / n`.
 */
points: Array<[number, number]>, 
/**
 * The quantiles of [`QUANTILES`] that exist (none for an empty distribution).
 */
quantiles: Array<Quantile>, };

/**
 * One quantile: the nearest-rank value `sorted[ceil(percent / 100 * n) - 1]`.
 */
export type Quantile = { percent: number, value: number, };

/**
 * The distributions of a policy's completed tasks, each linked to the catalog metric whose
 * unit it is read in.
 */
export type Distributions = { 
/**
 * Waits, ms (unit of `meanWaitMs`).
 */
wait: Cdf, 
/**
 * Turnarounds, ms (unit of `meanTurnaroundMs`).
 */
turnaround: Cdf, 
/**
 * Bounded slowdowns (unit of `meanBoundedSlowdown`).
 */
boundedSlowdown: Cdf, };

/**
 * One policy of a portfolio, as the page sends it.
 */
export type PortfolioEntry = { 
/**
 * Its name in the table (`Mem`, `my policy`, `subsetSize = 4`).
 */
label: string, 
/**
 * The policy document (JSON text).
 */
policy: string, 
/**
 * Its own semantics; default: the run options'.
 */
semantics?: Semantics, };

/**
 * What a portfolio runs and reports.
 */
export type PortfolioSpec = { entries: Array<PortfolioEntry>, 
/**
 * Seeds per policy: the run options' seed and the ones after it (default 1).
 */
seeds?: number, 
/**
 * The entry the others are compared with (default 0).
 */
baseline?: number, 
/**
 * The trade-off's metrics (catalog keys; default `dynamicCarbonG` and `meanWaitMs`).
 */
x?: string, y?: string, 
/**
 * Points per distribution (default [`cdf::DEFAULT_POINTS`]).
 */
cdfPoints?: number, };

/**
 * One policy of a finished portfolio.
 */
export type PortfolioPolicy = { label: string, semantics: Semantics, 
/**
 * The policy run, in its explicit form.
 */
policy: JsonValue, 
/**
 * Its metrics under the keys of `simulate --json`, then the window figures of SPEC 6.6:
 * each the mean over the seeds that have it (an integer when every run's is and the mean
 * is whole), `null` when no run has it.
 */
metrics: Record<string, number | null>, 
/**
 * The least value of each over the seeds (same keys).
 */
min: Record<string, number | null>, 
/**
 * The greatest.
 */
max: Record<string, number | null>, 
/**
 * The distributions of its completed tasks' figures, over every seed's run.
 */
distributions: Distributions, };

/**
 * A finished portfolio.
 */
export type PortfolioReport = { 
/**
 * The seeds every policy ran under.
 */
seeds: Array<number>, 
/**
 * Each policy's figures, in entry order.
 */
policies: Array<PortfolioPolicy>, 
/**
 * The trade-off's Pareto front over the policies' means.
 */
pareto: Pareto, 
/**
 * The runs' labels, in column order.
 */
labels: Array<string>, 
/**
 * The column the others are compared with.
 */
baseline: number, 
/**
 * The latest end of the runs compared, simulation ms.
 */
windowEndMs: number, 
/**
 * True when the runs end at different times: the window rows differ from the per-run rows
 * and are shown by default.
 */
windowed: boolean, 
/**
 * What the window is, in a sentence (empty when not windowed).
 */
windowNote: string, rows: Array<ComparisonRow>, };

/**
 * Per-task figures of completed tasks, gathered over several runs (a policy's seeds).
 */
export type TaskFigures = { wait: Array<number>, turnaround: Array<number>, boundedSlowdown: Array<number>, };

/**
 * What one run of a portfolio leaves for its report (its result is dropped once read): its
 * metrics, its start and its completed tasks' figures. Run `k` is policy `k / seeds` under seed
 * `k % seeds`.
 */
export type RunFigures = { metrics: Metrics, startEpochMs: number, tasks: TaskFigures, };

/**
 * Runs `from..from + runs.len()` of a portfolio, made in one place (the page makes the two
 * halves of a portfolio in its two workers; [`assemble`] makes the report of the parts, and it
 * is the same bytes as the report of one [`run`]). Crosses between workers as JSON, whose
 * numbers read back to the same bits.
 */
export type PortfolioPart = { from: number, runs: Array<RunFigures>, };

/**
 * How a portfolio's or a sweep's runs are shared between the page's two workers: the ranges
 * each makes (`[from, to)`), the first in the worker that assembles the report.
 */
export type Split = { parts: Array<[number, number]>, };

/**
 * The metrics of runs `from..from + metrics.len()` of a sweep ([`jobs`] order), made in one
 * place: the page makes a sweep's two halves in its two workers, and [`from_parts`] hands them
 * to [`run`] for the report, the same bytes as one place gives. Crosses as JSON.
 */
export type SweepPart = { from: number, metrics: Array<Metrics>, };

/**
 * One setting of a 2-D sweep and its values.
 */
export type Axis = { 
/**
 * A JSON Pointer into the policy's explicit form, or a run option's name.
 */
parameter: string, values: Array<JsonValue>, };

/**
 * What a 2-D sweep varies.
 */
export type GridSpec = { 
/**
 * The setting along the columns.
 */
x: Axis, 
/**
 * The setting along the rows.
 */
y: Axis, 
/**
 * Seeds per cell: the run's seed and the ones after it (default 1).
 */
seeds?: number, };

/**
 * A finished 2-D sweep.
 */
export type GridReport = { x: Axis, y: Axis, seeds: Array<number>, 
/**
 * Row by row: the cell of `y.values[r]` and `x.values[c]` is `cells[r * x.values.len() +
 * c]`, its `value` being `[x value, y value]`.
 */
cells: Array<SweepPoint>, };

/**
 * Everything a generated workload is a function of. Every field has a default, so `{}` (or
 * `generate --seed 5`) is a workload: about three tasks an hour for three days from the start
 * of the teaching sample's carbon trace, a daily peak at 14:00 UTC, 1-8 cores, half of them
 * deferrable with OpenDC's `deferAll` deadline.
 */
export type GeneratorSettings = { seed: number, 
/**
 * The start of the arrivals, ms since the epoch.
 */
startMs: number, hours: number, tasksPerHour: number, pattern: Pattern, dailyAmplitude: number, peakHour: number, burstEveryHours: number, burstSize: number, burstMinutes: number, cores: Array<Choice>, memoryPerCoreMib: Array<Choice>, coreSpeedMhz: number, duration: DurationDistribution, durationMinMinutes: number, durationMaxMinutes: number, durationMeanMinutes: number, deferrableShare: number, slackFactor: number, fragments: boolean, fragmentMinutes: number, usageMin: number, usageMax: number, };

/**
 * One value of a list of choices and its relative weight.
 */
export type Choice = { value: number, weight: number, };

/**
 * How tasks arrive over time.
 */
export type Pattern = "constant" | "daily" | "bursts";

/**
 * How long tasks run.
 */
export type DurationDistribution = "constant" | "logUniform" | "exponential";

/**
 * Which tasks of a workload to keep.
 */
export type Selection = { 
/**
 * Keep tasks submitted at or after this, ms since the epoch (absent: from the first); a
 * request may also write it as ISO-8601 text.
 */
fromMs?: number | string, 
/**
 * Keep tasks submitted before this, ms since the epoch or ISO-8601 (absent: to the last).
 */
toMs?: number | string, 
/**
 * Keep each task with this probability, in (0, 1] (absent: every task).
 */
fraction?: number, 
/**
 * The sample's seed.
 */
seed: number, };

/**
 * One task as the table shows it.
 */
export type TaskRow = { 
/**
 * The index of the task this row came from, to keep its fragments (`null` for a new row).
 */
from: number | null, id: string, name: string, 
/**
 * ISO-8601, UTC (`2022-06-13T06:00:00Z`).
 */
submission: string, durationMinutes: number, cpuCount: number, cpuCapacityMhz: number, memoryMib: number, deferrable: boolean, 
/**
 * ISO-8601, UTC; `null` for none.
 */
deadline: string | null, 
/**
 * How many CPU-usage fragments the task has (not editable).
 */
fragments: number, };

/**
 * The table of a workload: its rows, and the row "add a task" appends.
 */
export type TaskTable = { rows: Array<TaskRow>, 
/**
 * A new task: the next free integer id, submitted with the last task, one hour of one
 * core (at the speed per core of the first task, or 2100 MHz), 1024 MiB.
 */
template: TaskRow, };

/**
 * A run's overview: the buckets and one entry per host group, in topology order.
 */
export type Overview = { 
/**
 * The run's end, simulation ms: the buckets cover `[0, makespanMs]`.
 */
makespanMs: number, buckets: number, 
/**
 * The length of one bucket, ms (`makespanMs / buckets`, not rounded).
 */
bucketMs: number, 
/**
 * The length of one bucket for people (`5 min 2 s`).
 */
bucketText: string, 
/**
 * What a bucket's value is, for a legend.
 */
measure: string, groups: Array<GroupOverview>, };

/**
 * One host group: who it is, where its hosts are among the result's hosts, its use over time
 * and its figures.
 */
export type GroupOverview = { 
/**
 * `cluster/group`, as the run options' `hostCounts` name it.
 */
key: string, cluster: string, name: string, 
/**
 * The index of the group's first host in the result's `hosts` (its hosts follow it).
 */
firstHost: number, hosts: number, coresPerHost: number, 
/**
 * Cores of the whole group.
 */
cores: number, 
/**
 * Per bucket, the mean fraction of the group's cores in use (0 to 1).
 */
utilization: Array<number>, 
/**
 * The largest bucket value.
 */
peak: number, 
/**
 * The mean fraction of the group's cores in use over the whole run.
 */
meanUtilization: number, 
/**
 * Tasks with at least one run span on the group's hosts.
 */
tasksRun: number, 
/**
 * The fraction of the group's host time with at least one task running.
 */
busyFraction: number, energyJ: number, idleEnergyJ: number, dynamicEnergyJ: number, carbonG?: number, 
/**
 * The group's figures in a line for people (a collapsed group's summary row).
 */
summary: string, };

/**
 * The run options of a lesson: every run of it takes these.
 */
export type LessonOptions = { seed: number, quantumMs: number, hostCounts: { [key in string]: number }, semantics: Semantics, };

/**
 * A figure a condition read, with its value as the metrics table shows it.
 */
export type FigureValue = { 
/**
 * As written: `B.dynamicEnergyJ`.
 */
figure: string, 
/**
 * The raw figure, in the result's unit; `None` when the run has none.
 */
value: number | null, 
/**
 * As shown: `16.552 kWh`, `—`.
 */
text: string, };

/**
 * A condition evaluated on runs.
 */
export type ConditionVerdict = { 
/**
 * The condition as written.
 */
text: string, holds: boolean, 
/**
 * Why it could not be evaluated (a figure the run lacks, a division by zero), naming the
 * part: it then does not hold.
 */
error: string | null, 
/**
 * The figures it reads, each once, in the order written.
 */
figures: Array<FigureValue>, 
/**
 * Where it is in the lesson text (1-based line, UTF-16 column).
 */
line: number, column: number, };

/**
 * A student's answer: a choice's index, or a number.
 */
export type StudentAnswer = { choice?: number, value?: number, };

/**
 * The right answer on the runs, and how a student's answer compares with it.
 */
export type Grade = { 
/**
 * The right answer as shown: the choice's text, or `4.98 %` (± the tolerance).
 */
answer: string, 
/**
 * For a numeric question, the right number on these runs.
 */
value: number | null, 
/**
 * Whether the student's answer is right (`None` when there is no answer to grade).
 */
correct: boolean | null, 
/**
 * The student's answer as shown (`None` when there is none).
 */
given: string | null, };

/**
 * What a lesson runs on: a sample's name, or a scenario file's text for `loadScenario`.
 */
export type LessonInputsView = { sample: string | null, scenario: string | null, };

/**
 * A lesson's policy as the page's editor takes it.
 */
export type LessonPolicyView = { label: string, name: string | null, 
/**
 * The policy, pretty-printed JSON.
 */
text: string, };

/**
 * The question without its answer.
 */
export type QuestionView = { "kind": "choice", prompt: string, choices: Array<string>, } | { "kind": "numeric", prompt: string, unit: string | null, };

/**
 * What the page shows of a lesson before the student answers.
 */
export type LessonView = { id: string | null, title: string, intro: Array<string>, inputs: LessonInputsView, options: LessonOptions, 
/**
 * The policies in order (A, then B).
 */
policies: Array<LessonPolicyView>, question: QuestionView, 
/**
 * How many conditions the reveal checks.
 */
conditions: number, warnings: Array<Diagnostic>, };

/**
 * The reveal: the conditions on the runs shown, the answer graded, the explanation.
 */
export type LessonReveal = { title: string, conditions: Array<ConditionVerdict>, 
/**
 * Every condition holds.
 */
holds: boolean, 
/**
 * The runs are the lesson's own: its policies under its options (not edited since).
 */
ownRuns: boolean, 
/**
 * For the lesson's author: each condition that fails on the lesson's own run, with its
 * line, column and figures (empty when the runs are not the lesson's own).
 */
failures: Array<string>, grade: Grade, explanation: Array<string>, };

/**
 * The bounds of lesson files and of the links that carry them.
 */
export type LessonLimits = { maxLessonBytes: number, 
/**
 * The most bytes a share or lesson link may inflate to; past it the page refuses it.
 */
maxLinkBytes: number, maxExpressionChars: number, };

/**
 * What the page asks to reveal: its runs of the lesson (A, then B) and the student's answer
 * (absent: shown without answering).
 */
export type RevealRequest = { runs: Array<number>, answer?: StudentAnswer, };

/**
 * A page of a run's events, as columns: event `from + i` is `timeMs[i]`, `kind[i]` (a code:
 * `kinds[kind[i]]` is its name), `task[i]` (an index into the result's `tasks`) and `host[i]`
 * (an index into the result's `hosts`, or null).
 */
export type ReplayEvents = { 
/**
 * Events in the whole run.
 */
total: number, 
/**
 * Index of this page's first event.
 */
from: number, 
/**
 * The name of each kind code: submission, placement, deferral, pause, finish, termination.
 */
kinds: Array<string>, timeMs: Array<number>, kind: Array<number>, task: Array<number>, host: Array<number | null>, };

/** Each wasm export that answers, and its answer (`JSON.parse` of its text; the parquet
 * exports, `runBinaryWithProgress` and `runPlacements` answer the object itself). `lastPanic`, `formatDuration`,
 * `formatDurationDifference` and `axisTicks` answer plain text, `placementsFirst` a boolean, `start` nothing. */
export interface Answers {
  check: Answer<CheckReport>;
  expand: Answer<JsonValue>;
  prefabs: Answer<Array<PrefabInfo>>;
  opendcDifferences: Answer<Array<Diagnostic>>;
  defaultPolicy: Answer<JsonValue>;
  defaultOptions: Answer<RunOptions>;
  metrics: Answer<Array<MetricInfo>>;
  policySchema: Answer<JsonValue>;
  decide: Answer<Decided>;
  simulate: Answer<SimResult>;
  limits: Answer<Limits>;
  newSeed: Answer<number>;
  loadScenario: Answer<LoadedScenario>;
  loadExperiment: Answer<LoadedExperiment>;
  loadTopology: Answer<LoadedInput>;
  loadWorkloadParquet: Answer<LoadedInput>;
  loadWorkload: Answer<LoadedInput>;
  loadCarbon: Answer<LoadedInput>;
  run: Answer<RunAnswer>;
  runWithProgress: Answer<RunAnswer>;
  runBinaryWithProgress: Answer<BinaryRun>;
  runPlacements: Answer<PlacementsRun>;
  sweep: Answer<SweepReport>;
  sweepWithProgress: Answer<SweepReport>;
  sweepCsv: Answer<string>;
  sweepSettings: Answer<Array<SweepSetting>>;
  queueAt: Answer<QueueSnapshot>;
  compare: Answer<Comparison>;
  overview: Answer<Overview>;
  exportScenario: Answer<string>;
  exportOpenDcExperiment: Answer<OpenDcExport>;
  exportOpenDc3Experiment: Answer<OpenDc3Export>;
  exportOpenDc3Portfolio: Answer<OpenDc3Export>;
  exportWorkloadParquet: Answer<WorkloadParquet>;
  exportCarbonParquet: Answer<Uint8Array>;
  exportResult: Answer<string>;
  exportTasksCsv: Answer<string>;
  explain: Answer<TaskExplanation>;
  replayEvents: Answer<ReplayEvents>;
  release: Answer<boolean>;
  readLesson: Answer<LessonView>;
  revealLesson: Answer<LessonReveal>;
  lessonSchema: Answer<JsonValue>;
  lessonLimits: Answer<LessonLimits>;
  portfolio: Answer<PortfolioReport>;
  portfolioWithProgress: Answer<PortfolioReport>;
  portfolioSplit: Answer<Split>;
  sweepSplit: Answer<Split>;
  sweepPartWithProgress: Answer<SweepPart>;
  sweepAssemble: Answer<SweepReport>;
  sweepGridSplit: Answer<Split>;
  sweepGridPartWithProgress: Answer<SweepPart>;
  sweepGridAssemble: Answer<GridReport>;
  portfolioPartWithProgress: Answer<PortfolioPart>;
  portfolioAssemble: Answer<PortfolioReport>;
  portfolioCsv: Answer<string>;
  pareto: Answer<Pareto>;
  sweepGrid: Answer<GridReport>;
  sweepGridWithProgress: Answer<GridReport>;
  sweepGridCsv: Answer<string>;
  generatorSchema: Answer<JsonValue>;
  generatedWorkloadJson: Answer<string>;
  generateWorkload: Answer<LoadedInput>;
  workloadJson: Answer<string>;
  workloadTable: Answer<TaskTable>;
  editWorkload: Answer<string>;
  selectWorkload: Answer<string>;
  loadWorkloadSelected: Answer<LoadedInput>;
  loadWorkloadParquetSelected: Answer<LoadedInput>;
}
