// A run's tasks and hosts as the worker hands them over: typed arrays (the wasm's
// runBinaryWithProgress, crate/src/output/columns.rs), read where they lie. `RunData` answers
// one task's or host's figures without building objects for the others; `task(i)` and `host(j)`
// build the JSON result's record of one (the explanation, a tooltip), and `tasks` / `hosts`
// every record, once, for the views that want them all (and for the tests).

/** @typedef {import('./types/answers').RunColumns} RunColumns */
/** @typedef {import('./types/answers').TaskRecord} TaskRecord */
/** @typedef {import('./types/answers').HostRecord} HostRecord */

const decoder = new TextDecoder();
const orNull = (v) => (Number.isNaN(v) ? null : v);

export class RunData {
  /** @param {RunColumns} c */
  constructor(c) {
    this.c = c;
    this.n = c.taskCount;
    this.hostCount = c.hostCount;
    /** Every string decoded at once when all are ASCII (byte offsets are then offsets in it). */
    this.text = c.ascii ? decoder.decode(c.strings) : null;
    /** @type {(string | undefined)[]} strings decoded one by one (non-ASCII tables) */
    this.decoded = [];
    /** @type {Map<string, number> | null} */
    this.byId = null;
    /** @type {TaskRecord[] | null} */
    this.allTasks = null;
    /** @type {HostRecord[] | null} */
    this.allHosts = null;
  }

  /** String `k` of the table. */
  str(k) {
    const ends = this.c.stringEnds, from = k ? ends[k - 1] : 0;
    if (this.text != null) return this.text.slice(from, ends[k]);
    return (this.decoded[k] ??= decoder.decode(this.c.strings.subarray(from, ends[k])));
  }

  taskId(i) { return this.str(i); }
  taskName(i) { return this.str(this.n + i); }
  hostName(j) { return this.str(2 * this.n + j); }
  hostCluster(j) { return this.str(this.c.hostCluster[j]); }
  state(i) { return this.c.stateNames[this.c.state[i]]; }
  reason(i) { const k = this.c.reason[i]; return k < 0 ? null : this.str(k); }
  deferrals(i) { return this.c.deferralStart[i + 1] - this.c.deferralStart[i]; }
  runs(i) { return this.c.runStart[i + 1] - this.c.runStart[i]; }
  waitMs(i) { return orNull(this.c.waitMs[i]); }

  /** The index of the task with this id (undefined when none). */
  indexOf(id) {
    if (!this.byId) {
      this.byId = new Map();
      for (let i = 0; i < this.n; i++) this.byId.set(this.taskId(i), i);
    }
    return this.byId.get(id);
  }

  /**
   * Task `i` as the JSON result's record (the same fields and values).
   * @returns {TaskRecord}
   */
  task(i) {
    const c = this.c;
    const spans = (start, from, to) => {
      const out = [];
      for (let k = start[i]; k < start[i + 1]; k++) out.push({ fromMs: from[k], toMs: to[k] });
      return out;
    };
    const runs = [];
    for (let k = c.runStart[i]; k < c.runStart[i + 1]; k++) {
      runs.push({ host: c.runHost[k] < 0 ? '' : this.hostName(c.runHost[k]), fromMs: c.runFrom[k], toMs: c.runTo[k] });
    }
    /** @type {TaskRecord} */
    const t = {
      id: this.taskId(i), name: this.taskName(i), host: c.taskHost[i] < 0 ? null : this.hostName(c.taskHost[i]),
      submitMs: c.submitMs[i], startMs: orNull(c.startMs[i]), finishMs: c.finishMs[i], state: this.state(i),
      waitMs: orNull(c.waitMs[i]), deferrals: spans(c.deferralStart, c.deferralFrom, c.deferralTo),
      pauses: spans(c.pauseStart, c.pauseFrom, c.pauseTo), runs, deadlineMs: orNull(c.deadlineMs[i]),
      durationMs: c.durationMs[i], cpuCount: c.cpuCount[i], memoryMib: c.memoryMib[i],
    };
    const reason = this.reason(i);
    if (reason != null) t.reason = reason;
    return t;
  }

  /**
   * Host `j` as the JSON result's record.
   * @returns {HostRecord}
   */
  host(j) {
    const c = this.c;
    return {
      name: this.hostName(j), cluster: this.hostCluster(j), cores: c.hostCores[j], memory: c.hostMemory[j],
      busyMs: c.hostBusyMs[j], meanUtilization: c.hostMeanUtilization[j], energyJ: c.hostEnergyJ[j],
      idleEnergyJ: c.hostIdleEnergyJ[j], dynamicEnergyJ: c.hostDynamicEnergyJ[j],
      carbonG: orNull(c.hostCarbonG[j]), tasksRun: c.hostTasksRun[j],
    };
  }

  /** Every task's record (built once, when first asked). */
  get tasks() {
    if (!this.allTasks) this.allTasks = Array.from({ length: this.n }, (_, i) => this.task(i));
    return this.allTasks;
  }

  /** Every host's record (built once). */
  get hosts() {
    if (!this.allHosts) this.allHosts = Array.from({ length: this.hostCount }, (_, j) => this.host(j));
    return this.allHosts;
  }
}

/**
 * The page's run value from a binary run answer's value: `data` reads the columns, and
 * `result` is the JSON result's other fields with `tasks` and `hosts` built from the columns
 * when first read.
 * @param {import('./types/answers').BinaryRun} value
 */
export function withData(value) {
  const data = new RunData(value.columns);
  const result = /** @type {import('./types/answers').ResultHead & {tasks: TaskRecord[], hosts: HostRecord[]}} */ (
    /** @type {unknown} */ (value.result));
  Object.defineProperty(result, 'tasks', { get: () => data.tasks, enumerable: true, configurable: true });
  Object.defineProperty(result, 'hosts', { get: () => data.hosts, enumerable: true, configurable: true });
  return { ...value, result, data };
}
